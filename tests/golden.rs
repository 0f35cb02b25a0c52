//! Snapshots of the human output of `sobre show` and `sobre games` for a real game between two
//! real nodes (the `sobre` binary, loopback TCP), compared with `tests/golden/live_*.txt`.
//!
//! The output is made deterministic by giving both players aliases (`sobre contacts add`),
//! so player ids never appear, and by replacing the game id (and its 8-character prefix) with
//! a placeholder. The clocks are per-move (3 days) and the test takes seconds, so the times
//! shown (`3d`, `2d23h`) do not change between runs.
//!
//! The renderers themselves are also snapshot-tested on fixed JSON values, as unit tests in
//! `cli/commands/show.rs` and `cli/commands/games.rs` (files `tests/golden/show_*.txt`,
//! `games_*.txt`).
//!
//! `UPDATE_GOLDEN=1 cargo test --test runner golden` rewrites the snapshots; review the diff.

use crate::common::nodes::{Nodes, Options};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn sobre(home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sobre"));
    // English unless a test says otherwise, whatever the locale of the machine.
    cmd.arg("--home")
        .arg(home)
        .env_remove("SOBRE_HOME")
        .env("LC_ALL", "C");
    cmd
}

/// Runs a command that must succeed; its standard output.
fn run(home: &Path, args: &[&str]) -> String {
    let out = sobre(home)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the sobre binary runs");
    assert!(
        out.status.success(),
        "sobre {} failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn json(home: &Path, args: &[&str]) -> Value {
    serde_json::from_str(run(home, args).trim()).expect("one JSON object")
}

fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// Compares `actual` with the snapshot `name`, or rewrites it under `UPDATE_GOLDEN=1`.
fn assert_golden(name: &str, actual: &str) {
    let path = golden_path(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(&path, actual).expect("the snapshot is written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (create it with UPDATE_GOLDEN=1 cargo test --test runner golden)",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "{name} differs from the snapshot (UPDATE_GOLDEN=1 rewrites it)\n--- expected:\n{expected}\n--- actual:\n{actual}"
    );
}

#[test]
fn show_and_games_of_a_live_game_match_the_snapshots() {
    let mut nodes = Nodes::new();
    let (a, b) = (nodes.home("ana"), nodes.home("bernardo"));
    let mut ids = Vec::new();
    for home in [&a, &b] {
        ids.push(
            json(home, &["init", "--json"])["player_id"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    // Aliases in both homes: the output names players, never their (random) ids.
    for home in [&a, &b] {
        run(home, &["contacts", "add", "ana", &ids[0]]);
        run(home, &["contacts", "add", "bernardo", &ids[1]]);
    }
    // The homes have keys and no names: the fixture keeps them. The nodes run in the
    // locale the snapshots were taken in.
    let english = Options {
        env: &[("LC_ALL", "C")],
        ..Options::default()
    };
    nodes.start_opts("ana", &english);
    let b_addr = nodes.start_opts("bernardo", &english).addr;
    run(&a, &["peers", "connect", &b_addr]);

    let game = json(
        &a,
        &[
            "challenge",
            "bernardo",
            "--color",
            "white",
            "--per-move",
            "3d",
            "--json",
        ],
    )["game"]
        .as_str()
        .unwrap()
        .to_owned();
    crate::common::wait_until(&b, &game, "the challenge", |v| v["status"] == "pending");
    run(&b, &["accept", &game]);
    crate::common::wait_until(&a, &game, "the acceptance", |v| v["status"] == "active");
    let moves = [
        "e4", "c5", "Cf3", "d6", "d4", "cxd4", "Cxd4", "Cf6", "Cc3", "a6",
    ];
    for (i, m) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 { (&a, &b) } else { (&b, &a) };
        crate::common::wait_until(mover, &game, "the previous move", |v| v["plies"] == i);
        run(mover, &["move", &game, m]);
        crate::common::wait_until(other, &game, "the move to arrive", |v| v["plies"] == i + 1);
    }
    run(&b, &["draw", "offer", &game]);
    run(&b, &["chat", &game, "Najdorf!"]);
    crate::common::wait_until(&a, &game, "the draw offer and the chat line", |v| {
        v["draw_offer"] == "black" && v["chat"].as_array().is_some_and(|c| c.len() == 1)
    });

    let normalise = |text: String| {
        text.replace(&game, "<GAME>")
            .replace(&game[..8], "<GAMEID>")
    };
    assert_golden("live_show_white.txt", &normalise(run(&a, &["show", &game])));
    assert_golden(
        "live_show_black_es_ascii.txt",
        &normalise(run(&b, &["show", &game, "--notation", "es", "--ascii"])),
    );
    assert_golden("live_games_white.txt", &normalise(run(&a, &["games"])));
    assert_golden("live_games_black.txt", &normalise(run(&b, &["games"])));
    // The same views in a Spanish interface.
    let spanish = |home: &Path, args: &[&str]| {
        let (text, code) = outputs(home, "es_ES.UTF-8", args);
        assert_eq!(code, 0, "sobre {}: {text}", args.join(" "));
        normalise(text)
    };
    assert_golden(
        "live_show_white_es.txt",
        &spanish(&a, &["show", &game, "--notation", "es"]),
    );
    assert_golden("live_games_black_es.txt", &spanish(&b, &["games"]));
    // The node's refusals in both languages, worded by their code (FIDE 1.1: Black may not
    // move on White's turn; 3.8: the king moves one square; 9.1: a player answers only the
    // opponent's draw offer, not their own).
    let refusals: [(&str, &Path, &[&str]); 3] = [
        ("not_your_move", &b, &["move", &game, "e6"]),
        ("illegal_move", &a, &["move", &game, "Ke3"]),
        ("no_draw_offer", &b, &["draw", "accept", &game]),
    ];
    for (name, home, args) in refusals {
        for (locale, suffix) in [("C", ""), ("es_ES.UTF-8", "_es")] {
            let (text, code) = outputs(home, locale, args);
            assert_eq!(code, 2, "sobre {} ({locale}): {text}", args.join(" "));
            assert_golden(
                &format!("live_refusal_{name}{suffix}.txt"),
                &normalise(text),
            );
        }
    }
    drop(nodes);
}

/// `sobre` with the locale of a user: `LC_ALL` set (it overrides `LC_MESSAGES` and `LANG`
/// of the machine running the test), the terminal width fixed for the help.
fn sobre_with_locale(home: &Path, locale: &str) -> Command {
    let mut cmd = sobre(home);
    cmd.env("LC_ALL", locale)
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .env("COLUMNS", "100")
        .stdin(Stdio::null());
    cmd
}

/// What a command printed, standard output then standard error, with the home's path
/// replaced by `<HOME>`, and its exit code.
fn outputs(home: &Path, locale: &str, args: &[&str]) -> (String, i32) {
    let out = sobre_with_locale(home, locale)
        .args(args)
        .output()
        .expect("the sobre binary runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8 output")
        + &String::from_utf8(out.stderr).expect("UTF-8 errors");
    (
        text.replace(&home.display().to_string(), "<HOME>"),
        out.status.code().unwrap_or(-1),
    )
}

/// The Spanish interface, against snapshots in both languages: help texts, errors with
/// their hints and exit codes, and the outputs that need no node. The English snapshots are
/// what English users have always seen; the Spanish ones are what `LANG=es_ES.UTF-8` shows.
#[test]
fn help_errors_and_offline_outputs_match_the_snapshots_in_both_languages() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("carmen");
    let cases: [(&str, &[&str], i32); 8] = [
        ("help", &["--help"], 0),
        ("help_league_create", &["league", "create", "--help"], 0),
        ("help_move_short", &["move", "-h"], 0),
        ("error_no_node", &["node", "status"], 2),
        ("error_bad_fen", &["position", "8/8/8 w"], 2),
        ("error_bad_alias", &["contacts", "add", "no vale!", "x"], 2),
        (
            "position_mate",
            &["position", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "--ascii"],
            0,
        ),
        ("error_no_key", &["invite"], 2),
    ];
    for (name, args, code) in cases {
        for (locale, suffix) in [("C", ""), ("es_ES.UTF-8", "_es")] {
            let (text, got) = outputs(&home, locale, args);
            assert_eq!(got, code, "sobre {} ({locale}): {text}", args.join(" "));
            assert_golden(&format!("i18n_{name}{suffix}.txt"), &text);
        }
    }
}

/// The settings' `"language"` comes before the environment: a Spanish player on an English
/// machine reads Spanish, and the reverse.
#[test]
fn the_language_setting_overrides_the_locale() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("diego");
    std::fs::create_dir_all(&home).unwrap();
    let config = home.join("config.json");
    std::fs::write(&config, r#"{"language": "es"}"#).unwrap();
    let (text, _) = outputs(&home, "en_US.UTF-8", &["node", "status"]);
    assert!(text.contains("el nodo no está en marcha"), "{text}");
    let (help, _) = outputs(&home, "en_US.UTF-8", &["--help"]);
    assert!(
        help.contains("Uso: sobre") && help.contains("Comandos:"),
        "{help}"
    );
    std::fs::write(&config, r#"{"language": "en"}"#).unwrap();
    let (text, _) = outputs(&home, "es_AR", &["node", "status"]);
    assert!(text.contains("the node is not running"), "{text}");
    // Given with --home=DIR too, the home's setting is found before parsing.
    std::fs::write(&config, r#"{"language": "es"}"#).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sobre"))
        .arg(format!("--home={}", home.display()))
        .args(["node", "status"])
        .env_remove("SOBRE_HOME")
        .env("LC_ALL", "C")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("no está en marcha"));
}
