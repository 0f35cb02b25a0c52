//! Step 2 of reading SAN: the one legal move a [`San`] names in a position, or why there is none
//! or more than one, in a player's words; and the other way, the canonical SAN of a legal move
//! (minimal disambiguation needs the same look at the position).

use super::lang::Letters;
use super::{CastlingSide, San, SanError};
use crate::{
    Bitboard, Color, Move, MoveKind, Position, Role, Square, between, bishop_attacks, king_attacks,
    knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};

impl San {
    /// The SAN of a legal move (without suffix): minimal disambiguation, by file first,
    /// then rank, then both (FIDE E10).
    pub fn from_move(pos: &Position, mv: Move) -> San {
        if mv.is_castle() {
            return San::Castle(if mv.is_king_side_castle() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            });
        }
        let role = pos.moving_role(mv);
        let capture = pos.is_capture(mv);
        let (file, rank) = if role == Role::Pawn {
            // FIDE E9: a pawn capture names the pawn's file.
            (capture.then_some(mv.from.file()), None)
        } else if role == Role::King {
            (None, None)
        } else {
            let others = legal_origins(pos, role, mv.to, !Bitboard::from_square(mv.from));
            let rivals = others.any();
            let same_file = (others & Bitboard::file(mv.from.file())).any();
            let same_rank = (others & Bitboard::rank(mv.from.rank())).any();
            match (rivals, same_file, same_rank) {
                (false, _, _) => (None, None),
                (true, false, _) => (Some(mv.from.file()), None),
                (true, true, false) => (None, Some(mv.from.rank())),
                (true, true, true) => (Some(mv.from.file()), Some(mv.from.rank())),
            }
        };
        San::Normal {
            role,
            file,
            rank,
            capture,
            to: mv.to,
            promotion: mv.promotion(),
        }
    }

    pub(super) fn write(&self, letters: Letters) -> String {
        let mut out = String::with_capacity(8);
        match *self {
            San::Castle(CastlingSide::KingSide) => out.push_str("O-O"),
            San::Castle(CastlingSide::QueenSide) => out.push_str("O-O-O"),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                // A pawn capture read without its file (`Pxd5`) keeps its letter, so that it
                // reads back; canonical SAN always names the file instead.
                if role != Role::Pawn || (capture && file.is_none()) {
                    out.push(letters.piece(role));
                }
                if let Some(f) = file {
                    out.push((b'a' + (f & 7)) as char);
                }
                if let Some(r) = rank {
                    out.push((b'1' + (r & 7)) as char);
                }
                if capture {
                    out.push('x');
                }
                out.push(to.file_char());
                out.push(to.rank_char());
                if let Some(p) = promotion {
                    out.push('=');
                    out.push(letters.piece(p));
                }
            }
        }
        out
    }

    /// The one legal move this SAN names in `pos`.
    ///
    /// Tolerant as players are: a missing or surplus capture mark is ignored. Castling is
    /// only `O-O`/`O-O-O`, never a king move written to the destination.
    ///
    /// # Errors
    /// [`SanError::Illegal`] with the reason (`no queen can reach d5`, `a pawn reaching the
    /// last rank must promote`, why castling is not possible) or [`SanError::Ambiguous`]
    /// naming the pieces that could make the move.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        match *self {
            San::Castle(side) => castle_move(pos, side).map_err(|reason| SanError::Illegal {
                san: self.to_string(),
                reason,
            }),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                // Fast path: one legal origin and a consistent promotion. Anything else
                // (errors, ambiguity) goes through full generation for a precise reason.
                let mut mask = Bitboard::FULL;
                if let Some(f) = file {
                    mask &= Bitboard::file(f);
                }
                if let Some(r) = rank {
                    mask &= Bitboard::rank(r);
                }
                if role == Role::Pawn && file.is_none() {
                    mask &= pawn_files(to, capture);
                }
                if let Some(from) = legal_origins(pos, role, to, mask).single() {
                    let last_rank = to.rank() == (!pos.turn()).back_rank();
                    let kind = match (role, promotion) {
                        (Role::Pawn, Some(p)) if last_rank && Role::PROMOTIONS.contains(&p) => {
                            Some(MoveKind::Promotion(p))
                        }
                        (Role::Pawn, None) if !last_rank => {
                            Some(if pos.ep_square() == Some(to) && from.file() != to.file() {
                                MoveKind::EnPassant
                            } else {
                                MoveKind::Normal
                            })
                        }
                        (Role::Pawn, _) | (_, Some(_)) => None,
                        (_, None) => Some(MoveKind::Normal),
                    };
                    if let Some(kind) = kind {
                        return Ok(Move::new(from, to, kind));
                    }
                }
                self.to_move_by_generation(pos)
            }
        }
    }

    /// The slow, exact path of [`San::to_move`] for a piece move: all legal moves to `to`
    /// of that piece, with the reason when not exactly one matches.
    fn to_move_by_generation(self, pos: &Position) -> Result<Move, SanError> {
        match self {
            San::Castle(side) => castle_move(pos, side).map_err(|reason| SanError::Illegal {
                san: self.to_string(),
                reason,
            }),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if let Some(p) = promotion
                    && !Role::PROMOTIONS.contains(&p)
                {
                    // FIDE 3.7e: a queen, rook, bishop or knight, nothing else.
                    return Err(SanError::IllegalPromotion {
                        san: self.to_string(),
                        role: p,
                    });
                }
                let list = pos.legal_moves_filtered(Some(role), Bitboard::from_square(to));
                let mut found: Option<Move> = None;
                let mut more = false;
                let mut must_promote = false;
                let mut cannot_promote = false;
                for &m in list.iter() {
                    if m.is_castle()
                        || file.is_some_and(|f| m.from.file() != f)
                        || rank.is_some_and(|r| m.from.rank() != r)
                        || (role == Role::Pawn
                            && file.is_none()
                            && !pawn_files(to, capture).contains(m.from))
                    {
                        continue;
                    }
                    match (m.kind, promotion) {
                        (MoveKind::Promotion(r), Some(p)) if r == p => {}
                        (MoveKind::Promotion(_), Some(_)) => continue,
                        (MoveKind::Promotion(_), None) => {
                            must_promote = true;
                            continue;
                        }
                        (_, Some(_)) => {
                            cannot_promote = true;
                            continue;
                        }
                        _ => {}
                    }
                    if found.is_some() {
                        more = true;
                    } else {
                        found = Some(m);
                    }
                }
                match found {
                    Some(m) if !more => Ok(m),
                    Some(_) => Err(self.ambiguity(&list)),
                    None => Err(SanError::Illegal {
                        san: self.to_string(),
                        reason: if must_promote {
                            // FIDE 3.7e
                            "a pawn reaching the last rank must promote".into()
                        } else if cannot_promote {
                            "only a pawn reaching the last rank can promote".into()
                        } else {
                            why_unreachable(pos, role, file, rank, capture, to)
                        },
                    }),
                }
            }
        }
    }

    fn ambiguity(&self, list: &[Move]) -> SanError {
        let San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } = *self
        else {
            return SanError::Illegal {
                san: self.to_string(),
                reason: "ambiguous castling".into(),
            };
        };
        let candidates: Vec<Move> = list
            .iter()
            .copied()
            .filter(|m| {
                !m.is_castle()
                    && file.is_none_or(|f| m.from.file() == f)
                    && rank.is_none_or(|r| m.from.rank() == r)
                    && (role != Role::Pawn
                        || file.is_some()
                        || pawn_files(to, capture).contains(m.from))
                    && m.promotion() == promotion
            })
            .collect();
        let mut froms: Vec<Square> = candidates.iter().map(|m| m.from).collect();
        froms.sort_by_key(|s| (s.file(), s.rank()));
        SanError::Ambiguous {
            san: self.to_string(),
            reason: format!(
                "{}s on {} can reach {to}",
                role.name(),
                list_squares(&froms)
            ),
            candidates,
        }
    }
}

