//! What a hostile peer can cost us, bounded: inbound requests per peer per minute (the
//! [`RateLimiter`]), strikes counted against a peer before it is blocked ([`Strikes`]), and
//! the connection limits. Apart from the event loop because these are plain counters with
//! their own rules, tested alone; the event loop decides what a refusal or a strike does.

use std::collections::HashMap;
use std::time::Duration;

use libp2p::PeerId;
use libp2p::connection_limits::ConnectionLimits;
use tokio::time::Instant;

/// Connection limits (see [`connection_limits`]).
const MAX_ESTABLISHED_PER_PEER: u32 = 2;
const MAX_PENDING: u32 = 64;

/// The limits of the `connection_limits` behaviour: pending dials either way, established
/// connections in all and per peer. The ceiling on established connections is a backstop
/// above `max_peers` (each peer may hold [`MAX_ESTABLISHED_PER_PEER`], and a newcomer must
/// get in for the least recently used peer to be evicted: see `event_loop`), so that it
/// never refuses the newcomer the eviction makes room for.
pub(super) fn connection_limits(max_peers: usize) -> ConnectionLimits {
    let peers = u32::try_from(max_peers).unwrap_or(u32::MAX);
    ConnectionLimits::default()
        .with_max_pending_incoming(Some(MAX_PENDING))
        .with_max_pending_outgoing(Some(MAX_PENDING))
        .with_max_established(Some(
            peers
                .saturating_mul(MAX_ESTABLISHED_PER_PEER)
                .saturating_add(MAX_PENDING),
        ))
        .with_max_established_per_peer(Some(MAX_ESTABLISHED_PER_PEER))
}

/// Strike records kept before forgetting peers with a single strike.
const MAX_STRIKE_RECORDS: usize = 8192;

/// Strikes counted against each peer (malformed frames, floods, penalties), in bounded memory.
#[derive(Default)]
pub(super) struct Strikes {
    counts: HashMap<PeerId, u32>,
}

impl Strikes {
    /// Counts one more strike against `peer` and returns its total. With
    /// [`MAX_STRIKE_RECORDS`] peers on record, those with a single strike are forgotten
    /// first: a flood of fresh peer ids cannot grow the table, nor wipe a repeat offender.
    pub(super) fn add(&mut self, peer: PeerId) -> u32 {
        if self.counts.len() >= MAX_STRIKE_RECORDS {
            self.counts.retain(|_, n| *n > 1);
        }
        let n = self.counts.entry(peer).or_insert(0);
        *n += 1;
        *n
    }
}

/// Fixed one-minute windows per peer.
pub(super) struct RateLimiter {
    limit: u32,
    windows: HashMap<PeerId, Window>,
    last_prune: Instant,
}

struct Window {
    start: Instant,
    count: u32,
    refused: bool,
}

pub(super) enum RateDecision {
    Allow,
    /// Over the limit; `first` is true for the first refusal in this window.
    Refuse {
        first: bool,
    },
}

const RATE_WINDOW: Duration = Duration::from_secs(60);

/// How many times the per-peer request limit a reserved peer may send. Two players moving
/// quickly (an adjourned game resumed at the club, a game played out in a session) send a
/// delivery per move and one per receipt: at 120 a minute such a game met the limit, and
/// the strikes that follow would end with the opponent blocked. Still a bound: a hostile
/// opponent cannot flood without limit either.
pub(crate) const RESERVED_RATE_FACTOR: u32 = 10;

impl RateLimiter {
    pub(super) fn new(limit: u32) -> RateLimiter {
        RateLimiter {
            limit,
            windows: HashMap::new(),
            last_prune: Instant::now(),
        }
    }

    /// Counts a request of `peer`; a `reserved` peer (an opponent, a league member, a
    /// mailbox: see `ip_limits`) may send [`RESERVED_RATE_FACTOR`] times the limit.
    pub(super) fn check(&mut self, peer: PeerId, reserved: bool, now: Instant) -> RateDecision {
        if self.limit == 0 {
            return RateDecision::Allow;
        }
        let limit = if reserved {
            self.limit.saturating_mul(RESERVED_RATE_FACTOR)
        } else {
            self.limit
        };
        let window = self.windows.entry(peer).or_insert(Window {
            start: now,
            count: 0,
            refused: false,
        });
        if now.duration_since(window.start) >= RATE_WINDOW {
            *window = Window {
                start: now,
                count: 0,
                refused: false,
            };
        }
        if window.count < limit {
            window.count += 1;
            RateDecision::Allow
        } else {
            let first = !window.refused;
            window.refused = true;
            RateDecision::Refuse { first }
        }
    }

    pub(super) fn prune(&mut self, now: Instant) {
        if now.duration_since(self.last_prune) >= RATE_WINDOW {
            self.windows
                .retain(|_, w| now.duration_since(w.start) < RATE_WINDOW);
            self.last_prune = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limit_refuses_beyond_the_limit_and_strikes_once_per_window() {
        let mut rate = RateLimiter::new(2);
        let peer = PeerId::random();
        let t0 = Instant::now();
        assert!(matches!(rate.check(peer, false, t0), RateDecision::Allow));
        assert!(matches!(rate.check(peer, false, t0), RateDecision::Allow));
        assert!(matches!(
            rate.check(peer, false, t0),
            RateDecision::Refuse { first: true }
        ));
        assert!(matches!(
            rate.check(peer, false, t0),
            RateDecision::Refuse { first: false }
        ));
        // Another peer has its own window; a new minute opens a new one.
        assert!(matches!(
            rate.check(PeerId::random(), false, t0),
            RateDecision::Allow
        ));
        assert!(matches!(
            rate.check(peer, false, t0 + RATE_WINDOW),
            RateDecision::Allow
        ));
    }

    #[test]
    fn a_reserved_peer_may_send_more_but_not_without_limit() {
        let mut rate = RateLimiter::new(2);
        let opponent = PeerId::random();
        let t0 = Instant::now();
        for _ in 0..2 * RESERVED_RATE_FACTOR {
            assert!(matches!(
                rate.check(opponent, true, t0),
                RateDecision::Allow
            ));
        }
        assert!(matches!(
            rate.check(opponent, true, t0),
            RateDecision::Refuse { first: true }
        ));
    }

    #[test]
    fn a_full_strike_table_forgets_single_strikes_first() {
        let mut strikes = Strikes::default();
        let repeat = PeerId::random();
        assert_eq!(strikes.add(repeat), 1);
        assert_eq!(strikes.add(repeat), 2);
        let once = PeerId::random();
        assert_eq!(strikes.add(once), 1);
        while strikes.counts.len() < MAX_STRIKE_RECORDS {
            strikes.add(PeerId::random());
        }
        assert_eq!(strikes.add(PeerId::random()), 1);
        assert_eq!(
            strikes.counts.len(),
            2,
            "only the repeat offender and the newcomer remain"
        );
        assert_eq!(strikes.add(repeat), 3);
        assert_eq!(strikes.add(once), 1, "a single strike was forgotten");
    }
}
