//! Reminders: what the node tells the player without being asked — a move arrived, the
//! player's clock runs low, the opponent is overdue and a claim is possible, the node is
//! about to claim by itself, a league round opened, an adjourned game resumes soon.
//!
//! The service decides when a reminder is due (`service::reminders`) and records it once
//! under its [`Reminder::key`] in the store (`store::reminders`), so it never fires twice,
//! not even across a restart; then it is published to `watch` and handed to the
//! [`deliver::Deliverer`], which runs outside the service's loop: a desktop notification, the
//! player's `on_reminder` command, an e-mail (see [`settings::ReminderSettings`]).

pub mod deliver;
pub mod settings;
pub mod words;

use serde::{Deserialize, Serialize};

/// What a reminder is about, with its own details (`kind` in JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReminderKind {
    /// The opponent's move arrived: `san` is the move, `ply` its number in the game (1 for
    /// White's first move), `by` the opponent's player id.
    MoveArrived { san: String, ply: u32, by: String },
    /// The player is to move and has less than the configured time left: `ms_left` until
    /// `deadline_ms`, when the flag falls.
    ClockLow { ms_left: i64, deadline_ms: u64 },
    /// The opponent is overdue and a claim (`time`, 6.9; `lateness`, A10) would be judged
    /// correct now: `sobre claim GAME REASON`.
    ClaimPossible { reason: String, opponent: String },
    /// The node claims (`reason`) by itself right after this reminder (`auto_claim`).
    AutoClaim { reason: String },
    /// A round of a league the player joined is open.
    LeagueRound {
        league: String,
        name: String,
        round: u32,
        opens_ms: u64,
    },
    /// An adjourned game resumes at `resume_at_ms` (Appendix A), `ms_left` after the
    /// reminder fired (absent from reminders recorded before it was added).
    Resumption {
        resume_at_ms: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ms_left: Option<i64>,
    },
}

impl ReminderKind {
    /// The reminder's line in English, about game `short` (its first 8 hex digits; unused
    /// for a league round): the node's [`Reminder::text`]. `None` for a resumption recorded
    /// without its `ms_left`. A client words the same line in its player's language from
    /// these fields ([`words::Wording`]).
    pub fn english(&self, short: &str) -> Option<String> {
        words::Wording::ENGLISH.kind_line(self, short)
    }

    /// The kind's name in JSON (`move_arrived`, `clock_low`…).
    pub fn name(&self) -> &'static str {
        match self {
            ReminderKind::MoveArrived { .. } => "move_arrived",
            ReminderKind::ClockLow { .. } => "clock_low",
            ReminderKind::ClaimPossible { .. } => "claim_possible",
            ReminderKind::AutoClaim { .. } => "auto_claim",
            ReminderKind::LeagueRound { .. } => "league_round",
            ReminderKind::Resumption { .. } => "resumption",
        }
    }
}

/// One reminder, as recorded, listed (`sobre reminders --json`), shown by `watch` and given
/// to the `on_reminder` command on its standard input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reminder {
    /// What makes it unique: a reminder whose key was recorded before never fires again.
    pub key: String,
    /// The game (hex id), if it is about one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// When it fired, ms since the epoch.
    pub time_ms: u64,
    /// One line for a person.
    pub text: String,
    #[serde(flatten)]
    pub kind: ReminderKind,
}

/// The move number of ply `ply` (1 for White's first move) and its dots: `(1, ".")`,
/// `(1, "...")` for Black's reply.
pub fn move_number(ply: u32) -> (u32, &'static str) {
    (ply.div_ceil(2), if ply % 2 == 1 { "." } else { "..." })
}

/// `3h 20m`, `45s`: the time left in a reminder's line.
pub fn human_left(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (d, h, m) = (s / 86_400, s % 86_400 / 3600, s % 3600 / 60);
    match (d, h, m) {
        (0, 0, 0) => format!("{s}s"),
        (0, 0, m) => format!("{m}m"),
        (0, h, m) => format!("{h}h {m}m"),
        (d, h, _) => format!("{d}d {h}h"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The node's line names the move by its number (Black's with `...`) and the time left
    /// in days, hours and minutes; an old resumption without its time left has no line to
    /// rebuild.
    #[test]
    fn a_reminders_english_line_comes_from_its_kind() {
        let arrived = ReminderKind::MoveArrived {
            san: "Nf6".into(),
            ply: 2,
            by: "x".into(),
        };
        assert_eq!(
            arrived.english("3f2a9c1e").as_deref(),
            Some("your opponent played 1... Nf6 in game 3f2a9c1e")
        );
        let resumes = |ms_left| ReminderKind::Resumption {
            resume_at_ms: 1,
            ms_left,
        };
        assert_eq!(
            resumes(Some(2 * 86_400_000 + 3_600_000))
                .english("3f2a9c1e")
                .as_deref(),
            Some("adjourned game 3f2a9c1e resumes in 2d 1h (sobre resume GAME when you are there)")
        );
        assert_eq!(resumes(None).english("3f2a9c1e"), None);
        let old: ReminderKind =
            serde_json::from_str(r#"{"kind":"resumption","resume_at_ms":5}"#).unwrap();
        assert_eq!(
            old,
            ReminderKind::Resumption {
                resume_at_ms: 5,
                ms_left: None
            }
        );
    }
}
