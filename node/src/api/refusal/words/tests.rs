//! Every refusal code is worded in both languages, and a newer node's is left to its
//! message.

use super::*;
use crate::api::refusal::{LeagueRefusal, QuotaProblem};
use sobre_core::Color;
use sobre_core::league::LeagueError;
use sobre_core::league::decision::DecisionError;
use sobre_core::league::tiebreak::TieBreakError;
use sobre_core::record::Status;
use sobre_core::record::escrow::EscrowError;
use sobre_core::record::verify::RuleViolation;
use sobre_core::rules::adjournment::AdjournmentRule;
use sobre_core::rules::coin::CoinRule;
use sobre_core::rules::quickplay::QuickplayRule;
use sobre_core::{Position, notation};
use sobre_words::{Language, words};

fn english(code: &RefusalCode) -> Option<(String, Option<String>)> {
    code.words(words(Language::English))
}

fn spanish(code: &RefusalCode) -> Option<(String, Option<String>)> {
    code.words(words(Language::Spanish))
}

/// One refusal of each code, with the fields a player meets.
fn samples() -> Vec<RefusalCode> {
    let pos = Position::new();
    let read = |text: &str| notation::parse_move(&pos, text, sobre_core::Lang::Auto);
    let illegal = read("e5").unwrap_err();
    let syntax = read("zz9").unwrap_err();
    let mut codes = vec![
        RefusalCode::UnknownGame {
            prefix: "3f2a".into(),
        },
        RefusalCode::AmbiguousGame {
            prefix: "3".into(),
            count: 2,
        },
        RefusalCode::NoGameId,
        RefusalCode::GameNotKept,
        RefusalCode::UnknownLeague {
            text: "Club".into(),
        },
        RefusalCode::AmbiguousLeague {
            text: "a".into(),
            count: 3,
        },
        RefusalCode::NotInGame,
        RefusalCode::GameAdjourned,
        RefusalCode::GameNotStarted,
        RefusalCode::GameOver,
        RefusalCode::NotYourMove,
        RefusalCode::ChallengeSelf,
        RefusalCode::NoChallengeToAccept,
        RefusalCode::NoLeaveInProgress,
        RefusalCode::NotLeaguePlayer,
        RefusalCode::NotLeagueOrganiser {
            organiser: "12D3KooWA".into(),
            deputy: None,
        },
        RefusalCode::NotLeagueOrganiser {
            organiser: "12D3KooWA".into(),
            deputy: Some("12D3KooWB".into()),
        },
        RefusalCode::ResumptionMissing,
        RefusalCode::ResumptionPast,
        RefusalCode::ConditionalOnYourMove,
        RefusalCode::ConditionalTooShort,
        RefusalCode::ConditionalNoLine,
        RefusalCode::ChatTooLong,
        RefusalCode::BlockSelf,
        RefusalCode::ColoursFixed,
        RefusalCode::StartFixed,
        RefusalCode::AbortWithholdsCoin,
        RefusalCode::AdjournCorrespondence,
        RefusalCode::ResumptionTooFar,
        RefusalCode::ResumptionNotice {
            notice: "10m".into(),
        },
        RefusalCode::BadPlayerId { text: "ana".into() },
        RefusalCode::BadTimeControl {
            text: "0/50d".into(),
        },
        RefusalCode::bad_move(&illegal, MovePlace::Played, None),
        RefusalCode::bad_move(&syntax, MovePlace::Played, Some(2)),
        RefusalCode::bad_move(&illegal, MovePlace::Sealed, None),
        RefusalCode::bad_move(&illegal, MovePlace::Intended, None),
        RefusalCode::BadMove {
            text: "Rd1".into(),
            kind: BadMoveKind::Ambiguous,
            reason: "two readings".into(),
            conditional: None,
            letters: true,
            place: MovePlace::Played,
        },
        RefusalCode::BadMove {
            text: "Nd7".into(),
            kind: BadMoveKind::Ambiguous,
            reason: "two knights".into(),
            conditional: None,
            letters: false,
            place: MovePlace::Played,
        },
    ];
    codes.extend(newer_samples());
    codes.extend(board_samples());
    for rule in [
        RuleViolation::NoDrawOffer,
        RuleViolation::ClaimNotOnMove,
        RuleViolation::IntendedMoveIllegal,
        RuleViolation::ClaimWhileAdjourned,
        RuleViolation::AbortTooLate,
        RuleViolation::AcceptNotAllowed,
        RuleViolation::DeclineNotAllowed,
        RuleViolation::ColoursNotSettled,
        RuleViolation::OutOfTurn {
            colour: Color::White,
        },
        RuleViolation::NotLive {
            status: Status::Finished,
        },
        RuleViolation::NoMoveInStatus {
            status: Status::Cancelled,
        },
        RuleViolation::OpenSealedMoveFirst,
        RuleViolation::Adjournment(AdjournmentRule::BeforeResumption),
        RuleViolation::Adjournment(AdjournmentRule::ResponderAbsent),
        RuleViolation::A11NeedsAgreedTerms { version: 2 },
        RuleViolation::NoSealedMoveToDeclare,
        RuleViolation::DeclareNotSealer,
        RuleViolation::AlreadyDeclared,
        RuleViolation::DeclaredAfterOpening,
        RuleViolation::UnknownDeclaration,
        RuleViolation::AcceptDeclarationNotAllowed,
        RuleViolation::NothingToAnnul,
        RuleViolation::AnnulNotAllowed,
        RuleViolation::Quickplay(QuickplayRule::NoArbiter),
        RuleViolation::Quickplay(QuickplayRule::NotQuickplayFinish),
        RuleViolation::Quickplay(QuickplayRule::Blitz),
        RuleViolation::Quickplay(QuickplayRule::NotOnMove),
        RuleViolation::Quickplay(QuickplayRule::TimeLeft {
            remaining_ms: 125_000,
        }),
        RuleViolation::Quickplay(QuickplayRule::ClaimOpen),
        RuleViolation::Quickplay(QuickplayRule::AwaitingRuling),
        RuleViolation::Quickplay(QuickplayRule::NotTheArbiter),
        RuleViolation::Quickplay(QuickplayRule::NoSuchClaim),
        RuleViolation::Quickplay(QuickplayRule::RulingUnseen),
        RuleViolation::Quickplay(QuickplayRule::AlreadyRuled),
        RuleViolation::Quickplay(QuickplayRule::AlreadyPostponed),
    ] {
        codes.push(RefusalCode::of_rule(&rule).expect("a coded rule"));
    }
    codes
}

