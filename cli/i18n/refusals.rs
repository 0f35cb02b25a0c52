//! The node's refusals in the run's language, worded from their typed code
//! ([`RefusalCode`]) and its fields, never from the node's English message. A refusal
//! without a code, or with one this `sobre` does not know ([`RefusalCode::Other`]), is
//! shown in the node's words.

use crate::t;
use sobre_core::Color;
use sobre_core::record::PlayerId;
use sobre_core::record::Status;
use sobre_core::record::export::iso_utc;
use sobre_core::rules::quickplay::QuickplayRule;
use sobre_node::api::refusal::{BadMoveKind, IdPlace, MovePlace, RefusalCode};

mod kinds;
use kinds::{coin_problem, escrow_problem, from_now, league_problem, place_word, quota_problem};

/// Every state a game can be in, for reading the node's state names back.
const STATUSES: [Status; 6] = [
    Status::Pending,
    Status::Active,
    Status::Adjourned,
    Status::Finished,
    Status::Cancelled,
    Status::Disputed,
];

/// A state the node names (`finished`), in the run's language; an unknown name as it came.
fn status_word(name: &str) -> String {
    STATUSES
        .into_iter()
        .find(|s| s.name() == name)
        .map_or_else(|| name.to_owned(), super::words::status)
}

/// A colour the node names (`white`), in the run's language.
fn colour_word(name: &str) -> String {
    [Color::White, Color::Black]
        .into_iter()
        .find(|c| c.name() == name)
        .map_or_else(|| name.to_owned(), super::words::colour)
}

