//! FIDE Appendix A on signed records, A1–A8: sealing, the envelope, the time before the
//! resumption, opening, and an invalid sealed move. One test (or more) per article, named
//! after it; where the 2005 (seed 002) and 2009 (seed 003) texts differ the verdict is tested
//! for both in `rules::adjournment`, and here as `verify` applies it (2009).
//! A9–A11 are in `appendix_a_resumption.rs`.

use crate::common::{T0, Table, win};
use sobre_core::clock::{DAY, HOUR, MINUTE, SECOND};
use sobre_core::record::{
    ClaimReason, EventKind, RuleViolation, SealLetters, StartPosition, Status, commit,
};
use sobre_core::rules::adjournment::AdjournmentRule;
use sobre_core::san::{Lang, parse_san};
use sobre_core::{Color, Outcome, Position, Termination};

// A1: sealing.

#[test]
fn a1_a_only_the_player_to_move_seals() {
    let mut t = Table::new("otb 2h");
    t.mv("e4");
    // White tries to seal although Black is to move.
    let mut env = t.envelope_at(t.t + SECOND, t.t + DAY);
    env.sealer = t.state().white.unwrap();
    t.act(Color::White, |s, t| {
        s.seal("d4", SealLetters::English, [1; 32], env, 2, t)
            .map(|x| x.0)
    });
    let err = t.err();
    assert!(err.to_string().contains("A1"), "{err}");
    assert_eq!(
        err.violation(),
        Some(&RuleViolation::SealNotOnMove),
        "{err}"
    );
    assert_eq!(err.article(), Some("A1"));
}

/// A1 ("al final del tiempo establecido para la sesión"): a correspondence game has no
/// session to end; a seal there would only stop the sealer's clock.
#[test]
fn a1_a_a_correspondence_game_is_not_adjourned_by_a_seal() {
    let mut t = Table::new("3d");
    t.moves("e4 e5");
    let _ = t.seal("Nf3", Some(t.t + DAY));
    let err = t.err();
    assert!(err.to_string().contains("Appendix A1"), "{err}");
    assert_eq!(
        err.violation(),
        Some(&RuleViolation::Adjournment(AdjournmentRule::Correspondence)),
        "{err}"
    );
    assert_eq!(err.article(), Some("A1"));
}

/// A1: the sealer stops their clock without starting the opponent's; A5/A9: no clock runs
/// until the agreed resumption.
#[test]
fn a1_a_sealing_adjourns_and_no_clock_runs_until_the_resumption() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let sealed = t.t + 10 * MINUTE;
    let resume = sealed + DAY;
    let _ = t.seal_at(sealed, "Nf3", resume);
    let st = t.state();
    assert_eq!(st.status, Status::Adjourned);
    assert_eq!(st.open_envelope().map(|e| e.sealer), Some(Color::White));
    let at_sealing = [2 * 3_600_000 - 601_000, 2 * 3_600_000 - 1_000];
    assert_eq!(t.left(sealed), at_sealing);
    assert_eq!(t.left(resume), at_sealing, "no clock runs while adjourned");
    assert_eq!(t.at(resume - 1).clocks.unwrap().running, None);
    // From the agreed time the clock of Black, absent and to answer, runs (A9b).
    assert_eq!(t.at(resume).clocks.unwrap().running, Some(Color::Black));
}

/// A1b (seed 003 A1.2; seed 002 A1b): a player who adjourns before the end of the session is
/// deemed to have sealed at the session's end, "indicándose así su tiempo restante". The
/// game's terms fix the session (`otb 6h session 4h`, agreed at the challenge): White seals a
/// minute into the session and is charged to its end, four hours after the game began.
#[test]
fn a1_b_adjourning_before_the_session_ends_counts_as_sealing_at_its_end() {
    let mut t = Table::new("otb 6h session 4h");
    let started = t.state().started_ms.unwrap();
    t.moves("e4 e5");
    let sealed = t.t + MINUTE;
    let _ = t.seal_at(sealed, "Nf3", sealed + DAY);
    let st = t.state();
    assert_eq!(st.adjournments[0].charged_until_ms, started + 4 * HOUR);
    // White's first move took a second; from e5 on, White is charged to the session's end.
    let e5 = st.moves[1].time_ms;
    let used = t.at(sealed + DAY).clocks.unwrap().used_ms;
    assert_eq!(used, [1_000 + (started + 4 * HOUR - e5), 1_000]);
    // Sealing after the session's end is sealing then: nothing more is charged.
    let mut late = Table::new("otb 6h session 1m");
    late.moves("e4 e5");
    let at = late.t + 2 * MINUTE;
    let _ = late.seal_at(at, "Nf3", at + DAY);
    assert_eq!(late.state().adjournments[0].charged_until_ms, at);
}

