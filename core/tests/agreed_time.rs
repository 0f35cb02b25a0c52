//! Agreed time (protocol version 3, docs/time.md): the cases of the clocks issue written as
//! the records an archive would hold, each signed by a player whose node signs any time it
//! likes, or by two honest nodes that were never online together. Each test shows the honest
//! side winning under version 3; where protocol version 2 gave the wrong result, the same
//! record under version 2 shows it (archives keep the meaning they were signed under).

use crate::common::{T0, Table, key};
use sobre_core::clock::{DAY, HOUR, MINUTE, SECOND};
use sobre_core::record::author::Scoresheet;
use sobre_core::record::{
    Challenge, ClaimReason, ColourChoice, RuleViolation, SignedEvent, StartPosition, Status, Terms,
    VerifyError, verify,
};
use sobre_core::{Color, Outcome, Termination};

const W: Color = Color::White;
const B: Color = Color::Black;

/// `by`'s node receipts `of` at `at` (whatever the real time is).
fn receipt(t: &mut Table, by: Color, of: &SignedEvent, at: u64) {
    let sheet = &mut t.sheets[by.index()];
    sheet.saw(of.id());
    let r = sheet.receipt(of.id(), at).unwrap();
    t.events.push(r);
}

/// A keeper of time or a witness (any key but the players') receipts `of` at `at`.
fn countersign(t: &mut Table, keeper: &mut Scoresheet, of: &SignedEvent, at: u64) {
    t.events.push(keeper.receipt(of.id(), at).unwrap());
}

fn claim_time(t: &mut Table, by: Color, at: u64) {
    t.act_at(by, at, |s, at| s.claim(ClaimReason::Time, None, at));
}

/// Case 1: White plays e4 and switches the node off; Black answers two seconds later; White's
/// node comes back 65 s later (in a one-minute game) and claims. The receiver's absence is
/// not charged to the mover: the claim is incorrect, Black has the 58 s they did not use, and
/// White's clock ran from Black's move plus the transit allowance (10 s over the board).
#[test]
fn case_1_6_9_an_absent_receiver_costs_the_mover_at_most_the_allowance() {
    let play = |mut t: Table| {
        t.receipts = false;
        let e4 = t.mv_at(T0 + 2 * SECOND, "e4");
        receipt(&mut t, B, &e4, T0 + 2 * SECOND);
        let e5 = t.mv_at(T0 + 4 * SECOND, "e5");
        receipt(&mut t, W, &e5, T0 + 69 * SECOND);
        claim_time(&mut t, W, T0 + 69 * SECOND);
        t
    };
    let t = play(Table::on_terms("otb 1m", Terms::default()));
    let st = t.state();
    assert!(!st.claims[0].correct, "{}", st.claims[0].judgement);
    assert_eq!(st.status, Status::Active);
    let left = t.left(T0 + 69 * SECOND);
    assert_eq!(left[B.index()], 58_000, "Black used two seconds");
    // White: 1 s for e4 (from the acceptance's receipt), then from e5 + 10 s to the claim.
    assert_eq!(left[W.index()], 60_000 - 1_000 - 55_000);

    // Protocol version 2 charged the mover for the transit: Black lost on time.
    let old = play(Table::new("otb 1m")).state();
    assert!(old.claims[0].correct);
    assert_eq!(old.termination, Some(Termination::TimeForfeit));
}

/// Case 2: Black accepts a 3-days-per-move challenge with a node whose clock is four days
/// behind, and claims at once. The game starts when the acceptance reached White (never
/// before the challenge, never at the raw signed time): White is not flagged.
#[test]
fn case_2_a_back_dated_acceptance_does_not_flag_the_challenger() {
    let challenge = Challenge {
        opponent: key(2).player_id(),
        colour: ColourChoice::ChallengerWhite,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: None,
    };
    let (mut w, ch) =
        Scoresheet::challenge_on_terms(key(1), challenge, Terms::default(), T0).unwrap();
    let mut b = Scoresheet::join(key(2), w.game());
    b.saw(ch.id());
    let accept = b.accept(None, T0 - 4 * DAY).unwrap();
    w.saw(accept.id());
    let got = w.receipt(accept.id(), T0 + MINUTE).unwrap();
    b.saw(got.id());
    let claim = b.claim(ClaimReason::Time, None, T0 + 2 * MINUTE).unwrap();
    let st = verify(&[ch, accept, got, claim]).unwrap();
    assert_eq!(st.started_ms, Some(T0 + MINUTE));
    assert!(!st.claims[0].correct, "{}", st.claims[0].judgement);
    assert_eq!(st.status, Status::Active);
}

