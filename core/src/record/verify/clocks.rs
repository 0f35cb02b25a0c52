//! The clocks in the replay: the move timings and stops the record gives (evidence of time,
//! adjournments, leave in force), both clocks at a moment, and the output's view of that
//! evidence. Separate from the claims: the clocks are read for every state, claims are rare.

use super::replay::Replay;
use super::state::GameState;
use crate::clock::{self, ClockState, ClockStop, LeavePeriod, MoveTiming};
use crate::position::Position;
use crate::record::time::MAX_CLOCK_SKEW_MS;
use crate::rules::adjournment;
use crate::types::Color;

impl Replay {
    fn clock_inputs(&self, upto_ms: u64) -> (Vec<MoveTiming>, Vec<ClockStop>) {
        let mut moves = self
            .state
            .moves
            .iter()
            .map(|m| {
                if self.agreed {
                    // Protocol version 3 (docs/time.md): made at its evidence time, and
                    // reaching the opponent within the transit allowance (or at the
                    // timekeeper's receipt).
                    MoveTiming {
                        side: m.by,
                        made_at_ms: self.made_at(&m.event, m.time_ms),
                        received_at_ms: Some(self.reached(&m.event, m.time_ms)),
                    }
                } else if self.evidence {
                    // The mover pays for transit: the move is made, and reaches the
                    // opponent, when it was first countersigned (docs/time.md).
                    let at = self.counted_at(&m.event, m.time_ms);
                    MoveTiming {
                        side: m.by,
                        made_at_ms: at,
                        received_at_ms: Some(at),
                    }
                } else {
                    MoveTiming {
                        side: m.by,
                        made_at_ms: m.time_ms,
                        received_at_ms: m.received_ms,
                    }
                }
            })
            .collect();
        // Appendix A: sealed moves' timings and the adjournments' stops (A1, A5, A9); they
        // override the evidence timing above for moves that came out of an envelope.
        let mut stops: Vec<ClockStop> =
            adjournment::clock_inputs(&self.state.adjournments, &mut moves, upto_ms);
        stops.extend(
            self.state
                .leave
                .iter()
                .enumerate()
                .map(|(i, (c, p))| self.leave_in_force(i, *p).stop_for(*c)),
        );
        // 10.2: a quickplay-finish claim stops both clocks until the arbiter rules.
        stops.extend(self.quickplay_stops());
        (moves, stops)
    }

    pub(super) fn clocks_at(&self, t: u64) -> Option<ClockState> {
        let start = self.start_ms()?;
        let first = self
            .state
            .start
            .as_ref()
            .map_or(Color::White, Position::turn);
        let (moves, stops) = self.clock_inputs(t);
        Some(clock::clocks_adjusted(
            &self.state.time_control,
            first,
            start,
            &moves,
            &stops,
            &self.all_adjustments(),
            t,
        ))
    }

    /// The output's view of the evidence: each move's first countersignature, and the leave
    /// refused because it was shown to exist only after its start ([`Replay::leave_refusal`]).
    pub(super) fn annotate(&self, state: &mut GameState) {
        if !self.evidence {
            return;
        }
        if self.agreed {
            // Late evidence (a receipt) may move the start: the state shows the one in force.
            state.started_ms = self.start_ms().or(state.started_ms);
        }
        for m in &mut state.moves {
            m.countersigned_ms = if self.agreed && !self.state.terms.timekeepers.is_empty() {
                self.stamped.get(&m.event).copied()
            } else {
                self.countersigned.get(&m.event).copied()
            };
        }
        let mut kept = Vec::with_capacity(state.leave.len());
        for (i, &(side, period)) in state.leave.iter().enumerate() {
            let period = self.leave_in_force(i, period);
            if period.to_ms > period.from_ms {
                kept.push((side, period));
            } else if let Some(&(id, _)) = self.leave_events.get(i) {
                state.ignored.push((
                    id,
                    "leave refused: it was countersigned only after its end".to_owned(),
                ));
            }
        }
        state.leave = kept;
    }

    /// Under protocol version 2, the part of the leave at `i` of `state.leave` in force: a new
    /// leave may not stop time before it was signed (beyond the skew), and "signed" is bounded
    /// by the evidence — a leave back-dated together with its signature starts no earlier than
    /// its first countersignature (less the skew). Judged on the evidence known when asked
    /// (evidence arrives late, which is why it is not decided once, when the leave is
    /// applied); a leave that reached the opponent late is shortened, not refused.
    fn leave_in_force(&self, i: usize, period: LeavePeriod) -> LeavePeriod {
        let Some(&(id, true)) = self.leave_events.get(i).filter(|_| self.evidence) else {
            return period;
        };
        let signed = self.times.get(&id).copied().unwrap_or(0);
        let earliest = self
            .counted_at(&id, signed)
            .saturating_sub(MAX_CLOCK_SKEW_MS);
        LeavePeriod {
            from_ms: period.from_ms.max(earliest),
            to_ms: period.to_ms,
        }
    }

    pub(super) fn finish(&mut self, now_ms: Option<u64>) {
        let at = now_ms.unwrap_or(self.last_time);
        self.state.clocks = self.clocks_at(at);
        if self.evidence {
            let mut state = self.state.clone();
            self.annotate(&mut state);
            self.state = state;
        }
    }
}
