//! Connections per address: peer ids are free, addresses are not. Without this, one machine
//! with 256 fresh keys fills every connection slot and locks a player's opponent out.
//!
//! Inbound connections are counted per IP address and per network (/24 for IPv4, /48 for
//! IPv6); past [`MAX_PER_IP`] or [`MAX_PER_NETWORK`] a new one is refused once its peer id is
//! known. Reserved peers — the player's opponents, league organisers and members, arbiters
//! and mailboxes, as the service names them — are never refused here, and bypass the global
//! limits of `connection_limits` too (see [`super::limits`]), so strangers cannot starve them.

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::net::IpAddr;
use std::task::{Context, Poll};

use libp2p::PeerId;
use libp2p::core::transport::PortUse;
use libp2p::core::{Endpoint, Multiaddr, multiaddr::Protocol};
use libp2p::swarm::{
    ConnectionClosed, ConnectionDenied, ConnectionId, FromSwarm, NetworkBehaviour, THandler,
    THandlerInEvent, THandlerOutEvent, ToSwarm, dummy,
};

/// Inbound connections from one IP address, by default (`NetworkConfig::max_inbound_per_ip`).
pub const MAX_PER_IP: usize = 32;
/// Inbound connections from one /24 (IPv4) or /48 (IPv6) network: twice the per-address
/// limit (by default 64).
pub const MAX_PER_NETWORK: usize = 2 * MAX_PER_IP;

/// The network an address belongs to, for [`MAX_PER_NETWORK`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Network {
    V4([u8; 3]),
    V6([u8; 6]),
}

fn network_of(ip: IpAddr) -> Network {
    match ip {
        IpAddr::V4(a) => {
            let o = a.octets();
            Network::V4([o[0], o[1], o[2]])
        }
        IpAddr::V6(a) => {
            let o = a.octets();
            Network::V6([o[0], o[1], o[2], o[3], o[4], o[5]])
        }
    }
}

/// The IP address of a connection's remote end, if it has one (a relayed connection's is the
/// relay's, which is counted like any other).
fn ip_of(addr: &Multiaddr) -> Option<IpAddr> {
    addr.iter().find_map(|p| match p {
        Protocol::Ip4(a) => Some(IpAddr::V4(a)),
        Protocol::Ip6(a) => Some(IpAddr::V6(a)),
        _ => None,
    })
}

/// Why an inbound connection was refused.
#[derive(Debug, thiserror::Error)]
#[error("{what}: {count} inbound connections already")]
pub struct TooManyFromAddress {
    what: &'static str,
    count: usize,
}

pub struct Behaviour {
    max_per_ip: usize,
    per_ip: HashMap<IpAddr, usize>,
    per_network: HashMap<Network, usize>,
    counted: HashMap<ConnectionId, IpAddr>,
    reserved: HashSet<PeerId>,
}

impl Behaviour {
    /// Limits of `per_ip` connections per address and twice that per network.
    pub fn new(per_ip: usize) -> Behaviour {
        Behaviour {
            max_per_ip: per_ip,
            per_ip: HashMap::new(),
            per_network: HashMap::new(),
            counted: HashMap::new(),
            reserved: HashSet::new(),
        }
    }

    /// Names a peer whose connections are never refused for their address.
    pub fn reserve(&mut self, peer: PeerId) {
        self.reserved.insert(peer);
    }

    /// Whether `peer` was named by [`Behaviour::reserve`].
    pub fn is_reserved(&self, peer: &PeerId) -> bool {
        self.reserved.contains(peer)
    }

