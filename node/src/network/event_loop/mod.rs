//! The event loop: the one task that owns the libp2p swarm. This file holds its state, the
//! `select!` that drives it, startup (listeners, bootstrap, relay reservations) and the
//! once-a-second maintenance; the handlers are split by concern into the files below, each
//! an `impl EventLoop` block.

mod commands;
mod dht;
mod peers;
mod requests;
mod swarm_events;

pub(super) use dht::ContactState;

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use futures::StreamExt;
use futures::future::BoxFuture;
use futures::stream::FuturesUnordered;
use libp2p::core::ConnectedPoint;
use libp2p::core::transport::ListenerId;
use libp2p::kad::QueryId;
use libp2p::multiaddr::Protocol;
use libp2p::request_response::{OutboundRequestId, ResponseChannel};
use libp2p::swarm::dial_opts::{DialOpts, PeerCondition};
use libp2p::swarm::{ConnectionId, DialError};
use libp2p::{Multiaddr, PeerId, Swarm};
use sobre_core::record::GameId;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tracing::{debug, warn};

use crate::network::behaviour::Behaviour;
use crate::network::codec::Exchange;
use crate::network::config::LISTEN_STARTUP_TIMEOUT;
use crate::network::contact::Contact;
use crate::network::handle::Command;
use crate::network::limits::{RateLimiter, Strikes};
use crate::network::relay::{RelayState, last_peer, relay_backoff, without_peer};
use crate::network::{NetworkError, NetworkEvent, pipe};
use crate::protocol::{Request, Response};

/// Who waits for a lookup of a peer in the DHT: a `find_peer`, a request to it, or a
/// `contact` (its record alone).
pub(super) enum Waiter {
    Find(oneshot::Sender<Vec<Multiaddr>>),
    Contact(oneshot::Sender<Option<Contact>>),
    Request {
        request: Request,
        reply: oneshot::Sender<Result<Response, NetworkError>>,
    },
}

/// A lookup in flight (see `dht`): its queries still running and what they found so far.
pub(super) struct Lookup {
    target: PeerId,
    waiter: Waiter,
    running: u8,
    contact: Option<Contact>,
    closest: Vec<Multiaddr>,
}

/// An outbound request-response request waiting for its answer. `retry` holds the request
/// when it had to dial: if the dial fails (stale addresses), the peer is looked up in the
/// DHT and the request sent once more.
pub(super) struct PendingRequest {
    pub(super) reply: oneshot::Sender<Result<Response, NetworkError>>,
    pub(super) retry: Option<Request>,
}

/// Where a dial reports the peer it reached.
pub(super) type DialReply = oneshot::Sender<Result<PeerId, NetworkError>>;

/// The service's answer to an inbound request-response request, ready to be sent.
pub(super) struct PendingReply {
    exchange: Exchange,
    peer: PeerId,
    channel: ResponseChannel<Response>,
    response: Response,
}

