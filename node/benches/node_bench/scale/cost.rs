//! What the scale phase's mailboxes cost: bytes per move (from `/proc/PID/io`), CPU and
//! memory while idle with their players connected, and a reconnect storm of a whole club.

use super::{PHASE, World};
use crate::Res;
use crate::games::key;
use crate::nodes::Node;
use crate::peers::{answering_clients, shutdown_peers};
use crate::stats::{process_cpu_seconds, threads_by_name, threads_cpu_seconds};
use crate::table::Row;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::client;
use std::time::{Duration, Instant};

/// A process's I/O counters (`/proc/PID/io`): what it caused to be written to storage.
/// Its `rchar`/`wchar` count `read`/`write` calls only, not the sockets' `send`/`recv`, so
/// they say nothing of the network.
#[derive(Clone, Copy, Debug, Default)]
pub struct Io {
    pub write_bytes: u64,
}

fn io_of(pid: u32) -> Option<Io> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/io")).ok()?;
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.trim().parse::<u64>().ok())
    };
    Some(Io {
        write_bytes: field("write_bytes:")?,
    })
}

/// Each mailbox's counters now (`None` if unreadable).
pub fn mailbox_io(w: &World) -> Vec<Option<Io>> {
    (0..w.clubs.len())
        .map(|c| w.mailbox_pid(c).and_then(io_of))
        .collect()
}

/// Each player's process and its counters now.
pub async fn player_io(w: &World) -> Vec<Option<(u32, Io)>> {
    let mut out = Vec::with_capacity(w.players.len());
    for p in &w.players {
        let pid = p.node.lock().await.as_ref().and_then(Node::pid);
        out.push(pid.and_then(|pid| Some((pid, io_of(pid)?))));
    }
    out
}

/// Storage bytes per move of their games at the players' nodes that ran the whole play (the same
/// process before and after).
pub fn player_bytes_per_move(
    before: &[Option<(u32, Io)>],
    after: &[Option<(u32, Io)>],
    moves: &[usize],
) -> Vec<Row> {
    let (mut io, mut n, mut players) = (Io::default(), 0usize, 0usize);
    for ((b, a), m) in before.iter().zip(after).zip(moves) {
        if let (Some((pb, b)), Some((pa, a))) = (b, a)
            && pb == pa
        {
            io.write_bytes += a.write_bytes - b.write_bytes;
            n += m;
            players += 1;
        }
    }
    if n == 0 {
        return vec![Row::info(
            PHASE,
            "player bytes per move",
            "not measured (no /proc/PID/io)",
        )];
    }
    vec![Row::info(
        PHASE,
        format!(
            "player: written to storage per move of its games ({players} players never down, \
             {n} moves made or received)"
        ),
        format!("{:.0} B", io.write_bytes as f64 / n as f64),
    )]
}

/// Storage bytes per move at the mailboxes that ran the whole play (not the restarted one).
pub fn bytes_per_move(
    before: &[Option<Io>],
    after: &[Option<Io>],
    moves: &[usize],
    restarted: usize,
) -> Vec<Row> {
    let (mut io, mut n) = (Io::default(), 0usize);
    for c in (0..moves.len()).filter(|&c| c != restarted) {
        let (Some(Some(b)), Some(Some(a))) = (before.get(c), after.get(c)) else {
            return vec![Row::info(
                PHASE,
                "mailbox bytes per move",
                "not measured (no /proc/PID/io)",
            )];
        };
        io.write_bytes += a.write_bytes - b.write_bytes;
        n += moves[c];
    }
    vec![Row::info(
        PHASE,
        format!("mailbox: written to storage per move of its players ({n} moves)"),
        format!("{:.0} B", io.write_bytes as f64 / n.max(1) as f64),
    )]
}