/// A1b needs a session end: a control that names no session (most) charges the sealer up to
/// the sealing, whenever it is.
#[test]
fn a1_b_no_session_end_is_recorded_so_the_sealer_is_charged_to_the_sealing() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let sealed = t.t + MINUTE;
    let _ = t.seal_at(sealed, "Nf3", sealed + DAY);
    let st = t.state();
    let env = &st.envelopes[0].seal.envelope;
    assert_eq!(env.time_used_ms, [61_000, 1_000]);
    assert_eq!(t.at(sealed + DAY).clocks.unwrap().used_ms, env.time_used_ms);
}

// A2: the envelope's data (checked as the arbiter would, A3).

/// The error of a seal whose envelope `change` alters.
fn refused(change: impl FnOnce(&mut sobre_core::record::Envelope, &Table)) -> String {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    t.act(Color::Black, |s, t| s.offer_draw(t));
    let at = t.t + SECOND;
    let mut env = t.envelope_at(at, at + DAY);
    change(&mut env, &t);
    let _ = t.seal_with(at, "Nf3", env);
    t.err().to_string()
}

#[test]
fn a2_1_the_envelope_names_the_games_players() {
    let err = refused(|env, _| env.black = crate::common::key(9).player_id());
    assert!(err.contains("A2.1"), "{err}");
}

#[test]
fn a2_2_the_envelope_holds_the_position_before_the_sealed_move() {
    let err = refused(|env, _| env.fen_before = Position::new().fen());
    assert!(err.contains("A2.2"), "{err}");
}

/// A2.3 with A12: the envelope holds the time used by each player as the sealer states it.
/// Under protocol version 2 the clocks are computed from the evidence (the first
/// countersignature of each move), which may still grow after the sealing — a witness's
/// receipt arriving later — so a statement that differs does not make the record fail: the
/// clocks stand corrected (A12), and they are the evidence's, not the envelope's.
#[test]
fn a2_3_a12_the_envelopes_times_are_a_statement_the_clocks_correct() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let at = t.t + SECOND;
    let mut env = t.envelope_at(at, at + DAY);
    let exact = env.time_used_ms;
    env.time_used_ms[1] += 60_000;
    let _ = t.seal_with(at, "Nf3", env);
    let st = t.state();
    assert_eq!(
        st.envelopes[0].seal.envelope.time_used_ms[1],
        exact[1] + 60_000
    );
    assert_eq!(st.clocks.unwrap().used_ms, exact);
}

#[test]
fn a2_4_the_envelope_names_the_sealer() {
    let err = refused(|env, t| env.sealer = t.state().black.unwrap());
    assert!(err.contains("A2.4"), "{err}");
}

#[test]
fn a2_5_the_envelope_holds_the_number_of_the_sealed_move() {
    let err = refused(|env, _| env.move_number += 1);
    assert!(err.contains("A2.5"), "{err}");
}

#[test]
fn a2_6_a_standing_draw_offer_goes_into_the_envelope() {
    let err = refused(|env, _| env.draw_offer_by = None);
    assert!(err.contains("A2.6"), "{err}");
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    t.act(Color::Black, |s, t| s.offer_draw(t));
    let _ = t.seal("Nf3", None);
    let st = t.state();
    assert_eq!(st.envelopes[0].seal.envelope.draw_offer_by, st.black);
}

/// A2.7 (seed 003; seed 002 A2g is the same datum): the envelope says when and where the
/// game resumes. Without a time, or with one already past, or more than 30 days ahead, the
/// seal is refused: a sealer who never came back used to freeze the game for ever.
#[test]
fn a2_7_resumption_time_is_mandatory_and_ahead() {
    let far = sobre_core::rules::adjournment::MAX_ADJOURNMENT_MS + 1;
    // Sealed at T0 + 5 s (after 1. e4 e5 and a draw offer).
    for resume in [None, Some(T0), Some(T0 + 5 * SECOND + far)] {
        let err = refused(|env, _| env.resume_at_ms = resume);
        assert!(err.contains("A2.7"), "{resume:?}: {err}");
    }
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let resume = t.t + DAY;
    let _ = t.seal("Nf3", Some(resume));
    let env = &t.state().envelopes[0].seal.envelope;
    assert_eq!(env.place, "Club Villa Dolores");
    assert_eq!(env.resume_at_ms, Some(resume));
}

