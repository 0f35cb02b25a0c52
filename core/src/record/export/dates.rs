//! Calendar dates from milliseconds since the epoch (proleptic Gregorian, UTC), for the
//! PGN `Date` tags and the times written beside moves.

pub(super) const MS_PER_DAY: u64 = 86_400_000;

/// The proleptic Gregorian date `(year, month 1–12, day 1–31)` of a day counted from
/// 1970-01-01 (H. Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11], March first
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A signed time (ms since the Unix epoch) as ISO 8601 UTC to the second:
/// `2026-11-21T23:44:33Z`.
pub fn iso_utc(ms: u64) -> String {
    let (y, mo, d) = civil_from_days((ms / MS_PER_DAY) as i64);
    let secs = (ms % MS_PER_DAY) / 1000;
    format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// A signed time as a PGN date in UTC: `2026.11.21`.
pub fn pgn_date(ms: u64) -> String {
    let (y, mo, d) = civil_from_days((ms / MS_PER_DAY) as i64);
    format!("{y:04}.{mo:02}.{d:02}")
}

/// Reads `2026-12-01T18:00:00Z` (UTC only; seconds optional) as milliseconds since the Unix
/// epoch; `None` for anything else, including dates that do not exist (`2026-02-31`).
pub fn parse_iso_utc(text: &str) -> Option<u64> {
    let t = text.trim();
    let t = t.strip_suffix('Z').or_else(|| t.strip_suffix('z'))?;
    let (date, time) = t.split_once(['T', 't', ' '])?;
    let mut date_parts = date.split('-');
    let y: i64 = date_parts.next()?.parse().ok()?;
    let m: u32 = date_parts.next()?.parse().ok()?;
    let d: u32 = date_parts.next()?.parse().ok()?;
    if date_parts.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let mut time_parts = time.split(':');
    let hh: u64 = time_parts.next()?.parse().ok()?;
    let mm: u64 = time_parts.next()?.parse().ok()?;
    let ss: u64 = match time_parts.next() {
        Some(s) => s.parse().ok()?,
        None => 0,
    };
    if time_parts.next().is_some() || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    let days = days_from_civil(y, m, d);
    // Reject dates like 2026-02-31, which would silently become March.
    if civil_from_days(days) != (y, m, d) || days < 0 {
        return None;
    }
    Some((u64::try_from(days).ok()? * 86_400 + hh * 3600 + mm * 60 + ss) * 1000)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_round_trip_through_iso_utc() {
        let ms = parse_iso_utc("2026-12-01T18:00:00Z").unwrap();
        assert_eq!(ms, 1_796_148_000_000);
        assert_eq!(iso_utc(ms), "2026-12-01T18:00:00Z");
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(parse_iso_utc("2024-02-29T00:00Z"), Some(1_709_164_800_000));
        assert_eq!(parse_iso_utc("2026-02-31T00:00:00Z"), None);
        assert_eq!(parse_iso_utc("2026-12-01T18:00:00+01:00"), None);
    }
}
