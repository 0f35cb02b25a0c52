//! Standings from real signed games: one per pairing, exclusions with their reason, attacks, 12.8/12.9.

use super::*;
use crate::league::tests::six_player_league;
use crate::league::{League, LeagueDef, Scoring};
use crate::record::verify;
use crate::record::{
    Challenge, ColourChoice, EventKind, Keypair, LeagueRound, Scoresheet, StartPosition, WireMove,
};
use crate::{Position, san};

/// How a test game ends.
#[derive(Clone, Copy)]
enum End {
    WhiteWins,
    Draw,
    BlackWins,
    InProgress,
}

/// The challenge White signs for `black` in `round` of `league`, colours from the table.
fn league_challenge(league: &League, round: u32, black: &Keypair) -> Challenge {
    Challenge {
        opponent: black.player_id(),
        colour: ColourChoice::ChallengerWhite,
        time_control: league.def.time_control.clone(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: Some(LeagueRound {
            league: league.id,
            round,
        }),
    }
}

/// Plays a real signed league game: White challenges, Black accepts, two moves, then
/// the end asked for (resignation or an agreed draw).
fn game(league: &League, round: u32, white: &Keypair, black: &Keypair, end: End) -> GameEntry {
    let mut t = league.def.start_ms + u64::from(round) * 1000;
    let mut tick = || {
        t += 60_000;
        t
    };
    let challenge = league_challenge(league, round, black);
    let (mut w, c) = Scoresheet::challenge(white.clone(), challenge, tick()).expect("sign");
    let mut b = Scoresheet::join(black.clone(), w.game());
    b.saw(c.id());
    let mut events = vec![c];
    let mut pos = Position::new();
    let push = |sheet: &mut Scoresheet,
                other: &mut Scoresheet,
                e: SignedEvent,
                events: &mut Vec<SignedEvent>| {
        other.saw(e.id());
        let _ = sheet;
        events.push(e);
    };
    let a = b.accept(None, tick()).expect("sign");
    push(&mut b, &mut w, a, &mut events);
    for (mover_white, text) in [(true, "e4"), (false, "e5")] {
        let m = san::parse_san(&pos, text, san::Lang::English).expect("legal");
        let sheet = if mover_white { &mut w } else { &mut b };
        let e = sheet.play(m, tick()).expect("sign");
        if mover_white {
            push(&mut w, &mut b, e, &mut events);
        } else {
            push(&mut b, &mut w, e, &mut events);
        }
        pos.play(m).expect("legal");
    }
    match end {
        End::WhiteWins => {
            let e = b.resign(tick()).expect("sign");
            events.push(e);
        }
        End::BlackWins => {
            let e = w.resign(tick()).expect("sign");
            events.push(e);
        }
        End::Draw => {
            let e = w.offer_draw(tick()).expect("sign");
            b.saw(e.id());
            events.push(e);
            let e = b.accept_draw(tick()).expect("sign");
            events.push(e);
        }
        End::InProgress => {}
    }
    let game = events[0].id();
    assert!(verify(&events).is_ok(), "the test game verifies");
    GameEntry {
        game,
        events,
        proofs: Vec::new(),
    }
}

/// Six players, every game of the single round robin, results chosen so that all three
/// tie-breaks decide something (computed by hand below).
#[test]
fn standings_and_tie_breaks_of_a_six_player_round_robin() {
    let (_, keys, league) = six_player_league();
    // Results by pairing (white, black) with Berger numbers.
    let result = |w: usize, b: usize| -> End {
        match (w.min(b), w.max(b)) {
            (1, 2) => {
                if w == 1 {
                    End::WhiteWins
                } else {
                    End::BlackWins
                }
            } // 1 beats 2
            (1, 3) => {
                if w == 3 {
                    End::WhiteWins
                } else {
                    End::BlackWins
                }
            } // 3 beats 1
            (4, 5) | (4, 6) => End::Draw,
            (2, 6) => {
                if w == 2 {
                    End::WhiteWins
                } else {
                    End::BlackWins
                }
            } // 2 beats 6
            (3, 5) => {
                if w == 5 {
                    End::WhiteWins
                } else {
                    End::BlackWins
                }
            } // 5 beats 3
            _ => End::InProgress,
        }
    };
    let mut games = Vec::new();
    for (i, round) in league.rounds().iter().enumerate() {
        for b in round {
            if let Board::Game { white, black } = *b {
                games.push(game(
                    &league,
                    i as u32 + 1,
                    &keys[white - 1],
                    &keys[black - 1],
                    result(white, black),
                ));
            }
        }
    }
    let s = standings(
        &league,
        &games,
        league.def.start_ms + 100 * super::super::DAY_MS,
    );
    assert!(s.excluded.is_empty(), "{:?}", s.excluded);
    assert_eq!(s.games.len(), 15);
    assert!(s.unplayed.is_empty());
    // By hand: 1 beat 2, 3 beat 1, 4 drew 5 and 6, 2 beat 6, 5 beat 3.
    // Points: 1:1 2:1 3:1 4:1 5:1½ 6:½.
    // SB: 1: beat 2 (1) = 1; 2: beat 6 (½) = ½; 3: beat 1 (1) = 1;
    //     4: ½·1½ + ½·½ = 1; 5: ½·1 + 1 = 1½; 6: ½·1 = ½.
    // FIDE's order (the default): 1, 2, 3 and 4 tie on 1 point; they have not all met,
    // so direct encounter does not apply; 4 has no win; of 1, 2, 3 (one win each) SB puts
    // 1 and 3 (1) ahead of 2 (½); nobody reached half of the maximum, so Koya is 0 for
    // all and 1 and 3 share second place.
    let names: Vec<&str> = s.rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        ["Elena", "Ana", "Carmen", "Bruno", "Diego", "Fermín"]
    );
    let ranks: Vec<usize> = s.rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, [1, 2, 2, 4, 5, 6]);
    assert!(s.rows.iter().all(|r| r.direct_halves.is_none()));
    assert!(s.rows.iter().all(|r| r.koya_halves == 0));
    // The order used before (SB, wins, direct encounter): 1 and 3 tie on points, SB
    // and wins; 3 beat 1 (direct encounter). 4 has no win.
    let rows =
        crate::league::tiebreak::rank(&league, &s.games, &crate::league::tiebreak::BEFORE_FIDE);
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        ["Elena", "Carmen", "Ana", "Diego", "Bruno", "Fermín"]
    );
    let pts: Vec<String> = rows.iter().map(|r| halves(r.points_halves)).collect();
    assert_eq!(pts, ["1½", "1", "1", "1", "1", "½"]);
    let sb: Vec<String> = rows.iter().map(|r| quarters(r.sb_quarters)).collect();
    assert_eq!(sb, ["1.5", "1", "1", "1", "0.5", "0.5"]);
    let ranks: Vec<usize> = rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, [1, 2, 3, 4, 5, 6]);
    assert_eq!(rows[1].direct_halves, Some(2));
    assert_eq!(rows[2].direct_halves, Some(0));
    // Nine games still in progress: two per player except… count them.
    let unfinished: u32 = s.rows.iter().map(|r| r.unfinished).sum();
    assert_eq!(unfinished, 2 * 9);

    let g = crate::league::render::grid(&s);
    assert_eq!(
        g[0],
        [
            "Rank", "No", "Player", "1", "2", "3", "4", "5", "6", "Pts", "SB", "Wins"
        ]
    );
    // Columns in rank order: Elena, Ana, Carmen, Bruno, Diego, Fermín. Elena ranks 1;
    // against Carmen she won; against Diego drew; against Ana the game is in progress.
    assert_eq!(g[1][2], "Elena");
    assert_eq!(g[1][3], "×");
    assert_eq!(g[1][4], "*");
    assert_eq!(g[1][5], "1");
    assert_eq!(g[1][7], "½");
    let csv = crate::league::render::csv(&s);
    assert!(
        csv.starts_with(
            "\u{feff}Rank,No,Player,1,2,3,4,5,6,Pts,SB,Wins\r\n1,5,Elena,×,*,1,*,½,*,1½,1.5,1\r\n"
        ),
        "{csv}"
    );
    let html = crate::league::render::html(
        &league,
        &s,
        league.def.start_ms,
        sobre_words::Language::English,
    );
    assert!(html.contains("<td class=\"player\">Elena</td>"));
}

