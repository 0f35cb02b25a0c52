//! Step 1 of reading SAN: the text alone, tolerant of what players write (move numbers, `0-0`,
//! `a.p.`, `:` for captures, long algebraic, `(=)`), before any position is looked at. The
//! language of the letters is decided last ([`Raw::reading`]), so [`Lang::Auto`] can try both.

use super::lang::{Lang, figurine_role};
use super::{CastlingSide, San, SanPlus, Suffix};
use crate::{Role, Square};

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
pub(super) struct Raw {
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

/// The dashes castling is written with: the hyphen of a keyboard, and the hyphens, en and
/// em dashes and minus sign that word processors and typeset books put in its place
/// (`0–0`, `O—O`). No dash at all (`00`, `000`) is read too, as players write it.
fn is_castling_dash(c: char) -> bool {
    matches!(
        c,
        '-' | '\u{2010}'
            | '\u{2011}'
            | '\u{2012}'
            | '\u{2013}'
            | '\u{2014}'
            | '\u{2015}'
            | '\u{2212}'
    )
}

/// Markers of an en passant capture (FIDE C9/E9 writes `a.p.` in Spanish, `e.p.` in
/// English), also in parentheses as some scoresheets have them; longest first.
const EP_MARKERS: [&str; 12] = [
    "(a. p.)", "(e. p.)", "(a.p.)", "(e.p.)", "a. p.", "e. p.", "a.p.", "e.p.", "a.p", "e.p", "ep",
    "ap",
];

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
pub(super) fn parse_plain(b: &[u8]) -> Option<Raw> {
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

pub(super) fn parse_raw(text: &str) -> Result<Raw, String> {
    let text = text.trim();
    if let Some(raw) = parse_plain(text.as_bytes()) {
        return Ok(raw);
    }
    parse_general(text)
}

/// Everything [`parse_raw`] accepts, including what players add around a move.
pub(super) fn parse_general(text: &str) -> Result<Raw, String> {
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

    if s.ends_with('=') {
        // FIDE C13/E13 marks a draw offer `(=)`; a bare `=` is neither that nor a promotion.
        return Err(
            "a `=` alone marks nothing: a draw offer is written (=), a promotion names its \
             piece (like e8=Q)"
                .into(),
        );
    }

    let body = if s
        .chars()
        .all(|c| matches!(c, 'O' | 'o' | '0') || is_castling_dash(c))
    {
        let letters = s.chars().filter(|&c| !is_castling_dash(c)).count();
        let mut dashes = s.chars().map(is_castling_dash);
        let first = dashes.next().unwrap_or(false);
        let (mut last, mut doubled) = (first, false);
        for d in dashes {
            doubled |= d && last;
            last = d;
        }
        if first || last || doubled {
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
    pub(super) fn has_letters(&self) -> bool {
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

    pub(super) fn reading(&self, lang: Lang) -> Result<SanPlus, String> {
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
                        // A promotion to a king or a pawn is read, and refused as illegal
                        // (FIDE 3.7e) when resolved: `c8R` in Spanish is legible, it names
                        // the king (*rey*), and must never fall back to another reading.
                        Some(p)
                    }
                    None => None,
                };
                if role == Role::Pawn {
                    if file.is_none() && rank.is_some() {
                        return Err("a pawn move names the pawn's file, not its rank".into());
                    }
                    // `Pxd5`: with the pawn's letter written (P, *peón* too), the position
                    // tells which pawn captures; a bare `xd5` names no piece at all.
                    if capture && file.is_none() && piece.is_none() {
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
