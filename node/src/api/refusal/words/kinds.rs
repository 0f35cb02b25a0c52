//! The words of the typed kinds some refusal codes carry (rule, escrow, coin, league and
//! quota problems, and where an id was given), in `w`'s language.

use crate::api::refusal::{IdPlace, LeagueRefusal, QuotaProblem};
use crate::words::quoted;
use sobre_core::league::LeagueError;
use sobre_core::league::decision::DecisionError;
use sobre_core::league::tiebreak::TieBreakError;
use sobre_core::record::escrow::EscrowError;
use sobre_core::record::verify::RuleViolation;
use sobre_core::rules::adjournment::AdjournmentRule;
use sobre_core::rules::coin::CoinRule;
use sobre_core::rules::quickplay::QuickplayRule;
use sobre_words::{Words, t};

impl IdPlace {
    /// Where the id was given, as the words before the reason.
    pub fn words(self, w: &Words) -> String {
        place_word(w, self)
    }
}

/// Where an id (or an arbiter's key) was given, as the words before the reason.
pub(super) fn place_word(w: &Words, place: IdPlace) -> String {
    match place {
        IdPlace::Deputy => t!(w, "refusal-place-deputy"),
        IdPlace::Arbiter => t!(w, "refusal-place-arbiter"),
        IdPlace::ArbiterSetting => t!(w, "refusal-place-arbiter-setting"),
        IdPlace::Block => t!(w, "refusal-place-block"),
    }
}

/// "in 3h 20m", "in 42s": how far ahead `at_ms` is from `now`.
pub(super) fn from_now(w: &Words, at_ms: u64, now: u64) -> String {
    let s = at_ms.saturating_sub(now).div_ceil(1000);
    match s {
        0..60 => t!(w, "refusal-in-seconds", s = s),
        60..3600 => t!(w, "refusal-in-minutes", m = s / 60, s = s % 60),
        _ => t!(w, "refusal-in-hours", h = s / 3600, m = s % 3600 / 60),
    }
}

/// The rule the player's event breaks (the core's own violation); `None` for the kinds
/// never sent ([`crate::api::refusal::coded_rule_violation`]): the node's message says them.
pub(super) fn rule_problem(w: &Words, rule: &RuleViolation) -> Option<String> {
    use AdjournmentRule as A;
    use RuleViolation as V;
    Some(match rule {
        V::NoDrawOffer => t!(w, "refusal-no-draw-offer"),
        V::ClaimNotOnMove => t!(w, "refusal-claim-not-on-move"),
        V::IntendedMoveIllegal => t!(w, "refusal-intended-illegal"),
        V::ClaimWhileAdjourned => t!(w, "refusal-claim-adjourned"),
        V::AbortTooLate => t!(w, "refusal-abort-too-late"),
        V::AcceptNotAllowed => t!(w, "refusal-accept-not-allowed"),
        V::DeclineNotAllowed => t!(w, "refusal-decline-not-allowed"),
        V::ColoursNotSettled => t!(w, "refusal-colours-not-settled"),
        V::OutOfTurn { colour } => t!(
            w,
            "refusal-out-of-turn",
            colour = crate::words::colour(w, *colour)
        ),
        V::NotLive { status } => t!(
            w,
            "refusal-not-live",
            status = crate::words::status(w, *status)
        ),
        V::NoMoveInStatus { status } => t!(
            w,
            "refusal-no-move-in-status",
            status = crate::words::status(w, *status)
        ),
        V::OpenSealedMoveFirst => t!(w, "refusal-open-sealed-first"),
        V::Adjournment(A::BeforeResumption) => t!(w, "refusal-before-resumption"),
        V::Adjournment(A::ResponderAbsent) => t!(w, "refusal-responder-absent"),
        V::A11NeedsAgreedTerms { version } => {
            t!(w, "refusal-a11-needs-agreed-terms", version = *version)
        }
        V::NoSealedMoveToDeclare => t!(w, "refusal-no-sealed-move-to-declare"),
        V::DeclareNotSealer => t!(w, "refusal-declare-not-sealer"),
        V::AlreadyDeclared => t!(w, "refusal-already-declared"),
        V::DeclaredAfterOpening => t!(w, "refusal-declared-after-opening"),
        V::UnknownDeclaration => t!(w, "refusal-unknown-declaration"),
        V::AcceptDeclarationNotAllowed => t!(w, "refusal-accept-declaration-not-allowed"),
        V::NothingToAnnul => t!(w, "refusal-nothing-to-annul"),
        V::AnnulNotAllowed => t!(w, "refusal-annul-not-allowed"),
        V::Quickplay(rule) => quickplay(w, *rule),
        // Not sent in a refusal (coded_rule_violation): the node's message says them.
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
        | V::OpenedOutOfOrder => return None,
    })
}

