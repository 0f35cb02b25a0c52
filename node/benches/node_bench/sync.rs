//! Catch-up of many games from a node: `Games`, then one `Sync` per game, every game
//! verified by the fetcher.

use crate::games::{key, preload, signed_games};
use crate::nodes::Node;
use crate::peers::{Peer, client_peers, client_peers_as, shutdown_peers};
use crate::table::Row;
use crate::{IN_FLIGHT, Res, Sizes};
use futures::StreamExt;
use sobre_core::record::{GameId, PlayerId, SignedEvent, verify};
use sobre_node::home;
use sobre_node::network::NetworkHandle;
use sobre_node::protocol::{Request, Response};
use sobre_node::time::now_ms;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Fetches `games` with one `Sync` each, `IN_FLIGHT` at a time, spread over `peers`
/// (request `i` through peer `i % len`), verifying each game. Returns (events, games
/// verified, refusals by reason).
async fn fetch_games(
    peers: &[Peer],
    server: libp2p::PeerId,
    games: &[GameId],
    plies: usize,
) -> (usize, usize, BTreeMap<String, usize>) {
    let next = AtomicUsize::new(1);
    let results = futures::stream::iter(games.iter().map(|&game| {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let net = peers[i % peers.len()].net.clone();
        async move {
            let r = net
                .request(
                    server,
                    Request::Sync {
                        game,
                        have: Vec::new(),
                    },
                )
                .await;
            match r {
                Ok(Response::Events { events }) => {
                    let decoded: Result<Vec<SignedEvent>, _> =
                        events.iter().map(|b| SignedEvent::from_bytes(b)).collect();
                    match decoded.map_err(|e| e.to_string()).and_then(|d| {
                        verify(&d)
                            .map(|st| (d.len(), st))
                            .map_err(|e| e.to_string())
                    }) {
                        Ok((n, st)) if st.moves.len() == plies => Ok(n),
                        Ok((_, st)) => Err(format!("{} plies, not {plies}", st.moves.len())),
                        Err(e) => Err(format!("does not verify: {e}")),
                    }
                }
                Ok(other) => Err(format!("{other:?}")),
                Err(e) => Err(e.to_string()),
            }
        }
    }))
    .buffer_unordered(IN_FLIGHT)
    .collect::<Vec<_>>()
    .await;
    let mut events = 0;
    let mut ok = 0;
    let mut failed = BTreeMap::new();
    for r in results {
        match r {
            Ok(n) => {
                events += n;
                ok += 1;
            }
            Err(e) => *failed.entry(e.chars().take(60).collect()).or_default() += 1,
        }
    }
    (events, ok, failed)
}

async fn list_games(
    net: &NetworkHandle,
    server: libp2p::PeerId,
    player: PlayerId,
) -> Res<Vec<GameId>> {
    match net.request(server, Request::Games { player }).await? {
        Response::Games { games } => Ok(games),
        other => Err(format!("unexpected answer to Games: {other:?}").into()),
    }
}

pub async fn phase_sync(s: Sizes) -> Res<Vec<Row>> {
    let p = "3 catch-up";
    let t_author = Instant::now();
    let t0 = now_ms() - 6 * 3_600_000;
    let player = key(3, 0);
    let pid = player.player_id();
    let games = tokio::task::spawn_blocking(move || {
        signed_games(s.sync_games, s.sync_plies, t0, |i| {
            (key(3, 0), key(3, 1 + (i % 50) as u64))
        })
    })
    .await?;
    let author_s = t_author.elapsed().as_secs_f64();
    let n_events: usize = games.iter().map(Vec::len).sum();
    let dir = tempfile::tempdir()?;
    home::init_key(dir.path())?;
    let t_pre = Instant::now();
    preload(dir.path(), &games).await?;
    let preload_s = t_pre.elapsed().as_secs_f64();
    drop(games);
    let t_start = Instant::now();
    let server_node = Node::start(dir, true).await?;
    let start_s = t_start.elapsed().as_secs_f64();
    let (_, addr) = server_node.id().await?;

    // The player's own node asks for everything through one connection, as the service
    // does when it meets its mailbox: a game is served only to its players, witnesses and
    // the node's mailboxes, and the player's `Games` grants one `Sync` per game outside the
    // rate limit.
    let (peers, server) = client_peers_as(vec![key(3, 0)], &addr).await?;
    let start = Instant::now();
    let listed = list_games(&peers[0].net, server, pid).await?;
    let (events, ok, failed) = fetch_games(&peers, server, &listed, s.sync_plies).await;
    let elapsed = start.elapsed().as_secs_f64();
    shutdown_peers(peers).await;
    // A stranger asking the same gets nothing.
    let (strangers, server) = client_peers(1, &addr).await?;
    let stranger_listed = list_games(&strangers[0].net, server, pid).await?.len();
    shutdown_peers(strangers).await;
    server_node.stop().await;

    let complete = ok == s.sync_games && events == n_events;
    let mut rows = vec![
        Row::info(
            p,
            format!(
                "{} games × {} plies signed / preloaded / node start (verify all)",
                s.sync_games, s.sync_plies
            ),
            format!("{author_s:.1} / {preload_s:.1} / {start_s:.1} s"),
        ),
        Row::check(
            p,
            format!(
                "Games + {} Sync, verified, the player's one peer, {IN_FLIGHT} in flight",
                listed.len()
            ),
            format!("{elapsed:.2} s"),
            "< 5 s",
            complete && elapsed < 5.0,
        ),
        Row::info(
            p,
            "events fetched and verified",
            format!("{events}/{n_events} ({:.0} /s)", events as f64 / elapsed),
        ),
        Row::check(
            p,
            "games listed to a stranger",
            stranger_listed.to_string(),
            "0",
            stranger_listed == 0,
        ),
    ];
    for (reason, n) in failed {
        rows.push(Row::info(p, format!("failed: {reason}"), n.to_string()));
    }
    Ok(rows)
}
