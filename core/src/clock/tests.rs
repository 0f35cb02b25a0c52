//! Tests of durations, time controls, clocks and leave.

use std::num::NonZeroU32;

use super::*;
use crate::types::Color;

const W: Color = Color::White;
const B: Color = Color::Black;

fn tc(text: &str) -> TimeControl {
    text.parse().unwrap()
}

fn mv(side: Color, made_at_ms: u64) -> MoveTiming {
    MoveTiming {
        side,
        made_at_ms,
        received_at_ms: None,
    }
}

/// Moves alternating from White, made at the given instants.
fn alternating(times: &[u64]) -> Vec<MoveTiming> {
    times
        .iter()
        .enumerate()
        .map(|(i, &t)| mv(if i % 2 == 0 { W } else { B }, t))
        .collect()
}

fn left(state: &ClockState, side: Color) -> i64 {
    state.remaining_ms[side.index()]
}

fn ms(x: Millis) -> i64 {
    to_i64(x)
}

// Durations.

#[test]
fn a1_b_an_over_the_board_control_may_name_its_sessions() {
    let c = tc("otb 40/2h:1h session 5h");
    assert_eq!(c.session(), Some(5 * HOUR));
    assert_eq!(c.to_string(), "40/2h:1h session 5h");
    assert_eq!(tc(&c.to_string()), c);
    assert_eq!(tc("90m+30s session 4h").session(), Some(4 * HOUR));
    assert_eq!(tc("40/2h:1h").session(), None);
    for bad in ["3d session 4h", "otb 2h session", "otb 2h session x"] {
        assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
    }
}

#[test]
fn durations_in_every_unit() {
    assert_eq!(parse_duration("3d"), Ok(3 * DAY));
    assert_eq!(parse_duration("12h"), Ok(12 * HOUR));
    assert_eq!(parse_duration("90m"), Ok(90 * MINUTE));
    assert_eq!(parse_duration("30s"), Ok(30 * SECOND));
    assert_eq!(parse_duration("250ms"), Ok(250));
    assert_eq!(parse_duration("1d12h"), Ok(DAY + 12 * HOUR));
    assert_eq!(parse_duration(" 1H30M "), Ok(90 * MINUTE));
    assert_eq!(parse_duration("0s"), Ok(0));
}

#[test]
fn duration_errors_name_the_input() {
    let cases = [
        (
            "",
            "invalid duration \"\": empty duration (write e.g. 3d, 12h, 90m, 30s or 1d12h)",
        ),
        (
            "90",
            "invalid duration \"90\": missing unit after 90 (use d, h, m, s or ms)",
        ),
        (
            "3w",
            "invalid duration \"3w\": unknown unit \"w\" (use d, h, m, s or ms)",
        ),
        (
            "d3",
            "invalid duration \"d3\": expected a number before 'd'",
        ),
        ("1.5h", "invalid duration \"1.5h\": unexpected '.'"),
        ("3 d", "invalid duration \"3 d\": unexpected ' '"),
        (
            "30s1m",
            "invalid duration \"30s1m\": unit \"m\" repeated or out of order (largest unit first, e.g. 1d12h)",
        ),
        (
            "99999999999999999999d",
            "invalid duration \"99999999999999999999d\": too long",
        ),
        (
            "300000000000d",
            "invalid duration \"300000000000d\": too long",
        ),
    ];
    for (input, message) in cases {
        assert_eq!(
            parse_duration(input).unwrap_err().to_string(),
            message,
            "{input}"
        );
    }
}

#[test]
fn durations_format_canonically() {
    assert_eq!(format_duration(0), "0s");
    assert_eq!(format_duration(90 * MINUTE), "1h30m");
    assert_eq!(format_duration(DAY + 12 * HOUR), "1d12h");
    assert_eq!(format_duration(1_500), "1s500ms");
    assert_eq!(parse_duration(&format_duration(u64::MAX)), Ok(u64::MAX));
}

// Time control text.