/// The message and hint of a coded refusal; `None` for [`RefusalCode::Other`].
pub fn refusal(code: &RefusalCode) -> Option<(String, Option<String>)> {
    Some(match code {
        RefusalCode::UnknownGame { prefix } => (
            t!("refusal-unknown-game", prefix = quoted(prefix)),
            Some(t!("refusal-unknown-game-hint")),
        ),
        RefusalCode::AmbiguousGame { prefix, count } => (
            t!(
                "refusal-ambiguous-game",
                prefix = quoted(prefix),
                count = *count
            ),
            Some(t!("refusal-ambiguous-game-hint")),
        ),
        RefusalCode::NoGameId => (t!("refusal-no-game-id"), None),
        RefusalCode::GameNotKept => (t!("refusal-game-not-kept"), None),
        RefusalCode::UnknownLeague { text } => (
            t!("refusal-unknown-league", text = quoted(text)),
            Some(t!("refusal-unknown-league-hint")),
        ),
        RefusalCode::AmbiguousLeague { text, count } => (
            t!(
                "refusal-ambiguous-league",
                text = quoted(text),
                count = *count
            ),
            Some(t!("refusal-ambiguous-league-hint")),
        ),
        RefusalCode::NotInGame => (t!("refusal-not-in-game"), None),
        RefusalCode::GameAdjourned => (
            t!("refusal-game-adjourned"),
            Some(t!("refusal-game-adjourned-hint")),
        ),
        RefusalCode::GameNotStarted => (t!("refusal-game-not-started"), None),
        RefusalCode::GameOver => (t!("refusal-game-over"), None),
        RefusalCode::NotYourMove => (t!("refusal-not-your-move"), None),
        RefusalCode::ChallengeSelf => (t!("refusal-challenge-self"), None),
        RefusalCode::NoChallengeToAccept => (t!("refusal-no-challenge"), None),
        RefusalCode::BadMove {
            text,
            kind,
            reason,
            conditional,
            letters,
            place,
        } => bad_move(text, *kind, reason, *conditional, *letters, *place),
        RefusalCode::NoDrawOffer => (t!("refusal-no-draw-offer"), None),
        RefusalCode::ClaimNotOnMove => (t!("refusal-claim-not-on-move"), None),
        RefusalCode::IntendedMoveIllegal => (t!("refusal-intended-illegal"), None),
        RefusalCode::ClaimWhileAdjourned => (t!("refusal-claim-adjourned"), None),
        RefusalCode::AbortTooLate => (t!("refusal-abort-too-late"), None),
        RefusalCode::AcceptNotAllowed => (t!("refusal-accept-not-allowed"), None),
        RefusalCode::DeclineNotAllowed => (t!("refusal-decline-not-allowed"), None),
        RefusalCode::ColoursNotSettled => (t!("refusal-colours-not-settled"), None),
        RefusalCode::OutOfTurn { colour } => (
            t!("refusal-out-of-turn", colour = colour_word(colour)),
            None,
        ),
        RefusalCode::NotLive { status } => {
            (t!("refusal-not-live", status = status_word(status)), None)
        }
        RefusalCode::NoMoveInStatus { status } => (
            t!("refusal-no-move-in-status", status = status_word(status)),
            None,
        ),
        RefusalCode::OpenSealedMoveFirst => (t!("refusal-open-sealed-first"), None),
        RefusalCode::NoLeaveInProgress => (t!("refusal-no-leave"), None),
        RefusalCode::NotLeaguePlayer => (t!("refusal-not-league-player"), None),
        RefusalCode::NotLeagueOrganiser { organiser, deputy } => (
            match deputy {
                Some(d) => t!(
                    "refusal-not-organiser-deputy",
                    organiser = organiser.as_str(),
                    deputy = d.as_str()
                ),
                None => t!("refusal-not-organiser", organiser = organiser.as_str()),
            },
            None,
        ),
        RefusalCode::ResumptionMissing => (
            t!("refusal-resumption-missing"),
            Some(t!("refusal-resumption-missing-hint")),
        ),
        RefusalCode::ResumptionPast => (
            t!("refusal-resumption-past"),
            Some(t!("refusal-resumption-past-hint")),
        ),
        RefusalCode::ConditionalOnYourMove => (t!("refusal-conditional-your-move"), None),
        RefusalCode::ConditionalTooShort => (t!("refusal-conditional-short"), None),
        RefusalCode::ConditionalNoLine => (t!("refusal-conditional-no-line"), None),
        RefusalCode::ChatTooLong => (t!("refusal-chat-too-long"), None),
        RefusalCode::BlockSelf => (t!("refusal-block-self"), None),
        RefusalCode::ColoursFixed => (
            t!("refusal-colours-fixed"),
            Some(t!("refusal-colours-fixed-hint")),
        ),
        RefusalCode::StartFixed => (
            t!("refusal-start-fixed"),
            Some(t!("refusal-start-fixed-hint")),
        ),
        RefusalCode::AbortWithholdsCoin => (
            t!("refusal-abort-coin"),
            Some(t!("refusal-abort-coin-hint")),
        ),
        // The core's typed error, read again from the same text: worded by its variant.
        RefusalCode::BadPlayerId { text } => {
            let e = text.parse::<sobre_core::record::PlayerId>().err()?;
            (super::errors::player_id(&e), None)
        }
        RefusalCode::BadTimeControl { text } => {
            let e = text.parse::<sobre_core::clock::TimeControl>().err()?;
            (super::errors::time_control(&e), None)
        }
        RefusalCode::AdjournCorrespondence => (
            t!("refusal-adjourn-correspondence"),
            Some(t!("refusal-adjourn-correspondence-hint")),
        ),
        RefusalCode::ResumptionTooFar => (
            t!("refusal-resumption-too-far"),
            Some(t!("refusal-resumption-too-far-hint")),
        ),
        RefusalCode::ResumptionNotice { notice } => (
            t!("refusal-resumption-notice", notice = notice.clone()),
            Some(t!("refusal-resumption-notice-hint")),
        ),
        RefusalCode::BeforeResumption => (t!("refusal-before-resumption"), None),
        RefusalCode::ResponderAbsent => (t!("refusal-responder-absent"), None),

        RefusalCode::NoEnvelope => (t!("refusal-no-envelope"), None),
        RefusalCode::EnvelopeInNobodysKeeping => (t!("refusal-envelope-unkept"), None),
        RefusalCode::NotTheEnvelopesArbiter { arbiter } => (
            t!("refusal-not-envelope-arbiter", arbiter = arbiter.as_str()),
            None,
        ),
        RefusalCode::EnvelopeGameNotAdjourned => (t!("refusal-envelope-not-adjourned"), None),
        RefusalCode::EnvelopeTooEarly { at_ms } => (
            t!(
                "refusal-envelope-too-early",
                at = at_ms.map_or_else(|| t!("refusal-agreed-time"), iso_utc)
            ),
            Some(t!("refusal-envelope-too-early-hint")),
        ),
        RefusalCode::EnvelopeResponderAbsent => (
            t!("refusal-envelope-responder-absent"),
            Some(t!("refusal-envelope-responder-absent-hint")),
        ),
        RefusalCode::NotTheSealer => (t!("refusal-not-the-sealer"), None),
        RefusalCode::ArbiterKeepsOpening { arbiter } => (
            t!("refusal-arbiter-keeps-opening", arbiter = arbiter.as_str()),
            Some(t!("refusal-arbiter-keeps-opening-hint")),
        ),
        RefusalCode::Escrow { problem, place } => {
            let words = escrow_problem(problem)?;
            (
                match place {
                    Some(place) => t!("refusal-at", place = place_word(*place), reason = words),
                    None => words,
                },
                None,
            )
        }
        RefusalCode::ReplyKeepsResumption => (
            t!("refusal-reply-keeps-resumption"),
            Some(t!("refusal-reply-keeps-resumption-hint")),
        ),
        RefusalCode::SealedMoveNotUnique { text, reason } => (
            t!(
                "refusal-sealed-not-unique",
                text = quoted(text),
                reason = reason.as_str()
            ),
            Some(t!("refusal-sealed-not-unique-hint")),
        ),
        RefusalCode::EscrowedMoveTooLong { max } => {
            (t!("refusal-escrowed-move-too-long", max = *max), None)
        }
        RefusalCode::ArbiterIsPlayer => (
            t!("refusal-arbiter-is-player"),
            Some(t!("refusal-arbiter-is-player-hint")),
        ),
        RefusalCode::ArbiterNotAgreed { agreed } => (
            match agreed {
                Some(a) => t!("refusal-arbiter-not-agreed", arbiter = a.clone()),
                None => t!("refusal-arbiter-none-agreed"),
            },
            Some(t!("refusal-arbiter-not-agreed-hint")),
        ),
        // The core's typed error, read again from the same text: worded by its variant.
        RefusalCode::PlayerIdAt { place, text } => {
            let reason = super::errors::player_id(&text.parse::<PlayerId>().err()?);
            let m = match place {
                IdPlace::Block => t!("refusal-id-block", text = quoted(text), reason = reason),
                other => t!("refusal-at", place = place_word(*other), reason = reason),
            };
            (m, None)
        }
        RefusalCode::LeaguePlayerNeeded => (t!("refusal-league-player-needed"), None),
        RefusalCode::LeagueEntrantNeeded => (t!("refusal-league-entrant-needed"), None),
        RefusalCode::NotALeaguePlayer { player, league } => (
            t!(
                "refusal-not-a-league-player",
                player = player.as_str(),
                league = league.as_str()
            ),
            None,
        ),
        RefusalCode::NoGameInRound { player, round } => (
            t!(
                "refusal-no-game-in-round",
                player = player.as_str(),
                round = *round
            ),
            None,
        ),
        RefusalCode::RoundNeeded => (t!("refusal-round-needed"), None),
        RefusalCode::ResultNeeded => (t!("refusal-result-needed"), None),
        RefusalCode::WithdrawalRuleNeeded => (t!("refusal-withdrawal-rule-needed"), None),
        RefusalCode::TooManyDecisions => (t!("refusal-too-many-decisions"), None),
        RefusalCode::League { problem } => league_problem(problem)?,
        RefusalCode::CoinRule { problem } => coin_problem(problem)?,
        RefusalCode::CoinBeforeDeadline {
            deadline_ms,
            now_ms,
            manual,
        } => (
            t!(
                "refusal-coin-before-deadline",
                at = iso_utc(*deadline_ms),
                left = from_now(*deadline_ms, *now_ms)
            ),
            Some(if *manual {
                t!("refusal-coin-before-deadline-hint-manual")
            } else {
                t!("refusal-coin-before-deadline-hint")
            }),
        ),
        RefusalCode::BadMultiaddr { text, reason } => (
            t!(
                "refusal-bad-multiaddr",
                text = quoted(text),
                reason = reason.as_str()
            ),
            None,
        ),
        RefusalCode::AddrWithoutPeer { text } => {
            (t!("refusal-addr-without-peer", text = text.as_str()), None)
        }
        RefusalCode::CannotReach { addr, reason } => (
            t!(
                "refusal-cannot-reach",
                addr = addr.as_str(),
                reason = reason.as_str()
            ),
            None,
        ),
        RefusalCode::MalformedFen { fen } => {
            let e = sobre_core::Position::from_fen_auto(fen).err()?;
            (
                t!("refusal-malformed-fen", reason = super::errors::fen(&e)),
                None,
            )
        }
        RefusalCode::GameRestoring { game } => (
            t!("refusal-game-restoring", game = game.as_str()),
            Some(t!("refusal-game-restoring-hint")),
        ),
        RefusalCode::Quota { problem } => (quota_problem(problem)?, None),
        RefusalCode::BadRequest { reason } => {
            (t!("refusal-bad-request", reason = reason.as_str()), None)
        }
        RefusalCode::RequestTooLong { max } => (t!("refusal-request-too-long", max = *max), None),
        RefusalCode::RequestNotObject => (t!("refusal-request-not-object"), None),
        RefusalCode::ApiVersionMissing { version } => {
            (t!("refusal-api-version-missing", version = *version), None)
        }
        RefusalCode::ApiVersionUnsupported { given, version } => (
            t!(
                "refusal-api-version-unsupported",
                given = given.as_str(),
                version = *version
            ),
            Some(t!("refusal-api-version-unsupported-hint")),
        ),
        RefusalCode::ReplacedPlayerNeeded => (
            t!("refusal-league-player-needed"),
            Some(t!("refusal-replaced-player-needed-hint")),
        ),
        RefusalCode::A11NeedsAgreedTerms { version } => (
            t!("refusal-a11-needs-agreed-terms", version = *version),
            None,
        ),
        RefusalCode::NoSealedMoveToDeclare => (t!("refusal-no-sealed-move-to-declare"), None),
        RefusalCode::DeclareNotSealer => (t!("refusal-declare-not-sealer"), None),
        RefusalCode::AlreadyDeclared => (t!("refusal-already-declared"), None),
        RefusalCode::DeclaredAfterOpening => (t!("refusal-declared-after-opening"), None),
        RefusalCode::UnknownDeclaration => (t!("refusal-unknown-declaration"), None),
        RefusalCode::AcceptDeclarationNotAllowed => {
            (t!("refusal-accept-declaration-not-allowed"), None)
        }
        RefusalCode::NothingToAnnul => (t!("refusal-nothing-to-annul"), None),
        RefusalCode::AnnulNotAllowed => (t!("refusal-annul-not-allowed"), None),
        RefusalCode::NoDeclaredMove => (
            t!("refusal-no-declared-move"),
            Some(t!("refusal-no-declared-move-hint")),
        ),
        RefusalCode::AnnulAlreadyAsked => (t!("refusal-annul-already-asked"), None),
        RefusalCode::Quickplay { rule } => (quickplay(*rule), None),
        RefusalCode::Other => return None,
    })
}

