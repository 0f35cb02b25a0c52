//! The event queue between the network task and the service is bounded in bytes as well as in
//! messages: 1,024 slots of up to 4 MiB each would let strangers make the node hold 4 GiB.
//! Every inbound request and gossip message carries a [`QueueTicket`] for its size, taken
//! when it is queued and given back when the service drops it; past [`MAX_QUEUED_BYTES`] a
//! request is refused as `busy` and gossip is ignored (not blamed on the sender).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The bytes of requests and gossip that may wait for the service at once.
pub const MAX_QUEUED_BYTES: usize = 64 * 1024 * 1024;

/// A message's share of [`MAX_QUEUED_BYTES`], given back when dropped.
#[derive(Debug)]
pub struct QueueTicket {
    bytes: usize,
    queued: Option<Arc<AtomicUsize>>,
}

impl QueueTicket {
    /// A ticket that counts nothing (for events made outside the network task, in tests).
    pub fn none() -> QueueTicket {
        QueueTicket {
            bytes: 0,
            queued: None,
        }
    }

    /// Takes `bytes` from `queued`, unless that would pass [`MAX_QUEUED_BYTES`].
    pub(super) fn take(queued: &Arc<AtomicUsize>, bytes: usize) -> Option<QueueTicket> {
        let before = queued.fetch_add(bytes, Ordering::AcqRel);
        if before.saturating_add(bytes) > MAX_QUEUED_BYTES {
            queued.fetch_sub(bytes, Ordering::AcqRel);
            return None;
        }
        Some(QueueTicket {
            bytes,
            queued: Some(Arc::clone(queued)),
        })
    }
}

impl Drop for QueueTicket {
    fn drop(&mut self) {
        if let Some(q) = &self.queued {
            q.fetch_sub(self.bytes, Ordering::AcqRel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tickets_are_refused_past_the_limit_and_given_back_when_dropped() {
        let q = Arc::new(AtomicUsize::new(0));
        let a = QueueTicket::take(&q, MAX_QUEUED_BYTES - 10).expect("room");
        assert!(QueueTicket::take(&q, 11).is_none());
        let b = QueueTicket::take(&q, 10).expect("exactly the limit");
        assert_eq!(q.load(Ordering::Acquire), MAX_QUEUED_BYTES);
        drop(a);
        drop(b);
        assert_eq!(q.load(Ordering::Acquire), 0);
    }
}
