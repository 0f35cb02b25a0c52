//! The wire framing and the request-response codec of `/sobre/deliver/1` and `/sobre/sync/1`:
//! a u32 big-endian length, capped at [`MAX_MESSAGE_BYTES`] before anything is read or
//! allocated, then `protocol::encode`. Apart from the event loop because it is the code that
//! reads a hostile peer's bytes, and because delivery streams ([`super::pipe`]) frame their
//! requests and answers the same way.

use std::io;
use std::sync::Arc;

use futures::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use libp2p::StreamProtocol;
use libp2p::request_response;

use super::traffic::Traffic;
use crate::protocol::{
    self, DELIVER_PROTOCOL, MAX_MESSAGE_BYTES, Request, Response, SYNC_PROTOCOL,
};

/// Which request-response protocol a request travels on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Exchange {
    Deliver,
    Sync,
}

impl Exchange {
    pub(super) fn of(request: &Request) -> Exchange {
        match request {
            Request::Deliver { .. } | Request::League { .. } | Request::Profiles { .. } => {
                Exchange::Deliver
            }
            Request::Sync { .. }
            | Request::Games { .. }
            | Request::GamesSince { .. }
            | Request::LeagueGames { .. }
            | Request::LeagueSince { .. }
            | Request::Instance { .. } => Exchange::Sync,
        }
    }

    pub(super) fn protocol(self) -> &'static str {
        match self {
            Exchange::Deliver => DELIVER_PROTOCOL,
            Exchange::Sync => SYNC_PROTOCOL,
        }
    }
}

/// An inbound request as read off the wire. A bad frame is not an io error: request-response
/// drops read errors without naming the peer, and the peer is exactly what a strike needs.
#[derive(Debug)]
pub(super) enum WireRequest {
    Valid(Request),
    Malformed(String),
}

/// Frames: a u32 big-endian length, then that many bytes of `protocol::encode`; each one
/// counted in the node's [`Traffic`].
#[derive(Clone, Debug, Default)]
pub(super) struct SobreCodec {
    pub(super) traffic: Arc<Traffic>,
}

pub(super) enum Frame {
    Bytes(Vec<u8>),
    TooLarge(u32),
}

pub(super) async fn read_frame<T: AsyncRead + Unpin + Send>(
    io: &mut T,
    traffic: &Traffic,
) -> io::Result<Frame> {
    let mut prefix = [0u8; 4];
    io.read_exact(&mut prefix).await?;
    let len = u32::from_be_bytes(prefix);
    // Checked before reading or allocating anything.
    if u64::from(len) > MAX_MESSAGE_BYTES {
        return Ok(Frame::TooLarge(len));
    }
    // No pre-allocation: the buffer grows only as bytes actually arrive.
    let mut buf = Vec::new();
    io.take(u64::from(len)).read_to_end(&mut buf).await?;
    if buf.len() as u64 != u64::from(len) {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("frame announced {len} bytes, got {}", buf.len()),
        ));
    }
    traffic.frame_received(4 + buf.len());
    Ok(Frame::Bytes(buf))
}

async fn write_frame<T: AsyncWrite + Unpin + Send>(
    io: &mut T,
    bytes: &[u8],
    traffic: &Traffic,
) -> io::Result<()> {
    write_frame_unflushed(io, bytes, traffic).await?;
    io.flush().await
}

/// One frame, length and body in a single write (one Yamux frame rather than two), not
/// flushed: a delivery stream flushes once for the frames that are ready together.
pub(super) async fn write_frame_unflushed<T: AsyncWrite + Unpin>(
    io: &mut T,
    bytes: &[u8],
    traffic: &Traffic,
) -> io::Result<()> {
    let len = frame_len(bytes)?;
    let mut frame = Vec::with_capacity(4 + bytes.len());
    frame.extend_from_slice(&len.to_be_bytes());
    frame.extend_from_slice(bytes);
    io.write_all(&frame).await?;
    traffic.frame_sent(frame.len());
    Ok(())
}

/// The length prefix of a frame carrying `bytes`, if they fit under [`MAX_MESSAGE_BYTES`].
pub(super) fn frame_len(bytes: &[u8]) -> io::Result<u32> {
    u32::try_from(bytes.len())
        .ok()
        .filter(|len| u64::from(*len) <= MAX_MESSAGE_BYTES)
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "message of {} bytes exceeds the {MAX_MESSAGE_BYTES}-byte limit",
                    bytes.len()
                ),
            )
        })
}

