//! FIDE Appendix A on signed records, A9–A11: the resumption, its clocks (asserted to the
//! millisecond), a reply in a second envelope, lateness and its exceptions, and an envelope
//! never opened. The 2005 and 2009 texts differ here only in the flag-fall article A10c
//! names (6.10, 6.9), tested for both in `rules::adjournment::lateness`.

use crate::common::{LIMIT, Table, win};
use sobre_core::clock::{DAY, HOUR, MINUTE, SECOND};
use sobre_core::record::author::SealOpening;
use sobre_core::record::{ClaimReason, StartPosition, Status};
use sobre_core::san::{Lang, parse_san};
use sobre_core::{Color, Outcome, Termination};

const W: Color = Color::White;
const B: Color = Color::Black;
const TWO_HOURS: i64 = 2 * HOUR as i64;

fn ms(x: u64) -> i64 {
    x as i64
}

/// White plays e4 and Black e5 (a second each); White thinks 10 minutes and seals Nf3 for a
/// resumption a day later. Returns the table, the opening and the resumption time. White has
/// used 10 min 1 s, Black 1 s.
fn adjourned(tc: &str) -> (Table, SealOpening, u64) {
    let mut t = Table::new(tc);
    t.moves("e4 e5");
    let sealed = t.t + 10 * MINUTE;
    let resume = sealed + DAY;
    let opening = t.seal_at(sealed, "Nf3", resume);
    (t, opening, resume)
}

const WHITE_LEFT: i64 = TWO_HOURS - 601_000;
const BLACK_LEFT: i64 = TWO_HOURS - 1_000;

// ----- A9a: the responder is present -----

#[test]
fn a9_a_a_present_responders_clock_starts_at_the_opening() {
    let (mut t, opening, resume) = adjourned("otb 2h");
    t.presence_at(B, resume - 5 * MINUTE);
    // The sealer's node opens two minutes late: those minutes are nobody's.
    t.reveal_at(W, resume + 2 * MINUTE, &opening);
    assert_eq!(t.state().moves[2].san, "Nf3");
    assert_eq!(
        t.left(resume + 12 * MINUTE),
        [WHITE_LEFT, BLACK_LEFT - ms(10 * MINUTE)]
    );
    assert_eq!(t.at(resume + 12 * MINUTE).clocks.unwrap().running, Some(B));
}

#[test]
fn a9_a_resumption_with_a_legal_sealed_move_in_spanish() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let opening = t.seal("Cf3", None);
    t.act(B, |s, t| s.presence(t));
    t.act(W, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(st.moves.len(), 3);
    assert_eq!(st.moves[2].san, "Nf3");
    assert!(st.moves[2].sealed);
    assert_eq!(st.envelopes[0].opened.as_deref(), Some("Cf3"));
}

// ----- A9b: the responder is absent -----

/// A9b (seed 003; club rules 000 Art. 16.3): the absent responder's clock runs from the
/// agreed time, the envelope still closed; on arrival they stop it, the envelope is opened
/// and their clock runs again.
#[test]
fn a9_b_the_absent_responders_clock_runs_from_the_resumption() {
    let (mut t, opening, resume) = adjourned("otb 2h");
    // Closed, Black absent: Black's clock runs from the resumption.
    let st = t.at(resume + 20 * MINUTE);
    assert_eq!(st.status, Status::Adjourned);
    assert_eq!(st.clocks.as_ref().unwrap().running, Some(B));
    assert_eq!(
        st.clocks.unwrap().remaining_ms,
        [WHITE_LEFT, BLACK_LEFT - ms(20 * MINUTE)]
    );
    // Black arrives 20 minutes late; the envelope is opened a minute later.
    t.presence_at(B, resume + 20 * MINUTE);
    assert_eq!(t.at(resume + 21 * MINUTE).clocks.unwrap().running, None);
    t.reveal_at(W, resume + 21 * MINUTE, &opening);
    assert_eq!(
        t.left(resume + 31 * MINUTE),
        [WHITE_LEFT, BLACK_LEFT - ms(20 * MINUTE) - ms(10 * MINUTE)]
    );
    // Black answers; from then White's clock runs.
    t.mv_at(resume + 31 * MINUTE, "Nc6");
    assert_eq!(
        t.left(resume + 36 * MINUTE),
        [WHITE_LEFT - ms(5 * MINUTE), BLACK_LEFT - ms(30 * MINUTE)]
    );
}

