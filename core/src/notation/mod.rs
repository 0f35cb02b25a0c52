//! One front for every notation a move may arrive or leave in: algebraic (FIDE Appendix E)
//! with English or Spanish letters or figurines, coordinate notation (UCI, seed 004's
//! "Notación Internacional") and ICCF numeric notation.
//!
//! [`parse_move`] accepts any of them and fails with one error type, [`MoveError`], whose
//! message is a single line naming the input and the reason. [`format_move`] and
//! [`format_line`] write them.
//!
//! Each notation has its own module: [`san`] (algebraic), [`uci`] (coordinates), [`iccf`]
//! (ICCF digits), and [`fen`] for whole positions (FEN, X-FEN, Shredder-FEN).

use std::fmt;
use std::fmt::Write as _;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{Color, Move, Position};
use iccf::{Iccf, ReadIccfError};
use san::{Lang, ReadSanError, SanError};
use uci::{ReadUciError, Uci};

pub mod fen;
pub mod iccf;
pub mod san;
pub mod uci;

/// How moves are written. Serialised (JSON, settings) by its short [`Notation::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum Notation {
    /// SAN with English letters: `Nf3`, `exd8=Q+`, `O-O`.
    #[default]
    English,
    /// SAN with Spanish letters (FIDE E2): `Cf3`, `exd8=D+`, `O-O`.
    Spanish,
    /// SAN with figurines: `♘f3`.
    Figurine,
    /// Coordinate notation (UCI): `g1f3`, `e7e8q`, castling `e1g1` (Chess960 `e1h1`).
    Uci,
    /// ICCF numeric notation: `7163`, promotion `57581`.
    Iccf,
}

impl Notation {
    /// Every notation, in the order of the enum.
    pub const ALL: [Notation; 5] = [
        Notation::English,
        Notation::Spanish,
        Notation::Figurine,
        Notation::Uci,
        Notation::Iccf,
    ];

    /// The short name [`FromStr`] reads: `en`, `es`, `figurine`, `uci`, `iccf`.
    pub fn name(self) -> &'static str {
        match self {
            Notation::English => "en",
            Notation::Spanish => "es",
            Notation::Figurine => "figurine",
            Notation::Uci => "uci",
            Notation::Iccf => "iccf",
        }
    }
}

impl Notation {
    /// The piece letters a move typed by a player who writes in this notation is read in.
    /// Only Spanish SAN uses Spanish letters; figurine, coordinate and ICCF players type SAN
    /// in the international (English) letters when they type it at all. Never
    /// [`Lang::Auto`]: a player who said how they write is never second-guessed (App. E2).
    pub fn letters(self) -> Lang {
        match self {
            Notation::Spanish => Lang::Spanish,
            Notation::English | Notation::Figurine | Notation::Uci | Notation::Iccf => {
                Lang::English
            }
        }
    }
}

impl Notation {
    /// A move recorded in English SAN (`Nf3`, as the record and the node keep it) written
    /// in this notation when it is a SAN one: `Cf3` in Spanish letters (App. E2), `♘f3` in
    /// figurines. Coordinate and ICCF notations need the position, so they (and a text that
    /// is not SAN) keep the English SAN.
    pub fn san_of(self, english_san: &str) -> String {
        let read = || crate::SanPlus::parse(english_san, Lang::English).ok();
        match self {
            Notation::Spanish => read().map(|s| s.to_string_in(Lang::Spanish)),
            Notation::Figurine => read().map(|s| s.to_figurine()),
            Notation::English | Notation::Uci | Notation::Iccf => None,
        }
        .unwrap_or_else(|| english_san.to_owned())
    }
}

impl From<Notation> for &'static str {
    fn from(n: Notation) -> &'static str {
        n.name()
    }
}

impl TryFrom<String> for Notation {
    type Error = ParseNotationError;

    fn try_from(s: String) -> Result<Notation, ParseNotationError> {
        s.parse()
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown notation name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown notation `{0}` (expected en, es, figurine, uci or iccf)")]
pub struct ParseNotationError(String);

impl FromStr for Notation {
    type Err = ParseNotationError;

    /// `en`, `es`, `figurine`, `uci`, `iccf` (any case; `english`, `spanish` too).
    fn from_str(s: &str) -> Result<Notation, ParseNotationError> {
        let t = s.trim();
        Notation::ALL
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(t))
            .or_else(|| {
                if t.eq_ignore_ascii_case("english") {
                    Some(Notation::English)
                } else if t.eq_ignore_ascii_case("spanish") {
                    Some(Notation::Spanish)
                } else {
                    None
                }
            })
            .ok_or_else(|| ParseNotationError(t.to_owned()))
    }
}

/// What kind of problem a [`MoveError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveErrorKind {
    /// The text is not a move in any notation.
    Syntax,
    /// A readable move that is not legal in the position (FIDE 3.10).
    Illegal,
    /// A readable move that fits more than one legal move.
    Ambiguous,
}

