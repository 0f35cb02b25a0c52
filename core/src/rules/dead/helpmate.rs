//! A bounded helpmate search: both sides cooperate to mate either king within a few plies.
//!
//! A mate found is a *witness* that the position is not dead (FIDE 9.6 / 5.2b: a series of
//! legal moves leads to mate). Finding none proves nothing — the mate may lie deeper — so
//! this search can only ever say "not dead", which keeps the dead-position judge sound.

use crate::position::Position;
use crate::types::Move;

/// How far and how long to look: plies of the longest line, and positions visited in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub plies: u32,
    pub nodes: u32,
}

/// Searches for a series of legal moves from `position` that ends in checkmate of either
/// side, shortest first (iterative deepening), within `bounds`. Returns the moves.
pub(crate) fn find_helpmate(position: &Position, bounds: Bounds) -> Option<Vec<Move>> {
    let mut budget = bounds.nodes;
    let mut line = Vec::new();
    for depth in 0..=bounds.plies {
        if search(position, depth, &mut budget, &mut line) {
            return Some(line);
        }
        if budget == 0 {
            break;
        }
    }
    None
}

/// Depth-first: true (with the moves in `line`) if a mate lies within `depth` plies.
fn search(position: &Position, depth: u32, budget: &mut u32, line: &mut Vec<Move>) -> bool {
    if position.is_checkmate() {
        return true;
    }
    if depth == 0 || *budget == 0 {
        return false;
    }
    for &m in position.legal_moves().iter() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let mut next = position.clone();
        next.play_unchecked(m);
        // On the last ply only a check can mate: skip the move generation of quiet moves.
        if depth == 1 && !next.is_check() {
            continue;
        }
        line.push(m);
        if search(&next, depth - 1, budget, line) {
            return true;
        }
        line.pop();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::CastlingMode;

    fn fen(f: &str) -> Position {
        Position::from_fen(f, CastlingMode::Standard).unwrap()
    }

    const WIDE: Bounds = Bounds {
        plies: 4,
        nodes: 1_000_000,
    };

    #[test]
    fn fide_5_1a_a_helpmate_ends_in_mate() {
        // K+R v K: the lone king steps beside the corner and the rook mates.
        let p = fen("k7/8/1K6/8/8/8/8/7R b - - 0 1");
        let line = find_helpmate(&p, WIDE).unwrap();
        let mut q = p.clone();
        for m in &line {
            q.play(*m).unwrap();
        }
        assert!(q.is_checkmate(), "{line:?}");
    }

    #[test]
    fn fide_5_1a_a_mate_on_the_board_is_its_own_witness() {
        let p = fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(find_helpmate(&p, WIDE), Some(Vec::new()));
    }

    #[test]
    fn no_helpmate_in_a_bare_kings_position() {
        let p = fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1");
        assert_eq!(find_helpmate(&p, WIDE), None);
    }
}
