//! The in-process node harness shared by the node's integration tests: real nodes (the
//! service, libp2p over loopback TCP, sled on disk, the control socket) running as tasks of
//! the test's runtime. Each test file uses what it needs.
#![allow(dead_code)]

pub mod gossip;
pub mod net;

use serde_json::Value;
use sobre_core::Position;
use sobre_core::notation::{Notation, format_move};
use sobre_core::record::{Archive, GameState, read_archive};
use sobre_core::test_support::Lines;
use sobre_node::api::request;
use sobre_node::api::{ApiRequest, TermsRequest};
use sobre_node::client::{self, ClientError};
use sobre_node::service::{NodeConfig, run};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::time::Instant;

/// The longest any single wait may take before the test fails instead of hanging.
pub const STEP: Duration = Duration::from_secs(60);
/// How often a wait polls.
pub const POLL: Duration = Duration::from_millis(25);

/// Starts a node on `home` (its settings adjusted by `extra`) to see whether it starts:
/// `Err` with the node's own refusal, or `Ok` once it answered on its control socket (it is
/// then stopped again).
pub async fn try_start(home: &Path, extra: impl FnOnce(&mut NodeConfig)) -> Result<(), String> {
    let (tx, rx) = oneshot::channel::<()>();
    let mut config = NodeConfig {
        home: home.to_path_buf(),
        listen: vec!["/ip4/127.0.0.1/tcp/0".into()],
        ..NodeConfig::default()
    };
    extra(&mut config);
    let task = tokio::spawn(run(config, async {
        let _ = rx.await;
    }));
    let deadline = Instant::now() + STEP;
    loop {
        if task.is_finished() {
            return match task.await.expect("the node task") {
                Err(e) => Err(e.to_string()),
                Ok(()) => panic!("the node stopped by itself"),
            };
        }
        if client::call(home, ApiRequest::Id(request::Id {}))
            .await
            .is_ok()
        {
            let _ = tx.send(());
            let _ = task.await;
            return Ok(());
        }
        assert!(
            Instant::now() < deadline,
            "the node neither started nor failed"
        );
        tokio::time::sleep(POLL).await;
    }
}

/// A node running in this process: the real service, network, store and control socket.
pub struct TestNode {
    pub home: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl TestNode {
    /// Starts a node on `home` (creating its key if needed) listening on loopback TCP.
    pub async fn start(home: &Path) -> TestNode {
        TestNode::start_with(home, |_| {}).await
    }

    /// Like [`TestNode::start`], with the configuration adjusted by `extra`.
    pub async fn start_with(home: &Path, extra: impl FnOnce(&mut NodeConfig)) -> TestNode {
        sobre_node::home::init_key(home).expect("key");
        let mut config = NodeConfig {
            home: home.to_path_buf(),
            listen: vec!["/ip4/127.0.0.1/tcp/0".into()],
            ..NodeConfig::default()
        };
        extra(&mut config);
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let r = run(config, async {
                let _ = rx.await;
            })
            .await;
            if let Err(e) = r {
                eprintln!("node stopped with error: {e}");
            }
        });
        let node = TestNode {
            home: home.to_path_buf(),
            stop: Some(tx),
            task: Some(task),
        };
        let deadline = Instant::now() + STEP;
        while client::call(&node.home, ApiRequest::Id(request::Id {}))
            .await
            .is_err()
        {
            assert!(Instant::now() < deadline, "node did not start");
            assert!(
                !node.task.as_ref().is_some_and(|t| t.is_finished()),
                "the node on {} stopped during start-up",
                node.home.display()
            );
            tokio::time::sleep(POLL).await;
        }
        node
    }

    pub async fn call(&self, r: ApiRequest) -> Value {
        match client::call(&self.home, r.clone()).await {
            Ok(v) => v,
            Err(e) => panic!("{r:?}: {e}"),
        }
    }

    pub async fn try_call(&self, r: ApiRequest) -> Result<Value, String> {
        client::call(&self.home, r).await.map_err(|e| e.to_string())
    }

    /// The player id and every address the node announces.
    pub async fn id(&self) -> (String, Vec<String>) {
        let v = self.call(ApiRequest::Id(request::Id {})).await;
        let addrs = v["addresses"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        (
            v["player_id"].as_str().unwrap_or_default().to_owned(),
            addrs,
        )
    }

    /// The player id and the direct loopback TCP address.
    pub async fn id_addr(&self) -> (String, String) {
        let (id, addrs) = self.id().await;
        (id, tcp_addr(&addrs))
    }

    /// Polls `show` until `pred` holds (the network is asynchronous).
    pub async fn wait_for(&self, game: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + STEP;
        loop {
            if let Ok(v) = client::call(
                &self.home,
                ApiRequest::Show(request::Show { game: game.into() }),
            )
            .await
                && pred(&v)
            {
                return v;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(POLL).await;
        }
    }

    /// Polls `status` until this node's outbox is empty (every event receipted).
    pub async fn wait_outbox_empty(&self) {
        let deadline = Instant::now() + STEP;
        while self.call(ApiRequest::Status(request::Status {})).await["outbox"] != 0 {
            assert!(Instant::now() < deadline, "the outbox never emptied");
            tokio::time::sleep(POLL).await;
        }
    }

    /// The game's archive as this node exports it.
    pub async fn archive(&self, game: &str) -> Archive {
        let v = self
            .call(ApiRequest::Export(request::Export {
                game: game.into(),
                format: sobre_node::api::ExportFormat::Archive,
            }))
            .await;
        read_archive(v["archive"].as_str().expect("archive text")).expect("parses")
    }

    /// The game's archive as this node exports it, verified from scratch.
    pub async fn verified_archive(&self, game: &str) -> GameState {
        self.archive(game)
            .await
            .verify()
            .expect("the archive verifies")
    }

    pub async fn connected_to(&self, peer: &libp2p::PeerId) -> bool {
        let v = self.call(ApiRequest::Peers(request::Peers {})).await;
        v["connected"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p["peer"] == peer.to_string())
    }

    /// Stops the node and waits for its task (a panic in the node fails the test).
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.task.take() {
            tokio::time::timeout(STEP, t)
                .await
                .expect("the node did not stop")
                .expect("the node task panicked");
        }
    }
}

