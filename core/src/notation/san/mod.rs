//! Standard Algebraic Notation (SAN): FIDE Laws 2005 Appendix E (Appendix C in the 2009
//! text), with English (`K Q R B N`) or Spanish (`R D T A C`) piece letters, and figurines.
//!
//! Reading is split in two steps, as the Laws split "what was written" from "what is legal":
//!
//! 1. [`SanPlus::parse`] reads the text alone and fails with a [`ParseSanError`] (syntax).
//! 2. [`San::to_move`] finds the one legal move it names in a position, or fails with a
//!    [`SanError`] (illegal or ambiguous) giving a reason a player understands.
//!
//! [`parse_san`] does both, including [`Lang::Auto`], where `R` may be a rook (English) or
//! a king (Spanish, *rey*). Reading is tolerant of what players really write (`0-0`,
//! `exd6 a.p.`, `d8D`, `e4:d5`, `Cg1-f3`, `1.e4`, `5…Cf6`, a missing or surplus `x` or `+`);
//! writing ([`to_san`], [`to_figurine`]) is canonical: minimal disambiguation, `x`, `=Q`,
//! `O-O`, `+`/`#`.

use std::fmt;

use crate::{
    Bitboard, Color, Move, MoveKind, Position, Role, Square, between, bishop_attacks, king_attacks,
    knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};

/// Which letters name the pieces (FIDE Appendix E2/E3: each player may use the letters of
/// their own language).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// `K Q R B N` (king, queen, rook, bishop, knight).
    #[default]
    English,
    /// `R D T A C` (rey, dama, torre, alfil, caballo). Note `R` is the *king* here.
    Spanish,
    /// Reading: try both languages; see [`parse_san`]. Writing: English.
    Auto,
}

impl Lang {
    fn name(self) -> &'static str {
        match self {
            Lang::English | Lang::Auto => "English",
            Lang::Spanish => "Spanish",
        }
    }

    fn letters_hint(self) -> &'static str {
        match self {
            Lang::English | Lang::Auto => "K Q R B N",
            Lang::Spanish => "R D T A C",
        }
    }

    /// The piece named by an upper-case letter in this language (`P` is a pawn in both).
    fn role(self, letter: char) -> Option<Role> {
        match self {
            Lang::English | Lang::Auto => english_role(letter),
            Lang::Spanish => spanish_role(letter),
        }
    }
}

fn english_role(c: char) -> Option<Role> {
    Some(match c {
        'K' => Role::King,
        'Q' => Role::Queen,
        'R' => Role::Rook,
        'B' => Role::Bishop,
        'N' => Role::Knight,
        'P' => Role::Pawn,
        _ => return None,
    })
}

fn spanish_role(c: char) -> Option<Role> {
    Some(match c {
        'R' => Role::King,
        'D' => Role::Queen,
        'T' => Role::Rook,
        'A' => Role::Bishop,
        'C' => Role::Knight,
        'P' => Role::Pawn,
        _ => return None,
    })
}

/// Figurines of either colour (FIDE E3 recommends them in print).
fn figurine_role(c: char) -> Option<Role> {
    Some(match c {
        '♔' | '♚' => Role::King,
        '♕' | '♛' => Role::Queen,
        '♖' | '♜' => Role::Rook,
        '♗' | '♝' => Role::Bishop,
        '♘' | '♞' => Role::Knight,
        '♙' | '♟' => Role::Pawn,
        _ => return None,
    })
}

/// How pieces are written on output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Letters {
    English,
    Spanish,
    Figurine,
}

impl Letters {
    fn of(lang: Lang) -> Letters {
        match lang {
            Lang::English | Lang::Auto => Letters::English,
            Lang::Spanish => Letters::Spanish,
        }
    }

    fn piece(self, role: Role) -> char {
        match (self, role) {
            (_, Role::Pawn) => 'P',
            (Letters::English, Role::King) => 'K',
            (Letters::English, Role::Queen) => 'Q',
            (Letters::English, Role::Rook) => 'R',
            (Letters::English, Role::Bishop) => 'B',
            (Letters::English, Role::Knight) => 'N',
            (Letters::Spanish, Role::King) => 'R',
            (Letters::Spanish, Role::Queen) => 'D',
            (Letters::Spanish, Role::Rook) => 'T',
            (Letters::Spanish, Role::Bishop) => 'A',
            (Letters::Spanish, Role::Knight) => 'C',
            (Letters::Figurine, Role::King) => '♔',
            (Letters::Figurine, Role::Queen) => '♕',
            (Letters::Figurine, Role::Rook) => '♖',
            (Letters::Figurine, Role::Bishop) => '♗',
            (Letters::Figurine, Role::Knight) => '♘',
        }
    }
}

/// King side (`O-O`) or queen side (`O-O-O`), FIDE 3.8b. In Chess960 the side is that of the
/// rook (Appendix F).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// With the rook on the king's h-file side: `O-O`.
    KingSide,
    /// With the rook on the king's a-file side: `O-O-O`.
    QueenSide,
}

impl CastlingSide {
    /// `"king side"` or `"queen side"`, for messages.
    pub fn name(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "king side",
            CastlingSide::QueenSide => "queen side",
        }
    }
}

