//! The typed kinds some refusal codes carry, so that a client words the error by its kind
//! and fields instead of the core's English text. The rule, coin and escrow refusals carry
//! the core's own `RuleViolation`, `CoinRule` and `EscrowError` (serde, tagged by `kind`),
//! and the league refusals the core's `LeagueError`, `DecisionError` or `TieBreakError`
//! ([`LeagueRefusal`]), filtered to the kinds a player commonly meets (`coded_*`); the
//! quotas carry the service's own kinds. The others stay uncoded (the message alone says
//! them). Append-only like [`super::RefusalCode`].

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer, Serialize};
use sobre_core::league::LeagueError;
use sobre_core::league::decision::DecisionError;
use sobre_core::league::tiebreak::TieBreakError;
use sobre_core::record::escrow::EscrowError;
use sobre_core::record::verify::RuleViolation;
use sobre_core::rules::adjournment::AdjournmentRule;
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

/// The core's rule violations a player meets when their own event is refused, which a
/// refusal codes: the draws (9.1 to 9.3), the turn (1.1), a game's state and its opening
/// events, an adjourned game's envelope (A2.7, A7), a lost envelope (A11) and a quickplay
/// finish (10.2). The others are refused in the core's words: a peer's record breaking
/// them, or the node's own checks coming first with their own codes (an illegal move is a
/// `bad_move`, the coin's and the escrow's rules their own codes). No `_` arm: a new core
/// rule is coded or not by a decision here.
pub fn coded_rule_violation(rule: &RuleViolation) -> Option<RuleViolation> {
    use AdjournmentRule as A;
    use RuleViolation as V;
    match rule {
        V::NoDrawOffer
        | V::ClaimNotOnMove
        | V::IntendedMoveIllegal
        | V::ClaimWhileAdjourned
        | V::AbortTooLate
        | V::AcceptNotAllowed
        | V::DeclineNotAllowed
        | V::ColoursNotSettled
        | V::OutOfTurn { .. }
        | V::NotLive { .. }
        | V::NoMoveInStatus { .. }
        | V::OpenSealedMoveFirst
        | V::Adjournment(A::BeforeResumption | A::ResponderAbsent)
        | V::A11NeedsAgreedTerms { .. }
        | V::NoSealedMoveToDeclare
        | V::DeclareNotSealer
        | V::AlreadyDeclared
        | V::DeclaredAfterOpening
        | V::UnknownDeclaration
        | V::AcceptDeclarationNotAllowed
        | V::NothingToAnnul
        | V::AnnulNotAllowed
        | V::Quickplay(_) => Some(rule.clone()),
        V::Adjournment(
            A::NoResumptionTime
            | A::ResumptionTooFar
            | A::Correspondence
            | A::NotTheSealer
            | A::ReplyOnlyByResponder
            | A::ReplyBeforeOpening
            | A::ReplyAlreadySealed
            | A::SealerPresent
            | A::ReplyAfterAnswer
            | A::ReplyResumption
            | A::SealerNotArrived,
        )
        | V::SelfChallenge
        | V::TimeControl(_)
        | V::CoinCommitmentMissing
        | V::NoSuchChess960(_)
        | V::StartPosition(_)
        | V::Terms(_)
        | V::EnvelopeLateness { .. }
        | V::ChallengeNotFirst
        | V::AcceptWithoutShare
        | V::NoCoinToOpen
        | V::CoinOpenNotAllowed
        | V::CoinOpeningMismatch
        | V::NoChess960Position(_)
        | V::Coin(_)
        | V::UnseenMove
        | V::IllegalMove { .. }
        | V::DrawTooEarly { .. }
        | V::SealedMoveBinding
        | V::NoEnvelopeToAnswer
        | V::SecondEnvelopeNotResponder
        | V::SealerPresentOpens
        | V::SecondEnvelopeEarly
        | V::CannotSeal(_)
        | V::SealNotOnMove
        | V::EnvelopePlayers
        | V::EnvelopeSealer
        | V::EnvelopePosition { .. }
        | V::EnvelopeMoveNumber
        | V::EnvelopeDrawOffer
        | V::EnvelopeTimes { .. }
        | V::NoEnvelopeToEscrow
        | V::EscrowWrongSeal
        | V::EscrowNotSealer
        | V::EscrowNotBinding
        | V::AlreadyEscrowed
        | V::ArbiterIsPlayer
        | V::ArbiterNotAgreed
        | V::Escrow(_)
        | V::NoEnvelopeToOpen
        | V::OpenNotSealer
        | V::NoSuchSeal
        | V::OpenNotArbiter
        | V::OpeningMismatch
        | V::OpenedOutOfOrder => None,
    }
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

/// The core error a league refusal carries: a league's or a join's ([`LeagueError`]), a
/// decision's ([`DecisionError`]) or a tie-break order's ([`TieBreakError`]). Not a copy of
/// them: each is the core's own, and on the wire the one object tagged by `kind` that the
/// core type writes (the three enums' kinds are distinct; a decision's `not_a_player` is
/// sent as the league's, in the same words). Built by [`coded_league_error`],
/// [`coded_decision_error`] and `From<TieBreakError>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LeagueRefusal {
    League(LeagueError),
    Decision(DecisionError),
    TieBreaks(TieBreakError),
}

