//! How a node joins the network ([`NetworkConfig`], chosen by whoever starts the node) and
//! the fixed bounds of the network task: channel capacities, timeouts, and how much a peer
//! can make us remember. Apart so that every knob of the network layer is read in one place;
//! the bounds that belong to one mechanism (rate window, strike table, connection limits,
//! relay backoff) stay beside it in `limits` and `relay`.

use std::time::Duration;

use libp2p::Multiaddr;
use libp2p::identity::Keypair;

/// Commands waiting for the swarm task.
pub(super) const COMMAND_CAPACITY: usize = 256;
/// Events waiting for the service (see [`NetworkConfig::event_queue`]).
pub(super) const EVENT_CAPACITY: usize = 1024;
/// A correspondence game is quiet for days: keep idle connections a while so a reply that
/// comes minutes later does not pay for a new handshake. This is libp2p's timeout, counted
/// from when no behaviour keeps the connection alive; gossipsub keeps a mesh peer's for
/// ever, so the node's own [`NetworkConfig::idle_timeout`] closes those.
pub(super) const IDLE_CONNECTION_TIMEOUT: Duration = Duration::from_secs(120);
/// How long a connection may carry nothing of interest before it is closed, by default
/// ([`NetworkConfig::idle_timeout`]).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(10 * 60);
/// Connected peers above which the least recently used is disconnected, by default
/// ([`NetworkConfig::max_peers`]): a club mailbox's members online at once, with room for
/// DHT and relay traffic.
pub const MAX_PEERS: usize = 384;
/// How long `spawn` waits for the listeners of `config.listen` to report their addresses.
pub(super) const LISTEN_STARTUP_TIMEOUT: Duration = Duration::from_secs(5);
/// Known addresses kept per peer and peers remembered (bounded memory against address floods).
pub(super) const MAX_ADDRS_PER_PEER: usize = 8;
pub(super) const MAX_REMEMBERED_PEERS: usize = 4096;
/// Gossip topics a peer may be subscribed to: a node subscribes to its inbox and to at most
/// `service::league_state::MAX_LEAGUE_TOPICS` leagues, whatever it stores (games have no
/// topic). The bound keeps what a peer can make us remember small.
pub(super) const MAX_TOPICS_PER_PEER: usize = 128;
/// Subscriptions in one gossip message: a node announces all its topics when it connects.
pub(super) const MAX_SUBSCRIPTIONS_PER_MESSAGE: usize = 128;
/// Catch-up syncs granted to one peer (see
/// [`NetworkHandle::allow_syncs`](super::NetworkHandle::allow_syncs)).
pub(super) const MAX_SYNC_GRANTS_PER_PEER: usize = 20_000;
/// Inbound delivery streams one peer may hold open (a node needs one; a few cover restarts).
pub(super) const MAX_STREAMS_PER_PEER: usize = 4;
/// A delivery stream with nothing to carry for this long is closed, so the connection can
/// idle out (see [`IDLE_CONNECTION_TIMEOUT`]); the next delivery opens a new one.
pub(super) const STREAM_IDLE: Duration = Duration::from_secs(60);
/// Requests read off delivery streams, waiting for the event loop.
pub(super) const STREAM_MSG_CAPACITY: usize = 1024;