/// A player who lost cannot erase the result by signing a second challenge for the
/// same pairing that nobody accepts: whatever order the games come in, the finished game
/// counts and the pending one is the one left out.
#[test]
fn attack_unilateral_second_challenge_never_removes_a_finished_game() {
    let (_, keys, league) = six_player_league();
    // Round 1 is 1-6: Fermín (6, Black) wins.
    let honest = game(&league, 1, &keys[0], &keys[5], End::BlackWins);
    let challenge = league_challenge(&league, 1, &keys[5]);
    let (_, c) =
        Scoresheet::challenge(keys[0].clone(), challenge, league.def.start_ms).expect("sign");
    let pending = GameEntry {
        game: c.id(),
        events: vec![c],
        proofs: Vec::new(),
    };
    let now = league.def.start_ms + 100 * super::super::DAY_MS;
    for offered in [
        vec![honest.clone(), pending.clone()],
        vec![pending.clone(), honest.clone()],
    ] {
        let s = standings(&league, &offered, now);
        let counted: Vec<GameId> = s.games.iter().map(|g| g.game).collect();
        assert_eq!(counted, [honest.game]);
        assert_eq!(s.excluded.len(), 1, "{:?}", s.excluded);
        assert_eq!(s.excluded[0].game, pending.game);
        let fermin = s.rows.iter().find(|r| r.name == "Fermín").expect("a row");
        assert_eq!(fermin.points_halves, 2);
    }
}

