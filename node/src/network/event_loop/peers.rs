//! What the event loop knows of peers: our own dialable addresses, the addresses remembered
//! for others (bounded), the block list, and strikes, which end in blocking a peer.

use libp2p::core::ConnectedPoint;
use libp2p::{Multiaddr, PeerId};
use tracing::warn;

use super::EventLoop;
use crate::network::config::{MAX_ADDRS_PER_PEER, MAX_REMEMBERED_PEERS};
use crate::network::relay::with_peer;

impl EventLoop {
    pub(super) fn listen_addrs(&self) -> Vec<Multiaddr> {
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

    pub(super) fn is_blocked(&self, peer: &PeerId) -> bool {
        self.swarm
            .behaviour()
            .blocked
            .blocked_peers()
            .contains(peer)
    }

    /// Addresses we could dial `peer` at: remembered ones, Kademlia's, and those of
    /// connections we dialed.
    pub(super) fn known_addresses(&mut self, peer: &PeerId) -> Vec<Multiaddr> {
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
    pub(super) fn remember(&mut self, peer: PeerId, addr: Multiaddr) {
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

    pub(super) fn strike(&mut self, peer: PeerId, reason: &str) {
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
}
