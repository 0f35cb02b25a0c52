//! The games printed in the rule texts (FIDE 2005 and 2009, copied to tests/data/seeds with the
//! oracle EXPECTED.md, computed independently with python-chess).

use sobre_core::pgn::PgnReader;
use sobre_core::pgn::replay::{ReplayOptions, ReplayedGame, Replayer};
use sobre_core::{Color, Lang};

fn replay(text: &str) -> Vec<ReplayedGame> {
    let mut reader = PgnReader::new(text.as_bytes());
    let mut v = Replayer::new(ReplayOptions::default());
    let mut games = Vec::new();
    while let Some(g) = reader.read_game(&mut v).expect("in-memory read") {
        games.push(g);
    }
    games
}

/// Seed 003's club blog, "DEFENSA SICILIANA": every line, in Spanish SAN, replays.
#[test]
fn every_sicilian_line_of_seed_003_replays() {
    let text = include_str!("data/seeds/sicilian_003.txt");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    assert_eq!(lines.len(), 9);
    let expected_plies = [2, 3, 5, 8, 8, 8, 10, 8, 22];
    for (line, plies) in lines.iter().zip(expected_plies) {
        let games = replay(&format!("{line} *"));
        let g = &games[0];
        assert!(g.ok(), "{line}: {}", g.error.as_ref().unwrap());
        assert_eq!(g.plies, plies, "{line}");
    }
    // The longest line ends where python-chess says it does (EXPECTED.md, entry 9).
    let last = &replay(&format!("{} *", lines[8]))[0];
    assert_eq!(
        last.position.fen(),
        "r4rk1/pp2bppp/2bppn2/q5B1/3QP3/2N2N2/PPP2PPP/3RR1K1 w - - 6 12"
    );
    assert_eq!(last.lang, Lang::Spanish);
}

/// FIDE Laws 2005, Appendix E (seed 002): the example game has `5.Dxd5`, impossible.
#[test]
fn fide_2005_appendix_e_example_reports_dxd5_at_ply_9() {
    let g = &replay(include_str!("data/seeds/fide_example_002.pgn"))[0];
    let e = g.error.as_ref().expect("the printed game has a typo");
    assert_eq!((e.ply, e.move_number, e.color), (9, 5, Color::White));
    assert_eq!(e.text, "Dxd5");
    assert_eq!(e.message, "no queen can reach d5");
    assert_eq!(
        e.to_string(),
        "move 5 (white): \"Dxd5\": no queen can reach d5"
    );
    assert_eq!(
        g.position.fen(),
        "rnbqkb1r/pppp1ppp/8/4P3/3pn3/5N2/PPP2PPP/RNBQKB1R w KQkq - 1 5"
    );
}

/// FIDE Laws 2009, Appendix C (seed 003): the example game has `3...dxe4`, impossible.
#[test]
fn fide_2009_appendix_c_example_reports_dxe4_at_ply_6() {
    let g = &replay(include_str!("data/seeds/fide_example_003.pgn"))[0];
    let e = g.error.as_ref().expect("the printed game has a typo");
    assert_eq!((e.ply, e.move_number, e.color), (6, 3, Color::Black));
    assert_eq!(e.text, "dxe4");
    assert_eq!(e.message, "no pawn can capture on e4");
    assert_eq!(
        g.position.fen(),
        "rnbqkb1r/pppp1ppp/5n2/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3"
    );
}

/// With the typo corrected, both printings replay to the same final position, through
/// `exd6 a.p.` / `exd6 a. p.` (3.7d), glued move numbers (`5Dxd4`) and the draw-offer sign
/// `(=)` of Appendix E13 / C13.
#[test]
fn corrected_fide_examples_replay_to_the_end() {
    let final_fen = "r1bqr1k1/ppp1bppp/2nn4/6B1/8/4QN2/PPPN1PPP/1K1R1B1R b - - 9 11";
    let e2005 = include_str!("data/seeds/fide_example_002.pgn").replace("5Dxd5", "5Dxd4");
    let e2009 = include_str!("data/seeds/fide_example_003.pgn").replace("dxe4", "exd4");
    for text in [e2005, e2009] {
        let g = &replay(&text)[0];
        assert!(g.ok(), "{}", g.error.as_ref().unwrap());
        assert_eq!(g.plies, 21);
        assert_eq!(g.position.fen(), final_fen);
        // `11. Rb1 (=)`: White offered a draw with the last move (E13 / C13).
        assert_eq!(g.draw_offers, [21]);
    }
}
