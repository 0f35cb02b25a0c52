//! The arbiter's copy of a sealed move (FIDE A3: the arbiter "es el responsable de su
//! custodia"; A9: the envelope is opened at the resumption; A11: a lost envelope).
//!
//! Over the board the arbiter keeps the envelope, so a sealer who does not come back (A9c)
//! or who lost their scoresheet (A11) does not stop the game: the arbiter opens the envelope
//! at the resumption. Here the envelope is a commitment ([`super::commit::seal_commitment`])
//! and its opening (the move as written and the salt) lives on the sealer's node only; the
//! *escrow* gives the arbiter a copy of that opening, encrypted to the arbiter, in a signed
//! event that travels with the seal (wire tag 18). The arbiter's node can then open the
//! envelope itself (tag 19), and `verify` checks that opening against the commitment exactly
//! as it checks the sealer's: the arbiter can open only the true sealed move, and only when
//! Appendix A allows the envelope to be opened.
//!
//! # Construction
//!
//! An ephemeral–static X25519 exchange with the arbiter's ed25519 identity (their player id,
//! mapped to its Montgomery form; the arbiter's node uses the scalar of its ed25519 signing
//! key), HKDF-SHA-256, ChaCha20-Poly1305:
//!
//! ```text
//! e   = 32 random bytes from the sealer's node (the core has no randomness)
//! E   = X25519(e, 9)                          the ephemeral public key, sent in clear
//! A   = Montgomery(arbiter's ed25519 key)
//! ss  = X25519(e, A)  = X25519(a, E)          refused if all zero (a low-order point)
//! ctx = "sobre/escrow/v1\0" ‖ game ‖ seal event id ‖ sealer ‖ arbiter ‖ A ‖ E
//! key ‖ nonce = HKDF-SHA-256(salt = "sobre/escrow/v1\0", ikm = ss, info = ctx), 32 + 12 bytes
//! box = E ‖ ChaCha20-Poly1305(key, nonce, aad = ctx, plaintext)     always 344 bytes
//! plaintext = len(move) as u64 LE ‖ move text (UTF-8, at most 256 bytes)
//!             ‖ zeros up to 256 bytes ‖ salt (32 bytes)
//! ```
//!
//! Every field of `ctx` has a fixed length, so the concatenation is unambiguous. Binding the
//! key to the seal's event id (which covers game, ply, sealer and commitment) means a box
//! copied onto another seal, another game or another arbiter does not open; a key is used
//! for one message, so the nonce never repeats under it. The move is padded to a fixed
//! length because the box travels to the responder too: its length must not tell `e4` from
//! `Cxd5+`.

use super::author::SealOpening;
use super::event::{EventId, GameId};
use super::identity::{Keypair, PlayerId, as_text};
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use hkdf::Hkdf;
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use x25519_dalek::{X25519_BASEPOINT_BYTES, x25519};
use zeroize::{Zeroize, Zeroizing};

const DOMAIN: &[u8] = b"sobre/escrow/v1\0";
/// The ephemeral public key at the head of a box.
const PUBLIC_BYTES: usize = 32;
/// The AEAD's authentication tag.
const TAG_BYTES: usize = 16;

/// The longest sealed move an escrow carries, in bytes of UTF-8. A move as written is a few
/// characters (`Cxd5+`, `0-0-0`, figurines in three bytes each); a longer text could not be
/// read as one move anyway (A8) and only makes the event bigger.
pub const MAX_ESCROWED_MOVE_BYTES: usize = 256;
/// The plaintext: the move's length (u64), the move padded to [`MAX_ESCROWED_MOVE_BYTES`],
/// the salt.
const PLAIN_BYTES: usize = 8 + MAX_ESCROWED_MOVE_BYTES + 32;
/// The size of every box (`verify` accepts no other): whatever the move, so the box says
/// nothing of its length.
pub const SEALED_BOX_BYTES: usize = PUBLIC_BYTES + PLAIN_BYTES + TAG_BYTES;

/// What a box is bound to: it opens only for this seal of this game, sealed by this player
/// for this arbiter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EscrowContext {
    pub game: GameId,
    /// The id of the seal event (wire tag 17) whose opening is escrowed.
    pub seal: EventId,
    pub sealer: PlayerId,
    pub arbiter: PlayerId,
}