/// Case 7: Black's node runs 110 s ahead and dates its receipt of White's move so; in a
/// one-minute game that used to charge White 110 s. Now White's clock stops at the move and
/// Black's starts no later than the move plus the allowance: Black, who took 115 s of their
/// own clock, is the one out of time.
#[test]
fn case_7_a_receipt_dated_ahead_gains_the_receiver_at_most_the_allowance() {
    let mut t = Table::on_terms("otb 1m", Terms::default());
    t.receipts = false;
    let e4 = t.mv_at(T0 + 2 * SECOND, "e4");
    receipt(&mut t, B, &e4, T0 + 112 * SECOND);
    let e5 = t.mv_at(T0 + 117 * SECOND, "e5");
    receipt(&mut t, W, &e5, T0 + 7 * SECOND);
    claim_time(&mut t, W, T0 + 8 * SECOND);
    let st = t.state();
    assert!(st.claims[0].correct, "{}", st.claims[0].judgement);
    assert_eq!(st.result, Some(Outcome::Decisive { winner: W }));
}

fn with_timekeeper() -> (Table, Scoresheet) {
    let keeper = key(9);
    let terms = Terms {
        timekeepers: vec![keeper.player_id()],
        ..Terms::default()
    };
    let mut t = Table::on_terms("1d", terms);
    t.receipts = false;
    let mut mailbox = Scoresheet::join(keeper, t.sheets[0].game());
    let accept = t.events[1].clone();
    countersign(&mut t, &mut mailbox, &accept, T0 + SECOND);
    (t, mailbox)
}

/// Cases 5 and 6: with an agreed timekeeper (the club mailbox), each event counts at the
/// mailbox's receipt, for both players, whether or not they were online. Receipts by a key
/// only one side named (a witness, another mailbox) and the players' own receipts are kept
/// but are no evidence, so two honest nodes holding different ones agree on the clocks.
#[test]
fn case_5_6_only_the_agreed_timekeepers_receipts_are_clock_evidence() {
    let (mut t, mut mailbox) = with_timekeeper();
    let e4 = t.mv_at(T0 + 2 * SECOND, "e4");
    countersign(&mut t, &mut mailbox, &e4, T0 + 3 * SECOND);
    let e5 = t.mv_at(T0 + 4 * SECOND, "e5");
    countersign(&mut t, &mut mailbox, &e5, T0 + 6 * SECOND);
    let as_of = T0 + 7 * SECOND;
    let clocks = t.at(as_of).clocks.unwrap();
    // White: from the acceptance's receipt (1 s) to e4's (3 s); Black: to e5's (6 s); then
    // White's clock has run a second.
    assert_eq!(clocks.used_ms, [3_000, 3_000]);

    // Another node also holds a witness's receipt dated back (an organiser colluding with
    // White) and Black's own receipt dated two days late: the clocks are the same.
    let mut witness = Scoresheet::join(key(8), t.sheets[0].game());
    countersign(&mut t, &mut witness, &e5, T0 + 4 * SECOND);
    receipt(&mut t, W, &e5, T0 + 2 * DAY);
    let other = t.at(as_of);
    assert_eq!(other.clocks.unwrap().used_ms, clocks.used_ms);
    assert_eq!(other.moves[1].countersigned_ms, Some(T0 + 6 * SECOND));
}

