//! Who may read what this node holds. A game's events (its moves, its chat) and the list of
//! a player's games are answered only to those with a part in them, identified by the
//! connection's peer id (an ed25519 peer id is the player's key, proven by the Noise
//! handshake): the game's two players, its witnesses (the arbiter an envelope is escrowed to,
//! the league's organiser and players) and this node's own mailboxes. Anyone else — and
//! anyone asking for a game this node does not hold — gets the same empty answer, so a
//! stranger learns neither the game nor whether it exists.

use super::{Service, now_ms, player_of_peer};
use libp2p::PeerId;
use sobre_core::record::{GameId, PlayerId};

/// Bytes of sync answers one peer is sent per minute, by default
/// (`NodeConfig::sync_bytes_per_minute`): a player catching up 1,000 games of 80 plies takes
/// about 16 MiB; beyond, a game's own player could make the node send the same 4 MiB game
/// again at every request of its rate limit.
pub const SYNC_BYTES_PER_MINUTE: usize = 64 * 1024 * 1024;

/// Sync bytes sent per peer in the current minute (bounded: peers that synced this minute).
#[derive(Default)]
pub(crate) struct SyncBudget(std::collections::HashMap<PeerId, (u64, usize)>);

impl SyncBudget {
    /// Takes `bytes` of `peer`'s budget of `limit` for the minute; false if it is spent.
    pub(super) fn spend(&mut self, peer: PeerId, bytes: usize, limit: usize, now: u64) -> bool {
        self.0
            .retain(|_, (start, _)| now.saturating_sub(*start) < 60_000);
        let (_, spent) = self.0.entry(peer).or_insert((now, 0));
        if spent.saturating_add(bytes) > limit {
            return false;
        }
        *spent += bytes;
        true
    }
}

impl Service {
    /// Takes `bytes` of this minute's sync budget of `peer`; false if it is spent (the answer
    /// is then refused, to be asked again next minute).
    pub(super) fn spend_sync_budget(&mut self, peer: PeerId, bytes: usize) -> bool {
        self.limits.spend_sync(peer, bytes, now_ms())
    }

    /// Whether `peer` may read `game` (a sync).
    pub(super) fn may_read(&self, peer: &PeerId, game: &GameId) -> bool {
        let Some(summary) = self.games.get(game) else {
            return false;
        };
        if self.identity.is_my_mailbox(peer) {
            return true;
        }
        let Some(who) = player_of_peer(peer) else {
            return false;
        };
        if who == summary.challenger
            || who == summary.opponent
            || summary.arbiters.contains(&who)
            || summary.timekeepers.contains(&who)
        {
            return true;
        }
        // A league game: its organiser and the league's players hold every game of it (see
        // `league_sync`).
        self.may_read_as_member(peer, game)
    }

    /// Reserves connection room for those `game` makes this node's business (see
    /// [`crate::network::ip_limits`] and [`reserved_for`]) — unless the game gives them no
    /// standing (see `standing`): a stranger's challenge, answered or aborted, or a game
    /// between two strangers escrowed to this node must not buy its players a reserved place.
    pub(super) fn reserve_players(&mut self, game: &GameId) {
        self.reserve_players_of(game, &mut None);
    }

    /// [`Service::reserve_players`] with the known players read once for many games.
    pub(super) fn reserve_players_of(
        &mut self,
        game: &GameId,
        known: &mut Option<std::collections::HashSet<PlayerId>>,
    ) {
        let Some(s) = self.games.get(game) else {
            return;
        };
        let players = [s.challenger, s.opponent];
        let wanted = reserved_for(&self.identity.me(), players, &s.arbiters, &s.timekeepers);
        if wanted.is_empty() {
            if self.identity.is_mailbox() {
                self.raise_rate_of(players, s.played);
            }
            return;
        }
        let wanted = self.limits.not_reserved(wanted);
        if wanted.is_empty() || !self.stands(s, known) {
            return;
        }
        self.limits.reserve(&wanted);
        let fresh: Vec<PeerId> = wanted.iter().filter_map(super::peer_of_player).collect();
        if fresh.is_empty() {
            return;
        }
        let net = self.net.clone();
        let store = self.store.clone();
        tokio::spawn(async move {
            let _ = net.reserve(fresh.clone()).await;
            // A new opponent's identify came before the game did: keep its addresses now.
            super::remember::remember_connected(&net, &store, &fresh).await;
        });
    }

