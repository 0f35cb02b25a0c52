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

// ---- tags ---------------------------------------------------------------------------------

#[test]
fn tag_pairs_are_read_in_order() {
    let game = read_one("[Event \"Casual\"]\n[White \"Morphy, P.\"]\n\n1. e4 *\n");
    assert_eq!(
        game.tags,
        vec![
            ("Event".to_owned(), "Casual".to_owned()),
            ("White".to_owned(), "Morphy, P.".to_owned())
        ]
    );
    assert_eq!(game.moves(), ["e4"]);
}

#[test]
fn tag_pairs_tolerate_spaces() {
    let game = read_one("  [ Event   \"Casual\"   ]  \n[White\"Tal\"]\n1. e4 *");
    assert_eq!(game.tag("Event"), Some("Casual"));
    assert_eq!(game.tag("White"), Some("Tal"));
}

#[test]
fn tag_missing_closing_bracket_ends_at_line_end() {
    let game = read_one("[Event \"Casual\"\n[Site \"Paris\"\n\n1. e4 *");
    assert_eq!(game.tag("Event"), Some("Casual"));
    assert_eq!(game.tag("Site"), Some("Paris"));
    assert_eq!(game.moves(), ["e4"]);
}

#[test]
fn several_tags_on_one_line() {
    let game = read_one("[White \"A\"] [Black \"B\"]\n1. d4 *");
    assert_eq!(game.tag("White"), Some("A"));
    assert_eq!(game.tag("Black"), Some("B"));
}

