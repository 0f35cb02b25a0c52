//! What `sobre league … --json` prints: one type per object, English keys (an API). The
//! text views in `league_tables` say the same in the reader's language.

use serde::Serialize;
use sobre_core::league::archive::LeagueArchive;
use sobre_core::league::decision::Decided;
use sobre_core::league::standings::{CountedGame, LeagueResult, Row};
use sobre_core::league::{League, Standings};

/// `league standings --json`, and the start of `league show` and `league verify`: the
/// table, the games counted, and what was left out or had no effect.
#[derive(Serialize)]
pub(super) struct StandingsJson<'a> {
    league: String,
    name: &'a str,
    tie_breaks: Vec<&'static str>,
    standings: Vec<RowJson<'a>>,
    games: Vec<CountedJson<'a>>,
    /// Games that do not verify or do not belong.
    excluded: Vec<ExcludedJson<'a>>,
    decisions: Vec<DecisionJson<'a>>,
    decisions_without_effect: Vec<BadDecisionJson<'a>>,
    /// Decisions that do not verify or are not the arbiter's (`league verify` fails).
    decisions_excluded: Vec<BadDecisionJson<'a>>,
    /// How many pairings have no game yet.
    unplayed: usize,
}

impl<'a> StandingsJson<'a> {
    pub(super) fn new(league: &'a League, s: &'a Standings) -> StandingsJson<'a> {
        let bad = |excluded: bool| {
            s.bad_decisions
                .iter()
                .filter(|n| n.excluded == excluded)
                .map(|n| BadDecisionJson {
                    decision: n.doc.to_hex(),
                    reason: &n.text,
                })
                .collect()
        };
        StandingsJson {
            league: league.id.to_hex(),
            name: &league.def.name,
            tie_breaks: s.tie_breaks.iter().map(|t| t.as_str()).collect(),
            standings: s.rows.iter().map(RowJson::new).collect(),
            games: s.games.iter().map(CountedJson::new).collect(),
            excluded: s
                .excluded
                .iter()
                .map(|n| ExcludedJson {
                    game: n.game.to_hex(),
                    reason: &n.reason,
                })
                .collect(),
            decisions: s
                .decisions
                .iter()
                .map(|n| DecisionJson {
                    decision: n.doc.to_hex(),
                    text: &n.text,
                })
                .collect(),
            decisions_without_effect: bad(false),
            decisions_excluded: bad(true),
            unplayed: s.unplayed.len(),
        }
    }
}

/// A line of the table: points and tie-breaks as numbers (halves and quarters divided out).
#[derive(Serialize)]
struct RowJson<'a> {
    rank: usize,
    /// The player's Berger number.
    number: usize,
    player: String,
    name: &'a str,
    points: f64,
    played: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    sonneborn_berger: f64,
    /// `null` when the direct encounter does not apply.
    direct_encounter: Option<f64>,
    koya: f64,
    unfinished: u32,
}

impl<'a> RowJson<'a> {
    fn new(r: &'a Row) -> RowJson<'a> {
        RowJson {
            rank: r.rank,
            number: r.number,
            player: r.player.to_string(),
            name: &r.name,
            points: f64::from(r.points_halves) / 2.0,
            played: r.played,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            sonneborn_berger: r.sb_quarters as f64 / 4.0,
            direct_encounter: r.direct_halves.map(|d| f64::from(d) / 2.0),
            koya: f64::from(r.koya_halves) / 2.0,
            unfinished: r.unfinished,
        }
    }
}

/// A game that counts, finished or not.
#[derive(Serialize)]
struct CountedJson<'a> {
    game: String,
    round: u32,
    white: String,
    black: String,
    status: &'static str,
    result: Option<&'static str>,
    plies: usize,
    decided: Option<DecidedJson<'a>>,
}

impl<'a> CountedJson<'a> {
    fn new(g: &'a CountedGame) -> CountedJson<'a> {
        CountedJson {
            game: g.game.to_hex(),
            round: g.round,
            white: g.white.to_string(),
            black: g.black.to_string(),
            status: g.status.name(),
            result: g.result.map(LeagueResult::as_str),
            plies: g.plies,
            decided: DecidedJson::new(g.decided.as_ref(), g.result),
        }
    }
}

/// A game left out of the table, and why.
#[derive(Serialize)]
struct ExcludedJson<'a> {
    game: String,
    reason: &'a str,
}

/// An arbiter's decision that applies, in words.
#[derive(Serialize)]
struct DecisionJson<'a> {
    decision: String,
    text: &'a str,
}

/// An arbiter's decision that does not apply, and why.
#[derive(Serialize)]
struct BadDecisionJson<'a> {
    decision: String,
    reason: &'a str,
}

