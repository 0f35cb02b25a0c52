//! `sobre move`: play a move.

use super::common;
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use sobre_node::api::{ApiRequest, GameView};
use std::path::Path;
use std::process::ExitCode;

/// Play a move in a game where it is your turn.
///
/// Any notation: English or Spanish SAN (`Nf3`, `Cf3`, `O-O`, `exd8=Q`), coordinates
/// (`g1f3`, `e7e8q`) or ICCF numbers (`7163`). SAN is read in the letters you write
/// (--notation, or "notation" in HOME/config.json): `Rd1` is a rook move in English and a
/// king move in Spanish. The move is checked, signed, stored and only
/// then reported; delivery to your opponent continues in the background until they
/// acknowledge it (see `sobre node status`).
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// The move.
    #[arg(value_name = "MOVE", allow_hyphen_values = true)]
    mv: String,
    #[command(flatten)]
    written: common::Written,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let v: GameView = common::call_as(
        home,
        ApiRequest::Move {
            game: args.game,
            text: args.mv,
            notation: args.written.resolve(home),
        },
    )?;
    let played = v
        .san
        .last()
        .or(v.last_move.as_ref())
        .map_or("", String::as_str);
    println!("played {played} in {}: {}", game_tag(&v), state_line(&v));
    Ok(ExitCode::SUCCESS)
}
