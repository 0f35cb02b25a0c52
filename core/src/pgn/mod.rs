//! # PGN: Portable Game Notation in and out
//!
//! - [`PgnReader`]: a streaming, zero-copy reader in the style of `pgn-reader`. It walks any
//!   [`std::io::Read`] through a fixed 64 KiB buffer and hands tags, raw move tokens, NAGs,
//!   comments, variations and the result to a [`Visitor`]. It does not parse SAN: move tokens
//!   reach the visitor as byte slices, and the visitor decides what a token means.
//! - [`write_game`] / [`PgnWriter`]: the canonical *export format* (PGN standard §8): Seven
//!   Tag Roster first, escaped values, numbered movetext wrapped under 80 columns.
//!
//! Malformed text never makes the reader fail or panic: unknown bytes are skipped or handed to
//! the visitor as move tokens for the SAN parser to reject. [`PgnError`] is reserved for the
//! underlying reader's I/O errors.
//!
//! ## What the visitor sees
//!
//! | Input                               | Delivered as                                      |
//! |-------------------------------------|---------------------------------------------------|
//! | `[Name "Va\"lue"]`                  | [`Visitor::tag`] with a [`RawTag`] (escapes kept)  |
//! | `1.`, `1...`, `1…`, `12.`           | nothing (move numbers are dropped)                |
//! | `1.e4`, `1e4`, `5...Cf6`            | the move number is cut off, `e4` / `Cf6` remains  |
//! | `e4!?` (glued suffix annotation)     | [`Visitor::san`] with `e4`, then [`Visitor::nag`] 5 |
//! | `!`, `?`, `!!`, `??`, `!?`, `?!`    | [`Visitor::nag`] 1 to 6                           |
//! | `$12`                               | [`Visitor::nag`] 12                               |
//! | `exd6 e.p.`, `exd6 a.p.`, `exd6e.p.`, `exd6 a. p.`, `exd6 (a.p.)` | one token `exd6` with [`RawMove::has_en_passant_suffix`] |
//! | `Nf3(=)`, `Nf3 (=)`                 | `Nf3`, then [`Visitor::draw_offer`] (FIDE C13/E13; not a variation) |
//! | `0-0`, `0-0-0`, `O-O`, `00`, `000`, `0–0`, `--`, `Z0` | move tokens, unchanged ([`RawMove::is_null_move`] for the last two) |
//! | `5254`, `57581` (four or five digits) | move tokens: ICCF numeric notation, not move numbers |
//! | `1-0`, `0-1`, `1/2-1/2`, `½-½`, `*` | [`Visitor::outcome`]; ends the game               |
//! | `{…}`, `; …`                        | [`Visitor::comment`]                              |
//! | `%…` at column 0                    | nothing (escape line)                             |
mod reader;
pub mod replay;
mod writer;

use crate::outcome::Outcome;

pub use reader::{
    BUFFER_CAPACITY, GameStart, Games, PgnReader, RawComment, RawMove, RawTag, Skip, Visitor,
};
pub use writer::{GameRecord, PgnWriter, WrittenMove, write_game};

/// Whether a move token is a null move: `Z0` or `--` (ChessBase and most databases), which
/// passes the turn in analysis. It is never a legal move of a game's main line.
pub fn is_null_move(token: &[u8]) -> bool {
    matches!(token, b"Z0" | b"--")
}

/// An I/O failure of the byte source under a [`PgnReader`].
///
/// Syntax problems are never errors: the reader tolerates them or passes the offending token
/// to the [`Visitor`].
#[derive(Debug, thiserror::Error)]
pub enum PgnError {
    /// Reading from the underlying source failed.
    #[error("cannot read PGN input: {0}")]
    Io(#[from] std::io::Error),
}

/// Reads every game in `bytes` and returns how many events the visitor saw (tags, moves,
/// NAGs, comments, variation starts and ends, results, games).
///
/// An entry point for fuzzers: it must terminate and never panic, whatever the input.
/// Variations are entered rather than skipped so that their code paths are exercised.
pub fn fuzz_read_all(bytes: &[u8]) -> usize {
    struct Count(usize);
    impl Visitor for Count {
        type Output = ();
        fn begin_game(&mut self, _start: GameStart) {
            self.0 += 1;
        }
        fn tag(&mut self, _name: &[u8], value: RawTag<'_>) {
            self.0 += 1 + value.decode().len().min(1);
        }
        fn san(&mut self, _token: RawMove<'_>) {
            self.0 += 1;
        }
        fn nag(&mut self, _nag: u8) {
            self.0 += 1;
        }
        fn draw_offer(&mut self) {
            self.0 += 1;
        }
        fn comment(&mut self, _comment: RawComment<'_>) {
            self.0 += 1;
        }
        fn begin_variation(&mut self) -> Skip {
            self.0 += 1;
            Skip(false)
        }
        fn end_variation(&mut self) {
            self.0 += 1;
        }
        fn outcome(&mut self, _outcome: Option<Outcome>) {
            self.0 += 1;
        }
        fn end_game(&mut self) {}
    }

    let mut reader = PgnReader::new(bytes);
    let mut count = Count(0);
    // A byte slice never fails to read, so an error cannot happen; stop on one all the same.
    while let Ok(Some(())) = reader.read_game(&mut count) {}
    count.0
}
