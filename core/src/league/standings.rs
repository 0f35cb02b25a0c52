//! Standings of a league, computed only from games that verify.
//!
//! - Scores: FIDE Art. 11 (1, ½, 0; a win by forfeit or on time is a win), or the league's
//!   own [`Scoring`](super::Scoring), counted in half points.
//! - Tie-breaks: the league's order (see [`super::tiebreak`]); by default FIDE's for round
//!   robins. Players tied on all of them share a rank.
//!
//! A game counts only if its record verifies, names this league, and is the pairing the
//! Berger table gives for its round (same two players, same colours). Anything else is
//! listed in [`Standings::excluded`] with the reason: a forged record cannot change the table.
//!
//! - A game lost by both players (12.9 of 2009, 12.8 of 2005: each signed two different
//!   events at one place, see [`GameState::rule_misconduct`]) counts as played and scores
//!   nothing for either: [`LeagueResult::BothLost`].
//! - In a league with a start deadline, a pairing not started in time is forfeited by the
//!   absent player(s) (FIDE 6.6, see [`super::deadline`]).

use super::deadline::{self, Appearance, appearance};
use super::{Board, League};
use crate::outcome::Outcome;
use crate::record::PlayerId;
use crate::record::equivocation::verify_with_proofs;
use crate::record::{GameId, GameState, SignedEvent, Status};
use crate::types::Color;
use std::collections::BTreeMap;

/// A game offered to the standings: its id and its signed events.
#[derive(Clone, Debug)]
pub struct GameEntry {
    pub game: GameId,
    pub events: Vec<SignedEvent>,
    /// Equivocation proofs the node keeps beside its log of the game: ruled as `verify`
    /// rules twins in the record (12.8/12.9), so every member's table is the same whichever
    /// twin its log holds.
    pub proofs: Vec<crate::record::equivocation::Proof>,
}

/// The result of a league pairing: a game's [`Outcome`], or a loss for both players, which
/// no outcome of a game says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeagueResult {
    /// 1–0, ½–½ or 0–1 (Art. 11.1), over the board or by forfeit.
    Outcome(Outcome),
    /// 0–0: the game is lost for both (12.9: "la partida se declarará perdida para
    /// ambos"), or both forfeited it (6.6: both absent). It counts as played; each player
    /// scores a loss (Art. 11.1: nothing, or the league's [`Scoring::loss`]).
    ///
    /// [`Scoring::loss`]: super::Scoring::loss
    BothLost,
}

impl LeagueResult {
    /// The score of the player of colour `me`: a loss for both when both lost.
    pub fn score(self, me: Color) -> Score {
        match self {
            LeagueResult::Outcome(o) => Score::of(o, me),
            LeagueResult::BothLost => Score::Loss,
        }
    }

    /// The game's outcome; `None` when both lost.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            LeagueResult::Outcome(o) => Some(o),
            LeagueResult::BothLost => None,
        }
    }

    /// Result text: `1-0`, `0-1`, `1/2-1/2`, or `0-0` for a loss for both. `0-0` is not a
    /// PGN result: [`super::pgn`] writes such a game as `*` with a comment.
    pub const fn as_str(self) -> &'static str {
        match self {
            LeagueResult::Outcome(o) => o.as_str(),
            LeagueResult::BothLost => "0-0",
        }
    }
}

impl From<Outcome> for LeagueResult {
    fn from(o: Outcome) -> LeagueResult {
        LeagueResult::Outcome(o)
    }
}

/// A league game that counts (finished or not).
#[derive(Clone, Debug)]
pub struct CountedGame {
    pub game: GameId,
    pub round: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    pub status: Status,
    /// `None` while the game is not finished.
    pub result: Option<LeagueResult>,
    /// Plies played so far.
    pub plies: usize,
    /// Set when the result is an arbiter's signed decision, not the game's own (see
    /// [`super::decision`]), or the start deadline's verdict ([`super::deadline`]); `game`
    /// is then the decision's id if no game was started, or the verdict's
    /// ([`super::deadline::verdict_id`]).
    pub decided: Option<super::decision::Decided>,
}

/// A game left out of the standings, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameNote {
    pub game: GameId,
    pub reason: String,
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// 1-based; tied players share it.
    pub rank: usize,
    pub player: PlayerId,
    /// Berger number.
    pub number: usize,
    pub name: String,
    /// Points, in half points.
    pub points_halves: u32,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Sonneborn-Berger, in quarter points (result fraction in halves × opponent's points
    /// in halves).
    pub sb_quarters: u64,
    /// Koya: points scored against the players with at least half of the maximum possible
    /// score, in half points (see [`super::tiebreak`]).
    pub koya_halves: u32,
    /// Direct encounter: points scored against the other players still tied with this one
    /// when the league's order reached it (in half points); `None` when it was not
    /// applied (nobody tied, or the tied players have not all met).
    pub direct_halves: Option<u32>,
    /// League games of this player still in progress.
    pub unfinished: u32,
}