#[test]
fn tag_escapes_are_resolved() {
    let game = read_one(r#"[Event "The \"Big\" \\ one"]"#);
    assert_eq!(game.tag("Event"), Some(r#"The "Big" \ one"#));
}

#[test]
fn tag_value_borrows_unless_escaped() {
    struct Check(Vec<bool>);
    impl Visitor for Check {
        type Output = ();
        fn tag(&mut self, _name: &[u8], value: RawTag<'_>) {
            self.0
                .push(matches!(value.decode(), std::borrow::Cow::Borrowed(_)));
        }
        fn end_game(&mut self) {}
    }
    let mut check = Check(Vec::new());
    let mut reader = PgnReader::new(&br#"[A "plain"] [B "es\"caped"]"#[..]);
    assert!(matches!(reader.read_game(&mut check), Ok(Some(()))));
    assert_eq!(check.0, [true, false]);
}

#[test]
fn tag_with_invalid_utf8_is_decoded_lossily() {
    let game = &read_with(b"[White \"Jos\xE9\"]\n1. e4 *", Recorder::default())[0];
    assert_eq!(game.tag("White"), Some("Jos\u{FFFD}"));
}

// ---- comments and escapes -----------------------------------------------------------------

#[test]
fn brace_comments_may_span_lines() {
    let game = read_one("1. e4 {King's pawn,\nbest by test} e5\n2. Nf3 *");
    assert_eq!(
        game.events,
        ["e4", "{King's pawn,\nbest by test}", "e5", "Nf3"]
    );
    assert_eq!(game.move_lines, [1, 2, 3]);
}

#[test]
fn rest_of_line_comment_ends_at_line_break() {
    let game = read_one("1. e4 ; a classic { not a brace\ne5 *");
    assert_eq!(game.events, ["e4", "{ a classic { not a brace}", "e5"]);
    assert_eq!(game.move_lines, [1, 2]);
}

#[test]
fn brackets_inside_comments_do_not_start_a_game() {
    let game = read_one("1. e4 {[%clk 0:05:00]} e5 {\n[Event \"x\"]} *");
    assert_eq!(game.moves(), ["e4", "e5"]);
}

#[test]
fn percent_escape_line_at_column_zero_is_ignored() {
    let games = read("%rest of line ignored 1. a4\n[Event \"E\"]\n%also here\n1. e4 *");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves(), ["e4"]);
    let game = read_one("1. e4\n% e5 ignored\nc5 *");
    assert_eq!(game.moves(), ["e4", "c5"]);
}

#[test]
fn percent_not_at_column_zero_is_no_escape() {
    let game = read_one("1. e4 %e5 c5 *");
    assert_eq!(game.moves(), ["e4", "%e5", "c5"]);
}

#[test]
fn unterminated_comment_runs_to_end_of_input() {
    let game = read_one("1. e4 {never closed 1-0");
    assert_eq!(game.events, ["e4", "{never closed 1-0}"]);
    assert_eq!(game.outcome, None);
}

#[test]
fn comment_longer_than_buffer_is_truncated_and_flagged() {
    let long = "x".repeat(BUFFER_CAPACITY * 3);
    let input = format!("1. e4 {{{long}\n}} e5 1-0");
    let game = read_one(&input);
    assert_eq!(game.moves(), ["e4", "e5"]);
    let comment = &game.events[1];
    assert!(comment.ends_with("…cut}"));
    assert!(comment.len() < BUFFER_CAPACITY + 16);
    assert_eq!(game.move_lines, [1, 2]);
    assert_eq!(game.outcome, WHITE_WINS);
}

#[test]
fn token_longer_than_buffer_is_skipped() {
    let long = "a".repeat(BUFFER_CAPACITY * 2);
    let game = read_one(&format!("1. e4 {long} e5 0-1"));
    assert_eq!(game.moves(), ["e4", "e5"]);
    assert_eq!(game.outcome, BLACK_WINS);
}

// ---- variations ---------------------------------------------------------------------------

#[test]
fn nested_variations_are_skipped_by_default() {
    let game = read_one("1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) e5 (1... c5) 2. Nf3 *");
    assert_eq!(game.moves(), ["e4", "e5", "Nf3"]);
}

#[test]
fn nested_variations_are_delivered_when_wanted() {
    let games = read_with(
        b"1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) e5 *",
        Recorder::with_variations(),
    );
    assert_eq!(
        games[0].events,
        [
            "e4", "(", "d4", "d5", "(", "Nf6", "c4", ")", "c4", ")", "e5"
        ]
    );
}

#[test]
fn unclosed_variation_is_closed_at_game_end() {
    let games = read_with(
        b"1. e4 (1. d4 (1. c4\n[Event \"next\"]\n1. f4 *",
        Recorder::with_variations(),
    );
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].events, ["e4", "(", "d4", "(", "c4", ")", ")"]);
    assert_eq!(games[1].moves(), ["f4"]);
}

#[test]
fn result_inside_variation_does_not_end_the_game() {
    let game = read_one("1. e4 (1. f3 e5 2. g4 Qh4# 0-1) e5 1/2-1/2");
    assert_eq!(game.moves(), ["e4", "e5"]);
    assert_eq!(game.outcome, DRAW);
}

#[test]
fn stray_closing_parenthesis_is_ignored() {
    let game = read_one("1. e4 ) e5 ] } *");
    assert_eq!(game.moves(), ["e4", "e5"]);
}

// ---- annotations ---------------------------------------------------------------------------

#[test]
fn dollar_nags_are_numbers() {
    let game = read_one("1. e4 $1 $12 $255 $256 e5 $ *");
    assert_eq!(game.events, ["e4", "$1", "$12", "$255", "e5"]);
}

#[test]
fn separate_suffix_annotations_are_nags_one_to_six() {
    let game = read_one("1. e4 ! e5 ? 2. Nf3 !! Nc6 ?? 3. Bb5 !? a6 ?! *");
    assert_eq!(
        game.events,
        [
            "e4", "$1", "e5", "$2", "Nf3", "$3", "Nc6", "$4", "Bb5", "$5", "a6", "$6"
        ]
    );
}

#[test]
fn glued_suffix_annotation_is_cut_off_and_reported_as_nag() {
    let game = read_one("1. e4!? e5?! 2. Qh5!! Nc6 3. Bc4 Nf6?? 4. Qxf7#! *");
    assert_eq!(
        game.events,
        [
            "e4", "$5", "e5", "$6", "Qh5", "$3", "Nc6", "Bc4", "Nf6", "$4", "Qxf7#", "$1"
        ]
    );
}

// ---- move numbers ---------------------------------------------------------------------------

#[test]
fn move_numbers_in_every_form_are_dropped() {
    let game = read_one("1. e4 1... e5 2. Nf3 2\u{2026} Nc6 12. Bb5 12 ... a6 *");
    assert_eq!(game.moves(), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
}

#[test]
fn move_number_glued_to_move_is_split() {
    let game = read_one("1.e4 1...e5 2Nf3 2…Nc6 3.0-0 5...Cf6 *");
    assert_eq!(game.moves(), ["e4", "e5", "Nf3", "Nc6", "0-0", "Cf6"]);
}

#[test]
fn digit_run_followed_by_letter_is_number_then_move() {
    let game = read_one("1e4 e5 2d4 *");
    assert_eq!(game.moves(), ["e4", "e5", "d4"]);
}

// ---- results --------------------------------------------------------------------------------

#[test]
fn every_result_token_ends_the_game() {
    let games = read("1. e4 1-0 1. d4 0-1 1. c4 1/2-1/2 1. Nf3 \u{bd}-\u{bd} 1. g3 * 1. b3");
    let outcomes: Vec<_> = games.iter().map(|g| g.outcome).collect();
    assert_eq!(
        outcomes,
        [WHITE_WINS, BLACK_WINS, DRAW, DRAW, Some(None), None]
    );
    let firsts: Vec<_> = games.iter().map(|g| g.moves()[0]).collect();
    assert_eq!(firsts, ["e4", "d4", "c4", "Nf3", "g3", "b3"]);
}

#[test]
fn castling_with_zeros_is_not_the_result_zero_one() {
    let game = read_one("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 0-0-0 0-1");
    assert_eq!(
        game.moves(),
        ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "0-0", "0-0-0"]
    );
    assert_eq!(game.outcome, BLACK_WINS);
}

#[test]
fn outcome_displays_as_pgn_result() {
    assert_eq!(
        Outcome::Decisive {
            winner: Color::White
        }
        .to_string(),
        "1-0"
    );
    assert_eq!(
        Outcome::Decisive {
            winner: Color::Black
        }
        .to_string(),
        "0-1"
    );
    assert_eq!(Outcome::Draw.to_string(), "1/2-1/2");
    assert_eq!(Outcome::from_ascii("½-½".as_bytes()), Some(Outcome::Draw));
    assert_eq!(Outcome::from_ascii(b"0-0"), None);
}

// ---- tokens for the SAN parser ---------------------------------------------------------------

#[test]
fn null_moves_are_passed_as_tokens() {
    let game = read_one("1. e4 -- 2. Z0 e5 *");
    assert_eq!(game.moves(), ["e4", "--", "Z0", "e5"]);
}

#[test]
fn null_moves_are_recognised_inside_variations() {
    // A visitor that enters variations and notes which move tokens are null moves.
    #[derive(Default)]
    struct Nulls(Vec<(String, bool)>);
    impl Visitor for Nulls {
        type Output = Vec<(String, bool)>;
        fn san(&mut self, token: RawMove<'_>) {
            let text = String::from_utf8_lossy(token.as_bytes()).into_owned();
            self.0.push((text, token.is_null_move()));
        }
        fn begin_variation(&mut self) -> Skip {
            Skip(false)
        }
        fn end_game(&mut self) -> Self::Output {
            std::mem::take(&mut self.0)
        }
    }
    let mut reader = PgnReader::new(&b"1. e4 e5 (1... Z0 2. d4 (2. -- d5)) 2. Nf3 *"[..]);
    let seen = reader.read_game(&mut Nulls::default()).unwrap().unwrap();
    let nulls: Vec<&str> = seen
        .iter()
        .filter(|(_, null)| *null)
        .map(|(t, _)| t.as_str())
        .collect();
    assert_eq!(nulls, ["Z0", "--"]);
    assert_eq!(seen.len(), 7, "{seen:?}");
}

#[test]
fn spanish_tokens_are_passed_unchanged() {
    let game = read_one("1. e4 Cf6 2. e5 d5 3. exd6 a.p. Cxe4 4. 0-0 0-0-0 *");
    assert_eq!(
        game.moves(),
        ["e4", "Cf6", "e5", "d5", "ep:exd6", "Cxe4", "0-0", "0-0-0"]
    );
}

#[test]
fn en_passant_suffix_is_merged_into_the_move() {
    let game = read_one("1. exd6 e.p. exf3e.p. 2. axb6a.p.! cxd3\nep\n*");
    assert_eq!(
        game.events,
        ["ep:exd6", "ep:exf3", "ep:axb6", "$1", "cxd3", "ep"]
    );
    let game = read_one("5. exd6\na.p. Nf6 *");
    assert_eq!(game.moves(), ["ep:exd6", "Nf6"]);
    assert_eq!(game.move_lines, [1, 2]);
}

// FIDE C9 (seed 003 prints `6. exd6 a. p.`): the mark spaced out or in parentheses.
#[test]
fn fide_c9_en_passant_mark_spaced_or_in_parentheses_is_merged() {
    let game = read_one("6. exd6 a. p. Cxd6 7. exf6 (a.p.) gxf6 8. dxe6(e.p.) Nf6 *");
    assert_eq!(
        game.events,
        ["ep:exd6", "Cxd6", "ep:exf6", "gxf6", "ep:dxe6", "Nf6"]
    );
    // A variation that only starts with `a` stays a variation.
    let game = read_with(b"1. e4 (1. a4 e5) e5 *", Recorder::with_variations()).remove(0);
    assert_eq!(game.events, ["e4", "(", "a4", "e5", ")", "e5"]);
}

// FIDE Art. 9.1b and Appendix C13/E13: `(=)` after a move is a draw offer, not a variation.
#[test]
fn fide_e13_draw_offer_marked_in_the_score() {
    for text in ["11.Rb1(=) *", "11. Rb1 (=) *", "11. Rb1 (=)"] {
        let game = read_with(text.as_bytes(), Recorder::with_variations()).remove(0);
        assert_eq!(game.events, ["Rb1", "(=)"], "{text}");
    }
    // Inside a skipped variation it is skipped with it.
    let game = read_one("1. e4 (1. d4 (=) d5) e5 (=) *");
    assert_eq!(game.events, ["e4", "e5", "(=)"]);
    // Split across reads, it is found all the same.
    let games = read_trickle(b"1. e4 e5 2. Nf3 (=) Nc6 *", 1);
    assert_eq!(games[0].events, ["e4", "e5", "Nf3", "(=)", "Nc6"]);
}

// Appendix C "Abreviaturas esenciales": 0-0, written without dashes or with typographic ones.
#[test]
fn fide_c13_castling_with_typographic_dashes() {
    let game = read_one("9. 00 000 10. 0\u{2013}0 O\u{2014}O\u{2014}O 11. 12.000 *");
    assert_eq!(
        game.moves(),
        ["00", "000", "0\u{2013}0", "O\u{2014}O\u{2014}O", "000"]
    );
}

// ICCF numeric notation in the movetext: four or five digits are moves, not move numbers.
#[test]
fn iccf_numeric_moves_are_move_tokens() {
    let game = read_one("1. 5254 5755 2. 7163 1...3736 3.57581 12 *");
    assert_eq!(game.moves(), ["5254", "5755", "7163", "3736", "57581"]);
}

#[test]
fn lone_en_passant_mark_is_dropped() {
    let game = read_one("1. exd6 {takes} e.p. Nf6 *");
    assert_eq!(game.moves(), ["exd6", "Nf6"]);
}

// ---- layout ---------------------------------------------------------------------------------

#[test]
fn byte_order_mark_is_skipped() {
    let game = read_one("\u{feff}[Event \"BOM\"]\n1. e4 *");
    assert_eq!(game.tag("Event"), Some("BOM"));
    assert_eq!(game.start.offset, 3);
}

#[test]
fn crlf_and_lone_cr_count_as_one_line_each() {
    let game = read_one("[Event \"x\"]\r\n\r\n1. e4\r\ne5\r2. Nf3\r\n\rNc6 *");
    assert_eq!(game.moves(), ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(game.move_lines, [3, 4, 5, 7]);
}

#[test]
fn crlf_split_across_refills_counts_once() {
    let input = "[Event \"x\"]\r\n\r\n1. e4 {a\r\nb}\r\ne5\r2. Nf3\r\n*\r\n";
    let whole = read_with(input.as_bytes(), Recorder::with_variations());
    for chunk in 1..5 {
        assert_eq!(
            read_trickle(input.as_bytes(), chunk),
            whole,
            "chunk {chunk}"
        );
    }
    assert_eq!(whole[0].move_lines, [3, 5, 6]);
}

#[test]
fn tabs_are_whitespace() {
    let game = read_one("[Event\t\"t\"]\n1.\te4\te5\t2.\tNf3\t*");
    assert_eq!(game.tag("Event"), Some("t"));
    assert_eq!(game.moves(), ["e4", "e5", "Nf3"]);
}

#[test]
fn games_separated_by_blank_lines() {
    let games = read("[Event \"A\"]\n\n1. e4 1-0\n\n[Event \"B\"]\n\n1. d4 0-1\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].tag("Event"), Some("B"));
    assert_eq!(games[1].moves(), ["d4"]);
}

#[test]
fn games_without_result_or_blank_line_are_split_at_the_next_tag() {
    let games = read("[Event \"A\"]\n1. e4 e5\n[Event \"B\"]\n1. d4 d5\n[Event \"C\"]\n1. c4");
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].moves(), ["e4", "e5"]);
    assert_eq!(games[0].outcome, None);
    assert_eq!(games[2].tag("Event"), Some("C"));
    assert_eq!(games[2].moves(), ["c4"]);
}

#[test]
fn movetext_only_file_is_one_game_per_result() {
    let games = read("1. e4 e5 2. Nf3 1-0\n1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert!(games[0].tags.is_empty());
    assert_eq!(games[0].moves(), ["e4", "e5", "Nf3"]);
    assert_eq!(games[1].moves(), ["d4"]);
}

#[test]
fn empty_and_blank_inputs_hold_no_game() {
    assert!(read("").is_empty());
    assert!(read(" \n\r\n\t; just a comment\n%escape\n").is_empty());
}

#[test]
fn game_start_and_move_lines_point_into_the_file() {
    let input = "[Event \"A\"]\n\n1. e4 1-0\n\n\n[Event \"B\"]\n\n1. d4\nd5 0-1\n";
    let games = read(input);
    assert_eq!(games[0].start, GameStart { offset: 0, line: 1 });
    assert_eq!(
        games[1].start,
        GameStart {
            offset: input.find("[Event \"B\"]").map_or(0, |i| i as u64),
            line: 6
        }
    );
    assert_eq!(games[1].move_lines, [8, 9]);
    let mut reader = PgnReader::new(input.as_bytes());
    assert!(reader.skip_game().unwrap_or(false));
    assert!(reader.skip_game().unwrap_or(false));
    assert_eq!(reader.game_start().line, 6);
    assert!(!reader.skip_game().unwrap_or(true));
}

#[test]
fn skipped_movetext_still_finds_the_game_end() {
    let input = b"[Event \"A\"]\n1. e4 {1-0} (1. d4 1-0) e5 0-1\n[Event \"B\"]\n1. c4 *";
    let visitor = Recorder {
        skip_movetext: true,
        ..Recorder::default()
    };
    let games = read_with(input, visitor);
    assert_eq!(games.len(), 2);
    assert!(games[0].events.is_empty());
    assert_eq!(games[0].outcome, None);
    assert_eq!(games[1].tag("Event"), Some("B"));
}

#[test]
fn garbage_and_invalid_utf8_do_not_stop_the_reader() {
    let input = b"\xff\xfe[Event \"\xc3\x28\"]\n1. e4 \x00\x80\xc3 e5 \"\" <> 2. Nf3 1-0\n[Event \"B\"]\n1. d4 *";
    let games = read_with(input, Recorder::default());
    assert_eq!(games.len(), 3);
    assert_eq!(games[2].moves(), ["d4"]);
    assert!(games[1].moves().contains(&"Nf3"));
}

#[test]
fn read_all_iterates_over_games() {
    let mut reader = PgnReader::new(&b"1. e4 * 1. d4 * 1. c4 *"[..]);
    let mut visitor = Recorder::default();
    let moves: Vec<String> = reader
        .read_all(&mut visitor)
        .map(|game| game.map(|g| g.moves().concat()).unwrap_or_default())
        .collect();
    assert_eq!(moves, ["e4", "d4", "c4"]);
}

#[test]
fn io_errors_are_reported() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _buf: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    let mut reader = PgnReader::new(Broken);
    let result = reader.read_game(&mut Recorder::default());
    assert!(matches!(result, Err(PgnError::Io(_))));
    let mut visitor = Recorder::default();
    assert_eq!(reader.read_all(&mut visitor).count(), 1);
}

#[test]
fn small_reads_give_the_same_games() {
    let input = concat!(
        "\u{feff}[Event \"A\"]\r\n[Site \"S\"]\r\n\r\n1. e4 {c\r\nd} e5!? 2. Nf3 (2. f4 exf4 ",
        "(2... d5)) Nc6 $14 3. exd6 a.p. ; rest\r\n%esc\r\n4. 0-0 1-0\r\n",
        "[Event \"B\"]\n1.d4 d5 2.c4 \u{bd}-\u{bd}\n"
    );
    let whole = read_with(input.as_bytes(), Recorder::with_variations());
    assert_eq!(whole.len(), 2);
    for chunk in [1, 2, 3, 7, 64] {
        assert_eq!(
            read_trickle(input.as_bytes(), chunk),
            whole,
            "chunk {chunk}"
        );
    }
}

#[test]
fn fuzz_entry_counts_events() {
    assert_eq!(fuzz_read_all(b""), 0);
    // begin_game, tag, 2 moves, nag, comment, (, move, ), outcome
    assert_eq!(
        fuzz_read_all(b"[Event \"x\"]\n1. e4 $1 {c} e5 (1... c5) 1-0"),
        11
    );
}

// ---- bounded memory -------------------------------------------------------------------------

/// An endless-looking PGN database generated on the fly, `limit` bytes long, with one comment
/// and one line far longer than the reader's buffer.
struct Generated {
    produced: usize,
    limit: usize,
    pending: Vec<u8>,
    offset: usize,
    games: usize,
}

impl Generated {
    const GAME: &'static str = "[Event \"Generated\"]\n[Site \"?\"]\n[Result \"1-0\"]\n\n\
        1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Morphy} 4. Ba4 Nf6 5. O-O Be7 (5... b5 6. Bb3) \
        6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0\n\n";

    fn new(limit: usize) -> Generated {
        Generated {
            produced: 0,
            limit,
            pending: Vec::new(),
            offset: 0,
            games: 0,
        }
    }

    fn next_chunk(&mut self) {
        self.pending.clear();
        self.offset = 0;
        self.games += 1;
        if self.games == 3 {
            // One game with a comment four times the buffer.
            self.pending
                .extend_from_slice(b"[Event \"Long\"]\n\n1. e4 {");
            self.pending
                .extend(std::iter::repeat_n(b'z', BUFFER_CAPACITY * 4));
            self.pending.extend_from_slice(b"} e5 0-1\n\n");
        } else {
            self.pending.extend_from_slice(Self::GAME.as_bytes());
        }
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.produced >= self.limit {
            return Ok(0);
        }
        if self.offset == self.pending.len() {
            self.next_chunk();
        }
        let n = buf
            .len()
            .min(self.pending.len() - self.offset)
            .min(self.limit - self.produced);
        buf[..n].copy_from_slice(&self.pending[self.offset..self.offset + n]);
        self.offset += n;
        self.produced += n;
        Ok(n)
    }
}

#[test]
fn fifty_megabyte_stream_is_read_with_a_fixed_buffer() {
    struct Count {
        moves: u64,
        truncated: u64,
    }
    impl Visitor for Count {
        type Output = ();
        fn san(&mut self, _token: RawMove<'_>) {
            self.moves += 1;
        }
        fn comment(&mut self, comment: RawComment<'_>) {
            self.truncated += u64::from(comment.is_truncated());
        }
        fn end_game(&mut self) {}
    }

    let limit = 50 * 1024 * 1024;
    let mut reader = PgnReader::new(Generated::new(limit));
    let mut count = Count {
        moves: 0,
        truncated: 0,
    };
    let mut games = 0u64;
    loop {
        match reader.read_game(&mut count) {
            Ok(Some(())) => games += 1,
            Ok(None) => break,
            Err(e) => panic!("generated source does not fail: {e}"),
        }
        assert_eq!(reader.buffer_capacity(), BUFFER_CAPACITY);
    }
    assert_eq!(reader.offset(), limit as u64);
    let per_game = Generated::GAME.len() as u64;
    assert!(games > (limit as u64 - 4 * BUFFER_CAPACITY as u64) / per_game - 2);
    assert!(count.moves > games * 19);
    assert_eq!(count.truncated, 1);
}

// ---- round trip -----------------------------------------------------------------------------

fn to_record(game: &Game) -> Vec<String> {
    game.events.clone()
}

#[test]
fn writer_output_reads_back_to_the_same_game() {
    let mut moves: Vec<WrittenMove> = ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6"]
        .into_iter()
        .map(WrittenMove::new)
        .collect();
    moves[1].comment = Some("the Sicilian } defence".into());
    moves[3].nags = vec![1, 14];
    moves[6].draw_offer = true;
    let game = GameRecord {
        tags: vec![
            ("White".into(), "Kasparov, \"G\"".into()),
            ("Black".into(), "Topalov\\V".into()),
            ("ECO".into(), "B90".into()),
        ],
        moves,
        result: "1-0".into(),
        ..GameRecord::default()
    };
    let mut writer = PgnWriter::new(String::new());
    assert!(writer.write_game(&game).is_ok());
    assert!(writer.write_game(&game).is_ok());
    let text = writer.into_inner();
    let games = read(&text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tags, games[1].tags);
    assert_eq!(games[0].events, games[1].events);
    let back = &games[0];
    assert_eq!(back.tag("White"), Some("Kasparov, \"G\""));
    assert_eq!(back.tag("Black"), Some("Topalov\\V"));
    assert_eq!(back.tag("ECO"), Some("B90"));
    assert_eq!(back.tag("Date"), Some("????.??.??"));
    assert_eq!(back.outcome, WHITE_WINS);
    assert_eq!(
        to_record(back),
        [
            "e4",
            "c5",
            "{the Sicilian ) defence}",
            "Nf3",
            "d6",
            "$1",
            "$14",
            "d4",
            "cxd4",
            "Nxd4",
            "(=)",
            "Nf6"
        ]
    );
}

fn san_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-h][1-8]",
        "[NBRQK][a-h]?x?[a-h][1-8][+#]?",
        "[a-h]x[a-h][1-8](=[QRBN])?",
        Just("O-O".to_owned()),
        Just("0-0-0".to_owned()),
        Just("--".to_owned()),
    ]
}

