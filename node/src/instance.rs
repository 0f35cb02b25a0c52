//! One node per key: the signed *node instance* record, and how a second node started with
//! the same key is refused before it signs anything.
//!
//! Two nodes holding one player's key (a key imported on a new computer while the old node
//! still runs) would each continue the player's scoresheets and sign two different events
//! with the same sequence number: twins, which mark the games disputed. So every node, when
//! it starts, draws a random instance id and signs a record — the player, the instance id,
//! when it started, when the record was signed, its addresses — with the player's key under
//! the domain `"sobre/instance/v1\0"` (no other signature of the player can pass for one).
//! It sends the record to the peers it talks to (its bootstrap peers and mailboxes before it
//! does anything else, then every peer it connects to) and again every [`HEARTBEAT_MS`] to
//! its bootstrap peers, mailboxes and the opponents of its unfinished games (the peers a
//! second instance would meet too); on a clean stop it sends the record marked ended.
//!
//! A peer keeps, per player, the records of the instances it heard from recently
//! ([`Book`]), and answers each record with the player's *other* live instances. A node
//! told of another live instance of its key that started earlier ([`judge`]) refuses:
//! at start it stops before signing anything; running, it stops at once. The earlier
//! instance goes on (it learns of the later one and logs it).
//!
//! What a stranger can do with this, bounded:
//! - forge a record: it must verify under the player's own key, and a peer keeps a record
//!   only from a connection authenticated as that player (the libp2p peer id is the key);
//! - replay an old record of this home's own earlier run to stop it: the home keeps the ids
//!   of its own instances ([`Own::start`]), and they never count;
//! - replay a record of another home that really ran the key: only within [`LIVE_MS`] of its
//!   signing (after that it proves nothing), and only one that started earlier. Moving to a
//!   new computer, the new node may be refused for that long after the old one stopped if a
//!   peer withholds the old one's "ended" record; it starts once the record has expired;
//! - fill a peer's memory: at most [`MAX_PER_PLAYER`] instances per player and
//!   [`MAX_PLAYERS`] players, the oldest dropped first.

use serde::{Deserialize, Serialize};
use sobre_core::record::codec;
use sobre_core::record::{Keypair, PlayerId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const DOMAIN: &[u8] = b"sobre/instance/v1\0";
const VERSION: u8 = 1;
/// How often a running node signs and sends its record again.
pub const HEARTBEAT_MS: u64 = 30_000;
/// How long a record shows its instance is live: three heartbeats.
pub const LIVE_MS: u64 = 3 * HEARTBEAT_MS;
/// How far ahead of the receiver's clock a record may be signed (clocks differ).
pub const MAX_AHEAD_MS: u64 = 60_000;
/// The most addresses a record carries, and the longest one.
const MAX_ADDRS: usize = 8;
const MAX_ADDR_BYTES: usize = 256;
/// The largest record accepted on the wire.
pub const MAX_RECORD_BYTES: u64 = 4096;
/// What a peer keeps: instances per player, players.
pub const MAX_PER_PLAYER: usize = 4;
pub const MAX_PLAYERS: usize = 4096;
/// The ids of its own instances a home remembers.
const OWN_IDS_KEPT: usize = 64;
const OWN_IDS_FILE: &str = "instances";

/// One running node of a player, as it signs itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instance {
    pub version: u8,
    pub player: PlayerId,
    /// Random, drawn at each start.
    pub id: [u8; 16],
    pub started_ms: u64,
    pub signed_ms: u64,
    /// The node stopped (sent once, on a clean stop).
    pub ended: bool,
    /// Where the node listens, for the message of the node refused.
    pub addrs: Vec<String>,
}

/// The record on the wire: the encoded [`Instance`] as signed, and the signature.
#[derive(Serialize, Deserialize)]
struct Wire {
    #[serde(with = "serde_bytes")]
    body: Vec<u8>,
    sig: ([u8; 32], [u8; 32]),
}

/// Why a record is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InstanceError {
    #[error("malformed instance record: {0}")]
    Malformed(String),
    #[error("instance record of version {0}")]
    Version(u8),
    #[error("the instance record's signature is not its player's")]
    BadSignature,
    #[error("instance record with {0} addresses or an address too long")]
    Addresses(usize),
}

