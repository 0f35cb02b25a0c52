//! Differential test of the rules core against `cozy-chess` (an independent, MIT-licensed
//! Chess/Chess960 move generator).
//!
//! Deterministic random games (`test_support::Lines` seeded below, with its bias toward
//! captures and promotions so that games reach endgames, promotions, mates and stalemates)
//! are played in lock-step on both libraries, from the standard start and from Chess960
//! starts (sobre's `Position::chess960(n)` converted to cozy-chess, and cozy-chess's
//! `chess960_startpos(n)` converted to sobre). At **every** position the test compares:
//!
//! * the set of legal moves, in a common `(from, to, promotion)` form with castling written
//!   king-takes-own-rook (the native encoding of both libraries);
//! * `is_check`, checkmate and stalemate verdicts (and `count_legal_moves`,
//!   `has_legal_moves`, `is_legal` on every generated move);
//! * the resulting position after each move, as Shredder-FEN (board, turn, castling rook
//!   files, en passant, halfmove clock, fullmove number), plus X-FEN in standard games;
//! * that cozy-chess's FEN parses back in sobre to the same position.
//!
//! En passant convention: cozy-chess records an en passant file after *every* double pawn
//! push; sobre writes the square in FEN only when an en passant capture is actually legal
//! (X-FEN / FIDE 9.2). The cozy-chess FEN is normalised by dropping the square unless one of
//! its legal moves is a pawn capture onto it; the FENs must then agree exactly. Separately,
//! sobre's internally stored (pseudo-legal) en passant square must be the one cozy-chess has.
//!
//! Halfmove clock: cozy-chess saturates it at 100, so games stop at the fifty-move mark.
//!
//! Also compared: the root move sets (and every child position) of all positions of
//! `tests/data/perft/random.perft`, `tricky.perft` and `chess960.perft`.
//!
//! On a mismatch the test panics with the FEN, the moves only one side generates, and the
//! game's move history in UCI-like king-takes-rook notation.

use cozy_chess as cz;
use sobre_core::test_support::{Bias, Lines};
use sobre_core::{CastlingMode, Position, Square};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// A move in the common form: from, to (the rook for castling), promotion letter.
type Key = (u8, u8, Option<char>);

fn key_str(k: &Key) -> String {
    let sq = |i: u8| Square::new(i).to_string();
    match k.2 {
        Some(p) => format!("{}{}{}", sq(k.0), sq(k.1), p),
        None => format!("{}{}", sq(k.0), sq(k.1)),
    }
}

fn sobre_key(m: sobre_core::Move) -> Key {
    (
        m.from.index() as u8,
        m.to.index() as u8,
        m.promotion().map(|r| r.char()),
    )
}

fn cozy_key(m: cz::Move) -> Key {
    (
        m.from as u8,
        m.to as u8,
        m.promotion.map(|p| char::from(p).to_ascii_lowercase()),
    )
}

fn cozy_moves(board: &cz::Board) -> Vec<cz::Move> {
    let mut v = Vec::with_capacity(64);
    board.generate_moves(|pm| {
        v.extend(pm);
        false
    });
    v
}

/// cozy-chess's Shredder-FEN with the en passant square kept only if a legal capture exists.
fn cozy_fen(board: &cz::Board, moves: &[cz::Move], shredder: bool) -> String {
    let fen = if shredder {
        format!("{board:#}")
    } else {
        format!("{board}")
    };
    let Some(file) = board.en_passant() else {
        return fen;
    };
    let rank = cz::Rank::Third.relative_to(!board.side_to_move());
    let ep = cz::Square::new(file, rank);
    let capturable = moves
        .iter()
        .any(|m| m.to == ep && board.piece_on(m.from) == Some(cz::Piece::Pawn));
    if capturable {
        return fen;
    }
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields[3] = "-";
    fields.join(" ")
}

/// What is being compared, for failure messages.
struct Trace {
    label: String,
    history: Vec<String>,
    /// False for a position read from FEN: cozy-chess then gets sobre's FEN, which only
    /// writes a *legal* en passant square, so the stored pseudo-legal ones may differ.
    from_fen: bool,
}

