//! League documents whose signature this process has already checked.
//!
//! A node reads a league's documents again and again: on every connection of a member or a
//! mailbox, and at every league tick, it rebuilds the league from its signed definition and
//! sends the joins and decisions it holds (a mailbox in a reconnect storm: every player at
//! once). Each read used to verify every signature again, an ed25519 verification of about
//! 50 µs each — most of a mailbox's CPU per connection in the Tier 1 storm (issue 30;
//! docs/performance.md). A document's verdict depends only on its bytes (the author is in
//! the body), so the hash of body and signature stands for "checked and good".
//!
//! Bounded: when full the set is emptied, which costs only the checks again. Only good
//! signatures are remembered, so bad documents sent in a flood cannot make a bad one pass,
//! only push good ones out.

use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// Enough for every document of a few hundred leagues of 64 players.
const CAPACITY: usize = 1 << 14;

fn set() -> &'static Mutex<HashSet<[u8; 32]>> {
    static SET: OnceLock<Mutex<HashSet<[u8; 32]>>> = OnceLock::new();
    SET.get_or_init(|| Mutex::new(HashSet::new()))
}

/// What stands for a document: its body and signature, hashed.
pub(super) fn key(body: &[u8], signature: &([u8; 32], [u8; 32])) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update((body.len() as u64).to_le_bytes());
    h.update(body);
    h.update(signature.0);
    h.update(signature.1);
    h.finalize().into()
}

/// Whether a document with this key was checked and found good.
pub(super) fn is_known_good(key: &[u8; 32]) -> bool {
    // A poisoned lock only means another thread panicked while inserting: the set is
    // still a set of good keys.
    set()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .contains(key)
}

/// Remembers a document whose signature was just found good.
pub(super) fn remember_good(key: [u8; 32]) {
    let mut set = set()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if set.len() >= CAPACITY {
        set.clear();
    }
    set.insert(key);
}
