//! The time rule (docs/time.md, "Protocol version 2: the first countersignature"):
//! under protocol version 2 a move counts as made when it was first countersigned,
//! a time claim (FIDE 6.9) is judged no later than its first countersignature, and an event's
//! time is bounded below by the events it refers to. Each attack of a player whose node signs
//! any time it likes is a test here, written as the record an archive would hold; the same
//! record signed under protocol version 1 keeps its old meaning.

use sobre_core::clock::{DAY, HOUR, MINUTE, SECOND};
use sobre_core::record::author::Scoresheet;
use sobre_core::record::verify::Judgement;
use sobre_core::record::{
    Challenge, ClaimReason, ColourChoice, GameState, SignedEvent, StartPosition, Status,
    VerifiedEvent, verify, verify_continue,
};
use sobre_core::san::{Lang, parse_san};
use sobre_core::test_support::{T0, key};
use sobre_core::{Color, Outcome, Position, Termination};

const W: Color = Color::White;
const B: Color = Color::Black;

/// A game between White (key 1, the challenger) and Black (key 2), with a club mailbox
/// (key 9) as a witness that signs receipts. Nobody sees anything unless the test says so:
/// delivery is explicit, as on a network where a player's node may hold a move back.
struct Record {
    sheets: [Scoresheet; 2],
    witness: Scoresheet,
    events: Vec<SignedEvent>,
    pos: Position,
}

impl Record {
    fn new(tc: &str, version: u16) -> Record {
        let challenge = Challenge {
            opponent: key(2).player_id(),
            colour: ColourChoice::ChallengerWhite,
            time_control: tc.into(),
            start: StartPosition::Standard,
            coin_commitment: None,
            league: None,
        };
        let (w, ch) = Scoresheet::challenge_under(key(1), challenge, T0, version).unwrap();
        let game = w.game();
        let mut b = Scoresheet::join(key(2), game);
        b.saw(ch.id());
        let accept = b.accept(None, T0 + SECOND).unwrap();
        let mut r = Record {
            sheets: [w, b],
            witness: Scoresheet::join(key(9), game),
            events: vec![ch, accept.clone()],
            pos: Position::new(),
        };
        r.sheets[0].saw(accept.id());
        r
    }

    /// `side` plays `san`, signing the time `at` (whatever the real time is).
    fn mv(&mut self, side: Color, san: &str, at: u64) -> SignedEvent {
        let m = parse_san(&self.pos, san, Lang::English).unwrap();
        assert_eq!(self.pos.turn(), side);
        self.pos.play_unchecked(m);
        let e = self.sheets[side.index()].play(m, at).unwrap();
        self.events.push(e.clone());
        e
    }

    /// `side`'s node receives `e` and signs its receipt at `at` (it then sees `e`).
    fn receive(&mut self, side: Color, e: &SignedEvent, at: u64) -> SignedEvent {
        let sheet = &mut self.sheets[side.index()];
        sheet.saw(e.id());
        let r = sheet.receipt(e.id(), at).unwrap();
        self.events.push(r.clone());
        r
    }

    /// The club mailbox holds `e` first at `at`, and countersigns it.
    fn witness(&mut self, e: &SignedEvent, at: u64) {
        let r = self.witness.receipt(e.id(), at).unwrap();
        self.events.push(r);
    }

    fn claim(&mut self, side: Color, reason: ClaimReason, at: u64) -> SignedEvent {
        let e = self.sheets[side.index()].claim(reason, None, at).unwrap();
        self.events.push(e.clone());
        e
    }

    fn state(&self) -> GameState {
        verify(&self.events).unwrap()
    }
}

fn left(st: &GameState, side: Color) -> i64 {
    st.clocks.as_ref().unwrap().remaining_ms[side.index()]
}

