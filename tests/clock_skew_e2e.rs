//! `node doctor` names an opponent whose clock is far from ours, measured from real receipts:
//! Eve's node runs 90 s ahead (libfaketime); Ana challenges her, Eve's node answers the
//! delivery with its signed receipt, and Ana's `status` and `node doctor` show the skew.
//!
//! Needs Debian's `faketime`; without it the test says so and passes, unless
//! `SOBRE_REQUIRE_FAKETIME=1`. The faketime'd node runs in its own process group, all of
//! which is killed at the end (`faketime` forks: killing it alone would leave the node).

use serde_json::Value;
use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{NodeProcess as Node, exec, run, sobre, under_faketime};

const WAIT: Duration = Duration::from_secs(30);
const POLL: Duration = Duration::from_millis(100);

fn faketime_installed() -> bool {
    Command::new("faketime")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn node_command(home: &Path, offset: Option<&str>) -> Command {
    let mut cmd = match offset {
        None => sobre(home),
        Some(offset) => under_faketime(home, offset),
    };
    cmd.args(["node", "run", "--listen", "/ip4/127.0.0.1/tcp/0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    cmd
}

/// Waits for the node of `home` to answer and returns its TCP address.
fn address(home: &Path) -> String {
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
            return addr.to_owned();
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
fn doctor_names_the_opponent_whose_clock_runs_90_s_ahead() {
    if !faketime_installed() {
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
    run(&ana, &["init", "--name", "ana", "--json"]);
    let eve_id = run(&eve, &["init", "--name", "eve", "--json"])["player_id"]
        .as_str()
        .expect("an id")
        .to_owned();
    let ana_log = dir.path().join("ana.log");
    let _ana_node = Node {
        child: node_command(&ana, None)
            .stderr(File::create(&ana_log).expect("a log file"))
            .spawn()
            .expect("ana's node starts"),
        log: ana_log,
    };
    let ana_addr = address(&ana);
    let eve_log = dir.path().join("eve.log");
    let _eve_node = Node {
        child: node_command(&eve, Some("+90s"))
            .stderr(File::create(&eve_log).expect("a log file"))
            .spawn()
            .expect("eve's node starts"),
        log: eve_log,
    };
    address(&eve);
    crate::common::run_text(&eve, &["peers", "connect", &ana_addr]);

    // Ana's challenge is delivered to Eve, whose node answers with a receipt dated by its clock.
    let game = run(&ana, &["challenge", &eve_id, "--json"])["game"]
        .as_str()
        .expect("a game id")
        .to_owned();
    crate::common::nodes::wait_until_done("Eve's receipt to date her clock", || {
        let status = run(&ana, &["node", "status", "--json"]);
        status["opponents"].as_array().is_some_and(|o| {
            o.iter().any(|o| {
                o["player"] == eve_id.as_str()
                    && o["clock_skew_ms"]
                        .as_i64()
                        .is_some_and(|s| (80_000..100_000).contains(&s))
            })
        })
    });
    assert!(exec(&eve, &["show", &game]).success());

    let out = exec(&ana, &["node", "doctor"]);
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    let line = out
        .stdout
        .lines()
        .find(|l| l.contains("clock of opponent"))
        .unwrap_or_else(|| panic!("no clock finding: {}", out.stdout));
    assert!(line.starts_with("problem"), "{line}");
    assert!(
        line.contains(&eve_id) && line.contains("ahead of"),
        "{line}"
    );
    assert!(out.stdout.contains("timedatectl"), "{}", out.stdout);
    let status = crate::common::run_text(&ana, &["node", "status"]);
    assert!(status.contains("s ahead of yours"), "{status}");
}
