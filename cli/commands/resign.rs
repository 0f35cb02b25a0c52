//! `sobre resign`: resign a game.

use super::common;
use super::confirm;
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use crate::t;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Resign the game (FIDE 5.1b). Final: the signed resignation is sent to your opponent.
///
/// On a terminal you are asked first (--yes skips the question; a script, whose standard
/// input is not a terminal, is never asked). Answering no sends nothing and exits with 1.
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    #[command(flatten)]
    yes: confirm::Yes,
    #[command(flatten)]
    json: common::Json,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    if !confirm::go_ahead(home, &args.game, args.yes, confirm::Step::Resign)? {
        return confirm::called_off();
    }
    let v = common::send(home, request::Resign { game: args.game })?;
    args.json.answer(&v, || {
        t!("resign-done", game = game_tag(&v), state = state_line(&v))
    })
}
