//! Time controls and clocks through the public API: text round trips, and clocks that stay
//! deterministic and panic-free on any timestamps (unordered, overlapping, near `u64::MAX`).

use std::num::NonZeroU32;

use proptest::prelude::*;
use sobre_core::Color;
use sobre_core::clock::{
    Bonus, Classical, ClockStop, DAY, HOUR, LeaveAllowance, LeavePeriod, MINUTE, Millis,
    MoveTiming, Period, SECOND, TimeControl, clocks, format_duration, parse_duration, time_used,
};

fn mv(side: Color, made_at_ms: u64, received_at_ms: Option<u64>) -> MoveTiming {
    MoveTiming {
        side,
        made_at_ms,
        received_at_ms,
    }
}

/// An adjourned over-the-board game, end to end (FIDE Appendix A): first session, seal,
/// resumption, a period boundary after move 40.
#[test]
fn adjourned_game_keeps_times_across_the_session_break_appendix_a() {
    let tc: TimeControl = "40/2h+1h".parse().unwrap();
    let mut moves = Vec::new();
    let mut t = 0;
    // 30 moves each in the first session: White 2 min per move, Black 1 min.
    for _ in 0..30 {
        t += 2 * MINUTE;
        moves.push(mv(Color::White, t, None));
        t += MINUTE;
        moves.push(mv(Color::Black, t, None));
    }
    // White thinks 5 minutes on move 31 and seals (A1); the game resumes the next day (A9a).
    let sealed_at = t + 5 * MINUTE;
    let resumed_at = t + DAY;
    let stops = [ClockStop::adjournment(sealed_at, resumed_at)];
    moves.push(mv(Color::White, resumed_at, None));
    // A2.3 / A5: time used by each player at the adjournment.
    assert_eq!(
        time_used(&tc, Color::White, 0, &moves, &stops, sealed_at + HOUR),
        [65 * MINUTE, 30 * MINUTE]
    );
    // Black answers after 2 minutes of the resumed session.
    t = resumed_at + 2 * MINUTE;
    moves.push(mv(Color::Black, t, None));
    // Nine more moves each, 1 minute each: both complete move 40.
    for _ in 0..9 {
        t += MINUTE;
        moves.push(mv(Color::White, t, None));
        t += MINUTE;
        moves.push(mv(Color::Black, t, None));
    }
    let state = clocks(&tc, Color::White, 0, &moves, &stops, t);
    assert_eq!(state.moves_completed, [40, 40]);
    assert_eq!(state.flagged, None);
    // White used 60 + 5 + 9 = 74 min; Black 30 + 2 + 9 = 41 min; then the extra hour.
    assert_eq!(state.remaining_ms, [(46 + 60) * 60_000, (79 + 60) * 60_000]);
}

/// Correspondence, ICCF style, with receipts: only the time after receipt counts.
#[test]
fn iccf_game_with_receipts_counts_reflection_time_only() {
    let tc: TimeControl = "10/50d".parse().unwrap();
    let moves = [
        mv(Color::White, 2 * DAY, Some(3 * DAY)),
        mv(Color::Black, 5 * DAY, Some(5 * DAY + HOUR)),
    ];
    let state = clocks(&tc, Color::White, 0, &moves, &[], 6 * DAY);
    assert_eq!(state.used_ms, [2 * DAY + (DAY - HOUR), 2 * DAY]);
    assert_eq!(state.running, Some(Color::White));
}

fn duration() -> impl Strategy<Value = Millis> {
    prop_oneof![
        1u64..=60_000,
        (1u64..=1_000).prop_map(|m| m * MINUTE),
        (1u64..=400).prop_map(|d| d * DAY),
        1u64..=u64::MAX,
    ]
}

fn moves_count() -> impl Strategy<Value = NonZeroU32> {
    (1u32..=u32::MAX).prop_map(|n| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN))
}

fn bonus() -> impl Strategy<Value = Bonus> {
    prop_oneof![
        Just(Bonus::None),
        (0u64..=u64::MAX).prop_map(Bonus::Increment),
        (0u64..=u64::MAX).prop_map(Bonus::Delay),
    ]
}

fn time_control() -> impl Strategy<Value = TimeControl> {
    let period = (moves_count(), duration()).prop_map(|(moves, time)| Period { moves, time });
    let classical = (
        proptest::collection::vec(period, 0..4),
        proptest::option::of(duration()),
        bonus(),
    )
        .prop_filter_map("a control needs some time", |(periods, rest, bonus)| {
            Classical::new(periods, rest, bonus).ok()
        })
        .prop_map(TimeControl::Classical);
    prop_oneof![
        Just(TimeControl::Unlimited),
        (duration(), 0u64..=u64::MAX).prop_map(|(per_move, increment)| {
            TimeControl::CorrespondencePerMove {
                per_move,
                increment,
            }
        }),
        (
            moves_count(),
            duration(),
            prop_oneof![Just(0u64), 0u64..=u64::MAX]
        )
            .prop_map(
                |(moves, period, increment)| TimeControl::CorrespondenceMoves {
                    moves,
                    period,
                    increment,
                }
            ),
        classical,
    ]
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

fn instant() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..=10 * DAY,
        Just(u64::MAX),
        (u64::MAX - 1_000)..=u64::MAX,
        0u64..=u64::MAX,
    ]
}

