//! The words of the typed kinds some refusal codes carry (the node's
//! `sobre_node::api::refusal` kinds: escrow, coin, league and quota problems, and where an
//! id was given), in the run's language.

use super::quoted;
use crate::t;
use sobre_node::api::refusal::{CoinProblem, EscrowProblem, IdPlace, LeagueProblem, QuotaProblem};

/// Where an id (or an arbiter's key) was given, as the words before the reason.
pub(super) fn place_word(place: IdPlace) -> String {
    match place {
        IdPlace::Deputy => t!("refusal-place-deputy"),
        IdPlace::Arbiter => t!("refusal-place-arbiter"),
        IdPlace::ArbiterSetting => t!("refusal-place-arbiter-setting"),
        IdPlace::Block => t!("refusal-place-block"),
    }
}

/// "in 3h 20m", "in 42s": how far ahead `at_ms` is from `now` (as the node words it in
/// English), in the run's language.
pub(super) fn from_now(at_ms: u64, now: u64) -> String {
    let s = at_ms.saturating_sub(now).div_ceil(1000);
    match s {
        0..60 => t!("refusal-in-seconds", s = s),
        60..3600 => t!("refusal-in-minutes", m = s / 60, s = s % 60),
        _ => t!("refusal-in-hours", h = s / 3600, m = s % 3600 / 60),
    }
}

/// A3: why an envelope cannot be escrowed or opened from the escrow.
pub(super) fn escrow_problem(p: &EscrowProblem) -> Option<String> {
    Some(match p {
        EscrowProblem::ArbiterKey { arbiter } => {
            t!("refusal-escrow-arbiter-key", arbiter = arbiter.as_str())
        }
        EscrowProblem::MoveTooLong { len, max } => {
            t!("refusal-escrow-move-too-long", len = *len, max = *max)
        }
        EscrowProblem::NotTheArbiter { arbiter } => {
            t!("refusal-escrow-not-the-arbiter", arbiter = arbiter.as_str())
        }
        EscrowProblem::DoesNotOpen => t!("refusal-escrow-does-not-open"),
        EscrowProblem::NotTheSealedMove => t!("refusal-escrow-not-the-sealed-move"),
        EscrowProblem::Other => return None,
    })
}

/// F1: why a coin default is refused, and what to do.
pub(super) fn coin_problem(p: &CoinProblem) -> Option<(String, Option<String>)> {
    Some(match p {
        CoinProblem::NotTheOpponent => (
            t!("refusal-coin-not-the-opponent"),
            Some(t!("refusal-coin-not-the-opponent-hint")),
        ),
        CoinProblem::NoAcceptedCoin => (
            t!("refusal-coin-not-accepted"),
            Some(t!("refusal-coin-not-accepted-hint")),
        ),
        CoinProblem::NotReceived => (
            t!("refusal-coin-not-received"),
            Some(t!("refusal-coin-not-received-hint")),
        ),
        CoinProblem::AlreadySettled => (t!("refusal-coin-settled"), None),
        CoinProblem::NoSuchPosition { position } => (
            t!("refusal-coin-no-such-position", position = *position),
            Some(t!("refusal-coin-no-such-position-hint")),
        ),
        CoinProblem::Other => return None,
    })
}

/// Why a league, a join or a decision is refused (the core's kinds).
pub(super) fn league_problem(p: &LeagueProblem) -> Option<(String, Option<String>)> {
    Some(match p {
        LeagueProblem::PlayerCount { count } => {
            (t!("refusal-league-player-count", count = *count), None)
        }
        LeagueProblem::DuplicatePlayer { player } => (
            t!("refusal-league-duplicate-player", player = player.as_str()),
            None,
        ),
        LeagueProblem::Names { names, players } => (
            t!("refusal-league-names", names = *names, players = *players),
            None,
        ),
        LeagueProblem::OrganiserPlays => (
            t!("refusal-league-organiser-plays"),
            Some(t!("refusal-league-organiser-plays-hint")),
        ),
        LeagueProblem::DeputyIsOrganiser => (t!("refusal-league-deputy-is-organiser"), None),
        LeagueProblem::DeputyPlays { deputy } => (
            t!("refusal-league-deputy-plays", deputy = deputy.as_str()),
            None,
        ),
        LeagueProblem::DeputyWithoutGames => (
            t!("refusal-league-deputy-without-games"),
            Some(t!("refusal-league-deputy-without-games-hint")),
        ),
        LeagueProblem::BadName => (t!("refusal-league-bad-name"), None),
        LeagueProblem::NotAPlayer { player } => (
            t!("refusal-league-not-a-player", player = player.as_str()),
            None,
        ),
        LeagueProblem::AlreadyPlays { player } => (
            t!("refusal-league-already-plays", player = player.as_str()),
            None,
        ),
        LeagueProblem::PlayerName => (t!("refusal-league-player-name"), None),
        LeagueProblem::StartDeadline { ms } => {
            (t!("refusal-league-start-deadline", ms = *ms), None)
        }
        LeagueProblem::RoundOneStarted { start_ms } => (
            t!(
                "refusal-league-round-one-started",
                at = sobre_core::record::export::iso_utc(*start_ms)
            ),
            None,
        ),
        LeagueProblem::Reason { max } => (t!("refusal-league-reason", max = *max), None),
        LeagueProblem::UnknownTieBreak { name } => (
            t!("refusal-league-unknown-tie-break", name = quoted(name)),
            None,
        ),
        LeagueProblem::RepeatedTieBreak { name } => (
            t!("refusal-league-repeated-tie-break", name = quoted(name)),
            None,
        ),
        LeagueProblem::TieBreakCount { max } => {
            (t!("refusal-league-tie-break-count", max = *max), None)
        }
        LeagueProblem::Other => return None,
    })
}

/// Which of the node's limits on the player's own events a new one would pass.
pub(super) fn quota_problem(p: &QuotaProblem) -> Option<String> {
    Some(match p {
        QuotaProblem::GameEvents { max } => t!("refusal-quota-game-events", max = *max),
        QuotaProblem::GameBytes { max } => t!("refusal-quota-game-bytes", max = *max),
        QuotaProblem::Chat { max } => t!("refusal-quota-chat", max = *max),
        QuotaProblem::ChatRate { max } => t!("refusal-quota-chat-rate", max = *max),
        QuotaProblem::ChatAfterEnd => t!("refusal-quota-chat-after-end"),
        QuotaProblem::Leaves => t!("refusal-quota-leaves"),
        QuotaProblem::Other => return None,
    })
}