// A3: the arbiter checks the envelope and keeps it.

/// A3 without an arbiter: `verify` checks the envelope's data (the A2 tests), and the sealed
/// move is kept by a commitment: the seal does not carry the move, and no other move opens it.
#[test]
fn a3_the_sealed_move_stays_secret_and_bound_by_its_commitment() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let mut opening = t.seal("Nf3", None);
    let seal = t.events.last().unwrap();
    let wire = [seal.body.as_slice(), seal.signature.as_slice()].concat();
    assert!(
        !wire.windows(3).any(|w| w == b"Nf3"),
        "the move is not in the seal"
    );
    opening.move_text = "Bc4".into();
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    assert!(t.err().to_string().contains("commitment"));
}

// A4: a draw offer during the adjournment.

/// A4 (seed 003; the same text in 002): a draw offered after the sealing stands until the
/// sealer has accepted or rejected it, as in 9.1 — playing the sealed move at the
/// resumption does not erase it; the sealer may still accept.
#[test]
fn a4_draw_offer_made_during_the_adjournment_survives_the_sealed_move() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let opening = t.seal("Nf3", None);
    t.act(Color::Black, |s, t| s.offer_draw(t));
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.moves.len(), 3, "the sealed move is played");
    assert_eq!(st.draw_offer, Some(Color::Black), "the offer still stands");
    t.act(Color::White, |s, t| s.accept_draw(t));
    let st = t.state();
    assert_eq!(st.result, Some(Outcome::Draw));
    assert_eq!(st.termination, Some(Termination::Agreement));
}

#[test]
fn a4_a6_draw_offer_after_sealing_accepted_keeps_the_envelope_closed() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let _ = t.seal("Nf3", None);
    t.act(Color::Black, |s, t| s.offer_draw(t));
    assert_eq!(t.state().draw_offer, Some(Color::Black));
    t.act(Color::White, |s, t| s.accept_draw(t));
    let st = t.state();
    assert_eq!(st.result, Some(Outcome::Draw));
    assert_eq!(st.envelopes[0].opened, None);
}

// A5: the board and the clocks at the resumption.

#[test]
fn a5_at_resumption_the_board_and_clocks_are_those_of_the_adjournment() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5 Nf3");
    let sealed = t.t + 7 * MINUTE;
    let resume = sealed + DAY;
    let _ = t.seal_at(sealed, "Nc6", resume);
    let st = t.at(resume);
    let env = &st.envelopes[0].seal.envelope;
    assert_eq!(st.position.fen(), env.fen_before);
    assert_eq!(st.clocks.as_ref().unwrap().used_ms, env.time_used_ms);
    assert_eq!(env.time_used_ms, [2_000, 7 * MINUTE + 1_000]);
}

// A6: an end before the resumption.

#[test]
fn a6_resignation_before_resumption_keeps_envelope_closed() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let _ = t.seal("Nf3", None);
    t.act(Color::Black, |s, t| s.resign(t));
    let st = t.state();
    assert_eq!(st.result, win(Color::White));
    assert_eq!(st.envelopes[0].opened, None);
    assert_eq!(st.moves.len(), 2);
}

// A7: the envelope opens with the responder present.

#[test]
fn a7_envelope_opens_only_with_the_responder_present() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let opening = t.seal("Cf3", None);
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let err = t.err();
    assert!(err.to_string().contains("A7"), "{err}");
}

/// The early-opening attack (A2.7 with A7): the responder announces presence on Wednesday
/// for a Saturday resumption; the sealer's opening is refused until Saturday, so the
/// sealer's clock cannot be started while they are away. At the agreed time it opens.
#[test]
fn attack_a7_responder_cannot_force_the_envelope_open_early() {
    let adjourned = || {
        let mut t = Table::new("otb 2h");
        t.moves("e4 e5");
        let saturday = t.t + 3 * DAY;
        let opening = t.seal("Nf3", Some(saturday));
        let wednesday = t.t + DAY;
        t.presence_at(Color::Black, wednesday);
        (t, opening, saturday)
    };
    let (mut t, opening, _) = adjourned();
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let err = t.err();
    assert!(err.to_string().contains("A2.7"), "{err}");
    let (mut t, opening, saturday) = adjourned();
    t.reveal_at(Color::White, saturday, &opening);
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(st.moves.len(), 3);
}

