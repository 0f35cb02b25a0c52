//! Events this node signs: checked with the rules, stored and flushed, then delivered; and
//! the events of the other player they refer to.

use super::cache::GameCache;
use super::refusal::Unavailable;
use super::{Service, internal, now_ms, peer_of_player, rule_refusal, user};
use crate::api::watch::{GameEvent, GameEventKind};
use crate::api::{ApiError, RefusalCode};
use crate::store::OutboxEntry;
use crate::view::Summary;
use crate::{integrity, view};
use libp2p::PeerId;
use sobre_core::record::author::Scoresheet;
use sobre_core::record::{
    EventError, EventId, EventKind, GameId, GameState, PlayerId, SignedEvent, VerifiedEvent,
};
use std::collections::HashMap;

/// The latest event of the other player in timeline order (what this node has seen), or
/// the arbiter's opening of an envelope (A9: the sealed move, played as the other player's).
pub(super) fn last_other_event(
    state: &GameState,
    me: &PlayerId,
    events: &[VerifiedEvent],
) -> Option<EventId> {
    let authors: HashMap<EventId, (PlayerId, bool)> = events
        .iter()
        .map(|v| (v.id, (v.event.author, is_arbiter_open(&v.event.kind))))
        .collect();
    last_other_by(state, me, |id| authors.get(id).copied())
}

/// [`last_other_event`] in a hot game, with the index the cache keeps (no map built: it runs
/// for every receipt a mailbox signs).
pub(super) fn last_other_in(cache: &GameCache, me: &PlayerId) -> Option<EventId> {
    last_other_by(&cache.state, me, |id| {
        cache.ids.get(id).map(|&i| {
            let e = &cache.events[i].event;
            (e.author, is_arbiter_open(&e.kind))
        })
    })
}

pub(super) fn is_arbiter_open(kind: &EventKind) -> bool {
    matches!(kind, EventKind::ArbiterOpen { .. })
}

/// `about(id)`: the event's author, and whether it is an arbiter's opening.
pub(super) fn last_other_by(
    state: &GameState,
    me: &PlayerId,
    about: impl Fn(&EventId) -> Option<(PlayerId, bool)>,
) -> Option<EventId> {
    let players = [state.challenger, state.opponent];
    state.timeline.iter().rev().copied().find(|id| {
        about(id).is_some_and(|(a, opening)| a != *me && (opening || players.contains(&a)))
    })
}

/// An event this node has just signed, as a [`VerifiedEvent`] without checking the
/// signature: made with our own key (its public half derived from the secret one), it is
/// valid by construction, and checking it cost as much as a third of a receipt's handling.
/// The rules are still checked when it is added to its game.
pub(super) fn own_event(signed: &SignedEvent) -> Result<VerifiedEvent, EventError> {
    Ok(VerifiedEvent {
        id: signed.id(),
        event: signed.decode_unverified()?,
        signed: signed.clone(),
    })
}

impl Service {
    /// Signs the player's next event in `game`, checks the game still verifies with it,
    /// stores and flushes it, then starts delivery. Nothing is kept if verification fails.
    pub(super) async fn author(
        &mut self,
        game: &GameId,
        make: impl FnOnce(
            &mut Scoresheet,
            u64,
        ) -> Result<SignedEvent, sobre_core::record::codec::CodecError>,
    ) -> Result<(SignedEvent, GameState), ApiError> {
        self.author_at(game, now_ms(), make).await
    }

    /// [`Service::author`] at a given time: a seal's envelope states the clocks at exactly
    /// the moment it is signed (A2.3).
    pub(super) async fn author_at(
        &mut self,
        game: &GameId,
        t: u64,
        make: impl FnOnce(
            &mut Scoresheet,
            u64,
        ) -> Result<SignedEvent, sobre_core::record::codec::CodecError>,
    ) -> Result<(SignedEvent, GameState), ApiError> {
        let (mut signed, state) = self
            .author_all_at(game, t, move |s, tm| {
                make(s, tm).map(|e| vec![e]).map_err(internal)
            })
            .await?;
        let one = signed.pop().ok_or_else(|| internal("nothing was signed"))?;
        Ok((one, state))
    }

