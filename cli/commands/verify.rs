//! `sobre verify`: checks a signed archive offline (no node, no network, no home directory)
//! and says what happened in the game.

use super::common;
use crate::error::{self, CliError, CliResult, Fault};
use crate::i18n::words;
use crate::t;
use serde::Serialize;
use sobre_core::notation::{Notation, format_move};
use sobre_core::record::export::{
    ARCHIVE_HEADER, MAX_ARCHIVE_BYTES, claim_ply, claim_reason_code, player_id_name, read_archive,
    to_pgn,
};
use sobre_core::record::verify::CoinSettlement;
use sobre_core::record::{GameState, Status};
use sobre_core::{Color, Position};
use sobre_node::api::GameView;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::process::ExitCode;

/// Verify a game archive offline: every signature, both scoresheets' hash chains and every
/// move under the Laws of Chess, exactly as the players' nodes decide it. Nobody has to be
/// trusted: not the sender of the file, not sobre's nodes.
///
/// The archive is the text `sobre export GAME --archive` writes: a line `sobre-archive 1`,
/// a line `game <id>` and one line `event <hex>` per signed event.
///
/// Exit status: 0 if the archive verifies; 1 if it is readable but does not verify (a bad
/// signature, a broken chain, an illegal move, events of another game); 2 if the file is
/// not an archive at all or cannot be read. With --json the failure is also printed as
/// `{"ok":false,"error":"…"}`.
#[derive(clap::Args)]
pub struct Args {
    /// The archive file (`-` for standard input).
    archive: String,
    /// Print one JSON object: game, white, black, status, result ("1-0", "0-1", "1/2-1/2" or
    /// null), termination (a code such as "checkmate", or null), fen, moves (UCI), plies,
    /// claims, equivocations {count, seqs}, ok.
    #[arg(long, conflicts_with = "pgn")]
    json: bool,
    /// Print the game as canonical PGN instead (signed times as [%sobre-time] comments).
    #[arg(long)]
    pgn: bool,
}

/// Why the command fails, sorted by whose problem it is.
enum Failure {
    /// The file is missing, unreadable, or not an archive: exit 2.
    Input(String),
    /// The archive is readable but its record does not verify: exit 1.
    Data(String),
}

pub fn run(args: Args) -> CliResult<ExitCode> {
    let state = match load(&args.archive) {
        Ok(state) => state,
        Err(failure) => return fail(&args, failure),
    };
    if args.pgn {
        print!("{}", to_pgn(&state, &player_id_name));
    } else if args.json {
        println!("{}", serde_json::to_value(report(&state))?);
    } else {
        print!("{}", to_text(&state));
    }
    Ok(ExitCode::SUCCESS)
}

fn fail(args: &Args, failure: Failure) -> CliResult<ExitCode> {
    let (message, fault) = match failure {
        Failure::Input(m) => (m, Fault::User),
        Failure::Data(m) => (m, Fault::Data),
    };
    if args.json {
        // The failure is the JSON on standard output; only the exit code is left.
        common::print_reply(&Failed {
            ok: false,
            error: &message,
        })?;
        return Err(CliError::Reported(fault));
    }
    Err(match fault {
        Fault::User => error::user(message),
        Fault::Data => CliError::Data(message),
    })
}

/// `verify --json` when the archive is not read or does not verify.
#[derive(Serialize)]
struct Failed<'a> {
    /// Always false: the field a script tests first, as on the report of a good archive.
    ok: bool,
    error: &'a str,
}

/// Reads, parses and verifies the archive.
fn load(path: &str) -> Result<GameState, Failure> {
    let text = read_text(path)?;
    let archive =
        read_archive(&text).map_err(|e| Failure::Input(format!("{}: {e}", shown(path))))?;
    archive.verify().map_err(|e| {
        Failure::Data(t!(
            "verify-does-not-verify",
            path = shown(path),
            error = e.to_string()
        ))
    })
}

fn shown(path: &str) -> String {
    if path == "-" {
        t!("standard-input")
    } else {
        path.to_owned()
    }
}

/// The whole file as text, refusing more than an archive may hold before reading it all.
fn read_text(path: &str) -> Result<String, Failure> {
    let input: Box<dyn Read> = if path == "-" {
        Box::new(io::stdin().lock())
    } else {
        let f = File::open(path)
            .map_err(|e| Failure::Input(common::cannot_open(Path::new(path), &e)))?;
        Box::new(f)
    };
    let mut bytes = Vec::new();
    input
        .take(MAX_ARCHIVE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Input(common::cannot_read(Path::new(&shown(path)), &e)))?;
    if bytes.len() > MAX_ARCHIVE_BYTES {
        return Err(Failure::Input(t!(
            "verify-too-large",
            path = shown(path),
            max = MAX_ARCHIVE_BYTES
        )));
    }
    String::from_utf8(bytes).map_err(|_| {
        Failure::Input(t!(
            "verify-not-text",
            path = shown(path),
            header = ARCHIVE_HEADER
        ))
    })
}

