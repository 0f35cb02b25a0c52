//! Making moves: play (checked or not), the null move of analysis, and perft.

use super::{IllegalMove, Position};
use crate::attacks::pawn_attacks;
use crate::bitboard::Bitboard;
use crate::types::{Color, Move, MoveKind, Role, Square};

impl Position {
    /// Plays a move that is legal in this position.
    ///
    /// # Errors
    /// [`IllegalMove`] (and the position unchanged) if it is not.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMove { mv: m })
        }
    }

    /// Plays a move produced by [`Position::legal_moves`] for this position. Playing any other
    /// move leaves the position inconsistent (but never panics).
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let from_bb = Bitboard::from_square(m.from);
        let to_bb = Bitboard::from_square(m.to);
        let role = self.role_at(m.from).unwrap_or(Role::Pawn);
        self.ep_square = None;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);

        match m.kind {
            MoveKind::Castle => {
                let king_dest = Bitboard::from_square(m.king_destination());
                let rook_dest = Bitboard::from_square(m.rook_destination());
                let k = Role::King.index();
                let r = Role::Rook.index();
                // Clear, then set: in Chess960 the king or the rook may already stand on its
                // destination square, where XOR-ing `from | dest` would erase it.
                self.by_role[k] = (self.by_role[k] & !from_bb) | king_dest;
                self.by_role[r] = (self.by_role[r] & !to_bb) | rook_dest;
                self.by_color[us.index()] ^= from_bb | to_bb;
                self.by_color[us.index()] |= king_dest | rook_dest;
                self.castling &= !Bitboard::rank(us.back_rank());
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(m.to.file(), m.from.rank());
                let cap_bb = Bitboard::from_square(captured);
                let p = Role::Pawn.index();
                self.by_role[p] ^= from_bb | to_bb | cap_bb;
                self.by_color[us.index()] ^= from_bb | to_bb;
                self.by_color[them.index()] ^= cap_bb;
                self.halfmove_clock = 0;
            }
            MoveKind::Normal | MoveKind::Promotion(_) => {
                if let Some(captured) = self.role_at(m.to) {
                    self.by_role[captured.index()] ^= to_bb;
                    self.by_color[them.index()] ^= to_bb;
                    self.castling &= !to_bb;
                    self.halfmove_clock = 0;
                }
                self.by_role[role.index()] ^= from_bb;
                let new_role = match m.kind {
                    MoveKind::Promotion(r) => r,
                    _ => role,
                };
                self.by_role[new_role.index()] |= to_bb;
                self.by_color[us.index()] ^= from_bb | to_bb;
                match role {
                    Role::Pawn => {
                        self.halfmove_clock = 0;
                        if m.from.index().abs_diff(m.to.index()) == 16 {
                            let mid = Square::new(((m.from.index() + m.to.index()) / 2) as u8);
                            if (pawn_attacks(us, mid) & self.pawns() & self.by_color[them.index()])
                                .any()
                            {
                                self.ep_square = Some(mid);
                            }
                        }
                    }
                    Role::King => self.castling &= !Bitboard::rank(us.back_rank()),
                    _ => self.castling &= !from_bb,
                }
            }
        }
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = them;
    }

    /// Passes the move to the other side (for analysis only; illegal in a game).
    /// Returns `None` if the side to move is in check.
    pub fn null_move(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut p = self.clone();
        p.turn = !p.turn;
        p.ep_square = None;
        Some(p)
    }

    /// Counts leaf nodes of the legal move tree to `depth` (bulk-counted at the last ply).
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            _ => {
                let mut n = 0;
                // Recurse from the generator's batches: no move list is built.
                self.generate(|pm| {
                    pm.for_each(|m| {
                        let mut p = self.clone();
                        p.play_unchecked(m);
                        n += p.perft(depth - 1);
                    })
                });
                n
            }
        }
    }
}
