//! Games being restored after `sobre node repair`: the node signs nothing in them until it
//! has proof that it holds its own latest event.
//!
//! A repair keeps what still verifies and fetches the rest from peers. The first peer to
//! answer may hold an old copy (a mailbox or witness that missed the last moves): the game
//! then verifies and the ledger — which lags the database by design — may even be satisfied,
//! yet the player's latest event is missing. Signing then would reuse its sequence number,
//! and the honest player would look like an equivocator. The proof is the copy of one of the
//! game's other players: every event of ours they ever received is in it (they receipt what
//! they take), and an event they never received was never acted on by anyone.

use super::Service;
use crate::api::{ApiError, RefusalCode};
use crate::integrity;
use libp2p::PeerId;
use sobre_core::record::GameId;
use std::collections::BTreeSet;
use tracing::{info, warn};

/// The games a repair could not keep and that are being fetched again: the node signs
/// nothing in them (not even a receipt) until one of the game's other players has sent its
/// copy ([`Service::confirm_restored`]).
pub(super) struct Restoring {
    games: BTreeSet<GameId>,
}

impl Restoring {
    /// The games the repair is still waiting for, as the store lists them at start
    /// (`integrity::wanted`).
    pub(super) fn new(games: BTreeSet<GameId>) -> Restoring {
        Restoring { games }
    }

    /// Whether `game` is being restored: nothing may be signed in it.
    pub(super) fn is_restoring(&self, game: &GameId) -> bool {
        self.games.contains(game)
    }

    /// The games being restored, to ask a newly connected peer for.
    pub(super) fn games(&self) -> Vec<GameId> {
        self.games.iter().copied().collect()
    }

    /// `game` was confirmed whole: the node may sign in it again. Whether it was being
    /// restored.
    pub(super) fn confirm(&mut self, game: &GameId) -> bool {
        self.games.remove(game)
    }
}

impl Service {
    /// Refuses to sign in `game` while it is being restored.
    pub(super) fn refuse_while_restoring(&self, game: &GameId) -> Result<(), ApiError> {
        if self.restoring.is_restoring(game) {
            return Err(ApiError::refused(RefusalCode::GameRestoring {
                game: game.to_string(),
            }));
        }
        Ok(())
    }

    /// After a sync of a game being restored answered by `peer`: if `peer` is one of the
    /// game's other players and the game now holds every event of ours the ledger lists, the
    /// game is whole again and the node may sign in it.
    pub(super) fn confirm_restored(&mut self, game: GameId, peer: PeerId) {
        let Some(summary) = self.games.get(&game) else {
            return;
        };
        let by_other_player = [summary.challenger, summary.opponent]
            .iter()
            .any(|p| *p != self.identity.me() && super::peer_of_player(p) == Some(peer));
        if !by_other_player
            || !integrity::restored_per_ledger(
                self.identity.home(),
                &self.store,
                &self.identity.me(),
                &game,
            )
        {
            return;
        }
        if let Err(e) = integrity::restored(&self.store, &game) {
            warn!(%game, "restored game not noted: {e}");
            return;
        }
        // The sheet was made from the copy first received: make it again from what the node
        // holds now, the other player's copy merged in.
        self.hot.forget(&game);
        self.restoring.confirm(&game);
        self.commits.wrote();
        info!(%game, %peer, "game restored: the other player's copy confirms it is whole");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_restoring_until_confirmed_once() {
        use sobre_core::record::EventId;
        let (a, b) = (EventId([10; 32]), EventId([11; 32]));
        let mut r = Restoring::new(BTreeSet::from([a]));
        assert!(r.is_restoring(&a));
        assert!(!r.is_restoring(&b));
        assert_eq!(r.games(), vec![a]);
        assert!(!r.confirm(&b), "a game not being restored");
        assert!(r.confirm(&a));
        assert!(!r.is_restoring(&a));
        assert!(!r.confirm(&a), "confirmed already");
        assert!(r.games().is_empty());
    }
}
