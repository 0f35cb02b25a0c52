//! Notation end to end: the example games of the rule texts, round trips over random games
//! (standard and Chess960) in every notation, and parsers that never panic.

use proptest::prelude::*;
use sobre_core::notation::iccf::{Iccf, parse_iccf, to_iccf};
use sobre_core::notation::{MoveErrorKind, Notation, format_line, format_move, parse_move};
use sobre_core::san::{Lang, ReadSanError, San, SanError, SanPlus, parse_san, to_figurine, to_san};
use sobre_core::test_support::{Bias, Lines};
use sobre_core::uci::{Uci, parse_uci, to_uci};
use sobre_core::{CastlingMode, Move, Piece, Position, Role, Square};

/// Plays a scoresheet line: move numbers, `(=)` and a spaced-out `a. p.` are skipped.
fn play_line(text: &str, hint: Lang) -> Result<(Position, Vec<Move>), (String, String)> {
    let mut pos = Position::new();
    let mut moves = Vec::new();
    for tok in text.split_whitespace() {
        let bare = tok.trim_end_matches('.');
        if bare.is_empty()
            || bare.bytes().all(|b| b.is_ascii_digit())
            || matches!(tok, "a." | "p." | "(=)" | "a.p.")
        {
            continue;
        }
        let mv = parse_move(&pos, tok, hint).map_err(|e| (tok.to_owned(), e.to_string()))?;
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    Ok((pos, moves))
}

// FIDE 2005 Appendix E, example game as printed in seed 002: "5Dxd5" is impossible.
#[test]
fn fide_example_game_typo_is_reported_precisely() {
    let printed = "1e4 e5 2Cf3 Cf6 3.d4 exd4 4.e5 Ce4 5Dxd5 d5 6.exd6 a.p. Cxd6 7Ag5 Cc6 \
                   8.De3+ Ae7 9.Cbd2 0-0 10.0-0-0 Te8 11.Rb1(=)";
    let (tok, err) = play_line(printed, Lang::Spanish).unwrap_err();
    assert_eq!(tok, "5Dxd5");
    assert_eq!(err, "`5Dxd5` is not a legal move: no queen can reach d5");
}

// The 2009 text (seed 003) prints "3. d4 dxe4": no black pawn can capture on e4.
#[test]
fn fide_2009_example_game_typo_is_reported_precisely() {
    let printed = "1. e4 e5 2. Cf3 Cf6 3. d4 dxe4 4.e5 Ce4";
    let (tok, err) = play_line(printed, Lang::Auto).unwrap_err();
    assert_eq!(tok, "dxe4");
    assert!(err.ends_with("no pawn can capture on e4"), "{err}");
}

// FIDE Appendix E9 (a.p.), E13 ((=)), 3.8 (0-0-0), E2 (R = rey): the corrected game.
#[test]
fn fide_example_game_corrected_plays_to_the_end() {
    let fixed = "1. e4 e5 2. Cf3 Cf6 3. d4 exd4 4.e5 Ce4 5. Dxd4 d5 6. exd6 a. p. Cxd6 \
                 7. Ag5 Cc6 8. De3+ Ae7 9. Cbd2 0-0 10. 0-0-0 Te8 11. Rb1 (=)";
    for hint in [Lang::Spanish, Lang::Auto] {
        let (pos, moves) = play_line(fixed, hint).unwrap();
        assert_eq!(moves.len(), 21);
        assert!(moves[10].is_en_passant());
        assert!(moves[17].is_castle() && moves[18].is_castle());
        assert_eq!(
            pos.board_fen(),
            "r1bqr1k1/ppp1bppp/2nn4/6B1/8/4QN2/PPPN1PPP/1K1R1B1R"
        );
        let start = Position::new();
        let written = format_line(&start, &moves, Notation::Spanish);
        assert!(written.starts_with("1. e4 e5 2. Cf3 Cf6 3. d4 exd4 4. e5 Ce4 5. Dxd4 d5"));
        assert!(
            written.ends_with("9. Cbd2 O-O 10. O-O-O Te8 11. Rb1"),
            "{written}"
        );
    }
}

// Seed 003: a Sicilian line in Spanish notation, with "Tfe1" disambiguated by file (E10).
#[test]
fn sicilian_line_in_spanish() {
    let text = "1.e4 c5 2.Cf3 d6 3.d4 cxd4 4.Dxd4 Cc6 5.Ab5 Ad7 6.Axc6 Axc6 7.Cc3 Cf6 8.Ag5 e6 \
                9.Td1 Ae7 10.O-O O-O 11.Tfe1 Da5";
    let (_, moves) = play_line(text, Lang::Spanish).unwrap();
    let written = format_line(&Position::new(), &moves, Notation::Spanish);
    assert_eq!(
        written,
        "1. e4 c5 2. Cf3 d6 3. d4 cxd4 4. Dxd4 Cc6 5. Ab5 Ad7 6. Axc6 Axc6 7. Cc3 Cf6 \
         8. Ag5 e6 9. Td1 Ae7 10. O-O O-O 11. Tfe1 Da5"
    );
    let english = format_line(&Position::new(), &moves, Notation::English);
    assert!(
        english.ends_with("9. Rd1 Be7 10. O-O O-O 11. Rfe1 Qa5"),
        "{english}"
    );
    // And back again from English, with the English hint.
    let (_, again) = play_line(&english, Lang::English).unwrap();
    assert_eq!(again, moves);
}

// FIDE Appendix F: Chess960 castling is O-O / O-O-O by the side of the rook.
#[test]
fn chess960_castling_by_side_of_rook() {
    // King b1, rooks a1 and h1 (and the same for Black); everything else cleared.
    let pos =
        Position::from_fen("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", CastlingMode::Chess960).unwrap();
    let long = parse_san(&pos, "O-O-O", Lang::English).unwrap();
    assert!(long.is_castle() && long.to.to_string() == "a1");
    assert_eq!(to_san(&pos, long, Lang::Spanish), "O-O-O");
    assert_eq!(to_uci(&pos, long), "b1a1");
    let short = parse_san(&pos, "0-0", Lang::Spanish).unwrap();
    assert_eq!(short.to.to_string(), "h1");
    assert_eq!(to_uci(&pos, short), "b1h1");
    assert_eq!(to_iccf(&pos, short), "2171");
    // b1c1 is an ordinary king move: in ICCF the long castling is written king-takes-rook.
    assert_eq!(
        parse_uci(&pos, "b1c1").unwrap().kind,
        sobre_core::MoveKind::Normal
    );
    assert_eq!(to_iccf(&pos, long), "2111");
    assert_eq!(parse_iccf(&pos, "2111").unwrap(), long);
}

// Round trips over random games.

fn check_auto(pos: &Position, text: &str, mv: Move) -> bool {
    match parse_san(pos, text, Lang::Auto) {
        Ok(m) => {
            assert_eq!(m, mv, "Auto read {text} as another move");
            true
        }
        // Only the letter R reads differently in the two languages.
        Err(ReadSanError::Rules(SanError::Ambiguous { candidates, .. })) => {
            assert!(text.contains('R'), "{text} ambiguous under Auto");
            assert!(candidates.contains(&mv));
            false
        }
        Err(e) => panic!("Auto failed on {text}: {e}"),
    }
}

/// Every move of a random game written and read back in every notation.
fn round_trip_game(mut pos: Position, seed: u64) -> (usize, usize, usize) {
    let start = pos.clone();
    // Castling is rare in random play; prefer it so Chess960 castling gets exercised.
    let line = Lines::new(seed).bias(Bias::Castling).line(&start, 200);
    let mut played = Vec::new();
    let mut auto_ok = 0;
    let mut castled = 0;
    for mv in line {
        castled += usize::from(mv.is_castle());
        let ctx = pos.fen();

        let en = to_san(&pos, mv, Lang::English);
        let es = to_san(&pos, mv, Lang::Spanish);
        let fig = to_figurine(&pos, mv);
        assert_eq!(
            parse_san(&pos, &en, Lang::English).ok(),
            Some(mv),
            "{en} in {ctx}"
        );
        assert_eq!(
            parse_san(&pos, &es, Lang::Spanish).ok(),
            Some(mv),
            "{es} in {ctx}"
        );
        assert_eq!(
            parse_san(&pos, &fig, Lang::Auto).ok(),
            Some(mv),
            "{fig} in {ctx}"
        );
        auto_ok += usize::from(check_auto(&pos, &en, mv));
        auto_ok += usize::from(check_auto(&pos, &es, mv));

        // The written suffix tells the truth.
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let plus = SanPlus::parse(&en, Lang::English).unwrap();
        assert_eq!(plus.suffix.is_some(), after.is_check(), "{en} in {ctx}");

        // Minimal disambiguation (FIDE E10): dropping what was written makes it ambiguous.
        if let San::Normal {
            role, file, rank, ..
        } = plus.san
            && role != Role::Pawn
            && (file.is_some() || rank.is_some())
        {
            let bare = match plus.san {
                San::Normal {
                    file: _,
                    rank: _,
                    role,
                    capture,
                    to,
                    promotion,
                } => San::Normal {
                    role,
                    file: None,
                    rank: None,
                    capture,
                    to,
                    promotion,
                },
                other => other,
            };
            assert!(
                matches!(bare.to_move(&pos), Err(SanError::Ambiguous { .. })),
                "{en} over-disambiguated in {ctx}"
            );
            if file.is_some() && rank.is_some() {
                for partial in [
                    San::Normal {
                        role,
                        file,
                        rank: None,
                        capture: false,
                        to: mv.to,
                        promotion: None,
                    },
                    San::Normal {
                        role,
                        file: None,
                        rank,
                        capture: false,
                        to: mv.to,
                        promotion: None,
                    },
                ] {
                    assert!(
                        partial.to_move(&pos).is_err(),
                        "{en} over-disambiguated in {ctx}"
                    );
                }
            }
        }

        let uci = to_uci(&pos, mv);
        assert_eq!(parse_uci(&pos, &uci).ok(), Some(mv), "{uci} in {ctx}");
        assert_eq!(uci.parse::<Uci>().unwrap().to_move(&pos).ok(), Some(mv));
        let iccf = to_iccf(&pos, mv);
        assert_eq!(parse_iccf(&pos, &iccf).ok(), Some(mv), "{iccf} in {ctx}");
        assert_eq!(iccf.parse::<Iccf>().unwrap().to_move(&pos).ok(), Some(mv));

        for n in Notation::ALL {
            let text = format_move(&pos, mv, n);
            let hint = match n {
                Notation::English => Lang::English,
                Notation::Spanish => Lang::Spanish,
                _ => Lang::Auto,
            };
            assert_eq!(
                parse_move(&pos, &text, hint).ok(),
                Some(mv),
                "{n}: {text} in {ctx}"
            );
        }

        pos.play_unchecked(mv);
        played.push(mv);
    }
    // The whole line reads back too, token by token (skipping move numbers).
    for n in Notation::ALL {
        let line = format_line(&start, &played, n);
        let hint = if n == Notation::Spanish {
            Lang::Spanish
        } else {
            Lang::English
        };
        let mut p = start.clone();
        let mut back = Vec::new();
        for tok in line.split_whitespace() {
            if tok.ends_with('.') {
                continue;
            }
            let mv = parse_move(&p, tok, hint).unwrap();
            p.play_unchecked(mv);
            back.push(mv);
        }
        assert_eq!(back, played, "{n}: {line}");
    }
    (played.len(), auto_ok, castled)
}

#[test]
fn random_standard_games_round_trip() {
    let mut total = 0;
    let mut auto = 0;
    for seed in 0..60 {
        let (n, a, _) = round_trip_game(Position::new(), seed);
        total += n;
        auto += a;
    }
    // Auto reads nearly everything; only some R moves are legal both ways.
    assert!(auto * 10 > total * 2 * 9, "{auto} of {}", total * 2);
}

#[test]
fn random_chess960_games_round_trip() {
    let mut starts = Lines::new(960);
    let mut castled = 0;
    for seed in 0..60 {
        let (_, pos) = starts.chess960();
        castled += round_trip_game(pos, 1000 + seed).2;
    }
    assert!(castled > 30, "only {castled} castlings");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_round_trip(seed in any::<u64>(), n in 0u16..960) {
        let pos = Position::chess960(n).unwrap();
        round_trip_game(pos, seed);
    }
}

/// What full move generation says a SAN names: the moves of `role` to `to` matching the
/// written origin (a pawn without a file moves straight ahead), castling aside.
fn generated(pos: &Position, moves: &[Move], san: San) -> Vec<Move> {
    let San::Normal {
        role,
        file,
        rank,
        to,
        promotion,
        ..
    } = san
    else {
        return Vec::new();
    };
    moves
        .iter()
        .copied()
        .filter(|m| {
            !m.is_castle()
                && m.to == to
                && pos.role_at(m.from) == Some(role)
                && file.is_none_or(|f| m.from.file() == f)
                && rank.is_none_or(|r| m.from.rank() == r)
                && (role != Role::Pawn || file.is_some() || m.from.file() == to.file())
                && m.promotion() == promotion
        })
        .collect()
}

// The fast SAN resolver (looking back from the destination) agrees with move generation
// on every piece, origin and destination, legal or not.
#[test]
fn san_resolution_agrees_with_move_generation() {
    let mut lines = Lines::new(7);
    let mut checked = 0;
    for game in 0..30u64 {
        let mut pos = if game % 2 == 0 {
            Position::new()
        } else {
            lines.chess960().1
        };
        for mv in lines.line(&pos, 80) {
            let moves = pos.legal_moves();
            for role in Role::ALL {
                for to in Square::all() {
                    let last = to.rank() == 0 || to.rank() == 7;
                    let promotions: &[Option<Role>] = match (role, last) {
                        (Role::Pawn, true) => &[None, Some(Role::Queen), Some(Role::Knight)],
                        (Role::Pawn, false) => &[None, Some(Role::Queen)],
                        _ => &[None],
                    };
                    let pieces = pos.by_piece(Piece {
                        color: pos.turn(),
                        role,
                    });
                    for &promotion in promotions {
                        let mut sans = vec![San::Normal {
                            role,
                            file: None,
                            rank: None,
                            capture: false,
                            to,
                            promotion,
                        }];
                        // Every piece of this kind by its square, and by its file alone.
                        for from in pieces {
                            for (file, rank) in [
                                (Some(from.file()), Some(from.rank())),
                                (Some(from.file()), None),
                            ] {
                                sans.push(San::Normal {
                                    role,
                                    file,
                                    rank,
                                    capture: false,
                                    to,
                                    promotion,
                                });
                            }
                        }
                        for san in sans {
                            let want = generated(&pos, &moves, san);
                            let got = san.to_move(&pos);
                            match (want.as_slice(), &got) {
                                ([m], Ok(g)) => assert_eq!(m, g, "{san} in {}", pos.fen()),
                                ([], Err(SanError::Illegal { .. })) => {}
                                ([_, _, ..], Err(SanError::Ambiguous { .. })) => {}
                                _ => panic!("{san} in {}: {want:?} vs {got:?}", pos.fen()),
                            }
                            checked += 1;
                        }
                    }
                }
            }
            pos.play_unchecked(mv);
        }
    }
    assert!(checked > 200_000, "{checked}");
}

// No input panics.

fn positions() -> Vec<Position> {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    ]
    .iter()
    .map(|f| Position::from_fen(f, CastlingMode::Standard).unwrap())
    .chain(Position::chess960(0))
    .collect()
}

