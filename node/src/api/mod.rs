//! The local control API: newline-delimited JSON over a Unix socket in the node's home
//! (mode 0600). One request per line, one response per line (a `watch` request is answered
//! by a stream of lines until the client hangs up).
//!
//! Request: `{"v":1,"cmd":"move","game":"3f2a","text":"Cf3"}`: the fields of
//! [`ApiRequest`], tagged by `cmd`. Response: `{"v":1,"ok":true,"result":{…}}` or
//! `{"v":1,"ok":false,"error":{"kind":"user","message":"…","hint":"…"}}`. `kind` is `user`
//! for a problem with the request (unknown game, not your move, illegal move…) and
//! `internal` for a bug or an I/O failure. The refusals a player commonly meets carry a
//! typed `code` too (`"code":{"id":"not_your_move"}`, [`refusal`]) for a client to word in
//! its player's language; the message stays English. Game ids may be abbreviated to any
//! unique prefix.
//!
//! Each `result` is one of the typed replies of [`replies`] (a game's state is a
//! [`GameView`]): the node builds them, the `sobre` command deserializes them.

pub mod game;
pub mod refusal;
pub mod replies;

pub use game::{GameView, TermsView};
pub use refusal::RefusalCode;
pub use replies::Reply;

use serde::{Deserialize, Serialize};
use sobre_core::notation::Notation;
use sobre_core::record::{ClaimReason, TermsEdition};

