//! Delivery streams (`/sobre/deliver-stream/1`): one long-lived libp2p stream per peer
//! carries any number of deliveries, pipelined, each answered in order on the same stream.
//!
//! Why not only `/sobre/deliver/1`: on request-response every delivery opens a Yamux
//! stream, negotiates the protocol with multistream-select, arms a timer and closes the
//! stream again, on both nodes. A mailbox ingesting thousands of moves a second spent more
//! CPU on that than on verifying, storing and signing (docs/performance.md). On a stream a
//! delivery costs one frame each way. Request-response stays: it is what a peer without the
//! stream protocol speaks, and what syncs use.
//!
//! The frames are those of `/sobre/deliver/1` (a u32 big-endian length, capped before
//! anything is read, then `protocol::encode`). Every request read off a served stream goes
//! through the event loop like a request-response one: block list, rate limit, strikes,
//! refusal reasons.

use std::time::Duration;

use futures::{AsyncReadExt, AsyncWriteExt};
use libp2p::{PeerId, Stream, StreamProtocol};
use tokio::sync::{mpsc, oneshot};
use tracing::{debug, warn};

use super::NetworkError;
use super::codec::{
    Exchange, Frame, WireRequest, decode_request, frame_len, read_frame, write_frame_unflushed,
};
use super::traffic::Traffic;
use crate::protocol::{
    self, DELIVER_STREAM_PROTOCOL, MAX_MESSAGE_BYTES, MAX_PIPELINED, Request, Response,
};
use std::sync::Arc;

/// What a served stream's task tells the event loop.
pub(super) enum StreamMsg {
    /// A request read off the stream; the answer goes back on `reply`.
    Request {
        peer: PeerId,
        request: WireRequest,
        reply: oneshot::Sender<Response>,
    },
    /// The stream is gone (closed, idle, broken or cut off after an oversized frame).
    Closed { peer: PeerId },
}

/// A delivery waiting for its pipe, and where its answer goes.
pub type Outgoing = (Request, oneshot::Sender<Result<Response, NetworkError>>);

/// The stream protocol, as libp2p names it.
pub fn protocol_id() -> StreamProtocol {
    StreamProtocol::new(DELIVER_STREAM_PROTOCOL)
}

/// Serves one inbound delivery stream from `peer` until the peer closes it, it stays idle
/// for `idle`, it breaks, or a frame announces more than [`MAX_MESSAGE_BYTES`] (the rest of
/// the stream cannot be framed any more: answered `Refused`, then closed). Answers wait at
/// most `answer_timeout` for the service, then say `Refused { "timeout" }`.
pub(super) async fn serve(
    peer: PeerId,
    stream: Stream,
    to_loop: mpsc::Sender<StreamMsg>,
    answer_timeout: Duration,
    idle: Duration,
    traffic: Arc<Traffic>,
) {
    let (mut rd, mut wr) = stream.split();
    // Answers in the order of the requests; bounded, so a peer that never reads its
    // answers stops being read.
    let (order_tx, mut order_rx) = mpsc::channel::<oneshot::Receiver<Response>>(MAX_PIPELINED);
    let reader = {
        let to_loop = to_loop.clone();
        let traffic = traffic.clone();
        async move {
            loop {
                let frame = match tokio::time::timeout(idle, read_frame(&mut rd, &traffic)).await {
                    Ok(Ok(frame)) => frame,
                    Ok(Err(e)) => {
                        if e.kind() != std::io::ErrorKind::UnexpectedEof {
                            debug!(peer = %peer, error = %e, "delivery stream read failed");
                        }
                        break;
                    }
                    Err(_) => {
                        debug!(peer = %peer, "delivery stream idle: closing");
                        break;
                    }
                };
                let (request, last) = match frame {
                    Frame::Bytes(bytes) => (
                        decode_request(Exchange::Deliver, DELIVER_STREAM_PROTOCOL, &bytes),
                        false,
                    ),
                    Frame::TooLarge(len) => (
                        WireRequest::Malformed(format!(
                            "frame of {len} bytes exceeds the {MAX_MESSAGE_BYTES}-byte limit"
                        )),
                        true,
                    ),
                };
                let (tx, rx) = oneshot::channel();
                if order_tx.send(rx).await.is_err() {
                    break;
                }
                let msg = StreamMsg::Request {
                    peer,
                    request,
                    reply: tx,
                };
                if to_loop.send(msg).await.is_err() || last {
                    break;
                }
            }
            // Dropping `order_tx` lets the writer answer what was read, then close.
        }
    };
    let writer = async move {
        // An answer's receiver taken off the queue and not awaited yet.
        let mut carried = None;
        loop {
            let rx = match carried.take() {
                Some(rx) => rx,
                None => match order_rx.recv().await {
                    Some(rx) => rx,
                    None => break,
                },
            };
            let mut sent =
                write_response(&mut wr, answer(rx, answer_timeout).await, &traffic).await;
            // Answers already there leave in the same flush (one Noise frame, one write):
            // under load the service answers a whole storage batch at once. Nothing written
            // waits unflushed for an answer still to come.
            while sent.is_ok() {
                let Ok(mut rx) = order_rx.try_recv() else {
                    break;
                };
                match rx.try_recv() {
                    Ok(response) => sent = write_response(&mut wr, response, &traffic).await,
                    Err(oneshot::error::TryRecvError::Empty) => {
                        carried = Some(rx);
                        break;
                    }
                    Err(oneshot::error::TryRecvError::Closed) => {
                        sent = write_response(&mut wr, no_answer(), &traffic).await;
                    }
                }
            }
            if let Err(e) = match sent {
                Ok(()) => wr.flush().await,
                Err(e) => Err(e),
            } {
                debug!(peer = %peer, error = %e, "delivery stream write failed");
                return;
            }
        }
        let _ = wr.close().await;
    };
    futures::join!(reader, writer);
    let _ = to_loop.send(StreamMsg::Closed { peer }).await;
}

