//! Exporting verified games: the signed archive (anyone can re-verify it offline) and
//! canonical PGN (any chess program can replay it).

use proptest::prelude::*;
use sobre_core::clock::SECOND;
use sobre_core::pgn::PgnReader;
use sobre_core::pgn::replay::{ReplayOptions, ReplayedGame, Replayer};
use sobre_core::record::author::{Scoresheet, SealOpening};
use sobre_core::record::commit;
use sobre_core::record::export::{
    ArchiveError, ArchiveVerifyError, player_id_name, read_archive, to_pgn, write_archive,
};
use sobre_core::record::{
    Challenge, ClaimReason, ColourChoice, Envelope, EventError, EventId, EventKind, GameState,
    LeagueRound, PlayerId, Seal, SealLetters, SignedEvent, StartPosition, Status, VerifyError,
    verify, verify_at,
};
use sobre_core::san::{Lang, parse_san};
use sobre_core::test_support::key;
use sobre_core::{Color, Position};

/// 2026-11-21T23:44:33Z.
/// The letters a test's sealed move is written in (App. E2/E3): Spanish when it uses a
/// letter only Spanish has (`D T A C`), English otherwise, as its writer meant it.
fn letters_of(text: &str) -> SealLetters {
    if text.starts_with(['D', 'T', 'A', 'C']) {
        SealLetters::Spanish
    } else {
        SealLetters::English
    }
}

const T0: u64 = 1_795_304_673_000;

/// Two players at a table (White challenges); every event is delivered to the other at once.
struct Table {
    sheets: [Scoresheet; 2],
    events: Vec<SignedEvent>,
    t: u64,
    pos: Position,
}

impl Table {
    fn new(tc: &str, start: StartPosition, league: Option<LeagueRound>) -> Table {
        let (w, b) = (key(1), key(2));
        let pos = match &start {
            StartPosition::Chess960(n) => Position::chess960(*n).unwrap(),
            StartPosition::Fen(f) => Position::from_fen_auto(f).unwrap(),
            _ => Position::new(),
        };
        let challenge = Challenge {
            opponent: b.player_id(),
            colour: ColourChoice::ChallengerWhite,
            time_control: tc.into(),
            start,
            coin_commitment: None,
            league,
        };
        let (ws, ch) = Scoresheet::challenge(w, challenge, T0).unwrap();
        let mut bs = Scoresheet::join(b, ws.game());
        bs.saw(ch.id());
        let mut t = Table {
            sheets: [ws, bs],
            events: vec![ch],
            t: T0,
            pos,
        };
        t.act(Color::Black, |s, t| s.accept(None, t));
        t
    }

    fn standard() -> Table {
        Table::new("3d", StartPosition::Standard, None)
    }

    fn act(
        &mut self,
        c: Color,
        f: impl FnOnce(
            &mut Scoresheet,
            u64,
        ) -> Result<SignedEvent, sobre_core::record::codec::CodecError>,
    ) -> SignedEvent {
        self.t += SECOND;
        let ev = f(&mut self.sheets[c.index()], self.t).unwrap();
        self.sheets[(!c).index()].saw(ev.id());
        self.events.push(ev.clone());
        ev
    }

    fn mv(&mut self, san: &str) -> SignedEvent {
        let m = parse_san(&self.pos, san, Lang::Auto).unwrap();
        let c = self.pos.turn();
        self.pos.play_unchecked(m);
        self.act(c, |s, t| s.play(m, t))
    }

    fn moves(&mut self, line: &str) {
        for san in line.split_whitespace() {
            self.mv(san);
        }
    }

    fn game(&self) -> EventId {
        self.sheets[0].game()
    }

    fn archive(&self) -> String {
        write_archive(&self.game(), &self.events).unwrap()
    }

    /// The envelope for `c` sealing now (resumption at once).
    fn envelope(&self, c: Color) -> Envelope {
        let st = verify(&self.events).unwrap();
        let players = [st.white.unwrap(), st.black.unwrap()];
        let used = verify_at(&self.events, Some(self.t + SECOND))
            .unwrap()
            .clocks
            .map_or([0, 0], |c| c.used_ms);
        Envelope {
            white: players[0],
            black: players[1],
            fen_before: self.pos.fen(),
            time_used_ms: used,
            sealer: players[c.index()],
            move_number: self.pos.fullmove_number(),
            draw_offer_by: None,
            resume_at_ms: Some(self.t + 2 * SECOND),
            place: "Club Villa Dolores".into(),
            lateness_limit_ms: 60 * 60 * 1000,
        }
    }

