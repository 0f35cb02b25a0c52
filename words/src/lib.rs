//! # sobre-words: the words sobre shows a player
//!
//! One Fluent catalogue per language (`i18n/en.ftl`, `i18n/es.ftl`), embedded in the
//! binary, and the [`Language`] that chooses one. Every word a player reads comes from
//! here: the command line's messages, the node's refusals (their English message on the
//! wire is the English catalogue's), the reminders the node delivers and the league's HTML
//! page. A sentence is written once per language, so a refusal's English cannot drift
//! between the node and the CLI.
//!
//! The board page takes its messages (`board-…`) as templates it fills itself
//! ([`Words::templates`]).
//!
//! Code names a message by its key: `words(lang).get("node-not-running", Some(&args))`.
//! The tests of this crate check that both catalogues parse, name the same messages with
//! the same arguments, and define none twice.
//!
//! This crate knows no chess: it depends on nothing of sobre, so the rules core can word
//! its league page with it and stay free of I/O.
#![forbid(unsafe_code)]
#![deny(clippy::unwrap_used, clippy::expect_used)]

pub mod language;
pub mod template;

pub use fluent_bundle::{FluentArgs, FluentValue};
pub use language::Language;
pub use template::{Piece, TemplateError};

use fluent_bundle::FluentResource;
use fluent_bundle::concurrent::FluentBundle;
use std::sync::OnceLock;

/// The English catalogue's source.
pub const EN_FTL: &str = include_str!("../i18n/en.ftl");
/// The Spanish catalogue's source.
pub const ES_FTL: &str = include_str!("../i18n/es.ftl");

/// A language's catalogue: its messages, parsed once.
pub struct Words {
    lang: Language,
    source: &'static str,
    bundle: FluentBundle<FluentResource>,
}

/// The catalogue of `lang`.
pub fn words(lang: Language) -> &'static Words {
    static EN: OnceLock<Words> = OnceLock::new();
    static ES: OnceLock<Words> = OnceLock::new();
    let (cell, source) = match lang {
        Language::English => (&EN, EN_FTL),
        Language::Spanish => (&ES, ES_FTL),
    };
    cell.get_or_init(|| Words {
        lang,
        source,
        bundle: bundle(lang, source),
    })
}

impl Words {
    /// The language of these words.
    pub fn lang(&self) -> Language {
        self.lang
    }

    /// The message `key` with `args`; the key itself if the catalogue lacks it (the tests
    /// of each user make sure none does).
    pub fn get(&self, key: &str, args: Option<&FluentArgs>) -> String {
        let Some(pattern) = self.bundle.get_message(key).and_then(|m| m.value()) else {
            return key.to_owned();
        };
        let mut errors = Vec::new();
        self.bundle
            .format_pattern(pattern, args, &mut errors)
            .into_owned()
    }

    /// The messages whose keys start with `prefix`, as templates for a page that fills in
    /// their arguments itself (the board's, `board-`): see [`template`].
    ///
    /// # Errors
    /// [`TemplateError`] if one of them uses more of Fluent than text and arguments.
    pub fn templates(&self, prefix: &str) -> Result<Vec<(String, Vec<Piece>)>, TemplateError> {
        template::templates(self.source, prefix)
    }

    /// Whether the catalogue has the message `key`.
    pub fn has(&self, key: &str) -> bool {
        self.bundle.has_message(key)
    }
}

/// A catalogue `source` in `lang` parsed into a bundle (the command line parses its Spanish
/// help texts with it too). The catalogues are part of the binary and a test parses them,
/// so an error here cannot happen in a released build; if it did, the bundle keeps the
/// messages that parsed and a missing message shows its key.
pub fn bundle(lang: Language, source: &'static str) -> FluentBundle<FluentResource> {
    let resource = FluentResource::try_new(source.to_owned()).unwrap_or_else(|(r, _)| r);
    let id = lang
        .tag()
        .parse()
        .unwrap_or_else(|_| unic_langid::LanguageIdentifier::default());
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // Fluent wraps arguments in Unicode isolation marks by default; a terminal, a mail
    // subject or an API message would show them as garbage.
    bundle.set_use_isolating(false);
    let _ = bundle.add_resource(resource);
    bundle
}

/// A value for a message argument: numbers stay numbers (Fluent chooses plural forms by
/// them), everything else is text.
pub fn arg<V: Into<Arg>>(v: V) -> FluentValue<'static> {
    v.into().0
}

/// See [`arg`].
pub struct Arg(FluentValue<'static>);

macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg(FluentValue::from(n))
            }
        }
    )*};
}
number_arg!(u8, u16, u32, u64, usize, i32, i64);

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg(FluentValue::from(s))
    }
}

impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg(FluentValue::from(s.clone()))
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg(FluentValue::from(s.to_owned()))
    }
}

/// The arguments of a message: `args!(home = path, games = 3)`.
#[macro_export]
macro_rules! args {
    ($($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = $crate::FluentArgs::new();
        $( args.set(stringify!($name), $crate::arg($value)); )+
        args
    }};
}

/// A message of the catalogue `w` by key: `t!(w, "key")`, or with arguments
/// `t!(w, "key", name = value, …)`.
#[macro_export]
macro_rules! t {
    ($w:expr, $key:literal) => {
        $w.get($key, None)
    };
    ($w:expr, $key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $w.get($key, Some(&$crate::args!($($name = $value),+)))
    };
}

#[cfg(test)]
mod tests;
