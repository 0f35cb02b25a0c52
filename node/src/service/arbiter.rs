//! The envelope in an arbiter's keeping (FIDE A3, A9, A11): the arbiter's node checks the
//! escrowed opening when it arrives, opens the envelope at the resumption if the sealer's
//! node has not (automatically, as the arbiter over the board opens it at the resumption,
//! A9; or on `sobre envelope open`), and the sealer who lost the opening learns what is left
//! (`sobre envelope lost`). The escrow is decrypted only in memory; the opening is written
//! nowhere before it is signed.

use super::reads::ReadSide;
use super::{Service, now_ms, user};
use crate::api::refusal::{RefusalCode, coded_escrow_error};
use crate::api::replies::EnvelopeLostReply;
use crate::api::{ApiError, GameView};
use crate::secrets;
use sobre_core::record::author::SealOpening;
use sobre_core::record::escrow::{self, EscrowContext};
use sobre_core::record::export::iso_utc;
use sobre_core::record::{
    EventKind, GameId, GameState, SealedEnvelope, SignedEvent, Status, commit,
};
use sobre_core::rules::adjournment::{self, AdjournmentRule};
use tracing::{info, warn};

/// The refusal of an envelope the arbiter's node cannot open from its escrow: coded by the
/// escrow's kind when a player meets it.
fn kept_refusal(e: &escrow::EscrowError) -> ApiError {
    match coded_escrow_error(e) {
        Some(problem) => ApiError::refused(RefusalCode::Escrow {
            problem: Some(problem),
            place: None,
        }),
        None => user(e.to_string()),
    }
}