/// A move as SAN writes it, independent of any position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move. `file`/`rank` (0-based) are the disambiguation written, or the
    /// whole origin square in long algebraic (`Cg1-f3`).
    Normal {
        /// The piece that moves.
        role: Role,
        /// File of origin, if written.
        file: Option<u8>,
        /// Rank of origin, if written.
        rank: Option<u8>,
        /// Whether a capture was marked (`x` or `:`). Only advisory when reading.
        capture: bool,
        /// Destination square.
        to: Square,
        /// The piece a pawn promotes to (FIDE 3.7e).
        promotion: Option<Role>,
    },
    /// Castling (FIDE 3.8b), `O-O` or `O-O-O`.
    Castle(CastlingSide),
}

/// Check or mate marker (`+`, `#`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#` (also read: `++`, `‡`)
    Checkmate,
}

/// SAN with what may be written around it: a check/mate marker, an en passant marker
/// (`e.p.`, `a.p.`) and a draw offer (`(=)`, FIDE E13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move itself.
    pub san: San,
    /// `+` or `#`, as written (reading) or as true (writing).
    pub suffix: Option<Suffix>,
    /// `e.p.` / `a.p.` was written (FIDE E9). Never written on output.
    pub en_passant_marker: bool,
    /// `(=)` was written after the move: a draw offer (FIDE E13).
    pub draw_offer: bool,
}

/// The text could not be read as SAN at all (before looking at any position).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read `{text}` as algebraic notation: {reason}")]
pub struct ParseSanError {
    text: String,
    reason: String,
}

impl ParseSanError {
    fn new(text: &str, reason: impl Into<String>) -> ParseSanError {
        ParseSanError {
            text: text.trim().to_owned(),
            reason: reason.into(),
        }
    }

    /// The text as given (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why it could not be read.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// A readable SAN that does not name exactly one legal move in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// No legal move matches (FIDE 3.10: the move is not legal).
    #[error("{san} is illegal: {reason}")]
    Illegal {
        /// The move as written.
        san: String,
        /// Why, in words (`no queen can reach d5`).
        reason: String,
    },
    /// More than one legal move matches; the candidates are listed.
    #[error("{san} is ambiguous: {reason}")]
    Ambiguous {
        /// The move as written.
        san: String,
        /// Which pieces could make it (`knights on b8 and f6 can reach d7`).
        reason: String,
        /// The legal moves it could mean.
        candidates: Vec<Move>,
    },
}

impl SanError {
    /// The reason alone, without the move.
    pub fn reason(&self) -> &str {
        match self {
            SanError::Illegal { reason, .. } | SanError::Ambiguous { reason, .. } => reason,
        }
    }

    fn with_text(mut self, text: &str) -> SanError {
        let t = text.trim().to_owned();
        match &mut self {
            SanError::Illegal { san, .. } | SanError::Ambiguous { san, .. } => *san = t,
        }
        self
    }
}

/// Either error of [`parse_san`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadSanError {
    /// Not SAN at all.
    #[error(transparent)]
    Syntax(#[from] ParseSanError),
    /// SAN, but not one legal move here.
    #[error(transparent)]
    Rules(#[from] SanError),
}

// ----- reading: syntax -----

/// A piece as written: a letter whose meaning depends on the language, or a figurine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Letter(char),
    Figurine(Role),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RawBody {
    Castle(CastlingSide),
    Normal {
        piece: Option<Token>,
        file: Option<u8>,
        rank: Option<u8>,
        capture: bool,
        to: Square,
        promotion: Option<Token>,
    },
}

/// SAN read without deciding the language of its letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Raw {
    body: RawBody,
    suffix: Option<Suffix>,
    en_passant_marker: bool,
    draw_offer: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    File(u8),
    Rank(u8),
    Capture,
    Dash,
}

/// Drops a move number written before the move: `1.e4`, `1e4`, `5...Cf6`, `5…Cf6`,
/// `10.0-0-0`. A leading `0` is castling, never a move number.
fn strip_move_number(s: &str) -> &str {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let s = if digits > 0 && !s.starts_with('0') {
        let rest = &s[digits..];
        let dotted = rest.trim_start_matches(['.', '…']);
        if dotted.len() < rest.len() {
            dotted
        } else if rest.starts_with(|c: char| c.is_alphabetic() || figurine_role(c).is_some()) {
            rest
        } else {
            s
        }
    } else {
        s
    };
    s.trim_start_matches(['.', '…']).trim_start()
}

/// Markers of an en passant capture (FIDE E9 writes `a.p.` in Spanish, `e.p.` in English).
const EP_MARKERS: [&str; 8] = ["a. p.", "e. p.", "a.p.", "e.p.", "a.p", "e.p", "ep", "ap"];

fn strip_ep_marker(s: &str) -> Option<&str> {
    EP_MARKERS.iter().find_map(|m| s.strip_suffix(m))
}

fn token(c: char) -> Option<Token> {
    if let Some(r) = figurine_role(c) {
        Some(Token::Figurine(r))
    } else if c.is_ascii_alphabetic() {
        Some(Token::Letter(c.to_ascii_uppercase()))
    } else {
        None
    }
}

