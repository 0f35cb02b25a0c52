//! What the node commands share: one request to the node, JSON output, the player's key,
//! durations and timestamps as people read them.

use crate::error::{self, CliError, CliResult};
use serde::de::DeserializeOwned;
use serde_json::Value;
use sobre_node::api::{Reply, Request};
use sobre_node::client::{self, Client};
use sobre_node::player_config::PlayerConfig;
use std::path::Path;

/// A tokio runtime for one command (`main` stays synchronous).
pub fn runtime() -> CliResult<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
}

/// Sends one request to the node running in `home` and reads the reply its type names
/// ([`Request::Reply`]).
///
/// # Errors
/// [`client::ClientError`], which [`crate::error::report`] turns into a message and an exit
/// code (the node not running is the user's to fix); a reply that is not of the expected
/// kind is a [`client::ClientError::Protocol`] error (the node and this `sobre` differ).
pub fn send<R: Request>(home: &Path, request: R) -> CliResult<R::Reply> {
    Ok(runtime()?.block_on(Client::new(home).send(request))?)
}

/// A typed answer to a read, and whether it came from the database with the node stopped:
/// as JSON, the reply's own fields, with `"stale": true` beside them when it did.
#[derive(Debug, serde::Serialize)]
pub struct Read<T> {
    #[serde(flatten)]
    pub reply: T,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stale: bool,
}

/// Sends a read request (`games`, `show`, `export`, `envelope`, `league list`/`export`,
/// `profiles`, `conditional … list`, `peers`, `block`) to the node running in `home`; when
/// none runs, answers it from the home's database with the node's own code
/// ([`sobre_node::offline`]), says on standard error that the view may be stale, and marks
/// the answer [`Read::stale`].
///
/// # Errors
/// As [`send`]; without the node, the database being busy or unreadable, and the node's own
/// refusals (an unknown game) as the node gives them.
pub fn read_typed<R: Request + Clone>(home: &Path, request: R) -> CliResult<Read<R::Reply>> {
    match send(home, request.clone()) {
        Err(CliError::Node(client::ClientError::NotRunning { .. })) => {}
        other => {
            return other.map(|reply| Read {
                reply,
                stale: false,
            });
        }
    }
    let answer = sobre_node::offline::answer(home, request.into()).map_err(offline_error)?;
    note_stale(home);
    Ok(Read {
        reply: retype(&answer)?,
        stale: true,
    })
}

/// [`read_typed`], without saying whether the answer is stale.
///
/// # Errors
/// As [`read_typed`].
pub fn read_as<R: Request + Clone>(home: &Path, request: R) -> CliResult<R::Reply> {
    Ok(read_typed(home, request)?.reply)
}

/// Says once per command that what follows was read without the node.
fn note_stale(home: &Path) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        eprintln!(
            "{}",
            crate::t!("note-stale", home = home.display().to_string())
        );
    }
}

fn offline_error(e: sobre_node::offline::OfflineError) -> CliError {
    use sobre_node::offline::OfflineError as O;
    match e {
        O::Api(api) => CliError::Node(client::ClientError::Api(api)),
        O::Busy { .. } => error::user_hint(e.to_string(), crate::t!("hint-try-again")),
        O::Key(sobre_node::home::KeyError::Missing(home)) => error::user_hint(
            crate::t!("no-player-key", home = home),
            crate::t!("hint-init"),
        ),
        O::Key(_) | O::Store(_) => error::user(e.to_string()),
        O::NotARead => CliError::bug(e),
    }
}

/// The node's own answer, given in this process (a read without the node), as the reply
/// type the request names: through its JSON, the one form both share, exactly as if it had
/// crossed the socket.
///
/// # Errors
/// [`client::ClientError::Protocol`] if the answer is not a `T` (a bug: the request names
/// its reply).
fn retype<T: DeserializeOwned>(answer: &Reply) -> Result<T, client::ClientError> {
    let value = serde_json::to_value(answer).map_err(|e| {
        client::ClientError::Protocol(format!("a reply that does not serialise: {e}"))
    })?;
    client::reply_of(value)
}

