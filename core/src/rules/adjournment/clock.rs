//! The clocks of an adjourned game (A1, A5, A9): which clock runs from the sealing until the
//! reply.
//!
//! For a binding seal (wire tag 17):
//! - A1: the sealed move is complete at the sealing — the sealer "stops their clock without
//!   starting the opponent's". Its timing is `made_at_ms` = the seal's signed time with no
//!   transit (`received_at_ms: None`), whenever the envelope is opened; the opening event's
//!   own time and its receipt play no part. While the envelope is closed the same timing
//!   stands in for the move, so the clocks do not change when it is opened.
//! - A5: both clocks stop from the sealing until the agreed resumption, or until an earlier
//!   opening (both players present, A7 with A2.7).
//! - A9a: a responder present at the resumption has their clock started when the envelope is
//!   opened; A9b: an absent responder's clock runs from the resumption until they arrive, and
//!   stops from their arrival until the opening ("puede detener su reloj … volviéndose a
//!   poner en marcha su reloj"). Waiting for the sealer's node to open costs nobody's clock;
//!   a sealer who never opens loses on the responder's claim after the limit (A8, A10).
//! - A9c: the reply in a second envelope is complete at its sealing, and from then the absent
//!   sealer's clock runs, until they arrive; it stops from their arrival until the reply is
//!   opened.
//!
//! A tag-10 seal keeps its meaning: both clocks stop from the sealing until the opening (or
//! its A11 move), and the sealed move is timed as any move, at the opening.

use super::Adjournment;
use crate::clock::{ClockStop, MoveTiming};
use crate::types::Color;

/// Appendix A's part of the clock inputs: rewrites in `moves` (one timing per played move,
/// in order) the timing of each binding sealed move and reply, appends the timing of one
/// still sealed, and returns the stops of every adjournment as of `upto_ms`.
pub fn clock_inputs(
    adjournments: &[Adjournment],
    moves: &mut Vec<MoveTiming>,
    upto_ms: u64,
) -> Vec<ClockStop> {
    let mut stops = Vec::new();
    for a in adjournments {
        if !a.binding {
            stops.push(ClockStop::adjournment(
                a.sealed_at_ms,
                a.opened_ms.unwrap_or(upto_ms),
            ));
            continue;
        }
        let end = stop_end_ms(a, upto_ms);
        // A1b: the clocks stop from the session's end when the sealer adjourned before it.
        stops.push(ClockStop::adjournment(a.charged_until_ms, end));
        let responder = a.responder();
        sealed_timing(
            moves,
            a.ply,
            a.sealer,
            a.charged_until_ms,
            a.opened_ms.is_none(),
        );
        if let Some(arrived) = a.arrived_ms[responder.index()] {
            stops.push(waiting(responder, arrived.max(end), a.opened_ms));
        }
        if let Some(reply) = &a.reply {
            let closed = reply.opened_ms.is_none();
            sealed_timing(moves, reply.ply, responder, reply.sealed_at_ms, closed);
            if let Some(arrived) = a.arrived_ms[a.sealer.index()] {
                stops.push(waiting(
                    a.sealer,
                    arrived.max(reply.sealed_at_ms),
                    reply.opened_ms,
                ));
            }
        }
    }
    stops
}

/// A5, A9: when both clocks start again after a binding seal — the agreed resumption, or an
/// earlier opening (allowed only with both players present).
fn stop_end_ms(a: &Adjournment, upto_ms: u64) -> u64 {
    match (a.resume_at_ms, a.opened_ms) {
        (Some(r), Some(o)) => r.min(o),
        (Some(r), None) => r,
        (None, o) => o.unwrap_or(upto_ms),
    }
}

/// A9b, A9c: `side`'s clock stands still while they wait at the board for an envelope,
/// until it is opened (with no end while it is still closed: their clock is stopped now, and
/// has no deadline).
fn waiting(side: Color, from_ms: u64, opened_ms: Option<u64>) -> ClockStop {
    ClockStop {
        from_ms,
        to_ms: opened_ms.unwrap_or(u64::MAX),
        side: Some(side),
    }
}