/// Attack: a node whose clock runs four days ahead claims a win on time (6.9) right after the
/// opponent's move reached them. The club mailbox held the claim at the real time: the claim
/// is judged then, and it is incorrect.
#[test]
fn time_attack_forward_dated_claim_is_judged_at_its_first_countersignature() {
    for witnessed in [true, false] {
        let mut r = Record::new("3d", 2);
        let e4 = r.mv(W, "e4", T0 + MINUTE);
        let got = r.receive(B, &e4, T0 + MINUTE + SECOND);
        r.sheets[0].saw(got.id());
        let claim = r.claim(W, ClaimReason::Time, T0 + 4 * DAY);
        if witnessed {
            r.witness(&claim, T0 + HOUR);
        }
        let st = r.state();
        if witnessed {
            assert_eq!(st.status, Status::Active, "{:?}", st.claims);
            assert!(!st.claims[0].correct);
            assert!(
                matches!(
                    st.claims[0].judgement,
                    sobre_core::record::verify::Judgement::TimeNotRunOut { .. }
                ),
                "{}",
                st.claims[0].judgement
            );
        } else {
            // With no countersignature the archive has only the claimant's word; the honest
            // node refused this claim on arrival (tests/fair_play_time.rs), so it never
            // enters the opponent's record.
            assert_eq!(st.termination, Some(Termination::TimeForfeit));
        }
    }
}

/// Attack (the mirror of the one above): the flagged player's node dates its receipt of a
/// correct time claim (6.9) a day back, so that the claim would be judged before the flag
/// fell. The opponent gains by an early verdict, so their countersignature moves it back by
/// at most the tolerated skew: the claim stands, in the archive they assemble too. (Their
/// honest node never signs such a receipt; the claimant's refuses it on arrival.)
#[test]
fn time_attack_backdated_receipt_of_a_correct_claim_cannot_make_it_incorrect() {
    for receipt_at in [
        T0 + HOUR,
        T0 + 4 * DAY - sobre_core::record::time::MAX_CLOCK_SKEW_MS,
    ] {
        let mut r = Record::new("3d", 2);
        let e4 = r.mv(W, "e4", T0 + MINUTE);
        let got = r.receive(B, &e4, T0 + MINUTE + SECOND);
        r.sheets[0].saw(got.id());
        let claim = r.claim(W, ClaimReason::Time, T0 + 4 * DAY);
        r.receive(B, &claim, receipt_at);
        let st = r.state();
        assert!(st.claims[0].correct, "{}", st.claims[0].judgement);
        assert_eq!(st.termination, Some(Termination::TimeForfeit));
        assert_eq!(st.result, Some(Outcome::Decisive { winner: W }));
    }
}

/// Attack: the receiver signs its receipt a month ahead, to charge the mover for a month.
/// The mailbox's receipt, earlier, is the move's first countersignature.
#[test]
fn time_attack_forward_dated_receipt_is_bounded_by_the_first_countersignature() {
    let mut r = Record::new("3d", 2);
    let e4 = r.mv(W, "e4", T0 + MINUTE);
    r.witness(&e4, T0 + 2 * MINUTE);
    r.receive(B, &e4, T0 + 30 * DAY);
    let st = r.state();
    assert_eq!(st.moves[0].countersigned_ms, Some(T0 + 2 * MINUTE));
    let clocks = sobre_core::record::verify_at(&r.events, Some(T0 + DAY))
        .unwrap()
        .clocks
        .unwrap();
    // White paid for the minute of transit to the mailbox, not for a month.
    assert_eq!(clocks.used_ms[W.index()], 2 * MINUTE - SECOND);
    assert_eq!(clocks.to_move, B);
    assert_eq!(clocks.flagged, None);
}

/// Attack: Black signs his move dated inside his three days but delivers it the day after his
/// flag fell. White's node receipts it on arrival: the move counts from then, and White's
/// time claim wins. Under protocol version 1 the same record (signed by older nodes) keeps
/// its meaning: the signed time counted, and the claim was incorrect.
#[test]
fn time_attack_back_dated_move_delivered_late_pays_for_transit() {
    for version in [2, 1] {
        let mut r = Record::new("3d", version);
        let e4 = r.mv(W, "e4", T0 + MINUTE);
        r.receive(B, &e4, T0 + MINUTE + SECOND);
        let e5 = r.mv(B, "e5", T0 + 2 * DAY);
        r.receive(W, &e5, T0 + 4 * DAY);
        r.claim(W, ClaimReason::Time, T0 + 4 * DAY + SECOND);
        let st = r.state();
        if version == 2 {
            assert_eq!(st.moves[1].countersigned_ms, Some(T0 + 4 * DAY));
            assert_eq!(st.result, Some(Outcome::Decisive { winner: W }));
            assert_eq!(st.termination, Some(Termination::TimeForfeit));
        } else {
            assert_eq!(st.status, Status::Active);
            assert!(!st.claims[0].correct);
        }
    }
}

