//! Replaying PGN games with full legality checks: the glue between the streaming
//! [`crate::pgn`] reader and the notation parsers.
//!
//! Every move token is resolved against the current position in the game's language: a game's
//! letters decide it (`D T A C` are only Spanish, `Q B N K` only English; `R` is a rook in
//! English and the king in Spanish, so it waits for another letter). The first impossible
//! move stops the game and is reported precisely: ply, move number, side, the text as
//! written, and why (e.g. `move 5 (white): "Dxd5": no queen can reach d5`).

use crate::notation::fen::ParseFenError;
use crate::notation::san::{self, Lang, ReadSanError};
use crate::notation::{self, MoveError, MoveErrorKind};
use crate::outcome::Outcome;
use crate::pgn::{GameStart, RawMove, RawTag, Skip, Visitor};
use crate::position::{CastlingMode, Position};
use crate::types::{Color, Move};
use std::fmt;

/// What to keep of each game (keeping less is faster).
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayOptions {
    /// Keep every tag pair.
    pub keep_tags: bool,
    /// Keep the list of moves.
    pub keep_moves: bool,
    /// Keep the comment after each move (implies nothing else).
    pub keep_comments: bool,
}

/// Why a game's replay stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayErrorKind {
    /// The `FEN` tag does not describe a position (ply 0).
    BadStart,
    /// The move token is not UTF-8 text.
    NotText,
    /// A null move (`Z0`, `--`) in the main line: it passes the turn, which chess does not
    /// allow. (Inside variations it is accepted: the replayer does not enter them.)
    NullMove,
    /// The token is not a legal move in the position, or not a move at all.
    Illegal,
}

impl ReplayErrorKind {
    /// A stable name for machine-readable output.
    pub fn as_str(self) -> &'static str {
        match self {
            ReplayErrorKind::BadStart => "bad_start",
            ReplayErrorKind::NotText => "not_text",
            ReplayErrorKind::NullMove => "null_move",
            ReplayErrorKind::Illegal => "illegal",
        }
    }
}

/// The first move of a game that could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// What went wrong, as a type (the message says it in words).
    pub kind: ReplayErrorKind,
    /// 1-based half-move index of the failing move (0 for a bad start position).
    pub ply: u32,
    /// The move number as a scoresheet writes it.
    pub move_number: u32,
    /// The side whose move it was.
    pub color: Color,
    /// The move as written.
    pub text: String,
    /// Why it cannot be played.
    pub message: String,
    /// Line in the file where the move stands.
    pub line: u64,
    /// For [`ReplayErrorKind::Illegal`]: how the move reader refused the text (unreadable,
    /// illegal or ambiguous), so a client words it without the English `message`.
    pub reading: Option<MoveErrorKind>,
    /// For [`ReplayErrorKind::BadStart`]: why the `FEN` tag is not a position.
    pub start: Option<ParseFenError>,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ply == 0 {
            write!(f, "start position: {}", self.message)
        } else if self.kind == ReplayErrorKind::NullMove {
            let dots = if self.color == Color::White {
                "."
            } else {
                "..."
            };
            write!(
                f,
                "a null move (`{}`) at {}{dots}: {}",
                self.text, self.move_number, self.message
            )
        } else {
            write!(
                f,
                "move {} ({}): \"{}\": {}",
                self.move_number,
                self.color.name(),
                self.text,
                self.message
            )
        }
    }
}

/// One replayed game.
#[derive(Clone, Debug)]
pub struct ReplayedGame {
    /// Line of the file where the game starts.
    pub line: u64,
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<Move>,
    /// Comments after each move (when kept): `comments[i]` follows `moves[i]`.
    pub comments: Vec<Option<String>>,
    /// Half-moves played successfully.
    pub plies: u32,
    /// The position after the last move played.
    pub position: Position,
    /// The game's language, as far as its letters tell.
    pub lang: Lang,
    /// The result written at the end of the movetext (`None` for `*` or none).
    pub outcome: Option<Outcome>,
    pub error: Option<ReplayError>,
}