/// The one task that owns the swarm: commands, swarm events, served delivery streams and
/// the answers to inbound requests meet in one `select!` (see [`EventLoop::run`]).
/// Its fields are `pub(super)` only so that [`spawn`](super::spawn) can assemble it.
pub(super) struct EventLoop {
    pub(super) swarm: Swarm<Behaviour>,
    /// The player's key, which signs our contact record.
    pub(super) keypair: libp2p::identity::Keypair,
    /// We serve the DHT whatever our reachability (see `dht::update_dht_mode`).
    pub(super) dht_server: bool,
    /// Loopback and private addresses are dialable here (see `scope`).
    pub(super) private_addresses: bool,
    pub(super) contact: ContactState,
    pub(super) commands: mpsc::Receiver<Command>,
    pub(super) events: mpsc::Sender<NetworkEvent>,
    /// Bytes of requests and gossip queued for the service (see [`super::queue`]).
    pub(super) queued_bytes: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    pub(super) shutdown: watch::Receiver<bool>,
    pub(super) request_timeout: Duration,
    pub(super) max_strikes: u32,
    pub(super) relay_server: bool,
    pub(super) rate: RateLimiter,
    /// Games each connected peer may sync once outside the rate limit.
    pub(super) sync_grants: HashMap<PeerId, HashSet<GameId>>,
    pub(super) strikes: Strikes,
    pub(super) connections: HashMap<PeerId, Vec<(ConnectionId, ConnectedPoint)>>,
    pub(super) known_addrs: HashMap<PeerId, Vec<Multiaddr>>,
    pub(super) pending_dials: HashMap<ConnectionId, DialReply>,
    pub(super) pending_requests: HashMap<(Exchange, OutboundRequestId), PendingRequest>,
    /// Lookups in flight, by the id of their record query, and the lookup of each query.
    pub(super) lookups: HashMap<QueryId, Lookup>,
    pub(super) lookup_queries: HashMap<QueryId, QueryId>,
    /// Circuit dials waiting for the connection to their relay.
    pub(super) dials_via_relay: HashMap<PeerId, Vec<(Multiaddr, DialReply)>>,
    /// The dials this loop started and not yet ended: to whom, at which addresses (without
    /// their `/p2p` part), so that a second dial of the same peer at one of them waits for
    /// the first instead of opening a second connection (see `commands::dial`).
    pub(super) own_dials: HashMap<ConnectionId, (PeerId, Vec<Multiaddr>)>,
    /// Dials waiting for one of [`EventLoop::own_dials`], by its connection: answered with
    /// its outcome.
    pub(super) dials_joined: HashMap<ConnectionId, Vec<DialReply>>,
    /// Inbound requests waiting for the service's answer: polled here, never awaited inline.
    pub(super) pending_replies: FuturesUnordered<BoxFuture<'static, PendingReply>>,
    /// Opens outgoing delivery streams (see [`pipe`]).
    pub(super) streams: libp2p_stream::Control,
    pub(super) incoming_streams: libp2p_stream::IncomingStreams,
    /// Requests read off served delivery streams, and their ends.
    pub(super) stream_msgs: mpsc::Receiver<pipe::StreamMsg>,
    pub(super) stream_msg_tx: mpsc::Sender<pipe::StreamMsg>,
    /// Delivery streams each peer holds open to us.
    pub(super) served_streams: HashMap<PeerId, usize>,
    /// Connected peers that announced (identify) the delivery-stream protocol.
    pub(super) stream_peers: HashSet<PeerId>,
    /// Our delivery stream to each such peer: its queue.
    pub(super) pipes: HashMap<PeerId, mpsc::Sender<pipe::Outgoing>>,
    pub(super) relays: Vec<RelayState>,
    /// Listeners of `config.listen` that have not reported an address yet (startup only).
    pub(super) waiting_listeners: HashSet<ListenerId>,
    /// Events for the service that found its queue full (see [`EventLoop::emit`]), sent in
    /// order as it drains.
    pub(super) backlog: std::collections::VecDeque<NetworkEvent>,
    /// When each connected peer last did something of interest (see `activity`).
    pub(super) activity: crate::network::activity::Activity,
    /// See [`crate::network::NetworkConfig::idle_timeout`].
    pub(super) idle_timeout: Duration,
    /// See [`crate::network::NetworkConfig::max_peers`].
    pub(super) max_peers: usize,
    /// The peers of `config.bootstrap` (the player's mailboxes among them): kept.
    pub(super) bootstrap_peers: HashSet<PeerId>,
    /// As a relay: peers holding a reservation on us (reachable only through us): kept.
    pub(super) relay_clients: HashSet<PeerId>,
    /// As a relay: circuits through us per peer, either end: kept while any is open.
    pub(super) circuits: HashMap<PeerId, u32>,
    /// Peers whose requests are limited as reserved peers' are, without reserved room
    /// (see [`crate::network::NetworkHandle::raise_rate_limit`]).
    pub(super) rate_raised: HashSet<PeerId>,
    /// What this node sends and receives (see `traffic`).
    pub(super) traffic: std::sync::Arc<super::traffic::Traffic>,
}

/// The most events [`EventLoop::emit`] holds back for a lagging service: connections and
/// disconnections are bounded by the connection limits (a few per peer), so this is only
/// reached by a service that stopped reading; past it the oldest addresses go first.
const MAX_BACKLOG: usize = 65_536;

