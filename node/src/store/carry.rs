//! What `sobre node repair` carries from a damaged database to the fresh one besides the
//! games, the remembered peers, the equivocation proofs and the dropped games (which it
//! checks one by one, see `integrity::repair`): the player's own side records, which no peer
//! can send back — leagues and their games, conditional lines, fair-coin choices, profiles,
//! and the reminders fired (so a repair does not remind of everything again).
//!
//! Entries are copied as they are, one by one: an entry sled cannot read (a damaged page)
//! is left behind and counted, never guessed at. League documents are signed and checked
//! again wherever they are used; a reminder must still decode to be carried.

use super::{Store, StoreError};
use crate::reminders::Reminder;

/// The side trees carried, by name.
pub const CARRIED: [&str; 8] = [
    "conditional",
    "coin_choices",
    "leagues",
    "league_joins",
    "league_sent",
    "league_games",
    "profiles",
    "reminders",
];

/// How much of the side trees a repair carried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Carried {
    pub entries: usize,
    /// Entries that could not be read (or a reminder that no longer decodes): left behind.
    pub lost: usize,
}

impl Store {
    /// Copies every readable entry of the side trees ([`CARRIED`]) of `old` into this store.
    ///
    /// # Errors
    /// If this (fresh) store cannot be written.
    pub fn carry_side_trees(&self, old: &Store) -> Result<Carried, StoreError> {
        let mut carried = Carried::default();
        for name in CARRIED {
            let (Ok(from), to) = (old.db.open_tree(name), self.db.open_tree(name)?) else {
                carried.lost += 1;
                continue;
            };
            for item in from.iter() {
                let Ok((k, v)) = item else {
                    carried.lost += 1;
                    continue;
                };
                if name == "reminders" && serde_json::from_slice::<Reminder>(&v).is_err() {
                    carried.lost += 1;
                    continue;
                }
                to.insert(k, v)?;
                carried.entries += 1;
            }
        }
        Ok(carried)
    }
}
