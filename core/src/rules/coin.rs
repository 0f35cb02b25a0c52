//! The fair coin's deadline: colours and a Chess960 start drawn by lot (FIDE Appendix F1,
//! "se sortea la posición inicial") between players who do not trust each other.
//!
//! The coin is commit–reveal (`record::commit`): the challenge carries the challenger's
//! commitment, the acceptance the opponent's share in clear, then the challenger opens. The
//! last revealer knows the result before she opens, so a challenger who could withhold the
//! opening for free would open only the results she likes and re-challenge after the others
//! (her colour in about two tries, the best of k Chess960 positions in k). Here withholding
//! costs her the draw: once [`opening_deadline`] has passed with no opening, the opponent
//! signs a coin default (wire tag 20) choosing the colours and the position, as if the
//! challenger had lost the coin entirely.
//!
//! `verify` and the node both ask [`check_coin_default`], the one place that says when a
//! default may be signed; `verify` gives it evidence times (protocol version 3,
//! docs/time.md): when the acceptance reached the challenger and when the default was made.

use crate::clock::{DAY, Millis, TimeControl};
use crate::types::Color;
use serde::{Deserialize, Serialize};

/// How long the challenger has to open the coin after the acceptance: 24 hours.
///
/// The opening needs no thought: the challenger's node signs it unattended the moment the
/// acceptance reaches it, so the deadline only has to outlast a node that is switched off —
/// overnight, or for a working day — the rhythm of a correspondence player who looks at
/// their games once a day. It is a fraction of the time correspondence play gives for one
/// move (days: `3d` per move by default, ICCF style `10/50d`), so an honest opponent waits
/// little before the game begins, while a withholder cannot keep a game in limbo for days.
/// An honest challenger whose node stays off for longer loses only the drawing of lots,
/// never the game. A time control that gives less time for a move (an over-the-board game,
/// `40/2h`) shortens it to that time: see [`opening_deadline_ms`].
pub const COIN_OPENING_DEADLINE_MS: Millis = DAY;

/// Why a coin default is refused. Serialized (tagged by `kind`, snake case) as the control
/// API's refusal carries it: `{"kind":"no_such_position","position":960}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CoinRule {
    /// Only the challenged player settles an unopened coin: the challenger holds the
    /// opening and would be choosing instead of drawing.
    #[error("only the challenged player settles an unopened coin by default (F1)")]
    NotTheOpponent,
    /// No acceptance carrying a share: nothing was drawn yet.
    #[error("no accepted coin to settle: the acceptance with the opponent's share comes first")]
    NoAcceptedCoin,
    /// The challenger still has time to open the coin.
    #[error(
        "the challenger may open the coin until {deadline_ms} ms (the acceptance's time and \
         the opening deadline); a default is valid only after that (F1)"
    )]
    BeforeDeadline {
        /// The last moment an opening is awaited; a default must be signed after it.
        deadline_ms: u64,
    },
    /// No evidence yet that the acceptance reached the challenger (protocol version 3
    /// without a timekeeper: her countersignature of it): her time to open has not started.
    #[error(
        "the challenger has not yet received the acceptance (no receipt of it): her time to \
         open the coin has not started (F1)"
    )]
    NotReceived,
    /// The coin is settled once.
    #[error("the coin is already settled")]
    AlreadySettled,
    /// The challenge drew colours by lot: the default must say which colour its author takes.
    #[error("the default must say which colour the opponent takes (colours were to be drawn)")]
    ColourMissing,
    /// The challenge fixed the colours: the default may not change them.
    #[error("the challenge fixed the colours: the default cannot choose them")]
    ColourNotDrawn,
    /// The challenge drew the Chess960 start: the default must name it (F1).
    #[error("the default must name the Chess960 start position (it was to be drawn, F1)")]
    PositionMissing,
    /// The challenge fixed the start: the default may not change it.
    #[error("the challenge fixed the start position: the default cannot choose one")]
    PositionNotDrawn,
    /// Scharnagl numbers run 0..959 (F1's 960 positions).
    #[error("Chess960 position {position} does not exist (0..959)")]
    NoSuchPosition { position: u16 },
}

/// How long the challenger has to open the coin in a game with this time control:
/// [`COIN_OPENING_DEADLINE_MS`], or the game's time for a move when that is shorter (the
/// time per move in correspondence, the first period over the board), since a player who
/// would lose on time for not answering within it cannot be given longer to answer the
/// acceptance. An unlimited game gets the full deadline.
pub fn opening_deadline_ms(tc: &TimeControl) -> Millis {
    let move_time = match tc {
        TimeControl::Unlimited => None,
        TimeControl::CorrespondencePerMove { per_move, .. } => Some(*per_move),
        TimeControl::CorrespondenceMoves { period, .. } => Some(*period),
        TimeControl::Classical(c) => c
            .periods()
            .first()
            .map(|p| p.time)
            .or_else(|| c.sudden_death()),
    };
    move_time.map_or(COIN_OPENING_DEADLINE_MS, |t| {
        t.min(COIN_OPENING_DEADLINE_MS)
    })
}

