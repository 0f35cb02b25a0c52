//! What the tick remembers of coins and escrowed envelopes within a run, so that a failure
//! is tried once and reported once, not on every tick: the coins this run tried to open or
//! settle, the envelopes escrowed here that did not open, and whether the player settles
//! coins by hand. Opening and settling are `coin`'s and `arbiter`'s.

use sobre_core::record::GameId;
use std::collections::HashSet;

#[derive(Default)]
pub(super) struct CoinState {
    /// The player settles unopened coins by hand (see `NodeConfig::manual_coin_default`).
    manual_default: bool,
    /// Games whose coin this run has tried to open or settle on the tick and failed.
    coin_tried: HashSet<GameId>,
    /// Games whose envelope, escrowed to this node, could not be opened from the escrow
    /// (reported once; `sobre envelope open` tries again).
    escrow_refused: HashSet<GameId>,
}

impl CoinState {
    pub(super) fn new(manual_default: bool) -> CoinState {
        CoinState {
            manual_default,
            ..CoinState::default()
        }
    }

    /// Whether the player settles unopened coins by hand rather than the tick.
    pub(super) fn manual_default(&self) -> bool {
        self.manual_default
    }

    /// Whether the tick may still try `game`'s coin in this run.
    pub(super) fn may_try_coin(&self, game: &GameId) -> bool {
        !self.coin_tried.contains(game)
    }

    /// The tick tried `game`'s coin: not again in this run.
    pub(super) fn coin_tried(&mut self, game: GameId) {
        self.coin_tried.insert(game);
    }

    /// Whether the tick may still try to open `game`'s escrowed envelope.
    pub(super) fn may_open_escrow(&self, game: &GameId) -> bool {
        !self.escrow_refused.contains(game)
    }

    /// `game`'s escrowed envelope did not open: the tick leaves it until something changes.
    pub(super) fn escrow_refused(&mut self, game: GameId) {
        self.escrow_refused.insert(game);
    }

    /// Something changed in `game` (new events, an opening by hand): the tick tries again.
    pub(super) fn escrow_changed(&mut self, game: &GameId) {
        self.escrow_refused.remove(game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::EventId;

    #[test]
    fn a_coin_is_tried_once_per_run() {
        let mut c = CoinState::new(true);
        assert!(c.manual_default());
        let g = EventId([1; 32]);
        assert!(c.may_try_coin(&g));
        c.coin_tried(g);
        assert!(!c.may_try_coin(&g));
        assert!(c.may_try_coin(&EventId([2; 32])));
    }

    #[test]
    fn a_refused_escrow_waits_for_a_change_of_its_game() {
        let mut c = CoinState::new(false);
        let g = EventId([1; 32]);
        c.escrow_refused(g);
        assert!(!c.may_open_escrow(&g));
        c.escrow_changed(&EventId([2; 32]));
        assert!(
            !c.may_open_escrow(&g),
            "another game's change does not count"
        );
        c.escrow_changed(&g);
        assert!(c.may_open_escrow(&g));
    }
}
