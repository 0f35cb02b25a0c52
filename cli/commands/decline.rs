//! `sobre decline`: decline a challenge.

use super::common;
use super::show::game_tag;
use crate::error::CliResult;
use crate::t;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Decline a challenge you received, optionally saying why.
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// A reason sent to the challenger.
    #[arg(long)]
    reason: Option<String>,
    #[command(flatten)]
    json: common::Json,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let v = common::send(
        home,
        request::Decline {
            game: args.game,
            reason: args.reason,
        },
    )?;
    args.json
        .answer(&v, || t!("decline-declined", game = game_tag(&v)))
}
