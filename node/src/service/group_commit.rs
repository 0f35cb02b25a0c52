//! The group commit's own state: what waits for the next flush (answers, receipts for the
//! integrity ledger, whether anything was written), the flush in progress, a storage failure
//! that stops the node, and which game summaries are still to be stored. The service asks it
//! what a flush should cover ([`GroupCommit::start`]) and tells it when one ends; running
//! the flush is `commit`'s.

use super::commit::Deferred;
use super::game_table::GameTable;
use crate::store::Store;
use crate::store::summaries::EventsDigest;
use crate::view::Summary;
use sobre_core::record::GameId;
use std::collections::HashSet;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tracing::warn;

/// A game's summary and the digest of the events it was built from, to store.
pub(super) type SummaryRecord = (GameId, EventsDigest, Summary);

/// Receipts signed in games, for the integrity ledger.
pub(super) type LedgerNotes = Vec<(GameId, Vec<Vec<u8>>)>;

/// What one flush covers, taken from [`GroupCommit`] as it starts. The flush task owns it:
/// it flushes the store if need be ([`Batch::flush`]), then sends the answers
/// ([`Batch::into_answers`]).
pub(super) struct Batch {
    /// Something was written since the last flush: the store is flushed.
    dirty: bool,
    pending: Vec<Deferred>,
    /// Receipts signed since the last flush, for the integrity ledger.
    notes: LedgerNotes,
    /// The summaries are due and some wait: the service takes them
    /// ([`GroupCommit::take_summaries`]).
    summaries: bool,
}

impl Batch {
    /// Whether the summaries are due with this flush: the service takes them
    /// ([`GroupCommit::take_summaries`]) and stores them after it.
    pub(super) fn stores_summaries(&self) -> bool {
        self.summaries
    }

    /// Flushes `store` if anything was written since the last flush (the error's text
    /// otherwise).
    pub(super) async fn flush(&self, store: &Store) -> Result<(), String> {
        if self.dirty {
            store.flush().await.map_err(|e| e.to_string())
        } else {
            Ok(())
        }
    }

    /// How many answers wait for this flush.
    pub(super) fn pending_len(&self) -> usize {
        self.pending.len()
    }

    /// After [`Batch::flush`]: the receipts to note in the integrity ledger and the answers
    /// that waited for the flush.
    pub(super) fn into_answers(self) -> (LedgerNotes, Vec<Deferred>) {
        (self.notes, self.pending)
    }
}

pub(super) struct GroupCommit {
    /// Answers waiting for the next flush, and whether anything was written since the last.
    pending: Vec<Deferred>,
    dirty: bool,
    /// Receipts signed since the last flush, written to the integrity ledger after it.
    ledger_notes: LedgerNotes,
    /// The group flush in progress (see `Service::commit`).
    flushing: Option<JoinHandle<()>>,
    /// Told when the group flush in progress has ended and answered, to start the next.
    flush_done: mpsc::Sender<Option<String>>,
    /// A group flush runs and has not told `flush_done` yet.
    flush_running: bool,
    /// A flush failed: the node stops without another write (see
    /// [`crate::error::NodeError::StorageFailed`]).
    storage_failed: Option<String>,
    /// The game table's change number when the summaries to store were last taken: the
    /// games changed after it have their summary stored after a group flush, so that the
    /// next start need not verify them (see `crate::store::summaries`).
    summaries_at: u64,
    /// Games verified in full at start, with the digest of the events read: their summaries
    /// are stored with the first summaries due (unless the game changed since).
    start_summaries: Vec<(GameId, EventsDigest)>,
    /// The next group commit stores the summaries changed: set on the retry tick (and when
    /// stopping), so that a game played fast has its events hashed once a tick, not at every
    /// move; a crash loses at most a tick of summaries, which costs verifications only.
    summaries_due: bool,
}

impl GroupCommit {
    pub(super) fn new(flush_done: mpsc::Sender<Option<String>>) -> GroupCommit {
        GroupCommit {
            pending: Vec::new(),
            dirty: false,
            ledger_notes: Vec::new(),
            flushing: None,
            flush_done,
            flush_running: false,
            storage_failed: None,
            summaries_at: 0,
            start_summaries: Vec::new(),
            summaries_due: false,
        }
    }

