//! The words of the rules in the run's language: colours, game states, how a game ended,
//! what a claim is for. Each match is exhaustive, so a new variant in the core cannot go
//! untranslated (and the catalogue test sees every key).

use crate::t;
use sobre_core::Color;
use sobre_core::record::Status;
use sobre_core::record::verify::Judgement;
use sobre_core::rules::Termination;
use sobre_core::rules::claims::ClaimReason;

/// `white` / `black` (`blancas` / `negras`).
pub fn colour(c: Color) -> String {
    sobre_node::words::colour(sobre_words::words(super::lang()), c)
}

/// `White` / `Black` as the subject of a sentence (`Blancas`, `Negras`).
pub fn colour_subject(c: Color) -> String {
    match c {
        Color::White => t!("colour-white-subject"),
        Color::Black => t!("colour-black-subject"),
    }
}

/// A game's state (`active`, `finished`…).
pub fn status(s: Status) -> String {
    sobre_node::words::status(sobre_words::words(super::lang()), s)
}

/// How a game ended, as [`Termination::describe`] says it in English.
pub fn termination(term: Termination) -> String {
    match term {
        Termination::Checkmate => t!("term-checkmate"),
        Termination::Stalemate => t!("term-stalemate"),
        Termination::DeadPosition => t!("term-dead-position"),
        Termination::FivefoldRepetition => t!("term-fivefold"),
        Termination::SeventyFiveMoves => t!("term-seventy-five"),
        Termination::ThreefoldRepetition => t!("term-threefold"),
        Termination::FiftyMoves => t!("term-fifty"),
        Termination::Resignation => t!("term-resignation"),
        Termination::Agreement => t!("term-agreement"),
        Termination::TimeForfeit => t!("term-time-forfeit"),
        Termination::TimeForfeitInsufficientMaterial => t!("term-time-forfeit-no-mate"),
        Termination::IllegalSealedMove => t!("term-illegal-sealed"),
        Termination::LateForResumption => t!("term-late"),
        Termination::Equivocation => t!("term-equivocation"),
        Termination::QuickplayDraw => t!("term-quickplay-draw"),
    }
}

/// Every way a game ends, for reading the node's codes back ([`termination_of_code`]).
pub const TERMINATIONS: [Termination; 15] = [
    Termination::Checkmate,
    Termination::Stalemate,
    Termination::DeadPosition,
    Termination::FivefoldRepetition,
    Termination::SeventyFiveMoves,
    Termination::ThreefoldRepetition,
    Termination::FiftyMoves,
    Termination::Resignation,
    Termination::Agreement,
    Termination::TimeForfeit,
    Termination::TimeForfeitInsufficientMaterial,
    Termination::IllegalSealedMove,
    Termination::LateForResumption,
    Termination::Equivocation,
    Termination::QuickplayDraw,
];

/// The termination the node names by its code (`resignation`, `dead_position`…;
/// [`Termination::code`]).
pub fn termination_of_code(code: &str) -> Option<Termination> {
    TERMINATIONS.into_iter().find(|t| t.code() == code)
}

/// What a claim is for, as [`sobre_core::record::export::claim_reason_words`] says it.
pub fn claim_reason(r: ClaimReason) -> String {
    match r {
        ClaimReason::Threefold => t!("claim-threefold"),
        ClaimReason::FiftyMoves => t!("claim-fifty"),
        ClaimReason::Time => t!("claim-time"),
        ClaimReason::DeadPosition => t!("claim-dead-position"),
        ClaimReason::Lateness => t!("claim-lateness"),
    }
}

/// What a claim is for, in one or two words (a table cell, a claim's line in `show`).
pub fn claim_short(r: ClaimReason) -> String {
    match r {
        ClaimReason::Threefold => t!("claim-short-threefold"),
        ClaimReason::FiftyMoves => t!("claim-short-fifty"),
        ClaimReason::Time => t!("claim-short-time"),
        ClaimReason::DeadPosition => t!("claim-short-dead"),
        ClaimReason::Lateness => t!("claim-short-lateness"),
    }
}

