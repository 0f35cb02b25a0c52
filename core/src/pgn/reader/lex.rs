//! The PGN lexer's byte classes and token classification: whitespace, delimiters, line
//! breaks, what a movetext token is (move, move number, NAG, result), a separate `e.p.`, the
//! parts of a tag line. Pure functions over byte slices: no buffer, no I/O.

use crate::outcome::{Outcome, parse_result};

/// Bytes after a move token that must be visible to recognise a separate `e.p.` / `a.p.`.
pub(super) const LOOKAHEAD: usize = 64;

/// The UTF-8 encoding of `…` (U+2026), used by some programs after move numbers.
const ELLIPSIS: &[u8] = "…".as_bytes();

/// Whitespace as far as PGN is concerned: every ASCII control byte, space and DEL.
#[inline]
pub(super) const fn is_space(b: u8) -> bool {
    b <= b' ' || b == 0x7f
}

#[inline]
pub(super) const fn is_newline(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

const fn delimiter_table() -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = is_space(i as u8);
        i += 1;
    }
    let specials = b"{}()[];$";
    let mut k = 0;
    while k < specials.len() {
        table[specials[k] as usize] = true;
        k += 1;
    }
    table
}

/// Bytes that end a movetext token. Every delimiter that is not whitespace has its own arm in
/// the movetext loop, so a token is never empty.
static DELIMITER: [bool; 256] = delimiter_table();

#[inline]
pub(super) fn is_delimiter(b: u8) -> bool {
    DELIMITER[usize::from(b)]
}

/// Counts line breaks in `bytes`: `\n`, `\r\n` and a lone `\r` each count once. `prev` is the
/// byte just before `bytes`, so that a `\r\n` split across two calls is not counted twice.
pub(super) fn count_newlines(prev: u8, bytes: &[u8]) -> u64 {
    let mut lines = 0;
    let mut prev = prev;
    for &b in bytes {
        if b == b'\r' || (b == b'\n' && prev != b'\r') {
            lines += 1;
        }
        prev = b;
    }
    lines
}

/// What a movetext token turned out to be.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Token<'a> {
    Move {
        bytes: &'a [u8],
        nag: Option<u8>,
        en_passant: bool,
    },
    Nag(u8),
    Outcome(Option<Outcome>),
    /// A move number, a lone `e.p.`, or anything else that carries nothing.
    Nothing,
}

fn suffix_nag(suffix: &[u8]) -> Option<u8> {
    match suffix {
        b"!" => Some(1),
        b"?" => Some(2),
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        _ => None,
    }
}

fn is_en_passant_suffix(token: &[u8]) -> bool {
    [&b"e.p."[..], b"a.p.", b"e.p", b"a.p"]
        .iter()
        .any(|suffix| token.eq_ignore_ascii_case(suffix))
}

/// A token of digits alone that is a move, not a move number: castling written with zeros
/// and no dashes (`00`, `000`), or ICCF numeric notation (`5254`, `57581`; four digits, five
/// for a promotion). A move number never starts with `0`, and one of four digits without its
/// dot is no real game's; a token of that shape that is no ICCF move is then refused by the
/// move reader rather than dropped.
#[inline]
fn is_digit_move(digits: &[u8]) -> bool {
    matches!(digits, b"00" | b"000") || matches!(digits.len(), 4 | 5)
}

/// Strips leading `.` and `…`.
fn strip_dots(mut token: &[u8]) -> &[u8] {
    loop {
        if let Some(rest) = token.strip_prefix(b".") {
            token = rest;
        } else if let Some(rest) = token.strip_prefix(ELLIPSIS) {
            token = rest;
        } else {
            return token;
        }
    }
}

/// A token that is a move (or garbage for the SAN parser to reject): cuts off glued suffix
/// annotations and a glued en-passant mark.
#[inline]
fn move_token(token: &[u8]) -> Token<'_> {
    // Nothing to cut off unless the token ends like an annotation or `e.p.`.
    if matches!(token.last(), None | Some(b'!' | b'?' | b'.' | b'p' | b'P')) {
        return move_token_slow(token);
    }
    Token::Move {
        bytes: token,
        nag: None,
        en_passant: false,
    }
}

