//! Chess960 start positions (FIDE Appendix F): the Scharnagl numbering and the position of
//! each number.

use super::{CastlingMode, Position, Setup};
use crate::types::{Color, Piece, Role, Square};

impl Position {
    /// Chess960 start position number `n` (0..=959) in the Scharnagl numbering, where 518 is
    /// the standard position (FIDE Appendix F2: bishops on opposite colours, king between
    /// the rooks, Black mirroring White).
    ///
    /// # Errors
    /// `None` if `n > 959`.
    pub fn chess960(n: u16) -> Option<Position> {
        let back = chess960_back_rank(n)?;
        let mut setup = Setup::empty();
        for (file, role) in back.iter().enumerate() {
            let f = file as u8;
            setup.board[Square::from_coords(f, 0).index()] = Some(Piece {
                color: Color::White,
                role: *role,
            });
            setup.board[Square::from_coords(f, 7).index()] = Some(Piece {
                color: Color::Black,
                role: *role,
            });
            setup.board[Square::from_coords(f, 1).index()] = Some(Piece {
                color: Color::White,
                role: Role::Pawn,
            });
            setup.board[Square::from_coords(f, 6).index()] = Some(Piece {
                color: Color::Black,
                role: Role::Pawn,
            });
            if *role == Role::Rook {
                setup.castling_rooks = setup
                    .castling_rooks
                    .with(Square::from_coords(f, 0))
                    .with(Square::from_coords(f, 7));
            }
        }
        let mode = if n == 518 {
            CastlingMode::Standard
        } else {
            CastlingMode::Chess960
        };
        Position::from_setup(&setup, mode).ok()
    }
}

/// The back rank of Chess960 position `n` (Scharnagl numbering; FIDE Appendix F1/F2).
pub fn chess960_back_rank(n: u16) -> Option<[Role; 8]> {
    if n > 959 {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = n as usize;
    // Light-squared bishop (b, d, f, h files), then dark-squared (a, c, e, g).
    let b1 = n % 4;
    n /= 4;
    rank[b1 * 2 + 1] = Some(Role::Bishop);
    let b2 = n % 4;
    n /= 4;
    rank[b2 * 2] = Some(Role::Bishop);
    let q = n % 6;
    n /= 6;
    place_nth_empty(&mut rank, q, Role::Queen);
    // The ten knight placements among the five remaining squares.
    const KN: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (k1, k2) = KN[n];
    // Place the second first so the first index is unaffected.
    place_nth_empty(&mut rank, k2, Role::Knight);
    place_nth_empty(&mut rank, k1, Role::Knight);
    // Remaining three: rook, king, rook.
    place_nth_empty(&mut rank, 0, Role::Rook);
    place_nth_empty(&mut rank, 0, Role::King);
    place_nth_empty(&mut rank, 0, Role::Rook);
    let mut out = [Role::Pawn; 8];
    for (o, r) in out.iter_mut().zip(rank) {
        *o = r?;
    }
    Some(out)
}

fn place_nth_empty(rank: &mut [Option<Role>; 8], n: usize, role: Role) {
    if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(n) {
        *slot = Some(role);
    }
}

/// The Scharnagl number of a back rank, if it is a Chess960 start (the inverse of
/// [`chess960_back_rank`]).
pub fn chess960_number(back: &[Role; 8]) -> Option<u16> {
    (0..960u16).find(|&n| chess960_back_rank(n).as_ref() == Some(back))
}
