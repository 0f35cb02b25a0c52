//! `sobre export`: a game as PGN or as a verifiable archive.

use super::common;
use crate::error;
use serde_json::Value;
use sobre_node::api::{ApiRequest, ExportFormat};
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

pub fn run(home: &Path, args: Args) -> anyhow::Result<ExitCode> {
    let (format, key) = if args.pgn {
        (ExportFormat::Pgn, "pgn")
    } else {
        (ExportFormat::Archive, "archive")
    };
    let v = common::call(
        home,
        ApiRequest::Export {
            game: args.game,
            format,
        },
    )?;
    let body = match v.get(key) {
        Some(Value::String(s)) => s.clone(),
        // A result the node wrapped as {"Ok": text} / {"Err": reason}.
        Some(Value::Object(o)) => match (o.get("Ok"), o.get("Err")) {
            (Some(Value::String(s)), _) => s.clone(),
            (_, Some(e)) => anyhow::bail!("the node could not export the game: {e}"),
            _ => anyhow::bail!("the node's export has no {key} text"),
        },
        _ => anyhow::bail!("the node's export has no {key} text"),
    };
    let mut body = body;
    if !body.ends_with('\n') {
        body.push('\n');
    }
    match &args.output {
        None => print!("{body}"),
        Some(path) => {
            std::fs::write(path, body)
                .map_err(|e| error::user(format!("cannot write {}: {e}", path.display())))?;
            eprintln!("wrote {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
