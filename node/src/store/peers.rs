//! Remembered peers: the addresses of the peers the player has a part with (opponents,
//! league members, witnesses, mailboxes, contacts and peers met through `peers connect` or an
//! invite), and when each was last seen, so that a restarted node redials them and a
//! delivery finds them without a DHT. Bounded per peer and in all.
//!
//! The value under a peer id is a JSON [`RememberedPeer`]; older homes hold a plain JSON
//! list of addresses, read as a peer never seen.

use super::{Store, StoreError};
use serde::{Deserialize, Serialize};

/// Addresses kept per peer: the newest first.
pub const MAX_ADDRS_PER_PEER: usize = 8;
/// Peers remembered in all; past it, the one seen longest ago is forgotten.
pub const MAX_REMEMBERED_PEERS: usize = 1024;

/// How stale a peer's last sighting may be before a sighting at the same addresses is
/// written: "last seen" is shown to the minute of days-long games, and the oldest sighting
/// only chooses whom to forget first.
pub const SEEN_REFRESH_MS: u64 = 10 * 60 * 1000;

/// What is remembered of one peer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RememberedPeer {
    /// Multiaddrs, each ending in `/p2p/<peer id>`, the newest first.
    pub addrs: Vec<String>,
    /// When the peer last told us its addresses (ms since the epoch; 0: never).
    #[serde(default)]
    pub seen_ms: u64,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Stored {
    Peer(RememberedPeer),
    // Written before `seen_ms` existed (`peers connect`).
    Addrs(Vec<String>),
}

fn decode(bytes: &[u8]) -> RememberedPeer {
    match serde_json::from_slice::<Stored>(bytes) {
        Ok(Stored::Peer(p)) => p,
        Ok(Stored::Addrs(addrs)) => RememberedPeer { addrs, seen_ms: 0 },
        Err(_) => RememberedPeer::default(),
    }
}

