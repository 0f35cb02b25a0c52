//! `verify` on signed scoresheets: one test per rule it applies, named after the article
//! (FIDE Laws 2009, seed 003), plus the protocol's own rules. Appendix A (adjourned games)
//! is in `appendix_a_sealing.rs` and `appendix_a_resumption.rs`.

use sobre_core::clock::{DAY, SECOND};
use sobre_core::record::author::Scoresheet;
use sobre_core::record::commit;
use sobre_core::record::{
    Challenge, ClaimReason, ColourChoice, EventKind, RuleViolation, SignedEvent, StartPosition,
    Status, VerifyError, verify,
};
use sobre_core::san::{Lang, parse_san};
use sobre_core::{Color, Outcome, Position, Termination};

use crate::common::{T0, Table, key, win};

// Art. 5: how games end.

#[test]
fn fide_5_1a_checkmate_ends_the_game() {
    let mut t = Table::new("3d");
    t.moves("f3 e5 g4 Qh4#");
    let st = t.state();
    assert_eq!(st.status, Status::Finished);
    assert_eq!(st.result, win(Color::Black));
    assert_eq!(st.termination, Some(Termination::Checkmate));
    assert_eq!(st.moves.len(), 4);
}

#[test]
fn fide_5_1b_resignation_loses() {
    let mut t = Table::new("3d");
    t.moves("e4 e5");
    t.act(Color::White, |s, t| s.resign(t));
    let st = t.state();
    assert_eq!(st.result, win(Color::Black));
    assert_eq!(st.termination, Some(Termination::Resignation));
}

#[test]
fn race_resignation_against_mate_first_signed_time_wins() {
    // Black resigns while White (not having seen it) mates: concurrent events are ordered
    // by signed time; the resignation was signed first.
    let mut t = Table::new("3d");
    t.moves("e4 e5 Bc4 Nc6 Qh5 Nf6");
    let white_seen = t.sheets[0].seen();
    t.act(Color::Black, |s, t| s.resign(t));
    // White's node had not seen the resignation.
    let mut w = Scoresheet::resume(
        key(1),
        t.sheets[0].game(),
        t.sheets[0].seq(),
        t.sheets[0].last(),
        white_seen,
    );
    let m = parse_san(&t.pos, "Qxf7#", Lang::English).unwrap();
    t.events.push(w.play(m, t.t + SECOND).unwrap());
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::Resignation));
    assert_eq!(st.result, win(Color::White));
    assert_eq!(st.ignored.len(), 1, "the mate is kept but has no effect");
}

// Art. 9: draws.

#[test]
fn fide_9_1_draw_offer_accepted() {
    let mut t = Table::new("3d");
    t.moves("e4 e5");
    t.act(Color::White, |s, t| s.offer_draw(t));
    assert_eq!(t.state().draw_offer, Some(Color::White));
    t.act(Color::Black, |s, t| s.accept_draw(t));
    let st = t.state();
    assert_eq!(st.result, Some(Outcome::Draw));
    assert_eq!(st.termination, Some(Termination::Agreement));
}

#[test]
fn fide_9_1_offer_stands_until_declined_or_the_opponent_moves() {
    let mut t = Table::new("3d");
    t.mv("e4");
    t.act(Color::White, |s, t| s.offer_draw(t));
    t.mv("e5"); // Black moves: the offer lapses.
    assert_eq!(t.state().draw_offer, None);
    t.act(Color::White, |s, t| s.offer_draw(t));
    t.act(Color::Black, |s, t| s.decline_draw(t));
    assert_eq!(t.state().draw_offer, None);
    assert_eq!(t.state().status, Status::Active);
}

#[test]
fn fide_9_1_accepting_an_offer_that_is_not_there_is_rejected() {
    let mut t = Table::new("3d");
    t.mv("e4");
    t.act(Color::Black, |s, t| s.accept_draw(t));
    assert!(matches!(
        t.err(),
        VerifyError::Rule {
            kind: "draw_accept",
            ..
        }
    ));
    assert_eq!(t.err().violation(), Some(&RuleViolation::NoDrawOffer));
    assert_eq!(t.err().article(), Some("9.1"));
}

