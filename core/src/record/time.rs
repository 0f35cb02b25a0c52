//! Time is evidence, never one party's word (docs/time.md).
//!
//! An author's `time_ms` is a claim about their own clock. A node that signs anything it likes
//! could date a time claim (FIDE 6.9) four days ahead and "win" on time right after its first
//! move, or date a receipt a month ahead for free thinking time. The first line of defence is
//! the receiver's own clock: an event dated more than [`MAX_CLOCK_SKEW_MS`] ahead of it is
//! refused on arrival (and its sender takes a strike), so it never enters the receiver's
//! record, is never receipted and never relayed by an honest node. The second is the
//! record itself: a leave (vacation) may not start before it was signed, so time already
//! past — a flag already fallen — cannot be stopped after the fact.
//!
//! These are pure functions: the node passes its clock in.

/// How far ahead of the receiver's clock an event may be dated: two minutes, well above the
/// drift of an NTP-synchronised machine and far below any time control's granularity that
/// matters in correspondence play.
pub const MAX_CLOCK_SKEW_MS: u64 = 2 * 60 * 1000;

/// An event's date that the evidence contradicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeError {
    /// Dated too far ahead of the receiving node's clock.
    #[error(
        "dated {} s ahead of this node's clock (at most {} s of skew is allowed)",
        (event_ms - now_ms) / 1000,
        MAX_CLOCK_SKEW_MS / 1000
    )]
    AheadOfReceiver { event_ms: u64, now_ms: u64 },
    /// A leave that would stop the author's clock for time already past when it was signed.
    #[error(
        "the leave starts {} s before it was signed: a leave cannot stop time already past",
        (signed_ms - from_ms) / 1000
    )]
    LeaveInThePast { from_ms: u64, signed_ms: u64 },
    /// A countersignature (a receipt, or an event that says it saw the event) of an event its
    /// author's node delivered and saw taken without the receipt it is owed, dated after that
    /// answer by more than the skew. Under protocol version 2 the event would count from the
    /// later date, so a receiver who withholds its receipt would charge the mover for the
    /// time it held the move.
    #[error(
        "countersigns an event {} s after its node took it without a receipt (a refused \
         receipt cannot be made up later; at most {} s of skew is allowed)",
        (countersigned_ms - answered_ms) / 1000,
        MAX_CLOCK_SKEW_MS / 1000
    )]
    LateCountersignature {
        countersigned_ms: u64,
        answered_ms: u64,
    },
    /// A countersignature of a claim that gains by being late (on time, 6.9; lateness, A10)
    /// dated before the claim by more than the skew. A claim is judged no later than its first
    /// countersignature, so this would have it judged before it was made; and no honest node
    /// holds an event dated that far ahead of its clock (it refuses it on arrival until its
    /// clock catches up), so the date is false.
    #[error(
        "countersigns a claim {} s before the claim's own time (at most {} s of skew is \
         allowed): the claim would be judged before it was made",
        (claim_ms - countersigned_ms) / 1000,
        MAX_CLOCK_SKEW_MS / 1000
    )]
    EarlyCountersignature {
        countersigned_ms: u64,
        claim_ms: u64,
    },
}

/// Checks an arriving event's date against the receiving node's clock `now_ms`.
///
/// # Errors
/// [`TimeError::AheadOfReceiver`] if `event_ms` is more than [`MAX_CLOCK_SKEW_MS`] ahead.
///
/// # Examples
/// ```
/// use sobre_core::record::time::{check_arrival, MAX_CLOCK_SKEW_MS};
/// let now = 1_800_000_000_000;
/// assert!(check_arrival(now + MAX_CLOCK_SKEW_MS, now).is_ok());
/// assert!(check_arrival(now + 4 * 86_400_000, now).is_err());
/// ```
pub fn check_arrival(event_ms: u64, now_ms: u64) -> Result<(), TimeError> {
    if event_ms > now_ms.saturating_add(MAX_CLOCK_SKEW_MS) {
        return Err(TimeError::AheadOfReceiver { event_ms, now_ms });
    }
    Ok(())
}