/// Why a box cannot be made or opened. Every failure to open is an error, never a guess.
/// Serialized (tagged by `kind`, snake case, a player by their id's text) as the control
/// API's refusal carries the kinds a player meets; the others are never sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EscrowError {
    /// The arbiter's id is not a usable ed25519 key (not a curve point, or of small order):
    /// nothing could be encrypted to it (A3: the envelope goes to someone who can keep it).
    #[error("{arbiter} is not a key an envelope can be escrowed to (A3)")]
    ArbiterKey {
        #[serde(with = "as_text")]
        arbiter: PlayerId,
    },
    /// The exchange gave the all-zero secret: one side's point has low order. A box made so
    /// would be readable by anyone.
    #[error("the key exchange gave a low-order (all-zero) shared secret")]
    LowOrder,
    /// `max` is [`MAX_ESCROWED_MOVE_BYTES`], named so that the error says its limit.
    #[error("the sealed move is {len} bytes long; an escrow holds at most {max}")]
    MoveTooLong { len: usize, max: usize },
    #[error("a sealed box is {SEALED_BOX_BYTES} bytes, this one {len}")]
    #[serde(skip)]
    BoxSize { len: usize },
    /// The key opening the box is not the arbiter's the box names.
    #[error("this key is not the arbiter's ({arbiter}) the envelope is escrowed to")]
    NotTheArbiter {
        #[serde(with = "as_text")]
        arbiter: PlayerId,
    },
    /// Authentication failed: another key, another seal, game, sealer or arbiter, or an
    /// altered box.
    #[error("the sealed box does not open: it was made for another key or seal, or it was altered")]
    DoesNotOpen,
    /// It opened (so the sealer made it) but does not hold an opening.
    #[error("the sealed box holds no sealed move: {0}")]
    #[serde(skip)]
    Malformed(String),
    /// It opened, but its move is not the one the seal commits to: the sealer escrowed
    /// another move (A3). Found by whoever opens it, against the seal's commitment.
    #[error(
        "the escrowed opening does not match the seal's commitment: the sealer escrowed \
         another move, so the envelope cannot be opened from it (A3)"
    )]
    NotTheSealedMove,
}

/// The Montgomery form of a player's key, if it can receive a box.
fn arbiter_point(arbiter: &PlayerId) -> Result<[u8; 32], EscrowError> {
    let key = arbiter
        .verifier()
        .map_err(|_| EscrowError::ArbiterKey { arbiter: *arbiter })?;
    if key.is_weak() {
        return Err(EscrowError::ArbiterKey { arbiter: *arbiter });
    }
    Ok(key.to_montgomery().to_bytes())
}

/// The exchange, refusing the all-zero result (checked without branching on the bytes).
fn exchange(secret: &[u8; 32], public: &[u8; 32]) -> Result<Zeroizing<[u8; 32]>, EscrowError> {
    let shared = Zeroizing::new(x25519(*secret, *public));
    if shared.iter().fold(0u8, |acc, b| acc | b) == 0 {
        return Err(EscrowError::LowOrder);
    }
    Ok(shared)
}

/// The context bytes (HKDF info and AEAD associated data).
fn context(ctx: &EscrowContext, arbiter_point: &[u8; 32], ephemeral: &[u8; 32]) -> Vec<u8> {
    let mut c = Vec::with_capacity(DOMAIN.len() + 6 * 32);
    c.extend_from_slice(DOMAIN);
    c.extend_from_slice(&ctx.game.0);
    c.extend_from_slice(&ctx.seal.0);
    c.extend_from_slice(ctx.sealer.as_bytes());
    c.extend_from_slice(ctx.arbiter.as_bytes());
    c.extend_from_slice(arbiter_point);
    c.extend_from_slice(ephemeral);
    c
}

/// The AEAD and nonce for one box.
fn cipher(shared: &[u8; 32], info: &[u8]) -> (ChaCha20Poly1305, Nonce) {
    let mut okm = Zeroizing::new([0u8; 44]);
    // 44 bytes is far below HKDF-SHA-256's limit of 255 × 32: the expansion cannot fail.
    let _ = Hkdf::<Sha256>::new(Some(DOMAIN), shared).expand(info, okm.as_mut());
    let cipher = ChaCha20Poly1305::new(Key::from_slice(&okm[..32]));
    let nonce = *Nonce::from_slice(&okm[32..]);
    (cipher, nonce)
}

