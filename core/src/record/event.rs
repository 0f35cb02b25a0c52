//! The signed events that make up a game: two hash-chained scoresheets, one per player
//! (FIDE Art. 8: each player keeps their own scoresheet).
//!
//! Wire format (version 1), all through [`super::codec`]:
//!
//! - An [`Event`] is encoded to its *body* bytes.
//! - The author signs `"sobre/event/v1\0" ‖ body` with ed25519.
//! - A [`SignedEvent`] is `(body, signature)`; it is transmitted and stored exactly as
//!   received and never re-encoded to be verified.
//! - The event's id is `SHA-256("sobre/event-id/v1\0" ‖ body)`. The game id is the id of its
//!   challenge.
//!
//! Every enum here is a wire enum: its variants are numbered by declaration order, so they
//! are only ever appended to (tags are pinned by snapshot tests).

use super::codec::{self, CodecError, MAX_EVENT_BYTES};
use super::identity::{Keypair, PlayerId};
pub use super::terms::Terms;
use crate::types::{Move, MoveKind, Role, Square};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// The protocol version every new event carries. The format of the bytes is the same in every
/// version; what changes is the meaning the game's rules give to times (docs/time.md):
/// - 1: a move counts as made at its author's signed time and reaches the opponent at their
///   receipt (nobody's clock runs in transit); claims are judged at the claimant's time.
/// - 2: time is evidence. A move counts as made when it was first countersigned (the
///   opponent's receipt, a witness's receipt, or an opponent event that saw it), so its
///   mover pays for transit; a time or lateness claim is judged no later than its first
///   countersignature; an event's time is bounded below by the events it refers to.
/// - 3: agreed time (docs/time.md). The game's [`Terms`] (tag 21) name the timekeepers; with
///   them an event counts at its earliest timekeeper receipt, without them transit is
///   bounded both ways by the time control's allowance, so neither player's absence nor
///   presence decides how long a move took. Starts, coin deadlines, seals, presences and
///   claims are judged at evidence times; each overstep is its own flag fall. Tags 22 to 24
///   (A11: a declared sealed move and its acceptance, an annulment) came with this version
///   and have a meaning only in a game on agreed terms: a game signed under version 1 or 2
///   refuses them ([`crate::record::verify::RuleViolation::A11NeedsAgreedTerms`]), and a
///   node older than them cannot decode them at all (an unknown tag is a codec error).
///   Tags 25 and 26 (10.2: a quickplay-finish claim and the agreed arbiter's ruling) need
///   [`Terms::arbiter`], so they too belong to games on agreed terms.
///
/// A game is judged under the version of its challenge, so every archive keeps the meaning it
/// was signed under; a node accepts events of every version in [`MIN_EVENT_VERSION`]
/// ..= [`EVENT_VERSION`] and refuses others naming the version.
pub const EVENT_VERSION: u16 = 3;
/// The version a challenge without terms (tag 0) is signed under: such a game keeps the
/// meaning of protocol version 2. A challenge on agreed terms (tag 21) is signed under
/// [`EVENT_VERSION`].
pub const TERMLESS_VERSION: u16 = 2;
/// The oldest protocol version this code still verifies.
pub const MIN_EVENT_VERSION: u16 = 1;
const SIGN_DOMAIN: &[u8] = b"sobre/event/v1\0";
const ID_DOMAIN: &[u8] = b"sobre/event-id/v1\0";

/// SHA-256 id of an event (and, for a challenge, of the game).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EventId(pub [u8; 32]);

/// A game is named by the id of its challenge.
pub type GameId = EventId;

impl EventId {
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Parses 64 hex digits.
    pub fn from_hex(s: &str) -> Option<EventId> {
        let s = s.trim();
        if s.len() != 64 || !s.is_ascii() {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, o) in out.iter_mut().enumerate() {
            *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(EventId(out))
    }
}

/// Text that is not 64 hex digits (an event or game id).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not an event id (64 hex digits): {0:?}")]
pub struct BadEventId(pub String);

/// The inverse of `Display`: [`EventId::from_hex`].
impl std::str::FromStr for EventId {
    type Err = BadEventId;

