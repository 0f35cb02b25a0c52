//! A lost envelope on the node (FIDE Appendix A11; club rules art. 16.5): the sealer who
//! lost the opening of a binding sealed move declares the move they sealed (A11.1), the
//! responder or the game's agreed arbiter accepts it, and the agreed arbiter or both players
//! annul a game whose position cannot be re-established (A11.2). The verdicts are the
//! core's (`sobre_core::record::verify`, wire tags 22 to 24): the node signs, and a refusal
//! carries the core's rule as its code; it checks beforehand only what it must know to sign
//! at all (which declaration is accepted, a request already made).

use super::moves::{letters, move_error};
use super::reads::ReadSide;
use super::{Service, internal};
use crate::api::refusal::MovePlace;
use crate::api::{ApiError, GameView, RefusalCode};
use sobre_core::notation::{self, Notation};
use sobre_core::record::verify::RuleViolation;
use sobre_core::record::{EventId, GameState, PlayerId, Status};

impl Service {
    /// `sobre envelope declare GAME MOVE`: the sealer declares the move they sealed (A11.1),
    /// read in the position the envelope was sealed in (nothing is played while the game is
    /// adjourned, so it is the game's position).
    pub(super) async fn envelope_declare(
        &mut self,
        game: &str,
        text: &str,
        written: Option<Notation>,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(game)?;
        let st = &self.cache(&g)?.state;
        if st.colour_of(&self.identity.me()).is_none() {
            return Err(ApiError::refused(RefusalCode::NotInGame));
        }
        refuse_when_over(st)?;
        // Without a closed envelope the position is not the sealed one: a move that does not
        // read there would be refused for the wrong reason. The core says why there is
        // nothing to declare (none sealed, or opened) once a move reads.
        let m = notation::parse_move(&st.position, text, letters(written)).map_err(|e| {
            if st.open_envelope().is_none() {
                ApiError::refused(RefusalCode::Rule {
                    problem: Some(RuleViolation::NoSealedMoveToDeclare),
                })
            } else {
                move_error(MovePlace::Sealed, None, &e)
            }
        })?;
        let (_, state) = self
            .author(&g, move |s, t| s.declare_sealed_move(m, t))
            .await?;
        Ok(self.show(&state))
    }

    /// `sobre envelope accept-declared GAME`: the responder or the agreed arbiter accepts the
    /// sealer's declared move (A11.1); the core judges who may and when (A7 with A2.7).
    pub(super) async fn envelope_accept_declared(
        &mut self,
        game: &str,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(game)?;
        let cache = self.cache(&g)?;
        let st = &cache.state;
        refuse_when_over(st)?;
        let Some(env) = st.open_envelope() else {
            return Err(ApiError::refused(RefusalCode::NoEnvelope));
        };
        let Some(declared) = env.declared.as_ref().map(|d| d.event) else {
            return Err(ApiError::refused(RefusalCode::NoDeclaredMove));
        };
        let sealer = st
            .player(env.sealer)
            .ok_or_else(|| internal("the sealer's colour has no player"))?;
        // The acceptance must follow the declaration (verify orders events by `prev` and
        // `seen` only): it sees the sealer's latest event, which is the declaration or
        // follows it in the sealer's log. The responder's node sees it anyway; the arbiter's
        // would otherwise see whichever player's event came last.
        let seen = latest_event_of(st, &sealer, |id| {
            cache.ids.get(id).map(|&i| cache.events[i].event.author)
        })
        .unwrap_or(declared);
        let (_, state) = self
            .author(&g, move |s, t| {
                s.saw(seen);
                s.accept_declared_move(declared, t)
            })
            .await?;
        Ok(self.show(&state))
    }

    /// `sobre envelope annul GAME`: the agreed arbiter annuls the game, or a player asks to
    /// and it is annulled once both have (A11.2). A player's second request would be kept as
    /// an ignored fact by the core; the node does not sign it.
    pub(super) async fn envelope_annul(&mut self, game: &str) -> Result<GameView, ApiError> {
        let g = self.resolve_game(game)?;
        let st = &self.cache(&g)?.state;
        refuse_when_over(st)?;
        if let Some(me) = st.colour_of(&self.identity.me())
            && st.annul_requests[me.index()].is_some()
            && st.annulled.is_none()
        {
            return Err(ApiError::refused(RefusalCode::AnnulAlreadyAsked));
        }
        let (_, state) = self.author(&g, |s, t| s.annul_game(t)).await?;
        Ok(self.show(&state))
    }
}

/// An event signed after the game ended is kept as an ignored fact by the core, never a
/// rule broken: the node does not sign one that would do nothing.
fn refuse_when_over(st: &GameState) -> Result<(), ApiError> {
    match st.status {
        Status::Finished | Status::Cancelled => Err(ApiError::refused(RefusalCode::GameOver)),
        _ => Ok(()),
    }
}

/// The latest event of `author` in `state`'s timeline; `author_of(id)` tells an event's
/// author.
fn latest_event_of(
    state: &GameState,
    author: &PlayerId,
    author_of: impl Fn(&EventId) -> Option<PlayerId>,
) -> Option<EventId> {
    state
        .timeline
        .iter()
        .rev()
        .copied()
        .find(|id| author_of(id).as_ref() == Some(author))
}
