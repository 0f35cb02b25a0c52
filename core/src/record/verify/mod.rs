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
//! number are an equivocation: the state is [`Status::Disputed`] and both signed events are
//! the proof.

use super::commit;
use super::event::{
    Challenge, ClaimReason, ColourChoice, EventError, EventId, EventKind, GameId, Seal,
    SealLetters, SignedEvent, StartPosition, VerifiedEvent, WireMove, verify_all,
};
use super::identity::PlayerId;
use crate::clock::{
    self, ClockAdjustment, ClockState, ClockStop, LeaveAllowance, LeavePeriod, MoveTiming,
    TimeControl,
};
use crate::position::Position;
use crate::rules::claims::{self, ClaimKind};
use crate::rules::{Edition, Outcome, Termination, adjournment, automatic_end, flag, flag_fall};
use crate::san::{Lang, to_san};
use crate::types::{Color, Move};
use std::collections::{BTreeSet, HashMap, HashSet};

mod adjourned;
mod coin;
mod envelopes;

pub use crate::rules::adjournment::Adjournment;
pub use coin::{CoinSettlement, CoinState};

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Challenged, not yet accepted (or the fair coin not yet opened).
    Pending,
    Active,
    /// A move is sealed (Appendix A) and its envelope not yet opened: no move is played until
    /// it is. The clocks stop until the agreed resumption, then follow A9 (see
    /// [`crate::rules::adjournment::clock`]).
    Adjourned,
    Finished,
    /// Declined by the opponent or aborted before it really started: no result.
    Cancelled,
    /// A player signed two different events at the same place in their scoresheet.
    Disputed,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Active => "active",
            Status::Adjourned => "adjourned",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
            Status::Disputed => "disputed",
        }
    }
}

/// A move as played, with the evidence of when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    /// English SAN in the position it was played in.
    pub san: String,
    pub by: Color,
    pub event: EventId,
    /// The mover's signed time.
    pub time_ms: u64,
    /// When the opponent's signed receipt says it reached them.
    pub received_ms: Option<u64>,
    /// The earliest countersignature: the first moment someone other than the mover signed
    /// that they held the move (a receipt by the opponent or a witness, or an opponent event
    /// that saw it). Under protocol version 2 the move counts as made then, no earlier than
    /// its signed time (the mover pays for transit, README "Time").
    pub countersigned_ms: Option<u64>,
    /// True if it came out of an envelope (Appendix A).
    pub sealed: bool,
}

/// A draw claim and how it was judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimRecord {
    pub by: Color,
    pub reason: ClaimReason,
    pub intended: Option<Move>,
    pub correct: bool,
    /// Why it is correct or not, in words.
    pub judgement: String,
    pub event: EventId,
}

/// A sealed move in its envelope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SealedEnvelope {
    pub seal: Seal,
    /// The letters the sealed move is written in, signed in the seal (App. E2/E3); `None`
    /// for a seal from before they were recorded (wire tag 10), read in either language.
    pub letters: Option<SealLetters>,
    pub sealer: Color,
    /// The ply the sealed move will be (1-based).
    pub ply: u32,
    pub event: EventId,
    pub sealed_at_ms: u64,
    /// The move as written, once opened.
    pub opened: Option<String>,
    /// The arbiter holding the opening in escrow (wire tag 18, A3), if the sealer gave it
    /// to one.
    pub escrow: Option<Escrowed>,
    /// True once the arbiter opened it (wire tag 19) rather than the sealer (tag 12).
    pub opened_by_arbiter: bool,
}

/// An envelope's opening in an arbiter's keeping (A3): see [`super::escrow`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escrowed {
    pub arbiter: PlayerId,
    /// The escrow event (tag 18).
    pub event: EventId,
    /// The opening encrypted to the arbiter ([`super::escrow::seal_box`]).
    pub sealed_box: Vec<u8>,
}

/// Proof that a player signed two different events at one place in their scoresheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equivocation {
    pub author: PlayerId,
    pub seq: u64,
    pub first: SignedEvent,
    pub second: SignedEvent,
}

/// Everything `verify` decides about a game.
#[derive(Clone, Debug)]
pub struct GameState {
    pub game: GameId,
    pub challenger: PlayerId,
    pub opponent: PlayerId,
    pub challenge: Challenge,
    /// Known once colours are settled (at acceptance, or when the fair coin is opened).
    pub white: Option<PlayerId>,
    pub black: Option<PlayerId>,
    pub time_control: TimeControl,
    /// The start position, once settled (a Chess960 draw needs the coin).
    pub start: Option<Position>,
    pub position: Position,
    pub moves: Vec<PlayedMove>,
    pub status: Status,
    pub result: Option<Outcome>,
    pub termination: Option<Termination>,
    /// A standing draw offer and who made it (9.1, A4).
    pub draw_offer: Option<Color>,
    pub envelopes: Vec<SealedEnvelope>,
    /// Each adjournment (Appendix A1), in the order sealed: the facts its verdicts are
    /// judged on (resumption, arrivals, openings, a reply in a second envelope).
    pub adjournments: Vec<Adjournment>,
    /// A11: the sealer played a move instead of opening the envelope.
    pub envelope_lost: bool,
    /// A8: why an opened sealed move could not be played, if it could not.
    pub sealed_move_error: Option<String>,
    /// When each player announced presence at resumption (A7, A9, A10).
    pub presence_ms: [Option<u64>; 2],
    pub claims: Vec<ClaimRecord>,
    pub chat: Vec<(PlayerId, u64, String)>,
    pub leave: Vec<(Color, LeavePeriod)>,
    /// The clocks as of the last event (or the time given to [`verify_at`]).
    pub clocks: Option<ClockState>,
    /// When the game started (acceptance, or the opening of the coin, or its default).
    pub started_ms: Option<u64>,
    /// The fair coin, once the opponent's share is in (see [`CoinState`]).
    pub coin: Option<CoinState>,
    pub equivocations: Vec<Equivocation>,
    /// Events in the order they were applied.
    pub timeline: Vec<EventId>,
    /// Events kept but without effect, with the reason (e.g. after the end of the game).
    pub ignored: Vec<(EventId, String)>,
    /// Receipts: event → (receiver, time).
    pub receipts: Vec<(EventId, PlayerId, u64)>,
}

impl GameState {
    /// The colour of a player in this game, if they play in it.
    pub fn colour_of(&self, p: &PlayerId) -> Option<Color> {
        if self.white.as_ref() == Some(p) {
            Some(Color::White)
        } else if self.black.as_ref() == Some(p) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The player of a colour.
    pub fn player(&self, c: Color) -> Option<PlayerId> {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The envelope not yet opened, if any: the last adjournment's, for a binding seal (the
    /// sealed move, then a reply, A9c); for a tag-10 seal the first envelope not opened, as
    /// it always was (a lost one, A11, stays unopened).
    pub fn open_envelope(&self) -> Option<&SealedEnvelope> {
        match self.adjournments.last() {
            Some(a) if a.binding => a
                .closed()
                .and_then(|w| a.envelope_of(w))
                .and_then(|i| self.envelopes.get(i)),
            _ => self.envelopes.iter().find(|e| e.opened.is_none()),
        }
    }

    /// The game's last adjournment, if it was ever adjourned.
    pub fn adjournment(&self) -> Option<&Adjournment> {
        self.adjournments.last()
    }
}

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
         as the arbiter an envelope is escrowed to, its opening)"
    )]
    NotAPlayer { event: EventId, author: PlayerId },
    #[error("event {event}: broken scoresheet of {author}: {reason}")]
    BrokenChain {
        event: EventId,
        author: PlayerId,
        reason: String,
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
    #[error("event {event} ({kind}) by {author}: {rule}")]
    Rule {
        event: EventId,
        kind: &'static str,
        author: PlayerId,
        rule: String,
    },
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

/// Where a replay of a verified record stands, to continue it when events are added (see
/// [`verify_continue`]): the timeline it replayed and the rules state after it.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    order: Vec<EventId>,
    replay: Replay,
    /// For each author, the next sequence number and the last event's id.
    tips: HashMap<PlayerId, (u64, EventId)>,
    /// The largest merge key (time, author, seq) in `order`.
    max_key: Option<MergeKey>,
    equivocations: Vec<Equivocation>,
}

