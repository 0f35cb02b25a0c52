//! The catch-up side's memory within a run: the syncs in flight with each peer and the games
//! waiting for a turn, and the cursors of the last `GameHeads` answers (from each mailbox of
//! the player, and, as a mailbox, from each player's node). What to ask and what to do with
//! the answers is `sync`'s and `catchup`'s.

use libp2p::PeerId;
use sobre_core::record::GameId;
use std::collections::{HashMap, VecDeque};

/// Catch-up syncs in flight with one peer at most (the rest wait for answers): a node sharing
/// a thousand games with a peer would otherwise open more sub-streams than the peer accepts.
pub(super) const MAX_SYNCS_PER_PEER: usize = 32;

/// An epoch and a cursor of the game table of the node answering (see
/// [`crate::protocol::Response::GameHeads`]).
type Cursor = (u64, u64);

#[derive(Default)]
pub(super) struct Syncs {
    /// Catch-up syncs per peer: how many are in flight, and the games waiting for a turn.
    running: HashMap<PeerId, (usize, VecDeque<GameId>)>,
    /// Per mailbox, the epoch and cursor of its last `GameHeads`.
    mailbox_cursors: HashMap<PeerId, Cursor>,
    /// As a mailbox, per player's node, the epoch and cursor of its last answer.
    player_cursors: HashMap<PeerId, Cursor>,
}

impl Syncs {
    /// Whether a sync of `game` with `peer` may start now; if [`MAX_SYNCS_PER_PEER`] are in
    /// flight, it waits for one of them to be answered.
    pub(super) fn start(&mut self, peer: PeerId, game: GameId) -> bool {
        let running = self.running.entry(peer).or_default();
        if running.0 >= MAX_SYNCS_PER_PEER {
            running.1.push_back(game);
            return false;
        }
        running.0 += 1;
        true
    }

    /// A sync with `peer` is answered: the game waiting whose sync takes its place, if any.
    pub(super) fn answered(&mut self, peer: PeerId) -> Option<GameId> {
        let running = self.running.get_mut(&peer)?;
        let next = running.1.pop_front();
        if next.is_none() {
            running.0 = running.0.saturating_sub(1);
            if running.0 == 0 {
                self.running.remove(&peer);
            }
        }
        next
    }

    /// Where the last answer of the mailbox `peer` left off (zero: from the start).
    pub(super) fn mailbox_cursor(&self, peer: &PeerId) -> Cursor {
        self.mailbox_cursors.get(peer).copied().unwrap_or((0, 0))
    }

    pub(super) fn mailbox_answered(&mut self, peer: PeerId, at: Cursor) {
        self.mailbox_cursors.insert(peer, at);
    }

    /// As a mailbox, where the last answer of the player's node `peer` left off.
    pub(super) fn player_cursor(&self, peer: &PeerId) -> Cursor {
        self.player_cursors.get(peer).copied().unwrap_or((0, 0))
    }

    pub(super) fn player_answered(&mut self, peer: PeerId, at: Cursor) {
        self.player_cursors.insert(peer, at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::EventId;

    fn game(n: usize) -> GameId {
        let mut b = [0u8; 32];
        b[..8].copy_from_slice(&(n as u64).to_le_bytes());
        EventId(b)
    }

    #[test]
    fn syncs_past_the_limit_per_peer_wait_their_turn_in_order() {
        let mut s = Syncs::default();
        let (p, q) = (PeerId::random(), PeerId::random());
        for n in 0..MAX_SYNCS_PER_PEER {
            assert!(s.start(p, game(n)));
        }
        assert!(!s.start(p, game(100)), "over the limit: waits");
        assert!(!s.start(p, game(101)));
        assert!(s.start(q, game(100)), "another peer has its own limit");
        assert_eq!(s.answered(p), Some(game(100)));
        assert_eq!(s.answered(p), Some(game(101)));
        for _ in 0..MAX_SYNCS_PER_PEER {
            assert_eq!(s.answered(p), None);
        }
        assert!(
            !s.running.contains_key(&p),
            "a peer with nothing in flight is forgotten"
        );
        assert_eq!(s.answered(p), None);
    }

    #[test]
    fn a_cursor_starts_at_zero_and_keeps_the_last_answer() {
        let mut s = Syncs::default();
        let p = PeerId::random();
        assert_eq!(s.mailbox_cursor(&p), (0, 0));
        s.mailbox_answered(p, (7, 3));
        s.mailbox_answered(p, (7, 9));
        assert_eq!(s.mailbox_cursor(&p), (7, 9));
        assert_eq!(
            s.player_cursor(&p),
            (0, 0),
            "a mailbox's and a player's apart"
        );
        s.player_answered(p, (2, 1));
        assert_eq!(s.player_cursor(&p), (2, 1));
    }
}
