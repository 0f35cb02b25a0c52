//! `sobre league`: club round robins whose standings are computed from the signed games.
//!
//! Read commands take LEAGUE as a league id (or its first digits), a league name, or the
//! path of a league archive (`sobre league export`): with a file, everything is recomputed
//! offline, without a node.

use super::common;
use super::contacts::Contacts;
use super::league_json::{
    BadJoinJson, CoverageJson, Covered, CrosstableJson, DecidedJson, PairingJson, PairingsJson,
    ShowJson, StandingsJson, VerifyJson,
};
use super::league_tables::{
    grid_text, role_word, short, standings_text, status_word, translated_grid,
};
use crate::error::{self, CliError, CliResult, Fault};
use crate::t;
use sobre_core::clock::TimeControl;
use sobre_core::league::archive::{self, LeagueArchive};
use sobre_core::league::decision;
use sobre_core::league::render;
use sobre_core::league::{Board, Standings};
use sobre_node::api::replies::LeagueExportReply;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum LeagueCommand {
    /// Create a league (you are its organiser; run your node with --mailbox so players never
    /// need to be online together). Players are numbered in the order given, which is
    /// their number in the Berger tables (FIDE C.05 Annex 1). To play in it yourself, list
    /// yourself as a player and name a --deputy arbiter to decide your own games.
    ///
    /// Example: sobre league create "Liga de otoño" --player ana --player bruno
    ///          --player carmen --player diego --per-move 3d --round-days 14
    ///          sobre league create "Liga" --player me --player ana --player bruno
    ///          --deputy carlos
    #[command(verbatim_doc_comment)]
    Create(CreateArgs),
    /// Join a league you are a player of: this accepts its games in advance; your node
    /// then challenges (with White) or accepts (with Black) each game when its round opens.
    Join(LeagueArg),
    /// The leagues your node knows.
    List(ListArgs),
    /// A league's terms, players and progress.
    Show(LeagueArg),
    /// The pairings (Berger tables), with each game's state.
    Pairings(PairingsArgs),
    /// Standings with tie-breaks (Sonneborn-Berger, wins, direct encounter), computed only
    /// from games whose signed records verify (FIDE Art. 11: 1, ½, 0).
    Standings(LeagueArg),
    /// The crosstable; --html writes a printable page, --csv a spreadsheet.
    Crosstable(CrosstableArgs),
    /// Recompute everything from the signed games and report every game that does not
    /// verify or does not belong (exit status 1 if there is any).
    Verify(LeagueArg),
    /// Write the league archive (definition, joins and every game's signed events) for
    /// anyone to verify offline.
    Export(ExportArgs),
    /// Sign an arbiter's decision as the league's organiser (or as its deputy arbiter, for
    /// the organiser's own games): a forfeit, a withdrawal, an adjudication, the withdrawal
    /// rule, the order of the tie-breaks, or before round 1 a late entry or a replacement.
    /// Every node checks it; none overrides a finished game.
    ///
    /// Examples: sobre league decide LIGA forfeit --round 3 --player ana
    ///           sobre league decide LIGA withdraw --player bruno
    ///           sobre league decide LIGA adjudicate --round 5 --player ana --result 1/2-1/2
    ///                --reason "dead drawn at the season's close"
    ///           sobre league decide LIGA settings --withdrawal forfeit-remaining
    ///           sobre league decide LIGA tie-breaks --order before-fide
    ///           sobre league decide LIGA enter --player elena --name "Elena"
    ///           sobre league decide LIGA replace --replaces diego --player fermin
    #[command(verbatim_doc_comment)]
    Decide(super::league_decide::DecideArgs),
}