/// Prints a typed reply, or a command's own typed output, as one JSON object on one line
/// (`--json`). The keys come in the order of their names, whatever the order the type
/// declares them in: the order the node's replies cross the socket in, and the one the
/// commands always printed.
///
/// # Errors
/// A value that does not serialise (a bug).
pub fn print_reply<T: serde::Serialize + ?Sized>(reply: &T) -> CliResult<()> {
    println!("{}", json_line(reply)?);
    Ok(())
}

/// A value as one line of JSON, its keys in the order of their names (see [`print_reply`]).
///
/// # Errors
/// A value that does not serialise (a bug).
pub fn json_line<T: serde::Serialize + ?Sized>(value: &T) -> CliResult<String> {
    Ok(serde_json::to_value(value)?.to_string())
}

/// Prints a line of `watch` as the node wrote it, on one line.
pub fn print_json(value: &Value) {
    println!("{value}");
}

/// `--json` on the commands that change a game: print the node's typed answer (the game's
/// state, a [`sobre_node::api::GameView`], with what the command adds beside it) as one JSON
/// object.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Json {
    /// Print the node's answer as one JSON object (for a game: its resulting state, the
    /// fields of `show --json`).
    #[arg(long)]
    pub json: bool,
}

impl Json {
    /// Prints the typed reply with --json, else the human line.
    ///
    /// # Errors
    /// Only if the reply does not serialize (a bug).
    pub fn answer<T: serde::Serialize>(
        self,
        reply: &T,
        human: impl FnOnce() -> String,
    ) -> CliResult<std::process::ExitCode> {
        if self.json {
            println!("{}", serde_json::to_string(reply)?);
        } else {
            println!("{}", human());
        }
        Ok(std::process::ExitCode::SUCCESS)
    }
}

/// The player's key, or a user error saying to run `sobre init`.
pub fn load_key(home: &Path) -> CliResult<sobre_core::record::Keypair> {
    sobre_node::home::load_key(home).map_err(|e| match e {
        sobre_node::home::KeyError::Missing(_) => error::user_hint(
            crate::t!("no-player-key", home = home.display().to_string()),
            crate::t!("hint-init"),
        ),
        other => error::user(crate::i18n::errors::key(&other)),
    })
}

/// The first 8 characters of a game id, as tables show it.
pub fn short_game(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}

