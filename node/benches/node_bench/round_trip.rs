//! The move round trip between two nodes, beside the floor under it: the same number of
//! round trips between two bare libp2p swarms with a sled database each ([`crate::floor`]).

use crate::floor::{Floor, Times};
use crate::nodes::{Node, wait_event};
use crate::stats::{ms, pct, sorted};
use crate::table::Row;
use crate::{MAX_PLIES_PER_GAME, Res, Sizes};
use sobre_core::test_support::Lines;
use sobre_core::{Game, Position};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use std::time::{Duration, Instant};

const PHASE: &str = "1 round trip";

/// Issue "Fair play without trust": the node's move round trip p50 stays below twice the
/// floor's p50, measured side by side in one run. What sobre adds to a durable libp2p
/// exchange (the control socket, signing, the rules, the watch stream) at most doubles it.
const FLOOR_RATIO_TARGET: f64 = 2.0;

/// What the nodes' round trips gave, in milliseconds.
struct Timings {
    /// Games played to get the moves timed.
    games: usize,
    /// `move` call to the opponent's watch event.
    rtt: Vec<f64>,
    /// `move` call to its answer.
    cmd: Vec<f64>,
    /// `rtt` by thirds of a game: every step re-verifies the whole game.
    by_ply: [Vec<f64>; 3],
}

/// The nodes' round trips (each move started once the last is settled, as the floor's are)
/// with the floor's around them, half before and half after: on a shared machine the load
/// drifts, and the two halves show how much. The floor's swarms
/// stay idle while the nodes run, and the nodes are stopped while the floor runs, so
/// neither measures the other's background work.
pub async fn phase_round_trip(s: Sizes) -> Res<Vec<Row>> {
    let mut floor = Floor::start().await?;
    floor.warm_up().await?;
    let floor_before = floor.round_trips(s.rt_moves / 2).await?;
    let t = node_round_trips(s, true).await?;
    let floor_after = floor.round_trips(s.rt_moves - s.rt_moves / 2).await?;
    floor.stop().await?;
    // For the record, not the check: moves made as fast as the opponent sees them.
    let back_to_back = node_round_trips(s, false).await?;
    let mut rows = node_rows(&t);
    rows.push(Row::info(
        PHASE,
        "back to back (each move pays the last one's tail), p50 / p99",
        format!(
            "{:.2} / {:.2} ms",
            pct(&back_to_back.rtt, 50.0),
            pct(&back_to_back.rtt, 99.0)
        ),
    ));
    rows.extend(floor_rows(&t, floor_before, floor_after));
    Ok(rows)
}

/// `s.rt_moves` moves between two nodes in this process, alternating who moves, each timed
/// from the `move` call to the opponent's watch event. With `settled`, each move starts once
/// the last one's receipt is back at its mover.
async fn node_round_trips(s: Sizes, settled: bool) -> Res<Timings> {
    let a = Node::start(tempfile::tempdir()?, false).await?;
    let b = Node::start(tempfile::tempdir()?, false).await?;
    let (a_id, _) = a.id().await?;
    let (b_id, b_addr) = b.id().await?;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await?;
    let mut a_rx = a.watch();
    let mut b_rx = b.watch();
    // Let the watchers subscribe before the first event.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let mut rtt = Vec::new();
    let mut cmd = Vec::new();
    let mut by_ply: [Vec<f64>; 3] = Default::default();
    let mut games = 0;
    // Moves that do not end the game: a node refuses moves after the end.
    let mut lines = Lines::new(42).endless();
    while rtt.len() < s.rt_moves {
        let ch = a
            .call(ApiRequest::Challenge(request::Challenge {
                opponent: b_id.clone(),
                color: sobre_core::record::ColourChoice::ChallengerWhite,
                time_control: "3d".into(),
                chess960: false,
                fen: None,
                terms: Default::default(),
            }))
            .await?;
        let game = ch["game"].as_str().ok_or("no game id")?.to_owned();
        wait_event(&mut b_rx, &game, "challenge", &a_id).await?;
        b.call(ApiRequest::Accept(request::Accept {
            game: game.clone(),
            color: None,
            position: None,
        }))
        .await?;
        wait_event(&mut a_rx, &game, "accept", &b_id).await?;
        games += 1;
        let mut board = Game::new(Position::new());
        for ply in 0..MAX_PLIES_PER_GAME {
            if rtt.len() >= s.rt_moves {
                break;
            }
            let Some(m) = lines.next_move(&board) else {
                break;
            };
            let text = sobre_core::uci::to_uci(board.position(), m);
            let (mover, mover_id, other_id, rx, mover_rx) = if ply % 2 == 0 {
                (&a, &a_id, &b_id, &mut b_rx, &mut a_rx)
            } else {
                (&b, &b_id, &a_id, &mut a_rx, &mut b_rx)
            };
            while rx.try_recv().is_ok() {}
            while mover_rx.try_recv().is_ok() {}
            let t0 = Instant::now();
            mover
                .call(ApiRequest::Move(request::Move {
                    game: game.clone(),
                    text,
                    notation: None,
                }))
                .await?;
            let t1 = Instant::now();
            let t2 = wait_event(rx, &game, "move", mover_id).await?;
            // A round trip of the floor ends when its answer is back, so the next starts with
            // the last one done; so does a move here: its receipt is back at the mover. Back
            // to back, a move would also pay for the tail of the one before it (the receiver's
            // flush and answer, the mover's receipt and flush), which the floor never does. A
            // pause would be unfair the other way: threads parked for milliseconds wake slower
            // (a sled flush after a 3 ms pause took 340 µs at p50, against 230 µs without).
            if settled {
                wait_event(mover_rx, &game, "receipt", other_id).await?;
            }
            let (c, r) = (ms(t1 - t0), ms(t2.saturating_duration_since(t0)));
            if std::env::var_os("NODE_BENCH_DEBUG").is_some() && r > 20.0 {
                eprintln!(
                    "slow move: game {games} ply {} ({}): {r:.1} ms (call {c:.1} ms)",
                    ply + 1,
                    if ply % 2 == 0 { "A→B" } else { "B→A" }
                );
            }
            cmd.push(c);
            rtt.push(r);
            by_ply[(ply * 3 / MAX_PLIES_PER_GAME).min(2)].push(r);
            board.play(m)?;
        }
    }
    a.stop().await;
    b.stop().await;

    Ok(Timings {
        games,
        rtt: sorted(rtt),
        cmd: sorted(cmd),
        by_ply,
    })
}

