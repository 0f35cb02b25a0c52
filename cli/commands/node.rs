//! `sobre node`: run your node, and look after it.

use super::common::{self, print_json};
use crate::error::{self, CliError, CliResult};
use sobre_node::api::ApiRequest;
use sobre_node::api::replies::{SKEW_WARN_MS, StatusReply};
use sobre_node::error::NodeError;
use sobre_node::home::KeyError;
use sobre_node::service::{self, NodeConfig};
use sobre_node::settings::{self, NodeSettings, SettingsError};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Run, inspect, stop or repair your node (one per home directory).
#[derive(clap::Subcommand)]
pub enum NodeCommand {
    Run(RunArgs),
    Status(StatusArgs),
    Stop(StopArgs),
    Repair(RepairArgs),
    Start(super::node_service::StartArgs),
    Install(super::node_service::InstallArgs),
    Doctor(super::node_service::DoctorArgs),
}

/// Run your node in the foreground until Ctrl-C, SIGTERM or `sobre node stop`.
///
/// The node keeps your games, signs your moves, delivers them to your opponents (retrying
/// until each one is acknowledged) and answers the other `sobre` commands through a socket
/// in the home directory. Settings come from HOME/node.toml (written by --save); each flag
/// given overrides its setting (a list flag replaces the saved list). Without --listen in
/// either, it listens on all interfaces on port 4848, TCP and QUIC (a random port, with a
/// warning, when 4848 is taken); `sobre id` prints the addresses to give to others.
#[derive(clap::Args)]
pub struct RunArgs {
    /// Listen on this multiaddr (repeatable), e.g. /ip4/0.0.0.0/tcp/4001.
    #[arg(long, value_name = "MULTIADDR")]
    listen: Vec<String>,
    /// An address others reach this node at (repeatable): a forwarded port of your router or
    /// a public host, e.g. /ip4/203.0.113.7/tcp/4848. Announced to peers and put in invites.
    #[arg(long, value_name = "MULTIADDR")]
    external: Vec<String>,
    /// Connect to this peer at start (repeatable), e.g. /ip4/1.2.3.4/tcp/4001/p2p/12D3KooW….
    #[arg(long, value_name = "MULTIADDR")]
    bootstrap: Vec<String>,
    /// Find peers on the local network (a club room) with mDNS (--mdns=false turns a saved
    /// setting off).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    mdns: Option<bool>,
    /// Relay connections for players behind NAT (for a node with a public address).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    relay_server: Option<bool>,
    /// Reserve a relayed address on this relay (repeatable; include /p2p/<relay id>).
    #[arg(long = "relay", value_name = "MULTIADDR")]
    relays: Vec<String>,
    /// Act as a mailbox: store and serve the games other players deliver here.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    mailbox: Option<bool>,
    /// Deliver your events to this mailbox too and catch up from it (repeatable).
    #[arg(long = "use-mailbox", value_name = "MULTIADDR")]
    mailboxes: Vec<String>,
    /// Do not settle a fair coin the challenger failed to open by yourself once its
    /// deadline has passed: you do it with `sobre coin default`.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    manual_coin_default: Option<bool>,
    /// Inbound connections accepted from one IP address (twice that from one /24 or /48
    /// network; default 32); your opponents and mailboxes are never refused. A mailbox whose
    /// players share one address raises it.
    #[arg(long, value_name = "N")]
    max_inbound_per_ip: Option<usize>,
    /// Write the settings this run uses (HOME/node.toml and the flags given) to
    /// HOME/node.toml, so that the next `sobre node run` needs no flags.
    #[arg(long)]
    save: bool,
    /// Ignore HOME/node.toml: use the flags given and the defaults only.
    #[arg(long)]
    no_settings: bool,
    /// Write the log to this file, rotated past 4 MiB, instead of standard error (what
    /// `sobre node start` uses).
    #[arg(long, value_name = "FILE", hide = true)]
    log_file: Option<PathBuf>,
}

