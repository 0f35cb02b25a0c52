//! Coordinate notation: the "Notación Internacional" of seed 004 (origin square then
//! destination square, castling as the king's move) and UCI (`e2e4`, `e7e8q`).
//!
//! Reading accepts `e2e4`, `E2E4`, `e2-e4`, `e2xe4`, and a promotion letter in English
//! (`q r b n`) or Spanish (`d t a c`). Castling may be written as the king's move (`e1g1`)
//! or as king-takes-own-rook (`e1h1`, how UCI writes Chess960 castling); where, in Chess960,
//! the king's move to its castling square is also an ordinary king move, the ordinary move
//! wins. Writing follows UCI: `e1g1` in standard chess, `e1h1` in Chess960.

use std::fmt;
use std::str::FromStr;

use super::san::pseudo_targets;
use crate::{Bitboard, Move, MoveKind, Position, Role, Square};

/// A move in coordinate notation, independent of any position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Uci {
    /// Origin square (the king's, for castling).
    pub from: Square,
    /// Destination square (the king's destination, or the castling rook's square).
    pub to: Square,
    /// The piece a pawn promotes to (FIDE 3.7e).
    pub promotion: Option<Role>,
}

/// The text is not coordinate notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read `{text}` as a coordinate move: {reason}")]
pub struct ParseUciError {
    text: String,
    reason: &'static str,
}

impl ParseUciError {
    /// The text as given (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why it could not be read.
    pub fn reason(&self) -> &str {
        self.reason
    }
}

/// A move given by its squares (coordinate or ICCF notation) that is not legal here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text} is illegal: {reason}")]
pub struct IllegalCoordinateMove {
    text: String,
    reason: String,
}

impl IllegalCoordinateMove {
    pub(crate) fn new(text: String, reason: String) -> IllegalCoordinateMove {
        IllegalCoordinateMove { text, reason }
    }

