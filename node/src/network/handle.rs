//! The network's face to the rest of the node: the cloneable [`NetworkHandle`] and the
//! [`Command`]s it sends the event loop, the [`NetworkEvent`]s the loop reports, and
//! [`NetworkError`]. Apart from the event loop because this is all the service sees of the
//! network; nothing here touches the swarm.

use std::sync::Arc;
use std::time::Duration;

use libp2p::gossipsub::{MessageAcceptance, MessageId};
use libp2p::{Multiaddr, PeerId};
use sobre_core::record::GameId;
use tokio::sync::{mpsc, oneshot, watch};

use super::contact::Contact;
use crate::protocol::{Request, Response};

/// Why a network operation failed.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    #[error("timed out")]
    Timeout,
    #[error("not connected to {0} and no address known")]
    NotConnected(PeerId),
    #[error("dial failed: {0}")]
    Dial(String),
    #[error("publish failed: {0}")]
    Publish(String),
    /// Nobody is subscribed to the topic yet: not fatal (deliver directly, retry later).
    #[error("no peer subscribed to topic {0}")]
    NoPeers(String),
    /// The same message was published recently: not fatal (it is already out).
    #[error("message already published")]
    Duplicate,
    #[error("the network task has shut down")]
    Shutdown,
    #[error("transport: {0}")]
    Transport(String),
    #[error("codec: {0}")]
    Codec(String),
    /// The remote answered `Response::Refused` (or refused the protocol).
    #[error("refused: {0}")]
    Refused(String),
}

impl NetworkError {
    /// Whether a publish error only means "nobody heard it right now" ([`NetworkError::NoPeers`],
    /// [`NetworkError::Duplicate`]): the caller can ignore it and rely on direct delivery.
    pub fn is_benign_publish(&self) -> bool {
        matches!(self, NetworkError::NoPeers(_) | NetworkError::Duplicate)
    }
}

/// What the network reports to the service.
#[derive(Debug)]
pub enum NetworkEvent {
    /// A peer asks something. Answer on `reply` (the network task waits up to the request
    /// timeout; dropping `reply` answers `Refused { "no answer" }`).
    InboundRequest {
        peer: PeerId,
        request: Request,
        reply: oneshot::Sender<Response>,
        /// Its share of the queue's bytes, given back when the event is dropped.
        queued: super::queue::QueueTicket,
    },
    /// A gossip message awaiting validation: report it with
    /// [`NetworkHandle::report_validation`] (`message_id`, `source`) or it is never forwarded.
    Gossip {
        /// The peer that forwarded it (not necessarily its author).
        source: PeerId,
        /// Its author, whose libp2p key signed it (strict validation: always present).
        author: Option<PeerId>,
        message_id: MessageId,
        topic: String,
        data: Vec<u8>,
        /// Its share of the queue's bytes, given back when the event is dropped.
        queued: super::queue::QueueTicket,
    },
    PeerConnected {
        peer: PeerId,
        addr: Multiaddr,
    },
    PeerDisconnected {
        peer: PeerId,
    },
    /// A new listen address, with the `/p2p/<own id>` suffix (relayed ones included).
    NewListenAddr(Multiaddr),
    /// A peer told us (identify, at connection or pushed later) the addresses it listens on,
    /// without `/p2p/<id>`; at most 8 of them (the network's bound per peer).
    PeerAddresses {
        peer: PeerId,
        addrs: Vec<Multiaddr>,
    },
    /// A relay accepted our reservation: we are reachable through it.
    RelayReservation {
        relay: PeerId,
    },
}

/// Whether others can reach this node directly, as AutoNAT's probes by peers found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NatReach {
    /// Peers dialed back one of our addresses.
    Public,
    /// Peers could not dial us back: behind a NAT or a firewall.
    Private,
    /// Not probed yet (AutoNAT needs a few connected peers to ask).
    Unknown,
}

/// How the node can be reached ([`NetworkHandle::reachability`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reachability {
    pub nat: NatReach,
    /// The address peers reached, when [`NatReach::Public`].
    pub public_addr: Option<Multiaddr>,
    /// Relays holding a reservation for us: we are reachable through each.
    pub relays: Vec<PeerId>,
}

/// Our place in the DHT ([`NetworkHandle::dht_status`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DhtStatus {
    /// We answer Kademlia queries (server mode): a mailbox, a relay, or a node with a
    /// confirmed direct external address. A node behind NAT stays a client.
    pub server: bool,
    /// The peers in our routing table.
    pub routing: Vec<PeerId>,
}

