//! `sobre node`: run your node, and look after it.

use super::common::{self};
use super::names::Names;
use crate::error::{self, CliError, CliResult};
use crate::t;
use sobre_node::api::replies::{SKEW_WARN_MS, StatusReply};
use sobre_node::api::request;
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
/// `games_verified_at_start` (the others were read from their verified summaries),
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
    if common::send(home, request::Status {}).is_ok() {
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
                t!(
                    "node-bad-multiaddr",
                    addr = sobre_node::words::quoted(&addr),
                    key = key.to_string(),
                    reason = reason.to_string()
                ),
                t!("hint-multiaddr-4848"),
            ));
        }
        settings::save(home, &effective).map_err(settings_error)?;
        eprintln!(
            "{}",
            t!(
                "node-settings-saved",
                path = settings::settings_path(home).display().to_string()
            )
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
        stranger_events_per_hour: None,
        max_strikes: None,
        max_peers: None,
        idle_timeout: None,
        reminders: effective.reminders,
        board: effective.board,
        board_port: effective.board_port,
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
/// `node_log`). Kademlia's behaviour is quiet below errors: its periodic bootstrap warns
/// every few minutes on a node that knows no DHT server yet (a player with no bootstrap
/// peer), which says nothing the node's own lines do not.
fn init_logging(log_file: Option<&Path>) -> CliResult<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new("sobre_node=info,warn,libp2p_kad::behaviour=error")
    });
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
            t!("no-player-key", home = home.display().to_string()),
            t!("hint-init"),
        ),
        NodeError::Address { .. } => error::user_hint(e.to_string(), t!("hint-multiaddr-4001")),
        NodeError::Control(ref io) if io.kind() == std::io::ErrorKind::AddrInUse => {
            already_running(home)
        }
        // A full or failing disk is the user's to fix, not a bug.
        NodeError::StorageFailed(_) => error::user(e.to_string()),
        // The player's to settle: which of the two nodes runs.
        NodeError::OtherInstance(_) => error::user(e.to_string()),
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
        board: saved.board,
        board_port: saved.board_port,
        reminders: saved.reminders,
    }
}

fn settings_error(e: SettingsError) -> CliError {
    let hint = match e {
        SettingsError::Read { .. } | SettingsError::Write { .. } => t!("settings-hint-io"),
        SettingsError::Malformed { .. } | SettingsError::BadAddress { .. } => {
            t!("settings-hint-malformed")
        }
    };
    error::user_hint(e.to_string(), hint)
}

fn already_running(home: &Path) -> CliError {
    error::user_hint(
        t!("node-already-running", home = home.display().to_string()),
        t!("node-hint-already-running"),
    )
}

fn status(home: &Path, args: StatusArgs) -> CliResult<ExitCode> {
    let v = common::send(home, request::Status {})?;
    if args.json {
        common::print_reply(&v)?;
        return Ok(ExitCode::SUCCESS);
    }
    let contacts = if v.opponents.is_empty() {
        None
    } else {
        Some(super::contacts::Contacts::load(home)?)
    };
    // Aliases first, then the names the opponents signed, then short ids.
    let names = contacts.as_ref().map(|c| Names::from_node(home, c));
    print!(
        "{}",
        status_text(home, &v, names.as_ref(), sobre_node::time::now_ms())
    );
    Ok(ExitCode::SUCCESS)
}

/// What `sobre node status` prints, at `now_ms`, in the run's language: labels in a column
/// as wide as the longest label of that language, plus one.
fn status_text(home: &Path, v: &StatusReply, names: Option<&Names>, now_ms: u64) -> String {
    const LABELS: [&str; 8] = [
        "status-label-player",
        "status-label-uptime",
        "status-label-peers",
        "status-label-games",
        "status-label-outbox",
        "status-label-mailbox",
        "status-label-reachable",
        "status-label-opponents",
    ];
    let width = crate::i18n::label_width(LABELS.iter(), 2);
    let row = |label: &str, value: String| format!("{:<width$}{value}\n", format!("{label}:"));
    let mut out = t!("status-running", home = home.display().to_string()) + "\n";
    out += &row(&t!("status-label-player"), v.player_id.clone());
    out += &row(
        &t!("status-label-uptime"),
        common::human_duration(i64::try_from(v.uptime_ms).unwrap_or(i64::MAX)),
    );
    out += &row(&t!("status-label-peers"), v.peers.to_string());
    out += &row(&t!("status-label-games"), v.games.to_string());
    out += &row(
        &t!("status-label-outbox"),
        t!("status-outbox", count = v.outbox),
    );
    if v.mailbox {
        out += &row(&t!("status-label-mailbox"), t!("status-mailbox"));
    }
    out += &row(&t!("status-label-reachable"), reachability_words(v));
    if let Some(names) = names.filter(|_| !v.opponents.is_empty()) {
        let connected = v.opponents.iter().filter(|o| o.connected).count();
        out += &row(
            &t!("status-label-opponents"),
            t!(
                "status-opponents",
                connected = connected,
                total = v.opponents.len()
            ),
        );
        out += &opponent_lines(v, names, now_ms);
    }
    out
}

