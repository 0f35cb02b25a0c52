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
//! [`GameView`]): the node builds them, the `sobre` command deserializes them. After its
//! acknowledgement, each line of a `watch` is a [`watch::WatchLine`].

pub mod game;
pub mod refusal;
pub mod replies;
pub mod request;
pub mod watch;
mod words;

pub use game::{GameView, TermsView};
pub use refusal::RefusalCode;
pub use replies::Reply;
pub use request::{ApiRequest, Request};

use serde::{Deserialize, Serialize};
use sobre_core::record::TermsEdition;

/// The protocol version of this API.
pub const API_VERSION: u32 = 1;
/// The socket's file name in the home directory.
pub const SOCKET_NAME: &str = "sobre.sock";
/// The longest request line accepted.
pub const MAX_LINE_BYTES: usize = 1 << 20;

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

    /// A refusal with its code, in the catalogue's English words ([`RefusalCode::words`]).
    pub fn refused(code: RefusalCode) -> ApiError {
        let (message, hint) = code
            .words(sobre_words::words(sobre_words::Language::English))
            .unwrap_or_default();
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

/// An arbiter's decision about a league (`sobre_core::league::decision`), by its word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecisionKind {
    /// 6.7: a player did not appear; the other wins.
    Forfeit,
    /// Neither player appeared: both lose.
    DoubleForfeit,
    /// A player withdraws (the league's withdrawal rule settles their games).
    Withdraw,
    /// The arbiter gives a result, with a reason.
    Adjudicate,
    /// The withdrawal rule.
    Settings,
    /// The order of the tie-breaks.
    TieBreaks,
    /// A new player enters.
    Enter,
    /// A new player replaces one who left.
    Replace,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::request;
    use sobre_core::notation::Notation;
    use sobre_core::record::ClaimReason;

    /// The typed fields keep the words the API always carried (the JSON is unchanged), and a
    /// word outside them is refused naming the choices.
    #[test]
    fn typed_actions_keep_their_words_on_the_api() {
        for (json, request) in [
            (
                r#"{"cmd":"claim","game":"g","reason":"fifty","intended":null}"#,
                ApiRequest::Claim(request::Claim {
                    game: "g".into(),
                    reason: ClaimReason::FiftyMoves,
                    intended: None,
                    notation: None,
                }),
            ),
            (
                r#"{"cmd":"draw","game":"g","action":"decline"}"#,
                ApiRequest::Draw(request::Draw {
                    game: "g".into(),
                    action: DrawAction::Decline,
                }),
            ),
            (
                r#"{"cmd":"leave","action":"start","days":3}"#,
                ApiRequest::Leave(request::Leave {
                    action: LeaveAction::Start,
                    days: Some(3),
                }),
            ),
            (
                r#"{"cmd":"export","game":"g","format":"archive"}"#,
                ApiRequest::Export(request::Export {
                    game: "g".into(),
                    format: ExportFormat::Archive,
                }),
            ),
        ] {
            assert_eq!(serde_json::from_str::<ApiRequest>(json).unwrap(), request);
            assert_eq!(serde_json::to_string(&request).unwrap(), json);
        }
        for r in ClaimReason::ALL {
            let json = format!(r#"{{"cmd":"claim","game":"g","reason":"{}"}}"#, r.name());
            let back: ApiRequest = serde_json::from_str(&json).unwrap();
            assert!(
                matches!(back, ApiRequest::Claim(request::Claim { reason, .. }) if reason == r)
            );
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
            ApiRequest::Move(request::Move {
                game: "3f2a".into(),
                text: "Cf3".into(),
                notation: None,
            })
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
            ApiRequest::Accept(request::Accept {
                game: "3f2a".into(),
                color: None,
                position: None,
            })
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
            ApiRequest::Accept(request::Accept {
                game: "3f2a".into(),
                color: Some(sobre_core::Color::Black),
                position: Some(518),
            })
        );
        let line: RequestLine =
            serde_json::from_str(r#"{"v":1,"cmd":"coin_default","game":"3f2a"}"#).unwrap();
        assert_eq!(
            line.request,
            ApiRequest::CoinDefault(request::CoinDefault {
                game: "3f2a".into(),
                color: None,
                position: None,
            })
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
            ApiRequest::MovePreview(request::MovePreview {
                game: "3f2a".into(),
                text: "Rd1".into(),
                notation: Some(Notation::Spanish),
            })
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
            ApiRequest::Move(request::Move {
                game: "3f2a".into(),
                text: "Rd1".into(),
                notation: Some(Notation::English),
            })
        );
        let bad = serde_json::from_str::<RequestLine>(
            r#"{"v":1,"cmd":"move","game":"3f2a","text":"Rd1","notation":"klingon"}"#,
        );
        assert!(bad.is_err());
    }
}
