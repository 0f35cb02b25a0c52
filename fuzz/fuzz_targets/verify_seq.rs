#![no_main]
//! `verify` on generated records (see game_gen.rs): never panics; every move it accepts is
//! legal in the position before it; an honest record is accepted with the moves the
//! generator played; and the verdict does not depend on the order of the events.
use libfuzzer_sys::fuzz_target;
use sobre_core::record::{GameState, verify};

#[path = "game_gen.rs"]
mod game_gen;

fn legals_are_legal(st: &GameState) {
    let Some(start) = st.start.clone() else {
        assert!(st.moves.is_empty(), "moves without a start position");
        return;
    };
    let mut pos = start;
    for m in &st.moves {
        assert!(
            pos.legal_moves().contains(&m.mv),
            "accepted move {:?} is illegal in {}",
            m.mv,
            pos.fen()
        );
        pos.play_unchecked(m.mv);
    }
    assert_eq!(
        pos, st.position,
        "the state's position is not the moves' position"
    );
}

fuzz_target!(|data: &[u8]| {
    let g = game_gen::generate(data);
    let result = verify(&g.events);
    if g.honest {
        let st = match &result {
            Ok(st) => st,
            Err(e) => panic!("an honest record was rejected: {e}"),
        };
        let moves: Vec<_> = st.moves.iter().map(|m| m.mv).collect();
        assert_eq!(moves, g.moves, "verify's moves are not the ones played");
    }
    if let Ok(st) = &result {
        legals_are_legal(st);
    }
    let mut reversed = g.events.clone();
    reversed.reverse();
    let again = verify(&reversed);
    assert_eq!(
        result.is_ok(),
        again.is_ok(),
        "the verdict depends on the order: {result:?} / {again:?}"
    );
    if let (Ok(a), Ok(b)) = (&result, &again) {
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.status, b.status);
        assert_eq!(a.result, b.result);
        assert_eq!(a.termination, b.termination);
        assert_eq!(a.timeline, b.timeline);
    }
});