    /// The player to move seals `text` (resumption at once); returns the opening.
    fn seal(&mut self, text: &str) -> SealOpening {
        let st = verify(&self.events).unwrap();
        let c = self.pos.turn();
        let env = self.envelope(c);
        let ply = st.moves.len() as u32 + 1;
        let mut opening = None;
        self.act(c, |s, t| {
            let (ev, o) = s.seal(text, letters_of(text), [42; 32], env, ply, t)?;
            opening = Some(o);
            Ok(ev)
        });
        opening.unwrap()
    }

    /// Like `seal`, as a node signed it before the letters were recorded and the sealed
    /// move was binding (wire tag 10): the meaning older archives keep.
    fn seal_legacy(&mut self, text: &str) -> SealOpening {
        let c = self.pos.turn();
        let env = self.envelope(c);
        let ply = verify(&self.events).unwrap().moves.len() as u32 + 1;
        let commitment = commit::seal_commitment(&self.game(), ply, &env.sealer, text, &[42; 32]);
        self.act(c, |s, t| {
            s.append(
                EventKind::Seal(Seal {
                    commitment,
                    envelope: env,
                }),
                t,
            )
        });
        SealOpening {
            move_text: text.into(),
            salt: [42; 32],
        }
    }
}

/// Reads the archive text back and verifies it, as a third party would.
fn verify_text(text: &str) -> GameState {
    read_archive(text).unwrap().verify().unwrap()
}

/// Replays the first game of a PGN text with the crate's own reader.
fn replay_pgn(pgn: &str) -> ReplayedGame {
    let mut reader = PgnReader::new(pgn.as_bytes());
    let mut replayer = Replayer::new(ReplayOptions {
        keep_tags: true,
        keep_moves: true,
        keep_comments: true,
    });
    reader.read_game(&mut replayer).unwrap().unwrap()
}

/// The movetext of a PGN on one line (the writer wraps under 80 columns, also inside
/// comments).
fn movetext(pgn: &str) -> String {
    pgn.split("\n\n")
        .nth(1)
        .unwrap_or_default()
        .replace('\n', " ")
}

fn named(p: &PlayerId) -> String {
    if *p == key(1).player_id() {
        "Capablanca, Jose Raul".into()
    } else {
        "Lasker, Emanuel".into()
    }
}

#[test]
fn archive_round_trip_gives_identical_events() {
    let mut t = Table::standard();
    t.moves("e4 e5 Nf3 Nc6");
    t.act(Color::White, |s, t| s.chat("¡buena suerte! {}", t));
    let text = t.archive();
    let archive = read_archive(&text).unwrap();
    assert_eq!(archive.game, t.game());
    assert_eq!(archive.events, t.events);
    assert_eq!(archive.lines, (3..3 + t.events.len()).collect::<Vec<_>>());
    // Writing what was read gives the same text: nothing is re-encoded on the way.
    assert_eq!(write_archive(&archive.game, &archive.events).unwrap(), text);
}

#[test]
fn archived_mate_verifies_and_exports_canonical_pgn() {
    let mut t = Table::standard();
    let f3 = t.mv("f3");
    t.act(Color::Black, |s, t| s.receipt(f3.id(), t));
    t.moves("e5 g4 Qh4#");
    let state = verify_text(&t.archive());
    assert_eq!(state.status, Status::Finished);
    assert_eq!(state.game, t.game());

    let pgn = to_pgn(&state, &named);
    for tag in [
        "[Event \"sobre correspondence game\"]",
        "[Site \"sobre\"]",
        "[Date \"2026.11.21\"]",
        "[Round \"-\"]",
        "[White \"Capablanca, Jose Raul\"]",
        "[Black \"Lasker, Emanuel\"]",
        "[Result \"0-1\"]",
        "[TimeControl \"3d\"]",
        "[Termination \"checkmate\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} missing in\n{pgn}");
    }
    assert!(pgn.contains(&format!("[WhiteId \"{}\"]", key(1).player_id())));
    assert!(pgn.contains(&format!("[BlackId \"{}\"]", key(2).player_id())));
    assert!(pgn.contains(&format!("[GameId \"{}\"]", t.game().to_hex())));
    assert!(!pgn.contains("[FEN"), "standard start needs no FEN:\n{pgn}");
    assert!(!pgn.contains("[Variant"));
    // The accept is 1 s after T0, the first move 1 s later, its receipt 1 s after that.
    let moves = movetext(&pgn);
    assert!(
        moves.starts_with(
            "1. f3 {[%sobre-time 2026-11-21T23:44:35Z] [%sobre-received 2026-11-21T23:44:36Z]}"
        ),
        "{pgn}"
    );
    assert!(moves.contains("Qh4# {[%sobre-time"), "{pgn}");
    assert!(pgn.trim_end().ends_with("0-1"), "{pgn}");

    let replayed = replay_pgn(&pgn);
    assert!(replayed.ok(), "{:?}", replayed.error);
    assert_eq!(replayed.plies, 4);
    assert_eq!(replayed.position.fen(), state.position.fen());
    assert_eq!(
        replayed.outcome.map(|o| o.as_str()),
        state.result.map(|o| o.as_str())
    );
    assert_eq!(replayed.tag("GameId"), Some(t.game().to_hex().as_str()));
}