#[test]
fn every_form_round_trips_through_its_text() {
    let canonical = [
        "unlimited",
        "3d",
        "3d+1d",
        "corr 12h",
        "corr 30s+5s",
        "10/50d",
        "10/50d+1d",
        "corr 10/5h",
        "40/2h:1h",
        "40/2h:20/1h:30m",
        "40/1h30m:30m+30s",
        "1h30m+30s",
        "1h30m d5s",
        "40/2h",
        "40/2h:16/1h inc 30s",
        "40/2h d10s",
        "40/2h:30s",
        "otb 1d",
        "otb 40/1d:2h",
    ];
    for text in canonical {
        let parsed = tc(text);
        assert_eq!(parsed.to_string(), text);
        assert_eq!(tc(&parsed.to_string()), parsed);
    }
}

#[test]
fn cli_spellings_parse_to_the_documented_controls() {
    assert_eq!(
        tc("3d"),
        TimeControl::CorrespondencePerMove {
            per_move: 3 * DAY,
            increment: 0
        }
    );
    assert_eq!(
        tc("10/50d+1d"),
        TimeControl::CorrespondenceMoves {
            moves: NonZeroU32::new(10).unwrap(),
            period: 50 * DAY,
            increment: DAY
        }
    );
    // FIDE 6.2a: `40/2h+1h` = 40 moves in 2 hours, then 1 hour for the rest.
    let forty_then_one = tc("40/2h+1h");
    assert_eq!(forty_then_one, tc("40/2h:1h"));
    let TimeControl::Classical(c) = &forty_then_one else {
        panic!("not classical: {forty_then_one:?}");
    };
    assert_eq!(c.periods().len(), 1);
    assert_eq!(c.periods()[0].time, 2 * HOUR);
    assert_eq!(c.sudden_death(), Some(HOUR));
    assert_eq!(c.bonus(), Bonus::None);
    assert_eq!(tc("40/90m:30m+30s"), tc("40/90m:30m inc 30s"));
    assert_eq!(tc("40/2h+1m"), tc("40/2h:1m"));
    assert_eq!(tc("90m d5s"), tc("otb 90m delay 5s"));
    assert_eq!(tc("90m").delay(), 0);
    assert_eq!(tc("90m d5s").delay(), 5 * SECOND);
    assert_eq!(tc("72h"), tc("3d"));
    assert!(tc("72h").is_correspondence());
    assert!(!tc("12h").is_correspondence());
    assert!(tc("corr 12h").is_correspondence());
    assert_eq!(tc(" UNLIMITED "), TimeControl::Unlimited);
}

#[test]
fn time_control_error_messages() {
    let cases = [
        ("", "empty (write e.g. 3d, 10/50d, 40/2h+1h or unlimited)"),
        (
            "3x",
            "invalid duration \"3x\": unknown unit \"x\" (use d, h, m, s or ms)",
        ),
        (
            "0/50d",
            "bad move count \"0\" (a whole number of moves, at least 1)",
        ),
        (
            "ten/50d",
            "bad move count \"ten\" (a whole number of moves, at least 1)",
        ),
        ("0d", "the final period must be longer than zero"),
        ("corr 0s", "the time per move must be longer than zero"),
        ("40/0s:1h", "a period must be longer than zero"),
        (
            "3d:1d",
            "a correspondence control is one period with an optional increment, e.g. 3d+1d or 10/50d+1d (start with `otb ` for over-the-board periods)",
        ),
        (
            "3d d5s",
            "a correspondence control is one period with an optional increment, e.g. 3d+1d or 10/50d+1d (start with `otb ` for over-the-board periods)",
        ),
        (
            "90m:40/1h",
            "\"40/1h\" comes after the final period (the period without a move count must be last)",
        ),
        ("90m+30s+10s", "more than one increment or delay"),
        (
            "40/2h+30s",
            "+30s after a period with a move count would be a final period of 30s; write `inc 30s` for an increment, or `:30s` for such a final period",
        ),
        ("90m+30s d5s", "more than one increment or delay"),
        ("40/2h::1h", "empty period between separators"),
        (
            "90m fast",
            "unexpected \"fast\" (after the periods: `inc 30s`, `d5s` or `delay 5s`)",
        ),
        (
            "90m inc",
            "unexpected \"inc\" (after the periods: `inc 30s`, `d5s` or `delay 5s`)",
        ),
    ];
    for (input, kind) in cases {
        let err = input.parse::<TimeControl>().unwrap_err();
        assert_eq!(err.input, input);
        assert_eq!(
            err.to_string(),
            format!("invalid time control {input:?}: {kind}")
        );
    }
}

