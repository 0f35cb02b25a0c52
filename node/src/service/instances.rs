//! The node's instance state (see `crate::instance`): its own record, what it heard of other
//! nodes' records, whom and when it sends its heartbeat, and the instance it yielded to.
//! Sending and judging records is `instance`'s.

use crate::instance::{Book, Instance, InstanceError, OtherInstance, Own, Verdict, judge};
use libp2p::PeerId;
use sobre_core::record::Keypair;

pub(super) struct Instances {
    own: Own,
    book: Book,
    last_heartbeat_ms: u64,
    /// Another instance started earlier: the node stops with it.
    yielded: Option<OtherInstance>,
    /// The bootstrap peers and mailboxes of the configuration: heartbeats go to them (and
    /// to the opponents of unfinished games), never to every connected peer.
    heartbeat_to: Vec<PeerId>,
    /// The peers that answered the check at start: the first connection to each, the one
    /// that carried that check, is not sent the record again.
    told_at_start: std::collections::HashSet<PeerId>,
}

impl Instances {
    pub(super) fn new(own: Own) -> Instances {
        Instances {
            last_heartbeat_ms: own.record.started_ms,
            own,
            book: Book::default(),
            yielded: None,
            heartbeat_to: Vec::new(),
            told_at_start: std::collections::HashSet::new(),
        }
    }

    /// The peers that answered the check at start (see `instance::check_at_start`).
    pub(super) fn told_at_start(&mut self, peers: Vec<PeerId>) {
        self.told_at_start = peers.into_iter().collect();
    }

    /// Whether `peer`'s connection is the one that carried the check at start (its first
    /// since): true once, then every connection of `peer` gets the record.
    pub(super) fn first_since_start(&mut self, peer: &PeerId) -> bool {
        self.told_at_start.remove(peer)
    }

    pub(super) fn own(&self) -> &Own {
        &self.own
    }

    /// This node's record signed now (`ended` on a clean stop).
    ///
    /// # Errors
    /// As [`Own::signed`].
    pub(super) fn signed(
        &self,
        key: &Keypair,
        now_ms: u64,
        ended: bool,
    ) -> Result<Vec<u8>, InstanceError> {
        self.own.signed(key, now_ms, ended)
    }

    /// The configured peers (bootstrap, mailboxes) that get every heartbeat.
    pub(super) fn send_heartbeats_to(&mut self, peers: Vec<PeerId>) {
        self.heartbeat_to = peers;
    }

    pub(super) fn gets_heartbeats(&self, peer: &PeerId) -> bool {
        self.heartbeat_to.contains(peer)
    }

    /// Whether a heartbeat is due at `now` (noted if so): every
    /// [`crate::instance::HEARTBEAT_MS`].
    pub(super) fn heartbeat_due(&mut self, now: u64) -> bool {
        if now < self.last_heartbeat_ms + crate::instance::HEARTBEAT_MS {
            return false;
        }
        self.last_heartbeat_ms = now;
        true
    }

    /// How another record of this key compares with this node's (see [`judge`]); a yield
    /// is kept, for the node to stop with it.
    pub(super) fn judge(&mut self, other: &Instance, now: u64) -> Verdict {
        let verdict = judge(&self.own, other, now);
        if let Verdict::Yield(o) = &verdict {
            self.yielded = Some(o.clone());
        }
        verdict
    }

    /// The instance this node yielded to, taken as it stops.
    pub(super) fn take_yielded(&mut self) -> Option<OtherInstance> {
        self.yielded.take()
    }

    /// Keeps a peer's verified record; the player's other live records (see [`Book::note`]).
    pub(super) fn note(&mut self, record: Instance, bytes: Vec<u8>, now: u64) -> Vec<Vec<u8>> {
        self.book.note(record, bytes, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(started_ms: u64) -> Own {
        let dir = std::env::temp_dir().join(format!("sobre-instances-{}", rand::random::<u64>()));
        std::fs::create_dir_all(&dir).expect("a temporary home");
        let key = Keypair::from_secret_bytes(&[1; 32]);
        let own = Own::start(&dir, key.player_id(), started_ms, Vec::new()).expect("started");
        let _ = std::fs::remove_dir_all(&dir);
        own
    }

    #[test]
    fn a_peer_told_at_start_is_spared_the_record_on_that_connection_only() {
        let mut i = Instances::new(own(1_000));
        let (told, silent) = (PeerId::random(), PeerId::random());
        i.told_at_start(vec![told]);
        assert!(
            i.first_since_start(&told),
            "the connection that carried the check"
        );
        assert!(
            !i.first_since_start(&told),
            "every later connection gets the record"
        );
        assert!(
            !i.first_since_start(&silent),
            "a peer that did not answer gets it"
        );
    }

    #[test]
    fn heartbeats_are_paced_from_the_start_and_go_to_the_configured_peers() {
        let mut i = Instances::new(own(1_000));
        let hb = crate::instance::HEARTBEAT_MS;
        assert!(
            !i.heartbeat_due(1_000 + hb - 1),
            "not before a heartbeat's time"
        );
        assert!(i.heartbeat_due(1_000 + hb));
        assert!(!i.heartbeat_due(1_000 + hb + 1));
        let p = PeerId::random();
        assert!(!i.gets_heartbeats(&p));
        i.send_heartbeats_to(vec![p]);
        assert!(i.gets_heartbeats(&p));
        assert!(i.take_yielded().is_none());
    }
}
