//! A legal chess position (standard or Chess960) with legal move generation and make-move.
//!
//! [`Setup`] is an untrusted description (public fields, anything goes); [`Position`] is only
//! reachable through [`Position::from_setup`], which checks it, so every `Position` is legal
//! and every [`Move`] produced by [`Position::legal_moves`] can be played without checks.

use crate::attacks::{
    aligned, between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::types::{Color, Move, MoveKind, Piece, Role, Square};
use crate::zobrist;

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
    fn for_each(self, mut f: impl FnMut(Move)) {
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

    /// Chess960 start position number `n` (0..=959) in the Scharnagl numbering, where 518 is
    /// the standard position (FIDE Appendix F2: bishops on opposite colours, king between
    /// the rooks, Black mirroring White).
    ///
    /// # Errors
    /// `None` if `n > 959`.
    pub fn chess960(n: u16) -> Option<Position> {
        let back = chess960_back_rank(n)?;
        let mut setup = Setup::empty();
        for (file, role) in back.iter().enumerate() {
            let f = file as u8;
            setup.board[Square::from_coords(f, 0).index()] = Some(Piece {
                color: Color::White,
                role: *role,
            });
            setup.board[Square::from_coords(f, 7).index()] = Some(Piece {
                color: Color::Black,
                role: *role,
            });
            setup.board[Square::from_coords(f, 1).index()] = Some(Piece {
                color: Color::White,
                role: Role::Pawn,
            });
            setup.board[Square::from_coords(f, 6).index()] = Some(Piece {
                color: Color::Black,
                role: Role::Pawn,
            });
            if *role == Role::Rook {
                setup.castling_rooks = setup
                    .castling_rooks
                    .with(Square::from_coords(f, 0))
                    .with(Square::from_coords(f, 7));
            }
        }
        let mode = if n == 518 {
            CastlingMode::Standard
        } else {
            CastlingMode::Chess960
        };
        Position::from_setup(&setup, mode).ok()
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

    // ----- accessors -----

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

    /// Zobrist hash of what FIDE 9.2 calls "the same position": pieces, side to move,
    /// castling rights and *legal* en passant captures. Move counters are not included.
    pub fn repetition_key(&self) -> u64 {
        let mut h = 0u64;
        for c in Color::ALL {
            for r in Role::ALL {
                for sq in self.by_role[r.index()] & self.by_color[c.index()] {
                    h ^= zobrist::piece(c, r, sq);
                }
            }
        }
        for sq in self.castling {
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

    // ----- move generation -----

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

        // Castling (FIDE 3.8b, Appendix F3): never out of check; every square between king
        // and its destination and between rook and its destination empty but for the pair;
        // no square the king crosses or lands on attacked.
        if checkers.is_empty() {
            for rook in self.castling & ours {
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
                    continue;
                }
                let occ_without = occ & !pair;
                let king_path = between(king, king_dest) | Bitboard::from_square(king_dest);
                if Iterator::any(&mut king_path.into_iter(), |sq| {
                    self.attackers_to(sq, them, occ_without).any()
                }) {
                    continue;
                }
                // A castling rook pinned along the first rank cannot expose the king: the
                // attacker would then hit the king's destination, checked above.
                sink(PieceMoves {
                    from: king,
                    to: Bitboard::from_square(rook),
                    kind: GenKind::Castle,
                });
            }
        }
    }

    // ----- making moves -----

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

    // ----- material and dead positions -----

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

/// Files a..=file (inclusive) as a bitboard.
fn files_up_to(file: u8) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for f in 0..=file {
        b |= Bitboard::file(f);
    }
    b
}

/// The back rank of Chess960 position `n` (Scharnagl numbering; FIDE Appendix F1/F2).
pub fn chess960_back_rank(n: u16) -> Option<[Role; 8]> {
    if n > 959 {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = n as usize;
    // Light-squared bishop (b, d, f, h files), then dark-squared (a, c, e, g).
    let b1 = n % 4;
    n /= 4;
    rank[b1 * 2 + 1] = Some(Role::Bishop);
    let b2 = n % 4;
    n /= 4;
    rank[b2 * 2] = Some(Role::Bishop);
    let q = n % 6;
    n /= 6;
    place_nth_empty(&mut rank, q, Role::Queen);
    // The ten knight placements among the five remaining squares.
    const KN: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (k1, k2) = KN[n];
    // Place the second first so the first index is unaffected.
    place_nth_empty(&mut rank, k2, Role::Knight);
    place_nth_empty(&mut rank, k1, Role::Knight);
    // Remaining three: rook, king, rook.
    place_nth_empty(&mut rank, 0, Role::Rook);
    place_nth_empty(&mut rank, 0, Role::King);
    place_nth_empty(&mut rank, 0, Role::Rook);
    let mut out = [Role::Pawn; 8];
    for (o, r) in out.iter_mut().zip(rank) {
        *o = r?;
    }
    Some(out)
}

fn place_nth_empty(rank: &mut [Option<Role>; 8], n: usize, role: Role) {
    if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(n) {
        *slot = Some(role);
    }
}

/// The Scharnagl number of a back rank, if it is a Chess960 start (the inverse of
/// [`chess960_back_rank`]).
pub fn chess960_number(back: &[Role; 8]) -> Option<u16> {
    (0..960u16).find(|&n| chess960_back_rank(n).as_ref() == Some(back))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_start_position_equals_scharnagl_518() {
        assert_eq!(Position::new(), Position::chess960(518).unwrap());
    }

    #[test]
    fn start_position_has_20_moves() {
        let p = Position::new();
        assert_eq!(p.legal_moves().len(), 20);
        assert_eq!(p.perft(3), 8902);
    }

    #[test]
    fn scharnagl_518_is_standard_and_0_is_bbqnnrkr() {
        let std = chess960_back_rank(518).unwrap();
        assert_eq!(
            std,
            [
                Role::Rook,
                Role::Knight,
                Role::Bishop,
                Role::Queen,
                Role::King,
                Role::Bishop,
                Role::Knight,
                Role::Rook
            ]
        );
        let zero: String = chess960_back_rank(0)
            .unwrap()
            .iter()
            .map(|r| r.char())
            .collect();
        assert_eq!(zero, "bbqnnrkr");
        assert_eq!(chess960_number(&std), Some(518));
    }
}