/// The protocol version of this API.
pub const API_VERSION: u32 = 1;
/// The socket's file name in the home directory.
pub const SOCKET_NAME: &str = "sobre.sock";
/// The longest request line accepted.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One request per user action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum ApiRequest {
    /// Who this node is: `player_id`, `name`, `addresses`.
    Id,
    /// Node status: uptime, peers, games, outbox size.
    Status,
    /// Stop the node gracefully.
    Stop,
    /// Connected and known peers.
    Peers,
    /// Dial a peer.
    Connect {
        addr: String,
    },
    /// Refuse a player for good (`unblock`: lift it); without `player`, just list. Their
    /// challenges waiting for an answer are dropped, their connections closed and refused,
    /// and nothing they sign is taken any more.
    Block {
        #[serde(default)]
        player: Option<String>,
        #[serde(default)]
        unblock: bool,
    },
    /// Challenge a player: `color` is `white`, `black` or `random`; `time_control` in the
    /// text form of `sobre_core::clock`.
    Challenge {
        opponent: String,
        color: String,
        time_control: String,
        #[serde(default)]
        chess960: bool,
        #[serde(default)]
        fen: Option<String>,
        /// The terms proposed with the challenge (the acceptance countersigns them;
        /// docs/time.md). Omitted: the default terms.
        #[serde(default, skip_serializing_if = "TermsRequest::is_default")]
        terms: TermsRequest,
    },
    /// Accept a challenge. Where the challenge leaves colours or the Chess960 start to the
    /// fair coin, `color` (`white` or `black`, the colour this player wants) and `position`
    /// (0..959) say what the node chooses if the challenger never opens the coin (F1: see
    /// [`ApiRequest::CoinDefault`]); they stay on this node and are never sent.
    Accept {
        game: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        color: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<u16>,
    },
    Decline {
        game: String,
        #[serde(default)]
        reason: Option<String>,
    },
    Abort {
        game: String,
    },
    /// All games, most urgent first.
    Games,
    /// One game's full state.
    Show {
        game: String,
    },
    /// A move in any notation (English/Spanish SAN, coordinates, ICCF). `notation` is how
    /// the player writes (`en`, `es`, `figurine`, `uci`, `iccf`): SAN is read in its letters
    /// and never guessed; without it the position decides, and a text legal in both
    /// languages (`Rd1`: rook in English, king in Spanish) is refused, naming both readings.
    Move {
        game: String,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        notation: Option<Notation>,
    },
    /// What a move would do, without playing it (`sobre move --dry-run`): read and checked
    /// exactly as [`ApiRequest::Move`] (the player's letters, their turn), answered with the
    /// position after it ([`replies::MovePreviewReply`]). Nothing is signed, stored or sent.
    MovePreview {
        game: String,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        notation: Option<Notation>,
    },
    Draw {
        game: String,
        action: DrawAction,
    },
    /// `reason`: `threefold`, `fifty`, `time`, `dead`, `lateness` ([`ClaimReason::name`]);
    /// optional intended move.
    Claim {
        game: String,
        #[serde(with = "claim_name")]
        reason: ClaimReason,
        #[serde(default)]
        intended: Option<String>,
        /// How the intended move is written (as in [`ApiRequest::Move`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        notation: Option<Notation>,
    },
    Resign {
        game: String,
    },
    /// Seal a move (Appendix A). Without `force`, a move that is ambiguous, illegal or
    /// unintelligible is refused with a warning (A8 would lose the game).
    Adjourn {
        game: String,
        seal: String,
        #[serde(default)]
        resume_at_ms: Option<u64>,
        #[serde(default)]
        place: Option<String>,
        #[serde(default)]
        force: bool,
        /// The letters the sealed move is written in (as in [`ApiRequest::Move`]); they are
        /// signed in the seal, and the opening is read in them (App. E2/E3, A8).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        notation: Option<Notation>,
        /// The player (id) who keeps the envelope (A3): the opening is escrowed with them,
        /// encrypted to their key, so their node can open it at the resumption if the sealer
        /// is absent (A9) or lost it (A11). Without it, a league game's organiser, else
        /// `arbiter_setting`; neither player can be the arbiter.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        arbiter: Option<String>,
        /// The player's standing choice of arbiter (`arbiter` in `HOME/config.json`), used
        /// when neither `arbiter` nor a league organiser names one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        arbiter_setting: Option<String>,
        /// Escrow with nobody, not even the league's organiser: a lost opening then loses
        /// the game (A8, A10).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        no_arbiter: bool,
    },
    /// Announce presence at resumption; the sealer's node opens the envelope when the
    /// responder is present.
    Resume {
        game: String,
    },
    /// What the envelope says (A2).
    Envelope {
        game: String,
    },
    /// The arbiter opens the envelope escrowed to this node's player (A9): refused before
    /// Appendix A lets it be opened (the agreed time, with the responder present; earlier
    /// only when both players are) and when this node is not that envelope's arbiter.
    EnvelopeOpen {
        game: String,
    },
    /// The sealer lost the opening (A11): whether an arbiter holds it in escrow (and opens
    /// it at the resumption), or else what is left; with `resign`, resigns (A6) when no
    /// arbiter holds it.
    EnvelopeLost {
        game: String,
        #[serde(default)]
        resign: bool,
    },
    /// A11.1: the sealer, having lost the opening of their binding sealed move, declares the
    /// move they sealed: `text` read as [`ApiRequest::Move`] reads a move (`notation` as
    /// there), in the position the envelope was sealed in. Nothing is played until the
    /// responder or the agreed arbiter accepts it ([`ApiRequest::EnvelopeAcceptDeclared`]).
    EnvelopeDeclare {
        game: String,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        notation: Option<Notation>,
    },
    /// A11.1: the responder, or the game's agreed arbiter, accepts the sealer's declared
    /// move: it is played as the envelope's opening would be, so only when the envelope could
    /// be opened (A7 with A2.7: the agreed resumption, earlier with both players present).
    EnvelopeAcceptDeclared {
        game: String,
    },
    /// A11.2: annul the game while its binding envelope is closed and the position cannot be
    /// re-established. Signed by the agreed arbiter, it annuls the game; by a player, it is
    /// their half of the players' agreement: annulled once both have signed one.
    EnvelopeAnnul {
        game: String,
    },
    /// FIDE 10.2 (Appendix D): the player to move, with less than two minutes left in a
    /// quickplay finish, claims a draw; the clocks stop until the game's agreed arbiter rules
    /// ([`ApiRequest::QuickplayRule`]).
    QuickplayClaim {
        game: String,
    },
    /// FIDE 10.2a–d: the game's agreed arbiter rules on the 10.2 claim `claim` (an event id
    /// or a prefix of one; by default the claim still open): `draw`, `postpone` (with
    /// `extra_time`, two minutes for the opponent) or `reject` (two minutes for the
    /// opponent). Final.
    QuickplayRule {
        game: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        claim: Option<String>,
        ruling: sobre_core::record::QuickplayRuling,
    },
    /// Conditional moves: `add` (with `line`, e.g. `"Nf6 e5 Nd5"`: their move, my reply,
    /// their move, my reply…), `list` or `clear`.
    Conditional {
        game: String,
        action: ConditionalAction,
        #[serde(default)]
        line: Option<String>,
        /// How the line is written (as in [`ApiRequest::Move`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        notation: Option<Notation>,
    },
    Chat {
        game: String,
        text: String,
    },
    /// Leave (vacation): `start` (for `days`, default 7) or `end`, in every active game.
    Leave {
        action: LeaveAction,
        #[serde(default)]
        days: Option<u32>,
    },
    Export {
        game: String,
        format: ExportFormat,
    },
    /// Stream events as they arrive (all games, or one).
    Watch {
        #[serde(default)]
        game: Option<String>,
    },
    /// The challenged player settles a fair coin the challenger has not opened within the
    /// deadline (`sobre_core::rules::coin`): `color` is the colour this player takes,
    /// `position` the Chess960 start; each defaults to what was asked at acceptance, else
    /// the node's choice. Refused before the deadline. The node signs it by itself on its
    /// periodic tick unless it runs with `manual_coin_default`.
    CoinDefault {
        game: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        color: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<u16>,
    },
    /// The organiser signs a league definition (players in Berger order) and sends it to
    /// the players.
    LeagueCreate {
        name: String,
        players: Vec<String>,
        #[serde(default)]
        names: Vec<String>,
        #[serde(default)]
        double: bool,
        time_control: String,
        #[serde(default)]
        round_days: u32,
        #[serde(default)]
        start_ms: Option<u64>,
        /// The deputy arbiter (a player id), who decides the organiser's own games: needed
        /// when the organiser is one of the players.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deputy: Option<String>,
        /// How long after a round opens its games must have started (6.6): a pairing not
        /// started by then is forfeited by the player(s) who did not appear.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start_deadline_ms: Option<u64>,
    },
    /// A player joins a league (by id prefix or name): this accepts its games in advance.
    LeagueJoin {
        league: String,
    },
    /// The leagues this node knows.
    LeagueList,
    /// A league's archive: its signed definition, the joins and every league game this node
    /// holds (`sobre_core::league::archive`).
    LeagueExport {
        league: String,
    },
    /// The player's own profile and the profiles received from others.
    Profiles,
    /// `HOME/profile.json` changed (`sobre profile set`): sign the profile again and send it
    /// to the player's opponents, league members and mailboxes.
    ProfilePublish,
    /// Remember peers' addresses (each ending in `/p2p/<peer id>`: an invite's player, its
    /// mailboxes and bootstrap nodes) and dial them; answered with the peers remembered
    /// (`known`) and those connected now.
    Remember {
        addrs: Vec<String>,
    },
    /// The organiser (or the deputy arbiter, for the organiser's own games) signs an
    /// arbiter's decision about a league (`sobre_core::league::decision`) and sends it to
    /// everyone holding the league.
    LeagueDecide {
        league: String,
        /// `forfeit`, `withdraw`, `adjudicate`, `settings`, `tie-breaks`, `enter` or
        /// `replace`.
        kind: String,
        /// Forfeit and adjudication: the round of the pairing.
        #[serde(default)]
        round: Option<u32>,
        /// Forfeit: the winner; withdrawal: the player; adjudication: either player of the
        /// pairing (a player id).
        #[serde(default)]
        player: Option<String>,
        /// Adjudication: `1-0`, `1/2-1/2` or `0-1`.
        #[serde(default)]
        result: Option<String>,
        /// Adjudication: why.
        #[serde(default)]
        reason: Option<String>,
        /// Settings: the withdrawal rule, `fide` or `forfeit-remaining`.
        #[serde(default)]
        withdrawal: Option<String>,
        /// Tie-breaks: `fide`, `before-fide`, or a list such as `de,wins,sb,koya`.
        #[serde(default)]
        tie_breaks: Option<String>,
        /// Replacement: the player replaced (a player id); `player` replaces them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replaces: Option<String>,
        /// Entry and replacement: the new player's display name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// The latest reminders the node fired (at most `limit`, default
    /// [`DEFAULT_REMINDERS`]), oldest first.
    Reminders {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<usize>,
    },
}

