//! Time controls and chess clocks, computed from timestamps passed in (no clock reads).
//!
//! - [`Millis`], [`parse_duration`], [`format_duration`]: durations as users write them
//!   (`3d`, `12h`, `90m`, `30s`, `1d12h`, `250ms`).
//! - [`TimeControl`]: correspondence per move (`3d`), ICCF-style blocks of moves with time
//!   carried forward (`10/50d`), over-the-board periods (FIDE Art. 6.2; `40/2h+1h`,
//!   `40/90m:30m+30s`, `90m d5s`) and `unlimited`, with a stable text form.
//! - [`LeaveAllowance`] and [`LeavePeriod`]: correspondence leave (vacation) that stops a
//!   player's clock, checked against a yearly allowance (ICCF: 45 days).
//! - [`clocks`]: both clocks at a given moment, from the start time, the moves' timestamps
//!   (including the signed receipt time in correspondence) and the periods when clocks were
//!   stopped (leave; adjournment, FIDE Appendix A1/A5/A9). It finds the exact millisecond a
//!   flag fell (FIDE 6.1: "caída de bandera"); what a flag fall *means* (6.9, including the
//!   draw when the opponent cannot mate) is decided by [`crate::rules::flag_fall`].
//!
//! All arithmetic saturates: any input, even unordered or overlapping timestamps, gives a
//! deterministic answer and never panics (see [`clocks`] for the clamping rules).

use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

use crate::types::Color;

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

/// Units in the order they must be written, largest first.
const UNITS: [(&str, Millis); 5] = [
    ("d", DAY),
    ("h", HOUR),
    ("m", MINUTE),
    ("s", SECOND),
    ("ms", 1),
];

// ---------------------------------------------------------------------------------------------
// Durations
// ---------------------------------------------------------------------------------------------

/// Why a duration did not parse; see [`DurationError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationErrorKind {
    /// Nothing but whitespace.
    #[error("empty duration (write e.g. 3d, 12h, 90m, 30s or 1d12h)")]
    Empty,
    /// A unit or other text where a number was expected (`d3`, `h`).
    #[error("expected a number before {found:?}")]
    ExpectedNumber {
        /// The character found instead of a digit.
        found: char,
    },
    /// A number with no unit (`90`).
    #[error("missing unit after {number} (use d, h, m, s or ms)")]
    MissingUnit {
        /// The number left without a unit.
        number: String,
    },
    /// A unit this parser does not know (`3w`).
    #[error("unknown unit {unit:?} (use d, h, m, s or ms)")]
    UnknownUnit {
        /// The unit as written.
        unit: String,
    },
    /// A character that is neither a digit nor a unit letter (`1.5h`, `3 d`).
    #[error("unexpected {found:?}")]
    Unexpected {
        /// The offending character.
        found: char,
    },
    /// A unit repeated or after a smaller one (`30s1m`, `1m1m`).
    #[error("unit {unit:?} repeated or out of order (largest unit first, e.g. 1d12h)")]
    UnitOrder {
        /// The unit that came out of order.
        unit: String,
    },
    /// More than `u64::MAX` milliseconds.
    #[error("too long")]
    Overflow,
}

/// A duration that did not parse: the input as given and why.
///
/// ```
/// use sobre_core::clock::parse_duration;
/// let err = parse_duration("3w").unwrap_err();
/// assert_eq!(err.to_string(), r#"invalid duration "3w": unknown unit "w" (use d, h, m, s or ms)"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid duration {input:?}: {kind}")]
pub struct DurationError {
    /// The text that was given.
    pub input: String,
    /// What is wrong with it.
    pub kind: DurationErrorKind,
}

/// Parses a duration as users write it: one or more `<number><unit>` with the units `d`
/// (24 h), `h`, `m`, `s` and `ms`, largest first, each at most once, no spaces inside:
/// `3d`, `12h`, `90m`, `30s`, `1d12h`, `1m30s500ms`. Units are case-insensitive; surrounding
/// whitespace is ignored. `0s` is a valid (zero) duration.
///
/// # Errors
/// [`DurationError`] naming the input: empty text, a number without a unit, an unknown unit,
/// units repeated or out of order, any other character, or more than `u64::MAX` ms.
///
/// # Examples
/// ```
/// use sobre_core::clock::{parse_duration, DAY, HOUR, SECOND};
/// assert_eq!(parse_duration("1d12h").unwrap(), DAY + 12 * HOUR);
/// assert_eq!(parse_duration("90s").unwrap(), 90 * SECOND);
/// assert!(parse_duration("90").is_err());
/// ```
pub fn parse_duration(input: &str) -> Result<Millis, DurationError> {
    let err = |kind| DurationError {
        input: input.to_owned(),
        kind,
    };
    let s = input.trim();
    if s.is_empty() {
        return Err(err(DurationErrorKind::Empty));
    }
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut total: Millis = 0;
    let mut previous_unit: Option<usize> = None;
    while i < bytes.len() {
        let number_start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        // `i` only ever advances over ASCII bytes, so it is always a char boundary.
        let next_char = |at: usize| s[at..].chars().next().unwrap_or(' ');
        if i == number_start {
            return Err(err(DurationErrorKind::ExpectedNumber {
                found: next_char(i),
            }));
        }
        let digits = &s[number_start..i];
        let unit_start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        let unit = s[unit_start..i].to_ascii_lowercase();
        if unit.is_empty() {
            return Err(err(if i < bytes.len() {
                DurationErrorKind::Unexpected {
                    found: next_char(i),
                }
            } else {
                DurationErrorKind::MissingUnit {
                    number: digits.to_owned(),
                }
            }));
        }
        let Some(index) = UNITS.iter().position(|(name, _)| *name == unit) else {
            return Err(err(DurationErrorKind::UnknownUnit { unit }));
        };
        if previous_unit.is_some_and(|previous| index <= previous) {
            return Err(err(DurationErrorKind::UnitOrder { unit }));
        }
        previous_unit = Some(index);
        let number: u64 = digits
            .parse()
            .map_err(|_| err(DurationErrorKind::Overflow))?;
        total = number
            .checked_mul(UNITS[index].1)
            .and_then(|ms| total.checked_add(ms))
            .ok_or_else(|| err(DurationErrorKind::Overflow))?;
    }
    Ok(total)
}

/// Formats a duration in the canonical form [`parse_duration`] reads back: largest units
/// first, zero parts left out (`1d12h`, `90m` is written `1h30m`, `1s500ms`), and `0s` for
/// zero.
///
/// # Examples
/// ```
/// use sobre_core::clock::{format_duration, parse_duration, DAY, HOUR};
/// assert_eq!(format_duration(DAY + 12 * HOUR), "1d12h");
/// assert_eq!(parse_duration(&format_duration(123_456_789)).unwrap(), 123_456_789);
/// ```
pub fn format_duration(ms: Millis) -> String {
    Dur(ms).to_string()
}

fn dur(ms: &Millis) -> Dur {
    Dur(*ms)
}

/// Display adapter for a duration in canonical form, without an intermediate `String`.
struct Dur(Millis);

impl fmt::Display for Dur {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("0s");
        }
        let mut rest = self.0;
        for (name, size) in UNITS {
            let count = rest / size;
            if count > 0 {
                write!(f, "{count}{name}")?;
            }
            rest %= size;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Time controls
// ---------------------------------------------------------------------------------------------

/// One over-the-board period: `moves` moves must be completed in `time` (FIDE 6.2a). Time
/// left over is carried into the next period (6.2b).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// Moves to complete in this period (written before the `/`).
    pub moves: NonZeroU32,
    /// Time allotted for them.
    pub time: Millis,
}

/// Extra time per move in an over-the-board control (FIDE 6.2a, 6.2b).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Bonus {
    /// No extra time.
    #[default]
    None,
    /// Fischer increment: added to the player's clock after each of their completed moves,
    /// from move 1 on (6.2a "tiempo adicional con cada jugada").
    Increment(Millis),
    /// Delay (6.2b, "tiempo diferido" / "demora"; US "simple delay"): the first `delay` of
    /// each move is not charged; unused delay is not carried forward.
    Delay(Millis),
}

/// An over-the-board control: periods of `moves/time`, then optionally a final period for
/// all remaining moves ("sudden death"), plus an optional [`Bonus`]. Built only through
/// [`Classical::new`] (or parsing), so it always has some time in it.
///
/// Without a final period, the last `moves/time` period repeats (e.g. `40/2h:16/1h` gives
/// another hour after moves 56, 72, 88, …), the traditional form of adjourned games.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Classical {
    periods: Vec<Period>,
    sudden_death: Option<Millis>,
    bonus: Bonus,
    /// How long a playing session lasts, when the competition fixes it (`session 5h`): a
    /// player who adjourns before its end is deemed to have sealed at it (Appendix A1b).
    session: Option<Millis>,
}

