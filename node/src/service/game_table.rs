//! The summaries of the games a node serves, with a change cursor: every change to a game's
//! summary takes the next number of this run, so a player's node meeting its mailbox asks
//! for what changed since the number it was last given ([`Request::GamesSince`]) instead of
//! every game the mailbox holds for it, and syncs only those.
//!
//! The numbers are per run: each start draws a new `epoch`, and a cursor of another epoch
//! is answered with every game (one full catch-up per mailbox restart). The same numbers
//! tell which summaries to store (`commit`), and the table keeps the `preverify` stage's
//! set of held games in step with its own keys: one place where a game is added or dropped.
//!
//! [`Request::GamesSince`]: crate::protocol::Request::GamesSince

use crate::preverify::Held;
use crate::view::Summary;
use sobre_core::record::{GameId, PlayerId};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Deref;

/// Every game served, by id (read through `Deref`), and when each last changed.
pub(crate) struct GameTable {
    games: HashMap<GameId, Summary>,
    epoch: u64,
    /// The number the last change took.
    cursor: u64,
    /// Change number → game, one entry per game (its last change).
    changes: BTreeMap<u64, GameId>,
    changed_at: HashMap<GameId, u64>,
    /// The games `preverify` checks signatures for: exactly these keys.
    held: Held,
    /// Per game, its heads (per author, the next sequence number) as last read from the
    /// store, dropped at every change of the game. A reconnect storm at a hub asks each
    /// game's heads about four times (each of its two players' `GamesSince`, both ways),
    /// and each read is a scan of the store: a fifth of the hub's work per connection.
    heads: HashMap<GameId, Vec<(PlayerId, u64)>>,
    /// Per player, the games they are a party to (challenger, opponent or arbiter): what a
    /// connection of theirs shares, found without reading every game the node holds (a
    /// mailbox holds tens of thousands, and its players reconnect all at once).
    by_player: HashMap<PlayerId, HashSet<GameId>>,
}

/// The players a game's summary names as its parties.
fn parties(s: &Summary) -> impl Iterator<Item = &PlayerId> {
    [&s.challenger, &s.opponent].into_iter().chain(&s.arbiters)
}

impl GameTable {
    /// The games loaded at start, under a fresh epoch; `held` is set to them.
    pub(crate) fn new(games: HashMap<GameId, Summary>, held: Held) -> GameTable {
        held.reset(games.keys().copied());
        let mut by_player: HashMap<PlayerId, HashSet<GameId>> = HashMap::new();
        for (g, s) in &games {
            for p in parties(s) {
                by_player.entry(*p).or_default().insert(*g);
            }
        }
        GameTable {
            by_player,
            held,
            games,
            // Never 0: a first ask (epoch 0) always gets the full list.
            epoch: rand::random::<u64>().max(1),
            cursor: 0,
            changes: BTreeMap::new(),
            changed_at: HashMap::new(),
            heads: HashMap::new(),
        }
    }

    /// The games loaded at start replace the table's, under a fresh epoch; the same `held`
    /// is set to them.
    pub(crate) fn load(&mut self, games: HashMap<GameId, Summary>) {
        *self = GameTable::new(games, self.held.clone());
    }

    /// Sets a game's summary: a change, numbered.
    pub(crate) fn insert(&mut self, game: GameId, summary: Summary) -> Option<Summary> {
        self.note(game);
        if !self.games.contains_key(&game) {
            self.held.insert(game);
        }
        for p in parties(&summary) {
            self.by_player.entry(*p).or_default().insert(game);
        }
        let old = self.games.insert(game, summary)?;
        // The parties of a game do not change; should one not be a party any more, it
        // leaves the index.
        let now: Vec<PlayerId> = parties(&self.games[&game]).copied().collect();
        for p in parties(&old).filter(|p| !now.contains(p)) {
            self.unindex(p, &game);
        }
        Some(old)
    }

