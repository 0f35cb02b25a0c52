//! FIDE Art. 10 (both texts) and Appendix D: a draw claimed in a quickplay finish, decided by
//! the arbiter.
//!
//! - 10.1: a "final a caída de bandera" is the phase of a game in which all the (remaining)
//!   moves must be made in a limited time. A control whose last period repeats, or that adds
//!   time with every move (an increment, or a delay that leaves part of each move uncharged),
//!   never reaches such a phase: there is always more time to come. So only an
//!   over-the-board control with a final period and no bonus has one, and a player is in it
//!   once they have completed every move of the periods before it ([`in_quickplay_finish`]).
//! - 10.2: the player to move with less than two minutes left may claim a draw before their
//!   flag falls ([`judge_claim`]); the arbiter declares it drawn (a), postpones the decision
//!   and may give the opponent two extra minutes (b: the game goes on, and the arbiter may
//!   still declare the draw later, "después de que una bandera haya caído"), or rejects it
//!   and the opponent gets two extra minutes (c). The decision is final (d; 2009: 12.10, no
//!   appeal). 9.1b (2009) / 9.1c (2005): the claim is also a draw offer.
//! - Appendix D: without an arbiter at the board the claim is sent to one, whose decision is
//!   final: in a signed record that is the same procedure, the arbiter being the one both
//!   players agreed on in the game's terms.
//!
//! Where the texts differ (see [`super::edition`]):
//! - Blitz: 2005 C2 says 10.2 does not apply to a blitz game at all; 2009 B3b excludes it only
//!   when supervision is inadequate, and B2 applies the Competition Rules (10.2 among them)
//!   when there is an arbiter for each game — as there is when the game's terms name one. So a
//!   blitz game ([`is_blitz`]) may claim under 2009 and not under 2005.
//! - "parará los relojes" (2005) against "podrá parar los relojes" (2009): a claimant loses
//!   nothing by stopping them, so a signed claim stops them under both texts.

use crate::clock::{Bonus, MINUTE, Millis, TimeControl};
use crate::rules::Edition;
use serde::{Deserialize, Serialize};

/// 10.2: a claim needs "menos de dos minutos" on the claimant's clock.
pub const CLAIM_THRESHOLD_MS: Millis = 2 * MINUTE;

/// 10.2b and 10.2c: the extra time the arbiter gives the opponent.
pub const EXTRA_TIME_MS: Millis = 2 * MINUTE;

/// Appendix B1 (2009) / C1 (2005): a blitz game has less than fifteen minutes per player, the
/// allotted time plus sixty times the increment.
pub const BLITZ_LIMIT_MS: Millis = 15 * MINUTE;

/// The arbiter's decision on a 10.2 claim. A wire enum: append only (bincode writes the
/// variant's index; the snake-case names are the control API's JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuickplayRuling {
    /// 0: 10.2a: the opponent is making no effort to win by normal means, or cannot win by
    /// normal means: the game is drawn.
    Draw,
    /// 1: 10.2b: the decision is postponed and the game goes on; with `extra_time` the
    /// opponent gets two extra minutes ("puede otorgar"). A later [`QuickplayRuling::Draw`]
    /// on the same claim draws the game, even after a flag has fallen.
    Postpone { extra_time: bool },
    /// 2: 10.2c: the claim is rejected and the opponent gets two extra minutes.
    Reject,
}

impl QuickplayRuling {
    /// The word a user types and the control API carries: `draw`, `postpone`, `reject`.
    pub fn name(self) -> &'static str {
        match self {
            QuickplayRuling::Draw => "draw",
            QuickplayRuling::Postpone { .. } => "postpone",
            QuickplayRuling::Reject => "reject",
        }
    }

    /// Whether the ruling closes the claim (10.2a, 10.2c; a postponement leaves it open).
    pub fn is_final(self) -> bool {
        !matches!(self, QuickplayRuling::Postpone { .. })
    }
}

/// Why a 10.2 claim or ruling is refused. Each names its article ([`QuickplayRule::article`]).
/// Serialized (tagged by `rule`, snake case) as the control API's refusal carries it, inside
/// its [`RuleViolation::Quickplay`](crate::record::verify::RuleViolation::Quickplay):
/// `{"kind":"quickplay","rule":"time_left","remaining_ms":125000}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum QuickplayRule {
    /// 10.2: the arbiter decides, so the game's terms must name one (Appendix D: the claim is
    /// sent to an arbiter).
    #[error("a quickplay-finish claim needs an arbiter named in the game's terms (10.2)")]
    NoArbiter,
    /// 10.1: the claimant's period is not a quickplay finish (time still to come: a repeating
    /// period, an increment or delay, a correspondence control).
    #[error("this is not a quickplay finish: more time is still to come (10.1)")]
    NotQuickplayFinish,
    /// 2005 C2: 10.2 does not apply to blitz.
    #[error("a blitz game has no quickplay-finish claim under the 2005 Laws (C2, 10.2)")]
    Blitz,
    /// 10.2: only the player to move claims.
    #[error("only the player to move claims a draw in a quickplay finish (10.2)")]
    NotOnMove,
    /// 10.2: "menos de dos minutos".
    #[error(
        "{} left is not less than two minutes (10.2)",
        crate::clock::format_duration((*remaining_ms).max(0).unsigned_abs())
    )]
    TimeLeft { remaining_ms: i64 },
    /// 10.2: the arbiter has a claim by this player to decide, pending or postponed.
    #[error("a quickplay-finish claim is already before the arbiter (10.2)")]
    ClaimOpen,
    /// 10.2: the claimant stopped the clocks for the arbiter; the game waits for the ruling.
    #[error("the game waits for the arbiter's ruling on the quickplay-finish claim (10.2)")]
    AwaitingRuling,
    /// 10.2: only the arbiter the players agreed on rules.
    #[error("only the game's agreed arbiter rules on a quickplay-finish claim (10.2)")]
    NotTheArbiter,
    /// 10.2: a ruling names a claim made in the game.
    #[error("no quickplay-finish claim with this id in the game (10.2)")]
    NoSuchClaim,
    /// 10.2: the arbiter rules on a claim they have received.
    #[error("the arbiter rules on a quickplay-finish claim after receiving it (10.2)")]
    RulingUnseen,
    /// 10.2d: the decision is final.
    #[error("the arbiter's decision on this claim is final (10.2d)")]
    AlreadyRuled,
    /// 10.2b: a postponed decision is taken later, once.
    #[error("the decision on this claim was already postponed (10.2b)")]
    AlreadyPostponed,
}

