//! The board: a web application the node serves to its player's browser (`sobre board`,
//! or `board = true` in `node.toml` to have it from the start). See docs/board.md.
//!
//! The page speaks the control API: its requests are the same typed [`crate::api`] values
//! the `sobre` command sends over the control socket, and they reach the service the same
//! way (one bounded channel, [`crate::control::ask`]); events come from the same broadcast
//! channel `sobre watch` reads, as server-sent events. What the page cannot compute without
//! chess rules (legal moves, the record in the player's notation, the positions to step
//! through) the rules core computes here ([`hints`]).
//!
//! Parts: [`access`] (who may use it), [`assets`] (the embedded files), [`hints`] and
//! [`league`] (what the rules core adds), [`words`] (the page's words, from sobre's one
//! catalogue), [`player`] (the player's settings and contacts), `server` (the routes). The server runs on the node's runtime until the node stops.

pub mod access;
pub mod assets;
pub mod hints;
pub mod league;
pub mod player;
mod server;
pub mod words;

use crate::api::watch::WatchEvent;
use crate::control::ControlRequest;
use access::Access;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, watch};

/// How long open pages get to go when the node stops (their event streams end at once;
/// this bounds a request in hand).
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Starts the board server when first asked, and hands out URLs to open it.
pub struct Launcher {
    requests: mpsc::Sender<ControlRequest>,
    events: broadcast::Sender<WatchEvent>,
    /// The player's home: the page reads their settings and contacts there.
    home: PathBuf,
    /// The port asked for (0: any free one).
    port: u16,
    running: Option<Running>,
}

struct Running {
    access: Arc<Access>,
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Launcher {
    /// A board that will serve on 127.0.0.1:`port` (0: a free port), forwarding its
    /// requests to the service on `requests` and its events from `events`, for the player
    /// of `home`.
    pub fn new(
        requests: mpsc::Sender<ControlRequest>,
        events: broadcast::Sender<WatchEvent>,
        home: PathBuf,
        port: u16,
    ) -> Launcher {
        Launcher {
            requests,
            events,
            home,
            port,
            running: None,
        }
    }

    /// The port asked for (0: any free one), which the refusal of a port taken names.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL that opens the board once (with a new one-time token), starting the server
    /// if it is not running.
    ///
    /// # Errors
    /// If the port cannot be bound (another program holds it).
    pub async fn open(&mut self) -> io::Result<String> {
        if self.running.is_none() {
            self.running = Some(self.start().await?);
        }
        let Some(running) = &self.running else {
            return Err(io::Error::other("the board did not start"));
        };
        Ok(format!(
            "http://{}/?token={}",
            running.addr,
            running.access.mint()
        ))
    }

    async fn start(&self) -> io::Result<Running> {
        // Loopback only: the board is the player's, on the player's machine.
        let listener =
            tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, self.port)))
                .await?;
        let addr = listener.local_addr()?;
        let access = Arc::new(Access::new(addr.port()));
        let (stop, stopping) = watch::channel(false);
        let state = server::State {
            access: Arc::clone(&access),
            requests: self.requests.clone(),
            events: self.events.clone(),
            home: Arc::from(self.home.as_path()),
            stopping,
        };
        let task = tokio::spawn(server::serve(listener, state));
        tracing::info!(%addr, "board served");
        Ok(Running {
            access,
            addr,
            stop,
            task,
        })
    }

    /// Stops the server, if it runs: event streams end, a request in hand gets
    /// [`STOP_GRACE`] to finish.
    pub async fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            let _ = running.stop.send(true);
            let mut task = running.task;
            if tokio::time::timeout(STOP_GRACE, &mut task).await.is_err() {
                task.abort();
            }
        }
    }
}