/// The common shape (`Nf3`, `exd5`, `Rfe1+`, `e8=Q#`) read byte by byte; `None` sends
/// everything else (and every error) to the general reader, which accepts a superset.
fn parse_plain(b: &[u8]) -> Option<Raw> {
    let (b, suffix) = match b {
        [rest @ .., b'+'] => (rest, Some(Suffix::Check)),
        [rest @ .., b'#'] => (rest, Some(Suffix::Checkmate)),
        _ => (b, None),
    };
    let (piece, b) = match b {
        [c @ b'A'..=b'Z', rest @ ..] if *c != b'O' => (Some(Token::Letter(*c as char)), rest),
        _ => (None, b),
    };
    let (b, promotion) = match b {
        [rest @ .., b'=', c @ b'A'..=b'Z'] | [rest @ .., c @ b'A'..=b'Z'] => {
            (rest, Some(Token::Letter(*c as char)))
        }
        _ => (b, None),
    };
    let (b, to) = match b {
        [rest @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            (rest, Square::from_coords(f - b'a', r - b'1'))
        }
        _ => return None,
    };
    let (b, capture) = match b {
        [rest @ .., b'x'] => (rest, true),
        _ => (b, false),
    };
    let (file, rank) = match b {
        [] => (None, None),
        [f @ b'a'..=b'h'] => (Some(f - b'a'), None),
        // Without a piece letter a leading digit is a move number (`1e4`).
        [r @ b'1'..=b'8'] if piece.is_some() => (None, Some(r - b'1')),
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (Some(f - b'a'), Some(r - b'1')),
        _ => return None,
    };
    Some(Raw {
        body: RawBody::Normal {
            piece,
            file,
            rank,
            capture,
            to,
            promotion,
        },
        suffix,
        en_passant_marker: false,
        draw_offer: false,
    })
}

fn parse_raw(text: &str) -> Result<Raw, String> {
    let text = text.trim();
    if let Some(raw) = parse_plain(text.as_bytes()) {
        return Ok(raw);
    }
    parse_general(text)
}

/// Everything [`parse_raw`] accepts, including what players add around a move.
fn parse_general(text: &str) -> Result<Raw, String> {
    let mut s = strip_move_number(text);
    let mut suffix = None;
    let mut en_passant_marker = false;
    let mut draw_offer = false;
    loop {
        s = s.trim_end();
        // Fast exit: the move itself ends in a rank digit, a promotion letter or castling's O.
        match s.as_bytes().last() {
            Some(&b) if b.is_ascii_digit() || (b.is_ascii_alphabetic() && b != b'p') => break,
            None => break,
            _ => {}
        }
        if let Some(r) = s.strip_suffix("(=)") {
            draw_offer = true;
            s = r;
            continue;
        }
        if let Some(r) = strip_ep_marker(s) {
            en_passant_marker = true;
            s = r;
            continue;
        }
        let Some(c) = s.chars().next_back() else {
            break;
        };
        match c {
            '!' | '?' => {}
            '+' => {
                suffix = Some(match suffix {
                    None => Suffix::Check,
                    Some(_) => Suffix::Checkmate,
                });
            }
            '#' | '‡' => suffix = Some(Suffix::Checkmate),
            _ => break,
        }
        s = &s[..s.len() - c.len_utf8()];
    }
    if s.is_empty() {
        return Err("no move written".into());
    }

    let body = if s.chars().all(|c| matches!(c, 'O' | 'o' | '0' | '-')) {
        let letters = s.chars().filter(|&c| c != '-').count();
        if s.starts_with('-') || s.ends_with('-') || s.contains("--") {
            return Err("castling is written O-O or O-O-O".into());
        }
        match letters {
            2 => RawBody::Castle(CastlingSide::KingSide),
            3 => RawBody::Castle(CastlingSide::QueenSide),
            _ => return Err("castling is written O-O or O-O-O".into()),
        }
    } else {
        parse_normal(s)?
    };
    Ok(Raw {
        body,
        suffix,
        en_passant_marker,
        draw_offer,
    })
}

fn parse_normal(s: &str) -> Result<RawBody, String> {
    let mut rest = s;
    let mut piece = None;
    if let Some(first) = s.chars().next() {
        if let Some(r) = figurine_role(first) {
            piece = Some(Token::Figurine(r));
            rest = &s[first.len_utf8()..];
        } else if first.is_ascii_uppercase() {
            piece = Some(Token::Letter(first));
            rest = &s[1..];
        }
    }

    // Promotion at the end: `d8=Q`, `d8Q`, `d8(Q)`, `d8/Q`, `d8D`, `d8♕`.
    let mut promotion = None;
    if let Some(inner) = rest.strip_suffix(')') {
        let Some(open) = inner.rfind('(') else {
            return Err("unbalanced parenthesis".into());
        };
        let mut inside = inner[open + 1..].chars();
        promotion = match (inside.next().and_then(token), inside.next()) {
            (Some(t), None) => Some(t),
            _ => return Err("expected one piece letter inside the parentheses".into()),
        };
        rest = &inner[..open];
    } else if let Some(last) = rest.chars().next_back()
        && !last.is_ascii_digit()
        && let Some(t) = token(last)
    {
        promotion = Some(t);
        rest = &rest[..rest.len() - last.len_utf8()];
        rest = rest
            .strip_suffix('=')
            .or_else(|| rest.strip_suffix('/'))
            .unwrap_or(rest);
    }

    let mut toks = [Tok::Dash; 6];
    let mut n = 0;
    for c in rest.chars() {
        let t = match c {
            'a'..='h' => Tok::File(c as u8 - b'a'),
            '1'..='8' => Tok::Rank(c as u8 - b'1'),
            'x' | 'X' | ':' | '×' => Tok::Capture,
            '-' => Tok::Dash,
            _ => return Err(format!("unexpected `{c}`")),
        };
        if n == toks.len() {
            return Err("too long for a move".into());
        }
        toks[n] = t;
        n += 1;
    }
    let toks = &toks[..n];
    let (head, to) = match toks {
        [head @ .., Tok::File(f), Tok::Rank(r)] => (head, Square::from_coords(*f, *r)),
        _ => return Err("no destination square (like e4) at the end".into()),
    };
    let (head, capture, dash) = match head {
        [h @ .., Tok::Capture] => (h, true, false),
        [h @ .., Tok::Dash] => (h, false, true),
        _ => (head, false, false),
    };
    let (file, rank) = match head {
        [] => (None, None),
        [Tok::File(f)] => (Some(*f), None),
        [Tok::Rank(r)] => (None, Some(*r)),
        [Tok::File(f), Tok::Rank(r)] => (Some(*f), Some(*r)),
        _ => return Err("cannot tell the origin from the destination".into()),
    };
    if dash && file.is_none() && rank.is_none() {
        return Err("a `-` must follow the square of origin (like Cg1-f3)".into());
    }
    Ok(RawBody::Normal {
        piece,
        file,
        rank,
        capture,
        to,
        promotion,
    })
}

