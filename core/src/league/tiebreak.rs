//! Ranking a league's table: points, then the league's ordered list of tie-breaks.
//!
//! The order is a league setting, signed by the organiser as a [`Decision::TieBreaks`]
//! (the league definition itself is signed and immutable). Without one, the order is
//! [`FIDE_ROUND_ROBIN`]: the FIDE Tie-Break Regulations (Handbook C.07, 2023) recommend,
//! for individual round robins, direct encounter, number of wins, Sonneborn-Berger, then
//! Koya. [`BEFORE_FIDE`] is the order sobre used before (Sonneborn-Berger, wins, direct
//! encounter), kept for leagues whose organiser wants it.
//!
//! Forfeits (an arbiter's [`Decision::Forfeit`], or a withdrawal's remaining games):
//! - **Number of wins** counts them: C.07 defines WIN as the rounds in which a participant
//!   obtained, "with or without playing", as many points as a win gives (only WON, a
//!   different tie-break, counts games won over the board).
//! - **Direct encounter**, **Sonneborn-Berger** and **Koya** use each pairing's result as
//!   scored, a forfeit included. C.07's special handling of unplayed rounds (a virtual
//!   opponent for opponent-score tie-breaks) exists for Swiss byes and absences; it is not
//!   applied here — see the notes of issue 20.
//! - A game lost by both ([`LeagueResult::BothLost`]: 12.9, or both forfeited, 6.6) is a
//!   loss for each: played, no points, no Sonneborn-Berger or Koya share, and a game
//!   between them for direct encounter (Art. 11: each scores what a loss scores).
//!
//! [`LeagueResult::BothLost`]: super::standings::LeagueResult::BothLost
//!
//! Players tied on points and on every tie-break of the list share a rank (C.07 would draw
//! lots; a table computed on every node cannot).
//!
//! [`Decision::TieBreaks`]: super::decision::Decision::TieBreaks
//! [`Decision::Forfeit`]: super::decision::Decision::Forfeit

use super::League;
use super::standings::{CountedGame, Row, Score};
use crate::record::{PlayerId, Status};
use crate::types::Color;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// One tie-break. A wire enum (signed in decisions): append only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TieBreak {
    /// Points scored in the games among the players still tied (C.07 "Direct Encounter",
    /// DE). It separates them only when every two of them have a finished game between
    /// them; otherwise it leaves them tied and the next tie-break decides.
    DirectEncounter,
    /// Number of wins, forfeit wins included (C.07 "Number of Wins", WIN).
    Wins,
    /// Sonneborn-Berger: the points of each opponent times the result against them
    /// (C.07 "Sonneborn-Berger", SB).
    SonnebornBerger,
    /// Koya: the points scored against the players who finished with at least half of
    /// the maximum possible score (C.07 "Koya System", KS). A player's maximum is a win in
    /// every pairing the table gives them.
    Koya,
}

/// FIDE's recommended order for individual round robins (C.07, 2023). The default.
pub const FIDE_ROUND_ROBIN: [TieBreak; 4] = [
    TieBreak::DirectEncounter,
    TieBreak::Wins,
    TieBreak::SonnebornBerger,
    TieBreak::Koya,
];

/// The order sobre used before leagues could choose one.
pub const BEFORE_FIDE: [TieBreak; 3] = [
    TieBreak::SonnebornBerger,
    TieBreak::Wins,
    TieBreak::DirectEncounter,
];

/// The most tie-breaks a league's order may list.
pub const MAX_TIE_BREAKS: usize = 8;

/// A tie-break order that cannot be read. Serialized (tagged by `kind`, snake case, each
/// kind named as a tie-break's) as the control API's league refusal carries it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum TieBreakError {
    #[error("unknown tie-break {name:?}: give de, wins, sb or koya")]
    #[serde(rename = "unknown_tie_break")]
    Unknown { name: String },
    #[error("tie-break {name:?} is listed twice")]
    #[serde(rename = "repeated_tie_break")]
    Repeated { name: String },
    /// `max` is [`MAX_TIE_BREAKS`], named so that the error says its limit.
    #[error("give 1 to {max} tie-breaks, or fide or before-fide")]
    #[serde(rename = "tie_break_count")]
    Count { max: usize },
}

impl TieBreak {
    /// The short name used on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            TieBreak::DirectEncounter => "de",
            TieBreak::Wins => "wins",
            TieBreak::SonnebornBerger => "sb",
            TieBreak::Koya => "koya",
        }
    }

    /// Parses an order: `fide`, `before-fide`, or a comma-separated list of
    /// `de`, `wins`, `sb`, `koya`.
    ///
    /// # Errors
    /// [`TieBreakError`] for an unknown or repeated name, or an empty or too long list.
    pub fn parse_order(text: &str) -> Result<Vec<TieBreak>, TieBreakError> {
        match text.trim() {
            "fide" => return Ok(FIDE_ROUND_ROBIN.to_vec()),
            "before-fide" => return Ok(BEFORE_FIDE.to_vec()),
            _ => {}
        }
        let mut out = Vec::new();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let t = match name {
                "de" | "direct" => TieBreak::DirectEncounter,
                "wins" | "win" => TieBreak::Wins,
                "sb" => TieBreak::SonnebornBerger,
                "koya" | "ks" => TieBreak::Koya,
                other => {
                    return Err(TieBreakError::Unknown {
                        name: other.to_owned(),
                    });
                }
            };
            if out.contains(&t) {
                return Err(TieBreakError::Repeated {
                    name: name.to_owned(),
                });
            }
            out.push(t);
        }
        if out.is_empty() || out.len() > MAX_TIE_BREAKS {
            return Err(TieBreakError::Count {
                max: MAX_TIE_BREAKS,
            });
        }
        Ok(out)
    }
}

