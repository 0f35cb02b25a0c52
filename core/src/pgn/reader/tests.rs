//! Tests of the lexer: token classification, tag lines, line counting.

use super::lex::{Token, classify, count_newlines, parse_tag};
use crate::outcome::Outcome;
use crate::types::Color;

#[test]
fn move_numbers_carry_nothing() {
    for token in [&b"1."[..], b"12.", b"1...", "1…".as_bytes(), b"...", b"12"] {
        assert_eq!(classify(token), Token::Nothing, "{token:?}");
    }
}

#[test]
fn glued_move_number_is_cut_off() {
    let expect = |bytes| Token::Move {
        bytes,
        nag: None,
        en_passant: false,
    };
    assert_eq!(classify(b"1.e4"), expect(b"e4"));
    assert_eq!(classify(b"1e4"), expect(b"e4"));
    assert_eq!(classify(b"5...Cf6"), expect(b"Cf6"));
    assert_eq!(classify("5…Cf6".as_bytes()), expect(b"Cf6"));
    assert_eq!(classify(b"5.0-0"), expect(b"0-0"));
}

#[test]
fn castling_with_zeros_is_not_a_result() {
    assert!(matches!(
        classify(b"0-0"),
        Token::Move { bytes: b"0-0", .. }
    ));
    assert!(matches!(
        classify(b"0-0-0+"),
        Token::Move {
            bytes: b"0-0-0+",
            ..
        }
    ));
    assert_eq!(
        classify(b"0-1"),
        Token::Outcome(Some(Outcome::Decisive {
            winner: Color::Black
        }))
    );
}

#[test]
fn glued_suffix_annotation_becomes_a_nag() {
    assert_eq!(
        classify(b"e4!?"),
        Token::Move {
            bytes: b"e4",
            nag: Some(5),
            en_passant: false
        }
    );
    assert_eq!(classify(b"?!"), Token::Nag(6));
}

#[test]
fn glued_en_passant_mark_is_cut_off() {
    assert_eq!(
        classify(b"exd6a.p."),
        Token::Move {
            bytes: b"exd6",
            nag: None,
            en_passant: true
        }
    );
    assert_eq!(classify(b"e.p."), Token::Nothing);
}

#[test]
fn tag_parser_tolerates_missing_bracket_and_quote() {
    let line = br#"[White "Fischer, R."]"#;
    let span = parse_tag(line);
    assert_eq!(&line[span.name], b"White");
    assert_eq!(&line[span.value], b"Fischer, R.");
    assert_eq!(span.consumed, line.len());

    let line = br#"[Black "Spassky"  "#;
    let span = parse_tag(line);
    assert_eq!(&line[span.value], b"Spassky");

    let line = br#"[Site "Reykjavik]"#;
    let span = parse_tag(line);
    assert_eq!(&line[span.value], b"Reykjavik");

    let line = br#"[Round 3 ]"#;
    let span = parse_tag(line);
    assert_eq!(&line[span.name], b"Round");
    assert_eq!(&line[span.value], b"3");
}

#[test]
fn newline_counting_treats_crlf_as_one_break() {
    assert_eq!(count_newlines(b' ', b"a\r\nb\rc\nd"), 3);
    assert_eq!(count_newlines(b'\r', b"\nx"), 0);
}
