//! `sobre init`: create the player's key (once) and profile in the home directory.

use super::common::print_reply;
use crate::error::{self, CliResult};
use crate::t;
use sobre_node::{home, profile};
use std::path::Path;
use std::process::ExitCode;

/// Create your player key in the home directory (never overwritten) and print your player id.
///
/// The player id (`12D3KooW…`) is what others use to challenge you. Running `init` again keeps
/// the key and only updates the name. The home is `--home`, else `$SOBRE_HOME`, else the
/// platform's data directory.
///
/// With --json, one object: `player_id`, `name`, `created` (false if the key existed), `home`.
#[derive(clap::Args)]
pub struct Args {
    /// Your name as opponents see it (1 to 64 characters; stored in HOME/profile.json,
    /// signed and sent to your opponents: see `sobre profile`).
    #[arg(long)]
    name: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(home_dir: &Path, args: Args) -> CliResult<ExitCode> {
    sobre_node::home::ensure(home_dir).map_err(|e| {
        error::user(t!(
            "init-cannot-create-home",
            home = home_dir.display().to_string(),
            error = e.to_string()
        ))
    })?;
    let (key, created) =
        home::init_key(home_dir).map_err(|e| error::user(crate::i18n::errors::key(&e)))?;
    let name = match args.name {
        Some(name) => {
            // The rules every receiver applies to a signed profile (1 to 64 characters, no
            // control characters): a name accepted here is one others accept.
            let name = sobre_core::record::profile::clean_name(&name)
                .map_err(|e| error::user(crate::i18n::errors::profile(&e)))?;
            if write_name(home_dir, &name)? {
                publish(home_dir);
            }
            Some(name)
        }
        None => read_name(home_dir),
    };
    let id = key.player_id().to_string();
    if args.json {
        print_reply(&InitJson {
            player_id: id,
            name,
            created,
            home: home_dir.display().to_string(),
        })?;
    } else {
        println!("{id}");
        if created {
            eprintln!(
                "{}",
                t!("init-created", home = home_dir.display().to_string())
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `init --json`.
#[derive(serde::Serialize)]
struct InitJson {
    player_id: String,
    name: Option<String>,
    /// False if the key existed.
    created: bool,
    home: String,
}

/// The name in `HOME/profile.json`, if any.
pub fn read_name(home_dir: &Path) -> Option<String> {
    profile::read(home_dir).ok()?.name
}

/// Sets the name, keeping the profile's other fields; a changed name is a new profile (its
/// issue time moves on, so it replaces the old one at every receiver).
/// Returns whether the name changed.
fn write_name(home_dir: &Path, name: &str) -> CliResult<bool> {
    let mut local =
        profile::read(home_dir).map_err(|e| error::user(crate::i18n::errors::local_profile(&e)))?;
    if local.name.as_deref() == Some(name) {
        return Ok(false);
    }
    local.name = Some(name.to_owned());
    local.issued_ms = Some(local.next_issue_time(sobre_node::time::now_ms()));
    profile::write(home_dir, &local)
        .map_err(|e| error::user(crate::i18n::errors::local_profile(&e)))?;
    Ok(true)
}

/// A running node signs the new name and sends it (one that is not running does so when it
/// starts).
fn publish(home_dir: &Path) {
    match super::common::send(home_dir, sobre_node::api::request::ProfilePublish {}) {
        Ok(_) | Err(error::CliError::Node(sobre_node::client::ClientError::NotRunning { .. })) => {}
        Err(e) => eprintln!("{}", t!("init-name-not-taken", error = e.to_string())),
    }
}
