//! Both clocks at a given moment ([`clocks`]), from the start time, the moves' timestamps and
//! the periods when clocks were stopped; the exact millisecond each flag fell (FIDE 6.1), and
//! whether that fall still stands ([`Overstep`]).

use crate::types::Color;

use super::time_control::TimeControl;
use super::{Millis, to_i64};

/// When a move was made and when it reached the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveTiming {
    /// Who made the move.
    pub side: Color,
    /// When the mover completed it (stopped their clock, FIDE 6.7a).
    pub made_at_ms: u64,
    /// When it reached the opponent (the opponent's signed receipt), if known. In
    /// correspondence the opponent's clock starts then; nobody's clock runs while the move is
    /// in transit. `None`: the opponent's clock starts at `made_at_ms` (over the board).
    pub received_at_ms: Option<u64>,
}

/// A half-open interval `[from_ms, to_ms)` during which a clock is stopped. Empty if
/// `to_ms <= from_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockStop {
    /// First stopped millisecond.
    pub from_ms: u64,
    /// First millisecond running again.
    pub to_ms: u64,
    /// `Some(side)`: only that player's clock (leave). `None`: both clocks (adjournment: the
    /// sealed move stops the clocks, FIDE A1; they restart at resumption, A5/A9; also an
    /// arbiter's interruption, 6.12).
    pub side: Option<Color>,
}

impl ClockStop {
    /// One player's leave: only `side`'s clock stops.
    pub fn leave(side: Color, from_ms: u64, to_ms: u64) -> Self {
        ClockStop {
            from_ms,
            to_ms,
            side: Some(side),
        }
    }

    /// An adjournment (FIDE Appendix A): both clocks stop from the sealing (A1) until the
    /// resumption (A5, A9).
    pub fn adjournment(sealed_at_ms: u64, resumed_at_ms: u64) -> Self {
        ClockStop {
            from_ms: sealed_at_ms,
            to_ms: resumed_at_ms,
            side: None,
        }
    }
}

/// One flag fall: a turn of [`side`](Self::side) during which their remaining time was
/// negative (FIDE 6.1: the flag falls when the allotted time has expired).
///
/// **Each overstep is its own flag fall.** A player who overstepped, completed the move late
/// and overstepped again on a later turn has two oversteps; so has a player whose time stays
/// negative over the board (the next turn starts with the time already negative).
///
/// An overstep *stands* until the opponent of `side` completes a move after it
/// ([`waived_at_ms`](Self::waived_at_ms)): 6.8 counts a flag as fallen once a player validly
/// claims it, and a player who plays on instead waives the fall that was on the board then
/// (as a draw claim is forfeited by moving, 9.4) — only that one: a later overstep is a new
/// fall, claimable in its turn. Until the opponent moves the fall stands, even when the late
/// move brought the time back above zero (the next period's time, 6.3; the per-move reset of
/// correspondence). A claim of a win on time (6.9) is correct while the opponent has a
/// standing overstep, and the first standing fall decides when both have one (6.11 of 2009,
/// 6.12 of 2005: with signed clocks the order is always established), see
/// [`crate::rules::flag::judge_time_claim`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Overstep {
    /// Whose flag fell.
    pub side: Color,
    /// The first millisecond of the turn at which `side`'s time was negative: the crossing
    /// moment (a move with exactly 0 ms left is in time, one a millisecond later is not), or
    /// the turn's start if the time was already negative then.
    pub at_ms: u64,
    /// When the opponent of `side` completed a move after the fall (waiving it, 6.8); `None`
    /// while it stands. Never after [`ClockState::as_of_ms`].
    pub waived_at_ms: Option<u64>,
}

impl Overstep {
    /// Whether the fall still stands (nobody waived it by playing on).
    pub fn stands(&self) -> bool {
        self.waived_at_ms.is_none()
    }
}

