//! FIDE 9.2's "same position", per text of the Laws. Both texts call positions the same when
//! the same player is to move, pieces of the same kind and colour stand on the same squares
//! and "the possible moves of all the pieces of both players are the same", and both make an
//! en passant capture that can no longer be made a difference. They part on castling:
//!
//! - 2005 (seed 002, 9.2): positions are not the same "si ha cambiado el derecho a enrocar,
//!   temporalmente o de forma permanente": a lost right makes them different even while
//!   castling is only temporarily impossible ([`Position::repetition_key`]).
//! - 2009 (seed 003, 9.2) drops that sentence and adds only that a king or rook forced to
//!   move loses its right after it has moved: a right that cannot be used now adds no
//!   possible move and makes no difference ([`Position::possible_moves_key`]).
//!
//! A game keeps the 2005 identities as it is played (they also count fivefold repetition,
//! current FIDE practice); the 2009 ones are derived from them when a claim is judged, so
//! playing a move costs the same under either text.

use super::edition::Edition;
use crate::position::Position;
use crate::types::Move;
use std::borrow::Cow;

/// FIDE 9.2's identity of `position` under `edition` (see the module docs).
pub fn repetition_key(edition: Edition, position: &Position) -> u64 {
    match edition {
        Edition::Fide2005 => position.repetition_key(),
        Edition::Fide2009 => position.possible_moves_key(),
    }
}

/// The 9.2 identities under `edition` of every position of a game: `keys` are the
/// [`Position::repetition_key`]s of the position `start` and of each position after
/// `moves` (so one more key than moves), the current position last.
///
/// Under 2005 these are `keys` themselves. Under 2009 only positions with a castling right
/// can differ, and a right once lost is never regained (3.8b), so they are a prefix of the
/// game: only that prefix is replayed.
pub fn repetition_keys<'a>(
    edition: Edition,
    start: &Position,
    moves: impl IntoIterator<Item = Move>,
    keys: &'a [u64],
) -> Cow<'a, [u64]> {
    if edition == Edition::Fide2005 || start.castling_rooks().is_empty() {
        return Cow::Borrowed(keys);
    }
    let mut out = Vec::with_capacity(keys.len());
    let mut position = start.clone();
    let mut moves = moves.into_iter();
    while out.len() < keys.len() {
        if position.castling_rooks().is_empty() {
            out.extend_from_slice(&keys[out.len()..]);
            break;
        }
        out.push(position.possible_moves_key());
        match moves.next() {
            Some(m) => position.play_unchecked(m),
            None => break,
        }
    }
    debug_assert_eq!(out.len(), keys.len(), "one key per position");
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::CastlingMode;

    fn fen(f: &str) -> Position {
        Position::from_fen(f, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn fide_9_2_a_temporarily_impossible_right_counts_in_2005_only() {
        // White's right h1 cannot be used (the knight on g1), and is lost in the copy.
        let right = fen("4k3/8/8/8/8/8/8/4K1NR w K - 0 1");
        let lost = fen("4k3/8/8/8/8/8/8/4K1NR w - - 0 1");
        assert_ne!(
            repetition_key(Edition::Fide2005, &right),
            repetition_key(Edition::Fide2005, &lost)
        );
        assert_eq!(
            repetition_key(Edition::Fide2009, &right),
            repetition_key(Edition::Fide2009, &lost)
        );
    }

    #[test]
    fn fide_9_2_a_right_that_can_be_used_counts_in_both_editions() {
        let right = fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let lost = fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        for edition in [Edition::Fide2005, Edition::Fide2009] {
            assert_ne!(
                repetition_key(edition, &right),
                repetition_key(edition, &lost),
                "{edition:?}"
            );
        }
    }

    #[test]
    fn fide_9_2_2009_judges_both_players_castling_check_and_attacked_squares() {
        // Black, not to move, could castle: a possible move of "both players" (2009).
        let black = fen("r3k3/8/8/8/8/8/8/4K3 w q - 0 1");
        let lost = fen("r3k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_ne!(black.possible_moves_key(), lost.possible_moves_key());
        // In check (3.8b(2)(a)), or crossing an attacked square: temporarily impossible.
        let check = fen("4k3/8/8/8/8/8/4r3/4K2R w K - 0 1");
        let check_lost = fen("4k3/8/8/8/8/8/4r3/4K2R w - - 0 1");
        assert_eq!(check.possible_moves_key(), check_lost.possible_moves_key());
        assert_ne!(check.repetition_key(), check_lost.repetition_key());
        let crossed = fen("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1");
        let crossed_lost = fen("4k3/8/8/8/8/8/5r2/4K2R w - - 0 1");
        assert_eq!(
            crossed.possible_moves_key(),
            crossed_lost.possible_moves_key()
        );
    }

    #[test]
    fn fide_9_2_2009_keys_are_replayed_only_while_a_right_remains() {
        use crate::types::{MoveKind, Square};
        let sq = |s: &str| Square::parse(s).unwrap();
        let start = fen("4k3/8/8/8/8/8/8/4K1NR w K - 0 1");
        let moves = [("e1", "f1"), ("e8", "d8"), ("f1", "e1"), ("d8", "e8")]
            .map(|(a, b)| Move::new(sq(a), sq(b), MoveKind::Normal));
        let mut p = start.clone();
        let mut keys = vec![p.repetition_key()];
        for m in moves {
            p.play(m).unwrap();
            keys.push(p.repetition_key());
        }
        assert_eq!(
            repetition_keys(Edition::Fide2005, &start, moves, &keys),
            Cow::Borrowed(&keys[..])
        );
        let of_2009 = repetition_keys(Edition::Fide2009, &start, moves, &keys);
        assert_eq!(of_2009.len(), keys.len());
        // The start and the rightless copy after the king's walk are one position in 2009.
        assert_eq!(of_2009[0], of_2009[4]);
        assert_ne!(keys[0], keys[4]);
        assert_eq!(of_2009[1..], keys[1..]);
    }
}