    fn from_str(s: &str) -> Result<EventId, BadEventId> {
        EventId::from_hex(s).ok_or_else(|| BadEventId(s.to_owned()))
    }
}

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EventId({}…)", &self.to_hex()[..12])
    }
}

/// One entry of a player's scoresheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// [`EVENT_VERSION`].
    pub version: u16,
    /// The game; `None` only in the challenge, whose id becomes the game id.
    pub game: Option<GameId>,
    pub author: PlayerId,
    /// Position in the author's log for this game, from 0.
    pub seq: u64,
    /// The author's previous event in this game (`None` at seq 0): the hash chain.
    pub prev: Option<EventId>,
    /// The latest opponent event the author had verified when signing.
    pub seen: Option<EventId>,
    /// The author's clock, milliseconds since the Unix epoch.
    pub time_ms: u64,
    pub kind: EventKind,
}

/// What an event says. Tags are the declaration order: append only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventKind {
    /// 0: an invitation to play; its id is the game id.
    Challenge(Challenge),
    /// 1: the opponent accepts (with their share of the fair coin, if one is needed).
    Accept(Accept),
    /// 2: the opponent declines.
    Decline { reason: String },
    /// 3: either player aborts before Black's first move.
    Abort,
    /// 4: a move (FIDE Art. 3), answering the opponent move named in `seen`.
    Move(WireMove),
    /// 5: FIDE 9.1 draw offer.
    DrawOffer,
    /// 6: acceptance of the opponent's standing offer.
    DrawAccept,
    /// 7: refusal of the opponent's standing offer.
    DrawDecline,
    /// 8: a claim (9.2, 9.3, 6.9 time, 9.6 dead position, A10 lateness).
    Claim(Claim),
    /// 9: resignation (5.1b).
    Resign,
    /// 10: a sealed move (Appendix A1/A2): commitment and envelope data.
    Seal(Seal),
    /// 11: "I am at the board" at resumption (A7, A9, A10).
    Presence,
    /// 12: the opening of the sealer's envelope.
    Reveal(Reveal),
    /// 13: a signed receipt: the author received and verified `event`.
    Receipt { event: EventId },
    /// 14: a chat line.
    Chat { text: String },
    /// 15: leave (vacation) that stops the author's clock in `[from_ms, until_ms)`.
    Leave { from_ms: u64, until_ms: u64 },
    /// 16: the challenger opens their share of the fair coin (commit–reveal).
    RandomReveal { secret: [u8; 32] },
    /// 17: a sealed move whose piece letters were fixed when it was sealed, so the opening
    /// is read in those letters and no others (App. E2/E3: `R` is a rook in English and the
    /// king in Spanish; A8 is decided on the move as written *in its language*). Every new
    /// seal uses this tag; a tag-10 [`EventKind::Seal`] from before the letters were
    /// recorded is still read as it always was, in either language.
    SealIn { letters: SealLetters, seal: Seal },
    /// 18: the sealer escrows the opening of their tag-17 seal `seal` with `arbiter` (A3:
    /// the arbiter keeps the envelope), encrypted to the arbiter's key
    /// ([`super::escrow::seal_box`]), so that the arbiter can open the envelope at the
    /// resumption when the sealer is absent (A9) or lost the opening (A11). Signed by the
    /// sealer after the seal and before the opening; at most one per envelope; the arbiter
    /// is neither player.
    Escrow {
        seal: EventId,
        arbiter: PlayerId,
        sealed_box: Vec<u8>,
    },
    /// 19: the arbiter named in the envelope's escrow opens it: the sealed move as written
    /// and its salt, checked against the sealer's commitment like the sealer's own opening
    /// (tag 12) and played as the sealer's move.
    ArbiterOpen {
        seal: EventId,
        move_text: String,
        salt: [u8; 32],
    },
    /// 20: the challenger has not opened the fair coin within the deadline after the
    /// acceptance (`rules::coin`), so the opponent settles what the coin was to decide, as
    /// if the challenger had lost it (F1's drawing of lots, without a last revealer who can
    /// withhold a result she dislikes): `colour` is the colour the opponent (the author)
    /// takes, when the challenge left colours to the coin; `position` the Chess960 start
    /// (Scharnagl number 0..959), when the challenge left the start to the coin. Each is
    /// present exactly when the coin was to decide it.
    CoinDefault {
        colour: Option<CoinColour>,
        position: Option<u16>,
    },
    /// 21: an invitation to play on agreed [`Terms`] (protocol version 3): the acceptance
    /// countersigns them. Its id is the game id, as for tag 0, which stays for games
    /// without terms (they get [`Terms::default`]).
    ChallengeOnTerms { challenge: Challenge, terms: Terms },
    /// 22: A11.1 (A11a in 2005): the sealer of a binding seal (tag 17) still closed, who
    /// cannot produce its opening, declares the move they sealed. It does nothing until it
    /// is accepted (tag 23): "lost" is never the sealer's free choice of another move. At
    /// most one per envelope, never after the envelope was opened. Only in a game on agreed
    /// terms (protocol version 3).
    DeclareSealedMove { mv: WireMove },
    /// 23: A11.1: the responder (the sealer's opponent), or the game's agreed arbiter
    /// ([`Terms::arbiter`]), accepts the declaration `declared` (a tag-22 event): the
    /// declared move is played as if the envelope had been opened with it, under the rules
    /// of an opening (A7 with A2.7: the responder is at the board). Only in a game on
    /// agreed terms (protocol version 3).
    AcceptDeclaredMove { declared: EventId },
    /// 24: A11.2 (A11b in 2005; club rules art. 16.5): the position cannot be
    /// re-established, so the game is annulled and a new one is played. Signed by the
    /// agreed arbiter alone, or by both players (each signs one), while the game is
    /// adjourned with a binding envelope unopened. Only in a game on agreed terms (protocol
    /// version 3).
    AnnulGame,
    /// 25: FIDE 10.2 (both texts; Appendix D without an arbiter at the board): the player to
    /// move, with less than two minutes left in a quickplay finish (10.1) and before their
    /// flag falls, claims a draw and stops the clocks for the arbiter named in the game's
    /// [`Terms::arbiter`]. It is also a draw offer (9.1b of 2009, 9.1c of 2005). Judged at
    /// the claim's evidence time, as a move is; see `verify/quickplay.rs`.
    QuickplayClaim,
    /// 26: FIDE 10.2a–d: the agreed arbiter's decision on the 10.2 claim `claim` (a tag-25
    /// event the arbiter had seen): drawn, postponed (the game goes on, and a later draw on
    /// the same claim stands even after a flag fell), or rejected (two extra minutes for the
    /// opponent). Signed by [`Terms::arbiter`] alone; final (10.2d).
    QuickplayRuling {
        claim: EventId,
        ruling: QuickplayRuling,
    },
}

