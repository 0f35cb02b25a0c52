//! `sobre decline`: decline a challenge.

use super::common;
use super::show::game_tag;
use sobre_node::api::ApiRequest;
use std::path::Path;
use std::process::ExitCode;

/// Decline a challenge you received, optionally saying why.
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// A reason sent to the challenger.
    #[arg(long)]
    reason: Option<String>,
}

pub fn run(home: &Path, args: Args) -> anyhow::Result<ExitCode> {
    let v = common::call(
        home,
        ApiRequest::Decline {
            game: args.game,
            reason: args.reason,
        },
    )?;
    println!("declined {}", game_tag(&v));
    Ok(ExitCode::SUCCESS)
}
