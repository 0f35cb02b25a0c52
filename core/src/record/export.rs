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
use super::event::{ClaimReason, EventId, GameId, SignedEvent};
use super::identity::PlayerId;
use super::verify::{ClaimRecord, GameState, Status, VerifyError, verify};
use crate::notation::fen::STARTING_FEN;
use crate::pgn::{GameRecord, WrittenMove};
use crate::types::Color;
use std::collections::HashMap;
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

// ----- PGN -----

/// The name a player gets in PGN when the caller knows no better one: the player id.
pub fn player_id_name(player: &PlayerId) -> String {
    player.to_string()
}

/// The game as canonical PGN (see [`to_game_record`] for what it contains).
///
/// `names` gives the `White` and `Black` tags (e.g. from an address book); pass
/// [`player_id_name`] to use the player ids.
///
/// # Examples
/// ```no_run
/// # fn demo(state: &sobre_core::record::GameState) {
/// use sobre_core::record::export::{player_id_name, to_pgn};
/// let pgn = to_pgn(state, &player_id_name);
/// assert!(pgn.starts_with("[Event \"sobre"));
/// # }
/// ```
pub fn to_pgn(state: &GameState, names: &dyn Fn(&PlayerId) -> String) -> String {
    to_game_record(state, names).to_string()
}

/// The game as a [`GameRecord`] for the canonical PGN writer:
///
/// - the Seven Tag Roster: `Event` (`sobre correspondence game`, or `sobre league <id>` for
///   a league game), `Site` `sobre`, `Date` of the start (UTC), `Round` (`-`, or the league
///   round), `White`/`Black` from `names`, `Result` (`*` while unfinished);
/// - `TimeControl` (sobre's text form), `Termination` (in words, or `unterminated`),
///   `WhiteId`/`BlackId`, `GameId`; `Variant "Chess960"` for a Chess960 start, and
///   `SetUp`/`FEN` for any start other than the standard position;
/// - each move in English SAN with a comment: its signed time `[%sobre-time …]`, the
///   opponent's receipt `[%sobre-received …]` when there is one, and notes for a sealed move,
///   a lost envelope (A11) and claims made after it;
/// - after the last move: an invalid sealed move (A8) and equivocations, if any.
pub fn to_game_record(state: &GameState, names: &dyn Fn(&PlayerId) -> String) -> GameRecord {
    let start = state.start.clone().unwrap_or_default();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut tag = |name: &str, value: String| tags.push((name.to_owned(), value));

    let (event, round) = match &state.challenge.league {
        Some(l) => (
            format!("sobre league {}", l.league.to_hex()),
            l.round.to_string(),
        ),
        None => ("sobre correspondence game".to_owned(), "-".to_owned()),
    };
    tag("Event", event);
    tag("Site", "sobre".to_owned());
    tag(
        "Date",
        state
            .started_ms
            .map_or_else(|| "????.??.??".to_owned(), pgn_date),
    );
    tag("Round", round);
    tag(
        "White",
        state.white.as_ref().map_or_else(|| "?".into(), names),
    );
    tag(
        "Black",
        state.black.as_ref().map_or_else(|| "?".into(), names),
    );
    tag("TimeControl", state.time_control.to_string());
    tag(
        "Termination",
        state
            .termination
            .map_or("unterminated", |t| t.describe())
            .to_owned(),
    );
    if let Some(w) = &state.white {
        tag("WhiteId", w.to_string());
    }
    if let Some(b) = &state.black {
        tag("BlackId", b.to_string());
    }
    tag("GameId", state.game.to_hex());
    if start.is_chess960() {
        tag("Variant", "Chess960".to_owned());
    }
    let fen = start.fen();
    if start.is_chess960() || fen != STARTING_FEN {
        // The writer puts `SetUp "1"` before it.
        tag("FEN", fen);
    }

    let (notes, final_notes) = move_notes(state, names);
    let mut moves: Vec<WrittenMove> = state
        .moves
        .iter()
        .zip(notes)
        .map(|(m, notes)| WrittenMove {
            san: m.san.clone(),
            comment: Some(notes.join(" ")),
            nags: Vec::new(),
        })
        .collect();
    if !final_notes.is_empty() {
        let text = final_notes.join("; ");
        match moves.last_mut().and_then(|m| m.comment.as_mut()) {
            Some(c) => {
                c.push_str("; ");
                c.push_str(&text);
            }
            // No move to hang a comment on: keep the note as a tag rather than lose it.
            None => tags.push(("Annotation".to_owned(), text)),
        }
    }
    GameRecord {
        tags,
        moves,
        first_ply_black: start.turn() == Color::Black,
        first_move_number: start.fullmove_number(),
        result: state.result.map_or("*", |o| o.as_str()).to_owned(),
    }
}

