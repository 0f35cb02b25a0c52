//! The letters of each language (FIDE Appendix E2/E3) and figurines: reading a piece letter,
//! writing a piece. Separate because reading, resolving and writing all ask it.

use crate::Role;

/// Which letters name the pieces (FIDE Appendix E2/E3: each player may use the letters of
/// their own language).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// `K Q R B N` (king, queen, rook, bishop, knight).
    #[default]
    English,
    /// `R D T A C` (rey, dama, torre, alfil, caballo). Note `R` is the *king* here.
    Spanish,
    /// Reading: try both languages; see [`super::parse_san`]. Writing: English.
    Auto,
}

impl Lang {
    pub(super) fn name(self) -> &'static str {
        match self {
            Lang::English | Lang::Auto => "English",
            Lang::Spanish => "Spanish",
        }
    }

    pub(super) fn letters_hint(self) -> &'static str {
        match self {
            Lang::English | Lang::Auto => "K Q R B N",
            Lang::Spanish => "R D T A C",
        }
    }

    /// The piece named by an upper-case letter in this language (`P` is a pawn in both).
    pub(super) fn role(self, letter: char) -> Option<Role> {
        match self {
            Lang::English | Lang::Auto => english_role(letter),
            Lang::Spanish => spanish_role(letter),
        }
    }
}

pub(super) fn english_role(c: char) -> Option<Role> {
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

pub(super) fn spanish_role(c: char) -> Option<Role> {
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
pub(super) fn figurine_role(c: char) -> Option<Role> {
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
pub(super) enum Letters {
    English,
    Spanish,
    Figurine,
}

impl Letters {
    pub(super) fn of(lang: Lang) -> Letters {
        match lang {
            Lang::English | Lang::Auto => Letters::English,
            Lang::Spanish => Letters::Spanish,
        }
    }

    pub(super) fn piece(self, role: Role) -> char {
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
