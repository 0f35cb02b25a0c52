//! The language a player reads sobre in: the command line's messages, the reminders the
//! node sends and the league's HTML page all choose it by the same rule, name it with this
//! one type and take their words from its catalogue ([`crate::words`]).

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

#[cfg(test)]
mod tests {
    use super::*;

    /// POSIX: `LC_ALL` overrides `LC_MESSAGES`, which overrides `LANG`; empty means unset.
    #[test]
    fn lc_all_wins_then_lc_messages_then_lang() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let cases: [(&'static [(&'static str, &'static str)], Language); 5] = [
            (&[("LANG", "es_ES.UTF-8")], Language::Spanish),
            (
                &[("LANG", "es_AR"), ("LC_MESSAGES", "en_US")],
                Language::English,
            ),
            (
                &[("LANG", "en_US"), ("LC_MESSAGES", "es")],
                Language::Spanish,
            ),
            (
                &[("LC_ALL", "C"), ("LC_MESSAGES", "es"), ("LANG", "es")],
                Language::English,
            ),
            (&[("LC_ALL", ""), ("LANG", "es_MX")], Language::Spanish),
        ];
        for (vars, lang) in cases {
            assert_eq!(Language::from_locale_vars(env(vars)), lang, "{vars:?}");
        }
    }

    #[test]
    fn the_language_comes_from_the_locale() {
        for (locale, lang) in [
            ("es_ES.UTF-8", Language::Spanish),
            ("es_AR", Language::Spanish),
            ("es", Language::Spanish),
            ("ES-mx", Language::Spanish),
            ("en_GB.UTF-8", Language::English),
            ("C.UTF-8", Language::English),
            ("estonian", Language::English),
            ("", Language::English),
        ] {
            assert_eq!(Language::from_locale(locale), lang, "{locale}");
        }
    }

    #[test]
    fn the_settings_language_is_es_or_en() {
        assert_eq!(Language::from_setting("es"), Some(Language::Spanish));
        assert_eq!(Language::from_setting("es_AR"), Some(Language::Spanish));
        assert_eq!(Language::from_setting("en"), Some(Language::English));
        assert_eq!(Language::from_setting("fr"), None);
        assert_eq!(Language::from_setting(""), None);
    }
}
