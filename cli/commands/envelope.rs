//! `sobre envelope`: what the envelope of an adjourned game says (FIDE A2); the arbiter
//! opening the envelope they keep (A3, A9); the sealer who lost the opening (A11).

use super::common::{self, capitalise, human_duration, print_json, rfc3339, text};
use super::contacts::Contacts;
use super::show::{game_tag, state_line};
use crate::error;
use serde_json::Value;
use sobre_node::api::ApiRequest;
use std::path::Path;
use std::process::ExitCode;

/// Show the envelope of an adjourned game, as FIDE Appendix A2 lists it: the position
/// before the sealed move, the time used by each player, who sealed, the move number, a
/// pending draw offer, when and where the game resumes, and the arbiter who keeps it (A3).
/// The sealed move itself stays secret until resumption.
///
/// With --json, one object: `game`, `status`, `envelope` (null if none; `sealer`,
/// `sealed_at_ms`, `move_number`, `fen_before`, `time_used_ms`, `draw_offer_by`,
/// `resume_at_ms`, `place`, `opened` (null, or the move as written once opened),
/// `commitment`, `letters`, `arbiter` (null, or the player keeping the opening in escrow),
/// `opened_by_arbiter`).
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    action: Option<EnvelopeCommand>,
    /// The game id (or a unique prefix of it).
    #[arg(required = true)]
    game: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Subcommand)]
pub enum EnvelopeCommand {
    Open(OpenArgs),
    Lost(LostArgs),
}

/// As the arbiter keeping an envelope (A3), open it: the sealed move, read in memory from
/// the escrow, is signed and played as the sealer's move (A9).
///
/// Refused before Appendix A lets the envelope be opened (the agreed resumption with the
/// responder present; earlier only when both players are present, A2.7, A7) and when this
/// node is not the envelope's arbiter. The node also opens it by itself at the resumption.
#[derive(clap::Args)]
pub struct OpenArgs {
    /// The game id (or a unique prefix of it).
    game: String,
    /// Print the game as one JSON object (as `show --json`).
    #[arg(long)]
    json: bool,
}

/// As the sealer, say you lost the opening of your sealed move (A11): whether an arbiter
/// keeps it (their node opens the envelope at the resumption; nothing is lost), or, without
/// one, what is left: the game goes on only with the sealed move, so resign (A6) or lose on
/// the responder's claim after the lateness limit (A8, A10).
///
/// With --json, one object: `game`, `status`, `result`, `opening_held`, `arbiter`,
/// `binding`, `resume_at_ms`, `resigned`, `advice`.
#[derive(clap::Args)]
pub struct LostArgs {
    /// The game id (or a unique prefix of it).
    game: String,
    /// Resign now (A6), when no arbiter keeps the opening.
    #[arg(long)]
    resign: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Some(EnvelopeCommand::Open(a)) => open(home, a),
        Some(EnvelopeCommand::Lost(a)) => lost(home, a),
        None => {
            let game = args
                .game
                .ok_or_else(|| error::user("which game? sobre envelope GAME"))?;
            show(home, game, args.json)
        }
    }
}

fn open(home: &Path, args: OpenArgs) -> anyhow::Result<ExitCode> {
    let v = common::call(home, ApiRequest::EnvelopeOpen { game: args.game })?;
    if args.json {
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    let env = &v["envelope"];
    println!(
        "opened {} as its arbiter: {}'s sealed move {} (A9)",
        game_tag(&v),
        capitalise(text(env, "sealer")),
        super::show::opened(env).unwrap_or("?")
    );
    println!("{}", state_line(&v));
    Ok(ExitCode::SUCCESS)
}

fn lost(home: &Path, args: LostArgs) -> anyhow::Result<ExitCode> {
    let v = common::call(
        home,
        ApiRequest::EnvelopeLost {
            game: args.game,
            resign: args.resign,
        },
    )?;
    if args.json {
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    let contacts = Contacts::load(home)?;
    let mut advice = text(&v, "advice").to_owned();
    if let Some(a) = v["arbiter"].as_str() {
        advice = advice.replace(a, &contacts.label(a));
    }
    println!("{}: {advice}.", game_tag(&v));
    if v["resigned"] == true {
        println!("resigned: {}", text(&v, "result"));
    } else if v["arbiter"].is_null() && v["binding"] == true && v["opening_held"] == false {
        println!("to resign: sobre envelope lost {} --resign", game_tag(&v));
    }
    Ok(ExitCode::SUCCESS)
}

fn show(home: &Path, game: String, json: bool) -> anyhow::Result<ExitCode> {
    let v = common::call(home, ApiRequest::Envelope { game })?;
    if json {
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    let Some(env) = v.get("envelope").filter(|e| e.is_object()) else {
        println!("no sealed move in {}", game_tag(&v));
        return Ok(ExitCode::SUCCESS);
    };
    let used = |i: usize| {
        env.get("time_used_ms")
            .and_then(|t| t.get(i))
            .and_then(Value::as_i64)
            .map_or_else(|| "-".to_owned(), human_duration)
    };
    println!("Game:            {}", text(&v, "game"));
    println!("Sealed by:       {}", capitalise(text(env, "sealer")));
    println!(
        "Sealed at:       {}",
        env.get("sealed_at_ms")
            .and_then(Value::as_u64)
            .map_or_else(|| "-".to_owned(), rfc3339)
    );
    println!(
        "Move number:     {}",
        env.get("move_number").and_then(Value::as_u64).unwrap_or(0)
    );
    println!("Position before: {}", text(env, "fen_before"));
    println!("Time used:       White {}, Black {}", used(0), used(1));
    println!(
        "Draw offer:      {}",
        env.get("draw_offer_by")
            .and_then(Value::as_str)
            .unwrap_or("none")
    );
    println!(
        "Resumes:         {}",
        env.get("resume_at_ms")
            .and_then(Value::as_u64)
            .map_or_else(|| "not set".to_owned(), rfc3339)
    );
    println!(
        "Place:           {}",
        match text(env, "place") {
            "" => "not set",
            p => p,
        }
    );
    println!(
        "Opened:          {}",
        match super::show::opened(env) {
            None => "no".to_owned(),
            Some("") => "yes".to_owned(),
            Some(m) => format!("yes: {m}"),
        }
    );
    println!(
        "Written in:      {}",
        match env.get("letters").and_then(Value::as_str) {
            Some("es") => "Spanish letters (R D T A C)",
            Some(_) => "English letters (K Q R B N)",
            None => "either language (sealed before letters were recorded)",
        }
    );
    println!(
        "Kept by:         {}",
        match env.get("arbiter").and_then(Value::as_str) {
            Some(a) => format!(
                "the arbiter {} (the opening in escrow, A3){}",
                Contacts::load(home)?.label(a),
                if env["opened_by_arbiter"] == true {
                    "; opened by the arbiter"
                } else {
                    ""
                }
            ),
            None => "the sealer alone (no arbiter: a lost opening loses, A8, A10)".to_owned(),
        }
    );
    println!("Commitment:      {}", text(env, "commitment"));
    Ok(ExitCode::SUCCESS)
}
