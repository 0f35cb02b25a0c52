//! End-to-end figures of a sobre node, measured for real: libp2p over loopback TCP, sled on
//! disk in temporary directories, the control socket, `sobre_core::record::verify`.
//!
//! ```text
//! cargo bench -p sobre-node --bench node_bench                    # full (about 1 min)
//! cargo bench -p sobre-node --bench node_bench -- quick           # smoke run
//! cargo bench -p sobre-node --bench node_bench -- only=mailbox    # one phase
//! cargo bench -p sobre-node --bench node_bench -- only=scale        # issue 30 Tier 1 (~4 min)
//! cargo bench -p sobre-node --bench node_bench -- only=scale tier2  # Tier 2 (pre-release)
//! ```
//!
//! 1. `rt`: move round trip between two nodes (control `move` → opponent's watch stream),
//!    beside its floor: the same number of round trips between two bare libp2p swarms with
//!    a sled database each, in the same run ([`floor`]); the node's median must stay below
//!    twice the floor's.
//! 2. `mailbox`: durable ingest at a mailbox node of the moves of many games, 16 (and 64)
//!    requests in flight. Live (the figure checked against the target): each move is signed when it
//!    is sent and delivered alone, as a player's node delivers a new move. Backlog: games
//!    signed hours before, each delivery the whole game so far (what a node sends when it
//!    does not know what the mailbox holds, e.g. after a restart).
//! 3. `sync`: catch-up of many games from a node (`Games` + one `Sync` per game), every game
//!    verified by the fetcher.
//! 4. `rss`: resident memory of a node (a child process running `service::run`, exactly as
//!    `sobre node run` does) holding many active games.
//! 5. `attack`: a node (a child process, default limits) plays an honest game while
//!    strangers attack it within the rules, one attack at a time (issue 18): the honest
//!    round trip, the victim's peak memory and its disk growth under each.
//! 6. `hub`: a mailbox (a child process) holding many games others play: its start, its
//!    idle CPU with many peers connected, its CPU per connection in a reconnect storm.
//! 7. `scale`: issue 30's Tier 1 ([`scale`]): clubs' mailboxes (child processes holding
//!    thousands of games for others) and dozens of players' nodes playing live games and a
//!    league at a steady rate through the control API while players come and go and a
//!    mailbox restarts: every move checked where it should be, its convergence timed, the
//!    mailboxes' idle cost and a reconnect storm, discovery by id across clubs. `tier2`
//!    gives it the sizes of the documented pre-release run; `quick` small ones. It runs
//!    only when named (`only=scale`).
//!
//! Inbound requests are rate limited per peer (120 a minute, `NetworkConfig::new`, not
//! configurable through `NodeConfig`), so the load of phases 2 and 3 is spread over as many
//! client peers as needed to stay under it, as many players' nodes would; phase 3 also shows
//! what the player's own node asking for all its games through one connection gets (its
//! catch-up syncs are granted outside the limit).
//!
//! Every WARN the nodes log while a phase runs is counted and listed under its figures
//! (ids elided); `RUST_LOG=sobre_node=debug` also prints the log. `NODE_BENCH_DEBUG=1` names
//! the slow moves of phase 1.
//!
//! A `harness = false` bench: `main` is this file's. `cargo bench` passes `--bench` after the
//! options; `cargo test --benches` (or `--all-targets`) runs it without, only to see that it
//! starts, and it then measures nothing. Other flags are ignored.

mod attack;
mod floor;
mod games;
// The raw gossipsub attacker is shared with the abuse tests.
#[path = "../../tests/common/gossip.rs"]
mod gossip;
mod hub;
mod mailbox;
mod memory;
mod nodes;
mod peers;
mod round_trip;
mod scale;
mod stats;
mod sync;
mod table;
mod warnings;

use crate::nodes::{CHILD_NODE, CHILD_PARTS};
use crate::stats::{cpu_model, cpus};
use crate::table::{Row, print_table};
use crate::warnings::WarnCounter;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Requests one client peer sends in a run: under the 120/minute inbound limit.
const PER_PEER_BUDGET: usize = 100;
/// Requests in flight in phases 2 and 3.
const IN_FLIGHT: usize = 16;
/// Plies before phase 1 starts a new game: a typical game length (about 40 moves).
const MAX_PLIES_PER_GAME: usize = 80;

type BoxError = Box<dyn std::error::Error + Send + Sync>;
type Res<T> = Result<T, BoxError>;

#[derive(Clone, Copy)]
struct Sizes {
    rt_moves: usize,
    mb_games: usize,
    mb_plies: usize,
    sync_games: usize,
    sync_plies: usize,
    rss_games: usize,
    rss_plies: usize,
    attack_moves: usize,
    attack_duration: Duration,
    hub_games: usize,
    hub_peers: usize,
    hub_idle: Duration,
    scale: scale::ScaleSizes,
}

