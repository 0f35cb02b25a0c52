//! What `verify` decides about a game: [`GameState`] and its parts. Separate from the replay
//! that builds it: nodes, the CLI and exports read these types and nothing else of `verify`.

use super::coin::CoinState;
use crate::clock::{ClockState, LeavePeriod, TimeControl};
use crate::outcome::Outcome;
use crate::position::Position;
use crate::record::event::{
    Challenge, ClaimReason, EventId, GameId, Seal, SealLetters, SignedEvent,
};
use crate::record::identity::PlayerId;
use crate::record::terms::Terms;
use crate::rules::Termination;
use crate::rules::adjournment::Adjournment;
use crate::types::{Color, Move};

/// Where a game stands.
// Serde: kept in a node's stored game summaries (the codec: by variant index) and on the
// control API in the words of [`Status::name`] (`pending`, `active`…).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Challenged, not yet accepted (or the fair coin not yet opened).
    #[default]
    Pending,
    Active,
    /// A move is sealed (Appendix A) and its envelope not yet opened: no move is played until
    /// it is. The clocks stop until the agreed resumption, then follow A9 (see
    /// [`crate::rules::adjournment::clock`]).
    Adjourned,
    Finished,
    /// Declined by the opponent or aborted before it really started, or annulled because an
    /// adjourned position could not be re-established (A11.2, [`GameState::annulled`]): no
    /// result.
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
    /// its signed time (the mover pays for transit, docs/time.md).
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
    /// Why it is correct or not (its [`fmt::Display`](std::fmt::Display) is the English
    /// sentence).
    pub judgement: super::Judgement,
    pub event: EventId,
}

/// A draw offer (FIDE 9.1) and where in the game it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawOfferRecord {
    pub by: Color,
    /// How many moves had been played when it was made. An offer that follows the offerer's
    /// own move (as 9.1b asks) is recorded with that move: `Nf3 (=)`, Appendix C13/E13.
    pub ply: usize,
    pub event: EventId,
    pub time_ms: u64,
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
    /// A11.1: the move the sealer declared they sealed, having lost the opening (wire tag
    /// 22), and its acceptance (tag 23) if it was accepted. The envelope itself stays
    /// unopened (`opened` is `None`): the game went on with the declared move.
    pub declared: Option<DeclaredMove>,
}

impl SealedEnvelope {
    /// Whether the envelope is still closed: neither opened nor replaced by an accepted
    /// declaration (A11.1).
    pub fn is_closed(&self) -> bool {
        self.opened.is_none() && !self.declared_accepted()
    }

    /// Whether the game went on with a move the sealer declared instead (A11.1).
    pub fn declared_accepted(&self) -> bool {
        self.declared.as_ref().is_some_and(|d| d.accepted.is_some())
    }
}

/// A11.1: "El jugador que hizo la jugada secreta ejecuta sobre el tablero la jugada que
/// declara ser la que selló": the declaration of a sealer who lost the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredMove {
    /// The declaration (tag 22).
    pub event: EventId,
    /// The move declared, legal in the position the envelope was sealed in.
    pub mv: Move,
    /// English SAN of the move in that position.
    pub san: String,
    /// The declaration's signed time.
    pub time_ms: u64,
    /// Who accepted it, once someone has (tag 23).
    pub accepted: Option<DeclarationAccepted>,
}

/// Who accepts a declared sealed move (A11.1): the sealer's word alone never replaces the
/// envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Accepter {
    /// The player who must answer the sealed move.
    Responder,
    /// The arbiter both players agreed on in the game's terms.
    Arbiter,
}

/// The acceptance of a declared sealed move (tag 23).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclarationAccepted {
    pub by: PlayerId,
    pub role: Accepter,
    /// The acceptance event.
    pub event: EventId,
    /// Its signed time: the declared move is played then, as an opening would be.
    pub time_ms: u64,
}

/// A11.2 (club rules art. 16.5): the game annulled because the position could not be
/// re-established; a new game is to be played in its place. No result, nobody scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annulment {
    pub by: AnnulledBy,
    /// The annulling events (tag 24): the arbiter's, or one by each player.
    pub events: Vec<EventId>,
    /// The signed time of the event that annulled the game.
    pub time_ms: u64,
}

/// Who annulled a game (A11.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnnulledBy {
    /// The agreed arbiter, alone.
    Arbiter(PlayerId),
    /// Both players, each with their own event.
    Players,
}

