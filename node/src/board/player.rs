//! What the page knows of its player, read from the player's home as the command line
//! reads it: the settings of `HOME/config.json` ([`PlayerConfig`]: the language and the
//! notation moves are written in) and the contacts' aliases (`HOME/contacts.json`, which
//! `sobre contacts` keeps). Read at each page load, so that a setting changed with the
//! node running is seen without a restart.

use crate::home::CONTACTS_FILE;
use crate::player_config::PlayerConfig;
use serde::Serialize;
use sobre_core::notation::Notation;
use std::collections::BTreeMap;
use std::path::Path;

/// The player as the page needs them: `GET /board/player`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BoardPlayer {
    /// `"language"` of `config.json` (`en`, `es`), if set; else the page takes the
    /// browser's.
    pub language: Option<&'static str>,
    /// `"notation"` of `config.json`, if set; else the page writes moves in the letters of
    /// its language.
    pub notation: Option<Notation>,
    /// Alias → player id: the page offers the aliases where a player is asked for.
    pub contacts: BTreeMap<String, String>,
}

/// The player of `home`. A missing or damaged file is no setting and no contact (the
/// command line reports a damaged one; the page works without).
pub fn board_player(home: &Path) -> BoardPlayer {
    let settings = PlayerConfig::read(home).ok().flatten();
    let contacts = std::fs::read_to_string(home.join(CONTACTS_FILE))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    BoardPlayer {
        language: settings
            .as_ref()
            .and_then(PlayerConfig::language)
            .map(sobre_words::Language::tag),
        notation: settings.as_ref().and_then(PlayerConfig::notation),
        contacts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_and_aliases_are_the_command_lines() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(board_player(home.path()), BoardPlayer::default());
        std::fs::write(
            home.path().join("config.json"),
            r#"{"language":"es_AR","notation":"figurine"}"#,
        )
        .unwrap();
        std::fs::write(
            home.path().join(CONTACTS_FILE),
            r#"{"ana":"12D3KooWExample"}"#,
        )
        .unwrap();
        let p = board_player(home.path());
        assert_eq!(p.language, Some("es"));
        assert_eq!(p.notation, Some(Notation::Figurine));
        assert_eq!(p.contacts["ana"], "12D3KooWExample");
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(json["notation"], "figurine", "{json}");
    }
}
