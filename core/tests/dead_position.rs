//! FIDE 9.6 / 5.2b (seed 003) and 6.9: the dead-position judge on real and random games.
//!
//! - No position of a real game is judged dead (the games in `data/games`, see its README,
//!   and the seed games `data/seeds/*.pgn`): a false "dead" would end a live game.
//! - The corpus `data/games/positions.fen` (8,789 positions of puzzles from real games,
//!   lichess studies and opening traps; its README): none of the 6,728 positions on a line
//!   that ends in mate is judged dead, and the judge calls dead exactly the positions listed
//!   in [`CORPUS_DEAD`], each checked by hand.
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

/// One position of `data/games/positions.fen` (its README): what is known about it, and the
/// line of the file it is on, for the failure messages.
struct Known {
    tag: &'static str,
    line: usize,
    position: Position,
}

impl Known {
    /// The sides that mate at the end of a line through this position (tags `mate-*`).
    fn maters(&self) -> &'static [Color] {
        match self.tag {
            "mate-white" => &[Color::White],
            "mate-black" => &[Color::Black],
            "mate-both" => &Color::ALL,
            "game" => &[],
            tag => panic!("line {}: unknown tag {tag}", self.line),
        }
    }
}

fn corpus() -> Vec<Known> {
    include_str!("data/games/positions.fen")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
        .map(|(i, l)| {
            let (tag, fen) = l.split_once(' ').expect("TAG FEN");
            let position = Position::from_fen_auto(fen).unwrap_or_else(|e| panic!("{l}: {e}"));
            Known {
                tag,
                line: i + 1,
                position,
            }
        })
        .collect()
}

/// The corpus's size by tag: a regenerated or truncated file must be noticed (and the figures
/// in docs/performance.md and docs/rules.md follow it).
#[test]
fn the_corpus_holds_the_positions_its_readme_counts() {
    let mut counts = std::collections::BTreeMap::new();
    for k in corpus() {
        // Panics on a tag these tests do not know.
        let _ = k.maters();
        *counts.entry(k.tag).or_insert(0) += 1;
    }
    let counts = counts.into_iter().collect::<Vec<_>>();
    assert_eq!(
        counts,
        [
            ("game", 2061),
            ("mate-black", 109),
            ("mate-both", 5),
            ("mate-white", 6614)
        ]
    );
}

#[test]
fn art_5_2b_no_position_on_a_line_to_mate_is_judged_dead() {
    // A line of legal moves from each of these positions ends in checkmate (the game's or
    // puzzle's own line): not dead by definition, and its mater can still mate (6.9). Every
    // failure is listed, not only the first, so that one run shows the whole bug.
    let mut false_dead = Vec::new();
    let mut checked = 0;
    for k in corpus() {
        if k.maters().is_empty() {
            continue;
        }
        let p = &k.position;
        checked += 1;
        if is_dead(p)
            || dead_verdict(p) == DeadVerdict::Dead
            || judge_dead_position(p) != Err(ClaimError::NotDead)
            || k.maters().iter().any(|&c| cannot_checkmate(p, c))
        {
            false_dead.push(format!("line {}: {} {}", k.line, k.tag, p.fen()));
        }
    }
    assert_eq!(checked, 6728);
    assert!(
        false_dead.is_empty(),
        "false dead:\n{}",
        false_dead.join("\n")
    );
}

/// The positions of the corpus the judge calls dead, each checked by hand.
const CORPUS_DEAD: [&str; 2] = [
    // Bare kings (seed 004's first case): nothing is left that could ever give check. Both
    // end a line of the queen-v-seventh-rank-pawn lesson where the queen was taken.
    "K7/8/8/8/8/8/8/7k b - - 0 10",
    "8/8/8/8/3K4/8/8/2k5 w - - 0 31",
];

#[test]
fn art_9_6_of_the_corpus_only_positions_checked_by_hand_are_judged_dead() {
    let corpus = corpus();
    let mut dead = Vec::new();
    for k in &corpus {
        let p = &k.position;
        // The three-valued verdict says Dead exactly where the after-move test does.
        assert_eq!(
            is_dead(p),
            dead_verdict(p) == DeadVerdict::Dead,
            "line {}: {}",
            k.line,
            p.fen()
        );
        if is_dead(p) {
            dead.push(p.fen());
        }
    }
    assert_eq!(dead, CORPUS_DEAD);
    for k in corpus.iter().filter(|k| is_dead(&k.position)) {
        let p = &k.position;
        // Dead for 9.6 means dead for 6.9 too, whoever's flag falls; and no helpmate.
        assert!(Color::ALL.into_iter().all(|c| cannot_checkmate(p, c)));
        assert!(!mate_within(p, 4, None), "{}", p.fen());
    }
}
