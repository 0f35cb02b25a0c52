//! Players are ed25519 keys. A player's id is the libp2p `PeerId` of their key
//! (`12D3KooW…`), so one string finds their node in the DHT and verifies their signatures.
//!
//! Keys are never generated here (the core has no randomness): the node creates the 32
//! secret bytes and hands them in.

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use libp2p_identity::PeerId;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A player: the 32 bytes of an ed25519 public key. Shown as its libp2p `PeerId`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlayerId([u8; 32]);

/// Why a player id cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerIdError {
    #[error("{0:?} is not a player id (expected a libp2p peer id like 12D3KooW…)")]
    NotAPeerId(String),
    #[error("{0:?} is a peer id, but not of an ed25519 key")]
    NotEd25519(String),
}

/// A player id in serde as its text (`12D3KooW…`) rather than its 32 bytes: for the JSON
/// of an error that names a player (`#[serde(with = "as_text")]`).
pub mod as_text {
    use super::PlayerId;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(id: &PlayerId, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(id)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PlayerId, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl PlayerId {
    /// The raw public key bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Wraps public key bytes (not checked to be a valid curve point: [`PlayerId::verifier`]
    /// does that).
    pub const fn from_bytes(bytes: [u8; 32]) -> PlayerId {
        PlayerId(bytes)
    }

    /// The key to verify this player's signatures with.
    ///
    /// # Errors
    /// If the bytes are not a valid ed25519 point.
    pub fn verifier(&self) -> Result<VerifyingKey, ed25519_dalek::SignatureError> {
        // Decompressing a key costs about a third of a signature check, and a node checks
        // the events of the same few hundred players all day: keep the recent ones (per
        // thread, no locking; the bound keeps a flood of strangers' keys from growing it).
        const KEEP: usize = 4096;
        thread_local! {
            static KEYS: std::cell::RefCell<std::collections::HashMap<[u8; 32], VerifyingKey>> =
                std::cell::RefCell::new(std::collections::HashMap::new());
        }
        if let Some(k) = KEYS.with(|c| c.borrow().get(&self.0).copied()) {
            return Ok(k);
        }
        let k = VerifyingKey::from_bytes(&self.0)?;
        KEYS.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() >= KEEP {
                c.clear();
            }
            c.insert(self.0, k);
        });
        Ok(k)
    }

    /// Checks a signature with `verify_strict` (rejects small-order keys and malleable
    /// signatures, so one message has one valid signature per key).
    pub fn verify(&self, message: &[u8], signature: &[u8; 64]) -> bool {
        match self.verifier() {
            Ok(key) => key
                .verify_strict(message, &Signature::from_bytes(signature))
                .is_ok(),
            Err(_) => false,
        }
    }

    /// The libp2p `PeerId` of this key.
    pub fn peer_id(&self) -> Option<PeerId> {
        let key = libp2p_identity::ed25519::PublicKey::try_from_bytes(&self.0).ok()?;
        Some(libp2p_identity::PublicKey::from(key).to_peer_id())
    }

