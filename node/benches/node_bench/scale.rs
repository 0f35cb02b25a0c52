//! Phase 7, `scale`: issue 30's Tier 1, a small federation run for real. Clubs, each a
//! mailbox in a child process of its own holding thousands of games it does not play, are
//! each other's bootstrap peers; players' nodes (in this process: real libp2p over loopback
//! TCP, real sled on disk, the control socket) use their club's mailbox. They play live games
//! (a fifth across clubs) and a league through the control API at a steady rate while a tenth
//! of them come and go and one mailbox restarts; then the mailboxes' idle cost, a reconnect
//! storm, and strangers of different clubs finding each other by id alone.
//!
//! Everything is seeded ([`SEED`], printed): the pairings, the moves, who goes down and when.
//! What the machine does with them (timing) is not.
//!
//! * [`setup`]: the games and the league, started through the control API.
//! * [`play`]: the moves, their arrival on watch streams, the churn and the final check
//!   that every acknowledged move is held, verified and identical where it should be.
//! * [`cost`]: the mailboxes' idle CPU and memory, the reconnect storm, bytes per move.
//! * [`find`]: discovery by id across clubs, before and after a move to a new port.

mod cost;
mod find;
mod play;
mod setup;
mod traffic;

use crate::games::{game_id, key, preload, signed_games};
use crate::nodes::Node;
use crate::table::Row;
use crate::{Res, Sizes};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use sobre_core::record::SignedEvent;
use sobre_node::api::ApiRequest;
use sobre_node::client;
use sobre_node::protocol::GameHead;
use sobre_node::store::next_per_author;
use sobre_node::time::now_ms;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tempfile::TempDir;
use tokio::sync::Mutex;

pub const PHASE: &str = "7 scale";

/// A player's node listens on a new loopback port at every start.
const ANY_PORT: &str = "/ip4/127.0.0.1/tcp/0";

/// The seed of everything random in the phase.
pub const SEED: u64 = 30;

/// The sizes of one run (Tier 1 by default; `tier2` for the pre-release run).
#[derive(Clone, Copy, Debug)]
pub struct ScaleSizes {
    pub clubs: usize,
    pub players: usize,
    /// Games each mailbox holds for others when it starts…
    pub mailbox_games: usize,
    /// … except the first, which holds this many.
    pub first_mailbox_games: usize,
    pub live_games: usize,
    pub league_players: usize,
    /// Moves a second, all games together.
    pub moves_per_s: f64,
    pub play: Duration,
    /// How long a player who goes down stays down: from, to.
    pub down: (Duration, Duration),
    /// Players down at once, in percent.
    pub churn_pct: usize,
    pub idle_window: Duration,
    /// Bare protocol clients (the held games' players) joining the reconnect storm, each
    /// answering its mailbox as a caught-up player's node does (`peers::answering_clients`).
    pub storm_bare: usize,
    pub pairs: usize,
}

pub const TIER1: ScaleSizes = ScaleSizes {
    clubs: 4,
    players: 80,
    mailbox_games: 10_000,
    first_mailbox_games: 10_000,
    live_games: 160,
    league_players: 20,
    moves_per_s: 20.0,
    play: Duration::from_secs(150),
    down: (Duration::from_secs(30), Duration::from_secs(90)),
    churn_pct: 10,
    idle_window: Duration::from_secs(20),
    storm_bare: 0,
    pairs: 50,
};

pub const QUICK: ScaleSizes = ScaleSizes {
    clubs: 2,
    players: 12,
    mailbox_games: 200,
    first_mailbox_games: 200,
    live_games: 8,
    league_players: 4,
    moves_per_s: 5.0,
    play: Duration::from_secs(15),
    down: (Duration::from_secs(3), Duration::from_secs(6)),
    churn_pct: 10,
    idle_window: Duration::from_secs(3),
    storm_bare: 30,
    pairs: 4,
};

