//! What the end-to-end tests of the `sobre` binary share: running the real binary against a
//! home directory and reading its output.
// Each test crate uses a subset of these.
#![allow(dead_code)]

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub mod browser;
pub mod dbus;
pub mod http;
pub mod nodes;
pub mod smtp;

/// The `sobre` command for one home (never the caller's `SOBRE_HOME`).
pub fn sobre(home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sobre"));
    cmd.arg("--home").arg(home).env_remove("SOBRE_HOME");
    cmd
}

/// What one command printed, and how it exited.
pub struct Output {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

pub fn exec(home: &Path, args: &[&str]) -> Output {
    let out = sobre(home)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the sobre binary runs");
    Output {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs a command that must succeed; returns its standard output.
pub fn run_text(home: &Path, args: &[&str]) -> String {
    let out = exec(home, args);
    assert!(
        out.success(),
        "sobre {} failed ({:?}):\nstdout: {}\nstderr: {}",
        args.join(" "),
        out.code,
        out.stdout,
        out.stderr
    );
    out.stdout
}

/// Runs a command that must succeed and print one JSON object.
pub fn run(home: &Path, args: &[&str]) -> Value {
    let text = run_text(home, args);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| {
        panic!(
            "sobre {}: not one JSON object ({e}): {text}",
            args.join(" ")
        )
    })
}

/// `sobre --home HOME` run by Debian's `faketime -f OFFSET`, in a process group of its own:
/// `faketime` forks, and killing the wrapper alone would leave the node running after the
/// test (the fixture kills the whole group).
pub fn under_faketime(home: &Path, offset: &str) -> Command {
    use std::os::unix::process::CommandExt;
    let mut c = Command::new("faketime");
    c.args(["-f", offset, env!("CARGO_BIN_EXE_sobre"), "--home"])
        .arg(home)
        .env_remove("SOBRE_HOME")
        .process_group(0);
    c
}

/// `sobre show GAME --json` in `home`, or `None` while the node does not know the game.
pub fn show(home: &Path, game: &str) -> Option<Value> {
    let out = exec(home, &["show", game, "--json"]);
    if !out.success() {
        return None;
    }
    serde_json::from_str(out.stdout.trim()).ok()
}

/// `sobre show GAME --json` in `home`, which must know the game.
pub fn show_now(home: &Path, game: &str) -> Value {
    run(home, &["show", game, "--json"])
}

/// Polls `sobre show GAME --json` in `home` (every 100 ms, for up to [`nodes::WAIT`]) until
/// `pred` holds; returns that view.
pub fn wait_until(home: &Path, game: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    wait_within(home, game, nodes::WAIT, what, pred)
}

/// [`wait_until`] for up to `within`; fails naming `what` and the last view.
pub fn wait_within(
    home: &Path,
    game: &str,
    within: Duration,
    what: &str,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + within;
    let mut last = None;
    loop {
        if let Some(v) = show(home, game) {
            if pred(&v) {
                return v;
            }
            last = Some(v);
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what} in {}; last view: {}",
            home.display(),
            last.map_or_else(|| "none".to_owned(), |v| v.to_string())
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Whether Debian's `faketime` runs here; when it does not, the caller skips its test (and
/// fails instead under `SOBRE_REQUIRE_FAKETIME`).
pub fn faketime_missing() -> bool {
    let found = std::process::Command::new("faketime")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        assert!(
            std::env::var_os("SOBRE_REQUIRE_FAKETIME").is_none(),
            "SOBRE_REQUIRE_FAKETIME is set but faketime is not installed"
        );
        eprintln!("skipped: faketime is not installed (apt-get install faketime)");
    }
    !found
}
