//! The fast path of [`verify_continue`] ([`Checkpoint::append`]) is taken when events
//! extend the record at its end, refused otherwise, and agrees with the full replay
//! (the property test `continued_replay_gives_the_full_replay` in `tests/verify_props.rs`
//! compares every outcome).

use super::*;
use crate::notation::san::Lang;
use crate::position::Position;
use crate::record::Keypair;
use crate::record::author::Scoresheet;
use crate::record::event::{Challenge, ColourChoice, StartPosition};

/// Challenge, accept, then 1.e4 e5 2.Cf3 with receipts, in signing order.
fn game() -> Vec<VerifiedEvent> {
    let (w, b) = (
        Keypair::from_secret_bytes(&[1; 32]),
        Keypair::from_secret_bytes(&[2; 32]),
    );
    let ch = Challenge {
        opponent: b.player_id(),
        colour: ColourChoice::ChallengerWhite,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: None,
    };
    let t0 = 1_800_000_000_000u64;
    let (mut ws, ch) = Scoresheet::challenge(w, ch, t0).expect("sign");
    let mut bs = Scoresheet::join(b, ws.game());
    bs.saw(ch.id());
    let acc = bs.accept(None, t0 + 1).expect("sign");
    ws.saw(acc.id());
    let mut out = vec![ch, acc];
    let mut pos = Position::new();
    let mut t = t0 + 10;
    for (i, text) in ["e4", "e5", "Nf3"].iter().enumerate() {
        let m = crate::notation::san::parse_san(&pos, text, Lang::English).expect("legal");
        let (me, other) = if i % 2 == 0 {
            (&mut ws, &mut bs)
        } else {
            (&mut bs, &mut ws)
        };
        t += 1000;
        let ev = me.play(m, t).expect("sign");
        pos.play_unchecked(m);
        other.saw(ev.id());
        let r = other.receipt(ev.id(), t + 10).expect("sign");
        me.saw(r.id());
        out.extend([ev, r]);
    }
    out.iter().map(|e| e.verify().expect("valid")).collect()
}

#[test]
fn events_at_the_end_are_replayed_alone() {
    let all = game();
    let (_, c) = verify_continue(&all[..4], None, None).expect("valid");
    // Duplicates and any arrival order of the known part are fine.
    let mut held: Vec<VerifiedEvent> = all.iter().rev().cloned().collect();
    held.push(all[0].clone());
    let fast = c.append(&held, None).expect("fast path").expect("valid");
    let full = verify_incremental(&all, &[], None).expect("valid");
    assert_eq!(format!("{:?}", fast.0), format!("{full:?}"));
    assert_eq!(fast.1.order, full.timeline);
}

#[test]
fn anything_else_takes_the_full_path() {
    let all = game();
    let (_, c) = verify_continue(&all[..6], None, None).expect("valid");
    // A known event missing from the record.
    assert!(c.append(&all[1..], None).is_none());
    // A new event whose author's previous event is not held (a gap in the chain).
    let mut gap = all[..6].to_vec();
    gap.push(all[7].clone());
    assert!(c.append(&gap, None).is_none());
    assert!(matches!(
        verify_continue(&gap, Some(&c), None),
        Err(VerifyError::BrokenChain { .. } | VerifyError::Missing { .. })
    ));
    let mut two = all.clone();
    two.push(all[0].clone());
    let (_, whole) = verify_continue(&all, None, None).expect("valid");
    assert!(
        whole.append(&two, None).is_some(),
        "a duplicate is no new event"
    );
}

#[test]
fn an_illegal_appended_event_fails_as_in_the_full_path() {
    let all = game();
    let (_, c) = verify_continue(&all[..4], None, None).expect("valid");
    // After 1.e4 and Black's receipt, White signs a second move out of turn (Art. 1.2:
    // the players move alternately).
    let w = Keypair::from_secret_bytes(&[1; 32]);
    let mut ws = Scoresheet::resume(w, all[0].id, 2, Some(all[2].id), Some(all[3].id));
    let bad =
        crate::notation::san::parse_san(&Position::new(), "d4", Lang::English).expect("legal");
    let ev = ws.play(bad, 1_800_000_005_000).expect("sign");
    let mut held = all[..4].to_vec();
    held.push(ev.verify().expect("valid"));
    let fast = c.append(&held, None).expect("fast path");
    let full = verify_incremental(&held, &[], None);
    assert!(fast.is_err());
    assert_eq!(fast.map(|_| ()), full.map(|_| ()));
    // In place: the same error, the half-applied checkpoint dropped, and the next call
    // replays the record from the start.
    let mut in_place = Some(c);
    let err = verify_extend(&held, &mut in_place, None).map(|_| ());
    assert_eq!(err, verify_incremental(&held, &[], None).map(|_| ()));
    assert!(in_place.is_none());
    let state = verify_extend(&all, &mut in_place, None).expect("valid");
    let full = verify_incremental(&all, &[], None).expect("valid");
    assert_eq!(format!("{state:?}"), format!("{full:?}"));
    assert_eq!(in_place.map(|c| c.order), Some(full.timeline));
}

#[test]
fn extending_in_place_gives_what_appending_gives() {
    let all = game();
    let (_, c) = verify_continue(&all[..4], None, None).expect("valid");
    let (appended, next) = c.append(&all, None).expect("fast path").expect("valid");
    let mut in_place = Some(c);
    let state = verify_extend(&all, &mut in_place, None).expect("valid");
    assert_eq!(format!("{state:?}"), format!("{appended:?}"));
    let c = in_place.expect("kept");
    assert_eq!(c.order, next.order);
    assert_eq!(c.tips, next.tips);
    assert_eq!(c.max_key, next.max_key);
    // A record that is not an extension (a known event missing) leaves it as it was.
    let before = c.order.clone();
    let mut in_place = Some(c);
    assert!(verify_extend(&all[1..], &mut in_place, None).is_err());
    assert_eq!(in_place.map(|c| c.order), Some(before));
}
