#![no_main]
//! FEN / X-FEN / Shredder-FEN: never panics; every accepted position writes a FEN that reads
//! back to the same position.
use libfuzzer_sys::fuzz_target;
use sobre_core::{CastlingMode, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        if let Ok(pos) = Position::from_fen(text, mode) {
            let again = Position::from_fen(&pos.fen(), mode).expect("own FEN must parse");
            assert_eq!(again.fen(), pos.fen());
            let _ = pos.legal_moves();
        }
    }
});
