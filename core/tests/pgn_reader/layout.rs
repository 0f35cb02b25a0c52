//! Layout quirks of real files, bounded memory, and the writer's round trip.

use super::*;

// Layout.

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

// Bounded memory.

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

// Round trip.

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
