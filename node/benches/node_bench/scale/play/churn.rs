//! Players going down (stopped, their homes kept) and coming back (started again on the
//! same home), and how long each takes to catch up.

use super::{Holder, Play, STEP, lock, watch};
use crate::Res;
use crate::scale::World;
use rand::Rng;
use rand::rngs::StdRng;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A player's return: seconds from its restart until its node answers again (`up`) and
/// until its games show every move its opponents had acknowledged (`caught_up`, which
/// includes `up`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Return {
    pub player: usize,
    pub up: f64,
    pub caught_up: f64,
}

/// Players going down and coming back until `end`; each one's [`Return`].
pub(super) async fn churn(
    w: Arc<World>,
    play: Arc<Mutex<Play>>,
    seed: u64,
    max_down: usize,
    end: Instant,
) -> Res<Vec<Return>> {
    use rand::SeedableRng;
    let mut rng = StdRng::seed_from_u64(seed);
    let s = w.s;
    let mut downs = tokio::task::JoinSet::new();
    let mut down: HashSet<usize> = HashSet::new();
    let mut returns = Vec::new();
    // Start the churn after the first moves.
    tokio::time::sleep(s.down.0 / 10).await;
    loop {
        while let Some(r) = downs.try_join_next() {
            let r: Return = r??;
            down.remove(&r.player);
            returns.push(r);
        }
        let left = end.saturating_duration_since(Instant::now());
        if left < s.down.0 + Duration::from_secs(2) {
            break;
        }
        if down.len() < max_down {
            let p = loop {
                let p = rng.gen_range(0..w.players.len());
                if p != w.organiser && !down.contains(&p) {
                    break p;
                }
            };
            let longest = s.down.1.min(left - Duration::from_secs(2));
            let dur = rng.gen_range(s.down.0..=longest.max(s.down.0));
            down.insert(p);
            downs.spawn(go_down(w.clone(), play.clone(), p, dur));
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    while let Some(r) = downs.join_next().await {
        returns.push(r??);
    }
    Ok(returns)
}

/// Player `p` goes down for `dur` and comes back; returns its [`Return`].
async fn go_down(w: Arc<World>, play: Arc<Mutex<Play>>, p: usize, dur: Duration) -> Res<Return> {
    lock(&play)?.movable[p] = false;
    while lock(&play)?.in_flight_by[p] > 0 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    lock(&play)?.away(Holder::Player(p));
    let dir = w.stop_player(p).await?;
    tokio::time::sleep(dur).await;
    // What its opponents acknowledged while it was away: no move is made in its games
    // until it is back (it is to move in each of them, or they wait for it).
    let targets: Vec<(usize, String, usize)> = {
        let pl = lock(&play)?;
        pl.games
            .iter()
            .enumerate()
            .filter(|(_, g)| g.side(p).is_some())
            .map(|(i, g)| (i, g.id.clone(), g.acked.len()))
            .collect()
    };
    let t = Instant::now();
    w.restart_player(p, dir).await?;
    let up = t.elapsed().as_secs_f64();
    watch(&play, &w, Holder::Player(p)).await;
    let mut behind = targets;
    let deadline = Instant::now() + STEP;
    while !behind.is_empty() {
        let mut still = Vec::new();
        for (i, id, plies) in behind {
            let v = w
                .call(p, ApiRequest::Show(request::Show { game: id.clone() }))
                .await?;
            let held = v["plies"].as_u64().unwrap_or(0) as usize;
            if held >= plies {
                let mut pl = lock(&play)?;
                if let Some(side) = pl.games[i].side(p) {
                    pl.games[i].has[side] = held;
                }
            } else {
                still.push((i, id, plies));
            }
        }
        behind = still;
        if Instant::now() > deadline {
            return Err(format!("player {p} never caught up").into());
        }
        if !behind.is_empty() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let caught_up = t.elapsed().as_secs_f64();
    let mut pl = lock(&play)?;
    pl.timed.insert(Holder::Player(p));
    pl.movable[p] = true;
    Ok(Return {
        player: p,
        up,
        caught_up,
    })
}
