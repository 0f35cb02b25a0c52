//! The network actor: one tokio task owns the libp2p [`Swarm`]; everyone else talks to it
//! through a cheap, cloneable [`NetworkHandle`] (a bounded channel of commands, each answered
//! on its own oneshot) and listens to [`NetworkEvent`]s on a bounded channel.
//!
//! ```text
//!  service ──NetworkHandle──► Command ──► ┌────────────────────┐ ──► NetworkEvent ──► service
//!                                         │ EventLoop (1 task)  │
//!  reply ◄──────── oneshot ◄───────────── │   owns the Swarm    │ ◄── oneshot Response (inbound)
//!                                         └────────────────────┘
//! ```
//!
//! Behaviours: identify, ping, Kademlia (`/sobre/kad/1`, server mode), gossipsub (strict
//! signing, application-level validation, message id = the signed event's id),
//! request-response for `/sobre/deliver/1` and `/sobre/sync/1`, delivery streams
//! (`/sobre/deliver-stream/1`, see [`pipe`]), mDNS (optional), relay server (optional), relay
//! client, DCUtR, AutoNAT (v1), connection limits and a block list.
//!
//! Hostile peers: frames are length-prefixed and capped before anything is allocated; inbound
//! requests are rate limited per peer; malformed frames, floods and invalid gossip cost the
//! sender a *strike* ([`NetworkHandle::penalize`]); after [`NetworkConfig::max_strikes`] the
//! peer is disconnected and blocked for the life of the process.

use std::collections::{HashMap, HashSet};
use std::io;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use futures::stream::FuturesUnordered;
use futures::{FutureExt, StreamExt};
use libp2p::core::ConnectedPoint;
use libp2p::core::transport::ListenerId;
use libp2p::gossipsub::{self, MessageAcceptance};
use libp2p::kad::{self, QueryId, QueryResult};
use libp2p::multiaddr::Protocol;
use libp2p::request_response::{self, OutboundRequestId, ResponseChannel};
use libp2p::swarm::dial_opts::{DialOpts, PeerCondition};
use libp2p::swarm::{ConnectionId, DialError, SwarmEvent};
use libp2p::{Multiaddr, PeerId, Swarm, autonat, identify, mdns, relay};
use rand::Rng;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tracing::{debug, info, warn};

use crate::protocol::{DELIVER_STREAM_PROTOCOL, MAX_PIPELINED, Request, Response};

mod behaviour;
mod codec;
mod config;
mod handle;
mod limits;
pub mod pipe;

pub use behaviour::{AGENT_VERSION, IDENTIFY_PROTOCOL, KAD_PROTOCOL, gossip_message_id};
use behaviour::{Behaviour, BehaviourEvent, build_swarm, topic_score_params};
use codec::{Exchange, WireRequest};
pub use config::NetworkConfig;
use config::{
    COMMAND_CAPACITY, EVENT_CAPACITY, LISTEN_STARTUP_TIMEOUT, MAX_ADDRS_PER_PEER,
    MAX_REMEMBERED_PEERS, MAX_STREAMS_PER_PEER, MAX_SYNC_GRANTS_PER_PEER, STREAM_IDLE,
    STREAM_MSG_CAPACITY,
};
use handle::Command;
pub use handle::{NetworkError, NetworkEvent, NetworkHandle};
use limits::{RateDecision, RateLimiter, Strikes};
use sobre_core::record::GameId;

/// Starts the network: builds the swarm, listens on `config.listen` (waiting briefly for the
/// listeners to report their addresses), dials the bootstrap peers, reserves circuits on the
/// relays, and spawns the one task that owns the swarm.
///
/// The task stops on [`NetworkHandle::shutdown`] or when every handle is dropped; the event
/// receiver then yields `None`.
///
/// # Errors
/// [`NetworkError::Transport`] if the transport, a behaviour or a listener cannot be set up,
/// or a relay address lacks its `/p2p/<id>`.
pub async fn spawn(
    config: NetworkConfig,
) -> Result<(NetworkHandle, mpsc::Receiver<NetworkEvent>), NetworkError> {
    let mut relays = Vec::new();
    for addr in &config.relays {
        match last_peer(addr) {
            Some(peer) => relays.push(RelayState {
                addr: addr.clone(),
                peer,
                listener: None,
                failures: 0,
                retry_at: None,
            }),
            None => {
                return Err(NetworkError::Transport(format!(
                    "relay address {addr} must end with /p2p/<relay peer id>"
                )));
            }
        }
    }

    let mut swarm = build_swarm(&config)?;
    let local_peer_id = *swarm.local_peer_id();
    let mut streams = swarm.behaviour().stream.new_control();
    let incoming_streams = streams
        .accept(pipe::protocol_id())
        .map_err(|e| NetworkError::Transport(format!("delivery streams: {e}")))?;
    let (stream_msg_tx, stream_msgs) = mpsc::channel(STREAM_MSG_CAPACITY);

    let mut waiting_listeners = HashSet::new();
    for addr in &config.listen {
        let id = swarm
            .listen_on(addr.clone())
            .map_err(|e| NetworkError::Transport(format!("cannot listen on {addr}: {e}")))?;
        waiting_listeners.insert(id);
    }
    for addr in &config.external {
        swarm.add_external_address(addr.clone());
    }

    let (command_tx, command_rx) = mpsc::channel(COMMAND_CAPACITY);
    let (event_tx, event_rx) = mpsc::channel(EVENT_CAPACITY);
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let (done_tx, done_rx) = watch::channel(false);

    let mut event_loop = EventLoop {
        swarm,
        commands: command_rx,
        events: event_tx,
        shutdown: shutdown_rx,
        request_timeout: config.request_timeout,
        max_strikes: config.max_strikes.max(1),
        relay_server: config.relay_server,
        rate: RateLimiter::new(config.max_requests_per_peer_per_minute),
        sync_grants: HashMap::new(),
        strikes: Strikes::default(),
        connections: HashMap::new(),
        known_addrs: HashMap::new(),
        pending_dials: HashMap::new(),
        pending_requests: HashMap::new(),
        pending_lookups: HashMap::new(),
        dials_via_relay: HashMap::new(),
        pending_replies: FuturesUnordered::new(),
        streams,
        incoming_streams,
        stream_msgs,
        stream_msg_tx,
        served_streams: HashMap::new(),
        stream_peers: HashSet::new(),
        pipes: HashMap::new(),
        relays,
        waiting_listeners,
    };

    event_loop.wait_for_listeners().await;
    event_loop.dial_bootstrap(&config.bootstrap);
    event_loop.reserve_relays();

    tokio::spawn(async move {
        event_loop.run().await;
        info!(peer = %local_peer_id, "network task stopped");
        done_tx.send_replace(true);
    });

    let handle = NetworkHandle {
        commands: command_tx,
        local_peer_id,
        request_timeout: config.request_timeout,
        shutdown: Arc::new(shutdown_tx),
        done: done_rx,
    };
    Ok((handle, event_rx))
}

