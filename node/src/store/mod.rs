//! The node's durable state: sled trees under `<home>/db`.
//!
//! | tree | key | value |
//! | --- | --- | --- |
//! | `events` | game ‖ author ‖ seq (big-endian) ‖ event id | the signed event's wire bytes, as received |
//! | `outbox` | event id ‖ recipient peer id | JSON [`OutboxEntry`] until the recipient's receipt arrives |
//! | `outbox_by_peer`, `outbox_by_game`, `outbox_due` | see [`outbox`] | indices of `outbox` by peer, game and next attempt |
//! | `games` | game id | JSON [`GameMeta`] (what the node knows without replaying) |
//! | `conditional` | game id | JSON list of prepared lines (private, never sent) |
//! | `coin_choices` | game id | JSON [`CoinChoice`] (private, never sent) |
//! | `peers` | peer id | JSON [`RememberedPeer`] (its addresses, when last seen; see [`peers`]) |
//! | `meta` | name | bytes (profile, settings) |
//! | `equivocations` | see [`equivocations`] | both events of an equivocation, as proof |
//! | `leagues`, `league_joins`, `league_sent`, `league_games` | see [`leagues`] | league documents, acknowledgements, pairings' games |
//! | `reminders` | the reminder's key | JSON [`crate::reminders::Reminder`] (each fires once, see [`reminders`]) |
//! | `summaries` | game id | format ‖ codec: the game's verified [`crate::view::Summary`] and the digest of the stored events it was built from (see [`summaries`]) |
//!
//! Keys of `events` sort a game's events by author and sequence number, and keep both
//! events of an equivocation (the id is part of the key). A command reports success only
//! after [`Store::flush`].
//!
//! The store is the only code that opens a tree: every tree is opened here, once, and the
//! other modules read and write records through typed methods, so the layout above is the
//! whole of what is on disk.

use serde::{Deserialize, Serialize};
use sobre_core::record::{Event, EventId, GameId, SignedEvent, VerifiedEvent};
use std::path::Path;

mod carry;
pub use carry::{CARRIED, Carried};
pub mod equivocations;
mod forgotten;
pub mod leagues;
pub mod outbox;
pub mod peers;
pub mod profiles;
pub mod reminders;
pub mod summaries;

pub use equivocations::{Equivocation, EquivocationRecord};
pub use peers::RememberedPeer;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the database at {path}: {source} (run `sobre node repair` to rebuild it)")]
    Open { path: String, source: sled::Error },
    /// Another process holds the database (a node, or a command reading it while the node
    /// is stopped) beyond the wait.
    #[error(
        "the database at {path} is in use by another process (a node, or another sobre command)"
    )]
    Busy { path: String },
    #[error("database error: {0}")]
    Sled(#[from] sled::Error),
    #[error("corrupt record in tree {tree}: {reason}")]
    Corrupt { tree: &'static str, reason: String },
}

/// An event waiting for a recipient's receipt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutboxEntry {
    pub event: EventId,
    pub game: GameId,
    /// The recipient's peer id (text form).
    pub peer: String,
    pub attempts: u32,
    /// Earliest time of the next attempt, ms since the epoch.
    pub next_at_ms: u64,
}

/// What the node remembers about a game between replays.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameMeta {
    /// The node's own player takes part (false for a mailbox holding others' games).
    pub mine: bool,
    /// When the node first stored the game, or took it as its own, ms since the epoch. Not
    /// updated at each event: that would be a write more in every move's flush.
    pub updated_ms: u64,
}

/// What the player asked for when accepting a challenge whose colours or start are drawn by
/// the coin, for the node to sign a coin default with if the challenger never opens the coin
/// (FIDE Appendix F1; see `service::coin`). Never sent anywhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoinChoice {
    /// The colour the player wants: `true` for White.
    pub white: Option<bool>,
    /// The Chess960 start the player wants (0..959).
    pub position: Option<u16>,
}