/// The squares in `from_mask` from which a piece of `role` of the side to move can legally
/// go to `to` (castling aside). Found by looking back from `to` and testing each origin for
/// leaving the own king attacked (FIDE 3.9) rather than generating every move: this is the
/// hot path of replaying a scoresheet.
pub(crate) fn legal_origins(
    pos: &Position,
    role: Role,
    to: Square,
    from_mask: Bitboard,
) -> Bitboard {
    let us = pos.turn();
    let them = !us;
    let ours = pos.by_color(us);
    let theirs = pos.by_color(them);
    let occ = ours | theirs;
    if ours.contains(to) {
        return Bitboard::EMPTY;
    }
    let mine = pos.by_piece(crate::Piece { color: us, role }) & from_mask;
    let en_passant = role == Role::Pawn && pos.ep_square() == Some(to) && !occ.contains(to);
    let origins = match role {
        Role::Knight => knight_attacks(to) & mine,
        Role::Bishop => bishop_attacks(to, occ) & mine,
        Role::Rook => rook_attacks(to, occ) & mine,
        Role::Queen => queen_attacks(to, occ) & mine,
        Role::King => king_attacks(to) & mine,
        Role::Pawn => {
            let mut o = Bitboard::EMPTY;
            if theirs.contains(to) || en_passant {
                o |= pawn_attacks(them, to) & mine;
            }
            if !occ.contains(to) {
                let (back, double_push_rank): (i32, u8) = match us {
                    Color::White => (-8, 3),
                    Color::Black => (8, 4),
                };
                let one = to.index() as i32 + back;
                if (0..64).contains(&one) {
                    let one = Square::new(one as u8);
                    if mine.contains(one) {
                        o |= Bitboard::from_square(one);
                    } else if !occ.contains(one) && to.rank() == double_push_rank {
                        let two = Square::new((one.index() as i32 + back) as u8);
                        o |= Bitboard::from_square(two) & mine;
                    }
                }
            }
            o
        }
    };
    let king = pos.king_of(us);
    let mut legal = Bitboard::EMPTY;
    for from in origins {
        let captured = if en_passant && from.file() != to.file() {
            Square::from_coords(to.file(), from.rank())
        } else {
            to
        };
        let captured_bb = Bitboard::from_square(captured);
        let occ_after =
            (occ & !Bitboard::from_square(from) & !captured_bb) | Bitboard::from_square(to);
        let king_after = if role == Role::King { to } else { king };
        if (pos.attackers_to(king_after, them, occ_after) & !captured_bb).is_empty() {
            legal |= Bitboard::from_square(from);
        }
    }
    legal
}

