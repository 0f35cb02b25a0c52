//! FIDE Appendix A (adjourned games): the verdicts on when an envelope may be sealed and
//! opened. `verify` applies them to every record and the node asks the same functions before
//! it opens an envelope, so the rule has one home.
//!
//! They apply to envelopes sealed under the current protocol (wire tag 17, which also records
//! the sealed move's letters); a tag-10 seal signed before these rules keeps the meaning it
//! was signed under.

/// The furthest ahead a resumption may be set (A2.7): 30 days, until a competition's own
/// terms carry their limit. Without a bound a sealer could freeze the game for a year.
pub const MAX_ADJOURNMENT_MS: u64 = 30 * 24 * 60 * 60 * 1000;

/// Why Appendix A refuses a seal or an opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AdjournmentRule {
    /// A2.7: the envelope must say when the game resumes, at a time after the sealing.
    #[error("the envelope must give a resumption time after the sealing (A2.7)")]
    NoResumptionTime,
    /// A2.7: the resumption is further ahead than [`MAX_ADJOURNMENT_MS`].
    #[error("the resumption is more than 30 days after the sealing (A2.7)")]
    ResumptionTooFar,
    /// Appendix A governs games played in sessions over the board (A1: "al final del tiempo
    /// establecido para la sesión"); a correspondence game has no session to end, and a seal
    /// there would only stop the sealer's clock.
    #[error(
        "a correspondence game is not adjourned: sealing is for games over the board \
         (Appendix A1)"
    )]
    Correspondence,
    /// A2.7 with A7: before the agreed time, the envelope is opened only when both players
    /// are present.
    #[error(
        "the envelope opens at the agreed resumption time, or earlier only when both players \
         are present (A2.7, A7)"
    )]
    BeforeResumption,
    /// A7: the envelope is opened only when the responder is present.
    #[error("the responder is not present: the envelope stays closed (A7)")]
    ResponderAbsent,
}

/// A2.7: a sealed game names its resumption, after the moment of sealing. Without it a
/// sealer who never comes back would freeze the game for ever; with it, the absent player's
/// clock runs from that time (A9).
///
/// # Errors
/// [`AdjournmentRule::NoResumptionTime`] if `resume_at_ms` is missing or not after
/// `sealed_at_ms`.
pub fn check_resumption_time(
    resume_at_ms: Option<u64>,
    sealed_at_ms: u64,
) -> Result<(), AdjournmentRule> {
    match resume_at_ms {
        Some(r) if r > sealed_at_ms.saturating_add(MAX_ADJOURNMENT_MS) => {
            Err(AdjournmentRule::ResumptionTooFar)
        }
        Some(r) if r > sealed_at_ms => Ok(()),
        _ => Err(AdjournmentRule::NoResumptionTime),
    }
}

/// A1: only a game played in sessions (over the board) is adjourned with a sealed move.
///
/// # Errors
/// [`AdjournmentRule::Correspondence`] for a correspondence time control.
pub fn check_sealing_allowed(correspondence: bool) -> Result<(), AdjournmentRule> {
    if correspondence {
        return Err(AdjournmentRule::Correspondence);
    }
    Ok(())
}

/// A7 with A2.7: whether the sealer's envelope may be opened at `at_ms`. The responder must
/// be present (A7); before the agreed resumption the sealer must be present too, so that a
/// responder who "arrives" on Wednesday for a Saturday resumption cannot start the sealer's
/// clock while the sealer is away.
///
/// # Errors
/// [`AdjournmentRule::ResponderAbsent`] or [`AdjournmentRule::BeforeResumption`].
pub fn check_opening(
    resume_at_ms: Option<u64>,
    at_ms: u64,
    sealer_present: bool,
    responder_present: bool,
) -> Result<(), AdjournmentRule> {
    if !responder_present {
        return Err(AdjournmentRule::ResponderAbsent);
    }
    if resume_at_ms.is_some_and(|r| at_ms < r) && !sealer_present {
        return Err(AdjournmentRule::BeforeResumption);
    }
    Ok(())
}

/// What a lateness claim (A10) is judged on: the envelope still closed, the resumption it
/// names, who claims and who is present, and when the claim was made.
#[derive(Clone, Copy, Debug)]
pub struct LatenessClaim {
    /// The agreed resumption (A2.7), if the envelope names one.
    pub resume_at_ms: Option<u64>,
    /// How late a player may be (A10: one hour unless the competition says otherwise).
    pub limit_ms: u64,
    /// A seal under the current protocol (tag 17): its move binds the sealer.
    pub binding: bool,
    pub claimant_is_sealer: bool,
    pub claimant_present: bool,
    pub opponent_present: bool,
    pub at_ms: u64,
}

/// The verdict on a lateness claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LatenessVerdict {
    /// A10: the opponent came more than the limit late (or not at all): the claimant wins.
    OpponentLate,
    /// A8 with A11 for a binding envelope: the sealer is there but has not opened the
    /// envelope within the limit, so the sealed move cannot be read; the sealer loses. (In a
    /// trustless game the opening is the sealer's to keep, so "I lost it" is never a free
    /// choice of another move.)
    SealerCannotOpen,
    /// The claim is incorrect, for this reason.
    Incorrect(NotLate),
}

