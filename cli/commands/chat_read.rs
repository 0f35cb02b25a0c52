//! Which chat lines the player has read, per game, in `HOME/chat_read.json`
//! (`{"<game id>": n}`): a line is read once `sobre show` or `sobre show --chat` has printed
//! it. `n` counts the opponent's lines read (the player's own are never unread), so
//! `sobre games` can flag the rest as unread.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const FILE: &str = "chat_read.json";

/// The read markers of every game.
#[derive(Debug, Default)]
pub struct ChatRead {
    read: BTreeMap<String, usize>,
}

impl ChatRead {
    /// The markers in `home`; none when the file is missing, and a warning (then none) when
    /// it cannot be read: unread flags are a convenience, never a reason to fail.
    pub fn load(home: &Path) -> ChatRead {
        let Ok(text) = std::fs::read_to_string(path(home)) else {
            return ChatRead::default();
        };
        match serde_json::from_str(&text) {
            Ok(read) => ChatRead { read },
            Err(e) => {
                eprintln!(
                    "warning: {}: {e}; chat is shown as unread",
                    path(home).display()
                );
                ChatRead::default()
            }
        }
    }

    /// How many of the opponent's lines in `game` the player has read.
    pub fn read(&self, game: &str) -> usize {
        self.read.get(game).copied().unwrap_or(0)
    }

    /// How many of `lines` (the opponent's lines in `game`) are unread.
    pub fn unread(&self, game: &str, lines: usize) -> usize {
        lines.saturating_sub(self.read(game))
    }

    /// Marks `lines` of the opponent's lines in `game` as read, and saves (atomically, so a
    /// concurrent `show` never leaves half a file); a failure to save is a warning.
    pub fn mark(home: &Path, game: &str, lines: usize) {
        let mut markers = ChatRead::load(home);
        if markers.read(game) == lines {
            return;
        }
        markers.read.insert(game.to_owned(), lines);
        let saved = serde_json::to_string_pretty(&markers.read)
            .map_err(std::io::Error::other)
            .and_then(|text| {
                let tmp = tempfile::NamedTempFile::new_in(home)?;
                std::fs::write(tmp.path(), text)?;
                tmp.persist(path(home)).map_err(|e| e.error)?;
                Ok(())
            });
        if let Err(e) = saved {
            eprintln!("warning: could not save {}: {e}", path(home).display());
        }
    }
}

fn path(home: &Path) -> PathBuf {
    home.join(FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_shown_are_read_and_later_ones_unread() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(ChatRead::load(home.path()).unread("g", 3), 3);
        ChatRead::mark(home.path(), "g", 3);
        let read = ChatRead::load(home.path());
        assert_eq!(read.unread("g", 3), 0);
        assert_eq!(read.unread("g", 5), 2);
        assert_eq!(read.unread("other", 1), 1);
        std::fs::write(home.path().join(FILE), "not json").unwrap();
        assert_eq!(ChatRead::load(home.path()).unread("g", 5), 5);
    }
}
