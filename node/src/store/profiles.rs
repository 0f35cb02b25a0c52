//! The players' signed profiles this node received (one per player, the newest).
//!
//! | tree | key | value |
//! | --- | --- | --- |
//! | `profiles` | player | the signed profile's wire bytes |
//!
//! Stored as received, after the service verified them; read back with the same strict
//! decoding. The service keeps only profiles of players it has a part with (see
//! `service::profile`), so the tree grows with the player's games, not with strangers.

use super::{Store, StoreError};
use sobre_core::record::{PlayerId, SignedProfile};

impl Store {
    fn profiles_tree(&self) -> Result<sled::Tree, StoreError> {
        Ok(self.db.open_tree("profiles")?)
    }

    /// The profile kept for `player`, if any. A damaged entry reads as none (it is replaced
    /// by the next profile that player sends).
    ///
    /// # Errors
    /// On I/O errors.
    pub fn profile(&self, player: &PlayerId) -> Result<Option<SignedProfile>, StoreError> {
        Ok(self
            .profiles_tree()?
            .get(player.as_bytes())?
            .and_then(|b| SignedProfile::from_bytes(&b).ok()))
    }

    /// Keeps `profile` as `player`'s (the caller verified it and checked it is newer). The
    /// caller flushes.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn set_profile(
        &self,
        player: &PlayerId,
        profile: &SignedProfile,
    ) -> Result<(), StoreError> {
        let bytes = profile.to_bytes().map_err(|e| StoreError::Corrupt {
            tree: "profiles",
            reason: e.to_string(),
        })?;
        self.profiles_tree()?.insert(player.as_bytes(), bytes)?;
        Ok(())
    }

    /// Forgets `player`'s profile (a challenger whose unanswered challenge was dropped). The
    /// caller flushes.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn remove_profile(&self, player: &PlayerId) -> Result<(), StoreError> {
        self.profiles_tree()?.remove(player.as_bytes())?;
        Ok(())
    }

    /// Every profile kept, by player.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn profiles(&self) -> Result<Vec<(PlayerId, SignedProfile)>, StoreError> {
        let mut out = Vec::new();
        for item in self.profiles_tree()?.iter() {
            let (k, v) = item?;
            let Ok(key) = <[u8; 32]>::try_from(k.as_ref()) else {
                continue;
            };
            if let Ok(p) = SignedProfile::from_bytes(&v) {
                out.push((PlayerId::from_bytes(key), p));
            }
        }
        Ok(out)
    }
}