/// How a game was decided without being played out (`null` when it was not): by the
/// arbiter's `forfeit`, by the league's `start_deadline` (6.6), each with its mark (`+/-` won
/// by White, `-/+` by Black, `-/-` lost by both), or `adjudicated`, with the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(super) enum DecidedJson<'a> {
    Forfeit { mark: &'static str },
    StartDeadline { mark: &'static str },
    Adjudicated { reason: &'a str },
}

impl<'a> DecidedJson<'a> {
    pub(super) fn new(
        d: Option<&'a Decided>,
        result: Option<LeagueResult>,
    ) -> Option<DecidedJson<'a>> {
        let mark = || match result {
            Some(LeagueResult::BothLost) => "-/-",
            Some(LeagueResult::Outcome(o)) if o.winner() == Some(sobre_core::Color::White) => "+/-",
            _ => "-/+",
        };
        Some(match d? {
            Decided::Forfeit => DecidedJson::Forfeit { mark: mark() },
            Decided::StartDeadline(_) => DecidedJson::StartDeadline { mark: mark() },
            Decided::Adjudicated { reason } => DecidedJson::Adjudicated { reason },
        })
    }
}

/// `league show --json`: the standings, with the league's terms and players.
#[derive(Serialize)]
pub(super) struct ShowJson<'a> {
    #[serde(flatten)]
    standings: StandingsJson<'a>,
    organiser: String,
    deputy: Option<String>,
    players: Vec<String>,
    names: &'a [String],
    /// The players whose join verifies.
    joined: Vec<String>,
    double: bool,
    time_control: &'a str,
    rounds: usize,
    start_ms: u64,
    round_days: u32,
}

impl<'a> ShowJson<'a> {
    pub(super) fn new(arch: &'a LeagueArchive, s: &'a Standings) -> ShowJson<'a> {
        let l = &arch.league;
        ShowJson {
            standings: StandingsJson::new(l, s),
            organiser: l.organiser.to_string(),
            deputy: l.deputy.map(|d| d.to_string()),
            players: l.def.players.iter().map(ToString::to_string).collect(),
            names: &l.def.names,
            joined: arch.joined.iter().map(ToString::to_string).collect(),
            double: l.def.double,
            time_control: &l.def.time_control,
            rounds: l.rounds().len(),
            start_ms: l.def.start_ms,
            round_days: l.def.round_days,
        }
    }
}

/// `league verify --json`: the standings, whether everything verifies, and the joins that
/// do not.
#[derive(Serialize)]
pub(super) struct VerifyJson<'a> {
    #[serde(flatten)]
    pub standings: StandingsJson<'a>,
    pub ok: bool,
    pub bad_joins: Vec<BadJoinJson<'a>>,
}

/// A join of the archive that does not verify: its line, and why.
#[derive(Serialize)]
pub(super) struct BadJoinJson<'a> {
    pub line: usize,
    pub reason: &'a str,
}

/// `league crosstable --json`: the grid as the CSV has it (English header).
#[derive(Serialize)]
pub(super) struct CrosstableJson {
    pub crosstable: Vec<Vec<String>>,
}

/// `league pairings --json`: the league and its boards, round by round.
#[derive(Serialize)]
pub(super) struct PairingsJson<'a> {
    pub league: String,
    pub pairings: &'a [PairingJson<'a>],
}

/// A board of a round: a game between two players, or a player's bye.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum PairingJson<'a> {
    Game {
        round: u32,
        white: String,
        black: String,
        white_name: String,
        black_name: String,
        /// When the round opens (RFC 3339).
        opens: String,
        /// `null` before the game is started.
        game: Option<String>,
        /// The game's state, or `not started`.
        status: &'static str,
        result: Option<&'static str>,
        decided: Option<DecidedJson<'a>>,
    },
    Bye {
        round: u32,
        bye: String,
        bye_name: String,
    },
}

impl PairingJson<'_> {
    pub(super) fn round(&self) -> u32 {
        match self {
            PairingJson::Game { round, .. } | PairingJson::Bye { round, .. } => *round,
        }
    }
}

/// How complete a view of a league is, as every `league … --json` object but `list` ends:
/// `complete` and `not_received` (how many games the organiser listed that the node does
/// not hold as far along yet), `null` where unknown (both for an archive file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(super) struct CoverageJson {
    pub complete: Option<bool>,
    pub not_received: Option<usize>,
}

/// A `league … --json` object with its [`CoverageJson`] beside its own keys.
#[derive(Serialize)]
pub(super) struct Covered<T> {
    #[serde(flatten)]
    pub view: T,
    #[serde(flatten)]
    pub coverage: CoverageJson,
}
