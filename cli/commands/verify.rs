//! `sobre verify`: checks a signed archive offline (no node, no network, no home directory)
//! and says what happened in the game.

use crate::error::{self, EXIT_DATA, EXIT_USER};
use serde_json::{Value, json};
use sobre_core::notation::{Notation, format_move};
use sobre_core::record::export::{
    ARCHIVE_HEADER, MAX_ARCHIVE_BYTES, claim_ply, claim_reason_code, claim_reason_words,
    player_id_name, read_archive, to_pgn,
};
use sobre_core::record::verify::CoinSettlement;
use sobre_core::record::{GameState, PlayerId, Status};
use sobre_core::{Color, Position};
use std::fs::File;
use std::io::{self, Read};
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

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let state = match load(&args.archive) {
        Ok(state) => state,
        Err(failure) => return fail(&args, failure),
    };
    if args.pgn {
        print!("{}", to_pgn(&state, &player_id_name));
    } else if args.json {
        println!("{}", to_json(&state));
    } else {
        print!("{}", to_text(&state));
    }
    Ok(ExitCode::SUCCESS)
}

fn fail(args: &Args, failure: Failure) -> anyhow::Result<ExitCode> {
    let (message, code) = match failure {
        Failure::Input(m) => (m, EXIT_USER),
        Failure::Data(m) => (m, EXIT_DATA),
    };
    if args.json {
        println!("{}", json!({ "ok": false, "error": message }));
        return Ok(ExitCode::from(code));
    }
    if code == EXIT_USER {
        // The one place that prints user errors (with its `error:` prefix and exit 2).
        return Err(error::user(message));
    }
    eprintln!("error: {message}");
    Ok(ExitCode::from(code))
}

/// Reads, parses and verifies the archive.
fn load(path: &str) -> Result<GameState, Failure> {
    let text = read_text(path)?;
    let archive =
        read_archive(&text).map_err(|e| Failure::Input(format!("{}: {e}", shown(path))))?;
    archive
        .verify()
        .map_err(|e| Failure::Data(format!("{}: does not verify: {e}", shown(path))))
}

fn shown(path: &str) -> &str {
    if path == "-" { "standard input" } else { path }
}

/// The whole file as text, refusing more than an archive may hold before reading it all.
fn read_text(path: &str) -> Result<String, Failure> {
    let input: Box<dyn Read> = if path == "-" {
        Box::new(io::stdin().lock())
    } else {
        let f = File::open(path).map_err(|e| Failure::Input(format!("cannot open {path}: {e}")))?;
        Box::new(f)
    };
    let mut bytes = Vec::new();
    input
        .take(MAX_ARCHIVE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", shown(path))))?;
    if bytes.len() > MAX_ARCHIVE_BYTES {
        return Err(Failure::Input(format!(
            "{}: larger than an archive may be ({MAX_ARCHIVE_BYTES} bytes)",
            shown(path)
        )));
    }
    String::from_utf8(bytes).map_err(|_| {
        Failure::Input(format!(
            "{}: not a sobre archive (not text; an archive starts with `{ARCHIVE_HEADER}`)",
            shown(path)
        ))
    })
}

fn player(p: Option<&PlayerId>) -> Value {
    p.map_or(Value::Null, |p| Value::String(p.to_string()))
}

/// The start position (the standard one until a drawn Chess960 position is known).
fn start_of(state: &GameState) -> Position {
    state.start.clone().unwrap_or_default()
}

/// The moves in UCI, and the position before each move (plus the final one).
fn replay(state: &GameState) -> (Vec<String>, Vec<Position>) {
    let mut pos = start_of(state);
    let mut ucis = Vec::with_capacity(state.moves.len());
    let mut positions = Vec::with_capacity(state.moves.len() + 1);
    for m in &state.moves {
        ucis.push(format_move(&pos, m.mv, Notation::Uci));
        positions.push(pos.clone());
        pos.play_unchecked(m.mv);
    }
    positions.push(pos);
    (ucis, positions)
}

fn to_json(state: &GameState) -> Value {
    let (moves, positions) = replay(state);
    let claims: Vec<Value> = state
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
            json!({
                "by": c.by.name(),
                "reason": claim_reason_code(c.reason),
                "intended": intended,
                "correct": c.correct,
                "judgement": c.judgement,
                "after_ply": before,
                "event": c.event.to_hex(),
            })
        })
        .collect();
    let seqs: Vec<u64> = state.equivocations.iter().map(|e| e.seq).collect();
    let authors: Vec<String> = state
        .equivocations
        .iter()
        .map(|e| e.author.to_string())
        .collect();
    json!({
        "ok": true,
        "game": state.game.to_hex(),
        "white": player(state.white.as_ref()),
        "black": player(state.black.as_ref()),
        "status": state.status.name(),
        "result": state.result.map(|o| o.as_str()),
        "termination": state.termination.map(|t| t.code()),
        "time_control": state.time_control.to_string(),
        "start_fen": start_of(state).fen(),
        "fen": state.position.fen(),
        "moves": moves,
        "plies": state.moves.len(),
        "claims": claims,
        "equivocations": { "count": seqs.len(), "seqs": seqs, "authors": authors },
        "envelope": envelope_text(state),
        "sealed_move_error": state.sealed_move_error,
        "events": state.timeline.len(),
        "ignored": state.ignored.len(),
        // The fair coin (F1): null without one, else how it was settled, if it was.
        "coin": state.coin.as_ref().map(|c| match c.settled {
            None => "unopened",
            Some(CoinSettlement::Opened { .. }) => "opened",
            Some(CoinSettlement::Defaulted { .. }) => "default",
        }),
    })
}

