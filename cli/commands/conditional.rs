//! `sobre conditional`: moves your node plays for you if your opponent answers as expected.

use super::common;
use crate::error;
use crate::error::CliResult;
use crate::t;
use sobre_node::api::ConditionalAction;
use sobre_node::api::replies::ConditionalReply;
use sobre_node::api::request;
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
/// when added. With --json, one object: `game`, `lines` (lists of moves) after the
/// action.
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
    /// Print the game's conditional lines after the action as one JSON object.
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

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let (action, line) = match args.action {
        Action::Add if args.line.is_empty() => {
            return Err(error::user_hint(
                t!("conditional-needs-line"),
                t!("conditional-hint-line"),
            ));
        }
        Action::Add => (ConditionalAction::Add, Some(args.line.join(" "))),
        _ if !args.line.is_empty() => {
            return Err(error::user(t!("conditional-only-add")));
        }
        Action::List => (ConditionalAction::List, None),
        Action::Clear => (ConditionalAction::Clear, None),
    };
    let request = request::Conditional {
        game: args.game,
        action,
        line,
        notation: args.written.resolve(home),
    };
    // Listing reads (also with the node stopped); adding and clearing need the node.
    let v: ConditionalReply = if action == ConditionalAction::List {
        common::read_as(home, request)?
    } else {
        common::send(home, request)?
    };
    if args.json {
        println!("{}", serde_json::to_string(&v)?);
        return Ok(ExitCode::SUCCESS);
    }
    if args.action == Action::Clear || v.lines.is_empty() {
        println!("{}", t!("conditional-none"));
    }
    for moves in &v.lines {
        println!("{}", moves.join(" "));
    }
    Ok(ExitCode::SUCCESS)
}