impl ReplayedGame {
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// The value of a tag, if kept and present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A [`Visitor`] that replays each game; see the module docs.
pub struct Replayer {
    opts: ReplayOptions,
    game: ReplayedGame,
    fen: Option<String>,
    chess960: bool,
    started: bool,
    /// Skip the rest of the movetext after an error.
    stopped: bool,
    /// The game's move tokens, kept until the end of the game so that its language is known
    /// before the first move is resolved (one buffer reused for every game).
    arena: Vec<u8>,
    tokens: Vec<(usize, usize, u64)>,
    /// The comment after each token (when comments are kept).
    token_comments: Vec<Option<String>>,
}

impl Replayer {
    pub fn new(opts: ReplayOptions) -> Replayer {
        Replayer {
            opts,
            game: empty_game(0),
            fen: None,
            chess960: false,
            started: false,
            stopped: false,
            arena: Vec::new(),
            tokens: Vec::new(),
            token_comments: Vec::new(),
        }
    }

    fn fail(
        &mut self,
        kind: ReplayErrorKind,
        text: &str,
        message: String,
        line: u64,
        reading: Option<MoveErrorKind>,
    ) {
        let pos = &self.game.position;
        self.game.error = Some(ReplayError {
            kind,
            ply: self.game.plies + 1,
            move_number: pos.fullmove_number(),
            color: pos.turn(),
            text: text.to_owned(),
            message,
            line,
            reading,
            start: None,
        });
        self.stopped = true;
    }

    /// Sets up the start position from the tags, once, before the first move.
    fn start(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        let Some(fen) = self.fen.take() else {
            return;
        };
        let parsed = if self.chess960 {
            Position::from_fen(&fen, CastlingMode::Chess960)
        } else {
            Position::from_fen_auto(&fen)
        };
        match parsed {
            Ok(p) => {
                self.game.start = p.clone();
                self.game.position = p;
            }
            Err(e) => {
                self.game.error = Some(ReplayError {
                    kind: ReplayErrorKind::BadStart,
                    ply: 0,
                    move_number: 0,
                    color: Color::White,
                    text: fen,
                    message: format!("bad FEN tag: {e}"),
                    line: self.game.line,
                    reading: None,
                    start: Some(e),
                });
                self.stopped = true;
            }
        }
    }

    /// Decides the game's language from all its move tokens: letters only one language
    /// uses decide it; a game that uses both stays [`Lang::Auto`] (each move on its own); a
    /// game with no telling letter is English, as PGN's export format prescribes.
    fn detect_language(&self) -> Lang {
        let (mut en, mut es) = (false, false);
        for &(a, b, _) in &self.tokens {
            match self.arena[a..b].first() {
                Some(b'Q' | b'B' | b'N' | b'K') => en = true,
                Some(b'D' | b'T' | b'A' | b'C') => es = true,
                _ => {}
            }
        }
        match (en, es) {
            (true, false) | (false, false) => Lang::English,
            (false, true) => Lang::Spanish,
            (true, true) => Lang::Auto,
        }
    }

