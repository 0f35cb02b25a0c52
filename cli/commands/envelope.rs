//! `sobre envelope`: what the envelope of an adjourned game says (FIDE A2).

use super::common::{self, capitalise, human_duration, print_json, rfc3339, text};
use super::show::game_tag;
use serde_json::Value;
use sobre_node::api::ApiRequest;
use std::path::Path;
use std::process::ExitCode;

/// Show the envelope of an adjourned game, as FIDE Appendix A2 lists it: the position
/// before the sealed move, the time used by each player, who sealed, the move number, a
/// pending draw offer, and when and where the game resumes. The sealed move itself stays
/// secret until resumption.
///
/// With --json, one object: `game`, `status`, `envelope` (null if none; `sealer`,
/// `sealed_at_ms`, `move_number`, `fen_before`, `time_used_ms`, `draw_offer_by`,
/// `resume_at_ms`, `place`, `opened` (null, or the move as written once opened),
/// `commitment`).
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, args: Args) -> anyhow::Result<ExitCode> {
    let v = common::call(home, ApiRequest::Envelope { game: args.game })?;
    if args.json {
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
    println!("Commitment:      {}", text(env, "commitment"));
    Ok(ExitCode::SUCCESS)
}
