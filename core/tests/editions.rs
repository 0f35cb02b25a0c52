//! The verdicts that differ between the FIDE Laws in force from 1 July 2005 (seed 002) and
//! from 1 July 2009 (seed 003), each judged under both texts on the same signed record: a
//! game's agreed terms name its text (`Terms::edition`). The articles are numbered per text
//! (2005's 6.10 is 2009's 6.9; A8 names 6.10 in 2005 and 6.9 in 2009).

use crate::common::{Table, win};
use sobre_core::clock::{MINUTE, SECOND};
use sobre_core::record::terms::DEFAULT_MIN_NOTICE_MS;
use sobre_core::record::{
    ClaimReason, GameState, RuleViolation, StartPosition, Status, Terms, TermsEdition,
};
use sobre_core::san::{Lang, parse_san};
use sobre_core::{Color, Outcome, Termination};

const W: Color = Color::White;
const B: Color = Color::Black;
const BOTH: [TermsEdition; 2] = [TermsEdition::Fide2005, TermsEdition::Fide2009];

fn terms(edition: TermsEdition) -> Terms {
    Terms {
        edition,
        ..Terms::default()
    }
}

fn table(edition: TermsEdition) -> Table {
    Table::on_terms("otb 2h", terms(edition))
}

/// The player to move claims `reason`, with the move written as `intended` (9.2a / 9.3a) or
/// about the position on the board (9.2b / 9.3b).
fn claim(t: &mut Table, reason: ClaimReason, intended: Option<&str>) {
    let c = t.pos.turn();
    let m = intended.map(|san| parse_san(&t.pos, san, Lang::Auto).unwrap());
    t.act(c, |s, at| s.claim(reason, m, at));
}

fn threefold_drawn(st: &GameState) -> bool {
    st.claims.last().is_some_and(|c| c.correct)
        && st.result == Some(Outcome::Draw)
        && st.termination == Some(Termination::ThreefoldRepetition)
}

/// 9.2: both texts call positions the same when "the possible moves of all the pieces of both
/// players are the same". 2005 adds that they are not the same "si ha cambiado el derecho a
/// enrocar, temporalmente o de forma permanente"; 2009 drops that, so a right that cannot
/// be used at the moment adds no possible move.
///
/// From the start (every castling blocked by the pieces between), the rooks go g1/g8 and
/// back: the kingside rights are lost, the placement is the start's. Under 2009 the start
/// has now occurred three times; under 2005 the start with all rights once and the copy
/// without the kingside rights twice.
#[test]
fn fide_9_2_2005_vs_2009_castling_temporarily_impossible() {
    let line = "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8 Nf3 Nf6 Ng1";
    for edition in BOTH {
        // 9.2b: Black plays Ng8 and White, to move, claims.
        let mut t = table(edition);
        t.moves(line);
        t.mv("Ng8");
        claim(&mut t, ClaimReason::Threefold, None);
        let st = t.state();
        // 9.2a: Black writes Ng8 and claims instead of playing it.
        let mut a = table(edition);
        a.moves(line);
        claim(&mut a, ClaimReason::Threefold, Some("Ng8"));
        let st_a = a.state();
        match edition {
            TermsEdition::Fide2009 => {
                assert!(threefold_drawn(&st), "{}", st.claims[0].judgement);
                assert!(threefold_drawn(&st_a), "{}", st_a.claims[0].judgement);
            }
            TermsEdition::Fide2005 => {
                for st in [&st, &st_a] {
                    assert!(!st.claims[0].correct);
                    assert_eq!(
                        st.claims[0].judgement.to_string(),
                        "the position occurs 2 time(s), not three (9.2)"
                    );
                    assert_eq!(st.status, Status::Active);
                }
                // 9.5b: the announced move is made.
                assert_eq!(st_a.moves.last().unwrap().san, "Ng8");
            }
        }
    }
    // A record signed before terms named a text keeps the meaning it was signed under.
    let mut old = Table::new("otb 2h");
    old.moves(line);
    claim(&mut old, ClaimReason::Threefold, Some("Ng8"));
    assert!(!old.state().claims[0].correct);
}

/// 9.2 where the texts agree: a right that could be used makes the positions different under
/// both (the king walks e1-f1-e1 on an open first rank, so castling was possible at the
/// start), and so does an en passant capture that could be made and no longer can.
#[test]
fn fide_9_2_2005_and_2009_agree_on_a_usable_right() {
    let start = StartPosition::Fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".into());
    for edition in BOTH {
        let mut t = Table::from_on_terms("otb 2h", start.clone(), terms(edition));
        t.moves("Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8");
        claim(&mut t, ClaimReason::Threefold, None);
        let st = t.state();
        assert!(!st.claims[0].correct, "{edition:?}");
        assert_eq!(
            st.claims[0].judgement.to_string(),
            "the position occurs 2 time(s), not three (9.2)",
            "{edition:?}"
        );
    }
}

