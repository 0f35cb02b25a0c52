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
    /// An adjourned game resumes at `resume_at_ms` (Appendix A).
    Resumption { resume_at_ms: u64 },
}

impl ReminderKind {
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

impl Reminder {
    /// The subject of its notification or e-mail.
    pub fn title(&self) -> String {
        match &self.kind {
            ReminderKind::MoveArrived { san, .. } => format!("sobre: your opponent played {san}"),
            ReminderKind::ClockLow { .. } => "sobre: your clock is running low".to_owned(),
            ReminderKind::ClaimPossible { reason, .. } => {
                format!("sobre: you can claim the game ({reason})")
            }
            ReminderKind::AutoClaim { reason } => format!("sobre: claiming the game ({reason})"),
            ReminderKind::LeagueRound { name, round, .. } => {
                format!("sobre: round {round} of {name} is open")
            }
            ReminderKind::Resumption { .. } => "sobre: an adjourned game resumes soon".to_owned(),
        }
    }
}
