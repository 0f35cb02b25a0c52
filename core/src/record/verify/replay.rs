//! The replay of a game in timeline order: the rules state ([`Replay`]), the evidence of time it
//! keeps (countersignatures, effective times), and [`Replay::apply`], which applies one event.
//! Clocks, claims, adjournments, envelopes, the coin and the evidence of time (`evidence.rs`)
//! are `impl Replay` blocks in files of their own.

use super::coin::CoinSettlement;
use super::envelopes;
use super::state::{DrawOfferRecord, GameState, PlayedMove, Status};
use super::violation::RuleViolation as V;
use super::{RuleViolation, VerifyError};
use crate::clock::{self, ClockAdjustment, LeaveAllowance, LeavePeriod, TimeControl};
use crate::notation::san::{Lang, to_san};
use crate::outcome::Outcome;
use crate::position::Position;
use crate::record::commit;
use crate::record::event::{
    Challenge, ColourChoice, EventId, EventKind, GameId, StartPosition, VerifiedEvent, WireMove,
};
use crate::record::identity::PlayerId;
use crate::record::terms::Terms;
use crate::record::time;
use crate::rules::{Termination, automatic_end};
use crate::types::{Color, Move};
use std::collections::{HashMap, HashSet};

/// The replay of a game in timeline order.
#[derive(Clone, Debug)]
pub(super) struct Replay {
    pub(super) state: GameState,
    /// FIDE 9.2 identities of every position since the start (the last is the current one).
    pub(super) keys: Vec<u64>,
    /// Where each event stands in the timeline.
    pub(super) position_in_timeline: HashMap<EventId, usize>,
    /// Author and seq of each event, by timeline index (for [`super::Checkpoint`]).
    pub(super) authors: Vec<(PlayerId, u64)>,
    /// For each author, the furthest timeline index of an event they had seen.
    pub(super) horizon: HashMap<PlayerId, usize>,
    /// Timeline index of the last move of each colour.
    pub(super) last_move_index: [Option<usize>; 2],
    /// The coin secrets: challenger's opening, opponent's share.
    pub(super) coin_share: Option<[u8; 32]>,
    /// When an opening and a default of the coin raced: the player whose settlement lost
    /// and the timeline index of the one that stands (see `coin::Replay::coin_fork_ignores`).
    pub(super) coin_fork: Option<(PlayerId, usize)>,
    pub(super) last_time: u64,
    /// The standing draw offer was made while the game was adjourned (A4: it stands until
    /// the sealer has accepted or rejected it, even once the sealed move is played).
    pub(super) offer_in_adjournment: bool,
    /// Time of each event by id, for receipts.
    pub(super) times: HashMap<EventId, u64>,
    /// Protocol version 2 or later: time is evidence (see [`crate::record::event::EVENT_VERSION`]).
    pub(super) evidence: bool,
    /// Under `evidence`, each applied event's effective time: its signed time, bounded below
    /// by the effective times of the events it refers to (`prev`, `seen`).
    pub(super) effective: HashMap<EventId, u64>,
    /// Under `evidence`, the earliest countersignature of each event: the smallest signed
    /// time of a receipt of it, or of an event that saw it, by someone other than its
    /// author. Learnt from the whole record before replaying it, so a verdict sees the
    /// countersignatures that come after it in the timeline.
    pub(super) countersigned: HashMap<EventId, u64>,
    /// Under `evidence`, the earliest countersignature of each event by a witness: someone
    /// who is neither of the two players (a mailbox, an arbiter), with nothing to gain from
    /// any verdict's time (see [`Replay::judged_at`]).
    pub(super) witnessed: HashMap<EventId, u64>,
    /// Under `evidence`, the timeline index of the latest time or lateness claim: a
    /// countersignature learnt later for an event at or before it may change a verdict.
    pub(super) timed_claim: Option<usize>,
    /// Protocol version 3 or later: agreed time (docs/time.md). Events count at their
    /// timekeepers' receipts ([`Replay::stamped`]) when the terms name timekeepers, and
    /// within the time control's transit allowance of their signed time otherwise.
    pub(super) agreed: bool,
    /// [`crate::clock::TimeControl::transit_allowance_ms`] of the game's time control.
    pub(super) allowance: u64,
    /// Under `agreed`, the earliest receipt of each event by an agreed timekeeper.
    pub(super) stamped: HashMap<EventId, u64>,
    /// The event that started the game's clocks (the acceptance, or the coin's settlement)
    /// and its author: the start is when it reached the first player to move.
    pub(super) start_event: Option<(EventId, PlayerId)>,
    /// Under `agreed`, events whose evidence time a verdict used when they were applied (the
    /// acceptance that set a coin's deadline, a seal's resumption notice): a
    /// countersignature of one learnt later replays the record.
    pub(super) frozen: HashSet<EventId>,
    /// Clock corrections made by the rules (9.5b).
    pub(super) adjustments: Vec<ClockAdjustment>,
    /// For each entry of `state.leave`, the event that first signed it and whether it was a
    /// new leave (re-signing one with the same start only moves its end).
    pub(super) leave_events: Vec<(EventId, bool)>,
    /// Under `evidence`, the events whose counted time was recorded when they were applied:
    /// a player's arrival at a resumption (a presence, or the first move after a sealing,
    /// A7/A10). A countersignature learnt later for one of them replays the record (see
    /// [`Replay::rejudges`]), so every path records the same arrival.
    pub(super) arrivals: HashSet<EventId>,
}

