//! The outbox: what waits for a peer's receipt, keyed so that each question the service asks
//! on every delivery answer reads only the entries it is about.
//!
//! | tree | key | value |
//! | --- | --- | --- |
//! | `outbox` | event id ‖ peer | JSON [`OutboxEntry`] (the layout of every version) |
//! | `outbox_by_peer` | peer length (1 byte) ‖ peer ‖ game ‖ event id | empty |
//! | `outbox_by_game` | game ‖ event id ‖ peer | empty |
//! | `outbox_due` | next attempt (ms, big-endian) ‖ event id ‖ peer | empty |
//!
//! `peer` is the recipient's peer id in text form, as stored in [`OutboxEntry::peer`]. The
//! three index trees only point at `outbox` entries; the suffix of a `by_game` or `due` key
//! after its prefix *is* the `outbox` key. Why: a mailbox serving a club holds thousands of
//! entries, and the whole tree was decoded on every delivery answer (clear, backoff, "does
//! the game still wait"), on every connection and at every retry tick.
//!
//! The four trees are written without a sled transaction, in an order that keeps every
//! entry reachable: index keys before the entry when adding, the entry before its index keys
//! when removing. sled recovers a prefix of its log, so a crash between two writes leaves at
//! worst index keys whose entry is gone (or, for `due`, whose entry was rescheduled), and
//! every reader skips those. Why not a transaction: sled 0.34 writes its log buffer out
//! before and after every multi-tree transaction (`pin_log`, a batch manifest of its own),
//! which made each move wait for three disk writes instead of one (issue 31's side by side:
//! the `move` call 0.27 ms longer, twice the log writes per move).
//!
//! Versions before the indices wrote `outbox` alone: [`Store::open`] rebuilds the indices
//! from it once, and records [`INDEX_VERSION`] in `meta` so that it is done once.

use super::{OutboxEntry, Store, StoreError};
use sobre_core::record::{EventId, GameId};

/// The `meta` key recording that the outbox indices were built.
const INDEX_META_KEY: &str = "outbox_index";
/// The index layout written by this version.
const INDEX_VERSION: &[u8] = b"1";

/// The `outbox` key of an entry (event id ‖ peer): the layout of every version.
fn entry_key(event: &EventId, peer: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(32 + peer.len());
    k.extend_from_slice(&event.0);
    k.extend_from_slice(peer.as_bytes());
    k
}

/// The `outbox_by_peer` prefix of `peer`: its length first, so that one peer id is never the
/// prefix of another's keys.
fn peer_prefix(peer: &str) -> Result<Vec<u8>, StoreError> {
    let len = u8::try_from(peer.len()).map_err(|_| StoreError::Corrupt {
        tree: "outbox",
        reason: format!("peer id of {} bytes", peer.len()),
    })?;
    let mut k = Vec::with_capacity(1 + peer.len() + 64);
    k.push(len);
    k.extend_from_slice(peer.as_bytes());
    Ok(k)
}

fn by_peer_key(peer: &str, game: &GameId, event: &EventId) -> Result<Vec<u8>, StoreError> {
    let mut k = peer_prefix(peer)?;
    k.extend_from_slice(&game.0);
    k.extend_from_slice(&event.0);
    Ok(k)
}

fn by_game_key(game: &GameId, event: &EventId, peer: &str) -> Vec<u8> {
    let mut k = game.0.to_vec();
    k.extend_from_slice(&entry_key(event, peer));
    k
}

fn due_key(next_at_ms: u64, event: &EventId, peer: &str) -> Vec<u8> {
    let mut k = next_at_ms.to_be_bytes().to_vec();
    k.extend_from_slice(&entry_key(event, peer));
    k
}

fn corrupt(reason: impl ToString) -> StoreError {
    StoreError::Corrupt {
        tree: "outbox",
        reason: reason.to_string(),
    }
}

fn decode(v: &[u8]) -> Result<OutboxEntry, StoreError> {
    serde_json::from_slice(v).map_err(corrupt)
}

