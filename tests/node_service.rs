//! A node that keeps running: `sobre node start` (background, log in HOME/node.log),
//! `node stop`, `node install` (a systemd user unit) and `node doctor`.

use crate::common::{exec, run, run_text, sobre};
use std::path::Path;
use std::time::{Duration, Instant};

/// Stops the background node of a home when the test ends, passed or failed.
struct StopOnDrop<'a>(&'a Path);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        let _ = exec(self.0, &["node", "stop"]);
    }
}

#[test]
fn a_started_node_runs_in_the_background_until_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("ana");
    run_text(&home, &["init", "--name", "Ana"]);
    let _guard = StopOnDrop(&home);
    let out = run_text(
        &home,
        &["node", "start", "--", "--listen", "/ip4/127.0.0.1/tcp/0"],
    );
    assert!(out.contains("node running in the background"), "{out}");
    // `node start` returned: the node still answers, on its own.
    let status = run(&home, &["node", "status", "--json"]);
    assert_eq!(status["games"], 0, "{status}");
    let log = std::fs::read_to_string(home.join("node.log")).unwrap();
    assert!(log.contains("running; home"), "{log}");
    let again = exec(&home, &["node", "start"]);
    assert!(!again.success());
    assert!(again.stderr.contains("already running"), "{}", again.stderr);
    run_text(&home, &["node", "stop"]);
    let deadline = Instant::now() + Duration::from_secs(20);
    while exec(&home, &["node", "status"]).success() {
        assert!(Instant::now() < deadline, "the node did not stop");
        std::thread::sleep(Duration::from_millis(100));
    }
    // A node that cannot start says why, from its log.
    std::fs::write(
        home.join("node.toml"),
        "listen = [\"/ip4/127.0.0.1/udp/1/nonsense\"]\n",
    )
    .unwrap();
    let bad = exec(&home, &["node", "start"]);
    assert!(!bad.success());
    assert!(bad.stderr.contains("node.toml"), "{}", bad.stderr);
}

/// The log is rotated while the node runs, not only at start: a log just under 4 MiB is
/// kept at start, the running node's own lines push it past, and it moves to node.log.1
/// while the node goes on writing a new node.log.
#[test]
fn the_log_is_rotated_while_the_node_runs() {
    const LIMIT: usize = 4 * 1024 * 1024;
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("ana");
    run_text(&home, &["init", "--name", "Ana"]);
    let _guard = StopOnDrop(&home);
    let old = format!("{}\n", "x".repeat(LIMIT - 200));
    std::fs::write(home.join("node.log"), &old).unwrap();
    run_text(
        &home,
        &["node", "start", "--", "--listen", "/ip4/127.0.0.1/tcp/0"],
    );
    let rotated = home.join("node.log.1");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !rotated.exists() {
        assert!(Instant::now() < deadline, "node.log was never rotated");
        std::thread::sleep(Duration::from_millis(100));
    }
    let older = std::fs::read_to_string(&rotated).unwrap();
    assert!(older.starts_with(&old), "the old log moved whole");
    // The node goes on logging into the new file (its later lines, up to its stop).
    let before = std::fs::read_to_string(home.join("node.log")).unwrap();
    assert!(before.len() < 4096, "{before}");
    run_text(&home, &["node", "stop"]);
    let deadline = Instant::now() + Duration::from_secs(20);
    while exec(&home, &["node", "status"]).success() {
        assert!(Instant::now() < deadline, "the node did not stop");
        std::thread::sleep(Duration::from_millis(100));
    }
    let after = std::fs::read_to_string(home.join("node.log")).unwrap();
    assert!(
        after.contains("INFO"),
        "the running node wrote the new log: {after:?}"
    );
    assert!(!after.contains("xxxx"), "{after}");
}

#[test]
fn install_writes_a_systemd_user_unit_restarting_on_failure() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("ana");
    run_text(&home, &["init", "--name", "Ana"]);
    let config = dir.path().join("config");
    let out = sobre(&home)
        .args(["node", "install"])
        .env("XDG_CONFIG_HOME", &config)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    if cfg!(target_os = "macos") {
        assert!(text.contains("LaunchAgents/org.sobre.node.plist"), "{text}");
        return;
    }
    let unit = std::fs::read_to_string(config.join("systemd/user/sobre-node.service")).unwrap();
    let exe = env!("CARGO_BIN_EXE_sobre");
    assert!(
        unit.contains(&format!(
            "ExecStart=\"{exe}\" --home \"{}\" node run",
            home.display()
        )),
        "{unit}"
    );
    assert!(unit.contains("Restart=on-failure"), "{unit}");
    assert!(
        text.contains("systemctl --user enable --now sobre-node"),
        "{text}"
    );
    let printed = run_text(&home, &["node", "install", "--print"]);
    assert_eq!(printed, unit);
}

#[test]
fn doctor_names_the_common_faults_and_their_fixes() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("ana");
    let out = exec(&home, &["node", "doctor"]);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stdout.contains("sobre init --name NAME"),
        "{}",
        out.stdout
    );
    run_text(&home, &["init", "--name", "Ana"]);
    let out = exec(&home, &["node", "doctor"]);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stdout.contains("no bootstrap node saved"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("no mailbox saved"), "{}", out.stdout);
    assert!(out.stdout.contains("--use-mailbox"), "{}", out.stdout);

    // The default port held by another program.
    if let Ok(_held) = std::net::TcpListener::bind(("0.0.0.0", 4848)) {
        let out = exec(&home, &["node", "doctor"]);
        assert!(out.stdout.contains("port 4848 is taken"), "{}", out.stdout);
    }

    let id = "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN";
    std::fs::write(
        home.join("node.toml"),
        format!(
            "listen = [\"/ip4/127.0.0.1/tcp/0\"]\nbootstrap = [\"/ip4/198.51.100.1/tcp/4848/p2p/{id}\"]\nmailboxes = [\"/ip4/198.51.100.1/tcp/4848/p2p/{id}\"]\n"
        ),
    )
    .unwrap();
    let out = exec(&home, &["node", "doctor"]);
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    assert!(out.stdout.contains("nothing to fix"), "{}", out.stdout);
}
