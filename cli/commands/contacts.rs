//! `sobre contacts`: local aliases for player ids, kept in `HOME/contacts.json`.

use super::common;
use crate::error::{self, CliResult};
use crate::t;
use sobre_core::record::PlayerId;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Local aliases for players: `sobre challenge ana` instead of the full id.
///
/// Aliases are yours alone (never sent to anyone) and work wherever a player id is asked for.
#[derive(clap::Subcommand)]
pub enum ContactsCommand {
    Add(AddArgs),
    List(ListArgs),
}

/// Give a player id a local alias (replacing the alias's previous id, if any).
#[derive(clap::Args)]
pub struct AddArgs {
    /// The alias: letters, digits, `-`, `_` or `.`, not starting with `12D3KooW`.
    alias: String,
    /// The player id (`12D3KooW…`, as `sobre id` prints it), or the player's invite
    /// (`sobre:invite/…`, as `sobre invite` prints it): then their addresses are remembered
    /// and dialed too.
    #[arg(value_name = "PLAYER_ID|INVITE")]
    player_id: String,
}

/// List the aliases: one `ALIAS  PLAYER_ID` line each, sorted by alias.
///
/// With --json, one object mapping each alias to its player id.
#[derive(clap::Args)]
pub struct ListArgs {
    /// Print one JSON object instead of lines.
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, cmd: ContactsCommand) -> CliResult<ExitCode> {
    match cmd {
        ContactsCommand::Add(a) => add(home, a),
        ContactsCommand::List(a) => list(home, a),
    }
}

fn add(home: &Path, args: AddArgs) -> CliResult<ExitCode> {
    let alias = check_alias(&args.alias)?;
    // An invite gives the player id and where to reach the player: both are kept.
    if args.player_id.trim().starts_with("sobre:") {
        let invite = super::invite::parse_invite(home, &args.player_id)?;
        let mut contacts = Contacts::load(home)?;
        contacts
            .aliases
            .insert(alias.clone(), invite.player.to_string());
        contacts.save(home)?;
        println!("{alias} = {}", invite.player);
        super::invite::remember(home, &invite)?;
        return Ok(ExitCode::SUCCESS);
    }
    let id: PlayerId = args.player_id.parse().map_err(|e| {
        error::user_hint(
            crate::i18n::errors::player_id(&e),
            t!("contacts-hint-player-id"),
        )
    })?;
    let mut contacts = Contacts::load(home)?;
    contacts.aliases.insert(alias.clone(), id.to_string());
    contacts.save(home)?;
    println!("{alias} = {id}");
    Ok(ExitCode::SUCCESS)
}

/// An alias as given, trimmed, if it follows the rules.
pub fn check_alias(alias: &str) -> CliResult<String> {
    let alias = alias.trim();
    let valid = !alias.is_empty()
        && alias.len() <= 64
        && alias
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !alias.starts_with("12D3KooW");
    if !valid {
        return Err(error::user_hint(
            t!(
                "contacts-bad-alias",
                alias = sobre_node::words::quoted(alias)
            ),
            t!("contacts-hint-alias"),
        ));
    }
    Ok(alias.to_owned())
}

fn list(home: &Path, args: ListArgs) -> CliResult<ExitCode> {
    let contacts = Contacts::load(home)?;
    if args.json {
        common::print_reply(&contacts.aliases)?;
        return Ok(ExitCode::SUCCESS);
    }
    if contacts.aliases.is_empty() {
        println!("{}", t!("contacts-none"));
    }
    let width = contacts.aliases.keys().map(|a| a.chars().count()).max();
    for (alias, id) in &contacts.aliases {
        println!("{alias:<w$}  {id}", w = width.unwrap_or(0));
    }
    Ok(ExitCode::SUCCESS)
}

/// The alias book of a home.
#[derive(Debug, Default)]
pub struct Contacts {
    /// Alias → player id.
    pub aliases: BTreeMap<String, String>,
}

impl Contacts {
    fn path(home: &Path) -> PathBuf {
        home.join(sobre_node::home::CONTACTS_FILE)
    }

    /// Reads `HOME/contacts.json` (none yet: an empty book).
    pub fn load(home: &Path) -> CliResult<Contacts> {
        let path = Contacts::path(home);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Contacts::default()),
            Err(e) => return Err(error::user(common::cannot_read(&path, &e))),
        };
        let aliases = serde_json::from_str(&text).map_err(|e| {
            error::user_hint(
                t!(
                    "file-damaged",
                    path = path.display().to_string(),
                    error = e.to_string()
                ),
                t!("contacts-hint-damaged"),
            )
        })?;
        Ok(Contacts { aliases })
    }

    pub fn save(&self, home: &Path) -> CliResult<()> {
        std::fs::create_dir_all(home)?;
        let path = Contacts::path(home);
        let tmp = path.with_extension("json.tmp");
        let text = serde_json::to_string_pretty(&self.aliases)? + "\n";
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &path)?;
        Ok(())
    }

    /// The player id an alias or id names: an alias is looked up, anything else is passed
    /// through for the node to check.
    pub fn resolve(&self, player: &str) -> String {
        let p = player.trim();
        self.aliases.get(p).cloned().unwrap_or_else(|| p.to_owned())
    }

    /// How to show a player: their alias, else the short form of their id.
    pub fn label(&self, id: &str) -> String {
        if let Some((alias, _)) = self.aliases.iter().find(|(_, v)| v.as_str() == id) {
            return alias.clone();
        }
        match id.parse::<PlayerId>() {
            Ok(p) => p.short(),
            Err(_) => id.to_owned(),
        }
    }
}