/// A refused 10.2 claim or ruling, in the words of the rule.
fn quickplay(rule: QuickplayRule) -> String {
    match rule {
        QuickplayRule::NoArbiter => t!("refusal-quickplay-no-arbiter"),
        QuickplayRule::NotQuickplayFinish => t!("refusal-quickplay-not-finish"),
        QuickplayRule::Blitz => t!("refusal-quickplay-blitz"),
        QuickplayRule::NotOnMove => t!("refusal-quickplay-not-on-move"),
        QuickplayRule::TimeLeft { remaining_ms } => t!(
            "refusal-quickplay-time-left",
            left = sobre_core::clock::format_duration(remaining_ms.max(0).unsigned_abs())
        ),
        QuickplayRule::ClaimOpen => t!("refusal-quickplay-claim-open"),
        QuickplayRule::AwaitingRuling => t!("refusal-quickplay-awaiting-ruling"),
        QuickplayRule::NotTheArbiter => t!("refusal-quickplay-not-the-arbiter"),
        QuickplayRule::NoSuchClaim => t!("refusal-quickplay-no-such-claim"),
        QuickplayRule::RulingUnseen => t!("refusal-quickplay-ruling-unseen"),
        QuickplayRule::AlreadyRuled => t!("refusal-quickplay-already-ruled"),
        QuickplayRule::AlreadyPostponed => t!("refusal-quickplay-already-postponed"),
    }
}

