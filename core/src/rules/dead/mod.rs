//! FIDE 9.6 (2009) / 5.2b: a dead position — no series of legal moves can lead to mate —
//! ends the game as a draw; claimed (`ClaimReason::DeadPosition`) or seen by the rules after
//! a move. FIDE 6.9 asks the one-sided question after a flag fall: can the opponent still
//! mate?
//!
//! The judge is **sound**: it calls a position dead only with a proof, never on a guess,
//! because a false "dead" takes a won game away. Two proofs exist:
//! - material ([`Position::is_insufficient_material`]; seed 004's list: K v K, K+B or K+N v K,
//!   bishops all on one square colour);
//! - a blocked structure of kings and pawns where no pawn can move or capture and no king can
//!   reach a pawn it could take (`blocked`), as in `8/8/2k5/p1p1p1p1/P1P1P1P1/2K5/8/8`.
//!
//! [`dead_verdict`] adds a bounded helpmate search (`helpmate`) that can prove the opposite:
//! a mate found is [`DeadVerdict::NotDead`]; when neither proof nor mate is found the
//! verdict is [`DeadVerdict::Unknown`]. Every rule that needs a yes/no answer treats
//! `Unknown` as "not dead": the game goes on, as it would have before this judge existed.

use super::claims::{ClaimError, ClaimGround};
use crate::position::Position;
use crate::types::Color;

mod blocked;
mod helpmate;
#[cfg(test)]
mod tests;

/// What the dead-position judge can say about a position (FIDE 9.6 / 5.2b).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeadVerdict {
    /// Proven: no series of legal moves by either side can lead to mate.
    Dead,
    /// Proven: a series of legal moves leading to mate exists (one was found).
    NotDead,
    /// Neither proven: the mate, if there is one, lies beyond the bounded search.
    Unknown,
}

/// How far [`dead_verdict`] looks for a helpmate: a few plies, and a node budget that keeps
/// the answer within a couple of milliseconds even in a busy middlegame.
const HELPMATE_BOUNDS: helpmate::Bounds = helpmate::Bounds {
    plies: 6,
    nodes: 20_000,
};

/// FIDE 9.6 / 5.2b: true if the position is *proven* dead (module docs). Cheap enough to run
/// after every move: the material test first, then the blocked-structure test, which gives up
/// after a few bit operations unless only kings and blocked pawns are left.
pub fn is_dead(position: &Position) -> bool {
    position.is_insufficient_material() || blocked::is_locked_forever(position)
}

/// FIDE 9.6 / 5.2b, three-valued: [`DeadVerdict::Dead`] with a proof,
/// [`DeadVerdict::NotDead`] when a bounded helpmate search (both sides cooperating) finds a
/// mate, [`DeadVerdict::Unknown`] otherwise. Costs a search of up to 20,000 positions when
/// the position is not proven dead; rules that only need "dead or not" use [`is_dead`].
///
/// # Examples
/// ```
/// use sobre_core::Position;
/// use sobre_core::rules::dead::{DeadVerdict, dead_verdict};
///
/// let locked = Position::from_fen_auto("8/8/2k5/p1p1p1p1/P1P1P1P1/2K5/8/8 w - - 0 1").unwrap();
/// assert_eq!(dead_verdict(&locked), DeadVerdict::Dead);
/// let mate_in_one = Position::from_fen_auto("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
/// assert_eq!(dead_verdict(&mate_in_one), DeadVerdict::NotDead);
/// ```
pub fn dead_verdict(position: &Position) -> DeadVerdict {
    if is_dead(position) {
        DeadVerdict::Dead
    } else if helpmate::find_helpmate(position, HELPMATE_BOUNDS).is_some() {
        DeadVerdict::NotDead
    } else {
        DeadVerdict::Unknown
    }
}

/// FIDE 6.9: true if `color` is *proven* unable to checkmate the other king by any possible
/// series of legal moves. One-sided material ([`Position::has_insufficient_material`]), or a
/// blocked structure in which no check can ever be given by either side (and so not by
/// `color`). Used after a flag fall and for Appendix A8's exception.
pub fn cannot_checkmate(position: &Position, color: Color) -> bool {
    position.has_insufficient_material(color) || blocked::is_locked_forever(position)
}

/// FIDE 9.6: the game is drawn when no series of legal moves can lead to mate ([`is_dead`]:
/// insufficient material, or a blocked structure no king can cross).
///
/// # Errors
/// [`ClaimError::NotDead`] when the position is not proven dead (mate is possible, or the
/// judge could not prove it impossible: the game goes on).
pub fn judge_dead_position(position: &Position) -> Result<ClaimGround, ClaimError> {
    if is_dead(position) {
        Ok(ClaimGround::Dead)
    } else {
        Err(ClaimError::NotDead)
    }
}
