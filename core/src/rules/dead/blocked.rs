//! FIDE 9.6 / 5.2b beyond material: a position of kings and pawns where nothing can ever
//! change — every pawn is blocked head-on by a pawn, no pawn can capture, and no king can
//! reach a pawn it could take — so no check, let alone a mate, can ever happen.
//!
//! The proof, and why it is sound:
//! 1. Only kings and pawns stand on the board, so only a pawn could ever give check.
//! 2. Every pawn has a pawn on the square in front of it and no enemy pawn on a square it
//!    attacks, and there is no en passant square: no pawn can move now.
//! 3. Each king can only walk over squares that hold no pawn and that no enemy pawn attacks
//!    (a legal move never enters check). Flooding those squares from the king gives every
//!    square it could ever reach *while the pawns stand still*; the other king is ignored,
//!    which only adds squares, so the set is an over-approximation.
//! 4. If no square of that set touches an enemy pawn that no enemy pawn defends, the king can
//!    never take a pawn (taking a defended one would be moving into check).
//!
//! By induction over any series of legal moves, only kings move, the pawns never do, and a
//! king never stands on a square a pawn attacks: no check is ever given, so no mate. Anything
//! outside this pattern (a piece, a free pawn, a king already in check, a king that can reach
//! a pawn) is left undecided, never called dead.

use crate::position::Position;
use crate::types::{Color, Role};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

#[inline]
fn north(b: u64) -> u64 {
    b << 8
}

#[inline]
fn south(b: u64) -> u64 {
    b >> 8
}

/// The squares the pawns of `color` in `pawns` attack.
#[inline]
fn pawn_attacks_of(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A),
        Color::Black => ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A),
    }
}

/// The squares a king on any square of `b` attacks, plus `b` itself.
#[inline]
fn king_spread(b: u64) -> u64 {
    let row = b | ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H);
    row | north(row) | south(row)
}

/// True if the position is a blocked structure of kings and pawns in which no check can ever
/// be given (module docs). Bails out after a handful of bit operations on ordinary positions:
/// a piece other than a king or pawn, or a pawn free to move, ends the test at once.
pub(crate) fn is_locked_forever(position: &Position) -> bool {
    let pawns = position.by_role(Role::Pawn).0;
    let kings = position.by_role(Role::King).0;
    if pawns == 0 || position.occupied().0 & !(pawns | kings) != 0 {
        return false;
    }
    let white = pawns & position.by_color(Color::White).0;
    let black = pawns & position.by_color(Color::Black).0;
    // Blocked by a pawn, not by a king: a king may step aside.
    if north(white) & !pawns != 0 || south(black) & !pawns != 0 {
        return false;
    }
    let white_attacks = pawn_attacks_of(Color::White, white);
    let black_attacks = pawn_attacks_of(Color::Black, black);
    // A white pawn attacks a black one exactly when that one attacks it back, so one test
    // covers captures by both sides. A stored en passant square means a pawn just moved two
    // squares and might be taken in passing: not a fixed structure.
    if white_attacks & black != 0 || position.ep_square().is_some() {
        return false;
    }
    Color::ALL.into_iter().all(|color| {
        let (enemy, enemy_attacks) = match color {
            Color::White => (black, black_attacks),
            Color::Black => (white, white_attacks),
        };
        king_is_confined(position.king_of(color).index(), pawns, enemy, enemy_attacks)
    })
}

/// True if the king on `king` can never reach a square next to an enemy pawn it could take,
/// walking only over squares free of pawns and of enemy pawn attacks (module docs, 3–4).
fn king_is_confined(king: usize, pawns: u64, enemy: u64, enemy_attacks: u64) -> bool {
    let walkable = !pawns & !enemy_attacks;
    let mut reach = 1u64 << king;
    if reach & walkable == 0 {
        // In check from a pawn: it may take that pawn, or the check may be the start of
        // something else. Not a case this proof covers.
        return false;
    }
    loop {
        let next = king_spread(reach) & walkable;
        if next == reach {
            break;
        }
        reach = next;
    }
    // Enemy pawns no enemy pawn defends: the only ones a king may ever take.
    let takeable = enemy & !enemy_attacks;
    king_spread(reach) & takeable == 0
}

/// The squares the king of `color` could ever walk to with the pawns fixed (tests only).
#[cfg(test)]
fn reachable_squares(position: &Position, color: Color) -> u64 {
    let pawns = position.by_role(Role::Pawn).0;
    let enemy = pawns & position.by_color(!color).0;
    let walkable = !pawns & !pawn_attacks_of(!color, enemy);
    let mut reach = 1u64 << position.king_of(color).index();
    loop {
        let next = (king_spread(reach) & walkable) | reach;
        if next == reach {
            return reach;
        }
        reach = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::CastlingMode;
    use crate::types::Square;

    fn fen(f: &str) -> Position {
        Position::from_fen(f, CastlingMode::Standard).unwrap()
    }

    fn bb(squares: &[&str]) -> u64 {
        squares
            .iter()
            .map(|s| 1u64 << Square::parse(s).unwrap().index())
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn pawn_attacks_do_not_wrap_around_the_board() {
        assert_eq!(
            pawn_attacks_of(Color::White, bb(&["a2", "h2"])),
            bb(&["b3", "g3"])
        );
        assert_eq!(
            pawn_attacks_of(Color::Black, bb(&["a7", "h7"])),
            bb(&["b6", "g6"])
        );
        assert_eq!(king_spread(bb(&["a1"])), bb(&["a1", "b1", "a2", "b2"]));
        assert_eq!(king_spread(bb(&["h8"])), bb(&["h8", "g8", "h7", "g7"]));
    }

    #[test]
    fn fide_9_6_the_kings_of_a_locked_chain_stay_on_their_side() {
        let p = fen("8/8/2k5/p1p1p1p1/P1P1P1P1/2K5/8/8 w - - 0 1");
        assert_eq!(
            reachable_squares(&p, Color::White),
            0xff_ffff,
            "ranks 1 to 3"
        );
        assert_eq!(
            reachable_squares(&p, Color::Black),
            0xffff_ff00_0000_0000,
            "ranks 6 to 8"
        );
        assert!(is_locked_forever(&p));
    }
}