impl Raw {
    /// True if the reading depends on the language of the letters.
    fn has_letters(&self) -> bool {
        match self.body {
            RawBody::Castle(_) => false,
            RawBody::Normal {
                piece, promotion, ..
            } => {
                matches!(piece, Some(Token::Letter(c)) if c != 'P')
                    || matches!(promotion, Some(Token::Letter(_)))
            }
        }
    }

    fn reading(&self, lang: Lang) -> Result<SanPlus, String> {
        let san = match self.body {
            RawBody::Castle(side) => San::Castle(side),
            RawBody::Normal {
                piece,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let role_of = |t: Token| match t {
                    Token::Figurine(r) => Ok(r),
                    Token::Letter(c) => lang.role(c).ok_or_else(|| {
                        format!(
                            "`{c}` is not a piece letter in {} (use {})",
                            lang.name(),
                            lang.letters_hint()
                        )
                    }),
                };
                let role = match piece {
                    Some(t) => role_of(t)?,
                    None => Role::Pawn,
                };
                let promotion = match promotion {
                    Some(t) => {
                        let p = role_of(t)?;
                        if role != Role::Pawn {
                            return Err("only a pawn can promote".into());
                        }
                        if !Role::PROMOTIONS.contains(&p) {
                            return Err(format!("a pawn cannot promote to a {}", p.name()));
                        }
                        Some(p)
                    }
                    None => None,
                };
                if role == Role::Pawn {
                    if file.is_none() && rank.is_some() {
                        return Err("a pawn move names the pawn's file, not its rank".into());
                    }
                    if capture && file.is_none() {
                        return Err("a pawn capture names the pawn's file (like exd5)".into());
                    }
                }
                San::Normal {
                    role,
                    file,
                    rank,
                    capture,
                    to,
                    promotion,
                }
            }
        };
        Ok(SanPlus {
            san,
            suffix: self.suffix,
            en_passant_marker: self.en_passant_marker,
            draw_offer: self.draw_offer,
        })
    }
}

impl SanPlus {
    /// Reads SAN in the given language, without looking at a position.
    ///
    /// With [`Lang::Auto`] the English reading is returned if there is one, else the Spanish
    /// one; use [`parse_san`] to let the position decide between them.
    ///
    /// # Errors
    /// [`ParseSanError`] naming the text and what is wrong with it.
    pub fn parse(text: &str, lang: Lang) -> Result<SanPlus, ParseSanError> {
        let raw = parse_raw(text).map_err(|r| ParseSanError::new(text, r))?;
        match lang {
            Lang::English | Lang::Spanish => raw.reading(lang),
            Lang::Auto => raw
                .reading(Lang::English)
                .or_else(|_| raw.reading(Lang::Spanish)),
        }
        .map_err(|r| ParseSanError::new(text, r))
    }

    /// The SAN of a legal move, with `+` or `#` if it gives check or mate.
    pub fn from_move(pos: &Position, mv: Move) -> SanPlus {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let suffix = if after.is_checkmate() {
            Some(Suffix::Checkmate)
        } else if after.is_check() {
            Some(Suffix::Check)
        } else {
            None
        };
        SanPlus {
            san: San::from_move(pos, mv),
            suffix,
            en_passant_marker: false,
            draw_offer: false,
        }
    }

    /// Writes the move with the piece letters of `lang` (English for [`Lang::Auto`]).
    pub fn to_string_in(&self, lang: Lang) -> String {
        self.write(Letters::of(lang))
    }

    /// Writes the move with figurines (`♘f3`); pawn moves have none.
    pub fn to_figurine(&self) -> String {
        self.write(Letters::Figurine)
    }

    fn write(&self, letters: Letters) -> String {
        let mut out = self.san.write(letters);
        match self.suffix {
            Some(Suffix::Check) => out.push('+'),
            Some(Suffix::Checkmate) => out.push('#'),
            None => {}
        }
        if self.draw_offer {
            out.push_str("(=)");
        }
        out
    }
}

impl std::str::FromStr for SanPlus {
    type Err = ParseSanError;

    /// English SAN.
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::parse(s, Lang::English)
    }
}

impl fmt::Display for SanPlus {
    /// English SAN with its suffix.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write(Letters::English))
    }
}

impl fmt::Display for San {
    /// English SAN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write(Letters::English))
    }
}

