//! The control API: the requests of the `sobre` command line, answered in JSON. This file
//! only dispatches each request to its handler, grouped by area: the node itself
//! (`api_node`), a game (`api_game`, `challenge`, `coin`, `adjourn`, `arbiter`,
//! `lost_envelope`, `quickplay`, `moves`), leagues (`league`, `league_decide`), the player's
//! profile and peers (`profile`, `remember`, `block`), and the reads (`reads`), answered as
//! they are while the node is stopped.

use super::reads::{self, ReadSide};
use super::{Service, api_node, user};
use crate::api::request::{self, Request};
use crate::api::{ApiError, ApiRequest, Reply};

impl Service {
    pub(super) async fn handle_api(&mut self, req: ApiRequest) -> Result<Reply, ApiError> {
        if reads::is_read(&req) {
            // One code path with the reads made while the node is stopped (`offline`).
            return self.answer_read(req);
        }
        match req {
            ApiRequest::Id(request::Id {}) => Ok(request::Id::reply(
                api_node::id(&self.net, &self.identity).await,
            )),
            ApiRequest::Status(request::Status {}) => {
                Ok(request::Status::reply(self.status().await))
            }
            ApiRequest::Stop(request::Stop {}) => {
                Ok(request::Stop::reply(api_node::stop(&mut self.run)))
            }
            ApiRequest::Peers(request::Peers {}) => Ok(request::Peers::reply(
                api_node::peers(&self.net, &self.identity, &self.limits, &self.store).await,
            )),
            ApiRequest::Block(request::Block { player, unblock }) => self
                .block(player.as_deref(), unblock)
                .await
                .map(request::Block::reply),
            ApiRequest::Connect(r) => api_node::connect(&self.net, &self.store, r)
                .await
                .map(request::Connect::reply),
            ApiRequest::Board(request::Board {}) => api_node::board(&mut self.board)
                .await
                .map(request::Board::reply),
            ApiRequest::Challenge(r) => {
                self.challenge_asked(r).await.map(request::Challenge::reply)
            }
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
            ApiRequest::Decline(r) => self.decline(r).await.map(request::Decline::reply),
            ApiRequest::Abort(r) => self.abort(r).await.map(request::Abort::reply),
            ApiRequest::Move(r) => self.play(r).await.map(request::Move::reply),
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
            ApiRequest::Draw(r) => self.draw(r).await.map(request::Draw::reply),
            ApiRequest::Claim(r) => self.claim(r).await.map(request::Claim::reply),
            ApiRequest::Resign(r) => self.resign(r).await.map(request::Resign::reply),
            ApiRequest::Adjourn(r) => self.adjourn_asked(r).await.map(request::Adjourn::reply),
            ApiRequest::Resume(r) => self.resume(r).await.map(request::Resume::reply),
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
            ApiRequest::Conditional(r) => {
                self.conditional(r).await.map(request::Conditional::reply)
            }
            ApiRequest::Chat(r) => self.chat(r).await.map(request::Chat::reply),
            ApiRequest::Leave(r) => self.leave(r).await.map(request::Leave::reply),
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
        }
    }
}
