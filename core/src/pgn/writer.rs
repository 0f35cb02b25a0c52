//! Canonical PGN export (PGN standard §8, "export format").

use std::fmt::{self, Write};

/// Lines of movetext are at most this many characters (the standard asks for under 80).
const MAX_LINE: usize = 79;

/// The Seven Tag Roster (PGN standard §8.1.1) in its required order, with the value written
/// when a game has no such tag. `Result` always comes from [`GameRecord::result`].
const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// One move of a [`GameRecord`], already in SAN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WrittenMove {
    /// The move in SAN, e.g. `Nf3`, `O-O`, `e8=Q+`; written as given.
    pub san: String,
    /// A comment after the move. `}` cannot appear inside a PGN comment and is written as `)`;
    /// runs of whitespace (line breaks included) become one space.
    pub comment: Option<String>,
    /// Numeric annotation glyphs after the move, written as `$n`.
    pub nags: Vec<u8>,
    /// The mover offered a draw with this move (FIDE Art. 9.1b): written `(=)` after it, as
    /// Appendix C13/E13 marks an offer in the score.
    pub draw_offer: bool,
}

impl WrittenMove {
    /// A move without comment or annotation.
    pub fn new(san: impl Into<String>) -> WrittenMove {
        WrittenMove {
            san: san.into(),
            comment: None,
            nags: Vec::new(),
            draw_offer: false,
        }
    }
}

/// A game ready to be written as PGN: tags, SAN moves and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Tag pairs. The Seven Tag Roster is written first whatever the order here; other tags
    /// follow in the order given. Names other than letters, digits and `_` are left out.
    pub tags: Vec<(String, String)>,
    /// The moves of the main line, in order.
    pub moves: Vec<WrittenMove>,
    /// Whether the first move is Black's (a game set up from a FEN with Black to move).
    pub first_ply_black: bool,
    /// The move number of the first move (1 for a game from the initial position).
    pub first_move_number: u32,
    /// The result token, `1-0`, `0-1`, `1/2-1/2` or `*` (empty is written as `*`). It is also
    /// the value of the `Result` tag, whatever [`GameRecord::tags`] says.
    pub result: String,
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord {
            tags: Vec::new(),
            moves: Vec::new(),
            first_ply_black: false,
            first_move_number: 1,
            result: "*".to_owned(),
        }
    }
}

impl fmt::Display for GameRecord {
    /// The game in export format, as [`write_game`] writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_game(self, f)
    }
}

/// Writes one game in PGN export format: tag pairs, a blank line, movetext wrapped under 80
/// columns, and a line break after the result token.
///
/// The Seven Tag Roster comes first in its fixed order (`?` or `????.??.??` for a missing
/// tag), then the other tags in the given order. A `FEN` tag is preceded by `SetUp "1"`
/// (any other `SetUp` tag is dropped). Values are escaped (`\"`, `\\`); line breaks and other
/// control characters in a value become spaces.
///
/// Moves are numbered `1. e4 e5 2. Nf3`; a Black move gets its own number (`3... Nc6`) when it
/// is the first move or follows a comment. A move with a draw offer is followed by `(=)`
/// (FIDE Appendix C13/E13), which [`crate::pgn::PgnReader`] reads back as
/// [`crate::pgn::Visitor::draw_offer`] (a reader that does not know the mark sees an empty
/// variation).
///
/// # Errors
/// Whatever `out` returns; a `String` never fails.
///
/// # Examples
///
/// ```
/// use sobre_core::pgn::{GameRecord, WrittenMove, write_game};
///
/// let game = GameRecord {
///     tags: vec![("White".into(), "Capablanca".into())],
///     moves: ["e4", "e5", "Nf3"].into_iter().map(WrittenMove::new).collect(),
///     result: "*".into(),
///     ..GameRecord::default()
/// };
/// let mut pgn = String::new();
/// write_game(&game, &mut pgn)?;
/// assert!(pgn.starts_with("[Event \"?\"]\n"));
/// assert!(pgn.ends_with("\n\n1. e4 e5 2. Nf3 *\n"));
/// # Ok::<(), std::fmt::Error>(())
/// ```
pub fn write_game(game: &GameRecord, out: &mut impl Write) -> fmt::Result {
    let result = match game.result.trim() {
        "" => "*",
        result => result,
    };
    for (name, default) in SEVEN_TAG_ROSTER {
        let value = if name == "Result" {
            result
        } else {
            game.tags
                .iter()
                .find(|(n, _)| n == name)
                .map_or(default, |(_, v)| v.as_str())
        };
        write_tag(out, name, value)?;
    }
    let has_fen = game.tags.iter().any(|(n, _)| n == "FEN");
    let mut wrote_setup = false;
    for (name, value) in &game.tags {
        let in_roster = SEVEN_TAG_ROSTER.iter().any(|(n, _)| n == name);
        if in_roster || !is_tag_name(name) || (has_fen && name == "SetUp") {
            continue;
        }
        if name == "FEN" && !wrote_setup {
            write_tag(out, "SetUp", "1")?;
            wrote_setup = true;
        }
        write_tag(out, name, value)?;
    }
    out.write_char('\n')?;

    let mut line = Wrapper { out, column: 0 };
    let mut number = game.first_move_number.max(1);
    let mut black = game.first_ply_black;
    let mut needs_number = true;
    for mv in &game.moves {
        if !black {
            line.token(&format!("{number}."))?;
        } else if needs_number {
            line.token(&format!("{number}..."))?;
        }
        line.token(mv.san.trim())?;
        for nag in &mv.nags {
            line.token(&format!("${nag}"))?;
        }
        if mv.draw_offer {
            line.token("(=)")?;
        }
        needs_number = false;
        if let Some(comment) = &mv.comment {
            line.comment(comment)?;
            needs_number = true;
        }
        if black {
            number = number.saturating_add(1);
        }
        black = !black;
    }
    line.token(result)?;
    line.out.write_char('\n')
}