fn quoted(s: &str) -> String {
    format!("{s:?}")
}

/// A move the node could not read as one legal move (FIDE 3.10, App. E). The reader's
/// detail (`reason`) is the core's English: the Spanish words leave it out.
fn bad_move(
    text: &str,
    kind: BadMoveKind,
    reason: &str,
    conditional: Option<usize>,
    letters: bool,
    place: MovePlace,
) -> (String, Option<String>) {
    let line = match kind {
        BadMoveKind::Syntax => t!("refusal-move-syntax", text = text, reason = reason),
        BadMoveKind::Illegal => t!("refusal-move-illegal", text = text, reason = reason),
        BadMoveKind::Ambiguous => t!("refusal-move-ambiguous", text = text, reason = reason),
    };
    let context = match (place, conditional) {
        (MovePlace::Sealed, _) => Some(t!("refusal-move-sealed")),
        (MovePlace::Intended, _) => Some(t!("refusal-move-intended")),
        (MovePlace::Played, Some(n)) => Some(t!("refusal-move-conditional", n = n)),
        (MovePlace::Played, None) => None,
    };
    let message = match context {
        Some(context) => t!("refusal-move-in", context = context, line = line),
        None => line,
    };
    let hint = match (kind, letters) {
        (BadMoveKind::Ambiguous, true) => t!("refusal-move-hint-letters"),
        (BadMoveKind::Ambiguous, false) => t!("refusal-move-hint-origin"),
        _ => t!("refusal-move-hint"),
    };
    (message, Some(hint))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Language, with_lang};
    use sobre_core::record::verify::RuleViolation;
    use sobre_core::{Position, notation};
    use sobre_node::api::refusal::{CoinProblem, EscrowProblem, LeagueProblem, QuotaProblem};

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
            RefusalCode::BeforeResumption,
            RefusalCode::ResponderAbsent,
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
        for rule in [
            RuleViolation::NoDrawOffer,
            RuleViolation::ClaimNotOnMove,
            RuleViolation::IntendedMoveIllegal,
            RuleViolation::ClaimWhileAdjourned,
            RuleViolation::AbortTooLate,
            RuleViolation::AcceptNotAllowed,
            RuleViolation::DeclineNotAllowed,
            RuleViolation::ColoursNotSettled,
            RuleViolation::OutOfTurn(Color::White),
            RuleViolation::NotLive(Status::Finished),
            RuleViolation::NoMoveInStatus(Status::Cancelled),
            RuleViolation::OpenSealedMoveFirst,
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
        for problem in [
            EscrowProblem::ArbiterKey {
                arbiter: id.clone(),
            },
            EscrowProblem::MoveTooLong { len: 300, max: 256 },
            EscrowProblem::NotTheArbiter {
                arbiter: id.clone(),
            },
            EscrowProblem::DoesNotOpen,
            EscrowProblem::NotTheSealedMove,
        ] {
            codes.push(RefusalCode::Escrow {
                problem: problem.clone(),
                place: None,
            });
            codes.push(RefusalCode::Escrow {
                problem,
                place: Some(IdPlace::ArbiterSetting),
            });
        }
        for problem in [
            LeagueProblem::PlayerCount { count: 2 },
            LeagueProblem::DuplicatePlayer { player: id.clone() },
            LeagueProblem::Names {
                names: 2,
                players: 3,
            },
            LeagueProblem::OrganiserPlays,
            LeagueProblem::DeputyIsOrganiser,
            LeagueProblem::DeputyPlays { deputy: id.clone() },
            LeagueProblem::DeputyWithoutGames,
            LeagueProblem::BadName,
            LeagueProblem::NotAPlayer { player: id.clone() },
            LeagueProblem::AlreadyPlays { player: id.clone() },
            LeagueProblem::PlayerName,
            LeagueProblem::RoundOneStarted { start_ms: 1 },
            LeagueProblem::StartDeadline { ms: 0 },
            LeagueProblem::Reason { max: 200 },
            LeagueProblem::UnknownTieBreak { name: "x".into() },
            LeagueProblem::RepeatedTieBreak { name: "sb".into() },
            LeagueProblem::TieBreakCount { max: 8 },
        ] {
            codes.push(RefusalCode::League { problem });
        }
        for problem in [
            CoinProblem::NotTheOpponent,
            CoinProblem::NoAcceptedCoin,
            CoinProblem::NotReceived,
            CoinProblem::AlreadySettled,
            CoinProblem::NoSuchPosition { position: 999 },
        ] {
            codes.push(RefusalCode::CoinRule { problem });
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

    /// In English a coded refusal reads exactly as the node words it: the English output
    /// does not change.
    #[test]
    fn english_refusals_are_the_nodes_words() {
        for code in samples() {
            let en = with_lang(Language::English, || refusal(&code)).expect("a known code");
            assert_eq!(en, code.english(), "{code:?}");
        }
    }

    /// In Spanish every coded refusal is translated, message and hint.
    #[test]
    fn spanish_refusals_are_translated() {
        for code in samples() {
            let (en, en_hint) = code.english();
            let (es, es_hint) =
                with_lang(Language::Spanish, || refusal(&code)).expect("a known code");
            assert_ne!(es, en, "{code:?} is not translated");
            assert_eq!(es_hint.is_some(), en_hint.is_some(), "{code:?}");
            if let (Some(h), Some(e)) = (es_hint, en_hint) {
                assert_ne!(h, e, "the hint of {code:?} is not translated");
            }
        }
        let es = |c: RefusalCode| with_lang(Language::Spanish, || refusal(&c)).unwrap().0;
        assert_eq!(es(RefusalCode::NotYourMove), "no le toca mover");
        assert_eq!(
            es(RefusalCode::NotLive {
                status: "finished".into()
            }),
            "no es posible en una partida terminada"
        );
    }

    /// A code from a newer node is shown in the node's words, and so is a text the core
    /// of this `sobre` reads differently from the node's (another version).
    #[test]
    fn an_unknown_code_is_not_worded() {
        assert_eq!(refusal(&RefusalCode::Other), None);
        for code in [
            RefusalCode::Escrow {
                problem: EscrowProblem::Other,
                place: None,
            },
            RefusalCode::League {
                problem: LeagueProblem::Other,
            },
            RefusalCode::CoinRule {
                problem: CoinProblem::Other,
            },
            RefusalCode::Quota {
                problem: QuotaProblem::Other,
            },
        ] {
            assert_eq!(refusal(&code), None, "{code:?}");
        }
        let fine = RefusalCode::BadTimeControl { text: "3d".into() };
        assert_eq!(refusal(&fine), None);
    }
}
