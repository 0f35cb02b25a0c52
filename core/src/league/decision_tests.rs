//! Each branch of the arbiter's decisions, on real signed games of a six-player league.

use super::*;
use crate::league::GameEntry;
use crate::league::standings::LeagueResult;
use crate::league::standings::standings;
use crate::league::tests::{key, six_player_league};
use crate::record::{
    Challenge, ColourChoice, Keypair, LeagueRound, Scoresheet, SignedEvent, StartPosition,
};
use crate::{Position, san};

#[derive(Clone, Copy)]
pub(crate) enum End {
    WhiteWins,
    BlackWins,
    InProgress,
}

/// A real signed league game of `round`: White challenges, Black accepts, 1.e4 e5, then
/// the end asked for.
pub(crate) fn game(
    league: &League,
    round: u32,
    white: &Keypair,
    black: &Keypair,
    end: End,
) -> GameEntry {
    let mut t = league.def.start_ms + u64::from(round) * 1000;
    let mut tick = || {
        t += 60_000;
        t
    };
    let challenge = Challenge {
        opponent: black.player_id(),
        colour: ColourChoice::ChallengerWhite,
        time_control: league.def.time_control.clone(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: Some(LeagueRound {
            league: league.id,
            round,
        }),
    };
    let (mut w, c) = Scoresheet::challenge(white.clone(), challenge, tick()).expect("sign");
    let mut b = Scoresheet::join(black.clone(), w.game());
    b.saw(c.id());
    let mut events: Vec<SignedEvent> = vec![c];
    let a = b.accept(None, tick()).expect("sign");
    w.saw(a.id());
    events.push(a);
    let mut pos = Position::new();
    for (white_moves, text) in [(true, "e4"), (false, "e5")] {
        let m = san::parse_san(&pos, text, san::Lang::English).expect("legal");
        let (mover, other) = if white_moves {
            (&mut w, &mut b)
        } else {
            (&mut b, &mut w)
        };
        let e = mover.play(m, tick()).expect("sign");
        other.saw(e.id());
        events.push(e);
        pos.play(m).expect("legal");
    }
    match end {
        End::WhiteWins => events.push(b.resign(tick()).expect("sign")),
        End::BlackWins => events.push(w.resign(tick()).expect("sign")),
        End::InProgress => {}
    }
    GameEntry {
        game: events[0].id(),
        events,
        proofs: Vec::new(),
    }
}

/// The pairings of player number `n` (1-based), in round order.
fn pairings_of(league: &League, n: usize) -> Vec<(u32, PlayerId, PlayerId)> {
    let p = league.player(n).expect("player");
    league
        .pairings()
        .into_iter()
        .filter(|(_, w, b)| *w == p || *b == p)
        .collect()
}

fn by_id<'a>(players: &'a [Keypair], id: &PlayerId) -> &'a Keypair {
    players
        .iter()
        .find(|k| k.player_id() == *id)
        .expect("a player")
}

pub(crate) fn points(s: &Standings, league: &League, n: usize) -> u32 {
    let p = league.player(n).expect("player");
    s.rows
        .iter()
        .find(|r| r.player == p)
        .expect("row")
        .points_halves
}

pub(crate) const NOW: u64 = 1_800_000_000_000;

#[test]
fn a_forfeit_scores_a_game_never_started_and_one_abandoned() {
    let (org, players, league) = six_player_league();
    let (p1, p6) = (league.player(1).unwrap(), league.player(6).unwrap());
    // Round 1: 1–6 never started; 2–5 abandoned after 1.e4 e5.
    let abandoned = game(&league, 1, &players[1], &players[4], End::InProgress);
    let base = standings(&league, std::slice::from_ref(&abandoned), NOW);
    assert_eq!(base.unplayed.iter().filter(|u| u.0 == 1).count(), 2);
    let f1 = league
        .decide(
            &org,
            Decision::Forfeit {
                round: 1,
                white: p1,
                black: p6,
                winner: p1,
            },
            NOW,
        )
        .expect("signed");
    let (p2, p5) = (league.player(2).unwrap(), league.player(5).unwrap());
    let f2 = league
        .decide(
            &org,
            Decision::Forfeit {
                round: 1,
                white: p2,
                black: p5,
                winner: p5,
            },
            NOW + 1,
        )
        .expect("signed");
    let s = apply(&league, base, &[f1, f2]);
    assert!(s.bad_decisions.is_empty(), "{:?}", s.bad_decisions);
    assert_eq!(s.decisions.len(), 2);
    assert_eq!(points(&s, &league, 1), 2);
    assert_eq!(points(&s, &league, 5), 2);
    assert_eq!(points(&s, &league, 2), 0);
    let g = s
        .games
        .iter()
        .find(|g| g.white == p2 && g.round == 1)
        .expect("2–5");
    assert_eq!(
        g.game, abandoned.game,
        "the abandoned game is the one decided"
    );
    assert_eq!(g.decided, Some(Decided::Forfeit));
    // The crosstable marks forfeits + and -.
    let grid = crate::league::render::grid(&s);
    let col = |name: &str| 3 + s.rows.iter().position(|r| r.name == name).expect("row");
    let ana = grid.iter().find(|r| r[2] == "Ana").expect("Ana's row");
    let fermin = grid
        .iter()
        .find(|r| r[2] == "Fermín")
        .expect("Fermín's row");
    assert_eq!(ana[col("Fermín")], "+");
    assert_eq!(fermin[col("Ana")], "-");
    // Of round 1, only 3–4 is left unplayed.
    let (p3, p4) = (league.player(3).unwrap(), league.player(4).unwrap());
    let round1: Vec<_> = s.unplayed.iter().filter(|u| u.0 == 1).collect();
    assert_eq!(round1, [&(1, p3, p4)]);
}