/// Only a player's own equivocation can harm their game: twin receipts signed by a
/// witness (here the organiser, as a club mailbox) are kept as proof but the game and
/// its result count.
#[test]
fn attack_witness_equivocation_does_not_remove_a_game() {
    let (organiser, keys, league) = six_player_league();
    let mut entry = game(&league, 1, &keys[0], &keys[5], End::WhiteWins);
    let last = entry.events.last().expect("events").id();
    let first = entry.events[1].id();
    let t = league.def.start_ms + 10 * super::super::DAY_MS;
    let mut a = Scoresheet::join(organiser.clone(), entry.game);
    let mut b = Scoresheet::join(organiser.clone(), entry.game);
    entry.events.push(a.receipt(last, t).expect("sign"));
    entry.events.push(b.receipt(first, t + 1).expect("sign"));
    let state = verify(&entry.events).expect("verifies");
    assert_eq!(state.equivocations.len(), 1, "the twin is kept as proof");
    assert_eq!(state.status, Status::Finished);
    let s = standings(&league, &[entry.clone()], t);
    assert!(s.excluded.is_empty(), "{:?}", s.excluded);
    assert_eq!(s.games.len(), 1);
    let ana = s.rows.iter().find(|r| r.name == "Ana").expect("a row");
    assert_eq!(ana.points_halves, 2);
}

/// 12.8: a player who signs a twin of an event (here Black, beside the resignation
/// that lost the game, a draw offer at the same place) loses the game: it is no longer
/// left out as disputed. Nodes holding either twin, with the other kept as proof, show
/// one table.
#[test]
fn fide_12_8_an_equivocator_loses_the_game_in_every_table() {
    let (_, keys, league) = six_player_league();
    let entry = game(&league, 1, &keys[0], &keys[5], End::WhiteWins);
    let n = entry.events.len();
    let (resign, e5) = (&entry.events[n - 1], &entry.events[n - 2]);
    let seen = entry.events[n - 3].id();
    let mut twin_sheet =
        Scoresheet::resume(keys[5].clone(), entry.game, 2, Some(e5.id()), Some(seen));
    let t = league.def.start_ms + 10 * super::super::DAY_MS;
    let twin = twin_sheet.offer_draw(t).expect("sign");
    let mut holds_resignation = entry.clone();
    holds_resignation.events.push(twin.clone());
    let mut holds_offer = entry.clone();
    holds_offer.events[n - 1] = twin;
    holds_offer.events.push(resign.clone());
    let mut tables = Vec::new();
    for e in [&holds_resignation, &holds_offer] {
        let state = verify(&e.events).expect("verifies");
        assert_eq!(state.status, Status::Finished);
        assert_eq!(
            state.termination,
            Some(crate::rules::Termination::Equivocation)
        );
        assert_eq!(
            state.result,
            Some(Outcome::Decisive {
                winner: Color::White
            })
        );
        let s = standings(&league, std::slice::from_ref(e), t);
        assert!(s.excluded.is_empty(), "{:?}", s.excluded);
        tables.push(s.rows);
    }
    assert_eq!(tables[0], tables[1]);
    let ana = tables[0].iter().find(|r| r.name == "Ana").expect("a row");
    assert_eq!(ana.points_halves, 2);

    // A node whose log holds the draw offer keeps the resignation aside as proof; the
    // league archive it exports carries both, so `league verify` rules as the node does.
    let mut log = GameEntry {
        game: entry.game,
        events: entry.events[..n - 1].to_vec(),
        proofs: vec![crate::record::equivocation::Proof {
            game: entry.game,
            author: keys[5].player_id(),
            seq: 2,
            first: holds_offer.events[n - 1].clone(),
            second: resign.clone(),
        }],
    };
    log.events.push(holds_offer.events[n - 1].clone());
    let text = super::super::archive::write(&league, &[], &[], &[log]).expect("write");
    let arch = super::super::archive::read(&text).expect("read");
    let s = standings(&league, &arch.games, t);
    assert_eq!(s.rows, tables[0], "the archive's table is the node's");
}

