//! The real `sobre` binary with a home directory but no node: init, id, contacts, the
//! message when the node is not running, and the help of every subcommand.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn sobre(home: &Path) -> Command {
    let mut cmd = Command::cargo_bin("sobre").expect("binary built by cargo");
    cmd.arg("--home").arg(home).env_remove("SOBRE_HOME");
    cmd
}

fn json_of(cmd: &mut Command) -> Value {
    let out = cmd.output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn init_creates_a_player_once_and_id_reports_it() {
    let home = tempfile::tempdir().unwrap();
    let first = json_of(sobre(home.path()).args(["init", "--name", "Ana", "--json"]));
    let id = first["player_id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("12D3KooW"), "{id}");
    assert_eq!(first["name"], "Ana");
    assert_eq!(first["created"], true);

    // Again: same key, not created; the name is kept.
    let second = json_of(sobre(home.path()).args(["init", "--json"]));
    assert_eq!(second["player_id"], id.as_str());
    assert_eq!(second["created"], false);
    assert_eq!(second["name"], "Ana");

    // `id` works without a node; the environment variable names the home too.
    let who = json_of(
        Command::cargo_bin("sobre")
            .unwrap()
            .args(["id", "--json"])
            .env("SOBRE_HOME", home.path()),
    );
    assert_eq!(who["player_id"], id.as_str());
    assert_eq!(who["name"], "Ana");
    assert_eq!(who["node_running"], false);
    assert_eq!(who["addresses"].as_array().map(Vec::len), Some(0));

    // Human output: the id alone on stdout.
    let out = sobre(home.path()).arg("init").output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), id);
}

#[test]
fn id_without_a_key_says_to_run_init() {
    let home = tempfile::tempdir().unwrap();
    let out = sobre(home.path()).arg("id").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("sobre init"), "{err}");
}

#[test]
fn contacts_map_aliases_to_player_ids() {
    let home = tempfile::tempdir().unwrap();
    let ana = json_of(sobre(home.path()).args(["init", "--json"]))["player_id"]
        .as_str()
        .unwrap()
        .to_owned();
    sobre(home.path())
        .args(["contacts", "add", "ana", &ana])
        .assert()
        .success();
    let list = json_of(sobre(home.path()).args(["contacts", "list", "--json"]));
    assert_eq!(list["ana"], ana.as_str());
    let out = sobre(home.path())
        .args(["contacts", "list"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("ana  {ana}\n")
    );

    // A bad player id is refused with a hint, and nothing is stored.
    let out = sobre(home.path())
        .args(["contacts", "add", "bob", "not-an-id"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("hint: "));
    let list = json_of(sobre(home.path()).args(["contacts", "list", "--json"]));
    assert!(list.get("bob").is_none());
}

#[test]
fn commands_that_need_the_node_say_it_is_not_running() {
    let home = tempfile::tempdir().unwrap();
    sobre(home.path()).arg("init").assert().success();
    let commands: &[&[&str]] = &[
        &["node", "status"],
        &["node", "stop"],
        &["games"],
        &["games", "--json"],
        &["show", "3f2a"],
        &["move", "3f2a", "Cf3"],
        &["peers", "list"],
        &["challenge", "12D3KooWAbc"],
        &["draw", "offer", "3f2a"],
        &["claim", "3f2a", "threefold"],
        &["conditional", "3f2a", "list"],
        &["leave", "start", "--days", "3"],
        &["export", "3f2a", "--pgn"],
        &["watch"],
        &["reminders"],
    ];
    for args in commands {
        let out = sobre(home.path()).args(*args).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("node is not running"), "{args:?}: {err}");
        assert!(
            err.contains("hint: start it with `sobre node run`"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn bad_arguments_are_user_errors() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        &["challenge", "ana", "--per-move", "3 fortnights"][..],
        &["challenge", "ana", "--per-move", "3d", "--time", "10/50d"],
        &["claim", "3f2a", "boredom"],
        &["export", "3f2a"],
        &[
            "adjourn",
            "3f2a",
            "--seal",
            "Nf3",
            "--resume-at",
            "yesterday",
        ],
    ] {
        let out = sobre(home.path()).args(args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn every_subcommand_has_help() {
    let home = tempfile::tempdir().unwrap();
    let subcommands: &[&[&str]] = &[
        &["init"],
        &["id"],
        &["node"],
        &["node", "run"],
        &["node", "status"],
        &["node", "stop"],
        &["node", "repair"],
        &["node", "start"],
        &["node", "install"],
        &["node", "doctor"],
        &["invite"],
        &["connect"],
        &["peers", "connect"],
        &["peers", "list"],
        &["contacts", "add"],
        &["contacts", "list"],
        &["challenge"],
        &["accept"],
        &["decline"],
        &["abort"],
        &["games"],
        &["show"],
        &["move"],
        &["draw"],
        &["claim"],
        &["resign"],
        &["adjourn"],
        &["resume"],
        &["envelope"],
        &["conditional"],
        &["chat"],
        &["watch"],
        &["reminders"],
        &["leave", "start"],
        &["leave", "end"],
        &["export"],
        &["league"],
        &["completions"],
        &["man"],
    ];
    for args in subcommands {
        let out = sobre(home.path())
            .args(*args)
            .arg("--help")
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{args:?}");
        assert!(text.contains("Usage: sobre"), "{args:?}: {text}");
        assert!(text.contains("--home <DIR>"), "{args:?}: {text}");
    }
}

/// The home holds the key, the database (chat, conditional moves, the ledger) and the control
/// socket: `init` makes it the owner's only, also when the directory already existed open.
#[cfg(unix)]
#[test]
fn init_makes_the_home_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let fresh = dir.path().join("new/home");
    json_of(sobre(&fresh).args(["init", "--json"]));
    assert_eq!(mode(&fresh), 0o700);
    let open = dir.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    json_of(sobre(&open).args(["init", "--json"]));
    assert_eq!(mode(&open), 0o700);
}
