//! Standard Algebraic Notation (SAN): FIDE Laws 2005 Appendix E (Appendix C in the 2009
//! text), with English (`K Q R B N`) or Spanish (`R D T A C`) piece letters, and figurines.
//!
//! Reading is split in two steps, as the Laws split "what was written" from "what is legal":
//!
//! 1. [`SanPlus::parse`] reads the text alone and fails with a [`ParseSanError`] (syntax).
//! 2. [`San::to_move`] finds the one legal move it names in a position, or fails with a
//!    [`SanError`] (illegal or ambiguous) giving a reason a player understands.
//!
//! [`parse_san`] does both, including [`Lang::Auto`], where `R` may be a rook (English) or
//! a king (Spanish, *rey*). Reading is tolerant of what players really write (`0-0`, `0–0`,
//! `00`, `exd6 a.p.`, `exd6 (e.p.)`, `Pxd5`, `d8D`, `e4:d5`, `Cg1-f3`, `1.e4`, `5…Cf6`,
//! `Cf3(=)`, a missing or surplus `x` or `+`), but not of marks that say something false: an
//! en passant mark on another move, or a promotion to a king (Spanish `d8R`), is refused;
//! writing ([`to_san`], [`to_figurine`]) is canonical: minimal disambiguation, `x`, `=Q`,
//! `O-O`, `+`/`#`.
//!
//! The files follow those steps: `lang.rs` (the letters of each language), `parse.rs` (step 1,
//! the text alone), `resolve.rs` (step 2, and writing a move, which needs the same look at the
//! position to disambiguate), `fast.rs` (both steps at once for the common shapes, the hot path
//! of PGN replay). This file holds the types, their errors and the short ways ([`parse_san`],
//! [`to_san`]).

use std::fmt;

use crate::{Move, Position, Role, Square};

mod fast;
mod lang;
mod parse;
mod resolve;
#[cfg(test)]
mod tests;

pub use fast::parse_san_fast;
pub use lang::Lang;
pub(crate) use resolve::pseudo_targets;

use lang::Letters;
use parse::parse_raw;

/// King side (`O-O`) or queen side (`O-O-O`), FIDE 3.8b. In Chess960 the side is that of the
/// rook (Appendix F).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// With the rook on the king's h-file side: `O-O`.
    KingSide,
    /// With the rook on the king's a-file side: `O-O-O`.
    QueenSide,
}

impl CastlingSide {
    /// `"king side"` or `"queen side"`, for messages.
    pub fn name(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "king side",
            CastlingSide::QueenSide => "queen side",
        }
    }
}

/// A move as SAN writes it, independent of any position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move. `file`/`rank` (0-based) are the disambiguation written, or the
    /// whole origin square in long algebraic (`Cg1-f3`).
    Normal {
        /// The piece that moves.
        role: Role,
        /// File of origin, if written.
        file: Option<u8>,
        /// Rank of origin, if written.
        rank: Option<u8>,
        /// Whether a capture was marked (`x` or `:`). Only advisory when reading.
        capture: bool,
        /// Destination square.
        to: Square,
        /// The piece a pawn promotes to (FIDE 3.7e).
        promotion: Option<Role>,
    },
    /// Castling (FIDE 3.8b), `O-O` or `O-O-O`.
    Castle(CastlingSide),
}

/// Check or mate marker (`+`, `#`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#` (also read: `++`, `‡`)
    Checkmate,
}

/// SAN with what may be written around it: a check/mate marker, an en passant marker
/// (`e.p.`, `a.p.`) and a draw offer (`(=)`, FIDE E13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move itself.
    pub san: San,
    /// `+` or `#`, as written (reading) or as true (writing).
    pub suffix: Option<Suffix>,
    /// `e.p.` / `a.p.` was written (FIDE E9). Never written on output.
    pub en_passant_marker: bool,
    /// `(=)` was written after the move: a draw offer (FIDE E13).
    pub draw_offer: bool,
}

/// The text could not be read as SAN at all (before looking at any position).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read `{text}` as algebraic notation: {reason}")]
pub struct ParseSanError {
    text: String,
    reason: String,
}

impl ParseSanError {
    fn new(text: &str, reason: impl Into<String>) -> ParseSanError {
        ParseSanError {
            text: text.trim().to_owned(),
            reason: reason.into(),
        }
    }

