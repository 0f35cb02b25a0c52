//! Why a claim was judged correct or incorrect, as a typed verdict: one variant per ground
//! (9.2, 9.3, 9.6, 6.9, A10, A8) and per reason for refusing it, with the data its words
//! need. The English sentence ([`fmt::Display`]) is the one the record has always shown;
//! a client words the same verdict in its player's language from the variant, never from
//! the sentence.
//!
//! Serialized (control API, archive reports) as an object tagged by `id`, e.g.
//! `{"id":"not_threefold","occurrences":2}`. Append-only: a variant's name and fields never
//! change meaning.

use crate::rules::adjournment::NotLate;
use crate::rules::claims::{ClaimError, ClaimGround};
use crate::rules::flag::TimeClaimError;
use crate::types::Color;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A claim's verdict, by its ground or the reason it fails.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "id", rename_all = "snake_case")]
pub enum Judgement {
    /// 9.2: the position occurs `occurrences` times.
    Threefold { occurrences: u32 },
    /// 9.3: fifty moves by each player without a capture or pawn move.
    FiftyMoves,
    /// 9.6: no series of legal moves can lead to mate.
    Dead,
    /// 9.2 refused: the position occurs only `occurrences` times.
    NotThreefold { occurrences: u32 },
    /// 9.3 refused: only `moves` moves without a capture or pawn move.
    NotFiftyMoves { moves: u32 },
    /// 9.6 refused: mate is still possible.
    NotDead,
    /// A draw claim in a game already over.
    GameOver,
    /// 9.2a, 9.3a: the announced move is illegal.
    IntendedMoveIllegal,
    /// Not a claim judged on the game's history (a defect of the caller).
    NotADrawClaim,
    /// 6.9: `flagged`'s time had run out.
    TimeRanOut { flagged: Color },
    /// 6.9 refused: `flagged`'s time had not run out.
    TimeNotRunOut { flagged: Color },
    /// 6.9 with 6.11 refused: the claimant's own flag fell first.
    ClaimantFellFirst { claimant: Color },
    /// 6.8 refused: the claimant moved after the flag fell without claiming. No longer
    /// produced: each overstep is its own flag fall, and playing on waives only the one on
    /// the board then ([`crate::clock::Overstep`]), so a claim against a waived fall is
    /// [`TimeNotRunOut`](Self::TimeNotRunOut) or [`ClaimantFellFirst`](Self::ClaimantFellFirst).
    /// Kept because the form is append-only (a client may still read it).
    WindowClosed { claimant: Color },
    /// A10 refused: the game is not adjourned.
    NotAdjourned,
    /// A10: `late` did not appear within the limit.
    OpponentLate { late: Color },
    /// A10c: `late` is late, but `claimant`'s own time had run out: decided by `article`.
    ClaimantLostOnTime {
        late: Color,
        claimant: Color,
        article: String,
    },
    /// A8, A10: `sealer` did not open the sealed envelope within the limit.
    SealerCannotOpen { sealer: Color },
    /// A10 refused: no resumption time was set.
    NoResumptionTime,
    /// A10 refused: the claimant has not announced presence.
    ClaimantAbsent,
    /// A10 refused: the opponent is present.
    OpponentPresent,
    /// A10 refused: the opponent is not more than the limit late yet.
    WithinLimit,
    /// A10 refused: the opponent arrived before the claimant, who was late too.
    OpponentArrivedFirst,
    /// A10 refused: the claimant played on after the late player arrived.
    PlayedOn,
}

impl From<ClaimGround> for Judgement {
    fn from(g: ClaimGround) -> Judgement {
        match g {
            ClaimGround::Threefold { occurrences } => Judgement::Threefold { occurrences },
            ClaimGround::FiftyMoves => Judgement::FiftyMoves,
            ClaimGround::Dead => Judgement::Dead,
        }
    }
}

impl From<ClaimError> for Judgement {
    fn from(e: ClaimError) -> Judgement {
        match e {
            ClaimError::GameOver => Judgement::GameOver,
            ClaimError::IllegalIntendedMove => Judgement::IntendedMoveIllegal,
            ClaimError::NotThreefold { occurrences } => Judgement::NotThreefold { occurrences },
            ClaimError::NotFiftyMoves { moves } => Judgement::NotFiftyMoves { moves },
            ClaimError::NotADrawClaim => Judgement::NotADrawClaim,
            ClaimError::NotDead => Judgement::NotDead,
        }
    }
}

