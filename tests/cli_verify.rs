//! `sobre verify` with the real binary: a signed archive built here is checked offline.

use assert_cmd::Command;
use serde_json::Value;
use sobre_core::record::export::write_archive;
use sobre_core::test_support::{GameBuilder, key};
use std::path::{Path, PathBuf};
use tempfile::TempDir;

const T0: u64 = 1_795_304_673_000; // 2026-11-21T23:44:33Z

/// Fool's mate (FIDE 5.1a), signed by both players: White (key 1) challenges, Black
/// (key 2) accepts a second later, four moves a second apart. Returns the archive text.
fn fools_mate_archive() -> String {
    let game = GameBuilder::new(key(1), key(2))
        .at(T0)
        .every(1000)
        .sign_written("f3 e5 g4 Qh4#")
        .expect("a legal line signs");
    write_archive(&game.game, &game.events).expect("encodes")
}

struct Fixture {
    dir: TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        Fixture {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).expect("writes");
        path
    }

    /// `sobre verify` with a home of its own (verify needs none, and must not touch yours).
    fn sobre(&self) -> Command {
        let mut cmd = Command::cargo_bin("sobre").expect("binary built by cargo");
        cmd.env("SOBRE_HOME", self.dir.path().join("home"));
        cmd.arg("verify");
        cmd
    }

    fn run(&self, args: &[&str], path: &Path) -> (i32, String, String) {
        let out = self.sobre().arg(path).args(args).output().expect("runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).expect("utf-8"),
            String::from_utf8(out.stderr).expect("utf-8"),
        )
    }
}

/// Flips one hex digit of byte `at` of the wire form of event `index` (0-based).
fn flip(text: &str, index: usize, at: usize) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let line = &mut lines[2 + index];
    let pos = "event ".len() + 2 * at;
    let new = if line.as_bytes()[pos] == b'0' {
        "1"
    } else {
        "0"
    };
    line.replace_range(pos..pos + 1, new);
    lines.join("\n") + "\n"
}

#[test]
fn verified_checkmate_as_json() {
    let fx = Fixture::new();
    let text = fools_mate_archive();
    let path = fx.file("game.sobre", &text);
    let (code, out, err) = fx.run(&["--json"], &path);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["ok"], true);
    let game_line = text.lines().nth(1).expect("game line");
    assert_eq!(
        v["game"].as_str().map(|g| format!("game {g}")),
        Some(game_line.to_owned())
    );
    assert_eq!(v["white"], key(1).player_id().to_string());
    assert_eq!(v["black"], key(2).player_id().to_string());
    assert_eq!(v["status"], "finished");
    assert_eq!(v["result"], "0-1");
    assert_eq!(v["termination"], "checkmate");
    assert_eq!(v["plies"], 4);
    assert_eq!(
        v["moves"],
        serde_json::json!(["f2f3", "e7e5", "g2g4", "d8h4"])
    );
    assert_eq!(
        v["fen"],
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    );
    assert_eq!(v["claims"], serde_json::json!([]));
    assert_eq!(v["equivocations"]["count"], 0);
    assert_eq!(v["equivocations"]["seqs"], serde_json::json!([]));
}

#[test]
fn verified_game_in_words_and_from_standard_input() {
    let fx = Fixture::new();
    let out = fx
        .sobre()
        .arg("-")
        .write_stdin(fools_mate_archive())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.contains("status    finished"), "{text}");
    assert!(text.contains("result    0-1 (checkmate)"), "{text}");
    assert!(text.contains("moves     4 plies"), "{text}");
    assert!(
        text.contains("position  rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),
        "{text}"
    );
    assert!(text.contains("disputes  none"), "{text}");
    assert!(text.contains(&format!("white     {}", key(1).player_id())));
}

#[test]
fn pgn_output_is_canonical_with_termination() {
    let fx = Fixture::new();
    let path = fx.file("game.sobre", &fools_mate_archive());
    let (code, out, err) = fx.run(&["--pgn"], &path);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("[Event \"sobre correspondence game\"]\n[Site \"sobre\"]\n"));
    assert!(out.contains("[Date \"2026.11.21\"]"), "{out}");
    assert!(out.contains("[Result \"0-1\"]"), "{out}");
    assert!(out.contains("[Termination \"checkmate\"]"), "{out}");
    assert!(out.contains("[TimeControl \"3d\"]"), "{out}");
    let moves = out
        .split("\n\n")
        .nth(1)
        .expect("movetext")
        .replace('\n', " ");
    assert!(
        moves.starts_with("1. f3 {[%sobre-time 2026-11-21T23:44:35Z]}"),
        "{out}"
    );
    assert!(moves.contains("2... Qh4#"), "{out}");
    assert!(moves.trim_end().ends_with("0-1"), "{out}");
}

#[test]
fn tampered_event_fails_naming_the_event() {
    let fx = Fixture::new();
    // Event #2 is White's f3 on line 5; its byte 60 lies inside the author's key.
    let path = fx.file("tampered.sobre", &flip(&fools_mate_archive(), 2, 60));
    let (code, out, err) = fx.run(&[], &path);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("line 5: event #2: bad signature"), "{err}");

    let (code, out, _) = fx.run(&["--json"], &path);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["ok"], false);
    assert!(
        v["error"]
            .as_str()
            .is_some_and(|e| e.contains("event #2: bad signature")),
        "{v}"
    );
}

#[test]
fn archive_of_another_game_fails() {
    let fx = Fixture::new();
    let text = fools_mate_archive();
    let game_line = text.lines().nth(1).expect("game line").to_owned();
    let wrong = text.replace(&game_line, &format!("game {}", "ab".repeat(32)));
    let (code, _, err) = fx.run(&[], &fx.file("wrong.sobre", &wrong));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the archive says game abab"), "{err}");
}

#[test]
fn a_file_that_is_not_an_archive_is_your_input() {
    let fx = Fixture::new();
    let path = fx.file("game.pgn", "[Event \"casual\"]\n\n1. e4 e5 *\n");
    let (code, _, err) = fx.run(&[], &path);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 1: not a sobre archive"), "{err}");

    let (code, out, _) = fx.run(&["--json"], &path);
    assert_eq!(code, 2);
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["ok"], false);

    // Bad hex is a malformed file too.
    let text = fools_mate_archive().replacen("event ", "event xy", 1);
    let (code, _, err) = fx.run(&[], &fx.file("bad-hex.sobre", &text));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 3, column 7"), "{err}");

    let (code, _, err) = fx.run(&[], &fx.dir.path().join("missing.sobre"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot open"), "{err}");
}
