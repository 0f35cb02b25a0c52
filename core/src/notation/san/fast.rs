//! The hot path of PGN replay: the common shapes of SAN read straight from bytes and resolved in
//! one go. Separate from the general reader, which it must agree with (tested in `tests.rs`
//! and `core/tests/notation.rs`).

use super::CastlingSide;
use super::lang::{Lang, english_role, spanish_role};
use super::resolve::{castle_move, legal_origins};
use crate::{Bitboard, Move, MoveKind, Position, Role, Square};

/// The hot path of PGN replay: reads the common shapes of SAN (`e4`, `exd5`, `Nbd7`,
/// `R1e2+`, `e8=Q#`, `O-O`, in the letters of `lang`) straight from bytes and returns the move
/// if it is legal and unique. `None` means "not that simple": the caller then asks
/// [`super::parse_san`], which accepts everything players write and explains every error. Both
/// agree whenever this returns `Some` (tested).
pub fn parse_san_fast(pos: &Position, text: &[u8], lang: Lang) -> Option<Move> {
    let mut b = text;
    while let [rest @ .., b'+' | b'#'] = b {
        b = rest;
    }
    match b {
        b"O-O" | b"0-0" => return castle_move(pos, CastlingSide::KingSide).ok(),
        b"O-O-O" | b"0-0-0" => return castle_move(pos, CastlingSide::QueenSide).ok(),
        _ => {}
    }
    let letter = |c: u8| -> Option<Role> {
        match (lang, c) {
            (_, b'P') => Some(Role::Pawn),
            (Lang::English, _) => english_role(c as char),
            (Lang::Spanish, _) => spanish_role(c as char),
            // `R` is a rook in English and the king in Spanish: not simple.
            (Lang::Auto, b'R') => None,
            (Lang::Auto, _) => english_role(c as char).or_else(|| spanish_role(c as char)),
        }
    };
    let (role, b) = match b {
        [c @ b'A'..=b'Z', rest @ ..] => (letter(*c)?, rest),
        _ => (Role::Pawn, b),
    };
    let (b, promotion) = match b {
        [rest @ .., b'=', c @ b'A'..=b'Z'] | [rest @ .., c @ b'A'..=b'Z'] => {
            let p = letter(*c)?;
            if role != Role::Pawn || !Role::PROMOTIONS.contains(&p) {
                return None;
            }
            (rest, Some(p))
        }
        _ => (b, None),
    };
    let (b, to) = match b {
        [rest @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            (rest, Square::from_coords(f - b'a', r - b'1'))
        }
        _ => return None,
    };
    let (b, capture) = match b {
        [rest @ .., b'x'] => (rest, true),
        _ => (b, false),
    };
    let mut mask = Bitboard::FULL;
    match b {
        [] => {
            if role == Role::Pawn {
                // `Pxd5` (or a bare `xd5`) leaves the pawn to find: not simple.
                if capture {
                    return None;
                }
                // A pawn written without its file moves straight ahead (FIDE E8/E9).
                mask = Bitboard::file(to.file());
            }
        }
        [f @ b'a'..=b'h'] => mask = Bitboard::file(f - b'a'),
        [r @ b'1'..=b'8'] if role != Role::Pawn => mask = Bitboard::rank(r - b'1'),
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] if role != Role::Pawn => {
            mask = Bitboard::from_square(Square::from_coords(f - b'a', r - b'1'))
        }
        _ => return None,
    }
    let from = legal_origins(pos, role, to, mask).single()?;
    let last_rank = to.rank() == (!pos.turn()).back_rank();
    let kind = match (role, promotion) {
        (Role::Pawn, Some(p)) if last_rank => MoveKind::Promotion(p),
        (Role::Pawn, None) if !last_rank => {
            if pos.ep_square() == Some(to) && from.file() != to.file() {
                MoveKind::EnPassant
            } else {
                MoveKind::Normal
            }
        }
        (Role::Pawn, _) | (_, Some(_)) => return None,
        (_, None) => MoveKind::Normal,
    };
    Some(Move::new(from, to, kind))
}
