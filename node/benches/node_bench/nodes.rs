//! Nodes run by the bench: in this process, or in a child process of their own.

use crate::Res;
use crate::stats::process_cpu_seconds;
use serde_json::Value;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::client;
use sobre_node::home;
use sobre_node::service::{NodeConfig, run};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tempfile::TempDir;
use tokio::sync::{mpsc, oneshot};

pub struct Node {
    pub home: PathBuf,
    /// The home's directory, removed when the node is dropped (kept by
    /// [`Node::stop_keeping_home`] for a restart on the same home).
    dir: Option<TempDir>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    /// A node in a child process of its own (see [`Node::start_process`]).
    child: Option<std::process::Child>,
}

impl Node {
    /// Starts a node in `dir` (its key is created if missing) and waits for its socket.
    pub async fn start(dir: TempDir, mailbox: bool) -> Res<Node> {
        Node::start_with(dir, mailbox, |_| {}).await
    }

    /// Like [`Node::start`], the configuration adjusted by `extra` (mailboxes, bootstrap).
    pub async fn start_with(
        dir: TempDir,
        mailbox: bool,
        extra: impl FnOnce(&mut NodeConfig),
    ) -> Res<Node> {
        let home = dir.path().to_path_buf();
        home::init_key(&home)?;
        let mut config = NodeConfig {
            home: home.clone(),
            listen: vec!["/ip4/127.0.0.1/tcp/0".into()],
            mailbox,
            // The bench's players all connect from 127.0.0.1.
            max_inbound_per_ip: Some(4096),
            ..NodeConfig::default()
        };
        extra(&mut config);
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            if let Err(e) = run(config, async {
                let _ = rx.await;
            })
            .await
            {
                eprintln!("node stopped with error: {e}");
            }
        });
        let node = Node {
            home,
            dir: Some(dir),
            stop: Some(tx),
            task: Some(task),
            child: None,
        };
        node.wait_ready().await?;
        Ok(node)
    }

    /// Starts a node in `dir` in a child process (this binary's `__node`, which runs
    /// `service::run` as `sobre node run` does), so that its CPU time is its own.
    pub async fn start_process(dir: TempDir, mailbox: bool) -> Res<Node> {
        Node::start_process_with(dir, if mailbox { "mailbox" } else { "player" }).await
    }

    /// Like [`Node::start_process`], the child's `kind` given: `mailbox`, `player`, or
    /// `strict` (a player's node with the default per-IP limits, for the attack phase).
    pub async fn start_process_with(dir: TempDir, kind: &str) -> Res<Node> {
        Node::start_process_on(dir, kind, "/ip4/127.0.0.1/tcp/0", &[]).await
    }

    /// Like [`Node::start_process_with`], listening on `listen` (a fixed port, for a mailbox
    /// its players find again after a restart), with `peers` (addresses ending in
    /// `/p2p/<id>`): a mailbox's bootstrap peers, a player's mailboxes.
    pub async fn start_process_on(
        dir: TempDir,
        kind: &str,
        listen: &str,
        peers: &[String],
    ) -> Res<Node> {
        let home = dir.path().to_path_buf();
        home::init_key(&home)?;
        let mut cmd = child_command(CHILD_NODE, &home)?;
        cmd.arg(kind).arg(listen).args(peers);
        let child = cmd
            .stdout(std::process::Stdio::null())
            // With RUST_LOG the child prints its log too (see `child_node`).
            .stderr(if std::env::var_os("RUST_LOG").is_some() {
                std::process::Stdio::inherit()
            } else {
                std::process::Stdio::null()
            })
            .spawn()?;
        let node = Node {
            home,
            dir: Some(dir),
            stop: None,
            task: None,
            child: Some(child),
        };
        node.wait_ready().await?;
        Ok(node)
    }

    /// The process id of a node in a child process.
    pub fn pid(&self) -> Option<u32> {
        Some(self.child.as_ref()?.id())
    }

    /// User and system CPU seconds of the node's own process (`None` in this process).
    pub fn cpu_seconds(&self) -> Option<f64> {
        process_cpu_seconds(&self.child.as_ref()?.id().to_string())
    }

    async fn wait_ready(&self) -> Res<()> {
        let node = self;
        let deadline = Instant::now() + Duration::from_secs(120);
        while client::call(&node.home, ApiRequest::Id(request::Id {}))
            .await
            .is_err()
        {
            if Instant::now() > deadline {
                return Err("node did not start".into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Ok(())
    }

    pub async fn call(&self, r: ApiRequest) -> Res<Value> {
        client::call(&self.home, r.clone())
            .await
            .map_err(|e| format!("{r:?}: {e}").into())
    }

    pub async fn id(&self) -> Res<(String, String)> {
        let v = self.call(ApiRequest::Id(request::Id {})).await?;
        let addr = v["addresses"]
            .as_array()
            .and_then(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .find(|a| a.contains("/127.0.0.1/tcp/"))
            })
            .ok_or("no loopback address")?
            .to_owned();
        let id = v["player_id"].as_str().ok_or("no player id")?.to_owned();
        Ok((id, addr))
    }

    /// Events of the node's watch stream, stamped on arrival.
    pub fn watch(&self) -> mpsc::UnboundedReceiver<(Instant, Value)> {
        let (tx, rx) = mpsc::unbounded_channel();
        let home = self.home.clone();
        tokio::spawn(async move {
            let _ = client::watch(&home, None, move |v| tx.send((Instant::now(), v)).is_ok()).await;
        });
        rx
    }

    pub async fn stop(self) {
        self.stop_keeping_home().await;
    }

    /// Stops the node and hands back its home, for a restart on it.
    pub async fn stop_keeping_home(mut self) -> Option<TempDir> {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(20), t).await;
        }
        if let Some(mut child) = self.child.take() {
            let _ = client::call(&self.home, ApiRequest::Stop(request::Stop {})).await;
            let deadline = Instant::now() + Duration::from_secs(20);
            while matches!(child.try_wait(), Ok(None)) {
                if Instant::now() > deadline {
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        self.dir.take()
    }
}

impl Drop for Node {
    /// A phase that failed leaves no node process behind.
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Waits for the first `what` event of `game` by `by` on a watch stream.
pub async fn wait_event(
    rx: &mut mpsc::UnboundedReceiver<(Instant, Value)>,
    game: &str,
    what: &str,
    by: &str,
) -> Res<Instant> {
    let deadline = Duration::from_secs(30);
    loop {
        let (t, v) = tokio::time::timeout(deadline, rx.recv())
            .await
            .map_err(|_| format!("no {what} event within 30 s"))?
            .ok_or("watch stream ended")?;
        if v["game"] == game && v["event"] == what && v["by"] == by {
            return Ok(t);
        }
    }
}

/// First argument of this binary run as a node ([`child_node`]).
pub const CHILD_NODE: &str = "__node";
/// First argument of this binary run as the memory phase's step-by-step load
/// (`memory::child_parts`).
pub const CHILD_PARTS: &str = "__parts";

/// This very binary, run as a child in `role` on `home`. From `cargo bench` it is
/// `target/release/deps/node_bench-<hash>`, started directly: cargo's `--bench` and the
/// phase options are not passed on, so `main` sees `role` first.
pub fn child_command(role: &str, home: &Path) -> Res<std::process::Command> {
    let mut cmd = std::process::Command::new(std::env::current_exe()?);
    cmd.arg(role).arg(home);
    Ok(cmd)
}

/// The `__node` child process: a node exactly as `sobre node run` starts it, until Ctrl-C or
/// the control API's `stop`. It listens on `listen` (default: any loopback port); `peers`
/// are a mailbox's bootstrap peers, a player's mailboxes.
pub fn child_node(home: PathBuf, kind: &str, listen: Option<String>, peers: Vec<String>) -> i32 {
    let mailbox = kind == "mailbox";
    let (bootstrap, mailboxes) = if mailbox {
        (peers, Vec::new())
    } else {
        (Vec::new(), peers)
    };
    let config = NodeConfig {
        home,
        mailbox,
        listen: vec![listen.unwrap_or_else(|| "/ip4/127.0.0.1/tcp/0".into())],
        bootstrap,
        mailboxes,
        // The bench's players all connect from 127.0.0.1; the attack phase's victim keeps
        // the default limits its attackers meet.
        max_inbound_per_ip: (kind != "strict").then_some(4096),
        ..NodeConfig::default()
    };
    // SOBRE_BENCH_LOG_KIND=mailbox keeps the others quiet, to read one role's story alone.
    let logs_kind = std::env::var("SOBRE_BENCH_LOG_KIND").map_or(true, |k| k == kind);
    if std::env::var_os("RUST_LOG").is_some() && logs_kind {
        // With SOBRE_BENCH_LOGS=<dir>, each child logs to a file of its own there (named by
        // its peer id), so one node's story can be read apart from eighty others'.
        let file = std::env::var_os("SOBRE_BENCH_LOGS").and_then(|dir| {
            let id = home::load_key(&config.home).ok()?.player_id();
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(std::path::Path::new(&dir).join(format!("{kind}-{id}.log")))
                .ok()
        });
        let builder = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env());
        let _ = match file {
            Some(f) => builder
                .with_ansi(false)
                .with_writer(std::sync::Mutex::new(f))
                .try_init(),
            None => builder.with_writer(std::io::stderr).try_init(),
        };
    }
    // SOBRE_BENCH_WORKERS=n: the runtime's worker threads (0: one thread, current_thread),
    // to tell a node's own work from its threads' handing work to one another.
    // Only for the role SOBRE_BENCH_WORKERS_KIND names (default: mailbox).
    let workers_kind = std::env::var("SOBRE_BENCH_WORKERS_KIND").unwrap_or("mailbox".into());
    let workers = std::env::var("SOBRE_BENCH_WORKERS")
        .ok()
        .filter(|_| workers_kind == kind)
        .and_then(|w| w.parse::<usize>().ok());
    let built = match workers {
        Some(0) => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build(),
        Some(n) => tokio::runtime::Builder::new_multi_thread()
            .worker_threads(n)
            .enable_all()
            .build(),
        None => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build(),
    };
    let Ok(runtime) = built else {
        return 2;
    };
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    match runtime.block_on(run(config, stop)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("node: {e}");
            1
        }
    }
}
