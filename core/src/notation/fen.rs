//! FEN, X-FEN and Shredder-FEN, in and out.
//!
//! Reading accepts all three castling styles (`KQkq`, X-FEN file letters for inner rooks,
//! Shredder's `HAha`) and tolerates missing move counters. Syntax errors ([`FenError`]) are
//! separate from illegal positions ([`PositionError`]).

use crate::bitboard::Bitboard;
use crate::position::{CastlingMode, Position, PositionError, Setup};
use crate::types::{Color, Piece, Role, Square};
use std::fmt::Write as _;

/// The FEN of the standard starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A FEN that cannot be read (syntax), before any question of legality.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN board: {0}")]
    Board(String),
    #[error("FEN side to move must be 'w' or 'b', not {0:?}")]
    Turn(String),
    #[error("FEN castling field {0:?} is not KQkq, X-FEN or Shredder-FEN")]
    Castling(String),
    #[error("FEN en passant field {0:?} is not '-' or a square on rank 3 or 6")]
    EnPassant(String),
    #[error("FEN move counter {0:?} is not a number")]
    Counter(String),
    #[error("FEN has unexpected extra fields: {0:?}")]
    TrailingFields(String),
}

/// Either a syntax error or an illegal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    #[error(transparent)]
    Syntax(#[from] FenError),
    #[error("illegal position: {0}")]
    Illegal(#[from] PositionError),
}

/// Parses the six (or four) FEN fields into an unchecked [`Setup`].
///
/// # Errors
/// [`FenError`] naming the field that cannot be read.
pub fn parse_setup(fen: &str) -> Result<Setup, FenError> {
    let mut fields = fen.split_ascii_whitespace();
    let board = fields.next().ok_or(FenError::Empty)?;
    let mut setup = Setup::empty();
    parse_board(board, &mut setup)?;
    setup.turn = match fields.next() {
        None | Some("w") | Some("W") => Color::White,
        Some("b") | Some("B") => Color::Black,
        Some(t) => return Err(FenError::Turn(t.to_string())),
    };
    if let Some(c) = fields.next() {
        setup.castling_rooks = parse_castling(c, &setup)?;
    }
    if let Some(ep) = fields.next().filter(|&ep| ep != "-") {
        let sq = Square::parse(ep)
            .filter(|s| s.rank() == 2 || s.rank() == 5)
            .ok_or_else(|| FenError::EnPassant(ep.to_string()))?;
        setup.ep_square = Some(sq);
    }
    if let Some(h) = fields.next() {
        setup.halfmove_clock = h.parse().map_err(|_| FenError::Counter(h.to_string()))?;
    }
    if let Some(f) = fields.next() {
        setup.fullmove_number = f.parse().map_err(|_| FenError::Counter(f.to_string()))?;
    }
    let rest: Vec<&str> = fields.collect();
    if !rest.is_empty() {
        return Err(FenError::TrailingFields(rest.join(" ")));
    }
    Ok(setup)
}

fn parse_board(board: &str, setup: &mut Setup) -> Result<(), FenError> {
    // Some tools append promoted-piece markers (`~`) or a pocket (`[...]`); neither is chess.
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Board(format!(
            "expected 8 ranks separated by '/', found {}",
            ranks.len()
        )));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(FenError::Board(format!("bad empty-square count '{c}'")));
                }
                file += d as u8;
            } else if let Some(p) = Piece::from_char(c) {
                if file >= 8 {
                    return Err(FenError::Board(format!("rank {} is too long", rank + 1)));
                }
                setup.board[Square::from_coords(file, rank).index()] = Some(p);
                file += 1;
            } else {
                return Err(FenError::Board(format!("unexpected character '{c}'")));
            }
            if file > 8 {
                return Err(FenError::Board(format!("rank {} is too long", rank + 1)));
            }
        }
        if file != 8 {
            return Err(FenError::Board(format!(
                "rank {} has {} squares, not 8",
                rank + 1,
                file
            )));
        }
    }
    Ok(())
}

fn parse_castling(text: &str, setup: &Setup) -> Result<Bitboard, FenError> {
    let err = || FenError::Castling(text.to_string());
    if text == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let mut rooks = Bitboard::EMPTY;
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = color.back_rank();
        let rook = Piece {
            color,
            role: Role::Rook,
        };
        let king_file = (0..8u8).find(|&f| {
            setup.board[Square::from_coords(f, rank).index()]
                == Some(Piece {
                    color,
                    role: Role::King,
                })
        });
        let is_rook = |f: u8| setup.board[Square::from_coords(f, rank).index()] == Some(rook);
        let file = match c.to_ascii_lowercase() {
            'k' => {
                // The outermost rook on the king's h-side.
                let kf = king_file.ok_or_else(err)?;
                (kf + 1..8).rev().find(|&f| is_rook(f)).ok_or_else(err)?
            }
            'q' => {
                let kf = king_file.ok_or_else(err)?;
                (0..kf).find(|&f| is_rook(f)).ok_or_else(err)?
            }
            l @ 'a'..='h' => l as u8 - b'a',
            _ => return Err(err()),
        };
        rooks |= Bitboard::from_square(Square::from_coords(file, rank));
    }
    Ok(rooks)
}

