//! The one place where errors become messages and exit codes.
//!
//! - exit 0: success;
//! - exit 1: the command ran and found a problem in the data (a PGN game that does not
//!   replay, an archive that does not verify);
//! - exit 2: the user's input is wrong (a malformed FEN, an unknown game) — with a hint;
//! - exit 70: a bug in sobre (please report it), or a failure inside the node.
//!
//! Answers from the node ([`ClientError`]) are sorted here too: the node not running and a
//! request the node refuses (API kind `user`) are the user's to fix (exit 2); a failure
//! inside the node or of the connection to it exits 70.

use sobre_node::api::ErrorKind;
use sobre_node::client::ClientError;
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
    if let Some(c) = e.downcast_ref::<ClientError>() {
        return report_client(c);
    }
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

fn report_client(e: &ClientError) -> ExitCode {
    match e {
        ClientError::NotRunning { .. } => {
            eprintln!("error: {e}");
            eprintln!("hint: start it with `sobre node run`");
            ExitCode::from(EXIT_USER)
        }
        ClientError::Api(api) => {
            eprintln!("error: {}", api.message);
            if let Some(h) = &api.hint {
                eprintln!("hint: {h}");
            }
            match api.kind {
                ErrorKind::User => ExitCode::from(EXIT_USER),
                ErrorKind::Internal => {
                    eprintln!(
                        "the node failed; its log may say more (please report it if it is a bug)"
                    );
                    ExitCode::from(EXIT_BUG)
                }
            }
        }
        ClientError::Io(_) => {
            eprintln!("error: {e}");
            eprintln!("hint: check the node with `sobre node status`");
            ExitCode::from(EXIT_BUG)
        }
        ClientError::Protocol(_) => {
            eprintln!("error: {e}");
            eprintln!("hint: the node and this `sobre` may be different versions");
            ExitCode::from(EXIT_BUG)
        }
    }
}
