//! The page's words, from sobre's one catalogue ([`sobre_words`], the `board-` messages):
//! the page gets them as templates it fills itself, so that a sentence is written once per
//! language for the command line and the board alike.

use serde::Serialize;
use sobre_words::{Language, Piece, TemplateError};
use std::collections::BTreeMap;

/// The prefix of the page's messages in the catalogue.
pub const PREFIX: &str = "board-";

/// The names of the node's events (the words `sobre watch` shows), which the page's live
/// line names too: served beside the page's own, not written twice.
pub const EVENT_PREFIX: &str = "watch-event-";

/// One part of a message as the page reads it: text as it is, or `{"arg": name}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Part {
    Text(String),
    Arg { arg: String },
}

/// The page's words in one language: `GET /board/words?lang=es`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardWords {
    /// The language's BCP 47 tag, for `<html lang>`.
    pub lang: &'static str,
    /// Every `board-` message by key.
    pub words: BTreeMap<String, Vec<Part>>,
}

/// The page's words in `lang`.
///
/// # Errors
/// [`TemplateError`] if a `board-` message needs Fluent to be formatted (a test of
/// `sobre-words` keeps every one plain).
pub fn board_words(lang: Language) -> Result<BoardWords, TemplateError> {
    let catalogue = sobre_words::words(lang);
    let mut templates = catalogue.templates(PREFIX)?;
    templates.extend(catalogue.templates(EVENT_PREFIX)?);
    let words = templates
        .into_iter()
        .map(|(key, pieces)| {
            let parts = pieces
                .into_iter()
                .map(|p| match p {
                    Piece::Text(t) => Part::Text(t),
                    Piece::Arg(arg) => Part::Arg { arg },
                })
                .collect();
            (key, parts)
        })
        .collect();
    Ok(BoardWords {
        lang: lang.tag(),
        words,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::assets::ASSETS;

    #[test]
    fn the_events_names_travel_with_the_pages_words() {
        let es = board_words(Language::Spanish).unwrap();
        let json = serde_json::to_value(&es.words["watch-event-receipt"]).unwrap();
        assert_eq!(json, serde_json::json!(["acuse"]));
    }

    #[test]
    fn a_message_travels_as_text_and_argument_names() {
        let es = board_words(Language::Spanish).unwrap();
        assert_eq!(es.lang, "es");
        let json = serde_json::to_value(&es.words["board-leave-ended"]).unwrap();
        assert_eq!(
            json,
            serde_json::json!(["Vacaciones terminadas (anotadas en ", {"arg": "games"}, " partidas)"])
        );
    }

    /// Every word the page names literally (`t("board-…")`, `data-t="board-…"`) is in
    /// both catalogues: a missing one would show its key on the page.
    #[test]
    fn every_word_the_page_names_is_in_the_catalogue() {
        let (en, es) = (
            board_words(Language::English).unwrap(),
            board_words(Language::Spanish).unwrap(),
        );
        let mut named = 0;
        for asset in ASSETS.iter().filter(|a| !a.path.starts_with("/cm-")) {
            let text = std::str::from_utf8(asset.bytes).unwrap();
            for quoted in text.split(['"', '`']).filter(|s| s.starts_with(PREFIX)) {
                // A key built at run time (`"board-status-" + status`) ends with `-`.
                if quoted.ends_with('-')
                    || !quoted.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                {
                    continue;
                }
                named += 1;
                assert!(
                    en.words.contains_key(quoted),
                    "{} names {quoted}",
                    asset.path
                );
                assert!(
                    es.words.contains_key(quoted),
                    "{} names {quoted}",
                    asset.path
                );
            }
        }
        assert!(named > 60, "{named} words found in the page");
    }
}
