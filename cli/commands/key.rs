//! `sobre key export FILE` and `sobre key import FILE`: the player's key under a passphrase,
//! for a backup or a new computer (see `sobre_node::keyfile` for the file).

use super::common;
use crate::error::{self, CliError, CliResult};
use crate::t;
use sobre_node::api::request;
use sobre_node::client::ClientError;
use sobre_node::{home, keyfile};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use zeroize::Zeroizing;

/// `key export --json` (the player and the `file` written) and `key import --json` (the
/// player and the `home` the key went into).
#[derive(serde::Serialize)]
struct KeyJson {
    player_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    home: Option<String>,
}

/// The environment variable a script may give the passphrase in.
const PASSPHRASE_ENV: &str = "SOBRE_PASSPHRASE";

/// Your key under a passphrase: a backup, or how to move to a new computer.
///
/// `export` writes the key encrypted (Argon2id and ChaCha20-Poly1305); `import` puts it in a
/// new home. Moving: stop the old node first (`sobre node stop`), then export, copy, import
/// and start the new node. A node that finds another node running with the same key refuses
/// to sign anything (two nodes of one player would sign twin events and dispute their games).
#[derive(clap::Subcommand)]
pub enum KeyCommand {
    /// Write your key to FILE, encrypted with a passphrase (asked twice on the terminal).
    Export(ExportArgs),
    /// Restore a key written by `sobre key export` into this home.
    Import(ImportArgs),
}

/// Where the passphrase comes from: the terminal unless one of these is given.
#[derive(clap::Args)]
pub struct Passphrase {
    /// Read the passphrase from the first line of this file (for scripts).
    #[arg(long, value_name = "FILE")]
    passphrase_file: Option<PathBuf>,
    /// Read the passphrase from the environment variable SOBRE_PASSPHRASE (for scripts).
    #[arg(long)]
    passphrase_env: bool,
}

#[derive(clap::Args)]
pub struct ExportArgs {
    /// The file to write (mode 0600).
    file: PathBuf,
    /// Replace FILE if it exists.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    passphrase: Passphrase,
    /// Print one JSON object: `player_id`, `file`.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct ImportArgs {
    /// A file written by `sobre key export`.
    file: PathBuf,
    /// Replace a key this home holds already (its games were signed with that key: keep a
    /// copy of it first).
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    passphrase: Passphrase,
    /// Print one JSON object: `player_id`, `home`.
    #[arg(long)]
    json: bool,
}

pub fn run(home_dir: &Path, cmd: KeyCommand) -> CliResult<ExitCode> {
    match cmd {
        KeyCommand::Export(a) => export(home_dir, a),
        KeyCommand::Import(a) => import(home_dir, a),
    }
}

