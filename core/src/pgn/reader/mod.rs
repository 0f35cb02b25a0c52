//! The streaming PGN reader: a byte lexer over a fixed buffer, driving a [`Visitor`].
//!
//! The hot loop works on `&[u8]` windows of one boxed buffer that never grows: the reader
//! compacts and refills it, so memory stays at [`BUFFER_CAPACITY`] whatever the input size.
//! Anything that does not fit (a comment or a line longer than the buffer) is truncated, and
//! the rest is skipped while still counting lines.

use std::borrow::Cow;
use std::io::{self, Read};

use super::{Outcome, PgnError, parse_result};

/// Size of the reader's buffer in bytes. The longest comment, tag line or token the reader
/// delivers whole; longer ones are truncated (comments) or skipped (tokens).
pub const BUFFER_CAPACITY: usize = 64 * 1024;

/// Bytes the reader tries to have in the buffer before each movetext token, so that almost
/// every token and its one-token look-ahead (`exd6 e.p.`) are found without a refill check.
const WINDOW: usize = 1024;

/// Bytes after a move token that must be visible to recognise a separate `e.p.` / `a.p.`.
const LOOKAHEAD: usize = 64;

/// The UTF-8 encoding of `…` (U+2026), used by some programs after move numbers.
const ELLIPSIS: &[u8] = "…".as_bytes();

/// The UTF-8 byte order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whitespace as far as PGN is concerned: every ASCII control byte, space and DEL.
#[inline]
const fn is_space(b: u8) -> bool {
    b <= b' ' || b == 0x7f
}

#[inline]
const fn is_newline(b: u8) -> bool {
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
fn is_delimiter(b: u8) -> bool {
    DELIMITER[usize::from(b)]
}

/// Counts line breaks in `bytes`: `\n`, `\r\n` and a lone `\r` each count once. `prev` is the
/// byte just before `bytes`, so that a `\r\n` split across two calls is not counted twice.
fn count_newlines(prev: u8, bytes: &[u8]) -> u64 {
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

/// Whether a visitor wants the reader to skip something (the movetext, a variation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Skip(pub bool);

/// Where a game starts in the input: for error messages such as "game at line 1234".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameStart {
    /// Byte offset of the game's first byte (its first tag or movetext token).
    pub offset: u64,
    /// 1-based line of that byte. Line breaks are `\n`, `\r\n` or a lone `\r`.
    pub line: u64,
}

/// A tag value as it appears between the quotes, escapes still in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawTag<'a> {
    raw: &'a [u8],
    escaped: bool,
}

impl<'a> RawTag<'a> {
    /// The value exactly as in the input, with `\"` and `\\` not yet resolved.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.raw
    }

    /// Whether the value contains a backslash, i.e. whether [`RawTag::decode_bytes`] copies.
    pub fn has_escapes(&self) -> bool {
        self.escaped
    }

    /// The value with `\"` and `\\` resolved. Borrows unless an escape is present. A backslash
    /// before any other byte is kept as it is.
    pub fn decode_bytes(&self) -> Cow<'a, [u8]> {
        if !self.escaped {
            return Cow::Borrowed(self.raw);
        }
        let mut out = Vec::with_capacity(self.raw.len());
        let mut i = 0;
        while i < self.raw.len() {
            let b = self.raw[i];
            match self.raw.get(i + 1) {
                Some(&next @ (b'"' | b'\\')) if b == b'\\' => {
                    out.push(next);
                    i += 2;
                }
                _ => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        Cow::Owned(out)
    }

    /// The unescaped value as text; invalid UTF-8 becomes U+FFFD. Borrows when the value has
    /// no escapes and is valid UTF-8.
    pub fn decode(&self) -> Cow<'a, str> {
        match self.decode_bytes() {
            Cow::Borrowed(bytes) => String::from_utf8_lossy(bytes),
            Cow::Owned(bytes) => Cow::Owned(match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            }),
        }
    }
}

