//! One table everywhere: every member of a league holds every game of it.
//!
//! A player's node keeps the games of its league between two others (it is a *member* of
//! the league, a witness that signs nothing in them) and catches them up from the
//! organiser, or from its mailboxes, with [`Request::LeagueGames`]: it says how far each
//! league game it holds has gone ([`LeagueProgress`]), the other node answers with the games
//! it holds further along and lets the member sync each of them once outside the rate
//! limit. The member asks when it meets the organiser or a mailbox, whenever the organiser
//! announces on the league's topic a game the member holds less far along (see
//! `league_heads`), and every 30 seconds while connected as a fallback, so a move reaches
//! every member's table within about a second.
//!
//! Until the organiser has answered, or while games it listed are still being synced, the
//! member's view of the league may be incomplete: [`Service::league_missing`] says how.
//!
//! Access: only the league's members (its organiser, deputy arbiter and players) and this
//! node's mailboxes may list a league's games or read them; a stranger gets the empty
//! answer it gets for any game.

use super::deliver::Internal;
use super::league_state::Ask;
use super::reads::ReadSide;
use super::{Service, peer_of_player, player_of_peer};
use crate::network::NetworkError;
use crate::protocol::{LeagueProgress, MAX_LEAGUE_GAMES_LISTED, Request, Response};
use crate::view::Summary;
use libp2p::PeerId;
use sobre_core::league::{League, LeagueId};
use sobre_core::record::{ColourChoice, GameId, GameState, PlayerId, Status};
use std::collections::HashMap;
use tracing::{debug, warn};

/// Ask the organiser every this many league ticks (of 1.5 s) while connected: a fallback
/// only, for heads missed while the gossip mesh formed (see `league_heads`), so it may be
/// slow.
const POLL_TICKS: u32 = 20;
/// Games of one pairing a member keeps (both players may start it, a retry may start it
/// again): more is a member filling others' disks, refused.
pub(super) const MAX_GAMES_PER_PAIRING: usize = 4;

/// How far a game has gone, from its summary (league games start from the initial
/// position, so the move number and the side to move give the plies).
pub(super) fn progress(s: &Summary) -> LeagueProgress {
    let stage = match s.status {
        Status::Pending => 0,
        Status::Active | Status::Adjourned => 1,
        Status::Finished | Status::Cancelled | Status::Disputed => 2,
    };
    let plies = s
        .move_number
        .saturating_sub(1)
        .saturating_mul(2)
        .saturating_add(u32::from(s.turn == sobre_core::Color::Black));
    LeagueProgress {
        game: s.game,
        stage,
        plies,
    }
}

/// White and Black of a league challenge (a league game's colours are the challenger's
/// choice, never the coin).
pub(super) fn league_colours(state: &GameState) -> Option<(PlayerId, PlayerId)> {
    match state.challenge.colour {
        ColourChoice::ChallengerWhite => Some((state.challenger, state.opponent)),
        ColourChoice::ChallengerBlack => Some((state.opponent, state.challenger)),
        ColourChoice::Random => None,
    }
}

impl Service {
    /// Whether `who` is a member of `league`: its organiser, its deputy arbiter or one of
    /// its players.
    pub(super) fn is_member(league: &League, who: &PlayerId) -> bool {
        league.members().contains(who)
    }

    /// Whether this node keeps `state`, a game it neither plays nor arbitrates, as a member
    /// of its league: the league is held here, this player is a member, the game is a
    /// pairing of the table with the table's colours, and fewer than
    /// [`MAX_GAMES_PER_PAIRING`] games of that pairing are held already (`new`).
    pub(super) fn keeps_as_member(&self, state: &GameState, new: bool) -> bool {
        let Some(lr) = state.challenge.league.as_ref() else {
            return false;
        };
        let Some(league) = self.league_of(&lr.league) else {
            return false;
        };
        let Some((white, black)) = league_colours(state) else {
            return false;
        };
        if !Service::is_member(&league, &self.identity.me())
            || !league.is_pairing(lr.round, &white, &black)
        {
            return false;
        }
        if !new {
            return true;
        }
        let same = self
            .games
            .values()
            .filter(|s| {
                s.league.as_ref() == Some(lr)
                    && s.challenger == state.challenger
                    && s.opponent == state.opponent
            })
            .count();
        same < MAX_GAMES_PER_PAIRING
    }

