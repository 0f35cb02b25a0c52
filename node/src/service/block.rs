//! Players the player refused for good (`sobre block`): kept in the store, blocked at the
//! network (connections closed and refused, gossip ignored) at every start, and nothing they
//! sign is taken even when someone else forwards it. Their challenges waiting for an answer
//! are dropped when they are blocked.

use super::{Service, peer_of_player};
use crate::api::refusal::IdPlace;
use crate::api::replies::BlockReply;
use crate::api::{ApiError, RefusalCode};
use sobre_core::record::{PlayerId, Status};
use std::collections::BTreeSet;

/// The `meta` key listing the blocked players (JSON list of player ids).
const BLOCKED: &str = "blocked";

/// The blocked players as stored: what the node loads at start, and what a read with the
/// node stopped lists.
pub(crate) fn stored_blocked(store: &crate::store::Store) -> BTreeSet<PlayerId> {
    store.meta_list(BLOCKED).into_iter().collect()
}

impl Service {
    /// The blocked players, from the store.
    pub(super) fn load_blocked(&self) -> BTreeSet<PlayerId> {
        stored_blocked(&self.store)
    }

    /// Tells the network to refuse every blocked player (at start).
    pub(super) async fn apply_blocks(&self) {
        for p in self.limits.blocked() {
            if let Some(peer) = peer_of_player(p) {
                let _ = self.net.block(peer, true).await;
            }
        }
    }

    /// `block`: refuses `player` for good (or lifts it), and lists the blocked players.
    pub(super) async fn block(
        &mut self,
        player: Option<&str>,
        unblock: bool,
    ) -> Result<BlockReply, ApiError> {
        if let Some(text) = player {
            let p: PlayerId = text.trim().parse().map_err(|_| {
                ApiError::refused(RefusalCode::PlayerIdAt {
                    place: IdPlace::Block,
                    text: text.trim().to_owned(),
                })
            })?;
            if p == self.identity.me() {
                return Err(ApiError::refused(RefusalCode::BlockSelf));
            }
            let peer = peer_of_player(&p);
            self.limits.set_blocked(p, !unblock);
            if !unblock {
                // Their challenges waiting for our answer go.
                let waiting: Vec<_> = self
                    .games
                    .iter()
                    .filter(|(_, s)| {
                        s.status == Status::Pending
                            && s.challenger == p
                            && s.opponent == self.identity.me()
                    })
                    .map(|(g, _)| *g)
                    .collect();
                for g in waiting {
                    self.drop_pending(g).await;
                }
            }
            self.store
                .set_meta_list(BLOCKED, self.limits.blocked())
                .map_err(super::internal)?;
            self.store.flush().await.map_err(super::internal)?;
            if let Some(peer) = peer {
                let _ = self.net.block(peer, !unblock).await;
            }
        }
        Ok(BlockReply {
            blocked: self
                .limits
                .blocked()
                .iter()
                .map(ToString::to_string)
                .collect(),
        })
    }
}