impl Store {
    /// Adds `entry`, or replaces the entry of the same event and peer (a backoff's new
    /// attempt count and time). The caller flushes.
    ///
    /// # Errors
    /// On I/O errors, or [`StoreError::Corrupt`] for a peer id longer than 255 bytes.
    pub fn outbox_add(&self, entry: &OutboxEntry) -> Result<(), StoreError> {
        let key = entry_key(&entry.event, &entry.peer);
        let value = serde_json::to_vec(entry).map_err(corrupt)?;
        let by_peer = by_peer_key(&entry.peer, &entry.game, &entry.event)?;
        let by_game = by_game_key(&entry.game, &entry.event, &entry.peer);
        let due = due_key(entry.next_at_ms, &entry.event, &entry.peer);
        // The index keys first: an entry is never written before its keys (see the module).
        self.outbox_by_peer.insert(by_peer, &[])?;
        self.outbox_by_game.insert(by_game, &[])?;
        self.outbox_due.insert(due.as_slice(), &[])?;
        if let Some(old) = self.outbox.insert(key, value)?
            && let Ok(old) = serde_json::from_slice::<OutboxEntry>(&old)
        {
            let old_due = due_key(old.next_at_ms, &old.event, &old.peer);
            if old_due != due {
                self.outbox_due.remove(old_due)?;
            }
        }
        Ok(())
    }

