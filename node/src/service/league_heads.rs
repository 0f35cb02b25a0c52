//! Leagues announce, members pull: a league's moves reach its members without a topic per
//! game.
//!
//! Games have no gossip topic (a node would need one per game it holds, and gossipsub 0.50
//! refuses a peer's whole subscription list once it passes its 16 KiB control limit, about
//! 188 topics: the node vanishes from gossip). Each league has one topic instead
//! ([`protocol::league_topic`]): every member, and every mailbox that holds the league,
//! subscribes to it, and on every league tick the organiser publishes the heads of the
//! league's games that moved since its last announcement ([`LeagueHeads`]). A member that
//! holds one of those games less far along asks its league sources for the league's games
//! ([`Request::LeagueGames`](crate::protocol::Request::LeagueGames)), as it does when it
//! meets the organiser, and syncs what it lacks. A head carries no event: everything a
//! member stores is still verified as synced.
//!
//! Heads are accepted only from the league's organiser (the author gossipsub checked the
//! signature of, whoever forwarded it); anyone else's — a member's, a stranger's — are
//! rejected before anything is asked of anyone, which costs the forwarding peer gossip score
//! and a strike (see `inbound`): forged heads cannot set the members polling their sources.

use super::Service;
use super::league_sync::progress;
use super::reads::ReadSide;
use crate::protocol::{self, LeagueHeads, LeagueProgress, MAX_HEADS_PER_MESSAGE};
use libp2p::PeerId;
use libp2p::gossipsub::MessageAcceptance;
use sobre_core::league::{League, LeagueId};
use tracing::debug;

impl Service {
    /// Every league tick: follow the topic of every league this node is a member of (or
    /// holds as a mailbox), and, as an organiser, announce the heads that moved.
    pub(super) async fn league_heads_tick(&mut self, leagues: &[League]) {
        for league in leagues {
            let follows =
                self.identity.is_mailbox() || Service::is_member(league, &self.identity.me());
            if follows && self.leagues_state.may_follow(&league.id) {
                match self.net.subscribe(protocol::league_topic(&league.id)).await {
                    Ok(()) => {
                        self.leagues_state.followed(league.id);
                        // Heads announced before this node followed the topic are not
                        // repeated: ask now what they said.
                        if league.organiser != self.identity.me()
                            && Service::is_member(league, &self.identity.me())
                        {
                            self.poll_league_sources(league);
                        }
                    }
                    Err(e) => debug!(league = %league.id, "league topic not joined: {e}"),
                }
            }
            if league.organiser == self.identity.me() {
                self.announce_heads(&league.id).await;
            }
        }
    }

    /// Publishes the heads of `league`'s games that moved since the last announcement. Heads
    /// that could not be published (nobody follows the topic yet) are tried again next tick.
    async fn announce_heads(&mut self, league: &LeagueId) {
        let moved: Vec<LeagueProgress> = self
            .games
            .values()
            .filter(|s| s.league.as_ref().is_some_and(|lr| lr.league == *league))
            .map(progress)
            .filter(|p| self.leagues_state.moved(p))
            .collect();
        for chunk in moved.chunks(MAX_HEADS_PER_MESSAGE) {
            let message = LeagueHeads {
                league: *league,
                heads: chunk.to_vec(),
            };
            let Ok(bytes) = protocol::encode(&message) else {
                continue;
            };
            match self
                .net
                .publish(protocol::league_topic(league), bytes)
                .await
            {
                Ok(()) => {
                    for p in chunk {
                        self.leagues_state.announced(*p);
                    }
                }
                Err(e) => debug!(%league, "league heads not published: {e}"),
            }
        }
    }

    /// Heads announced on a league's topic: if they are the organiser's and show a game this
    /// node holds less far along (or not at all), ask the league's connected sources what
    /// it lacks.
    pub(super) fn on_league_heads(
        &mut self,
        author: Option<PeerId>,
        heads: LeagueHeads,
    ) -> MessageAcceptance {
        let Some(league) = self.league_of(&heads.league) else {
            return MessageAcceptance::Ignore;
        };
        if author.is_none() || author != super::peer_of_player(&league.organiser) {
            return MessageAcceptance::Reject;
        }
        if heads.heads.len() > MAX_HEADS_PER_MESSAGE {
            return MessageAcceptance::Reject;
        }
        if league.organiser == self.identity.me()
            || !Service::is_member(&league, &self.identity.me())
        {
            return MessageAcceptance::Accept;
        }
        let behind: Vec<LeagueProgress> = heads
            .heads
            .iter()
            .filter(|p| p.ahead_of(self.games.get(&p.game).map(progress).as_ref()))
            .copied()
            .collect();
        if behind.is_empty() {
            return MessageAcceptance::Accept;
        }
        // The organiser's word is the reference for what this node still lacks, once it
        // has answered a full list (see `league_missing`).
        self.leagues_state.heads_ahead(&league.id, &behind);
        debug!(league = %league.id, games = behind.len(), "league heads ahead of this node");
        self.poll_league_sources(&league);
        MessageAcceptance::Accept
    }
}
