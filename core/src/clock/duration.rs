//! Durations as users write them (`3d`, `1d12h`, `250ms`): parsing, the canonical text form
//! and its display adapter. Separate because time controls, leave errors and the CLI all
//! read and write durations, and none of them needs the clocks.

use std::fmt;

use super::{DAY, HOUR, MINUTE, Millis, SECOND};

/// Units in the order they must be written, largest first.
const UNITS: [(&str, Millis); 5] = [
    ("d", DAY),
    ("h", HOUR),
    ("m", MINUTE),
    ("s", SECOND),
    ("ms", 1),
];

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

pub(super) fn dur(ms: &Millis) -> Dur {
    Dur(*ms)
}

/// Display adapter for a duration in canonical form, without an intermediate `String`.
pub(super) struct Dur(pub(super) Millis);

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
