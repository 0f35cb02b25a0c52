//! `sobre resume`: be present at the resumption of an adjourned game.

use super::common;
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use crate::t;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Announce that you are present to resume an adjourned game (FIDE Appendix A7, A9).
///
/// When both players are present, the sealer's node opens the envelope: the sealed move is
/// revealed, checked (A8) and played, and the clocks start again.
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    #[command(flatten)]
    json: common::Json,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let v = common::send(home, request::Resume { game: args.game })?;
    args.json.answer(&v, || {
        t!(
            "resume-present",
            game = game_tag(&v),
            state = state_line(&v)
        )
    })
}