fn exercise(text: &str) {
    for pos in positions() {
        for lang in [Lang::English, Lang::Spanish, Lang::Auto] {
            let _ = parse_move(&pos, text, lang);
            let _ = parse_san(&pos, text, lang);
            let _ = SanPlus::parse(text, lang);
        }
        let _ = parse_uci(&pos, text);
        let _ = parse_iccf(&pos, text);
        let _ = text.parse::<Uci>();
        let _ = text.parse::<Iccf>();
        let _ = text.parse::<Notation>();
    }
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(s in any::<String>()) {
        exercise(&s);
    }

    #[test]
    fn move_like_text_never_panics(
        s in "[0-9a-hKQRBNDTACPOox:×=/()+#‡!?. …-♔♕♖♗♘♙♚♛♜♝♞♟]{0,12}"
    ) {
        exercise(&s);
    }

    #[test]
    fn formatting_any_move_never_panics(from in 0u8..64, to in 0u8..64, kind in 0u8..7) {
        let kind = match kind {
            0 => sobre_core::MoveKind::Normal,
            1 => sobre_core::MoveKind::EnPassant,
            2 => sobre_core::MoveKind::Castle,
            3 => sobre_core::MoveKind::Promotion(Role::Queen),
            4 => sobre_core::MoveKind::Promotion(Role::Knight),
            5 => sobre_core::MoveKind::Promotion(Role::King),
            _ => sobre_core::MoveKind::Promotion(Role::Pawn),
        };
        let mv = Move::new(Square::new(from), Square::new(to), kind);
        for pos in positions() {
            for n in Notation::ALL {
                let _ = format_move(&pos, mv, n);
            }
            let _ = format_line(&pos, &[mv, mv], Notation::English);
        }
    }
}

