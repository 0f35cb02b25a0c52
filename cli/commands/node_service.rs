//! `sobre node start`, `node install` and `node doctor`: a node that keeps running without a
//! terminal, and a check of the common faults with what to do about each.

use super::{common, node_log};
use crate::error::{self, CliError, CliResult};
use sobre_node::api::ApiRequest;
use sobre_node::api::replies::{IdReply, SKEW_WARN_MS, StatusReply};
use sobre_node::client::ClientError;
use sobre_node::network::port::{DEFAULT_PORT, port_free};
use sobre_node::settings::{self, NodeSettings};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

/// The node's log when started in the background.
pub const LOG_FILE: &str = "node.log";
/// How long `node start` waits for the node to answer.
const START_WAIT: Duration = Duration::from_secs(20);

/// Run your node in the background, its log in HOME/node.log (moved to node.log.1, replacing
/// the older one, whenever it grows past 4 MiB, also while the node runs); `sobre node stop`
/// stops it.
///
/// It runs `sobre node run` with the settings of HOME/node.toml and the flags given after
/// `--`, e.g. `sobre node start -- --mdns`.
#[derive(clap::Args)]
pub struct StartArgs {
    /// Flags for `sobre node run`.
    #[arg(last = true, value_name = "RUN_FLAGS")]
    run_args: Vec<String>,
}

/// Install your node as a service that starts at login and restarts on failure: a systemd
/// user unit on Linux (~/.config/systemd/user/sobre-node.service), a launchd agent on macOS
/// (~/Library/LaunchAgents/org.sobre.node.plist). It runs `sobre node run` with the settings
/// of HOME/node.toml (save them first with `sobre node run … --save`).
#[derive(clap::Args)]
pub struct InstallArgs {
    /// Print the unit instead of writing it.
    #[arg(long)]
    print: bool,
}

/// Check the common faults — no key, a damaged node.toml, the default port taken, no
/// bootstrap node, no mailbox, not reachable from outside — and say how to fix each.
///
/// Exits with 1 when something needs fixing. (Clock skew against peers is not checked yet.)
#[derive(clap::Args)]
pub struct DoctorArgs {}