fn written_move_strategy() -> impl Strategy<Value = WrittenMove> {
    (
        san_strategy(),
        proptest::option::of("[a-zA-Z0-9 ,.!?()\\[\\]]{0,120}"),
        proptest::collection::vec(0u8..=255, 0..3),
        any::<bool>(),
    )
        .prop_map(|(san, comment, nags, draw_offer)| WrittenMove {
            san,
            comment,
            nags,
            draw_offer,
        })
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic_and_terminate(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let events = fuzz_read_all(&bytes);
        prop_assert!(events <= 4 * bytes.len() + 1);
    }

    #[test]
    fn pgn_like_bytes_never_panic(text in "[\\[\\](){};$%!?.0-9a-hNBRQKO\"\\\\ \n\r\t*/½…-]{0,512}") {
        let whole = read_with(text.as_bytes(), Recorder::with_variations());
        prop_assert_eq!(read_trickle(text.as_bytes(), 3), whole);
    }

    #[test]
    fn written_games_read_back(
        moves in proptest::collection::vec(written_move_strategy(), 0..60),
        first_ply_black in any::<bool>(),
        first_move_number in 1u32..200,
        result in prop_oneof![Just("1-0"), Just("0-1"), Just("1/2-1/2"), Just("*")],
        event in "[ -~]{0,40}",
    ) {
        let game = GameRecord {
            tags: vec![("Event".into(), event.clone())],
            moves: moves.clone(),
            first_ply_black,
            first_move_number,
            result: result.to_owned(),
        };
        let text = game.to_string();
        // Only a single word longer than a line may stick out.
        for line in text.split("\n\n").nth(1).unwrap_or_default().lines() {
            prop_assert!(line.chars().count() < 80 || !line.contains(' '), "{:?}", line);
        }
        let games = read(&text);
        prop_assert_eq!(games.len(), 1);
        let back = &games[0];
        prop_assert_eq!(back.tag("Event"), Some(event.as_str()));
        let mut expected = Vec::new();
        for mv in &moves {
            expected.push(mv.san.clone());
            expected.extend(mv.nags.iter().map(|n| format!("${n}")));
            if mv.draw_offer {
                expected.push("(=)".to_owned());
            }
            if let Some(comment) = &mv.comment {
                let words: Vec<&str> = comment.split_whitespace().collect();
                expected.push(format!("{{{}}}", words.join(" ")));
            }
        }
        // A comment wrapped across lines reads back with a line break for a space.
        let events: Vec<String> = back.events.iter().map(|e| e.replace('\n', " ")).collect();
        prop_assert_eq!(events, expected);
        prop_assert_eq!(back.outcome, sobre_core::outcome::parse_result(result.as_bytes()));
    }
}

