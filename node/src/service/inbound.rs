//! What the network brings: peers' requests (deliveries, syncs, league documents), gossip,
//! and newly connected peers.

use super::commit::Deferred;
use super::{Refusal, Service, peer_of_player, player_of_peer};
use crate::network::NetworkEvent;
use crate::protocol::{Gossip, LeagueHeads, MAX_EVENTS_PER_MESSAGE, Request, Response};
use crate::{dispute, protocol};
use libp2p::PeerId;
use libp2p::gossipsub::MessageAcceptance;
use sobre_core::record::{GameId, PlayerId};
use std::collections::{HashMap, HashSet};
use tracing::{debug, warn};

impl Service {
    /// Handles a batch from the `preverify` stage in order, with the signatures it checked.
    pub(super) async fn handle_batch(&mut self, batch: crate::preverify::Batch) {
        self.preverified.start(batch.verified);
        for ev in batch.events {
            self.handle_network(ev).await;
        }
        self.preverified.end();
    }

    pub(super) async fn handle_network(&mut self, ev: NetworkEvent) {
        match ev {
            NetworkEvent::InboundRequest {
                peer,
                request,
                reply,
                ..
            } => {
                let response = self.answer(peer, request).await;
                self.commits.defer(Deferred::Reply { reply, response });
            }
            NetworkEvent::Gossip {
                source,
                author,
                message_id,
                topic,
                data,
                ..
            } if topic.starts_with(protocol::LEAGUE_TOPIC_PREFIX) => {
                let acceptance = match protocol::decode::<LeagueHeads>(&data) {
                    Err(_) => MessageAcceptance::Reject,
                    Ok(h) if protocol::league_topic(&h.league) != topic => {
                        MessageAcceptance::Reject
                    }
                    Ok(h) => self.on_league_heads(author, h),
                };
                if matches!(acceptance, MessageAcceptance::Reject) {
                    // Every sobre node checks league heads before forwarding them, and only
                    // the organiser signs them: whoever handed us a rejected one signed it
                    // or forwarded it unchecked. A strike, as for malformed requests, cuts
                    // off a peer that keeps trying (gossipsub's score alone only stops
                    // forwarding to it).
                    warn!(peer = %source, %topic, "league heads rejected");
                    let _ = self
                        .net
                        .penalize(source, "league heads not signed by the organiser")
                        .await;
                }
                self.commits.defer(Deferred::Validation {
                    message_id,
                    source,
                    acceptance,
                });
            }
            NetworkEvent::Gossip {
                source,
                message_id,
                data,
                ..
            } => {
                let acceptance = match protocol::decode::<Gossip>(&data) {
                    Err(_) => MessageAcceptance::Reject,
                    Ok(g) => match self.ingest(g.game, &[g.event], Some(source), true).await {
                        Ok(_) => MessageAcceptance::Accept,
                        Err(refusal) if refusal.is_storage() => {
                            warn!(peer = %source, "gossip not stored: {refusal}");
                            MessageAcceptance::Ignore
                        }
                        Err(refusal) if !refusal.blames_sender() => MessageAcceptance::Ignore,
                        Err(refusal) => {
                            warn!(peer = %source, "invalid gossip rejected: {refusal}");
                            MessageAcceptance::Reject
                        }
                    },
                };
                self.commits.defer(Deferred::Validation {
                    message_id,
                    source,
                    acceptance,
                });
            }
            NetworkEvent::PeerConnected { peer, .. } => self.on_connected(peer).await,
            NetworkEvent::PeerAddresses { peer, addrs } => self.on_peer_addresses(peer, addrs),
            NetworkEvent::NewListenAddr(_) => self.on_own_address().await,
            _ => {}
        }
    }

    /// A peer connected: deliver what waits for it and catch up the games we share.
    pub(super) async fn on_connected(&mut self, peer: PeerId) {
        // First: a peer that knows another live instance of this key says so at once (a
        // peer that answered the check at start was told on this very connection).
        if !self.instances.first_since_start(&peer) {
            self.send_instance(peer);
        }
        self.league_on_connected(peer);
        self.league_catchup_on_connected(peer);
        // The peer's player, decoded once: comparing player ids is a few nanoseconds a game,
        // where turning every game's players into peer ids cost 16 µs a game (1.6 s of a
        // mailbox's time per connection at 100,000 games).
        let who = player_of_peer(&peer);
        let is_mailbox = self.identity.is_my_mailbox(&peer);
        // From the table's index of each player's games, not a pass over every game held.
        let shared: Vec<GameId> = who
            .map(|w| self.games.games_of(&w).map(|(g, _)| *g).collect())
            .unwrap_or_default();
        self.profiles_on_connected(peer, &shared);
        // The peer catches up the same games from us: one sync each, whatever their number,
        // without tripping its rate limit. Our mailbox holds all our games: it may sync any.
        let granted: Vec<GameId> = if is_mailbox {
            self.games.keys().copied().collect()
        } else {
            shared.clone()
        };
        if !granted.is_empty() {
            let _ = self.net.allow_syncs(peer, granted.clone()).await;
        }
        // From our mailbox we sync only what changed (see `catchup`), not every game; as a
        // mailbox, the same from a player's node that counts us as its mailbox.
        match who {
            Some(player)
                if self.identity.is_mailbox()
                    && player != self.identity.me()
                    && !shared.is_empty() =>
            {
                self.ask_player_heads(peer, player, shared.clone());
            }
            _ => {
                for g in &shared {
                    self.sync_game(peer, *g);
                }
            }
        }
        // A read of the proofs per game granted (every game, to our mailbox): only when
        // some proof is held at all.
        if self.store.holds_equivocations() {
            for g in &granted {
                dispute::resend(&self.store, &self.net, g, peer);
            }
        }
        // After a repair: ask every peer for the games not yet confirmed whole again (the
        // other players' copies confirm them: see `restore`).
        for g in self.restoring.games() {
            self.sync_game(peer, g);
        }
        if let Ok(entries) = self.store.outbox_for_peer(&peer.to_string()) {
            let games: HashSet<GameId> = entries.into_iter().map(|e| e.game).collect();
            for g in games {
                self.deliver(g, peer);
            }
        }
        if is_mailbox {
            self.ask_mailbox_heads(peer);
        }
    }

