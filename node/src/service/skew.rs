//! How far each opponent's clock is from ours, measured from real evidence: when our node
//! delivers events and the answer carries the opponent's signed receipt, the receipt's
//! `time_ms` is the opponent's clock while our request was in flight, so
//! `skew ≈ receipt_time − (sent + answered) / 2`, off by at most half the round trip.
//! Only short round trips count: a delivery that waited in a queue for minutes says nothing.
//! `status` shows the latest estimate per opponent and `node doctor` warns past
//! [`crate::api::replies::SKEW_WARN_MS`]: events dated beyond two minutes of the receiver's
//! clock are refused (`sobre_core::record::time::check_arrival`).

use super::{Service, player_of_peer};
use libp2p::PeerId;
use sobre_core::record::{EventId, EventKind, GameId, PlayerId, SignedEvent};
use std::collections::HashMap;
use tracing::debug;

/// A measurement whose round trip took longer than this is ignored: the error of the
/// estimate is up to half the round trip.
pub const MAX_ROUND_TRIP_MS: u64 = 5_000;

/// At most this many players' estimates are kept (the oldest measured is forgotten first):
/// a node has a few dozen opponents, not thousands.
pub const MAX_SKEWS: usize = 256;

/// The skew of a remote clock (remote minus ours, in ms) from one exchange: sent at `sent_ms`,
/// answered at `answered_ms` (both our clock), stamped `remote_ms` by the other side. `None`
/// when the round trip is too long (or our clock went backwards) to say anything.
pub fn estimate(sent_ms: u64, answered_ms: u64, remote_ms: u64) -> Option<i64> {
    let round_trip = answered_ms.checked_sub(sent_ms)?;
    if round_trip > MAX_ROUND_TRIP_MS {
        return None;
    }
    let mid = i128::from(sent_ms) + i128::from(round_trip / 2);
    i64::try_from(i128::from(remote_ms) - mid).ok()
}

/// The latest skew estimate per player, bounded by [`MAX_SKEWS`].
#[derive(Debug, Default)]
pub struct ClockSkews {
    /// Player → (skew in ms, when measured by our clock).
    latest: HashMap<PlayerId, (i64, u64)>,
}

impl ClockSkews {
    /// Records a measurement; when full, forgets the player measured longest ago.
    pub fn record(&mut self, player: PlayerId, skew_ms: i64, at_ms: u64) {
        if !self.latest.contains_key(&player)
            && self.latest.len() >= MAX_SKEWS
            && let Some(oldest) = self
                .latest
                .iter()
                .min_by_key(|(_, (_, at))| *at)
                .map(|(p, _)| *p)
        {
            self.latest.remove(&oldest);
        }
        self.latest.insert(player, (skew_ms, at_ms));
    }

    /// The latest estimate for `player` (remote minus ours, ms), if any.
    pub fn get(&self, player: &PlayerId) -> Option<i64> {
        self.latest.get(player).map(|(s, _)| *s)
    }
}

impl Service {
    /// The ids of the events in a delivery's answer that this node did not hold yet: only a
    /// receipt signed for this delivery dates the peer's clock now (an old one re-sent does not).
    pub(super) fn fresh_receipts(&self, game: &GameId, answer: &[Vec<u8>]) -> Vec<EventId> {
        let held = self.hot.peek(game);
        answer
            .iter()
            .filter_map(|b| SignedEvent::from_bytes(b).ok())
            .map(|e| e.id())
            .filter(|id| held.is_none_or(|c| !c.ids.contains_key(id)))
            .collect()
    }

    /// After a delivery of `sent` to `peer`, queued at `sent_ms` and answered at `answered_ms`:
    /// the peer's player's new receipts of those events (verified, now in the game) date its
    /// clock. The newest receipt's time is used.
    pub(super) fn measure_skew(
        &mut self,
        game: &GameId,
        peer: &PeerId,
        sent: &[EventId],
        fresh: &[EventId],
        sent_ms: u64,
        answered_ms: u64,
    ) {
        let Some(player) = player_of_peer(peer) else {
            return;
        };
        let Some(cache) = self.hot.peek(game) else {
            return;
        };
        let stamped = fresh
            .iter()
            .filter_map(|id| cache.ids.get(id).map(|&i| &cache.events[i].event))
            .filter(|e| e.author == player)
            .filter(|e| matches!(e.kind, EventKind::Receipt { event } if sent.contains(&event)))
            .map(|e| e.time_ms)
            .max();
        if let Some(remote_ms) = stamped
            && let Some(skew_ms) = estimate(sent_ms, answered_ms, remote_ms)
        {
            debug!(%player, skew_ms, "clock skew measured");
            self.skews.record(player, skew_ms, answered_ms);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::Keypair;

    #[test]
    fn estimate_is_remote_minus_the_midpoint() {
        // Sent at 1000, answered at 1200: the receipt was signed around 1100 of our clock.
        assert_eq!(estimate(1_000, 1_200, 91_100), Some(90_000));
        assert_eq!(estimate(100_000, 100_400, 40_200), Some(-60_000));
        assert_eq!(estimate(5_000, 5_000, 5_000), Some(0));
    }

    #[test]
    fn long_or_backwards_round_trips_say_nothing() {
        assert_eq!(estimate(0, MAX_ROUND_TRIP_MS + 1, 0), None);
        assert!(estimate(0, MAX_ROUND_TRIP_MS, 0).is_some());
        assert_eq!(estimate(2_000, 1_000, 1_500), None);
    }

    fn player(i: u64) -> PlayerId {
        let mut secret = [7u8; 32];
        secret[..8].copy_from_slice(&i.to_le_bytes());
        Keypair::from_secret_bytes(&secret).player_id()
    }

    #[test]
    fn keeps_the_latest_and_stays_bounded() {
        let mut skews = ClockSkews::default();
        let first = player(u64::MAX);
        skews.record(first, 10, 1);
        skews.record(first, 20, 2);
        assert_eq!(skews.get(&first), Some(20));
        for i in 0..MAX_SKEWS as u64 {
            skews.record(player(i), 0, 10 + i);
        }
        assert_eq!(skews.latest.len(), MAX_SKEWS);
        // The one measured longest ago went first.
        assert_eq!(skews.get(&first), None);
    }
}