/// The documented pre-release run (docs/scale.md): about 13 minutes on a 2-core
/// machine, which holds it but misses Tier 1's latency targets.
pub const TIER2: ScaleSizes = ScaleSizes {
    clubs: 10,
    players: 300,
    mailbox_games: 10_000,
    first_mailbox_games: 100_000,
    live_games: 600,
    league_players: 64,
    moves_per_s: 40.0,
    play: Duration::from_secs(300),
    down: (Duration::from_secs(30), Duration::from_secs(90)),
    churn_pct: 10,
    idle_window: Duration::from_secs(30),
    storm_bare: 1000,
    pairs: 50,
};

/// A club: its mailbox, in a child process, on a fixed port so that its players find it
/// again after a restart.
pub struct Club {
    pub mailbox: Mutex<Option<Node>>,
    pub home: PathBuf,
    pub listen: String,
    /// Its address, ending in `/p2p/<id>`.
    pub addr: String,
    pub pid: std::sync::Mutex<Option<u32>>,
    pub start_s: f64,
    /// For the reconnect storm's bare clients (club 0 of a run with any): the heads of the
    /// games held here, by player index (`key(30, i)`), as each player's node would answer
    /// its mailbox's `GamesSince`.
    pub bare_heads: Vec<Vec<GameHead>>,
}

/// A player's node (stopped while it is down: `node` is `None`, `dir` keeps its home).
pub struct Player {
    pub node: Mutex<Option<Node>>,
    pub home: PathBuf,
    pub id: String,
    pub club: usize,
}

/// The federation: clubs and players.
pub struct World {
    pub s: ScaleSizes,
    pub clubs: Vec<Club>,
    pub players: Vec<Player>,
    /// The league's organiser (a player who plays in no league game).
    pub organiser: usize,
    pub league_players: Vec<usize>,
}

impl World {
    /// Starts player `p` again on its home (the same key and games, a new port).
    pub async fn restart_player(&self, p: usize, dir: TempDir) -> Res<()> {
        let mailbox = self.clubs[self.players[p].club].addr.clone();
        let node = Node::start_process_on(dir, "player", ANY_PORT, &[mailbox]).await?;
        *self.players[p].node.lock().await = Some(node);
        Ok(())
    }

    /// Stops player `p`, keeping its home.
    pub async fn stop_player(&self, p: usize) -> Res<TempDir> {
        let node = self.players[p]
            .node
            .lock()
            .await
            .take()
            .ok_or("player already down")?;
        node.stop_keeping_home().await.ok_or("no home".into())
    }

    pub async fn call(&self, p: usize, r: ApiRequest) -> Res<Value> {
        client::call(&self.players[p].home, r.clone())
            .await
            .map_err(|e| format!("player {p}: {r:?}: {e}").into())
    }

    /// Restarts mailbox `c` on its home and port; returns its start time in seconds.
    pub async fn restart_mailbox(&self, c: usize) -> Res<f64> {
        let club = &self.clubs[c];
        let old = club.mailbox.lock().await.take().ok_or("mailbox down")?;
        let dir = old.stop_keeping_home().await.ok_or("no home")?;
        let bootstrap: Vec<String> = (0..self.clubs.len())
            .filter(|&o| o != c)
            .map(|o| self.clubs[o].addr.clone())
            .collect();
        let t = Instant::now();
        let node = Node::start_process_on(dir, "mailbox", &club.listen, &bootstrap).await?;
        let start_s = t.elapsed().as_secs_f64();
        *club.pid.lock().map_err(|_| "poisoned")? = node.pid();
        *club.mailbox.lock().await = Some(node);
        Ok(start_s)
    }

    pub fn mailbox_pid(&self, c: usize) -> Option<u32> {
        *self.clubs[c].pid.lock().ok()?
    }
}

/// A free loopback port (bound, then released for the mailbox to take).
fn free_port() -> Res<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