// ---- replay: what players write, read with full legality checks (issue 29) -------------------

mod replay {
    use sobre_core::notation::MoveErrorKind;
    use sobre_core::pgn::PgnReader;
    use sobre_core::pgn::replay::{ReplayErrorKind, ReplayOptions, ReplayedGame, Replayer};
    use sobre_core::san::Lang;

    fn replay(text: &str) -> ReplayedGame {
        let mut reader = PgnReader::new(text.as_bytes());
        let mut v = Replayer::new(ReplayOptions {
            keep_moves: true,
            ..ReplayOptions::default()
        });
        reader.read_game(&mut v).unwrap().unwrap()
    }

    fn ok(text: &str) -> ReplayedGame {
        let g = replay(text);
        assert!(g.ok(), "{text}: {}", g.error.as_ref().unwrap());
        g
    }

    /// Appendix C abbreviations: castling as players type and print it, in both languages.
    #[test]
    fn fide_c13_castling_with_typographic_dashes() {
        for (text, lang) in [
            (
                "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 00 Nf6 5. d3 00 *",
                Lang::English,
            ),
            (
                "1. e4 e5 2. Cf3 Cc6 3. Ac4 Ac5 4. 0\u{2013}0 Cf6 5. d3 O\u{2014}O *",
                Lang::Spanish,
            ),
            (
                "1. d4 d5 2. Cc3 Cc6 3. Af4 Af5 4. Dd2 Dd7 5. 000 0\u{2013}0\u{2013}0 *",
                Lang::Spanish,
            ),
        ] {
            let g = ok(text);
            assert_eq!(g.plies, 10, "{text}");
            assert_eq!(g.lang, lang, "{text}");
            assert_eq!(
                g.moves.iter().filter(|m| m.is_castle()).count(),
                2,
                "{text}"
            );
        }
    }