const FULL: Sizes = Sizes {
    rt_moves: 200,
    mb_games: 200,
    mb_plies: 40,
    sync_games: 1000,
    sync_plies: 80,
    rss_games: 10_000,
    rss_plies: 20,
    attack_moves: 100,
    attack_duration: Duration::from_secs(20),
    hub_games: 10_000,
    hub_peers: 256,
    hub_idle: Duration::from_secs(30),
    scale: scale::TIER1,
};

const QUICK: Sizes = Sizes {
    rt_moves: 30,
    mb_games: 20,
    mb_plies: 20,
    sync_games: 100,
    sync_plies: 40,
    rss_games: 500,
    rss_plies: 20,
    attack_moves: 20,
    attack_duration: Duration::from_secs(3),
    hub_games: 500,
    hub_peers: 16,
    hub_idle: Duration::from_secs(3),
    scale: scale::QUICK,
};

/// The phases, in the order they run: name for `only=`, label in the table.
const PHASES: [(&str, &str); 7] = [
    ("rt", "1 round trip"),
    ("mailbox", "2 mailbox"),
    ("sync", "3 catch-up"),
    ("rss", "4 memory"),
    ("attack", "5 under attack"),
    ("hub", "6 hub"),
    ("scale", scale::PHASE),
];

const USAGE: &str = "usage: cargo bench -p sobre-node --bench node_bench [-- [quick] [tier2] [only=rt|mailbox|sync|rss|attack|hub|scale]]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Children of phases 2, 4, 5, 6 and 7 are this binary started again
    // (`nodes::child_command`), with their role first.
    let home = || PathBuf::from(args.get(1).cloned().unwrap_or_default());
    match args.first().map(String::as_str) {
        Some(CHILD_PARTS) => std::process::exit(memory::child_parts(&home())),
        Some(CHILD_NODE) => {
            let kind = args.get(2).map_or("player", String::as_str);
            let listen = args.get(3).cloned();
            let peers = args.iter().skip(4).cloned().collect();
            std::process::exit(nodes::child_node(home(), kind, listen, peers));
        }
        _ => {}
    }
    let mut quick = false;
    let mut tier2 = false;
    let mut only: Option<&'static str> = None;
    for a in args.iter().filter(|a| !a.starts_with('-')) {
        if a == "quick" {
            quick = true;
        } else if a == "tier2" {
            tier2 = true;
        } else if let Some(p) = a.strip_prefix("only=") {
            let Some(&(name, _)) = PHASES.iter().find(|(n, _)| *n == p) else {
                eprintln!("node_bench: no phase `{p}`\n{USAGE}");
                std::process::exit(2);
            };
            only = Some(name);
        } else {
            eprintln!("node_bench: unknown option `{a}`\n{USAGE}");
            std::process::exit(2);
        }
    }
    if !args.iter().any(|a| a == "--bench") {
        println!("node_bench: not run under `cargo bench`, nothing measured\n{USAGE}");
        return;
    }
    let warnings = WarnCounter::install();
    let mut sizes = if quick { QUICK } else { FULL };
    if tier2 {
        sizes.scale = scale::TIER2;
    }

    println!(
        "sobre node_bench ({})",
        if quick { "quick" } else { "full" }
    );
    println!("cpu: {} × {}", cpu_model(), cpus());
    println!("temp dir: {}", std::env::temp_dir().display());
    println!();

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let started = Instant::now();
    let mut rows = Vec::new();
    for (name, label) in PHASES {
        // The scale phase takes minutes: it runs only when named.
        if only.map_or(name == "scale", |o| o != name) {
            continue;
        }
        let t = Instant::now();
        eprintln!("[{name}] running…");
        let mut result = runtime.block_on(async {
            match name {
                "rt" => round_trip::phase_round_trip(sizes).await,
                "mailbox" => mailbox::phase_mailbox(sizes).await,
                "sync" => sync::phase_sync(sizes).await,
                "rss" => memory::phase_rss(sizes).await,
                "hub" => hub::phase_hub(sizes).await,
                "scale" => scale::phase_scale(sizes).await,
                _ => attack::phase_attack(sizes).await,
            }
        });
        if let Ok(r) = &mut result {
            for (msg, n) in warnings.take() {
                r.push(Row::info(label, format!("node WARN: {msg}"), n.to_string()));
            }
        }
        match result {
            Ok(mut r) => rows.append(&mut r),
            Err(e) => rows.push(Row::check(label, "phase failed", e.to_string(), "", false)),
        }
        eprintln!("[{name}] done in {:.1} s", t.elapsed().as_secs_f64());
    }
    print_table(&rows);
    println!("\ntotal {:.1} s", started.elapsed().as_secs_f64());
    // Network tasks of dropped handles may linger: do not wait for them.
    runtime.shutdown_timeout(Duration::from_secs(2));
}
