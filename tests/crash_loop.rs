//! Crash safety of the real `sobre` binary: a node killed with SIGKILL right after a command
//! reported success still holds what that command did when it starts again.
//!
//! Two players, each with their own home and `sobre node run` process, play through the CLI.
//! After every `sobre move` that exits 0 the mover's node is killed (SIGKILL: no shutdown,
//! no flush beyond what the node did before answering), started again, and `sobre show
//! --json` must list the move. The opponent then receives it (the restarted node reconnects
//! through `--bootstrap` and delivers its outbox) and answers, and the loop goes on; when a
//! game ends a new one is started.
//!
//! The kill lands at a random moment, chosen per cycle by a seeded generator (the seed is
//! printed; `SOBRE_CRASH_SEED` replays a run):
//! - right after the command reported success;
//! - in the middle of the command (the node is killed while `sobre move` runs): if the command
//!   reported success the move must be there after the restart, if it failed the move may be
//!   there or not, and is played again if not;
//! - during start-up, before the node is ready (once or twice in a row, after a move), with
//!   the node then started for good.
//!
//! After every restart the node's record of the game is exported and verified from scratch,
//! and every move acknowledged so far must be in it, in order.

use crate::common::sobre;
use serde_json::Value;
use sobre_core::Position;
use sobre_core::notation::{Notation, format_move};
use sobre_core::record::read_archive;
use sobre_core::rules::Game;
use sobre_core::test_support::Lines;
use sobre_core::uci::parse_uci;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::client;
use std::fs::OpenOptions;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The longest any single wait may take before the test fails instead of hanging.
const STEP: Duration = Duration::from_secs(60);
const POLL: Duration = Duration::from_millis(10);

fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("the sobre binary runs");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json_of(cmd: &mut Command) -> Value {
    serde_json::from_slice(&run_ok(cmd).stdout).expect("one JSON object")
}

/// A free loopback TCP port: a restarted node listens where its opponent will look for it.
///
/// Below the kernel's ephemeral range (32768 and up on Linux), where the other tests'
/// nodes (`tcp/0`) and their outgoing connections take theirs: a port from that range, free
/// while the node is down between a kill and its restart, was taken by another test now and
/// then, and the restart failed to listen.
fn free_port() -> u16 {
    // The process id spreads concurrent runs; each call starts after the last port handed
    // out (a port handed out is free again until its node starts), and the first one that
    // binds is taken.
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let base = std::process::id() % 12_000;
    (0..12_000u32)
        .map(|_| {
            let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            20_000 + ((base + n) % 12_000) as u16
        })
        .find(|port| std::net::TcpListener::bind(("127.0.0.1", *port)).is_ok())
        .expect("a free port below the ephemeral range")
}

/// One player's home and node process. Dropping it kills the node, so a failing test leaves
/// no process behind.
///
/// Not the shared `Nodes` fixture: this test kills a node at moments it chooses — while the
/// node starts, before it answers, and in the middle of a command — so it spawns without
/// waiting, restarts on the same port (the opponent dials it there), and polls the control
/// socket every 10 ms to land each kill where it means to.
struct Player {
    home: PathBuf,
    id: String,
    port: u16,
    node: Option<Child>,
}

impl Player {
    fn init(home: PathBuf) -> Player {
        let v = json_of(sobre(&home).args(["init", "--json"]));
        let id = v["player_id"].as_str().expect("player id").to_owned();
        Player {
            home,
            id,
            port: free_port(),
            node: None,
        }
    }

    fn addr(&self) -> String {
        format!("/ip4/127.0.0.1/tcp/{}/p2p/{}", self.port, self.id)
    }

    /// Starts the node (connecting to `peer` at start) and waits for its control socket.
    fn start(&mut self, rt: &tokio::runtime::Runtime, peer: &str) {
        self.spawn(peer);
        self.wait_ready(rt);
    }

