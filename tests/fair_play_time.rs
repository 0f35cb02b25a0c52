//! Fair play without trust, tried as a hostile player would with the released binary: a
//! player whose node's clock runs four days ahead (libfaketime, `FAKETIME=+4d`) claims a win
//! on time (FIDE 6.9) right after her first move in a 3-days-per-move game. Her node signs
//! the claim and believes it; the honest opponent's node must refuse it (an event dated more
//! than `MAX_CLOCK_SKEW_MS` ahead of its clock, docs/time.md): the game stays active there and
//! the honest player can move.
//!
//! Needs Debian's `faketime`; without it the test says so and passes, unless
//! `SOBRE_REQUIRE_FAKETIME=1` (set by `.ci/run`, which installs it).

use crate::common::show_now;
use serde_json::Value;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{NodeProcess as Node, exec, run, run_text, sobre, under_faketime};

const WAIT: Duration = Duration::from_secs(30);
const POLL: Duration = Duration::from_millis(100);

fn faketime() -> Option<PathBuf> {
    let found = Command::new("faketime")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    found.then(|| PathBuf::from("faketime"))
}

/// Starts `sobre node run` for `home` (under `faketime -f OFFSET` if given) and waits for
/// its TCP address.
fn start(home: &Path, log: PathBuf, offset: Option<&str>) -> (Node, String) {
    let mut cmd = match offset {
        None => sobre(home),
        Some(offset) => under_faketime(home, offset),
    };
    let child = cmd
        .args(["node", "run", "--listen", "/ip4/127.0.0.1/tcp/0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(File::create(&log).expect("a log file"))
        .spawn()
        .expect("the node starts");
    let node = Node { child, log };
    let deadline = Instant::now() + WAIT;
    loop {
        let out = exec(home, &["id", "--json"]);
        if out.success()
            && let Ok(v) = serde_json::from_str::<Value>(out.stdout.trim())
            && let Some(addr) = v["addresses"].as_array().and_then(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .find(|a| a.contains("/tcp/"))
            })
        {
            return (node, addr.to_owned());
        }
        assert!(
            Instant::now() < deadline,
            "the node in {} did not start",
            home.display()
        );
        std::thread::sleep(POLL);
    }
}

#[test]
fn attack_forward_dated_time_claim_from_a_node_four_days_ahead_is_refused() {
    if faketime().is_none() {
        assert!(
            std::env::var_os("SOBRE_REQUIRE_FAKETIME").is_none(),
            "SOBRE_REQUIRE_FAKETIME is set but faketime is not installed"
        );
        eprintln!("skipped: faketime is not installed (apt-get install faketime)");
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let ana = dir.path().join("ana");
    let eve = dir.path().join("eve");
    let ana_id = run(&ana, &["init", "--name", "ana", "--json"])["player_id"]
        .as_str()
        .expect("an id")
        .to_owned();
    run(&eve, &["init", "--name", "eve", "--json"]);
    let (_ana_node, ana_addr) = start(&ana, dir.path().join("ana.log"), None);
    let (eve_node, _) = start(&eve, dir.path().join("eve.log"), None);
    run_text(&eve, &["peers", "connect", &ana_addr]);

    // Eve (White) challenges Ana to a 3-days-per-move game and plays her first move honestly.
    let v = run(
        &eve,
        &[
            "challenge",
            &ana_id,
            "--color",
            "white",
            "--per-move",
            "3d",
            "--json",
        ],
    );
    let game = v["game"].as_str().expect("a game id").to_owned();
    crate::common::nodes::wait_until_done("the challenge", || {
        exec(&ana, &["show", &game]).success()
    });
    run_text(&ana, &["accept", &game]);
    crate::common::nodes::wait_until_done("the game to start", || {
        show_now(&eve, &game)["status"] == "active"
    });
    run_text(&eve, &["move", &game, "e4"]);
    crate::common::nodes::wait_until_done("e4 to arrive", || show_now(&ana, &game)["plies"] == 1);

    // Eve restarts her node with its clock four days ahead and claims Ana's flag has fallen.
    drop(eve_node);
    let (_eve_node, _) = start(&eve, dir.path().join("eve-faked.log"), Some("+4d"));
    run_text(&eve, &["peers", "connect", &ana_addr]);
    let out = run_text(&eve, &["claim", &game, "time"]);
    assert!(
        out.contains("claim correct"),
        "Eve's own node believes her: {out}"
    );
    assert_eq!(show_now(&eve, &game)["status"], "finished");

    // Ana's node decides on the claim: it refuses it (its log names the reason) ...
    let ana_log = dir.path().join("ana.log");
    crate::common::nodes::wait_until_done("Ana's node to take or refuse the claim", || {
        std::fs::read_to_string(&ana_log).is_ok_and(|l| l.contains("ahead of this node's clock"))
            || show_now(&ana, &game)["status"] != "active"
    });
    // ... so her game is active, with no claim, and she can move.
    let v = show_now(&ana, &game);
    assert_eq!(v["status"], "active", "{v}");
    assert_eq!(v["claims"].as_array().map_or(0, Vec::len), 0, "{v}");
    run_text(&ana, &["move", &game, "e5"]);
    assert_eq!(show_now(&ana, &game)["plies"], 2);
}