/// How a node joins the network.
#[derive(Clone, Debug)]
pub struct NetworkConfig {
    /// The node's identity (the player's key: its PeerId is the player id).
    pub keypair: Keypair,
    /// Addresses to listen on, e.g. `/ip4/0.0.0.0/tcp/0`, `/ip4/0.0.0.0/udp/0/quic-v1`.
    pub listen: Vec<Multiaddr>,
    /// Peers dialed at start (and added to Kademlia when they end in `/p2p/<id>`).
    pub bootstrap: Vec<Multiaddr>,
    /// Discover peers on the local network (a club room).
    pub mdns: bool,
    /// Act as a relay for others. A relay must be reachable: its listen addresses (and
    /// `external`) are announced as its external addresses.
    pub relay_server: bool,
    /// Relays (`…/p2p/<relay id>`) to reserve a circuit on: the node listens on
    /// `<relay>/p2p-circuit` and is reachable at `<relay>/p2p-circuit/p2p/<own id>`.
    pub relays: Vec<Multiaddr>,
    /// Addresses known to be reachable from outside (port forwarding, a public host).
    pub external: Vec<Multiaddr>,
    /// The mailboxes of the player (`…/p2p/<id>`), announced in its contact record so that a
    /// stranger can leave a challenge there (see `contact`). The service dials them as
    /// bootstrap peers too.
    pub mailboxes: Vec<Multiaddr>,
    /// Serve the DHT (Kademlia server mode) whatever AutoNAT says: mailboxes and relays,
    /// which are run where they are reachable. Otherwise a node serves only once a direct
    /// external address is confirmed (see `event_loop::dht`): a node behind NAT announcing
    /// itself as a server would fill routing tables with a peer nobody can dial.
    pub dht_server: bool,
    /// Keep loopback and private addresses (see `scope`): `Some` as given; `None` (the
    /// default) decides from the node's own configuration — kept when one of its configured
    /// addresses is private (tests on 127.0.0.1, a club LAN whose mailbox is at 192.168.…)
    /// or mDNS is on, dropped for a node whose peers are on the internet.
    pub private_addresses: Option<bool>,
    /// Time allowed for one request-response exchange, a dial or a peer lookup.
    pub request_timeout: Duration,
    /// Inbound requests accepted per peer per minute (0: unlimited).
    pub max_requests_per_peer_per_minute: u32,
    /// Strikes (malformed frames, floods, penalties) before a peer is blocked.
    pub max_strikes: u32,
    /// Inbound connections from one IP address; twice that from one /24 or /48 network
    /// (reserved peers apart: see `ip_limits`). A mailbox whose players share one address
    /// (a club behind one router) raises it.
    pub max_inbound_per_ip: usize,
    /// Network events waiting for the service before the rest wait in the swarm task
    /// (connection events) or are refused (requests, gossip).
    pub event_queue: usize,
    /// A connection to a peer with which nothing of interest was exchanged for this long
    /// (no request either way, no delivery, no gossip the service accepted) is closed,
    /// unless the peer is kept (bootstrap peers and mailboxes, relays holding our circuit,
    /// peers holding a reservation or a circuit on our relay, reserved peers: see
    /// `event_loop::EventLoop::kept`). Checked once a second.
    pub idle_timeout: Duration,
    /// Connected peers above which, when a new peer connects, the least recently active
    /// peer that is not kept is disconnected: a busy mailbox makes room instead of
    /// refusing newcomers (libp2p's `connection_limits` refuses; its ceiling is set above
    /// this, see `limits`).
    pub max_peers: usize,
}

impl NetworkConfig {
    /// Defaults for a player's node: TCP and QUIC on all interfaces (ports chosen by the OS),
    /// no bootstrap peers, no mDNS, no relays, 30 s request timeout, 120 requests per peer per
    /// minute, blocked after 5 strikes, idle connections closed after 10 minutes, at most
    /// [`MAX_PEERS`] peers before the least recently used makes room.
    pub fn new(keypair: Keypair) -> NetworkConfig {
        let listen = ["/ip4/0.0.0.0/tcp/0", "/ip4/0.0.0.0/udp/0/quic-v1"]
            .iter()
            .filter_map(|a| a.parse().ok())
            .collect();
        NetworkConfig {
            keypair,
            listen,
            bootstrap: Vec::new(),
            mdns: false,
            relay_server: false,
            relays: Vec::new(),
            external: Vec::new(),
            mailboxes: Vec::new(),
            dht_server: false,
            private_addresses: None,
            request_timeout: Duration::from_secs(30),
            max_requests_per_peer_per_minute: 120,
            max_strikes: 5,
            max_inbound_per_ip: super::ip_limits::MAX_PER_IP,
            event_queue: EVENT_CAPACITY,
            idle_timeout: IDLE_TIMEOUT,
            max_peers: MAX_PEERS,
        }
    }
}
