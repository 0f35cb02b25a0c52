//! Taking in events a peer delivered or gossiped: cheap checks first, then signatures, the
//! rules and storage; equivocations kept as proof; receipts for what was taken.

use super::cache::GameCache;
use super::standing::Content;
use super::{Refusal, Service, Unavailable, now_ms, peer_of_player, quota};
use crate::api::watch::{GameEvent, GameEventKind, NodeEvent};
use crate::protocol::MAX_EVENTS_PER_MESSAGE;
use crate::store::GameMeta;
use crate::view::Summary;
use crate::{dispute, view};
use libp2p::PeerId;
use sobre_core::record::{
    EventId, EventKind, GameId, PlayerId, SignedEvent, VerifiedEvent, VerifyError, time,
    verify_all, verify_continue,
};
use std::collections::{HashMap, HashSet};
use tracing::warn;

/// The new events of the batch being handled whose signatures the `preverify` stage checked
/// together, beside the service: [`Service::ingest`] takes each as it reaches it and checks
/// only the others itself. Nothing outlives its batch: an event left over was not ingested
/// and is checked again if it comes back.
#[derive(Default)]
pub(super) struct Preverified {
    checked: HashMap<EventId, VerifiedEvent>,
}

impl Preverified {
    /// The batch's checked events, those of any batch before dropped.
    pub(super) fn start(&mut self, checked: HashMap<EventId, VerifiedEvent>) {
        self.checked = checked;
    }

    /// The event `id` of this batch, verified, if the stage checked it; once only.
    pub(super) fn take(&mut self, id: &EventId) -> Option<VerifiedEvent> {
        self.checked.remove(id)
    }

    /// The batch was handled: what it did not take is dropped.
    pub(super) fn end(&mut self) {
        self.checked.clear();
    }
}

