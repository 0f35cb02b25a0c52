//! Crash safety of the real `sobre` binary: a node killed with SIGKILL right after a command
//! reported success still holds what that command did when it starts again.
//!
//! Two players, each with their own home and `sobre node run` process, play through the CLI.
//! After every `sobre move` that exits 0 the mover's node is killed (SIGKILL: no shutdown,
//! no flush beyond what the node did before answering), started again, and `sobre show
//! --json` must list the move. The opponent then receives it (the restarted node reconnects
//! through `--bootstrap` and delivers its outbox) and answers, and the loop goes on; when a
//! game ends a new one is started.

use serde_json::Value;
use sobre_core::notation::{Notation, format_move};
use sobre_core::rules::Game;
use sobre_core::uci::parse_uci;
use sobre_core::{Move, Position};
use sobre_node::api::ApiRequest;
use sobre_node::client;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The longest any single wait may take before the test fails instead of hanging.
const STEP: Duration = Duration::from_secs(60);
const POLL: Duration = Duration::from_millis(10);

fn sobre(home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sobre"));
    cmd.arg("--home").arg(home).env_remove("SOBRE_HOME");
    cmd
}

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
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// One player's home and node process. Dropping it kills the node, so a failing test leaves
/// no process behind.
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
        let deadline = Instant::now() + STEP;
        while rt
            .block_on(client::call(&self.home, ApiRequest::Id))
            .is_err()
        {
            if let Some(Ok(Some(status))) = self.node.as_mut().map(Child::try_wait) {
                panic!(
                    "the node in {} exited with {status}: see node.log",
                    self.home.display()
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
            ApiRequest::Show { game: game.into() },
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

impl Drop for Player {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A legal move in the game `moves` (UCI) leads to, chosen deterministically from `salt`,
/// that does not end the game if there is one (no mate, stalemate, dead position, fivefold
/// repetition or 75-move rule).
fn next_move(start_fen: Option<&str>, moves: &[Value], salt: usize) -> String {
    let start = start_fen
        .map(|f| Position::from_fen_auto(f).expect("start FEN"))
        .unwrap_or_default();
    let mut game = Game::new(start);
    for m in moves {
        let text = m.as_str().expect("a UCI move");
        let mv = parse_uci(game.position(), text).expect("a legal move");
        game.play(mv).expect("legal");
    }
    let pos = game.position().clone();
    let legal: Vec<Move> = pos.legal_moves().to_vec();
    assert!(!legal.is_empty(), "the game should have ended");
    let start = (salt * 7 + 3) % legal.len();
    let rotation = (0..legal.len()).map(|i| legal[(start + i) % legal.len()]);
    let quiet = rotation.clone().find(|&m| {
        let mut next = game.clone();
        next.play(m).is_ok() && next.automatic_end().is_none()
    });
    let chosen = quiet.unwrap_or(legal[start]);
    format_move(&pos, chosen, Notation::Uci)
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

    let mut game = new_game(&rt, &a, &b);
    let mut plies = 0u64;
    let mut games = 1usize;
    for cycle in 0..cycles {
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
            v["start_fen"].as_str(),
            v["moves"].as_array().map_or(&[][..], Vec::as_slice),
            cycle,
        );
        run_ok(sobre(&mover.home).args(["move", &game, &mv]));
        // The command reported success: kill the node at once, and start it again.
        mover.kill();
        mover.start(&rt, &other.addr());
        let shown = json_of(sobre(&mover.home).args(["show", &game, "--json"]));
        assert_eq!(
            shown["plies"].as_u64(),
            Some(plies + 1),
            "cycle {cycle}: the move {mv} was lost by the kill"
        );
        assert_eq!(
            shown["last_move"].as_str(),
            Some(mv.as_str()),
            "cycle {cycle}"
        );
        plies += 1;
        if shown["status"] != "active" {
            // The game ended (no quiet move was left): both sides agree, and a new one starts.
            other.wait_for(&rt, &game, "the end of the game", |v| {
                v["status"] == shown["status"] && v["plies"].as_u64() == Some(plies)
            });
            game = new_game(&rt, &a, &b);
            plies = 0;
            games += 1;
        }
    }
    eprintln!(
        "{cycles} kill/restart cycles in {games} game(s) took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_node_killed_right_after_a_move_keeps_it_100_cycles() {
    kill_restart_loop(100);
}

#[test]
#[ignore = "long: 1,000 kill/restart cycles"]
fn a_node_killed_right_after_a_move_keeps_it_1000_cycles() {
    kill_restart_loop(1000);
}
