//! Several `sobre node run` processes for one test (a league: an organiser and its players),
//! each with its home and its log in one temporary directory; all killed when the test ends,
//! and their logs' last lines printed if it failed.

use super::{exec, run, sobre};
use serde_json::Value;
use std::fs::File;
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// The longest a [`wait_for`] waits: a league's nodes start, meet and open their games.
pub const WAIT: Duration = Duration::from_secs(90);
const POLL: Duration = Duration::from_millis(100);

/// Polls `f` until it gives a value; fails the test naming `what` after [`WAIT`].
pub fn wait_for<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(POLL);
    }
}

/// Polls `done` until it holds; fails the test naming `what` after [`WAIT`].
pub fn wait_until_done(what: &str, mut done: impl FnMut() -> bool) {
    wait_for(what, || done().then_some(()));
}

/// One player's (or the organiser's) home, player id and TCP address.
pub struct Node {
    pub name: String,
    pub home: PathBuf,
    pub id: String,
    /// Its first TCP address.
    pub addr: String,
    /// Every address `sobre id` gave when it started.
    pub addrs: Vec<String>,
}

/// The node processes of a test and the directory holding their homes.
pub struct Nodes {
    pub children: Vec<(PathBuf, Child)>,
    pub dir: tempfile::TempDir,
}

impl Drop for Nodes {
    fn drop(&mut self) {
        for (_, c) in &mut self.children {
            // A node under faketime leads its own process group (see `under_faketime`).
            let _ = std::process::Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", c.id())])
                .stderr(Stdio::null())
                .status();
            let _ = c.kill();
            let _ = c.wait();
        }
        if std::thread::panicking() {
            // Every node's log, the stopped ones' too: a node that went offline earlier
            // often did what made the test fail.
            let mut logs: Vec<PathBuf> = std::fs::read_dir(self.dir.path())
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "log"))
                .collect();
            logs.sort();
            for log in &logs {
                if let Ok(text) = std::fs::read_to_string(log) {
                    let tail: Vec<&str> = text.lines().rev().take(40).collect();
                    eprintln!("--- {} (last lines):", log.display());
                    for l in tail.iter().rev() {
                        eprintln!("{l}");
                    }
                }
            }
        }
    }
}