impl Service {
    /// Takes events for `game` from the network: keeps the ones that are new if the game
    /// still verifies with them (only their signatures are checked: the others were when
    /// they arrived), signs receipts for the new events of others (if asked), and returns
    /// those receipts (or a reason to refuse). Nothing is flushed here: the caller answers
    /// only after [`Service::commit`].
    pub(super) async fn ingest(
        &mut self,
        game: GameId,
        raw: &[Vec<u8>],
        from: Option<PeerId>,
        want_receipts: bool,
    ) -> Result<Vec<Vec<u8>>, Refusal> {
        if raw.len() > MAX_EVENTS_PER_MESSAGE {
            return Err(Refusal::TooManyEvents);
        }
        let new_game = !self.games.contains_key(&game);
        // A delivery sent again (its receipts were lost) of a game not in memory: answered
        // from the store's keys, without loading the game and checking all its signatures
        // (about 4 ms for a 100-event game at a mailbox).
        if !new_game
            && self.hot.peek(&game).is_none()
            && let Some(receipts) = self.cold_duplicate(&game, raw, want_receipts)
        {
            return Ok(receipts);
        }
        if !new_game {
            self.ensure_hot(&game)?;
        }
        let known = self.hot.peek(&game);
        let players = known.map(|c| [c.state.challenger, c.state.opponent]);
        // A league game's organiser is its witness: its receipts clear our outbox. So is the
        // arbiter keeping an envelope (A3).
        let organiser = known.and_then(|c| self.league_organiser(&c.state));
        let arbiters = known.map(|c| view::arbiters(&c.state)).unwrap_or_default();
        // The game's agreed timekeepers (protocol version 3): their receipts are its clock
        // evidence, kept and passed on so that every honest node judges the same times.
        let timekeepers = known
            .map(|c| c.state.terms.timekeepers.clone())
            .unwrap_or_default();
        // Ids of everything sent (a delivery may be the whole game: then most of it is known).
        let mut incoming: Vec<EventId> = Vec::with_capacity(raw.len());
        let mut fresh: Vec<SignedEvent> = Vec::new();
        let mut fresh_events: Vec<(sobre_core::record::Event, usize)> = Vec::new();
        let mut fresh_ids: HashSet<EventId> = HashSet::new();
        let arrival_ms = now_ms();
        for b in raw {
            let e = SignedEvent::from_bytes(b)?;
            let id = e.id();
            incoming.push(id);
            // A known id is an event of this game, checked when it arrived.
            if known.is_some_and(|c| c.ids.contains_key(&id)) || fresh_ids.contains(&id) {
                continue;
            }
            let ev = e.decode_unverified()?;
            if self.limits.is_blocked(&ev.author) {
                return Err(Refusal::Blocked(ev.author));
            }
            let of_game = match ev.kind {
                EventKind::Challenge(_) | EventKind::ChallengeOnTerms { .. } => id == game,
                _ => ev.game == Some(game),
            };
            if !of_game {
                return Err(Refusal::OtherGame);
            }
            // Time is evidence, never the author's word: an event dated ahead of this node's
            // clock (a time claim "four days later", a receipt "next month") is refused before
            // anything else is done with it, and the sender takes a strike.
            if let Err(error) = time::check_arrival(ev.time_ms, arrival_ms) {
                return Err(Refusal::Time {
                    kind: ev.kind.name(),
                    author: ev.author,
                    error,
                });
            }
            // A refused receipt (see `unreceipted`) cannot be made up for later, and the
            // player's claim on time cannot be countersigned as if held before it was made.
            if let Some(error) = self
                .late_countersignature(&game, &ev)
                .or_else(|| self.early_countersignature(&game, &ev))
            {
                return Err(Refusal::Time {
                    kind: ev.kind.name(),
                    author: ev.author,
                    error,
                });
            }
            // Anyone may sign a receipt in any game (witnesses do), so receipts by players
            // other than the two, this node, its mailboxes, the league's organiser, the
            // agreed timekeepers and the arbiters keeping its envelopes are not kept: a stranger cannot make a stored
            // game grow.
            if let Some(players) = players
                && matches!(ev.kind, EventKind::Receipt { .. })
                && !players.contains(&ev.author)
                && ev.author != self.identity.me()
                && Some(ev.author) != organiser
                && !arbiters.contains(&ev.author)
                && !timekeepers.contains(&ev.author)
                && !ev
                    .author
                    .peer_id()
                    .is_some_and(|p| self.identity.is_my_mailbox(&p))
            {
                continue;
            }
            fresh_ids.insert(id);
            fresh_events.push((ev, b.len()));
            fresh.push(e);
        }
        // A game this node does not hold: cheap facts first, no signature checked for a game
        // that is not ours or lacks its challenge (see `standing::content`).
        if new_game && !fresh.is_empty() {
            match self.new_game_content(&fresh_events) {
                Content::NoChallenge => return Err(Refusal::MissingHistory),
                Content::NotOurs => return Err(Refusal::NotOurs),
                Content::Ours if self.store.is_forgotten(&game) => {
                    return Err(Refusal::NotOurs);
                }
                Content::Ours => {}
            }
        }
        // What others may make this node store: checked on kinds and sizes, before any
        // signature (see `quota`).
        if !fresh.is_empty() {
            let new: Vec<(&sobre_core::record::Event, usize)> =
                fresh_events.iter().map(|(e, n)| (e, *n)).collect();
            self.limits.check_quota(
                Some(&self.identity.me()),
                quota::Tally::of(self.hot.peek(&game)),
                &new,
                &game,
                arrival_ms,
            )?;
            self.stranger_budget(&game, &fresh_events)?;
        }
        // A second, different event at a place already taken is an equivocation: keep both
        // as proof, never take the twin into the log.
        if !fresh.is_empty()
            && let Some(players) = players
        {
            let proofs = match self.hot.peek(&game) {
                Some(c) => dispute::take_conflicts(
                    &game,
                    players,
                    c.events
                        .iter()
                        .map(|v| (v.event.author, v.event.seq, &v.signed)),
                    &mut fresh,
                ),
                None => Vec::new(),
            };
            if !proofs.is_empty() {
                self.equivocation(&game, players, &proofs, from).await;
                if fresh.is_empty() {
                    return Err(Refusal::Equivocation);
                }
            }
        }
        let t = now_ms();
        let mut is_player = players.is_some_and(|p| p.contains(&self.identity.me()));
        // A3: the arbiter an envelope is escrowed to keeps the game as a witness.
        let mut is_arbiter = arbiters.contains(&self.identity.me());
        // A member of the game's league keeps it too (see `league_sync`), and signs nothing
        // in it unless it is the organiser, the league's witness.
        let mut is_member = !is_player
            && self
                .hot
                .peek(&game)
                .is_some_and(|c| self.keeps_as_member(&c.state, false));
        if !fresh.is_empty() {
            // Checked by the `preverify` stage, or now (what it did not verify).
            let mut checked: Vec<Option<VerifiedEvent>> = fresh
                .iter()
                .map(|e| self.preverified.take(&e.id()))
                .collect();
            let missing: Vec<usize> = (0..fresh.len()).filter(|&i| checked[i].is_none()).collect();
            if !missing.is_empty() {
                let unchecked: Vec<SignedEvent> =
                    missing.iter().map(|&i| fresh[i].clone()).collect();
                for (&index, r) in missing.iter().zip(verify_all(&unchecked)) {
                    checked[index] = Some(r.map_err(|error| VerifyError::Event { index, error })?);
                }
            }
            let checked: Vec<VerifiedEvent> = checked.into_iter().flatten().collect();
            if new_game {
                let (state, checkpoint) = verify_continue(&checked, None, None)?;
                is_player =
                    state.challenger == self.identity.me() || state.opponent == self.identity.me();
                is_arbiter = view::arbiters(&state).contains(&self.identity.me());
                is_member = !is_player && self.keeps_as_member(&state, true);
                if !is_player && !is_arbiter && !is_member && !self.identity.is_mailbox() {
                    return Err(Refusal::NotOurs);
                }
                // A challenge waiting for our answer: a few per challenger, a bounded number
                // in all (the oldest goes).
                let awaiting_us = state.status == sobre_core::record::Status::Pending
                    && state.opponent == self.identity.me()
                    && state.challenger != self.identity.me();
                if !is_player {
                    self.mailbox_room([state.challenger, state.opponent], from)?;
                }
                if awaiting_us && let Some(oldest) = self.pending_challenges(&state.challenger)? {
                    self.drop_pending(oldest).await;
                }
                for v in &checked {
                    self.store
                        .insert_verified(&game, v)
                        .map_err(|e| Unavailable::Storage(e.to_string()))?;
                }
                self.store
                    .set_game_meta(
                        &game,
                        &GameMeta {
                            mine: is_player,
                            updated_ms: t,
                        },
                    )
                    .map_err(|e| Unavailable::Storage(e.to_string()))?;
                let sheet = self.restore_sheet(&game, &state, &checked);
                self.games.insert(game, Summary::of(&state));
                self.hot.insert(
                    game,
                    GameCache::new(checked, state, Some(checkpoint), sheet),
                );
            } else {
                if !is_player && !is_arbiter && !is_member && !self.identity.is_mailbox() {
                    return Err(Refusal::NotOurs);
                }
                let cache = self.hot.get_mut(&game).ok_or(Unavailable::UnknownGame)?;
                let state = cache.try_add(checked, None)?;
                for v in &cache.events[cache.kept..] {
                    if let Err(e) = self.store.insert_verified(&game, v) {
                        cache.drop_added();
                        return Err(Unavailable::Storage(e.to_string()).into());
                    }
                }
                self.games.insert(game, cache.summary(&state));
                cache.keep_added(state);
            }
            self.commits.wrote();
        }
        if !fresh.is_empty() {
            self.reserve_players(&game);
            self.share_profile_in(&game);
        }
        // The fresh events were kept above with their game's summary.
        let status = self.games.get(&game).map(|s| s.status);
        // The watchers learn of the events as soon as they are kept, before the receipts
        // are signed. Nobody watching: nothing to build (the base58 of two keys per event).
        let watched = self.watchers.watched();
        for e in fresh.iter().filter(|_| watched) {
            if let Ok(ev) = e.decode_unverified()
                && ev.author != self.identity.me()
            {
                self.watchers.notify(
                    &game,
                    GameEvent {
                        kind: GameEventKind::from(&ev.kind),
                        by: ev.author.to_string(),
                        status,
                        from: from.map(|p| p.to_string()),
                    },
                );
            }
        }
        // Receipts for the events of others this node has not receipted yet (never for
        // receipts: they would echo), plus the ones it already signed.
        let mut receipts = Vec::new();
        // The receipts signed here (the others were noted in the ledger when signed).
        let mut signed_now = Vec::new();
        let witness = is_player
            || is_arbiter
            || self.identity.is_mailbox()
            || organiser == Some(self.identity.me())
            || self
                .hot
                .peek(&game)
                .is_some_and(|c| self.league_organiser(&c.state) == Some(self.identity.me()));
        if want_receipts && witness {
            let wanted: Vec<EventId> = {
                let Some(c) = self.hot.peek(&game) else {
                    return Ok(receipts);
                };
                let done: HashSet<EventId> = c
                    .state
                    .receipts
                    .iter()
                    .filter(|(_, by, _)| *by == self.identity.me())
                    .map(|(e, _, _)| *e)
                    .collect();
                let mut seen = HashSet::new();
                incoming
                    .iter()
                    .filter(|id| !done.contains(id) && seen.insert(**id))
                    .filter(|id| {
                        c.ids.get(id).is_some_and(|&i| {
                            let ev = &c.events[i].event;
                            ev.author != self.identity.me()
                                && !matches!(ev.kind, EventKind::Receipt { .. })
                        })
                    })
                    .copied()
                    .collect()
            };
            for id in wanted {
                if let Ok(r) = self.sign_quietly(&game, move |s, t| s.receipt(id, t))
                    && let Ok(b) = r.to_bytes()
                {
                    signed_now.push(b.clone());
                    receipts.push(b);
                }
            }
            receipts.extend(self.existing_receipts(&game, &incoming));
            receipts.sort();
            receipts.dedup();
        }
        if fresh.is_empty() && receipts.is_empty() {
            return Ok(receipts);
        }
        // A game's meta is written once, when it is new (a write per delivery was a
        // twentieth of a mailbox's work), and when a game held for others becomes ours.
        if is_player && !new_game {
            let _ = self.store.mark_mine(&game, t);
        }
        self.commits.wrote();
        // The ledger of our own events is written after the flush that covers them (in
        // `commit`), so that it can only lag the database.
        if !signed_now.is_empty() {
            self.commits.note_receipts(game, signed_now);
        }
        if is_player && !fresh.is_empty() {
            self.pass_on(&game, from);
            self.after_opponent_events(&game, &fresh).await;
        }
        if is_arbiter && !is_player && !fresh.is_empty() {
            self.after_events_as_arbiter(&game, &fresh).await;
        }
        Ok(receipts)
    }

