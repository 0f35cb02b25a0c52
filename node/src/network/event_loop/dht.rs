//! The DHT side of the event loop: our Kademlia mode, which addresses stay in the routing
//! table, our signed contact record (published at start, when our addresses change and every
//! [`CONTACT_REPUBLISH`]), the validation of the records others store with us, and lookups
//! of a player by id (their contact record and the closest peers, together).

use std::time::Duration;

use libp2p::kad::{self, GetRecordOk, QueryId, QueryResult, Quorum, Record, store::RecordStore};
use libp2p::multiaddr::Protocol;
use libp2p::{Multiaddr, PeerId};
use tokio::time::Instant;
use tracing::{debug, info, warn};

use super::{EventLoop, Lookup, Waiter};
use crate::network::config::MAX_ADDRS_PER_PEER;
use crate::network::contact::{self, Contact};
use crate::network::relay::{is_relayed, relay_backoff, without_peer};
use crate::network::scope::{dialable, is_unspecified};
use crate::network::{DhtStatus, NetworkError};
use crate::time::now_ms;

/// How often a node publishes its contact record again when nothing changed: DHT servers
/// (mailboxes) keep records in memory, so one restarted holds ours again within this.
pub(super) const CONTACT_REPUBLISH: Duration = Duration::from_secs(60 * 60);
/// How long after an address change the record is published: several changes at once (a
/// listener's addresses, a reservation) make one record.
const CONTACT_SETTLE: Duration = Duration::from_millis(500);

/// Our contact record's state: its last sequence number and when it is due.
pub(crate) struct ContactState {
    mailboxes: Vec<Multiaddr>,
    seq: u64,
    due: Option<Instant>,
    failures: u32,
}

impl ContactState {
    pub(crate) fn new(mailboxes: Vec<Multiaddr>) -> ContactState {
        ContactState {
            mailboxes,
            seq: 0,
            // At start: the first maintenance tick publishes it.
            due: Some(Instant::now()),
            failures: 0,
        }
    }

    pub(super) fn is_due(&self, now: Instant) -> bool {
        self.due.is_some_and(|at| at <= now)
    }
}

impl EventLoop {
    /// Kademlia server mode for mailboxes and relays, and for a node with a confirmed direct
    /// external address; client mode otherwise. Not kad's own automatic mode
    /// (`set_mode(None)`): it counts every confirmed external address, and the relay client
    /// confirms its circuit addresses — every player behind NAT with a reservation would
    /// serve the DHT through a relay's bounded circuits (rust-libp2p #4074).
    pub(super) fn update_dht_mode(&mut self) {
        let private = self.private_addresses;
        let reachable = self
            .swarm
            .external_addresses()
            .any(|a| !is_relayed(a) && dialable(a, private));
        let mode = if self.dht_server || reachable {
            kad::Mode::Server
        } else {
            kad::Mode::Client
        };
        let kad = &mut self.swarm.behaviour_mut().kad;
        if kad.mode() != mode {
            info!(?mode, "kademlia mode");
            kad.set_mode(Some(mode));
        }
    }

    /// Whether a DHT server that identified itself goes into our routing table. A server
    /// keeps every server it meets. A client keeps its bootstrap peers (its mailboxes among
    /// them), and a server it meets only while it knows none: every server a query passed
    /// through went in before, and while a table holds fewer than twenty peers each new
    /// one starts another bootstrap of the DHT — a player's node starting in a federation
    /// of a few clubs bootstrapped twice, about ten Kademlia requests at every mailbox.
    /// Its lookups still go wherever the answers lead; the table is only where they start.
    pub(super) fn keeps_in_routing_table(&mut self, peer: &PeerId) -> bool {
        let kad = &mut self.swarm.behaviour_mut().kad;
        kad.mode() == kad::Mode::Server
            || self.bootstrap_peers.contains(peer)
            || kad.kbuckets().next().is_none()
    }

    /// Drops from the routing table the addresses a peer elsewhere could not dial (see
    /// `scope`): Kademlia hands its table out to everyone who asks.
    pub(super) fn keep_dialable(&mut self, peer: PeerId, addresses: &kad::Addresses) {
        let private = self.private_addresses;
        let kad = &mut self.swarm.behaviour_mut().kad;
        for addr in addresses.iter().filter(|a| !dialable(a, private)) {
            debug!(peer = %peer, %addr, "not keeping a private address in the routing table");
            kad.remove_address(&peer, addr);
        }
    }

    /// Publishes our contact record again soon (our addresses changed).
    pub(super) fn contact_changed(&mut self) {
        let soon = Instant::now() + CONTACT_SETTLE;
        self.contact.due = Some(self.contact.due.map_or(soon, |d| d.min(soon)));
    }

