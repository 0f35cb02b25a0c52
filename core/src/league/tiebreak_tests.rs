//! A hand-computed round robin that FIDE's order and the order sobre used before rank
//! differently, and its Koya scores.

use super::*;
use crate::league::decision::{Decision, apply};
use crate::league::standings::standings;
use crate::league::tests::six_player_league;
use crate::outcome::Outcome;
use crate::record::EventId;

/// Ana's, Bruno's … Fermín's result against each player, in half points (row against
/// column; the diagonal is unused):
///
/// ```text
///            A  B  C  D  E  F   pts  wins  SB    Koya
/// 1 Ana      ×  1  0  0  1  1   3    3     5     1
/// 2 Bruno    0  ×  1  1  ½  ½   3    2     8     2
/// 3 Carmen   1  0  ×  ½  1  1   3½   3     6.75  1½
/// 4 Diego    1  0  ½  ×  1  1   3½   3     6.75  1½
/// 5 Elena    0  ½  0  0  ×  1   1½   1     3.25  ½
/// 6 Fermín   0  ½  0  0  0  ×   ½    0     1.5   ½
/// ```
///
/// SB(Ana) = Bruno 3 + Elena 1½ + Fermín ½ = 5; SB(Bruno) = Carmen 3½ + Diego 3½ +
/// ½·1½ + ½·½ = 8. Koya's bar is half of 5 points: Ana, Bruno, Carmen and Diego reach it.
const HALVES: [[u32; 6]; 6] = [
    [0, 2, 0, 0, 2, 2],
    [0, 0, 2, 2, 1, 1],
    [2, 0, 0, 1, 2, 2],
    [2, 0, 1, 0, 2, 2],
    [0, 1, 0, 0, 0, 2],
    [0, 1, 0, 0, 0, 0],
];

fn games(league: &League) -> Vec<CountedGame> {
    league
        .pairings()
        .into_iter()
        .enumerate()
        .map(|(i, (round, white, black))| {
            let w = league.number(&white).expect("a player") - 1;
            let b = league.number(&black).expect("a player") - 1;
            let result = match HALVES[w][b] {
                2 => Outcome::Decisive {
                    winner: Color::White,
                },
                1 => Outcome::Draw,
                _ => Outcome::Decisive {
                    winner: Color::Black,
                },
            };
            CountedGame {
                game: EventId([i as u8; 32]),
                round,
                white,
                black,
                status: Status::Finished,
                result: Some(result.into()),
                plies: 40,
                decided: None,
            }
        })
        .collect()
}

fn table(rows: &[Row]) -> Vec<(usize, &str)> {
    rows.iter().map(|r| (r.rank, r.name.as_str())).collect()
}

#[test]
fn the_matrix_is_consistent() {
    for (i, row) in HALVES.iter().enumerate() {
        for (j, h) in row.iter().enumerate() {
            if i != j {
                assert_eq!(h + HALVES[j][i], 2, "{i} {j}");
            }
        }
    }
}

#[test]
fn fide_order_ranks_by_direct_encounter_where_the_old_order_used_sonneborn_berger() {
    let (_, _, league) = six_player_league();
    let g = games(&league);
    let fide = rank(&league, &g, &FIDE_ROUND_ROBIN);
    // Carmen and Diego: drew each other, 3 wins each, SB 6.75, Koya 1½: they share first.
    // Ana and Bruno on 3: Ana beat Bruno.
    assert_eq!(
        table(&fide),
        [
            (1, "Carmen"),
            (1, "Diego"),
            (3, "Ana"),
            (4, "Bruno"),
            (5, "Elena"),
            (6, "Fermín")
        ]
    );
    let ana = &fide[2];
    assert_eq!(
        (
            ana.points_halves,
            ana.wins,
            ana.sb_quarters,
            ana.direct_halves
        ),
        (6, 3, 20, Some(2))
    );
    assert_eq!(fide[3].direct_halves, Some(0));
    assert_eq!(fide[0].direct_halves, Some(1));
    assert_eq!(fide[4].direct_halves, None, "Elena is tied with nobody");

    let before = rank(&league, &g, &BEFORE_FIDE);
    // Bruno's SB 8 beats Ana's 5.
    assert_eq!(
        table(&before),
        [
            (1, "Carmen"),
            (1, "Diego"),
            (3, "Bruno"),
            (4, "Ana"),
            (5, "Elena"),
            (6, "Fermín")
        ]
    );
    assert_eq!(before[2].sb_quarters, 32);
    // Direct encounter came last and nobody was still tied when it came.
    assert_eq!(before[2].direct_halves, None);
}

