//! The help texts in the language of the run. The English is the `///` docs that clap's
//! derive turns into about lines and argument helps (the single source, which `sobre man`
//! and the completions render too); the Spanish is `help-es.ftl`, keyed by the command's
//! path and the argument's id, and put in place by walking the built [`clap::Command`].
//!
//! Keys: `sobre-league-create` is the about line of `sobre league create` (its attribute
//! `.long` the long about, shown by `--help`), `sobre-league-create--player` the help of its
//! `--player` (`.long` again for the long help). A global argument (`--home`) and the
//! arguments clap adds itself (`--help`, `--version`) have one key each: `sobre--home`,
//! `arg-help`, `arg-version`; the `help` subcommand is `cmd-help`.
//!
//! The catalogue writes a paragraph on as many lines as it likes: lines are joined as clap
//! joins the lines of a doc comment, and a blank line separates paragraphs.

use super::Language;
use clap::Command;
use fluent_bundle::FluentResource;
use fluent_bundle::concurrent::FluentBundle;
use std::sync::OnceLock;

pub(crate) const HELP_ES_FTL: &str = include_str!("help-es.ftl");

fn spanish() -> &'static FluentBundle<FluentResource> {
    static ES: OnceLock<FluentBundle<FluentResource>> = OnceLock::new();
    ES.get_or_init(|| sobre_words::bundle(Language::Spanish, HELP_ES_FTL))
}

/// A translated text: the message's value (`attr` `None`) or one of its attributes.
fn text(key: &str, attr: Option<&str>) -> Option<String> {
    let bundle = spanish();
    let message = bundle.get_message(key)?;
    let pattern = match attr {
        None => message.value()?,
        Some(a) => message.get_attribute(a)?.value(),
    };
    let mut errors = Vec::new();
    let raw = bundle.format_pattern(pattern, None, &mut errors);
    Some(paragraphs(&raw))
}

/// Joins the lines of each paragraph with a space (as clap does with doc comments), keeps
/// blank lines between paragraphs, and lines that start a list item (`- `) or an example
/// (`  `) on their own line.
fn paragraphs(raw: &str) -> String {
    let mut out = String::new();
    for (i, para) in raw.split("\n\n").enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        let mut first = true;
        for line in para.lines() {
            if !first {
                if line.starts_with("- ") || line.starts_with("  ") {
                    out.push('\n');
                } else {
                    out.push(' ');
                }
            }
            out.push_str(if first { line } else { line.trim_end() });
            first = false;
        }
    }
    out
}

/// `cmd` (the whole `sobre` command) with its help in `lang`. English is the docs as they
/// are: the command is returned untouched, so English help never changes.
pub fn localise(cmd: Command, lang: Language) -> Command {
    match lang {
        Language::English => cmd,
        Language::Spanish => {
            let mut cmd = cmd;
            // Build first: global arguments are copied into every subcommand and clap adds
            // `--help`, `--version` and the `help` subcommand, which need translating too.
            cmd.build();
            let name = cmd.get_name().to_owned();
            translate(cmd, &[name])
        }
    }
}

/// The key of the arguments clap adds itself, and of global ones (same text everywhere).
fn shared_key(id: &str) -> Option<&'static str> {
    match id {
        "help" => Some("arg-help"),
        "version" => Some("arg-version"),
        "home" => Some("sobre--home"),
        _ => None,
    }
}

/// The key of the command at `path` (`["sobre", "league", "create"]` →
/// `sobre-league-create`). The `help` subcommand clap adds mirrors the tree
/// (`sobre help league create`): its commands share the keys of the ones they name.
pub(crate) fn command_key(path: &[String]) -> String {
    if path.last().is_some_and(|n| n == "help") {
        return "cmd-help".to_owned();
    }
    path.iter()
        .filter(|n| *n != "help")
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join("-")
}

fn translate(mut cmd: Command, path: &[String]) -> Command {
    let key = command_key(path);
    // The `help` subcommand's tree has about lines only (it prints the help of the command
    // it names); a long about there would be the wrong command's.
    let in_help = path.iter().any(|n| n == "help");
    if let Some(about) = text(&key, None) {
        cmd = cmd.about(about);
    }
    let has_long = cmd.get_long_about().is_some();
    if let Some(long) = text(&key, Some("long")).filter(|_| has_long && !in_help) {
        cmd = cmd.long_about(long);
    }
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        let key = arg_key(&key, &id);
        let help = text(&key, None);
        let long = text(&key, Some("long"));
        let more = text(&key, Some("more"));
        cmd = cmd.mut_arg(&id, |mut a| {
            // clap's own `-h` line points to `--help` when there is more to see.
            let points_on = a
                .get_help()
                .is_some_and(|h| h.to_string().contains("--help"));
            if let Some(h) = more.filter(|_| points_on).or(help) {
                a = a.help(h);
            }
            let names = value_names(&a);
            if !names.is_empty() {
                let spanish: Vec<String> = names
                    .iter()
                    .map(|n| text(&value_key(n), None).unwrap_or_else(|| n.clone()))
                    .collect();
                a = a.value_names(spanish);
            }
            // Only where English has a long help: one more would turn the whole `--help`
            // into the long layout.
            if let Some(l) = long.filter(|_| a.get_long_help().is_some()) {
                a = a.long_help(l);
            }
            spanish_notes(a)
        });
    }
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    for name in names {
        let mut sub_path = path.to_vec();
        sub_path.push(name.clone());
        cmd = cmd.mut_subcommand(&name, |s| translate(s, &sub_path));
    }
    // The usage line as clap writes it, with its own words (`[OPTIONS]`, `<COMMAND>`) in
    // Spanish; the value names (`<PARTIDA>`) are translated already.
    let usage = cmd.render_usage().to_string();
    let usage = usage
        .strip_prefix("Usage: ")
        .unwrap_or(&usage)
        .replace("[OPTIONS]", "[OPCIONES]")
        .replace("<COMMAND>", "<COMANDO>")
        .replace("[COMMAND]", "[COMANDO]");
    let template = template(&cmd);
    cmd.override_usage(usage).help_template(template)
}