impl EventLoop {
    pub(super) async fn run(mut self) {
        let mut maintenance = tokio::time::interval(Duration::from_secs(1));
        maintenance.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // Its own handle on the service's queue: waiting for room must not borrow `self`.
        let events = self.events.clone();
        loop {
            tokio::select! {
                biased;
                // Err: every handle is gone, nobody can command or stop us any more.
                changed = self.shutdown.changed() => {
                    if changed.is_err() || *self.shutdown.borrow() {
                        break;
                    }
                }
                command = self.commands.recv() => match command {
                    Some(command) => self.on_command(command),
                    None => break,
                },
                Some(reply) = self.pending_replies.next(), if !self.pending_replies.is_empty() => {
                    self.on_reply(reply);
                }
                // Ahead of the streams' requests: taking a stream is cheap, and streams left
                // waiting fill libp2p-stream's bounded channel, past which it drops new ones
                // (see vendor/libp2p-stream/SOBRE-PATCH.md).
                Some((peer, stream)) = self.incoming_streams.next() => {
                    self.on_inbound_stream(peer, stream);
                }
                Some(msg) = self.stream_msgs.recv() => self.on_stream_msg(msg),
                permit = events.reserve(), if !self.backlog.is_empty() => {
                    if let (Ok(permit), Some(event)) = (permit, self.backlog.pop_front()) {
                        permit.send(event);
                    }
                }
                event = self.swarm.select_next_some() => self.on_swarm_event(event),
                _ = maintenance.tick() => self.maintain(),
            }
        }
        // Dropping the swarm closes every connection; dropping the pending senders tells
        // their callers `Shutdown`.
    }

    pub(super) async fn wait_for_listeners(&mut self) {
        let deadline = Instant::now() + LISTEN_STARTUP_TIMEOUT;
        while !self.waiting_listeners.is_empty() {
            match tokio::time::timeout_at(deadline, self.swarm.select_next_some()).await {
                Ok(event) => self.on_swarm_event(event),
                Err(_) => {
                    warn!("some listeners have not reported an address yet");
                    break;
                }
            }
        }
    }

    pub(super) fn dial_bootstrap(&mut self, bootstrap: &[Multiaddr]) {
        let mut any_kad_peer = false;
        for addr in bootstrap {
            let peer = last_peer(addr);
            let opts = match peer {
                Some(peer) => {
                    let bare = without_peer(addr);
                    self.swarm
                        .behaviour_mut()
                        .kad
                        .add_address(&peer, bare.clone());
                    self.remember(peer, bare);
                    any_kad_peer = true;
                    // One connection per bootstrap peer, however often it is listed.
                    DialOpts::peer_id(peer)
                        .addresses(vec![addr.clone()])
                        .condition(PeerCondition::DisconnectedAndNotDialing)
                        .build()
                }
                None => DialOpts::unknown_peer_id().address(addr.clone()).build(),
            };
            let connection = opts.connection_id();
            match self.swarm.dial(opts) {
                Ok(()) => {
                    if let Some(peer) = peer {
                        self.own_dials
                            .insert(connection, (peer, vec![without_peer(addr)]));
                    }
                }
                Err(DialError::DialPeerConditionFalse(_)) => {}
                Err(e) => warn!(%addr, error = %e, "cannot dial bootstrap peer"),
            }
        }
        if any_kad_peer && let Err(e) = self.swarm.behaviour_mut().kad.bootstrap() {
            debug!(error = %e, "kademlia bootstrap not started");
        }
    }

    pub(super) fn reserve_relays(&mut self) {
        let now = Instant::now();
        for i in 0..self.relays.len() {
            self.reserve_relay(i, now);
        }
    }

    fn reserve_relay(&mut self, i: usize, now: Instant) {
        let Some(relay) = self.relays.get(i) else {
            return;
        };
        let (addr, peer) = (relay.addr.clone(), relay.peer);
        self.remember(peer, without_peer(&addr));
        let result = self
            .swarm
            .listen_on(addr.clone().with(Protocol::P2pCircuit));
        let Some(relay) = self.relays.get_mut(i) else {
            return;
        };
        relay.retry_at = None;
        match result {
            Ok(id) => {
                debug!(relay = %peer, "requesting a relay reservation");
                relay.listener = Some(id);
            }
            Err(e) => {
                warn!(relay = %peer, error = %e, "cannot listen through relay");
                relay.failures += 1;
                relay.retry_at = Some(now + relay_backoff(relay.failures));
            }
        }
    }