/// Dropped games remembered; past it the oldest is forgotten for good (a stranger's challenge
/// then could be receipted twice, which would mark only that never-accepted game disputed).
pub const MAX_FORGOTTEN: usize = 4096;

/// The database.
#[derive(Clone)]
pub struct Store {
    db: sled::Db,
    events: sled::Tree,
    outbox: sled::Tree,
    /// Indices of `outbox` (see [`outbox`]).
    outbox_by_peer: sled::Tree,
    outbox_by_game: sled::Tree,
    outbox_due: sled::Tree,
    games: sled::Tree,
    conditional: sled::Tree,
    coin_choices: sled::Tree,
    peers: sled::Tree,
    meta: sled::Tree,
    equivocations: sled::Tree,
    leagues: sled::Tree,
    league_joins: sled::Tree,
    league_sent: sled::Tree,
    league_games: sled::Tree,
    /// Dropped games (see [`Store::forget_game`]): game id → order of dropping.
    forgotten: sled::Tree,
    /// Reminders fired (see [`reminders`]).
    reminders: sled::Tree,
    /// Verified summaries of the games (see [`summaries`]).
    summaries: sled::Tree,
}

fn event_key(game: &GameId, e: &Event, id: &EventId) -> Vec<u8> {
    let mut k = Vec::with_capacity(104);
    k.extend_from_slice(&game.0);
    k.extend_from_slice(e.author.as_bytes());
    k.extend_from_slice(&e.seq.to_be_bytes());
    k.extend_from_slice(&id.0);
    k
}

/// Per author, the sequence number after the highest of `places` (author, seq): what a
/// [`crate::protocol::Request::Sync`] says the requester holds.
pub fn next_per_author(
    places: impl IntoIterator<Item = (sobre_core::record::PlayerId, u64)>,
) -> Vec<(sobre_core::record::PlayerId, u64)> {
    let mut out: Vec<(sobre_core::record::PlayerId, u64)> = Vec::new();
    for (author, seq) in places {
        let next = seq.saturating_add(1);
        match out.iter_mut().find(|(a, _)| *a == author) {
            Some((_, n)) => *n = (*n).max(next),
            None => out.push((author, next)),
        }
    }
    out
}