/// Attack: after White's correct time claim, Black delivers a move dated before his flag fell
/// that does not answer the claim. It is ordered before the claim by its signed time, but it
/// counts from White's receipt, after the claim: the game stays finished and the move is kept
/// as evidence. The incremental paths (a node adding the move, then its receipt) agree.
#[test]
fn time_attack_late_event_does_not_reopen_a_finished_game() {
    let mut r = Record::new("3d", 2);
    let e4 = r.mv(W, "e4", T0 + MINUTE);
    r.receive(B, &e4, T0 + MINUTE + SECOND);
    r.claim(W, ClaimReason::Time, T0 + 3 * DAY + HOUR);
    let finished = r.events.len();
    let st = r.state();
    assert_eq!(st.result, Some(Outcome::Decisive { winner: W }));
    // Black's node never saw the claim; it signs a move "two days" in.
    let e5 = r.mv(B, "e5", T0 + 2 * DAY);
    let after_move = r.events.len();
    r.receive(W, &e5, T0 + 3 * DAY + 2 * HOUR);
    let st = r.state();
    assert_eq!(st.status, Status::Finished);
    assert_eq!(st.result, Some(Outcome::Decisive { winner: W }));
    assert_eq!(st.termination, Some(Termination::TimeForfeit));
    assert!(
        st.ignored
            .iter()
            .any(|(id, why)| *id == e5.id() && why.contains("kept as evidence")),
        "{:?}",
        st.ignored
    );
    // A node: the finished game, then the late move, then its own receipt.
    let checked: Vec<VerifiedEvent> = r.events.iter().map(|e| e.verify().unwrap()).collect();
    let (_, cp) = verify_continue(&checked[..finished], None, None).unwrap();
    let (_, cp) = verify_continue(&checked[..after_move], Some(&cp), None).unwrap();
    let (inc, _) = verify_continue(&checked, Some(&cp), None).unwrap();
    assert_eq!(inc.result, st.result);
    assert_eq!(inc.status, st.status);
    assert_eq!(inc.timeline, st.timeline);
}

/// Attack: Black's node never receipts White's move and, pretending never to have had it,
/// claims White's time. White's move stands at its signed time (nothing countersigned it
/// later): White is not late, and the claim is incorrect. (A claim that *saw* the move would
/// countersign it at the claim's time: that case is refused by the mover's node, which saw
/// its delivery answered without a receipt — node/tests/hostile.rs.)
#[test]
fn time_attack_refused_receipt_gains_nothing() {
    let mut r = Record::new("3d", 2);
    let e4 = r.mv(W, "e4", T0 + MINUTE);
    r.receive(B, &e4, T0 + MINUTE + SECOND);
    let e5 = r.mv(B, "e5", T0 + DAY);
    r.receive(W, &e5, T0 + DAY + SECOND);
    r.mv(W, "Nf3", T0 + DAY + HOUR);
    // No receipt of Nf3; four days later Black claims White's time.
    r.claim(B, ClaimReason::Time, T0 + 5 * DAY);
    let st = r.state();
    assert_eq!(st.status, Status::Active, "{:?}", st.claims);
    assert!(!st.claims[0].correct);
}

/// An event's time is bounded below by the events it refers to: a reply dated before the
/// move it answers, and a receipt dated before the move it receipts, count from that move.
#[test]
fn time_prev_and_seen_bound_an_events_time_below() {
    let mut r = Record::new("3d", 2);
    let e4 = r.mv(W, "e4", T0 + DAY);
    r.receive(B, &e4, T0 + MINUTE);
    r.mv(B, "e5", T0 + 2 * MINUTE);
    let st = r.state();
    assert_eq!(st.moves[0].countersigned_ms, Some(T0 + MINUTE));
    let clocks = st.clocks.clone().unwrap();
    // White's move counts at its own time (a day in); Black's reply no earlier.
    assert_eq!(clocks.used_ms[B.index()], 0);
    assert_eq!(clocks.used_ms[W.index()], DAY - SECOND);
    assert_eq!(left(&st, W), (3 * DAY) as i64);
}