    /// A player passes what is new to it in `game` on to the game's other recipients (its
    /// mailboxes, the timekeepers, the arbiter, the organiser, the opponent), each getting
    /// only what it is not known to hold, never back to `from`. Games have no gossip topic:
    /// this is how an event reaches a participant its author cannot reach (a timekeeper the
    /// opponent has no address for) and how a witness's receipt reaches the other player.
    /// Only players pass on, each event once (only fresh events), so nothing loops.
    fn pass_on(&mut self, game: &GameId, from: Option<PeerId>) {
        let Some(targets) = self.hot.peek(game).map(|c| self.recipients(&c.state)) else {
            return;
        };
        for peer in targets.into_iter().filter(|p| Some(*p) != from) {
            self.deliver(*game, peer);
        }
    }

    /// Keeps equivocation proofs found in `ingest`, says so, and passes new ones on to the
    /// other participants (the twin itself is never taken into the log).
    pub(super) async fn equivocation(
        &mut self,
        game: &GameId,
        players: [PlayerId; 2],
        proofs: &[dispute::Proof],
        from: Option<PeerId>,
    ) {
        let new = match dispute::record(&self.store, proofs) {
            Ok(new) => new,
            Err(e) => {
                warn!(%game, "equivocation proof not stored: {e}");
                return;
            }
        };
        if new.is_empty() {
            return;
        }
        let _ = self.store.flush().await;
        let cheats: Vec<PlayerId> = new.iter().map(|p| p.author).collect();
        for c in &cheats {
            warn!(%game, "equivocation: {c} signed two different events at one place");
            self.watchers
                .notify(game, NodeEvent::Equivocation { by: c.to_string() });
        }
        let me = peer_of_player(&self.identity.me());
        let mut peers: Vec<PeerId> = players
            .iter()
            .filter(|p| !cheats.contains(p))
            .filter_map(peer_of_player)
            .chain(self.identity.mailboxes().iter().copied())
            .chain(from)
            .filter(|p| Some(*p) != me)
            .collect();
        peers.sort();
        peers.dedup();
        dispute::spread(&self.net, &new, &peers);
    }