#[test]
fn a_decision_never_overrides_a_finished_game() {
    let (org, players, league) = six_player_league();
    let (p1, p6) = (league.player(1).unwrap(), league.player(6).unwrap());
    let played = game(&league, 1, &players[0], &players[5], End::BlackWins);
    let base = standings(&league, &[played], NOW);
    let f = league
        .decide(
            &org,
            Decision::Adjudicate {
                round: 1,
                white: p1,
                black: p6,
                verdict: Verdict::WhiteWins,
                reason: "late claim".into(),
            },
            NOW,
        )
        .expect("signed");
    let s = apply(&league, base, &[f]);
    assert_eq!(points(&s, &league, 6), 2, "Black's signed win stands");
    assert_eq!(points(&s, &league, 1), 0);
    assert_eq!(s.bad_decisions.len(), 1);
    assert!(s.bad_decisions[0].text.contains("never overrides"));
    assert!(!s.bad_decisions[0].excluded, "valid, without effect");
}

#[test]
fn an_adjudication_gives_the_result_with_its_reason() {
    let (org, players, league) = six_player_league();
    let (p3, p4) = (league.player(3).unwrap(), league.player(4).unwrap());
    let open = game(&league, 1, &players[2], &players[3], End::InProgress);
    let base = standings(&league, &[open], NOW);
    let d = league
        .decide(
            &org,
            Decision::Adjudicate {
                round: 1,
                white: p3,
                black: p4,
                verdict: Verdict::Draw,
                reason: "dead drawn ending at the season's close".into(),
            },
            NOW,
        )
        .expect("signed");
    let s = apply(&league, base, &[d]);
    assert_eq!(points(&s, &league, 3), 1);
    assert_eq!(points(&s, &league, 4), 1);
    let g = s.games.iter().find(|g| g.white == p3).expect("3–4");
    assert!(
        matches!(&g.decided, Some(Decided::Adjudicated { reason }) if reason.contains("dead drawn"))
    );
    // An adjudication needs a reason.
    let no_reason = Decision::Adjudicate {
        round: 1,
        white: p3,
        black: p4,
        verdict: Verdict::Draw,
        reason: " ".into(),
    };
    assert_eq!(
        league.decide(&org, no_reason, NOW),
        Err(DecisionError::Reason {
            max: MAX_REASON_CHARS
        })
    );
}

/// Games of player `n` with results in their first `k` pairings: wins for `n`.
fn first_games(league: &League, players: &[Keypair], n: usize, k: usize) -> Vec<GameEntry> {
    let me = league.player(n).unwrap();
    pairings_of(league, n)
        .into_iter()
        .take(k)
        .map(|(round, w, b)| {
            let end = if w == me {
                End::WhiteWins
            } else {
                End::BlackWins
            };
            game(league, round, by_id(players, &w), by_id(players, &b), end)
        })
        .collect()
}

#[test]
fn a_withdrawal_before_half_the_games_annuls_all_results() {
    let (org, players, league) = six_player_league();
    let p1 = league.player(1).unwrap();
    // Two of five games played (both won): fewer than half.
    let games = first_games(&league, &players, 1, 2);
    let base = standings(&league, &games, NOW);
    assert_eq!(points(&base, &league, 1), 4);
    let w = league
        .decide(&org, Decision::Withdraw { player: p1 }, NOW)
        .expect("signed");
    let s = apply(&league, base, std::slice::from_ref(&w));
    assert_eq!(points(&s, &league, 1), 0);
    assert!(s.games.iter().all(|g| g.white != p1 && g.black != p1));
    assert!(s.unplayed.iter().all(|(_, a, b)| *a != p1 && *b != p1));
    assert!(
        s.decisions[0].text.contains("annulled"),
        "{:?}",
        s.decisions
    );
    // A later forfeit involving them is without effect.
    let (round, white, black) = pairings_of(&league, 1)[4];
    let f = league
        .decide(
            &org,
            Decision::Forfeit {
                round,
                white,
                black,
                winner: p1,
            },
            NOW + 5,
        )
        .expect("signed");
    let s = apply(&league, standings(&league, &games, NOW), &[w, f]);
    assert_eq!(points(&s, &league, 1), 0);
    assert!(s.bad_decisions[0].text.contains("annulled"));
}

