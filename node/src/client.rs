//! The client side of the control API ([`crate::api`]): what the `sobre` command uses to
//! talk to the node running in a home directory.
//!
//! One connection per call. Every call but [`watch`] gives up after [`TIMEOUT`]: a node that
//! is alive answers within milliseconds, and one that is stuck should not hang a shell.

use crate::api::request;
use crate::api::{API_VERSION, ApiError, ApiRequest, Request, RequestLine, ResponseLine};
use crate::home;
use serde_json::Value;
use std::future::Future;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};

/// How long a request may take, connecting included.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The longest response line read (an exported archive is the largest answer).
pub const MAX_RESPONSE_BYTES: usize = 256 << 20;

/// Why a request to the node failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// No node answers on the home's socket (no socket file, or nobody listening).
    #[error("the node is not running in {}", home.display())]
    NotRunning { home: PathBuf },
    /// The node refused or failed the request.
    #[error("{0}")]
    Api(ApiError),
    /// The connection failed or timed out.
    #[error("cannot talk to the node: {0}")]
    Io(#[from] io::Error),
    /// The node's answer is not what the API promises (another version?).
    #[error("unexpected answer from the node: {0}")]
    Protocol(String),
}

/// The node running in a home, asked in typed requests: [`Client::send`] takes a request of
/// [`crate::api::request`] and answers with the reply type that request names, so asking
/// for a move gives a [`crate::api::GameView`] and nothing else.
#[derive(Clone, Debug)]
pub struct Client {
    home: PathBuf,
}

impl Client {
    /// The node running in `home` (nothing is connected until a request is sent).
    pub fn new(home: impl Into<PathBuf>) -> Client {
        Client { home: home.into() }
    }

    /// The home this client asks.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// Sends `request` and reads the node's answer as the request's reply type.
    ///
    /// # Errors
    /// As [`call`]; an answer that is not the reply the request names is a
    /// [`ClientError::Protocol`] error (the node runs another version).
    pub async fn send<R: Request>(&self, request: R) -> Result<R::Reply, ClientError> {
        reply_of(call(&self.home, request.into()).await?)
    }

    /// Streams the node's events: see [`watch`].
    ///
    /// # Errors
    /// As [`watch`].
    pub async fn watch(
        &self,
        game: Option<String>,
        on_line: impl FnMut(Value) -> bool,
    ) -> Result<(), ClientError> {
        watch(&self.home, game, on_line).await
    }
}

/// A node's answer (the `result` of a response line) as the reply type `T`.
///
/// # Errors
/// [`ClientError::Protocol`] if the answer is not a `T` (the node runs another version).
pub fn reply_of<T: serde::de::DeserializeOwned>(answer: Value) -> Result<T, ClientError> {
    serde_json::from_value(answer)
        .map_err(|e| ClientError::Protocol(format!("not the reply expected: {e}")))
}

/// Sends one request to the node running in `home` and returns its `result` as the node
/// wrote it: the wire edge, for tools that pass the JSON on (`--json`, tests); the `sobre`
/// command reads typed replies through [`Client`].
///
/// A `watch` request is answered by its acknowledgement only; use [`watch`] to stream.
///
/// # Errors
/// [`ClientError::NotRunning`] if no node runs in `home`, [`ClientError::Api`] if the node
/// refuses the request, [`ClientError::Io`] on a failed or timed-out connection,
/// [`ClientError::Protocol`] on an answer that is not a response line.
pub async fn call(home: &Path, request: ApiRequest) -> Result<Value, ClientError> {
    within_timeout(async {
        let (mut read, mut write) = connect(home).await?;
        send(&mut write, request).await?;
        read_response(&mut read)
            .await?
            .ok_or_else(|| ClientError::Protocol("the node closed the connection".into()))
    })
    .await
}

/// Streams events from the node running in `home` (all games, or the games whose id starts
/// with `game`), calling `on_line` with each one until it returns `false` or the node stops.
///
/// Each value is the `result` of one response line: an event as the service publishes it, or
/// `{"lagged": N}` when this watcher fell behind and N events were dropped.
///
/// # Errors
/// As [`call`] for connecting and for the node's first answer; after that only
/// [`ClientError::Io`] and [`ClientError::Protocol`]. No timeout once streaming.
pub async fn watch(
    home: &Path,
    game: Option<String>,
    mut on_line: impl FnMut(Value) -> bool,
) -> Result<(), ClientError> {
    let (mut read, mut write) = within_timeout(async {
        let (mut read, mut write) = connect(home).await?;
        send(&mut write, ApiRequest::Watch(request::Watch { game })).await?;
        // The acknowledgement (or the reason for a refusal).
        read_response(&mut read)
            .await?
            .ok_or_else(|| ClientError::Protocol("the node closed the connection".into()))?;
        Ok((read, write))
    })
    .await?;
    while let Some(value) = read_response(&mut read).await? {
        if !on_line(value) {
            break;
        }
    }
    // Hang up explicitly so the node stops streaming at once.
    let _ = write.shutdown().await;
    Ok(())
}

async fn within_timeout<T>(
    work: impl Future<Output = Result<T, ClientError>>,
) -> Result<T, ClientError> {
    tokio::time::timeout(TIMEOUT, work)
        .await
        .unwrap_or_else(|_| {
            Err(ClientError::Io(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("no answer within {} s", TIMEOUT.as_secs()),
            )))
        })
}