/// Writes games one after another, a blank line between them.
#[derive(Debug)]
pub struct PgnWriter<W> {
    out: W,
    games: u64,
}

impl<W: Write> PgnWriter<W> {
    /// A writer appending to `out`.
    pub fn new(out: W) -> PgnWriter<W> {
        PgnWriter { out, games: 0 }
    }

    /// Writes one game (see [`write_game`]), preceded by a blank line unless it is the first.
    ///
    /// # Errors
    /// Whatever the underlying writer returns.
    pub fn write_game(&mut self, game: &GameRecord) -> fmt::Result {
        if self.games > 0 {
            self.out.write_char('\n')?;
        }
        self.games += 1;
        write_game(game, &mut self.out)
    }

    /// How many games have been written.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn write_tag(out: &mut impl Write, name: &str, value: &str) -> fmt::Result {
    write!(out, "[{name} \"")?;
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.write_char('\\')?;
                out.write_char(c)?;
            }
            c if c.is_control() => out.write_char(' ')?,
            c => out.write_char(c)?,
        }
    }
    out.write_str("\"]\n")
}

/// Joins tokens with single spaces, breaking lines before they would pass [`MAX_LINE`].
struct Wrapper<'w, W> {
    out: &'w mut W,
    column: usize,
}

impl<W: Write> Wrapper<'_, W> {
    fn token(&mut self, token: &str) -> fmt::Result {
        let width = token.chars().count();
        if self.column > 0 {
            if self.column + 1 + width > MAX_LINE {
                self.out.write_char('\n')?;
                self.column = 0;
            } else {
                self.out.write_char(' ')?;
                self.column += 1;
            }
        }
        self.out.write_str(token)?;
        self.column += width;
        Ok(())
    }

    /// Writes `{text}`, word by word so that a long comment wraps like the moves.
    fn comment(&mut self, text: &str) -> fmt::Result {
        let text = text.replace('}', ")");
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            [] => self.token("{}"),
            [only] => self.token(&format!("{{{only}}}")),
            [first, middle @ .., last] => {
                self.token(&format!("{{{first}"))?;
                for word in middle {
                    self.token(word)?;
                }
                self.token(&format!("{last}}}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(sans: &[&str]) -> Vec<WrittenMove> {
        sans.iter().copied().map(WrittenMove::new).collect()
    }

    #[test]
    fn seven_tag_roster_comes_first_with_defaults() {
        let game = GameRecord {
            tags: vec![
                ("Annotator".into(), "Lasker".into()),
                ("White".into(), "Tal".into()),
            ],
            result: "1-0".into(),
            ..GameRecord::default()
        };
        assert_eq!(
            game.to_string(),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"Tal\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[Annotator \"Lasker\"]\n\n1-0\n"
        );
    }

    #[test]
    fn tag_values_are_escaped() {
        let game = GameRecord {
            tags: vec![("Event".into(), r#"The "Big" \ one"#.into())],
            ..GameRecord::default()
        };
        assert!(
            game.to_string()
                .starts_with(r#"[Event "The \"Big\" \\ one"]"#)
        );
    }

    #[test]
    fn fen_tag_brings_setup() {
        let game = GameRecord {
            tags: vec![("FEN".into(), "8/8/8/8/8/8/8/K6k b - - 0 40".into())],
            moves: moves(&["Kg1"]),
            first_ply_black: true,
            first_move_number: 40,
            result: "*".into(),
        };
        let text = game.to_string();
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/K6k b - - 0 40\"]\n"));
        assert!(text.ends_with("\n\n40... Kg1 *\n"));
    }

    #[test]
    fn black_move_after_comment_gets_its_number() {
        let mut mv = moves(&["e4", "e5", "Nf3", "Nc6"]);
        mv[0].comment = Some("best by test".into());
        mv[2].nags = vec![1];
        let game = GameRecord {
            moves: mv,
            result: "*".into(),
            ..GameRecord::default()
        };
        assert!(
            game.to_string()
                .ends_with("\n1. e4 {best by test} 1... e5 2. Nf3 $1 Nc6 *\n")
        );
    }

    #[test]
    fn closing_brace_in_comment_is_replaced() {
        let mut mv = moves(&["e4"]);
        mv[0].comment = Some("a } b".into());
        let game = GameRecord {
            moves: mv,
            ..GameRecord::default()
        };
        assert!(game.to_string().ends_with("1. e4 {a ) b} *\n"));
    }

    #[test]
    fn movetext_lines_stay_under_80_columns() {
        let sans: Vec<&str> = ["Nf3", "Nf6", "Ng1", "Ng8"].repeat(40);
        let mut mv = moves(&sans);
        mv[7].comment = Some("word ".repeat(50));
        let game = GameRecord {
            moves: mv,
            result: "1/2-1/2".into(),
            ..GameRecord::default()
        };
        let text = game.to_string();
        let movetext = text.split("\n\n").nth(1).unwrap_or_default();
        assert!(movetext.lines().count() > 3);
        for line in movetext.lines() {
            assert!(line.len() < 80, "{line:?}");
            assert!(!line.starts_with(' ') && !line.ends_with(' '));
        }
    }

    #[test]
    fn writer_separates_games_with_a_blank_line() {
        let mut writer = PgnWriter::new(String::new());
        let game = GameRecord::default();
        assert!(writer.write_game(&game).is_ok());
        assert!(writer.write_game(&game).is_ok());
        assert_eq!(writer.games(), 2);
        let text = writer.into_inner();
        assert!(text.contains("*\n\n[Event"));
    }
}