/// Checks a countersignature dated `countersigned_ms` of an event the countersigner's node
/// took at `answered_ms` without receipting it (the answer to its delivery had no receipt).
///
/// # Errors
/// [`TimeError::LateCountersignature`] if it is dated more than [`MAX_CLOCK_SKEW_MS`] after.
pub fn check_countersignature(countersigned_ms: u64, answered_ms: u64) -> Result<(), TimeError> {
    if countersigned_ms > answered_ms.saturating_add(MAX_CLOCK_SKEW_MS) {
        return Err(TimeError::LateCountersignature {
            countersigned_ms,
            answered_ms,
        });
    }
    Ok(())
}

/// Checks a countersignature dated `countersigned_ms` of a claim on time or lateness signed
/// at `claim_ms` (see [`TimeError::EarlyCountersignature`]).
///
/// # Errors
/// [`TimeError::EarlyCountersignature`] if it is dated more than [`MAX_CLOCK_SKEW_MS`] before.
pub fn check_claim_countersignature(countersigned_ms: u64, claim_ms: u64) -> Result<(), TimeError> {
    if countersigned_ms.saturating_add(MAX_CLOCK_SKEW_MS) < claim_ms {
        return Err(TimeError::EarlyCountersignature {
            countersigned_ms,
            claim_ms,
        });
    }
    Ok(())
}

/// Checks that a new leave signed at `signed_ms` does not start in the past (beyond the
/// skew). Re-signing a leave with the same start to change its end is not a new leave.
///
/// # Errors
/// [`TimeError::LeaveInThePast`] if `from_ms` is more than [`MAX_CLOCK_SKEW_MS`] before
/// `signed_ms`.
pub fn check_leave_start(from_ms: u64, signed_ms: u64) -> Result<(), TimeError> {
    if from_ms.saturating_add(MAX_CLOCK_SKEW_MS) < signed_ms {
        return Err(TimeError::LeaveInThePast { from_ms, signed_ms });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: u64 = 1_800_000_000_000;
    const DAY: u64 = 86_400_000;

    #[test]
    fn an_event_within_the_skew_is_taken() {
        for t in [0, NOW - DAY, NOW, NOW + MAX_CLOCK_SKEW_MS] {
            assert_eq!(check_arrival(t, NOW), Ok(()), "{t}");
        }
    }

    #[test]
    fn an_event_dated_four_days_ahead_is_refused() {
        let e = check_arrival(NOW + 4 * DAY, NOW).unwrap_err();
        assert_eq!(
            e,
            TimeError::AheadOfReceiver {
                event_ms: NOW + 4 * DAY,
                now_ms: NOW
            }
        );
        assert!(e.to_string().contains("345600 s ahead"), "{e}");
        assert!(check_arrival(NOW + MAX_CLOCK_SKEW_MS + 1, NOW).is_err());
    }

    #[test]
    fn a_claim_countersigned_before_it_was_made_beyond_the_skew_is_refused() {
        assert_eq!(check_claim_countersignature(NOW, NOW), Ok(()));
        assert_eq!(check_claim_countersignature(NOW + DAY, NOW), Ok(()));
        assert_eq!(
            check_claim_countersignature(NOW - MAX_CLOCK_SKEW_MS, NOW),
            Ok(())
        );
        let e = check_claim_countersignature(NOW - 5 * 60_000, NOW).unwrap_err();
        assert!(e.to_string().contains("300 s before"), "{e}");
    }

    #[test]
    fn a_countersignature_after_a_refused_receipt_is_refused() {
        assert_eq!(check_countersignature(NOW, NOW), Ok(()));
        assert_eq!(check_countersignature(NOW + MAX_CLOCK_SKEW_MS, NOW), Ok(()));
        assert!(matches!(
            check_countersignature(NOW + MAX_CLOCK_SKEW_MS + 1, NOW),
            Err(TimeError::LateCountersignature { .. })
        ));
    }

    #[test]
    fn a_leave_dated_in_the_past_is_refused() {
        assert_eq!(check_leave_start(NOW, NOW), Ok(()));
        assert_eq!(check_leave_start(NOW + DAY, NOW), Ok(()));
        assert_eq!(check_leave_start(NOW - MAX_CLOCK_SKEW_MS, NOW), Ok(()));
        assert!(matches!(
            check_leave_start(NOW - 3 * DAY, NOW),
            Err(TimeError::LeaveInThePast { .. })
        ));
    }
}