/// Why a text is not one legal move. Displays as one line naming the input and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.line())]
pub struct MoveError {
    input: String,
    kind: MoveErrorKind,
    reason: String,
    /// For an ambiguity between the two languages' letters: the English reading, then the
    /// Spanish one (FIDE E2/E3: `R` is a rook in English, the king in Spanish).
    readings: Option<[Move; 2]>,
}

impl MoveError {
    fn new(input: &str, kind: MoveErrorKind, reason: impl Into<String>) -> MoveError {
        MoveError {
            input: input.trim().to_owned(),
            kind,
            reason: reason.into(),
            readings: None,
        }
    }

    fn line(&self) -> String {
        match self.kind {
            MoveErrorKind::Syntax => {
                format!("cannot read `{}` as a move: {}", self.input, self.reason)
            }
            MoveErrorKind::Illegal => {
                format!("`{}` is not a legal move: {}", self.input, self.reason)
            }
            MoveErrorKind::Ambiguous => format!("`{}` is ambiguous: {}", self.input, self.reason),
        }
    }

    /// The text as given (trimmed).
    pub fn input(&self) -> &str {
        &self.input
    }

    /// Syntax, illegal or ambiguous.
    pub fn kind(&self) -> MoveErrorKind {
        self.kind
    }

    /// The reason alone.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// When the text is ambiguous only because nobody said which letters it is written in:
    /// the move it names read in English, then read in Spanish. Both are legal and differ,
    /// so the reader must be told the language (never guessed, App. E2/E3).
    pub fn readings(&self) -> Option<[Move; 2]> {
        self.readings
    }
}

impl From<ReadSanError> for MoveError {
    fn from(e: ReadSanError) -> MoveError {
        match e {
            ReadSanError::Syntax(e) => MoveError::new(e.text(), MoveErrorKind::Syntax, e.reason()),
            ReadSanError::Rules(SanError::Illegal { san, reason }) => {
                MoveError::new(&san, MoveErrorKind::Illegal, reason)
            }
            ReadSanError::Rules(SanError::Ambiguous { san, reason, .. }) => {
                MoveError::new(&san, MoveErrorKind::Ambiguous, reason)
            }
            // A wrong en passant mark or a promotion to a king: legible, not legal.
            ReadSanError::Rules(
                e @ (SanError::NotEnPassant { .. } | SanError::IllegalPromotion { .. }),
            ) => MoveError::new(e.san(), MoveErrorKind::Illegal, e.reason()),
        }
    }
}

impl From<ReadUciError> for MoveError {
    fn from(e: ReadUciError) -> MoveError {
        match e {
            ReadUciError::Syntax(e) => MoveError::new(e.text(), MoveErrorKind::Syntax, e.reason()),
            ReadUciError::Illegal(e) => {
                MoveError::new(e.text(), MoveErrorKind::Illegal, e.reason())
            }
        }
    }
}

impl From<ReadIccfError> for MoveError {
    fn from(e: ReadIccfError) -> MoveError {
        match e {
            ReadIccfError::Syntax(e) => MoveError::new(e.text(), MoveErrorKind::Syntax, e.reason()),
            ReadIccfError::Illegal(e) => {
                MoveError::new(e.text(), MoveErrorKind::Illegal, e.reason())
            }
        }
    }
}

/// Writes a legal move of `pos` in `notation`. For a move that is not legal in `pos` the
/// text is unspecified (but this never panics).
///
/// # Examples
/// ```
/// use sobre_core::{Position, notation::{format_move, parse_move, Notation}, san::Lang};
/// let pos = Position::new();
/// let mv = parse_move(&pos, "Cf3", Lang::Auto).unwrap();
/// assert_eq!(format_move(&pos, mv, Notation::English), "Nf3");
/// assert_eq!(format_move(&pos, mv, Notation::Iccf), "7163");
/// ```
pub fn format_move(pos: &Position, mv: Move, notation: Notation) -> String {
    match notation {
        Notation::English => san::to_san(pos, mv, Lang::English),
        Notation::Spanish => san::to_san(pos, mv, Lang::Spanish),
        Notation::Figurine => san::to_figurine(pos, mv),
        Notation::Uci => Uci::from_move(pos, mv).to_string(),
        Notation::Iccf => Iccf::from_move(pos, mv).to_string(),
    }
}