    /// Receipts this node already signed for events it was sent again.
    /// The answer to a delivery of `game` (held, not in memory) if every event of it is
    /// stored already and, when receipts are wanted, this node's receipt of every other
    /// player's event in it is stored too: those receipts, exactly what the full path would
    /// answer. `None` when anything is new or unreceipted: the full path decides.
    fn cold_duplicate(
        &self,
        game: &GameId,
        raw: &[Vec<u8>],
        want_receipts: bool,
    ) -> Option<Vec<Vec<u8>>> {
        let mut to_receipt: Vec<EventId> = Vec::new();
        for b in raw {
            let e = SignedEvent::from_bytes(b).ok()?;
            let id = e.id();
            let ev = e.decode_unverified().ok()?;
            if !self.store.has_event(game, &ev, &id).ok()? {
                return None;
            }
            if ev.author != self.identity.me() && !matches!(ev.kind, EventKind::Receipt { .. }) {
                to_receipt.push(id);
            }
        }
        if !want_receipts || to_receipt.is_empty() {
            return (to_receipt.is_empty() || !want_receipts).then(Vec::new);
        }
        let mine = self.store.receipts_by(game, &self.identity.me()).ok()?;
        let mut out = Vec::with_capacity(to_receipt.len());
        for id in &to_receipt {
            let (_, bytes) = mine.iter().find(|(of, _)| of == id)?;
            out.push(bytes.clone());
        }
        out.sort();
        out.dedup();
        Some(out)
    }