/// The mailboxes' CPU over a window with their players connected, and their memory.
pub async fn idle(w: &World) -> Res<Vec<Row>> {
    let clubs = w.clubs.len();
    // The last deliveries and receipts settle first.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let cpu = |c: usize| {
        w.mailbox_pid(c)
            .and_then(|p| process_cpu_seconds(&p.to_string()))
    };
    let c0: Vec<Option<f64>> = (0..clubs).map(cpu).collect();
    let window = w.s.idle_window;
    tokio::time::sleep(window).await;
    let mut worst: f64 = 0.0;
    let mut rss_worst = 0u64;
    let mut peers = Vec::new();
    for (c, before) in c0.iter().enumerate() {
        let (Some(b), Some(a)) = (before, cpu(c)) else {
            return Err(format!("no CPU figure for mailbox {c}").into());
        };
        worst = worst.max((a - b) / window.as_secs_f64() * 100.0);
        let pid = w.mailbox_pid(c).ok_or("no mailbox pid")?;
        rss_worst = rss_worst.max(vm_rss_kb(pid).ok_or("no VmRSS")?);
        let status = client::call(&w.clubs[c].home, ApiRequest::Status(request::Status {})).await?;
        peers.push(status["peers"].as_u64().unwrap_or(0).to_string());
    }
    let rss_mb = rss_worst as f64 / 1024.0;
    Ok(vec![
        Row::check(
            PHASE,
            format!(
                "mailbox idle CPU over {} s, players connected (peers: {}), worst",
                window.as_secs(),
                peers.join(", ")
            ),
            format!("{worst:.2} % of a core"),
            "< 2 %",
            worst < 2.0,
        ),
        Row::check(
            PHASE,
            "mailbox resident memory (VmRSS), worst",
            format!("{rss_mb:.0} MB"),
            "< 200 MB",
            rss_mb < 200.0,
        ),
    ])
}

fn vm_rss_kb(pid: u32) -> Option<u64> {
    crate::memory::status_kib(pid, ["VmRSS:"]).map(|[rss]| rss)
}