/// Whether an order is valid to sign: 1 to [`MAX_TIE_BREAKS`] tie-breaks, none twice.
pub fn valid_order(order: &[TieBreak]) -> bool {
    !order.is_empty()
        && order.len() <= MAX_TIE_BREAKS
        && order
            .iter()
            .enumerate()
            .all(|(i, t)| !order[..i].contains(t))
}

/// Ranks the players of `league` from its counted games, by points and then `order`.
pub(super) fn rank(league: &League, games: &[CountedGame], order: &[TieBreak]) -> Vec<Row> {
    let scoring = league.def.scoring;
    let mut rows: Vec<Row> = league
        .def
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| Row {
            rank: 0,
            player: *p,
            number: i + 1,
            name: league.name(p),
            points_halves: 0,
            played: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            sb_quarters: 0,
            koya_halves: 0,
            direct_halves: None,
            unfinished: 0,
        })
        .collect();
    let index: HashMap<PlayerId, usize> = rows.iter().map(|r| (r.player, r.number - 1)).collect();
    let points = |s: Score| match s {
        Score::Win => scoring.win,
        Score::Draw => scoring.draw,
        Score::Loss => scoring.loss,
    };
    // (player index, opponent index, score) of every finished game.
    let mut results: Vec<(usize, usize, Score)> = Vec::new();
    for g in games {
        let (Some(&w), Some(&b)) = (index.get(&g.white), index.get(&g.black)) else {
            continue;
        };
        match g.result {
            // A loss for both (12.9, or a double forfeit) is each player's loss: played,
            // nothing scored, and it counts as met for direct encounter.
            Some(r) => {
                results.push((w, b, r.score(Color::White)));
                results.push((b, w, r.score(Color::Black)));
            }
            None => {
                if g.status != Status::Pending {
                    rows[w].unfinished += 1;
                    rows[b].unfinished += 1;
                }
            }
        }
    }
    for &(p, _, s) in &results {
        let r = &mut rows[p];
        r.played += 1;
        r.points_halves += points(s);
        match s {
            Score::Win => r.wins += 1,
            Score::Draw => r.draws += 1,
            Score::Loss => r.losses += 1,
        }
    }
    let totals: Vec<u32> = rows.iter().map(|r| r.points_halves).collect();
    // Koya's bar: half of the maximum, a win in every pairing the table gives the player.
    let mut pairings = vec![0u32; rows.len()];
    for (_, w, b) in league.pairings() {
        for p in [w, b] {
            if let Some(&i) = index.get(&p) {
                pairings[i] += 1;
            }
        }
    }
    let strong: Vec<bool> = (0..rows.len())
        .map(|i| u64::from(totals[i]) * 2 >= u64::from(pairings[i]) * u64::from(scoring.win))
        .collect();
    for &(p, o, s) in &results {
        rows[p].sb_quarters += s.half_points() * u64::from(totals[o]);
        if strong[o] {
            rows[p].koya_halves += points(s);
        }
    }

    // Groups tied on points, best first; each is split by the tie-breaks in order.
    let mut by_points: BTreeMap<std::cmp::Reverse<u32>, Vec<usize>> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        by_points
            .entry(std::cmp::Reverse(r.points_halves))
            .or_default()
            .push(i);
    }
    let mut tied: Vec<Vec<usize>> = Vec::new();
    for group in by_points.into_values() {
        split(&mut rows, &results, &points, group, order, &mut tied);
    }
    let mut out = Vec::with_capacity(rows.len());
    for group in tied {
        let rank = out.len() + 1;
        for i in group {
            let mut r = rows[i].clone();
            r.rank = rank;
            out.push(r);
        }
    }
    out
}

/// Splits a group of tied players (indices in Berger order) by `order`, appending the
/// groups still tied at the end, best first, to `out`.
fn split(
    rows: &mut [Row],
    results: &[(usize, usize, Score)],
    points: &dyn Fn(Score) -> u32,
    group: Vec<usize>,
    order: &[TieBreak],
    out: &mut Vec<Vec<usize>>,
) {
    let Some((&first, rest)) = order.split_first() else {
        out.push(group);
        return;
    };
    if group.len() < 2 {
        out.push(group);
        return;
    }
    let value = |rows: &[Row], i: usize| -> u64 {
        match first {
            TieBreak::DirectEncounter => rows[i].direct_halves.map_or(0, u64::from),
            TieBreak::Wins => u64::from(rows[i].wins),
            TieBreak::SonnebornBerger => rows[i].sb_quarters,
            TieBreak::Koya => u64::from(rows[i].koya_halves),
        }
    };
    if first == TieBreak::DirectEncounter {
        let all_met = group.iter().enumerate().all(|(k, &a)| {
            group[k + 1..]
                .iter()
                .all(|&b| results.iter().any(|&(p, o, _)| p == a && o == b))
        });
        if !all_met {
            split(rows, results, points, group, rest, out);
            return;
        }
        for &p in &group {
            let direct = results
                .iter()
                .filter(|(a, o, _)| *a == p && group.contains(o))
                .map(|&(_, _, s)| points(s))
                .sum();
            rows[p].direct_halves = Some(direct);
        }
    }
    let mut sub: BTreeMap<std::cmp::Reverse<u64>, Vec<usize>> = BTreeMap::new();
    for &i in &group {
        sub.entry(std::cmp::Reverse(value(rows, i)))
            .or_default()
            .push(i);
    }
    for g in sub.into_values() {
        split(rows, results, points, g, rest, out);
    }
}

#[cfg(test)]
#[path = "tiebreak_tests.rs"]
mod tests;