/// A cheap, cloneable handle to the network task.
#[derive(Clone)]
pub struct NetworkHandle {
    pub(super) commands: mpsc::Sender<Command>,
    pub(super) local_peer_id: PeerId,
    pub(super) request_timeout: Duration,
    pub(super) shutdown: Arc<watch::Sender<bool>>,
    pub(super) done: watch::Receiver<bool>,
    pub(super) traffic: Arc<super::traffic::Traffic>,
    /// libp2p's bandwidth metrics (see `traffic`).
    pub(super) registry: Arc<libp2p::metrics::Registry>,
}

impl std::fmt::Debug for NetworkHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetworkHandle")
            .field("local_peer_id", &self.local_peer_id)
            .finish_non_exhaustive()
    }
}

impl NetworkHandle {
    /// This node's peer id (the player id).
    /// What this node has sent and received since it started (see `traffic`).
    pub fn traffic(&self) -> super::TrafficCounts {
        self.traffic.counts(&self.registry)
    }

    pub fn local_peer_id(&self) -> PeerId {
        self.local_peer_id
    }

    /// Addresses others can dial, each ending in `/p2p/<own id>`: listen addresses (relayed
    /// ones included) and confirmed external addresses.
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn listen_addrs(&self) -> Result<Vec<Multiaddr>, NetworkError> {
        self.call(|reply| Command::ListenAddrs { reply }).await
    }

    /// Dials `addr` and resolves once connected, with the remote's peer id (from a trailing
    /// `/p2p/<id>` or from the handshake). A relayed peer is dialed at
    /// `<relay>/p2p-circuit/p2p/<peer>`.
    ///
    /// # Errors
    /// [`NetworkError::Dial`], [`NetworkError::Timeout`], [`NetworkError::Shutdown`].
    pub async fn dial(&self, addr: Multiaddr) -> Result<PeerId, NetworkError> {
        self.call_timeout(|reply| Command::Dial { addr, reply })
            .await?
    }

    /// Dials `peer` at every address known for it at once (remembered, Kademlia's), and
    /// resolves once connected (at once when it already is).
    ///
    /// # Errors
    /// [`NetworkError::NotConnected`] when no address is known, [`NetworkError::Dial`],
    /// [`NetworkError::Timeout`], [`NetworkError::Shutdown`].
    pub async fn dial_peer(&self, peer: PeerId) -> Result<PeerId, NetworkError> {
        self.call_timeout(|reply| Command::DialPeer { peer, reply })
            .await?
    }

    /// Whether the node is reachable from outside (AutoNAT) and through which relays.
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn reachability(&self) -> Result<Reachability, NetworkError> {
        self.call(|reply| Command::Reachability { reply }).await
    }

    /// Remembers an address of `peer` for later dials and requests. Not for Kademlia: its
    /// routing table holds DHT servers only — the bootstrap peers and the peers that say
    /// they serve it (identify) — never a remembered opponent, a player who cannot answer a
    /// lookup, and each one added to a small table started another bootstrap of the DHT.
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn add_address(&self, peer: PeerId, addr: Multiaddr) -> Result<(), NetworkError> {
        self.call(|reply| Command::AddAddress { peer, addr, reply })
            .await
    }

    /// Connected peers with the remote addresses of their connections.
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn connected_peers(&self) -> Result<Vec<(PeerId, Vec<Multiaddr>)>, NetworkError> {
        self.call(|reply| Command::ConnectedPeers { reply }).await
    }

    /// Subscribes to a gossipsub topic (see `protocol::league_topic` and friends).
    ///
    /// # Errors
    /// [`NetworkError::Publish`] if gossipsub refuses, [`NetworkError::Shutdown`].
    pub async fn subscribe(&self, topic: impl Into<String>) -> Result<(), NetworkError> {
        let topic = topic.into();
        self.call(|reply| Command::Subscribe { topic, reply })
            .await?
    }

    /// Leaves a topic. Returns whether we were subscribed.
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn unsubscribe(&self, topic: impl Into<String>) -> Result<bool, NetworkError> {
        let topic = topic.into();
        self.call(|reply| Command::Unsubscribe { topic, reply })
            .await
    }

    /// Publishes `data` (an encoded [`Gossip`](crate::protocol::Gossip)) on `topic`.
    ///
    /// # Errors
    /// [`NetworkError::NoPeers`] / [`NetworkError::Duplicate`] (benign, see
    /// [`NetworkError::is_benign_publish`]), [`NetworkError::Publish`] (e.g. too large),
    /// [`NetworkError::Shutdown`].
    pub async fn publish(
        &self,
        topic: impl Into<String>,
        data: Vec<u8>,
    ) -> Result<(), NetworkError> {
        let topic = topic.into();
        self.call(|reply| Command::Publish { topic, data, reply })
            .await?
    }