impl Classical {
    /// A checked over-the-board control. A zero increment or delay is stored as
    /// [`Bonus::None`], so equal controls compare equal.
    ///
    /// # Errors
    /// [`TimeControlErrorKind::NoPeriods`] without any period nor a final period;
    /// [`TimeControlErrorKind::ZeroTime`] if a period or the final period has no time.
    ///
    /// # Examples
    /// ```
    /// use std::num::NonZeroU32;
    /// use sobre_core::clock::{Bonus, Classical, Period, TimeControl, HOUR};
    /// let forty = NonZeroU32::new(40).unwrap();
    /// let tc = Classical::new(vec![Period { moves: forty, time: 2 * HOUR }], Some(HOUR), Bonus::None)?;
    /// assert_eq!(TimeControl::Classical(tc).to_string(), "40/2h:1h");
    /// # Ok::<(), sobre_core::clock::TimeControlErrorKind>(())
    /// ```
    pub fn new(
        periods: Vec<Period>,
        sudden_death: Option<Millis>,
        bonus: Bonus,
    ) -> Result<Self, TimeControlErrorKind> {
        if periods.is_empty() && sudden_death.is_none() {
            return Err(TimeControlErrorKind::NoPeriods);
        }
        if periods.iter().any(|p| p.time == 0) {
            return Err(TimeControlErrorKind::ZeroTime { what: "a period" });
        }
        if sudden_death == Some(0) {
            return Err(TimeControlErrorKind::ZeroTime {
                what: "the final period",
            });
        }
        let bonus = match bonus {
            Bonus::Increment(0) | Bonus::Delay(0) => Bonus::None,
            other => other,
        };
        Ok(Classical {
            periods,
            sudden_death,
            bonus,
            session: None,
        })
    }

    /// The same control with playing sessions of `session` (Appendix A1b); zero means none.
    pub fn with_session(mut self, session: Millis) -> Self {
        self.session = (session > 0).then_some(session);
        self
    }

    /// How long a playing session lasts, if the control says (Appendix A1b).
    pub fn session(&self) -> Option<Millis> {
        self.session
    }

    /// The `moves/time` periods, in order.
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// The final period for all remaining moves, if any.
    pub fn sudden_death(&self) -> Option<Millis> {
        self.sudden_death
    }

    /// Increment or delay.
    pub fn bonus(&self) -> Bonus {
        self.bonus
    }

    /// Time on each clock at the start: the first period's.
    fn initial(&self) -> Millis {
        self.periods
            .first()
            .map(|p| p.time)
            .or(self.sudden_death)
            .unwrap_or(0)
    }

    /// Time added when a player completes their `n`-th move (n ≥ 1): the increment, plus the
    /// next period's time when `n` ends a period (FIDE 6.2b: saved time carries forward).
    fn added_after_move(&self, n: u32) -> Millis {
        let increment = match self.bonus {
            Bonus::Increment(inc) => inc,
            Bonus::None | Bonus::Delay(_) => 0,
        };
        increment.saturating_add(self.period_added_after_move(n))
    }

    fn period_added_after_move(&self, n: u32) -> Millis {
        let n = u64::from(n);
        let mut boundary: u64 = 0;
        for (i, period) in self.periods.iter().enumerate() {
            boundary = boundary.saturating_add(u64::from(period.moves.get()));
            if n < boundary {
                return 0;
            }
            if n == boundary {
                return self
                    .periods
                    .get(i + 1)
                    .map(|next| next.time)
                    .or(self.sudden_death)
                    .unwrap_or(period.time);
            }
        }
        match (self.sudden_death, self.periods.last()) {
            (None, Some(last)) if (n - boundary).is_multiple_of(u64::from(last.moves.get())) => {
                last.time
            }
            _ => 0,
        }
    }
}

/// A time control, with a stable text form ([`fmt::Display`] and [`FromStr`] round-trip).
///
/// # Text syntax
/// Durations are written as in [`parse_duration`] (`3d`, `90m`, `1d12h`, `30s`).
///
/// | text | meaning |
/// | --- | --- |
/// | `unlimited` | no clock |
/// | `3d` | correspondence, each move within 3 days; unused time is not carried forward |
/// | `3d+1d` | the same, plus a 1-day increment per move kept as a reserve (see below) |
/// | `10/50d` | ICCF: 10 moves in 50 days, then 50 more days every 10 moves, unused time carried forward |
/// | `10/50d+1d` | the same, plus 1 day after every move |
/// | `40/2h+1h` or `40/2h:1h` | over the board: 40 moves in 2 h, then 1 h for the rest (FIDE 6.2) |
/// | `40/2h:20/1h:30m` | 40 moves in 2 h, 20 moves in 1 h, then 30 min for the rest |
/// | `40/90m:30m+30s` | 40 in 90 min, then 30 min, with a 30 s increment from move 1 |
/// | `90m+30s` or `90m inc 30s` | 90 min for the game, 30 s increment per move |
/// | `90m d5s` or `90m delay 5s` | 90 min for the game, 5 s delay per move (FIDE 6.2b) |
/// | `40/2h` | 40 moves in 2 h, repeated every 40 moves |
///
/// **Correspondence or over the board?** A control may start with `corr ` or `otb ` to say
/// which it is. Without that word, it is correspondence when its first period is at least one
/// day (`3d`, `10/50d`, `72h`), over the board otherwise (`90m`, `40/2h`). Display writes the
/// word only when this rule would read the control the other way (`corr 12h`, `otb 1d`).
///
/// **`+` in over-the-board controls**: after a `moves/time` period, `+` starts the next
/// period, exactly like `:` (`40/2h+1h` = 40 moves in 2 h, then 1 h). After the final
/// period (one without a move count) `+` gives the increment (`40/2h+1h+30s`, `90m+30s`).
/// A control without a final period writes its increment as ` inc 30s` (`40/2h inc 30s`);
/// `+` with less than a minute after a `moves/time` period (`40/2h+30s`) is refused as
/// ambiguous (write `inc 30s`, or `:30s` for a final period that short).
/// Delay is always a separate word, `d5s` or `delay 5s`; a control has an increment or a
/// delay, not both. Display writes periods joined by `:`, then `+inc` or ` inc X`, then ` dX`.
///
/// **Correspondence increment**: in `10/50d+1d` the day is added after every move and
/// carried forward with the rest. In `3d+1d` unused per-move time is *not* carried forward,
/// but increments build a reserve: each move may take `3d` plus the reserve; time beyond
/// `3d` is taken from the reserve, and 1 day is added to it after every move.
///
/// # Examples
/// ```
/// use sobre_core::clock::{TimeControl, DAY};
/// let tc: TimeControl = "10/50d+1d".parse()?;
/// assert!(matches!(tc, TimeControl::CorrespondenceMoves { period, increment, .. }
///     if period == 50 * DAY && increment == DAY));
/// assert_eq!("40/2h+1h".parse::<TimeControl>()?.to_string(), "40/2h:1h");
/// assert_eq!("3d".parse::<TimeControl>()?, TimeControl::CorrespondencePerMove { per_move: 3 * DAY, increment: 0 });
/// # Ok::<(), sobre_core::clock::TimeControlError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// No clock: never a flag, no deadline.
    Unlimited,
    /// Correspondence: each move within `per_move` of the move reaching the player; time is
    /// not carried forward. `increment` (0 = none) builds a reserve, see the type docs.
    CorrespondencePerMove {
        /// Time for each move.
        per_move: Millis,
        /// Added to the player's reserve after each of their moves.
        increment: Millis,
    },
    /// Correspondence, ICCF style: `moves` moves in `period`; after each block of `moves`
    /// moves the player gets another `period` on top of what remains (time carried forward).
    CorrespondenceMoves {
        /// Moves per block.
        moves: NonZeroU32,
        /// Time per block.
        period: Millis,
        /// Added after each move (0 = none).
        increment: Millis,
    },
    /// Over the board (FIDE Art. 6), used for adjourned games (Appendix A).
    Classical(Classical),
}

impl TimeControl {
    /// How long a playing session lasts, for an over-the-board control that says
    /// (`session 5h`): Appendix A1b charges a player who adjourns early to the session's end.
    pub fn session(&self) -> Option<Millis> {
        match self {
            TimeControl::Classical(c) => c.session(),
            _ => None,
        }
    }

    /// Whether this is a correspondence control (per move or ICCF blocks).
    pub fn is_correspondence(&self) -> bool {
        matches!(
            self,
            TimeControl::CorrespondencePerMove { .. } | TimeControl::CorrespondenceMoves { .. }
        )
    }

    /// The delay of FIDE 6.2b, if this control has one (0 otherwise).
    pub fn delay(&self) -> Millis {
        match self {
            TimeControl::Classical(Classical {
                bonus: Bonus::Delay(delay),
                ..
            }) => *delay,
            _ => 0,
        }
    }

    /// Time on each clock when the game starts (`i64::MAX` for [`TimeControl::Unlimited`]).
    fn initial(&self) -> i64 {
        match self {
            TimeControl::Unlimited => i64::MAX,
            TimeControl::CorrespondencePerMove { per_move, .. } => to_i64(*per_move),
            TimeControl::CorrespondenceMoves { period, .. } => to_i64(*period),
            TimeControl::Classical(c) => to_i64(c.initial()),
        }
    }