/// Both clocks at one moment ([`ClockState::as_of_ms`]), as computed by [`clocks`].
// Serde: kept in a node's stored game summaries (never on the wire).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ClockState {
    /// Time left, indexed by [`Color::index`] (white, black). Negative: that player has
    /// overstepped (their flag has fallen). For the player not to move, the time they will
    /// have when their turn starts. `i64::MAX` under [`TimeControl::Unlimited`].
    pub remaining_ms: [i64; 2],
    /// The player to move.
    pub to_move: Color,
    /// The player whose clock is ticking at `as_of_ms`: `None` before the start, while a move
    /// is in transit (made, not yet received), or while the clock of the player to move is
    /// stopped (leave, adjournment).
    pub running: Option<Color>,
    /// The player whose flag fell first among the falls still standing at `as_of_ms` (FIDE
    /// 6.1, 6.8; [`Overstep`]): the one a time claim (6.9) is decided by, as 6.11 (2009) /
    /// 6.12 (2005) decide by the first flag. It stays set after the late move, even if the
    /// move's increment or the next period's time brought the time back above zero, until
    /// the opponent plays on; a fall the opponent waived so is no longer here (it is in
    /// [`oversteps`](Self::oversteps)).
    pub flagged: Option<Color>,
    /// When [`flagged`](Self::flagged)'s standing fall happened ([`Overstep::at_ms`]): a move
    /// with exactly 0 ms left is in time, one a millisecond later is not.
    pub flag_at_ms: Option<u64>,
    /// Every flag fall up to `as_of_ms`, standing or waived, in time order.
    pub oversteps: Vec<Overstep>,
    /// When the player to move oversteps if they do not move: in the past if they already
    /// have, accounting for all known stops (including scheduled leave). `None` under
    /// [`TimeControl::Unlimited`]. Sort games by it for urgency.
    pub deadline_ms: Option<u64>,
    /// Time charged to each player so far (delay excluded; increments not subtracted): the
    /// "time used by each player" of FIDE A2/A5.
    pub used_ms: [Millis; 2],
    /// Moves completed by each player.
    pub moves_completed: [u32; 2],
    /// The moment this state describes.
    pub as_of_ms: u64,
}

impl ClockState {
    /// Milliseconds until [`deadline_ms`](Self::deadline_ms) as seen at `now_ms` (negative:
    /// overdue); `None` without a deadline. Smaller is more urgent.
    pub fn ms_to_deadline(&self, now_ms: u64) -> Option<i64> {
        self.deadline_ms
            .map(|deadline| signed_difference(deadline, now_ms))
    }

    /// The earliest fall of `side` still standing at `as_of_ms` ([`Overstep::at_ms`]), if
    /// any: one the opponent may claim (6.9) because they have not played on since (6.8).
    pub fn standing_overstep(&self, side: Color) -> Option<u64> {
        self.oversteps
            .iter()
            .find(|o| o.side == side && o.stands())
            .map(|o| o.at_ms)
    }

    /// Whether `claimant` may claim a win on time (FIDE 6.9; the outcome, including the draw
    /// when the claimant cannot mate, is [`crate::rules::flag_fall`]) in this state, computed
    /// as of the claim's time: the first standing fall is the opponent's
    /// ([`flagged`](Self::flagged)). Whoever is to move: under `40/2h` a move 40 completed
    /// late may be claimed until the claimant moves (6.8). What
    /// [`judge_time_claim`](crate::rules::flag::judge_time_claim) accepts.
    pub fn can_claim_time_forfeit(&self, claimant: Color) -> bool {
        self.flagged == Some(!claimant)
    }

    /// Whether `side` is to move with negative remaining time. The whole time rule of
    /// protocol version 1 (a claim against `side` was correct exactly then); under the
    /// current rule it is one case of a standing fall (it stands: the opponent has not moved
    /// since), which decides unless the claimant's own fell earlier (6.11).
    pub fn out_of_time_on_move(&self, side: Color) -> bool {
        self.to_move == side && self.remaining_ms[side.index()] < 0
    }