/// The tie-break of [`merge`] among ready events, without the index (never needed: author
/// and seq are unique among the events merged).
type MergeKey = (u64, [u8; 32], u64);

fn merge_key(v: &VerifiedEvent) -> MergeKey {
    (v.event.time_ms, *v.event.author.as_bytes(), v.event.seq)
}

/// What [`Checkpoint::extension`] found: the new events in replay order, and the chain tips
/// and largest merge key once they are applied.
struct Extension<'a> {
    new: Vec<&'a VerifiedEvent>,
    tips: HashMap<PlayerId, (u64, EventId)>,
    max_key: Option<MergeKey>,
}

impl Checkpoint {
    fn new(order: Vec<EventId>, replay: Replay, equivocations: Vec<Equivocation>) -> Checkpoint {
        let mut tips = HashMap::new();
        let mut max_key = None;
        for id in &order {
            // Every event of the order was applied, so its time and author are known.
            if let Some(&i) = replay.position_in_timeline.get(id)
                && let Some(&(author, seq)) = replay.authors.get(i)
            {
                tips.insert(author, (seq + 1, *id));
                let key = (
                    replay.times.get(id).copied().unwrap_or(0),
                    *author.as_bytes(),
                    seq,
                );
                if max_key.is_none_or(|m| key > m) {
                    max_key = Some(key);
                }
            }
        }
        Checkpoint {
            order,
            replay,
            tips,
            max_key,
            equivocations,
        }
    }

    /// The common case of [`verify_continue`] without re-merging the record: `verified` is
    /// the checkpoint's events (each at least once) plus new ones that each extend their
    /// author's chain, depend only on events before them, and come after every event
    /// before them in the merge order's tie-break. Then [`merge`] of the whole record is
    /// the checkpoint's order followed by the new events in tie-break order (a ready event
    /// with the largest key is taken last, and no earlier event depends on it), and
    /// [`prepare`]'s checks hold for the earlier part; so replaying only the new events
    /// after the checkpoint gives exactly what the full path gives, errors included.
    /// Returns the new events in that order with the chain tips and largest key after
    /// them, or `None` when any of this does not hold: the caller takes the full path.
    /// Reads only: nothing is changed until the events are applied.
    fn extension<'a>(&self, verified: &'a [VerifiedEvent]) -> Option<Extension<'a>> {
        let st = &self.replay;
        let game = st.state.game;
        let mut held = vec![false; self.order.len()];
        let mut new: Vec<&VerifiedEvent> = Vec::new();
        let mut new_ids = HashSet::new();
        for v in verified {
            match st.position_in_timeline.get(&v.id) {
                Some(&i) => *held.get_mut(i)? = true,
                None => {
                    if new_ids.insert(v.id) {
                        new.push(v);
                    }
                }
            }
        }
        if !held.iter().all(|&h| h) {
            return None;
        }
        new.sort_by_key(|v| merge_key(v));
        let mut tips = self.tips.clone();
        let mut max_key = self.max_key;
        let mut before: HashSet<EventId> = HashSet::new();
        for v in &new {
            let e = &v.event;
            let is_player = e.author == st.state.challenger || e.author == st.state.opponent;
            let key = merge_key(v);
            let tip = tips.get(&e.author).copied();
            let follows = match tip {
                Some((seq, last)) => e.seq == seq && e.prev == Some(last),
                None => e.seq == 0 && e.prev.is_none(),
            };
            let known = |d: &EventId| st.position_in_timeline.contains_key(d) || before.contains(d);
            if st.rejudges(v)
                || matches!(e.kind, EventKind::Challenge(_))
                || e.game != Some(game)
                || (!is_player && !matches!(e.kind, EventKind::Receipt { .. }))
                || !follows
                || ![e.prev, e.seen].iter().flatten().all(known)
                || max_key.is_some_and(|m| key <= m)
            {
                return None;
            }
            tips.insert(e.author, (e.seq + 1, v.id));
            max_key = Some(key);
            before.insert(v.id);
        }
        Some(Extension { new, tips, max_key })
    }

    /// The state after the replay, as the verification functions give it.
    fn state(&self, now_ms: Option<u64>) -> GameState {
        let mut state = self.replay.state.clone();
        state.clocks = self
            .replay
            .clocks_at(now_ms.unwrap_or(self.replay.last_time));
        self.replay.annotate(&mut state);
        conclude(state, self.equivocations.clone())
    }

    /// [`Checkpoint::extend`] on a copy of this checkpoint.
    fn append(
        &self,
        verified: &[VerifiedEvent],
        now_ms: Option<u64>,
    ) -> Option<Result<(GameState, Checkpoint), VerifyError>> {
        let mut next = self.clone();
        let done = next.extend(verified, now_ms)?;
        Some(done.map(|state| (state, next)))
    }

    /// [`Checkpoint::extension`] replayed on this checkpoint itself, without the copy of the
    /// replay that [`Checkpoint::append`] makes (about 7 µs for a 200-ply game, a third of
    /// the step, done twice for each move a mailbox takes: the move and its receipt). After
    /// `Some(Err(_))` the checkpoint may be half applied: the caller drops it.
    fn extend(
        &mut self,
        verified: &[VerifiedEvent],
        now_ms: Option<u64>,
    ) -> Option<Result<GameState, VerifyError>> {
        let Extension { new, tips, max_key } = self.extension(verified)?;
        self.replay.learn_countersignatures(&new);
        for v in &new {
            if let Err(e) = self.replay.apply(v) {
                return Some(Err(e));
            }
        }
        self.order.extend(new.iter().map(|v| v.id));
        self.tips = tips;
        self.max_key = max_key;
        Some(Ok(self.state(now_ms)))
    }
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
        _ => (
            Replay::new(p.game, p.challenger, p.opponent, p.challenge, p.version)?,
            0,
        ),
    };
    st.learn_countersignatures(&unique);
    for &i in &p.order[done..] {
        st.apply(unique[i])?;
    }
    let checkpoint = Checkpoint::new(ids, st, p.equivocations);
    Ok((checkpoint.state(now_ms), checkpoint))
}

/// A record checked up to its rules: steps 2 to 4 of [`verify_at`].
struct Prepared {
    game: GameId,
    challenger: PlayerId,
    opponent: PlayerId,
    challenge: Challenge,
    /// The challenge's protocol version: the game is judged under it.
    version: u16,
    /// The timeline, as indexes of the events.
    order: Vec<usize>,
    equivocations: Vec<Equivocation>,
}

