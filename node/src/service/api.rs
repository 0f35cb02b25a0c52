//! The control API: the requests of the `sobre` command line, answered in JSON.

use super::author::own_event;
use super::cache::GameCache;
use super::reads::{self, ReadSide};
use super::{Service, adjourn, internal, letters, move_error, now_ms, rule_refusal, user};
use crate::api::refusal::MovePlace;
use crate::api::replies::{
    BoardReply, ClaimReply, ClaimVerdict, ConditionalReply, ConnectReply, IdReply, LeaveReply,
    PeerEntry, PeersReply, StatusReply, StopReply,
};
use crate::api::request::{self, Request};
use crate::api::watch::{GameEvent, GameEventKind};
use crate::api::{
    ApiError, ApiRequest, ConditionalAction, DrawAction, GameView, LeaveAction, RefusalCode, Reply,
    TermsRequest,
};
use crate::protocol::Gossip;
use crate::view::Summary;
use crate::{integrity, protocol, secrets};
use libp2p::Multiaddr;
use sobre_core::clock::TimeControl;
use sobre_core::record::author::Scoresheet;
use sobre_core::record::{
    Challenge, ColourChoice, GameId, GameState, LeagueRound, PlayerId, SignedEvent, StartPosition,
    Status, Terms, commit, verify_incremental,
};
use sobre_core::{Position, notation};
use tracing::warn;

