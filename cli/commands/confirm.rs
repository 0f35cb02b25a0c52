//! Asking before a step that cannot be undone (resigning, aborting, accepting a draw): only
//! when a person is at a terminal. A script (standard input not a terminal) is never asked and
//! the command goes ahead as it always did; `--yes` skips the question on a terminal too.

use super::common;
use super::contacts::Contacts;
use super::names::Names;
use super::show::{game_tag, opponent_id};
use crate::error::CliResult;
use sobre_node::api::{ApiRequest, GameView};
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

/// `--yes`: do not ask.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Yes {
    /// Do not ask for confirmation (it is asked only when standard input is a terminal).
    #[arg(long, short = 'y')]
    yes: bool,
}

/// The exit code of a command the player called off at the question: nothing was sent.
pub const CALLED_OFF: u8 = 1;

/// Whether to go ahead with `action` (`"Resign"`) in `game`: without asking when `--yes` was
/// given or standard input is not a terminal; else the question names the game and the
/// opponent (`Resign game 3f2a9c1e against Bernardo? [y/N]`), on standard error so that
/// standard output stays the command's answer. Only `y`/`yes` (or `s`/`sí`) goes ahead.
pub fn go_ahead(home: &Path, game: &str, yes: Yes, action: &str) -> CliResult<bool> {
    let stdin = std::io::stdin();
    if yes.yes || !stdin.is_terminal() {
        return Ok(true);
    }
    let v: GameView = common::call_as(
        home,
        ApiRequest::Show {
            game: game.to_owned(),
        },
    )?;
    let contacts = Contacts::load(home)?;
    let names = Names::new(&contacts, v.names.clone());
    let against = match opponent_id(&v) {
        Some(id) => format!(" against {}", names.label(id)),
        None => String::new(),
    };
    let mut err = std::io::stderr().lock();
    write!(err, "{action} game {}{against}? [y/N] ", game_tag(&v))?;
    err.flush()?;
    let mut answer = String::new();
    stdin.lock().read_line(&mut answer)?;
    Ok(is_yes(&answer))
}

/// What a command prints and returns when the player answered no.
pub fn called_off() -> CliResult<ExitCode> {
    eprintln!("Nothing was sent.");
    Ok(ExitCode::from(CALLED_OFF))
}

/// `y`, `yes`, `s`, `si`, `sí` in any case; anything else (an empty line too) is no.
fn is_yes(answer: &str) -> bool {
    matches!(
        answer.trim().to_lowercase().as_str(),
        "y" | "yes" | "s" | "si" | "sí"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_yes_goes_ahead() {
        for a in ["y\n", "YES", " s ", "sí\n"] {
            assert!(is_yes(a), "{a:?}");
        }
        for a in ["", "\n", "n", "no", "yep", "maybe"] {
            assert!(!is_yes(a), "{a:?}");
        }
    }
}