/// Where a pawn written without its file may come from: straight behind `to` (FIDE C8/E8:
/// `e4`), or for a capture written with the pawn's letter (`Pxd5`), from a neighbouring file.
fn pawn_files(to: Square, capture: bool) -> Bitboard {
    if capture {
        !Bitboard::file(to.file())
    } else {
        Bitboard::file(to.file())
    }
}

/// `b8`, `b8 and f6`, `a1, b2 and c3`.
fn list_squares(squares: &[Square]) -> String {
    let mut out = String::new();
    for (i, sq) in squares.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == squares.len() {
                " and "
            } else {
                ", "
            });
        }
        out.push_str(&sq.to_string());
    }
    out
}

/// Where a piece of `role` on `from` could go ignoring pins and checks.
pub(crate) fn pseudo_targets(pos: &Position, role: Role, from: Square) -> Bitboard {
    let us = pos.turn();
    let occ = pos.occupied();
    let t = match role {
        Role::Knight => knight_attacks(from),
        Role::Bishop => bishop_attacks(from, occ),
        Role::Rook => rook_attacks(from, occ),
        Role::Queen => queen_attacks(from, occ),
        Role::King => king_attacks(from),
        Role::Pawn => {
            let mut t = pawn_attacks(us, from) & pos.by_color(!us);
            if let Some(ep) = pos.ep_square() {
                t |= pawn_attacks(us, from) & Bitboard::from_square(ep);
            }
            let step: i8 = if us == Color::White { 8 } else { -8 };
            let one = from.index() as i8 + step;
            if (0..64).contains(&one) && !occ.contains(Square::new(one as u8)) {
                t |= Bitboard::from_square(Square::new(one as u8));
                let start = if us == Color::White { 1 } else { 6 };
                let two = one + step;
                if from.rank() == start && !occ.contains(Square::new(two as u8)) {
                    t |= Bitboard::from_square(Square::new(two as u8));
                }
            }
            t
        }
    };
    t & !pos.by_color(us)
}