impl Service {
    pub(super) async fn handle_api(&mut self, req: ApiRequest) -> Result<Reply, ApiError> {
        if reads::is_read(&req) {
            // One code path with the reads made while the node is stopped (`offline`).
            return self.answer_read(req);
        }
        match req {
            ApiRequest::Id(request::Id {}) => {
                let peer = self.net.local_peer_id();
                let addrs: Vec<String> = self
                    .net
                    .listen_addrs()
                    .await
                    .unwrap_or_default()
                    .into_iter()
                    .map(|a| {
                        let s = a.to_string();
                        if s.contains("/p2p/") {
                            s
                        } else {
                            format!("{s}/p2p/{peer}")
                        }
                    })
                    .collect();
                Ok(request::Id::reply(IdReply {
                    player_id: self.identity.me().to_string(),
                    name: self.identity.name(),
                    addresses: addrs,
                    mailbox: self.identity.is_mailbox(),
                }))
            }
            ApiRequest::Status(request::Status {}) => {
                let peers = self.net.connected_peers().await.unwrap_or_default();
                let mut reply = StatusReply {
                    player_id: self.identity.me().to_string(),
                    uptime_ms: self.run.uptime_ms(now_ms()),
                    games: self.games.len(),
                    games_verified_at_start: self.run.verified_at_start(),
                    peers: peers.len(),
                    outbox: self.store.outbox_len(),
                    mailbox: self.identity.is_mailbox(),
                    traffic: self.net.traffic(),
                    ..StatusReply::default()
                };
                self.reachability_status(&mut reply, &peers).await;
                Ok(request::Status::reply(reply))
            }
            ApiRequest::Stop(request::Stop {}) => {
                self.run.stop();
                Ok(request::Stop::reply(StopReply { stopping: true }))
            }
            ApiRequest::Peers(request::Peers {}) => {
                let peers = self.net.connected_peers().await.unwrap_or_default();
                Ok(request::Peers::reply(PeersReply {
                    connected: peers
                        .iter()
                        .map(|(p, a)| PeerEntry {
                            peer: p.to_string(),
                            addresses: a.iter().map(ToString::to_string).collect(),
                            reserved: super::player_of_peer(p)
                                .is_some_and(|player| self.limits.is_reserved(&player))
                                || self.identity.is_my_mailbox(p),
                        })
                        .collect(),
                    known: super::reads::known_peers(&self.store),
                }))
            }
            ApiRequest::Block(request::Block { player, unblock }) => Ok(request::Block::reply(
                self.block(player.as_deref(), unblock).await?,
            )),
            ApiRequest::Connect(request::Connect { addr }) => {
                let a: Multiaddr = addr.parse().map_err(|e: libp2p::multiaddr::Error| {
                    ApiError::refused(RefusalCode::BadMultiaddr {
                        text: addr.clone(),
                        reason: e.to_string(),
                    })
                })?;
                let peer = self.net.dial(a.clone()).await.map_err(|e| {
                    ApiError::refused(RefusalCode::CannotReach {
                        addr: addr.clone(),
                        reason: e.to_string(),
                    })
                })?;
                let _ = self
                    .store
                    .remember_peer(&peer.to_string(), std::slice::from_ref(&addr));
                let _ = self.store.flush().await;
                Ok(request::Connect::reply(ConnectReply {
                    peer: peer.to_string(),
                }))
            }
            ApiRequest::Challenge(request::Challenge {
                opponent,
                color,
                time_control,
                chess960,
                fen,
                terms,
            }) => self
                .challenge(
                    &opponent,
                    color,
                    &time_control,
                    chess960,
                    fen,
                    None,
                    terms_of(&terms)?,
                )
                .await
                .map(request::Challenge::reply),
            ApiRequest::Accept(request::Accept {
                game,
                color,
                position,
            }) => self
                .accept(&game, color, position)
                .await
                .map(request::Accept::reply),
            ApiRequest::CoinDefault(request::CoinDefault {
                game,
                color,
                position,
            }) => self
                .coin_default_by_hand(&game, color, position)
                .await
                .map(request::CoinDefault::reply),
            ApiRequest::Decline(request::Decline { game, reason }) => {
                let g = self.resolve_game(&game)?;
                let text = reason.unwrap_or_default();
                let (_, state) = self.author(&g, move |s, t| s.decline(&text, t)).await?;
                Ok(request::Decline::reply(self.show(&state)))
            }
            ApiRequest::Abort(request::Abort { game }) => {
                let g = self.resolve_game(&game)?;
                self.check_abort_keeps_the_coin(&g)?;
                let (_, state) = self.author(&g, |s, t| s.abort(t)).await?;
                Ok(request::Abort::reply(self.show(&state)))
            }
            ApiRequest::Move(request::Move {
                game,
                text,
                notation,
            }) => {
                let g = self.resolve_game(&game)?;
                let st = &self.cache(&g)?.state;
                self.require_my_move(st)?;
                let m = notation::parse_move(&st.position, &text, letters(notation))
                    .map_err(|e| move_error(MovePlace::Played, None, &e))?;
                let (_, state) = self.author(&g, move |s, t| s.play(m, t)).await?;
                Ok(request::Move::reply(self.show(&state)))
            }
            ApiRequest::MovePreview(request::MovePreview {
                game,
                text,
                notation,
            }) => {
                let g = self.resolve_game(&game)?;
                Ok(request::MovePreview::reply(
                    self.preview_move(&g, &text, notation)?,
                ))
            }
            ApiRequest::Draw(request::Draw { game, action }) => {
                let g = self.resolve_game(&game)?;
                let (_, state) = match action {
                    DrawAction::Offer => self.author(&g, |s, t| s.offer_draw(t)).await?,
                    DrawAction::Accept => self.author(&g, |s, t| s.accept_draw(t)).await?,
                    DrawAction::Decline => self.author(&g, |s, t| s.decline_draw(t)).await?,
                };
                Ok(request::Draw::reply(self.show(&state)))
            }
            ApiRequest::Claim(request::Claim {
                game,
                reason,
                intended,
                notation,
            }) => {
                let g = self.resolve_game(&game)?;
                let pos = self.cache(&g)?.state.position.clone();
                let m = match intended {
                    None => None,
                    Some(text) => Some(
                        notation::parse_move(&pos, &text, letters(notation))
                            .map_err(|e| move_error(MovePlace::Intended, None, &e))?,
                    ),
                };
                let (_, state) = self.author(&g, move |s, t| s.claim(reason, m, t)).await?;
                Ok(request::Claim::reply(ClaimReply {
                    view: self.show(&state),
                    claim: state.claims.last().map(|c| ClaimVerdict {
                        correct: c.correct,
                        judgement: c.judgement.to_string(),
                        judgement_code: Some(c.judgement.clone()),
                    }),
                }))
            }
            ApiRequest::Resign(request::Resign { game }) => {
                let g = self.resolve_game(&game)?;
                let (_, state) = self.author(&g, |s, t| s.resign(t)).await?;
                Ok(request::Resign::reply(self.show(&state)))
            }
            ApiRequest::Adjourn(request::Adjourn {
                game,
                seal,
                resume_at_ms,
                place,
                force,
                notation,
                arbiter,
                arbiter_setting,
                no_arbiter,
            }) => {
                let keeper = adjourn::Keeper {
                    arbiter,
                    setting: arbiter_setting,
                    none: no_arbiter,
                };
                self.adjourn(&game, &seal, notation, resume_at_ms, place, force, keeper)
                    .await
                    .map(request::Adjourn::reply)
            }
            ApiRequest::Resume(request::Resume { game }) => {
                let g = self.resolve_game(&game)?;
                let (_, state) = self.author(&g, |s, t| s.presence(t)).await?;
                // If this node sealed and the responder is already present, open now (A7).
                let fresh: Vec<SignedEvent> = Vec::new();
                self.after_opponent_events(&g, &fresh).await;
                let state = self.cache(&g).map(|c| c.state.clone()).unwrap_or(state);
                Ok(request::Resume::reply(self.show(&state)))
            }
            ApiRequest::EnvelopeOpen(request::EnvelopeOpen { game }) => self
                .envelope_open(&game)
                .await
                .map(request::EnvelopeOpen::reply),
            ApiRequest::EnvelopeLost(request::EnvelopeLost { game, resign }) => self
                .envelope_lost(&game, resign)
                .await
                .map(request::EnvelopeLost::reply),
            ApiRequest::EnvelopeDeclare(request::EnvelopeDeclare {
                game,
                text,
                notation,
            }) => self
                .envelope_declare(&game, &text, notation)
                .await
                .map(request::EnvelopeDeclare::reply),
            ApiRequest::EnvelopeAcceptDeclared(request::EnvelopeAcceptDeclared { game }) => self
                .envelope_accept_declared(&game)
                .await
                .map(request::EnvelopeAcceptDeclared::reply),
            ApiRequest::EnvelopeAnnul(request::EnvelopeAnnul { game }) => self
                .envelope_annul(&game)
                .await
                .map(request::EnvelopeAnnul::reply),
            ApiRequest::QuickplayClaim(request::QuickplayClaim { game }) => self
                .quickplay_claim(&game)
                .await
                .map(request::QuickplayClaim::reply),
            ApiRequest::QuickplayRule(request::QuickplayRule {
                game,
                claim,
                ruling,
            }) => self
                .quickplay_rule(&game, claim.as_deref(), ruling)
                .await
                .map(request::QuickplayRule::reply),
            ApiRequest::Conditional(request::Conditional {
                game,
                action,
                line,
                notation,
            }) => {
                let g = self.resolve_game(&game)?;
                let mut lines = self.store.conditional(&g).map_err(internal)?;
                match action {
                    ConditionalAction::Add => {
                        let text =
                            line.ok_or_else(|| ApiError::refused(RefusalCode::ConditionalNoLine))?;
                        let moves: Vec<String> =
                            text.split_whitespace().map(str::to_owned).collect();
                        let moves = self.check_conditional(&g, &moves, notation)?;
                        lines.push(moves);
                        self.store.set_conditional(&g, &lines).map_err(internal)?;
                    }
                    ConditionalAction::Clear => {
                        lines.clear();
                        self.store.set_conditional(&g, &lines).map_err(internal)?;
                    }
                    ConditionalAction::List => {}
                }
                self.store.flush().await.map_err(internal)?;
                Ok(request::Conditional::reply(ConditionalReply {
                    game: g.to_hex(),
                    lines,
                }))
            }
            ApiRequest::Chat(request::Chat { game, text }) => {
                let g = self.resolve_game(&game)?;
                if text.len() > 2000 {
                    return Err(ApiError::refused(RefusalCode::ChatTooLong));
                }
                self.own_quota(&g, false).map_err(|e| e.refusal())?;
                let (_, state) = self.author(&g, move |s, t| s.chat(&text, t)).await?;
                Ok(request::Chat::reply(self.show(&state)))
            }
            ApiRequest::Leave(request::Leave { action, days }) => {
                let now = now_ms();
                let games: Vec<GameId> = self
                    .games
                    .iter()
                    .filter(|(_, s)| {
                        s.colour_of(&self.identity.me()).is_some()
                            && matches!(s.status, Status::Active | Status::Adjourned)
                    })
                    .map(|(g, _)| *g)
                    .collect();
                let (from, until) = match action {
                    LeaveAction::Start => (
                        now,
                        now + u64::from(days.unwrap_or(7)) * sobre_core::clock::DAY,
                    ),
                    LeaveAction::End => {
                        let start = self
                            .store
                            .meta_get("leave_from")
                            .ok()
                            .flatten()
                            .and_then(|b| String::from_utf8(b).ok())
                            .and_then(|s| s.parse().ok())
                            .ok_or_else(|| ApiError::refused(RefusalCode::NoLeaveInProgress))?;
                        (start, now)
                    }
                };
                let mut done = Vec::new();
                for g in games {
                    if let Err(e) = self
                        .ensure_hot(&g)
                        .map_err(|e| e.to_string())
                        .and_then(|()| self.own_quota(&g, true).map_err(|e| e.to_string()))
                    {
                        warn!(%g, "leave not recorded: {e}");
                        continue;
                    }
                    match self.author(&g, move |s, t| s.leave(from, until, t)).await {
                        Ok(_) => done.push(g.to_hex()),
                        Err(e) => warn!(%g, "leave not recorded: {}", e.message),
                    }
                }
                if action == LeaveAction::Start {
                    let _ = self
                        .store
                        .meta_set("leave_from", from.to_string().as_bytes());
                }
                self.store.flush().await.map_err(internal)?;
                Ok(request::Leave::reply(LeaveReply {
                    from_ms: from,
                    until_ms: until,
                    games: done,
                }))
            }
            ApiRequest::Games(request::Games {})
            | ApiRequest::Show(request::Show { .. })
            | ApiRequest::Envelope(request::Envelope { .. })
            | ApiRequest::Export(request::Export { .. })
            | ApiRequest::LeagueList(request::LeagueList {})
            | ApiRequest::LeagueExport(request::LeagueExport { .. })
            | ApiRequest::Profiles(request::Profiles {})
            | ApiRequest::Reminders(request::Reminders { .. }) => self.answer_read(req),
            ApiRequest::Watch(request::Watch { .. }) => {
                Err(user("watch is served by the control socket itself"))
            }
            ApiRequest::LeagueCreate(request::LeagueCreate { .. })
            | ApiRequest::LeagueJoin(request::LeagueJoin { .. }) => self.league_api(req).await,
            ApiRequest::LeagueDecide(request::LeagueDecide { .. }) => self.league_decide(req).await,
            ApiRequest::ProfilePublish(request::ProfilePublish {}) => {
                Ok(request::ProfilePublish::reply(self.publish_profile()?))
            }
            ApiRequest::Remember(request::Remember { addrs }) => {
                Ok(request::Remember::reply(self.remember_addrs(&addrs).await?))
            }
            ApiRequest::Board(request::Board {}) => {
                // The port is taken, most likely (`board_port` in node.toml).
                let port = self.board.port();
                let url = self.board.open().await.map_err(|e| {
                    ApiError::refused(RefusalCode::BoardNotServed {
                        port,
                        reason: e.to_string(),
                    })
                })?;
                Ok(request::Board::reply(BoardReply { url }))
            }
        }
    }

