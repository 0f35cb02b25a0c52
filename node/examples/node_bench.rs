//! End-to-end figures of a sobre node, measured for real: libp2p over loopback TCP, sled on
//! disk in temporary directories, the control socket, `sobre_core::record::verify`.
//!
//! ```text
//! cargo run --release -p sobre-node --example node_bench            # full (about 1 min)
//! cargo run --release -p sobre-node --example node_bench -- quick   # smoke run
//! cargo run --release -p sobre-node --example node_bench -- only=mailbox   # one phase
//! ```
//!
//! 1. `rt`: move round trip between two nodes (control `move` → opponent's watch stream).
//! 2. `mailbox`: durable ingest at a mailbox node of the moves of many games, 16 (and 64)
//!    requests in flight. Live (the figure checked against the target): each move is signed when it
//!    is sent and delivered alone, as a player's node delivers a new move. Backlog: games
//!    signed hours before, each delivery the whole game so far (what a node sends when it
//!    does not know what the mailbox holds, e.g. after a restart).
//! 3. `sync`: catch-up of many games from a node (`Games` + one `Sync` per game), every game
//!    verified by the fetcher.
//! 4. `rss`: resident memory of a node (a child process running `service::run`, exactly as
//!    `sobre node run` does) holding many active games.
//!
//! Inbound requests are rate limited per peer (120 a minute, `NetworkConfig::new`, not
//! configurable through `NodeConfig`), so the load of phases 2 and 3 is spread over as many
//! client peers as needed to stay under it, as many players' nodes would; phase 3 also shows
//! what the player's own node asking for all its games through one connection gets (its
//! catch-up syncs are granted outside the limit).
//!
//! Every WARN the nodes log while a phase runs is counted and listed under its figures
//! (ids elided); `RUST_LOG=sobre_node=debug` also prints the log. `NODE_BENCH_DEBUG=1` names
//! the slow moves of phase 1.

use futures::StreamExt;
use serde_json::Value;
use sobre_core::record::author::Scoresheet;
use sobre_core::record::{
    Challenge, ColourChoice, GameId, Keypair, PlayerId, SignedEvent, StartPosition, verify,
};
use sobre_core::{Game, Move, Position};
use sobre_node::api::ApiRequest;
use sobre_node::client;
use sobre_node::home;
use sobre_node::network::{self, NetworkConfig, NetworkHandle};
use sobre_node::protocol::{self, Request, Response};
use sobre_node::service::{NodeConfig, now_ms, run};
use sobre_node::store::Store;
use sobre_node::view::Summary;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tempfile::TempDir;
use tokio::sync::{Mutex, mpsc, oneshot};

/// Requests one client peer sends in a run: under the 120/minute inbound limit.
const PER_PEER_BUDGET: usize = 100;
/// Requests in flight in phases 2 and 3.
const IN_FLIGHT: usize = 16;
/// Plies before phase 1 starts a new game: a typical game length (about 40 moves).
const MAX_PLIES_PER_GAME: usize = 80;

type BoxError = Box<dyn std::error::Error + Send + Sync>;
type Res<T> = Result<T, BoxError>;

#[derive(Clone, Copy)]
struct Sizes {
    rt_moves: usize,
    mb_games: usize,
    mb_plies: usize,
    sync_games: usize,
    sync_plies: usize,
    rss_games: usize,
    rss_plies: usize,
}

const FULL: Sizes = Sizes {
    rt_moves: 200,
    mb_games: 200,
    mb_plies: 40,
    sync_games: 1000,
    sync_plies: 80,
    rss_games: 10_000,
    rss_plies: 20,
};

const QUICK: Sizes = Sizes {
    rt_moves: 30,
    mb_games: 20,
    mb_plies: 20,
    sync_games: 100,
    sync_plies: 40,
    rss_games: 500,
    rss_plies: 20,
};

/// One line of the final table.
struct Row {
    phase: &'static str,
    what: String,
    value: String,
    target: String,
    verdict: Option<bool>,
}

impl Row {
    fn info(phase: &'static str, what: impl Into<String>, value: impl Into<String>) -> Row {
        Row {
            phase,
            what: what.into(),
            value: value.into(),
            target: String::new(),
            verdict: None,
        }
    }

