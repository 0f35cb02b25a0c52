//! Correspondence leave (vacation): the periods that stop a player's clock and the yearly
//! allowance they are checked against (ICCF: 45 days). Separate from the clocks: granting a
//! leave is a rule about the calendar, not about the running clocks.

use crate::types::Color;

use super::clocks::{ClockStop, merge, overlap};
use super::duration::dur;
use super::{DAY, Millis, YEAR};

/// A half-open interval `[from_ms, to_ms)` during which a player is on leave and their clock
/// is stopped (correspondence; ICCF calls it "leave"). Empty if `to_ms <= from_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct LeavePeriod {
    /// First millisecond of the leave.
    pub from_ms: u64,
    /// First millisecond after the leave.
    pub to_ms: u64,
}

impl LeavePeriod {
    /// The [`ClockStop`] this leave puts on `side`'s clock.
    pub fn stop_for(self, side: Color) -> ClockStop {
        ClockStop::leave(side, self.from_ms, self.to_ms)
    }
}

/// How much leave a player may take per year. ICCF: 45 days per calendar year.
///
/// Years here are 365-day years counted from an epoch the caller chooses (e.g. 1 January of
/// the event's first year, or the Unix epoch): year `k` is
/// `[epoch + k·365d, epoch + (k+1)·365d)`, and anything before the epoch counts in year 0. A
/// leave that crosses a year boundary counts in both years, each for its own part. Days are
/// counted in milliseconds: half a day of leave uses half a day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LeaveAllowance {
    /// Days of leave per year.
    pub days_per_year: u32,
}

impl Default for LeaveAllowance {
    /// [`LeaveAllowance::ICCF`].
    fn default() -> Self {
        LeaveAllowance::ICCF
    }
}

/// A requested leave that cannot be granted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LeaveError {
    /// The leave ends before or when it starts.
    #[error("leave ends ({to_ms}) before it starts ({from_ms})")]
    Empty {
        /// Requested start.
        from_ms: u64,
        /// Requested end.
        to_ms: u64,
    },
    /// With this leave, the player would exceed the allowance in one year.
    #[error(
        "leave of {} exceeds the allowance of {} in year {year} ({} already taken)",
        dur(.requested_ms), dur(.allowance_ms), dur(.taken_ms)
    )]
    ExceedsAllowance {
        /// Index of the year counted from the epoch (0 = the first).
        year: u64,
        /// Leave already taken in that year (overlaps with the request counted once).
        taken_ms: Millis,
        /// The requested leave's part in that year.
        requested_ms: Millis,
        /// The yearly allowance.
        allowance_ms: Millis,
    },
}

impl LeaveAllowance {
    /// ICCF's 45 days per year.
    pub const ICCF: LeaveAllowance = LeaveAllowance { days_per_year: 45 };

    /// The allowance in milliseconds.
    pub fn per_year_ms(self) -> Millis {
        u64::from(self.days_per_year).saturating_mul(DAY)
    }

    /// Checks whether `requested` may be granted, given the leave already `taken` (in any
    /// order, overlaps counted once), in every year (see the type docs) the request touches.
    ///
    /// # Errors
    /// [`LeaveError::Empty`] if the request ends before it starts;
    /// [`LeaveError::ExceedsAllowance`] for the first year in which leave would exceed the
    /// allowance.
    ///
    /// # Examples
    /// ```
    /// use sobre_core::clock::{LeaveAllowance, LeavePeriod, DAY};
    /// let taken = [LeavePeriod { from_ms: 0, to_ms: 40 * DAY }];
    /// let five = LeavePeriod { from_ms: 100 * DAY, to_ms: 105 * DAY };
    /// let six = LeavePeriod { from_ms: 100 * DAY, to_ms: 106 * DAY };
    /// assert!(LeaveAllowance::ICCF.check(0, &taken, five).is_ok());
    /// assert!(LeaveAllowance::ICCF.check(0, &taken, six).is_err());
    /// ```
    pub fn check(
        self,
        epoch_ms: u64,
        taken: &[LeavePeriod],
        requested: LeavePeriod,
    ) -> Result<(), LeaveError> {
        if requested.to_ms <= requested.from_ms {
            return Err(LeaveError::Empty {
                from_ms: requested.from_ms,
                to_ms: requested.to_ms,
            });
        }
        let allowance = self.per_year_ms();
        if allowance >= YEAR {
            // No year can hold more leave than its own length.
            return Ok(());
        }
        let before = merge(taken.iter().map(|l| (l.from_ms, l.to_ms)));
        let after = merge(
            taken
                .iter()
                .chain(std::iter::once(&requested))
                .map(|l| (l.from_ms, l.to_ms)),
        );
        let first_year = year_index(epoch_ms, requested.from_ms);
        let last_year = year_index(epoch_ms, requested.to_ms - 1);
        // Terminates quickly: a request covering a whole year fails in that year, since the
        // allowance is shorter than a year (checked above).
        let mut year = first_year;
        loop {
            let (lo, hi) = year_bounds(epoch_ms, year);
            let with_request = overlap(&after, lo, hi);
            if with_request > allowance {
                let taken_ms = overlap(&before, lo, hi);
                return Err(LeaveError::ExceedsAllowance {
                    year,
                    taken_ms,
                    requested_ms: overlap(&[(requested.from_ms, requested.to_ms)], lo, hi),
                    allowance_ms: allowance,
                });
            }
            if year >= last_year {
                return Ok(());
            }
            year += 1;
        }
    }

    /// Leave taken in year `year` (see the type docs), overlaps counted once.
    pub fn taken_in_year(epoch_ms: u64, taken: &[LeavePeriod], year: u64) -> Millis {
        let merged = merge(taken.iter().map(|l| (l.from_ms, l.to_ms)));
        let (lo, hi) = year_bounds(epoch_ms, year);
        overlap(&merged, lo, hi)
    }
}

fn year_index(epoch_ms: u64, at_ms: u64) -> u64 {
    at_ms.saturating_sub(epoch_ms) / YEAR
}

/// `[lo, hi)` of leave year `year`; year 0 also holds everything before the epoch.
fn year_bounds(epoch_ms: u64, year: u64) -> (u64, u64) {
    let lo = if year == 0 {
        0
    } else {
        epoch_ms.saturating_add(year.saturating_mul(YEAR))
    };
    let hi = epoch_ms.saturating_add(year.saturating_add(1).saturating_mul(YEAR));
    (lo, hi)
}