/// FIDE 9.5b (2009, seed 003): an incorrect draw claim gives the opponent three minutes; 9.1b.3
/// (9.1c in 2005): the claim stands as the claimant's draw offer.
#[test]
fn fide_9_5b_2009_incorrect_claim_gives_the_opponent_three_minutes_and_offers_a_draw() {
    let mut r = Record::new("90m", 2);
    let e4 = r.mv(W, "e4", T0 + MINUTE);
    r.receive(B, &e4, T0 + MINUTE);
    let e5 = r.mv(B, "e5", T0 + 2 * MINUTE);
    r.receive(W, &e5, T0 + 2 * MINUTE);
    let before = r.state();
    r.claim(W, ClaimReason::Threefold, T0 + 3 * MINUTE);
    let st = r.state();
    assert!(!st.claims[0].correct);
    assert_eq!(st.draw_offer, Some(W));
    let at = T0 + 4 * MINUTE;
    let was = sobre_core::record::verify_at(&r.events[..r.events.len() - 1], Some(at)).unwrap();
    let now = sobre_core::record::verify_at(&r.events, Some(at)).unwrap();
    assert_eq!(
        left(&now, B) - left(&was, B),
        (3 * MINUTE) as i64,
        "{before:?}"
    );
    assert_eq!(left(&now, W), left(&was, W));
}

/// FIDE 6.8 with 6.9: under a control with periods a flag that fell stays fallen when the
/// next period's time is added, and the opponent may claim it until they move.
#[test]
fn fide_6_8_a_fallen_flag_stays_fallen_across_periods() {
    let mut r = Record::new("1/2m:60m", 2);
    let e4 = r.mv(W, "e4", T0 + 3 * MINUTE);
    r.receive(B, &e4, T0 + 3 * MINUTE);
    let st = r.state();
    assert!(left(&st, W) > 0, "the second period was added");
    r.sheets[1].saw(e4.id());
    r.claim(B, ClaimReason::Time, T0 + 3 * MINUTE + SECOND);
    let st = r.state();
    assert_eq!(
        st.result,
        Some(Outcome::Decisive { winner: B }),
        "{:?}",
        st.claims
    );
}

/// Attack: Black, whose flag fell, signs a week's leave dated — signature and all — two days
/// back, to stop his clock before it fell. The leave counts from White's receipt, so it
/// starts only then (less the skew), after the flag fell; White's time claim wins.
#[test]
fn time_attack_back_dated_leave_is_bounded_by_its_countersignature() {
    let mut r = Record::new("3d", 2);
    let e4 = r.mv(W, "e4", T0 + MINUTE);
    r.receive(B, &e4, T0 + MINUTE + SECOND);
    let leave = r.sheets[1]
        .leave(T0 + 2 * DAY, T0 + 9 * DAY, T0 + 2 * DAY)
        .unwrap();
    r.events.push(leave.clone());
    let before_receipt = r.state();
    assert_eq!(
        before_receipt.leave[0].1.from_ms,
        T0 + 2 * DAY,
        "alone, its signature is all there is"
    );
    r.receive(W, &leave, T0 + 4 * DAY);
    r.claim(W, ClaimReason::Time, T0 + 4 * DAY + SECOND);
    let st = r.state();
    assert_eq!(
        st.leave[0].1.from_ms,
        T0 + 4 * DAY - sobre_core::record::time::MAX_CLOCK_SKEW_MS
    );
    assert_eq!(
        st.termination,
        Some(Termination::TimeForfeit),
        "{:?}",
        st.claims
    );
}

/// Each overstep is its own flag fall (FIDE 6.1), standing until the opponent plays on (6.8).
/// `side` moves `san` at `at`, and the opponent's node receipts it a second later (the other
/// node then sees the receipt).
fn exchange(r: &mut Record, side: Color, san: &str, at: u64) {
    let e = r.mv(side, san, at);
    let got = r.receive(!side, &e, at + SECOND);
    r.sheets[side.index()].saw(got.id());
}

