//! Adjourned games on the node (FIDE Appendix A): sealing a move with its envelope and
//! letters (and escrowing its opening with an arbiter, A3), and opening the envelope when
//! Appendix A says it may be opened. The verdicts themselves are
//! `sobre_core::rules::adjournment`'s, which `verify` applies too.

use super::moves::{letters, move_error};
use super::reads::ReadSide;
use super::{Service, internal, now_ms, user};
use crate::api::refusal::{IdPlace, MovePlace, coded_escrow_error};
use crate::api::replies::{AdjournReply, EscrowReply};
use crate::api::{ApiError, RefusalCode};
use crate::secrets;
use sobre_core::notation::{self, Notation};
use sobre_core::record::author::SealOpening;
use sobre_core::record::escrow::{self, EscrowContext, MAX_ESCROWED_MOVE_BYTES};
use sobre_core::record::{
    Envelope, GameId, GameState, PlayerId, SealLetters, Status, verify_incremental,
};
use sobre_core::rules::adjournment;
use sobre_core::san::Lang;
use tracing::{debug, warn};

/// Who keeps the envelope (A3), as the sealer asked: an arbiter named now, else the league's
/// organiser, else the player's setting — or nobody.
#[derive(Clone, Debug, Default)]
pub(super) struct Keeper {
    pub arbiter: Option<String>,
    pub setting: Option<String>,
    pub none: bool,
}

impl Service {
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn adjourn(
        &mut self,
        game: &str,
        text: &str,
        written: Option<Notation>,
        resume_at_ms: Option<u64>,
        place: Option<String>,
        force: bool,
        keeper: Keeper,
    ) -> Result<AdjournReply, ApiError> {
        let g = self.resolve_game(game)?;
        let t = now_ms();
        let st = verify_incremental(&self.cache(&g)?.events, &[], Some(t)).map_err(internal)?;
        self.require_my_move(&st)?;
        // A9c: right after the opened sealed move, with its sealer absent, the responder's
        // seal is a reply in a second envelope, which belongs to the adjournment's resumption.
        let reply = st.adjournment().filter(|a| {
            a.binding
                && st
                    .colour_of(&self.identity.me())
                    .is_some_and(|me| a.check_reply(me, st.moves.len()).is_ok())
        });
        let (resume_at_ms, lateness_limit_ms) = match reply {
            Some(a) => {
                if resume_at_ms.is_some_and(|r| Some(r) != a.resume_at_ms) {
                    return Err(ApiError::refused(RefusalCode::ReplyKeepsResumption));
                }
                (a.resume_at_ms, a.limit_ms)
            }
            // The lateness limit is the game's terms' (A10; one hour unless agreed).
            None => (
                self.resumption(&st, resume_at_ms, t)?,
                st.terms.lateness_limit_ms,
            ),
        };
        // The letters are fixed now and signed in the seal (App. E2/E3): the player's, or,
        // when they said nothing, the ones the move reads as; a text legal in both languages
        // is never guessed, not even with --force.
        let read = notation::parse_move(&st.position, text, letters(written));
        if let Err(e) = &read
            && e.readings().is_some()
        {
            return Err(move_error(MovePlace::Sealed, None, e));
        }
        let seal_letters = match (written, &read) {
            (Some(n), _) => seal_letters(n.letters()),
            (None, Ok(m)) => {
                // Spanish only when the text is Spanish SAN for this move and not English SAN
                // for it (`Cf3`); anything else (`Nf3`, `e4`, `g1f3`) reads the same in English.
                let strict = |lang| sobre_core::san::parse_san(&st.position, text, lang).ok();
                if strict(Lang::Spanish) == Some(*m) && strict(Lang::English) != Some(*m) {
                    SealLetters::Spanish
                } else {
                    SealLetters::English
                }
            }
            (None, Err(_)) => SealLetters::English,
        };
        // A8: warn before sealing a move that would lose the game.
        if let Err(e) = &read
            && !force
        {
            return Err(ApiError::refused(RefusalCode::SealedMoveNotUnique {
                text: text.to_owned(),
                reason: e.reason().to_owned(),
            }));
        }
        let (Some(white), Some(black)) = (st.white, st.black) else {
            return Err(internal("colours not settled"));
        };
        let arbiter = self.choose_arbiter(&st, keeper)?;
        if arbiter.is_some() && text.len() > MAX_ESCROWED_MOVE_BYTES {
            return Err(ApiError::refused(RefusalCode::EscrowedMoveTooLong {
                max: MAX_ESCROWED_MOVE_BYTES,
            }));
        }
        let envelope = Envelope {
            white,
            black,
            fen_before: st.position.fen(),
            time_used_ms: st.clocks.as_ref().map_or([0, 0], |c| c.used_ms),
            sealer: self.identity.me(),
            move_number: st.position.fullmove_number(),
            draw_offer_by: st.draw_offer.and_then(|c| st.player(c)),
            resume_at_ms,
            place: place.unwrap_or_else(|| {
                reply
                    .and_then(|a| st.envelopes.get(a.envelope))
                    .map(|e| e.seal.envelope.place.clone())
                    .unwrap_or_default()
            }),
            lateness_limit_ms,
        };
        let ply = st.moves.len() as u32 + 1;
        let salt: [u8; 32] = rand::random();
        let opening = SealOpening {
            move_text: text.to_owned(),
            salt,
        };
        // The opening is kept before the seal exists anywhere: losing it later is A11.
        let bytes = serde_json::to_vec(&opening).map_err(internal)?;
        secrets::write_secret(&self.identity.opening_path(&g, ply), &bytes).map_err(internal)?;
        let text_owned = text.to_owned();
        let me = self.identity.me();
        // The escrow's one-time key, from the node's RNG like the salt.
        let ephemeral: [u8; 32] = rand::random();
        let (_, state) = self
            .author_all_at(&g, t, move |s, tm| {
                let (seal, opening) = s
                    .seal(&text_owned, seal_letters, salt, envelope, ply, tm)
                    .map_err(internal)?;
                let mut signed = vec![seal];
                // A3: the escrow goes with the seal, stored and flushed with it, so the
                // envelope never travels without its keeper.
                if let Some(arbiter) = arbiter {
                    let ctx = EscrowContext {
                        game: g,
                        seal: signed[0].id(),
                        sealer: me,
                        arbiter,
                    };
                    let sealed_box = escrow::seal_box(&ctx, &opening, ephemeral)
                        .map_err(|e| escrow_refusal(&e, None))?;
                    signed.push(
                        s.escrow(ctx.seal, arbiter, sealed_box, tm)
                            .map_err(internal)?,
                    );
                }
                Ok(signed)
            })
            .await?;
        Ok(AdjournReply {
            view: self.show(&state),
            escrow: EscrowReply {
                arbiter: arbiter.map(|a| a.to_string()),
            },
        })
    }