    /// [`Service::author_at`] for events that go together (a seal and its escrow, A3): all
    /// are signed, checked with the rules, stored and flushed as one, or none is kept; then
    /// they are delivered.
    pub(super) async fn author_all_at(
        &mut self,
        game: &GameId,
        t: u64,
        make: impl FnOnce(&mut Scoresheet, u64) -> Result<Vec<SignedEvent>, ApiError>,
    ) -> Result<(Vec<SignedEvent>, GameState), ApiError> {
        let me = self.identity.me();
        let key = self.identity.key().clone();
        self.refuse_while_restoring(game)?;
        self.ensure_hot(game).map_err(|e| match e {
            Unavailable::UnknownGame => ApiError::refused(RefusalCode::GameNotKept),
            other => user(other.to_string()),
        })?;
        let (signed, state) = {
            let cache = self
                .hot
                .get_mut(game)
                .ok_or_else(|| ApiError::refused(RefusalCode::GameNotKept))?;
            let seen = last_other_in(cache, &me);
            let sheet = cache
                .sheet
                .get_or_insert_with(|| Scoresheet::join(key.clone(), *game));
            let snapshot = (sheet.seq(), sheet.last(), sheet.seen());
            if let Some(s) = seen {
                sheet.saw(s);
            }
            // Only the rules are replayed: the game's other events were checked when they
            // arrived, and these are our own.
            let checked = make(sheet, t).and_then(|signed| {
                let own = signed
                    .iter()
                    .map(own_event)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(internal)?;
                let state = cache.try_add(own, Some(t)).map_err(|e| rule_refusal(&e))?;
                Ok((signed, state))
            });
            match checked {
                Ok(done) => done,
                Err(e) => {
                    // Never stored or sent: reusing these seqs is no equivocation.
                    cache.sheet = Some(Scoresheet::resume(
                        key, *game, snapshot.0, snapshot.1, snapshot.2,
                    ));
                    return Err(e);
                }
            }
        };
        let recipients = match self.persist_authored(game, &signed, &state, t).await {
            Ok(r) => r,
            Err(e) => {
                if let Some(cache) = self.hot.get_mut(game) {
                    cache.drop_added();
                }
                return Err(e);
            }
        };
        // The opponent first: the delivery leaves before anything else is done here, even
        // the copy of the state this returns.
        let cache = self
            .hot
            .get_mut(game)
            .ok_or_else(|| internal("game left the cache"))?;
        cache.keep_added(state);
        for peer in recipients {
            self.deliver(*game, peer);
        }
        let state = self
            .hot
            .peek(game)
            .map(|c| c.state.clone())
            .ok_or_else(|| internal("game left the cache"))?;
        // The ledger lags the database, never leads it: written after the flush above.
        for one in &signed {
            integrity::note_event(self.identity.home(), &self.identity.me(), game, one);
        }
        self.games.insert(*game, Summary::of(&state));
        self.reserve_players(game);
        for one in &signed {
            // Just signed here, so it decodes; were it not to, no kind could name it.
            let Ok(e) = one.decode_unverified() else {
                continue;
            };
            self.watchers.notify(
                game,
                GameEvent {
                    kind: GameEventKind::from(&e.kind),
                    by: me.to_string(),
                    status: Some(state.status),
                    from: None,
                },
            );
        }
        Ok((signed, state))
    }

    /// Stores events this node authored, with an outbox entry per recipient, and flushes
    /// once: after this the events are acknowledged and will be delivered until receipted.
    /// Returns the recipients.
    ///
    /// If the store fails, the node stops ([`NodeError::StorageFailed`]): what was written
    /// may still reach the disk (sled keeps it in memory, and part of the write may have
    /// landed), so neither "not saved" nor signing again at the same sequence number would be
    /// safe. The next start reads what the disk really holds.
    ///
    /// [`NodeError::StorageFailed`]: crate::error::NodeError::StorageFailed
    pub(super) async fn persist_authored(
        &mut self,
        game: &GameId,
        signed: &[SignedEvent],
        state: &GameState,
        t: u64,
    ) -> Result<Vec<PeerId>, ApiError> {
        match self.try_persist(game, signed, state, t).await {
            Ok(r) => Ok(r),
            Err(e) => {
                let e = e.to_string();
                self.commits.failed(e.clone());
                Err(internal(format!(
                    "storage failure while saving this: {e}. The node is stopping and signs \
                     nothing more; start it again once the disk is fixed: it shows whether \
                     this was kept"
                )))
            }
        }
    }

