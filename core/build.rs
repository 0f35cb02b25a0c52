//! Generates the magic-bitboard tables for sliding pieces at build time, so that the rules
//! core needs no start-up initialisation, no `unsafe` and no lazy statics on its hot path.
//! The magics are found with a fixed-seed PRNG: the output is the same on every build.

use std::fmt::Write as _;
use std::path::PathBuf;

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn sliding(sq: u8, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut out = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq & 7) as i8, (sq >> 3) as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let b = 1u64 << (r * 8 + f);
            out |= b;
            if occ & b != 0 {
                break;
            }
        }
    }
    out
}

/// The relevant occupancy mask: the rays without their last square.
fn mask(sq: u8, dirs: &[(i8, i8); 4]) -> u64 {
    let mut out = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq & 7) as i8, (sq >> 3) as i8);
        loop {
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            let (nnf, nnr) = (nf + df, nr + dr);
            if !(0..8).contains(&nnf) || !(0..8).contains(&nnr) {
                break;
            }
            out |= 1u64 << (nr * 8 + nf);
            f = nf;
            r = nr;
        }
    }
    out
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find(dirs: &[(i8, i8); 4], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for sq in 0..64u8 {
        let m = mask(sq, dirs);
        let bits = m.count_ones();
        let size = 1usize << bits;
        let mut occs = Vec::with_capacity(size);
        let mut atts = Vec::with_capacity(size);
        // Carry-Rippler enumeration of all subsets of the mask.
        let mut sub = 0u64;
        loop {
            occs.push(sub);
            atts.push(sliding(sq, sub, dirs));
            sub = sub.wrapping_sub(m) & m;
            if sub == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut slots = vec![0u64; size];
        let mut used = vec![0u32; size];
        let mut epoch = 0u32;
        let magic = 'search: loop {
            let cand = rng.sparse();
            if (m.wrapping_mul(cand) >> 56).count_ones() < 6 {
                continue;
            }
            epoch += 1;
            for i in 0..size {
                let idx = (occs[i].wrapping_mul(cand) >> shift) as usize;
                if used[idx] != epoch {
                    used[idx] = epoch;
                    slots[idx] = atts[i];
                } else if slots[idx] != atts[i] {
                    continue 'search;
                }
            }
            break cand;
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for i in 0..size {
            let idx = (occs[i].wrapping_mul(magic) >> shift) as usize;
            table[offset + idx] = atts[i];
        }
        magics.push(Magic {
            mask: m,
            magic,
            shift,
            offset,
        });
    }
    magics
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut rng = Rng(0x736f_6272_6520_7631); // "sobre v1"
    let mut table = Vec::new();
    let rook = find(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find(&BISHOP_DIRS, &mut rng, &mut table);

    let mut out = String::with_capacity(3 << 20);
    for (name, magics) in [("ROOK_MAGICS", &rook), ("BISHOP_MAGICS", &bishop)] {
        writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
        for m in magics.iter() {
            writeln!(
                out,
                "Magic {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
                m.mask, m.magic, m.shift, m.offset
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    writeln!(
        out,
        "pub(crate) static SLIDER_ATTACKS: [u64; {}] = [",
        table.len()
    )
    .unwrap();
    for chunk in table.chunks(8) {
        for v in chunk {
            write!(out, "{v:#x},").unwrap();
        }
        out.push('\n');
    }
    writeln!(out, "];").unwrap();

    let dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(dir.join("magics.rs"), out).expect("write magics.rs");
}