#[test]
fn koya_counts_the_points_scored_against_players_on_half_the_maximum_or_more() {
    let (_, _, league) = six_player_league();
    let rows = rank(&league, &games(&league), &[TieBreak::Koya]);
    let koya = |name: &str| {
        rows.iter()
            .find(|r| r.name == name)
            .map(|r| r.koya_halves)
            .expect("a row")
    };
    // Hand-computed (see HALVES): strong players are Ana, Bruno, Carmen, Diego.
    assert_eq!(koya("Ana"), 2);
    assert_eq!(koya("Bruno"), 4);
    assert_eq!(koya("Carmen"), 3);
    assert_eq!(koya("Diego"), 3);
    assert_eq!(koya("Elena"), 1);
    assert_eq!(koya("Fermín"), 1);
    // With Koya alone, Bruno (2) passes Ana (1).
    assert_eq!(table(&rows)[2..4], [(3, "Bruno"), (4, "Ana")]);
}

#[test]
fn direct_encounter_needs_every_tied_player_to_have_met() {
    let (_, _, league) = six_player_league();
    // No games: everyone is tied on 0 and nobody has met, so direct encounter does not
    // apply (rather than giving everyone 0 from it).
    let rows = rank(&league, &[], &FIDE_ROUND_ROBIN);
    assert!(
        rows.iter()
            .all(|r| r.rank == 1 && r.direct_halves.is_none())
    );
}

#[test]
fn the_order_is_the_organisers_signed_setting() {
    let (org, _, league) = six_player_league();
    let now = league.def.start_ms + 100 * crate::league::DAY_MS;
    let mut s = standings(&league, &[], now);
    assert_eq!(s.tie_breaks, FIDE_ROUND_ROBIN);
    s.games = games(&league);
    let order = TieBreak::parse_order("before-fide").expect("an order");
    // The order is fixed before round 1 (signed after, it is refused: see below).
    let before = league.def.start_ms - 1;
    let d = league
        .decide(
            &org,
            Decision::TieBreaks {
                order: order.clone(),
            },
            before,
        )
        .expect("signed");
    assert!(matches!(
        league.decide(&org, Decision::TieBreaks { order }, now),
        Err(crate::league::decision::DecisionError::RoundOneStarted { .. })
    ));
    let s = apply(&league, s, &[d]);
    assert_eq!(s.tie_breaks, BEFORE_FIDE);
    assert_eq!(s.decisions[0].text, "tie-breaks: sb, wins, de");
    assert_eq!(table(&s.rows)[2..4], [(3, "Bruno"), (4, "Ana")]);
    // An empty or repeated order cannot be signed.
    for bad in [vec![], vec![TieBreak::Wins, TieBreak::Wins]] {
        assert!(matches!(
            league.decide(&org, Decision::TieBreaks { order: bad }, before),
            Err(crate::league::decision::DecisionError::TieBreakOrder)
        ));
    }
}

#[test]
fn orders_parse_from_names() {
    assert_eq!(
        TieBreak::parse_order("koya, sb").expect("valid"),
        [TieBreak::Koya, TieBreak::SonnebornBerger]
    );
    assert_eq!(
        TieBreak::parse_order("fide").expect("valid"),
        FIDE_ROUND_ROBIN
    );
    assert_eq!(
        TieBreak::parse_order("sb,buchholz"),
        Err(TieBreakError::Unknown {
            name: "buchholz".into()
        })
    );
    assert_eq!(
        TieBreak::parse_order("sb,sb"),
        Err(TieBreakError::Repeated { name: "sb".into() })
    );
    assert_eq!(
        TieBreak::parse_order(" , "),
        Err(TieBreakError::Count {
            max: MAX_TIE_BREAKS
        })
    );
}

/// C.07 counts a win by forfeit for "number of wins" (WIN: "with or without playing").
#[test]
fn a_forfeit_win_counts_as_a_win() {
    let (org, _, league) = six_player_league();
    let now = league.def.start_ms + 100 * crate::league::DAY_MS;
    let (round, white, black) = league.pairings()[0];
    let d = league
        .decide(
            &org,
            Decision::Forfeit {
                round,
                white,
                black,
                winner: black,
            },
            now,
        )
        .expect("signed");
    let s = apply(&league, standings(&league, &[], now), &[d]);
    let winner = s.rows.iter().find(|r| r.player == black).expect("a row");
    assert_eq!((winner.rank, winner.wins, winner.points_halves), (1, 1, 2));
    let loser = s.rows.iter().find(|r| r.player == white).expect("a row");
    assert_eq!((loser.wins, loser.losses), (0, 1));
}
