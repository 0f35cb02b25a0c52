//! A verified game leaves sobre in two forms:
//!
//! - [`to_pgn`]: canonical PGN for people and chess software, with the signed times of the
//!   moves as `[%sobre-time …]` comments. Readable, but it proves nothing.
//! - The *signed archive* ([`write_archive`], [`read_archive`]): every signed event of the
//!   game, byte for byte, in a line-based text that survives e-mail. Anyone can check it
//!   offline with [`Archive::verify`] (the CLI: `sobre verify FILE`).
//!
//! # Archive format, version 1
//!
//! ```text
//! sobre-archive 1
//! game <64 hex digits: the game id>
//! event <hex of SignedEvent::to_bytes()>
//! event <…>
//! ```
//!
//! One event per line, in the order given (any order verifies: [`super::verify`] merges the
//! scoresheets itself). Blank lines and lines starting with `#` are ignored anywhere;
//! leading and trailing whitespace and CRLF line ends are tolerated; hex digits may be upper
//! or lower case (written lower case). The signed bytes are kept exactly as read, never
//! re-encoded. A hostile file cannot exhaust memory: the text, each line and the number of
//! events are capped ([`MAX_ARCHIVE_BYTES`], [`MAX_ARCHIVE_LINE`], [`MAX_ARCHIVE_EVENTS`])
//! before anything is decoded, and each event is decoded size-capped by
//! [`SignedEvent::from_bytes`].

use super::codec::{CodecError, MAX_EVENT_BYTES};
use super::event::{EventId, GameId, SignedEvent};
use super::verify::{GameState, VerifyError, verify};
use std::fmt::Write as _;

/// The first line of every archive of this version.
pub const ARCHIVE_HEADER: &str = "sobre-archive 1";
/// The archive version this crate reads and writes.
pub const ARCHIVE_VERSION: u32 = 1;
/// The most events one archive may hold (a long correspondence game has a few thousand).
pub const MAX_ARCHIVE_EVENTS: usize = 100_000;
/// The longest line accepted, in bytes: the hex of the largest signed event with room to
/// spare for the keyword and whitespace.
pub const MAX_ARCHIVE_LINE: usize = 2 * (MAX_EVENT_BYTES as usize + 256);
/// The largest archive text accepted, in bytes (256 MiB).
pub const MAX_ARCHIVE_BYTES: usize = 256 << 20;

/// The longest excerpt of a bad line quoted in an error message, in characters.
const QUOTE_CHARS: usize = 40;

mod dates;
mod pgn;
#[cfg(test)]
mod tests;

pub use dates::{civil_from_days, days_from_civil, iso_utc, parse_iso_utc, pgn_date};
pub use pgn::{
    claim_ply, claim_reason_code, claim_reason_words, player_id_name, to_game_record, to_pgn,
};

/// The events of one game as read from an archive: parsed, not yet verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Archive {
    /// The game the archive says it holds (checked against the events by
    /// [`Archive::verify`]).
    pub game: GameId,
    /// The signed events, in the order of the file, bytes exactly as written.
    pub events: Vec<SignedEvent>,
    /// The line (1-based) each event stands on, for error messages.
    pub lines: Vec<usize>,
}

/// Why a text is not a readable archive. Every variant names the line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    /// The text is larger than [`MAX_ARCHIVE_BYTES`].
    #[error("archive of {len} bytes exceeds the limit of {limit}")]
    TooLarge { len: usize, limit: usize },
    /// Nothing but blank lines and comments.
    #[error("empty: not a sobre archive (expected a first line `{ARCHIVE_HEADER}`)")]
    Empty,
    /// The first line is not the archive header.
    #[error("line {line}: not a sobre archive: expected `{ARCHIVE_HEADER}`, found {found:?}")]
    BadHeader { line: usize, found: String },
    /// A header of another version.
    #[error(
        "line {line}: archive version {version} is not supported (this build reads {ARCHIVE_VERSION})"
    )]
    UnsupportedVersion { line: usize, version: String },
    /// The second line is not `game <64 hex digits>`.
    #[error("line {line}: expected `game <64 hex digits>`, found {found:?}")]
    BadGame { line: usize, found: String },
    /// The text ends before the `game` line.
    #[error("line {line}: the archive ends before its `game` line")]
    MissingGame { line: usize },
    /// A line other than `event <hex>`.
    #[error("line {line}: expected `event <hex>`, found {found:?}")]
    UnknownLine { line: usize, found: String },
    /// A line longer than [`MAX_ARCHIVE_LINE`].
    #[error("line {line}: {len} bytes long, over the limit of {limit}")]
    LineTooLong {
        line: usize,
        len: usize,
        limit: usize,
    },
    /// More than [`MAX_ARCHIVE_EVENTS`] events.
    #[error("line {line}: more than {limit} events")]
    TooManyEvents { line: usize, limit: usize },
    /// An odd number of hex digits (a truncated or damaged line).
    #[error("line {line}: odd number of hex digits ({digits}): the line is truncated")]
    OddHex { line: usize, digits: usize },
    /// A character that is not a hex digit.
    #[error("line {line}, column {column}: {found:?} is not a hex digit")]
    BadHex {
        line: usize,
        column: usize,
        found: char,
    },
    /// An `event` line with no hex.
    #[error("line {line}: `event` without data")]
    EmptyEvent { line: usize },
    /// Hex that is not one signed event.
    #[error("line {line}: event #{index} does not decode: {error}")]
    Event {
        line: usize,
        /// 0-based position among the archive's events.
        index: usize,
        error: CodecError,
    },
}

