//! The log of a node started in the background (`sobre node start`), rotated while it runs:
//! once `node.log` grows past [`LOG_ROTATE_BYTES`] it becomes `node.log.1` (replacing the
//! older one) and a new `node.log` begins, so a node that runs for months keeps at most two
//! files of that size. A small size-checking writer rather than a rolling crate: the limit is
//! on bytes, not days, and one line is never split between files.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// A log larger than this is moved to `<log>.1`.
pub const LOG_ROTATE_BYTES: u64 = 4 * 1024 * 1024;

/// The path a log is moved to when rotated.
pub fn rotated_path(log: &Path) -> PathBuf {
    let mut old = log.as_os_str().to_owned();
    old.push(".1");
    PathBuf::from(old)
}

/// Moves `log` to `<log>.1` if it is larger than `limit` (at start, before appending).
pub fn rotate_if_large(log: &Path, limit: u64) -> io::Result<()> {
    match std::fs::metadata(log) {
        Ok(m) if m.len() > limit => std::fs::rename(log, rotated_path(log)),
        _ => Ok(()),
    }
}

struct Open {
    file: File,
    len: u64,
}

/// A log file shared by the logging threads; cloning shares it. Every `write` is one whole
/// formatted line (the `tracing` formatter writes each event at once), and the size is
/// checked after it, so a line always lands whole in one file.
#[derive(Clone)]
pub struct RotatingLog {
    path: Arc<PathBuf>,
    limit: u64,
    open: Arc<Mutex<Open>>,
}

impl RotatingLog {
    /// Opens `path` for appending (rotating it first if already past `limit`).
    pub fn open(path: &Path, limit: u64) -> io::Result<RotatingLog> {
        rotate_if_large(path, limit)?;
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        let len = file.metadata()?.len();
        Ok(RotatingLog {
            path: Arc::new(path.to_path_buf()),
            limit,
            open: Arc::new(Mutex::new(Open { file, len })),
        })
    }
}

impl Write for RotatingLog {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.file.write_all(buf)?;
        open.len += buf.len() as u64;
        if open.len > self.limit {
            // A failed rotation (a full disk, a removed directory) must not stop the node:
            // it keeps appending to the file it has.
            let renamed = std::fs::rename(&*self.path, rotated_path(&self.path));
            if renamed.is_ok()
                && let Ok(file) = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&*self.path)
            {
                *open = Open { file, len: 0 };
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .file
            .flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_past_the_limit_is_rotated_while_written_and_no_line_is_lost() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("node.log");
        std::fs::write(&path, "from before\n").unwrap();
        let mut log = RotatingLog::open(&path, 100).unwrap();
        let mut other = log.clone();
        let mut written = vec!["from before".to_owned()];
        for i in 0..30 {
            let line = format!("line {i:02} of the node's log\n");
            let w = if i % 2 == 0 { &mut log } else { &mut other };
            w.write_all(line.as_bytes()).unwrap();
            written.push(line.trim_end().to_owned());
        }
        log.flush().unwrap();
        let current = std::fs::read_to_string(&path).unwrap();
        let older = std::fs::read_to_string(rotated_path(&path)).unwrap();
        // Each file holds at most the limit plus one line; the two hold the latest lines.
        assert!(current.len() as u64 <= 100 + 28, "{current}");
        assert!(older.len() as u64 <= 100 + 28, "{older}");
        let kept: Vec<&str> = older.lines().chain(current.lines()).collect();
        assert!(!kept.is_empty());
        assert_eq!(kept, written[written.len() - kept.len()..].to_vec());
        assert!(kept.len() < written.len(), "the oldest were dropped");
        assert!(
            current.lines().all(|l| l.starts_with("line ")),
            "whole lines"
        );
    }

    #[test]
    fn a_large_log_is_rotated_at_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("node.log");
        std::fs::write(&path, "x".repeat(200)).unwrap();
        let _log = RotatingLog::open(&path, 100).unwrap();
        assert_eq!(std::fs::read(&path).unwrap().len(), 0);
        assert_eq!(std::fs::read(rotated_path(&path)).unwrap().len(), 200);
    }
}
