//! The games in use, with their events and full state ([`GameCache`]), the least recently
//! used dropped first. The others are read back from the store (and verified) when used
//! (`Service::ensure_hot`); a node holding thousands of games would otherwise keep kilobytes
//! for each. Looking at a game (`peek`) does not count as using it: a sync answered or a
//! summary stored must not keep a game in memory that nobody plays.

use super::cache::GameCache;
use hashlink::LruCache;
use sobre_core::record::GameId;

/// Games whose events and full state stay in memory: the games being played now.
pub(super) const HOT_GAMES: usize = 256;

pub(super) struct HotGames(LruCache<GameId, GameCache>);

impl HotGames {
    pub(super) fn new(capacity: usize) -> HotGames {
        HotGames(LruCache::new(capacity))
    }

    /// A game in memory, looked at (not counted as used).
    pub(super) fn peek(&self, game: &GameId) -> Option<&GameCache> {
        self.0.peek(game)
    }

    /// A game in memory, changed where it stands (not counted as used).
    pub(super) fn peek_mut(&mut self, game: &GameId) -> Option<&mut GameCache> {
        self.0.peek_mut(game)
    }

    /// A game in memory, used: the last to be dropped.
    pub(super) fn get_mut(&mut self, game: &GameId) -> Option<&mut GameCache> {
        self.0.get_mut(game)
    }

    /// Whether `game` is in memory; if so, it is used.
    pub(super) fn touch(&mut self, game: &GameId) -> bool {
        self.0.get(game).is_some()
    }

    /// Keeps `cache` as `game`'s, dropping the least recently used game if full.
    pub(super) fn insert(&mut self, game: GameId, cache: GameCache) {
        self.0.insert(game, cache);
    }

    /// Drops `game` from memory (it is read back from the store when used).
    pub(super) fn forget(&mut self, game: &GameId) {
        self.0.remove(game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::{Keypair, verify};
    use sobre_core::test_support::GameBuilder;

    /// A cache of a real game between two keys of `n` (its state only).
    fn cache(n: u8) -> (GameId, GameCache) {
        let key = |b: u8| Keypair::from_secret_bytes(&[b; 32]);
        let game = GameBuilder::new(key(n), key(n + 100))
            .sign(&[])
            .expect("a game signs");
        let state = verify(&game.events).expect("it verifies");
        (state.game, GameCache::new(Vec::new(), state, None, None))
    }

    #[test]
    fn the_least_recently_used_game_is_dropped_and_a_look_is_no_use() {
        let mut hot = HotGames::new(2);
        let ((a, ca), (b, cb), (c, cc)) = (cache(1), cache(2), cache(3));
        hot.insert(a, ca);
        hot.insert(b, cb);
        // `a` is looked at, not used: still the first to go.
        assert!(hot.peek(&a).is_some());
        hot.insert(c, cc);
        assert!(hot.peek(&a).is_none(), "the least recently used went");
        assert!(hot.peek(&b).is_some() && hot.peek(&c).is_some());
        // `b` is used: `c` goes next.
        assert!(hot.touch(&b));
        let (a, ca) = cache(1);
        hot.insert(a, ca);
        assert!(hot.peek(&c).is_none());
        assert!(hot.get_mut(&b).is_some());
        hot.forget(&b);
        assert!(!hot.touch(&b));
    }
}