#[test]
fn error_kinds_are_sorted() {
    let pos = Position::new();
    let e = parse_move(&pos, "Nf6", Lang::English).unwrap_err();
    assert_eq!(e.kind(), MoveErrorKind::Illegal);
    assert_eq!(
        e.to_string(),
        "`Nf6` is not a legal move: no knight can reach f6"
    );
    let e = parse_move(&pos, "Xf6", Lang::English).unwrap_err();
    assert_eq!(e.kind(), MoveErrorKind::Syntax);
}

/// `parse_san_fast` (the PGN replay hot path) never disagrees with `parse_san`: on random
/// games, standard and Chess960, in English and Spanish, with and without check signs, and
/// on variants that must fall back (wrong letters, illegal moves).
#[test]
fn fast_san_path_agrees_with_the_full_reader() {
    use sobre_core::san::parse_san_fast;
    let mut lines = Lines::new(0x0fa5_7000_dead_beef);
    let mut checked = 0;
    for game in 0..200u64 {
        let mut pos = if game % 2 == 0 {
            Position::new()
        } else {
            lines.chess960().1
        };
        for m in lines.line(&pos, 120) {
            for lang in [Lang::English, Lang::Spanish] {
                let text = to_san(&pos, m, lang);
                let bare = text.trim_end_matches(['+', '#']).to_owned();
                for t in [text.as_str(), bare.as_str(), "Qh9", "Kxe4", "O-O-O", "exd6"] {
                    if let Some(fast) = parse_san_fast(&pos, t.as_bytes(), lang) {
                        assert_eq!(
                            parse_san(&pos, t, lang).ok(),
                            Some(fast),
                            "{t:?} in {}",
                            pos.fen()
                        );
                        checked += 1;
                    }
                }
                assert_eq!(
                    parse_san_fast(&pos, text.as_bytes(), lang),
                    Some(m),
                    "{text}"
                );
            }
            pos.play_unchecked(m);
        }
    }
    assert!(checked > 20_000, "{checked}");
}

