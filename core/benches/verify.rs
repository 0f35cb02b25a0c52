//! Verifying signed games from raw bytes, next to the bare signature cost of the same events.
//!
//! `cargo bench -p sobre-core --bench verify`. Target (issue 3): `verify` within 1.25× of
//! the bare signature verification of the same events, i.e. decoding, hashing, ordering and
//! the rules add at most 25%.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sobre_core::Position;
use sobre_core::record::event::signing_bytes;
use sobre_core::record::{SignedEvent, VerifiedEvent, verify, verify_continue, verify_incremental};
use sobre_core::test_support::{GameBuilder, Lines, T0, key};
use std::hint::black_box;

/// A signed game of exactly `plies` random legal moves, none of which ends the game, a
/// minute apart. Each seed challenges at its own time, so every game has its own id.
fn game(seed: u64, plies: usize) -> Vec<SignedEvent> {
    let line = Lines::new(seed).endless().line(&Position::new(), plies);
    assert_eq!(line.len(), plies, "a line of {plies} plies");
    GameBuilder::new(key(1), key(2))
        .at(T0 + seed)
        .sign(&line)
        .expect("a legal line signs")
        .events
}

fn bare_strict(events: &[SignedEvent]) -> usize {
    events
        .iter()
        .filter(|e| {
            let ev = e.decode_unverified().expect("valid");
            ev.author.verify(&signing_bytes(&e.body), &e.signature)
        })
        .count()
}

fn bare_batch(events: &[SignedEvent]) -> bool {
    let msgs: Vec<Vec<u8>> = events.iter().map(|e| signing_bytes(&e.body)).collect();
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    let sigs: Vec<_> = events
        .iter()
        .map(|e| ed25519_dalek::Signature::from_bytes(&e.signature))
        .collect();
    // Each author's key decompressed once, as a careful caller would.
    let mut cache: Vec<(sobre_core::record::PlayerId, ed25519_dalek::VerifyingKey)> = Vec::new();
    let keys: Vec<_> = events
        .iter()
        .map(|e| {
            let author = e.decode_unverified().expect("valid").author;
            if let Some((_, k)) = cache.iter().find(|(p, _)| *p == author) {
                return *k;
            }
            let k = author.verifier().expect("key");
            cache.push((author, k));
            k
        })
        .collect();
    ed25519_dalek::verify_batch(&refs, &sigs, &keys).is_ok()
}

fn bench(c: &mut Criterion) {
    let one = game(1, 200);
    let n = one.len() as u64;
    let wire: Vec<Vec<u8>> = one.iter().map(|e| e.to_bytes().expect("encode")).collect();

    let mut g = c.benchmark_group("verify_200_ply_game");
    g.throughput(Throughput::Elements(n));
    g.bench_function("verify_from_wire_bytes", |b| {
        b.iter(|| {
            let events: Vec<SignedEvent> = wire
                .iter()
                .map(|w| SignedEvent::from_bytes(w).expect("decode"))
                .collect();
            let st = verify(black_box(&events)).expect("verifies");
            assert_eq!(st.moves.len(), 200);
            st.moves.len()
        })
    });
    // What a node pays per new event once the others are verified: one signature and the
    // rules replayed over the whole game.
    let held: Vec<VerifiedEvent> = one[..one.len() - 1]
        .iter()
        .map(|e| e.verify().expect("valid"))
        .collect();
    let last = &one[one.len() - 1..];
    g.bench_function("verify_incremental_one_new_event", |b| {
        b.iter(|| {
            let st = verify_incremental(black_box(&held), black_box(last), None).expect("verifies");
            st.moves.len()
        })
    });
    // What a node pays now (the signature is checked apart, in a batch): the rules for the
    // new event only, continuing a checkpoint of the game (`verify_continue`, on a copy of
    // the checkpoint; the node's cache continues its own in place with `verify_extend`,
    // which spares the copy: cloning this game's checkpoint alone takes about 7 µs).
    let all: Vec<VerifiedEvent> = one.iter().map(|e| e.verify().expect("valid")).collect();
    let (_, checkpoint) = verify_continue(&held, None, None).expect("verifies");
    g.bench_function("continue_one_new_event_on_a_copy", |b| {
        b.iter(|| {
            let (st, _) =
                verify_continue(black_box(&all), Some(&checkpoint), None).expect("verifies");
            st.moves.len()
        })
    });
    g.bench_function("bare_verify_strict", |b| {
        b.iter(|| bare_strict(black_box(&one)))
    });
    g.bench_function("bare_verify_batch", |b| {
        b.iter(|| bare_batch(black_box(&one)))
    });
    g.finish();

    let games: Vec<Vec<SignedEvent>> = (0..1000u64).map(|s| game(s + 100, 40)).collect();
    let total: u64 = games.iter().map(|g| g.len() as u64).sum();
    let mut g = c.benchmark_group("verify_1000_games");
    g.sample_size(10);
    g.throughput(Throughput::Elements(total));
    g.bench_function("verify", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|g| verify(black_box(g)).expect("verifies").moves.len())
                .sum::<usize>()
        })
    });
    g.bench_function("bare_verify_strict", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|g| bare_strict(black_box(g)))
                .sum::<usize>()
        })
    });
    // Not what sobre does (batches are not exact: see `verify_all`); shown for the price.
    g.bench_function("bare_verify_batch", |b| {
        b.iter(|| games.iter().filter(|g| bare_batch(black_box(g))).count())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
