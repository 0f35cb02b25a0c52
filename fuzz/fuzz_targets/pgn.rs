#![no_main]
//! PGN reading and replay: never panics, never loops; every replayed move is legal.
use libfuzzer_sys::fuzz_target;
use sobre_core::pgn::PgnReader;
use sobre_core::pgn::replay::{ReplayOptions, Replayer};

fuzz_target!(|data: &[u8]| {
    let _ = sobre_core::pgn::fuzz_read_all(data);
    let mut reader = PgnReader::new(data);
    let mut v = Replayer::new(ReplayOptions {
        keep_moves: true,
        ..ReplayOptions::default()
    });
    let mut guard = 0;
    while let Ok(Some(game)) = reader.read_game(&mut v) {
        let mut pos = game.start.clone();
        for &m in &game.moves {
            assert!(pos.is_legal(m));
            pos.play_unchecked(m);
        }
        assert_eq!(pos, game.position);
        guard += 1;
        assert!(guard <= data.len() + 1, "more games than bytes");
    }
});
