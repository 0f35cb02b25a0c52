//! Side-by-side benchmarks of sobre-core against cozy-chess, chess (jordanbray) and
//! shakmaty, on one thread, in one process, on the same machine.
//!
//! * Perft with bulk counting at the last ply (each library written the idiomatic fast way),
//!   start position depth 6 and Kiwipete depth 5, best of 3 runs.
//! * PGN replay with full legality checking: pgn-reader + shakmaty now; sobre's own PGN
//!   reader slots into [`replay_sobre`] once it exists. The input is a deterministic file of
//!   generated games (`target/games.pgn`, written on first run).
//!
//! Usage: `cargo run --release [-- perft|pgn]` (both by default).

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const RUNS: usize = 3;

fn main() {
    let what = std::env::args().nth(1).unwrap_or_default();
    if cfg!(debug_assertions) {
        eprintln!("warning: debug build; use `cargo run --release` for meaningful figures");
    }
    println!("machine: {}, one thread", cpu_model());
    if what.is_empty() || what == "perft" {
        perft_table();
    }
    if what.is_empty() || what == "pgn" {
        pgn_table();
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}

/// Best wall time of `RUNS` runs; panics if a run's result differs from `expected`.
fn best_of(expected: u64, mut f: impl FnMut() -> u64) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..RUNS {
        let t = Instant::now();
        let n = black_box(f());
        let dt = t.elapsed();
        assert_eq!(n, expected, "wrong result");
        best = best.min(dt);
    }
    best
}

fn rate(n: u64, dt: Duration) -> f64 {
    n as f64 / dt.as_secs_f64()
}

// =====================================================================================
// Perft
// =====================================================================================

/// sobre-core: `Position::perft` already counts the last ply in bulk (`count_legal_moves`,
/// which sums destination bitboards without building a move list).
fn perft_sobre(pos: &sobre_core::Position, depth: u32) -> u64 {
    pos.perft(depth)
}

/// cozy-chess: moves come grouped per piece as destination bitboards; at the last ply only
/// their popcounts are summed (`PieceMoves::len` counts promotions four times).
fn perft_cozy(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for m in moves {
                let mut child = board.clone();
                child.play_unchecked(m);
                nodes += perft_cozy(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

/// chess (jordanbray): `MoveGen` is an `ExactSizeIterator`; copy-make with `make_move_new`.
fn perft_chess(board: &chess::Board, depth: u32) -> u64 {
    let moves = chess::MoveGen::new_legal(board);
    if depth == 1 {
        moves.len() as u64
    } else {
        moves
            .map(|m| perft_chess(&board.make_move_new(m), depth - 1))
            .sum()
    }
}

/// shakmaty: `legal_moves().len()` at the last ply.
fn perft_shakmaty(pos: &shakmaty::Chess, depth: u32) -> u64 {
    use shakmaty::Position as _;
    let moves = pos.legal_moves();
    if depth == 1 {
        moves.len() as u64
    } else {
        moves
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                perft_shakmaty(&child, depth - 1)
            })
            .sum()
    }
}

fn perft_table() {
    let cases: [(&str, &str, u32, u64); 2] = [
        ("start position", START, 6, 119_060_324),
        ("Kiwipete", KIWIPETE, 5, 193_690_690),
    ];
    println!();
    println!("Perft, bulk counting at the last ply, best of {RUNS} runs");
    println!(
        "{:<16} {:>5} {:>12} {:<12} {:>9} {:>11} {:>9}",
        "position", "depth", "nodes", "library", "time (s)", "Mnodes/s", "vs sobre"
    );
    for (name, fen, depth, expected) in cases {
        let sobre = sobre_core::Position::from_fen(fen, sobre_core::CastlingMode::Standard)
            .expect("sobre FEN");
        let cozy: cozy_chess::Board = fen.parse().expect("cozy-chess FEN");
        let chess = chess::Board::from_str(fen).expect("chess FEN");
        let shak: shakmaty::Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .expect("shakmaty FEN")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("shakmaty position");

        let rows: [(&str, Duration); 4] = [
            (
                "sobre-core",
                best_of(expected, || perft_sobre(black_box(&sobre), depth)),
            ),
            (
                "cozy-chess",
                best_of(expected, || perft_cozy(black_box(&cozy), depth)),
            ),
            (
                "chess",
                best_of(expected, || perft_chess(black_box(&chess), depth)),
            ),
            (
                "shakmaty",
                best_of(expected, || perft_shakmaty(black_box(&shak), depth)),
            ),
        ];
        let base = rate(expected, rows[0].1);
        for (lib, dt) in rows {
            let r = rate(expected, dt);
            println!(
                "{:<16} {:>5} {:>12} {:<12} {:>9.3} {:>11.1} {:>8.2}x",
                name,
                depth,
                expected,
                lib,
                dt.as_secs_f64(),
                r / 1e6,
                r / base
            );
        }
    }
}

// =====================================================================================
// PGN replay
// =====================================================================================

const GAMES: usize = 10_000;
const SEED: u64 = 0x00c0_ffee_5eed_0001;

/// Result of replaying a PGN file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ReplayStats {
    games: u64,
    moves: u64,
}

