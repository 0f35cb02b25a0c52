//! Real NAT, with Linux network namespaces (optional: needs root, `ip netns` and `iptables`;
//! skips, saying why, where they are missing — with `SOBRE_REQUIRE_NAT=1`, as `.ci/run` sets
//! once it has installed iptables, a missing iptables fails instead).
//!
//! Two "home" namespaces, each behind its own router namespace that masquerades (iptables
//! MASQUERADE) onto a "public" segment, where one node is the relay and bootstrap node. The
//! homes cannot reach each other's private addresses. Two players who know only an invite
//! play 10 moves; the test reports whether DCUtR upgraded the relayed connection to a direct
//! one and passes either way only if every move arrived. Then each home node restarts on a
//! new port between moves, and the game goes on.

use crate::common::nodes::{Nodes, Options};
use crate::common::{exec, run, run_text};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const STEP: Duration = Duration::from_secs(90);
const POLL: Duration = Duration::from_millis(100);

fn cmd(program: &str, args: &[&str]) -> Result<(), String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("{program} {args:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{program} {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

fn ip(args: &[&str]) -> Result<(), String> {
    cmd("ip", args)
}

/// The namespaces, links and bridge of one run; removed on drop.
struct Nat {
    tag: String,
    n: u32,
}

impl Nat {
    fn ns(&self, name: &str) -> String {
        format!("{}-{name}", self.tag)
    }

    /// The public address of the relay.
    fn relay_ip(&self) -> String {
        format!("10.232.{}.1", self.n)
    }

    fn new() -> Result<Nat, String> {
        let pid = std::process::id() % 100_000;
        let nat = Nat {
            tag: format!("sn{pid}"),
            n: pid % 250,
        };
        let probe = nat.ns("probe");
        ip(&["netns", "add", &probe])?;
        let iptables = cmd(
            "ip",
            &["netns", "exec", &probe, "iptables", "-t", "nat", "-L", "-n"],
        );
        ip(&["netns", "del", &probe])?;
        iptables.map_err(|e| format!("no usable iptables: {e}"))?;
        let (t, n) = (nat.tag.clone(), nat.n);
        let bridge = format!("{t}b");
        ip(&["link", "add", &bridge, "type", "bridge"])?;
        ip(&["link", "set", &bridge, "up"])?;
        // The public segment: the relay (.1) and the two routers' outside (.2, .3).
        for (i, name) in ["pub", "ra", "rb"].iter().enumerate() {
            let ns = nat.ns(name);
            ip(&["netns", "add", &ns])?;
            let (host, inner) = (format!("{t}{name}h"), format!("{t}{name}o"));
            ip(&["link", "add", &host, "type", "veth", "peer", "name", &inner])?;
            ip(&["link", "set", &inner, "netns", &ns])?;
            ip(&["link", "set", &host, "master", &bridge])?;
            ip(&["link", "set", &host, "up"])?;
            let addr = format!("10.232.{n}.{}/24", i + 1);
            ip(&["-n", &ns, "addr", "add", &addr, "dev", &inner])?;
            ip(&["-n", &ns, "link", "set", &inner, "up"])?;
            ip(&["-n", &ns, "link", "set", "lo", "up"])?;
        }
        // Each home behind its router: a private /24, the router masquerading outward.
        for (home, router, lan) in [("ha", "ra", 233), ("hb", "rb", 234)] {
            let (hns, rns) = (nat.ns(home), nat.ns(router));
            ip(&["netns", "add", &hns])?;
            let (rside, hside) = (format!("{t}{home}r"), format!("{t}{home}i"));
            ip(&[
                "link", "add", &rside, "type", "veth", "peer", "name", &hside,
            ])?;
            ip(&["link", "set", &rside, "netns", &rns])?;
            ip(&["link", "set", &hside, "netns", &hns])?;
            ip(&[
                "-n",
                &rns,
                "addr",
                "add",
                &format!("10.{lan}.{n}.1/24"),
                "dev",
                &rside,
            ])?;
            ip(&["-n", &rns, "link", "set", &rside, "up"])?;
            ip(&[
                "-n",
                &hns,
                "addr",
                "add",
                &format!("10.{lan}.{n}.2/24"),
                "dev",
                &hside,
            ])?;
            ip(&["-n", &hns, "link", "set", &hside, "up"])?;
            ip(&["-n", &hns, "link", "set", "lo", "up"])?;
            ip(&[
                "-n",
                &hns,
                "route",
                "add",
                "default",
                "via",
                &format!("10.{lan}.{n}.1"),
            ])?;
            cmd(
                "ip",
                &[
                    "netns",
                    "exec",
                    &rns,
                    "sysctl",
                    "-q",
                    "-w",
                    "net.ipv4.ip_forward=1",
                ],
            )?;
            let outside = format!("{t}{router}o");
            cmd(
                "ip",
                &[
                    "netns",
                    "exec",
                    &rns,
                    "iptables",
                    "-t",
                    "nat",
                    "-A",
                    "POSTROUTING",
                    "-o",
                    &outside,
                    "-j",
                    "MASQUERADE",
                ],
            )?;
        }
        Ok(nat)
    }
}

impl Drop for Nat {
    fn drop(&mut self) {
        for name in ["ha", "hb", "ra", "rb", "pub"] {
            let _ = ip(&["netns", "del", &self.ns(name)]);
        }
        for name in ["pub", "ra", "rb"] {
            let _ = ip(&["link", "del", &format!("{}{name}h", self.tag)]);
        }
        let _ = ip(&["link", "del", &format!("{}b", self.tag)]);
    }
}

/// `sobre node run ARGS` for `name` inside namespace `ns` (no `--listen` but `args`');
/// returns once it answers.
fn start_in(nodes: &mut Nodes, ns: &str, name: &str, args: &[&str]) {
    nodes.start_opts(
        name,
        &Options {
            extra: args,
            own_listen: true,
            netns: Some(ns),
            ..Options::default()
        },
    );
}

fn wait_plies(home: &Path, game: &str, plies: u64, what: &str) {
    let deadline = Instant::now() + STEP;
    loop {
        let out = exec(home, &["show", game, "--json"]);
        if out.success()
            && let Ok(v) = serde_json::from_str::<Value>(out.stdout.trim())
            && v["plies"].as_u64() == Some(plies)
        {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(POLL);
    }
}

/// Whether `home`'s node has a connection to `peer` that is not relayed.
fn direct(home: &Path, peer: &str) -> bool {
    let v = run(home, &["peers", "list", "--json"]);
    v["connected"].as_array().into_iter().flatten().any(|p| {
        p["peer"] == peer
            && p["addresses"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .any(|a| !a.contains("p2p-circuit"))
    })
}

#[test]
fn two_players_behind_nat_meet_by_invite_and_play_through_restarts() {
    let nat = match Nat::new() {
        Ok(n) => n,
        Err(why) => {
            let required = std::env::var_os("SOBRE_REQUIRE_NAT").is_some();
            assert!(
                !(required && why.contains("iptables")),
                "SOBRE_REQUIRE_NAT is set but {why}"
            );
            eprintln!("SKIPPED: network namespaces with NAT are not available here ({why})");
            return;
        }
    };
    let started = Instant::now();
    let mut nodes = Nodes::new();
    let homes: Vec<PathBuf> = ["relay", "ana", "bruno"]
        .iter()
        .map(|n| nodes.home(n))
        .collect();
    let (r_home, a_home, b_home) = (&homes[0], &homes[1], &homes[2]);
    for (h, name) in [(r_home, "Relay"), (a_home, "Ana"), (b_home, "Bruno")] {
        run_text(h, &["init", "--name", name]);
    }
    let r_listen = format!("/ip4/{}/tcp/4848", nat.relay_ip());
    start_in(
        &mut nodes,
        &nat.ns("pub"),
        "relay",
        &["--listen", &r_listen, "--relay-server"],
    );
    let r_id = run(r_home, &["id", "--json"])["player_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let relay = format!("{r_listen}/p2p/{r_id}");
    let home_args = [
        "--listen",
        "/ip4/0.0.0.0/tcp/0",
        "--relay",
        &relay,
        "--bootstrap",
        &relay,
    ];
    start_in(&mut nodes, &nat.ns("ha"), "ana", &home_args);
    start_in(&mut nodes, &nat.ns("hb"), "bruno", &home_args);

    // Ana's invite: her relayed address (her private one is useless to Bruno, and harmless).
    let deadline = Instant::now() + STEP;
    let line = loop {
        let v = run(a_home, &["invite", "--json"]);
        if v["addresses"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .any(|a| a.contains("p2p-circuit"))
        {
            break v["invite"].as_str().unwrap().to_owned();
        }
        assert!(
            Instant::now() < deadline,
            "Ana never got a relayed address: {v}"
        );
        std::thread::sleep(POLL);
    };
    // Her node says how it is reached: through the relay (AutoNAT may not have decided yet).
    let status = run(a_home, &["node", "status", "--json"]);
    assert_eq!(status["relays"][0], r_id.as_str(), "{status}");
    let words = run_text(a_home, &["node", "status"]);
    assert!(words.contains(&format!("through relay {r_id}")), "{words}");
    run_text(b_home, &["connect", &line, "--as", "ana"]);
    let a_id = run(a_home, &["id", "--json"])["player_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let v = run(b_home, &["challenge", "ana", "--color", "black", "--json"]);
    let game = v["game"].as_str().expect("a game id").to_owned();
    wait_plies(a_home, &game, 0, "the challenge");
    run_text(a_home, &["accept", &game]);

    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    ];
    let play = |ply: usize| {
        let (mover, other) = if ply.is_multiple_of(2) {
            (a_home, b_home)
        } else {
            (b_home, a_home)
        };
        run_text(mover, &["move", &game, moves[ply]]);
        wait_plies(other, &game, ply as u64 + 1, moves[ply]);
    };
    for ply in 0..10 {
        play(ply);
    }
    let upgraded = direct(b_home, &a_id);
    eprintln!(
        "DCUtR: the connection between the homes is {} after 10 moves",
        if upgraded {
            "direct (hole punched)"
        } else {
            "still relayed"
        }
    );

    // Each home node restarts on a new port between moves.
    nodes.stop("bruno");
    run_text(a_home, &["move", &game, moves[10]]);
    start_in(&mut nodes, &nat.ns("hb"), "bruno", &home_args);
    wait_plies(b_home, &game, 11, "Re1 after Bruno's restart");
    nodes.stop("ana");
    run_text(b_home, &["move", &game, moves[11]]);
    start_in(&mut nodes, &nat.ns("ha"), "ana", &home_args);
    wait_plies(a_home, &game, 12, "b5 after Ana's restart");
    play(12);
    play(13);
    eprintln!("NAT test took {:?}", started.elapsed());
    nodes.stop("bruno");
    nodes.stop("ana");
    nodes.stop("relay");
}
