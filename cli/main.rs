//! `sobre`: the command line of sobre. Thin: parses arguments, calls the libraries, renders.
//! Errors become one line and an exit code in one place ([`error::report`]).

mod board;
mod commands;
mod error;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// sobre: peer-to-peer correspondence chess and adjourned games.
#[derive(Parser)]
#[command(name = "sobre", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Demo(commands::demo::Args),
    Perft(commands::perft::Args),
    Position(commands::position::Args),
    #[command(subcommand)]
    Pgn(commands::pgn::PgnCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(args) => commands::demo::run(args),
        Command::Perft(args) => commands::perft::run(args),
        Command::Position(args) => commands::position::run(args),
        Command::Pgn(cmd) => commands::pgn::run(cmd),
    };
    match result {
        Ok(code) => code,
        Err(e) => error::report(&e),
    }
}