/// One refusal of each code for envelopes, arbiters, league decisions, coin defaults,
/// addresses and quotas (every kind of their typed problems).
fn newer_samples() -> Vec<RefusalCode> {
    let id = "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN".to_owned();
    let player: sobre_core::record::PlayerId = id.parse().expect("a player id");
    let mut codes = vec![
        RefusalCode::NoEnvelope,
        RefusalCode::EnvelopeInNobodysKeeping,
        RefusalCode::NotTheEnvelopesArbiter {
            arbiter: id.clone(),
        },
        RefusalCode::EnvelopeGameNotAdjourned,
        RefusalCode::EnvelopeTooEarly {
            at_ms: Some(1_780_000_000_000),
        },
        RefusalCode::EnvelopeTooEarly { at_ms: None },
        RefusalCode::EnvelopeResponderAbsent,
        RefusalCode::NotTheSealer,
        RefusalCode::ArbiterKeepsOpening {
            arbiter: id.clone(),
        },
        RefusalCode::ReplyKeepsResumption,
        RefusalCode::SealedMoveNotUnique {
            text: "Qh9".into(),
            reason: "no such square".into(),
        },
        RefusalCode::EscrowedMoveTooLong { max: 256 },
        RefusalCode::ArbiterIsPlayer,
        RefusalCode::ArbiterNotAgreed {
            agreed: Some("12D3KooWA".into()),
        },
        RefusalCode::ArbiterNotAgreed { agreed: None },
        RefusalCode::LeaguePlayerNeeded,
        RefusalCode::LeagueEntrantNeeded,
        RefusalCode::ReplacedPlayerNeeded,
        RefusalCode::NotALeaguePlayer {
            player: id.clone(),
            league: "Club".into(),
        },
        RefusalCode::NoGameInRound {
            player: "Ana".into(),
            round: 3,
        },
        RefusalCode::RoundNeeded,
        RefusalCode::ResultNeeded,
        RefusalCode::WithdrawalRuleNeeded,
        RefusalCode::TooManyDecisions,
        RefusalCode::CoinBeforeDeadline {
            deadline_ms: 1_780_000_000_000,
            now_ms: 1_780_000_000_000 - 12_000_000,
            manual: false,
        },
        RefusalCode::CoinBeforeDeadline {
            deadline_ms: 1_780_000_000_000,
            now_ms: 1_780_000_000_000 - 42_000,
            manual: true,
        },
        RefusalCode::CoinBeforeDeadline {
            deadline_ms: 1_780_000_000_000,
            now_ms: 1_780_000_000_000 - 200_000,
            manual: true,
        },
        RefusalCode::BadMultiaddr {
            text: "/ip9/x".into(),
            reason: "invalid multiaddr".into(),
        },
        RefusalCode::AddrWithoutPeer {
            text: "/ip4/127.0.0.1/tcp/4001".into(),
        },
        RefusalCode::CannotReach {
            addr: "/ip4/127.0.0.1/tcp/4001".into(),
            reason: "connection refused".into(),
        },
        RefusalCode::MalformedFen {
            fen: "8/8/8 w".into(),
        },
        RefusalCode::GameRestoring {
            game: "3f2a".into(),
        },
        RefusalCode::BadRequest {
            reason: "expected value at line 1 column 2".into(),
        },
        RefusalCode::RequestTooLong { max: 1_048_576 },
        RefusalCode::RequestNotObject,
        RefusalCode::ApiVersionMissing { version: 1 },
        RefusalCode::NoDeclaredMove,
        RefusalCode::AnnulAlreadyAsked,
        RefusalCode::ApiVersionUnsupported {
            given: "2".into(),
            version: 1,
        },
    ];
    for place in [
        IdPlace::Deputy,
        IdPlace::Arbiter,
        IdPlace::ArbiterSetting,
        IdPlace::Block,
    ] {
        codes.push(RefusalCode::PlayerIdAt {
            place,
            text: "ana".into(),
        });
    }
    let arbiter: sobre_core::record::PlayerId = id.parse().unwrap();
    for problem in [
        EscrowError::ArbiterKey { arbiter },
        EscrowError::MoveTooLong { len: 300, max: 256 },
        EscrowError::NotTheArbiter { arbiter },
        EscrowError::DoesNotOpen,
        EscrowError::NotTheSealedMove,
    ] {
        codes.push(RefusalCode::Escrow {
            problem: Some(problem.clone()),
            place: None,
        });
        codes.push(RefusalCode::Escrow {
            problem: Some(problem),
            place: Some(IdPlace::ArbiterSetting),
        });
    }
    for problem in [
        LeagueRefusal::League(LeagueError::PlayerCount { count: 2 }),
        LeagueRefusal::League(LeagueError::DuplicatePlayer { player }),
        LeagueRefusal::League(LeagueError::Names {
            names: 2,
            players: 3,
        }),
        LeagueRefusal::League(LeagueError::OrganiserPlays),
        LeagueRefusal::League(LeagueError::DeputyIsOrganiser),
        LeagueRefusal::League(LeagueError::DeputyPlays { deputy: player }),
        LeagueRefusal::League(LeagueError::DeputyWithoutGames),
        LeagueRefusal::League(LeagueError::BadName),
        LeagueRefusal::League(LeagueError::NotAPlayer { player }),
        LeagueRefusal::Decision(DecisionError::AlreadyPlays { player }),
        LeagueRefusal::Decision(DecisionError::Name),
        LeagueRefusal::Decision(DecisionError::RoundOneStarted {
            signed_ms: 0,
            start_ms: 1,
        }),
        LeagueRefusal::League(LeagueError::StartDeadline { ms: 0 }),
        LeagueRefusal::Decision(DecisionError::Reason { max: 200 }),
        LeagueRefusal::TieBreaks(TieBreakError::Unknown { name: "x".into() }),
        LeagueRefusal::TieBreaks(TieBreakError::Repeated { name: "sb".into() }),
        LeagueRefusal::TieBreaks(TieBreakError::Count { max: 8 }),
    ] {
        codes.push(RefusalCode::League {
            problem: Some(problem),
        });
    }
    for problem in [
        CoinRule::NotTheOpponent,
        CoinRule::NoAcceptedCoin,
        CoinRule::NotReceived,
        CoinRule::AlreadySettled,
        CoinRule::NoSuchPosition { position: 999 },
    ] {
        codes.push(RefusalCode::CoinRule {
            problem: Some(problem),
        });
    }
    for problem in [
        QuotaProblem::GameEvents { max: 10_000 },
        QuotaProblem::GameBytes { max: 4_000_000 },
        QuotaProblem::Chat { max: 500 },
        QuotaProblem::ChatRate { max: 60 },
        QuotaProblem::ChatAfterEnd,
        QuotaProblem::Leaves,
    ] {
        codes.push(RefusalCode::Quota { problem });
    }
    codes
}