    /// The arbiter who keeps the envelope (A3): the one the sealer named, else the league's
    /// organiser (who is its witness anyway; the deputy arbiter for a game the organiser
    /// plays), else the player's setting; never a player of
    /// the game (they would read the opponent's sealed move), and a key a box can be sealed
    /// to.
    fn choose_arbiter(&self, st: &GameState, k: Keeper) -> Result<Option<PlayerId>, ApiError> {
        let players = [st.challenger, st.opponent];
        let parse = |text: &str, place: IdPlace| {
            let p: PlayerId = text.parse().map_err(|_| {
                ApiError::refused(RefusalCode::PlayerIdAt {
                    place,
                    text: text.to_owned(),
                })
            })?;
            escrow::check_arbiter(&p).map_err(|e| escrow_refusal(&e, Some(place)))?;
            Ok::<PlayerId, ApiError>(p)
        };
        if k.none {
            return Ok(None);
        }
        // Protocol version 3: only the arbiter both players agreed on keeps the envelope
        // (docs/time.md); the sealer names nobody else.
        if st.version >= 3 {
            let agreed = st.terms.arbiter;
            if let Some(text) = k.arbiter {
                let p = parse(&text, IdPlace::Arbiter)?;
                if Some(p) != agreed {
                    return Err(ApiError::refused(RefusalCode::ArbiterNotAgreed {
                        agreed: agreed.map(|a| a.to_string()),
                    }));
                }
            }
            return Ok(agreed.filter(|a| escrow::check_arbiter(a).is_ok()));
        }
        if let Some(text) = k.arbiter {
            let p = parse(&text, IdPlace::Arbiter)?;
            if players.contains(&p) {
                return Err(ApiError::refused(RefusalCode::ArbiterIsPlayer));
            }
            return Ok(Some(p));
        }
        if let Some(org) = self.league_organiser(st)
            && !players.contains(&org)
            && escrow::check_arbiter(&org).is_ok()
        {
            return Ok(Some(org));
        }
        match k.setting {
            Some(text) => {
                let p = parse(&text, IdPlace::ArbiterSetting)?;
                // Your usual arbiter playing this game: nobody keeps this envelope.
                Ok((!players.contains(&p)).then_some(p))
            }
            None => Ok(None),
        }
    }

    /// A new adjournment's resumption (A2.7): required, ahead, within 30 days; from then on
    /// the absent player's clock runs, so a sealer who never comes back cannot freeze the game.
    fn resumption(
        &self,
        st: &GameState,
        resume_at_ms: Option<u64>,
        t: u64,
    ) -> Result<Option<u64>, ApiError> {
        let correspondence =
            st.time_control.is_correspondence() && !st.terms.correspondence_adjournment;
        adjournment::check_sealing_allowed(correspondence).map_err(|e| match e {
            adjournment::AdjournmentRule::Correspondence => {
                ApiError::refused(RefusalCode::AdjournCorrespondence)
            }
            other => user(other.to_string())
                .hint("in correspondence play, take leave instead (sobre leave start --days N)"),
        })?;
        let resume_at_ms = match resume_at_ms {
            None => {
                return Err(ApiError::refused(RefusalCode::ResumptionMissing));
            }
            Some(r) if r <= t => {
                return Err(ApiError::refused(RefusalCode::ResumptionPast));
            }
            // A2.7: the resumption is agreed, never the sealer's word alone; a time without
            // the terms' notice would be postponed by verify anyway (docs/time.md), so an
            // honest node does not sign it.
            Some(r) if r < t.saturating_add(st.terms.min_notice_ms) => {
                return Err(ApiError::refused(RefusalCode::ResumptionNotice {
                    notice: sobre_core::clock::format_duration(st.terms.min_notice_ms),
                }));
            }
            Some(r) => Some(r),
        };
        adjournment::check_resumption_time(resume_at_ms, t).map_err(|e| match e {
            adjournment::AdjournmentRule::ResumptionTooFar => {
                ApiError::refused(RefusalCode::ResumptionTooFar)
            }
            other => user(other.to_string()).hint("resume within 30 days"),
        })?;
        Ok(resume_at_ms)
    }

