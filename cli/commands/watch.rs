//! `sobre watch`: follow your games as events arrive.

use super::common::{
    self, capitalise, colour_subject_word, print_json, rfc3339, short_game, status_word,
};
use super::contacts::Contacts;
use super::names::Names;
use crate::error::CliResult;
use crate::t;
use serde::Deserialize;
use sobre_core::notation::Notation;
use sobre_node::api::watch::{GameEventKind, NodeEvent, WatchDetail, WatchLine};
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

/// `2026-12-01T18:00:05Z 3f2a9c1e move by=ana status=Active`; a reminder's move in the
/// player's `notation` ([`super::reminders::text`]).
pub fn event_line(line: &WatchLine, names: &Names, notation: Option<Notation>) -> String {
    let e = match line {
        WatchLine::Lagged { lagged } => {
            return crate::t!("watch-lagged", count = *lagged);
        }
        WatchLine::Event(e) => e,
    };
    let time = rfc3339(e.time_ms);
    // A player's new profile, and a reminder of a league's round, belong to no game.
    let game = match short_game(&e.game) {
        "" => "-",
        g => g,
    };
    match &e.detail {
        WatchDetail::Game(g) => {
            // Each kind of event has its own details, printed as `key=value` in the order of
            // the keys' names on the wire.
            let mut line = format!("{time} {game} {}", game_event_word(g.kind));
            detail(&mut line, t!("watch-key-by"), &signer(&g.by, names));
            if let Some(from) = &g.from {
                detail(&mut line, t!("watch-key-from"), &names.label(from));
            }
            if let Some(status) = g.status {
                let status = capitalise(&status_word(status.name()));
                detail(&mut line, t!("watch-key-status"), &status);
            }
            line
        }
        WatchDetail::Node(NodeEvent::Reminder(d)) => {
            let r = d.reminder(&e.game, e.time_ms);
            // A reminder reads as in `sobre reminders`: its kind and its line, worded here.
            format!(
                "{time} {game} {} {} {}",
                t!("watch-event-reminder"),
                super::reminders::kind_word(&r.kind),
                super::reminders::text(&r, notation)
            )
        }
        WatchDetail::Node(NodeEvent::Equivocation { by }) => {
            let mut line = format!("{time} {game} {}", t!("watch-event-equivocation"));
            detail(&mut line, t!("watch-key-by"), &signer(by, names));
            line
        }
        WatchDetail::Node(NodeEvent::League { documents }) => {
            let mut line = format!("{time} {game} {}", t!("watch-event-league"));
            detail(&mut line, t!("watch-key-documents"), &documents.to_string());
            line
        }
        WatchDetail::Node(NodeEvent::Profile { player, name }) => {
            let mut line = format!("{time} {game} {}", t!("watch-event-profile"));
            detail(&mut line, t!("watch-key-name"), name);
            detail(&mut line, t!("watch-key-player"), &names.label(player));
            line
        }
    }
}

/// Appends ` key=value`.
fn detail(line: &mut String, key: String, value: &str) {
    line.push_str(&format!(" {key}={value}"));
}

/// Who signed an event: the label of a player id; anything else as a colour reads
/// (`white`: `White`).
fn signer(by: &str, names: &Names) -> String {
    if by.starts_with("12D3KooW") {
        names.label(by)
    } else {
        colour_subject_word(by)
    }
}

