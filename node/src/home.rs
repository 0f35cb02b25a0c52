//! The node's home directory: key, database, control socket, configuration.
//!
//! `--home DIR`, else `$SOBRE_HOME`, else the platform's data directory (e.g.
//! `~/.local/share/sobre`). Several nodes run side by side on one machine with different
//! homes.

use crate::secrets;
use sobre_core::record::Keypair;
use std::io;
use std::path::{Path, PathBuf};

/// File name of the player's secret key (32 bytes, mode 0600).
pub const KEY_FILE: &str = "identity.key";
/// File name of the player's address book: a JSON object, alias → player id (`sobre
/// contacts`; the node reads it to allowlist contacts' challenges).
pub const CONTACTS_FILE: &str = "contacts.json";
/// File name of the profile (`name = …`, optional settings), plain text.
pub const PROFILE_FILE: &str = "profile.json";

/// The home directory to use.
pub fn resolve(explicit: Option<&Path>) -> PathBuf {
    if let Some(p) = explicit {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os("SOBRE_HOME") {
        return PathBuf::from(p);
    }
    directories::ProjectDirs::from("org", "sobre", "sobre")
        .map(|d| d.data_dir().to_path_buf())
        .unwrap_or_else(|| PathBuf::from(".sobre"))
}

pub fn key_path(home: &Path) -> PathBuf {
    home.join(KEY_FILE)
}

pub fn db_path(home: &Path) -> PathBuf {
    home.join("db")
}

pub fn socket_path(home: &Path) -> PathBuf {
    home.join(crate::api::SOCKET_NAME)
}

/// Creates the home (and its missing parents) and makes it readable by its owner only (0700):
/// the database under it holds chat, conditional moves and the ledger, and whoever can reach
/// the control socket in it can play the player's moves. An existing home is tightened too,
/// so that the socket is never bound in a directory others can enter.
///
/// # Errors
/// The I/O error creating the directory or setting its mode.
pub fn ensure(home: &Path) -> io::Result<()> {
    std::fs::create_dir_all(home)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(home)?.permissions().mode() & 0o777;
        if mode != 0o700 {
            std::fs::set_permissions(home, std::fs::Permissions::from_mode(0o700))?;
        }
    }
    Ok(())
}

pub fn openings_dir(home: &Path) -> PathBuf {
    home.join("openings")
}

/// Why the key cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("no key in {0}: run `sobre init` first")]
    Missing(String),
    #[error("the key file {0} is damaged (expected 32 bytes)")]
    Damaged(String),
    #[error("cannot read or write the key in {path}: {source}")]
    Io { path: String, source: io::Error },
    /// `sobre key import` into a home that has a key already.
    #[error("{home} already holds the key of {player}")]
    Exists { home: String, player: String },
}

/// Loads the player's key.
///
/// # Errors
/// [`KeyError`] saying what to do.
pub fn load_key(home: &Path) -> Result<Keypair, KeyError> {
    let path = key_path(home);
    match secrets::read_secret(&path) {
        Ok(bytes) => {
            let secret: [u8; 32] = bytes
                .as_slice()
                .try_into()
                .map_err(|_| KeyError::Damaged(path.display().to_string()))?;
            Ok(Keypair::from_secret_bytes(&secret))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            Err(KeyError::Missing(home.display().to_string()))
        }
        Err(source) => Err(KeyError::Io {
            path: path.display().to_string(),
            source,
        }),
    }
}

/// Creates a new key from the OS random generator (unless one exists: keys are never
/// overwritten). Returns the key and whether it was created now.
///
/// # Errors
/// [`KeyError::Io`] if the file cannot be written.
pub fn init_key(home: &Path) -> Result<(Keypair, bool), KeyError> {
    match load_key(home) {
        Ok(k) => return Ok((k, false)),
        Err(KeyError::Missing(_)) => {}
        Err(e) => return Err(e),
    }
    ensure(home).map_err(|source| KeyError::Io {
        path: home.display().to_string(),
        source,
    })?;
    let mut secret = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut secret);
    let path = key_path(home);
    secrets::write_secret(&path, &secret).map_err(|source| KeyError::Io {
        path: path.display().to_string(),
        source,
    })?;
    Ok((Keypair::from_secret_bytes(&secret), true))
}

/// Puts an imported key into `home` (`sobre key import`): written as [`init_key`] writes a
/// new one (mode 0600, write–fsync–rename). A home that holds a key already keeps it unless
/// `replace` is set: its games are signed with that key.
///
/// # Errors
/// [`KeyError::Exists`] if `home` has a key and `replace` is not set, [`KeyError::Io`] if the
/// file cannot be written, [`KeyError::Damaged`] if the key there cannot be read.
pub fn install_key(home: &Path, key: &Keypair, replace: bool) -> Result<(), KeyError> {
    match load_key(home) {
        Ok(existing) if !replace => {
            return Err(KeyError::Exists {
                home: home.display().to_string(),
                player: existing.player_id().to_string(),
            });
        }
        Ok(_) | Err(KeyError::Missing(_)) => {}
        Err(KeyError::Damaged(_)) if replace => {}
        Err(e) => return Err(e),
    }
    ensure(home).map_err(|source| KeyError::Io {
        path: home.display().to_string(),
        source,
    })?;
    let path = key_path(home);
    let secret = zeroize::Zeroizing::new(key.secret_bytes());
    secrets::write_secret(&path, secret.as_slice()).map_err(|source| KeyError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Writes a file only its owner may read (mode 0600), atomically and durably: an exported
/// key file (`sobre key export`) is a secret too.
///
/// # Errors
/// Any I/O error; a previous file at `path` is then untouched.
pub fn write_private_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    secrets::write_secret(path, bytes)
}

/// The libp2p identity of a player's key: the same ed25519 key, so the peer id is the player
/// id.
///
/// # Errors
/// Never for a key loaded by [`load_key`] (any 32 bytes are an ed25519 secret).
pub fn libp2p_keypair(key: &Keypair) -> Result<libp2p::identity::Keypair, KeyError> {
    let mut secret = key.secret_bytes();
    libp2p::identity::Keypair::ed25519_from_bytes(&mut secret)
        .map_err(|_| KeyError::Damaged("the secret key".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_home_is_the_owners_only_whether_new_or_existing() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let new = dir.path().join("a/b/home");
        ensure(&new).unwrap();
        assert_eq!(mode(&new), 0o700);
        let open = dir.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
        init_key(&open).unwrap();
        assert_eq!(mode(&open), 0o700);
        assert_eq!(mode(&key_path(&open)), 0o600);
    }

    #[test]
    fn init_creates_once_and_peer_id_is_player_id() {
        let dir = tempfile::tempdir().unwrap();
        let (k, created) = init_key(dir.path()).unwrap();
        assert!(created);
        let (again, created) = init_key(dir.path()).unwrap();
        assert!(!created);
        assert_eq!(k.player_id(), again.player_id());
        assert_eq!(
            libp2p_keypair(&k)
                .unwrap()
                .public()
                .to_peer_id()
                .to_string(),
            k.player_id().to_string()
        );
    }
}
