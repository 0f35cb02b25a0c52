//! Secrets on disk: the player's key and sealed-move openings.
//!
//! They are written as files with mode 0600 through write–fsync–rename (and a fsync of the
//! directory), so that a crash leaves either the old file or the new one, never a torn one,
//! and so that they survive trouble with the database.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically and durably, readable by the owner only.
///
/// # Errors
/// Any I/O error; the previous content of `path` (if any) is then untouched.
pub fn write_secret(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    fs::create_dir_all(dir)?;
    let tmp = tmp_path(path);
    {
        let mut opts = OpenOptions::new();
        opts.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        let mut f = opts.open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)?;
    // The rename is durable only once the directory entry is.
    File::open(dir)?.sync_all()?;
    Ok(())
}

/// Reads a secret file.
///
/// # Errors
/// Any I/O error (`NotFound` if absent).
pub fn read_secret(path: &Path) -> io::Result<Vec<u8>> {
    fs::read(path)
}

fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".tmp");
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_owner_only_and_replace_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("identity.key");
        write_secret(&p, b"one").unwrap();
        write_secret(&p, b"two").unwrap();
        assert_eq!(read_secret(&p).unwrap(), b"two");
        assert!(!tmp_path(&p).exists());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
    }
}
