//! FIDE Art. 10.2 (2005, seed 002; 2009, seed 003) and Appendix D on signed records: a draw
//! claimed in a quickplay finish (wire tag 25), decided by the agreed arbiter's signed ruling
//! (tag 26).
//!
//! "Si al jugador a quien le toca mover le quedan menos de dos minutos en su reloj, puede
//! reclamar tablas antes de que caiga su bandera. Requerirá la presencia del árbitro y podrá
//! parar los relojes" (2009; 2005: "Parará los relojes"). The arbiter draws (a), postpones
//! (b: the game goes on, and a later draw stands "después de que una bandera haya caído") or
//! rejects (c: two minutes more for the opponent); the decision is final (d).
//!
//! With the attacks: a claim dated back to before the flag fell, a claim delivered twice, a
//! stranger's key or a player ruling, a ruling on a claim the arbiter had not received, a
//! second ruling after a final one.

use crate::common::{T0, Table, key};
use sobre_core::clock::{MINUTE, SECOND};
use sobre_core::record::author::Scoresheet;
use sobre_core::record::codec::CodecError;
use sobre_core::record::{
    ClaimReason, EventId, PlayerId, QuickplayRuling, RuleViolation as V, SignedEvent, Status,
    Terms, TermsEdition, VerifyError, verify,
};
use sobre_core::rules::quickplay::QuickplayRule as Q;
use sobre_core::{Color, Outcome, Termination};

const W: Color = Color::White;
const B: Color = Color::Black;
/// When the game starts: the acceptance, one second after the challenge.
const START: u64 = T0 + SECOND;

fn arbiter() -> PlayerId {
    key(3).player_id()
}

fn terms(edition: TermsEdition, with_arbiter: bool) -> Terms {
    Terms {
        arbiter: with_arbiter.then(arbiter),
        edition,
        ..Terms::default()
    }
}

/// A game under `tc` in which White thinks until 90 s are left, plays 1.e4, and Black
/// answers at once: White is to move with 90 s on the clock (the acceptance, e4 and e5 reach
/// the other player at once, receipted).
fn low_on_time(tc: &str, terms: Terms) -> Table {
    let mut t = Table::on_terms(tc, terms);
    let total: u64 = tc
        .trim_start_matches("otb ")
        .trim_end_matches('m')
        .parse::<u64>()
        .unwrap()
        * MINUTE;
    t.mv_at(START + total - 90 * SECOND, "e4");
    t.mv_at(t.t, "e5");
    t
}

/// The usual case: a twenty-minute game over the board under 2009 with an agreed arbiter.
fn quickplay() -> Table {
    low_on_time("otb 20m", terms(TermsEdition::Fide2009, true))
}

/// White claims at `at` (tag 25).
fn claim(t: &mut Table, at: u64) -> SignedEvent {
    t.act_at(W, at, |s, tm| s.quickplay_claim(tm))
}

/// White claims `d` after the last event.
fn claim_after(t: &mut Table, d: u64) -> SignedEvent {
    let at = t.t + d;
    claim(t, at)
}

/// The arbiter rules on `on`, `d` after the last event.
fn rule_after(t: &mut Table, on: &SignedEvent, ruling: QuickplayRuling, d: u64) -> SignedEvent {
    let at = t.t + d;
    rule(t, on, ruling, at)
}

/// Key `n` (3 is the arbiter) signs at `at` from a log that has seen `seen`; both players
/// see the event.
fn third(
    t: &mut Table,
    n: u8,
    seen: EventId,
    at: u64,
    f: impl FnOnce(&mut Scoresheet, u64) -> Result<SignedEvent, CodecError>,
) -> SignedEvent {
    let mut sheet = Scoresheet::join(key(n), t.sheets[0].game());
    sheet.saw(seen);
    let ev = f(&mut sheet, at).unwrap();
    t.t = at;
    for s in &mut t.sheets {
        s.saw(ev.id());
    }
    t.events.push(ev.clone());
    ev
}

