//! The errors of the libraries that reach the player, in the run's language: keyed by
//! variant (an exhaustive match, so a new variant cannot go untranslated), never by text.
//! Details that are data (a path, an operating-system reason) are quoted as they come.

use crate::t;
use sobre_core::clock::TimeControlError;
use sobre_core::notation::fen::ParseFenError;
use sobre_core::record::PlayerIdError;
use sobre_core::record::profile::{
    MAX_FEDERATION_ID_DIGITS, MAX_FUTURE_MS, MAX_LANGUAGES, MAX_NAME_CHARS, PROFILE_VERSION,
    ProfileError, TextField,
};
use sobre_node::home::KeyError;
use sobre_node::profile::LocalProfileError;

/// The player's key cannot be loaded or made.
pub fn key(e: &KeyError) -> String {
    match e {
        KeyError::Missing(path) => t!("key-missing", path = path),
        KeyError::Damaged(path) => t!("key-damaged", path = path),
        KeyError::Io { path, source } => t!("key-io", path = path, error = source.to_string()),
        KeyError::Exists { home, player } => t!("key-exists", home = home, player = player),
    }
}

/// A FEN that does not read, or describes an impossible position.
pub fn fen(e: &ParseFenError) -> String {
    sobre_node::words::fen(here(), e)
}

/// A time control that does not parse (`0/50d`).
pub fn time_control(e: &TimeControlError) -> String {
    sobre_node::words::time_control(here(), e)
}

/// A text that is not a player id.
pub fn player_id(e: &PlayerIdError) -> String {
    sobre_node::words::player_id(here(), e)
}

/// The catalogue of the run's language.
fn here() -> &'static sobre_words::Words {
    sobre_words::words(super::lang())
}

fn field(f: TextField) -> String {
    match f {
        TextField::Name => t!("profile-field-name"),
        TextField::Club => t!("profile-field-club"),
    }
}

/// A profile (or a field of one) that is not acceptable.
pub fn profile(e: &ProfileError) -> String {
    match e {
        ProfileError::Codec(c) => t!("profile-err-codec", error = c.to_string()),
        ProfileError::Version(v) => {
            t!("profile-err-version", version = *v, reads = PROFILE_VERSION)
        }
        ProfileError::BadSignature(p) => t!("profile-err-signature", player = p.to_string()),
        ProfileError::Empty(f) => t!("profile-err-empty", field = field(*f)),
        ProfileError::TooLong { field: f, chars } => t!(
            "profile-err-too-long",
            field = field(*f),
            chars = *chars,
            max = MAX_NAME_CHARS
        ),
        ProfileError::ControlCharacter(f) => t!("profile-err-control", field = field(*f)),
        ProfileError::NotTrimmed(f) => t!("profile-err-not-trimmed", field = field(*f)),
        ProfileError::FederationId(s) => t!(
            "profile-err-federation",
            id = sobre_node::words::quoted(s),
            max = MAX_FEDERATION_ID_DIGITS
        ),
        ProfileError::TooManyLanguages(n) => {
            t!("profile-err-languages", count = *n, max = MAX_LANGUAGES)
        }
        ProfileError::Language(s) => t!("profile-err-language", tag = sobre_node::words::quoted(s)),
        ProfileError::DuplicateLanguage(s) => {
            t!(
                "profile-err-duplicate-language",
                tag = sobre_node::words::quoted(s)
            )
        }
        ProfileError::FromTheFuture { issued_ms, now_ms } => t!(
            "profile-err-future",
            issued = issued_ms.to_string(),
            max = MAX_FUTURE_MS.to_string(),
            now = now_ms.to_string()
        ),
    }
}