impl Store {
    /// Adds `addrs` (the newest first) to what is remembered of `peer`, ahead of the older
    /// addresses, keeping [`MAX_ADDRS_PER_PEER`]; `seen_ms` (when given) becomes its last
    /// sighting. Returns whether anything changed. Past [`MAX_REMEMBERED_PEERS`], the peer
    /// seen longest ago is forgotten.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn remember_peer_addrs(
        &self,
        peer: &str,
        addrs: &[String],
        seen_ms: Option<u64>,
    ) -> Result<bool, StoreError> {
        let old = self.remembered_peer(peer)?;
        let is_new = old.is_none();
        let old = old.unwrap_or_default();
        let mut merged: Vec<String> = Vec::new();
        for a in addrs.iter().chain(old.addrs.iter()) {
            if !merged.contains(a) && merged.len() < MAX_ADDRS_PER_PEER {
                merged.push(a.clone());
            }
        }
        let fresh = RememberedPeer {
            addrs: merged,
            seen_ms: seen_ms.unwrap_or(old.seen_ms).max(old.seen_ms),
        };
        // A peer seen again at the same addresses is written only when its last sighting is
        // [`SEEN_REFRESH_MS`] old: a player's reconnection otherwise wrote a record at every
        // node it connected to, and a mailbox's writes in a reconnect storm were mostly
        // these (each one a share of sled's segment rewrites).
        if !is_new
            && fresh.addrs == old.addrs
            && fresh.seen_ms.saturating_sub(old.seen_ms) < SEEN_REFRESH_MS
        {
            return Ok(false);
        }
        if is_new && self.peers.len() >= MAX_REMEMBERED_PEERS {
            let oldest = self
                .remembered_peers()?
                .into_iter()
                .min_by_key(|(_, p)| p.seen_ms)
                .map(|(id, _)| id);
            if let Some(id) = oldest {
                self.peers.remove(id.as_bytes())?;
            }
        }
        self.put_json(&self.peers, peer.as_bytes(), &fresh)?;
        Ok(true)
    }

    /// Remembers the addresses of a peer (`peers connect`, a repaired database).
    ///
    /// # Errors
    /// On I/O errors.
    pub fn remember_peer(&self, peer: &str, addrs: &[String]) -> Result<(), StoreError> {
        self.remember_peer_addrs(peer, addrs, None).map(|_| ())
    }

    /// What is remembered of `peer`.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn remembered_peer(&self, peer: &str) -> Result<Option<RememberedPeer>, StoreError> {
        Ok(self.peers.get(peer.as_bytes())?.map(|v| decode(&v)))
    }

    /// Every remembered peer.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn remembered_peers(&self) -> Result<Vec<(String, RememberedPeer)>, StoreError> {
        let mut out = Vec::new();
        for item in self.peers.iter() {
            let (k, v) = item?;
            out.push((String::from_utf8_lossy(&k).into_owned(), decode(&v)));
        }
        Ok(out)
    }

    /// Every remembered peer with its addresses.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn peers(&self) -> Result<Vec<(String, Vec<String>)>, StoreError> {
        Ok(self
            .remembered_peers()?
            .into_iter()
            .map(|(id, p)| (id, p.addrs))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_merged_newest_first_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db")).unwrap();
        // A home written before `seen_ms`: a plain list.
        store.peers.insert(b"p", b"[\"/old\"]".to_vec()).unwrap();
        assert_eq!(store.remembered_peer("p").unwrap().unwrap().addrs, ["/old"]);
        assert!(
            store
                .remember_peer_addrs("p", &["/a".into()], Some(5))
                .unwrap()
        );
        assert!(
            !store
                .remember_peer_addrs("p", &["/a".into()], Some(5))
                .unwrap()
        );
        let got = store.remembered_peer("p").unwrap().unwrap();
        assert_eq!(
            (got.addrs, got.seen_ms),
            (vec!["/a".into(), "/old".into()], 5)
        );
        // Seen again at the same addresses: written only once the sighting is stale.
        let addrs = ["/a".to_owned(), "/old".to_owned()];
        assert!(
            !store
                .remember_peer_addrs("p", &addrs, Some(5 + SEEN_REFRESH_MS - 1))
                .unwrap()
        );
        assert_eq!(store.remembered_peer("p").unwrap().unwrap().seen_ms, 5);
        assert!(
            store
                .remember_peer_addrs("p", &addrs, Some(5 + SEEN_REFRESH_MS))
                .unwrap()
        );
        assert_eq!(
            store.remembered_peer("p").unwrap().unwrap().seen_ms,
            5 + SEEN_REFRESH_MS
        );
        // Seen at a new address: written at once.
        assert!(
            store
                .remember_peer_addrs("p", &["/b".into()], Some(6 + SEEN_REFRESH_MS))
                .unwrap()
        );
        let many: Vec<String> = (0..20).map(|i| format!("/n{i}")).collect();
        store.remember_peer_addrs("p", &many, None).unwrap();
        let got = store.remembered_peer("p").unwrap().unwrap();
        assert_eq!(got.addrs.len(), MAX_ADDRS_PER_PEER);
        assert_eq!(got.addrs[0], "/n0");
        assert_eq!(got.seen_ms, 6 + SEEN_REFRESH_MS);
    }

    #[test]
    fn the_peer_seen_longest_ago_makes_room() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db")).unwrap();
        for i in 0..MAX_REMEMBERED_PEERS {
            let seen = if i == 7 { 1 } else { 100 + i as u64 };
            store
                .remember_peer_addrs(&format!("p{i}"), &["/x".into()], Some(seen))
                .unwrap();
        }
        store
            .remember_peer_addrs("new", &["/y".into()], Some(10_000))
            .unwrap();
        assert_eq!(store.peers.len(), MAX_REMEMBERED_PEERS);
        assert!(store.remembered_peer("p7").unwrap().is_none());
        assert!(store.remembered_peer("new").unwrap().is_some());
    }
}