    fn check(
        phase: &'static str,
        what: impl Into<String>,
        value: impl Into<String>,
        target: impl Into<String>,
        pass: bool,
    ) -> Row {
        Row {
            phase,
            what: what.into(),
            value: value.into(),
            target: target.into(),
            verdict: Some(pass),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("__parts") {
        // Child process of phase 4: where a node's memory goes, step by step.
        let home = PathBuf::from(args.get(1).cloned().unwrap_or_default());
        std::process::exit(child_parts(&home));
    }
    if args.first().map(String::as_str) == Some("__node") {
        // Child process of phase 4: a node exactly as `sobre node run` starts it.
        let home = PathBuf::from(args.get(1).cloned().unwrap_or_default());
        let mailbox = args.get(2).map(String::as_str) == Some("mailbox");
        std::process::exit(child_node(home, mailbox));
    }
    let warnings = WarnCounter::install();
    let quick = args.iter().any(|a| a == "quick");
    let only: Option<String> = args
        .iter()
        .find_map(|a| a.strip_prefix("only=").map(str::to_owned));
    let sizes = if quick { QUICK } else { FULL };
    let wanted = |p: &str| only.as_deref().is_none_or(|o| o == p);

    println!(
        "sobre node_bench ({})",
        if quick { "quick" } else { "full" }
    );
    println!("cpu: {} × {}", cpu_model(), cpus());
    println!("temp dir: {}", std::env::temp_dir().display());
    println!();

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let started = Instant::now();
    let mut rows = Vec::new();
    for name in ["rt", "mailbox", "sync", "rss"] {
        if !wanted(name) {
            continue;
        }
        let t = Instant::now();
        eprintln!("[{name}] running…");
        let result = runtime.block_on(async {
            match name {
                "rt" => phase_round_trip(sizes).await,
                "mailbox" => phase_mailbox(sizes).await,
                "sync" => phase_sync(sizes).await,
                _ => phase_rss(sizes).await,
            }
        });
        let mut result = result;
        if let Ok(r) = &mut result {
            for (msg, n) in warnings.take() {
                r.push(Row::info(
                    phase_label(name),
                    format!("node WARN: {msg}"),
                    n.to_string(),
                ));
            }
        }
        match result {
            Ok(mut r) => rows.append(&mut r),
            Err(e) => rows.push(Row::check(
                phase_label(name),
                "phase failed",
                e.to_string(),
                "",
                false,
            )),
        }
        eprintln!("[{name}] done in {:.1} s", t.elapsed().as_secs_f64());
    }
    print_table(&rows);
    println!("\ntotal {:.1} s", started.elapsed().as_secs_f64());
    // Network tasks of dropped handles may linger: do not wait for them.
    runtime.shutdown_timeout(Duration::from_secs(2));
}

fn phase_label(name: &str) -> &'static str {
    match name {
        "rt" => "1 round trip",
        "mailbox" => "2 mailbox",
        "sync" => "3 catch-up",
        _ => "4 memory",
    }
}

fn print_table(rows: &[Row]) {
    let w = |f: &dyn Fn(&Row) -> usize, min: usize| rows.iter().map(f).max().unwrap_or(0).max(min);
    let (w0, w1, w2, w3) = (
        w(&|r| r.phase.len(), 5),
        w(&|r| r.what.chars().count(), 6),
        w(&|r| r.value.chars().count(), 5),
        w(&|r| r.target.chars().count(), 6),
    );
    println!(
        "{:<w0$}  {:<w1$}  {:>w2$}  {:<w3$}  result",
        "phase", "figure", "value", "target"
    );
    println!("{}", "-".repeat(w0 + w1 + w2 + w3 + 16));
    for r in rows {
        let verdict = match r.verdict {
            Some(true) => "PASS",
            Some(false) => "MISS",
            None => "",
        };
        let pad = |s: &str, n: usize| {
            let len = s.chars().count();
            (s.to_owned(), " ".repeat(n.saturating_sub(len)))
        };
        let (what, p1) = pad(&r.what, w1);
        let (value, p2) = pad(&r.value, w2);
        let (target, p3) = pad(&r.target, w3);
        println!(
            "{:<w0$}  {what}{p1}  {p2}{value}  {target}{p3}  {verdict}",
            r.phase
        );
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

// ----- what the nodes warn about -----

/// Counts the WARN events of every node in this process by message (ids and numbers
/// elided), so a figure comes with what went wrong while it was measured. With `RUST_LOG`
/// set, the log is also printed to stderr.
#[derive(Clone, Default)]
struct WarnCounter(Arc<std::sync::Mutex<BTreeMap<String, usize>>>);

impl WarnCounter {
    fn install() -> WarnCounter {
        use tracing_subscriber::Layer;
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::util::SubscriberInitExt;
        let counter = WarnCounter::default();
        let fmt = std::env::var_os("RUST_LOG").is_some().then(|| {
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(tracing_subscriber::EnvFilter::from_default_env())
        });
        let _ = tracing_subscriber::registry()
            .with(fmt)
            .with(
                counter
                    .clone()
                    .with_filter(tracing_subscriber::filter::LevelFilter::WARN),
            )
            .try_init();
        counter
    }

    fn take(&self) -> BTreeMap<String, usize> {
        self.0
            .lock()
            .map(|mut m| std::mem::take(&mut *m))
            .unwrap_or_default()
    }
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for WarnCounter {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        struct Message(String);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, f: &tracing::field::Field, v: &dyn std::fmt::Debug) {
                if f.name() == "message" {
                    self.0 = format!("{v:?}");
                }
            }
        }
        let mut m = Message(String::new());
        event.record(&mut m);
        let key = elide(&m.0);
        if let Ok(mut map) = self.0.lock() {
            *map.entry(key).or_default() += 1;
        }
    }
}

/// A message with ids (long alphanumeric words) as `…` and numbers as `N`, cut to 72 chars.
fn elide(msg: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.len() >= 16 {
            out.push('…');
        } else if !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
            out.push('N');
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in msg.chars() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out.chars().take(72).collect()
}

// ----- statistics -----

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Nearest-rank percentile of sorted samples.
fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

// ----- deterministic games, signed with Scoresheet -----

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A legal move that does not end the game (no mate, stalemate, dead position, fivefold or
/// 75-move rule), picked by `rng`; `None` if every move ends it.
fn pick_move(game: &Game, rng: &mut Rng) -> Option<Move> {
    let moves = game.position().legal_moves();
    let playable: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| {
            let mut g = game.clone();
            g.play(m).is_ok() && g.automatic_end().is_none()
        })
        .collect();
    if playable.is_empty() {
        return None;
    }
    Some(playable[(rng.next() % playable.len() as u64) as usize])
}

/// A key from a tag and an index (any 32 bytes are an ed25519 secret).
fn key(tag: u32, i: u64) -> Keypair {
    let mut s = [0u8; 32];
    s[..4].copy_from_slice(&tag.to_le_bytes());
    s[4..12].copy_from_slice(&i.to_le_bytes());
    s[31] = 0x5b;
    Keypair::from_secret_bytes(&s)
}

/// A signed game: challenge (by `white`, who plays White), accept, then exactly `plies`
/// moves, one minute apart from `t0`. Retries other seeds until a game lasts.
fn signed_game(
    white: &Keypair,
    black: &Keypair,
    seed: u64,
    plies: usize,
    t0: u64,
) -> Vec<SignedEvent> {
    let mut s = seed;
    loop {
        if let Some(g) = try_signed_game(white, black, s, plies, t0) {
            return g;
        }
        s = s.wrapping_add(0x1000_0000);
    }
}

fn try_signed_game(
    white: &Keypair,
    black: &Keypair,
    seed: u64,
    plies: usize,
    t0: u64,
) -> Option<Vec<SignedEvent>> {
    let mut rng = Rng::new(seed);
    let terms = Challenge {
        opponent: black.player_id(),
        colour: ColourChoice::ChallengerWhite,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: None,
    };
    let (ws, ch) = Scoresheet::challenge(white.clone(), terms, t0).ok()?;
    let mut bs = Scoresheet::join(black.clone(), ws.game());
    bs.saw(ch.id());
    let acc = bs.accept(None, t0 + 1_000).ok()?;
    let mut sheets = [ws, bs];
    sheets[0].saw(acc.id());
    let mut events = vec![ch, acc];
    let mut game = Game::new(Position::new());
    let mut t = t0 + 1_000;
    for _ in 0..plies {
        let m = pick_move(&game, &mut rng)?;
        let c = game.position().turn().index();
        t += 60_000;
        let e = sheets[c].play(m, t).ok()?;
        sheets[1 - c].saw(e.id());
        game.play(m).ok()?;
        events.push(e);
    }
    Some(events)
}

/// `n` games signed on all cores; game `i` is `players(i)`'s.
fn signed_games(
    n: usize,
    plies: usize,
    t0: u64,
    players: impl Fn(usize) -> (Keypair, Keypair) + Sync,
) -> Vec<Vec<SignedEvent>> {
    let threads = cpus().max(1);
    let mut out: Vec<Option<Vec<SignedEvent>>> = (0..n).map(|_| None).collect();
    let chunk = n.div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (c, slots) in out.chunks_mut(chunk).enumerate() {
            let players = &players;
            s.spawn(move || {
                for (j, slot) in slots.iter_mut().enumerate() {
                    let i = c * chunk + j;
                    let (w, b) = players(i);
                    // Distinct challenge times make distinct games between the same players.
                    *slot = Some(signed_game(&w, &b, i as u64 + 1, plies, t0 + i as u64));
                }
            });
        }
    });
    out.into_iter().map(|g| g.expect("authored")).collect()
}