/// The computed table.
#[derive(Clone, Debug)]
pub struct Standings {
    /// Ranked.
    pub rows: Vec<Row>,
    /// The tie-breaks that ranked them, in order (the league's setting).
    pub tie_breaks: Vec<super::tiebreak::TieBreak>,
    /// Games that count, in round order.
    pub games: Vec<CountedGame>,
    /// Games left out, with the reason.
    pub excluded: Vec<GameNote>,
    /// Pairings of open rounds with no game yet: (round, white, black).
    pub unplayed: Vec<(u32, PlayerId, PlayerId)>,
    /// Byes: (round, player).
    pub byes: Vec<(u32, PlayerId)>,
    /// The arbiter's decisions applied, in order, each with what it did.
    pub decisions: Vec<super::decision::DecisionNote>,
    /// Decisions left out: signed by someone other than the organiser, of another league,
    /// not about this league's pairings, or without effect; with the reason.
    pub bad_decisions: Vec<super::decision::DecisionNote>,
}

pub use crate::rules::scoring::Score;

impl Standings {
    /// The result of `player` against `opponent` in each of their counted games, in round
    /// order; `None` for a game not finished. A game lost by both is a loss for each.
    pub fn results_between(&self, player: &PlayerId, opponent: &PlayerId) -> Vec<Option<Score>> {
        self.games
            .iter()
            .filter_map(|g| {
                let me = if g.white == *player && g.black == *opponent {
                    Color::White
                } else if g.black == *player && g.white == *opponent {
                    Color::Black
                } else {
                    return None;
                };
                Some(g.result.map(|r| r.score(me)))
            })
            .collect()
    }
}

