//! FIDE Appendix A (adjourned games): every verdict on sealing, opening, the clocks of an
//! adjournment, an invalid sealed move (A8) and lateness (A10). `verify` applies them to
//! every record and the node asks the same functions before it seals or opens an envelope,
//! so each rule has one home.
//!
//! The rules here are those of an envelope sealed under the current protocol (wire tag 17,
//! which also records the sealed move's letters): the sealed move binds the sealer (A11
//! without an arbiter), the envelope names its resumption (A2.7), the clocks follow A9, and
//! lateness is judged by when each player arrived (A10). A tag-10 seal signed before these
//! rules keeps the meaning it was signed under ([`Adjournment::binding`] is false).
//!
//! - [`clock`]: A1, A5 and A9 — which clock runs from the sealing to the reply.
//! - [`lateness`]: A10 with its exceptions, and A8 for an envelope the sealer never opens.
//! - [`sealed_move`]: A8 — a sealed move that cannot be played as written.

pub mod clock;
pub mod lateness;
pub mod sealed_move;

pub use clock::clock_inputs;
pub use lateness::{LatenessClaim, LatenessVerdict, NotLate, judge_lateness};
pub use sealed_move::judge_invalid_sealed_move;

use crate::types::Color;
use serde::{Deserialize, Serialize};

/// The furthest ahead a resumption may be set (A2.7): 30 days, until a competition's own
/// terms carry their limit. Without a bound a sealer could freeze the game for a year.
pub const MAX_ADJOURNMENT_MS: u64 = 30 * 24 * 60 * 60 * 1000;

/// How late a player may come to the resumption unless the competition says otherwise
/// (A10: "más de una hora").
pub const DEFAULT_LATENESS_MS: u64 = 60 * 60 * 1000;

/// Why Appendix A refuses a seal or an opening. Serialized (tagged by `rule`, snake case) as
/// the control API's refusal carries it, inside its
/// [`RuleViolation::Adjournment`](crate::record::verify::RuleViolation::Adjournment):
/// `{"kind":"adjournment","rule":"responder_absent"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum AdjournmentRule {
    /// A2.7: the envelope must say when the game resumes, at a time after the sealing.
    #[error("the envelope must give a resumption time after the sealing (A2.7)")]
    NoResumptionTime,
    /// A2.7: the resumption is further ahead than [`MAX_ADJOURNMENT_MS`].
    #[error("the resumption is more than 30 days after the sealing (A2.7)")]
    ResumptionTooFar,
    /// Appendix A governs games played in sessions over the board (A1: "al final del tiempo
    /// establecido para la sesión"); a correspondence game has no session to end, and a seal
    /// there would only stop the sealer's clock.
    #[error(
        "a correspondence game is not adjourned: sealing is for games over the board \
         (Appendix A1)"
    )]
    Correspondence,
    /// A2.7 with A7: before the agreed time, the envelope is opened only when both players
    /// are present.
    #[error(
        "the envelope opens at the agreed resumption time, or earlier only when both players \
         are present (A2.7, A7)"
    )]
    BeforeResumption,
    /// A7: the envelope is opened only when the responder is present.
    #[error("the responder is not present: the envelope stays closed (A7)")]
    ResponderAbsent,
    /// A7, A9c: an envelope is opened by the player who sealed it.
    #[error("only the player who sealed an envelope opens it (A7, A9c)")]
    NotTheSealer,
    /// A9c: the reply in a second envelope is the responder's.
    #[error("only the responder seals a reply in a second envelope (A9c)")]
    ReplyOnlyByResponder,
    /// A9c: the responder answers the sealed move, so it is opened first and the reply is
    /// sealed in the position after it ("anotar su respuesta").
    #[error(
        "the reply is sealed only once the sealed move is opened, in the position after it \
         (A9c)"
    )]
    ReplyBeforeOpening,
    /// A9c: one reply per adjournment.
    #[error("a reply is already sealed in a second envelope (A9c)")]
    ReplyAlreadySealed,
    /// A9c: a second envelope is for a sealer who is not there; with the sealer present the
    /// responder answers on the board.
    #[error("the sealer is present: the reply is played on the board, not sealed (A9a, A9c)")]
    SealerPresent,
    /// A9c: the reply answers the sealed move itself, before any other move.
    #[error("the sealed move has already been answered (A9c)")]
    ReplyAfterAnswer,
    /// A9c: the reply belongs to the adjournment's resumption, so its envelope names that
    /// resumption and lateness limit (A2.7, A10).
    #[error("the reply's envelope must name the adjournment's resumption and limit (A2.7, A9c)")]
    ReplyResumption,
    /// A9c: the second envelope "se abrirá a la llegada del jugador ausente".
    #[error("the second envelope opens when the absent sealer arrives (A9c)")]
    SealerNotArrived,
}