/// Two players who are never online together, through the agreed mailbox: each move is
/// available to the other from the mailbox's receipt, so the one who vanishes loses on time
/// and the one who answered at once never does.
#[test]
fn a_correspondence_player_who_vanishes_loses_on_time_through_the_timekeeper() {
    let (mut t, mut mailbox) = with_timekeeper();
    // White moves in the morning, Black the next evening (the node was off all day).
    let e4 = t.mv_at(T0 + MINUTE, "e4");
    countersign(&mut t, &mut mailbox, &e4, T0 + MINUTE);
    let e5 = t.mv_at(T0 + DAY / 2, "e5");
    countersign(&mut t, &mut mailbox, &e5, T0 + DAY / 2);
    // White answers eight hours later, then Black vanishes.
    let nf3 = t.mv_at(T0 + DAY / 2 + 8 * 3_600_000, "Nf3");
    countersign(&mut t, &mut mailbox, &nf3, T0 + DAY / 2 + 8 * 3_600_000);
    let claim_at = T0 + 2 * DAY;
    t.act_at(W, claim_at, |s, at| s.claim(ClaimReason::Time, None, at));
    let claim = t.events.last().unwrap().clone();
    countersign(&mut t, &mut mailbox, &claim, claim_at);
    let st = t.state();
    assert!(st.claims[0].correct, "{}", st.claims[0].judgement);
    assert_eq!(st.result, Some(Outcome::Decisive { winner: W }));
    // A move no timekeeper has seen is not made yet: Black cannot slip one in dated back.
    assert_eq!(st.termination, Some(Termination::TimeForfeit));
}

/// A move the timekeeper has not received does not stop its mover's clock (as on a
/// correspondence server): a back-dated move delivered only to the opponent gains nothing.
#[test]
fn case_1_a_move_no_timekeeper_received_is_not_made_yet() {
    let (mut t, mut mailbox) = with_timekeeper();
    let e4 = t.mv_at(T0 + MINUTE, "e4");
    countersign(&mut t, &mut mailbox, &e4, T0 + MINUTE);
    // Black signs e5 dated an hour after e4, but only hands it to White two days later.
    t.mv_at(T0 + MINUTE + 3_600_000, "e5");
    let clocks = t.at(T0 + 2 * DAY).clocks.unwrap();
    assert_eq!(
        clocks.to_move, B,
        "e5 is not made until the mailbox holds it"
    );
    assert!(clocks.remaining_ms[B.index()] < 0);
}

/// Case 4 (A2.7, A10): the sealer names a resumption a minute after the sealing. Under agreed
/// terms it is postponed to the minimum notice after the seal reached the responder, so the
/// sealer's lateness claim at the minute plus the limit is incorrect.
#[test]
fn case_4_a10_a_resumption_without_notice_is_postponed() {
    let mut t = Table::on_terms("otb 2h", Terms::default());
    t.moves("e4 e5");
    let sealed_at = t.t + SECOND;
    t.seal_at(sealed_at, "Nf3", sealed_at + MINUTE);
    let st = t.state();
    let notice = Terms::default().min_notice_ms;
    assert_eq!(
        st.adjournment().unwrap().resume_at_ms,
        Some(sealed_at + notice)
    );
    let claim_at = sealed_at + MINUTE + crate::common::LIMIT + SECOND;
    t.act_at(W, claim_at - SECOND, |s, at| s.presence(at));
    t.act_at(W, claim_at, |s, at| {
        s.claim(ClaimReason::Lateness, None, at)
    });
    let st = t.state();
    assert!(!st.claims[0].correct, "{}", st.claims[0].judgement);
    assert_eq!(st.status, Status::Adjourned);
}

/// Case 4 (A10): under agreed terms the lateness limit is the terms', not the sealer's.
#[test]
fn case_4_a10_the_sealer_cannot_set_the_lateness_limit() {
    let mut t = Table::on_terms("otb 2h", Terms::default());
    t.moves("e4 e5");
    let at = t.t + SECOND;
    let mut env = t.envelope_at(at, at + DAY);
    env.lateness_limit_ms = 0;
    t.seal_with(at, "Nf3", env);
    let err = t.err();
    assert!(
        matches!(
            err.violation(),
            Some(RuleViolation::EnvelopeLateness { envelope_ms: 0, .. })
        ),
        "{err}"
    );
    assert!(matches!(err, VerifyError::Rule { .. }));
}

