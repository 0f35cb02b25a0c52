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
use tracing::{info, warn};

impl Service {
    /// Refuses to sign in `game` while it is being restored.
    pub(super) fn refuse_while_restoring(&self, game: &GameId) -> Result<(), ApiError> {
        if self.restoring.contains(game) {
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
        self.restoring.remove(&game);
        self.commits.wrote();
        info!(%game, %peer, "game restored: the other player's copy confirms it is whole");
    }
}
