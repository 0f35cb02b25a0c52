//! Phase 5, issue 18: a victim node (a child process, default limits) plays an honest game
//! while strangers attack it without breaking a rule, one attack at a time. For each attack:
//! the honest move round trip (p50/p99), the victim's peak resident memory and its disk
//! growth. The attackers run in this process (real libp2p peers under fresh keys, all from
//! 127.0.0.1), paced so that they do not simply take the machine's two cores from the victim:
//! what is measured is what the victim does with their traffic.

use crate::gossip::RawGossip;
use crate::memory::{dir_size, rss_kib};
use crate::nodes::{Node, wait_event};
use crate::stats::{ms, pct, sorted};
use crate::table::Row;
use crate::{MAX_PLIES_PER_GAME, Res, Sizes};
use libp2p::{Multiaddr, PeerId};
use sobre_core::record::{
    Challenge, ColourChoice, GameId, Keypair, PlayerId, Scoresheet, SignedEvent, StartPosition,
};
use sobre_core::test_support::Lines;
use sobre_core::{Game, Position};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::network::{self, NetworkConfig, NetworkHandle};
use sobre_node::protocol::{self, Gossip, Request};
use sobre_node::time::now_ms;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

const PHASE: &str = "5 under attack";
/// Issue 18's acceptance: an honest game's move round trip p99 while an attack runs.
const P99_TARGET_MS: f64 = 50.0;
/// Issue 18's acceptance: the victim's resident memory while an attack runs.
const RSS_TARGET_BYTES: f64 = 200e6;
/// What an attack may add to the victim's disk: the honest moves' own records and sled's
/// bookkeeping, not the attacker's bytes (tens of megabytes sent in each attack).
const DISK_GROWTH_BOUND: u64 = 4 << 20;
/// Pause between two requests of one attacker task.
const PACE: Duration = Duration::from_millis(5);
/// Attacker tasks running at once in each attack.
const TASKS: usize = 4;

/// The attacks, in the order they run.
#[derive(Clone, Copy, Debug)]
enum Attack {
    None,
    ChatAndLeave,
    Identities,
    BadSignatures,
    OversizedGossip,
    Sync,
}

impl Attack {
    fn label(self) -> &'static str {
        match self {
            Attack::None => "no attack (baseline)",
            Attack::ChatAndLeave => "chat+leave flood in pending challenges",
            Attack::Identities => "300 identities from one address",
            Attack::BadSignatures => "bad-signature flood (identity rotated when cut off)",
            Attack::OversizedGossip => "oversized gossip (1 MiB) on the inbox topic",
            Attack::Sync => "strangers' sync and game-list requests",
        }
    }
}

/// The honest game: the victim against its opponent, a new game when one grows long.
struct Honest {
    victim: Node,
    opponent: Node,
    v_id: String,
    o_id: String,
    v_rx: mpsc::UnboundedReceiver<(Instant, serde_json::Value)>,
    o_rx: mpsc::UnboundedReceiver<(Instant, serde_json::Value)>,
    game: String,
    board: Game,
    ply: usize,
    lines: Lines,
}

impl Honest {
    async fn start() -> Res<Honest> {
        let victim = Node::start_process_with(tempfile::tempdir()?, "strict").await?;
        let opponent = Node::start(tempfile::tempdir()?, false).await?;
        let (v_id, v_addr) = victim.id().await?;
        let (o_id, _) = opponent.id().await?;
        opponent
            .call(ApiRequest::Connect(request::Connect { addr: v_addr }))
            .await?;
        let v_rx = victim.watch();
        let o_rx = opponent.watch();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let mut h = Honest {
            victim,
            opponent,
            v_id,
            o_id,
            v_rx,
            o_rx,
            game: String::new(),
            board: Game::new(Position::new()),
            ply: 0,
            lines: Lines::new(7).endless(),
        };
        h.new_game().await?;
        Ok(h)
    }

