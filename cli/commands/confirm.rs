//! Asking before a step that cannot be undone (resigning, aborting, accepting a draw): only
//! when a person is at a terminal. A script (standard input not a terminal) is never asked and
//! the command goes ahead as it always did; `--yes` skips the question on a terminal too.

use super::common;
use super::contacts::Contacts;
use super::names::Names;
use super::show::{game_tag, opponent_id};
use crate::error::CliResult;
use crate::t;
use sobre_node::api::GameView;
use sobre_node::api::request;
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

/// A step that is asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Resign,
    Abort,
    AcceptDraw,
    /// A11.2: annulling a game whose sealed move is lost.
    Annul,
}

/// The exit code of a command the player called off at the question: nothing was sent.
pub const CALLED_OFF: u8 = 1;

/// Whether to go ahead with `step` in `game`: without asking when `--yes` was given or
/// standard input is not a terminal; else the question names the game and the opponent
/// (`Resign game 3f2a9c1e against Bernardo? [y/N]`, in Spanish `¿Abandonar la partida
/// 3f2a9c1e contra Bernardo? [s/N]`), on standard error so that standard output stays the
/// command's answer. Only `y`/`yes` or `s`/`si`/`sí` goes ahead, in either language.
pub fn go_ahead(home: &Path, game: &str, yes: Yes, step: Step) -> CliResult<bool> {
    let stdin = std::io::stdin();
    if yes.yes || !stdin.is_terminal() {
        return Ok(true);
    }
    let v: GameView = common::send(
        home,
        request::Show {
            game: game.to_owned(),
        },
    )?;
    let contacts = Contacts::load(home)?;
    let names = Names::new(&contacts, v.names.clone());
    let question = question(
        step,
        game_tag(&v),
        opponent_id(&v).map(|id| names.label(id)),
    );
    let mut err = std::io::stderr().lock();
    write!(err, "{question} ")?;
    err.flush()?;
    let mut answer = String::new();
    stdin.lock().read_line(&mut answer)?;
    Ok(is_yes(&answer))
}

/// What a command prints and returns when the player answered no.
pub fn called_off() -> CliResult<ExitCode> {
    eprintln!("{}", t!("confirm-called-off"));
    Ok(ExitCode::from(CALLED_OFF))
}

/// The question for `step` in `game`, naming the opponent when there is one.
fn question(step: Step, game: &str, opponent: Option<String>) -> String {
    match (step, opponent) {
        (Step::Resign, None) => t!("confirm-resign", game = game),
        (Step::Resign, Some(o)) => t!("confirm-resign-against", game = game, opponent = o),
        (Step::Abort, None) => t!("confirm-abort", game = game),
        (Step::Abort, Some(o)) => t!("confirm-abort-against", game = game, opponent = o),
        (Step::AcceptDraw, None) => t!("confirm-draw", game = game),
        (Step::AcceptDraw, Some(o)) => t!("confirm-draw-against", game = game, opponent = o),
        (Step::Annul, None) => t!("confirm-annul", game = game),
        (Step::Annul, Some(o)) => t!("confirm-annul-against", game = game, opponent = o),
    }
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

    /// The question names the step, the game and the opponent, in the run's language; the
    /// Spanish one offers `s` as the yes.
    #[test]
    fn the_question_is_asked_in_the_run_language() {
        use crate::i18n::{Language, with_lang};
        let ask = |lang, step, opponent: Option<&str>| {
            with_lang(lang, || {
                question(step, "3f2a9c1e", opponent.map(str::to_owned))
            })
        };
        assert_eq!(
            ask(Language::English, Step::Resign, Some("Bernardo")),
            "Resign game 3f2a9c1e against Bernardo? [y/N]"
        );
        assert_eq!(
            ask(Language::English, Step::AcceptDraw, None),
            "Accept the draw in game 3f2a9c1e? [y/N]"
        );
        assert_eq!(
            ask(Language::Spanish, Step::Resign, Some("Bernardo")),
            "¿Abandonar la partida 3f2a9c1e contra Bernardo? [s/N]"
        );
        assert_eq!(
            ask(Language::Spanish, Step::Abort, None),
            "¿Anular la partida 3f2a9c1e? [s/N]"
        );
        assert_eq!(
            ask(Language::Spanish, Step::AcceptDraw, Some("Bernardo")),
            "¿Aceptar las tablas en la partida 3f2a9c1e contra Bernardo? [s/N]"
        );
        assert_eq!(
            with_lang(Language::Spanish, || t!("confirm-called-off")),
            "No se ha enviado nada."
        );
    }
}
