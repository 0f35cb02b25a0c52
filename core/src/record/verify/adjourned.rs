//! The replay of adjourned games (FIDE Appendix A): sealing, presence, opening and lateness
//! applied to the record. Every verdict is [`crate::rules::adjournment`]'s; this module only
//! feeds it the record's facts and applies what it decides.

use super::violation::RuleViolation as V;
use super::{Judgement, Replay, RuleViolation, SealedEnvelope, Status, VerifyError};
use crate::outcome::Outcome;
use crate::record::event::{EventId, Seal, SealLetters};
use crate::record::identity::PlayerId;
use crate::rules::adjournment::{
    self, Adjournment, AdjournmentRule, LatenessClaim, LatenessVerdict, Reply,
};
use crate::rules::{Termination, flag_fall};
use crate::types::Color;

/// What a seal is, by when it comes (decided by [`Replay::seal`]).
enum SealKind {
    /// A1: the player to move adjourns the game.
    First,
    /// A9c: the responder's reply to an opened sealed move, the sealer absent.
    Reply,
    /// A9c as a tag-10 adjournment had it: sealed blind, before the opening.
    Tag10Reply,
}

type Rule<'a> = &'a dyn Fn(RuleViolation) -> VerifyError;

impl Replay {
    /// The last adjournment if it was sealed under tag 17.
    pub(super) fn binding_adjournment(&self) -> Option<&Adjournment> {
        self.state.adjournments.last().filter(|a| a.binding)
    }

    /// A7, A9, A10: `who` says they are at the board.
    pub(super) fn record_presence(&mut self, who: Color, t: u64) {
        if self.state.presence_ms[who.index()].is_none() {
            self.state.presence_ms[who.index()] = Some(t);
        }
        if let Some(a) = self.state.adjournments.last_mut() {
            a.record_presence(who, t);
        }
    }

    /// A10: a move by `who` shows them at the board (binding seals).
    pub(super) fn record_move(&mut self, who: Color, t: u64) {
        if let Some(a) = self.state.adjournments.last_mut() {
            a.record_move(who, t);
        }
    }

