//! FIDE Art. 11 (scoring): a player who wins their game, or wins by forfeit, scores one
//! point; a loss scores none; a draw scores half a point to each (11.1). League tables add
//! these up, and Sonneborn-Berger weighs the opponents' totals by them.

use crate::outcome::Outcome;
use crate::types::Color;

/// A result from one player's side: win, draw or loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    /// The score of the player of colour `me` in a game that ended in `outcome`.
    pub fn of(outcome: Outcome, me: Color) -> Score {
        match outcome.winner() {
            None => Score::Draw,
            Some(c) if c == me => Score::Win,
            Some(_) => Score::Loss,
        }
    }

    /// Art. 11.1: the points, in halves (a win 2, a draw 1, a loss 0).
    pub const fn half_points(self) -> u64 {
        match self {
            Score::Win => 2,
            Score::Draw => 1,
            Score::Loss => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn art_11_1_a_win_is_one_point_a_draw_half_a_loss_none() {
        let white_wins = Outcome::Decisive {
            winner: Color::White,
        };
        assert_eq!(Score::of(white_wins, Color::White), Score::Win);
        assert_eq!(Score::of(white_wins, Color::Black), Score::Loss);
        assert_eq!(Score::of(Outcome::Draw, Color::Black), Score::Draw);
        assert_eq!(
            [Score::Win, Score::Draw, Score::Loss].map(Score::half_points),
            [2, 1, 0]
        );
    }
}
