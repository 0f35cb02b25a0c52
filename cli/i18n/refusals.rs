//! The node's refusals in the run's language, worded from their typed code
//! ([`RefusalCode::words`], from sobre's one catalogue), never from the node's English
//! message. A refusal without a code, or with one this `sobre` does not know
//! ([`RefusalCode::Other`]), is shown in the node's words.

use sobre_node::api::refusal::RefusalCode;

/// The message and hint of a coded refusal in the run's language; `None` for
/// [`RefusalCode::Other`] and the kinds this `sobre` does not know.
pub fn refusal(code: &RefusalCode) -> Option<(String, Option<String>)> {
    code.words(sobre_words::words(super::lang()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Language, with_lang};

    /// The CLI words a refusal in the run's language, and leaves a newer node's code to
    /// the node's message.
    #[test]
    fn refusals_are_worded_in_the_runs_language() {
        let es = with_lang(Language::Spanish, || refusal(&RefusalCode::NotYourMove));
        assert_eq!(es.unwrap().0, "no le toca mover");
        let en = with_lang(Language::English, || refusal(&RefusalCode::NotYourMove));
        assert_eq!(en.unwrap().0, "it is not your move");
        assert_eq!(refusal(&RefusalCode::Other), None);
    }
}