    /// The adjournment's envelope is open (or, tag 10, the sealer played instead, A11): the
    /// game goes on.
    pub(super) fn resume(&mut self, t: u64) {
        if let Some(a) = self.state.adjournments.last_mut() {
            a.record_opening(t);
        }
        self.state.status = Status::Active;
        // A11.2: a request to annul was about the envelope that was closed; the position is
        // re-established now.
        self.state.annul_requests = [None, None];
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn seal(
        &mut self,
        seal: &Seal,
        letters: Option<SealLetters>,
        me: Color,
        id: EventId,
        t: u64,
        author: PlayerId,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        let env = &seal.envelope;
        let binding = letters.is_some();
        let kind = match self.binding_adjournment() {
            // A9c for a binding seal: a reply only to the opened sealed move.
            Some(a) if self.state.status == Status::Adjourned => {
                let err = a
                    .check_reply(me, self.state.moves.len())
                    .err()
                    .unwrap_or(AdjournmentRule::ReplyAlreadySealed);
                return Err(rule(err.into()));
            }
            Some(a) if a.check_reply(me, self.state.moves.len()).is_ok() => SealKind::Reply,
            _ if self.state.status == Status::Adjourned => SealKind::Tag10Reply,
            _ => SealKind::First,
        };
        match kind {
            SealKind::Tag10Reply => {
                // A9c as signed under tag 10: the responder seals a reply when the sealer is
                // absent at resumption, before the sealed move is opened.
                let Some(first) = self.state.open_envelope() else {
                    return Err(rule(V::NoEnvelopeToAnswer));
                };
                if first.sealer == me || self.state.envelopes.len() >= 2 {
                    return Err(rule(V::SecondEnvelopeNotResponder));
                }
                if self.state.presence_ms[(!me).index()].is_some() {
                    return Err(rule(V::SealerPresentOpens));
                }
                if env.resume_at_ms.is_some_and(|r| t < r)
                    || first.seal.envelope.resume_at_ms.is_some_and(|r| t < r)
                {
                    return Err(rule(V::SecondEnvelopeEarly));
                }
            }
            SealKind::Reply => {
                // The reply answers the sealed move the responder has seen (`seen`).
                self.check_turn(me, author, rule)?;
                if let Some(a) = self.binding_adjournment() {
                    // It names what the first envelope named (under agreed terms the
                    // adjournment's resumption may stand postponed for notice).
                    let first = self.state.envelopes.get(a.envelope);
                    let named = first.map_or(a.resume_at_ms, |f| f.seal.envelope.resume_at_ms);
                    if env.resume_at_ms != named || env.lateness_limit_ms != a.limit_ms {
                        return Err(rule(AdjournmentRule::ReplyResumption.into()));
                    }
                }
            }
            SealKind::First => {
                if self.state.status != Status::Active && self.state.status != Status::Disputed {
                    return Err(rule(V::CannotSeal(self.state.status)));
                }
                // A1: only the player to move seals.
                if self.state.position.turn() != me {
                    return Err(rule(V::SealNotOnMove));
                }
                self.check_turn(me, author, rule)?;
                // A1, A2.7: a binding seal is for a game over the board and names a
                // resumption ahead: a sealer who never comes back cannot freeze the game,
                // because the absent player's clock runs from that time (A9).
                if binding {
                    let correspondence = self.state.time_control.is_correspondence()
                        && !(self.agreed && self.state.terms.correspondence_adjournment);
                    adjournment::check_sealing_allowed(correspondence)
                        .and_then(|()| adjournment::check_resumption_time(env.resume_at_ms, t))
                        .map_err(|e| rule(e.into()))?;
                    // A10: under agreed terms the limit is the terms', not the sealer's.
                    let agreed_ms = self.state.terms.lateness_limit_ms;
                    if self.agreed && env.lateness_limit_ms != agreed_ms {
                        return Err(rule(V::EnvelopeLateness {
                            envelope_ms: env.lateness_limit_ms,
                            agreed_ms,
                        }));
                    }
                }
            }
        }
        // A3: the envelope's data must be exact.
        let expect_players = (self.state.white, self.state.black);
        if (Some(env.white), Some(env.black)) != expect_players {
            return Err(rule(V::EnvelopePlayers));
        }
        if env.sealer != author {
            return Err(rule(V::EnvelopeSealer));
        }
        if !matches!(kind, SealKind::Tag10Reply) {
            self.check_envelope_data(seal, t, rule)?;
        }
        // Protocol version 3: the sealing counts at its evidence time (a seal dated back
        // stops the sealer's clock no earlier than the evidence allows).
        let t = if self.agreed {
            let made = self.made_at(&id, t);
            if made == u64::MAX { t } else { made }
        } else {
            t
        };
        let ply = self.state.moves.len() + 1 + usize::from(matches!(kind, SealKind::Tag10Reply));
        let ply = u32::try_from(ply).unwrap_or(u32::MAX);
        let index = self.state.envelopes.len();
        self.state.envelopes.push(SealedEnvelope {
            seal: seal.clone(),
            letters,
            sealer: me,
            ply,
            event: id,
            sealed_at_ms: t,
            opened: None,
            escrow: None,
            opened_by_arbiter: false,
            declared: None,
        });
        match kind {
            SealKind::First => {
                self.state.status = Status::Adjourned;
                // A1b: the session began at the game's start or at the last resumption (the
                // earlier of the agreed time and the opening).
                let session_start = self
                    .state
                    .adjournments
                    .last()
                    .map(|a| match (a.resume_at_ms, a.opened_ms) {
                        (Some(r), Some(o)) => r.min(o),
                        (r, o) => r.or(o).unwrap_or(a.sealed_at_ms),
                    })
                    .or(self.state.started_ms)
                    .unwrap_or(t);
                let resume_at_ms = if self.agreed && binding {
                    self.frozen.insert(id);
                    env.resume_at_ms.map(|r| r.max(self.notice_ends(&id, t)))
                } else {
                    env.resume_at_ms
                };
                let mut adjournment = Adjournment::new(
                    me,
                    index,
                    ply,
                    t,
                    resume_at_ms,
                    env.lateness_limit_ms,
                    binding,
                    self.state.presence_ms,
                );
                if binding {
                    adjournment.charged_until_ms = adjournment::session_end(
                        self.state.time_control.session(),
                        session_start,
                        t,
                        env.resume_at_ms,
                    );
                }
                self.state.adjournments.push(adjournment);
            }
            SealKind::Reply => {
                self.state.status = Status::Adjourned;
                if let Some(a) = self.state.adjournments.last_mut() {
                    a.reply = Some(Reply {
                        envelope: index,
                        ply,
                        sealed_at_ms: t,
                        opened_ms: None,
                    });
                    // Sealing a reply is being at the board.
                    a.record_presence(me, t);
                }
            }
            SealKind::Tag10Reply => {}
        }
        Ok(())
    }

    /// Under agreed terms, the earliest resumption the seal `id` (sealed at `t`) allows: the
    /// terms' minimum notice after the seal reached the responder (A2.7: the resumption is
    /// agreed, never the sealer's word alone). "Reached" is the responder's own
    /// countersignature (their word favours only the sealer's opponent, who is them, and
    /// costs the sealer nothing while the clocks are stopped), else the timekeeper's
    /// receipt, else the seal's time plus the transit allowance. A resumption named with
    /// less notice is postponed to this moment, so a sealer whose clock is behind cannot
    /// make the responder late for a resumption they were never told of.
    fn notice_ends(&self, id: &EventId, t: u64) -> u64 {
        let eff = self.effective.get(id).copied().unwrap_or(t);
        let reached = match self.countersigned.get(id) {
            Some(&c) => c.max(eff),
            None => match self.reached(id, t) {
                u64::MAX => eff.saturating_add(self.allowance),
                r => r,
            },
        };
        reached.saturating_add(self.state.terms.min_notice_ms)
    }

    /// A2.2, A2.3, A2.5, A2.6 (checked as A3 has the arbiter do): the position, the clocks,
    /// the move number and the standing draw offer are the game's.
    fn check_envelope_data(&self, seal: &Seal, t: u64, rule: Rule<'_>) -> Result<(), VerifyError> {
        let env = &seal.envelope;
        let pos = &self.state.position;
        if env.fen_before != pos.fen() {
            return Err(rule(V::EnvelopePosition {
                envelope: env.fen_before.clone(),
                game: pos.fen(),
            }));
        }
        if env.move_number != pos.fullmove_number() {
            return Err(rule(V::EnvelopeMoveNumber));
        }
        let offer = self.state.draw_offer.and_then(|c| self.state.player(c));
        if env.draw_offer_by != offer {
            return Err(rule(V::EnvelopeDrawOffer));
        }
        // Under protocol version 2 the clocks are computed from the evidence, which may
        // still grow after the sealing (a witness's earlier receipt): the envelope's times
        // are the sealer's statement, and the clocks stand corrected (A12).
        if !self.evidence
            && let Some(c) = self.clocks_at(t)
            && env.time_used_ms != c.used_ms
        {
            return Err(rule(V::EnvelopeTimes {
                envelope: env.time_used_ms,
                clocks: c.used_ms,
            }));
        }
        Ok(())
    }

    /// A10 (and A8 for a binding envelope the sealer does not open): the verdict is
    /// [`adjournment::judge_lateness`] on the game's last adjournment.
    pub(super) fn judge_lateness(
        &self,
        me: Color,
        t: u64,
    ) -> (bool, Judgement, Option<(Outcome, Termination)>) {
        let not_adjourned = || (false, Judgement::NotAdjourned, None);
        let Some(a) = self.state.adjournments.last() else {
            return not_adjourned();
        };
        // A tag-10 adjournment is judged only while an envelope is closed (its meaning).
        if !a.binding && self.state.open_envelope().is_none() {
            return not_adjourned();
        }
        let edition = self.edition();
        // A10c: the present claimant has lost under 6.9: under protocol version 2 the first
        // standing fall is theirs (a fallen flag stays fallen until the opponent plays on,
        // 6.8; the first decides, 6.11); under version 1, they are on move with no time left.
        let claimant_flag_down = self.clocks_at(t).is_some_and(|c| {
            if self.evidence {
                c.can_claim_time_forfeit(!me)
            } else {
                c.out_of_time_on_move(me)
            }
        });
        let verdict = adjournment::judge_lateness(
            edition,
            LatenessClaim {
                adjournment: a,
                claimant: me,
                at_ms: t,
                claimant_flag_down,
            },
        );
        let pos = &self.state.position;
        match verdict {
            LatenessVerdict::OpponentLate => (
                true,
                Judgement::OpponentLate { late: !me },
                Some((
                    Outcome::Decisive { winner: me },
                    Termination::LateForResumption,
                )),
            ),
            LatenessVerdict::ClaimantLostOnTime { article } => (
                false,
                Judgement::ClaimantLostOnTime {
                    late: !me,
                    claimant: me,
                    article: article.to_owned(),
                },
                Some(flag_fall(pos, me)),
            ),
            LatenessVerdict::SealerCannotOpen => {
                let sealer = !me;
                // An envelope never opened cannot be read (A8b), with A8's exceptions.
                let ending = adjournment::judge_invalid_sealed_move(edition, pos, sealer, &[]);
                (true, Judgement::SealerCannotOpen { sealer }, Some(ending))
            }
            LatenessVerdict::Incorrect(why) => (false, why.into(), None),
        }
    }
}