/// The core's league errors a player or an organiser meets, which a refusal codes; the
/// others (a document that does not decode or verify, a join of another league…) are
/// refused in the core's words.
pub fn coded_league_error(e: &LeagueError) -> Option<LeagueRefusal> {
    match e {
        LeagueError::PlayerCount { .. }
        | LeagueError::DuplicatePlayer { .. }
        | LeagueError::Names { .. }
        | LeagueError::OrganiserPlays
        | LeagueError::DeputyIsOrganiser
        | LeagueError::DeputyPlays { .. }
        | LeagueError::DeputyWithoutGames
        | LeagueError::BadName
        | LeagueError::StartDeadline { .. }
        | LeagueError::NotAPlayer { .. } => Some(LeagueRefusal::League(e.clone())),
        LeagueError::Codec(_)
        | LeagueError::Version(_)
        | LeagueError::BadSignature(_)
        | LeagueError::NotADefinition
        | LeagueError::TimeControl { .. }
        | LeagueError::OtherLeague { .. }
        | LeagueError::NotAJoin
        | LeagueError::RepeatedRule(_)
        | LeagueError::NoRules => None,
    }
}

/// The core's decision errors an organiser meets, which a refusal codes: a league error
/// inside a decision as [`coded_league_error`] codes it, and a player who is not the
/// league's as the league's `not_a_player` (the wire has one such kind).
pub fn coded_decision_error(e: &DecisionError) -> Option<LeagueRefusal> {
    match e {
        DecisionError::Doc(e) => coded_league_error(e),
        DecisionError::NotAPlayer { player } => {
            Some(LeagueRefusal::League(LeagueError::NotAPlayer {
                player: *player,
            }))
        }
        DecisionError::AlreadyPlays { .. }
        | DecisionError::Name
        | DecisionError::RoundOneStarted { .. }
        | DecisionError::Reason { .. } => Some(LeagueRefusal::Decision(e.clone())),
        DecisionError::NotADecision
        | DecisionError::OtherLeague(_)
        | DecisionError::NotTheOrganiser(_)
        | DecisionError::OrganisersOwnGame { .. }
        | DecisionError::NotTheDeputy(_)
        | DecisionError::DeputyOutsideRemit(_)
        | DecisionError::NotAPairing { .. }
        | DecisionError::WinnerNotInPairing(_)
        | DecisionError::TieBreakOrder => None,
    }
}