    async fn new_game(&mut self) -> Res<()> {
        let ch = self
            .opponent
            .call(ApiRequest::Challenge(request::Challenge {
                opponent: self.v_id.clone(),
                color: sobre_core::record::ColourChoice::ChallengerWhite,
                time_control: "3d".into(),
                chess960: false,
                fen: None,
                terms: Default::default(),
            }))
            .await?;
        self.game = ch["game"].as_str().ok_or("no game id")?.to_owned();
        wait_event(&mut self.v_rx, &self.game, "challenge", &self.o_id).await?;
        self.victim
            .call(ApiRequest::Accept(request::Accept {
                game: self.game.clone(),
                color: None,
                position: None,
            }))
            .await?;
        wait_event(&mut self.o_rx, &self.game, "accept", &self.v_id).await?;
        self.board = Game::new(Position::new());
        self.ply = 0;
        Ok(())
    }

    /// One move, timed from the `move` call to the other side's watch event; returns once
    /// its receipt is back at the mover (as phase 1 does).
    async fn timed_move(&mut self) -> Res<f64> {
        if self.ply >= MAX_PLIES_PER_GAME {
            self.new_game().await?;
        }
        let m = self
            .lines
            .next_move(&self.board)
            .ok_or("the line generator ran out of moves")?;
        let text = sobre_core::uci::to_uci(self.board.position(), m);
        // The opponent has White.
        let (mover, mover_id, other_id, rx, mover_rx) = if self.ply.is_multiple_of(2) {
            (
                &self.opponent,
                &self.o_id,
                &self.v_id,
                &mut self.v_rx,
                &mut self.o_rx,
            )
        } else {
            (
                &self.victim,
                &self.v_id,
                &self.o_id,
                &mut self.o_rx,
                &mut self.v_rx,
            )
        };
        while rx.try_recv().is_ok() {}
        while mover_rx.try_recv().is_ok() {}
        let t0 = Instant::now();
        mover
            .call(ApiRequest::Move(request::Move {
                game: self.game.clone(),
                text,
                notation: None,
            }))
            .await?;
        let t1 = wait_event(rx, &self.game, "move", mover_id).await?;
        wait_event(mover_rx, &self.game, "receipt", other_id).await?;
        self.board.play(m)?;
        self.ply += 1;
        Ok(ms(t1.saturating_duration_since(t0)))
    }
}

/// What one attack did and what it cost the victim.
struct Outcome {
    attack: Attack,
    rtt: Vec<f64>,
    peak_rss_kib: u64,
    disk_growth: u64,
    sent: u64,
    sent_bytes: u64,
}