    /// Starts the node process without waiting for it.
    fn spawn(&mut self, peer: &str) {
        assert!(self.node.is_none(), "the node already runs");
        let log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.home.join("node.log"))
            .expect("log file");
        let child = sobre(&self.home)
            .args(["node", "run", "--listen"])
            .arg(format!("/ip4/127.0.0.1/tcp/{}", self.port))
            .args(["--bootstrap", peer])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("the node starts");
        self.node = Some(child);
    }

    /// Waits until the node answers on its control socket.
    fn wait_ready(&mut self, rt: &tokio::runtime::Runtime) {
        let deadline = Instant::now() + STEP;
        while rt
            .block_on(client::call(&self.home, ApiRequest::Id(request::Id {})))
            .is_err()
        {
            if let Some(Ok(Some(status))) = self.node.as_mut().map(Child::try_wait) {
                // The home is a temporary directory, gone once the test unwinds: the end of
                // the log goes into the message.
                let log = std::fs::read_to_string(self.home.join("node.log")).unwrap_or_default();
                let tail: Vec<&str> = log.lines().rev().take(20).collect();
                panic!(
                    "the node in {} exited with {status}; the end of its log:\n{}",
                    self.home.display(),
                    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
                );
            }
            assert!(Instant::now() < deadline, "the node did not start");
            std::thread::sleep(POLL);
        }
    }

    /// SIGKILL (what `Child::kill` sends on Unix), then reap the process.
    fn kill(&mut self) {
        if let Some(mut child) = self.node.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn show(&self, rt: &tokio::runtime::Runtime, game: &str) -> Option<Value> {
        rt.block_on(client::call(
            &self.home,
            ApiRequest::Show(request::Show { game: game.into() }),
        ))
        .ok()
    }

    /// Polls the node's view of `game` until `pred` holds.
    fn wait_for(
        &self,
        rt: &tokio::runtime::Runtime,
        game: &str,
        what: &str,
        pred: impl Fn(&Value) -> bool,
    ) -> Value {
        let deadline = Instant::now() + STEP;
        loop {
            if let Some(v) = self.show(rt, game)
                && pred(&v)
            {
                return v;
            }
            assert!(
                Instant::now() < deadline,
                "{}: timed out waiting for {what}",
                self.home.display()
            );
            std::thread::sleep(POLL);
        }
    }
}

impl Player {
    /// The node's record of `game`, exported and verified from scratch: its moves (UCI).
    fn verified_moves(&self, rt: &tokio::runtime::Runtime, game: &str) -> Vec<String> {
        let v = rt
            .block_on(client::call(
                &self.home,
                ApiRequest::Export(request::Export {
                    game: game.into(),
                    format: sobre_node::api::ExportFormat::Archive,
                }),
            ))
            .expect("export");
        let archive = read_archive(v["archive"].as_str().expect("archive text")).expect("parses");
        let state = archive
            .verify()
            .unwrap_or_else(|e| panic!("{}: the record does not verify: {e}", self.home.display()));
        let shown = self.show(rt, game).expect("show");
        let listed: Vec<String> = shown["moves"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m.as_str().map(str::to_owned))
            .collect();
        assert_eq!(listed.len(), state.moves.len(), "show and the record agree");
        listed
    }
}

/// Where the SIGKILL lands in a cycle.
#[derive(Clone, Copy, Debug)]
enum Kill {
    /// Right after `sobre move` exited 0.
    AfterSuccess,
    /// While `sobre move` runs, this many microseconds after it was started.
    MidCommand(u64),
    /// After a successful move, then during start-up (before the node is ready), after each
    /// of these delays in microseconds.
    DuringStartup(u64, Option<u64>),
}

