//! An adjourned game (FIDE Appendix A) between two sobre nodes in one process: the player to
//! move seals a move, the envelope is shown, the opponent comes to the resumption, and the
//! sealer's node opens the envelope and plays the sealed move.
//!
//!     cargo run --example sealed_move

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

/// Plays `text` for the player in `home` once it is their move at ply `ply`.
async fn play(home: &Path, game: &str, ply: usize, text: &str) -> anyhow::Result<()> {
    wait(home, game, |v| v["plies"] == ply && v["my_move"] == true).await?;
    let request = ApiRequest::Move(request::Move {
        game: game.into(),
        text: text.into(),
        notation: None,
    });
    call(home, request).await?;
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let (ana, bea) = (dir.path().join("ana"), dir.path().join("bea"));
    let nodes = [start(&ana).await?, start(&bea).await?];

    // Connect, challenge (Ana White, over the board: 40 moves in 2 hours, then 1 hour),
    // accept, and open with 1. e4 e5.
    let bea_id = call(&bea, ApiRequest::Id(request::Id {})).await?;
    let addr = bea_id["addresses"][0]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    call(&ana, ApiRequest::Connect(request::Connect { addr })).await?;
    let challenge = ApiRequest::Challenge(request::Challenge {
        opponent: bea_id["player_id"].as_str().unwrap_or_default().to_owned(),
        color: sobre_core::record::ColourChoice::ChallengerWhite,
        time_control: "40/2h:1h".into(),
        chess960: false,
        fen: None,
        terms: Default::default(),
    });
    let game = call(&ana, challenge).await?["game"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
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
    play(&ana, &game, 0, "e4").await?;
    play(&bea, &game, 1, "e5").await?;

    // A1: Ana, to move, seals her move (Spanish SAN) instead of playing it. The node keeps
    // the move secret and publishes only a commitment to it, with the envelope's data (A2).
    wait(&ana, &game, |v| v["plies"] == 2 && v["my_move"] == true).await?;
    let resume_at_ms = sobre_node::time::now_ms() + 86_400_000;
    let adjourn = ApiRequest::Adjourn(request::Adjourn {
        game: game.clone(),
        seal: "Cf3".into(),
        resume_at_ms: Some(resume_at_ms),
        place: Some("Club room 2".into()),
        force: false,
        notation: None,
        arbiter: None,
        arbiter_setting: None,
        no_arbiter: false,
    });
    call(&ana, adjourn).await?;
    wait(&bea, &game, |v| v["status"] == "adjourned").await?;
    let envelope = call(
        &bea,
        ApiRequest::Envelope(request::Envelope { game: game.clone() }),
    )
    .await?;
    println!("the envelope as Bea sees it:\n{:#}", envelope["envelope"]);

    // A7: at the resumption Bea announces she is present; Ana's node then opens the
    // envelope: the sealed move is revealed, checked against the commitment, and played.
    // Before the agreed time it opens only with both present (A2.7): Ana is back too.
    call(
        &bea,
        ApiRequest::Resume(request::Resume { game: game.clone() }),
    )
    .await?;
    call(
        &ana,
        ApiRequest::Resume(request::Resume { game: game.clone() }),
    )
    .await?;
    let v = wait(&bea, &game, |v| v["status"] == "active" && v["plies"] == 3).await?;
    // Once opened, the envelope shows the move as it was written.
    let written = v["envelope"]["opened"].as_str().unwrap_or("?");
    println!("the envelope, opened, says: {written}");
    println!(
        "sealed move played: {} ({})",
        v["san"][2].as_str().unwrap_or("?"),
        v["last_move"].as_str().unwrap_or("?")
    );
    println!(
        "moves: {}",
        v["san"]
            .as_array()
            .map(|s| s
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" "))
            .unwrap_or_default()
    );
    println!(
        "status: {}, {} to move",
        v["status"].as_str().unwrap_or("?"),
        v["turn"].as_str().unwrap_or("?")
    );

    for home in [&ana, &bea] {
        call(home, ApiRequest::Stop(request::Stop {})).await?;
    }
    for node in nodes {
        node.await?;
    }
    Ok(())
}