fn knight_dance(t: &mut Table, times: usize) {
    for _ in 0..times {
        t.moves("Nf3 Nf6 Ng1 Ng8");
    }
}

#[test]
fn fide_9_2_threefold_claim_correct() {
    let mut t = Table::new("3d");
    knight_dance(&mut t, 2);
    t.act(Color::White, |s, t| {
        s.claim(ClaimReason::Threefold, None, t)
    });
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::ThreefoldRepetition));
    assert!(st.claims[0].correct);
}

#[test]
fn fide_9_2_threefold_claim_with_intended_move() {
    let mut t = Table::new("3d");
    knight_dance(&mut t, 1);
    t.moves("Nf3 Nf6 Ng1");
    let m = parse_san(&t.pos, "Ng8", Lang::English).unwrap();
    t.act(Color::Black, |s, t| {
        s.claim(ClaimReason::Threefold, Some(m), t)
    });
    assert_eq!(t.state().result, Some(Outcome::Draw));
}

#[test]
fn fide_9_5b_incorrect_claim_is_recorded_and_the_announced_move_is_made() {
    let mut t = Table::new("3d");
    t.moves("Nf3 Nf6 Ng1");
    let m = parse_san(&t.pos, "Ng8", Lang::English).unwrap();
    t.act(Color::Black, |s, t| {
        s.claim(ClaimReason::Threefold, Some(m), t)
    });
    t.pos.play_unchecked(m);
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert!(!st.claims[0].correct);
    assert_eq!(
        st.claims[0].judgement,
        sobre_core::record::verify::Judgement::NotThreefold { occurrences: 2 },
        "{}",
        st.claims[0].judgement
    );
    assert_eq!(st.moves.len(), 4, "the intended move was played");
    t.mv("e4"); // and the game goes on with White to move
    assert_eq!(t.state().moves.len(), 5);
}

#[test]
fn fide_9_2_only_the_player_to_move_claims() {
    let mut t = Table::new("3d");
    knight_dance(&mut t, 2);
    t.act(Color::Black, |s, t| {
        s.claim(ClaimReason::Threefold, None, t)
    });
    let err = t.err();
    assert!(matches!(err, VerifyError::Rule { kind: "claim", .. }));
    assert_eq!(
        err.violation(),
        Some(&RuleViolation::ClaimNotOnMove),
        "{err}"
    );
    assert_eq!(err.article(), Some("9.2"));
    assert_eq!(
        err.violation().map(ToString::to_string).as_deref(),
        Some("only the player to move may claim a draw (9.2, 9.3)")
    );
}

#[test]
fn fide_9_3_fifty_move_claim_with_intended_move() {
    let fen = "8/8/4k3/8/8/3K4/R7/8 w - - 99 80";
    let mut t = Table::from("3d", StartPosition::Fen(fen.into()));
    let m = parse_san(&t.pos, "Ra1", Lang::English).unwrap();
    t.act(Color::White, |s, t| {
        s.claim(ClaimReason::FiftyMoves, Some(m), t)
    });
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::FiftyMoves));
    assert_eq!(st.result, Some(Outcome::Draw));
}

#[test]
fn fide_9_3_fifty_move_claim_too_early_is_incorrect() {
    let fen = "8/8/4k3/8/8/3K4/R7/8 w - - 90 80";
    let mut t = Table::from("3d", StartPosition::Fen(fen.into()));
    t.act(Color::White, |s, t| {
        s.claim(ClaimReason::FiftyMoves, None, t)
    });
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert!(!st.claims[0].correct);
}

#[test]
fn fide_9_6_dead_position_ends_the_game() {
    let fen = "8/8/4k3/8/8/3K4/5B2/6n1 w - - 0 1";
    let mut t = Table::from("3d", StartPosition::Fen(fen.into()));
    t.mv("Bxg1");
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::DeadPosition));
    assert_eq!(st.result, Some(Outcome::Draw));
}

// Art. 6: clocks and time.

#[test]
fn fide_6_9_time_claim_wins_when_the_flag_has_fallen() {
    // Ten seconds for the game; Black does not move.
    let mut t = Table::new("otb 10s");
    t.mv("e4");
    t.t += 20 * SECOND;
    t.act(Color::White, |s, t| s.claim(ClaimReason::Time, None, t));
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::TimeForfeit));
    assert_eq!(st.result, win(Color::White));
}

