//! A legal chess position (standard or Chess960) with legal move generation and make-move.
//!
//! [`Setup`] is an untrusted description (public fields, anything goes); [`Position`] is only
//! reachable through [`Position::from_setup`], which checks it, so every `Position` is legal
//! and every [`Move`] produced by [`Position::legal_moves`] can be played without checks.
//!
//! The position and its checks live here, with the accessors every rule asks; `movegen.rs`
//! generates legal moves, `play.rs` makes them, `chess960.rs` numbers the Chess960 starts.

use crate::attacks::{
    aligned, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::types::{Color, Move, MoveKind, Piece, Role, Square};
use crate::zobrist;

mod chess960;
mod movegen;
mod play;
#[cfg(test)]
mod tests;

pub use chess960::{chess960_back_rank, chess960_number};
pub use movegen::MoveList;

use movegen::GenKind;

/// How castling is written and validated: standard chess or Chess960 (FIDE Appendix F).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    #[default]
    Standard,
    Chess960,
}

/// A position as read from FEN or built by hand: not necessarily legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Indexed by [`Square::index`] (`a1` = 0).
    pub board: [Option<Piece>; 64],
    pub turn: Color,
    /// The rooks that still have castling rights (FIDE Art. 3.8b).
    pub castling_rooks: Bitboard,
    /// The square a pawn skipped over on the last move, as FEN writes it.
    pub ep_square: Option<Square>,
    pub halfmove_clock: u32,
    pub fullmove_number: u32,
}

impl Setup {
    pub fn empty() -> Setup {
        Setup {
            board: [None; 64],
            turn: Color::White,
            castling_rooks: Bitboard::EMPTY,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }
}

/// Why a [`Setup`] is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{} has no king", .0.name())]
    MissingKing(Color),
    #[error("{} has more than one king", .0.name())]
    TooManyKings(Color),
    #[error("{} has more than 16 pieces", .0.name())]
    TooManyPieces(Color),
    #[error("a pawn stands on the first or last rank")]
    PawnOnBackRank,
    #[error("the side not to move ({}) is in check", .0.name())]
    OppositeCheck(Color),
    #[error("the side to move is in check from more than two pieces, or from an impossible pair")]
    ImpossibleCheck,
    #[error(
        "castling right for a rook on {0} is impossible (no rook there or king not on its first rank)"
    )]
    InvalidCastlingRights(Square),
    #[error("en passant square {0} is impossible in this position")]
    InvalidEpSquare(Square),
}

/// A legal position. Fields are private: see the module docs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    turn: Color,
    castling: Bitboard,
    /// Set only after a double push next to an enemy pawn (a *pseudo*-legal capture).
    ep_square: Option<Square>,
    halfmove_clock: u32,
    fullmove_number: u32,
    mode: CastlingMode,
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv:?} is not a legal move in this position")]
pub struct IllegalMove {
    pub mv: Move,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The standard starting position (FIDE Art. 2.3).
    pub fn new() -> Position {
        // Built directly (not through `from_setup`): callers create many start positions.
        Position {
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
            turn: Color::White,
            castling: Bitboard(0x8100_0000_0000_0081),
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            mode: CastlingMode::Standard,
        }
    }

