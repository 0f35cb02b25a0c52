//! `sobre draw`: offer, accept or decline a draw.

use super::common;
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use sobre_node::api::{self, ApiRequest, GameView};
use std::path::Path;
use std::process::ExitCode;

/// Offer a draw, or accept or decline your opponent's offer (FIDE 9.1).
///
/// An offer stands until your opponent answers or moves; offering is usually done together
/// with your move (play it first, then offer).
#[derive(clap::Args)]
pub struct Args {
    /// What to do.
    #[arg(value_enum)]
    action: DrawAction,
    /// The game id (or a unique prefix of it).
    game: String,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum DrawAction {
    Offer,
    Accept,
    Decline,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let (action, done) = match args.action {
        DrawAction::Offer => (api::DrawAction::Offer, "offered a draw in"),
        DrawAction::Accept => (api::DrawAction::Accept, "accepted the draw in"),
        DrawAction::Decline => (api::DrawAction::Decline, "declined the draw in"),
    };
    let v = common::call_as::<GameView>(
        home,
        ApiRequest::Draw {
            game: args.game,
            action,
        },
    )?;
    println!("{done} {}: {}", game_tag(&v), state_line(&v));
    Ok(ExitCode::SUCCESS)
}