#[test]
fn classical_refuses_a_control_without_time() {
    assert_eq!(
        Classical::new(vec![], None, Bonus::Increment(SECOND)),
        Err(TimeControlErrorKind::NoPeriods)
    );
    assert_eq!(
        Classical::new(vec![], Some(HOUR), Bonus::Delay(0)).map(|c| c.bonus()),
        Ok(Bonus::None)
    );
}

// Clocks.

#[test]
fn per_move_limit_resets_each_move() {
    let tc = tc("corr 10s");
    // White uses 2 s, Black 9 s, White 9 s: each move had its own 10 s.
    let moves = alternating(&[2_000, 11_000, 20_000]);
    let state = clocks(&tc, W, 0, &moves, &[], 20_000);
    assert_eq!(state.flagged, None);
    assert_eq!(
        left(&state, W),
        10_000,
        "unused time is not carried forward"
    );
    assert_eq!(left(&state, B), 10_000);
    assert_eq!(state.to_move, B);
    assert_eq!(state.deadline_ms, Some(30_001));
    assert_eq!(state.used_ms, [11_000, 9_000]);
}

#[test]
fn per_move_increment_builds_a_reserve() {
    let tc = tc("corr 10s+5s");
    // White: 1 s (reserve 5 s), Black: 1 s, White: 13 s (3 s from the reserve → 2 s + 5 s).
    let moves = alternating(&[1_000, 2_000, 15_000]);
    let state = clocks(&tc, W, 0, &moves, &[], 15_000);
    assert_eq!(state.flagged, None);
    assert_eq!(left(&state, W), 10_000 + 7_000);
    assert_eq!(left(&state, B), 10_000 + 5_000);
}

#[test]
fn iccf_10_moves_in_50_days_carries_time_forward() {
    let tc = tc("10/50d");
    // White makes 10 moves, 1 day each; Black answers instantly.
    let mut moves = Vec::new();
    let mut t = 0;
    for _ in 0..10 {
        t += DAY;
        moves.push(mv(W, t));
        moves.push(mv(B, t));
    }
    let state = clocks(&tc, W, 0, &moves, &[], t);
    // 40 unused days are carried forward, plus another 50 for the next 10 moves.
    assert_eq!(left(&state, W), ms(40 * DAY + 50 * DAY));
    assert_eq!(left(&state, B), ms(100 * DAY));
    assert_eq!(state.moves_completed, [10, 10]);
    // After 9 moves, no new block yet.
    let after_nine = clocks(&tc, W, 0, &moves[..18], &[], 9 * DAY);
    assert_eq!(left(&after_nine, W), ms(41 * DAY));
}

#[test]
fn iccf_increment_is_added_after_every_move() {
    let tc = tc("10/50d+1d");
    let state = clocks(&tc, W, 0, &[mv(W, 2 * DAY)], &[], 2 * DAY);
    assert_eq!(left(&state, W), ms(49 * DAY));
}

#[test]
fn receipt_time_starts_the_opponents_clock() {
    let tc = tc("3d");
    let moves = [MoveTiming {
        side: W,
        made_at_ms: HOUR,
        received_at_ms: Some(10 * HOUR),
    }];
    // In transit: nobody's clock runs.
    let in_transit = clocks(&tc, W, 0, &moves, &[], 5 * HOUR);
    assert_eq!(in_transit.to_move, B);
    assert_eq!(in_transit.running, None);
    assert_eq!(left(&in_transit, B), ms(3 * DAY));
    // After receipt, Black's clock counts from the receipt, not from the move.
    let later = clocks(&tc, W, 0, &moves, &[], 12 * HOUR);
    assert_eq!(later.running, Some(B));
    assert_eq!(left(&later, B), ms(3 * DAY - 2 * HOUR));
    assert_eq!(later.deadline_ms, Some(10 * HOUR + 3 * DAY + 1));
    // Without a receipt, the clock starts when the move was made.
    let unreceived = [mv(W, HOUR)];
    let state = clocks(&tc, W, 0, &unreceived, &[], 12 * HOUR);
    assert_eq!(left(&state, B), ms(3 * DAY - 11 * HOUR));
}

