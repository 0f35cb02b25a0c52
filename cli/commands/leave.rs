//! `sobre leave`: correspondence leave (vacation).

use super::common::{self, rfc3339};
use serde_json::Value;
use sobre_node::api::{ApiRequest, LeaveAction};
use std::path::Path;
use std::process::ExitCode;

/// Take leave (a vacation) in all your active games: your clocks stop while it lasts,
/// within the yearly allowance (ICCF: 45 days).
#[derive(clap::Subcommand)]
pub enum LeaveCommand {
    Start(StartArgs),
    End(EndArgs),
}

/// Start leave now, for N days (default 7).
#[derive(clap::Args)]
pub struct StartArgs {
    /// How many days.
    #[arg(long, value_name = "N")]
    days: Option<u32>,
}

/// End the leave in progress now.
#[derive(clap::Args)]
pub struct EndArgs {}

pub fn run(home: &Path, cmd: LeaveCommand) -> anyhow::Result<ExitCode> {
    let request = match cmd {
        LeaveCommand::Start(a) => ApiRequest::Leave {
            action: LeaveAction::Start,
            days: a.days,
        },
        LeaveCommand::End(_) => ApiRequest::Leave {
            action: LeaveAction::End,
            days: None,
        },
    };
    let v = common::call(home, request)?;
    let at = |k: &str| {
        v.get(k)
            .and_then(Value::as_u64)
            .map_or_else(String::new, rfc3339)
    };
    let games = v.get("games").and_then(Value::as_array).map_or(0, Vec::len);
    println!(
        "leave from {} until {} in {games} game(s)",
        at("from_ms"),
        at("until_ms")
    );
    Ok(ExitCode::SUCCESS)
}