    /// Whether `claimant` could claim a win on time (6.9) at `now_ms`, from this state
    /// computed earlier (the last event's): [`Self::can_claim_time_forfeit`] already, or no
    /// fall stands and the opponent is to move and their deadline (which counts every known
    /// stop: leave, adjournment) has passed since. Nothing else can change in between:
    /// without a move nobody plays on (6.8), so the only new fall is the opponent's. What
    /// `sobre games` flags as claimable; the claim itself is judged by
    /// [`crate::rules::flag::judge_time_claim`] on the clocks as of the claim.
    pub fn time_claim_possible_at(&self, claimant: Color, now_ms: u64) -> bool {
        self.can_claim_time_forfeit(claimant)
            || (self.flagged.is_none()
                && self.to_move == !claimant
                && self.deadline_ms.is_some_and(|deadline| now_ms > deadline))
    }
}

/// Both clocks as of `now_ms`.
///
/// The first player to move is `first_to_move` (White in a normal game, FIDE 6.5; a game from
/// a FEN may start with Black); their clock starts at `start_ms`. Each move stops the mover's
/// clock and adds the increment or the next period's time (FIDE 6.2a/6.2b); the opponent's
/// clock starts when the move reached them ([`MoveTiming::received_at_ms`]) or, if unknown,
/// when it was made. With a delay (6.2b) the first `delay` of each move is not charged.
/// During a [`ClockStop`] the affected clocks do not run. Each turn during which the mover's
/// time is negative is a flag fall ([`Overstep`], FIDE 6.1), at the first millisecond of the
/// turn their time is negative; it stands until the opponent completes a move after it (6.8).
/// [`ClockState::flagged`] is the first fall still standing (6.11).
///
/// Inputs are taken as given, never rejected; to stay deterministic on inconsistent data:
/// - moves are taken in slice order and must alternate from `first_to_move`; a move by the
///   player not to move is ignored;
/// - a move's time is clamped to no earlier than the start of the mover's turn (a move "made"
///   before it was received takes no time), a receipt to no earlier than the move;
/// - a move whose (clamped) time is after `now_ms` has not happened yet, and nor have the
///   moves after it: the state describes the game as seen at `now_ms`;
/// - stops with `to_ms <= from_ms` are ignored; overlapping stops are merged;
/// - all arithmetic saturates (times near `u64::MAX` do not overflow).
///
/// # Examples
/// ```
/// use sobre_core::clock::{clocks, MoveTiming, TimeControl, DAY, HOUR};
/// use sobre_core::Color;
/// let tc: TimeControl = "3d".parse()?;
/// // White moves after 1 day; the move reaches Black 2 hours later.
/// let moves = [MoveTiming { side: Color::White, made_at_ms: DAY, received_at_ms: Some(DAY + 2 * HOUR) }];
/// let state = clocks(&tc, Color::White, 0, &moves, &[], 2 * DAY);
/// assert_eq!(state.to_move, Color::Black);
/// assert_eq!(state.remaining_ms[Color::Black.index()], (3 * DAY - (DAY - 2 * HOUR)) as i64);
/// assert_eq!(state.deadline_ms, Some(4 * DAY + 2 * HOUR + 1));
/// # Ok::<(), sobre_core::clock::TimeControlError>(())
/// ```
pub fn clocks(
    tc: &TimeControl,
    first_to_move: Color,
    start_ms: u64,
    moves: &[MoveTiming],
    stops: &[ClockStop],
    now_ms: u64,
) -> ClockState {
    clocks_adjusted(tc, first_to_move, start_ms, moves, stops, &[], now_ms)
}

/// A correction of one player's remaining time at one moment, made by the rules rather than
/// by the clock running: the three minutes an incorrect draw claim gives the opponent (9.5b),
/// or what the 2005 text takes from the claimant. A correction never lifts a fallen flag
/// (6.8: it stays fallen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockAdjustment {
    pub side: Color,
    pub at_ms: u64,
    /// Added to the remaining time (negative: taken away).
    pub delta_ms: i64,
}

