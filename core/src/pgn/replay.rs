//! Replaying PGN games with full legality checks: the glue between the streaming
//! [`crate::pgn`] reader and the notation parsers.
//!
//! Every move token is resolved against the current position in the game's language: a game's
//! letters decide it (`D T A C` are only Spanish, `Q B N K` only English; `R` is a rook in
//! English and the king in Spanish, so it waits for another letter), promotion letters
//! included (`e8D`); see [`Replayer`] for a game with no telling letter. The first impossible
//! move stops the game and is reported precisely: ply, move number, side, the text as
//! written, and why (e.g. `move 5 (white): "Dxd5": no queen can reach d5`).
//!
//! What a scoresheet adds to a move is read too: an en passant mark (`exd6 a.p.`) must mark
//! an en passant capture, and a draw offer (`Nf3 (=)`, FIDE Art. 9.1b, Appendix C13/E13) is
//! kept in [`ReplayedGame::draw_offers`]. Moves in ICCF numeric notation (`5254`) are read as
//! such, also mixed with SAN in one game (each token says which notation it is in).

use crate::notation::fen::ParseFenError;
use crate::notation::san::{self, Lang, ReadSanError, SanError};
use crate::notation::{self, MoveError, MoveErrorKind, iccf};
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
    /// The plies (1-based) after which the mover offered a draw, marked `(=)` in the score
    /// (FIDE Art. 9.1b, Appendix C13/E13), in order. Kept whatever the [`ReplayOptions`].
    pub draw_offers: Vec<u32>,
    pub error: Option<ReplayError>,
}

impl ReplayedGame {
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// Whether the move of `ply` (1-based) is marked with a draw offer, `(=)` (FIDE C13/E13).
    pub fn draw_offered_after(&self, ply: u32) -> bool {
        self.draw_offers.binary_search(&ply).is_ok()
    }

    /// The value of a tag, if kept and present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A move token kept until the end of its game: where its bytes are in the arena, its line,
/// and what was written after it.
#[derive(Clone, Copy, Debug)]
struct Token {
    start: usize,
    end: usize,
    line: u64,
    /// Followed by `e.p.` / `a.p.` (FIDE C9/E9).
    en_passant: bool,
    /// Followed by `(=)` (FIDE C13/E13).
    draw_offer: bool,
}

/// A [`Visitor`] that replays each game; see the module docs.
///
/// # The language of a game
///
/// A game is read in one language, decided from all its move tokens before the first move is
/// played: piece letters and promotion letters that only one language has decide it
/// (`Cf3` or `e8D` Spanish, `Nf3` or `e8=Q` English); a game with both is read move by move
/// ([`Lang::Auto`]). A game with no telling letter (only pawn moves, castling and `R`) is
/// English, as PGN's export format prescribes; but if it cannot be replayed in English, it
/// is replayed again in Spanish (where `R` is the king, *rey*) and the reading that gets
/// further is kept (all of it if one replays), so that `Rd2` of a Spanish endgame is the
/// king's move rather than a missing rook's.
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
    tokens: Vec<Token>,
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
    /// uses decide it, as piece letters or as promotion letters; a game that uses both is
    /// [`Lang::Auto`] (each move on its own). `None` for a game with no telling letter.
    fn detect_language(&self) -> Option<Lang> {
        let (mut en, mut es) = (false, false);
        for t in &self.tokens {
            let bytes = &self.arena[t.start..t.end];
            for letter in [bytes.first().copied(), promotion_letter(bytes)]
                .into_iter()
                .flatten()
            {
                match letter {
                    b'Q' | b'B' | b'N' | b'K' => en = true,
                    b'D' | b'T' | b'A' | b'C' => es = true,
                    _ => {}
                }
            }
        }
        match (en, es) {
            (false, false) => None,
            (true, false) => Some(Lang::English),
            (false, true) => Some(Lang::Spanish),
            (true, true) => Some(Lang::Auto),
        }
    }

