//! Delivering our events to the peers that must hold them, until each is receipted: the
//! outbox, retries with backoff, and what the answers (receipts or refusals) tell us.

use super::cache::Sent;
use super::{Service, now_ms, peer_of_player, player_of_peer, refusal};
use crate::network::NetworkError;
use crate::protocol::{MAX_EVENTS_PER_MESSAGE, Request, Response};
use libp2p::PeerId;
use sobre_core::league::LeagueId;
use sobre_core::record::{ClaimReason, Event, EventId, EventKind, GameId, SignedEvent, time};
use std::collections::HashSet;
use tracing::{debug, warn};

/// What the tasks the service spawns (deliveries, syncs, league sends) report back: the
/// service alone writes the store, so a task never does.
pub(super) enum Internal {
    Delivered {
        game: GameId,
        peer: PeerId,
        sent: Sent,
        /// When the request was queued, by our clock (for the clock skew, see `skew`).
        sent_ms: u64,
        /// A refusal comes as [`NetworkError::Refused`].
        result: Result<Response, NetworkError>,
    },
    Synced {
        peer: PeerId,
        game: GameId,
        result: Result<Response, String>,
    },
    GamesListed {
        peer: PeerId,
        result: Result<Response, String>,
    },
    /// The answer of a mailbox to [`Request::GamesSince`](crate::protocol::Request::GamesSince)
    /// ([`Service::mailbox_heads`]).
    HeadsListed {
        peer: PeerId,
        result: Result<Response, String>,
    },
    /// A player's node's answer to this mailbox's
    /// [`Request::GamesSince`](crate::protocol::Request::GamesSince)
    /// ([`Service::player_heads`]); `shared` are the games held here that it plays.
    PlayerHeads {
        peer: PeerId,
        shared: Vec<GameId>,
        result: Result<Response, String>,
    },
    /// The answer to a league's documents sent to `peer` ([`Service::league_sent`]).
    LeagueSent {
        league: LeagueId,
        peer: PeerId,
        result: Result<Response, NetworkError>,
    },
    /// The answer of `peer` to [`Request::LeagueGames`](crate::protocol::Request::LeagueGames)
    /// ([`Service::league_listed`]).
    LeagueListed {
        league: LeagueId,
        peer: PeerId,
        result: Result<Response, NetworkError>,
    },
    /// The answer to the player's profile sent to `player` ([`Service::profile_sent`]).
    ProfileSent {
        player: sobre_core::record::PlayerId,
        result: Result<Response, NetworkError>,
    },
    /// The mailboxes in the contact record of an opponent a delivery could not reach
    /// ([`Service::via_their_mailboxes`]).
    TheirMailboxes {
        game: GameId,
        peer: PeerId,
        mailboxes: Vec<libp2p::Multiaddr>,
    },
    /// The answer of `peer` to this node's instance record ([`Service::instance_answered`]).
    InstanceAnswer {
        peer: PeerId,
        result: Result<Response, NetworkError>,
    },
}

impl Service {
    /// Sends `peer` what it lacks of `game` in a task (see [`Service::send`]); the result
    /// comes back as [`Internal::Delivered`].
    pub(super) fn deliver(&mut self, game: GameId, peer: PeerId) {
        self.send(game, peer, false);
    }

    /// Sends events of `game` to `peer` in a task: from a hot game only what the peer lacks
    /// ([`GameCache::outgoing`]), unless `whole`; a game not in memory whole, from the store.
    /// The receiver keeps what it lacks and answers with receipts; a delta it cannot place
    /// (it lost events, or never had the game) is refused as "missing history", and then the
    /// whole game follows at once ([`Service::handle_internal`]).
    pub(super) fn send(&mut self, game: GameId, peer: PeerId, whole: bool) {
        if !self.outbox.start(game, peer) {
            return;
        }
        let (events, sent) = match self.hot.peek(&game) {
            Some(cache) => cache.outgoing(&peer, player_of_peer(&peer), whole),
            // A game not in memory is sent from the store: its events were verified when
            // stored. Its order need not be the one of a cache made later: no watermark.
            None => {
                let stored = self.store.events(&game).unwrap_or_default();
                let mut ids = Vec::new();
                let events = stored
                    .iter()
                    .filter_map(|e| {
                        let b = e.to_bytes().ok()?;
                        ids.push(e.id());
                        Some(b)
                    })
                    .take(MAX_EVENTS_PER_MESSAGE)
                    .collect();
                let sent = Sent {
                    ids,
                    full: true,
                    covered: None,
                };
                (events, sent)
            }
        };
        if events.is_empty() {
            self.outbox.nothing_sent(game, peer);
            return;
        }
        debug!(%game, %peer, events = events.len(), full = sent.full, "delivering");
        let net = self.net.clone();
        let tx = self.internal_tx.clone();
        let request = net.request_queued(peer, Request::Deliver { game, events });
        let sent_ms = now_ms();
        tokio::spawn(async move {
            let result = request.await;
            let _ = tx
                .send(Internal::Delivered {
                    game,
                    peer,
                    sent,
                    sent_ms,
                    result,
                })
                .await;
        });
    }

