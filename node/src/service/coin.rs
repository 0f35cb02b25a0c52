//! The fair coin on the node (FIDE Appendix F1: colours and a Chess960 start drawn by lot).
//!
//! The challenger's node opens the coin the moment the acceptance arrives (and, on the tick,
//! any coin it holds the acceptance of but has not opened, say after a crash), so an honest
//! challenger never reaches the deadline. The opponent's node, on the tick, settles a coin
//! whose deadline (`sobre_core::rules::coin`) has passed without an opening by signing a
//! coin default with the player's choice: what they asked for at acceptance (`sobre accept
//! GAME --colour … --position …`, kept on this node only, so the challenger cannot tell
//! whether the default would suit her), else White and a Chess960 start from the node's
//! RNG. `sobre coin default` does the same by hand, and is the only way when the node runs
//! with `manual_coin_default`.
//!
//! Why White when the player named no colour: the default can only use what the opponent
//! knows, and she does not know which colour the withholder wanted. A random colour would
//! give a withholder her wish in three games of four whatever she wanted; White caps the
//! one who wants White (the first move's advantage) at the coin's one in two, and a
//! withholder who wants Black gets it only by handing the opponent White.

use super::reads::ReadSide;
use super::{Service, internal, now_ms};
use crate::api::refusal::coded_coin_rule;
use crate::api::{ApiError, GameView, RefusalCode};
use crate::secrets;
use crate::store::CoinChoice;
use rand::Rng;
use sobre_core::Color;
use sobre_core::record::{
    CoinColour, ColourChoice, GameId, GameState, StartPosition, Status, VerifiedEvent,
};
use sobre_core::rules::coin::{self as rules, CoinRule};
use tracing::{debug, info, warn};

/// The choices must be ones the coin was to decide (F1: a start is drawn only in a game the
/// challenge left to the draw).
fn check_choice(
    st: &GameState,
    colour: Option<Color>,
    position: Option<u16>,
) -> Result<(), ApiError> {
    if colour.is_some() && st.challenge.colour != ColourChoice::Random {
        return Err(ApiError::refused(RefusalCode::ColoursFixed));
    }
    match position {
        Some(_) if st.challenge.start != StartPosition::Chess960Random => {
            Err(ApiError::refused(RefusalCode::StartFixed))
        }
        Some(n) if n >= 960 => Err(coin_refusal(CoinRule::NoSuchPosition { position: n })),
        _ => Ok(()),
    }
}

/// A coin default refused by the core's rule (F1), in the code's words.
fn coin_refusal(rule: CoinRule) -> ApiError {
    match coded_coin_rule(rule) {
        Some(rule) => ApiError::refused(RefusalCode::CoinRule {
            problem: Some(rule),
        }),
        None => ApiError::user(rule.to_string()),
    }
}