#[test]
fn unfinished_game_is_unterminated_with_an_open_result() {
    let mut t = Table::standard();
    t.moves("d4 d5");
    let pgn = to_pgn(&verify_text(&t.archive()), &player_id_name);
    assert!(pgn.contains("[Result \"*\"]"));
    assert!(pgn.contains("[Termination \"unterminated\"]"));
    assert!(pgn.contains(&format!("[White \"{}\"]", key(1).player_id())));
    assert!(pgn.trim_end().ends_with('*'));
}

#[test]
fn chess960_game_exports_variant_setup_and_fen() {
    // Scharnagl 0: BBQNNRKR.
    let mut t = Table::new("3d", StartPosition::Chess960(0), None);
    t.moves("g4 g5 Ng2 Ng7 d4");
    let state = verify_text(&t.archive());
    let pgn = to_pgn(&state, &player_id_name);
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("[SetUp \"1\"]\n[FEN \""), "{pgn}");
    let start = Position::chess960(0).unwrap();
    assert!(pgn.contains(&format!("[FEN \"{}\"]", start.fen())), "{pgn}");
    let replayed = replay_pgn(&pgn);
    assert!(replayed.ok(), "{:?}", replayed.error);
    assert!(replayed.start.is_chess960());
    assert_eq!(replayed.plies, 5);
    assert_eq!(replayed.position.fen(), state.position.fen());
}

#[test]
fn fen_start_with_black_to_move_numbers_from_the_fen() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40";
    let mut t = Table::new("3d", StartPosition::Fen(fen.into()), None);
    t.moves("Kd7 e4");
    let state = verify_text(&t.archive());
    let pgn = to_pgn(&state, &player_id_name);
    assert!(
        pgn.contains(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]")),
        "{pgn}"
    );
    assert!(!pgn.contains("[Variant"), "{pgn}");
    assert!(pgn.contains("40... Kd7"), "{pgn}");
    let replayed = replay_pgn(&pgn);
    assert!(replayed.ok(), "{:?}", replayed.error);
    assert_eq!(replayed.position.fen(), state.position.fen());
}

#[test]
fn league_game_names_its_league_and_round() {
    let league = LeagueRound {
        league: EventId([0xab; 32]),
        round: 7,
    };
    let mut t = Table::new("10/50d", StartPosition::Standard, Some(league));
    t.mv("e4");
    t.act(Color::Black, |s, t| s.resign(t));
    let pgn = to_pgn(&verify_text(&t.archive()), &player_id_name);
    assert!(
        pgn.contains(&format!("[Event \"sobre league {}\"]", "ab".repeat(32))),
        "{pgn}"
    );
    assert!(pgn.contains("[Round \"7\"]"));
    assert!(pgn.contains("[TimeControl \"10/50d\"]"));
    assert!(pgn.contains("[Termination \"resignation\"]"));
    assert!(pgn.contains("[Result \"1-0\"]"));
}

#[test]
fn a9a_sealed_move_is_marked_in_the_pgn() {
    let mut t = Table::new("otb 2h", StartPosition::Standard, None);
    t.moves("e4 e5");
    let opening = t.seal("Cf3");
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let pgn = to_pgn(&verify_text(&t.archive()), &player_id_name);
    assert!(
        movetext(&pgn).contains(
            "2. Nf3 {[%sobre-time 2026-11-21T23:44:39Z] sealed move opened at resumption}"
        ),
        "{pgn}"
    );
    assert!(replay_pgn(&pgn).ok());
}