/// 12.9 (2009; 12.8 in 2005): when both players signed twins — here each a draw offer
/// beside their first move — "la partida se declarará perdida para ambos". The game
/// counts as played and scores nothing for either: `0` in both cells, `*` in PGN with
/// a comment (PGN has no 0–0 result).
#[test]
fn fide_12_9_a_game_lost_by_both_counts_as_played_and_scores_nothing() {
    let (_, keys, league) = six_player_league();
    let mut entry = game(&league, 1, &keys[0], &keys[5], End::InProgress);
    let [c, a, e4, _e5] = [0, 1, 2, 3].map(|i| entry.events[i].id());
    let t = league.def.start_ms + super::super::DAY_MS;
    let mut white_twin = Scoresheet::resume(keys[0].clone(), entry.game, 1, Some(c), Some(a));
    let mut black_twin = Scoresheet::resume(keys[5].clone(), entry.game, 1, Some(a), Some(e4));
    entry.events.push(white_twin.offer_draw(t).expect("sign"));
    entry
        .events
        .push(black_twin.offer_draw(t + 1).expect("sign"));
    let state = verify(&entry.events).expect("verifies");
    assert!(state.lost_by_both(), "{:?}", state.status);

    let s = standings(&league, std::slice::from_ref(&entry), t + 2);
    assert!(s.excluded.is_empty(), "{:?}", s.excluded);
    assert_eq!(s.games.len(), 1);
    assert_eq!(s.games[0].result, Some(LeagueResult::BothLost));
    let row = |name: &str| s.rows.iter().find(|r| r.name == name).expect("a row");
    for name in ["Ana", "Fermín"] {
        let r = row(name);
        assert_eq!(
            (r.points_halves, r.played, r.losses, r.unfinished),
            (0, 1, 1, 0),
            "{name}"
        );
    }
    assert_eq!(
        s.results_between(&keys[0].player_id(), &keys[5].player_id()),
        [Some(Score::Loss)]
    );
    assert_eq!(
        s.results_between(&keys[5].player_id(), &keys[0].player_id()),
        [Some(Score::Loss)]
    );
    let g = crate::league::render::grid(&s);
    let at = |r: &str, c: &str| {
        let i = g.iter().position(|l| l[2] == r).expect("row");
        let j = 3 + g.iter().skip(1).position(|l| l[2] == c).expect("col");
        g[i][j].clone()
    };
    assert_eq!(
        (at("Ana", "Fermín"), at("Fermín", "Ana")),
        ("0".into(), "0".into())
    );
    let text = crate::league::pgn::pgn(&league, std::slice::from_ref(&entry), &s);
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(
        text.contains("[Termination \"lost for both (FIDE 12.9)\"]"),
        "{text}"
    );
    assert!(text.contains("0-0: lost for both"), "{text}");
    assert!(text.trim_end().ends_with('*'), "{text}");
}

