//! Signature checks agree with `verify_strict` for every event, whatever the signer does.
//!
//! A signer holds its own secret key, so it can build signatures no honest signer makes: an
//! `R` with a torsion component, a small-order `R`, a non-canonical encoding of `R`. Every
//! node must judge each such event exactly as `verify_strict` does, or one node keeps an
//! event that the others (and `sobre verify`) refuse. ed25519 batch verification is not
//! exact: `dalek_batch_accepts_a_torsion_signature_that_verify_strict_refuses` shows it, and
//! is why `verify_all` checks each event with `verify_strict`.

use curve25519_dalek::constants::{ED25519_BASEPOINT_POINT, EIGHT_TORSION};
use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
use curve25519_dalek::scalar::Scalar;
use ed25519_dalek::{Signature, VerifyingKey};
use proptest::prelude::*;
use sha2::{Digest, Sha512};
use sobre_core::record::author::Scoresheet;
use sobre_core::record::event::signing_bytes;
use sobre_core::record::{Challenge, ColourChoice, SignedEvent, StartPosition, verify_all};
use sobre_core::test_support::{T0, key};

/// The secret scalar of an ed25519 seed (RFC 8032 5.1.5), and its public point.
fn secret_scalar(seed: &[u8; 32]) -> (Scalar, EdwardsPoint) {
    let h = Sha512::digest(seed);
    let mut a = [0u8; 32];
    a.copy_from_slice(&h[..32]);
    a[0] &= 248;
    a[31] &= 127;
    a[31] |= 64;
    let a = Scalar::from_bytes_mod_order(a);
    (a, a * ED25519_BASEPOINT_POINT)
}

/// How a crafted signature departs from an honest one.
#[derive(Clone, Copy, Debug)]
enum Craft {
    /// An honest signature.
    Honest,
    /// `R + T` with `T` the torsion point of this index (1..8), `s` made to fit `R + T`'s
    /// hash: the cofactorless equation is off by exactly `T`.
    Torsion(usize),
    /// A small-order `R` (the torsion point of this index, 0..8).
    SmallOrderR(usize),
    /// An honest signature with a bit of `s` flipped.
    BadS,
}

/// Signs `body` as the owner of `seed` would, or crafted, with the nonce `nonce`.
fn sign(seed: &[u8; 32], body: &[u8], nonce: u64, craft: Craft) -> [u8; 64] {
    let (a, public) = secret_scalar(seed);
    let message = signing_bytes(body);
    let r = Scalar::from_bytes_mod_order_wide(
        &Sha512::new()
            .chain_update(seed)
            .chain_update(nonce.to_le_bytes())
            .chain_update(&message)
            .finalize()
            .into(),
    );
    let big_r = match craft {
        Craft::Honest | Craft::BadS => r * ED25519_BASEPOINT_POINT,
        Craft::Torsion(t) => r * ED25519_BASEPOINT_POINT + EIGHT_TORSION[t % 8],
        Craft::SmallOrderR(t) => EIGHT_TORSION[t % 8],
    }
    .compress();
    let h = Scalar::from_bytes_mod_order_wide(
        &Sha512::new()
            .chain_update(big_r.as_bytes())
            .chain_update(public.compress().as_bytes())
            .chain_update(&message)
            .finalize()
            .into(),
    );
    let s = r + h * a;
    let mut sig = [0u8; 64];
    sig[..32].copy_from_slice(big_r.as_bytes());
    sig[32..].copy_from_slice(s.as_bytes());
    if matches!(craft, Craft::BadS) {
        sig[40] ^= 1;
    }
    sig
}

/// What ed25519-dalek's `verify_strict` says, independently of sobre's code.
fn strict(author: &[u8; 32], body: &[u8], signature: &[u8; 64]) -> bool {
    VerifyingKey::from_bytes(author).is_ok_and(|k| {
        k.verify_strict(&signing_bytes(body), &Signature::from_bytes(signature))
            .is_ok()
    })
}

/// Bodies of a few real events: a challenge by key 1, the acceptance by key 2, and chat
/// lines by both; with the seed of each author.
fn bodies() -> Vec<([u8; 32], Vec<u8>)> {
    let (w, b) = (key(1), key(2));
    let ch = Challenge {
        opponent: b.player_id(),
        colour: ColourChoice::ChallengerWhite,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: None,
    };
    let t0 = T0;
    let (mut ws, ev) = Scoresheet::challenge(w, ch, t0).expect("sign");
    let mut bs = Scoresheet::join(b, ws.game());
    bs.saw(ev.id());
    let acc = bs.accept(None, t0 + 1).expect("sign");
    ws.saw(acc.id());
    let mut out = vec![([1; 32], ev.body), ([2; 32], acc.body)];
    for i in 0..6u64 {
        let (seed, sheet) = if i % 2 == 0 {
            ([1; 32], &mut ws)
        } else {
            ([2; 32], &mut bs)
        };
        let e = sheet.chat(&format!("line {i}"), t0 + 10 + i).expect("sign");
        out.push((seed, e.body));
    }
    out
}

