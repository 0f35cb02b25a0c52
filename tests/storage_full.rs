//! A disk that fills up under a running node (issue 18, "data that must not lie"): Ana's home
//! is a small tmpfs; once it is full, `sobre move` must not report a move that may later turn
//! up (sled keeps unflushed writes in memory), nor let the node sign again at a sequence
//! number that may already be on disk. The node stops with a clear error; after space is
//! freed it starts again, shows what was kept, and the game goes on without a dispute.
//!
//! Needs root (to mount the tmpfs); the test says so and passes where mounting is not
//! permitted.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::nodes::Nodes;
use crate::common::{exec, run, run_text, show_now, wait_until};

const WAIT: Duration = Duration::from_secs(30);
const POLL: Duration = Duration::from_millis(100);

/// A tmpfs mounted for the test, lazily unmounted when dropped.
struct Mount(PathBuf);

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

fn mount_tmpfs(at: &Path, size: &str) -> Result<Mount, String> {
    std::fs::create_dir_all(at).map_err(|e| e.to_string())?;
    let out = Command::new("mount")
        .args([
            "-t",
            "tmpfs",
            "-o",
            &format!("size={size},mode=0700"),
            "tmpfs",
        ])
        .arg(at)
        .output()
        .map_err(|e| format!("mount: {e}"))?;
    if out.status.success() {
        Ok(Mount(at.to_path_buf()))
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
    }
}

/// Fills the file system holding `dir` until a write fails; returns the filler's path.
fn fill(dir: &Path) -> PathBuf {
    let path = dir.join("filler");
    let mut f = File::create(&path).expect("a filler file");
    // Down to single pages: what a larger chunk leaves free would hold dozens of chat lines
    // (and the player's own chat is limited to 30 an hour).
    for size in [64 * 1024, 4096, 512] {
        let chunk = vec![0x5a_u8; size];
        while f.write_all(&chunk).is_ok() && f.sync_all().is_ok() {}
    }
    path
}

#[test]
fn a_full_disk_stops_the_node_instead_of_reporting_a_move_that_may_still_be_saved() {
    let mut nodes = Nodes::new();
    let ana = nodes.home("ana");
    let _mount = match mount_tmpfs(&ana, "24m") {
        Ok(m) => m,
        Err(why) => {
            eprintln!("skipped: cannot mount a small tmpfs here ({why})");
            return;
        }
    };
    let bruno = nodes.home("bruno");
    let ana_id = run(&ana, &["init", "--name", "Ana", "--json"])["player_id"]
        .as_str()
        .expect("an id")
        .to_owned();
    run(&bruno, &["init", "--name", "Bruno", "--json"]);
    let ana_addr = nodes.start("ana", &[]).addr;
    nodes.start("bruno", &[]);
    run_text(&bruno, &["peers", "connect", &ana_addr]);

    let v = run(
        &bruno,
        &["challenge", &ana_id, "--color", "black", "--json"],
    );
    let game = v["game"].as_str().expect("the game id").to_owned();
    wait_until(&ana, &game, "the challenge", |v| v["status"] == "pending");
    run_text(&ana, &["accept", &game]);
    wait_until(&bruno, &game, "the acceptance", |v| v["status"] == "active");
    run_text(&ana, &["move", &game, "e4"]);
    wait_until(&bruno, &game, "1.e4", |v| v["plies"] == 1);
    run_text(&bruno, &["move", &game, "e5"]);
    wait_until(&ana, &game, "1...e5", |v| v["plies"] == 2);

    // The disk fills up; Ana goes on writing (chat lines are her own signed events, like
    // moves, and need no turn). sled may still fit a few in pages it holds; one fails.
    let filler = fill(&ana);
    let line = "x".repeat(1900);
    let mut failed = None;
    for i in 0..2000 {
        let out = exec(&ana, &["chat", &game, &format!("{i} {line}")]);
        if !out.success() {
            failed = Some(out);
            break;
        }
    }
    // Either this write's own flush failed, or a flush the node made meanwhile (sled's
    // background flush, a group commit) failed first and the node had already stopped.
    let out = failed.expect("a full disk never failed a write");
    assert!(
        out.stderr.contains("storage failure") || out.stderr.contains("not running"),
        "the failure is named: {}",
        out.stderr
    );
    // The node stops by itself, with the reason in its log and a non-zero status.
    let deadline = Instant::now() + WAIT;
    let status = loop {
        if let Some(s) = nodes.exited("ana") {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "the node kept running on a full disk"
        );
        std::thread::sleep(POLL);
    };
    assert!(!status.success());
    let log = std::fs::read_to_string(nodes.log("ana")).expect("the log");
    assert!(log.contains("storage failure"), "{log}");

    // Space is freed; the node starts again and shows what the disk holds.
    std::fs::remove_file(&filler).expect("the filler goes");
    let ana_addr = nodes.start("ana", &[]).addr;
    run_text(&bruno, &["peers", "connect", &ana_addr]);
    assert_eq!(show_now(&ana, &game)["plies"], 2);
    // Ana goes on at the next place in her scoresheet: no twin of an event the disk kept.
    run_text(&ana, &["move", &game, "Cf3"]);
    wait_until(&bruno, &game, "2.Cf3 at Bruno", |v| v["plies"] == 3);
    run_text(&bruno, &["move", &game, "Cc6"]);
    wait_until(&ana, &game, "2...Cc6 at Ana", |v| v["plies"] == 4);
    for home in [&ana, &bruno] {
        let v = show_now(home, &game);
        assert_eq!(v["status"], "active", "{v}");
        let games = run(home, &["games", "--json"]);
        assert!(
            !games.to_string().contains("disputed"),
            "an honest player looks like an equivocator: {games}"
        );
    }
}