    fn admit(
        &mut self,
        id: ConnectionId,
        peer: &PeerId,
        ip: IpAddr,
    ) -> Result<(), ConnectionDenied> {
        if !self.reserved.contains(peer) {
            let on_ip = self.per_ip.get(&ip).copied().unwrap_or(0);
            if on_ip >= self.max_per_ip {
                return Err(ConnectionDenied::new(TooManyFromAddress {
                    what: "this address",
                    count: on_ip,
                }));
            }
            let on_net = self.per_network.get(&network_of(ip)).copied().unwrap_or(0);
            if on_net >= 2 * self.max_per_ip {
                return Err(ConnectionDenied::new(TooManyFromAddress {
                    what: "this network",
                    count: on_net,
                }));
            }
        }
        *self.per_ip.entry(ip).or_default() += 1;
        *self.per_network.entry(network_of(ip)).or_default() += 1;
        self.counted.insert(id, ip);
        Ok(())
    }

    fn release(&mut self, id: ConnectionId) {
        let Some(ip) = self.counted.remove(&id) else {
            return;
        };
        for n in [
            self.per_ip.get_mut(&ip),
            self.per_network.get_mut(&network_of(ip)),
        ]
        .into_iter()
        .flatten()
        {
            *n = n.saturating_sub(1);
        }
        self.per_ip.retain(|_, n| *n > 0);
        self.per_network.retain(|_, n| *n > 0);
    }
}

impl NetworkBehaviour for Behaviour {
    type ConnectionHandler = dummy::ConnectionHandler;
    type ToSwarm = Infallible;

    fn handle_established_inbound_connection(
        &mut self,
        connection_id: ConnectionId,
        peer: PeerId,
        _local_addr: &Multiaddr,
        remote_addr: &Multiaddr,
    ) -> Result<THandler<Self>, ConnectionDenied> {
        if let Some(ip) = ip_of(remote_addr) {
            self.admit(connection_id, &peer, ip)?;
        }
        Ok(dummy::ConnectionHandler)
    }

    fn handle_established_outbound_connection(
        &mut self,
        _connection_id: ConnectionId,
        _peer: PeerId,
        _addr: &Multiaddr,
        _role_override: Endpoint,
        _port_use: PortUse,
    ) -> Result<THandler<Self>, ConnectionDenied> {
        Ok(dummy::ConnectionHandler)
    }

    fn on_swarm_event(&mut self, event: FromSwarm) {
        if let FromSwarm::ConnectionClosed(ConnectionClosed { connection_id, .. }) = event {
            self.release(connection_id);
        }
    }

    fn on_connection_handler_event(
        &mut self,
        _peer: PeerId,
        _connection: ConnectionId,
        event: THandlerOutEvent<Self>,
    ) {
        match event {}
    }

    fn poll(&mut self, _: &mut Context<'_>) -> Poll<ToSwarm<Self::ToSwarm, THandlerInEvent<Self>>> {
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_address_and_one_network_are_capped_but_reserved_peers_are_not() {
        let mut b = Behaviour::new(MAX_PER_IP);
        let ip: IpAddr = "203.0.113.7".parse().unwrap();
        let neighbour: IpAddr = "203.0.113.8".parse().unwrap();
        let far: IpAddr = "198.51.100.1".parse().unwrap();
        let mut next = 0usize;
        let mut id = || {
            next += 1;
            ConnectionId::new_unchecked(next)
        };
        for _ in 0..MAX_PER_IP {
            b.admit(id(), &PeerId::random(), ip).unwrap();
        }
        assert!(b.admit(id(), &PeerId::random(), ip).is_err());
        for _ in MAX_PER_IP..MAX_PER_NETWORK {
            b.admit(id(), &PeerId::random(), neighbour).unwrap();
        }
        assert!(b.admit(id(), &PeerId::random(), neighbour).is_err());
        b.admit(id(), &PeerId::random(), far).unwrap();
        let opponent = PeerId::random();
        b.reserve(opponent);
        b.admit(id(), &opponent, ip).unwrap();
        // Closed connections free their places.
        b.release(ConnectionId::new_unchecked(1));
        b.release(ConnectionId::new_unchecked(2));
        let third: IpAddr = "203.0.113.9".parse().unwrap();
        b.admit(id(), &PeerId::random(), third).unwrap();
    }
}