    /// Whether `peer` may read `game` as a member of its league (see `access`).
    pub(super) fn may_read_as_member(&self, peer: &PeerId, game: &GameId) -> bool {
        let Some(lr) = self.games.get(game).and_then(|s| s.league.as_ref()) else {
            return false;
        };
        let (Some(who), Some(league)) = (player_of_peer(peer), self.league_of(&lr.league)) else {
            return false;
        };
        Service::is_member(&league, &who)
    }

    /// How far each game of `league` this node holds has gone.
    fn league_progress(&self, league: &LeagueId) -> Vec<LeagueProgress> {
        let mut out: Vec<LeagueProgress> = self
            .games
            .values()
            .filter(|s| s.league.as_ref().is_some_and(|lr| lr.league == *league))
            .map(progress)
            .collect();
        out.sort_by_key(|p| p.game);
        out.truncate(MAX_LEAGUE_GAMES_LISTED);
        out
    }

    /// Answers [`Request::LeagueGames`]: the games of the league this node holds further
    /// along than `have` says, to a member of the league or a mailbox of this node.
    pub(super) async fn answer_league_games(
        &mut self,
        peer: PeerId,
        league: LeagueId,
        have: Vec<LeagueProgress>,
    ) -> Response {
        if have.len() > MAX_LEAGUE_GAMES_LISTED {
            return Response::Refused {
                reason: format!("more than {MAX_LEAGUE_GAMES_LISTED} games listed"),
            };
        }
        let allowed = self.identity.is_my_mailbox(&peer)
            || self
                .league_of(&league)
                .zip(player_of_peer(&peer))
                .is_some_and(|(l, who)| Service::is_member(&l, &who));
        if !allowed {
            debug!(%peer, %league, "league game list refused: not a member of the league");
            return Response::LeagueGames { games: Vec::new() };
        }
        let have: HashMap<GameId, LeagueProgress> = have.into_iter().map(|p| (p.game, p)).collect();
        let games: Vec<LeagueProgress> = self
            .league_progress(&league)
            .into_iter()
            .filter(|p| p.ahead_of(have.get(&p.game)))
            .collect();
        if !games.is_empty() {
            let ids = games.iter().map(|p| p.game).collect();
            let _ = self.net.allow_syncs(peer, ids).await;
        }
        Response::LeagueGames { games }
    }

