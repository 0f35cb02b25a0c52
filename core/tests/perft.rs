//! Perft (move path enumeration) against published node counts.
//!
//! Sources:
//! * the six positions of the Chessprogramming wiki "Perft Results" page
//!   (<https://www.chessprogramming.org/Perft_Results>);
//! * `tests/data/perft/tricky.perft`: positions chosen to break move generators (shakmaty
//!   test data);
//! * `tests/data/perft/chess960.perft`: Chessprogramming wiki "Chess960 Perft Results" /
//!   Ethereal `fischer.epd`, via shakmaty tests;
//! * `tests/data/perft/random.perft`: 6,838 positions from random play (Marcel van
//!   Kervinck's `perft-random.epd`, via shakmaty tests).
//!
//! Cheap depths run in `cargo test` (sobre-core is optimised even in the dev profile); the
//! deep sweeps are `#[ignore]`d: `cargo test --release -p sobre-core --test runner perft -- --ignored`.
//! The ignored suites use all available cores.

use sobre_core::{CastlingMode, Move, MoveKind, Position, Square};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One position of a `.perft` file with its `(depth, nodes)` lines.
struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn load(name: &str) -> Vec<Case> {
    let path = format!("{}/tests/data/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases: Vec<Case> = Vec::new();
    let mut id = String::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("epd ") {
            cases.push(Case {
                id: id.clone(),
                fen: rest.to_string(),
                counts: Vec::new(),
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace().map(|x| x.parse::<u64>());
            let (Some(Ok(depth)), Some(Ok(nodes)), None) = (it.next(), it.next(), it.next()) else {
                panic!("{path}:{}: bad perft line {line:?}", n + 1);
            };
            cases
                .last_mut()
                .unwrap_or_else(|| panic!("{path}:{}: perft before epd", n + 1))
                .counts
                .push((depth as u32, nodes));
        }
    }
    cases
}

fn position(case: &Case) -> Position {
    Position::from_fen_auto(&case.fen)
        .unwrap_or_else(|e| panic!("{} {}: sobre rejects the FEN: {e}", case.id, case.fen))
}

/// Runs every count of `cases` up to `max_depth`; with `threads > 1` the cases are shared
/// out between threads. Returns the number of leaf nodes checked.
fn run(cases: &[Case], max_depth: u32, threads: usize) -> u64 {
    let next = AtomicUsize::new(0);
    let worker = || {
        let mut nodes = 0;
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(case) = cases.get(i) else {
                return nodes;
            };
            let pos = position(case);
            for &(depth, expected) in case.counts.iter().filter(|c| c.0 <= max_depth) {
                let got = pos.perft(depth);
                assert_eq!(
                    got, expected,
                    "perft({depth}) of {} {}: got {got}, expected {expected}",
                    case.id, case.fen
                );
                nodes += got;
            }
        }
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1)).map(|_| s.spawn(worker)).collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

// ----- Chessprogramming wiki "Perft Results": the six standard positions -----

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// `(name, FEN, [nodes at depth 1, 2, ...])` from the wiki page.
const WIKI: [(&str, &str, &[u64]); 6] = [
    (
        "start",
        START,
        &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324],
    ),
    (
        "kiwipete",
        KIWIPETE,
        &[48, 2_039, 97_862, 4_085_603, 193_690_690],
    ),
    (
        "position 3",
        POS3,
        &[14, 191, 2_812, 43_238, 674_624, 11_030_083],
    ),
    ("position 4", POS4, &[6, 264, 9_467, 422_333, 15_833_292]),
    (
        "position 5",
        POS5,
        &[44, 1_486, 62_379, 2_103_487, 89_941_194],
    ),
    (
        "position 6",
        POS6,
        &[46, 2_079, 89_890, 3_894_594, 164_075_551],
    ),
];

fn wiki(max_depth: usize, pos3_extra: usize) {
    for (name, fen, counts) in WIKI {
        let pos = Position::from_fen(fen, CastlingMode::Standard).expect(name);
        let limit = if name == "position 3" {
            max_depth + pos3_extra
        } else {
            max_depth
        };
        for (i, &expected) in counts.iter().enumerate().take(limit) {
            let depth = i as u32 + 1;
            assert_eq!(pos.perft(depth), expected, "{name} perft({depth}) {fen}");
        }
    }
}