impl QuickplayRule {
    /// The article the rule applies.
    pub fn article(self) -> &'static str {
        match self {
            QuickplayRule::NotQuickplayFinish => "10.1",
            QuickplayRule::Blitz => "C2",
            QuickplayRule::AlreadyRuled => "10.2d",
            QuickplayRule::AlreadyPostponed => "10.2b",
            _ => "10.2",
        }
    }
}

/// Whether a player who has completed `moves_completed` moves under `tc` is in a quickplay
/// finish (10.1): an over-the-board control with a final period and no increment or delay,
/// and every move of the periods before it completed.
pub fn in_quickplay_finish(tc: &TimeControl, moves_completed: u32) -> bool {
    let TimeControl::Classical(c) = tc else {
        return false;
    };
    if c.bonus() != Bonus::None || c.sudden_death().is_none() {
        return false;
    }
    let before: u64 = c.periods().iter().map(|p| u64::from(p.moves.get())).sum();
    u64::from(moves_completed) >= before
}

/// Whether `tc` is a blitz control (2009 B1, 2005 C1): less than fifteen minutes per player
/// for all the moves, counting sixty times the increment.
pub fn is_blitz(tc: &TimeControl) -> bool {
    let TimeControl::Classical(c) = tc else {
        return false;
    };
    let increment = match c.bonus() {
        Bonus::Increment(i) => i,
        Bonus::None | Bonus::Delay(_) => 0,
    };
    let total = c
        .periods()
        .iter()
        .map(|p| p.time)
        .chain(c.sudden_death())
        .fold(increment.saturating_mul(60), Millis::saturating_add);
    total < BLITZ_LIMIT_MS
}

/// 10.2 under `edition`: may the player to move, with `remaining_ms` left after
/// `moves_completed` moves under `tc`, claim a draw? The caller checks the rest (an
/// arbiter, whose move it is, the flag, a claim already open).
///
/// # Errors
/// [`QuickplayRule::NotQuickplayFinish`], [`QuickplayRule::Blitz`] (2005) or
/// [`QuickplayRule::TimeLeft`].
pub fn judge_claim(
    edition: Edition,
    tc: &TimeControl,
    moves_completed: u32,
    remaining_ms: i64,
) -> Result<(), QuickplayRule> {
    if !in_quickplay_finish(tc, moves_completed) {
        return Err(QuickplayRule::NotQuickplayFinish);
    }
    if edition == Edition::Fide2005 && is_blitz(tc) {
        return Err(QuickplayRule::Blitz);
    }
    if remaining_ms >= CLAIM_THRESHOLD_MS as i64 {
        return Err(QuickplayRule::TimeLeft { remaining_ms });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn art_10_1_only_a_final_period_without_bonus_is_a_quickplay_finish() {
        assert!(in_quickplay_finish(&tc("90m"), 0));
        assert!(!in_quickplay_finish(&tc("90m+30s"), 50));
        assert!(!in_quickplay_finish(&tc("90m d5s"), 50));
        assert!(!in_quickplay_finish(&tc("40/2h"), 60));
        assert!(!in_quickplay_finish(&tc("3d"), 10));
        assert!(!in_quickplay_finish(&tc("40/2h:1h"), 39));
        assert!(in_quickplay_finish(&tc("40/2h:1h"), 40));
    }

    #[test]
    fn art_10_2_blitz_differs_between_the_texts() {
        assert!(is_blitz(&tc("otb 5m")));
        assert!(!is_blitz(&tc("otb 15m")));
        let five = tc("otb 5m");
        assert_eq!(
            judge_claim(Edition::Fide2005, &five, 10, 60_000),
            Err(QuickplayRule::Blitz)
        );
        assert_eq!(judge_claim(Edition::Fide2009, &five, 10, 60_000), Ok(()));
    }

    #[test]
    fn art_10_2_less_than_two_minutes() {
        let t = tc("90m");
        assert_eq!(judge_claim(Edition::Fide2009, &t, 30, 119_999), Ok(()));
        assert_eq!(
            judge_claim(Edition::Fide2009, &t, 30, 120_000),
            Err(QuickplayRule::TimeLeft {
                remaining_ms: 120_000
            })
        );
    }
}