/// A duration for tables: its two largest units, rounded down (`2d3h`, `5h10m`, `42s`);
/// negative durations are written `overdue 3h`.
pub fn human_duration(ms: i64) -> String {
    if ms < 0 {
        return crate::t!("overdue", time = human_duration(ms.saturating_neg()));
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

/// Instants as RFC 3339 UTC to the second (`2026-12-01T18:00:00Z`), written and read by the
/// core's calendar (one implementation for the PGN dates and the command line).
pub use sobre_core::record::export::{iso_utc as rfc3339, parse_iso_utc as parse_rfc3339};

/// "cannot read FILE: why", in the run's language.
pub fn cannot_read(path: &Path, e: &dyn std::fmt::Display) -> String {
    crate::t!(
        "cannot-read",
        path = path.display().to_string(),
        error = e.to_string()
    )
}

/// "cannot open FILE: why", in the run's language.
pub fn cannot_open(path: &Path, e: &dyn std::fmt::Display) -> String {
    crate::t!(
        "cannot-open",
        path = path.display().to_string(),
        error = e.to_string()
    )
}

/// "cannot create FILE: why", in the run's language.
pub fn cannot_create(path: &Path, e: &dyn std::fmt::Display) -> String {
    crate::t!(
        "cannot-create",
        path = path.display().to_string(),
        error = e.to_string()
    )
}

/// "cannot write FILE: why", in the run's language.
pub fn cannot_write(path: &Path, e: &dyn std::fmt::Display) -> String {
    crate::t!(
        "cannot-write",
        path = path.display().to_string(),
        error = e.to_string()
    )
}

/// A colour as the node names it (`white`, `black`), in the run's language.
pub fn colour_word(colour: &str) -> String {
    match colour {
        "white" => crate::t!("colour-white"),
        "black" => crate::t!("colour-black"),
        other => other.to_owned(),
    }
}

/// A colour as the node names it, starting a sentence or a table cell (`White`, `Blancas`).
pub fn colour_subject_word(colour: &str) -> String {
    match colour {
        "white" => crate::t!("colour-white-subject"),
        "black" => crate::t!("colour-black-subject"),
        other => capitalise(other),
    }
}

/// A game's state as the node names it (`active`, `adjourned`…), in the run's language.
pub fn status_word(status: &str) -> String {
    match status {
        "pending" => crate::t!("status-pending"),
        "active" => crate::t!("status-active"),
        "adjourned" => crate::t!("status-adjourned"),
        "finished" => crate::t!("status-finished"),
        "cancelled" => crate::t!("status-cancelled"),
        "disputed" => crate::t!("status-disputed"),
        other => other.to_owned(),
    }
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

/// A JSON fixture of the snapshot tests (`tests/golden/NAME`), read as a `T`.
#[cfg(test)]
pub fn golden_fixture<T: DeserializeOwned>(name: &str) -> T {
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

/// A move the node gives in English SAN (`Nf3+`), written in the player's notation: the
/// core reads it and writes it again with its own letters (Spanish `Cf3+`, figurine `♘f3+`,
/// FIDE App. E2). Coordinates need the position, which a SAN text alone does not carry:
/// for `uci`/`iccf`, with no setting, or a text the core does not read, the node's SAN as
/// it came.
pub fn san_in(san: &str, notation: Option<sobre_core::notation::Notation>) -> String {
    notation.map_or_else(|| san.to_owned(), |n| n.san_of(san))
}

/// A colour a player asks for (`--colour white|black`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// The core's colour.
    pub fn colour(self) -> sobre_core::Color {
        match self {
            Side::White => sobre_core::Color::White,
            Side::Black => sobre_core::Color::Black,
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
        let Some(c) = read_config(home) else {
            return Config::default();
        };
        Config {
            notation: c.notation(),
            ascii: c.ascii_board(),
            coin_colour: c.coin_colour().map(|c| match c {
                sobre_core::Color::White => Side::White,
                sobre_core::Color::Black => Side::Black,
            }),
        }
    }

    /// `"language"` in `HOME/config.json`: `"es"` or `"en"` (the interface's language,
    /// before the environment's; see [`crate::i18n`]).
    /// Read before the language is chosen, so it warns about nothing (a damaged file is
    /// reported, in the chosen language, by the next reading).
    pub fn language(home: &Path) -> Option<crate::i18n::Language> {
        PlayerConfig::read(home).ok().flatten()?.language()
    }

    /// `"arbiter"` in `HOME/config.json` (an alias or a player id): who keeps the player's
    /// sealed moves in escrow (A3) when a game names nobody.
    pub fn arbiter(home: &Path) -> Option<String> {
        read_config(home)?.arbiter().map(str::to_owned)
    }
}

/// `HOME/config.json` ([`PlayerConfig`]); `None` if absent, with a warning if not JSON.
fn read_config(home: &Path) -> Option<PlayerConfig> {
    PlayerConfig::read(home).unwrap_or_else(|_| {
        eprintln!(
            "{}",
            crate::t!("config-not-json", home = home.display().to_string())
        );
        None
    })
}

/// Reads a time control a player typed, as the core reads it; a bad one is the user's error
/// naming what is wrong, with `hint`.
///
/// # Errors
/// [`crate::error::CliError`] (exit 2) when the core does not read it.
pub fn time_control(text: &str, hint: String) -> CliResult<sobre_core::clock::TimeControl> {
    text.parse()
        .map_err(|e: sobre_core::clock::TimeControlError| {
            crate::error::user_hint(
                crate::t!(
                    "challenge-bad-time-control",
                    error = crate::i18n::errors::time_control(&e)
                ),
                hint,
            )
        })
}