/// Reads a move written in any notation: ICCF digits (`5254`), coordinates (`e2e4`,
/// `E2-E4`, `e7e8q`) or SAN in English, Spanish or figurines.
///
/// `hint` settles the one letter both languages use, `R` (English rook, Spanish king):
/// with [`Lang::English`] or [`Lang::Spanish`] it is read in that language, and letters
/// only the other language has (`N`, `C`, …) are still understood; with [`Lang::Auto`] the
/// position decides, and a text legal both ways is ambiguous.
///
/// # Errors
/// [`MoveError`] of kind [`MoveErrorKind::Syntax`] if the text is no move in any notation,
/// [`MoveErrorKind::Illegal`] or [`MoveErrorKind::Ambiguous`] otherwise.
///
/// # Examples
/// ```
/// use sobre_core::{Position, notation::parse_move, san::Lang};
/// let pos = Position::new();
/// let a = parse_move(&pos, "Nf3", Lang::Spanish).unwrap();
/// assert_eq!(parse_move(&pos, "g1f3", Lang::Auto).unwrap(), a);
/// assert_eq!(parse_move(&pos, "7163", Lang::Auto).unwrap(), a);
/// let err = parse_move(&pos, "Dxd5", Lang::Spanish).unwrap_err();
/// assert_eq!(err.to_string(), "`Dxd5` is not a legal move: no queen can reach d5");
/// ```
pub fn parse_move(pos: &Position, text: &str, hint: Lang) -> Result<Move, MoveError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(MoveError::new(t, MoveErrorKind::Syntax, "nothing written"));
    }
    // Digits alone are ICCF numeric notation, except castling written with zeros and no
    // dashes (`00`, `000`), which is SAN.
    if t.bytes().all(|b| b.is_ascii_digit()) && !t.bytes().all(|b| b == b'0') {
        return Ok(iccf::parse_iccf(pos, t)?);
    }
    if t.parse::<Uci>().is_ok() {
        return Ok(uci::parse_uci(pos, t)?);
    }
    let other = match hint {
        Lang::English => Lang::Spanish,
        Lang::Spanish => Lang::English,
        Lang::Auto => {
            return san::parse_san(pos, t, Lang::Auto).map_err(|e| {
                let mut err = MoveError::from(e);
                if err.kind == MoveErrorKind::Ambiguous
                    && let (Ok(en), Ok(es)) = (
                        san::parse_san(pos, t, Lang::English),
                        san::parse_san(pos, t, Lang::Spanish),
                    )
                    && en != es
                {
                    err.readings = Some([en, es]);
                }
                err
            });
        }
    };
    match san::parse_san(pos, t, hint) {
        Err(ReadSanError::Syntax(e)) => match san::parse_san(pos, t, other) {
            Err(ReadSanError::Syntax(_)) => Err(ReadSanError::Syntax(e).into()),
            r => Ok(r?),
        },
        r => Ok(r?),
    }
}

