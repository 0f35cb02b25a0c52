//! Writes seed inputs for the `wire` and `verify_seq` fuzz targets into `../corpus/`.
//!
//! `verify_seq` seeds are byte strings for the game generator (`game_gen.rs`, shared with
//! the target); `wire` seeds are the real signed events, bodies and node messages of the
//! games those seeds generate. Deterministic: the same files every run.
use sobre_core::record::codec;
use sobre_core::record::{EventId, PlayerId, verify};
use sobre_node::protocol::{self, Gossip, Request, Response};
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

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let seq_dir = root.join("verify_seq");
    let wire_dir = root.join("wire");
    fs::create_dir_all(&seq_dir).unwrap();
    fs::create_dir_all(&wire_dir).unwrap();
    let mut rng = Rng(0x5eed_0f_50b2e);
    let mut honest = 0;
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
        // Wire seeds from the first few games.
        if n < 6 {
            let game = g.events[0].id();
            let bytes: Vec<Vec<u8>> = g.events.iter().map(|e| e.to_bytes().unwrap()).collect();
            for (i, (e, b)) in g.events.iter().zip(&bytes).enumerate().step_by(7) {
                write(&wire_dir, &format!("event_{n}_{i:02}"), b);
                write(&wire_dir, &format!("body_{n}_{i:02}"), &e.body);
            }
            let few: Vec<Vec<u8>> = bytes.iter().take(6).cloned().collect();
            let player = PlayerId::from_bytes([9; 32]);
            let messages = [
                protocol::encode(&Request::Deliver {
                    game,
                    events: few.clone(),
                }),
                protocol::encode(&Request::Sync {
                    game,
                    have: vec![(player, 3)],
                }),
                protocol::encode(&Request::Games { player }),
                protocol::encode(&Response::Receipts {
                    receipts: few.clone(),
                }),
                protocol::encode(&Response::Events { events: few }),
                protocol::encode(&Response::Games {
                    games: vec![game, EventId([1; 32])],
                }),
                protocol::encode(&Response::Refused {
                    reason: "rate limit".into(),
                }),
                protocol::encode(&Gossip {
                    game,
                    event: bytes[bytes.len() - 1].clone(),
                }),
            ];
            for (k, m) in messages.into_iter().enumerate() {
                write(&wire_dir, &format!("message_{n}_{k}"), &m.unwrap());
            }
        }
    }
    // The empty event list and the smallest messages.
    write(
        &wire_dir,
        "empty_events",
        &codec::encode(&Response::Events { events: vec![] }).unwrap(),
    );
    println!("{honest} honest seeds of {}", setups.len());
}
