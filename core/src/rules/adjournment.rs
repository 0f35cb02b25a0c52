//! FIDE Appendix A (adjourned games): the verdicts on when an envelope may be sealed and
//! opened. `verify` applies them to every record and the node asks the same functions before
//! it opens an envelope, so the rule has one home.
//!
//! They apply to envelopes sealed under the current protocol (wire tag 17, which also records
//! the sealed move's letters); a tag-10 seal signed before these rules keeps the meaning it
//! was signed under.

/// Why Appendix A refuses a seal or an opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AdjournmentRule {
    /// A2.7: the envelope must say when the game resumes, at a time after the sealing.
    #[error("the envelope must give a resumption time after the sealing (A2.7)")]
    NoResumptionTime,
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
        Some(r) if r > sealed_at_ms => Ok(()),
        _ => Err(AdjournmentRule::NoResumptionTime),
    }
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
}
