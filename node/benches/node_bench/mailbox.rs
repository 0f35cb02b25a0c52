//! Durable ingest at a mailbox node: the moves of many games delivered by light client
//! peers, live (each move signed when sent, delivered alone) and backlog (games signed hours
//! before, each delivery the whole game so far).

use crate::games::{game_id, game_moves, key, signed_games};
use crate::nodes::Node;
use crate::peers::{LightPeer, Via};
use crate::stats::{machine_cpu, ms, pct, process_cpu_seconds, sorted, thread_run_and_wait};
use crate::table::Row;
use crate::{IN_FLIGHT, PER_PEER_BUDGET, Res, Sizes};
use sobre_core::Move;
use sobre_core::record::GameId;
use sobre_core::record::author::Scoresheet;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::protocol::{Request, Response};
use sobre_node::time::now_ms;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tokio::sync::Mutex;

/// A game of the live mailbox run: challenge and accept signed, the moves signed when sent.
struct LiveGame {
    sheets: [Scoresheet; 2],
    moves: Vec<Move>,
    wires: Vec<Vec<u8>>,
}

impl LiveGame {
    /// Event `k` of the game as wire bytes, signed now if it is the next one; `None` while
    /// event `k - 1` is not signed yet (another worker is about to).
    fn event(&mut self, k: usize) -> Option<Vec<u8>> {
        if let Some(w) = self.wires.get(k) {
            return Some(w.clone());
        }
        if self.wires.len() != k {
            return None;
        }
        let m = self.moves[k - 2];
        let c = (k - 2) % 2;
        let e = self.sheets[c].play(m, now_ms()).expect("sign");
        self.sheets[1 - c].saw(e.id());
        self.wires.push(e.to_bytes().expect("encode"));
        self.wires.last().cloned()
    }
}

/// The mailbox runs: live on delivery streams, 16 then 64 in flight (both checked against the
/// target), live on request-response (for comparison), then backlog.
pub async fn phase_mailbox(s: Sizes) -> Res<Vec<Row>> {
    let mut rows = mailbox_run(s, true, IN_FLIGHT, Via::Stream).await?;
    rows.extend(mailbox_run(s, true, 4 * IN_FLIGHT, Via::Stream).await?);
    rows.extend(mailbox_run(s, true, 4 * IN_FLIGHT, Via::RequestResponse).await?);
    rows.extend(mailbox_run(s, false, IN_FLIGHT, Via::Stream).await?);
    Ok(rows)
}

