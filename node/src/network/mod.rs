//! The network actor: one tokio task owns the libp2p [`Swarm`](libp2p::Swarm); everyone else
//! talks to it through a cheap, cloneable [`NetworkHandle`] (a bounded channel of commands,
//! each answered on its own oneshot) and listens to [`NetworkEvent`]s on a bounded channel.
//!
//! ```text
//!  service ──NetworkHandle──► Command ──► ┌────────────────────┐ ──► NetworkEvent ──► service
//!                                         │ EventLoop (1 task)  │
//!  reply ◄──────── oneshot ◄───────────── │   owns the Swarm    │ ◄── oneshot Response (inbound)
//!                                         └────────────────────┘
//! ```
//!
//! Behaviours: identify, ping, Kademlia (`/sobre/kad/1`: server mode for mailboxes, relays
//! and nodes with a confirmed direct address, client mode behind NAT; signed contact
//! records, see [`contact`]), gossipsub (strict
//! signing, application-level validation, message id = the signed event's id),
//! request-response for `/sobre/deliver/1` and `/sobre/sync/1`, delivery streams
//! (`/sobre/deliver-stream/1`, see [`pipe`]), mDNS (optional), relay server (optional), relay
//! client, DCUtR, AutoNAT (v1), connection limits and a block list; idle connections are
//! closed and, above [`NetworkConfig::max_peers`], the least recently used one makes room
//! (`activity`, `event_loop`).
//!
//! Hostile peers: frames are length-prefixed and capped before anything is allocated; inbound
//! requests are rate limited per peer; malformed frames, floods and invalid gossip cost the
//! sender a *strike* ([`NetworkHandle::penalize`]); after [`NetworkConfig::max_strikes`] the
//! peer is disconnected and blocked for the life of the process.
//!
//! Layout: this file starts the actor ([`spawn`]) and re-exports what the rest of the node
//! uses. `handle` is the service's side ([`NetworkHandle`], [`NetworkEvent`],
//! [`NetworkError`]); `config` holds [`NetworkConfig`] and the fixed bounds; `behaviour`
//! builds the swarm; `codec` frames requests on the wire and [`pipe`] carries deliveries on
//! long-lived streams; `limits` (rate limit, strikes, connection limits) and `relay` (relay
//! reservations, circuit addresses) are plain state; `event_loop` is the task itself, its
//! handlers split by concern.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use futures::stream::FuturesUnordered;
use tokio::sync::{mpsc, watch};
use tracing::info;

mod activity;
mod behaviour;
mod codec;
mod config;
pub mod contact;
mod event_loop;
mod handle;
pub mod ip_limits;
mod limits;
pub mod pipe;
pub mod port;
pub mod queue;
mod relay;
mod scope;
mod traffic;

use behaviour::build_swarm;
pub use behaviour::{
    AGENT_VERSION, IDENTIFY_PROTOCOL, KAD_PROTOCOL, MAX_GOSSIP_FRAME, gossip_message_id,
};
use config::{COMMAND_CAPACITY, STREAM_MSG_CAPACITY};
pub use config::{IDLE_TIMEOUT, MAX_PEERS, NetworkConfig};
use event_loop::{ContactState, EventLoop};
pub use handle::{DhtStatus, NatReach, NetworkError, NetworkEvent, NetworkHandle, Reachability};
use libp2p::metrics::Registry;
use limits::{RateLimiter, Strikes};
use relay::{RelayState, last_peer};
pub use traffic::{Traffic, TrafficCounts};

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
                reserved: false,
            }),
            None => {
                return Err(NetworkError::Transport(format!(
                    "relay address {addr} must end with /p2p/<relay peer id>"
                )));
            }
        }
    }

    let traffic = Arc::new(Traffic::default());
    let mut registry = Registry::default();
    let mut swarm = build_swarm(&config, &traffic, &mut registry)?;
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
    let (event_tx, event_rx) = mpsc::channel(config.event_queue.max(1));
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let (done_tx, done_rx) = watch::channel(false);

    let private_addresses = scope::keeps_private(&config);
    let mut event_loop = EventLoop {
        swarm,
        keypair: config.keypair.clone(),
        dht_server: config.dht_server || config.relay_server,
        private_addresses,
        contact: ContactState::new(config.mailboxes.clone()),
        commands: command_rx,
        events: event_tx,
        queued_bytes: std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0)),
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
        lookups: HashMap::new(),
        lookup_queries: HashMap::new(),
        dials_via_relay: HashMap::new(),
        own_dials: HashMap::new(),
        dials_joined: HashMap::new(),
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
        backlog: std::collections::VecDeque::new(),
        activity: activity::Activity::default(),
        idle_timeout: config.idle_timeout,
        max_peers: config.max_peers.max(1),
        bootstrap_peers: config.bootstrap.iter().filter_map(last_peer).collect(),
        relay_clients: HashSet::new(),
        circuits: HashMap::new(),
        rate_raised: HashSet::new(),
        traffic: traffic.clone(),
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
        traffic,
        registry: Arc::new(registry),
    };
    Ok((handle, event_rx))
}
