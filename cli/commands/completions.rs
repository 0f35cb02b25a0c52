//! `sobre completions SHELL`: the shell completion script, generated from the same clap
//! definition that parses the command line (so it never lags behind a new subcommand).

use crate::error::{self, CliResult};
use clap_complete::Shell;
use std::io::{self, Write};
use std::process::ExitCode;

/// Print the completion script for a shell on standard output.
///
/// Install it where the shell looks for completions, e.g.
/// `sobre completions bash > ~/.local/share/bash-completion/completions/sobre`,
/// `sobre completions zsh > ~/.zfunc/_sobre`,
/// `sobre completions fish > ~/.config/fish/completions/sobre.fish`.
#[derive(clap::Args)]
pub struct Args {
    /// bash, zsh, fish, elvish or powershell (default: the shell named by $SHELL).
    shell: Option<Shell>,
}

/// Writes the script for `cli` (the whole `sobre` command) to standard output.
pub fn run(args: Args, mut cli: clap::Command) -> CliResult<ExitCode> {
    let shell = match args.shell.or_else(Shell::from_env) {
        Some(s) => s,
        None => {
            return Err(error::user_hint(
                crate::t!("completions-no-shell"),
                crate::t!("completions-hint"),
            ));
        }
    };
    let mut out = io::stdout().lock();
    clap_complete::generate(shell, &mut cli, "sobre", &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
