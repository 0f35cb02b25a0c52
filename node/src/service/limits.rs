//! The abuse limits' memory: what peers and strangers did lately (chat lines, new games at a
//! mailbox, strangers' events, games refused as not ours, sync bytes), whom the player
//! blocked, and whom the network was asked to reserve room or raise the rate for. The rules
//! that decide who counts as a stranger stay with the service (`standing`, `quota`,
//! `access`); this part only remembers and counts, so the counting is tested here.

use super::access::SyncBudget;
use super::quota::{self, ChatArrivals, NewGameArrivals, QuotaExceeded, StrangerArrivals};
use super::standing::NotOurs;
use libp2p::PeerId;
use sobre_core::record::{Event, GameId, PlayerId};
use std::collections::{BTreeSet, HashSet};

pub(super) struct Limits {
    /// Recent chat arrivals per game and author (see `quota`).
    chat_arrivals: ChatArrivals,
    new_game_arrivals: NewGameArrivals,
    stranger_arrivals: StrangerArrivals,
    stranger_events_per_hour: usize,
    /// Games each peer delivered lately that were refused as not ours (see `standing`).
    not_ours: NotOurs,
    /// Players whose nodes' connections the network reserves room for (see `access`): by
    /// player, so that a delivery of a game whose players are reserved already costs no
    /// key decompression (`PlayerId::peer_id`, about 3% of a mailbox's service thread).
    reserved: HashSet<PlayerId>,
    /// As a mailbox, the players of its games, allowed a reserved peer's request rate
    /// without reserved room (see `access`); by player, as `reserved`.
    rate_raised: HashSet<PlayerId>,
    /// Players refused for good (see `block`).
    blocked: BTreeSet<PlayerId>,
    /// Sync bytes sent per peer this minute, and the limit (see `access`).
    sync_budget: SyncBudget,
    sync_bytes_per_minute: usize,
}

impl Limits {
    pub(super) fn new(stranger_events_per_hour: usize, sync_bytes_per_minute: usize) -> Limits {
        Limits {
            chat_arrivals: ChatArrivals::default(),
            new_game_arrivals: NewGameArrivals::default(),
            stranger_arrivals: StrangerArrivals::default(),
            stranger_events_per_hour,
            not_ours: NotOurs::default(),
            reserved: HashSet::new(),
            rate_raised: HashSet::new(),
            blocked: BTreeSet::new(),
            sync_budget: SyncBudget::default(),
            sync_bytes_per_minute,
        }
    }

    /// Takes `bytes` of this minute's sync budget of `peer`; false if it is spent.
    pub(super) fn spend_sync(&mut self, peer: PeerId, bytes: usize, now: u64) -> bool {
        self.sync_budget
            .spend(peer, bytes, self.sync_bytes_per_minute, now)
    }

    /// The limits on `new` events joining a game that holds `tally`, counting chat lines
    /// against the hour's arrivals (see [`quota::check`]).
    pub(super) fn check_quota(
        &mut self,
        exempt: Option<&PlayerId>,
        tally: quota::Tally,
        new: &[(&Event, usize)],
        game: &GameId,
        now: u64,
    ) -> Result<(), QuotaExceeded> {
        quota::check(exempt, tally, new, &mut self.chat_arrivals, game, now)
    }

    /// Notes a new game `peer` handed to this mailbox if fewer than `limit` came from it
    /// within the hour.
    pub(super) fn admit_new_game(&mut self, peer: PeerId, limit: usize, now: u64) -> bool {
        self.new_game_arrivals.admit(peer, limit, now)
    }

    /// Notes `n` strangers' events if they fit the hour's budget for all strangers; false
    /// (and nothing noted) if they do not.
    pub(super) fn admit_strangers(&mut self, n: usize, now: u64) -> bool {
        if self.stranger_arrivals.recent((), now) + n > self.stranger_events_per_hour {
            return false;
        }
        for _ in 0..n {
            self.stranger_arrivals.note((), now);
        }
        true
    }

    /// Notes a game `peer` delivered that was refused as not ours; true once the peer has
    /// sent more such games this hour than an honest node would (see [`NotOurs::note`]).
    pub(super) fn not_ours_again(&mut self, peer: PeerId, game: GameId, now: u64) -> bool {
        self.not_ours.note(peer, game, now)
    }

    pub(super) fn is_reserved(&self, player: &PlayerId) -> bool {
        self.reserved.contains(player)
    }

