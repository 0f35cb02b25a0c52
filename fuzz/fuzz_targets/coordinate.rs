#![no_main]
//! Coordinate (UCI) notation: never panics; an accepted move is legal and writes back.
use libfuzzer_sys::fuzz_target;
use sobre_core::Position;
use sobre_core::uci::{parse_uci, to_uci};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let pos = Position::new();
    if let Ok(m) = parse_uci(&pos, text) {
        assert!(pos.is_legal(m));
        assert_eq!(parse_uci(&pos, &to_uci(&pos, m)).ok(), Some(m));
    }
    if let Some(p960) = Position::chess960(u16::from(data.first().copied().unwrap_or(0)) * 3) {
        if let Ok(m) = parse_uci(&p960, text) {
            assert!(p960.is_legal(m));
        }
    }
});