/// Why an archive that was read does not verify.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveVerifyError {
    /// The events break a rule; `line` is where the offending event stands, when the error
    /// names one.
    #[error("{}{error}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
    Verify {
        line: Option<usize>,
        error: VerifyError,
    },
    /// The events verify, but as another game than the `game` line says.
    #[error("the archive says game {declared} but its events are game {actual}")]
    GameMismatch { declared: GameId, actual: GameId },
}

impl Archive {
    /// Verifies the events (see [`super::verify`]) and checks that they are the game the
    /// archive names.
    ///
    /// # Errors
    /// [`ArchiveVerifyError`] naming the line of the offending event where it can.
    pub fn verify(&self) -> Result<GameState, ArchiveVerifyError> {
        let state = verify(&self.events).map_err(|error| ArchiveVerifyError::Verify {
            line: self.line_of_error(&error),
            error,
        })?;
        if state.game != self.game {
            return Err(ArchiveVerifyError::GameMismatch {
                declared: self.game,
                actual: state.game,
            });
        }
        Ok(state)
    }

    fn line_of_error(&self, error: &VerifyError) -> Option<usize> {
        let event = match error {
            VerifyError::Event { index, .. } => return self.lines.get(*index).copied(),
            VerifyError::OtherGame { event }
            | VerifyError::NotAPlayer { event, .. }
            | VerifyError::BrokenChain { event, .. }
            | VerifyError::Gap { event, .. }
            | VerifyError::Missing { event, .. }
            | VerifyError::Rule { event, .. } => *event,
            VerifyError::Empty | VerifyError::NoChallenge | VerifyError::TwoChallenges => {
                return None;
            }
        };
        self.events
            .iter()
            .position(|e| e.id() == event)
            .and_then(|i| self.lines.get(i).copied())
    }
}

/// Writes the archive of a game: the header, the game id, one line per event in the order
/// given.
///
/// # Errors
/// Only if an event cannot be encoded (never in practice, see [`SignedEvent::to_bytes`]).
///
/// # Examples
/// ```
/// use sobre_core::record::EventId;
/// use sobre_core::record::export::{read_archive, write_archive};
/// let text = write_archive(&EventId([7; 32]), &[])?;
/// assert_eq!(text, format!("sobre-archive 1\ngame {}\n", "07".repeat(32)));
/// assert!(read_archive(&text).is_ok_and(|a| a.events.is_empty()));
/// # Ok::<(), sobre_core::record::codec::CodecError>(())
/// ```
pub fn write_archive(game: &GameId, events: &[SignedEvent]) -> Result<String, CodecError> {
    let mut out = format!("{ARCHIVE_HEADER}\ngame {}\n", game.to_hex());
    for e in events {
        let bytes = e.to_bytes()?;
        out.reserve(7 + 2 * bytes.len());
        out.push_str("event ");
        for b in bytes {
            // Writing to a String cannot fail.
            let _ = write!(out, "{b:02x}");
        }
        out.push('\n');
    }
    Ok(out)
}