/// A request frame's bytes, read on `protocol`, which carries `exchange`'s requests.
pub(super) fn decode_request(exchange: Exchange, protocol: &str, bytes: &[u8]) -> WireRequest {
    let request = match protocol::decode::<Request>(bytes) {
        Ok(request) => request,
        Err(e) => return WireRequest::Malformed(format!("undecodable request: {e}")),
    };
    let belongs = Exchange::of(&request);
    if belongs != exchange {
        return WireRequest::Malformed(format!(
            "request belongs on {}, not {protocol}",
            belongs.protocol()
        ));
    }
    WireRequest::Valid(request)
}

fn invalid_data(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e.to_string())
}

impl request_response::Codec for SobreCodec {
    type Protocol = StreamProtocol;
    type Request = WireRequest;
    type Response = Response;

    async fn read_request<T>(
        &mut self,
        protocol: &StreamProtocol,
        io: &mut T,
    ) -> io::Result<WireRequest>
    where
        T: AsyncRead + Unpin + Send,
    {
        match read_frame(io, &self.traffic).await? {
            Frame::Bytes(bytes) => {
                let exchange = if protocol.as_ref() == SYNC_PROTOCOL {
                    Exchange::Sync
                } else {
                    Exchange::Deliver
                };
                Ok(decode_request(exchange, protocol.as_ref(), &bytes))
            }
            Frame::TooLarge(len) => Ok(WireRequest::Malformed(format!(
                "frame of {len} bytes exceeds the {MAX_MESSAGE_BYTES}-byte limit"
            ))),
        }
    }

    async fn read_response<T>(&mut self, _: &StreamProtocol, io: &mut T) -> io::Result<Response>
    where
        T: AsyncRead + Unpin + Send,
    {
        match read_frame(io, &self.traffic).await? {
            Frame::Bytes(bytes) => protocol::decode(&bytes).map_err(invalid_data),
            Frame::TooLarge(len) => Err(invalid_data(format!(
                "response frame of {len} bytes exceeds the {MAX_MESSAGE_BYTES}-byte limit"
            ))),
        }
    }

    async fn write_request<T>(
        &mut self,
        _: &StreamProtocol,
        io: &mut T,
        request: WireRequest,
    ) -> io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        match request {
            WireRequest::Valid(request) => {
                let bytes = protocol::encode(&request).map_err(invalid_data)?;
                write_frame(io, &bytes, &self.traffic).await
            }
            WireRequest::Malformed(reason) => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("refusing to send a malformed request: {reason}"),
            )),
        }
    }

    async fn write_response<T>(
        &mut self,
        _: &StreamProtocol,
        io: &mut T,
        response: Response,
    ) -> io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        let bytes = protocol::encode(&response).map_err(invalid_data)?;
        write_frame(io, &bytes, &self.traffic).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::io::Cursor;

    #[tokio::test]
    async fn an_oversized_length_prefix_is_refused_before_reading_the_body() {
        let mut bytes = u32::MAX.to_be_bytes().to_vec();
        bytes.extend_from_slice(&[0; 16]);
        let mut io = Cursor::new(bytes);
        assert!(matches!(
            read_frame(&mut io, &Traffic::default()).await,
            Ok(Frame::TooLarge(u32::MAX))
        ));
        assert_eq!(io.position(), 4, "only the prefix was read");
    }

    #[tokio::test]
    async fn requests_round_trip_through_the_codec_on_their_own_protocol() {
        let request = Request::Games {
            player: sobre_core::record::Keypair::from_secret_bytes(&[3; 32]).player_id(),
        };
        let sync = StreamProtocol::new(SYNC_PROTOCOL);
        let deliver = StreamProtocol::new(DELIVER_PROTOCOL);
        let mut codec = SobreCodec::default();
        let mut wire = Cursor::new(Vec::new());
        request_response::Codec::write_request(
            &mut codec,
            &sync,
            &mut wire,
            WireRequest::Valid(request.clone()),
        )
        .await
        .unwrap();
        let bytes = wire.into_inner();

        let read =
            request_response::Codec::read_request(&mut codec, &sync, &mut Cursor::new(&bytes))
                .await
                .unwrap();
        assert!(matches!(read, WireRequest::Valid(r) if r == request));
        // The same bytes on the delivery protocol are a protocol violation.
        let read =
            request_response::Codec::read_request(&mut codec, &deliver, &mut Cursor::new(&bytes))
                .await
                .unwrap();
        assert!(matches!(read, WireRequest::Malformed(_)));
    }
}
