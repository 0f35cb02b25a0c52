//! Zobrist keys, generated at compile time from a fixed seed.

use crate::types::{Color, Role, Square};

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix(seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        i += 1;
    }
    out
}

static PIECES: [u64; 768] = table::<768>(1);
static CASTLING: [u64; 64] = table::<64>(2);
static EP: [u64; 8] = table::<8>(3);
const BLACK: u64 = splitmix(4);

#[inline]
pub(crate) fn piece(c: Color, r: Role, sq: Square) -> u64 {
    PIECES[(c.index() * 6 + r.index()) * 64 + sq.index()]
}
#[inline]
pub(crate) fn castling(sq: Square) -> u64 {
    CASTLING[sq.index()]
}
#[inline]
pub(crate) fn ep_file(file: u8) -> u64 {
    EP[(file & 7) as usize]
}
#[inline]
pub(crate) fn black_to_move() -> u64 {
    BLACK
}
