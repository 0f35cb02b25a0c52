//! `sobre chat`: send a line to your opponent.

use super::common;
use super::show::game_tag;
use crate::error::CliResult;
use crate::t;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Send a chat line to your opponent in a game (signed, kept with the game; at most 2000
/// bytes).
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// The text (quote it; several words are joined with spaces).
    #[arg(required = true, num_args = 1..)]
    text: Vec<String>,
    #[command(flatten)]
    json: common::Json,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let v = common::send(
        home,
        request::Chat {
            game: args.game,
            text: args.text.join(" "),
        },
    )?;
    args.json
        .answer(&v, || t!("chat-sent", game = game_tag(&v)))
}
