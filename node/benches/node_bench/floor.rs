//! The floor under the node's move round trip: what libp2p and sled alone cost for the same
//! exchange, measured in the same run so that the machine's load is the same.
//!
//! Two bare libp2p swarms in this process, on loopback, with the node's transport (TCP with
//! `nodelay`, Noise, Yamux, as `network/behaviour.rs` builds it) and one request-response protocol with
//! a length-prefixed frame, each with its own sled database in a temporary directory, opened
//! as the node's `Store` opens its own. One round trip: the sender stores a 300-byte record
//! and flushes (a move is durable before it is sent), sends it, the receiver stores it and
//! flushes, and answers with the record's key. Nothing else: no signatures, no rules, no
//! control socket, no task between the network and the database.

use crate::Res;
use crate::stats::ms;
use futures::{AsyncReadExt, AsyncWriteExt, StreamExt};
use libp2p::request_response::{self, ProtocolSupport};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, StreamProtocol, Swarm};
use sobre_node::network::NetworkConfig;
use std::path::Path;
use std::time::{Duration, Instant};
use tempfile::TempDir;
use tokio::sync::{mpsc, oneshot};

const PROTOCOL: &str = "/sobre-bench/floor/1";
/// About a signed move event on the wire.
const RECORD_BYTES: usize = 300;
/// Game id and sequence number, as the node keys an event.
const KEY_BYTES: usize = 40;
/// A frame announcing more is refused before anything is allocated.
const MAX_FRAME: u32 = 64 * 1024;
/// The node's idle connection timeout (`network/config.rs`): a connection outlives the run.
const IDLE_CONNECTION_TIMEOUT: Duration = Duration::from_secs(120);
/// Round trips before the timed ones, in each direction: connection, Noise and Yamux set up,
/// sled's files grown, as the nodes' challenge and accept do before their first move.
const WARM_UP: usize = 4;

type Reply = oneshot::Sender<Result<Vec<u8>, String>>;

/// A request for a swarm's task: send `record` to `to` (at `addr`) and pass on the answer.
struct Outgoing {
    to: PeerId,
    addr: Multiaddr,
    record: Vec<u8>,
    reply: Reply,
}

/// One side of the floor: a swarm run by its own task, and its database.
struct Side {
    _dir: TempDir,
    db: sled::Db,
    tree: sled::Tree,
    peer: PeerId,
    addr: Multiaddr,
    send: mpsc::UnboundedSender<Outgoing>,
    task: tokio::task::JoinHandle<()>,
}

/// Round trips timed, in milliseconds.
#[derive(Default)]
pub struct Times {
    /// The sender's insert and flush.
    pub local: Vec<f64>,
    /// The whole round trip.
    pub total: Vec<f64>,
}

/// Two sides connected on loopback.
pub struct Floor {
    sides: [Side; 2],
    /// Records sent so far (keys are unique across the run).
    seq: u64,
}

impl Floor {
    pub async fn start() -> Res<Floor> {
        let a = Side::start().await?;
        let b = Side::start().await?;
        Ok(Floor {
            sides: [a, b],
            seq: 0,
        })
    }

    /// [`WARM_UP`] untimed round trips each way.
    pub async fn warm_up(&mut self) -> Res<()> {
        for i in 0..2 * WARM_UP {
            self.round_trip(i % 2).await?;
        }
        Ok(())
    }

    /// `n` timed round trips, alternating the sender as the nodes alternate the mover.
    pub async fn round_trips(&mut self, n: usize) -> Res<Times> {
        let mut out = Times::default();
        for i in 0..n {
            let (local, total) = self.round_trip(i % 2).await?;
            out.local.push(ms(local));
            out.total.push(ms(total));
        }
        Ok(out)
    }

