//! `verify`: from the signed events of a game (both scoresheets, any witnesses' receipts, in
//! any order, duplicates allowed) to what happened — or a precise error naming the event and
//! the rule it breaks. Every node, the CLI and any third party call this one function.
//!
//! # Order of events
//! Each event follows its author's previous event (`prev`) and the opponent event it says it
//! had seen (`seen`). Events are applied in an order that respects both (a topological
//! order); among events that are ready at the same time — concurrent: neither author had
//! seen the other's — the smaller signed timestamp goes first, then the smaller author key,
//! then the smaller sequence number. A timestamp can therefore never place an event before
//! anything its author had already seen. This is the one deterministic rule for races:
//! resignation against mate, an offer against a move, two claims — the first in this order
//! decides, and events that arrive after the game has ended are kept but marked as ignored.
//!
//! # What is an error and what is a recorded fact
//! Honest nodes check every action with this crate before signing it, so a signed event
//! that breaks a rule (an illegal move, a move out of turn, a reveal that does not match its
//! commitment, a broken chain) makes the whole record fail with [`VerifyError`]. Things the
//! Laws allow to go wrong are facts in the state: an incorrect draw claim (9.5b: the game goes
//! on, and an announced move is played), a sealed move that is ambiguous or illegal (A8: the
//! sealer loses), a late player (A10). Two different events with the same author and sequence
//! number are an equivocation, ruled as misconduct (12.8: the equivocator loses; 12.9: both
//! did, [`Status::Disputed`]); both signed events are the proof.
//!
//! # Where things are
//! This file holds the entry points and [`VerifyError`], with what it carries in
//! `violation.rs` ([`RuleViolation`], [`ChainBreak`]); `state.rs` the [`GameState`] they
//! return; `order.rs` the checks of the scoresheets and their merge into one timeline, and
//! the [`Checkpoint`] that continues it; `replay.rs` the replay of that timeline under the
//! rules, with its clocks (`clocks.rs`), claims (`claims.rs`), adjournments, envelopes,
//! coin, lost envelopes (`lost.rs`) and quickplay finishes (`quickplay.rs`, 10.2) in files of
//! their own.

use super::event::{EventError, EventId, SignedEvent, VerifiedEvent, verify_all};
use super::identity::PlayerId;
use std::collections::{BTreeSet, HashSet};

mod adjourned;
#[cfg(test)]
mod append_tests;
mod claims;
mod clocks;
mod coin;
mod envelopes;
mod evidence;
mod judgement;
mod lost;
mod order;
mod quickplay;
mod replay;
mod state;
mod violation;

use order::prepare;
use replay::Replay;
use state::conclude;

pub use crate::rules::adjournment::Adjournment;
pub use coin::{CoinSettlement, CoinState};
pub use judgement::Judgement;
pub use order::Checkpoint;
pub use quickplay::{QuickplayClaimRecord, QuickplayDecision};
pub use state::{
    Accepter, AnnulledBy, Annulment, ClaimRecord, DeclarationAccepted, DeclaredMove,
    DrawOfferRecord, Equivocation, Escrowed, GameState, PlayedMove, SealedEnvelope, Status,
};
pub use violation::{ChainBreak, RuleViolation};

/// The default limit for lateness at resumption (A10: one hour).
pub use crate::rules::adjournment::DEFAULT_LATENESS_MS;