/// What clap appends to a help in English (`[env: …]`, `[default: …]`, `[possible values:
/// …]`), appended in Spanish instead, in clap's order, and clap's own hidden.
fn spanish_notes(mut a: clap::Arg) -> clap::Arg {
    let mut notes = Vec::new();
    if let Some(name) = a.get_env().filter(|_| !a.is_hide_env_set()) {
        notes.push(format!("[entorno: {}]", name.to_string_lossy()));
        a = a.hide_env(true);
    }
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|d| d.to_string_lossy().into_owned())
        .collect();
    let takes_values = a.get_num_args().is_some_and(|n| n.takes_values());
    if takes_values && !defaults.is_empty() && !a.is_hide_default_value_set() {
        notes.push(format!("[por omisión: {}]", defaults.join(", ")));
        a = a.hide_default_value(true);
    }
    let possible: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_owned())
        .collect();
    if takes_values && !possible.is_empty() && !a.is_hide_possible_values_set() {
        notes.push(format!("[valores posibles: {}]", possible.join(", ")));
        a = a.hide_possible_values(true);
    }
    if notes.is_empty() {
        return a;
    }
    let notes = notes.join(" ");
    let short = match a.get_help() {
        Some(h) => format!("{h} {notes}"),
        None => notes.clone(),
    };
    let long = a.get_long_help().map(|l| format!("{l}\n\n{notes}"));
    a = a.help(short);
    if let Some(l) = long {
        a = a.long_help(l);
    }
    a
}

/// The value names an argument shows (`<GAME>`, `--start <START>`): its
/// value names, else its id in capitals; none for a flag.
pub(crate) fn value_names(a: &clap::Arg) -> Vec<String> {
    if !a.get_num_args().is_some_and(|n| n.takes_values()) {
        return Vec::new();
    }
    match a.get_value_names() {
        Some(names) => names.iter().map(ToString::to_string).collect(),
        None => vec![a.get_id().as_str().to_uppercase()],
    }
}

/// The catalogue key of a value name: `value-GAME`, `value-MOVES_DURATION` (Fluent keys are letters,
/// digits, `-` and `_`).
pub(crate) fn value_key(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("value-{clean}")
}

/// The key of argument `id` of the command keyed `command`.
pub(crate) fn arg_key(command: &str, id: &str) -> String {
    shared_key(id).map_or_else(|| format!("{command}--{id}"), str::to_owned)
}