struct RelayState {
    /// `…/p2p/<relay>`.
    addr: Multiaddr,
    peer: PeerId,
    listener: Option<ListenerId>,
    failures: u32,
    retry_at: Option<Instant>,
}

enum Waiter {
    Find(oneshot::Sender<Vec<Multiaddr>>),
    Request {
        request: Request,
        reply: oneshot::Sender<Result<Response, NetworkError>>,
    },
}

struct Lookup {
    target: PeerId,
    waiter: Waiter,
}

type DialReply = oneshot::Sender<Result<PeerId, NetworkError>>;

struct PendingReply {
    exchange: Exchange,
    peer: PeerId,
    channel: ResponseChannel<Response>,
    response: Response,
}

/// Where an inbound request's answer goes: request-response's channel, or the task serving
/// a delivery stream (which waits for the service itself, with the same timeout).
enum Responder {
    Channel(ResponseChannel<Response>),
    Stream(oneshot::Sender<Response>),
}

struct EventLoop {
    swarm: Swarm<Behaviour>,
    commands: mpsc::Receiver<Command>,
    events: mpsc::Sender<NetworkEvent>,
    shutdown: watch::Receiver<bool>,
    request_timeout: Duration,
    max_strikes: u32,
    relay_server: bool,
    rate: RateLimiter,
    /// Games each connected peer may sync once outside the rate limit.
    sync_grants: HashMap<PeerId, HashSet<GameId>>,
    strikes: Strikes,
    connections: HashMap<PeerId, Vec<(ConnectionId, ConnectedPoint)>>,
    known_addrs: HashMap<PeerId, Vec<Multiaddr>>,
    pending_dials: HashMap<ConnectionId, DialReply>,
    pending_requests:
        HashMap<(Exchange, OutboundRequestId), oneshot::Sender<Result<Response, NetworkError>>>,
    pending_lookups: HashMap<QueryId, Lookup>,
    /// Circuit dials waiting for the connection to their relay.
    dials_via_relay: HashMap<PeerId, Vec<(Multiaddr, DialReply)>>,
    /// Inbound requests waiting for the service's answer: polled here, never awaited inline.
    pending_replies: FuturesUnordered<BoxFuture<'static, PendingReply>>,
    /// Opens outgoing delivery streams (see [`pipe`]).
    streams: libp2p_stream::Control,
    incoming_streams: libp2p_stream::IncomingStreams,
    /// Requests read off served delivery streams, and their ends.
    stream_msgs: mpsc::Receiver<pipe::StreamMsg>,
    stream_msg_tx: mpsc::Sender<pipe::StreamMsg>,
    /// Delivery streams each peer holds open to us.
    served_streams: HashMap<PeerId, usize>,
    /// Connected peers that announced (identify) the delivery-stream protocol.
    stream_peers: HashSet<PeerId>,
    /// Our delivery stream to each such peer: its queue.
    pipes: HashMap<PeerId, mpsc::Sender<pipe::Outgoing>>,
    relays: Vec<RelayState>,
    /// Listeners of `config.listen` that have not reported an address yet (startup only).
    waiting_listeners: HashSet<ListenerId>,
}

