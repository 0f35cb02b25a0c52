//! The language of the interface: messages, table headings and help texts in English or
//! Spanish, from sobre's one catalogue of words ([`sobre_words`], shared with the node's
//! refusals and reminders and the league's page; the Spanish help texts in `help-es.ftl`,
//! the English ones being the `///` docs, see [`help`]).
//!
//! The language is, in order: `"language"` in `HOME/config.json` (`"es"` or `"en"`), else
//! the environment by the POSIX rule (`LC_ALL`, then `LC_MESSAGES`, then `LANG`: `es`,
//! `es_ES.UTF-8`, `es_AR` are Spanish; anything else English), the rule the league's HTML
//! page follows too ([`Language::from_locale_vars`]).
//!
//! Code names a message by its key with [`t!`](crate::t) (`t!("node-not-running")`, or with
//! arguments `t!("leave-taken", games = 3, …)`); tests check that every key used in code
//! exists in the catalogue (the words crate checks that both languages have the same keys
//! and arguments). The libraries' typed errors are worded in [`errors`], the rules' words in
//! [`words`], clap's parse errors in [`parse_error`]. JSON output is an API and is never
//! translated.

pub mod errors;
pub mod help;
pub mod parse_error;
pub mod refusals;
pub mod words;

use fluent_bundle::FluentArgs;
use std::path::Path;
use std::sync::OnceLock;

pub use sobre_words::{Language, arg};

/// The language of the environment (`LC_ALL`, `LC_MESSAGES`, `LANG`).
pub fn from_env() -> Language {
    Language::from_locale_vars(|k| std::env::var(k).ok())
}

/// The language for a home: its settings' `"language"`, else the environment's.
pub fn for_home(home: &Path) -> Language {
    crate::commands::common::Config::language(home).unwrap_or_else(from_env)
}

static CURRENT: OnceLock<Language> = OnceLock::new();

/// Chooses the language of this run (once, at start; later calls are ignored).
pub fn set(lang: Language) {
    let _ = CURRENT.set(lang);
}

/// The language of this run (the environment's if [`set`] was not called; English in unit
/// tests, whatever the machine's locale, so that they check the same text everywhere).
pub fn lang() -> Language {
    #[cfg(test)]
    if let Some(l) = TEST_LANG.get() {
        return l;
    }
    #[cfg(test)]
    let default = || Language::English;
    #[cfg(not(test))]
    let default = from_env;
    *CURRENT.get_or_init(default)
}

/// The message `key` in `lang`, with `args`; the key itself if the catalogue lacks it (a
/// test makes sure none does).
pub fn message_in(lang: Language, key: &str, args: Option<&FluentArgs>) -> String {
    sobre_words::words(lang).get(key, args)
}

#[cfg(test)]
thread_local! {
    static TEST_LANG: std::cell::Cell<Option<Language>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with `lang` as the language of this thread (unit tests render both languages;
/// each test runs on its own thread).
#[cfg(test)]
pub fn with_lang<R>(lang: Language, f: impl FnOnce() -> R) -> R {
    TEST_LANG.set(Some(lang));
    let r = f();
    TEST_LANG.set(None);
    r
}

/// The width of a column of labels (the messages `keys`, in the current language) with
/// `pad` columns after the longest: tables line up in either language.
pub fn label_width<'a>(keys: impl IntoIterator<Item = &'a &'a str>, pad: usize) -> usize {
    keys.into_iter()
        .map(|k| message(k, None).chars().count())
        .max()
        .unwrap_or(0)
        + pad
}

/// The message `key` in this run's language.
pub fn message(key: &str, args: Option<&FluentArgs>) -> String {
    message_in(lang(), key, args)
}

/// A message of the catalogues in this run's language: `t!("key")`, or with arguments
/// `t!("key", name = value, …)` (strings and numbers).
#[macro_export]
macro_rules! t {
    ($key:literal) => {
        $crate::i18n::message($key, None)
    };
    ($key:literal, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = fluent_bundle::FluentArgs::new();
        $( args.set(stringify!($name), $crate::i18n::arg($value)); )+
        $crate::i18n::message($key, Some(&args))
    }};
}

/// The keys of a catalogue, in order.
#[cfg(test)]
pub(crate) fn keys(source: &str) -> Vec<String> {
    use fluent_syntax::ast::Entry;
    let resource = fluent_syntax::parser::parse(source).unwrap_or_else(|(_, e)| {
        panic!("the catalogue does not parse: {e:?}");
    });
    resource
        .body
        .iter()
        .filter_map(|e| match e {
            Entry::Message(m) => Some(m.id.name.to_owned()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Fluent drops the blanks at the start and end of a value: a value written with one
    /// (meant to be kept) would lose it silently (the words crate checks its catalogues).
    #[test]
    fn no_help_text_relies_on_leading_or_trailing_blanks() {
        for line in help::HELP_ES_FTL.lines() {
            let value = line.split_once(" = ").map(|(_, v)| v);
            assert!(
                !value.is_some_and(|v| v.starts_with(' ')) && !line.ends_with(' '),
                "blank at the edge of: {line:?}"
            );
        }
    }

    /// The help catalogue names no message twice (Fluent would keep one of them silently).
    #[test]
    fn no_help_key_is_defined_twice() {
        let all = keys(help::HELP_ES_FTL);
        let unique: BTreeSet<&String> = all.iter().collect();
        assert_eq!(all.len(), unique.len(), "a key is defined twice");
    }

    /// Every `t!("key"…)` in the command line's sources names a message of the catalogues.
    #[test]
    fn every_key_used_in_code_exists() {
        let en: BTreeSet<String> = keys(sobre_words::EN_FTL).into_iter().collect();
        let mut used = BTreeSet::new();
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("cli");
        let mut dirs = vec![root];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("the sources are readable") {
                let path = entry.expect("entry").path();
                // This module's docs and tests write example calls.
                if path.is_dir() && !path.ends_with("i18n") {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).expect("a source file");
                    used.extend(keys_used(&text));
                }
            }
        }
        let missing: Vec<_> = used.difference(&en).collect();
        assert!(
            missing.is_empty(),
            "keys used in code but not in the catalogues: {missing:?}"
        );
        assert!(used.len() > 20, "{} keys used", used.len());
    }

    /// The keys of the `t!("…"` calls in `source` (not `print!(`, `format!(`…).
    fn keys_used(source: &str) -> Vec<String> {
        let mut keys = Vec::new();
        let mut rest = source;
        while let Some(at) = rest.find("t!(\"") {
            let before = rest[..at].chars().next_back();
            let after = &rest[at + 4..];
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && let Some(key) = after.split('"').next()
            {
                keys.push(key.to_owned());
            }
            rest = after;
        }
        keys
    }

    #[test]
    fn keys_are_found_in_t_calls_only() {
        let src = "println!(\"x\"); let a = t!(\"one\"); crate::t!(\"two\", n = 1); format!(\"y\")";
        assert_eq!(keys_used(src), ["one", "two"]);
    }
}