/// Encrypts `opening` to `ctx.arbiter` for `ctx.seal`. `ephemeral_secret` must be 32 fresh
/// random bytes from the node's RNG, used for this box only (they are wiped here).
///
/// # Errors
/// [`EscrowError::ArbiterKey`] if the arbiter cannot receive a box,
/// [`EscrowError::MoveTooLong`] past [`MAX_ESCROWED_MOVE_BYTES`], [`EscrowError::LowOrder`]
/// (never for a valid arbiter key).
pub fn seal_box(
    ctx: &EscrowContext,
    opening: &SealOpening,
    ephemeral_secret: [u8; 32],
) -> Result<Vec<u8>, EscrowError> {
    let mut e = Zeroizing::new(ephemeral_secret);
    let len = opening.move_text.len();
    if len > MAX_ESCROWED_MOVE_BYTES {
        return Err(EscrowError::MoveTooLong {
            len,
            max: MAX_ESCROWED_MOVE_BYTES,
        });
    }
    let point = arbiter_point(&ctx.arbiter)?;
    let ephemeral = x25519(*e, X25519_BASEPOINT_BYTES);
    let shared = exchange(&e, &point)?;
    e.zeroize();
    let info = context(ctx, &point, &ephemeral);
    let (aead, nonce) = cipher(&shared, &info);
    let mut plain = Zeroizing::new(Vec::with_capacity(PLAIN_BYTES));
    plain.extend_from_slice(&(len as u64).to_le_bytes());
    plain.extend_from_slice(opening.move_text.as_bytes());
    plain.resize(8 + MAX_ESCROWED_MOVE_BYTES, 0);
    plain.extend_from_slice(&opening.salt);
    // ChaCha20-Poly1305 fails only past 2^38 bytes of plaintext.
    let sealed = aead
        .encrypt(
            &nonce,
            Payload {
                msg: &plain,
                aad: &info,
            },
        )
        .map_err(|_| EscrowError::DoesNotOpen)?;
    let mut out = Vec::with_capacity(PUBLIC_BYTES + sealed.len());
    out.extend_from_slice(&ephemeral);
    out.extend_from_slice(&sealed);
    Ok(out)
}

/// Checks that `arbiter` can receive a box (what `verify` asks of an escrow's arbiter).
///
/// # Errors
/// [`EscrowError::ArbiterKey`].
pub fn check_arbiter(arbiter: &PlayerId) -> Result<(), EscrowError> {
    arbiter_point(arbiter).map(|_| ())
}

/// Checks that a box has a size [`seal_box`] can produce (what `verify` asks of an escrow;
/// only the arbiter can check more).
///
/// # Errors
/// [`EscrowError::BoxSize`].
pub fn check_box_size(sealed_box: &[u8]) -> Result<(), EscrowError> {
    let len = sealed_box.len();
    if len != SEALED_BOX_BYTES {
        return Err(EscrowError::BoxSize { len });
    }
    Ok(())
}

