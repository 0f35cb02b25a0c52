//! Getting connected, through the real binary: settings saved in `HOME/node.toml`, the fixed
//! default port and its fallback, and remembered peers — a node restarted on a new address
//! reaches its opponent again (whichever of the two dialed first), with and without a
//! bootstrap node.

use crate::common::nodes::{Nodes, Options};
use crate::common::{exec, run, run_text, sobre, wait_until};
use serde_json::Value;
use std::path::Path;
use std::process::Stdio;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);
const POLL: Duration = Duration::from_millis(100);

/// The tests that use the default port must not race each other for it.
static DEFAULT_PORT: Mutex<()> = Mutex::new(());

/// `sobre node run ARGS` for `name` (a key is created first), with no `--listen` but what
/// `args` or its `node.toml` say: these tests are about where a node listens. Returns its
/// addresses once `sobre id` reports a TCP one.
fn start(nodes: &mut Nodes, name: &str, args: &[&str]) -> Vec<String> {
    nodes
        .start_opts(
            name,
            &Options {
                extra: args,
                own_listen: true,
                ..Options::default()
            },
        )
        .addrs
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn tcp(addrs: &[String]) -> String {
    addrs
        .iter()
        .find(|a| a.contains("/tcp/") && !a.contains("p2p-circuit"))
        .cloned()
        .expect("a TCP address")
}

fn player_id(home: &Path) -> String {
    run(home, &["id", "--json"])["player_id"]
        .as_str()
        .expect("a player id")
        .to_owned()
}

#[test]
fn settings_are_saved_used_without_flags_and_overridden_by_flags() {
    let mut nodes = Nodes::new();
    let home = nodes.home("ana");
    start(
        &mut nodes,
        "ana",
        &[
            "--listen",
            "/ip4/127.0.0.1/tcp/0",
            "--external",
            "/ip4/203.0.113.7/tcp/4848",
            "--save",
        ],
    );
    nodes.stop("ana");
    let text = std::fs::read_to_string(home.join("node.toml")).unwrap();
    assert!(text.contains("/ip4/203.0.113.7/tcp/4848"), "{text}");
    assert!(!home.join("node.toml.tmp").exists());

    // No flags: the saved listen address (loopback only) and the declared external one.
    let addrs = start(&mut nodes, "ana", &[]);
    assert!(
        addrs
            .iter()
            .any(|a| a.starts_with("/ip4/203.0.113.7/tcp/4848/p2p/")),
        "{addrs:?}"
    );
    assert!(
        addrs
            .iter()
            .all(|a| a.starts_with("/ip4/127.0.0.1/") || a.starts_with("/ip4/203.0.113.7/")),
        "{addrs:?}"
    );
    nodes.stop("ana");

    // A flag replaces its setting for this run only.
    let addrs = start(
        &mut nodes,
        "ana",
        &["--external", "/ip4/198.51.100.9/tcp/1"],
    );
    assert!(
        addrs.iter().any(|a| a.contains("198.51.100.9")),
        "{addrs:?}"
    );
    assert!(
        !addrs.iter().any(|a| a.contains("203.0.113.7")),
        "{addrs:?}"
    );
    nodes.stop("ana");
    assert_eq!(
        std::fs::read_to_string(home.join("node.toml")).unwrap(),
        text
    );

    // A bad address given with --save is refused before anything is written.
    let out = exec(
        &home,
        &["node", "run", "--bootstrap", "tcp://1.2.3.4", "--save"],
    );
    assert!(!out.success());
    assert!(out.stderr.contains("nothing saved"), "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(home.join("node.toml")).unwrap(),
        text
    );

    // A damaged file stops the start with its line and key.
    std::fs::write(
        home.join("node.toml"),
        "listen = [\"/ip4/127.0.0.1/tcp/0\"]\nrelay = []\n",
    )
    .unwrap();
    let out = exec(&home, &["node", "run"]);
    assert!(!out.success());
    assert!(
        out.stderr.contains("node.toml, line 2, key `relay`"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_default_port_is_fixed_and_a_second_node_falls_back() {
    let _serial = DEFAULT_PORT.lock().unwrap_or_else(|e| e.into_inner());
    let mut nodes = Nodes::new();
    let two_home = nodes.home("two");
    let free = std::net::TcpListener::bind(("0.0.0.0", 4848)).is_ok()
        && std::net::UdpSocket::bind(("0.0.0.0", 4848)).is_ok();
    let one_addrs = start(&mut nodes, "one", &[]);
    if free {
        assert!(
            one_addrs.iter().any(|a| a.contains("/tcp/4848/"))
                && one_addrs.iter().any(|a| a.contains("/udp/4848/quic-v1/")),
            "{one_addrs:?}"
        );
    }
    // 4848 is taken now (by the first node, or by whoever held it before).
    let two_addrs = start(&mut nodes, "two", &[]);
    assert!(
        !two_addrs.iter().any(|a| a.contains("/tcp/4848/")),
        "{two_addrs:?}"
    );
    let text = std::fs::read_to_string(nodes.log("two")).unwrap();
    assert!(text.contains("the default port is taken"), "{text}");
    // Both work: the second reaches the first.
    run_text(&two_home, &["peers", "connect", &tcp(&one_addrs)]);
    nodes.stop("two");
    nodes.stop("one");
}

/// Ana's node is dialed by Bernardo's; they play; Ana's node restarts on a new port while
/// Bernardo's move waits in his outbox: Ana's node redials Bernardo from memory, the move
/// arrives, and Bernardo's node learns Ana's new address. Then Bernardo's node restarts on a
/// new port and Ana's reply still reaches it.
fn a_restarted_node_reaches_its_opponent(with_bootstrap: bool) {
    let mut nodes = Nodes::new();
    let mut extra: Vec<String> = vec!["--listen".into(), "/ip4/127.0.0.1/tcp/0".into()];
    if with_bootstrap {
        let addrs = start(&mut nodes, "boot", &["--listen", "/ip4/127.0.0.1/tcp/0"]);
        extra.extend(["--bootstrap".into(), tcp(&addrs)]);
    }
    let args: Vec<&str> = extra.iter().map(String::as_str).collect();
    let (a_home, b_home) = (nodes.home("ana"), nodes.home("bernardo"));
    let a_addrs = start(&mut nodes, "ana", &args);
    start(&mut nodes, "bernardo", &args);
    let a_id = player_id(&a_home);
    run_text(&b_home, &["peers", "connect", &tcp(&a_addrs)]);
    let v = run(&b_home, &["challenge", &a_id, "--color", "black", "--json"]);
    let game = v["game"].as_str().expect("a game id").to_owned();
    wait_until(&a_home, &game, "the challenge", |v| {
        v["status"] == "pending"
    });
    run_text(&a_home, &["accept", &game]);
    wait_until(&b_home, &game, "the game to start", |v| {
        v["status"] == "active"
    });
    run_text(&a_home, &["move", &game, "e4"]);
    wait_until(&b_home, &game, "e4", |v| v["plies"] == 1);

    // Ana's node goes away; Bernardo moves meanwhile.
    nodes.stop("ana");
    // Bernardo's status: Ana is gone, and was seen (her addresses were heard).
    let deadline = Instant::now() + WAIT;
    loop {
        let status = run(&b_home, &["node", "status", "--json"]);
        let ana = &status["opponents"][0];
        if ana["player"] == a_id.as_str() && ana["connected"] == false {
            assert!(ana["last_seen_ms"].as_u64().is_some(), "{status}");
            break;
        }
        assert!(Instant::now() < deadline, "Ana still connected: {status}");
        std::thread::sleep(POLL);
    }
    assert!(run_text(&b_home, &["node", "status"]).contains("last seen"));
    run_text(&b_home, &["move", &game, "e5"]);
    let a_addrs = start(&mut nodes, "ana", &args);
    let new_a = tcp(&a_addrs);
    wait_until(&a_home, &game, "e5 after Ana's restart", |v| {
        v["plies"] == 2
    });
    // Bernardo's node now remembers Ana's new address (from identify on her redial).
    let deadline = Instant::now() + WAIT;
    loop {
        let peers = run(&b_home, &["peers", "list", "--json"]);
        let knows = peers["known"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p["peer"] == a_id.as_str() && strings(&p["addresses"]).contains(&new_a));
        if knows {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "Bernardo never learned {new_a}: {peers}"
        );
        std::thread::sleep(POLL);
    }

    // Now Bernardo's node (the one that dialed first) restarts on a new port.
    nodes.stop("bernardo");
    run_text(&a_home, &["move", &game, "Nf3"]);
    start(&mut nodes, "bernardo", &args);
    wait_until(&b_home, &game, "Nf3 after Bernardo's restart", |v| {
        v["plies"] == 3
    });
    run_text(&b_home, &["move", &game, "Nc6"]);
    wait_until(&a_home, &game, "Nc6", |v| v["plies"] == 4);
    nodes.stop("bernardo");
    nodes.stop("ana");
}

#[test]
fn a_restarted_node_reaches_its_opponent_without_a_bootstrap_node() {
    a_restarted_node_reaches_its_opponent(false);
}

#[test]
fn a_restarted_node_reaches_its_opponent_with_a_bootstrap_node() {
    a_restarted_node_reaches_its_opponent(true);
}

/// Waits until `home`'s node is connected to `peer`.
fn wait_connected(home: &Path, peer: &str, what: &str) {
    let deadline = Instant::now() + WAIT;
    loop {
        let v = run(home, &["peers", "list", "--json"]);
        if v["connected"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p["peer"] == peer)
        {
            return;
        }
        assert!(Instant::now() < deadline, "{what}: {v}");
        std::thread::sleep(POLL);
    }
}

/// Two fresh homes meet with one invite line: Bernardo's node dials Ana's from it, his
/// contacts name her, and they play; each then sees the other's signed name in `games`,
/// `show`, `watch` and the exported PGN. Carla takes the same invite while her node is stopped:
/// her node dials Ana when it starts.
#[test]
fn two_fresh_homes_meet_with_one_invite_line() {
    let mut nodes = Nodes::new();
    let (a_home, b_home, c_home) = (
        nodes.home("ana"),
        nodes.home("bernardo"),
        nodes.home("carla"),
    );
    run_text(&a_home, &["init", "--name", "Ana Núñez"]);
    run_text(&b_home, &["init", "--name", "Bernardo Díaz"]);
    let listen = ["--listen", "/ip4/127.0.0.1/tcp/0"];
    start(&mut nodes, "ana", &listen);
    start(&mut nodes, "bernardo", &listen);
    let line = run_text(&a_home, &["invite"]).trim().to_owned();
    assert!(line.starts_with("sobre:invite/"), "{line}");
    assert!(!line.contains(char::is_whitespace), "one line: {line}");
    let a_id = player_id(&a_home);

    let out = run_text(&b_home, &["connect", &line]);
    assert!(out.contains(&format!("ana-núñez = {a_id}")), "{out}");
    wait_connected(
        &a_home,
        &player_id(&b_home),
        "Ana's node never saw Bernardo's",
    );
    let contacts = run(&b_home, &["contacts", "list", "--json"]);
    assert_eq!(contacts["ana-núñez"], a_id.as_str());
    let v = run(
        &b_home,
        &["challenge", "ana-núñez", "--color", "black", "--json"],
    );
    let game = v["game"].as_str().expect("a game id").to_owned();
    wait_until(&a_home, &game, "the challenge", |v| {
        v["status"] == "pending"
    });
    run_text(&a_home, &["accept", &game]);
    run_text(&a_home, &["move", &game, "d4"]);
    wait_until(&b_home, &game, "d4", |v| v["plies"] == 1);
    // Ana watches Bernardo's reply arrive: `watch` names its author.
    let watched = watch_lines(&a_home);
    std::thread::sleep(Duration::from_millis(500));
    run_text(&b_home, &["move", &game, "d5"]);
    wait_until(&a_home, &game, "d5", |v| v["plies"] == 2);
    let deadline = Instant::now() + WAIT;
    let mut seen = Vec::new();
    let moved = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match watched.recv_timeout(left) {
            Ok(line) if line.contains(" move ") => break line,
            Ok(line) => seen.push(line),
            Err(e) => panic!("`watch` never showed the move ({e}): {seen:?}"),
        }
    };
    assert!(moved.contains("by=Bernardo Díaz"), "{moved}");
    names_are_shown(&a_home, &b_home, &game);
    // Status names the opponent, by alias, connected; and says whether peers can reach us.
    let status = run(&b_home, &["node", "status", "--json"]);
    assert_eq!(status["opponents"][0]["player"], a_id.as_str(), "{status}");
    assert_eq!(status["opponents"][0]["connected"], true, "{status}");
    let words = run_text(&b_home, &["node", "status"]);
    assert!(words.contains("opponents: 1 of 1 connected"), "{words}");
    assert!(words.contains("ana-núñez"), "{words}");
    assert!(words.contains("reachable: "), "{words}");

    // Carla's node is stopped when she takes the invite.
    run_text(&c_home, &["init", "--name", "Carla"]);
    let out = run_text(&c_home, &["contacts", "add", "ana", &line]);
    assert!(out.contains("when it starts"), "{out}");
    start(&mut nodes, "carla", &listen);
    wait_connected(
        &a_home,
        &player_id(&c_home),
        "Carla's node never dialed Ana's",
    );
    let known = run(&c_home, &["peers", "list", "--json"]);
    assert!(
        known["known"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p["peer"] == a_id.as_str()),
        "{known}"
    );
    nodes.stop("carla");
    nodes.stop("bernardo");
    nodes.stop("ana");
}

/// `sobre watch` on `home`, its lines sent as they come (the process ends with the test's
/// process: `watch` exits when its node stops).
fn watch_lines(home: &Path) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let mut child = sobre(home)
        .arg("watch")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("watch starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
        let _ = child.kill();
        let _ = child.wait();
    });
    rx
}

/// Ana (White) and Bernardo (Black, who has her as contact `ana-núñez`) see each other's
/// signed names: in `games` and `show` (Bernardo's alias for her wins on his screen), and in
/// the PGN's `White`/`Black` on both sides.
fn names_are_shown(a_home: &Path, b_home: &Path, game: &str) {
    let b_id = player_id(b_home);
    let list = run(a_home, &["games", "--json"]);
    assert_eq!(list["games"][0]["opponent_name"], "Bernardo Díaz", "{list}");
    let table = run_text(a_home, &["games"]);
    assert!(table.contains("Bernardo Díaz"), "{table}");
    let shown = run_text(a_home, &["show", game]);
    assert!(shown.contains("Bernardo Díaz"), "{shown}");
    assert!(shown.contains("Ana Núñez (you)"), "{shown}");
    let v = run(b_home, &["show", game, "--json"]);
    assert_eq!(v["names"][&player_id(a_home)], "Ana Núñez", "{v}");
    let shown = run_text(b_home, &["show", game]);
    assert!(shown.contains("Bernardo Díaz (you)"), "{shown}");
    for home in [a_home, b_home] {
        let pgn = run_text(home, &["export", game, "--pgn"]);
        assert!(pgn.contains("[White \"Ana Núñez\"]"), "{pgn}");
        assert!(pgn.contains("[Black \"Bernardo Díaz\"]"), "{pgn}");
        assert!(pgn.contains(&format!("[BlackId \"{b_id}\"]")), "{pgn}");
    }
}

#[test]
fn a_malformed_or_altered_invite_is_refused_with_its_reason() {
    let nodes = Nodes::new();
    let (a_home, b_home) = (nodes.home("ana"), nodes.home("bernardo"));
    run_text(&a_home, &["init", "--name", "Ana"]);
    run_text(&b_home, &["init", "--name", "Bernardo"]);
    // No node, no external address: nothing to put in an invite.
    let out = exec(&a_home, &["invite"]);
    assert!(!out.success());
    assert!(out.stderr.contains("no address"), "{}", out.stderr);
    // A declared external address is enough.
    std::fs::write(
        a_home.join("node.toml"),
        "external = [\"/ip4/203.0.113.7/tcp/4848\"]\n",
    )
    .unwrap();
    let line = run_text(&a_home, &["invite"]).trim().to_owned();
    let v = run(&a_home, &["invite", "--json"]);
    assert_eq!(v["addresses"][0], "/ip4/203.0.113.7/tcp/4848");
    assert_eq!(v["name"], "Ana");

    let refused = |invite: &str, why: &str| {
        for args in [
            vec!["connect", invite],
            vec!["contacts", "add", "ana", invite],
        ] {
            let out = exec(&b_home, &args);
            assert!(!out.success(), "{args:?} was accepted");
            assert!(out.stderr.contains(why), "{args:?}: {}", out.stderr);
        }
    };
    // One character of the signature changed.
    let mut chars: Vec<char> = line.chars().collect();
    let at = chars.len() - 10;
    chars[at] = if chars[at] == 'A' { 'B' } else { 'A' };
    let altered: String = chars.into_iter().collect();
    refused(&altered, "signature does not match");
    refused("sobre:invite/%%%", "not valid base64url");
    // Cut after whole base64 groups (4 characters), so that only the length is wrong.
    let body = &line["sobre:invite/".len()..];
    refused(
        &format!("sobre:invite/{}", &body[..body.len() / 8 * 4]),
        "cut short",
    );
    refused("sobre:hello", "not an invite");
    // Nothing was stored by the refused ones.
    assert!(!b_home.join("contacts.json").exists());
    // Your own invite is not a contact.
    let out = exec(&a_home, &["connect", &line]);
    assert!(out.stderr.contains("your own invite"), "{}", out.stderr);
    // The genuine line works offline too.
    let out = run_text(&b_home, &["connect", &line]);
    assert!(out.contains("ana = "), "{out}");
}

/// Ana is reachable only through a relay: her invite carries the relayed address alone
/// (loopback is left out when there is anything else), and Bernardo's node reaches her
/// through the relay from the invite.
#[test]
fn an_invite_with_only_a_relayed_address_is_followed_through_the_relay() {
    let mut nodes = Nodes::new();
    let listen = ["--listen", "/ip4/127.0.0.1/tcp/0"];
    let r_addrs = start(
        &mut nodes,
        "relay",
        &["--listen", "/ip4/127.0.0.1/tcp/0", "--relay-server"],
    );
    let a_home = nodes.home("ana");
    let relay = tcp(&r_addrs);
    start(
        &mut nodes,
        "ana",
        &["--listen", "/ip4/127.0.0.1/tcp/0", "--relay", &relay],
    );
    let deadline = Instant::now() + WAIT;
    let v = loop {
        let v = run(&a_home, &["invite", "--json"]);
        if strings(&v["addresses"])
            .iter()
            .any(|a| a.contains("p2p-circuit"))
        {
            break v;
        }
        assert!(Instant::now() < deadline, "no relayed address: {v}");
        std::thread::sleep(POLL);
    };
    let addrs = strings(&v["addresses"]);
    assert!(addrs.iter().all(|a| a.contains("p2p-circuit")), "{addrs:?}");
    let line = v["invite"].as_str().unwrap().to_owned();

    let b_home = nodes.home("bernardo");
    start(&mut nodes, "bernardo", &listen);
    run_text(&b_home, &["connect", &line, "--as", "ana"]);
    let a_id = player_id(&a_home);
    wait_connected(
        &b_home,
        &a_id,
        "Bernardo's node never reached Ana's through the relay",
    );
    let v = run(&b_home, &["challenge", "ana", "--color", "black", "--json"]);
    let game = v["game"].as_str().expect("a game id").to_owned();
    wait_until(&a_home, &game, "the challenge", |v| {
        v["status"] == "pending"
    });
    run_text(&a_home, &["accept", &game]);
    run_text(&a_home, &["move", &game, "c4"]);
    wait_until(&b_home, &game, "c4", |v| v["plies"] == 1);
    nodes.stop("bernardo");
    nodes.stop("ana");
    nodes.stop("relay");
}