    /// A short form for tables (`…last 8 characters of the peer id`).
    pub fn short(&self) -> String {
        let s = self.to_string();
        let n = s.len().saturating_sub(8);
        format!("…{}", &s[n..])
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.peer_id() {
            Some(p) => write!(f, "{p}"),
            // Not a valid point: show hex rather than failing to display.
            None => {
                for b in self.0 {
                    write!(f, "{b:02x}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PlayerId({self})")
    }
}

impl FromStr for PlayerId {
    type Err = PlayerIdError;

    fn from_str(s: &str) -> Result<PlayerId, PlayerIdError> {
        let s = s.trim();
        let peer = PeerId::from_str(s).map_err(|_| PlayerIdError::NotAPeerId(s.to_owned()))?;
        // Ed25519 peer ids embed the key itself (identity multihash of its protobuf form).
        let digest = peer.as_ref().digest();
        let key = libp2p_identity::PublicKey::try_decode_protobuf(digest)
            .map_err(|_| PlayerIdError::NotEd25519(s.to_owned()))?;
        let ed = key
            .try_into_ed25519()
            .map_err(|_| PlayerIdError::NotEd25519(s.to_owned()))?;
        Ok(PlayerId(ed.to_bytes()))
    }
}

/// A player's signing key. Holds the secret; never serialised by this crate.
#[derive(Clone)]
pub struct Keypair {
    signing: SigningKey,
}

impl Keypair {
    /// The key whose secret is these 32 bytes (the node generates them from the OS RNG).
    pub fn from_secret_bytes(secret: &[u8; 32]) -> Keypair {
        Keypair {
            signing: SigningKey::from_bytes(secret),
        }
    }

    /// The secret bytes, for the node to store (mode 0600).
    pub fn secret_bytes(&self) -> [u8; 32] {
        self.signing.to_bytes()
    }

    pub fn player_id(&self) -> PlayerId {
        PlayerId(self.signing.verifying_key().to_bytes())
    }

    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        self.signing.sign(message).to_bytes()
    }

    /// The X25519 secret of this identity: the scalar half of the expanded ed25519 secret,
    /// whose public point is this player's key in Montgomery form. It opens what was sealed
    /// to this player's id ([`super::escrow`]) and never leaves the core; wiped when dropped.
    pub(crate) fn x25519_secret(&self) -> zeroize::Zeroizing<[u8; 32]> {
        zeroize::Zeroizing::new(self.signing.to_scalar_bytes())
    }
}

impl fmt::Debug for Keypair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Keypair({})", self.player_id())
    }
}

/// `domain ‖ body`: what a signed document of one kind is signed over, so that a signature
/// of one kind (a league document, a profile) can never stand for another.
pub(crate) fn domain_message(domain: &[u8], body: &[u8]) -> Vec<u8> {
    let mut m = Vec::with_capacity(domain.len() + body.len());
    m.extend_from_slice(domain);
    m.extend_from_slice(body);
    m
}

/// A signature as the two halves signed documents keep (serde has no `[u8; 64]`).
pub(crate) fn split_signature(sig: &[u8; 64]) -> ([u8; 32], [u8; 32]) {
    let mut a = [0u8; 32];
    let mut b = [0u8; 32];
    a.copy_from_slice(&sig[..32]);
    b.copy_from_slice(&sig[32..]);
    (a, b)
}

/// The halves of [`split_signature`] joined again.
pub(crate) fn join_signature(halves: &([u8; 32], [u8; 32])) -> [u8; 64] {
    let mut out = [0u8; 64];
    out[..32].copy_from_slice(&halves.0);
    out[32..].copy_from_slice(&halves.1);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_id_is_the_libp2p_peer_id_and_parses_back() {
        let k = Keypair::from_secret_bytes(&[7; 32]);
        let id = k.player_id();
        let text = id.to_string();
        assert!(text.starts_with("12D3KooW"), "{text}");
        assert_eq!(text.parse::<PlayerId>(), Ok(id));
        // The same id libp2p derives from the same secret.
        let mut secret = [7u8; 32];
        let lk = libp2p_identity::Keypair::ed25519_from_bytes(&mut secret).unwrap();
        assert_eq!(lk.public().to_peer_id().to_string(), text);
    }

    #[test]
    fn signatures_verify_strictly_and_only_for_their_message() {
        let k = Keypair::from_secret_bytes(&[1; 32]);
        let sig = k.sign(b"1. e4");
        assert!(k.player_id().verify(b"1. e4", &sig));
        assert!(!k.player_id().verify(b"1. d4", &sig));
        let other = Keypair::from_secret_bytes(&[2; 32]);
        assert!(!other.player_id().verify(b"1. e4", &sig));
    }

    #[test]
    fn bad_ids_are_reported() {
        assert!(matches!(
            "hello".parse::<PlayerId>(),
            Err(PlayerIdError::NotAPeerId(_))
        ));
    }
}
