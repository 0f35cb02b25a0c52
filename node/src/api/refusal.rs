//! Why the node refused a request, as a typed code beside the English message: the `code`
//! of an [`ApiError`](super::ApiError). Both are worded from the code and its fields by
//! [`RefusalCode::words`], from sobre's one catalogue: the message in English (for API
//! users who read it), a client's words in its player's language (never from the message);
//! a client that does not know a code (a newer node) falls back to the message
//! ([`RefusalCode::Other`]).
//!
//! Wire form: an object tagged by `id`, e.g. `{"id":"unknown_game","prefix":"3f2a"}`.
//! Append-only: a variant's name and fields never change meaning; new ones are added. (One
//! retirement: the rule refusals' ids, one per rule, gave way to [`RefusalCode::Rule`],
//! which carries the core's own violation; a client and a node on either side of it meet
//! the other's as [`RefusalCode::Other`] and show the message.)

use serde::{Deserialize, Serialize};
use sobre_core::notation::{MoveError, MoveErrorKind};
use sobre_core::record::escrow::EscrowError;
use sobre_core::record::verify::RuleViolation;
use sobre_core::rules::coin::CoinRule;

mod kinds;
mod words;
pub use kinds::{
    IdPlace, LeagueRefusal, QuotaProblem, coded_coin_rule, coded_decision_error,
    coded_escrow_error, coded_league_error, coded_rule_violation,
};

