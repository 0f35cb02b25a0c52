//! `sobre reminders`: what the node reminded you of.

use super::common::{self, rfc3339, short_game};
use crate::error::CliResult;
use crate::t;
use sobre_core::notation::Notation;
use sobre_node::api::replies::RemindersReply;
use sobre_node::api::request;
use sobre_node::reminders::words::Wording;
use sobre_node::reminders::{Reminder, ReminderKind};
use std::path::Path;
use std::process::ExitCode;

/// List the reminders the node fired, oldest first: a move arrived, your clock runs low, the
/// opponent is overdue and a claim is possible, the node claims by itself (`auto_claim`), a
/// league round opened, an adjourned game resumes soon. Each fires once, even across restarts.
///
/// When and how reminders are delivered (desktop notification, a command given the reminder
/// as JSON on its standard input, e-mail through your SMTP server) is set in the `[reminders]`
/// table of HOME/node.toml; `sobre watch` shows them as they fire.
///
/// One line each: time (UTC), game (8 characters, `-` for a league), kind and text, in the
/// language of the interface, moves in your notation. Read from the database when the node
/// is stopped. With --json, the node's object: `reminders`, a list of {`key`, `game`,
/// `time_ms`, `text` (English), `kind`, and the kind's own fields}.
#[derive(clap::Args)]
pub struct Args {
    /// At most this many, the latest.
    #[arg(long, default_value_t = sobre_node::api::DEFAULT_REMINDERS)]
    limit: usize,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let read: common::Read<RemindersReply> = common::read_typed(
        home,
        request::Reminders {
            limit: Some(args.limit),
        },
    )?;
    if args.json {
        common::print_reply(&read)?;
        return Ok(ExitCode::SUCCESS);
    }
    let notation = common::Config::load(home).notation;
    if read.reply.reminders.is_empty() {
        println!("{}", t!("reminders-none"));
    }
    for r in &read.reply.reminders {
        println!("{}", line(r, notation));
    }
    Ok(ExitCode::SUCCESS)
}

/// `2026-12-01T18:00:05Z 3f2a9c1e move_arrived your opponent played 1. e4 in game 3f2a9c1e`
fn line(r: &Reminder, notation: Option<Notation>) -> String {
    let game = r.game.as_deref().map_or("-", short_game);
    format!(
        "{} {game} {} {}",
        rfc3339(r.time_ms),
        kind_word(&r.kind),
        text(r, notation)
    )
}

/// The kind of a reminder, in the run's language (English: its JSON name).
pub fn kind_word(kind: &ReminderKind) -> String {
    match kind {
        ReminderKind::MoveArrived { .. } => t!("reminder-kind-move-arrived"),
        ReminderKind::ClockLow { .. } => t!("reminder-kind-clock-low"),
        ReminderKind::ClaimPossible { .. } => t!("reminder-kind-claim-possible"),
        ReminderKind::AutoClaim { .. } => t!("reminder-kind-auto-claim"),
        ReminderKind::LeagueRound { .. } => t!("reminder-kind-league-round"),
        ReminderKind::Resumption { .. } => t!("reminder-kind-resumption"),
    }
}

/// The reminder's line in the run's language, the move in the player's `notation`: the
/// node's catalogue of reminder words ([`Wording`]), the one the node delivers with. A
/// resumption recorded before its time left was kept is shown in the node's words.
pub fn text(r: &Reminder, notation: Option<Notation>) -> String {
    Wording {
        lang: crate::i18n::lang(),
        notation,
    }
    .line(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Language, with_lang};

    fn reminder(game: Option<&str>, kind: ReminderKind) -> Reminder {
        let short = game.map_or("", short_game).to_owned();
        Reminder {
            key: "k".into(),
            game: game.map(str::to_owned),
            time_ms: 1_796_148_005_000,
            text: kind.english(&short).unwrap_or_default(),
            kind,
        }
    }

    /// One reminder of each kind.
    fn samples() -> Vec<Reminder> {
        let g = Some("3f2a9c1e0011");
        vec![
            reminder(
                g,
                ReminderKind::MoveArrived {
                    san: "Nf3".into(),
                    ply: 4,
                    by: "12D3KooW".into(),
                },
            ),
            reminder(
                g,
                ReminderKind::ClockLow {
                    ms_left: 3 * 3_600_000 + 20 * 60_000,
                    deadline_ms: 1,
                },
            ),
            reminder(
                g,
                ReminderKind::ClaimPossible {
                    reason: "time".into(),
                    opponent: "12D3KooW".into(),
                },
            ),
            reminder(
                g,
                ReminderKind::AutoClaim {
                    reason: "lateness".into(),
                },
            ),
            reminder(
                None,
                ReminderKind::LeagueRound {
                    league: "ab".into(),
                    name: "Club".into(),
                    round: 2,
                    opens_ms: 1,
                },
            ),
            reminder(
                g,
                ReminderKind::Resumption {
                    resume_at_ms: 1,
                    ms_left: Some(2 * 86_400_000 + 3_600_000),
                },
            ),
        ]
    }

    /// In English each reminder reads as the node words it: the output does not change.
    #[test]
    fn english_reminders_are_the_nodes_words() {
        for r in samples() {
            let en = with_lang(Language::English, || text(&r, None));
            assert_eq!(en, r.text, "{r:?}");
            let kind = with_lang(Language::English, || kind_word(&r.kind));
            assert_eq!(kind, r.kind.name());
        }
    }

    /// In Spanish each reminder is worded from its kind, the move in the player's letters
    /// (FIDE App. E2) and the claim's reason in Spanish.
    #[test]
    fn reminders_read_in_spanish() {
        for r in samples() {
            let es = with_lang(Language::Spanish, || text(&r, None));
            assert_ne!(es, r.text, "{r:?} is not translated");
        }
        let all = samples();
        assert_eq!(
            with_lang(Language::Spanish, || line(&all[0], Some(Notation::Spanish))),
            "2026-12-01T18:00:05Z 3f2a9c1e jugada recibida su adversario jugó 2... Cf3 en la \
             partida 3f2a9c1e"
        );
        assert_eq!(
            with_lang(Language::Spanish, || text(&all[2], None)),
            "puede reclamar la partida 3f2a9c1e (tiempo): sobre claim 3f2a9c1e time"
        );
        // A resumption recorded before its time left was kept: the node's words.
        let old = Reminder {
            kind: ReminderKind::Resumption {
                resume_at_ms: 1,
                ms_left: None,
            },
            text: "adjourned game 3f2a9c1e resumes in 2d 1h".into(),
            ..all[0].clone()
        };
        assert_eq!(with_lang(Language::Spanish, || text(&old, None)), old.text);
    }

    #[test]
    fn a_reminder_is_one_line_with_its_time_game_and_kind() {
        let r = Reminder {
            key: "move_arrived:3f2a9c1e0011:1".into(),
            game: Some("3f2a9c1e0011".into()),
            time_ms: 1_796_148_005_000,
            text: "your opponent played 1. e4 in game 3f2a9c1e".into(),
            kind: ReminderKind::MoveArrived {
                san: "e4".into(),
                ply: 1,
                by: "12D3KooW".into(),
            },
        };
        assert_eq!(
            with_lang(Language::English, || line(&r, None)),
            "2026-12-01T18:00:05Z 3f2a9c1e move_arrived your opponent played 1. e4 in game 3f2a9c1e"
        );
    }
}