impl EventKind {
    /// Short name for messages and JSON.
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Challenge(_) | EventKind::ChallengeOnTerms { .. } => "challenge",
            EventKind::Accept(_) => "accept",
            EventKind::Decline { .. } => "decline",
            EventKind::Abort => "abort",
            EventKind::Move(_) => "move",
            EventKind::DrawOffer => "draw_offer",
            EventKind::DrawAccept => "draw_accept",
            EventKind::DrawDecline => "draw_decline",
            EventKind::Claim(_) => "claim",
            EventKind::Resign => "resign",
            EventKind::Seal(_) | EventKind::SealIn { .. } => "seal",
            EventKind::Presence => "presence",
            EventKind::Reveal(_) => "reveal",
            EventKind::Receipt { .. } => "receipt",
            EventKind::Chat { .. } => "chat",
            EventKind::Leave { .. } => "leave",
            EventKind::RandomReveal { .. } => "random_reveal",
            EventKind::Escrow { .. } => "escrow",
            EventKind::ArbiterOpen { .. } => "arbiter_open",
            EventKind::CoinDefault { .. } => "coin_default",
            EventKind::DeclareSealedMove { .. } => "declare_sealed_move",
            EventKind::AcceptDeclaredMove { .. } => "accept_declared_move",
            EventKind::AnnulGame => "annul_game",
            EventKind::QuickplayClaim => "quickplay_claim",
            EventKind::QuickplayRuling { .. } => "quickplay_ruling",
        }
    }

    /// The challenge an invitation carries (tag 0 or 21), with its terms if it names them.
    pub fn challenge(&self) -> Option<(&Challenge, Option<&Terms>)> {
        match self {
            EventKind::Challenge(c) => Some((c, None)),
            EventKind::ChallengeOnTerms { challenge, terms } => Some((challenge, Some(terms))),
            _ => None,
        }
    }

    /// Whether this is an invitation to play (tag 0 or 21).
    pub fn is_challenge(&self) -> bool {
        self.challenge().is_some()
    }
}