/// One move token from the movetext, for the SAN parser.
///
/// Move numbers, glued suffix annotations (`!`, `?`, `!?`, …, reported separately as NAGs)
/// and a glued or separate en-passant suffix (`e.p.`, `a.p.`) are already cut off; check
/// (`+`, `#`) and promotion marks are left in place. The token may be garbage: the reader
/// passes on whatever it cannot classify, and the SAN parser rejects it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawMove<'a> {
    bytes: &'a [u8],
    line: u64,
    en_passant_suffix: bool,
}

impl<'a> RawMove<'a> {
    /// The token, e.g. `Nf3`, `exd6`, `0-0-0`, `e8=Q+`, `--`.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The token as text, or `None` if it is not valid UTF-8.
    pub fn to_str(&self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes).ok()
    }

    /// 1-based line of the input on which the token starts.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Whether the token was followed by `e.p.` or `a.p.` (Spanish *al paso*), glued or as a
    /// separate token. The suffix itself is not part of [`RawMove::as_bytes`].
    pub fn has_en_passant_suffix(&self) -> bool {
        self.en_passant_suffix
    }
}

/// The text of a `{…}` or `; …` comment, without its delimiters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawComment<'a> {
    text: &'a [u8],
    line: u64,
    truncated: bool,
}

impl<'a> RawComment<'a> {
    /// The comment's bytes, exactly as in the input (line breaks included).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.text
    }

    /// The comment as text; invalid UTF-8 becomes U+FFFD.
    pub fn decode(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.text)
    }

    /// 1-based line of the input on which the comment starts.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Whether the comment was longer than the reader's buffer and was cut short. The rest of
    /// it is skipped.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

/// Receives the parts of one game from [`PgnReader::read_game`], in input order.
///
/// Every method but [`Visitor::end_game`] has a default that ignores its input. Variations are
/// skipped unless [`Visitor::begin_variation`] says otherwise.
pub trait Visitor {
    /// What [`PgnReader::read_game`] returns for one game.
    type Output;

    /// A game starts (before its first tag).
    fn begin_game(&mut self, _start: GameStart) {}