impl Service {
    /// What the player asked for at acceptance, for a default (nothing if the record is
    /// unreadable: the default then uses White and a drawn start, as with no choice).
    fn coin_choice(&self, game: &GameId) -> CoinChoice {
        self.store
            .coin_choice(game)
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// `accept`: accepts a challenge, with a share of the coin when it needs one, keeping
    /// the player's choice for a default (flushed with the acceptance).
    pub(super) async fn accept(
        &mut self,
        game: &str,
        colour: Option<Color>,
        position: Option<u16>,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(game)?;
        let st = &self.cache(&g)?.state;
        if st.status != Status::Pending || st.opponent != self.identity.me() || st.coin.is_some() {
            return Err(ApiError::refused(RefusalCode::NoChallengeToAccept));
        }
        check_choice(st, colour, position)?;
        let share = st
            .challenge
            .coin_commitment
            .map(|_| rand::random::<[u8; 32]>());
        if colour.is_some() || position.is_some() {
            let choice = CoinChoice {
                white: colour.map(|c| c == Color::White),
                position,
            };
            self.store.set_coin_choice(&g, &choice).map_err(internal)?;
        }
        let (_, state) = self.author(&g, move |s, t| s.accept(share, t)).await?;
        Ok(self.show(&state))
    }

    /// `coin default`: the player settles an unopened coin by hand after the deadline.
    pub(super) async fn coin_default_by_hand(
        &mut self,
        game: &str,
        colour: Option<Color>,
        position: Option<u16>,
    ) -> Result<GameView, ApiError> {
        let g = self.resolve_game(game)?;
        let st = self.cache(&g)?.state.clone();
        if st.opponent != self.identity.me() {
            return Err(coin_refusal(CoinRule::NotTheOpponent));
        }
        check_choice(&st, colour, position)?;
        let state = self
            .settle_coin(&g, &st, colour, position, now_ms())
            .await?;
        Ok(self.show(&state))
    }

    /// An abort by the challenger who holds the opponent's share while the coin is
    /// unopened would withhold the draw, and `verify` ignores it: refuse to sign it.
    pub(super) fn check_abort_keeps_the_coin(&self, game: &GameId) -> Result<(), ApiError> {
        let st = &self.cache(game)?.state;
        if st.challenger == self.identity.me()
            && st.coin.as_ref().is_some_and(|c| c.settled.is_none())
        {
            return Err(ApiError::refused(RefusalCode::AbortWithholdsCoin));
        }
        Ok(())
    }

    /// The challenge's signed time (the first event of the game).
    fn challenged_ms(&self, game: &GameId) -> u64 {
        self.hot
            .peek(game)
            .and_then(|c| c.events.iter().find(|v: &&VerifiedEvent| v.id == *game))
            .map_or(0, |v| v.event.time_ms)
    }

    /// Signs the coin default at `now`: the colour and position asked for now, else at
    /// acceptance, else the node's (module docs). Refused before the deadline, with when.
    async fn settle_coin(
        &mut self,
        game: &GameId,
        st: &GameState,
        colour: Option<Color>,
        position: Option<u16>,
        now: u64,
    ) -> Result<GameState, ApiError> {
        let Some(coin) = &st.coin else {
            return Err(coin_refusal(CoinRule::NoAcceptedCoin));
        };
        if coin.settled.is_some() || st.status != Status::Pending {
            return Err(coin_refusal(CoinRule::AlreadySettled));
        }
        if !coin.received {
            return Err(coin_refusal(CoinRule::NotReceived));
        }
        let challenged_ms = self.challenged_ms(game);
        if let Err(CoinRule::BeforeDeadline { deadline_ms }) =
            rules::check_coin_default(&st.time_control, challenged_ms, coin.accepted_ms, now)
        {
            return Err(ApiError::refused(RefusalCode::CoinBeforeDeadline {
                deadline_ms,
                now_ms: now,
                manual: self.coins.manual_default(),
            }));
        }
        let asked = self.coin_choice(game);
        let colour = (st.challenge.colour == ColourChoice::Random).then(|| {
            let c = colour
                .or(asked
                    .white
                    .map(|w| if w { Color::White } else { Color::Black }))
                .unwrap_or(Color::White);
            CoinColour::of(c)
        });
        let position = (st.challenge.start == StartPosition::Chess960Random).then(|| {
            position
                .or(asked.position)
                .unwrap_or_else(|| rand::thread_rng().gen_range(0..960))
        });
        let (_, state) = self
            .author_at(game, now, move |s, t| s.coin_default(colour, position, t))
            .await?;
        info!(%game, ?colour, ?position, "the challenger did not open the coin in time: settled by default (F1)");
        Ok(state)
    }

    /// The challenger's node opens the coin of `game` (the secret is kept since the
    /// challenge).
    pub(super) async fn open_coin(&mut self, game: &GameId) {
        match secrets::read_secret(&self.identity.coin_path(game)) {
            Ok(bytes) => {
                if let Ok(secret) = <[u8; 32]>::try_from(bytes.as_slice())
                    && let Err(e) = self
                        .author(game, move |s, t| s.random_reveal(secret, t))
                        .await
                {
                    warn!(%game, "cannot open the coin: {}", e.message);
                }
            }
            Err(e) => warn!(
                %game,
                "the coin's secret is lost ({e}): the opponent settles the coin by default after the deadline"
            ),
        }
    }

    /// On the tick: open the coins this node owes an opening (once per run each), and settle
    /// by default those whose deadline has passed (unless the player does it by hand).
    pub(super) async fn coin_tick(&mut self) {
        let now = now_ms();
        let due: Vec<(GameId, bool)> = self
            .games
            .iter()
            .filter(|(g, s)| {
                s.status == Status::Pending
                    && s.plays(&self.identity.me())
                    && self.coins.may_try_coin(g)
            })
            .filter_map(|(g, s)| {
                let deadline = s.coin_deadline_ms?;
                let challenger = s.challenger == self.identity.me();
                (challenger || (!self.coins.manual_default() && now > deadline))
                    .then_some((*g, challenger))
            })
            .collect();
        for (game, challenger) in due {
            if self.ensure_hot(&game).is_err() {
                continue;
            }
            let Some(state) = self.hot.peek(&game).map(|c| c.state.clone()) else {
                continue;
            };
            if challenger {
                self.coins.coin_tried(game);
                self.open_coin(&game).await;
            } else if let Err(e) = self.settle_coin(&game, &state, None, None, now).await {
                debug!(%game, "coin default not signed: {}", e.message);
                self.coins.coin_tried(game);
            }
        }
    }
}
