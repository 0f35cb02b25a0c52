//! The board's figures (docs/performance.md): how long the page takes to load, and a
//! move's round trip from the mouse button's release on one player's board to the
//! opponent's board showing it. Two nodes in this process, two headless Chromiums
//! driven over WebDriver (as the board's tests, `tests/common/browser.rs`).
//!
//!     cargo run --example board_bench [-- LOADS MOVES]
//!
//! Needs Chromium and chromedriver (Debian: chromium, chromium-driver).

#[path = "../tests/common/browser.rs"]
#[allow(dead_code)]
mod browser;

use browser::Browser;
use serde_json::Value;
use sobre_node::api::request;
use sobre_node::client::Client;
use sobre_node::service::{NodeConfig, run};
use std::path::Path;
use std::time::Duration;

/// Creates a player key in `home`, starts its node and waits for its control socket.
async fn start(home: &Path) -> anyhow::Result<Client> {
    sobre_node::home::init_key(home)?;
    let config = NodeConfig {
        home: home.to_path_buf(),
        listen: vec!["/ip4/127.0.0.1/tcp/0".into()],
        ..NodeConfig::default()
    };
    tokio::spawn(async move {
        if let Err(e) = run(config, std::future::pending()).await {
            eprintln!("node stopped: {e}");
        }
    });
    let client = Client::new(home);
    while client.send(request::Id {}).await.is_err() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(client)
}

/// Waits until the game in `client`'s node satisfies `ready`.
async fn wait(client: &Client, game: &str, ready: impl Fn(&sobre_node::api::GameView) -> bool) {
    loop {
        if let Ok(v) = client.send(request::Show { game: game.into() }).await
            && ready(&v)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn summary(name: &str, v: &[f64]) {
    let max = v.iter().copied().fold(f64::MIN, f64::max);
    let min = v.iter().copied().fold(f64::MAX, f64::min);
    println!(
        "{name}: median {:.0} ms, min {min:.0} ms, max {max:.0} ms ({} samples)",
        median(v.to_vec()),
        v.len()
    );
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let loads: usize = args.next().map_or(Ok(20), |a| a.parse())?;
    let moves: usize = args.next().map_or(Ok(12), |a| a.parse())?;
    let dir = tempfile::tempdir()?;
    let (ana, bea) = (
        start(&dir.path().join("ana")).await?,
        start(&dir.path().join("bea")).await?,
    );
    let bea_id = bea.send(request::Id {}).await?;
    ana.send(request::Connect {
        addr: bea_id.addresses[0].clone(),
    })
    .await?;
    let game = ana
        .send(request::Challenge {
            opponent: bea_id.player_id.clone(),
            color: sobre_core::record::ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            chess960: false,
            fen: None,
            terms: Default::default(),
        })
        .await?
        .game;
    wait(&bea, &game, |v| {
        v.status == sobre_core::record::Status::Pending
    })
    .await;
    bea.send(request::Accept {
        game: game.clone(),
        color: None,
        position: None,
    })
    .await?;
    wait(&ana, &game, |v| {
        v.status == sobre_core::record::Status::Active
    })
    .await;

    let (a, b) = (
        Browser::start(1000, 1000).await,
        Browser::start(1000, 1000).await,
    );

    // The first load of the page from a one-time URL: every file is served uncached
    // (`Cache-Control: no-store`), so each load is a first load.
    let mut loaded = Vec::new();
    let mut ready = Vec::new();
    for _ in 0..loads {
        let url = ana.send(request::Board {}).await?.url;
        a.client.goto(&url).await?;
        a.wait("the page", "document.body.dataset.ready === 'true'")
            .await;
        let t = a
            .js("const n = performance.getEntriesByType('navigation')[0]; \
                 return [n.loadEventEnd, performance.getEntriesByName('sobre-ready')[0].startTime]")
            .await;
        loaded.push(t[0].as_f64().unwrap_or(f64::NAN));
        ready.push(t[1].as_f64().unwrap_or(f64::NAN));
    }
    summary(
        "first load, page and its modules loaded (load event)",
        &loaded,
    );
    summary("first load, games list shown (page ready)", &ready);

    // A move's round trip: the mouse button released on one board, the move signed,
    // stored and delivered by the node, the other node's event pushed to its page, and
    // that page's board redrawn. The knights go back and forth (no fivefold repetition
    // within 16 plies).
    b.client
        .goto(&bea.send(request::Board {}).await?.url)
        .await?;
    b.wait("the page", "document.body.dataset.ready === 'true'")
        .await;
    for browser in [&a, &b] {
        let button = format!("#game-list button[data-game='{game}']");
        browser.click(&button).await;
        browser
            .wait("the board", "!document.getElementById('game').hidden")
            .await;
        browser
            .js("window.addEventListener('pointerup', () => { window.upAt = Date.now() }, true)")
            .await;
    }
    let line = [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")];
    let mut trips = Vec::new();
    for ply in 0..moves {
        let (mover, other) = if ply % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let (from, to) = line[ply % line.len()];
        mover
            .wait(
                "the mover's turn",
                "document.getElementById('move-form').hidden === false",
            )
            .await;
        mover.drag(from, to).await;
        other
            .wait(
                "the move on the other board",
                &format!(
                    "document.getElementById('board').dataset.plies === '{}'",
                    ply + 1
                ),
            )
            .await;
        let up: Value = mover.js("return window.upAt").await;
        let drawn: Value = other.js("return window.drawnAt").await;
        trips.push(drawn.as_f64().unwrap_or(f64::NAN) - up.as_f64().unwrap_or(f64::NAN));
    }
    summary(
        "move round trip, release on one board to the other board redrawn",
        &trips,
    );
    ana.send(request::Stop {}).await?;
    bea.send(request::Stop {}).await?;
    Ok(())
}
