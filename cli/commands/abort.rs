//! `sobre abort`: cancel a game before it really started.

use super::common;
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use sobre_node::api::{ApiRequest, GameView};
use std::path::Path;
use std::process::ExitCode;

/// Cancel a game without a result: withdraw a challenge, or abort before the moves that the
/// rules allow aborting after (the node refuses otherwise).
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let v = common::call_as::<GameView>(home, ApiRequest::Abort { game: args.game })?;
    println!("aborted {}: {}", game_tag(&v), state_line(&v));
    Ok(ExitCode::SUCCESS)
}