/// FIDE 6.8 with 6.9: Black oversteps once and White plays on without claiming (waiving that
/// fall); ten days later Black vanishes and oversteps again. The later overstep is a new
/// fall, and White's claim is correct (it used to be refused: "the claim window has closed").
#[test]
fn fide_6_8_a_later_overstep_can_be_claimed_after_playing_on() {
    let mut r = Record::new("3d", 2);
    exchange(&mut r, W, "e4", T0 + MINUTE);
    // Black answers a day late.
    exchange(&mut r, B, "e5", T0 + 4 * DAY);
    exchange(&mut r, W, "Nf3", T0 + 4 * DAY + HOUR);
    let st = r.state();
    let clocks = st.clocks.as_ref().unwrap();
    assert_eq!(clocks.flagged, None, "White played on: {clocks:?}");
    assert_eq!(clocks.oversteps.len(), 1);
    assert_eq!(
        clocks.oversteps[0].waived_at_ms,
        Some(T0 + 4 * DAY + HOUR + SECOND)
    );
    // Black never answers Nf3; White claims ten days later.
    r.claim(W, ClaimReason::Time, T0 + 14 * DAY);
    let st = r.state();
    assert!(st.claims[0].correct, "{}", st.claims[0].judgement);
    assert_eq!(st.termination, Some(Termination::TimeForfeit));
    assert_eq!(st.result, Some(Outcome::Decisive { winner: W }));
}

/// FIDE 6.9 with 6.8 and 6.11: White was once late himself, and Black played on (waiving
/// that fall); later Black oversteps. White's old fall no longer stands, so it does not
/// come first: White's claim is correct (it used to be refused: "own flag fell first").
#[test]
fn fide_6_9_a_claimant_once_late_himself_can_claim_a_later_overstep() {
    let mut r = Record::new("3d", 2);
    // White's first move comes a day late.
    exchange(&mut r, W, "e4", T0 + 4 * DAY);
    exchange(&mut r, B, "e5", T0 + 4 * DAY + HOUR);
    exchange(&mut r, W, "Nf3", T0 + 4 * DAY + 2 * HOUR);
    // Black never answers; White claims.
    r.claim(W, ClaimReason::Time, T0 + 10 * DAY);
    let st = r.state();
    assert!(st.claims[0].correct, "{}", st.claims[0].judgement);
    assert_eq!(st.result, Some(Outcome::Decisive { winner: W }));
}

/// FIDE 6.8 with 6.9, over the board: White's flag falls, White moves, Black plays on
/// (waiving that fall); White's clock is still down when his turn starts again, which is a
/// new fall. An hour later Black claims it: correct (it used to be refused: "the claim window
/// has closed").
#[test]
fn fide_6_8_otb_flag_still_down_an_hour_later_can_be_claimed() {
    let mut r = Record::new("otb 5m", 2);
    exchange(&mut r, W, "e4", T0 + 6 * MINUTE);
    exchange(&mut r, B, "e5", T0 + 6 * MINUTE + 10 * SECOND);
    r.claim(B, ClaimReason::Time, T0 + 66 * MINUTE);
    let st = r.state();
    assert!(st.claims[0].correct, "{}", st.claims[0].judgement);
    assert_eq!(st.termination, Some(Termination::TimeForfeit));
    assert_eq!(st.result, Some(Outcome::Decisive { winner: B }));
}

/// FIDE 6.11 (2009) / 6.12 (2005): both flags fall and both falls stand (nobody played on
/// after the other's): the order is established by the signed clocks, and the first decides.
/// White, whose fall came first, claims in vain; Black's claim is correct.
#[test]
fn fide_6_11_the_first_standing_fall_decides() {
    let mut r = Record::new("3d", 2);
    // White's first move comes a day late; Black, on move, lets his own three days run out.
    exchange(&mut r, W, "e4", T0 + 4 * DAY);
    let white_claim = r.claim(W, ClaimReason::Time, T0 + 8 * DAY);
    r.sheets[1].saw(white_claim.id());
    r.claim(B, ClaimReason::Time, T0 + 8 * DAY + SECOND);
    let st = r.state();
    assert!(!st.claims[0].correct);
    assert_eq!(
        st.claims[0].judgement,
        Judgement::ClaimantFellFirst { claimant: W }
    );
    assert!(st.claims[1].correct, "{}", st.claims[1].judgement);
    assert_eq!(st.termination, Some(Termination::TimeForfeit));
    assert_eq!(st.result, Some(Outcome::Decisive { winner: B }));
}
