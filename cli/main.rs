//! `sobre`: the command line of sobre. Thin: parses arguments, calls the libraries, renders.
//! Errors become one line and an exit code in one place ([`error::report`]).

// Files, archives and the node's answers are data: errors, never panics (tests may unwrap,
// see clippy.toml).
#![deny(clippy::unwrap_used, clippy::expect_used)]

mod board;
mod color;
mod commands;
mod error;
mod i18n;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// sobre: peer-to-peer correspondence chess and adjourned games.
#[derive(Parser)]
// Help wraps to the terminal (clap's `wrap_help`), but never wider than 100 columns: long
// lines are hard to read on a wide terminal.
#[command(name = "sobre", version, about, long_about = None, max_term_width = 100)]
struct Cli {
    /// The home directory: your key, games and the node's socket (default: the platform's
    /// data directory).
    #[arg(long, global = true, env = "SOBRE_HOME", value_name = "DIR")]
    home: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Init(commands::init::Args),
    Id(commands::id::Args),
    #[command(subcommand)]
    Node(commands::node::NodeCommand),
    #[command(subcommand)]
    Peers(commands::peers::PeersCommand),
    #[command(subcommand)]
    Contacts(commands::contacts::ContactsCommand),
    #[command(subcommand)]
    Profile(commands::profile::ProfileCommand),
    #[command(subcommand)]
    Key(commands::key::KeyCommand),
    Block(commands::block::Args),
    Challenge(commands::challenge::Args),
    Accept(commands::accept::Args),
    Decline(commands::decline::Args),
    Abort(commands::abort::Args),
    Games(commands::games::Args),
    Show(commands::show::Args),
    Move(commands::r#move::Args),
    Draw(commands::draw::Args),
    Claim(commands::claim::Args),
    Resign(commands::resign::Args),
    Adjourn(commands::adjourn::Args),
    Resume(commands::resume::Args),
    Envelope(commands::envelope::Args),
    #[command(subcommand)]
    Arbiter(commands::arbiter::ArbiterCommand),
    Conditional(commands::conditional::Args),
    Chat(commands::chat::Args),
    #[command(subcommand)]
    Coin(commands::coin::CoinCommand),
    Watch(commands::watch::Args),
    Board(commands::board::Args),
    Reminders(commands::reminders::Args),
    #[command(subcommand)]
    Leave(commands::leave::LeaveCommand),
    Export(commands::export::Args),
    /// Round-robin leagues (Berger tables) played over the network: create, join, pairings,
    /// standings with tie-breaks, crosstable, arbiter's decisions, export and offline verify.
    #[command(subcommand)]
    League(commands::league::LeagueCommand),
    Demo(commands::demo::Args),
    Perft(commands::perft::Args),
    Position(commands::position::Args),
    #[command(subcommand)]
    Pgn(commands::pgn::PgnCommand),
    Verify(commands::verify::Args),
    Invite(commands::invite::Args),
    Connect(commands::invite::ConnectArgs),
    Completions(commands::completions::Args),
    Man(commands::man::Args),
}

fn main() -> ExitCode {
    // The language is needed before parsing (help and parse errors are written while
    // parsing), and it may come from the settings in the home: find the home first.
    let lang = i18n::for_home(&sobre_node::home::resolve(home_arg().as_deref()));
    i18n::set(lang);
    let matches = match command(lang).try_get_matches() {
        Ok(m) => m,
        Err(e) => match i18n::parse_error::message(&e, lang) {
            Some(text) => {
                eprint!("{text}");
                return ExitCode::from(2);
            }
            // Help, version and the rarer mistakes: clap prints them (the help already in
            // the run's language).
            None => e.exit(),
        },
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let home = sobre_node::home::resolve(cli.home.as_deref());
    let home = home.as_path();
    let result = match cli.command {
        Command::Init(args) => commands::init::run(home, args),
        Command::Id(args) => commands::id::run(home, args),
        Command::Node(cmd) => commands::node::run(home, cmd),
        Command::Peers(cmd) => commands::peers::run(home, cmd),
        Command::Contacts(cmd) => commands::contacts::run(home, cmd),
        Command::Profile(cmd) => commands::profile::run(home, cmd),
        Command::Key(cmd) => commands::key::run(home, cmd),
        Command::Block(args) => commands::block::run(home, args),
        Command::Challenge(args) => commands::challenge::run(home, args),
        Command::Accept(args) => commands::accept::run(home, args),
        Command::Decline(args) => commands::decline::run(home, args),
        Command::Abort(args) => commands::abort::run(home, args),
        Command::Games(args) => commands::games::run(home, args),
        Command::Show(args) => commands::show::run(home, args),
        Command::Move(args) => commands::r#move::run(home, args),
        Command::Draw(args) => commands::draw::run(home, args),
        Command::Claim(args) => commands::claim::run(home, args),
        Command::Resign(args) => commands::resign::run(home, args),
        Command::Adjourn(args) => commands::adjourn::run(home, args),
        Command::Resume(args) => commands::resume::run(home, args),
        Command::Envelope(args) => commands::envelope::run(home, args),
        Command::Arbiter(cmd) => commands::arbiter::run(home, cmd),
        Command::Conditional(args) => commands::conditional::run(home, args),
        Command::Chat(args) => commands::chat::run(home, args),
        Command::Coin(cmd) => commands::coin::run(home, cmd),
        Command::Watch(args) => commands::watch::run(home, args),
        Command::Board(args) => commands::board::run(home, args),
        Command::Reminders(args) => commands::reminders::run(home, args),
        Command::Leave(cmd) => commands::leave::run(home, cmd),
        Command::Export(args) => commands::export::run(home, args),
        Command::League(cmd) => commands::league::run(home, cmd),
        Command::Demo(args) => commands::demo::run(args),
        Command::Perft(args) => commands::perft::run(args),
        Command::Position(args) => commands::position::run(args),
        Command::Pgn(cmd) => commands::pgn::run(cmd),
        Command::Verify(args) => commands::verify::run(args),
        Command::Invite(args) => commands::invite::run(home, args),
        Command::Connect(args) => commands::invite::connect(home, args),
        Command::Completions(args) => commands::completions::run(args, command(lang)),
        Command::Man(args) => commands::man::run(args, command(lang)),
    };
    match result {
        Ok(code) => code,
        Err(e) => error::report(&e),
    }
}

/// The whole command line, its help in `lang`.
fn command(lang: i18n::Language) -> clap::Command {
    i18n::help::localise(Cli::command(), lang)
}

/// `--home DIR` or `--home=DIR` on the command line, read before clap parses it (it says
/// where the settings with the language are); `SOBRE_HOME` is read by
/// [`sobre_node::home::resolve`]. Anything after `--` is an operand, not an option.
fn home_arg() -> Option<PathBuf> {
    let mut args = std::env::args_os().skip(1);
    while let Some(a) = args.next() {
        if a == "--" {
            break;
        }
        if a == "--home" {
            return args.next().map(PathBuf::from);
        }
        if let Some(dir) = a.to_str().and_then(|s| s.strip_prefix("--home=")) {
            return Some(PathBuf::from(dir));
        }
    }
    None
}
