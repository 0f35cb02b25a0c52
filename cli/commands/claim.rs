//! `sobre claim`: claim a draw or a win under the rules.

use super::common;
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use crate::t;
use sobre_core::record::ClaimReason;
use sobre_node::api::GameView;
use sobre_node::api::replies::ClaimReply;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Claim a result: a draw by threefold repetition (FIDE 9.2) or the fifty-move rule (9.3),
/// a win on time (6.9), a dead position (9.6), a win because your opponent was too late
/// for the resumption of an adjourned game (A10), or a draw in a quickplay finish (10.2:
/// `quickplay`, with less than two minutes left; the game's agreed arbiter decides it with
/// `sobre arbiter rule`, and the clocks stand still until then).
///
/// For 9.2 and 9.3, --move claims with the move you intend to play (it is not played if the
/// claim is correct; it is played if the claim is wrong). Every node checks the claim with
/// the same rules; an incorrect claim is recorded as such.
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// What you claim.
    #[arg(value_parser = claim_reason())]
    reason: Claimed,
    /// The move you intend to play, for a threefold or fifty-move claim.
    #[arg(long = "move", value_name = "MOVE")]
    intended: Option<String>,
    #[command(flatten)]
    written: common::Written,
    #[command(flatten)]
    json: common::Json,
}

/// A claim the rules judge on the record, or a 10.2 claim the arbiter decides.
#[derive(Clone, Copy)]
enum Claimed {
    Judged(ClaimReason),
    Quickplay,
}

/// The word of a 10.2 claim (the others are [`ClaimReason::name`]'s).
const QUICKPLAY: &str = "quickplay";

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let reason = match args.reason {
        Claimed::Judged(r) => r,
        Claimed::Quickplay => {
            let v: GameView = common::send(home, request::QuickplayClaim { game: args.game })?;
            return args.json.answer(&v, || {
                t!(
                    "claim-quickplay",
                    game = game_tag(&v),
                    state = state_line(&v)
                )
            });
        }
    };
    let v: ClaimReply = common::send(
        home,
        request::Claim {
            game: args.game,
            reason,
            intended: args.intended,
            notation: args.written.resolve(home),
        },
    )?;
    args.json.answer(&v, || claim_line(&v))
}

/// `claim correct (the position occurs 3 times (9.2)) in 3f2a9c1e: Finished: …`
fn claim_line(v: &ClaimReply) -> String {
    let (game, state) = (game_tag(&v.view), state_line(&v.view));
    // Worded from the typed verdict; a node that sends none: its own sentence.
    let judgement = v.claim.as_ref().map_or_else(String::new, |c| {
        c.judgement_code
            .as_ref()
            .map_or_else(|| c.judgement.clone(), crate::i18n::words::judgement)
    });
    match (v.claim.as_ref().map(|c| c.correct), judgement.as_str()) {
        (Some(true), "") => t!("claim-correct", game = game, state = state),
        (Some(false), "") => t!("claim-incorrect", game = game, state = state),
        (Some(true), j) => t!(
            "claim-correct-judged",
            judgement = j,
            game = game,
            state = state
        ),
        (Some(false), j) => t!(
            "claim-incorrect-judged",
            judgement = j,
            game = game,
            state = state
        ),
        (None, _) => t!("claim-recorded", game = game, state = state),
    }
}

/// The claims as players type them ([`ClaimReason::name`], then `quickplay`), listed in the
/// help.
fn claim_reason() -> impl clap::builder::TypedValueParser<Value = Claimed> {
    use clap::builder::TypedValueParser;
    let words = ClaimReason::ALL
        .map(ClaimReason::name)
        .into_iter()
        .chain([QUICKPLAY]);
    clap::builder::PossibleValuesParser::new(words).try_map(|word| {
        if word == QUICKPLAY {
            return Ok(Claimed::Quickplay);
        }
        word.parse::<ClaimReason>().map(Claimed::Judged)
    })
}
