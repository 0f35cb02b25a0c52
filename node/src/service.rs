//! The node's service: the one task that owns the store's write path and the player's
//! scoresheets. It answers the control API, ingests events from the network (checking every
//! one with `sobre_core::record::verify`), signs receipts, and delivers the player's events
//! until their recipients' receipts arrive (store and forward).
//!
//! Data flow of a move: control API `move` → parse with the rules core in the game's position
//! → sign the next event of the player's scoresheet → check its signature and replay the
//! game's rules with it → store and flush → reply → deliver (request-response, with the receipt in the reply) to the
//! opponent and any mailboxes, and publish on the game's gossipsub topic → retried with
//! backoff from the outbox until each recipient's receipt is stored.
//!
//! Costs: a signature is checked once, when its event arrives (`verify_incremental` replays
//! the rules over events verified before); a delivery carries only what its receiver lacks
//! (the whole game when that is not known, or not enough); deliveries and gossip queued
//! together are stored with one flush before any of them is answered (group commit); only
//! the recently used games keep their events and full state in memory, every game keeps a
//! [`Summary`].

use crate::api::{ApiError, ApiRequest};
use crate::control::{self, ControlRequest};
use crate::dispute;
use crate::home;
use crate::integrity;
use crate::network::{self, NetworkConfig, NetworkError, NetworkEvent, NetworkHandle};
use crate::preverify;
use crate::protocol::{self, Gossip, MAX_EVENTS_PER_MESSAGE, Request, Response};
use crate::secrets;
use crate::store::{GameMeta, OutboxEntry, Store, StoreError};
use crate::view::{self, Summary};
use hashlink::LruCache;
use libp2p::gossipsub::{MessageAcceptance, MessageId};
use libp2p::{Multiaddr, PeerId};
use serde_json::{Value, json};
use sobre_core::Position;
use sobre_core::clock::TimeControl;
use sobre_core::notation;
use sobre_core::record::author::Scoresheet;
use sobre_core::record::{
    Challenge, Checkpoint, ClaimReason, ColourChoice, Event, EventError, EventId, EventKind,
    GameId, GameState, Keypair, LeagueRound, PlayerId, SignedEvent, StartPosition, Status,
    VerifiedEvent, VerifyError, commit, export, time, verify, verify_all, verify_continue,
    verify_extend, verify_incremental,
};
use sobre_core::san::Lang;
use std::collections::{HashMap, HashSet, VecDeque};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::{broadcast, mpsc, oneshot};
use tracing::{debug, info, warn};

/// How a node is started (`sobre node run`).
#[derive(Clone, Debug, Default)]
pub struct NodeConfig {
    pub home: PathBuf,
    /// Multiaddrs to listen on.
    pub listen: Vec<String>,
    /// Peers to connect to at start (and to use for Kademlia).
    pub bootstrap: Vec<String>,
    /// Find peers in the local network (a club room).
    pub mdns: bool,
    /// Act as a relay for players behind NAT.
    pub relay_server: bool,
    /// Relays to reserve a circuit on (`/ip4/…/p2p/<relay id>`).
    pub relays: Vec<String>,
    /// Store and serve every valid event of games this node is told about.
    pub mailbox: bool,
    /// Mailbox nodes this player uses: every event is delivered there too, and games are
    /// caught up from there.
    pub mailboxes: Vec<String>,
    /// Do not settle an unopened fair coin by default on the tick once its deadline has
    /// passed: the player does it with `sobre coin default` (F1; see `service::coin`).
    pub manual_coin_default: bool,
}

