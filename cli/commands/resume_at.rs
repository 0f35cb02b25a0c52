//! `--resume-at` (FIDE A2.7: the envelope says when the game resumes) as players write it: a
//! delay (`+2d`), an instant with its offset (`2026-12-01T18:00:00Z`,
//! `2026-12-01T18:00+01:00`), a local time with a zone name (`2026-12-01 18:00
//! Europe/Madrid`), or a local time alone, meaning this machine's zone. Read with `jiff`
//! (time zones from the system's zoneinfo, else the copy bundled with it).

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::{AmbiguousOffset, TimeZone};
use sobre_core::clock::parse_duration;
use sobre_node::words::quoted;

/// Why a `--resume-at` cannot be read, or is not ahead.
#[derive(Debug, thiserror::Error)]
pub enum ResumeAtError {
    #[error("bad --resume-at {}: {reason}", quoted(.text))]
    Delay { text: String, reason: String },
    #[error("bad --resume-at {}: unknown time zone {}", quoted(.text), quoted(.zone))]
    UnknownZone { text: String, zone: String },
    #[error("bad --resume-at {}: not a time", quoted(.text))]
    NotATime { text: String },
    #[error(
        "bad --resume-at {}: this machine's time zone is unknown ({reason}), so a local time needs its zone",
        quoted(.text)
    )]
    NoLocalZone { text: String, reason: String },
    #[error("--resume-at {} does not exist in {zone}: the clocks skip that hour", quoted(.text))]
    Skipped { text: String, zone: String },
    #[error("--resume-at {} happens twice in {zone}: the clocks go back over that hour", quoted(.text))]
    Twice { text: String, zone: String },
    #[error("--resume-at {at} is in the past")]
    Past { at: String },
}

impl ResumeAtError {
    /// What to write instead.
    pub fn hint(&self) -> &'static str {
        match self {
            ResumeAtError::Delay { .. } => "e.g. +2d or +36h",
            ResumeAtError::UnknownZone { .. } => {
                "name a zone of the tz database, e.g. Europe/Madrid, America/Buenos_Aires or UTC"
            }
            ResumeAtError::NotATime { .. } | ResumeAtError::NoLocalZone { .. } => {
                "write it like 2026-12-01T18:00:00Z, 2026-12-01T18:00+01:00, \
                 \"2026-12-01 18:00 Europe/Madrid\", \"2026-12-01 18:00\" (this machine's zone) \
                 or a delay like +2d"
            }
            ResumeAtError::Skipped { .. } | ResumeAtError::Twice { .. } => {
                "choose another time, or give the offset, e.g. 2026-10-25T02:30+02:00"
            }
            ResumeAtError::Past { .. } => "give a time ahead, e.g. +2d",
        }
    }
}

impl From<ResumeAtError> for crate::error::CliError {
    fn from(e: ResumeAtError) -> crate::error::CliError {
        let hint = e.hint();
        crate::error::user_hint(e.to_string(), hint)
    }
}

/// The machine's time zone, for local times written without one.
pub fn local_zone() -> Result<TimeZone, String> {
    TimeZone::try_system().map_err(|e| e.to_string())
}

/// `text` as milliseconds since the Unix epoch, seen at `now_ms`; a local time without a zone
/// is in `local` (the machine's zone, [`local_zone`]).
///
/// # Errors
/// A [`ResumeAtError`] saying what is wrong; a time not after `now_ms` is [`ResumeAtError::Past`].
pub fn resume_time(
    text: &str,
    now_ms: u64,
    local: Result<TimeZone, String>,
) -> Result<u64, ResumeAtError> {
    let t = text.trim();
    let at = if let Some(delay) = t.strip_prefix('+') {
        let ms = parse_duration(delay).map_err(|e| ResumeAtError::Delay {
            text: t.to_owned(),
            reason: e.to_string(),
        })?;
        now_ms.saturating_add(ms)
    } else {
        instant(t, local)?
    };
    if at <= now_ms {
        return Err(ResumeAtError::Past {
            at: super::common::rfc3339(at),
        });
    }
    Ok(at)
}

/// An instant written with an offset, a zone name or neither (see the module's doc).
fn instant(t: &str, local: Result<TimeZone, String>) -> Result<u64, ResumeAtError> {
    if let Ok(ts) = t.parse::<Timestamp>() {
        return millis(ts, t);
    }
    // A last word with letters (`Europe/Madrid`, `UTC`) after the date and time is a zone.
    let (civil, zone) = match t.rsplit_once(char::is_whitespace) {
        Some((civil, word)) if word.chars().any(|c| c.is_ascii_alphabetic()) => {
            let zone = TimeZone::get(word).map_err(|_| ResumeAtError::UnknownZone {
                text: t.to_owned(),
                zone: word.to_owned(),
            })?;
            (civil.trim(), zone)
        }
        _ => {
            // Without a zone the machine's is meant; an unreadable time is said first.
            let _: DateTime = t.parse().map_err(|_| not_a_time(t))?;
            let zone = local.map_err(|reason| ResumeAtError::NoLocalZone {
                text: t.to_owned(),
                reason,
            })?;
            (t, zone)
        }
    };
    let dt: DateTime = civil.parse().map_err(|_| not_a_time(t))?;
    let zone_name = zone.iana_name().unwrap_or("the local zone").to_owned();
    let ambiguous = zone.to_ambiguous_zoned_datetime(dt);
    match ambiguous.offset() {
        AmbiguousOffset::Gap { .. } => {
            return Err(ResumeAtError::Skipped {
                text: t.to_owned(),
                zone: zone_name,
            });
        }
        AmbiguousOffset::Fold { .. } => {
            return Err(ResumeAtError::Twice {
                text: t.to_owned(),
                zone: zone_name,
            });
        }
        AmbiguousOffset::Unambiguous { .. } => {}
    }
    let zoned = ambiguous.unambiguous().map_err(|_| not_a_time(t))?;
    millis(zoned.timestamp(), t)
}

