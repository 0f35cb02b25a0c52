//! The crosstable of a league: as a grid of cells, as CSV, and as a printable HTML page.
//!
//! Rows and columns are in rank order (the usual crosstable layout); a cell holds the row
//! player's results against the column player, one symbol per game: `1`, `½`, `0`, `*` for
//! a game in progress, and nothing for a game not started. The diagonal is `×`. A forfeit
//! (the arbiter's, or the start deadline's, FIDE 6.6) is `+` for the winner and `-` for the
//! loser; a double forfeit is `-` in both cells (`-/-`), and a game lost by both over the
//! board (12.9) `0` in both (0–0).

use super::League;
use super::decision::Decided;
use super::standings::{Score, Standings, halves, quarters};
use super::tiebreak::TieBreak;
use crate::record::export::iso_utc;
use crate::types::Color;
use sobre_words::Language;
use std::fmt::Write as _;

/// The crosstable as text cells, header first: `Rank, No, Player, 1 … n, Pts, SB, Wins`.
pub fn grid(standings: &Standings) -> Vec<Vec<String>> {
    let n = standings.rows.len();
    let mut out = Vec::with_capacity(n + 1);
    let mut header = vec!["Rank".to_string(), "No".into(), "Player".into()];
    header.extend((1..=n).map(|i| i.to_string()));
    header.extend(["Pts".into(), "SB".into(), "Wins".into()]);
    out.push(header);
    for (i, row) in standings.rows.iter().enumerate() {
        let mut line = vec![
            row.rank.to_string(),
            row.number.to_string(),
            row.name.clone(),
        ];
        for (j, col) in standings.rows.iter().enumerate() {
            if i == j {
                line.push("×".into());
                continue;
            }
            // One symbol per game, in round order; a forfeit is `+` / `-` (FIDE usage).
            let cell: String = standings
                .games
                .iter()
                .filter_map(|g| {
                    let me = if g.white == row.player && g.black == col.player {
                        Color::White
                    } else if g.black == row.player && g.white == col.player {
                        Color::Black
                    } else {
                        return None;
                    };
                    let forfeit = g.decided.as_ref().is_some_and(Decided::is_forfeit);
                    Some(match (g.result.map(|r| r.score(me)), forfeit) {
                        (Some(Score::Win), true) => "+",
                        (Some(Score::Loss), true) => "-",
                        (Some(Score::Win), false) => "1",
                        (Some(Score::Draw), _) => "½",
                        (Some(Score::Loss), false) => "0",
                        (None, _) => "*",
                    })
                })
                .collect();
            line.push(cell);
        }
        line.push(halves(row.points_halves));
        line.push(quarters(row.sb_quarters));
        line.push(row.wins.to_string());
        out.push(line);
    }
    out
}

