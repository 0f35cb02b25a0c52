//! Partitions with Linux network namespaces (optional: needs root and `ip netns`; the test
//! skips, saying why, where namespaces are not permitted). Three real `sobre node run`
//! processes — two players and a mailbox — each in its own namespace, joined by a bridge.
//! A link is cut (`ip link set … down` on the node's side of the bridge) while the other
//! player moves, and restored; the move must arrive without any restart, and at the end all
//! three records are identical and verify. The stop/start churn test
//! (`node/tests/churn.rs`) is the one that always runs.

use serde_json::Value;
use sobre_core::record::{EventKind, read_archive};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::client;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const STEP: Duration = Duration::from_secs(90);
const POLL: Duration = Duration::from_millis(50);

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| format!("ip {args:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ip {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The namespaces, veth pairs and bridge of one run; removed on drop.
struct Net {
    tag: String,
    subnet: String,
    nodes: usize,
}

impl Net {
    /// Sets up `nodes` namespaces on one bridge, or says why it cannot.
    fn new(nodes: usize) -> Result<Net, String> {
        let pid = std::process::id() % 100_000;
        let net = Net {
            tag: format!("sb{pid}"),
            subnet: format!("10.231.{}", pid % 250),
            nodes,
        };
        // A probe first: nothing else is created where namespaces are not permitted.
        let probe = format!("{}-p", net.tag);
        ip(&["netns", "add", &probe])?;
        ip(&["netns", "del", &probe])?;
        let bridge = format!("{}b", net.tag);
        ip(&["link", "add", &bridge, "type", "bridge"])?;
        ip(&["link", "set", &bridge, "up"])?;
        for i in 0..nodes {
            let (ns, host, inner) = net.names(i);
            ip(&["netns", "add", &ns])?;
            ip(&["link", "add", &host, "type", "veth", "peer", "name", &inner])?;
            ip(&["link", "set", &inner, "netns", &ns])?;
            ip(&["link", "set", &host, "master", &bridge])?;
            ip(&["link", "set", &host, "up"])?;
            let addr = format!("{}/24", net.ip(i));
            ip(&["-n", &ns, "addr", "add", &addr, "dev", &inner])?;
            ip(&["-n", &ns, "link", "set", &inner, "up"])?;
            ip(&["-n", &ns, "link", "set", "lo", "up"])?;
        }
        Ok(net)
    }

    fn names(&self, i: usize) -> (String, String, String) {
        (
            format!("{}-{i}", self.tag),
            format!("{}h{i}", self.tag),
            format!("{}n{i}", self.tag),
        )
    }

    fn ip(&self, i: usize) -> String {
        format!("{}.{}", self.subnet, i + 1)
    }

    /// Cuts node `i` off (or restores it).
    fn link(&self, i: usize, up: bool) {
        let (_, host, _) = self.names(i);
        ip(&["link", "set", &host, if up { "up" } else { "down" }]).expect("link set");
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        for i in 0..self.nodes {
            let (ns, host, _) = self.names(i);
            let _ = ip(&["link", "del", &host]);
            let _ = ip(&["netns", "del", &ns]);
        }
        let _ = ip(&["link", "del", &format!("{}b", self.tag)]);
    }
}

fn sobre(home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sobre"));
    cmd.arg("--home").arg(home).env_remove("SOBRE_HOME");
    cmd
}

fn run_ok(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().expect("sobre runs");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn json_of(cmd: &mut Command) -> Value {
    serde_json::from_slice(&run_ok(cmd)).expect("JSON")
}

struct Node {
    home: PathBuf,
    id: String,
    addr: String,
    child: Option<Child>,
}

impl Node {
    fn start(net: &Net, i: usize, home: PathBuf, extra: &[String]) -> Node {
        let id = json_of(sobre(&home).args(["init", "--json"]))["player_id"]
            .as_str()
            .expect("id")
            .to_owned();
        let listen = format!("/ip4/{}/tcp/4001", net.ip(i));
        let (ns, _, _) = net.names(i);
        let log = std::fs::File::create(home.join("node.log")).expect("log");
        let child = Command::new("ip")
            .args(["netns", "exec", &ns, env!("CARGO_BIN_EXE_sobre"), "--home"])
            .arg(&home)
            .args(["node", "run", "--listen", &listen])
            .args(extra)
            .env_remove("SOBRE_HOME")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("node starts");
        let node = Node {
            addr: format!("{listen}/p2p/{id}"),
            id,
            home,
            child: Some(child),
        };
        let deadline = Instant::now() + STEP;
        while node.api(ApiRequest::Id(request::Id {})).is_none() {
            assert!(Instant::now() < deadline, "node {i} did not start");
            std::thread::sleep(POLL);
        }
        node
    }

    fn api(&self, r: ApiRequest) -> Option<Value> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .ok()?;
        rt.block_on(client::call(&self.home, r)).ok()
    }

    fn wait_plies(&self, game: &str, plies: u64, what: &str) -> Value {
        let deadline = Instant::now() + STEP;
        loop {
            if let Some(v) = self.api(ApiRequest::Show(request::Show { game: game.into() }))
                && v["plies"].as_u64() == Some(plies)
            {
                return v;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(POLL);
        }
    }

    fn wait_active(&self, game: &str) {
        let deadline = Instant::now() + STEP;
        while self
            .api(ApiRequest::Show(request::Show { game: game.into() }))
            .is_none_or(|v| v["status"] != "active")
        {
            assert!(Instant::now() < deadline, "the game never started");
            std::thread::sleep(POLL);
        }
    }

    fn play(&self, game: &str, mv: &str) {
        run_ok(sobre(&self.home).args(["move", game, mv]));
    }

    /// The moves of the node's record, verified from scratch.
    fn moves(&self, game: &str) -> BTreeSet<[u8; 32]> {
        let v = self
            .api(ApiRequest::Export(request::Export {
                game: game.into(),
                format: sobre_node::api::ExportFormat::Archive,
            }))
            .expect("export");
        let a = read_archive(v["archive"].as_str().expect("archive")).expect("parses");
        a.verify().expect("the record verifies");
        a.events
            .iter()
            .filter(|e| {
                e.decode_unverified()
                    .is_ok_and(|ev| matches!(ev.kind, EventKind::Move(_)))
            })
            .map(|e| e.id().0)
            .collect()
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            // `ip netns exec` execs the node: this is the node's own process.
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

#[test]
fn a_cut_link_delays_moves_and_restoring_it_delivers_them_without_restarts() {
    let net = match Net::new(3) {
        Ok(n) => n,
        Err(why) => {
            eprintln!("SKIPPED: network namespaces are not permitted here ({why})");
            return;
        }
    };
    let started = Instant::now();
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let m = Node::start(&net, 0, dirs[0].path().to_path_buf(), &["--mailbox".into()]);
    let use_m = vec!["--use-mailbox".to_owned(), m.addr.clone()];
    let a = Node::start(&net, 1, dirs[1].path().to_path_buf(), &use_m);
    let b = Node::start(&net, 2, dirs[2].path().to_path_buf(), &use_m);
    run_ok(sobre(&a.home).args(["peers", "connect", &b.addr]));
    run_ok(sobre(&b.home).args(["peers", "connect", &a.addr]));
    let game =
        json_of(sobre(&a.home).args(["challenge", &b.id, "--color", "white", "--json"]))["game"]
            .as_str()
            .expect("game")
            .to_owned();
    b.wait_plies(&game, 0, "the challenge");
    run_ok(sobre(&b.home).args(["accept", &game]));
    a.wait_active(&game);
    a.play(&game, "e4");
    b.wait_plies(&game, 1, "e4");
    b.play(&game, "e5");
    a.wait_plies(&game, 2, "e5");

    // Black is cut off; White moves; nothing can reach Black until the link is back.
    net.link(2, false);
    a.play(&game, "Nf3");
    m.wait_plies(&game, 3, "the mailbox to hold Nf3");
    std::thread::sleep(Duration::from_secs(2));
    let vb = b
        .api(ApiRequest::Show(request::Show { game: game.clone() }))
        .expect("show");
    assert_eq!(vb["plies"], 2, "a cut-off node received a move");
    net.link(2, true);
    b.wait_plies(&game, 3, "Nf3 after the link is restored");

    // White is cut off; Black answers; White gets it once back.
    net.link(1, false);
    b.play(&game, "Nc6");
    m.wait_plies(&game, 4, "the mailbox to hold Nc6");
    net.link(1, true);
    a.wait_plies(&game, 4, "Nc6 after the link is restored");

    // The same verified moves everywhere.
    let (ma, mb, mm) = (a.moves(&game), b.moves(&game), m.moves(&game));
    assert_eq!(ma.len(), 4);
    assert_eq!(ma, mb);
    assert_eq!(ma, mm);
    eprintln!("partition test took {:?}", started.elapsed());
}