    /// The text as given (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why it could not be read.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// A readable SAN that does not name exactly one legal move in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// No legal move matches (FIDE 3.10: the move is not legal).
    #[error("{san} is illegal: {reason}")]
    Illegal {
        /// The move as written.
        san: String,
        /// Why, in words (`no queen can reach d5`).
        reason: String,
    },
    /// More than one legal move matches; the candidates are listed.
    #[error("{san} is ambiguous: {reason}")]
    Ambiguous {
        /// The move as written.
        san: String,
        /// Which pieces could make it (`knights on b8 and f6 can reach d7`).
        reason: String,
        /// The legal moves it could mean.
        candidates: Vec<Move>,
    },
    /// Marked en passant (`e.p.`, `a.p.`, FIDE 3.7d and Appendix C9/E9) but the move it names
    /// is no en passant capture. A mark is part of what was written: a wrong one is refused
    /// rather than ignored, as an arbiter reading the score would query it.
    #[error("{san} is marked en passant, but the move from {} to {} is not an en passant capture", played.from, played.to)]
    NotEnPassant {
        /// The move as written.
        san: String,
        /// The legal move the text names without its mark.
        played: Move,
    },
    /// A promotion to a piece a pawn may not become (FIDE 3.7e: queen, rook, bishop or knight
    /// only): `c8=K`, or `c8R` in Spanish letters, where `R` is the king (*rey*).
    #[error("{san} is illegal: a pawn cannot promote to a {}", role.name())]
    IllegalPromotion {
        /// The move as written.
        san: String,
        /// The piece written (a king or a pawn).
        role: Role,
    },
}

impl SanError {
    /// The reason alone, without the move.
    pub fn reason(&self) -> &str {
        match self {
            SanError::Illegal { reason, .. } | SanError::Ambiguous { reason, .. } => reason,
            SanError::NotEnPassant { .. } => {
                "it is marked en passant (e.p., a.p.) but is not an en passant capture"
            }
            SanError::IllegalPromotion { role, .. } => match role {
                Role::King => "a pawn cannot promote to a king",
                _ => "a pawn cannot promote to a pawn",
            },
        }
    }

    /// The move as written.
    pub fn san(&self) -> &str {
        match self {
            SanError::Illegal { san, .. }
            | SanError::Ambiguous { san, .. }
            | SanError::NotEnPassant { san, .. }
            | SanError::IllegalPromotion { san, .. } => san,
        }
    }

    fn with_text(mut self, text: &str) -> SanError {
        let t = text.trim().to_owned();
        match &mut self {
            SanError::Illegal { san, .. }
            | SanError::Ambiguous { san, .. }
            | SanError::NotEnPassant { san, .. }
            | SanError::IllegalPromotion { san, .. } => *san = t,
        }
        self
    }
}

/// Either error of [`parse_san`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadSanError {
    /// Not SAN at all.
    #[error(transparent)]
    Syntax(#[from] ParseSanError),
    /// SAN, but not one legal move here.
    #[error(transparent)]
    Rules(#[from] SanError),
}

impl SanPlus {
    /// Reads SAN in the given language, without looking at a position.
    ///
    /// With [`Lang::Auto`] the English reading is returned if there is one, else the Spanish
    /// one; use [`parse_san`] to let the position decide between them.
    ///
    /// # Errors
    /// [`ParseSanError`] naming the text and what is wrong with it.
    pub fn parse(text: &str, lang: Lang) -> Result<SanPlus, ParseSanError> {
        let raw = parse_raw(text).map_err(|r| ParseSanError::new(text, r))?;
        match lang {
            Lang::English | Lang::Spanish => raw.reading(lang),
            Lang::Auto => raw
                .reading(Lang::English)
                .or_else(|_| raw.reading(Lang::Spanish)),
        }
        .map_err(|r| ParseSanError::new(text, r))
    }

    /// The one legal move this names in `pos`, as [`San::to_move`], with the en passant mark
    /// checked: `exd6 e.p.` must be an en passant capture (FIDE 3.7d, Appendix C9/E9).
    ///
    /// # Errors
    /// As [`San::to_move`], and [`SanError::NotEnPassant`] for a wrong mark.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        let mv = self.san.to_move(pos)?;
        if self.en_passant_marker && !mv.is_en_passant() {
            return Err(SanError::NotEnPassant {
                san: self.to_string(),
                played: mv,
            });
        }
        Ok(mv)
    }

    /// The SAN of a legal move, with `+` or `#` if it gives check or mate.
    pub fn from_move(pos: &Position, mv: Move) -> SanPlus {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let suffix = if after.is_checkmate() {
            Some(Suffix::Checkmate)
        } else if after.is_check() {
            Some(Suffix::Check)
        } else {
            None
        };
        SanPlus {
            san: San::from_move(pos, mv),
            suffix,
            en_passant_marker: false,
            draw_offer: false,
        }
    }

    /// Writes the move with the piece letters of `lang` (English for [`Lang::Auto`]).
    pub fn to_string_in(&self, lang: Lang) -> String {
        self.write(Letters::of(lang))
    }

    /// Writes the move with figurines (`♘f3`); pawn moves have none.
    pub fn to_figurine(&self) -> String {
        self.write(Letters::Figurine)
    }

    fn write(&self, letters: Letters) -> String {
        let mut out = self.san.write(letters);
        match self.suffix {
            Some(Suffix::Check) => out.push('+'),
            Some(Suffix::Checkmate) => out.push('#'),
            None => {}
        }
        if self.draw_offer {
            out.push_str("(=)");
        }
        out
    }
}