/// The moves of a game signed by [`signed_game`], replayed from its events.
fn game_moves(events: &[SignedEvent]) -> Vec<Move> {
    let state = verify(events).expect("a signed game verifies");
    state.moves.iter().map(|m| m.mv).collect()
}

fn game_id(events: &[SignedEvent]) -> GameId {
    events[0].id()
}

/// Writes games straight into the store of `home` (the node is not running).
async fn preload(home: &Path, games: &[Vec<SignedEvent>]) -> Res<()> {
    let store = Store::open(&home::db_path(home))?;
    for g in games {
        let id = game_id(g);
        for e in g {
            store.insert_event(&id, e)?;
        }
    }
    store.flush().await?;
    Ok(())
}

// ----- nodes in this process -----

struct Node {
    home: PathBuf,
    _dir: TempDir,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    /// A node in a child process of its own (see [`Node::start_process`]).
    child: Option<std::process::Child>,
}

impl Node {
    /// Starts a node in `dir` (its key is created if missing) and waits for its socket.
    async fn start(dir: TempDir, mailbox: bool) -> Res<Node> {
        let home = dir.path().to_path_buf();
        home::init_key(&home)?;
        let config = NodeConfig {
            home: home.clone(),
            listen: vec!["/ip4/127.0.0.1/tcp/0".into()],
            mailbox,
            ..NodeConfig::default()
        };
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            if let Err(e) = run(config, async {
                let _ = rx.await;
            })
            .await
            {
                eprintln!("node stopped with error: {e}");
            }
        });
        let node = Node {
            home,
            _dir: dir,
            stop: Some(tx),
            task: Some(task),
            child: None,
        };
        node.wait_ready().await?;
        Ok(node)
    }

    /// Starts a node in `dir` in a child process (this binary's `__node`, which runs
    /// `service::run` as `sobre node run` does), so that its CPU time is its own.
    async fn start_process(dir: TempDir, mailbox: bool) -> Res<Node> {
        let home = dir.path().to_path_buf();
        home::init_key(&home)?;
        let mut cmd = std::process::Command::new(std::env::current_exe()?);
        cmd.arg("__node").arg(&home);
        if mailbox {
            cmd.arg("mailbox");
        }
        let child = cmd
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()?;
        let node = Node {
            home,
            _dir: dir,
            stop: None,
            task: None,
            child: Some(child),
        };
        node.wait_ready().await?;
        Ok(node)
    }

    /// User and system CPU seconds of the node's own process (`None` in this process).
    fn cpu_seconds(&self) -> Option<f64> {
        process_cpu_seconds(&self.child.as_ref()?.id().to_string())
    }

    async fn wait_ready(&self) -> Res<()> {
        let node = self;
        let deadline = Instant::now() + Duration::from_secs(120);
        while client::call(&node.home, ApiRequest::Id).await.is_err() {
            if Instant::now() > deadline {
                return Err("node did not start".into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Ok(())
    }

    async fn call(&self, r: ApiRequest) -> Res<Value> {
        client::call(&self.home, r.clone())
            .await
            .map_err(|e| format!("{r:?}: {e}").into())
    }

    async fn id(&self) -> Res<(String, String)> {
        let v = self.call(ApiRequest::Id).await?;
        let addr = v["addresses"]
            .as_array()
            .and_then(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .find(|a| a.contains("/127.0.0.1/tcp/"))
            })
            .ok_or("no loopback address")?
            .to_owned();
        let id = v["player_id"].as_str().ok_or("no player id")?.to_owned();
        Ok((id, addr))
    }

    /// Events of the node's watch stream, stamped on arrival.
    fn watch(&self) -> mpsc::UnboundedReceiver<(Instant, Value)> {
        let (tx, rx) = mpsc::unbounded_channel();
        let home = self.home.clone();
        tokio::spawn(async move {
            let _ = client::watch(&home, None, move |v| tx.send((Instant::now(), v)).is_ok()).await;
        });
        rx
    }

    async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(20), t).await;
        }
        if let Some(mut child) = self.child.take() {
            let _ = client::call(&self.home, ApiRequest::Stop).await;
            let deadline = Instant::now() + Duration::from_secs(20);
            while matches!(child.try_wait(), Ok(None)) {
                if Instant::now() > deadline {
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

impl Drop for Node {
    /// A phase that failed leaves no node process behind.
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Waits for the first `what` event of `game` by `by` on a watch stream.
/// User and system CPU seconds used so far by process `pid` ("self" for this one).
fn process_cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which is in parentheses): utime and stime are the
    // 14th and 15th fields, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

async fn wait_event(
    rx: &mut mpsc::UnboundedReceiver<(Instant, Value)>,
    game: &str,
    what: &str,
    by: &str,
) -> Res<Instant> {
    let deadline = Duration::from_secs(30);
    loop {
        let (t, v) = tokio::time::timeout(deadline, rx.recv())
            .await
            .map_err(|_| format!("no {what} event within 30 s"))?
            .ok_or("watch stream ended")?;
        if v["game"] == game && v["event"] == what && v["by"] == by {
            return Ok(t);
        }
    }
}

// ----- phase 1: move round trip -----

async fn phase_round_trip(s: Sizes) -> Res<Vec<Row>> {
    let a = Node::start(tempfile::tempdir()?, false).await?;
    let b = Node::start(tempfile::tempdir()?, false).await?;
    let (a_id, _) = a.id().await?;
    let (b_id, b_addr) = b.id().await?;
    a.call(ApiRequest::Connect { addr: b_addr }).await?;
    let mut a_rx = a.watch();
    let mut b_rx = b.watch();
    // Let the watchers subscribe before the first event.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let mut rtt = Vec::new();
    let mut cmd = Vec::new();
    // Round trips by ply, in thirds of a game: every step re-verifies the whole game.
    let mut by_ply: [Vec<f64>; 3] = Default::default();
    let mut games = 0;
    let mut rng = Rng::new(42);
    while rtt.len() < s.rt_moves {
        let ch = a
            .call(ApiRequest::Challenge {
                opponent: b_id.clone(),
                color: "white".into(),
                time_control: "3d".into(),
                chess960: false,
                fen: None,
            })
            .await?;
        let game = ch["game"].as_str().ok_or("no game id")?.to_owned();
        wait_event(&mut b_rx, &game, "challenge", &a_id).await?;
        b.call(ApiRequest::Accept {
            game: game.clone(),
            color: None,
            position: None,
        })
        .await?;
        wait_event(&mut a_rx, &game, "accept", &b_id).await?;
        games += 1;
        let mut board = Game::new(Position::new());
        for ply in 0..MAX_PLIES_PER_GAME {
            if rtt.len() >= s.rt_moves {
                break;
            }
            let Some(m) = pick_move(&board, &mut rng) else {
                break;
            };
            let text = sobre_core::uci::to_uci(board.position(), m);
            let (mover, mover_id, rx) = if ply % 2 == 0 {
                (&a, &a_id, &mut b_rx)
            } else {
                (&b, &b_id, &mut a_rx)
            };
            while rx.try_recv().is_ok() {}
            let t0 = Instant::now();
            mover
                .call(ApiRequest::Move {
                    game: game.clone(),
                    text,
                    notation: None,
                })
                .await?;
            let t1 = Instant::now();
            let t2 = wait_event(rx, &game, "move", mover_id).await?;
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

    let (rtt, cmd) = (sorted(rtt), sorted(cmd));
    let n = rtt.len();
    let p = "1 round trip";
    Ok(vec![
        Row::info(
            p,
            format!("moves timed ({games} game(s), alternating A/B)"),
            n.to_string(),
        ),
        Row::check(
            p,
            "move → opponent's watch event, p50",
            format!("{:.2} ms", pct(&rtt, 50.0)),
            "< 5 ms",
            pct(&rtt, 50.0) < 5.0,
        ),
        Row::check(
            p,
            "move → opponent's watch event, p99",
            format!("{:.2} ms", pct(&rtt, 99.0)),
            "< 20 ms",
            pct(&rtt, 99.0) < 20.0,
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
            format!("{:.2} ms", pct(&cmd, 50.0)),
        ),
        Row::info(
            p,
            "`move` call returns, p99 / max",
            format!(
                "{:.2} / {:.2} ms",
                pct(&cmd, 99.0),
                cmd.last().copied().unwrap_or(f64::NAN)
            ),
        ),
    ])
}

// ----- client peers -----

/// A client peer: its own libp2p swarm with a fresh key, connected to `addr`.
struct Peer {
    net: NetworkHandle,
}

async fn client_peers(n: usize, addr: &str) -> Res<(Vec<Peer>, libp2p::PeerId)> {
    let keys = (0..n)
        .map(|_| Keypair::from_secret_bytes(&rand::random()))
        .collect();
    client_peers_as(keys, addr).await
}

/// Client peers with the given player keys (a player's own node is its key's peer).
async fn client_peers_as(keys: Vec<Keypair>, addr: &str) -> Res<(Vec<Peer>, libp2p::PeerId)> {
    let mut peers = Vec::with_capacity(keys.len());
    let mut server = None;
    for k in keys {
        let mut cfg = NetworkConfig::new(home::libp2p_keypair(&k)?);
        cfg.listen = Vec::new();
        let (net, mut events) = network::spawn(cfg).await?;
        // Nobody asks a client anything; drain what the swarm reports.
        tokio::spawn(async move { while events.recv().await.is_some() {} });
        server = Some(net.dial(addr.parse()?).await?);
        peers.push(Peer { net });
    }
    Ok((peers, server.ok_or("no client peers")?))
}

/// A load-generating peer of the mailbox phase: a real libp2p swarm (TCP, Noise, Yamux) that
/// delivers either as a player's node does (one `/sobre/deliver-stream/1` stream, run by the
/// node's own `network::pipe::pipe`) or as a node without streams does (`/sobre/deliver/1`
/// request-response, one stream per delivery, with the node's framing). A player's full node
/// also runs gossipsub, Kademlia, identify and the rest; on this 2-core machine the
/// generator's CPU is taken from the mailbox measured, so it carries only what a delivery
/// needs. The mailbox itself is the real node, unchanged.
struct LightPeer {
    via: Via,
    rr: mpsc::UnboundedSender<(Request, oneshot::Sender<Result<Response, String>>)>,
    pipe: mpsc::Sender<network::pipe::Outgoing>,
}

/// How the load peers deliver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    /// One long-lived stream per peer, pipelined (what nodes use between themselves).
    Stream,
    /// Request-response, a new stream per delivery.
    RequestResponse,
}

#[derive(libp2p::swarm::NetworkBehaviour)]
struct Light {
    rr: libp2p::request_response::Behaviour<FrameCodec>,
    stream: libp2p_stream::Behaviour,
}

/// The deliver protocol's framing, client side.
#[derive(Clone, Default)]
struct FrameCodec;

impl libp2p::request_response::Codec for FrameCodec {
    type Protocol = libp2p::StreamProtocol;
    type Request = Request;
    type Response = Response;

    async fn read_request<T>(&mut self, _: &Self::Protocol, _: &mut T) -> std::io::Result<Request>
    where
        T: futures::AsyncRead + Unpin + Send,
    {
        Err(std::io::Error::other("the load generator serves nothing"))
    }

    async fn read_response<T>(
        &mut self,
        _: &Self::Protocol,
        io: &mut T,
    ) -> std::io::Result<Response>
    where
        T: futures::AsyncRead + Unpin + Send,
    {
        use futures::AsyncReadExt;
        let mut len = [0u8; 4];
        io.read_exact(&mut len).await?;
        let mut buf = vec![0u8; u32::from_be_bytes(len) as usize];
        io.read_exact(&mut buf).await?;
        protocol::decode(&buf).map_err(std::io::Error::other)
    }

    async fn write_request<T>(
        &mut self,
        _: &Self::Protocol,
        io: &mut T,
        request: Request,
    ) -> std::io::Result<()>
    where
        T: futures::AsyncWrite + Unpin + Send,
    {
        use futures::AsyncWriteExt;
        let bytes = protocol::encode(&request).map_err(std::io::Error::other)?;
        let mut frame = Vec::with_capacity(4 + bytes.len());
        frame.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        frame.extend_from_slice(&bytes);
        io.write_all(&frame).await?;
        io.flush().await
    }

    async fn write_response<T>(
        &mut self,
        _: &Self::Protocol,
        _: &mut T,
        _: Response,
    ) -> std::io::Result<()>
    where
        T: futures::AsyncWrite + Unpin + Send,
    {
        Err(std::io::Error::other("the load generator serves nothing"))
    }
}

impl LightPeer {
    /// A light peer with a fresh key, connected to the node at `addr` (`server`).
    async fn connect(addr: &str, server: libp2p::PeerId, via: Via) -> Res<LightPeer> {
        use libp2p::request_response::{self, ProtocolSupport};
        use libp2p::swarm::SwarmEvent;
        let addr: libp2p::Multiaddr = addr.parse()?;
        let mut swarm = libp2p::SwarmBuilder::with_new_identity()
            .with_tokio()
            .with_tcp(
                libp2p::tcp::Config::default().nodelay(true),
                libp2p::noise::Config::new,
                libp2p::yamux::Config::default,
            )?
            .with_behaviour(|_| Light {
                rr: request_response::Behaviour::with_codec(
                    FrameCodec,
                    [(
                        libp2p::StreamProtocol::new(sobre_node::protocol::DELIVER_PROTOCOL),
                        ProtocolSupport::Outbound,
                    )],
                    request_response::Config::default()
                        .with_request_timeout(Duration::from_secs(60))
                        .with_max_concurrent_streams(1024),
                ),
                stream: libp2p_stream::Behaviour::new(),
            })?
            .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(120)))
            .build();
        swarm.dial(addr.clone())?;
        // Connected before the first request, as a player's node is.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ev = tokio::time::timeout_at(deadline.into(), swarm.select_next_some())
                .await
                .map_err(|_| "light peer: no connection")?;
            match ev {
                SwarmEvent::ConnectionEstablished { peer_id, .. } if peer_id == server => break,
                SwarmEvent::OutgoingConnectionError { error, .. } => {
                    return Err(format!("light peer: {error}").into());
                }
                _ => {}
            }
        }
        let (pipe, queue) = mpsc::channel(sobre_node::protocol::MAX_PIPELINED);
        if via == Via::Stream {
            tokio::spawn(network::pipe::pipe(
                server,
                swarm.behaviour().stream.new_control(),
                queue,
                Duration::from_secs(60),
                Duration::from_secs(120),
            ));
        }
        let (tx, mut rx) =
            mpsc::unbounded_channel::<(Request, oneshot::Sender<Result<Response, String>>)>();
        tokio::spawn(async move {
            let mut waiting = std::collections::HashMap::new();
            loop {
                tokio::select! {
                    cmd = rx.recv() => {
                        let Some((req, reply)) = cmd else { break };
                        let id = swarm.behaviour_mut().rr.send_request_with_addresses(&server, req, vec![addr.clone()]);
                        waiting.insert(id, reply);
                    }
                    ev = swarm.select_next_some() => match ev {
                        SwarmEvent::Behaviour(LightEvent::Rr(request_response::Event::Message {
                            message: request_response::Message::Response { request_id, response },
                            ..
                        })) => {
                            if let Some(r) = waiting.remove(&request_id) {
                                let _ = r.send(Ok(response));
                            }
                        }
                        SwarmEvent::Behaviour(LightEvent::Rr(request_response::Event::OutboundFailure {
                            request_id, error, ..
                        })) => {
                            if let Some(r) = waiting.remove(&request_id) {
                                let _ = r.send(Err(error.to_string()));
                            }
                        }
                        _ => {}
                    },
                }
            }
        });
        Ok(LightPeer { via, rr: tx, pipe })
    }

    async fn request(&self, req: Request) -> Result<Response, String> {
        let stopped = || "light peer stopped".to_owned();
        match self.via {
            Via::RequestResponse => {
                let (tx, rx) = oneshot::channel();
                self.rr.send((req, tx)).map_err(|_| stopped())?;
                rx.await.map_err(|_| stopped())?
            }
            Via::Stream => {
                let (tx, rx) = oneshot::channel();
                self.pipe.send((req, tx)).await.map_err(|_| stopped())?;
                rx.await.map_err(|_| stopped())?.map_err(|e| e.to_string())
            }
        }
    }
}

async fn shutdown_peers(peers: Vec<Peer>) {
    futures::future::join_all(peers.iter().map(|p| p.net.shutdown())).await;
}

// ----- phase 2: mailbox ingest -----

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
async fn phase_mailbox(s: Sizes) -> Res<Vec<Row>> {
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
    let st = mb.call(ApiRequest::Status).await?;
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
    for (reason, n) in failures.lock().await.iter() {
        rows.push(Row::info(p, format!("failed: {reason}"), n.to_string()));
    }
    Ok(rows)
}

// ----- phase 3: catch-up sync -----

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

async fn phase_sync(s: Sizes) -> Res<Vec<Row>> {
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

    // What the player's own node asking for everything through one connection gets (the
    // service asks for every game at once when it meets its mailbox).
    let (one, server) = client_peers_as(vec![key(3, 0)], &addr).await?;
    let listed_one = list_games(&one[0].net, server, pid).await?;
    let (_, ok_one, failed_one) = fetch_games(&one, server, &listed_one, s.sync_plies).await;
    shutdown_peers(one).await;

    // The measured run: requests spread so no peer exceeds the inbound rate limit.
    let n_peers = (s.sync_games + 1).div_ceil(PER_PEER_BUDGET);
    let (peers, server) = client_peers(n_peers, &addr).await?;
    let start = Instant::now();
    let listed = list_games(&peers[0].net, server, pid).await?;
    let (events, ok, failed) = fetch_games(&peers, server, &listed, s.sync_plies).await;
    let elapsed = start.elapsed().as_secs_f64();
    shutdown_peers(peers).await;
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
                "Games + {} Sync, verified, {n_peers} peers, {IN_FLIGHT} in flight",
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
            "same through ONE peer (as service.rs catches up)",
            format!("{ok_one}/{} games", listed_one.len()),
            "all games",
            ok_one == s.sync_games,
        ),
    ];
    for (reason, n) in failed_one {
        rows.push(Row::info(
            p,
            format!("  one peer, failed: {reason}"),
            n.to_string(),
        ));
    }
    for (reason, n) in failed {
        rows.push(Row::info(p, format!("failed: {reason}"), n.to_string()));
    }
    Ok(rows)
}

