//! A draw claimed in a quickplay finish (FIDE 10.2, both texts; Appendix D) in the replay:
//! wire tags 25 (the claim) and 26 (the agreed arbiter's ruling).
//!
//! - The claim is judged at its evidence time, as a move is ([`Replay::counted_at`]): the
//!   claimant gains by an early claim (their clock stops then, and it must come "antes de que
//!   caiga su bandera"), so it counts no earlier than it can be shown to exist. A claim dated
//!   back to before the flag fell but shown only after it is a fact without effect, never an
//!   error: an honest claimant's receipt can be late. What only a dishonest or broken node
//!   signs (no arbiter, not on move, two minutes or more, a second claim while one is open)
//!   makes the record fail.
//! - The clocks stand still from the claim until the arbiter's first ruling on it (10.2:
//!   "requerirá la presencia del árbitro" and the clocks stop); a rejection (10.2c), or a
//!   postponement with extra time (10.2b), gives the opponent two minutes when the clocks
//!   restart. Both are computed from the record whenever the clocks are read, so late
//!   evidence of when the claim or the ruling counted moves them.
//! - Only [`Terms::arbiter`](crate::record::Terms::arbiter) rules, on a claim they had seen,
//!   once finally (10.2d). A draw on a postponed claim stands even after a flag fell and the
//!   game was ended on time (10.2b: "después de que una bandera haya caído").

use super::replay::Replay;
use super::state::Status;
use super::violation::RuleViolation as V;
use super::{RuleViolation, VerifyError};
use crate::clock::{ClockAdjustment, ClockStop};
use crate::outcome::Outcome;
use crate::record::event::{EventId, QuickplayRuling};
use crate::record::identity::PlayerId;
use crate::rules::Termination;
use crate::rules::quickplay::{self, EXTRA_TIME_MS, QuickplayRule};
use crate::types::Color;

type Rule<'a> = &'a dyn Fn(RuleViolation) -> VerifyError;

/// A 10.2 claim and the arbiter's decisions on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuickplayClaimRecord {
    pub by: Color,
    /// The claim (tag 25).
    pub event: EventId,
    /// When the claim counts (its evidence time): the clocks stop then.
    pub claimed_ms: u64,
    /// The claimant's time left at `claimed_ms`.
    pub remaining_ms: i64,
    /// The claimant's flag had fallen by `claimed_ms`: the claim came too late (10.2: "antes
    /// de que caiga su bandera") and has no effect.
    pub late: bool,
    /// The arbiter's rulings, in order: at most a postponement, then a final one.
    pub rulings: Vec<QuickplayDecision>,
}

/// One ruling of the arbiter (tag 26).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuickplayDecision {
    pub ruling: QuickplayRuling,
    pub by: PlayerId,
    /// The ruling event.
    pub event: EventId,
    /// When it counts: the clocks restart then.
    pub ruled_ms: u64,
}

impl QuickplayClaimRecord {
    /// The final decision (10.2a or 10.2c, or a draw after a postponement), if taken.
    pub fn decision(&self) -> Option<QuickplayRuling> {
        self.rulings.iter().map(|r| r.ruling).find(|r| r.is_final())
    }

    /// Whether the claim waits for the arbiter with the clocks stopped (no ruling yet).
    pub fn awaiting(&self) -> bool {
        !self.late && self.rulings.is_empty()
    }

    /// Whether the decision was postponed and not yet taken (10.2b).
    pub fn postponed(&self) -> bool {
        !self.late && !self.rulings.is_empty() && self.decision().is_none()
    }

    /// Whether the arbiter still has this claim to decide.
    pub fn open(&self) -> bool {
        self.awaiting() || self.postponed()
    }

    /// The clocks stand still from the claim until the first ruling (or from then on while
    /// there is none).
    fn stop(&self) -> Option<ClockStop> {
        if self.late {
            return None;
        }
        let until = self.rulings.first().map_or(u64::MAX, |r| r.ruled_ms);
        Some(ClockStop::adjournment(self.claimed_ms, until))
    }

    /// The opponent's two minutes: once per claim, with a postponement that grants them
    /// (10.2b) or a rejection (10.2c).
    fn extra_time(&self) -> Option<ClockAdjustment> {
        let r = self.rulings.iter().find(|r| {
            matches!(
                r.ruling,
                QuickplayRuling::Reject | QuickplayRuling::Postpone { extra_time: true }
            )
        })?;
        Some(ClockAdjustment {
            side: !self.by,
            at_ms: r.ruled_ms,
            delta_ms: EXTRA_TIME_MS as i64,
        })
    }
}