#[inline(never)]
fn move_token_slow(token: &[u8]) -> Token<'_> {
    let annotation = token
        .iter()
        .rev()
        .take_while(|&&b| b == b'!' || b == b'?')
        .count();
    let (mut bytes, suffix) = token.split_at(token.len() - annotation);
    let nag = suffix_nag(suffix);
    let mut en_passant = false;
    for mark in [&b"e.p."[..], b"a.p.", b"e.p", b"a.p"] {
        if bytes.len() >= mark.len() {
            let (head, tail) = bytes.split_at(bytes.len() - mark.len());
            if tail.eq_ignore_ascii_case(mark) {
                bytes = head;
                en_passant = true;
                break;
            }
        }
    }
    if bytes.is_empty() {
        return nag.map_or(Token::Nothing, Token::Nag);
    }
    Token::Move {
        bytes,
        nag,
        en_passant,
    }
}

/// Classifies one movetext token (a maximal run of non-delimiter bytes).
#[inline]
pub(super) fn classify(token: &[u8]) -> Token<'_> {
    match token.first() {
        // The common cases first. A move starting with a letter: results, move numbers and
        // annotation tokens never do.
        Some(first) if first.is_ascii_alphabetic() => {
            if token.get(1) == Some(&b'.') && is_en_passant_suffix(token) {
                return Token::Nothing;
            }
            move_token(token)
        }
        // A move number `12.` or `12...` on its own.
        Some(first) if first.is_ascii_digit() => {
            let digits = token.iter().take_while(|b| b.is_ascii_digit()).count();
            match &token[digits..] {
                b"" if is_digit_move(token) => Token::Move {
                    bytes: token,
                    nag: None,
                    en_passant: false,
                },
                b"" | b"." | b"..." => Token::Nothing,
                _ => classify_slow(token),
            }
        }
        _ => classify_slow(token),
    }
}

#[inline(never)]
fn classify_slow(mut token: &[u8]) -> Token<'_> {
    // Every `continue` shortens the token, so the loop ends.
    loop {
        if let Some(outcome) = parse_result(token) {
            return Token::Outcome(outcome);
        }
        let Some(&first) = token.first() else {
            return Token::Nothing;
        };
        if first.is_ascii_digit() {
            // Castling with zeros, checked after the exact result tokens so `0-1` stays a result.
            if token.starts_with(b"0-0") {
                return move_token(token);
            }
            let digits = token.iter().take_while(|b| b.is_ascii_digit()).count();
            let rest = &token[digits..];
            let after_dots = strip_dots(rest);
            if after_dots.len() < rest.len() {
                // `12.`, `12...`, `12…`, or glued `1.e4`, `5...Cf6`, `5.0-0`.
                token = after_dots;
                continue;
            }
            match rest.first() {
                None if is_digit_move(token) => return move_token(token),
                None => return Token::Nothing,
                // `1e4`: a move number run into its move.
                Some(b) if b.is_ascii_alphabetic() => {
                    token = rest;
                    continue;
                }
                _ => return move_token(token),
            }
        }
        if first == b'.' || token.starts_with(ELLIPSIS) {
            token = strip_dots(token);
            continue;
        }
        if token.iter().all(|&b| b == b'!' || b == b'?') {
            return suffix_nag(token).map_or(Token::Nothing, Token::Nag);
        }
        if is_en_passant_suffix(token) {
            // Not right after a move (that case is merged by the look-ahead): it says nothing.
            return Token::Nothing;
        }
        return move_token(token);
    }
}

/// Looks past a move token ending at `at` for a separate en passant mark: `e.p.`, `a.p.`
/// (FIDE C9/E9), spaced out as the 2009 text prints it (`a. p.`), or in parentheses
/// (`(a.p.)`, glued or not). Returns the bytes to skip after the move and the line breaks
/// among them.
///
/// Only the next [`LOOKAHEAD`] bytes are examined, so that the answer does not depend on how
/// the input happened to be split into reads; `at_eof` says `buf` ends where the input ends.
#[inline]
pub(super) fn peek_en_passant(
    buf: &[u8],
    at: usize,
    prev: u8,
    at_eof: bool,
) -> Option<(usize, u64)> {
    // This runs after every move, and almost every move is followed by one space and a
    // token that does not start with `e` or `a`: reject that case without a loop.
    match (buf.get(at), buf.get(at + 1)) {
        (Some(&gap), Some(&next))
            if is_space(gap)
                && !is_space(next)
                && !matches!(next | 0x20, b'e' | b'a')
                && next != b'(' =>
        {
            None
        }
        (Some(&gap), _) if !is_space(gap) && gap != b'(' => None,
        _ => peek_en_passant_slow(buf, at, prev, at_eof),
    }
}

