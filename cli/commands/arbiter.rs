//! `sobre arbiter rule`: the game's agreed arbiter decides a draw claimed in a quickplay
//! finish (FIDE 10.2a–d; Appendix D).

use super::common;
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use crate::t;
use sobre_core::record::QuickplayRuling;
use sobre_node::api::GameView;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// What the arbiter a game's terms name does in it.
#[derive(clap::Subcommand)]
pub enum ArbiterCommand {
    Rule(RuleArgs),
}

/// As the game's agreed arbiter, decide the draw a player claimed in a quickplay finish
/// (FIDE 10.2): `draw` (10.2a: the opponent is making no effort to win, or cannot win, by
/// normal means), `postpone` (10.2b: the game goes on, and you may declare the draw later,
/// even after a flag has fallen) or `reject` (10.2c: the opponent gets two extra minutes).
///
/// The clocks stand still from the claim until your ruling. Your decision is final (10.2d).
#[derive(clap::Args)]
pub struct RuleArgs {
    /// The game id (or a unique prefix of it).
    game: String,
    /// Your decision.
    #[arg(value_parser = ["draw", "postpone", "reject"])]
    ruling: String,
    /// The claim's id (or a unique prefix of it); by default the claim still open.
    #[arg(long)]
    claim: Option<String>,
    /// With `postpone`: give the opponent two extra minutes (10.2b).
    #[arg(long)]
    extra_time: bool,
    #[command(flatten)]
    json: common::Json,
}

pub fn run(home: &Path, cmd: ArbiterCommand) -> CliResult<ExitCode> {
    match cmd {
        ArbiterCommand::Rule(args) => rule(home, args),
    }
}

fn rule(home: &Path, args: RuleArgs) -> CliResult<ExitCode> {
    // The parser admits these three words only.
    let ruling = match args.ruling.as_str() {
        "draw" => QuickplayRuling::Draw,
        "postpone" => QuickplayRuling::Postpone {
            extra_time: args.extra_time,
        },
        _ => QuickplayRuling::Reject,
    };
    let v: GameView = common::send(
        home,
        request::QuickplayRule {
            game: args.game,
            claim: args.claim,
            ruling,
        },
    )?;
    args.json.answer(&v, || {
        let (game, state) = (game_tag(&v), state_line(&v));
        match ruling {
            QuickplayRuling::Draw => t!("arbiter-ruled-draw", game = game, state = state),
            QuickplayRuling::Postpone { .. } => {
                t!("arbiter-ruled-postpone", game = game, state = state)
            }
            QuickplayRuling::Reject => t!("arbiter-ruled-reject", game = game, state = state),
        }
    })
}
