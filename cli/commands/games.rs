//! `sobre games`: all your games, most urgent first.

use super::common::{self, human_duration, print_json, short_game};
use super::contacts::Contacts;
use super::names::Names;
use crate::error::CliResult;
use sobre_node::api::ApiRequest;
use sobre_node::api::replies::{GameSummary, GamesReply};
use std::path::Path;
use std::process::ExitCode;

/// List your games, most urgent first: the games where it is your move (`*`), then
/// challenges waiting for your answer, then the rest by time left.
///
/// Columns: GAME (the first 8 characters of the id; any unique prefix works as GAME in other
/// commands), OPPONENT (your alias for them, else the name they signed, else short id), COLOUR (yours), MOVE (move number), LAST (last
/// move), STATUS, TIME LEFT (of the player to move).
///
/// With --json, the node's object: `games`, a list of {`game`, `opponent`, `my_color`,
/// `status`, `result`, `move_number`, `last_move`, `my_move`, `incoming_challenge`,
/// `ms_to_deadline`, `time_control`, and `opponent_name` when their signed profile has come}.
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let v = common::read(home, ApiRequest::Games)?;
    if args.json {
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    let v: GamesReply = common::reply(v)?;
    print!("{}", render(&v, &Contacts::load(home)?));
    Ok(ExitCode::SUCCESS)
}

/// The table. Stable: scripts and golden tests compare it.
pub fn render(v: &GamesReply, contacts: &Contacts) -> String {
    let games = &v.games;
    if games.is_empty() {
        return "no games (challenge someone with `sobre challenge PLAYER`)\n".to_owned();
    }
    let header = [
        "GAME",
        "OPPONENT",
        "COLOUR",
        "MOVE",
        "LAST",
        "STATUS",
        "TIME LEFT",
    ];
    let rows: Vec<(bool, [String; 7])> = games.iter().map(|g| row(g, contacts)).collect();
    let mut widths = header.map(|h| h.chars().count());
    for (_, cells) in &rows {
        for (w, c) in widths.iter_mut().zip(cells) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |marker: &str, cells: &[String]| {
        let mut s = marker.to_owned();
        for (i, (c, w)) in cells.iter().zip(widths).enumerate() {
            if i + 1 == cells.len() {
                s.push_str(c);
            } else {
                let pad = w - c.chars().count();
                s.push_str(c);
                s.push_str(&" ".repeat(pad + 2));
            }
        }
        s.trim_end().to_owned() + "\n"
    };
    let mut out = line("  ", &header.map(str::to_owned));
    for (my_move, cells) in &rows {
        out.push_str(&line(if *my_move { "* " } else { "  " }, cells));
    }
    if rows.iter().any(|(m, _)| *m) {
        out.push_str("(* your move)\n");
    }
    out
}

fn row(g: &GameSummary, contacts: &Contacts) -> (bool, [String; 7]) {
    let status = match (g.status.as_str(), g.result.as_deref().unwrap_or("")) {
        ("pending", _) if g.incoming_challenge => "challenged you".to_owned(),
        ("pending", _) => "challenge sent".to_owned(),
        (s, "") => s.to_owned(),
        (s, r) => format!("{s} {r}"),
    };
    let or_dash = |s: &str| {
        if s.is_empty() {
            "-".to_owned()
        } else {
            s.to_owned()
        }
    };
    let time_left = g
        .ms_to_deadline
        .map_or_else(|| "-".to_owned(), human_duration);
    let cells = [
        short_game(&g.game).to_owned(),
        or_dash(
            &Names::new(
                contacts,
                g.opponent_name
                    .iter()
                    .map(|n| (g.opponent.clone(), n.clone()))
                    .collect(),
            )
            .label(&g.opponent),
        ),
        or_dash(g.my_color.as_deref().unwrap_or("")),
        g.move_number
            .map_or_else(|| "-".to_owned(), |n| n.to_string()),
        or_dash(g.last_move.as_deref().unwrap_or("")),
        status,
        time_left,
    ];
    (g.my_move, cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn games(v: &Value) -> GamesReply {
        serde_json::from_value(v.clone()).unwrap()
    }

    #[test]
    fn the_table_marks_my_moves_and_aligns_columns() {
        let v = json!({"games": [
            {"game": "3f2a9c1e0011", "opponent": "Ana", "my_color": "white", "status": "active",
             "result": null, "move_number": 12, "last_move": "Nf3", "my_move": true,
             "incoming_challenge": false, "ms_to_deadline": 183_600_000},
            {"game": "a0b1c2d3e4f5", "opponent": "Bernardo", "my_color": null, "status": "pending",
             "result": null, "move_number": 1, "last_move": null, "my_move": false,
             "incoming_challenge": true, "ms_to_deadline": null},
        ]});
        let out = render(&games(&v), &Contacts::default());
        assert_eq!(
            out,
            "  GAME      OPPONENT  COLOUR  MOVE  LAST  STATUS          TIME LEFT\n\
             * 3f2a9c1e  Ana       white   12    Nf3   active          2d3h\n\
             \x20 a0b1c2d3  Bernardo  -       1     -     challenged you  -\n\
             (* your move)\n"
        );
    }

    #[test]
    fn the_signed_name_shows_unless_an_alias_is_given() {
        let ana = "12D3KooWKYgsy9unLzD8DdwWxbRjrRmX5ZrV4YcXpKq1n6GJH7hs";
        let v = json!({"games": [
            {"game": "3f2a9c1e0011", "opponent": ana, "opponent_name": "Ana Pérez",
             "my_color": "white", "status": "active", "move_number": 1, "my_move": false}]});
        let out = render(&games(&v), &Contacts::default());
        assert!(out.contains("3f2a9c1e  Ana Pérez  white"), "{out}");
        let mut contacts = Contacts::default();
        contacts.aliases.insert("mum".into(), ana.into());
        let out = render(&games(&v), &contacts);
        assert!(out.contains("3f2a9c1e  mum       white"), "{out}");
        // The JSON keeps the id in `opponent` and adds the name.
        let back = serde_json::to_value(games(&v)).unwrap();
        assert_eq!(back["games"][0]["opponent"], ana);
        assert_eq!(back["games"][0]["opponent_name"], "Ana Pérez");
    }

    #[test]
    fn no_games_says_how_to_start_one() {
        let out = render(&games(&json!({"games": []})), &Contacts::default());
        assert!(out.starts_with("no games"));
    }
}

/// Snapshots of [`render`] on a fixed list of games (`tests/golden/games.json` rendered to
/// `games.txt`; `UPDATE_GOLDEN=1` rewrites it).
#[cfg(test)]
mod golden {
    use super::*;
    use crate::commands::common::{assert_golden, golden_fixture};

    #[test]
    fn golden_games_table() {
        let mut contacts = Contacts::default();
        let aliases: serde_json::Value = golden_fixture("contacts.json");
        for (alias, id) in aliases.as_object().unwrap() {
            contacts
                .aliases
                .insert(alias.clone(), id.as_str().unwrap().to_owned());
        }
        let v: GamesReply = golden_fixture("games.json");
        assert_golden("games.txt", &render(&v, &contacts));
        assert_golden(
            "games_without_contacts.txt",
            &render(&v, &Contacts::default()),
        );
        assert_golden(
            "games_empty.txt",
            &render(&GamesReply::default(), &contacts),
        );
    }
}