#[test]
fn forged_and_foreign_games_are_left_out_with_the_reason() {
    let (_, keys, league) = six_player_league();
    // Round 1 is 1-6, 2-5, 3-4.
    let honest = game(&league, 1, &keys[0], &keys[5], End::WhiteWins);
    // A broken signature.
    let mut forged = game(&league, 1, &keys[1], &keys[4], End::WhiteWins);
    let last = forged.events.len() - 1;
    forged.events[last].signature[10] ^= 0x40;
    // An illegal move, correctly signed by its author.
    let mut illegal = game(&league, 1, &keys[2], &keys[3], End::InProgress);
    let mut sheet = Scoresheet::resume(
        keys[2].clone(),
        illegal.game,
        2,
        Some(illegal.events[2].id()),
        Some(illegal.events[3].id()),
    );
    let bad = sheet
        .append(
            EventKind::Move(WireMove {
                from: 4,
                to: 60,
                promotion: 0,
            }),
            league.def.start_ms + 10_000_000,
        )
        .expect("sign");
    illegal.events.push(bad);
    // Wrong colours for the pairing, and the wrong round.
    let reversed = game(&league, 1, &keys[5], &keys[0], End::BlackWins);
    let wrong_round = game(&league, 2, &keys[0], &keys[5], End::WhiteWins);
    // A game of another league.
    let (org, _, _) = six_player_league();
    let mut def = league.def.clone();
    def.name = "otra liga".into();
    let other = League::create(&org, def, 5).expect("valid");
    let foreign = game(&other, 1, &keys[0], &keys[5], End::BlackWins);

    let s = standings(
        &league,
        &[
            honest,
            forged.clone(),
            illegal.clone(),
            reversed,
            wrong_round,
            foreign,
        ],
        league.def.start_ms,
    );
    assert_eq!(s.games.len(), 1, "only the honest game counts");
    let reasons: Vec<&str> = s.excluded.iter().map(|n| n.reason.as_str()).collect();
    assert_eq!(s.excluded.len(), 5, "{reasons:?}");
    assert!(reasons[0].contains("does not verify") && reasons[0].contains("signature"));
    assert!(
        reasons[1].contains("does not verify") && reasons[1].contains("illegal"),
        "{}",
        reasons[1]
    );
    assert!(reasons[2].contains("not a pairing of round 1"));
    assert!(reasons[3].contains("not a pairing of round 2"));
    assert!(reasons[4].contains("another league"));
    assert_eq!(s.excluded[0].game, forged.game);
    assert_eq!(s.excluded[1].game, illegal.game);
    // The honest winner has the point; nobody else has any.
    assert_eq!(s.rows[0].name, "Ana");
    assert_eq!(s.rows[0].points_halves, 2);
    assert!(s.rows[1..].iter().all(|r| r.points_halves == 0));
    // 2-5 and 3-4 of round 1 have no counted game; rounds 2+ are not open yet.
    assert_eq!(s.unplayed.len(), 2);
}

#[test]
fn a_bye_and_custom_scoring() {
    let org = Keypair::from_secret_bytes(&[100; 32]);
    let keys: Vec<Keypair> = (1..=5)
        .map(|i| Keypair::from_secret_bytes(&[i; 32]))
        .collect();
    let def = LeagueDef {
        name: "cinco".into(),
        players: keys.iter().map(Keypair::player_id).collect(),
        names: ["A", "B", "C", "D", "E"].map(String::from).to_vec(),
        double: false,
        time_control: "5d".into(),
        start_ms: 1_000,
        round_days: 0,
        scoring: Scoring {
            win: 6,
            draw: 2,
            loss: 0,
        }, // 3 / 1 / 0 in half units
    };
    let league = League::create(&org, def, 0).expect("valid");
    // Round 1 of the 5/6 table: 1-6 (1 has the bye), 2-5, 3-4.
    let g1 = game(&league, 1, &keys[1], &keys[4], End::WhiteWins);
    let g2 = game(&league, 1, &keys[2], &keys[3], End::Draw);
    let s = standings(&league, &[g1, g2], 2_000);
    assert!(s.byes.contains(&(1, keys[0].player_id())));
    assert_eq!(s.byes.len(), 5);
    let b = s.rows.iter().find(|r| r.name == "B").expect("B");
    assert_eq!((b.rank, b.points_halves), (1, 6));
    let c = s.rows.iter().find(|r| r.name == "C").expect("C");
    assert_eq!(c.points_halves, 2);
    // Every round is open at once (round_days 0): 10 pairings, 2 played.
    assert_eq!(s.unplayed.len(), 8);
}
