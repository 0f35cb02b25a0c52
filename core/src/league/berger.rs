//! Round-robin pairings by the Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! For an even number `n` of players, the tables fix player `n` and rotate the others:
//!
//! - In round `r` (1-based) player `n` meets player `h = ((r - 1) · n/2) mod (n - 1) + 1`;
//!   `h` has White in odd rounds and player `n` has White in even rounds.
//! - The other pairs of round `r` are `(h + k) – (h − k)` for `k = 1 … n/2 − 1`, counted
//!   modulo `n − 1` in `1 … n − 1`, the first named with White.
//!
//! This reproduces the published tables exactly (the tests compare them line by line). With
//! an odd number of players the highest number is a bye ("if there is an odd number of
//! players, the highest number counts as a bye"). A double round robin repeats the cycle with
//! colours reversed; as C.05 recommends, the last two rounds of the first cycle are
//! exchanged, so nobody gets the same colour three times in a row across the cycles.

/// One board of a round: Berger numbers, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Board {
    Game {
        white: usize,
        black: usize,
    },
    /// The player has no opponent this round (odd number of players).
    Bye {
        player: usize,
    },
}

/// The smallest and largest league the tables are used for here.
pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 64;

/// The rounds of a single cycle for `players` players (3 ≤ players ≤ 64): one entry per
/// round, boards in the order of the published tables (the board of the highest number
/// first, as published). Returns an empty list outside that range.
pub fn single(players: usize) -> Vec<Vec<Board>> {
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        return Vec::new();
    }
    let n = players + players % 2; // odd: a ghost player n is the bye
    let half = n / 2;
    let m = n - 1;
    // Numbers 1..=m on a circle: `wrap(x)` maps any integer to that range.
    let wrap = |x: isize| -> usize { ((x - 1).rem_euclid(m as isize) + 1) as usize };
    let mut rounds = Vec::with_capacity(m);
    for r in 1..=m {
        let h = ((r - 1) * half) % m + 1;
        let mut boards = Vec::with_capacity(half);
        let fixed = if r % 2 == 1 {
            Board::Game { white: h, black: n }
        } else {
            Board::Game { white: n, black: h }
        };
        boards.push(fixed);
        for k in 1..half {
            let white = wrap(h as isize + k as isize);
            let black = wrap(h as isize - k as isize);
            boards.push(Board::Game { white, black });
        }
        if n != players {
            for b in &mut boards {
                if let Board::Game { white, black } = *b {
                    if white == n {
                        *b = Board::Bye { player: black };
                    } else if black == n {
                        *b = Board::Bye { player: white };
                    }
                }
            }
        }
        rounds.push(boards);
    }
    rounds
}

