//! The signed *contact record* a player keeps in the DHT: where their node can be reached —
//! its direct addresses, the relays it holds a reservation on, its mailboxes — so that a
//! player known only by id is found by anyone, across clubs, even while their node is in
//! Kademlia client mode (behind NAT) and so in nobody's routing table.
//!
//! ```text
//! key    = "sobre/contact/1/" ‖ peer id bytes (the player id's multihash)
//! value  = Wire { body, sig }            bincode (`sobre_core::record::codec`)
//! body   = Body { version = 1, player, seq, addrs, relays, mailboxes }
//! sig    = ed25519 of "sobre/contact/v1\0" ‖ body, by the player's key
//! ```
//!
//! Addresses are multiaddr bytes, without `/p2p/<player>` for `addrs`, with `/p2p/<relay>`
//! and `/p2p/<mailbox>` for `relays` and `mailboxes`. `seq` is the signing time in ms (and
//! above the previous record's): a server keeps a record only if it is newer than the one it
//! holds, so an old record replayed cannot hide the current one.
//!
//! Validation ([`Contact::verify_for`]), by every server before it stores a record and by
//! every reader before it uses one: at most [`MAX_CONTACT_BYTES`]; decodes without trailing
//! bytes; version 1; signed by the player it names under the domain above (no other signature
//! of the player passes for one); the key is that player's; at most [`MAX_ADDRS`] addresses
//! per list, each a valid multiaddr of at most [`MAX_ADDR_BYTES`]; `seq` not more than
//! [`MAX_AHEAD_MS`] ahead of the reader's clock (else one far-future record would lock the
//! player out of their own entry).

use libp2p::identity::Keypair;
use libp2p::kad::RecordKey;
use libp2p::{Multiaddr, PeerId};
use serde::{Deserialize, Serialize};
use sobre_core::record::{PlayerId, codec};

const DOMAIN: &[u8] = b"sobre/contact/v1\0";
const KEY_PREFIX: &[u8] = b"sobre/contact/1/";
const VERSION: u8 = 1;
/// The largest contact record a server stores or a reader decodes.
pub const MAX_CONTACT_BYTES: usize = 2048;
/// Addresses per list (direct, relays, mailboxes).
pub const MAX_ADDRS: usize = 8;
/// The longest address.
pub const MAX_ADDR_BYTES: usize = 128;
/// How far ahead of the reader's clock a record may be dated.
pub const MAX_AHEAD_MS: u64 = 10 * 60_000;

/// A contact record that verified: a player's addresses, relays and mailboxes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contact {
    player: PeerId,
    seq: u64,
    addrs: Vec<Multiaddr>,
    relays: Vec<Multiaddr>,
    mailboxes: Vec<Multiaddr>,
}

#[derive(Serialize, Deserialize)]
struct Body {
    version: u8,
    player: PlayerId,
    seq: u64,
    addrs: Vec<serde_bytes::ByteBuf>,
    relays: Vec<serde_bytes::ByteBuf>,
    mailboxes: Vec<serde_bytes::ByteBuf>,
}

#[derive(Serialize, Deserialize)]
struct Wire {
    #[serde(with = "serde_bytes")]
    body: Vec<u8>,
    sig: ([u8; 32], [u8; 32]),
}

/// Why a contact record is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ContactError {
    #[error("contact record of {0} bytes (at most {MAX_CONTACT_BYTES})")]
    TooLarge(usize),
    #[error("malformed contact record: {0}")]
    Malformed(String),
    #[error("contact record of version {0}")]
    Version(u8),
    #[error("the contact record's signature is not its player's")]
    BadSignature,
    #[error("the contact record is stored under another player's key")]
    WrongKey,
    #[error("contact record with too many or too long addresses")]
    Addresses,
    #[error("contact record dated {0} ms ahead of our clock")]
    Ahead(u64),
    #[error("not an ed25519 key: a contact record is signed by a player")]
    NotAPlayer,
}

/// The DHT key of `player`'s contact record.
pub fn key(player: &PeerId) -> RecordKey {
    let mut key = KEY_PREFIX.to_vec();
    key.extend_from_slice(&player.to_bytes());
    RecordKey::new(&key)
}