/// Who plays White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ColourChoice {
    ChallengerWhite,
    ChallengerBlack,
    /// Decided by the fair coin (commit–reveal).
    Random,
}

/// A colour in a [`EventKind::CoinDefault`]. A wire enum: append only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CoinColour {
    /// 0.
    White,
    /// 1.
    Black,
}

impl CoinColour {
    pub fn colour(self) -> crate::types::Color {
        match self {
            CoinColour::White => crate::types::Color::White,
            CoinColour::Black => crate::types::Color::Black,
        }
    }

    pub fn of(c: crate::types::Color) -> CoinColour {
        match c {
            crate::types::Color::White => CoinColour::White,
            crate::types::Color::Black => CoinColour::Black,
        }
    }
}

/// The start position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StartPosition {
    Standard,
    /// Chess960 position by Scharnagl number (FIDE Appendix F).
    Chess960(u16),
    /// Chess960, the position drawn by the fair coin ("se sortea", F1).
    Chess960Random,
    /// Any legal position (X-FEN; Chess960 castling if the FEN needs it).
    Fen(String),
}

/// A league game's place in its league.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LeagueRound {
    pub league: EventId,
    pub round: u32,
}

/// The terms of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub opponent: PlayerId,
    pub colour: ColourChoice,
    /// The time control in its text form (see [`crate::clock`]), e.g. `3d`, `10/50d`.
    pub time_control: String,
    pub start: StartPosition,
    /// `SHA-256("sobre/coin/v1\0" ‖ secret)` of the challenger's share of the fair coin,
    /// required when colours or the Chess960 position are drawn.
    pub coin_commitment: Option<[u8; 32]>,
    pub league: Option<LeagueRound>,
}

/// The opponent's acceptance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accept {
    /// The opponent's share of the fair coin, in clear (the challenger is already committed).
    pub coin_share: Option<[u8; 32]>,
}

/// A move on the wire: squares and promotion. Castling is king-takes-own-rook (as UCI writes
/// Chess960 castling); the rest of the move's meaning comes from the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WireMove {
    pub from: u8,
    pub to: u8,
    /// 0 none, 1 queen, 2 rook, 3 bishop, 4 knight (the ICCF digits).
    pub promotion: u8,
}

impl WireMove {
    pub fn from_move(m: Move) -> WireMove {
        let promotion = match m.kind {
            MoveKind::Promotion(Role::Queen) => 1,
            MoveKind::Promotion(Role::Rook) => 2,
            MoveKind::Promotion(Role::Bishop) => 3,
            MoveKind::Promotion(Role::Knight) => 4,
            _ => 0,
        };
        WireMove {
            from: m.from.index() as u8,
            to: m.to.index() as u8,
            promotion,
        }
    }

    /// The legal move of `pos` this names, if any.
    pub fn to_move(self, pos: &crate::Position) -> Option<Move> {
        if self.from > 63 || self.to > 63 {
            return None;
        }
        let (from, to) = (Square::new(self.from), Square::new(self.to));
        let promotion = match self.promotion {
            0 => None,
            1 => Some(Role::Queen),
            2 => Some(Role::Rook),
            3 => Some(Role::Bishop),
            4 => Some(Role::Knight),
            _ => return None,
        };
        pos.legal_moves_from(from)
            .iter()
            .copied()
            .find(|m| m.to == to && m.promotion() == promotion)
    }
}

pub use crate::rules::claims::{ClaimReason, UnknownClaim};
pub use crate::rules::quickplay::QuickplayRuling;

/// A claim, optionally with the move the claimant intends to play (9.2a, 9.3a).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    pub reason: ClaimReason,
    pub intended: Option<WireMove>,
}