    pub(super) async fn answer(&mut self, peer: PeerId, request: Request) -> Response {
        match request {
            Request::Deliver { game, events } => {
                match self.ingest(game, &events, Some(peer), true).await {
                    Ok(receipts) => Response::Receipts { receipts },
                    Err(refusal) => {
                        let refusal = self.not_ours_again(peer, game, refusal);
                        // The protocol edge: from here on the refusal is the sender's text.
                        let reason = refusal.to_string();
                        if refusal.blames_sender() {
                            warn!(%peer, %game, "delivery rejected: {reason}");
                            let _ = self.net.penalize(peer, reason.clone()).await;
                        }
                        Response::Refused { reason }
                    }
                }
            }
            Request::Sync { game, .. } if !self.may_read(&peer, &game) => {
                debug!(%peer, %game, "sync refused: not a player, witness or mailbox of the game");
                Response::Events { events: Vec::new() }
            }
            Request::Sync { game, have } => {
                let have: HashMap<PlayerId, u64> = have.into_iter().collect();
                let wanted =
                    |author: &PlayerId, seq: u64| have.get(author).is_none_or(|&n| seq >= n);
                // A game not in memory is served from the store (verified when stored)
                // without loading it: a catch-up asks for many games once each.
                let events = match self.hot.peek(&game) {
                    Some(cache) => cache
                        .events
                        .iter()
                        .filter(|v| wanted(&v.event.author, v.event.seq))
                        .filter_map(|v| v.signed.to_bytes().ok())
                        .take(MAX_EVENTS_PER_MESSAGE)
                        .collect(),
                    None if self.games.contains_key(&game) => self
                        .store
                        .events(&game)
                        .unwrap_or_default()
                        .iter()
                        .filter(|e| {
                            e.decode_unverified()
                                .is_ok_and(|ev| wanted(&ev.author, ev.seq))
                        })
                        .filter_map(|e| e.to_bytes().ok())
                        .take(MAX_EVENTS_PER_MESSAGE)
                        .collect(),
                    None => Vec::new(),
                };
                let bytes: usize = events.iter().map(Vec::len).sum();
                if !self.spend_sync_budget(peer, bytes) {
                    debug!(%peer, %game, bytes, "sync refused: the peer's bytes for this minute are spent");
                    return Response::Refused {
                        reason: "rate limit".into(),
                    };
                }
                Response::Events { events }
            }
            Request::League { docs } => self.answer_league(peer, docs).await,
            Request::LeagueSince {
                league,
                epoch,
                since,
            } => self.answer_league_since(peer, league, epoch, since).await,
            Request::LeagueGames { league, have } => {
                self.answer_league_games(peer, league, have).await
            }
            Request::Profiles { profiles } => self.answer_profiles(peer, profiles).await,
            Request::Instance { record } => self.answer_instance(peer, record).await,
            Request::Games { player } if !Service::may_list(&peer, &player) => {
                debug!(%peer, "game list refused: only a player lists its own games");
                Response::Games { games: Vec::new() }
            }
            // A player's node also answers its own mailboxes about its player's games.
            Request::GamesSince { player, .. }
                if !(Service::may_list(&peer, &player)
                    || player == self.identity.me() && self.identity.is_my_mailbox(&peer)) =>
            {
                debug!(%peer, "game heads refused: only a player lists its own games");
                Response::GameHeads {
                    epoch: 0,
                    cursor: 0,
                    heads: Vec::new(),
                }
            }
            Request::GamesSince {
                player,
                epoch,
                since,
            } => self.answer_games_since(peer, player, epoch, since).await,
            Request::Games { player } => {
                let games: Vec<GameId> = self
                    .games
                    .iter()
                    .filter(|(_, s)| s.plays(&player))
                    .map(|(g, _)| *g)
                    .collect();
                // A player asking for its own games syncs each next (a node meeting its
                // mailbox): let it, once per game.
                if peer_of_player(&player) == Some(peer) && !games.is_empty() {
                    let _ = self.net.allow_syncs(peer, games.clone()).await;
                }
                Response::Games { games }
            }
        }
    }

    /// A delivery refused as not ours: [`Refusal::NotOursAgain`] (a strike) once `peer` has
    /// sent more such games this hour than an honest node would, unless it is a mailbox of
    /// the player or a known player (see `standing`), whose nodes may hold games this one
    /// does not keep. Gossip is left alone: its source may be an honest relay.
    fn not_ours_again(&mut self, peer: PeerId, game: GameId, refusal: Refusal) -> Refusal {
        if !matches!(refusal, Refusal::NotOurs)
            || !self
                .limits
                .not_ours_again(peer, game, crate::time::now_ms())
            || self.identity.is_my_mailbox(&peer)
        {
            return refusal;
        }
        let known = super::player_of_peer(&peer).is_some_and(|p| self.known_players().contains(&p));
        if known {
            return refusal;
        }
        Refusal::NotOursAgain
    }
}
