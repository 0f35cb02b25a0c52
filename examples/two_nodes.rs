//! A game in a few lines: two sobre nodes in one process, on loopback, play Scholar's mate.
//!
//! Each node is `sobre_node::service::run` in a tokio task with its own home directory (a
//! player key, a database and a control socket). Everything a player does goes through the
//! control API with `sobre_node::client::call`, exactly as the `sobre` command does.
//!
//!     cargo run --example two_nodes

use serde_json::Value;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::client::call;
use sobre_node::service::{NodeConfig, run};
use std::path::Path;
use std::time::Duration;

/// Creates a player key in `home`, starts its node and waits for its control socket.
async fn start(home: &Path) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    sobre_node::home::init_key(home)?;
    let config = NodeConfig {
        home: home.to_path_buf(),
        listen: vec!["/ip4/127.0.0.1/tcp/0".into()],
        ..NodeConfig::default()
    };
    // The node runs until it is sent `ApiRequest::Stop`.
    let node = tokio::spawn(async move {
        if let Err(e) = run(config, std::future::pending()).await {
            eprintln!("node stopped: {e}");
        }
    });
    while call(home, ApiRequest::Id(request::Id {})).await.is_err() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(node)
}

/// Polls the game in `home` until `ready` holds: events travel asynchronously.
async fn wait(home: &Path, game: &str, ready: impl Fn(&Value) -> bool) -> anyhow::Result<Value> {
    for _ in 0..400 {
        if let Ok(v) = call(home, ApiRequest::Show(request::Show { game: game.into() })).await
            && ready(&v)
        {
            return Ok(v);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::bail!("timed out waiting for the other node")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let (ana, bea) = (dir.path().join("ana"), dir.path().join("bea"));
    let nodes = [start(&ana).await?, start(&bea).await?];

    // Ana dials Bea's node and challenges her: Ana has White, 3 days per move.
    let bea_id = call(&bea, ApiRequest::Id(request::Id {})).await?;
    let addr = bea_id["addresses"][0]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    call(&ana, ApiRequest::Connect(request::Connect { addr })).await?;
    let challenge = ApiRequest::Challenge(request::Challenge {
        opponent: bea_id["player_id"].as_str().unwrap_or_default().to_owned(),
        color: sobre_core::record::ColourChoice::ChallengerWhite,
        time_control: "3d".into(),
        chess960: false,
        fen: None,
        terms: Default::default(),
    });
    let game = call(&ana, challenge).await?["game"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    println!("game {game}");

    // Bea's node receives the signed challenge; she accepts.
    wait(&bea, &game, |v| v["status"] == "pending").await?;
    call(
        &bea,
        ApiRequest::Accept(request::Accept {
            game: game.clone(),
            color: None,
            position: None,
        }),
    )
    .await?;

    // The moves, in any notation (here English and Spanish SAN). Each player waits until
    // the opponent's move has arrived, then signs and sends the next one.
    let moves = ["e4", "e5", "Ac4", "Cc6", "Dh5", "Nf6", "Qxf7#"];
    for (ply, text) in moves.into_iter().enumerate() {
        let player = if ply % 2 == 0 { &ana } else { &bea };
        wait(player, &game, |v| {
            v["plies"] == ply && v["status"] == "active"
        })
        .await?;
        let v = call(
            player,
            ApiRequest::Move(request::Move {
                game: game.clone(),
                text: text.into(),
                notation: None,
            }),
        )
        .await?;
        let san = v["san"][ply].as_str().unwrap_or(text);
        if ply % 2 == 0 {
            print!("{}. {san}", ply / 2 + 1);
        } else {
            println!(" {san}");
        }
    }
    println!();

    // Both nodes checked every move with the rules; both reach the same result.
    let end = wait(&bea, &game, |v| v["status"] == "finished").await?;
    println!(
        "result {} ({})",
        end["result"].as_str().unwrap_or("*"),
        end["termination_text"].as_str().unwrap_or("")
    );

    for home in [&ana, &bea] {
        call(home, ApiRequest::Stop(request::Stop {})).await?;
    }
    for node in nodes {
        node.await?;
    }
    Ok(())
}
