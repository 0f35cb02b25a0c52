//! Leagues on the node: keeping the signed league documents, sending them to the players
//! and the organiser, opening each round's games, and exporting a league archive.
//!
//! - The organiser's node signs the definition (`league_create`) and sends it to every
//!   player and to its mailboxes; a player's node signs a join (`league_join`) and sends the
//!   definition and the join to the organiser, the other players and its mailboxes. Every
//!   node that holds a league's documents forwards what a peer lacks when the peer connects,
//!   and retries until the peer has acknowledged them all ([`Response::Stored`]).
//! - Documents travel by direct request (`/sobre/deliver/1`), not gossip: the audience is a
//!   fixed, small list of players, and a direct request gives the acknowledgement that
//!   retries need.
//! - A league whose organiser plays names a deputy arbiter: a member like the players (it
//!   receives the documents and holds the games), whose node signs the decisions about the
//!   organiser's games (`league_decide`) and is the witness of those games.
//! - The list of players is the definition's as the roster decisions (a late entry, a
//!   replacement before round 1) leave it: [`Service::leagues`] gives every league so
//!   amended, and everything else (joins, pairings, challenges, who holds the games)
//!   follows it.
//! - When a round opens, the nodes of both players of a pairing (Berger table) may
//!   challenge, with the table's colours and the league's time control; the other node
//!   accepts on its own, since joining the league accepted its games in advance. When both
//!   challenged, the first challenge (signed earlier, then the smaller id) is played and
//!   the other declined.

use super::deliver::Internal;
use super::reads::ReadSide;
use super::{Service, internal, now_ms, peer_of_player, user};
use crate::api::refusal::{IdPlace, coded_league_error};
use crate::api::request::{self, Request as _};
use crate::api::watch::NodeEvent;
use crate::api::{ApiError, ApiRequest, RefusalCode, Reply};
use crate::network::NetworkError;
use crate::protocol::{Request, Response};
use libp2p::PeerId;
use sobre_core::league::{
    Board, League, LeagueDef, LeagueError, LeagueId, LeagueRule, Scoring, SignedLeagueDoc, decision,
};
use sobre_core::record::{ColourChoice, EventId, GameId, LeagueRound, PlayerId, Status};
use tracing::{debug, info, warn};

/// The most decisions a league keeps (a season of 64 players has 4,032 pairings at most,
/// and decisions are the exception).
pub(super) const MAX_DECISIONS: usize = 1_024;
/// The most league documents accepted in one request (a definition, 64 joins, decisions).
const MAX_DOCS: usize = 65 + MAX_DECISIONS;

impl Service {
    /// The witness and arbiter of a league game, if this node holds its league: the
    /// organiser, or the deputy arbiter for a game the organiser plays.
    pub(super) fn league_organiser(
        &self,
        state: &sobre_core::record::GameState,
    ) -> Option<PlayerId> {
        let lr = state.challenge.league.as_ref()?;
        let doc = self.store.league_get(&lr.league).ok()??;
        League::from_signed(&doc)
            .ok()
            .map(|l| l.arbiter_for(&[state.challenger, state.opponent]))
    }

    /// Every document of a league: the definition first, then the joins and decisions.
    fn league_docs(&self, league: &League) -> Vec<SignedLeagueDoc> {
        let mut docs = vec![league.signed.clone()];
        docs.extend(self.league_joins(league).into_iter().map(|(_, d)| d));
        docs.extend(self.league_decisions(league));
        docs
    }