/// A2.7: a sealed game names its resumption, after the moment of sealing. Without it a
/// sealer who never comes back would freeze the game for ever; with it, the absent player's
/// clock runs from that time (A9).
///
/// # Errors
/// [`AdjournmentRule::NoResumptionTime`] if `resume_at_ms` is missing or not after
/// `sealed_at_ms`; [`AdjournmentRule::ResumptionTooFar`].
pub fn check_resumption_time(
    resume_at_ms: Option<u64>,
    sealed_at_ms: u64,
) -> Result<(), AdjournmentRule> {
    match resume_at_ms {
        Some(r) if r > sealed_at_ms.saturating_add(MAX_ADJOURNMENT_MS) => {
            Err(AdjournmentRule::ResumptionTooFar)
        }
        Some(r) if r > sealed_at_ms => Ok(()),
        _ => Err(AdjournmentRule::NoResumptionTime),
    }
}

/// A1: only a game played in sessions (over the board) is adjourned with a sealed move.
///
/// # Errors
/// [`AdjournmentRule::Correspondence`] for a correspondence time control.
pub fn check_sealing_allowed(correspondence: bool) -> Result<(), AdjournmentRule> {
    if correspondence {
        return Err(AdjournmentRule::Correspondence);
    }
    Ok(())
}

/// A7 with A2.7: whether the sealer's envelope may be opened at `at_ms`. The responder must
/// be present (A7); before the agreed resumption the sealer must be present too, so that a
/// responder who "arrives" on Wednesday for a Saturday resumption cannot start the sealer's
/// clock while the sealer is away. `resume_at_ms` is `None` for a tag-10 envelope, which
/// opens on the responder's presence alone (the meaning it was signed under).
///
/// # Errors
/// [`AdjournmentRule::ResponderAbsent`] or [`AdjournmentRule::BeforeResumption`].
pub fn check_opening(
    resume_at_ms: Option<u64>,
    at_ms: u64,
    sealer_present: bool,
    responder_present: bool,
) -> Result<(), AdjournmentRule> {
    if !responder_present {
        return Err(AdjournmentRule::ResponderAbsent);
    }
    if resume_at_ms.is_some_and(|r| at_ms < r) && !sealer_present {
        return Err(AdjournmentRule::BeforeResumption);
    }
    Ok(())
}

/// A1b: until when a sealer who seals at `sealed_at_ms` is charged, for a game whose sessions
/// last `session_ms` and whose current session began at `session_start_ms` (the game's start,
/// or the last resumption): the end of the session if the seal comes before it, else the
/// sealing; never past the agreed resumption (A2.7) — the clocks stop until then (A5).
pub fn session_end(
    session_ms: Option<u64>,
    session_start_ms: u64,
    sealed_at_ms: u64,
    resume_at_ms: Option<u64>,
) -> u64 {
    let Some(length) = session_ms else {
        return sealed_at_ms;
    };
    let end = session_start_ms.saturating_add(length);
    let end = resume_at_ms.map_or(end, |r| end.min(r));
    end.max(sealed_at_ms)
}

/// Which envelope of an adjournment is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sealed {
    /// The sealer's envelope (A1).
    Move,
    /// The responder's reply in a second envelope (A9c).
    Reply,
}

/// A9c: the responder's reply, sealed in a second envelope while the sealer was absent.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Reply {
    /// Its index in the game's envelopes.
    pub envelope: usize,
    /// The ply the reply will be (1-based).
    pub ply: u32,
    /// When it was sealed: the responder's move is complete then and the absent sealer's
    /// clock starts ("detener su reloj y poner en marcha el del jugador ausente").
    pub sealed_at_ms: u64,
    /// When it was opened (on the sealer's arrival).
    pub opened_ms: Option<u64>,
}