/// Whether others can reach the node, in words, with what to do when they cannot.
fn reachability_words(v: &StatusReply) -> String {
    let relayed = match v.relays.as_slice() {
        [] => None,
        [one] => Some(t!("status-through-relay", relay = one)),
        many => Some(t!(
            "status-through-relays",
            count = many.len(),
            relays = many.join(", ")
        )),
    };
    match (v.reachability.as_str(), relayed) {
        ("public", _) => match v.public_address.as_deref() {
            Some(a) => t!("status-public", address = a),
            None => t!("status-public-this-node"),
        },
        ("private", Some(r)) => t!("status-private-relayed", relayed = r),
        ("private", None) => t!("status-private"),
        (_, Some(r)) => t!("status-unknown-relayed", relayed = r),
        _ => t!("status-unknown"),
    }
}

/// The player's opponents in unfinished games: connected, or when each was last seen.
fn opponent_lines(v: &StatusReply, names: &Names, now: u64) -> String {
    let mut out = String::new();
    for o in &v.opponents {
        let state = if o.connected {
            t!("status-connected")
        } else {
            match o.last_seen_ms {
                Some(t) => t!(
                    "status-last-seen",
                    ago = common::human_duration(
                        i64::try_from(now.saturating_sub(t)).unwrap_or(i64::MAX)
                    )
                ),
                None => t!("status-never-seen"),
            }
        };
        // Only a clock far off is worth a word here; `node doctor` says what to do.
        let clock = match o.clock_skew_ms {
            Some(s) if s.unsigned_abs() > SKEW_WARN_MS.unsigned_abs() => {
                let secs = s.unsigned_abs().div_ceil(1000);
                if s > 0 {
                    t!("status-clock-ahead", secs = secs)
                } else {
                    t!("status-clock-behind", secs = secs)
                }
            }
            _ => String::new(),
        };
        out += &format!("  {:<20} {state}{clock}\n", names.label(&o.player));
    }
    out
}

fn stop(home: &Path) -> CliResult<ExitCode> {
    common::send(home, request::Stop {})?;
    println!("{}", t!("node-stopping"));
    Ok(ExitCode::SUCCESS)
}

fn repair(home: &Path) -> CliResult<ExitCode> {
    if common::send(home, request::Status {}).is_ok() {
        return Err(error::user_hint(
            t!("node-running-in", home = home.display().to_string()),
            t!("node-hint-stop-first"),
        ));
    }
    println!(
        "{}",
        t!("node-rebuilding", home = home.display().to_string())
    );
    let s = service::repair(home).map_err(|e| node_error(home, e))?;
    println!(
        "{}",
        t!(
            "node-repaired",
            games = s.games_kept,
            events = s.events_kept,
            fetch = s.to_fetch,
            carried = s.carried.entries
        )
    );
    if s.carried.lost > 0 {
        println!("{}", t!("node-repair-lost", count = s.carried.lost));
    }
    if let Some(b) = &s.backup {
        println!(
            "{}",
            t!("node-repair-backup", path = b.display().to_string())
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod status_tests {
    use super::*;
    use crate::commands::common::assert_golden;
    use crate::commands::contacts::Contacts;
    use crate::i18n::{Language, with_lang};

    const NOW: u64 = 1_796_148_000_000;

    /// `node status` of a node behind NAT with a relay, a connected opponent and one last
    /// seen two days ago whose clock is 3 minutes ahead: the English and Spanish snapshots.
    #[test]
    fn node_status_reads_in_english_and_spanish() {
        let ana = "12D3KooWKYgsy9unLzD8DdwWxbRjrRmX5ZrV4YcXpKq1n6GJH7hs";
        let bruno = "12D3KooWBrunoBrunoBrunoBrunoBrunoBrunoBrunoBrunoBrun";
        let v: StatusReply = serde_json::from_value(serde_json::json!({
            "games": 3, "mailbox": true, "outbox": 2, "peers": 4,
            "player_id": "12D3KooWCarmenCarmenCarmenCarmenCarmenCarmenCarmenCa",
            "uptime_ms": 93_784_000u64, "reachability": "private", "public_address": null,
            "relays": ["/ip4/203.0.113.7/tcp/4848/p2p/12D3KooWRelay"],
            "opponents": [
                {"player": ana, "connected": true},
                {"player": bruno, "connected": false,
                 "last_seen_ms": NOW - 2 * 86_400_000 - 3_600_000, "clock_skew_ms": 180_000},
            ],
        }))
        .expect("a status reply");
        let mut contacts = Contacts::default();
        contacts.aliases.insert("ana".into(), ana.into());
        contacts.aliases.insert("bruno".into(), bruno.into());
        let names = Names::new(&contacts, Default::default());
        let home = Path::new("/home/carmen/.local/share/sobre");
        for (lang, file) in [
            (Language::English, "node_status.txt"),
            (Language::Spanish, "node_status_es.txt"),
        ] {
            let text = with_lang(lang, || status_text(home, &v, Some(&names), NOW));
            assert_golden(file, &text);
        }
    }
}
