//! Group commit: answers to peers (receipts, gossip verdicts) wait for the flush that makes
//! what they acknowledge durable; one flush covers everything stored meanwhile.

use super::Service;
use crate::integrity;
use crate::network::NetworkHandle;
use crate::protocol::Response;
use crate::store::Store;
use crate::store::summaries::EventsDigest;
use crate::view::Summary;
use libp2p::PeerId;
use libp2p::gossipsub::{MessageAcceptance, MessageId};
use sobre_core::record::{GameId, PlayerId};
use std::path::Path;
use tokio::sync::{mpsc, oneshot};
use tracing::warn;

/// An answer that waits for the store flush covering what it acknowledges.
pub(super) enum Deferred {
    Reply {
        reply: oneshot::Sender<Response>,
        response: Response,
    },
    Validation {
        message_id: MessageId,
        source: PeerId,
        acceptance: MessageAcceptance,
    },
}

/// Tells the service a group flush has ended (see [`Service::commit`]), when dropped, with
/// the flush's error if it failed (the node then stops: see
/// [`crate::error::NodeError::StorageFailed`]).
pub(super) struct FlushDone {
    tx: mpsc::Sender<Option<String>>,
    failed: Option<String>,
}

impl Drop for FlushDone {
    fn drop(&mut self) {
        // The service may be stopping and no longer listen: nothing to start then.
        let _ = self.tx.try_send(self.failed.take());
    }
}

/// After a group flush: the integrity ledger notes, then the answers waiting for it (receipts
/// refused and gossip ignored if the flush failed).
pub(super) async fn answer(
    home: &Path,
    me: &PlayerId,
    net: &NetworkHandle,
    flushed: Result<(), String>,
    notes: Vec<(GameId, Vec<Vec<u8>>)>,
    pending: Vec<Deferred>,
) {
    match &flushed {
        Err(e) => warn!("storage failure, answers withheld: {e}"),
        Ok(()) => integrity::note_all(
            home,
            me,
            notes
                .iter()
                .map(|(game, receipts)| (game, receipts.as_slice())),
        ),
    }
    for d in pending {
        match d {
            Deferred::Reply { reply, response } => {
                let response = match (&flushed, response) {
                    (Err(e), Response::Receipts { .. }) => Response::Refused {
                        reason: format!("storage failure: {e}"),
                    },
                    (_, r) => r,
                };
                let _ = reply.send(response);
            }
            Deferred::Validation {
                message_id,
                source,
                acceptance,
            } => {
                let acceptance = match (&flushed, acceptance) {
                    (Err(_), MessageAcceptance::Accept) => MessageAcceptance::Ignore,
                    (_, a) => a,
                };
                let _ = net.report_validation(message_id, source, acceptance).await;
            }
        }
    }
}

impl Service {
    /// Group commit: one flush for everything stored since the last one, then the answers
    /// waiting for it — a receipt or a gossip acceptance is never sent before the events it
    /// covers are durable. The flush runs beside the service, which goes on with the next
    /// batches meanwhile; one flush at a time: while one runs, what is stored and the answers
    /// waiting wait for the next, started when it ends (`flush_done`). A flush covers only
    /// what was written before it began, so nothing is answered by a flush already running;
    /// answers go out in the order of the flushes, so also after the ones before. After the
    /// answers, when due, the summaries of the games changed are stored (see
    /// [`Service::summaries_to_store`]).
    pub(super) async fn commit(&mut self) {
        let summaries_due = self.summaries_due && self.summaries_waiting();
        if self.pending.is_empty() && !self.dirty && !summaries_due {
            return;
        }
        if self.flush_running || self.storage_failed.is_some() {
            return;
        }
        // The last flush told `flush_done`: its task has ended or is about to.
        self.flushed().await;
        let dirty = std::mem::take(&mut self.dirty);
        let pending = std::mem::take(&mut self.pending);
        let notes = std::mem::take(&mut self.ledger_notes);
        let summaries = if summaries_due {
            self.summaries_due = false;
            self.summaries_to_store()
        } else {
            Vec::new()
        };
        let (store, net, home, me, done) = (
            self.store.clone(),
            self.net.clone(),
            self.home.clone(),
            self.me,
            self.flush_done.clone(),
        );
        self.flushing = Some(tokio::spawn(async move {
            // Tells the service even if this task is cut short, or no flush would start again.
            let mut done = FlushDone {
                tx: done,
                failed: None,
            };
            let flushed = if dirty {
                store.flush().await.map_err(|e| e.to_string())
            } else {
                Ok(())
            };
            done.failed = flushed.as_ref().err().cloned();
            let stored = flushed.is_ok();
            answer(&home, &me, &net, flushed, notes, pending).await;
            // Only over events on disk; the next flush makes them durable too.
            if stored {
                store_summaries(&store, &summaries);
            }
        }));
        self.flush_running = true;
    }

    /// Flushes and answers everything waiting, the flush in progress first (on stopping).
    pub(super) async fn commit_all(&mut self) {
        loop {
            self.flushed().await;
            self.flush_running = false;
            if self.pending.is_empty() && !self.dirty && !self.summaries_waiting() {
                return;
            }
            self.summaries_due = true;
            self.commit().await;
        }
    }

    /// Waits for the flush [`Service::commit`] started, if any, and its answers.
    pub(super) async fn flushed(&mut self) {
        if let Some(f) = self.flushing.take()
            && let Err(e) = f.await
        {
            warn!("flush task failed: {e}");
        }
    }
}

/// A game's summary and the digest of the events it was built from, to store.
type SummaryRecord = (GameId, EventsDigest, Summary);

impl Service {
    /// Whether some summary waits to be stored: a game changed since the last ones were
    /// taken, or one verified at start.
    fn summaries_waiting(&self) -> bool {
        self.games.cursor() != self.summaries_at || !self.start_summaries.is_empty()
    }

    /// The summaries changed since the last commit, each with the digest of the events it was
    /// built from: those of the game in memory, which the summary was computed over (every
    /// change of a game's events in memory changes its summary with them). A game no longer
    /// in memory is left out, and verified at the next start.
    fn summaries_to_store(&mut self) -> Vec<SummaryRecord> {
        // The games whose summary changed since the last time: the game table's change
        // numbers say which.
        let changed: std::collections::HashSet<GameId> = self
            .games
            .changed_since(self.games.epoch(), self.summaries_at)
            .into_iter()
            .collect();
        self.summaries_at = self.games.cursor();
        // Verified at start and unchanged since: the summary is still the one of the events
        // the digest was taken over.
        let at_start: Vec<SummaryRecord> = std::mem::take(&mut self.start_summaries)
            .into_iter()
            .filter(|(game, _)| !changed.contains(game))
            .filter_map(|(game, digest)| Some((game, digest, self.games.get(&game)?.clone())))
            .collect();
        changed
            .into_iter()
            .filter_map(|game| {
                let cache = self.hot.peek(&game)?;
                let summary = self.games.get(&game)?.clone();
                let digest = EventsDigest::of_verified(&game, &cache.events[..cache.kept]);
                Some((game, digest, summary))
            })
            .chain(at_start)
            .collect()
    }
}

/// Stores summaries after the flush of their events. A failure costs the next start a
/// verification of the game, nothing else.
fn store_summaries(store: &Store, summaries: &[SummaryRecord]) {
    for (game, digest, summary) in summaries {
        if let Err(e) = store.set_summary(game, digest, summary) {
            warn!(%game, "summary not stored, the next start verifies the game: {e}");
        }
    }
}