    /// Signs our contact record — direct addresses a peer could dial, reserved relays,
    /// mailboxes — and puts it in the DHT.
    pub(super) fn publish_contact(&mut self) {
        self.contact.due = None;
        let me = *self.swarm.local_peer_id();
        let private = self.private_addresses;
        let mut addrs: Vec<Multiaddr> = Vec::new();
        for addr in self
            .swarm
            .external_addresses()
            .chain(self.swarm.listeners())
        {
            let addr = without_peer(addr);
            if !is_relayed(&addr)
                && dialable(&addr, private)
                && !is_unspecified(&addr)
                && !addrs.contains(&addr)
            {
                addrs.push(addr);
            }
        }
        let relays = self
            .relays
            .iter()
            .filter(|r| r.reserved)
            .map(|r| r.addr.clone())
            .collect();
        // Above the last one even if the clock went back: servers keep only a newer record.
        self.contact.seq = now_ms().max(self.contact.seq + 1);
        let record = Contact::new(
            me,
            self.contact.seq,
            addrs,
            relays,
            self.contact.mailboxes.clone(),
        );
        let value = match record.sign(&self.keypair) {
            Ok(value) => value,
            Err(e) => {
                warn!(error = %e, "cannot sign our contact record");
                return;
            }
        };
        let record = Record::new(contact::key(&me), value);
        match self
            .swarm
            .behaviour_mut()
            .kad
            .put_record(record, Quorum::One)
        {
            Ok(_) => debug!(seq = self.contact.seq, "publishing our contact record"),
            Err(e) => warn!(error = ?e, "cannot store our contact record"),
        }
    }

    fn on_contact_published(&mut self, ok: bool) {
        let now = Instant::now();
        if ok {
            self.contact.failures = 0;
            let next = now + CONTACT_REPUBLISH;
            self.contact.due = Some(self.contact.due.map_or(next, |d| d.min(next)));
        } else {
            // No DHT server reachable yet (or none at all): try again, less and less often.
            self.contact.failures += 1;
            let next = now + relay_backoff(self.contact.failures);
            self.contact.due = Some(self.contact.due.map_or(next, |d| d.min(next)));
        }
    }

    /// A peer asks us to store a record (we serve the DHT): only a valid contact record,
    /// newer than the one we hold. Anything else is dropped (kad answers the peer anyway).
    fn on_inbound_put(&mut self, source: PeerId, record: Record) {
        let contact = match Contact::verify_for(&record.key, &record.value, now_ms()) {
            Ok(contact) => contact,
            Err(e) => {
                debug!(peer = %source, error = %e, "refusing a DHT record");
                return;
            }
        };
        let store = self.swarm.behaviour_mut().kad.store_mut();
        if let Some(held) = store.get(&record.key) {
            let held_seq = Contact::verify_for(&held.key, &held.value, u64::MAX).map(|c| c.seq());
            let same = held.value == record.value;
            if let Ok(held_seq) = held_seq
                && (held_seq > contact.seq() || (held_seq == contact.seq() && !same))
            {
                debug!(peer = %source, player = %contact.player(), "refusing an older contact record");
                return;
            }
        }
        if let Err(e) = store.put(record) {
            debug!(peer = %source, error = ?e, "contact record not stored");
        }
    }

    pub(super) fn dht_status(&mut self) -> DhtStatus {
        let kad = &mut self.swarm.behaviour_mut().kad;
        let server = kad.mode() == kad::Mode::Server;
        let routing = kad
            .kbuckets()
            .flat_map(|b| b.iter().map(|e| *e.node.key.preimage()).collect::<Vec<_>>())
            .collect();
        DhtStatus { server, routing }
    }

    /// Looks `target` up: its contact record and, for a request or `find_peer`, the peers
    /// closest to it (a DHT server is found that way even without a record).
    pub(super) fn start_lookup(&mut self, target: PeerId, waiter: Waiter) {
        let kad = &mut self.swarm.behaviour_mut().kad;
        let record_query = kad.get_record(contact::key(&target));
        let mut running = 1;
        if !matches!(waiter, Waiter::Contact(_)) {
            let closest = kad.get_closest_peers(target);
            self.lookup_queries.insert(closest, record_query);
            running += 1;
        }
        self.lookup_queries.insert(record_query, record_query);
        self.lookups.insert(
            record_query,
            Lookup {
                target,
                waiter,
                running,
                contact: None,
                closest: Vec::new(),
            },
        );
    }