    /// One round trip from side `from`, timed from before its insert: (until its flush
    /// returned, until the answer).
    async fn round_trip(&mut self, from: usize) -> Res<(Duration, Duration)> {
        self.seq += 1;
        let (key, record) = record(self.seq);
        let (sender, receiver) = (&self.sides[from], &self.sides[1 - from]);
        let t0 = Instant::now();
        sender.tree.insert(&key[..], &record[KEY_BYTES..])?;
        sender.db.flush_async().await?;
        let local = t0.elapsed();
        let (reply, answer) = oneshot::channel();
        sender
            .send
            .send(Outgoing {
                to: receiver.peer,
                addr: receiver.addr.clone(),
                record,
                reply,
            })
            .map_err(|_| "floor: swarm task stopped")?;
        let answer = answer.await.map_err(|_| "floor: swarm task stopped")??;
        let elapsed = t0.elapsed();
        // The answer names the record stored: anything else is a broken exchange, not a
        // fast one.
        if answer != key {
            return Err("floor: the answer does not name the record sent".into());
        }
        Ok((local, elapsed))
    }

    /// Stops both swarms, then checks that each database holds every record of the run
    /// (each side stored its own and the other's).
    pub async fn stop(self) -> Res<()> {
        let mut held = Vec::new();
        for side in self.sides {
            drop(side.send);
            let _ = tokio::time::timeout(Duration::from_secs(5), side.task).await;
            held.push(side.tree.len());
        }
        let sent = usize::try_from(self.seq)?;
        if held.iter().any(|&n| n != sent) {
            return Err(format!("floor: {sent} records sent, the databases hold {held:?}").into());
        }
        Ok(())
    }
}

/// Record `seq`: a 40-byte key (a fixed game id, then `seq`) and 300 bytes that do not
/// repeat, sent as key then value.
fn record(seq: u64) -> ([u8; KEY_BYTES], Vec<u8>) {
    let mut key = [0x5b; KEY_BYTES];
    key[KEY_BYTES - 8..].copy_from_slice(&seq.to_be_bytes());
    let mut x = seq.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut bytes = key.to_vec();
    bytes.extend((0..RECORD_BYTES).map(|_| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as u8
    }));
    (key, bytes)
}

/// sled opened as `Store::open` opens the node's database.
fn open_db(dir: &Path) -> Res<sled::Db> {
    Ok(sled::Config::new()
        .path(dir)
        .mode(sled::Mode::HighThroughput)
        .cache_capacity(32 << 20)
        .open()?)
}

impl Side {
    /// A swarm listening on loopback, its task started.
    async fn start() -> Res<Side> {
        let dir = tempfile::tempdir()?;
        let db = open_db(dir.path())?;
        let tree = db.open_tree("events")?;
        let key = libp2p::identity::Keypair::generate_ed25519();
        // The node's request timeout, from its own configuration.
        let timeout = NetworkConfig::new(key.clone()).request_timeout;
        let mut swarm = libp2p::SwarmBuilder::with_existing_identity(key)
            .with_tokio()
            .with_tcp(
                libp2p::tcp::Config::default().nodelay(true),
                libp2p::noise::Config::new,
                libp2p::yamux::Config::default,
            )?
            .with_behaviour(|_| {
                request_response::Behaviour::with_codec(
                    FloorCodec,
                    [(StreamProtocol::new(PROTOCOL), ProtocolSupport::Full)],
                    request_response::Config::default().with_request_timeout(timeout),
                )
            })?
            .with_swarm_config(|c| c.with_idle_connection_timeout(IDLE_CONNECTION_TIMEOUT))
            .build();
        swarm.listen_on("/ip4/127.0.0.1/tcp/0".parse()?)?;
        let deadline = Instant::now() + Duration::from_secs(10);
        let addr = loop {
            let ev = tokio::time::timeout_at(deadline.into(), swarm.select_next_some())
                .await
                .map_err(|_| "floor: no listen address")?;
            if let SwarmEvent::NewListenAddr { address, .. } = ev {
                break address;
            }
        };
        let peer = *swarm.local_peer_id();
        let (send, queue) = mpsc::unbounded_channel();
        let task = tokio::spawn(drive(swarm, queue, db.clone(), tree.clone()));
        Ok(Side {
            _dir: dir,
            db,
            tree,
            peer,
            addr,
            send,
            task,
        })
    }
}

type Behaviour = request_response::Behaviour<FloorCodec>;

