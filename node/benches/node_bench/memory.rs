//! Resident memory of a node holding many active games: the node runs in a child process
//! (this binary's `__node`, `service::run` as `sobre node run` runs it), and the parts of
//! its memory are measured step by step in another (`__parts`).

use crate::games::{key, preload, signed_games};
use crate::nodes::{CHILD_NODE, CHILD_PARTS, child_command};
use crate::table::Row;
use crate::{Res, Sizes};
use sobre_core::record::verify;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::client;
use sobre_node::home;
use sobre_node::store::Store;
use sobre_node::time::now_ms;
use sobre_node::view::Summary;
use std::path::Path;
use std::time::{Duration, Instant};

/// What `Service::load` holds, step by step, without the network: prints the VmRSS (KiB)
/// at start, after reading every game through sled (nothing kept), and after verifying
/// every game and keeping its `view::Summary` (all `load` keeps; events and full states
/// are read again when a game is used).
pub fn child_parts(home: &Path) -> i32 {
    let me = std::process::id();
    let rss = || rss_kib(me).map_or(0, |(r, _)| r);
    let r0 = rss();
    let Ok(store) = Store::open(&home::db_path(home)) else {
        return 1;
    };
    let games = store.games().unwrap_or_default();
    for g in &games {
        drop(store.events(g));
    }
    let r1 = rss();
    let summaries: Vec<Summary> = games
        .iter()
        .filter_map(|g| verify(&store.events(g).ok()?).ok())
        .map(|st| Summary::of(&st))
        .collect();
    let r2 = rss();
    println!("{r0} {r1} {r2} {}", summaries.len());
    0
}

/// Fields of a process's `/proc/PID/status`, in KiB, in the order named (each name with its
/// colon, as `"VmRSS:"`).
pub(crate) fn status_kib<const N: usize>(pid: u32, names: [&str; N]) -> Option<[u64; N]> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let mut out = [0; N];
    for (slot, name) in out.iter_mut().zip(names) {
        *slot = text
            .lines()
            .find_map(|l| l.strip_prefix(name))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
    }
    Some(out)
}

/// `VmRSS` and `VmHWM` of a process, in KiB.
pub(crate) fn rss_kib(pid: u32) -> Option<(u64, u64)> {
    status_kib(pid, ["VmRSS:", "VmHWM:"]).map(|[rss, hwm]| (rss, hwm))
}

/// What [`measure_child`] read of a node process, sizes in KiB.
struct Measured {
    rss: u64,
    hwm: u64,
    /// `RssAnon` and `RssFile`: the heap and stacks apart from the pages of the executable
    /// and libraries, which are shared and grow with the binary (this benchmark's own binary,
    /// with every phase in it, is the node here), not with what the node holds.
    anon: u64,
    file: u64,
    /// Seconds until the node answered with all its games.
    ready: f64,
}

/// Runs a node on `home` in a child process until it reports `games` games, and reads its
/// memory then.
async fn measure_child(home: &Path, games: usize) -> Res<Measured> {
    let mut child = child_command(CHILD_NODE, home)?
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    let pid = child.id();
    let result = wait_and_measure(home, games, pid).await;
    let _ = client::call(home, ApiRequest::Stop(request::Stop {})).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait()?.is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    result
}

