//! The node's service: the one task that owns the store's write path and the player's
//! scoresheets. It answers the control API, ingests events from the network (checking every
//! one with `sobre_core::record::verify`), signs receipts, and delivers the player's events
//! until their recipients' receipts arrive (store and forward).
//!
//! Data flow of a move (`api` → `author` → `deliver`): control API `move` → parse with the
//! rules core in the game's position → sign the next event of the player's scoresheet →
//! replay the game's rules with it → store and flush → deliver (with the receipt in the
//! answer) to the opponent, any mailboxes and witnesses → reply → retried with backoff from
//! the outbox until each recipient's receipt is stored. Games have no gossip topic: a
//! league's organiser announces its games' heads on the league's topic (`league_heads`). What comes in: `inbound` → `ingest` → group `commit` → answers; `auto` acts on
//! the opponent's events; `sync` catches up; `cache` holds the games in use.
//!
//! Costs: a signature is checked once, when its event arrives (`verify_incremental` replays
//! the rules over events verified before); a delivery carries only what its receiver lacks
//! (the whole game when that is not known, or not enough); deliveries and gossip queued
//! together are stored with one flush before any of them is answered (group commit); only
//! the recently used games keep their events and full state in memory, every game keeps a
//! [`Summary`].
//!
//! State lives in owned parts, each a struct with private fields in a file of its own
//! (`identity`, `restore`, `group_commit`, `outbox`, `sync`, `limits`, `league_state`,
//! `reminder_state`, `coin_state`, `hot`, `watchers`, `run_state`, `profile_out`,
//! `instances`, `skew`, and `ingest`'s `Preverified`; docs/architecture.md lists what each
//! owns): a file that runs the protocol asks a part, never reaches into its fields. The
//! control API's requests are dispatched by `api` to handlers grouped by area (`api_node`,
//! `api_game`, `challenge`, and the subjects' own files).

use crate::api::{ApiError, RefusalCode};
use crate::control::{self, ControlRequest};
use crate::error::NodeError;
use crate::network::{self, NetworkConfig, NetworkHandle};
use crate::protocol;
use crate::store::Store;
use crate::time::now_ms;
use crate::view::Summary;
use crate::{home, integrity, preverify};
use libp2p::{Multiaddr, PeerId};
use sobre_core::record::author::Scoresheet;
use sobre_core::record::{EventId, GameId, GameState, PlayerId, VerifiedEvent, VerifyError};
use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use tracing::{info, warn};