    pub(super) fn require_my_move(&self, st: &GameState) -> Result<(), ApiError> {
        let Some(c) = st.colour_of(&self.identity.me()) else {
            return Err(ApiError::refused(RefusalCode::NotInGame));
        };
        match st.status {
            Status::Active | Status::Disputed => {}
            Status::Adjourned => {
                return Err(ApiError::refused(RefusalCode::GameAdjourned));
            }
            Status::Pending => return Err(ApiError::refused(RefusalCode::GameNotStarted)),
            _ => return Err(ApiError::refused(RefusalCode::GameOver)),
        }
        if st.position.turn() != c {
            return Err(ApiError::refused(RefusalCode::NotYourMove));
        }
        Ok(())
    }

    // The challenge's terms as the API carries them, one by one.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn challenge(
        &mut self,
        opponent: &str,
        colour: ColourChoice,
        time_control: &str,
        chess960: bool,
        fen: Option<String>,
        league: Option<LeagueRound>,
        terms: Terms,
    ) -> Result<GameView, ApiError> {
        let opp: PlayerId = opponent
            .parse()
            .map_err(|e| super::bad_player_id(opponent, &e))?;
        if opp == self.identity.me() {
            return Err(ApiError::refused(RefusalCode::ChallengeSelf));
        }
        time_control.parse::<TimeControl>().map_err(|e| {
            user(e.to_string()).coded(Some(RefusalCode::BadTimeControl {
                text: time_control.to_owned(),
            }))
        })?;
        let start = match (chess960, fen) {
            (_, Some(f)) => {
                Position::from_fen_auto(&f)
                    .map_err(|_| ApiError::refused(RefusalCode::MalformedFen { fen: f.clone() }))?;
                StartPosition::Fen(f)
            }
            (true, None) => StartPosition::Chess960Random,
            (false, None) => StartPosition::Standard,
        };
        let needs_coin = colour == ColourChoice::Random || start == StartPosition::Chess960Random;
        let secret: Option<[u8; 32]> = needs_coin.then(rand::random);
        let challenge = Challenge {
            opponent: opp,
            colour,
            time_control: time_control.to_owned(),
            start,
            coin_commitment: secret.as_ref().map(commit::coin_commitment),
            league,
        };
        let t = now_ms();
        // Every challenge is on terms (protocol version 3, tag 21, docs/time.md); verify
        // checks them below (a player as timekeeper or arbiter is refused).
        let (sheet, signed) =
            Scoresheet::challenge_on_terms(self.identity.key().clone(), challenge, terms, t)
                .map_err(internal)?;
        let game = sheet.game();
        if let Some(s) = secret {
            secrets::write_secret(&self.identity.coin_path(&game), &s).map_err(internal)?;
        }
        let checked = own_event(&signed).map_err(internal)?;
        let state = verify_incremental(std::slice::from_ref(&checked), &[], None)
            .map_err(|e| rule_refusal(&e))?;
        let recipients = self
            .persist_authored(&game, std::slice::from_ref(&signed), &state, t)
            .await?;
        self.games.insert(game, Summary::of(&state));
        // The player's own challenge gives the opponent standing (see `standing`): room is
        // kept for its answer from now, not only once the acceptance has come in.
        self.reserve_players(&game);
        self.hot.insert(
            game,
            GameCache::new(vec![checked], state.clone(), None, Some(sheet)),
        );
        if let Ok(event) = signed.to_bytes()
            && let Ok(bytes) = protocol::encode(&Gossip { game, event })
        {
            let _ = self.net.publish(protocol::inbox_topic(&opp), bytes).await;
        }
        for peer in recipients {
            self.deliver(game, peer);
        }
        integrity::note_event(self.identity.home(), &self.identity.me(), &game, &signed);
        self.watchers.notify(
            &game,
            GameEvent {
                kind: GameEventKind::Challenge,
                by: self.identity.me().to_string(),
                status: None,
                from: None,
            },
        );
        Ok(self.show(&state))
    }
}

/// The terms a challenge request proposes: what it leaves out takes [`Terms::default`].
///
/// # Errors
/// A refusal naming a player id that does not parse.
pub(super) fn terms_of(req: &TermsRequest) -> Result<Terms, ApiError> {
    let parse = |k: &String| {
        k.parse::<PlayerId>()
            .map_err(|e| super::bad_player_id(k, &e))
    };
    let default = Terms::default();
    Ok(Terms {
        timekeepers: req
            .timekeepers
            .iter()
            .map(parse)
            .collect::<Result<_, _>>()?,
        arbiter: req.arbiter.as_ref().map(parse).transpose()?,
        edition: req.edition.unwrap_or(default.edition),
        lateness_limit_ms: req.lateness_ms.unwrap_or(default.lateness_limit_ms),
        min_notice_ms: req.notice_ms.unwrap_or(default.min_notice_ms),
        correspondence_adjournment: req.correspondence_adjournment,
        no_draw_before_move: req.no_draw_before_move.unwrap_or(0),
    })
}
