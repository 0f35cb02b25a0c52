//! `sobre export`: a game as PGN or as a verifiable archive.

use super::common;
use crate::error::{self, CliError, CliResult};
use crate::t;
use sobre_node::api::ExportFormat;
use sobre_node::api::replies::ExportReply;
use sobre_node::api::request;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Export a game: as PGN (for any chess program), or as an archive of all its signed events
/// (anyone can check it independently: the signatures, the chains, every move).
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("format").required(true).args(["pgn", "archive"])))]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// Export PGN.
    #[arg(long)]
    pgn: bool,
    /// Export the signed-event archive.
    #[arg(long)]
    archive: bool,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let format = if args.pgn {
        ExportFormat::Pgn
    } else {
        ExportFormat::Archive
    };
    let v: ExportReply = common::read_as(
        home,
        request::Export {
            game: args.game,
            format,
        },
    )?;
    let (body, key) = match format {
        ExportFormat::Pgn => (v.pgn, "pgn"),
        ExportFormat::Archive => (v.archive, "archive"),
    };
    let mut body =
        body.ok_or_else(|| CliError::bug(format!("the node's export has no {key} text")))?;
    if !body.ends_with('\n') {
        body.push('\n');
    }
    match &args.output {
        None => print!("{body}"),
        Some(path) => {
            std::fs::write(path, body).map_err(|e| error::user(common::cannot_write(path, &e)))?;
            eprintln!("{}", t!("wrote-file", path = path.display().to_string()));
        }
    }
    Ok(ExitCode::SUCCESS)
}
