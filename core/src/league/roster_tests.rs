//! The deputy arbiter and the roster decisions (issue 20), on real signed games: who may
//! sign what, and a late entry or a replacement before round 1.

use super::tests::{End, NOW, game, points};
use super::*;
use crate::league::standings::standings;
use crate::league::tests::{key, league_with_deputy, six_player_league};
use crate::league::{LEAGUE_VERSION, LeagueDef, LeagueDoc, archive};
use crate::record::Keypair;

/// The leagues of these tests open round 1 at 1_700_000_000_000 and were created at
/// 1_699_000_000_000: a time in between is "before round 1".
const BEFORE: u64 = 1_699_500_000_000;

/// A decision signed by `key` as it is, without the checks of [`League::decide`]: what a
/// node signing anything it likes can send.
fn signed_by(key: &Keypair, league: &League, decision: Decision, t: u64) -> SignedLeagueDoc {
    SignedLeagueDoc::sign(
        &LeagueDoc {
            version: LEAGUE_VERSION,
            author: key.player_id(),
            time_ms: t,
            kind: LeagueKind::Decision {
                league: league.id,
                decision,
            },
        },
        key,
    )
    .expect("sign")
}

/// The pairing of round `round` where `a` plays: (white, black).
fn pairing(league: &League, round: u32, a: &PlayerId) -> (PlayerId, PlayerId) {
    league
        .pairings()
        .into_iter()
        .find(|(r, w, b)| *r == round && (w == a || b == a))
        .map(|(_, w, b)| (w, b))
        .expect("a pairing")
}

fn keypair<'a>(keys: &'a [Keypair], id: &PlayerId) -> &'a Keypair {
    keys.iter().find(|k| k.player_id() == *id).expect("a key")
}

fn bad<'a>(s: &'a Standings, doc: &SignedLeagueDoc) -> &'a DecisionNote {
    s.bad_decisions
        .iter()
        .find(|n| n.doc == doc.id())
        .expect("the decision is named")
}

#[test]
fn the_deputy_decides_the_organisers_games() {
    let (org, deputy, keys, league) = league_with_deputy();
    let o = org.player_id();
    // Round 1: the organiser (1) – 6, never started: the deputy gives it to 6 by forfeit.
    let (w1, b1) = pairing(&league, 1, &o);
    let forfeit = league
        .decide(
            &deputy,
            Decision::Forfeit {
                round: 1,
                white: w1,
                black: b1,
                winner: b1,
            },
            NOW,
        )
        .expect("the deputy signs it");
    // Round 2: the organiser's game is abandoned after 1.e4 e5; the deputy adjudicates it.
    let (w2, b2) = pairing(&league, 2, &o);
    let abandoned = game(
        &league,
        2,
        keypair(&keys, &w2),
        keypair(&keys, &b2),
        End::InProgress,
    );
    let adjudication = league
        .decide(
            &deputy,
            Decision::Adjudicate {
                round: 2,
                white: w2,
                black: b2,
                verdict: Verdict::Draw,
                reason: "level position when the round closed".into(),
            },
            NOW + 1,
        )
        .expect("the deputy signs it");
    let (_, s) = table(&league, &[abandoned], &[forfeit, adjudication], NOW);
    assert!(s.bad_decisions.is_empty(), "{:?}", s.bad_decisions);
    assert_eq!(s.decisions.len(), 2);
    assert_eq!(
        points(&s, &league, 1),
        1,
        "the organiser: a loss and a draw"
    );
    assert_eq!(points(&s, &league, league.number(&b1).unwrap()), 2);
    let other = if w2 == o { b2 } else { w2 };
    assert_eq!(points(&s, &league, league.number(&other).unwrap()), 1);
    // And the organiser's withdrawal is the deputy's too.
    let w = league
        .decide(&deputy, Decision::Withdraw { player: o }, NOW + 2)
        .expect("the deputy signs it");
    assert!(league.check_decision(&w).is_ok());
}

#[test]
fn the_organiser_may_not_decide_their_own_game() {
    let (org, deputy, _, league) = league_with_deputy();
    let o = org.player_id();
    let (w, b) = pairing(&league, 1, &o);
    let d = Decision::Forfeit {
        round: 1,
        white: w,
        black: b,
        winner: o,
    };
    assert_eq!(
        league.decide(&org, d.clone(), NOW),
        Err(DecisionError::OrganisersOwnGame {
            deputy: deputy.player_id()
        })
    );
    // Signed anyway: left out and named on every node, the table unchanged.
    let own = signed_by(&org, &league, d, NOW);
    let (_, s) = table(&league, &[], std::slice::from_ref(&own), NOW);
    assert_eq!(points(&s, &league, 1), 0);
    let note = bad(&s, &own);
    assert!(note.excluded);
    assert!(note.text.contains("the deputy arbiter"), "{}", note.text);
    assert!(s.decisions.is_empty());
}

