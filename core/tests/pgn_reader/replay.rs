//! Replay: what players write, read with full legality checks (issue 29).

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