/// clap's default layout with Spanish headings; a section only when it has something.
fn template(cmd: &Command) -> String {
    let visible = |positional: bool| {
        cmd.get_arguments()
            .any(|a| !a.is_hide_set() && a.is_positional() == positional)
    };
    let mut t = String::from("{before-help}{about-with-newline}\nUso: {usage}\n");
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        t.push_str("\nComandos:\n{subcommands}\n");
    }
    if visible(true) {
        t.push_str("\nArgumentos:\n{positionals}\n");
    }
    if visible(false) {
        t.push_str("\nOpciones:\n{options}\n");
    }
    t.push_str("{after-help}");
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Each command of the tree with its path key, at every depth.
    fn walk<'a>(cmd: &'a Command, path: &[String], out: &mut Vec<(String, &'a Command)>) {
        out.push((command_key(path), cmd));
        for sub in cmd.get_subcommands() {
            let mut p = path.to_vec();
            p.push(sub.get_name().to_owned());
            walk(sub, &p, out);
        }
    }

    fn root() -> Vec<String> {
        vec!["sobre".to_owned()]
    }

    fn built(lang: Language) -> Command {
        let mut cmd = localise(crate::Cli::command(), lang);
        cmd.build();
        cmd
    }

    /// In Spanish, every about line, long about, argument help and long help that English
    /// has is there and is not the English text: nothing is left in English.
    #[test]
    fn every_help_text_is_translated_to_spanish() {
        let (en, es) = (built(Language::English), built(Language::Spanish));
        let (mut en_all, mut es_all) = (Vec::new(), Vec::new());
        walk(&en, &root(), &mut en_all);
        walk(&es, &root(), &mut es_all);
        assert_eq!(en_all.len(), es_all.len());
        assert!(en_all.len() > 40, "{} commands", en_all.len());
        let mut untranslated = Vec::new();
        let same = |a: Option<&clap::builder::StyledStr>, b: Option<&clap::builder::StyledStr>| {
            a.is_some() && a.map(ToString::to_string) == b.map(ToString::to_string)
        };
        for ((path, e), (_, s)) in en_all.iter().zip(&es_all) {
            if same(e.get_about(), s.get_about()) {
                untranslated.push(format!("{path} (about)"));
            }
            if same(e.get_long_about(), s.get_long_about()) {
                untranslated.push(format!("{path} (long about)"));
            }
            for a in e.get_arguments() {
                let b = s
                    .get_arguments()
                    .find(|b| b.get_id() == a.get_id())
                    .expect("the same arguments");
                if same(a.get_help(), b.get_help()) {
                    untranslated.push(arg_key(path, a.get_id().as_str()));
                }
                if same(a.get_long_help(), b.get_long_help()) {
                    untranslated.push(arg_key(path, a.get_id().as_str()) + " (long)");
                }
                for n in value_names(a) {
                    if text(&value_key(&n), None).is_none() {
                        untranslated.push(value_key(&n));
                    }
                }
            }
        }
        assert!(
            untranslated.is_empty(),
            "still in English: {untranslated:#?}"
        );
    }

    /// Every key of help-es.ftl names a command or an argument that exists: a renamed
    /// command or argument leaves no dead translation behind.
    #[test]
    fn every_spanish_help_key_names_something() {
        let en = built(Language::English);
        let mut all = Vec::new();
        walk(&en, &root(), &mut all);
        let mut known = std::collections::BTreeSet::new();
        for (path, cmd) in &all {
            known.insert(path.clone());
            for a in cmd.get_arguments() {
                known.insert(arg_key(path, a.get_id().as_str()));
                known.extend(value_names(a).iter().map(|n| value_key(n)));
            }
        }
        let dead: Vec<String> = super::super::keys(HELP_ES_FTL)
            .into_iter()
            .filter(|k| !known.contains(k))
            .collect();
        assert!(
            dead.is_empty(),
            "keys of help-es.ftl naming nothing: {dead:?}"
        );
    }

    /// `sobre … --help` and `-h` in Spanish, for every command: no line passes 100 columns
    /// (the width the English help is capped at) and the headings are Spanish.
    #[test]
    fn spanish_help_lines_fit_in_100_columns() {
        let es = built(Language::Spanish);
        let mut all = Vec::new();
        walk(&es, &root(), &mut all);
        let mut too_long = Vec::new();
        for (path, cmd) in all {
            let mut cmd = cmd.clone().term_width(100);
            for help in [cmd.render_help(), cmd.render_long_help()] {
                let help = help.to_string();
                assert!(help.contains("Uso: "), "{path}: {help}");
                assert!(
                    !help.contains("Usage:") && !help.contains("Options:"),
                    "{path}"
                );
                for line in help.lines().filter(|l| l.chars().count() > 100) {
                    too_long.push(format!("{path}: {line}"));
                }
            }
        }
        assert!(too_long.is_empty(), "lines over 100 columns: {too_long:#?}");
    }

    /// Lines of a paragraph are joined; paragraphs and list items keep their breaks.
    #[test]
    fn catalogue_paragraphs_are_joined_like_doc_comments() {
        assert_eq!(paragraphs("a\nb\n\nc\n- d\n- e"), "a b\n\nc\n- d\n- e");
    }

    /// Prints a skeleton of help-es.ftl with the English texts (for a new command):
    /// `cargo test --bin sobre help_skeleton -- --ignored --nocapture`.
    #[test]
    #[ignore = "a tool for translators, not a check"]
    fn help_skeleton() {
        let en = built(Language::English);
        let mut all = Vec::new();
        walk(&en, &root(), &mut all);
        let mut seen = std::collections::BTreeSet::new();
        let mut out = String::new();
        let mut entry = |key: String, value: Option<String>, long: Option<String>| {
            if value.is_none() && long.is_none() || !seen.insert(key.clone()) {
                return;
            }
            out.push_str(&format!("{key} =\n"));
            for l in value.unwrap_or_default().lines() {
                out.push_str(&format!("    {l}\n"));
            }
            if let Some(long) = long {
                out.push_str("    .long =\n");
                for l in long.lines() {
                    out.push_str(&format!("        {l}\n"));
                }
            }
        };
        for (path, cmd) in &all {
            entry(
                path.clone(),
                cmd.get_about().map(ToString::to_string),
                cmd.get_long_about().map(ToString::to_string),
            );
            for a in cmd.get_arguments() {
                for n in value_names(a) {
                    entry(value_key(&n), Some(n), None);
                }
                entry(
                    arg_key(path, a.get_id().as_str()),
                    a.get_help().map(ToString::to_string),
                    a.get_long_help().map(ToString::to_string),
                );
            }
        }
        println!("{out}");
    }
}