fn player_of_key(key: &RecordKey) -> Option<PeerId> {
    let rest = key.as_ref().strip_prefix(KEY_PREFIX)?;
    PeerId::from_bytes(rest).ok()
}

impl Contact {
    /// A record of `player` to be signed; lists longer than [`MAX_ADDRS`] and addresses
    /// longer than [`MAX_ADDR_BYTES`] are cut (a node may listen on many interfaces).
    pub fn new(
        player: PeerId,
        seq: u64,
        addrs: Vec<Multiaddr>,
        relays: Vec<Multiaddr>,
        mailboxes: Vec<Multiaddr>,
    ) -> Contact {
        let fit = |list: Vec<Multiaddr>| -> Vec<Multiaddr> {
            list.into_iter()
                .filter(|a| a.len() <= MAX_ADDR_BYTES)
                .take(MAX_ADDRS)
                .collect()
        };
        Contact {
            player,
            seq,
            addrs: fit(addrs),
            relays: fit(relays),
            mailboxes: fit(mailboxes),
        }
    }

    pub fn player(&self) -> PeerId {
        self.player
    }
    pub fn seq(&self) -> u64 {
        self.seq
    }
    /// Direct addresses, without `/p2p/<player>`.
    pub fn addrs(&self) -> &[Multiaddr] {
        &self.addrs
    }
    /// Relays the player holds a reservation on, `…/p2p/<relay>`.
    pub fn relays(&self) -> &[Multiaddr] {
        &self.relays
    }
    /// The player's mailboxes, `…/p2p/<mailbox>`.
    pub fn mailboxes(&self) -> &[Multiaddr] {
        &self.mailboxes
    }

    /// Signs the record with `keypair`, which must be the player's.
    ///
    /// # Errors
    /// [`ContactError::NotAPlayer`] for a key that is not ed25519 or not the record's player;
    /// [`ContactError::TooLarge`] if the signed record exceeds [`MAX_CONTACT_BYTES`].
    pub fn sign(&self, keypair: &Keypair) -> Result<Vec<u8>, ContactError> {
        let public = keypair
            .public()
            .try_into_ed25519()
            .map_err(|_| ContactError::NotAPlayer)?;
        if keypair.public().to_peer_id() != self.player {
            return Err(ContactError::NotAPlayer);
        }
        let bytes = |list: &[Multiaddr]| list.iter().map(|a| a.to_vec().into()).collect();
        let body = Body {
            version: VERSION,
            player: PlayerId::from_bytes(public.to_bytes()),
            seq: self.seq,
            addrs: bytes(&self.addrs),
            relays: bytes(&self.relays),
            mailboxes: bytes(&self.mailboxes),
        };
        let body = codec::encode(&body).map_err(|e| ContactError::Malformed(e.to_string()))?;
        let mut message = DOMAIN.to_vec();
        message.extend_from_slice(&body);
        let sig = keypair
            .sign(&message)
            .map_err(|e| ContactError::Malformed(e.to_string()))?;
        let (a, b) = sig.split_at_checked(32).ok_or(ContactError::BadSignature)?;
        let sig = (
            a.try_into().map_err(|_| ContactError::BadSignature)?,
            b.try_into().map_err(|_| ContactError::BadSignature)?,
        );
        let wire = codec::encode(&Wire { body, sig })
            .map_err(|e| ContactError::Malformed(e.to_string()))?;
        if wire.len() > MAX_CONTACT_BYTES {
            return Err(ContactError::TooLarge(wire.len()));
        }
        Ok(wire)
    }

