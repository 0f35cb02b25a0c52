//! `sobre watch`: follow your games as events arrive.

use super::common::{
    self, capitalise, colour_subject_word, print_json, rfc3339, short_game, status_word,
};
use super::contacts::Contacts;
use super::names::Names;
use crate::error::CliResult;
use crate::t;
use serde::Deserialize;
use serde_json::Value;
use sobre_core::notation::Notation;
use sobre_node::api::replies::{WatchEvent, WatchLine};
use sobre_node::client;
use sobre_node::reminders::Reminder;
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
    let mut names = Names::from_node(home, &contacts);
    let json = args.json;
    let notation = common::Config::load(home).notation;
    let runtime = common::runtime()?;
    let mut reader_gone = false;
    let interrupted = runtime.block_on(async {
        tokio::select! {
            r = client::watch(home, args.game, |v| {
                if json {
                    print_json(&v);
                } else {
                    match WatchLine::deserialize(&v) {
                        Ok(line) => {
                            names.learn(&line);
                            println!("{}", event_line(&line, &names, notation));
                        }
                        // Not an object: shown as the node sent it.
                        Err(_) => print_json(&v),
                    }
                }
                // Keep going while someone reads (a closed pipe ends the watch).
                reader_gone = std::io::stdout().flush().is_err();
                !reader_gone
            }) => r.map(|()| false),
            _ = tokio::signal::ctrl_c() => Ok(true),
        }
    })?;
    if !interrupted && !reader_gone {
        eprintln!("{}", crate::t!("watch-node-stopped"));
    }
    Ok(ExitCode::SUCCESS)
}