#[test]
fn fide_6_9_time_claim_is_a_draw_when_the_claimant_cannot_mate() {
    // White has a lone king: Black's flag falls, but White could never mate.
    let fen = "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1";
    let mut t = Table::from("otb 10s", StartPosition::Fen(fen.into()));
    t.mv("Kd2");
    t.t += 20 * SECOND;
    t.act(Color::White, |s, t| s.claim(ClaimReason::Time, None, t));
    let st = t.state();
    assert_eq!(
        st.termination,
        Some(Termination::TimeForfeitInsufficientMaterial)
    );
    assert_eq!(st.result, Some(Outcome::Draw));
}

#[test]
fn fide_6_9_time_claim_before_the_flag_falls_is_incorrect() {
    let mut t = Table::new("3d");
    t.mv("e4");
    t.act(Color::White, |s, t| s.claim(ClaimReason::Time, None, t));
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert!(!st.claims[0].correct);
}

/// The time rule (docs/time.md; FIDE 6.9 with the protocol's leave): a leave cannot stop
/// time already past. Black, whose 3-day flag fell a day ago, signs a week's leave starting
/// four days back: it is kept as evidence, not applied, and White's time claim wins.
#[test]
fn attack_leave_dated_in_the_past_does_not_save_a_fallen_flag() {
    let mut t = Table::new("3d");
    let e4 = t.mv("e4");
    // Black's node receipts the move on arrival, as every honest node does: under protocol
    // version 2 a move counts as made when first countersigned.
    t.act(Color::Black, |s, t| s.receipt(e4.id(), t));
    t.t += 4 * DAY;
    t.act(Color::Black, |s, t| s.leave(t - 4 * DAY, t + 3 * DAY, t));
    let st = t.state();
    assert!(st.leave.is_empty(), "{:?}", st.leave);
    assert!(
        st.ignored
            .iter()
            .any(|(_, why)| why.contains("leave refused")),
        "{:?}",
        st.ignored
    );
    t.act(Color::White, |s, t| s.claim(ClaimReason::Time, None, t));
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::TimeForfeit));
    assert_eq!(st.result, win(Color::White));
}

/// The same leave signed when it starts is taken, and stops Black's clock (ICCF leave).
#[test]
fn a_leave_signed_when_it_starts_stops_the_clock() {
    let mut t = Table::new("3d");
    t.mv("e4");
    t.t += DAY;
    let leave = t.act(Color::Black, |s, t| s.leave(t, t + 7 * DAY, t));
    // White's node receipts it on arrival (protocol version 2: the leave counts from then).
    t.act(Color::White, |s, t| s.receipt(leave.id(), t));
    assert_eq!(t.state().leave.len(), 1);
    t.t += 5 * DAY;
    t.act(Color::White, |s, t| s.claim(ClaimReason::Time, None, t));
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert!(!st.claims[0].correct);
}

#[test]
fn receipts_start_the_opponents_clock() {
    let mut t = Table::new("3d");
    // Black's node is off: the move reaches it a day later.
    t.receipts = false;
    let e4 = t.mv("e4");
    t.t += DAY;
    t.act(Color::Black, |s, t| s.receipt(e4.id(), t));
    let st = t.state();
    assert_eq!(st.moves[0].received_ms, Some(t.t));
    let clocks = st.clocks.unwrap();
    // Black's clock started only when the move reached them, and White's ran until then
    // (protocol version 2: the mover pays for transit).
    assert_eq!(clocks.used_ms[1], 0);
    assert_eq!(clocks.used_ms[0], DAY + 2 * SECOND);
}

// Appendix A (adjourned games): `appendix_a_sealing.rs` and `appendix_a_resumption.rs`.

// The protocol's own rules.