    /// Delivers again what is due in the outbox: reads only the entries due now (see
    /// `store::outbox`), not every entry at every tick.
    pub(super) async fn retry_outbox(&mut self) {
        let Ok(entries) = self.store.outbox_due(now_ms()) else {
            return;
        };
        let mut due: Vec<(GameId, PeerId)> = Vec::new();
        for e in entries {
            if let Ok(peer) = e.peer.parse::<PeerId>()
                && !due.contains(&(e.game, peer))
            {
                due.push((e.game, peer));
            }
        }
        for (game, peer) in due {
            self.deliver(game, peer);
        }
    }

    pub(super) async fn handle_internal(&mut self, i: Internal) {
        match i {
            Internal::Delivered {
                game,
                peer,
                sent,
                sent_ms,
                result,
            } => {
                let again = self.outbox.returned(game, peer);
                let mut whole = false;
                match result {
                    Ok(Response::Receipts { receipts }) => {
                        // The same cache still: the peer holds its first `covered` events.
                        if let Some((epoch, covered)) = sent.covered
                            && let Some(cache) = self.hot.peek_mut(&game)
                            && cache.epoch == epoch
                        {
                            let w = cache.acked.entry(peer).or_insert(0);
                            *w = (*w).max(covered);
                        }
                        let answered_ms = now_ms();
                        let fresh = self.fresh_receipts(&game, &receipts);
                        let _ = self.ingest(game, &receipts, Some(peer), false).await;
                        self.pass_on_timekeeping(&game, &peer, &fresh);
                        self.measure_skew(&game, &peer, &sent.ids, &fresh, sent_ms, answered_ms);
                        self.note_unreceipted(&game, &peer, &sent.ids);
                        self.clear_outbox(&game, &peer).await;
                    }
                    // Only what the peer lacked was sent, and it lacks more (it lost events,
                    // or never had the game): the whole game now, no backoff.
                    Ok(Response::Refused { reason }) | Err(NetworkError::Refused(reason))
                        if !sent.full && refusal::is_missing_history(&reason) =>
                    {
                        debug!(%game, %peer, "a partial delivery lacked history: sending the whole game");
                        whole = true;
                    }
                    Ok(Response::Refused { reason }) => {
                        warn!(%game, %peer, "delivery refused: {reason}");
                        self.backoff(&game, &peer);
                    }
                    Ok(other) => {
                        warn!(%game, %peer, "unexpected answer to a delivery: {other:?}");
                        self.backoff(&game, &peer);
                    }
                    Err(e) => {
                        debug!(%game, %peer, "delivery failed, will retry: {e}");
                        self.backoff(&game, &peer);
                        if matches!(
                            e,
                            NetworkError::NotConnected(_)
                                | NetworkError::Dial(_)
                                | NetworkError::Timeout
                        ) {
                            self.via_their_mailboxes(game, peer);
                        }
                    }
                }
                if whole {
                    // Covers whatever arrived meanwhile too.
                    self.send(game, peer, true);
                } else if again
                    && !self.outbox.in_flight(game, peer)
                    && (self.outbox_waits(&game, &peer) || self.lacks_timekeeping(&game, &peer))
                {
                    // After the answer, so that it starts from the new watermark; not when the
                    // answer's receipts cleared everything that was waiting.
                    self.deliver(game, peer);
                }
            }
            Internal::Synced { peer, game, result } => {
                self.sync_done(peer);
                if let Ok(Response::Events { events }) = result {
                    // A sync answers one game: the events must be of the game asked for.
                    let of_game = events
                        .first()
                        .and_then(|b| SignedEvent::from_bytes(b).ok())
                        .and_then(|e| e.game());
                    if of_game == Some(game) {
                        let _ = self.ingest(game, &events, Some(peer), false).await;
                    }
                    if self.restoring.is_restoring(&game) {
                        self.confirm_restored(game, peer);
                    }
                }
            }
            Internal::GamesListed { peer, result } => {
                if let Ok(Response::Games { games }) = result {
                    for g in games {
                        self.sync_game(peer, g);
                    }
                }
            }
            Internal::HeadsListed { peer, result } => self.mailbox_heads(peer, result),
            Internal::PlayerHeads {
                peer,
                shared,
                result,
            } => self.player_heads(peer, shared, result),
            Internal::LeagueSent {
                league,
                peer,
                result,
            } => self.league_sent(league, peer, result),
            Internal::ProfileSent { player, result } => self.profile_sent(player, result),
            Internal::InstanceAnswer { peer, result } => self.instance_answered(peer, result),
            Internal::TheirMailboxes {
                game,
                peer,
                mailboxes,
            } => self.their_mailboxes_found(game, peer, mailboxes).await,
            Internal::LeagueListed {
                league,
                peer,
                result,
            } => self.league_listed(league, peer, result),
        }
    }

