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
        .map_err(|e| error::user(format!("cannot create {shown}: {e}")))?;
    clap_mangen::generate_to(cli.clone(), &dir)
        .map_err(|e| error::user(format!("cannot write the man pages into {shown}: {e}")))?;
    let pages = page_count(&cli);
    println!("{pages} man page(s) in {shown}");
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