fn not_a_time(t: &str) -> ResumeAtError {
    ResumeAtError::NotATime { text: t.to_owned() }
}

/// An instant before 1970 is no resumption time.
fn millis(ts: Timestamp, t: &str) -> Result<u64, ResumeAtError> {
    u64::try_from(ts.as_millisecond()).map_err(|_| not_a_time(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-20T00:00:00Z: before every time below.
    const NOW: u64 = 1_795_132_800_000;
    /// 2026-12-01T18:00:00Z.
    const DEC_1_18H_UTC: u64 = 1_796_148_000_000;
    const HOUR: u64 = 3_600_000;

    fn zone(name: &str) -> Result<TimeZone, String> {
        Ok(TimeZone::get(name).unwrap())
    }

    #[test]
    fn a2_7_a_resumption_is_a_delay_or_an_instant_with_its_offset() {
        assert_eq!(
            resume_time("+2d", NOW, zone("UTC")).unwrap(),
            NOW + 48 * HOUR
        );
        assert_eq!(
            resume_time("2026-12-01T18:00:00Z", NOW, zone("UTC")).unwrap(),
            DEC_1_18H_UTC
        );
        assert_eq!(
            resume_time("2026-12-01T18:00+01:00", NOW, zone("UTC")).unwrap(),
            DEC_1_18H_UTC - HOUR
        );
    }

    #[test]
    fn a2_7_a_local_time_is_read_in_its_zone_with_summer_time() {
        // Madrid is UTC+1 in December and UTC+2 in summer.
        assert_eq!(
            resume_time("2026-12-01 18:00 Europe/Madrid", NOW, zone("UTC")).unwrap(),
            DEC_1_18H_UTC - HOUR
        );
        let july = resume_time("2027-07-01 18:00 Europe/Madrid", NOW, zone("UTC")).unwrap();
        assert_eq!(
            july,
            resume_time("2027-07-01T16:00:00Z", NOW, zone("UTC")).unwrap()
        );
        assert_eq!(
            resume_time("2026-12-01 18:00 UTC", NOW, zone("Asia/Tokyo")).unwrap(),
            DEC_1_18H_UTC
        );
    }

    #[test]
    fn a2_7_a_local_time_without_a_zone_is_the_machines() {
        assert_eq!(
            resume_time("2026-12-01 18:00", NOW, zone("Europe/Madrid")).unwrap(),
            DEC_1_18H_UTC - HOUR
        );
        assert_eq!(
            resume_time("2026-12-01T18:00", NOW, zone("America/Buenos_Aires")).unwrap(),
            DEC_1_18H_UTC + 3 * HOUR
        );
        let e = resume_time("2026-12-01 18:00", NOW, Err("no TZ".into())).unwrap_err();
        assert!(matches!(e, ResumeAtError::NoLocalZone { .. }), "{e}");
    }

    #[test]
    fn bad_times_are_refused_saying_why() {
        let err = |t: &str| resume_time(t, NOW, zone("Europe/Madrid")).unwrap_err();
        assert!(matches!(err("tomorrow"), ResumeAtError::NotATime { .. }));
        assert!(matches!(
            err("2026-13-01 18:00"),
            ResumeAtError::NotATime { .. }
        ));
        assert!(matches!(err("+2 fortnights"), ResumeAtError::Delay { .. }));
        let e = err("2026-12-01 18:00 Europe/Madird");
        assert!(
            matches!(&e, ResumeAtError::UnknownZone { zone, .. } if zone == "Europe/Madird"),
            "{e}"
        );
        // The spring gap and the autumn fold of 2027 in Madrid.
        assert!(matches!(
            err("2027-03-28 02:30 Europe/Madrid"),
            ResumeAtError::Skipped { .. }
        ));
        assert!(matches!(
            err("2026-10-25 02:30 Europe/Madrid"),
            ResumeAtError::Past { .. } | ResumeAtError::Twice { .. }
        ));
        assert!(matches!(
            err("2027-10-31 02:30 Europe/Madrid"),
            ResumeAtError::Twice { .. }
        ));
        assert!(matches!(
            err("2020-01-01T00:00:00Z"),
            ResumeAtError::Past { .. }
        ));
        assert!(matches!(
            err("2026-11-19 12:00"),
            ResumeAtError::Past { .. }
        ));
        // Every error says what to write.
        assert!(err("tomorrow").hint().contains("Europe/Madrid"));
    }
}