pub async fn phase_attack(s: Sizes) -> Res<Vec<Row>> {
    let mut honest = Honest::start().await?;
    let pid = honest
        .victim
        .pid()
        .ok_or("the victim is not a child process")?;
    let (v_peer, v_addr) = {
        let (id, addr) = honest.victim.id().await?;
        (id.parse::<PeerId>()?, addr.parse::<Multiaddr>()?)
    };
    let victim_player: PlayerId = honest.v_id.parse()?;
    // Warm up: the first moves pay for connections and caches.
    for _ in 0..4 {
        honest.timed_move().await?;
    }
    let mut outcomes = Vec::new();
    for attack in [
        Attack::None,
        Attack::ChatAndLeave,
        Attack::Identities,
        Attack::BadSignatures,
        Attack::OversizedGossip,
        Attack::Sync,
    ] {
        eprintln!("[attack] {}", attack.label());
        let target = Target {
            peer: v_peer,
            addr: v_addr.clone(),
            player: victim_player,
            game: GameId::from_hex(&honest.game).ok_or("a game id")?,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let counters = Arc::new(Counters::default());
        let disk_before = dir_size(&honest.victim.home);
        let attackers = launch(attack, &target, &stop, &counters).await?;
        // Let the attack reach its full rate before the honest moves are timed.
        tokio::time::sleep(Duration::from_secs(1)).await;
        let sampler = sample_rss(pid, stop.clone());
        // The honest moves are spread over the attack's duration, so it runs that long.
        let mut tick = tokio::time::interval(s.attack_duration / s.attack_moves.max(1) as u32);
        let mut rtt = Vec::with_capacity(s.attack_moves);
        for _ in 0..s.attack_moves {
            tick.tick().await;
            rtt.push(honest.timed_move().await?);
        }
        stop.store(true, Ordering::Relaxed);
        let peak_rss_kib = sampler.await?;
        for a in attackers {
            let _ = tokio::time::timeout(Duration::from_secs(20), a).await;
        }
        outcomes.push(Outcome {
            attack,
            rtt: sorted(rtt),
            peak_rss_kib,
            disk_growth: dir_size(&honest.victim.home).saturating_sub(disk_before),
            sent: counters.sent.load(Ordering::Relaxed),
            sent_bytes: counters.bytes.load(Ordering::Relaxed),
        });
    }
    let hwm = rss_kib(pid).map_or(0, |(_, h)| h);
    honest.victim.stop().await;
    honest.opponent.stop().await;
    Ok(rows(&outcomes, hwm, s))
}

fn rows(outcomes: &[Outcome], hwm_kib: u64, s: Sizes) -> Vec<Row> {
    let mib = |kib: u64| kib as f64 / 1024.0;
    let mut rows = vec![Row::info(
        PHASE,
        "honest moves timed per attack, spread over (victim in a child process, default limits)",
        format!("{} over {} s", s.attack_moves, s.attack_duration.as_secs()),
    )];
    for o in outcomes {
        let l = o.attack.label();
        let (p50, p99) = (pct(&o.rtt, 50.0), pct(&o.rtt, 99.0));
        if !matches!(o.attack, Attack::None) {
            rows.push(Row::info(
                PHASE,
                format!("{l}: attacker messages / bytes sent"),
                format!("{} / {:.1} MiB", o.sent, o.sent_bytes as f64 / 1048576.0),
            ));
        }
        rows.push(Row::check(
            PHASE,
            format!("{l}: honest round trip p50 / p99"),
            format!("{p50:.2} / {p99:.2} ms"),
            format!("p99 < {P99_TARGET_MS} ms"),
            p99 < P99_TARGET_MS,
        ));
        rows.push(Row::check(
            PHASE,
            format!("{l}: victim peak VmRSS"),
            format!("{:.1} MiB", mib(o.peak_rss_kib)),
            "< 200 MB",
            (o.peak_rss_kib as f64 * 1024.0) < RSS_TARGET_BYTES,
        ));
        rows.push(Row::check(
            PHASE,
            format!("{l}: victim disk growth"),
            format!("{:.0} KiB", o.disk_growth as f64 / 1024.0),
            format!("< {} MiB", DISK_GROWTH_BOUND >> 20),
            o.disk_growth < DISK_GROWTH_BOUND,
        ));
    }
    rows.push(Row::check(
        PHASE,
        "victim VmHWM over the whole phase",
        format!("{:.1} MiB", mib(hwm_kib)),
        "< 200 MB",
        (hwm_kib as f64 * 1024.0) < RSS_TARGET_BYTES,
    ));
    rows
}

/// The victim as the attackers know it: its address, its player id, and the id of the
/// honest game (strangers ask for it).
#[derive(Clone)]
struct Target {
    peer: PeerId,
    addr: Multiaddr,
    player: PlayerId,
    game: GameId,
}

#[derive(Default)]
struct Counters {
    sent: AtomicU64,
    bytes: AtomicU64,
}

impl Counters {
    fn add(&self, bytes: usize) {
        self.sent.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }
}

/// Samples the victim's VmRSS every 100 ms until `stop`; returns the highest.
fn sample_rss(pid: u32, stop: Arc<AtomicBool>) -> tokio::task::JoinHandle<u64> {
    tokio::spawn(async move {
        let mut peak = 0;
        while !stop.load(Ordering::Relaxed) {
            if let Some((rss, _)) = rss_kib(pid) {
                peak = peak.max(rss);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        peak
    })
}

/// A stranger's network actor (sobre's own network layer under a fresh key) dialled to the
/// victim.
async fn stranger(t: &Target, key: &Keypair) -> Res<NetworkHandle> {
    let mut config = NetworkConfig::new(sobre_node::home::libp2p_keypair(key)?);
    config.listen = vec!["/ip4/127.0.0.1/tcp/0".parse()?];
    config.request_timeout = Duration::from_secs(10);
    let (h, mut events) = network::spawn(config).await?;
    tokio::spawn(async move { while events.recv().await.is_some() {} });
    let _ = h.dial(t.addr.clone()).await;
    Ok(h)
}

async fn connected(h: &NetworkHandle, peer: PeerId) -> bool {
    h.connected_peers()
        .await
        .is_ok_and(|p| p.iter().any(|(q, _)| *q == peer))
}

fn fresh_key() -> Keypair {
    Keypair::from_secret_bytes(&rand::random::<[u8; 32]>())
}

fn challenge(key: &Keypair, opponent: PlayerId, t: u64) -> Res<(Scoresheet, SignedEvent)> {
    let ch = Challenge {
        opponent,
        colour: ColourChoice::ChallengerWhite,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: None,
    };
    Ok(Scoresheet::challenge(key.clone(), ch, t)?)
}

async fn deliver(h: &NetworkHandle, t: &Target, game: GameId, events: &[SignedEvent]) -> Res<bool> {
    let events: Vec<Vec<u8>> = events
        .iter()
        .map(SignedEvent::to_bytes)
        .collect::<Result<_, _>>()?;
    Ok(h.request(t.peer, Request::Deliver { game, events })
        .await
        .is_ok())
}

async fn launch(
    attack: Attack,
    t: &Target,
    stop: &Arc<AtomicBool>,
    c: &Arc<Counters>,
) -> Res<Vec<tokio::task::JoinHandle<()>>> {
    let mut tasks = Vec::new();
    match attack {
        Attack::None => {}
        Attack::Identities => {
            // 300 identities dial at once and ask for the honest game, then keep asking.
            let mut handles = Vec::new();
            for _ in 0..300 {
                let h = stranger(t, &fresh_key()).await?;
                c.add(0);
                handles.push(h);
            }
            let (t, stop, c) = (t.clone(), stop.clone(), c.clone());
            tasks.push(tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    for h in &handles {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let _ = h.dial(t.addr.clone()).await;
                        c.add(0);
                        tokio::time::sleep(PACE).await;
                    }
                }
                for h in handles {
                    h.shutdown().await;
                }
            }));
        }
        _ => {
            for i in 0..TASKS {
                let (t, stop, c) = (t.clone(), stop.clone(), c.clone());
                tasks.push(tokio::spawn(async move {
                    let r = match attack {
                        Attack::ChatAndLeave => chat_and_leave(&t, &stop, &c).await,
                        Attack::BadSignatures => bad_signatures(&t, &stop, &c).await,
                        Attack::OversizedGossip => oversized(&t, &stop, &c, i).await,
                        _ => strangers_sync(&t, &stop, &c).await,
                    };
                    if let Err(e) = r {
                        eprintln!("[attack] an attacker stopped: {e}");
                    }
                }));
            }
        }
    }
    Ok(tasks)
}