/// [`clocks`] with corrections applied at their moments (in time order, each before the
/// clock ticks on past it).
pub fn clocks_adjusted(
    tc: &TimeControl,
    first_to_move: Color,
    start_ms: u64,
    moves: &[MoveTiming],
    stops: &[ClockStop],
    adjustments: &[ClockAdjustment],
    now_ms: u64,
) -> ClockState {
    let mut adjustments = adjustments.to_vec();
    adjustments.sort_by_key(|a| a.at_ms);
    let mut pending = adjustments.as_slice();
    let stopped = [
        stopped_intervals(stops, Color::White),
        stopped_intervals(stops, Color::Black),
    ];
    let mut sim = Simulation::new(tc);
    let mut to_move = first_to_move;
    let mut turn_start = start_ms;
    for mv in moves {
        if mv.side != to_move {
            continue;
        }
        let made = mv.made_at_ms.max(turn_start);
        if made > now_ms {
            break;
        }
        sim.begin_turn(to_move, turn_start);
        sim.charge_adjusted(
            to_move,
            &stopped[to_move.index()],
            turn_start,
            made,
            &mut pending,
        );
        sim.complete_move(to_move, made);
        to_move = !to_move;
        turn_start = mv
            .received_at_ms
            .map_or(made, |received| received.max(made));
    }

    let side = to_move.index();
    let at_turn_start = sim.remaining[side];
    // While the last move is in transit the turn has not started, nor has any fall in it.
    if turn_start <= now_ms {
        sim.begin_turn(to_move, turn_start);
    }
    sim.charge_adjusted(
        to_move,
        &stopped[side],
        turn_start,
        now_ms.max(turn_start),
        &mut pending,
    );
    // A correction made at this very moment is part of the state as of it (the arbiter's
    // two minutes, 10.2c, shown with the ruling that gives them).
    sim.apply_due(&mut pending, now_ms.max(turn_start));

    let running = (now_ms >= turn_start && !is_stopped(&stopped[side], now_ms)).then_some(to_move);
    let deadline_ms = match tc {
        TimeControl::Unlimited => None,
        _ => Some(match u64::try_from(at_turn_start) {
            Err(_) => turn_start,
            Ok(left) => wall_after_ticking(
                &stopped[side],
                turn_start,
                sim.delay.saturating_add(left).saturating_add(1),
            ),
        }),
    };
    let first_standing = sim.oversteps.iter().find(|o| o.stands()).copied();
    ClockState {
        remaining_ms: sim.remaining,
        to_move,
        running,
        flagged: first_standing.map(|o| o.side),
        flag_at_ms: first_standing.map(|o| o.at_ms),
        oversteps: sim.oversteps,
        deadline_ms,
        used_ms: sim.used,
        moves_completed: sim.completed,
        as_of_ms: now_ms,
    }
}

/// Time charged to each player (white, black) as of `now_ms`: [`ClockState::used_ms`] of
/// [`clocks`] with the same arguments, e.g. for the envelope of an adjourned game (FIDE A2.3).
///
/// # Examples
/// ```
/// use sobre_core::clock::{time_used, MoveTiming, TimeControl, MINUTE};
/// use sobre_core::Color;
/// let tc: TimeControl = "90m".parse()?;
/// let moves = [MoveTiming { side: Color::White, made_at_ms: 5 * MINUTE, received_at_ms: None }];
/// assert_eq!(time_used(&tc, Color::White, 0, &moves, &[], 7 * MINUTE), [5 * MINUTE, 2 * MINUTE]);
/// # Ok::<(), sobre_core::clock::TimeControlError>(())
/// ```
pub fn time_used(
    tc: &TimeControl,
    first_to_move: Color,
    start_ms: u64,
    moves: &[MoveTiming],
    stops: &[ClockStop],
    now_ms: u64,
) -> [Millis; 2] {
    clocks(tc, first_to_move, start_ms, moves, stops, now_ms).used_ms
}