#[test]
fn leave_stops_the_clock() {
    let tc = tc("3d");
    // Black received White's move at 0 and goes on leave for 10 days from day 1.
    let leave = LeavePeriod {
        from_ms: DAY,
        to_ms: 11 * DAY,
    };
    let stops = [leave.stop_for(B)];
    let moves = [mv(W, 0)];
    let on_leave = clocks(&tc, W, 0, &moves, &stops, 5 * DAY);
    assert_eq!(on_leave.running, None);
    assert_eq!(on_leave.flagged, None);
    assert_eq!(left(&on_leave, B), ms(2 * DAY));
    // The deadline moves past the leave.
    assert_eq!(on_leave.deadline_ms, Some(13 * DAY + 1));
    let after = clocks(&tc, W, 0, &moves, &stops, 12 * DAY);
    assert_eq!(after.running, Some(B));
    assert_eq!(left(&after, B), ms(DAY));
    // White's leave does not stop Black's clock.
    let white_leave = [leave.stop_for(W)];
    let state = clocks(&tc, W, 0, &moves, &white_leave, 5 * DAY);
    assert_eq!(state.flagged, Some(B));
    assert_eq!(state.flag_at_ms, Some(3 * DAY + 1));
}

#[test]
fn adjournment_stops_both_clocks_appendix_a() {
    let tc = tc("40/2h:1h");
    // White thinks 30 min and seals (A1: stops the clock without starting Black's).
    // The session resumes a day later (A9a): the sealed move is played, Black's clock runs.
    let sealed_at = 30 * MINUTE;
    let resumed_at = DAY;
    let stops = [ClockStop::adjournment(sealed_at, resumed_at)];
    let moves = [mv(W, resumed_at)];
    let during = clocks(&tc, W, 0, &[], &stops, 12 * HOUR);
    assert_eq!(during.running, None);
    assert_eq!(left(&during, W), ms(90 * MINUTE));
    assert_eq!(left(&during, B), ms(2 * HOUR));
    // A5: at resumption the clocks show the time used at the adjournment.
    assert_eq!(
        time_used(&tc, W, 0, &moves, &stops, resumed_at),
        [30 * MINUTE, 0]
    );
    let after = clocks(&tc, W, 0, &moves, &stops, resumed_at + 10 * MINUTE);
    assert_eq!(after.running, Some(B));
    assert_eq!(left(&after, W), ms(90 * MINUTE));
    assert_eq!(left(&after, B), ms(110 * MINUTE));
    assert_eq!(after.flagged, None);
}

#[test]
fn classical_40_in_2h_then_1h() {
    let tc = tc("40/2h+1h");
    // Each side takes 3 minutes per move: 40 moves = 120 minutes exactly.
    let mut moves = Vec::new();
    let mut t = 0;
    for _ in 0..40 {
        t += 3 * MINUTE;
        moves.push(mv(W, t));
        moves.push(mv(B, t));
    }
    let state = clocks(&tc, W, 0, &moves, &[], t);
    // FIDE 6.2a: move 40 completed with 0 left, in time; 1 hour added for the rest.
    assert_eq!(state.flagged, None);
    assert_eq!(left(&state, W), ms(HOUR));
    // One millisecond more on move 40 is a flag fall (6.9 is decided elsewhere); it stands
    // until Black plays on (6.8).
    moves[78].made_at_ms += 1;
    let late = clocks(&tc, W, 0, &moves[..79], &[], t + 1);
    assert_eq!(late.flagged, Some(W));
    assert_eq!(late.flag_at_ms, Some(t + 1));
    let answered = clocks(&tc, W, 0, &moves, &[], t + 1);
    assert_eq!(answered.flagged, None);
    assert_eq!(
        answered.oversteps,
        [Overstep {
            side: W,
            at_ms: t + 1,
            waived_at_ms: Some(t + 1)
        }]
    );
}

