//! `sobre pgn check` and `sobre pgn convert`: replay PGN files with full legality checks.

use super::common;
use crate::error::{self, CliError, CliResult, Fault};
use crate::t;
use indicatif::{ProgressBar, ProgressStyle};
use sobre_core::notation::{Notation, format_move};
use sobre_core::pgn::replay::{ReplayOptions, ReplayedGame, Replayer};
use sobre_core::pgn::{GameRecord, PgnReader, WrittenMove, write_game};
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Read and write PGN files.
#[derive(clap::Subcommand)]
pub enum PgnCommand {
    Check(CheckArgs),
    Convert(ConvertArgs),
}

/// Replay every game of one or more PGN files, checking every move (English or Spanish SAN,
/// figurines, coordinates), and report the first impossible move of each bad game.
///
/// Exit status 1 if any game fails. With --json, one object per game per line: `file`,
/// `index` (0-based, per file), `ok`, `plies`, `final_fen`, and when not ok `error`
/// {`kind`, `ply`, `move`, `message`}; `kind` is `illegal`, `null_move`, `bad_start` or
/// `not_text`.
///
/// A null move (`Z0`, `--`) in the main line is reported as such; inside a variation it is
/// accepted (variations are not replayed).
#[derive(clap::Args)]
pub struct CheckArgs {
    /// PGN files (`-` for standard input).
    #[arg(required = true)]
    files: Vec<String>,
    /// One JSON object per game per line.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Rewrite the games of a PGN file with their moves in another notation (canonical PGN on
/// standard output).
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// The PGN file (`-` for standard input).
    file: String,
    /// Notation of the output: en, es, figurine, uci, iccf.
    #[arg(long, default_value = "en")]
    notation: Notation,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    output: Option<String>,
}

pub fn run(cmd: PgnCommand) -> CliResult<ExitCode> {
    match cmd {
        PgnCommand::Check(a) => check(a),
        PgnCommand::Convert(a) => convert(a),
    }
}

/// Opens a file (or stdin) and its size, for the progress bar.
fn open(path: &str) -> CliResult<(Box<dyn Read>, Option<u64>)> {
    if path == "-" {
        return Ok((Box::new(io::stdin().lock()), None));
    }
    let f = File::open(path).map_err(|e| error::user(common::cannot_open(Path::new(path), &e)))?;
    let len = f.metadata().ok().map(|m| m.len());
    Ok((Box::new(f), len))
}

/// A reader that advances a progress bar.
struct Progress<R> {
    inner: R,
    bar: Option<ProgressBar>,
}

impl<R: Read> Read for Progress<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(b) = &self.bar {
            b.inc(n as u64);
        }
        Ok(n)
    }
}

fn progress_bar(len: Option<u64>, quiet: bool) -> Option<ProgressBar> {
    // Only for large files on a terminal: scripts and small files see nothing.
    let len = len.filter(|&l| l > 8 << 20)?;
    if quiet || !io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(len);
    let style =
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    Some(bar)
}

fn check(args: CheckArgs) -> CliResult<ExitCode> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut any_failed = false;
    for path in &args.files {
        let (input, len) = open(path)?;
        let bar = progress_bar(len, args.quiet);
        let mut reader = PgnReader::new(Progress {
            inner: input,
            bar: bar.clone(),
        });
        let mut visitor = Replayer::new(ReplayOptions {
            keep_tags: false,
            keep_moves: false,
            keep_comments: false,
        });
        let started = Instant::now();
        let (mut games, mut failed, mut plies) = (0u64, 0u64, 0u64);
        let mut index = 0u64;
        while let Some(game) = reader
            .read_game(&mut visitor)
            .map_err(|e| error::user(format!("{path}: {e}")))?
        {
            games += 1;
            plies += u64::from(game.plies);
            if !game.ok() {
                failed += 1;
            }
            if args.json {
                writeln!(
                    out,
                    "{}",
                    common::json_line(&game_json(path, index, &game))?
                )?;
            } else if let Some(e) = &game.error {
                if let Some(b) = &bar {
                    b.suspend(|| ());
                }
                writeln!(out, "{}", game_error(path, index, e))?;
            }
            index += 1;
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        any_failed |= failed > 0;
        if !args.json {
            let secs = started.elapsed().as_secs_f64();
            writeln!(
                out,
                "{}",
                t!(
                    "pgn-summary",
                    path = path.as_str(),
                    games = games,
                    ok = games - failed,
                    failed = failed,
                    plies = plies,
                    secs = format!("{secs:.2}")
                )
            )?;
        }
    }
    out.flush()?;
    if any_failed {
        // Each failed game was reported above.
        return Err(CliError::Reported(Fault::Data));
    }
    Ok(ExitCode::SUCCESS)
}

/// `FILE: game N, what is wrong (line L)`.
fn game_error(path: &str, index: u64, e: &sobre_core::pgn::replay::ReplayError) -> String {
    t!(
        "pgn-game-error",
        path = path,
        game = index + 1,
        error = replay_error(e),
        line = e.line
    )
}

