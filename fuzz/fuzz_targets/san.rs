#![no_main]
//! SAN in English, Spanish and Auto: never panics; an accepted move is legal, and its
//! canonical SAN parses back to the same move.
use libfuzzer_sys::fuzz_target;
use sobre_core::san::{Lang, parse_san, to_san};
use sobre_core::{CastlingMode, Position};

const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let fen = POSITIONS[usize::from(which) % POSITIONS.len()];
    let pos = Position::from_fen(fen, CastlingMode::Standard).expect("fixed FEN");
    for lang in [Lang::English, Lang::Spanish, Lang::Auto] {
        if let Ok(m) = parse_san(&pos, text, lang) {
            assert!(pos.is_legal(m));
            let written = to_san(&pos, m, Lang::English);
            assert_eq!(parse_san(&pos, &written, Lang::English).ok(), Some(m));
        }
    }
});
