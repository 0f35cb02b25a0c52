//! Deterministic games (`sobre_core::test_support`), and keys from tags.

use crate::Res;
use crate::stats::cpus;
use sobre_core::record::{GameId, Keypair, SignedEvent, verify};
use sobre_core::test_support::{GameBuilder, Lines};
use sobre_core::{Move, Position};
use sobre_node::home;
use sobre_node::store::Store;
use std::path::Path;

/// A key from a tag and an index (any 32 bytes are an ed25519 secret).
pub fn key(tag: u32, i: u64) -> Keypair {
    let mut s = [0u8; 32];
    s[..4].copy_from_slice(&tag.to_le_bytes());
    s[4..12].copy_from_slice(&i.to_le_bytes());
    s[31] = 0x5b;
    Keypair::from_secret_bytes(&s)
}

/// A signed game: challenge (by `white`, who plays White) at `t0`, accept, then exactly
/// `plies` random moves, none of which ends the game, one minute apart.
fn signed_game(
    white: &Keypair,
    black: &Keypair,
    seed: u64,
    plies: usize,
    t0: u64,
) -> Vec<SignedEvent> {
    let line = Lines::new(seed).endless().line(&Position::new(), plies);
    assert_eq!(line.len(), plies, "a line of {plies} plies");
    GameBuilder::new(white.clone(), black.clone())
        .at(t0)
        .sign(&line)
        .expect("a legal line signs")
        .events
}

/// `n` games signed on all cores; game `i` is `players(i)`'s.
pub fn signed_games(
    n: usize,
    plies: usize,
    t0: u64,
    players: impl Fn(usize) -> (Keypair, Keypair) + Sync,
) -> Vec<Vec<SignedEvent>> {
    let threads = cpus().max(1);
    let mut out: Vec<Option<Vec<SignedEvent>>> = (0..n).map(|_| None).collect();
    let chunk = n.div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (c, slots) in out.chunks_mut(chunk).enumerate() {
            let players = &players;
            s.spawn(move || {
                for (j, slot) in slots.iter_mut().enumerate() {
                    let i = c * chunk + j;
                    let (w, b) = players(i);
                    // Distinct challenge times make distinct games between the same players.
                    *slot = Some(signed_game(&w, &b, i as u64 + 1, plies, t0 + i as u64));
                }
            });
        }
    });
    out.into_iter().map(|g| g.expect("authored")).collect()
}

/// The moves of a game signed by [`signed_game`], replayed from its events.
pub fn game_moves(events: &[SignedEvent]) -> Vec<Move> {
    let state = verify(events).expect("a signed game verifies");
    state.moves.iter().map(|m| m.mv).collect()
}

pub fn game_id(events: &[SignedEvent]) -> GameId {
    events[0].id()
}

/// Writes games straight into the store of `home` (the node is not running).
pub async fn preload(home: &Path, games: &[Vec<SignedEvent>]) -> Res<()> {
    let store = Store::open(&home::db_path(home))?;
    for g in games {
        let id = game_id(g);
        for e in g {
            store.insert_event(&id, e)?;
        }
    }
    store.flush().await?;
    Ok(())
}