    /// A tag pair `[Name "Value"]`.
    fn tag(&mut self, _name: &[u8], _value: RawTag<'_>) {}

    /// The tags are over and the movetext begins. Return `Skip(true)` to skip the movetext:
    /// the reader then only looks for the end of the game.
    fn begin_movetext(&mut self) -> Skip {
        Skip(false)
    }

    /// A move token (see [`RawMove`] for what has been cut off).
    fn san(&mut self, _token: RawMove<'_>) {}

    /// A numeric annotation glyph: `$n`, or `!` `?` `!!` `??` `!?` `?!` as 1 to 6.
    fn nag(&mut self, _nag: u8) {}

    /// A comment, brace or rest-of-line.
    fn comment(&mut self, _comment: RawComment<'_>) {}

    /// A `(` opens a variation. Return `Skip(false)` to receive its contents, followed by
    /// [`Visitor::end_variation`]; the default skips it (and every variation nested in it).
    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    /// A variation that was not skipped ends. Variations still open when the game ends are
    /// closed with this call too.
    fn end_variation(&mut self) {}

    /// The game-termination marker: `Some` for `1-0`, `0-1`, `1/2-1/2`, `None` for `*`. Not
    /// called if the game has none (it ended at the next tag or the end of the input).
    fn outcome(&mut self, _outcome: Option<Outcome>) {}

    /// The game is over; produce the result of [`PgnReader::read_game`].
    fn end_game(&mut self) -> Self::Output;
}

/// What a movetext token turned out to be.
#[derive(Debug, PartialEq, Eq)]
enum Token<'a> {
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
fn classify(token: &[u8]) -> Token<'_> {
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

/// Looks past a move token ending at `at` for a separate `e.p.` / `a.p.` token. Returns the
/// bytes to skip after the move and the line breaks among them.
///
/// Only the next [`LOOKAHEAD`] bytes are examined, so that the answer does not depend on how
/// the input happened to be split into reads; `at_eof` says `buf` ends where the input ends.
#[inline]
fn peek_en_passant(buf: &[u8], at: usize, prev: u8, at_eof: bool) -> Option<(usize, u64)> {
    // This runs after every move, and almost every move is followed by one space and a
    // token that does not start with `e` or `a`: reject that case without a loop.
    match (buf.get(at), buf.get(at + 1)) {
        (Some(&gap), Some(&next))
            if is_space(gap) && !is_space(next) && !matches!(next | 0x20, b'e' | b'a') =>
        {
            None
        }
        (Some(&gap), _) if !is_space(gap) => None,
        _ => peek_en_passant_slow(buf, at, prev, at_eof),
    }
}

#[inline(never)]
fn peek_en_passant_slow(buf: &[u8], at: usize, prev: u8, at_eof: bool) -> Option<(usize, u64)> {
    let limit = buf.len().min(at + LOOKAHEAD);
    let window = &buf[..limit];
    let mut i = at;
    while i < limit && is_space(window[i]) {
        i += 1;
    }
    // Cheap rejection first: this runs after every move, and most are followed by a move.
    let first = *window.get(i)? | 0x20;
    if (first != b'e' && first != b'a') || window.get(i + 1) != Some(&b'.') {
        return None;
    }
    let mut j = i;
    while j < limit && !is_delimiter(window[j]) {
        j += 1;
    }
    let token_complete = j < limit || (limit == buf.len() && at_eof);
    if !token_complete || !is_en_passant_suffix(&window[i..j]) {
        return None;
    }
    Some((j - at, count_newlines(prev, &window[at..i])))
}

/// Where the parts of a tag line are, relative to the line's `[`.
struct TagSpan {
    consumed: usize,
    name: std::ops::Range<usize>,
    value: std::ops::Range<usize>,
    escaped: bool,
}

/// Parses one tag pair from `line` (which starts with `[` and holds no line break).
///
/// Tolerates spaces anywhere, a missing `]`, a missing closing quote and an unquoted value.
/// Stops after the first `]` so that several tags on one line are read one by one.
fn parse_tag(line: &[u8]) -> TagSpan {
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

/// A streaming PGN reader over any byte source.
///
/// It reads through one buffer of [`BUFFER_CAPACITY`] bytes, allocated once in
/// [`PgnReader::new`]; nothing is allocated per game or per token. Wrap the source in a
/// `BufReader` only if it is unbuffered *and* slow to call: the reader already reads in large
/// chunks.
///
/// # Examples
///
/// ```
/// use sobre_core::pgn::{PgnReader, RawMove, Visitor};
///
/// struct CountMoves(usize);
///
/// impl Visitor for CountMoves {
///     type Output = usize;
///     fn san(&mut self, _token: RawMove<'_>) {
///         self.0 += 1;
///     }
///     fn end_game(&mut self) -> usize {
///         std::mem::take(&mut self.0)
///     }
/// }
///
/// let pgn = b"[Event \"Casual\"]\n\n1. e4 e5 2. Nf3 (2. f4) Nc6 1-0\n";
/// let mut reader = PgnReader::new(&pgn[..]);
/// assert_eq!(reader.read_game(&mut CountMoves(0))?, Some(4));
/// assert_eq!(reader.read_game(&mut CountMoves(0))?, None);
/// # Ok::<(), sobre_core::pgn::PgnError>(())
/// ```
pub struct PgnReader<R> {
    inner: R,
    buf: Box<[u8]>,
    /// Next unread byte in `buf`.
    pos: usize,
    /// End of the valid bytes in `buf`.
    end: usize,
    /// The source reported end of input.
    eof: bool,
    /// Stream offset of `buf[0]`.
    base: u64,
    /// The byte just before `buf[0]` (a line break at the start of the stream), so that
    /// column 0 and `\r\n` are recognised across a refill.
    prev: u8,
    /// 1-based line of `buf[pos]`.
    line: u64,
    game_start: GameStart,
}

impl<R: Read> PgnReader<R> {
    /// A reader over `inner`. Allocates its buffer of [`BUFFER_CAPACITY`] bytes.
    pub fn new(inner: R) -> PgnReader<R> {
        PgnReader {
            inner,
            buf: vec![0; BUFFER_CAPACITY].into_boxed_slice(),
            pos: 0,
            end: 0,
            eof: false,
            base: 0,
            prev: b'\n',
            line: 1,
            game_start: GameStart { offset: 0, line: 1 },
        }
    }

    /// Reads the next game into `visitor`. Returns `Ok(None)` once the input holds no more
    /// games (only whitespace, `;` comments and `%` escape lines remain).
    ///
    /// A game ends at its result token (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`), at a `[` in the
    /// movetext (the next game's first tag, with or without a blank line before it), or at the
    /// end of the input. Result tokens inside variations do not end the game.
    ///
    /// # Errors
    /// [`PgnError::Io`] if the underlying reader fails (an [`io::ErrorKind::Interrupted`]
    /// error is retried). The visitor may then have seen part of a game.
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Result<Option<V::Output>, PgnError> {
        if !self.skip_between_games()? {
            return Ok(None);
        }
        self.game_start = GameStart {
            offset: self.offset(),
            line: self.line,
        };
        visitor.begin_game(self.game_start);
        self.read_tags(visitor)?;
        let skip = visitor.begin_movetext();
        self.read_movetext(visitor, skip.0)?;
        Ok(Some(visitor.end_game()))
    }

    /// Skips the next game. Returns `false` if there was none.
    ///
    /// # Errors
    /// [`PgnError::Io`] if the underlying reader fails.
    pub fn skip_game(&mut self) -> Result<bool, PgnError> {
        struct SkipAll;
        impl Visitor for SkipAll {
            type Output = ();
            fn begin_movetext(&mut self) -> Skip {
                Skip(true)
            }
            fn end_game(&mut self) {}
        }
        Ok(self.read_game(&mut SkipAll)?.is_some())
    }

    /// An iterator reading one game per step into `visitor`; it stops after the last game or
    /// the first error.
    pub fn read_all<'r, V: Visitor>(&'r mut self, visitor: &'r mut V) -> Games<'r, R, V> {
        Games {
            reader: self,
            visitor,
            failed: false,
        }
    }

    /// Where the game most recently begun by [`PgnReader::read_game`] starts.
    pub fn game_start(&self) -> GameStart {
        self.game_start
    }

    /// Byte offset of the next unread byte.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// 1-based line of the next unread byte.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Size of the internal buffer. It is fixed at [`BUFFER_CAPACITY`]: the reader never
    /// grows it, whatever the input.
    pub fn buffer_capacity(&self) -> usize {
        self.buf.len()
    }

    /// The underlying source. Bytes already buffered but not yet read are lost.
    pub fn into_inner(self) -> R {
        self.inner
    }

    // ---- buffer management ----------------------------------------------------------------

    #[inline]
    fn byte_before(&self, i: usize) -> u8 {
        if i > 0 { self.buf[i - 1] } else { self.prev }
    }

    #[inline]
    fn at_line_start(&self) -> bool {
        is_newline(self.byte_before(self.pos))
    }

    #[inline]
    fn is_full(&self) -> bool {
        self.pos == 0 && self.end == self.buf.len()
    }

    /// Moves the unread bytes to the front and reads more after them (one `read` call).
    fn fill_more(&mut self) -> Result<(), PgnError> {
        if self.pos > 0 {
            self.prev = self.buf[self.pos - 1];
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.base += self.pos as u64;
            self.pos = 0;
        }
        if self.eof || self.end == self.buf.len() {
            return Ok(());
        }
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    // `min` guards against a `Read` impl that over-reports.
                    self.end = (self.end + n).min(self.buf.len());
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(PgnError::Io(e)),
            }
        }
    }

    /// Makes `n` bytes from `pos` available, unless the input ends first or they cannot fit.
    fn ensure(&mut self, n: usize) -> Result<(), PgnError> {
        while self.end - self.pos < n && !self.eof && !self.is_full() {
            self.fill_more()?;
        }
        Ok(())
    }

    /// Skips whitespace, counting lines. Returns `false` at the end of the input.
    #[inline]
    fn skip_space(&mut self) -> Result<bool, PgnError> {
        loop {
            let end = self.end;
            let mut i = self.pos;
            let mut line = self.line;
            let buf = &self.buf[..end];
            while i < end {
                let b = buf[i];
                if !is_space(b) {
                    break;
                }
                // Line breaks are rare next to spaces: look back only when one is found.
                if b == b'\r' || (b == b'\n' && self.byte_before(i) != b'\r') {
                    line += 1;
                }
                i += 1;
            }
            self.pos = i;
            self.line = line;
            if i < end {
                return Ok(true);
            }
            if self.eof {
                return Ok(false);
            }
            self.fill_more()?;
        }
    }

    /// Discards bytes up to (not including) the first one matching `stop`, or to the end of
    /// the input, counting lines.
    fn skip_until(&mut self, stop: impl Fn(u8) -> bool) -> Result<(), PgnError> {
        loop {
            let prev = self.byte_before(self.pos);
            let hay = &self.buf[self.pos..self.end];
            let found = hay.iter().position(|&b| stop(b));
            let upto = found.unwrap_or(hay.len());
            self.line += count_newlines(prev, &hay[..upto]);
            self.pos += upto;
            if found.is_some() || self.eof {
                return Ok(());
            }
            self.fill_more()?;
        }
    }

    /// Finds the first byte matching `stop` at or after `pos + from`, refilling as needed.
    /// Returns its index relative to `pos`, or `Err(len)` with the bytes available if the
    /// input ended or the buffer is full first.
    fn find_from(
        &mut self,
        mut from: usize,
        stop: impl Fn(u8) -> bool,
    ) -> Result<Result<usize, usize>, PgnError> {
        loop {
            let hay = &self.buf[self.pos + from..self.end];
            if let Some(k) = hay.iter().position(|&b| stop(b)) {
                return Ok(Ok(from + k));
            }
            from = self.end - self.pos;
            if self.eof || self.is_full() {
                return Ok(Err(from));
            }
            self.fill_more()?;
        }
    }

    // ---- games ----------------------------------------------------------------------------

    /// Skips what may stand between games: whitespace, `;` comments, `%` lines, byte order
    /// marks and stray closing brackets. Returns `false` at the end of the input.
    fn skip_between_games(&mut self) -> Result<bool, PgnError> {
        loop {
            if !self.skip_space()? {
                return Ok(false);
            }
            match self.buf[self.pos] {
                b';' => self.skip_until(is_newline)?,
                b'%' if self.at_line_start() => self.skip_until(is_newline)?,
                b']' | b')' | b'}' => self.pos += 1,
                0xEF => {
                    self.ensure(BOM.len())?;
                    if self.buf[self.pos..self.end].starts_with(BOM) {
                        self.pos += BOM.len();
                    } else {
                        return Ok(true);
                    }
                }
                _ => return Ok(true),
            }
        }
    }

    fn read_tags<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), PgnError> {
        while self.skip_space()? {
            match self.buf[self.pos] {
                b'[' => self.read_tag(visitor)?,
                b';' => self.skip_until(is_newline)?,
                b'%' if self.at_line_start() => self.skip_until(is_newline)?,
                _ => break,
            }
        }
        Ok(())
    }

    /// Reads one tag pair; `buf[pos]` is `[`.
    fn read_tag<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), PgnError> {
        let (line_len, truncated) = match self.find_from(1, is_newline)? {
            Ok(len) => (len, false),
            Err(len) => (len, !self.eof),
        };
        let line = &self.buf[self.pos..self.pos + line_len];
        let span = parse_tag(line);
        if !span.name.is_empty() {
            visitor.tag(
                &line[span.name],
                RawTag {
                    raw: &line[span.value],
                    escaped: span.escaped,
                },
            );
        }
        // `parse_tag` consumes at least the `[`, so the header loop always advances.
        self.pos += span.consumed.max(1);
        if truncated {
            self.skip_until(is_newline)?;
        }
        Ok(())
    }