/// How many reminders `reminders` lists unless asked.
pub const DEFAULT_REMINDERS: usize = 50;

/// The terms a challenge proposes ([`sobre_core::record::Terms`]), as the control API
/// carries them: players by id, times in milliseconds; what is left out takes the default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TermsRequest {
    /// The timekeepers both players agree on (typically the club's mailbox): each event
    /// counts at a timekeeper's receipt.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timekeepers: Vec<String>,
    /// The arbiter who may keep sealed moves in escrow (A3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arbiter: Option<String>,
    /// The text of the Laws the game is judged by (2009 unless said).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edition: Option<TermsEdition>,
    /// A10's limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lateness_ms: Option<u64>,
    /// The least notice a resumption gives the responder (A2.7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice_ms: Option<u64>,
    /// Whether a correspondence game may be adjourned.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub correspondence_adjournment: bool,
    /// 9.1a: no draw by agreement before this move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_draw_before_move: Option<u32>,
}

impl TermsRequest {
    /// Whether nothing differs from the default terms (the field is then left out).
    pub fn is_default(&self) -> bool {
        *self == TermsRequest::default()
    }
}

/// A request line: the version and the request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestLine {
    pub v: u32,
    #[serde(flatten)]
    pub request: ApiRequest,
}

/// Who is at fault when a request fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The request is wrong (unknown game, not your move, illegal move…): fix and retry.
    User,
    /// Something failed inside the node (I/O, a bug).
    Internal,
}