/// FIDE Art. 9.1b and Appendix C13/E13: an offer made with one's own move is recorded in the
/// score as `(=)` after it, and the comment says it in words for readers that skip the mark;
/// an offer made by the player to move, before moving, has no move to mark and is only noted.
/// The crate's own reader reads the marks back as offers.
#[test]
fn fide_e13_draw_offer_marked_in_the_exported_score() {
    let mut t = Table::standard();
    t.moves("e4 e5 Nf3");
    t.act(Color::White, |s, t| s.offer_draw(t));
    t.act(Color::Black, |s, t| s.decline_draw(t));
    t.mv("Nc6");
    t.act(Color::Black, |s, t| s.offer_draw(t));
    t.mv("Bb5");
    t.act(Color::Black, |s, t| s.offer_draw(t));
    t.mv("a6");
    let state = verify_text(&t.archive());
    let offers: Vec<(Color, usize)> = state.draw_offers.iter().map(|o| (o.by, o.ply)).collect();
    assert_eq!(
        offers,
        [(Color::White, 3), (Color::Black, 4), (Color::Black, 5)]
    );
    let pgn = to_pgn(&state, &player_id_name);
    let moves = movetext(&pgn);
    assert!(
        moves.contains("2. Nf3 (=) {[%sobre-time 2026-11-21T23:44:37Z] White offers a draw (9.1)}"),
        "{pgn}"
    );
    assert!(moves.contains(" Nc6 (=) {"), "{pgn}");
    assert!(moves.contains("3. Bb5 {"), "{pgn}");
    assert!(
        moves.contains("Black offers a draw (9.1)} 3... a6"),
        "{pgn}"
    );
    let back = replay_pgn(&pgn);
    assert!(back.ok(), "{:?}", back.error);
    assert_eq!(back.plies, 6);
    assert_eq!(back.draw_offers, [3, 4]);
}

#[test]
fn a8_invalid_sealed_move_is_the_final_comment() {
    let mut t = Table::new("otb 2h", StartPosition::Standard, None);
    t.moves("e4 e5");
    let opening = t.seal("Dxd5");
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let pgn = to_pgn(&verify_text(&t.archive()), &player_id_name);
    assert!(pgn.contains("[Termination \"invalid sealed move (A8)\"]"));
    // The comment after Black's last move carries the verdict.
    let moves = movetext(&pgn);
    assert!(moves.contains("is invalid"), "{pgn}");
    assert!(moves.contains("(A8)} 0-1"), "{pgn}");
}

#[test]
fn a11_lost_envelope_is_noted_on_the_move() {
    let mut t = Table::new("otb 2h", StartPosition::Standard, None);
    t.moves("e4 e5");
    let _ = t.seal_legacy("Nf3");
    t.act(Color::Black, |s, t| s.presence(t));
    t.mv("Nf3");
    let pgn = to_pgn(&verify_text(&t.archive()), &player_id_name);
    let moves = movetext(&pgn);
    assert!(moves.contains("2. Nf3 {"), "{pgn}");
    assert!(moves.contains("envelope lost (A11)}"), "{pgn}");
}

#[test]
fn fide_9_5b_incorrect_claim_is_commented_on_its_ply() {
    let mut t = Table::standard();
    t.moves("e4 e5");
    let nf3 = parse_san(&t.pos, "Nf3", Lang::English).unwrap();
    t.pos.play_unchecked(nf3);
    t.act(Color::White, |s, t| {
        s.claim(ClaimReason::Threefold, Some(nf3), t)
    });
    let state = verify_text(&t.archive());
    assert_eq!(state.claims.len(), 1);
    let pgn = to_pgn(&state, &player_id_name);
    let moves = movetext(&pgn);
    assert!(
        moves.contains("White claims threefold repetition (9.2): incorrect"),
        "{pgn}"
    );
    let replayed = replay_pgn(&pgn);
    assert!(replayed.ok(), "{:?}", replayed.error);
    assert_eq!(replayed.plies, 3);
}

#[test]
fn fide_12_8_equivocation_is_the_reason_of_the_result_in_a_comment() {
    let mut t = Table::standard();
    t.mv("e4");
    let (seq, last, seen) = (t.sheets[1].seq(), t.sheets[1].last(), t.sheets[1].seen());
    let mut twin = Scoresheet::resume(key(2), t.game(), seq, last, seen);
    let c5 = parse_san(&t.pos, "c5", Lang::English).unwrap();
    let other = twin.play(c5, t.t + 2 * SECOND).unwrap();
    t.mv("e5");
    t.events.push(other);
    let state = verify_text(&t.archive());
    assert_eq!(state.status, Status::Finished, "12.8: Black loses");
    let pgn = to_pgn(&state, &named);
    let moves = movetext(&pgn);
    assert!(
        moves.contains("equivocation by Lasker, Emanuel at seq 1"),
        "{pgn}"
    );
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
}

// Errors.

