//! A lost envelope (FIDE Appendix A11; club rules art. 16.5) in the replay: wire tags 22 to
//! 24.
//!
//! - A11.1 (A11a in 2005): "Si se pierde el sobre que contiene la jugada secreta, la partida
//!   continuará a partir de la posición y con los tiempos anotados en el momento del
//!   aplazamiento … El jugador que hizo la jugada secreta ejecuta sobre el tablero la jugada
//!   que declara ser la que selló." The sealer of a binding seal declares the move (tag 22);
//!   the declaration does nothing until the responder or the agreed arbiter accepts it (tag
//!   23), because a sealed move binds and "lost" would otherwise be the sealer's free choice
//!   of another move. The acceptance is the envelope's opening with the declared move: the
//!   same rules of when (A7 with A2.7), the same clocks (A1, A5, A9: the move counts as made
//!   at the sealing).
//! - A11.2 (A11b in 2005; art. 16.5: "sin que sea posible restablecer, por acuerdo de los
//!   jugadores, la posición y los tiempos … la partida será anulada jugándose una nueva en su
//!   lugar"): the agreed arbiter, or both players, annul the game (tag 24) while its binding
//!   envelope is closed. It is cancelled with no result, and a new game is to be played.
//!
//! These events need an arbiter both players agreed on, so they are events of games on
//! agreed terms (protocol version 3); an older game refuses them.
//!
//! Races between honest nodes are facts, never errors: an acceptance that comes after the
//! envelope was opened, a second acceptance, and an annulment that comes after the game
//! resumed are kept as ignored. What only a dishonest or broken node signs (a declaration by
//! the responder, a second declaration, a declaration after the opening, an acceptance by
//! the sealer) makes the record fail.

use super::state::{Accepter, AnnulledBy, Annulment, DeclarationAccepted, DeclaredMove, Status};
use super::violation::RuleViolation as V;
use super::{Replay, RuleViolation, VerifyError};
use crate::notation::san::{Lang, to_san};
use crate::record::event::{EventId, WireMove};
use crate::record::identity::PlayerId;
use crate::types::Color;

type Rule<'a> = &'a dyn Fn(RuleViolation) -> VerifyError;

impl Replay {
    /// Tags 22 to 24 belong to games on agreed terms (protocol version 3).
    fn require_agreed_terms(&self, rule: Rule<'_>) -> Result<(), VerifyError> {
        if !self.agreed {
            return Err(rule(V::A11NeedsAgreedTerms {
                version: self.state.version,
            }));
        }
        Ok(())
    }

    /// The slot in `state.envelopes` of the binding envelope still closed in an adjourned
    /// game, if there is one.
    fn closed_binding_envelope(&self) -> Option<usize> {
        if self.state.status != Status::Adjourned {
            return None;
        }
        let a = self.binding_adjournment()?;
        a.closed().and_then(|w| a.envelope_of(w))
    }

    /// A11.1: the sealer `me` declares the move they sealed (tag 22): recorded on the
    /// envelope, played only once accepted.
    pub(super) fn declare_sealed_move(
        &mut self,
        mv: WireMove,
        me: Color,
        id: EventId,
        t: u64,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        self.require_agreed_terms(rule)?;
        let Some(slot) = self.closed_binding_envelope() else {
            // The sealer's envelope of the last binding adjournment, opened: its move stands.
            let opened = self.binding_adjournment().is_some_and(|a| {
                a.sealer == me
                    && self
                        .state
                        .envelopes
                        .get(a.envelope)
                        .is_some_and(|e| !e.is_closed())
            });
            return Err(rule(if opened {
                V::DeclaredAfterOpening
            } else {
                V::NoSealedMoveToDeclare
            }));
        };
        let env = &self.state.envelopes[slot];
        if env.sealer != me {
            return Err(rule(V::DeclareNotSealer));
        }
        if env.declared.is_some() {
            return Err(rule(V::AlreadyDeclared));
        }
        // A11.1: the move is executed on the board, so it is a legal move of the position
        // the envelope was sealed in (the game's: nothing is played while it is adjourned).
        let pos = &self.state.position;
        let m = mv.to_move(pos).ok_or_else(|| {
            rule(V::IllegalMove {
                from: crate::Square::new(mv.from.min(63)),
                to: crate::Square::new(mv.to.min(63)),
                fen: pos.fen(),
            })
        })?;
        let san = to_san(pos, m, Lang::English);
        self.state.envelopes[slot].declared = Some(DeclaredMove {
            event: id,
            mv: m,
            san,
            time_ms: t,
            accepted: None,
        });
        Ok(())
    }