/// The data FIDE A2 puts on the envelope.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    /// A2.1: the players.
    pub white: PlayerId,
    pub black: PlayerId,
    /// A2.2: the position immediately before the sealed move (FEN).
    pub fen_before: String,
    /// A2.3: the time used by White and Black, in ms.
    pub time_used_ms: [u64; 2],
    /// A2.4: the player who sealed.
    pub sealer: PlayerId,
    /// A2.5: the number of the sealed move.
    pub move_number: u32,
    /// A2.6: a draw offer still standing, and by whom.
    pub draw_offer_by: Option<PlayerId>,
    /// A2.7: when (ms since epoch) and where the game resumes.
    pub resume_at_ms: Option<u64>,
    pub place: String,
    /// A10: how late a player may be at resumption (one hour unless the event says
    /// otherwise).
    pub lateness_limit_ms: u64,
}

/// The piece letters a sealed move is written in (App. E2/E3). A wire enum: append only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SealLetters {
    /// 0: `K Q R B N`.
    English,
    /// 1: `R D T A C` (`R` is the king, *rey*).
    Spanish,
}

impl SealLetters {
    /// The letters a move is read in.
    pub fn lang(self) -> crate::notation::san::Lang {
        match self {
            SealLetters::English => crate::notation::san::Lang::English,
            SealLetters::Spanish => crate::notation::san::Lang::Spanish,
        }
    }
}

/// A sealed move: the commitment and the envelope.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seal {
    /// `SHA-256` over the domain tag, game id, ply, sealer and the move *as written* with
    /// its salt: see [`super::commit::seal_commitment`].
    pub commitment: [u8; 32],
    pub envelope: Envelope,
}

/// The opening of an envelope: the move as written and the salt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveal {
    pub move_text: String,
    pub salt: [u8; 32],
}

/// An event as signed: the body bytes exactly as received, and the signature over them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SignedEvent {
    pub body: Vec<u8>,
    #[serde(with = "sig64")]
    pub signature: [u8; 64],
}

/// serde implements arrays only up to 32 elements: a signature goes as two halves (on the
/// wire: 64 raw bytes, no length prefix).
mod sig64 {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(sig: &[u8; 64], s: S) -> Result<S::Ok, S::Error> {
        let mut a = [0u8; 32];
        let mut b = [0u8; 32];
        a.copy_from_slice(&sig[..32]);
        b.copy_from_slice(&sig[32..]);
        (a, b).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 64], D::Error> {
        let (a, b) = <([u8; 32], [u8; 32])>::deserialize(d)?;
        let mut sig = [0u8; 64];
        sig[..32].copy_from_slice(&a);
        sig[32..].copy_from_slice(&b);
        Ok(sig)
    }
}

/// Why a signed event is not acceptable on its own (before any game rule).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    #[error("undecodable event: {0}")]
    Codec(#[from] CodecError),
    #[error(
        "unsupported protocol version {0} (this node speaks versions {MIN_EVENT_VERSION} to \
         {EVENT_VERSION})"
    )]
    Version(u16),
    #[error("bad signature by {0}")]
    BadSignature(PlayerId),
}

/// A signed event whose signature has been checked, with its decoded content and id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedEvent {
    pub id: EventId,
    pub event: Event,
    pub signed: SignedEvent,
}

/// The id of an event body.
pub fn event_id(body: &[u8]) -> EventId {
    let mut h = Sha256::new();
    h.update(ID_DOMAIN);
    h.update(body);
    EventId(h.finalize().into())
}

/// The bytes an author signs for a body.
pub fn signing_bytes(body: &[u8]) -> Vec<u8> {
    let mut m = Vec::with_capacity(SIGN_DOMAIN.len() + body.len());
    m.extend_from_slice(SIGN_DOMAIN);
    m.extend_from_slice(body);
    m
}

impl SignedEvent {
    /// Signs an event. The author field must be the key's player (checked by verification).
    ///
    /// # Errors
    /// Only if the event cannot be encoded (never for well-formed events).
    pub fn sign(event: &Event, key: &Keypair) -> Result<SignedEvent, CodecError> {
        let body = codec::encode(event)?;
        let signature = key.sign(&signing_bytes(&body));
        Ok(SignedEvent { body, signature })
    }