    /// The peers a member asks for a league's games: the organiser and this node's
    /// mailboxes (never this node itself).
    fn league_sources(&self, league: &League) -> Vec<PeerId> {
        let own = peer_of_player(&self.identity.me());
        let mut out: Vec<PeerId> = peer_of_player(&league.organiser)
            .into_iter()
            .chain(self.identity.mailboxes().iter().copied())
            .filter(|p| Some(*p) != own)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Asks `peer` which games of `league` it holds ahead of this node; with `only_connected`
    /// only if a connection to it is open (a periodic poll never dials).
    fn poll_league(&mut self, league: LeagueId, peer: PeerId, only_connected: bool) {
        let request = match self.leagues_state.start_poll(league, peer) {
            None => return,
            Some(Ask::WholeList) => Request::LeagueGames {
                league,
                have: self.league_progress(&league),
            },
            Some(Ask::Since(epoch, since)) => Request::LeagueSince {
                league,
                epoch,
                since,
            },
        };
        let net = self.net.clone();
        let tx = self.internal_tx.clone();
        tokio::spawn(async move {
            let connected = !only_connected
                || net
                    .connected_peers()
                    .await
                    .is_ok_and(|c| c.iter().any(|(p, _)| *p == peer));
            let result = if connected {
                net.request(peer, request).await
            } else {
                Err(NetworkError::Refused("not connected".into()))
            };
            let _ = tx
                .send(Internal::LeagueListed {
                    league,
                    peer,
                    result,
                })
                .await;
        });
    }

    /// A peer connected: if it is the organiser of a league this node is a player of, or a
    /// mailbox, ask it for the games of those leagues this node lacks.
    pub(super) fn league_catchup_on_connected(&mut self, peer: PeerId) {
        for league in self.leagues() {
            if league.organiser != self.identity.me()
                && Service::is_member(&league, &self.identity.me())
                && self.league_sources(&league).contains(&peer)
            {
                self.poll_league(league.id, peer, false);
            }
        }
    }

    /// Asks every connected source of `league` what this node lacks.
    pub(super) fn poll_league_sources(&mut self, league: &League) {
        for peer in self.league_sources(league) {
            self.poll_league(league.id, peer, true);
        }
    }

    /// Every few league ticks: ask the connected sources of every league this node's player
    /// plays in.
    pub(super) fn league_catchup_tick(&mut self, ticks: u32) {
        if !ticks.is_multiple_of(POLL_TICKS) {
            return;
        }
        for league in self.leagues() {
            if league.organiser == self.identity.me()
                || !Service::is_member(&league, &self.identity.me())
            {
                continue;
            }
            self.poll_league_sources(&league);
        }
    }

    /// The answer to [`Service::poll_league`]: remember what the organiser holds ahead of
    /// this node and sync each of those games from it.
    pub(super) fn league_listed(
        &mut self,
        league: LeagueId,
        peer: PeerId,
        result: Result<Response, NetworkError>,
    ) {
        self.leagues_state.poll_ended(league, peer);
        // Whether the answer is the whole league (else only what changed since the cursor).
        let mut whole = true;
        let games = match result {
            Ok(Response::LeagueGames { games }) => games,
            Ok(Response::LeagueChanges {
                epoch,
                cursor,
                games,
            }) => {
                whole = self
                    .leagues_state
                    .changes_answered(league, peer, epoch, cursor);
                games
            }
            Ok(Response::Refused { reason }) => {
                debug!(%peer, %league, "league changes refused ({reason}): asking for the whole list");
                self.leagues_state.wants_whole_list(peer);
                return;
            }
            Ok(other) => {
                warn!(%peer, %league, "unexpected answer to a league game list: {other:?}");
                return;
            }
            Err(e) => {
                debug!(%peer, %league, "league game list not answered: {e}");
                return;
            }
        };
        let from_organiser = self
            .league_of(&league)
            .is_some_and(|l| peer_of_player(&l.organiser) == Some(peer));
        for p in games.iter().take(MAX_LEAGUE_GAMES_LISTED) {
            if p.ahead_of(self.games.get(&p.game).map(progress).as_ref()) {
                self.sync_game(peer, p.game);
            }
        }
        // The organiser's list is the reference for what this node still lacks: a whole
        // list replaces it, changes update it.
        if from_organiser {
            let listed = games.into_iter().take(MAX_LEAGUE_GAMES_LISTED);
            self.leagues_state.organiser_listed(league, listed, whole);
        }
    }

    /// Answers [`Request::LeagueSince`]: how far each game of the league that changed since
    /// the member's cursor has gone here (the whole league for a cursor of another run),
    /// to a member of the league or a mailbox of this node; the member may sync each once
    /// outside the rate limit.
    pub(super) async fn answer_league_since(
        &mut self,
        peer: PeerId,
        league: LeagueId,
        epoch: u64,
        since: u64,
    ) -> Response {
        let (answer_epoch, cursor) = (self.games.epoch(), self.games.cursor());
        let allowed = self.identity.is_my_mailbox(&peer)
            || self
                .league_of(&league)
                .zip(player_of_peer(&peer))
                .is_some_and(|(l, who)| Service::is_member(&l, &who));
        if !allowed {
            debug!(%peer, %league, "league changes refused: not a member of the league");
            return Response::LeagueChanges {
                epoch: answer_epoch,
                cursor,
                games: Vec::new(),
            };
        }
        let games: Vec<LeagueProgress> = self
            .games
            .changed_since(epoch, since)
            .into_iter()
            .filter_map(|g| self.games.get(&g))
            .filter(|s| s.league.as_ref().is_some_and(|lr| lr.league == league))
            .map(progress)
            .take(MAX_LEAGUE_GAMES_LISTED)
            .collect();
        if !games.is_empty() {
            let ids = games.iter().map(|p| p.game).collect();
            let _ = self.net.allow_syncs(peer, ids).await;
        }
        Response::LeagueChanges {
            epoch: answer_epoch,
            cursor,
            games,
        }
    }

    /// What this node's view of a league may lack: `None` if the organiser has not answered
    /// since the node started (the view may lack anything), else how many games the
    /// organiser listed that this node does not hold as far along yet. The organiser's own
    /// view is the reference: complete.
    pub(super) fn league_missing(&self, league: &League) -> Option<usize> {
        if league.organiser == self.identity.me() {
            return Some(0);
        }
        let listed = self.leagues_state.listed(&league.id)?;
        Some(
            listed
                .values()
                .filter(|p| p.ahead_of(self.games.get(&p.game).map(progress).as_ref()))
                .count(),
        )
    }
}
