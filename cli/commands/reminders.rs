//! `sobre reminders`: what the node reminded you of.

use super::common::{self, print_json, rfc3339, short_game};
use crate::error::CliResult;
use sobre_node::api::ApiRequest;
use sobre_node::api::replies::RemindersReply;
use sobre_node::reminders::Reminder;
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
/// One line each: time (UTC), game (8 characters, `-` for a league), kind and text. With
/// --json, the node's object: `reminders`, a list of {`key`, `game`, `time_ms`, `text`,
/// `kind`, and the kind's own fields}.
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
    let v = common::call(
        home,
        ApiRequest::Reminders {
            limit: Some(args.limit),
        },
    )?;
    if args.json {
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    let v: RemindersReply = common::reply(v)?;
    if v.reminders.is_empty() {
        println!("no reminders yet");
    }
    for r in &v.reminders {
        println!("{}", line(r));
    }
    Ok(ExitCode::SUCCESS)
}

/// `2026-12-01T18:00:05Z 3f2a9c1e move_arrived your opponent played 1. e4 in game 3f2a9c1e`
fn line(r: &Reminder) -> String {
    let game = r.game.as_deref().map_or("-", short_game);
    format!("{} {game} {} {}", rfc3339(r.time_ms), r.kind.name(), r.text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_node::reminders::ReminderKind;

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
            line(&r),
            "2026-12-01T18:00:05Z 3f2a9c1e move_arrived your opponent played 1. e4 in game 3f2a9c1e"
        );
    }
}