fn no_answer() -> Response {
    Response::Refused {
        reason: "no answer".into(),
    }
}

/// The service's answer, or a refusal when it gives none in time.
pub(super) async fn answer(rx: oneshot::Receiver<Response>, timeout: Duration) -> Response {
    match tokio::time::timeout(timeout, rx).await {
        Ok(Ok(response)) => response,
        Ok(Err(_)) => no_answer(),
        Err(_) => Response::Refused {
            reason: "timeout".into(),
        },
    }
}

async fn write_response<W: futures::AsyncWrite + Unpin>(
    io: &mut W,
    response: Response,
    traffic: &Traffic,
) -> std::io::Result<()> {
    let bytes = protocol::encode(&response).map_err(std::io::Error::other)?;
    write_frame_unflushed(io, &bytes, traffic).await
}

/// Carries deliveries to `peer` on one stream opened through `control`, pipelined up to
/// [`MAX_PIPELINED`], until `queue` is dropped, nothing comes for `idle` (the connection
/// may then idle out: a correspondence game is quiet for days), or the stream breaks. An
/// answer not read within `answer_timeout` breaks the stream. Deliveries queued when the
/// pipe ends are failed with [`NetworkError::Transport`]; the outbox retries them.
///
/// The node runs one per peer that announced the protocol; any libp2p client with a
/// [`libp2p_stream::Behaviour`] can run it too (the load peers of the `node_bench` bench do,
/// in `node/benches/node_bench/peers.rs`).
pub async fn pipe(
    peer: PeerId,
    mut control: libp2p_stream::Control,
    mut queue: mpsc::Receiver<Outgoing>,
    answer_timeout: Duration,
    idle: Duration,
    traffic: Arc<Traffic>,
) {
    let closed = || NetworkError::Transport(format!("delivery stream to {peer} closed"));
    let stream = match control.open_stream(peer, protocol_id()).await {
        Ok(stream) => stream,
        Err(e) => {
            debug!(peer = %peer, error = %e, "cannot open a delivery stream");
            queue.close();
            while let Some((_, reply)) = queue.recv().await {
                let _ = reply.send(Err(NetworkError::Transport(format!(
                    "delivery stream to {peer}: {e}"
                ))));
            }
            return;
        }
    };
    let (mut rd, mut wr) = stream.split();
    type Waiting = oneshot::Sender<Result<Response, NetworkError>>;
    let (order_tx, mut order_rx) = mpsc::channel::<Waiting>(MAX_PIPELINED);
    // Resolves when the reader stops, so the writer stops taking deliveries at once.
    let (reader_alive, mut reader_gone) = oneshot::channel::<()>();
    let writer = async {
        loop {
            let (request, reply) = tokio::select! {
                biased;
                _ = &mut reader_gone => break,
                next = tokio::time::timeout(idle, queue.recv()) => match next {
                    Ok(Some(item)) => item,
                    Ok(None) | Err(_) => break,
                },
            };
            // Refused here, before it takes a place in line: a frame that cannot be sent
            // would leave its place waiting for an answer.
            let encoded = protocol::encode(&request)
                .map_err(|e| e.to_string())
                .and_then(|bytes| match frame_len(&bytes) {
                    Ok(_) => Ok(bytes),
                    Err(e) => Err(e.to_string()),
                });
            let bytes = match encoded {
                Ok(bytes) => bytes,
                Err(e) => {
                    let _ = reply.send(Err(NetworkError::Codec(e)));
                    continue;
                }
            };
            // The answer's place in line. When the line is full, what was written goes out
            // before waiting: the answers that free the line need it.
            let queued = match order_tx.try_send(reply) {
                Ok(()) => Ok(()),
                Err(mpsc::error::TrySendError::Full(reply)) => match wr.flush().await {
                    Ok(()) => order_tx.send(reply).await.map_err(|e| e.0),
                    Err(e) => {
                        debug!(peer = %peer, error = %e, "delivery stream write failed");
                        let _ = reply.send(Err(closed()));
                        break;
                    }
                },
                Err(mpsc::error::TrySendError::Closed(reply)) => Err(reply),
            };
            if let Err(reply) = queued {
                let _ = reply.send(Err(closed()));
                break;
            }
            let mut sent = write_frame_unflushed(&mut wr, &bytes, &traffic).await;
            // Deliveries queued together leave in one flush; nothing written waits
            // unflushed for a delivery still to come.
            if sent.is_ok() && queue.is_empty() {
                sent = wr.flush().await;
            }
            if let Err(e) = sent {
                debug!(peer = %peer, error = %e, "delivery stream write failed");
                break;
            }
        }
        drop(order_tx);
        let _ = wr.close().await;
        queue.close();
        while let Ok((_, reply)) = queue.try_recv() {
            let _ = reply.send(Err(closed()));
        }
    };
    let reader = async {
        let _alive = reader_alive;
        while let Some(reply) = order_rx.recv().await {
            let (result, broken) = match tokio::time::timeout(
                answer_timeout,
                read_frame(&mut rd, &traffic),
            )
            .await
            {
                Ok(Ok(Frame::Bytes(bytes))) => match protocol::decode::<Response>(&bytes) {
                    Ok(Response::Refused { reason }) => {
                        debug!(peer = %peer, %reason, "delivery refused");
                        (Err(NetworkError::Refused(reason)), false)
                    }
                    Ok(response) => (Ok(response), false),
                    Err(e) => {
                        warn!(peer = %peer, error = %e, "malformed answer on a delivery stream");
                        (Err(NetworkError::Codec(e.to_string())), true)
                    }
                },
                Ok(Ok(Frame::TooLarge(len))) => {
                    warn!(peer = %peer, len, "oversized answer on a delivery stream");
                    (
                        Err(NetworkError::Codec(format!(
                            "answer of {len} bytes exceeds the {MAX_MESSAGE_BYTES}-byte limit"
                        ))),
                        true,
                    )
                }
                Ok(Err(e)) => (Err(NetworkError::Transport(e.to_string())), true),
                Err(_) => (Err(NetworkError::Timeout), true),
            };
            let _ = reply.send(result);
            if broken {
                break;
            }
        }
        order_rx.close();
        while let Ok(reply) = order_rx.try_recv() {
            let _ = reply.send(Err(closed()));
        }
    };
    futures::join!(writer, reader);
}