pub fn start(home: &Path, args: StartArgs) -> CliResult<ExitCode> {
    common::load_key(home)?;
    if common::call(home, ApiRequest::Status).is_ok() {
        return Err(error::user_hint(
            format!("a node is already running in {}", home.display()),
            "stop it with `sobre node stop`",
        ));
    }
    let log_path = home.join(LOG_FILE);
    node_log::rotate_if_large(&log_path, node_log::LOG_ROTATE_BYTES)?;
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)?;
    writeln!(
        log,
        "--- sobre node start, {} ms",
        sobre_node::time::now_ms()
    )?;
    let exe = std::env::current_exe()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("--home")
        .arg(home)
        .args(["node", "run"])
        .args(&args.run_args)
        // The node writes its log itself, rotating it as it grows; what goes to its standard
        // error besides (a failure to start) lands in the same file.
        .arg("--log-file")
        .arg(&log_path)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log);
    // Its own process group: a Ctrl-C or a closed terminal does not reach it.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd.spawn()?;
    let deadline = Instant::now() + START_WAIT;
    loop {
        if common::call(home, ApiRequest::Status).is_ok() {
            break;
        }
        if let Some(status) = child.try_wait()? {
            let text = std::fs::read_to_string(&log_path).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(5).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(error::user_hint(
                format!("the node stopped at once ({status}): {}", tail.join(" / ")),
                format!("see {}", log_path.display()),
            ));
        }
        if Instant::now() > deadline {
            return Err(error::user_hint(
                "the node has not answered yet",
                format!(
                    "see {}; `sobre node status` tells when it is up",
                    log_path.display()
                ),
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    println!(
        "node running in the background (pid {}); log: {}; stop it with `sobre node stop`",
        child.id(),
        log_path.display()
    );
    Ok(ExitCode::SUCCESS)
}

pub fn install(home: &Path, args: InstallArgs) -> CliResult<ExitCode> {
    common::load_key(home)?;
    let exe = std::env::current_exe()?;
    let home = std::path::absolute(home)?;
    let (path, text, next) = if cfg!(target_os = "macos") {
        let dir = user_home()?.join("Library/LaunchAgents");
        (
            dir.join("org.sobre.node.plist"),
            launchd_plist(&exe, &home),
            "load it with `launchctl load -w ~/Library/LaunchAgents/org.sobre.node.plist`",
        )
    } else {
        let config = match std::env::var_os("XDG_CONFIG_HOME") {
            Some(d) if !d.is_empty() => PathBuf::from(d),
            _ => user_home()?.join(".config"),
        };
        (
            config.join("systemd/user/sobre-node.service"),
            systemd_unit(&exe, &home),
            "start it now and at every login with `systemctl --user daemon-reload && systemctl --user enable --now sobre-node`",
        )
    };
    if args.print {
        print!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, &text)?;
    std::fs::rename(&tmp, &path)?;
    println!("wrote {}", path.display());
    println!("{next}");
    if !settings::settings_path(&home).exists() {
        println!(
            "note: no {} yet: the service runs with the defaults (save yours with `sobre node run … --save`)",
            settings::SETTINGS_FILE
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn user_home() -> CliResult<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| error::user("HOME is not set: cannot find where the unit goes"))
}

/// A systemd unit argument: quoted, with `%` (specifiers), `\` and `"` escaped.
fn systemd_quote(p: &Path) -> String {
    let s = p.display().to_string();
    let escaped = s
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('%', "%%");
    format!("\"{escaped}\"")
}

/// The systemd user unit running `sobre node run` for `home`, restarted on failure.
pub fn systemd_unit(exe: &Path, home: &Path) -> String {
    format!(
        "[Unit]\n\
         Description=sobre node (correspondence chess) for {home}\n\
         After=network-online.target\n\
         Wants=network-online.target\n\
         \n\
         [Service]\n\
         Type=simple\n\
         ExecStart={exe} --home {qhome} node run\n\
         Restart=on-failure\n\
         RestartSec=10\n\
         \n\
         [Install]\n\
         WantedBy=default.target\n",
        home = home.display().to_string().replace('%', "%%"),
        exe = systemd_quote(exe),
        qhome = systemd_quote(home),
    )
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The launchd agent running `sobre node run` for `home`, restarted when it fails.
pub fn launchd_plist(exe: &Path, home: &Path) -> String {
    let arg = |s: &str| format!("    <string>{}</string>\n", xml_escape(s));
    let log = home.join(LOG_FILE);
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n\
         <plist version=\"1.0\">\n<dict>\n\
         <key>Label</key><string>org.sobre.node</string>\n\
         <key>ProgramArguments</key>\n<array>\n{}{}{}{}{}</array>\n\
         <key>RunAtLoad</key><true/>\n\
         <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>\n\
         <key>StandardErrorPath</key><string>{}</string>\n\
         </dict>\n</plist>\n",
        arg(&exe.display().to_string()),
        arg("--home"),
        arg(&home.display().to_string()),
        arg("node"),
        arg("run"),
        xml_escape(&log.display().to_string()),
    )
}

/// One finding of `node doctor`.
struct Finding {
    ok: bool,
    what: String,
    fix: Option<String>,
}

fn ok(what: impl Into<String>) -> Finding {
    Finding {
        ok: true,
        what: what.into(),
        fix: None,
    }
}

fn problem(what: impl Into<String>, fix: impl Into<String>) -> Finding {
    Finding {
        ok: false,
        what: what.into(),
        fix: Some(fix.into()),
    }
}

/// The opponents whose clocks are far from ours (see `OpponentEntry::clock_skew_ms`): one of
/// the two clocks is wrong, and past two minutes the receiver refuses the other's events.
fn clock_findings(status: &StatusReply) -> Vec<Finding> {
    let measured: Vec<(&str, i64)> = status
        .opponents
        .iter()
        .filter_map(|o| Some((o.player.as_str(), o.clock_skew_ms?)))
        .collect();
    let mut found: Vec<Finding> = measured
        .iter()
        .filter(|(_, skew)| skew.unsigned_abs() > SKEW_WARN_MS.unsigned_abs())
        .map(|(player, skew)| {
            let secs = skew.unsigned_abs().div_ceil(1000);
            let side = if *skew > 0 { "ahead of" } else { "behind" };
            problem(
                format!("the clock of opponent {player} is about {secs} s {side} this computer's: events dated more than 2 minutes from the receiver's clock are refused"),
                "check that this computer's clock is synchronised (`timedatectl` should say `System clock synchronized: yes`; enable NTP with `timedatectl set-ntp true`), and ask your opponent to check theirs",
            )
        })
        .collect();
    if found.is_empty() && !measured.is_empty() {
        found.push(ok(format!(
            "clocks: {} opponent(s) measured, all within {} s of this computer's",
            measured.len(),
            SKEW_WARN_MS / 1000
        )));
    }
    found
}

pub fn doctor(home: &Path, _args: DoctorArgs) -> CliResult<ExitCode> {
    let mut found = Vec::new();
    match sobre_node::home::load_key(home) {
        Ok(k) => found.push(ok(format!("player key: {}", k.player_id()))),
        Err(e) => found.push(problem(
            e.to_string(),
            "create one with `sobre init --name NAME`",
        )),
    }
    let saved = match settings::load(home) {
        Ok(Some(s)) => {
            found.push(ok(format!(
                "settings: {}",
                settings::settings_path(home).display()
            )));
            s
        }
        Ok(None) => {
            found.push(ok(
                "settings: none saved (defaults; save yours with `sobre node run … --save`)",
            ));
            NodeSettings::default()
        }
        Err(e) => {
            found.push(problem(e.to_string(), "fix that line of node.toml"));
            NodeSettings::default()
        }
    };
    let running: Option<(StatusReply, IdReply)> = match common::call_as(home, ApiRequest::Status) {
        Ok(status) => Some((status, common::call_as(home, ApiRequest::Id)?)),
        Err(CliError::Node(ClientError::NotRunning { .. })) => None,
        Err(e) => return Err(e),
    };
    let port_fix = format!(
        "free port {DEFAULT_PORT} or choose another with `sobre node run --listen /ip4/0.0.0.0/tcp/PORT --listen /ip4/0.0.0.0/udp/PORT/quic-v1 --save` (and forward that one)"
    );
    match &running {
        None => {
            found.push(ok("node: not running (start it with `sobre node start`)"));
            if saved.listen.is_empty() && !port_free(DEFAULT_PORT) {
                found.push(problem(
                    format!("port {DEFAULT_PORT} is taken by another program: your node would take a random port, so your address would change at every start"),
                    port_fix,
                ));
            }
        }
        Some((status, id)) => {
            found.push(ok("node: running"));
            let on_default = id
                .addresses
                .iter()
                .any(|a| a.contains(&format!("/tcp/{DEFAULT_PORT}/")));
            if saved.listen.is_empty() && !on_default {
                found.push(problem(
                    format!("port {DEFAULT_PORT} was taken when the node started: it listens on a random port, so its address changes at every start"),
                    port_fix,
                ));
            }
            match (status.reachability.as_str(), status.relays.is_empty()) {
                ("public", _) => found.push(ok("reachable from outside")),
                (_, false) => found.push(ok(format!(
                    "reachable through relay {}",
                    status.relays.join(", ")
                ))),
                ("private", true) => found.push(problem(
                    "not reachable from outside (behind NAT or a firewall), and no relay",
                    format!("forward port {DEFAULT_PORT} (TCP and UDP) on your router and run `sobre node run --external /ip4/PUBLIC_IP/tcp/{DEFAULT_PORT} --save`, or use a relay with `--relay ADDR --save`"),
                )),
                _ => found.push(ok(
                    "reachability from outside: not known yet (peers test it once a few are connected)",
                )),
            }
            found.extend(clock_findings(status));
        }
    }
    if saved.bootstrap.is_empty() {
        found.push(problem(
            "no bootstrap node saved: a player whose address changed is found only through remembered addresses and invites",
            "add a club or public node with `sobre node run --bootstrap /dns4/HOST/tcp/4848/p2p/ID --save`",
        ));
    } else {
        found.push(ok(format!("bootstrap nodes: {}", saved.bootstrap.len())));
    }
    if saved.mailboxes.is_empty() && !saved.mailbox {
        found.push(problem(
            "no mailbox saved: your moves wait until your opponent's node and yours are online together",
            "use one with `sobre node run --use-mailbox /dns4/HOST/tcp/4848/p2p/ID --save`",
        ));
    } else {
        found.push(ok(format!("mailboxes: {}", saved.mailboxes.len())));
    }
    let problems = found.iter().filter(|f| !f.ok).count();
    for f in &found {
        println!("{:<8}{}", if f.ok { "ok" } else { "problem" }, f.what);
        if let Some(fix) = &f.fix {
            println!("{:<8}fix: {fix}", "");
        }
    }
    if problems == 0 {
        println!("nothing to fix");
        Ok(ExitCode::SUCCESS)
    } else {
        println!("{problems} thing(s) to fix");
        Ok(ExitCode::from(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_far_clock_is_a_problem_naming_the_opponent() {
        use sobre_node::api::replies::OpponentEntry;
        let entry = |player: &str, skew: Option<i64>| OpponentEntry {
            player: player.into(),
            clock_skew_ms: skew,
            ..OpponentEntry::default()
        };
        let mut status = StatusReply {
            opponents: vec![entry("near", Some(-2_000)), entry("unmeasured", None)],
            ..StatusReply::default()
        };
        let found = clock_findings(&status);
        assert!(found.len() == 1 && found[0].ok, "{:?}", found[0].what);
        status.opponents.push(entry("far", Some(-90_500)));
        let found = clock_findings(&status);
        assert_eq!(found.len(), 1);
        assert!(!found[0].ok);
        assert!(
            found[0].what.contains("opponent far is about 91 s behind"),
            "{}",
            found[0].what
        );
        assert!(
            found[0]
                .fix
                .as_deref()
                .is_some_and(|f| f.contains("timedatectl"))
        );
    }

    #[test]
    fn unit_arguments_are_quoted_and_escaped() {
        let unit = systemd_unit(
            Path::new("/opt/sobre/bin/sobre"),
            Path::new("/home/ana/My Games/100%"),
        );
        assert!(
            unit.contains(
                "ExecStart=\"/opt/sobre/bin/sobre\" --home \"/home/ana/My Games/100%%\" node run\n"
            ),
            "{unit}"
        );
        assert!(unit.contains("Restart=on-failure\n"));
        let plist = launchd_plist(Path::new("/usr/local/bin/sobre"), Path::new("/Users/a&b"));
        assert!(plist.contains("<string>/Users/a&amp;b</string>"), "{plist}");
        assert!(
            plist.contains("<string>/Users/a&amp;b/node.log</string>"),
            "{plist}"
        );
    }
}
