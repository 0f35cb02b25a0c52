//! Opening envelopes (FIDE Appendix A): the sealer's opening (wire tag 12) and the opening
//! by the arbiter who keeps the envelope in escrow (tags 18 and 19, A3) go through one path,
//! so the arbiter can do with an envelope exactly what its sealer could: open the true
//! sealed move, when A7 and A2.7 allow, with A8 deciding on the move as written.

use super::violation::RuleViolation as V;
use super::{Escrowed, Replay, RuleViolation, Status, VerifyError};
use crate::notation;
use crate::notation::san::Lang;
use crate::position::Position;
use crate::record::commit;
use crate::record::escrow;
use crate::record::event::{EventId, SealLetters};
use crate::record::identity::PlayerId;
use crate::rules::adjournment;
use crate::types::{Color, Move};

/// An opening as signed: the move as written and the salt, and where its event stands.
pub(super) struct Opening<'a> {
    pub move_text: &'a str,
    pub salt: &'a [u8; 32],
    pub id: EventId,
    pub t: u64,
    /// The event's place in the timeline.
    pub index: usize,
}

/// Who opens an envelope.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opener {
    Sealer,
    Arbiter,
}

type Rule<'a> = &'a dyn Fn(RuleViolation) -> VerifyError;

impl Replay {
    /// A3: the sealer hands the opening of the envelope still closed to an arbiter (tag 18),
    /// encrypted to them. Only a binding seal (tag 17) is escrowed, once, to someone who is
    /// neither player (a player holding the opponent's sealed move would read it).
    pub(super) fn escrow(
        &mut self,
        seal: &EventId,
        arbiter: &PlayerId,
        sealed_box: &[u8],
        id: EventId,
        me: Color,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        let Some(slot) = self.state.envelopes.iter().position(|e| e.is_closed()) else {
            return Err(rule(V::NoEnvelopeToEscrow));
        };
        let env = &self.state.envelopes[slot];
        if env.event != *seal {
            return Err(rule(V::EscrowWrongSeal));
        }
        if env.sealer != me {
            return Err(rule(V::EscrowNotSealer));
        }
        if env.letters.is_none() {
            return Err(rule(V::EscrowNotBinding));
        }
        if env.escrow.is_some() {
            return Err(rule(V::AlreadyEscrowed));
        }
        if self.state.white == Some(*arbiter) || self.state.black == Some(*arbiter) {
            return Err(rule(V::ArbiterIsPlayer));
        }
        if self.agreed && self.state.terms.arbiter != Some(*arbiter) {
            return Err(rule(V::ArbiterNotAgreed));
        }
        escrow::check_arbiter(arbiter)
            .and_then(|()| escrow::check_box_size(sealed_box))
            .map_err(|e| rule(e.into()))?;
        self.state.envelopes[slot].escrow = Some(Escrowed {
            arbiter: *arbiter,
            event: id,
            sealed_box: sealed_box.to_vec(),
        });
        Ok(())
    }

    /// The sealer opens their envelope (tag 12). If the arbiter opened it first (both
    /// nodes open at the resumption), the same opening again is kept as ignored.
    pub(super) fn reveal(
        &mut self,
        o: Opening<'_>,
        me: Color,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        let closed = self.state.envelopes.iter().position(|e| e.is_closed());
        if let Some(slot) = closed
            && self.state.envelopes[slot].sealer == me
        {
            return self.open_sealed(slot, Opener::Sealer, &o, rule);
        }
        if let Some(slot) = self.state.envelopes.iter().rposition(|e| e.sealer == me) {
            let env = &self.state.envelopes[slot];
            if env.opened_by_arbiter && self.matches(slot, o.move_text, o.salt) {
                self.state.ignored.push((
                    o.id,
                    "the sealer's opening after the arbiter had opened the envelope (A9)".into(),
                ));
                return Ok(());
            }
            if env.declared_accepted() {
                return self.opened_after_declaration(slot, &o, "sealer's", rule);
            }
        }
        match closed {
            None => Err(rule(V::NoEnvelopeToOpen)),
            Some(_) => Err(rule(V::OpenNotSealer)),
        }
    }

