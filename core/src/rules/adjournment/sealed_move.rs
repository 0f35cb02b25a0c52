//! A8: a player whose sealed move, as written, is (a) ambiguous, (b) unintelligible or (c)
//! illegal loses — "except in the cases of" Articles 6.10 and 9.6 (2005, seed 002), or
//! Articles 5, 6.9 and 9.6 (2009, seed 003).
//!
//! The exceptions, read on the move's possible readings (an ambiguous move has several; an
//! unintelligible or illegal one none):
//! - Art. 5 (2009 only): every reading mates (5.1a: the sealer wins) or every reading
//!   stalemates (5.2a: a draw). Under the 2005 text such an ambiguous move still loses.
//! - 9.6 (both): every reading leaves a dead position: a draw.
//! - 6.9 (2009) / 6.10 (2005), the same rule renumbered: the responder could not mate the
//!   sealer by any series of legal moves, so the sealer's loss is a draw.

use crate::outcome::Outcome;
use crate::position::Position;
use crate::rules::{Edition, Termination, dead};
use crate::types::{Color, Move};

/// A8: how the game ends when `sealer`'s sealed move cannot be played as written in
/// `position` (the position before it), given the legal moves it could mean (`readings`;
/// empty for an unintelligible or illegal move).
pub fn judge_invalid_sealed_move(
    edition: Edition,
    position: &Position,
    sealer: Color,
    readings: &[Move],
) -> (Outcome, Termination) {
    let all = |f: &dyn Fn(&Position) -> bool| {
        !readings.is_empty()
            && readings.iter().all(|&m| {
                let mut after = position.clone();
                after.play_unchecked(m);
                f(&after)
            })
    };
    if edition == Edition::Fide2009 {
        if all(&Position::is_checkmate) {
            return (Outcome::Decisive { winner: sealer }, Termination::Checkmate);
        }
        if all(&Position::is_stalemate) {
            return (Outcome::Draw, Termination::Stalemate);
        }
    }
    if all(&dead::is_dead) {
        return (Outcome::Draw, Termination::DeadPosition);
    }
    if dead::cannot_checkmate(position, !sealer) {
        return (Outcome::Draw, Termination::IllegalSealedMove);
    }
    (
        Outcome::Decisive { winner: !sealer },
        Termination::IllegalSealedMove,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::san::{Lang, parse_san};

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    fn reading(p: &Position, san: &str) -> Move {
        parse_san(p, san, Lang::English).unwrap()
    }

    const BOTH: [Edition; 2] = [Edition::Fide2005, Edition::Fide2009];

    #[test]
    fn a8_a_b_c_an_invalid_sealed_move_loses_in_both_editions() {
        let p = Position::new();
        for edition in BOTH {
            assert_eq!(
                judge_invalid_sealed_move(edition, &p, Color::White, &[]),
                (
                    Outcome::Decisive {
                        winner: Color::Black
                    },
                    Termination::IllegalSealedMove
                ),
                "{edition:?}"
            );
        }
    }

    /// The legal moves `texts` mean (English SAN).
    fn readings(p: &Position, texts: &[&str]) -> Vec<Move> {
        texts.iter().map(|t| reading(p, t)).collect()
    }

    fn every(p: &Position, readings: &[Move], f: fn(&Position) -> bool) -> bool {
        readings.iter().all(|&m| {
            let mut q = p.clone();
            q.play_unchecked(m);
            f(&q)
        })
    }

    #[test]
    fn a8_art_5_every_reading_mates_wins_in_2009_but_loses_in_2005() {
        // "Nf7" with knights on e5 and g5: either gives the smothered mate.
        let p = pos("6rk/6pp/8/4N1N1/8/8/8/6K1 w - - 0 1");
        let both = readings(&p, &["Nef7", "Ngf7"]);
        assert!(every(&p, &both, Position::is_checkmate));
        assert_eq!(
            judge_invalid_sealed_move(Edition::Fide2009, &p, Color::White, &both),
            (
                Outcome::Decisive {
                    winner: Color::White
                },
                Termination::Checkmate
            )
        );
        assert_eq!(
            judge_invalid_sealed_move(Edition::Fide2005, &p, Color::White, &both),
            (
                Outcome::Decisive {
                    winner: Color::Black
                },
                Termination::IllegalSealedMove
            )
        );
    }

    #[test]
    fn a8_art_5_every_reading_stalemates_draws_in_2009_but_loses_in_2005() {
        // "Qg6" with queens on b1 and g1: either queen stalemates the king on h8 (Black's
        // blocked pawn could still mate one day, so 6.9/6.10 does not apply).
        let p = pos("7k/5K2/8/p7/P7/8/8/1Q4Q1 w - - 0 1");
        let both = readings(&p, &["Qbg6", "Qgg6"]);
        assert!(every(&p, &both, Position::is_stalemate));
        assert_eq!(
            judge_invalid_sealed_move(Edition::Fide2009, &p, Color::White, &both),
            (Outcome::Draw, Termination::Stalemate)
        );
        assert_eq!(
            judge_invalid_sealed_move(Edition::Fide2005, &p, Color::White, &both),
            (
                Outcome::Decisive {
                    winner: Color::Black
                },
                Termination::IllegalSealedMove
            )
        );
    }

    #[test]
    fn a8_9_6_every_reading_dead_draws_in_both_editions() {
        // "Bxe3" with bishops on c1 and g1 (both dark-squared): either capture of the last
        // black pawn leaves bishops of one colour against a king.
        let p = pos("4k3/8/8/8/8/4p3/8/2B1K1B1 w - - 0 1");
        let both = readings(&p, &["Bcxe3", "Bgxe3"]);
        assert!(every(&p, &both, Position::is_insufficient_material));
        for edition in BOTH {
            assert_eq!(
                judge_invalid_sealed_move(edition, &p, Color::White, &both),
                (Outcome::Draw, Termination::DeadPosition),
                "{edition:?}"
            );
        }
    }

    #[test]
    fn a8_9_6_a_reading_that_locks_the_pawn_chain_draws_in_both_editions() {
        // "g4" locks the chain: no king can cross it, so no mate is possible (9.6).
        let p = pos("8/8/2k5/p1p1p1p1/P1P1P3/2K3P1/8/8 w - - 0 1");
        let locking = readings(&p, &["g4"]);
        for edition in BOTH {
            assert_eq!(
                judge_invalid_sealed_move(edition, &p, Color::White, &locking),
                (Outcome::Draw, Termination::DeadPosition),
                "{edition:?}"
            );
        }
    }

    #[test]
    fn a8_6_9_in_a_locked_chain_the_responder_cannot_mate_so_a_draw() {
        let p = pos("8/8/2k5/p1p1p1p1/P1P1P1P1/2K5/8/8 w - - 0 1");
        for edition in BOTH {
            assert_eq!(
                judge_invalid_sealed_move(edition, &p, Color::White, &[]),
                (Outcome::Draw, Termination::IllegalSealedMove),
                "{edition:?}"
            );
        }
    }

    #[test]
    fn a8_6_9_6_10_the_responder_cannot_mate_so_a_draw_in_both_editions() {
        let p = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        for edition in BOTH {
            assert_eq!(
                judge_invalid_sealed_move(edition, &p, Color::White, &[]),
                (Outcome::Draw, Termination::IllegalSealedMove),
                "{edition:?}"
            );
        }
    }
}