impl Position {
    /// Reads a FEN (or X-FEN / Shredder-FEN) and checks the position.
    ///
    /// # Errors
    /// [`ParseFenError::Syntax`] for unreadable text, [`ParseFenError::Illegal`] for an
    /// impossible position.
    ///
    /// # Examples
    /// ```
    /// use sobre_core::{Position, CastlingMode};
    /// let p = Position::from_fen(sobre_core::notation::fen::STARTING_FEN, CastlingMode::Standard).unwrap();
    /// assert_eq!(p.legal_moves().len(), 20);
    /// ```
    pub fn from_fen(fen: &str, mode: CastlingMode) -> Result<Position, ParseFenError> {
        let setup = parse_setup(fen)?;
        Ok(Position::from_setup(&setup, mode)?)
    }

    /// Like [`Position::from_fen`], but switches to Chess960 castling if the castling rights
    /// only make sense there.
    ///
    /// # Errors
    /// As [`Position::from_fen`].
    pub fn from_fen_auto(fen: &str) -> Result<Position, ParseFenError> {
        let setup = parse_setup(fen)?;
        match Position::from_setup(&setup, CastlingMode::Standard) {
            Ok(p) => Ok(p),
            Err(PositionError::InvalidCastlingRights(_)) => {
                Ok(Position::from_setup(&setup, CastlingMode::Chess960)?)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// X-FEN: `KQkq` for the outermost rooks, file letters for inner ones (Chess960). The
    /// en passant square is written only when a legal capture exists.
    pub fn fen(&self) -> String {
        self.write_fen(false)
    }

    /// Shredder-FEN: castling always as rook file letters (`HAha`).
    pub fn shredder_fen(&self) -> String {
        self.write_fen(true)
    }

    /// The board part of the FEN only.
    pub fn board_fen(&self) -> String {
        let mut out = String::with_capacity(72);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    fn write_fen(&self, shredder: bool) -> String {
        let mut out = self.board_fen();
        out.push(' ');
        out.push(if self.turn() == Color::White {
            'w'
        } else {
            'b'
        });
        out.push(' ');
        let castling = self.castling_rooks();
        if castling.is_empty() {
            out.push('-');
        }
        for color in Color::ALL {
            let rank = color.back_rank();
            let king = self.king_of(color);
            let own_rooks = self.by_piece(Piece {
                color,
                role: Role::Rook,
            }) & Bitboard::rank(rank);
            // King side first, then queen side, as FEN writes `KQkq`.
            let mut rights: Vec<Square> = (castling & Bitboard::rank(rank)).collect();
            rights.sort_by_key(|s| std::cmp::Reverse(s.file()));
            for sq in rights {
                let king_side = sq.file() > king.file();
                let outermost = if king_side {
                    own_rooks
                        .into_iter()
                        .all(|r| r.file() <= sq.file() || r.file() < king.file())
                } else {
                    own_rooks
                        .into_iter()
                        .all(|r| r.file() >= sq.file() || r.file() > king.file())
                };
                let c = if shredder || (self.is_chess960() && !outermost) {
                    sq.file_char()
                } else if king_side {
                    'k'
                } else {
                    'q'
                };
                out.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        out.push(' ');
        match self.legal_ep_square() {
            Some(ep) => {
                let _ = write!(out, "{ep}");
            }
            None => out.push('-'),
        }
        let _ = write!(out, " {} {}", self.halfmove_clock(), self.fullmove_number());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_round_trips() {
        let p = Position::from_fen(STARTING_FEN, CastlingMode::Standard).unwrap();
        assert_eq!(p.fen(), STARTING_FEN);
        assert_eq!(p, Position::new());
        assert_eq!(
            p.shredder_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
    }

    #[test]
    fn syntax_errors_are_specific() {
        assert!(matches!(parse_setup(""), Err(FenError::Empty)));
        assert!(matches!(
            parse_setup("8/8/8 w - - 0 1"),
            Err(FenError::Board(_))
        ));
        assert!(matches!(
            parse_setup("8/8/8/8/8/8/8/8 x - - 0 1"),
            Err(FenError::Turn(_))
        ));
        assert!(matches!(
            Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1", CastlingMode::Standard),
            Err(ParseFenError::Illegal(PositionError::MissingKing(
                Color::White
            )))
        ));
    }

    #[test]
    fn x_fen_inner_rook_uses_file_letter() {
        // Chess960: two white rooks on the king side; the inner one keeps the right.
        let fen = "rk2r3/8/8/8/8/8/8/RK1RR3 w Da - 0 1";
        let p = Position::from_fen(fen, CastlingMode::Chess960).unwrap();
        assert_eq!(p.fen(), "rk2r3/8/8/8/8/8/8/RK1RR3 w Dq - 0 1");
    }
}
