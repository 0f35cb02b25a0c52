//! When each connected peer last did something this node cares about, so that the event
//! loop can close idle connections and, above the connection cap, the least recently used
//! one (issue 30: "idle connections closed, least-recently-used eviction above a cap").
//!
//! What counts as activity: a request either way and its answer (a delivery, a sync, a
//! league or profile exchange), a message read off a delivery stream, a gossip message the
//! service accepted, a circuit through our relay. Identify, ping, Kademlia and gossipsub's
//! own heartbeats do not: they flow on every connection (Kademlia's handler keeps its
//! connection alive while a query runs, which is enough for it), and gossipsub keeps a
//! connection to a mesh peer open for ever (`connection_keep_alive` is true while the peer
//! is in a mesh), so without this a club mailbox would hold every league member it met.
//!
//! Plain state, tested alone: the event loop decides which peers are kept whatever their
//! activity (see `EventLoop::kept`) and closes the connections.

use std::collections::HashMap;
use std::time::Duration;

use libp2p::PeerId;
use tokio::time::Instant;

/// Last activity per connected peer.
#[derive(Default)]
pub(super) struct Activity {
    last: HashMap<PeerId, Instant>,
}

impl Activity {
    /// Notes activity of `peer` at `now` (the caller notes only connected peers).
    pub(super) fn touch(&mut self, peer: PeerId, now: Instant) {
        self.last.insert(peer, now);
    }

    /// Forgets `peer` (its last connection closed).
    pub(super) fn forget(&mut self, peer: &PeerId) {
        self.last.remove(peer);
    }

    /// The peers idle for `timeout` or more at `now`, apart from those `kept`.
    pub(super) fn idle(
        &self,
        now: Instant,
        timeout: Duration,
        kept: impl Fn(&PeerId) -> bool,
    ) -> Vec<PeerId> {
        self.last
            .iter()
            .filter(|(p, at)| now.saturating_duration_since(**at) >= timeout && !kept(p))
            .map(|(p, _)| *p)
            .collect()
    }

    /// The peer with the oldest activity, apart from those `kept`.
    pub(super) fn least_recent(&self, kept: impl Fn(&PeerId) -> bool) -> Option<PeerId> {
        self.last
            .iter()
            .filter(|(p, _)| !kept(p))
            .min_by_key(|(_, at)| **at)
            .map(|(p, _)| *p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_peers_are_those_quiet_for_the_timeout_apart_from_the_kept() {
        let mut a = Activity::default();
        let t0 = Instant::now();
        let (quiet, busy, kept) = (PeerId::random(), PeerId::random(), PeerId::random());
        a.touch(quiet, t0);
        a.touch(kept, t0);
        a.touch(busy, t0);
        let minute = Duration::from_secs(60);
        a.touch(busy, t0 + minute);
        assert!(a.idle(t0 + minute / 2, minute, |_| false).is_empty());
        assert_eq!(a.idle(t0 + minute, minute, |p| *p == kept), vec![quiet]);
        a.forget(&quiet);
        assert!(a.idle(t0 + minute, minute, |p| *p == kept).is_empty());
    }

    #[test]
    fn the_least_recent_unkept_peer_is_chosen() {
        let mut a = Activity::default();
        let t0 = Instant::now();
        let peers: Vec<PeerId> = (0..4).map(|_| PeerId::random()).collect();
        for (i, p) in peers.iter().enumerate() {
            a.touch(*p, t0 + Duration::from_secs(i as u64));
        }
        assert_eq!(a.least_recent(|_| false), Some(peers[0]));
        assert_eq!(a.least_recent(|p| *p == peers[0]), Some(peers[1]));
        a.touch(peers[1], t0 + Duration::from_secs(10));
        assert_eq!(a.least_recent(|p| *p == peers[0]), Some(peers[2]));
        assert_eq!(a.least_recent(|_| true), None);
    }
}