/// True if no node answers on `home`'s control socket.
pub async fn not_running(home: &Path) -> bool {
    matches!(
        client::call(home, ApiRequest::Id(request::Id {})).await,
        Err(ClientError::NotRunning { .. })
    )
}

/// The direct loopback TCP address among a node's addresses.
pub fn tcp_addr(addrs: &[String]) -> String {
    addrs
        .iter()
        .find(|a| a.contains("/127.0.0.1/tcp/") && !a.contains("/p2p-circuit"))
        .cloned()
        .expect("a direct loopback TCP address")
}

/// Plays `moves` from ply `from_ply`, each side waiting for the previous move first.
pub async fn play(white: &TestNode, black: &TestNode, game: &str, from_ply: usize, moves: &[&str]) {
    for (i, m) in moves.iter().enumerate() {
        let ply = from_ply + i;
        let (mover, other) = if ply.is_multiple_of(2) {
            (white, black)
        } else {
            (black, white)
        };
        mover
            .wait_for(game, "the previous move", |v| {
                v["plies"].as_u64() == Some(ply as u64)
            })
            .await;
        mover
            .call(ApiRequest::Move(request::Move {
                game: game.into(),
                text: (*m).into(),
                notation: None,
            }))
            .await;
        other
            .wait_for(game, "the move to arrive", |v| {
                v["plies"].as_u64() == Some(ply as u64 + 1)
            })
            .await;
    }
}

/// Challenges `black` from `white` (White), has it accepted, and returns the game id.
pub async fn start_game(white: &TestNode, black: &TestNode) -> String {
    start_game_with(white, black, "30d").await
}

/// [`start_game`] with the time control `tc` (e.g. `otb 2h` for a game that can be adjourned).
pub async fn start_game_with(white: &TestNode, black: &TestNode, tc: &str) -> String {
    start_game_on(white, black, tc, TermsRequest::default()).await
}

/// [`start_game_with`] on the agreed `terms` (docs/time.md).
pub async fn start_game_on(
    white: &TestNode,
    black: &TestNode,
    tc: &str,
    terms: TermsRequest,
) -> String {
    let (b_id, _) = black.id().await;
    let ch = white
        .call(ApiRequest::Challenge(request::Challenge {
            opponent: b_id,
            color: sobre_core::record::ColourChoice::ChallengerWhite,
            time_control: tc.into(),
            chess960: false,
            fen: None,
            terms,
        }))
        .await;
    let game = ch["game"].as_str().expect("game id").to_owned();
    black
        .wait_for(&game, "the challenge", |v| v["status"] == "pending")
        .await;
    black
        .call(ApiRequest::Accept(request::Accept {
            game: game.clone(),
            color: None,
            position: None,
        }))
        .await;
    white
        .wait_for(&game, "the acceptance", |v| v["status"] == "active")
        .await;
    game
}

/// A deterministic line of `plies` legal moves (UCI, as `show` lists them) from the standard
/// position in which no move ends the game: no mate, stalemate, dead position, fivefold
/// repetition or 75-move rule (a node refuses moves after the end).
pub fn line_that_does_not_end(plies: usize) -> Vec<String> {
    line_with_seed(plies, 3)
}

/// [`line_that_does_not_end`] drawn from `seed` (`sobre_core::test_support::Lines`).
pub fn line_with_seed(plies: usize, seed: u64) -> Vec<String> {
    let mut pos = Position::new();
    let line = Lines::new(seed).endless().line(&pos, plies);
    assert_eq!(
        line.len(),
        plies,
        "a line of {plies} plies from seed {seed}"
    );
    line.into_iter()
        .map(|m| {
            let text = format_move(&pos, m, Notation::Uci);
            pos.play_unchecked(m);
            text
        })
        .collect()
}

/// Bytes on disk under `path` (files only, recursively): the disk growth an attack caused.
pub fn disk_bytes(path: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(path) else {
        return std::fs::metadata(path).map_or(0, |m| m.len());
    };
    entries
        .filter_map(Result::ok)
        .map(|e| {
            let p = e.path();
            if p.is_dir() {
                disk_bytes(&p)
            } else {
                e.metadata().map_or(0, |m| m.len())
            }
        })
        .sum()
}