/// Every tie-break order the core cannot read is coded.
impl From<TieBreakError> for LeagueRefusal {
    fn from(e: TieBreakError) -> LeagueRefusal {
        LeagueRefusal::TieBreaks(e)
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

    /// Every rule violation a refusal codes, with each state, colour and 10.2 rule.
    fn coded_rules() -> Vec<RuleViolation> {
        use RuleViolation as V;
        use sobre_core::Color;
        use sobre_core::record::Status;
        use sobre_core::rules::quickplay::QuickplayRule as Q;
        let mut rules = vec![
            V::NoDrawOffer,
            V::ClaimNotOnMove,
            V::IntendedMoveIllegal,
            V::ClaimWhileAdjourned,
            V::AbortTooLate,
            V::AcceptNotAllowed,
            V::DeclineNotAllowed,
            V::ColoursNotSettled,
            V::OpenSealedMoveFirst,
            V::Adjournment(AdjournmentRule::BeforeResumption),
            V::Adjournment(AdjournmentRule::ResponderAbsent),
            V::A11NeedsAgreedTerms { version: 2 },
            V::NoSealedMoveToDeclare,
            V::DeclareNotSealer,
            V::AlreadyDeclared,
            V::DeclaredAfterOpening,
            V::UnknownDeclaration,
            V::AcceptDeclarationNotAllowed,
            V::NothingToAnnul,
            V::AnnulNotAllowed,
        ];
        rules.extend(Color::ALL.map(|colour| V::OutOfTurn { colour }));
        for status in [
            Status::Pending,
            Status::Active,
            Status::Adjourned,
            Status::Finished,
            Status::Cancelled,
            Status::Disputed,
        ] {
            rules.push(V::NotLive { status });
            rules.push(V::NoMoveInStatus { status });
        }
        rules.extend(
            [
                Q::NoArbiter,
                Q::NotQuickplayFinish,
                Q::Blitz,
                Q::NotOnMove,
                Q::TimeLeft {
                    remaining_ms: 125_000,
                },
                Q::TimeLeft { remaining_ms: -5 },
                Q::ClaimOpen,
                Q::AwaitingRuling,
                Q::NotTheArbiter,
                Q::NoSuchClaim,
                Q::RulingUnseen,
                Q::AlreadyRuled,
                Q::AlreadyPostponed,
            ]
            .map(V::Quickplay),
        );
        rules
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
        let league = |problem| english(RefusalCode::League { problem });
        for e in [
            LeagueError::PlayerCount { count: 2 },
            LeagueError::DuplicatePlayer { player: p },
            LeagueError::Names {
                names: 2,
                players: 3,
            },
            LeagueError::OrganiserPlays,
            LeagueError::DeputyIsOrganiser,
            LeagueError::DeputyPlays { deputy: p },
            LeagueError::DeputyWithoutGames,
            LeagueError::BadName,
            LeagueError::NotAPlayer { player: p },
        ] {
            assert_eq!(league(coded_league_error(&e)), e.to_string());
        }
        for e in [
            DecisionError::AlreadyPlays { player: p },
            DecisionError::Name,
            DecisionError::Reason {
                max: sobre_core::league::decision::MAX_REASON_CHARS,
            },
            DecisionError::NotAPlayer { player: p },
            DecisionError::Doc(LeagueError::BadName),
        ] {
            assert_eq!(league(coded_decision_error(&e)), e.to_string());
        }
        for rule in coded_rules() {
            let problem = coded_rule_violation(&rule);
            assert_eq!(
                english(RefusalCode::Rule { problem }),
                rule.to_string(),
                "{rule:?}"
            );
        }
        for e in [
            TieBreakError::Unknown { name: "x".into() },
            TieBreakError::Repeated { name: "sb".into() },
            TieBreakError::Count {
                max: sobre_core::league::tiebreak::MAX_TIE_BREAKS,
            },
        ] {
            assert_eq!(league(Some(e.clone().into())), e.to_string());
        }
    }
}