/// A1, A9c: the move sealed at `sealed_at_ms` is complete then, with no transit. Played, its
/// timing is rewritten; still sealed (and next), it is appended.
fn sealed_timing(
    moves: &mut Vec<MoveTiming>,
    ply: u32,
    side: Color,
    sealed_at_ms: u64,
    closed: bool,
) {
    let timing = MoveTiming {
        side,
        made_at_ms: sealed_at_ms,
        received_at_ms: None,
    };
    let Some(index) = (ply as usize).checked_sub(1) else {
        return;
    };
    if let Some(played) = moves.get_mut(index) {
        if played.side == side {
            *played = timing;
        }
    } else if closed && index == moves.len() {
        moves.push(timing);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{HOUR, MINUTE, TimeControl, clocks};

    const T: u64 = 1_800_000_000_000;
    const W: Color = Color::White;
    const B: Color = Color::Black;

    fn binding(sealer: Color, ply: u32, resume: u64) -> Adjournment {
        Adjournment::new(sealer, 0, ply, T, Some(resume), HOUR, true, [None, None])
    }

    /// White moved at T - 10 min (the game started at T - 20 min); Black answered; White
    /// seals at T.
    fn played() -> Vec<MoveTiming> {
        vec![
            MoveTiming {
                side: W,
                made_at_ms: T - 10 * MINUTE,
                received_at_ms: None,
            },
            MoveTiming {
                side: B,
                made_at_ms: T - 5 * MINUTE,
                received_at_ms: None,
            },
        ]
    }

    fn left(a: &Adjournment, moves: &[MoveTiming], at: u64) -> [i64; 2] {
        let mut moves = moves.to_vec();
        let stops = clock_inputs(std::slice::from_ref(a), &mut moves, at);
        let tc: TimeControl = "otb 2h".parse().unwrap();
        clocks(&tc, W, T - 20 * MINUTE, &moves, &stops, at).remaining_ms
    }

    const TWO_H: i64 = 2 * HOUR as i64;
    const MIN: i64 = MINUTE as i64;

    #[test]
    fn a1_a5_the_sealed_move_is_complete_at_the_sealing_and_no_clock_runs_until_the_resumption() {
        let a = binding(W, 3, T + HOUR);
        // Sealed at T, after 10 + 5 minutes for White: nothing more is charged until T + 1h.
        assert_eq!(
            left(&a, &played(), T + HOUR),
            [TWO_H - 15 * MIN, TWO_H - 5 * MIN]
        );
    }

    #[test]
    fn a9_b_the_absent_responders_clock_runs_from_the_resumption_even_while_sealed() {
        let a = binding(W, 3, T + HOUR);
        assert_eq!(
            left(&a, &played(), T + HOUR + 20 * MINUTE),
            [TWO_H - 15 * MIN, TWO_H - 25 * MIN]
        );
    }

    #[test]
    fn a9_b_the_responder_stops_their_clock_on_arrival_until_the_opening() {
        let mut a = binding(W, 3, T + HOUR);
        a.record_presence(B, T + HOUR + 20 * MINUTE);
        // The envelope is opened 3 minutes after Black's arrival: not charged to Black.
        a.record_opening(T + HOUR + 23 * MINUTE);
        let mut moves = played();
        moves.push(MoveTiming {
            side: W,
            made_at_ms: T + HOUR + 23 * MINUTE,
            received_at_ms: Some(T + HOUR + 24 * MINUTE),
        });
        assert_eq!(
            left(&a, &moves, T + HOUR + 33 * MINUTE),
            [TWO_H - 15 * MIN, TWO_H - 5 * MIN - 20 * MIN - 10 * MIN]
        );
    }

    #[test]
    fn a9_a_a_present_responders_clock_starts_at_the_opening() {
        let mut a = binding(W, 3, T + HOUR);
        a.record_presence(B, T + HOUR - MINUTE);
        a.record_opening(T + HOUR + 2 * MINUTE);
        let mut moves = played();
        moves.push(MoveTiming {
            side: W,
            made_at_ms: T + HOUR + 2 * MINUTE,
            received_at_ms: None,
        });
        assert_eq!(
            left(&a, &moves, T + HOUR + 12 * MINUTE),
            [TWO_H - 15 * MIN, TWO_H - 15 * MIN]
        );
    }

    #[test]
    fn a7_an_early_opening_with_both_present_ends_the_stop() {
        let mut a = binding(W, 3, T + 3 * HOUR);
        a.record_presence(B, T + MINUTE);
        a.record_presence(W, T + 2 * MINUTE);
        a.record_opening(T + 3 * MINUTE);
        let mut moves = played();
        moves.push(MoveTiming {
            side: W,
            made_at_ms: T + 3 * MINUTE,
            received_at_ms: None,
        });
        assert_eq!(
            left(&a, &moves, T + 13 * MINUTE),
            [TWO_H - 15 * MIN, TWO_H - 15 * MIN]
        );
    }

    #[test]
    fn a9_c_the_absent_sealers_clock_runs_from_the_reply() {
        let mut a = binding(W, 3, T + HOUR);
        a.record_presence(B, T + HOUR);
        a.record_opening(T + HOUR);
        a.reply = Some(super::super::Reply {
            envelope: 1,
            ply: 4,
            sealed_at_ms: T + HOUR + 10 * MINUTE,
            opened_ms: None,
        });
        let mut moves = played();
        moves.push(MoveTiming {
            side: W,
            made_at_ms: T + HOUR,
            received_at_ms: None,
        });
        // White (absent) is charged from the reply: 30 minutes later, 30 minutes.
        assert_eq!(
            left(&a, &moves, T + HOUR + 40 * MINUTE),
            [TWO_H - 15 * MIN - 30 * MIN, TWO_H - 15 * MIN]
        );
        // White arrives at +40 and the reply is opened at +45: those 5 minutes are not hers.
        a.record_presence(W, T + HOUR + 40 * MINUTE);
        a.record_opening(T + HOUR + 45 * MINUTE);
        moves.push(MoveTiming {
            side: B,
            made_at_ms: T + HOUR + 45 * MINUTE,
            received_at_ms: None,
        });
        assert_eq!(
            left(&a, &moves, T + HOUR + 50 * MINUTE),
            [TWO_H - 15 * MIN - 30 * MIN - 5 * MIN, TWO_H - 15 * MIN]
        );
    }

    #[test]
    fn a5_tag_10_both_clocks_stop_until_the_opening() {
        let mut a = Adjournment::new(W, 0, 3, T, Some(T + HOUR), HOUR, false, [None, None]);
        assert_eq!(
            left(&a, &played(), T + 5 * HOUR),
            [TWO_H - 15 * MIN, TWO_H - 5 * MIN]
        );
        a.record_opening(T + 5 * HOUR);
        let mut moves = played();
        moves.push(MoveTiming {
            side: W,
            made_at_ms: T + 5 * HOUR,
            received_at_ms: None,
        });
        assert_eq!(
            left(&a, &moves, T + 5 * HOUR + 10 * MINUTE),
            [TWO_H - 15 * MIN, TWO_H - 15 * MIN]
        );
    }
}