    /// The arbiter the envelope of `seal` is escrowed to opens it (tag 19), as the sealer
    /// would. A second opening of an envelope already opened (the sealer's node and the
    /// arbiter's racing at the resumption) is kept as ignored.
    pub(super) fn arbiter_open(
        &mut self,
        seal: &EventId,
        o: Opening<'_>,
        author: PlayerId,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        let Some(slot) = self.state.envelopes.iter().position(|e| e.event == *seal) else {
            return Err(rule(V::NoSuchSeal));
        };
        let env = &self.state.envelopes[slot];
        if env.escrow.as_ref().map(|e| e.arbiter) != Some(author) {
            return Err(rule(V::OpenNotArbiter));
        }
        if env.declared_accepted() {
            return self.opened_after_declaration(slot, &o, "arbiter's", rule);
        }
        if env.opened.is_some() {
            if !self.matches(slot, o.move_text, o.salt) {
                return Err(rule(V::OpeningMismatch));
            }
            self.state.ignored.push((
                o.id,
                "the arbiter's opening after the envelope had been opened (A9)".into(),
            ));
            return Ok(());
        }
        if self.state.envelopes.iter().position(|e| e.is_closed()) != Some(slot) {
            return Err(rule(V::OpenedOutOfOrder));
        }
        self.open_sealed(slot, Opener::Arbiter, &o, rule)
    }

    /// A11.1: the true opening of an envelope whose declared move was accepted arrives after
    /// all (the sealer found it, or the arbiter's node opened its escrow late). The game
    /// went on with the declared move, and the responder may have answered it: the opening
    /// changes nothing and is kept as a fact, with the move it shows, so a reader can see
    /// whether the declaration was true. An opening that does not match the commitment is
    /// still a false opening, and an error.
    fn opened_after_declaration(
        &mut self,
        slot: usize,
        o: &Opening<'_>,
        whose: &str,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        if !self.matches(slot, o.move_text, o.salt) {
            return Err(rule(V::OpeningMismatch));
        }
        let declared = self.state.envelopes[slot]
            .declared
            .as_ref()
            .map_or_else(String::new, |d| d.san.clone());
        self.state.ignored.push((
            o.id,
            format!(
                "the {whose} opening ({:?}) after the declared sealed move {declared} had been \
                 accepted (A11.1): the declared move stands",
                o.move_text
            ),
        ));
        Ok(())
    }

    /// Whether an opening is the one the envelope in `slot` committed to: the commitment
    /// binds the sealer, whoever opens it.
    fn matches(&self, slot: usize, move_text: &str, salt: &[u8; 32]) -> bool {
        let env = &self.state.envelopes[slot];
        let expected = commit::seal_commitment(
            &self.state.game,
            env.ply,
            &env.seal.envelope.sealer,
            move_text,
            salt,
        );
        expected == env.seal.commitment
    }