    /// Length of the first period, which decides correspondence vs over the board when the
    /// text has no `corr`/`otb` word.
    fn first_period(&self) -> Millis {
        match self {
            TimeControl::Unlimited => 0,
            TimeControl::CorrespondencePerMove { per_move, .. } => *per_move,
            TimeControl::CorrespondenceMoves { period, .. } => *period,
            TimeControl::Classical(c) => c.initial(),
        }
    }
}

impl fmt::Display for TimeControl {
    /// The canonical text form; see the [type docs](TimeControl#text-syntax).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let looks_like_correspondence = self.first_period() >= DAY;
        match self {
            TimeControl::Unlimited => f.write_str("unlimited"),
            TimeControl::CorrespondencePerMove {
                per_move,
                increment,
            } => {
                if !looks_like_correspondence {
                    f.write_str("corr ")?;
                }
                write!(f, "{}", Dur(*per_move))?;
                if *increment > 0 {
                    write!(f, "+{}", Dur(*increment))?;
                }
                Ok(())
            }
            TimeControl::CorrespondenceMoves {
                moves,
                period,
                increment,
            } => {
                if !looks_like_correspondence {
                    f.write_str("corr ")?;
                }
                write!(f, "{moves}/{}", Dur(*period))?;
                if *increment > 0 {
                    write!(f, "+{}", Dur(*increment))?;
                }
                Ok(())
            }
            TimeControl::Classical(c) => {
                if looks_like_correspondence {
                    f.write_str("otb ")?;
                }
                let mut separator = "";
                for period in &c.periods {
                    write!(f, "{separator}{}/{}", period.moves, Dur(period.time))?;
                    separator = ":";
                }
                if let Some(rest) = c.sudden_death {
                    write!(f, "{separator}{}", Dur(rest))?;
                }
                match (c.bonus, c.sudden_death) {
                    (Bonus::None, _) => Ok(()),
                    (Bonus::Increment(inc), Some(_)) => write!(f, "+{}", Dur(inc)),
                    (Bonus::Increment(inc), None) => write!(f, " inc {}", Dur(inc)),
                    (Bonus::Delay(delay), _) => write!(f, " d{}", Dur(delay)),
                }?;
                match c.session {
                    Some(session) => write!(f, " session {}", Dur(session)),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Why a time control did not parse (or [`Classical::new`] refused it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlErrorKind {
    /// Nothing but whitespace.
    #[error("empty (write e.g. 3d, 10/50d, 40/2h+1h or unlimited)")]
    Empty,
    /// A duration inside the control did not parse.
    #[error("{0}")]
    Duration(DurationError),
    /// The text before a `/` is not a whole number of moves ≥ 1.
    #[error("bad move count {text:?} (a whole number of moves, at least 1)")]
    MoveCount {
        /// The text before the `/`.
        text: String,
    },
    /// A period, the time per move or the final period has no time.
    #[error("{what} must be longer than zero")]
    ZeroTime {
        /// Which part: "a period", "the time per move", …
        what: &'static str,
    },
    /// Neither a `moves/time` period nor a final period.
    #[error("no period with time in it")]
    NoPeriods,
    /// A correspondence control with more than one period or a delay.
    #[error(
        "a correspondence control is one period with an optional increment, e.g. 3d+1d or 10/50d+1d (start with `otb ` for over-the-board periods)"
    )]
    CorrespondenceShape,
    /// A `moves/time` period after the final (move-less) period, or two final periods.
    #[error("{text:?} comes after the final period (the period without a move count must be last)")]
    AfterFinalPeriod {
        /// The out-of-place period.
        text: String,
    },
    /// `+` with less than a minute after a `moves/time` period (`40/2h+30s`): an increment
    /// must be written `inc 30s` there, a short final period `:30s`.
    #[error(
        "+{text} after a period with a move count would be a final period of {text}; write `inc {text}` for an increment, or `:{text}` for such a final period"
    )]
    AmbiguousPlus {
        /// The duration after the `+`.
        text: String,
    },
    /// Two increments, two delays, or an increment and a delay.
    #[error("more than one increment or delay")]
    DuplicateBonus,
    /// Empty text between separators (`40/2h::1h`, a trailing `+`).
    #[error("empty period between separators")]
    EmptyPeriod,
    /// A word this syntax does not know, or a keyword without its duration.
    #[error("unexpected {text:?} (after the periods: `inc 30s`, `d5s` or `delay 5s`)")]
    Unexpected {
        /// The offending word.
        text: String,
    },
}

/// A time control that did not parse: the input as given and why.
///
/// ```
/// use sobre_core::clock::TimeControl;
/// let err = "0/50d".parse::<TimeControl>().unwrap_err();
/// assert_eq!(err.to_string(),
///     r#"invalid time control "0/50d": bad move count "0" (a whole number of moves, at least 1)"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid time control {input:?}: {kind}")]
pub struct TimeControlError {
    /// The text that was given.
    pub input: String,
    /// What is wrong with it.
    pub kind: TimeControlErrorKind,
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Parses the syntax described in the [type docs](TimeControl#text-syntax).
    ///
    /// # Errors
    /// [`TimeControlError`] naming the input and the part that is wrong.
    fn from_str(input: &str) -> Result<Self, Self::Err> {
        parse_time_control(input).map_err(|kind| TimeControlError {
            input: input.to_owned(),
            kind,
        })
    }
}

#[derive(Clone, Copy)]
enum Mode {
    Correspondence,
    OverTheBoard,
}

fn parse_time_control(input: &str) -> Result<TimeControl, TimeControlErrorKind> {
    let text = input.trim();
    if text.is_empty() {
        return Err(TimeControlErrorKind::Empty);
    }
    if text.eq_ignore_ascii_case("unlimited") {
        return Ok(TimeControl::Unlimited);
    }
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or_default();
    let (mode, main) = if first.eq_ignore_ascii_case("corr") {
        (Some(Mode::Correspondence), words.next())
    } else if first.eq_ignore_ascii_case("otb") {
        (Some(Mode::OverTheBoard), words.next())
    } else {
        (None, Some(first))
    };
    let main = main.ok_or(TimeControlErrorKind::Empty)?;
    // `session X` (Appendix A1b) may close an over-the-board control.
    let mut rest: Vec<&str> = words.collect();
    let session = match rest.iter().position(|w| w.eq_ignore_ascii_case("session")) {
        Some(at) => {
            let value = rest
                .get(at + 1)
                .ok_or_else(|| TimeControlErrorKind::Unexpected {
                    text: "session".to_owned(),
                })?;
            let session = duration(value)?;
            rest.drain(at..at + 2);
            Some(session)
        }
        None => None,
    };
    let (increment_word, delay_word) = parse_modifiers(rest.into_iter())?;
    let mode = match mode {
        Some(mode) => mode,
        None => {
            let head = main.split([':', '+']).next().unwrap_or_default();
            let time = head.rsplit('/').next().unwrap_or_default();
            if duration(time)? >= DAY {
                Mode::Correspondence
            } else {
                Mode::OverTheBoard
            }
        }
    };
    match (mode, session) {
        (Mode::Correspondence, None) => parse_correspondence(main, increment_word, delay_word),
        // Sessions belong to games over the board (A1: "al final del tiempo establecido
        // para la sesión").
        (Mode::Correspondence, Some(_)) => Err(TimeControlErrorKind::Unexpected {
            text: "session".to_owned(),
        }),
        (Mode::OverTheBoard, _) => {
            let tc = parse_over_the_board(main, increment_word, delay_word)?;
            Ok(match (tc, session) {
                (TimeControl::Classical(c), Some(s)) => TimeControl::Classical(c.with_session(s)),
                (tc, _) => tc,
            })
        }
    }
}

/// Reads the words after the periods: `inc X`, `delay X`, `dX`.
fn parse_modifiers<'a>(
    mut words: impl Iterator<Item = &'a str>,
) -> Result<(Option<Millis>, Option<Millis>), TimeControlErrorKind> {
    let mut increment = None;
    let mut delay = None;
    while let Some(word) = words.next() {
        let (slot, value) = if word.eq_ignore_ascii_case("inc") {
            (&mut increment, words.next())
        } else if word.eq_ignore_ascii_case("delay") {
            (&mut delay, words.next())
        } else if let Some(rest) = word.strip_prefix(['d', 'D'])
            && rest.starts_with(|c: char| c.is_ascii_digit())
        {
            (&mut delay, Some(rest))
        } else {
            return Err(TimeControlErrorKind::Unexpected {
                text: word.to_owned(),
            });
        };
        let value = value.ok_or_else(|| TimeControlErrorKind::Unexpected {
            text: word.to_owned(),
        })?;
        if slot.replace(duration(value)?).is_some() {
            return Err(TimeControlErrorKind::DuplicateBonus);
        }
    }
    if increment.is_some() && delay.is_some() {
        return Err(TimeControlErrorKind::DuplicateBonus);
    }
    Ok((increment, delay))
}

fn duration(text: &str) -> Result<Millis, TimeControlErrorKind> {
    parse_duration(text).map_err(TimeControlErrorKind::Duration)
}

fn move_count(text: &str) -> Result<NonZeroU32, TimeControlErrorKind> {
    text.parse::<NonZeroU32>()
        .map_err(|_| TimeControlErrorKind::MoveCount {
            text: text.to_owned(),
        })
}

fn parse_correspondence(
    main: &str,
    increment_word: Option<Millis>,
    delay_word: Option<Millis>,
) -> Result<TimeControl, TimeControlErrorKind> {
    if delay_word.is_some() || main.contains(':') {
        return Err(TimeControlErrorKind::CorrespondenceShape);
    }
    let mut parts = main.split('+');
    let base = parts.next().unwrap_or_default();
    let increment_plus = parts.next().map(duration).transpose()?;
    if parts.next().is_some() {
        return Err(TimeControlErrorKind::CorrespondenceShape);
    }
    let increment = match (increment_plus, increment_word) {
        (Some(_), Some(_)) => return Err(TimeControlErrorKind::DuplicateBonus),
        (a, b) => a.or(b).unwrap_or(0),
    };
    match base.split_once('/') {
        Some((moves, period)) => {
            let moves = move_count(moves)?;
            let period = duration(period)?;
            if period == 0 {
                return Err(TimeControlErrorKind::ZeroTime { what: "a period" });
            }
            Ok(TimeControl::CorrespondenceMoves {
                moves,
                period,
                increment,
            })
        }
        None => {
            let per_move = duration(base)?;
            if per_move == 0 {
                return Err(TimeControlErrorKind::ZeroTime {
                    what: "the time per move",
                });
            }
            Ok(TimeControl::CorrespondencePerMove {
                per_move,
                increment,
            })
        }
    }
}

fn parse_over_the_board(
    main: &str,
    increment_word: Option<Millis>,
    delay_word: Option<Millis>,
) -> Result<TimeControl, TimeControlErrorKind> {
    let mut periods = Vec::new();
    let mut sudden_death = None;
    let mut increment_plus = None;
    for segment in main.split(':') {
        for (i, part) in segment.split('+').enumerate() {
            let after_plus = i > 0;
            if part.is_empty() {
                return Err(TimeControlErrorKind::EmptyPeriod);
            }
            if increment_plus.is_some() {
                return Err(TimeControlErrorKind::DuplicateBonus);
            }
            if let Some((moves, time)) = part.split_once('/') {
                if sudden_death.is_some() {
                    return Err(TimeControlErrorKind::AfterFinalPeriod {
                        text: part.to_owned(),
                    });
                }
                periods.push(Period {
                    moves: move_count(moves)?,
                    time: duration(time)?,
                });
            } else if sudden_death.is_none() {
                let time = duration(part)?;
                if after_plus && time < MINUTE {
                    // `40/2h+30s` is far likelier a forgotten `inc` than a 30 s final period.
                    return Err(TimeControlErrorKind::AmbiguousPlus {
                        text: part.to_owned(),
                    });
                }
                sudden_death = Some(time);
            } else if after_plus {
                increment_plus = Some(duration(part)?);
            } else {
                return Err(TimeControlErrorKind::AfterFinalPeriod {
                    text: part.to_owned(),
                });
            }
        }
    }
    let bonus = match (increment_plus, increment_word, delay_word) {
        (None, None, None) => Bonus::None,
        (Some(inc), None, None) | (None, Some(inc), None) => Bonus::Increment(inc),
        (None, None, Some(delay)) => Bonus::Delay(delay),
        _ => return Err(TimeControlErrorKind::DuplicateBonus),
    };
    Classical::new(periods, sudden_death, bonus).map(TimeControl::Classical)
}

// ---------------------------------------------------------------------------------------------
// Leave (vacation)
// ---------------------------------------------------------------------------------------------

/// A half-open interval `[from_ms, to_ms)` during which a player is on leave and their clock
/// is stopped (correspondence; ICCF calls it "leave"). Empty if `to_ms <= from_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

// ---------------------------------------------------------------------------------------------
// Clocks
// ---------------------------------------------------------------------------------------------

/// When a move was made and when it reached the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveTiming {
    /// Who made the move.
    pub side: Color,
    /// When the mover completed it (stopped their clock, FIDE 6.7a).
    pub made_at_ms: u64,
    /// When it reached the opponent (the opponent's signed receipt), if known. In
    /// correspondence the opponent's clock starts then; nobody's clock runs while the move is
    /// in transit. `None`: the opponent's clock starts at `made_at_ms` (over the board).
    pub received_at_ms: Option<u64>,
}

