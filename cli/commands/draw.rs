//! `sobre draw`: offer, accept or decline a draw.

use super::common;
use super::confirm;
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use crate::t;
use sobre_node::api::request;
use sobre_node::api::{self};
use std::path::Path;
use std::process::ExitCode;

/// Offer a draw, or accept or decline your opponent's offer (FIDE 9.1).
///
/// An offer stands until your opponent answers or moves; offering is usually done together
/// with your move (play it first, then offer). Accepting ends the game: on a terminal you are
/// asked first (--yes skips the question; a script is never asked).
#[derive(clap::Args)]
pub struct Args {
    /// What to do.
    #[arg(value_enum)]
    action: DrawAction,
    /// The game id (or a unique prefix of it).
    game: String,
    #[command(flatten)]
    yes: confirm::Yes,
    #[command(flatten)]
    json: common::Json,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum DrawAction {
    Offer,
    Accept,
    Decline,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let action = match args.action {
        DrawAction::Offer => api::DrawAction::Offer,
        DrawAction::Accept => api::DrawAction::Accept,
        DrawAction::Decline => api::DrawAction::Decline,
    };
    if action == api::DrawAction::Accept
        && !confirm::go_ahead(home, &args.game, args.yes, confirm::Step::AcceptDraw)?
    {
        return confirm::called_off();
    }
    let v = common::send(
        home,
        request::Draw {
            game: args.game,
            action,
        },
    )?;
    args.json.answer(&v, || {
        let (game, state) = (game_tag(&v), state_line(&v));
        match args.action {
            DrawAction::Offer => t!("draw-offered", game = game, state = state),
            DrawAction::Accept => t!("draw-accepted", game = game, state = state),
            DrawAction::Decline => t!("draw-declined", game = game, state = state),
        }
    })
}
