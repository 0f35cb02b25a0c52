//! The typed kinds some refusal codes carry, so that a client words the error by its kind
//! and fields instead of the core's English text. The coin and escrow refusals carry the
//! core's own `CoinRule` and `EscrowError` (serde, tagged by `kind`), filtered to the kinds
//! a player commonly meets (`coded_*`); the league refusals still carry a node mirror of
//! the core's `LeagueError`, `DecisionError` and `TieBreakError` ([`LeagueProblem`], one
//! wire enum for three core types), and the quotas the service's own kinds. The others stay
//! uncoded (the message alone says them). Append-only like [`super::RefusalCode`].

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer, Serialize};
use sobre_core::league::LeagueError;
use sobre_core::league::decision::{DecisionError, MAX_REASON_CHARS};
use sobre_core::league::tiebreak::{MAX_TIE_BREAKS, TieBreakError};
use sobre_core::record::escrow::EscrowError;
use sobre_core::rules::coin::CoinRule;

/// Where a player id (or an arbiter's key) was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdPlace {
    /// `league create --deputy`.
    Deputy,
    /// `adjourn --arbiter`.
    Arbiter,
    /// The `"arbiter"` setting in HOME/config.json.
    ArbiterSetting,
    /// `block PLAYER`.
    Block,
}

/// The core's escrow errors a player meets, which a refusal codes (A3); the others (a box
/// of the wrong size, a low-order key, a malformed opening) are refused in the core's words.
pub fn coded_escrow_error(e: &EscrowError) -> Option<EscrowError> {
    match e {
        EscrowError::ArbiterKey { .. }
        | EscrowError::MoveTooLong { .. }
        | EscrowError::NotTheArbiter { .. }
        | EscrowError::DoesNotOpen
        | EscrowError::NotTheSealedMove => Some(e.clone()),
        EscrowError::LowOrder | EscrowError::BoxSize { .. } | EscrowError::Malformed(_) => None,
    }
}

/// The core's coin rules a player meets, which a refusal codes (F1); the others (a
/// default's own shape, checked before it is signed) are refused in the core's words.
pub fn coded_coin_rule(rule: CoinRule) -> Option<CoinRule> {
    match rule {
        CoinRule::NotTheOpponent
        | CoinRule::NoAcceptedCoin
        | CoinRule::NotReceived
        | CoinRule::AlreadySettled
        | CoinRule::NoSuchPosition { .. } => Some(rule),
        _ => None,
    }
}

/// Reads a core error a refusal carries, or `None` for a kind this client does not know
/// (a newer node's): the refusal is then shown in the node's message.
pub(super) fn known<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    /// The kind as this client knows it, or anything else.
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum KnownOrNot<T> {
        Known(T),
        Unknown(IgnoredAny),
    }
    Ok(match KnownOrNot::<T>::deserialize(d)? {
        KnownOrNot::Known(t) => Some(t),
        KnownOrNot::Unknown(_) => None,
    })
}

/// Why a league definition, a join or a decision is refused: the core's [`LeagueError`] and
/// [`DecisionError`] kinds a player (or an organiser) meets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LeagueProblem {
    /// A league has 3 to 64 players.
    PlayerCount {
        count: usize,
    },
    DuplicatePlayer {
        player: String,
    },
    Names {
        names: usize,
        players: usize,
    },
    /// The organiser plays without a deputy arbiter.
    OrganiserPlays,
    DeputyIsOrganiser,
    DeputyPlays {
        deputy: String,
    },
    DeputyWithoutGames,
    /// A league's name is empty or over 100 characters.
    BadName,
    NotAPlayer {
        player: String,
    },
    /// A decision: the entrant already plays.
    AlreadyPlays {
        player: String,
    },
    /// A decision: a player's name is 1 to 100 characters.
    PlayerName,
    /// A start deadline (6.6) outside 1 ms to 366 days.
    StartDeadline {
        ms: u64,
    },
    /// A decision that changes the players, the withdrawal rule or the tie-breaks, signed
    /// once round 1 had opened at `start_ms`.
    RoundOneStarted {
        start_ms: u64,
    },
    /// A decision: an adjudication's reason is 1 to `max` characters.
    Reason {
        max: usize,
    },
    /// A tie-break order (the core's [`TieBreakError`]): an unknown name.
    UnknownTieBreak {
        name: String,
    },
    /// A tie-break listed twice.
    RepeatedTieBreak {
        name: String,
    },
    /// Too few or too many tie-breaks (1 to `max`).
    TieBreakCount {
        max: usize,
    },
    #[serde(other)]
    Other,
}