    /// Reads a comment; `buf[pos]` is `{` (brace) or `;` (rest of line).
    fn read_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        emit: bool,
        rest_of_line: bool,
    ) -> Result<(), PgnError> {
        let line = self.line;
        let is_end = |b: u8| {
            if rest_of_line {
                is_newline(b)
            } else {
                b == b'}'
            }
        };
        let (len, complete) = match self.find_from(1, is_end)? {
            Ok(len) => (len, true),
            Err(len) => (len, self.eof),
        };
        let opening = self.buf[self.pos];
        let text = &self.buf[self.pos + 1..self.pos + len];
        self.line += count_newlines(opening, text);
        if emit {
            visitor.comment(RawComment {
                text,
                line,
                truncated: !complete,
            });
        }
        self.pos += len;
        if !complete {
            self.skip_until(is_end)?;
        }
        // Consume the `}`; a line break is left for `skip_space` to count.
        if !rest_of_line && self.pos < self.end {
            self.pos += 1;
        }
        Ok(())
    }

    fn read_movetext<V: Visitor>(
        &mut self,
        visitor: &mut V,
        skip_all: bool,
    ) -> Result<(), PgnError> {
        let mut nesting = Nesting::default();
        loop {
            if let Stop::GameOver = self.lex_buffered(visitor, skip_all, &mut nesting) {
                return Ok(());
            }
            // One step the careful way: a refill, or something the fast lexer leaves alone.
            if !self.skip_space()? {
                break;
            }
            if self.end - self.pos < WINDOW {
                self.ensure(WINDOW)?;
            }
            let emit = !skip_all && nesting.hidden == 0;
            match self.buf[self.pos] {
                b'{' => self.read_comment(visitor, emit, false)?,
                b';' => self.read_comment(visitor, emit, true)?,
                // The next game's tags: the current game had no result token.
                b'[' => break,
                b'(' => {
                    self.pos += 1;
                    nesting.open(visitor, emit);
                }
                b')' => {
                    self.pos += 1;
                    nesting.close(visitor);
                }
                b'$' => {
                    self.pos += 1;
                    let (nag, digits) = read_nag(&self.buf[self.pos..self.end]);
                    if let (true, Some(nag)) = (emit, nag) {
                        visitor.nag(nag);
                    }
                    self.pos += digits;
                }
                b'%' if self.at_line_start() => self.skip_until(is_newline)?,
                b']' | b'}' => self.pos += 1,
                _ => {
                    if self.read_token(visitor, emit, nesting.is_top_level())? {
                        return Ok(());
                    }
                }
            }
        }
        nesting.close_all(visitor);
        Ok(())
    }

    /// The hot loop: lexes movetext straight from the buffered bytes, with the position and
    /// line in locals, until the game ends or something needs the careful path (the end of
    /// the buffered bytes, a tag, a `;` comment, a `%` line, an unfinished comment).
    #[inline]
    fn lex_buffered<V: Visitor>(
        &mut self,
        visitor: &mut V,
        skip_all: bool,
        nesting: &mut Nesting,
    ) -> Stop {
        let end = self.end;
        let at_eof = self.eof;
        let buf = &self.buf[..end];
        let prev = self.prev;
        let byte_before = |i: usize| if i > 0 { buf[i - 1] } else { prev };
        let mut pos = self.pos;
        let mut line = self.line;
        let stop = loop {
            while pos < end {
                let b = buf[pos];
                if !is_space(b) {
                    break;
                }
                if b == b'\r' || (b == b'\n' && byte_before(pos) != b'\r') {
                    line += 1;
                }
                pos += 1;
            }
            if pos == end {
                break Stop::Careful;
            }
            let emit = !skip_all && nesting.hidden == 0;
            match buf[pos] {
                b'(' => {
                    pos += 1;
                    nesting.open(visitor, emit);
                }
                b')' => {
                    pos += 1;
                    nesting.close(visitor);
                }
                b'{' => {
                    let Some(len) = buf[pos + 1..].iter().position(|&b| b == b'}') else {
                        break Stop::Careful;
                    };
                    let text = &buf[pos + 1..pos + 1 + len];
                    if emit {
                        visitor.comment(RawComment {
                            text,
                            line,
                            truncated: false,
                        });
                    }
                    line += count_newlines(b'{', text);
                    pos += len + 2;
                }
                b'$' => {
                    let (nag, digits) = read_nag(&buf[pos + 1..]);
                    if !at_eof && pos + 1 + digits == end {
                        break Stop::Careful;
                    }
                    if let (true, Some(nag)) = (emit, nag) {
                        visitor.nag(nag);
                    }
                    pos += 1 + digits;
                }
                b'[' | b';' | b'%' | b']' | b'}' => break Stop::Careful,
                _ => {
                    let mut at = pos + 1;
                    while at < end && !is_delimiter(buf[at]) {
                        at += 1;
                    }
                    if !at_eof && at + LOOKAHEAD > end {
                        break Stop::Careful;
                    }
                    let step = deliver(
                        visitor,
                        buf,
                        pos,
                        at,
                        line,
                        at_eof,
                        emit,
                        nesting.is_top_level(),
                    );
                    pos = step.resume;
                    line += step.lines;
                    if step.game_over {
                        break Stop::GameOver;
                    }
                }
            }
        };
        self.pos = pos;
        self.line = line;
        stop
    }

    /// Reads one token at `pos` (a non-delimiter byte), refilling as needed. Returns `true` if
    /// it was a result token at the top level, which ends the game.
    fn read_token<V: Visitor>(
        &mut self,
        visitor: &mut V,
        emit: bool,
        top_level: bool,
    ) -> Result<bool, PgnError> {
        let len = match self.find_from(0, is_delimiter)? {
            Ok(len) => len,
            Err(len) if self.eof => len,
            Err(len) => {
                // Longer than the buffer: no move, no result; discard it.
                self.pos += len;
                self.skip_until(is_delimiter)?;
                return Ok(false);
            }
        };
        let len = len.max(1);
        if self.end - self.pos < len + LOOKAHEAD {
            self.ensure(len + LOOKAHEAD)?;
        }
        let step = deliver(
            visitor,
            &self.buf[..self.end],
            self.pos,
            self.pos + len,
            self.line,
            self.eof,
            emit,
            top_level,
        );
        self.pos = step.resume;
        self.line += step.lines;
        Ok(step.game_over)
    }
}