fn pgn_table() {
    let path = games_path();
    if !path.exists() {
        let t = Instant::now();
        let (games, plies) = write_games(&path, GAMES, SEED).expect("write games.pgn");
        println!(
            "\nwrote {} ({games} games, {plies} plies) in {:.1} s",
            path.display(),
            t.elapsed().as_secs_f64()
        );
    }
    let pgn = std::fs::read(&path).expect("read games.pgn");
    println!();
    println!(
        "PGN replay of {} ({:.1} MB, in memory), full legality, best of {RUNS} runs",
        path.display(),
        pgn.len() as f64 / 1e6
    );
    println!(
        "{:<24} {:>7} {:>9} {:>9} {:>11} {:>10}",
        "reader", "games", "moves", "time (s)", "kmoves/s", "games/s"
    );

    let reference = replay_shakmaty(&pgn);
    assert!(reference.games >= 10_000, "{reference:?}");
    let dt = best_of(reference.moves, || replay_shakmaty(black_box(&pgn)).moves);
    print_replay_row("pgn-reader + shakmaty", reference, dt);

    match replay_sobre(&pgn) {
        Some(stats) => {
            assert_eq!(stats, reference, "sobre and pgn-reader disagree");
            let dt = best_of(reference.moves, || {
                replay_sobre(black_box(&pgn)).map_or(0, |s| s.moves)
            });
            print_replay_row("sobre", stats, dt);
        }
        None => println!(
            "{:<24} n/a (sobre's PGN reader is not wired in yet)",
            "sobre"
        ),
    }
}

fn print_replay_row(name: &str, stats: ReplayStats, dt: Duration) {
    println!(
        "{:<24} {:>7} {:>9} {:>9.3} {:>11.1} {:>10.0}",
        name,
        stats.games,
        stats.moves,
        dt.as_secs_f64(),
        rate(stats.moves, dt) / 1e3,
        rate(stats.games, dt)
    );
}

// ----- pgn-reader + shakmaty -----

/// pgn-reader visitor: resolves every SAN against the position (`San::to_move`, which
/// rejects illegal and ambiguous moves) and plays it.
struct ShakmatyReplay {
    moves: u64,
}

impl pgn_reader::Visitor for ShakmatyReplay {
    type Tags = ();
    type Movetext = shakmaty::Chess;
    type Output = Result<(), String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(shakmaty::Chess::default())
    }

    fn san(
        &mut self,
        pos: &mut Self::Movetext,
        san_plus: pgn_reader::SanPlus,
    ) -> ControlFlow<Self::Output> {
        use shakmaty::Position as _;
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.moves += 1;
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(format!("{san_plus}: {e}"))),
        }
    }

    fn end_game(&mut self, _pos: Self::Movetext) -> Self::Output {
        Ok(())
    }
}

