//! [`Lines`]: the one deterministic generator of legal lines the tests, benches and harnesses
//! share.

use crate::position::Position;
use crate::rules::Game;
use crate::types::Move;

/// How [`Lines`] chooses among the legal moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bias {
    /// Any legal move, each as likely.
    #[default]
    Uniform,
    /// Half the time a capture or a promotion when there is one, so that random games reach
    /// endgames, promotions, mates and stalemates (the differential test's games).
    Forcing,
    /// Half the time a castling when there is one: castling is rare in random play, and the
    /// Chess960 castlings (Appendix F3) need exercising.
    Castling,
}

/// A seeded xorshift64* generator (Vigna) and a way of playing: the same seed gives the
/// same lines on every platform and run, so a failing test can be replayed from its seed.
///
/// By default a line stops where the game ends by itself (FIDE 5.1.1 mate, 5.2.1 stalemate,
/// 5.2.2 dead position, 9.6.1 fivefold repetition, 9.6.2 the 75-move rule); with
/// [`Lines::endless`] it only plays moves that do not end the game, for harnesses whose games
/// must last exactly as long as asked (a node refuses moves after the end).
#[derive(Clone, Debug)]
pub struct Lines {
    state: u64,
    bias: Bias,
    endless: bool,
}

/// How many times [`Lines::line`] starts an endless line over before it gives up and returns
/// the longest it found (only a start where every line ends early runs out of them).
const ATTEMPTS: usize = 64;

impl Lines {
    /// A uniform generator from `seed`. Any `seed` is fine: it is mixed (splitmix64) so that
    /// near seeds give unrelated lines and 0 does not stick.
    pub fn new(seed: u64) -> Lines {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Lines {
            state: z | 1,
            bias: Bias::Uniform,
            endless: false,
        }
    }

    /// The same generator choosing with `bias`.
    pub fn bias(mut self, bias: Bias) -> Lines {
        self.bias = bias;
        self
    }

    /// The same generator playing only moves that do not end the game.
    pub fn endless(mut self) -> Lines {
        self.endless = true;
        self
    }

    /// The next 64 random bits, for a harness's other choices (which node to stop, when to
    /// kill a process), so one seed replays the whole run.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next_u64() % n as u64) as usize
    }

    /// A Chess960 start drawn at random: its Scharnagl number (Appendix F) and position.
    pub fn chess960(&mut self) -> (u16, Position) {
        let n = self.below(960) as u16;
        // Every number below 960 is a start position.
        (n, Position::chess960(n).unwrap_or_default())
    }

    /// Which of `moves` (legal moves of `pos`, in any order) to play, by the generator's
    /// bias; `None` when `moves` is empty. For harnesses that keep their own move list (the
    /// differential test pairs each move with the other library's); it does not look at
    /// [`Lines::endless`], which needs the game's history.
    pub fn pick(&mut self, pos: &Position, moves: &[Move]) -> Option<usize> {
        if moves.is_empty() {
            return None;
        }
        let favoured: fn(&Position, Move) -> bool = match self.bias {
            Bias::Uniform => return Some(self.below(moves.len())),
            Bias::Forcing => |p, m| p.is_capture(m) || m.promotion().is_some(),
            Bias::Castling => |_, m| m.is_castle(),
        };
        if self.below(2) == 0 {
            let preferred: Vec<usize> = (0..moves.len())
                .filter(|&i| favoured(pos, moves[i]))
                .collect();
            if !preferred.is_empty() {
                return Some(preferred[self.below(preferred.len())]);
            }
        }
        Some(self.below(moves.len()))
    }

    /// The next move of `game`: `None` when the game has ended, or, with
    /// [`Lines::endless`], when every legal move ends it.
    pub fn next_move(&mut self, game: &Game) -> Option<Move> {
        if game.automatic_end().is_some() {
            return None;
        }
        let pos = game.position();
        let mut moves = pos.legal_moves().to_vec();
        if self.endless {
            moves.retain(|&m| {
                let mut after = game.clone();
                after.play(m).is_ok() && after.automatic_end().is_none()
            });
        }
        let i = self.pick(pos, &moves)?;
        Some(moves[i])
    }

    /// A line of at most `plies` legal moves from `start`, shorter only where the game ends.
    /// With [`Lines::endless`] it has exactly `plies` moves and none ends the game: where
    /// random play gets stuck (every move would end it) the line starts over, from where the
    /// generator has got to; a start from which every line ends early gives the longest of
    /// a few attempts.
    pub fn line(&mut self, start: &Position, plies: usize) -> Vec<Move> {
        let mut longest = Vec::new();
        for _ in 0..ATTEMPTS {
            let mut game = Game::new(start.clone());
            while game.ply() < plies {
                let Some(m) = self.next_move(&game) else {
                    break;
                };
                if game.play(m).is_err() {
                    break;
                }
            }
            if game.ply() > longest.len() {
                longest = game.moves().to_vec();
            }
            if !self.endless || longest.len() == plies {
                break;
            }
        }
        longest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_line_and_another_seed_another() {
        let start = Position::new();
        let a = Lines::new(7).line(&start, 60);
        assert_eq!(a, Lines::new(7).line(&start, 60));
        assert_ne!(a, Lines::new(8).line(&start, 60));
    }

    #[test]
    fn a_line_is_legal_and_stops_only_where_the_game_ends() {
        for seed in 0..40 {
            let start = Position::new();
            let line = Lines::new(seed).line(&start, 300);
            let mut game = Game::new(start);
            for &m in &line {
                assert!(
                    game.automatic_end().is_none(),
                    "seed {seed}: played on after the end"
                );
                assert!(game.play(m).is_ok(), "seed {seed}: illegal move");
            }
            assert!(
                line.len() == 300 || game.automatic_end().is_some(),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn an_endless_line_has_every_ply_asked_and_never_ends_the_game() {
        for seed in 0..10 {
            let (_, start) = Lines::new(seed).chess960();
            let line = Lines::new(seed).endless().line(&start, 150);
            assert_eq!(line.len(), 150, "seed {seed}");
            let mut game = Game::new(start);
            for &m in &line {
                assert!(game.play(m).is_ok());
                assert!(game.automatic_end().is_none(), "seed {seed}");
            }
        }
    }

    #[test]
    fn a_bias_makes_its_moves_more_frequent() {
        let count = |bias: Bias| {
            let mut castles = 0;
            for seed in 0..30 {
                let mut lines = Lines::new(seed).bias(bias);
                let (_, start) = lines.chess960();
                castles += lines
                    .line(&start, 120)
                    .iter()
                    .filter(|m| m.is_castle())
                    .count();
            }
            castles
        };
        assert!(count(Bias::Castling) > count(Bias::Uniform));
    }
}
