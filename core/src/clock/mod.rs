//! Time controls and chess clocks, computed from timestamps passed in (no clock reads).
//!
//! - [`Millis`], [`parse_duration`], [`format_duration`]: durations as users write them
//!   (`3d`, `12h`, `90m`, `30s`, `1d12h`, `250ms`).
//! - [`TimeControl`]: correspondence per move (`3d`), ICCF-style blocks of moves with time
//!   carried forward (`10/50d`), over-the-board periods (FIDE Art. 6.2; `40/2h+1h`,
//!   `40/90m:30m+30s`, `90m d5s`) and `unlimited`, with a stable text form.
//! - [`LeaveAllowance`] and [`LeavePeriod`]: correspondence leave (vacation) that stops a
//!   player's clock, checked against a yearly allowance (ICCF: 45 days).
//! - [`clocks()`]: both clocks at a given moment, from the start time, the moves' timestamps
//!   (including the signed receipt time in correspondence) and the periods when clocks were
//!   stopped (leave; adjournment, FIDE Appendix A1/A5/A9). It finds the exact millisecond each
//!   flag fell (FIDE 6.1: "caída de bandera") — each overstep is its own fall, standing until
//!   the opponent plays on ([`Overstep`], 6.8); what a flag fall *means* (6.9, including the
//!   draw when the opponent cannot mate) is decided by [`crate::rules::flag_fall`].
//!
//! All arithmetic saturates: any input, even unordered or overlapping timestamps, gives a
//! deterministic answer and never panics (see [`clocks()`] for the clamping rules).
//!
//! Each concern has its own file: `duration.rs` (the text of durations), `time_control.rs`
//! (controls and their text form), `leave.rs` (the yearly allowance) and `clocks.rs` (the
//! simulation of both clocks). The files are private modules whose items are re-exported
//! here, so `sobre_core::clock::X` stays the one public path.

mod clocks;
mod duration;
mod leave;
#[cfg(test)]
mod tests;
mod time_control;

pub use clocks::{
    ClockAdjustment, ClockState, ClockStop, MoveTiming, Overstep, clocks, clocks_adjusted,
    time_used,
};
pub use duration::{DurationError, DurationErrorKind, format_duration, parse_duration};
pub use leave::{LeaveAllowance, LeaveError, LeavePeriod};
pub use time_control::{
    Bonus, Classical, Period, TimeControl, TimeControlError, TimeControlErrorKind,
};

/// A duration or an instant, in milliseconds. Instants are milliseconds since an epoch the
/// caller chooses (normally the Unix epoch); this module never reads a clock.
pub type Millis = u64;

/// One second in [`Millis`].
pub const SECOND: Millis = 1_000;
/// One minute in [`Millis`].
pub const MINUTE: Millis = 60 * SECOND;
/// One hour in [`Millis`].
pub const HOUR: Millis = 60 * MINUTE;
/// One day (24 hours) in [`Millis`].
pub const DAY: Millis = 24 * HOUR;
/// One leave year: 365 days, see [`LeaveAllowance`].
pub const YEAR: Millis = 365 * DAY;

/// A duration as a signed clock reading, saturating at `i64::MAX` (an unlimited clock).
fn to_i64(ms: Millis) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}