/// A refusal the player commonly meets, by its kind and the data its words need.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "id", rename_all = "snake_case")]
pub enum RefusalCode {
    /// No game's id starts with `prefix`.
    UnknownGame { prefix: String },
    /// `count` games' ids start with `prefix`.
    AmbiguousGame { prefix: String, count: usize },
    /// An empty game id.
    NoGameId,
    /// The game named is not one this node keeps.
    GameNotKept,
    /// No league's id or name is `text`.
    UnknownLeague { text: String },
    /// `count` leagues match `text`.
    AmbiguousLeague { text: String, count: usize },
    /// The player does not play in the game.
    NotInGame,
    /// The game is adjourned (Appendix A): it goes on at the resumption.
    GameAdjourned,
    /// The challenge is not accepted yet.
    GameNotStarted,
    /// The game is finished or cancelled.
    GameOver,
    /// FIDE 1.1: the opponent is to move.
    NotYourMove,
    /// A game is between two players.
    ChallengeSelf,
    /// No challenge is pending in the game.
    NoChallengeToAccept,
    /// The text the player typed is not one legal move (FIDE 3.10, App. E): `kind` is
    /// `syntax`, `illegal` or `ambiguous`; `reason` is the core's English detail;
    /// `conditional` is the move's place in a conditional line; `letters` is true when the
    /// text reads as different moves in English and Spanish letters (E2/E3).
    BadMove {
        text: String,
        kind: BadMoveKind,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        conditional: Option<usize>,
        #[serde(default)]
        letters: bool,
        #[serde(default, skip_serializing_if = "MovePlace::is_played")]
        place: MovePlace,
    },
    /// A rule of the game, or the protocol's, that the core refused the player's event by
    /// (or the node, for the same reason, before signing): the core's own [`RuleViolation`]
    /// (`None`: a kind this client does not know, from a newer node). Only the kinds a player
    /// commonly meets are sent ([`kinds::coded_rule_violation`]).
    Rule {
        #[serde(deserialize_with = "kinds::known")]
        problem: Option<RuleViolation>,
    },
    /// No leave is being taken.
    NoLeaveInProgress,
    /// The player is not one of the league's.
    NotLeaguePlayer,
    /// Only the league's organiser (and its deputy arbiter, for the organiser's games)
    /// signs its decisions.
    NotLeagueOrganiser {
        organiser: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deputy: Option<String>,
    },
    /// A2.7: the envelope says when the game resumes.
    ResumptionMissing,
    /// A2.7: the resumption is ahead.
    ResumptionPast,
    /// Conditional moves answer the opponent's next move: not on the player's own move.
    ConditionalOnYourMove,
    /// A conditional line is the opponent's move then the reply.
    ConditionalTooShort,
    /// `conditional add` without a line.
    ConditionalNoLine,
    /// A chat line over the limit.
    ChatTooLong,
    /// The player named themselves to block.
    BlockSelf,
    /// F1: the challenge fixed the colours.
    ColoursFixed,
    /// F1: the challenge fixed the start position.
    StartFixed,
    /// F1: an abort now would withhold the coin's draw.
    AbortWithholdsCoin,
    /// `text` is not a player id (the core's `PlayerIdError`: a client reads `text` again
    /// with the core for the reason; the message is the core's words).
    BadPlayerId { text: String },
    /// `text` is not a time control (the core's `TimeControlError`, read again likewise).
    BadTimeControl { text: String },
    /// Appendix A1: a correspondence game is not adjourned (take leave instead).
    AdjournCorrespondence,
    /// A2.7: the resumption is more than 30 days after the sealing.
    ResumptionTooFar,
    /// A2.7 under the game's terms: the resumption gives the responder less than the agreed
    /// notice (`notice`: the terms' minimum, as a duration like `10m`).
    ResumptionNotice { notice: String },
    /// A9, A11: no envelope is closed in the game.
    NoEnvelope,
    /// A3: no arbiter keeps the envelope: only its sealer opens it.
    EnvelopeInNobodysKeeping,
    /// A9: another arbiter (`arbiter`) keeps the envelope.
    NotTheEnvelopesArbiter { arbiter: String },
    /// A9c: the game is not adjourned: the envelope opens when the absent player arrives.
    EnvelopeGameNotAdjourned,
    /// A2.7, A7: the arbiter's envelope opens at the resumption (`at_ms`, when known).
    EnvelopeTooEarly {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// A7: the responder is absent: the arbiter's envelope stays closed.
    EnvelopeResponderAbsent,
    /// A11: only the envelope's sealer loses its opening.
    NotTheSealer,
    /// A3, A11: the arbiter keeps the opening: nothing is lost (no resignation for it).
    ArbiterKeepsOpening { arbiter: String },
    /// A3: the envelope cannot be escrowed or opened from the escrow; `place` says where
    /// the arbiter was named when it is their key that is unusable.
    /// The problem is the core's own [`EscrowError`] (`None`: a kind this client does not
    /// know); only the kinds a player meets are sent ([`kinds::coded_escrow_error`]).
    Escrow {
        #[serde(deserialize_with = "kinds::known")]
        problem: Option<EscrowError>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        place: Option<IdPlace>,
    },
    /// A9c: a reply in a second envelope keeps the adjournment's resumption.
    ReplyKeepsResumption,
    /// A8: the sealed move `text` is not one legal move (`reason`: the core's English
    /// detail); sealed as written it would lose.
    SealedMoveNotUnique { text: String, reason: String },
    /// A3: a sealed move in escrow is at most `max` bytes.
    EscrowedMoveTooLong { max: usize },
    /// A3: the arbiter keeping the envelope is not a player of the game.
    ArbiterIsPlayer,
    /// A3 under the game's terms: only the agreed arbiter (if any) keeps an envelope.
    ArbiterNotAgreed { agreed: Option<String> },
    /// `text`, given at `place`, is not a player id (read again with the core for the
    /// reason, like [`RefusalCode::BadPlayerId`]).
    PlayerIdAt { place: IdPlace, text: String },
    /// A league decision names no player (`--player`).
    LeaguePlayerNeeded,
    /// A league decision names no player who enters (`--player`).
    LeagueEntrantNeeded,
    /// `player` is not a player of the league `league` (its name).
    NotALeaguePlayer { player: String, league: String },
    /// `player` (their name in the league) has no game in `round`.
    NoGameInRound { player: String, round: u32 },
    /// A league decision needs its round (`--round`).
    RoundNeeded,
    /// An adjudication needs its result (`--result`).
    ResultNeeded,
    /// A settings decision needs the withdrawal rule (`--withdrawal`).
    WithdrawalRuleNeeded,
    /// The league keeps no more decisions.
    TooManyDecisions,
    /// The core refused a league, a join or a decision: the core's own error
    /// ([`LeagueRefusal`]; `None`: a kind this client does not know, from a newer node).
    /// Only the kinds a player meets are sent ([`kinds::coded_league_error`],
    /// [`kinds::coded_decision_error`]).
    League {
        #[serde(deserialize_with = "kinds::known")]
        problem: Option<LeagueRefusal>,
    },
    /// F1: the core's coin rule refused the default: the core's own [`CoinRule`] (`None`: a
    /// kind this client does not know, from a newer node). Only the kinds a player meets
    /// are sent ([`kinds::coded_coin_rule`]).
    CoinRule {
        #[serde(deserialize_with = "kinds::known")]
        problem: Option<CoinRule>,
    },
    /// F1: the challenger may still open the coin until `deadline_ms` (`now_ms`: when the
    /// node refused); `manual`: the player's node does not sign the default by itself.
    CoinBeforeDeadline {
        deadline_ms: u64,
        now_ms: u64,
        manual: bool,
    },
    /// `text` is not a multiaddr (`reason`: libp2p's English words).
    BadMultiaddr { text: String, reason: String },
    /// The address `text` does not end with /p2p/<peer id>.
    AddrWithoutPeer { text: String },
    /// The node could not dial `addr` (`reason`: libp2p's English words).
    CannotReach { addr: String, reason: String },
    /// The FEN `fen` cannot be read (the core's `ParseFenError`: a client reads `fen` again
    /// with the core for the reason, like [`RefusalCode::BadPlayerId`]).
    MalformedFen { fen: String },
    /// The game is being restored after `sobre node repair`: the node signs nothing in it.
    GameRestoring { game: String },
    /// One of the node's limits on the player's own events in a game.
    Quota { problem: QuotaProblem },
    /// A replacement names no player replaced (`--replaces`).
    ReplacedPlayerNeeded,
    /// A control request line that is not a request (`reason`: serde's English detail).
    BadRequest { reason: String },
    /// A control request line over `max` bytes.
    RequestTooLong { max: usize },
    /// A control request line that is JSON but not an object.
    RequestNotObject,
    /// A control request without its API version (this node speaks `version`).
    ApiVersionMissing { version: u32 },
    /// A control request of API version `given` (JSON text); this node speaks `version`.
    ApiVersionUnsupported { given: String, version: u32 },
    /// A11.1: no declared sealed move awaits acceptance in the game.
    NoDeclaredMove,
    /// A11.2: the player already asked to annul the game; it is annulled when the
    /// opponent asks too (or the agreed arbiter annuls it).
    AnnulAlreadyAsked,
    // The board's own refusals (`sobre board`).
    /// The board could not be served on 127.0.0.1:`port` (0: any free port; `reason`: the
    /// system's English words, most often that another program holds the port).
    BoardNotServed { port: u16, reason: String },
    /// An invite pasted on the board is not one (`reason`: the invite reader's English).
    BadInvite { reason: String },
    /// An invite pasted on the board is the player's own.
    OwnInvite,
    /// A `watch` sent to the board's `/api`: the page's events are at `/events`.
    WatchOnBoard,
    /// A code this client does not know (sent by a newer node): the message says it.
    #[serde(other)]
    Other,
}

/// What the move of a [`RefusalCode::BadMove`] was for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MovePlace {
    /// A move to play (or in a conditional line).
    #[default]
    Played,
    /// The move sealed in an adjournment's envelope (A1).
    Sealed,
    /// The move a draw claim announces (9.2, 9.3).
    Intended,
}