    /// Those of `wanted` the network has not reserved room for yet.
    pub(super) fn not_reserved(&self, wanted: Vec<PlayerId>) -> Vec<PlayerId> {
        wanted
            .into_iter()
            .filter(|p| !self.reserved.contains(p))
            .collect()
    }

    /// The network is asked to reserve room for `players`.
    pub(super) fn reserve(&mut self, players: &[PlayerId]) {
        self.reserved.extend(players.iter().copied());
    }

    /// Raises the rate of `players`; the ones not raised before, for the network to be told.
    pub(super) fn raise_rate(&mut self, players: [PlayerId; 2]) -> Vec<PlayerId> {
        players
            .into_iter()
            .filter(|p| self.rate_raised.insert(*p))
            .collect()
    }

    pub(super) fn is_blocked(&self, player: &PlayerId) -> bool {
        self.blocked.contains(player)
    }

    /// The blocked players, as stored (at start).
    pub(super) fn load_blocked(&mut self, blocked: BTreeSet<PlayerId>) {
        self.blocked = blocked;
    }

    /// Blocks `player`, or lifts the block.
    pub(super) fn set_blocked(&mut self, player: PlayerId, blocked: bool) {
        if blocked {
            self.blocked.insert(player);
        } else {
            self.blocked.remove(&player);
        }
    }

    pub(super) fn blocked(&self) -> &BTreeSet<PlayerId> {
        &self.blocked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(seed: u8) -> PlayerId {
        sobre_core::record::Keypair::from_secret_bytes(&[seed; 32]).player_id()
    }

    const HOUR: u64 = 3600 * 1000;

    #[test]
    fn strangers_share_one_hourly_budget_and_a_refused_batch_is_not_counted() {
        let mut l = Limits::new(10, 1);
        assert!(l.admit_strangers(6, 0));
        assert!(!l.admit_strangers(5, 1), "6 + 5 is over 10");
        assert!(l.admit_strangers(4, 2), "the refused 5 were not noted");
        assert!(!l.admit_strangers(1, 3));
        assert!(
            l.admit_strangers(10, HOUR + 3),
            "an hour later the budget is back"
        );
    }

    #[test]
    fn a_peers_sync_bytes_are_limited_per_minute_and_per_peer() {
        let mut l = Limits::new(1, 100);
        let (a, b) = (PeerId::random(), PeerId::random());
        assert!(l.spend_sync(a, 60, 0));
        assert!(!l.spend_sync(a, 50, 1_000), "60 + 50 is over 100");
        assert!(l.spend_sync(b, 100, 1_000), "each peer has its own budget");
        assert!(l.spend_sync(a, 40, 2_000));
        assert!(l.spend_sync(a, 100, 61_000), "a new minute, a new budget");
    }

    #[test]
    fn a_mailbox_takes_a_bounded_number_of_new_games_from_a_peer_per_hour() {
        let mut l = Limits::new(1, 1);
        let a = PeerId::random();
        assert!(l.admit_new_game(a, 2, 0));
        assert!(l.admit_new_game(a, 2, 1));
        assert!(!l.admit_new_game(a, 2, 2));
        assert!(l.admit_new_game(PeerId::random(), 2, 2));
        assert!(l.admit_new_game(a, 2, HOUR));
    }

    #[test]
    fn reserved_and_raised_players_are_reported_once() {
        let mut l = Limits::new(1, 1);
        let (p, q) = (player(1), player(2));
        assert_eq!(l.not_reserved(vec![p, q]), vec![p, q]);
        l.reserve(&[p]);
        assert!(l.is_reserved(&p) && !l.is_reserved(&q));
        assert_eq!(l.not_reserved(vec![p, q]), vec![q]);
        assert_eq!(l.raise_rate([p, q]), vec![p, q]);
        assert_eq!(l.raise_rate([q, p]), Vec::<PlayerId>::new(), "told once");
    }

    #[test]
    fn a_block_holds_until_lifted() {
        let mut l = Limits::new(1, 1);
        let (p, q) = (player(1), player(2));
        l.load_blocked(BTreeSet::from([p]));
        assert!(l.is_blocked(&p));
        l.set_blocked(q, true);
        l.set_blocked(p, false);
        assert!(!l.is_blocked(&p) && l.is_blocked(&q));
        assert_eq!(l.blocked().len(), 1);
    }
}