    /// C4 with C9: `Pxd5` (P in both languages) and every way of marking en passant.
    #[test]
    fn fide_c9_en_passant_marks_and_pawn_letter_in_pgn() {
        for (text, lang) in [
            (
                "1. e4 Nf6 2. e5 d5 3. exd6 (a.p.) exd6 4. Pd4 *",
                Lang::English,
            ),
            (
                "1. e4 Cf6 2. e5 d5 3. exd6 a. p. exd6 4. Pd4 *",
                Lang::Spanish,
            ),
            (
                "1. e4 Cf6 2. e5 d5 3. exd6(e.p.) cxd6 4. Pd4 *",
                Lang::Spanish,
            ),
            ("1. e4 Nf6 2. e5 d5 3. Pxd6e.p. e6 4. d4 *", Lang::English),
        ] {
            let g = ok(text);
            assert_eq!(g.plies, 7, "{text}");
            assert_eq!(g.lang, lang, "{text}");
            assert!(g.moves[4].is_en_passant(), "{text}");
        }
    }

    /// C9/E9: a mark on a capture that is not en passant stops the game, typed.
    #[test]
    fn fide_c9_en_passant_mark_on_another_move_stops_the_replay() {
        for text in [
            "1. e4 d5 2. exd5 e.p. *",
            "1. e4 d5 2. exd5 (a.p.) *",
            "1. e4 d5 2. exd5a.p. *",
        ] {
            let g = replay(text);
            let e = g.error.as_ref().expect(text);
            assert_eq!(e.kind, ReplayErrorKind::Illegal, "{text}");
            assert_eq!(e.reading, Some(MoveErrorKind::Illegal), "{text}");
            assert_eq!((e.ply, e.text.as_str()), (3, "exd5"), "{text}");
            assert!(e.message.contains("en passant"), "{}", e.message);
            assert_eq!(g.plies, 2);
        }
    }