impl Replay {
    pub(super) fn new(
        game: GameId,
        challenger: PlayerId,
        opponent: PlayerId,
        challenge: Challenge,
        terms: Option<Terms>,
        version: u16,
    ) -> Result<Replay, VerifyError> {
        let rule = |rule: RuleViolation| VerifyError::Rule {
            event: game,
            kind: "challenge",
            author: challenger,
            rule: Box::new(rule),
        };
        if opponent == challenger {
            return Err(rule(V::SelfChallenge));
        }
        let time_control: TimeControl = challenge
            .time_control
            .parse()
            .map_err(|e: clock::TimeControlError| rule(e.into()))?;
        let needs_coin = challenge.colour == ColourChoice::Random
            || challenge.start == StartPosition::Chess960Random;
        if needs_coin && challenge.coin_commitment.is_none() {
            return Err(rule(V::CoinCommitmentMissing));
        }
        let start = match &challenge.start {
            StartPosition::Standard => Some(Position::new()),
            StartPosition::Chess960(n) => {
                Some(Position::chess960(*n).ok_or_else(|| rule(V::NoSuchChess960(*n)))?)
            }
            StartPosition::Chess960Random => None,
            StartPosition::Fen(f) => {
                Some(Position::from_fen_auto(f).map_err(|e| rule(V::StartPosition(e)))?)
            }
        };
        let (white, black) = match challenge.colour {
            ColourChoice::ChallengerWhite => (Some(challenger), Some(opponent)),
            ColourChoice::ChallengerBlack => (Some(opponent), Some(challenger)),
            ColourChoice::Random => (None, None),
        };
        let terms = terms.unwrap_or_default();
        terms
            .check([challenger, opponent])
            .map_err(|e| rule(V::Terms(e)))?;
        let allowance = time_control.transit_allowance_ms();
        let position = start.clone().unwrap_or_default();
        Ok(Replay {
            keys: vec![position.repetition_key()],
            state: GameState {
                game,
                challenger,
                opponent,
                challenge,
                terms,
                version,
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
                draw_offers: Vec::new(),
                envelopes: Vec::new(),
                adjournments: Vec::new(),
                envelope_lost: false,
                annulled: None,
                annul_requests: [None, None],
                sealed_move_error: None,
                presence_ms: [None, None],
                claims: Vec::new(),
                quickplay_claims: Vec::new(),
                chat: Vec::new(),
                leave: Vec::new(),
                clocks: None,
                started_ms: None,
                ended_ms: None,
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
            witnessed: HashMap::new(),
            timed_claim: None,
            agreed: version >= 3,
            allowance,
            stamped: HashMap::new(),
            start_event: None,
            frozen: HashSet::new(),
            adjustments: Vec::new(),
            leave_events: Vec::new(),
            arrivals: HashSet::new(),
        })
    }

    /// The text of the Laws the game is judged by: the agreed terms' (protocol version 3),
    /// else the one play follows.
    pub(super) fn edition(&self) -> crate::rules::Edition {
        if self.agreed {
            self.state.terms.edition.edition()
        } else {
            crate::rules::Edition::PLAY
        }
    }

    fn over(&self) -> bool {
        matches!(self.state.status, Status::Finished | Status::Cancelled)
    }

    pub(super) fn end(&mut self, outcome: Outcome, termination: Termination) {
        self.state.status = Status::Finished;
        // The latest event so far is the one that ends the game.
        self.state.ended_ms = Some(self.last_time);
        self.state.result = Some(outcome);
        self.state.termination = Some(termination);
        self.state.draw_offer = None;
    }

    pub(super) fn apply(&mut self, v: &VerifiedEvent) -> Result<(), VerifyError> {
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
        let rule = |rule: RuleViolation| VerifyError::Rule {
            event: v.id,
            kind: e.kind.name(),
            author,
            rule: Box::new(rule),
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
            // 10.2b: a draw on a postponed claim may come after a flag fell.
            if let EventKind::QuickplayRuling { claim, ruling } = &e.kind
                && self.quickplay_after_flag(claim, *ruling)
            {
                return self.quickplay_ruling(claim, *ruling, author, v.id, e.time_ms, &rule);
            }
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
            EventKind::Challenge(_) | EventKind::ChallengeOnTerms { .. } => {
                if index != 0 {
                    return Err(rule(V::ChallengeNotFirst));
                }
            }
            EventKind::Accept(a) => {
                if author != self.state.opponent || self.state.status != Status::Pending {
                    return Err(rule(V::AcceptNotAllowed));
                }
                if self.state.challenge.coin_commitment.is_some() {
                    self.coin_share =
                        Some(a.coin_share.ok_or_else(|| rule(V::AcceptWithoutShare))?);
                    self.coin_accepted(v.id, e.time_ms);
                } else {
                    self.start_game(v.id, author, e.time_ms);
                }
            }
            EventKind::RandomReveal { secret } => {
                let Some(share) = self.coin_share else {
                    return Err(rule(V::NoCoinToOpen));
                };
                if self.coin_opening_ignored(v) {
                    return Ok(());
                }
                if author != self.state.challenger || self.state.status != Status::Pending {
                    return Err(rule(V::CoinOpenNotAllowed));
                }
                if Some(commit::coin_commitment(secret)) != self.state.challenge.coin_commitment {
                    return Err(rule(V::CoinOpeningMismatch));
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
                    let p = Position::chess960(n).ok_or_else(|| rule(V::NoChess960Position(n)))?;
                    self.keys = vec![p.repetition_key()];
                    self.state.position = p.clone();
                    self.state.start = Some(p);
                }
                self.coin_settled(CoinSettlement::Opened { event: v.id });
                self.start_game(v.id, author, e.time_ms);
            }
            EventKind::Decline { .. } => {
                if author != self.state.opponent || self.state.status != Status::Pending {
                    return Err(rule(V::DeclineNotAllowed));
                }
                self.state.status = Status::Cancelled;
                self.state.ended_ms = Some(e.time_ms);
            }
            EventKind::Abort => {
                if self.coin_abort_ignored(v) {
                    return Ok(());
                }
                // Before Black's first move, like lichess and chess.com.
                if self.state.moves.len() >= 2 {
                    return Err(rule(V::AbortTooLate));
                }
                self.state.status = Status::Cancelled;
                self.state.ended_ms = Some(e.time_ms);
            }
            EventKind::Move(w) => {
                let me = self.require_player(me, &rule)?;
                self.check_not_awaiting(&rule)?;
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
                            return Err(rule(V::SealedMoveBinding));
                        }
                        if sealer != Some(me) || self.state.presence_ms[(!me).index()].is_none() {
                            return Err(rule(V::OpenSealedMoveFirst));
                        }
                        self.state.envelope_lost = true;
                        self.resume(e.time_ms);
                    }
                    s => return Err(rule(V::NoMoveInStatus { status: s })),
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
                self.check_draw_allowed(&rule)?;
                self.state.draw_offers.push(DrawOfferRecord {
                    by: me,
                    ply: self.state.moves.len(),
                    event: v.id,
                    time_ms: e.time_ms,
                });
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
                self.check_draw_allowed(&rule)?;
                if self.state.draw_offer != Some(!me) {
                    return Err(rule(V::NoDrawOffer));
                }
                // A6: agreement before resumption ends the game; the envelope stays closed.
                self.end(Outcome::Draw, Termination::Agreement);
            }
            EventKind::DrawDecline => {
                let me = self.require_player(me, &rule)?;
                if self.state.draw_offer != Some(!me) {
                    return Err(rule(V::NoDrawOffer));
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
                self.check_not_awaiting(&rule)?;
                self.seal(seal, None, me, v.id, e.time_ms, author, &rule)?;
            }
            EventKind::SealIn { letters, seal } => {
                let me = self.require_player(me, &rule)?;
                self.check_not_awaiting(&rule)?;
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
                    && let Err(err) = time::check_leave_start(*from_ms, e.time_ms)
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
            EventKind::DeclareSealedMove { mv } => {
                let me = self.require_player(me, &rule)?;
                self.declare_sealed_move(*mv, me, v.id, e.time_ms, &rule)?;
            }
            EventKind::AcceptDeclaredMove { declared } => {
                self.accept_declared_move(declared, author, me, v.id, e.time_ms, index, &rule)?;
            }
            EventKind::AnnulGame => {
                self.annul_game(author, me, v.id, e.time_ms, &rule)?;
            }
            EventKind::QuickplayClaim => {
                let me = self.require_player(me, &rule)?;
                self.quickplay_claim(me, author, v.id, e.time_ms, &rule)?;
            }
            EventKind::QuickplayRuling { claim, ruling } => {
                self.quickplay_ruling(claim, *ruling, author, v.id, e.time_ms, &rule)?;
            }
            EventKind::Receipt { .. } | EventKind::Chat { .. } => {}
        }
        Ok(())
    }

    fn require_player(
        &self,
        me: Option<Color>,
        rule: &dyn Fn(RuleViolation) -> VerifyError,
    ) -> Result<Color, VerifyError> {
        me.ok_or_else(|| rule(V::ColoursNotSettled))
    }

    /// 9.1a: under agreed terms with a limit, no draw is offered or agreed before each
    /// player has completed that many moves.
    pub(super) fn check_draw_allowed(
        &self,
        rule: &dyn Fn(RuleViolation) -> VerifyError,
    ) -> Result<(), VerifyError> {
        let n = self.state.terms.no_draw_before_move;
        if self.agreed && n > 0 && (self.state.moves.len() as u64) < 2 * u64::from(n) {
            return Err(rule(V::DrawTooEarly { move_number: n }));
        }
        Ok(())
    }

    fn require_live(&self, rule: &dyn Fn(RuleViolation) -> VerifyError) -> Result<(), VerifyError> {
        match self.state.status {
            Status::Active | Status::Adjourned | Status::Disputed => Ok(()),
            s => Err(rule(V::NotLive { status: s })),
        }
    }

    /// The game starts with event `id` by `author`, signed at `t` (the acceptance, or the
    /// coin's settlement). Under protocol version 3 the clocks start when it reached the
    /// first player to move ([`Replay::start_ms`]), never at a raw signed time.
    pub(super) fn start_game(&mut self, id: EventId, author: PlayerId, t: u64) {
        self.state.status = Status::Active;
        self.start_event = Some((id, author));
        self.state.started_ms = Some(t);
        if self.agreed {
            self.state.started_ms = self.start_ms();
        }
    }

    /// Checks that `me` may move now: it is their turn, and they had seen the opponent's last
    /// move (a move answers a specific opponent move).
    pub(super) fn check_turn(
        &self,
        me: Color,
        author: PlayerId,
        rule: &dyn Fn(RuleViolation) -> VerifyError,
    ) -> Result<(), VerifyError> {
        if self.state.position.turn() != me {
            return Err(rule(V::OutOfTurn {
                colour: self.state.position.turn(),
            }));
        }
        if let Some(last) = self.last_move_index[(!me).index()] {
            let horizon = self.horizon.get(&author).copied();
            if horizon.is_none_or(|h| h < last) {
                return Err(rule(V::UnseenMove));
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
        rule: &dyn Fn(RuleViolation) -> VerifyError,
        sealed: bool,
    ) -> Result<(), VerifyError> {
        self.check_turn(me, author, rule)?;
        let m = w.to_move(&self.state.position).ok_or_else(|| {
            rule(V::IllegalMove {
                from: crate::Square::new(w.from.min(63)),
                to: crate::Square::new(w.to.min(63)),
                fen: self.state.position.fen(),
            })
        })?;
        self.play(m, me, id, t, index, sealed);
        Ok(())
    }

    pub(super) fn play(
        &mut self,
        m: Move,
        me: Color,
        id: EventId,
        t: u64,
        index: usize,
        sealed: bool,
    ) {
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
                .find(|e| !e.is_closed())
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
}
