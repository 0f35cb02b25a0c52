//! The moves of the scale phase: games started through the control API, moves made at a
//! steady rate, their arrival timed on the watch streams of every node that should keep
//! them, players going down and coming back, one mailbox restarted, and the final check of
//! every acknowledged move where it should be.
//!
//! A node's watch stream reports a move when the node has verified and stored it (`ingest`
//! notifies once the events are kept): that is arrival. The stream does not say which ply
//! arrived, so an event for game G by player X is matched to the oldest move by X in G still
//! awaited at that node and made before the event. A node is awaited only while it is up:
//! moves made while it was down (or before it caught up after a restart) are not timed there;
//! they are checked at the end like every other move.

mod check;
mod churn;

use super::{PHASE, World};
use crate::Res;
use crate::stats::{pct, sorted};
use crate::table::Row;
use rand::RngCore;
use rand::rngs::StdRng;
use serde_json::Value;
use sobre_core::test_support::Lines;
use sobre_core::{Color, Game, Move, Position};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::client;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest a returning player may take to catch up before the run fails.
const STEP: Duration = Duration::from_secs(90);
const POLL: Duration = Duration::from_millis(100);

/// A node that keeps a game's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Holder {
    Player(usize),
    Mailbox(usize),
}

/// Why a holder keeps a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Role {
    Opponent,
    Mailbox,
    Member,
}

const ROLES: [(Role, &str, f64); 3] = [
    (Role::Opponent, "the opponent", 200.0),
    (Role::Mailbox, "the mover's mailbox", 1000.0),
    (Role::Member, "league members", 10_000.0),
];

/// A game being played.
pub struct LiveGame {
    pub id: String,
    pub white: usize,
    pub black: usize,
    pub league: bool,
    board: Game,
    lines: Lines,
    /// Acknowledged moves, in order (indices into [`Play::moves`]).
    acked: Vec<usize>,
    in_flight: bool,
    /// Plies White's and Black's nodes are known to hold.
    has: [usize; 2],
}

impl LiveGame {
    pub(super) fn new(id: String, white: usize, black: usize, league: bool, seed: u64) -> LiveGame {
        LiveGame {
            id,
            white,
            black,
            league,
            board: Game::new(Position::new()),
            lines: Lines::new(seed).endless(),
            acked: Vec::new(),
            in_flight: false,
            has: [0, 0],
        }
    }

    fn side(&self, p: usize) -> Option<usize> {
        if p == self.white {
            Some(0)
        } else if p == self.black {
            Some(1)
        } else {
            None
        }
    }
}

/// Where a move stands at one holder.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Arrival {
    /// Awaited on the holder's watch stream.
    Awaited,
    /// Seen, this many milliseconds after the `move` call.
    Seen(f64),
    /// The holder was down (or catching up) when it was made, or left before it arrived.
    Away,
}

struct MoveRec {
    game: usize,
    ply: usize,
    mover: usize,
    mv: Move,
    sent: Instant,
    acked: bool,
    holders: Vec<(Holder, Role, Arrival)>,
}

/// The shared state of the run.
struct Play {
    games: Vec<LiveGame>,
    moves: Vec<MoveRec>,
    by_hex: HashMap<String, usize>,
    ids: HashMap<String, usize>,
    club_of: Vec<usize>,
    /// Members of the league (its players and organiser).
    members: Vec<usize>,
    /// Moves awaited per (holder, game).
    awaited: HashMap<(Holder, usize), Vec<usize>>,
    /// Holders whose arrivals are timed now.
    timed: HashSet<Holder>,
    movable: Vec<bool>,
    in_flight_by: Vec<usize>,
    /// Move events matched to no awaited move.
    unmatched: usize,
    errors: Vec<String>,
}

impl Play {
    fn on_event(&mut self, h: Holder, t: Instant, v: &Value) {
        if v["event"] != "move" {
            return;
        }
        let (Some(&g), Some(&by)) = (
            v["game"].as_str().and_then(|x| self.by_hex.get(x)),
            v["by"].as_str().and_then(|x| self.ids.get(x)),
        ) else {
            return;
        };
        // A node's own moves, and moves at nodes that keep the game for no role timed here
        // (the opponent's mailbox, a member's mailbox), are not arrivals.
        if !self.expected(h, g, by) {
            return;
        }
        let Some(list) = self.awaited.get_mut(&(h, g)) else {
            self.unmatched += 1;
            return;
        };
        let moves = &self.moves;
        let Some(pos) = list
            .iter()
            .position(|&m| moves[m].mover == by && moves[m].sent <= t)
        else {
            self.unmatched += 1;
            return;
        };
        let m = list.remove(pos);
        let rec = &mut self.moves[m];
        let ms = (t - rec.sent).as_secs_f64() * 1e3;
        for slot in rec.holders.iter_mut().filter(|x| x.0 == h) {
            slot.2 = Arrival::Seen(ms);
        }
        let ply = rec.ply;
        if let Holder::Player(p) = h
            && let Some(side) = self.games[g].side(p)
        {
            let has = &mut self.games[g].has[side];
            *has = (*has).max(ply + 1);
        }
    }