/// Steps 2 to 5 of [`verify_at`], on events whose signatures are checked and ids unique.
fn verify_unique(unique: &[&VerifiedEvent], now_ms: Option<u64>) -> Result<GameState, VerifyError> {
    let p = prepare(unique)?;
    // 5. Apply.
    let mut st = Replay::new(p.game, p.challenger, p.opponent, p.challenge, p.version)?;
    st.learn_countersignatures(unique);
    for i in p.order {
        st.apply(unique[i])?;
    }
    st.finish(now_ms);
    Ok(conclude(st.state, p.equivocations))
}

/// Steps 2 to 4 of [`verify_at`], on events whose signatures are checked and ids unique.
fn prepare(unique: &[&VerifiedEvent]) -> Result<Prepared, VerifyError> {
    // 2. The challenge names the game and its players.
    let mut challenges = unique
        .iter()
        .filter(|v| matches!(v.event.kind, EventKind::Challenge(_)));
    let root = challenges.next().ok_or(VerifyError::NoChallenge)?;
    if challenges.next().is_some() {
        return Err(VerifyError::TwoChallenges);
    }
    let game = root.id;
    let version = root.event.version;
    let challenger = root.event.author;
    let EventKind::Challenge(challenge) = root.event.kind.clone() else {
        return Err(VerifyError::NoChallenge);
    };
    let opponent = challenge.opponent;
    // A3: a player may hand an envelope to an arbiter (tag 18), who may then sign its
    // opening (tag 19) besides receipts; the replay checks the escrow and that the opening
    // is for an envelope escrowed to its author.
    let arbiters: HashSet<PlayerId> = unique
        .iter()
        .filter(|v| v.event.author == challenger || v.event.author == opponent)
        .filter_map(|v| match &v.event.kind {
            EventKind::Escrow { arbiter, .. } => Some(*arbiter),
            _ => None,
        })
        .collect();
    for v in unique {
        let for_game = match v.event.game {
            None => v.id == game,
            Some(g) => g == game,
        };
        if !for_game {
            return Err(VerifyError::OtherGame { event: v.id });
        }
        let player = v.event.author == challenger || v.event.author == opponent;
        let allowed = match v.event.kind {
            EventKind::Receipt { .. } => true,
            EventKind::ArbiterOpen { .. } => arbiters.contains(&v.event.author),
            _ => false,
        };
        if !player && !allowed {
            return Err(VerifyError::NotAPlayer {
                event: v.id,
                author: v.event.author,
            });
        }
    }
    // 3. Scoresheets: per author, seq from 0 without gaps, each `prev` the previous id.
    //    Two events at one seq are an equivocation: keep the proof, use the first by id.
    let mut by_author: HashMap<PlayerId, Vec<usize>> = HashMap::new();
    for (i, v) in unique.iter().enumerate() {
        by_author.entry(v.event.author).or_default().push(i);
    }
    let mut equivocations = Vec::new();
    let mut excluded = vec![false; unique.len()];
    let mut authors: Vec<_> = by_author.keys().copied().collect();
    authors.sort();
    for author in &authors {
        let idx = by_author
            .get_mut(author)
            .map(std::mem::take)
            .unwrap_or_default();
        let mut sorted = idx;
        sorted.sort_by_key(|&i| (unique[i].event.seq, unique[i].id));
        let mut expected_seq = 0u64;
        let mut prev: Option<EventId> = None;
        let mut last_seq: Option<u64> = None;
        for &i in &sorted {
            let e = &unique[i].event;
            if last_seq == Some(e.seq) {
                // Same author, same seq, different bytes.
                if let Some(&first) = sorted
                    .iter()
                    .find(|&&j| unique[j].event.seq == e.seq && j != i && !excluded[j])
                {
                    equivocations.push(Equivocation {
                        author: *author,
                        seq: e.seq,
                        first: unique[first].signed.clone(),
                        second: unique[i].signed.clone(),
                    });
                }
                excluded[i] = true;
                continue;
            }
            if e.seq != expected_seq {
                return Err(VerifyError::Gap {
                    event: unique[i].id,
                    author: *author,
                    expected_seq,
                    seq: e.seq,
                });
            }
            if e.prev != prev {
                return Err(VerifyError::BrokenChain {
                    event: unique[i].id,
                    author: *author,
                    reason: format!(
                        "seq {} does not follow the author's event {}",
                        e.seq,
                        expected_seq.saturating_sub(1)
                    ),
                });
            }
            prev = Some(unique[i].id);
            last_seq = Some(e.seq);
            expected_seq += 1;
        }
        by_author.insert(*author, sorted);
    }
    if by_author
        .get(&challenger)
        .and_then(|v| v.first())
        .map(|&i| unique[i].id)
        != Some(game)
    {
        return Err(VerifyError::BrokenChain {
            event: game,
            author: challenger,
            reason: "the challenge must be the challenger's first event".into(),
        });
    }
    // 4. Merge the logs (see the module docs for the order).
    let order = merge(unique, &excluded)?;
    Ok(Prepared {
        game,
        challenger,
        opponent,
        challenge,
        version,
        order,
        equivocations,
    })
}

/// An equivocation taints the whole game, whatever else happened: the record shows the moves
/// and result as merged, and the proof.
///
/// Only a *player's* equivocation disputes the game: a witness (a club mailbox, an organiser)
/// signs only receipts, which decide nothing here, so its twins are kept as proof against
/// the witness and leave the game, and the players' result, as they are.
fn conclude(mut state: GameState, equivocations: Vec<Equivocation>) -> GameState {
    let players = [state.challenger, state.opponent];
    if equivocations.iter().any(|e| players.contains(&e.author)) {
        state.status = Status::Disputed;
    }
    state.equivocations = equivocations;
    state
}

/// A topological order of the non-excluded events: `prev` and `seen` first; ties by (time,
/// author, seq).
fn merge(unique: &[&VerifiedEvent], excluded: &[bool]) -> Result<Vec<usize>, VerifyError> {
    let index: HashMap<EventId, usize> = unique
        .iter()
        .enumerate()
        .filter(|(i, _)| !excluded[*i])
        .map(|(i, v)| (v.id, i))
        .collect();
    let mut indegree = vec![0usize; unique.len()];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); unique.len()];
    for (i, v) in unique.iter().enumerate() {
        if excluded[i] {
            continue;
        }
        for dep in [v.event.prev, v.event.seen].into_iter().flatten() {
            match index.get(&dep) {
                Some(&d) => {
                    indegree[i] += 1;
                    children[d].push(i);
                }
                None => {
                    // A `prev` pointing at an equivocating twin is still a chain problem;
                    // everything else is simply absent from the record.
                    return Err(VerifyError::Missing {
                        event: v.id,
                        missing: dep,
                    });
                }
            }
        }
    }
    let key = |i: usize| {
        let e = &unique[i].event;
        (e.time_ms, *e.author.as_bytes(), e.seq, i)
    };
    let mut ready: BTreeSet<(u64, [u8; 32], u64, usize)> = (0..unique.len())
        .filter(|&i| !excluded[i] && indegree[i] == 0)
        .map(key)
        .collect();
    let mut out = Vec::with_capacity(unique.len());
    while let Some(k) = ready.pop_first() {
        let i = k.3;
        out.push(i);
        for &c in &children[i] {
            indegree[c] -= 1;
            if indegree[c] == 0 {
                ready.insert(key(c));
            }
        }
    }
    let expected = excluded.iter().filter(|&&x| !x).count();
    if out.len() != expected {
        // Hashes cannot form a cycle unless SHA-256 is broken; refuse rather than loop.
        let stuck = (0..unique.len())
            .find(|&i| !excluded[i] && !out.contains(&i))
            .map(|i| unique[i].id)
            .unwrap_or(unique[0].id);
        return Err(VerifyError::BrokenChain {
            event: stuck,
            author: unique[0].event.author,
            reason: "events refer to each other in a cycle".into(),
        });
    }
    Ok(out)
}

