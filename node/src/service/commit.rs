//! Group commit: answers to peers (receipts, gossip verdicts) wait for the flush that makes
//! what they acknowledge durable; one flush covers everything stored meanwhile.

use super::Service;
use super::group_commit::{LedgerNotes, SummaryRecord};
use crate::integrity;
use crate::network::NetworkHandle;
use crate::protocol::Response;
use crate::store::Store;
use crate::store::summaries::EventsDigest;
use libp2p::PeerId;
use libp2p::gossipsub::{MessageAcceptance, MessageId};
use sobre_core::record::PlayerId;
use std::path::Path;
use tokio::sync::{mpsc, oneshot};
use tracing::{debug, warn};

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
    notes: LedgerNotes,
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
    /// [`GroupCommit::take_summaries`]).
    ///
    /// [`GroupCommit::take_summaries`]: super::group_commit::GroupCommit::take_summaries
    pub(super) async fn commit(&mut self) {
        let Some(batch) = self.commits.start(self.games.cursor()) else {
            return;
        };
        // The last flush told `flush_done`: its task has ended or is about to.
        self.commits.flushed().await;
        let summaries = if batch.stores_summaries() {
            let hot = &self.hot;
            self.commits.take_summaries(&self.games, |game| {
                let cache = hot.peek(game)?;
                Some(EventsDigest::of_verified(game, &cache.events[..cache.kept]))
            })
        } else {
            Vec::new()
        };
        let (store, net, home, me, done) = (
            self.store.clone(),
            self.net.clone(),
            self.identity.home().to_path_buf(),
            self.identity.me(),
            self.commits.done_sender(),
        );
        self.commits.running(tokio::spawn(async move {
            // Tells the service even if this task is cut short, or no flush would start again.
            let mut done = FlushDone {
                tx: done,
                failed: None,
            };
            // How long answers wait on the disk (what the mailbox bench's latency is made
            // of), for `RUST_LOG=sobre_node::service::commit=debug`.
            let started = std::time::Instant::now();
            let answers = batch.pending_len();
            let flushed = batch.flush(&store).await;
            let flush_us = started.elapsed().as_micros() as u64;
            done.failed = flushed.as_ref().err().cloned();
            let stored = flushed.is_ok();
            let (notes, pending) = batch.into_answers();
            answer(&home, &me, &net, flushed, notes, pending).await;
            let answered_us = started.elapsed().as_micros() as u64;
            debug!(answers, flush_us, answered_us, "group flush");
            // Only over events on disk; the next flush makes them durable too.
            if stored {
                store_summaries(&store, &summaries);
            }
        }));
    }

    /// Flushes and answers everything waiting, the flush in progress first (on stopping).
    pub(super) async fn commit_all(&mut self) {
        loop {
            self.commits.flushed().await;
            self.commits.last_flush();
            if self.commits.idle(self.games.cursor()) {
                return;
            }
            self.commit().await;
        }
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
