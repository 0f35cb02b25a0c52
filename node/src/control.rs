//! The server side of the local control API ([`crate::api`]): a Unix socket in the home
//! directory, mode 0600, newline-delimited JSON.
//!
//! This module only frames and routes: each request line becomes a [`ControlRequest`] sent
//! to the service actor (one bounded channel; the service owns all state), and the service's
//! answer goes back as one response line. `watch` is answered here, from a broadcast channel
//! the service publishes events on, so a slow watcher never holds up the service: it lags
//! and is told how many events it missed.
//!
//! Limits: at most [`MAX_CONNECTIONS`] clients at once, request lines of at most
//! [`MAX_LINE_BYTES`].

use crate::api::replies::{WatchLine, WatchReply};
use crate::api::request::{self, Request};
use crate::api::{
    API_VERSION, ApiError, ApiRequest, MAX_LINE_BYTES, RefusalCode, RequestLine, ResponseLine,
};
use crate::home;
use serde_json::Value;
use std::future::Future;
use std::io;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::{Semaphore, broadcast, mpsc, oneshot, watch};
use tokio::task::JoinSet;

/// Where the service sends its answer to one request.
pub type Reply = oneshot::Sender<Result<Value, ApiError>>;

/// One request from a client, for the service actor to answer on `reply`.
#[derive(Debug)]
pub struct ControlRequest {
    pub request: ApiRequest,
    pub reply: Reply,
}

/// The most clients served at once; further clients wait in the listen backlog.
pub const MAX_CONNECTIONS: usize = 64;

/// How long connection handlers get to finish the request in hand after shutdown.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Serves the control socket at `home/sobre.sock` until `shutdown` resolves, then removes
/// the socket file.
///
/// Requests other than `watch` go to the service on `requests`; `watch` streams the values
/// published on `watch` (each one a response line whose `result` is the value; a value is
/// sent to a watcher of one game only when its `"game"` field starts with the game given).
///
/// # Errors
/// - [`io::ErrorKind::AddrInUse`] if another node is answering on the socket ("a node is
///   already running in HOME");
/// - any error binding the socket or setting its mode.
pub async fn serve(
    home: &Path,
    requests: mpsc::Sender<ControlRequest>,
    watch: broadcast::Sender<Value>,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let path = home::socket_path(home);
    let listener = bind(home, &path).await?;
    // Remove the socket even if accepting fails below.
    let _socket = SocketFile(path);

    let limit = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    // Connection handlers watch this to end their streams when the node stops.
    let (stopping_tx, stopping_rx) = watch::channel(false);
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);

    loop {
        tokio::select! {
            biased;
            () = &mut shutdown => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = accept(&listener, &limit) => {
                let (stream, permit) = match accepted {
                    Ok(pair) => pair,
                    // A client that went away before we accepted it, or a transient lack of
                    // file descriptors: not a reason to stop serving the others.
                    Err(e) => {
                        tracing::warn!("control socket: accept failed: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let conn = Connection {
                    requests: requests.clone(),
                    watch: watch.clone(),
                    stopping: stopping_rx.clone(),
                };
                connections.spawn(async move {
                    let (read, write) = stream.into_split();
                    if let Err(e) = conn.run(read, write).await {
                        tracing::debug!("control connection ended: {e}");
                    }
                    drop(permit);
                });
            }
        }
    }

    let _ = stopping_tx.send(true);
    let drain = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(SHUTDOWN_GRACE, drain).await.is_err() {
        connections.abort_all();
    }
    Ok(())
}

/// Removes the socket file when dropped.
struct SocketFile(PathBuf);

impl Drop for SocketFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

async fn accept(
    listener: &UnixListener,
    limit: &Arc<Semaphore>,
) -> io::Result<(UnixStream, tokio::sync::OwnedSemaphorePermit)> {
    let permit = Arc::clone(limit)
        .acquire_owned()
        .await
        .map_err(|_| io::Error::other("connection limit closed"))?;
    let (stream, _addr) = listener.accept().await?;
    Ok((stream, permit))
}

/// Binds the socket, replacing a stale socket file left by a node that died, but never one a
/// live node answers on.
async fn bind(home: &Path, path: &Path) -> io::Result<UnixListener> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => {
            if !meta.file_type().is_socket() {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{} exists and is not a socket", path.display()),
                ));
            }
            if UnixStream::connect(path).await.is_ok() {
                return Err(io::Error::new(
                    io::ErrorKind::AddrInUse,
                    format!("a node is already running in {}", home.display()),
                ));
            }
            std::fs::remove_file(path)?;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let listener = UnixListener::bind(path)?;
    // Anyone who can connect can play the player's moves: owner only.
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    Ok(listener)
}

