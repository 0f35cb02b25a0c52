//! The `equivocations` tree: both events of a player's equivocation (two different events
//! signed at one place of one scoresheet), kept as proof. [`crate::dispute`] finds them and
//! checks them; the store only keeps the bytes.
//!
//! | key | value |
//! | --- | --- |
//! | game ‖ author ‖ seq (big-endian) ‖ smaller id ‖ larger id | the two events' wire bytes, each length-prefixed (u32 big-endian) |
//!
//! Both ids are in the key, in byte order, so the same pair found twice (in either order, by
//! either participant's node) is one record.

use super::{Store, StoreError};
use sobre_core::record::{GameId, PlayerId, SignedEvent};

const TREE: &str = "equivocations";

/// Two events one author signed at one sequence number of one game, as stored. The store
/// checks no signature: [`crate::dispute::Proof::holds`] does, on every read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equivocation {
    pub game: GameId,
    pub author: PlayerId,
    pub seq: u64,
    /// The event the node holds in its log.
    pub first: SignedEvent,
    /// Its twin, kept only here.
    pub second: SignedEvent,
}

/// One stored record of the `equivocations` tree, as sled holds it, for `node repair` to
/// carry over to the fresh database unchanged (it copies the proofs, it does not judge them:
/// a damaged one is skipped when read, as it was before the repair).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EquivocationRecord {
    key: sled::IVec,
    value: sled::IVec,
}

fn key(e: &Equivocation) -> Vec<u8> {
    let (a, b) = (e.first.id(), e.second.id());
    let (x, y) = if a.0 <= b.0 { (a, b) } else { (b, a) };
    let mut k = Vec::with_capacity(136);
    k.extend_from_slice(&e.game.0);
    k.extend_from_slice(e.author.as_bytes());
    k.extend_from_slice(&e.seq.to_be_bytes());
    k.extend_from_slice(&x.0);
    k.extend_from_slice(&y.0);
    k
}

fn corrupt(reason: impl Into<String>) -> StoreError {
    StoreError::Corrupt {
        tree: TREE,
        reason: reason.into(),
    }
}

/// Reads a record of `game` back; `None` if its bytes are not what [`Store::equivocation_put`]
/// writes (damage), including a key naming another author than the events'.
fn decode(game: &GameId, key: &[u8], value: &[u8]) -> Option<Equivocation> {
    let author_bytes: [u8; 32] = key.get(32..64)?.try_into().ok()?;
    let seq = u64::from_be_bytes(key.get(64..72)?.try_into().ok()?);
    let mut parts = Vec::with_capacity(2);
    let mut rest = value;
    for _ in 0..2 {
        let len = u32::from_be_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let body = rest.get(4..4 + len)?;
        parts.push(SignedEvent::from_bytes(body).ok()?);
        rest = rest.get(4 + len..)?;
    }
    let second = parts.pop()?;
    let first = parts.pop()?;
    let author = first.decode_unverified().ok()?.author;
    if author.as_bytes() != &author_bytes {
        return None;
    }
    Some(Equivocation {
        game: *game,
        author,
        seq,
        first,
        second,
    })
}

impl Store {
    /// Keeps the proof that `e.author` equivocated in `e.game`: the twin is never stored in
    /// `events`, so this record is the node's only evidence of the cheat, shown by `show`
    /// and sent to the other participants. Idempotent (the same pair again overwrites its
    /// record); true if the pair was new. The caller flushes.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] if an event does not encode (never for a decoded event), or on
    /// I/O errors.
    pub fn equivocation_put(&self, e: &Equivocation) -> Result<bool, StoreError> {
        let a = e.first.to_bytes().map_err(|x| corrupt(x.to_string()))?;
        let b = e.second.to_bytes().map_err(|x| corrupt(x.to_string()))?;
        let mut v = Vec::with_capacity(a.len() + b.len() + 8);
        for part in [&a, &b] {
            let len = u32::try_from(part.len())
                .map_err(|_| corrupt(format!("an event of {} bytes", part.len())))?;
            v.extend_from_slice(&len.to_be_bytes());
            v.extend_from_slice(part);
        }
        Ok(self.equivocations.insert(key(e), v)?.is_none())
    }