/// The replay of a game in timeline order.
#[derive(Clone, Debug)]
struct Replay {
    state: GameState,
    /// FIDE 9.2 identities of every position since the start (the last is the current one).
    keys: Vec<u64>,
    /// Where each event stands in the timeline.
    position_in_timeline: HashMap<EventId, usize>,
    /// Author and seq of each event, by timeline index (for [`Checkpoint`]).
    authors: Vec<(PlayerId, u64)>,
    /// For each author, the furthest timeline index of an event they had seen.
    horizon: HashMap<PlayerId, usize>,
    /// Timeline index of the last move of each colour.
    last_move_index: [Option<usize>; 2],
    /// The coin secrets: challenger's opening, opponent's share.
    coin_share: Option<[u8; 32]>,
    /// When an opening and a default of the coin raced: the player whose settlement lost
    /// and the timeline index of the one that stands (see `coin::Replay::coin_fork_ignores`).
    coin_fork: Option<(PlayerId, usize)>,
    last_time: u64,
    /// The standing draw offer was made while the game was adjourned (A4: it stands until
    /// the sealer has accepted or rejected it, even once the sealed move is played).
    offer_in_adjournment: bool,
    /// Time of each event by id, for receipts.
    times: HashMap<EventId, u64>,
    /// Protocol version 2 or later: time is evidence (see [`super::event::EVENT_VERSION`]).
    evidence: bool,
    /// Under `evidence`, each applied event's effective time: its signed time, bounded below
    /// by the effective times of the events it refers to (`prev`, `seen`).
    effective: HashMap<EventId, u64>,
    /// Under `evidence`, the earliest countersignature of each event: the smallest signed
    /// time of a receipt of it, or of an event that saw it, by someone other than its
    /// author. Learnt from the whole record before replaying it, so a verdict sees the
    /// countersignatures that come after it in the timeline.
    countersigned: HashMap<EventId, u64>,
    /// Under `evidence`, the timeline index of the first time or lateness claim: a
    /// countersignature learnt later for an event at or before it may change that verdict.
    first_timed_claim: Option<usize>,
    /// Clock corrections made by the rules (9.5b).
    adjustments: Vec<ClockAdjustment>,
    /// For each entry of `state.leave`, the event that first signed it and whether it was a
    /// new leave (re-signing one with the same start only moves its end).
    leave_events: Vec<(EventId, bool)>,
    /// Under `evidence`, the events whose counted time was recorded when they were applied:
    /// a player's arrival at a resumption (a presence, or the first move after a sealing,
    /// A7/A10). A countersignature learnt later for one of them replays the record (see
    /// [`Replay::rejudges`]), so every path records the same arrival.
    arrivals: HashSet<EventId>,
}

/// The default limit for lateness at resumption (A10: one hour).
pub use crate::rules::adjournment::DEFAULT_LATENESS_MS;

impl Replay {
    fn new(
        game: GameId,
        challenger: PlayerId,
        opponent: PlayerId,
        challenge: Challenge,
        version: u16,
    ) -> Result<Replay, VerifyError> {
        let rule = |rule: String| VerifyError::Rule {
            event: game,
            kind: "challenge",
            author: challenger,
            rule,
        };
        if opponent == challenger {
            return Err(rule("a player cannot challenge themselves".into()));
        }
        let time_control: TimeControl = challenge
            .time_control
            .parse()
            .map_err(|e: clock::TimeControlError| rule(e.to_string()))?;
        let needs_coin = challenge.colour == ColourChoice::Random
            || challenge.start == StartPosition::Chess960Random;
        if needs_coin && challenge.coin_commitment.is_none() {
            return Err(rule(
                "random colours or a drawn Chess960 position need a coin commitment".into(),
            ));
        }
        let start =
            match &challenge.start {
                StartPosition::Standard => Some(Position::new()),
                StartPosition::Chess960(n) => Some(Position::chess960(*n).ok_or_else(|| {
                    rule(format!("Chess960 position {n} does not exist (0..959)"))
                })?),
                StartPosition::Chess960Random => None,
                StartPosition::Fen(f) => Some(
                    Position::from_fen_auto(f).map_err(|e| rule(format!("start position: {e}")))?,
                ),
            };
        let (white, black) = match challenge.colour {
            ColourChoice::ChallengerWhite => (Some(challenger), Some(opponent)),
            ColourChoice::ChallengerBlack => (Some(opponent), Some(challenger)),
            ColourChoice::Random => (None, None),
        };
        let position = start.clone().unwrap_or_default();
        Ok(Replay {
            keys: vec![position.repetition_key()],
            state: GameState {
                game,
                challenger,
                opponent,
                challenge,
                white,
                black,
                time_control,
                start,
                position,
                moves: Vec::new(),
                status: Status::Pending,
                result: None,
                termination: None,
                draw_offer: None,
                envelopes: Vec::new(),
                adjournments: Vec::new(),
                envelope_lost: false,
                sealed_move_error: None,
                presence_ms: [None, None],
                claims: Vec::new(),
                chat: Vec::new(),
                leave: Vec::new(),
                clocks: None,
                started_ms: None,
                coin: None,
                equivocations: Vec::new(),
                timeline: Vec::new(),
                ignored: Vec::new(),
                receipts: Vec::new(),
            },
            position_in_timeline: HashMap::new(),
            authors: Vec::new(),
            horizon: HashMap::new(),
            last_move_index: [None, None],
            coin_share: None,
            coin_fork: None,
            last_time: 0,
            offer_in_adjournment: false,
            times: HashMap::new(),
            evidence: version >= 2,
            effective: HashMap::new(),
            countersigned: HashMap::new(),
            first_timed_claim: None,
            adjustments: Vec::new(),
            leave_events: Vec::new(),
            arrivals: HashSet::new(),
        })
    }

    /// The event a countersignature `v` vouches for, with the countersigner: a receipt's event,
    /// or the event `v` says it saw. Whether it is by someone else is checked by the caller.
    fn vouched_by(v: &VerifiedEvent) -> [Option<EventId>; 2] {
        let receipt = match v.event.kind {
            EventKind::Receipt { event } => Some(event),
            _ => None,
        };
        [receipt, v.event.seen]
    }

    /// Notes the countersignatures among `events` (see [`Replay::countersigned`]). Idempotent:
    /// the earliest wins. The author of a vouched-for event is looked up among `events` and
    /// the events already applied.
    fn learn_countersignatures(&mut self, events: &[&VerifiedEvent]) {
        if !self.evidence {
            return;
        }
        let authors: HashMap<EventId, PlayerId> =
            events.iter().map(|v| (v.id, v.event.author)).collect();
        for v in events {
            for target in Self::vouched_by(v).into_iter().flatten() {
                let author = authors.get(&target).copied().or_else(|| {
                    self.position_in_timeline
                        .get(&target)
                        .and_then(|&i| self.authors.get(i))
                        .map(|&(a, _)| a)
                });
                if author.is_some_and(|a| a != v.event.author) {
                    let t = self.countersigned.entry(target).or_insert(u64::MAX);
                    *t = (*t).min(v.event.time_ms);
                }
            }
        }
    }

