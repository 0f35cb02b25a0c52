//! Players of different clubs who never played each other find each other by id alone
//! (no address given: their clubs' mailboxes serve the DHT and their contact records) and
//! exchange a challenge; then again after one of each pair restarted on a new port.

use super::setup::challenge;
use super::{PHASE, World};
use crate::Res;
use crate::stats::{pct, sorted};
use crate::table::Row;
use futures::StreamExt;
use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// The longest one exchange may take before it counts as failed.
const GIVE_UP: Duration = Duration::from_secs(30);

pub async fn by_id(w: &World, played: &HashSet<(usize, usize)>, rng: &mut StdRng) -> Res<Vec<Row>> {
    let pairs = pairs(w, played, rng);
    let first = exchanges(w, &pairs).await;
    // The challenged player of each pair moves: same home and key, a new port.
    let mut moved = 0;
    for &(_, b) in &pairs {
        let old = port(w, b).await?;
        let dir = w.stop_player(b).await?;
        w.restart_player(b, dir).await?;
        if port(w, b).await? != old {
            moved += 1;
        }
    }
    let second = exchanges(w, &pairs).await;
    let mut rows = Vec::new();
    for (label, times) in [
        ("by id alone", first),
        ("… after one of each restarted", second),
    ] {
        let ok = sorted(times.iter().filter_map(|t| *t).collect());
        rows.push(Row::check(
            PHASE,
            format!(
                "challenge exchanged across clubs {label} ({} pairs{})",
                pairs.len(),
                if label.starts_with('…') {
                    format!(", {moved} on a new port")
                } else {
                    String::new()
                }
            ),
            format!(
                "{:.0} % , p50 / p95 {:.2} / {:.2} s",
                100.0 * ok.len() as f64 / pairs.len().max(1) as f64,
                pct(&ok, 50.0),
                pct(&ok, 95.0)
            ),
            "100 %, p95 < 3 s",
            !pairs.is_empty() && ok.len() == pairs.len() && pct(&ok, 95.0) < 3.0,
        ));
    }
    Ok(rows)
}

/// Pairs (challenger, challenged) of different clubs with no game together and not both in
/// the league (whose members may have met); every challenged player in one pair only.
fn pairs(w: &World, played: &HashSet<(usize, usize)>, rng: &mut StdRng) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..w.players.len()).collect();
    order.shuffle(rng);
    let k = w.s.pairs.min(w.players.len() * 5 / 8);
    let (challenged, challengers) = order.split_at(k);
    let met = |a: usize, b: usize| {
        played.contains(&(a, b))
            || (w.league_players.contains(&a) || a == w.organiser)
                && (w.league_players.contains(&b) || b == w.organiser)
    };
    let mut out = Vec::new();
    for &b in challenged.iter().filter(|_| !challengers.is_empty()) {
        for _ in 0..200 {
            let a = challengers[rng.gen_range(0..challengers.len())];
            if w.players[a].club != w.players[b].club && !met(a, b) {
                out.push((a, b));
                break;
            }
        }
    }
    out
}

/// Each pair's exchange (challenge by id, acceptance back), a few at a time: seconds, or
/// `None` if it failed.
async fn exchanges(w: &World, pairs: &[(usize, usize)]) -> Vec<Option<f64>> {
    futures::stream::iter(pairs.iter().copied())
        .map(|(a, b)| async move {
            let t = Instant::now();
            match tokio::time::timeout(GIVE_UP, challenge(w, a, b)).await {
                Ok(Ok(_)) => Some(t.elapsed().as_secs_f64()),
                Ok(Err(e)) => {
                    eprintln!("[scale] exchange {a} → {b}: {e}");
                    None
                }
                Err(_) => {
                    eprintln!("[scale] exchange {a} → {b}: none within {GIVE_UP:?}");
                    None
                }
            }
        })
        .buffered(5)
        .collect()
        .await
}

async fn port(w: &World, p: usize) -> Res<String> {
    let guard = w.players[p].node.lock().await;
    let (_, addr) = guard.as_ref().ok_or("player down")?.id().await?;
    Ok(addr
        .split("/tcp/")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_default()
        .to_owned())
}