#[test]
fn a_move_out_of_turn_is_rejected() {
    let mut t = Table::new("3d");
    t.mv("e4");
    let m = parse_san(&t.pos.null_move().unwrap(), "d4", Lang::English).unwrap();
    t.act(Color::White, |s, t| s.play(m, t));
    assert!(t.err().to_string().contains("out of turn"), "{}", t.err());
    assert_eq!(
        t.err().violation(),
        Some(&RuleViolation::OutOfTurn {
            colour: Color::Black
        })
    );
    assert_eq!(t.err().article(), Some("1.1"));
}

#[test]
fn an_illegal_move_is_rejected_with_the_event() {
    let mut t = Table::new("3d");
    let bad = sobre_core::Move::new(
        sobre_core::Square::parse("e2").unwrap(),
        sobre_core::Square::parse("e5").unwrap(),
        sobre_core::MoveKind::Normal,
    );
    let ev = t.act(Color::White, |s, t| s.play(bad, t));
    match t.err() {
        VerifyError::Rule {
            event, kind, rule, ..
        } => {
            assert_eq!(event, ev.id());
            assert_eq!(kind, "move");
            let (e2, e5) = (
                sobre_core::Square::parse("e2").unwrap(),
                sobre_core::Square::parse("e5").unwrap(),
            );
            assert!(
                matches!(*rule, RuleViolation::IllegalMove { from, to, .. } if from == e2 && to == e5),
                "{rule}"
            );
            assert!(
                rule.to_string().starts_with("illegal move e2e5 in "),
                "{rule}"
            );
            assert_eq!(rule.article(), Some("3"));
        }
        e => panic!("{e}"),
    }
}

#[test]
fn a_third_key_cannot_move() {
    let mut t = Table::new("3d");
    let mut intruder = Scoresheet::join(key(9), t.sheets[0].game());
    let m = parse_san(&t.pos, "e4", Lang::English).unwrap();
    t.events.push(intruder.play(m, T0 + 5 * SECOND).unwrap());
    assert!(matches!(t.err(), VerifyError::NotAPlayer { .. }));
}

/// 12.9 (2009; 12.8 in 2005): both players signed twins, so the game is lost for both: no
/// outcome, the status disputed, the reason the equivocation.
#[test]
fn fide_12_9_both_players_equivocate_and_both_lose() {
    let mut t = Table::new("3d");
    t.receipts = false;
    t.mv("e4");
    t.mv("e5");
    let mut twins: Vec<SignedEvent> = Vec::new();
    for (i, [a, b]) in [(0usize, ["Nf3", "Bc4"]), (1, ["Nc6", "Nf6"])] {
        let (seq, last) = (t.sheets[i].seq(), t.sheets[i].last());
        // Black's twins both answer White's first twin (Nf3), which the replay then keeps.
        let seen = if i == 0 {
            t.sheets[i].seen()
        } else {
            Some(twins[0].id())
        };
        for (k, san) in [a, b].into_iter().enumerate() {
            let pos = if i == 0 {
                t.pos.clone()
            } else {
                // Black's replies are legal after either of White's twins.
                let mut p = t.pos.clone();
                p.play(parse_san(&p, "Nf3", Lang::English).unwrap())
                    .unwrap();
                p
            };
            let m = parse_san(&pos, san, Lang::English).unwrap();
            let mut sheet =
                Scoresheet::resume(key(i as u8 + 1), t.sheets[i].game(), seq, last, seen);
            let at = t.t + (i as u64 * 10 + k as u64 + 1) * SECOND;
            twins.push(sheet.play(m, at).unwrap());
        }
    }
    t.events.extend(twins);
    let st = t.state();
    assert_eq!(st.equivocations.len(), 2);
    assert_eq!(st.status, Status::Disputed);
    assert_eq!(st.result, None);
    assert_eq!(st.termination, Some(Termination::Equivocation));
    assert!(st.lost_by_both());
}

