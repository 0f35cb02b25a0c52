//! `sobre man`: the manual page in roff, generated from the clap definition that parses the
//! command line (the help texts are the single source).

use crate::error::{self, CliResult};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Print the man page of sobre (roff) on standard output, or write one page per subcommand.
///
/// `sobre man | man -l -` reads it at once; `sobre man --out ~/.local/share/man/man1` installs
/// `sobre.1`, `sobre-challenge.1`, `sobre-league-create.1`, … for `man sobre-challenge`.
#[derive(clap::Args)]
pub struct Args {
    /// Write `sobre.1` and a page per subcommand into this directory (created if missing)
    /// instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Renders the pages of `cli` (the whole `sobre` command).
pub fn run(args: Args, cli: clap::Command) -> CliResult<ExitCode> {
    let Some(dir) = args.out else {
        let mut page = Vec::new();
        clap_mangen::Man::new(cli).render(&mut page)?;
        let mut out = io::stdout().lock();
        out.write_all(&page)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    };
    let shown = dir.display();
    std::fs::create_dir_all(&dir)
        .map_err(|e| error::user(crate::commands::common::cannot_create(&dir, &e)))?;
    clap_mangen::generate_to(cli.clone(), &dir).map_err(|e| {
        error::user(crate::t!(
            "man-cannot-write",
            dir = shown.to_string(),
            error = e.to_string()
        ))
    })?;
    let pages = page_count(&cli);
    println!(
        "{}",
        crate::t!("man-written", pages = pages, dir = shown.to_string())
    );
    Ok(ExitCode::SUCCESS)
}

/// One page for the command and one for each visible subcommand, at every depth (what
/// [`clap_mangen::generate_to`] writes).
fn page_count(cmd: &clap::Command) -> usize {
    1 + cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(page_count)
        .sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every subcommand, at every depth, with its path (`league create`).
    fn walk(cmd: &clap::Command, path: &str, out: &mut Vec<(String, clap::Command)>) {
        for sub in cmd.get_subcommands() {
            let here = format!("{path} {}", sub.get_name()).trim().to_owned();
            out.push((here.clone(), sub.clone()));
            walk(sub, &here, out);
        }
    }

    #[test]
    fn the_command_line_definition_is_consistent() {
        crate::Cli::command().debug_assert();
    }

    /// The about line is what `sobre --help`, the completions and the man pages' NAME show:
    /// none may be empty.
    #[test]
    fn every_subcommand_has_an_about_line() {
        let mut all = Vec::new();
        walk(&crate::Cli::command(), "", &mut all);
        assert!(all.len() > 40, "{} subcommands", all.len());
        let missing: Vec<&str> = all
            .iter()
            .filter(|(_, c)| {
                c.get_about()
                    .is_none_or(|a| a.to_string().trim().is_empty())
            })
            .map(|(p, _)| p.as_str())
            .collect();
        assert!(missing.is_empty(), "no about line: {missing:?}");
    }

    #[test]
    fn page_count_matches_what_generate_to_writes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let cli = crate::Cli::command();
        let expected = page_count(&cli);
        clap_mangen::generate_to(cli, dir.path()).expect("writes");
        let written = std::fs::read_dir(dir.path()).expect("dir").count();
        assert_eq!(written, expected);
    }
}