/// A half-open interval `[from_ms, to_ms)` during which a clock is stopped. Empty if
/// `to_ms <= from_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockStop {
    /// First stopped millisecond.
    pub from_ms: u64,
    /// First millisecond running again.
    pub to_ms: u64,
    /// `Some(side)`: only that player's clock (leave). `None`: both clocks (adjournment: the
    /// sealed move stops the clocks, FIDE A1; they restart at resumption, A5/A9; also an
    /// arbiter's interruption, 6.12).
    pub side: Option<Color>,
}

impl ClockStop {
    /// One player's leave: only `side`'s clock stops.
    pub fn leave(side: Color, from_ms: u64, to_ms: u64) -> Self {
        ClockStop {
            from_ms,
            to_ms,
            side: Some(side),
        }
    }

    /// An adjournment (FIDE Appendix A): both clocks stop from the sealing (A1) until the
    /// resumption (A5, A9).
    pub fn adjournment(sealed_at_ms: u64, resumed_at_ms: u64) -> Self {
        ClockStop {
            from_ms: sealed_at_ms,
            to_ms: resumed_at_ms,
            side: None,
        }
    }
}

/// Both clocks at one moment ([`ClockState::as_of_ms`]), as computed by [`clocks`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClockState {
    /// Time left, indexed by [`Color::index`] (white, black). Negative: that player has
    /// overstepped (their flag has fallen). For the player not to move, the time they will
    /// have when their turn starts. `i64::MAX` under [`TimeControl::Unlimited`].
    pub remaining_ms: [i64; 2],
    /// The player to move.
    pub to_move: Color,
    /// The player whose clock is ticking at `as_of_ms`: `None` before the start, while a move
    /// is in transit (made, not yet received), or while the clock of the player to move is
    /// stopped (leave, adjournment).
    pub running: Option<Color>,
    /// The first player whose flag fell (FIDE 6.1) at or before `as_of_ms`, if any. It stays
    /// set even if later moves and increments bring the time back above zero.
    pub flagged: Option<Color>,
    /// The first millisecond at which [`flagged`](Self::flagged)'s time was negative: a move
    /// with exactly 0 ms left is in time, one a millisecond later is not.
    pub flag_at_ms: Option<u64>,
    /// When the player to move oversteps if they do not move: in the past if they already
    /// have, accounting for all known stops (including scheduled leave). `None` under
    /// [`TimeControl::Unlimited`]. Sort games by it for urgency.
    pub deadline_ms: Option<u64>,
    /// Time charged to each player so far (delay excluded; increments not subtracted): the
    /// "time used by each player" of FIDE A2/A5.
    pub used_ms: [Millis; 2],
    /// Moves completed by each player.
    pub moves_completed: [u32; 2],
    /// The moment this state describes.
    pub as_of_ms: u64,
}

impl ClockState {
    /// Milliseconds until [`deadline_ms`](Self::deadline_ms) as seen at `now_ms` (negative:
    /// overdue); `None` without a deadline. Smaller is more urgent.
    pub fn ms_to_deadline(&self, now_ms: u64) -> Option<i64> {
        self.deadline_ms
            .map(|deadline| signed_difference(deadline, now_ms))
    }

    /// Whether `claimant` may claim a win on time (FIDE 6.9; the outcome, including the draw
    /// when the claimant cannot mate, is [`crate::rules::flag_fall`]) in this state, computed
    /// as of the claim's time: the opponent is to move and their time had run out by then.
    pub fn can_claim_time_forfeit(&self, claimant: Color) -> bool {
        let opponent = !claimant;
        self.to_move == opponent && self.remaining_ms[opponent.index()] < 0
    }
}