    fn play_token(&mut self, i: usize) {
        let (a, b, line) = self.tokens[i];
        let comment = self.token_comments.get_mut(i).and_then(Option::take);
        // The common case first: plain SAN in the game's letters (no allocation).
        let fast = san::parse_san_fast(&self.game.position, &self.arena[a..b], self.game.lang);
        let mv = match fast {
            Some(m) => m,
            None => {
                let bytes = &self.arena[a..b];
                let Ok(text) = std::str::from_utf8(bytes) else {
                    let shown = String::from_utf8_lossy(bytes).into_owned();
                    self.fail(
                        ReplayErrorKind::NotText,
                        &shown,
                        "not valid UTF-8 text".to_owned(),
                        line,
                        None,
                    );
                    return;
                };
                if is_annotation(text) {
                    // A comment after `a.p.` belongs to the move before it.
                    if let (Some(c), Some(Some(last))) = (comment, self.game.comments.last_mut()) {
                        last.push(' ');
                        last.push_str(&c);
                    }
                    return;
                }
                if crate::pgn::is_null_move(bytes) {
                    // Off the fast path: only a token no parser read gets here.
                    let text = text.to_owned();
                    let why = "not a legal move".to_owned();
                    self.fail(ReplayErrorKind::NullMove, &text, why, line, None);
                    return;
                }
                match resolve(&self.game.position, text, self.game.lang) {
                    Ok(m) => m,
                    Err(e) => {
                        let (text, reason) = (text.to_owned(), e.reason().to_owned());
                        let reading = Some(e.kind());
                        self.fail(ReplayErrorKind::Illegal, &text, reason, line, reading);
                        return;
                    }
                }
            }
        };
        self.game.position.play_unchecked(mv);
        self.game.plies += 1;
        if self.opts.keep_moves {
            self.game.moves.push(mv);
        }
        if self.opts.keep_comments {
            self.game.comments.push(comment);
        }
    }
}

fn empty_game(line: u64) -> ReplayedGame {
    ReplayedGame {
        line,
        tags: Vec::new(),
        start: Position::new(),
        moves: Vec::new(),
        comments: Vec::new(),
        plies: 0,
        position: Position::new(),
        lang: Lang::Auto,
        outcome: None,
        error: None,
    }
}

/// Tokens that real scoresheets put after a move and that are not moves: en passant marks
/// (`a.p.`, `a. p.`, `e.p.`), and the draw-offer sign `(=)` of FIDE Appendix E/C.
fn is_annotation(t: &str) -> bool {
    matches!(
        t,
        "a.p." | "e.p." | "a." | "p." | "e." | "ap" | "ep" | "a.p" | "e.p" | "=" | "(=)"
    )
}

/// Resolves one move token in `pos`: SAN first (the PGN case), then any notation.
pub fn resolve(pos: &Position, text: &str, lang: Lang) -> Result<Move, MoveError> {
    match san::parse_san(pos, text, lang) {
        Ok(m) => Ok(m),
        Err(ReadSanError::Syntax(e)) => match notation::parse_move(pos, text, lang) {
            Ok(m) => Ok(m),
            Err(_) => Err(MoveError::from(ReadSanError::Syntax(e))),
        },
        Err(e) => Err(e.into()),
    }
}

impl Visitor for Replayer {
    type Output = ReplayedGame;

    fn begin_game(&mut self, start: GameStart) {
        self.game = empty_game(start.line);
        self.fen = None;
        self.chess960 = false;
        self.started = false;
        self.stopped = false;
        self.arena.clear();
        self.tokens.clear();
        self.token_comments.clear();
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        if name.eq_ignore_ascii_case(b"FEN") {
            self.fen = Some(value.decode().into_owned());
        } else if name.eq_ignore_ascii_case(b"Variant") {
            let v = value.decode().to_ascii_lowercase();
            self.chess960 = v.contains("960") || v.contains("fischer");
        }
        if self.opts.keep_tags {
            self.game.tags.push((
                String::from_utf8_lossy(name).into_owned(),
                value.decode().into_owned(),
            ));
        }
    }

    fn begin_movetext(&mut self) -> Skip {
        Skip(false)
    }

    fn san(&mut self, token: RawMove<'_>) {
        let start = self.arena.len();
        self.arena.extend_from_slice(token.as_bytes());
        self.tokens.push((start, self.arena.len(), token.line()));
        if self.opts.keep_comments {
            self.token_comments.push(None);
        }
    }

    fn comment(&mut self, comment: crate::pgn::RawComment<'_>) {
        if !self.opts.keep_comments {
            return;
        }
        if let Some(last) = self.token_comments.last_mut() {
            let text = comment.decode().trim().to_owned();
            *last = Some(match last.take() {
                Some(prev) => format!("{prev} {text}"),
                None => text,
            });
        }
    }

