//! Property tests of `verify` on random signed games: tampering, reordering, dropping,
//! duplicating and foreign keys are always detected (or, for duplicates and reordering,
//! harmless).

use proptest::prelude::*;
use sobre_core::record::author::Scoresheet;
use sobre_core::record::commit;
use sobre_core::record::{
    Event, SignedEvent, VerifiedEvent, verify, verify_at, verify_continue, verify_extend,
    verify_incremental,
};
use sobre_core::test_support::{GameBuilder, Lines, Receipts, key};
use sobre_core::{Color, Position};

/// A random game of up to `plies` moves, as both nodes would sign it: the opponent
/// receipts about half the moves (drawn from the same seed), so records mix receipted and
/// unreceipted moves.
fn random_game(seed: u64, plies: usize) -> Vec<SignedEvent> {
    let line = Lines::new(seed).line(&Position::new(), plies);
    GameBuilder::new(key(1), key(2))
        .receipts(Receipts::Random(seed))
        .sign(&line)
        .expect("a legal line signs")
        .events
}

fn referenced(events: &[SignedEvent], id: sobre_core::record::EventId) -> bool {
    events.iter().any(|e| {
        let ev: Event = e.decode_unverified().expect("valid");
        ev.prev == Some(id) || ev.seen == Some(id)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn incremental_verification_gives_the_same_game(seed in any::<u64>(), split in any::<usize>()) {
        // A node holds the first `k` events verified and receives the rest (with an overlap).
        let events = random_game(seed, 30);
        let reference = verify(&events).expect("honest game verifies");
        let k = split % (events.len() + 1);
        let held: Vec<VerifiedEvent> =
            events[..k].iter().map(|e| e.verify().expect("valid")).collect();
        let fresh = &events[k.saturating_sub(2)..];
        let again = verify_incremental(&held, fresh, None).expect("same events verify");
        prop_assert_eq!(&again.timeline, &reference.timeline);
        prop_assert_eq!(&again.position, &reference.position);
        prop_assert_eq!(again.result, reference.result);
    }

    #[test]
    fn continued_replay_gives_the_full_replay(seed in any::<u64>(), perm in any::<u64>(), shuffle in any::<bool>(), now in proptest::option::of(1_800_000_000_000u64..1_900_000_000_000)) {
        // Events arrive in chunks (in order, or shuffled so that the timeline sometimes
        // changes under the checkpoint); after each, continuing the last good checkpoint
        // gives exactly what a full replay of everything held gives, or the same error.
        let events = random_game(seed, 40);
        let mut arrival = events.clone();
        let mut order = Lines::new(perm);
        let mut next = move || order.next_u64();
        if shuffle {
            for i in (1..arrival.len()).rev() {
                arrival.swap(i, (next() % (i as u64 + 1)) as usize);
            }
        }
        let mut held: Vec<VerifiedEvent> = Vec::new();
        let mut checkpoint = None;
        // The same continued in place (`verify_extend`): the same outcomes.
        let mut in_place = None;
        let mut rest = arrival.as_slice();
        while !rest.is_empty() {
            let n = 1 + (next() % 4) as usize;
            let (chunk, tail) = rest.split_at(n.min(rest.len()));
            rest = tail;
            held.extend(chunk.iter().map(|e| e.verify().expect("valid")));
            // A duplicate now and then: ids are unique in the record.
            if next() % 5 == 0 {
                held.push(held[0].clone());
            }
            let full = verify_incremental(&held, &[], now);
            let extended = verify_extend(&held, &mut in_place, now);
            prop_assert_eq!(
                extended.as_ref().map(|s| format!("{s:?}")).map_err(Clone::clone),
                full.as_ref().map(|s| format!("{s:?}")).map_err(Clone::clone)
            );
            match verify_continue(&held, checkpoint.as_ref(), now) {
                Ok((state, c)) => {
                    let full = full.expect("the full replay verifies too");
                    prop_assert_eq!(format!("{state:?}"), format!("{full:?}"));
                    checkpoint = Some(c);
                }
                Err(e) => prop_assert_eq!(Err(e), full.map(|_| ())),
            }
        }
        let (last, _) = verify_continue(&held, checkpoint.as_ref(), now).expect("whole game");
        let reference = verify_at(&events, now).expect("whole game");
        prop_assert_eq!(format!("{last:?}"), format!("{reference:?}"));
    }

    #[test]
    fn the_signed_event_wire_form_is_the_codec_s(seed in any::<u64>(), cut in any::<usize>(), bit in any::<usize>(), extra in proptest::collection::vec(any::<u8>(), 0..4)) {
        use sobre_core::record::codec;
        let limit = codec::MAX_EVENT_BYTES + 128;
        for e in random_game(seed, 6) {
            let wire = e.to_bytes().expect("encode");
            prop_assert_eq!(&wire, &codec::encode(&e).expect("encode"));
            prop_assert_eq!(SignedEvent::from_bytes(&wire), Ok(e.clone()));
            // Cut, flipped, lengthened: accepted exactly when the codec accepts.
            let mut variants = vec![wire[..cut % wire.len()].to_vec(), wire.clone()];
            let b = bit % (wire.len() * 8);
            variants[1][b / 8] ^= 1 << (b % 8);
            let mut longer = wire.clone();
            longer.extend(&extra);
            variants.push(longer);
            for v in variants {
                let ours = SignedEvent::from_bytes(&v);
                let theirs = codec::decode::<SignedEvent>(&v, limit);
                prop_assert_eq!(ours.is_ok(), theirs.is_ok());
                if let (Ok(a), Ok(b)) = (ours, theirs) {
                    prop_assert_eq!(a, b);
                }
            }
        }
        let huge = vec![0u8; limit as usize + 1];
        let too_large = matches!(SignedEvent::from_bytes(&huge), Err(codec::CodecError::TooLarge { .. }));
        prop_assert!(too_large);
    }

    #[test]
    fn incremental_verification_checks_every_fresh_signature(seed in any::<u64>(), which in any::<usize>(), bit in any::<usize>()) {
        let mut events = random_game(seed, 30);
        let i = 1 + which % (events.len() - 1);
        let held: Vec<VerifiedEvent> =
            events[..i].iter().map(|e| e.verify().expect("valid")).collect();
        let e = &mut events[i];
        e.signature[bit % 64] ^= 1 << (bit % 8);
        prop_assert!(verify_incremental(&held, &events[i..], None).is_err());
    }

    #[test]
    fn any_bit_flip_is_detected(seed in any::<u64>(), which in any::<usize>(), bit in any::<usize>()) {
        let mut events = random_game(seed, 30);
        let i = which % events.len();
        let e = &mut events[i];
        let total = (e.body.len() + 64) * 8;
        let b = bit % total;
        if b < e.body.len() * 8 {
            e.body[b / 8] ^= 1 << (b % 8);
        } else {
            let s = b - e.body.len() * 8;
            e.signature[s / 8] ^= 1 << (s % 8);
        }
        prop_assert!(verify(&events).is_err());
    }

    #[test]
    fn any_order_and_duplicates_give_the_same_game(seed in any::<u64>(), perm in any::<u64>()) {
        let events = random_game(seed, 40);
        let reference = verify(&events).expect("honest game verifies");
        let mut shuffled = events.clone();
        // Fisher–Yates with the proptest-chosen seed, plus duplicates of a few events.
        let mut r = perm | 1;
        for i in (1..shuffled.len()).rev() {
            r ^= r << 13; r ^= r >> 7; r ^= r << 17;
            shuffled.swap(i, (r % (i as u64 + 1)) as usize);
        }
        shuffled.extend(events.iter().step_by(3).cloned());
        let again = verify(&shuffled).expect("same events verify");
        prop_assert_eq!(&again.timeline, &reference.timeline);
        prop_assert_eq!(&again.position, &reference.position);
        prop_assert_eq!(again.result, reference.result);
    }

    #[test]
    fn dropping_an_event_is_detected_unless_nothing_depends_on_it(seed in any::<u64>(), which in any::<usize>()) {
        let events = random_game(seed, 30);
        let i = 1 + which % (events.len() - 1);
        let id = events[i].id();
        let mut rest = events.clone();
        rest.remove(i);
        let leaf = !referenced(&rest, id);
        let author_has_later = {
            let dropped: Event = events[i].decode_unverified().expect("valid");
            rest.iter().any(|e| {
                let ev: Event = e.decode_unverified().expect("valid");
                ev.author == dropped.author && ev.seq > dropped.seq
            })
        };
        match verify(&rest) {
            Err(_) => prop_assert!(!leaf || author_has_later),
            // Only the newest event of a log, seen by nobody, can go unnoticed: the record is
            // then simply shorter.
            Ok(st) => {
                prop_assert!(leaf && !author_has_later);
                prop_assert_eq!(st.timeline.len(), events.len() - 1);
            }
        }
    }

    #[test]
    fn signing_with_a_third_key_is_detected(seed in any::<u64>(), which in any::<usize>()) {
        let mut events = random_game(seed, 20);
        let i = which % events.len();
        // Re-sign the same body with another key: the author field no longer matches.
        let forged = key(7).sign(&sobre_core::record::event::signing_bytes(&events[i].body));
        events[i].signature = forged;
        prop_assert!(verify(&events).is_err());
    }

    #[test]
    fn commitments_never_open_with_another_move_or_salt(
        text in "[a-hA-Z0-9x=+#-]{1,8}", other in "[a-hA-Z0-9x=+#-]{1,8}",
        salt in any::<[u8; 32]>(), salt2 in any::<[u8; 32]>(), ply in 1u32..400,
    ) {
        let game = sobre_core::record::EventId([3; 32]);
        let sealer = key(1).player_id();
        let c = commit::seal_commitment(&game, ply, &sealer, &text, &salt);
        prop_assert_eq!(c, commit::seal_commitment(&game, ply, &sealer, &text, &salt));
        if other != text {
            prop_assert_ne!(c, commit::seal_commitment(&game, ply, &sealer, &other, &salt));
        }
        if salt2 != salt {
            prop_assert_ne!(c, commit::seal_commitment(&game, ply, &sealer, &text, &salt2));
        }
    }
}

#[test]
fn a_foreign_author_event_is_rejected() {
    let events = random_game(11, 10);
    let mut intruder = Scoresheet::join(key(9), {
        let first: Event = events[0].decode_unverified().expect("valid");
        assert!(first.kind.is_challenge());
        events[0].id()
    });
    let mut with = events.clone();
    with.push(intruder.chat("hola", 1_900_000_000_000).expect("sign"));
    assert!(verify(&with).is_err());
    assert_eq!(Color::White.index(), 0);
}
