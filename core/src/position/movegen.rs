//! Legal move generation: moves in batches per piece ([`PieceMoves`]) for speed (perft,
//! counting), expanded into a [`MoveList`] when a list is wanted.

use super::Position;
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::types::{Color, Move, MoveKind, Role, Square};

/// Moves generated for one piece: a source and a set of destinations.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PieceMoves {
    pub from: Square,
    pub to: Bitboard,
    pub kind: GenKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GenKind {
    Normal,
    /// Each destination is four moves (Q, R, B, N).
    Promotions,
    EnPassant,
    /// `to` is the castling rook.
    Castle,
    /// Pawn moves in bulk: each destination's origin is `to - offset` (`from` is unused).
    Pawns(i8),
    /// As `Pawns`, each destination being four promotions.
    PawnPromotions(i8),
}

impl PieceMoves {
    /// Number of moves in the batch.
    #[inline]
    fn count(self) -> u64 {
        match self.kind {
            GenKind::Promotions | GenKind::PawnPromotions(_) => 4 * u64::from(self.to.count()),
            _ => u64::from(self.to.count()),
        }
    }

    /// Calls `f` with every move of the batch.
    #[inline]
    pub(super) fn for_each(self, mut f: impl FnMut(Move)) {
        match self.kind {
            GenKind::Normal => {
                for to in self.to {
                    f(Move::new(self.from, to, MoveKind::Normal));
                }
            }
            GenKind::Promotions => {
                for to in self.to {
                    for r in Role::PROMOTIONS {
                        f(Move::new(self.from, to, MoveKind::Promotion(r)));
                    }
                }
            }
            GenKind::EnPassant => {
                for to in self.to {
                    f(Move::new(self.from, to, MoveKind::EnPassant));
                }
            }
            GenKind::Castle => {
                for to in self.to {
                    f(Move::new(self.from, to, MoveKind::Castle));
                }
            }
            GenKind::Pawns(offset) => {
                for to in self.to {
                    let from = Square::new((to.index() as i8 - offset) as u8);
                    f(Move::new(from, to, MoveKind::Normal));
                }
            }
            GenKind::PawnPromotions(offset) => {
                for to in self.to {
                    let from = Square::new((to.index() as i8 - offset) as u8);
                    for r in Role::PROMOTIONS {
                        f(Move::new(from, to, MoveKind::Promotion(r)));
                    }
                }
            }
        }
    }
}

