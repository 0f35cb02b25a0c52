//! The language of the interface: messages, table headings and help texts in English or
//! Spanish, from Fluent catalogues embedded in the binary (`en.ftl`, `es.ftl`; the Spanish
//! help texts in `help-es.ftl`, the English ones being the `///` docs, see [`help`]).
//!
//! The language is, in order: `"language"` in `HOME/config.json` (`"es"` or `"en"`), else
//! the environment by the POSIX rule (`LC_ALL`, then `LC_MESSAGES`, then `LANG`: `es`,
//! `es_ES.UTF-8`, `es_AR` are Spanish; anything else English), the rule the league's HTML
//! page follows too ([`Language::from_locale_vars`]).
//!
//! Code names a message by its key with [`t!`](crate::t) (`t!("node-not-running")`, or with
//! arguments `t!("leave-taken", games = 3, …)`); tests check that every key used in code
//! exists in both catalogues, that the catalogues have the same keys and use the same
//! arguments. The libraries' typed errors are worded in [`errors`], the rules' words in
//! [`words`], clap's parse errors in [`parse_error`]. JSON output is an API and is never
//! translated.

pub mod errors;
pub mod help;
pub mod parse_error;
pub mod refusals;
pub mod words;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use std::path::Path;
use std::sync::OnceLock;

pub use sobre_core::language::Language;

const EN_FTL: &str = include_str!("en.ftl");
const ES_FTL: &str = include_str!("es.ftl");

/// The language of the environment (`LC_ALL`, `LC_MESSAGES`, `LANG`).
pub fn from_env() -> Language {
    Language::from_locale_vars(|k| std::env::var(k).ok())
}

/// The language for a home: its settings' `"language"`, else the environment's.
pub fn for_home(home: &Path) -> Language {
    crate::commands::common::Config::language(home).unwrap_or_else(from_env)
}

/// A language's catalogue.
fn source(lang: Language) -> &'static str {
    match lang {
        Language::English => EN_FTL,
        Language::Spanish => ES_FTL,
    }
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

/// A catalogue parsed into a bundle. The catalogues are part of the binary and a test parses
/// both, so an error here cannot happen in a released build; if it did, the bundle keeps the
/// messages that parsed and a missing message shows its key.
pub(crate) fn bundle(lang: Language, source: &'static str) -> FluentBundle<FluentResource> {
    let resource = FluentResource::try_new(source.to_owned()).unwrap_or_else(|(r, _)| r);
    let id = lang
        .tag()
        .parse()
        .unwrap_or_else(|_| unic_langid::LanguageIdentifier::default());
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // Fluent wraps arguments in Unicode isolation marks by default; a terminal shows them
    // as garbage and goldens would hide them.
    bundle.set_use_isolating(false);
    let _ = bundle.add_resource(resource);
    bundle
}

fn messages(lang: Language) -> &'static FluentBundle<FluentResource> {
    static EN: OnceLock<FluentBundle<FluentResource>> = OnceLock::new();
    static ES: OnceLock<FluentBundle<FluentResource>> = OnceLock::new();
    let cell = match lang {
        Language::English => &EN,
        Language::Spanish => &ES,
    };
    cell.get_or_init(|| bundle(lang, source(lang)))
}

/// The message `key` in `lang`, with `args`; the key itself if the catalogue lacks it (a
/// test makes sure none does).
pub fn message_in(lang: Language, key: &str, args: Option<&FluentArgs>) -> String {
    let bundle = messages(lang);
    let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) else {
        return key.to_owned();
    };
    let mut errors = Vec::new();
    bundle
        .format_pattern(pattern, args, &mut errors)
        .into_owned()
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

/// A value for a message argument: numbers stay numbers (Fluent chooses plural forms by
/// them), everything else is text.
pub fn arg<V: Into<Arg>>(v: V) -> fluent_bundle::FluentValue<'static> {
    v.into().0
}

/// See [`arg`].
pub struct Arg(fluent_bundle::FluentValue<'static>);

macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg(fluent_bundle::FluentValue::from(n))
            }
        }
    )*};
}
number_arg!(u8, u16, u32, u64, usize, i32, i64);

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg(fluent_bundle::FluentValue::from(s))
    }
}

impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg(fluent_bundle::FluentValue::from(s.clone()))
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg(fluent_bundle::FluentValue::from(s.to_owned()))
    }
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

    /// The keys of catalogue `a` that catalogue `b` lacks.
    fn missing(a: &str, b: &str) -> Vec<String> {
        let b: BTreeSet<String> = keys(b).into_iter().collect();
        keys(a).into_iter().filter(|k| !b.contains(k)).collect()
    }

    /// Both catalogues parse and name the same messages: a message added to one language
    /// only is caught here.
    #[test]
    fn both_catalogues_have_the_same_keys() {
        let only_en = missing(EN_FTL, ES_FTL);
        let only_es = missing(ES_FTL, EN_FTL);
        assert!(only_en.is_empty(), "missing in es.ftl: {only_en:?}");
        assert!(only_es.is_empty(), "missing in en.ftl: {only_es:?}");
        assert!(keys(EN_FTL).len() > 20, "{} keys", keys(EN_FTL).len());
    }

    /// The variables (`{ $home }`) each message of a catalogue uses.
    fn variables(source: &str) -> std::collections::BTreeMap<String, BTreeSet<String>> {
        use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
        fn inline(e: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
            match e {
                InlineExpression::VariableReference { id } => {
                    out.insert(id.name.to_owned());
                }
                InlineExpression::Placeable { expression } => expr(expression, out),
                _ => {}
            }
        }
        fn expr(e: &Expression<&str>, out: &mut BTreeSet<String>) {
            match e {
                Expression::Inline(i) => inline(i, out),
                Expression::Select { selector, variants } => {
                    inline(selector, out);
                    for v in variants {
                        pattern(&v.value, out);
                    }
                }
            }
        }
        fn pattern(p: &Pattern<&str>, out: &mut BTreeSet<String>) {
            for el in &p.elements {
                if let PatternElement::Placeable { expression } = el {
                    expr(expression, out);
                }
            }
        }
        let resource = fluent_syntax::parser::parse(source).expect("the catalogue parses");
        let mut all = std::collections::BTreeMap::new();
        for e in &resource.body {
            if let Entry::Message(m) = e {
                let mut vars = BTreeSet::new();
                if let Some(p) = &m.value {
                    pattern(p, &mut vars);
                }
                all.insert(m.id.name.to_owned(), vars);
            }
        }
        all
    }

    /// A translation uses the same arguments as the English: a misspelt `{ $hom }` would
    /// print the argument's name instead of its value.
    #[test]
    fn translations_use_the_same_arguments() {
        let (en, es) = (variables(EN_FTL), variables(ES_FTL));
        let differ: Vec<&String> = en
            .iter()
            .filter(|(k, vars)| es.get(*k).is_some_and(|v| v != *vars))
            .map(|(k, _)| k)
            .collect();
        // Spanish words some sentences differently and leaves an argument out by design;
        // the move reader's detail (`reason`) is the core's English, left out in Spanish.
        let by_design = [
            "position-to-move",
            "position-check",
            "refusal-move-syntax",
            "refusal-move-illegal",
            "refusal-move-ambiguous",
            "refusal-sealed-not-unique",
            "pgn-error-start",
            "pgn-error-move",
        ];
        let differ: Vec<&String> = differ
            .into_iter()
            .filter(|k| !by_design.contains(&k.as_str()))
            .collect();
        assert!(
            differ.is_empty(),
            "arguments differ between en.ftl and es.ftl: {differ:?}"
        );
    }

    /// Fluent drops the blanks at the start and end of a value: a value written with one
    /// (meant to be kept) would lose it silently.
    #[test]
    fn no_value_relies_on_leading_or_trailing_blanks() {
        for source in [EN_FTL, ES_FTL, help::HELP_ES_FTL] {
            for line in source.lines() {
                let value = line.split_once(" = ").map(|(_, v)| v);
                assert!(
                    !value.is_some_and(|v| v.starts_with(' ')) && !line.ends_with(' '),
                    "blank at the edge of: {line:?}"
                );
            }
        }
    }

    /// No catalogue names a message twice (Fluent would keep one of them silently).
    #[test]
    fn no_key_is_defined_twice() {
        for source in [EN_FTL, ES_FTL, help::HELP_ES_FTL] {
            let all = keys(source);
            let unique: BTreeSet<&String> = all.iter().collect();
            assert_eq!(all.len(), unique.len(), "a key is defined twice");
        }
    }

    /// Every `t!("key"…)` in the command line's sources names a message of the catalogues.
    #[test]
    fn every_key_used_in_code_exists() {
        let en: BTreeSet<String> = keys(EN_FTL).into_iter().collect();
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

    /// A catalogue missing a key is caught: es.ftl with its `node-not-running` line taken
    /// out lacks exactly that key, in either direction of the check.
    #[test]
    fn a_missing_key_is_caught() {
        let fewer: String = ES_FTL
            .lines()
            .filter(|l| !l.starts_with("node-not-running ="))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(missing(EN_FTL, &fewer), ["node-not-running"]);
        assert!(missing(&fewer, EN_FTL).is_empty());
    }

    #[test]
    fn messages_take_arguments_without_isolation_marks() {
        let mut args = FluentArgs::new();
        args.set("home", "/tmp/x");
        let en = message_in(Language::English, "node-not-running", Some(&args));
        let es = message_in(Language::Spanish, "node-not-running", Some(&args));
        assert!(en.contains("/tmp/x") && !en.contains('\u{2068}'), "{en}");
        assert!(es.contains("/tmp/x") && es != en, "{es}");
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