    /// The wire form of a signed event.
    ///
    /// # Errors
    /// Never in practice (see [`codec::encode`]).
    pub fn to_bytes(&self) -> Result<Vec<u8>, CodecError> {
        // The codec's encoding, written directly (serde would go byte by byte): the body's
        // length as a little-endian u64, the body, the 64 signature bytes.
        let mut out = Vec::with_capacity(8 + self.body.len() + 64);
        out.extend_from_slice(&(self.body.len() as u64).to_le_bytes());
        out.extend_from_slice(&self.body);
        out.extend_from_slice(&self.signature);
        Ok(out)
    }

    /// Reads the wire form, size-capped and canonical.
    ///
    /// # Errors
    /// [`CodecError`] if the bytes are not one canonical signed event.
    pub fn from_bytes(bytes: &[u8]) -> Result<SignedEvent, CodecError> {
        // The codec's decoding of the layout [`SignedEvent::to_bytes`] writes, which has one
        // encoding only (so it is canonical when the lengths agree).
        let limit = MAX_EVENT_BYTES + 128;
        if bytes.len() as u64 > limit {
            return Err(CodecError::TooLarge {
                len: bytes.len(),
                limit,
            });
        }
        let malformed = |what: &str| CodecError::Malformed(format!("signed event: {what}"));
        let (len, rest) = bytes
            .split_first_chunk::<8>()
            .ok_or_else(|| malformed("too short"))?;
        let (body, signature) = rest
            .split_last_chunk::<64>()
            .ok_or_else(|| malformed("too short"))?;
        if u64::from_le_bytes(*len) != body.len() as u64 {
            return Err(malformed("the body length does not match"));
        }
        Ok(SignedEvent {
            body: body.to_vec(),
            signature: *signature,
        })
    }

    /// The game this event belongs to, read without checking the signature: a challenge is
    /// its own game (its id), every other event names its game.
    pub fn game(&self) -> Option<GameId> {
        let ev = self.decode_unverified().ok()?;
        match ev.kind {
            k if k.is_challenge() => Some(self.id()),
            _ => ev.game,
        }
    }

    pub fn id(&self) -> EventId {
        event_id(&self.body)
    }

    /// Decodes the body without checking the signature (for batch verification).
    ///
    /// # Errors
    /// [`EventError::Codec`] or [`EventError::Version`].
    pub fn decode_unverified(&self) -> Result<Event, EventError> {
        let event: Event = codec::decode(&self.body, MAX_EVENT_BYTES)?;
        if !(MIN_EVENT_VERSION..=EVENT_VERSION).contains(&event.version) {
            return Err(EventError::Version(event.version));
        }
        Ok(event)
    }

    /// Decodes and checks the signature with `verify_strict`.
    ///
    /// # Errors
    /// [`EventError`] naming the problem.
    pub fn verify(&self) -> Result<VerifiedEvent, EventError> {
        let event = self.decode_unverified()?;
        if !event
            .author
            .verify(&signing_bytes(&self.body), &self.signature)
        {
            return Err(EventError::BadSignature(event.author));
        }
        Ok(VerifiedEvent {
            id: self.id(),
            event,
            signed: self.clone(),
        })
    }
}

/// Verifies many signed events, each with `verify_strict`. Results are in input order.
///
/// Not with ed25519 batch verification, although it is about 3× cheaper per signature: a
/// batch is not exact. It accepts a signature whose `R` has a torsion component (`R + T`, `T`
/// of order 2, 4 or 8) whenever the batch's random coefficient for it is a multiple of `T`'s
/// order — one time in eight, and the coefficients come from a transcript the signer can grind.
/// A node batching would then keep an event that every strict verifier (the opponent, a
/// witness, `sobre verify`) refuses, and the record it serves would no longer verify. Rejecting
/// such an `R` before batching costs a scalar multiplication per signature (measured: more
/// than the batch saves), so every node checks exactly what `verify_strict` checks.
/// `batch_agrees_with_verify_strict` (tests/signatures.rs) tries such signatures.
pub fn verify_all(events: &[SignedEvent]) -> Vec<Result<VerifiedEvent, EventError>> {
    events.iter().map(SignedEvent::verify).collect()
}