/// How a node is started (`sobre node run`).
#[derive(Clone, Debug, Default)]
pub struct NodeConfig {
    pub home: PathBuf,
    /// Multiaddrs to listen on (none: [`network::port::default_listen`], the default port
    /// on all interfaces, TCP and QUIC).
    pub listen: Vec<String>,
    /// Addresses reachable from outside (a forwarded port, a public host), announced to peers.
    pub external: Vec<String>,
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
    /// Inbound connections from one IP address (default
    /// [`crate::network::ip_limits::MAX_PER_IP`]); a mailbox whose players share an address
    /// raises it.
    pub max_inbound_per_ip: Option<usize>,
    /// Bytes of sync answers one peer is sent per minute (default
    /// [`access::SYNC_BYTES_PER_MINUTE`]).
    pub sync_bytes_per_minute: Option<usize>,
    /// Strikes before a peer is blocked for the life of the process (default
    /// [`NetworkConfig::max_strikes`], 5).
    pub max_strikes: Option<u32>,
    /// Connected peers above which the least recently used one makes room (default
    /// [`network::MAX_PEERS`]; see [`NetworkConfig::max_peers`]).
    pub max_peers: Option<usize>,
    /// How long a connection may carry nothing of interest before it is closed (default
    /// [`network::IDLE_TIMEOUT`]; see [`NetworkConfig::idle_timeout`]).
    pub idle_timeout: Option<std::time::Duration>,
    /// Events all strangers together may make the node store in an hour (default
    /// `quota::MAX_STRANGER_EVENTS_PER_HOUR`, 1,200; see `standing`).
    pub stranger_events_per_hour: Option<usize>,
    /// When and how the player is reminded, and automatic claims (`[reminders]` of
    /// node.toml, see `crate::reminders`).
    pub reminders: crate::reminders::settings::ReminderSettings,
    /// Serve the board (`crate::board`) from the start, not only once `sobre board` asks.
    pub board: bool,
    /// The board's port on 127.0.0.1 (none: any free port).
    pub board_port: Option<u16>,
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

/// The peers named in the bootstrap and mailbox addresses (those with a `/p2p/` part).
fn net_config_peers(config: &NodeConfig, mailboxes: &[Multiaddr]) -> Vec<PeerId> {
    let mut out: Vec<PeerId> = config
        .bootstrap
        .iter()
        .filter_map(|a| a.parse::<Multiaddr>().ok())
        .chain(mailboxes.iter().cloned())
        .filter_map(|a| peer_of_addr(&a))
        .collect();
    out.sort();
    out.dedup();
    out
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

pub use crate::integrity::RepairSummary;

/// Rebuilds the database (`sobre node repair`): see [`integrity::repair`].
///
/// # Errors
/// If the home has no key or the fresh database cannot be written.
pub fn repair(home_dir: &Path) -> Result<RepairSummary, NodeError> {
    integrity::repair(home_dir)
}

pub mod access;
mod adjourn;
mod api;
mod api_game;
mod api_node;
mod arbiter;
mod author;
mod auto;
pub(crate) mod block;
mod cache;
mod catchup;
mod challenge;
mod coin;
mod coin_state;
mod commit;
mod deliver;
mod game_table;
mod group_commit;
mod hot;
mod identity;
mod inbound;
mod ingest;
mod instance;
mod instances;
mod league;
mod league_decide;
mod league_heads;
mod league_state;
mod league_sync;
mod limits;
mod lost_envelope;
mod moves;
mod outbox;
mod profile;
mod profile_out;
mod quickplay;
mod quota;
pub(crate) mod reads;
mod refusal;
mod remember;
mod reminder_state;
mod reminders;
mod restore;
mod run_state;
mod skew;
pub(crate) mod standing;
mod sync;
mod their_mailboxes;
mod watchers;

use author::last_other_event;
use cache::GameCache;
use deliver::Internal;
use refusal::{Refusal, Unavailable};

use moves::{letters, move_error};
use reads::ReadSide;

/// How long a starting node waits for the database while another process holds it: a
/// `sobre games` or `show` reading it while the node was stopped takes well under this.
const OPEN_WAIT: Duration = Duration::from_secs(15);

/// Network events handled before one store flush at most (group commit): enough to cover
/// the requests a busy mailbox has in flight, few enough that the first one queued is not
/// kept waiting long.
const MAX_BATCH: usize = 64;

struct Service {
    /// Who this node is: home, key, player, mailbox or not, the player's mailboxes (see
    /// `identity`).
    identity: identity::Identity,
    /// The node's I/O handles, the database and the network: shared with the tasks the
    /// service spawns (a flush, a dial), so handles rather than parts.
    store: Store,
    net: NetworkHandle,
    /// Every game the node serves.
    games: game_table::GameTable,
    /// What waits for the next store flush, and the flush in progress (see `group_commit`).
    commits: group_commit::GroupCommit,
    /// When this run started, what its start verified, whether it stops (see `run_state`).
    run: run_state::RunState,
    /// The games in use, with their events and full state.
    hot: hot::HotGames,
    /// The control clients watching (see `watchers`).
    watchers: watchers::Watchers,
    /// The service's own queue: what a spawned task reports back (see `deliver::Internal`).
    internal_tx: mpsc::Sender<Internal>,
    /// Deliveries in flight, and events taken without a receipt (see `outbox`).
    outbox: outbox::Outbox,
    /// Each opponent's clock against ours, from receipts of our deliveries (see `skew`).
    skews: skew::ClockSkews,
    /// Games being restored after a repair, where the node signs nothing (see `restore`).
    restoring: restore::Restoring,
    /// The abuse limits' memory, the blocked and the reserved players (see `limits`).
    limits: limits::Limits,
    /// Catch-up syncs in flight and the cursors of heads answers (see `sync`).
    syncs: sync::Syncs,
    /// What the league side sends, polls and announces (see `league_state`).
    leagues_state: league_state::LeagueState,
    /// The new events of the batch being handled, their signatures checked together by the
    /// `preverify` stage (see `ingest`).
    preverified: ingest::Preverified,
    /// Coins and escrows tried and refused in this run (see `coin_state`).
    coins: coin_state::CoinState,
    /// The player's own signed profile and who holds it (see `profile`).
    profiles: profile_out::Outgoing,
    /// This node's instance of the key, and other nodes' (see `crate::instance`).
    instances: instances::Instances,
    /// The reminders' settings, deliverer and pace (see `reminder_state`).
    reminding: reminder_state::ReminderState,
    /// The board's server, started when first asked (see `crate::board`).
    board: crate::board::Launcher,
}

/// Runs a node until `shutdown` resolves (or a `stop` request arrives).
///
/// # Errors
/// [`NodeError`] if the key, the database, the network or the control socket cannot start.
pub async fn run(config: NodeConfig, shutdown: impl Future<Output = ()>) -> Result<(), NodeError> {
    let home_dir = config.home.clone();
    home::ensure(&home_dir).map_err(NodeError::Control)?;
    let key = home::load_key(&home_dir)?;
    // A command may be reading the database while the node is stopped (`crate::offline`):
    // wait for it rather than fail.
    let store = Store::open_waiting(&home::db_path(&home_dir), OPEN_WAIT)?;
    integrity::check(&home_dir, &store, &key.player_id())?;
    let listen = if config.listen.is_empty() {
        network::port::default_listen()
    } else {
        parse_addrs(&config.listen)?
    };
    let mut net_config = NetworkConfig::new(home::libp2p_keypair(&key)?);
    net_config.listen = listen;
    net_config.external = parse_addrs(&config.external)?;
    net_config.bootstrap = parse_addrs(&config.bootstrap)?;
    net_config.mdns = config.mdns;
    net_config.relay_server = config.relay_server;
    net_config.relays = parse_addrs(&config.relays)?;
    if let Some(n) = config.max_inbound_per_ip {
        net_config.max_inbound_per_ip = n;
    }
    if let Some(n) = config.max_strikes {
        net_config.max_strikes = n;
    }
    if let Some(n) = config.max_peers {
        net_config.max_peers = n;
    }
    if let Some(t) = config.idle_timeout {
        net_config.idle_timeout = t;
    }
    let mailbox_addrs = parse_addrs(&config.mailboxes)?;
    // The player's mailboxes are DHT servers: its bootstrap peers by default, and named in
    // its contact record so that strangers can leave a challenge there.
    net_config.bootstrap.extend(mailbox_addrs.iter().cloned());
    net_config.mailboxes = mailbox_addrs.clone();
    // A mailbox or a relay is run where players can reach it: it serves the DHT.
    net_config.dht_server = config.mailbox || config.relay_server;
    let (net, net_events) = network::spawn(net_config)
        .await
        .map_err(|e| NodeError::Network(e.to_string()))?;
    // Signatures are checked beside the service (see `preverify`), which gets batches, of
    // the games that may be ours only: the service fills `held` once the games are loaded.
    let held = preverify::Held::default();
    let scope = preverify::Scope {
        me: key.player_id(),
        mailbox: config.mailbox,
        held: held.clone(),
    };
    let mut net_batches = preverify::spawn(net_events, MAX_BATCH, scope);
    let (watch, _) = broadcast::channel(1024);
    // The control socket's requests, and the board's, which takes the same path.
    let (ctrl_tx, mut ctrl_rx) = mpsc::channel::<ControlRequest>(64);
    let (internal_tx, mut internal_rx) = mpsc::channel(1024);
    let (flush_done, mut flush_done_rx) = mpsc::channel(4);
    let me = key.player_id();
    let restoring = integrity::wanted(&store);
    let started_ms = now_ms();
    let own_addrs: Vec<String> = net
        .listen_addrs()
        .await
        .unwrap_or_default()
        .iter()
        .map(ToString::to_string)
        .collect();
    let own_instance = crate::instance::Own::start(&home_dir, me, started_ms, own_addrs)
        .map_err(NodeError::Instance)?;
    let mut svc = Service {
        identity: identity::Identity::new(
            home_dir.clone(),
            key,
            config.mailbox,
            mailbox_addrs.iter().filter_map(peer_of_addr).collect(),
        ),
        store,
        net: net.clone(),
        games: game_table::GameTable::new(HashMap::new(), held.clone()),
        commits: group_commit::GroupCommit::new(flush_done),
        run: run_state::RunState::new(started_ms),
        hot: hot::HotGames::new(hot::HOT_GAMES),
        watchers: watchers::Watchers::new(watch.clone()),
        internal_tx,
        outbox: outbox::Outbox::default(),
        skews: skew::ClockSkews::default(),
        restoring: restore::Restoring::new(restoring),
        limits: limits::Limits::new(
            config
                .stranger_events_per_hour
                .unwrap_or(quota::MAX_STRANGER_EVENTS_PER_HOUR),
            config
                .sync_bytes_per_minute
                .unwrap_or(access::SYNC_BYTES_PER_MINUTE),
        ),
        leagues_state: league_state::LeagueState::default(),
        syncs: sync::Syncs::default(),
        preverified: ingest::Preverified::default(),
        coins: coin_state::CoinState::new(config.manual_coin_default),
        profiles: profile_out::Outgoing::default(),
        instances: instances::Instances::new(own_instance),
        reminding: reminder_state::ReminderState::new(&config.reminders, &home_dir),
        board: crate::board::Launcher::new(
            ctrl_tx.clone(),
            watch.clone(),
            home_dir.clone(),
            config.board_port.unwrap_or(0),
        ),
    };
    svc.load()?;
    if let Err(e) = svc.load_own_profile() {
        warn!("the player's profile is not sent to anyone: {e}");
    }
    let _ = net.reserve(svc.identity.mailboxes().to_vec()).await;
    let blocked = svc.load_blocked();
    svc.limits.load_blocked(blocked);
    svc.apply_blocks().await;
    let mut known = None;
    for g in svc.games.keys().copied().collect::<Vec<_>>() {
        svc.reserve_players_of(&g, &mut known);
    }
    // Redial the peers remembered (opponents, mailboxes, contacts, `peers connect`): after
    // a restart on a new port, they can only deliver once we reconnect (see `remember`).
    svc.import_queued();
    svc.redial_remembered().await;
    let _ = net.subscribe(protocol::inbox_topic(&me)).await;
    for addr in &mailbox_addrs {
        if let Err(e) = net.dial(addr.clone()).await {
            warn!(%addr, "cannot reach mailbox: {e}");
        }
    }
    // Before anything is signed (the network's events wait, unread, until the loop below):
    // is another node running with this key? Its bootstrap peers and mailboxes would know.
    let mut asked: Vec<PeerId> = net_config_peers(&config, &mailbox_addrs);
    svc.instances.send_heartbeats_to(asked.clone());
    for (p, _) in net.connected_peers().await.unwrap_or_default() {
        if !asked.contains(&p) {
            asked.push(p);
        }
    }
    match instance::check_at_start(&net, svc.identity.key(), svc.instances.own(), asked).await {
        Ok(answered) => svc.instances.told_at_start(answered),
        Err(other) => {
            net.shutdown().await;
            return Err(NodeError::OtherInstance(other));
        }
    }

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
    if config.board {
        // As Jupyter does: the URL with its one-time token is for the player at the
        // terminal (or in the log) to open.
        match svc.board.open().await {
            Ok(url) => eprintln!("board: {url}"),
            Err(e) => warn!("the board cannot be served: {e}"),
        }
    }

    let mut retry = tokio::time::interval(Duration::from_millis(1500));
    retry.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            biased;
            () = &mut shutdown => break,
            Some(req) = ctrl_rx.recv() => {
                // The typed reply becomes the response line's JSON here, in one place.
                let result = svc.handle_api(req.request).await.and_then(|r| {
                    r.to_value().map_err(internal)
                });
                let _ = req.reply.send(result);
            }
            Some(batch) = net_batches.recv() => {
                // Group commit: handle the batches already checked too, then flush once for
                // all.
                let mut batch = batch;
                let mut handled = 0;
                loop {
                    handled += batch.events.len();
                    svc.handle_batch(batch).await;
                    if handled >= MAX_BATCH {
                        break;
                    }
                    let Ok(next) = net_batches.try_recv() else { break };
                    batch = next;
                }
                svc.commit().await;
            }
            Some(failed) = flush_done_rx.recv() => {
                // The flush in progress ended: the next covers what was stored meanwhile.
                svc.commits.flush_ended(failed);
                svc.commit().await;
            }
            Some(i) = internal_rx.recv() => {
                svc.handle_internal(i).await;
                svc.commit().await;
            }
            _ = retry.tick() => {
                svc.commits.summaries_due();
                svc.retry_outbox().await;
                svc.league_tick().await;
                svc.resumption_tick().await;
                svc.coin_tick().await;
                svc.profile_tick();
                svc.instance_tick().await;
                svc.reminder_tick().await;
                svc.commit().await;
            }
            else => break,
        }
        if svc.run.stopping() || svc.commits.has_failed() {
            break;
        }
    }
    if let Some(e) = svc.commits.take_failure() {
        // No further flush: the answers already given must stay true. The network and the
        // control socket close with the process.
        tracing::error!("storage failure, the node stops: {e}");
        svc.board.stop().await;
        let _ = ctrl_stop_tx.send(());
        let _ = control.await;
        net.shutdown().await;
        return Err(NodeError::StorageFailed(e));
    }
    info!("node stopping");
    svc.board.stop().await;
    svc.commit_all().await;
    let _ = svc.store.flush().await;
    let yielded = svc.instances.take_yielded();
    if yielded.is_none() {
        svc.instance_ended().await;
    }
    let _ = ctrl_stop_tx.send(());
    let _ = control.await;
    net.shutdown().await;
    match yielded {
        Some(other) => Err(NodeError::OtherInstance(other)),
        None => Ok(()),
    }
}