/// In Spanish every coded refusal is translated, message and hint.
#[test]
fn spanish_refusals_are_translated() {
    for code in samples() {
        let (en, en_hint) = english(&code).expect("a known code");
        let (es, es_hint) = spanish(&code).expect("a known code");
        assert_ne!(es, en, "{code:?} is not translated");
        assert_eq!(es_hint.is_some(), en_hint.is_some(), "{code:?}");
        if let (Some(h), Some(e)) = (es_hint, en_hint) {
            assert_ne!(h, e, "the hint of {code:?} is not translated");
        }
    }
    let es = |c: RefusalCode| spanish(&c).unwrap().0;
    assert_eq!(es(RefusalCode::NotYourMove), "no le toca mover");
    assert_eq!(
        es(RefusalCode::Rule {
            problem: Some(RuleViolation::NotLive {
                status: Status::Finished
            })
        }),
        "no es posible en una partida terminada"
    );
}

/// A code from a newer node is shown in the node's words, and so is a text the core
/// of this `sobre` reads differently from the node's (another version).
#[test]
fn an_unknown_code_is_not_worded() {
    assert_eq!(english(&RefusalCode::Other), None);
    for code in [
        RefusalCode::Escrow {
            problem: None,
            place: None,
        },
        RefusalCode::League { problem: None },
        RefusalCode::CoinRule { problem: None },
        RefusalCode::Rule { problem: None },
        RefusalCode::Quota {
            problem: QuotaProblem::Other,
        },
    ] {
        assert_eq!(english(&code), None, "{code:?}");
    }
    let fine = RefusalCode::BadTimeControl { text: "3d".into() };
    assert_eq!(english(&fine), None);
}

/// One refusal of each of the board's codes.
fn board_samples() -> Vec<RefusalCode> {
    vec![
        RefusalCode::BoardNotServed {
            port: 8765,
            reason: "Address already in use (os error 98)".into(),
        },
        RefusalCode::BadInvite {
            reason: "the invite is cut short (in its key)".into(),
        },
        RefusalCode::OwnInvite,
        RefusalCode::WatchOnBoard,
    ]
}