/// The late-responder attack on A9b: a responder who comes late cannot have the sealer's
/// clock charged for their lateness and claim the sealer's flag (6.9); it is their own clock
/// that ran (and, here, fell).
#[test]
fn attack_a9_b_a_late_responder_cannot_run_the_sealers_clock() {
    // 15 minutes each: White has 4 min 59 s left at the sealing, Black 14 min 59 s.
    let (mut t, _opening, resume) = adjourned("otb 15m");
    t.presence_at(B, resume + 3 * MINUTE);
    t.act(B, |s, t| s.claim(ClaimReason::Time, None, t));
    let st = t.state();
    assert!(!st.claims[0].correct, "{}", st.claims[0].judgement);
    assert_eq!(st.status, Status::Adjourned);
    assert_eq!(
        t.left(resume + 3 * MINUTE + SECOND),
        [
            ms(15 * MINUTE) - 601_000,
            ms(15 * MINUTE) - 1_000 - ms(3 * MINUTE)
        ]
    );
    // Had Black come 16 minutes late, Black's own flag would have fallen (A9b, 6.9).
    let (t, _, resume) = adjourned("otb 15m");
    let st = t.at(resume + 16 * MINUTE);
    assert_eq!(st.clocks.unwrap().flagged, Some(B));
}

// ----- A9c: the sealer is absent -----

/// A9c (seed 003; club rules 000 Art. 16.4): the sealer is absent, the envelope is opened
/// (by the sealer's node at the agreed time), the responder seals a reply in a second
/// envelope, stopping their clock and starting the absent sealer's; the reply is opened when
/// the sealer arrives.
#[test]
fn a9_c_a_reply_in_a_second_envelope_starts_the_absent_sealers_clock() {
    let (mut t, opening, resume) = adjourned("otb 2h");
    t.presence_at(B, resume);
    t.reveal_at(W, resume, &opening);
    let reply = t.reply_at(resume + 10 * MINUTE, "Cc6");
    let st = t.state();
    assert_eq!(st.envelopes.len(), 2);
    assert_eq!(st.status, Status::Adjourned);
    assert_eq!(
        st.envelopes[1].seal.envelope.fen_before,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        "sealed in the position after the sealed move"
    );
    // White's clock runs from the reply.
    assert_eq!(
        t.left(resume + 40 * MINUTE),
        [WHITE_LEFT - ms(30 * MINUTE), BLACK_LEFT - ms(10 * MINUTE)]
    );
    // White arrives; the reply is opened two minutes later (not White's minutes).
    t.presence_at(W, resume + 40 * MINUTE);
    t.reveal_at(B, resume + 42 * MINUTE, &reply);
    let st = t.state();
    let sans: Vec<&str> = st.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(st.status, Status::Active);
    assert_eq!(
        t.left(resume + 52 * MINUTE),
        [WHITE_LEFT - ms(40 * MINUTE), BLACK_LEFT - ms(10 * MINUTE)]
    );
}

/// A9c: the reply answers a move the responder has seen: no second envelope while the first
/// is closed (an older, tag-10 adjournment allowed it blind).
#[test]
fn a9_c_no_reply_before_the_sealed_move_is_opened() {
    let (mut t, _opening, resume) = adjourned("otb 2h");
    t.presence_at(B, resume);
    let env = t.envelope_at(resume + MINUTE, resume);
    let mut env = env;
    env.sealer = t.state().black.unwrap();
    env.move_number = 2;
    t.act_at(B, resume + MINUTE, |s, at| {
        s.seal(
            "Cc6",
            sobre_core::record::SealLetters::Spanish,
            [7; 32],
            env,
            4,
            at,
        )
        .map(|x| x.0)
    });
    let err = t.err();
    assert!(err.to_string().contains("A9c"), "{err}");
}

/// A9c: with the sealer at the board the responder answers on the board; a seal is then a
/// new adjournment (A1), which needs a resumption ahead (A2.7), not a reply.
#[test]
fn a9_c_no_reply_when_the_sealer_is_present() {
    let (mut t, opening, resume) = adjourned("otb 2h");
    t.presence_at(B, resume);
    t.presence_at(W, resume);
    t.reveal_at(W, resume, &opening);
    let _ = t.reply_at(resume + MINUTE, "Cc6");
    let err = t.err();
    assert!(err.to_string().contains("A2.7"), "{err}");
}

#[test]
fn a9_c_the_reply_opens_only_when_the_absent_sealer_arrives() {
    let (mut t, opening, resume) = adjourned("otb 2h");
    t.presence_at(B, resume);
    t.reveal_at(W, resume, &opening);
    let reply = t.reply_at(resume + MINUTE, "Cc6");
    t.reveal_at(B, resume + 2 * MINUTE, &reply);
    let err = t.err();
    assert!(err.to_string().contains("A9c"), "{err}");
}

// ----- A10: lateness -----