impl std::str::FromStr for SanPlus {
    type Err = ParseSanError;

    /// English SAN.
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::parse(s, Lang::English)
    }
}

impl fmt::Display for SanPlus {
    /// English SAN with its suffix.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write(Letters::English))
    }
}

impl fmt::Display for San {
    /// English SAN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write(Letters::English))
    }
}

/// Reads SAN and finds the legal move it names in `pos`.
///
/// With [`Lang::Auto`] both languages are tried: the letters `K Q B N` are only English,
/// `D T A C` only Spanish, but `R` is a rook in English and the king (*rey*) in Spanish. If
/// exactly one reading is legal it is taken; if both are legal and differ the move is
/// ambiguous.
///
/// # Errors
/// [`ReadSanError::Syntax`] if the text is not SAN in that language; [`ReadSanError::Rules`]
/// if it names no legal move or more than one.
///
/// # Examples
/// ```
/// use sobre_core::{Position, san::{parse_san, Lang}};
/// let pos = Position::new();
/// let mv = parse_san(&pos, "Cf3", Lang::Spanish).unwrap();
/// assert_eq!(mv.to.to_string(), "f3");
/// ```
pub fn parse_san(pos: &Position, text: &str, lang: Lang) -> Result<Move, ReadSanError> {
    let raw = parse_raw(text).map_err(|r| ParseSanError::new(text, r))?;
    match lang {
        Lang::English | Lang::Spanish => {
            let sp = raw.reading(lang).map_err(|r| ParseSanError::new(text, r))?;
            Ok(sp.to_move(pos).map_err(|e| e.with_text(text))?)
        }
        Lang::Auto if !raw.has_letters() => {
            let sp = raw
                .reading(Lang::English)
                .map_err(|r| ParseSanError::new(text, r))?;
            Ok(sp.to_move(pos).map_err(|e| e.with_text(text))?)
        }
        Lang::Auto => match (raw.reading(Lang::English), raw.reading(Lang::Spanish)) {
            (Ok(en), Ok(es)) if en.san == es.san => {
                Ok(en.to_move(pos).map_err(|e| e.with_text(text))?)
            }
            (Ok(en), Ok(es)) => match (en.to_move(pos), es.to_move(pos)) {
                (Ok(a), Ok(b)) if a == b => Ok(a),
                (Ok(a), Ok(b)) => Err(SanError::Ambiguous {
                    san: text.trim().to_owned(),
                    reason: format!(
                        "in English it is a {} move from {}, in Spanish a {} move from {}; \
                         both are legal, so say which language",
                        pos.moving_role(a).name(),
                        a.from,
                        pos.moving_role(b).name(),
                        b.from
                    ),
                    candidates: vec![a, b],
                }
                .into()),
                (Ok(a), Err(_)) | (Err(_), Ok(a)) => Ok(a),
                (Err(e1), Err(e2)) => Err(SanError::Illegal {
                    san: text.trim().to_owned(),
                    reason: format!(
                        "{} (reading it as English); {} (reading it as Spanish)",
                        e1.reason(),
                        e2.reason()
                    ),
                }
                .into()),
            },
            (Ok(sp), Err(_)) | (Err(_), Ok(sp)) => {
                Ok(sp.to_move(pos).map_err(|e| e.with_text(text))?)
            }
            (Err(_), Err(_)) => Err(ParseSanError::new(
                text,
                "unknown piece letter (English K Q R B N, Spanish R D T A C)",
            )
            .into()),
        },
    }
}

/// Canonical SAN of a legal move in `pos`, with `+`/`#`, in the letters of `lang`
/// (English for [`Lang::Auto`]). Castling is `O-O`/`O-O-O` in every language and in
/// Chess960 (by the side of the rook). For a move that is not legal in `pos` the text is
/// unspecified (but this never panics).
///
/// # Examples
/// ```
/// use sobre_core::{Position, san::{parse_san, to_san, Lang}};
/// let pos = Position::new();
/// let mv = parse_san(&pos, "Nf3", Lang::English).unwrap();
/// assert_eq!(to_san(&pos, mv, Lang::Spanish), "Cf3");
/// ```
pub fn to_san(pos: &Position, mv: Move, lang: Lang) -> String {
    SanPlus::from_move(pos, mv).to_string_in(lang)
}

/// Like [`to_san`] with figurines `♔♕♖♗♘` (the same for both colours; pawn moves have none).
pub fn to_figurine(pos: &Position, mv: Move) -> String {
    SanPlus::from_move(pos, mv).to_figurine()
}