impl Store {
    /// Opens (or creates) the database in `dir`.
    ///
    /// # Errors
    /// [`StoreError::Open`] with the path and what sled said.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        Store::open_waiting(dir, std::time::Duration::from_secs(3))
    }

    /// Opens (or creates) the database in `dir`, waiting up to `wait` while another process
    /// holds it: a node starting while a command reads its stopped node's database
    /// (`crate::offline`) waits for the read to end.
    ///
    /// # Errors
    /// [`StoreError::Busy`] if the database is still held after `wait`,
    /// [`StoreError::Open`] with the path and what sled said.
    pub fn open_waiting(dir: &Path, wait: std::time::Duration) -> Result<Store, StoreError> {
        let config = sled::Config::new()
            .path(dir)
            .mode(sled::Mode::HighThroughput)
            // sled's default page cache is 1 GiB; games are small and the service keeps the
            // live ones in memory, so 32 MiB keeps a node holding 10,000 games lean.
            .cache_capacity(32 << 20);
        // sled releases its file lock only when its background threads have ended, a moment
        // after the database was dropped (a refused start, `node repair` just before): wait
        // for it a little instead of failing. A live node holding the lock still fails.
        let deadline = std::time::Instant::now() + wait;
        let mut cleared_snapshot = false;
        let db = loop {
            match config.open() {
                Ok(db) => break db,
                // A snapshot sled was writing when the process was killed (see
                // `remove_unfinished_snapshots`): sled reads it as the newest and refuses the
                // whole database. Once, and only while nobody holds the database.
                Err(sled::Error::Corruption { .. })
                    if !cleared_snapshot
                        && !sled_lock_held(dir)
                        && remove_unfinished_snapshots(dir) > 0 =>
                {
                    cleared_snapshot = true;
                }
                // sled reports the lock as `Other` with the reason only in its text: ask the
                // lock itself instead (the same advisory lock sled takes on its `db` file).
                Err(sled::Error::Io(_)) if sled_lock_held(dir) => {
                    if std::time::Instant::now() >= deadline {
                        return Err(StoreError::Busy {
                            path: dir.display().to_string(),
                        });
                    }
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                Err(source) => {
                    return Err(StoreError::Open {
                        path: dir.display().to_string(),
                        source,
                    });
                }
            }
        };
        let tree = |name: &str| db.open_tree(name);
        let store = Store {
            events: tree("events")?,
            outbox: tree("outbox")?,
            outbox_by_peer: tree("outbox_by_peer")?,
            outbox_by_game: tree("outbox_by_game")?,
            outbox_due: tree("outbox_due")?,
            games: tree("games")?,
            conditional: tree("conditional")?,
            coin_choices: tree("coin_choices")?,
            peers: tree("peers")?,
            meta: tree("meta")?,
            equivocations: tree("equivocations")?,
            leagues: tree("leagues")?,
            league_joins: tree("league_joins")?,
            league_sent: tree("league_sent")?,
            league_games: tree("league_games")?,
            forgotten: tree("forgotten")?,
            reminders: tree("reminders")?,
            summaries: tree("summaries")?,
            db,
        };
        store.upgrade_forgotten()?;
        store.index_outbox()?;
        Ok(store)
    }

    /// Makes everything written so far durable. Call before reporting success.
    ///
    /// Flushed by the caller's thread, not with sled's `flush_async`: that one runs on
    /// sled's global I/O pool (seven threads in all, grown only when more jobs wait), and
    /// each flush there waits for a log write queued on the same pool. A process with
    /// several stores (the tests' in-process nodes, a benchmark's players) then had every
    /// I/O thread waiting in a flush and none left to write: every node hung.
    ///
    /// # Errors
    /// If the disk write fails.
    pub async fn flush(&self) -> Result<(), StoreError> {
        // In place: on a worker of a multi-threaded runtime (a node's) tokio first moves the
        // worker's other tasks away; a single-threaded runtime (tests, the demo) is held for
        // the flush's milliseconds; without a runtime (the commands that open the store with
        // the node stopped) the caller waits, as it does for the future anyway.
        let multi = tokio::runtime::Handle::try_current()
            .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
        if multi {
            tokio::task::block_in_place(|| self.db.flush())?;
        } else {
            self.db.flush()?;
        }
        Ok(())
    }

    /// Stores a signed event of `game` exactly as received. Returns false if it was already
    /// there.
    ///
    /// # Errors
    /// If the event does not decode (callers store only verified events) or on I/O errors.
    pub fn insert_event(&self, game: &GameId, signed: &SignedEvent) -> Result<bool, StoreError> {
        let event = signed
            .decode_unverified()
            .map_err(|e| StoreError::Corrupt {
                tree: "events",
                reason: e.to_string(),
            })?;
        let new = self.put_event(game, &event, &signed.id(), signed)?;
        if self.games.get(game.0)?.is_none() {
            self.set_game_meta(game, &GameMeta::default())?;
        }
        Ok(new)
    }

    /// [`Store::insert_event`] for an event already decoded (and verified), without decoding
    /// it again, for a game the caller knows is in the `games` tree (or records there before
    /// the next flush). Returns false if it was already there.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn insert_verified(&self, game: &GameId, v: &VerifiedEvent) -> Result<bool, StoreError> {
        self.put_event(game, &v.event, &v.id, &v.signed)
    }

    /// Writes one event under its key; true if it was not there.
    fn put_event(
        &self,
        game: &GameId,
        event: &Event,
        id: &EventId,
        signed: &SignedEvent,
    ) -> Result<bool, StoreError> {
        let bytes = signed.to_bytes().map_err(|e| StoreError::Corrupt {
            tree: "events",
            reason: e.to_string(),
        })?;
        Ok(self
            .events
            .insert(event_key(game, event, id), bytes)?
            .is_none())
    }

    /// Whether this very event (same author, place and id) is stored for `game`: one key
    /// lookup, nothing decoded or verified.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn has_event(
        &self,
        game: &GameId,
        event: &Event,
        id: &EventId,
    ) -> Result<bool, StoreError> {
        Ok(self.events.contains_key(event_key(game, event, id))?)
    }

    /// The receipts `author` signed in `game`, as stored: the receipted event's id and the
    /// receipt's wire bytes. Reads only that author's keys.
    ///
    /// # Errors
    /// On I/O errors, or [`StoreError::Corrupt`] for a stored value that no longer decodes.
    pub fn receipts_by(
        &self,
        game: &GameId,
        author: &sobre_core::record::PlayerId,
    ) -> Result<Vec<(EventId, Vec<u8>)>, StoreError> {
        let mut prefix = game.0.to_vec();
        prefix.extend_from_slice(author.as_bytes());
        let mut out = Vec::new();
        for item in self.events.scan_prefix(prefix) {
            let (_, v) = item?;
            let corrupt = |reason: String| StoreError::Corrupt {
                tree: "events",
                reason: format!("game {game}: {reason}"),
            };
            let signed = SignedEvent::from_bytes(&v).map_err(|e| corrupt(e.to_string()))?;
            let ev = signed
                .decode_unverified()
                .map_err(|e| corrupt(e.to_string()))?;
            if let sobre_core::record::EventKind::Receipt { event } = ev.kind {
                out.push((event, v.to_vec()));
            }
        }
        Ok(out)
    }

    /// Every stored event of a game, in key order (by author, then sequence).
    ///
    /// # Errors
    /// On I/O errors, or [`StoreError::Corrupt`] if a stored value no longer decodes (the
    /// node then refuses to serve it and says so).
    pub fn events(&self, game: &GameId) -> Result<Vec<SignedEvent>, StoreError> {
        let mut out = Vec::new();
        for item in self.events.scan_prefix(game.0) {
            let (_, v) = item?;
            let ev = SignedEvent::from_bytes(&v).map_err(|e| StoreError::Corrupt {
                tree: "events",
                reason: format!("game {game}: {e}"),
            })?;
            out.push(ev);
        }
        Ok(out)
    }

    /// Number of events stored for a game by `author` (their next sequence number, if no
    /// gaps).
    ///
    /// # Errors
    /// On I/O errors.
    pub fn count_by(
        &self,
        game: &GameId,
        author: &sobre_core::record::PlayerId,
    ) -> Result<u64, StoreError> {
        let mut prefix = game.0.to_vec();
        prefix.extend_from_slice(author.as_bytes());
        Ok(self.events.scan_prefix(prefix).count() as u64)
    }

    /// Per author of `game`'s stored events, the next sequence number after the highest
    /// stored: read from the keys alone (see the table above), no event decoded.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn heads(
        &self,
        game: &GameId,
    ) -> Result<Vec<(sobre_core::record::PlayerId, u64)>, StoreError> {
        let mut places = Vec::new();
        for item in self.events.scan_prefix(game.0) {
            let (k, _) = item?;
            let (Some(author), Some(seq)) = (k.get(32..64), k.get(64..72)) else {
                continue;
            };
            let (Ok(author), Ok(seq)) = (<[u8; 32]>::try_from(author), <[u8; 8]>::try_from(seq))
            else {
                continue;
            };
            places.push((
                sobre_core::record::PlayerId::from_bytes(author),
                u64::from_be_bytes(seq),
            ));
        }
        Ok(next_per_author(places))
    }

    /// All games the store holds events for.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn games(&self) -> Result<Vec<GameId>, StoreError> {
        let mut out = Vec::new();
        for item in self.games.iter() {
            let (k, _) = item?;
            if let Ok(id) = <[u8; 32]>::try_from(k.as_ref()) {
                out.push(EventId(id));
            }
        }
        Ok(out)
    }

    /// Removes a game this node no longer keeps (an unanswered challenge dropped for a newer
    /// one, or from a blocked player): its events, its meta, what waits to be sent of it and
    /// the player's choices; and remembers that it was dropped ([`Store::forgotten`]): the
    /// node may have receipted the challenge, and must never sign in that game again (a
    /// second receipt at the same place would be an equivocation), nor count the receipt as
    /// lost at start.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn forget_game(&self, game: &GameId) -> Result<(), StoreError> {
        self.remember_forgotten(game)?;
        for item in self.events.scan_prefix(game.0) {
            let (k, _) = item?;
            self.events.remove(k)?;
        }
        for entry in self.outbox_of_game(game)? {
            self.outbox_remove(&entry.event, &entry.peer)?;
        }
        self.games.remove(game.0)?;
        self.conditional.remove(game.0)?;
        self.coin_choices.remove(game.0)?;
        self.remove_summary(game)?;
        Ok(())
    }

    pub fn game_meta(&self, game: &GameId) -> Result<Option<GameMeta>, StoreError> {
        self.get_json(&self.games, "games", &game.0)
    }

    pub fn set_game_meta(&self, game: &GameId, meta: &GameMeta) -> Result<(), StoreError> {
        self.put_json(&self.games, &game.0, meta)
    }

    /// Records `game` as one the node's player takes part in, at `t`, unless it is already
    /// recorded so: a move is one write less for the flush that makes it durable.
    ///
    /// # Errors
    /// On I/O errors, or [`StoreError::Corrupt`] if the stored meta no longer decodes.
    pub fn mark_mine(&self, game: &GameId, t: u64) -> Result<(), StoreError> {
        if self.game_meta(game)?.is_some_and(|m| m.mine) {
            return Ok(());
        }
        self.set_game_meta(
            game,
            &GameMeta {
                mine: true,
                updated_ms: t,
            },
        )
    }

    // Conditional moves, coin choices, peers and settings.

    pub fn conditional(&self, game: &GameId) -> Result<Vec<Vec<String>>, StoreError> {
        Ok(self
            .get_json(&self.conditional, "conditional", &game.0)?
            .unwrap_or_default())
    }

    pub fn set_conditional(&self, game: &GameId, lines: &[Vec<String>]) -> Result<(), StoreError> {
        if lines.is_empty() {
            self.conditional.remove(game.0)?;
            return Ok(());
        }
        self.put_json(&self.conditional, &game.0, &lines)
    }

    /// The player's choice for a coin default in `game`, if they made one at acceptance.
    ///
    /// # Errors
    /// On I/O errors, or [`StoreError::Corrupt`] if the stored choice no longer decodes.
    pub fn coin_choice(&self, game: &GameId) -> Result<Option<CoinChoice>, StoreError> {
        self.get_json(&self.coin_choices, "coin_choices", &game.0)
    }

    /// Keeps the player's choice for a coin default in `game`, flushed with the acceptance
    /// it came with.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn set_coin_choice(&self, game: &GameId, choice: &CoinChoice) -> Result<(), StoreError> {
        self.put_json(&self.coin_choices, &game.0, choice)
    }

    pub fn meta_get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.meta.get(key.as_bytes())?.map(|v| v.to_vec()))
    }

    pub fn meta_set(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.meta.insert(key.as_bytes(), value)?;
        Ok(())
    }

    /// A list kept under a `meta` key as JSON strings (game or player ids), in order; the
    /// entries that no longer parse as `T` are skipped, a missing or damaged list is empty.
    pub fn meta_list<T: std::str::FromStr>(&self, key: &str) -> Vec<T> {
        self.meta_get(key)
            .ok()
            .flatten()
            .and_then(|b| serde_json::from_slice::<Vec<String>>(&b).ok())
            .unwrap_or_default()
            .iter()
            .filter_map(|s| s.parse().ok())
            .collect()
    }

    /// Writes the list [`Store::meta_list`] reads. The caller flushes.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn set_meta_list<T: ToString>(
        &self,
        key: &str,
        items: impl IntoIterator<Item = T>,
    ) -> Result<(), StoreError> {
        let list: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
        self.put_json(&self.meta, key.as_bytes(), &list)
    }

    fn get_json<T: serde::de::DeserializeOwned>(
        &self,
        tree: &sled::Tree,
        name: &'static str,
        key: &[u8],
    ) -> Result<Option<T>, StoreError> {
        match tree.get(key)? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(&v)
                .map(Some)
                .map_err(|e| StoreError::Corrupt {
                    tree: name,
                    reason: e.to_string(),
                }),
        }
    }

    fn put_json<T: Serialize + ?Sized>(
        &self,
        tree: &sled::Tree,
        key: &[u8],
        v: &T,
    ) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec(v).map_err(|e| StoreError::Corrupt {
            tree: "json",
            reason: e.to_string(),
        })?;
        tree.insert(key, bytes)?;
        Ok(())
    }
}