// What players really write (issue 29).

fn fen(f: &str) -> Position {
    Position::from_fen(f, CastlingMode::Standard).unwrap()
}

/// `e4d5`: where a move goes from and to.
fn squares(m: Move) -> String {
    format!("{}{}", m.from, m.to)
}

/// Both ways of saying which letters a move is in: the declared language and none (`Auto`).
const READERS: [Lang; 3] = [Lang::English, Lang::Spanish, Lang::Auto];

/// Appendix C, "Abreviaturas esenciales" (E in 2005): castling is `0-0` / `0-0-0`, also typed
/// without dashes or typeset with en or em dashes. Castling has no letters: every language
/// reads it the same.
#[test]
fn fide_c13_castling_with_typographic_dashes() {
    let p = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for lang in READERS {
        for t in ["0\u{2013}0", "O\u{2014}O", "00", "OO", "0\u{2212}0", "0-0+"] {
            let m = parse_san(&p, t, lang).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert!(m.is_king_side_castle(), "{t} {lang:?}");
            assert_eq!(parse_move(&p, t, lang).unwrap(), m, "{t} {lang:?}");
        }
        for t in [
            "0\u{2013}0\u{2013}0",
            "O\u{2014}O\u{2014}O",
            "000",
            "10.000",
        ] {
            let m = parse_san(&p, t, lang).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert!(m.is_castle() && !m.is_king_side_castle(), "{t} {lang:?}");
            assert_eq!(parse_move(&p, t, lang).unwrap(), m, "{t} {lang:?}");
        }
        for t in ["0\u{2013}\u{2013}0", "\u{2013}00", "0000"] {
            let e = parse_san(&p, t, lang).unwrap_err();
            assert!(matches!(e, ReadSanError::Syntax(_)), "{t}: {e}");
        }
    }
}

