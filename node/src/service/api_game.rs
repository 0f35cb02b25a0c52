//! The control API's requests in one of the player's games (decline, abort, move, draw,
//! claim, resign, adjourn, resume, conditional moves, chat) and the leave taken in all of
//! them. The requests answered elsewhere are named in `api`'s dispatcher.

use super::reads::ReadSide;
use super::{Service, adjourn, internal, letters, move_error, now_ms};
use crate::api::refusal::MovePlace;
use crate::api::replies::{AdjournReply, ClaimReply, ClaimVerdict, ConditionalReply, LeaveReply};
use crate::api::request;
use crate::api::{ApiError, ConditionalAction, DrawAction, GameView, LeaveAction, RefusalCode};
use sobre_core::notation;
use sobre_core::record::{GameId, GameState, SignedEvent, Status};
use tracing::warn;

impl Service {
    /// `decline`: the player declines a challenge.
    pub(super) async fn decline(
        &mut self,
        request::Decline { game, reason }: request::Decline,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(&game)?;
        let text = reason.unwrap_or_default();
        let (_, state) = self.author(&g, move |s, t| s.decline(&text, t)).await?;
        Ok(self.show(&state))
    }

    /// `abort`: refused while the player withholds the fair coin.
    pub(super) async fn abort(
        &mut self,
        request::Abort { game }: request::Abort,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(&game)?;
        self.check_abort_keeps_the_coin(&g)?;
        let (_, state) = self.author(&g, |s, t| s.abort(t)).await?;
        Ok(self.show(&state))
    }

    /// `move`: read in the player's letters, in the game's position, on the player's turn.
    pub(super) async fn play(
        &mut self,
        request::Move {
            game,
            text,
            notation,
        }: request::Move,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(&game)?;
        let st = &self.cache(&g)?.state;
        self.require_my_move(st)?;
        let m = notation::parse_move(&st.position, &text, letters(notation))
            .map_err(|e| move_error(MovePlace::Played, None, &e))?;
        let (_, state) = self.author(&g, move |s, t| s.play(m, t)).await?;
        Ok(self.show(&state))
    }

    /// `draw`: offer, accept or decline.
    pub(super) async fn draw(
        &mut self,
        request::Draw { game, action }: request::Draw,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(&game)?;
        let (_, state) = match action {
            DrawAction::Offer => self.author(&g, |s, t| s.offer_draw(t)).await?,
            DrawAction::Accept => self.author(&g, |s, t| s.accept_draw(t)).await?,
            DrawAction::Decline => self.author(&g, |s, t| s.decline_draw(t)).await?,
        };
        Ok(self.show(&state))
    }

    /// `claim`: with the move intended, if any; answered with the rules' verdict.
    pub(super) async fn claim(
        &mut self,
        request::Claim {
            game,
            reason,
            intended,
            notation,
        }: request::Claim,
    ) -> Result<ClaimReply, ApiError> {
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
        Ok(ClaimReply {
            view: self.show(&state),
            claim: state.claims.last().map(|c| ClaimVerdict {
                correct: c.correct,
                judgement: c.judgement.to_string(),
                judgement_code: Some(c.judgement.clone()),
            }),
        })
    }

    pub(super) async fn resign(
        &mut self,
        request::Resign { game }: request::Resign,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(&game)?;
        let (_, state) = self.author(&g, |s, t| s.resign(t)).await?;
        Ok(self.show(&state))
    }

    /// `adjourn`: the sealed move and who keeps the envelope (see `adjourn`).
    pub(super) async fn adjourn_asked(
        &mut self,
        request::Adjourn {
            game,
            seal,
            resume_at_ms,
            place,
            force,
            notation,
            arbiter,
            arbiter_setting,
            no_arbiter,
        }: request::Adjourn,
    ) -> Result<AdjournReply, ApiError> {
        let keeper = adjourn::Keeper {
            arbiter,
            setting: arbiter_setting,
            none: no_arbiter,
        };
        self.adjourn(&game, &seal, notation, resume_at_ms, place, force, keeper)
            .await
    }

    /// `resume`: the player is present at the resumption.
    pub(super) async fn resume(
        &mut self,
        request::Resume { game }: request::Resume,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(&game)?;
        let (_, state) = self.author(&g, |s, t| s.presence(t)).await?;
        // If this node sealed and the responder is already present, open now (A7).
        let fresh: Vec<SignedEvent> = Vec::new();
        self.after_opponent_events(&g, &fresh).await;
        let state = self.cache(&g).map(|c| c.state.clone()).unwrap_or(state);
        Ok(self.show(&state))
    }

    /// `conditional`: add a line of prepared moves, clear them, or list them.
    pub(super) async fn conditional(
        &mut self,
        request::Conditional {
            game,
            action,
            line,
            notation,
        }: request::Conditional,
    ) -> Result<ConditionalReply, ApiError> {
        let g = self.resolve_game(&game)?;
        let mut lines = self.store.conditional(&g).map_err(internal)?;
        match action {
            ConditionalAction::Add => {
                let text = line.ok_or_else(|| ApiError::refused(RefusalCode::ConditionalNoLine))?;
                let moves: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
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
        Ok(ConditionalReply {
            game: g.to_hex(),
            lines,
        })
    }

    /// `chat`: within the length and the game's chat quota.
    pub(super) async fn chat(
        &mut self,
        request::Chat { game, text }: request::Chat,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(&game)?;
        if text.len() > 2000 {
            return Err(ApiError::refused(RefusalCode::ChatTooLong));
        }
        self.own_quota(&g, false).map_err(|e| e.refusal())?;
        let (_, state) = self.author(&g, move |s, t| s.chat(&text, t)).await?;
        Ok(self.show(&state))
    }

    /// `leave`: a leave of absence recorded in every active or adjourned game of the
    /// player's, from now for `days` (start) or from the start noted until now (end).
    pub(super) async fn leave(
        &mut self,
        request::Leave { action, days }: request::Leave,
    ) -> Result<LeaveReply, ApiError> {
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
        Ok(LeaveReply {
            from_ms: from,
            until_ms: until,
            games: done,
        })
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
}