/// Why a record does not verify. Every variant names the event (by id) where it can.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("no events")]
    Empty,
    #[error("event #{index}: {error}")]
    Event { index: usize, error: EventError },
    #[error("no challenge: a game starts with one")]
    NoChallenge,
    #[error("two different challenges: these events are not one game")]
    TwoChallenges,
    #[error("event {event}: belongs to another game")]
    OtherGame { event: EventId },
    #[error(
        "event {event}: {author} does not play in this game and may only sign receipts (and, \
         as the arbiter an envelope is escrowed to, its opening; as the agreed arbiter, the \
         acceptance of a declared sealed move, an annulment or a ruling on a quickplay-finish claim)"
    )]
    NotAPlayer { event: EventId, author: PlayerId },
    #[error("event {event}: broken scoresheet of {author}: {reason}")]
    BrokenChain {
        event: EventId,
        author: PlayerId,
        reason: ChainBreak,
    },
    /// A gap in an author's scoresheet: the events before `seq` from `expected_seq` on are not
    /// in the record (an incomplete copy, which more of the record fills; not a forgery).
    #[error(
        "event {event}: broken scoresheet of {author}: event {expected_seq} is missing before seq {seq}"
    )]
    Gap {
        event: EventId,
        author: PlayerId,
        expected_seq: u64,
        seq: u64,
    },
    #[error("event {event}: refers to event {missing} which is not in the record")]
    Missing { event: EventId, missing: EventId },
    /// A signed event breaks a rule: `kind` is the event's kind (its wire name), `rule`
    /// the rule, with its article ([`RuleViolation::article`]). Boxed because some rules
    /// carry a position or a refused time control, and every `Result` of the replay carries
    /// this error: the common path stays small.
    #[error("event {event} ({kind}) by {author}: {rule}")]
    Rule {
        event: EventId,
        kind: &'static str,
        author: PlayerId,
        rule: Box<RuleViolation>,
    },
}

impl VerifyError {
    /// The rule broken, for a [`VerifyError::Rule`].
    pub fn violation(&self) -> Option<&RuleViolation> {
        match self {
            VerifyError::Rule { rule, .. } => Some(rule),
            _ => None,
        }
    }

    /// The FIDE article of the rule broken, for a [`VerifyError::Rule`] that has one (see
    /// [`RuleViolation::article`]); `None` for the record's structure.
    pub fn article(&self) -> Option<&'static str> {
        self.violation().and_then(RuleViolation::article)
    }
}

/// Verifies a game's events as of the last event's time. See the module docs.
///
/// # Errors
/// A [`VerifyError`] naming the first event that breaks a rule.
pub fn verify(events: &[SignedEvent]) -> Result<GameState, VerifyError> {
    verify_at(events, None)
}

/// Like [`verify`], with the clocks computed as of `now_ms` (for "time left" displays and for
/// deciding time claims against a game's present).
///
/// # Errors
/// As [`verify`].
pub fn verify_at(events: &[SignedEvent], now_ms: Option<u64>) -> Result<GameState, VerifyError> {
    verify_incremental(&[], events, now_ms)
}

/// Like [`verify_at`] for a record of which a part has been verified before: the signatures
/// of `verified` are not checked again (a [`VerifiedEvent`] is the proof they were), those
/// of `fresh` are; then the whole record — both parts, duplicates allowed — goes through
/// the same chain, order and rules checks as [`verify`]. A node that keeps the events it has
/// already checked pays only for the new signatures (they are most of the cost).
/// `verify_incremental(&[], events, t)` is `verify_at(events, t)`; error indexes of
/// [`VerifyError::Event`] count in `fresh`.
///
/// # Errors
/// As [`verify`].
pub fn verify_incremental(
    verified: &[VerifiedEvent],
    fresh: &[SignedEvent],
    now_ms: Option<u64>,
) -> Result<GameState, VerifyError> {
    if verified.is_empty() && fresh.is_empty() {
        return Err(VerifyError::Empty);
    }
    // 1. Signatures of the fresh events (batched), decoding, de-duplication.
    let mut checked: Vec<VerifiedEvent> = Vec::with_capacity(fresh.len());
    for (index, r) in verify_all(fresh).into_iter().enumerate() {
        checked.push(r.map_err(|error| VerifyError::Event { index, error })?);
    }
    let mut unique: Vec<&VerifiedEvent> = Vec::with_capacity(verified.len() + checked.len());
    let mut seen_ids = BTreeSet::new();
    for v in verified.iter().chain(&checked) {
        if seen_ids.insert(v.id) {
            unique.push(v);
        }
    }
    verify_unique(&unique, now_ms)
}

