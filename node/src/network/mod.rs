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
use std::sync::Arc;
use std::time::Duration;

use futures::stream::FuturesUnordered;
use libp2p::core::transport::ListenerId;
use libp2p::multiaddr::Protocol;
use libp2p::{Multiaddr, PeerId};
use rand::Rng;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tracing::info;

mod behaviour;
mod codec;
mod config;
mod event_loop;
mod handle;
mod limits;
pub mod pipe;

use behaviour::build_swarm;
pub use behaviour::{AGENT_VERSION, IDENTIFY_PROTOCOL, KAD_PROTOCOL, gossip_message_id};
pub use config::NetworkConfig;
use config::{COMMAND_CAPACITY, EVENT_CAPACITY, STREAM_MSG_CAPACITY};
use event_loop::EventLoop;
pub use handle::{NetworkError, NetworkEvent, NetworkHandle};
use limits::{RateLimiter, Strikes};

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
