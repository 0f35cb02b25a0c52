//! Client peers: full libp2p nodes without a service, and light load generators.

use crate::Res;
use futures::{StreamExt, TryStreamExt};
use sobre_core::record::Keypair;
use sobre_node::home;
use sobre_node::network::{self, NetworkConfig, NetworkEvent, NetworkHandle};
use sobre_node::protocol::{self, GameHead, Request, Response};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// A client peer: its own libp2p swarm with a fresh key, connected to `addr`.
pub struct Peer {
    pub net: NetworkHandle,
}

pub async fn client_peers(n: usize, addr: &str) -> Res<(Vec<Peer>, libp2p::PeerId)> {
    let keys = (0..n)
        .map(|_| Keypair::from_secret_bytes(&rand::random()))
        .collect();
    client_peers_as(keys, addr).await
}

/// Client peers with the given player keys (a player's own node is its key's peer), which
/// answer nothing: a mailbox meeting one takes its slowest path (its `GamesSince`
/// unanswered, it syncs every game it holds with that player).
pub async fn client_peers_as(keys: Vec<Keypair>, addr: &str) -> Res<(Vec<Peer>, libp2p::PeerId)> {
    clients(keys.into_iter().map(|k| (k, None)).collect(), addr).await
}

/// Client peers with the given player keys that answer their mailbox (`addr`) as a caught-up
/// player's node does, and nothing else: each reserves the mailbox and raises its rate limit
/// before dialing (`net.reserve`, as a node does for its mailboxes at start) and answers its
/// `GamesSince` with the heads of the player's games it is given, under an epoch of its own,
/// so that the mailbox syncs only what it lacks. It signs and verifies nothing: a model of a
/// player's reconnection on the wire, not of its node.
pub async fn answering_clients(
    clients_heads: Vec<(Keypair, Vec<GameHead>)>,
    addr: &str,
) -> Res<Vec<Peer>> {
    let with = clients_heads
        .into_iter()
        .map(|(k, h)| (k, Some(h)))
        .collect();
    Ok(clients(with, addr).await?.0)
}

/// Clients started and dialed [`CLIENTS_AT_ONCE`] at a time (in the order given): one by
/// one, a thousand of them took the storm 29 s to connect, longer than the mailbox took to
/// serve them.
async fn clients(
    keys: Vec<(Keypair, Option<Vec<GameHead>>)>,
    addr: &str,
) -> Res<(Vec<Peer>, libp2p::PeerId)> {
    let mailbox: Option<libp2p::PeerId> = addr
        .rsplit_once("/p2p/")
        .and_then(|(_, id)| id.parse().ok());
    let target: libp2p::Multiaddr = addr.parse()?;
    let started: Vec<(Peer, libp2p::PeerId)> = futures::stream::iter(keys)
        .map(|(k, heads)| client(k, heads, mailbox, target.clone()))
        .buffered(CLIENTS_AT_ONCE)
        .try_collect()
        .await?;
    let server = started.first().map(|(_, s)| *s).ok_or("no client peers")?;
    Ok((started.into_iter().map(|(p, _)| p).collect(), server))
}

/// Client peers dialing at once: well under the node's limit of pending incoming
/// connections (64, `network::limits`).
const CLIENTS_AT_ONCE: usize = 16;

/// One client of [`clients`]: its swarm started, answering as `heads` says, dialed to `addr`.
async fn client(
    k: Keypair,
    heads: Option<Vec<GameHead>>,
    mailbox: Option<libp2p::PeerId>,
    addr: libp2p::Multiaddr,
) -> Res<(Peer, libp2p::PeerId)> {
    let mut cfg = NetworkConfig::new(home::libp2p_keypair(&k)?);
    cfg.listen = Vec::new();
    let (net, mut events) = network::spawn(cfg).await?;
    if heads.is_some()
        && let Some(m) = mailbox
    {
        net.reserve(vec![m]).await?;
    }
    // Epoch 0 means "not your mailbox" to the asker: any other will do.
    let epoch = rand::random::<u64>() | 1;
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            if let (
                Some(heads),
                NetworkEvent::InboundRequest {
                    request: Request::GamesSince { .. },
                    reply,
                    ..
                },
            ) = (&heads, event)
            {
                let _ = reply.send(Response::GameHeads {
                    epoch,
                    cursor: heads.len() as u64,
                    heads: heads.clone(),
                });
            }
        }
    });
    let server = net.dial(addr).await?;
    Ok((Peer { net }, server))
}

