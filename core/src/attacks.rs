//! Attack tables: leapers and rays computed by `const fn`, sliders by magic bitboards
//! generated in `build.rs`.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

const fn leaper(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq & 7) as i8, (sq >> 3) as i8);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                out[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    out
}

static KNIGHT: [u64; 64] = leaper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static WHITE_PAWN: [u64; 64] = leaper(&[(1, 1), (-1, 1)]);
static BLACK_PAWN: [u64; 64] = leaper(&[(1, -1), (-1, -1)]);

/// `RAYS[a][b]`: the whole line through a and b (edge to edge), or empty if not aligned.
/// `BETWEEN[a][b]`: the squares strictly between a and b on that line.
const fn rays() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut line = [[0u64; 64]; 64];
    let mut between = [[0u64; 64]; 64];
    let dirs: [(i8, i8); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut a = 0;
    while a < 64 {
        let (af, ar) = ((a & 7) as i8, (a >> 3) as i8);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through a in this direction and its opposite.
            let mut full = 1u64 << a;
            let mut k = 1;
            while k < 8 {
                let (f1, r1) = (af + df * k, ar + dr * k);
                if f1 >= 0 && f1 < 8 && r1 >= 0 && r1 < 8 {
                    full |= 1u64 << (r1 * 8 + f1);
                }
                let (f2, r2) = (af - df * k, ar - dr * k);
                if f2 >= 0 && f2 < 8 && r2 >= 0 && r2 < 8 {
                    full |= 1u64 << (r2 * 8 + f2);
                }
                k += 1;
            }
            let mut acc = 0u64;
            let mut k = 1;
            while k < 8 {
                let (f, r) = (af + df * k, ar + dr * k);
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                let b = (r * 8 + f) as usize;
                line[a][b] = full;
                between[a][b] = acc;
                acc |= 1u64 << b;
                k += 1;
            }
            d += 1;
        }
        a += 1;
    }
    (line, between)
}

static RAYS: ([[u64; 64]; 64], [[u64; 64]; 64]) = rays();

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// The squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::White => Bitboard(WHITE_PAWN[sq.index()]),
        Color::Black => Bitboard(BLACK_PAWN[sq.index()]),
    }
}

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(SLIDER_ATTACKS[m.offset + idx])
}

#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq.index()], occupied)
}

#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// The squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(RAYS.1[a.index()][b.index()])
}

/// The whole line through `a` and `b` if they share one, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(RAYS.0[a.index()][b.index()])
}

/// True if `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rook_on_a1_with_blockers() {
        let occ =
            Bitboard::from_square(Square::D1) | Bitboard::from_square(Square::from_coords(0, 5)); // a6
        let att = rook_attacks(Square::A1, occ);
        let expect: Vec<String> = att.map(|s| s.to_string()).collect();
        assert_eq!(expect, ["b1", "c1", "d1", "a2", "a3", "a4", "a5", "a6"]);
    }

    #[test]
    fn between_and_line() {
        let a = Square::parse("b2").unwrap();
        let g = Square::parse("g7").unwrap();
        assert_eq!(between(a, g).count(), 4);
        assert_eq!(line(a, g).count(), 8);
        assert!(between(a, Square::parse("c4").unwrap()).is_empty());
    }
}
