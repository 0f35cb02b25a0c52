//! The verdicts on draw claims: FIDE 9.2 (threefold repetition), 9.3 (fifty moves), 9.6 (dead
//! position), and what an incorrect claim costs (9.5b) and means (9.1b/9.1c: a claim is also a
//! draw offer). `verify` and [`super::Game::check_claim`] both call these, so each rule has one
//! home.

use super::repetition::repetition_key;
use super::{Termination, edition::Edition};
use crate::position::Position;
use crate::types::Move;
use serde::{Deserialize, Serialize};

pub use super::dead::judge_dead_position;

/// What is claimed: the one claim type, from the wire (an event's `Claim`, tags in
/// declaration order) through `verify` and these verdicts to the control API and the CLI
/// (its [`ClaimReason::name`] words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClaimReason {
    /// 9.2.
    Threefold,
    /// 9.3.
    FiftyMoves,
    /// 6.9 / 6.10: the opponent's time has run out.
    Time,
    /// 9.6: no series of legal moves can lead to mate.
    DeadPosition,
    /// A10: the opponent is more than the allowed time late for the resumption.
    Lateness,
}

impl ClaimReason {
    /// Every claim, in the order of [`ClaimReason::name`]'s list.
    pub const ALL: [ClaimReason; 5] = [
        ClaimReason::Threefold,
        ClaimReason::FiftyMoves,
        ClaimReason::Time,
        ClaimReason::DeadPosition,
        ClaimReason::Lateness,
    ];

    /// The word a player types for the claim (`sobre claim GAME threefold`) and the control
    /// API carries: `threefold`, `fifty`, `time`, `dead`, `lateness`.
    pub fn name(self) -> &'static str {
        match self {
            ClaimReason::Threefold => "threefold",
            ClaimReason::FiftyMoves => "fifty",
            ClaimReason::Time => "time",
            ClaimReason::DeadPosition => "dead",
            ClaimReason::Lateness => "lateness",
        }
    }
}

/// A word that names no claim (see [`ClaimReason::name`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown claim {0:?}: threefold, fifty, time, dead or lateness")]
pub struct UnknownClaim(pub String);

impl std::str::FromStr for ClaimReason {
    type Err = UnknownClaim;

    fn from_str(s: &str) -> Result<ClaimReason, UnknownClaim> {
        ClaimReason::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownClaim(s.to_owned()))
    }
}

/// Why a draw claim is incorrect (9.5b: the game then goes on).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClaimError {
    #[error("the game is already over")]
    GameOver,
    #[error("the intended move is illegal")]
    IllegalIntendedMove,
    #[error("the position occurs {occurrences} time(s), not three (9.2)")]
    NotThreefold { occurrences: u32 },
    #[error("only {moves} move(s) without a capture or pawn move, not fifty (9.3)")]
    NotFiftyMoves { moves: u32 },
    /// Only 9.2 and 9.3 are judged on the game's history here (time and lateness claims are
    /// `flag` and `adjournment` verdicts, 9.6 [`judge_dead_position`]).
    #[error("not a claim of 9.2 or 9.3")]
    NotADrawClaim,
    #[error("mate is still possible (9.6)")]
    NotDead,
}

/// Why a correct claim is correct, in the words of its article.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClaimGround {
    #[error("the position occurs {occurrences} times (9.2)")]
    Threefold { occurrences: u32 },
    #[error("fifty moves by each player without a capture or pawn move (9.3)")]
    FiftyMoves,
    #[error("no series of legal moves can lead to mate (9.6)")]
    Dead,
}

impl ClaimGround {
    /// How the game ends on this ground.
    pub const fn termination(self) -> Termination {
        match self {
            ClaimGround::Threefold { .. } => Termination::ThreefoldRepetition,
            ClaimGround::FiftyMoves => Termination::FiftyMoves,
            ClaimGround::Dead => Termination::DeadPosition,
        }
    }
}

