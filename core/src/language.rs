//! The language a player reads sobre in: the command line's messages, the reminders the
//! node sends and the league's HTML page all choose it by the same rule and name it with
//! this one type.

/// A language of sobre's words: the CLI's catalogue, the node's reminders, the league page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Language {
    #[default]
    English,
    Spanish,
}

impl Language {
    /// The language of a locale such as the value of `LANG` (`es_ES.UTF-8` → Spanish);
    /// English for anything else, `C` and an empty value included.
    pub fn from_locale(locale: &str) -> Language {
        let l = locale.trim().to_ascii_lowercase();
        if l == "es" || l.starts_with("es_") || l.starts_with("es-") || l.starts_with("es.") {
            Language::Spanish
        } else {
            Language::English
        }
    }

    /// The language a setting names (`"language"` in `HOME/config.json`): `es`/`en` or a
    /// locale such as `es_AR`; `None` for anything else, which then means the environment's.
    pub fn from_setting(setting: &str) -> Option<Language> {
        let l = setting.trim().to_ascii_lowercase();
        match Language::from_locale(&l) {
            Language::Spanish => Some(Language::Spanish),
            Language::English if l == "en" || l.starts_with("en_") || l.starts_with("en-") => {
                Some(Language::English)
            }
            Language::English => None,
        }
    }

    /// The language of the environment, by the POSIX rule for messages: the first non-empty
    /// of `LC_ALL`, `LC_MESSAGES` and `LANG` (`var` reads one), then [`Self::from_locale`].
    /// The one rule for every language choice of sobre (the CLI's messages and this page).
    pub fn from_locale_vars(var: impl Fn(&str) -> Option<String>) -> Language {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(var)
            .find(|v| !v.is_empty())
            .unwrap_or_default();
        Language::from_locale(&locale)
    }

    /// The BCP 47 tag for `<html lang>`.
    pub fn tag(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Spanish => "es",
        }
    }
}