/// The crafted torsion signature is a real one: `verify_strict` refuses it, and a batch of
/// it with honest signatures passes for some nonces (when the batch's coefficient for it is
/// a multiple of the torsion's order) — the disagreement that ruled batching out.
#[test]
fn dalek_batch_accepts_a_torsion_signature_that_verify_strict_refuses() {
    let events = bodies();
    let author_key =
        |seed: &[u8; 32]| VerifyingKey::from_bytes(&secret_scalar(seed).1.compress().0).unwrap();
    let mut batch_accepted = 0;
    for nonce in 0..64 {
        let (seed, body) = &events[2];
        let bad = sign(seed, body, nonce, Craft::Torsion(4));
        assert!(!strict(&author_key(seed).to_bytes(), body, &bad));
        let mut messages = Vec::new();
        let mut signatures = Vec::new();
        let mut keys = Vec::new();
        for (i, (s, b)) in events.iter().enumerate() {
            messages.push(signing_bytes(b));
            let sig = if i == 2 {
                bad
            } else {
                sign(s, b, 0, Craft::Honest)
            };
            signatures.push(Signature::from_bytes(&sig));
            keys.push(author_key(s));
        }
        let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
        if ed25519_dalek::verify_batch(&refs, &signatures, &keys).is_ok() {
            batch_accepted += 1;
            // The node's check refuses the same event.
            let signed: Vec<SignedEvent> = events
                .iter()
                .zip(&signatures)
                .map(|((_, b), sig)| SignedEvent {
                    body: b.clone(),
                    signature: sig.to_bytes(),
                })
                .collect();
            let results = verify_all(&signed);
            assert!(results[2].is_err(), "verify_all kept a torsion signature");
            assert!(results.iter().enumerate().all(|(i, r)| i == 2 || r.is_ok()));
        }
    }
    // `T` of order 2: the coefficient must be even, about one nonce in two.
    assert!(
        batch_accepted > 0,
        "no nonce made the batch accept: the demonstration is broken"
    );
}

fn craft() -> impl Strategy<Value = Craft> {
    prop_oneof![
        4 => Just(Craft::Honest),
        2 => (1usize..8).prop_map(Craft::Torsion),
        1 => (0usize..8).prop_map(Craft::SmallOrderR),
        1 => Just(Craft::BadS),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every event's verdict in a batch of crafted and honest signatures is `verify_strict`'s.
    #[test]
    fn verify_all_agrees_with_verify_strict_for_every_event(
        crafts in proptest::collection::vec(craft(), 8),
        nonce in any::<u64>(),
    ) {
        let events = bodies();
        let signed: Vec<SignedEvent> = events
            .iter()
            .zip(&crafts)
            .map(|((seed, body), c)| SignedEvent {
                body: body.clone(),
                signature: sign(seed, body, nonce, *c),
            })
            .collect();
        let results = verify_all(&signed);
        for (((seed, body), e), r) in events.iter().zip(&signed).zip(&results) {
            let author = secret_scalar(seed).1.compress().0;
            prop_assert_eq!(r.is_ok(), strict(&author, body, &e.signature));
        }
        for (c, r) in crafts.iter().zip(&results) {
            prop_assert_eq!(r.is_ok(), matches!(c, Craft::Honest));
        }
    }
}

/// A non-canonical encoding of `R` (y + p, which decodes to the same point) is refused, as
/// `verify_strict` refuses it.
#[test]
fn a_non_canonical_r_is_refused() {
    let events = bodies();
    let (seed, body) = &events[1];
    let honest = sign(seed, body, 7, Craft::Honest);
    // y + p fits in 255 bits only for y < 19: use the identity's neighbourhood instead —
    // the encoding of y = 1 (the identity) as 1 + p.
    let mut non_canonical = [0u8; 32];
    non_canonical[0] = 0xee;
    non_canonical[1..31].fill(0xff);
    non_canonical[31] = 0x7f;
    assert!(CompressedEdwardsY(non_canonical).decompress().is_some());
    let mut sig = honest;
    sig[..32].copy_from_slice(&non_canonical);
    let e = SignedEvent {
        body: body.clone(),
        signature: sig,
    };
    let author = secret_scalar(seed).1.compress().0;
    assert!(!strict(&author, body, &sig));
    assert!(verify_all(std::slice::from_ref(&e))[0].is_err());
    assert!(verify_all(&[e.clone(), e])[0].is_err());
}