/// FIDE 9.2 / 9.3: the claim of the player to move about the position on the board ("has
/// occurred", 9.2b / 9.3b) or, with `intended`, about the position after the move they wrote
/// down and declared (9.2a / 9.3a). `keys` are the 9.2 identities under `edition` of every
/// position of the game so far, the current one last ([`super::repetition::repetition_keys`]):
/// the texts differ on castling rights that cannot be used at the moment.
///
/// # Errors
/// A [`ClaimError`] saying why the claim is incorrect.
pub fn judge_draw_claim(
    edition: Edition,
    kind: ClaimReason,
    position: &Position,
    keys: &[u64],
    intended: Option<Move>,
) -> Result<ClaimGround, ClaimError> {
    let count = |key: u64| keys.iter().filter(|&&k| k == key).count() as u32;
    let (after, occurrences) = match intended {
        None => (
            position.clone(),
            count(
                keys.last()
                    .copied()
                    .unwrap_or_else(|| repetition_key(edition, position)),
            ),
        ),
        Some(m) => {
            let mut p = position.clone();
            p.play(m).map_err(|_| ClaimError::IllegalIntendedMove)?;
            let key = repetition_key(edition, &p);
            (p, count(key) + 1)
        }
    };
    match kind {
        ClaimReason::Threefold if occurrences >= 3 => Ok(ClaimGround::Threefold { occurrences }),
        ClaimReason::Threefold => Err(ClaimError::NotThreefold { occurrences }),
        ClaimReason::FiftyMoves if after.halfmove_clock() >= 100 => Ok(ClaimGround::FiftyMoves),
        ClaimReason::FiftyMoves => Err(ClaimError::NotFiftyMoves {
            moves: after.halfmove_clock() / 2,
        }),
        ClaimReason::Time | ClaimReason::DeadPosition | ClaimReason::Lateness => {
            Err(ClaimError::NotADrawClaim)
        }
    }
}

/// The clock corrections after an incorrect 9.2/9.3 claim (9.5b), in milliseconds:
/// `(added to the opponent, taken from the claimant)`.
///
/// - 2009 (seed 003, 9.5.2): three minutes are added to the opponent's remaining time;
///   nothing is taken from the claimant.
/// - 2005 (seed 002, 9.5b): the same three minutes, and from a claimant with more than two
///   minutes half of their time up to three minutes is deducted; one with between one and
///   two minutes is left with one; one with less than a minute keeps it.
///
/// `claimant_remaining_ms` is the claimant's time at the claim (negative: fallen).
pub fn incorrect_claim_penalty(edition: Edition, claimant_remaining_ms: i64) -> (u64, u64) {
    const MINUTE: i64 = 60_000;
    const BONUS: u64 = 3 * 60_000;
    match edition {
        Edition::Fide2009 => (BONUS, 0),
        Edition::Fide2005 => {
            let left = claimant_remaining_ms;
            let taken = if left > 2 * MINUTE {
                (left / 2).min(3 * MINUTE)
            } else if left > MINUTE {
                left - MINUTE
            } else {
                0
            };
            (BONUS, taken.unsigned_abs())
        }
    }
}

/// FIDE 9.1b.3 (2009) / 9.1c (2005): a claim of a draw under 9.2 or 9.3 counts as a draw
/// offer, so an incorrect one leaves the claimant's offer standing for the opponent to accept.
pub const fn claim_is_draw_offer(kind: ClaimReason) -> bool {
    matches!(kind, ClaimReason::Threefold | ClaimReason::FiftyMoves)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: i64 = 60_000;

    #[test]
    fn fide_9_5b_2009_adds_three_minutes_to_the_opponent_only() {
        for left in [-1, 0, 30_000, 90_000, 10 * MINUTE] {
            assert_eq!(
                incorrect_claim_penalty(Edition::Fide2009, left),
                (180_000, 0)
            );
        }
    }

    #[test]
    fn fide_9_5b_2005_also_takes_from_the_claimant() {
        let p = |left| incorrect_claim_penalty(Edition::Fide2005, left);
        // More than two minutes: half, at most three minutes.
        assert_eq!(p(10 * MINUTE), (180_000, 180_000));
        assert_eq!(p(4 * MINUTE), (180_000, 120_000));
        assert_eq!(p(2 * MINUTE + 2), (180_000, 60_001));
        // Between one and two minutes: one minute is left.
        assert_eq!(p(90_000), (180_000, 30_000));
        assert_eq!(p(2 * MINUTE), (180_000, 60_000));
        // Less than a minute (or fallen): no adjustment.
        assert_eq!(p(MINUTE), (180_000, 0));
        assert_eq!(p(30_000), (180_000, 0));
        assert_eq!(p(-5), (180_000, 0));
    }

    #[test]
    fn fide_9_1c_2005_and_9_1b3_2009_a_draw_claim_is_an_offer() {
        assert!(claim_is_draw_offer(ClaimReason::Threefold));
        assert!(claim_is_draw_offer(ClaimReason::FiftyMoves));
    }

    #[test]
    fn fide_9_6_dead_position_claim() {
        let dead = Position::from_fen_auto("8/8/4k3/8/8/3BK3/8/8 w - - 0 1").unwrap();
        assert_eq!(judge_dead_position(&dead), Ok(ClaimGround::Dead));
        assert_eq!(
            judge_dead_position(&Position::new()),
            Err(ClaimError::NotDead)
        );
        assert_eq!(ClaimGround::Dead.termination(), Termination::DeadPosition);
    }
}