/// A fixed-capacity list of moves (no position has more than 218 legal moves).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 256],
    len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::A1, Square::A1, MoveKind::Normal); 256],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        // 256 > 218, the most legal moves any chess position has.
        if self.len < self.moves.len() {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(|pm| expand(pm, &mut list));
        list
    }

    /// Legal moves of the piece on `from` only.
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = MoveList::new();
        self.generate(|pm| {
            pm.for_each(|m| {
                if m.from == from {
                    list.push(m);
                }
            })
        });
        list
    }

    /// Legal moves of pieces of `role` (any role if `None`) whose destination is in `to`.
    /// For castling the destination is the rook's square. Used to resolve SAN quickly.
    pub fn legal_moves_filtered(&self, role: Option<Role>, to: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        let from_mask = match role {
            Some(r) => self.by_role[r.index()],
            None => Bitboard::FULL,
        };
        let pawns_wanted = matches!(role, None | Some(Role::Pawn));
        self.generate(|mut pm| {
            pm.to &= to;
            if pm.to.is_empty() {
                return;
            }
            match pm.kind {
                GenKind::Pawns(_) | GenKind::PawnPromotions(_) => {
                    if pawns_wanted {
                        expand(pm, &mut list);
                    }
                }
                _ => {
                    if from_mask.contains(pm.from) {
                        expand(pm, &mut list);
                    }
                }
            }
        });
        list
    }

    /// Number of legal moves, without building the list.
    pub fn count_legal_moves(&self) -> u64 {
        let mut n = 0u64;
        self.generate(|pm| n += pm.count());
        n
    }

    pub fn is_legal(&self, m: Move) -> bool {
        let mut found = false;
        self.generate(|pm| {
            if pm.to.contains(m.to) {
                pm.for_each(|g| found |= g == m);
            }
        });
        found
    }

    /// The core generator: calls `sink` with batches of legal moves.
    pub(crate) fn generate(&self, mut sink: impl FnMut(PieceMoves)) {
        let us = self.turn;
        let them = !us;
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = ours | theirs;
        let king = self.king_of(us);
        let checkers = self.attackers_to(king, them, occ);

        // King moves: destination not attacked once the king has left its square.
        let occ_no_king = occ ^ Bitboard::from_square(king);
        let mut king_to = Bitboard::EMPTY;
        for to in king_attacks(king) & !ours {
            if self.attackers_to(to, them, occ_no_king).is_empty() {
                king_to |= Bitboard::from_square(to);
            }
        }
        sink(PieceMoves {
            from: king,
            to: king_to,
            kind: GenKind::Normal,
        });
        if checkers.more_than_one() {
            return;
        }

        let target = match checkers.first() {
            Some(c) => between(king, c) | Bitboard::from_square(c),
            None => !ours,
        };

        // Pinned pieces: our pieces alone between the king and an enemy slider.
        let rq = (self.rooks() | self.queens()) & theirs;
        let bq = (self.bishops() | self.queens()) & theirs;
        let snipers = (rook_attacks(king, theirs) & rq) | (bishop_attacks(king, theirs) & bq);
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = between(king, s) & occ;
            if !b.more_than_one() {
                pinned |= b & ours;
            }
        }

        for from in self.knights() & ours & !pinned {
            sink(PieceMoves {
                from,
                to: knight_attacks(from) & target,
                kind: GenKind::Normal,
            });
        }
        for from in self.bishops() & ours {
            let mut to = bishop_attacks(from, occ) & target;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            sink(PieceMoves {
                from,
                to,
                kind: GenKind::Normal,
            });
        }
        for from in self.rooks() & ours {
            let mut to = rook_attacks(from, occ) & target;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            sink(PieceMoves {
                from,
                to,
                kind: GenKind::Normal,
            });
        }
        for from in self.queens() & ours {
            let mut to = queen_attacks(from, occ) & target;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            sink(PieceMoves {
                from,
                to,
                kind: GenKind::Normal,
            });
        }

        // Pawns: unpinned ones in bulk by shifting bitboards, pinned ones one by one.
        let (up, start_rank, promo_rank): (i8, u8, u8) = match us {
            Color::White => (8, 1, 6),
            Color::Black => (-8, 6, 1),
        };
        let pawns = self.pawns() & ours;
        let last_rank = Bitboard::rank(if us == Color::White { 7 } else { 0 });
        let free = pawns & !pinned;
        let empty = !occ;
        let single = shift(free, up) & empty;
        let double = shift(
            single & Bitboard::rank((start_rank as i8 + up / 8) as u8),
            up,
        ) & empty;
        // Captures towards the a-file and towards the h-file.
        let (left, right) = (up - 1, up + 1);
        let cap_left = shift(free & !Bitboard::file(0), left) & theirs & target;
        let cap_right = shift(free & !Bitboard::file(7), right) & theirs & target;
        let single = single & target;
        for (to, offset) in [
            (single, up),
            (double & target, 2 * up),
            (cap_left, left),
            (cap_right, right),
        ] {
            let promo = to & last_rank;
            let quiet = to & !last_rank;
            if quiet.any() {
                sink(PieceMoves {
                    from: Square::A1,
                    to: quiet,
                    kind: GenKind::Pawns(offset),
                });
            }
            if promo.any() {
                sink(PieceMoves {
                    from: Square::A1,
                    to: promo,
                    kind: GenKind::PawnPromotions(offset),
                });
            }
        }
        for from in pawns & pinned {
            let mut to = pawn_attacks(us, from) & theirs;
            let one = Square::new((from.index() as i8 + up) as u8);
            if !occ.contains(one) {
                to |= Bitboard::from_square(one);
                if from.rank() == start_rank {
                    let two = Square::new((one.index() as i8 + up) as u8);
                    if !occ.contains(two) {
                        to |= Bitboard::from_square(two);
                    }
                }
            }
            to &= target & line(king, from);
            let kind = if from.rank() == promo_rank {
                GenKind::Promotions
            } else {
                GenKind::Normal
            };
            sink(PieceMoves { from, to, kind });
        }

        if let Some(ep) = self.ep_square {
            let captured = Square::new((ep.index() as i8 - up) as u8);
            for from in pawn_attacks(them, ep) & self.pawns() & ours {
                // Rare: check the resulting position directly (covers pins along the rank
                // and checks that the capture removes or blocks).
                let after = (occ ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
                    | Bitboard::from_square(ep);
                let attackers =
                    self.attackers_to(king, them, after) & !Bitboard::from_square(captured);
                if attackers.is_empty() {
                    sink(PieceMoves {
                        from,
                        to: Bitboard::from_square(ep),
                        kind: GenKind::EnPassant,
                    });
                }
            }
        }

        // Castling (FIDE 3.8b, Appendix F3): never out of check.
        if checkers.is_empty() {
            for rook in self.castling & ours {
                if self.castling_unhindered(king, rook, them, occ) {
                    sink(PieceMoves {
                        from: king,
                        to: Bitboard::from_square(rook),
                        kind: GenKind::Castle,
                    });
                }
            }
        }
    }

    /// FIDE 3.8b / Appendix F3, all but the check on the king's own square (the callers have
    /// it at hand): every square between king and its destination and between rook and its
    /// destination is empty but for the pair, and no square the king crosses or lands on is
    /// attacked by `them`.
    #[inline]
    fn castling_unhindered(&self, king: Square, rook: Square, them: Color, occ: Bitboard) -> bool {
        let king_side = rook.file() > king.file();
        let rank = king.rank();
        let king_dest = Square::from_coords(if king_side { 6 } else { 2 }, rank);
        let rook_dest = Square::from_coords(if king_side { 5 } else { 3 }, rank);
        let pair = Bitboard::from_square(king) | Bitboard::from_square(rook);
        let must_be_empty = (between(king, king_dest)
            | Bitboard::from_square(king_dest)
            | between(rook, rook_dest)
            | Bitboard::from_square(rook_dest))
            & !pair;
        if (must_be_empty & occ).any() {
            return false;
        }
        // A castling rook pinned along the first rank cannot expose the king: the attacker
        // would then hit the king's destination, checked here.
        let occ_without = occ & !pair;
        let king_path = between(king, king_dest) | Bitboard::from_square(king_dest);
        !Iterator::any(&mut king_path.into_iter(), |sq| {
            self.attackers_to(sq, them, occ_without).any()
        })
    }

    /// The castling rights that could be used now: the rooks with a right (3.8b) whose side
    /// could castle with them in this placement were it that side's move — its king not in
    /// check, the squares between empty, no square the king crosses attacked. A right that
    /// is only temporarily impossible (3.8b(2)) is left out. The side not to move is judged
    /// as if it were on move: FIDE 9.2 of 2009 (seed 003) compares "the possible moves of
    /// all the pieces of both players".
    pub fn castling_possible(&self) -> Bitboard {
        let occ = self.occupied();
        let mut possible = Bitboard::EMPTY;
        for us in Color::ALL {
            let rooks = self.castling & self.by_color[us.index()];
            if rooks.is_empty() {
                continue;
            }
            let king = self.king_of(us);
            if self.attackers_to(king, !us, occ).any() {
                continue;
            }
            for rook in rooks {
                if self.castling_unhindered(king, rook, !us, occ) {
                    possible |= Bitboard::from_square(rook);
                }
            }
        }
        possible
    }
}

#[inline]
fn expand(pm: PieceMoves, list: &mut MoveList) {
    pm.for_each(|m| list.push(m));
}

/// Shifts every square by `offset` (±8 for a pawn step, ±7/±9 for captures); callers mask
/// off the wrapped files first.
#[inline]
fn shift(b: Bitboard, offset: i8) -> Bitboard {
    if offset >= 0 {
        Bitboard(b.0 << offset)
    } else {
        Bitboard(b.0 >> -offset)
    }
}