/// Appendix C4/E4 leaves the pawn without a letter, but players write `P` (pawn, and *peón*
/// in Spanish: the same letter in both languages). With the letter, a capture need not name
/// the pawn's file: the position tells which pawn takes.
#[test]
fn fide_c4_pawn_written_with_its_letter_p_in_both_languages() {
    let p = fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    for lang in READERS {
        let m = parse_san(&p, "Pxd5", lang).unwrap();
        assert_eq!(squares(m), "e4d5", "{lang:?}");
        assert_eq!(to_san(&p, m, lang), "exd5");
        let push = parse_san(&p, "Pe5", lang).unwrap();
        assert_eq!(squares(push), "e4e5", "{lang:?}");
        // No pawn can take on e5 (nothing stands there): no straight push instead.
        let e = parse_san(&p, "Pxe5", lang).unwrap_err();
        assert!(e.to_string().ends_with("no pawn can capture on e5"), "{e}");
    }
    // Two pawns can take: ambiguous, and both named (C11/E11 asks for the file).
    let two = fen("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1");
    match parse_san(&two, "Pxd5", Lang::Spanish) {
        Err(ReadSanError::Rules(SanError::Ambiguous { candidates, .. })) => {
            assert_eq!(candidates.len(), 2)
        }
        other => panic!("{other:?}"),
    }
    // Without the letter a capture still names its file.
    assert!(matches!(
        parse_san(&p, "xd5", Lang::English),
        Err(ReadSanError::Syntax(_))
    ));
}