    /// The one path of an opening: A7 and A2.7 (when it may be opened), the commitment,
    /// then A8 on the move as written, in the seal's letters, played as the sealer's move.
    fn open_sealed(
        &mut self,
        slot: usize,
        by: Opener,
        o: &Opening<'_>,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        let env = self.state.envelopes[slot].clone();
        let sealer = env.sealer;
        let binding = self.check_may_open(slot, o.t, rule)?;
        if !self.matches(slot, o.move_text, o.salt) {
            return Err(rule(V::OpeningMismatch));
        }
        self.state.envelopes[slot].opened = Some(o.move_text.to_owned());
        self.state.envelopes[slot].opened_by_arbiter = by == Opener::Arbiter;
        self.resume_at_opening(binding, sealer, o.t, rule)?;
        // A8: the move as written, in the letters signed with the seal, decides.
        let pos = self.state.position.clone();
        let lang = env.letters.map_or(Lang::Auto, SealLetters::lang);
        match notation::parse_move(&pos, o.move_text, lang) {
            Ok(m) => {
                self.play(m, sealer, o.id, o.t, o.index, true);
            }
            Err(err) => {
                let readings: Vec<Move> = if err.kind() == notation::MoveErrorKind::Ambiguous {
                    candidates_for(&pos, o.move_text, lang)
                } else {
                    Vec::new()
                };
                let (outcome, termination) =
                    adjournment::judge_invalid_sealed_move(self.edition(), &pos, sealer, &readings);
                self.end(outcome, termination);
                self.state.sealed_move_error = Some(format!(
                    "the sealed move {:?} is invalid: {} (A8)",
                    o.move_text,
                    err.reason()
                ));
            }
        }
        Ok(())
    }
}

impl Replay {
    /// A7 with A2.7 for a binding sealed move, the sealer's arrival for an A9c reply: whether
    /// the envelope in `slot` may be opened at `t` (the arbiter opens as the sealer could,
    /// and its opening is not the sealer's arrival; an accepted declaration, A11.1, opens
    /// under the same rules). Returns whether the envelope is the binding adjournment's.
    pub(super) fn check_may_open(
        &self,
        slot: usize,
        t: u64,
        rule: Rule<'_>,
    ) -> Result<bool, VerifyError> {
        let Some(env) = self.state.envelopes.get(slot) else {
            return Err(rule(V::NoEnvelopeToOpen));
        };
        let sealer = env.sealer;
        let binding = self
            .binding_adjournment()
            .is_some_and(|a| a.closed().is_some());
        if let Some(a) = self.binding_adjournment().filter(|_| binding) {
            a.check_opening(sealer, t).map_err(|e| rule(e.into()))?;
        } else if self.state.status == Status::Adjourned {
            // A tag-10 seal keeps the meaning it was signed under: it opens on the
            // responder's presence (and a tag-17 reply in a tag-10 adjournment still waits
            // for its time, A2.7).
            let resume_at = env.letters.and(env.seal.envelope.resume_at_ms);
            adjournment::check_opening(
                resume_at,
                t,
                self.state.presence_ms[sealer.index()].is_some(),
                self.state.presence_ms[(!sealer).index()].is_some(),
            )
            .map_err(|e| rule(e.into()))?;
        }
        Ok(binding)
    }

    /// The envelope of `sealer` was opened (or its declared move accepted) at `t`: the
    /// game resumes, and the sealer is the player to move.
    pub(super) fn resume_at_opening(
        &mut self,
        binding: bool,
        sealer: Color,
        t: u64,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        if binding || self.state.status == Status::Adjourned {
            self.resume(t);
        }
        if self.state.position.turn() != sealer {
            // A second envelope opened before the first: refuse.
            return Err(rule(V::OpenedOutOfOrder));
        }
        Ok(())
    }
}

/// Every legal move an ambiguous text could mean in `lang` (in either language for
/// [`Lang::Auto`], a seal from before the letters were recorded).
fn candidates_for(pos: &Position, text: &str, lang: Lang) -> Vec<Move> {
    let mut out = Vec::new();
    let langs: &[Lang] = match lang {
        Lang::Auto => &[Lang::English, Lang::Spanish],
        _ => std::slice::from_ref(&lang),
    };
    for &lang in langs {
        if let Ok(m) = crate::notation::san::parse_san(pos, text, lang) {
            out.push(m);
        } else if let Err(crate::notation::san::ReadSanError::Rules(
            crate::notation::san::SanError::Ambiguous { candidates, .. },
        )) = crate::notation::san::parse_san(pos, text, lang)
        {
            out.extend(candidates);
        }
    }
    out.sort_by_key(|m| (m.from, m.to));
    out.dedup();
    out
}