    /// Whether `peer` may lack a timekeeper's receipts of a hot `game` with agreed
    /// timekeepers (passed on by [`Service::pass_on_timekeeping`] while a delivery was in
    /// flight): events came after what it last acknowledged. Other games redeliver only for
    /// the outbox, so their deliveries stay the deltas they were.
    fn lacks_timekeeping(&self, game: &GameId, peer: &PeerId) -> bool {
        self.hot.peek(game).is_some_and(|c| {
            !c.state.terms.timekeepers.is_empty()
                && c.acked.get(peer).copied().unwrap_or(0) < c.kept
        })
    }

    /// After an answer from `peer` that brought the `fresh` receipts: when `peer` is an agreed
    /// timekeeper of `game`, its receipts are the game's clock evidence (docs/time.md), so
    /// the opponent's node gets them now rather than with this node's next event — until
    /// then it would not count this node's last event as made, and the two would disagree.
    fn pass_on_timekeeping(&mut self, game: &GameId, peer: &PeerId, fresh: &[EventId]) {
        if fresh.is_empty() {
            return;
        }
        let Some(summary) = self.games.get(game) else {
            return;
        };
        let keeper = player_of_peer(peer).is_some_and(|p| summary.timekeepers.contains(&p));
        let opponent = [summary.challenger, summary.opponent]
            .into_iter()
            .find(|p| *p != self.identity.me())
            .and_then(|p| peer_of_player(&p));
        if keeper && let Some(opponent) = opponent {
            self.deliver(*game, opponent);
        }
    }

    /// After an answer with receipts from `peer` to a delivery of `ids`: notes our events of
    /// `game` that the peer's player — our opponent — took without receipting, and forgets
    /// those it has now receipted. Bounded: a node has at most a few unanswered moves per game.
    pub(super) fn note_unreceipted(&mut self, game: &GameId, peer: &PeerId, ids: &[EventId]) {
        let Some(player) = player_of_peer(peer) else {
            return;
        };
        let Some(cache) = self.hot.peek(game) else {
            return;
        };
        let st = &cache.state;
        if ![st.challenger, st.opponent].contains(&player) || player == self.identity.me() {
            return;
        }
        let receipted: HashSet<EventId> = st
            .receipts
            .iter()
            .filter(|(_, by, _)| *by == player)
            .map(|(e, _, _)| *e)
            .collect();
        let now = now_ms();
        for id in ids {
            let ours = cache.ids.get(id).is_some_and(|&i| {
                let e = &cache.events[i].event;
                e.author == self.identity.me() && !matches!(e.kind, EventKind::Receipt { .. })
            });
            if !ours {
                continue;
            }
            if receipted.contains(id) {
                self.outbox.receipted(*game, *id);
            } else {
                self.outbox.unreceipted(*game, *id, player, now);
            }
        }
    }