impl Instance {
    /// Signs the record with `key` (whose player it names).
    ///
    /// # Errors
    /// Never for a record this node builds (the codec cannot fail on these types).
    pub fn sign(&self, key: &Keypair) -> Result<Vec<u8>, InstanceError> {
        let body = codec::encode(self).map_err(|e| InstanceError::Malformed(e.to_string()))?;
        let mut message = DOMAIN.to_vec();
        message.extend_from_slice(&body);
        let sig = key.sign(&message);
        let mut a = [0u8; 32];
        let mut b = [0u8; 32];
        a.copy_from_slice(&sig[..32]);
        b.copy_from_slice(&sig[32..]);
        codec::encode(&Wire { body, sig: (a, b) })
            .map_err(|e| InstanceError::Malformed(e.to_string()))
    }

    /// Reads a record from the wire and checks its signature against the player it names.
    ///
    /// # Errors
    /// [`InstanceError`] for anything but a well-formed record signed by its player.
    pub fn verify(bytes: &[u8]) -> Result<Instance, InstanceError> {
        let wire: Wire = codec::decode(bytes, MAX_RECORD_BYTES)
            .map_err(|e| InstanceError::Malformed(e.to_string()))?;
        let record: Instance = codec::decode(&wire.body, MAX_RECORD_BYTES)
            .map_err(|e| InstanceError::Malformed(e.to_string()))?;
        if record.version != VERSION {
            return Err(InstanceError::Version(record.version));
        }
        let mut sig = [0u8; 64];
        sig[..32].copy_from_slice(&wire.sig.0);
        sig[32..].copy_from_slice(&wire.sig.1);
        let mut message = DOMAIN.to_vec();
        message.extend_from_slice(&wire.body);
        if !record.player.verify(&message, &sig) {
            return Err(InstanceError::BadSignature);
        }
        if record.addrs.len() > MAX_ADDRS || record.addrs.iter().any(|a| a.len() > MAX_ADDR_BYTES) {
            return Err(InstanceError::Addresses(record.addrs.len()));
        }
        Ok(record)
    }

    /// Whether the record still shows a live instance at `now_ms`.
    fn live(&self, now_ms: u64) -> bool {
        !self.ended
            && self.signed_ms.saturating_add(LIVE_MS) >= now_ms
            && self.signed_ms <= now_ms.saturating_add(MAX_AHEAD_MS)
    }

    fn id_hex(&self) -> String {
        self.id.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// This node's own instance: its record and the ids of the home's earlier instances.
#[derive(Clone, Debug)]
pub struct Own {
    pub record: Instance,
    /// Every instance id this home has used (this run's too): never another instance.
    pub ids: Vec<[u8; 16]>,
}

impl Own {
    /// Draws this run's instance id and adds it to the home's list (written durably before
    /// the record is sent anywhere: a record of this run is never taken for another home's).
    ///
    /// # Errors
    /// The I/O error writing the list.
    pub fn start(
        home_dir: &Path,
        player: PlayerId,
        started_ms: u64,
        addrs: Vec<String>,
    ) -> std::io::Result<Own> {
        let id: [u8; 16] = rand::random();
        let mut ids = read_own_ids(&ids_path(home_dir));
        ids.push(id);
        let drop = ids.len().saturating_sub(OWN_IDS_KEPT);
        ids.drain(..drop);
        let text: String = ids
            .iter()
            .map(|i| i.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n")
            .collect();
        crate::secrets::write_secret(&ids_path(home_dir), text.as_bytes())?;
        let mut addrs = addrs;
        addrs.truncate(MAX_ADDRS);
        addrs.retain(|a| a.len() <= MAX_ADDR_BYTES);
        Ok(Own {
            record: Instance {
                version: VERSION,
                player,
                id,
                started_ms,
                signed_ms: started_ms,
                ended: false,
                addrs,
            },
            ids,
        })
    }

    /// The record signed now (`ended` on a clean stop).
    ///
    /// # Errors
    /// As [`Instance::sign`].
    pub fn signed(
        &self,
        key: &Keypair,
        now_ms: u64,
        ended: bool,
    ) -> Result<Vec<u8>, InstanceError> {
        let mut r = self.record.clone();
        r.signed_ms = now_ms;
        r.ended = ended;
        r.sign(key)
    }
}

fn ids_path(home_dir: &Path) -> PathBuf {
    home_dir.join(OWN_IDS_FILE)
}

fn read_own_ids(path: &Path) -> Vec<[u8; 16]> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            if l.len() != 32 {
                return None;
            }
            let mut id = [0u8; 16];
            for (i, b) in id.iter_mut().enumerate() {
                *b = u8::from_str_radix(l.get(2 * i..2 * i + 2)?, 16).ok()?;
            }
            Some(id)
        })
        .collect()
}