#[test]
fn classical_periods_add_time_at_each_boundary() {
    let TimeControl::Classical(c) = tc("40/2h:20/1h:30m+30s") else {
        panic!("not classical");
    };
    assert_eq!(c.added_after_move(1), 30 * SECOND);
    assert_eq!(c.added_after_move(40), HOUR + 30 * SECOND);
    assert_eq!(c.added_after_move(60), 30 * MINUTE + 30 * SECOND);
    assert_eq!(c.added_after_move(80), 30 * SECOND);
    // Without a final period the last period repeats.
    let TimeControl::Classical(repeat) = tc("40/2h:16/1h") else {
        panic!("not classical");
    };
    assert_eq!(repeat.added_after_move(40), HOUR);
    assert_eq!(repeat.added_after_move(56), HOUR);
    assert_eq!(repeat.added_after_move(72), HOUR);
    assert_eq!(repeat.added_after_move(73), 0);
}

#[test]
fn fide_6_2b_delay_not_charged() {
    let tc = tc("1m d5s");
    // White moves within the delay: main time unchanged. Black takes 8 s: charged 3 s.
    let moves = alternating(&[4_000, 12_000]);
    let state = clocks(&tc, W, 0, &moves, &[], 12_000);
    assert_eq!(left(&state, W), ms(MINUTE));
    assert_eq!(left(&state, B), ms(MINUTE) - 3_000);
    assert_eq!(state.used_ms, [0, 3_000]);
    // Unused delay is not carried forward (6.2b); the deadline counts the delay first.
    assert_eq!(state.deadline_ms, Some(12_000 + 5_000 + MINUTE + 1));
    let flagged = clocks(&tc, W, 0, &moves, &[], 12_000 + 65_001);
    assert_eq!(flagged.flagged, Some(W));
    assert_eq!(flagged.flag_at_ms, Some(12_000 + 65_001));
}

#[test]
fn fide_6_2a_increment_added_after_each_move() {
    let tc = tc("1m+10s");
    let moves = alternating(&[5_000, 5_000]);
    let state = clocks(&tc, W, 0, &moves, &[], 5_000);
    assert_eq!(left(&state, W), ms(MINUTE + 5_000));
    assert_eq!(left(&state, B), ms(MINUTE + 10_000));
}

#[test]
fn flag_falls_at_exact_ms() {
    let tc = tc("corr 30s");
    let start = 1_000;
    // A move with exactly 0 ms left is in time.
    let on_time = clocks(&tc, W, start, &[mv(W, start + 30_000)], &[], start + 30_000);
    assert_eq!(on_time.flagged, None);
    // Not moving: at start + 30 s the time is 0, a millisecond later it is negative.
    let at_zero = clocks(&tc, W, start, &[], &[], start + 30_000);
    assert_eq!((at_zero.flagged, left(&at_zero, W)), (None, 0));
    let past = clocks(&tc, W, start, &[], &[], start + 40_000);
    assert_eq!(past.flagged, Some(W));
    assert_eq!(past.flag_at_ms, Some(start + 30_001));
    assert_eq!(past.deadline_ms, Some(start + 30_001));
    assert_eq!(left(&past, W), -10_000);
    // A flag that fell stays recorded after a late move.
    let late = clocks(&tc, W, start, &[mv(W, start + 35_000)], &[], start + 40_000);
    assert_eq!(late.flagged, Some(W));
    assert_eq!(late.flag_at_ms, Some(start + 30_001));
}

