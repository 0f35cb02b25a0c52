//! The verdicts on the clock: FIDE 6.9 (a fallen flag loses, unless the opponent cannot mate),
//! 6.8 (a flag has fallen once a player validly claims it), 6.11 (2009) / 6.12 (2005) (both
//! flags fallen), and the window in which a fallen flag may be claimed.

use super::Termination;
use crate::clock::ClockState;
use crate::outcome::Outcome;
use crate::position::Position;
use crate::types::Color;

/// FIDE 6.9: the flag of `loser` has fallen. The game is lost, unless the opponent cannot
/// checkmate by any series of legal moves, in which case it is drawn.
pub fn flag_fall(position: &Position, loser: Color) -> (Outcome, Termination) {
    if position.has_insufficient_material(!loser) {
        (Outcome::Draw, Termination::TimeForfeitInsufficientMaterial)
    } else {
        (
            Outcome::Decisive { winner: !loser },
            Termination::TimeForfeit,
        )
    }
}

/// Why a claim of a win on time is incorrect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeClaimError {
    /// The opponent's time had not run out when the claim was made.
    #[error("{}'s time had not run out (6.9)", .0.name())]
    NotFallen(Color),
    /// The claimant's own flag fell first. With signed clocks the order of two fallen flags
    /// is always established, so 6.11 (2009) / 6.12 (2005) — "if it is impossible to
    /// establish which flag fell first" — never applies: the first flag decides.
    #[error("{}'s own flag fell first (6.9; the order of the flags is established, 6.11)", .0.name())]
    ClaimantFellFirst(Color),
    /// The claimant moved after the opponent's flag fell and so accepted the late move: the
    /// claim window closed (6.8: the flag counts as fallen only once validly claimed; as a
    /// draw claim is lost by moving, 9.4, so is this one).
    #[error(
        "{} moved after the flag fell without claiming: the claim window has closed (6.8)",
        .0.name()
    )]
    WindowClosed(Color),
}

/// FIDE 6.9 with 6.8 and 6.11: may `claimant` claim a win on time in `clocks` (computed as of
/// the moment the claim is judged at)? `claimant_moved_since_fall` says whether the claimant
/// completed a move after the opponent's flag fell.
///
/// A flag that fell stays fallen when the next period's time is added (6.3 / 6.8): under
/// `40/2h, 1h` a player who completes move 40 a minute late has lost on time though their
/// clock then shows almost an hour; [`ClockState::flagged`] keeps the first fall.
///
/// # Errors
/// [`TimeClaimError`] saying why the claim is incorrect.
pub fn judge_time_claim(
    clocks: &ClockState,
    claimant: Color,
    claimant_moved_since_fall: bool,
) -> Result<(), TimeClaimError> {
    let opponent = !claimant;
    match clocks.flagged {
        Some(c) if c == claimant => Err(TimeClaimError::ClaimantFellFirst(claimant)),
        Some(_) if claimant_moved_since_fall => Err(TimeClaimError::WindowClosed(claimant)),
        Some(_) => Ok(()),
        None => Err(TimeClaimError::NotFallen(opponent)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{MoveTiming, TimeControl, clocks};

    const W: Color = Color::White;
    const B: Color = Color::Black;
    const MIN: u64 = 60_000;

    fn mv(side: Color, at: u64) -> MoveTiming {
        MoveTiming {
            side,
            made_at_ms: at,
            received_at_ms: None,
        }
    }

    #[test]
    fn fide_6_9_a_fallen_flag_is_claimed_by_the_opponent() {
        let tc: TimeControl = "5m".parse().unwrap();
        let st = clocks(&tc, W, 0, &[], &[], 6 * MIN);
        assert_eq!(judge_time_claim(&st, B, false), Ok(()));
        assert_eq!(
            judge_time_claim(&st, W, false),
            Err(TimeClaimError::ClaimantFellFirst(W))
        );
        let early = clocks(&tc, W, 0, &[], &[], 4 * MIN);
        assert_eq!(
            judge_time_claim(&early, B, false),
            Err(TimeClaimError::NotFallen(W))
        );
    }

    #[test]
    fn fide_6_8_a_flag_stays_fallen_when_the_next_period_is_added() {
        // 2 moves in 2 minutes, then 60 minutes: White plays move 2 a minute late.
        let tc: TimeControl = "2/2m:60m".parse().unwrap();
        let moves = [mv(W, 30_000), mv(B, 40_000), mv(W, 3 * MIN + 30_000)];
        let st = clocks(&tc, W, 0, &moves, &[], 3 * MIN + 40_000);
        assert!(
            st.remaining_ms[W.index()] > 0,
            "the next period's hour was added"
        );
        assert_eq!(st.flagged, Some(W));
        assert_eq!(judge_time_claim(&st, B, false), Ok(()));
    }

    #[test]
    fn fide_6_8_the_claim_window_closes_when_the_claimant_moves() {
        let tc: TimeControl = "2/2m:60m".parse().unwrap();
        let moves = [mv(W, 30_000), mv(B, 40_000), mv(W, 3 * MIN + 30_000)];
        let st = clocks(&tc, W, 0, &moves, &[], 3 * MIN + 40_000);
        assert_eq!(
            judge_time_claim(&st, B, true),
            Err(TimeClaimError::WindowClosed(B))
        );
    }

    #[test]
    fn fide_6_11_2009_6_12_2005_the_first_flag_decides() {
        // White's flag falls first (at 2:00); Black's later (Black used 3 min in a 2-minute
        // game): the order is established, so only White's fall counts.
        let tc: TimeControl = "2m".parse().unwrap();
        let moves = [mv(W, 2 * MIN + 10_000), mv(B, 6 * MIN)];
        let st = clocks(&tc, W, 0, &moves, &[], 6 * MIN + 1);
        assert_eq!(st.flagged, Some(W));
        assert_eq!(judge_time_claim(&st, B, false), Ok(()));
        assert_eq!(
            judge_time_claim(&st, W, false),
            Err(TimeClaimError::ClaimantFellFirst(W))
        );
    }

    #[test]
    fn fide_6_9_flag_fall_against_a_lone_king_is_a_draw() {
        let p = Position::from_fen_auto("8/8/4k3/8/8/4K3/4Q3/8 b - - 0 1").unwrap();
        assert_eq!(
            flag_fall(&p, W),
            (Outcome::Draw, Termination::TimeForfeitInsufficientMaterial)
        );
        assert_eq!(
            flag_fall(&p, B),
            (Outcome::Decisive { winner: W }, Termination::TimeForfeit)
        );
    }
}