/// Why [`PgnReader::lex_buffered`] returned.
enum Stop {
    /// The next step needs the careful, refilling path.
    Careful,
    /// A result token ended the game.
    GameOver,
}

/// Open variations in the movetext.
#[derive(Default)]
struct Nesting {
    /// Variations the visitor entered.
    visible: u32,
    /// Depth inside a skipped variation (or inside any variation when skipping the movetext).
    hidden: u32,
}

impl Nesting {
    #[inline]
    fn open<V: Visitor>(&mut self, visitor: &mut V, emit: bool) {
        if !emit {
            self.hidden = self.hidden.saturating_add(1);
        } else if visitor.begin_variation().0 {
            self.hidden = 1;
        } else {
            self.visible = self.visible.saturating_add(1);
        }
    }

    #[inline]
    fn close<V: Visitor>(&mut self, visitor: &mut V) {
        if self.hidden > 0 {
            self.hidden -= 1;
        } else if self.visible > 0 {
            self.visible -= 1;
            visitor.end_variation();
        }
        // A `)` with no `(` is ignored.
    }

    fn close_all<V: Visitor>(&mut self, visitor: &mut V) {
        for _ in 0..self.visible {
            visitor.end_variation();
        }
        self.visible = 0;
        self.hidden = 0;
    }