/// A load-generating peer of the mailbox phase: a real libp2p swarm (TCP, Noise, Yamux) that
/// delivers either as a player's node does (one `/sobre/deliver-stream/1` stream, run by the
/// node's own `network::pipe::pipe`) or as a node without streams does (`/sobre/deliver/1`
/// request-response, one stream per delivery, with the node's framing). A player's full node
/// also runs gossipsub, Kademlia, identify and the rest; on this 2-core machine the
/// generator's CPU is taken from the mailbox measured, so it carries only what a delivery
/// needs. The mailbox itself is the real node, unchanged.
pub struct LightPeer {
    via: Via,
    rr: mpsc::UnboundedSender<(Request, oneshot::Sender<Result<Response, String>>)>,
    pipe: mpsc::Sender<network::pipe::Outgoing>,
}

/// How the load peers deliver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// One long-lived stream per peer, pipelined (what nodes use between themselves).
    Stream,
    /// Request-response, a new stream per delivery.
    RequestResponse,
}

#[derive(libp2p::swarm::NetworkBehaviour)]
struct Light {
    rr: libp2p::request_response::Behaviour<FrameCodec>,
    stream: libp2p_stream::Behaviour,
}

/// The deliver protocol's framing, client side.
#[derive(Clone, Default)]
struct FrameCodec;

impl libp2p::request_response::Codec for FrameCodec {
    type Protocol = libp2p::StreamProtocol;
    type Request = Request;
    type Response = Response;

    async fn read_request<T>(&mut self, _: &Self::Protocol, _: &mut T) -> std::io::Result<Request>
    where
        T: futures::AsyncRead + Unpin + Send,
    {
        Err(std::io::Error::other("the load generator serves nothing"))
    }

    async fn read_response<T>(
        &mut self,
        _: &Self::Protocol,
        io: &mut T,
    ) -> std::io::Result<Response>
    where
        T: futures::AsyncRead + Unpin + Send,
    {
        use futures::AsyncReadExt;
        let mut len = [0u8; 4];
        io.read_exact(&mut len).await?;
        let mut buf = vec![0u8; u32::from_be_bytes(len) as usize];
        io.read_exact(&mut buf).await?;
        protocol::decode(&buf).map_err(std::io::Error::other)
    }

    async fn write_request<T>(
        &mut self,
        _: &Self::Protocol,
        io: &mut T,
        request: Request,
    ) -> std::io::Result<()>
    where
        T: futures::AsyncWrite + Unpin + Send,
    {
        use futures::AsyncWriteExt;
        let bytes = protocol::encode(&request).map_err(std::io::Error::other)?;
        let mut frame = Vec::with_capacity(4 + bytes.len());
        frame.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        frame.extend_from_slice(&bytes);
        io.write_all(&frame).await?;
        io.flush().await
    }

    async fn write_response<T>(
        &mut self,
        _: &Self::Protocol,
        _: &mut T,
        _: Response,
    ) -> std::io::Result<()>
    where
        T: futures::AsyncWrite + Unpin + Send,
    {
        Err(std::io::Error::other("the load generator serves nothing"))
    }
}