    /// Whether learning `v` as a countersignature could change a verdict already given: it
    /// vouches for an event at or before the first time or lateness claim (which was judged
    /// on the evidence known then). The incremental paths replay the whole record instead.
    fn rejudges(&self, v: &VerifiedEvent) -> bool {
        if self.first_timed_claim.is_none() && self.arrivals.is_empty() {
            return false;
        }
        let claim = self.first_timed_claim;
        Self::vouched_by(v).into_iter().flatten().any(|target| {
            self.position_in_timeline.get(&target).is_some_and(|&i| {
                self.authors[i].0 != v.event.author
                    && (claim.is_some_and(|c| i <= c) || self.arrivals.contains(&target))
            })
        })
    }

    /// When an event that helps its author by being early (a move) counts as made: its
    /// effective time, or its first countersignature if later — it could not be shown to
    /// exist before that. Under protocol version 1, its signed time `t`.
    fn counted_at(&self, id: &EventId, t: u64) -> u64 {
        if !self.evidence {
            return t;
        }
        let eff = self.effective.get(id).copied().unwrap_or(t);
        self.countersigned.get(id).map_or(eff, |&c| c.max(eff))
    }

    /// When a claim that helps its claimant by being late (on time, 6.9; lateness, A10) is
    /// judged: its effective time, or its first countersignature if earlier — a claim dated
    /// ahead of the clock of whoever first held it is judged at that moment. Under protocol
    /// version 1, its signed time `t`.
    fn judged_at(&self, id: &EventId, t: u64) -> u64 {
        if !self.evidence {
            return t;
        }
        let eff = self.effective.get(id).copied().unwrap_or(t);
        self.countersigned.get(id).map_or(eff, |&c| c.min(eff))
    }

    fn over(&self) -> bool {
        matches!(self.state.status, Status::Finished | Status::Cancelled)
    }

    fn end(&mut self, outcome: Outcome, termination: Termination) {
        self.state.status = Status::Finished;
        self.state.result = Some(outcome);
        self.state.termination = Some(termination);
        self.state.draw_offer = None;
    }

