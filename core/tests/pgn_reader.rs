//! Behaviour of the streaming PGN reader and the canonical writer, seen from outside the
//! crate: what a visitor receives for each construct of real-world PGN.

use std::io::{self, Read};

use proptest::prelude::*;
use sobre_core::pgn::{
    BUFFER_CAPACITY, GameRecord, GameStart, PgnError, PgnReader, PgnWriter, RawComment, RawMove,
    RawTag, Skip, Visitor, WrittenMove, fuzz_read_all,
};
use sobre_core::{Color, Outcome};

/// Everything a visitor can see of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Game {
    start: GameStart,
    tags: Vec<(String, String)>,
    /// Movetext events in order: `e4`, `$5`, `{text}`, `(`, `)`, `ep:exd6`, `(=)` (a draw
    /// offer), `!comment-cut`.
    events: Vec<String>,
    /// The 1-based line of each move token.
    move_lines: Vec<u64>,
    outcome: Option<Option<Outcome>>,
}

impl Game {
    fn moves(&self) -> Vec<&str> {
        self.events
            .iter()
            .filter(|e| !e.starts_with(['$', '{', '(', ')']))
            .map(String::as_str)
            .collect()
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Records every event; `variations` says whether to enter them.
#[derive(Default)]
struct Recorder {
    game: Game,
    variations: bool,
    skip_movetext: bool,
}

impl Recorder {
    fn with_variations() -> Recorder {
        Recorder {
            variations: true,
            ..Recorder::default()
        }
    }
}

impl Visitor for Recorder {
    type Output = Game;

    fn begin_game(&mut self, start: GameStart) {
        self.game.start = start;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        self.game.tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode().into_owned(),
        ));
    }

    fn begin_movetext(&mut self) -> Skip {
        Skip(self.skip_movetext)
    }

    fn san(&mut self, token: RawMove<'_>) {
        let text = String::from_utf8_lossy(token.as_bytes());
        let event = if token.has_en_passant_suffix() {
            format!("ep:{text}")
        } else {
            text.into_owned()
        };
        self.game.events.push(event);
        self.game.move_lines.push(token.line());
    }

    fn nag(&mut self, nag: u8) {
        self.game.events.push(format!("${nag}"));
    }

    fn draw_offer(&mut self) {
        self.game.events.push("(=)".into());
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        let cut = if comment.is_truncated() { "…cut" } else { "" };
        self.game
            .events
            .push(format!("{{{}{cut}}}", comment.decode()));
    }

    fn begin_variation(&mut self) -> Skip {
        if self.variations {
            self.game.events.push("(".into());
        }
        Skip(!self.variations)
    }

    fn end_variation(&mut self) {
        self.game.events.push(")".into());
    }

    fn outcome(&mut self, outcome: Option<Outcome>) {
        self.game.outcome = Some(outcome);
    }

    fn end_game(&mut self) -> Game {
        std::mem::take(&mut self.game)
    }
}

fn read_with(input: &[u8], mut visitor: Recorder) -> Vec<Game> {
    let mut reader = PgnReader::new(input);
    let mut games = Vec::new();
    loop {
        match reader.read_game(&mut visitor) {
            Ok(Some(game)) => games.push(game),
            Ok(None) => return games,
            Err(e) => panic!("a byte slice cannot fail to read: {e}"),
        }
    }
}

fn read(input: &str) -> Vec<Game> {
    read_with(input.as_bytes(), Recorder::default())
}

fn read_one(input: &str) -> Game {
    let mut games = read(input);
    assert_eq!(games.len(), 1, "expected one game in {input:?}: {games:#?}");
    games.remove(0)
}

const WHITE_WINS: Option<Option<Outcome>> = Some(Some(Outcome::Decisive {
    winner: Color::White,
}));
const BLACK_WINS: Option<Option<Outcome>> = Some(Some(Outcome::Decisive {
    winner: Color::Black,
}));
const DRAW: Option<Option<Outcome>> = Some(Some(Outcome::Draw));

/// A source that hands out at most `chunk` bytes per `read`, and is interrupted now and then.
struct Trickle<'a> {
    data: &'a [u8],
    chunk: usize,
    calls: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(3) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "signal"));
        }
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn read_trickle(input: &[u8], chunk: usize) -> Vec<Game> {
    let source = Trickle {
        data: input,
        chunk,
        calls: 0,
    };
    let mut reader = PgnReader::new(source);
    let mut visitor = Recorder::with_variations();
    reader
        .read_all(&mut visitor)
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|e| panic!("trickle source does not fail: {e}"))
}

#[path = "pgn_reader/layout.rs"]
mod layout;
#[path = "pgn_reader/movetext.rs"]
mod movetext;
#[path = "pgn_reader/replay.rs"]
mod replay;
