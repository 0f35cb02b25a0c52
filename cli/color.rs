//! Whether the command line may colour what it writes: only on a terminal, and never when
//! `NO_COLOR` is set to a non-empty value (<https://no-color.org>). clap's own help and error
//! messages follow the same convention by themselves (through `anstream`); this is for the
//! output sobre colours itself (the node's log).

use std::ffi::OsStr;
use std::io::IsTerminal;

/// Whether to colour standard error.
pub fn stderr() -> bool {
    allowed(
        std::env::var_os("NO_COLOR").as_deref(),
        std::io::stderr().is_terminal(),
    )
}

/// The rule, apart from the environment: an empty `NO_COLOR` counts as unset, as the
/// convention says.
fn allowed(no_color: Option<&OsStr>, terminal: bool) -> bool {
    terminal && no_color.is_none_or(OsStr::is_empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_color_turns_colours_off_on_a_terminal() {
        assert!(allowed(None, true));
        assert!(!allowed(Some(OsStr::new("1")), true));
        assert!(!allowed(Some(OsStr::new("true")), true));
        assert!(allowed(Some(OsStr::new("")), true), "empty means unset");
    }

    #[test]
    fn no_terminal_no_colours() {
        assert!(!allowed(None, false));
        assert!(!allowed(Some(OsStr::new("")), false));
    }
}
