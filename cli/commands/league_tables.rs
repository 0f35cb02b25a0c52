//! How `sobre league` shows a league: the standings and the crosstable as text, in the
//! reader's language, and the words they use (the JSON, an API with English keys, is
//! `league_json`).

use crate::t;
use sobre_core::league::standings::{halves, quarters};
use sobre_core::league::{League, Standings};

pub(super) fn standings_text(league: &League, s: &Standings) -> String {
    let mut out = format!("{}\n", league.def.name);
    // Each column as wide as its English layout, or its heading in the run's language.
    let heads = [
        t!("league-col-rank"),
        t!("league-col-player"),
        t!("league-col-points"),
        t!("league-col-sb"),
        t!("league-col-wins"),
        t!("league-col-played"),
        t!("league-col-open"),
    ];
    let w: Vec<usize> = [4, 20, 5, 6, 4, 6, 4]
        .iter()
        .zip(&heads)
        .map(|(&w, h)| w.max(h.chars().count()))
        .collect();
    let row = |c: [String; 7]| {
        format!(
            "{:>w0$}  {:<w1$} {:>w2$} {:>w3$} {:>w4$} {:>w5$} {:>w6$}\n",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            c[5],
            c[6],
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3],
            w4 = w[4],
            w5 = w[5],
            w6 = w[6],
        )
    };
    out.push_str(&row(heads.clone()));
    for r in &s.rows {
        out.push_str(&row([
            r.rank.to_string(),
            r.name.clone(),
            halves(r.points_halves),
            quarters(r.sb_quarters),
            r.wins.to_string(),
            r.played.to_string(),
            r.unfinished.to_string(),
        ]));
    }
    if !s.excluded.is_empty() {
        out.push_str(&t!("league-games-left-out", count = s.excluded.len()));
        out.push('\n');
    }
    let order: Vec<&str> = s.tie_breaks.iter().map(|t| t.as_str()).collect();
    out.push_str(&t!("league-tie-breaks", order = order.join(", ")));
    out.push('\n');
    for n in &s.decisions {
        out.push_str(&t!("league-arbiter", text = n.text.as_str()));
        out.push('\n');
    }
    let excluded = s.bad_decisions.iter().filter(|n| n.excluded).count();
    if excluded > 0 {
        out.push_str(&t!("league-decisions-left-out", count = excluded));
        out.push('\n');
    }
    out
}

/// The crosstable's header in the run's language (the JSON and the CSV keep the core's
/// English one).
pub(super) fn translated_grid(mut grid: Vec<Vec<String>>) -> Vec<Vec<String>> {
    if let Some(head) = grid.first_mut() {
        for cell in head.iter_mut() {
            let word = match cell.as_str() {
                "Rank" => t!("league-col-rank"),
                "No" => t!("league-col-number"),
                "Player" => t!("league-col-player"),
                "Pts" => t!("league-col-points"),
                "SB" => t!("league-col-sb"),
                "Wins" => t!("league-col-wins"),
                _ => continue,
            };
            *cell = word;
        }
    }
    grid
}

/// A player's role in a league as the node names it (`organiser`, `player`…).
pub(super) fn role_word(role: &str) -> String {
    match role {
        "organiser" => t!("league-role-organiser"),
        "player" => t!("league-role-player"),
        "invited" => t!("league-role-invited"),
        "witness" => t!("league-role-witness"),
        other => other.to_owned(),
    }
}

pub(super) fn grid_text(grid: &[Vec<String>]) -> String {
    let cols = grid.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            grid.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in grid {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = widths[i].saturating_sub(c.chars().count());
                if i == 2 {
                    format!("{c}{}", " ".repeat(pad))
                } else {
                    format!("{}{c}", " ".repeat(pad))
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A game's state as the league's pairings name it, in the run's language.
pub(super) fn status_word(status: &str) -> String {
    match status {
        "not started" => t!("league-not-started"),
        other => super::common::status_word(other),
    }
}

/// The first 12 characters of an id.
pub(super) fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::common::assert_golden;
    use crate::i18n::{Language, with_lang};
    use sobre_core::league::decision::{self, Decision};
    use sobre_core::league::render;
    use sobre_core::league::{LeagueDef, Scoring};
    use sobre_core::record::Keypair;

    /// A four-player league whose round 1 was decided by forfeits (player 1 and 4 win), so
    /// the table has points without signed games.
    fn club_league() -> (League, Standings) {
        let org = Keypair::from_secret_bytes(&[100; 32]);
        let players: Vec<Keypair> = (1..=4u8)
            .map(|n| Keypair::from_secret_bytes(&[n; 32]))
            .collect();
        let def = LeagueDef {
            name: "Club de Ajedrez — Liga de otoño".into(),
            players: players.iter().map(Keypair::player_id).collect(),
            names: ["Ana", "Bruno", "Carmen", "Diego"]
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            double: false,
            time_control: "3d".into(),
            start_ms: 1_700_000_000_000,
            round_days: 7,
            scoring: Scoring::default(),
        };
        let league = League::create(&org, def, 1_699_000_000_000).expect("a valid league");
        let decisions: Vec<_> = league
            .pairings()
            .into_iter()
            .filter(|(round, _, _)| *round == 1)
            .map(|(round, white, black)| {
                let winner = if white == players[0].player_id() || white == players[3].player_id() {
                    white
                } else {
                    black
                };
                let d = Decision::Forfeit {
                    round,
                    white,
                    black,
                    winner,
                };
                league
                    .decide(&org, d, 1_700_100_000_000)
                    .expect("a valid decision")
            })
            .collect();
        let (league, s) = decision::table(&league, &[], &decisions, 1_700_200_000_000);
        (league, s)
    }

    /// The standings and the crosstable of a league, in English and in Spanish.
    #[test]
    fn league_tables_read_in_english_and_spanish() {
        let (league, s) = club_league();
        for (lang, suffix) in [(Language::English, ""), (Language::Spanish, "_es")] {
            let (table, grid) = with_lang(lang, || {
                (
                    standings_text(&league, &s),
                    grid_text(&translated_grid(render::grid(&s))),
                )
            });
            assert_golden(&format!("league_standings{suffix}.txt"), &table);
            assert_golden(&format!("league_crosstable{suffix}.txt"), &grid);
        }
    }
}
