//! Tests of reading and writing SAN (FIDE Appendix E).

use super::parse::{parse_general, parse_plain};
use super::*;
use crate::CastlingMode;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, CastlingMode::Standard).unwrap()
}

fn play(p: &mut Position, moves: &[&str]) {
    for m in moves {
        let mv = parse_san(p, m, Lang::Auto).unwrap();
        p.play_unchecked(mv);
    }
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

// FIDE Appendix E2: R = rey in Spanish, but R = rook in English.
#[test]
fn spanish_letters_r_is_king() {
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let es = parse_san(&p, "Rd2", Lang::Spanish).unwrap();
    assert_eq!((es.from, es.to), (sq("e1"), sq("d2")));
    assert!(parse_san(&p, "Rd2", Lang::English).is_err());
    let en = parse_san(&p, "Rd1", Lang::English).unwrap();
    assert_eq!(en.from, sq("a1"));
    // Auto: only the Spanish reading is legal for Rd2, only the English one for Ra8.
    assert_eq!(parse_san(&p, "Rd2", Lang::Auto).unwrap(), es);
    assert_eq!(parse_san(&p, "Ra8+", Lang::Auto).unwrap().from, sq("a1"));
}

#[test]
fn auto_reports_both_legal_readings_as_ambiguous() {
    // Rook a1 and king e1 can both go to d1.
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let err = parse_san(&p, "Rd1", Lang::Auto).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("ambiguous"), "{msg}");
    assert!(msg.contains("rook") && msg.contains("king"), "{msg}");
}

// FIDE Appendix E2: D dama, T torre, A alfil, C caballo.
#[test]
fn spanish_letters_name_all_pieces() {
    let mut p = Position::new();
    play(
        &mut p,
        &["e4", "e5", "Cf3", "Cc6", "Ac4", "Ac5", "O-O", "Df6", "Te1"],
    );
    assert_eq!(p.role_at(sq("e1")), Some(Role::Rook));
    assert_eq!(p.role_at(sq("f6")), Some(Role::Queen));
}

#[test]
fn castling_written_with_zero_or_letter_o() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for t in ["0-0", "O-O", "o-o", "O-O+", "OO"] {
        let m = parse_san(&p, t, Lang::Spanish).unwrap();
        assert!(m.is_king_side_castle(), "{t}");
    }
    for t in ["0-0-0", "O-O-O", "o-o-o"] {
        let m = parse_san(&p, t, Lang::English).unwrap();
        assert!(m.is_castle() && !m.is_king_side_castle(), "{t}");
    }
}