/// Show whether your node runs, for how long, and how many peers, games and undelivered
/// events it has.
///
/// Also whether it is reachable from outside (AutoNAT: peers try to dial it back), through
/// which relay, and each opponent of an unfinished game: connected, or when last seen.
///
/// With --json, the node's status object: `player_id`, `uptime_ms`, `peers`, `games`,
/// `outbox`, `mailbox`, `reachability` (`public`, `private`, `unknown`), `public_address`,
/// `relays`, `opponents` (each {`player`, `connected`, `last_seen_ms`}).
#[derive(clap::Args)]
pub struct StatusArgs {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Stop your node gracefully, whether run in a terminal, by `node start` or as a service
/// (undelivered events stay in the outbox for the next run).
#[derive(clap::Args)]
pub struct StopArgs {}

/// Rebuild the node's database from the signed events it holds (the node must be stopped).
///
/// Every game is read back and verified; the old database is kept beside the new one.
/// Events that are missing are fetched again from peers by the next `sobre node run`.
#[derive(clap::Args)]
pub struct RepairArgs {}

pub fn run(home: &Path, cmd: NodeCommand) -> CliResult<ExitCode> {
    match cmd {
        NodeCommand::Run(a) => run_node(home, a),
        NodeCommand::Status(a) => status(home, a),
        NodeCommand::Stop(_) => stop(home),
        NodeCommand::Repair(_) => repair(home),
        NodeCommand::Start(a) => super::node_service::start(home, a),
        NodeCommand::Install(a) => super::node_service::install(home, a),
        NodeCommand::Doctor(a) => super::node_service::doctor(home, a),
    }
}

fn run_node(home: &Path, args: RunArgs) -> CliResult<ExitCode> {
    // Fail early, and with the usual messages, when there is no key or a node already runs
    // here (it holds the database lock, which would fail less clearly).
    common::load_key(home)?;
    if common::call(home, ApiRequest::Status).is_ok() {
        return Err(already_running(home));
    }
    let log_file = args.log_file.clone();
    let saved = if args.no_settings {
        NodeSettings::default()
    } else {
        settings::load(home)
            .map_err(settings_error)?
            .unwrap_or_default()
    };
    let save = args.save;
    let effective = effective_settings(saved, args);
    if save {
        // A typo in a flag must not be saved, to fail again at every start.
        if let Some((key, addr, reason)) = effective.bad_address() {
            return Err(error::user_hint(
                format!("bad multiaddr {addr:?} ({key}): {reason}; nothing saved"),
                "a multiaddr looks like /ip4/0.0.0.0/tcp/4848 or /ip4/1.2.3.4/udp/4848/quic-v1",
            ));
        }
        settings::save(home, &effective).map_err(settings_error)?;
        eprintln!(
            "settings saved to {}",
            settings::settings_path(home).display()
        );
    }
    let config = NodeConfig {
        home: home.to_path_buf(),
        listen: effective.listen,
        external: effective.external,
        bootstrap: effective.bootstrap,
        mdns: effective.mdns,
        relay_server: effective.relay_server,
        relays: effective.relays,
        mailbox: effective.mailbox,
        mailboxes: effective.mailboxes,
        manual_coin_default: effective.manual_coin_default,
        max_inbound_per_ip: effective.max_inbound_per_ip,
        sync_bytes_per_minute: None,
        reminders: effective.reminders,
    };
    init_logging(log_file.as_deref())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime
        .block_on(service::run(config, shutdown_signal()))
        .map_err(|e| node_error(home, e))?;
    Ok(ExitCode::SUCCESS)
}

/// Logs to standard error, filtered by `RUST_LOG` (default: the node's own info lines and
/// warnings from the network stack), with peer and game ids as fields; colours only on a
/// terminal (a log redirected to a file or a service manager's journal stays plain text), and
/// none with `NO_COLOR` set. With `log_file`, to that file instead, rotated as it grows (see
/// `node_log`).
fn init_logging(log_file: Option<&Path>) -> CliResult<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("sobre_node=info,warn"));
    let fmt = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false);
    let _ = match log_file {
        Some(path) => {
            let log = super::node_log::RotatingLog::open(path, super::node_log::LOG_ROTATE_BYTES)?;
            fmt.with_writer(move || log.clone())
                .with_ansi(false)
                .try_init()
        }
        None => fmt
            .with_writer(std::io::stderr)
            .with_ansi(crate::color::stderr())
            .try_init(),
    };
    Ok(())
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        }
        // Without a SIGTERM handler, Ctrl-C still stops the node.
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Sorts the node's errors into the user's to fix and the rest.
fn node_error(home: &Path, e: NodeError) -> CliError {
    match e {
        NodeError::Key(KeyError::Missing(_)) => error::user_hint(
            format!("no player key in {}", home.display()),
            "create one with `sobre init --name NAME`",
        ),
        NodeError::Address { .. } => error::user_hint(
            e.to_string(),
            "a multiaddr looks like /ip4/0.0.0.0/tcp/4001 or /ip4/1.2.3.4/udp/4001/quic-v1",
        ),
        NodeError::Control(ref io) if io.kind() == std::io::ErrorKind::AddrInUse => {
            already_running(home)
        }
        // A full or failing disk is the user's to fix, not a bug.
        NodeError::StorageFailed(_) => error::user(e.to_string()),
        other => CliError::bug(other),
    }
}

/// The saved settings with the flags given laid over them: a list flag replaces the saved
/// list, a switch or a number replaces its setting.
fn effective_settings(saved: NodeSettings, args: RunArgs) -> NodeSettings {
    let list = |flag: Vec<String>, saved: Vec<String>| if flag.is_empty() { saved } else { flag };
    NodeSettings {
        listen: list(args.listen, saved.listen),
        external: list(args.external, saved.external),
        bootstrap: list(args.bootstrap, saved.bootstrap),
        relays: list(args.relays, saved.relays),
        mailboxes: list(args.mailboxes, saved.mailboxes),
        mdns: args.mdns.unwrap_or(saved.mdns),
        relay_server: args.relay_server.unwrap_or(saved.relay_server),
        mailbox: args.mailbox.unwrap_or(saved.mailbox),
        manual_coin_default: args
            .manual_coin_default
            .unwrap_or(saved.manual_coin_default),
        max_inbound_per_ip: args.max_inbound_per_ip.or(saved.max_inbound_per_ip),
        reminders: saved.reminders,
    }
}