/// Case 3 (F1): the acceptor waits out the coin's opening deadline, accepts dated back to
/// just after the challenge and defaults at once, choosing the colours. With the club
/// mailbox as agreed timekeeper the deadline runs from when the mailbox received the
/// acceptance and the default counts when the mailbox received it: the early default is
/// refused, and the challenger's opening (made as soon as the acceptance reached her) stands.
#[test]
fn case_3_f1_a_back_dated_acceptance_cannot_bias_the_coin_through_the_timekeeper() {
    use sobre_core::record::verify::CoinSettlement;
    use sobre_core::record::{CoinColour, commit};
    let keeper = key(9);
    let secret = [7u8; 32];
    let challenge = Challenge {
        opponent: key(2).player_id(),
        colour: ColourChoice::Random,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: Some(commit::coin_commitment(&secret)),
        league: None,
    };
    let terms = Terms {
        timekeepers: vec![keeper.player_id()],
        ..Terms::default()
    };
    let (mut w, ch) = Scoresheet::challenge_on_terms(key(1), challenge, terms, T0).unwrap();
    let mut mailbox = Scoresheet::join(keeper, w.game());
    let stamp_ch = mailbox.receipt(ch.id(), T0).unwrap();
    let mut b = Scoresheet::join(key(2), w.game());
    b.saw(ch.id());
    // Two days later Black accepts, dated a second after the challenge, and at once
    // defaults dated just after the 24-hour deadline that back-dating would give.
    let real = T0 + 2 * DAY;
    let accept = b.accept(Some([8; 32]), T0 + SECOND).unwrap();
    let default = b
        .coin_default(Some(CoinColour::White), None, T0 + DAY + 2 * SECOND)
        .unwrap();
    let stamp_accept = mailbox.receipt(accept.id(), real).unwrap();
    let stamp_default = mailbox.receipt(default.id(), real + SECOND).unwrap();
    let record = [
        ch.clone(),
        stamp_ch,
        accept.clone(),
        default,
        stamp_accept,
        stamp_default,
    ];
    let err = verify(&record).unwrap_err();
    assert!(
        matches!(err.violation(), Some(RuleViolation::Coin(_))),
        "the early default is refused: {err}"
    );

    // The honest record: White's node opened the coin when the acceptance reached it.
    w.saw(accept.id());
    let open = w.random_reveal(secret, real).unwrap();
    let mut mailbox = Scoresheet::join(key(9), w.game());
    let stamps = [&ch, &accept, &open].map(|e| mailbox.receipt(e.id(), real).unwrap());
    let mut honest = vec![ch, accept, open];
    honest.extend(stamps);
    let st = verify(&honest).unwrap();
    assert!(matches!(
        st.coin.and_then(|c| c.settled),
        Some(CoinSettlement::Opened { .. })
    ));
    assert_eq!(st.started_ms, Some(real));
}

/// Case 3 (F1) without a timekeeper: an acceptor who back-dates the acceptance by two days
/// and defaults at once, while the challenger's node was off, does not take the draw. The
/// opening deadline runs from the challenger's own receipt of the acceptance; a challenger
/// who then withholds the opening still loses the draw a day later.
#[test]
fn case_3_f1_a_back_dated_acceptance_cannot_bias_the_coin_without_a_timekeeper() {
    use sobre_core::record::verify::CoinSettlement;
    use sobre_core::record::{CoinColour, commit};
    let secret = [7u8; 32];
    let challenge = Challenge {
        opponent: key(2).player_id(),
        colour: ColourChoice::Random,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: Some(commit::coin_commitment(&secret)),
        league: None,
    };
    let (mut w, ch) =
        Scoresheet::challenge_on_terms(key(1), challenge, Terms::default(), T0).unwrap();
    let mut b = Scoresheet::join(key(2), w.game());
    b.saw(ch.id());
    let real = T0 + 2 * DAY;
    let accept = b.accept(Some([8; 32]), T0 + SECOND).unwrap();
    // Past the deadline that back-dating would give (the acceptance's time, plus the 2-hour
    // allowance, plus the day to open).
    let default = b
        .coin_default(Some(CoinColour::White), None, T0 + DAY + 3 * HOUR)
        .unwrap();
    // Both reach White's node together when it comes back on, two days later.
    let got_accept = w.receipt(accept.id(), real).unwrap();
    let got_default = w.receipt(default.id(), real).unwrap();
    let attack = [
        ch.clone(),
        accept.clone(),
        default,
        got_accept.clone(),
        got_default,
    ];
    // Without White's receipt her time to open has not started: no default is valid.
    let unreceived = verify(&attack[..3]).unwrap_err();
    assert!(
        matches!(
            unreceived.violation(),
            Some(RuleViolation::Coin(
                sobre_core::rules::coin::CoinRule::NotReceived
            ))
        ),
        "{unreceived}"
    );
    let err = verify(&attack).unwrap_err();
    assert!(
        matches!(
            err.violation(),
            Some(RuleViolation::Coin(sobre_core::rules::coin::CoinRule::BeforeDeadline { deadline_ms }))
                if *deadline_ms == real + DAY
        ),
        "the early default is refused, the deadline a day after White's receipt: {err}"
    );

    // White withholds the opening: the default a day after her receipt stands.
    let mut b = Scoresheet::join(key(2), w.game());
    b.saw(ch.id());
    assert_eq!(
        b.accept(Some([8; 32]), T0 + SECOND).unwrap().id(),
        accept.id()
    );
    let late = b
        .coin_default(Some(CoinColour::White), None, real + DAY + SECOND)
        .unwrap();
    let st = verify(&[ch, accept, got_accept, late]).unwrap();
    assert!(matches!(
        st.coin.and_then(|c| c.settled),
        Some(CoinSettlement::Defaulted { .. })
    ));
}

