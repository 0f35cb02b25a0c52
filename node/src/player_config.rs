//! The player's own settings, `HOME/config.json` (`{"language": "es", "notation": "es",
//! "board": "ascii", "coin_colour": "white", "arbiter": "club"}`): the one reader of the
//! file, for the command line and for the node's reminders alike. A setting the file lacks,
//! or one of the wrong kind, is no setting (the built-in default then applies); a file that
//! is not JSON is an error the command line reports.

use serde::{Deserialize, Deserializer};
use sobre_core::Color;
use sobre_core::notation::Notation;
use sobre_words::Language;
use std::path::Path;

/// The file's name in the home directory.
pub const CONFIG_FILE: &str = "config.json";

/// Why `HOME/config.json` could not be read as settings.
#[derive(Debug, thiserror::Error)]
#[error("{file} is not JSON: {reason}")]
pub struct ConfigError {
    pub file: String,
    pub reason: String,
}

/// The settings of `HOME/config.json`: the keys read, each as the text the file gives.
/// Other keys are ignored, and a key of another kind than text is no setting.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct PlayerConfig {
    #[serde(deserialize_with = "text")]
    language: Option<String>,
    #[serde(deserialize_with = "text")]
    notation: Option<String>,
    #[serde(deserialize_with = "text")]
    board: Option<String>,
    #[serde(deserialize_with = "text")]
    coin_colour: Option<String>,
    #[serde(deserialize_with = "text")]
    arbiter: Option<String>,
}

/// A setting's text; `None` for a value of another kind (a number, a list…), which the
/// player may have written by mistake: the default then applies, the file still counts.
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Setting {
        Text(String),
        Other(serde::de::IgnoredAny),
    }
    Ok(match Setting::deserialize(d)? {
        Setting::Text(t) => Some(t),
        Setting::Other(_) => None,
    })
}

/// The whole file: settings, or JSON that is not an object (no settings, like a wrong kind).
#[derive(Deserialize)]
#[serde(untagged)]
enum ConfigFile {
    Settings(PlayerConfig),
    Other(serde::de::IgnoredAny),
}

impl PlayerConfig {
    /// The settings of `home`; `Ok(None)` when the file does not exist (or cannot be read).
    ///
    /// # Errors
    /// [`ConfigError`] when the file is there but is not JSON.
    pub fn read(home: &Path) -> Result<Option<PlayerConfig>, ConfigError> {
        let path = home.join(CONFIG_FILE);
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(None);
        };
        // serde reads a struct from a list too, field by field in order (`["es"]` would be
        // the language): only an object holds settings.
        let object = text.trim_start().starts_with('{');
        match serde_json::from_str(&text) {
            Ok(ConfigFile::Settings(c)) if object => Ok(Some(c)),
            Ok(ConfigFile::Settings(_) | ConfigFile::Other(_)) => Ok(Some(PlayerConfig::default())),
            Err(e) => Err(ConfigError {
                file: path.display().to_string(),
                reason: e.to_string(),
            }),
        }
    }

    /// `"language"`: `es`, `en` or a locale such as `es_AR`.
    pub fn language(&self) -> Option<Language> {
        self.language.as_deref().and_then(Language::from_setting)
    }

    /// `"notation"`: how the player writes and reads moves (`en`, `es`, `figurine`, …).
    pub fn notation(&self) -> Option<Notation> {
        self.notation.as_deref().and_then(|n| n.parse().ok())
    }

    /// `"board": "ascii"`: letters instead of figurines on the board.
    pub fn ascii_board(&self) -> bool {
        self.board.as_deref() == Some("ascii")
    }

    /// `"coin_colour"`: the colour taken when a challenger never opens the fair coin.
    pub fn coin_colour(&self) -> Option<Color> {
        match self.coin_colour.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        }
    }

    /// `"arbiter"`: who keeps the player's sealed moves in escrow (an alias or a player id).
    pub fn arbiter(&self) -> Option<&str> {
        self.arbiter.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read_once_and_a_wrong_kind_is_no_setting() {
        let dir = tempfile::tempdir().unwrap();
        assert!(PlayerConfig::read(dir.path()).unwrap().is_none());
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            r#"{"language":"es_AR","notation":"es","board":"ascii","coin_colour":"black","arbiter":"club","extra":1}"#,
        )
        .unwrap();
        let c = PlayerConfig::read(dir.path()).unwrap().unwrap();
        assert_eq!(c.language(), Some(Language::Spanish));
        assert_eq!(c.notation(), Some(Notation::Spanish));
        assert!(c.ascii_board());
        assert_eq!(c.coin_colour(), Some(Color::Black));
        assert_eq!(c.arbiter(), Some("club"));
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            r#"{"language":3,"notation":"klingon","coin_colour":"green"}"#,
        )
        .unwrap();
        let c = PlayerConfig::read(dir.path()).unwrap().unwrap();
        assert_eq!(
            (c.language(), c.notation(), c.coin_colour()),
            (None, None, None)
        );
        // JSON that is not an object holds no setting; it is no broken file either.
        for not_an_object in ["[1]", r#"["es", "es", "ascii"]"#, "\"es\"", "7"] {
            std::fs::write(dir.path().join(CONFIG_FILE), not_an_object).unwrap();
            assert_eq!(
                PlayerConfig::read(dir.path()).unwrap(),
                Some(PlayerConfig::default()),
                "{not_an_object}"
            );
        }
        std::fs::write(dir.path().join(CONFIG_FILE), "{not json").unwrap();
        assert!(PlayerConfig::read(dir.path()).is_err());
    }
}