#[inline(never)]
fn peek_en_passant_slow(buf: &[u8], at: usize, prev: u8, at_eof: bool) -> Option<(usize, u64)> {
    let limit = buf.len().min(at + LOOKAHEAD);
    let window = &buf[..limit];
    let skip_spaces = |mut i: usize| {
        while i < limit && is_space(window[i]) {
            i += 1;
        }
        i
    };
    // The end of the token starting at `i`, if it ends inside the window (or at the end of
    // the input), so that the answer never depends on where a read happened to stop.
    let token_end = |i: usize| {
        let mut j = i;
        while j < limit && !is_delimiter(window[j]) {
            j += 1;
        }
        (j < limit || (limit == buf.len() && at_eof)).then_some(j)
    };
    let mut i = skip_spaces(at);
    let parenthesised = window.get(i) == Some(&b'(');
    if parenthesised {
        i += 1;
    }
    // Cheap rejection first: this runs after every move, and most are followed by a move.
    let first = *window.get(i)? | 0x20;
    if (first != b'e' && first != b'a') || window.get(i + 1) != Some(&b'.') {
        return None;
    }
    let j = token_end(i)?;
    let mut end = if is_en_passant_suffix(&window[i..j]) {
        j
    } else if j == i + 2 {
        // `a. p.`: the mark in two tokens.
        let k = skip_spaces(j);
        let l = token_end(k)?;
        let second = &window[k..l];
        if !(second.eq_ignore_ascii_case(b"p.") || second.eq_ignore_ascii_case(b"p")) {
            return None;
        }
        l
    } else {
        return None;
    };
    if parenthesised {
        if window.get(end) != Some(&b')') {
            return None;
        }
        end += 1;
    }
    Some((end - at, count_newlines(prev, &window[at..end])))
}

/// Where the parts of a tag line are, relative to the line's `[`.
pub(super) struct TagSpan {
    pub(super) consumed: usize,
    pub(super) name: std::ops::Range<usize>,
    pub(super) value: std::ops::Range<usize>,
    pub(super) escaped: bool,
}

/// Parses one tag pair from `line` (which starts with `[` and holds no line break).
///
/// Tolerates spaces anywhere, a missing `]`, a missing closing quote and an unquoted value.
/// Stops after the first `]` so that several tags on one line are read one by one.
pub(super) fn parse_tag(line: &[u8]) -> TagSpan {
    let n = line.len();
    let skip_spaces = |mut i: usize| {
        while i < n && is_space(line[i]) {
            i += 1;
        }
        i
    };
    let close_after = |i: usize| {
        line[i.min(n)..]
            .iter()
            .position(|&b| b == b']')
            .map_or(n, |k| i + k + 1)
    };
    let mut i = skip_spaces(1);
    let name_start = i;
    while i < n && !matches!(line[i], b'"' | b']' | b'[') && !is_space(line[i]) {
        i += 1;
    }
    let name = name_start..i;
    i = skip_spaces(i);
    if i < n && line[i] == b'"' {
        i += 1;
        let value_start = i;
        let mut escaped = false;
        while i < n && line[i] != b'"' {
            if line[i] == b'\\' && i + 1 < n {
                escaped = true;
                i += 1;
            }
            i += 1;
        }
        if i < n {
            return TagSpan {
                consumed: close_after(i + 1),
                name,
                value: value_start..i,
                escaped,
            };
        }
        // No closing quote: the value runs to the last `]` on the line, if any.
        let value_end = line[value_start..]
            .iter()
            .rposition(|&b| b == b']')
            .map_or(n, |k| value_start + k);
        return TagSpan {
            consumed: n,
            name,
            value: value_start..value_end,
            escaped,
        };
    }
    let consumed = close_after(i);
    let mut value_end = if consumed > 0 && line.get(consumed - 1) == Some(&b']') {
        consumed - 1
    } else {
        n
    };
    while value_end > i && is_space(line[value_end - 1]) {
        value_end -= 1;
    }
    TagSpan {
        consumed,
        name,
        value: i..value_end.max(i),
        escaped: false,
    }
}

/// Reads the digits after a `$`: the NAG (if 0 to 255) and how many digits there were.
#[inline]
pub(super) fn read_nag(bytes: &[u8]) -> (Option<u8>, usize) {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let value = bytes[..digits].iter().fold(0u32, |n, &d| {
        n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
    });
    let nag = if digits > 0 {
        u8::try_from(value).ok()
    } else {
        None
    };
    (nag, digits)
}
