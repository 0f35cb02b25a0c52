//! Claims in the replay: draws by repetition and by the 50-move rule (9.2, 9.3), with the
//! penalty of an incorrect one (9.5b); dead position; time (6.9, judged on the evidence of
//! time under protocol version 2); lateness at resumption (A10, in `adjourned.rs`).

use super::replay::Replay;
use super::state::{ClaimRecord, Status};
use super::violation::RuleViolation as V;
use super::{Judgement, RuleViolation, VerifyError};
use crate::clock::ClockAdjustment;
use crate::outcome::Outcome;
use crate::position::Position;
use crate::record::event::{ClaimReason, EventId, WireMove};
use crate::record::identity::PlayerId;
use crate::rules::{Edition, claims, repetition};
use crate::rules::{Termination, flag, flag_fall};
use crate::types::Color;

impl Replay {
    /// A claim signed by `me`, judged under the game's text of the Laws.
    ///
    /// 9.4 (the right to claim a draw under 9.2 / 9.3 is lost "on that move") as far as a
    /// signed record can express it, the same under both texts: 2005 loses it by making a
    /// move without claiming, 2009 already by touching a piece (4.3). A signed record has no
    /// touched piece and no move made before it is signed, so the claim comes with the
    /// written move (`intended`, 9.2a / 9.3a) or instead of it; one signed after the
    /// claimant's own move is not by the player to move, and refused.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn claim(
        &mut self,
        reason: ClaimReason,
        intended: Option<WireMove>,
        me: Color,
        id: EventId,
        t: u64,
        index: usize,
        author: PlayerId,
        rule: &dyn Fn(RuleViolation) -> VerifyError,
    ) -> Result<(), VerifyError> {
        let pos = self.state.position.clone();
        let intended_move = match intended {
            None => None,
            Some(w) => Some(
                w.to_move(&pos)
                    .ok_or_else(|| rule(V::IntendedMoveIllegal))?,
            ),
        };
        // Under protocol version 2 a claim that gains by being late is judged no later than
        // its first countersignature (docs/time.md).
        let at = match reason {
            ClaimReason::Time | ClaimReason::Lateness => {
                if self.evidence {
                    // Every timed claim, not only the first, is judged again when late
                    // evidence arrives (the latest one bounds what may change).
                    self.timed_claim = Some(index);
                }
                self.judged_at(&id, t)
            }
            _ => t,
        };
        let (correct, judgement, ending) = match reason {
            ClaimReason::Threefold | ClaimReason::FiftyMoves => {
                // 9.2 / 9.3: only the player to move claims.
                if pos.turn() != me {
                    return Err(rule(V::ClaimNotOnMove));
                }
                if self.state.status == Status::Adjourned {
                    return Err(rule(V::ClaimWhileAdjourned));
                }
                // 9.2: the game's text says which positions are the same (2005 and 2009
                // differ on castling rights that cannot be used at the moment).
                // A record signed before terms named a text (protocol versions 1 and 2)
                // keeps the identity it was signed under: castling rights, usable or not, as
                // 2005 reads them (archives keep their meaning).
                let edition = if self.agreed {
                    self.edition()
                } else {
                    Edition::Fide2005
                };
                let start = self.state.start.clone().unwrap_or_default();
                let keys = repetition::repetition_keys(
                    edition,
                    &start,
                    self.state.moves.iter().map(|m| m.mv),
                    &self.keys,
                );
                match claims::judge_draw_claim(edition, reason, &pos, &keys, intended_move) {
                    Ok(ground) => (
                        true,
                        ground.into(),
                        Some((Outcome::Draw, ground.termination())),
                    ),
                    Err(why) => (false, why.into(), None),
                }
            }
            ClaimReason::Time => self.judge_time(me, at, &pos),
            ClaimReason::DeadPosition => match claims::judge_dead_position(&pos) {
                Ok(ground) => (
                    true,
                    ground.into(),
                    Some((Outcome::Draw, ground.termination())),
                ),
                Err(why) => (false, why.into(), None),
            },
            ClaimReason::Lateness => self.judge_lateness(me, at),
        };
        if self.evidence && !correct && claims::claim_is_draw_offer(reason) {
            // 9.5b: an incorrect 9.2/9.3 claim gives the opponent time (and, in 2005, takes
            // some from the claimant); 9.1b/9.1c: it stands as the claimant's draw offer.
            let left = self.clocks_at(at).map_or(0, |c| c.remaining_ms[me.index()]);
            let (bonus, taken) = claims::incorrect_claim_penalty(self.edition(), left);
            self.adjustments.push(ClockAdjustment {
                side: !me,
                at_ms: at,
                delta_ms: i64::try_from(bonus).unwrap_or(i64::MAX),
            });
            if taken > 0 {
                self.adjustments.push(ClockAdjustment {
                    side: me,
                    at_ms: at,
                    delta_ms: -i64::try_from(taken).unwrap_or(i64::MAX),
                });
            }
            self.state.draw_offer = Some(me);
        }
        self.state.claims.push(ClaimRecord {
            by: me,
            reason,
            intended: intended_move,
            correct,
            judgement,
            event: id,
        });
        match ending {
            Some((o, term)) => self.end(o, term),
            None => {
                // 9.5b: after an incorrect claim with an announced move, that move is made.
                if let Some(m) = intended_move {
                    // But not around a closed envelope (A7): a time, dead-position or
                    // lateness claim is possible while adjourned, its move is not.
                    if self.state.status == Status::Adjourned {
                        return Err(rule(V::OpenSealedMoveFirst));
                    }
                    self.check_turn(me, author, rule)?;
                    self.play(m, me, id, t, index, false);
                }
            }
        }
        Ok(())
    }

    /// A claim of a win on time by `me`, judged at `at` (6.9 with 6.8 and 6.11, see
    /// [`flag::judge_time_claim`]: on the clocks as of `at`, which count the moves counted by
    /// then, so they know whose falls were waived by playing on). Under protocol version 2, a
    /// move by the flagged side counted after the claim (a back-dated move delivered late) is
    /// kept as evidence only. Under protocol version 1 the opponent had to be on move with no
    /// time left ([`crate::clock::ClockState::out_of_time_on_move`]).
    fn judge_time(
        &mut self,
        me: Color,
        at: u64,
        pos: &Position,
    ) -> (bool, Judgement, Option<(Outcome, Termination)>) {
        let Some(clocks) = self.clocks_at(at) else {
            return (false, Judgement::TimeNotRunOut { flagged: !me }, None);
        };
        if !self.evidence {
            // Protocol version 1: the opponent to move with no time left.
            return if clocks.out_of_time_on_move(!me) {
                (
                    true,
                    Judgement::TimeRanOut { flagged: !me },
                    Some(flag_fall(pos, !me)),
                )
            } else {
                (false, Judgement::TimeNotRunOut { flagged: !me }, None)
            };
        }
        match flag::judge_time_claim(&clocks, me) {
            Ok(()) => {
                for m in &self.state.moves {
                    let counted = self.counted_at(&m.event, m.time_ms);
                    if m.by == !me && counted > at {
                        self.state.ignored.push((
                            m.event,
                            "move counted at its first countersignature, after the time claim \
                             it did not answer (6.9): kept as evidence"
                                .to_owned(),
                        ));
                    }
                }
                (
                    true,
                    Judgement::TimeRanOut { flagged: !me },
                    Some(flag_fall(pos, !me)),
                )
            }
            Err(why) => (false, why.into(), None),
        }
    }
}
