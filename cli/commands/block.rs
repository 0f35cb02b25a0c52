//! `sobre block`: refuse a player for good.

use super::common::{self};
use super::contacts::Contacts;
use crate::error::CliResult;
use crate::t;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Refuse a player for good: their waiting challenges are dropped, their node is
/// disconnected and refused, and nothing they sign is taken any more (also in games
/// under way). Without a player, list the blocked players.
///
///   sobre block 12D3KooWxyz…        refuse this player
///   sobre block pesado --remove     lift it (an alias from `sobre contacts` works too)
///   sobre block                     list
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The player: a player id (12D3KooW…) or an alias from `sobre contacts`.
    player: Option<String>,
    /// Lift the block instead.
    #[arg(long, requires = "player")]
    remove: bool,
    /// Print one JSON object: `blocked`, the list of blocked player ids.
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let player = match &args.player {
        Some(p) => Some(Contacts::load(home)?.resolve(p)),
        None => None,
    };
    let listing = player.is_none();
    let request = request::Block {
        player,
        unblock: args.remove,
    };
    // The list is read from the database when the node is stopped; a change needs the node.
    let read = if listing {
        common::read_typed(home, request)?
    } else {
        common::Read {
            reply: common::send(home, request)?,
            stale: false,
        }
    };
    if args.json {
        common::print_reply(&read)?;
        return Ok(ExitCode::SUCCESS);
    }
    let v = read.reply;
    if v.blocked.is_empty() {
        println!("{}", t!("block-nobody"));
    }
    for p in &v.blocked {
        println!("{}", t!("block-blocked", player = p));
    }
    Ok(ExitCode::SUCCESS)
}