fn replay_shakmaty(pgn: &[u8]) -> ReplayStats {
    let mut reader = pgn_reader::Reader::new(pgn);
    let mut visitor = ShakmatyReplay { moves: 0 };
    let mut games = 0;
    while let Some(result) = reader.read_game(&mut visitor).expect("in-memory read") {
        if let Err(e) = result {
            panic!("game {}: {e}", games + 1);
        }
        games += 1;
    }
    ReplayStats {
        games,
        moves: visitor.moves,
    }
}

// ----- sobre -----

/// sobre-core's streaming reader and replayer: every SAN resolved with full legality checks
/// and played, exactly what `sobre pgn check` does.
fn replay_sobre(pgn: &[u8]) -> Option<ReplayStats> {
    let mut reader = sobre_core::pgn::PgnReader::new(pgn);
    let mut visitor = sobre_core::pgn::replay::Replayer::new(sobre_core::pgn::replay::ReplayOptions::default());
    let (mut games, mut moves) = (0, 0);
    while let Some(game) = reader.read_game(&mut visitor).expect("in-memory read") {
        if let Some(e) = &game.error {
            panic!("game {}: {e}", games + 1);
        }
        games += 1;
        moves += u64::from(game.plies);
    }
    Some(ReplayStats { games, moves })
}

// ----- game generator -----

fn games_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("games.pgn")
}

/// xorshift64* (Vigna): deterministic across platforms and library versions.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

const PLAYERS: [&str; 16] = [
    "Alvarez, Marta",
    "Bjornsson, Eirik",
    "Chen, Wei",
    "Dubois, Claire",
    "Eze, Chinedu",
    "Fischer, Hanna",
    "Gupta, Arjun",
    "Horvath, Zsofia",
    "Ivanov, Pavel",
    "Jensen, Mads",
    "Kowalski, Piotr",
    "Lopez, Diego",
    "Moreau, Julien",
    "Nakamura, Yui",
    "Okafor, Ada",
    "Petrov, Elena",
];

const EVENTS: [&str; 5] = [
    "sobre correspondence open",
    "Club championship",
    "Friendly match",
    "Autumn cup",
    "Thematic tournament",
];

const COMMENTS: [&str; 6] = [
    "Interesting.",
    "Probably best.",
    "A committal decision.",
    "[%clk 2:59:58]",
    "The only move.",
    "Sharper was the capture.",
];

/// Weight of a candidate move: captures (more for bigger victims), central destinations,
/// castling and queen promotions are preferred; underpromotions and king walks are rare.
fn move_weight(m: shakmaty::Move, ply: usize) -> u64 {
    use shakmaty::{File, Rank, Role};
    let mut w = 4;
    if let Some(victim) = m.capture() {
        w += match victim {
            Role::Pawn => 10,
            Role::Knight | Role::Bishop => 18,
            Role::Rook => 24,
            Role::Queen => 30,
            Role::King => 0,
        };
    }
    if m.is_castle() {
        w += 24;
    }
    match m.promotion() {
        Some(Role::Queen) => w += 40,
        Some(_) => w = 1,
        None => {}
    }
    let to = m.to();
    let centre = |f: File, r: Rank| {
        (File::C..=File::F).contains(&f) && (Rank::Third..=Rank::Sixth).contains(&r)
    };
    if centre(to.file(), to.rank()) {
        w += 6;
        if (File::D..=File::E).contains(&to.file())
            && (Rank::Fourth..=Rank::Fifth).contains(&to.rank())
        {
            w += 6;
        }
    }
    // Develop pieces early rather than shuffle the king or rooks.
    match m.role() {
        Role::King if !m.is_castle() && ply < 40 => w = 1,
        Role::Knight | Role::Bishop if ply < 16 => w += 6,
        Role::Pawn if ply < 10 => w += 4,
        _ => {}
    }
    w
}