async fn mailbox_run(s: Sizes, live: bool, in_flight: usize, via: Via) -> Res<Vec<Row>> {
    let p = "2 mailbox";
    let t_author = Instant::now();
    // Live: the challenges a minute ago, the moves now; backlog: six hours ago, a move a
    // minute.
    let t0 = now_ms() - if live { 60_000 } else { 6 * 3_600_000 };
    let games = tokio::task::spawn_blocking(move || {
        signed_games(s.mb_games, s.mb_plies, t0, |i| {
            let tag = if live { 3 } else { 2 };
            (key(tag, 2 * i as u64), key(tag, 2 * i as u64 + 1))
        })
    })
    .await?;
    let author_s = t_author.elapsed().as_secs_f64();
    let live_games: Arc<Vec<std::sync::Mutex<LiveGame>>> = Arc::new(
        games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let tag = if live { 3 } else { 2 };
                let (w, b) = (key(tag, 2 * i as u64), key(tag, 2 * i as u64 + 1));
                let mut ws = Scoresheet::resume(w, g[0].id(), 1, Some(g[0].id()), Some(g[1].id()));
                let mut bs = Scoresheet::resume(b, g[0].id(), 1, Some(g[1].id()), Some(g[0].id()));
                ws.saw(g[1].id());
                bs.saw(g[0].id());
                std::sync::Mutex::new(LiveGame {
                    sheets: [ws, bs],
                    moves: game_moves(g),
                    wires: g[..2]
                        .iter()
                        .map(|e| e.to_bytes().expect("encode"))
                        .collect(),
                })
            })
            .collect(),
    );
    // Wire bytes once; delivery k of a game carries its events 0..=k, as a player's node
    // sends its whole game.
    let wires: Vec<(GameId, Vec<Vec<u8>>)> = games
        .iter()
        .map(|g| {
            (
                game_id(g),
                g.iter().map(|e| e.to_bytes().expect("encode")).collect(),
            )
        })
        .collect();
    let per_game = s.mb_plies + 2;
    let total = wires.len() * per_game;
    // Round k of every game before round k + 1 of any: each game's events arrive in order.
    let order: Vec<(usize, usize)> = (0..per_game)
        .flat_map(|k| (0..wires.len()).map(move |g| (g, k)))
        .collect();

    let mb = Node::start_process(tempfile::tempdir()?, true).await?;
    let (_, addr) = mb.id().await?;
    let n_peers = total.div_ceil(PER_PEER_BUDGET);
    let server: libp2p::PeerId = addr
        .rsplit_once("/p2p/")
        .ok_or("no peer id in the mailbox's address")?
        .1
        .parse()?;
    // One at a time: the node limits pending incoming connections.
    let mut peers: Vec<LightPeer> = Vec::with_capacity(n_peers);
    for _ in 0..n_peers {
        peers.push(LightPeer::connect(&addr, server, via).await?);
    }

    let wires = Arc::new(wires);
    let order = Arc::new(order);
    let peers = Arc::new(peers);
    let next = Arc::new(AtomicUsize::new(0));
    let failures: Arc<Mutex<BTreeMap<String, usize>>> = Arc::default();
    let start = Instant::now();
    let cpu_before = mb.cpu_seconds();
    let load_cpu_before = process_cpu_seconds("self");
    let machine_before = machine_cpu();
    // The service task runs on the node process's main thread (whose id is the process's).
    let service_thread = |pid: Option<u32>| pid.and_then(|p| thread_run_and_wait(p, p));
    let service_before = service_thread(mb.pid());
    let workers: Vec<_> = (0..in_flight)
        .map(|_| {
            let (wires, order, peers, next, failures, live_games) = (
                wires.clone(),
                order.clone(),
                peers.clone(),
                next.clone(),
                failures.clone(),
                live_games.clone(),
            );
            tokio::spawn(async move {
                let mut lat = Vec::new();
                let mut ok = 0usize;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(g, k)) = order.get(i) else { break };
                    let (game, events) = &wires[g];
                    let t = Instant::now();
                    let events = if live {
                        loop {
                            let signed = live_games[g].lock().expect("lock").event(k);
                            match signed {
                                Some(w) => break vec![w],
                                None => tokio::task::yield_now().await,
                            }
                        }
                    } else {
                        events[..=k].to_vec()
                    };
                    let req = Request::Deliver {
                        game: *game,
                        events,
                    };
                    let r = peers[i % peers.len()].request(req).await;
                    lat.push(ms(t.elapsed()));
                    match r {
                        Ok(Response::Receipts { receipts }) if !receipts.is_empty() => ok += 1,
                        Ok(other) => {
                            *failures
                                .lock()
                                .await
                                .entry(format!("{other:?}").chars().take(60).collect())
                                .or_default() += 1;
                        }
                        Err(e) => *failures.lock().await.entry(e.to_string()).or_default() += 1,
                    }
                }
                (ok, lat)
            })
        })
        .collect();
    let mut accepted = 0;
    let mut lat = Vec::new();
    for w in futures::future::join_all(workers).await {
        let (ok, l) = w?;
        accepted += ok;
        lat.extend(l);
    }
    let elapsed = start.elapsed().as_secs_f64();
    let mb_cpu = mb.cpu_seconds().zip(cpu_before).map(|(a, b)| a - b);
    let load_cpu = process_cpu_seconds("self")
        .zip(load_cpu_before)
        .map(|(a, b)| a - b);
    let machine = machine_before
        .zip(machine_cpu())
        .map(|(a, b)| a.shares_until(b));
    let service = service_before
        .zip(service_thread(mb.pid()))
        .map(|((r0, w0), (r1, w1))| (r1 - r0, w1 - w0));
    let st = mb.call(ApiRequest::Status(request::Status {})).await?;
    drop(peers);
    mb.stop().await;

    let rate = accepted as f64 / elapsed;
    let lat = sorted(lat);
    let how = match via {
        Via::Stream => "delivery streams",
        Via::RequestResponse => "request-response",
    };
    let run = if live {
        format!("live, {how}, {in_flight} in flight")
    } else {
        format!("backlog, {how}, {in_flight} in flight")
    };
    let what = if live {
        "each move signed when sent and delivered alone"
    } else {
        "games signed 6 h before, each delivery the whole game so far"
    };
    let figure = format!("{run}: accepted events/s, each reply after the flush");
    let mut rows = vec![
        Row::info(
            p,
            format!(
                "{run}: {} games × {} plies (+challenge, accept), {what}",
                s.mb_games, s.mb_plies
            ),
            format!("{author_s:.2} s to prepare"),
        ),
        Row::info(
            p,
            format!("{run}: deliveries, {n_peers} client peers"),
            format!("{accepted}/{total} ok"),
        ),
        if live && via == Via::Stream {
            Row::check(
                p,
                figure,
                format!("{rate:.0} /s"),
                "≥ 5000 /s",
                rate >= 5000.0 && accepted == total,
            )
        } else {
            Row::info(p, figure, format!("{rate:.0} /s"))
        },
        Row::info(
            p,
            format!("{run}: delivery latency p50 / p99"),
            format!("{:.1} / {:.1} ms", pct(&lat, 50.0), pct(&lat, 99.0)),
        ),
        Row::info(
            p,
            format!("{run}: games held by the mailbox"),
            st["games"].to_string(),
        ),
    ];
    let per_event = |cpu: f64| {
        format!(
            "{:.0} µs ({:.0}% of one core)",
            cpu * 1e6 / accepted.max(1) as f64,
            cpu * 100.0 / elapsed
        )
    };
    if let Some(cpu) = mb_cpu {
        rows.push(Row::info(
            p,
            format!("{run}: mailbox process CPU (user + system) per accepted event"),
            per_event(cpu),
        ));
    }
    if let Some(cpu) = load_cpu {
        rows.push(Row::info(
            p,
            format!("{run}: load peers' CPU (this process: signing, libp2p) per event"),
            per_event(cpu),
        ));
    }
    if let Some((on_cpu, waiting)) = service {
        rows.push(Row::info(
            p,
            format!("{run}: mailbox service thread, on a CPU / runnable, waiting for one"),
            format!(
                "{:.0}% / {:.0}% of the run",
                on_cpu * 100.0 / elapsed,
                waiting * 100.0 / elapsed
            ),
        ));
    }
    if let Some((idle, steal)) = machine {
        rows.push(Row::info(
            p,
            format!("{run}: machine, all CPUs: idle / stolen by the hypervisor"),
            format!("{idle:.0}% / {steal:.0}%"),
        ));
    }
    for (reason, n) in failures.lock().await.iter() {
        rows.push(Row::info(p, format!("failed: {reason}"), n.to_string()));
    }
    Ok(rows)
}