/// A claim's verdict (the rules core's [`Judgement`]), the colours named as sides.
pub fn judgement(j: &Judgement) -> String {
    let side = |c: Color| colour(c);
    match j {
        Judgement::Threefold { occurrences } => {
            t!("judgement-threefold", occurrences = *occurrences)
        }
        Judgement::FiftyMoves => t!("judgement-fifty-moves"),
        Judgement::Dead => t!("judgement-dead"),
        Judgement::NotThreefold { occurrences } => {
            t!("judgement-not-threefold", occurrences = *occurrences)
        }
        Judgement::NotFiftyMoves { moves } => t!("judgement-not-fifty-moves", moves = *moves),
        Judgement::NotDead => t!("judgement-not-dead"),
        Judgement::GameOver => t!("judgement-game-over"),
        Judgement::IntendedMoveIllegal => t!("judgement-intended-move-illegal"),
        Judgement::NotADrawClaim => t!("judgement-not-a-draw-claim"),
        Judgement::TimeRanOut { flagged } => {
            t!("judgement-time-ran-out", flagged = side(*flagged))
        }
        Judgement::TimeNotRunOut { flagged } => {
            t!("judgement-time-not-run-out", flagged = side(*flagged))
        }
        Judgement::ClaimantFellFirst { claimant } => {
            t!("judgement-claimant-fell-first", claimant = side(*claimant))
        }
        Judgement::WindowClosed { claimant } => {
            t!("judgement-window-closed", claimant = side(*claimant))
        }
        Judgement::NotAdjourned => t!("judgement-not-adjourned"),
        Judgement::OpponentLate { late } => t!("judgement-opponent-late", late = side(*late)),
        Judgement::ClaimantLostOnTime {
            late,
            claimant,
            article,
        } => t!(
            "judgement-claimant-lost-on-time",
            late = side(*late),
            claimant = side(*claimant),
            article = article.as_str()
        ),
        Judgement::SealerCannotOpen { sealer } => {
            t!("judgement-sealer-cannot-open", sealer = side(*sealer))
        }
        Judgement::NoResumptionTime => t!("judgement-no-resumption-time"),
        Judgement::ClaimantAbsent => t!("judgement-claimant-absent"),
        Judgement::OpponentPresent => t!("judgement-opponent-present"),
        Judgement::WithinLimit => t!("judgement-within-limit"),
        Judgement::OpponentArrivedFirst => t!("judgement-opponent-arrived-first"),
        Judgement::PlayedOn => t!("judgement-played-on"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Language, message_in};

    /// The English words are the core's own: the English output does not change.
    #[test]
    fn english_words_are_the_cores() {
        for term in TERMINATIONS {
            assert_eq!(termination_of_code(term.code()), Some(term));
            let en = crate::i18n::with_lang(Language::English, || termination(term));
            assert_eq!(en, term.describe());
            let es = crate::i18n::with_lang(Language::Spanish, || termination(term));
            assert_ne!(es, en, "{term:?} is not translated");
        }
        for r in ClaimReason::ALL {
            let en = crate::i18n::with_lang(Language::English, || claim_reason(r));
            assert_eq!(en, sobre_core::record::export::claim_reason_words(r));
        }
        assert_eq!(
            message_in(Language::Spanish, "term-checkmate", None),
            "jaque mate"
        );
    }

    /// A claim's verdict reads in English exactly as the core's sentence (9.2, 9.3, 9.6, 6.9,
    /// A8, A10), and in Spanish in Spanish words.
    #[test]
    fn every_claim_verdict_is_worded_in_both_languages() {
        use Color::{Black, White};
        let all = [
            Judgement::Threefold { occurrences: 3 },
            Judgement::FiftyMoves,
            Judgement::Dead,
            Judgement::NotThreefold { occurrences: 2 },
            Judgement::NotFiftyMoves { moves: 12 },
            Judgement::NotDead,
            Judgement::GameOver,
            Judgement::IntendedMoveIllegal,
            Judgement::NotADrawClaim,
            Judgement::TimeRanOut { flagged: Black },
            Judgement::TimeNotRunOut { flagged: White },
            Judgement::ClaimantFellFirst { claimant: White },
            Judgement::WindowClosed { claimant: Black },
            Judgement::NotAdjourned,
            Judgement::OpponentLate { late: Black },
            Judgement::ClaimantLostOnTime {
                late: White,
                claimant: Black,
                article: "6.9".into(),
            },
            Judgement::SealerCannotOpen { sealer: White },
            Judgement::NoResumptionTime,
            Judgement::ClaimantAbsent,
            Judgement::OpponentPresent,
            Judgement::WithinLimit,
            Judgement::OpponentArrivedFirst,
            Judgement::PlayedOn,
        ];
        for j in all {
            let en = crate::i18n::with_lang(Language::English, || judgement(&j));
            assert_eq!(en, j.to_string(), "{j:?}");
            let es = crate::i18n::with_lang(Language::Spanish, || judgement(&j));
            assert_ne!(es, en, "{j:?} is not translated");
        }
        assert_eq!(
            crate::i18n::with_lang(Language::Spanish, || judgement(&Judgement::TimeRanOut {
                flagged: Black
            })),
            "el tiempo de las negras se había agotado (6.9)"
        );
    }
}
