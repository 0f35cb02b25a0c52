//! The words of the core's types and typed errors that reach a player (a colour, a game's
//! state, a FEN, a duration, a time control or a player id that does not read), in `w`'s
//! language from sobre's one catalogue: the node's refusals and the CLI word them here.
//! Keyed by variant (an exhaustive match, so a new variant cannot go unworded), never by
//! text; a text the player gave is quoted as it came.

use sobre_core::clock::{DurationError, DurationErrorKind, TimeControlError, TimeControlErrorKind};
use sobre_core::notation::fen::{FenError, ParseFenError};
use sobre_core::record::{PlayerIdError, Status};
use sobre_core::{Color, PositionError};
use sobre_words::{Words, t};

/// `white` / `black` (`blancas` / `negras`).
pub fn colour(w: &Words, c: Color) -> String {
    match c {
        Color::White => t!(w, "colour-white"),
        Color::Black => t!(w, "colour-black"),
    }
}

/// A game's state (`active`, `finished`…).
pub fn status(w: &Words, s: Status) -> String {
    match s {
        Status::Pending => t!(w, "status-pending"),
        Status::Active => t!(w, "status-active"),
        Status::Adjourned => t!(w, "status-adjourned"),
        Status::Finished => t!(w, "status-finished"),
        Status::Cancelled => t!(w, "status-cancelled"),
        Status::Disputed => t!(w, "status-disputed"),
    }
}

/// A FEN that does not read, or describes an impossible position. The board's own
/// complaint (`FenError::Board`) is the core's words, quoted.
pub fn fen(w: &Words, e: &ParseFenError) -> String {
    let colour = |c| self::colour(w, c);
    match e {
        ParseFenError::Syntax(f) => match f {
            FenError::Empty => t!(w, "fen-empty"),
            FenError::Board(why) => t!(w, "fen-board", why = why),
            FenError::Turn(s) => t!(w, "fen-turn", text = quoted(s)),
            FenError::Castling(s) => t!(w, "fen-castling", text = quoted(s)),
            FenError::EnPassant(s) => t!(w, "fen-en-passant", text = quoted(s)),
            FenError::Counter(s) => t!(w, "fen-counter", text = quoted(s)),
            FenError::TrailingFields(s) => t!(w, "fen-trailing", text = quoted(s)),
        },
        ParseFenError::Illegal(p) => {
            let why = match p {
                PositionError::MissingKing(c) => t!(w, "position-no-king", colour = colour(*c)),
                PositionError::TooManyKings(c) => {
                    t!(w, "position-kings", colour = colour(*c))
                }
                PositionError::TooManyPieces(c) => {
                    t!(w, "position-pieces", colour = colour(*c))
                }
                PositionError::PawnOnBackRank => t!(w, "position-pawn-rank"),
                PositionError::OppositeCheck(c) => {
                    t!(w, "position-opposite-check", colour = colour(*c))
                }
                PositionError::ImpossibleCheck => t!(w, "position-impossible-check"),
                PositionError::InvalidCastlingRights(sq) => {
                    t!(w, "position-castling", square = sq.to_string())
                }
                PositionError::InvalidEpSquare(sq) => {
                    t!(w, "position-en-passant", square = sq.to_string())
                }
            };
            t!(w, "position-illegal", why = why)
        }
    }
}

/// A duration that does not parse (`3w`).
pub fn duration(w: &Words, e: &DurationError) -> String {
    let why = match &e.kind {
        DurationErrorKind::Empty => t!(w, "duration-empty"),
        DurationErrorKind::ExpectedNumber { found } => {
            t!(w, "duration-expected-number", found = quoted_char(*found))
        }
        DurationErrorKind::MissingUnit { number } => {
            t!(w, "duration-missing-unit", number = number)
        }
        DurationErrorKind::UnknownUnit { unit } => {
            t!(w, "duration-unknown-unit", unit = quoted(unit))
        }
        DurationErrorKind::Unexpected { found } => {
            t!(w, "duration-unexpected", found = quoted_char(*found))
        }
        DurationErrorKind::UnitOrder { unit } => {
            t!(w, "duration-unit-order", unit = quoted(unit))
        }
        DurationErrorKind::Overflow => t!(w, "duration-overflow"),
    };
    t!(w, "duration-invalid", input = quoted(&e.input), why = why)
}

/// A time control that does not parse (`0/50d`).
pub fn time_control(w: &Words, e: &TimeControlError) -> String {
    let why = match &e.kind {
        TimeControlErrorKind::Empty => t!(w, "tc-empty"),
        TimeControlErrorKind::Duration(d) => duration(w, d),
        TimeControlErrorKind::MoveCount { text } => {
            t!(w, "tc-move-count", text = quoted(text))
        }
        // `what` is one of the core's fixed names of a part of the control.
        TimeControlErrorKind::ZeroTime { what } => {
            let part = match *what {
                "a period" => t!(w, "tc-part-period"),
                "the final period" => t!(w, "tc-part-final"),
                "the time per move" => t!(w, "tc-part-per-move"),
                other => other.to_owned(),
            };
            t!(w, "tc-zero-time", part = part)
        }
        TimeControlErrorKind::NoPeriods => t!(w, "tc-no-periods"),
        TimeControlErrorKind::CorrespondenceShape => t!(w, "tc-correspondence-shape"),
        TimeControlErrorKind::AfterFinalPeriod { text } => {
            t!(w, "tc-after-final", text = quoted(text))
        }
        TimeControlErrorKind::AmbiguousPlus { text } => t!(w, "tc-ambiguous-plus", text = text),
        TimeControlErrorKind::DuplicateBonus => t!(w, "tc-duplicate-bonus"),
        TimeControlErrorKind::EmptyPeriod => t!(w, "tc-empty-period"),
        TimeControlErrorKind::Unexpected { text } => {
            t!(w, "tc-unexpected", text = quoted(text))
        }
    };
    t!(w, "tc-invalid", input = quoted(&e.input), why = why)
}

/// A text that is not a player id.
pub fn player_id(w: &Words, e: &PlayerIdError) -> String {
    match e {
        PlayerIdError::NotAPeerId(s) => t!(w, "player-id-not-peer", text = quoted(s)),
        PlayerIdError::NotEd25519(s) => t!(w, "player-id-not-ed25519", text = quoted(s)),
    }
}

/// A text the player gave, as the messages quote it: in double quotes, with quotes,
/// backslashes and control characters escaped (Rust's quoting of a string, so that the
/// English reads as the core's own errors do).
pub fn quoted(s: &str) -> String {
    format!("{s:?}")
}

/// A character the player gave, in single quotes (escaped as [`quoted`] escapes).
fn quoted_char(c: char) -> String {
    format!("{c:?}")
}