/// The start position (the standard one until a drawn Chess960 position is known).
fn start_of(state: &GameState) -> Position {
    state.start.clone().unwrap_or_default()
}

/// The position before each move (plus the final one).
fn positions(state: &GameState) -> Vec<Position> {
    let mut pos = start_of(state);
    let mut positions = Vec::with_capacity(state.moves.len() + 1);
    for m in &state.moves {
        positions.push(pos.clone());
        pos.play_unchecked(m.mv);
    }
    positions.push(pos);
    positions
}

/// What `sobre verify --json` prints: the game's [`GameView`] as a third party sees it, with
/// what only a verifier reports.
///
/// A thin adapter, not a second schema of the game: the fields a game's view has are taken
/// from its [`GameView`]. The rest is the archive's own and differs from `show` on purpose
/// (its format predates the view and scripts read it): `start_fen` is always written,
/// `claims` carry their API word (`fifty`, not `fiftymoves`), the announced move and the ply,
/// `equivocations` are counted, `envelope` and `coin` are words, and `events` and `ignored`
/// count the signed record. Fields in the order of their names, as always.
#[derive(Serialize)]
struct ArchiveReport {
    black: Option<String>,
    claims: Vec<ArchiveClaim>,
    coin: Option<&'static str>,
    envelope: Option<String>,
    equivocations: ArchiveEquivocations,
    events: usize,
    fen: String,
    game: String,
    ignored: usize,
    moves: Vec<String>,
    ok: bool,
    plies: usize,
    result: Option<String>,
    sealed_move_error: Option<String>,
    start_fen: String,
    status: sobre_core::record::Status,
    termination: Option<String>,
    time_control: String,
    white: Option<String>,
}

/// A claim as the archive's verification reports it.
#[derive(Serialize)]
struct ArchiveClaim {
    after_ply: usize,
    by: &'static str,
    correct: bool,
    event: String,
    intended: Option<String>,
    judgement: String,
    reason: &'static str,
}

/// How many equivocations, at which sequence numbers, by whom.
#[derive(Serialize)]
struct ArchiveEquivocations {
    authors: Vec<String>,
    count: usize,
    seqs: Vec<u64>,
}

fn report(state: &GameState) -> ArchiveReport {
    // No player's side and no clock: the time given only moves the clocks' countdowns,
    // which a verifier does not report.
    let view: GameView = sobre_node::view::game_view(state, None, 0);
    let positions = positions(state);
    let claims = state
        .claims
        .iter()
        .map(|c| {
            let ply = claim_ply(state, c);
            // An announced move (9.2a, 9.3a) is written from the position it was claimed in:
            // before the move it brought about if the claim was incorrect (9.5b).
            let played_with_it = ply
                .checked_sub(1)
                .and_then(|i| state.moves.get(i))
                .is_some_and(|m| m.event == c.event);
            let before = ply - usize::from(played_with_it);
            let intended = c.intended.and_then(|m| {
                positions
                    .get(before)
                    .map(|p| format_move(p, m, Notation::Uci))
            });
            ArchiveClaim {
                by: c.by.name(),
                reason: claim_reason_code(c.reason),
                intended,
                correct: c.correct,
                judgement: c.judgement.to_string(),
                after_ply: before,
                event: c.event.to_hex(),
            }
        })
        .collect();
    ArchiveReport {
        ok: true,
        game: view.game,
        white: view.white,
        black: view.black,
        status: view.status,
        result: view.result,
        termination: view.termination,
        time_control: view.time_control,
        start_fen: start_of(state).fen(),
        fen: view.fen,
        moves: view.moves,
        plies: view.plies,
        claims,
        equivocations: ArchiveEquivocations {
            count: view.equivocations.len(),
            seqs: view.equivocations.iter().map(|e| e.seq).collect(),
            authors: view.equivocations.into_iter().map(|e| e.author).collect(),
        },
        envelope: envelope_text(state),
        sealed_move_error: view.sealed_move_error,
        events: state.timeline.len(),
        ignored: state.ignored.len(),
        // The fair coin (F1): null without one, else how it was settled, if it was.
        coin: state.coin.as_ref().map(|c| match c.settled {
            None => "unopened",
            Some(CoinSettlement::Opened { .. }) => "opened",
            Some(CoinSettlement::Defaulted { .. }) => "default",
        }),
    }
}

/// Where the sealed moves stand (Appendix A), in English: the JSON's words.
fn envelope_text(state: &GameState) -> Option<String> {
    envelope_in(sobre_words::words(sobre_words::Language::English), state)
}

