//! The one place where errors become messages and exit codes.
//!
//! - exit 0: success;
//! - exit 1: the command ran and found a problem in the data (a PGN game that does not
//!   replay, an archive that does not verify);
//! - exit 2: the user's input is wrong (a malformed FEN, an unknown game) — with a hint;
//! - exit 70: a bug in sobre (please report it), or a failure inside the node.
//!
//! Every command returns a [`CliError`]; the `From` impls below sort the errors the commands
//! meet, and [`report`] is the only function that chooses an exit code. Answers from the
//! node ([`ClientError`]) are sorted here too: the node not running and a request the node
//! refuses (API kind `user`) are the user's to fix (exit 2); a failure inside the node or of
//! the connection to it exits 70.

use crate::t;
use sobre_node::api::ErrorKind;
use sobre_node::client::ClientError;
use std::process::ExitCode;

/// Why a command failed, sorted by whose problem it is.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The user's input is wrong: what is wrong, and optionally what to try (exit 2).
    #[error("{message}")]
    User {
        message: String,
        hint: Option<String>,
    },
    /// A file the user named cannot be read or written (exit 2).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The input was read and its data is wrong (exit 1).
    #[error("{0}")]
    Data(String),
    /// The node refused or failed the request, or could not be reached.
    #[error(transparent)]
    Node(#[from] ClientError),
    /// A bug in sobre (exit 70).
    #[error("{0}")]
    Bug(String),
    /// The command already said what is wrong on standard output (a line per failed game,
    /// `{"ok":false,…}` with --json): only the exit code is left to choose.
    #[error("reported above")]
    Reported(Fault),
}

/// Whose problem an already reported failure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The data is wrong (exit 1).
    Data,
    /// The user's input is wrong (exit 2).
    User,
}

/// What every command returns.
pub type CliResult<T> = Result<T, CliError>;

/// A user error with a message.
pub fn user(message: impl Into<String>) -> CliError {
    CliError::User {
        message: message.into(),
        hint: None,
    }
}

/// A user error with a message and a hint.
pub fn user_hint(message: impl Into<String>, hint: impl Into<String>) -> CliError {
    CliError::User {
        message: message.into(),
        hint: Some(hint.into()),
    }
}

impl CliError {
    /// A bug in sobre, described.
    pub fn bug(message: impl std::fmt::Display) -> CliError {
        CliError::Bug(message.to_string())
    }
}

/// JSON that sobre writes itself cannot fail to serialize: if it does, it is a bug.
impl From<serde_json::Error> for CliError {
    fn from(e: serde_json::Error) -> CliError {
        CliError::bug(e)
    }
}

const EXIT_DATA: u8 = 1;
const EXIT_USER: u8 = 2;
const EXIT_BUG: u8 = 70;

/// Prints the error (with its hint) on standard error and chooses the exit code. The words
/// are the run's language ([`crate::i18n`]): the fixed lines by key, a typed error by its
/// variant, never by its text; a message the command built is already in that language.
pub fn report(e: &CliError) -> ExitCode {
    match e {
        CliError::Node(c) => report_client(c),
        CliError::User { message, hint } => {
            error_line(message);
            if let Some(h) = hint {
                hint_line(h);
            }
            ExitCode::from(EXIT_USER)
        }
        CliError::Io(io) => {
            error_line(&io.to_string());
            ExitCode::from(EXIT_USER)
        }
        CliError::Data(message) => {
            error_line(message);
            ExitCode::from(EXIT_DATA)
        }
        CliError::Bug(message) => {
            error_line(message);
            eprintln!("{}", t!("error-bug"));
            ExitCode::from(EXIT_BUG)
        }
        CliError::Reported(Fault::Data) => ExitCode::from(EXIT_DATA),
        CliError::Reported(Fault::User) => ExitCode::from(EXIT_USER),
    }
}

fn error_line(message: &str) {
    eprintln!("{}", t!("error-line", message = message));
}

fn hint_line(hint: &str) {
    eprintln!("{}", t!("hint-line", hint = hint));
}

/// The node's refusals ([`ClientError::Api`]) are worded by their code when they carry one
/// ([`crate::i18n::refusals`]); the others come in the node's words (English).
fn report_client(e: &ClientError) -> ExitCode {
    match e {
        ClientError::NotRunning { home } => {
            error_line(&t!("node-not-running", home = home.display().to_string()));
            hint_line(&t!("hint-start-node"));
            ExitCode::from(EXIT_USER)
        }
        ClientError::Api(api) => {
            let worded = api.code.as_deref().and_then(crate::i18n::refusals::refusal);
            let (message, hint) = worded.unwrap_or_else(|| (api.message.clone(), api.hint.clone()));
            error_line(&message);
            if let Some(h) = &hint {
                hint_line(h);
            }
            match api.kind {
                ErrorKind::User => ExitCode::from(EXIT_USER),
                ErrorKind::Internal => {
                    eprintln!("{}", t!("error-node-failed"));
                    ExitCode::from(EXIT_BUG)
                }
            }
        }
        ClientError::Io(io) => {
            error_line(&t!("node-io", error = io.to_string()));
            hint_line(&t!("hint-node-status"));
            ExitCode::from(EXIT_BUG)
        }
        ClientError::Protocol(what) => {
            error_line(&t!("node-protocol", error = what));
            hint_line(&t!("hint-versions"));
            ExitCode::from(EXIT_BUG)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_node::api::ApiError;

    /// Each kind of error keeps its exit code.
    #[test]
    fn each_error_chooses_its_exit_code() {
        let cases: [(CliError, u8); 9] = [
            (CliError::Reported(Fault::Data), EXIT_DATA),
            (CliError::Reported(Fault::User), EXIT_USER),
            (user_hint("bad FEN", "quote it"), EXIT_USER),
            (std::io::Error::other("gone").into(), EXIT_USER),
            (CliError::Data("does not replay".into()), EXIT_DATA),
            (CliError::bug("oops"), EXIT_BUG),
            (
                ClientError::NotRunning {
                    home: "/nowhere".into(),
                }
                .into(),
                EXIT_USER,
            ),
            (
                ClientError::Api(ApiError::user("not your move")).into(),
                EXIT_USER,
            ),
            (
                ClientError::Api(ApiError::internal("disk")).into(),
                EXIT_BUG,
            ),
        ];
        for (e, code) in cases {
            assert_eq!(report(&e), ExitCode::from(code), "{e:?}");
        }
    }
}
