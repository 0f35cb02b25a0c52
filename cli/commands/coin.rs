//! `sobre coin`: the fair coin that draws colours and Chess960 starts (FIDE Appendix F1).

use super::common::{self, Side};
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use crate::i18n::words;
use crate::t;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// The fair coin of a game with random colours or a Chess960 start drawn at random.
#[derive(clap::Subcommand)]
pub enum CoinCommand {
    Default(DefaultArgs),
}

/// Settle the coin yourself when the challenger has not opened it within the deadline (a
/// day after your acceptance, or the game's time for a move if shorter): you choose the
/// colour you take and the Chess960 start, as if the challenger had lost the draw (F1).
///
/// Your node does this by itself once the deadline has passed, with what you asked for at
/// `sobre accept` (unless it runs with --manual-coin-default); before the deadline this is
/// refused, saying when. Without --colour/--position: what you asked for at acceptance,
/// else White and a random position.
#[derive(clap::Args)]
pub struct DefaultArgs {
    /// The game id (or a unique prefix of it).
    game: String,
    /// The colour you take (random colours only).
    #[arg(long, visible_alias = "color", value_enum, value_name = "COLOUR")]
    colour: Option<Side>,
    /// The Chess960 start, 0..959 (a Chess960 start drawn at random only).
    #[arg(long, value_name = "N")]
    position: Option<u16>,
    /// Print the game as one JSON object (as `sobre show --json`).
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, cmd: CoinCommand) -> CliResult<ExitCode> {
    match cmd {
        CoinCommand::Default(a) => {
            let v = common::send(
                home,
                request::CoinDefault {
                    game: a.game,
                    color: a.colour.map(Side::colour),
                    position: a.position,
                },
            )?;
            if a.json {
                common::print_reply(&v)?;
            } else {
                let colour = v.my_color.map_or_else(|| "?".into(), words::colour);
                let start = match &v.start_fen {
                    Some(fen) if v.chess960 => t!("coin-from", fen = fen),
                    _ => String::new(),
                };
                println!(
                    "{} {}",
                    t!(
                        "coin-settled",
                        game = game_tag(&v),
                        colour = colour,
                        start = start
                    ),
                    state_line(&v)
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
