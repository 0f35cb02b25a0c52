//! `sobre games`: all your games, most urgent first.

use super::chat_read::ChatRead;
use super::common::{self, human_duration, rfc3339, short_game, status_word};
use super::contacts::Contacts;
use super::names::Names;
use crate::error::{self, CliResult};
use crate::i18n::words;
use crate::t;
use sobre_core::notation::Notation;
use sobre_core::record::ClaimReason;
use sobre_core::record::Status;
use sobre_node::api::replies::{GameSummary, GamesReply, LeaguesReply};
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// List your games, most urgent first: the games where it is your move (`*`), then
/// challenges waiting for your answer, then the rest by time left.
///
/// Columns: GAME (the first 8 characters of the id; any unique prefix works as GAME in other
/// commands), OPPONENT (your alias for them, else the name they signed, else short id), COLOUR (yours), MOVE (move number), LAST (last
/// move), STATUS, TIME LEFT (of the player to move), and NOTES when a game needs your
/// attention: a draw offer standing (yours or theirs), what you can claim now (a win on
/// time, 6.9; a draw by repetition or fifty moves, 9.2/9.3; a win when the opponent is
/// more than the limit late for a resumption, A10), your opponent's leave, chat
/// lines you have not read (read: printed by `sobre show` or `sobre show --chat`), and when
/// an adjourned game resumes.
///
/// Finished and cancelled games are listed for 7 days after they ended; --all lists them
/// all, --finished only them, --league only one league's games.
///
/// With --json, the node's object: `games`, a list of {`game`, `opponent`, `my_color`,
/// `status`, `result`, `move_number`, `last_move`, `my_move`, `incoming_challenge`,
/// `ms_to_deadline`, `time_control`, and when they apply `opponent_name`, `draw_offer`,
/// `claimable`, `opponent_leave_until_ms`, `opponent_chat_lines`, `resume_at_ms`,
/// `ended_ms`, `league`}, filtered as the table is.
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Also the games that ended more than 7 days ago.
    #[arg(long)]
    all: bool,
    /// Only finished and cancelled games (however long ago).
    #[arg(long, conflicts_with = "all")]
    finished: bool,
    /// Only the games of this league (its id, a unique prefix of it, or its name).
    #[arg(long, value_name = "LEAGUE")]
    league: Option<String>,
}

/// How long a finished or cancelled game stays in the default list.
pub const FINISHED_SHOWN_MS: u64 = 7 * 86_400_000;

/// Which games to list.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub all: bool,
    pub finished: bool,
    /// The league's full id.
    pub league: Option<String>,
}

impl Filter {
    /// Whether `g` is listed at `now_ms`.
    pub fn keeps(&self, g: &GameSummary, now_ms: u64) -> bool {
        let over = matches!(g.status, Status::Finished | Status::Cancelled);
        if self.league.is_some() && g.league != self.league {
            return false;
        }
        if self.finished {
            return over;
        }
        self.all
            || !over
            || g.ended_ms
                .is_none_or(|t| now_ms.saturating_sub(t) <= FINISHED_SHOWN_MS)
    }
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let mut read: common::Read<GamesReply> = common::read_typed(home, request::Games {})?;
    let v = &mut read.reply;
    let filter = Filter {
        all: args.all,
        finished: args.finished,
        league: args
            .league
            .as_deref()
            .map(|l| league_id(home, l))
            .transpose()?,
    };
    let now = sobre_node::time::now_ms();
    let before = v.games.len();
    v.games.retain(|g| filter.keeps(g, now));
    let hidden = before - v.games.len();
    if args.json {
        common::print_reply(&read)?;
        return Ok(ExitCode::SUCCESS);
    }
    let v = &read.reply;
    let notes = Notes {
        read: ChatRead::load(home),
        notation: common::Config::load(home).notation,
    };
    print!("{}", render_with(v, &Contacts::load(home)?, &notes));
    if hidden > 0 && !args.finished && args.league.is_none() {
        println!("{}", t!("games-hidden", count = hidden));
    }
    Ok(ExitCode::SUCCESS)
}

