//! Writes the seed inputs of the `wire` and `verify_seq` fuzz targets.
//!
//! Into `../seeds/` (committed, named): `verify_seq`'s twelve generator inputs
//! (`seed_00`..`seed_11`), and for `wire` one signed event and its body of every event kind
//! the generator signs (`event_<kind>`, `body_<kind>`: from those games, then from random
//! generator inputs for the kinds they lack), the eight node messages of the first game (named
//! by message) and the empty event list: a handful, so the repository keeps named files a
//! reader can match to what they exercise. Other files there are left alone: the `v1_*`
//! events of `seeds/wire` (event version 1, which the generator no longer signs) are kept by
//! hand.
//!
//! Into `../corpus/wire/` (git-ignored, a local working corpus): the wider slice the fuzzer
//! started from before, every seventh event and body of the first six games and their
//! messages (`event_N_II`, `body_N_II`, `message_N_K`); the fuzzer reaches the same coverage
//! from the committed seeds, more slowly. Deterministic: the same bytes every run.
use sobre_core::record::codec;
use sobre_core::record::{EventId, EventKind, PlayerId, SignedEvent, verify};
use sobre_node::protocol::{self, Gossip, Request, Response};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

#[path = "../../fuzz_targets/game_gen.rs"]
mod game_gen;

/// A small deterministic generator (xorshift) for the seeds' bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 24) as u8
    }
}

/// Generator input: a setup byte, then operations, mostly legal moves. Every byte is small
/// (below 12: a legal move when read as an operation) except the chosen operations, so
/// parameters read as operations keep the game honest; `mix` of 256 says how often an
/// operation other than a move is chosen, from those an honest node signs (offers, presence,
/// chat, receipts, leave, time passing, claims, seal and reveal, swaps and duplicates).
fn game_input(rng: &mut Rng, setup: u8, ops: usize, mix: u8) -> Vec<u8> {
    const HONEST: [u8; 12] = [13, 17, 18, 19, 19, 20, 21, 22, 23, 25, 26, 27];
    let mut out = vec![setup];
    for _ in 0..ops {
        let op = if rng.next() < mix {
            HONEST[usize::from(rng.next()) % HONEST.len()]
        } else {
            rng.next() % 12
        };
        out.push(op);
        for _ in 0..3 {
            out.push(rng.next() % 12);
        }
    }
    out
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    fs::write(dir.join(name), bytes).expect("write seed");
}

/// The seed file name of an event kind: its own name, except the tag-17 seal (`SealIn`),
/// which shares the name `seal` with the tag-10 one but is a different wire shape.
fn kind_file_name(kind: &EventKind) -> &'static str {
    match kind {
        EventKind::SealIn { .. } => "seal_in",
        other => other.name(),
    }
}

/// Every kind the generator signs, by seed file name (the tag-10 `Seal` is only read now:
/// every new seal is a `SealIn`).
const KINDS: [&str; 17] = [
    "challenge",
    "accept",
    "decline",
    "abort",
    "move",
    "draw_offer",
    "draw_accept",
    "draw_decline",
    "claim",
    "resign",
    "seal_in",
    "presence",
    "reveal",
    "receipt",
    "chat",
    "leave",
    "random_reveal",
];

/// Writes `event_<kind>` and `body_<kind>` for the first event of each kind not yet written.
fn write_new_kinds(dir: &Path, events: &[SignedEvent], written: &mut BTreeSet<&'static str>) {
    for e in events {
        // The generator also signs corrupted events; those that do not decode have no kind.
        let Ok(event) = e.decode_unverified() else {
            continue;
        };
        let kind = kind_file_name(&event.kind);
        if written.insert(kind) {
            write(
                dir,
                &format!("event_{kind}"),
                &e.to_bytes().expect("encode event"),
            );
            write(dir, &format!("body_{kind}"), &e.body);
        }
    }
}