/// `2026-12-01T18:00:05Z 3f2a9c1e move san=Nf3 by=ana`; the move in the player's
/// `notation` ([`common::san_in`]).
pub fn event_line(line: &WatchLine, names: &Names, notation: Option<Notation>) -> String {
    let e = match line {
        WatchLine::Lagged { lagged } => {
            return crate::t!("watch-lagged", count = *lagged);
        }
        WatchLine::Event(e) => e,
    };
    let time = e.time_ms.map_or_else(|| "-".to_owned(), rfc3339);
    if let Some(r) = reminder_of(e) {
        // A reminder reads as in `sobre reminders`: its kind and its line, worded here.
        return format!(
            "{time} {} {} {} {}",
            r.game.as_deref().map_or("-", short_game),
            event_word(&e.event),
            super::reminders::kind_word(&r.kind),
            super::reminders::text(&r, notation)
        );
    }
    let mut line = format!(
        "{time} {} {}",
        // A player's new profile belongs to no game.
        match short_game(&e.game) {
            "" => "-",
            g => g,
        },
        event_word(&e.event)
    );
    // Each kind of event has its own details, printed as `key=value` in key order.
    for (k, val) in &e.detail {
        if val.is_null() {
            continue;
        }
        let shown = match val {
            Value::String(s) if s.starts_with("12D3KooW") => names.label(s),
            Value::String(s) if k == "status" => capitalise(&status_word(s)),
            Value::String(s) if k == "by" => colour_subject_word(s),
            Value::String(s) if k == "san" => common::san_in(s, notation),
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        line.push_str(&format!(" {}={shown}", detail_word(k)));
    }
    line
}

/// The reminder a `reminder` event carries (its fields beside the line's own `game` and
/// `time_ms`); `None` for another event, or a reminder of a kind this `sobre` does not know.
fn reminder_of(e: &WatchEvent) -> Option<Reminder> {
    if e.event != "reminder" {
        return None;
    }
    let mut fields = e.detail.clone();
    if !e.game.is_empty() {
        fields.insert("game".into(), Value::String(e.game.clone()));
    }
    fields.insert("time_ms".into(), e.time_ms?.into());
    serde_json::from_value(Value::Object(fields)).ok()
}

/// What happened, as the node names it ([`sobre_core::record::EventKind::name`], and the
/// node's own `profile`, `league`, `equivocation`), in the run's language.
fn event_word(event: &str) -> String {
    match event {
        "" => t!("watch-event"),
        "challenge" => t!("watch-event-challenge"),
        "accept" => t!("watch-event-accept"),
        "decline" => t!("watch-event-decline"),
        "abort" => t!("watch-event-abort"),
        "move" => t!("watch-event-move"),
        "draw_offer" => t!("watch-event-draw-offer"),
        "draw_accept" => t!("watch-event-draw-accept"),
        "draw_decline" => t!("watch-event-draw-decline"),
        "claim" => t!("watch-event-claim"),
        "resign" => t!("watch-event-resign"),
        "seal" => t!("watch-event-seal"),
        "presence" => t!("watch-event-presence"),
        "reveal" => t!("watch-event-reveal"),
        "receipt" => t!("watch-event-receipt"),
        "chat" => t!("watch-event-chat"),
        "leave" => t!("watch-event-leave"),
        "random_reveal" => t!("watch-event-random-reveal"),
        "escrow" => t!("watch-event-escrow"),
        "arbiter_open" => t!("watch-event-arbiter-open"),
        "coin_default" => t!("watch-event-coin-default"),
        "profile" => t!("watch-event-profile"),
        "league" => t!("watch-event-league"),
        "equivocation" => t!("watch-event-equivocation"),
        "reminder" => t!("watch-event-reminder"),
        other => other.to_owned(),
    }
}

/// The name of a detail of an event (`by`, `status`…), in the run's language.
fn detail_word(key: &str) -> String {
    match key {
        "by" => t!("watch-key-by"),
        "status" => t!("watch-key-status"),
        "from" => t!("watch-key-from"),
        "documents" => t!("watch-key-documents"),
        "name" => t!("watch-key-name"),
        "player" => t!("watch-key-player"),
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(v: Value) -> WatchLine {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn an_event_is_one_line_with_its_details_in_key_order() {
        let v = json!({"game": "3f2a9c1e0011", "event": "move", "time_ms": 1_796_148_005_000u64,
            "san": "Nf3", "status": "active", "from": null});
        assert_eq!(
            event_line(
                &line(v),
                &Names::new(&Contacts::default(), Default::default()),
                None
            ),
            "2026-12-01T18:00:05Z 3f2a9c1e move san=Nf3 status=Active"
        );
        assert_eq!(
            event_line(
                &line(json!({"lagged": 3})),
                &Names::new(&Contacts::default(), Default::default()),
                None
            ),
            "(3 events missed; `sobre games` shows the current state)"
        );
    }

    /// A move arrives in the player's notation (FIDE App. E2): Spanish letters for a player
    /// who writes them.
    #[test]
    fn a_move_is_shown_in_the_players_notation() {
        let v = json!({"game": "3f2a9c1e0011", "event": "move", "time_ms": 1_796_148_005_000u64,
            "san": "Nf3", "status": "active"});
        let contacts = Contacts::default();
        let names = Names::new(&contacts, Default::default());
        let shown = |n| event_line(&line(v.clone()), &names, n);
        assert_eq!(
            shown(Some(Notation::Spanish)),
            "2026-12-01T18:00:05Z 3f2a9c1e move san=Cf3 status=Active"
        );
        assert_eq!(
            shown(Some(Notation::Figurine)),
            "2026-12-01T18:00:05Z 3f2a9c1e move san=♘f3 status=Active"
        );
    }

    /// A reminder reads as in `sobre reminders`, worded in the interface's language and the
    /// move in the player's letters.
    #[test]
    fn a_reminder_is_worded_in_the_players_language() {
        use crate::i18n::{Language, with_lang};
        let v = json!({"game": "3f2a9c1e0011", "event": "reminder",
            "time_ms": 1_796_148_005_000u64, "key": "move_arrived:3f2a9c1e0011:1",
            "text": "your opponent played 1. e4 in game 3f2a9c1e", "kind": "move_arrived",
            "san": "e4", "ply": 1, "by": "12D3KooW"});
        let contacts = Contacts::default();
        let names = Names::new(&contacts, Default::default());
        assert_eq!(
            with_lang(Language::English, || event_line(
                &line(v.clone()),
                &names,
                None
            )),
            "2026-12-01T18:00:05Z 3f2a9c1e reminder move_arrived your opponent played 1. e4 in \
             game 3f2a9c1e"
        );
        assert_eq!(
            with_lang(Language::Spanish, || event_line(
                &line(v),
                &names,
                Some(Notation::Spanish)
            )),
            "2026-12-01T18:00:05Z 3f2a9c1e recordatorio jugada recibida su adversario jugó 1. \
             e4 en la partida 3f2a9c1e"
        );
    }

    /// The same event in a Spanish interface: what happened, the details' names and the
    /// game's state in Spanish; the move stays as the node wrote it.
    #[test]
    fn an_event_line_reads_in_spanish() {
        use crate::i18n::{Language, with_lang};
        let v = json!({"game": "3f2a9c1e0011", "event": "draw_offer",
            "time_ms": 1_796_148_005_000u64, "by": "white", "status": "active"});
        let contacts = Contacts::default();
        let names = Names::new(&contacts, Default::default());
        assert_eq!(
            with_lang(Language::Spanish, || event_line(
                &line(v.clone()),
                &names,
                None
            )),
            "2026-12-01T18:00:05Z 3f2a9c1e oferta de tablas por=Blancas estado=En juego"
        );
        assert_eq!(
            with_lang(Language::English, || event_line(&line(v), &names, None)),
            "2026-12-01T18:00:05Z 3f2a9c1e draw_offer by=White status=Active"
        );
    }

    #[test]
    fn a_new_profile_names_the_player_from_then_on() {
        let ana = "12D3KooWKYgsy9unLzD8DdwWxbRjrRmX5ZrV4YcXpKq1n6GJH7hs";
        let contacts = Contacts::default();
        let mut names = Names::new(&contacts, Default::default());
        let profile = line(
            json!({"game": "", "event": "profile", "time_ms": 1_796_148_005_000u64,
            "player": ana, "name": "Ana Pérez"}),
        );
        names.learn(&profile);
        assert_eq!(
            event_line(&profile, &names, None),
            "2026-12-01T18:00:05Z - profile name=Ana Pérez player=Ana Pérez"
        );
        let v = json!({"game": "3f2a9c1e0011", "event": "move", "time_ms": 1_796_148_005_000u64,
            "by": ana});
        assert_eq!(
            event_line(&line(v), &names, None),
            "2026-12-01T18:00:05Z 3f2a9c1e move by=Ana Pérez"
        );
    }
}