/// FIDE 3.7d and Appendix C9/E9: `exd6 a.p.` (Spanish, *al paso*) or `e.p.`, however it is
/// glued or bracketed.
#[test]
fn fide_c9_en_passant_marks_written_every_way() {
    let p = fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    for lang in READERS {
        for t in [
            "exd6 (a.p.)",
            "exd6(a.p.)",
            "exd6 a.p.",
            "exd6 a. p.",
            "exd6 e.p.",
            "exd6e.p.",
            "exd6 (e.p.)",
            "Pxd6 a.p.",
        ] {
            let m = parse_san(&p, t, lang).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert!(m.is_en_passant(), "{t} {lang:?}");
            assert_eq!(parse_move(&p, t, lang).unwrap(), m, "{t} {lang:?}");
        }
    }
    assert!(
        SanPlus::parse("exd6 (a.p.)", Lang::Spanish)
            .unwrap()
            .en_passant_marker
    );
}

/// FIDE 3.7d, C9/E9: the mark is part of the score; on a move that is no en passant
/// capture it is refused (typed), not ignored.
#[test]
fn fide_c9_en_passant_mark_on_another_move_is_refused() {
    let p = fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    for lang in READERS {
        for t in ["exd5 e.p.", "exd5 (a.p.)", "e5 a.p."] {
            match parse_san(&p, t, lang) {
                Err(ReadSanError::Rules(SanError::NotEnPassant { san, played })) => {
                    assert_eq!(san, t);
                    assert!(!played.is_en_passant());
                }
                other => panic!("{t} {lang:?}: {other:?}"),
            }
            let e = parse_move(&p, t, lang).unwrap_err();
            assert_eq!(e.kind(), MoveErrorKind::Illegal, "{t}");
            assert!(e.to_string().contains("en passant"), "{e}");
        }
    }
}

