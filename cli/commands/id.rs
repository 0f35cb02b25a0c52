//! `sobre id`: who you are, and where your node can be reached.

use super::common::{self, print_json};
use serde_json::{Value, json};
use sobre_node::api::ApiRequest;
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

pub fn run(home: &Path, args: Args) -> anyhow::Result<ExitCode> {
    let key = common::load_key(home)?;
    let id = key.player_id().to_string();
    let name = super::init::read_name(home);
    let node = match common::call(home, ApiRequest::Id) {
        Ok(v) => Some(v),
        Err(e) if matches!(e.downcast_ref(), Some(ClientError::NotRunning { .. })) => None,
        Err(e) => return Err(e),
    };
    let addresses: Vec<String> = node
        .as_ref()
        .and_then(|v| v.get("addresses"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    if args.json {
        print_json(&json!({
            "player_id": id,
            "name": name,
            "node_running": node.is_some(),
            "addresses": addresses,
        }));
        return Ok(ExitCode::SUCCESS);
    }
    println!("player id: {id}");
    if let Some(n) = &name {
        println!("name:      {n}");
    }
    match node {
        None => println!("node:      not running (start it with `sobre node run`)"),
        Some(_) if addresses.is_empty() => println!("node:      running, no addresses yet"),
        Some(_) => {
            println!("node:      running; others can connect to:");
            for a in &addresses {
                println!("  {a}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