/// The running totals while replaying a game's timestamps.
struct Simulation<'a> {
    tc: &'a TimeControl,
    delay: Millis,
    remaining: [i64; 2],
    /// The correspondence per-move reserve built by increments.
    reserve: [i64; 2],
    completed: [u32; 2],
    used: [Millis; 2],
    /// Every flag fall so far, in time order.
    oversteps: Vec<Overstep>,
    /// The turn being charged (whose it is), with whether it already has its fall:
    /// `None` between turns.
    in_turn: Option<(Color, bool)>,
}

impl<'a> Simulation<'a> {
    fn new(tc: &'a TimeControl) -> Self {
        let initial = tc.initial();
        Simulation {
            tc,
            delay: tc.delay(),
            remaining: [initial; 2],
            reserve: [0; 2],
            completed: [0; 2],
            used: [0; 2],
            oversteps: Vec::new(),
            in_turn: None,
        }
    }

    /// `side`'s turn starts at `at`: a time already negative then is a fall at once.
    fn begin_turn(&mut self, side: Color, at: u64) {
        self.in_turn = Some((side, false));
        self.note_negative(side, at);
    }

    /// Records a fall of `side` at `at` if it is their turn, their time is negative and the
    /// turn has no fall yet (one per turn: it is the same fall until they move).
    fn note_negative(&mut self, side: Color, at: u64) {
        if self.remaining[side.index()] < 0 && self.in_turn == Some((side, false)) {
            self.in_turn = Some((side, true));
            self.oversteps.push(Overstep {
                side,
                at_ms: at,
                waived_at_ms: None,
            });
        }
    }

    /// Charges `side` for their clock running over `[from, to)` minus their stops.
    fn charge(&mut self, side: Color, stopped: &[(u64, u64)], from: u64, to: u64) {
        let s = side.index();
        let charged = ticking(stopped, from, to).saturating_sub(self.delay);
        self.used[s] = self.used[s].saturating_add(charged);
        if matches!(self.tc, TimeControl::Unlimited) {
            return;
        }
        let left = self.remaining[s];
        self.remaining[s] = left.saturating_sub(to_i64(charged));
        if let Ok(left_ms) = u64::try_from(left)
            && charged > left_ms
        {
            // FIDE 6.2b: the delay runs first, then the main time.
            let ticks = self.delay.saturating_add(left_ms).saturating_add(1);
            self.note_negative(side, wall_after_ticking(stopped, from, ticks));
        }
    }

    /// [`Simulation::charge`] with the corrections due before `to` applied at their moments.
    fn charge_adjusted(
        &mut self,
        side: Color,
        stopped: &[(u64, u64)],
        from: u64,
        to: u64,
        pending: &mut &[ClockAdjustment],
    ) {
        let mut at = from;
        while let Some((first, rest)) = pending.split_first() {
            if first.at_ms >= to {
                break;
            }
            let when = first.at_ms.max(at);
            self.charge(side, stopped, at, when);
            at = when;
            let s = first.side.index();
            self.remaining[s] = self.remaining[s].saturating_add(first.delta_ms);
            // A correction that leaves the mover's time negative is a fall then; one on the
            // other side's clock shows at the start of their turn. A correction never lifts a
            // fall (6.8): the fall is an event, not the sign of the time.
            self.note_negative(first.side, when);
            *pending = rest;
        }
        self.charge(side, stopped, at, to);
    }

    /// Applies the corrections due at `at` (after the clock was charged up to it).
    fn apply_due(&mut self, pending: &mut &[ClockAdjustment], at: u64) {
        while let Some((first, rest)) = pending.split_first() {
            if first.at_ms > at {
                break;
            }
            let s = first.side.index();
            self.remaining[s] = self.remaining[s].saturating_add(first.delta_ms);
            self.note_negative(first.side, at);
            *pending = rest;
        }
    }