    /// C12/E12: Spanish letters that appear only in a promotion (`e8D`) tell the language,
    /// so the `R` of the next move is the king, not a missing rook.
    #[test]
    fn fide_c12_spanish_game_told_by_its_promotion_letters() {
        let text = "[FEN \"8/4P3/8/8/8/1k6/8/R3K3 w - - 0 1\"]\n\n1. e8D Rb2 2. Re2 Rb3 3. Dd8 *";
        let g = ok(text);
        assert_eq!(g.lang, Lang::Spanish);
        assert_eq!(g.plies, 5);
        // The king went from e1 to e2; the rook is still on a1.
        assert_eq!(g.position.board_fen(), "3Q4/8/8/8/8/1k6/4K3/R7");
        // In Spanish, `R` asks for a king: illegal, never a rook.
        let g = replay("[FEN \"8/4P3/8/8/8/1k6/8/R3K3 w - - 0 1\"]\n\n1. e8R Rb2 2. Td1 *");
        let e = g.error.as_ref().unwrap();
        assert_eq!((e.ply, e.text.as_str()), (1, "e8R"));
        assert_eq!(e.message, "a pawn cannot promote to a king");
    }

    /// A game with no telling letter is English, unless only Spanish replays it: a Spanish
    /// endgame whose only piece moves are the king's (`R`, *rey*).
    #[test]
    fn spanish_game_with_king_moves_only_replays_in_spanish() {
        let text = "[FEN \"4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1\"]\n\n1. Rd2 Rd7 2. e4 Re6 3. Rc3 *";
        let g = ok(text);
        assert_eq!(g.lang, Lang::Spanish);
        assert_eq!(g.position.board_fen(), "8/8/4k3/8/4P3/2K5/8/R7");
        // A rook's move that replays in English stays English.
        let g = ok("[FEN \"4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1\"]\n\n1. Ra2 *");
        assert_eq!(g.lang, Lang::English);
        // Wrong both ways: the English error is reported.
        let g = replay("1. e4 e5 2. Re3 *");
        assert_eq!(g.lang, Lang::English);
        assert_eq!(g.error.as_ref().unwrap().ply, 3);
    }