    /// Whether any equivocation proof is held (a node meeting a peer resends the proofs of
    /// the games it grants it: one read per game, needless when none is held).
    pub fn holds_equivocations(&self) -> bool {
        !self.equivocations.is_empty()
    }

    /// The proofs kept for `game`, in key order, decoded but not verified (the caller checks
    /// each: a stored proof is evidence only while its signatures hold). Each record comes
    /// with its own result, so a damaged one ([`StoreError::Corrupt`]) hides no other.
    pub fn equivocations_of(&self, game: &GameId) -> Vec<Result<Equivocation, StoreError>> {
        self.equivocations
            .scan_prefix(game.0)
            .map(|item| {
                let (k, v) = item?;
                decode(game, &k, &v)
                    .ok_or_else(|| corrupt(format!("a damaged proof of game {game}")))
            })
            .collect()
    }

    /// Every record of the tree as stored, for `node repair` (records sled cannot read are
    /// left behind: the repair keeps what can be read).
    pub fn equivocations_all(&self) -> Vec<EquivocationRecord> {
        self.equivocations
            .iter()
            .filter_map(Result::ok)
            .map(|(key, value)| EquivocationRecord { key, value })
            .collect()
    }

    /// Writes records taken by [`Store::equivocations_all`] from another database, byte for
    /// byte. The caller flushes.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn equivocations_restore(&self, records: &[EquivocationRecord]) -> Result<(), StoreError> {
        for r in records {
            self.equivocations.insert(&r.key, &r.value)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::{chats, keys};

    fn twins(dir: &std::path::Path) -> (Store, Equivocation) {
        let (w, b) = keys();
        let (game, [_, one, two]) = chats(&w, &b);
        let store = Store::open(dir).unwrap();
        let e = Equivocation {
            game,
            author: w.player_id(),
            seq: 1,
            first: one,
            second: two,
        };
        (store, e)
    }

    #[tokio::test]
    async fn an_equivocation_round_trips_once_in_either_order_and_survives_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let (store, e) = twins(dir.path());
        assert!(store.equivocation_put(&e).unwrap());
        assert!(!store.equivocation_put(&e).unwrap());
        let swapped = Equivocation {
            first: e.second.clone(),
            second: e.first.clone(),
            ..e.clone()
        };
        // The same pair seen the other way round is the same record (the key sorts the ids).
        assert!(!store.equivocation_put(&swapped).unwrap());
        assert_eq!(store.equivocations_of(&e.game).len(), 1);
        // It overwrites the record, as every put does: put back the order read below.
        assert!(!store.equivocation_put(&e).unwrap());
        store.flush().await.unwrap();
        drop(store);
        let store = Store::open(dir.path()).unwrap();
        let got: Vec<Equivocation> = store
            .equivocations_of(&e.game)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(got, vec![e.clone()]);
        let mut other = e.game;
        other.0[0] ^= 1;
        assert!(store.equivocations_of(&other).is_empty());
    }

    #[test]
    fn a_damaged_proof_is_reported_in_its_place_and_hides_no_other() {
        let dir = tempfile::tempdir().unwrap();
        let (store, e) = twins(dir.path());
        store.equivocation_put(&e).unwrap();
        // A record under the game whose value is cut short: damage sled's checksums miss.
        let mut k = key(&e);
        k[100] ^= 1;
        store
            .equivocations
            .insert(k, &b"\0\0\0\x09short"[..])
            .unwrap();
        let got = store.equivocations_of(&e.game);
        assert_eq!(got.len(), 2);
        assert_eq!(
            got.iter().filter(|r| matches!(r, Ok(x) if *x == e)).count(),
            1
        );
        assert!(
            got.iter()
                .any(|r| matches!(r, Err(StoreError::Corrupt { tree: TREE, .. })))
        );
    }

    #[test]
    fn repair_carries_every_record_over_byte_for_byte() {
        let (old_dir, new_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (old, e) = twins(old_dir.path());
        old.equivocation_put(&e).unwrap();
        let records = old.equivocations_all();
        assert_eq!(records.len(), 1);
        let fresh = Store::open(new_dir.path()).unwrap();
        fresh.equivocations_restore(&records).unwrap();
        assert_eq!(fresh.equivocations_all(), records);
        assert_eq!(fresh.equivocations_of(&e.game).len(), 1);
    }
}