    fn outcome(&mut self, outcome: Option<Outcome>) {
        self.game.outcome = outcome;
    }

    fn end_game(&mut self) -> ReplayedGame {
        self.start();
        self.game.lang = self.detect_language();
        for i in 0..self.tokens.len() {
            if self.stopped {
                break;
            }
            self.play_token(i);
        }
        self.arena.clear();
        self.tokens.clear();
        self.token_comments.clear();
        std::mem::replace(&mut self.game, empty_game(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::PgnReader;

    fn replay(text: &str) -> Vec<ReplayedGame> {
        let mut reader = PgnReader::new(text.as_bytes());
        let mut v = Replayer::new(ReplayOptions {
            keep_moves: true,
            ..ReplayOptions::default()
        });
        let mut out = Vec::new();
        while let Ok(Some(g)) = reader.read_game(&mut v) {
            out.push(g);
        }
        out
    }

    #[test]
    fn spanish_game_replays() {
        let g = &replay("1.e4 c5 2.Cf3 d6 3.d4 cxd4 4.Dxd4 Cc6 5.Ab5 Ad7 *")[0];
        assert!(g.ok(), "{:?}", g.error);
        assert_eq!(g.plies, 10);
        assert_eq!(g.lang, Lang::Spanish);
    }

    #[test]
    fn illegal_move_is_reported_with_ply_and_reason() {
        let g = &replay("1. e4 e5 2. Nf3 Nf6 3. Qxd5 *")[0];
        let e = g.error.as_ref().unwrap();
        assert_eq!((e.ply, e.move_number, e.color), (5, 3, Color::White));
        assert_eq!(e.text, "Qxd5");
        assert!(e.message.contains("queen"), "{}", e.message);
        assert_eq!(g.plies, 4);
    }

    #[test]
    fn null_move_in_the_main_line_is_reported_as_one() {
        for token in ["Z0", "--"] {
            let text = format!(
                "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 {token} 13. Nf1 *"
            );
            let g = &replay(&text)[0];
            let e = g.error.as_ref().expect("a null move is not a legal move");
            assert_eq!(e.kind, ReplayErrorKind::NullMove);
            assert_eq!((e.ply, e.move_number, e.color), (24, 12, Color::Black));
            assert_eq!(e.text, token);
            assert_eq!(g.plies, 23, "the moves before it were played");
            assert_eq!(
                e.to_string(),
                format!("a null move (`{token}`) at 12...: not a legal move")
            );
        }
        let g = &replay("1. -- e5 *")[0];
        assert_eq!(
            g.error.as_ref().unwrap().to_string(),
            "a null move (`--`) at 1.: not a legal move"
        );
    }

    #[test]
    fn null_move_inside_a_variation_is_accepted() {
        let g = &replay("1. e4 e5 2. Nf3 (2. Z0 Nc6 (2... -- 3. d4) 3. Nf3) 2... Nc6 3. Bb5 *")[0];
        assert!(g.ok(), "{:?}", g.error);
        assert_eq!(g.plies, 5);
    }

    #[test]
    fn other_bad_tokens_are_typed_illegal() {
        let g = &replay("1. e4 e5 2. Ke3 *")[0];
        assert_eq!(g.error.as_ref().unwrap().kind, ReplayErrorKind::Illegal);
        let g = &replay("[FEN \"nonsense\"]\n\n1. e4 *")[0];
        assert_eq!(g.error.as_ref().unwrap().kind, ReplayErrorKind::BadStart);
    }

    #[test]
    fn chess960_fen_tag_is_used() {
        let pgn = "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. g4 g5 2. Ng2 Ng7 3. d4 *";
        let g = &replay(pgn)[0];
        assert!(g.ok(), "{:?}", g.error);
        assert!(g.start.is_chess960());
        assert_eq!(g.plies, 5);
    }
}