impl Replay {
    /// The claims' clock stops, for the clocks.
    pub(super) fn quickplay_stops(&self) -> impl Iterator<Item = ClockStop> + '_ {
        self.state
            .quickplay_claims
            .iter()
            .filter_map(QuickplayClaimRecord::stop)
    }

    /// The rules' corrections of the clocks: 9.5b's and the arbiter's two minutes (10.2).
    pub(super) fn all_adjustments(&self) -> Vec<ClockAdjustment> {
        let mut all = self.adjustments.clone();
        all.extend(
            self.state
                .quickplay_claims
                .iter()
                .filter_map(QuickplayClaimRecord::extra_time),
        );
        all
    }

    /// The claim that stopped the clocks and waits for the arbiter, if any.
    pub(super) fn awaiting_ruling(&self) -> Option<&QuickplayClaimRecord> {
        self.state.quickplay_claims.iter().find(|c| c.awaiting())
    }

    /// 10.2: no move while the game waits for the arbiter.
    pub(super) fn check_not_awaiting(&self, rule: Rule<'_>) -> Result<(), VerifyError> {
        if self.awaiting_ruling().is_some() {
            return Err(rule(QuickplayRule::AwaitingRuling.into()));
        }
        Ok(())
    }

    /// 10.2: the player to move `me` claims a draw (tag 25).
    pub(super) fn quickplay_claim(
        &mut self,
        me: Color,
        author: PlayerId,
        id: EventId,
        t: u64,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        if self.state.terms.arbiter.is_none() {
            return Err(rule(QuickplayRule::NoArbiter.into()));
        }
        match self.state.status {
            Status::Active | Status::Disputed => {}
            Status::Adjourned => return Err(rule(V::ClaimWhileAdjourned)),
            s => return Err(rule(V::NotLive { status: s })),
        }
        if self.state.position.turn() != me {
            return Err(rule(QuickplayRule::NotOnMove.into()));
        }
        self.check_turn(me, author, rule)?;
        if self
            .state
            .quickplay_claims
            .iter()
            .any(|c| c.by == me && c.open())
        {
            return Err(rule(QuickplayRule::ClaimOpen.into()));
        }
        // Counted as a move is: an arrival whose time late evidence may move.
        if self.evidence {
            self.arrivals.insert(id);
        }
        let at = self.counted_at(&id, t);
        let Some(clocks) = self.clocks_at(at) else {
            return Err(rule(V::NotLive {
                status: self.state.status,
            }));
        };
        let left = clocks.remaining_ms[me.index()];
        quickplay::judge_claim(
            self.edition(),
            &self.state.time_control,
            clocks.moves_completed[me.index()],
            left,
        )
        .map_err(|q| rule(q.into()))?;
        let late = left < 0 || clocks.standing_overstep(me).is_some();
        if late {
            self.state.ignored.push((
                id,
                "a quickplay-finish claim counted after the claimant's flag fell (10.2): no \
                 effect"
                    .into(),
            ));
        } else if self.check_draw_allowed(rule).is_ok() {
            // 9.1b (2009) / 9.1c (2005): a 10.2 claim is a draw offer too.
            self.state.draw_offer = Some(me);
        }
        self.state.quickplay_claims.push(QuickplayClaimRecord {
            by: me,
            event: id,
            claimed_ms: at,
            remaining_ms: left,
            late,
            rulings: Vec::new(),
        });
        Ok(())
    }

    /// Whether the ruling `ruling` on `claim` decides a game already over: a draw on a
    /// postponed claim after the game ended on a flag (10.2b).
    pub(super) fn quickplay_after_flag(&self, claim: &EventId, ruling: QuickplayRuling) -> bool {
        ruling == QuickplayRuling::Draw
            && self.state.status == Status::Finished
            && matches!(
                self.state.termination,
                Some(Termination::TimeForfeit | Termination::TimeForfeitInsufficientMaterial)
            )
            && self
                .state
                .quickplay_claims
                .iter()
                .any(|c| c.event == *claim && c.postponed())
    }

    /// 10.2a–d: the agreed arbiter `author` rules on `claim` (tag 26).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn quickplay_ruling(
        &mut self,
        claim: &EventId,
        ruling: QuickplayRuling,
        author: PlayerId,
        id: EventId,
        t: u64,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        if self.state.terms.arbiter != Some(author) {
            return Err(rule(QuickplayRule::NotTheArbiter.into()));
        }
        let Some(slot) = self
            .state
            .quickplay_claims
            .iter()
            .position(|c| c.event == *claim)
        else {
            return Err(rule(QuickplayRule::NoSuchClaim.into()));
        };
        // The arbiter decides a claim they received: the ruling follows it in their log.
        let claimed_at = self.position_in_timeline.get(claim).copied();
        let seen = self.horizon.get(&author).copied();
        if seen.is_none() || seen < claimed_at {
            return Err(rule(QuickplayRule::RulingUnseen.into()));
        }
        let record = &self.state.quickplay_claims[slot];
        if record.late {
            // The claim counted after the flag fell (evidence the arbiter may not have had).
            self.state.ignored.push((
                id,
                "a ruling on a quickplay-finish claim that came after the claimant's flag fell \
                 (10.2)"
                    .into(),
            ));
            return Ok(());
        }
        if record.decision().is_some() {
            return Err(rule(QuickplayRule::AlreadyRuled.into()));
        }
        if record.postponed() && matches!(ruling, QuickplayRuling::Postpone { .. }) {
            return Err(rule(QuickplayRule::AlreadyPostponed.into()));
        }
        if self.evidence {
            self.arrivals.insert(id);
        }
        let ruled_ms = self.counted_at(&id, t).max(record.claimed_ms);
        self.state.quickplay_claims[slot]
            .rulings
            .push(QuickplayDecision {
                ruling,
                by: author,
                event: id,
                ruled_ms,
            });
        if ruling == QuickplayRuling::Draw {
            // 10.2a, or 10.2b's later decision, which replaces a result on time.
            self.end(Outcome::Draw, Termination::QuickplayDraw);
        }
        Ok(())
    }
}