/// The arbiter's ruling on `on` at `at`, continuing the arbiter's log in the record (after
/// seeing the claim).
fn rule(t: &mut Table, on: &SignedEvent, ruling: QuickplayRuling, at: u64) -> SignedEvent {
    let arb = key(3);
    let mine: Vec<&SignedEvent> = t
        .events
        .iter()
        .filter(|e| e.verify().is_ok_and(|v| v.event.author == arbiter()))
        .collect();
    let mut sheet = Scoresheet::resume(
        arb,
        t.sheets[0].game(),
        mine.len() as u64,
        mine.last().map(|e| e.id()),
        None,
    );
    sheet.saw(on.id());
    let ev = sheet.rule_quickplay(on.id(), ruling, at).unwrap();
    t.t = at;
    for s in &mut t.sheets {
        s.saw(ev.id());
    }
    t.events.push(ev.clone());
    ev
}

fn violation(e: &VerifyError) -> &V {
    e.violation()
        .unwrap_or_else(|| panic!("expected a rule error, got {e}"))
}

// 10.2: the claim.

/// 10.2: White, to move with 90 s left, claims: the clocks stand still until the arbiter
/// rules, and the claim stands as a draw offer (9.1b.3 of 2009).
#[test]
fn art_10_2_a_claim_stops_the_clocks_until_the_arbiter_rules() {
    let mut t = quickplay();
    let at = t.t + SECOND;
    let c = claim(&mut t, at);
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    let record = st.open_quickplay_claim().expect("open");
    assert_eq!((record.by, record.event), (W, c.id()));
    assert_eq!(record.remaining_ms, 89_000);
    assert!(record.awaiting());
    assert_eq!(st.draw_offer, Some(W), "9.1b: a 10.2 claim is a draw offer");
    // An hour later nobody's clock has moved: the game waits for the arbiter.
    assert_eq!(t.left(at + 60 * MINUTE)[W.index()], 89_000);
    // And White may not play on meanwhile.
    t.mv_at(at + MINUTE, "Nf3");
    assert_eq!(*violation(&t.err()), V::Quickplay(Q::AwaitingRuling));
}

/// 10.2a: the arbiter agrees: the game is drawn, with 10.2's termination.
#[test]
fn art_10_2a_the_arbiter_declares_the_game_drawn() {
    let mut t = quickplay();
    let c = claim_after(&mut t, SECOND);
    rule_after(&mut t, &c, QuickplayRuling::Draw, 5 * MINUTE);
    let st = t.state();
    assert_eq!(st.status, Status::Finished);
    assert_eq!(st.result, Some(Outcome::Draw));
    assert_eq!(st.termination, Some(Termination::QuickplayDraw));
    assert_eq!(
        st.quickplay_claims[0].decision(),
        Some(QuickplayRuling::Draw)
    );
    assert!(st.open_quickplay_claim().is_none());
}

/// 10.2c: the arbiter rejects the claim: Black gets two minutes more, the clocks restart at
/// the ruling, and White, still under two minutes, may claim again.
#[test]
fn art_10_2c_a_rejection_gives_the_opponent_two_minutes_and_restarts_the_clocks() {
    let mut t = quickplay();
    let before = t.left(t.t)[B.index()];
    let c = claim_after(&mut t, SECOND);
    let ruled = t.t + 5 * MINUTE;
    rule(&mut t, &c, QuickplayRuling::Reject, ruled);
    let left = t.left(ruled + 10 * SECOND);
    assert_eq!(left[B.index()], before + 2 * MINUTE as i64);
    assert_eq!(left[W.index()], 89_000 - 10_000, "White's clock runs again");
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(
        st.quickplay_claims[0].decision(),
        Some(QuickplayRuling::Reject)
    );
    // A second claim, drawn.
    let again = claim(&mut t, ruled + 20 * SECOND);
    rule(&mut t, &again, QuickplayRuling::Draw, ruled + MINUTE);
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::QuickplayDraw));
    assert_eq!(st.quickplay_claims.len(), 2);
}

