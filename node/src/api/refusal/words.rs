//! Each refusal's words, in any language, from sobre's one catalogue ([`sobre_words`], the
//! `refusal-*` messages): the node's English message on the wire and the CLI's words in
//! the player's language are the same sentence, worded from the code and its fields (never
//! from a message). The words of the typed kinds some codes carry are in [`kinds`].

use super::{BadMoveKind, IdPlace, MovePlace, RefusalCode};
use crate::words::quoted;
use sobre_core::record::PlayerId;
use sobre_core::record::export::iso_utc;
use sobre_words::{Words, t};

mod kinds;
use kinds::{
    coin_problem, escrow_problem, from_now, league_problem, place_word, quota_problem, rule_problem,
};

impl RefusalCode {
    /// The message and hint of this refusal in `w`'s language (the node's own message is
    /// the English); `None` for [`RefusalCode::Other`], a kind from a newer node, and a
    /// text the core of this build reads differently from the sender's (another version).
    pub fn words(&self, w: &Words) -> Option<(String, Option<String>)> {
        worded(self, w)
    }
}

fn worded(code: &RefusalCode, w: &Words) -> Option<(String, Option<String>)> {
    Some(match code {
        RefusalCode::UnknownGame { prefix } => (
            t!(w, "refusal-unknown-game", prefix = quoted(prefix)),
            Some(t!(w, "refusal-unknown-game-hint")),
        ),
        RefusalCode::AmbiguousGame { prefix, count } => (
            t!(
                w,
                "refusal-ambiguous-game",
                prefix = quoted(prefix),
                count = *count
            ),
            Some(t!(w, "refusal-ambiguous-game-hint")),
        ),
        RefusalCode::NoGameId => (t!(w, "refusal-no-game-id"), None),
        RefusalCode::GameNotKept => (t!(w, "refusal-game-not-kept"), None),
        RefusalCode::UnknownLeague { text } => (
            t!(w, "refusal-unknown-league", text = quoted(text)),
            Some(t!(w, "refusal-unknown-league-hint")),
        ),
        RefusalCode::AmbiguousLeague { text, count } => (
            t!(
                w,
                "refusal-ambiguous-league",
                text = quoted(text),
                count = *count
            ),
            Some(t!(w, "refusal-ambiguous-league-hint")),
        ),
        RefusalCode::NotInGame => (t!(w, "refusal-not-in-game"), None),
        RefusalCode::GameAdjourned => (
            t!(w, "refusal-game-adjourned"),
            Some(t!(w, "refusal-game-adjourned-hint")),
        ),
        RefusalCode::GameNotStarted => (t!(w, "refusal-game-not-started"), None),
        RefusalCode::GameOver => (t!(w, "refusal-game-over"), None),
        RefusalCode::NotYourMove => (t!(w, "refusal-not-your-move"), None),
        RefusalCode::ChallengeSelf => (t!(w, "refusal-challenge-self"), None),
        RefusalCode::NoChallengeToAccept => (t!(w, "refusal-no-challenge"), None),
        RefusalCode::BadMove {
            text,
            kind,
            reason,
            conditional,
            letters,
            place,
        } => bad_move(w, text, *kind, reason, *conditional, *letters, *place),
        RefusalCode::Rule { problem } => (rule_problem(w, problem.as_ref()?)?, None),
        RefusalCode::NoLeaveInProgress => (t!(w, "refusal-no-leave"), None),
        RefusalCode::NotLeaguePlayer => (t!(w, "refusal-not-league-player"), None),
        RefusalCode::NotLeagueOrganiser { organiser, deputy } => (
            match deputy {
                Some(d) => t!(
                    w,
                    "refusal-not-organiser-deputy",
                    organiser = organiser.as_str(),
                    deputy = d.as_str()
                ),
                None => t!(w, "refusal-not-organiser", organiser = organiser.as_str()),
            },
            None,
        ),
        RefusalCode::ResumptionMissing => (
            t!(w, "refusal-resumption-missing"),
            Some(t!(w, "refusal-resumption-missing-hint")),
        ),
        RefusalCode::ResumptionPast => (
            t!(w, "refusal-resumption-past"),
            Some(t!(w, "refusal-resumption-past-hint")),
        ),
        RefusalCode::ConditionalOnYourMove => (t!(w, "refusal-conditional-your-move"), None),
        RefusalCode::ConditionalTooShort => (t!(w, "refusal-conditional-short"), None),
        RefusalCode::ConditionalNoLine => (t!(w, "refusal-conditional-no-line"), None),
        RefusalCode::ChatTooLong => (t!(w, "refusal-chat-too-long"), None),
        RefusalCode::BlockSelf => (t!(w, "refusal-block-self"), None),
        RefusalCode::ColoursFixed => (
            t!(w, "refusal-colours-fixed"),
            Some(t!(w, "refusal-colours-fixed-hint")),
        ),
        RefusalCode::StartFixed => (
            t!(w, "refusal-start-fixed"),
            Some(t!(w, "refusal-start-fixed-hint")),
        ),
        RefusalCode::AbortWithholdsCoin => (
            t!(w, "refusal-abort-coin"),
            Some(t!(w, "refusal-abort-coin-hint")),
        ),
        // The core's typed error, read again from the same text: worded by its variant.
        RefusalCode::BadPlayerId { text } => {
            let e = text.parse::<sobre_core::record::PlayerId>().err()?;
            (crate::words::player_id(w, &e), None)
        }
        RefusalCode::BadTimeControl { text } => {
            let e = text.parse::<sobre_core::clock::TimeControl>().err()?;
            (crate::words::time_control(w, &e), None)
        }
        RefusalCode::AdjournCorrespondence => (
            t!(w, "refusal-adjourn-correspondence"),
            Some(t!(w, "refusal-adjourn-correspondence-hint")),
        ),
        RefusalCode::ResumptionTooFar => (
            t!(w, "refusal-resumption-too-far"),
            Some(t!(w, "refusal-resumption-too-far-hint")),
        ),
        RefusalCode::ResumptionNotice { notice } => (
            t!(w, "refusal-resumption-notice", notice = notice.clone()),
            Some(t!(w, "refusal-resumption-notice-hint")),
        ),

        RefusalCode::NoEnvelope => (t!(w, "refusal-no-envelope"), None),
        RefusalCode::EnvelopeInNobodysKeeping => (t!(w, "refusal-envelope-unkept"), None),
        RefusalCode::NotTheEnvelopesArbiter { arbiter } => (
            t!(
                w,
                "refusal-not-envelope-arbiter",
                arbiter = arbiter.as_str()
            ),
            None,
        ),
        RefusalCode::EnvelopeGameNotAdjourned => (t!(w, "refusal-envelope-not-adjourned"), None),
        RefusalCode::EnvelopeTooEarly { at_ms } => (
            t!(
                w,
                "refusal-envelope-too-early",
                at = at_ms.map_or_else(|| t!(w, "refusal-agreed-time"), iso_utc)
            ),
            Some(t!(w, "refusal-envelope-too-early-hint")),
        ),
        RefusalCode::EnvelopeResponderAbsent => (
            t!(w, "refusal-envelope-responder-absent"),
            Some(t!(w, "refusal-envelope-responder-absent-hint")),
        ),
        RefusalCode::NotTheSealer => (t!(w, "refusal-not-the-sealer"), None),
        RefusalCode::ArbiterKeepsOpening { arbiter } => (
            t!(
                w,
                "refusal-arbiter-keeps-opening",
                arbiter = arbiter.as_str()
            ),
            Some(t!(w, "refusal-arbiter-keeps-opening-hint")),
        ),
        RefusalCode::Escrow { problem, place } => {
            let words = escrow_problem(w, problem.as_ref()?)?;
            (
                match place {
                    Some(place) => t!(
                        w,
                        "refusal-at",
                        place = place_word(w, *place),
                        reason = words
                    ),
                    None => words,
                },
                None,
            )
        }
        RefusalCode::ReplyKeepsResumption => (
            t!(w, "refusal-reply-keeps-resumption"),
            Some(t!(w, "refusal-reply-keeps-resumption-hint")),
        ),
        RefusalCode::SealedMoveNotUnique { text, reason } => (
            t!(
                w,
                "refusal-sealed-not-unique",
                text = quoted(text),
                reason = reason.as_str()
            ),
            Some(t!(w, "refusal-sealed-not-unique-hint")),
        ),
        RefusalCode::EscrowedMoveTooLong { max } => {
            (t!(w, "refusal-escrowed-move-too-long", max = *max), None)
        }
        RefusalCode::ArbiterIsPlayer => (
            t!(w, "refusal-arbiter-is-player"),
            Some(t!(w, "refusal-arbiter-is-player-hint")),
        ),
        RefusalCode::ArbiterNotAgreed { agreed } => (
            match agreed {
                Some(a) => t!(w, "refusal-arbiter-not-agreed", arbiter = a.clone()),
                None => t!(w, "refusal-arbiter-none-agreed"),
            },
            Some(t!(w, "refusal-arbiter-not-agreed-hint")),
        ),
        // The core's typed error, read again from the same text: worded by its variant.
        RefusalCode::PlayerIdAt { place, text } => {
            let reason = crate::words::player_id(w, &text.parse::<PlayerId>().err()?);
            let m = match place {
                IdPlace::Block => t!(w, "refusal-id-block", text = quoted(text), reason = reason),
                other => t!(
                    w,
                    "refusal-at",
                    place = place_word(w, *other),
                    reason = reason
                ),
            };
            (m, None)
        }
        RefusalCode::LeaguePlayerNeeded => (t!(w, "refusal-league-player-needed"), None),
        RefusalCode::LeagueEntrantNeeded => (t!(w, "refusal-league-entrant-needed"), None),
        RefusalCode::NotALeaguePlayer { player, league } => (
            t!(
                w,
                "refusal-not-a-league-player",
                player = player.as_str(),
                league = league.as_str()
            ),
            None,
        ),
        RefusalCode::NoGameInRound { player, round } => (
            t!(
                w,
                "refusal-no-game-in-round",
                player = player.as_str(),
                round = *round
            ),
            None,
        ),
        RefusalCode::RoundNeeded => (t!(w, "refusal-round-needed"), None),
        RefusalCode::ResultNeeded => (t!(w, "refusal-result-needed"), None),
        RefusalCode::WithdrawalRuleNeeded => (t!(w, "refusal-withdrawal-rule-needed"), None),
        RefusalCode::TooManyDecisions => (t!(w, "refusal-too-many-decisions"), None),
        RefusalCode::League { problem } => league_problem(w, problem.as_ref()?)?,
        RefusalCode::CoinRule { problem } => coin_problem(w, problem.as_ref()?)?,
        RefusalCode::CoinBeforeDeadline {
            deadline_ms,
            now_ms,
            manual,
        } => (
            t!(
                w,
                "refusal-coin-before-deadline",
                at = iso_utc(*deadline_ms),
                left = from_now(w, *deadline_ms, *now_ms)
            ),
            Some(if *manual {
                t!(w, "refusal-coin-before-deadline-hint-manual")
            } else {
                t!(w, "refusal-coin-before-deadline-hint")
            }),
        ),
        RefusalCode::BadMultiaddr { text, reason } => (
            t!(
                w,
                "refusal-bad-multiaddr",
                text = quoted(text),
                reason = reason.as_str()
            ),
            None,
        ),
        RefusalCode::AddrWithoutPeer { text } => (
            t!(w, "refusal-addr-without-peer", text = text.as_str()),
            None,
        ),
        RefusalCode::CannotReach { addr, reason } => (
            t!(
                w,
                "refusal-cannot-reach",
                addr = addr.as_str(),
                reason = reason.as_str()
            ),
            None,
        ),
        RefusalCode::MalformedFen { fen } => {
            let e = sobre_core::Position::from_fen_auto(fen).err()?;
            (
                t!(
                    w,
                    "refusal-malformed-fen",
                    reason = crate::words::fen(w, &e)
                ),
                None,
            )
        }
        RefusalCode::GameRestoring { game } => (
            t!(w, "refusal-game-restoring", game = game.as_str()),
            Some(t!(w, "refusal-game-restoring-hint")),
        ),
        RefusalCode::Quota { problem } => (quota_problem(w, problem)?, None),
        RefusalCode::BadRequest { reason } => {
            (t!(w, "refusal-bad-request", reason = reason.as_str()), None)
        }
        RefusalCode::RequestTooLong { max } => {
            (t!(w, "refusal-request-too-long", max = *max), None)
        }
        RefusalCode::RequestNotObject => (t!(w, "refusal-request-not-object"), None),
        RefusalCode::ApiVersionMissing { version } => (
            t!(w, "refusal-api-version-missing", version = *version),
            None,
        ),
        RefusalCode::ApiVersionUnsupported { given, version } => (
            t!(
                w,
                "refusal-api-version-unsupported",
                given = given.as_str(),
                version = *version
            ),
            Some(t!(w, "refusal-api-version-unsupported-hint")),
        ),
        RefusalCode::ReplacedPlayerNeeded => (
            t!(w, "refusal-league-player-needed"),
            Some(t!(w, "refusal-replaced-player-needed-hint")),
        ),
        RefusalCode::NoDeclaredMove => (
            t!(w, "refusal-no-declared-move"),
            Some(t!(w, "refusal-no-declared-move-hint")),
        ),
        RefusalCode::AnnulAlreadyAsked => (t!(w, "refusal-annul-already-asked"), None),
        RefusalCode::BoardNotServed { port, reason } => (
            t!(
                w,
                "refusal-board-not-served",
                port = *port,
                reason = reason.as_str()
            ),
            Some(t!(w, "refusal-board-not-served-hint")),
        ),
        RefusalCode::BadInvite { reason } => (
            t!(w, "refusal-bad-invite", reason = reason.as_str()),
            Some(t!(w, "invite-hint-copy")),
        ),
        // The CLI's own sentence for `sobre connect` with one's own invite.
        RefusalCode::OwnInvite => (t!(w, "invite-own"), Some(t!(w, "invite-hint-own"))),
        RefusalCode::WatchOnBoard => (t!(w, "refusal-watch-on-board"), None),
        RefusalCode::Other => return None,
    })
}