#[test]
fn fide_6_9_claim_valid_only_while_the_flag_is_down_and_unanswered() {
    let tc = tc("corr 30s");
    let moves = [mv(W, 35_000)];
    // Black claims at 31 s: White's flag fell at 30.001 s and White has not moved.
    let at_claim = clocks(&tc, W, 0, &moves, &[], 31_000);
    assert!(at_claim.can_claim_time_forfeit(B));
    assert!(!at_claim.can_claim_time_forfeit(W));
    // Before the flag fell the claim is not valid.
    assert!(!clocks(&tc, W, 0, &moves, &[], 30_000).can_claim_time_forfeit(B));
    // After White's (late) move the fall stands until Black plays on (6.8): the claim is
    // still valid, though White is no longer on move with no time left (the version 1 rule).
    let after_move = clocks(&tc, W, 0, &moves, &[], 36_000);
    assert!(after_move.can_claim_time_forfeit(B));
    assert!(!after_move.out_of_time_on_move(W));
    assert!(at_claim.out_of_time_on_move(W));
    let answered = [mv(W, 35_000), mv(B, 37_000)];
    assert!(!clocks(&tc, W, 0, &answered, &[], 38_000).can_claim_time_forfeit(B));
}

#[test]
fn fide_6_8_a_correction_is_a_fall_when_it_leaves_the_mover_below_zero_and_never_lifts_one() {
    let tc = tc("otb 5m");
    // White, on move with a minute left at 4:00, loses two minutes to a correction (the 2005
    // penalty of an incorrect claim): the fall is at the correction.
    let taken = [ClockAdjustment {
        side: W,
        at_ms: 4 * MINUTE,
        delta_ms: -ms(2 * MINUTE),
    }];
    let st = clocks_adjusted(&tc, W, 0, &[], &[], &taken, 4 * MINUTE + SECOND);
    assert_eq!(st.flagged, Some(W));
    assert_eq!(st.flag_at_ms, Some(4 * MINUTE));
    // White moves late at 6:00; three minutes given to White at 6:05 (Black's turn) bring
    // the time back above zero, but the fall stands until Black plays on.
    let given = [ClockAdjustment {
        side: W,
        at_ms: 6 * MINUTE + 5 * SECOND,
        delta_ms: ms(3 * MINUTE),
    }];
    let moves = [mv(W, 6 * MINUTE)];
    let st = clocks_adjusted(&tc, W, 0, &moves, &[], &given, 6 * MINUTE + 10 * SECOND);
    assert!(left(&st, W) > 0);
    assert_eq!(st.standing_overstep(W), Some(5 * MINUTE + 1));
    assert!(st.can_claim_time_forfeit(B));
    assert!(st.time_claim_possible_at(B, 6 * MINUTE + 20 * SECOND));
    // Black plays on: waived; White's next turn starts above zero, no new fall.
    let moves = [mv(W, 6 * MINUTE), mv(B, 6 * MINUTE + 10 * SECOND)];
    let st = clocks_adjusted(&tc, W, 0, &moves, &[], &given, 6 * MINUTE + 20 * SECOND);
    assert_eq!(st.flagged, None);
    assert_eq!(st.oversteps.len(), 1);
    assert!(!st.time_claim_possible_at(B, 6 * MINUTE + 30 * SECOND));
}

#[test]
fn fide_6_9_a_claim_is_possible_once_the_deadline_passes_unless_the_claimant_fell_first() {
    let tc = tc("corr 30s");
    // White is late (fell at 30.001 s) and moves at 35 s; Black, on move, claims nothing and
    // his own time runs out at 65.001 s.
    let st = clocks(&tc, W, 0, &[mv(W, 35_000)], &[], 40_000);
    assert!(st.time_claim_possible_at(B, 70_000));
    assert!(
        !st.time_claim_possible_at(W, 70_000),
        "White's fall came first"
    );
    // Once Black has played on, that fall is waived; White's next one is claimable when it
    // comes, and White never may.
    let st = clocks(&tc, W, 0, &[mv(W, 35_000), mv(B, 36_000)], &[], 40_000);
    assert_eq!(st.flagged, None);
    assert_eq!(st.deadline_ms, Some(66_001));
    assert!(!st.time_claim_possible_at(B, 66_000));
    assert!(st.time_claim_possible_at(B, 66_002));
    assert!(!st.time_claim_possible_at(W, 70_000));
}