impl MovePlace {
    fn is_played(&self) -> bool {
        *self == MovePlace::Played
    }
}

/// What kind of problem a [`RefusalCode::BadMove`] is (the core's [`MoveErrorKind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BadMoveKind {
    Syntax,
    Illegal,
    Ambiguous,
}

impl RefusalCode {
    /// The refusal of a move the player typed (`conditional`: its place in a conditional
    /// line).
    pub fn bad_move(e: &MoveError, place: MovePlace, conditional: Option<usize>) -> RefusalCode {
        RefusalCode::BadMove {
            text: e.input().to_owned(),
            kind: match e.kind() {
                MoveErrorKind::Syntax => BadMoveKind::Syntax,
                MoveErrorKind::Illegal => BadMoveKind::Illegal,
                MoveErrorKind::Ambiguous => BadMoveKind::Ambiguous,
            },
            reason: e.reason().to_owned(),
            conditional,
            letters: e.readings().is_some(),
            place,
        }
    }

    /// The code of a rule the core refused an authored event by, for the rules a player
    /// commonly meets ([`kinds::coded_rule_violation`]); `None` for the others (the message
    /// alone says them).
    pub fn of_rule(rule: &RuleViolation) -> Option<RefusalCode> {
        let problem = kinds::coded_rule_violation(rule)?;
        Some(RefusalCode::Rule {
            problem: Some(problem),
        })
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod wire_tests;
