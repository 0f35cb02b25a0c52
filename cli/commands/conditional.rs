//! `sobre conditional`: moves your node plays for you if your opponent answers as expected.

use super::common::{self, print_json};
use crate::error;
use serde_json::Value;
use sobre_node::api::{ApiRequest, ConditionalAction};
use std::path::Path;
use std::process::ExitCode;

/// Conditional moves ("if he plays Nf6, I play e5"): saves days in correspondence games.
///
///   sobre conditional GAME add Nf6 e5 Nd5 c4   their move, your reply, their move, your reply
///   sobre conditional GAME list
///   sobre conditional GAME clear
///
/// When your opponent plays the first move of a line, your node plays your reply at once and
/// keeps the rest of the line; a line that no longer fits is dropped. The moves are checked
/// when added. With --json (list), one object: `game`, `lines` (lists of moves).
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// What to do.
    #[arg(value_enum)]
    action: Action,
    /// For `add`: the line, starting with your opponent's move (quoted or as separate words).
    #[arg(value_name = "MOVES")]
    line: Vec<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    written: common::Written,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Action {
    Add,
    List,
    Clear,
}

pub fn run(home: &Path, args: Args) -> anyhow::Result<ExitCode> {
    let (action, line) = match args.action {
        Action::Add if args.line.is_empty() => {
            return Err(error::user_hint(
                "conditional add needs a line of moves",
                "e.g. sobre conditional GAME add \"Nf6 e5 Nd5 c4\"",
            ));
        }
        Action::Add => (ConditionalAction::Add, Some(args.line.join(" "))),
        _ if !args.line.is_empty() => {
            return Err(error::user("only `add` takes moves"));
        }
        Action::List => (ConditionalAction::List, None),
        Action::Clear => (ConditionalAction::Clear, None),
    };
    let v = common::call(
        home,
        ApiRequest::Conditional {
            game: args.game,
            action,
            line,
            notation: args.written.resolve(home),
        },
    )?;
    if args.json {
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    let lines = v
        .get("lines")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if args.action == Action::Clear || lines.is_empty() {
        println!("no conditional moves");
    }
    for l in &lines {
        let moves: Vec<&str> = l
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        println!("{}", moves.join(" "));
    }
    Ok(ExitCode::SUCCESS)
}
