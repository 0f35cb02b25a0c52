//! Verified summaries (the `summaries` tree): per game, the [`Summary`] its events gave when
//! they were last verified, with a digest of exactly the stored events it was built from. A
//! node start reads each game's raw events (no signature checked, nothing decoded) and
//! computes their digest: if a summary with that digest is stored, it is the summary
//! verification would build again, and the game is not verified (issue 30: 10,000 games took
//! 10.5 s to verify at every start). Any other case — no summary, another digest, a value of
//! another format or another build — verifies the game as before and stores its summary
//! again: a summary is never a reason to refuse to start, nor to serve what is not on disk.
//!
//! The digest ([`EventsDigest`]) is SHA-256 over, for each stored event in key order (the
//! order of `events`): its key, the length of its value (u64 big-endian) and the value —
//! the event's wire bytes, signature included — and then the count of events (u64
//! big-endian). A bit flipped anywhere in a stored event, an event lost or one added changes
//! it, so damage is still caught by verification at start.
//!
//! The value: [`FORMAT`] (u32 big-endian) ‖ the codec's bytes ([`sobre_core::record::codec`])
//! of the build that wrote it (the node's version), the digest and the summary. The codec is
//! positional and strict (no trailing bytes, canonical): a field added to or removed from
//! [`Summary`] or the core types in it makes an older value fail to decode, where JSON would
//! fill a new optional field with `None` and serve it. The format number and the build's
//! version catch what the codec cannot (a field that changed meaning but not size, or a rules
//! fix that changes what the same events verify to).
//!
//! Summaries are written after the flush of the events they cover (`service::commit`),
//! never flushed alone: after a crash a summary may be missing or stale, which costs a
//! verification at the next start (its digest no longer matches), never a wrong answer.

use super::{Store, StoreError, event_key};
use crate::view::Summary;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sobre_core::record::{GameId, VerifiedEvent, codec};

/// The layout of a stored value; a value of another one is ignored (and rebuilt). Raise it
/// when [`Summary`] or what `verify` makes of the same events changes within one version of
/// the node: the digest only says the events are the same, not the code that read them.
pub const FORMAT: u32 = 1;

/// The build that writes and reads summaries: a summary written by another version of the
/// node is rebuilt, since its rules or its [`Summary`] may differ for the same events.
const BUILD: &str = env!("CARGO_PKG_VERSION");

/// A summary is a few hundred bytes; anything far larger is not one.
const MAX_VALUE: u64 = 64 * 1024;

/// The digest of a game's stored events (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventsDigest(pub [u8; 32]);

/// Builds an [`EventsDigest`] from events given in key order.
struct Hasher {
    sha: Sha256,
    count: u64,
}

impl Hasher {
    fn new() -> Hasher {
        Hasher {
            sha: Sha256::new(),
            count: 0,
        }
    }

    /// One stored event: its key and its value, the value in pieces.
    fn event(&mut self, key: &[u8], value: &[&[u8]]) {
        let len: usize = value.iter().map(|p| p.len()).sum();
        self.sha.update(key);
        self.sha.update((len as u64).to_be_bytes());
        for part in value {
            self.sha.update(part);
        }
        self.count += 1;
    }

    fn finish(mut self) -> EventsDigest {
        self.sha.update(self.count.to_be_bytes());
        EventsDigest(self.sha.finalize().into())
    }
}

impl EventsDigest {
    /// The digest the store would compute for `events` if they were exactly the game's
    /// stored events: for a game in memory, whose events were each stored as they were
    /// verified. The stored value is the event's wire form ([`sobre_core::record::SignedEvent::to_bytes`]),
    /// hashed here in its parts without being built.
    pub fn of_verified(game: &GameId, events: &[VerifiedEvent]) -> EventsDigest {
        let mut keyed: Vec<(Vec<u8>, &VerifiedEvent)> = events
            .iter()
            .map(|v| (event_key(game, &v.event, &v.id), v))
            .collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        let mut h = Hasher::new();
        for (key, v) in &keyed {
            let body = &v.signed.body;
            h.event(
                key,
                &[
                    &(body.len() as u64).to_le_bytes(),
                    body,
                    &v.signed.signature,
                ],
            );
        }
        h.finish()
    }
}

/// What is stored per game, after [`FORMAT`].
#[derive(Serialize, Deserialize)]
struct Stored {
    build: String,
    digest: EventsDigest,
    summary: Summary,
}

/// [`Stored`] as written, borrowing (the same bytes: serde writes a reference as its value).
#[derive(Serialize)]
struct StoredRef<'a> {
    build: &'a str,
    digest: &'a EventsDigest,
    summary: &'a Summary,
}

/// Why a stored summary is not used (the game is verified instead).
#[derive(Debug, PartialEq, Eq)]
pub enum Unusable {
    /// None is stored.
    Absent,
    /// Another format, another build, or bytes that do not decode.
    Unreadable,
    /// It was built from other events than those stored now.
    Stale,
}