/// An envelope's opening in an arbiter's keeping (A3): see [`crate::record::escrow`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escrowed {
    pub arbiter: PlayerId,
    /// The escrow event (tag 18).
    pub event: EventId,
    /// The opening encrypted to the arbiter ([`crate::record::escrow::seal_box`]).
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
    /// The terms both players agreed to (the challenge's, tag 21; [`Terms::default`] for a
    /// challenge that names none).
    pub terms: Terms,
    /// The protocol version the game is judged under (its challenge's).
    pub version: u16,
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
    /// Every draw offer made, standing or not, in the order applied (9.1b: each is recorded
    /// in the score).
    pub draw_offers: Vec<DrawOfferRecord>,
    pub envelopes: Vec<SealedEnvelope>,
    /// Each adjournment (Appendix A1), in the order sealed: the facts its verdicts are
    /// judged on (resumption, arrivals, openings, a reply in a second envelope).
    pub adjournments: Vec<Adjournment>,
    /// A11: the sealer played a move instead of opening the envelope (a tag-10 seal), or
    /// the game went on with a declared sealed move someone accepted (a binding seal, see
    /// [`SealedEnvelope::declared`]).
    pub envelope_lost: bool,
    /// A11.2: the game was annulled (its status is [`Status::Cancelled`]) and a new game is
    /// to be played in its place.
    pub annulled: Option<Annulment>,
    /// A11.2: the players' annulment events (tag 24) while the envelope still closed, by
    /// colour: the game is annulled when both have signed one.
    pub annul_requests: [Option<EventId>; 2],
    /// A8: why an opened sealed move could not be played, if it could not.
    pub sealed_move_error: Option<String>,
    /// When each player announced presence at resumption (A7, A9, A10).
    pub presence_ms: [Option<u64>; 2],
    pub claims: Vec<ClaimRecord>,
    /// 10.2: draws claimed in a quickplay finish and the arbiter's rulings, in the order
    /// claimed.
    pub quickplay_claims: Vec<super::QuickplayClaimRecord>,
    pub chat: Vec<(PlayerId, u64, String)>,
    pub leave: Vec<(Color, LeavePeriod)>,
    /// The clocks as of the last event (or the time given to [`super::verify_at`]).
    pub clocks: Option<ClockState>,
    /// When the game started (acceptance, or the opening of the coin, or its default).
    pub started_ms: Option<u64>,
    /// When it finished or was cancelled: the time of the event that ended it (as signed).
    pub ended_ms: Option<u64>,
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
            _ => self.envelopes.iter().find(|e| e.is_closed()),
        }
    }

    /// The 10.2 claim the arbiter still has to decide (waiting with the clocks stopped, or
    /// postponed), if any.
    pub fn open_quickplay_claim(&self) -> Option<&super::QuickplayClaimRecord> {
        self.quickplay_claims.iter().rev().find(|c| c.open())
    }

    /// The game's last adjournment, if it was ever adjourned.
    pub fn adjournment(&self) -> Option<&Adjournment> {
        self.adjournments.last()
    }
}

/// A player's equivocation is ruled as misconduct ([`GameState::rule_misconduct`]); the record
/// keeps the moves as merged, and the proof.
///
/// Only a *player's* equivocation is ruled: a witness (a club mailbox, an organiser) signs
/// only receipts, which decide nothing here, so its twins are kept as proof against the
/// witness and leave the game, and the players' result, as they are.
pub(super) fn conclude(mut state: GameState, equivocations: Vec<Equivocation>) -> GameState {
    let authors: Vec<PlayerId> = equivocations.iter().map(|e| e.author).collect();
    state.equivocations = equivocations;
    state.rule_misconduct(&authors);
    state
}

impl GameState {
    /// Rules on players proven to have signed two different events at one place of their
    /// scoresheet (an equivocation: a second move, result or claim where one was signed).
    /// Nobody else can make such a pair, so the proof is the arbiter's evidence.
    ///
    /// - One player: 12.8 (2009; 12.7 in 2005, seeds 003 and 002): the persistent refusal to comply
    ///   with the Laws is penalised by the loss of the game, and the arbiter decides the
    ///   opponent's score — here always the win, as for a forfeit (11.1), so that signing a
    ///   twin can never turn a lost game into an annulled one
    ///   ([`Termination::Equivocation`]). A result the game already had is replaced.
    /// - Both players: 12.9 (2005: 12.8), the game is lost for both: the status stays
    ///   [`Status::Disputed`] (no outcome says 0–0) and league tables score it 0–0.
    /// - Before colours are settled there is no game to lose: [`Status::Disputed`].
    ///
    /// `equivocators` may name anyone: only the two players count. Idempotent, and applied
    /// the same by `verify` (twins in the record) and by a node holding stored proofs.
    pub fn rule_misconduct(&mut self, equivocators: &[PlayerId]) {
        let proven = |p: &PlayerId| equivocators.contains(p);
        let (white, black) = match (self.white, self.black) {
            (Some(w), Some(b)) => (w, b),
            _ => {
                if proven(&self.challenger) || proven(&self.opponent) {
                    self.status = Status::Disputed;
                }
                return;
            }
        };
        let winner = match (proven(&white), proven(&black)) {
            (false, false) => return,
            (true, true) => {
                self.status = Status::Disputed;
                self.result = None;
                self.termination = Some(Termination::Equivocation);
                return;
            }
            (true, false) => Color::Black,
            (false, true) => Color::White,
        };
        self.status = Status::Finished;
        self.result = Some(Outcome::Decisive { winner });
        self.termination = Some(Termination::Equivocation);
    }

    /// The text whose 9.2 identity of positions the game's repetitions are judged by: the
    /// terms' edition, or for a record signed before terms named one (protocol versions 1
    /// and 2) castling rights as 2005 reads them, as `verify` does.
    pub fn repetition_edition(&self) -> crate::rules::Edition {
        if self.version >= 3 {
            self.terms.edition.edition()
        } else {
            crate::rules::Edition::Fide2005
        }
    }

    /// Both players proven to have equivocated: the game is lost for both (12.9).
    pub fn lost_by_both(&self) -> bool {
        self.status == Status::Disputed && self.termination == Some(Termination::Equivocation)
    }
}