    /// Sends a request and waits for the answer (at most the configured request timeout).
    /// `Deliver` and `League` travel on our delivery stream to the peer when its identify
    /// announced `/sobre/deliver-stream/1` (see [`pipe`](super::pipe)), else on
    /// `/sobre/deliver/1`; `Sync` and `Games` on `/sobre/sync/1`. If the peer is not
    /// connected, known addresses are dialed; if none is known, the peer is looked up in
    /// Kademlia first.
    ///
    /// # Errors
    /// [`NetworkError::Refused`] when the peer answers `Response::Refused` (rate limit, busy,
    /// invalid…), [`NetworkError::Timeout`], [`NetworkError::NotConnected`] (no address found),
    /// [`NetworkError::Dial`], [`NetworkError::Codec`] (e.g. the request exceeds
    /// [`MAX_MESSAGE_BYTES`](crate::protocol::MAX_MESSAGE_BYTES)), [`NetworkError::Shutdown`].
    pub async fn request(&self, peer: PeerId, request: Request) -> Result<Response, NetworkError> {
        self.request_queued(peer, request).await
    }

    /// [`NetworkHandle::request`] whose command is handed to the network task before this
    /// returns (when its queue has room, the common case): a caller that spawns the wait
    /// does not also wait for the spawned task to be scheduled before the request leaves.
    /// The returned future waits for the answer (at most the configured request timeout).
    pub fn request_queued(
        &self,
        peer: PeerId,
        request: Request,
    ) -> impl Future<Output = Result<Response, NetworkError>> + Send + 'static {
        let (tx, rx) = oneshot::channel();
        let command = Command::Request {
            peer,
            request,
            reply: tx,
        };
        let waiting = match self.commands.try_send(command) {
            Ok(()) => Ok(None),
            Err(mpsc::error::TrySendError::Full(command)) => Ok(Some(command)),
            Err(mpsc::error::TrySendError::Closed(_)) => Err(NetworkError::Shutdown),
        };
        let (commands, timeout) = (self.commands.clone(), self.request_timeout);
        async move {
            let answer = async {
                if let Some(command) = waiting? {
                    commands
                        .send(command)
                        .await
                        .map_err(|_| NetworkError::Shutdown)?;
                }
                rx.await.map_err(|_| NetworkError::Shutdown)?
            };
            tokio::time::timeout(timeout, answer)
                .await
                .map_err(|_| NetworkError::Timeout)?
        }
    }

    /// Addresses of `peer`: known ones, else from a Kademlia lookup. Empty if not found.
    ///
    /// # Errors
    /// [`NetworkError::Timeout`], [`NetworkError::Shutdown`].
    pub async fn find_peer(&self, peer: PeerId) -> Result<Vec<Multiaddr>, NetworkError> {
        self.call_timeout(|reply| Command::FindPeer { peer, reply })
            .await
    }

    /// The contact record of `peer` found in the DHT now (the newest valid one the servers
    /// closest to its key hold), or `None`: where a player's node, relays and mailboxes are.
    ///
    /// # Errors
    /// [`NetworkError::Timeout`], [`NetworkError::Shutdown`].
    pub async fn contact(&self, peer: PeerId) -> Result<Option<Contact>, NetworkError> {
        self.call_timeout(|reply| Command::Contact { peer, reply })
            .await
    }

    /// Our Kademlia mode and routing table.
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn dht_status(&self) -> Result<DhtStatus, NetworkError> {
        self.call(|reply| Command::DhtStatus { reply }).await
    }

    /// Reports the verdict on a [`NetworkEvent::Gossip`]: `Accept` forwards it, `Reject`
    /// lowers the forwarder's gossipsub score (invalid signature, illegal move…), `Ignore`
    /// drops it without penalty (e.g. a duplicate, or an event whose predecessor is unknown).
    /// Returns false if the message had already left the cache.
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn report_validation(
        &self,
        message_id: MessageId,
        source: PeerId,
        acceptance: MessageAcceptance,
    ) -> Result<bool, NetworkError> {
        self.call(|reply| Command::ReportValidation {
            message_id,
            source,
            acceptance,
            reply,
        })
        .await
    }

    /// Counts a strike against `peer` (logged with the reason); after
    /// [`NetworkConfig::max_strikes`](super::NetworkConfig::max_strikes) the peer is
    /// disconnected and blocked for the life of the process.
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn penalize(
        &self,
        peer: PeerId,
        reason: impl Into<String>,
    ) -> Result<(), NetworkError> {
        let reason = reason.into();
        self.call(|reply| Command::Penalize {
            peer,
            reason,
            reply,
        })
        .await
    }

    /// Lets `peer` catch up `games` — games it shares with this node — with one `Sync`
    /// each outside the request rate limit: a player with hundreds of games syncs them all
    /// when it meets its mailbox or opponent. Any other request, and any second `Sync` of
    /// a game, counts against the limit as before, so a flood is still refused. Grants end
    /// when the peer disconnects.
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn allow_syncs(&self, peer: PeerId, games: Vec<GameId>) -> Result<(), NetworkError> {
        self.call(|reply| Command::AllowSyncs { peer, games, reply })
            .await
    }

    /// Reserves connection room for `peer` (an opponent, a league organiser or member, an
    /// arbiter, a mailbox): it is never refused for the number of connections from its
    /// address or in all, so strangers cannot starve it (see `ip_limits`).
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn reserve(&self, peers: Vec<PeerId>) -> Result<(), NetworkError> {
        self.call(|reply| Command::Reserve { peers, reply }).await
    }

    /// Lets `peers` send as many requests as reserved peers may (ten times the limit)
    /// without reserving connection room for them: a mailbox's players, who deliver each
    /// move and receipt of their games there, but must not escape the connection limits
    /// (see `service::access`).
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn raise_rate_limit(&self, peers: Vec<PeerId>) -> Result<(), NetworkError> {
        self.call(|reply| Command::RaiseRateLimit { peers, reply })
            .await
    }

    /// Blocks `peer` for good (the player refused them: `sobre block`), or lifts the block:
    /// its connections close and new ones are refused, its gossip is ignored.
    ///
    /// # Errors
    /// [`NetworkError::Shutdown`].
    pub async fn block(&self, peer: PeerId, blocked: bool) -> Result<(), NetworkError> {
        self.call(|reply| Command::Block {
            peer,
            blocked,
            reply,
        })
        .await
    }

    /// Stops the network task (closing every connection) and waits until it has exited.
    /// Idempotent; every later call on any handle fails with [`NetworkError::Shutdown`].
    pub async fn shutdown(&self) {
        self.shutdown.send_replace(true);
        let mut done = self.done.clone();
        // Err means the task is already gone, which is what we wait for.
        let _ = done.wait_for(|d| *d).await;
    }

    async fn call<T>(
        &self,
        command: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, NetworkError> {
        let (tx, rx) = oneshot::channel();
        self.commands
            .send(command(tx))
            .await
            .map_err(|_| NetworkError::Shutdown)?;
        rx.await.map_err(|_| NetworkError::Shutdown)
    }

    async fn call_timeout<T>(
        &self,
        command: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, NetworkError> {
        tokio::time::timeout(self.request_timeout, self.call(command))
            .await
            .map_err(|_| NetworkError::Timeout)?
    }
}

/// What a [`NetworkHandle`] asks of the event loop, each with the oneshot its answer goes
/// back on.
pub(super) enum Command {
    ListenAddrs {
        reply: oneshot::Sender<Vec<Multiaddr>>,
    },
    Dial {
        addr: Multiaddr,
        reply: oneshot::Sender<Result<PeerId, NetworkError>>,
    },
    Reachability {
        reply: oneshot::Sender<Reachability>,
    },
    DialPeer {
        peer: PeerId,
        reply: oneshot::Sender<Result<PeerId, NetworkError>>,
    },
    AddAddress {
        peer: PeerId,
        addr: Multiaddr,
        reply: oneshot::Sender<()>,
    },
    ConnectedPeers {
        reply: oneshot::Sender<Vec<(PeerId, Vec<Multiaddr>)>>,
    },
    Subscribe {
        topic: String,
        reply: oneshot::Sender<Result<(), NetworkError>>,
    },
    Unsubscribe {
        topic: String,
        reply: oneshot::Sender<bool>,
    },
    Publish {
        topic: String,
        data: Vec<u8>,
        reply: oneshot::Sender<Result<(), NetworkError>>,
    },
    Request {
        peer: PeerId,
        request: Request,
        reply: oneshot::Sender<Result<Response, NetworkError>>,
    },
    FindPeer {
        peer: PeerId,
        reply: oneshot::Sender<Vec<Multiaddr>>,
    },
    Contact {
        peer: PeerId,
        reply: oneshot::Sender<Option<Contact>>,
    },
    DhtStatus {
        reply: oneshot::Sender<DhtStatus>,
    },
    ReportValidation {
        message_id: MessageId,
        source: PeerId,
        acceptance: MessageAcceptance,
        reply: oneshot::Sender<bool>,
    },
    Penalize {
        peer: PeerId,
        reason: String,
        reply: oneshot::Sender<()>,
    },
    AllowSyncs {
        peer: PeerId,
        games: Vec<GameId>,
        reply: oneshot::Sender<()>,
    },
    Reserve {
        peers: Vec<PeerId>,
        reply: oneshot::Sender<()>,
    },
    RaiseRateLimit {
        peers: Vec<PeerId>,
        reply: oneshot::Sender<()>,
    },
    Block {
        peer: PeerId,
        blocked: bool,
        reply: oneshot::Sender<()>,
    },
}
