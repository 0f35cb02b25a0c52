//! A draw claimed in a quickplay finish on the node (FIDE 10.2; Appendix D): the player to
//! move claims, and the game's agreed arbiter rules. The verdicts are the core's
//! (`sobre_core::record::verify`, wire tags 25 and 26): the node signs, and a refusal carries
//! the core's rule as its code; beforehand it checks only what it must know to sign at all
//! (that this node is the arbiter, which claim is ruled on).

use super::Service;
use super::reads::ReadSide;
use crate::api::{ApiError, GameView, RefusalCode};
use sobre_core::Termination;
use sobre_core::record::verify::RuleViolation;
use sobre_core::record::{EventId, GameState, QuickplayRuling, Status};
use sobre_core::rules::quickplay::QuickplayRule;

impl Service {
    /// `sobre claim GAME quickplay`: the player to move claims a draw (10.2).
    pub(super) async fn quickplay_claim(&mut self, game: &str) -> Result<GameView, ApiError> {
        let g = self.resolve_game(game)?;
        let st = &self.cache(&g)?.state;
        if st.colour_of(&self.identity.me()).is_none() {
            return Err(ApiError::refused(RefusalCode::NotInGame));
        }
        if matches!(st.status, Status::Finished | Status::Cancelled) {
            return Err(ApiError::refused(RefusalCode::GameOver));
        }
        let (_, state) = self.author(&g, |s, t| s.quickplay_claim(t)).await?;
        Ok(self.show(&state))
    }

    /// `sobre arbiter rule GAME draw|postpone|reject`: the agreed arbiter rules on the claim
    /// `claim` (a prefix of its id), by default the one still open (10.2a–d).
    pub(super) async fn quickplay_rule(
        &mut self,
        game: &str,
        claim: Option<&str>,
        ruling: QuickplayRuling,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(game)?;
        let st = &self.cache(&g)?.state;
        if st.terms.arbiter != Some(self.identity.me()) {
            return Err(refused(QuickplayRule::NotTheArbiter));
        }
        let id = ruled_claim(st, claim).ok_or_else(|| refused(QuickplayRule::NoSuchClaim))?;
        // A game over is decided, except by a draw on a postponed claim after a flag fell
        // (10.2b); the core keeps anything else as an ignored fact, so it is not signed.
        let after_flag = ruling == QuickplayRuling::Draw
            && matches!(
                st.termination,
                Some(Termination::TimeForfeit | Termination::TimeForfeitInsufficientMaterial)
            );
        if matches!(st.status, Status::Finished | Status::Cancelled) && !after_flag {
            return Err(ApiError::refused(RefusalCode::GameOver));
        }
        let (_, state) = self
            .author(&g, move |s, t| s.rule_quickplay(id, ruling, t))
            .await?;
        Ok(self.show(&state))
    }
}

/// The core's 10.2 verdict, asked before signing: refused as the core would refuse it.
fn refused(rule: QuickplayRule) -> ApiError {
    ApiError::refused(RefusalCode::Rule {
        problem: Some(RuleViolation::Quickplay(rule)),
    })
}

/// The claim a ruling names: the one whose id starts with `prefix`, else the latest still
/// open (a decided one is named explicitly, and the core says the decision is final).
fn ruled_claim(st: &GameState, prefix: Option<&str>) -> Option<EventId> {
    match prefix {
        Some(p) => {
            let p = p.trim().to_ascii_lowercase();
            let mut matching = st
                .quickplay_claims
                .iter()
                .filter(|c| c.event.to_hex().starts_with(&p));
            let first = matching.next()?;
            // An ambiguous prefix names no claim.
            matching.next().is_none().then_some(first.event)
        }
        None => st.open_quickplay_claim().map(|c| c.event),
    }
}
