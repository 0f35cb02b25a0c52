//! Relays and circuit addresses: the state of our reservation on each configured relay, the
//! backoff between attempts, and the multiaddr helpers that read `/p2p/<id>` and
//! `/p2p-circuit` out of an address. Apart from the event loop because none of it touches
//! the swarm: plain data and functions, tested alone.

use std::time::Duration;

use libp2p::core::transport::ListenerId;
use libp2p::multiaddr::Protocol;
use libp2p::{Multiaddr, PeerId};
use rand::Rng;
use tokio::time::Instant;

/// Relay reservation retry backoff.
const RELAY_RETRY_MIN: Duration = Duration::from_secs(2);
const RELAY_RETRY_MAX: Duration = Duration::from_secs(300);

/// A relay of [`NetworkConfig::relays`](super::NetworkConfig::relays): our listener on it
/// (the reservation) and when to try again after it failed.
pub(super) struct RelayState {
    /// `…/p2p/<relay>`.
    pub(super) addr: Multiaddr,
    pub(super) peer: PeerId,
    pub(super) listener: Option<ListenerId>,
    pub(super) failures: u32,
    pub(super) retry_at: Option<Instant>,
    /// The relay accepted our reservation and its listener is open: we are reachable
    /// through it (`sobre node status`).
    pub(super) reserved: bool,
}

/// How long to wait before reserving on a relay again after `failures` failures in a row:
/// doubling from [`RELAY_RETRY_MIN`] up to [`RELAY_RETRY_MAX`], plus up to a quarter more.
pub(super) fn relay_backoff(failures: u32) -> Duration {
    let exp = RELAY_RETRY_MIN.saturating_mul(1u32 << failures.min(8));
    let base = exp.min(RELAY_RETRY_MAX);
    // Jitter so that many nodes cut off by one relay restart do not return in lockstep.
    let jitter_ms = rand::thread_rng().gen_range(0..=base.as_millis() as u64 / 4);
    base + Duration::from_millis(jitter_ms)
}

/// The peer id of a trailing `/p2p/<id>` (for a circuit address, the target, not the relay).
pub(super) fn last_peer(addr: &Multiaddr) -> Option<PeerId> {
    match addr.iter().last() {
        Some(Protocol::P2p(peer)) => Some(peer),
        _ => None,
    }
}

/// `addr` without a trailing `/p2p/<id>`.
pub(super) fn without_peer(addr: &Multiaddr) -> Multiaddr {
    let mut addr = addr.clone();
    if matches!(addr.iter().last(), Some(Protocol::P2p(_))) {
        addr.pop();
    }
    addr
}

/// `addr` ending in `/p2p/<peer>`.
pub(super) fn with_peer(addr: Multiaddr, peer: PeerId) -> Multiaddr {
    addr.with_p2p(peer).unwrap_or_else(|addr| addr)
}

/// For `<relay addr>/p2p/<relay>/p2p-circuit/…`: the relay and its address.
pub(super) fn relay_of(addr: &Multiaddr) -> Option<(PeerId, Multiaddr)> {
    let mut relay_addr = Multiaddr::empty();
    for p in addr.iter() {
        if matches!(p, Protocol::P2pCircuit) {
            return last_peer(&relay_addr).map(|peer| (peer, relay_addr));
        }
        relay_addr.push(p);
    }
    None
}

/// Whether `addr` goes through a relay (it has a `/p2p-circuit`).
pub(super) fn is_relayed(addr: &Multiaddr) -> bool {
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