fn user(msg: impl Into<String>) -> ApiError {
    ApiError::user(msg)
}

/// `text` is not a player id: the core's words, with the code a client words them by.
fn bad_player_id(text: &str, e: &sobre_core::record::PlayerIdError) -> ApiError {
    user(e.to_string()).coded(Some(RefusalCode::BadPlayerId {
        text: text.to_owned(),
    }))
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

impl Service {
    /// Reads every stored game's summary, verifying the games that have none for their
    /// stored events; a game that no longer verifies is reported and never served.
    fn load(&mut self) -> Result<(), NodeError> {
        let loaded = reads::load_summaries(&self.store)?;
        self.games.load(loaded.games);
        integrity::refuse_damaged(self.identity.home(), &self.store, &loaded.damaged)?;
        self.run.loaded(loaded.verified_in_full);
        // Their summaries are stored by the first retry tick's commit, not here: a start
        // writes nothing to the database, so a node killed while starting (the crash loop
        // does it) leaves it exactly as it found it.
        self.commits.loaded(self.games.cursor(), loaded.verified);
        info!(
            games = self.games.len(),
            verified = loaded.verified_in_full,
            "games loaded"
        );
        Ok(())
    }

    /// Makes `game` a hot game: read from the store and verified (as [`Service::load`]
    /// does) unless it is in memory already.
    fn ensure_hot(&mut self, game: &GameId) -> Result<(), Unavailable> {
        if self.hot.touch(game) {
            return Ok(());
        }
        if !self.games.contains_key(game) {
            return Err(Unavailable::UnknownGame);
        }
        let (events, state, checkpoint) = reads::load_game(&self.store, game)?;
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
            .filter(|v| v.event.author == self.identity.me())
            .map(|v| (v.event.seq, v.id))
            .collect();
        mine.sort();
        let is_player =
            state.challenger == self.identity.me() || state.opponent == self.identity.me();
        if mine.is_empty() && !is_player && !self.identity.is_mailbox() {
            return None;
        }
        let next = mine.last().map_or(0, |(s, _)| s + 1);
        let last = mine.last().map(|(_, id)| *id);
        let seen = last_other_event(state, &self.identity.me(), events);
        Some(Scoresheet::resume(
            self.identity.key().clone(),
            *game,
            next,
            last,
            seen,
        ))
    }

    /// A hot game (see [`Service::resolve_game`], [`Service::ensure_hot`]).
    fn cache(&self, game: &GameId) -> Result<&GameCache, ApiError> {
        self.hot
            .peek(game)
            .ok_or_else(|| ApiError::refused(RefusalCode::GameNotKept))
    }
}

/// The node answers reads with the same code as a read made while it is stopped.
impl ReadSide for Service {
    fn player(&self) -> &PlayerId {
        self.identity.player()
    }
    fn home_dir(&self) -> &Path {
        self.identity.home()
    }
    fn db(&self) -> &Store {
        &self.store
    }
    fn summaries(&self) -> &HashMap<GameId, Summary> {
        &self.games
    }
    fn is_mailbox(&self) -> bool {
        self.identity.is_mailbox()
    }
    fn own_profile(&self) -> Option<&sobre_core::record::Profile> {
        self.own_profile_signed()
    }
    fn make_hot(&mut self, game: &GameId) -> Result<(), Unavailable> {
        self.ensure_hot(game)
    }
    fn in_memory(&self, game: &GameId) -> Option<(&[VerifiedEvent], &GameState)> {
        self.hot.peek(game).map(|c| (c.events.as_slice(), &c.state))
    }
    fn league_not_received(&self, league: &sobre_core::league::League) -> Option<usize> {
        self.league_missing(league)
    }
}

/// A verification failure of the player's own action, as a refusal: the rule's words, and
/// its code when it is one a player commonly meets ([`RefusalCode::of_rule`]).
fn rule_refusal(e: &VerifyError) -> ApiError {
    match e {
        VerifyError::Rule { rule, .. } => user(rule.to_string()).coded(RefusalCode::of_rule(rule)),
        other => user(other.to_string()),
    }
}