/// A refused 10.2 claim or ruling, in the words of the rule.
fn quickplay(w: &Words, rule: QuickplayRule) -> String {
    match rule {
        QuickplayRule::NoArbiter => t!(w, "refusal-quickplay-no-arbiter"),
        QuickplayRule::NotQuickplayFinish => t!(w, "refusal-quickplay-not-finish"),
        QuickplayRule::Blitz => t!(w, "refusal-quickplay-blitz"),
        QuickplayRule::NotOnMove => t!(w, "refusal-quickplay-not-on-move"),
        QuickplayRule::TimeLeft { remaining_ms } => t!(
            w,
            "refusal-quickplay-time-left",
            left = sobre_core::clock::format_duration(remaining_ms.max(0).unsigned_abs())
        ),
        QuickplayRule::ClaimOpen => t!(w, "refusal-quickplay-claim-open"),
        QuickplayRule::AwaitingRuling => t!(w, "refusal-quickplay-awaiting-ruling"),
        QuickplayRule::NotTheArbiter => t!(w, "refusal-quickplay-not-the-arbiter"),
        QuickplayRule::NoSuchClaim => t!(w, "refusal-quickplay-no-such-claim"),
        QuickplayRule::RulingUnseen => t!(w, "refusal-quickplay-ruling-unseen"),
        QuickplayRule::AlreadyRuled => t!(w, "refusal-quickplay-already-ruled"),
        QuickplayRule::AlreadyPostponed => t!(w, "refusal-quickplay-already-postponed"),
    }
}

/// A3: why an envelope cannot be escrowed or opened from the escrow.
pub(super) fn escrow_problem(w: &Words, e: &EscrowError) -> Option<String> {
    Some(match e {
        EscrowError::ArbiterKey { arbiter } => {
            t!(
                w,
                "refusal-escrow-arbiter-key",
                arbiter = arbiter.to_string()
            )
        }
        EscrowError::MoveTooLong { len, max } => {
            t!(w, "refusal-escrow-move-too-long", len = *len, max = *max)
        }
        EscrowError::NotTheArbiter { arbiter } => {
            t!(
                w,
                "refusal-escrow-not-the-arbiter",
                arbiter = arbiter.to_string()
            )
        }
        EscrowError::DoesNotOpen => t!(w, "refusal-escrow-does-not-open"),
        EscrowError::NotTheSealedMove => t!(w, "refusal-escrow-not-the-sealed-move"),
        // Not sent in a refusal (coded_escrow_error): the node's message says them.
        EscrowError::LowOrder | EscrowError::BoxSize { .. } | EscrowError::Malformed(_) => {
            return None;
        }
    })
}

/// F1: why a coin default is refused, and what to do.
pub(super) fn coin_problem(w: &Words, p: &CoinRule) -> Option<(String, Option<String>)> {
    Some(match p {
        CoinRule::NotTheOpponent => (
            t!(w, "refusal-coin-not-the-opponent"),
            Some(t!(w, "refusal-coin-not-the-opponent-hint")),
        ),
        CoinRule::NoAcceptedCoin => (
            t!(w, "refusal-coin-not-accepted"),
            Some(t!(w, "refusal-coin-not-accepted-hint")),
        ),
        CoinRule::NotReceived => (
            t!(w, "refusal-coin-not-received"),
            Some(t!(w, "refusal-coin-not-received-hint")),
        ),
        CoinRule::AlreadySettled => (t!(w, "refusal-coin-settled"), None),
        CoinRule::NoSuchPosition { position } => (
            t!(w, "refusal-coin-no-such-position", position = *position),
            Some(t!(w, "refusal-coin-no-such-position-hint")),
        ),
        // Not sent in a refusal (coded_coin_rule): the node's message says them.
        CoinRule::BeforeDeadline { .. }
        | CoinRule::ColourMissing
        | CoinRule::ColourNotDrawn
        | CoinRule::PositionMissing
        | CoinRule::PositionNotDrawn => return None,
    })
}

/// Why a league, a join or a decision is refused (the core's own errors); `None` for the
/// kinds never sent (the message says them).
pub(super) fn league_problem(w: &Words, p: &LeagueRefusal) -> Option<(String, Option<String>)> {
    match p {
        LeagueRefusal::League(e) => league_error(w, e),
        LeagueRefusal::Decision(e) => decision_error(w, e),
        LeagueRefusal::TieBreaks(e) => Some((tie_break_error(w, e), None)),
    }
}

