//! `sobre watch`: follow your games as events arrive.

use super::common::{self, capitalise, print_json, rfc3339, short_game};
use super::contacts::Contacts;
use crate::error::CliResult;
use serde_json::Value;
use sobre_node::client;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Print events as they happen (moves, offers, claims, chat, receipts…), in all games or one,
/// until Ctrl-C or the node stops.
///
/// One line per event: time (UTC), game (8 characters), what happened, and its details.
/// With --json, each event as the node publishes it, one JSON object per line (`game`,
/// `event`, `time_ms`, and fields depending on the event); `{"lagged": N}` means N events
/// were dropped because this watcher fell behind (`sobre games` has the current state).
#[derive(clap::Args)]
pub struct Args {
    /// Only this game (an id or a unique prefix of it).
    game: Option<String>,
    /// One JSON object per line.
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let contacts = Contacts::load(home)?;
    let json = args.json;
    let runtime = common::runtime()?;
    let mut reader_gone = false;
    let interrupted = runtime.block_on(async {
        tokio::select! {
            r = client::watch(home, args.game, |v| {
                if json {
                    print_json(&v);
                } else {
                    println!("{}", event_line(&v, &contacts));
                }
                // Keep going while someone reads (a closed pipe ends the watch).
                reader_gone = std::io::stdout().flush().is_err();
                !reader_gone
            }) => r.map(|()| false),
            _ = tokio::signal::ctrl_c() => Ok(true),
        }
    })?;
    if !interrupted && !reader_gone {
        eprintln!("the node stopped");
    }
    Ok(ExitCode::SUCCESS)
}

/// A string field of an event, or `""`. Events are the one answer of the API that stays
/// free-form JSON: each kind of event carries its own details, and `watch` prints them all
/// as `key=value`.
fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// `2026-12-01T18:00:05Z 3f2a9c1e move san=Nf3 by=ana`
pub fn event_line(v: &Value, contacts: &Contacts) -> String {
    if let Some(n) = v.get("lagged").and_then(Value::as_u64) {
        return format!("({n} events missed; `sobre games` shows the current state)");
    }
    let time = v
        .get("time_ms")
        .and_then(Value::as_u64)
        .map_or_else(|| "-".to_owned(), rfc3339);
    let mut line = format!(
        "{time} {} {}",
        short_game(text(v, "game")),
        match text(v, "event") {
            "" => "event".to_owned(),
            e => e.to_owned(),
        }
    );
    if let Some(obj) = v.as_object() {
        for (k, val) in obj {
            if matches!(k.as_str(), "game" | "event" | "time_ms") || val.is_null() {
                continue;
            }
            let shown = match val {
                Value::String(s) if s.starts_with("12D3KooW") => contacts.label(s),
                Value::String(s) if k == "status" || k == "by" => capitalise(s),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            line.push_str(&format!(" {k}={shown}"));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_event_is_one_line_with_its_details_in_key_order() {
        let v = json!({"game": "3f2a9c1e0011", "event": "move", "time_ms": 1_796_148_005_000u64,
            "san": "Nf3", "status": "active", "from": null});
        assert_eq!(
            event_line(&v, &Contacts::default()),
            "2026-12-01T18:00:05Z 3f2a9c1e move san=Nf3 status=Active"
        );
        assert_eq!(
            event_line(&json!({"lagged": 3}), &Contacts::default()),
            "(3 events missed; `sobre games` shows the current state)"
        );
    }
}