/// Why the node stopped.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    #[error(transparent)]
    Key(#[from] home::KeyError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("network: {0}")]
    Network(String),
    #[error("bad address {addr:?}: {reason}")]
    Address { addr: String, reason: String },
    #[error("control socket: {0}")]
    Control(std::io::Error),
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn parse_addrs(list: &[String]) -> Result<Vec<Multiaddr>, NodeError> {
    list.iter()
        .map(|a| {
            a.parse::<Multiaddr>().map_err(|e| NodeError::Address {
                addr: a.clone(),
                reason: e.to_string(),
            })
        })
        .collect()
}

fn peer_of_addr(addr: &Multiaddr) -> Option<PeerId> {
    addr.iter().fold(None, |acc, p| match p {
        libp2p::multiaddr::Protocol::P2p(id) => Some(id),
        _ => acc,
    })
}

fn peer_of_player(p: &PlayerId) -> Option<PeerId> {
    p.peer_id()
}

/// The player whose key a peer id embeds (ed25519 peer ids carry the key itself).
fn player_of_peer(peer: &PeerId) -> Option<PlayerId> {
    let key = libp2p::identity::PublicKey::try_decode_protobuf(peer.as_ref().digest()).ok()?;
    let ed = key.try_into_ed25519().ok()?;
    Some(PlayerId::from_bytes(ed.to_bytes()))
}

/// Rebuilds the database (`sobre node repair`): see [`integrity::repair`].
///
/// # Errors
/// If the home has no key or the fresh database cannot be written.
pub fn repair(home_dir: &Path) -> Result<String, NodeError> {
    integrity::repair(home_dir)
}

mod adjourn;
mod arbiter;
mod coin;
mod league;
mod moves;
mod refusal;

use refusal::{Refusal, Unavailable};

use moves::{letters, move_error};

/// Games whose events and full state stay in memory, the least recently used dropped first:
/// the games being played now. The others are read back from the store (and verified) when
/// used; a node holding thousands of games would otherwise keep kilobytes for each.
const HOT_GAMES: usize = 256;

/// Network events handled before one store flush at most (group commit): enough to cover
/// the requests a busy mailbox has in flight, few enough that the first one queued is not
/// kept waiting long.
const MAX_BATCH: usize = 64;

/// Catch-up syncs in flight with one peer at most (the rest wait for answers): a node sharing
/// a thousand games with a peer would otherwise open more sub-streams than the peer accepts.
const MAX_SYNCS_PER_PEER: usize = 32;

/// One game as the service holds it while it is in use.
struct GameCache {
    /// Which cache this is: a number no other cache had (see [`Sent::covered`]).
    epoch: u64,
    /// Every event of the game, signature checked. Only appended to while the cache lives
    /// ([`GameCache::drop_added`] truncates back to `kept` only), so a prefix length names
    /// the same events for as long as the cache lives.
    events: Vec<VerifiedEvent>,
    /// Index in `events` of each event id.
    ids: HashMap<EventId, usize>,
    /// How many of `events` are kept (the rest were added by [`GameCache::try_add`] and
    /// are neither kept nor dropped yet).
    kept: usize,
    state: GameState,
    /// Where the replay of the events stands, to replay only what is added at the end: of
    /// all `events`, the ones [`GameCache::try_add`] added included (it continues the
    /// replay in place; [`GameCache::drop_added`] drops it, and the next `try_add` replays
    /// the game from the start).
    checkpoint: Option<Checkpoint>,
    /// The player's (or, on a mailbox, the witness's) own log in this game.
    sheet: Option<Scoresheet>,
    /// Per peer, how many of the first `events` it holds: a delivery covering them was
    /// answered with receipts (a receiver answers so only once the game verified with every
    /// event it was sent). The next delivery starts there ([`GameCache::outgoing`]). It lives
    /// and dies with the cache: a game read back from the store starts again at 0.
    acked: HashMap<PeerId, usize>,
}

/// Numbers the caches made, for [`GameCache::epoch`].
static CACHE_EPOCH: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl GameCache {
    fn new(
        events: Vec<VerifiedEvent>,
        state: GameState,
        checkpoint: Option<Checkpoint>,
        sheet: Option<Scoresheet>,
    ) -> GameCache {
        let ids = events.iter().enumerate().map(|(i, v)| (v.id, i)).collect();
        GameCache {
            epoch: CACHE_EPOCH.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            kept: events.len(),
            events,
            ids,
            state,
            checkpoint,
            sheet,
            acked: HashMap::new(),
        }
    }

    /// Adds `events` (signatures checked) and replays the game with them (only them when
    /// they extend the timeline, the common case); on failure the cache holds what it held
    /// (its checkpoint may be gone: then the next call replays the whole game). Then
    /// [`GameCache::keep_added`] or [`GameCache::drop_added`].
    fn try_add(
        &mut self,
        events: Vec<VerifiedEvent>,
        now: Option<u64>,
    ) -> Result<GameState, VerifyError> {
        let before = self.events.len();
        self.events.extend(events);
        verify_extend(&self.events, &mut self.checkpoint, now).inspect_err(|_| {
            self.events.truncate(before);
        })
    }

    /// Keeps the events added by [`GameCache::try_add`] with the state it returned.
    fn keep_added(&mut self, state: GameState) {
        for (i, v) in self.events.iter().enumerate().skip(self.kept) {
            self.ids.insert(v.id, i);
        }
        self.kept = self.events.len();
        self.state = state;
    }

    /// Drops the events added by [`GameCache::try_add`] (they could not be stored).
    fn drop_added(&mut self) {
        self.events.truncate(self.kept);
        // It replayed the dropped events too.
        self.checkpoint = None;
    }

    /// The wire bytes of what a delivery to `peer` (whose player is `player`) carries, and
    /// what it covers. Unless `whole`, only what the peer lacks: the kept events after its
    /// watermark ([`GameCache::acked`]) that it neither signed nor receipted. The whole game
    /// when that leaves nothing (the outbox entries that called for the delivery are cleared
    /// by the receipts of the answer, and a receiver gives receipts only for what it was
    /// sent) or when asked for. At most [`MAX_EVENTS_PER_MESSAGE`] events either way.
    fn outgoing(
        &self,
        peer: &PeerId,
        player: Option<PlayerId>,
        whole: bool,
    ) -> (Vec<Vec<u8>>, Sent) {
        let from = if whole {
            0
        } else {
            self.acked.get(peer).copied().unwrap_or(0).min(self.kept)
        };
        let range = &self.events[from..self.kept];
        // The candidates of a delta: not the peer's own (ids are unique in `events`).
        let mut send: Vec<bool> = range
            .iter()
            .map(|v| whole || Some(v.event.author) != player)
            .collect();
        if !whole && let Some(player) = player {
            let candidates: HashMap<EventId, usize> = range
                .iter()
                .enumerate()
                .filter(|(i, _)| send[*i])
                .map(|(i, v)| (v.id, i))
                .collect();
            for (event, by, _) in &self.state.receipts {
                if *by == player
                    && let Some(&i) = candidates.get(event)
                {
                    send[i] = false;
                }
            }
        }
        let mut events = Vec::new();
        let mut ids = Vec::new();
        // Events before `covered` were sent, or are held by the peer: the watermark if the
        // answer is receipts.
        let mut covered = from;
        let mut prefix = true;
        for (i, v) in range.iter().enumerate() {
            if send[i] {
                if events.len() == MAX_EVENTS_PER_MESSAGE {
                    break;
                }
                match v.signed.to_bytes() {
                    Ok(b) => {
                        events.push(b);
                        ids.push(v.id);
                    }
                    // Never for an event that was decoded: but what is not sent is not covered.
                    Err(_) => prefix = false,
                }
            }
            if prefix {
                covered = from + i + 1;
            }
        }
        if events.is_empty() && !whole {
            return self.outgoing(peer, player, true);
        }
        let full = from == 0 && send.iter().all(|&s| s);
        let sent = Sent {
            ids,
            full,
            covered: Some((self.epoch, covered)),
        };
        (events, sent)
    }
}

/// An answer that waits for the store flush covering what it acknowledges.
enum Deferred {
    Reply {
        reply: oneshot::Sender<Response>,
        response: Response,
    },
    Validation {
        message_id: MessageId,
        source: PeerId,
        acceptance: MessageAcceptance,
    },
}

/// At most this many refused receipts are remembered (see [`Service::unreceipted`]): an
/// honest opponent leaves none, a hostile one at most one per event we sent it.
const MAX_UNRECEIPTED: usize = 4096;

/// What one delivery carried (see [`Service::deliver`]).
#[derive(Clone, Debug)]
struct Sent {
    /// The ids of the events carried: an answer with receipts that lacks the peer's receipt
    /// of one of ours is a refused receipt ([`Service::note_unreceipted`]).
    ids: Vec<EventId>,
    /// The whole game (as far as one message goes), not only what the peer lacked: if this
    /// is refused, sending more cannot help.
    full: bool,
    /// The hot cache it was taken from ([`GameCache::epoch`]) and how many of its first
    /// events the peer holds once it answers with receipts; `None` when sent from the store.
    covered: Option<(u64, usize)>,
}

/// What the delivery tasks report back.
enum Internal {
    Delivered {
        game: GameId,
        peer: PeerId,
        sent: Sent,
        /// A refusal comes as [`NetworkError::Refused`].
        result: Result<Response, NetworkError>,
    },
    Synced {
        peer: PeerId,
        result: Result<Response, String>,
    },
    GamesListed {
        peer: PeerId,
        result: Result<Response, String>,
    },
}

struct Service {
    home: PathBuf,
    key: Keypair,
    me: PlayerId,
    store: Store,
    net: NetworkHandle,
    mailbox: bool,
    mailboxes: Vec<PeerId>,
    /// Every game the node serves.
    games: HashMap<GameId, Summary>,
    /// The games in use, with their events and full state.
    hot: LruCache<GameId, GameCache>,
    /// Answers waiting for the next flush, and whether anything was written since the last.
    pending: Vec<Deferred>,
    dirty: bool,
    watch: broadcast::Sender<Value>,
    internal_tx: mpsc::Sender<Internal>,
    in_flight: HashSet<(GameId, PeerId)>,
    redeliver: HashSet<(GameId, PeerId)>,
    /// Our events the opponent's node took without the receipt it owes (its answer had
    /// receipts, not this one): the opponent and when its node answered. A countersignature of
    /// one by that opponent dated later than the answer (beyond the clock skew) is refused on
    /// arrival — under protocol version 2 it would charge us for time its node held the move.
    unreceipted: HashMap<(GameId, EventId), (PlayerId, u64)>,
    started_ms: u64,
    stop: bool,
    /// Counts league ticks, to resend league documents every few ticks only.
    league_ticks: u32,
    /// Receipts signed since the last flush, written to the integrity ledger after it.
    ledger_notes: Vec<(GameId, Vec<Vec<u8>>)>,
    /// The group flush in progress (see [`Service::commit`]).
    flushing: Option<tokio::task::JoinHandle<()>>,
    /// Told when the group flush in progress has ended and answered, to start the next.
    flush_done: mpsc::Sender<()>,
    /// A group flush runs and has not told `flush_done` yet.
    flush_running: bool,
    /// Catch-up syncs per peer: how many are in flight, and the games waiting for a turn.
    syncs: HashMap<PeerId, (usize, VecDeque<GameId>)>,
    /// League documents being sent: (league, peer).
    league_in_flight: std::sync::Arc<std::sync::Mutex<HashSet<(EventId, PeerId)>>>,
    /// The new events of the batch being handled, their signatures checked together (see
    /// [`Service::preverify`]).
    preverified: HashMap<EventId, VerifiedEvent>,
    /// The player settles unopened coins by hand (see [`NodeConfig::manual_coin_default`]).
    manual_coin_default: bool,
    /// Games whose coin this run has tried to open or settle on the tick and failed: tried
    /// once, not every tick (`service::coin`).
    coin_tried: HashSet<GameId>,
    /// Games whose envelope, escrowed to this node, could not be opened from the escrow
    /// (reported once; `sobre envelope open` tries again).
    escrow_refused: HashSet<GameId>,
}

/// Runs a node until `shutdown` resolves (or a `stop` request arrives).
///
/// # Errors
/// [`NodeError`] if the key, the database, the network or the control socket cannot start.
pub async fn run(config: NodeConfig, shutdown: impl Future<Output = ()>) -> Result<(), NodeError> {
    let home_dir = config.home.clone();
    std::fs::create_dir_all(&home_dir).map_err(NodeError::Control)?;
    let key = home::load_key(&home_dir)?;
    let store = Store::open(&home::db_path(&home_dir))?;
    integrity::check(&home_dir, &store, &key.player_id())?;
    let listen = if config.listen.is_empty() {
        parse_addrs(&["/ip4/0.0.0.0/tcp/0".to_owned()])?
    } else {
        parse_addrs(&config.listen)?
    };
    let mut net_config = NetworkConfig::new(home::libp2p_keypair(&key)?);
    net_config.listen = listen;
    net_config.bootstrap = parse_addrs(&config.bootstrap)?;
    net_config.mdns = config.mdns;
    net_config.relay_server = config.relay_server;
    net_config.relays = parse_addrs(&config.relays)?;
    let mailbox_addrs = parse_addrs(&config.mailboxes)?;
    net_config.bootstrap.extend(mailbox_addrs.iter().cloned());
    let (net, net_events) = network::spawn(net_config)
        .await
        .map_err(|e| NodeError::Network(e.to_string()))?;
    // Signatures are checked beside the service (see `preverify`), which gets batches.
    let mut net_batches = preverify::spawn(net_events, MAX_BATCH);
    let (watch, _) = broadcast::channel(1024);
    let (internal_tx, mut internal_rx) = mpsc::channel(1024);
    let (flush_done, mut flush_done_rx) = mpsc::channel(4);
    let me = key.player_id();
    let mut svc = Service {
        home: home_dir.clone(),
        key,
        me,
        store,
        net: net.clone(),
        mailbox: config.mailbox,
        mailboxes: mailbox_addrs.iter().filter_map(peer_of_addr).collect(),
        games: HashMap::new(),
        hot: LruCache::new(HOT_GAMES),
        pending: Vec::new(),
        dirty: false,
        watch: watch.clone(),
        internal_tx,
        in_flight: HashSet::new(),
        redeliver: HashSet::new(),
        unreceipted: HashMap::new(),
        started_ms: now_ms(),
        stop: false,
        league_ticks: 0,
        league_in_flight: std::sync::Arc::default(),
        ledger_notes: Vec::new(),
        syncs: HashMap::new(),
        flushing: None,
        flush_done,
        flush_running: false,
        preverified: HashMap::new(),
        manual_coin_default: config.manual_coin_default,
        coin_tried: HashSet::new(),
        escrow_refused: HashSet::new(),
    };
    svc.load()?;
    // Redial the peers this node was told about (`sobre peers connect`): after a restart on
    // a new port, the opponent's node can only deliver once we reconnect.
    for (peer, addrs) in svc.store.peers().unwrap_or_default() {
        for a in addrs.iter().filter_map(|a| a.parse::<Multiaddr>().ok()) {
            let net = net.clone();
            let p = peer.clone();
            tokio::spawn(async move {
                if let Err(e) = net.dial(a).await {
                    debug!(peer = %p, "remembered peer not reachable: {e}");
                }
            });
        }
    }
    let _ = net.subscribe(protocol::inbox_topic(&me)).await;
    let topics: Vec<String> = svc.games.keys().map(protocol::game_topic).collect();
    for t in topics {
        let _ = net.subscribe(t).await;
    }
    for addr in &mailbox_addrs {
        if let Err(e) = net.dial(addr.clone()).await {
            warn!(%addr, "cannot reach mailbox: {e}");
        }
    }

    let (ctrl_tx, mut ctrl_rx) = mpsc::channel::<ControlRequest>(64);
    let (ctrl_stop_tx, ctrl_stop_rx) = tokio::sync::oneshot::channel::<()>();
    let control_home = home_dir.clone();
    let control_watch = watch.clone();
    let control = tokio::spawn(async move {
        control::serve(&control_home, ctrl_tx, control_watch, async {
            let _ = ctrl_stop_rx.await;
        })
        .await
    });
    let addrs = net.listen_addrs().await.unwrap_or_default();
    info!(player = %me, mailbox = config.mailbox, "node started; listening on {:?}", addrs);
    eprintln!("sobre node {me} running; home {}", home_dir.display());

    let mut retry = tokio::time::interval(Duration::from_millis(1500));
    retry.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            biased;
            () = &mut shutdown => break,
            Some(req) = ctrl_rx.recv() => {
                let result = svc.handle_api(req.request).await;
                let _ = req.reply.send(result);
                if svc.stop {
                    break;
                }
            }
            Some(batch) = net_batches.recv() => {
                // Group commit: handle the batches already checked too, then flush once for
                // all.
                let mut batch = batch;
                let mut handled = 0;
                loop {
                    handled += batch.events.len();
                    svc.preverified = batch.verified;
                    for ev in batch.events {
                        svc.handle_network(ev).await;
                    }
                    svc.preverified.clear();
                    if handled >= MAX_BATCH {
                        break;
                    }
                    let Ok(next) = net_batches.try_recv() else { break };
                    batch = next;
                }
                svc.commit().await;
            }
            Some(()) = flush_done_rx.recv() => {
                // The flush in progress ended: the next covers what was stored meanwhile.
                svc.flush_running = false;
                svc.commit().await;
            }
            Some(i) = internal_rx.recv() => {
                svc.handle_internal(i).await;
                svc.commit().await;
            }
            _ = retry.tick() => {
                svc.retry_outbox().await;
                svc.league_tick().await;
                svc.resumption_tick().await;
                svc.coin_tick().await;
                svc.commit().await;
            }
            else => break,
        }
    }
    info!("node stopping");
    svc.commit_all().await;
    let _ = svc.store.flush().await;
    let _ = ctrl_stop_tx.send(());
    let _ = control.await;
    net.shutdown().await;
    Ok(())
}

/// Tells the service a group flush has ended (see [`Service::commit`]), when dropped.
struct FlushDone(mpsc::Sender<()>);

impl Drop for FlushDone {
    fn drop(&mut self) {
        // The service may be stopping and no longer listen: nothing to start then.
        let _ = self.0.try_send(());
    }
}

