//! FIDE 9.6 / 5.2b (seed 003) and 6.9: the dead-position judge on real and random games.
//!
//! - No position of a real game is judged dead (the games in `data/games`, see its README,
//!   and the seed games `data/seeds/*.pgn`): a false "dead" would end a live game.
//! - Soundness on random play: wherever the judge says dead, or says one side cannot mate
//!   (6.9), a bounded search finds no mate.

use proptest::prelude::*;
use sobre_core::pgn::PgnReader;
use sobre_core::pgn::replay::{ReplayOptions, ReplayedGame, Replayer};
use sobre_core::rules::dead::{
    DeadVerdict, cannot_checkmate, dead_verdict, is_dead, judge_dead_position,
};
use sobre_core::rules::{ClaimError, Game};
use sobre_core::test_support::{Bias, Lines};
use sobre_core::{Color, Outcome, Position};

fn games_of(pgn: &str) -> Vec<ReplayedGame> {
    let mut reader = PgnReader::new(pgn.as_bytes());
    let mut replayer = Replayer::new(ReplayOptions {
        keep_tags: true,
        keep_moves: true,
        keep_comments: false,
    });
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut replayer).unwrap() {
        games.push(game);
    }
    games
}

/// Every position of a game, the start included.
fn positions(game: &ReplayedGame) -> Vec<Position> {
    let mut p = game.start.clone();
    let mut all = vec![p.clone()];
    for &m in &game.moves {
        p.play(m).unwrap();
        all.push(p.clone());
    }
    all
}

/// True if `mater` can mate within `plies` plies (both sides cooperating).
fn mate_within(p: &Position, plies: u32, mater: Option<Color>) -> bool {
    if p.is_checkmate() {
        return mater.is_none_or(|c| p.turn() != c);
    }
    plies > 0
        && p.legal_moves().iter().any(|&m| {
            let mut q = p.clone();
            q.play_unchecked(m);
            mate_within(&q, plies - 1, mater)
        })
}

#[test]
fn fide_9_6_no_position_of_a_real_game_is_judged_dead() {
    let classics = games_of(include_str!("data/games/classics.pgn"));
    assert_eq!(classics.len(), 4);
    for game in &classics {
        assert!(game.ok(), "{:?}: {:?}", game.tag("White"), game.error);
        // Each ends in the mate its result names (the scores were typed in by hand).
        assert!(game.position.is_checkmate(), "{:?}", game.tag("White"));
        assert!(matches!(game.outcome, Some(Outcome::Decisive { .. })));
    }
    let seeds = [
        include_str!("data/seeds/fide_example_002.pgn"),
        include_str!("data/seeds/fide_example_003.pgn"),
    ];
    // The seed games stop at their typos (data/seeds/EXPECTED.md): judge what replays.
    let all = classics
        .iter()
        .chain(
            seeds
                .iter()
                .flat_map(|s| games_of(s))
                .collect::<Vec<_>>()
                .iter(),
        )
        .flat_map(positions)
        .collect::<Vec<_>>();
    assert!(all.len() > 150, "{} positions", all.len());
    for p in &all {
        assert!(!is_dead(p), "{}", p.fen());
        assert_eq!(
            judge_dead_position(p),
            Err(ClaimError::NotDead),
            "{}",
            p.fen()
        );
        for c in [Color::White, Color::Black] {
            assert!(!cannot_checkmate(p, c), "{} {c:?}", p.fen());
        }
    }
    // The mates themselves are witnesses of "not dead".
    for game in &classics {
        assert_eq!(dead_verdict(&game.position), DeadVerdict::NotDead);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// FIDE 9.6 / 6.9 soundness on random games biased to captures (so they reach endings):
    /// at every position, "dead" means no mate in 3 plies by either side, "cannot mate" no
    /// mate in 3 plies by that side, and "not dead" comes with a mate the search found.
    #[test]
    fn fide_9_6_random_play_never_reaches_a_false_dead_position(seed in any::<u64>()) {
        let mut lines = Lines::new(seed).bias(Bias::Forcing);
        let moves = lines.line(&Position::new(), 400);
        let mut game = Game::new(Position::new());
        for m in moves {
            game.play(m).unwrap();
            let p = game.position();
            if is_dead(p) {
                prop_assert!(!mate_within(p, 3, None), "mate from dead {}", p.fen());
            }
            for c in [Color::White, Color::Black] {
                if cannot_checkmate(p, c) {
                    prop_assert!(!mate_within(p, 3, Some(c)), "{c:?} mates in {}", p.fen());
                }
            }
        }
        // The line stops where the game ends: the last position's verdict agrees.
        let last = game.position();
        if dead_verdict(last) == DeadVerdict::Dead {
            prop_assert!(is_dead(last));
        }
    }
}