/// Case 9 (6.9): a second time claim is judged again when the evidence of its time arrives
/// late. White claims too early (incorrect), then claims again with a clock a day ahead;
/// the mailbox's receipt of that claim, which dates it two hours after the last move,
/// arrives after the claim was judged. Continuing the verification from a checkpoint gives
/// what verifying the whole record gives: the second claim is incorrect too.
#[test]
fn case_9_6_9_a_later_timed_claim_is_judged_again_when_late_evidence_arrives() {
    use sobre_core::record::{VerifiedEvent, verify_continue};
    let (mut t, mut mailbox) = with_timekeeper();
    for (i, san) in ["e4", "e5", "Nf3"].into_iter().enumerate() {
        let at = T0 + (i as u64 + 1) * MINUTE;
        let e = t.mv_at(at, san);
        countersign(&mut t, &mut mailbox, &e, at);
    }
    let last_move = T0 + 3 * MINUTE;
    claim_time(&mut t, W, last_move + HOUR);
    let early = t.events.last().unwrap().clone();
    countersign(&mut t, &mut mailbox, &early, last_move + HOUR);
    claim_time(&mut t, W, last_move + DAY + HOUR);
    let ahead = t.events.last().unwrap().clone();
    let verified = |events: &[SignedEvent]| -> Vec<VerifiedEvent> {
        events.iter().map(|e| e.verify().unwrap()).collect()
    };
    let (judged, checkpoint) = verify_continue(&verified(&t.events), None, None).unwrap();
    assert!(judged.claims[1].correct, "judged at its own time, as yet");

    countersign(&mut t, &mut mailbox, &ahead, last_move + 2 * HOUR);
    let (again, _) = verify_continue(&verified(&t.events), Some(&checkpoint), None).unwrap();
    let whole = t.state();
    assert!(!whole.claims[1].correct, "{}", whole.claims[1].judgement);
    assert_eq!(again.claims, whole.claims);
    assert_eq!(again.status, Status::Active);
}

/// 9.1a: terms that allow no draw before move 2 refuse an offer on move 1, and take one once
/// each player has completed two moves.
#[test]
fn fide_9_1a_no_draw_before_the_agreed_move() {
    let terms = Terms {
        no_draw_before_move: 2,
        ..Terms::default()
    };
    let mut early = Table::on_terms("otb 2h", terms.clone());
    early.moves("e4 e5");
    early.act(W, |s, at| s.offer_draw(at));
    assert!(
        matches!(
            early.err().violation(),
            Some(RuleViolation::DrawTooEarly { move_number: 2 })
        ),
        "{}",
        early.err()
    );
    let mut t = Table::on_terms("otb 2h", terms);
    t.moves("e4 e5 Nf3 Nc6");
    t.act(W, |s, at| s.offer_draw(at));
    assert_eq!(t.state().draw_offer, Some(W));
}