impl EventLoop {
    async fn run(mut self) {
        let mut maintenance = tokio::time::interval(Duration::from_secs(1));
        maintenance.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
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
                Some(msg) = self.stream_msgs.recv() => self.on_stream_msg(msg),
                Some((peer, stream)) = self.incoming_streams.next() => {
                    self.on_inbound_stream(peer, stream);
                }
                event = self.swarm.select_next_some() => self.on_swarm_event(event),
                _ = maintenance.tick() => self.maintain(),
            }
        }
        // Dropping the swarm closes every connection; dropping the pending senders tells
        // their callers `Shutdown`.
    }

    async fn wait_for_listeners(&mut self) {
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

    fn dial_bootstrap(&mut self, bootstrap: &[Multiaddr]) {
        let mut any_kad_peer = false;
        for addr in bootstrap {
            if let Some(peer) = last_peer(addr) {
                let bare = without_peer(addr);
                self.swarm
                    .behaviour_mut()
                    .kad
                    .add_address(&peer, bare.clone());
                self.remember(peer, bare);
                any_kad_peer = true;
            }
            if let Err(e) = self.swarm.dial(addr.clone()) {
                warn!(%addr, error = %e, "cannot dial bootstrap peer");
            }
        }
        if any_kad_peer && let Err(e) = self.swarm.behaviour_mut().kad.bootstrap() {
            debug!(error = %e, "kademlia bootstrap not started");
        }
    }

    fn reserve_relays(&mut self) {
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
    }

    fn on_command(&mut self, command: Command) {
        match command {
            Command::ListenAddrs { reply } => {
                let _ = reply.send(self.listen_addrs());
            }
            Command::Dial { addr, reply } => self.dial(addr, reply),
            Command::AddAddress { peer, addr, reply } => {
                let bare = without_peer(&addr);
                self.swarm
                    .behaviour_mut()
                    .kad
                    .add_address(&peer, bare.clone());
                self.remember(peer, bare);
                let _ = reply.send(());
            }
            Command::ConnectedPeers { reply } => {
                let peers = self
                    .connections
                    .iter()
                    .map(|(peer, conns)| {
                        let addrs = conns
                            .iter()
                            .map(|(_, point)| point.get_remote_address().clone())
                            .collect();
                        (*peer, addrs)
                    })
                    .collect();
                let _ = reply.send(peers);
            }
            Command::Subscribe { topic, reply } => {
                let topic = gossipsub::IdentTopic::new(topic);
                let gossipsub = &mut self.swarm.behaviour_mut().gossipsub;
                let result = gossipsub
                    .subscribe(&topic)
                    .map(|_| ())
                    .map_err(|e| NetworkError::Publish(format!("cannot subscribe: {e:?}")));
                if result.is_ok()
                    && let Err(e) = gossipsub.set_topic_params(topic, topic_score_params())
                {
                    warn!(error = e, "cannot set topic score parameters");
                }
                let _ = reply.send(result);
            }
            Command::Unsubscribe { topic, reply } => {
                let topic = gossipsub::IdentTopic::new(topic);
                let _ = reply.send(self.swarm.behaviour_mut().gossipsub.unsubscribe(&topic));
            }
            Command::Publish { topic, data, reply } => {
                let ident = gossipsub::IdentTopic::new(topic.clone());
                let result = match self.swarm.behaviour_mut().gossipsub.publish(ident, data) {
                    Ok(_) => Ok(()),
                    Err(gossipsub::PublishError::NoPeersSubscribedToTopic) => {
                        Err(NetworkError::NoPeers(topic))
                    }
                    Err(gossipsub::PublishError::Duplicate) => Err(NetworkError::Duplicate),
                    Err(e) => Err(NetworkError::Publish(e.to_string())),
                };
                let _ = reply.send(result);
            }
            Command::Request {
                peer,
                request,
                reply,
            } => self.request(peer, request, reply),
            Command::FindPeer { peer, reply } => {
                let addrs = self.known_addresses(&peer);
                if addrs.is_empty() && !self.swarm.is_connected(&peer) {
                    let query = self.swarm.behaviour_mut().kad.get_closest_peers(peer);
                    self.pending_lookups.insert(
                        query,
                        Lookup {
                            target: peer,
                            waiter: Waiter::Find(reply),
                        },
                    );
                } else {
                    let _ = reply.send(addrs);
                }
            }
            Command::ReportValidation {
                message_id,
                source,
                acceptance,
                reply,
            } => {
                let found = self
                    .swarm
                    .behaviour_mut()
                    .gossipsub
                    .report_message_validation_result(&message_id, &source, acceptance);
                let _ = reply.send(found);
            }
            Command::AllowSyncs { peer, games, reply } => {
                // Only the service grants, for peers it talks to; they end at disconnection.
                let grants = self.sync_grants.entry(peer).or_default();
                let room = MAX_SYNC_GRANTS_PER_PEER.saturating_sub(grants.len());
                grants.extend(games.into_iter().take(room));
                let _ = reply.send(());
            }
            Command::Penalize {
                peer,
                reason,
                reply,
            } => {
                self.strike(peer, &reason);
                let _ = reply.send(());
            }
        }
    }

    fn listen_addrs(&self) -> Vec<Multiaddr> {
        let me = *self.swarm.local_peer_id();
        let mut out: Vec<Multiaddr> = Vec::new();
        for addr in self
            .swarm
            .listeners()
            .chain(self.swarm.external_addresses())
        {
            let addr = with_peer(addr.clone(), me);
            if !out.contains(&addr) {
                out.push(addr);
            }
        }
        out
    }

    fn is_blocked(&self, peer: &PeerId) -> bool {
        self.swarm
            .behaviour()
            .blocked
            .blocked_peers()
            .contains(peer)
    }

    fn dial(&mut self, addr: Multiaddr, reply: DialReply) {
        let target = last_peer(&addr);
        let opts = match target {
            Some(peer) if peer == *self.swarm.local_peer_id() => {
                let _ = reply.send(Err(NetworkError::Dial("cannot dial ourselves".into())));
                return;
            }
            Some(peer) if self.is_blocked(&peer) => {
                let _ = reply.send(Err(NetworkError::Dial(format!("{peer} is blocked"))));
                return;
            }
            Some(peer) if self.swarm.is_connected(&peer) => {
                let _ = reply.send(Ok(peer));
                return;
            }
            Some(peer) => DialOpts::peer_id(peer)
                .addresses(vec![addr.clone()])
                .condition(PeerCondition::Disconnected)
                .build(),
            None => DialOpts::unknown_peer_id().address(addr.clone()).build(),
        };
        if let Some((relay, relay_addr)) = relay_of(&addr)
            && !self.swarm.is_connected(&relay)
        {
            // The relay client refuses to open a circuit while the connection to the relay is
            // still being dialed (e.g. for our own reservation): connect to the relay first.
            let relay_opts = DialOpts::peer_id(relay)
                .addresses(vec![relay_addr])
                .condition(PeerCondition::DisconnectedAndNotDialing)
                .build();
            match self.swarm.dial(relay_opts) {
                Ok(()) | Err(DialError::DialPeerConditionFalse(_)) => {
                    debug!(relay = %relay, "connecting to the relay before the circuit");
                    self.dials_via_relay
                        .entry(relay)
                        .or_default()
                        .push((addr, reply));
                }
                Err(e) => {
                    let _ = reply.send(Err(NetworkError::Dial(format!(
                        "cannot reach relay {relay}: {e}"
                    ))));
                }
            }
            return;
        }
        let connection = opts.connection_id();
        match self.swarm.dial(opts) {
            Ok(()) => {
                debug!(%addr, "dialing");
                self.pending_dials.insert(connection, reply);
            }
            Err(e) => {
                let _ = reply.send(Err(NetworkError::Dial(e.to_string())));
            }
        }
    }

    fn request(
        &mut self,
        peer: PeerId,
        request: Request,
        reply: oneshot::Sender<Result<Response, NetworkError>>,
    ) {
        if peer == *self.swarm.local_peer_id() {
            let _ = reply.send(Err(NetworkError::Dial("cannot request ourselves".into())));
            return;
        }
        if self.is_blocked(&peer) {
            let _ = reply.send(Err(NetworkError::Refused(format!("{peer} is blocked"))));
            return;
        }
        if self.swarm.is_connected(&peer) || !self.known_addresses(&peer).is_empty() {
            self.send_request(peer, request, reply);
        } else {
            debug!(peer = %peer, "no known address: looking the peer up in the DHT");
            let query = self.swarm.behaviour_mut().kad.get_closest_peers(peer);
            self.pending_lookups.insert(
                query,
                Lookup {
                    target: peer,
                    waiter: Waiter::Request { request, reply },
                },
            );
        }
    }

    fn send_request(
        &mut self,
        peer: PeerId,
        request: Request,
        reply: oneshot::Sender<Result<Response, NetworkError>>,
    ) {
        let exchange = Exchange::of(&request);
        let (request, reply) = if exchange == Exchange::Deliver && self.stream_peers.contains(&peer)
        {
            match self.pipe_to(peer).try_send((request, reply)) {
                Ok(()) => return,
                // A full pipe (a burst beyond the pipelining depth) or one that just ended:
                // this delivery takes request-response.
                Err(
                    mpsc::error::TrySendError::Full(back) | mpsc::error::TrySendError::Closed(back),
                ) => back,
            }
        } else {
            (request, reply)
        };
        let behaviour = self.swarm.behaviour_mut();
        let rr = match exchange {
            Exchange::Deliver => &mut behaviour.deliver,
            Exchange::Sync => &mut behaviour.sync,
        };
        let id = rr.send_request(&peer, WireRequest::Valid(request));
        self.pending_requests.insert((exchange, id), reply);
    }

    /// The queue of our delivery stream to `peer`, started if there is none (or it ended).
    fn pipe_to(&mut self, peer: PeerId) -> mpsc::Sender<pipe::Outgoing> {
        if let Some(queue) = self.pipes.get(&peer).filter(|q| !q.is_closed()) {
            return queue.clone();
        }
        let (queue, rx) = mpsc::channel(MAX_PIPELINED);
        tokio::spawn(pipe::pipe(
            peer,
            self.streams.clone(),
            rx,
            self.request_timeout,
            STREAM_IDLE,
        ));
        self.pipes.insert(peer, queue.clone());
        queue
    }

    fn on_inbound_stream(&mut self, peer: PeerId, stream: libp2p::Stream) {
        if self.is_blocked(&peer) {
            return;
        }
        let open = self.served_streams.entry(peer).or_default();
        if *open >= MAX_STREAMS_PER_PEER {
            warn!(peer = %peer, "too many delivery streams: refusing another");
            self.strike(peer, "too many delivery streams");
            return;
        }
        *open += 1;
        debug!(peer = %peer, "delivery stream opened");
        tokio::spawn(pipe::serve(
            peer,
            stream,
            self.stream_msg_tx.clone(),
            self.request_timeout,
            STREAM_IDLE,
        ));
    }

    fn on_stream_msg(&mut self, msg: pipe::StreamMsg) {
        match msg {
            pipe::StreamMsg::Request {
                peer,
                request,
                reply,
            } => {
                self.on_inbound_request(Exchange::Deliver, peer, request, Responder::Stream(reply))
            }
            pipe::StreamMsg::Closed { peer } => {
                if let Some(open) = self.served_streams.get_mut(&peer) {
                    *open = open.saturating_sub(1);
                    if *open == 0 {
                        self.served_streams.remove(&peer);
                    }
                }
            }
        }
    }

    /// Addresses we could dial `peer` at: remembered ones, Kademlia's, and those of
    /// connections we dialed.
    fn known_addresses(&mut self, peer: &PeerId) -> Vec<Multiaddr> {
        let mut out: Vec<Multiaddr> = Vec::new();
        let mut push = |a: &Multiaddr| {
            if !out.contains(a) {
                out.push(a.clone());
            }
        };
        if let Some(conns) = self.connections.get(peer) {
            for (_, point) in conns {
                if let ConnectedPoint::Dialer { address, .. } = point {
                    push(address);
                }
            }
        }
        if let Some(addrs) = self.known_addrs.get(peer) {
            addrs.iter().for_each(&mut push);
        }
        if let Some(bucket) = self.swarm.behaviour_mut().kad.kbucket(*peer) {
            for entry in bucket.iter() {
                if entry.node.key.preimage() == peer {
                    entry.node.value.iter().for_each(&mut push);
                }
            }
        }
        out
    }

    /// Remembers an address of a peer, here and in the swarm (where request-response and
    /// the dialer find it).
    fn remember(&mut self, peer: PeerId, addr: Multiaddr) {
        if peer == *self.swarm.local_peer_id() {
            return;
        }
        if !self.known_addrs.contains_key(&peer)
            && self.known_addrs.len() >= MAX_REMEMBERED_PEERS
            && let Some(evict) = self
                .known_addrs
                .keys()
                .find(|p| !self.connections.contains_key(p))
                .copied()
        {
            self.known_addrs.remove(&evict);
        }
        let addrs = self.known_addrs.entry(peer).or_default();
        if !addrs.contains(&addr) {
            if addrs.len() >= MAX_ADDRS_PER_PEER {
                addrs.remove(0);
            }
            addrs.push(addr.clone());
        }
        self.swarm.add_peer_address(peer, addr);
    }

    fn strike(&mut self, peer: PeerId, reason: &str) {
        if self.is_blocked(&peer) {
            return;
        }
        let strikes = self.strikes.add(peer);
        warn!(peer = %peer, strikes, max = self.max_strikes, reason, "strike against peer");
        let gossipsub = &mut self.swarm.behaviour_mut().gossipsub;
        // Scaled by `app_specific_weight` (10): two strikes reach the gossip threshold.
        gossipsub.set_application_score(&peer, -0.5 * f64::from(strikes));
        if strikes >= self.max_strikes {
            warn!(peer = %peer, strikes, "blocking peer for the life of this process");
            gossipsub.blacklist_peer(&peer);
            let behaviour = self.swarm.behaviour_mut();
            behaviour.kad.remove_peer(&peer);
            // Closes every connection to the peer and refuses new ones.
            behaviour.blocked.block_peer(peer);
            self.known_addrs.remove(&peer);
        }
    }

    fn on_reply(&mut self, reply: PendingReply) {
        let PendingReply {
            exchange,
            peer,
            channel,
            response,
        } = reply;
        self.respond(exchange, peer, Responder::Channel(channel), response);
    }

    fn respond(
        &mut self,
        exchange: Exchange,
        peer: PeerId,
        responder: Responder,
        response: Response,
    ) {
        let channel = match responder {
            Responder::Channel(channel) => channel,
            Responder::Stream(reply) => {
                let _ = reply.send(response);
                return;
            }
        };
        let behaviour = self.swarm.behaviour_mut();
        let rr = match exchange {
            Exchange::Deliver => &mut behaviour.deliver,
            Exchange::Sync => &mut behaviour.sync,
        };
        if rr.send_response(channel, response).is_err() {
            debug!(peer = %peer, "response not sent: the request was closed or timed out");
        }
    }

    fn on_inbound_request(
        &mut self,
        exchange: Exchange,
        peer: PeerId,
        request: WireRequest,
        responder: Responder,
    ) {
        let request = match request {
            WireRequest::Valid(request) => request,
            WireRequest::Malformed(reason) => {
                warn!(peer = %peer, protocol = exchange.protocol(), %reason, "malformed request");
                self.strike(peer, &format!("malformed request: {reason}"));
                let response = Response::Refused {
                    reason: "malformed request".into(),
                };
                self.respond(exchange, peer, responder, response);
                return;
            }
        };
        // A granted catch-up sync is served once without counting (see `allow_syncs`).
        let granted = match &request {
            Request::Sync { game, .. } => self
                .sync_grants
                .get_mut(&peer)
                .is_some_and(|g| g.remove(game)),
            _ => false,
        };
        if granted {
            debug!(peer = %peer, "catch-up sync outside the rate limit");
        } else if let RateDecision::Refuse { first } = self.rate.check(peer, Instant::now()) {
            if first {
                warn!(peer = %peer, "inbound request rate limit exceeded");
                // One strike per window: a burst from a peer catching up costs one strike, a
                // peer that floods minute after minute ends up blocked.
                self.strike(peer, "request rate limit exceeded");
            } else {
                debug!(peer = %peer, "inbound request refused: rate limit");
            }
            let response = Response::Refused {
                reason: "rate limit".into(),
            };
            self.respond(exchange, peer, responder, response);
            return;
        }

        // The service answers on `reply`. A stream's task waits for that itself (with the
        // same timeout); request-response's answer is awaited here, never inline.
        let reply = match responder {
            Responder::Stream(reply) => reply,
            Responder::Channel(channel) => {
                let (tx, rx) = oneshot::channel();
                let timeout = self.request_timeout;
                self.pending_replies.push(
                    async move {
                        PendingReply {
                            exchange,
                            peer,
                            channel,
                            response: pipe::answer(rx, timeout).await,
                        }
                    }
                    .boxed(),
                );
                tx
            }
        };
        let event = NetworkEvent::InboundRequest {
            peer,
            request,
            reply,
        };
        let (reason, event) = match self.events.try_send(event) {
            Ok(()) => return,
            Err(mpsc::error::TrySendError::Full(event)) => {
                warn!(peer = %peer, "event queue full: refusing inbound request");
                ("busy", event)
            }
            Err(mpsc::error::TrySendError::Closed(event)) => ("shutting down", event),
        };
        if let NetworkEvent::InboundRequest { reply, .. } = event {
            let _ = reply.send(Response::Refused {
                reason: reason.into(),
            });
        }
    }

    /// Events other than inbound requests and gossip: dropped (with a warning) if the service
    /// lags, never blocking the swarm.
    fn emit(&self, event: NetworkEvent) {
        match self.events.try_send(event) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(event)) => {
                warn!(?event, "event queue full: dropping event");
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {}
        }
    }

    fn on_swarm_event(&mut self, event: SwarmEvent<BehaviourEvent>) {
        match event {
            SwarmEvent::Behaviour(event) => self.on_behaviour_event(event),
            SwarmEvent::ConnectionEstablished {
                peer_id,
                connection_id,
                endpoint,
                num_established,
                ..
            } => {
                let addr = endpoint.get_remote_address().clone();
                debug!(peer = %peer_id, %addr, "connection established");
                self.connections
                    .entry(peer_id)
                    .or_default()
                    .push((connection_id, endpoint));
                if let Some(reply) = self.pending_dials.remove(&connection_id) {
                    let _ = reply.send(Ok(peer_id));
                }
                for (addr, reply) in self.dials_via_relay.remove(&peer_id).unwrap_or_default() {
                    self.dial(addr, reply);
                }
                if num_established.get() == 1 {
                    self.emit(NetworkEvent::PeerConnected {
                        peer: peer_id,
                        addr,
                    });
                }
            }
            SwarmEvent::ConnectionClosed {
                peer_id,
                connection_id,
                num_established,
                cause,
                ..
            } => {
                debug!(peer = %peer_id, cause = ?cause, "connection closed");
                if let Some(conns) = self.connections.get_mut(&peer_id) {
                    conns.retain(|(id, _)| *id != connection_id);
                    if conns.is_empty() {
                        self.connections.remove(&peer_id);
                    }
                }
                if num_established == 0 {
                    self.sync_grants.remove(&peer_id);
                    self.stream_peers.remove(&peer_id);
                    self.pipes.remove(&peer_id);
                    self.emit(NetworkEvent::PeerDisconnected { peer: peer_id });
                }
            }
            SwarmEvent::OutgoingConnectionError {
                connection_id,
                peer_id,
                error,
            } => {
                debug!(peer = ?peer_id, error = %error, "outgoing connection failed");
                if let Some(reply) = self.pending_dials.remove(&connection_id) {
                    let _ = reply.send(Err(NetworkError::Dial(error.to_string())));
                }
                if let Some(relay) = peer_id
                    && !self.swarm.is_connected(&relay)
                {
                    for (_, reply) in self.dials_via_relay.remove(&relay).unwrap_or_default() {
                        let _ = reply.send(Err(NetworkError::Dial(format!(
                            "cannot reach relay {relay}: {error}"
                        ))));
                    }
                }
            }
            SwarmEvent::IncomingConnectionError {
                send_back_addr,
                error,
                ..
            } => {
                debug!(addr = %send_back_addr, error = %error, "incoming connection failed");
            }
            SwarmEvent::NewListenAddr {
                listener_id,
                address,
            } => {
                self.waiting_listeners.remove(&listener_id);
                let relayed = is_relayed(&address);
                info!(%address, "listening");
                if self.relay_server && !relayed {
                    // A relay is run where it is reachable; its reservations must name it.
                    self.swarm.add_external_address(address.clone());
                }
                let me = *self.swarm.local_peer_id();
                self.emit(NetworkEvent::NewListenAddr(with_peer(address, me)));
            }
            SwarmEvent::ExpiredListenAddr { address, .. } => {
                debug!(%address, "listen address expired");
                if self.relay_server {
                    self.swarm.remove_external_address(&address);
                }
            }
            SwarmEvent::ListenerClosed {
                listener_id,
                reason,
                ..
            } => {
                self.waiting_listeners.remove(&listener_id);
                let now = Instant::now();
                if let Some(relay) = self
                    .relays
                    .iter_mut()
                    .find(|r| r.listener == Some(listener_id))
                {
                    relay.listener = None;
                    relay.failures += 1;
                    let backoff = relay_backoff(relay.failures);
                    warn!(relay = %relay.peer, reason = ?reason, retry_in = ?backoff,
                        "relay listener closed");
                    relay.retry_at = Some(now + backoff);
                } else {
                    warn!(reason = ?reason, "listener closed");
                }
            }
            SwarmEvent::ListenerError { error, .. } => {
                warn!(error = %error, "listener error");
            }
            SwarmEvent::ExternalAddrConfirmed { address } => {
                info!(%address, "external address confirmed");
            }
            _ => {}
        }
    }

    fn on_behaviour_event(&mut self, event: BehaviourEvent) {
        match event {
            BehaviourEvent::Deliver(event) => self.on_request_response(Exchange::Deliver, event),
            BehaviourEvent::Sync(event) => self.on_request_response(Exchange::Sync, event),
            BehaviourEvent::Gossipsub(event) => self.on_gossipsub(event),
            BehaviourEvent::Kad(event) => self.on_kad(event),
            BehaviourEvent::Identify(identify::Event::Received { peer_id, info, .. }) => {
                debug!(peer = %peer_id, agent = %info.agent_version, "identified");
                let speaks_kad = info.protocols.iter().any(|p| p.as_ref() == KAD_PROTOCOL);
                if info
                    .protocols
                    .iter()
                    .any(|p| p.as_ref() == DELIVER_STREAM_PROTOCOL)
                {
                    self.stream_peers.insert(peer_id);
                }
                for addr in info.listen_addrs.into_iter().take(MAX_ADDRS_PER_PEER) {
                    let addr = without_peer(&addr);
                    if speaks_kad {
                        self.swarm
                            .behaviour_mut()
                            .kad
                            .add_address(&peer_id, addr.clone());
                    }
                    self.remember(peer_id, addr);
                }
            }
            BehaviourEvent::Identify(_) => {}
            BehaviourEvent::Mdns(mdns::Event::Discovered(found)) => {
                for (peer, addr) in found {
                    if self.is_blocked(&peer) {
                        continue;
                    }
                    debug!(peer = %peer, %addr, "discovered on the local network");
                    self.remember(peer, addr.clone());
                    let opts = DialOpts::peer_id(peer)
                        .addresses(vec![addr])
                        .condition(PeerCondition::DisconnectedAndNotDialing)
                        .build();
                    if let Err(e) = self.swarm.dial(opts) {
                        debug!(peer = %peer, error = %e, "not dialing discovered peer");
                    }
                }
            }
            BehaviourEvent::Mdns(mdns::Event::Expired(_)) => {}
            BehaviourEvent::RelayClient(relay::client::Event::ReservationReqAccepted {
                relay_peer_id,
                renewal,
                ..
            }) => {
                if let Some(relay) = self.relays.iter_mut().find(|r| r.peer == relay_peer_id) {
                    relay.failures = 0;
                }
                if !renewal {
                    info!(relay = %relay_peer_id, "relay reservation accepted");
                    self.emit(NetworkEvent::RelayReservation {
                        relay: relay_peer_id,
                    });
                }
            }
            BehaviourEvent::RelayClient(event) => debug!(?event, "relay client"),
            BehaviourEvent::RelayServer(event) => debug!(?event, "relay server"),
            BehaviourEvent::Dcutr(event) => debug!(?event, "hole punching"),
            BehaviourEvent::Autonat(autonat::Event::StatusChanged { old, new }) => {
                info!(?old, ?new, "NAT status changed");
            }
            BehaviourEvent::Autonat(_) | BehaviourEvent::Ping(_) => {}
            BehaviourEvent::Stream(()) => {}
            BehaviourEvent::Blocked(never) | BehaviourEvent::Limits(never) => match never {},
        }
    }

    fn on_request_response(
        &mut self,
        exchange: Exchange,
        event: request_response::Event<WireRequest, Response>,
    ) {
        use request_response::{Event, Message, OutboundFailure};
        match event {
            Event::Message {
                peer,
                message:
                    Message::Request {
                        request, channel, ..
                    },
                ..
            } => self.on_inbound_request(exchange, peer, request, Responder::Channel(channel)),
            Event::Message {
                peer,
                message:
                    Message::Response {
                        request_id,
                        response,
                    },
                ..
            } => {
                let Some(reply) = self.pending_requests.remove(&(exchange, request_id)) else {
                    return;
                };
                let result = match response {
                    Response::Refused { reason } => {
                        debug!(peer = %peer, %reason, "request refused");
                        Err(NetworkError::Refused(reason))
                    }
                    response => Ok(response),
                };
                let _ = reply.send(result);
            }
            Event::OutboundFailure {
                peer,
                request_id,
                error,
                ..
            } => {
                debug!(peer = %peer, protocol = exchange.protocol(), error = %error, "request failed");
                let Some(reply) = self.pending_requests.remove(&(exchange, request_id)) else {
                    return;
                };
                let error = match error {
                    OutboundFailure::Timeout => NetworkError::Timeout,
                    OutboundFailure::DialFailure => {
                        NetworkError::Dial(format!("cannot reach {peer}"))
                    }
                    OutboundFailure::ConnectionClosed => {
                        NetworkError::Transport(format!("connection to {peer} closed"))
                    }
                    OutboundFailure::UnsupportedProtocols => NetworkError::Refused(format!(
                        "{peer} does not speak {}",
                        exchange.protocol()
                    )),
                    OutboundFailure::Io(e) => {
                        if e.kind() == io::ErrorKind::InvalidData {
                            warn!(peer = %peer, error = %e, "malformed response");
                        }
                        NetworkError::Codec(e.to_string())
                    }
                };
                let _ = reply.send(Err(error));
            }
            Event::InboundFailure { peer, error, .. } => {
                debug!(peer = %peer, protocol = exchange.protocol(), error = %error,
                    "inbound request failed");
            }
            Event::ResponseSent { .. } => {}
        }
    }

    fn on_gossipsub(&mut self, event: gossipsub::Event) {
        match event {
            gossipsub::Event::Message {
                propagation_source,
                message_id,
                message,
            } => {
                let event = NetworkEvent::Gossip {
                    source: propagation_source,
                    message_id: message_id.clone(),
                    topic: message.topic.into_string(),
                    data: message.data,
                };
                if let Err(e) = self.events.try_send(event) {
                    if matches!(e, mpsc::error::TrySendError::Full(_)) {
                        warn!(peer = %propagation_source, "event queue full: dropping gossip");
                    }
                    // Unvalidated, so not forwarded; `Ignore` frees the cache without
                    // blaming the sender for our backlog.
                    self.swarm
                        .behaviour_mut()
                        .gossipsub
                        .report_message_validation_result(
                            &message_id,
                            &propagation_source,
                            MessageAcceptance::Ignore,
                        );
                }
            }
            gossipsub::Event::Subscribed { peer_id, topic } => {
                debug!(peer = %peer_id, %topic, "peer subscribed");
            }
            gossipsub::Event::SlowPeer { peer_id, .. } => {
                debug!(peer = %peer_id, "slow gossip peer");
            }
            _ => {}
        }
    }

    fn on_kad(&mut self, event: kad::Event) {
        match event {
            kad::Event::OutboundQueryProgressed {
                id,
                result: QueryResult::GetClosestPeers(result),
                ..
            } => {
                let peers = match result {
                    Ok(ok) => ok.peers,
                    Err(kad::GetClosestPeersError::Timeout { peers, .. }) => peers,
                };
                self.on_lookup_done(id, peers);
            }
            kad::Event::RoutingUpdated { peer, .. } => {
                debug!(peer = %peer, "kademlia routing updated");
            }
            _ => {}
        }
    }

    fn on_lookup_done(&mut self, query: QueryId, peers: Vec<kad::PeerInfo>) {
        let Some(Lookup { target, waiter }) = self.pending_lookups.remove(&query) else {
            return;
        };
        for info in peers.into_iter().filter(|i| i.peer_id == target) {
            for addr in info.addrs.into_iter().take(MAX_ADDRS_PER_PEER) {
                self.remember(target, without_peer(&addr));
            }
        }
        let addrs = self.known_addresses(&target);
        match waiter {
            Waiter::Find(reply) => {
                let _ = reply.send(addrs);
            }
            Waiter::Request { request, reply } => {
                if addrs.is_empty() && !self.swarm.is_connected(&target) {
                    let _ = reply.send(Err(NetworkError::NotConnected(target)));
                } else {
                    self.send_request(target, request, reply);
                }
            }
        }
    }
}

