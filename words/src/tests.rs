//! The catalogues' own checks: they parse, name the same messages with the same arguments,
//! and keep their blanks.

use super::*;
use std::collections::{BTreeMap, BTreeSet};

/// The keys of a catalogue, in order.
fn keys(source: &str) -> Vec<String> {
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

/// The variables (`{ $home }`) each message of a catalogue uses.
fn variables(source: &str) -> BTreeMap<String, BTreeSet<String>> {
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
    let mut all = BTreeMap::new();
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
    // the move reader's detail (`reason`) is the core's English, left out in Spanish; a
    // reminder names a claim by the word typed in English and by its words in Spanish.
    let by_design = [
        "position-to-move",
        "position-check",
        "refusal-move-syntax",
        "refusal-move-illegal",
        "refusal-move-ambiguous",
        "refusal-sealed-not-unique",
        "pgn-error-start",
        "pgn-error-move",
        "reminder-claim-possible",
        "reminder-claim-possible-title",
        "reminder-auto-claim",
        "reminder-auto-claim-title",
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
    for source in [EN_FTL, ES_FTL] {
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
    for source in [EN_FTL, ES_FTL] {
        let all = keys(source);
        let unique: BTreeSet<&String> = all.iter().collect();
        assert_eq!(all.len(), unique.len(), "a key is defined twice");
    }
}

#[test]
fn messages_take_arguments_without_isolation_marks() {
    let args = args!(home = "/tmp/x");
    let en = words(Language::English).get("node-not-running", Some(&args));
    let es = words(Language::Spanish).get("node-not-running", Some(&args));
    assert!(en.contains("/tmp/x") && !en.contains('\u{2068}'), "{en}");
    assert!(es.contains("/tmp/x") && es != en, "{es}");
    assert_eq!(words(Language::Spanish).lang(), Language::Spanish);
}

/// A key the catalogue lacks shows as itself rather than as nothing.
#[test]
fn a_missing_message_shows_its_key() {
    assert_eq!(
        words(Language::English).get("no-such-key", None),
        "no-such-key"
    );
    assert!(!words(Language::English).has("no-such-key"));
}

/// The board page fills its messages itself: every `board-` message of both catalogues is
/// text and arguments only, and the page's own words are there.
#[test]
fn the_boards_messages_are_templates_in_both_languages() {
    for lang in [Language::English, Language::Spanish] {
        let board = words(lang).templates("board-").expect("templates");
        assert!(board.len() > 90, "{} board messages", board.len());
        assert!(board.iter().any(|(k, _)| k == "board-invite-added"));
    }
}
