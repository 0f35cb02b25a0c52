//! `sobre envelope`: what the envelope of an adjourned game says (FIDE A2); the arbiter
//! opening the envelope they keep (A3, A9); the sealer who lost the opening (A11).

use super::common::{self, capitalise, human_duration, print_json, rfc3339, short_game};
use super::contacts::Contacts;
use super::names::Names;
use super::show::{game_tag, state_line};
use crate::error::{self, CliResult};
use sobre_node::api::replies::{EnvelopeLostReply, EnvelopeReply};
use sobre_node::api::{ApiRequest, GameView};
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

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
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

fn open(home: &Path, args: OpenArgs) -> CliResult<ExitCode> {
    let v = common::call(home, ApiRequest::EnvelopeOpen { game: args.game })?;
    if args.json {
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    let v: GameView = common::reply(v)?;
    let env = v.envelope.clone().unwrap_or_default();
    println!(
        "opened {} as its arbiter: {}'s sealed move {} (A9)",
        game_tag(&v),
        capitalise(&env.sealer),
        env.opened.as_deref().unwrap_or("?")
    );
    println!("{}", state_line(&v));
    Ok(ExitCode::SUCCESS)
}

fn lost(home: &Path, args: LostArgs) -> CliResult<ExitCode> {
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
    let v: EnvelopeLostReply = common::reply(v)?;
    let contacts = Contacts::load(home)?;
    let names = Names::from_node(home, &contacts);
    let mut advice = v.advice.clone();
    if let Some(a) = &v.arbiter {
        advice = advice.replace(a.as_str(), &names.label(a));
    }
    let tag = short_game(&v.game);
    println!("{tag}: {advice}.");
    if v.resigned {
        println!("resigned: {}", v.result.as_deref().unwrap_or(""));
    } else if v.arbiter.is_none() && v.binding && !v.opening_held {
        println!("to resign: sobre envelope lost {tag} --resign");
    }
    Ok(ExitCode::SUCCESS)
}

fn show(home: &Path, game: String, json: bool) -> CliResult<ExitCode> {
    let v = common::read(home, ApiRequest::Envelope { game })?;
    if json {
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    let v: EnvelopeReply = common::reply(v)?;
    let Some(env) = &v.envelope else {
        println!("no sealed move in {}", short_game(&v.game));
        return Ok(ExitCode::SUCCESS);
    };
    let used = |i: usize| {
        i64::try_from(env.time_used_ms[i]).map_or_else(|_| "-".to_owned(), human_duration)
    };
    println!("Game:            {}", v.game);
    println!("Sealed by:       {}", capitalise(&env.sealer));
    println!("Sealed at:       {}", rfc3339(env.sealed_at_ms));
    println!("Move number:     {}", env.move_number);
    println!("Position before: {}", env.fen_before);
    println!("Time used:       White {}, Black {}", used(0), used(1));
    println!(
        "Draw offer:      {}",
        env.draw_offer_by.as_deref().unwrap_or("none")
    );
    println!(
        "Resumes:         {}",
        env.resume_at_ms
            .map_or_else(|| "not set".to_owned(), rfc3339)
    );
    println!(
        "Place:           {}",
        match env.place.as_str() {
            "" => "not set",
            p => p,
        }
    );
    println!(
        "Opened:          {}",
        match env.opened.as_deref() {
            None => "no".to_owned(),
            Some("") => "yes".to_owned(),
            Some(m) => format!("yes: {m}"),
        }
    );
    println!(
        "Written in:      {}",
        match env.letters.as_deref() {
            Some("es") => "Spanish letters (R D T A C)",
            Some(_) => "English letters (K Q R B N)",
            None => "either language (sealed before letters were recorded)",
        }
    );
    println!(
        "Kept by:         {}",
        match env.arbiter.as_deref() {
            Some(a) => format!(
                "the arbiter {} (the opening in escrow, A3){}",
                Contacts::load(home)?.label(a),
                if env.opened_by_arbiter {
                    "; opened by the arbiter"
                } else {
                    ""
                }
            ),
            None => "the sealer alone (no arbiter: a lost opening loses, A8, A10)".to_owned(),
        }
    );
    println!("Commitment:      {}", env.commitment);
    Ok(ExitCode::SUCCESS)
}
