//! The result of a game ([`Outcome`]) and its PGN text (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`).
//!
//! A leaf module: the rules decide outcomes and PGN reads and writes them; both use this one
//! type and its parsing without depending on each other.

use crate::types::Color;
use std::fmt;

/// The result of a finished game (FIDE Art. 11 scores it 1, ½ or 0). An unfinished or unknown
/// game (`*` in PGN) is `None` wherever an `Option<Outcome>` is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    Decisive { winner: Color },
    Draw,
}

impl Outcome {
    /// PGN result text: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Decisive {
                winner: Color::White,
            } => "1-0",
            Outcome::Decisive {
                winner: Color::Black,
            } => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner } => Some(winner),
            Outcome::Draw => None,
        }
    }

    /// Reads a result token: `1-0`, `0-1`, `1/2-1/2` or the Unicode `½-½`; `None` for
    /// anything else, including `*` (see [`parse_result`]).
    pub fn from_ascii(token: &[u8]) -> Option<Outcome> {
        match parse_result(token) {
            Some(Some(outcome)) => Some(outcome),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads a PGN game-termination marker.
///
/// `Some(Some(outcome))` for `1-0`, `0-1`, `1/2-1/2` and `½-½`; `Some(None)` for `*` (game
/// unfinished or result unknown); `None` if the token is not a result at all. Castling written
/// with zeros (`0-0`) is not a result.
pub fn parse_result(token: &[u8]) -> Option<Option<Outcome>> {
    match token {
        b"1-0" => Some(Some(Outcome::Decisive {
            winner: Color::White,
        })),
        b"0-1" => Some(Some(Outcome::Decisive {
            winner: Color::Black,
        })),
        // The second pattern is `½-½` in UTF-8.
        b"1/2-1/2" | b"\xC2\xBD-\xC2\xBD" => Some(Some(Outcome::Draw)),
        b"*" => Some(None),
        _ => None,
    }
}
