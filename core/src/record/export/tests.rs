//! The archive and PGN export, read back and checked.

use super::*;
use crate::test_support::{GameBuilder, key};

const T0: u64 = 1_795_304_673_000; // 2026-11-21T23:44:33Z

/// Challenge at `T0` and acceptance a second later: the smallest game with two players.
fn small_game() -> (GameId, Vec<SignedEvent>) {
    match GameBuilder::new(key(1), key(2)).at(T0).sign(&[]) {
        Ok(g) => (g.game, g.events),
        Err(e) => panic!("signs: {e}"),
    }
}

fn archive_of(game: &GameId, events: &[SignedEvent]) -> String {
    match write_archive(game, events) {
        Ok(t) => t,
        Err(e) => panic!("write: {e}"),
    }
}

#[test]
fn civil_dates_match_known_days() {
    assert_eq!(civil_from_days(0), (1970, 1, 1));
    assert_eq!(civil_from_days(-1), (1969, 12, 31));
    assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    assert_eq!(civil_from_days(11_017), (2000, 3, 1));
    assert_eq!(civil_from_days(47_540), (2100, 2, 28)); // 2100 is no leap year
    assert_eq!(civil_from_days(47_541), (2100, 3, 1));
    assert_eq!(iso_utc(T0), "2026-11-21T23:44:33Z");
    assert_eq!(iso_utc(T0 + 999), "2026-11-21T23:44:33Z");
    assert_eq!(pgn_date(T0), "2026.11.21");
    assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
}

#[test]
fn archive_round_trip_keeps_the_signed_bytes() {
    let (game, events) = small_game();
    let text = archive_of(&game, &events);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0], "sobre-archive 1");
    assert_eq!(lines[1], format!("game {}", game.to_hex()));
    assert!(lines[2].starts_with("event "));
    let archive = read_archive(&text);
    assert_eq!(
        archive,
        Ok(Archive {
            game,
            events: events.clone(),
            lines: vec![3, 4],
        })
    );
}

#[test]
fn comments_blank_lines_crlf_and_upper_case_are_tolerated() {
    let (game, events) = small_game();
    let text = archive_of(&game, &events);
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[2] = lines[2].to_uppercase().replacen("EVENT", "event", 1);
    let messy = format!(
        "# sent by e-mail\r\n\r\n{}\r\n  {}  \r\n# a comment\r\n\r\n{}\r\n{}\r\n",
        lines[0], lines[1], lines[2], lines[3]
    );
    assert_eq!(read_archive(&messy).map(|a| a.events), Ok(events));
}

#[test]
fn bad_lines_are_named() {
    let (game, events) = small_game();
    let text = archive_of(&game, &events);
    assert_eq!(read_archive(""), Err(ArchiveError::Empty));
    assert!(matches!(
        read_archive("[Event \"x\"]\n"),
        Err(ArchiveError::BadHeader { line: 1, .. })
    ));
    assert!(matches!(
        read_archive("sobre-archive 2\n"),
        Err(ArchiveError::UnsupportedVersion { line: 1, .. })
    ));
    assert_eq!(
        read_archive("sobre-archive 1\n"),
        Err(ArchiveError::MissingGame { line: 2 })
    );
    assert!(matches!(
        read_archive("sobre-archive 1\ngame 12\n"),
        Err(ArchiveError::BadGame { line: 2, .. })
    ));
    let odd = text
        .trim_end()
        .strip_suffix(|_: char| true)
        .map(str::to_owned);
    assert!(matches!(
        odd.as_deref().map(read_archive),
        Some(Err(ArchiveError::OddHex { line: 4, .. }))
    ));
    let bad = text.replacen("event ", "event zz", 1);
    assert_eq!(
        read_archive(&bad),
        Err(ArchiveError::BadHex {
            line: 3,
            column: 7,
            found: 'z'
        })
    );
    let unknown = format!("{text}move e2e4\n");
    assert!(matches!(
        read_archive(&unknown),
        Err(ArchiveError::UnknownLine { line: 5, .. })
    ));
    let long = format!("{text}event {}\n", "0".repeat(MAX_ARCHIVE_LINE));
    assert!(matches!(
        read_archive(&long),
        Err(ArchiveError::LineTooLong { line: 5, .. })
    ));
}

#[test]
fn a_truncated_event_does_not_decode() {
    let (game, events) = small_game();
    let text = archive_of(&game, &events);
    // Drop the last byte (two hex digits) of the last event.
    let cut = text.trim_end();
    let cut = &cut[..cut.len() - 2];
    let err = read_archive(cut);
    assert!(
        matches!(
            err,
            Err(ArchiveError::Event {
                line: 4,
                index: 1,
                ..
            })
        ),
        "{err:?}"
    );
}

#[test]
fn the_game_line_must_name_the_game() {
    let (game, events) = small_game();
    let text = archive_of(&EventId([9; 32]), &events);
    let archive = read_archive(&text);
    let result = archive.map(|a| a.verify().map(|s| s.game));
    assert_eq!(
        result,
        Ok(Err(ArchiveVerifyError::GameMismatch {
            declared: EventId([9; 32]),
            actual: game
        }))
    );
}