/// A2.7 with A7: before the agreed time the envelope opens only when *both* players signed
/// that they are present (they agree to resume early).
#[test]
fn a7_both_present_may_open_before_the_agreed_time() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let opening = t.seal("Nf3", Some(t.t + 3 * DAY));
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(st.moves[2].san, "Nf3");
}

/// A7 for a second adjournment: a presence signed for the first resumption says nothing
/// about the next; the responder announces presence again before the next envelope opens.
#[test]
fn a7_a_presence_from_an_earlier_resumption_does_not_open_the_next_envelope() {
    let adjourned_twice = || {
        let mut t = Table::new("otb 2h");
        t.moves("e4 e5");
        let first = t.seal("Nf3", None);
        t.act(Color::Black, |s, t| s.presence(t));
        t.act(Color::White, |s, t| s.presence(t));
        t.reveal_at(Color::White, t.t + SECOND, &first);
        t.mv("Nc6");
        let resume = t.t + DAY;
        let second = t.seal("Bb5", Some(resume));
        (t, second, resume)
    };
    let (mut t, second, resume) = adjourned_twice();
    t.reveal_at(Color::White, resume, &second);
    let err = t.err();
    assert!(err.to_string().contains("A7"), "{err}");
    let (mut t, second, resume) = adjourned_twice();
    t.presence_at(Color::Black, resume - SECOND);
    t.reveal_at(Color::White, resume, &second);
    let st = t.state();
    assert_eq!(st.adjournments.len(), 2);
    assert_eq!(st.moves.last().map(|m| m.san.as_str()), Some("Bb5"));
}

#[test]
fn a7_no_move_around_the_envelope_through_an_incorrect_claim() {
    // Found while writing the verify_seq fuzz target: the sealer played a move other than
    // the sealed one during the adjournment by attaching it to an incorrect claim (input:
    // challenge, accept, 1. e4 e5, White seals, White claims lateness with the move d4).
    for reason in [
        ClaimReason::Lateness,
        ClaimReason::Time,
        ClaimReason::DeadPosition,
    ] {
        let mut t = Table::new("otb 2h");
        t.moves("e4 e5");
        let _ = t.seal("Nf3", None);
        let d4 = parse_san(&t.pos, "d4", Lang::English).unwrap();
        t.act(Color::White, |s, t| s.claim(reason, Some(d4), t));
        let err = t.err();
        assert!(err.to_string().contains("A7"), "{reason:?}: {err}");
    }
}

// A8: an invalid sealed move.

/// The sealed move `text` opened at once in the position `fen` (White to move).
fn opened(fen: Option<&str>, text: &str) -> sobre_core::record::GameState {
    let mut t = match fen {
        Some(f) => Table::from("otb 2h", StartPosition::Fen(f.into())),
        None => {
            let mut t = Table::new("otb 2h");
            t.moves("e4 e5");
            t
        }
    };
    let opening = t.seal(text, None);
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    t.state()
}

#[test]
fn a8_a_ambiguous_sealed_move_loses() {
    // Knights on b1 and f3 can both reach d2: "Cd2" is ambiguous.
    let st = opened(Some("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"), "Cd2");
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
    let why = st.sealed_move_error.unwrap();
    assert!(why.contains("b1") && why.contains("f3"), "{why}");
}

#[test]
fn a8_b_unintelligible_sealed_move_loses() {
    let st = opened(None, "the knight, I think");
    assert_eq!(st.result, win(Color::Black));
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
}

#[test]
fn a8_c_illegal_sealed_move_loses() {
    let st = opened(None, "Dxd5");
    assert_eq!(st.result, win(Color::Black));
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
    assert!(st.sealed_move_error.unwrap().contains("A8"));
}

/// A8's exception of Art. 5 (2009 only; seed 002 names only 6.10 and 9.6): an ambiguous
/// sealed move that mates whichever way it is read wins.
#[test]
fn a8_art_5_2009_an_ambiguous_sealed_move_that_mates_either_way_wins() {
    let st = opened(Some("6rk/6pp/8/4N1N1/8/8/8/6K1 w - - 0 1"), "Nf7");
    assert_eq!(st.termination, Some(Termination::Checkmate));
    assert_eq!(st.result, win(Color::White));
}

/// A8's exception of 6.9 (2009; 6.10 in 2005): the responder could not mate, so a draw.
#[test]
fn a8_6_9_illegal_sealed_move_is_a_draw_when_the_opponent_cannot_mate() {
    let st = opened(Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), "e5");
    assert_eq!(st.result, Some(Outcome::Draw));
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
}

