//! The typed kinds some refusal codes carry: small serde mirrors of the core's (and the
//! node's) typed errors, so that a client words the error by its kind and fields instead of
//! the core's English text. Each mirrors only the kinds a player commonly meets; the others
//! stay uncoded (the message alone says them). Append-only like [`super::RefusalCode`].

use serde::{Deserialize, Serialize};
use sobre_core::league::LeagueError;
use sobre_core::league::decision::{DecisionError, MAX_REASON_CHARS};
use sobre_core::league::tiebreak::{MAX_TIE_BREAKS, TieBreakError};
use sobre_core::record::escrow::{EscrowError, MAX_ESCROWED_MOVE_BYTES};
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

impl IdPlace {
    /// How the node's English names the place, before the reason.
    pub fn english(self) -> &'static str {
        match self {
            IdPlace::Deputy => "--deputy",
            IdPlace::Arbiter => "--arbiter",
            IdPlace::ArbiterSetting => "the \"arbiter\" setting in HOME/config.json",
            IdPlace::Block => "not a player id",
        }
    }
}

/// Why an envelope cannot be escrowed to an arbiter or opened from the escrow (A3): the
/// core's [`EscrowError`] kinds a player meets, and the node's check of the opened move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EscrowProblem {
    /// The arbiter's id is not a key a box can be sealed to.
    ArbiterKey { arbiter: String },
    /// The sealed move is longer than an escrow holds.
    MoveTooLong { len: usize, max: usize },
    /// The key opening the box is not the arbiter's it names.
    NotTheArbiter { arbiter: String },
    /// The box does not open (another key or seal, or altered).
    DoesNotOpen,
    /// The box opened, but its move is not the sealed one (A3).
    NotTheSealedMove,
    /// A kind this client does not know.
    #[serde(other)]
    Other,
}

impl EscrowProblem {
    /// The kind of a core escrow error, for those a player meets.
    pub fn of(e: &EscrowError) -> Option<EscrowProblem> {
        Some(match e {
            EscrowError::ArbiterKey(p) => EscrowProblem::ArbiterKey {
                arbiter: p.to_string(),
            },
            EscrowError::MoveTooLong { len } => EscrowProblem::MoveTooLong {
                len: *len,
                max: MAX_ESCROWED_MOVE_BYTES,
            },
            EscrowError::NotTheArbiter(p) => EscrowProblem::NotTheArbiter {
                arbiter: p.to_string(),
            },
            EscrowError::DoesNotOpen => EscrowProblem::DoesNotOpen,
            _ => return None,
        })
    }

    /// The core's (and the node's) English words.
    pub fn english(&self) -> String {
        match self {
            EscrowProblem::ArbiterKey { arbiter } => {
                format!("{arbiter} is not a key an envelope can be escrowed to (A3)")
            }
            EscrowProblem::MoveTooLong { len, max } => {
                format!("the sealed move is {len} bytes long; an escrow holds at most {max}")
            }
            EscrowProblem::NotTheArbiter { arbiter } => {
                format!("this key is not the arbiter's ({arbiter}) the envelope is escrowed to")
            }
            EscrowProblem::DoesNotOpen => EscrowError::DoesNotOpen.to_string(),
            EscrowProblem::NotTheSealedMove => NOT_THE_SEALED_MOVE.to_owned(),
            EscrowProblem::Other => String::new(),
        }
    }
}

/// The node's words when the escrowed move is not the sealed one (A3).
pub const NOT_THE_SEALED_MOVE: &str = "the escrowed opening does not match the seal's \
     commitment: the sealer escrowed another move, so the envelope cannot be opened from it (A3)";

/// Why a coin default is refused (F1): the core's [`CoinRule`] kinds the node refuses by.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CoinProblem {
    NotTheOpponent,
    NoAcceptedCoin,
    NotReceived,
    AlreadySettled,
    NoSuchPosition {
        position: u16,
    },
    #[serde(other)]
    Other,
}

impl CoinProblem {
    pub fn of(rule: &CoinRule) -> Option<CoinProblem> {
        Some(match rule {
            CoinRule::NotTheOpponent => CoinProblem::NotTheOpponent,
            CoinRule::NoAcceptedCoin => CoinProblem::NoAcceptedCoin,
            CoinRule::NotReceived => CoinProblem::NotReceived,
            CoinRule::AlreadySettled => CoinProblem::AlreadySettled,
            CoinRule::NoSuchPosition(n) => CoinProblem::NoSuchPosition { position: *n },
            _ => return None,
        })
    }

    /// The core's words, and the node's hint.
    pub fn english(&self) -> (String, Option<&'static str>) {
        match self {
            CoinProblem::NotTheOpponent => (
                CoinRule::NotTheOpponent.to_string(),
                Some("as the challenger, your node opens the coin by itself"),
            ),
            CoinProblem::NoAcceptedCoin => (
                CoinRule::NoAcceptedCoin.to_string(),
                Some("there is no coin to settle before `sobre accept`"),
            ),
            CoinProblem::NotReceived => (
                CoinRule::NotReceived.to_string(),
                Some("your node settles it by default a day after the challenger's receipt"),
            ),
            CoinProblem::AlreadySettled => (CoinRule::AlreadySettled.to_string(), None),
            CoinProblem::NoSuchPosition { position } => (
                CoinRule::NoSuchPosition(*position).to_string(),
                Some("Chess960 positions are numbered 0 to 959 (518 is the standard one)"),
            ),
            CoinProblem::Other => (String::new(), None),
        }
    }
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

