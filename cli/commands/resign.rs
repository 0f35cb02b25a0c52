//! `sobre resign`: resign a game.

use super::common;
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use sobre_node::api::{ApiRequest, GameView};
use std::path::Path;
use std::process::ExitCode;

/// Resign the game (FIDE 5.1b). Final: the signed resignation is sent to your opponent.
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let v = common::call_as::<GameView>(home, ApiRequest::Resign { game: args.game })?;
    println!("resigned {}: {}", game_tag(&v), state_line(&v));
    Ok(ExitCode::SUCCESS)
}