    fn apply(&mut self, v: &VerifiedEvent) -> Result<(), VerifyError> {
        let e = &v.event;
        let index = self.state.timeline.len();
        self.state.timeline.push(v.id);
        self.position_in_timeline.insert(v.id, index);
        self.authors.push((e.author, e.seq));
        self.times.insert(v.id, e.time_ms);
        self.last_time = self.last_time.max(e.time_ms);
        if self.evidence {
            // An event cannot be older than what it refers to (both are before it here).
            let floor = [e.prev, e.seen]
                .into_iter()
                .flatten()
                .filter_map(|d| self.effective.get(&d).copied())
                .max()
                .unwrap_or(0);
            self.effective.insert(v.id, e.time_ms.max(floor));
            self.learn_countersignatures(&[v]);
        }
        if let Some(seen) = e
            .seen
            .and_then(|s| self.position_in_timeline.get(&s).copied())
        {
            let h = self.horizon.entry(e.author).or_insert(0);
            *h = (*h).max(seen);
        }
        let author = e.author;
        let rule = |rule: String| VerifyError::Rule {
            event: v.id,
            kind: e.kind.name(),
            author,
            rule,
        };
        // Receipts and chat are facts whenever they come.
        match &e.kind {
            EventKind::Receipt { event } => {
                self.state.receipts.push((*event, author, e.time_ms));
                // The opponent's receipt is when a move reached them (clock evidence).
                if let Some(m) = self.state.moves.iter_mut().find(|m| m.event == *event) {
                    let receiver_is_opponent = match m.by {
                        Color::White => self.state.black == Some(author),
                        Color::Black => self.state.white == Some(author),
                    };
                    if receiver_is_opponent && m.received_ms.is_none() {
                        m.received_ms = Some(e.time_ms.max(m.time_ms));
                    }
                }
                return Ok(());
            }
            EventKind::Chat { text } => {
                self.state.chat.push((author, e.time_ms, text.clone()));
                return Ok(());
            }
            _ => {}
        }
        if self.coin_fork_ignores(v) {
            return Ok(());
        }
        if self.over() {
            self.state
                .ignored
                .push((v.id, format!("{} after the end of the game", e.kind.name())));
            return Ok(());
        }
        let me = if author == self.state.challenger || author == self.state.opponent {
            self.state.colour_of(&author)
        } else {
            None
        };
        match &e.kind {
            EventKind::Challenge(_) => {
                if index != 0 {
                    return Err(rule("the challenge must come first".into()));
                }
            }
            EventKind::Accept(a) => {
                if author != self.state.opponent || self.state.status != Status::Pending {
                    return Err(rule("only the challenged player accepts, once".into()));
                }
                if self.state.challenge.coin_commitment.is_some() {
                    self.coin_share =
                        Some(a.coin_share.ok_or_else(|| {
                            rule("the acceptance must carry a coin share".into())
                        })?);
                    self.coin_accepted(v.id, e.time_ms);
                } else {
                    self.start_game(e.time_ms);
                }
            }
            EventKind::RandomReveal { secret } => {
                let Some(share) = self.coin_share else {
                    return Err(rule("nothing to open: no accepted coin".into()));
                };
                if self.coin_opening_ignored(v) {
                    return Ok(());
                }
                if author != self.state.challenger || self.state.status != Status::Pending {
                    return Err(rule("only the challenger opens the coin, once".into()));
                }
                if Some(commit::coin_commitment(secret)) != self.state.challenge.coin_commitment {
                    return Err(rule(
                        "the coin opening does not match its commitment".into(),
                    ));
                }
                let coin = commit::coin(&self.state.game, secret, &share);
                if self.state.challenge.colour == ColourChoice::Random {
                    let (c, o) = (self.state.challenger, self.state.opponent);
                    if commit::challenger_is_white(&coin) {
                        (self.state.white, self.state.black) = (Some(c), Some(o));
                    } else {
                        (self.state.white, self.state.black) = (Some(o), Some(c));
                    }
                }
                if self.state.challenge.start == StartPosition::Chess960Random {
                    let n = commit::chess960_position(&coin);
                    let p = Position::chess960(n)
                        .ok_or_else(|| rule(format!("no Chess960 position {n}")))?;
                    self.keys = vec![p.repetition_key()];
                    self.state.position = p.clone();
                    self.state.start = Some(p);
                }
                self.coin_settled(CoinSettlement::Opened { event: v.id });
                self.start_game(e.time_ms);
            }
            EventKind::Decline { .. } => {
                if author != self.state.opponent || self.state.status != Status::Pending {
                    return Err(rule(
                        "only the challenged player declines a pending game".into(),
                    ));
                }
                self.state.status = Status::Cancelled;
            }
            EventKind::Abort => {
                if self.coin_abort_ignored(v) {
                    return Ok(());
                }
                // Before Black's first move, like lichess and chess.com.
                if self.state.moves.len() >= 2 {
                    return Err(rule(
                        "a game can be aborted only before Black's first move".into(),
                    ));
                }
                self.state.status = Status::Cancelled;
            }
            EventKind::Move(w) => {
                let me = self.require_player(me, &rule)?;
                match self.state.status {
                    Status::Active | Status::Disputed => {}
                    Status::Adjourned => {
                        // A11: the sealer, unable to open the envelope, plays the move
                        // they declare they sealed; the record shows it. Only for a seal
                        // from before the move was binding (tag 10): with no arbiter holding
                        // the envelope, "lost" would be the sealer's free choice of another
                        // move, so a tag-17 seal is continued only by its opening (or ends
                        // by A10/A8 when the sealer cannot produce it).
                        let open = self.state.open_envelope();
                        let sealer = open.map(|s| s.sealer);
                        if open.is_some_and(|s| s.letters.is_some()) && sealer == Some(me) {
                            return Err(rule(
                                "the sealed move is binding: the game continues only with the \
                                 envelope's opening (A11 without an arbiter's envelope)"
                                    .into(),
                            ));
                        }
                        if sealer != Some(me) || self.state.presence_ms[(!me).index()].is_none() {
                            return Err(rule(
                                "the game is adjourned: the sealed move is opened first (A7)"
                                    .into(),
                            ));
                        }
                        self.state.envelope_lost = true;
                        self.resume(e.time_ms);
                    }
                    s => return Err(rule(format!("no move in a {} game", s.name()))),
                }
                self.play_checked(*w, me, v.id, e.time_ms, index, author, &rule, false)?;
                if self.evidence
                    && self
                        .state
                        .adjournments
                        .last()
                        .is_some_and(|a| a.binding && a.arrived_ms[me.index()].is_none())
                {
                    self.arrivals.insert(v.id);
                }
                self.record_move(me, self.counted_at(&v.id, e.time_ms));
            }
            EventKind::DrawOffer => {
                let me = self.require_player(me, &rule)?;
                self.require_live(&rule)?;
                if self.state.draw_offer == Some(!me) {
                    // Both sides offered: that is agreement.
                    self.end(Outcome::Draw, Termination::Agreement);
                } else {
                    self.state.draw_offer = Some(me);
                    self.offer_in_adjournment = self.state.status == Status::Adjourned;
                }
            }
            EventKind::DrawAccept => {
                let me = self.require_player(me, &rule)?;
                self.require_live(&rule)?;
                if self.state.draw_offer != Some(!me) {
                    return Err(rule(
                        "no standing draw offer from the opponent (9.1)".into(),
                    ));
                }
                // A6: agreement before resumption ends the game; the envelope stays closed.
                self.end(Outcome::Draw, Termination::Agreement);
            }
            EventKind::DrawDecline => {
                let me = self.require_player(me, &rule)?;
                if self.state.draw_offer != Some(!me) {
                    return Err(rule(
                        "no standing draw offer from the opponent (9.1)".into(),
                    ));
                }
                self.state.draw_offer = None;
            }
            EventKind::Resign => {
                let me = self.require_player(me, &rule)?;
                self.require_live(&rule)?;
                // A6: resignation before resumption ends the game without opening.
                self.end(Outcome::Decisive { winner: !me }, Termination::Resignation);
            }
            EventKind::Claim(c) => {
                let me = self.require_player(me, &rule)?;
                self.require_live(&rule)?;
                self.claim(
                    c.reason, c.intended, me, v.id, e.time_ms, index, author, &rule,
                )?;
            }
            EventKind::Seal(seal) => {
                let me = self.require_player(me, &rule)?;
                self.seal(seal, None, me, v.id, e.time_ms, author, &rule)?;
            }
            EventKind::SealIn { letters, seal } => {
                let me = self.require_player(me, &rule)?;
                self.seal(seal, Some(*letters), me, v.id, e.time_ms, author, &rule)?;
            }
            EventKind::Presence => {
                let me = self.require_player(me, &rule)?;
                // An arrival counts from its first countersignature (protocol version 2): a
                // presence dated back to before the limit but shown only after it is late.
                if self.evidence {
                    self.arrivals.insert(v.id);
                }
                self.record_presence(me, self.counted_at(&v.id, e.time_ms));
            }
            EventKind::Reveal(r) => {
                let me = self.require_player(me, &rule)?;
                let opening = envelopes::Opening {
                    move_text: &r.move_text,
                    salt: &r.salt,
                    id: v.id,
                    t: e.time_ms,
                    index,
                };
                self.reveal(opening, me, &rule)?;
            }
            EventKind::Escrow {
                seal,
                arbiter,
                sealed_box,
            } => {
                let me = self.require_player(me, &rule)?;
                self.escrow(seal, arbiter, sealed_box, v.id, me, &rule)?;
            }
            EventKind::ArbiterOpen {
                seal,
                move_text,
                salt,
            } => {
                let opening = envelopes::Opening {
                    move_text,
                    salt,
                    id: v.id,
                    t: e.time_ms,
                    index,
                };
                self.arbiter_open(seal, opening, author, &rule)?;
            }
            EventKind::Leave { from_ms, until_ms } => {
                let me = self.require_player(me, &rule)?;
                let requested = LeavePeriod {
                    from_ms: *from_ms,
                    to_ms: *until_ms,
                };
                // A leave signed again with the same start changes its end (ending a
                // vacation early, or extending it within the allowance).
                let same_start = self
                    .state
                    .leave
                    .iter()
                    .position(|(c, p)| *c == me && p.from_ms == *from_ms);
                let taken: Vec<LeavePeriod> = self
                    .state
                    .leave
                    .iter()
                    .enumerate()
                    .filter(|(i, (c, _))| *c == me && Some(*i) != same_start)
                    .map(|(_, (_, p))| *p)
                    .collect();
                let epoch = self.state.started_ms.unwrap_or(0);
                // A new leave cannot stop time already past (a fallen flag stays fallen);
                // re-signing one with the same start only moves its end.
                if same_start.is_none()
                    && let Err(err) = super::time::check_leave_start(*from_ms, e.time_ms)
                {
                    self.state
                        .ignored
                        .push((v.id, format!("leave refused: {err}")));
                    return Ok(());
                }
                match LeaveAllowance::default().check(epoch, &taken, requested) {
                    Ok(()) => match same_start {
                        Some(i) => self.state.leave[i] = (me, requested),
                        None => {
                            self.state.leave.push((me, requested));
                            self.leave_events.push((v.id, true));
                        }
                    },
                    Err(err) => self
                        .state
                        .ignored
                        .push((v.id, format!("leave refused: {err}"))),
                }
            }
            EventKind::CoinDefault { colour, position } => {
                self.coin_default(*colour, *position, v, &rule)?;
            }
            EventKind::Receipt { .. } | EventKind::Chat { .. } => {}
        }
        Ok(())
    }

    fn require_player(
        &self,
        me: Option<Color>,
        rule: &dyn Fn(String) -> VerifyError,
    ) -> Result<Color, VerifyError> {
        me.ok_or_else(|| rule("colours are not settled yet (coin not opened)".into()))
    }

    fn require_live(&self, rule: &dyn Fn(String) -> VerifyError) -> Result<(), VerifyError> {
        match self.state.status {
            Status::Active | Status::Adjourned | Status::Disputed => Ok(()),
            s => Err(rule(format!("not possible in a {} game", s.name()))),
        }
    }

    fn start_game(&mut self, t: u64) {
        self.state.status = Status::Active;
        self.state.started_ms = Some(t);
    }