#[test]
fn a_stranger_or_the_deputy_outside_its_remit_is_left_out_and_named() {
    let (org, deputy, _, league) = league_with_deputy();
    let o = org.player_id();
    let stranger = key(77);
    let (w, b) = pairing(&league, 1, &o);
    // A stranger about the organiser's game: not the deputy.
    let forged = signed_by(
        &stranger,
        &league,
        Decision::Forfeit {
            round: 1,
            white: w,
            black: b,
            winner: b,
        },
        NOW,
    );
    // A stranger about another game: not the organiser.
    let (p2, p5) = (league.player(2).unwrap(), league.player(5).unwrap());
    let (w25, b25) = pairing(&league, 1, &p2);
    assert_eq!((w25, b25), (p2, p5), "round 1 of six: 2–5");
    let forged2 = signed_by(
        &stranger,
        &league,
        Decision::Forfeit {
            round: 1,
            white: p2,
            black: p5,
            winner: p5,
        },
        NOW,
    );
    // The deputy about a game the organiser does not play, and about the settings.
    let outside = signed_by(
        &deputy,
        &league,
        Decision::Forfeit {
            round: 1,
            white: p2,
            black: p5,
            winner: p2,
        },
        NOW,
    );
    let settings = signed_by(
        &deputy,
        &league,
        Decision::Settings {
            withdrawal: WithdrawalRule::ForfeitRemaining,
        },
        NOW,
    );
    let all = [
        forged.clone(),
        forged2.clone(),
        outside.clone(),
        settings.clone(),
    ];
    let (_, s) = table(&league, &[], &all, NOW);
    assert!(s.decisions.is_empty(), "{:?}", s.decisions);
    assert!(s.rows.iter().all(|r| r.points_halves == 0));
    assert!(bad(&s, &forged).text.contains("not by the deputy arbiter"));
    assert!(bad(&s, &forged2).text.contains("not by the organiser"));
    for d in [&outside, &settings] {
        let n = bad(&s, d);
        assert!(n.excluded);
        assert!(
            n.text.contains("decides only the organiser's own games"),
            "{}",
            n.text
        );
    }
    assert_eq!(
        league.check_decision(&forged),
        Err(DecisionError::NotTheDeputy(stranger.player_id()))
    );
    assert_eq!(
        league.check_decision(&outside),
        Err(DecisionError::DeputyOutsideRemit(deputy.player_id()))
    );
}

/// The six-player league without its last player: five, so every round has a bye.
fn five_player_league() -> (Keypair, Vec<Keypair>, League) {
    let (org, mut keys, league) = six_player_league();
    keys.truncate(5);
    let mut def: LeagueDef = league.def.clone();
    def.players.truncate(5);
    def.names.truncate(5);
    let league = League::create(&org, def, 1_699_000_000_000).expect("valid");
    (org, keys, league)
}

#[test]
fn a_late_entry_before_round_1_fills_the_byes() {
    let (org, keys, league) = five_player_league();
    let gabriel = key(7);
    let enter = league
        .decide(
            &org,
            Decision::Enter {
                player: gabriel.player_id(),
                name: "Gabriel".into(),
            },
            BEFORE,
        )
        .expect("before round 1");
    let (amended, s) = table(&league, &[], std::slice::from_ref(&enter), NOW);
    assert!(s.bad_decisions.is_empty(), "{:?}", s.bad_decisions);
    assert_eq!(amended.def.players.len(), 6);
    assert_eq!(amended.number(&gabriel.player_id()), Some(6));
    assert_eq!(amended.name(&gabriel.player_id()), "Gabriel");
    assert_eq!(s.rows.len(), 6);
    assert!(s.byes.is_empty(), "six players: no byes");
    // Berger (C.05 Annex 1): with five the highest number, 6, was the bye, so every
    // pairing of the five stands and the byes become Gabriel's games.
    let before = league.pairings();
    let after = amended.pairings();
    assert!(before.iter().all(|p| after.contains(p)));
    assert_eq!(after.len(), before.len() + 5);
    // Gabriel's round-1 game counts; he joins like the others.
    let (w, b) = pairing(&amended, 1, &gabriel.player_id());
    let all: Vec<Keypair> = keys.iter().cloned().chain([gabriel.clone()]).collect();
    let g = game(
        &amended,
        1,
        keypair(&all, &w),
        keypair(&all, &b),
        End::WhiteWins,
    );
    let (_, s) = table(&league, &[g], std::slice::from_ref(&enter), NOW);
    assert!(s.excluded.is_empty(), "{:?}", s.excluded);
    assert_eq!(s.games.len(), 1);
    assert_eq!(points(&s, &amended, amended.number(&w).unwrap()), 2);
    let join = amended.join(&gabriel, BEFORE + 1).expect("a player now");
    assert_eq!(amended.check_join(&join), Ok(gabriel.player_id()));
    // An archive with the entry and his join verifies.
    let text = archive::write(&league, &[join], &[enter], &[]).expect("write");
    let arch = archive::read(&text).expect("read");
    assert!(arch.bad_joins.is_empty(), "{:?}", arch.bad_joins);
    assert_eq!(arch.joined, [gabriel.player_id()]);
}