/// Runs a side's swarm until its queue is dropped: sends what is queued, and stores and
/// flushes each record received before answering it (on this task: no hop between the
/// network and the database).
async fn drive(
    mut swarm: Swarm<Behaviour>,
    mut queue: mpsc::UnboundedReceiver<Outgoing>,
    db: sled::Db,
    tree: sled::Tree,
) {
    let mut waiting = std::collections::HashMap::<_, Reply>::new();
    loop {
        tokio::select! {
            send = queue.recv() => {
                let Some(s) = send else { break };
                let id = swarm
                    .behaviour_mut()
                    .send_request_with_addresses(&s.to, s.record, vec![s.addr]);
                waiting.insert(id, s.reply);
            }
            ev = swarm.select_next_some() => match ev {
                SwarmEvent::Behaviour(request_response::Event::Message { message, .. }) => {
                    match message {
                        request_response::Message::Request { request, channel, .. } => {
                            // A request that cannot be stored gets no answer: the sender's
                            // request fails, and the run with it.
                            let Some((key, value)) = request.split_at_checked(KEY_BYTES) else {
                                continue;
                            };
                            if tree.insert(key, value).is_err() || db.flush_async().await.is_err() {
                                continue;
                            }
                            let _ = swarm.behaviour_mut().send_response(channel, key.to_vec());
                        }
                        request_response::Message::Response { request_id, response } => {
                            if let Some(r) = waiting.remove(&request_id) {
                                let _ = r.send(Ok(response));
                            }
                        }
                    }
                }
                SwarmEvent::Behaviour(request_response::Event::OutboundFailure {
                    request_id, error, ..
                }) => {
                    if let Some(r) = waiting.remove(&request_id) {
                        let _ = r.send(Err(format!("floor: {error}")));
                    }
                }
                _ => {}
            },
        }
    }
}

/// Requests and answers as one frame each: a 4-byte big-endian length, then the bytes,
/// written in one write as the node writes its frames.
#[derive(Clone, Default)]
struct FloorCodec;

async fn read_frame<T: futures::AsyncRead + Unpin + Send>(io: &mut T) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    io.read_exact(&mut len).await?;
    let len = u32::from_be_bytes(len);
    if len > MAX_FRAME {
        return Err(std::io::Error::other(format!(
            "frame of {len} bytes exceeds {MAX_FRAME}"
        )));
    }
    let mut buf = vec![0u8; len as usize];
    io.read_exact(&mut buf).await?;
    Ok(buf)
}

async fn write_frame<T: futures::AsyncWrite + Unpin + Send>(
    io: &mut T,
    bytes: &[u8],
) -> std::io::Result<()> {
    let len = u32::try_from(bytes.len()).map_err(std::io::Error::other)?;
    let mut frame = Vec::with_capacity(4 + bytes.len());
    frame.extend_from_slice(&len.to_be_bytes());
    frame.extend_from_slice(bytes);
    io.write_all(&frame).await?;
    io.flush().await
}

impl request_response::Codec for FloorCodec {
    type Protocol = StreamProtocol;
    type Request = Vec<u8>;
    type Response = Vec<u8>;

    async fn read_request<T>(&mut self, _: &StreamProtocol, io: &mut T) -> std::io::Result<Vec<u8>>
    where
        T: futures::AsyncRead + Unpin + Send,
    {
        read_frame(io).await
    }

    async fn read_response<T>(&mut self, _: &StreamProtocol, io: &mut T) -> std::io::Result<Vec<u8>>
    where
        T: futures::AsyncRead + Unpin + Send,
    {
        read_frame(io).await
    }

    async fn write_request<T>(
        &mut self,
        _: &StreamProtocol,
        io: &mut T,
        request: Vec<u8>,
    ) -> std::io::Result<()>
    where
        T: futures::AsyncWrite + Unpin + Send,
    {
        write_frame(io, &request).await
    }

    async fn write_response<T>(
        &mut self,
        _: &StreamProtocol,
        io: &mut T,
        response: Vec<u8>,
    ) -> std::io::Result<()>
    where
        T: futures::AsyncWrite + Unpin + Send,
    {
        write_frame(io, &response).await
    }
}
