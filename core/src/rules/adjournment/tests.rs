//! The verdicts on sealing and opening (A1, A2.7, A7, A9c); the clocks, A8 and A10 are tested
//! beside their own verdicts.

use super::*;

const T: u64 = 1_800_000_000_000;
const HOUR: u64 = 3_600_000;
const W: Color = Color::White;
const B: Color = Color::Black;

#[test]
fn a2_7_resumption_time_must_follow_the_sealing() {
    assert_eq!(check_resumption_time(Some(T + 1), T), Ok(()));
    for r in [None, Some(T), Some(T - 1)] {
        assert_eq!(
            check_resumption_time(r, T),
            Err(AdjournmentRule::NoResumptionTime)
        );
    }
    assert_eq!(
        check_resumption_time(Some(T + MAX_ADJOURNMENT_MS), T),
        Ok(())
    );
    assert_eq!(
        check_resumption_time(Some(T + MAX_ADJOURNMENT_MS + 1), T),
        Err(AdjournmentRule::ResumptionTooFar)
    );
}

#[test]
fn a1_correspondence_games_are_not_sealed() {
    assert_eq!(
        check_sealing_allowed(true),
        Err(AdjournmentRule::Correspondence)
    );
    assert_eq!(check_sealing_allowed(false), Ok(()));
}

#[test]
fn a7_a2_7_opening_needs_the_responder_and_the_time_or_both_players() {
    let r = Some(T);
    assert_eq!(
        check_opening(r, T, true, false),
        Err(AdjournmentRule::ResponderAbsent)
    );
    assert_eq!(
        check_opening(r, T - 1, false, true),
        Err(AdjournmentRule::BeforeResumption)
    );
    assert_eq!(check_opening(r, T - 1, true, true), Ok(()));
    assert_eq!(check_opening(r, T, false, true), Ok(()));
    // A tag-10 envelope without a time: the responder's presence suffices (as before).
    assert_eq!(check_opening(None, T, false, true), Ok(()));
}

/// White sealed at T - 1 day for T (binding).
fn adjourned() -> Adjournment {
    Adjournment::new(W, 0, 3, T - 24 * HOUR, Some(T), HOUR, true, [None, None])
}

#[test]
fn a7_a_presence_before_the_sealing_does_not_count_for_a_binding_seal() {
    // The game's presences from an earlier resumption say nothing about this one.
    let a = Adjournment::new(W, 0, 3, T - HOUR, Some(T), HOUR, true, [Some(1), Some(2)]);
    assert_eq!(a.arrived_ms, [None, None]);
    assert_eq!(a.check_opening(W, T), Err(AdjournmentRule::ResponderAbsent));
    // A tag-10 seal keeps the game's first presence (the meaning it was signed under).
    let a = Adjournment::new(W, 0, 3, T - HOUR, Some(T), HOUR, false, [Some(1), Some(2)]);
    assert_eq!(a.check_opening(W, T - 2 * HOUR), Ok(Some(Sealed::Move)));
}

#[test]
fn a7_only_the_sealer_opens_with_the_responder_present() {
    let mut a = adjourned();
    a.record_presence(B, T - HOUR);
    assert_eq!(a.check_opening(B, T), Err(AdjournmentRule::NotTheSealer));
    assert_eq!(
        a.check_opening(W, T - 1),
        Err(AdjournmentRule::BeforeResumption)
    );
    assert_eq!(a.check_opening(W, T), Ok(Some(Sealed::Move)));
    a.record_opening(T);
    assert_eq!(a.closed(), None);
    assert_eq!(a.check_opening(W, T), Ok(None));
}

#[test]
fn a9_c_a_reply_only_after_the_opening_while_the_sealer_is_absent() {
    let mut a = adjourned();
    a.record_presence(B, T);
    assert_eq!(
        a.check_reply(W, 3),
        Err(AdjournmentRule::ReplyOnlyByResponder)
    );
    assert_eq!(
        a.check_reply(B, 2),
        Err(AdjournmentRule::ReplyBeforeOpening),
        "the responder sees the sealed move first"
    );
    a.record_opening(T);
    assert_eq!(a.check_reply(B, 4), Err(AdjournmentRule::ReplyAfterAnswer));
    assert_eq!(a.check_reply(B, 3), Ok(()));
    let mut present = a.clone();
    present.record_presence(W, T + 1);
    assert_eq!(
        present.check_reply(B, 3),
        Err(AdjournmentRule::SealerPresent)
    );
    a.reply = Some(Reply {
        envelope: 1,
        ply: 4,
        sealed_at_ms: T + 1,
        opened_ms: None,
    });
    assert_eq!(
        a.check_reply(B, 3),
        Err(AdjournmentRule::ReplyAlreadySealed)
    );
    assert_eq!(a.check_reply_envelope(Some(T), HOUR), Ok(()));
    assert_eq!(
        a.check_reply_envelope(Some(T + 1), HOUR),
        Err(AdjournmentRule::ReplyResumption)
    );
}

#[test]
fn a9_c_the_reply_opens_when_the_absent_sealer_arrives() {
    let mut a = adjourned();
    a.record_presence(B, T);
    a.record_opening(T);
    a.reply = Some(Reply {
        envelope: 1,
        ply: 4,
        sealed_at_ms: T + 1,
        opened_ms: None,
    });
    assert_eq!(a.closed(), Some(Sealed::Reply));
    assert_eq!(a.envelope_of(Sealed::Reply), Some(1));
    assert_eq!(
        a.check_opening(W, T + 2),
        Err(AdjournmentRule::NotTheSealer)
    );
    assert_eq!(
        a.check_opening(B, T + 2),
        Err(AdjournmentRule::SealerNotArrived)
    );
    a.record_presence(W, T + 3);
    assert_eq!(a.check_opening(B, T + 3), Ok(Some(Sealed::Reply)));
    a.record_opening(T + 4);
    assert_eq!(a.reply.as_ref().and_then(|r| r.opened_ms), Some(T + 4));
    assert_eq!(a.closed(), None);
}