    /// Checks a [`Setup`] and makes it a position.
    ///
    /// In [`CastlingMode::Standard`], castling rights require the king on e1/e8 and the rook
    /// on a corner; in Chess960 any rook on the king's first rank may keep a right (at most
    /// one on each side of the king).
    ///
    /// # Errors
    /// A [`PositionError`] naming the first problem found.
    pub fn from_setup(setup: &Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        let mut pos = Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            turn: setup.turn,
            castling: Bitboard::EMPTY,
            ep_square: None,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number.max(1),
            mode,
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                pos.by_role[p.role.index()] |= Bitboard::from_square(sq);
                pos.by_color[p.color.index()] |= Bitboard::from_square(sq);
            }
        }
        for c in Color::ALL {
            let kings = pos.by_color[c.index()] & pos.by_role[Role::King.index()];
            if kings.is_empty() {
                return Err(PositionError::MissingKing(c));
            }
            if kings.more_than_one() {
                return Err(PositionError::TooManyKings(c));
            }
            if pos.by_color[c.index()].count() > 16 {
                return Err(PositionError::TooManyPieces(c));
            }
        }
        if (pos.pawns() & (Bitboard::rank(0) | Bitboard::rank(7))).any() {
            return Err(PositionError::PawnOnBackRank);
        }
        // Castling rights.
        for sq in setup.castling_rooks {
            let color = if sq.rank() == 0 {
                Color::White
            } else if sq.rank() == 7 {
                Color::Black
            } else {
                return Err(PositionError::InvalidCastlingRights(sq));
            };
            let king = pos.king_of(color);
            let is_rook = (pos.by_color[color.index()] & pos.rooks()).contains(sq);
            let standard_ok = mode == CastlingMode::Chess960
                || (king.file() == 4 && (sq.file() == 0 || sq.file() == 7));
            if !is_rook || king.rank() != sq.rank() || !standard_ok {
                return Err(PositionError::InvalidCastlingRights(sq));
            }
            // At most one castling rook on each side of the king.
            let side = if sq.file() > king.file() {
                Bitboard::rank(sq.rank()) & !files_up_to(king.file())
            } else {
                Bitboard::rank(sq.rank()) & files_up_to(king.file()) & !Bitboard::file(king.file())
            };
            if (pos.castling & side).any() {
                return Err(PositionError::InvalidCastlingRights(sq));
            }
            pos.castling |= Bitboard::from_square(sq);
        }
        // En passant square: the pawn that just moved two squares must be there.
        if let Some(ep) = setup.ep_square {
            let us = setup.turn;
            let them = !us;
            let rank_ok = ep.rank() == if us == Color::White { 5 } else { 2 };
            let pushed = Square::from_coords(ep.file(), if us == Color::White { 4 } else { 3 });
            let origin = Square::from_coords(ep.file(), if us == Color::White { 6 } else { 1 });
            let occ = pos.occupied();
            if !rank_ok
                || occ.contains(ep)
                || occ.contains(origin)
                || !(pos.by_color[them.index()] & pos.pawns()).contains(pushed)
            {
                return Err(PositionError::InvalidEpSquare(ep));
            }
            if (pawn_attacks(them, ep) & pos.pawns() & pos.by_color[us.index()]).any() {
                pos.ep_square = Some(ep);
            }
        }
        // The side not to move must not be in check.
        let them = !pos.turn;
        if pos
            .attackers_to(pos.king_of(them), pos.turn, pos.occupied())
            .any()
        {
            return Err(PositionError::OppositeCheck(them));
        }
        if pos.checkers().count() > 2 {
            return Err(PositionError::ImpossibleCheck);
        }
        Ok(pos)
    }

    /// The position as an untrusted [`Setup`] (for editing or FEN).
    pub fn to_setup(&self) -> Setup {
        let mut s = Setup::empty();
        for sq in Square::all() {
            s.board[sq.index()] = self.piece_at(sq);
        }
        s.turn = self.turn;
        s.castling_rooks = self.castling;
        s.ep_square = self.legal_ep_square();
        s.halfmove_clock = self.halfmove_clock;
        s.fullmove_number = self.fullmove_number;
        s
    }
}

