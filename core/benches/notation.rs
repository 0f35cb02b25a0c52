//! SAN parse and format, and PGN replay with full legality checks.
//!
//! `cargo bench -p sobre-core --bench notation`. The PGN corpus is 10,000 games generated
//! deterministically from random legal play (no file to download): see `corpus`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sobre_core::pgn::PgnReader;
use sobre_core::pgn::replay::{ReplayOptions, Replayer};
use sobre_core::san::{Lang, parse_san, to_san};
use sobre_core::test_support::Lines;
use sobre_core::{Move, Position};
use std::hint::black_box;

/// Random legal games (40–120 plies, stopping where the game ends), as (position, move)
/// pairs and as PGN text in English SAN.
fn corpus(games: usize) -> (Vec<(Position, Move)>, String, u64) {
    let mut lines = Lines::new(0x5eed_1234_abcd_0001);
    let mut pairs = Vec::new();
    let mut pgn = String::with_capacity(games * 700);
    let mut total = 0u64;
    for g in 0..games {
        let mut pos = Position::new();
        let len = 40 + lines.below(81);
        pgn.push_str(&format!(
            "[Event \"bench\"]\n[Site \"?\"]\n[Date \"2026.11.21\"]\n[Round \"{}\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n",
            g + 1
        ));
        for (ply, m) in lines.line(&pos, len).into_iter().enumerate() {
            if ply % 2 == 0 {
                pgn.push_str(&format!("{}. ", ply / 2 + 1));
            }
            pgn.push_str(&to_san(&pos, m, Lang::English));
            pgn.push(' ');
            if pairs.len() < 100_000 {
                pairs.push((pos.clone(), m));
            }
            pos.play_unchecked(m);
            total += 1;
        }
        pgn.push_str("*\n\n");
    }
    (pairs, pgn, total)
}

fn bench(c: &mut Criterion) {
    let (pairs, pgn, total_moves) = corpus(10_000);
    let sans: Vec<(Position, String)> = pairs
        .iter()
        .map(|(p, m)| (p.clone(), to_san(p, *m, Lang::English)))
        .collect();

    let mut g = c.benchmark_group("san");
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.bench_function("format_100k", |b| {
        b.iter(|| {
            for (p, m) in &pairs {
                black_box(to_san(p, *m, Lang::English));
            }
        })
    });
    g.bench_function("parse_100k", |b| {
        b.iter(|| {
            for (p, s) in &sans {
                let _ = black_box(parse_san(p, s, Lang::English));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("pgn");
    g.sample_size(10);
    g.throughput(Throughput::Elements(total_moves));
    g.bench_function("replay_10k_games", |b| {
        b.iter(|| {
            let mut reader = PgnReader::new(pgn.as_bytes());
            let mut v = Replayer::new(ReplayOptions::default());
            let mut plies = 0u64;
            while let Ok(Some(game)) = reader.read_game(&mut v) {
                plies += u64::from(game.plies);
            }
            assert_eq!(plies, total_moves);
            plies
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