    pub(super) fn on_kad(&mut self, event: kad::Event) {
        match event {
            kad::Event::OutboundQueryProgressed {
                id, result, step, ..
            } => match result {
                QueryResult::GetClosestPeers(result) => {
                    let peers = match result {
                        Ok(ok) => ok.peers,
                        Err(kad::GetClosestPeersError::Timeout { peers, .. }) => peers,
                    };
                    self.on_closest(id, peers);
                }
                QueryResult::GetRecord(Ok(GetRecordOk::FoundRecord(found))) => {
                    self.on_found_record(id, &found.record);
                    if step.last {
                        self.on_query_done(id);
                    }
                }
                QueryResult::GetRecord(_) => self.on_query_done(id),
                QueryResult::PutRecord(result) => {
                    debug!(ok = result.is_ok(), "contact record published");
                    self.on_contact_published(result.is_ok());
                }
                _ => {}
            },
            kad::Event::InboundRequest {
                request:
                    kad::InboundRequest::PutRecord {
                        source,
                        record: Some(record),
                        ..
                    },
            } => self.on_inbound_put(source, record),
            kad::Event::RoutingUpdated {
                peer, addresses, ..
            } => {
                debug!(peer = %peer, "kademlia routing updated");
                if !self.private_addresses {
                    self.keep_dialable(peer, &addresses);
                }
            }
            _ => {}
        }
    }

    fn on_found_record(&mut self, query: QueryId, record: &Record) {
        let Some(lookup) = self
            .lookup_queries
            .get(&query)
            .and_then(|l| self.lookups.get_mut(l))
        else {
            return;
        };
        // A server is not trusted with what it returns: the record is checked here too, and
        // the newest valid one kept.
        match Contact::verify_for(&record.key, &record.value, now_ms()) {
            Ok(found)
                if found.player() == lookup.target
                    && lookup
                        .contact
                        .as_ref()
                        .is_none_or(|c| c.seq() < found.seq()) =>
            {
                lookup.contact = Some(found);
            }
            Ok(_) => {}
            Err(e) => debug!(error = %e, "invalid contact record in a lookup"),
        }
    }

    fn on_closest(&mut self, query: QueryId, peers: Vec<kad::PeerInfo>) {
        if let Some(lookup) = self
            .lookup_queries
            .get(&query)
            .and_then(|l| self.lookups.get_mut(l))
        {
            let target = lookup.target;
            for info in peers.into_iter().filter(|i| i.peer_id == target) {
                lookup
                    .closest
                    .extend(info.addrs.into_iter().take(MAX_ADDRS_PER_PEER));
            }
        }
        self.on_query_done(query);
    }

    fn on_query_done(&mut self, query: QueryId) {
        let Some(lookup_id) = self.lookup_queries.remove(&query) else {
            return;
        };
        let Some(lookup) = self.lookups.get_mut(&lookup_id) else {
            return;
        };
        lookup.running = lookup.running.saturating_sub(1);
        if lookup.running > 0 {
            return;
        }
        if let Some(lookup) = self.lookups.remove(&lookup_id) {
            self.finish_lookup(lookup);
        }
    }

    /// Remembers what the lookup found — the record's direct addresses first, then circuits
    /// through its relays, then what the closest peers said — and answers its waiter.
    fn finish_lookup(&mut self, lookup: Lookup) {
        let Lookup {
            target,
            waiter,
            contact,
            closest,
            ..
        } = lookup;
        let private = self.private_addresses;
        if let Some(contact) = &contact {
            debug!(peer = %target, seq = contact.seq(), "contact record found");
            let circuits = contact.relays().iter().filter_map(|relay| {
                relay
                    .clone()
                    .with(Protocol::P2pCircuit)
                    .with_p2p(target)
                    .ok()
                    .map(|a| without_peer(&a))
            });
            let found: Vec<Multiaddr> = contact
                .addrs()
                .iter()
                .cloned()
                .chain(circuits)
                .filter(|a| dialable(a, private))
                .collect();
            for addr in found {
                self.remember(target, addr);
            }
        }
        for addr in closest.iter().filter(|a| dialable(a, private)) {
            self.remember(target, without_peer(addr));
        }
        let addrs = self.known_addresses(&target);
        match waiter {
            Waiter::Find(reply) => {
                let _ = reply.send(addrs);
            }
            Waiter::Contact(reply) => {
                let _ = reply.send(contact);
            }
            Waiter::Request { request, reply } => {
                if addrs.is_empty() && !self.swarm.is_connected(&target) {
                    let _ = reply.send(Err(NetworkError::NotConnected(target)));
                } else {
                    self.send_request(target, request, reply, false);
                }
            }
        }
    }
}