    /// The games `player` is a party to, with their summaries.
    pub(crate) fn games_of<'a>(
        &'a self,
        player: &PlayerId,
    ) -> impl Iterator<Item = (&'a GameId, &'a Summary)> + 'a {
        self.by_player
            .get(player)
            .into_iter()
            .flatten()
            .filter_map(|g| self.games.get_key_value(g))
    }

    fn unindex(&mut self, player: &PlayerId, game: &GameId) {
        if let Some(set) = self.by_player.get_mut(player) {
            set.remove(game);
            if set.is_empty() {
                self.by_player.remove(player);
            }
        }
    }

    /// Forgets a game (a dropped challenge): nothing to list for it any more.
    pub(crate) fn remove(&mut self, game: &GameId) -> Option<Summary> {
        if let Some(n) = self.changed_at.remove(game) {
            self.changes.remove(&n);
        }
        self.held.remove(game);
        self.heads.remove(game);
        let old = self.games.remove(game)?;
        for p in parties(&old) {
            self.unindex(p, game);
        }
        Some(old)
    }

    /// The heads of `game` as last read from the store ([`GameTable::keep_heads`]), if it
    /// has not changed since.
    pub(crate) fn stored_heads(&self, game: &GameId) -> Option<&[(PlayerId, u64)]> {
        self.heads.get(game).map(Vec::as_slice)
    }

    /// Keeps the heads of `game` just read from the store, until the game changes.
    pub(crate) fn keep_heads(&mut self, game: GameId, heads: Vec<(PlayerId, u64)>) {
        if self.games.contains_key(&game) {
            self.heads.insert(game, heads);
        }
    }

    /// Records that `game` changed.
    fn note(&mut self, game: GameId) {
        self.heads.remove(&game);
        self.cursor += 1;
        if let Some(old) = self.changed_at.insert(game, self.cursor) {
            self.changes.remove(&old);
        }
        self.changes.insert(self.cursor, game);
    }

    pub(crate) fn epoch(&self) -> u64 {
        self.epoch
    }

    pub(crate) fn cursor(&self) -> u64 {
        self.cursor
    }

    /// The games changed after `since` in epoch `epoch`; every game if the epoch is not
    /// this run's (or `None` for a cursor that cannot be honoured).
    pub(crate) fn changed_since(&self, epoch: u64, since: u64) -> Vec<GameId> {
        if !self.honours(epoch, since) {
            return self.games.keys().copied().collect();
        }
        self.changes
            .range(since.saturating_add(1)..)
            .map(|(_, g)| *g)
            .collect()
    }

    /// [`GameTable::changed_since`], only the games `player` plays, from the index of each
    /// player's games whenever that is the shorter list: a player's node restarting asks
    /// with no cursor of this run, which was answered by a pass over every game held (tens
    /// of thousands at a mailbox, for each of its players reconnecting); one away for a week
    /// asks past every change since.
    pub(crate) fn changed_since_for(
        &self,
        player: &PlayerId,
        epoch: u64,
        since: u64,
    ) -> Vec<GameId> {
        let of_player = || self.games_of(player).filter(|(_, s)| s.plays(player));
        if !self.honours(epoch, since) {
            return of_player().map(|(g, _)| *g).collect();
        }
        // At most this many changes follow `since` (one entry per game, the last).
        let changes = usize::try_from(self.cursor - since).unwrap_or(usize::MAX);
        if self.by_player.get(player).map_or(0, HashSet::len) < changes {
            let mut games: Vec<(u64, GameId)> = of_player()
                .filter_map(|(g, _)| Some((*self.changed_at.get(g)?, *g)))
                .filter(|(n, _)| *n > since)
                .collect();
            // In the order of their changes, as from the list of changes.
            games.sort_unstable();
            return games.into_iter().map(|(_, g)| g).collect();
        }
        self.changes
            .range(since.saturating_add(1)..)
            .map(|(_, g)| *g)
            .filter(|g| self.games.get(g).is_some_and(|s| s.plays(player)))
            .collect()
    }

    /// Whether a cursor of `epoch` at `since` can be answered with what changed after it:
    /// one of this run, not ahead of it.
    fn honours(&self, epoch: u64, since: u64) -> bool {
        epoch == self.epoch && since <= self.cursor
    }
}

