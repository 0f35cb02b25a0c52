//! The streaming PGN reader: a byte lexer over a fixed buffer, driving a [`Visitor`].
//!
//! The hot loop works on `&[u8]` windows of one boxed buffer that never grows: the reader
//! compacts and refills it, so memory stays at [`BUFFER_CAPACITY`] whatever the input size.
//! Anything that does not fit (a comment or a line longer than the buffer) is truncated, and
//! the rest is skipped while still counting lines.
//!
//! `lex.rs` classifies bytes and tokens (no state, no I/O); `game.rs` reads one game (tags,
//! comments, the movetext loop) and hands its parts to the [`Visitor`] of `visitor.rs`; this
//! file holds the reader itself and its buffer.

use std::io::{self, Read};

use super::PgnError;

mod game;
mod lex;
#[cfg(test)]
mod tests;
mod visitor;

pub use visitor::{GameStart, RawComment, RawMove, RawTag, Skip, Visitor};

use lex::{count_newlines, is_newline, is_space};

/// Size of the reader's buffer in bytes. The longest comment, tag line or token the reader
/// delivers whole; longer ones are truncated (comments) or skipped (tokens).
pub const BUFFER_CAPACITY: usize = 64 * 1024;

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
}

// Buffer management: the one buffer is compacted and refilled, never grown.
impl<R: Read> PgnReader<R> {
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