/// What one client connection needs.
struct Connection {
    requests: mpsc::Sender<ControlRequest>,
    watch: broadcast::Sender<Value>,
    stopping: watch::Receiver<bool>,
}

/// A line read from a client.
enum Line {
    Request(Vec<u8>),
    TooLong,
    Eof,
}

impl Connection {
    async fn run<R, W>(mut self, read: R, mut write: W) -> io::Result<()>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin,
    {
        let mut read = BufReader::new(read);
        loop {
            let line = tokio::select! {
                biased;
                () = stopped(&mut self.stopping) => return Ok(()),
                line = read_line(&mut read) => line?,
            };
            let bytes = match line {
                Line::Eof => return Ok(()),
                Line::TooLong => {
                    let error = ApiError::refused(RefusalCode::RequestTooLong {
                        max: MAX_LINE_BYTES,
                    });
                    write_response(&mut write, Err(error)).await?;
                    return Ok(());
                }
                Line::Request(bytes) => bytes,
            };
            if bytes.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let request = match parse_request(&bytes) {
                Ok(request) => request,
                Err(error) => {
                    write_response(&mut write, Err(error)).await?;
                    continue;
                }
            };
            if let ApiRequest::Watch(request::Watch { game }) = request {
                return self.stream_events(read, write, game).await;
            }
            let answer = self.forward(request).await;
            write_response(&mut write, answer).await?;
        }
    }

    /// Hands a request to the service and waits for its answer. Shutdown is deliberately not
    /// watched here: a request in hand (`stop` above all) gets its answer.
    async fn forward(&self, request: ApiRequest) -> Result<Value, ApiError> {
        ask(&self.requests, request).await
    }

