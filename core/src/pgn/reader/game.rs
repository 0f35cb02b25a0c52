//! Reading one game: what stands between games, the tag pairs, comments, and the movetext,
//! whose hot loop lexes straight from the buffer and hands each token to the [`Visitor`].

use std::io::Read;

use super::lex::{
    LOOKAHEAD, Token, classify, count_newlines, is_delimiter, is_newline, is_space, parse_tag,
    peek_en_passant, read_nag,
};
use super::visitor::{RawComment, RawMove, RawTag, Visitor};
use super::{PgnError, PgnReader};

/// Bytes the reader tries to have in the buffer before each movetext token, so that almost
/// every token and its one-token look-ahead (`exd6 e.p.`) are found without a refill check.
const WINDOW: usize = 1024;

/// The mark of a draw offer in the score (FIDE Art. 9.1b, Appendix C13/E13): after a move,
/// glued (`11.Rb1(=)`, seed 002) or not (`11. Rb1 (=)`, seed 003). Not a variation.
const DRAW_OFFER: &[u8] = b"(=)";

/// The UTF-8 byte order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl<R: Read> PgnReader<R> {
    /// Skips what may stand between games: whitespace, `;` comments, `%` lines, byte order
    /// marks and stray closing brackets. Returns `false` at the end of the input.
    pub(super) fn skip_between_games(&mut self) -> Result<bool, PgnError> {
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

    pub(super) fn read_tags<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), PgnError> {
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

    pub(super) fn read_movetext<V: Visitor>(
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
                b'(' if self.buf[self.pos..self.end].starts_with(DRAW_OFFER) => {
                    self.pos += DRAW_OFFER.len();
                    if emit {
                        visitor.draw_offer();
                    }
                }
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
                    if !at_eof && end - pos < DRAW_OFFER.len() {
                        break Stop::Careful;
                    }
                    if buf[pos..].starts_with(DRAW_OFFER) {
                        pos += DRAW_OFFER.len();
                        if emit {
                            visitor.draw_offer();
                        }
                    } else {
                        pos += 1;
                        nesting.open(visitor, emit);
                    }
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