/// A move the node could not read as one legal move (FIDE 3.10, App. E). The reader's
/// detail (`reason`) is the core's English: the Spanish words leave it out.
fn bad_move(
    w: &Words,
    text: &str,
    kind: BadMoveKind,
    reason: &str,
    conditional: Option<usize>,
    letters: bool,
    place: MovePlace,
) -> (String, Option<String>) {
    let line = match kind {
        BadMoveKind::Syntax => t!(w, "refusal-move-syntax", text = text, reason = reason),
        BadMoveKind::Illegal => t!(w, "refusal-move-illegal", text = text, reason = reason),
        BadMoveKind::Ambiguous => t!(w, "refusal-move-ambiguous", text = text, reason = reason),
    };
    let context = match (place, conditional) {
        (MovePlace::Sealed, _) => Some(t!(w, "refusal-move-sealed")),
        (MovePlace::Intended, _) => Some(t!(w, "refusal-move-intended")),
        (MovePlace::Played, Some(n)) => Some(t!(w, "refusal-move-conditional", n = n)),
        (MovePlace::Played, None) => None,
    };
    let message = match context {
        Some(context) => t!(w, "refusal-move-in", context = context, line = line),
        None => line,
    };
    let hint = match (kind, letters) {
        (BadMoveKind::Ambiguous, true) => t!(w, "refusal-move-hint-letters"),
        (BadMoveKind::Ambiguous, false) => t!(w, "refusal-move-hint-origin"),
        _ => t!(w, "refusal-move-hint"),
    };
    (message, Some(hint))
}

#[cfg(test)]
mod tests;