#[test]
fn a_replacement_before_round_1_takes_the_players_number_and_pairings() {
    let (org, keys, league) = six_player_league();
    let carmen = league.player(3).unwrap();
    let hugo = key(8);
    let replace = league
        .decide(
            &org,
            Decision::Replace {
                out: carmen,
                player: hugo.player_id(),
                name: "Hugo".into(),
            },
            BEFORE,
        )
        .expect("before round 1");
    // Round 1 of six: 3–4, now Hugo – Diego.
    let diego = league.player(4).unwrap();
    let g = game(&league, 1, &hugo, &keys[3], End::BlackWins);
    let (amended, s) = table(&league, &[g], std::slice::from_ref(&replace), NOW);
    assert!(s.bad_decisions.is_empty(), "{:?}", s.bad_decisions);
    assert!(s.excluded.is_empty(), "{:?}", s.excluded);
    assert_eq!(amended.number(&hugo.player_id()), Some(3));
    assert_eq!(amended.number(&carmen), None);
    assert_eq!(amended.name(&hugo.player_id()), "Hugo");
    assert!(amended.is_pairing(1, &hugo.player_id(), &diego));
    assert!(s.rows.iter().all(|r| r.player != carmen));
    assert_eq!(points(&s, &amended, 4), 2);
    assert!(s.decisions[0].text.contains("Hugo replaces Carmen"));
    // Without the decision the same game is not a pairing of the table.
    let (_, plain) = table(
        &league,
        &[game(&league, 1, &hugo, &keys[3], End::BlackWins)],
        &[],
        NOW,
    );
    assert_eq!(plain.excluded.len(), 1);
}

#[test]
fn roster_decisions_apply_in_order() {
    let (org, _, league) = five_player_league();
    let (x, y) = (key(7).player_id(), key(8).player_id());
    let enter = league
        .decide(
            &org,
            Decision::Enter {
                player: x,
                name: "X".into(),
            },
            BEFORE,
        )
        .expect("signed");
    // Checked against the list the entry leaves: X is a player by then.
    let amended = amend(&league, std::slice::from_ref(&enter), &Started::new()).league;
    let replace = amended
        .decide(
            &org,
            Decision::Replace {
                out: x,
                player: y,
                name: "Y".into(),
            },
            BEFORE + 1,
        )
        .expect("signed");
    // Given in any order, they apply in the order signed.
    let (after, s) = table(&league, &[], &[replace, enter], NOW);
    assert!(s.bad_decisions.is_empty(), "{:?}", s.bad_decisions);
    assert_eq!(after.number(&y), Some(6));
    assert_eq!(after.number(&x), None);
}

#[test]
fn a_roster_decision_signed_once_round_1_opened_is_left_out_and_named() {
    let (org, keys, league) = six_player_league();
    let late = signed_by(
        &org,
        &league,
        Decision::Enter {
            player: key(7).player_id(),
            name: "Gabriel".into(),
        },
        league.def.start_ms,
    );
    assert!(matches!(
        league.check_decision(&late),
        Err(DecisionError::RoundOneStarted { .. })
    ));
    let replace = signed_by(
        &org,
        &league,
        Decision::Replace {
            out: keys[2].player_id(),
            player: key(8).player_id(),
            name: "Hugo".into(),
        },
        league.def.start_ms + 1,
    );
    let (amended, s) = table(&league, &[], &[late.clone(), replace.clone()], NOW);
    assert_eq!(
        amended.def.players, league.def.players,
        "the list is unchanged"
    );
    assert_eq!(s.rows.len(), 6);
    for d in [&late, &replace] {
        let n = bad(&s, d);
        assert!(n.excluded);
        assert!(n.text.contains("only before round 1"), "{}", n.text);
    }
}