/// Another live instance of this node's key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "another node is running with this player's key (instance {instance}, started at {started}, \
     at {addrs}); this node stopped so that the two never sign twin events (which would mark \
     your games disputed). Stop the other node (`sobre node stop` there) and start this one \
     again, or run only one of them"
)]
pub struct OtherInstance {
    pub instance: String,
    /// When it started (RFC 3339, UTC).
    pub started: String,
    pub addrs: String,
}

/// What a record of this node's own player, received from a peer, means for this node.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not another live instance (this home's own, ended, stale, or another player's).
    Nothing,
    /// Another live instance started earlier: this node must stop.
    Yield(OtherInstance),
    /// Another live instance started later: it yields; this node goes on.
    Keep(OtherInstance),
}

/// Judges a verified record against this node's own instance at `now_ms`.
pub fn judge(own: &Own, other: &Instance, now_ms: u64) -> Verdict {
    if other.player != own.record.player || own.ids.contains(&other.id) || !other.live(now_ms) {
        return Verdict::Nothing;
    }
    let described = OtherInstance {
        instance: other.id_hex(),
        started: sobre_core::record::export::iso_utc(other.started_ms),
        addrs: if other.addrs.is_empty() {
            "an address it did not give".to_owned()
        } else {
            other.addrs.join(", ")
        },
    };
    // The earlier start goes on; equal starts are settled by the smaller id.
    if (other.started_ms, other.id) < (own.record.started_ms, own.record.id) {
        Verdict::Yield(described)
    } else {
        Verdict::Keep(described)
    }
}

/// What a peer remembers of the instances it heard from: per player, the latest record of
/// each live instance, as received.
#[derive(Default)]
pub struct Book {
    players: HashMap<PlayerId, Vec<(Instance, Vec<u8>)>>,
}

impl Book {
    /// Keeps a verified record (`bytes` as received) and returns the records of the
    /// player's other live instances, for the answer.
    pub fn note(&mut self, record: Instance, bytes: Vec<u8>, now_ms: u64) -> Vec<Vec<u8>> {
        let player = record.player;
        if !self.players.contains_key(&player) && self.players.len() >= MAX_PLAYERS {
            self.evict(now_ms);
        }
        let list = self.players.entry(player).or_default();
        list.retain(|(r, _)| r.live(now_ms));
        let others: Vec<Vec<u8>> = list
            .iter()
            .filter(|(r, _)| r.id != record.id)
            .map(|(_, b)| b.clone())
            .collect();
        match list.iter_mut().find(|(r, _)| r.id == record.id) {
            // The newest signing of an instance counts (a replay of an older one does not
            // bring back an ended instance).
            Some(slot) if slot.0.signed_ms >= record.signed_ms => {}
            Some(slot) => *slot = (record, bytes),
            None => {
                if list.len() >= MAX_PER_PLAYER {
                    list.sort_by_key(|(r, _)| std::cmp::Reverse(r.signed_ms));
                    list.truncate(MAX_PER_PLAYER - 1);
                }
                list.push((record, bytes));
            }
        }
        list.retain(|(r, _)| !r.ended);
        if list.is_empty() {
            self.players.remove(&player);
        }
        others
    }

