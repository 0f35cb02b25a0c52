//! The reminders fired, in the `reminders` tree: key → JSON [`Reminder`]. A key present means
//! that reminder has fired and never fires again, across restarts too (the service writes it
//! before publishing it, and flushes with its next group commit). At most
//! [`MAX_REMINDERS`] are kept, the oldest forgotten first: an old reminder forgotten can no
//! longer be due (its move, round or resumption is long past).

use super::{Store, StoreError};
use crate::reminders::Reminder;

/// Reminders kept at most.
pub const MAX_REMINDERS: usize = 4096;

impl Store {
    /// Whether the reminder `key` has fired.
    pub fn reminder_fired(&self, key: &str) -> bool {
        self.reminders.contains_key(key.as_bytes()).unwrap_or(false)
    }

    /// Records `r` as fired (the caller flushes). Returns false if its key had fired already
    /// (then nothing is written).
    ///
    /// # Errors
    /// On I/O errors.
    pub fn reminder_put(&self, r: &Reminder) -> Result<bool, StoreError> {
        let value = serde_json::to_vec(r).map_err(|e| StoreError::Corrupt {
            tree: "reminders",
            reason: e.to_string(),
        })?;
        let fresh = self
            .reminders
            .compare_and_swap(r.key.as_bytes(), None as Option<&[u8]>, Some(value))?
            .is_ok();
        if fresh && self.reminders.len() > MAX_REMINDERS {
            let all = self.reminders_all()?;
            for old in all.iter().take(all.len().saturating_sub(MAX_REMINDERS)) {
                self.reminders.remove(old.key.as_bytes())?;
            }
        }
        Ok(fresh)
    }

    /// The latest `limit` reminders, oldest first.
    ///
    /// # Errors
    /// On I/O errors or an unreadable record.
    pub fn reminders(&self, limit: usize) -> Result<Vec<Reminder>, StoreError> {
        let mut all = self.reminders_all()?;
        let skip = all.len().saturating_sub(limit);
        Ok(all.split_off(skip))
    }

    fn reminders_all(&self) -> Result<Vec<Reminder>, StoreError> {
        let mut out = Vec::with_capacity(self.reminders.len());
        for item in self.reminders.iter() {
            let (_, v) = item?;
            let r: Reminder = serde_json::from_slice(&v).map_err(|e| StoreError::Corrupt {
                tree: "reminders",
                reason: e.to_string(),
            })?;
            out.push(r);
        }
        out.sort_by(|a, b| (a.time_ms, &a.key).cmp(&(b.time_ms, &b.key)));
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reminders::ReminderKind;

    fn reminder(key: &str, t: u64) -> Reminder {
        Reminder {
            key: key.to_owned(),
            game: Some("ab".repeat(32)),
            time_ms: t,
            text: "your opponent played e4".to_owned(),
            kind: ReminderKind::MoveArrived {
                san: "e4".to_owned(),
                ply: 1,
                by: "12D3KooW".to_owned(),
            },
        }
    }

    #[test]
    fn a_reminder_fires_once_even_after_the_database_is_reopened() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = Store::open(dir.path()).unwrap();
            assert!(store.reminder_put(&reminder("move:ab:1", 10)).unwrap());
            assert!(!store.reminder_put(&reminder("move:ab:1", 20)).unwrap());
            futures::executor::block_on(store.flush()).unwrap();
        }
        let store = Store::open(dir.path()).unwrap();
        assert!(store.reminder_fired("move:ab:1"));
        assert!(!store.reminder_put(&reminder("move:ab:1", 30)).unwrap());
        let listed = store.reminders(10).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].time_ms, 10, "the first one is kept");
    }

    #[test]
    fn reminders_are_listed_oldest_first_and_limited() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        for (k, t) in [("c", 30), ("a", 10), ("b", 20)] {
            store.reminder_put(&reminder(k, t)).unwrap();
        }
        let keys: Vec<String> = store
            .reminders(2)
            .unwrap()
            .into_iter()
            .map(|r| r.key)
            .collect();
        assert_eq!(keys, ["b", "c"]);
    }
}