    /// Reads the record stored under `key` and checks it (see the module's list): the
    /// signature, that the key is the signer's, the bounds, and its date against `now_ms`.
    ///
    /// # Errors
    /// [`ContactError`] naming the first check that failed.
    pub fn verify_for(key: &RecordKey, bytes: &[u8], now_ms: u64) -> Result<Contact, ContactError> {
        if bytes.len() > MAX_CONTACT_BYTES {
            return Err(ContactError::TooLarge(bytes.len()));
        }
        let limit = MAX_CONTACT_BYTES as u64;
        let wire: Wire =
            codec::decode(bytes, limit).map_err(|e| ContactError::Malformed(e.to_string()))?;
        let body: Body =
            codec::decode(&wire.body, limit).map_err(|e| ContactError::Malformed(e.to_string()))?;
        if body.version != VERSION {
            return Err(ContactError::Version(body.version));
        }
        let mut sig = [0u8; 64];
        sig[..32].copy_from_slice(&wire.sig.0);
        sig[32..].copy_from_slice(&wire.sig.1);
        let mut message = DOMAIN.to_vec();
        message.extend_from_slice(&wire.body);
        if !body.player.verify(&message, &sig) {
            return Err(ContactError::BadSignature);
        }
        let player = body.player.peer_id().ok_or(ContactError::NotAPlayer)?;
        if player_of_key(key) != Some(player) {
            return Err(ContactError::WrongKey);
        }
        let ahead = body.seq.saturating_sub(now_ms);
        if ahead > MAX_AHEAD_MS {
            return Err(ContactError::Ahead(ahead));
        }
        let addrs = |list: Vec<serde_bytes::ByteBuf>| -> Result<Vec<Multiaddr>, ContactError> {
            if list.len() > MAX_ADDRS {
                return Err(ContactError::Addresses);
            }
            list.into_iter()
                .map(|b| {
                    if b.len() > MAX_ADDR_BYTES {
                        return Err(ContactError::Addresses);
                    }
                    Multiaddr::try_from(b.into_vec()).map_err(|_| ContactError::Addresses)
                })
                .collect()
        };
        Ok(Contact {
            player,
            seq: body.seq,
            addrs: addrs(body.addrs)?,
            relays: addrs(body.relays)?,
            mailboxes: addrs(body.mailboxes)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(keypair: &Keypair, seq: u64) -> Contact {
        let me = keypair.public().to_peer_id();
        let relay = Keypair::generate_ed25519().public().to_peer_id();
        Contact::new(
            me,
            seq,
            vec!["/ip4/198.51.100.7/tcp/4848".parse().unwrap()],
            vec![
                format!("/ip4/198.51.100.1/tcp/4848/p2p/{relay}")
                    .parse()
                    .unwrap(),
            ],
            Vec::new(),
        )
    }

    #[test]
    fn a_record_signed_by_its_player_verifies_under_its_key() {
        let k = Keypair::generate_ed25519();
        let c = sample(&k, 1_000);
        let bytes = c.sign(&k).unwrap();
        assert_eq!(Contact::verify_for(&key(&c.player()), &bytes, 1_000), Ok(c));
    }

    #[test]
    fn a_record_under_another_players_key_is_refused() {
        let k = Keypair::generate_ed25519();
        let other = Keypair::generate_ed25519().public().to_peer_id();
        let bytes = sample(&k, 1).sign(&k).unwrap();
        assert_eq!(
            Contact::verify_for(&key(&other), &bytes, 1),
            Err(ContactError::WrongKey)
        );
    }

    #[test]
    fn a_record_signed_by_another_key_cannot_be_made() {
        let k = Keypair::generate_ed25519();
        let c = sample(&Keypair::generate_ed25519(), 1);
        assert_eq!(c.sign(&k), Err(ContactError::NotAPlayer));
    }

    #[test]
    fn a_tampered_record_is_refused() {
        let k = Keypair::generate_ed25519();
        let c = sample(&k, 1);
        let mut bytes = c.sign(&k).unwrap();
        // The seq sits in the body; flipping any body byte breaks the signature.
        let i = bytes.len() / 2;
        bytes[i] ^= 1;
        assert!(Contact::verify_for(&key(&c.player()), &bytes, 1).is_err());
    }

    #[test]
    fn a_record_from_the_far_future_or_oversized_is_refused() {
        let k = Keypair::generate_ed25519();
        let c = sample(&k, 10 * MAX_AHEAD_MS);
        let bytes = c.sign(&k).unwrap();
        assert!(matches!(
            Contact::verify_for(&key(&c.player()), &bytes, 0),
            Err(ContactError::Ahead(_))
        ));
        let big = vec![0u8; MAX_CONTACT_BYTES + 1];
        assert_eq!(
            Contact::verify_for(&key(&c.player()), &big, 0),
            Err(ContactError::TooLarge(MAX_CONTACT_BYTES + 1))
        );
    }
}