/// Every player of club 0 stops, then all start again at once (and, in Tier 2, bare
/// protocol clients under the keys of the games club 0's mailbox holds connect with them):
/// how long until the mailbox is quiet again, and its CPU per connection.
pub async fn storm(w: &World) -> Res<Vec<Row>> {
    let c = 0;
    let club: Vec<usize> = (0..w.players.len())
        .filter(|&p| w.players[p].club == c)
        .collect();
    eprintln!(
        "[scale] storm begins: club {c}'s mailbox is {}",
        w.mailbox_pid(c).unwrap_or(0)
    );
    let mut dirs = Vec::new();
    for &p in &club {
        dirs.push((p, w.stop_player(p).await?));
    }
    let pid = w.mailbox_pid(c).ok_or("no mailbox pid")?.to_string();
    let cpu = || process_cpu_seconds(&pid).ok_or("no mailbox CPU figure");
    let fine = || threads_cpu_seconds(&pid).unwrap_or(0.0);
    // The mailbox's own rate with club 0 away, to tell the storm's cost from its idle one.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (b0, b_at) = (fine(), Instant::now());
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (c0, f0) = (cpu()?, fine());
    let idle_rate = (f0 - b0) / b_at.elapsed().as_secs_f64();
    eprintln!(
        "[scale] storm: mailbox {pid} at {:.1} ms/s with club {c} away; {} players restart",
        idle_rate * 1000.0,
        club.len()
    );
    let io0 = io_of(pid.parse().map_err(|_| "pid")?).map_or(0, |io| io.write_bytes);
    let threads0 = threads_by_name(&pid);
    // What crossed the network per connection (read at the mailbox's control socket: one
    // request, before and after, inside the measured CPU).
    let traffic0 = super::traffic::of_mailbox(w, c).await;
    let at = Instant::now();
    let restarted =
        futures::future::join_all(dirs.into_iter().map(|(p, d)| w.restart_player(p, d))).await;
    for r in restarted {
        r?;
    }
    let bare = if w.s.storm_bare > 0 {
        let clients = (0..w.s.storm_bare)
            .map(|i| {
                let heads = w.clubs[c].bare_heads.get(i).cloned().unwrap_or_default();
                (key(30 + c as u32, i as u64), heads)
            })
            .collect();
        Some(answering_clients(clients, &w.clubs[c].addr).await?)
    } else {
        None
    };
    let connections = club.len() + bare.as_ref().map_or(0, Vec::len);
    let connected_s = at.elapsed().as_secs_f64();
    // Until the mailbox is quiet again: a second with under 2% of a core.
    let mut last = cpu()?;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = cpu()?;
        eprintln!(
            "[scale] storm: +{:.1} s, mailbox {:.0} ms in the last second",
            at.elapsed().as_secs_f64(),
            (now - last) * 1000.0
        );
        let quiet = now - last < 0.02;
        last = now;
        if quiet || Instant::now() > deadline {
            break;
        }
    }
    let served_s = at.elapsed().as_secs_f64();
    let per_ms = (last - c0) / connections as f64 * 1000.0;
    let spent_fine = fine() - f0;
    let net_ms = (spent_fine - idle_rate * served_s).max(0.0) / connections as f64 * 1000.0;
    let io1 = io_of(pid.parse().map_err(|_| "pid")?).map_or(0, |io| io.write_bytes);
    eprintln!(
        "[scale] storm served after {served_s:.2} s: {per_ms:.2} ms per connection \
         ({:.2} ms by threads), {net_ms:.2} ms net of idle, {:.0} KB written per connection",
        spent_fine / connections as f64 * 1000.0,
        (io1.saturating_sub(io0)) as f64 / connections as f64 / 1000.0
    );
    // Per thread name, what the storm cost (threads that ended meanwhile are missing).
    for (name, (cpu1, sw1)) in threads_by_name(&pid) {
        let (cpu0, sw0) = threads0.get(&name).copied().unwrap_or((0.0, 0));
        eprintln!(
            "[scale] storm: thread {name}: {:.2} ms, {:.1} context switches per connection",
            (cpu1 - cpu0) / connections as f64 * 1000.0,
            sw1.saturating_sub(sw0) as f64 / connections as f64
        );
    }
    if let (Some((p0, t0)), Some((p1, t1))) = (traffic0, super::traffic::of_mailbox(w, c).await)
        && p0 == p1
    {
        let per = |a: u64, b: u64| a.saturating_sub(b) as f64 / connections as f64;
        eprintln!(
            "[scale] storm: per connection the mailbox sent / received {:.1} / {:.1} frames \
             ({:.0} / {:.0} B), {:.1} / {:.1} gossip, {:.0} / {:.0} network bytes",
            per(t1.messages_sent, t0.messages_sent),
            per(t1.messages_received, t0.messages_received),
            per(t1.message_bytes_sent, t0.message_bytes_sent),
            per(t1.message_bytes_received, t0.message_bytes_received),
            per(t1.gossip_sent, t0.gossip_sent),
            per(t1.gossip_received, t0.gossip_received),
            per(t1.network_bytes_sent, t0.network_bytes_sent),
            per(t1.network_bytes_received, t0.network_bytes_received),
        );
    }
    if let Some(b) = bare {
        shutdown_peers(b).await;
    }
    Ok(vec![
        Row::info(
            PHASE,
            format!("reconnect storm: {connections} players of club {c} restarted at once, up in"),
            format!("{connected_s:.2} s"),
        ),
        Row::check(
            PHASE,
            "… served (mailbox quiet again) after",
            format!("{served_s:.2} s"),
            "< 30 s",
            served_s < 30.0,
        ),
        Row::check(
            PHASE,
            "… mailbox CPU per connection",
            format!("{per_ms:.2} ms"),
            "< 5 ms",
            per_ms < 5.0,
        ),
    ])
}