impl Store {
    /// The digest of the events stored for `game`, from their raw bytes.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn events_digest(&self, game: &GameId) -> Result<EventsDigest, StoreError> {
        let mut h = Hasher::new();
        for item in self.events.scan_prefix(game.0) {
            let (k, v) = item?;
            h.event(&k, &[&v]);
        }
        Ok(h.finish())
    }

    /// The summary stored for `game`, if it was built from the events whose digest is
    /// `digest` by this build of the node.
    ///
    /// # Errors
    /// [`Unusable`] says why there is none to use; a read error of the tree counts as
    /// [`Unusable::Unreadable`] (the game is then verified, as if there were no summary).
    pub fn summary(&self, game: &GameId, digest: &EventsDigest) -> Result<Summary, Unusable> {
        let bytes = match self.summaries.get(game.0) {
            Ok(Some(b)) => b,
            Ok(None) => return Err(Unusable::Absent),
            Err(_) => return Err(Unusable::Unreadable),
        };
        let (format, rest) = bytes.split_first_chunk::<4>().ok_or(Unusable::Unreadable)?;
        if u32::from_be_bytes(*format) != FORMAT {
            return Err(Unusable::Unreadable);
        }
        let stored: Stored = codec::decode(rest, MAX_VALUE).map_err(|_| Unusable::Unreadable)?;
        if stored.build != BUILD {
            return Err(Unusable::Unreadable);
        }
        if stored.digest != *digest {
            return Err(Unusable::Stale);
        }
        Ok(stored.summary)
    }

    /// Stores the summary of `game` built from the events whose digest is `digest`. Call
    /// only once those events are flushed; the caller need not flush (see the module docs).
    ///
    /// # Errors
    /// On I/O errors.
    pub fn set_summary(
        &self,
        game: &GameId,
        digest: &EventsDigest,
        summary: &Summary,
    ) -> Result<(), StoreError> {
        let stored = StoredRef {
            build: BUILD,
            digest,
            summary,
        };
        let body = codec::encode(&stored).map_err(|e| StoreError::Corrupt {
            tree: "summaries",
            reason: e.to_string(),
        })?;
        let mut value = Vec::with_capacity(4 + body.len());
        value.extend_from_slice(&FORMAT.to_be_bytes());
        value.extend_from_slice(&body);
        self.summaries.insert(game.0, value)?;
        Ok(())
    }

    /// Forgets the summary of `game` (the game is dropped).
    pub(super) fn remove_summary(&self, game: &GameId) -> Result<(), StoreError> {
        self.summaries.remove(game.0)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::keys;
    use sobre_core::record::{SignedEvent, verify, verify_all};
    use sobre_core::test_support::{GameBuilder, Lines, Receipts};

    /// A game of six plies, every move receipted, as stored and as verified in memory.
    fn game() -> (GameId, Vec<SignedEvent>, Vec<VerifiedEvent>) {
        let (w, b) = keys();
        let line = Lines::new(7)
            .endless()
            .line(&sobre_core::Position::new(), 6);
        let g = GameBuilder::new(w, b)
            .receipts(Receipts::All)
            .sign(&line)
            .unwrap();
        let verified = verify_all(&g.events)
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        (g.game, g.events, verified)
    }

    fn stored(events: &[SignedEvent]) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        // Not in the order of their keys: the digest follows the store's order.
        for e in events.iter().rev() {
            store.insert_event(&events[0].id(), e).unwrap();
        }
        (dir, store)
    }

    #[test]
    fn the_digest_of_events_in_memory_is_the_digest_of_the_same_events_stored() {
        let (game, events, verified) = game();
        let (_dir, store) = stored(&events);
        let mut shuffled = verified.clone();
        shuffled.reverse();
        assert_eq!(
            EventsDigest::of_verified(&game, &shuffled),
            store.events_digest(&game).unwrap()
        );
        // One event fewer is another digest.
        assert_ne!(
            EventsDigest::of_verified(&game, &verified[1..]),
            store.events_digest(&game).unwrap()
        );
    }

    #[test]
    fn a_bit_flipped_in_a_stored_signature_changes_the_digest() {
        let (game, events, _) = game();
        let (_dir, store) = stored(&events);
        let before = store.events_digest(&game).unwrap();
        let (k, v) = store.events.scan_prefix(game.0).nth(3).unwrap().unwrap();
        let mut v = v.to_vec();
        let last = v.len() - 1;
        v[last] ^= 0x01;
        store.events.insert(k, v).unwrap();
        assert_ne!(store.events_digest(&game).unwrap(), before);
    }

    #[test]
    fn a_summary_is_used_only_for_the_events_it_was_built_from_and_in_its_format() {
        let (game, events, _) = game();
        let (_dir, store) = stored(&events);
        let summary = Summary::of(&verify(&events).unwrap());
        let digest = store.events_digest(&game).unwrap();
        assert_eq!(store.summary(&game, &digest), Err(Unusable::Absent));
        store.set_summary(&game, &digest, &summary).unwrap();
        assert_eq!(store.summary(&game, &digest), Ok(summary.clone()));
        let other = EventsDigest([7; 32]);
        assert_eq!(store.summary(&game, &other), Err(Unusable::Stale));
        // Another format, or bytes that no longer decode: as if there were none to read.
        let mut value = store.summaries.get(game.0).unwrap().unwrap().to_vec();
        value[..4].copy_from_slice(&(FORMAT + 1).to_be_bytes());
        store.summaries.insert(game.0, value.clone()).unwrap();
        assert_eq!(store.summary(&game, &digest), Err(Unusable::Unreadable));
        value[..4].copy_from_slice(&FORMAT.to_be_bytes());
        value.push(0);
        store.summaries.insert(game.0, value).unwrap();
        assert_eq!(store.summary(&game, &digest), Err(Unusable::Unreadable));
        // Dropping the game drops its summary.
        store.set_summary(&game, &digest, &summary).unwrap();
        store.forget_game(&game).unwrap();
        assert_eq!(store.summary(&game, &digest), Err(Unusable::Absent));
    }
}
