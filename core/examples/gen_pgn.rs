//! Writes N random legal games as PGN (deterministic: `test_support::Lines`), for benchmarks
//! and manual testing:
//! `cargo run --release -p sobre-core --example gen_pgn -- 10000 > games.pgn`.
//! An optional second argument `es` writes Spanish SAN.

use sobre_core::Position;
use sobre_core::san::{Lang, to_san};
use sobre_core::test_support::Lines;
use std::io::{BufWriter, Write};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let lang = match args.next().as_deref() {
        Some("es") => Lang::Spanish,
        _ => Lang::English,
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    // The seed and lengths of the `notation` bench's corpus: the same games.
    let mut lines = Lines::new(0x5eed_1234_abcd_0001);
    for g in 0..games {
        let mut pos = Position::new();
        let len = 40 + lines.below(81);
        write!(
            out,
            "[Event \"random\"]\n[Site \"?\"]\n[Date \"2026.11.21\"]\n[Round \"{}\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n",
            g + 1
        )?;
        for (ply, m) in lines.line(&pos, len).into_iter().enumerate() {
            if ply % 2 == 0 {
                write!(out, "{}. ", ply / 2 + 1)?;
            }
            write!(out, "{} ", to_san(&pos, m, lang))?;
            pos.play_unchecked(m);
        }
        writeln!(out, "*\n")?;
    }
    out.flush()
}