pub async fn phase_scale(sizes: Sizes) -> Res<Vec<Row>> {
    let s = sizes.scale;
    eprintln!(
        "[scale] seed {SEED}: {} clubs, {} players, {} live games, league of {}, {} moves/s for {} s",
        s.clubs,
        s.players,
        s.live_games,
        s.league_players,
        s.moves_per_s,
        s.play.as_secs()
    );
    let mut rng = StdRng::seed_from_u64(SEED);
    let mut rows = vec![Row::info(
        PHASE,
        format!(
            "seed {SEED}: {} clubs (mailbox processes), {} players (processes)",
            s.clubs, s.players
        ),
        format!("{} + {} nodes", s.clubs, s.players),
    )];
    let setup = Instant::now();
    let clubs = start_clubs(s).await?;
    for (c, club) in clubs.iter().enumerate() {
        let held = if c == 0 {
            s.first_mailbox_games
        } else {
            s.mailbox_games
        };
        rows.push(Row::check(
            PHASE,
            format!("mailbox {c} start, {held} games held for others"),
            format!("{:.2} s", club.start_s),
            "< 10 s",
            club.start_s < 10.0,
        ));
    }
    let players = start_players(s, &clubs).await?;
    let mut world = World {
        s,
        clubs,
        players,
        organiser: 0,
        league_players: Vec::new(),
    };
    eprintln!(
        "[scale] {} nodes up in {:.1} s",
        world.clubs.len() + world.players.len(),
        setup.elapsed().as_secs_f64()
    );
    let pairs = live_pairs(&world, &mut rng);
    let games = setup::start_games(&world, &pairs).await?;
    let league = setup::start_league(&mut world, &games, &mut rng).await?;
    eprintln!(
        "[scale] {} live games and {} league games started, {:.1} s since setup began",
        games.len(),
        league.len(),
        setup.elapsed().as_secs_f64()
    );
    rows.push(Row::info(
        PHASE,
        "setup: mailboxes, players, games and league started in",
        format!("{:.1} s", setup.elapsed().as_secs_f64()),
    ));
    let world = std::sync::Arc::new(world);
    // SOBRE_SCALE_STORM_ONLY=1: straight to the idle cost and the storm, to study the storm's
    // cost in a minute and a half instead of the whole phase's six.
    if std::env::var_os("SOBRE_SCALE_STORM_ONLY").is_some() {
        rows.extend(cost::idle(&world).await?);
        rows.extend(cost::storm(&world).await?);
        let world = std::sync::Arc::into_inner(world).ok_or("the world is still shared")?;
        stop_all(world).await;
        return Ok(rows);
    }
    let io_before = cost::mailbox_io(&world);
    let players_before = cost::player_io(&world).await;
    let traffic_before = traffic::of_all(&world).await;
    let mut outcome = play::run(world.clone(), games, league, &pairs, &mut rng).await?;
    let io_after = cost::mailbox_io(&world);
    let players_after = cost::player_io(&world).await;
    let traffic_after = traffic::of_all(&world).await;
    rows.extend(std::mem::take(&mut outcome.rows));
    rows.extend(traffic::per_move(
        &world,
        &traffic_before,
        &traffic_after,
        &outcome,
    ));
    rows.extend(cost::bytes_per_move(
        &io_before,
        &io_after,
        &outcome.moves_to_mailbox,
        outcome.restarted_mailbox,
    ));
    rows.extend(cost::player_bytes_per_move(
        &players_before,
        &players_after,
        &outcome.moves_of_player,
    ));
    rows.extend(cost::idle(&world).await?);
    rows.extend(cost::storm(&world).await?);
    rows.extend(find::by_id(&world, &outcome.played, &mut rng).await?);
    let world = std::sync::Arc::into_inner(world).ok_or("the world is still shared")?;
    stop_all(world).await;
    Ok(rows)
}

