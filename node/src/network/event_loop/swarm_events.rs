//! Swarm and behaviour events: connections opened and closed, listen addresses and relay
//! listeners, identify, mDNS discoveries, relay reservations, gossip messages waiting for
//! validation. Kademlia lives in `dht`.

use libp2p::gossipsub::{self, MessageAcceptance};
use libp2p::swarm::SwarmEvent;
use libp2p::swarm::dial_opts::{DialOpts, PeerCondition};
use libp2p::{autonat, identify, mdns, relay};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::{debug, info, warn};

use super::EventLoop;
use crate::network::behaviour::{BehaviourEvent, KAD_PROTOCOL};
use crate::network::codec::Exchange;
use crate::network::config::MAX_ADDRS_PER_PEER;
use crate::network::relay::{is_relayed, relay_backoff, with_peer, without_peer};
use crate::network::scope::dialable;
use crate::network::{NetworkError, NetworkEvent};
use crate::protocol::DELIVER_STREAM_PROTOCOL;

impl EventLoop {
    pub(super) fn on_swarm_event(&mut self, event: SwarmEvent<BehaviourEvent>) {
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
                self.end_own_dial(connection_id, Ok(peer_id));
                if num_established.get() == 1 {
                    self.activity.touch(peer_id, Instant::now());
                    self.evict_above_cap();
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
                    self.activity.forget(&peer_id);
                    self.relay_clients.remove(&peer_id);
                    self.circuits.remove(&peer_id);
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
                self.end_own_dial(connection_id, Err(error.to_string()));
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
                self.contact_changed();
            }
            SwarmEvent::ExpiredListenAddr { address, .. } => {
                debug!(%address, "listen address expired");
                if self.relay_server {
                    self.swarm.remove_external_address(&address);
                }
                self.contact_changed();
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
                    relay.reserved = false;
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
                // Listen address changes are pushed by identify itself (see `behaviour`);
                // a newly confirmed external address is pushed here, so the peers connected
                // now (opponents among them) learn it without waiting for a new connection.
                let connected: Vec<_> = self.connections.keys().copied().collect();
                self.swarm.behaviour_mut().identify.push(connected);
                self.update_dht_mode();
                self.contact_changed();
            }
            SwarmEvent::ExternalAddrExpired { address } => {
                debug!(%address, "external address expired");
                self.update_dht_mode();
                self.contact_changed();
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
                let into_table = info.protocols.iter().any(|p| p.as_ref() == KAD_PROTOCOL)
                    && self.keeps_in_routing_table(&peer_id);
                if info
                    .protocols
                    .iter()
                    .any(|p| p.as_ref() == DELIVER_STREAM_PROTOCOL)
                {
                    self.stream_peers.insert(peer_id);
                }
                let mut told = Vec::new();
                let private = self.private_addresses;
                // A peer's loopback and LAN addresses name hosts on its network, not ours
                // (see `scope`): neither the routing table nor our book keeps them.
                for addr in info
                    .listen_addrs
                    .iter()
                    .filter(|a| dialable(a, private))
                    .take(MAX_ADDRS_PER_PEER)
                {
                    let addr = without_peer(addr);
                    if into_table {
                        self.swarm
                            .behaviour_mut()
                            .kad
                            .add_address(&peer_id, addr.clone());
                    }
                    self.remember(peer_id, addr.clone());
                    told.push(addr);
                }
                // The service keeps the addresses of the peers it has a part with, across
                // restarts (see `service::remember`).
                if !told.is_empty() {
                    self.emit(NetworkEvent::PeerAddresses {
                        peer: peer_id,
                        addrs: told,
                    });
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
                    relay.reserved = true;
                }
                if !renewal {
                    info!(relay = %relay_peer_id, "relay reservation accepted");
                    self.contact_changed();
                    self.emit(NetworkEvent::RelayReservation {
                        relay: relay_peer_id,
                    });
                }
            }
            BehaviourEvent::RelayClient(event) => debug!(?event, "relay client"),
            BehaviourEvent::RelayServer(event) => self.on_relay_server(event),
            BehaviourEvent::Dcutr(event) => debug!(?event, "hole punching"),
            BehaviourEvent::Autonat(autonat::Event::StatusChanged { old, new }) => {
                info!(?old, ?new, "NAT status changed");
            }
            BehaviourEvent::Autonat(_) | BehaviourEvent::Ping(_) => {}
            BehaviourEvent::Stream(()) => {}
            BehaviourEvent::Blocked(never)
            | BehaviourEvent::Limits(never)
            | BehaviourEvent::IpLimits(never) => match never {},
        }
    }

    /// What the relay we serve did: who holds a reservation or a circuit on us, so that
    /// their connections are kept (see `EventLoop::kept`).
    fn on_relay_server(&mut self, event: relay::Event) {
        debug!(?event, "relay server");
        match event {
            relay::Event::ReservationReqAccepted { src_peer_id, .. } => {
                self.relay_clients.insert(src_peer_id);
            }
            relay::Event::ReservationClosed { src_peer_id }
            | relay::Event::ReservationTimedOut { src_peer_id } => {
                self.relay_clients.remove(&src_peer_id);
            }
            relay::Event::CircuitReqAccepted {
                src_peer_id,
                dst_peer_id,
            } => {
                for p in [src_peer_id, dst_peer_id] {
                    *self.circuits.entry(p).or_default() += 1;
                }
            }
            relay::Event::CircuitClosed {
                src_peer_id,
                dst_peer_id,
                ..
            } => {
                for p in [src_peer_id, dst_peer_id] {
                    if let Some(n) = self.circuits.get_mut(&p) {
                        *n = n.saturating_sub(1);
                        if *n == 0 {
                            self.circuits.remove(&p);
                        }
                    }
                }
                // Each end was just active through us.
                self.note_activity(src_peer_id);
                self.note_activity(dst_peer_id);
            }
            _ => {}
        }
    }

    fn on_gossipsub(&mut self, event: gossipsub::Event) {
        match event {
            gossipsub::Event::Message {
                propagation_source,
                message_id,
                message,
            } => {
                self.traffic.gossip_received(message.data.len());
                let queued = super::super::queue::QueueTicket::take(
                    &self.queued_bytes,
                    message.data.len() + 256,
                );
                let sent = match queued {
                    Some(queued) => self
                        .events
                        .try_send(NetworkEvent::Gossip {
                            source: propagation_source,
                            author: message.source,
                            message_id: message_id.clone(),
                            topic: message.topic.into_string(),
                            data: message.data,
                            queued,
                        })
                        .map_err(|e| matches!(e, mpsc::error::TrySendError::Full(_))),
                    None => Err(true),
                };
                if let Err(full) = sent {
                    if full {
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
}