/// 9.4: 2005 "Si un jugador realiza una jugada sin haber reclamado tablas, pierde el derecho
/// a reclamarlas en esa jugada"; 2009 loses it already on touching a piece (4.3). A signed
/// record has no touched piece: a move is made the moment it is signed, so under both texts
/// the claim must come with the written move (9.2a) or instead of it. Black's Ng8 gives the
/// third occurrence: Black's claim with Ng8 written is correct, Black's claim signed after
/// playing Ng8 is refused (no longer on move), and White, now on move, may claim (9.2b).
#[test]
fn fide_9_4_2005_vs_2009_a_signed_move_without_a_claim_loses_the_right() {
    let line = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1";
    for edition in BOTH {
        let mut with_move = table(edition);
        with_move.moves(line);
        claim(&mut with_move, ClaimReason::Threefold, Some("Ng8"));
        assert!(threefold_drawn(&with_move.state()), "{edition:?}");

        let mut late = table(edition);
        late.moves(line);
        late.mv("Ng8");
        late.act(B, |s, at| s.claim(ClaimReason::Threefold, None, at));
        assert!(
            matches!(late.err().violation(), Some(RuleViolation::ClaimNotOnMove)),
            "{edition:?}: {}",
            late.err()
        );

        let mut opponent = table(edition);
        opponent.moves(line);
        opponent.mv("Ng8");
        claim(&mut opponent, ClaimReason::Threefold, None);
        assert!(threefold_drawn(&opponent.state()), "{edition:?}");
    }
}

/// 9.5b: an incorrect claim gives the opponent three minutes under both texts; 2005 also
/// takes half the claimant's time, at most three minutes, from a claimant with more than
/// two minutes (2009 takes nothing).
#[test]
fn fide_9_5b_2005_vs_2009_the_cost_of_an_incorrect_claim() {
    let left = |edition: Option<TermsEdition>| {
        let mut t = table(edition.unwrap_or(TermsEdition::Fide2009));
        t.moves("e4 e5");
        if edition.is_some() {
            claim(&mut t, ClaimReason::Threefold, None);
        } else {
            t.t += SECOND;
        }
        let at = t.t + SECOND;
        (t.left(at), t.state())
    };
    let (none, _) = left(None);
    for edition in BOTH {
        let (l, st) = left(Some(edition));
        assert!(!st.claims[0].correct);
        // 9.1b.3 (2009) / 9.1c (2005): the claim stands as White's draw offer.
        assert_eq!(st.draw_offer, Some(W), "{edition:?}");
        assert_eq!(
            l[B.index()],
            none[B.index()] + 3 * MINUTE as i64,
            "{edition:?}"
        );
        let taken = match edition {
            TermsEdition::Fide2005 => 3 * MINUTE as i64,
            TermsEdition::Fide2009 => 0,
        };
        assert_eq!(l[W.index()], none[W.index()] - taken, "{edition:?}");
    }
}

/// A8: a sealed move that cannot be played as written loses, "excepto en los casos
/// mencionados en los Artículos 6.10 y 9.6" (2005) or "5, 6.9 y 9.6" (2009). "Nf7", written
/// with knights on e5 and g5, is ambiguous, but either reading is a smothered mate: under
/// 2009 Art. 5 makes it a win, under 2005 it loses.
#[test]
fn fide_a8_2005_vs_2009_an_ambiguous_sealed_move_that_mates_either_way() {
    let start = StartPosition::Fen("6rk/6pp/8/4N1N1/8/8/8/6K1 w - - 0 1".into());
    for edition in BOTH {
        let mut t = Table::from_on_terms("otb 2h", start.clone(), terms(edition));
        // The resumption gives the agreed notice (A2.7).
        let resume = t.t + SECOND + DEFAULT_MIN_NOTICE_MS;
        let opening = t.seal("Nf7", Some(resume));
        t.presence_at(B, resume);
        t.reveal_at(W, resume + SECOND, &opening);
        let st = t.state();
        match edition {
            TermsEdition::Fide2009 => {
                assert_eq!(st.result, win(W));
                assert_eq!(st.termination, Some(Termination::Checkmate));
            }
            TermsEdition::Fide2005 => {
                assert_eq!(st.result, win(B));
                assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
            }
        }
    }
}
