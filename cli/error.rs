//! The one place where errors become messages and exit codes.
//!
//! - exit 0: success;
//! - exit 1: the command ran and found a problem in the data (a PGN game that does not
//!   replay, an archive that does not verify);
//! - exit 2: the user's input is wrong (a malformed FEN, an unknown game) — with a hint;
//! - exit 70: a bug in sobre (please report it).

use std::process::ExitCode;

/// An error meant for the user: what is wrong, and optionally what to try.
#[derive(Debug)]
pub struct UserError {
    pub message: String,
    pub hint: Option<String>,
}

impl std::fmt::Display for UserError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UserError {}

/// A user error with a message.
pub fn user(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UserError {
        message: message.into(),
        hint: None,
    })
}

/// A user error with a message and a hint.
pub fn user_hint(message: impl Into<String>, hint: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UserError {
        message: message.into(),
        hint: Some(hint.into()),
    })
}

pub const EXIT_DATA: u8 = 1;
pub const EXIT_USER: u8 = 2;
pub const EXIT_BUG: u8 = 70;

pub fn report(e: &anyhow::Error) -> ExitCode {
    if let Some(u) = e.downcast_ref::<UserError>() {
        eprintln!("error: {}", u.message);
        if let Some(h) = &u.hint {
            eprintln!("hint: {h}");
        }
        return ExitCode::from(EXIT_USER);
    }
    if let Some(io) = e.downcast_ref::<std::io::Error>() {
        eprintln!("error: {io}");
        return ExitCode::from(EXIT_USER);
    }
    eprintln!("error: {e:#}");
    eprintln!("this is a bug in sobre; please report it with the command you ran");
    ExitCode::from(EXIT_BUG)
}