/// Whether another handle (a live node, or one still shutting down) holds sled's lock on the
/// database in `dir`: sled 0.34 takes an exclusive advisory lock on its `db` file.
fn sled_lock_held(dir: &Path) -> bool {
    let Ok(file) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(dir.join("db"))
    else {
        return false;
    };
    match file.try_lock() {
        Ok(()) => {
            let _ = file.unlock();
            false
        }
        Err(std::fs::TryLockError::WouldBlock) => true,
        Err(std::fs::TryLockError::Error(_)) => false,
    }
}

/// Removes the snapshots sled began and never finished (`snap.<lsn>.generating`); returns
/// how many.
///
/// sled 0.34.7 writes a snapshot to `snap.<lsn>.generating`, fsyncs it and only then renames
/// it to `snap.<lsn>`, but when it opens a database it takes the newest file starting with
/// `snap.`, unfinished ones included (sled issue #1527). A node killed while sled wrote one
/// (the crash loop's kill during start-up found it) could then not open its database again:
/// "empty/corrupt snapshot file". A snapshot only shortens the log replay, and the previous
/// one is removed only after the rename, so without the unfinished file sled recovers from
/// the previous snapshot and the log, losing nothing.
fn remove_unfinished_snapshots(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("snap.")
            && name.ends_with(".generating")
            && std::fs::remove_file(entry.path()).is_ok()
        {
            tracing::warn!(file = %name, "removed a snapshot sled never finished writing");
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use sobre_core::record::author::Scoresheet;
    use sobre_core::record::{Challenge, ColourChoice, Keypair, StartPosition};

    /// Many stores in one process (the tests' in-process nodes, the benches) flushing at
    /// once must all finish. sled runs `flush_async` on its global I/O pool of seven threads,
    /// where each flush then waits for a log write queued on the same pool: with more
    /// flushes at once than threads, every one waited for a write none was free to do.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn many_stores_in_one_process_flush_at_once() {
        let dirs: Vec<_> = (0..16).map(|_| tempfile::tempdir().unwrap()).collect();
        let stores: Vec<_> = dirs
            .iter()
            .map(|d| std::sync::Arc::new(Store::open(d.path()).unwrap()))
            .collect();
        let mut tasks = tokio::task::JoinSet::new();
        for (i, store) in stores.iter().enumerate() {
            let store = store.clone();
            tasks.spawn(async move {
                for round in 0..40u32 {
                    store
                        .meta_set(&format!("k{round}"), &[i as u8; 4096])
                        .unwrap();
                    store.flush().await.unwrap();
                }
            });
        }
        // Before, this never returned (every sled I/O thread waiting in a flush); the
        // runtime's workers then blocked in sled's writes too, so no timeout could fire.
        while let Some(done) = tasks.join_next().await {
            done.expect("a store's flushes finished");
        }
    }

    /// A node killed while sled wrote a snapshot left `snap.<lsn>.generating` half written;
    /// the database opens again with everything that was flushed.
    #[tokio::test]
    async fn an_unfinished_snapshot_does_not_lock_the_database_out() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = Store::open(dir.path()).unwrap();
            store.meta_set("kept", b"acknowledged").unwrap();
            store.flush().await.unwrap();
        }
        // Newer than any snapshot sled wrote, and killed before its first bytes.
        std::fs::write(dir.path().join("snap.7FFFFFFFFFFFFFFF.generating"), b"").unwrap();
        let store = Store::open(dir.path()).expect("the database opens");
        assert_eq!(
            store.meta_get("kept").unwrap().as_deref(),
            Some(&b"acknowledged"[..])
        );
        assert!(!dir.path().join("snap.7FFFFFFFFFFFFFFF.generating").exists());
    }

    /// White and Black of the test games.
    pub(crate) fn keys() -> (Keypair, Keypair) {
        (
            Keypair::from_secret_bytes(&[1; 32]),
            Keypair::from_secret_bytes(&[2; 32]),
        )
    }

    /// A game `w` challenged `b` to, and two different chats `w` signed as its event 1: an
    /// equivocation. Returns the game, then `[challenge, first chat, second chat]`.
    pub(crate) fn chats(w: &Keypair, b: &Keypair) -> (GameId, [SignedEvent; 3]) {
        let ch = Challenge {
            opponent: b.player_id(),
            colour: ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            start: StartPosition::Standard,
            coin_commitment: None,
            league: None,
        };
        let (sheet, challenge) = Scoresheet::challenge(w.clone(), ch, 1).unwrap();
        let game = sheet.game();
        let resume = || Scoresheet::resume(w.clone(), game, 1, Some(game), None);
        let one = resume().chat("one", 2).unwrap();
        let two = resume().chat("two", 2).unwrap();
        (game, [challenge, one, two])
    }

    #[tokio::test]
    async fn a_coin_choice_round_trips_per_game_and_survives_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let (w, b) = keys();
        let (game, _) = chats(&w, &b);
        let mut other = game;
        other.0[0] ^= 1;
        let choice = CoinChoice {
            white: Some(false),
            position: Some(518),
        };
        {
            let store = Store::open(dir.path()).unwrap();
            assert_eq!(store.coin_choice(&game).unwrap(), None);
            store.set_coin_choice(&game, &choice).unwrap();
            store.flush().await.unwrap();
        }
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.coin_choice(&game).unwrap(), Some(choice));
        assert_eq!(store.coin_choice(&other).unwrap(), None);
        // The stored form nodes before this one wrote and read.
        assert_eq!(
            store.coin_choices.get(game.0).unwrap().unwrap().to_vec(),
            br#"{"white":false,"position":518}"#.to_vec()
        );
    }

    #[tokio::test]
    async fn events_survive_reopen_in_author_seq_order() {
        let dir = tempfile::tempdir().unwrap();
        let (w, b) = (
            Keypair::from_secret_bytes(&[1; 32]),
            Keypair::from_secret_bytes(&[2; 32]),
        );
        let ch = Challenge {
            opponent: b.player_id(),
            colour: ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            start: StartPosition::Standard,
            coin_commitment: None,
            league: None,
        };
        let (mut ws, ev) = Scoresheet::challenge(w, ch, 1).unwrap();
        let game = ws.game();
        let chat = ws.chat("hola", 2).unwrap();
        {
            let store = Store::open(dir.path()).unwrap();
            assert!(store.insert_event(&game, &chat).unwrap());
            assert!(store.insert_event(&game, &ev).unwrap());
            assert!(!store.insert_event(&game, &ev).unwrap());
            store.flush().await.unwrap();
        }
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.events(&game).unwrap(), vec![ev, chat]);
        assert_eq!(store.games().unwrap(), vec![game]);
    }
}
