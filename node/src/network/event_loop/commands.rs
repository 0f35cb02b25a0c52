//! What a [`NetworkHandle`](crate::network::NetworkHandle) asks, carried out: dials (through
//! a relay when the address is a circuit), outbound requests (on our delivery stream to the
//! peer or on request-response, after a Kademlia lookup when no address is known),
//! subscriptions, publishing, validation verdicts, sync grants and penalties.

use libp2p::gossipsub;
use libp2p::swarm::dial_opts::{DialOpts, PeerCondition};
use libp2p::swarm::{ConnectionId, DialError};
use libp2p::{Multiaddr, PeerId};
use tokio::sync::{mpsc, oneshot};
use tracing::{debug, warn};

use super::{DialReply, EventLoop, PendingRequest, Waiter};
use crate::network::behaviour::topic_score_params;
use crate::network::codec::{Exchange, WireRequest};
use crate::network::config::{MAX_SYNC_GRANTS_PER_PEER, STREAM_IDLE};
use crate::network::handle::Command;
use crate::network::relay::{last_peer, relay_of, without_peer};
use crate::network::{NetworkError, pipe};
use crate::protocol::{MAX_PIPELINED, Request, Response};

impl EventLoop {
    pub(super) fn on_command(&mut self, command: Command) {
        match command {
            Command::ListenAddrs { reply } => {
                let _ = reply.send(self.listen_addrs());
            }
            Command::Dial { addr, reply } => self.dial(addr, reply),
            Command::DialPeer { peer, reply } => self.dial_peer(peer, reply),
            Command::Reachability { reply } => {
                use crate::network::{NatReach, Reachability};
                let (nat, public_addr) = match self.swarm.behaviour().autonat.nat_status() {
                    libp2p::autonat::NatStatus::Public(a) => (NatReach::Public, Some(a)),
                    libp2p::autonat::NatStatus::Private => (NatReach::Private, None),
                    libp2p::autonat::NatStatus::Unknown => (NatReach::Unknown, None),
                };
                let relays = self
                    .relays
                    .iter()
                    .filter(|r| r.reserved)
                    .map(|r| r.peer)
                    .collect();
                let _ = reply.send(Reachability {
                    nat,
                    public_addr,
                    relays,
                });
            }
            Command::AddAddress { peer, addr, reply } => {
                // Not into Kademlia's table (see `NetworkHandle::add_address`): a DHT server
                // among these peers is added when identify says it serves the DHT.
                self.remember(peer, without_peer(&addr));
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
                    .map_err(|e| NetworkError::Publish(format!("cannot subscribe: {e}")));
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
                let len = data.len();
                let result = match self.swarm.behaviour_mut().gossipsub.publish(ident, data) {
                    Ok(_) => {
                        self.traffic.gossip_sent(len);
                        Ok(())
                    }
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
                    self.start_lookup(peer, Waiter::Find(reply));
                } else {
                    let _ = reply.send(addrs);
                }
            }
            Command::Contact { peer, reply } => self.start_lookup(peer, Waiter::Contact(reply)),
            Command::DhtStatus { reply } => {
                let _ = reply.send(self.dht_status());
            }
            Command::ReportValidation {
                message_id,
                source,
                acceptance,
                reply,
            } => {
                // A message the service accepted is what makes a gossip peer active: mesh
                // heartbeats and messages it rejects or ignores are not.
                if matches!(acceptance, gossipsub::MessageAcceptance::Accept) {
                    self.note_activity(source);
                }
                let found = self
                    .swarm
                    .behaviour_mut()
                    .gossipsub
                    .report_message_validation_result(&message_id, &source, acceptance);
                let _ = reply.send(found);
            }
            Command::Block {
                peer,
                blocked,
                reply,
            } => {
                let b = self.swarm.behaviour_mut();
                if blocked {
                    b.gossipsub.blacklist_peer(&peer);
                    b.kad.remove_peer(&peer);
                    b.blocked.block_peer(peer);
                    self.known_addrs.remove(&peer);
                } else {
                    b.gossipsub.remove_blacklisted_peer(&peer);
                    b.blocked.unblock_peer(peer);
                }
                let _ = reply.send(());
            }
            Command::Reserve { peers, reply } => {
                let b = self.swarm.behaviour_mut();
                for p in peers {
                    b.limits.bypass_peer_id(&p);
                    b.ip_limits.reserve(p);
                }
                let _ = reply.send(());
            }
            Command::RaiseRateLimit { peers, reply } => {
                self.rate_raised.extend(peers);
                let _ = reply.send(());
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

    pub(super) fn dial(&mut self, addr: Multiaddr, reply: DialReply) {
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
            // Not a second connection to an address being dialed: a node starting dials its
            // mailbox from the configuration and again as a remembered peer, and each
            // connection costs both ends a handshake and every protocol's streams (the
            // mailbox of a reconnect storm saw 35 connections from 20 players). Another
            // address is dialed at once (as before): the one in flight may be a stale one
            // that takes the system's connect timeout to fail.
            Some(peer) if let Some(joined) = self.own_dial(peer, Some(&addr)) => {
                debug!(%addr, "a dial to this address is in flight: waiting for it");
                self.dials_joined.entry(joined).or_default().push(reply);
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
                if let Some(peer) = target {
                    self.own_dials
                        .insert(connection, (peer, vec![without_peer(&addr)]));
                }
            }
            Err(e) => {
                let _ = reply.send(Err(NetworkError::Dial(e.to_string())));
            }
        }
    }

    /// Dials `peer` at all its known addresses together (libp2p keeps the first connection
    /// that succeeds).
    fn dial_peer(&mut self, peer: PeerId, reply: DialReply) {
        if self.swarm.is_connected(&peer) {
            let _ = reply.send(Ok(peer));
            return;
        }
        if self.is_blocked(&peer) {
            let _ = reply.send(Err(NetworkError::Refused(format!("{peer} is blocked"))));
            return;
        }
        let addrs = self.known_addresses(&peer);
        if addrs.is_empty() {
            let _ = reply.send(Err(NetworkError::NotConnected(peer)));
            return;
        }
        // Every known address at once: one of ours in flight to the peer is waited for.
        if let Some(joined) = self.own_dial(peer, None) {
            debug!(peer = %peer, "a dial to the peer is in flight: waiting for it");
            self.dials_joined.entry(joined).or_default().push(reply);
            return;
        }
        let bare = addrs.iter().map(without_peer).collect();
        let opts = DialOpts::peer_id(peer)
            .addresses(addrs)
            .condition(PeerCondition::DisconnectedAndNotDialing)
            .build();
        let connection = opts.connection_id();
        match self.swarm.dial(opts) {
            Ok(()) => {
                debug!(peer = %peer, "dialing a remembered peer");
                self.pending_dials.insert(connection, reply);
                self.own_dials.insert(connection, (peer, bare));
            }
            Err(e) => {
                let _ = reply.send(Err(NetworkError::Dial(e.to_string())));
            }
        }
    }

    /// A dial of ours to `peer` in flight, if any: at `addr` when given (addresses compared
    /// without their `/p2p` part), at any address otherwise.
    fn own_dial(&self, peer: PeerId, addr: Option<&Multiaddr>) -> Option<ConnectionId> {
        let bare = addr.map(without_peer);
        self.own_dials
            .iter()
            .find(|(_, (p, addrs))| *p == peer && bare.as_ref().is_none_or(|b| addrs.contains(b)))
            .map(|(c, _)| *c)
    }

    /// A dial of ours ended, with its peer or the reason it failed: the dials that waited
    /// for it get the same answer.
    pub(super) fn end_own_dial(
        &mut self,
        connection: ConnectionId,
        outcome: Result<PeerId, String>,
    ) {
        self.own_dials.remove(&connection);
        for reply in self.dials_joined.remove(&connection).unwrap_or_default() {
            let _ = reply.send(outcome.clone().map_err(NetworkError::Dial));
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
            self.send_request(peer, request, reply, true);
        } else {
            debug!(peer = %peer, "no known address: looking the peer up in the DHT");
            self.start_lookup(peer, Waiter::Request { request, reply });
        }
    }

    /// Sends `request` to `peer`. With `may_retry`, a request that has to dial keeps a copy:
    /// if every known address fails, the peer is looked up and the request sent once more
    /// (see `requests::on_request_response`).
    pub(super) fn send_request(
        &mut self,
        peer: PeerId,
        request: Request,
        reply: oneshot::Sender<Result<Response, NetworkError>>,
        may_retry: bool,
    ) {
        let exchange = Exchange::of(&request);
        let connected = self.swarm.is_connected(&peer);
        self.note_activity(peer);
        if !connected {
            // The behaviours that dial for a request or a stream (request-response, identify)
            // forget an address as soon as one dial to it fails: a relayed address tried
            // while the peer was restarting, before its new reservation, would be gone for
            // good and the peer unreachable behind its NAT. Our own book keeps them all, and
            // every delivery that has to dial offers them again.
            for addr in self.known_addresses(&peer) {
                self.swarm.add_peer_address(peer, addr);
            }
        }
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
        let retry = (may_retry && !connected).then(|| request.clone());
        let id = rr.send_request(&peer, WireRequest::Valid(request));
        self.pending_requests
            .insert((exchange, id), PendingRequest { reply, retry });
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
            self.traffic.clone(),
        ));
        self.pipes.insert(peer, queue.clone());
        queue
    }
}