/// What happened in a game, as the node names it ([`GameEventKind::name`]), in the run's
/// language.
fn game_event_word(kind: GameEventKind) -> String {
    match kind {
        GameEventKind::Challenge => t!("watch-event-challenge"),
        GameEventKind::Accept => t!("watch-event-accept"),
        GameEventKind::Decline => t!("watch-event-decline"),
        GameEventKind::Abort => t!("watch-event-abort"),
        GameEventKind::Move => t!("watch-event-move"),
        GameEventKind::DrawOffer => t!("watch-event-draw-offer"),
        GameEventKind::DrawAccept => t!("watch-event-draw-accept"),
        GameEventKind::DrawDecline => t!("watch-event-draw-decline"),
        GameEventKind::Claim => t!("watch-event-claim"),
        GameEventKind::Resign => t!("watch-event-resign"),
        GameEventKind::Seal => t!("watch-event-seal"),
        GameEventKind::Presence => t!("watch-event-presence"),
        GameEventKind::Reveal => t!("watch-event-reveal"),
        GameEventKind::Receipt => t!("watch-event-receipt"),
        GameEventKind::Chat => t!("watch-event-chat"),
        GameEventKind::Leave => t!("watch-event-leave"),
        GameEventKind::RandomReveal => t!("watch-event-random-reveal"),
        GameEventKind::Escrow => t!("watch-event-escrow"),
        GameEventKind::ArbiterOpen => t!("watch-event-arbiter-open"),
        GameEventKind::CoinDefault => t!("watch-event-coin-default"),
        // Not in the catalogue: shown as the node names them.
        GameEventKind::DeclareSealedMove
        | GameEventKind::AcceptDeclaredMove
        | GameEventKind::AnnulGame
        | GameEventKind::QuickplayClaim
        | GameEventKind::QuickplayRuling => kind.name().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const ANA: &str = "12D3KooWKYgsy9unLzD8DdwWxbRjrRmX5ZrV4YcXpKq1n6GJH7hs";

    fn line(v: Value) -> WatchLine {
        serde_json::from_value(v).unwrap()
    }

    /// Details that are `null` are left out.
    #[test]
    fn an_event_is_one_line_with_its_details_in_key_order() {
        let v = json!({"game": "3f2a9c1e0011", "event": "move", "time_ms": 1_796_148_005_000u64,
            "by": ANA, "status": "active", "from": ANA});
        let contacts = Contacts::default();
        let names = Names::new(&contacts, Default::default());
        assert_eq!(
            event_line(&line(v.clone()), &names, None),
            "2026-12-01T18:00:05Z 3f2a9c1e move by=…n6GJH7hs from=…n6GJH7hs status=Active"
        );
        let mut unsent = v;
        unsent["from"] = Value::Null;
        assert_eq!(
            event_line(&line(unsent), &names, None),
            "2026-12-01T18:00:05Z 3f2a9c1e move by=…n6GJH7hs status=Active"
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
    /// who writes them. The node names a move only in the reminder of its arrival.
    #[test]
    fn a_move_is_shown_in_the_players_notation() {
        use crate::i18n::{Language, with_lang};
        let v = json!({"game": "3f2a9c1e0011", "event": "reminder",
            "time_ms": 1_796_148_005_000u64, "key": "move_arrived:3f2a9c1e0011:3",
            "text": "your opponent played 2. Nf3 in game 3f2a9c1e", "kind": "move_arrived",
            "san": "Nf3", "ply": 3, "by": ANA});
        let contacts = Contacts::default();
        let names = Names::new(&contacts, Default::default());
        let shown = |n| {
            with_lang(Language::English, || {
                event_line(&line(v.clone()), &names, n)
            })
        };
        assert_eq!(
            shown(Some(Notation::Spanish)),
            "2026-12-01T18:00:05Z 3f2a9c1e reminder move_arrived your opponent played 2. Cf3 in \
             game 3f2a9c1e"
        );
        assert_eq!(
            shown(Some(Notation::Figurine)),
            "2026-12-01T18:00:05Z 3f2a9c1e reminder move_arrived your opponent played 2. ♘f3 in \
             game 3f2a9c1e"
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

    /// The node's own news: an equivocation names the player who signed twice, a league's
    /// documents are counted.
    #[test]
    fn the_nodes_news_read_as_one_line_too() {
        let contacts = Contacts::default();
        let names = Names::new(&contacts, Default::default());
        let shown = |v| event_line(&line(v), &names, None);
        assert_eq!(
            shown(json!({"game": "3f2a9c1e0011", "event": "equivocation",
                "time_ms": 1_796_148_005_000u64, "by": ANA})),
            "2026-12-01T18:00:05Z 3f2a9c1e equivocation by=…n6GJH7hs"
        );
        assert_eq!(
            shown(json!({"game": "5b1e0c7d0011", "event": "league",
                "time_ms": 1_796_148_005_000u64, "documents": 4})),
            "2026-12-01T18:00:05Z 5b1e0c7d league documents=4"
        );
    }

    #[test]
    fn a_new_profile_names_the_player_from_then_on() {
        let ana = ANA;
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
