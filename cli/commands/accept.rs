//! `sobre accept`: accept a challenge.

use super::common;
use super::show::{game_tag, state_line};
use sobre_node::api::ApiRequest;
use std::path::Path;
use std::process::ExitCode;

/// Accept a challenge you received (`sobre games` shows them as "challenged you"). The game
/// starts; colours and a Chess960 position drawn at random are settled fairly by both nodes.
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
}

pub fn run(home: &Path, args: Args) -> anyhow::Result<ExitCode> {
    let v = common::call(home, ApiRequest::Accept { game: args.game })?;
    println!("accepted {}: {}", game_tag(&v), state_line(&v));
    Ok(ExitCode::SUCCESS)
}