/// All rounds: the single cycle, or for a double round robin the first cycle (its last two
/// rounds exchanged, C.05) followed by the same rounds with colours reversed.
pub fn schedule(players: usize, double: bool) -> Vec<Vec<Board>> {
    let first = single(players);
    if !double {
        return first;
    }
    let mut cycle = first;
    let len = cycle.len();
    if len >= 2 {
        cycle.swap(len - 2, len - 1);
    }
    let second: Vec<Vec<Board>> = cycle
        .iter()
        .map(|boards| {
            boards
                .iter()
                .map(|b| match *b {
                    Board::Game { white, black } => Board::Game {
                        white: black,
                        black: white,
                    },
                    bye => bye,
                })
                .collect()
        })
        .collect();
    cycle.extend(second);
    cycle
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses the published notation `1-4, 2-3.` of one round, one round per line.
    fn published(text: &str) -> Vec<Vec<(usize, usize)>> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| {
                let l = l.split_once(". ").map_or(l, |(_, rest)| rest);
                l.trim_end_matches('.')
                    .split(", ")
                    .map(|p| {
                        let (w, b) = p.split_once('-').expect("w-b");
                        (w.trim().parse().expect("n"), b.trim().parse().expect("n"))
                    })
                    .collect()
            })
            .collect()
    }

    fn as_pairs(rounds: &[Vec<Board>], ghost: Option<usize>) -> Vec<Vec<(usize, usize)>> {
        rounds
            .iter()
            .map(|bs| {
                bs.iter()
                    .map(|b| match *b {
                        Board::Game { white, black } => (white, black),
                        // The published tables print the bye as a game against the ghost.
                        Board::Bye { player } => {
                            let g = ghost.expect("bye only with a ghost");
                            // Which colour the ghost had is not kept; compare unordered.
                            (player.min(g), player.max(g))
                        }
                    })
                    .collect()
            })
            .collect()
    }

    // The tables as published: FIDE Handbook C.05 Annex 1 ("Berger Tables for Round-Robin
    // Tournaments"), as reproduced in Chris Fox's "Berger Tables"
    // (http://c.w.fox.tripod.com/chess/berger.html) and in the Crenshaw-Berger sheet; the
    // two copies agree line for line.
    const T4: &str = "1. 1-4, 2-3.
        2. 4-3, 1-2.
        3. 2-4, 3-1.";
    const T6: &str = "1. 1-6, 2-5, 3-4.
        2. 6-4, 5-3, 1-2.
        3. 2-6, 3-1, 4-5.
        4. 6-5, 1-4, 2-3.
        5. 3-6, 4-2, 5-1.";
    const T8: &str = "1. 1-8, 2-7, 3-6, 4-5.
        2. 8-5, 6-4, 7-3, 1-2.
        3. 2-8, 3-1, 4-7, 5-6.
        4. 8-6, 7-5, 1-4, 2-3.
        5. 3-8, 4-2, 5-1, 6-7.
        6. 8-7, 1-6, 2-5, 3-4.
        7. 4-8, 5-3, 6-2, 7-1.";
    const T10: &str = "1. 1-10, 2-9, 3-8, 4-7, 5-6.
        2. 10-6, 7-5, 8-4, 9-3, 1-2.
        3. 2-10, 3-1, 4-9, 5-8, 6-7.
        4. 10-7, 8-6, 9-5, 1-4, 2-3.
        5. 3-10, 4-2, 5-1, 6-9, 7-8.
        6. 10-8, 9-7, 1-6, 2-5, 3-4.
        7. 4-10, 5-3, 6-2, 7-1, 8-9.
        8. 10-9, 1-8, 2-7, 3-6, 4-5.
        9. 5-10, 6-4, 7-3, 8-2, 9-1.";
    const T12: &str = "1. 1-12, 2-11, 3-10, 4-9, 5-8, 6-7.
        2. 12-7, 8-6, 9-5, 10-4, 11-3, 1-2.
        3. 2-12, 3-1, 4-11, 5-10, 6-9, 7-8.
        4. 12-8, 9-7, 10-6, 11-5, 1-4, 2-3.
        5. 3-12, 4-2, 5-1, 6-11, 7-10, 8-9.
        6. 12-9, 10-8, 11-7, 1-6, 2-5, 3-4.
        7. 4-12, 5-3, 6-2, 7-1, 8-11, 9-10.
        8. 12-10, 11-9, 1-8, 2-7, 3-6, 4-5.
        9. 5-12, 6-4, 7-3, 8-2, 9-1, 10-11.
        10. 12-11, 1-10, 2-9, 3-8, 4-7, 5-6.
        11. 6-12, 7-5, 8-4, 9-3, 10-2, 11-1.";
    const T14: &str = "1. 1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8.
        2. 14-8, 9-7, 10-6, 11-5, 12-4, 13-3, 1-2.
        3. 2-14, 3-1, 4-13, 5-12, 6-11, 7-10, 8-9.
        4. 14-9, 10-8, 11-7, 12-6, 13-5, 1-4, 2-3.
        5. 3-14, 4-2, 5-1, 6-13, 7-12, 8-11, 9-10.
        6. 14-10, 11-9, 12-8, 13-7, 1-6, 2-5, 3-4.
        7. 4-14, 5-3, 6-2, 7-1, 8-13, 9-12, 10-11.
        8. 14-11, 12-10, 13-9, 1-8, 2-7, 3-6, 4-5.
        9. 5-14, 6-4, 7-3, 8-2, 9-1, 10-13, 11-12.
        10. 14-12, 13-11, 1-10, 2-9, 3-8, 4-7, 5-6.
        11. 6-14, 7-5, 8-4, 9-3, 10-2, 11-1, 12-13.
        12. 14-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7.
        13. 7-14, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1.";

    #[test]
    fn even_tables_equal_the_published_berger_tables() {
        for (n, table) in [(4, T4), (6, T6), (8, T8), (10, T10), (12, T12), (14, T14)] {
            assert_eq!(as_pairs(&single(n), None), published(table), "{n} players");
        }
    }

    #[test]
    fn odd_numbers_use_the_next_table_with_the_highest_number_as_the_bye() {
        // C.05 Annex 1: "5 or 6 players" share a table; the highest number is the bye.
        for (n, table) in [(5, T6), (7, T8)] {
            let want: Vec<Vec<(usize, usize)>> = published(table)
                .into_iter()
                .map(|r| {
                    r.into_iter()
                        .map(|(w, b)| {
                            if w == n + 1 || b == n + 1 {
                                (w.min(b), w.max(b))
                            } else {
                                (w, b)
                            }
                        })
                        .collect()
                })
                .collect();
            assert_eq!(as_pairs(&single(n), Some(n + 1)), want, "{n} players");
            for round in single(n) {
                assert_eq!(
                    round
                        .iter()
                        .filter(|b| matches!(b, Board::Bye { .. }))
                        .count(),
                    1
                );
            }
        }
    }

    /// For 16 players no published copy was at hand: the table must follow the Annex 1
    /// construction the other tables follow (first round 1-16, 2-15, …; player 16 meets
    /// 1, 9, 2, 10, … alternating colours) and be a valid round robin.
    #[test]
    fn sixteen_players_follow_the_same_construction() {
        let t = single(16);
        assert_eq!(t.len(), 15);
        let r1: Vec<(usize, usize)> = (1..=8).map(|k| (k, 17 - k)).collect();
        assert_eq!(as_pairs(&t[..1], None)[0], r1);
        assert_eq!(
            as_pairs(&t[1..2], None)[0],
            vec![
                (16, 9),
                (10, 8),
                (11, 7),
                (12, 6),
                (13, 5),
                (14, 4),
                (15, 3),
                (1, 2)
            ]
        );
        let fixed: Vec<usize> = t
            .iter()
            .map(|r| {
                r.iter()
                    .find_map(|b| match *b {
                        Board::Game { white: 16, black } => Some(black),
                        Board::Game { white, black: 16 } => Some(white),
                        _ => None,
                    })
                    .expect("16 plays every round")
            })
            .collect();
        assert_eq!(
            fixed,
            vec![1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15, 8]
        );
        assert_valid_round_robin(16, &t);
    }

    fn assert_valid_round_robin(n: usize, t: &[Vec<Board>]) {
        let mut met = std::collections::HashSet::new();
        for round in t {
            let mut seen = std::collections::HashSet::new();
            for b in round {
                match *b {
                    Board::Game { white, black } => {
                        assert!(seen.insert(white) && seen.insert(black));
                        assert!(met.insert((white.min(black), white.max(black))));
                    }
                    Board::Bye { player } => assert!(seen.insert(player)),
                }
            }
            assert_eq!(seen.len(), n);
        }
        assert_eq!(met.len(), n * (n - 1) / 2);
    }

    #[test]
    fn every_size_is_a_round_robin() {
        for n in MIN_PLAYERS..=MAX_PLAYERS {
            assert_valid_round_robin(n, &single(n));
        }
        assert!(single(2).is_empty() && single(65).is_empty());
    }

    #[test]
    fn double_round_robin_reverses_colours_and_exchanges_the_last_two_rounds() {
        let d = schedule(6, true);
        let s = single(6);
        assert_eq!(d.len(), 10);
        assert_eq!(d[3], s[4]);
        assert_eq!(d[4], s[3]);
        for (a, b) in d[..5].iter().zip(&d[5..]) {
            for (x, y) in a.iter().zip(b) {
                match (*x, *y) {
                    (
                        Board::Game { white, black },
                        Board::Game {
                            white: w2,
                            black: b2,
                        },
                    ) => {
                        assert_eq!((white, black), (b2, w2));
                    }
                    _ => panic!("same boards"),
                }
            }
        }
        // Nobody has the same colour three rounds running across the cycles' seam.
        for p in 1..=6 {
            let colours: Vec<bool> = d
                .iter()
                .map(|r| {
                    r.iter()
                        .find_map(|b| match *b {
                            Board::Game { white, .. } if white == p => Some(true),
                            Board::Game { black, .. } if black == p => Some(false),
                            _ => None,
                        })
                        .expect("plays")
                })
                .collect();
            assert!(
                colours.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
                "player {p}: {colours:?}"
            );
        }
    }
}