/// Computes the standings of `league` from the games offered, as of `now_ms` (which rounds
/// are open, for the list of unplayed pairings).
pub fn standings(league: &League, offered: &[GameEntry], now_ms: u64) -> Standings {
    let mut excluded = Vec::new();
    // (round, white, black) → the game that counts for that pairing.
    let mut chosen: BTreeMap<(u32, usize, usize), GameState> = BTreeMap::new();
    // (round, white, black) → how its players appeared, over all its games (6.6).
    let mut appeared: BTreeMap<(u32, usize, usize), Appearance> = BTreeMap::new();
    // (round, white, black) → the games of the pairing, for the deadline's notes.
    let mut of_pairing: BTreeMap<(u32, usize, usize), Vec<GameId>> = BTreeMap::new();
    let tc = league
        .def
        .time_control
        .parse::<crate::clock::TimeControl>()
        .map(|t| t.to_string())
        .unwrap_or_default();
    for entry in offered {
        let state = match verify_with_proofs(&entry.events, &entry.proofs) {
            Ok(s) => s,
            Err(e) => {
                excluded.push(GameNote {
                    game: entry.game,
                    reason: format!("does not verify: {e}"),
                });
                continue;
            }
        };
        let note = |reason: String| GameNote {
            game: entry.game,
            reason,
        };
        if state.game != entry.game {
            excluded.push(note(format!("its events are game {}", state.game)));
            continue;
        }
        let Some(lr) = state.challenge.league.clone() else {
            excluded.push(note("not a league game".into()));
            continue;
        };
        if lr.league != league.id {
            excluded.push(note(format!("a game of another league ({})", lr.league)));
            continue;
        }
        if state.time_control.to_string() != tc {
            excluded.push(note(format!(
                "played at {} instead of the league's {}",
                state.time_control, league.def.time_control
            )));
            continue;
        }
        // Colours: the challenge fixes them for league games; until accepted they are the
        // challenge's.
        let (white, black) = match (state.white, state.black) {
            (Some(w), Some(b)) => (w, b),
            _ => match state.challenge.colour {
                crate::record::ColourChoice::ChallengerWhite => (state.challenger, state.opponent),
                crate::record::ColourChoice::ChallengerBlack => (state.opponent, state.challenger),
                crate::record::ColourChoice::Random => {
                    excluded.push(note(
                        "colours drawn by lot: league colours come from the table".into(),
                    ));
                    continue;
                }
            },
        };
        if !league.is_pairing(lr.round, &white, &black) {
            excluded.push(note(format!(
                "{} – {} is not a pairing of round {} (Berger table)",
                league.name(&white),
                league.name(&black),
                lr.round
            )));
            continue;
        }
        let (Some(w), Some(b)) = (league.number(&white), league.number(&black)) else {
            continue;
        };
        let key = (lr.round, w, b);
        if league.start_deadline().is_some() {
            let arbiter = league.arbiter_for(&[white, black]);
            let seen = appearance(&state, &entry.events, &white, &black, &arbiter);
            appeared.entry(key).or_default().merge(seen);
            of_pairing.entry(key).or_default().push(entry.game);
        }
        match state.status {
            Status::Cancelled => {
                // A11.2 (club rules art. 16.5): an annulled game is replaced by a new one,
                // which is the game that counts for the pairing.
                let reason = if state.annulled.is_some() {
                    "annulled (A11b): to be replayed"
                } else {
                    "declined or aborted"
                };
                excluded.push(note(reason.into()));
                continue;
            }
            // 12.9 (2005: 12.8): lost for both, it counts as a game played, 0–0.
            Status::Disputed if state.lost_by_both() => {}
            Status::Disputed => {
                let who = state
                    .equivocations
                    .first()
                    .map(|e| league.name(&e.author))
                    .unwrap_or_default();
                // One equivocator's game is finished, lost by them (12.8, `rule_misconduct`);
                // here one player equivocated before colours were set: no game to lose.
                excluded.push(note(format!(
                    "disputed: {who} signed two different events at one point"
                )));
                continue;
            }
            _ => {}
        }
        // One game per pairing: the first one *both* players signed into (challenge and
        // acceptance) counts, then the smaller id. A challenge one player signed alone and
        // nobody accepted (`started_ms` is `None`) ranks after every started game, so it can
        // never push a finished result out of the table.
        let rank = |s: &GameState| (s.started_ms.is_none(), s.started_ms, s.game);
        match chosen.get(&key) {
            Some(existing) if rank(existing) <= rank(&state) => {
                excluded.push(note(format!(
                    "a second game for a pairing of round {}",
                    lr.round
                )));
            }
            Some(existing) => {
                excluded.push(GameNote {
                    game: existing.game,
                    reason: format!("a second game for a pairing of round {}", lr.round),
                });
                chosen.insert(key, state);
            }
            None => {
                chosen.insert(key, state);
            }
        }
    }

    let mut games: Vec<CountedGame> = Vec::new();
    // Pairings with a counted game or a verdict: not unplayed.
    let mut settled: Vec<(u32, usize, usize)> = Vec::new();
    for (i, boards) in league.rounds().iter().enumerate() {
        let round = i as u32 + 1;
        for b in boards {
            let Board::Game { white, black } = *b else {
                continue;
            };
            let key = (round, white, black);
            let (Some(w), Some(bl)) = (league.player(white), league.player(black)) else {
                continue;
            };
            // FIDE 6.6: a pairing not started by the deadline is forfeited by whoever was
            // absent; its games, late or never started, do not count.
            let verdict = league.start_deadline_ms(round).and_then(|deadline| {
                deadline::verdict(
                    &appeared.get(&key).copied().unwrap_or_default(),
                    deadline,
                    now_ms,
                )
            });
            if let Some(v) = verdict {
                for g in of_pairing.get(&key).into_iter().flatten() {
                    if chosen.get(&key).is_some_and(|s| s.game == *g)
                        || !excluded.iter().any(|n| n.game == *g)
                    {
                        excluded.push(GameNote {
                            game: *g,
                            reason: format!(
                                "round {round}: the pairing is forfeited, {}",
                                v.describe()
                            ),
                        });
                    }
                }
                games.push(deadline::forfeited(league, round, w, bl, v));
                settled.push(key);
                continue;
            }
            if let Some(s) = chosen.get(&key) {
                games.push(counted(s, round));
                settled.push(key);
            }
        }
    }

    // In round order, then by Berger numbers (as the table lists them).
    games.sort_by_key(|g| (g.round, league.number(&g.white), league.number(&g.black)));

    let mut unplayed = Vec::new();
    let mut byes = Vec::new();
    let open = league.open_rounds(now_ms);
    for (i, boards) in league.rounds().iter().enumerate() {
        let round = i as u32 + 1;
        for b in boards {
            match *b {
                Board::Game { white, black } => {
                    if open.contains(&round)
                        && !settled.contains(&(round, white, black))
                        && let (Some(w), Some(bl)) = (league.player(white), league.player(black))
                    {
                        unplayed.push((round, w, bl));
                    }
                }
                Board::Bye { player } => {
                    if let Some(p) = league.player(player) {
                        byes.push((round, p));
                    }
                }
            }
        }
    }
    let order = super::tiebreak::FIDE_ROUND_ROBIN.to_vec();
    let rows = super::tiebreak::rank(league, &games, &order);
    Standings {
        rows,
        tie_breaks: order,
        games,
        excluded,
        unplayed,
        byes,
        decisions: Vec::new(),
        bad_decisions: Vec::new(),
    }
}

/// The counted game of a verified game of `round`.
fn counted(s: &GameState, round: u32) -> CountedGame {
    let result = match s.status {
        Status::Finished => s.result.map(LeagueResult::Outcome),
        Status::Disputed if s.lost_by_both() => Some(LeagueResult::BothLost),
        _ => None,
    };
    CountedGame {
        game: s.game,
        round,
        white: s.white.unwrap_or(s.challenger),
        black: s.black.unwrap_or(s.opponent),
        status: s.status,
        result,
        plies: s.moves.len(),
        decided: None,
    }
}

/// Formats half points the way a crosstable does: `3½`, `½`, `4`.
pub fn halves(h: u32) -> String {
    match (h / 2, h % 2) {
        (0, 1) => "½".into(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

/// Formats quarter points: `6.25`, `6.5`, `7`.
pub fn quarters(q: u64) -> String {
    let whole = q / 4;
    match q % 4 {
        0 => whole.to_string(),
        1 => format!("{whole}.25"),
        2 => format!("{whole}.5"),
        _ => format!("{whole}.75"),
    }
}

#[cfg(test)]
#[path = "standings_tests.rs"]
mod tests;
