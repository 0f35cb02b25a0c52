//! Prints perft figures for docs/performance.md:
//! `cargo run --release -p sobre-core --example perft_speed`.

use sobre_core::{CastlingMode, Position};
use std::time::Instant;

fn main() {
    let cases = [
        ("start", sobre_core::notation::fen::STARTING_FEN, 6),
        (
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            5,
        ),
    ];
    for (name, fen, depth) in cases {
        let pos = match Position::from_fen(fen, CastlingMode::Standard) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let mut best = f64::MAX;
        let mut nodes = 0;
        for _ in 0..3 {
            let t = Instant::now();
            nodes = pos.perft(depth);
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{name:10} depth {depth}: {nodes:>12} nodes, best of 3 {best:.3} s, {:.0} M nodes/s",
            nodes as f64 / best / 1e6
        );
    }
}