/// One adjournment of a game: the facts Appendix A's verdicts are judged on. `verify` keeps
/// one per seal (A1) in the order they were sealed; the node reads the last one.
// Serde: kept in a node's stored game summaries (never on the wire).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Adjournment {
    /// The player who sealed (A1: the player to move at the end of the session).
    pub sealer: Color,
    /// Its index in the game's envelopes.
    pub envelope: usize,
    /// The ply the sealed move will be (1-based).
    pub ply: u32,
    /// The seal's signed time: the sealed move is complete then (A1: the sealer stops their
    /// clock once the envelope is sealed).
    pub sealed_at_ms: u64,
    /// Until when the sealer's clock runs: the sealing, or (A1b) the end of the session when
    /// the sealer adjourned before it — "se considerará que ha sellado a la hora establecida
    /// para el fin de la sesión". Only a time control that names its sessions
    /// (`otb 40/2h:1h session 5h`) has a session end; see [`session_end`].
    pub charged_until_ms: u64,
    /// A2.7: the agreed resumption (always set for a binding seal).
    pub resume_at_ms: Option<u64>,
    /// A10: how late a player may be.
    pub limit_ms: u64,
    /// Sealed under wire tag 17: the rules of this module. `false`: a tag-10 seal, which
    /// keeps the meaning it was signed under (its stop lasts until the opening, presence is
    /// the game's first, lateness is judged only while the envelope is closed).
    pub binding: bool,
    /// When each player (white, black) came to the board for this resumption: their first
    /// presence, move or sealed reply after the sealing. The automatic opening by the
    /// sealer's node is not an arrival. For a tag-10 seal, the game's first presence.
    pub arrived_ms: [Option<u64>; 2],
    /// When the sealer's envelope was opened. For a tag-10 seal also the sealer's move
    /// instead of the opening (its A11), which ended that adjournment the same way.
    pub opened_ms: Option<u64>,
    /// A9c: the responder's reply in a second envelope (binding seals).
    pub reply: Option<Reply>,
    /// Whether each player made a move after the other had arrived: playing on with a late
    /// player waives a lateness claim (A10), as answering a fallen flag waives 6.9.
    pub played_on: [bool; 2],
}