    /// Plays every token of the game in `lang` from the start position, until the first
    /// error.
    fn play_all(&mut self, lang: Lang) {
        self.game.lang = lang;
        for i in 0..self.tokens.len() {
            if self.stopped {
                break;
            }
            self.play_token(i);
        }
    }

    /// Undoes [`Replayer::play_all`], back to the start position.
    fn rewind(&mut self) {
        self.game.position = self.game.start.clone();
        self.game.plies = 0;
        self.game.moves.clear();
        self.game.comments.clear();
        self.game.draw_offers.clear();
        self.game.error = None;
        self.stopped = false;
    }

    fn play_token(&mut self, i: usize) {
        let Token {
            start: a,
            end: b,
            line,
            en_passant,
            draw_offer,
        } = self.tokens[i];
        // Cloned, not taken: a game may be replayed a second time in the other language.
        let comment = self.token_comments.get(i).cloned().flatten();
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
                    // So does a draw offer.
                    let plies = self.game.plies;
                    if draw_offer && plies > 0 && self.game.draw_offers.last() != Some(&plies) {
                        self.game.draw_offers.push(plies);
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
        if en_passant && !mv.is_en_passant() {
            // FIDE C9/E9: the mark says en passant; a score that says so of another move is
            // wrong, and the arbiter would ask which move was meant.
            let text = String::from_utf8_lossy(&self.arena[a..b]).into_owned();
            let e = MoveError::from(ReadSanError::Rules(SanError::NotEnPassant {
                san: text.clone(),
                played: mv,
            }));
            let (reason, reading) = (e.reason().to_owned(), Some(e.kind()));
            self.fail(ReplayErrorKind::Illegal, &text, reason, line, reading);
            return;
        }
        self.game.position.play_unchecked(mv);
        self.game.plies += 1;
        if draw_offer {
            self.game.draw_offers.push(self.game.plies);
        }
        if self.opts.keep_moves {
            self.game.moves.push(mv);
        }
        if self.opts.keep_comments {
            self.game.comments.push(comment);
        }
    }
}

/// The promotion letter at the end of a move token (`e8D`, `e8=Q+`, `exd8(T)`), if any.
fn promotion_letter(token: &[u8]) -> Option<u8> {
    let mut t = token;
    while let [rest @ .., b'+' | b'#' | b')'] = t {
        t = rest;
    }
    let [rest @ .., letter] = t else {
        return None;
    };
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let rest = match rest {
        [r @ .., b'=' | b'/' | b'('] => r,
        r => r,
    };
    matches!(rest.last(), Some(b'1' | b'8')).then_some(*letter)
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
        draw_offers: Vec::new(),
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

/// Resolves one move token in `pos`: SAN first (the PGN case), then any notation. Digits
/// alone are ICCF numeric notation (`5254`), but for castling written with zeros (`00`).
pub fn resolve(pos: &Position, text: &str, lang: Lang) -> Result<Move, MoveError> {
    if text.bytes().all(|b| b.is_ascii_digit()) && !text.bytes().all(|b| b == b'0') {
        return Ok(iccf::parse_iccf(pos, text)?);
    }
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
        self.tokens.push(Token {
            start,
            end: self.arena.len(),
            line: token.line(),
            en_passant: token.has_en_passant_suffix(),
            draw_offer: false,
        });
        if self.opts.keep_comments {
            self.token_comments.push(None);
        }
    }

    fn draw_offer(&mut self) {
        // A mark before the first move offers nothing a score can show: it is dropped.
        if let Some(t) = self.tokens.last_mut() {
            t.draw_offer = true;
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
        let detected = self.detect_language();
        self.play_all(detected.unwrap_or(Lang::English));
        let retry = detected.is_none()
            && self
                .game
                .error
                .as_ref()
                .is_some_and(|e| e.kind == ReplayErrorKind::Illegal);
        if retry {
            // No letter told the language and English fails: try Spanish (see [`Replayer`]).
            let english = self.game.clone();
            self.rewind();
            self.play_all(Lang::Spanish);
            if self.game.error.is_some() && self.game.plies <= english.plies {
                self.game = english;
            }
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