/// 10.2b: the arbiter postpones with two extra minutes for Black; the game goes on, White's
/// flag falls and Black wins on time (6.9) — then the arbiter declares the draw: it stands
/// ("después de que una bandera haya caído").
#[test]
fn art_10_2b_a_postponed_draw_stands_after_the_flag_fell() {
    let mut t = quickplay();
    let c = claim_after(&mut t, SECOND);
    let ruled = t.t + MINUTE;
    let black_before = t.left(ruled)[B.index()];
    rule(
        &mut t,
        &c,
        QuickplayRuling::Postpone { extra_time: true },
        ruled,
    );
    assert_eq!(
        t.left(ruled + SECOND)[B.index()],
        black_before + 2 * MINUTE as i64
    );
    let st = t.state();
    assert!(st.quickplay_claims[0].postponed());
    // White plays on, Black answers, White lets the flag fall and Black claims.
    t.mv_at(ruled + SECOND, "Nf3");
    t.mv_at(ruled + 2 * SECOND, "Nc6");
    let flag = ruled + 3 * MINUTE;
    t.act_at(B, flag, |s, tm| s.claim(ClaimReason::Time, None, tm));
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::TimeForfeit));
    rule(&mut t, &c, QuickplayRuling::Draw, flag + MINUTE);
    let st = t.state();
    assert_eq!(st.result, Some(Outcome::Draw));
    assert_eq!(st.termination, Some(Termination::QuickplayDraw));
}

/// 10.2b: a postponement without extra time restarts the clocks and gives nothing; a second
/// postponement of the same claim is refused.
#[test]
fn art_10_2b_a_postponement_without_extra_time_and_only_once() {
    let mut t = quickplay();
    let before = t.left(t.t)[B.index()];
    let c = claim_after(&mut t, SECOND);
    let ruled = t.t + MINUTE;
    let postpone = QuickplayRuling::Postpone { extra_time: false };
    rule(&mut t, &c, postpone, ruled);
    assert_eq!(t.left(ruled + SECOND)[B.index()], before);
    rule(&mut t, &c, postpone, ruled + MINUTE);
    assert_eq!(*violation(&t.err()), V::Quickplay(Q::AlreadyPostponed));
}

// 10.2 and 10.1: who may claim, and when.

/// 10.2: "menos de dos minutos": with two minutes or more the claim is refused.
#[test]
fn art_10_2_a_claim_with_two_minutes_left_is_refused() {
    let mut t = Table::on_terms("otb 20m", terms(TermsEdition::Fide2009, true));
    t.mv_at(START + 18 * MINUTE - SECOND, "e4");
    t.mv_at(t.t, "e5");
    claim_after(&mut t, SECOND);
    assert_eq!(
        *violation(&t.err()),
        V::Quickplay(Q::TimeLeft {
            remaining_ms: 120_000
        })
    );
}

/// 10.2: the arbiter decides, so a game whose terms name none has no such claim.
#[test]
fn art_10_2_a_claim_needs_an_agreed_arbiter() {
    let mut t = low_on_time("otb 20m", terms(TermsEdition::Fide2009, false));
    claim_after(&mut t, SECOND);
    assert_eq!(*violation(&t.err()), V::Quickplay(Q::NoArbiter));
}

/// 10.2: "al jugador a quien le toca mover": Black, not to move, may not claim.
#[test]
fn art_10_2_only_the_player_to_move_claims() {
    let mut t = quickplay();
    t.act_at(B, t.t + SECOND, |s, tm| s.quickplay_claim(tm));
    assert_eq!(*violation(&t.err()), V::Quickplay(Q::NotOnMove));
}

