//! Games the node dropped (a stranger's unanswered challenge past the quarantine's room, a
//! blocked player's game), remembered so that the node never signs in them again: one key
//! per game in the `forgotten` tree, valued by the order of dropping, at most
//! [`MAX_FORGOTTEN`]. A key per game rather than one list: a stranger rotating identities
//! makes the node drop a challenge per delivery, and rewriting a 4,096-entry list each time
//! (270 KB) made sled's log grow by megabytes a second under that attack.

use super::{MAX_FORGOTTEN, Store, StoreError};
use sobre_core::record::{EventId, GameId};

/// Where versions before the `forgotten` tree kept the list (a JSON list in `meta`).
const LEGACY_META_KEY: &str = "forgotten";

impl Store {
    /// Records `game` as dropped; past [`MAX_FORGOTTEN`] the longest dropped is forgotten
    /// for good. The caller flushes.
    pub(super) fn remember_forgotten(&self, game: &GameId) -> Result<(), StoreError> {
        let order = self.db.generate_id()?;
        self.forgotten.insert(game.0, &order.to_be_bytes())?;
        if self.forgotten.len() > MAX_FORGOTTEN
            && let Some((oldest, _)) = self.forgotten_in_order()?.first()
        {
            self.forgotten.remove(oldest.0)?;
        }
        Ok(())
    }

    /// Whether `game` was dropped with [`Store::forget_game`].
    pub fn is_forgotten(&self, game: &GameId) -> bool {
        self.forgotten.contains_key(game.0).unwrap_or(false)
    }

    /// The games dropped with [`Store::forget_game`], oldest first (at most
    /// [`MAX_FORGOTTEN`]).
    pub fn forgotten(&self) -> Vec<GameId> {
        self.forgotten_in_order()
            .unwrap_or_default()
            .into_iter()
            .map(|(g, _)| g)
            .collect()
    }

    /// Records `games` (oldest first) as dropped: `node repair` carries them over.
    pub(crate) fn restore_forgotten(&self, games: &[GameId]) -> Result<(), StoreError> {
        games.iter().try_for_each(|g| self.remember_forgotten(g))
    }

    fn forgotten_in_order(&self) -> Result<Vec<(GameId, u64)>, StoreError> {
        let corrupt = |reason: &str| StoreError::Corrupt {
            tree: "forgotten",
            reason: reason.to_owned(),
        };
        let mut out = Vec::new();
        for item in self.forgotten.iter() {
            let (k, v) = item?;
            let id: [u8; 32] = k[..]
                .try_into()
                .map_err(|_| corrupt("a key is not a game id"))?;
            let order: [u8; 8] = v[..]
                .try_into()
                .map_err(|_| corrupt("a value is not an order"))?;
            out.push((EventId(id), u64::from_be_bytes(order)));
        }
        out.sort_by_key(|&(_, order)| order);
        Ok(out)
    }

    /// Moves a list kept by an earlier version into the tree, once.
    pub(super) fn upgrade_forgotten(&self) -> Result<(), StoreError> {
        let legacy: Vec<GameId> = self.meta_list(LEGACY_META_KEY);
        if self.meta_get(LEGACY_META_KEY)?.is_none() {
            return Ok(());
        }
        self.restore_forgotten(&legacy)?;
        self.meta.remove(LEGACY_META_KEY)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_games_are_remembered_in_order_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let g = |i: u16| {
            EventId({
                let mut b = [0u8; 32];
                b[..2].copy_from_slice(&i.to_be_bytes());
                b
            })
        };
        // Ids sorted the other way round from the order of dropping.
        for i in (0..=MAX_FORGOTTEN as u16).rev() {
            store.forget_game(&g(i)).unwrap();
        }
        let gone = store.forgotten();
        assert_eq!(gone.len(), MAX_FORGOTTEN);
        // The first dropped (the highest id) is the one forgotten for good.
        assert!(!store.is_forgotten(&g(MAX_FORGOTTEN as u16)));
        assert_eq!(gone.first(), Some(&g(MAX_FORGOTTEN as u16 - 1)));
        assert_eq!(gone.last(), Some(&g(0)));
        assert!(store.is_forgotten(&g(0)));
    }

    #[test]
    fn a_list_kept_by_an_earlier_version_is_carried_over() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (EventId([1; 32]), EventId([2; 32]));
        {
            let store = Store::open(dir.path()).unwrap();
            store.set_meta_list(LEGACY_META_KEY, [b, a]).unwrap();
        }
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.forgotten(), vec![b, a]);
        assert_eq!(store.meta_get(LEGACY_META_KEY).unwrap(), None);
    }
}