    /// Whether `ev` countersigns (receipts, or says it saw) one of our events that its author
    /// took without a receipt, dated after that answer by more than the clock skew: the
    /// refusal named in [`time::TimeError::LateCountersignature`].
    pub(super) fn late_countersignature(
        &self,
        game: &GameId,
        ev: &Event,
    ) -> Option<time::TimeError> {
        let receipt = match ev.kind {
            EventKind::Receipt { event } => Some(event),
            _ => None,
        };
        [receipt, ev.seen].into_iter().flatten().find_map(|target| {
            let (by, answered_ms) = self.outbox.taken_unreceipted(*game, target)?;
            if by != ev.author {
                return None;
            }
            time::check_countersignature(ev.time_ms, answered_ms).err()
        })
    }

    /// A countersignature by someone else (a receipt, or an event that saw it) of one of the
    /// player's own claims on time (6.9) or lateness (A10), dated before the claim by more than
    /// the clock skew: the refusal named in [`time::TimeError::EarlyCountersignature`]. A claim
    /// is judged no later than its first countersignature, so an opponent dating its receipt
    /// back could otherwise turn a correct claim into an incorrect one.
    pub(super) fn early_countersignature(
        &self,
        game: &GameId,
        ev: &Event,
    ) -> Option<time::TimeError> {
        if ev.author == self.identity.me() {
            return None;
        }
        let cache = self.hot.peek(game)?;
        let receipt = match ev.kind {
            EventKind::Receipt { event } => Some(event),
            _ => None,
        };
        [receipt, ev.seen].into_iter().flatten().find_map(|target| {
            let claim = &cache.events.get(*cache.ids.get(&target)?)?.event;
            let EventKind::Claim(c) = &claim.kind else {
                return None;
            };
            let late_helps = matches!(c.reason, ClaimReason::Time | ClaimReason::Lateness);
            if claim.author != self.identity.me() || !late_helps {
                return None;
            }
            time::check_claim_countersignature(ev.time_ms, claim.time_ms).err()
        })
    }

    /// A receipt arrived from `peer` for everything we sent it in `game`: clear those
    /// outbox entries whose event the peer now holds a receipt for (or, for a mailbox, any).
    pub(super) async fn clear_outbox(&mut self, game: &GameId, peer: &PeerId) {
        let receiver = peer.to_string();
        let Ok(entries) = self.store.outbox_for(game, &receiver) else {
            return;
        };
        if entries.is_empty() {
            return;
        }
        if self.ensure_hot(game).is_err() {
            return;
        }
        let Some(cache) = self.hot.peek(game) else {
            return;
        };
        let receipted: HashSet<EventId> = cache
            .state
            .receipts
            .iter()
            .filter(|(_, by, _)| by.to_string() == receiver)
            .map(|(e, _, _)| *e)
            .collect();
        for e in &entries {
            // A receiver that refuses nothing but has no receipt to give (it already held
            // the event) still answered: its receipt list covers what it accepted.
            if receipted.contains(&e.event) || self.event_is_receipt(game, &e.event) {
                let _ = self.store.outbox_remove(&e.event, &receiver);
            }
        }
        let _ = self.store.flush().await;
    }

    /// Whether events of `game` wait in the outbox for `peer`'s receipt (what every delivery
    /// is for).
    pub(super) fn outbox_waits(&self, game: &GameId, peer: &PeerId) -> bool {
        self.store
            .outbox_waits(game, &peer.to_string())
            .unwrap_or(false)
    }

    pub(super) fn event_is_receipt(&self, game: &GameId, id: &EventId) -> bool {
        self.hot.peek(game).is_some_and(|c| {
            c.ids
                .get(id)
                .is_some_and(|&i| matches!(c.events[i].event.kind, EventKind::Receipt { .. }))
        })
    }

    pub(super) fn backoff(&mut self, game: &GameId, peer: &PeerId) {
        let Ok(entries) = self.store.outbox_for(game, &peer.to_string()) else {
            return;
        };
        for mut e in entries {
            e.attempts = e.attempts.saturating_add(1);
            // 1.5 s, 3 s, 6 s … capped at 60 s, with jitter so many nodes do not align.
            let base = 1500u64.saturating_mul(1 << e.attempts.min(6)).min(60_000);
            let jitter = rand::random::<u64>() % (base / 4 + 1);
            e.next_at_ms = now_ms() + base + jitter;
            let _ = self.store.outbox_add(&e);
        }
    }
}