    #[inline]
    fn is_top_level(&self) -> bool {
        self.visible == 0 && self.hidden == 0
    }
}

/// Reads the digits after a `$`: the NAG (if 0 to 255) and how many digits there were.
#[inline]
fn read_nag(bytes: &[u8]) -> (Option<u8>, usize) {
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

/// Where lexing resumes after a token, and whether it ended the game.
struct Delivered {
    resume: usize,
    lines: u64,
    game_over: bool,
}

/// Classifies the token `buf[start..at]` and tells the visitor about it. `buf` must hold
/// [`LOOKAHEAD`] bytes after the token unless the input ends sooner (`at_eof`).
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the hot path keeps its state in locals, not a struct
fn deliver<V: Visitor>(
    visitor: &mut V,
    buf: &[u8],
    start: usize,
    at: usize,
    line: u64,
    at_eof: bool,
    emit: bool,
    top_level: bool,
) -> Delivered {
    let mut step = Delivered {
        resume: at,
        lines: 0,
        game_over: false,
    };
    match classify(&buf[start..at]) {
        Token::Move {
            bytes,
            nag,
            en_passant,
        } => {
            let separate = peek_en_passant(buf, at, buf[at - 1], at_eof);
            if let Some((skip, lines)) = separate {
                step.resume += skip;
                step.lines = lines;
            }
            if emit {
                visitor.san(RawMove {
                    bytes,
                    line,
                    en_passant_suffix: en_passant || separate.is_some(),
                });
                if let Some(nag) = nag {
                    visitor.nag(nag);
                }
            }
        }
        Token::Nag(nag) => {
            if emit {
                visitor.nag(nag);
            }
        }
        Token::Outcome(outcome) => {
            if top_level {
                if emit {
                    visitor.outcome(outcome);
                }
                step.game_over = true;
            }
        }
        Token::Nothing => {}
    }
    step
}

/// Iterator over the games of a [`PgnReader`], from [`PgnReader::read_all`].
pub struct Games<'r, R, V> {
    reader: &'r mut PgnReader<R>,
    visitor: &'r mut V,
    failed: bool,
}