/// Why a lateness claim is incorrect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotLate {
    #[error("no resumption time was set (A10)")]
    NoResumptionTime,
    #[error("the claimant has not announced presence (A10)")]
    ClaimantAbsent,
    #[error("the opponent is present (A10)")]
    OpponentPresent,
    #[error("the opponent is not more than the limit late yet (A10)")]
    WithinLimit,
}

/// A10: a player who comes to the board more than the limit late for the resumption loses
/// ("más de una hora": exactly the limit is still in time). For a binding envelope, a sealer
/// who is present but has not opened the envelope by then loses too (A8: the sealed move
/// cannot be read).
pub fn judge_lateness(c: LatenessClaim) -> LatenessVerdict {
    let Some(resume) = c.resume_at_ms else {
        return LatenessVerdict::Incorrect(NotLate::NoResumptionTime);
    };
    if !c.claimant_present {
        return LatenessVerdict::Incorrect(NotLate::ClaimantAbsent);
    }
    if c.at_ms <= resume.saturating_add(c.limit_ms) {
        return LatenessVerdict::Incorrect(NotLate::WithinLimit);
    }
    match (c.opponent_present, c.binding && !c.claimant_is_sealer) {
        (false, _) => LatenessVerdict::OpponentLate,
        (true, true) => LatenessVerdict::SealerCannotOpen,
        (true, false) => LatenessVerdict::Incorrect(NotLate::OpponentPresent),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: u64 = 1_800_000_000_000;

    #[test]
    fn a2_7_resumption_time_must_follow_the_sealing() {
        assert_eq!(check_resumption_time(Some(T + 1), T), Ok(()));
        for r in [None, Some(T), Some(T - 1)] {
            assert_eq!(
                check_resumption_time(r, T),
                Err(AdjournmentRule::NoResumptionTime)
            );
        }
        assert_eq!(
            check_resumption_time(Some(T + MAX_ADJOURNMENT_MS), T),
            Ok(())
        );
        assert_eq!(
            check_resumption_time(Some(T + MAX_ADJOURNMENT_MS + 1), T),
            Err(AdjournmentRule::ResumptionTooFar)
        );
    }

    #[test]
    fn a1_correspondence_games_are_not_sealed() {
        assert_eq!(
            check_sealing_allowed(true),
            Err(AdjournmentRule::Correspondence)
        );
        assert_eq!(check_sealing_allowed(false), Ok(()));
    }

    #[test]
    fn a7_a2_7_opening_needs_the_responder_and_the_time_or_both_players() {
        let r = Some(T);
        assert_eq!(
            check_opening(r, T, true, false),
            Err(AdjournmentRule::ResponderAbsent)
        );
        assert_eq!(
            check_opening(r, T - 1, false, true),
            Err(AdjournmentRule::BeforeResumption)
        );
        assert_eq!(check_opening(r, T - 1, true, true), Ok(()));
        assert_eq!(check_opening(r, T, false, true), Ok(()));
        // A tag-10 envelope without a time: the responder's presence suffices (as before).
        assert_eq!(check_opening(None, T, false, true), Ok(()));
    }

    fn claim(at_ms: u64) -> LatenessClaim {
        LatenessClaim {
            resume_at_ms: Some(T),
            limit_ms: 3_600_000,
            binding: true,
            claimant_is_sealer: false,
            claimant_present: true,
            opponent_present: false,
            at_ms,
        }
    }

    #[test]
    fn a10_more_than_the_limit_late_loses_exactly_the_limit_does_not() {
        assert_eq!(
            judge_lateness(claim(T + 3_600_000)),
            LatenessVerdict::Incorrect(NotLate::WithinLimit)
        );
        assert_eq!(
            judge_lateness(claim(T + 3_600_001)),
            LatenessVerdict::OpponentLate
        );
    }

    #[test]
    fn a10_a_present_opponent_is_not_late_but_a_sealer_who_cannot_open_loses() {
        let present = LatenessClaim {
            opponent_present: true,
            ..claim(T + 2 * 3_600_000)
        };
        assert_eq!(judge_lateness(present), LatenessVerdict::SealerCannotOpen);
        // The sealer claiming against a present responder, or an older (tag 10) envelope.
        for c in [
            LatenessClaim {
                claimant_is_sealer: true,
                ..present
            },
            LatenessClaim {
                binding: false,
                ..present
            },
        ] {
            assert_eq!(
                judge_lateness(c),
                LatenessVerdict::Incorrect(NotLate::OpponentPresent)
            );
        }
        let absent_claimant = LatenessClaim {
            claimant_present: false,
            ..present
        };
        assert_eq!(
            judge_lateness(absent_claimant),
            LatenessVerdict::Incorrect(NotLate::ClaimantAbsent)
        );
    }
}