/// Relay reservation retry backoff.
const RELAY_RETRY_MIN: Duration = Duration::from_secs(2);
const RELAY_RETRY_MAX: Duration = Duration::from_secs(300);

fn relay_backoff(failures: u32) -> Duration {
    let exp = RELAY_RETRY_MIN.saturating_mul(1u32 << failures.min(8));
    let base = exp.min(RELAY_RETRY_MAX);
    // Jitter so that many nodes cut off by one relay restart do not return in lockstep.
    let jitter_ms = rand::thread_rng().gen_range(0..=base.as_millis() as u64 / 4);
    base + Duration::from_millis(jitter_ms)
}

/// The peer id of a trailing `/p2p/<id>` (for a circuit address, the target, not the relay).
fn last_peer(addr: &Multiaddr) -> Option<PeerId> {
    match addr.iter().last() {
        Some(Protocol::P2p(peer)) => Some(peer),
        _ => None,
    }
}

/// `addr` without a trailing `/p2p/<id>`.
fn without_peer(addr: &Multiaddr) -> Multiaddr {
    let mut addr = addr.clone();
    if matches!(addr.iter().last(), Some(Protocol::P2p(_))) {
        addr.pop();
    }
    addr
}

/// `addr` ending in `/p2p/<peer>`.
fn with_peer(addr: Multiaddr, peer: PeerId) -> Multiaddr {
    addr.with_p2p(peer).unwrap_or_else(|addr| addr)
}