/// Mailboxes with their held games, each bootstrapped to the ones started before it.
async fn start_clubs(s: ScaleSizes) -> Res<Vec<Club>> {
    let mut clubs: Vec<Club> = Vec::new();
    for c in 0..s.clubs {
        let dir = tempfile::tempdir()?;
        let held = if c == 0 {
            s.first_mailbox_games
        } else {
            s.mailbox_games
        };
        // Hours-old two-ply games between players of the club's own, none of them ours (the
        // first club's are also the reconnect storm's bare clients).
        let t0 = now_ms() - 3_600_000;
        let tag = 30 + c as u32;
        let n = if c == 0 { s.storm_bare.max(100) } else { 100 };
        let games = tokio::task::spawn_blocking(move || {
            signed_games(held, 2, t0, |i| {
                let (white, black) = club_pairing(i, n);
                (key(tag, white as u64), key(tag, black as u64))
            })
        })
        .await?;
        preload(dir.path(), &games).await?;
        let bare_heads = if c == 0 && s.storm_bare > 0 {
            heads_by_player(&games, n, |i| club_pairing(i, n))
        } else {
            Vec::new()
        };
        drop(games);
        let listen = format!("/ip4/127.0.0.1/tcp/{}", free_port()?);
        let bootstrap: Vec<String> = clubs.iter().map(|c| c.addr.clone()).collect();
        let t = Instant::now();
        let node = Node::start_process_on(dir, "mailbox", &listen, &bootstrap).await?;
        let start_s = t.elapsed().as_secs_f64();
        let (_, addr) = node.id().await?;
        clubs.push(Club {
            home: node.home.clone(),
            pid: std::sync::Mutex::new(node.pid()),
            mailbox: Mutex::new(Some(node)),
            listen,
            addr,
            start_s,
            bare_heads,
        });
    }
    Ok(clubs)
}

/// The players of held game `i` among a club's `n` keys: each plays about `2 × games / n`.
fn club_pairing(i: usize, n: usize) -> (usize, usize) {
    let white = i % n;
    (white, (white + 1 + (i / n) % (n - 1)) % n)
}

/// The head of each game (per author, the next sequence number), listed under both its
/// players' indexes as `players(i)` gives them for game `i`.
fn heads_by_player(
    games: &[Vec<SignedEvent>],
    n: usize,
    players: impl Fn(usize) -> (usize, usize),
) -> Vec<Vec<GameHead>> {
    let mut out: Vec<Vec<GameHead>> = vec![Vec::new(); n];
    for (i, g) in games.iter().enumerate() {
        let head = GameHead {
            game: game_id(g),
            have: next_per_author(
                g.iter()
                    .filter_map(|e| e.decode_unverified().ok())
                    .map(|e| (e.author, e.seq)),
            ),
        };
        let (white, black) = players(i);
        out[white].push(head.clone());
        out[black].push(head);
    }
    out
}

/// Players, club by club in turn (player `p` is of club `p % clubs`), a few starting at once.
async fn start_players(s: ScaleSizes, clubs: &[Club]) -> Res<Vec<Player>> {
    let mut players = Vec::with_capacity(s.players);
    for batch in (0..s.players).collect::<Vec<_>>().chunks(8) {
        let started = futures::future::join_all(batch.iter().map(|&p| async move {
            let club = p % clubs.len();
            let mailbox = clubs[club].addr.clone();
            let node = Node::start_process_on(tempfile::tempdir()?, "player", ANY_PORT, &[mailbox])
                .await?;
            let (id, _) = node.id().await?;
            Res::Ok(Player {
                home: node.home.clone(),
                node: Mutex::new(Some(node)),
                id,
                club,
            })
        }))
        .await;
        for p in started {
            players.push(p?);
        }
    }
    Ok(players)
}

/// The live games' pairs (White, Black): every fifth across clubs, the others within one.
fn live_pairs(w: &World, rng: &mut StdRng) -> Vec<(usize, usize)> {
    let n = w.players.len();
    let clubs = w.clubs.len();
    (0..w.s.live_games)
        .map(|g| {
            // Each player is White in about as many games as Black.
            let white = g % n;
            let black = loop {
                let b = rng.gen_range(0..n);
                let same_club = b % clubs == white % clubs;
                if b != white && same_club == (g % 5 != 0 || clubs == 1) {
                    break b;
                }
            };
            (white, black)
        })
        .collect()
}

/// Picks `k` distinct players out of `from`.
pub fn pick(from: &[usize], k: usize, rng: &mut StdRng) -> Vec<usize> {
    let mut v = from.to_vec();
    v.shuffle(rng);
    v.truncate(k);
    v
}

async fn stop_all(w: World) {
    let nodes = w
        .players
        .into_iter()
        .filter_map(|p| p.node.into_inner())
        .chain(w.clubs.into_iter().filter_map(|c| c.mailbox.into_inner()));
    futures::future::join_all(nodes.map(Node::stop)).await;
}