    /// A7 with A2.7: the sealer's node opens its envelope when the responder is present and
    /// the agreed resumption time has come, or earlier when both players signed that they are
    /// present — also in the sealer's absence, so that the responder may answer it or seal a
    /// reply (A9c); a responder's node opens their reply when the absent sealer arrives
    /// (A9c). The verdict is [`adjournment::Adjournment::check_opening`], as in `verify`.
    /// Returns whether the game was an envelope of this node's to open.
    pub(super) async fn open_envelope_if_due(&mut self, game: &GameId, state: &GameState) -> bool {
        let Some(env) = state.open_envelope() else {
            return false;
        };
        let Some(me) = state.colour_of(&self.identity.me()) else {
            return false;
        };
        if state.status != Status::Adjourned || me != env.sealer {
            return false;
        }
        let opening = match state.adjournment() {
            Some(a) if a.binding => a.check_opening(me, now_ms()).map(|_| ()),
            // A tag-10 envelope opens on the responder's presence (its meaning).
            _ => adjournment::check_opening(
                env.letters.and(env.seal.envelope.resume_at_ms),
                now_ms(),
                state.presence_ms[me.index()].is_some(),
                state.presence_ms[(!me).index()].is_some(),
            ),
        };
        match opening {
            Ok(()) => {}
            Err(adjournment::AdjournmentRule::BeforeResumption) => {
                debug!(%game, "the responder is present; the envelope opens at the agreed time (A2.7)");
                return true;
            }
            Err(_) => return false,
        }
        let ply = env.ply;
        if let Ok(bytes) = secrets::read_secret(&self.identity.opening_path(game, ply)) {
            if let Ok(opening) = serde_json::from_slice::<SealOpening>(&bytes)
                && let Err(e) = self.author(game, move |s, t| s.reveal(&opening, t)).await
            {
                warn!(%game, "cannot open the envelope: {}", e.message);
            }
        } else if let Some(kept) = &env.escrow {
            debug!(
                %game, arbiter = %kept.arbiter,
                "the opening is not on this node; the arbiter keeping it opens the envelope (A9, A11)"
            );
        } else {
            warn!(
                %game,
                "the opening of the sealed move is lost: the game continues only with it; \
                 resign (A6), or the opponent may claim after the lateness limit (A8, A10)"
            );
        }
        true
    }

    /// Opens the envelopes whose agreed resumption time has come while the responder was
    /// already present (run on the retry tick): this node's own, and those it keeps as the
    /// arbiter (A3, A9).
    pub(super) async fn resumption_tick(&mut self) {
        let adjourned: Vec<(GameId, bool)> = self
            .games
            .iter()
            .filter(|(_, s)| s.status == Status::Adjourned)
            .filter_map(|(g, s)| {
                let plays =
                    s.white == Some(self.identity.me()) || s.black == Some(self.identity.me());
                let keeps = s.arbiters.contains(&self.identity.me());
                (plays || keeps).then_some((*g, plays))
            })
            .collect();
        for (game, plays) in adjourned {
            if self.ensure_hot(&game).is_err() {
                continue;
            }
            let Some(state) = self.hot.peek(&game).map(|c| c.state.clone()) else {
                continue;
            };
            if plays {
                self.open_envelope_if_due(&game, &state).await;
            } else {
                self.arbiter_open_if_due(&game, &state).await;
            }
        }
    }
}

fn seal_letters(lang: Lang) -> SealLetters {
    match lang {
        Lang::Spanish => SealLetters::Spanish,
        Lang::English | Lang::Auto => SealLetters::English,
    }
}

/// An envelope that cannot be escrowed (A3), coded by the escrow's kind when a player meets
/// it; `place` says where the arbiter was named when their key is the problem.
fn escrow_refusal(e: &escrow::EscrowError, place: Option<IdPlace>) -> ApiError {
    if let Some(problem) = coded_escrow_error(e) {
        return ApiError::refused(RefusalCode::Escrow {
            problem: Some(problem),
            place,
        });
    }
    let english = sobre_words::words(sobre_words::Language::English);
    user(match place {
        Some(place) => format!("{}: {e}", place.words(english)),
        None => e.to_string(),
    })
}