/// Depths 1–4 of all six positions (position 3 also to 5): about 11 million nodes.
#[test]
fn wiki_positions_shallow() {
    wiki(4, 1);
}

/// Depth 5 of all six positions and depth 6 of position 3: about 480 million nodes.
#[test]
#[ignore = "deep: run in release with --ignored"]
fn wiki_positions_depth5() {
    wiki(5, 1);
}

#[test]
fn start_position_from_fen_is_new() {
    let pos = Position::from_fen(START, CastlingMode::Standard).unwrap();
    assert_eq!(pos, Position::new());
}

// ----- tricky.perft -----

/// Positions of tricky.perft that sobre refuses as illegal, with the reason.
const TRICKY_REJECTED: [&str; 1] = [
    // 17 white pieces (FIDE 3.7e cannot produce more than 16); shakmaty accepts it only
    // with `ignore_too_much_material`.
    "max-legals-too-much-material",
];

/// Every entry of tricky.perft at every depth (about 3.7 million nodes).
#[test]
fn tricky_all_depths() {
    let cases = load("tricky.perft");
    assert_eq!(cases.len(), 26);
    let (rejected, accepted): (Vec<Case>, Vec<Case>) = cases
        .into_iter()
        .partition(|c| TRICKY_REJECTED.contains(&c.id.as_str()));
    for c in &rejected {
        assert!(
            Position::from_fen_auto(&c.fen).is_err(),
            "{} {} should be rejected",
            c.id,
            c.fen
        );
    }
    let expected: u64 = accepted.iter().flat_map(|c| &c.counts).map(|c| c.1).sum();
    assert_eq!(run(&accepted, u32::MAX, 1), expected);
}

// ----- chess960.perft -----

/// The first 60 positions of the Chess960 suite to depth 4 (33 million nodes).
/// Data: Chessprogramming wiki "Chess960 Perft Results" / Ethereal `fischer.epd`, via
/// shakmaty tests.
#[test]
fn chess960_first_60_depth4() {
    let cases = load("chess960.perft");
    assert_eq!(cases.len(), 960);
    run(&cases[..60], 4, 1);
}

/// All 960 positions of the Chess960 suite to depth 5 (17 billion nodes).
/// Data: Chessprogramming wiki "Chess960 Perft Results" / Ethereal `fischer.epd`, via
/// shakmaty tests.
#[test]
#[ignore = "deep: run in release with --ignored"]
fn chess960_all_depth5() {
    let cases = load("chess960.perft");
    run(&cases, 5, cores());
}

// ----- random.perft -----

/// The first 500 random-play positions to depth 3 (11.6 million nodes).
#[test]
fn random_first_500_depth3() {
    let cases = load("random.perft");
    assert_eq!(cases.len(), 6_838);
    run(&cases[..500], 3, 1);
}

/// All 6,838 random-play positions to depth 4 (4.1 billion nodes).
#[test]
#[ignore = "deep: run in release with --ignored"]
fn random_all_depth4() {
    let cases = load("random.perft");
    run(&cases, 4, cores());
}

// ----- regressions found by tests/differential.rs -----

/// Chess960 castling where the rook already stands on its destination (f8): sobre used
/// to XOR the rook off the board (and likewise a king already on g1/c1 etc.).
#[test]
fn chess960_castle_rook_already_on_destination() {
    let fen = "4kr1n/RB2np1p/8/3NR1p1/2P5/7b/8/3K3N b f - 2 27";
    let mut pos = Position::from_fen(fen, CastlingMode::Chess960).unwrap();
    let castle = Move::new(Square::E8, Square::new(61), MoveKind::Castle);
    assert!(pos.legal_moves().contains(&castle));
    pos.play(castle).unwrap();
    assert_eq!(
        pos.shredder_fen(),
        "5rkn/RB2np1p/8/3NR1p1/2P5/7b/8/3K3N w - - 3 28"
    );

    // The king already on its destination (g1), the rook comes from h1.
    let fen = "4k3/8/8/8/8/8/8/6KR w H - 0 1";
    let mut pos = Position::from_fen(fen, CastlingMode::Chess960).unwrap();
    let castle = Move::new(Square::G1, Square::H1, MoveKind::Castle);
    pos.play(castle).unwrap();
    assert_eq!(pos.shredder_fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}
