//! What the reader hands out: the [`Visitor`] trait and the raw parts of a game it receives
//! (tags, move tokens, comments), borrowed from the reader's buffer.

use std::borrow::Cow;

use crate::outcome::Outcome;

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
    pub(super) raw: &'a [u8],
    pub(super) escaped: bool,
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
    pub(super) bytes: &'a [u8],
    pub(super) line: u64,
    pub(super) en_passant_suffix: bool,
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

    /// Whether the token is a null move (`Z0` or `--`, as ChessBase writes one in analysis):
    /// not a move of chess, but a token that passes the turn inside variations.
    pub fn is_null_move(&self) -> bool {
        crate::pgn::is_null_move(self.bytes)
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
    pub(super) text: &'a [u8],
    pub(super) line: u64,
    pub(super) truncated: bool,
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

/// Receives the parts of one game from [`super::PgnReader::read_game`], in input order.
///
/// Every method but [`Visitor::end_game`] has a default that ignores its input. Variations are
/// skipped unless [`Visitor::begin_variation`] says otherwise.
pub trait Visitor {
    /// What [`super::PgnReader::read_game`] returns for one game.
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

    /// The draw-offer mark `(=)` after the move just delivered (FIDE Art. 9.1b: the offer is
    /// recorded in the score; Appendix C13/E13: as `(=)`). It is not a variation. Inside a
    /// variation the visitor entered, it belongs to that variation's move.
    fn draw_offer(&mut self) {}

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

    /// The game is over; produce the result of [`super::PgnReader::read_game`].
    fn end_game(&mut self) -> Self::Output;
}