/// The last moment the challenger's opening is awaited: the deadline after the acceptance.
/// The acceptance is taken as no earlier than the challenge it accepts (it cannot have
/// reached the challenger before the challenge existed), which bounds how far an opponent
/// can date her acceptance back to shorten the challenger's time.
pub fn opening_deadline(tc: &TimeControl, challenged_ms: u64, accepted_ms: u64) -> u64 {
    challenged_ms
        .max(accepted_ms)
        .saturating_add(opening_deadline_ms(tc))
}

/// Whether a coin default signed at `defaulted_ms` comes after the deadline: its time must
/// be *more* than the deadline after the acceptance. Judged on signed times for now (see
/// the module docs); this is the one function to change for evidence times.
///
/// # Errors
/// [`CoinRule::BeforeDeadline`] with the deadline.
pub fn check_coin_default(
    tc: &TimeControl,
    challenged_ms: u64,
    accepted_ms: u64,
    defaulted_ms: u64,
) -> Result<(), CoinRule> {
    let deadline_ms = opening_deadline(tc, challenged_ms, accepted_ms);
    if defaulted_ms > deadline_ms {
        Ok(())
    } else {
        Err(CoinRule::BeforeDeadline { deadline_ms })
    }
}

/// A default names exactly what the coin was to decide: the colour its author takes when
/// colours were drawn, the Chess960 start (0..959) when the start was drawn (F1), and
/// nothing else.
///
/// # Errors
/// The [`CoinRule`] naming the missing, superfluous or impossible choice.
pub fn check_default_choices(
    colours_drawn: bool,
    start_drawn: bool,
    colour: Option<Color>,
    position: Option<u16>,
) -> Result<(), CoinRule> {
    match (colours_drawn, colour) {
        (true, None) => return Err(CoinRule::ColourMissing),
        (false, Some(_)) => return Err(CoinRule::ColourNotDrawn),
        _ => {}
    }
    match (start_drawn, position) {
        (true, None) => Err(CoinRule::PositionMissing),
        (false, Some(_)) => Err(CoinRule::PositionNotDrawn),
        (true, Some(n)) if n >= 960 => Err(CoinRule::NoSuchPosition { position: n }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{HOUR, SECOND};

    fn tc(s: &str) -> TimeControl {
        s.parse().expect("a time control")
    }

    #[test]
    fn f1_the_deadline_is_a_day_or_the_games_time_for_a_move_if_shorter() {
        assert_eq!(opening_deadline_ms(&tc("3d")), COIN_OPENING_DEADLINE_MS);
        assert_eq!(opening_deadline_ms(&tc("10/50d")), COIN_OPENING_DEADLINE_MS);
        assert_eq!(
            opening_deadline_ms(&tc("unlimited")),
            COIN_OPENING_DEADLINE_MS
        );
        assert_eq!(opening_deadline_ms(&tc("corr 12h")), 12 * HOUR);
        assert_eq!(opening_deadline_ms(&tc("otb 40/2h+1h")), 2 * HOUR);
        assert_eq!(opening_deadline_ms(&tc("otb 10s")), 10 * SECOND);
    }

    #[test]
    fn f1_a_default_is_valid_only_more_than_the_deadline_after_the_acceptance() {
        let t = tc("3d");
        let (challenged, accepted) = (1_000, 5_000);
        let deadline = accepted + COIN_OPENING_DEADLINE_MS;
        assert_eq!(
            check_coin_default(&t, challenged, accepted, deadline),
            Err(CoinRule::BeforeDeadline {
                deadline_ms: deadline
            })
        );
        assert_eq!(
            check_coin_default(&t, challenged, accepted, deadline + 1),
            Ok(())
        );
        assert!(check_coin_default(&t, challenged, accepted, accepted + 1).is_err());
    }

    #[test]
    fn f1_an_acceptance_dated_before_its_challenge_counts_from_the_challenge() {
        let t = tc("3d");
        let challenged = 10 * DAY;
        // Dated two days before the challenge, to default at once: not yet.
        let at = challenged + 1;
        assert!(check_coin_default(&t, challenged, challenged - 2 * DAY, at).is_err());
        assert_eq!(
            opening_deadline(&t, challenged, challenged - 2 * DAY),
            challenged + DAY
        );
    }

    #[test]
    fn f1_a_default_names_exactly_what_the_coin_was_to_decide() {
        use Color::White;
        assert_eq!(
            check_default_choices(true, false, Some(White), None),
            Ok(())
        );
        assert_eq!(check_default_choices(false, true, None, Some(518)), Ok(()));
        assert_eq!(
            check_default_choices(true, true, Some(White), Some(0)),
            Ok(())
        );
        assert_eq!(
            check_default_choices(true, false, None, None),
            Err(CoinRule::ColourMissing)
        );
        assert_eq!(
            check_default_choices(false, false, Some(White), None),
            Err(CoinRule::ColourNotDrawn)
        );
        assert_eq!(
            check_default_choices(false, true, None, None),
            Err(CoinRule::PositionMissing)
        );
        assert_eq!(
            check_default_choices(true, false, Some(White), Some(3)),
            Err(CoinRule::PositionNotDrawn)
        );
        assert_eq!(
            check_default_choices(false, true, None, Some(960)),
            Err(CoinRule::NoSuchPosition { position: 960 })
        );
    }
}