/// The reason a move of a piece to `to` matches no legal move, in a player's words.
fn why_unreachable(
    pos: &Position,
    role: Role,
    file: Option<u8>,
    rank: Option<u8>,
    capture: bool,
    to: Square,
) -> String {
    let us = pos.turn();
    let name = role.name();
    let verb = if role == Role::Pawn
        && (file.is_some_and(|f| f != to.file()) || (file.is_none() && capture))
    {
        "capture on"
    } else if role == Role::Pawn {
        "move to"
    } else {
        "reach"
    };
    if let Some(p) = pos.piece_at(to)
        && p.color == us
    {
        return format!("{to} is occupied by a {} {}", us.name(), p.role.name());
    }
    let ours = pos.by_piece(crate::Piece { color: us, role });
    if ours.is_empty() {
        return format!("{} has no {name}", us.name());
    }
    let written =
        |sq: Square| file.is_none_or(|f| sq.file() == f) && rank.is_none_or(|r| sq.rank() == r);
    // Could this piece make this kind of move there, ignoring its own king?
    let could = |sq: Square| {
        pseudo_targets(pos, role, sq).contains(to)
            && (role != Role::Pawn || (verb == "move to") == (sq.file() == to.file()))
    };
    // FIDE 3.9: a move may not leave or place one's own king in check.
    if let Some(from) = Iterator::find(&mut ours.into_iter(), |&sq| written(sq) && could(sq)) {
        return format!(
            "moving the {name} from {from} to {to} would leave the {} king in check",
            us.name()
        );
    }
    // Name the origin only when another piece could have gone there.
    let qualifier = if Iterator::any(&mut ours.into_iter(), could) {
        match (file, rank) {
            (Some(f), Some(r)) => format!(" on {}", Square::from_coords(f, r)),
            (Some(f), None) => format!(" on the {}-file", (b'a' + (f & 7)) as char),
            (None, Some(r)) => format!(" on rank {}", r + 1),
            (None, None) => String::new(),
        }
    } else {
        String::new()
    };
    format!("no {name}{qualifier} can {verb} {to}")
}

/// Finds the castling move on `side`, or says why it is not possible (FIDE 3.8b).
pub(super) fn castle_move(pos: &Position, side: CastlingSide) -> Result<Move, String> {
    let us = pos.turn();
    let king = pos.king_of(us);
    let rooks = pos.castling_rooks() & Bitboard::rank(us.back_rank()) & pos.by_color(us);
    let on_side = |sq: Square| match side {
        CastlingSide::KingSide => sq.file() > king.file(),
        CastlingSide::QueenSide => sq.file() < king.file(),
    };
    let list = pos.legal_moves_filtered(Some(Role::King), rooks);
    if let Some(&m) = list.iter().find(|m| m.is_castle() && on_side(m.to)) {
        return Ok(m);
    }
    let why = |reason: &str| format!("castling {} is not possible: {reason}", side.name());
    let Some(rook) = rooks.into_iter().find(|&sq| on_side(sq)) else {
        return Err(why(&format!(
            "{} has lost the right (the king or that rook has moved)",
            us.name()
        )));
    };
    if pos.is_check() {
        return Err(why("the king is in check"));
    }
    let rank = king.rank();
    let (king_dest, rook_dest) = match side {
        CastlingSide::KingSide => (Square::from_coords(6, rank), Square::from_coords(5, rank)),
        CastlingSide::QueenSide => (Square::from_coords(2, rank), Square::from_coords(3, rank)),
    };
    let pair = Bitboard::from_square(king) | Bitboard::from_square(rook);
    let must_be_empty = (between(king, king_dest)
        | Bitboard::from_square(king_dest)
        | between(rook, rook_dest)
        | Bitboard::from_square(rook_dest))
        & !pair;
    if (must_be_empty & pos.occupied()).any() {
        return Err(why("there are pieces in the way"));
    }
    Err(why(&format!(
        "the king would pass through or land on a square attacked by {}",
        (!us).name()
    )))
}
