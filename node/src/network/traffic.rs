//! What a node sends and receives, counted where it happens: sobre's own messages (each
//! request and answer frame of `/sobre/deliver/1`, `/sobre/sync/1` and the delivery streams,
//! and each gossip message) with their bytes, and the bytes on the network under them
//! (Noise, Yamux, TCP or QUIC payload, identify, ping, Kademlia: everything), from libp2p's
//! own bandwidth metrics. `status` reports them; the scale benchmark divides them by the
//! moves played to give messages and bytes per move by role (docs/scale.md).

use libp2p::metrics::Registry;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// A node's traffic since it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrafficCounts {
    /// Request and answer frames written, and their bytes (length prefix included).
    pub messages_sent: u64,
    pub message_bytes_sent: u64,
    /// Frames read, and their bytes.
    pub messages_received: u64,
    pub message_bytes_received: u64,
    /// Gossip messages this node published, and their payload bytes.
    pub gossip_sent: u64,
    pub gossip_bytes_sent: u64,
    /// Gossip messages that reached this node's service, and their payload bytes.
    pub gossip_received: u64,
    pub gossip_bytes_received: u64,
    /// Bytes on the network, all protocols and their framing and encryption included.
    pub network_bytes_sent: u64,
    pub network_bytes_received: u64,
}

/// The counters, shared by the codec, the delivery streams and the event loop.
#[derive(Debug, Default)]
pub struct Traffic {
    messages_sent: AtomicU64,
    message_bytes_sent: AtomicU64,
    messages_received: AtomicU64,
    message_bytes_received: AtomicU64,
    gossip_sent: AtomicU64,
    gossip_bytes_sent: AtomicU64,
    gossip_received: AtomicU64,
    gossip_bytes_received: AtomicU64,
}

fn add(counter: &AtomicU64, n: usize) {
    counter.fetch_add(n as u64, Ordering::Relaxed);
}

impl Traffic {
    /// A frame of `bytes` (prefix included) written.
    pub(super) fn frame_sent(&self, bytes: usize) {
        add(&self.messages_sent, 1);
        add(&self.message_bytes_sent, bytes);
    }

    /// A frame of `bytes` (prefix included) read.
    pub(super) fn frame_received(&self, bytes: usize) {
        add(&self.messages_received, 1);
        add(&self.message_bytes_received, bytes);
    }

    pub(super) fn gossip_sent(&self, bytes: usize) {
        add(&self.gossip_sent, 1);
        add(&self.gossip_bytes_sent, bytes);
    }

    pub(super) fn gossip_received(&self, bytes: usize) {
        add(&self.gossip_received, 1);
        add(&self.gossip_bytes_received, bytes);
    }

    /// The counts now, with the network bytes `registry`'s bandwidth metrics hold.
    pub(super) fn counts(&self, registry: &Registry) -> TrafficCounts {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let (network_bytes_sent, network_bytes_received) = network_bytes(registry);
        TrafficCounts {
            messages_sent: get(&self.messages_sent),
            message_bytes_sent: get(&self.message_bytes_sent),
            messages_received: get(&self.messages_received),
            message_bytes_received: get(&self.message_bytes_received),
            gossip_sent: get(&self.gossip_sent),
            gossip_bytes_sent: get(&self.gossip_bytes_sent),
            gossip_received: get(&self.gossip_received),
            gossip_bytes_received: get(&self.gossip_bytes_received),
            network_bytes_sent,
            network_bytes_received,
        }
    }
}

/// Bytes sent and received over every transport, summed from the bandwidth family libp2p
/// registers (`libp2p_bandwidth_bytes_total`, one counter per transport stack and
/// direction). prometheus-client gives no typed read of a family it owns, so the registry is
/// read in its text exposition format, the form it is built to be read in.
fn network_bytes(registry: &Registry) -> (u64, u64) {
    let mut text = String::new();
    if prometheus_client::encoding::text::encode(&mut text, registry).is_err() {
        return (0, 0);
    }
    let (mut sent, mut received) = (0u64, 0u64);
    for line in text.lines() {
        if !line.starts_with("libp2p_bandwidth_bytes_total{") {
            continue;
        }
        let Some(value) = line.rsplit(' ').next().and_then(|v| v.parse::<f64>().ok()) else {
            continue;
        };
        // Counters are exact integers far below 2^53.
        let value = value as u64;
        if line.contains("direction=\"Outbound\"") {
            sent = sent.saturating_add(value);
        } else if line.contains("direction=\"Inbound\"") {
            received = received.saturating_add(value);
        }
    }
    (sent, received)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_and_gossip_are_counted_apart() {
        let t = Traffic::default();
        t.frame_sent(10);
        t.frame_sent(20);
        t.frame_received(7);
        t.gossip_sent(100);
        t.gossip_received(3);
        let c = t.counts(&Registry::default());
        assert_eq!((c.messages_sent, c.message_bytes_sent), (2, 30));
        assert_eq!((c.messages_received, c.message_bytes_received), (1, 7));
        assert_eq!((c.gossip_sent, c.gossip_bytes_sent), (1, 100));
        assert_eq!((c.gossip_received, c.gossip_bytes_received), (1, 3));
        assert_eq!((c.network_bytes_sent, c.network_bytes_received), (0, 0));
    }
}