    pub(super) fn existing_receipts(&self, game: &GameId, sent: &[EventId]) -> Vec<Vec<u8>> {
        let Some(cache) = self.hot.peek(game) else {
            return Vec::new();
        };
        let wanted: HashSet<&EventId> = sent.iter().collect();
        cache
            .events
            .iter()
            .filter(|v| {
                v.event.author == self.identity.me()
                    && matches!(v.event.kind, EventKind::Receipt { ref event } if wanted.contains(event))
            })
            .filter_map(|v| v.signed.to_bytes().ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::Keypair;
    use sobre_core::test_support::GameBuilder;

    #[test]
    fn a_checked_event_is_taken_once_and_not_past_its_batch() {
        let key = |b: u8| Keypair::from_secret_bytes(&[b; 32]);
        let game = GameBuilder::new(key(1), key(2))
            .sign(&[])
            .expect("a game signs");
        let event = verify_all(&game.events[..1])
            .remove(0)
            .expect("signed by its author");
        let id = event.id;
        let mut p = Preverified::default();
        p.start(HashMap::from([(id, event.clone())]));
        assert_eq!(p.take(&id).map(|v| v.id), Some(id));
        assert!(p.take(&id).is_none(), "taken already");
        p.start(HashMap::from([(id, event)]));
        p.end();
        assert!(p.take(&id).is_none(), "its batch ended");
    }
}