    /// As a mailbox, lets the players of a game it holds (once `played`, as standing would
    /// have it) send requests at a reserved peer's rate: each delivers every move and
    /// receipt of the game here, as fast as it goes at an opponent's node, where the plain
    /// limit was met by a quick game (see `network::limits`). No connection room is kept.
    fn raise_rate_of(&mut self, players: [PlayerId; 2], played: bool) {
        if !played {
            return;
        }
        let fresh: Vec<PeerId> = self
            .limits
            .raise_rate(players)
            .iter()
            .filter_map(super::peer_of_player)
            .collect();
        if fresh.is_empty() {
            return;
        }
        let net = self.net.clone();
        let store = self.store.clone();
        tokio::spawn(async move {
            let _ = net.raise_rate_limit(fresh.clone()).await;
            // As for a reserved player: its identify may have come before its game did.
            super::remember::remember_connected(&net, &store, &fresh).await;
        });
    }

    /// Whether `peer` may list the games of `player`: only the player itself (a node meeting
    /// its mailbox asks for its own games).
    pub(super) fn may_list(peer: &PeerId, player: &PlayerId) -> bool {
        player_of_peer(peer).is_some_and(|p| p == *player)
    }
}

/// Whom `me` reserves connection room for because of a game between `players` with these
/// witnesses, by `me`'s part in it:
/// a player, its opponent and the game's witnesses (arbiters, agreed timekeepers: for a
/// league game, the organiser or its deputy); the game's arbiter or timekeeper, both
/// players. A node that holds the game only as a mailbox reserves no one (issue 30): a club
/// mailbox holds every member's games, and reserving them all would exempt hundreds of
/// peers from the per-address caps, the idle close and the eviction above the connection
/// cap — the very limits that keep room for the players this node itself plays or rules.
pub(super) fn reserved_for(
    me: &PlayerId,
    players: [PlayerId; 2],
    arbiters: &[PlayerId],
    timekeepers: &[PlayerId],
) -> Vec<PlayerId> {
    let officiates = arbiters.contains(me) || timekeepers.contains(me);
    let mut out: Vec<PlayerId> = if players.contains(me) {
        players
            .into_iter()
            .chain(arbiters.iter().copied())
            .chain(timekeepers.iter().copied())
            .collect()
    } else if officiates {
        players.to_vec()
    } else {
        Vec::new()
    };
    out.retain(|p| p != me);
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::Keypair;

    fn player(seed: u8) -> PlayerId {
        Keypair::from_secret_bytes(&[seed; 32]).player_id()
    }

    #[test]
    fn a_mailbox_reserves_none_of_the_players_whose_games_it_holds() {
        let mailbox = player(1);
        for i in 0..50u8 {
            let players = [player(10 + 2 * i), player(11 + 2 * i)];
            assert!(
                reserved_for(&mailbox, players, &[], &[]).is_empty(),
                "game {i}"
            );
        }
    }

    #[test]
    fn a_player_reserves_its_opponent_and_the_games_witnesses() {
        let (me, them, organiser, arbiter) = (player(1), player(2), player(3), player(4));
        let mut want = vec![them, organiser, arbiter];
        want.sort();
        assert_eq!(
            reserved_for(&me, [them, me], &[arbiter, me], &[organiser]),
            want
        );
    }

    #[test]
    fn the_games_timekeeper_or_arbiter_reserves_both_players() {
        let (keeper, a, b) = (player(1), player(2), player(3));
        let mut want = vec![a, b];
        want.sort();
        assert_eq!(reserved_for(&keeper, [a, b], &[], &[keeper]), want);
        assert_eq!(reserved_for(&keeper, [a, b], &[keeper], &[]), want);
    }
}
