//! End to end: two fresh homes with names (`sobre init --name`), their nodes as child
//! processes on loopback TCP; each sees the other's name in `games`, `show` and the exported
//! PGN (`White`/`Black`, with `WhiteId`/`BlackId`); `sobre profile set` renames while the
//! node runs and the opponent sees the new name; a contact alias still wins on screen; bad
//! names are clear user errors.

use crate::common::nodes::{Node, Nodes};
use crate::common::{exec, run, run_text, wait_until};
use std::path::Path;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);
const POLL: Duration = Duration::from_millis(100);

/// `sobre init --name NAME` in the home `home`, then its node started by the fixture.
fn start(nodes: &mut Nodes, home: &str, name: &str) -> Node {
    let v = run(&nodes.home(home), &["init", "--name", name, "--json"]);
    assert_eq!(v["name"], name);
    nodes.start(home, &[])
}

/// Polls `sobre games` (text) until it contains `text`.
fn wait_games_text(home: &Path, text: &str) -> String {
    let deadline = Instant::now() + WAIT;
    loop {
        let out = run_text(home, &["games"]);
        if out.contains(text) {
            return out;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {text:?} in `games`:\n{out}"
        );
        std::thread::sleep(POLL);
    }
}

#[test]
fn names_show_in_games_show_and_pgn_and_a_rename_follows() {
    let mut nodes = Nodes::new();

    // Bad names first: clear user errors (exit code 2), nothing written.
    let scratch = nodes.home("scratch");
    let long = "x".repeat(65);
    let out = exec(&scratch, &["init", "--name", &long]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("at most 64"), "{}", out.stderr);
    let out = exec(&scratch, &["init", "--name", "Ana\u{7}"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("control"), "{}", out.stderr);
    let out = exec(&scratch, &["init", "--name", "   "]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let out = exec(
        &scratch,
        &["profile", "set", "--name", "Ana", "--fide-id", "12a"],
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("federation id"), "{}", out.stderr);

    let Node {
        home: ana,
        id: ana_id,
        ..
    } = start(&mut nodes, "ana", "Ana Pérez");
    let Node {
        home: bruno,
        id: bruno_id,
        addr: bruno_addr,
        ..
    } = start(&mut nodes, "bruno", "Bruno");
    run_text(&ana, &["peers", "connect", &bruno_addr]);

    let v = run(
        &ana,
        &["challenge", &bruno_id, "--color", "white", "--json"],
    );
    let game = v["game"].as_str().expect("the game id").to_owned();
    wait_until(&bruno, &game, "the challenge", |v| v["status"] == "pending");
    run_text(&bruno, &["accept", &game]);
    wait_until(&ana, &game, "the acceptance", |v| v["status"] == "active");
    run_text(&ana, &["move", &game, "e4"]);
    wait_until(&bruno, &game, "1.e4", |v| v["plies"] == 1);

    // `games`: the opponent's name, in the table and in --json (the id stays in `opponent`).
    wait_games_text(&ana, "Bruno");
    wait_games_text(&bruno, "Ana Pérez");
    let list = run(&ana, &["games", "--json"]);
    assert_eq!(list["games"][0]["opponent"], bruno_id.as_str());
    assert_eq!(list["games"][0]["opponent_name"], "Bruno");

    // `show`: both names.
    let shown = run_text(&bruno, &["show", &game]);
    assert!(shown.contains("Ana Pérez"), "{shown}");
    assert!(shown.contains("Bruno (you)"), "{shown}");
    let v = run(&bruno, &["show", &game, "--json"]);
    assert_eq!(v["names"][&ana_id], "Ana Pérez");

    // The PGN: names in White/Black, the ids in WhiteId/BlackId.
    let pgn = run_text(&bruno, &["export", &game, "--pgn"]);
    assert!(pgn.contains("[White \"Ana Pérez\"]"), "{pgn}");
    assert!(pgn.contains("[Black \"Bruno\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[WhiteId \"{ana_id}\"]")), "{pgn}");
    assert!(pgn.contains(&format!("[BlackId \"{bruno_id}\"]")), "{pgn}");

    // A rename while the node runs reaches the opponent.
    let v = run(
        &bruno,
        &[
            "profile",
            "set",
            "--name",
            "Bruno Díaz",
            "--club",
            "Sobre CC",
            "--fide-id",
            "2016192",
            "--languages",
            "es,en",
            "--json",
        ],
    );
    assert_eq!(v["name"], "Bruno Díaz");
    assert_eq!(v["sent"], true);
    let v = run(&bruno, &["profile", "show", "--json"]);
    assert_eq!(v["club"], "Sobre CC");
    assert_eq!(v["federation_id"], "2016192");
    assert_eq!(v["languages"], serde_json::json!(["es", "en"]));
    assert_eq!(v["player_id"], bruno_id.as_str());
    wait_games_text(&ana, "Bruno Díaz");
    let pgn = run_text(&ana, &["export", &game, "--pgn"]);
    assert!(pgn.contains("[Black \"Bruno Díaz\"]"), "{pgn}");

    // Ana's own alias for him wins on her screen.
    run_text(&ana, &["contacts", "add", "bru", &bruno_id]);
    let table = run_text(&ana, &["games"]);
    assert!(table.contains("bru"), "{table}");
    assert!(!table.contains("Bruno Díaz"), "{table}");
}