/// The comment words of each move, and the notes that belong after the last move.
fn move_notes(
    state: &GameState,
    names: &dyn Fn(&PlayerId) -> String,
) -> (Vec<Vec<String>>, Vec<String>) {
    let mut notes: Vec<Vec<String>> = state
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mut n = vec![format!("[%sobre-time {}]", iso_utc(m.time_ms))];
            if let Some(r) = m.received_ms {
                n.push(format!("[%sobre-received {}]", iso_utc(r)));
            }
            if m.sealed {
                // A3, A9: say when the arbiter keeping the envelope opened it.
                let by_arbiter = state
                    .envelopes
                    .iter()
                    .any(|e| e.opened_by_arbiter && e.ply as usize == i + 1);
                n.push(if by_arbiter {
                    "sealed move opened at resumption by the arbiter".to_owned()
                } else {
                    "sealed move opened at resumption".to_owned()
                });
            }
            n
        })
        .collect();
    let mut final_notes = Vec::new();
    if state.envelope_lost {
        // A11: the envelope stays unopened and the sealer's next move is the one at its ply.
        let ply = state
            .envelopes
            .iter()
            .find(|e| e.opened.is_none())
            .map(|e| e.ply as usize);
        match ply
            .and_then(|p| p.checked_sub(1))
            .and_then(|i| notes.get_mut(i))
        {
            Some(n) => n.push("envelope lost (A11)".to_owned()),
            None => final_notes.push("envelope lost (A11)".to_owned()),
        }
    }
    for claim in &state.claims {
        let text = claim_note(claim);
        match claim_ply(state, claim)
            .checked_sub(1)
            .and_then(|i| notes.get_mut(i))
        {
            Some(n) => n.push(text),
            None => final_notes.push(text),
        }
    }
    if let Some(e) = &state.sealed_move_error {
        final_notes.push(e.clone());
    }
    if state.status == Status::Disputed {
        for e in &state.equivocations {
            final_notes.push(format!(
                "disputed: equivocation by {} at seq {}",
                names(&e.author),
                e.seq
            ));
        }
    }
    (notes, final_notes)
}

fn claim_note(claim: &ClaimRecord) -> String {
    format!(
        "{} claims {}: {} - {}",
        capitalised(claim.by.name()),
        claim_reason_words(claim.reason),
        if claim.correct {
            "correct"
        } else {
            "incorrect"
        },
        claim.judgement
    )
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// How many moves had been played when a claim was made (the claim follows that ply; a
/// move announced with an incorrect claim, 9.5b, counts as played with it).
pub fn claim_ply(state: &GameState, claim: &ClaimRecord) -> usize {
    let at: HashMap<EventId, usize> = state
        .timeline
        .iter()
        .enumerate()
        .map(|(i, id)| (*id, i))
        .collect();
    let Some(&claim_at) = at.get(&claim.event) else {
        return state.moves.len();
    };
    state
        .moves
        .iter()
        .filter(|m| at.get(&m.event).is_some_and(|&i| i <= claim_at))
        .count()
}

/// A claim's reason in words, with the article, for PGN comments and messages.
pub fn claim_reason_words(reason: ClaimReason) -> &'static str {
    match reason {
        ClaimReason::Threefold => "threefold repetition (9.2)",
        ClaimReason::FiftyMoves => "the fifty-move rule (9.3)",
        ClaimReason::Time => "a win on time (6.9)",
        ClaimReason::DeadPosition => "a dead position (9.6)",
        ClaimReason::Lateness => "lateness at resumption (A10)",
    }
}

/// A claim's reason as a stable machine name (`snake_case`) for JSON.
pub fn claim_reason_code(reason: ClaimReason) -> &'static str {
    match reason {
        ClaimReason::Threefold => "threefold",
        ClaimReason::FiftyMoves => "fifty_moves",
        ClaimReason::Time => "time",
        ClaimReason::DeadPosition => "dead_position",
        ClaimReason::Lateness => "lateness",
    }
}

// ----- Dates -----

const MS_PER_DAY: u64 = 86_400_000;

