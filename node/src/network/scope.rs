//! Which addresses a remote peer could dial: the filter between what peers tell us (identify,
//! Kademlia, contact records) and what we hand on to others (the routing table, our own
//! contact record). Plain functions, tested alone.
//!
//! A loopback, private, link-local or shared (CGNAT) address names a host only inside one
//! network. Handed to a peer elsewhere it is useless at best, and at worst it sends that
//! peer's dials to whatever machine holds the same address on *its* network; in a Kademlia
//! routing table it is passed on to everyone who asks. Such addresses are kept only by a node
//! that lives on such a network itself (see [`NetworkConfig::private_addresses`]): the tests
//! on 127.0.0.1, a club room whose mailbox is at 192.168.….
//!
//! [`NetworkConfig::private_addresses`]: super::NetworkConfig::private_addresses

use std::net::{Ipv4Addr, Ipv6Addr};

use libp2p::Multiaddr;
use libp2p::multiaddr::Protocol;

use super::NetworkConfig;

/// Whether `addr` names a host only inside one network (loopback, private, link-local,
/// CGNAT, unspecified). DNS names and relayed addresses are judged by their first part: a
/// name is assumed public, a circuit through a private relay is private.
pub(super) fn is_private(addr: &Multiaddr) -> bool {
    match addr.iter().next() {
        Some(Protocol::Ip4(ip)) => private_v4(ip),
        Some(Protocol::Ip6(ip)) => private_v6(ip),
        _ => false,
    }
}

fn private_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        // 100.64.0.0/10: carrier-grade NAT, the other side of many home connections.
        || (a == 100 && (64..128).contains(&b))
}

fn private_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    ip.is_loopback()
        || ip.is_unspecified()
        // fc00::/7 unique local, fe80::/10 link-local.
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || ip.to_ipv4_mapped().is_some_and(private_v4)
}

pub(super) fn is_unspecified(addr: &Multiaddr) -> bool {
    match addr.iter().next() {
        Some(Protocol::Ip4(ip)) => ip.is_unspecified(),
        Some(Protocol::Ip6(ip)) => ip.is_unspecified(),
        _ => false,
    }
}

/// Whether a peer elsewhere could dial `addr`, for a node that keeps private addresses or not.
pub(super) fn dialable(addr: &Multiaddr, private_addresses: bool) -> bool {
    private_addresses || !is_private(addr)
}

/// Whether the node keeps private addresses: as configured, else whether it lives on a
/// private network itself — one of its own configured addresses (listen, external,
/// bootstrap, relays, mailboxes) is private, or it looks for peers in the room (mDNS).
pub(super) fn keeps_private(config: &NetworkConfig) -> bool {
    config.private_addresses.unwrap_or_else(|| {
        config.mdns
            // Listening on 0.0.0.0 or :: is "every interface", not a network of its own.
            || config.listen.iter().any(|a| is_private(a) && !is_unspecified(a))
            || config
                .external
                .iter()
                .chain(&config.bootstrap)
                .chain(&config.relays)
                .chain(&config.mailboxes)
                .any(is_private)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> Multiaddr {
        s.parse().unwrap()
    }

    #[test]
    fn home_and_club_networks_are_private_the_internet_is_not() {
        for a in [
            "/ip4/127.0.0.1/tcp/1",
            "/ip4/192.168.1.10/tcp/4848",
            "/ip4/10.0.0.1/udp/1/quic-v1",
            "/ip4/172.16.5.4/tcp/1",
            "/ip4/169.254.1.1/tcp/1",
            "/ip4/100.64.0.1/tcp/1",
            "/ip4/0.0.0.0/tcp/1",
            "/ip6/::1/tcp/1",
            "/ip6/fe80::1/tcp/1",
            "/ip6/fd00::1/tcp/1",
            "/ip4/192.168.1.10/tcp/1/p2p-circuit",
        ] {
            assert!(is_private(&addr(a)), "{a}");
            assert!(!dialable(&addr(a), false), "{a}");
            assert!(dialable(&addr(a), true), "{a}");
        }
        for a in [
            "/ip4/198.51.100.1/tcp/4848",
            "/ip4/100.128.0.1/tcp/1",
            "/ip6/2001:db8::1/tcp/1",
            "/dns4/club.example.org/tcp/4848",
        ] {
            assert!(!is_private(&addr(a)), "{a}");
            assert!(dialable(&addr(a), false), "{a}");
        }
    }

    #[test]
    fn a_node_configured_on_a_private_network_keeps_private_addresses() {
        let key = libp2p::identity::Keypair::generate_ed25519();
        let mut config = NetworkConfig::new(key);
        assert!(
            !keeps_private(&config),
            "0.0.0.0 with nothing else is the internet"
        );
        config.mailboxes = vec![addr("/ip4/192.168.1.10/tcp/4848")];
        assert!(keeps_private(&config));
        config.private_addresses = Some(false);
        assert!(!keeps_private(&config));
        config.mailboxes.clear();
        config.private_addresses = None;
        config.listen = vec![addr("/ip4/127.0.0.1/tcp/0")];
        assert!(keeps_private(&config));
    }
}
