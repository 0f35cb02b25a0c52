//! A league's table as the board shows it: computed by the rules core from the league's
//! archive (`sobre league standings` computes it the same way), with each counted game
//! for the page to open.

use serde::{Deserialize, Serialize};
use sobre_core::league::archive;
use sobre_core::league::{decision, render};

/// The standings (as the crosstable's cells) and the games that count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardLeague {
    pub league: String,
    pub name: String,
    /// The crosstable, header first (`sobre_core::league::render::grid`).
    pub grid: Vec<Vec<String>>,
    pub games: Vec<LeagueGame>,
}

/// One counted game of a league.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueGame {
    pub game: String,
    pub round: u32,
    pub white_name: String,
    pub black_name: String,
    /// `1-0`, `0-1`, `1/2-1/2`, `0-0`; none while unfinished.
    pub result: Option<String>,
}

/// Why a league's archive cannot be shown.
#[derive(Debug, thiserror::Error)]
#[error("the league's archive does not read: {0}")]
pub struct LeagueError(#[from] archive::LeagueArchiveError);

/// The table of the league archive `text` at `now_ms`.
///
/// # Errors
/// [`LeagueError`] if the archive does not read.
pub fn board_league(text: &str, now_ms: u64) -> Result<BoardLeague, LeagueError> {
    let arch = archive::read(text)?;
    let (league, standings) = decision::table(&arch.league, &arch.games, &arch.decisions, now_ms);
    let games = standings
        .games
        .iter()
        .map(|g| LeagueGame {
            game: g.game.to_hex(),
            round: g.round,
            white_name: league.name(&g.white),
            black_name: league.name(&g.black),
            result: g.result.map(|r| r.as_str().to_owned()),
        })
        .collect();
    Ok(BoardLeague {
        league: league.id.to_hex(),
        name: league.def.name.clone(),
        grid: render::grid(&standings),
        games,
    })
}
