//! `sobre board`: open your games in the browser, served by your own node.

use super::common;
use crate::error::CliResult;
use crate::t;
use sobre_node::api::request;
use std::path::Path;
use std::process::{ExitCode, Stdio};

/// Open the board in your browser: your games, the board to move on, challenges and
/// leagues, served by your node on this machine only (127.0.0.1).
///
/// Prints a URL that opens the board once (its token is spent by the first load, which keeps
/// a session cookie instead) and tries to open it in your browser. The board stays served
/// until the node stops; `board = true` in HOME/node.toml serves it from the start, and
/// `board_port` fixes its port. With --json, one object: `url`.
#[derive(clap::Args)]
pub struct Args {
    /// Only print the URL; do not start a browser.
    #[arg(long)]
    no_open: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let reply = common::send(home, request::Board {})?;
    if args.json {
        common::print_reply(&reply)?;
    } else {
        println!("{}", t!("board-url", url = reply.url.clone()));
    }
    if !args.no_open && !open_browser(&reply.url) {
        eprintln!("{}", t!("board-no-browser"));
    }
    Ok(ExitCode::SUCCESS)
}

/// Asks the desktop to open `url`; whether a program took it. No browser (a server, a
/// container) is not an error: the URL is printed.
fn open_browser(url: &str) -> bool {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    std::process::Command::new(opener)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