// FIDE 3.8b: castling through an attacked square is not legal.
#[test]
fn castling_refused_with_reason() {
    let p = pos("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let err = parse_san(&p, "O-O", Lang::English).unwrap_err().to_string();
    assert!(err.contains("castling king side is not possible"), "{err}");
    assert!(err.contains("attacked"), "{err}");
    let p = pos("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    let err = parse_san(&p, "O-O-O", Lang::English)
        .unwrap_err()
        .to_string();
    assert!(err.contains("in the way"), "{err}");
    let p = pos("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1");
    let err = parse_san(&p, "O-O", Lang::English).unwrap_err().to_string();
    assert!(err.contains("lost the right"), "{err}");
}

// FIDE 3.7d, Appendix E9: "exd6 a.p.".
#[test]
fn en_passant_written_a_p() {
    let mut p = Position::new();
    play(&mut p, &["e4", "Cf6", "e5", "d5"]);
    for t in [
        "exd6 a.p.",
        "exd6 e.p.",
        "exd6ep",
        "exd6e.p.",
        "exd6",
        "e5xd6",
        "ed6",
    ] {
        let m = parse_san(&p, t, Lang::Auto).unwrap();
        assert!(m.is_en_passant(), "{t}");
    }
    let sp = SanPlus::parse("exd6 a.p.", Lang::Spanish).unwrap();
    assert!(sp.en_passant_marker);
}

// FIDE 3.7e, Appendix E12: "d8D".
#[test]
fn promotion_written_every_way() {
    let p = pos("4k3/2P5/8/8/8/8/8/4K3 w - - 0 1");
    for t in ["c8=Q", "c8Q", "c8(Q)", "c8/Q", "c8q", "c8♕"] {
        let m = parse_san(&p, t, Lang::English).unwrap();
        assert_eq!(m.promotion(), Some(Role::Queen), "{t}");
    }
    for t in ["c8D", "c8=D", "c8(D)"] {
        let m = parse_san(&p, t, Lang::Spanish).unwrap();
        assert_eq!(m.promotion(), Some(Role::Queen), "{t}");
    }
    assert_eq!(
        parse_san(&p, "c8C", Lang::Auto).unwrap().promotion(),
        Some(Role::Knight)
    );
    assert_eq!(
        parse_san(&p, "c8=N", Lang::Auto).unwrap().promotion(),
        Some(Role::Knight)
    );
}

// FIDE 3.7e: the pawn must be exchanged on reaching the last rank.
#[test]
fn promotion_missing_is_illegal() {
    let p = pos("4k3/2P5/8/8/8/8/8/4K3 w - - 0 1");
    let err = parse_san(&p, "c8", Lang::English).unwrap_err().to_string();
    assert!(err.contains("must promote"), "{err}");
    // A promotion to a king is legible and illegal (3.7e), not unreadable: A8 tells the two
    // apart, and Spanish `c8R` must not fall back to another language's reading.
    let err = parse_san(&p, "c8=K", Lang::English).unwrap_err();
    assert!(
        matches!(
            err,
            ReadSanError::Rules(SanError::IllegalPromotion {
                role: Role::King,
                ..
            })
        ),
        "{err}"
    );
}

// FIDE Appendix E10: disambiguation by file, then rank.
#[test]
fn ambiguous_knight_names_candidates() {
    let mut p = Position::new();
    play(&mut p, &["d4", "d5", "Cf3", "Cf6", "e3"]);
    let err = parse_san(&p, "Nd7", Lang::English).unwrap_err().to_string();
    assert_eq!(err, "Nd7 is ambiguous: knights on b8 and f6 can reach d7");
    let m = parse_san(&p, "Nbd7", Lang::English).unwrap();
    assert_eq!(m.from, sq("b8"));
    assert_eq!(to_san(&p, m, Lang::English), "Nbd7");
    assert_eq!(to_san(&p, m, Lang::Spanish), "Cbd7");
}

#[test]
fn disambiguation_by_rank_then_square() {
    // Rooks on a1 and a5 both reach a3: by rank.
    let p = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    let m = parse_san(&p, "R1a3", Lang::English).unwrap();
    assert_eq!(to_san(&p, m, Lang::English), "R1a3");
    assert_eq!(to_san(&p, m, Lang::Spanish), "T1a3");
    // Queens on a1, a3 and c1 all reach b2: a1 needs the full square.
    let p = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    let m = parse_san(&p, "Qa1b2", Lang::English).unwrap();
    assert_eq!(to_san(&p, m, Lang::English), "Qa1b2");
    let err = parse_san(&p, "Qab2", Lang::English)
        .unwrap_err()
        .to_string();
    assert!(err.contains("queens on a1 and a3"), "{err}");
}

// FIDE 3.9/3.10: a move leaving the own king in check is illegal.
#[test]
fn pinned_piece_reason() {
    let p = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    let err = parse_san(&p, "Nc3", Lang::English).unwrap_err().to_string();
    assert!(err.contains("would leave the white king in check"), "{err}");
}

#[test]
fn capture_marks_are_tolerated() {
    let mut p = Position::new();
    play(&mut p, &["e4", "d5"]);
    for t in ["exd5", "e4:d5", "e4xd5", "e4-d5", "exd5!?", "exd5+"] {
        let m = parse_san(&p, t, Lang::Auto).unwrap();
        assert_eq!(m.to, sq("d5"), "{t}");
    }
    // A surplus capture mark on a quiet move.
    assert!(parse_san(&p, "Nxf3", Lang::English).is_ok());
    // A missing one on a capture (FIDE example game: "4.e5 Ce4").
    play(&mut p, &["Nc3", "Nf6", "Nf3"]);
    assert!(parse_san(&p, "Ne4", Lang::English).is_ok());
}

#[test]
fn long_algebraic_and_move_numbers() {
    let p = Position::new();
    for t in [
        "Cg1-f3", "Cg1xf3", "Ng1f3", "1.Cf3", "1Cf3", "1. Nf3", "♘f3", "♞f3",
    ] {
        let m = parse_san(&p, t, Lang::Auto).unwrap();
        assert_eq!((m.from, m.to), (sq("g1"), sq("f3")), "{t}");
    }
    for t in ["e2-e4", "1e4", "1.e4", "e4!", "e4!!", "e4?", "e4??", "e4?!"] {
        assert_eq!(parse_san(&p, t, Lang::Auto).unwrap().to, sq("e4"), "{t}");
    }
    let mut p = Position::new();
    play(&mut p, &["e4"]);
    for t in ["1...Cf6", "1…Cf6", "1... Nf6", "...Nf6"] {
        assert_eq!(parse_san(&p, t, Lang::Auto).unwrap().to, sq("f6"), "{t}");
    }
}

#[test]
fn mate_suffixes_are_read() {
    for (t, s) in [
        ("Qh5+", Some(Suffix::Check)),
        ("Qh5#", Some(Suffix::Checkmate)),
        ("Qh5++", Some(Suffix::Checkmate)),
        ("Qh5‡", Some(Suffix::Checkmate)),
        ("Qh5", None),
    ] {
        assert_eq!(SanPlus::parse(t, Lang::English).unwrap().suffix, s, "{t}");
    }
}

// FIDE Appendix E13: "(=)" is a draw offer.
#[test]
fn draw_offer_after_move() {
    let sp = SanPlus::parse("11.Rb1(=)", Lang::Spanish).unwrap();
    assert!(sp.draw_offer);
    assert!(matches!(
        sp.san,
        San::Normal {
            role: Role::King,
            ..
        }
    ));
}

// FIDE example game (seed 002): "5Dxd5" is impossible, the queen cannot reach d5.
#[test]
fn impossible_capture_in_example_game_is_reported() {
    let mut p = Position::new();
    play(
        &mut p,
        &["1e4", "e5", "2Cf3", "Cf6", "3.d4", "exd4", "4.e5", "Ce4"],
    );
    let err = parse_san(&p, "5Dxd5", Lang::Spanish)
        .unwrap_err()
        .to_string();
    assert_eq!(err, "5Dxd5 is illegal: no queen can reach d5");
}

#[test]
fn pawn_errors_are_precise() {
    let p = Position::new();
    let err = parse_san(&p, "exd5", Lang::English)
        .unwrap_err()
        .to_string();
    assert!(err.ends_with("no pawn can capture on d5"), "{err}");
    let err = parse_san(&p, "e5", Lang::English).unwrap_err().to_string();
    assert!(err.ends_with("no pawn can move to e5"), "{err}");
}

#[test]
fn syntax_errors_name_the_text() {
    for t in [
        "", "Zf3", "Nf9", "e", "x", "Nf3xx", "O-O-O-O", "Cf3", "e4(Q",
    ] {
        let e = SanPlus::parse(t, Lang::English).unwrap_err();
        assert!(e.to_string().contains(&format!("`{}`", t.trim())), "{e}");
    }
    assert!(SanPlus::parse("Nf3", Lang::Spanish).is_err());
}

#[test]
fn writing_uses_check_and_mate_marks() {
    let mut p = Position::new();
    play(&mut p, &["f3", "e5", "g4"]);
    let m = parse_san(&p, "Qh4", Lang::English).unwrap();
    assert_eq!(to_san(&p, m, Lang::English), "Qh4#");
    assert_eq!(to_san(&p, m, Lang::Spanish), "Dh4#");
    assert_eq!(to_figurine(&p, m), "♕h4#");
}

proptest::proptest! {
    // The byte-level fast reader is only a shortcut: it agrees with the general one.
    #[test]
    fn plain_reader_agrees_with_general_reader(
        s in "[KQRBNDTACPOXa-h1-8]?[a-h1-8]{0,2}x?[a-hA-H][1-8]=?[QRBNDTACKPqa-h1-8]?[+#]?"
    ) {
        if let Some(fast) = parse_plain(s.as_bytes()) {
            proptest::prop_assert_eq!(Ok(fast), parse_general(&s));
        }
    }
}

#[test]
fn spanish_promotion_written_with_d() {
    let p = pos("1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1");
    let m = parse_san(&p, "cxb8=Q", Lang::English).unwrap();
    assert_eq!(to_san(&p, m, Lang::English), "cxb8=Q+");
    assert_eq!(to_san(&p, m, Lang::Spanish), "cxb8=D+");
    assert_eq!(to_figurine(&p, m), "cxb8=♕+");
}
