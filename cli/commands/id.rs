//! `sobre id`: who you are, and where your node can be reached.

use super::common;
use crate::error::{CliError, CliResult};
use crate::t;
use sobre_node::api::replies::IdReply;
use sobre_node::api::request;
use sobre_node::client::ClientError;
use std::path::Path;
use std::process::ExitCode;

/// Print your player id and name; when your node runs, also the addresses others can dial
/// (`sobre peers connect ADDRESS`).
///
/// Works without a running node. With --json, one object: `player_id`, `name`,
/// `node_running`, `addresses` (empty when the node is not running).
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// `id --json`.
#[derive(serde::Serialize)]
struct IdJson {
    player_id: String,
    name: Option<String>,
    node_running: bool,
    /// Empty when the node is not running.
    addresses: Vec<String>,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let key = common::load_key(home)?;
    let id = key.player_id().to_string();
    let name = super::init::read_name(home);
    let node: Option<IdReply> = match common::send(home, request::Id {}) {
        Ok(v) => Some(v),
        Err(CliError::Node(ClientError::NotRunning { .. })) => None,
        Err(e) => return Err(e),
    };
    let addresses: Vec<String> = node
        .as_ref()
        .map(|v| v.addresses.clone())
        .unwrap_or_default();
    if args.json {
        common::print_reply(&IdJson {
            player_id: id,
            name,
            node_running: node.is_some(),
            addresses,
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    println!("{}", t!("id-player", id = id));
    if let Some(n) = &name {
        println!("{}", t!("id-name", name = n));
    }
    match node {
        None => println!("{}", t!("id-node-not-running")),
        Some(_) if addresses.is_empty() => println!("{}", t!("id-node-no-addresses")),
        Some(_) => {
            println!("{}", t!("id-node-running"));
            for a in &addresses {
                println!("  {a}");
            }
            println!("{}", t!("id-invite"));
        }
    }
    Ok(ExitCode::SUCCESS)
}