#[test]
fn a_file_that_is_not_an_archive_is_refused_at_line_one() {
    let err = read_archive("[Event \"casual\"]\n\n1. e4 *\n").unwrap_err();
    assert!(matches!(err, ArchiveError::BadHeader { line: 1, .. }));
    assert!(err.to_string().starts_with("line 1: not a sobre archive"));
    assert_eq!(read_archive("\n# nothing\n"), Err(ArchiveError::Empty));
}

#[test]
fn odd_hex_is_a_truncated_line() {
    let mut t = Table::standard();
    t.mv("e4");
    let text = t.archive();
    let mut lines: Vec<&str> = text.lines().collect();
    let cut = &lines[4][..lines[4].len() - 1];
    lines[4] = cut;
    let err = read_archive(&lines.join("\n")).unwrap_err();
    assert!(
        matches!(err, ArchiveError::OddHex { line: 5, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("truncated"));
}

#[test]
fn a_line_cut_short_does_not_decode() {
    let mut t = Table::standard();
    t.mv("e4");
    let text = t.archive();
    let mut lines: Vec<&str> = text.lines().collect();
    let half = &lines[3][..lines[3].len() / 2 / 2 * 2];
    lines[3] = half;
    let err = read_archive(&lines.join("\n")).unwrap_err();
    assert!(
        matches!(
            err,
            ArchiveError::Event {
                line: 4,
                index: 1,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("line 4: event #1 does not decode")
    );
}

/// Flips one hex digit of byte `at` of the wire form of event `index` (0-based).
fn flip(text: &str, index: usize, at: usize) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let line = &mut lines[2 + index];
    let pos = "event ".len() + 2 * at;
    let old = line.as_bytes()[pos];
    let new = if old == b'0' { '1' } else { '0' };
    line.replace_range(pos..pos + 1, &new.to_string());
    lines.join("\n")
}

#[test]
fn a_corrupted_byte_fails_the_signature() {
    let mut t = Table::standard();
    t.moves("e4 e5");
    let text = t.archive();
    // Event #2 (White's e4): the wire form is an 8-byte length, then the body; the body
    // starts with the version (2 bytes) and the game (1 + 32 bytes); byte 60 is inside the
    // author's key, which still decodes.
    let tampered = flip(&text, 2, 60);
    let archive = read_archive(&tampered).unwrap();
    let err = archive.verify().unwrap_err();
    match &err {
        ArchiveVerifyError::Verify {
            line: Some(5),
            error:
                VerifyError::Event {
                    index: 2,
                    error: EventError::BadSignature(_),
                },
        } => {}
        other => panic!("unexpected {other:?}"),
    }
    assert!(
        err.to_string()
            .starts_with("line 5: event #2: bad signature"),
        "{err}"
    );
    // A flipped signature byte (the last byte of the wire form) is caught the same way.
    let last = t.events[3].to_bytes().unwrap().len() - 1;
    let err = read_archive(&flip(&text, 3, last))
        .unwrap()
        .verify()
        .unwrap_err();
    assert!(err.to_string().contains("event #3: bad signature"), "{err}");
}

#[test]
fn a_missing_event_is_named_by_its_line() {
    let mut t = Table::standard();
    t.moves("e4 e5 Nf3");
    // Drop Black's e5: White's Nf3 then refers to an event not in the record.
    let text = t.archive();
    let kept: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|&(i, _)| i != 5)
        .map(|(_, l)| l)
        .collect();
    let err = read_archive(&kept.join("\n"))
        .unwrap()
        .verify()
        .unwrap_err();
    assert!(
        matches!(err, ArchiveVerifyError::Verify { line: Some(_), .. }),
        "{err:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn read_archive_never_panics_on_arbitrary_text(text in "\\PC*") {
        let _ = read_archive(&text);
    }

    #[test]
    fn read_archive_never_panics_on_archive_like_text(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("sobre-archive 1".to_owned()),
                "game [0-9a-fA-F]{0,70}",
                "event [0-9a-f]{0,300}",
                "[ \t#]*[a-z]{0,8}[ \t]*[0-9a-fxyz\u{e9}]{0,20}\r?",
            ],
            0..8,
        )
    ) {
        let text = lines.join("\n");
        if let Ok(archive) = read_archive(&text) {
            let _ = archive.verify();
        }
    }

    #[test]
    fn any_flipped_digit_is_caught(event in 0usize..4, at in 0usize..400) {
        let mut t = Table::standard();
        t.moves("e4 e5");
        let text = t.archive();
        let len = t.events[event].to_bytes().unwrap().len();
        let tampered = flip(&text, event, at % len);
        let verdict = read_archive(&tampered).map(|a| a.verify().map(|s| s.moves.len()));
        prop_assert!(!matches!(verdict, Ok(Ok(2))), "tampering went unnoticed");
    }
}
