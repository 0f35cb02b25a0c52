//! `sobre invite` and `sobre connect`: meeting another player with one line.

use super::common;
use super::contacts::{Contacts, check_alias};
use crate::error::{self, CliError, CliResult};
use crate::t;
use sobre_node::api::replies::IdReply;
use sobre_node::api::request;
use sobre_node::client::ClientError;
use sobre_node::invite::{self, Invite, InviteError};
use sobre_node::settings;
use std::path::Path;
use std::process::ExitCode;

/// Print your invite: one line to give another player (by mail, chat, on paper).
///
/// It holds your player id, your name, the addresses your node is reachable at (external
/// ones and, when your node runs, its listen and relayed addresses; loopback only if there
/// is nothing else) and the mailboxes and bootstrap nodes saved in HOME/node.toml, signed by
/// your key. The other player runs `sobre connect 'LINE'` (or `sobre contacts add NAME
/// 'LINE'`). Make a new one when your addresses change.
///
/// With --json, one object: `invite`, `player_id`, `name`, `addresses`, `mailboxes`,
/// `bootstrap`.
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// `invite --json`: the line, and what it holds (the addresses written out).
#[derive(serde::Serialize)]
struct InviteJson {
    invite: String,
    player_id: String,
    name: Option<String>,
    addresses: Vec<String>,
    mailboxes: Vec<String>,
    bootstrap: Vec<String>,
}

/// Add a player from their invite: their alias in your contacts, their addresses remembered,
/// and your node dials them (now if it runs, else when it starts).
#[derive(clap::Args)]
pub struct ConnectArgs {
    /// The invite line (`sobre:invite/…`), quoted.
    invite: String,
    /// The alias to give them (default: their name, made an alias: `Ana Núñez` → `ana-núñez`).
    #[arg(long = "as", value_name = "ALIAS")]
    alias: Option<String>,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let key = common::load_key(home)?;
    let name = super::init::read_name(home);
    if let Some(n) = &name {
        invite::check_name(n)
            .map_err(|e| error::user_hint(e.to_string(), t!("invite-hint-name")))?;
    }
    let saved = settings::load(home)
        .map_err(|e| error::user_hint(e.to_string(), t!("doctor-settings-fix")))?
        .unwrap_or_default();
    let node: Option<IdReply> = match common::send(home, request::Id {}) {
        Ok(v) => Some(v),
        Err(CliError::Node(ClientError::NotRunning { .. })) => None,
        Err(e) => return Err(e),
    };
    let mut candidates: Vec<libp2p_addr::Multiaddr> = parse_all(&saved.external);
    if let Some(n) = &node {
        candidates.extend(parse_all(&n.addresses));
    }
    let addrs = invite::pick_addresses(&candidates);
    if addrs.is_empty() {
        return Err(error::user_hint(
            t!("invite-no-address"),
            t!("invite-hint-no-address"),
        ));
    }
    let with_id = |list: &[String], max: usize| -> Vec<libp2p_addr::Multiaddr> {
        parse_all(list)
            .into_iter()
            .filter(|a| matches!(a.iter().last(), Some(libp2p_addr::Protocol::P2p(_))))
            .take(max)
            .collect()
    };
    let inv = Invite {
        player: key.player_id(),
        name: name.clone(),
        created_ms: sobre_node::time::now_ms(),
        addrs,
        mailboxes: with_id(&saved.mailboxes, invite::MAX_MAILBOXES),
        bootstrap: with_id(&saved.bootstrap, invite::MAX_BOOTSTRAP),
    };
    let line = inv.to_line(&key).map_err(CliError::bug)?;
    if args.json {
        let text = |l: &[libp2p_addr::Multiaddr]| -> Vec<String> {
            l.iter().map(ToString::to_string).collect()
        };
        common::print_reply(&InviteJson {
            invite: line,
            player_id: inv.player.to_string(),
            name: inv.name,
            addresses: text(&inv.addrs),
            mailboxes: text(&inv.mailboxes),
            bootstrap: text(&inv.bootstrap),
        })?;
    } else {
        println!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

pub fn connect(home: &Path, args: ConnectArgs) -> CliResult<ExitCode> {
    let inv = parse_invite(home, &args.invite)?;
    let alias = match &args.alias {
        Some(a) => check_alias(a)?,
        None => inv
            .name
            .as_deref()
            .map(alias_of_name)
            .filter(|a| check_alias(a).is_ok())
            .ok_or_else(|| error::user_hint(t!("invite-name-not-alias"), t!("invite-hint-as")))?,
    };
    let mut contacts = Contacts::load(home)?;
    let id = inv.player.to_string();
    if let Some(other) = contacts.aliases.get(&alias)
        && *other != id
    {
        return Err(error::user_hint(
            t!(
                "invite-alias-taken",
                alias = sobre_node::words::quoted(&alias),
                other = other
            ),
            t!("invite-hint-as-another"),
        ));
    }
    contacts.aliases.insert(alias.clone(), id.clone());
    contacts.save(home)?;
    println!("{alias} = {id}");
    remember(home, &inv)?;
    Ok(ExitCode::SUCCESS)
}

/// Reads an invite, refusing the player's own.
pub fn parse_invite(home: &Path, text: &str) -> CliResult<Invite> {
    let inv = Invite::parse(text).map_err(invite_error)?;
    if let Ok(key) = sobre_node::home::load_key(home)
        && key.player_id() == inv.player
    {
        return Err(error::user_hint(t!("invite-own"), t!("invite-hint-own")));
    }
    Ok(inv)
}

/// Remembers the invite's addresses (the player's, its mailboxes and bootstrap nodes) in the
/// running node, which dials them now; else queues them for the node's next start.
pub fn remember(home: &Path, inv: &Invite) -> CliResult<()> {
    let addrs: Vec<String> = inv
        .dialable()
        .iter()
        .chain(&inv.mailboxes)
        .chain(&inv.bootstrap)
        .map(ToString::to_string)
        .collect();
    match common::send(
        home,
        request::Remember {
            addrs: addrs.clone(),
        },
    ) {
        Ok(v) => {
            let n: usize = v.known.iter().map(|p| p.addresses.len()).sum();
            println!("{}", t!("invite-remembered", count = n));
        }
        Err(CliError::Node(ClientError::NotRunning { .. })) => {
            invite::queue_addresses(home, &addrs)?;
            println!("{}", t!("invite-queued", count = addrs.len()));
        }
        Err(e) => return Err(e),
    }
    Ok(())
}

/// A name made an alias: lower case, spaces as `-`, other characters an alias cannot hold
/// dropped.
fn alias_of_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
            out.push(c);
        } else if c.is_whitespace() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out
}

fn invite_error(e: InviteError) -> CliError {
    let hint = match e {
        InviteError::BadSignature => t!("invite-hint-signature"),
        InviteError::Version(_) => t!("invite-hint-version"),
        _ => t!("invite-hint-copy"),
    };
    error::user_hint(e.to_string(), hint)
}

fn parse_all(list: &[String]) -> Vec<libp2p_addr::Multiaddr> {
    list.iter().filter_map(|a| a.parse().ok()).collect()
}

/// The multiaddr types, through the node (the CLI does not depend on libp2p itself).
mod libp2p_addr {
    pub use sobre_node::invite::{Multiaddr, Protocol};
}

#[cfg(test)]
mod tests {
    use super::alias_of_name;

    #[test]
    fn names_become_aliases() {
        assert_eq!(alias_of_name("Ana Núñez"), "ana-núñez");
        assert_eq!(alias_of_name("  Club  Arbiter (B) "), "club-arbiter-b");
    }
}