/// A failed request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    pub kind: ErrorKind,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Which refusal it is, for a client to word in its player's language ([`RefusalCode`]);
    /// absent for the refusals without a code and from older nodes. Boxed: every `Result`
    /// of the service carries this error, and the common path stays small.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<Box<RefusalCode>>,
}

impl ApiError {
    pub fn user(message: impl Into<String>) -> ApiError {
        ApiError {
            kind: ErrorKind::User,
            message: message.into(),
            hint: None,
            code: None,
        }
    }

    /// A refusal with its code, in the node's English words ([`RefusalCode::english`]).
    pub fn refused(code: RefusalCode) -> ApiError {
        let (message, hint) = code.english();
        ApiError {
            kind: ErrorKind::User,
            message,
            hint,
            code: Some(Box::new(code)),
        }
    }

    /// The same error with its code (the message is already the code's English words).
    pub fn coded(mut self, code: Option<RefusalCode>) -> ApiError {
        self.code = code.map(Box::new);
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> ApiError {
        self.hint = Some(hint.into());
        self
    }

    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            kind: ErrorKind::Internal,
            message: message.into(),
            hint: None,
            code: None,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ApiError {}

/// A response line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResponseLine {
    pub v: u32,
    pub ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ApiError>,
}

impl ResponseLine {
    pub fn from_result(r: Result<serde_json::Value, ApiError>) -> ResponseLine {
        match r {
            Ok(v) => ResponseLine {
                v: API_VERSION,
                ok: true,
                result: Some(v),
                error: None,
            },
            Err(e) => ResponseLine {
                v: API_VERSION,
                ok: false,
                result: None,
                error: Some(e),
            },
        }
    }
}

/// What a player does about a draw (9.1): `offer`, `accept` or `decline`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

/// What to do with the conditional moves of a game: `add` a line, `list` or `clear` them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConditionalAction {
    Add,
    List,
    Clear,
}

/// A leave (vacation) `start`s now or `end`s the one in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LeaveAction {
    Start,
    End,
}

/// What `export` writes: the game's `pgn`, or its signed `archive`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Pgn,
    Archive,
}