    /// Who should hold a league's documents: its members (the organiser, the deputy, the
    /// players) and our mailboxes (never this node itself).
    pub(super) fn league_audience(&self, league: &League) -> Vec<PeerId> {
        let own = peer_of_player(&self.identity.me());
        let mut out: Vec<PeerId> = league
            .members()
            .iter()
            .filter_map(peer_of_player)
            .chain(self.identity.mailboxes().iter().copied())
            .filter(|p| Some(*p) != own)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Keeps league documents after checking them. Returns how many documents of that league
    /// this node holds afterwards.
    fn keep_league_docs(&mut self, docs: &[Vec<u8>]) -> Result<(LeagueId, u32, bool), String> {
        if docs.is_empty() || docs.len() > MAX_DOCS {
            return Err(format!("{} league documents (1 to {MAX_DOCS})", docs.len()));
        }
        let first = SignedLeagueDoc::from_bytes(&docs[0]).map_err(|e| e.to_string())?;
        let league = League::from_signed(&first).map_err(|e| e.to_string())?;
        let mut joins = Vec::new();
        let mut decisions = Vec::new();
        let mut join_docs = Vec::new();
        for bytes in &docs[1..] {
            let doc = SignedLeagueDoc::from_bytes(bytes).map_err(|e| e.to_string())?;
            // Only decisions signed by their arbiter (the organiser, or the deputy for the
            // organiser's own games) are kept and passed on (see `decision`).
            if decision::is_decision(&doc) {
                league
                    .check_signer(&doc)
                    .map_err(|e| format!("decision: {e}"))?;
                decisions.push(doc);
            } else {
                join_docs.push(doc);
            }
        }
        // A player who entered late, or replaced another, joins like the others: a join is
        // checked against the definition's players, then against the list the roster
        // decisions (held, and in this request) leave.
        let mut all = self.league_decisions(&league);
        all.extend(decisions.iter().cloned());
        let amended = decision::amend(&league, &all, &decision::Started::new()).league;
        for doc in join_docs {
            let player = match league.check_join(&doc) {
                Err(LeagueError::NotAPlayer { .. }) => amended.check_join(&doc),
                other => other,
            }
            .map_err(|e| e.to_string())?;
            joins.push((player, doc));
        }
        let is_new = self
            .store
            .league_put(&league.id, &first)
            .map_err(|e| e.to_string())?;
        let mut added = is_new;
        for (player, doc) in joins {
            added |= self
                .store
                .join_put(&league.id, &player, &doc)
                .map_err(|e| e.to_string())?;
        }
        if is_new {
            info!(league = %league.id, name = %league.def.name, "league received");
        }
        let mut held = self.store.decisions_of(&league.id).len();
        for doc in decisions {
            if held >= MAX_DECISIONS {
                return Err(format!("more than {MAX_DECISIONS} decisions"));
            }
            let new = self
                .store
                .decision_put(&league.id, &doc)
                .map_err(|e| e.to_string())?;
            held += usize::from(new);
            added |= new;
        }
        let league = self.amended(league);
        let count = 1
            + self.league_joins(&league).len() as u32
            + self.league_decisions(&league).len() as u32;
        Ok((league.id, count, added))
    }

    /// A peer sends league documents.
    pub(super) async fn answer_league(&mut self, peer: PeerId, docs: Vec<Vec<u8>>) -> Response {
        match self.keep_league_docs(&docs) {
            Ok((league, count, added)) => {
                if let Err(e) = self.store.flush().await {
                    return Response::Refused {
                        reason: format!("cannot store: {e}"),
                    };
                }
                if !added {
                    return Response::Stored { count };
                }
                self.watchers
                    .notify(&league, NodeEvent::League { documents: count });
                // Pass on what is new to those who lack it (the organiser relays joins to
                // every player); what they already acknowledged is not sent again.
                for l in self.leagues().into_iter().filter(|l| l.id == league) {
                    for p in self.league_audience(&l) {
                        if p != peer {
                            self.send_league(&l, p);
                        }
                    }
                }
                Response::Stored { count }
            }
            Err(reason) => {
                warn!(%peer, "league documents rejected: {reason}");
                let _ = self.net.penalize(peer, reason.clone()).await;
                Response::Refused { reason }
            }
        }
    }

    /// Sends a league's documents to `peer` unless it has acknowledged all of them, one
    /// request at a time per league and peer; the answer comes back as
    /// [`Internal::LeagueSent`] ([`Service::league_sent`]), so a retry only happens while
    /// something is missing.
    pub(super) fn send_league(&mut self, league: &League, peer: PeerId) {
        let docs: Vec<Vec<u8>> = self
            .league_docs(league)
            .iter()
            .filter_map(|d| d.to_bytes().ok())
            .collect();
        let acked = self.store.league_sent(&league.id, &peer).unwrap_or(0);
        if acked as usize >= docs.len() {
            return;
        }
        if !self.leagues_state.start_sending(league.id, peer) {
            return;
        }
        let net = self.net.clone();
        let tx = self.internal_tx.clone();
        let id = league.id;
        tokio::spawn(async move {
            let result = net.request(peer, Request::League { docs }).await;
            let _ = tx
                .send(Internal::LeagueSent {
                    league: id,
                    peer,
                    result,
                })
                .await;
        });
    }

    /// The answer to [`Service::send_league`]: the peer's count of the league's documents is
    /// recorded here, by the service, the store's one writer.
    pub(super) fn league_sent(
        &mut self,
        league: LeagueId,
        peer: PeerId,
        result: Result<Response, NetworkError>,
    ) {
        self.leagues_state.sent(league, peer);
        match result {
            Ok(Response::Stored { count }) => {
                // Only ever raise the count (a late answer must not lower it).
                if let Err(e) = self.store.league_sent_raise(&league, &peer, count) {
                    warn!(%peer, %league, "league acknowledgement not recorded: {e}");
                }
            }
            Ok(other) => debug!(%peer, %league, "league documents not kept: {other:?}"),
            Err(e) => debug!(%peer, %league, "league documents not delivered: {e}"),
        }
    }

    /// A peer connected: send the leagues it should hold.
    pub(super) fn league_on_connected(&mut self, peer: PeerId) {
        for league in self.leagues() {
            if self.league_audience(&league).contains(&peer) {
                self.send_league(&league, peer);
            }
        }
    }

    /// Every few seconds: open due rounds, accept league challenges, resend documents.
    pub(super) async fn league_tick(&mut self) {
        let leagues = self.leagues();
        if leagues.is_empty() {
            return;
        }
        let now = now_ms();
        let ticks = self.leagues_state.tick();
        let resend = ticks.is_multiple_of(8);
        self.league_catchup_tick(ticks);
        self.league_heads_tick(&leagues).await;
        for league in leagues {
            if resend {
                for p in self.league_audience(&league) {
                    self.send_league(&league, p);
                }
            }
            if !self.joined(&league, &self.identity.me()) {
                continue;
            }
            self.accept_league_challenges(&league).await;
            self.open_rounds(&league, now).await;
        }
    }

    /// Challenges for every open round's pairing of this player that has no game yet,
    /// with the table's colours: White's node or Black's, whichever comes first (an absent
    /// White must not leave the pairing unplayed). When both nodes challenge, the first
    /// challenge is the one played (see [`Service::accept_league_challenges`]).
    async fn open_rounds(&mut self, league: &League, now: u64) {
        let Some(me) = league.number(&self.identity.me()) else {
            return;
        };
        let rounds = league.rounds();
        for round in league.open_rounds(now) {
            let Some(boards) = rounds.get(round as usize - 1) else {
                continue;
            };
            for b in boards {
                let Board::Game { white, black } = *b else {
                    continue;
                };
                let (colour, other) = match me {
                    m if m == white => (ColourChoice::ChallengerWhite, black),
                    m if m == black => (ColourChoice::ChallengerBlack, white),
                    _ => continue,
                };
                let (Some(w), Some(bl), Some(opponent)) = (
                    league.player(white),
                    league.player(black),
                    league.player(other),
                ) else {
                    continue;
                };
                // An unreadable index counts as holding the game: no second challenge.
                if self
                    .store
                    .league_game_has(&league.id, round, &w, &bl)
                    .unwrap_or(true)
                    || self.has_league_game(league, round, &w, &bl)
                {
                    continue;
                }
                let lr = LeagueRound {
                    league: league.id,
                    round,
                };
                match self
                    .challenge(
                        &opponent.to_string(),
                        colour,
                        &league.def.time_control,
                        false,
                        None,
                        Some(lr),
                        league_terms(league, &[w, bl]),
                    )
                    .await
                {
                    Ok(v) => {
                        let game = EventId::from_hex(&v.game);
                        if let Some(g) = game {
                            let _ = self.store.league_game_put(&league.id, round, &w, &bl, &g);
                            let _ = self.store.flush().await;
                        }
                        info!(league = %league.id, round, opponent = %opponent, ?colour, "league game challenged");
                    }
                    Err(e) => warn!(league = %league.id, round, "league challenge failed: {e}"),
                }
            }
        }
    }

    /// The games of a pairing (`white` – `black` in `round`) this node holds that are not
    /// cancelled, whoever challenged.
    fn pairing_games(
        &self,
        league: &League,
        round: u32,
        white: &PlayerId,
        black: &PlayerId,
    ) -> Vec<(GameId, Status)> {
        let lr = Some(LeagueRound {
            league: league.id,
            round,
        });
        self.games
            .iter()
            .filter(|(_, s)| s.league == lr && s.status != Status::Cancelled)
            .filter(|(_, s)| {
                let colours = match s.colour_choice {
                    ColourChoice::ChallengerWhite => Some((s.challenger, s.opponent)),
                    ColourChoice::ChallengerBlack => Some((s.opponent, s.challenger)),
                    ColourChoice::Random => None,
                };
                colours == Some((*white, *black))
            })
            .map(|(g, s)| (*g, s.status))
            .collect()
    }

    /// When a game was challenged (its first event, as signed), loading it if need be.
    fn league_challenged_ms(&mut self, game: &GameId) -> Option<u64> {
        self.ensure_hot(game).ok()?;
        self.hot
            .peek(game)
            .and_then(|c| c.events.iter().find(|v| v.id == *game))
            .map(|v| v.event.time_ms)
    }

    /// Whether this node already holds a game for a pairing.
    fn has_league_game(
        &self,
        league: &League,
        round: u32,
        white: &PlayerId,
        black: &PlayerId,
    ) -> bool {
        !self.pairing_games(league, round, white, black).is_empty()
    }

    /// Answers the league's pending challenges addressed to this player that are pairings
    /// of the table with the table's colours and time control. One game per pairing: a
    /// challenge is accepted unless another game of the pairing has started, or this node's
    /// own challenge for it came first (signed earlier; the same time, a smaller id);
    /// otherwise it is declined. Both nodes apply the same rule, so when both challenged,
    /// exactly the first challenge is played, whichever arrived first.
    async fn accept_league_challenges(&mut self, league: &League) {
        let tc = league
            .def
            .time_control
            .parse::<sobre_core::clock::TimeControl>()
            .map(|t| t.to_string())
            .unwrap_or_default();
        let pending: Vec<(GameId, u32, PlayerId, PlayerId)> = self
            .games
            .iter()
            .filter(|(_, s)| s.status == Status::Pending && s.opponent == self.identity.me())
            .filter_map(|(g, s)| {
                let lr = s.league.as_ref()?;
                let (white, black) = match s.colour_choice {
                    ColourChoice::ChallengerWhite => (s.challenger, s.opponent),
                    ColourChoice::ChallengerBlack => (s.opponent, s.challenger),
                    ColourChoice::Random => return None,
                };
                (lr.league == league.id
                    && s.time_control == tc
                    && league.is_pairing(lr.round, &white, &black))
                .then_some((*g, lr.round, white, black))
            })
            .collect();
        // In a fixed order: of two challenges from the opponent (a retry), one is accepted
        // and the other then declined as a second game.
        let mut pending = pending;
        pending.sort();
        for (game, round, white, black) in pending {
            let others: Vec<(GameId, Status)> = self
                .pairing_games(league, round, &white, &black)
                .into_iter()
                .filter(|(g, _)| *g != game)
                .collect();
            let started = others.iter().any(|(_, st)| *st != Status::Pending);
            let Some(theirs) = self.league_challenged_ms(&game) else {
                warn!(league = %league.id, %game, "league game not loaded");
                continue;
            };
            // A league game is played on the league's terms (its arbiter keeps time): a
            // challenge that names others is not the pairing's game.
            let expected = league_terms(league, &[white, black]);
            if self
                .hot
                .peek(&game)
                .is_some_and(|c| c.state.terms != expected)
            {
                warn!(league = %league.id, %game, "league challenge on other terms: not accepted");
                continue;
            }
            let mut mine_first = false;
            for (g, _) in &others {
                if self
                    .games
                    .get(g)
                    .is_some_and(|s| s.challenger == self.identity.me())
                    && self
                        .league_challenged_ms(g)
                        .is_some_and(|t| (t, *g) < (theirs, game))
                {
                    mine_first = true;
                }
            }
            if started || mine_first {
                let reason = "a second game for this pairing";
                match self.author(&game, |s, t| s.decline(reason, t)).await {
                    Ok(_) => {
                        info!(league = %league.id, round, %game, "duplicate league challenge declined")
                    }
                    Err(e) => warn!(league = %league.id, %game, "duplicate not declined: {e}"),
                }
                continue;
            }
            match self.author(&game, |s, t| s.accept(None, t)).await {
                Ok(_) => {
                    let _ = self
                        .store
                        .league_game_put(&league.id, round, &white, &black, &game);
                    let _ = self.store.flush().await;
                    info!(league = %league.id, round, %game, "league game accepted");
                }
                Err(e) => warn!(league = %league.id, %game, "league game not accepted: {e}"),
            }
        }
    }

    pub(super) async fn league_api(&mut self, req: ApiRequest) -> Result<Reply, ApiError> {
        match req {
            ApiRequest::LeagueCreate(request::LeagueCreate {
                name,
                players,
                names,
                double,
                time_control,
                round_days,
                start_ms,
                deputy,
                start_deadline_ms,
            }) => {
                let ids: Vec<PlayerId> = players
                    .iter()
                    .map(|p| p.parse().map_err(|e| super::bad_player_id(p, &e)))
                    .collect::<Result<_, _>>()?;
                let names = if names.is_empty() {
                    ids.iter().map(PlayerId::short).collect()
                } else {
                    names
                };
                let deputy = deputy
                    .map(|d| {
                        d.trim().parse::<PlayerId>().map_err(|_| {
                            ApiError::refused(RefusalCode::PlayerIdAt {
                                place: IdPlace::Deputy,
                                text: d.trim().to_owned(),
                            })
                        })
                    })
                    .transpose()?;
                let now = now_ms();
                let def = LeagueDef {
                    name,
                    players: ids,
                    names,
                    double,
                    time_control,
                    start_ms: start_ms.unwrap_or(now),
                    round_days,
                    scoring: Scoring::default(),
                };
                let rules: Vec<LeagueRule> = start_deadline_ms
                    .map(|after_open_ms| LeagueRule::StartDeadline { after_open_ms })
                    .into_iter()
                    .collect();
                let league =
                    League::create_with_rules(self.identity.key(), def, deputy, rules, now)
                        .map_err(|e| league_refusal(&e))?;
                let mut docs = vec![league.signed.to_bytes().map_err(internal)?];
                // An organiser who plays joins at once: the league's games are accepted in
                // advance like every player's.
                if league.def.players.contains(&self.identity.me()) {
                    let join = league
                        .join(self.identity.key(), now)
                        .map_err(|e| league_refusal(&e))?;
                    docs.push(join.to_bytes().map_err(internal)?);
                }
                self.keep_league_docs(&docs).map_err(user)?;
                self.store.flush().await.map_err(internal)?;
                for p in self.league_audience(&league) {
                    self.send_league(&league, p);
                }
                Ok(request::LeagueCreate::reply(self.league_view(&league)))
            }
            ApiRequest::LeagueJoin(request::LeagueJoin { league }) => {
                let league = self.resolve_league(&league)?;
                if !league.def.players.contains(&self.identity.me()) {
                    return Err(ApiError::refused(RefusalCode::NotLeaguePlayer));
                }
                if !self.joined(&league, &self.identity.me()) {
                    let join = league
                        .join(self.identity.key(), now_ms())
                        .map_err(|e| league_refusal(&e))?;
                    let docs = [league.signed.to_bytes(), join.to_bytes()]
                        .into_iter()
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(internal)?;
                    self.keep_league_docs(&docs).map_err(user)?;
                    self.store.flush().await.map_err(internal)?;
                }
                for p in self.league_audience(&league) {
                    self.send_league(&league, p);
                }
                // The other players learn the name with the join.
                for p in league.def.players.clone() {
                    self.share_profile(p);
                }
                self.share_profile(league.organiser);
                // Open the rounds due now rather than at the next tick.
                self.accept_league_challenges(&league).await;
                self.open_rounds(&league, now_ms()).await;
                Ok(request::LeagueJoin::reply(self.league_view(&league)))
            }
            _ => Err(user("not a league request")),
        }
    }
}

/// The core's refusal of a league or a join: coded by its kind when a player meets it (the
/// English words and hints are the code's), else in the core's words.
fn league_refusal(e: &LeagueError) -> ApiError {
    match coded_league_error(e) {
        Some(problem) => ApiError::refused(RefusalCode::League {
            problem: Some(problem),
        }),
        None => user(e.to_string()),
    }
}

/// The terms of a league game between `players`: the league's arbiter for them (the
/// organiser, or the deputy in the organiser's own games) keeps time, as a correspondence
/// server would (docs/time.md), and keeps escrowed envelopes (A3); the rest are the
/// default terms.
fn league_terms(league: &League, players: &[PlayerId]) -> sobre_core::record::Terms {
    let arbiter = league.arbiter_for(players);
    sobre_core::record::Terms {
        timekeepers: vec![arbiter],
        arbiter: Some(arbiter),
        ..sobre_core::record::Terms::default()
    }
}