/// For `<relay addr>/p2p/<relay>/p2p-circuit/…`: the relay and its address.
fn relay_of(addr: &Multiaddr) -> Option<(PeerId, Multiaddr)> {
    let mut relay_addr = Multiaddr::empty();
    for p in addr.iter() {
        if matches!(p, Protocol::P2pCircuit) {
            return last_peer(&relay_addr).map(|peer| (peer, relay_addr));
        }
        relay_addr.push(p);
    }
    None
}

fn is_relayed(addr: &Multiaddr) -> bool {
    addr.iter().any(|p| matches!(p, Protocol::P2pCircuit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_circuit_address_names_its_relay_and_its_target() {
        let relay = PeerId::random();
        let target = PeerId::random();
        let relay_addr: Multiaddr = format!("/ip4/10.0.0.1/tcp/4001/p2p/{relay}")
            .parse()
            .unwrap();
        let circuit = relay_addr
            .clone()
            .with(Protocol::P2pCircuit)
            .with(Protocol::P2p(target));
        assert_eq!(relay_of(&circuit), Some((relay, relay_addr.clone())));
        assert_eq!(last_peer(&circuit), Some(target));
        assert!(is_relayed(&circuit));
        assert_eq!(relay_of(&relay_addr), None);
        assert_eq!(
            without_peer(&relay_addr).to_string(),
            "/ip4/10.0.0.1/tcp/4001"
        );
        assert_eq!(with_peer(relay_addr.clone(), relay), relay_addr);
    }
}