    /// Drops the stale records, then, if still full, the player heard from longest ago.
    fn evict(&mut self, now_ms: u64) {
        self.players.retain(|_, list| {
            list.retain(|(r, _)| r.live(now_ms));
            !list.is_empty()
        });
        if self.players.len() >= MAX_PLAYERS
            && let Some(oldest) = self
                .players
                .iter()
                .min_by_key(|(_, l)| l.iter().map(|(r, _)| r.signed_ms).max())
                .map(|(p, _)| *p)
        {
            self.players.remove(&oldest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: u64 = 1_800_000_000_000;

    fn own(home: &Path, key: &Keypair, started: u64) -> Own {
        Own::start(
            home,
            key.player_id(),
            started,
            vec!["/ip4/127.0.0.1/tcp/4848".into()],
        )
        .unwrap()
    }

    #[test]
    fn a_record_verifies_only_under_its_players_key_and_domain() {
        let dir = tempfile::tempdir().unwrap();
        let key = Keypair::from_secret_bytes(&[3; 32]);
        let o = own(dir.path(), &key, T0);
        let bytes = o.signed(&key, T0 + 5, false).unwrap();
        let back = Instance::verify(&bytes).unwrap();
        assert_eq!(back.id, o.record.id);
        assert_eq!(back.signed_ms, T0 + 5);
        // Another key signing a record that names this player: refused.
        let mallory = Keypair::from_secret_bytes(&[4; 32]);
        let forged = o.record.sign(&mallory).unwrap();
        assert_eq!(
            Instance::verify(&forged).unwrap_err(),
            InstanceError::BadSignature
        );
        // The same body signed without the domain (as another kind of document): refused.
        let body = codec::encode(&o.record).unwrap();
        let sig = key.sign(&body);
        let mut a = [0u8; 32];
        let mut b = [0u8; 32];
        a.copy_from_slice(&sig[..32]);
        b.copy_from_slice(&sig[32..]);
        let undomained = codec::encode(&Wire { body, sig: (a, b) }).unwrap();
        assert_eq!(
            Instance::verify(&undomained).unwrap_err(),
            InstanceError::BadSignature
        );
        assert!(matches!(
            Instance::verify(b"garbage").unwrap_err(),
            InstanceError::Malformed(_)
        ));
    }

    #[test]
    fn the_later_of_two_live_instances_yields_and_the_earlier_goes_on() {
        let (d1, d2) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let key = Keypair::from_secret_bytes(&[5; 32]);
        let first = own(d1.path(), &key, T0);
        let second = own(d2.path(), &key, T0 + 1_000);
        let now = T0 + 2_000;
        let rec1 = Instance::verify(&first.signed(&key, now, false).unwrap()).unwrap();
        let rec2 = Instance::verify(&second.signed(&key, now, false).unwrap()).unwrap();
        assert!(
            matches!(judge(&second, &rec1, now), Verdict::Yield(o) if o.addrs.contains("4848"))
        );
        assert!(matches!(judge(&first, &rec2, now), Verdict::Keep(_)));
        // Stale or ended: proves nothing.
        assert_eq!(judge(&second, &rec1, now + LIVE_MS + 1), Verdict::Nothing);
        let ended = Instance::verify(&first.signed(&key, now, true).unwrap()).unwrap();
        assert_eq!(judge(&second, &ended, now), Verdict::Nothing);
    }

    #[test]
    fn a_replayed_record_of_this_homes_earlier_run_never_stops_it() {
        let dir = tempfile::tempdir().unwrap();
        let key = Keypair::from_secret_bytes(&[6; 32]);
        let earlier = own(dir.path(), &key, T0);
        let replay = Instance::verify(&earlier.signed(&key, T0 + 10_000, false).unwrap()).unwrap();
        // Restarted 20 s later in the same home: the earlier run's record is still "live"
        // by its time, but it is this home's own.
        let now = own(dir.path(), &key, T0 + 20_000);
        assert_eq!(judge(&now, &replay, T0 + 21_000), Verdict::Nothing);
    }

    #[test]
    fn a_peer_answers_each_record_with_the_players_other_live_instances() {
        let (d1, d2) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let key = Keypair::from_secret_bytes(&[7; 32]);
        let (a, b) = (own(d1.path(), &key, T0), own(d2.path(), &key, T0 + 1));
        let mut book = Book::default();
        let rec = |o: &Own, t: u64, ended: bool| {
            let bytes = o.signed(&key, t, ended).unwrap();
            (Instance::verify(&bytes).unwrap(), bytes)
        };
        let (ra, ba) = rec(&a, T0 + 10, false);
        assert!(book.note(ra, ba.clone(), T0 + 10).is_empty());
        let (rb, bb) = rec(&b, T0 + 20, false);
        assert_eq!(book.note(rb, bb, T0 + 20), vec![ba]);
        // A ends: B's next heartbeat hears of nobody.
        let (ea, eba) = rec(&a, T0 + 30, true);
        book.note(ea, eba, T0 + 30);
        let (rb, bb) = rec(&b, T0 + 40, false);
        assert!(book.note(rb, bb, T0 + 40).is_empty());
    }
}