/// 10.1: with an increment, or a period that repeats, more time is always to come: no
/// quickplay finish.
#[test]
fn art_10_1_an_increment_or_a_repeating_period_is_no_quickplay_finish() {
    for tc in ["otb 20m+5s", "otb 40/20m"] {
        let mut t = Table::on_terms(tc, terms(TermsEdition::Fide2009, true));
        t.mv_at(START + 20 * MINUTE - 90 * SECOND, "e4");
        t.mv_at(t.t, "e5");
        claim_after(&mut t, SECOND);
        assert_eq!(
            *violation(&t.err()),
            V::Quickplay(Q::NotQuickplayFinish),
            "{tc}"
        );
    }
}

/// 2005 C2 ("Los artículos 10.2 y B.6 no son aplicables") against 2009 B2/B3: a blitz game
/// with an arbiter for it has the claim under 2009 only.
#[test]
fn art_10_2_in_blitz_only_under_the_2009_text() {
    let mut old = low_on_time("otb 10m", terms(TermsEdition::Fide2005, true));
    claim_after(&mut old, SECOND);
    assert_eq!(*violation(&old.err()), V::Quickplay(Q::Blitz));
    let mut new = low_on_time("otb 10m", terms(TermsEdition::Fide2009, true));
    claim_after(&mut new, SECOND);
    assert!(new.state().open_quickplay_claim().is_some());
}

/// The same claim and rejection under the 2005 text: "parará los relojes" and "podrá
/// parar" give one record, and the two minutes of 10.2c are the same.
#[test]
fn art_10_2c_the_same_under_the_2005_text() {
    let mut t = low_on_time("otb 20m", terms(TermsEdition::Fide2005, true));
    let before = t.left(t.t)[B.index()];
    let c = claim_after(&mut t, SECOND);
    let ruled = t.t + 5 * MINUTE;
    assert_eq!(t.left(ruled)[W.index()], 89_000);
    rule(&mut t, &c, QuickplayRuling::Reject, ruled);
    assert_eq!(
        t.left(ruled + SECOND)[B.index()],
        before + 2 * MINUTE as i64
    );
}

// The arbiter's ruling: who, on what, when.

/// 10.2: a ruling signed by a key the players did not agree on is refused before any rule
/// (it is no event of the game's), and one signed by a player is refused by 10.2.
#[test]
fn art_10_2_only_the_agreed_arbiter_rules() {
    let mut t = quickplay();
    let c = claim_after(&mut t, SECOND);
    let mut fake = t.events.clone();
    let mut stranger = Scoresheet::join(key(8), t.sheets[0].game());
    stranger.saw(c.id());
    fake.push(
        stranger
            .rule_quickplay(c.id(), QuickplayRuling::Draw, t.t + SECOND)
            .unwrap(),
    );
    assert!(matches!(
        verify(&fake),
        Err(VerifyError::NotAPlayer { author, .. }) if author == key(8).player_id()
    ));
    let id = c.id();
    t.act_at(B, t.t + SECOND, |s, tm| {
        s.rule_quickplay(id, QuickplayRuling::Draw, tm)
    });
    assert_eq!(*violation(&t.err()), V::Quickplay(Q::NotTheArbiter));
}

/// 10.2d: the decision is final: a second ruling after a rejection is refused.
#[test]
fn art_10_2d_a_second_ruling_after_a_final_one_is_refused() {
    let mut t = quickplay();
    let c = claim_after(&mut t, SECOND);
    let arb = key(3);
    let mut sheet = Scoresheet::join(arb, t.sheets[0].game());
    sheet.saw(c.id());
    t.events.push(
        sheet
            .rule_quickplay(c.id(), QuickplayRuling::Reject, t.t + MINUTE)
            .unwrap(),
    );
    assert!(t.state().quickplay_claims[0].decision().is_some());
    t.events.push(
        sheet
            .rule_quickplay(c.id(), QuickplayRuling::Draw, t.t + 2 * MINUTE)
            .unwrap(),
    );
    assert_eq!(*violation(&t.err()), V::Quickplay(Q::AlreadyRuled));
}

