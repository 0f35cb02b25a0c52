//! `sobre peers`: the nodes your node talks to.

use super::common::{self};
use crate::error::CliResult;
use crate::t;
use sobre_node::api::replies::ConnectReply;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Connect to other nodes and list the connected ones.
#[derive(clap::Subcommand)]
pub enum PeersCommand {
    Connect(ConnectArgs),
    List(ListArgs),
}

/// Dial a node by address (as `sobre id` prints it on that machine) and remember it.
#[derive(clap::Args)]
pub struct ConnectArgs {
    /// The node's multiaddr, e.g. /ip4/192.168.1.20/tcp/4001/p2p/12D3KooW….
    multiaddr: String,
}

/// List connected peers, then the remembered ones (opponents, mailboxes, contacts, peers
/// connected by hand or met through an invite, redialed at each start), one `PEER_ID
/// ADDRESS…` line each.
///
/// With --json, the node's object: `connected` and `known`, each a list of
/// {`peer`, `addresses`}.
#[derive(clap::Args)]
pub struct ListArgs {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, cmd: PeersCommand) -> CliResult<ExitCode> {
    match cmd {
        PeersCommand::Connect(a) => {
            let v: ConnectReply = common::send(home, request::Connect { addr: a.multiaddr })?;
            println!("{}", t!("peers-connected-to", peer = &v.peer));
        }
        PeersCommand::List(a) => {
            // With the node stopped: none connected, the remembered ones from its database.
            let read = common::read_typed(home, request::Peers {})?;
            if a.json {
                common::print_reply(&read)?;
                return Ok(ExitCode::SUCCESS);
            }
            let v = read.reply;
            if v.connected.is_empty() {
                println!("{}", t!("peers-none"));
            }
            for p in &v.connected {
                println!("{}  {}", p.peer, p.addresses.join(" "));
            }
            // The remembered peers: redialed at start, found by deliveries.
            if !v.known.is_empty() {
                println!("{}", t!("peers-known"));
            }
            for p in &v.known {
                println!("{}  {}", p.peer, p.addresses.join(" "));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