/// The eight node messages of a game, named by message: deliveries and answers carrying the
/// game's first events, a sync, the game lists, a refusal and a gossip of its last event.
fn messages(game: EventId, bytes: &[Vec<u8>]) -> Vec<(&'static str, Vec<u8>)> {
    let few: Vec<Vec<u8>> = bytes.iter().take(6).cloned().collect();
    let player = PlayerId::from_bytes([9; 32]);
    let encoded = [
        (
            "request_deliver",
            protocol::encode(&Request::Deliver {
                game,
                events: few.clone(),
            }),
        ),
        (
            "request_sync",
            protocol::encode(&Request::Sync {
                game,
                have: vec![(player, 3)],
            }),
        ),
        (
            "request_games",
            protocol::encode(&Request::Games { player }),
        ),
        (
            "response_receipts",
            protocol::encode(&Response::Receipts {
                receipts: few.clone(),
            }),
        ),
        (
            "response_events",
            protocol::encode(&Response::Events { events: few }),
        ),
        (
            "response_games",
            protocol::encode(&Response::Games {
                games: vec![game, EventId([1; 32])],
            }),
        ),
        (
            "response_refused",
            protocol::encode(&Response::Refused {
                reason: "rate limit".into(),
            }),
        ),
        (
            "gossip",
            protocol::encode(&Gossip {
                game,
                event: bytes[bytes.len() - 1].clone(),
            }),
        ),
    ];
    encoded
        .into_iter()
        .map(|(name, m)| (name, m.expect("encode message")))
        .collect()
}

fn main() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let seq_dir = fuzz.join("seeds/verify_seq");
    let wire_dir = fuzz.join("seeds/wire");
    let wire_corpus = fuzz.join("corpus/wire");
    for dir in [&seq_dir, &wire_dir, &wire_corpus] {
        fs::create_dir_all(dir).expect("create seed directory");
    }
    let mut rng = Rng(0x05ee_d0f5_0b2e);
    let mut honest = 0;
    let mut kinds_written = BTreeSet::new();
    let setups = [
        0x00, 0x01, 0x02, 0x05, 0x08, 0x0e, 0x14, 0x24, 0x34, 0x44, 0xf0, 0x06,
    ];
    for (n, &setup) in setups.iter().enumerate() {
        let mix = [0u8, 16, 48, 96][n % 4];
        let input = game_input(&mut rng, setup, 60, mix);
        write(&seq_dir, &format!("seed_{n:02}"), &input);
        let g = game_gen::generate(&input);
        let verdict = verify(&g.events);
        println!(
            "seed {n:02}: {} events, {} moves, honest {}, verify {}",
            g.events.len(),
            g.moves.len(),
            g.honest,
            match &verdict {
                Ok(st) => format!("ok ({}, {} moves)", st.status.name(), st.moves.len()),
                Err(e) => format!("error: {e}"),
            }
        );
        if g.honest {
            honest += 1;
            assert!(verdict.is_ok(), "an honest seed was rejected");
        }
        let bytes: Vec<Vec<u8>> = g.events.iter().map(|e| e.to_bytes().unwrap()).collect();
        write_new_kinds(&wire_dir, &g.events, &mut kinds_written);
        let game = g.events[0].id();
        if n == 0 {
            for (name, m) in messages(game, &bytes) {
                write(&wire_dir, name, &m);
            }
        }
        // Local corpus only: the wider slice of the first few games.
        if n < 6 {
            for (i, (e, b)) in g.events.iter().zip(&bytes).enumerate().step_by(7) {
                write(&wire_corpus, &format!("event_{n}_{i:02}"), b);
                write(&wire_corpus, &format!("body_{n}_{i:02}"), &e.body);
            }
            for (k, (_, m)) in messages(game, &bytes).into_iter().enumerate() {
                write(&wire_corpus, &format!("message_{n}_{k}"), &m);
            }
        }
    }
    // The twelve games hold few kinds besides moves (their inputs are mostly legal moves): the
    // rest come from random generator inputs, the first that sign each kind still missing.
    // Only their wire events are kept; the inputs themselves are not seeds.
    let mut tries = 0;
    while kinds_written.len() < KINDS.len() && tries < 10_000 {
        let input: Vec<u8> = (0..240).map(|_| rng.next()).collect();
        write_new_kinds(
            &wire_dir,
            &game_gen::generate(&input).events,
            &mut kinds_written,
        );
        tries += 1;
    }
    // The empty event list, the smallest message that carries events.
    write(
        &wire_dir,
        "empty_events",
        &codec::encode(&Response::Events { events: vec![] }).unwrap(),
    );
    println!("{honest} honest seeds of {}", setups.len());
    println!(
        "wire seeds of {} event kinds ({tries} random games searched): {}",
        kinds_written.len(),
        kinds_written.iter().copied().collect::<Vec<_>>().join(", ")
    );
    let missing: Vec<&str> = KINDS
        .into_iter()
        .filter(|k| !kinds_written.contains(k))
        .collect();
    assert!(
        missing.is_empty(),
        "no generated event of kinds {missing:?}"
    );
}
