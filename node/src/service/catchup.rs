//! A player's node meeting its mailbox: it asks which of its games changed since the cursor
//! the mailbox last gave it ([`Request::GamesSince`]), and syncs only the games the mailbox
//! holds more of. A reconnect costs what changed, not every game the player has (it synced
//! each of them twice before: once as "shared with a mailbox", once from the game list).
//! The mailbox's side is [`Service::answer_games_since`]; the cursor is the mailbox's
//! [`GameTable`](super::game_table::GameTable) change number.

use super::Service;
use super::deliver::Internal;
use crate::protocol::{GameHead, Request, Response};
use libp2p::PeerId;
use sobre_core::record::{GameId, PlayerId};
use tracing::debug;

/// Whether `theirs` holds events of some author beyond `ours`.
fn lacks(ours: &[(PlayerId, u64)], theirs: &[(PlayerId, u64)]) -> bool {
    theirs.iter().any(|(author, next)| {
        ours.iter()
            .find(|(a, _)| a == author)
            .is_none_or(|(_, n)| n < next)
    })
}

impl Service {
    /// Asks `peer` for what it holds of `game` beyond what this node has; with
    /// [`MAX_SYNCS_PER_PEER`] in flight already, when one of those is answered.
    ///
    /// [`MAX_SYNCS_PER_PEER`]: super::sync::MAX_SYNCS_PER_PEER
    pub(super) fn sync_game(&mut self, peer: PeerId, game: GameId) {
        if self.syncs.start(peer, game) {
            self.start_sync(peer, game);
        }
    }

    /// A sync with `peer` is answered: start the next one waiting, if any.
    pub(super) fn sync_done(&mut self, peer: PeerId) {
        if let Some(game) = self.syncs.answered(peer) {
            self.start_sync(peer, game);
        }
    }

