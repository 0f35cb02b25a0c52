//! Perft throughput of the rules core (legal move generation + make-move, bulk-counted at
//! the last ply). Run with `cargo bench -p sobre-core --bench perft`; criterion reports the
//! node rate as "elem/s".

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sobre_core::{CastlingMode, Position};
use std::hint::black_box;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);

    let start = Position::new();
    // Chessprogramming wiki "Perft Results": initial position, depth 5.
    group.throughput(Throughput::Elements(4_865_609));
    group.bench_function("startpos_d5", |b| {
        b.iter(|| black_box(&start).perft(black_box(5)))
    });

    let kiwipete = Position::from_fen(KIWIPETE, CastlingMode::Standard).expect("Kiwipete FEN");
    // Chessprogramming wiki "Perft Results": position 2 (Kiwipete), depth 4.
    group.throughput(Throughput::Elements(4_085_603));
    group.bench_function("kiwipete_d4", |b| {
        b.iter(|| black_box(&kiwipete).perft(black_box(4)))
    });

    group.finish();
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