/// The arbiter opens a box, in memory: the opening it holds, or why not. The caller still
/// checks the opening against the seal's commitment (as `verify` will).
///
/// # Errors
/// [`EscrowError`] naming the failure: a box of the wrong size, a key that is not
/// `ctx.arbiter`'s, a box made for another context or altered, a low-order ephemeral key, a
/// plaintext that is not an opening.
pub fn open_box(
    ctx: &EscrowContext,
    arbiter: &Keypair,
    sealed_box: &[u8],
) -> Result<SealOpening, EscrowError> {
    check_box_size(sealed_box)?;
    if arbiter.player_id() != ctx.arbiter {
        return Err(EscrowError::NotTheArbiter {
            arbiter: ctx.arbiter,
        });
    }
    let point = arbiter_point(&ctx.arbiter)?;
    let (head, sealed) = sealed_box.split_at(PUBLIC_BYTES);
    let mut ephemeral = [0u8; 32];
    ephemeral.copy_from_slice(head);
    let shared = exchange(&arbiter.x25519_secret(), &ephemeral)?;
    let info = context(ctx, &point, &ephemeral);
    let (aead, nonce) = cipher(&shared, &info);
    let plain = Zeroizing::new(
        aead.decrypt(
            &nonce,
            Payload {
                msg: sealed,
                aad: &info,
            },
        )
        .map_err(|_| EscrowError::DoesNotOpen)?,
    );
    let (len, rest) = plain
        .split_first_chunk::<8>()
        .filter(|(_, rest)| rest.len() == MAX_ESCROWED_MOVE_BYTES + 32)
        .ok_or_else(|| EscrowError::Malformed("not the size of an opening".to_owned()))?;
    let len = usize::try_from(u64::from_le_bytes(*len))
        .ok()
        .filter(|&l| l <= MAX_ESCROWED_MOVE_BYTES)
        .ok_or_else(|| EscrowError::Malformed("the move is longer than its room".to_owned()))?;
    let (padded, salt) = rest.split_at(MAX_ESCROWED_MOVE_BYTES);
    let (text, padding) = padded.split_at(len);
    if padding.iter().any(|&b| b != 0) {
        return Err(EscrowError::Malformed(
            "the padding is not zeros".to_owned(),
        ));
    }
    let move_text = std::str::from_utf8(text)
        .map_err(|_| EscrowError::Malformed("the move is not UTF-8".to_owned()))?
        .to_owned();
    let mut out = SealOpening {
        move_text,
        salt: [0u8; 32],
    };
    out.salt.copy_from_slice(salt);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn key(n: u8) -> Keypair {
        Keypair::from_secret_bytes(&[n; 32])
    }

    fn ctx() -> EscrowContext {
        EscrowContext {
            game: EventId([0x47; 32]),
            seal: EventId([0x53; 32]),
            sealer: key(1).player_id(),
            arbiter: key(3).player_id(),
        }
    }

    fn opening(text: &str, salt: u8) -> SealOpening {
        SealOpening {
            move_text: text.to_owned(),
            salt: [salt; 32],
        }
    }

    #[test]
    fn a3_the_arbiter_opens_what_the_sealer_escrowed() {
        let o = opening("Cf3", 9);
        let b = seal_box(&ctx(), &o, [5; 32]).unwrap();
        assert_eq!(b.len(), SEALED_BOX_BYTES);
        assert_eq!(open_box(&ctx(), &key(3), &b), Ok(o));
        // The same inputs give the same box (the randomness is the caller's), fresh
        // randomness another one.
        assert_eq!(seal_box(&ctx(), &opening("Cf3", 9), [5; 32]).unwrap(), b);
        assert_ne!(seal_box(&ctx(), &opening("Cf3", 9), [6; 32]).unwrap(), b);
    }

    #[test]
    fn a3_the_longest_move_fits_and_a_longer_one_is_refused() {
        let long = "x".repeat(MAX_ESCROWED_MOVE_BYTES);
        let b = seal_box(&ctx(), &opening(&long, 1), [5; 32]).unwrap();
        assert_eq!(b.len(), SEALED_BOX_BYTES);
        assert_eq!(open_box(&ctx(), &key(3), &b).unwrap().move_text, long);
        let longer = "x".repeat(MAX_ESCROWED_MOVE_BYTES + 1);
        assert_eq!(
            seal_box(&ctx(), &opening(&longer, 1), [5; 32]),
            Err(EscrowError::MoveTooLong { len: 257, max: 256 })
        );
        for len in [SEALED_BOX_BYTES - 1, SEALED_BOX_BYTES + 1] {
            assert_eq!(
                open_box(&ctx(), &key(3), &vec![0; len]),
                Err(EscrowError::BoxSize { len })
            );
        }
    }

    /// The box goes to the responder too: its size must not say how long the sealed move
    /// is (`e4`, a pawn; `Cxd5+`, a capture with check).
    #[test]
    fn a3_the_box_does_not_reveal_the_length_of_the_sealed_move() {
        let sizes: Vec<usize> = ["", "e4", "Cf3", "Cxd5+", "0-0-0", "♘xd5+"]
            .iter()
            .map(|m| seal_box(&ctx(), &opening(m, 1), [5; 32]).unwrap().len())
            .collect();
        assert!(sizes.iter().all(|&n| n == SEALED_BOX_BYTES), "{sizes:?}");
    }

    #[test]
    fn a3_an_arbiter_key_of_small_order_or_off_the_curve_is_refused() {
        // The identity point (small order), and bytes that are no point at all (the first
        // y = 2, 3, … with no x on the curve).
        let mut identity = [0u8; 32];
        identity[0] = 1;
        let off_curve = (2u8..)
            .map(|y| {
                let mut b = [0u8; 32];
                b[0] = y;
                b
            })
            .find(|b| PlayerId::from_bytes(*b).verifier().is_err())
            .expect("half of all y have no point");
        for bytes in [identity, off_curve] {
            let bad = EscrowContext {
                arbiter: PlayerId::from_bytes(bytes),
                ..ctx()
            };
            assert!(matches!(
                seal_box(&bad, &opening("e4", 1), [5; 32]),
                Err(EscrowError::ArbiterKey { .. })
            ));
        }
    }

    #[test]
    fn a_low_order_ephemeral_key_is_refused_not_opened() {
        let b = seal_box(&ctx(), &opening("e4", 1), [5; 32]).unwrap();
        // u = 0 and u = 1 are points of small order: any clamped scalar sends them to zero.
        for u in [0u8, 1] {
            let mut forged = b.clone();
            forged[..32].copy_from_slice(&[0; 32]);
            forged[0] = u;
            assert_eq!(
                open_box(&ctx(), &key(3), &forged),
                Err(EscrowError::LowOrder)
            );
        }
    }

    #[test]
    fn a_key_that_is_not_the_named_arbiters_is_refused() {
        let b = seal_box(&ctx(), &opening("e4", 1), [5; 32]).unwrap();
        assert_eq!(
            open_box(&ctx(), &key(4), &b),
            Err(EscrowError::NotTheArbiter {
                arbiter: ctx().arbiter
            })
        );
        // Another key naming itself: the box was not made for it.
        let other = EscrowContext {
            arbiter: key(4).player_id(),
            ..ctx()
        };
        assert_eq!(open_box(&other, &key(4), &b), Err(EscrowError::DoesNotOpen));
        // Even the sealer cannot open what it sealed for the arbiter.
        let sealer = EscrowContext {
            arbiter: key(1).player_id(),
            ..ctx()
        };
        assert_eq!(
            open_box(&sealer, &key(1), &b),
            Err(EscrowError::DoesNotOpen)
        );
    }

    fn arb_opening() -> impl Strategy<Value = SealOpening> {
        (
            proptest::string::string_regex(".{0,40}").expect("regex"),
            any::<[u8; 32]>(),
        )
            .prop_filter("fits an escrow", |(t, _)| {
                t.len() <= MAX_ESCROWED_MOVE_BYTES
            })
            .prop_map(|(move_text, salt)| SealOpening { move_text, salt })
    }

    fn arb_ctx() -> impl Strategy<Value = (EscrowContext, u8)> {
        (any::<[u8; 32]>(), any::<[u8; 32]>(), 1u8..=100, 101u8..=200).prop_map(
            |(game, seal, sealer, arbiter)| {
                (
                    EscrowContext {
                        game: EventId(game),
                        seal: EventId(seal),
                        sealer: key(sealer).player_id(),
                        arbiter: key(arbiter).player_id(),
                    },
                    arbiter,
                )
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A3: what the sealer escrows, the arbiter (and only the arbiter, for this seal)
        /// gets back exactly; anything else is an error, never another opening.
        #[test]
        fn a3_escrow_round_trips_and_nothing_else_opens(
            (c, arbiter) in arb_ctx(),
            o in arb_opening(),
            e in any::<[u8; 32]>(),
            flip in any::<prop::sample::Index>(),
            bit in 0u8..8,
            field in 0usize..4,
            other in any::<[u8; 32]>(),
        ) {
            let b = seal_box(&c, &o, e).unwrap();
            prop_assert_eq!(b.len(), SEALED_BOX_BYTES);
            prop_assert_eq!(open_box(&c, &key(arbiter), &b), Ok(o.clone()));
            // The wrong key.
            let wrong = key(arbiter.wrapping_add(60));
            prop_assert!(open_box(&c, &wrong, &b).is_err());
            let as_wrong = EscrowContext { arbiter: wrong.player_id(), ..c };
            prop_assert_eq!(open_box(&as_wrong, &wrong, &b), Err(EscrowError::DoesNotOpen));
            // The wrong context: another game, seal, sealer or arbiter.
            let mut moved = c;
            match field {
                0 => moved.game = EventId(other),
                1 => moved.seal = EventId(other),
                2 => moved.sealer = key(arbiter.wrapping_add(70)).player_id(),
                _ => moved.arbiter = wrong.player_id(),
            }
            if moved != c {
                let k = if field == 3 { &wrong } else { &key(arbiter) };
                prop_assert!(open_box(&moved, k, &b).is_err());
            }
            // Any flipped bit.
            let mut flipped = b.clone();
            flipped[flip.index(b.len())] ^= 1 << bit;
            prop_assert!(open_box(&c, &key(arbiter), &flipped).is_err());
        }
    }
}
