//! `sobre accept`: accept a challenge.

use super::common::{self, Side};
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use crate::t;
use sobre_core::record::Status;
use sobre_node::api::GameView;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Accept a challenge you received (`sobre games` shows them as "challenged you"). The game
/// starts; colours and a Chess960 position drawn at random are settled fairly by both nodes.
///
/// If the challenger's node does not open the fair coin within the deadline (a day, or the
/// game's time for a move if shorter), your node settles it by default (FIDE F1, without a
/// last revealer who could withhold a draw she dislikes): you get the colour and the
/// position you ask for here (else "coin_colour" in HOME/config.json, else White and a
/// random position). What you ask for stays on your node.
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// The colour you take if the challenger never opens the coin (random colours only).
    #[arg(long, visible_alias = "color", value_enum, value_name = "COLOUR")]
    colour: Option<Side>,
    /// The Chess960 start (0..959) you take if the challenger never opens the coin (a
    /// Chess960 start drawn at random only; 518 is the standard position).
    #[arg(long, value_name = "N")]
    position: Option<u16>,
    #[command(flatten)]
    json: common::Json,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let colour = match (args.colour, common::Config::load(home).coin_colour) {
        (Some(c), _) => Some(c),
        // The setting counts only where the challenge leaves colours to the coin (a pending
        // challenge shows no players' colours then); the flag is checked by the node.
        (None, Some(c)) => {
            let v: GameView = common::send(
                home,
                request::Show {
                    game: args.game.clone(),
                },
            )?;
            (v.status == Status::Pending && v.white.is_none()).then_some(c)
        }
        (None, None) => None,
    };
    let v: GameView = common::send(
        home,
        request::Accept {
            game: args.game,
            color: colour.map(Side::colour),
            position: args.position,
        },
    )?;
    args.json.answer(&v, || {
        format!(
            "{}: {}",
            t!("accept-accepted", game = game_tag(&v)),
            state_line(&v)
        )
    })
}
