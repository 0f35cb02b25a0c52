//! Phase 6, `hub`: a mailbox holding many games others play (issue 30, Tier 0), in its own
//! process: how long it takes to start, its CPU while idle with many peers connected, and
//! its CPU per connection in a reconnect storm of those games' players.
//!
//! The storm's players are bare network actors under the players' keys: they answer no
//! request, so the mailbox takes its slowest path for each (its `GamesSince` unanswered, it
//! syncs every game it holds with that player, each sync answered "no answer"). A real
//! player's node answers `GamesSince`, and the mailbox then syncs only what changed.

use crate::games::{key, preload, signed_games};
use crate::nodes::Node;
use crate::peers::{client_peers, client_peers_as, shutdown_peers};
use crate::table::Row;
use crate::{Res, Sizes};
use sobre_node::home;
use sobre_node::time::now_ms;
use std::time::{Duration, Instant};

/// Players of the hub's games: each plays about `2 × games / PLAYERS` of them.
const PLAYERS: usize = 100;

pub async fn phase_hub(s: Sizes) -> Res<Vec<Row>> {
    let p = "6 hub";
    let dir = tempfile::tempdir()?;
    home::init_key(dir.path())?;
    let t0 = now_ms() - 3_600_000;
    let games = tokio::task::spawn_blocking(move || {
        signed_games(s.hub_games, 2, t0, |i| {
            let white = i % PLAYERS;
            let black = (white + 1 + (i / PLAYERS) % (PLAYERS - 1)) % PLAYERS;
            (key(6, white as u64), key(6, black as u64))
        })
    })
    .await?;
    preload(dir.path(), &games).await?;
    drop(games);

    let started = Instant::now();
    let hub = Node::start_process(dir, true).await?;
    let start_s = started.elapsed().as_secs_f64();
    let (_, addr) = hub.id().await?;

    let (idle_peers, _) = client_peers(s.hub_peers, &addr).await?;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let c0 = hub.cpu_seconds().ok_or("no hub cpu")?;
    let window = s.hub_idle;
    tokio::time::sleep(window).await;
    let c1 = hub.cpu_seconds().ok_or("no hub cpu")?;
    let idle_pct = (c1 - c0) / window.as_secs_f64() * 100.0;
    shutdown_peers(idle_peers).await;
    tokio::time::sleep(Duration::from_secs(2)).await;

    let c2 = hub.cpu_seconds().ok_or("no hub cpu")?;
    let storm_at = Instant::now();
    let keys = (0..PLAYERS).map(|i| key(6, i as u64)).collect();
    let (players, _) = client_peers_as(keys, &addr).await?;
    let connected_s = storm_at.elapsed().as_secs_f64();
    // Until the hub is quiet again: a second with under 2% of a core.
    let mut last = hub.cpu_seconds().ok_or("no hub cpu")?;
    let settle_deadline = Instant::now() + Duration::from_secs(60);
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = hub.cpu_seconds().ok_or("no hub cpu")?;
        if now - last < 0.02 || Instant::now() > settle_deadline {
            last = now;
            break;
        }
        last = now;
    }
    let served_s = storm_at.elapsed().as_secs_f64();
    let per_connection_ms = (last - c2) / PLAYERS as f64 * 1000.0;
    shutdown_peers(players).await;
    hub.stop().await;

    Ok(vec![
        Row::info(
            p,
            format!("mailbox start with {} games held for others", s.hub_games),
            format!("{start_s:.2} s"),
        ),
        Row::check(
            p,
            format!("idle CPU, {} peers connected", s.hub_peers),
            format!("{idle_pct:.2} % of a core"),
            "< 1 %",
            idle_pct < 1.0,
        ),
        Row::info(
            p,
            format!("reconnect storm: {PLAYERS} players connected in"),
            format!("{connected_s:.2} s"),
        ),
        Row::info(
            p,
            "… served (hub quiet again) after",
            format!("{served_s:.2} s"),
        ),
        Row::check(
            p,
            "… hub CPU per connection (no GamesSince answer: every game synced)",
            format!("{per_connection_ms:.2} ms"),
            "< 5 ms",
            per_connection_ms < 5.0,
        ),
    ])
}
