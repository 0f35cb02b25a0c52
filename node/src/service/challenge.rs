//! A new game: the player's challenge, signed and sent to the opponent's inbox and to the
//! recipients of its events (the control API's `challenge`, and the league's pairings).

use super::author::own_event;
use super::cache::GameCache;
use super::reads::ReadSide;
use super::{Service, internal, now_ms, rule_refusal, user};
use crate::api::request;
use crate::api::watch::{GameEvent, GameEventKind};
use crate::api::{ApiError, GameView, RefusalCode, TermsRequest};
use crate::protocol::Gossip;
use crate::view::Summary;
use crate::{integrity, protocol, secrets};
use sobre_core::Position;
use sobre_core::clock::TimeControl;
use sobre_core::record::author::Scoresheet;
use sobre_core::record::{
    Challenge, ColourChoice, LeagueRound, PlayerId, StartPosition, Terms, commit,
    verify_incremental,
};

impl Service {
    /// `challenge`: the request's terms, not in a league.
    pub(super) async fn challenge_asked(
        &mut self,
        request::Challenge {
            opponent,
            color,
            time_control,
            chess960,
            fen,
            terms,
        }: request::Challenge,
    ) -> Result<GameView, ApiError> {
        self.challenge(
            &opponent,
            color,
            &time_control,
            chess960,
            fen,
            None,
            terms_of(&terms)?,
        )
        .await
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
fn terms_of(req: &TermsRequest) -> Result<Terms, ApiError> {
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
