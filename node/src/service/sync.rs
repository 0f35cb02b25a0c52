//! Catch-up: asking a peer for what we lack of the games we share with it.

use super::Service;
use super::deliver::Internal;
use crate::protocol::Request;
use libp2p::PeerId;
use sobre_core::record::{GameId, PlayerId};

/// Catch-up syncs in flight with one peer at most (the rest wait for answers): a node sharing
/// a thousand games with a peer would otherwise open more sub-streams than the peer accepts.
pub(super) const MAX_SYNCS_PER_PEER: usize = 32;

impl Service {
    /// Asks `peer` for what it holds of `game` beyond what this node has; with
    /// [`MAX_SYNCS_PER_PEER`] in flight already, when one of those is answered.
    pub(super) fn sync_game(&mut self, peer: PeerId, game: GameId) {
        let running = self.syncs.entry(peer).or_default();
        if running.0 >= MAX_SYNCS_PER_PEER {
            running.1.push_back(game);
            return;
        }
        running.0 += 1;
        self.start_sync(peer, game);
    }

    /// A sync with `peer` is answered: start the next one waiting, if any.
    pub(super) fn sync_done(&mut self, peer: PeerId) {
        let Some(running) = self.syncs.get_mut(&peer) else {
            return;
        };
        match running.1.pop_front() {
            Some(game) => self.start_sync(peer, game),
            None => {
                running.0 = running.0.saturating_sub(1);
                if running.0 == 0 {
                    self.syncs.remove(&peer);
                }
            }
        }
    }

    /// Sends the request of [`Service::sync_game`], with what the node holds now.
    pub(super) fn start_sync(&mut self, peer: PeerId, game: GameId) {
        // From memory, or the store's keys for a cold game (no event read or decoded).
        let have: Vec<(PlayerId, u64)> = if self.games.contains_key(&game) {
            self.heads_of(&game)
        } else {
            Vec::new()
        };
        let net = self.net.clone();
        let tx = self.internal_tx.clone();
        tokio::spawn(async move {
            let result = net
                .request(peer, Request::Sync { game, have })
                .await
                .map_err(|e| e.to_string());
            let _ = tx.send(Internal::Synced { peer, game, result }).await;
        });
    }
}