#[test]
fn a10_more_than_the_limit_late_loses_exactly_the_limit_is_in_time() {
    let (mut t, _opening, resume) = adjourned("otb 2h");
    t.presence_at(W, resume);
    t.claim_lateness_at(W, resume + LIMIT);
    let st = t.state();
    assert_eq!(st.status, Status::Adjourned, "exactly one hour is in time");
    assert!(!st.claims[0].correct);
    t.claim_lateness_at(W, resume + LIMIT + 1);
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::LateForResumption));
    assert_eq!(st.result, win(W));
}

/// A10 after the automatic opening: the responder announces presence more than the limit
/// late; the sealer's node opens the envelope at once, and the sealer's claim still wins —
/// the arrival is judged by its time, not its existence.
#[test]
fn a10_a_late_arrival_does_not_cancel_the_claim_after_the_opening() {
    let (mut t, opening, resume) = adjourned("otb 2h");
    t.presence_at(W, resume);
    let late = resume + LIMIT + MINUTE;
    t.presence_at(B, late);
    t.reveal_at(W, late + SECOND, &opening);
    assert_eq!(t.state().status, Status::Active);
    t.claim_lateness_at(W, late + 2 * SECOND);
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::LateForResumption));
    assert_eq!(st.result, win(W));
}

/// A10 against a late sealer after the automatic opening (the sealer's node opens at the
/// agreed time in the sealer's absence): the responder answers, the sealer does not come;
/// a late move does not help, and playing on with the late player waives the claim.
#[test]
fn a10_a_late_sealer_loses_after_the_automatic_opening() {
    let start = || {
        let (mut t, opening, resume) = adjourned("otb 2h");
        t.presence_at(B, resume);
        t.reveal_at(W, resume, &opening);
        t.mv_at(resume + 5 * MINUTE, "Nc6");
        (t, resume)
    };
    let (mut t, resume) = start();
    t.claim_lateness_at(B, resume + LIMIT + 1);
    let st = t.state();
    assert_eq!(st.result, win(B));
    assert_eq!(st.termination, Some(Termination::LateForResumption));
    // White comes after the limit and moves: still late.
    let (mut t, resume) = start();
    t.mv_at(resume + LIMIT + 10 * MINUTE, "Bc4");
    t.claim_lateness_at(B, resume + LIMIT + 10 * MINUTE + SECOND);
    assert_eq!(t.state().result, win(B));
    // Black plays on instead: the claim is waived.
    let (mut t, resume) = start();
    t.mv_at(resume + LIMIT + 10 * MINUTE, "Bc4");
    t.mv_at(resume + LIMIT + 11 * MINUTE, "Nf6");
    t.claim_lateness_at(B, resume + LIMIT + 12 * MINUTE);
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(
        st.claims[0].judgement,
        sobre_core::record::verify::Judgement::PlayedOn,
        "{}",
        st.claims[0].judgement
    );
}

/// The absent sealer's envelope opened by their node in their absence, with `text` in
/// `fen`; the responder claims lateness after the limit.
fn absent_sealer(fen: &str, text: &str) -> sobre_core::record::GameState {
    let mut t = Table::from("otb 2h", StartPosition::Fen(fen.into()));
    let resume = t.t + DAY;
    let opening = t.seal(text, Some(resume));
    t.presence_at(B, resume);
    t.reveal_at(W, resume, &opening);
    t.claim_lateness_at(B, resume + LIMIT + 1);
    t.state()
}

/// A10a: the late sealer's sealed move mates: the absent sealer wins (the opening ends the
/// game, before any claim).
#[test]
fn a10_a_the_absent_sealers_sealed_move_mates() {
    let st = absent_sealer("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", "Re8");
    assert_eq!(st.presence_ms[0], None, "the sealer never came");
    assert_eq!(st.termination, Some(Termination::Checkmate));
    assert_eq!(st.result, win(W));
    assert!(st.claims.is_empty(), "the claim came after the end");
    assert_eq!(st.ignored.len(), 1, "{:?}", st.ignored);
}

/// A10b: the late sealer's sealed move stalemates, or leaves a dead position (9.6): a draw.
#[test]
fn a10_b_the_absent_sealers_sealed_move_stalemates_or_leaves_a_dead_position() {
    let st = absent_sealer("7k/5K2/8/8/8/8/8/6Q1 w - - 0 1", "Qg6");
    assert_eq!(st.termination, Some(Termination::Stalemate));
    assert_eq!(st.result, Some(Outcome::Draw));
    let st = absent_sealer("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", "Kxd2");
    assert_eq!(st.termination, Some(Termination::DeadPosition));
    assert_eq!(st.result, Some(Outcome::Draw));
}

