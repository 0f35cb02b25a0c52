//! What the node does on its own after the opponent's events: open the coin, open the
//! envelope at the resumption, play a prepared conditional move; and remind the player of
//! the opponent's moves (`reminders`).

use super::Service;
use sobre_core::notation;
use sobre_core::record::{EventKind, GameId, GameState, SignedEvent, Status};
use sobre_core::san::Lang;
use tracing::{info, warn};

impl Service {
    /// Automatic answers: open the coin, open the envelope when the responder is present,
    /// and play prepared conditional moves.
    pub(super) async fn after_opponent_events(&mut self, game: &GameId, fresh: &[SignedEvent]) {
        self.remind_moves(game, fresh);
        let Some(cache) = self.hot.peek(game) else {
            return;
        };
        let state = cache.state.clone();
        // The challenger opens the fair coin once the opponent has accepted with a share.
        if state.status == Status::Pending
            && state.challenger == self.identity.me()
            && state.challenge.coin_commitment.is_some()
            && fresh.iter().any(|e| {
                e.decode_unverified()
                    .is_ok_and(|ev| matches!(ev.kind, EventKind::Accept(_)))
            })
        {
            self.open_coin(game).await;
            return;
        }
        if self.open_envelope_if_due(game, &state).await {
            return;
        }
        // Conditional moves: the opponent's move matched a prepared line.
        let opponent_moved = fresh.iter().any(|e| {
            e.decode_unverified().is_ok_and(|ev| {
                ev.author != self.identity.me() && matches!(ev.kind, EventKind::Move(_))
            })
        });
        if opponent_moved && state.status == Status::Active {
            self.play_conditional(game, &state).await;
        }
    }

    pub(super) async fn play_conditional(&mut self, game: &GameId, state: &GameState) {
        let Ok(lines) = self.store.conditional(game) else {
            return;
        };
        if lines.is_empty() || state.colour_of(&self.identity.me()) != Some(state.position.turn()) {
            return;
        }
        let Some(last) = state.moves.last() else {
            return;
        };
        // The position before the opponent's move.
        let mut before = state.start.clone().unwrap_or_default();
        for m in &state.moves[..state.moves.len() - 1] {
            before.play_unchecked(m.mv);
        }
        let mut reply = None;
        let mut remaining = Vec::new();
        for line in lines {
            let Some(theirs) = line.first() else { continue };
            let matches = notation::parse_move(&before, theirs, Lang::Auto).ok() == Some(last.mv);
            if matches && line.len() >= 2 {
                if reply.is_none() {
                    reply = Some(line[1].clone());
                }
                if line.len() > 2 {
                    remaining.push(line[2..].to_vec());
                }
            }
        }
        let _ = self.store.set_conditional(game, &remaining);
        if let Some(text) = reply {
            match notation::parse_move(&state.position, &text, Lang::Auto) {
                Ok(m) => {
                    if let Err(e) = self.author(game, move |s, t| s.play(m, t)).await {
                        warn!(%game, "conditional move {text} not played: {}", e.message);
                    } else {
                        info!(%game, "conditional move {text} played");
                    }
                }
                Err(e) => warn!(%game, "conditional move {text} is not legal now: {e}"),
            }
        }
    }
}