/// Writes moves played from `start` as a numbered line: `1. e4 e5 2. Nf3`, or
/// `12... Nf6 13. O-O` when Black moves first. Numbering starts at the position's move
/// number. Writing stops before the first move that is not legal where it is played.
///
/// # Examples
/// ```
/// use sobre_core::{Position, notation::{format_line, parse_move, Notation}, san::Lang};
/// let mut pos = Position::new();
/// let start = pos.clone();
/// let mut moves = Vec::new();
/// for t in ["e4", "e5", "Cf3"] {
///     let mv = parse_move(&pos, t, Lang::Spanish).unwrap();
///     pos.play_unchecked(mv);
///     moves.push(mv);
/// }
/// assert_eq!(format_line(&start, &moves, Notation::English), "1. e4 e5 2. Nf3");
/// ```
pub fn format_line(start: &Position, moves: &[Move], notation: Notation) -> String {
    let mut pos = start.clone();
    let mut out = String::with_capacity(moves.len() * 7);
    for (i, &mv) in moves.iter().enumerate() {
        if !pos.is_legal(mv) {
            break;
        }
        if i > 0 {
            out.push(' ');
        }
        let n = pos.fullmove_number();
        // Writing to a String cannot fail.
        let _ = match (pos.turn(), i) {
            (Color::White, _) => write!(out, "{n}. "),
            (Color::Black, 0) => write!(out, "{n}... "),
            (Color::Black, _) => Ok(()),
        };
        out.push_str(&format_move(&pos, mv, notation));
        pos.play_unchecked(mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingMode;

    fn line(pos: &mut Position, moves: &[&str]) -> Vec<Move> {
        moves
            .iter()
            .map(|t| {
                let mv = parse_move(pos, t, Lang::Auto).unwrap();
                pos.play_unchecked(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn notation_names_round_trip() {
        for n in Notation::ALL {
            assert_eq!(n.name().parse::<Notation>().unwrap(), n);
        }
        assert_eq!("ES".parse::<Notation>().unwrap(), Notation::Spanish);
        assert!("fr".parse::<Notation>().is_err());
    }

    #[test]
    fn any_notation_is_accepted() {
        let p = Position::new();
        let want = parse_move(&p, "Nf3", Lang::English).unwrap();
        for t in [
            "Cf3", "♘f3", "g1f3", "G1F3", "g1-f3", "7163", "1.Nf3", "Ng1-f3",
        ] {
            assert_eq!(parse_move(&p, t, Lang::Auto).unwrap(), want, "{t}");
            assert_eq!(parse_move(&p, t, Lang::Spanish).unwrap(), want, "{t}");
        }
    }

    // FIDE Appendix E2: with a Spanish hint R is the king even where a rook could go.
    #[test]
    fn hint_decides_letter_r() {
        let p =
            Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", CastlingMode::Standard).unwrap();
        let es = parse_move(&p, "Rd1", Lang::Spanish).unwrap();
        assert_eq!(es.from.to_string(), "e1");
        let en = parse_move(&p, "Rd1", Lang::English).unwrap();
        assert_eq!(en.from.to_string(), "a1");
        let e = parse_move(&p, "Rd1", Lang::Auto).unwrap_err();
        assert_eq!(e.kind(), MoveErrorKind::Ambiguous);
        assert_eq!(e.readings(), Some([en, es]));
    }

    // App. E2/E3: a player who said how they write is read in their letters, whatever else
    // the position allows (the position of the commonest rook move of all, Ra1-d1 with the
    // king on e1).
    #[test]
    fn e3_stated_notation_reads_letter_r_in_its_language() {
        let p =
            Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", CastlingMode::Standard).unwrap();
        let en = parse_move(&p, "Rd1", Notation::English.letters()).unwrap();
        assert_eq!(
            (en.from.to_string(), en.to.to_string()),
            ("a1".into(), "d1".into())
        );
        let es = parse_move(&p, "Rd1", Notation::Spanish.letters()).unwrap();
        assert_eq!(
            (es.from.to_string(), es.to.to_string()),
            ("e1".into(), "d1".into())
        );
        for n in [Notation::Figurine, Notation::Uci, Notation::Iccf] {
            assert_eq!(parse_move(&p, "Rd1", n.letters()).unwrap(), en, "{n}");
        }
        // Two knights that can reach one square are ambiguous in one language: no readings.
        let q =
            Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", CastlingMode::Standard).unwrap();
        let e = parse_move(&q, "Nd2", Lang::Auto).unwrap_err();
        assert_eq!(e.kind(), MoveErrorKind::Ambiguous);
        assert_eq!(e.readings(), None);
    }

    #[test]
    fn notation_is_serialised_by_its_short_name() {
        assert_eq!(serde_json::to_string(&Notation::Spanish).unwrap(), "\"es\"");
        let n: Notation = serde_json::from_str("\"iccf\"").unwrap();
        assert_eq!(n, Notation::Iccf);
        assert!(serde_json::from_str::<Notation>("\"fr\"").is_err());
    }

    #[test]
    fn errors_are_one_line_naming_input() {
        let p = Position::new();
        for (t, kind) in [
            ("Zz9", MoveErrorKind::Syntax),
            ("e5", MoveErrorKind::Illegal),
            ("e2e5", MoveErrorKind::Illegal),
            ("5255", MoveErrorKind::Illegal),
            ("999", MoveErrorKind::Syntax),
            ("", MoveErrorKind::Syntax),
        ] {
            let e = parse_move(&p, t, Lang::Auto).unwrap_err();
            assert_eq!(e.kind(), kind, "{t}: {e}");
            let s = e.to_string();
            assert!(!s.contains('\n') && s.contains(&format!("`{t}`")), "{s}");
        }
    }

    #[test]
    fn line_is_numbered_and_black_start_uses_ellipsis() {
        let start = Position::new();
        let mut p = start.clone();
        let moves = line(&mut p, &["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(
            format_line(&start, &moves, Notation::Spanish),
            "1. e4 e5 2. Cf3 Cc6 3. Ab5"
        );
        assert_eq!(
            format_line(&start, &moves, Notation::Uci),
            "1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5"
        );
        let mut after = start.clone();
        after.play_unchecked(moves[0]);
        assert_eq!(
            format_line(&after, &moves[1..3], Notation::Iccf),
            "1... 5755 2. 7163"
        );
        assert_eq!(
            format_line(&after, &moves[1..3], Notation::Figurine),
            "1... e5 2. ♘f3"
        );
    }

    #[test]
    fn line_stops_at_an_illegal_move() {
        let start = Position::new();
        let mut p = start.clone();
        let mut moves = line(&mut p, &["e4", "e5"]);
        moves.push(moves[0]);
        assert_eq!(format_line(&start, &moves, Notation::English), "1. e4 e5");
    }
}
