//! The words of the rules in the run's language: colours, game states, how a game ended,
//! what a claim is for. Each match is exhaustive, so a new variant in the core cannot go
//! untranslated (and the catalogue test sees every key).

use crate::t;
use sobre_core::Color;
use sobre_core::record::Status;
use sobre_core::rules::Termination;
use sobre_core::rules::claims::ClaimReason;

/// `white` / `black` (`blancas` / `negras`).
pub fn colour(c: Color) -> String {
    match c {
        Color::White => t!("colour-white"),
        Color::Black => t!("colour-black"),
    }
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
    match s {
        Status::Pending => t!("status-pending"),
        Status::Active => t!("status-active"),
        Status::Adjourned => t!("status-adjourned"),
        Status::Finished => t!("status-finished"),
        Status::Cancelled => t!("status-cancelled"),
        Status::Disputed => t!("status-disputed"),
    }
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
    }
}

/// Every way a game ends, for reading the node's codes back ([`termination_of_code`]).
pub const TERMINATIONS: [Termination; 13] = [
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, message_in};

    /// The English words are the core's own: the English output does not change.
    #[test]
    fn english_words_are_the_cores() {
        for term in TERMINATIONS {
            assert_eq!(termination_of_code(term.code()), Some(term));
            let en = crate::i18n::with_lang(Lang::En, || termination(term));
            assert_eq!(en, term.describe());
            let es = crate::i18n::with_lang(Lang::Es, || termination(term));
            assert_ne!(es, en, "{term:?} is not translated");
        }
        for r in ClaimReason::ALL {
            let en = crate::i18n::with_lang(Lang::En, || claim_reason(r));
            assert_eq!(en, sobre_core::record::export::claim_reason_words(r));
        }
        assert_eq!(message_in(Lang::Es, "term-checkmate", None), "jaque mate");
    }
}