async fn connect(home: &Path) -> Result<(BufReader<OwnedReadHalf>, OwnedWriteHalf), ClientError> {
    let path = home::socket_path(home);
    match UnixStream::connect(&path).await {
        Ok(stream) => {
            let (read, write) = stream.into_split();
            Ok((BufReader::new(read), write))
        }
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused
            ) =>
        {
            Err(ClientError::NotRunning {
                home: home.to_path_buf(),
            })
        }
        Err(e) => Err(ClientError::Io(e)),
    }
}

async fn send(write: &mut OwnedWriteHalf, request: ApiRequest) -> Result<(), ClientError> {
    let line = RequestLine {
        v: API_VERSION,
        request,
    };
    let mut bytes =
        serde_json::to_vec(&line).map_err(|e| ClientError::Protocol(format!("encoding: {e}")))?;
    bytes.push(b'\n');
    write.write_all(&bytes).await?;
    write.flush().await?;
    Ok(())
}

/// Reads one response line: `Ok(None)` at end of input, the `result` of a successful
/// response, or the error of a failed one.
async fn read_response(read: &mut BufReader<OwnedReadHalf>) -> Result<Option<Value>, ClientError> {
    let mut line = Vec::new();
    let n = (&mut *read)
        .take(MAX_RESPONSE_BYTES as u64 + 1)
        .read_until(b'\n', &mut line)
        .await?;
    if n == 0 {
        return Ok(None);
    }
    if line.len() > MAX_RESPONSE_BYTES {
        return Err(ClientError::Protocol(format!(
            "an answer longer than {MAX_RESPONSE_BYTES} bytes"
        )));
    }
    let response: ResponseLine = serde_json::from_slice(&line)
        .map_err(|e| ClientError::Protocol(format!("not a response line: {e}")))?;
    if response.v != API_VERSION {
        return Err(ClientError::Protocol(format!(
            "the node speaks API version {}, this client version {API_VERSION}",
            response.v
        )));
    }
    if response.ok {
        Ok(Some(response.result.unwrap_or(Value::Null)))
    } else {
        Err(ClientError::Api(response.error.unwrap_or_else(|| {
            ApiError::internal("the node reported an error without saying which")
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::watch::{NodeEvent, WatchEvent};
    use crate::control::{self, ControlRequest};
    use serde_json::json;
    use tokio::sync::{broadcast, mpsc, oneshot};

    #[tokio::test]
    async fn no_node_means_not_running() {
        let dir = tempfile::tempdir().unwrap();
        let err = call(dir.path(), ApiRequest::Status(request::Status {}))
            .await
            .unwrap_err();
        assert!(matches!(err, ClientError::NotRunning { .. }), "{err:?}");
        assert!(err.to_string().contains("not running"));
        // A socket file nobody listens on (a node that died) is the same.
        drop(std::os::unix::net::UnixListener::bind(home::socket_path(dir.path())).unwrap());
        let err = call(dir.path(), ApiRequest::Status(request::Status {}))
            .await
            .unwrap_err();
        assert!(matches!(err, ClientError::NotRunning { .. }), "{err:?}");
    }

    #[tokio::test]
    async fn call_and_watch_through_the_control_socket() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().to_path_buf();
        let (requests, mut inbox) = mpsc::channel::<ControlRequest>(4);
        tokio::spawn(async move {
            while let Some(ControlRequest { request, reply }) = inbox.recv().await {
                let _ = reply.send(match request {
                    ApiRequest::Status(request::Status {}) => Ok(json!({"games": 3})),
                    _ => Err(ApiError::user("unknown game").hint("see `sobre games`")),
                });
            }
        });
        let (events, _) = broadcast::channel(8);
        let (stop, stopped) = oneshot::channel::<()>();
        let server = tokio::spawn({
            let (home, events) = (home.clone(), events.clone());
            async move {
                control::serve(&home, requests, events, async {
                    let _ = stopped.await;
                })
                .await
            }
        });
        let status = loop {
            match call(&home, ApiRequest::Status(request::Status {})).await {
                Err(ClientError::NotRunning { .. }) => tokio::task::yield_now().await,
                other => break other.unwrap(),
            }
        };
        assert_eq!(status["games"], 3);
        let err = call(
            &home,
            ApiRequest::Resign(request::Resign { game: "zz".into() }),
        )
        .await
        .unwrap_err();
        match err {
            ClientError::Api(e) => assert_eq!(e.hint.as_deref(), Some("see `sobre games`")),
            other => panic!("{other:?}"),
        }

        let publisher = tokio::spawn({
            let events = events.clone();
            async move {
                while events.receiver_count() == 0 {
                    tokio::task::yield_now().await;
                }
                for time_ms in [1, 2] {
                    events
                        .send(WatchEvent {
                            game: "ab".into(),
                            time_ms,
                            detail: NodeEvent::League { documents: 1 }.into(),
                        })
                        .unwrap();
                }
            }
        });
        let mut seen = Vec::new();
        watch(&home, Some("a".into()), |v| {
            seen.push(v["time_ms"].clone());
            seen.len() < 2
        })
        .await
        .unwrap();
        publisher.await.unwrap();
        assert_eq!(seen, [json!(1), json!(2)]);
        let _ = stop.send(());
        server.await.unwrap().unwrap();
    }
}