/// Why a game's replay stopped, in the run's language from the error's typed parts (in
/// English, the core's own sentence: its `message` is the English detail, which Spanish
/// leaves out for the move reader's verdict in words).
fn replay_error(e: &sobre_core::pgn::replay::ReplayError) -> String {
    use crate::i18n::{errors, words};
    use sobre_core::notation::MoveErrorKind;
    use sobre_core::pgn::replay::ReplayErrorKind;
    let colour = words::colour(e.color);
    match e.kind {
        ReplayErrorKind::BadStart => t!(
            "pgn-error-start",
            message = e.message.as_str(),
            fen_error = e
                .start
                .as_ref()
                .map_or_else(|| e.message.clone(), errors::fen)
        ),
        ReplayErrorKind::NullMove => t!(
            "pgn-error-null",
            text = e.text.as_str(),
            number = e.move_number,
            dots = if e.color == sobre_core::Color::White {
                "."
            } else {
                "..."
            }
        ),
        ReplayErrorKind::NotText => t!(
            "pgn-error-not-text",
            number = e.move_number,
            colour = colour,
            text = e.text.as_str()
        ),
        ReplayErrorKind::Illegal => t!(
            "pgn-error-move",
            number = e.move_number,
            colour = colour,
            text = e.text.as_str(),
            detail = e.message.as_str(),
            reading = match e.reading {
                Some(MoveErrorKind::Syntax) => t!("pgn-reading-syntax"),
                Some(MoveErrorKind::Ambiguous) => t!("pgn-reading-ambiguous"),
                Some(MoveErrorKind::Illegal) | None => t!("pgn-reading-illegal"),
            }
        ),
    }
}

/// One line of `pgn check --json`: a game, and where and why it stopped if it did.
#[derive(serde::Serialize)]
struct GameJson<'a> {
    file: &'a str,
    index: u64,
    line: u64,
    ok: bool,
    plies: u32,
    final_fen: String,
    result: Option<&'static str>,
    /// Art. 8 / App. E13: the plies (1-based) after which a draw was offered, `(=)`.
    draw_offers: &'a [u32],
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<GameErrorJson<'a>>,
}

/// Why a game of `pgn check --json` stopped.
#[derive(serde::Serialize)]
struct GameErrorJson<'a> {
    kind: &'static str,
    ply: u32,
    move_number: u32,
    color: &'static str,
    #[serde(rename = "move")]
    text: &'a str,
    message: &'a str,
    line: u64,
}

fn game_json<'a>(path: &'a str, index: u64, g: &'a ReplayedGame) -> GameJson<'a> {
    GameJson {
        file: path,
        index,
        line: g.line,
        ok: g.ok(),
        plies: g.plies,
        final_fen: g.position.fen(),
        result: g.outcome.map(|o| o.as_str()),
        draw_offers: &g.draw_offers,
        error: g.error.as_ref().map(|e| GameErrorJson {
            kind: e.kind.as_str(),
            ply: e.ply,
            move_number: e.move_number,
            color: e.color.name(),
            text: &e.text,
            message: &e.message,
            line: e.line,
        }),
    }
}

fn convert(args: ConvertArgs) -> CliResult<ExitCode> {
    let (input, _) = open(&args.file)?;
    let mut reader = PgnReader::new(input);
    let mut visitor = Replayer::new(ReplayOptions {
        keep_tags: true,
        keep_moves: true,
        keep_comments: true,
    });
    let sink: Box<dyn Write> = match &args.output {
        Some(p) => Box::new(
            File::create(p).map_err(|e| error::user(common::cannot_create(Path::new(p), &e)))?,
        ),
        None => Box::new(io::stdout().lock()),
    };
    let mut out = BufWriter::new(sink);
    let mut failed = 0u64;
    let mut index = 0u64;
    while let Some(game) = reader
        .read_game(&mut visitor)
        .map_err(|e| error::user(format!("{}: {e}", args.file)))?
    {
        if let Some(e) = &game.error {
            eprintln!(
                "{}; {}",
                game_error(&args.file, index, e),
                t!("pgn-written-up-to")
            );
            failed += 1;
        }
        let mut pos = game.start.clone();
        let mut moves = Vec::with_capacity(game.moves.len());
        for (i, &m) in game.moves.iter().enumerate() {
            let mut w = WrittenMove::new(format_move(&pos, m, args.notation));
            w.comment = game.comments.get(i).cloned().flatten();
            // The offer marks (=) are kept (E13), in the notation the file is written in.
            w.draw_offer = game.draw_offered_after(i as u32 + 1);
            moves.push(w);
            pos.play_unchecked(m);
        }
        let mut tags = game.tags.clone();
        if game.start != sobre_core::Position::new()
            && !tags.iter().any(|(n, _)| n.eq_ignore_ascii_case("FEN"))
        {
            tags.push(("FEN".into(), game.start.fen()));
        }
        let result = game
            .outcome
            .map(|o| o.as_str().to_owned())
            .unwrap_or_else(|| "*".to_owned());
        let record = GameRecord {
            tags,
            moves,
            first_ply_black: game.start.turn() == sobre_core::Color::Black,
            first_move_number: game.start.fullmove_number(),
            result,
        };
        let mut text = String::new();
        write_game(&record, &mut text).map_err(CliError::bug)?;
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")?;
        index += 1;
    }
    out.flush()?;
    if failed > 0 {
        return Err(CliError::Reported(Fault::Data));
    }
    Ok(ExitCode::SUCCESS)
}
