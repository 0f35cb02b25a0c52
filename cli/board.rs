//! Drawing a board in the terminal: Unicode figurines (or ASCII letters), coordinates, seen
//! from either side, with the last move's squares marked.

use sobre_core::{Color, Piece, Position, Role, Square};

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Whose side is at the bottom.
    pub bottom: Color,
    /// Letters (`K`, `q`, `.`) instead of figurines.
    pub ascii: bool,
}

fn glyph(p: Piece, ascii: bool) -> char {
    if ascii {
        return p.char();
    }
    match (p.color, p.role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// The board as text lines. Squares of the last move are bracketed: `[♘]`.
pub fn render(pos: &Position, style: Style, last_move: Option<(Square, Square)>) -> String {
    let mut out = String::new();
    let ranks: Vec<u8> = match style.bottom {
        Color::White => (0..8).rev().collect(),
        Color::Black => (0..8).collect(),
    };
    let files: Vec<u8> = match style.bottom {
        Color::White => (0..8).collect(),
        Color::Black => (0..8).rev().collect(),
    };
    let file_line: String = files
        .iter()
        .map(|f| format!(" {} ", (b'a' + f) as char))
        .collect();
    out.push_str(&format!("   {file_line}\n"));
    for &r in &ranks {
        out.push_str(&format!(" {} ", r + 1));
        for &f in &files {
            let sq = Square::from_coords(f, r);
            let marked = last_move.is_some_and(|(a, b)| a == sq || b == sq);
            let c = match pos.piece_at(sq) {
                Some(p) => glyph(p, style.ascii),
                None if style.ascii => {
                    if sq.is_light() {
                        '.'
                    } else {
                        ':'
                    }
                }
                None => {
                    if sq.is_light() {
                        '·'
                    } else {
                        '•'
                    }
                }
            };
            if marked {
                out.push_str(&format!("[{c}]"));
            } else {
                out.push_str(&format!(" {c} "));
            }
        }
        out.push_str(&format!(" {}\n", r + 1));
    }
    out.push_str(&format!("   {file_line}\n"));
    out
}
