//! What the node commands share: one request to the node, JSON output, the player's key,
//! durations and timestamps as people read them.

use crate::error;
use serde_json::Value;
use sobre_node::api::ApiRequest;
use sobre_node::client;
use std::path::Path;

/// A tokio runtime for one command (`main` stays synchronous).
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
}

/// Sends one request to the node running in `home` and returns its result.
///
/// # Errors
/// [`client::ClientError`], which [`crate::error::report`] turns into a message and an exit
/// code (the node not running is the user's to fix).
pub fn call(home: &Path, request: ApiRequest) -> anyhow::Result<Value> {
    Ok(runtime()?.block_on(client::call(home, request))?)
}

/// Prints a JSON value on one line.
pub fn print_json(value: &Value) {
    println!("{value}");
}

/// The player's key, or a user error saying to run `sobre init`.
pub fn load_key(home: &Path) -> anyhow::Result<sobre_core::record::Keypair> {
    sobre_node::home::load_key(home).map_err(|e| match e {
        sobre_node::home::KeyError::Missing(_) => error::user_hint(
            format!("no player key in {}", home.display()),
            "create one with `sobre init --name NAME`",
        ),
        other => error::user(other.to_string()),
    })
}

/// The first 8 characters of a game id, as tables show it.
pub fn short_game(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}

/// A string field of a JSON object, or `""`.
pub fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A duration for tables: its two largest units, rounded down (`2d3h`, `5h10m`, `42s`);
/// negative durations are written `overdue 3h`.
pub fn human_duration(ms: i64) -> String {
    if ms < 0 {
        return format!("overdue {}", human_duration(ms.saturating_neg()));
    }
    let s = ms / 1000;
    let units = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)];
    let Some(first) = units.iter().position(|&(_, n)| s >= n) else {
        return "0s".to_owned();
    };
    let mut out = String::new();
    let mut rest = s;
    for &(name, n) in &units[first..(first + 2).min(units.len())] {
        let q = rest / n;
        rest %= n;
        if q > 0 || out.is_empty() {
            out.push_str(&format!("{q}{name}"));
        }
    }
    out
}

/// An instant as RFC 3339 UTC to the second: `2026-12-01T18:00:00Z`.
pub fn rfc3339(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Reads `2026-12-01T18:00:00Z` (UTC only; seconds optional) as milliseconds since the
/// Unix epoch.
pub fn parse_rfc3339(text: &str) -> Option<u64> {
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
    Some((days as u64 * 86_400 + hh * 3600 + mm * 60 + ss) * 1000)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day number since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Upper-cases the first letter.
pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Snapshot tests of the human output (`tests/golden/*.txt`): compares `actual` with the file
/// `name`, or rewrites the file when the environment has `UPDATE_GOLDEN=1`.
#[cfg(test)]
pub fn assert_golden(name: &str, actual: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(&path, actual).expect("the snapshot is written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (create it with UPDATE_GOLDEN=1 cargo test --bin sobre golden)",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "{name} differs from the snapshot (UPDATE_GOLDEN=1 rewrites it)\n--- expected:\n{expected}\n--- actual:\n{actual}"
    );
}

/// A JSON fixture of the snapshot tests (`tests/golden/NAME`).
#[cfg(test)]
pub fn golden_fixture(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_round_trip_through_rfc3339() {
        let ms = parse_rfc3339("2026-12-01T18:00:00Z").unwrap();
        assert_eq!(ms, 1_796_148_000_000);
        assert_eq!(rfc3339(ms), "2026-12-01T18:00:00Z");
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(parse_rfc3339("2024-02-29T00:00Z"), Some(1_709_164_800_000));
        assert_eq!(parse_rfc3339("2026-02-31T00:00:00Z"), None);
        assert_eq!(parse_rfc3339("2026-12-01T18:00:00+01:00"), None);
    }

    #[test]
    fn durations_show_their_two_largest_units() {
        assert_eq!(
            human_duration(2 * 86_400_000 + 3 * 3_600_000 + 59_000),
            "2d3h"
        );
        assert_eq!(human_duration(3 * 86_400_000), "3d");
        assert_eq!(human_duration(61_000), "1m1s");
        assert_eq!(human_duration(999), "0s");
        assert_eq!(human_duration(-3_600_000), "overdue 1h");
    }
}

/// `--notation`: how the player writes moves (FIDE App. E2/E3: each player may use the
/// letters of their own language). Shared by every command that reads a move.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Written {
    /// How you write moves: en (R is a rook), es (R is the king: rey), figurine, uci or
    /// iccf. Default: "notation" in HOME/config.json; with neither, the position decides,
    /// and a move that is legal read either way (Rd1) is refused until you say which.
    #[arg(long, value_name = "NOTATION")]
    notation: Option<sobre_core::notation::Notation>,
}

impl Written {
    /// The flag, else the player's setting; `None` when the player said nothing.
    pub fn resolve(self, home: &Path) -> Option<sobre_core::notation::Notation> {
        self.notation.or_else(|| Config::load(home).notation)
    }
}

/// A colour a player asks for (`--colour white|black`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

/// Personal defaults in `HOME/config.json`, e.g. `{"notation": "es", "board": "ascii"}`:
/// the notation `show` writes moves in and moves are read in (see [`Written`]), and letters
/// instead of figurines. Missing or
/// unreadable files mean the built-in defaults (English SAN, Unicode board).
#[derive(Clone, Copy, Debug, Default)]
pub struct Config {
    pub notation: Option<sobre_core::notation::Notation>,
    pub ascii: bool,
    /// `"coin_colour": "white"|"black"`: the colour taken when a challenger never opens
    /// the fair coin, unless `sobre accept --colour` says otherwise.
    pub coin_colour: Option<Side>,
}

impl Config {
    pub fn load(home: &Path) -> Config {
        let Some(v) = read_config(home) else {
            return Config::default();
        };
        Config {
            notation: v["notation"].as_str().and_then(|n| n.parse().ok()),
            ascii: v["board"].as_str() == Some("ascii"),
            coin_colour: match v["coin_colour"].as_str() {
                Some("white") => Some(Side::White),
                Some("black") => Some(Side::Black),
                _ => None,
            },
        }
    }

    /// `"arbiter"` in `HOME/config.json` (an alias or a player id): who keeps the player's
    /// sealed moves in escrow (A3) when a game names nobody.
    pub fn arbiter(home: &Path) -> Option<String> {
        read_config(home)?["arbiter"].as_str().map(str::to_owned)
    }
}

/// `HOME/config.json` as JSON; `None` if absent, with a warning if unreadable.
fn read_config(home: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(home.join("config.json")).ok()?;
    let Ok(v) = serde_json::from_str::<Value>(&text) else {
        eprintln!(
            "warning: {}/config.json is not valid JSON; using defaults",
            home.display()
        );
        return None;
    };
    Some(v)
}