/// Reads an archive (see the [module docs](self) for the format). The events are decoded
/// but not verified: call [`Archive::verify`].
///
/// # Errors
/// [`ArchiveError`] naming the first bad line.
pub fn read_archive(text: &str) -> Result<Archive, ArchiveError> {
    if text.len() > MAX_ARCHIVE_BYTES {
        return Err(ArchiveError::TooLarge {
            len: text.len(),
            limit: MAX_ARCHIVE_BYTES,
        });
    }
    let mut lines = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .map(|(n, raw)| {
            if raw.len() > MAX_ARCHIVE_LINE {
                Err(ArchiveError::LineTooLong {
                    line: n,
                    len: raw.len(),
                    limit: MAX_ARCHIVE_LINE,
                })
            } else {
                Ok((n, raw))
            }
        });

    let (line, raw) = lines.next().ok_or(ArchiveError::Empty)??;
    let header = raw.trim();
    if header != ARCHIVE_HEADER {
        return Err(match header.strip_prefix("sobre-archive ") {
            Some(v) => ArchiveError::UnsupportedVersion {
                line,
                version: quote(v.trim()),
            },
            None => ArchiveError::BadHeader {
                line,
                found: quote(header),
            },
        });
    }

    let Some(game_line) = lines.next() else {
        return Err(ArchiveError::MissingGame { line: line + 1 });
    };
    let (line, raw) = game_line?;
    let game = match split_record(raw) {
        Some(("game", value, _)) => EventId::from_hex(value),
        _ => None,
    }
    .ok_or_else(|| ArchiveError::BadGame {
        line,
        found: quote(raw.trim()),
    })?;

    let mut events = Vec::new();
    let mut event_lines = Vec::new();
    for r in lines {
        let (line, raw) = r?;
        if events.len() >= MAX_ARCHIVE_EVENTS {
            return Err(ArchiveError::TooManyEvents {
                line,
                limit: MAX_ARCHIVE_EVENTS,
            });
        }
        let (value, column) = match split_record(raw) {
            Some(("event", value, column)) => (value, column),
            _ => {
                return Err(ArchiveError::UnknownLine {
                    line,
                    found: quote(raw.trim()),
                });
            }
        };
        if value.is_empty() {
            return Err(ArchiveError::EmptyEvent { line });
        }
        let bytes = decode_hex(value, line, column)?;
        let index = events.len();
        let event = SignedEvent::from_bytes(&bytes).map_err(|error| ArchiveError::Event {
            line,
            index,
            error,
        })?;
        events.push(event);
        event_lines.push(line);
    }
    Ok(Archive {
        game,
        events,
        lines: event_lines,
    })
}

/// Splits `keyword value` (surrounding whitespace ignored) and gives the 1-based byte column
/// where the value starts.
pub(crate) fn split_record(raw: &str) -> Option<(&str, &str, usize)> {
    let lead = raw.len() - raw.trim_start().len();
    let body = raw.trim();
    let (keyword, rest) = match body.find(|c: char| c.is_ascii_whitespace()) {
        Some(i) => body.split_at(i),
        None => (body, ""),
    };
    let value = rest.trim_start();
    let column = lead + keyword.len() + (rest.len() - value.len()) + 1;
    (!keyword.is_empty()).then_some((keyword, value, column))
}

/// Decodes hex digits; `column` is where `hex` starts in its line, for the error.
pub(crate) fn decode_hex(hex: &str, line: usize, column: usize) -> Result<Vec<u8>, ArchiveError> {
    fn digit(b: u8) -> Option<u8> {
        match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            b'A'..=b'F' => Some(b - b'A' + 10),
            _ => None,
        }
    }
    let bytes = hex.as_bytes();
    if let Some(i) = bytes.iter().position(|&b| digit(b).is_none()) {
        // Every byte before `i` is ASCII, so `i` is a character boundary.
        let found = hex.get(i..).and_then(|s| s.chars().next()).unwrap_or('?');
        return Err(ArchiveError::BadHex {
            line,
            column: column + i,
            found,
        });
    }
    if !bytes.len().is_multiple_of(2) {
        return Err(ArchiveError::OddHex {
            line,
            digits: bytes.len(),
        });
    }
    Ok(bytes
        .chunks_exact(2)
        .map(|p| (digit(p[0]).unwrap_or(0) << 4) | digit(p[1]).unwrap_or(0))
        .collect())
}

/// A short excerpt of untrusted text for an error message.
fn quote(s: &str) -> String {
    if s.chars().count() <= QUOTE_CHARS {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(QUOTE_CHARS).collect();
    out.push('…');
    out
}
