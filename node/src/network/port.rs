//! The default listen port: one fixed number for TCP and QUIC on all interfaces, so that a
//! player's address stays the same from one start to the next (a forwarded port, an invite,
//! an opponent's memory stay valid). When that port is taken (a second node on the machine,
//! another program) the node takes a random free one instead and says so.
//!
//! The probe binds plain sockets: libp2p's TCP listener sets `SO_REUSEPORT`, so two nodes
//! would both "succeed" in listening on the same TCP port and share its connections; a plain
//! bind fails as soon as anyone holds the port.

use std::net::{Ipv4Addr, SocketAddr, TcpListener, UdpSocket};

use libp2p::Multiaddr;
use libp2p::multiaddr::Protocol;
use tracing::warn;

/// The default port of a sobre node, TCP and UDP (QUIC). Not in the system's list of
/// well-known services; chosen to be easy to type into a router's port forwarding.
pub const DEFAULT_PORT: u16 = 4848;

/// Random ports tried for TCP and QUIC together before taking two unrelated ones.
const SAME_PORT_TRIES: usize = 16;

/// The listen addresses when none are configured: [`DEFAULT_PORT`] on all interfaces, TCP
/// and QUIC; another port (the same number for both when one is found) with a warning when
/// it is taken.
pub fn default_listen() -> Vec<Multiaddr> {
    listen_on_port(DEFAULT_PORT)
}

/// [`default_listen`] for a given preferred port (tests use a port of their own).
pub fn listen_on_port(preferred: u16) -> Vec<Multiaddr> {
    if port_free(preferred) {
        return addrs(preferred, preferred);
    }
    let (tcp, udp) = random_ports();
    warn!(
        port = preferred,
        tcp,
        udp,
        "the default port is taken (another node or program uses it): listening on a random port instead; give --listen to choose one"
    );
    addrs(tcp, udp)
}

/// Whether nobody holds `port`, neither for TCP nor for UDP, on any interface.
pub fn port_free(port: u16) -> bool {
    let any = SocketAddr::from((Ipv4Addr::UNSPECIFIED, port));
    TcpListener::bind(any).is_ok() && UdpSocket::bind(any).is_ok()
}

/// A free port number for TCP and UDP alike if one turns up, else 0 for both (the OS picks
/// each at listen time).
fn random_ports() -> (u16, u16) {
    for _ in 0..SAME_PORT_TRIES {
        let Ok(udp) = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)) else {
            break;
        };
        let Ok(port) = udp.local_addr().map(|a| a.port()) else {
            break;
        };
        if TcpListener::bind((Ipv4Addr::UNSPECIFIED, port)).is_ok() {
            return (port, port);
        }
    }
    (0, 0)
}

fn addrs(tcp: u16, udp: u16) -> Vec<Multiaddr> {
    let ip = Protocol::Ip4(Ipv4Addr::UNSPECIFIED);
    vec![
        Multiaddr::empty().with(ip.clone()).with(Protocol::Tcp(tcp)),
        Multiaddr::empty()
            .with(ip)
            .with(Protocol::Udp(udp))
            .with(Protocol::QuicV1),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_port_is_used_for_tcp_and_quic() {
        // A port just freed by the OS is almost surely still free.
        let port = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        if !port_free(port) {
            return;
        }
        let got = listen_on_port(port);
        assert_eq!(got, addrs(port, port));
    }

    #[test]
    fn a_taken_port_falls_back_to_another() {
        let held = TcpListener::bind((Ipv4Addr::UNSPECIFIED, 0)).unwrap();
        let port = held.local_addr().unwrap().port();
        assert!(!port_free(port));
        let got = listen_on_port(port);
        assert_eq!(got.len(), 2);
        for a in &got {
            assert!(
                !a.iter()
                    .any(|p| matches!(p, Protocol::Tcp(x) | Protocol::Udp(x) if x == port)),
                "{a} still uses the taken port"
            );
        }
    }
}