impl LeagueProblem {
    pub fn of(e: &LeagueError) -> Option<LeagueProblem> {
        Some(match e {
            LeagueError::PlayerCount(n) => LeagueProblem::PlayerCount { count: *n },
            LeagueError::DuplicatePlayer(p) => LeagueProblem::DuplicatePlayer {
                player: p.to_string(),
            },
            LeagueError::Names { names, players } => LeagueProblem::Names {
                names: *names,
                players: *players,
            },
            LeagueError::OrganiserPlays => LeagueProblem::OrganiserPlays,
            LeagueError::DeputyIsOrganiser => LeagueProblem::DeputyIsOrganiser,
            LeagueError::DeputyPlays(p) => LeagueProblem::DeputyPlays {
                deputy: p.to_string(),
            },
            LeagueError::DeputyWithoutGames => LeagueProblem::DeputyWithoutGames,
            LeagueError::BadName => LeagueProblem::BadName,
            LeagueError::StartDeadline(ms) => LeagueProblem::StartDeadline { ms: *ms },
            LeagueError::NotAPlayer(p) => LeagueProblem::NotAPlayer {
                player: p.to_string(),
            },
            _ => return None,
        })
    }

    pub fn of_decision(e: &DecisionError) -> Option<LeagueProblem> {
        Some(match e {
            DecisionError::Doc(e) => return LeagueProblem::of(e),
            DecisionError::AlreadyPlays(p) => LeagueProblem::AlreadyPlays {
                player: p.to_string(),
            },
            DecisionError::Name => LeagueProblem::PlayerName,
            DecisionError::RoundOneStarted { start_ms, .. } => LeagueProblem::RoundOneStarted {
                start_ms: *start_ms,
            },
            DecisionError::Reason => LeagueProblem::Reason {
                max: MAX_REASON_CHARS,
            },
            DecisionError::NotAPlayer(p) => LeagueProblem::NotAPlayer {
                player: p.to_string(),
            },
            _ => return None,
        })
    }

    pub fn of_tie_breaks(e: &TieBreakError) -> LeagueProblem {
        match e {
            TieBreakError::Unknown(name) => LeagueProblem::UnknownTieBreak { name: name.clone() },
            TieBreakError::Repeated(name) => LeagueProblem::RepeatedTieBreak { name: name.clone() },
            TieBreakError::Count => LeagueProblem::TieBreakCount {
                max: MAX_TIE_BREAKS,
            },
        }
    }
}

/// Which of the node's limits on the player's own events a new one would pass: the
/// service's quota kinds a player meets when signing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QuotaProblem {
    /// The game holds at most `max` events.
    GameEvents { max: usize },
    /// The game holds at most `max` bytes of events.
    GameBytes { max: usize },
    /// At most `max` chat lines per player in the game.
    Chat { max: usize },
    /// At most `max` chat lines an hour.
    ChatRate { max: usize },
    /// No chat after the game's end.
    ChatAfterEnd,
    /// Too many leave periods for the time the game has run.
    Leaves,
    #[serde(other)]
    Other,
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::Keypair;

    /// The English words of a refusal of `problem`.
    fn english(code: crate::api::refusal::RefusalCode) -> String {
        code.words(sobre_words::words(sobre_words::Language::English))
            .unwrap()
            .0
    }

    /// Each mirrored kind reads in the catalogue's English as the core's error says it: the
    /// English output does not change.
    #[test]
    fn mirrored_kinds_keep_the_cores_words() {
        use crate::api::refusal::RefusalCode;
        let p = Keypair::from_secret_bytes(&[7; 32]).player_id();
        for e in [
            EscrowError::ArbiterKey { arbiter: p },
            EscrowError::MoveTooLong { len: 300, max: 256 },
            EscrowError::NotTheArbiter { arbiter: p },
            EscrowError::DoesNotOpen,
            EscrowError::NotTheSealedMove,
        ] {
            let code = RefusalCode::Escrow {
                problem: coded_escrow_error(&e),
                place: None,
            };
            assert_eq!(english(code), e.to_string());
        }
        for r in [
            CoinRule::NotTheOpponent,
            CoinRule::NoAcceptedCoin,
            CoinRule::NotReceived,
            CoinRule::AlreadySettled,
            CoinRule::NoSuchPosition { position: 999 },
        ] {
            let problem = coded_coin_rule(r);
            assert_eq!(english(RefusalCode::CoinRule { problem }), r.to_string());
        }
        for e in [
            LeagueError::PlayerCount(2),
            LeagueError::DuplicatePlayer(p),
            LeagueError::Names {
                names: 2,
                players: 3,
            },
            LeagueError::OrganiserPlays,
            LeagueError::DeputyIsOrganiser,
            LeagueError::DeputyPlays(p),
            LeagueError::DeputyWithoutGames,
            LeagueError::BadName,
            LeagueError::NotAPlayer(p),
        ] {
            let problem = LeagueProblem::of(&e).unwrap();
            assert_eq!(english(RefusalCode::League { problem }), e.to_string());
        }
        for e in [
            DecisionError::AlreadyPlays(p),
            DecisionError::Name,
            DecisionError::Reason,
            DecisionError::NotAPlayer(p),
        ] {
            let problem = LeagueProblem::of_decision(&e).unwrap();
            assert_eq!(english(RefusalCode::League { problem }), e.to_string());
        }
        for e in [
            TieBreakError::Unknown("x".into()),
            TieBreakError::Repeated("sb".into()),
            TieBreakError::Count,
        ] {
            let problem = LeagueProblem::of_tie_breaks(&e);
            assert_eq!(english(RefusalCode::League { problem }), e.to_string());
        }
    }
}
