//! PGN replay throughput with full legality checks:
//! `cargo run --release -p sobre-core --example replay_speed -- FILE.pgn`.

use sobre_core::pgn::PgnReader;
use sobre_core::pgn::replay::{ReplayOptions, Replayer};
use std::time::Instant;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: replay_speed FILE.pgn");
        std::process::exit(2);
    };
    let data = match std::fs::read(&path) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut best = f64::MAX;
    let (mut games, mut plies, mut failed) = (0u64, 0u64, 0u64);
    for _ in 0..5 {
        let t = Instant::now();
        let mut reader = PgnReader::new(&data[..]);
        let mut v = Replayer::new(ReplayOptions::default());
        (games, plies, failed) = (0, 0, 0);
        while let Ok(Some(g)) = reader.read_game(&mut v) {
            games += 1;
            plies += u64::from(g.plies);
            failed += u64::from(!g.ok());
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{games} games ({failed} failed), {plies} moves, best of 5 {best:.3} s: {:.1} M moves/s",
        plies as f64 / best / 1e6
    );
}