    /// Removes the entry of `event` for `peer` (its receipt arrived), with its index keys.
    /// The caller flushes.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn outbox_remove(&self, event: &EventId, peer: &str) -> Result<(), StoreError> {
        let key = entry_key(event, peer);
        // The entry first, then its keys (see the module). An entry that no longer decodes
        // leaves index keys behind: the readers below skip keys whose entry is gone.
        if let Some(old) = self.outbox.remove(key)?
            && let Ok(old) = serde_json::from_slice::<OutboxEntry>(&old)
        {
            if let Ok(k) = by_peer_key(&old.peer, &old.game, &old.event) {
                self.outbox_by_peer.remove(k)?;
            }
            self.outbox_by_game
                .remove(by_game_key(&old.game, &old.event, &old.peer))?;
            self.outbox_due
                .remove(due_key(old.next_at_ms, &old.event, &old.peer))?;
        }
        Ok(())
    }

    /// The entries waiting for `peer`'s receipt, in every game.
    ///
    /// # Errors
    /// On I/O errors, or [`StoreError::Corrupt`] for an entry that no longer decodes.
    pub fn outbox_for_peer(&self, peer: &str) -> Result<Vec<OutboxEntry>, StoreError> {
        self.outbox_by_peer_prefix(peer_prefix(peer)?, peer)
    }

    /// The entries of `game` waiting for `peer`'s receipt.
    ///
    /// # Errors
    /// On I/O errors, or [`StoreError::Corrupt`] for an entry that no longer decodes.
    pub fn outbox_for(&self, game: &GameId, peer: &str) -> Result<Vec<OutboxEntry>, StoreError> {
        let mut prefix = peer_prefix(peer)?;
        prefix.extend_from_slice(&game.0);
        self.outbox_by_peer_prefix(prefix, peer)
    }

    /// Whether events of `game` wait for `peer`'s receipt: reads one index key.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn outbox_waits(&self, game: &GameId, peer: &str) -> Result<bool, StoreError> {
        let mut prefix = peer_prefix(peer)?;
        prefix.extend_from_slice(&game.0);
        for item in self.outbox_by_peer.scan_prefix(&prefix) {
            let (k, _) = item?;
            let Some(event) = k
                .get(prefix.len()..)
                .and_then(|e| <[u8; 32]>::try_from(e).ok())
            else {
                continue;
            };
            if self.outbox.contains_key(entry_key(&EventId(event), peer))? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The entries of `game`, for every peer.
    ///
    /// # Errors
    /// On I/O errors, or [`StoreError::Corrupt`] for an entry that no longer decodes.
    pub fn outbox_of_game(&self, game: &GameId) -> Result<Vec<OutboxEntry>, StoreError> {
        let mut out = Vec::new();
        for item in self.outbox_by_game.scan_prefix(game.0) {
            let (k, _) = item?;
            if let Some(v) = self.outbox.get(k.get(32..).unwrap_or_default())? {
                out.push(decode(&v)?);
            }
        }
        Ok(out)
    }

    /// The entries whose next attempt is due at `now_ms`, earliest first.
    ///
    /// # Errors
    /// On I/O errors, or [`StoreError::Corrupt`] for an entry that no longer decodes.
    pub fn outbox_due(&self, now_ms: u64) -> Result<Vec<OutboxEntry>, StoreError> {
        let mut out = Vec::new();
        // Keys are 8 bytes of time then the entry's key: every key of time `now` sorts
        // below the 8 bytes of `now + 1`.
        let keys = match now_ms.checked_add(1) {
            Some(end) => self.outbox_due.range(..end.to_be_bytes().to_vec()),
            None => self.outbox_due.range::<Vec<u8>, _>(..),
        };
        for item in keys {
            let (k, _) = item?;
            let Some(at) = k.get(..8).and_then(|t| <[u8; 8]>::try_from(t).ok()) else {
                continue;
            };
            if let Some(v) = self.outbox.get(k.get(8..).unwrap_or_default())? {
                let e = decode(&v)?;
                // A key left by an entry rewritten without its old value decoding.
                if e.next_at_ms == u64::from_be_bytes(at) {
                    out.push(e);
                }
            }
        }
        Ok(out)
    }

    /// How many entries wait (the status's count): no entry is decoded.
    pub fn outbox_len(&self) -> usize {
        self.outbox.len()
    }

    fn outbox_by_peer_prefix(
        &self,
        prefix: Vec<u8>,
        peer: &str,
    ) -> Result<Vec<OutboxEntry>, StoreError> {
        let head = 1 + peer.len() + 32;
        let mut out = Vec::new();
        for item in self.outbox_by_peer.scan_prefix(&prefix) {
            let (k, _) = item?;
            let Some(event) = k.get(head..).and_then(|e| <[u8; 32]>::try_from(e).ok()) else {
                continue;
            };
            if let Some(v) = self.outbox.get(entry_key(&EventId(event), peer))? {
                out.push(decode(&v)?);
            }
        }
        Ok(out)
    }

    /// Builds the indices from `outbox` once, for a store written by a version without them
    /// (see the module's table). An entry that no longer decodes is left unindexed, as that
    /// version would have failed on it too.
    pub(super) fn index_outbox(&self) -> Result<(), StoreError> {
        if self.meta.get(INDEX_META_KEY)?.as_deref() == Some(INDEX_VERSION) {
            return Ok(());
        }
        self.outbox_by_peer.clear()?;
        self.outbox_by_game.clear()?;
        self.outbox_due.clear()?;
        for item in self.outbox.iter() {
            let (_, v) = item?;
            let Ok(e) = decode(&v) else { continue };
            self.outbox_by_peer
                .insert(by_peer_key(&e.peer, &e.game, &e.event)?, &[])?;
            self.outbox_by_game
                .insert(by_game_key(&e.game, &e.event, &e.peer), &[])?;
            self.outbox_due
                .insert(due_key(e.next_at_ms, &e.event, &e.peer), &[])?;
        }
        self.meta.insert(INDEX_META_KEY, INDEX_VERSION)?;
        self.db.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(event: u8, game: u8, peer: &str, next_at_ms: u64) -> OutboxEntry {
        OutboxEntry {
            event: EventId([event; 32]),
            game: EventId([game; 32]),
            peer: peer.to_owned(),
            attempts: 0,
            next_at_ms,
        }
    }

    fn peers() -> (String, String) {
        (
            libp2p::PeerId::random().to_string(),
            libp2p::PeerId::random().to_string(),
        )
    }

    fn sorted(mut v: Vec<OutboxEntry>) -> Vec<OutboxEntry> {
        v.sort_by(|a, b| (a.event.0, &a.peer).cmp(&(b.event.0, &b.peer)));
        v
    }

    #[test]
    fn entries_for_a_peer_are_that_peers_only() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let (p, q) = peers();
        let mine = [entry(1, 10, &p, 0), entry(2, 11, &p, 0)];
        for e in mine
            .iter()
            .chain([&entry(1, 10, &q, 0), &entry(3, 12, &q, 0)])
        {
            store.outbox_add(e).unwrap();
        }
        assert_eq!(sorted(store.outbox_for_peer(&p).unwrap()), mine.to_vec());
        assert_eq!(
            store.outbox_for(&EventId([11; 32]), &p).unwrap(),
            vec![mine[1].clone()]
        );
        assert!(store.outbox_for_peer(&peers().0).unwrap().is_empty());
    }

    #[test]
    fn entries_for_a_game_are_that_games_only() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let (p, q) = peers();
        let of_game = [
            entry(1, 10, &p, 0),
            entry(1, 10, &q, 0),
            entry(2, 10, &q, 5),
        ];
        for e in of_game.iter().chain([&entry(3, 11, &p, 0)]) {
            store.outbox_add(e).unwrap();
        }
        assert_eq!(
            sorted(store.outbox_of_game(&EventId([10; 32])).unwrap()),
            sorted(of_game.to_vec())
        );
        assert!(store.outbox_of_game(&EventId([12; 32])).unwrap().is_empty());
    }

    #[test]
    fn a_game_waits_for_a_peer_until_its_last_entry_for_that_peer_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let (p, q) = peers();
        let game = EventId([10; 32]);
        store.outbox_add(&entry(1, 10, &p, 0)).unwrap();
        store.outbox_add(&entry(2, 10, &p, 0)).unwrap();
        store.outbox_add(&entry(3, 11, &q, 0)).unwrap();
        assert!(store.outbox_waits(&game, &p).unwrap());
        assert!(
            !store.outbox_waits(&game, &q).unwrap(),
            "q waits in another game"
        );
        store.outbox_remove(&EventId([1; 32]), &p).unwrap();
        assert!(store.outbox_waits(&game, &p).unwrap());
        store.outbox_remove(&EventId([2; 32]), &p).unwrap();
        assert!(!store.outbox_waits(&game, &p).unwrap());
        assert_eq!(store.outbox_len(), 1);
    }

    #[test]
    fn removal_by_event_and_peer_leaves_the_others_and_no_index_key() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let (p, q) = peers();
        store.outbox_add(&entry(1, 10, &p, 7)).unwrap();
        store.outbox_add(&entry(1, 10, &q, 7)).unwrap();
        store.outbox_remove(&EventId([1; 32]), &p).unwrap();
        assert_eq!(
            store.outbox_of_game(&EventId([10; 32])).unwrap(),
            vec![entry(1, 10, &q, 7)]
        );
        assert!(store.outbox_for_peer(&p).unwrap().is_empty());
        assert_eq!(store.outbox_due(7).unwrap(), vec![entry(1, 10, &q, 7)]);
        // Each index holds q's one key, nothing of p.
        for tree in [
            &store.outbox_by_peer,
            &store.outbox_by_game,
            &store.outbox_due,
        ] {
            assert_eq!(tree.len(), 1);
        }
        // Removing what is not there is no error.
        store.outbox_remove(&EventId([1; 32]), &p).unwrap();
    }

    #[test]
    fn due_entries_follow_their_rewritten_next_attempt() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let (p, _) = peers();
        store.outbox_add(&entry(1, 10, &p, 0)).unwrap();
        store.outbox_add(&entry(2, 10, &p, 500)).unwrap();
        assert_eq!(store.outbox_due(100).unwrap(), vec![entry(1, 10, &p, 0)]);
        // A backoff moves the first past the second.
        let mut later = entry(1, 10, &p, 900);
        later.attempts = 1;
        store.outbox_add(&later).unwrap();
        assert!(store.outbox_due(100).unwrap().is_empty());
        assert_eq!(store.outbox_due(500).unwrap(), vec![entry(2, 10, &p, 500)]);
        assert_eq!(
            store.outbox_due(u64::MAX).unwrap(),
            vec![entry(2, 10, &p, 500), later]
        );
        assert_eq!(store.outbox_due.len(), 2, "the old time's key is gone");
    }

    /// The states a crash between the four writes can leave (see the module): an add that
    /// wrote its keys but not its entry, a removal that removed the entry but not its keys, a
    /// backoff that wrote its new time but not the entry. No reader returns a ghost or a
    /// stale time, and the live entry is still found by every reader.
    #[test]
    fn keys_a_crash_leaves_without_their_entry_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let (p, _) = peers();
        let live = entry(1, 10, &p, 50);
        store.outbox_add(&live).unwrap();
        for ghost in [entry(2, 10, &p, 0), entry(3, 10, &p, 0)] {
            store
                .outbox_by_peer
                .insert(by_peer_key(&p, &ghost.game, &ghost.event).unwrap(), &[])
                .unwrap();
            store
                .outbox_by_game
                .insert(by_game_key(&ghost.game, &ghost.event, &p), &[])
                .unwrap();
            store
                .outbox_due
                .insert(due_key(ghost.next_at_ms, &ghost.event, &p), &[])
                .unwrap();
        }
        // The live entry's next attempt at 900 was keyed, the entry still says 50.
        store
            .outbox_due
            .insert(due_key(900, &live.event, &p), &[])
            .unwrap();
        let game = EventId([10; 32]);
        assert_eq!(store.outbox_for_peer(&p).unwrap(), vec![live.clone()]);
        assert_eq!(store.outbox_for(&game, &p).unwrap(), vec![live.clone()]);
        assert_eq!(store.outbox_of_game(&game).unwrap(), vec![live.clone()]);
        assert_eq!(store.outbox_due(u64::MAX).unwrap(), vec![live.clone()]);
        assert!(store.outbox_waits(&game, &p).unwrap());
        store.outbox_remove(&live.event, &p).unwrap();
        assert!(!store.outbox_waits(&game, &p).unwrap());
        assert!(store.outbox_due(u64::MAX).unwrap().is_empty());
    }

    #[tokio::test]
    async fn an_outbox_written_without_indices_is_indexed_at_open() {
        let dir = tempfile::tempdir().unwrap();
        let (p, q) = peers();
        let old = [entry(1, 10, &p, 0), entry(2, 11, &q, 9)];
        {
            // What versions before the indices wrote: the `outbox` tree alone.
            let db = sled::open(dir.path()).unwrap();
            let tree = db.open_tree("outbox").unwrap();
            for e in &old {
                let mut k = e.event.0.to_vec();
                k.extend_from_slice(e.peer.as_bytes());
                tree.insert(k, serde_json::to_vec(e).unwrap()).unwrap();
            }
            db.flush().unwrap();
        }
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.outbox_len(), 2);
        assert_eq!(store.outbox_for_peer(&p).unwrap(), vec![old[0].clone()]);
        assert_eq!(
            store.outbox_of_game(&EventId([11; 32])).unwrap(),
            vec![old[1].clone()]
        );
        assert!(store.outbox_waits(&EventId([10; 32]), &p).unwrap());
        assert_eq!(store.outbox_due(9).unwrap(), old.to_vec());
        store.outbox_remove(&EventId([1; 32]), &p).unwrap();
        assert!(!store.outbox_waits(&EventId([10; 32]), &p).unwrap());
        store.flush().await.unwrap();
        drop(store);
        // Indexed once: a second open keeps what changed since.
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.outbox_due(u64::MAX).unwrap(), vec![old[1].clone()]);
    }
}