    /// Sends the request of [`Service::sync_game`], with what the node holds now.
    fn start_sync(&mut self, peer: PeerId, game: GameId) {
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

impl Service {
    /// Per author of `game`'s events held here, the next sequence number after the highest
    /// held: from memory for a hot game, else from the store's keys (nothing decoded), kept
    /// until the game changes (see [`GameTable::keep_heads`]).
    ///
    /// [`GameTable::keep_heads`]: super::game_table::GameTable::keep_heads
    pub(super) fn heads_of(&mut self, game: &GameId) -> Vec<(PlayerId, u64)> {
        if let Some(c) = self.hot.peek(game) {
            return crate::store::next_per_author(
                c.events.iter().map(|v| (v.event.author, v.event.seq)),
            );
        }
        if let Some(heads) = self.games.stored_heads(game) {
            return heads.to_vec();
        }
        match self.store.heads(game) {
            Ok(heads) => {
                self.games.keep_heads(*game, heads.clone());
                heads
            }
            Err(_) => Vec::new(),
        }
    }

    /// Asks the mailbox `peer` which of the player's games changed since its last answer.
    pub(super) fn ask_mailbox_heads(&self, peer: PeerId) {
        let (epoch, since) = self.syncs.mailbox_cursor(&peer);
        let (net, tx, player) = (
            self.net.clone(),
            self.internal_tx.clone(),
            self.identity.me(),
        );
        tokio::spawn(async move {
            let request = Request::GamesSince {
                player,
                epoch,
                since,
            };
            let result = net.request(peer, request).await.map_err(|e| e.to_string());
            let _ = tx.send(Internal::HeadsListed { peer, result }).await;
        });
    }

    /// The mailbox's answer: keep its cursor and sync what it holds more of. A mailbox that
    /// does not know the request (an older version) is asked for the plain game list.
    pub(super) fn mailbox_heads(&mut self, peer: PeerId, result: Result<Response, String>) {
        let (epoch, cursor, heads) = match result {
            Ok(Response::GameHeads {
                epoch,
                cursor,
                heads,
            }) => (epoch, cursor, heads),
            other => {
                debug!(%peer, "no game heads from the mailbox ({other:?}): asking for its list");
                let (net, tx, player) = (
                    self.net.clone(),
                    self.internal_tx.clone(),
                    self.identity.me(),
                );
                tokio::spawn(async move {
                    let result = net
                        .request(peer, Request::Games { player })
                        .await
                        .map_err(|e| e.to_string());
                    let _ = tx.send(Internal::GamesListed { peer, result }).await;
                });
                return;
            }
        };
        self.syncs.mailbox_answered(peer, (epoch, cursor));
        for h in heads {
            if lacks(&self.heads_of(&h.game), &h.have) {
                self.sync_game(peer, h.game);
            }
        }
    }

    /// As a mailbox: asks the node of `player` (connected as `peer`) which of its games
    /// changed since its last answer, instead of syncing every game `shared` with it.
    pub(super) fn ask_player_heads(&self, peer: PeerId, player: PlayerId, shared: Vec<GameId>) {
        let (epoch, since) = self.syncs.player_cursor(&peer);
        let (net, tx) = (self.net.clone(), self.internal_tx.clone());
        tokio::spawn(async move {
            let request = Request::GamesSince {
                player,
                epoch,
                since,
            };
            let result = net.request(peer, request).await.map_err(|e| e.to_string());
            let _ = tx
                .send(Internal::PlayerHeads {
                    peer,
                    shared,
                    result,
                })
                .await;
        });
    }

    /// A player's node answered this mailbox: sync what it holds more of. A node that does
    /// not count this one as its mailbox answers epoch 0 (refused), an older one not at all:
    /// then every shared game is synced, as before.
    pub(super) fn player_heads(
        &mut self,
        peer: PeerId,
        shared: Vec<GameId>,
        result: Result<Response, String>,
    ) {
        match result {
            Ok(Response::GameHeads {
                epoch,
                cursor,
                heads,
            }) if epoch != 0 => {
                self.syncs.player_answered(peer, (epoch, cursor));
                for h in heads {
                    if self.games.contains_key(&h.game) && lacks(&self.heads_of(&h.game), &h.have) {
                        self.sync_game(peer, h.game);
                    }
                }
            }
            _ => {
                for g in shared {
                    self.sync_game(peer, g);
                }
            }
        }
    }

    /// Answers [`Request::GamesSince`] (to the player's own key: the caller checked): the
    /// player's games changed since the cursor, with their heads; the player may sync each
    /// once outside the rate limit.
    pub(super) async fn answer_games_since(
        &mut self,
        peer: PeerId,
        player: PlayerId,
        epoch: u64,
        since: u64,
    ) -> Response {
        let games: Vec<GameId> = self.games.changed_since_for(&player, epoch, since);
        let heads: Vec<GameHead> = games
            .iter()
            .map(|g| GameHead {
                game: *g,
                have: self.heads_of(g),
            })
            .collect();
        if !games.is_empty() {
            let _ = self.net.allow_syncs(peer, games).await;
        }
        Response::GameHeads {
            epoch: self.games.epoch(),
            cursor: self.games.cursor(),
            heads,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::lacks;
    use sobre_core::record::PlayerId;

    #[test]
    fn a_game_is_synced_only_when_the_mailbox_holds_more_of_some_author() {
        let (a, b) = (PlayerId::from_bytes([1; 32]), PlayerId::from_bytes([2; 32]));
        assert!(!lacks(&[(a, 3), (b, 2)], &[(a, 3), (b, 2)]));
        assert!(
            !lacks(&[(a, 4), (b, 2)], &[(a, 3)]),
            "we hold more: nothing to fetch"
        );
        assert!(lacks(&[(a, 3), (b, 2)], &[(a, 3), (b, 3)]));
        assert!(
            lacks(&[(a, 3)], &[(a, 3), (b, 1)]),
            "an author we hold nothing of"
        );
    }
}