    /// The games were loaded at `cursor` of the game table; `verified` were verified in full
    /// and have their summaries stored with the first ones due.
    pub(super) fn loaded(&mut self, cursor: u64, verified: Vec<(GameId, EventsDigest)>) {
        self.summaries_at = cursor;
        self.start_summaries = verified;
    }

    /// An answer that must wait until what it acknowledges is durable.
    pub(super) fn defer(&mut self, answer: Deferred) {
        self.pending.push(answer);
    }

    /// Something was written to the store: the next commit flushes it.
    pub(super) fn wrote(&mut self) {
        self.dirty = true;
    }

    /// Receipts signed in `game`, noted in the integrity ledger once flushed.
    pub(super) fn note_receipts(&mut self, game: GameId, receipts: Vec<Vec<u8>>) {
        self.ledger_notes.push((game, receipts));
    }

    /// A write failed: nothing more is flushed, and the node stops.
    pub(super) fn failed(&mut self, e: String) {
        self.storage_failed = Some(e);
    }

    pub(super) fn has_failed(&self) -> bool {
        self.storage_failed.is_some()
    }

    /// The storage failure, taken once as the node stops.
    pub(super) fn take_failure(&mut self) -> Option<String> {
        self.storage_failed.take()
    }

    /// The flush in progress told it has ended, with its error if it failed.
    pub(super) fn flush_ended(&mut self, failed: Option<String>) {
        self.flush_running = false;
        if failed.is_some() {
            self.storage_failed = failed;
        }
    }

    /// The retry tick: the next commit stores the summaries changed.
    pub(super) fn summaries_due(&mut self) {
        self.summaries_due = true;
    }

    /// Whether some summary waits to be stored: a game changed since the last ones were
    /// taken (the table at `cursor`), or one verified at start.
    fn summaries_waiting(&self, cursor: u64) -> bool {
        cursor != self.summaries_at || !self.start_summaries.is_empty()
    }

    /// Whether nothing waits for a flush, with the game table at `cursor`.
    pub(super) fn idle(&self, cursor: u64) -> bool {
        self.pending.is_empty() && !self.dirty && !self.summaries_waiting(cursor)
    }

    /// What the next flush covers, taken: none while a flush runs (what waits goes with the
    /// next, started when it ends), after a storage failure, or when nothing waits.
    pub(super) fn start(&mut self, cursor: u64) -> Option<Batch> {
        let summaries = self.summaries_due && self.summaries_waiting(cursor);
        if self.pending.is_empty() && !self.dirty && !summaries {
            return None;
        }
        if self.flush_running || self.storage_failed.is_some() {
            return None;
        }
        if summaries {
            self.summaries_due = false;
        }
        Some(Batch {
            dirty: std::mem::take(&mut self.dirty),
            pending: std::mem::take(&mut self.pending),
            notes: std::mem::take(&mut self.ledger_notes),
            summaries,
        })
    }

    /// The sender the flush task tells when it ends.
    pub(super) fn done_sender(&self) -> mpsc::Sender<Option<String>> {
        self.flush_done.clone()
    }

    /// The flush task for the batch [`GroupCommit::start`] gave runs.
    pub(super) fn running(&mut self, task: JoinHandle<()>) {
        self.flushing = Some(task);
        self.flush_running = true;
    }

    /// Waits for the flush in progress, if any, and its answers.
    pub(super) async fn flushed(&mut self) {
        if let Some(f) = self.flushing.take()
            && let Err(e) = f.await
        {
            warn!("flush task failed: {e}");
        }
    }

    /// On stopping, after [`GroupCommit::flushed`]: no flush runs any more, and the
    /// summaries are due with the last one.
    pub(super) fn last_flush(&mut self) {
        self.flush_running = false;
        self.summaries_due = true;
    }