async fn wait_and_measure(home: &Path, games: usize, pid: u32) -> Res<Measured> {
    let start = Instant::now();
    let deadline = start + Duration::from_secs(180);
    loop {
        if let Ok(v) = client::call(home, ApiRequest::Status(request::Status {})).await
            && v["games"].as_u64() == Some(games as u64)
        {
            break;
        }
        if Instant::now() > deadline {
            return Err("the node did not report its games in time".into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let ready = start.elapsed().as_secs_f64();
    // Let start-up work (subscriptions, the first outbox pass) settle.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let [rss, hwm, anon, file] = status_kib(pid, ["VmRSS:", "VmHWM:", "RssAnon:", "RssFile:"])
        .ok_or("cannot read the child's /proc status")?;
    Ok(Measured {
        rss,
        hwm,
        anon,
        file,
        ready,
    })
}

pub async fn phase_rss(s: Sizes) -> Res<Vec<Row>> {
    let p = "4 memory";
    let empty_home = tempfile::tempdir()?;
    home::init_key(empty_home.path())?;
    let empty = measure_child(empty_home.path(), 0).await?;
    let base_rss = empty.rss;

    let dir = tempfile::tempdir()?;
    let (me, _) = home::init_key(dir.path())?;
    let t0 = now_ms() - 3_600_000;
    let t_author = Instant::now();
    let games = tokio::task::spawn_blocking(move || {
        signed_games(s.rss_games, s.rss_plies, t0, |i| {
            (me.clone(), key(4, (i % 100) as u64))
        })
    })
    .await?;
    let author_s = t_author.elapsed().as_secs_f64();
    preload(dir.path(), &games).await?;
    drop(games);
    let db_kib = dir_size(&home::db_path(dir.path())) / 1024;
    let Measured {
        rss, hwm, ready, ..
    } = measure_child(dir.path(), s.rss_games).await?;
    // The same node started again over the same database: what every start but the first
    // costs (the first one verifies every game; see `store::summaries`).
    let ready_again = measure_child(dir.path(), s.rss_games).await?.ready;
    let mib = |k: u64| k as f64 / 1024.0;
    let parts = child_command(CHILD_PARTS, dir.path())?
        .stderr(std::process::Stdio::null())
        .output()?;
    let parts: Vec<u64> = String::from_utf8_lossy(&parts.stdout)
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    Ok(vec![
        Row::info(
            p,
            format!(
                "{} active games × {} plies signed in / db on disk",
                s.rss_games, s.rss_plies
            ),
            format!("{author_s:.1} s / {:.0} MiB", mib(db_kib)),
        ),
        Row::info(
            p,
            "node start until `status` shows them all, first / next start",
            format!("{ready:.1} / {ready_again:.1} s"),
        ),
        Row::check(
            p,
            format!("VmRSS of the node process with {} games", s.rss_games),
            format!("{:.1} MiB", mib(rss)),
            "< 200 MB",
            (rss as f64 * 1024.0) < 200e6,
        ),
        Row::info(
            p,
            "VmHWM (peak) / empty node's VmRSS",
            format!("{:.1} / {:.1} MiB", mib(hwm), mib(base_rss)),
        ),
        Row::info(
            p,
            "  empty node: anonymous (heap, stacks) / file-backed (the binary's pages)",
            format!("{:.1} / {:.1} MiB", mib(empty.anon), mib(empty.file)),
        ),
        Row::info(
            p,
            "  of which sled cache after reading every game once",
            parts
                .get(1)
                .zip(parts.first())
                .map_or("?".into(), |(a, b)| {
                    format!("{:.1} MiB", mib(a.saturating_sub(*b)))
                }),
        ),
        Row::info(
            p,
            "  of which the games' summaries (events and states stay on disk)",
            parts.get(2).zip(parts.get(1)).map_or("?".into(), |(a, b)| {
                format!("{:.1} MiB", mib(a.saturating_sub(*b)))
            }),
        ),
        Row::info(
            p,
            "  rest: network (a gossipsub topic per game), runtime",
            parts.get(2).map_or("?".into(), |a| {
                format!("{:.1} MiB", mib(rss.saturating_sub(*a)))
            }),
        ),
        Row::info(
            p,
            "per game, above the empty node",
            format!(
                "{:.1} KiB",
                rss.saturating_sub(base_rss) as f64 / s.rss_games.max(1) as f64
            ),
        ),
    ])
}

pub(crate) fn dir_size(p: &Path) -> u64 {
    let Ok(rd) = std::fs::read_dir(p) else {
        return std::fs::metadata(p).map_or(0, |m| m.len());
    };
    rd.filter_map(Result::ok)
        .map(|e| {
            let path = e.path();
            if path.is_dir() {
                dir_size(&path)
            } else {
                e.metadata().map_or(0, |m| m.len())
            }
        })
        .sum()
}
