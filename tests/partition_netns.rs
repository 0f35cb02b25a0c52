//! Partitions with Linux network namespaces (optional: needs root and `ip netns`; the test
//! skips, saying why, where namespaces are not permitted). Three real `sobre node run`
//! processes — two players and a mailbox — each in its own namespace, joined by a bridge.
//! A link is cut (`ip link set … down` on the node's side of the bridge) while the other
//! player moves, and restored; the move must arrive without any restart, and at the end all
//! three records are identical and verify. The stop/start churn test
//! (`node/tests/churn.rs`) is the one that always runs.

use crate::common::nodes::{Node, Nodes, Options};
use crate::common::{run, run_text, show_now, wait_until};
use serde_json::Value;
use sobre_core::record::{EventKind, read_archive};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::client;
use std::collections::BTreeSet;
use std::process::Command;
use std::time::{Duration, Instant};

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

/// Starts node `i` of `net`, named `name`, in its namespace on a fixed port of its address.
fn start(nodes: &mut Nodes, net: &Net, i: usize, name: &str, extra: &[&str]) -> Node {
    let listen = format!("/ip4/{}/tcp/4001", net.ip(i));
    let (ns, _, _) = net.names(i);
    let mut args = vec!["--listen", listen.as_str()];
    args.extend_from_slice(extra);
    let node = nodes.start_opts(
        name,
        &Options {
            extra: &args,
            own_listen: true,
            netns: Some(&ns),
            ..Options::default()
        },
    );
    // Dialed by its namespace address, not by whatever `sobre id` lists first.
    Node {
        addr: format!("{listen}/p2p/{}", node.id),
        ..node
    }
}

/// The node's view of `game` once it has `plies` half-moves.
fn wait_plies(node: &Node, game: &str, plies: u64, what: &str) -> Value {
    wait_until(&node.home, game, what, |v| {
        v["plies"].as_u64() == Some(plies)
    })
}

fn wait_active(node: &Node, game: &str) {
    wait_until(&node.home, game, "the game to start", |v| {
        v["status"] == "active"
    });
}

fn play(node: &Node, game: &str, mv: &str) {
    run_text(&node.home, &["move", game, mv]);
}

/// The moves of the node's record, verified from scratch.
fn moves(node: &Node, game: &str) -> BTreeSet<[u8; 32]> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let v = rt
        .block_on(client::call(
            &node.home,
            ApiRequest::Export(request::Export {
                game: game.into(),
                format: sobre_node::api::ExportFormat::Archive,
            }),
        ))
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
    let mut nodes = Nodes::new();
    let m = start(&mut nodes, &net, 0, "mailbox", &["--mailbox"]);
    let use_m = ["--use-mailbox", m.addr.as_str()];
    let a = start(&mut nodes, &net, 1, "ana", &use_m);
    let b = start(&mut nodes, &net, 2, "bernardo", &use_m);
    run_text(&a.home, &["peers", "connect", &b.addr]);
    run_text(&b.home, &["peers", "connect", &a.addr]);
    let v = run(&a.home, &["challenge", &b.id, "--color", "white", "--json"]);
    let game = v["game"].as_str().expect("game").to_owned();
    wait_plies(&b, &game, 0, "the challenge");
    run_text(&b.home, &["accept", &game]);
    wait_active(&a, &game);
    play(&a, &game, "e4");
    wait_plies(&b, &game, 1, "e4");
    play(&b, &game, "e5");
    wait_plies(&a, &game, 2, "e5");

    // Black is cut off; White moves; nothing can reach Black until the link is back.
    net.link(2, false);
    play(&a, &game, "Nf3");
    wait_plies(&m, &game, 3, "the mailbox to hold Nf3");
    std::thread::sleep(Duration::from_secs(2));
    let vb = show_now(&b.home, &game);
    assert_eq!(vb["plies"], 2, "a cut-off node received a move");
    net.link(2, true);
    wait_plies(&b, &game, 3, "Nf3 after the link is restored");

    // White is cut off; Black answers; White gets it once back.
    net.link(1, false);
    play(&b, &game, "Nc6");
    wait_plies(&m, &game, 4, "the mailbox to hold Nc6");
    net.link(1, true);
    wait_plies(&a, &game, 4, "Nc6 after the link is restored");

    // The same verified moves everywhere.
    let (ma, mb, mm) = (moves(&a, &game), moves(&b, &game), moves(&m, &game));
    assert_eq!(ma.len(), 4);
    assert_eq!(ma, mb);
    assert_eq!(ma, mm);
    eprintln!("partition test took {:?}", started.elapsed());
}