impl Adjournment {
    /// A new adjournment at the sealing. `presence` is the game's first presence of each
    /// player so far, which a tag-10 seal counts (a binding seal counts only arrivals after
    /// it: a presence from an earlier resumption says nothing about this one).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        sealer: Color,
        envelope: usize,
        ply: u32,
        sealed_at_ms: u64,
        resume_at_ms: Option<u64>,
        limit_ms: u64,
        binding: bool,
        presence: [Option<u64>; 2],
    ) -> Adjournment {
        Adjournment {
            sealer,
            envelope,
            ply,
            sealed_at_ms,
            charged_until_ms: sealed_at_ms,
            resume_at_ms,
            limit_ms,
            binding,
            arrived_ms: if binding { [None, None] } else { presence },
            opened_ms: None,
            reply: None,
            played_on: [false, false],
        }
    }

    /// The player who must answer the sealed move (A7).
    pub fn responder(&self) -> Color {
        !self.sealer
    }

    /// The envelope still closed, if any: the sealed move first, then a reply (A9c).
    pub fn closed(&self) -> Option<Sealed> {
        if self.opened_ms.is_none() {
            Some(Sealed::Move)
        } else if self.reply.as_ref().is_some_and(|r| r.opened_ms.is_none()) {
            Some(Sealed::Reply)
        } else {
            None
        }
    }

    /// The index in the game's envelopes of `which`.
    pub fn envelope_of(&self, which: Sealed) -> Option<usize> {
        match which {
            Sealed::Move => Some(self.envelope),
            Sealed::Reply => self.reply.as_ref().map(|r| r.envelope),
        }
    }

    /// The player who sealed `which`.
    pub fn sealer_of(&self, which: Sealed) -> Color {
        match which {
            Sealed::Move => self.sealer,
            Sealed::Reply => self.responder(),
        }
    }

    /// `who` announced presence at `at_ms`.
    pub fn record_presence(&mut self, who: Color, at_ms: u64) {
        let arrived = &mut self.arrived_ms[who.index()];
        if arrived.is_none() {
            *arrived = Some(at_ms);
        }
    }

    /// `who` made a move at `at_ms` (binding seals): they are at the board, and if the
    /// opponent had already arrived they are playing on with them (A10).
    pub fn record_move(&mut self, who: Color, at_ms: u64) {
        if !self.binding {
            return;
        }
        if self.arrived_ms[(!who).index()].is_some() {
            self.played_on[who.index()] = true;
        }
        self.record_presence(who, at_ms);
    }

    /// The closed envelope was opened at `at_ms`.
    pub fn record_opening(&mut self, at_ms: u64) {
        match self.closed() {
            Some(Sealed::Move) => self.opened_ms = Some(at_ms.max(self.sealed_at_ms)),
            Some(Sealed::Reply) => {
                if let Some(r) = self.reply.as_mut() {
                    r.opened_ms = Some(at_ms.max(r.sealed_at_ms));
                }
            }
            None => {}
        }
    }

    /// Whether the closed envelope may be opened by `by` at `at_ms`, and which it is: the
    /// sealed move under A7 with A2.7 ([`check_opening`]), a reply when the absent sealer
    /// has arrived (A9c).
    ///
    /// # Errors
    /// [`AdjournmentRule::NotTheSealer`], [`AdjournmentRule::ResponderAbsent`],
    /// [`AdjournmentRule::BeforeResumption`] or [`AdjournmentRule::SealerNotArrived`];
    /// `Ok(None)` when nothing is closed.
    pub fn check_opening(&self, by: Color, at_ms: u64) -> Result<Option<Sealed>, AdjournmentRule> {
        let Some(which) = self.closed() else {
            return Ok(None);
        };
        if by != self.sealer_of(which) {
            return Err(AdjournmentRule::NotTheSealer);
        }
        let present = |c: Color| self.arrived_ms[c.index()].is_some();
        match which {
            Sealed::Move => check_opening(
                self.resume_at_ms.filter(|_| self.binding),
                at_ms,
                present(self.sealer),
                present(self.responder()),
            )?,
            Sealed::Reply => {
                if !present(self.sealer) {
                    return Err(AdjournmentRule::SealerNotArrived);
                }
            }
        }
        Ok(Some(which))
    }

    /// A9c: whether `by` may now seal a reply in a second envelope, `moves_played` moves
    /// into the game. Only the responder, once the sealed move has been opened (they answer
    /// a move they have seen) and before answering it on the board, while the sealer has not
    /// arrived, once per adjournment.
    ///
    /// # Errors
    /// The first of [`AdjournmentRule::ReplyOnlyByResponder`],
    /// [`AdjournmentRule::ReplyBeforeOpening`], [`AdjournmentRule::ReplyAlreadySealed`],
    /// [`AdjournmentRule::SealerPresent`], [`AdjournmentRule::ReplyAfterAnswer`] that applies.
    pub fn check_reply(&self, by: Color, moves_played: usize) -> Result<(), AdjournmentRule> {
        if by != self.responder() {
            return Err(AdjournmentRule::ReplyOnlyByResponder);
        }
        if self.opened_ms.is_none() {
            return Err(AdjournmentRule::ReplyBeforeOpening);
        }
        if self.reply.is_some() {
            return Err(AdjournmentRule::ReplyAlreadySealed);
        }
        if self.arrived_ms[self.sealer.index()].is_some() {
            return Err(AdjournmentRule::SealerPresent);
        }
        if moves_played != self.ply as usize {
            return Err(AdjournmentRule::ReplyAfterAnswer);
        }
        Ok(())
    }

    /// A9c, A2.7: the reply's envelope names this adjournment's resumption and limit.
    ///
    /// # Errors
    /// [`AdjournmentRule::ReplyResumption`].
    pub fn check_reply_envelope(
        &self,
        resume_at_ms: Option<u64>,
        limit_ms: u64,
    ) -> Result<(), AdjournmentRule> {
        if resume_at_ms != self.resume_at_ms || limit_ms != self.limit_ms {
            return Err(AdjournmentRule::ReplyResumption);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