    /// The move as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why it is not legal (`the knight on g1 cannot move to g3`).
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// Either error of [`parse_uci`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadUciError {
    /// Not coordinate notation.
    #[error(transparent)]
    Syntax(#[from] ParseUciError),
    /// Coordinate notation, but not a legal move here.
    #[error(transparent)]
    Illegal(#[from] IllegalCoordinateMove),
}

/// Promotion letter, English or Spanish, either case.
fn promotion_role(c: u8) -> Option<Role> {
    Some(match c.to_ascii_lowercase() {
        b'q' | b'd' => Role::Queen,
        b'r' | b't' => Role::Rook,
        b'b' | b'a' => Role::Bishop,
        b'n' | b'c' => Role::Knight,
        _ => return None,
    })
}

impl FromStr for Uci {
    type Err = ParseUciError;

    /// Reads `e2e4`, `E2E4`, `e2-e4`, `e7e8q`, `e7e8=Q`, `e7e8D`.
    fn from_str(text: &str) -> Result<Uci, ParseUciError> {
        let err = |reason| ParseUciError {
            text: text.trim().to_owned(),
            reason,
        };
        let b = text.trim().as_bytes();
        if b.len() < 4 {
            return Err(err("expected two squares, like e2e4"));
        }
        let from = Square::from_bytes(b[0], b[1]).ok_or(err("the first square is not valid"))?;
        let mut i = 2;
        if matches!(b[i], b'-' | b'x' | b'X' | b':') {
            i += 1;
        }
        if b.len() < i + 2 {
            return Err(err("expected two squares, like e2e4"));
        }
        let to = Square::from_bytes(b[i], b[i + 1]).ok_or(err("the second square is not valid"))?;
        // `C8g7` is a Spanish knight move (rank disambiguation), not c8-g7.
        if b[0].is_ascii_uppercase() != b[i].is_ascii_uppercase() {
            return Err(err("both file letters must be in the same case"));
        }
        i += 2;
        let equals = b.get(i) == Some(&b'=');
        if equals {
            i += 1;
        }
        let promotion = match &b[i..] {
            [] if equals => return Err(err("expected a promotion letter after `=`")),
            [] => None,
            [c] => Some(promotion_role(*c).ok_or(err("unknown promotion letter"))?),
            _ => return Err(err("unexpected text after the squares")),
        };
        if from == to {
            return Err(err("a move must leave its square"));
        }
        Ok(Uci {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for Uci {
    /// `e2e4`, `e7e8q`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl Uci {
    /// The coordinate form of a legal move: castling as the king's move (`e1g1`) in standard
    /// chess and as king-takes-rook (`e1h1`) in Chess960, as UCI does.
    pub fn from_move(pos: &Position, mv: Move) -> Uci {
        let to = if mv.is_castle() && !pos.is_chess960() {
            mv.king_destination()
        } else {
            mv.to
        };
        Uci {
            from: mv.from,
            to,
            promotion: mv.promotion(),
        }
    }

    /// The legal move these squares name in `pos`.
    ///
    /// # Errors
    /// [`IllegalCoordinateMove`] with the reason (no piece there, the other side's piece,
    /// the piece cannot go there, the king would be in check, a missing promotion).
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalCoordinateMove> {
        resolve(pos, self.from, self.to, self.promotion).map_err(|reason| IllegalCoordinateMove {
            text: self.to_string(),
            reason,
        })
    }
}

/// Finds the legal move from `from` to `to`; for a king, `to` may be the castling rook or
/// the king's castling destination (FIDE 3.8b, Appendix F3), an ordinary move winning.
pub(crate) fn resolve(
    pos: &Position,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, String> {
    let us = pos.turn();
    let Some(piece) = pos.piece_at(from) else {
        return Err(format!("there is no piece on {from}"));
    };
    if piece.color != us {
        return Err(format!(
            "the {} on {from} is {}'s, and it is {}'s move",
            piece.role.name(),
            piece.color.name(),
            us.name()
        ));
    }
    let role = piece.role;
    if role == Role::King {
        let list = pos.legal_moves_filtered(
            Some(Role::King),
            Bitboard::from_square(to) | pos.castling_rooks(),
        );
        let normal = list
            .iter()
            .find(|m| m.kind == MoveKind::Normal && m.to == to);
        let castle = list
            .iter()
            .filter(|m| m.is_castle())
            .find(|m| m.to == to)
            .or_else(|| {
                list.iter()
                    .find(|m| m.is_castle() && m.king_destination() == to)
            });
        if let Some(&m) = normal.or(castle) {
            if promotion.is_some() {
                return Err("only a pawn reaching the last rank can promote".into());
            }
            return Ok(m);
        }
    } else {
        let list = pos.legal_moves_filtered(Some(role), Bitboard::from_square(to));
        let mut must_promote = false;
        for &m in list.iter().filter(|m| m.from == from) {
            match (m.kind, promotion) {
                (MoveKind::Promotion(r), Some(p)) if r == p => return Ok(m),
                (MoveKind::Promotion(_), Some(_)) => {}
                (MoveKind::Promotion(_), None) => must_promote = true,
                (_, Some(_)) => {
                    return Err("only a pawn reaching the last rank can promote".into());
                }
                (_, None) => return Ok(m),
            }
        }
        if must_promote {
            // FIDE 3.7e
            return Err("a pawn reaching the last rank must promote".into());
        }
    }
    let name = role.name();
    if pseudo_targets(pos, role, from).contains(to) {
        // FIDE 3.9: a move may not leave or place one's own king in check.
        Err(format!(
            "moving the {name} from {from} to {to} would leave the {} king in check",
            us.name()
        ))
    } else {
        Err(format!("the {name} on {from} cannot move to {to}"))
    }
}

/// Reads coordinate notation and finds the legal move it names.
///
/// # Errors
/// [`ReadUciError::Syntax`] if it is not coordinate notation, [`ReadUciError::Illegal`] if
/// it names no legal move in `pos`.
///
/// # Examples
/// ```
/// use sobre_core::{Position, uci::parse_uci};
/// let mv = parse_uci(&Position::new(), "E2-E4").unwrap();
/// assert_eq!(mv.to.to_string(), "e4");
/// ```
pub fn parse_uci(pos: &Position, text: &str) -> Result<Move, ReadUciError> {
    let uci: Uci = text.parse()?;
    resolve(pos, uci.from, uci.to, uci.promotion).map_err(|reason| {
        ReadUciError::Illegal(IllegalCoordinateMove {
            text: text.trim().to_owned(),
            reason,
        })
    })
}

/// The coordinate notation of a legal move (see [`Uci::from_move`]).
pub fn to_uci(pos: &Position, mv: Move) -> String {
    Uci::from_move(pos, mv).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingMode;

    fn pos(fen: &str, mode: CastlingMode) -> Position {
        Position::from_fen(fen, mode).unwrap()
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    // Seed 004, "Notación Internacional": origin square then destination square.
    #[test]
    fn coordinate_notation_in_any_case_and_with_dash() {
        let p = Position::new();
        for t in ["e2e4", "E2E4", "e2-e4", " e2e4 "] {
            let m = parse_uci(&p, t).unwrap();
            assert_eq!((m.from, m.to), (sq("e2"), sq("e4")), "{t}");
        }
        assert_eq!(to_uci(&p, parse_uci(&p, "g1f3").unwrap()), "g1f3");
    }

    // Seed 004: castling is written as the king's move; FIDE 3.8.
    #[test]
    fn castling_written_as_king_move() {
        let p = pos(
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
        );
        let m = parse_uci(&p, "e1g1").unwrap();
        assert!(m.is_castle() && m.is_king_side_castle());
        assert_eq!(to_uci(&p, m), "e1g1");
        assert_eq!(parse_uci(&p, "e1h1").unwrap(), m);
        let q = parse_uci(&p, "e1c1").unwrap();
        assert!(q.is_castle() && !q.is_king_side_castle());
        assert_eq!(to_uci(&p, q), "e1c1");
    }

    // FIDE Appendix F: in Chess960 the king may already stand next to its castling square.
    #[test]
    fn chess960_castling_is_king_takes_rook_and_ordinary_move_wins() {
        // King f1, rook h1: f1g1 is an ordinary king move; f1h1 castles.
        let p = pos("5k1r/8/8/8/8/8/8/5K1R w Hh - 0 1", CastlingMode::Chess960);
        let normal = parse_uci(&p, "f1g1").unwrap();
        assert_eq!(normal.kind, MoveKind::Normal);
        let castle = parse_uci(&p, "f1h1").unwrap();
        assert!(castle.is_castle());
        assert_eq!(to_uci(&p, castle), "f1h1");
    }

    // FIDE 3.7e
    #[test]
    fn promotion_letters_english_or_spanish() {
        let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard);
        assert_eq!(
            parse_uci(&p, "a7a8q").unwrap().promotion(),
            Some(Role::Queen)
        );
        assert_eq!(
            parse_uci(&p, "a7a8D").unwrap().promotion(),
            Some(Role::Queen)
        );
        assert_eq!(
            parse_uci(&p, "a7a8=n").unwrap().promotion(),
            Some(Role::Knight)
        );
        let e = parse_uci(&p, "a7a8").unwrap_err().to_string();
        assert!(e.contains("must promote"), "{e}");
        assert_eq!(to_uci(&p, parse_uci(&p, "a7a8c").unwrap()), "a7a8n");
    }

    #[test]
    fn illegal_coordinate_moves_say_why() {
        let p = Position::new();
        let e = parse_uci(&p, "e3e4").unwrap_err().to_string();
        assert_eq!(e, "e3e4 is illegal: there is no piece on e3");
        let e = parse_uci(&p, "e7e5").unwrap_err().to_string();
        assert!(e.contains("black's") && e.contains("white's move"), "{e}");
        let e = parse_uci(&p, "g1g3").unwrap_err().to_string();
        assert!(e.ends_with("the knight on g1 cannot move to g3"), "{e}");
        for bad in [
            "", "e2", "e9e4", "e2e4k", "e2e4qq", "e2e2", "i2i4", "C8g7", "e2E4",
        ] {
            assert!(parse_uci(&p, bad).is_err(), "{bad}");
        }
    }
}