impl Service {
    /// The envelope still closed in `state`, if it is escrowed to this node's player.
    fn kept_envelope<'a>(&self, state: &'a GameState) -> Option<&'a SealedEnvelope> {
        state.open_envelope().filter(|e| {
            e.escrow
                .as_ref()
                .is_some_and(|x| x.arbiter == self.identity.me())
        })
    }

    /// A3: the opening in escrow, decrypted in memory and checked against the seal's
    /// commitment, so that the node never signs an opening `verify` would refuse.
    fn read_kept(
        &self,
        state: &GameState,
        env: &SealedEnvelope,
    ) -> Result<SealOpening, escrow::EscrowError> {
        let Some(kept) = &env.escrow else {
            return Err(escrow::EscrowError::NotTheArbiter {
                arbiter: self.identity.me(),
            });
        };
        let sealer = env.seal.envelope.sealer;
        let ctx = EscrowContext {
            game: state.game,
            seal: env.event,
            sealer,
            arbiter: kept.arbiter,
        };
        let opening = escrow::open_box(&ctx, self.identity.key(), &kept.sealed_box)?;
        let expected = commit::seal_commitment(
            &state.game,
            env.ply,
            &sealer,
            &opening.move_text,
            &opening.salt,
        );
        if expected != env.seal.commitment {
            return Err(escrow::EscrowError::NotTheSealedMove);
        }
        Ok(opening)
    }

    /// A7 with A2.7: whether the envelope may be opened now, by the rule `verify` applies:
    /// the current adjournment's ([`adjournment::Adjournment::check_opening`]: this
    /// resumption's time and arrivals, not the game's first presences, which belong to an
    /// earlier adjournment from the second one on); a tag-10 envelope keeps its old reading.
    fn may_open(
        state: &GameState,
        env: &SealedEnvelope,
        at_ms: u64,
    ) -> Result<(), AdjournmentRule> {
        match state.adjournments.last() {
            Some(a) if a.binding => a.check_opening(env.sealer, at_ms).map(|_| ()),
            _ => adjournment::check_opening(
                env.letters.and(env.seal.envelope.resume_at_ms),
                at_ms,
                state.presence_ms[env.sealer.index()].is_some(),
                state.presence_ms[(!env.sealer).index()].is_some(),
            ),
        }
    }

    /// Signs the arbiter's opening of the envelope this node keeps (A9).
    async fn open_kept(
        &mut self,
        game: &GameId,
        state: &GameState,
        env: &SealedEnvelope,
    ) -> Result<GameState, ApiError> {
        let opening = self.read_kept(state, env).map_err(|e| kept_refusal(&e))?;
        let seal = env.event;
        let (_, st) = self
            .author(game, move |s, t| s.arbiter_open(seal, &opening, t))
            .await?;
        Ok(st)
    }

    /// A9: at the resumption the arbiter's node opens the envelope it keeps, unless the
    /// sealer's node has opened it (run on the tick and when the players' events arrive).
    /// An escrow that does not open is reported once, not on every tick.
    pub(super) async fn arbiter_open_if_due(&mut self, game: &GameId, state: &GameState) {
        let Some(env) = self.kept_envelope(state).cloned() else {
            return;
        };
        if state.status != Status::Adjourned
            || Service::may_open(state, &env, now_ms()).is_err()
            || !self.coins.may_open_escrow(game)
        {
            return;
        }
        let early = state
            .adjournments
            .last()
            .and_then(|a| a.resume_at_ms)
            .is_some_and(|r| now_ms() < r);
        match self.open_kept(game, state, &env).await {
            Ok(_) if early => info!(
                %game,
                "the envelope kept in escrow was opened early, both players being present (A7)"
            ),
            Ok(_) => info!(%game, "the envelope kept in escrow was opened at the resumption (A9)"),
            Err(e) => {
                warn!(%game, "cannot open the envelope kept in escrow: {}", e.message);
                self.coins.escrow_refused(*game);
            }
        }
    }

    /// The arbiter's node on the players' events: A3, check an escrow that has just arrived
    /// (in memory; the result is only logged: the arbiter learns now whether it can keep
    /// its promise), then open the envelope if it is due.
    pub(super) async fn after_events_as_arbiter(&mut self, game: &GameId, fresh: &[SignedEvent]) {
        let Some(state) = self.hot.peek(game).map(|c| c.state.clone()) else {
            return;
        };
        // New events may make an opening that was refused valid (an arrival, a later
        // adjournment): a refusal holds back the tick's retries, not the next events'.
        self.coins.escrow_changed(game);
        let escrowed_now = fresh.iter().any(|e| {
            e.decode_unverified().is_ok_and(
                |ev| matches!(ev.kind, EventKind::Escrow { arbiter, .. } if arbiter == self.identity.me()),
            )
        });
        if escrowed_now && let Some(env) = self.kept_envelope(&state) {
            match self.read_kept(&state, env) {
                Ok(_) => info!(
                    %game,
                    "this node keeps the envelope's opening in escrow (A3); it opens at {}",
                    env.seal.envelope.resume_at_ms.map_or_else(|| "the resumption".to_owned(), iso_utc)
                ),
                Err(e) => warn!(%game, "the envelope escrowed to this node cannot be kept: {e}"),
            }
        }
        self.arbiter_open_if_due(game, &state).await;
    }

    /// `sobre envelope open GAME`: the arbiter opens the envelope it keeps, when Appendix A
    /// lets it be opened.
    pub(super) async fn envelope_open(&mut self, game: &str) -> Result<GameView, ApiError> {
        let g = self.resolve_game(game)?;
        let st = self.cache(&g)?.state.clone();
        let Some(env) = st.open_envelope().cloned() else {
            return Err(ApiError::refused(RefusalCode::NoEnvelope));
        };
        match &env.escrow {
            None => {
                return Err(ApiError::refused(RefusalCode::EnvelopeInNobodysKeeping));
            }
            Some(kept) if kept.arbiter != self.identity.me() => {
                return Err(ApiError::refused(RefusalCode::NotTheEnvelopesArbiter {
                    arbiter: kept.arbiter.to_string(),
                }));
            }
            Some(_) => {}
        }
        if st.status != Status::Adjourned {
            return Err(ApiError::refused(RefusalCode::EnvelopeGameNotAdjourned));
        }
        match Service::may_open(&st, &env, now_ms()) {
            Ok(()) => {}
            Err(AdjournmentRule::BeforeResumption) => {
                return Err(ApiError::refused(RefusalCode::EnvelopeTooEarly {
                    at_ms: env.seal.envelope.resume_at_ms,
                }));
            }
            Err(AdjournmentRule::ResponderAbsent) => {
                return Err(ApiError::refused(RefusalCode::EnvelopeResponderAbsent));
            }
            Err(other) => return Err(user(other.to_string())),
        }
        let state = self.open_kept(&g, &st, &env).await?;
        self.coins.escrow_changed(&g);
        Ok(self.show(&state))
    }

    /// `sobre envelope lost GAME [--resign]`: the sealer lost the opening (A11). With an
    /// arbiter keeping it, nothing is lost: the arbiter's node opens it at the resumption.
    /// Without one, the game goes on only with the sealed move (it binds), so what is left is
    /// to resign (A6) or to lose on the responder's claim after the limit (A8, A10).
    pub(super) async fn envelope_lost(
        &mut self,
        game: &str,
        resign: bool,
    ) -> Result<EnvelopeLostReply, ApiError> {
        let g = self.resolve_game(game)?;
        let st = self.cache(&g)?.state.clone();
        let Some(env) = st.open_envelope().cloned() else {
            return Err(ApiError::refused(RefusalCode::NoEnvelope));
        };
        if st.colour_of(&self.identity.me()) != Some(env.sealer) {
            return Err(ApiError::refused(RefusalCode::NotTheSealer));
        }
        let held = secrets::read_secret(&self.identity.opening_path(&g, env.ply)).is_ok();
        let arbiter = env.escrow.as_ref().map(|k| k.arbiter);
        let binding = env.letters.is_some();
        let (advice, resigned) = match (held, arbiter, binding) {
            (true, _, _) => (
                "this node still holds the opening: it opens the envelope at the resumption \
                 once the responder is present (A7, A9)"
                    .to_owned(),
                false,
            ),
            (false, Some(a), _) => {
                if resign {
                    return Err(ApiError::refused(RefusalCode::ArbiterKeepsOpening {
                        arbiter: a.to_string(),
                    }));
                }
                (
                    format!(
                        "the arbiter {a} keeps the opening in escrow: their node opens the \
                         envelope at the resumption once the responder is present, and the \
                         game goes on with your sealed move (A3, A9, A11)"
                    ),
                    false,
                )
            }
            (false, None, false) => (
                "this envelope was sealed before sealed moves were binding: at the \
                 resumption, play the move you declare you sealed (A11)"
                    .to_owned(),
                false,
            ),
            (false, None, true) => {
                if resign {
                    self.author(&g, |s, t| s.resign(t)).await?;
                }
                (
                    "no arbiter keeps the opening, and the game goes on only with the sealed \
                     move: resign (A6), or the responder wins on a lateness claim more than \
                     the limit after the resumption (A8, A10)"
                        .to_owned(),
                    resign,
                )
            }
        };
        let state = self.cache(&g).map(|c| c.state.clone()).unwrap_or(st);
        Ok(EnvelopeLostReply {
            game: g.to_hex(),
            status: state.status,
            result: state.result.map(|o| o.as_str().to_owned()),
            opening_held: held,
            arbiter: arbiter.map(|a| a.to_string()),
            binding,
            resume_at_ms: env.seal.envelope.resume_at_ms,
            resigned,
            advice,
        })
    }
}