/// Both clocks as of `now_ms`.
///
/// The first player to move is `first_to_move` (White in a normal game, FIDE 6.5; a game from
/// a FEN may start with Black); their clock starts at `start_ms`. Each move stops the mover's
/// clock and adds the increment or the next period's time (FIDE 6.2a/6.2b); the opponent's
/// clock starts when the move reached them ([`MoveTiming::received_at_ms`]) or, if unknown,
/// when it was made. With a delay (6.2b) the first `delay` of each move is not charged.
/// During a [`ClockStop`] the affected clocks do not run. The first moment a player's time is
/// negative on their own turn is the flag fall ([`ClockState::flag_at_ms`]).
///
/// Inputs are taken as given, never rejected; to stay deterministic on inconsistent data:
/// - moves are taken in slice order and must alternate from `first_to_move`; a move by the
///   player not to move is ignored;
/// - a move's time is clamped to no earlier than the start of the mover's turn (a move "made"
///   before it was received takes no time), a receipt to no earlier than the move;
/// - a move whose (clamped) time is after `now_ms` has not happened yet, and nor have the
///   moves after it: the state describes the game as seen at `now_ms`;
/// - stops with `to_ms <= from_ms` are ignored; overlapping stops are merged;
/// - all arithmetic saturates (times near `u64::MAX` do not overflow).
///
/// # Examples
/// ```
/// use sobre_core::clock::{clocks, MoveTiming, TimeControl, DAY, HOUR};
/// use sobre_core::Color;
/// let tc: TimeControl = "3d".parse()?;
/// // White moves after 1 day; the move reaches Black 2 hours later.
/// let moves = [MoveTiming { side: Color::White, made_at_ms: DAY, received_at_ms: Some(DAY + 2 * HOUR) }];
/// let state = clocks(&tc, Color::White, 0, &moves, &[], 2 * DAY);
/// assert_eq!(state.to_move, Color::Black);
/// assert_eq!(state.remaining_ms[Color::Black.index()], (3 * DAY - (DAY - 2 * HOUR)) as i64);
/// assert_eq!(state.deadline_ms, Some(4 * DAY + 2 * HOUR + 1));
/// # Ok::<(), sobre_core::clock::TimeControlError>(())
/// ```
pub fn clocks(
    tc: &TimeControl,
    first_to_move: Color,
    start_ms: u64,
    moves: &[MoveTiming],
    stops: &[ClockStop],
    now_ms: u64,
) -> ClockState {
    clocks_adjusted(tc, first_to_move, start_ms, moves, stops, &[], now_ms)
}

/// A correction of one player's remaining time at one moment, made by the rules rather than
/// by the clock running: the three minutes an incorrect draw claim gives the opponent (9.5b),
/// or what the 2005 text takes from the claimant. A correction never lifts a fallen flag
/// (6.8: it stays fallen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockAdjustment {
    pub side: Color,
    pub at_ms: u64,
    /// Added to the remaining time (negative: taken away).
    pub delta_ms: i64,
}

/// [`clocks`] with corrections applied at their moments (in time order, each before the
/// clock ticks on past it).
pub fn clocks_adjusted(
    tc: &TimeControl,
    first_to_move: Color,
    start_ms: u64,
    moves: &[MoveTiming],
    stops: &[ClockStop],
    adjustments: &[ClockAdjustment],
    now_ms: u64,
) -> ClockState {
    let mut adjustments = adjustments.to_vec();
    adjustments.sort_by_key(|a| a.at_ms);
    let mut pending = adjustments.as_slice();
    let stopped = [
        stopped_intervals(stops, Color::White),
        stopped_intervals(stops, Color::Black),
    ];
    let mut sim = Simulation::new(tc);
    let mut to_move = first_to_move;
    let mut turn_start = start_ms;
    for mv in moves {
        if mv.side != to_move {
            continue;
        }
        let made = mv.made_at_ms.max(turn_start);
        if made > now_ms {
            break;
        }
        sim.charge_adjusted(
            to_move,
            &stopped[to_move.index()],
            turn_start,
            made,
            &mut pending,
        );
        sim.complete_move(to_move);
        to_move = !to_move;
        turn_start = mv
            .received_at_ms
            .map_or(made, |received| received.max(made));
    }

    let side = to_move.index();
    let at_turn_start = sim.remaining[side];
    sim.charge_adjusted(
        to_move,
        &stopped[side],
        turn_start,
        now_ms.max(turn_start),
        &mut pending,
    );

    let running = (now_ms >= turn_start && !is_stopped(&stopped[side], now_ms)).then_some(to_move);
    let deadline_ms = match tc {
        TimeControl::Unlimited => None,
        _ => Some(match u64::try_from(at_turn_start) {
            Err(_) => turn_start,
            Ok(left) => wall_after_ticking(
                &stopped[side],
                turn_start,
                sim.delay.saturating_add(left).saturating_add(1),
            ),
        }),
    };
    ClockState {
        remaining_ms: sim.remaining,
        to_move,
        running,
        flagged: sim.flag.map(|(color, _)| color),
        flag_at_ms: sim.flag.map(|(_, at)| at),
        deadline_ms,
        used_ms: sim.used,
        moves_completed: sim.completed,
        as_of_ms: now_ms,
    }
}

/// Time charged to each player (white, black) as of `now_ms`: [`ClockState::used_ms`] of
/// [`clocks`] with the same arguments, e.g. for the envelope of an adjourned game (FIDE A2.3).
///
/// # Examples
/// ```
/// use sobre_core::clock::{time_used, MoveTiming, TimeControl, MINUTE};
/// use sobre_core::Color;
/// let tc: TimeControl = "90m".parse()?;
/// let moves = [MoveTiming { side: Color::White, made_at_ms: 5 * MINUTE, received_at_ms: None }];
/// assert_eq!(time_used(&tc, Color::White, 0, &moves, &[], 7 * MINUTE), [5 * MINUTE, 2 * MINUTE]);
/// # Ok::<(), sobre_core::clock::TimeControlError>(())
/// ```
pub fn time_used(
    tc: &TimeControl,
    first_to_move: Color,
    start_ms: u64,
    moves: &[MoveTiming],
    stops: &[ClockStop],
    now_ms: u64,
) -> [Millis; 2] {
    clocks(tc, first_to_move, start_ms, moves, stops, now_ms).used_ms
}

/// The running totals while replaying a game's timestamps.
struct Simulation<'a> {
    tc: &'a TimeControl,
    delay: Millis,
    remaining: [i64; 2],
    /// The correspondence per-move reserve built by increments.
    reserve: [i64; 2],
    completed: [u32; 2],
    used: [Millis; 2],
    flag: Option<(Color, u64)>,
}

impl<'a> Simulation<'a> {
    fn new(tc: &'a TimeControl) -> Self {
        let initial = tc.initial();
        Simulation {
            tc,
            delay: tc.delay(),
            remaining: [initial; 2],
            reserve: [0; 2],
            completed: [0; 2],
            used: [0; 2],
            flag: None,
        }
    }

    /// Charges `side` for their clock running over `[from, to)` minus their stops.
    fn charge(&mut self, side: Color, stopped: &[(u64, u64)], from: u64, to: u64) {
        let s = side.index();
        let charged = ticking(stopped, from, to).saturating_sub(self.delay);
        self.used[s] = self.used[s].saturating_add(charged);
        if matches!(self.tc, TimeControl::Unlimited) {
            return;
        }
        let left = self.remaining[s];
        if self.flag.is_none()
            && let Ok(left_ms) = u64::try_from(left)
            && charged > left_ms
        {
            // FIDE 6.2b: the delay runs first, then the main time.
            let ticks = self.delay.saturating_add(left_ms).saturating_add(1);
            self.flag = Some((side, wall_after_ticking(stopped, from, ticks)));
        }
        self.remaining[s] = left.saturating_sub(to_i64(charged));
    }

    /// [`Simulation::charge`] with the corrections due before `to` applied at their moments.
    fn charge_adjusted(
        &mut self,
        side: Color,
        stopped: &[(u64, u64)],
        from: u64,
        to: u64,
        pending: &mut &[ClockAdjustment],
    ) {
        let mut at = from;
        while let Some((first, rest)) = pending.split_first() {
            if first.at_ms >= to {
                break;
            }
            let when = first.at_ms.max(at);
            self.charge(side, stopped, at, when);
            at = when;
            let s = first.side.index();
            self.remaining[s] = self.remaining[s].saturating_add(first.delta_ms);
            *pending = rest;
        }
        self.charge(side, stopped, at, to);
    }

    /// `side` completed a move: increment, next period, or the per-move reset.
    fn complete_move(&mut self, side: Color) {
        let s = side.index();
        self.completed[s] = self.completed[s].saturating_add(1);
        let n = self.completed[s];
        match self.tc {
            TimeControl::Unlimited => {}
            TimeControl::CorrespondencePerMove {
                per_move,
                increment,
            } => {
                // Unused per-move time is lost; only the reserve is carried forward, less
                // whatever part of it this move used.
                let reserve = self.remaining[s].clamp(0, self.reserve[s]);
                self.reserve[s] = reserve.saturating_add(to_i64(*increment));
                self.remaining[s] = to_i64(*per_move).saturating_add(self.reserve[s]);
            }
            TimeControl::CorrespondenceMoves {
                moves,
                period,
                increment,
            } => {
                let mut added = *increment;
                if n.is_multiple_of(moves.get()) {
                    added = added.saturating_add(*period);
                }
                self.remaining[s] = self.remaining[s].saturating_add(to_i64(added));
            }
            TimeControl::Classical(c) => {
                self.remaining[s] = self.remaining[s].saturating_add(to_i64(c.added_after_move(n)));
            }
        }
    }
}

