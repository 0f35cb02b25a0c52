//! The verdicts on the clock: FIDE 6.9 (a fallen flag loses, unless the opponent cannot mate),
//! 6.8 (a flag has fallen once a player validly claims it; playing on waives the fall on the
//! board), 6.11 (2009) / 6.12 (2005) (both flags fallen: the first standing fall decides).

use super::{Termination, dead};
use crate::clock::ClockState;
use crate::outcome::Outcome;
use crate::position::Position;
use crate::types::Color;

/// FIDE 6.9: the flag of `loser` has fallen. The game is lost, unless the opponent cannot
/// checkmate by any series of legal moves ([`dead::cannot_checkmate`]: the opponent's
/// material, or a locked structure where no one can ever give check), in which case it is
/// drawn.
pub fn flag_fall(position: &Position, loser: Color) -> (Outcome, Termination) {
    if dead::cannot_checkmate(position, !loser) {
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
    /// The claimant's own standing fall is the first: it came before any standing fall of
    /// the opponent's, or the opponent has none. With signed clocks the order of two fallen
    /// flags is always established, so 6.11 (2009) / 6.12 (2005) — "if it is impossible to
    /// establish which flag fell first" — never applies: the first flag still standing
    /// decides.
    #[error("{}'s own flag fell first (6.9; the order of the flags is established, 6.11)", .0.name())]
    ClaimantFellFirst(Color),
}

/// FIDE 6.9 with 6.8 and 6.11: may `claimant` claim a win on time in `clocks`, computed as of
/// the moment the claim is judged at (the clocks know every move completed by then, so who
/// played on since a fall)?
///
/// **Each overstep is its own flag fall** ([`crate::clock::Overstep`]): a turn during which
/// the mover's time was negative. It *stands* until the opponent completes a move after it:
/// 6.8 counts a flag as fallen once validly claimed, and a player who plays on instead waives
/// the fall that was on the board then (as a draw claim is forfeited by moving, 9.4) — that
/// one only. So the claim is
/// - correct when the opponent has a standing fall, and the claimant has none that came
///   before it (the opponent's is [`ClockState::flagged`]);
/// - [`TimeClaimError::ClaimantFellFirst`] when the first standing fall is the claimant's
///   (6.11 of 2009, 6.12 of 2005: with signed clocks the order is always established, and
///   the first flag decides);
/// - [`TimeClaimError::NotFallen`] when no fall stands.
///
/// Hence: a player who played on after one overstep may claim the next one, days later; a
/// claimant once late himself may claim once the opponent played on past that; over the
/// board a flag still down at the flagged side's next turn is a new fall, claimable then. And
/// a fall stands when the late move brings the time back above zero (6.3 / 6.8): under
/// `40/2h, 1h` a player who completes move 40 a minute late has lost on time, though their
/// clock then shows almost an hour, if the opponent claims before moving.
///
/// # Errors
/// [`TimeClaimError`] saying why the claim is incorrect.
pub fn judge_time_claim(clocks: &ClockState, claimant: Color) -> Result<(), TimeClaimError> {
    let opponent = !claimant;
    match clocks.flagged {
        Some(c) if c == opponent => Ok(()),
        Some(_) => Err(TimeClaimError::ClaimantFellFirst(claimant)),
        None => Err(TimeClaimError::NotFallen(opponent)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{MoveTiming, Overstep, TimeControl, clocks};

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
        assert_eq!(judge_time_claim(&st, B), Ok(()));
        assert_eq!(
            judge_time_claim(&st, W),
            Err(TimeClaimError::ClaimantFellFirst(W))
        );
        let early = clocks(&tc, W, 0, &[], &[], 4 * MIN);
        assert_eq!(
            judge_time_claim(&early, B),
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
        assert_eq!(judge_time_claim(&st, B), Ok(()));
    }

    #[test]
    fn fide_6_8_playing_on_waives_the_fall_on_the_board() {
        // White completes move 2 late; Black plays on instead of claiming: that fall is
        // waived, and White (with the next period's hour) has not overstepped since.
        let tc: TimeControl = "2/2m:60m".parse().unwrap();
        let moves = [
            mv(W, 30_000),
            mv(B, 40_000),
            mv(W, 3 * MIN + 30_000),
            mv(B, 3 * MIN + 35_000),
        ];
        let st = clocks(&tc, W, 0, &moves, &[], 3 * MIN + 40_000);
        assert_eq!(st.flagged, None);
        assert_eq!(
            st.oversteps,
            [Overstep {
                side: W,
                at_ms: 2 * MIN + 10_001,
                waived_at_ms: Some(3 * MIN + 35_000)
            }]
        );
        assert_eq!(judge_time_claim(&st, B), Err(TimeClaimError::NotFallen(W)));
    }

    #[test]
    fn fide_6_8_a_later_overstep_is_a_new_fall() {
        // Correspondence, 1 day a move: White is an hour late on move 2, Black plays on;
        // White then never answers Black's second move.
        let tc: TimeControl = "1d".parse().unwrap();
        let d = 24 * 60 * MIN;
        let moves = [
            mv(W, MIN),
            mv(B, 2 * MIN),
            mv(W, d + 3 * MIN),
            mv(B, d + 4 * MIN),
        ];
        let before = clocks(&tc, W, 0, &moves, &[], 2 * d);
        assert_eq!(before.flagged, None);
        assert_eq!(
            judge_time_claim(&before, B),
            Err(TimeClaimError::NotFallen(W))
        );
        let st = clocks(&tc, W, 0, &moves, &[], 12 * d);
        assert_eq!(st.flagged, Some(W));
        assert_eq!(st.flag_at_ms, Some(2 * d + 4 * MIN + 1));
        assert_eq!(st.standing_overstep(W), Some(2 * d + 4 * MIN + 1));
        assert_eq!(st.oversteps.len(), 2);
        assert!(!st.oversteps[0].stands());
        assert_eq!(judge_time_claim(&st, B), Ok(()));
        assert!(st.can_claim_time_forfeit(B));
    }

    #[test]
    fn fide_6_11_a_waived_fall_of_the_claimant_does_not_count() {
        // White overstepped first, Black played on; Black then overstepped and White
        // played on; now Black is late again: White's claim is correct.
        let tc: TimeControl = "1d".parse().unwrap();
        let d = 24 * 60 * MIN;
        let moves = [
            mv(W, d + MIN),
            mv(B, 2 * d + 2 * MIN),
            mv(W, 2 * d + 3 * MIN),
        ];
        let st = clocks(&tc, W, 0, &moves, &[], 4 * d);
        assert_eq!(st.oversteps.len(), 3);
        assert_eq!(st.standing_overstep(W), None);
        assert_eq!(st.standing_overstep(B), Some(3 * d + 3 * MIN + 1));
        assert_eq!(judge_time_claim(&st, W), Ok(()));
        assert_eq!(
            judge_time_claim(&st, B),
            Err(TimeClaimError::ClaimantFellFirst(B))
        );
    }

    #[test]
    fn fide_6_8_otb_a_flag_still_down_falls_again_at_each_turn() {
        // 5 minutes each: White's flag falls at 5:00.001; White moves at 6:00, Black plays
        // on at 6:10; White's next turn starts with the time already negative.
        let tc: TimeControl = "otb 5m".parse().unwrap();
        let moves = [mv(W, 6 * MIN), mv(B, 6 * MIN + 10_000)];
        let st = clocks(&tc, W, 0, &moves, &[], 66 * MIN);
        assert!(st.remaining_ms[W.index()] < 0);
        assert_eq!(
            st.oversteps,
            [
                Overstep {
                    side: W,
                    at_ms: 5 * MIN + 1,
                    waived_at_ms: Some(6 * MIN + 10_000)
                },
                Overstep {
                    side: W,
                    at_ms: 6 * MIN + 10_000,
                    waived_at_ms: None
                }
            ]
        );
        assert_eq!(judge_time_claim(&st, B), Ok(()));
        // A fall stands while the late move is in transit (the opponent has not moved).
        let moves = [MoveTiming {
            side: B,
            made_at_ms: 6 * MIN + 10_000,
            received_at_ms: Some(7 * MIN),
        }];
        let st = clocks(&tc, B, 0, &moves, &[], 6 * MIN + 20_000);
        assert_eq!(st.oversteps.len(), 1);
        assert_eq!(st.standing_overstep(W), None);
        assert_eq!(st.standing_overstep(B), Some(5 * MIN + 1));
    }

    #[test]
    fn fide_6_11_2009_6_12_2005_the_first_flag_decides() {
        // White's flag falls first (at 2:00.001) and White moves late; Black, who has not
        // moved since, lets his own flag fall (at 4:10.001): both falls stand, the order is
        // established, so the first decides.
        let tc: TimeControl = "2m".parse().unwrap();
        let moves = [mv(W, 2 * MIN + 10_000), mv(B, 6 * MIN)];
        let st = clocks(&tc, W, 0, &moves[..1], &[], 5 * MIN);
        assert_eq!(st.standing_overstep(W), Some(2 * MIN + 1));
        assert_eq!(st.standing_overstep(B), Some(4 * MIN + 10_001));
        assert_eq!(st.flagged, Some(W));
        assert_eq!(judge_time_claim(&st, B), Ok(()));
        assert_eq!(
            judge_time_claim(&st, W),
            Err(TimeClaimError::ClaimantFellFirst(W))
        );
        // Black plays on at 6:00 instead of claiming: White's first fall is waived (6.8),
        // White's clock is still down at the start of his turn (a new fall, at 6:00), and
        // Black's, which stands, is now the first: White's claim is correct.
        let st = clocks(&tc, W, 0, &moves, &[], 6 * MIN + 1);
        assert_eq!(st.standing_overstep(W), Some(6 * MIN));
        assert_eq!(st.flagged, Some(B));
        assert_eq!(judge_time_claim(&st, W), Ok(()));
        assert_eq!(
            judge_time_claim(&st, B),
            Err(TimeClaimError::ClaimantFellFirst(B))
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