#[test]
fn game_from_fen_may_start_with_black() {
    let tc = tc("1h");
    let state = clocks(&tc, B, 0, &[mv(W, 10), mv(B, MINUTE)], &[], MINUTE);
    // White's move out of turn is ignored; Black's clock ran from the start.
    assert_eq!(state.to_move, W);
    assert_eq!(state.moves_completed, [0, 1]);
    assert_eq!(left(&state, B), ms(59 * MINUTE));
}

#[test]
fn unordered_timestamps_are_clamped() {
    let tc = tc("1h");
    // Black's move claims to be before White's: it took no time.
    let moves = alternating(&[MINUTE, 10]);
    let state = clocks(&tc, W, 0, &moves, &[], MINUTE);
    assert_eq!(state.used_ms, [MINUTE, 0]);
    // A move after `now` has not happened yet.
    let early = clocks(&tc, W, 0, &moves, &[], MINUTE - 1);
    assert_eq!(early.moves_completed, [0, 0]);
    // Reversed stop: ignored.
    let reversed = [ClockStop::adjournment(MINUTE, 0)];
    assert_eq!(clocks(&tc, W, 0, &moves, &reversed, MINUTE), state);
}

#[test]
fn unlimited_never_flags() {
    let state = clocks(&TimeControl::Unlimited, W, 0, &[], &[], u64::MAX);
    assert_eq!(state.flagged, None);
    assert_eq!(state.deadline_ms, None);
    assert_eq!(state.used_ms, [u64::MAX, 0]);
}

#[test]
fn deadline_sorts_by_urgency() {
    let state = clocks(&tc("3d"), W, 0, &[], &[], DAY);
    assert_eq!(state.ms_to_deadline(DAY), Some(ms(2 * DAY) + 1));
    assert_eq!(state.ms_to_deadline(4 * DAY), Some(1 - ms(DAY)));
}

// Leave.

#[test]
fn iccf_leave_45_days_per_year() {
    let allowance = LeaveAllowance::default();
    assert_eq!(allowance.days_per_year, 45);
    let epoch = 1_000;
    let leave = |from_day: u64, to_day: u64| LeavePeriod {
        from_ms: epoch + from_day * DAY,
        to_ms: epoch + to_day * DAY,
    };
    let taken = [leave(10, 40)];
    assert_eq!(allowance.check(epoch, &taken, leave(100, 115)), Ok(()));
    let err = allowance.check(epoch, &taken, leave(100, 116)).unwrap_err();
    assert_eq!(
        err,
        LeaveError::ExceedsAllowance {
            year: 0,
            taken_ms: 30 * DAY,
            requested_ms: 16 * DAY,
            allowance_ms: 45 * DAY
        }
    );
    assert_eq!(
        err.to_string(),
        "leave of 16d exceeds the allowance of 45d in year 0 (30d already taken)"
    );
    // Overlapping leave is counted once.
    assert_eq!(allowance.check(epoch, &taken, leave(20, 55)), Ok(()));
    // A leave across the year boundary counts in each year for its part.
    assert_eq!(allowance.check(epoch, &taken, leave(360, 400)), Ok(()));
    assert_eq!(
        LeaveAllowance::taken_in_year(epoch, &[leave(360, 400)], 1),
        35 * DAY
    );
    assert!(matches!(
        allowance.check(epoch, &[], leave(0, 800)),
        Err(LeaveError::ExceedsAllowance { year: 0, .. })
    ));
    assert!(matches!(
        allowance.check(epoch, &[], leave(5, 5)),
        Err(LeaveError::Empty { .. })
    ));
    assert_eq!(
        allowance
            .check(
                0,
                &[],
                LeavePeriod {
                    from_ms: 0,
                    to_ms: u64::MAX
                }
            )
            .map_err(|e| matches!(e, LeaveError::ExceedsAllowance { year: 0, .. })),
        Err(true)
    );
}