fn export(home_dir: &Path, a: ExportArgs) -> CliResult<ExitCode> {
    let key = common::load_key(home_dir)?;
    if a.file.exists() && !a.force {
        return Err(error::user_hint(
            t!("key-file-exists", path = a.file.display().to_string()),
            t!("key-hint-file-exists"),
        ));
    }
    let passphrase = read_passphrase(&a.passphrase, true)?;
    let bytes = keyfile::seal_fresh(&key, &passphrase).map_err(key_file_error)?;
    home::write_private_file(&a.file, &bytes)
        .map_err(|e| error::user(common::cannot_write(&a.file, &e)))?;
    let id = key.player_id().to_string();
    if a.json {
        common::print_reply(&KeyJson {
            player_id: id,
            file: Some(a.file.display().to_string()),
            home: None,
        })?;
    } else {
        println!("{id}");
        eprintln!(
            "{}",
            t!(
                "key-exported",
                player = &id,
                path = a.file.display().to_string()
            )
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn import(home_dir: &Path, a: ImportArgs) -> CliResult<ExitCode> {
    let bytes =
        std::fs::read(&a.file).map_err(|e| error::user(common::cannot_read(&a.file, &e)))?;
    // The form first: a file that is no key file is said so before a passphrase is asked.
    keyfile::player_of(&bytes).map_err(key_file_error)?;
    match common::send(home_dir, request::Status {}) {
        Err(CliError::Node(ClientError::NotRunning { .. })) => {}
        _ => {
            return Err(error::user_hint(
                t!("node-running-in", home = home_dir.display().to_string()),
                t!("node-hint-stop-first"),
            ));
        }
    }
    let passphrase = read_passphrase(&a.passphrase, false)?;
    let key = keyfile::open(&bytes, &passphrase).map_err(key_file_error)?;
    home::install_key(home_dir, &key, a.force).map_err(|e| match e {
        home::KeyError::Exists { .. } => {
            error::user_hint(crate::i18n::errors::key(&e), t!("key-hint-exists"))
        }
        other => error::user(crate::i18n::errors::key(&other)),
    })?;
    let id = key.player_id().to_string();
    if a.json {
        common::print_reply(&KeyJson {
            player_id: id,
            file: None,
            home: Some(home_dir.display().to_string()),
        })?;
    } else {
        println!("{id}");
        eprintln!(
            "{}",
            t!(
                "key-imported",
                player = &id,
                home = home_dir.display().to_string()
            )
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn key_file_error(e: keyfile::KeyFileError) -> CliError {
    use keyfile::KeyFileError as K;
    match e {
        K::WrongPassphrase => error::user_hint(t!("keyfile-wrong"), t!("keyfile-hint-wrong")),
        K::WeakPassphrase => error::user_hint(
            t!("keyfile-weak", min = keyfile::MIN_PASSPHRASE_CHARS),
            t!("keyfile-hint-weak"),
        ),
        K::Tampered => CliError::Data(t!("keyfile-tampered")),
        K::NotAKeyFile(len) => CliError::Data(t!(
            "keyfile-not-a-key-file",
            bytes = len,
            expected = keyfile::FILE_BYTES
        )),
        K::Version(_) | K::Parameters { .. } => CliError::Data(e.to_string()),
        K::Kdf(_) => CliError::bug(e),
    }
}

/// The passphrase: from the file, the environment, or the terminal (twice for a new file).
fn read_passphrase(p: &Passphrase, new: bool) -> CliResult<Zeroizing<String>> {
    if let Some(path) = &p.passphrase_file {
        let text = Zeroizing::new(
            std::fs::read_to_string(path)
                .map_err(|e| error::user(common::cannot_read(path, &e)))?,
        );
        let line = text.lines().next().unwrap_or_default();
        return Ok(Zeroizing::new(line.to_owned()));
    }
    if p.passphrase_env {
        return std::env::var(PASSPHRASE_ENV)
            .map(Zeroizing::new)
            .map_err(|_| error::user(t!("key-env-unset", var = PASSPHRASE_ENV)));
    }
    if !std::io::stdin().is_terminal() {
        return Err(error::user_hint(
            t!("key-no-terminal"),
            t!("key-hint-no-terminal", var = PASSPHRASE_ENV),
        ));
    }
    // The prompts end in a blank that the catalogues cannot hold (Fluent trims values).
    let first = Zeroizing::new(rpassword::prompt_password(t!("key-prompt") + " ")?);
    if new {
        let again = Zeroizing::new(rpassword::prompt_password(t!("key-prompt-again") + " ")?);
        if *first != *again {
            return Err(error::user(t!("key-passphrases-differ")));
        }
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Language, with_lang};

    /// The key file's refusals read as the library's own words in English and in Spanish
    /// in a Spanish interface, each with its hint.
    #[test]
    fn key_file_refusals_are_worded_in_the_run_language() {
        let user = |e: CliError| match e {
            CliError::User { message, hint } => (message, hint.unwrap_or_default()),
            other => panic!("not the user's to fix: {other:?}"),
        };
        let (en, en_hint) = with_lang(Language::English, || {
            user(key_file_error(keyfile::KeyFileError::WrongPassphrase))
        });
        assert_eq!(en, keyfile::KeyFileError::WrongPassphrase.to_string());
        assert_eq!(en_hint, "type the passphrase given at export");
        let (es, es_hint) = with_lang(Language::Spanish, || {
            user(key_file_error(keyfile::KeyFileError::WrongPassphrase))
        });
        assert_eq!(es, "frase de paso incorrecta");
        assert!(es_hint.contains("exportar"), "{es_hint}");
        use keyfile::KeyFileError as K;
        let (en, _) = with_lang(Language::English, || {
            user(key_file_error(K::WeakPassphrase))
        });
        assert_eq!(en, K::WeakPassphrase.to_string());
        let made: [fn() -> K; 2] = [|| K::Tampered, || K::NotAKeyFile(12)];
        for e in made {
            let en = with_lang(Language::English, || key_file_error(e()).to_string());
            assert_eq!(en, e().to_string());
            let es = with_lang(Language::Spanish, || key_file_error(e()).to_string());
            assert!(es.contains("fichero de clave"), "{es}");
        }
    }
}