#[test]
fn a_withdrawal_after_half_the_games_forfeits_the_rest() {
    let (org, players, league) = six_player_league();
    let p1 = league.player(1).unwrap();
    // Three of five played (won): the results stand, the other two are lost by forfeit.
    let games = first_games(&league, &players, 1, 3);
    let base = standings(&league, &games, NOW);
    let w = league
        .decide(&org, Decision::Withdraw { player: p1 }, NOW)
        .expect("signed");
    let s = apply(&league, base, &[w]);
    assert_eq!(points(&s, &league, 1), 6);
    let row = s.rows.iter().find(|r| r.player == p1).expect("row");
    assert_eq!((row.wins, row.losses), (3, 2));
    for (round, white, black) in pairings_of(&league, 1).into_iter().skip(3) {
        let g = s
            .games
            .iter()
            .find(|g| g.round == round && g.white == white && g.black == black)
            .expect("forfeited pairing");
        assert_eq!(g.decided, Some(Decided::Forfeit));
        let opponent = if white == p1 { black } else { white };
        let n = league.number(&opponent).unwrap();
        assert!(
            points(&s, &league, n) >= 2,
            "the opponent scores the forfeit"
        );
    }
}

#[test]
fn the_withdrawal_rule_is_a_league_setting() {
    let (org, players, league) = six_player_league();
    let p1 = league.player(1).unwrap();
    let games = first_games(&league, &players, 1, 1);
    let setting = league
        .decide(
            &org,
            Decision::Settings {
                withdrawal: WithdrawalRule::ForfeitRemaining,
            },
            league.def.start_ms - 1,
        )
        .expect("signed");
    let w = league
        .decide(&org, Decision::Withdraw { player: p1 }, NOW + 1)
        .expect("signed");
    let s = apply(&league, standings(&league, &games, NOW), &[w, setting]);
    assert_eq!(points(&s, &league, 1), 2, "the one win stands");
    let row = s.rows.iter().find(|r| r.player == p1).expect("row");
    assert_eq!(row.losses, 4);
}

/// The withdrawal rule decides whether signed results are annulled: it is one of the
/// competition's rules, fixed before round 1. Signed once the results are known, it is
/// refused; slipped into a league archive by hand, it is left out and named.
#[test]
fn the_withdrawal_rule_cannot_change_once_round_1_has_opened() {
    let (org, players, league) = six_player_league();
    let p1 = league.player(1).unwrap();
    let games = first_games(&league, &players, 1, 1);
    let late = Decision::Settings {
        withdrawal: WithdrawalRule::ForfeitRemaining,
    };
    assert!(matches!(
        league.decide(&org, late.clone(), NOW),
        Err(DecisionError::RoundOneStarted { .. })
    ));
    let forged = SignedLeagueDoc::sign(
        &crate::league::LeagueDoc {
            version: crate::league::LEAGUE_VERSION,
            author: org.player_id(),
            time_ms: NOW,
            kind: LeagueKind::Decision {
                league: league.id,
                decision: late,
            },
        },
        &org,
    )
    .expect("signed");
    let w = league
        .decide(&org, Decision::Withdraw { player: p1 }, NOW + 1)
        .expect("signed");
    let s = apply(&league, standings(&league, &games, NOW), &[w, forged]);
    assert_eq!(s.bad_decisions.len(), 1, "{:?}", s.bad_decisions);
    assert!(s.bad_decisions[0].text.contains("only before round 1"));
    // The FIDE rule applied: one game of five played, all results annulled.
    assert_eq!(points(&s, &league, 1), 0);
}