    /// The summaries changed since they were last taken, each with the digest of the events
    /// it was built from (`digest` of the game in memory, which the summary was computed
    /// over: every change of a game's events in memory changes its summary with them). A game
    /// no longer in memory is left out, and verified at the next start.
    pub(super) fn take_summaries(
        &mut self,
        games: &GameTable,
        digest: impl Fn(&GameId) -> Option<EventsDigest>,
    ) -> Vec<SummaryRecord> {
        // The games whose summary changed since the last time: the game table's change
        // numbers say which.
        let changed: HashSet<GameId> = games
            .changed_since(games.epoch(), self.summaries_at)
            .into_iter()
            .collect();
        self.summaries_at = games.cursor();
        // Verified at start and unchanged since: the summary is still the one of the events
        // the digest was taken over.
        let at_start: Vec<SummaryRecord> = std::mem::take(&mut self.start_summaries)
            .into_iter()
            .filter(|(game, _)| !changed.contains(game))
            .filter_map(|(game, d)| Some((game, d, games.get(&game)?.clone())))
            .collect();
        changed
            .into_iter()
            .filter_map(|game| Some((game, digest(&game)?, games.get(&game)?.clone())))
            .chain(at_start)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preverify::Held;
    use crate::service::game_table::tests::summary_of;
    use std::collections::HashMap;

    fn part() -> GroupCommit {
        let (tx, _rx) = mpsc::channel(1);
        GroupCommit::new(tx)
    }

    fn game(n: u8) -> GameId {
        summary_of(n).0
    }

    fn table(games: &[u8]) -> GameTable {
        let games: HashMap<GameId, Summary> = games.iter().map(|n| summary_of(*n)).collect();
        GameTable::new(games, Held::default())
    }

    #[test]
    fn nothing_written_and_nothing_waiting_starts_no_flush() {
        let mut c = part();
        assert!(c.idle(0));
        assert!(c.start(0).is_none());
        c.wrote();
        assert!(!c.idle(0));
        let batch = c.start(0).expect("a write is flushed");
        assert!(batch.dirty && batch.pending.is_empty() && !batch.summaries);
        assert!(c.start(0).is_none(), "the batch took the write");
    }

    #[test]
    fn what_is_written_while_a_flush_runs_waits_for_the_next() {
        let mut c = part();
        c.wrote();
        let _first = c.start(0).expect("first flush");
        c.flush_running = true;
        c.wrote();
        c.note_receipts(game(1), vec![vec![1]]);
        assert!(c.start(0).is_none(), "one flush at a time");
        c.flush_ended(None);
        let next = c
            .start(0)
            .expect("the next flush starts when the last ends");
        assert!(next.dirty);
        assert_eq!(next.notes.len(), 1);
    }

    #[test]
    fn a_failed_flush_stops_every_later_one() {
        let mut c = part();
        c.flush_running = true;
        c.flush_ended(Some("disk full".into()));
        c.wrote();
        assert!(c.has_failed());
        assert!(c.start(0).is_none(), "nothing more is written");
        assert_eq!(c.take_failure().as_deref(), Some("disk full"));
    }

    #[test]
    fn summaries_go_with_a_flush_only_once_due_and_changed() {
        let mut c = part();
        c.loaded(3, Vec::new());
        c.summaries_due();
        assert!(c.start(3).is_none(), "due but nothing changed");
        let batch = c.start(4).expect("a game changed and summaries are due");
        assert!(batch.summaries && !batch.dirty);
        // Taken: not due again until the next tick.
        c.summaries_at = 4;
        assert!(c.start(5).is_none());
    }

    #[test]
    fn summaries_taken_are_the_changed_games_in_memory_and_the_unchanged_verified_at_start() {
        let mut games = table(&[1, 2, 3]);
        let mut c = part();
        let digest = |g: &GameId| Some(EventsDigest::of_verified(g, &[]));
        c.loaded(
            games.cursor(),
            vec![
                (game(1), digest(&game(1)).unwrap()),
                (game(2), digest(&game(2)).unwrap()),
            ],
        );
        // Game 2 changes after the start (its start digest is stale), game 3 too, but it is
        // no longer in memory.
        let s = games.get(&game(2)).unwrap().clone();
        games.insert(game(2), s);
        let s = games.get(&game(3)).unwrap().clone();
        games.insert(game(3), s);
        let in_memory = |g: &GameId| (*g != game(3)).then(|| EventsDigest::of_verified(g, &[]));
        let mut taken: Vec<GameId> = c
            .take_summaries(&games, in_memory)
            .into_iter()
            .map(|(g, _, _)| g)
            .collect();
        taken.sort();
        let mut expected = vec![game(1), game(2)];
        expected.sort();
        assert_eq!(taken, expected);
        assert!(c.idle(games.cursor()), "nothing left to store");
    }
}
