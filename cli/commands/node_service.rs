//! `sobre node start`, `node install` and `node doctor`: a node that keeps running without a
//! terminal, and a check of the common faults with what to do about each.

use super::{common, node_log};
use crate::error::{self, CliError, CliResult};
use crate::t;
use sobre_node::api::replies::{IdReply, SKEW_WARN_MS, StatusReply};
use sobre_node::api::request;
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
    if common::send(home, request::Status {}).is_ok() {
        return Err(error::user_hint(
            t!("node-already-running", home = home.display().to_string()),
            t!("service-hint-stop"),
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
        if common::send(home, request::Status {}).is_ok() {
            break;
        }
        if let Some(status) = child.try_wait()? {
            let text = std::fs::read_to_string(&log_path).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(5).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(error::user_hint(
                t!(
                    "service-stopped-at-once",
                    status = status.to_string(),
                    tail = tail.join(" / ")
                ),
                t!("service-see", path = log_path.display().to_string()),
            ));
        }
        if Instant::now() > deadline {
            return Err(error::user_hint(
                t!("service-not-answered"),
                t!(
                    "service-hint-not-answered",
                    path = log_path.display().to_string()
                ),
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    println!(
        "{}",
        t!(
            "service-started",
            pid = child.id(),
            log = log_path.display().to_string()
        )
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
            t!("service-next-launchd"),
        )
    } else {
        let config = match std::env::var_os("XDG_CONFIG_HOME") {
            Some(d) if !d.is_empty() => PathBuf::from(d),
            _ => user_home()?.join(".config"),
        };
        (
            config.join("systemd/user/sobre-node.service"),
            systemd_unit(&exe, &home),
            t!("service-next-systemd"),
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
    println!("{}", t!("wrote-file", path = path.display().to_string()));
    println!("{next}");
    if !settings::settings_path(&home).exists() {
        println!(
            "{}",
            t!("service-no-settings", file = settings::SETTINGS_FILE)
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn user_home() -> CliResult<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| error::user(t!("service-no-home")))
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
            let what = if *skew > 0 {
                t!("doctor-clock-ahead", player = *player, secs = secs)
            } else {
                t!("doctor-clock-behind", player = *player, secs = secs)
            };
            problem(what, t!("doctor-clock-fix"))
        })
        .collect();
    if found.is_empty() && !measured.is_empty() {
        found.push(ok(t!(
            "doctor-clocks-ok",
            count = measured.len(),
            secs = SKEW_WARN_MS / 1000
        )));
    }
    found
}

pub fn doctor(home: &Path, _args: DoctorArgs) -> CliResult<ExitCode> {
    let mut found = Vec::new();
    match sobre_node::home::load_key(home) {
        Ok(k) => found.push(ok(t!("doctor-key", id = k.player_id().to_string()))),
        Err(e) => found.push(problem(crate::i18n::errors::key(&e), t!("hint-init"))),
    }
    let saved = match settings::load(home) {
        Ok(Some(s)) => {
            found.push(ok(t!(
                "doctor-settings",
                path = settings::settings_path(home).display().to_string()
            )));
            s
        }
        Ok(None) => {
            found.push(ok(t!("doctor-settings-none")));
            NodeSettings::default()
        }
        Err(e) => {
            found.push(problem(e.to_string(), t!("doctor-settings-fix")));
            NodeSettings::default()
        }
    };
    let running: Option<(StatusReply, IdReply)> = match common::send(home, request::Status {}) {
        Ok(status) => Some((status, common::send(home, request::Id {})?)),
        Err(CliError::Node(ClientError::NotRunning { .. })) => None,
        Err(e) => return Err(e),
    };
    let port_fix = t!("doctor-port-fix", port = DEFAULT_PORT);
    match &running {
        None => {
            found.push(ok(t!("doctor-not-running")));
            if saved.listen.is_empty() && !port_free(DEFAULT_PORT) {
                found.push(problem(
                    t!("doctor-port-taken", port = DEFAULT_PORT),
                    port_fix,
                ));
            }
        }
        Some((status, id)) => {
            found.push(ok(t!("doctor-running")));
            let on_default = id
                .addresses
                .iter()
                .any(|a| a.contains(&format!("/tcp/{DEFAULT_PORT}/")));
            if saved.listen.is_empty() && !on_default {
                found.push(problem(
                    t!("doctor-port-was-taken", port = DEFAULT_PORT),
                    port_fix,
                ));
            }
            match (status.reachability.as_str(), status.relays.is_empty()) {
                ("public", _) => found.push(ok(t!("doctor-reachable"))),
                (_, false) => found.push(ok(t!(
                    "doctor-reachable-relay",
                    relays = status.relays.join(", ")
                ))),
                ("private", true) => found.push(problem(
                    t!("doctor-not-reachable"),
                    t!("doctor-not-reachable-fix", port = DEFAULT_PORT),
                )),
                _ => found.push(ok(t!("doctor-reachability-unknown"))),
            }
            found.extend(clock_findings(status));
        }
    }
    if saved.bootstrap.is_empty() {
        found.push(problem(
            t!("doctor-no-bootstrap"),
            t!("doctor-no-bootstrap-fix"),
        ));
    } else {
        found.push(ok(t!("doctor-bootstrap", count = saved.bootstrap.len())));
    }
    if saved.mailboxes.is_empty() && !saved.mailbox {
        found.push(problem(
            t!("doctor-no-mailbox"),
            t!("doctor-no-mailbox-fix"),
        ));
    } else {
        found.push(ok(t!("doctor-mailboxes", count = saved.mailboxes.len())));
    }
    let problems = found.iter().filter(|f| !f.ok).count();
    // The verdicts are a column as wide as the longer of the two, plus one.
    let (good, bad) = (t!("doctor-ok"), t!("doctor-problem"));
    let width = good.chars().count().max(bad.chars().count()) + 1;
    for f in &found {
        println!("{:<width$}{}", if f.ok { &good } else { &bad }, f.what);
        if let Some(fix) = &f.fix {
            println!("{:<width$}{}", "", t!("doctor-fix", fix = fix.as_str()));
        }
    }
    if problems == 0 {
        println!("{}", t!("doctor-nothing"));
        Ok(ExitCode::SUCCESS)
    } else {
        println!("{}", t!("doctor-count", count = problems));
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