fn to_i64(ms: Millis) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

fn signed_difference(a: u64, b: u64) -> i64 {
    if a >= b {
        to_i64(a - b)
    } else {
        to_i64(b - a).saturating_neg()
    }
}

/// The non-empty stops affecting `side`, sorted and merged into disjoint intervals.
fn stopped_intervals(stops: &[ClockStop], side: Color) -> Vec<(u64, u64)> {
    merge(
        stops
            .iter()
            .filter(|stop| stop.side.is_none_or(|s| s == side))
            .map(|stop| (stop.from_ms, stop.to_ms)),
    )
}

/// Sorts half-open intervals, drops empty ones and merges overlapping or touching ones.
fn merge(intervals: impl Iterator<Item = (u64, u64)>) -> Vec<(u64, u64)> {
    let mut list: Vec<(u64, u64)> = intervals.filter(|(lo, hi)| hi > lo).collect();
    list.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::with_capacity(list.len());
    for (lo, hi) in list {
        match merged.last_mut() {
            Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    merged
}

/// Milliseconds of `[from, to)` covered by the disjoint sorted `intervals`.
fn overlap(intervals: &[(u64, u64)], from: u64, to: u64) -> u64 {
    let first = intervals.partition_point(|&(_, hi)| hi <= from);
    intervals[first..]
        .iter()
        .take_while(|&&(lo, _)| lo < to)
        .map(|&(lo, hi)| hi.min(to).saturating_sub(lo.max(from)))
        .fold(0u64, u64::saturating_add)
}

/// Milliseconds of `[from, to)` during which a clock with these stops runs.
fn ticking(stopped: &[(u64, u64)], from: u64, to: u64) -> u64 {
    to.saturating_sub(from)
        .saturating_sub(overlap(stopped, from, to))
}

/// The first instant `t ≥ from` with `ticking(stopped, from, t) >= ticks`.
fn wall_after_ticking(stopped: &[(u64, u64)], from: u64, ticks: u64) -> u64 {
    if ticks == 0 {
        return from;
    }
    let mut at = from;
    let mut needed = ticks;
    let first = stopped.partition_point(|&(_, hi)| hi <= from);
    for &(lo, hi) in &stopped[first..] {
        if lo > at {
            let gap = lo - at;
            if needed <= gap {
                return at + needed;
            }
            needed -= gap;
        }
        at = at.max(hi);
    }
    at.saturating_add(needed)
}

fn is_stopped(stopped: &[(u64, u64)], at: u64) -> bool {
    let i = stopped.partition_point(|&(_, hi)| hi <= at);
    stopped.get(i).is_some_and(|&(lo, _)| lo <= at)
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Color = Color::White;
    const B: Color = Color::Black;

    fn tc(text: &str) -> TimeControl {
        text.parse().unwrap()
    }

    fn mv(side: Color, made_at_ms: u64) -> MoveTiming {
        MoveTiming {
            side,
            made_at_ms,
            received_at_ms: None,
        }
    }

    /// Moves alternating from White, made at the given instants.
    fn alternating(times: &[u64]) -> Vec<MoveTiming> {
        times
            .iter()
            .enumerate()
            .map(|(i, &t)| mv(if i % 2 == 0 { W } else { B }, t))
            .collect()
    }

    fn left(state: &ClockState, side: Color) -> i64 {
        state.remaining_ms[side.index()]
    }

    fn ms(x: Millis) -> i64 {
        to_i64(x)
    }

    // --- durations -------------------------------------------------------------------------

    #[test]
    fn a1_b_an_over_the_board_control_may_name_its_sessions() {
        let c = tc("otb 40/2h:1h session 5h");
        assert_eq!(c.session(), Some(5 * HOUR));
        assert_eq!(c.to_string(), "40/2h:1h session 5h");
        assert_eq!(tc(&c.to_string()), c);
        assert_eq!(tc("90m+30s session 4h").session(), Some(4 * HOUR));
        assert_eq!(tc("40/2h:1h").session(), None);
        for bad in ["3d session 4h", "otb 2h session", "otb 2h session x"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn durations_in_every_unit() {
        assert_eq!(parse_duration("3d"), Ok(3 * DAY));
        assert_eq!(parse_duration("12h"), Ok(12 * HOUR));
        assert_eq!(parse_duration("90m"), Ok(90 * MINUTE));
        assert_eq!(parse_duration("30s"), Ok(30 * SECOND));
        assert_eq!(parse_duration("250ms"), Ok(250));
        assert_eq!(parse_duration("1d12h"), Ok(DAY + 12 * HOUR));
        assert_eq!(parse_duration(" 1H30M "), Ok(90 * MINUTE));
        assert_eq!(parse_duration("0s"), Ok(0));
    }

    #[test]
    fn duration_errors_name_the_input() {
        let cases = [
            (
                "",
                "invalid duration \"\": empty duration (write e.g. 3d, 12h, 90m, 30s or 1d12h)",
            ),
            (
                "90",
                "invalid duration \"90\": missing unit after 90 (use d, h, m, s or ms)",
            ),
            (
                "3w",
                "invalid duration \"3w\": unknown unit \"w\" (use d, h, m, s or ms)",
            ),
            (
                "d3",
                "invalid duration \"d3\": expected a number before 'd'",
            ),
            ("1.5h", "invalid duration \"1.5h\": unexpected '.'"),
            ("3 d", "invalid duration \"3 d\": unexpected ' '"),
            (
                "30s1m",
                "invalid duration \"30s1m\": unit \"m\" repeated or out of order (largest unit first, e.g. 1d12h)",
            ),
            (
                "99999999999999999999d",
                "invalid duration \"99999999999999999999d\": too long",
            ),
            (
                "300000000000d",
                "invalid duration \"300000000000d\": too long",
            ),
        ];
        for (input, message) in cases {
            assert_eq!(
                parse_duration(input).unwrap_err().to_string(),
                message,
                "{input}"
            );
        }
    }

    #[test]
    fn durations_format_canonically() {
        assert_eq!(format_duration(0), "0s");
        assert_eq!(format_duration(90 * MINUTE), "1h30m");
        assert_eq!(format_duration(DAY + 12 * HOUR), "1d12h");
        assert_eq!(format_duration(1_500), "1s500ms");
        assert_eq!(parse_duration(&format_duration(u64::MAX)), Ok(u64::MAX));
    }

    // --- time control text -----------------------------------------------------------------

    #[test]
    fn every_form_round_trips_through_its_text() {
        let canonical = [
            "unlimited",
            "3d",
            "3d+1d",
            "corr 12h",
            "corr 30s+5s",
            "10/50d",
            "10/50d+1d",
            "corr 10/5h",
            "40/2h:1h",
            "40/2h:20/1h:30m",
            "40/1h30m:30m+30s",
            "1h30m+30s",
            "1h30m d5s",
            "40/2h",
            "40/2h:16/1h inc 30s",
            "40/2h d10s",
            "40/2h:30s",
            "otb 1d",
            "otb 40/1d:2h",
        ];
        for text in canonical {
            let parsed = tc(text);
            assert_eq!(parsed.to_string(), text);
            assert_eq!(tc(&parsed.to_string()), parsed);
        }
    }

    #[test]
    fn cli_spellings_parse_to_the_documented_controls() {
        assert_eq!(
            tc("3d"),
            TimeControl::CorrespondencePerMove {
                per_move: 3 * DAY,
                increment: 0
            }
        );
        assert_eq!(
            tc("10/50d+1d"),
            TimeControl::CorrespondenceMoves {
                moves: NonZeroU32::new(10).unwrap(),
                period: 50 * DAY,
                increment: DAY
            }
        );
        // FIDE 6.2a: `40/2h+1h` = 40 moves in 2 hours, then 1 hour for the rest.
        let forty_then_one = tc("40/2h+1h");
        assert_eq!(forty_then_one, tc("40/2h:1h"));
        let TimeControl::Classical(c) = &forty_then_one else {
            panic!("not classical: {forty_then_one:?}");
        };
        assert_eq!(c.periods().len(), 1);
        assert_eq!(c.periods()[0].time, 2 * HOUR);
        assert_eq!(c.sudden_death(), Some(HOUR));
        assert_eq!(c.bonus(), Bonus::None);
        assert_eq!(tc("40/90m:30m+30s"), tc("40/90m:30m inc 30s"));
        assert_eq!(tc("40/2h+1m"), tc("40/2h:1m"));
        assert_eq!(tc("90m d5s"), tc("otb 90m delay 5s"));
        assert_eq!(tc("90m").delay(), 0);
        assert_eq!(tc("90m d5s").delay(), 5 * SECOND);
        assert_eq!(tc("72h"), tc("3d"));
        assert!(tc("72h").is_correspondence());
        assert!(!tc("12h").is_correspondence());
        assert!(tc("corr 12h").is_correspondence());
        assert_eq!(tc(" UNLIMITED "), TimeControl::Unlimited);
    }

    #[test]
    fn time_control_error_messages() {
        let cases = [
            ("", "empty (write e.g. 3d, 10/50d, 40/2h+1h or unlimited)"),
            (
                "3x",
                "invalid duration \"3x\": unknown unit \"x\" (use d, h, m, s or ms)",
            ),
            (
                "0/50d",
                "bad move count \"0\" (a whole number of moves, at least 1)",
            ),
            (
                "ten/50d",
                "bad move count \"ten\" (a whole number of moves, at least 1)",
            ),
            ("0d", "the final period must be longer than zero"),
            ("corr 0s", "the time per move must be longer than zero"),
            ("40/0s:1h", "a period must be longer than zero"),
            (
                "3d:1d",
                "a correspondence control is one period with an optional increment, e.g. 3d+1d or 10/50d+1d (start with `otb ` for over-the-board periods)",
            ),
            (
                "3d d5s",
                "a correspondence control is one period with an optional increment, e.g. 3d+1d or 10/50d+1d (start with `otb ` for over-the-board periods)",
            ),
            (
                "90m:40/1h",
                "\"40/1h\" comes after the final period (the period without a move count must be last)",
            ),
            ("90m+30s+10s", "more than one increment or delay"),
            (
                "40/2h+30s",
                "+30s after a period with a move count would be a final period of 30s; write `inc 30s` for an increment, or `:30s` for such a final period",
            ),
            ("90m+30s d5s", "more than one increment or delay"),
            ("40/2h::1h", "empty period between separators"),
            (
                "90m fast",
                "unexpected \"fast\" (after the periods: `inc 30s`, `d5s` or `delay 5s`)",
            ),
            (
                "90m inc",
                "unexpected \"inc\" (after the periods: `inc 30s`, `d5s` or `delay 5s`)",
            ),
        ];
        for (input, kind) in cases {
            let err = input.parse::<TimeControl>().unwrap_err();
            assert_eq!(err.input, input);
            assert_eq!(
                err.to_string(),
                format!("invalid time control {input:?}: {kind}")
            );
        }
    }

    #[test]
    fn classical_refuses_a_control_without_time() {
        assert_eq!(
            Classical::new(vec![], None, Bonus::Increment(SECOND)),
            Err(TimeControlErrorKind::NoPeriods)
        );
        assert_eq!(
            Classical::new(vec![], Some(HOUR), Bonus::Delay(0)).map(|c| c.bonus()),
            Ok(Bonus::None)
        );
    }

    // --- clocks ----------------------------------------------------------------------------

    #[test]
    fn per_move_limit_resets_each_move() {
        let tc = tc("corr 10s");
        // White uses 2 s, Black 9 s, White 9 s: each move had its own 10 s.
        let moves = alternating(&[2_000, 11_000, 20_000]);
        let state = clocks(&tc, W, 0, &moves, &[], 20_000);
        assert_eq!(state.flagged, None);
        assert_eq!(
            left(&state, W),
            10_000,
            "unused time is not carried forward"
        );
        assert_eq!(left(&state, B), 10_000);
        assert_eq!(state.to_move, B);
        assert_eq!(state.deadline_ms, Some(30_001));
        assert_eq!(state.used_ms, [11_000, 9_000]);
    }

    #[test]
    fn per_move_increment_builds_a_reserve() {
        let tc = tc("corr 10s+5s");
        // White: 1 s (reserve 5 s), Black: 1 s, White: 13 s (3 s from the reserve → 2 s + 5 s).
        let moves = alternating(&[1_000, 2_000, 15_000]);
        let state = clocks(&tc, W, 0, &moves, &[], 15_000);
        assert_eq!(state.flagged, None);
        assert_eq!(left(&state, W), 10_000 + 7_000);
        assert_eq!(left(&state, B), 10_000 + 5_000);
    }

    #[test]
    fn iccf_10_moves_in_50_days_carries_time_forward() {
        let tc = tc("10/50d");
        // White makes 10 moves, 1 day each; Black answers instantly.
        let mut moves = Vec::new();
        let mut t = 0;
        for _ in 0..10 {
            t += DAY;
            moves.push(mv(W, t));
            moves.push(mv(B, t));
        }
        let state = clocks(&tc, W, 0, &moves, &[], t);
        // 40 unused days are carried forward, plus another 50 for the next 10 moves.
        assert_eq!(left(&state, W), ms(40 * DAY + 50 * DAY));
        assert_eq!(left(&state, B), ms(100 * DAY));
        assert_eq!(state.moves_completed, [10, 10]);
        // After 9 moves, no new block yet.
        let after_nine = clocks(&tc, W, 0, &moves[..18], &[], 9 * DAY);
        assert_eq!(left(&after_nine, W), ms(41 * DAY));
    }

    #[test]
    fn iccf_increment_is_added_after_every_move() {
        let tc = tc("10/50d+1d");
        let state = clocks(&tc, W, 0, &[mv(W, 2 * DAY)], &[], 2 * DAY);
        assert_eq!(left(&state, W), ms(49 * DAY));
    }

    #[test]
    fn receipt_time_starts_the_opponents_clock() {
        let tc = tc("3d");
        let moves = [MoveTiming {
            side: W,
            made_at_ms: HOUR,
            received_at_ms: Some(10 * HOUR),
        }];
        // In transit: nobody's clock runs.
        let in_transit = clocks(&tc, W, 0, &moves, &[], 5 * HOUR);
        assert_eq!(in_transit.to_move, B);
        assert_eq!(in_transit.running, None);
        assert_eq!(left(&in_transit, B), ms(3 * DAY));
        // After receipt, Black's clock counts from the receipt, not from the move.
        let later = clocks(&tc, W, 0, &moves, &[], 12 * HOUR);
        assert_eq!(later.running, Some(B));
        assert_eq!(left(&later, B), ms(3 * DAY - 2 * HOUR));
        assert_eq!(later.deadline_ms, Some(10 * HOUR + 3 * DAY + 1));
        // Without a receipt, the clock starts when the move was made.
        let unreceived = [mv(W, HOUR)];
        let state = clocks(&tc, W, 0, &unreceived, &[], 12 * HOUR);
        assert_eq!(left(&state, B), ms(3 * DAY - 11 * HOUR));
    }

    #[test]
    fn leave_stops_the_clock() {
        let tc = tc("3d");
        // Black received White's move at 0 and goes on leave for 10 days from day 1.
        let leave = LeavePeriod {
            from_ms: DAY,
            to_ms: 11 * DAY,
        };
        let stops = [leave.stop_for(B)];
        let moves = [mv(W, 0)];
        let on_leave = clocks(&tc, W, 0, &moves, &stops, 5 * DAY);
        assert_eq!(on_leave.running, None);
        assert_eq!(on_leave.flagged, None);
        assert_eq!(left(&on_leave, B), ms(2 * DAY));
        // The deadline moves past the leave.
        assert_eq!(on_leave.deadline_ms, Some(13 * DAY + 1));
        let after = clocks(&tc, W, 0, &moves, &stops, 12 * DAY);
        assert_eq!(after.running, Some(B));
        assert_eq!(left(&after, B), ms(DAY));
        // White's leave does not stop Black's clock.
        let white_leave = [leave.stop_for(W)];
        let state = clocks(&tc, W, 0, &moves, &white_leave, 5 * DAY);
        assert_eq!(state.flagged, Some(B));
        assert_eq!(state.flag_at_ms, Some(3 * DAY + 1));
    }

    #[test]
    fn adjournment_stops_both_clocks_appendix_a() {
        let tc = tc("40/2h:1h");
        // White thinks 30 min and seals (A1: stops the clock without starting Black's).
        // The session resumes a day later (A9a): the sealed move is played, Black's clock runs.
        let sealed_at = 30 * MINUTE;
        let resumed_at = DAY;
        let stops = [ClockStop::adjournment(sealed_at, resumed_at)];
        let moves = [mv(W, resumed_at)];
        let during = clocks(&tc, W, 0, &[], &stops, 12 * HOUR);
        assert_eq!(during.running, None);
        assert_eq!(left(&during, W), ms(90 * MINUTE));
        assert_eq!(left(&during, B), ms(2 * HOUR));
        // A5: at resumption the clocks show the time used at the adjournment.
        assert_eq!(
            time_used(&tc, W, 0, &moves, &stops, resumed_at),
            [30 * MINUTE, 0]
        );
        let after = clocks(&tc, W, 0, &moves, &stops, resumed_at + 10 * MINUTE);
        assert_eq!(after.running, Some(B));
        assert_eq!(left(&after, W), ms(90 * MINUTE));
        assert_eq!(left(&after, B), ms(110 * MINUTE));
        assert_eq!(after.flagged, None);
    }

    #[test]
    fn classical_40_in_2h_then_1h() {
        let tc = tc("40/2h+1h");
        // Each side takes 3 minutes per move: 40 moves = 120 minutes exactly.
        let mut moves = Vec::new();
        let mut t = 0;
        for _ in 0..40 {
            t += 3 * MINUTE;
            moves.push(mv(W, t));
            moves.push(mv(B, t));
        }
        let state = clocks(&tc, W, 0, &moves, &[], t);
        // FIDE 6.2a: move 40 completed with 0 left, in time; 1 hour added for the rest.
        assert_eq!(state.flagged, None);
        assert_eq!(left(&state, W), ms(HOUR));
        // One millisecond more on move 40 is a flag fall (6.9 is decided elsewhere).
        moves[78].made_at_ms += 1;
        let late = clocks(&tc, W, 0, &moves, &[], t + 1);
        assert_eq!(late.flagged, Some(W));
        assert_eq!(late.flag_at_ms, Some(t + 1));
    }

    #[test]
    fn classical_periods_add_time_at_each_boundary() {
        let TimeControl::Classical(c) = tc("40/2h:20/1h:30m+30s") else {
            panic!("not classical");
        };
        assert_eq!(c.added_after_move(1), 30 * SECOND);
        assert_eq!(c.added_after_move(40), HOUR + 30 * SECOND);
        assert_eq!(c.added_after_move(60), 30 * MINUTE + 30 * SECOND);
        assert_eq!(c.added_after_move(80), 30 * SECOND);
        // Without a final period the last period repeats.
        let TimeControl::Classical(repeat) = tc("40/2h:16/1h") else {
            panic!("not classical");
        };
        assert_eq!(repeat.added_after_move(40), HOUR);
        assert_eq!(repeat.added_after_move(56), HOUR);
        assert_eq!(repeat.added_after_move(72), HOUR);
        assert_eq!(repeat.added_after_move(73), 0);
    }

    #[test]
    fn fide_6_2b_delay_not_charged() {
        let tc = tc("1m d5s");
        // White moves within the delay: main time unchanged. Black takes 8 s: charged 3 s.
        let moves = alternating(&[4_000, 12_000]);
        let state = clocks(&tc, W, 0, &moves, &[], 12_000);
        assert_eq!(left(&state, W), ms(MINUTE));
        assert_eq!(left(&state, B), ms(MINUTE) - 3_000);
        assert_eq!(state.used_ms, [0, 3_000]);
        // Unused delay is not carried forward (6.2b); the deadline counts the delay first.
        assert_eq!(state.deadline_ms, Some(12_000 + 5_000 + MINUTE + 1));
        let flagged = clocks(&tc, W, 0, &moves, &[], 12_000 + 65_001);
        assert_eq!(flagged.flagged, Some(W));
        assert_eq!(flagged.flag_at_ms, Some(12_000 + 65_001));
    }

    #[test]
    fn fide_6_2a_increment_added_after_each_move() {
        let tc = tc("1m+10s");
        let moves = alternating(&[5_000, 5_000]);
        let state = clocks(&tc, W, 0, &moves, &[], 5_000);
        assert_eq!(left(&state, W), ms(MINUTE + 5_000));
        assert_eq!(left(&state, B), ms(MINUTE + 10_000));
    }

    #[test]
    fn flag_falls_at_exact_ms() {
        let tc = tc("corr 30s");
        let start = 1_000;
        // A move with exactly 0 ms left is in time.
        let on_time = clocks(&tc, W, start, &[mv(W, start + 30_000)], &[], start + 30_000);
        assert_eq!(on_time.flagged, None);
        // Not moving: at start + 30 s the time is 0, a millisecond later it is negative.
        let at_zero = clocks(&tc, W, start, &[], &[], start + 30_000);
        assert_eq!((at_zero.flagged, left(&at_zero, W)), (None, 0));
        let past = clocks(&tc, W, start, &[], &[], start + 40_000);
        assert_eq!(past.flagged, Some(W));
        assert_eq!(past.flag_at_ms, Some(start + 30_001));
        assert_eq!(past.deadline_ms, Some(start + 30_001));
        assert_eq!(left(&past, W), -10_000);
        // A flag that fell stays recorded after a late move.
        let late = clocks(&tc, W, start, &[mv(W, start + 35_000)], &[], start + 40_000);
        assert_eq!(late.flagged, Some(W));
        assert_eq!(late.flag_at_ms, Some(start + 30_001));
    }

    #[test]
    fn fide_6_9_claim_valid_only_while_the_flag_is_down_and_unanswered() {
        let tc = tc("corr 30s");
        let moves = [mv(W, 35_000)];
        // Black claims at 31 s: White's flag fell at 30.001 s and White has not moved.
        let at_claim = clocks(&tc, W, 0, &moves, &[], 31_000);
        assert!(at_claim.can_claim_time_forfeit(B));
        assert!(!at_claim.can_claim_time_forfeit(W));
        // Before the flag fell the claim is not valid.
        assert!(!clocks(&tc, W, 0, &moves, &[], 30_000).can_claim_time_forfeit(B));
        // After White's (late) move the claim comes too late.
        assert!(!clocks(&tc, W, 0, &moves, &[], 36_000).can_claim_time_forfeit(B));
    }

    #[test]
    fn game_from_fen_may_start_with_black() {
        let tc = tc("1h");
        let state = clocks(&tc, B, 0, &[mv(W, 10), mv(B, MINUTE)], &[], MINUTE);
        // White's move out of turn is ignored; Black's clock ran from the start.
        assert_eq!(state.to_move, W);
        assert_eq!(state.moves_completed, [0, 1]);
        assert_eq!(left(&state, B), ms(59 * MINUTE));
    }

    #[test]
    fn unordered_timestamps_are_clamped() {
        let tc = tc("1h");
        // Black's move claims to be before White's: it took no time.
        let moves = alternating(&[MINUTE, 10]);
        let state = clocks(&tc, W, 0, &moves, &[], MINUTE);
        assert_eq!(state.used_ms, [MINUTE, 0]);
        // A move after `now` has not happened yet.
        let early = clocks(&tc, W, 0, &moves, &[], MINUTE - 1);
        assert_eq!(early.moves_completed, [0, 0]);
        // Reversed stop: ignored.
        let reversed = [ClockStop::adjournment(MINUTE, 0)];
        assert_eq!(clocks(&tc, W, 0, &moves, &reversed, MINUTE), state);
    }

    #[test]
    fn unlimited_never_flags() {
        let state = clocks(&TimeControl::Unlimited, W, 0, &[], &[], u64::MAX);
        assert_eq!(state.flagged, None);
        assert_eq!(state.deadline_ms, None);
        assert_eq!(state.used_ms, [u64::MAX, 0]);
    }

    #[test]
    fn deadline_sorts_by_urgency() {
        let state = clocks(&tc("3d"), W, 0, &[], &[], DAY);
        assert_eq!(state.ms_to_deadline(DAY), Some(ms(2 * DAY) + 1));
        assert_eq!(state.ms_to_deadline(4 * DAY), Some(1 - ms(DAY)));
    }

    // --- leave -----------------------------------------------------------------------------

    #[test]
    fn iccf_leave_45_days_per_year() {
        let allowance = LeaveAllowance::default();
        assert_eq!(allowance.days_per_year, 45);
        let epoch = 1_000;
        let leave = |from_day: u64, to_day: u64| LeavePeriod {
            from_ms: epoch + from_day * DAY,
            to_ms: epoch + to_day * DAY,
        };
        let taken = [leave(10, 40)];
        assert_eq!(allowance.check(epoch, &taken, leave(100, 115)), Ok(()));
        let err = allowance.check(epoch, &taken, leave(100, 116)).unwrap_err();
        assert_eq!(
            err,
            LeaveError::ExceedsAllowance {
                year: 0,
                taken_ms: 30 * DAY,
                requested_ms: 16 * DAY,
                allowance_ms: 45 * DAY
            }
        );
        assert_eq!(
            err.to_string(),
            "leave of 16d exceeds the allowance of 45d in year 0 (30d already taken)"
        );
        // Overlapping leave is counted once.
        assert_eq!(allowance.check(epoch, &taken, leave(20, 55)), Ok(()));
        // A leave across the year boundary counts in each year for its part.
        assert_eq!(allowance.check(epoch, &taken, leave(360, 400)), Ok(()));
        assert_eq!(
            LeaveAllowance::taken_in_year(epoch, &[leave(360, 400)], 1),
            35 * DAY
        );
        assert!(matches!(
            allowance.check(epoch, &[], leave(0, 800)),
            Err(LeaveError::ExceedsAllowance { year: 0, .. })
        ));
        assert!(matches!(
            allowance.check(epoch, &[], leave(5, 5)),
            Err(LeaveError::Empty { .. })
        ));
        assert_eq!(
            allowance
                .check(
                    0,
                    &[],
                    LeavePeriod {
                        from_ms: 0,
                        to_ms: u64::MAX
                    }
                )
                .map_err(|e| matches!(e, LeaveError::ExceedsAllowance { year: 0, .. })),
            Err(true)
        );
    }
}