impl Trace {
    fn fail(&self, fen: &str, what: &str) -> ! {
        panic!(
            "differential mismatch ({}) at FEN {fen}\n{what}\nmoves from the start: {}",
            self.label,
            self.history.join(" ")
        );
    }
}

/// Compares everything at one position; returns the legal moves (sobre's, sorted by key)
/// paired with cozy-chess's equivalent.
fn compare_position(
    pos: &Position,
    board: &cz::Board,
    trace: &Trace,
) -> Vec<(sobre_core::Move, cz::Move)> {
    let fen = pos.shredder_fen();
    let cmoves = cozy_moves(board);

    // The position itself, as both libraries write it.
    let cfen = cozy_fen(board, &cmoves, true);
    if cfen != fen {
        trace.fail(&fen, &format!("FEN differs: cozy-chess {cfen}"));
    }
    if pos.castling_mode() == CastlingMode::Standard && !pos.is_chess960() {
        let x = cozy_fen(board, &cmoves, false);
        if x != pos.fen() {
            trace.fail(
                &fen,
                &format!("X-FEN differs: sobre {} cozy {x}", pos.fen()),
            );
        }
    }
    // sobre's stored (pseudo-legal) en passant square is set only next to an enemy pawn;
    // cozy-chess records it after every double push.
    if let Some(ep) = pos.ep_square()
        && !trace.from_fen
        && board.en_passant().map(|f| f as u8) != Some(ep.file())
    {
        trace.fail(
            &fen,
            &format!(
                "stored en passant square {ep} but cozy-chess has {:?}",
                board.en_passant()
            ),
        );
    }

    // Legal move sets.
    let smoves = pos.legal_moves();
    let mut s: Vec<(Key, sobre_core::Move)> = smoves.iter().map(|&m| (sobre_key(m), m)).collect();
    let mut c: Vec<(Key, cz::Move)> = cmoves.iter().map(|&m| (cozy_key(m), m)).collect();
    s.sort_by_key(|x| x.0);
    c.sort_by_key(|x| x.0);
    let skeys: Vec<Key> = s.iter().map(|x| x.0).collect();
    let ckeys: Vec<Key> = c.iter().map(|x| x.0).collect();
    if skeys != ckeys {
        let ss: BTreeSet<Key> = skeys.iter().copied().collect();
        let cs: BTreeSet<Key> = ckeys.iter().copied().collect();
        let only_s: Vec<String> = ss.difference(&cs).map(key_str).collect();
        let only_c: Vec<String> = cs.difference(&ss).map(key_str).collect();
        trace.fail(
            &fen,
            &format!(
                "legal moves differ: only sobre {only_s:?}, only cozy-chess {only_c:?} \
                 (sobre {} moves, cozy-chess {}; duplicates count too)",
                skeys.len(),
                ckeys.len()
            ),
        );
    }
    if pos.count_legal_moves() != skeys.len() as u64 {
        trace.fail(
            &fen,
            &format!(
                "count_legal_moves {} != legal_moves().len() {}",
                pos.count_legal_moves(),
                skeys.len()
            ),
        );
    }
    if pos.has_legal_moves() == skeys.is_empty() {
        trace.fail(&fen, "has_legal_moves disagrees with legal_moves");
    }
    for &(_, m) in &s {
        if !pos.is_legal(m) {
            trace.fail(&fen, &format!("is_legal rejects generated move {m:?}"));
        }
    }

    // Verdicts.
    let c_check = !board.checkers().is_empty();
    let c_none = cmoves.is_empty();
    if pos.is_check() != c_check {
        trace.fail(
            &fen,
            &format!("is_check: sobre {} cozy-chess {c_check}", pos.is_check()),
        );
    }
    if pos.is_checkmate() != (c_check && c_none) {
        trace.fail(&fen, &format!("checkmate: sobre {}", pos.is_checkmate()));
    }
    if pos.is_stalemate() != (!c_check && c_none) {
        trace.fail(&fen, &format!("stalemate: sobre {}", pos.is_stalemate()));
    }

    s.into_iter()
        .zip(c)
        .map(|((_, sm), (_, cm))| (sm, cm))
        .collect()
}