#[test]
fn a8_sealed_move_written_with_a_mate_sign_in_spanish_mates() {
    let st = opened(Some("6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1"), "Te8#");
    assert_eq!(st.termination, Some(Termination::Checkmate));
    assert_eq!(st.result, win(Color::White));
}

/// App. E2/E3 with A8 (seed 003): the letters are fixed when sealing and signed in the seal,
/// so a Spanish `Rd2` is the king's move even where a rook could also reach d2, and the
/// same text sealed in English is the rook's.
#[test]
fn a8_e3_sealed_move_is_read_in_the_letters_it_was_sealed_in() {
    let fen = "4k3/p7/8/8/8/8/8/3RK3 w - - 0 1";
    for (letters, from) in [(SealLetters::Spanish, "e1"), (SealLetters::English, "d1")] {
        let mut t = Table::from("otb 2h", StartPosition::Fen(fen.into()));
        let at = t.t + SECOND;
        let env = t.envelope_at(at, at + SECOND);
        let mut opening = None;
        t.act_at(Color::White, at, |s, t| {
            let (ev, o) = s.seal("Rd2", letters, [5; 32], env, 1, t)?;
            opening = Some(o);
            Ok(ev)
        });
        let opening = opening.unwrap();
        t.act(Color::Black, |s, t| s.presence(t));
        t.act(Color::White, |s, t| s.reveal(&opening, t));
        let st = t.state();
        assert_eq!(st.status, Status::Active, "{letters:?}");
        assert_eq!(st.envelopes[0].letters, Some(letters));
        let played = st.moves[0].mv;
        assert_eq!(
            (played.from.to_string(), played.to.to_string()),
            (from.to_owned(), "d2".to_owned()),
            "{letters:?}"
        );
    }
}

/// A8 with FIDE 3.7e and Appendix C12/E12: in Spanish letters `c8R` asks for a king (*rey*),
/// an illegal promotion, so the sealed move loses (A8c); it is never read as the English
/// rook. The same text sealed in English letters is the rook promotion.
#[test]
fn a8_c12_spanish_sealed_promotion_to_r_is_a_king_and_loses() {
    let fen = "4k3/2P5/8/8/8/8/p7/4K3 w - - 0 1";
    for letters in [SealLetters::Spanish, SealLetters::English] {
        let mut t = Table::from("otb 2h", StartPosition::Fen(fen.into()));
        let at = t.t + SECOND;
        let env = t.envelope_at(at, at + SECOND);
        let mut opening = None;
        t.act_at(Color::White, at, |s, t| {
            let (ev, o) = s.seal("c8R", letters, [5; 32], env, 1, t)?;
            opening = Some(o);
            Ok(ev)
        });
        let opening = opening.unwrap();
        t.act(Color::Black, |s, t| s.presence(t));
        t.act(Color::White, |s, t| s.reveal(&opening, t));
        let st = t.state();
        match letters {
            SealLetters::Spanish => {
                assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
                assert_eq!(st.result, win(Color::Black));
                let why = st.sealed_move_error.unwrap();
                assert!(why.contains("cannot promote to a king"), "{why}");
                assert!(st.moves.is_empty());
            }
            SealLetters::English => {
                assert_eq!(st.status, Status::Active);
                assert_eq!(st.moves[0].mv.promotion(), Some(sobre_core::Role::Rook));
            }
        }
    }
}

/// A seal signed before the letters were recorded (wire tag 10) keeps its meaning: its
/// opening is read in either language, and `Rd2` there, legal both ways, is ambiguous (A8).
#[test]
fn a8_seal_without_letters_is_read_in_either_language_as_before() {
    let fen = "4k3/p7/8/8/8/8/8/3RK3 w - - 0 1";
    let mut t = Table::from("otb 2h", StartPosition::Fen(fen.into()));
    let opening = t.seal_legacy("Rd2");
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.envelopes[0].letters, None);
    assert!(
        t.events
            .iter()
            .any(|e| matches!(e.decode_unverified().unwrap().kind, EventKind::Seal(_)))
    );
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
    assert_eq!(st.result, win(Color::Black));
    // The tag-10 commitment is the same function's.
    let game = st.game;
    let expected = commit::seal_commitment(&game, 1, &st.white.unwrap(), "Rd2", &[42; 32]);
    assert_eq!(st.envelopes[0].seal.commitment, expected);
}
