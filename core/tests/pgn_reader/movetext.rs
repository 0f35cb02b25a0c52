//! What a visitor receives for tags, comments, variations, annotations, move numbers,
//! results and the tokens handed to the SAN parser.

use super::*;

// Tags.

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

// Comments and escapes.

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

// Variations.

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

// Annotations.

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

// Move numbers.

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

// Results.

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

// Tokens for the SAN parser.

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