/// Plays the move on both sides and compares the resulting positions' FENs (done again,
/// more fully, by `compare_position` at the next ply) and sobre's FEN round trip.
fn play_both(
    pos: &mut Position,
    board: &mut cz::Board,
    sm: sobre_core::Move,
    cm: cz::Move,
    trace: &mut Trace,
) {
    let before = pos.shredder_fen();
    pos.play_unchecked(sm);
    board.play_unchecked(cm);
    trace.history.push(key_str(&sobre_key(sm)));
    // Parse cozy-chess's (full, un-normalised) FEN back into sobre: the result must be
    // the position sobre reached by playing the move.
    let cfen = format!("{board:#}");
    match Position::from_fen(&cfen, pos.castling_mode()) {
        Ok(p) if p.shredder_fen() == pos.shredder_fen() => {}
        Ok(p) => trace.fail(
            &before,
            &format!(
                "after {sm:?}: sobre reached {} but cozy-chess FEN {cfen} parses as {}",
                pos.shredder_fen(),
                p.shredder_fen()
            ),
        ),
        Err(e) => trace.fail(
            &before,
            &format!("after {sm:?}: sobre cannot parse cozy-chess FEN {cfen}: {e}"),
        ),
    }
}

/// Picks a move by the generator's bias (captures and promotions half the time).
fn pick(lines: &mut Lines, pos: &Position, moves: &[(sobre_core::Move, cz::Move)]) -> usize {
    let ours: Vec<sobre_core::Move> = moves.iter().map(|&(m, _)| m).collect();
    lines.pick(pos, &ours).unwrap_or(0)
}

const MAX_PLIES: usize = 300;

/// Plays one game in lock-step; returns the number of positions compared.
fn play_game(mut pos: Position, mut board: cz::Board, lines: &mut Lines, label: String) -> usize {
    let mut trace = Trace {
        label,
        history: Vec::new(),
        from_fen: false,
    };
    let mut visited = 0;
    loop {
        let moves = compare_position(&pos, &board, &trace);
        visited += 1;
        if moves.is_empty()
            || pos.halfmove_clock() >= 100
            || trace.history.len() >= MAX_PLIES
            || pos.occupied().count() <= 2
        {
            return visited;
        }
        let (sm, cm) = moves[pick(lines, &pos, &moves)];
        play_both(&mut pos, &mut board, sm, cm, &mut trace);
    }
}

fn cozy_from(fen: &str) -> cz::Board {
    cz::Board::from_fen(fen, true)
        .unwrap_or_else(|e| panic!("cozy-chess rejects sobre's Shredder-FEN {fen}: {e:?}"))
}

/// Positions per random-game test. Debug builds (sobre-core and cozy-chess are optimised even
/// there) take about 10 s for all tests of this file, release builds about 5 s.
const STANDARD_POSITIONS: usize = 250_000;
const CHESS960_POSITIONS: usize = 125_000;

#[test]
fn random_games_standard() {
    let mut lines = Lines::new(0x5eed_0001).bias(Bias::Forcing);
    let mut visited = 0;
    let mut games = 0;
    while visited < STANDARD_POSITIONS {
        let pos = Position::new();
        let board = cz::Board::default();
        visited += play_game(pos, board, &mut lines, format!("standard game {games}"));
        games += 1;
    }
    eprintln!("standard: {games} games, {visited} positions compared");
}

#[test]
fn random_games_chess960_from_sobre_setup() {
    let mut lines = Lines::new(0x5eed_0960).bias(Bias::Forcing);
    let mut visited = 0;
    let mut games = 0;
    while visited < CHESS960_POSITIONS {
        let (n, pos) = lines.chess960();
        let board = cozy_from(&pos.shredder_fen());
        visited += play_game(
            pos,
            board,
            &mut lines,
            format!("Chess960 #{n}, game {games}"),
        );
        games += 1;
    }
    eprintln!("Chess960 (sobre setup): {games} games, {visited} positions compared");
}