/// FIDE 3.7e and Appendix C12/E12 (`d8D, f8C, b1A, g1T`): Spanish promotion letters. `R` is
/// the king (*rey*) in Spanish: `c8R` asks for a king, which is illegal, and is never read
/// as a rook when the letters are Spanish.
#[test]
fn fide_c12_spanish_promotion_letters() {
    let p = fen("4k3/2P5/8/8/8/8/8/4K3 w - - 0 1");
    for (t, role) in [
        ("c8D", Role::Queen),
        ("c8T", Role::Rook),
        ("c8A", Role::Bishop),
        ("c8C", Role::Knight),
    ] {
        for lang in [Lang::Spanish, Lang::Auto] {
            assert_eq!(
                parse_san(&p, t, lang).unwrap().promotion(),
                Some(role),
                "{t}"
            );
            assert_eq!(
                parse_move(&p, t, lang).unwrap().promotion(),
                Some(role),
                "{t}"
            );
        }
    }
    for t in ["c8R", "c8=R", "c8(R)"] {
        match parse_san(&p, t, Lang::Spanish) {
            Err(ReadSanError::Rules(SanError::IllegalPromotion { role, .. })) => {
                assert_eq!(role, Role::King, "{t}")
            }
            other => panic!("{t}: {other:?}"),
        }
        // The declared language decides: no fallback to the English rook.
        let e = parse_move(&p, t, Lang::Spanish).unwrap_err();
        assert_eq!(e.kind(), MoveErrorKind::Illegal, "{t}");
        assert_eq!(e.reason(), "a pawn cannot promote to a king");
        // In English it is the rook.
        let rook = parse_move(&p, t, Lang::English).unwrap();
        assert_eq!(rook.promotion(), Some(Role::Rook), "{t}");
    }
    // In English letters a king is `K`: as illegal.
    assert!(matches!(
        parse_san(&p, "c8=K", Lang::English),
        Err(ReadSanError::Rules(SanError::IllegalPromotion {
            role: Role::King,
            ..
        }))
    ));
}

/// FIDE Art. 9.1b and Appendix C13/E13: a draw offer is recorded in the score as `(=)`,
/// glued (seed 002, `11.Rb1(=)`) or not (seed 003, `11. Rb1 (=)`). It is read as the move
/// plus the offer; a bare `=` is not an offer and is refused.
#[test]
fn fide_e13_draw_offer_marked_in_the_score() {
    for (t, lang) in [
        ("Cf3(=)", Lang::Spanish),
        ("Cf3 (=)", Lang::Auto),
        ("Nf3 (=)", Lang::English),
        ("Nf3(=)", Lang::Auto),
        ("2.Nf3+(=)", Lang::English),
    ] {
        let sp = SanPlus::parse(t, lang).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert!(sp.draw_offer, "{t}");
        let p = Position::new();
        let m = parse_san(&p, t, lang).unwrap();
        assert_eq!(m, parse_san(&p, "Nf3", Lang::English).unwrap(), "{t}");
    }
    let sp = SanPlus::parse("e8=Q(=)", Lang::English).unwrap();
    assert!(sp.draw_offer);
    assert!(matches!(
        sp.san,
        San::Normal {
            promotion: Some(Role::Queen),
            ..
        }
    ));
    for t in ["Nf3=", "Cf3 ="] {
        let e = SanPlus::parse(t, Lang::Auto).unwrap_err();
        assert!(e.reason().contains("(=)"), "{t}: {e}");
    }
}