/// The player's own profile file cannot be read, written or used.
pub fn local_profile(e: &LocalProfileError) -> String {
    match e {
        LocalProfileError::Io { path, source } => {
            t!("local-profile-io", path = path, error = source.to_string())
        }
        LocalProfileError::Damaged { path, reason } => {
            t!("local-profile-damaged", path = path, reason = reason)
        }
        LocalProfileError::Invalid { path, source } => {
            t!(
                "local-profile-invalid",
                path = path,
                error = profile(source)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Language, with_lang};

    /// In English the words are the libraries' own: English output does not change.
    #[test]
    fn english_library_errors_read_as_before() {
        let cases: Vec<(String, String)> = vec![
            (
                key(&KeyError::Missing("/h".into())),
                KeyError::Missing("/h".into()).to_string(),
            ),
            (
                key(&KeyError::Damaged("/h/key".into())),
                KeyError::Damaged("/h/key".into()).to_string(),
            ),
            (
                player_id(&PlayerIdError::NotAPeerId("x".into())),
                PlayerIdError::NotAPeerId("x".into()).to_string(),
            ),
            (
                profile(&ProfileError::TooLong {
                    field: TextField::Name,
                    chars: 70,
                }),
                ProfileError::TooLong {
                    field: TextField::Name,
                    chars: 70,
                }
                .to_string(),
            ),
            (
                profile(&ProfileError::Empty(TextField::Club)),
                ProfileError::Empty(TextField::Club).to_string(),
            ),
            (
                profile(&ProfileError::FederationId("12a".into())),
                ProfileError::FederationId("12a".into()).to_string(),
            ),
            (
                profile(&ProfileError::TooManyLanguages(9)),
                ProfileError::TooManyLanguages(9).to_string(),
            ),
            (
                profile(&ProfileError::Language("xx-".into())),
                ProfileError::Language("xx-".into()).to_string(),
            ),
            (
                profile(&ProfileError::DuplicateLanguage("es".into())),
                ProfileError::DuplicateLanguage("es".into()).to_string(),
            ),
            (
                profile(&ProfileError::ControlCharacter(TextField::Name)),
                ProfileError::ControlCharacter(TextField::Name).to_string(),
            ),
            (
                profile(&ProfileError::NotTrimmed(TextField::Name)),
                ProfileError::NotTrimmed(TextField::Name).to_string(),
            ),
        ];
        for (ours, theirs) in cases {
            assert_eq!(ours, theirs);
        }
        for fen_text in [
            "",
            "8/8/8 w",
            "8/8/8/8/8/8/8/8 x - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w Q - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - x 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
            "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            let e = sobre_core::Position::from_fen(fen_text, sobre_core::CastlingMode::Standard)
                .expect_err("a bad FEN");
            assert_eq!(fen(&e), e.to_string(), "{fen_text:?}");
            assert_ne!(
                with_lang(Language::Spanish, || fen(&e)),
                e.to_string(),
                "{fen_text:?}"
            );
        }
        for text in [
            "0/50d",
            "",
            "3w",
            "90",
            "40/2h+30s",
            "40/2h::1h",
            "3d+1d+1d",
            "10/50d 40/2h",
            "x3d",
            "1.5h",
            "30s1m",
            "40/0h",
            "3d foo",
            "otb 40/2h+1h:30m 40/1h",
        ] {
            if let Err(e) = text.parse::<sobre_core::clock::TimeControl>() {
                assert_eq!(time_control(&e), e.to_string(), "{text:?}");
                assert_ne!(
                    with_lang(Language::Spanish, || time_control(&e)),
                    e.to_string()
                );
            }
        }
    }

    #[test]
    fn spanish_library_errors_are_spanish() {
        let e = ProfileError::TooLong {
            field: TextField::Name,
            chars: 70,
        };
        assert_eq!(
            with_lang(Language::Spanish, || profile(&e)),
            "el nombre tiene 70 caracteres; se permiten como mucho 64"
        );
        let k = KeyError::Missing("/h".into());
        assert!(with_lang(Language::Spanish, || key(&k)).contains("ejecute `sobre init`"));
    }
}