/// The full id of the league `text` names: an id, a unique prefix of one, or a name.
fn league_id(home: &Path, text: &str) -> CliResult<String> {
    let leagues: LeaguesReply = common::send(home, request::LeagueList {})?;
    let found: Vec<&str> = leagues
        .leagues
        .iter()
        .filter(|l| l.league.starts_with(text) || l.name.eq_ignore_ascii_case(text))
        .map(|l| l.league.as_str())
        .collect();
    match found.as_slice() {
        [one] => Ok((*one).to_owned()),
        [] => Err(error::user_hint(
            t!("games-no-league", league = sobre_node::words::quoted(text)),
            t!("games-hint-league-list"),
        )),
        _ => Err(error::user_hint(
            t!(
                "games-league-ambiguous",
                league = sobre_node::words::quoted(text),
                count = found.len()
            ),
            t!("games-hint-league-prefix"),
        )),
    }
}

/// What the NOTES column knows besides the node's list: which chat lines were read.
#[derive(Default)]
pub struct Notes {
    pub read: ChatRead,
    /// The notation the player reads moves in (the LAST column), from their settings.
    pub notation: Option<Notation>,
}

/// The table. Stable: scripts and golden tests compare it.
#[cfg(test)]
pub fn render(v: &GamesReply, contacts: &Contacts) -> String {
    render_with(v, contacts, &Notes::default())
}