/// Where the sealed moves stand (Appendix A), in words.
fn envelope_text(state: &GameState) -> Option<String> {
    let e = state.envelopes.last()?;
    let who = e.sealer.name();
    Some(if state.envelope_lost {
        format!(
            "sealed by {who} for ply {}, lost; the move was played instead (A11)",
            e.ply
        )
    } else {
        match &e.opened {
            Some(text) => format!("sealed by {who} for ply {}, opened: {text:?}", e.ply),
            None => format!("sealed by {who} for ply {}, still closed", e.ply),
        }
    })
}

fn to_text(state: &GameState) -> String {
    let name = |c: Color| {
        state
            .player(c)
            .map_or_else(|| "not yet drawn".to_owned(), |p| p.to_string())
    };
    let result = match (state.result, state.termination) {
        (Some(o), Some(t)) => format!("{o} ({t})"),
        (Some(o), None) => o.to_string(),
        (None, _) => "* (not decided)".to_owned(),
    };
    let plies = state.moves.len();
    let mut lines = vec![
        format!("verified  {} signed events", state.timeline.len()),
        format!("game      {}", state.game),
        format!("white     {}", name(Color::White)),
        format!("black     {}", name(Color::Black)),
        format!(
            "status    {}{}",
            state.status.name(),
            if state.status == Status::Disputed {
                " (a player signed two different events at one place)"
            } else {
                ""
            }
        ),
        format!("result    {result}"),
        format!("moves     {plies} plies ({} full moves)", plies.div_ceil(2)),
        format!("position  {}", state.position.fen()),
    ];
    if state.equivocations.is_empty() {
        lines.push("disputes  none".to_owned());
    }
    for e in &state.equivocations {
        lines.push(format!(
            "disputes  {} signed two events at seq {}",
            e.author, e.seq
        ));
    }
    if state.claims.is_empty() {
        lines.push("claims    none".to_owned());
    }
    for c in &state.claims {
        lines.push(format!(
            "claims    {} claimed {} after ply {}: {}, {}",
            c.by.name(),
            claim_reason_words(c.reason),
            claim_ply(state, c),
            if c.correct { "correct" } else { "incorrect" },
            c.judgement
        ));
    }
    lines.push(format!(
        "envelope  {}",
        envelope_text(state).unwrap_or_else(|| "none".to_owned())
    ));
    if let Some(e) = &state.sealed_move_error {
        lines.push(format!("          {e}"));
    }
    // The fair coin (F1), where it is not simply opened (the colours then show it).
    match state.coin.as_ref().map(|c| c.settled) {
        Some(None) => lines.push("coin      accepted, not opened yet".to_owned()),
        Some(Some(CoinSettlement::Defaulted { .. })) => lines.push(
            "coin      not opened in time: settled by the opponent's default (F1)".to_owned(),
        ),
        _ => {}
    }
    if let Some((_, why)) = state.ignored.first() {
        lines.push(format!(
            "ignored   {} event(s) without effect (e.g. {why})",
            state.ignored.len()
        ));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}
