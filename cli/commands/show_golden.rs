//! Snapshots of `show`'s rendering on fixed views, in both languages.

use super::*;
use crate::commands::common::{assert_golden, golden_fixture};
use crate::i18n::{Language, with_lang};

fn contacts() -> Contacts {
    let aliases: serde_json::Value = golden_fixture("contacts.json");
    let mut c = Contacts::default();
    for (alias, id) in aliases.as_object().expect("alias → id") {
        c.aliases
            .insert(alias.clone(), id.as_str().expect("an id").to_owned());
    }
    c
}

const PLAIN: View = View {
    flip: false,
    ascii: false,
    notation: Notation::English,
    unread: 0,
};

#[test]
fn golden_show_renders_each_kind_of_game() {
    let spanish_ascii_flipped = View {
        flip: true,
        ascii: true,
        notation: Notation::Spanish,
        unread: 0,
    };
    let figurine = View {
        notation: Notation::Figurine,
        ..PLAIN
    };
    let cases = [
        ("show_active", PLAIN, "show_active.txt"),
        (
            "show_active",
            spanish_ascii_flipped,
            "show_active_flip_ascii_es.txt",
        ),
        ("show_pending", PLAIN, "show_pending.txt"),
        ("show_adjourned", PLAIN, "show_adjourned.txt"),
        ("show_resumed", PLAIN, "show_resumed.txt"),
        ("show_finished", figurine, "show_finished.txt"),
        ("show_chess960", PLAIN, "show_chess960.txt"),
    ];
    let contacts = contacts();
    for (fixture, view, golden) in cases {
        let v: GameView = golden_fixture(&format!("{fixture}.json"));
        assert_golden(golden, &render(&v, &contacts, view));
    }
}

/// The same games in a Spanish interface (Spanish notation, as a Spanish player would
/// set it): every heading, state, clock, offer, claim, envelope and chat line.
#[test]
fn golden_show_in_spanish() {
    let spanish = View {
        notation: Notation::Spanish,
        ..PLAIN
    };
    let contacts = contacts();
    for fixture in [
        "show_active",
        "show_pending",
        "show_adjourned",
        "show_resumed",
        "show_finished",
        "show_chess960",
    ] {
        let v: GameView = golden_fixture(&format!("{fixture}.json"));
        let text = with_lang(Language::Spanish, || render(&v, &contacts, spanish));
        assert_golden(&format!("{fixture}_es.txt"), &text);
    }
    let v: GameView = golden_fixture("show_finished.json");
    let text = with_lang(Language::Spanish, || chat_history(&v, &contacts));
    assert_golden("show_chat_es.txt", &text);
}
