//! `sobre profile`: the name (and club, federation id, languages) your opponents see.

use super::common;
use crate::error::{self, CliError, CliResult};
use crate::i18n::errors;
use crate::t;
use sobre_core::record::Profile;
use sobre_node::api::request;
use sobre_node::client::ClientError;
use sobre_node::profile::{self, LocalProfile};
use std::path::Path;
use std::process::ExitCode;

/// Your player profile: the name others see in `games`, `show`, `watch` and exported PGN.
///
/// The profile is kept in HOME/profile.json and signed with your key; the node sends it to
/// your opponents and league members with challenges, acceptances and league joins, and
/// again whenever it changes. A contact alias others give you overrides it on their screens.
#[derive(clap::Subcommand)]
pub enum ProfileCommand {
    /// Show your profile as others receive it.
    ///
    /// With --json, one object: `player_id`, `name`, `club`, `federation_id`, `languages`,
    /// `issued_ms` (null fields when not set), `signed` (whether it has a name to sign).
    Show(ShowArgs),
    /// Change your profile (a new signed profile, sent to your opponents if the node runs).
    ///
    /// With --json, the same object as `profile show`, plus `sent` (whether the running node
    /// took the new profile to send it).
    Set(SetArgs),
}

#[derive(clap::Args)]
pub struct ShowArgs {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct SetArgs {
    /// Your display name (1 to 64 characters, no control characters).
    #[arg(long)]
    name: Option<String>,
    /// Your club (1 to 64 characters); an empty value removes it.
    #[arg(long)]
    club: Option<String>,
    /// Your FIDE (or other federation) id, digits only; an empty value removes it.
    #[arg(long = "fide-id", value_name = "ID")]
    fide_id: Option<String>,
    /// The languages you speak, most preferred first, comma-separated (e.g. `es,en`); an
    /// empty value removes them.
    #[arg(long, value_name = "TAGS")]
    languages: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, cmd: ProfileCommand) -> CliResult<ExitCode> {
    match cmd {
        ProfileCommand::Show(a) => show(home, a),
        ProfileCommand::Set(a) => set(home, a),
    }
}

/// The profile to show: the signed one when it has a name, else what the file holds.
fn current(home: &Path) -> CliResult<(LocalProfile, Option<Profile>)> {
    let key = common::load_key(home)?;
    let local = profile::read(home).map_err(|e| error::user(errors::local_profile(&e)))?;
    let signed = profile::signed(home, &key).map_err(|e| error::user(errors::local_profile(&e)))?;
    let profile = signed
        .map(|s| s.decode_unverified())
        .transpose()
        .map_err(CliError::bug)?;
    Ok((local, profile))
}

/// `profile show --json` and `profile set --json`: the profile as others receive it.
#[derive(serde::Serialize)]
struct ProfileJson {
    player_id: String,
    name: Option<String>,
    club: Option<String>,
    federation_id: Option<String>,
    languages: Vec<String>,
    issued_ms: Option<u64>,
    /// Whether it has a name to sign.
    signed: bool,
    /// `profile set` only: whether the running node took the new profile to send it.
    #[serde(skip_serializing_if = "Option::is_none")]
    sent: Option<bool>,
}

impl ProfileJson {
    /// The signed profile when there is one, else what the file holds.
    fn new(home: &Path, local: LocalProfile, signed: Option<Profile>) -> CliResult<ProfileJson> {
        Ok(match signed {
            Some(p) => ProfileJson {
                player_id: p.player.to_string(),
                name: Some(p.name),
                club: p.club,
                federation_id: p.federation_id,
                languages: p.languages,
                issued_ms: Some(p.issued_ms),
                signed: true,
                sent: None,
            },
            None => ProfileJson {
                player_id: common::load_key(home)?.player_id().to_string(),
                name: local.name,
                club: local.club,
                federation_id: local.federation_id,
                languages: local.languages,
                issued_ms: local.issued_ms,
                signed: false,
                sent: None,
            },
        })
    }
}

fn print_text(v: &ProfileJson) {
    let text = |f: &Option<String>| f.as_deref().unwrap_or("-").to_owned();
    println!("{}", t!("profile-player", value = v.player_id.clone()));
    println!("{}", t!("profile-name", value = text(&v.name)));
    println!("{}", t!("profile-club", value = text(&v.club)));
    println!("{}", t!("profile-fide", value = text(&v.federation_id)));
    let langs = if v.languages.is_empty() {
        "-".to_owned()
    } else {
        v.languages.join(", ")
    };
    println!("{}", t!("profile-languages", value = langs));
    if !v.signed {
        println!("{}", t!("profile-no-name"));
    }
}

fn show(home: &Path, a: ShowArgs) -> CliResult<ExitCode> {
    let (local, signed) = current(home)?;
    let v = ProfileJson::new(home, local, signed)?;
    if a.json {
        common::print_reply(&v)?;
    } else {
        print_text(&v);
    }
    Ok(ExitCode::SUCCESS)
}

/// An optional text option: None leaves the field, an empty value clears it.
fn change(option: Option<String>, field: &mut Option<String>) {
    if let Some(v) = option {
        let v = v.trim().to_owned();
        *field = if v.is_empty() { None } else { Some(v) };
    }
}

fn set(home: &Path, a: SetArgs) -> CliResult<ExitCode> {
    let key = common::load_key(home)?;
    let mut local = profile::read(home).map_err(|e| error::user(errors::local_profile(&e)))?;
    let before = local.clone();
    if let Some(n) = &a.name {
        local.name = Some(
            sobre_core::record::profile::clean_name(n)
                .map_err(|e| error::user(errors::profile(&e)))?,
        );
    }
    change(a.club, &mut local.club);
    change(a.fide_id, &mut local.federation_id);
    if let Some(l) = &a.languages {
        let tags: Vec<&str> = l.split(',').collect();
        local.languages = sobre_core::record::profile::clean_languages(&tags)
            .map_err(|e| error::user(errors::profile(&e)))?;
    }
    if local.name.is_none() {
        return Err(error::user_hint(
            t!("profile-needs-name"),
            t!("profile-hint-name"),
        ));
    }
    // Every field is checked with the rules receivers apply, before anything is written.
    local.issued_ms = Some(local.next_issue_time(sobre_node::time::now_ms()));
    local
        .to_profile(&key)
        .map_err(|e| error::user(errors::profile(&e)))?;
    let changed = LocalProfile {
        issued_ms: before.issued_ms,
        ..local.clone()
    } != before;
    if !changed {
        local.issued_ms = before.issued_ms;
    } else {
        profile::write(home, &local).map_err(|e| error::user(errors::local_profile(&e)))?;
    }
    let sent = match common::send(home, request::ProfilePublish {}) {
        Ok(_) => true,
        Err(CliError::Node(ClientError::NotRunning { .. })) => false,
        Err(e) => return Err(e),
    };
    let (local, signed) = current(home)?;
    let v = ProfileJson {
        sent: Some(sent),
        ..ProfileJson::new(home, local, signed)?
    };
    if a.json {
        common::print_reply(&v)?;
    } else {
        print_text(&v);
        if !changed {
            eprintln!("{}", t!("profile-unchanged"));
        } else if sent {
            eprintln!("{}", t!("profile-sent"));
        } else {
            eprintln!("{}", t!("profile-queued"));
        }
    }
    Ok(ExitCode::SUCCESS)
}
