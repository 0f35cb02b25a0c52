//! A small club league in one process: an organiser's node (the league's mailbox and
//! witness) and four players' nodes on loopback play a round robin (Berger tables), and
//! the standings are computed from the signed games.
//!
//! Each node is `sobre_node::service::run` in a tokio task with its own home; everything
//! goes through the control API, as the `sobre league …` commands do.
//!
//!     cargo run --example league

use serde_json::Value;
use sobre_core::league::{archive, render, standings};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::client::call;
use sobre_node::service::{NodeConfig, run};
use std::path::{Path, PathBuf};
use std::time::Duration;

async fn start(home: &Path, mailbox: bool, mailboxes: Vec<String>) -> anyhow::Result<String> {
    sobre_node::home::init_key(home)?;
    let config = NodeConfig {
        home: home.to_path_buf(),
        listen: vec!["/ip4/127.0.0.1/tcp/0".into()],
        mailbox,
        mailboxes,
        ..NodeConfig::default()
    };
    tokio::spawn(async move {
        if let Err(e) = run(config, std::future::pending()).await {
            eprintln!("node stopped: {e}");
        }
    });
    loop {
        if let Ok(v) = call(home, ApiRequest::Id(request::Id {})).await
            && let Some(a) = v["addresses"][0].as_str()
        {
            return Ok(a.to_owned());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn until<T>(mut f: impl AsyncFnMut() -> Option<T>) -> anyhow::Result<T> {
    for _ in 0..1200 {
        if let Some(v) = f().await {
            return Ok(v);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::bail!("timed out waiting for the nodes")
}

async fn plies(home: &Path, game: &str) -> Option<u64> {
    call(home, ApiRequest::Show(request::Show { game: game.into() }))
        .await
        .ok()?["plies"]
        .as_u64()
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let org = dir.path().join("organiser");
    let org_addr = start(&org, true, Vec::new()).await?;
    let names = ["Ana", "Bruno", "Carmen", "Diego"];
    let mut homes: Vec<PathBuf> = Vec::new();
    let mut ids = Vec::new();
    for n in names {
        let home = dir.path().join(n);
        start(&home, false, vec![org_addr.clone()]).await?;
        ids.push(
            call(&home, ApiRequest::Id(request::Id {})).await?["player_id"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        );
        homes.push(home);
    }

    // The organiser signs the league; every round opens at once.
    let league = call(
        &org,
        ApiRequest::LeagueCreate(request::LeagueCreate {
            name: "Liga relámpago".into(),
            players: ids.clone(),
            names: names.map(String::from).to_vec(),
            double: false,
            time_control: "3d".into(),
            round_days: 0,
            start_ms: None,
            deputy: None,
            start_deadline_ms: None,
        }),
    )
    .await?;
    let lid = league["league"].as_str().unwrap_or_default().to_owned();
    println!("league {lid}");

    // Each player's node receives it; the player joins, which accepts its games.
    for home in &homes {
        until(async || {
            let v = call(home, ApiRequest::LeagueList(request::LeagueList {}))
                .await
                .ok()?;
            (v["leagues"][0]["league"] == lid.as_str()).then_some(())
        })
        .await?;
        call(
            home,
            ApiRequest::LeagueJoin(request::LeagueJoin {
                league: lid.clone(),
            }),
        )
        .await?;
    }

    // The nodes challenge and accept the six games by themselves.
    let games: Vec<(String, usize, usize)> = until(async || {
        let v = call(
            &org,
            ApiRequest::LeagueExport(request::LeagueExport {
                league: lid.clone(),
            }),
        )
        .await
        .ok()?;
        let a = archive::read(v["archive"].as_str()?).ok()?;
        let s = standings(&a.league, &a.games, u64::MAX);
        let active = s
            .games
            .iter()
            .filter(|g| g.status.name() == "active")
            .count();
        (active == 6).then(|| {
            s.games
                .iter()
                .map(|g| {
                    let n = |p: &sobre_core::record::PlayerId| {
                        ids.iter().position(|i| *i == p.to_string()).unwrap_or(0)
                    };
                    (g.game.to_hex(), n(&g.white), n(&g.black))
                })
                .collect()
        })
    })
    .await?;

    // Every game: 1.e4 e5, then the lower-numbered player wins (the other resigns), except
    // in the last round's games, which are drawn.
    for (i, (game, w, b)) in games.iter().enumerate() {
        for (ply, (mover, text)) in [(*w, "e4"), (*b, "e5")].into_iter().enumerate() {
            until(async || (plies(&homes[mover], game).await == Some(ply as u64)).then_some(()))
                .await?;
            call(
                &homes[mover],
                ApiRequest::Move(request::Move {
                    game: game.clone(),
                    text: text.into(),
                    notation: None,
                }),
            )
            .await?;
        }
        until(async || (plies(&homes[*w], game).await == Some(2)).then_some(())).await?;
        if i >= 4 {
            call(
                &homes[*w],
                ApiRequest::Draw(request::Draw {
                    game: game.clone(),
                    action: sobre_node::api::DrawAction::Offer,
                }),
            )
            .await?;
            until(async || {
                let v = call(
                    &homes[*b],
                    ApiRequest::Show(request::Show { game: game.clone() }),
                )
                .await
                .ok()?;
                (!v["draw_offer"].is_null()).then_some(())
            })
            .await?;
            call(
                &homes[*b],
                ApiRequest::Draw(request::Draw {
                    game: game.clone(),
                    action: sobre_node::api::DrawAction::Accept,
                }),
            )
            .await?;
        } else {
            let loser = if w > b { *w } else { *b };
            call(
                &homes[loser],
                ApiRequest::Resign(request::Resign { game: game.clone() }),
            )
            .await?;
        }
    }

    // The organiser's copy of every signed game gives the table.
    let table = until(async || {
        let v = call(
            &org,
            ApiRequest::LeagueExport(request::LeagueExport {
                league: lid.clone(),
            }),
        )
        .await
        .ok()?;
        let a = archive::read(v["archive"].as_str()?).ok()?;
        let s = standings(&a.league, &a.games, u64::MAX);
        (s.games.iter().filter(|g| g.result.is_some()).count() == 6).then_some(s)
    })
    .await?;
    for row in render::grid(&table) {
        println!(
            "{}",
            row.iter().map(|c| format!("{c:>8}")).collect::<String>()
        );
    }

    for home in homes.iter().chain([&org]) {
        let _: Value = call(home, ApiRequest::Stop(request::Stop {})).await?;
    }
    Ok(())
}