    /// Streams events to a watcher until it hangs up or the node stops. The first line
    /// acknowledges the request: `{"watching":true,"game":…}`.
    async fn stream_events<R, W>(
        mut self,
        mut read: R,
        mut write: W,
        game: Option<String>,
    ) -> io::Result<()>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin,
    {
        let mut events = self.watch.subscribe();
        let ack = request::Watch::reply(WatchReply {
            watching: true,
            game: game.clone(),
        });
        write_response(
            &mut write,
            ack.to_value()
                .map_err(|e| ApiError::internal(e.to_string())),
        )
        .await?;
        let mut sink = [0u8; 256];
        loop {
            tokio::select! {
                biased;
                () = stopped(&mut self.stopping) => return Ok(()),
                // Anything the client sends now is ignored; end of input means it hung up.
                n = read.read(&mut sink) => if n? == 0 { return Ok(()) },
                event = events.recv() => match event {
                    Ok(value) => {
                        if matches_game(&value, game.as_deref()) {
                            write_response(&mut write, Ok(value)).await?;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        let lagged = serde_json::to_value(WatchLine::Lagged { lagged: missed })
                            .map_err(|e| ApiError::internal(e.to_string()));
                        write_response(&mut write, lagged).await?;
                    }
                    Err(broadcast::error::RecvError::Closed) => return Ok(()),
                },
            }
        }
    }
}

/// Hands a request to the service on `requests` and waits for its answer: the one path
/// from a client (the socket, the board) to the service.
///
/// # Errors
/// The service's refusal, or an internal error if the service has stopped.
pub async fn ask(
    requests: &mpsc::Sender<ControlRequest>,
    request: ApiRequest,
) -> Result<Value, ApiError> {
    let (reply, answer) = oneshot::channel();
    requests
        .send(ControlRequest { request, reply })
        .await
        .map_err(|_| ApiError::internal("the node's service has stopped"))?;
    answer
        .await
        .map_err(|_| ApiError::internal("the node's service stopped before answering"))?
}

/// Resolves once the server is shutting down (or gone).
pub(crate) async fn stopped(stopping: &mut watch::Receiver<bool>) {
    // The guard `wait_for` returns is not `Send`: drop it here, not in the caller's future.
    let _ = stopping.wait_for(|s| *s).await;
}

/// Whether a watcher of `game` (a prefix; `None`: all games) wants this event.
fn matches_game(value: &Value, game: Option<&str>) -> bool {
    match game {
        None => true,
        Some(prefix) => value
            .get("game")
            .and_then(Value::as_str)
            .is_some_and(|g| g.starts_with(prefix)),
    }
}

/// Reads one line, never buffering more than [`MAX_LINE_BYTES`] (plus the newline).
async fn read_line<R: AsyncBufReadExt + Unpin>(read: &mut R) -> io::Result<Line> {
    let mut buf = Vec::new();
    let cap = MAX_LINE_BYTES as u64 + 1;
    let n = (&mut *read).take(cap).read_until(b'\n', &mut buf).await?;
    if n == 0 {
        return Ok(Line::Eof);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        return Ok(Line::Request(buf));
    }
    if buf.len() > MAX_LINE_BYTES {
        return Ok(Line::TooLong);
    }
    // The last line, without a newline before end of input.
    Ok(Line::Request(buf))
}

/// Decodes one request line (without its newline), as the socket server does; the version
/// is checked before the command so that a client of another version is told so, not that
/// its command is unknown. Public for the `control` fuzz target.
///
/// # Errors
/// A user [`ApiError`] for bad JSON, a missing or other API version, or an unknown command.
pub fn parse_request(bytes: &[u8]) -> Result<ApiRequest, ApiError> {
    let bad = |e: serde_json::Error| {
        ApiError::refused(RefusalCode::BadRequest {
            reason: e.to_string(),
        })
    };
    let value: Value = serde_json::from_slice(bytes).map_err(bad)?;
    let Some(object) = value.as_object() else {
        return Err(ApiError::refused(RefusalCode::RequestNotObject));
    };
    match object.get("v") {
        None => {
            return Err(ApiError::refused(RefusalCode::ApiVersionMissing {
                version: API_VERSION,
            }));
        }
        Some(v) if v.as_u64() != Some(u64::from(API_VERSION)) => {
            return Err(ApiError::refused(RefusalCode::ApiVersionUnsupported {
                given: v.to_string(),
                version: API_VERSION,
            }));
        }
        Some(_) => {}
    }
    let line: RequestLine = serde_json::from_value(value).map_err(bad)?;
    Ok(line.request)
}

async fn write_response<W: AsyncWrite + Unpin>(
    write: &mut W,
    answer: Result<Value, ApiError>,
) -> io::Result<()> {
    let mut line =
        serde_json::to_vec(&ResponseLine::from_result(answer)).map_err(io::Error::other)?;
    line.push(b'\n');
    write.write_all(&line).await?;
    write.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ErrorKind;
    use serde_json::json;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

    /// A node's control socket with a fake service: `id` answers, `stop` too, anything else
    /// is a user error naming the command.
    struct Harness {
        _dir: tempfile::TempDir,
        home: PathBuf,
        events: broadcast::Sender<Value>,
        stop: Option<oneshot::Sender<()>>,
        server: tokio::task::JoinHandle<io::Result<()>>,
    }

    impl Harness {
        async fn start() -> Harness {
            let dir = tempfile::tempdir().unwrap();
            let home = dir.path().to_path_buf();
            let (requests, mut inbox) = mpsc::channel::<ControlRequest>(8);
            tokio::spawn(async move {
                while let Some(ControlRequest { request, reply }) = inbox.recv().await {
                    let answer = match request {
                        ApiRequest::Id(request::Id {}) => {
                            Ok(json!({ "player_id": "12D3KooWfake" }))
                        }
                        ApiRequest::Move(request::Move { game, text, .. }) => {
                            Ok(json!({ "game": game, "san": text }))
                        }
                        other => Err(ApiError::user(format!("fake service: {other:?}"))),
                    };
                    let _ = reply.send(answer);
                }
            });
            let (events, _) = broadcast::channel(4);
            let (stop, stopped) = oneshot::channel::<()>();
            let server = tokio::spawn({
                let home = home.clone();
                let events = events.clone();
                async move {
                    serve(&home, requests, events, async {
                        let _ = stopped.await;
                    })
                    .await
                }
            });
            // The socket exists once bound; no sleeping: wait until a connect succeeds.
            let path = home::socket_path(&home);
            loop {
                if UnixStream::connect(&path).await.is_ok() {
                    break;
                }
                tokio::task::yield_now().await;
            }
            Harness {
                _dir: dir,
                home,
                events,
                stop: Some(stop),
                server,
            }
        }

        async fn connect(&self) -> Client {
            let stream = UnixStream::connect(home::socket_path(&self.home))
                .await
                .unwrap();
            let (r, w) = stream.into_split();
            Client {
                read: BufReader::new(r),
                write: w,
            }
        }

        async fn shutdown(mut self) {
            let _ = self.stop.take().unwrap().send(());
            self.server.await.unwrap().unwrap();
            assert!(!home::socket_path(&self.home).exists());
        }
    }

    struct Client {
        read: BufReader<tokio::net::unix::OwnedReadHalf>,
        write: tokio::net::unix::OwnedWriteHalf,
    }

    impl Client {
        async fn send(&mut self, raw: &[u8]) {
            self.write.write_all(raw).await.unwrap();
        }

        async fn response(&mut self) -> ResponseLine {
            let mut line = String::new();
            self.read.read_line(&mut line).await.unwrap();
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
        }

        async fn at_eof(&mut self) -> bool {
            let mut line = String::new();
            self.read.read_line(&mut line).await.unwrap() == 0
        }
    }

    #[tokio::test]
    async fn a_request_is_answered_by_the_service() {
        let h = Harness::start().await;
        let mut c = h.connect().await;
        c.send(b"{\"v\":1,\"cmd\":\"id\"}\n").await;
        let r = c.response().await;
        assert!(r.ok);
        assert_eq!(r.result.unwrap()["player_id"], "12D3KooWfake");
        // Several requests on one connection.
        c.send(b"{\"v\":1,\"cmd\":\"move\",\"game\":\"3f2a\",\"text\":\"Cf3\"}\n")
            .await;
        assert_eq!(c.response().await.result.unwrap()["san"], "Cf3");
        c.send(b"{\"v\":1,\"cmd\":\"resign\",\"game\":\"3f2a\"}\n")
            .await;
        let r = c.response().await;
        assert!(!r.ok);
        assert_eq!(r.error.unwrap().kind, ErrorKind::User);
        h.shutdown().await;
    }

    #[tokio::test]
    async fn bad_json_and_unknown_commands_are_user_errors() {
        let h = Harness::start().await;
        let mut c = h.connect().await;
        for raw in [
            &b"{not json\n"[..],
            b"{\"v\":1,\"cmd\":\"castle_queenside\"}\n",
            b"[1,2]\n",
        ] {
            c.send(raw).await;
            let r = c.response().await;
            assert!(!r.ok);
            assert_eq!(r.v, API_VERSION);
            let e = r.error.unwrap();
            assert_eq!(e.kind, ErrorKind::User);
            assert!(e.message.starts_with("bad request: "), "{}", e.message);
        }
        // The connection stays usable after a bad line.
        c.send(b"{\"v\":1,\"cmd\":\"id\"}\n").await;
        assert!(c.response().await.ok);
        h.shutdown().await;
    }

    #[tokio::test]
    async fn another_api_version_is_refused_naming_both() {
        let h = Harness::start().await;
        let mut c = h.connect().await;
        c.send(b"{\"v\":2,\"cmd\":\"id\"}\n").await;
        let e = c.response().await.error.unwrap();
        assert_eq!(e.kind, ErrorKind::User);
        assert!(e.message.contains("version 2"), "{}", e.message);
        assert!(e.message.contains("version 1"), "{}", e.message);
        h.shutdown().await;
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_refused_and_the_connection_closed() {
        let h = Harness::start().await;
        let mut c = h.connect().await;
        let mut long = vec![b' '; MAX_LINE_BYTES + 10];
        long.push(b'\n');
        // The server answers after reading MAX_LINE_BYTES + 1 bytes, so write concurrently.
        let mut write = c.write;
        let writer = tokio::spawn(async move {
            let _ = write.write_all(&long).await;
            write
        });
        let mut line = String::new();
        c.read.read_line(&mut line).await.unwrap();
        let r: ResponseLine = serde_json::from_str(&line).unwrap();
        assert!(!r.ok);
        assert!(r.error.unwrap().message.contains("longer than"));
        let mut rest = String::new();
        assert_eq!(c.read.read_line(&mut rest).await.unwrap(), 0, "closed");
        drop(writer.await.unwrap());
        h.shutdown().await;
    }

    #[tokio::test]
    async fn watch_streams_events_of_the_watched_game() {
        let h = Harness::start().await;
        let mut all = h.connect().await;
        let mut one = h.connect().await;
        all.send(b"{\"v\":1,\"cmd\":\"watch\"}\n").await;
        one.send(b"{\"v\":1,\"cmd\":\"watch\",\"game\":\"ab\"}\n")
            .await;
        // The acknowledgement comes after subscribing: events sent now reach both.
        assert_eq!(all.response().await.result.unwrap()["watching"], true);
        assert_eq!(one.response().await.result.unwrap()["game"], "ab");
        h.events
            .send(json!({"game": "cd12", "kind": "move"}))
            .unwrap();
        h.events
            .send(json!({"game": "ab34", "kind": "chat"}))
            .unwrap();
        assert_eq!(all.response().await.result.unwrap()["game"], "cd12");
        assert_eq!(all.response().await.result.unwrap()["game"], "ab34");
        assert_eq!(one.response().await.result.unwrap()["game"], "ab34");
        h.shutdown().await;
        // Watchers are told the node stopped by the end of the stream.
        assert!(all.at_eof().await);
        assert!(one.at_eof().await);
    }

    #[tokio::test]
    async fn a_lagging_watcher_is_told_how_many_events_it_missed() {
        let h = Harness::start().await;
        let mut c = h.connect().await;
        c.send(b"{\"v\":1,\"cmd\":\"watch\"}\n").await;
        assert!(c.response().await.ok);
        // Capacity 4: the first two of six are lost before the watcher reads.
        for i in 0..6 {
            h.events.send(json!({"game": "ab", "n": i})).unwrap();
        }
        // The test runtime is single-threaded: the server reads nothing until we await.
        assert_eq!(c.response().await.result.unwrap()["lagged"], 2);
        assert_eq!(c.response().await.result.unwrap()["n"], 2);
        h.shutdown().await;
    }

    #[tokio::test]
    async fn the_socket_is_private_to_its_owner() {
        let h = Harness::start().await;
        let mode = std::fs::metadata(home::socket_path(&h.home))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        h.shutdown().await;
    }

    #[tokio::test]
    async fn a_second_node_in_the_same_home_is_refused_but_a_stale_socket_is_replaced() {
        let h = Harness::start().await;
        let (requests, _inbox) = mpsc::channel(1);
        let (events, _) = broadcast::channel(1);
        let err = serve(&h.home, requests, events, async {})
            .await
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AddrInUse);
        assert!(err.to_string().contains("already running"), "{err}");
        h.shutdown().await;

        // A socket file left by a node that died is replaced.
        let dir = tempfile::tempdir().unwrap();
        let stale = home::socket_path(dir.path());
        drop(std::os::unix::net::UnixListener::bind(&stale).unwrap());
        assert!(stale.exists());
        let (requests, _inbox) = mpsc::channel(1);
        let (events, _) = broadcast::channel(1);
        serve(dir.path(), requests, events, async {}).await.unwrap();
        assert!(!stale.exists(), "removed on shutdown");
    }
}