impl<R: Read, V: Visitor> Iterator for Games<'_, R, V> {
    type Item = Result<V::Output, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let next = self.reader.read_game(self.visitor).transpose();
        self.failed = matches!(next, Some(Err(_)));
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    #[test]
    fn move_numbers_carry_nothing() {
        for token in [&b"1."[..], b"12.", b"1...", "1…".as_bytes(), b"...", b"12"] {
            assert_eq!(classify(token), Token::Nothing, "{token:?}");
        }
    }

    #[test]
    fn glued_move_number_is_cut_off() {
        let expect = |bytes| Token::Move {
            bytes,
            nag: None,
            en_passant: false,
        };
        assert_eq!(classify(b"1.e4"), expect(b"e4"));
        assert_eq!(classify(b"1e4"), expect(b"e4"));
        assert_eq!(classify(b"5...Cf6"), expect(b"Cf6"));
        assert_eq!(classify("5…Cf6".as_bytes()), expect(b"Cf6"));
        assert_eq!(classify(b"5.0-0"), expect(b"0-0"));
    }

    #[test]
    fn castling_with_zeros_is_not_a_result() {
        assert!(matches!(
            classify(b"0-0"),
            Token::Move { bytes: b"0-0", .. }
        ));
        assert!(matches!(
            classify(b"0-0-0+"),
            Token::Move {
                bytes: b"0-0-0+",
                ..
            }
        ));
        assert_eq!(
            classify(b"0-1"),
            Token::Outcome(Some(Outcome::Decisive {
                winner: Color::Black
            }))
        );
    }

    #[test]
    fn glued_suffix_annotation_becomes_a_nag() {
        assert_eq!(
            classify(b"e4!?"),
            Token::Move {
                bytes: b"e4",
                nag: Some(5),
                en_passant: false
            }
        );
        assert_eq!(classify(b"?!"), Token::Nag(6));
    }

    #[test]
    fn glued_en_passant_mark_is_cut_off() {
        assert_eq!(
            classify(b"exd6a.p."),
            Token::Move {
                bytes: b"exd6",
                nag: None,
                en_passant: true
            }
        );
        assert_eq!(classify(b"e.p."), Token::Nothing);
    }

    #[test]
    fn tag_parser_tolerates_missing_bracket_and_quote() {
        let line = br#"[White "Fischer, R."]"#;
        let span = parse_tag(line);
        assert_eq!(&line[span.name], b"White");
        assert_eq!(&line[span.value], b"Fischer, R.");
        assert_eq!(span.consumed, line.len());

        let line = br#"[Black "Spassky"  "#;
        let span = parse_tag(line);
        assert_eq!(&line[span.value], b"Spassky");

        let line = br#"[Site "Reykjavik]"#;
        let span = parse_tag(line);
        assert_eq!(&line[span.value], b"Reykjavik");

        let line = br#"[Round 3 ]"#;
        let span = parse_tag(line);
        assert_eq!(&line[span.name], b"Round");
        assert_eq!(&line[span.value], b"3");
    }

    #[test]
    fn newline_counting_treats_crlf_as_one_break() {
        assert_eq!(count_newlines(b' ', b"a\r\nb\rc\nd"), 3);
        assert_eq!(count_newlines(b'\r', b"\nx"), 0);
    }
}
