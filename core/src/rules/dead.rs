//! FIDE 9.6: a dead position — no series of legal moves can lead to mate — ends the game as
//! a draw; claimed (`ClaimReason::DeadPosition`) or seen by the rules after a move.

use super::claims::{ClaimError, ClaimGround};
use crate::position::Position;

/// FIDE 9.6: the game is drawn when no series of legal moves can lead to mate (decided by
/// material, see [`Position::is_insufficient_material`]).
///
/// # Errors
/// [`ClaimError::NotDead`] when mate is still possible.
pub fn judge_dead_position(position: &Position) -> Result<ClaimGround, ClaimError> {
    if position.is_insufficient_material() {
        Ok(ClaimGround::Dead)
    } else {
        Err(ClaimError::NotDead)
    }
}
