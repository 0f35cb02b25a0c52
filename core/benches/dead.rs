//! Time per call of the dead-position judge (FIDE 9.6 / 5.2b). `is_dead` runs after every
//! move (automatic end), so on ordinary positions it must cost what the material test alone
//! costs; `dead_verdict` adds a bounded helpmate search and is for explicit questions.
//! The `corpus` groups run both over every position of the real-game corpus of the tests
//! (`tests/data/games/positions.fen`): one iteration judges them all, and the throughput in
//! elements per second is calls per second (time per call = 1 / throughput).
//! Run with `cargo bench -p sobre-core --bench dead`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sobre_core::Position;
use sobre_core::rules::dead::{DeadVerdict, dead_verdict, is_dead};
use std::hint::black_box;

const POSITIONS: [(&str, &str); 5] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    // Kings and pawns, one pawn free: the blocked test runs to its pawn checks.
    ("pawn_ending", "8/8/2k5/p1p1p3/P1P1P2P/2K5/8/8 w - - 0 1"),
    // The locked chain: the blocked test runs to the end (both kings' flood fills).
    (
        "locked_chain",
        "8/8/2k5/p1p1p1p1/P1P1P1P1/2K5/8/8 w - - 0 1",
    ),
    // Insufficient material: decided by the first test.
    ("kb_v_k", "8/8/4k3/8/8/3K4/5B2/8 w - - 0 1"),
];

fn dead_benches(c: &mut Criterion) {
    let positions: Vec<(&str, Position)> = POSITIONS
        .iter()
        .map(|(name, fen)| (*name, Position::from_fen_auto(fen).expect("bench FEN")))
        .collect();

    let mut group = c.benchmark_group("is_insufficient_material");
    for (name, p) in &positions {
        group.bench_function(*name, |b| {
            b.iter(|| black_box(p).is_insufficient_material())
        });
    }
    group.finish();

    let mut group = c.benchmark_group("is_dead");
    for (name, p) in &positions {
        group.bench_function(*name, |b| b.iter(|| is_dead(black_box(p))));
    }
    group.finish();

    let mut group = c.benchmark_group("dead_verdict");
    group.sample_size(20);
    for (name, p) in &positions {
        group.bench_function(*name, |b| b.iter(|| dead_verdict(black_box(p))));
    }
    group.finish();

    let corpus = corpus();
    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Elements(corpus.len() as u64));
    group.bench_function("is_dead", |b| {
        b.iter(|| corpus.iter().filter(|p| is_dead(black_box(p))).count())
    });
    // One iteration takes over a second (the helpmate search runs to its bounds wherever it
    // finds no mate): criterion's fewest samples.
    group.sample_size(10);
    group.bench_function("dead_verdict", |b| {
        b.iter(|| {
            corpus
                .iter()
                .map(|p| dead_verdict(black_box(p)))
                .filter(|v| *v == DeadVerdict::Dead)
                .count()
        })
    });
    group.finish();
}

/// Every position of the tests' real-game corpus (lines `TAG FEN`; `#` starts a comment).
fn corpus() -> Vec<Position> {
    include_str!("../tests/data/games/positions.fen")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let fen = l.split_once(' ').expect("TAG FEN").1;
            Position::from_fen_auto(fen).expect("corpus FEN")
        })
        .collect()
}

criterion_group!(benches, dead_benches);
criterion_main!(benches);