/// A stranger challenges the victim, then sends chat lines (500 characters) and leave
/// events in the pending game, and new challenges; when refused for good (blocked), a new
/// identity takes over.
async fn chat_and_leave(t: &Target, stop: &AtomicBool, c: &Counters) -> Res<()> {
    let text = "x".repeat(500);
    while !stop.load(Ordering::Relaxed) {
        let key = fresh_key();
        let h = stranger(t, &key).await?;
        let mut tm = now_ms() - 60_000;
        let (mut sheet, first) = challenge(&key, t.player, tm)?;
        let mut alive = deliver(&h, t, sheet.game(), &[first]).await?;
        c.add(200);
        let mut n = 0u64;
        while alive && !stop.load(Ordering::Relaxed) {
            tm += 1;
            n += 1;
            let e = match n % 3 {
                0 => sheet.leave(tm + 86_400_000, tm + 2 * 86_400_000, tm)?,
                1 => sheet.chat(&text, tm)?,
                _ => {
                    let (s, first) = challenge(&key, t.player, tm)?;
                    sheet = s;
                    first
                }
            };
            c.add(e.to_bytes()?.len());
            alive = deliver(&h, t, sheet.game(), &[e]).await?;
            tokio::time::sleep(PACE).await;
        }
        h.shutdown().await;
    }
    Ok(())
}