    /// `side` completed a move at `made`: increment, next period, or the per-move reset; the
    /// opponent's standing falls are waived (6.8: `side` played on instead of claiming).
    fn complete_move(&mut self, side: Color, made: u64) {
        for o in &mut self.oversteps {
            if o.side == !side && o.waived_at_ms.is_none() {
                o.waived_at_ms = Some(made);
            }
        }
        self.in_turn = None;
        let s = side.index();
        self.completed[s] = self.completed[s].saturating_add(1);
        let n = self.completed[s];
        match self.tc {
            TimeControl::Unlimited => {}
            TimeControl::CorrespondencePerMove {
                per_move,
                increment,
            } => {
                // Unused per-move time is lost; only the reserve is carried forward, less
                // whatever part of it this move used.
                let reserve = self.remaining[s].clamp(0, self.reserve[s]);
                self.reserve[s] = reserve.saturating_add(to_i64(*increment));
                self.remaining[s] = to_i64(*per_move).saturating_add(self.reserve[s]);
            }
            TimeControl::CorrespondenceMoves {
                moves,
                period,
                increment,
            } => {
                let mut added = *increment;
                if n.is_multiple_of(moves.get()) {
                    added = added.saturating_add(*period);
                }
                self.remaining[s] = self.remaining[s].saturating_add(to_i64(added));
            }
            TimeControl::Classical(c) => {
                self.remaining[s] = self.remaining[s].saturating_add(to_i64(c.added_after_move(n)));
            }
        }
    }
}

fn signed_difference(a: u64, b: u64) -> i64 {
    if a >= b {
        to_i64(a - b)
    } else {
        to_i64(b - a).saturating_neg()
    }
}

/// The non-empty stops affecting `side`, sorted and merged into disjoint intervals.
fn stopped_intervals(stops: &[ClockStop], side: Color) -> Vec<(u64, u64)> {
    merge(
        stops
            .iter()
            .filter(|stop| stop.side.is_none_or(|s| s == side))
            .map(|stop| (stop.from_ms, stop.to_ms)),
    )
}

/// Sorts half-open intervals, drops empty ones and merges overlapping or touching ones.
pub(super) fn merge(intervals: impl Iterator<Item = (u64, u64)>) -> Vec<(u64, u64)> {
    let mut list: Vec<(u64, u64)> = intervals.filter(|(lo, hi)| hi > lo).collect();
    list.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::with_capacity(list.len());
    for (lo, hi) in list {
        match merged.last_mut() {
            Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    merged
}

/// Milliseconds of `[from, to)` covered by the disjoint sorted `intervals`.
pub(super) fn overlap(intervals: &[(u64, u64)], from: u64, to: u64) -> u64 {
    let first = intervals.partition_point(|&(_, hi)| hi <= from);
    intervals[first..]
        .iter()
        .take_while(|&&(lo, _)| lo < to)
        .map(|&(lo, hi)| hi.min(to).saturating_sub(lo.max(from)))
        .fold(0u64, u64::saturating_add)
}

/// Milliseconds of `[from, to)` during which a clock with these stops runs.
fn ticking(stopped: &[(u64, u64)], from: u64, to: u64) -> u64 {
    to.saturating_sub(from)
        .saturating_sub(overlap(stopped, from, to))
}

/// The first instant `t ≥ from` with `ticking(stopped, from, t) >= ticks`.
fn wall_after_ticking(stopped: &[(u64, u64)], from: u64, ticks: u64) -> u64 {
    if ticks == 0 {
        return from;
    }
    let mut at = from;
    let mut needed = ticks;
    let first = stopped.partition_point(|&(_, hi)| hi <= from);
    for &(lo, hi) in &stopped[first..] {
        if lo > at {
            let gap = lo - at;
            if needed <= gap {
                return at + needed;
            }
            needed -= gap;
        }
        at = at.max(hi);
    }
    at.saturating_add(needed)
}

fn is_stopped(stopped: &[(u64, u64)], at: u64) -> bool {
    let i = stopped.partition_point(|&(_, hi)| hi <= at);
    stopped.get(i).is_some_and(|&(lo, _)| lo <= at)
}