/// The crosstable as CSV (RFC 4180 quoting).
pub fn csv(standings: &Standings) -> String {
    // A UTF-8 byte order mark first: spreadsheets then read ½ and × as UTF-8.
    let mut out = String::from('\u{feff}');
    for line in grid(standings) {
        let cells: Vec<String> = line.iter().map(|c| csv_cell(c)).collect();
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
}

fn csv_cell(c: &str) -> String {
    if c.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", c.replace('"', "\"\""))
    } else {
        c.to_string()
    }
}

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// A self-contained, printable HTML page in `lang`: the crosstable, the games left out and
/// why, and how the table was computed. `now_ms` is printed as the time of the table. The
/// reasons a game was left out are the core's own text (English).
pub fn html(league: &League, standings: &Standings, now_ms: u64, lang: Language) -> String {
    let words = sobre_words::words(lang);
    let t = |key: &str| words.get(key, None);
    let mut g = grid(standings);
    // The header in the page's language (the CSV keeps the English one).
    if let Some(header) = g.first_mut() {
        let n = header.len();
        for (i, k) in [(0, "page-rank"), (1, "page-no"), (2, "page-player")] {
            header[i] = t(k);
        }
        if n >= 6 {
            header[n - 3] = t("page-pts");
            header[n - 2] = t("page-sb");
            header[n - 1] = t("page-wins");
        }
    }
    let mut o = String::new();
    let title = esc(&league.def.name);
    let _ = write!(
        o,
        r#"<!DOCTYPE html>
<html lang="{tag}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — {crosstable}</title>
<style>
  body {{ font-family: "Helvetica Neue", Arial, sans-serif; margin: 2rem; color: #111; }}
  h1 {{ font-size: 1.5rem; margin: 0 0 .25rem; }}
  p.meta {{ color: #555; margin: 0 0 1rem; font-size: .9rem; }}
  table.crosstable {{ border-collapse: collapse; font-variant-numeric: tabular-nums; }}
  table.crosstable th, table.crosstable td {{ border: 1px solid #999; padding: .3rem .55rem; text-align: center; }}
  table.crosstable th {{ background: #eee; }}
  table.crosstable td.player {{ text-align: left; white-space: nowrap; }}
  table.crosstable td.self {{ background: #ccc; }}
  table.crosstable td.pts {{ font-weight: bold; }}
  ul.notes {{ font-size: .9rem; color: #333; }}
  @media print {{ body {{ margin: 0; }} p.meta, ul.notes {{ color: #000; }} }}
</style>
</head>
<body>
<h1>{title}</h1>
<p class="meta">{rounds} {rounds_word} · {kind} · {tc_word} {tc} · {table_of} {date} · {league_word} {id}</p>
<table class="crosstable" id="crosstable">
"#,
        tag = lang.tag(),
        crosstable = t("page-crosstable"),
        rounds = league.rounds().len(),
        rounds_word = t("page-rounds"),
        kind = if league.def.double {
            t("page-double-round-robin")
        } else {
            t("page-round-robin")
        },
        tc_word = t("page-time-control"),
        table_of = t("page-table-of"),
        league_word = t("page-league"),
        tc = esc(&league.def.time_control),
        date = esc(&iso_utc(now_ms)),
        id = league.id,
    );
    if let Some((header, body)) = g.split_first() {
        o.push_str("<thead><tr>");
        for h in header {
            let _ = write!(o, "<th>{}</th>", esc(h));
        }
        o.push_str("</tr></thead>\n<tbody>\n");
        let n = standings.rows.len();
        for (i, line) in body.iter().enumerate() {
            o.push_str("<tr>");
            for (j, cell) in line.iter().enumerate() {
                let class = match j {
                    2 => "player",
                    j if j == 3 + i => "self",
                    j if j == 3 + n => "pts",
                    _ => "",
                };
                if class.is_empty() {
                    let _ = write!(o, "<td>{}</td>", esc(cell));
                } else {
                    let _ = write!(o, "<td class=\"{class}\">{}</td>", esc(cell));
                }
            }
            o.push_str("</tr>\n");
        }
        o.push_str("</tbody>\n");
    }
    o.push_str("</table>\n<ul class=\"notes\">\n");
    let order: Vec<String> = standings
        .tie_breaks
        .iter()
        .map(|b| match b {
            TieBreak::DirectEncounter => t("page-direct-encounter"),
            TieBreak::Wins => t("page-number-of-wins"),
            TieBreak::SonnebornBerger => t("page-sonneborn-berger"),
            TieBreak::Koya => t("page-koya"),
        })
        .collect();
    let _ = writeln!(o, "<li>{} {}.</li>", t("page-computed"), order.join(", "));
    let unfinished: usize = standings
        .games
        .iter()
        .filter(|g| g.result.is_none())
        .count();
    if unfinished > 0 || !standings.unplayed.is_empty() {
        let _ = writeln!(
            o,
            "<li>* {}: {unfinished} · {}: {}</li>",
            t("page-in-progress"),
            t("page-not-started"),
            standings.unplayed.len()
        );
    }
    for note in &standings.excluded {
        let _ = writeln!(
            o,
            "<li class=\"excluded\">{} {} {}: {}</li>",
            t("page-game"),
            &note.game.to_hex()[..12],
            t("page-left-out"),
            esc(&note.reason)
        );
    }
    o.push_str("</ul>\n</body>\n</html>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::standings::standings;
    use crate::league::tests::six_player_league;

    #[test]
    fn the_page_language_matches_its_text() {
        let (_, _, league) = six_player_league();
        let s = standings(&league, &[], league.def.start_ms);
        let en = html(&league, &s, league.def.start_ms, Language::English);
        assert!(en.contains("<html lang=\"en\">"));
        assert!(en.contains("<th>Rank</th><th>No</th><th>Player</th>"));
        assert!(en.contains("<th>Pts</th><th>SB</th><th>Wins</th>"));
        assert!(en.contains("5 rounds · round robin · time control 3d"));
        assert!(en.contains("Tie-breaks: direct encounter, wins, Sonneborn-Berger, Koya.</li>"));
        assert!(!en.contains("Jugador"));

        let es = html(&league, &s, league.def.start_ms, Language::Spanish);
        assert!(es.contains("<html lang=\"es\">"));
        assert!(es.contains("<th>Puesto</th><th>Nº</th><th>Jugador</th>"));
        assert!(es.contains("<th>Ptos.</th><th>SB</th><th>Victorias</th>"));
        assert!(es.contains("5 rondas · liguilla a una vuelta · ritmo 3d"));
        assert!(es.contains(
            "Desempates: encuentro directo, número de victorias, Sonneborn-Berger, Koya.</li>"
        ));
        for english in [
            "Rank",
            "Player",
            "round robin",
            "time control",
            "Tie-breaks",
        ] {
            assert!(!es.contains(english), "{english} in the Spanish page");
        }
        // The CSV keeps its English header whatever the page's language.
        assert!(csv(&s).starts_with("\u{feff}Rank,No,Player,"));
    }
}