// ----- resolving against a position -----

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

    fn write(&self, letters: Letters) -> String {
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
                if role != Role::Pawn {
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
                to,
                promotion,
                ..
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
                    // A pawn written without its file moves straight ahead (FIDE E8/E9).
                    mask &= Bitboard::file(to.file());
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
                to,
                promotion,
                ..
            } => {
                if let Some(p) = promotion
                    && !Role::PROMOTIONS.contains(&p)
                {
                    return Err(SanError::Illegal {
                        san: self.to_string(),
                        reason: format!("a pawn cannot promote to a {}", p.name()),
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
                        // A pawn written without its file moves straight ahead (FIDE E8/E9).
                        || (role == Role::Pawn && file.is_none() && m.from.file() != to.file())
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
                            why_unreachable(pos, role, file, rank, to)
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
            to,
            promotion,
            ..
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
                    && (role != Role::Pawn || file.is_some() || m.from.file() == to.file())
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
    to: Square,
) -> String {
    let us = pos.turn();
    let name = role.name();
    let verb = if role == Role::Pawn && file.is_some_and(|f| f != to.file()) {
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
fn castle_move(pos: &Position, side: CastlingSide) -> Result<Move, String> {
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

// ----- the short way -----

/// Reads SAN and finds the legal move it names in `pos`.
///
/// With [`Lang::Auto`] both languages are tried: the letters `K Q B N` are only English,
/// `D T A C` only Spanish, but `R` is a rook in English and the king (*rey*) in Spanish. If
/// exactly one reading is legal it is taken; if both are legal and differ the move is
/// ambiguous.
///
/// # Errors
/// [`ReadSanError::Syntax`] if the text is not SAN in that language; [`ReadSanError::Rules`]
/// if it names no legal move or more than one.
///
/// # Examples
/// ```
/// use sobre_core::{Position, san::{parse_san, Lang}};
/// let pos = Position::new();
/// let mv = parse_san(&pos, "Cf3", Lang::Spanish).unwrap();
/// assert_eq!(mv.to.to_string(), "f3");
/// ```
pub fn parse_san(pos: &Position, text: &str, lang: Lang) -> Result<Move, ReadSanError> {
    let raw = parse_raw(text).map_err(|r| ParseSanError::new(text, r))?;
    match lang {
        Lang::English | Lang::Spanish => {
            let sp = raw.reading(lang).map_err(|r| ParseSanError::new(text, r))?;
            Ok(sp.san.to_move(pos).map_err(|e| e.with_text(text))?)
        }
        Lang::Auto if !raw.has_letters() => {
            let sp = raw
                .reading(Lang::English)
                .map_err(|r| ParseSanError::new(text, r))?;
            Ok(sp.san.to_move(pos).map_err(|e| e.with_text(text))?)
        }
        Lang::Auto => match (raw.reading(Lang::English), raw.reading(Lang::Spanish)) {
            (Ok(en), Ok(es)) if en.san == es.san => {
                Ok(en.san.to_move(pos).map_err(|e| e.with_text(text))?)
            }
            (Ok(en), Ok(es)) => match (en.san.to_move(pos), es.san.to_move(pos)) {
                (Ok(a), Ok(b)) if a == b => Ok(a),
                (Ok(a), Ok(b)) => Err(SanError::Ambiguous {
                    san: text.trim().to_owned(),
                    reason: format!(
                        "in English it is a {} move from {}, in Spanish a {} move from {}; \
                         both are legal, so say which language",
                        pos.moving_role(a).name(),
                        a.from,
                        pos.moving_role(b).name(),
                        b.from
                    ),
                    candidates: vec![a, b],
                }
                .into()),
                (Ok(a), Err(_)) | (Err(_), Ok(a)) => Ok(a),
                (Err(e1), Err(e2)) => Err(SanError::Illegal {
                    san: text.trim().to_owned(),
                    reason: format!(
                        "{} (reading it as English); {} (reading it as Spanish)",
                        e1.reason(),
                        e2.reason()
                    ),
                }
                .into()),
            },
            (Ok(sp), Err(_)) | (Err(_), Ok(sp)) => {
                Ok(sp.san.to_move(pos).map_err(|e| e.with_text(text))?)
            }
            (Err(_), Err(_)) => Err(ParseSanError::new(
                text,
                "unknown piece letter (English K Q R B N, Spanish R D T A C)",
            )
            .into()),
        },
    }
}

/// The hot path of PGN replay: reads the common shapes of SAN (`e4`, `exd5`, `Nbd7`,
/// `R1e2+`, `e8=Q#`, `O-O`, in the letters of `lang`) straight from bytes and returns the move
/// if it is legal and unique. `None` means "not that simple": the caller then asks
/// [`parse_san`], which accepts everything players write and explains every error. Both
/// agree whenever this returns `Some` (tested).
pub fn parse_san_fast(pos: &Position, text: &[u8], lang: Lang) -> Option<Move> {
    let mut b = text;
    while let [rest @ .., b'+' | b'#'] = b {
        b = rest;
    }
    match b {
        b"O-O" | b"0-0" => return castle_move(pos, CastlingSide::KingSide).ok(),
        b"O-O-O" | b"0-0-0" => return castle_move(pos, CastlingSide::QueenSide).ok(),
        _ => {}
    }
    let letter = |c: u8| -> Option<Role> {
        match (lang, c) {
            (_, b'P') => Some(Role::Pawn),
            (Lang::English, _) => english_role(c as char),
            (Lang::Spanish, _) => spanish_role(c as char),
            // `R` is a rook in English and the king in Spanish: not simple.
            (Lang::Auto, b'R') => None,
            (Lang::Auto, _) => english_role(c as char).or_else(|| spanish_role(c as char)),
        }
    };
    let (role, b) = match b {
        [c @ b'A'..=b'Z', rest @ ..] => (letter(*c)?, rest),
        _ => (Role::Pawn, b),
    };
    let (b, promotion) = match b {
        [rest @ .., b'=', c @ b'A'..=b'Z'] | [rest @ .., c @ b'A'..=b'Z'] => {
            let p = letter(*c)?;
            if role != Role::Pawn || !Role::PROMOTIONS.contains(&p) {
                return None;
            }
            (rest, Some(p))
        }
        _ => (b, None),
    };
    let (b, to) = match b {
        [rest @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            (rest, Square::from_coords(f - b'a', r - b'1'))
        }
        _ => return None,
    };
    let b = match b {
        [rest @ .., b'x'] => rest,
        _ => b,
    };
    let mut mask = Bitboard::FULL;
    match b {
        [] => {
            if role == Role::Pawn {
                // A pawn written without its file moves straight ahead (FIDE E8/E9).
                mask = Bitboard::file(to.file());
            }
        }
        [f @ b'a'..=b'h'] => mask = Bitboard::file(f - b'a'),
        [r @ b'1'..=b'8'] if role != Role::Pawn => mask = Bitboard::rank(r - b'1'),
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] if role != Role::Pawn => {
            mask = Bitboard::from_square(Square::from_coords(f - b'a', r - b'1'))
        }
        _ => return None,
    }
    let from = legal_origins(pos, role, to, mask).single()?;
    let last_rank = to.rank() == (!pos.turn()).back_rank();
    let kind = match (role, promotion) {
        (Role::Pawn, Some(p)) if last_rank => MoveKind::Promotion(p),
        (Role::Pawn, None) if !last_rank => {
            if pos.ep_square() == Some(to) && from.file() != to.file() {
                MoveKind::EnPassant
            } else {
                MoveKind::Normal
            }
        }
        (Role::Pawn, _) | (_, Some(_)) => return None,
        (_, None) => MoveKind::Normal,
    };
    Some(Move::new(from, to, kind))
}

/// Canonical SAN of a legal move in `pos`, with `+`/`#`, in the letters of `lang`
/// (English for [`Lang::Auto`]). Castling is `O-O`/`O-O-O` in every language and in
/// Chess960 (by the side of the rook). For a move that is not legal in `pos` the text is
/// unspecified (but this never panics).
///
/// # Examples
/// ```
/// use sobre_core::{Position, san::{parse_san, to_san, Lang}};
/// let pos = Position::new();
/// let mv = parse_san(&pos, "Nf3", Lang::English).unwrap();
/// assert_eq!(to_san(&pos, mv, Lang::Spanish), "Cf3");
/// ```
pub fn to_san(pos: &Position, mv: Move, lang: Lang) -> String {
    SanPlus::from_move(pos, mv).to_string_in(lang)
}

/// Like [`to_san`] with figurines `♔♕♖♗♘` (the same for both colours; pawn moves have none).
pub fn to_figurine(pos: &Position, mv: Move) -> String {
    SanPlus::from_move(pos, mv).to_figurine()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingMode;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, CastlingMode::Standard).unwrap()
    }

    fn play(p: &mut Position, moves: &[&str]) {
        for m in moves {
            let mv = parse_san(p, m, Lang::Auto).unwrap();
            p.play_unchecked(mv);
        }
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    // FIDE Appendix E2: R = rey in Spanish, but R = rook in English.
    #[test]
    fn spanish_letters_r_is_king() {
        let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let es = parse_san(&p, "Rd2", Lang::Spanish).unwrap();
        assert_eq!((es.from, es.to), (sq("e1"), sq("d2")));
        assert!(parse_san(&p, "Rd2", Lang::English).is_err());
        let en = parse_san(&p, "Rd1", Lang::English).unwrap();
        assert_eq!(en.from, sq("a1"));
        // Auto: only the Spanish reading is legal for Rd2, only the English one for Ra8.
        assert_eq!(parse_san(&p, "Rd2", Lang::Auto).unwrap(), es);
        assert_eq!(parse_san(&p, "Ra8+", Lang::Auto).unwrap().from, sq("a1"));
    }

    #[test]
    fn auto_reports_both_legal_readings_as_ambiguous() {
        // Rook a1 and king e1 can both go to d1.
        let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let err = parse_san(&p, "Rd1", Lang::Auto).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("ambiguous"), "{msg}");
        assert!(msg.contains("rook") && msg.contains("king"), "{msg}");
    }

    // FIDE Appendix E2: D dama, T torre, A alfil, C caballo.
    #[test]
    fn spanish_letters_name_all_pieces() {
        let mut p = Position::new();
        play(
            &mut p,
            &["e4", "e5", "Cf3", "Cc6", "Ac4", "Ac5", "O-O", "Df6", "Te1"],
        );
        assert_eq!(p.role_at(sq("e1")), Some(Role::Rook));
        assert_eq!(p.role_at(sq("f6")), Some(Role::Queen));
    }

    #[test]
    fn castling_written_with_zero_or_letter_o() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for t in ["0-0", "O-O", "o-o", "O-O+", "OO"] {
            let m = parse_san(&p, t, Lang::Spanish).unwrap();
            assert!(m.is_king_side_castle(), "{t}");
        }
        for t in ["0-0-0", "O-O-O", "o-o-o"] {
            let m = parse_san(&p, t, Lang::English).unwrap();
            assert!(m.is_castle() && !m.is_king_side_castle(), "{t}");
        }
    }

    // FIDE 3.8b: castling through an attacked square is not legal.
    #[test]
    fn castling_refused_with_reason() {
        let p = pos("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        let err = parse_san(&p, "O-O", Lang::English).unwrap_err().to_string();
        assert!(err.contains("castling king side is not possible"), "{err}");
        assert!(err.contains("attacked"), "{err}");
        let p = pos("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
        let err = parse_san(&p, "O-O-O", Lang::English)
            .unwrap_err()
            .to_string();
        assert!(err.contains("in the way"), "{err}");
        let p = pos("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1");
        let err = parse_san(&p, "O-O", Lang::English).unwrap_err().to_string();
        assert!(err.contains("lost the right"), "{err}");
    }

    // FIDE 3.7d, Appendix E9: "exd6 a.p.".
    #[test]
    fn en_passant_written_a_p() {
        let mut p = Position::new();
        play(&mut p, &["e4", "Cf6", "e5", "d5"]);
        for t in [
            "exd6 a.p.",
            "exd6 e.p.",
            "exd6ep",
            "exd6e.p.",
            "exd6",
            "e5xd6",
            "ed6",
        ] {
            let m = parse_san(&p, t, Lang::Auto).unwrap();
            assert!(m.is_en_passant(), "{t}");
        }
        let sp = SanPlus::parse("exd6 a.p.", Lang::Spanish).unwrap();
        assert!(sp.en_passant_marker);
    }

    // FIDE 3.7e, Appendix E12: "d8D".
    #[test]
    fn promotion_written_every_way() {
        let p = pos("4k3/2P5/8/8/8/8/8/4K3 w - - 0 1");
        for t in ["c8=Q", "c8Q", "c8(Q)", "c8/Q", "c8q", "c8♕"] {
            let m = parse_san(&p, t, Lang::English).unwrap();
            assert_eq!(m.promotion(), Some(Role::Queen), "{t}");
        }
        for t in ["c8D", "c8=D", "c8(D)"] {
            let m = parse_san(&p, t, Lang::Spanish).unwrap();
            assert_eq!(m.promotion(), Some(Role::Queen), "{t}");
        }
        assert_eq!(
            parse_san(&p, "c8C", Lang::Auto).unwrap().promotion(),
            Some(Role::Knight)
        );
        assert_eq!(
            parse_san(&p, "c8=N", Lang::Auto).unwrap().promotion(),
            Some(Role::Knight)
        );
    }

    // FIDE 3.7e: the pawn must be exchanged on reaching the last rank.
    #[test]
    fn promotion_missing_is_illegal() {
        let p = pos("4k3/2P5/8/8/8/8/8/4K3 w - - 0 1");
        let err = parse_san(&p, "c8", Lang::English).unwrap_err().to_string();
        assert!(err.contains("must promote"), "{err}");
        let err = parse_san(&p, "c8=K", Lang::English).unwrap_err();
        assert!(matches!(err, ReadSanError::Syntax(_)), "{err}");
    }

    // FIDE Appendix E10: disambiguation by file, then rank.
    #[test]
    fn ambiguous_knight_names_candidates() {
        let mut p = Position::new();
        play(&mut p, &["d4", "d5", "Cf3", "Cf6", "e3"]);
        let err = parse_san(&p, "Nd7", Lang::English).unwrap_err().to_string();
        assert_eq!(err, "Nd7 is ambiguous: knights on b8 and f6 can reach d7");
        let m = parse_san(&p, "Nbd7", Lang::English).unwrap();
        assert_eq!(m.from, sq("b8"));
        assert_eq!(to_san(&p, m, Lang::English), "Nbd7");
        assert_eq!(to_san(&p, m, Lang::Spanish), "Cbd7");
    }

    #[test]
    fn disambiguation_by_rank_then_square() {
        // Rooks on a1 and a5 both reach a3: by rank.
        let p = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        let m = parse_san(&p, "R1a3", Lang::English).unwrap();
        assert_eq!(to_san(&p, m, Lang::English), "R1a3");
        assert_eq!(to_san(&p, m, Lang::Spanish), "T1a3");
        // Queens on a1, a3 and c1 all reach b2: a1 needs the full square.
        let p = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
        let m = parse_san(&p, "Qa1b2", Lang::English).unwrap();
        assert_eq!(to_san(&p, m, Lang::English), "Qa1b2");
        let err = parse_san(&p, "Qab2", Lang::English)
            .unwrap_err()
            .to_string();
        assert!(err.contains("queens on a1 and a3"), "{err}");
    }

    // FIDE 3.9/3.10: a move leaving the own king in check is illegal.
    #[test]
    fn pinned_piece_reason() {
        let p = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
        let err = parse_san(&p, "Nc3", Lang::English).unwrap_err().to_string();
        assert!(err.contains("would leave the white king in check"), "{err}");
    }

    #[test]
    fn capture_marks_are_tolerated() {
        let mut p = Position::new();
        play(&mut p, &["e4", "d5"]);
        for t in ["exd5", "e4:d5", "e4xd5", "e4-d5", "exd5!?", "exd5+"] {
            let m = parse_san(&p, t, Lang::Auto).unwrap();
            assert_eq!(m.to, sq("d5"), "{t}");
        }
        // A surplus capture mark on a quiet move.
        assert!(parse_san(&p, "Nxf3", Lang::English).is_ok());
        // A missing one on a capture (FIDE example game: "4.e5 Ce4").
        play(&mut p, &["Nc3", "Nf6", "Nf3"]);
        assert!(parse_san(&p, "Ne4", Lang::English).is_ok());
    }

    #[test]
    fn long_algebraic_and_move_numbers() {
        let p = Position::new();
        for t in [
            "Cg1-f3", "Cg1xf3", "Ng1f3", "1.Cf3", "1Cf3", "1. Nf3", "♘f3", "♞f3",
        ] {
            let m = parse_san(&p, t, Lang::Auto).unwrap();
            assert_eq!((m.from, m.to), (sq("g1"), sq("f3")), "{t}");
        }
        for t in ["e2-e4", "1e4", "1.e4", "e4!", "e4!!", "e4?", "e4??", "e4?!"] {
            assert_eq!(parse_san(&p, t, Lang::Auto).unwrap().to, sq("e4"), "{t}");
        }
        let mut p = Position::new();
        play(&mut p, &["e4"]);
        for t in ["1...Cf6", "1…Cf6", "1... Nf6", "...Nf6"] {
            assert_eq!(parse_san(&p, t, Lang::Auto).unwrap().to, sq("f6"), "{t}");
        }
    }

    #[test]
    fn mate_suffixes_are_read() {
        for (t, s) in [
            ("Qh5+", Some(Suffix::Check)),
            ("Qh5#", Some(Suffix::Checkmate)),
            ("Qh5++", Some(Suffix::Checkmate)),
            ("Qh5‡", Some(Suffix::Checkmate)),
            ("Qh5", None),
        ] {
            assert_eq!(SanPlus::parse(t, Lang::English).unwrap().suffix, s, "{t}");
        }
    }

    // FIDE Appendix E13: "(=)" is a draw offer.
    #[test]
    fn draw_offer_after_move() {
        let sp = SanPlus::parse("11.Rb1(=)", Lang::Spanish).unwrap();
        assert!(sp.draw_offer);
        assert!(matches!(
            sp.san,
            San::Normal {
                role: Role::King,
                ..
            }
        ));
    }

    // FIDE example game (seed 002): "5Dxd5" is impossible, the queen cannot reach d5.
    #[test]
    fn impossible_capture_in_example_game_is_reported() {
        let mut p = Position::new();
        play(
            &mut p,
            &["1e4", "e5", "2Cf3", "Cf6", "3.d4", "exd4", "4.e5", "Ce4"],
        );
        let err = parse_san(&p, "5Dxd5", Lang::Spanish)
            .unwrap_err()
            .to_string();
        assert_eq!(err, "5Dxd5 is illegal: no queen can reach d5");
    }

    #[test]
    fn pawn_errors_are_precise() {
        let p = Position::new();
        let err = parse_san(&p, "exd5", Lang::English)
            .unwrap_err()
            .to_string();
        assert!(err.ends_with("no pawn can capture on d5"), "{err}");
        let err = parse_san(&p, "e5", Lang::English).unwrap_err().to_string();
        assert!(err.ends_with("no pawn can move to e5"), "{err}");
    }

    #[test]
    fn syntax_errors_name_the_text() {
        for t in [
            "", "Zf3", "Nf9", "e", "x", "Nf3xx", "O-O-O-O", "Cf3", "e4(Q",
        ] {
            let e = SanPlus::parse(t, Lang::English).unwrap_err();
            assert!(e.to_string().contains(&format!("`{}`", t.trim())), "{e}");
        }
        assert!(SanPlus::parse("Nf3", Lang::Spanish).is_err());
    }

    #[test]
    fn writing_uses_check_and_mate_marks() {
        let mut p = Position::new();
        play(&mut p, &["f3", "e5", "g4"]);
        let m = parse_san(&p, "Qh4", Lang::English).unwrap();
        assert_eq!(to_san(&p, m, Lang::English), "Qh4#");
        assert_eq!(to_san(&p, m, Lang::Spanish), "Dh4#");
        assert_eq!(to_figurine(&p, m), "♕h4#");
    }

    proptest::proptest! {
        // The byte-level fast reader is only a shortcut: it agrees with the general one.
        #[test]
        fn plain_reader_agrees_with_general_reader(
            s in "[KQRBNDTACPOXa-h1-8]?[a-h1-8]{0,2}x?[a-hA-H][1-8]=?[QRBNDTACKPqa-h1-8]?[+#]?"
        ) {
            if let Some(fast) = parse_plain(s.as_bytes()) {
                proptest::prop_assert_eq!(Ok(fast), parse_general(&s));
            }
        }
    }

    #[test]
    fn spanish_promotion_written_with_d() {
        let p = pos("1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1");
        let m = parse_san(&p, "cxb8=Q", Lang::English).unwrap();
        assert_eq!(to_san(&p, m, Lang::English), "cxb8=Q+");
        assert_eq!(to_san(&p, m, Lang::Spanish), "cxb8=D+");
        assert_eq!(to_figurine(&p, m), "cxb8=♕+");
    }
}