    /// Whether `h` should keep the moves of `by` in game `g`.
    fn expected(&self, h: Holder, g: usize, by: usize) -> bool {
        let game = &self.games[g];
        match h {
            Holder::Mailbox(c) => self.club_of[by] == c,
            Holder::Player(p) if p == by => false,
            Holder::Player(p) => game.side(p).is_some() || game.league && self.members.contains(&p),
        }
    }

    /// `h` went down (or is about to): nothing more is awaited there.
    fn away(&mut self, h: Holder) {
        self.timed.remove(&h);
        let keys: Vec<(Holder, usize)> =
            self.awaited.keys().filter(|k| k.0 == h).copied().collect();
        for k in keys {
            for m in self.awaited.remove(&k).unwrap_or_default() {
                for slot in self.moves[m].holders.iter_mut().filter(|x| x.0 == h) {
                    slot.2 = Arrival::Away;
                }
            }
        }
    }

    /// The next move of the next game whose mover may move, round robin from `cursor`.
    /// Answers the move's index, its mover, its game's id and its text.
    fn next_move(&mut self, cursor: &mut usize) -> Option<(usize, usize, String, String)> {
        let n = self.games.len();
        for k in 0..n {
            let g = (*cursor + k) % n;
            let game = &self.games[g];
            let side = usize::from(game.board.position().turn() == Color::Black);
            let mover = if side == 0 { game.white } else { game.black };
            if game.in_flight || !self.movable[mover] || game.has[side] != game.acked.len() {
                continue;
            }
            let game = &mut self.games[g];
            let mv = game.lines.next_move(&game.board)?;
            let text = sobre_core::uci::to_uci(game.board.position(), mv);
            game.in_flight = true;
            let (ply, opponent, league) = (
                game.acked.len(),
                if side == 0 { game.black } else { game.white },
                game.league,
            );
            let mut holders = vec![
                (Holder::Player(opponent), Role::Opponent),
                (Holder::Mailbox(self.club_of[mover]), Role::Mailbox),
            ];
            if league {
                holders.extend(
                    self.members
                        .iter()
                        .filter(|&&p| p != mover && p != opponent)
                        .map(|&p| (Holder::Player(p), Role::Member)),
                );
            }
            let idx = self.moves.len();
            let holders = holders
                .into_iter()
                .map(|(h, r)| {
                    let a = if self.timed.contains(&h) {
                        self.awaited.entry((h, g)).or_default().push(idx);
                        Arrival::Awaited
                    } else {
                        Arrival::Away
                    };
                    (h, r, a)
                })
                .collect();
            self.moves.push(MoveRec {
                game: g,
                ply,
                mover,
                mv,
                sent: Instant::now(),
                acked: false,
                holders,
            });
            self.in_flight_by[mover] += 1;
            *cursor = g + 1;
            return Some((idx, mover, self.games[g].id.clone(), text));
        }
        None
    }

    /// The `move` call of move `idx` returned.
    fn answered(&mut self, idx: usize, r: Res<Value>) {
        let (g, mover, mv, ply) = {
            let m = &self.moves[idx];
            (m.game, m.mover, m.mv, m.ply)
        };
        self.in_flight_by[mover] -= 1;
        let game = &mut self.games[g];
        game.in_flight = false;
        match r {
            Ok(_) => {
                if let Err(e) = game.board.play(mv) {
                    self.errors
                        .push(format!("the bench's board refused a move: {e}"));
                    return;
                }
                game.acked.push(idx);
                if let Some(side) = game.side(mover) {
                    game.has[side] = ply + 1;
                }
                self.moves[idx].acked = true;
            }
            Err(e) => {
                self.errors.push(e.to_string());
                for list in self.awaited.values_mut() {
                    list.retain(|&m| m != idx);
                }
            }
        }
    }
}

/// What the run gave.
pub struct Outcome {
    pub rows: Vec<Row>,
    /// Acknowledged moves each mailbox is the mover's mailbox of.
    pub moves_to_mailbox: Vec<usize>,
    /// Acknowledged moves of each player's games (made or received as a player).
    pub moves_of_player: Vec<usize>,
    /// Acknowledged moves of the league's games.
    pub league_moves: usize,
    /// The mailbox restarted mid-run.
    pub restarted_mailbox: usize,
    /// Pairs of players who have a game together.
    pub played: HashSet<(usize, usize)>,
}