/// Writes `games` deterministic pseudo-realistic games (40–120 plies unless mate or
/// stalemate comes first) with a seven-tag roster plus extras, check suffixes, occasional
/// comments, and PGN line wrapping. Returns (games, plies).
fn write_games(path: &Path, games: usize, seed: u64) -> std::io::Result<(usize, u64)> {
    use shakmaty::{Outcome, Position as _, san::SanPlus};
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("pgn.tmp");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
    let mut rng = Rng(seed);
    let mut total_plies = 0u64;
    for g in 0..games {
        let target = 40 + rng.below(81) as usize;
        let mut pos = shakmaty::Chess::default();
        let mut sans: Vec<String> = Vec::with_capacity(target);
        while sans.len() < target {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let weights: Vec<u64> = moves.iter().map(|&m| move_weight(m, sans.len())).collect();
            let mut x = rng.below(weights.iter().sum());
            let mut choice = moves[moves.len() - 1];
            for (&m, &w) in moves.iter().zip(&weights) {
                if x < w {
                    choice = m;
                    break;
                }
                x -= w;
            }
            sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, choice).to_string());
            if pos.is_insufficient_material() || pos.halfmoves() >= 100 {
                break;
            }
        }
        total_plies += sans.len() as u64;
        let result = match pos.outcome() {
            Outcome::Known(k) => k.to_string(),
            Outcome::Unknown => rng
                .pick(&["1-0", "0-1", "1/2-1/2", "1/2-1/2", "*"])
                .to_string(),
        };
        let white = *rng.pick(&PLAYERS);
        let mut black = *rng.pick(&PLAYERS);
        while black == white {
            black = *rng.pick(&PLAYERS);
        }
        let mut text = String::with_capacity(1024);
        let _ = writeln!(text, "[Event \"{}\"]", rng.pick(&EVENTS));
        let _ = writeln!(text, "[Site \"sobre network\"]");
        let _ = writeln!(
            text,
            "[Date \"{}.{:02}.{:02}\"]",
            2015 + rng.below(11),
            1 + rng.below(12),
            1 + rng.below(28)
        );
        let _ = writeln!(text, "[Round \"{}\"]", 1 + g % 9);
        let _ = writeln!(text, "[White \"{white}\"]");
        let _ = writeln!(text, "[Black \"{black}\"]");
        let _ = writeln!(text, "[Result \"{result}\"]");
        let _ = writeln!(text, "[WhiteElo \"{}\"]", 1400 + rng.below(1200));
        let _ = writeln!(text, "[BlackElo \"{}\"]", 1400 + rng.below(1200));
        let _ = writeln!(text, "[TimeControl \"1/259200\"]");
        let _ = writeln!(text, "[PlyCount \"{}\"]", sans.len());
        text.push('\n');
        // Movetext, wrapped before 80 columns.
        let mut tokens: Vec<String> = Vec::with_capacity(sans.len() * 2);
        for (i, san) in sans.iter().enumerate() {
            // A move number stays on the line of its move.
            if i % 2 == 0 {
                tokens.push(format!("{}. {san}", i / 2 + 1));
            } else {
                tokens.push(san.clone());
            }
            if rng.below(25) == 0 {
                tokens.push(format!("{{ {} }}", rng.pick(&COMMENTS)));
                if i % 2 == 0 && i + 1 < sans.len() {
                    tokens.push(format!("{}...", i / 2 + 1));
                }
            }
        }
        tokens.push(result);
        let mut col = 0;
        for tok in tokens {
            if col > 0 && col + 1 + tok.len() > 79 {
                text.push('\n');
                col = 0;
            } else if col > 0 {
                text.push(' ');
                col += 1;
            }
            text.push_str(&tok);
            col += tok.len();
        }
        text.push_str("\n\n");
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    drop(out);
    std::fs::rename(&tmp, path)?;
    Ok((games, total_plies))
}