/// After a group flush: the integrity ledger notes, then the answers waiting for it (receipts
/// refused and gossip ignored if the flush failed).
async fn answer(
    home: &Path,
    me: &PlayerId,
    net: &NetworkHandle,
    flushed: Result<(), String>,
    notes: Vec<(GameId, Vec<Vec<u8>>)>,
    pending: Vec<Deferred>,
) {
    match &flushed {
        Err(e) => warn!("storage failure, answers withheld: {e}"),
        Ok(()) => {
            for (game, receipts) in notes {
                integrity::note(home, me, &game, &receipts);
            }
        }
    }
    for d in pending {
        match d {
            Deferred::Reply { reply, response } => {
                let response = match (&flushed, response) {
                    (Err(e), Response::Receipts { .. }) => Response::Refused {
                        reason: format!("storage failure: {e}"),
                    },
                    (_, r) => r,
                };
                let _ = reply.send(response);
            }
            Deferred::Validation {
                message_id,
                source,
                acceptance,
            } => {
                let acceptance = match (&flushed, acceptance) {
                    (Err(_), MessageAcceptance::Accept) => MessageAcceptance::Ignore,
                    (_, a) => a,
                };
                let _ = net.report_validation(message_id, source, acceptance).await;
            }
        }
    }
}

fn user(msg: impl Into<String>) -> ApiError {
    ApiError::user(msg)
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

impl Service {
    /// Reads every stored game back and verifies it; a game that no longer verifies is
    /// reported and never served.
    fn load(&mut self) -> Result<(), NodeError> {
        let mut damaged = Vec::new();
        for game in self.store.games()? {
            let events = match self.store.events(&game) {
                Ok(e) => e,
                Err(e) => {
                    warn!(%game, "stored events unreadable, not served: {e}");
                    damaged.push((game, e.to_string()));
                    continue;
                }
            };
            // Only the summary stays: the events are read again when the game is used.
            match verify(&events) {
                Ok(state) => {
                    self.games.insert(game, Summary::of(&state));
                }
                Err(e) => {
                    warn!(%game, "stored game does not verify, not served: {e}");
                    damaged.push((game, format!("it no longer verifies: {e}")));
                }
            }
        }
        integrity::refuse_damaged(&self.home, &self.store, &damaged)?;
        info!(games = self.games.len(), "games loaded");
        Ok(())
    }

    /// Makes `game` a hot game: read from the store and verified (as [`Service::load`]
    /// does) unless it is in memory already.
    fn ensure_hot(&mut self, game: &GameId) -> Result<(), Unavailable> {
        if self.hot.get(game).is_some() {
            return Ok(());
        }
        if !self.games.contains_key(game) {
            return Err(Unavailable::UnknownGame);
        }
        let stored = self
            .store
            .events(game)
            .map_err(|e| Unavailable::Storage(e.to_string()))?;
        let events = verify_all(&stored)
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Unavailable::Storage(format!("stored event no longer verifies: {e}")))?;
        let (state, checkpoint) = verify_continue(&events, None, None)
            .map_err(|e| Unavailable::Storage(format!("stored game no longer verifies: {e}")))?;
        let sheet = self.restore_sheet(game, &state, &events);
        self.hot.insert(
            *game,
            GameCache::new(events, state, Some(checkpoint), sheet),
        );
        Ok(())
    }

    /// The player's own scoresheet in a game, continued from the stored events: never sign
    /// a second event at a sequence number already used.
    fn restore_sheet(
        &self,
        game: &GameId,
        state: &GameState,
        events: &[VerifiedEvent],
    ) -> Option<Scoresheet> {
        let mut mine: Vec<(u64, EventId)> = events
            .iter()
            .filter(|v| v.event.author == self.me)
            .map(|v| (v.event.seq, v.id))
            .collect();
        mine.sort();
        let is_player = state.challenger == self.me || state.opponent == self.me;
        if mine.is_empty() && !is_player && !self.mailbox {
            return None;
        }
        let next = mine.last().map_or(0, |(s, _)| s + 1);
        let last = mine.last().map(|(_, id)| *id);
        let seen = last_other_event(state, &self.me, events);
        Some(Scoresheet::resume(
            self.key.clone(),
            *game,
            next,
            last,
            seen,
        ))
    }

    fn notify(&self, game: &GameId, what: &str, detail: Value) {
        let mut v = json!({"game": game.to_hex(), "event": what, "time_ms": now_ms()});
        if let (Some(obj), Value::Object(d)) = (v.as_object_mut(), detail) {
            obj.extend(d);
        }
        let _ = self.watch.send(v);
    }

    /// The game an id prefix names, made hot for the request.
    fn resolve_game(&mut self, prefix: &str) -> Result<GameId, ApiError> {
        let p = prefix.trim().to_ascii_lowercase();
        if p.is_empty() {
            return Err(user("no game id given"));
        }
        let matches: Vec<GameId> = self
            .games
            .keys()
            .filter(|g| g.to_hex().starts_with(&p))
            .copied()
            .collect();
        match matches.as_slice() {
            [g] => {
                self.ensure_hot(g).map_err(internal)?;
                Ok(*g)
            }
            [] => {
                Err(user(format!("unknown game {prefix:?}")).hint("list games with `sobre games`"))
            }
            many => Err(user(format!(
                "game id {prefix:?} is ambiguous: {} games start with it",
                many.len()
            ))
            .hint("type more of the id")),
        }
    }

    /// A hot game (see [`Service::resolve_game`], [`Service::ensure_hot`]).
    fn cache(&self, game: &GameId) -> Result<&GameCache, ApiError> {
        self.hot.peek(game).ok_or_else(|| user("unknown game"))
    }

    // ----- authoring -----

    /// Signs the player's next event in `game`, checks the game still verifies with it,
    /// stores and flushes it, then starts delivery. Nothing is kept if verification fails.
    async fn author(
        &mut self,
        game: &GameId,
        make: impl FnOnce(
            &mut Scoresheet,
            u64,
        ) -> Result<SignedEvent, sobre_core::record::codec::CodecError>,
    ) -> Result<(SignedEvent, GameState), ApiError> {
        self.author_at(game, now_ms(), make).await
    }

    /// [`Service::author`] at a given time: a seal's envelope states the clocks at exactly
    /// the moment it is signed (A2.3).
    async fn author_at(
        &mut self,
        game: &GameId,
        t: u64,
        make: impl FnOnce(
            &mut Scoresheet,
            u64,
        ) -> Result<SignedEvent, sobre_core::record::codec::CodecError>,
    ) -> Result<(SignedEvent, GameState), ApiError> {
        let (mut signed, state) = self
            .author_all_at(game, t, move |s, tm| {
                make(s, tm).map(|e| vec![e]).map_err(internal)
            })
            .await?;
        let one = signed.pop().ok_or_else(|| internal("nothing was signed"))?;
        Ok((one, state))
    }

    /// [`Service::author_at`] for events that go together (a seal and its escrow, A3): all
    /// are signed, checked with the rules, stored and flushed as one, or none is kept; then
    /// they are delivered.
    async fn author_all_at(
        &mut self,
        game: &GameId,
        t: u64,
        make: impl FnOnce(&mut Scoresheet, u64) -> Result<Vec<SignedEvent>, ApiError>,
    ) -> Result<(Vec<SignedEvent>, GameState), ApiError> {
        let me = self.me;
        let key = self.key.clone();
        self.ensure_hot(game).map_err(|e| user(e.to_string()))?;
        let (signed, state) = {
            let cache = self.hot.get_mut(game).ok_or_else(|| user("unknown game"))?;
            let seen = last_other_in(cache, &me);
            let sheet = cache
                .sheet
                .get_or_insert_with(|| Scoresheet::join(key.clone(), *game));
            let snapshot = (sheet.seq(), sheet.last(), sheet.seen());
            if let Some(s) = seen {
                sheet.saw(s);
            }
            // Only the rules are replayed: the game's other events were checked when they
            // arrived, and these are our own.
            let checked = make(sheet, t).and_then(|signed| {
                let own = signed
                    .iter()
                    .map(own_event)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(internal)?;
                let state = cache.try_add(own, Some(t)).map_err(|e| user(explain(&e)))?;
                Ok((signed, state))
            });
            match checked {
                Ok(done) => done,
                Err(e) => {
                    // Never stored or sent: reusing these seqs is no equivocation.
                    cache.sheet = Some(Scoresheet::resume(
                        key, *game, snapshot.0, snapshot.1, snapshot.2,
                    ));
                    return Err(e);
                }
            }
        };
        let recipients = match self.persist_authored(game, &signed, &state, t).await {
            Ok(r) => r,
            Err(e) => {
                if let Some(cache) = self.hot.get_mut(game) {
                    cache.drop_added();
                }
                return Err(e);
            }
        };
        // The opponent first: the delivery leaves before anything else is done here, even
        // the copy of the state this returns.
        let cache = self
            .hot
            .get_mut(game)
            .ok_or_else(|| internal("game left the cache"))?;
        cache.keep_added(state);
        for peer in recipients {
            self.deliver(*game, peer);
        }
        let state = self
            .hot
            .peek(game)
            .map(|c| c.state.clone())
            .ok_or_else(|| internal("game left the cache"))?;
        // The ledger lags the database, never leads it: written after the flush above.
        for one in &signed {
            integrity::note_event(&self.home, &self.me, game, one);
        }
        self.games.insert(*game, Summary::of(&state));
        for one in &signed {
            let kind = one
                .decode_unverified()
                .map(|e| e.kind.name())
                .unwrap_or("event");
            self.notify(
                game,
                kind,
                json!({"by": me.to_string(), "status": state.status.name()}),
            );
            self.publish(game, one);
        }
        Ok((signed, state))
    }

    /// Stores events this node authored, with an outbox entry per recipient, and flushes
    /// once: after this the events are acknowledged and will be delivered until receipted.
    /// Returns the recipients.
    async fn persist_authored(
        &self,
        game: &GameId,
        signed: &[SignedEvent],
        state: &GameState,
        t: u64,
    ) -> Result<Vec<PeerId>, ApiError> {
        let recipients = self.recipients(state);
        for one in signed {
            self.store.insert_event(game, one).map_err(internal)?;
            for peer in &recipients {
                self.store
                    .outbox_add(&OutboxEntry {
                        event: one.id(),
                        game: *game,
                        peer: peer.to_string(),
                        attempts: 0,
                        next_at_ms: 0,
                    })
                    .map_err(internal)?;
            }
        }
        self.store.mark_mine(game, t).map_err(internal)?;
        self.store.flush().await.map_err(internal)?;
        Ok(recipients)
    }

    /// Who must receive this game's events: the opponent and the mailboxes.
    fn recipients(&self, state: &GameState) -> Vec<PeerId> {
        let mut out = Vec::new();
        for p in [state.challenger, state.opponent] {
            if p != self.me
                && let Some(peer) = peer_of_player(&p)
            {
                out.push(peer);
            }
        }
        for m in &self.mailboxes {
            if !out.contains(m) && Some(*m) != peer_of_player(&self.me) {
                out.push(*m);
            }
        }
        // A league game also goes to the league's organiser, its witness, and a game with an
        // envelope in escrow to the arbiter keeping it (A3), a witness too.
        let witnesses = self
            .league_organiser(state)
            .into_iter()
            .chain(view::arbiters(state));
        for peer in witnesses.filter_map(|w| peer_of_player(&w)) {
            if !out.contains(&peer) && Some(peer) != peer_of_player(&self.me) {
                out.push(peer);
            }
        }
        out
    }

    /// Publishes `signed` on the game's topic, for witnesses and mailboxes subscribed to it
    /// (the opponent and the recipients get it by delivery too), without waiting for the
    /// network task: a failure only means the delivery is the one copy.
    fn publish(&self, game: &GameId, signed: &SignedEvent) {
        let Ok(event) = signed.to_bytes() else { return };
        let Ok(bytes) = protocol::encode(&Gossip { game: *game, event }) else {
            return;
        };
        let (net, game) = (self.net.clone(), *game);
        tokio::spawn(async move {
            if let Err(e) = net.publish(protocol::game_topic(&game), bytes).await {
                debug!(%game, "gossip not published: {e}");
            }
        });
    }

    /// Sends `peer` what it lacks of `game` in a task (see [`Service::send`]); the result
    /// comes back as [`Internal::Delivered`].
    fn deliver(&mut self, game: GameId, peer: PeerId) {
        self.send(game, peer, false);
    }

    /// Sends events of `game` to `peer` in a task: from a hot game only what the peer lacks
    /// ([`GameCache::outgoing`]), unless `whole`; a game not in memory whole, from the store.
    /// The receiver keeps what it lacks and answers with receipts; a delta it cannot place
    /// (it lost events, or never had the game) is refused as "missing history", and then the
    /// whole game follows at once ([`Service::handle_internal`]).
    fn send(&mut self, game: GameId, peer: PeerId, whole: bool) {
        if !self.in_flight.insert((game, peer)) {
            // One delivery at a time per peer and game; send again when it returns, so a
            // new event never waits for the outbox retry.
            self.redeliver.insert((game, peer));
            return;
        }
        let (events, sent) = match self.hot.peek(&game) {
            Some(cache) => cache.outgoing(&peer, player_of_peer(&peer), whole),
            // A game not in memory is sent from the store: its events were verified when
            // stored. Its order need not be the one of a cache made later: no watermark.
            None => {
                let stored = self.store.events(&game).unwrap_or_default();
                let mut ids = Vec::new();
                let events = stored
                    .iter()
                    .filter_map(|e| {
                        let b = e.to_bytes().ok()?;
                        ids.push(e.id());
                        Some(b)
                    })
                    .take(MAX_EVENTS_PER_MESSAGE)
                    .collect();
                let sent = Sent {
                    ids,
                    full: true,
                    covered: None,
                };
                (events, sent)
            }
        };
        if events.is_empty() {
            self.in_flight.remove(&(game, peer));
            return;
        }
        debug!(%game, %peer, events = events.len(), full = sent.full, "delivering");
        let net = self.net.clone();
        let tx = self.internal_tx.clone();
        let request = net.request_queued(peer, Request::Deliver { game, events });
        tokio::spawn(async move {
            let result = request.await;
            let _ = tx
                .send(Internal::Delivered {
                    game,
                    peer,
                    sent,
                    result,
                })
                .await;
        });
    }

    async fn retry_outbox(&mut self) {
        let Ok(entries) = self.store.outbox() else {
            return;
        };
        let now = now_ms();
        let mut due: Vec<(GameId, PeerId)> = Vec::new();
        for e in entries {
            if e.next_at_ms > now {
                continue;
            }
            if let Ok(peer) = e.peer.parse::<PeerId>()
                && !due.contains(&(e.game, peer))
            {
                due.push((e.game, peer));
            }
        }
        for (game, peer) in due {
            self.deliver(game, peer);
        }
    }

    async fn handle_internal(&mut self, i: Internal) {
        match i {
            Internal::Delivered {
                game,
                peer,
                sent,
                result,
            } => {
                self.in_flight.remove(&(game, peer));
                let again = self.redeliver.remove(&(game, peer));
                let mut whole = false;
                match result {
                    Ok(Response::Receipts { receipts }) => {
                        // The same cache still: the peer holds its first `covered` events.
                        if let Some((epoch, covered)) = sent.covered
                            && let Some(cache) = self.hot.peek_mut(&game)
                            && cache.epoch == epoch
                        {
                            let w = cache.acked.entry(peer).or_insert(0);
                            *w = (*w).max(covered);
                        }
                        let _ = self.ingest(game, &receipts, Some(peer), false).await;
                        self.note_unreceipted(&game, &peer, &sent.ids);
                        self.clear_outbox(&game, &peer).await;
                    }
                    // Only what the peer lacked was sent, and it lacks more (it lost events,
                    // or never had the game): the whole game now, no backoff.
                    Ok(Response::Refused { reason }) | Err(NetworkError::Refused(reason))
                        if !sent.full && refusal::is_missing_history(&reason) =>
                    {
                        debug!(%game, %peer, "a partial delivery lacked history: sending the whole game");
                        whole = true;
                    }
                    Ok(Response::Refused { reason }) => {
                        warn!(%game, %peer, "delivery refused: {reason}");
                        self.backoff(&game, &peer);
                    }
                    Ok(other) => {
                        warn!(%game, %peer, "unexpected answer to a delivery: {other:?}");
                        self.backoff(&game, &peer);
                    }
                    Err(e) => {
                        debug!(%game, %peer, "delivery failed, will retry: {e}");
                        self.backoff(&game, &peer);
                    }
                }
                if whole {
                    // Covers whatever arrived meanwhile too.
                    self.send(game, peer, true);
                } else if again
                    && !self.in_flight.contains(&(game, peer))
                    && self.outbox_waits(&game, &peer)
                {
                    // After the answer, so that it starts from the new watermark; not when the
                    // answer's receipts cleared everything that was waiting.
                    self.deliver(game, peer);
                }
            }
            Internal::Synced { peer, result } => {
                self.sync_done(peer);
                if let Ok(Response::Events { events }) = result {
                    // Group by game: a sync answers one game.
                    if let Some(game) = events
                        .first()
                        .and_then(|b| SignedEvent::from_bytes(b).ok())
                        .and_then(|e| game_of(&e))
                    {
                        let _ = self.ingest(game, &events, Some(peer), false).await;
                    }
                }
            }
            Internal::GamesListed { peer, result } => {
                if let Ok(Response::Games { games }) = result {
                    for g in games {
                        self.sync_game(peer, g);
                    }
                }
            }
        }
    }

    /// After an answer with receipts from `peer` to a delivery of `ids`: notes our events of
    /// `game` that the peer's player — our opponent — took without receipting, and forgets
    /// those it has now receipted. Bounded: a node has at most a few unanswered moves per game.
    fn note_unreceipted(&mut self, game: &GameId, peer: &PeerId, ids: &[EventId]) {
        let Some(player) = player_of_peer(peer) else {
            return;
        };
        let Some(cache) = self.hot.peek(game) else {
            return;
        };
        let st = &cache.state;
        if ![st.challenger, st.opponent].contains(&player) || player == self.me {
            return;
        }
        let receipted: HashSet<EventId> = st
            .receipts
            .iter()
            .filter(|(_, by, _)| *by == player)
            .map(|(e, _, _)| *e)
            .collect();
        let now = now_ms();
        for id in ids {
            let ours = cache.ids.get(id).is_some_and(|&i| {
                let e = &cache.events[i].event;
                e.author == self.me && !matches!(e.kind, EventKind::Receipt { .. })
            });
            if !ours {
                continue;
            }
            if receipted.contains(id) {
                self.unreceipted.remove(&(*game, *id));
            } else if self.unreceipted.len() < MAX_UNRECEIPTED {
                self.unreceipted
                    .entry((*game, *id))
                    .or_insert((player, now));
            }
        }
    }

    /// Whether `ev` countersigns (receipts, or says it saw) one of our events that its author
    /// took without a receipt, dated after that answer by more than the clock skew: the
    /// refusal named in [`time::TimeError::LateCountersignature`].
    fn late_countersignature(&self, game: &GameId, ev: &Event) -> Option<time::TimeError> {
        if self.unreceipted.is_empty() {
            return None;
        }
        let receipt = match ev.kind {
            EventKind::Receipt { event } => Some(event),
            _ => None,
        };
        [receipt, ev.seen].into_iter().flatten().find_map(|target| {
            let &(by, answered_ms) = self.unreceipted.get(&(*game, target))?;
            if by != ev.author {
                return None;
            }
            time::check_countersignature(ev.time_ms, answered_ms).err()
        })
    }

    /// A receipt arrived from `peer` for everything we sent it in `game`: clear those
    /// outbox entries whose event the peer now holds a receipt for (or, for a mailbox, any).
    async fn clear_outbox(&mut self, game: &GameId, peer: &PeerId) {
        let Ok(entries) = self.store.outbox() else {
            return;
        };
        if self.ensure_hot(game).is_err() {
            return;
        }
        let Some(cache) = self.hot.peek(game) else {
            return;
        };
        let receiver = peer.to_string();
        let receipted: HashSet<EventId> = cache
            .state
            .receipts
            .iter()
            .filter(|(_, by, _)| by.to_string() == receiver)
            .map(|(e, _, _)| *e)
            .collect();
        for e in entries
            .iter()
            .filter(|e| e.game == *game && e.peer == receiver)
        {
            // A receiver that refuses nothing but has no receipt to give (it already held
            // the event) still answered: its receipt list covers what it accepted.
            if receipted.contains(&e.event) || self.event_is_receipt(game, &e.event) {
                let _ = self.store.outbox_remove(&e.event, &receiver);
            }
        }
        let _ = self.store.flush().await;
    }

    /// Whether events of `game` wait in the outbox for `peer`'s receipt (what every delivery
    /// is for).
    fn outbox_waits(&self, game: &GameId, peer: &PeerId) -> bool {
        let p = peer.to_string();
        self.store
            .outbox()
            .is_ok_and(|entries| entries.iter().any(|e| e.game == *game && e.peer == p))
    }

    fn event_is_receipt(&self, game: &GameId, id: &EventId) -> bool {
        self.hot.peek(game).is_some_and(|c| {
            c.ids
                .get(id)
                .is_some_and(|&i| matches!(c.events[i].event.kind, EventKind::Receipt { .. }))
        })
    }

    fn backoff(&mut self, game: &GameId, peer: &PeerId) {
        let Ok(entries) = self.store.outbox() else {
            return;
        };
        let p = peer.to_string();
        for mut e in entries
            .into_iter()
            .filter(|e| e.game == *game && e.peer == p)
        {
            e.attempts = e.attempts.saturating_add(1);
            // 1.5 s, 3 s, 6 s … capped at 60 s, with jitter so many nodes do not align.
            let base = 1500u64.saturating_mul(1 << e.attempts.min(6)).min(60_000);
            let jitter = rand::random::<u64>() % (base / 4 + 1);
            e.next_at_ms = now_ms() + base + jitter;
            let _ = self.store.outbox_add(&e);
        }
    }

    /// Asks `peer` for what it holds of `game` beyond what this node has; with
    /// [`MAX_SYNCS_PER_PEER`] in flight already, when one of those is answered.
    fn sync_game(&mut self, peer: PeerId, game: GameId) {
        let running = self.syncs.entry(peer).or_default();
        if running.0 >= MAX_SYNCS_PER_PEER {
            running.1.push_back(game);
            return;
        }
        running.0 += 1;
        self.start_sync(peer, game);
    }

    /// A sync with `peer` is answered: start the next one waiting, if any.
    fn sync_done(&mut self, peer: PeerId) {
        let Some(running) = self.syncs.get_mut(&peer) else {
            return;
        };
        match running.1.pop_front() {
            Some(game) => self.start_sync(peer, game),
            None => {
                running.0 = running.0.saturating_sub(1);
                if running.0 == 0 {
                    self.syncs.remove(&peer);
                }
            }
        }
    }

    /// Sends the request of [`Service::sync_game`], with what the node holds now.
    fn start_sync(&mut self, peer: PeerId, game: GameId) {
        let mut counts: HashMap<PlayerId, u64> = HashMap::new();
        let mut count = |author: PlayerId, seq: u64| {
            let n = counts.entry(author).or_insert(0);
            *n = (*n).max(seq + 1);
        };
        match self.hot.peek(&game) {
            Some(c) => c
                .events
                .iter()
                .for_each(|v| count(v.event.author, v.event.seq)),
            None if self.games.contains_key(&game) => {
                for e in self.store.events(&game).unwrap_or_default() {
                    if let Ok(ev) = e.decode_unverified() {
                        count(ev.author, ev.seq);
                    }
                }
            }
            None => {}
        }
        let have: Vec<(PlayerId, u64)> = counts.into_iter().collect();
        let net = self.net.clone();
        let tx = self.internal_tx.clone();
        tokio::spawn(async move {
            let result = net
                .request(peer, Request::Sync { game, have })
                .await
                .map_err(|e| e.to_string());
            let _ = tx.send(Internal::Synced { peer, result }).await;
        });
    }

    // ----- ingesting -----

    /// Takes events for `game` from the network: keeps the ones that are new if the game
    /// still verifies with them (only their signatures are checked: the others were when
    /// they arrived), signs receipts for the new events of others (if asked), and returns
    /// those receipts (or a reason to refuse). Nothing is flushed here: the caller answers
    /// only after [`Service::commit`].
    async fn ingest(
        &mut self,
        game: GameId,
        raw: &[Vec<u8>],
        from: Option<PeerId>,
        want_receipts: bool,
    ) -> Result<Vec<Vec<u8>>, Refusal> {
        if raw.len() > MAX_EVENTS_PER_MESSAGE {
            return Err(Refusal::TooManyEvents);
        }
        let new_game = !self.games.contains_key(&game);
        if !new_game {
            self.ensure_hot(&game)?;
        }
        let known = self.hot.peek(&game);
        let players = known.map(|c| [c.state.challenger, c.state.opponent]);
        // A league game's organiser is its witness: its receipts clear our outbox. So is the
        // arbiter keeping an envelope (A3).
        let organiser = known.and_then(|c| self.league_organiser(&c.state));
        let arbiters = known.map(|c| view::arbiters(&c.state)).unwrap_or_default();
        // Ids of everything sent (a delivery may be the whole game: then most of it is known).
        let mut incoming: Vec<EventId> = Vec::with_capacity(raw.len());
        let mut fresh: Vec<SignedEvent> = Vec::new();
        let mut fresh_ids: HashSet<EventId> = HashSet::new();
        let arrival_ms = now_ms();
        for b in raw {
            let e = SignedEvent::from_bytes(b)?;
            let id = e.id();
            incoming.push(id);
            // A known id is an event of this game, checked when it arrived.
            if known.is_some_and(|c| c.ids.contains_key(&id)) || fresh_ids.contains(&id) {
                continue;
            }
            let ev = e.decode_unverified()?;
            let of_game = match ev.kind {
                EventKind::Challenge(_) => id == game,
                _ => ev.game == Some(game),
            };
            if !of_game {
                return Err(Refusal::OtherGame);
            }
            // Time is evidence, never the author's word: an event dated ahead of this node's
            // clock (a time claim "four days later", a receipt "next month") is refused before
            // anything else is done with it, and the sender takes a strike.
            if let Err(error) = time::check_arrival(ev.time_ms, arrival_ms) {
                return Err(Refusal::Time {
                    kind: ev.kind.name(),
                    author: ev.author,
                    error,
                });
            }
            // A refused receipt (see `unreceipted`) cannot be made up for later.
            if let Some(error) = self.late_countersignature(&game, &ev) {
                return Err(Refusal::Time {
                    kind: ev.kind.name(),
                    author: ev.author,
                    error,
                });
            }
            // Anyone may sign a receipt in any game (witnesses do), so receipts by players
            // other than the two, this node, its mailboxes, the league's organiser and the
            // arbiters keeping its envelopes are not kept: a stranger cannot make a stored
            // game grow.
            if let Some(players) = players
                && matches!(ev.kind, EventKind::Receipt { .. })
                && !players.contains(&ev.author)
                && ev.author != self.me
                && Some(ev.author) != organiser
                && !arbiters.contains(&ev.author)
                && !ev
                    .author
                    .peer_id()
                    .is_some_and(|p| self.mailboxes.contains(&p))
            {
                continue;
            }
            fresh_ids.insert(id);
            fresh.push(e);
        }
        // A second, different event at a place already taken is an equivocation: keep both
        // as proof, never take the twin into the log.
        if !fresh.is_empty()
            && let Some(players) = players
        {
            let proofs = match self.hot.peek(&game) {
                Some(c) => dispute::take_conflicts(
                    &game,
                    players,
                    c.events
                        .iter()
                        .map(|v| (v.event.author, v.event.seq, &v.signed)),
                    &mut fresh,
                ),
                None => Vec::new(),
            };
            if !proofs.is_empty() {
                self.equivocation(&game, players, &proofs, from).await;
                if fresh.is_empty() {
                    return Err(Refusal::Equivocation);
                }
            }
        }
        let t = now_ms();
        let mut is_player = players.is_some_and(|p| p.contains(&self.me));
        // A3: the arbiter an envelope is escrowed to keeps the game as a witness.
        let mut is_arbiter = arbiters.contains(&self.me);
        if !fresh.is_empty() {
            // Checked by the `preverify` stage, or now (what it did not verify).
            let mut checked: Vec<Option<VerifiedEvent>> = fresh
                .iter()
                .map(|e| self.preverified.remove(&e.id()))
                .collect();
            let missing: Vec<usize> = (0..fresh.len()).filter(|&i| checked[i].is_none()).collect();
            if !missing.is_empty() {
                let unchecked: Vec<SignedEvent> =
                    missing.iter().map(|&i| fresh[i].clone()).collect();
                for (&index, r) in missing.iter().zip(verify_all(&unchecked)) {
                    checked[index] = Some(r.map_err(|error| VerifyError::Event { index, error })?);
                }
            }
            let checked: Vec<VerifiedEvent> = checked.into_iter().flatten().collect();
            if new_game {
                let (state, checkpoint) = verify_continue(&checked, None, None)?;
                is_player = state.challenger == self.me || state.opponent == self.me;
                is_arbiter = view::arbiters(&state).contains(&self.me);
                if !is_player && !is_arbiter && !self.mailbox {
                    return Err(Refusal::NotOurs);
                }
                for v in &checked {
                    self.store
                        .insert_verified(&game, v)
                        .map_err(|e| Unavailable::Storage(e.to_string()))?;
                }
                self.store
                    .set_game_meta(
                        &game,
                        &GameMeta {
                            mine: is_player,
                            updated_ms: t,
                        },
                    )
                    .map_err(|e| Unavailable::Storage(e.to_string()))?;
                let sheet = self.restore_sheet(&game, &state, &checked);
                self.games.insert(game, Summary::of(&state));
                self.hot.insert(
                    game,
                    GameCache::new(checked, state, Some(checkpoint), sheet),
                );
                let _ = self.net.subscribe(protocol::game_topic(&game)).await;
            } else {
                if !is_player && !is_arbiter && !self.mailbox {
                    return Err(Refusal::NotOurs);
                }
                let cache = self.hot.get_mut(&game).ok_or(Unavailable::UnknownGame)?;
                let state = cache.try_add(checked, None)?;
                for v in &cache.events[cache.kept..] {
                    if let Err(e) = self.store.insert_verified(&game, v) {
                        cache.drop_added();
                        return Err(Unavailable::Storage(e.to_string()).into());
                    }
                }
                self.games.insert(game, Summary::of(&state));
                cache.keep_added(state);
            }
            self.dirty = true;
        }
        let status = self.games.get(&game).map_or("", |s| s.status.name());
        // The watchers learn of the events as soon as they are kept, before the receipts
        // are signed. Nobody watching: nothing to build (the base58 of two keys per event).
        let watched = self.watch.receiver_count() > 0;
        for e in fresh.iter().filter(|_| watched) {
            if let Ok(ev) = e.decode_unverified()
                && ev.author != self.me
            {
                self.notify(
                    &game,
                    ev.kind.name(),
                    json!({"by": ev.author.to_string(), "status": status, "from": from.map(|p| p.to_string())}),
                );
            }
        }
        // Receipts for the events of others this node has not receipted yet (never for
        // receipts: they would echo), plus the ones it already signed.
        let mut receipts = Vec::new();
        // The receipts signed here (the others were noted in the ledger when signed).
        let mut signed_now = Vec::new();
        if want_receipts {
            let wanted: Vec<EventId> = {
                let Some(c) = self.hot.peek(&game) else {
                    return Ok(receipts);
                };
                let done: HashSet<EventId> = c
                    .state
                    .receipts
                    .iter()
                    .filter(|(_, by, _)| *by == self.me)
                    .map(|(e, _, _)| *e)
                    .collect();
                let mut seen = HashSet::new();
                incoming
                    .iter()
                    .filter(|id| !done.contains(id) && seen.insert(**id))
                    .filter(|id| {
                        c.ids.get(id).is_some_and(|&i| {
                            let ev = &c.events[i].event;
                            ev.author != self.me && !matches!(ev.kind, EventKind::Receipt { .. })
                        })
                    })
                    .copied()
                    .collect()
            };
            for id in wanted {
                if let Ok(r) = self.sign_quietly(&game, move |s, t| s.receipt(id, t))
                    && let Ok(b) = r.to_bytes()
                {
                    signed_now.push(b.clone());
                    receipts.push(b);
                }
            }
            receipts.extend(self.existing_receipts(&game, &incoming));
            receipts.sort();
            receipts.dedup();
        }
        if fresh.is_empty() && receipts.is_empty() {
            return Ok(receipts);
        }
        // A game's meta is written once, when it is new (a write per delivery was a
        // twentieth of a mailbox's work), and when a game held for others becomes ours.
        if is_player && !new_game {
            let _ = self.store.mark_mine(&game, t);
        }
        self.dirty = true;
        // The ledger of our own events is written after the flush that covers them (in
        // `commit`), so that it can only lag the database.
        if !signed_now.is_empty() {
            self.ledger_notes.push((game, signed_now));
        }
        if is_player && !fresh.is_empty() {
            self.after_opponent_events(&game, &fresh).await;
        }
        if is_arbiter && !is_player && !fresh.is_empty() {
            self.after_events_as_arbiter(&game, &fresh).await;
        }
        Ok(receipts)
    }

    /// Keeps equivocation proofs found in `ingest`, says so, and passes new ones on to the
    /// other participants (the twin itself is never taken into the log).
    async fn equivocation(
        &mut self,
        game: &GameId,
        players: [PlayerId; 2],
        proofs: &[dispute::Proof],
        from: Option<PeerId>,
    ) {
        let new = match dispute::record(&self.store, proofs) {
            Ok(new) => new,
            Err(e) => {
                warn!(%game, "equivocation proof not stored: {e}");
                return;
            }
        };
        if new.is_empty() {
            return;
        }
        let _ = self.store.flush().await;
        let cheats: Vec<PlayerId> = new.iter().map(|p| p.author).collect();
        for c in &cheats {
            warn!(%game, "equivocation: {c} signed two different events at one place");
            self.notify(game, "equivocation", json!({"by": c.to_string()}));
        }
        let me = peer_of_player(&self.me);
        let mut peers: Vec<PeerId> = players
            .iter()
            .filter(|p| !cheats.contains(p))
            .filter_map(peer_of_player)
            .chain(self.mailboxes.iter().copied())
            .chain(from)
            .filter(|p| Some(*p) != me)
            .collect();
        peers.sort();
        peers.dedup();
        dispute::spread(&self.net, &new, &peers);
    }

    /// Receipts this node already signed for events it was sent again.
    fn existing_receipts(&self, game: &GameId, sent: &[EventId]) -> Vec<Vec<u8>> {
        let Some(cache) = self.hot.peek(game) else {
            return Vec::new();
        };
        let wanted: HashSet<&EventId> = sent.iter().collect();
        cache
            .events
            .iter()
            .filter(|v| {
                v.event.author == self.me
                    && matches!(v.event.kind, EventKind::Receipt { ref event } if wanted.contains(event))
            })
            .filter_map(|v| v.signed.to_bytes().ok())
            .collect()
    }

    /// Signs an event of this node's own in a hot game without delivering it (receipts
    /// travel in replies) and stores it; the caller flushes.
    fn sign_quietly(
        &mut self,
        game: &GameId,
        make: impl FnOnce(
            &mut Scoresheet,
            u64,
        ) -> Result<SignedEvent, sobre_core::record::codec::CodecError>,
    ) -> Result<SignedEvent, String> {
        let t = now_ms();
        let me = self.me;
        let key = self.key.clone();
        let cache = self.hot.get_mut(game).ok_or("unknown game")?;
        let seen = last_other_in(cache, &me);
        let sheet = cache
            .sheet
            .get_or_insert_with(|| Scoresheet::join(key.clone(), *game));
        if let Some(s) = seen {
            sheet.saw(s);
        }
        let snapshot = (sheet.seq(), sheet.last(), sheet.seen());
        let signed = make(sheet, t).map_err(|e| e.to_string())?;
        // Only the rules are replayed (no signature is checked twice, and this one is our
        // own).
        let added = match own_event(&signed) {
            Ok(v) => cache.try_add(vec![v], None).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match added {
            Ok(state) => {
                let stored = match cache.events.last() {
                    Some(v) => self.store.insert_verified(game, v),
                    None => self.store.insert_event(game, &signed),
                };
                if let Err(e) = stored {
                    cache.drop_added();
                    return Err(e.to_string());
                }
                self.games.insert(*game, Summary::of(&state));
                cache.keep_added(state);
                self.dirty = true;
                Ok(signed)
            }
            Err(e) => {
                cache.sheet = Some(Scoresheet::resume(
                    key, *game, snapshot.0, snapshot.1, snapshot.2,
                ));
                Err(e)
            }
        }
    }

    /// Group commit: one flush for everything stored since the last one, then the answers
    /// waiting for it — a receipt or a gossip acceptance is never sent before the events it
    /// covers are durable. The flush runs beside the service, which goes on with the next
    /// batches meanwhile; one flush at a time: while one runs, what is stored and the answers
    /// waiting wait for the next, started when it ends (`flush_done`). A flush covers only
    /// what was written before it began, so nothing is answered by a flush already running;
    /// answers go out in the order of the flushes, so also after the ones before.
    async fn commit(&mut self) {
        if self.pending.is_empty() && !self.dirty {
            return;
        }
        if self.flush_running {
            return;
        }
        // The last flush told `flush_done`: its task has ended or is about to.
        self.flushed().await;
        let dirty = std::mem::take(&mut self.dirty);
        let pending = std::mem::take(&mut self.pending);
        let notes = std::mem::take(&mut self.ledger_notes);
        let (store, net, home, me, done) = (
            self.store.clone(),
            self.net.clone(),
            self.home.clone(),
            self.me,
            self.flush_done.clone(),
        );
        self.flushing = Some(tokio::spawn(async move {
            // Tells the service even if this task is cut short, or no flush would start again.
            let _done = FlushDone(done);
            let flushed = if dirty {
                store.flush().await.map_err(|e| e.to_string())
            } else {
                Ok(())
            };
            answer(&home, &me, &net, flushed, notes, pending).await;
        }));
        self.flush_running = true;
    }

    /// Flushes and answers everything waiting, the flush in progress first (on stopping).
    async fn commit_all(&mut self) {
        loop {
            self.flushed().await;
            self.flush_running = false;
            if self.pending.is_empty() && !self.dirty {
                return;
            }
            self.commit().await;
        }
    }

    /// Waits for the flush [`Service::commit`] started, if any, and its answers.
    async fn flushed(&mut self) {
        if let Some(f) = self.flushing.take()
            && let Err(e) = f.await
        {
            warn!("flush task failed: {e}");
        }
    }

    /// Automatic answers: open the coin, open the envelope when the responder is present,
    /// and play prepared conditional moves.
    async fn after_opponent_events(&mut self, game: &GameId, fresh: &[SignedEvent]) {
        let Some(cache) = self.hot.peek(game) else {
            return;
        };
        let state = cache.state.clone();
        // The challenger opens the fair coin once the opponent has accepted with a share.
        if state.status == Status::Pending
            && state.challenger == self.me
            && state.challenge.coin_commitment.is_some()
            && fresh.iter().any(|e| {
                e.decode_unverified()
                    .is_ok_and(|ev| matches!(ev.kind, EventKind::Accept(_)))
            })
        {
            self.open_coin(game).await;
            return;
        }
        if self.open_envelope_if_due(game, &state).await {
            return;
        }
        // Conditional moves: the opponent's move matched a prepared line.
        let opponent_moved = fresh.iter().any(|e| {
            e.decode_unverified()
                .is_ok_and(|ev| ev.author != self.me && matches!(ev.kind, EventKind::Move(_)))
        });
        if opponent_moved && state.status == Status::Active {
            self.play_conditional(game, &state).await;
        }
    }

    async fn play_conditional(&mut self, game: &GameId, state: &GameState) {
        let Ok(lines) = self.store.conditional(game) else {
            return;
        };
        if lines.is_empty() || state.colour_of(&self.me) != Some(state.position.turn()) {
            return;
        }
        let Some(last) = state.moves.last() else {
            return;
        };
        // The position before the opponent's move.
        let mut before = state.start.clone().unwrap_or_default();
        for m in &state.moves[..state.moves.len() - 1] {
            before.play_unchecked(m.mv);
        }
        let mut reply = None;
        let mut remaining = Vec::new();
        for line in lines {
            let Some(theirs) = line.first() else { continue };
            let matches = notation::parse_move(&before, theirs, Lang::Auto).ok() == Some(last.mv);
            if matches && line.len() >= 2 {
                if reply.is_none() {
                    reply = Some(line[1].clone());
                }
                if line.len() > 2 {
                    remaining.push(line[2..].to_vec());
                }
            }
        }
        let _ = self.store.set_conditional(game, &remaining);
        if let Some(text) = reply {
            match notation::parse_move(&state.position, &text, Lang::Auto) {
                Ok(m) => {
                    if let Err(e) = self.author(game, move |s, t| s.play(m, t)).await {
                        warn!(%game, "conditional move {text} not played: {}", e.message);
                    } else {
                        info!(%game, "conditional move {text} played");
                    }
                }
                Err(e) => warn!(%game, "conditional move {text} is not legal now: {e}"),
            }
        }
    }

    // ----- network events -----

    async fn handle_network(&mut self, ev: NetworkEvent) {
        match ev {
            NetworkEvent::InboundRequest {
                peer,
                request,
                reply,
            } => {
                let response = self.answer(peer, request).await;
                self.pending.push(Deferred::Reply { reply, response });
            }
            NetworkEvent::Gossip {
                source,
                message_id,
                data,
                ..
            } => {
                let acceptance = match protocol::decode::<Gossip>(&data) {
                    Err(_) => MessageAcceptance::Reject,
                    Ok(g) => match self.ingest(g.game, &[g.event], Some(source), true).await {
                        Ok(_) => MessageAcceptance::Accept,
                        Err(refusal) if refusal.is_storage() => {
                            warn!(peer = %source, "gossip not stored: {refusal}");
                            MessageAcceptance::Ignore
                        }
                        Err(refusal) if !refusal.blames_sender() => MessageAcceptance::Ignore,
                        Err(refusal) => {
                            warn!(peer = %source, "invalid gossip rejected: {refusal}");
                            MessageAcceptance::Reject
                        }
                    },
                };
                self.pending.push(Deferred::Validation {
                    message_id,
                    source,
                    acceptance,
                });
            }
            NetworkEvent::PeerConnected { peer, .. } => self.on_connected(peer).await,
            _ => {}
        }
    }

    /// A peer connected: deliver what waits for it and catch up the games we share.
    async fn on_connected(&mut self, peer: PeerId) {
        self.league_on_connected(peer);
        let shared: Vec<GameId> = self
            .games
            .iter()
            .filter(|(_, s)| {
                peer_of_player(&s.challenger) == Some(peer)
                    || peer_of_player(&s.opponent) == Some(peer)
                    || self.mailboxes.contains(&peer)
                    || s.arbiters.iter().any(|a| peer_of_player(a) == Some(peer))
            })
            .map(|(g, _)| *g)
            .collect();
        // The peer catches up the same games from us: one sync each, whatever their number,
        // without tripping its rate limit.
        if !shared.is_empty() {
            let _ = self.net.allow_syncs(peer, shared.clone()).await;
        }
        for g in &shared {
            self.sync_game(peer, *g);
            dispute::resend(&self.store, &self.net, g, peer);
        }
        // After a repair: ask every peer for the games not yet whole again.
        for g in integrity::still_wanted(&self.home, &self.store, &self.me) {
            self.sync_game(peer, g);
        }
        if let Ok(entries) = self.store.outbox() {
            let p = peer.to_string();
            let games: HashSet<GameId> = entries
                .into_iter()
                .filter(|e| e.peer == p)
                .map(|e| e.game)
                .collect();
            for g in games {
                self.deliver(g, peer);
            }
        }
        if self.mailboxes.contains(&peer) {
            let net = self.net.clone();
            let tx = self.internal_tx.clone();
            let me = self.me;
            tokio::spawn(async move {
                let result = net
                    .request(peer, Request::Games { player: me })
                    .await
                    .map_err(|e| e.to_string());
                let _ = tx.send(Internal::GamesListed { peer, result }).await;
            });
        }
    }

    async fn answer(&mut self, peer: PeerId, request: Request) -> Response {
        match request {
            Request::Deliver { game, events } => {
                match self.ingest(game, &events, Some(peer), true).await {
                    Ok(receipts) => Response::Receipts { receipts },
                    Err(refusal) => {
                        // The protocol edge: from here on the refusal is the sender's text.
                        let reason = refusal.to_string();
                        if refusal.blames_sender() {
                            warn!(%peer, %game, "delivery rejected: {reason}");
                            let _ = self.net.penalize(peer, reason.clone()).await;
                        }
                        Response::Refused { reason }
                    }
                }
            }
            Request::Sync { game, have } => {
                let have: HashMap<PlayerId, u64> = have.into_iter().collect();
                let wanted =
                    |author: &PlayerId, seq: u64| have.get(author).is_none_or(|&n| seq >= n);
                // A game not in memory is served from the store (verified when stored)
                // without loading it: a catch-up asks for many games once each.
                let events = match self.hot.peek(&game) {
                    Some(cache) => cache
                        .events
                        .iter()
                        .filter(|v| wanted(&v.event.author, v.event.seq))
                        .filter_map(|v| v.signed.to_bytes().ok())
                        .take(MAX_EVENTS_PER_MESSAGE)
                        .collect(),
                    None if self.games.contains_key(&game) => self
                        .store
                        .events(&game)
                        .unwrap_or_default()
                        .iter()
                        .filter(|e| {
                            e.decode_unverified()
                                .is_ok_and(|ev| wanted(&ev.author, ev.seq))
                        })
                        .filter_map(|e| e.to_bytes().ok())
                        .take(MAX_EVENTS_PER_MESSAGE)
                        .collect(),
                    None => Vec::new(),
                };
                Response::Events { events }
            }
            Request::League { docs } => self.answer_league(peer, docs).await,
            Request::Games { player } => {
                let games: Vec<GameId> = self
                    .games
                    .iter()
                    .filter(|(_, s)| s.plays(&player))
                    .map(|(g, _)| *g)
                    .collect();
                // A player asking for its own games syncs each next (a node meeting its
                // mailbox): let it, once per game.
                if peer_of_player(&player) == Some(peer) && !games.is_empty() {
                    let _ = self.net.allow_syncs(peer, games.clone()).await;
                }
                Response::Games { games }
            }
        }
    }

    // ----- the control API -----

    async fn handle_api(&mut self, req: ApiRequest) -> Result<Value, ApiError> {
        match req {
            ApiRequest::Id => {
                let peer = self.net.local_peer_id();
                let addrs: Vec<String> = self
                    .net
                    .listen_addrs()
                    .await
                    .unwrap_or_default()
                    .into_iter()
                    .map(|a| {
                        let s = a.to_string();
                        if s.contains("/p2p/") {
                            s
                        } else {
                            format!("{s}/p2p/{peer}")
                        }
                    })
                    .collect();
                Ok(json!({
                    "player_id": self.me.to_string(),
                    "name": read_name(&self.home),
                    "addresses": addrs,
                    "mailbox": self.mailbox,
                }))
            }
            ApiRequest::Status => {
                let peers = self.net.connected_peers().await.unwrap_or_default();
                Ok(json!({
                    "player_id": self.me.to_string(),
                    "uptime_ms": now_ms().saturating_sub(self.started_ms),
                    "games": self.games.len(),
                    "peers": peers.len(),
                    "outbox": self.store.outbox().map(|o| o.len()).unwrap_or(0),
                    "mailbox": self.mailbox,
                }))
            }
            ApiRequest::Stop => {
                self.stop = true;
                Ok(json!({"stopping": true}))
            }
            ApiRequest::Peers => {
                let peers = self.net.connected_peers().await.unwrap_or_default();
                Ok(json!({
                    "connected": peers.iter().map(|(p, a)| json!({
                        "peer": p.to_string(),
                        "addresses": a.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                    "known": self.store.peers().unwrap_or_default().iter().map(|(p, a)| json!({"peer": p, "addresses": a})).collect::<Vec<_>>(),
                }))
            }
            ApiRequest::Connect { addr } => {
                let a: Multiaddr = addr
                    .parse()
                    .map_err(|e| user(format!("bad multiaddr {addr:?}: {e}")))?;
                let peer = self
                    .net
                    .dial(a.clone())
                    .await
                    .map_err(|e| user(format!("cannot reach {addr}: {e}")))?;
                let _ = self
                    .store
                    .remember_peer(&peer.to_string(), std::slice::from_ref(&addr));
                let _ = self.store.flush().await;
                Ok(json!({"peer": peer.to_string()}))
            }
            ApiRequest::Challenge {
                opponent,
                color,
                time_control,
                chess960,
                fen,
            } => {
                self.challenge(&opponent, &color, &time_control, chess960, fen, None)
                    .await
            }
            ApiRequest::Accept {
                game,
                color,
                position,
            } => self.accept(&game, color.as_deref(), position).await,
            ApiRequest::CoinDefault {
                game,
                color,
                position,
            } => {
                self.coin_default_by_hand(&game, color.as_deref(), position)
                    .await
            }
            ApiRequest::Decline { game, reason } => {
                let g = self.resolve_game(&game)?;
                let text = reason.unwrap_or_default();
                let (_, state) = self.author(&g, move |s, t| s.decline(&text, t)).await?;
                Ok(self.show(&state))
            }
            ApiRequest::Abort { game } => {
                let g = self.resolve_game(&game)?;
                self.check_abort_keeps_the_coin(&g)?;
                let (_, state) = self.author(&g, |s, t| s.abort(t)).await?;
                Ok(self.show(&state))
            }
            ApiRequest::Games => {
                let now = now_ms();
                let mut list: Vec<Value> = self
                    .games
                    .values()
                    .filter(|s| s.plays(&self.me) || self.mailbox || s.arbiters.contains(&self.me))
                    .map(|s| view::summary_json(s, &self.me, now))
                    .collect();
                // My move first, then the most urgent (least time left), then the rest.
                list.sort_by_key(|v| {
                    (
                        !v["my_move"].as_bool().unwrap_or(false),
                        !v["incoming_challenge"].as_bool().unwrap_or(false),
                        v["ms_to_deadline"].as_i64().unwrap_or(i64::MAX),
                        v["game"].as_str().unwrap_or("").to_owned(),
                    )
                });
                Ok(json!({"games": list}))
            }
            ApiRequest::Show { game } => {
                let g = self.resolve_game(&game)?;
                let state = verify_incremental(&self.cache(&g)?.events, &[], Some(now_ms()))
                    .map_err(internal)?;
                let mut v = self.show(&state);
                dispute::annotate(&self.store, &g, &mut v);
                Ok(v)
            }
            ApiRequest::Move {
                game,
                text,
                notation,
            } => {
                let g = self.resolve_game(&game)?;
                let st = &self.cache(&g)?.state;
                self.require_my_move(st)?;
                let m = notation::parse_move(&st.position, &text, letters(notation))
                    .map_err(|e| move_error("", &e))?;
                let (_, state) = self.author(&g, move |s, t| s.play(m, t)).await?;
                Ok(self.show(&state))
            }
            ApiRequest::Draw { game, action } => {
                let g = self.resolve_game(&game)?;
                let (_, state) = match action.as_str() {
                    "offer" => self.author(&g, |s, t| s.offer_draw(t)).await?,
                    "accept" => self.author(&g, |s, t| s.accept_draw(t)).await?,
                    "decline" => self.author(&g, |s, t| s.decline_draw(t)).await?,
                    other => {
                        return Err(user(format!(
                            "draw {other:?}: use offer, accept or decline"
                        )));
                    }
                };
                Ok(self.show(&state))
            }
            ApiRequest::Claim {
                game,
                reason,
                intended,
                notation,
            } => {
                let g = self.resolve_game(&game)?;
                let reason = match reason.as_str() {
                    "threefold" => ClaimReason::Threefold,
                    "fifty" => ClaimReason::FiftyMoves,
                    "time" => ClaimReason::Time,
                    "dead" => ClaimReason::DeadPosition,
                    "lateness" => ClaimReason::Lateness,
                    other => {
                        return Err(user(format!(
                            "unknown claim {other:?}: threefold, fifty, time, dead or lateness"
                        )));
                    }
                };
                let pos = self.cache(&g)?.state.position.clone();
                let m = match intended {
                    None => None,
                    Some(text) => Some(
                        notation::parse_move(&pos, &text, letters(notation))
                            .map_err(|e| move_error("intended move: ", &e))?,
                    ),
                };
                let (_, state) = self.author(&g, move |s, t| s.claim(reason, m, t)).await?;
                let mut v = self.show(&state);
                if let Some(c) = state.claims.last() {
                    v["claim"] = json!({"correct": c.correct, "judgement": c.judgement});
                }
                Ok(v)
            }
            ApiRequest::Resign { game } => {
                let g = self.resolve_game(&game)?;
                let (_, state) = self.author(&g, |s, t| s.resign(t)).await?;
                Ok(self.show(&state))
            }
            ApiRequest::Adjourn {
                game,
                seal,
                resume_at_ms,
                place,
                force,
                notation,
                arbiter,
                arbiter_setting,
                no_arbiter,
            } => {
                let keeper = adjourn::Keeper {
                    arbiter,
                    setting: arbiter_setting,
                    none: no_arbiter,
                };
                self.adjourn(&game, &seal, notation, resume_at_ms, place, force, keeper)
                    .await
            }
            ApiRequest::Resume { game } => {
                let g = self.resolve_game(&game)?;
                let (_, state) = self.author(&g, |s, t| s.presence(t)).await?;
                // If this node sealed and the responder is already present, open now (A7).
                let fresh: Vec<SignedEvent> = Vec::new();
                self.after_opponent_events(&g, &fresh).await;
                let state = self.cache(&g).map(|c| c.state.clone()).unwrap_or(state);
                Ok(self.show(&state))
            }
            ApiRequest::Envelope { game } => {
                let g = self.resolve_game(&game)?;
                let st = &self.cache(&g)?.state;
                let v = self.show(st);
                Ok(json!({"game": g.to_hex(), "envelope": v["envelope"], "status": v["status"]}))
            }
            ApiRequest::EnvelopeOpen { game } => self.envelope_open(&game).await,
            ApiRequest::EnvelopeLost { game, resign } => self.envelope_lost(&game, resign).await,
            ApiRequest::Conditional {
                game,
                action,
                line,
                notation,
            } => {
                let g = self.resolve_game(&game)?;
                let mut lines = self.store.conditional(&g).map_err(internal)?;
                match action.as_str() {
                    "add" => {
                        let text =
                            line.ok_or_else(|| user("conditional add needs a line of moves"))?;
                        let moves: Vec<String> =
                            text.split_whitespace().map(str::to_owned).collect();
                        let moves = self.check_conditional(&g, &moves, notation)?;
                        lines.push(moves);
                        self.store.set_conditional(&g, &lines).map_err(internal)?;
                    }
                    "clear" => {
                        lines.clear();
                        self.store.set_conditional(&g, &lines).map_err(internal)?;
                    }
                    "list" => {}
                    other => {
                        return Err(user(format!(
                            "conditional {other:?}: use add, list or clear"
                        )));
                    }
                }
                self.store.flush().await.map_err(internal)?;
                Ok(json!({"game": g.to_hex(), "lines": lines}))
            }
            ApiRequest::Chat { game, text } => {
                let g = self.resolve_game(&game)?;
                if text.len() > 2000 {
                    return Err(user("chat lines are limited to 2000 bytes"));
                }
                let (_, state) = self.author(&g, move |s, t| s.chat(&text, t)).await?;
                Ok(self.show(&state))
            }
            ApiRequest::Leave { action, days } => {
                let now = now_ms();
                let games: Vec<GameId> = self
                    .games
                    .iter()
                    .filter(|(_, s)| {
                        s.colour_of(&self.me).is_some()
                            && matches!(s.status, Status::Active | Status::Adjourned)
                    })
                    .map(|(g, _)| *g)
                    .collect();
                let (from, until) = match action.as_str() {
                    "start" => (
                        now,
                        now + u64::from(days.unwrap_or(7)) * sobre_core::clock::DAY,
                    ),
                    "end" => {
                        let start = self
                            .store
                            .meta_get("leave_from")
                            .ok()
                            .flatten()
                            .and_then(|b| String::from_utf8(b).ok())
                            .and_then(|s| s.parse().ok())
                            .ok_or_else(|| user("no leave in progress"))?;
                        (start, now)
                    }
                    other => return Err(user(format!("leave {other:?}: use start or end"))),
                };
                let mut done = Vec::new();
                for g in games {
                    match self.author(&g, move |s, t| s.leave(from, until, t)).await {
                        Ok(_) => done.push(g.to_hex()),
                        Err(e) => warn!(%g, "leave not recorded: {}", e.message),
                    }
                }
                if action == "start" {
                    let _ = self
                        .store
                        .meta_set("leave_from", from.to_string().as_bytes());
                }
                self.store.flush().await.map_err(internal)?;
                Ok(json!({"from_ms": from, "until_ms": until, "games": done}))
            }
            ApiRequest::Export { game, format } => {
                let g = self.resolve_game(&game)?;
                let cache = self.cache(&g)?;
                match format.as_str() {
                    "pgn" => Ok(
                        json!({"game": g.to_hex(), "pgn": export::to_pgn(&cache.state, &|p: &PlayerId| p.to_string())}),
                    ),
                    "archive" => {
                        let signed: Vec<SignedEvent> =
                            cache.events.iter().map(|v| v.signed.clone()).collect();
                        let text = export::write_archive(&g, &signed).map_err(internal)?;
                        Ok(json!({"game": g.to_hex(), "archive": text}))
                    }
                    other => Err(user(format!("export format {other:?}: use pgn or archive"))),
                }
            }
            ApiRequest::Watch { .. } => Err(user("watch is served by the control socket itself")),
            ApiRequest::LeagueCreate { .. }
            | ApiRequest::LeagueJoin { .. }
            | ApiRequest::LeagueList
            | ApiRequest::LeagueExport { .. } => self.league_api(req).await,
        }
    }

    fn show(&self, state: &GameState) -> Value {
        view::game_json(state, &self.me, now_ms())
    }

    fn require_my_move(&self, st: &GameState) -> Result<(), ApiError> {
        let Some(c) = st.colour_of(&self.me) else {
            return Err(user("you do not play in this game"));
        };
        match st.status {
            Status::Active | Status::Disputed => {}
            Status::Adjourned => {
                return Err(
                    user("the game is adjourned").hint("`sobre resume GAME` at the resumption")
                );
            }
            Status::Pending => return Err(user("the game has not started")),
            _ => return Err(user("the game is over")),
        }
        if st.position.turn() != c {
            return Err(user("it is not your move"));
        }
        Ok(())
    }

    async fn challenge(
        &mut self,
        opponent: &str,
        color: &str,
        time_control: &str,
        chess960: bool,
        fen: Option<String>,
        league: Option<LeagueRound>,
    ) -> Result<Value, ApiError> {
        let opp: PlayerId = opponent
            .parse()
            .map_err(|e: sobre_core::record::PlayerIdError| user(e.to_string()))?;
        if opp == self.me {
            return Err(user("you cannot challenge yourself"));
        }
        time_control
            .parse::<TimeControl>()
            .map_err(|e| user(e.to_string()))?;
        let colour = match color {
            "white" => ColourChoice::ChallengerWhite,
            "black" => ColourChoice::ChallengerBlack,
            "random" => ColourChoice::Random,
            other => return Err(user(format!("colour {other:?}: white, black or random"))),
        };
        let start = match (chess960, fen) {
            (_, Some(f)) => {
                Position::from_fen_auto(&f).map_err(|e| user(format!("malformed FEN: {e}")))?;
                StartPosition::Fen(f)
            }
            (true, None) => StartPosition::Chess960Random,
            (false, None) => StartPosition::Standard,
        };
        let needs_coin = colour == ColourChoice::Random || start == StartPosition::Chess960Random;
        let secret: Option<[u8; 32]> = needs_coin.then(rand::random);
        let challenge = Challenge {
            opponent: opp,
            colour,
            time_control: time_control.to_owned(),
            start,
            coin_commitment: secret.as_ref().map(commit::coin_commitment),
            league,
        };
        let t = now_ms();
        let (sheet, signed) =
            Scoresheet::challenge(self.key.clone(), challenge, t).map_err(internal)?;
        let game = sheet.game();
        if let Some(s) = secret {
            secrets::write_secret(&coin_path(&self.home, &game), &s).map_err(internal)?;
        }
        let checked = own_event(&signed).map_err(internal)?;
        let state = verify_incremental(std::slice::from_ref(&checked), &[], None)
            .map_err(|e| user(explain(&e)))?;
        let recipients = self
            .persist_authored(&game, std::slice::from_ref(&signed), &state, t)
            .await?;
        self.games.insert(game, Summary::of(&state));
        self.hot.insert(
            game,
            GameCache::new(vec![checked], state.clone(), None, Some(sheet)),
        );
        let _ = self.net.subscribe(protocol::game_topic(&game)).await;
        if let Ok(event) = signed.to_bytes()
            && let Ok(bytes) = protocol::encode(&Gossip { game, event })
        {
            let _ = self.net.publish(protocol::inbox_topic(&opp), bytes).await;
        }
        for peer in recipients {
            self.deliver(game, peer);
        }
        integrity::note_event(&self.home, &self.me, &game, &signed);
        self.notify(&game, "challenge", json!({"by": self.me.to_string()}));
        let mut v = self.show(&state);
        v["game"] = json!(game.to_hex());
        Ok(v)
    }
}

/// The latest event of the other player in timeline order (what this node has seen), or
/// the arbiter's opening of an envelope (A9: the sealed move, played as the other player's).
fn last_other_event(state: &GameState, me: &PlayerId, events: &[VerifiedEvent]) -> Option<EventId> {
    let authors: HashMap<EventId, (PlayerId, bool)> = events
        .iter()
        .map(|v| (v.id, (v.event.author, is_arbiter_open(&v.event.kind))))
        .collect();
    last_other_by(state, me, |id| authors.get(id).copied())
}

/// [`last_other_event`] in a hot game, with the index the cache keeps (no map built: it runs
/// for every receipt a mailbox signs).
fn last_other_in(cache: &GameCache, me: &PlayerId) -> Option<EventId> {
    last_other_by(&cache.state, me, |id| {
        cache.ids.get(id).map(|&i| {
            let e = &cache.events[i].event;
            (e.author, is_arbiter_open(&e.kind))
        })
    })
}

fn is_arbiter_open(kind: &EventKind) -> bool {
    matches!(kind, EventKind::ArbiterOpen { .. })
}

/// `about(id)`: the event's author, and whether it is an arbiter's opening.
fn last_other_by(
    state: &GameState,
    me: &PlayerId,
    about: impl Fn(&EventId) -> Option<(PlayerId, bool)>,
) -> Option<EventId> {
    let players = [state.challenger, state.opponent];
    state.timeline.iter().rev().copied().find(|id| {
        about(id).is_some_and(|(a, opening)| a != *me && (opening || players.contains(&a)))
    })
}

/// The game an event belongs to.
pub fn game_of(e: &SignedEvent) -> Option<GameId> {
    let ev = e.decode_unverified().ok()?;
    match ev.kind {
        EventKind::Challenge(_) => Some(e.id()),
        _ => ev.game,
    }
}

fn coin_path(home_dir: &Path, game: &GameId) -> PathBuf {
    home::openings_dir(home_dir).join(format!("{game}.coin"))
}

fn opening_path(home_dir: &Path, game: &GameId, ply: u32) -> PathBuf {
    home::openings_dir(home_dir).join(format!("{game}-{ply}.seal.json"))
}

fn read_name(home_dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(home_dir.join(home::PROFILE_FILE)).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    v["name"].as_str().map(str::to_owned)
}

/// An event this node has just signed, as a [`VerifiedEvent`] without checking the
/// signature: made with our own key (its public half derived from the secret one), it is
/// valid by construction, and checking it cost as much as a third of a receipt's handling.
/// The rules are still checked when it is added to its game.
fn own_event(signed: &SignedEvent) -> Result<VerifiedEvent, EventError> {
    Ok(VerifiedEvent {
        id: signed.id(),
        event: signed.decode_unverified()?,
        signed: signed.clone(),
    })
}

/// A verification failure of the player's own action, in words for the CLI.
fn explain(e: &VerifyError) -> String {
    match e {
        VerifyError::Rule { rule, .. } => rule.clone(),
        other => other.to_string(),
    }
}