/// A ruling names a 10.2 claim of the game: one naming a move is refused.
#[test]
fn art_10_2_a_ruling_without_a_claim_is_refused() {
    let mut t = quickplay();
    let e5 = t.events.iter().rev().nth(1).unwrap().clone();
    rule_after(&mut t, &e5, QuickplayRuling::Draw, MINUTE);
    assert_eq!(*violation(&t.err()), V::Quickplay(Q::NoSuchClaim));
}

/// The arbiter rules on a claim they received: a ruling from a log that had not seen the
/// claim (signed after it, but blind to it) is refused.
#[test]
fn art_10_2_a_ruling_before_the_claim_reached_the_arbiter_is_refused() {
    let mut t = quickplay();
    let e5 = t.events.iter().rev().nth(1).unwrap().clone();
    let c = claim_after(&mut t, SECOND);
    let id = c.id();
    let at = t.t + MINUTE;
    third(&mut t, 3, e5.id(), at, |s, tm| {
        s.rule_quickplay(id, QuickplayRuling::Draw, tm)
    });
    assert_eq!(*violation(&t.err()), V::Quickplay(Q::RulingUnseen));
}

/// The same claim delivered twice is one claim (its id), and one claim stays open at a
/// time: a second, different claim while the first waits is refused.
#[test]
fn art_10_2_a_claim_replayed_twice_is_one_claim_and_a_second_is_refused() {
    let mut t = quickplay();
    let c = claim_after(&mut t, SECOND);
    t.events.push(c.clone());
    let st = t.state();
    assert_eq!(st.quickplay_claims.len(), 1);
    claim_after(&mut t, SECOND);
    assert_eq!(*violation(&t.err()), V::Quickplay(Q::ClaimOpen));
}

/// Attack: with the club mailbox as agreed timekeeper, White lets the flag fall, then signs a
/// claim dated back to 30 s before it. The claim counts at the mailbox's receipt, after the
/// fall: it stops nothing, and Black's time claim wins.
#[test]
fn art_10_2_a_claim_dated_back_to_before_the_flag_fell_gains_nothing() {
    let keeper = key(9);
    let agreed = Terms {
        timekeepers: vec![keeper.player_id()],
        ..terms(TermsEdition::Fide2009, true)
    };
    let mut t = Table::on_terms("otb 20m", agreed);
    t.receipts = false;
    let mut mailbox = Scoresheet::join(keeper, t.sheets[0].game());
    let mut stamp = |t: &mut Table, ev: &SignedEvent, at: u64| {
        t.events.push(mailbox.receipt(ev.id(), at).unwrap());
    };
    let accept = t.events[1].clone();
    stamp(&mut t, &accept, START);
    let at = START + 20 * MINUTE - 90 * SECOND;
    let e4 = t.mv_at(at, "e4");
    stamp(&mut t, &e4, at);
    let e5 = t.mv_at(at, "e5");
    stamp(&mut t, &e5, at);
    let fell = at + 90 * SECOND;
    let c = claim(&mut t, fell - 30 * SECOND);
    stamp(&mut t, &c, fell + 10 * SECOND);
    let st = t.state();
    assert!(
        st.quickplay_claims[0].late,
        "counted at the mailbox's receipt"
    );
    assert!(st.open_quickplay_claim().is_none());
    let tc = t.act_at(B, fell + 20 * SECOND, |s, tm| {
        s.claim(ClaimReason::Time, None, tm)
    });
    stamp(&mut t, &tc, fell + 20 * SECOND);
    let st = t.state();
    assert_eq!(st.result, Some(Outcome::Decisive { winner: B }));
    // A ruling on the late claim changes nothing either.
    rule(&mut t, &c, QuickplayRuling::Draw, fell + MINUTE);
    assert_eq!(t.state().result, Some(Outcome::Decisive { winner: B }));
}