/// [`verify_continue`] continuing `checkpoint` in place: after `Ok`, `checkpoint` is the
/// checkpoint of `verified`. After an error it is as it was when the error came from the
/// record's structure, and `None` when it came from the rules while the new events were
/// being applied at its end (then it may be half applied); the next call then replays the
/// whole record, as [`verify_continue`] does for any record that does not merely extend
/// its checkpoint — so a player who signs illegal moves costs no more than one who sends
/// events out of order.
///
/// # Errors
/// As [`verify`].
pub fn verify_extend(
    verified: &[VerifiedEvent],
    checkpoint: &mut Option<Checkpoint>,
    now_ms: Option<u64>,
) -> Result<GameState, VerifyError> {
    if verified.is_empty() {
        return Err(VerifyError::Empty);
    }
    if let Some(c) = checkpoint.as_mut()
        && let Some(done) = c.extend(verified, now_ms)
    {
        if done.is_err() {
            *checkpoint = None;
        }
        return done;
    }
    let (state, next) = verify_replay(verified, checkpoint.as_ref(), now_ms)?;
    *checkpoint = Some(next);
    Ok(state)
}

/// Like [`verify_incremental`] with every event's signature already checked, continuing the
/// replay of `from` (a [`Checkpoint`] of an earlier verification of a part of the same record)
/// when the timeline of `verified` begins with the timeline `from` replayed — the common case
/// of events added at the end: only those are replayed. Otherwise the whole record is
/// replayed. Either way the same chain, order and rules checks run and the result is the
/// state [`verify_incremental`] gives, with a checkpoint of it.
///
/// # Errors
/// As [`verify`].
pub fn verify_continue(
    verified: &[VerifiedEvent],
    from: Option<&Checkpoint>,
    now_ms: Option<u64>,
) -> Result<(GameState, Checkpoint), VerifyError> {
    if verified.is_empty() {
        return Err(VerifyError::Empty);
    }
    if let Some(done) = from.and_then(|c| c.append(verified, now_ms)) {
        return done;
    }
    verify_replay(verified, from, now_ms)
}

/// [`verify_continue`] without its fast path: merges the whole record, and replays from
/// `from` only when the timeline begins with the one it replayed.
fn verify_replay(
    verified: &[VerifiedEvent],
    from: Option<&Checkpoint>,
    now_ms: Option<u64>,
) -> Result<(GameState, Checkpoint), VerifyError> {
    let mut unique: Vec<&VerifiedEvent> = Vec::with_capacity(verified.len());
    let mut seen_ids = HashSet::with_capacity(verified.len());
    for v in verified {
        if seen_ids.insert(v.id) {
            unique.push(v);
        }
    }
    let p = prepare(&unique)?;
    // 5. Apply: from the start, or after the events the checkpoint replayed when the timeline
    //    begins with them (the replay is a function of the events in order, so continuing it
    //    gives what replaying them all again would).
    let ids: Vec<EventId> = p.order.iter().map(|&i| unique[i].id).collect();
    let (mut st, done) = match from {
        Some(c)
            if c.replay.state.game == p.game
                && ids.starts_with(&c.order)
                && !p.order[c.order.len()..]
                    .iter()
                    .any(|&i| c.replay.rejudges(unique[i])) =>
        {
            (c.replay.clone(), c.order.len())
        }
        _ => (p.replay()?, 0),
    };
    st.learn_countersignatures(&unique);
    for &i in &p.order[done..] {
        st.apply(unique[i])?;
    }
    let checkpoint = Checkpoint::new(ids, st, p.equivocations);
    Ok((checkpoint.state(now_ms), checkpoint))
}

/// Steps 2 to 5 of [`verify_at`], on events whose signatures are checked and ids unique.
fn verify_unique(unique: &[&VerifiedEvent], now_ms: Option<u64>) -> Result<GameState, VerifyError> {
    let p = prepare(unique)?;
    // 5. Apply.
    let mut st = p.replay()?;
    st.learn_countersignatures(unique);
    for i in p.order {
        st.apply(unique[i])?;
    }
    st.finish(now_ms);
    Ok(conclude(st.state, p.equivocations))
}