impl Drop for Player {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The next move (UCI) of the game `moves` (UCI) leads to, from `lines`: one that does not
/// end the game if there is one (no mate, stalemate, dead position, fivefold repetition or
/// 75-move rule), else any legal move (the game then ends and a new one starts).
fn next_move(lines: &mut Lines, start_fen: Option<&str>, moves: &[Value]) -> String {
    let start = start_fen
        .map(|f| Position::from_fen_auto(f).expect("start FEN"))
        .unwrap_or_default();
    let mut game = Game::new(start);
    for m in moves {
        let text = m.as_str().expect("a UCI move");
        let mv = parse_uci(game.position(), text).expect("a legal move");
        game.play(mv).expect("legal");
    }
    let pos = game.position();
    let chosen = lines
        .next_move(&game)
        .or_else(|| pos.legal_moves().first().copied())
        .expect("the game should have ended");
    format_move(pos, chosen, Notation::Uci)
}

/// A challenges B (A has White), B accepts; returns the game id once both see it active.
fn new_game(rt: &tokio::runtime::Runtime, a: &Player, b: &Player) -> String {
    let v = json_of(sobre(&a.home).args(["challenge", &b.id, "--color", "white", "--json"]));
    let game = v["game"].as_str().expect("game id").to_owned();
    b.wait_for(rt, &game, "the challenge", |v| v["status"] == "pending");
    run_ok(sobre(&b.home).args(["accept", &game]));
    a.wait_for(rt, &game, "the acceptance", |v| v["status"] == "active");
    game
}

fn kill_restart_loop(cycles: usize) {
    let started = Instant::now();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut a = Player::init(da.path().to_path_buf());
    let mut b = Player::init(db.path().to_path_buf());
    let (a_addr, b_addr) = (a.addr(), b.addr());
    a.start(&rt, &b_addr);
    b.start(&rt, &a_addr);
    // As a user would: B's address from `sobre id`, given to `sobre peers connect`.
    let b_id = json_of(sobre(&b.home).args(["id", "--json"]));
    let b_listed = b_id["addresses"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|s| s.contains("/127.0.0.1/tcp/"))
        .expect("B's loopback address")
        .to_owned();
    assert_eq!(b_listed, b_addr);
    run_ok(sobre(&a.home).args(["peers", "connect", &b_listed]));

    let seed = std::env::var("SOBRE_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| sobre_node::time::now_ms() | 1);
    eprintln!("crash loop: seed {seed} (SOBRE_CRASH_SEED={seed} replays the kill moments)");
    let mut rng = Lines::new(seed);
    // The moves from their own fixed seed: the run's seed says when the kills land.
    let mut lines = Lines::new(7).endless();
    let mut game = new_game(&rt, &a, &b);
    // Every move of the current game whose command reported success (or that a restarted
    // node showed: then it is on disk), in order.
    let mut acked: Vec<String> = Vec::new();
    let mut games = 1usize;
    let mut kills = [0usize; 4];
    for cycle in 0..cycles {
        let plies = acked.len() as u64;
        // A has White in every game.
        let white_moves = plies.is_multiple_of(2);
        let (mover, other) = if white_moves {
            (&mut a, &b)
        } else {
            (&mut b, &a)
        };
        // The opponent's previous move has arrived.
        let v = mover.wait_for(&rt, &game, "the opponent's move", |v| {
            v["plies"].as_u64() == Some(plies) && v["my_move"] == true
        });
        let mv = next_move(
            &mut lines,
            v["start_fen"].as_str(),
            v["moves"].as_array().map_or(&[][..], Vec::as_slice),
        );
        let kill = match rng.below(4) {
            0 => Kill::AfterSuccess,
            1 | 2 => Kill::MidCommand(rng.below(60_000) as u64),
            _ => Kill::DuringStartup(
                rng.below(150_000) as u64,
                (rng.below(2) == 0).then(|| rng.below(150_000) as u64),
            ),
        };
        let reported_success = match kill {
            Kill::AfterSuccess | Kill::DuringStartup(..) => {
                run_ok(sobre(&mover.home).args(["move", &game, &mv]));
                mover.kill();
                true
            }
            Kill::MidCommand(us) => {
                let cli = sobre(&mover.home)
                    .args(["move", &game, &mv])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("sobre move starts");
                std::thread::sleep(Duration::from_micros(us));
                mover.kill();
                let out = cli.wait_with_output().expect("sobre move ends");
                out.status.success()
            }
        };
        if let Kill::DuringStartup(first, second) = kill {
            for us in std::iter::once(first).chain(second) {
                mover.spawn(&other.addr());
                std::thread::sleep(Duration::from_micros(us));
                mover.kill();
            }
        }
        kills[match kill {
            Kill::AfterSuccess => 0,
            Kill::MidCommand(_) if reported_success => 1,
            Kill::MidCommand(_) => 2,
            Kill::DuringStartup(..) => 3,
        }] += 1;
        mover.start(&rt, &other.addr());
        let listed = mover.verified_moves(&rt, &game);
        assert!(
            listed.starts_with(&acked),
            "cycle {cycle} ({kill:?}): an acknowledged move is missing after the restart: \
             acknowledged {acked:?}, record {listed:?}"
        );
        let present = listed.len() == acked.len() + 1;
        if reported_success {
            assert!(
                present && listed.last() == Some(&mv),
                "cycle {cycle} ({kill:?}): the move {mv} reported done was lost by the kill: \
                 record {listed:?}"
            );
        } else {
            // Killed before it answered: the move is either fully there or not at all.
            assert!(
                listed.len() == acked.len() || (present && listed.last() == Some(&mv)),
                "cycle {cycle} ({kill:?}): the record holds something else: {listed:?}"
            );
        }
        if !present {
            // Not made: the same side plays again in the next cycle.
            continue;
        }
        acked.push(mv);
        let shown = json_of(sobre(&mover.home).args(["show", &game, "--json"]));
        if shown["status"] != "active" {
            // The game ended (no quiet move was left): both sides agree, and a new one starts.
            let plies = acked.len() as u64;
            other.wait_for(&rt, &game, "the end of the game", |v| {
                v["status"] == shown["status"] && v["plies"].as_u64() == Some(plies)
            });
            assert_eq!(other.verified_moves(&rt, &game), acked);
            game = new_game(&rt, &a, &b);
            acked.clear();
            games += 1;
        }
    }
    // Both records of the last game agree on every acknowledged move.
    let plies = acked.len() as u64;
    for p in [&a, &b] {
        p.wait_for(&rt, &game, "the last move", |v| {
            v["plies"].as_u64() == Some(plies)
        });
        assert_eq!(p.verified_moves(&rt, &game), acked);
    }
    eprintln!(
        "kills: {} after success, {} mid-command (reported success), {} mid-command (failed), \
         {} during start-up",
        kills[0], kills[1], kills[2], kills[3]
    );
    eprintln!(
        "{cycles} kill/restart cycles in {games} game(s) took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_node_killed_at_random_moments_keeps_every_acknowledged_move_100_cycles() {
    kill_restart_loop(100);
}

#[test]
#[ignore = "long: 1,000 kill/restart cycles"]
fn a_node_killed_at_random_moments_keeps_every_acknowledged_move_1000_cycles() {
    kill_restart_loop(1000);
}