impl LightPeer {
    /// A light peer with a fresh key, connected to the node at `addr` (`server`).
    pub async fn connect(addr: &str, server: libp2p::PeerId, via: Via) -> Res<LightPeer> {
        use libp2p::request_response::{self, ProtocolSupport};
        use libp2p::swarm::SwarmEvent;
        let addr: libp2p::Multiaddr = addr.parse()?;
        let mut swarm = libp2p::SwarmBuilder::with_new_identity()
            .with_tokio()
            .with_tcp(
                libp2p::tcp::Config::default().nodelay(true),
                libp2p::noise::Config::new,
                libp2p::yamux::Config::default,
            )?
            .with_behaviour(|_| Light {
                rr: request_response::Behaviour::with_codec(
                    FrameCodec,
                    [(
                        libp2p::StreamProtocol::new(sobre_node::protocol::DELIVER_PROTOCOL),
                        ProtocolSupport::Outbound,
                    )],
                    request_response::Config::default()
                        .with_request_timeout(Duration::from_secs(60))
                        .with_max_concurrent_streams(1024),
                ),
                stream: libp2p_stream::Behaviour::new(),
            })?
            .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(120)))
            .build();
        swarm.dial(addr.clone())?;
        // Connected before the first request, as a player's node is.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ev = tokio::time::timeout_at(deadline.into(), swarm.select_next_some())
                .await
                .map_err(|_| "light peer: no connection")?;
            match ev {
                SwarmEvent::ConnectionEstablished { peer_id, .. } if peer_id == server => break,
                SwarmEvent::OutgoingConnectionError { error, .. } => {
                    return Err(format!("light peer: {error}").into());
                }
                _ => {}
            }
        }
        let (pipe, queue) = mpsc::channel(sobre_node::protocol::MAX_PIPELINED);
        if via == Via::Stream {
            tokio::spawn(network::pipe::pipe(
                server,
                swarm.behaviour().stream.new_control(),
                queue,
                Duration::from_secs(60),
                Duration::from_secs(120),
                std::sync::Arc::new(network::Traffic::default()),
            ));
        }
        let (tx, mut rx) =
            mpsc::unbounded_channel::<(Request, oneshot::Sender<Result<Response, String>>)>();
        tokio::spawn(async move {
            let mut waiting = std::collections::HashMap::new();
            loop {
                tokio::select! {
                    cmd = rx.recv() => {
                        let Some((req, reply)) = cmd else { break };
                        let id = swarm.behaviour_mut().rr.send_request_with_addresses(&server, req, vec![addr.clone()]);
                        waiting.insert(id, reply);
                    }
                    ev = swarm.select_next_some() => match ev {
                        SwarmEvent::Behaviour(LightEvent::Rr(request_response::Event::Message {
                            message: request_response::Message::Response { request_id, response },
                            ..
                        })) => {
                            if let Some(r) = waiting.remove(&request_id) {
                                let _ = r.send(Ok(response));
                            }
                        }
                        SwarmEvent::Behaviour(LightEvent::Rr(request_response::Event::OutboundFailure {
                            request_id, error, ..
                        })) => {
                            if let Some(r) = waiting.remove(&request_id) {
                                let _ = r.send(Err(error.to_string()));
                            }
                        }
                        _ => {}
                    },
                }
            }
        });
        Ok(LightPeer { via, rr: tx, pipe })
    }

    pub async fn request(&self, req: Request) -> Result<Response, String> {
        let stopped = || "light peer stopped".to_owned();
        match self.via {
            Via::RequestResponse => {
                let (tx, rx) = oneshot::channel();
                self.rr.send((req, tx)).map_err(|_| stopped())?;
                rx.await.map_err(|_| stopped())?
            }
            Via::Stream => {
                let (tx, rx) = oneshot::channel();
                self.pipe.send((req, tx)).await.map_err(|_| stopped())?;
                rx.await.map_err(|_| stopped())?.map_err(|e| e.to_string())
            }
        }
    }
}

pub async fn shutdown_peers(peers: Vec<Peer>) {
    futures::future::join_all(peers.iter().map(|p| p.net.shutdown())).await;
}