// ----- phase 4: resident memory -----

fn child_node(home: PathBuf, mailbox: bool) -> i32 {
    let config = NodeConfig {
        home,
        mailbox,
        listen: vec!["/ip4/127.0.0.1/tcp/0".into()],
        ..NodeConfig::default()
    };
    let Ok(runtime) = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    else {
        return 2;
    };
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    match runtime.block_on(run(config, stop)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("node: {e}");
            1
        }
    }
}

/// What `Service::load` holds, step by step, without the network: prints the VmRSS (KiB)
/// at start, after reading every game through sled (nothing kept), and after verifying
/// every game and keeping its `view::Summary` (all `load` keeps; events and full states
/// are read again when a game is used).
fn child_parts(home: &Path) -> i32 {
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

/// `VmRSS` and `VmHWM` of a process, in KiB.
fn rss_kib(pid: u32) -> Option<(u64, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// Runs a node on `home` in a child process until it reports `games` games; returns (RSS,
/// peak RSS) in KiB and the seconds it took to answer.
async fn measure_child(home: &Path, games: usize) -> Res<(u64, u64, f64)> {
    let exe = std::env::current_exe()?;
    let mut child = std::process::Command::new(exe)
        .arg("__node")
        .arg(home)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    let pid = child.id();
    let result = wait_and_measure(home, games, pid).await;
    let _ = client::call(home, ApiRequest::Stop).await;
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

async fn wait_and_measure(home: &Path, games: usize, pid: u32) -> Res<(u64, u64, f64)> {
    let start = Instant::now();
    let deadline = start + Duration::from_secs(180);
    loop {
        if let Ok(v) = client::call(home, ApiRequest::Status).await
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
    let (rss, hwm) = rss_kib(pid).ok_or("cannot read the child's /proc status")?;
    Ok((rss, hwm, ready))
}

async fn phase_rss(s: Sizes) -> Res<Vec<Row>> {
    let p = "4 memory";
    let empty = tempfile::tempdir()?;
    home::init_key(empty.path())?;
    let (base_rss, _, _) = measure_child(empty.path(), 0).await?;

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
    let (rss, hwm, ready) = measure_child(dir.path(), s.rss_games).await?;
    let mib = |k: u64| k as f64 / 1024.0;
    let parts = std::process::Command::new(std::env::current_exe()?)
        .arg("__parts")
        .arg(dir.path())
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
            "node start until `status` shows them all",
            format!("{ready:.1} s"),
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

fn dir_size(p: &Path) -> u64 {
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