/// The proleptic Gregorian date `(year, month 1–12, day 1–31)` of a day counted from
/// 1970-01-01 (H. Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11], March first
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A signed time (ms since the Unix epoch) as ISO 8601 UTC to the second:
/// `2026-11-21T23:44:33Z`.
pub fn iso_utc(ms: u64) -> String {
    let (y, mo, d) = civil_from_days((ms / MS_PER_DAY) as i64);
    let secs = (ms % MS_PER_DAY) / 1000;
    format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// A signed time as a PGN date in UTC: `2026.11.21`.
pub fn pgn_date(ms: u64) -> String {
    let (y, mo, d) = civil_from_days((ms / MS_PER_DAY) as i64);
    format!("{y:04}.{mo:02}.{d:02}")
}

// ----- The signed archive -----

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::event::{Challenge, ColourChoice, StartPosition};
    use crate::record::{Keypair, Scoresheet};

    const T0: u64 = 1_795_304_673_000; // 2026-11-21T23:44:33Z

    fn small_game() -> (GameId, Vec<SignedEvent>) {
        let (w, b) = (
            Keypair::from_secret_bytes(&[1; 32]),
            Keypair::from_secret_bytes(&[2; 32]),
        );
        let challenge = Challenge {
            opponent: b.player_id(),
            colour: ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            start: StartPosition::Standard,
            coin_commitment: None,
            league: None,
        };
        let Ok((ws, ch)) = Scoresheet::challenge(w, challenge, T0) else {
            panic!("challenge signs");
        };
        let mut bs = Scoresheet::join(b, ws.game());
        bs.saw(ch.id());
        let Ok(acc) = bs.accept(None, T0 + 1000) else {
            panic!("accept signs");
        };
        (ws.game(), vec![ch, acc])
    }

    fn archive_of(game: &GameId, events: &[SignedEvent]) -> String {
        match write_archive(game, events) {
            Ok(t) => t,
            Err(e) => panic!("write: {e}"),
        }
    }

    #[test]
    fn civil_dates_match_known_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(47_540), (2100, 2, 28)); // 2100 is no leap year
        assert_eq!(civil_from_days(47_541), (2100, 3, 1));
        assert_eq!(iso_utc(T0), "2026-11-21T23:44:33Z");
        assert_eq!(iso_utc(T0 + 999), "2026-11-21T23:44:33Z");
        assert_eq!(pgn_date(T0), "2026.11.21");
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
    }

    #[test]
    fn archive_round_trip_keeps_the_signed_bytes() {
        let (game, events) = small_game();
        let text = archive_of(&game, &events);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], "sobre-archive 1");
        assert_eq!(lines[1], format!("game {}", game.to_hex()));
        assert!(lines[2].starts_with("event "));
        let archive = read_archive(&text);
        assert_eq!(
            archive,
            Ok(Archive {
                game,
                events: events.clone(),
                lines: vec![3, 4],
            })
        );
    }

    #[test]
    fn comments_blank_lines_crlf_and_upper_case_are_tolerated() {
        let (game, events) = small_game();
        let text = archive_of(&game, &events);
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        lines[2] = lines[2].to_uppercase().replacen("EVENT", "event", 1);
        let messy = format!(
            "# sent by e-mail\r\n\r\n{}\r\n  {}  \r\n# a comment\r\n\r\n{}\r\n{}\r\n",
            lines[0], lines[1], lines[2], lines[3]
        );
        assert_eq!(read_archive(&messy).map(|a| a.events), Ok(events));
    }

    #[test]
    fn bad_lines_are_named() {
        let (game, events) = small_game();
        let text = archive_of(&game, &events);
        assert_eq!(read_archive(""), Err(ArchiveError::Empty));
        assert!(matches!(
            read_archive("[Event \"x\"]\n"),
            Err(ArchiveError::BadHeader { line: 1, .. })
        ));
        assert!(matches!(
            read_archive("sobre-archive 2\n"),
            Err(ArchiveError::UnsupportedVersion { line: 1, .. })
        ));
        assert_eq!(
            read_archive("sobre-archive 1\n"),
            Err(ArchiveError::MissingGame { line: 2 })
        );
        assert!(matches!(
            read_archive("sobre-archive 1\ngame 12\n"),
            Err(ArchiveError::BadGame { line: 2, .. })
        ));
        let odd = text
            .trim_end()
            .strip_suffix(|_: char| true)
            .map(str::to_owned);
        assert!(matches!(
            odd.as_deref().map(read_archive),
            Some(Err(ArchiveError::OddHex { line: 4, .. }))
        ));
        let bad = text.replacen("event ", "event zz", 1);
        assert_eq!(
            read_archive(&bad),
            Err(ArchiveError::BadHex {
                line: 3,
                column: 7,
                found: 'z'
            })
        );
        let unknown = format!("{text}move e2e4\n");
        assert!(matches!(
            read_archive(&unknown),
            Err(ArchiveError::UnknownLine { line: 5, .. })
        ));
        let long = format!("{text}event {}\n", "0".repeat(MAX_ARCHIVE_LINE));
        assert!(matches!(
            read_archive(&long),
            Err(ArchiveError::LineTooLong { line: 5, .. })
        ));
    }

    #[test]
    fn a_truncated_event_does_not_decode() {
        let (game, events) = small_game();
        let text = archive_of(&game, &events);
        // Drop the last byte (two hex digits) of the last event.
        let cut = text.trim_end();
        let cut = &cut[..cut.len() - 2];
        let err = read_archive(cut);
        assert!(
            matches!(
                err,
                Err(ArchiveError::Event {
                    line: 4,
                    index: 1,
                    ..
                })
            ),
            "{err:?}"
        );
    }

    #[test]
    fn the_game_line_must_name_the_game() {
        let (game, events) = small_game();
        let text = archive_of(&EventId([9; 32]), &events);
        let archive = read_archive(&text);
        let result = archive.map(|a| a.verify().map(|s| s.game));
        assert_eq!(
            result,
            Ok(Err(ArchiveVerifyError::GameMismatch {
                declared: EventId([9; 32]),
                actual: game
            }))
        );
    }
}
