//! The delivery side's memory within a run: which deliveries are in flight (one per game and
//! peer) and which must go again when they return, our events an opponent took without the
//! receipt it owes, and the opponents whose own mailboxes were looked up. The outbox's
//! entries themselves are in the store (`store::outbox`); what to send is `deliver`'s.

use libp2p::PeerId;
use sobre_core::record::{EventId, GameId, PlayerId};
use std::collections::{HashMap, HashSet};

/// At most this many refused receipts are remembered: an honest opponent leaves none, a
/// hostile one at most one per event we sent it.
pub(super) const MAX_UNRECEIPTED: usize = 4096;

/// Games and opponents whose mailboxes were looked up this run (bounded: past it the set
/// starts again, at worst one more lookup per game).
const MAX_TRIED: usize = 4096;

#[derive(Default)]
pub(super) struct Outbox {
    in_flight: HashSet<(GameId, PeerId)>,
    redeliver: HashSet<(GameId, PeerId)>,
    /// Our events the opponent's node took without the receipt it owes (its answer had
    /// receipts, not this one): the opponent and when its node answered. A countersignature of
    /// one by that opponent dated later than the answer (beyond the clock skew) is refused on
    /// arrival — under protocol version 2 it would charge us for time its node held the move.
    unreceipted: HashMap<(GameId, EventId), (PlayerId, u64)>,
    /// Games and opponents whose own mailboxes were looked up (see `their_mailboxes`).
    their_mailboxes_tried: HashSet<(GameId, PeerId)>,
}

impl Outbox {
    /// Whether a delivery of `game` to `peer` may start now: one at a time per game and peer;
    /// if one is in flight, it is sent again when that one returns (so a new event never
    /// waits for the outbox retry).
    pub(super) fn start(&mut self, game: GameId, peer: PeerId) -> bool {
        if self.in_flight.insert((game, peer)) {
            return true;
        }
        self.redeliver.insert((game, peer));
        false
    }

    /// The delivery started had nothing to send.
    pub(super) fn nothing_sent(&mut self, game: GameId, peer: PeerId) {
        self.in_flight.remove(&(game, peer));
    }

    /// A delivery returned; whether another was asked for meanwhile.
    pub(super) fn returned(&mut self, game: GameId, peer: PeerId) -> bool {
        self.in_flight.remove(&(game, peer));
        self.redeliver.remove(&(game, peer))
    }

    pub(super) fn in_flight(&self, game: GameId, peer: PeerId) -> bool {
        self.in_flight.contains(&(game, peer))
    }

    /// Our event `id` of `game` was sent to `by`, whose node answered at `answered_ms`
    /// without its receipt (bounded by [`MAX_UNRECEIPTED`]; the first answer counts).
    pub(super) fn unreceipted(
        &mut self,
        game: GameId,
        id: EventId,
        by: PlayerId,
        answered_ms: u64,
    ) {
        if self.unreceipted.len() < MAX_UNRECEIPTED {
            self.unreceipted
                .entry((game, id))
                .or_insert((by, answered_ms));
        }
    }

    /// Our event `id` of `game` is receipted now.
    pub(super) fn receipted(&mut self, game: GameId, id: EventId) {
        self.unreceipted.remove(&(game, id));
    }

    /// Who took our event `id` of `game` without its receipt, and when its node answered.
    pub(super) fn taken_unreceipted(&self, game: GameId, id: EventId) -> Option<(PlayerId, u64)> {
        self.unreceipted.get(&(game, id)).copied()
    }

    /// Whether the mailboxes of `peer`, the opponent in `game`, are to be looked up: once
    /// per game and opponent in a run.
    pub(super) fn first_try_via_their_mailboxes(&mut self, game: GameId, peer: PeerId) -> bool {
        if self.their_mailboxes_tried.len() >= MAX_TRIED {
            self.their_mailboxes_tried.clear();
        }
        self.their_mailboxes_tried.insert((game, peer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(n: u8) -> GameId {
        EventId([n; 32])
    }

    fn player(n: u8) -> PlayerId {
        PlayerId::from_bytes([n; 32])
    }

    #[test]
    fn one_delivery_per_game_and_peer_and_a_second_ask_sends_again_on_return() {
        let mut o = Outbox::default();
        let (g, p) = (game(1), PeerId::random());
        assert!(o.start(g, p));
        assert!(o.start(game(2), p), "another game goes at once");
        assert!(!o.start(g, p), "one at a time");
        assert!(o.in_flight(g, p));
        assert!(o.returned(g, p), "asked again meanwhile");
        assert!(!o.in_flight(g, p));
        assert!(o.start(g, p));
        assert!(!o.returned(g, p), "nothing asked meanwhile");
        assert!(o.start(g, p));
        o.nothing_sent(g, p);
        assert!(!o.in_flight(g, p));
    }

    #[test]
    fn an_unreceipted_event_keeps_its_first_answer_until_receipted() {
        let mut o = Outbox::default();
        let (g, id) = (game(1), EventId([7; 32]));
        o.unreceipted(g, id, player(1), 10);
        o.unreceipted(g, id, player(1), 20);
        assert_eq!(o.taken_unreceipted(g, id), Some((player(1), 10)));
        o.receipted(g, id);
        assert_eq!(o.taken_unreceipted(g, id), None);
    }

    #[test]
    fn unreceipted_events_are_bounded() {
        let mut o = Outbox::default();
        for n in 0..=MAX_UNRECEIPTED {
            let mut b = [0u8; 32];
            b[..8].copy_from_slice(&(n as u64).to_le_bytes());
            o.unreceipted(game(1), EventId(b), player(1), 0);
        }
        assert_eq!(o.unreceipted.len(), MAX_UNRECEIPTED);
    }

    #[test]
    fn an_opponents_mailboxes_are_looked_up_once_per_game() {
        let mut o = Outbox::default();
        let p = PeerId::random();
        assert!(o.first_try_via_their_mailboxes(game(1), p));
        assert!(!o.first_try_via_their_mailboxes(game(1), p));
        assert!(o.first_try_via_their_mailboxes(game(2), p));
    }
}