#[test]
fn fide_12_8_an_equivocator_loses_the_game_and_the_proof_is_kept() {
    let mut t = Table::new("3d");
    t.mv("e4");
    // Black signs two different replies at the same place in their scoresheet.
    let (seq, last, seen) = (t.sheets[1].seq(), t.sheets[1].last(), t.sheets[1].seen());
    let mut twin = Scoresheet::resume(key(2), t.sheets[1].game(), seq, last, seen);
    let c5 = parse_san(&t.pos, "c5", Lang::English).unwrap();
    let other = twin.play(c5, t.t + 2 * SECOND).unwrap();
    // Nobody refers to either twin: which one the replay keeps is the first by id, and a
    // receipt of the other would name an event the replay left out.
    t.receipts = false;
    t.mv("e5");
    t.events.push(other.clone());
    let st = t.state();
    assert_eq!(st.status, Status::Finished);
    assert_eq!(st.termination, Some(Termination::Equivocation));
    assert_eq!(
        st.result,
        Some(Outcome::Decisive {
            winner: Color::White
        })
    );
    assert_eq!(st.equivocations.len(), 1);
    let proof = &st.equivocations[0];
    assert_ne!(proof.first, proof.second);
    assert!(proof.first.verify().is_ok() && proof.second.verify().is_ok());
}

#[test]
fn random_colours_and_chess960_position_by_commit_reveal() {
    let (w, b) = (key(1), key(2));
    let secret = [5u8; 32];
    let ch = Challenge {
        opponent: b.player_id(),
        colour: ColourChoice::Random,
        time_control: "3d".into(),
        start: StartPosition::Chess960Random,
        coin_commitment: Some(commit::coin_commitment(&secret)),
        league: None,
    };
    let (mut cs, ev) = Scoresheet::challenge(w.clone(), ch, T0).unwrap();
    let game = cs.game();
    let mut os = Scoresheet::join(b.clone(), game);
    os.saw(ev.id());
    let acc = os.accept(Some([6; 32]), T0 + 1).unwrap();
    cs.saw(acc.id());
    let pending = verify(&[ev.clone(), acc.clone()]).unwrap();
    assert_eq!(pending.status, Status::Pending);
    assert_eq!(pending.white, None);
    let rev = cs.random_reveal(secret, T0 + 2).unwrap();
    let st = verify(&[ev, acc, rev]).unwrap();
    assert_eq!(st.status, Status::Active);
    let coin = commit::coin(&game, &secret, &[6; 32]);
    let expect_white = if commit::challenger_is_white(&coin) {
        w.player_id()
    } else {
        b.player_id()
    };
    assert_eq!(st.white, Some(expect_white));
    let n = commit::chess960_position(&coin);
    assert_eq!(st.start, Position::chess960(n));
}

#[test]
fn a_wrong_coin_opening_is_rejected() {
    let (w, b) = (key(1), key(2));
    let ch = Challenge {
        opponent: b.player_id(),
        colour: ColourChoice::Random,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: Some(commit::coin_commitment(&[5; 32])),
        league: None,
    };
    let (mut cs, ev) = Scoresheet::challenge(w, ch, T0).unwrap();
    let mut os = Scoresheet::join(b, cs.game());
    os.saw(ev.id());
    let acc = os.accept(Some([6; 32]), T0 + 1).unwrap();
    cs.saw(acc.id());
    let rev = cs.random_reveal([4; 32], T0 + 2).unwrap();
    assert!(
        verify(&[ev, acc, rev])
            .unwrap_err()
            .to_string()
            .contains("commitment")
    );
}

#[test]
fn chat_and_decline_and_abort() {
    let mut t = Table::new("3d");
    t.act(Color::Black, |s, t| s.chat("¡Suerte!", t));
    t.mv("e4");
    t.act(Color::Black, |s, t| s.abort(t));
    let st = t.state();
    assert_eq!(st.status, Status::Cancelled);
    assert_eq!(st.chat[0].2, "¡Suerte!");
    assert_eq!(st.result, None);
}

#[test]
fn events_in_any_order_with_duplicates_give_the_same_state() {
    let mut t = Table::new("3d");
    t.moves("e4 e5 Nf3 Nc6 Bb5 a6");
    let a = t.state();
    let mut shuffled: Vec<SignedEvent> = t.events.iter().rev().cloned().collect();
    shuffled.extend(t.events.iter().cloned());
    let b = verify(&shuffled).unwrap();
    assert_eq!(a.timeline, b.timeline);
    assert_eq!(a.position, b.position);
}

#[test]
fn unused_kind_names_are_stable() {
    assert_eq!(EventKind::Presence.name(), "presence");
}