    /// ICCF numeric notation in the movetext is replayed, never dropped; mixed with SAN too.
    #[test]
    fn iccf_numeric_movetext_is_replayed() {
        let g = ok("1. 5254 5755 2. 7163 2836 3. 6125 1-0");
        assert_eq!(g.plies, 5);
        assert_eq!(
            g.position.fen(),
            "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
        );
        let mixed = ok("1. e4 5755 2. Nf3 2836 3. 6125 a6 4. 5171 *");
        assert_eq!(mixed.plies, 7);
        assert!(mixed.moves[6].is_castle());
        // An ICCF move that is not legal, or not ICCF at all, stops the game with a reason.
        for (text, ply, reading) in [
            ("1. 5254 5755 2. 5254 *", 3, MoveErrorKind::Illegal),
            ("1. 5290 *", 1, MoveErrorKind::Syntax),
        ] {
            let g = replay(text);
            let e = g.error.as_ref().expect(text);
            assert_eq!((e.kind, e.ply), (ReplayErrorKind::Illegal, ply), "{text}");
            assert_eq!(e.reading, Some(reading), "{text}: {}", e.message);
        }
        let g = replay("1. 5290 *");
        assert_eq!(g.error.unwrap().message, "square digits run from 1 to 8");
    }

    /// Art. 9.1b and Appendix C13/E13: `(=)` in the score is the move plus a draw offer.
    #[test]
    fn fide_e13_draw_offer_marked_in_the_score() {
        let g = ok("1. e4 e5 2. Cf3(=) Cc6 3. Ab5 a6 4. Aa4 (=) Cf6 (=) *");
        assert_eq!(g.draw_offers, [3, 7, 8]);
        assert!(g.draw_offered_after(3) && !g.draw_offered_after(4));
        let g = ok("1. e4 e5 2. Nf3 (=) Nc6 3. Bb5 (a6) *");
        assert_eq!(g.draw_offers, [3]);
        assert_eq!(g.plies, 5);
    }
}