/// Deliveries of a challenge to the victim and two chat lines, every signature bad and every
/// quota kept (so only the signatures can refuse them); a new identity whenever the last is
/// cut off.
async fn bad_signatures(t: &Target, stop: &AtomicBool, c: &Counters) -> Res<()> {
    while !stop.load(Ordering::Relaxed) {
        let key = fresh_key();
        let h = stranger(t, &key).await?;
        let tm = now_ms() - 60_000;
        let (mut sheet, first) = challenge(&key, t.player, tm)?;
        let mut events = vec![first];
        for i in 0..2 {
            events.push(sheet.chat("spam", tm + 1 + i)?);
        }
        for e in &mut events {
            e.signature[0] ^= 1;
        }
        let size = events
            .iter()
            .map(|e| e.to_bytes().map_or(0, |b| b.len()))
            .sum();
        loop {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            c.add(size);
            // Refused or cut off: the answer is an error either way; a new key when the
            // connection is gone.
            let _ = deliver(&h, t, sheet.game(), &events).await?;
            if !connected(&h, t.peer).await {
                break;
            }
            tokio::time::sleep(PACE).await;
        }
        h.shutdown().await;
    }
    Ok(())
}

/// A raw gossipsub peer publishing 1 MiB messages on the victim's inbox topic; a new peer
/// when the victim drops the last one.
async fn oversized(t: &Target, stop: &AtomicBool, c: &Counters, task: usize) -> Res<()> {
    let topic = protocol::inbox_topic(&t.player);
    let mut event = vec![0u8; 1 << 20];
    event[0] = task as u8;
    let mut n = 0u32;
    while !stop.load(Ordering::Relaxed) {
        let peer = RawGossip::dial(t.addr.clone())?;
        peer.subscribe(&topic);
        let mut failures = 0;
        while !stop.load(Ordering::Relaxed) && failures < 20 {
            n += 1;
            event[1..5].copy_from_slice(&n.to_le_bytes());
            let m = protocol::encode(&Gossip {
                game: t.game,
                event: event.clone(),
            })?;
            let len = m.len();
            match peer.publish(&topic, m).await {
                Ok(()) => c.add(len),
                Err(_) => failures += 1,
            }
            // 1 MiB at most every 50 ms per task: 80 MiB/s from four tasks.
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    Ok(())
}

/// Strangers ask for the honest game's events and for the victim's list of games.
async fn strangers_sync(t: &Target, stop: &AtomicBool, c: &Counters) -> Res<()> {
    while !stop.load(Ordering::Relaxed) {
        let h = stranger(t, &fresh_key()).await?;
        for i in 0u32.. {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let r = if i % 2 == 0 {
                Request::Sync {
                    game: t.game,
                    have: Vec::new(),
                }
            } else {
                Request::Games { player: t.player }
            };
            c.add(100);
            if h.request(t.peer, r).await.is_err() && !connected(&h, t.peer).await {
                break;
            }
            tokio::time::sleep(PACE).await;
        }
        h.shutdown().await;
    }
    Ok(())
}