#[test]
fn a_decision_not_signed_by_the_organiser_is_left_out_and_named() {
    let (_, players, league) = six_player_league();
    let (p1, p6) = (league.player(1).unwrap(), league.player(6).unwrap());
    let doc = crate::league::LeagueDoc {
        version: crate::league::LEAGUE_VERSION,
        author: players[0].player_id(),
        time_ms: NOW,
        kind: LeagueKind::Decision {
            league: league.id,
            decision: Decision::Forfeit {
                round: 1,
                white: p1,
                black: p6,
                winner: p1,
            },
        },
    };
    let forged = SignedLeagueDoc::sign(&doc, &players[0]).expect("sign");
    let s = apply(
        &league,
        standings(&league, &[], NOW),
        std::slice::from_ref(&forged),
    );
    assert_eq!(points(&s, &league, 1), 0);
    assert_eq!(s.bad_decisions.len(), 1);
    assert_eq!(s.bad_decisions[0].doc, forged.id());
    assert!(s.bad_decisions[0].text.contains("not by the organiser"));
    assert!(s.bad_decisions[0].excluded);
    // Nor may anyone sign as the organiser for another key.
    assert!(matches!(
        league.decide(&key(77), Decision::Withdraw { player: p1 }, NOW),
        Err(DecisionError::NotTheOrganiser(_))
    ));
    // A decision about a pairing that is not in the table is refused.
    assert!(matches!(
        league.check_decision(
            &SignedLeagueDoc::sign(
                &crate::league::LeagueDoc {
                    version: crate::league::LEAGUE_VERSION,
                    author: league.organiser,
                    time_ms: NOW,
                    kind: LeagueKind::Decision {
                        league: league.id,
                        decision: Decision::Forfeit {
                            round: 1,
                            white: p6,
                            black: p1,
                            winner: p1,
                        },
                    },
                },
                &key(100),
            )
            .expect("sign")
        ),
        Err(DecisionError::NotAPairing { .. })
    ));
}

#[test]
fn a_decision_round_trips_on_the_wire() {
    let (org, _, league) = six_player_league();
    let p1 = league.player(1).unwrap();
    let d = league
        .decide(&org, Decision::Withdraw { player: p1 }, NOW)
        .expect("signed");
    let back = SignedLeagueDoc::from_bytes(&d.to_bytes().expect("encode")).expect("decode");
    assert_eq!(back, d);
    assert!(league.check_decision(&back).is_ok());
    assert_eq!(league.check_join(&back), Err(LeagueError::NotAJoin));
}

/// Art. 11 and 12.9: the arbiter declares a pairing lost by both (both absent, 6.6). Each
/// scores what a loss scores, the game counts as played, and the crosstable shows `-/-`.
#[test]
fn fide_11_double_forfeit_scores_nothing_for_either() {
    let (org, players, league) = six_player_league();
    let (p1, p6) = (league.player(1).unwrap(), league.player(6).unwrap());
    let base = standings(&league, &[], NOW);
    let both = league
        .decide(
            &org,
            Decision::DoubleForfeit {
                round: 1,
                white: p1,
                black: p6,
            },
            NOW,
        )
        .expect("signed");
    let s = apply(&league, base, std::slice::from_ref(&both));
    assert!(s.bad_decisions.is_empty(), "{:?}", s.bad_decisions);
    assert!(
        s.decisions[0].text.contains("lost by both"),
        "{}",
        s.decisions[0].text
    );
    let g = s
        .games
        .iter()
        .find(|g| g.round == 1 && g.white == p1)
        .expect("1–6");
    assert_eq!(g.result, Some(LeagueResult::BothLost));
    assert_eq!(g.decided, Some(Decided::Forfeit));
    for n in [1, 6] {
        assert_eq!(points(&s, &league, n), 0);
        let p = league.player(n).unwrap();
        let row = s.rows.iter().find(|r| r.player == p).expect("row");
        assert_eq!((row.played, row.wins, row.losses), (1, 0, 1));
        assert_eq!(row.sb_quarters, 0);
    }
    let grid = crate::league::render::grid(&s);
    let at = |r: &str, c: &str| {
        let i = grid.iter().position(|l| l[2] == r).expect("row");
        let j = 3 + grid.iter().skip(1).position(|l| l[2] == c).expect("col");
        grid[i][j].clone()
    };
    assert_eq!(
        (at("Ana", "Fermín"), at("Fermín", "Ana")),
        ("-".into(), "-".into())
    );
    // A double forfeit is about a pairing of the table, and never overrides a game.
    let not_a_pairing = league.decide(
        &org,
        Decision::DoubleForfeit {
            round: 1,
            white: p6,
            black: p1,
        },
        NOW,
    );
    assert!(matches!(
        not_a_pairing,
        Err(DecisionError::NotAPairing { .. })
    ));
    let played = game(&league, 1, &players[0], &players[5], End::WhiteWins);
    let s = apply(&league, standings(&league, &[played], NOW), &[both]);
    assert_eq!(s.bad_decisions.len(), 1);
    assert_eq!(points(&s, &league, 1), 2);
}