/// A10c (6.9 in seed 003, 6.10 in seed 002): the sealer is late, but the responder at the
/// board let their own flag fall: the absent sealer wins.
#[test]
fn a10_c_the_present_player_who_lost_on_time_loses_to_the_late_sealer() {
    let mut t = Table::new("otb 30m");
    t.mv("e4");
    t.mv_at(t.t + 25 * MINUTE, "e5");
    let resume = t.t + SECOND + DAY;
    let opening = t.seal("Nf3", Some(resume));
    t.presence_at(B, resume);
    t.reveal_at(W, resume, &opening);
    // Black had 5 minutes left and does not move; White never comes.
    t.claim_lateness_at(B, resume + LIMIT + 1);
    let st = t.state();
    assert_eq!(st.result, win(W));
    assert_eq!(st.termination, Some(Termination::TimeForfeit));
    let claim = &st.claims[0];
    assert!(!claim.correct);
    assert!(
        matches!(
            &claim.judgement,
            sobre_core::record::verify::Judgement::ClaimantLostOnTime { article, .. }
                if article == "6.9"
        ),
        "{}",
        claim.judgement
    );
}

/// A10 with the envelope still closed (the sealer's node never opened it): A10a/b cannot be
/// known, so the late sealer loses.
#[test]
fn a10_with_the_envelope_closed_the_late_sealer_loses() {
    let (mut t, _opening, resume) = adjourned("otb 2h");
    t.presence_at(B, resume);
    t.claim_lateness_at(B, resume + LIMIT);
    assert_eq!(t.state().status, Status::Adjourned);
    t.claim_lateness_at(B, resume + LIMIT + 1);
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::LateForResumption));
    assert_eq!(st.result, win(B));
}

/// A8 with A10 for a binding envelope: the sealer is at the board but does not open the
/// envelope; the limit after the opening was due, the responder's claim wins. Exactly the
/// limit is still in time ("más de una hora", A10).
#[test]
fn a10_a8_sealer_who_does_not_open_within_the_limit_loses() {
    let (mut t, _opening, resume) = adjourned("otb 2h");
    t.presence_at(W, resume);
    t.presence_at(B, resume + 10 * MINUTE);
    let due = resume + 10 * MINUTE;
    t.claim_lateness_at(B, due + LIMIT);
    let st = t.state();
    assert_eq!(st.status, Status::Adjourned, "exactly one hour is in time");
    assert!(!st.claims[0].correct);
    t.claim_lateness_at(B, due + LIMIT + 1);
    let st = t.state();
    assert_eq!(st.result, win(B));
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
    assert!(
        matches!(
            st.claims[1].judgement,
            sobre_core::record::verify::Judgement::SealerCannotOpen { .. }
        ),
        "{}",
        st.claims[1].judgement
    );
}

// ----- A11: the envelope lost -----

/// A11 without an arbiter: "lost" would be the sealer's free choice, so the sealed move is
/// binding and an envelope never opened ends by A8 (the sealer at the board) or A10 (the
/// sealer away) on the responder's claim.
#[test]
fn a11_without_an_arbiter_an_unopened_envelope_ends_by_a8_or_a10() {
    for sealer_present in [true, false] {
        let (mut t, _opening, resume) = adjourned("otb 2h");
        t.presence_at(B, resume);
        if sealer_present {
            t.presence_at(W, resume + SECOND);
        }
        t.claim_lateness_at(B, resume + LIMIT + MINUTE);
        let st = t.state();
        assert_eq!(st.result, win(B));
        let expected = if sealer_present {
            Termination::IllegalSealedMove
        } else {
            Termination::LateForResumption
        };
        assert_eq!(st.termination, Some(expected));
        assert_eq!(st.envelopes[0].opened, None);
    }
}

/// The swapped-envelope attack (A11 without an arbiter): once the responder is present,
/// the sealer cannot "lose" the envelope and play another move found overnight.
#[test]
fn attack_a11_sealer_cannot_replace_the_sealed_move() {
    let (mut t, _opening, resume) = adjourned("otb 2h");
    t.presence_at(B, resume);
    t.presence_at(W, resume + SECOND);
    let d4 = parse_san(&t.pos, "d4", Lang::English).unwrap();
    t.act(W, |s, t| s.play(d4, t));
    let err = t.err();
    assert!(err.to_string().contains("binding"), "{err}");
}

/// A11 as a tag-10 envelope has it: the sealer, unable to open it, plays the move they
/// declare they sealed (the meaning such archives keep).
#[test]
fn a11_lost_envelope_the_sealer_plays_the_move_they_declare() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let _ = t.seal_legacy("Nf3");
    t.act(B, |s, t| s.presence(t));
    t.mv("Nf3");
    let st = t.state();
    assert!(st.envelope_lost);
    assert_eq!(st.status, Status::Active);
    assert_eq!(st.moves.len(), 3);
}