/// A claim as its word on the API ([`ClaimReason::name`]); the event on the wire keeps its
/// own encoding.
mod claim_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use sobre_core::record::ClaimReason;

    pub fn serialize<S: Serializer>(r: &ClaimReason, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(r.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ClaimReason, D::Error> {
        let word = String::deserialize(d)?;
        word.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed fields keep the words the API always carried (the JSON is unchanged), and a
    /// word outside them is refused naming the choices.
    #[test]
    fn typed_actions_keep_their_words_on_the_api() {
        for (json, request) in [
            (
                r#"{"cmd":"claim","game":"g","reason":"fifty","intended":null}"#,
                ApiRequest::Claim {
                    game: "g".into(),
                    reason: ClaimReason::FiftyMoves,
                    intended: None,
                    notation: None,
                },
            ),
            (
                r#"{"cmd":"draw","game":"g","action":"decline"}"#,
                ApiRequest::Draw {
                    game: "g".into(),
                    action: DrawAction::Decline,
                },
            ),
            (
                r#"{"cmd":"leave","action":"start","days":3}"#,
                ApiRequest::Leave {
                    action: LeaveAction::Start,
                    days: Some(3),
                },
            ),
            (
                r#"{"cmd":"export","game":"g","format":"archive"}"#,
                ApiRequest::Export {
                    game: "g".into(),
                    format: ExportFormat::Archive,
                },
            ),
        ] {
            assert_eq!(serde_json::from_str::<ApiRequest>(json).unwrap(), request);
            assert_eq!(serde_json::to_string(&request).unwrap(), json);
        }
        for r in ClaimReason::ALL {
            let json = format!(r#"{{"cmd":"claim","game":"g","reason":"{}"}}"#, r.name());
            let back: ApiRequest = serde_json::from_str(&json).unwrap();
            assert!(matches!(back, ApiRequest::Claim { reason, .. } if reason == r));
        }
        let e = serde_json::from_str::<ApiRequest>(r#"{"cmd":"claim","game":"g","reason":"x"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("threefold, fifty, time, dead or lateness"),
            "{e}"
        );
    }

    #[test]
    fn request_lines_are_flat_json_tagged_by_cmd() {
        let line: RequestLine =
            serde_json::from_str(r#"{"v":1,"cmd":"move","game":"3f2a","text":"Cf3"}"#).unwrap();
        assert_eq!(
            line.request,
            ApiRequest::Move {
                game: "3f2a".into(),
                text: "Cf3".into(),
                notation: None,
            }
        );
        let back = serde_json::to_string(&line).unwrap();
        assert!(back.contains(r#""cmd":"move""#), "{back}");
        assert!(!back.contains("notation"), "{back}");
    }

    #[test]
    fn an_acceptance_may_say_what_a_coin_default_takes() {
        // As before: no choice.
        let line: RequestLine =
            serde_json::from_str(r#"{"v":1,"cmd":"accept","game":"3f2a"}"#).unwrap();
        assert_eq!(
            line.request,
            ApiRequest::Accept {
                game: "3f2a".into(),
                color: None,
                position: None,
            }
        );
        assert_eq!(
            serde_json::to_string(&line).unwrap(),
            r#"{"v":1,"cmd":"accept","game":"3f2a"}"#
        );
        let line: RequestLine = serde_json::from_str(
            r#"{"v":1,"cmd":"accept","game":"3f2a","color":"black","position":518}"#,
        )
        .unwrap();
        assert_eq!(
            line.request,
            ApiRequest::Accept {
                game: "3f2a".into(),
                color: Some("black".into()),
                position: Some(518),
            }
        );
        let line: RequestLine =
            serde_json::from_str(r#"{"v":1,"cmd":"coin_default","game":"3f2a"}"#).unwrap();
        assert_eq!(
            line.request,
            ApiRequest::CoinDefault {
                game: "3f2a".into(),
                color: None,
                position: None,
            }
        );
    }

    /// `move --dry-run` asks for a preview with the move's fields, under its own command.
    #[test]
    fn a_preview_is_its_own_request() {
        let line: RequestLine = serde_json::from_str(
            r#"{"v":1,"cmd":"move_preview","game":"3f2a","text":"Rd1","notation":"es"}"#,
        )
        .unwrap();
        assert_eq!(
            line.request,
            ApiRequest::MovePreview {
                game: "3f2a".into(),
                text: "Rd1".into(),
                notation: Some(Notation::Spanish),
            }
        );
    }

    #[test]
    fn a_move_may_say_its_notation() {
        let line: RequestLine = serde_json::from_str(
            r#"{"v":1,"cmd":"move","game":"3f2a","text":"Rd1","notation":"en"}"#,
        )
        .unwrap();
        assert_eq!(
            line.request,
            ApiRequest::Move {
                game: "3f2a".into(),
                text: "Rd1".into(),
                notation: Some(Notation::English),
            }
        );
        let bad = serde_json::from_str::<RequestLine>(
            r#"{"v":1,"cmd":"move","game":"3f2a","text":"Rd1","notation":"klingon"}"#,
        );
        assert!(bad.is_err());
    }
}
