//! Deliveries that cannot reach the opponent go to the opponent's own mailboxes, as named in
//! their signed contact record (`network::contact`): a mailbox keeps any valid game between
//! others within its limits (`quota::mailbox_room`, `access`) and hands it to its player
//! when their node next catches up. So a challenge reaches a stranger from another club who
//! is offline or behind a NAT nobody can cross, without either having met the other.
//!
//! Once per game and opponent in a run: the outbox keeps retrying the opponent itself, and
//! the mailboxes, once they hold the game, keep it.

use libp2p::{Multiaddr, PeerId};
use sobre_core::record::GameId;
use tracing::debug;

use super::deliver::Internal;
use super::{Service, peer_of_addr, player_of_peer};

impl Service {
    /// A delivery of `game` to `peer` failed to reach it: if `peer` is the player's opponent
    /// in `game`, look up their contact record and deliver the game to their mailboxes.
    pub(super) fn via_their_mailboxes(&mut self, game: GameId, peer: PeerId) {
        if self.identity.is_my_mailbox(&peer) {
            return;
        }
        let Some(player) = player_of_peer(&peer) else {
            return;
        };
        let theirs = self.games.get(&game).is_some_and(|s| {
            s.plays(&self.identity.me()) && s.plays(&player) && player != self.identity.me()
        });
        if !theirs {
            return;
        }
        if !self.outbox.first_try_via_their_mailboxes(game, peer) {
            return;
        }
        let net = self.net.clone();
        let tx = self.internal_tx.clone();
        tokio::spawn(async move {
            let mailboxes = match net.contact(peer).await {
                Ok(Some(contact)) => contact.mailboxes().to_vec(),
                _ => Vec::new(),
            };
            let _ = tx
                .send(Internal::TheirMailboxes {
                    game,
                    peer,
                    mailboxes,
                })
                .await;
        });
    }

    /// Delivers `game` whole to each mailbox of the opponent `peer` (see
    /// [`Service::via_their_mailboxes`]).
    pub(super) async fn their_mailboxes_found(
        &mut self,
        game: GameId,
        peer: PeerId,
        mailboxes: Vec<Multiaddr>,
    ) {
        let me = self.net.local_peer_id();
        for addr in mailboxes {
            let Some(mailbox) = peer_of_addr(&addr).filter(|m| *m != me && *m != peer) else {
                continue;
            };
            debug!(%game, %peer, %mailbox, "delivering to the opponent's mailbox");
            let _ = self.net.add_address(mailbox, addr).await;
            self.send(game, mailbox, true);
        }
    }
}