/// The table, with the NOTES column when a game has any.
pub fn render_with(v: &GamesReply, contacts: &Contacts, notes: &Notes) -> String {
    let games = &v.games;
    if games.is_empty() {
        return t!("games-none") + "\n";
    }
    let header = [
        t!("games-col-game"),
        t!("games-col-opponent"),
        t!("games-col-colour"),
        t!("games-col-move"),
        t!("games-col-last"),
        t!("games-col-status"),
        t!("games-col-time-left"),
    ];
    let mut rows: Vec<(bool, Vec<String>)> = games
        .iter()
        .map(|g| {
            let (mine, cells) = row(g, contacts, notes.notation);
            (mine, cells.to_vec())
        })
        .collect();
    let mut header = header.to_vec();
    let game_notes: Vec<String> = games.iter().map(|g| notes_of(g, notes)).collect();
    // The NOTES column only when a game has notes: a quiet list stays as it was.
    if game_notes.iter().any(|n| !n.is_empty()) {
        header.push(t!("games-col-notes"));
        for ((_, cells), n) in rows.iter_mut().zip(game_notes) {
            cells.push(n);
        }
    }
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for (_, cells) in &rows {
        for (w, c) in widths.iter_mut().zip(cells) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |marker: &str, cells: &[String]| {
        let mut s = marker.to_owned();
        for (i, (c, &w)) in cells.iter().zip(&widths).enumerate() {
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
    let mut out = line("  ", &header);
    for (my_move, cells) in &rows {
        out.push_str(&line(if *my_move { "* " } else { "  " }, cells));
    }
    if rows.iter().any(|(m, _)| *m) {
        out.push_str(&(t!("games-your-move") + "\n"));
    }
    out
}

/// What needs the player's attention in a game, for the NOTES column.
fn notes_of(g: &GameSummary, notes: &Notes) -> String {
    let mut out = Vec::new();
    if let Some(by) = &g.draw_offer {
        out.push(if g.my_color == Some(*by) {
            t!("games-note-my-draw-offer")
        } else {
            t!("games-note-draw-offered")
        });
    }
    if !g.claimable.is_empty() {
        let claims: Vec<String> = g.claimable.iter().map(|c| claim_word(c)).collect();
        out.push(t!("games-note-claim", claims = claims.join(", ")));
    }
    if let Some(until) = g.opponent_leave_until_ms {
        out.push(t!("games-note-leave", until = rfc3339(until)));
    }
    let unread = notes.read.unread(&g.game, g.opponent_chat_lines);
    if unread > 0 {
        out.push(t!("games-note-unread", count = unread));
    }
    if let Some(at) = g.resume_at_ms.filter(|_| g.status == Status::Adjourned) {
        out.push(t!("games-note-resumes", at = rfc3339(at)));
    }
    out.join("; ")
}

/// A claim as the node lists it ([`ClaimReason::name`]: `time`, `threefold`…): in English
/// the word a player types after `sobre claim GAME`, in Spanish what it claims.
pub(crate) fn claim_word(name: &str) -> String {
    name.parse::<ClaimReason>()
        .map_or_else(|_| name.to_owned(), words::claim_short)
}

fn row(g: &GameSummary, contacts: &Contacts, notation: Option<Notation>) -> (bool, [String; 7]) {
    let status = match (g.status, g.result.as_deref().unwrap_or("")) {
        (Status::Pending, _) if g.incoming_challenge => t!("games-status-challenged-you"),
        (Status::Pending, _) => t!("games-status-challenge-sent"),
        (s, "") => status_word(s.name()),
        (s, r) => t!(
            "games-status-result",
            status = status_word(s.name()),
            result = r
        ),
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
        or_dash(&g.my_color.map(words::colour).unwrap_or_default()),
        g.move_number
            .map_or_else(|| "-".to_owned(), |n| n.to_string()),
        or_dash(
            &g.last_move
                .as_deref()
                .map(|m| common::san_in(m, notation))
                .unwrap_or_default(),
        ),
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

    /// The LAST column is written in the player's notation (FIDE App. E2: Spanish letters,
    /// or figurines), the core reading the node's English SAN; coordinates need the
    /// position, so a `uci` player sees the SAN.
    #[test]
    fn the_last_move_is_in_the_players_notation() {
        let v = games(&json!({"games": [
            {"game": "3f2a9c1e0011", "opponent": "Ana", "my_color": "white", "status": "active",
             "move_number": 12, "last_move": "Nxe5+", "my_move": true},
            {"game": "a0b1c2d3e4f5", "opponent": "Bruno", "my_color": "black", "status": "active",
             "move_number": 30, "last_move": "exd8=Q#", "my_move": false},
        ]}));
        let table = |notation| {
            let notes = Notes {
                read: ChatRead::default(),
                notation,
            };
            render_with(&v, &Contacts::default(), &notes)
        };
        let es = table(Some(Notation::Spanish));
        assert!(es.contains("Cxe5+") && es.contains("exd8=D#"), "{es}");
        let fig = table(Some(Notation::Figurine));
        assert!(fig.contains("♘xe5+") && fig.contains("exd8=♕#"), "{fig}");
        for n in [None, Some(Notation::English), Some(Notation::Uci)] {
            let en = table(n);
            assert!(en.contains("Nxe5+") && en.contains("exd8=Q#"), "{en}");
        }
    }

    /// The NOTES column flags what needs the player: a draw offer, a claim the rules core
    /// allows now, the opponent's leave, unread chat, an adjourned game's resumption.
    #[test]
    fn notes_flag_what_needs_the_player() {
        let v = json!({"games": [
            {"game": "3f2a9c1e0011", "opponent": "Ana", "my_color": "white", "status": "active",
             "move_number": 12, "my_move": true, "draw_offer": "black", "claimable": ["time"],
             "opponent_leave_until_ms": 1_796_148_000_000u64, "opponent_chat_lines": 3},
            {"game": "a0b1c2d3e4f5", "opponent": "Bruno", "my_color": "black",
             "status": "adjourned", "move_number": 40, "resume_at_ms": 1_796_148_000_000u64,
             "draw_offer": "black"},
            {"game": "b0b1c2d3e4f5", "opponent": "Carla", "my_color": "black",
             "status": "active", "move_number": 3, "opponent_chat_lines": 2},
        ]});
        let home = tempfile::tempdir().unwrap();
        ChatRead::mark(home.path(), "3f2a9c1e0011", 1);
        ChatRead::mark(home.path(), "b0b1c2d3e4f5", 2);
        let notes = Notes {
            read: ChatRead::load(home.path()),
            notation: None,
        };
        let out = render_with(&games(&v), &Contacts::default(), &notes);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].ends_with("TIME LEFT  NOTES"), "{out}");
        assert!(
            lines[1].ends_with(
                "draw offered to you; you can claim time; opponent on leave until \
                 2026-12-01T18:00:00Z; 2 unread chat"
            ),
            "{out}"
        );
        assert!(
            lines[2].ends_with("your draw offer stands; resumes 2026-12-01T18:00:00Z"),
            "{out}"
        );
        assert!(lines[3].ends_with('-'), "all read: no notes: {out}");
    }

    /// Finished games stay a week in the default list; --all and --finished show them all.
    #[test]
    fn finished_games_leave_the_list_after_a_week() {
        let now = 100 * 86_400_000;
        let game = |status: &str, ended_days_ago: Option<u64>, league: Option<&str>| {
            serde_json::from_value::<GameSummary>(json!({
                "game": "g", "status": status, "league": league,
                "ended_ms": ended_days_ago.map(|d| now - d * 86_400_000),
            }))
            .unwrap()
        };
        let old = game("finished", Some(8), None);
        let recent = game("cancelled", Some(6), None);
        let live = game("active", None, Some("abc"));
        let default = Filter::default();
        assert!(!default.keeps(&old, now));
        assert!(default.keeps(&recent, now));
        assert!(default.keeps(&live, now));
        let all = Filter {
            all: true,
            ..Filter::default()
        };
        assert!(all.keeps(&old, now));
        let finished = Filter {
            finished: true,
            ..Filter::default()
        };
        assert!(finished.keeps(&old, now) && finished.keeps(&recent, now));
        assert!(!finished.keeps(&live, now));
        let league = Filter {
            league: Some("abc".into()),
            ..Filter::default()
        };
        assert!(league.keeps(&live, now));
        assert!(!league.keeps(&recent, now));
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
    use crate::i18n::{Language, with_lang};

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
        // The same table in Spanish: headings, colours, states, the footer.
        with_lang(Language::Spanish, || {
            assert_golden("games_es.txt", &render(&v, &contacts));
            assert_golden(
                "games_empty_es.txt",
                &render(&GamesReply::default(), &contacts),
            );
        });
    }

    /// The NOTES column in both languages (`tests/golden/games_notes.json`: a draw offer, a
    /// claim, the opponent's leave, unread chat, 1 line and 2, and a resumption).
    #[test]
    fn golden_games_notes_in_both_languages() {
        let v: GamesReply = golden_fixture("games_notes.json");
        let home = tempfile::tempdir().expect("a temporary home");
        ChatRead::mark(home.path(), "3f2a9c1e0011", 1);
        ChatRead::mark(home.path(), "b0b1c2d3e4f5", 1);
        let notes = Notes {
            read: ChatRead::load(home.path()),
            notation: None,
        };
        for (lang, file) in [
            (Language::English, "games_notes.txt"),
            (Language::Spanish, "games_notes_es.txt"),
        ] {
            let text = with_lang(lang, || render_with(&v, &Contacts::default(), &notes));
            assert_golden(file, &text);
        }
    }

    /// The footer counting the hidden games takes the plural in Spanish.
    #[test]
    fn the_hidden_games_footer_counts_in_both_languages() {
        let say = |lang, n: usize| with_lang(lang, || crate::t!("games-hidden", count = n));
        assert_eq!(
            say(Language::English, 1),
            "(1 game(s) that ended over 7 days ago not shown: `sobre games --all`)"
        );
        assert_eq!(
            say(Language::Spanish, 1),
            "(1 partida terminada hace más de 7 días no se muestra: `sobre games --all`)"
        );
        assert_eq!(
            say(Language::Spanish, 3),
            "(3 partidas terminadas hace más de 7 días no se muestran: `sobre games --all`)"
        );
    }
}
