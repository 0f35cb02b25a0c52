//! `sobre leave`: correspondence leave (vacation).

use super::common::{self, rfc3339};
use crate::error::CliResult;
use crate::t;
use sobre_node::api::LeaveAction;
use sobre_node::api::replies::LeaveReply;
use sobre_node::api::request;
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
    #[command(flatten)]
    json: common::Json,
}

/// End the leave in progress now.
#[derive(clap::Args)]
pub struct EndArgs {
    #[command(flatten)]
    json: common::Json,
}

pub fn run(home: &Path, cmd: LeaveCommand) -> CliResult<ExitCode> {
    let (request, json) = match cmd {
        LeaveCommand::Start(a) => (
            request::Leave {
                action: LeaveAction::Start,
                days: a.days,
            },
            a.json,
        ),
        LeaveCommand::End(a) => (
            request::Leave {
                action: LeaveAction::End,
                days: None,
            },
            a.json,
        ),
    };
    let v: LeaveReply = common::send(home, request)?;
    json.answer(&v, || {
        t!(
            "leave-taken",
            from = rfc3339(v.from_ms),
            until = rfc3339(v.until_ms),
            games = v.games.len()
        )
    })
}