// Accessors: what the rules ask of a position.
impl Position {
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }
    /// Switches how castling is written (and whether Chess960 FEN letters are used).
    pub fn set_castling_mode(&mut self, mode: CastlingMode) {
        self.mode = mode;
    }
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.mode == CastlingMode::Chess960
    }
    /// Moves since the last capture or pawn move, counted in plies (FIDE 9.3).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }
    /// The rooks that still have castling rights.
    #[inline]
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling
    }
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }
    #[inline]
    pub fn by_color(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }
    #[inline]
    pub fn by_role(&self, r: Role) -> Bitboard {
        self.by_role[r.index()]
    }
    #[inline]
    pub fn by_piece(&self, p: Piece) -> Bitboard {
        self.by_role[p.role.index()] & self.by_color[p.color.index()]
    }
    #[inline]
    fn pawns(&self) -> Bitboard {
        self.by_role[Role::Pawn.index()]
    }
    #[inline]
    fn knights(&self) -> Bitboard {
        self.by_role[Role::Knight.index()]
    }
    #[inline]
    fn bishops(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()]
    }
    #[inline]
    fn rooks(&self) -> Bitboard {
        self.by_role[Role::Rook.index()]
    }
    #[inline]
    fn queens(&self) -> Bitboard {
        self.by_role[Role::Queen.index()]
    }
    #[inline]
    fn kings(&self) -> Bitboard {
        self.by_role[Role::King.index()]
    }

    /// The king of `color` (every legal position has exactly one).
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        (self.kings() & self.by_color[color.index()])
            .first()
            .unwrap_or(Square::A1)
    }

    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()].contains(sq))
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// Pieces of `by` that attack `sq`, given the occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let rq = self.rooks() | self.queens();
        let bq = self.bishops() | self.queens();
        ((knight_attacks(sq) & self.knights())
            | (king_attacks(sq) & self.kings())
            | (pawn_attacks(!by, sq) & self.pawns())
            | (rook_attacks(sq, occ) & rq)
            | (bishop_attacks(sq, occ) & bq))
            & self.by_color[by.index()]
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to(self.king_of(self.turn), !self.turn, self.occupied())
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// FIDE Art. 5.1a: the side to move is in check and has no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// FIDE Art. 5.2a: the side to move is not in check and has no legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    pub fn has_legal_moves(&self) -> bool {
        let mut any = false;
        self.generate(|pm| {
            if pm.to.any() {
                any = true;
            }
        });
        any
    }

    /// The en passant square if an en passant capture is actually legal (FIDE 9.2: only a
    /// *possible* capture makes positions different; X-FEN writes only this one).
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut legal = false;
        self.generate(|pm| {
            if pm.kind == GenKind::EnPassant && pm.to.contains(ep) {
                legal = true;
            }
        });
        legal.then_some(ep)
    }

    /// The en passant square as stored (after a double push next to an enemy pawn).
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Zobrist hash of "the same position" as FIDE 9.2 of 2005 reads (seed 002): pieces,
    /// side to move, *legal* en passant captures and the castling *rights*, which make
    /// positions different when they have changed "temporarily or permanently" — also while
    /// castling is only temporarily impossible. Current FIDE practice (fivefold repetition)
    /// counts rights the same way. Move counters are not included.
    pub fn repetition_key(&self) -> u64 {
        self.identity_key(self.castling)
    }

    /// Zobrist hash of "the same position" as FIDE 9.2 of 2009 reads (seed 003): pieces, side
    /// to move and "the possible moves of all the pieces of both players" — *legal* en
    /// passant captures and the castling moves possible now ([`Position::castling_possible`]).
    /// A right that cannot be used at the moment adds no possible move, so it does not make
    /// the position different (2009 dropped 2005's "temporarily or permanently"). Equal to
    /// [`Position::repetition_key`] whenever every right can be used, or there is none.
    pub fn possible_moves_key(&self) -> u64 {
        if self.castling.is_empty() {
            return self.repetition_key();
        }
        self.identity_key(self.castling_possible())
    }

    fn identity_key(&self, castling: Bitboard) -> u64 {
        let mut h = 0u64;
        for c in Color::ALL {
            for r in Role::ALL {
                for sq in self.by_role[r.index()] & self.by_color[c.index()] {
                    h ^= zobrist::piece(c, r, sq);
                }
            }
        }
        for sq in castling {
            h ^= zobrist::castling(sq);
        }
        if let Some(ep) = self.legal_ep_square() {
            h ^= zobrist::ep_file(ep.file());
        }
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move();
        }
        h
    }
}

// Material and dead positions (FIDE 6.9, 9.6), and questions about one move.
impl Position {
    /// True if `color` cannot checkmate by any series of legal moves, judged by material
    /// (FIDE 6.9 and 9.6; seed 004: a lone king, K+B or K+N against K, bishops all on one
    /// colour). Cases where the opponent's own pieces could help a mate (a knight against
    /// rooks or pawns, a bishop against knights or pawns) count as sufficient.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.by_color[color.index()];
        if (ours & (self.pawns() | self.rooks() | self.queens())).any() {
            return false;
        }
        if (ours & self.knights()).any() {
            // One knight, and the opponent has nothing that could block its own king in.
            return ours.count() <= 2
                && (self.by_color[(!color).index()] & !self.kings() & !self.queens()).is_empty();
        }
        if (ours & self.bishops()).any() {
            let bishops = self.bishops();
            let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return one_colour && self.pawns().is_empty() && self.knights().is_empty();
        }
        true
    }

    /// FIDE 9.6 / seed 004: neither side can mate, so the game is drawn at once.
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }

    /// True if the move gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut p = self.clone();
        p.play_unchecked(m);
        p.is_check()
    }

    /// True if the move is a capture (including en passant; never castling).
    pub fn is_capture(&self, m: Move) -> bool {
        match m.kind {
            MoveKind::EnPassant => true,
            MoveKind::Castle => false,
            _ => self.by_color[(!self.turn).index()].contains(m.to),
        }
    }

    /// The role of the piece a legal move moves.
    pub fn moving_role(&self, m: Move) -> Role {
        self.role_at(m.from).unwrap_or(Role::Pawn)
    }

    /// True if pieces `a` and `b` squares are on one line with `c` (helper for notation).
    pub fn aligned(a: Square, b: Square, c: Square) -> bool {
        aligned(a, b, c)
    }
}

/// Files a..=file (inclusive) as a bitboard.
fn files_up_to(file: u8) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for f in 0..=file {
        b |= Bitboard::file(f);
    }
    b
}