    async fn try_persist(
        &self,
        game: &GameId,
        signed: &[SignedEvent],
        state: &GameState,
        t: u64,
    ) -> Result<Vec<PeerId>, crate::store::StoreError> {
        let recipients = self.recipients(state);
        for one in signed {
            self.store.insert_event(game, one)?;
            for peer in &recipients {
                self.store.outbox_add(&OutboxEntry {
                    event: one.id(),
                    game: *game,
                    peer: peer.to_string(),
                    attempts: 0,
                    next_at_ms: 0,
                })?;
            }
        }
        self.store.mark_mine(game, t)?;
        self.store.flush().await?;
        Ok(recipients)
    }

    /// Who must receive this game's events: the opponent, the mailboxes, and the game's
    /// witnesses (organiser, arbiters, agreed timekeepers).
    pub(super) fn recipients(&self, state: &GameState) -> Vec<PeerId> {
        let mut out = Vec::new();
        for p in [state.challenger, state.opponent] {
            if p != self.identity.me()
                && let Some(peer) = peer_of_player(&p)
            {
                out.push(peer);
            }
        }
        for m in self.identity.mailboxes() {
            if !out.contains(m) && Some(*m) != peer_of_player(&self.identity.me()) {
                out.push(*m);
            }
        }
        // A league game also goes to the league's organiser, its witness, and a game with an
        // envelope in escrow to the arbiter keeping it (A3), a witness too.
        // The agreed timekeepers (and arbiter) of the terms receive every event: their
        // receipts are the game's clock evidence (protocol version 3, docs/time.md).
        let witnesses = self
            .league_organiser(state)
            .into_iter()
            .chain(view::arbiters(state))
            .chain(state.terms.timekeepers.iter().copied())
            .chain(state.terms.arbiter);
        for peer in witnesses.filter_map(|w| peer_of_player(&w)) {
            if !out.contains(&peer) && Some(peer) != peer_of_player(&self.identity.me()) {
                out.push(peer);
            }
        }
        out
    }

    /// Signs an event of this node's own in a hot game without delivering it (receipts
    /// travel in replies) and stores it; the caller flushes.
    pub(super) fn sign_quietly(
        &mut self,
        game: &GameId,
        make: impl FnOnce(
            &mut Scoresheet,
            u64,
        ) -> Result<SignedEvent, sobre_core::record::codec::CodecError>,
    ) -> Result<SignedEvent, String> {
        let t = now_ms();
        let me = self.identity.me();
        let key = self.identity.key().clone();
        if self.restoring.is_restoring(game) {
            return Err("the game is being restored after a repair".to_owned());
        }
        let cache = self.hot.get_mut(game).ok_or("unknown game")?;
        let seen = last_other_in(cache, &me);
        let sheet = cache
            .sheet
            .get_or_insert_with(|| Scoresheet::join(key.clone(), *game));
        if let Some(s) = seen {
            sheet.saw(s);
        }
        let snapshot = (sheet.seq(), sheet.last(), sheet.seen());
        let signed = make(sheet, t).map_err(|e| e.to_string())?;
        // Only the rules are replayed (no signature is checked twice, and this one is our
        // own).
        let added = match own_event(&signed) {
            Ok(v) => cache.try_add(vec![v], None).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match added {
            Ok(state) => {
                let stored = match cache.events.last() {
                    Some(v) => self.store.insert_verified(game, v),
                    None => self.store.insert_event(game, &signed),
                };
                if let Err(e) = stored {
                    cache.drop_added();
                    return Err(e.to_string());
                }
                self.games.insert(*game, cache.summary(&state));
                cache.keep_added(state);
                self.commits.wrote();
                Ok(signed)
            }
            Err(e) => {
                cache.sheet = Some(Scoresheet::resume(
                    key, *game, snapshot.0, snapshot.1, snapshot.2,
                ));
                Err(e)
            }
        }
    }
}