fn node_rows(t: &Timings) -> Vec<Row> {
    let (games, rtt, cmd) = (t.games, &t.rtt, &t.cmd);
    let by_ply = t.by_ply.clone();
    let n = rtt.len();
    let p = PHASE;
    vec![
        Row::info(
            p,
            format!("moves timed ({games} game(s), alternating A/B)"),
            n.to_string(),
        ),
        Row::check(
            p,
            "move → opponent's watch event, p50",
            format!("{:.2} ms", pct(rtt, 50.0)),
            "< 5 ms",
            pct(rtt, 50.0) < 5.0,
        ),
        Row::check(
            p,
            "move → opponent's watch event, p99",
            format!("{:.2} ms", pct(rtt, 99.0)),
            "< 20 ms",
            pct(rtt, 99.0) < 20.0,
        ),
        Row::info(
            p,
            "move → opponent's watch event, max",
            format!("{:.2} ms", rtt.last().copied().unwrap_or(f64::NAN)),
        ),
        Row::info(
            p,
            {
                let (x, y, z) = (
                    MAX_PLIES_PER_GAME / 3,
                    2 * MAX_PLIES_PER_GAME / 3,
                    MAX_PLIES_PER_GAME,
                );
                format!(
                    "round trip p50 at plies 1-{x} / {}-{y} / {}-{z}",
                    x + 1,
                    y + 1
                )
            },
            by_ply
                .map(|v| format!("{:.2}", pct(&sorted(v), 50.0)))
                .join(" / ")
                + " ms",
        ),
        Row::info(
            p,
            "`move` call returns (sign+verify+store+flush), p50",
            format!("{:.2} ms", pct(cmd, 50.0)),
        ),
        Row::info(
            p,
            "`move` call returns, p99 / max",
            format!(
                "{:.2} / {:.2} ms",
                pct(cmd, 99.0),
                cmd.last().copied().unwrap_or(f64::NAN)
            ),
        ),
    ]
}

fn floor_rows(t: &Timings, before: Times, after: Times) -> Vec<Row> {
    let p = PHASE;
    let (b50, a50) = (
        pct(&sorted(before.total.clone()), 50.0),
        pct(&sorted(after.total.clone()), 50.0),
    );
    let floor = sorted([before.total, after.total].concat());
    let local = sorted([before.local, after.local].concat());
    let (f50, f99) = (pct(&floor, 50.0), pct(&floor, 99.0));
    let (n50, n99) = (pct(&t.rtt, 50.0), pct(&t.rtt, 99.0));
    let ratio = n50 / f50;
    vec![
        Row::info(
            p,
            "floor: round trips of two bare libp2p swarms with sled each",
            floor.len().to_string(),
        ),
        Row::info(
            p,
            "floor: insert+flush, request, insert+flush, answer, p50 / p99",
            format!("{f50:.2} / {f99:.2} ms"),
        ),
        Row::info(
            p,
            "floor: of which the sender's insert+flush, p50 / p99",
            format!("{:.2} / {:.2} ms", pct(&local, 50.0), pct(&local, 99.0)),
        ),
        Row::info(
            p,
            "floor p50, half before / half after the nodes' moves",
            format!("{b50:.2} / {a50:.2} ms"),
        ),
        Row::info(
            p,
            "node: move → opponent's watch event, p50 / p99",
            format!("{n50:.2} / {n99:.2} ms"),
        ),
        Row::check(
            p,
            "node round trip p50 / floor p50",
            format!("{ratio:.2}×"),
            format!("< {FLOOR_RATIO_TARGET}×"),
            ratio < FLOOR_RATIO_TARGET,
        ),
    ]
}