    /// The core's words, and the node's hint at a league's creation.
    pub fn english(&self) -> (String, Option<&'static str>) {
        let words = match self {
            LeagueProblem::PlayerCount { count } => LeagueError::PlayerCount(*count).to_string(),
            LeagueProblem::DuplicatePlayer { player } => format!("player {player} is listed twice"),
            LeagueProblem::Names { names, players } => LeagueError::Names {
                names: *names,
                players: *players,
            }
            .to_string(),
            LeagueProblem::OrganiserPlays => {
                return (
                    LeagueError::OrganiserPlays.to_string(),
                    Some("name a deputy arbiter with --deputy PLAYER (not a player)"),
                );
            }
            LeagueProblem::DeputyIsOrganiser => LeagueError::DeputyIsOrganiser.to_string(),
            LeagueProblem::DeputyPlays { deputy } => format!(
                "the deputy arbiter {deputy} may not play: nobody could decide the game between \
                 the organiser and the deputy"
            ),
            LeagueProblem::DeputyWithoutGames => {
                return (
                    LeagueError::DeputyWithoutGames.to_string(),
                    Some("leave --deputy out, or list yourself with --player me"),
                );
            }
            LeagueProblem::BadName => LeagueError::BadName.to_string(),
            LeagueProblem::NotAPlayer { player } => {
                format!("{player} is not a player of this league")
            }
            LeagueProblem::AlreadyPlays { player } => {
                format!("{player} already plays in this league")
            }
            LeagueProblem::PlayerName => DecisionError::Name.to_string(),
            LeagueProblem::StartDeadline { ms } => {
                format!("a start deadline is 1 ms to 366 days after the round opens, not {ms} ms")
            }
            LeagueProblem::RoundOneStarted { start_ms } => format!(
                "round 1 opened at {}: the players, the withdrawal rule and the tie-breaks \
                 change only before round 1",
                sobre_core::record::export::iso_utc(*start_ms)
            ),
            LeagueProblem::Reason { max } => {
                format!("an adjudication needs a reason of 1 to {max} characters")
            }
            LeagueProblem::UnknownTieBreak { name } => {
                TieBreakError::Unknown(name.clone()).to_string()
            }
            LeagueProblem::RepeatedTieBreak { name } => {
                TieBreakError::Repeated(name.clone()).to_string()
            }
            LeagueProblem::TieBreakCount { max } => {
                format!("give 1 to {max} tie-breaks, or fide or before-fide")
            }
            LeagueProblem::Other => String::new(),
        };
        (words, None)
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

impl QuotaProblem {
    pub fn english(&self) -> String {
        match self {
            QuotaProblem::GameEvents { max } => format!("the game is full: at most {max} events"),
            QuotaProblem::GameBytes { max } => {
                format!("the game is full: at most {max} bytes of events")
            }
            QuotaProblem::Chat { max } => {
                format!("too much chat: at most {max} lines per player in this game")
            }
            QuotaProblem::ChatRate { max } => format!("too much chat: at most {max} lines an hour"),
            QuotaProblem::ChatAfterEnd => "the game is over: no more chat".to_owned(),
            QuotaProblem::Leaves => {
                "too many leave periods for the time this game has run".to_owned()
            }
            QuotaProblem::Other => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::Keypair;

    /// Each mirrored kind says what the core's error says: the English output does not
    /// change.
    #[test]
    fn mirrored_kinds_keep_the_cores_words() {
        let p = Keypair::from_secret_bytes(&[7; 32]).player_id();
        for e in [
            EscrowError::ArbiterKey(p),
            EscrowError::MoveTooLong { len: 300 },
            EscrowError::NotTheArbiter(p),
            EscrowError::DoesNotOpen,
        ] {
            assert_eq!(EscrowProblem::of(&e).unwrap().english(), e.to_string());
        }
        for r in [
            CoinRule::NotTheOpponent,
            CoinRule::NoAcceptedCoin,
            CoinRule::NotReceived,
            CoinRule::AlreadySettled,
            CoinRule::NoSuchPosition(999),
        ] {
            assert_eq!(CoinProblem::of(&r).unwrap().english().0, r.to_string());
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
            assert_eq!(LeagueProblem::of(&e).unwrap().english().0, e.to_string());
        }
        for e in [
            DecisionError::AlreadyPlays(p),
            DecisionError::Name,
            DecisionError::Reason,
            DecisionError::NotAPlayer(p),
        ] {
            assert_eq!(
                LeagueProblem::of_decision(&e).unwrap().english().0,
                e.to_string()
            );
        }
        for e in [
            TieBreakError::Unknown("x".into()),
            TieBreakError::Repeated("sb".into()),
            TieBreakError::Count,
        ] {
            assert_eq!(LeagueProblem::of_tie_breaks(&e).english().0, e.to_string());
        }
    }
}
