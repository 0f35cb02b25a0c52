//! Phase 6, `hub`: a mailbox holding many games others play (issue 30, Tier 0), in its own
//! process: how long it takes to start, its CPU while idle with many peers connected, and
//! its CPU per connection in a reconnect storm of those games' players.
//!
//! Two storms. First the worst case: bare network actors under the players' keys that
//! answer no request, so the mailbox takes its slowest path for each (its `GamesSince`
//! unanswered, it syncs every game it holds with that player, each sync answered "no
//! answer"). Then the realistic one: the players' own nodes (real nodes in this process,
//! under the players' keys, each holding its games as the mailbox does and naming it its
//! mailbox) start and connect. Each answers the mailbox's `GamesSince` with its games'
//! heads, so the mailbox syncs only what changed (here nothing), and asks its own
//! (`GamesSince` from the mailbox, its instance record, its profile), as after an outage.

use crate::games::{key, preload, signed_games};
use crate::nodes::Node;
use crate::peers::{client_peers, client_peers_as, shutdown_peers};
use crate::table::Row;
use crate::{Res, Sizes};
use futures::{StreamExt, TryStreamExt};
use sobre_core::record::{PlayerId, SignedEvent};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::home;
use sobre_node::time::now_ms;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Players of the hub's games: each plays about `2 × games / PLAYERS` of them.
const PLAYERS: usize = 100;
/// The players' nodes starting at once in the second storm.
const STARTING_AT_ONCE: usize = 16;

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
    // Each player's node holds its games as the hub does.
    let mut by_player: HashMap<PlayerId, Vec<Vec<SignedEvent>>> = HashMap::new();
    for g in games {
        let players: Vec<PlayerId> = g[..2]
            .iter()
            .filter_map(|e| Some(e.decode_unverified().ok()?.author))
            .collect();
        for p in players {
            by_player.entry(p).or_default().push(g.clone());
        }
    }

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
    let last = quiet(&hub).await?;
    let served_s = storm_at.elapsed().as_secs_f64();
    let per_connection_ms = (last - c2) / PLAYERS as f64 * 1000.0;
    shutdown_peers(players).await;

    // The players' own nodes, their homes ready before the storm: key and games.
    let mut homes = Vec::with_capacity(PLAYERS);
    for i in 0..PLAYERS {
        let k = key(6, i as u64);
        let dir = tempfile::tempdir()?;
        home::install_key(dir.path(), &k, false)?;
        let held = by_player.remove(&k.player_id()).unwrap_or_default();
        preload(dir.path(), &held).await?;
        homes.push(dir);
    }
    drop(by_player);
    tokio::time::sleep(Duration::from_secs(2)).await;
    quiet(&hub).await?;
    let c3 = hub.cpu_seconds().ok_or("no hub cpu")?;
    eprintln!("[hub] storm of the players' own nodes");
    let storm_at = Instant::now();
    // A few at a time: all at once, some dials meet the hub's limit of pending incoming
    // connections (and such a node waits for its next redial to reach its mailbox).
    let nodes: Vec<Node> = futures::stream::iter(homes.into_iter().map(|dir| {
        let mailbox = addr.clone();
        Node::start_with(dir, false, move |c| c.mailboxes = vec![mailbox])
    }))
    .buffer_unordered(STARTING_AT_ONCE)
    .try_collect()
    .await?;
    let nodes_up_s = storm_at.elapsed().as_secs_f64();
    let last = quiet(&hub).await?;
    let nodes_served_s = storm_at.elapsed().as_secs_f64();
    eprintln!("[hub] storm served");
    // Per connection made: a node that could not reach the hub cost it nothing.
    let ids: Vec<String> = (0..PLAYERS)
        .map(|i| key(6, i as u64).player_id().to_string())
        .collect();
    let peers = hub.call(ApiRequest::Peers(request::Peers {})).await?;
    let connected = peers["connected"].as_array().map_or(0, |c| {
        c.iter()
            .filter(|p| {
                p["peer"]
                    .as_str()
                    .is_some_and(|v| ids.iter().any(|id| id == v))
            })
            .count()
    });
    let answered_ms = (last - c3) / connected.max(1) as f64 * 1000.0;
    futures::future::join_all(nodes.into_iter().map(Node::stop)).await;
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
        Row::info(
            p,
            "… hub CPU per connection, worst case (no GamesSince answer: every game synced)",
            format!("{per_connection_ms:.2} ms"),
        ),
        Row::info(
            p,
            format!(
                "reconnect storm of the players' own nodes: {PLAYERS} nodes started ({STARTING_AT_ONCE} at a time, each verifies its games) in"
            ),
            format!("{nodes_up_s:.2} s"),
        ),
        Row::info(
            p,
            "… of which connected to the hub",
            format!("{connected}/{PLAYERS}"),
        ),
        Row::info(
            p,
            "… served (hub quiet again) after",
            format!("{nodes_served_s:.2} s"),
        ),
        Row::check(
            p,
            "… hub CPU per connection (GamesSince answered as a player's node does)",
            format!("{answered_ms:.2} ms"),
            "< 5 ms",
            answered_ms < 5.0,
        ),
    ])
}

/// Waits until the hub is quiet (a second with under 2% of a core, at most a minute) and
/// returns its CPU seconds then.
async fn quiet(hub: &Node) -> Res<f64> {
    let mut last = hub.cpu_seconds().ok_or("no hub cpu")?;
    let settle_deadline = Instant::now() + Duration::from_secs(60);
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = hub.cpu_seconds().ok_or("no hub cpu")?;
        if now - last < 0.02 || Instant::now() > settle_deadline {
            return Ok(now);
        }
        last = now;
    }
}
