//! The real `sobre` binary with a home directory but no node: init, id, contacts, key
//! export and import, reads from the home, the message when the node is not running, and the
//! help of every subcommand.

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
        &["move", "3f2a", "Cf3"],
        &["block", "12D3KooWAbc"],
        &["challenge", "12D3KooWAbc"],
        &["draw", "offer", "3f2a"],
        &["claim", "3f2a", "threefold"],
        &["conditional", "3f2a", "clear"],
        &["leave", "start", "--days", "3"],
        &["watch"],
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
fn reads_without_the_node_answer_from_the_home_and_say_they_may_be_stale() {
    let home = tempfile::tempdir().unwrap();
    sobre(home.path()).arg("init").assert().success();
    let out = sobre(home.path())
        .args(["games", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], serde_json::json!([]));
    assert_eq!(v["stale"], true);
    let out = sobre(home.path()).arg("games").output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{err}");
    assert!(err.contains("may be stale"), "{err}");
    // The reminders the node fired are read from its database too (none yet).
    let out = sobre(home.path()).arg("reminders").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "no reminders yet\n");
    // The node's own refusals, with the node's words and exit code.
    for args in [
        &["show", "3f2a"][..],
        &["export", "3f2a", "--pgn"],
        &["conditional", "3f2a", "list"],
    ] {
        let out = sobre(home.path()).args(args).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("unknown game \"3f2a\""), "{args:?}: {err}");
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

#[cfg(unix)]
#[test]
fn a_key_exported_under_a_passphrase_is_imported_once_and_errors_say_which() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (ana, copy) = (dir.path().join("ana"), dir.path().join("copy"));
    let id = json_of(sobre(&ana).args(["init", "--json"]))["player_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let file = dir.path().join("ana.key");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let export = json_of(
        sobre(&ana)
            .args(["key", "export", "--passphrase-env", "--json"])
            .arg(&file)
            .env("SOBRE_PASSPHRASE", "caballo de troya"),
    );
    assert_eq!(export["player_id"], id.as_str());
    assert_eq!(mode(&file), 0o600, "the key file is a secret");
    // Not over an existing file unless told.
    let again = sobre(&ana)
        .args(["key", "export", "--passphrase-env"])
        .arg(&file)
        .env("SOBRE_PASSPHRASE", "caballo de troya")
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));

    let import = |home: &Path, pass: &str, extra: &[&str], file: &Path| {
        sobre(home)
            .args(["key", "import", "--passphrase-env"])
            .args(extra)
            .arg(file)
            .env("SOBRE_PASSPHRASE", pass)
            .output()
            .unwrap()
    };
    let wrong = import(&copy, "caballo de Troya", &[], &file);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).starts_with("error: wrong passphrase"));
    assert!(!copy.join("identity.key").exists(), "nothing written");

    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    let altered = dir.path().join("altered.key");
    std::fs::write(&altered, &bytes).unwrap();
    let out = import(&copy, "caballo de troya", &[], &altered);
    assert_eq!(out.status.code(), Some(1), "the data is wrong");
    assert!(String::from_utf8_lossy(&out.stderr).contains("altered or damaged"));

    let out = import(&copy, "caballo de troya", &["--json"], &file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["player_id"], id.as_str());
    assert_eq!(mode(&copy.join("identity.key")), 0o600);
    assert_eq!(mode(&copy), 0o700);
    let who = json_of(sobre(&copy).args(["id", "--json"]));
    assert_eq!(who["player_id"], id.as_str());

    // A home with a key keeps it unless told: another player's key is refused.
    let other = dir.path().join("other");
    json_of(sobre(&other).args(["init", "--json"]));
    let out = import(&other, "caballo de troya", &[], &file);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already holds the key of"));
    let out = import(&other, "caballo de troya", &["--force"], &file);
    assert!(out.status.success());
    assert_eq!(
        json_of(sobre(&other).args(["id", "--json"]))["player_id"],
        id.as_str()
    );
}
