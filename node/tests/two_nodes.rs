//! Real nodes (libp2p over loopback TCP, sled on disk, the control socket) in one process:
//! two players play complete games through the control API.

use serde_json::Value;
use sobre_node::api::ApiRequest;
use sobre_node::client;
use sobre_node::service::{NodeConfig, run};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::sync::oneshot;

struct TestNode {
    home: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl TestNode {
    async fn start(home: &Path, extra: impl FnOnce(&mut NodeConfig)) -> TestNode {
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
        // Wait for the control socket.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while client::call(&node.home, ApiRequest::Id).await.is_err() {
            assert!(tokio::time::Instant::now() < deadline, "node did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        node
    }

    async fn call(&self, r: ApiRequest) -> Value {
        match client::call(&self.home, r.clone()).await {
            Ok(v) => v,
            Err(e) => panic!("{r:?}: {e}"),
        }
    }

    async fn try_call(&self, r: ApiRequest) -> Result<Value, String> {
        client::call(&self.home, r).await.map_err(|e| e.to_string())
    }

    async fn id(&self) -> (String, Vec<String>) {
        let v = self.call(ApiRequest::Id).await;
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

    /// Polls `show` until `pred` holds (the network is asynchronous).
    async fn wait_for(&self, game: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(v) = self.try_call(ApiRequest::Show { game: game.into() }).await
                && pred(&v)
            {
                return v;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "timed out waiting for {what}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(20), t).await;
        }
    }
}

fn tcp_addr(addrs: &[String]) -> String {
    addrs
        .iter()
        .find(|a| a.contains("/127.0.0.1/tcp/"))
        .cloned()
        .unwrap_or_else(|| addrs[0].clone())
}

async fn play(white: &TestNode, black: &TestNode, game: &str, moves: &[&str]) {
    for (i, m) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (white, black)
        } else {
            (black, white)
        };
        let expect = i + 1;
        // The mover must have received the previous move.
        mover
            .wait_for(game, "the previous move", |v| {
                v["plies"].as_u64() == Some(i as u64)
            })
            .await;
        mover
            .call(ApiRequest::Move {
                game: game.into(),
                text: (*m).into(),
            })
            .await;
        other
            .wait_for(game, "the move to arrive", |v| {
                v["plies"].as_u64() == Some(expect as u64)
            })
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_play_a_complete_game_to_mate_with_identical_logs() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start(da.path(), |_| {}).await;
    let b = TestNode::start(db.path(), |_| {}).await;
    let (a_id, _) = a.id().await;
    let (b_id, b_addrs) = b.id().await;
    a.call(ApiRequest::Connect {
        addr: tcp_addr(&b_addrs),
    })
    .await;
    let ch = a
        .call(ApiRequest::Challenge {
            opponent: b_id.clone(),
            color: "white".into(),
            time_control: "3d".into(),
            chess960: false,
            fen: None,
        })
        .await;
    let game = ch["game"].as_str().unwrap().to_owned();
    b.wait_for(&game, "the challenge", |v| v["status"] == "pending")
        .await;
    b.call(ApiRequest::Accept { game: game.clone() }).await;
    a.wait_for(&game, "the acceptance", |v| v["status"] == "active")
        .await;
    // Spanish and English notation, as players write it.
    play(
        &a,
        &b,
        &game,
        &["e4", "e5", "Ac4", "Cc6", "Dh5", "Nf6", "Qxf7#"],
    )
    .await;
    let va = a
        .wait_for(&game, "the end", |v| v["status"] == "finished")
        .await;
    let vb = b
        .wait_for(&game, "the end", |v| v["status"] == "finished")
        .await;
    assert_eq!(va["result"], "1-0");
    assert_eq!(va["termination"], "checkmate");
    assert_eq!(va["moves"], vb["moves"]);
    assert_eq!(va["fen"], vb["fen"]);
    assert_eq!(va["white"].as_str(), Some(a_id.as_str()));
    // Both archives verify to the same game.
    let ea = a
        .call(ApiRequest::Export {
            game: game.clone(),
            format: "archive".into(),
        })
        .await;
    let eb = b
        .call(ApiRequest::Export {
            game: game.clone(),
            format: "archive".into(),
        })
        .await;
    let sa = sobre_core::record::read_archive(ea["archive"].as_str().unwrap()).unwrap();
    let sb = sobre_core::record::read_archive(eb["archive"].as_str().unwrap()).unwrap();
    let (ga, gb) = (
        sobre_core::record::verify(&sa.events).unwrap(),
        sobre_core::record::verify(&sb.events).unwrap(),
    );
    assert_eq!(ga.position, gb.position);
    assert_eq!(ga.result, gb.result);
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_made_while_the_opponent_is_offline_arrives_when_it_starts() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start(da.path(), |_| {}).await;
    let b = TestNode::start(db.path(), |c| {
        c.listen = vec!["/ip4/127.0.0.1/tcp/0".into()]
    })
    .await;
    let (_, a_addrs) = a.id().await;
    let (b_id, b_addrs) = b.id().await;
    a.call(ApiRequest::Connect {
        addr: tcp_addr(&b_addrs),
    })
    .await;
    let ch = a
        .call(ApiRequest::Challenge {
            opponent: b_id.clone(),
            color: "white".into(),
            time_control: "3d".into(),
            chess960: false,
            fen: None,
        })
        .await;
    let game = ch["game"].as_str().unwrap().to_owned();
    b.wait_for(&game, "the challenge", |v| v["status"] == "pending")
        .await;
    b.call(ApiRequest::Accept { game: game.clone() }).await;
    a.wait_for(&game, "the acceptance", |v| v["status"] == "active")
        .await;
    // Black goes offline; White moves.
    b.stop().await;
    a.call(ApiRequest::Move {
        game: game.clone(),
        text: "d4".into(),
    })
    .await;
    // Black starts again later, knowing only White's address (bootstrap), and gets the move
    // without anyone retyping anything.
    let b = TestNode::start(db.path(), |c| c.bootstrap = vec![tcp_addr(&a_addrs)]).await;
    let v = b
        .wait_for(&game, "the move made while offline", |v| v["plies"] == 1)
        .await;
    assert_eq!(v["moves"][0], "d2d4");
    a.stop().await;
    b.stop().await;
}