fn league_error(w: &Words, e: &LeagueError) -> Option<(String, Option<String>)> {
    Some(match e {
        LeagueError::PlayerCount { count } => {
            (t!(w, "refusal-league-player-count", count = *count), None)
        }
        LeagueError::DuplicatePlayer { player } => (
            t!(
                w,
                "refusal-league-duplicate-player",
                player = player.to_string()
            ),
            None,
        ),
        LeagueError::Names { names, players } => (
            t!(
                w,
                "refusal-league-names",
                names = *names,
                players = *players
            ),
            None,
        ),
        LeagueError::OrganiserPlays => (
            t!(w, "refusal-league-organiser-plays"),
            Some(t!(w, "refusal-league-organiser-plays-hint")),
        ),
        LeagueError::DeputyIsOrganiser => (t!(w, "refusal-league-deputy-is-organiser"), None),
        LeagueError::DeputyPlays { deputy } => (
            t!(
                w,
                "refusal-league-deputy-plays",
                deputy = deputy.to_string()
            ),
            None,
        ),
        LeagueError::DeputyWithoutGames => (
            t!(w, "refusal-league-deputy-without-games"),
            Some(t!(w, "refusal-league-deputy-without-games-hint")),
        ),
        LeagueError::BadName => (t!(w, "refusal-league-bad-name"), None),
        LeagueError::NotAPlayer { player } => (
            t!(
                w,
                "refusal-league-not-a-player",
                player = player.to_string()
            ),
            None,
        ),
        LeagueError::StartDeadline { ms } => {
            (t!(w, "refusal-league-start-deadline", ms = *ms), None)
        }
        LeagueError::Codec(_)
        | LeagueError::Version(_)
        | LeagueError::BadSignature(_)
        | LeagueError::NotADefinition
        | LeagueError::TimeControl { .. }
        | LeagueError::OtherLeague { .. }
        | LeagueError::NotAJoin
        | LeagueError::RepeatedRule(_)
        | LeagueError::NoRules => return None,
    })
}

fn decision_error(w: &Words, e: &DecisionError) -> Option<(String, Option<String>)> {
    Some(match e {
        DecisionError::Doc(e) => return league_error(w, e),
        DecisionError::AlreadyPlays { player } => (
            t!(
                w,
                "refusal-league-already-plays",
                player = player.to_string()
            ),
            None,
        ),
        DecisionError::NotAPlayer { player } => (
            t!(
                w,
                "refusal-league-not-a-player",
                player = player.to_string()
            ),
            None,
        ),
        DecisionError::Name => (t!(w, "refusal-league-player-name"), None),
        DecisionError::RoundOneStarted { start_ms, .. } => (
            t!(
                w,
                "refusal-league-round-one-started",
                at = sobre_core::record::export::iso_utc(*start_ms)
            ),
            None,
        ),
        DecisionError::Reason { max } => (t!(w, "refusal-league-reason", max = *max), None),
        DecisionError::NotADecision
        | DecisionError::OtherLeague(_)
        | DecisionError::NotTheOrganiser(_)
        | DecisionError::OrganisersOwnGame { .. }
        | DecisionError::NotTheDeputy(_)
        | DecisionError::DeputyOutsideRemit(_)
        | DecisionError::NotAPairing { .. }
        | DecisionError::WinnerNotInPairing(_)
        | DecisionError::TieBreakOrder => return None,
    })
}

fn tie_break_error(w: &Words, e: &TieBreakError) -> String {
    match e {
        TieBreakError::Unknown { name } => {
            t!(w, "refusal-league-unknown-tie-break", name = quoted(name))
        }
        TieBreakError::Repeated { name } => {
            t!(w, "refusal-league-repeated-tie-break", name = quoted(name))
        }
        TieBreakError::Count { max } => t!(w, "refusal-league-tie-break-count", max = *max),
    }
}

/// Which of the node's limits on the player's own events a new one would pass.
pub(super) fn quota_problem(w: &Words, p: &QuotaProblem) -> Option<String> {
    Some(match p {
        QuotaProblem::GameEvents { max } => t!(w, "refusal-quota-game-events", max = *max),
        QuotaProblem::GameBytes { max } => t!(w, "refusal-quota-game-bytes", max = *max),
        QuotaProblem::Chat { max } => t!(w, "refusal-quota-chat", max = *max),
        QuotaProblem::ChatRate { max } => t!(w, "refusal-quota-chat-rate", max = *max),
        QuotaProblem::ChatAfterEnd => t!(w, "refusal-quota-chat-after-end"),
        QuotaProblem::Leaves => t!(w, "refusal-quota-leaves"),
        QuotaProblem::Other => return None,
    })
}