fn settings_error(e: SettingsError) -> CliError {
    let hint = match e {
        SettingsError::Read { .. } | SettingsError::Write { .. } => {
            "check the home directory's permissions and free space"
        }
        SettingsError::Malformed { .. } | SettingsError::BadAddress { .. } => {
            "fix that line of node.toml, or run `sobre node run --no-settings …` and --save"
        }
    };
    error::user_hint(e.to_string(), hint)
}

fn already_running(home: &Path) -> CliError {
    error::user_hint(
        format!("a node is already running in {}", home.display()),
        "stop it with `sobre node stop`, or use another --home",
    )
}

fn status(home: &Path, args: StatusArgs) -> CliResult<ExitCode> {
    let v = common::call(home, ApiRequest::Status)?;
    if args.json {
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    let v: StatusReply = common::reply(v)?;
    println!("node running in {}", home.display());
    println!("player id: {}", v.player_id);
    println!(
        "uptime:    {}",
        common::human_duration(i64::try_from(v.uptime_ms).unwrap_or(i64::MAX))
    );
    println!("peers:     {}", v.peers);
    println!("games:     {}", v.games);
    println!("outbox:    {} event(s) awaiting a receipt", v.outbox);
    if v.mailbox {
        println!("mailbox:   serving other players' games");
    }
    println!("reachable: {}", reachability_words(&v));
    print_opponents(home, &v)?;
    Ok(ExitCode::SUCCESS)
}

/// Whether others can reach the node, in words, with what to do when they cannot.
fn reachability_words(v: &StatusReply) -> String {
    let relayed = match v.relays.as_slice() {
        [] => None,
        [one] => Some(format!("through relay {one}")),
        many => Some(format!(
            "through {} relays ({})",
            many.len(),
            many.join(", ")
        )),
    };
    match (v.reachability.as_str(), relayed) {
        ("public", _) => format!(
            "yes, directly: peers reached {}",
            v.public_address.as_deref().unwrap_or("this node")
        ),
        ("private", Some(r)) => format!("not directly (behind NAT or a firewall); {r}"),
        ("private", None) => "no: behind NAT or a firewall, and no relay. Forward port 4848              (TCP and UDP) on your router and declare it with `sobre node run --external              /ip4/PUBLIC_IP/tcp/4848 --save`, or use a relay (`--relay ADDR --save`)"
            .to_owned(),
        (_, Some(r)) => format!("{r}; directly not known yet"),
        _ => "not known yet (peers test it once a few are connected); opponents who know \
              your address or your invite can still reach you"
            .to_owned(),
    }
}

/// The player's opponents in unfinished games: connected, or when each was last seen.
fn print_opponents(home: &Path, v: &StatusReply) -> CliResult<()> {
    if v.opponents.is_empty() {
        return Ok(());
    }
    let contacts = super::contacts::Contacts::load(home)?;
    // Aliases first, then the names the opponents signed, then short ids.
    let names = super::names::Names::from_node(home, &contacts);
    let connected = v.opponents.iter().filter(|o| o.connected).count();
    println!("opponents: {connected} of {} connected", v.opponents.len());
    let now = sobre_node::time::now_ms();
    for o in &v.opponents {
        let state = if o.connected {
            "connected".to_owned()
        } else {
            match o.last_seen_ms {
                Some(t) => format!(
                    "last seen {} ago",
                    common::human_duration(
                        i64::try_from(now.saturating_sub(t)).unwrap_or(i64::MAX)
                    )
                ),
                None => "never seen by this node".to_owned(),
            }
        };
        // Only a clock far off is worth a word here; `node doctor` says what to do.
        let clock = match o.clock_skew_ms {
            Some(s) if s.unsigned_abs() > SKEW_WARN_MS.unsigned_abs() => format!(
                "; clock {} s {} yours (see `sobre node doctor`)",
                s.unsigned_abs().div_ceil(1000),
                if s > 0 { "ahead of" } else { "behind" }
            ),
            _ => String::new(),
        };
        println!("  {:<20} {state}{clock}", names.label(&o.player));
    }
    Ok(())
}

fn stop(home: &Path) -> CliResult<ExitCode> {
    common::call(home, ApiRequest::Stop)?;
    println!("node stopping");
    Ok(ExitCode::SUCCESS)
}

fn repair(home: &Path) -> CliResult<ExitCode> {
    if common::call(home, ApiRequest::Status).is_ok() {
        return Err(error::user_hint(
            format!("the node is running in {}", home.display()),
            "stop it first with `sobre node stop`",
        ));
    }
    println!(
        "rebuilding the database in {} from its signed events",
        home.display()
    );
    let summary = service::repair(home).map_err(|e| node_error(home, e))?;
    println!("{summary}");
    Ok(ExitCode::SUCCESS)
}