fn timing() -> impl Strategy<Value = MoveTiming> {
    (color(), instant(), proptest::option::of(instant())).prop_map(|(side, made, received)| {
        MoveTiming {
            side,
            made_at_ms: made,
            received_at_ms: received,
        }
    })
}

fn stop() -> impl Strategy<Value = ClockStop> {
    (instant(), instant(), proptest::option::of(color())).prop_map(|(from_ms, to_ms, side)| {
        ClockStop {
            from_ms,
            to_ms,
            side,
        }
    })
}

proptest! {
    #[test]
    fn durations_round_trip(ms in 0u64..=u64::MAX) {
        prop_assert_eq!(parse_duration(&format_duration(ms)), Ok(ms));
    }

    #[test]
    fn time_controls_round_trip(tc in time_control()) {
        let text = tc.to_string();
        prop_assert_eq!(text.parse::<TimeControl>(), Ok(tc), "{}", text);
    }

    #[test]
    fn parsing_any_text_never_panics(text in "\\PC{0,24}") {
        let _ = text.parse::<TimeControl>();
        let _ = parse_duration(&text);
    }

    #[test]
    fn clocks_never_panic_and_are_deterministic(
        tc in time_control(),
        first in color(),
        start in instant(),
        moves in proptest::collection::vec(timing(), 0..12),
        stops in proptest::collection::vec(stop(), 0..5),
        now in instant(),
    ) {
        let state = clocks(&tc, first, start, &moves, &stops, now);
        prop_assert_eq!(&state, &clocks(&tc, first, start, &moves, &stops, now));
        // The flag is never in the future, and is recorded exactly when a flag fell.
        if let Some(at) = state.flag_at_ms {
            prop_assert!(at <= now);
            prop_assert!(state.flagged.is_some());
        } else {
            prop_assert!(state.flagged.is_none());
        }
        // Each fall is in time order, none in the future; a waived one was waived after it
        // fell and by `now`; the flag shown is the first fall still standing.
        for pair in state.oversteps.windows(2) {
            prop_assert!(pair[0].at_ms <= pair[1].at_ms);
        }
        for o in &state.oversteps {
            prop_assert!(o.at_ms <= now);
            prop_assert!(o.waived_at_ms.is_none_or(|w| o.at_ms <= w && w <= now));
            prop_assert_eq!(
                state.standing_overstep(o.side).is_some(),
                state.oversteps.iter().any(|p| p.side == o.side && p.stands())
            );
        }
        let first_standing = state.oversteps.iter().find(|o| o.stands());
        prop_assert_eq!(state.flagged, first_standing.map(|o| o.side));
        prop_assert_eq!(state.flag_at_ms, first_standing.map(|o| o.at_ms));
        // Nobody is charged more than the time that passed since the start.
        let elapsed = now.saturating_sub(start);
        prop_assert!(state.used_ms[0].saturating_add(state.used_ms[1]) <= elapsed);
        prop_assert_eq!(state.deadline_ms.is_none(), tc == TimeControl::Unlimited);
        if tc == TimeControl::Unlimited {
            prop_assert_eq!(state.flagged, None);
        }
        // Stops only ever reduce the time charged.
        let free = clocks(&tc, first, start, &moves, &[], now);
        prop_assert_eq!(free.moves_completed, state.moves_completed);
        prop_assert!(state.used_ms[0] <= free.used_ms[0] && state.used_ms[1] <= free.used_ms[1]);
    }

    #[test]
    fn a_flag_falls_exactly_when_the_time_runs_out(
        per_move in 1u64..=10 * DAY,
        start in 0u64..=10 * DAY,
        extra in 0u64..=2 * SECOND,
    ) {
        let tc = TimeControl::CorrespondencePerMove { per_move, increment: 0 };
        let now = start + per_move + extra;
        let state = clocks(&tc, Color::White, start, &[], &[], now);
        if extra == 0 {
            prop_assert_eq!(state.flagged, None);
        } else {
            prop_assert_eq!(state.flagged, Some(Color::White));
            prop_assert_eq!(state.flag_at_ms, Some(start + per_move + 1));
        }
        prop_assert_eq!(state.deadline_ms, Some(start + per_move + 1));
    }

    #[test]
    fn leave_checks_never_panic(
        days in 0u32..=u32::MAX,
        epoch in instant(),
        taken in proptest::collection::vec((instant(), instant()), 0..6),
        from in instant(),
        to in instant(),
    ) {
        let taken: Vec<LeavePeriod> =
            taken.into_iter().map(|(from_ms, to_ms)| LeavePeriod { from_ms, to_ms }).collect();
        let allowance = LeaveAllowance { days_per_year: days };
        let requested = LeavePeriod { from_ms: from, to_ms: to };
        let result = allowance.check(epoch, &taken, requested);
        prop_assert_eq!(&result, &allowance.check(epoch, &taken, requested));
        if to <= from {
            prop_assert!(result.is_err());
        }
    }
}
