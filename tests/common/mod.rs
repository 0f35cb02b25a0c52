//! What the end-to-end tests of the `sobre` binary share: running the real binary against a
//! home directory and reading its output.
// Each test crate uses a subset of these.
#![allow(dead_code)]

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

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