/// Streams `h`'s watch events into the play's state.
async fn watch(play: &Arc<Mutex<Play>>, w: &World, h: Holder) {
    let rx = match h {
        Holder::Player(p) => w.players[p].node.lock().await.as_ref().map(|n| n.watch()),
        Holder::Mailbox(c) => w.clubs[c].mailbox.lock().await.as_ref().map(|n| n.watch()),
    };
    let Some(mut rx) = rx else { return };
    let play = play.clone();
    tokio::spawn(async move {
        while let Some((t, v)) = rx.recv().await {
            if let Ok(mut p) = play.lock() {
                p.on_event(h, t, &v);
            }
        }
    });
}

/// Plays the games for `s.play` at `s.moves_per_s`, with churn; checks every move at the end.
pub async fn run(
    w: Arc<World>,
    games: Vec<LiveGame>,
    league: Vec<LiveGame>,
    pairs: &[(usize, usize)],
    rng: &mut StdRng,
) -> Res<Outcome> {
    let s = w.s;
    let n = w.players.len();
    let mut members = w.league_players.clone();
    members.push(w.organiser);
    let mut all = games;
    all.extend(league);
    let played: HashSet<(usize, usize)> = all
        .iter()
        .flat_map(|g| [(g.white, g.black), (g.black, g.white)])
        .chain(pairs.iter().copied())
        .collect();
    let play = Arc::new(Mutex::new(Play {
        by_hex: all
            .iter()
            .enumerate()
            .map(|(i, g)| (g.id.clone(), i))
            .collect(),
        games: all,
        moves: Vec::new(),
        ids: w
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect(),
        club_of: w.players.iter().map(|p| p.club).collect(),
        members,
        awaited: HashMap::new(),
        timed: HashSet::new(),
        movable: vec![true; n],
        in_flight_by: vec![0; n],
        unmatched: 0,
        errors: Vec::new(),
    }));
    let holders: Vec<Holder> = (0..n)
        .map(Holder::Player)
        .chain((0..w.clubs.len()).map(Holder::Mailbox))
        .collect();
    for &h in &holders {
        watch(&play, &w, h).await;
    }
    // Let the watchers subscribe before the first move.
    tokio::time::sleep(Duration::from_millis(500)).await;
    lock(&play)?.timed.extend(holders.iter().copied());

    let start = Instant::now();
    let end = start + s.play;
    // Churn: a tenth of the players down at a time (never the organiser), each for a
    // seeded while; the last ones return before the play ends.
    let max_down = (n * s.churn_pct / 100).max(1);
    let churn_seed = rng.next_u64();
    let churn = tokio::spawn(churn::churn(
        w.clone(),
        play.clone(),
        churn_seed,
        max_down,
        end,
    ));
    let restarted_mailbox = 0;
    let mailbox_restart = {
        let (w, play) = (w.clone(), play.clone());
        tokio::spawn(async move {
            tokio::time::sleep_until((start + s.play * 2 / 5).into()).await;
            let h = Holder::Mailbox(restarted_mailbox);
            lock(&play)?.away(h);
            let start_s = w.restart_mailbox(restarted_mailbox).await?;
            watch(&play, &w, h).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            lock(&play)?.timed.insert(h);
            Res::Ok(start_s)
        })
    };

    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / s.moves_per_s));
    let mut cursor = 0;
    let mut ticks = 0usize;
    let mut calls = Vec::new();
    while Instant::now() < end {
        tick.tick().await;
        ticks += 1;
        let Some((idx, mover, game, text)) = lock(&play)?.next_move(&mut cursor) else {
            continue;
        };
        let home: PathBuf = w.players[mover].home.clone();
        let play = play.clone();
        calls.push(tokio::spawn(async move {
            let r = client::call(
                &home,
                ApiRequest::Move(request::Move {
                    game,
                    text,
                    notation: None,
                }),
            )
            .await
            .map_err(|e| format!("move at player {mover}: {e}").into());
            if let Ok(mut p) = play.lock() {
                p.answered(idx, r);
            }
        }));
    }
    let played_s = start.elapsed().as_secs_f64();
    futures::future::join_all(calls).await;
    let returns = churn.await??;
    let mailbox_start_s = mailbox_restart.await??;
    // Until every awaited move arrived, or 15 s (beyond the slowest target).
    let settle = Instant::now();
    while settle.elapsed() < Duration::from_secs(15)
        && lock(&play)?.awaited.values().any(|l| !l.is_empty())
    {
        tokio::time::sleep(POLL).await;
    }
    let checked = check::check(&w, &play).await?;

    let p = lock(&play)?;
    let acked: Vec<&MoveRec> = p.moves.iter().filter(|m| m.acked).collect();
    let mut moves_to_mailbox = vec![0; w.clubs.len()];
    let mut moves_of_player = vec![0; n];
    let mut league_moves = 0;
    for m in &acked {
        moves_to_mailbox[p.club_of[m.mover]] += 1;
        let g = &p.games[m.game];
        league_moves += usize::from(g.league);
        moves_of_player[g.white] += 1;
        moves_of_player[g.black] += 1;
    }
    let mut rows = vec![
        Row::info(
            PHASE,
            format!(
                "games played: {} live ({} across clubs), {} of the league's round 1",
                pairs.len(),
                pairs
                    .iter()
                    .filter(|(a, b)| a % w.clubs.len() != b % w.clubs.len())
                    .count(),
                p.games.iter().filter(|g| g.league).count()
            ),
            p.games.len().to_string(),
        ),
        Row::check(
            PHASE,
            format!(
                "moves acknowledged in {played_s:.0} s (rate asked {} /s)",
                s.moves_per_s
            ),
            format!("{} ({:.1} /s)", acked.len(), acked.len() as f64 / played_s),
            format!("≈ {} /s", s.moves_per_s),
            acked.len() as f64 / played_s >= 0.9 * s.moves_per_s,
        ),
        Row::info(
            PHASE,
            "… ticks with no game whose mover could move (mover down or not yet holding the last move)",
            format!("{} of {ticks}", ticks.saturating_sub(p.moves.len())),
        ),
        Row::check(
            PHASE,
            "`move` calls refused or failed",
            p.errors.len().to_string(),
            "0",
            p.errors.is_empty(),
        ),
    ];
    for e in p.errors.iter().take(3) {
        rows.push(Row::info(PHASE, "… e.g.", e.clone()));
    }
    for (role, name, target_ms) in ROLES {
        let (held, expected, differing) = checked.get(&role).copied().unwrap_or_default();
        let pct_held = 100.0 * held as f64 / expected.max(1) as f64;
        rows.push(Row::check(
            PHASE,
            format!("acknowledged moves held, verified and identical at {name}"),
            format!("{pct_held:.2} % ({held} of {expected}, {differing} different)"),
            "100 %",
            held == expected && expected > 0,
        ));
        let mut seen = Vec::new();
        let (mut away, mut lost) = (0, 0);
        for m in &acked {
            for &(_, _, a) in m.holders.iter().filter(|x| x.1 == role) {
                match a {
                    Arrival::Seen(ms) => seen.push(ms),
                    Arrival::Away => away += 1,
                    Arrival::Awaited => lost += 1,
                }
            }
        }
        let seen = sorted(seen);
        let (p50, p99) = (pct(&seen, 50.0), pct(&seen, 99.0));
        rows.push(Row::check(
            PHASE,
            format!("convergence to {name} (watch stream), p50 / p99"),
            format!("{p50:.1} / {p99:.1} ms"),
            format!("p99 < {target_ms:.0} ms"),
            p99 < target_ms,
        ));
        rows.push(Row::info(
            PHASE,
            format!("… timed / holder away / never seen live at {name}"),
            format!("{} / {away} / {lost}", seen.len()),
        ));
    }
    rows.push(Row::info(
        PHASE,
        "move events on watch streams matched to no move awaited there (arrived while away)",
        p.unmatched.to_string(),
    ));
    let catchup = sorted(returns.iter().map(|r| r.caught_up).collect());
    let up = sorted(returns.iter().map(|r| r.up).collect());
    let late = returns.iter().filter(|r| r.caught_up > 5.0).count();
    rows.push(Row::check(
        PHASE,
        format!(
            "returning player caught up ({} returns, down {}–{} s), p50 / max",
            returns.len(),
            s.down.0.as_secs(),
            s.down.1.as_secs()
        ),
        format!(
            "{:.2} / {:.2} s",
            pct(&catchup, 50.0),
            catchup.last().copied().unwrap_or(f64::NAN)
        ),
        "each < 5 s",
        late == 0 && !returns.is_empty(),
    ));
    // The restart of the player's own node is part of its catch-up; on an overloaded machine
    // (Tier 2) it can be most of it.
    rows.push(Row::info(
        PHASE,
        "… of which its node's own restart (answering its control socket again), p50 / max",
        format!(
            "{:.2} / {:.2} s",
            pct(&up, 50.0),
            up.last().copied().unwrap_or(f64::NAN)
        ),
    ));
    rows.push(Row::check(
        PHASE,
        format!("mailbox {restarted_mailbox} restarted mid-run: start"),
        format!("{mailbox_start_s:.2} s"),
        "< 10 s",
        mailbox_start_s < 10.0,
    ));
    Ok(Outcome {
        rows,
        moves_to_mailbox,
        moves_of_player,
        league_moves,
        restarted_mailbox,
        played,
    })
}

fn lock(play: &Arc<Mutex<Play>>) -> Res<std::sync::MutexGuard<'_, Play>> {
    play.lock()
        .map_err(|_| "the play's state is poisoned".into())
}
