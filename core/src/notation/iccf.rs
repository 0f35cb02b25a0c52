//! ICCF numeric notation, the language-free notation of correspondence chess: each square
//! is two digits, file then rank (a1 = `11`, e2 = `52`), so `5254` is e2-e4. A promotion
//! adds a fifth digit: 1 queen, 2 rook, 3 bishop, 4 knight (`57581` is e7-e8=Q). Castling
//! is written as the king's move (`5171` is O-O).
//!
//! In Chess960 the king's move to its castling square can be an ordinary king move, or no
//! move at all (king already on g1): there the castling is written, and also read, as
//! king-takes-own-rook, as in [`super::uci`].

use std::fmt;
use std::str::FromStr;

use super::uci::{IllegalCoordinateMove, resolve};
use crate::{Bitboard, Move, MoveKind, Position, Role, Square};

/// A move in ICCF numeric notation, independent of any position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Iccf {
    /// Origin square.
    pub from: Square,
    /// Destination square (the king's, for castling; see the module docs for Chess960).
    pub to: Square,
    /// The piece a pawn promotes to (FIDE 3.7e).
    pub promotion: Option<Role>,
}

/// The text is not ICCF numeric notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read `{text}` as ICCF numeric notation: {reason}")]
pub struct ParseIccfError {
    text: String,
    reason: &'static str,
}

impl ParseIccfError {
    /// The text as given (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why it could not be read.
    pub fn reason(&self) -> &str {
        self.reason
    }
}

/// Either error of [`parse_iccf`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadIccfError {
    /// Not ICCF numeric notation.
    #[error(transparent)]
    Syntax(#[from] ParseIccfError),
    /// ICCF numeric notation, but not a legal move here.
    #[error(transparent)]
    Illegal(#[from] IllegalCoordinateMove),
}

fn digit_square(file: u8, rank: u8) -> Option<Square> {
    let ok = |d: u8| (b'1'..=b'8').contains(&d);
    (ok(file) && ok(rank)).then(|| Square::from_coords(file - b'1', rank - b'1'))
}

impl FromStr for Iccf {
    type Err = ParseIccfError;

    /// Reads `5254` or `57581`.
    fn from_str(text: &str) -> Result<Iccf, ParseIccfError> {
        let err = |reason| ParseIccfError {
            text: text.trim().to_owned(),
            reason,
        };
        let b = text.trim().as_bytes();
        if !(4..=5).contains(&b.len()) || !b.iter().all(u8::is_ascii_digit) {
            return Err(err(
                "expected four digits (five for a promotion), like 5254",
            ));
        }
        let from = digit_square(b[0], b[1]).ok_or(err("square digits run from 1 to 8"))?;
        let to = digit_square(b[2], b[3]).ok_or(err("square digits run from 1 to 8"))?;
        let promotion = match b.get(4) {
            None => None,
            Some(b'1') => Some(Role::Queen),
            Some(b'2') => Some(Role::Rook),
            Some(b'3') => Some(Role::Bishop),
            Some(b'4') => Some(Role::Knight),
            Some(_) => return Err(err("the promotion digit is 1 (Q), 2 (R), 3 (B) or 4 (N)")),
        };
        if from == to {
            return Err(err("a move must leave its square"));
        }
        Ok(Iccf {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for Iccf {
    /// `5254`, `57581`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sq = |s: Square| (s.file() + 1) * 10 + s.rank() + 1;
        write!(f, "{}{}", sq(self.from), sq(self.to))?;
        if let Some(p) = self.promotion {
            let d = match p {
                Role::Rook => 2,
                Role::Bishop => 3,
                Role::Knight => 4,
                _ => 1,
            };
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl Iccf {
    /// The ICCF form of a legal move. Castling is the king's move, except in Chess960 when
    /// that would read as an ordinary king move or as no move: then king-takes-rook.
    pub fn from_move(pos: &Position, mv: Move) -> Iccf {
        let mut to = mv.to;
        if mv.is_castle() {
            let dest = mv.king_destination();
            let clash = dest == mv.from
                || pos
                    .legal_moves_filtered(Some(Role::King), Bitboard::from_square(dest))
                    .iter()
                    .any(|m| m.kind == MoveKind::Normal);
            if !clash {
                to = dest;
            }
        }
        Iccf {
            from: mv.from,
            to,
            promotion: mv.promotion(),
        }
    }

    /// The legal move this names in `pos`.
    ///
    /// # Errors
    /// [`IllegalCoordinateMove`] with the reason.
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalCoordinateMove> {
        resolve(pos, self.from, self.to, self.promotion)
            .map_err(|reason| IllegalCoordinateMove::new(self.to_string(), reason))
    }
}

/// Reads ICCF numeric notation and finds the legal move it names.
///
/// # Errors
/// [`ReadIccfError::Syntax`] if it is not ICCF notation, [`ReadIccfError::Illegal`] if it
/// names no legal move in `pos`.
///
/// # Examples
/// ```
/// use sobre_core::{Position, notation::iccf::parse_iccf};
/// let mv = parse_iccf(&Position::new(), "5254").unwrap();
/// assert_eq!(mv.to.to_string(), "e4");
/// ```
pub fn parse_iccf(pos: &Position, text: &str) -> Result<Move, ReadIccfError> {
    let iccf: Iccf = text.parse()?;
    resolve(pos, iccf.from, iccf.to, iccf.promotion)
        .map_err(|reason| IllegalCoordinateMove::new(text.trim().to_owned(), reason).into())
}

/// The ICCF numeric notation of a legal move (see [`Iccf::from_move`]).
pub fn to_iccf(pos: &Position, mv: Move) -> String {
    Iccf::from_move(pos, mv).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingMode;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn iccf_digits_are_file_then_rank() {
        let p = Position::new();
        let m = parse_iccf(&p, "5254").unwrap();
        assert_eq!(m.from.to_string(), "e2");
        assert_eq!(m.to.to_string(), "e4");
        assert_eq!(to_iccf(&p, m), "5254");
        assert_eq!(to_iccf(&p, parse_iccf(&p, "7163").unwrap()), "7163");
    }

    // FIDE 3.7e: the fifth digit names the new piece.
    #[test]
    fn iccf_promotion_fifth_digit() {
        let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(parse_iccf(&p, "57581").is_err());
        let p = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
        for (t, r) in [
            ("57581", Role::Queen),
            ("57582", Role::Rook),
            ("57583", Role::Bishop),
            ("57584", Role::Knight),
        ] {
            let m = parse_iccf(&p, t).unwrap();
            assert_eq!(m.promotion(), Some(r));
            assert_eq!(to_iccf(&p, m), t);
        }
        let e = parse_iccf(&p, "5758").unwrap_err().to_string();
        assert!(e.contains("must promote"), "{e}");
    }

    // FIDE 3.8: castling written as the king's move.
    #[test]
    fn iccf_castling_is_king_move() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let m = parse_iccf(&p, "5171").unwrap();
        assert!(m.is_king_side_castle());
        assert_eq!(to_iccf(&p, m), "5171");
        let q = parse_iccf(&p, "5131").unwrap();
        assert!(q.is_castle() && !q.is_king_side_castle());
        assert_eq!(to_iccf(&p, q), "5131");
    }

    #[test]
    fn iccf_syntax_errors() {
        let p = Position::new();
        for bad in [
            "", "525", "525411", "5290", "0254", "52545", "e2e4", "52-54",
        ] {
            let e = parse_iccf(&p, bad).unwrap_err();
            assert!(matches!(e, ReadIccfError::Syntax(_)), "{bad}: {e}");
        }
    }
}