impl From<TimeClaimError> for Judgement {
    fn from(e: TimeClaimError) -> Judgement {
        match e {
            TimeClaimError::NotFallen(flagged) => Judgement::TimeNotRunOut { flagged },
            TimeClaimError::ClaimantFellFirst(claimant) => {
                Judgement::ClaimantFellFirst { claimant }
            }
        }
    }
}

impl From<NotLate> for Judgement {
    fn from(e: NotLate) -> Judgement {
        match e {
            NotLate::NoResumptionTime => Judgement::NoResumptionTime,
            NotLate::ClaimantAbsent => Judgement::ClaimantAbsent,
            NotLate::OpponentPresent => Judgement::OpponentPresent,
            NotLate::WithinLimit => Judgement::WithinLimit,
            NotLate::OpponentArrivedFirst => Judgement::OpponentArrivedFirst,
            NotLate::PlayedOn => Judgement::PlayedOn,
        }
    }
}

impl fmt::Display for Judgement {
    /// The English sentence, the words of the rules' own errors where there is one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let said: &dyn fmt::Display = match self {
            Judgement::Threefold { occurrences } => &ClaimGround::Threefold {
                occurrences: *occurrences,
            },
            Judgement::FiftyMoves => &ClaimGround::FiftyMoves,
            Judgement::Dead => &ClaimGround::Dead,
            Judgement::NotThreefold { occurrences } => &ClaimError::NotThreefold {
                occurrences: *occurrences,
            },
            Judgement::NotFiftyMoves { moves } => &ClaimError::NotFiftyMoves { moves: *moves },
            Judgement::NotDead => &ClaimError::NotDead,
            Judgement::GameOver => &ClaimError::GameOver,
            Judgement::IntendedMoveIllegal => &ClaimError::IllegalIntendedMove,
            Judgement::NotADrawClaim => &ClaimError::NotADrawClaim,
            Judgement::TimeNotRunOut { flagged } => &TimeClaimError::NotFallen(*flagged),
            Judgement::ClaimantFellFirst { claimant } => {
                &TimeClaimError::ClaimantFellFirst(*claimant)
            }
            Judgement::NoResumptionTime => &NotLate::NoResumptionTime,
            Judgement::ClaimantAbsent => &NotLate::ClaimantAbsent,
            Judgement::OpponentPresent => &NotLate::OpponentPresent,
            Judgement::WithinLimit => &NotLate::WithinLimit,
            Judgement::OpponentArrivedFirst => &NotLate::OpponentArrivedFirst,
            Judgement::PlayedOn => &NotLate::PlayedOn,
            Judgement::TimeRanOut { flagged } => {
                return write!(f, "{}'s time had run out (6.9)", flagged.name());
            }
            Judgement::WindowClosed { claimant } => {
                return write!(
                    f,
                    "{} moved after the flag fell without claiming: the claim window has \
                     closed (6.8)",
                    claimant.name()
                );
            }
            Judgement::NotAdjourned => return f.write_str("the game is not adjourned (A10)"),
            Judgement::OpponentLate { late } => {
                return write!(f, "{} did not appear within the limit (A10)", late.name());
            }
            Judgement::ClaimantLostOnTime {
                late,
                claimant,
                article,
            } => {
                return write!(
                    f,
                    "{} is late, but {}'s own time had run out: the game is decided by \
                     {article} (A10c)",
                    late.name(),
                    claimant.name()
                );
            }
            Judgement::SealerCannotOpen { sealer } => {
                return write!(
                    f,
                    "{} did not open the sealed envelope within the limit: the sealed move \
                     cannot be read (A8, A10)",
                    sealer.name()
                );
            }
        };
        said.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sentences are the ones the rules' errors have always given (a record read by an
    /// older `sobre` says the same), and the API form is tagged by `id`.
    #[test]
    fn a_judgement_reads_as_the_rules_sentence_and_serializes_by_id() {
        assert_eq!(
            Judgement::from(ClaimError::NotThreefold { occurrences: 2 }).to_string(),
            "the position occurs 2 time(s), not three (9.2)"
        );
        assert_eq!(
            Judgement::TimeRanOut {
                flagged: Color::Black
            }
            .to_string(),
            "black's time had run out (6.9)"
        );
        assert_eq!(
            Judgement::from(NotLate::PlayedOn).to_string(),
            "the claimant played on after the late player arrived (A10)"
        );
        let j = Judgement::ClaimantLostOnTime {
            late: Color::White,
            claimant: Color::Black,
            article: "6.9".into(),
        };
        let json = serde_json::to_value(&j).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"id": "claimant_lost_on_time", "late": "white",
                "claimant": "black", "article": "6.9"})
        );
        assert_eq!(serde_json::from_value::<Judgement>(json).unwrap(), j);
    }
}