    /// A11.1: the responder or the agreed arbiter accepts the declaration `declared` (tag
    /// 23): the declared move is played as the envelope's opening would be.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn accept_declared_move(
        &mut self,
        declared: &EventId,
        author: PlayerId,
        me: Option<Color>,
        id: EventId,
        t: u64,
        index: usize,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        self.require_agreed_terms(rule)?;
        let Some(slot) = self
            .state
            .envelopes
            .iter()
            .position(|e| e.declared.as_ref().is_some_and(|d| d.event == *declared))
        else {
            return Err(rule(V::UnknownDeclaration));
        };
        let env = self.state.envelopes[slot].clone();
        let sealer = env.sealer;
        let role = match me {
            Some(c) if c != sealer => Accepter::Responder,
            None if self.state.terms.arbiter == Some(author) => Accepter::Arbiter,
            _ => return Err(rule(V::AcceptDeclarationNotAllowed)),
        };
        let Some(declaration) = env.declared else {
            return Err(rule(V::UnknownDeclaration));
        };
        // Both accepters may answer one declaration, and an opening may cross an
        // acceptance in transit: the first decides, the others are facts.
        if declaration.accepted.is_some() {
            self.state.ignored.push((
                id,
                "a second acceptance of the declared sealed move (A11.1)".into(),
            ));
            return Ok(());
        }
        if env.opened.is_some() {
            self.state.ignored.push((
                id,
                "the acceptance of a declared sealed move after the envelope had been opened \
                 (A11.1): the sealed move stands"
                    .into(),
            ));
            return Ok(());
        }
        if self.closed_binding_envelope() != Some(slot) {
            return Err(rule(V::OpenedOutOfOrder));
        }
        if role == Accepter::Responder {
            // Accepting the sealer's declaration is being at the board for the resumption
            // (A7), as announcing presence is.
            if self.evidence {
                self.arrivals.insert(id);
            }
            self.record_presence(!sealer, self.counted_at(&id, t));
        }
        // A7 with A2.7: accepted when the envelope could have been opened.
        let binding = self.check_may_open(slot, t, rule)?;
        // Nothing is played while the game is adjourned, so the declared move is still
        // legal; checked again rather than trusted.
        let pos = &self.state.position;
        let m = WireMove::from_move(declaration.mv)
            .to_move(pos)
            .ok_or_else(|| {
                rule(V::IllegalMove {
                    from: declaration.mv.from,
                    to: declaration.mv.to,
                    fen: pos.fen(),
                })
            })?;
        if let Some(d) = self.state.envelopes[slot].declared.as_mut() {
            d.accepted = Some(DeclarationAccepted {
                by: author,
                role,
                event: id,
                time_ms: t,
            });
        }
        self.state.envelope_lost = true;
        self.resume_at_opening(binding, sealer, t, rule)?;
        // The move answered next is the sealer's declaration, which the responder accepted
        // (so had seen); accepted by the arbiter, it is the arbiter's acceptance, which the
        // responder must see before answering, as an arbiter's opening.
        let answered = match role {
            Accepter::Responder => self
                .position_in_timeline
                .get(&declaration.event)
                .copied()
                .unwrap_or(index),
            Accepter::Arbiter => index,
        };
        self.play(m, sealer, declaration.event, t, answered, true);
        Ok(())
    }

    /// A11.2: the agreed arbiter annuls the game, or a player asks to and both have (tag
    /// 24).
    pub(super) fn annul_game(
        &mut self,
        author: PlayerId,
        me: Option<Color>,
        id: EventId,
        t: u64,
        rule: Rule<'_>,
    ) -> Result<(), VerifyError> {
        self.require_agreed_terms(rule)?;
        if self.closed_binding_envelope().is_none() {
            // The envelope was opened (or its declared move accepted) while the request was
            // on its way: the position is re-established, and the request is a fact.
            let resumed = matches!(self.state.status, Status::Active | Status::Disputed)
                && self.binding_adjournment().is_some();
            if resumed {
                self.state.ignored.push((
                    id,
                    "an annulment after the game resumed (A11.2): the position was \
                     re-established"
                        .into(),
                ));
                return Ok(());
            }
            return Err(rule(V::NothingToAnnul));
        }
        let by = match me {
            None if self.state.terms.arbiter == Some(author) => AnnulledBy::Arbiter(author),
            None => return Err(rule(V::AnnulNotAllowed)),
            Some(c) => {
                if self.state.annul_requests[c.index()].is_some() {
                    self.state.ignored.push((
                        id,
                        "a second request by the same player to annul the game (A11.2)".into(),
                    ));
                    return Ok(());
                }
                self.state.annul_requests[c.index()] = Some(id);
                match self.state.annul_requests {
                    [Some(_), Some(_)] => AnnulledBy::Players,
                    _ => return Ok(()),
                }
            }
        };
        let events = match by {
            AnnulledBy::Arbiter(_) => vec![id],
            AnnulledBy::Players => self
                .state
                .annul_requests
                .iter()
                .flatten()
                .copied()
                .collect(),
        };
        self.state.status = Status::Cancelled;
        self.state.ended_ms = Some(t);
        self.state.draw_offer = None;
        self.state.annulled = Some(Annulment {
            by,
            events,
            time_ms: t,
        });
        Ok(())
    }
}