/// An organiser who backdates a replacement cannot erase a game both players signed: the
/// replacement is without effect and the game counts.
#[test]
fn attack_a_backdated_replacement_never_removes_a_started_game() {
    let (org, keys, league) = six_player_league();
    // Round 1: 3–4 played, Carmen (3) wins.
    let played = game(&league, 1, &keys[2], &keys[3], End::WhiteWins);
    let replace = league
        .decide(
            &org,
            Decision::Replace {
                out: keys[2].player_id(),
                player: key(8).player_id(),
                name: "Hugo".into(),
            },
            BEFORE,
        )
        .expect("signed with a time before round 1");
    let (amended, s) = table(
        &league,
        std::slice::from_ref(&played),
        std::slice::from_ref(&replace),
        NOW,
    );
    assert_eq!(amended.def.players, league.def.players);
    let n = bad(&s, &replace);
    assert!(!n.excluded, "valid, but without effect");
    assert!(n.text.contains("was started"), "{}", n.text);
    assert_eq!(s.games.len(), 1);
    assert_eq!(points(&s, &league, 3), 2);
    // A game of a pairing the change keeps does not stop it: Ana – Fermín (1–6) played,
    // Carmen replaced.
    let other = game(&league, 1, &keys[0], &keys[5], End::WhiteWins);
    let (amended, s) = table(
        &league,
        std::slice::from_ref(&other),
        std::slice::from_ref(&replace),
        NOW,
    );
    assert_eq!(amended.number(&key(8).player_id()), Some(3));
    assert!(s.bad_decisions.is_empty(), "{:?}", s.bad_decisions);
}

#[test]
fn roster_decisions_that_make_no_sense_are_refused() {
    let (org, deputy, _, with_deputy) = league_with_deputy();
    let (plain_org, keys, plain) = six_player_league();
    let p2 = with_deputy.player(2).unwrap();
    let cases: Vec<(&League, &Keypair, Decision, DecisionError)> = vec![
        // The deputy may not become a player.
        (
            &with_deputy,
            &org,
            Decision::Enter {
                player: deputy.player_id(),
                name: "D".into(),
            },
            DecisionError::Doc(LeagueError::DeputyPlays {
                deputy: deputy.player_id(),
            }),
        ),
        (
            &with_deputy,
            &org,
            Decision::Replace {
                out: p2,
                player: deputy.player_id(),
                name: "D".into(),
            },
            DecisionError::Doc(LeagueError::DeputyPlays {
                deputy: deputy.player_id(),
            }),
        ),
        // The organiser enters a league without a deputy: nobody would judge their games.
        // (About the organiser, so the organiser's own arbiter signs: without a deputy, the
        // organiser.)
        (
            &plain,
            &plain_org,
            Decision::Enter {
                player: plain_org.player_id(),
                name: "O".into(),
            },
            DecisionError::Doc(LeagueError::OrganiserPlays),
        ),
        // A player already in the league.
        (
            &plain,
            &plain_org,
            Decision::Enter {
                player: keys[1].player_id(),
                name: "B".into(),
            },
            DecisionError::AlreadyPlays {
                player: keys[1].player_id(),
            },
        ),
        // Replacing someone who does not play.
        (
            &plain,
            &plain_org,
            Decision::Replace {
                out: key(9).player_id(),
                player: key(8).player_id(),
                name: "H".into(),
            },
            DecisionError::NotAPlayer {
                player: key(9).player_id(),
            },
        ),
        // A blank name.
        (
            &plain,
            &plain_org,
            Decision::Enter {
                player: key(8).player_id(),
                name: "  ".into(),
            },
            DecisionError::Name,
        ),
    ];
    for (league, signer, d, want) in cases {
        assert_eq!(league.decide(signer, d.clone(), BEFORE), Err(want.clone()));
        let doc = signed_by(signer, league, d, BEFORE);
        let (after, s) = table(league, &[], std::slice::from_ref(&doc), NOW);
        assert_eq!(after.def.players, league.def.players);
        let n = bad(&s, &doc);
        assert!(n.excluded);
        assert_eq!(n.text, want.to_string());
    }
    // Replacing the organiser (the deputy signs: it is about the organiser) is a sensible
    // change: the deputy is then left with nothing to judge.
    let out = with_deputy
        .decide(
            &deputy,
            Decision::Replace {
                out: org.player_id(),
                player: key(8).player_id(),
                name: "H".into(),
            },
            BEFORE,
        )
        .expect("valid");
    let (after, _) = table(&with_deputy, &[], &[out], NOW);
    assert_eq!(after.number(&key(8).player_id()), Some(1));
    // A stranger's roster decision is left out and named.
    let forged = signed_by(
        &key(77),
        &plain,
        Decision::Enter {
            player: key(77).player_id(),
            name: "Intruso".into(),
        },
        BEFORE,
    );
    let (after, s) = table(&plain, &[], std::slice::from_ref(&forged), NOW);
    assert_eq!(after.def.players, plain.def.players);
    assert!(bad(&s, &forged).text.contains("not by the organiser"));
    // The base standings of the plain league are what they were.
    assert_eq!(standings(&plain, &[], NOW).rows.len(), 6);
}