impl Deref for GameTable {
    type Target = HashMap<GameId, Summary>;

    fn deref(&self) -> &Self::Target {
        &self.games
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use sobre_core::record::{Keypair, verify};
    use sobre_core::test_support::GameBuilder;

    /// A real game's summary (a challenge and its acceptance between two keys of `n`); the
    /// other parts' tests use it too.
    pub(in crate::service) fn summary_of(n: u8) -> (GameId, Summary) {
        let key = |b: u8| Keypair::from_secret_bytes(&[b; 32]);
        let game = GameBuilder::new(key(n), key(n + 100))
            .sign(&[])
            .expect("a game signs");
        let state = verify(&game.events).expect("it verifies");
        (state.game, Summary::of(&state))
    }

    #[test]
    fn a_cursor_lists_only_what_changed_after_it_and_a_new_epoch_lists_everything() {
        let (a, sa) = summary_of(1);
        let (b, sb) = summary_of(2);
        let (c, sc) = summary_of(3);
        let held = Held::default();
        let mut t = GameTable::new(HashMap::from([(a, sa.clone()), (b, sb)]), held.clone());
        assert!(held.contains(&a) && held.contains(&b));
        let (epoch, start) = (t.epoch(), t.cursor());
        let mut all = t.changed_since(0, 0);
        all.sort();
        let mut expected = vec![a, b];
        expected.sort();
        assert_eq!(all, expected, "a first ask gets every game");
        assert!(
            t.changed_since(epoch, start).is_empty(),
            "nothing changed yet"
        );
        t.insert(c, sc);
        t.insert(a, sa);
        let after_c = t.cursor() - 1;
        assert_eq!(t.changed_since(epoch, start), vec![c, a]);
        assert_eq!(t.changed_since(epoch, after_c), vec![a]);
        let (_, sc) = summary_of(3);
        t.insert(c, sc);
        assert_eq!(
            t.changed_since(epoch, start),
            vec![a, c],
            "one entry per game"
        );
        assert!(held.contains(&c));
        t.remove(&c);
        assert!(
            !held.contains(&c),
            "preverify no longer checks a dropped game"
        );
        assert_eq!(t.changed_since(epoch, start), vec![a]);
        assert_eq!(t.changed_since(epoch, t.cursor()), Vec::<GameId>::new());
        assert_eq!(t.changed_since(epoch.wrapping_add(1), t.cursor()).len(), 2);
        assert_eq!(t.changed_since(epoch, t.cursor() + 5).len(), 2);
    }

    #[test]
    fn a_players_changes_come_from_its_games_or_the_changes_whichever_is_shorter() {
        let (a, sa) = summary_of(1);
        let (b, sb) = summary_of(2);
        let (player, other) = (sa.challenger, sb.challenger);
        let mut t = GameTable::new(
            HashMap::from([(a, sa.clone()), (b, sb.clone())]),
            Held::default(),
        );
        let (epoch, start) = (t.epoch(), t.cursor());
        assert_eq!(
            t.changed_since_for(&player, 0, 0),
            vec![a],
            "no cursor: its games"
        );
        assert_eq!(t.changed_since_for(&other, epoch, t.cursor() + 1), vec![b]);
        assert!(t.changed_since_for(&player, epoch, start).is_empty());
        // Many changes of other games: the player's one game is the shorter list.
        for _ in 0..5 {
            t.insert(b, sb.clone());
        }
        assert!(t.changed_since_for(&player, epoch, start).is_empty());
        t.insert(a, sa.clone());
        assert_eq!(t.changed_since_for(&player, epoch, start), vec![a]);
        assert_eq!(t.changed_since_for(&other, epoch, start), vec![b]);
        // One change after the cursor: read from the changes.
        let before = t.cursor();
        t.insert(b, sb);
        assert!(t.changed_since_for(&player, epoch, before).is_empty());
        assert_eq!(t.changed_since_for(&other, epoch, before), vec![b]);
        let stranger = summary_of(9).1.challenger;
        assert!(t.changed_since_for(&stranger, 0, 0).is_empty());
    }

    #[test]
    fn a_load_replaces_the_games_held_and_starts_a_new_epoch() {
        let (a, sa) = summary_of(1);
        let (b, sb) = summary_of(2);
        let held = Held::default();
        let mut t = GameTable::new(HashMap::from([(a, sa)]), held.clone());
        let epoch = t.epoch();
        t.load(HashMap::from([(b, sb)]));
        assert!(
            !held.contains(&a) && held.contains(&b),
            "preverify sees the loaded games"
        );
        assert!(t.contains_key(&b) && !t.contains_key(&a));
        assert_ne!(
            t.epoch(),
            epoch,
            "a cursor of before the load lists everything"
        );
    }

    /// The games of a player, found by the index, are those whose summary names them, as
    /// games are added, replaced, removed and loaded.
    #[test]
    fn the_games_of_a_player_follow_every_change() {
        let (a, sa) = summary_of(1);
        let (b, sb) = summary_of(2);
        let (c1, c2) = (sa.challenger, sa.opponent);
        let mut t = GameTable::new(HashMap::from([(a, sa.clone())]), Held::default());
        let of = |t: &GameTable, p: &PlayerId| {
            let mut v: Vec<GameId> = t.games_of(p).map(|(g, _)| *g).collect();
            v.sort();
            v
        };
        let by_scan = |t: &GameTable, p: &PlayerId| {
            let mut v: Vec<GameId> = t
                .iter()
                .filter(|(_, s)| s.challenger == *p || s.opponent == *p || s.arbiters.contains(p))
                .map(|(g, _)| *g)
                .collect();
            v.sort();
            v
        };
        assert_eq!(of(&t, &c1), vec![a]);
        assert_eq!(of(&t, &c2), vec![a]);
        t.insert(b, sb.clone());
        assert_eq!(of(&t, &sb.challenger), vec![b]);
        // An arbiter added to a's summary is a party; dropped again, no longer.
        let arbiter = PlayerId::from_bytes([7; 32]);
        let mut with_arbiter = sa.clone();
        with_arbiter.arbiters.push(arbiter);
        t.insert(a, with_arbiter);
        assert_eq!(of(&t, &arbiter), vec![a]);
        t.insert(a, sa);
        assert_eq!(of(&t, &arbiter), Vec::<GameId>::new());
        t.remove(&a);
        assert_eq!(of(&t, &c1), Vec::<GameId>::new());
        for p in [c1, c2, sb.challenger, sb.opponent, arbiter] {
            assert_eq!(of(&t, &p), by_scan(&t, &p));
        }
        t.load(HashMap::from([(a, summary_of(1).1)]));
        assert_eq!(of(&t, &c1), vec![a]);
        assert_eq!(of(&t, &sb.challenger), Vec::<GameId>::new());
    }

    #[test]
    fn heads_read_from_the_store_are_kept_until_the_game_changes() {
        let (a, sa) = summary_of(1);
        let (b, _) = summary_of(2);
        let mut t = GameTable::new(HashMap::from([(a, sa.clone())]), Held::default());
        let p = PlayerId::from_bytes([9; 32]);
        t.keep_heads(a, vec![(p, 2)]);
        assert_eq!(t.stored_heads(&a), Some(&[(p, 2)][..]));
        t.insert(a, sa);
        assert_eq!(t.stored_heads(&a), None, "a change of the game drops them");
        t.keep_heads(b, vec![(p, 1)]);
        assert_eq!(
            t.stored_heads(&b),
            None,
            "nothing is kept for a game not held"
        );
    }
}