impl Nodes {
    pub fn new() -> Nodes {
        Nodes {
            children: Vec::new(),
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    /// Creates the home `name` (its player named `name`), starts its node on a loopback
    /// port with `extra` flags, and waits until it answers with a TCP address.
    pub fn start(&mut self, name: &str, extra: &[&str]) -> Node {
        self.start_with(name, extra, None, &[])
    }

    /// The home of `name` in this test's directory (created with [`Nodes::start`]; write
    /// its `node.toml` there first to start with settings).
    pub fn home(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// [`Nodes::start`], under `faketime -f OFFSET` if given (its clock off by that), with
    /// `env` set for the node; a home that has a key already (a restart) keeps it. Its log
    /// is appended to.
    pub fn start_with(
        &mut self,
        name: &str,
        extra: &[&str],
        faketime: Option<&str>,
        env: &[(&str, &str)],
    ) -> Node {
        self.start_opts(
            name,
            &Options {
                extra,
                faketime,
                env,
                ..Options::default()
            },
        )
    }

    /// Starts `name`'s node as `opts` says (see [`Options`]) and waits until it answers with
    /// a TCP address; fails at once, with its log, if the node exits instead.
    pub fn start_opts(&mut self, name: &str, opts: &Options) -> Node {
        let home = self.home(name);
        if !home.join("identity.key").exists() {
            run(&home, &["init", "--name", name, "--json"]);
        }
        let id = run(&home, &["id", "--json"])["player_id"]
            .as_str()
            .expect("id")
            .to_owned();
        let log = self.log(name);
        let mut cmd = match (opts.faketime, opts.netns) {
            (Some(offset), None) => super::under_faketime(&home, offset),
            (None, Some(ns)) => {
                // `ip netns exec` execs the node: the child is the node's own process.
                let mut c = std::process::Command::new("ip");
                c.args(["netns", "exec", ns, env!("CARGO_BIN_EXE_sobre"), "--home"])
                    .arg(&home)
                    .env_remove("SOBRE_HOME");
                c
            }
            (None, None) => sobre(&home),
            (Some(_), Some(_)) => panic!("faketime in a network namespace is not supported"),
        };
        cmd.args(["node", "run"]);
        if !opts.own_listen {
            cmd.args(["--listen", "/ip4/127.0.0.1/tcp/0"]);
        }
        let child = cmd
            .args(opts.extra)
            .env("RUST_LOG", "info")
            .envs(opts.env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(
                File::options()
                    .create(true)
                    .append(true)
                    .open(&log)
                    .expect("log"),
            )
            .spawn()
            .expect("node starts");
        self.children.push((log.clone(), child));
        let addrs = wait_for(&format!("{name}'s node"), || {
            // A node that cannot start (a port taken, bad settings) says why in its log:
            // failing now, with it, beats timing out.
            if let Some(status) = self.child(name).try_wait().expect("the node's status") {
                let text = std::fs::read_to_string(&log).unwrap_or_default();
                panic!("{name}'s node exited ({status}):\n{text}");
            }
            let out = exec(&home, &["id", "--json"]);
            let v: Value = serde_json::from_str(out.stdout.trim()).ok()?;
            let addrs: Vec<String> = v["addresses"]
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
            addrs.iter().any(|a| a.contains("/tcp/")).then_some(addrs)
        });
        let addr = addrs
            .iter()
            .find(|a| a.contains("/tcp/"))
            .expect("a TCP address")
            .clone();
        Node {
            name: name.to_owned(),
            home,
            id,
            addr,
            addrs,
        }
    }

    /// Where the node of `name` writes its log (every start of it appends there).
    pub fn log(&self, name: &str) -> PathBuf {
        self.dir.path().join(format!("{name}.log"))
    }

    /// The running process of `name`'s node (the latest started).
    ///
    /// # Panics
    /// If `name` has no node in this test.
    pub fn child(&mut self, name: &str) -> &mut Child {
        let log = self.log(name);
        self.children
            .iter_mut()
            .rev()
            .find(|(l, _)| *l == log)
            .map(|(_, c)| c)
            .unwrap_or_else(|| panic!("{name} has no node"))
    }

    /// `sobre node stop` for `name`, then waits for its process to end: a player who shuts
    /// their node down (it flushes and says goodbye to its peers).
    pub fn stop(&mut self, name: &str) {
        super::run_text(&self.home(name), &["node", "stop"]);
        let child = self.child(name);
        let deadline = Instant::now() + WAIT;
        while child.try_wait().expect("the node's status").is_none() {
            assert!(Instant::now() < deadline, "{name}'s node did not stop");
            std::thread::sleep(POLL);
        }
        self.forget(name);
    }

    /// Kills `name`'s node (SIGKILL, with its process group): a machine that loses power.
    pub fn kill(&mut self, name: &str) {
        let child = self.child(name);
        let _ = std::process::Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stderr(Stdio::null())
            .status();
        let _ = child.kill();
        let _ = child.wait();
        self.forget(name);
    }

    /// How `name`'s node ended, once it has (forgotten then, as after [`Nodes::stop`]);
    /// `None` while it runs.
    pub fn exited(&mut self, name: &str) -> Option<std::process::ExitStatus> {
        let status = self.child(name).try_wait().expect("the node's status")?;
        self.forget(name);
        Some(status)
    }

    /// Drops the ended process of `name` from the list, so that its id (free again) is
    /// never killed when the test ends.
    fn forget(&mut self, name: &str) {
        let log = self.log(name);
        self.children.retain(|(l, _)| *l != log);
    }
}

/// How to start a node when [`Nodes::start`]'s defaults do not fit; each field is one way a
/// test departs from them.
#[derive(Default)]
pub struct Options<'a> {
    /// More arguments to `sobre node run`.
    pub extra: &'a [&'a str],
    /// Run under `faketime -f OFFSET`: a node whose clock is off by that.
    pub faketime: Option<&'a str>,
    /// Environment set for the node.
    pub env: &'a [(&'a str, &'a str)],
    /// Give no `--listen` on a loopback port of the system's choice: the node listens where
    /// its `node.toml`, `extra` or its default port say (the tests of those settings).
    pub own_listen: bool,
    /// Run in this network namespace (`ip netns exec NS`); its control socket, in the home,
    /// is reached from outside as usual. Give its `--listen` with `own_listen`.
    pub netns: Option<&'a str>,
}

/// A node's `league standings --json` of league `lid`.
pub fn standings(home: &std::path::Path, lid: &str) -> Value {
    super::run(home, &["league", "standings", lid, "--json"])
}

/// How many games of a `league standings --json` are finished.
pub fn finished(v: &Value) -> usize {
    v["games"].as_array().map_or(0, |g| {
        g.iter().filter(|g| g["status"] == "finished").count()
    })
}

/// `white` challenges `black` (the challenger plays White) with `terms`, the challenge's
/// other arguments (time control, arbiter, notice…), `black` accepts, and 1. e4 e5 is
/// played: what most end-to-end games go through before the part they test. Returns the
/// game id.
pub fn open_game(white: &Node, black: &Node, terms: &[&str]) -> String {
    let mut args = vec!["challenge", black.id.as_str(), "--color", "white", "--json"];
    args.extend_from_slice(terms);
    let v = run(&white.home, &args);
    let game = v["game"].as_str().expect("the game id").to_owned();
    let wait = |node: &Node, what: &str, pred: &dyn Fn(&Value) -> bool| {
        super::wait_within(&node.home, &game, WAIT, what, pred);
    };
    wait(black, "the challenge", &|v| v["status"] == "pending");
    super::run_text(&black.home, &["accept", &game]);
    wait(white, "the acceptance", &|v| v["status"] == "active");
    super::run_text(&white.home, &["move", &game, "e4"]);
    wait(black, "1. e4", &|v| v["plies"] == 1);
    super::run_text(&black.home, &["move", &game, "e5"]);
    wait(white, "1... e5", &|v| v["plies"] == 2);
    game
}

/// Now, in ms since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis() as u64
}

/// `ms` since the Unix epoch as an RFC 3339 UTC time (`league create --start`).
pub fn rfc3339(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}