#[derive(clap::Args)]
pub struct CreateArgs {
    /// The league's name.
    name: String,
    /// A player (id or alias; `me` for yourself), in Berger order; repeat for each player
    /// (3 to 64).
    #[arg(long = "player", value_name = "PLAYER", required = true)]
    players: Vec<String>,
    /// Display names, in the same order (default: the aliases of your contacts, else the
    /// names the players signed in their profiles, else short ids).
    #[arg(long = "name", value_name = "NAME")]
    names: Vec<String>,
    /// A double round robin (colours reversed in the second cycle).
    #[arg(long)]
    double: bool,
    /// Correspondence time per move (default 3d).
    #[arg(long, value_name = "DURATION", group = "clock")]
    per_move: Option<String>,
    /// Correspondence moves in a period (e.g. 10/50d).
    #[arg(long, value_name = "MOVES/DURATION", group = "clock")]
    time: Option<String>,
    /// Days between round openings (0: every round opens at the start).
    #[arg(long, default_value_t = 0)]
    round_days: u32,
    /// When round 1 opens: a date (2026-12-01) or an RFC 3339 time (default: now). Late
    /// entries and replacements are possible until then.
    #[arg(long)]
    start: Option<String>,
    /// The deputy arbiter (id or alias; not a player), who signs the decisions about your
    /// own games: required when you are one of the players.
    #[arg(long, value_name = "PLAYER")]
    deputy: Option<String>,
    /// How long after a round opens its games must have started (e.g. 7d; FIDE 6.6): a
    /// pairing not started by then is forfeited by whoever did not appear (both: 0-0).
    /// Default: no deadline.
    #[arg(long, value_name = "DURATION", value_parser = start_deadline)]
    start_deadline: Option<u64>,
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct LeagueArg {
    /// League id (or its first digits), name, or the path of a league archive.
    league: String,
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct ListArgs {
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct PairingsArgs {
    /// League id (or its first digits), name, or the path of a league archive.
    league: String,
    /// Only this round.
    #[arg(long)]
    round: Option<u32>,
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct CrosstableArgs {
    /// League id (or its first digits), name, or the path of a league archive.
    league: String,
    /// Write a printable HTML page.
    #[arg(long, value_name = "FILE")]
    html: Option<std::path::PathBuf>,
    /// Write CSV.
    #[arg(long, value_name = "FILE")]
    csv: Option<std::path::PathBuf>,
    /// The language of the HTML page: es or en (default: from LANG; English unless it is
    /// Spanish).
    #[arg(long, value_enum)]
    lang: Option<HtmlLang>,
    #[arg(long)]
    json: bool,
}

/// The language of `league crosstable --html`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum HtmlLang {
    Es,
    En,
}

#[derive(clap::Args)]
pub struct ExportArgs {
    /// League id (or its first digits) or name.
    league: String,
    /// Write here instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<std::path::PathBuf>,
    /// Every game that counts as one PGN file (names, Event, Round, Result) instead of the
    /// signed archive.
    #[arg(long)]
    pgn: bool,
}

pub fn run(home: &Path, cmd: LeagueCommand) -> CliResult<ExitCode> {
    match cmd {
        LeagueCommand::Create(a) => create(home, a),
        LeagueCommand::Join(a) => {
            let v = common::send(home, request::LeagueJoin { league: a.league })?;
            if a.json {
                common::print_reply(&v)?;
            } else {
                println!(
                    "{}",
                    t!("league-joined", name = &v.name, league = short(&v.league))
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        LeagueCommand::List(a) => {
            let read = common::read_typed(home, request::LeagueList {})?;
            if a.json {
                common::print_reply(&read)?;
            } else {
                let v = read.reply;
                if v.leagues.is_empty() {
                    println!("{}", t!("league-none"));
                }
                for l in &v.leagues {
                    println!(
                        "{}  {:<30} {}",
                        short(&l.league),
                        l.name,
                        t!(
                            "league-list-line",
                            players = format!("{:>2}", l.players.len()),
                            open = l.open_rounds,
                            rounds = l.rounds,
                            games = l.games,
                            role = role_word(&l.role)
                        )
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        LeagueCommand::Show(a) => {
            let (mut arch, coverage) = load(home, &a.league)?;
            let s = compute(&mut arch);
            if a.json {
                common::print_reply(&coverage.beside(ShowJson::new(&arch, &s)))?;
            } else {
                let l = &arch.league;
                println!("{} ({})", l.def.name, l.id);
                println!(
                    "{}",
                    t!(
                        "league-terms",
                        organiser = l.organiser.to_string(),
                        kind = if l.def.double {
                            t!("league-double")
                        } else {
                            t!("league-single")
                        },
                        time_control = l.def.time_control.as_str(),
                        rounds = l.rounds().len(),
                        every = if l.def.round_days > 0 {
                            t!("league-every", days = l.def.round_days)
                        } else {
                            String::new()
                        }
                    )
                );
                if let Some(d) = l.deputy {
                    println!("{}", t!("league-deputy", deputy = d.to_string()));
                }
                println!(
                    "{}",
                    t!("league-opens", time = common::rfc3339(l.def.start_ms))
                );
                for (i, p) in l.def.players.iter().enumerate() {
                    let joined = if arch.joined.contains(p) {
                        t!("league-player-joined")
                    } else {
                        t!("league-player-not-joined")
                    };
                    println!("  {:>2}. {:<20} {}  {}", i + 1, l.def.names[i], p, joined);
                }
                let finished = s.games.iter().filter(|g| g.result.is_some()).count();
                println!(
                    "{}",
                    t!(
                        "league-games",
                        finished = finished,
                        playing = s.games.len() - finished,
                        unplayed = s.unplayed.len(),
                        excluded = s.excluded.len()
                    )
                );
                coverage.print_note();
            }
            Ok(ExitCode::SUCCESS)
        }
        LeagueCommand::Pairings(a) => pairings(home, a),
        LeagueCommand::Standings(a) => {
            let (mut arch, coverage) = load(home, &a.league)?;
            let s = compute(&mut arch);
            if a.json {
                common::print_reply(&coverage.beside(StandingsJson::new(&arch.league, &s)))?;
            } else {
                print!("{}", standings_text(&arch.league, &s));
                coverage.print_note();
            }
            Ok(ExitCode::SUCCESS)
        }
        LeagueCommand::Crosstable(a) => {
            let (mut arch, coverage) = load(home, &a.league)?;
            let s = compute(&mut arch);
            if let Some(p) = &a.html {
                std::fs::write(
                    p,
                    render::html(
                        &arch.league,
                        &s,
                        sobre_node::time::now_ms(),
                        page_lang(a.lang),
                    ),
                )
                .map_err(|e| error::user(common::cannot_write(p, &e)))?;
            }
            if let Some(p) = &a.csv {
                std::fs::write(p, render::csv(&s))
                    .map_err(|e| error::user(common::cannot_write(p, &e)))?;
            }
            if a.json {
                common::print_reply(&coverage.beside(CrosstableJson {
                    crosstable: render::grid(&s),
                }))?;
            } else if a.html.is_none() && a.csv.is_none() {
                print!("{}", grid_text(&translated_grid(render::grid(&s))));
                coverage.print_note();
            } else if let Some(n) = coverage.note() {
                eprintln!("{}", t!("league-note", note = n));
            }
            Ok(ExitCode::SUCCESS)
        }
        LeagueCommand::Verify(a) => {
            let (mut arch, coverage) = load(home, &a.league)?;
            let s = compute(&mut arch);
            let ok = s.excluded.is_empty()
                && arch.bad_joins.is_empty()
                && !s.bad_decisions.iter().any(|n| n.excluded);
            if a.json {
                let v = VerifyJson {
                    standings: StandingsJson::new(&arch.league, &s),
                    ok,
                    bad_joins: arch
                        .bad_joins
                        .iter()
                        .map(|(line, why)| BadJoinJson {
                            line: *line,
                            reason: why,
                        })
                        .collect(),
                };
                common::print_reply(&coverage.beside(v))?;
            } else {
                println!(
                    "{}",
                    t!(
                        "league-verify-definition",
                        name = arch.league.def.name.as_str(),
                        organiser = arch.league.organiser.to_string(),
                        joined = arch.joined.len(),
                        players = arch.league.def.players.len()
                    )
                );
                println!(
                    "{}",
                    t!(
                        "league-verify-games",
                        count = s.games.len(),
                        excluded = s.excluded.len()
                    )
                );
                for n in &s.excluded {
                    println!(
                        "  {}",
                        t!(
                            "league-verify-excluded",
                            game = n.game.to_string(),
                            reason = n.reason.to_string()
                        )
                    );
                }
                for n in &s.decisions {
                    println!(
                        "  {}",
                        t!(
                            "league-verify-decision",
                            doc = n.doc.to_string(),
                            text = n.text.as_str()
                        )
                    );
                }
                for n in &s.bad_decisions {
                    let what = if n.excluded {
                        t!("league-left-out")
                    } else {
                        t!("league-no-effect")
                    };
                    println!(
                        "  {}",
                        t!(
                            "league-verify-bad-decision",
                            doc = n.doc.to_string(),
                            what = what,
                            text = n.text.as_str()
                        )
                    );
                }
                for (line, why) in &arch.bad_joins {
                    println!(
                        "  {}",
                        t!(
                            "league-verify-bad-join",
                            line = *line,
                            why = why.to_string()
                        )
                    );
                }
                coverage.print_note();
            }
            if !ok {
                // What is left out was listed above.
                return Err(CliError::Reported(Fault::Data));
            }
            Ok(ExitCode::SUCCESS)
        }
        LeagueCommand::Decide(a) => super::league_decide::run(home, a),
        LeagueCommand::Export(a) => {
            let v: LeagueExportReply =
                common::read_as(home, request::LeagueExport { league: a.league })?;
            let text = if a.pgn {
                let mut arch = archive::read(&v.archive).map_err(|e| {
                    error::user(t!("league-node-archive-bad", error = e.to_string()))
                })?;
                let s = compute(&mut arch);
                sobre_core::league::pgn::pgn(&arch.league, &arch.games, &s)
            } else {
                v.archive
            };
            match &a.output {
                Some(p) => {
                    std::fs::write(p, text).map_err(|e| error::user(common::cannot_write(p, &e)))?
                }
                None => print!("{text}"),
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn create(home: &Path, a: CreateArgs) -> CliResult<ExitCode> {
    let contacts = Contacts::load(home)?;
    // `me` is the organiser's own id (unless a contact is called that): an organiser who
    // plays lists themselves like any player.
    let me = |p: &str| -> CliResult<String> {
        if p.trim() == "me" && contacts.resolve(p) == "me" {
            Ok(common::load_key(home)?.player_id().to_string())
        } else {
            Ok(contacts.resolve(p))
        }
    };
    let players: Vec<String> = a.players.iter().map(|p| me(p)).collect::<CliResult<_>>()?;
    let names: Vec<String> = if a.names.is_empty() {
        // Your alias for each, else the name the player signed (if your node holds it).
        let names = super::names::Names::from_node(home, &contacts);
        players.iter().map(|p| names.label(p)).collect()
    } else if a.names.len() == players.len() {
        a.names.clone()
    } else {
        return Err(error::user(t!(
            "league-names-count",
            names = a.names.len(),
            players = players.len()
        )));
    };
    let text = match (&a.time, &a.per_move) {
        (Some(t), _) => t.trim().to_owned(),
        (None, Some(p)) => p.trim().to_owned(),
        (None, None) => "3d".to_owned(),
    };
    let tc: TimeControl = common::time_control(&text, t!("league-hint-time-control"))?;
    let start_ms = match &a.start {
        None => None,
        Some(s) => {
            let t = s.trim();
            let full = if t.len() == 10 {
                format!("{t}T00:00:00Z")
            } else {
                t.to_owned()
            };
            Some(common::parse_rfc3339(&full).ok_or_else(|| {
                error::user_hint(
                    t!("league-bad-start", start = sobre_node::words::quoted(t)),
                    t!("league-hint-start"),
                )
            })?)
        }
    };
    let v = common::send(
        home,
        request::LeagueCreate {
            name: a.name,
            players,
            names,
            double: a.double,
            time_control: tc.to_string(),
            round_days: a.round_days,
            start_ms,
            deputy: a.deputy.map(|d| contacts.resolve(&d)),
            start_deadline_ms: a.start_deadline,
        },
    )?;
    if a.json {
        common::print_reply(&v)?;
    } else {
        println!("{}", v.league);
    }
    Ok(ExitCode::SUCCESS)
}

/// How complete a view of a league is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coverage {
    /// An archive file: it holds what it holds.
    File,
    /// The node has not heard from the organiser since it started: games may be missing.
    Unheard,
    /// The organiser listed this many games the node does not hold as far along yet.
    Missing(usize),
}

impl Coverage {
    /// `complete` and `not_received`, as a JSON view says them (`null` for a file).
    fn json(self) -> CoverageJson {
        let (complete, not_received) = match self {
            Coverage::File => (None, None),
            Coverage::Unheard => (Some(false), None),
            Coverage::Missing(n) => (Some(n == 0), Some(n)),
        };
        CoverageJson {
            complete,
            not_received,
        }
    }

    /// A JSON view with how complete it is beside its own keys.
    fn beside<T>(self, view: T) -> Covered<T> {
        Covered {
            view,
            coverage: self.json(),
        }
    }

    /// What a text view says when it may be incomplete.
    fn note(self) -> Option<String> {
        match self {
            Coverage::File | Coverage::Missing(0) => None,
            Coverage::Unheard => Some(t!("league-unheard")),
            Coverage::Missing(n) => Some(t!("league-missing", count = n)),
        }
    }

    fn print_note(self) {
        if let Some(n) = self.note() {
            println!("({n})");
        }
    }
}

/// A league archive, from a file (offline) or from the node, and how complete it is.
fn load(home: &Path, league: &str) -> CliResult<(LeagueArchive, Coverage)> {
    let path = Path::new(league);
    let (text, coverage) = if path.is_file() {
        let text = std::fs::read_to_string(path)
            .map_err(|e| error::user(common::cannot_read(path, &e)))?;
        (text, Coverage::File)
    } else {
        let v: LeagueExportReply = common::read_as(
            home,
            request::LeagueExport {
                league: league.to_owned(),
            },
        )?;
        let coverage = v.not_received.map_or(Coverage::Unheard, Coverage::Missing);
        (v.archive, coverage)
    };
    let arch = archive::read(&text).map_err(|e| {
        error::user_hint(
            t!("league-archive-bad", error = e.to_string()),
            t!("league-hint-archive"),
        )
    })?;
    Ok((arch, coverage))
}

/// The page's language: the flag's, else the interface's (the settings' `"language"`,
/// else `LC_ALL`, `LC_MESSAGES`, `LANG`: one rule, [`sobre_words::Language::from_locale_vars`]).
fn page_lang(flag: Option<HtmlLang>) -> sobre_words::Language {
    match flag {
        Some(HtmlLang::Es) => sobre_words::Language::Spanish,
        Some(HtmlLang::En) => sobre_words::Language::English,
        None => crate::i18n::lang(),
    }
}

/// The table of an archive; `arch.league` becomes the league as its roster decisions leave
/// it (late entries, replacements), the one the table is shown with.
fn compute(arch: &mut LeagueArchive) -> Standings {
    let (league, s) = decision::table(
        &arch.league,
        &arch.games,
        &arch.decisions,
        sobre_node::time::now_ms(),
    );
    arch.league = league;
    s
}

fn pairings(home: &Path, a: PairingsArgs) -> CliResult<ExitCode> {
    let (mut arch, coverage) = load(home, &a.league)?;
    let s = compute(&mut arch);
    let l = &arch.league;
    let rounds = l.rounds();
    if let Some(r) = a.round
        && (r == 0 || r as usize > rounds.len())
    {
        return Err(error::user(t!(
            "league-bad-round",
            round = r,
            rounds = rounds.len()
        )));
    }
    let mut list = Vec::new();
    for (i, boards) in rounds.iter().enumerate() {
        let round = i as u32 + 1;
        if a.round.is_some_and(|r| r != round) {
            continue;
        }
        for b in boards {
            let entry = match *b {
                Board::Game { white, black } => {
                    let (Some(w), Some(bl)) = (l.player(white), l.player(black)) else {
                        continue;
                    };
                    let game = s
                        .games
                        .iter()
                        .find(|g| g.round == round && g.white == w && g.black == bl);
                    PairingJson::Game {
                        round,
                        white: w.to_string(),
                        black: bl.to_string(),
                        white_name: l.name(&w),
                        black_name: l.name(&bl),
                        opens: common::rfc3339(l.round_opens_ms(round)),
                        game: game.map(|g| g.game.to_hex()),
                        status: game.map_or("not started", |g| g.status.name()),
                        result: game.and_then(|g| g.result.map(|o| o.as_str())),
                        decided: game.and_then(|g| DecidedJson::new(g.decided.as_ref(), g.result)),
                    }
                }
                Board::Bye { player } => {
                    let Some(p) = l.player(player) else { continue };
                    PairingJson::Bye {
                        round,
                        bye: p.to_string(),
                        bye_name: l.name(&p),
                    }
                }
            };
            list.push(entry);
        }
    }
    if a.json {
        let v = PairingsJson {
            league: l.id.to_hex(),
            pairings: &list,
        };
        common::print_reply(&coverage.beside(v))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut last = 0;
    for p in &list {
        let round = p.round();
        if round != last {
            println!(
                "{}",
                t!(
                    "league-round",
                    round = round,
                    opens = common::rfc3339(l.round_opens_ms(round))
                )
            );
            last = round;
        }
        match p {
            PairingJson::Bye { bye_name, .. } => {
                println!("  {}", t!("league-bye", name = bye_name.as_str()));
            }
            PairingJson::Game {
                white_name,
                black_name,
                game,
                status,
                result,
                decided,
                ..
            } => {
                let state = match (result, decided) {
                    (Some(_), Some(DecidedJson::Forfeit { mark })) => {
                        format!("{mark} ({})", t!("league-forfeit"))
                    }
                    (Some(_), Some(DecidedJson::StartDeadline { mark })) => {
                        format!("{mark} ({})", t!("league-start-deadline-forfeit"))
                    }
                    (Some(r), Some(DecidedJson::Adjudicated { .. })) => {
                        format!("{r} ({})", t!("league-adjudicated"))
                    }
                    (Some(r), None) => (*r).to_owned(),
                    (None, _) => status_word(status),
                };
                println!(
                    "  {:<20} – {:<20} {}{}",
                    white_name,
                    black_name,
                    state,
                    game.as_deref()
                        .map(|g| format!("  {}", short(g)))
                        .unwrap_or_default()
                );
            }
        }
    }
    coverage.print_note();
    Ok(ExitCode::SUCCESS)
}

/// A start deadline (`7d`, `36h`) in milliseconds.
fn start_deadline(text: &str) -> Result<u64, String> {
    sobre_core::clock::parse_duration(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A view that may lack games says so, in text and JSON; a complete one and a file say
    /// nothing in text.
    #[test]
    fn an_incomplete_view_says_so() {
        assert_eq!(
            Coverage::Missing(3).note().as_deref(),
            Some("3 games not yet received from the organiser")
        );
        assert_eq!(
            Coverage::Missing(1).note().as_deref(),
            Some("1 game not yet received from the organiser")
        );
        assert!(
            Coverage::Unheard
                .note()
                .is_some_and(|n| n.contains("may be missing"))
        );
        assert_eq!(Coverage::Missing(0).note(), None);
        assert_eq!(Coverage::File.note(), None);
        let json = |c: Coverage| serde_json::to_string(&c.json()).unwrap();
        assert_eq!(
            json(Coverage::Missing(3)),
            r#"{"complete":false,"not_received":3}"#
        );
        assert_eq!(
            json(Coverage::Missing(0)),
            r#"{"complete":true,"not_received":0}"#
        );
        assert_eq!(
            json(Coverage::Unheard),
            r#"{"complete":false,"not_received":null}"#
        );
        assert_eq!(
            json(Coverage::File),
            r#"{"complete":null,"not_received":null}"#
        );
    }
}