/// [`envelope_text`] in the run's language.
fn envelope_words(state: &GameState) -> Option<String> {
    envelope_in(sobre_words::words(crate::i18n::lang()), state)
}

/// Where the sealed moves stand, in `w`'s words (one sentence per state, in the catalogue).
fn envelope_in(w: &sobre_words::Words, state: &GameState) -> Option<String> {
    use sobre_words::args;
    let e = state.envelopes.last()?;
    let who = sobre_node::words::colour(w, e.sealer);
    Some(if state.envelope_lost {
        let args = args!(who = who, ply = e.ply);
        w.get("verify-envelope-lost", Some(&args))
    } else {
        match &e.opened {
            Some(text) => {
                let text = sobre_node::words::quoted(text);
                let args = args!(who = who, ply = e.ply, text = text);
                w.get("verify-envelope-opened", Some(&args))
            }
            None => {
                let args = args!(who = who, ply = e.ply);
                w.get("verify-envelope-closed", Some(&args))
            }
        }
    })
}

fn to_text(state: &GameState) -> String {
    // The labels are a column as wide as the longest in the run's language, plus two.
    const LABELS: [&str; 13] = [
        "verify-label-verified",
        "verify-label-game",
        "verify-label-white",
        "verify-label-black",
        "verify-label-status",
        "verify-label-result",
        "verify-label-moves",
        "verify-label-position",
        "verify-label-disputes",
        "verify-label-claims",
        "verify-label-envelope",
        "verify-label-coin",
        "verify-label-ignored",
    ];
    let width = crate::i18n::label_width(LABELS.iter(), 2);
    let row = |label: String, value: String| format!("{label:<width$}{value}");
    let name = |c: Color| {
        state
            .player(c)
            .map_or_else(|| t!("verify-not-drawn"), |p| p.to_string())
    };
    let result = match (state.result, state.termination) {
        (Some(o), Some(term)) => format!("{o} ({})", words::termination(term)),
        (Some(o), None) => o.to_string(),
        (None, _) => t!("verify-not-decided"),
    };
    let plies = state.moves.len();
    let mut lines = vec![
        row(
            t!("verify-label-verified"),
            t!("verify-signed-events", count = state.timeline.len()),
        ),
        row(t!("verify-label-game"), state.game.to_string()),
        row(t!("verify-label-white"), name(Color::White)),
        row(t!("verify-label-black"), name(Color::Black)),
        row(
            t!("verify-label-status"),
            if state.status == Status::Disputed {
                format!(
                    "{} {}",
                    words::status(state.status),
                    t!("verify-disputed-why")
                )
            } else {
                words::status(state.status)
            },
        ),
        row(t!("verify-label-result"), result),
        row(
            t!("verify-label-moves"),
            t!("verify-plies", plies = plies, full = plies.div_ceil(2)),
        ),
        row(t!("verify-label-position"), state.position.fen()),
    ];
    if state.equivocations.is_empty() {
        lines.push(row(t!("verify-label-disputes"), t!("verify-none")));
    }
    for e in &state.equivocations {
        lines.push(row(
            t!("verify-label-disputes"),
            t!(
                "verify-equivocation",
                author = e.author.to_string(),
                seq = e.seq
            ),
        ));
    }
    if state.claims.is_empty() {
        lines.push(row(t!("verify-label-claims"), t!("verify-none")));
    }
    for c in &state.claims {
        lines.push(row(
            t!("verify-label-claims"),
            t!(
                "verify-claim",
                by = words::colour(c.by),
                reason = words::claim_reason(c.reason),
                ply = claim_ply(state, c),
                verdict = if c.correct {
                    t!("verify-correct")
                } else {
                    t!("verify-incorrect")
                },
                judgement = words::judgement(&c.judgement)
            ),
        ));
    }
    lines.push(row(
        t!("verify-label-envelope"),
        envelope_words(state).unwrap_or_else(|| t!("verify-none")),
    ));
    if let Some(e) = &state.sealed_move_error {
        lines.push(row(String::new(), e.to_string()));
    }
    // The fair coin (F1), where it is not simply opened (the colours then show it).
    match state.coin.as_ref().map(|c| c.settled) {
        Some(None) => lines.push(row(t!("verify-label-coin"), t!("verify-coin-unopened"))),
        Some(Some(CoinSettlement::Defaulted { .. })) => {
            lines.push(row(t!("verify-label-coin"), t!("verify-coin-defaulted")));
        }
        _ => {}
    }
    if let Some((_, why)) = state.ignored.first() {
        lines.push(row(
            t!("verify-label-ignored"),
            t!(
                "verify-ignored",
                count = state.ignored.len(),
                why = why.to_string()
            ),
        ));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}