    fn maintain(&mut self) {
        let now = Instant::now();
        self.rate.prune(now);
        let due: Vec<usize> = (0..self.relays.len())
            .filter(|i| {
                self.relays
                    .get(*i)
                    .and_then(|r| r.retry_at)
                    .is_some_and(|at| at <= now)
            })
            .collect();
        for i in due {
            self.reserve_relay(i, now);
        }
        if self.contact.is_due(now) {
            self.publish_contact();
        }
        self.close_idle(now);
    }

    /// Whether the connections to `peer` stay open whatever its activity: a bootstrap peer
    /// or mailbox (our way into the network and where our games wait), a relay holding our
    /// circuit (closing it would make us unreachable behind NAT), a peer holding a
    /// reservation or a circuit on our relay (the same, for them), a reserved peer (an
    /// opponent, a witness, a mailbox: the service names them, see `ip_limits`).
    fn kept(&self, peer: &PeerId) -> bool {
        self.bootstrap_peers.contains(peer)
            || self.relays.iter().any(|r| r.reserved && r.peer == *peer)
            || self.relay_clients.contains(peer)
            || self.circuits.contains_key(peer)
            || self.swarm.behaviour().ip_limits.is_reserved(peer)
    }

    /// Notes activity of `peer`, if connected (see `activity`): a request to a peer not
    /// yet connected is noted when its connection is established.
    pub(super) fn note_activity(&mut self, peer: PeerId) {
        if self.connections.contains_key(&peer) {
            self.activity.touch(peer, Instant::now());
        }
    }

    /// Closes the connections of peers idle for [`EventLoop::idle_timeout`] that are not
    /// [kept](EventLoop::kept).
    fn close_idle(&mut self, now: Instant) {
        for peer in self.activity.idle(now, self.idle_timeout, |p| self.kept(p)) {
            debug!(%peer, "closing an idle connection");
            self.activity.forget(&peer);
            let _ = self.swarm.disconnect_peer_id(peer);
        }
    }

    /// Above [`EventLoop::max_peers`] connected peers (a new one just connected), disconnects
    /// the least recently active peer that is not [kept](EventLoop::kept). The newcomer is
    /// the most recent, so it goes only when every other peer is kept.
    pub(super) fn evict_above_cap(&mut self) {
        if self.connections.len() <= self.max_peers {
            return;
        }
        if let Some(peer) = self.activity.least_recent(|p| self.kept(p)) {
            debug!(%peer, "connection cap reached: disconnecting the least recently used peer");
            self.activity.forget(&peer);
            let _ = self.swarm.disconnect_peer_id(peer);
        }
    }

    /// Events other than inbound requests and gossip (connections, disconnections,
    /// addresses): never dropped and never blocking the swarm. When the service lags they
    /// wait in [`EventLoop::backlog`], in order, and go as its queue drains: a peer whose
    /// connection event was dropped in a reconnect storm would never get its catch-up.
    fn emit(&mut self, event: NetworkEvent) {
        if !self.backlog.is_empty() {
            self.hold_back(event);
            return;
        }
        match self.events.try_send(event) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(event)) => self.hold_back(event),
            Err(mpsc::error::TrySendError::Closed(_)) => {}
        }
    }

    fn hold_back(&mut self, event: NetworkEvent) {
        if self.backlog.len() >= MAX_BACKLOG {
            // Only a stalled service gets here: keep connections, shed address updates.
            if let Some(i) = self
                .backlog
                .iter()
                .position(|e| matches!(e, NetworkEvent::PeerAddresses { .. }))
            {
                self.backlog.remove(i);
            } else {
                warn!(?event, "event backlog full: dropping event");
                return;
            }
        }
        self.backlog.push_back(event);
    }
}