    /// Checks that `me` may move now: it is their turn, and they had seen the opponent's last
    /// move (a move answers a specific opponent move).
    fn check_turn(
        &self,
        me: Color,
        author: PlayerId,
        rule: &dyn Fn(String) -> VerifyError,
    ) -> Result<(), VerifyError> {
        if self.state.position.turn() != me {
            return Err(rule(format!(
                "out of turn: it is {}'s move",
                self.state.position.turn().name()
            )));
        }
        if let Some(last) = self.last_move_index[(!me).index()] {
            let horizon = self.horizon.get(&author).copied();
            if horizon.is_none_or(|h| h < last) {
                return Err(rule(
                    "the move does not answer the opponent's last move (it was not seen)".into(),
                ));
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn play_checked(
        &mut self,
        w: WireMove,
        me: Color,
        id: EventId,
        t: u64,
        index: usize,
        author: PlayerId,
        rule: &dyn Fn(String) -> VerifyError,
        sealed: bool,
    ) -> Result<(), VerifyError> {
        self.check_turn(me, author, rule)?;
        let m = w.to_move(&self.state.position).ok_or_else(|| {
            rule(format!(
                "illegal move {}{} in {}",
                crate::Square::new(w.from.min(63)),
                crate::Square::new(w.to.min(63)),
                self.state.position.fen()
            ))
        })?;
        self.play(m, me, id, t, index, sealed);
        Ok(())
    }

    fn play(&mut self, m: Move, me: Color, id: EventId, t: u64, index: usize, sealed: bool) {
        let san = to_san(&self.state.position, m, Lang::English);
        self.state.position.play_unchecked(m);
        self.keys.push(self.state.position.repetition_key());
        self.state.moves.push(PlayedMove {
            mv: m,
            san,
            by: me,
            event: id,
            time_ms: t,
            received_ms: None,
            countersigned_ms: None,
            sealed,
        });
        self.last_move_index[me.index()] = Some(index);
        // 9.1: an offer stands until the player it was made to moves; A4: one made to the
        // sealer during the adjournment stands until the sealer answers it, the sealed move
        // notwithstanding (binding envelopes, tag 17; older ones keep 9.1 alone).
        let a4 = sealed
            && self.offer_in_adjournment
            && self
                .state
                .envelopes
                .iter()
                .rev()
                .find(|e| e.opened.is_some())
                .is_some_and(|e| e.letters.is_some());
        if self.state.draw_offer == Some(!me) && !a4 {
            self.state.draw_offer = None;
        }
        let current = self.keys.last().copied().unwrap_or(0);
        let reps = self.keys.iter().filter(|&&k| k == current).count() as u32;
        if let Some((outcome, termination)) = automatic_end(&self.state.position, reps) {
            self.end(outcome, termination);
        }
    }

    fn clock_inputs(&self, upto_ms: u64) -> (Vec<MoveTiming>, Vec<ClockStop>) {
        let mut moves = self
            .state
            .moves
            .iter()
            .map(|m| {
                if self.evidence {
                    // The mover pays for transit: the move is made, and reaches the
                    // opponent, when it was first countersigned (README "Time").
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
        (moves, stops)
    }

    fn clocks_at(&self, t: u64) -> Option<ClockState> {
        let start = self.state.started_ms?;
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
            &self.adjustments,
            t,
        ))
    }

    /// The output's view of the evidence: each move's first countersignature, and the leave
    /// refused because it was shown to exist only after its start ([`Replay::leave_refusal`]).
    fn annotate(&self, state: &mut GameState) {
        if !self.evidence {
            return;
        }
        for m in &mut state.moves {
            m.countersigned_ms = self.countersigned.get(&m.event).copied();
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
            .saturating_sub(super::time::MAX_CLOCK_SKEW_MS);
        LeavePeriod {
            from_ms: period.from_ms.max(earliest),
            to_ms: period.to_ms,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn claim(
        &mut self,
        reason: ClaimReason,
        intended: Option<WireMove>,
        me: Color,
        id: EventId,
        t: u64,
        index: usize,
        author: PlayerId,
        rule: &dyn Fn(String) -> VerifyError,
    ) -> Result<(), VerifyError> {
        let pos = self.state.position.clone();
        let intended_move = match intended {
            None => None,
            Some(w) => Some(
                w.to_move(&pos)
                    .ok_or_else(|| rule("the intended move is illegal".into()))?,
            ),
        };
        // Under protocol version 2 a claim that gains by being late is judged no later than
        // its first countersignature (README "Time").
        let at = match reason {
            ClaimReason::Time | ClaimReason::Lateness => {
                if self.evidence && self.first_timed_claim.is_none() {
                    self.first_timed_claim = Some(index);
                }
                self.judged_at(&id, t)
            }
            _ => t,
        };
        let draw_kind = match reason {
            ClaimReason::Threefold => Some(ClaimKind::Threefold),
            ClaimReason::FiftyMoves => Some(ClaimKind::FiftyMoves),
            _ => None,
        };
        let (correct, judgement, ending) = match reason {
            ClaimReason::Threefold | ClaimReason::FiftyMoves => {
                // 9.2 / 9.3: only the player to move claims.
                if pos.turn() != me {
                    return Err(rule(
                        "only the player to move may claim a draw (9.2, 9.3)".into(),
                    ));
                }
                if self.state.status == Status::Adjourned {
                    return Err(rule("the game is adjourned".into()));
                }
                let kind = draw_kind.unwrap_or(ClaimKind::Threefold);
                match claims::judge_draw_claim(kind, &pos, &self.keys, intended_move) {
                    Ok(ground) => (
                        true,
                        ground.to_string(),
                        Some((Outcome::Draw, ground.termination())),
                    ),
                    Err(why) => (false, why.to_string(), None),
                }
            }
            ClaimReason::Time => self.judge_time(me, at, &pos),
            ClaimReason::DeadPosition => match claims::judge_dead_position(&pos) {
                Ok(ground) => (
                    true,
                    ground.to_string(),
                    Some((Outcome::Draw, ground.termination())),
                ),
                Err(why) => (false, why.to_string(), None),
            },
            ClaimReason::Lateness => self.judge_lateness(me, at),
        };
        if self.evidence
            && !correct
            && let Some(kind) = draw_kind
        {
            // 9.5b: an incorrect 9.2/9.3 claim gives the opponent time (and, in 2005, takes
            // some from the claimant); 9.1b/9.1c: it stands as the claimant's draw offer.
            let left = self.clocks_at(at).map_or(0, |c| c.remaining_ms[me.index()]);
            let (bonus, taken) = claims::incorrect_claim_penalty(Edition::PLAY, left);
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
            if claims::claim_is_draw_offer(kind) {
                self.state.draw_offer = Some(me);
            }
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
                        return Err(rule(
                            "the game is adjourned: the sealed move is opened first (A7)".into(),
                        ));
                    }
                    self.check_turn(me, author, rule)?;
                    self.play(m, me, id, t, index, false);
                }
            }
        }
        Ok(())
    }

    /// A claim of a win on time by `me`, judged at `at` (6.9 with 6.8 and 6.11, see
    /// [`flag::judge_time_claim`]). Under protocol version 2, a move by the flagged side
    /// counted after the claim (a back-dated move delivered late) is kept as evidence only.
    fn judge_time(
        &mut self,
        me: Color,
        at: u64,
        pos: &Position,
    ) -> (bool, String, Option<(Outcome, Termination)>) {
        let Some(clocks) = self.clocks_at(at) else {
            return (
                false,
                format!("{}'s time had not run out (6.9)", (!me).name()),
                None,
            );
        };
        if !self.evidence {
            // Protocol version 1: the opponent to move with no time left.
            return if clocks.can_claim_time_forfeit(me) {
                (
                    true,
                    format!("{}'s time had run out (6.9)", (!me).name()),
                    Some(flag_fall(pos, !me)),
                )
            } else {
                (
                    false,
                    format!("{}'s time had not run out (6.9)", (!me).name()),
                    None,
                )
            };
        }
        let fell_at = clocks.flag_at_ms.unwrap_or(u64::MAX);
        let moved_since = self.state.moves.iter().any(|m| {
            let counted = self.counted_at(&m.event, m.time_ms);
            m.by == me && counted > fell_at && counted <= at
        });
        match flag::judge_time_claim(&clocks, me, moved_since) {
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
                    format!("{}'s time had run out (6.9)", (!me).name()),
                    Some(flag_fall(pos, !me)),
                )
            }
            Err(why) => (false, why.to_string(), None),
        }
    }

    fn finish(&mut self, now_ms: Option<u64>) {
        let at = now_ms.unwrap_or(self.last_time);
        self.state.clocks = self.clocks_at(at);
        if self.evidence {
            let mut state = self.state.clone();
            self.annotate(&mut state);
            self.state = state;
        }
    }
}

#[cfg(test)]
mod append_tests {
    //! The fast path of [`verify_continue`] ([`Checkpoint::append`]) is taken when events
    //! extend the record at its end, refused otherwise, and agrees with the full replay
    //! (the property test `continued_replay_gives_the_full_replay` in `tests/verify_props.rs`
    //! compares every outcome).
    use super::*;
    use crate::record::Keypair;
    use crate::record::author::Scoresheet;

    /// Challenge, accept, then 1.e4 e5 2.Cf3 with receipts, in signing order.
    fn game() -> Vec<VerifiedEvent> {
        let (w, b) = (
            Keypair::from_secret_bytes(&[1; 32]),
            Keypair::from_secret_bytes(&[2; 32]),
        );
        let ch = Challenge {
            opponent: b.player_id(),
            colour: ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            start: StartPosition::Standard,
            coin_commitment: None,
            league: None,
        };
        let t0 = 1_800_000_000_000u64;
        let (mut ws, ch) = Scoresheet::challenge(w, ch, t0).expect("sign");
        let mut bs = Scoresheet::join(b, ws.game());
        bs.saw(ch.id());
        let acc = bs.accept(None, t0 + 1).expect("sign");
        ws.saw(acc.id());
        let mut out = vec![ch, acc];
        let mut pos = Position::new();
        let mut t = t0 + 10;
        for (i, text) in ["e4", "e5", "Nf3"].iter().enumerate() {
            let m = crate::san::parse_san(&pos, text, Lang::English).expect("legal");
            let (me, other) = if i % 2 == 0 {
                (&mut ws, &mut bs)
            } else {
                (&mut bs, &mut ws)
            };
            t += 1000;
            let ev = me.play(m, t).expect("sign");
            pos.play_unchecked(m);
            other.saw(ev.id());
            let r = other.receipt(ev.id(), t + 10).expect("sign");
            me.saw(r.id());
            out.extend([ev, r]);
        }
        out.iter().map(|e| e.verify().expect("valid")).collect()
    }

    #[test]
    fn events_at_the_end_are_replayed_alone() {
        let all = game();
        let (_, c) = verify_continue(&all[..4], None, None).expect("valid");
        // Duplicates and any arrival order of the known part are fine.
        let mut held: Vec<VerifiedEvent> = all.iter().rev().cloned().collect();
        held.push(all[0].clone());
        let fast = c.append(&held, None).expect("fast path").expect("valid");
        let full = verify_incremental(&all, &[], None).expect("valid");
        assert_eq!(format!("{:?}", fast.0), format!("{full:?}"));
        assert_eq!(fast.1.order, full.timeline);
    }

    #[test]
    fn anything_else_takes_the_full_path() {
        let all = game();
        let (_, c) = verify_continue(&all[..6], None, None).expect("valid");
        // A known event missing from the record.
        assert!(c.append(&all[1..], None).is_none());
        // A new event whose author's previous event is not held (a gap in the chain).
        let mut gap = all[..6].to_vec();
        gap.push(all[7].clone());
        assert!(c.append(&gap, None).is_none());
        assert!(matches!(
            verify_continue(&gap, Some(&c), None),
            Err(VerifyError::BrokenChain { .. } | VerifyError::Missing { .. })
        ));
        let mut two = all.clone();
        two.push(all[0].clone());
        let (_, whole) = verify_continue(&all, None, None).expect("valid");
        assert!(
            whole.append(&two, None).is_some(),
            "a duplicate is no new event"
        );
    }

    #[test]
    fn an_illegal_appended_event_fails_as_in_the_full_path() {
        let all = game();
        let (_, c) = verify_continue(&all[..4], None, None).expect("valid");
        // After 1.e4 and Black's receipt, White signs a second move out of turn (Art. 1.2:
        // the players move alternately).
        let w = Keypair::from_secret_bytes(&[1; 32]);
        let mut ws = Scoresheet::resume(w, all[0].id, 2, Some(all[2].id), Some(all[3].id));
        let bad = crate::san::parse_san(&Position::new(), "d4", Lang::English).expect("legal");
        let ev = ws.play(bad, 1_800_000_005_000).expect("sign");
        let mut held = all[..4].to_vec();
        held.push(ev.verify().expect("valid"));
        let fast = c.append(&held, None).expect("fast path");
        let full = verify_incremental(&held, &[], None);
        assert!(fast.is_err());
        assert_eq!(fast.map(|_| ()), full.map(|_| ()));
        // In place: the same error, the half-applied checkpoint dropped, and the next call
        // replays the record from the start.
        let mut in_place = Some(c);
        let err = verify_extend(&held, &mut in_place, None).map(|_| ());
        assert_eq!(err, verify_incremental(&held, &[], None).map(|_| ()));
        assert!(in_place.is_none());
        let state = verify_extend(&all, &mut in_place, None).expect("valid");
        let full = verify_incremental(&all, &[], None).expect("valid");
        assert_eq!(format!("{state:?}"), format!("{full:?}"));
        assert_eq!(in_place.map(|c| c.order), Some(full.timeline));
    }

    #[test]
    fn extending_in_place_gives_what_appending_gives() {
        let all = game();
        let (_, c) = verify_continue(&all[..4], None, None).expect("valid");
        let (appended, next) = c.append(&all, None).expect("fast path").expect("valid");
        let mut in_place = Some(c);
        let state = verify_extend(&all, &mut in_place, None).expect("valid");
        assert_eq!(format!("{state:?}"), format!("{appended:?}"));
        let c = in_place.expect("kept");
        assert_eq!(c.order, next.order);
        assert_eq!(c.tips, next.tips);
        assert_eq!(c.max_key, next.max_key);
        // A record that is not an extension (a known event missing) leaves it as it was.
        let before = c.order.clone();
        let mut in_place = Some(c);
        assert!(verify_extend(&all[1..], &mut in_place, None).is_err());
        assert_eq!(in_place.map(|c| c.order), Some(before));
    }
}
