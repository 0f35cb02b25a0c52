#![no_main]
//! ICCF numeric notation: never panics; an accepted move is legal and writes back.
use libfuzzer_sys::fuzz_target;
use sobre_core::Position;
use sobre_core::notation::iccf::{parse_iccf, to_iccf};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let pos = Position::new();
    if let Ok(m) = parse_iccf(&pos, text) {
        assert!(pos.is_legal(m));
        assert_eq!(parse_iccf(&pos, &to_iccf(&pos, m)).ok(), Some(m));
    }
});