#[test]
fn random_games_chess960_from_cozy_setup() {
    let mut lines = Lines::new(0x5eed_3960).bias(Bias::Forcing);
    let mut visited = 0;
    let mut games = 0;
    while visited < CHESS960_POSITIONS {
        let n = lines.below(960) as u32;
        let board = cz::Board::chess960_startpos(n);
        let fen = format!("{board:#}");
        let pos = Position::from_fen(&fen, CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("sobre rejects cozy-chess start {n} {fen}: {e}"));
        visited += play_game(
            pos,
            board,
            &mut lines,
            format!("cozy Chess960 #{n}, game {games}"),
        );
        games += 1;
    }
    eprintln!("Chess960 (cozy-chess setup): {games} games, {visited} positions compared");
}

/// Both libraries number the 960 start positions the same way (Scharnagl).
#[test]
fn chess960_numbering_agrees() {
    for n in 0..960u16 {
        let ours = Position::chess960(n).expect("0..960").shredder_fen();
        let theirs = format!("{:#}", cz::Board::chess960_startpos(u32::from(n)));
        assert_eq!(ours, theirs, "Chess960 start position {n}");
    }
    assert!(Position::chess960(960).is_none());
}

/// Root move sets and every child position of a `.perft` file's positions.
/// Returns (positions compared, positions skipped with the reason).
fn compare_perft_file(name: &str) -> (usize, Vec<String>) {
    let path = format!("{}/tests/data/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut compared = 0;
    let mut skipped = Vec::new();
    let mut id = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.to_string();
            continue;
        }
        let Some(epd) = line.strip_prefix("epd ") else {
            continue;
        };
        let fen = if epd.split_whitespace().count() == 4 {
            format!("{epd} 0 1")
        } else {
            epd.to_string()
        };
        // cozy-chess reads X-FEN castling letters naively (K = h-file rook), so it gets
        // sobre's Shredder-FEN, which both libraries read identically.
        let pos = Position::from_fen_auto(&fen);
        let board = match &pos {
            Ok(p) => cz::Board::from_fen(&p.shredder_fen(), true),
            Err(_) => fen.parse::<cz::Board>(),
        };
        let (pos, board) = match (pos, board) {
            (Ok(p), Ok(b)) => (p, b),
            (p, b) => {
                skipped.push(format!(
                    "{name} {id} {fen}: sobre {:?}, cozy-chess {:?}",
                    p.err().map(|e| e.to_string()),
                    b.err()
                ));
                continue;
            }
        };
        let trace = Trace {
            label: format!("{name} {id}"),
            history: Vec::new(),
            from_fen: true,
        };
        let moves = compare_position(&pos, &board, &trace);
        compared += 1;
        for (sm, cm) in moves {
            let mut trace = Trace {
                label: format!("{name} {id}"),
                history: Vec::new(),
                from_fen: false,
            };
            let mut p = pos.clone();
            let mut b = board.clone();
            play_both(&mut p, &mut b, sm, cm, &mut trace);
            compare_position(&p, &b, &trace);
            compared += 1;
        }
    }
    (compared, skipped)
}

#[test]
fn perft_suite_positions_random() {
    let (n, skipped) = compare_perft_file("random.perft");
    assert!(skipped.is_empty(), "{skipped:#?}");
    assert!(n > 6838, "{n}");
    eprintln!("random.perft: {n} positions compared (roots and children)");
}

#[test]
fn perft_suite_positions_chess960() {
    let (n, skipped) = compare_perft_file("chess960.perft");
    assert!(skipped.is_empty(), "{skipped:#?}");
    eprintln!("chess960.perft: {n} positions compared (roots and children)");
}

#[test]
fn perft_suite_positions_tricky() {
    let (n, skipped) = compare_perft_file("tricky.perft");
    let mut report = String::new();
    for s in &skipped {
        let _ = writeln!(report, "  skipped: {s}");
    }
    eprintln!("tricky.perft: {n} positions compared\n{report}");
    // Both libraries refuse a few deliberately impossible positions (see tests/perft.rs);
    // everything else must be compared.
    assert!(skipped.len() <= 3, "{report}");
}
