//! Who may read what this node holds. A game's events (its moves, its chat) and the list of
//! a player's games are answered only to those with a part in them, identified by the
//! connection's peer id (an ed25519 peer id is the player's key, proven by the Noise
//! handshake): the game's two players, its witnesses (the arbiter an envelope is escrowed to,
//! the league's organiser) and this node's own mailboxes. Anyone else — and anyone asking for
//! a game this node does not hold — gets the same empty answer, so a stranger learns neither
//! the game nor whether it exists.

use super::{Service, player_of_peer};
use libp2p::PeerId;
use sobre_core::league::League;
use sobre_core::record::{GameId, PlayerId};

impl Service {
    /// Whether `peer` may read `game` (a sync).
    pub(super) fn may_read(&self, peer: &PeerId, game: &GameId) -> bool {
        let Some(summary) = self.games.get(game) else {
            return false;
        };
        if self.mailboxes.contains(peer) {
            return true;
        }
        let Some(who) = player_of_peer(peer) else {
            return false;
        };
        if who == summary.challenger || who == summary.opponent || summary.arbiters.contains(&who) {
            return true;
        }
        summary
            .league
            .as_ref()
            .and_then(|lr| self.store.league_get(&lr.league).ok().flatten())
            .and_then(|doc| League::from_signed(&doc).ok())
            .is_some_and(|l| l.organiser == who)
    }

    /// Whether `peer` may list the games of `player`: only the player itself (a node meeting
    /// its mailbox asks for its own games).
    pub(super) fn may_list(peer: &PeerId, player: &PlayerId) -> bool {
        player_of_peer(peer).is_some_and(|p| p == *player)
    }
}
