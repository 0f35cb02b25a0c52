//! The network actor over real libp2p on loopback TCP: requests, gossip, hostile frames, rate
//! limits, relayed connections and shutdown.

use crate::common::net::{STEP, config, is_relayed, start, tcp_addr};
use std::io;
use std::time::Duration;

use futures::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, StreamExt};
use libp2p::gossipsub::{MessageAcceptance, MessageId};
use libp2p::identity::Keypair;
use libp2p::multiaddr::Protocol;
use libp2p::request_response::{self, ProtocolSupport};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, StreamProtocol, SwarmBuilder, noise, tcp, yamux};
use sobre_core::record::{EventId, SignedEvent};
use sobre_node::network::{self, NetworkError, NetworkEvent};
use sobre_node::protocol::{self, Gossip, MAX_MESSAGE_BYTES, Request, Response, SYNC_PROTOCOL};
use tokio::sync::mpsc;
use tokio::time::timeout;

fn game() -> EventId {
    EventId([7; 32])
}

pub(crate) fn sync_request() -> Request {
    Request::Sync {
        game: game(),
        have: Vec::new(),
    }
}

pub(crate) fn events_response() -> Response {
    Response::Events {
        events: vec![b"event one".to_vec(), b"event two".to_vec()],
    }
}

/// Plays the service: answers every inbound request with `events_response()`, reports each
/// request on `requests`, and forwards every other event on `others`.
pub(crate) struct Served {
    pub(crate) requests: mpsc::UnboundedReceiver<(PeerId, Request)>,
    pub(crate) others: mpsc::UnboundedReceiver<NetworkEvent>,
}

pub(crate) fn serve(mut events: mpsc::Receiver<NetworkEvent>) -> Served {
    let (req_tx, requests) = mpsc::unbounded_channel();
    let (other_tx, others) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            match event {
                NetworkEvent::InboundRequest {
                    peer,
                    request,
                    reply,
                    ..
                } => {
                    let _ = req_tx.send((peer, request));
                    let _ = reply.send(events_response());
                }
                other => {
                    let _ = other_tx.send(other);
                }
            }
        }
    });
    Served { requests, others }
}

/// Waits (bounded) for the first event `pick` accepts.
async fn next_event<T>(
    events: &mut mpsc::UnboundedReceiver<NetworkEvent>,
    mut pick: impl FnMut(NetworkEvent) -> Option<T>,
) -> T {
    timeout(STEP, async {
        loop {
            let event = events.recv().await.expect("event stream ended");
            if let Some(found) = pick(event) {
                return found;
            }
        }
    })
    .await
    .expect("expected event did not arrive")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_reaches_the_peer_and_its_answer_comes_back() {
    let (a, _a_events) = start(config()).await;
    let (b, b_events) = start(config()).await;
    let mut b_served = serve(b_events);

    let b_addr = tcp_addr(&b).await;
    let dialed = a.dial(b_addr).await.unwrap();
    assert_eq!(dialed, b.local_peer_id());
    let peers = a.connected_peers().await.unwrap();
    assert!(peers.iter().any(|(p, _)| *p == b.local_peer_id()));

    let response = a.request(b.local_peer_id(), sync_request()).await.unwrap();
    assert_eq!(response, events_response());

    let (from, request) = timeout(STEP, b_served.requests.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(from, a.local_peer_id());
    assert_eq!(request, sync_request());

    // Deliver travels on its own protocol and is answered too.
    let deliver = Request::Deliver {
        game: game(),
        events: vec![b"signed bytes".to_vec()],
    };
    let response = a.request(b.local_peer_id(), deliver.clone()).await.unwrap();
    assert_eq!(response, events_response());
    let (_, request) = timeout(STEP, b_served.requests.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(request, deliver);

    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gossip_arrives_with_the_payload_hash_as_message_id_and_can_be_accepted() {
    let (a, _a_events) = start(config()).await;
    let (b, b_events) = start(config()).await;
    let mut b_served = serve(b_events);
    let topic = protocol::league_topic(&game());
    a.subscribe(topic.clone()).await.unwrap();
    b.subscribe(topic.clone()).await.unwrap();
    a.dial(tcp_addr(&b).await).await.unwrap();

    let event = SignedEvent {
        body: b"a move, as signed".to_vec(),
        signature: [9; 64],
    };
    let data = protocol::encode(&Gossip {
        game: game(),
        event: event.to_bytes().unwrap(),
    })
    .unwrap();
    // The id covers the whole payload, signature included: a copy of the same body with
    // another (forged) signature has an id of its own, so it cannot shadow the genuine one.
    let expected = MessageId::new(&sobre_core::record::event::event_id(&data).0);
    assert_eq!(network::gossip_message_id(&data), expected);
    let forged = protocol::encode(&Gossip {
        game: game(),
        event: SignedEvent {
            signature: [8; 64],
            ..event.clone()
        }
        .to_bytes()
        .unwrap(),
    })
    .unwrap();
    assert_ne!(network::gossip_message_id(&forged), expected);
    // The largest legal event's gossip fits the frame limit; the limit is far below the 4 MiB
    // of a request.
    let largest = protocol::encode(&Gossip {
        game: game(),
        event: SignedEvent {
            body: vec![0; sobre_core::record::codec::MAX_EVENT_BYTES as usize],
            signature: [1; 64],
        }
        .to_bytes()
        .unwrap(),
    })
    .unwrap();
    assert_eq!(largest.len() as u64, protocol::MAX_GOSSIP_BYTES);
    const { assert!(network::MAX_GOSSIP_FRAME < 32 * 1024) };

    // B's subscription reaches A shortly after the connection: until then there is nobody to
    // publish to, which is reported as a benign error.
    timeout(STEP, async {
        loop {
            match a.publish(topic.clone(), data.clone()).await {
                Ok(()) => break,
                Err(e) if e.is_benign_publish() => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("publish failed: {e}"),
            }
        }
    })
    .await
    .expect("B's subscription never reached A");

    let (source, message_id, got_topic, got_data) = next_event(&mut b_served.others, |e| match e {
        NetworkEvent::Gossip {
            source,
            message_id,
            topic,
            data,
            ..
        } => Some((source, message_id, topic, data)),
        _ => None,
    })
    .await;
    assert_eq!(source, a.local_peer_id());
    assert_eq!(message_id, expected);
    assert_eq!(got_topic, topic);
    assert_eq!(got_data, data);
    assert!(
        b.report_validation(message_id, source, MessageAcceptance::Accept)
            .await
            .unwrap()
    );

    // The same event again is recognised as a duplicate by its id.
    assert!(matches!(
        a.publish(topic.clone(), data.clone()).await,
        Err(NetworkError::Duplicate)
    ));

    a.shutdown().await;
    b.shutdown().await;
}

/// A request-response codec that writes whatever bytes it is given: a hostile peer.
#[derive(Clone, Default)]
struct RawCodec;

impl request_response::Codec for RawCodec {
    type Protocol = StreamProtocol;
    type Request = Vec<u8>;
    type Response = Vec<u8>;

    async fn read_request<T>(&mut self, _: &StreamProtocol, io: &mut T) -> io::Result<Vec<u8>>
    where
        T: AsyncRead + Unpin + Send,
    {
        let mut buf = Vec::new();
        io.take(1 << 20).read_to_end(&mut buf).await?;
        Ok(buf)
    }

    async fn read_response<T>(&mut self, _: &StreamProtocol, io: &mut T) -> io::Result<Vec<u8>>
    where
        T: AsyncRead + Unpin + Send,
    {
        let mut buf = Vec::new();
        io.take(1 << 20).read_to_end(&mut buf).await?;
        Ok(buf)
    }

    async fn write_request<T>(
        &mut self,
        _: &StreamProtocol,
        io: &mut T,
        request: Vec<u8>,
    ) -> io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        io.write_all(&request).await?;
        io.close().await
    }

    async fn write_response<T>(
        &mut self,
        _: &StreamProtocol,
        io: &mut T,
        response: Vec<u8>,
    ) -> io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        io.write_all(&response).await
    }
}

type Rogue = libp2p::Swarm<request_response::Behaviour<RawCodec>>;

fn rogue() -> Rogue {
    SwarmBuilder::with_new_identity()
        .with_tokio()
        .with_tcp(
            tcp::Config::default(),
            noise::Config::new,
            yamux::Config::default,
        )
        .unwrap()
        .with_behaviour(|_| {
            request_response::Behaviour::with_codec(
                RawCodec,
                [(
                    StreamProtocol::new(SYNC_PROTOCOL),
                    ProtocolSupport::Outbound,
                )],
                request_response::Config::default().with_request_timeout(Duration::from_secs(5)),
            )
        })
        .unwrap()
        .build()
}

/// Sends raw `bytes` as one request from the rogue to `target` and returns the raw answer
/// (or the failure).
async fn send_raw(
    rogue: &mut Rogue,
    target: PeerId,
    addr: &Multiaddr,
    bytes: Vec<u8>,
) -> Result<Vec<u8>, String> {
    let id = rogue
        .behaviour_mut()
        .send_request_with_addresses(&target, bytes, vec![addr.clone()]);
    timeout(STEP, async {
        loop {
            match rogue.select_next_some().await {
                SwarmEvent::Behaviour(request_response::Event::Message {
                    message:
                        request_response::Message::Response {
                            request_id,
                            response,
                        },
                    ..
                }) if request_id == id => return Ok(response),
                SwarmEvent::Behaviour(request_response::Event::OutboundFailure {
                    request_id,
                    error,
                    ..
                }) if request_id == id => return Err(error.to_string()),
                _ => {}
            }
        }
    })
    .await
    .expect("the rogue's request neither succeeded nor failed")
}

fn decode_framed_response(bytes: &[u8]) -> Response {
    assert!(bytes.len() >= 4, "response frame too short: {bytes:?}");
    let len = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize;
    assert_eq!(len, bytes.len() - 4);
    protocol::decode(&bytes[4..]).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_and_malformed_frames_are_refused_and_the_node_keeps_serving() {
    let (a, _a_events) = start(config()).await;
    let (b, b_events) = start(config()).await;
    let mut b_served = serve(b_events);
    let b_addr = tcp_addr(&b).await;
    let b_id = b.local_peer_id();

    let mut rogue = rogue();
    // A length prefix beyond the cap: refused from the prefix alone, nothing allocated.
    let mut oversized = (MAX_MESSAGE_BYTES as u32 + 1).to_be_bytes().to_vec();
    oversized.extend_from_slice(&[0u8; 1024]);
    let answer = send_raw(&mut rogue, b_id, &b_addr, oversized)
        .await
        .expect("the node answers a refusal");
    assert_eq!(
        decode_framed_response(&answer),
        Response::Refused {
            reason: "malformed request".into()
        }
    );
    // A frame within the cap that is not a request.
    let mut garbage = 8u32.to_be_bytes().to_vec();
    garbage.extend_from_slice(&[0xff; 8]);
    let answer = send_raw(&mut rogue, b_id, &b_addr, garbage)
        .await
        .expect("the node answers a refusal");
    assert!(matches!(
        decode_framed_response(&answer),
        Response::Refused { .. }
    ));
    // A frame that ends before its announced length: the stream fails, the node does not.
    let mut truncated = 100u32.to_be_bytes().to_vec();
    truncated.extend_from_slice(&[1, 2, 3]);
    match send_raw(&mut rogue, b_id, &b_addr, truncated).await {
        Err(_) => {}
        Ok(answer) => assert!(answer.is_empty(), "no answer expected: {answer:?}"),
    }

    // None of it reached the service.
    assert!(b_served.requests.try_recv().is_err());

    // A request too large to send fails locally, before touching the wire.
    a.dial(b_addr.clone()).await.unwrap();
    let huge = Request::Deliver {
        game: game(),
        events: vec![vec![0u8; MAX_MESSAGE_BYTES as usize + 1]],
    };
    assert!(matches!(
        a.request(b_id, huge).await,
        Err(NetworkError::Codec(_))
    ));

    // And the node still serves honest peers.
    let response = a.request(b_id, sync_request()).await.unwrap();
    assert_eq!(response, events_response());
    let (from, _) = timeout(STEP, b_served.requests.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(from, a.local_peer_id());

    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_that_keeps_sending_garbage_is_blocked() {
    let mut b_config = config();
    b_config.max_strikes = 2;
    let (b, b_events) = start(b_config).await;
    let _b_served = serve(b_events);
    let b_addr = tcp_addr(&b).await;
    let b_id = b.local_peer_id();

    let mut rogue = rogue();
    let rogue_id = *rogue.local_peer_id();
    for _ in 0..2 {
        let mut garbage = 4u32.to_be_bytes().to_vec();
        garbage.extend_from_slice(&[0xee; 4]);
        // The second strike blocks: its answer may or may not make it out.
        let _ = send_raw(&mut rogue, b_id, &b_addr, garbage).await;
    }

    // B drops the rogue and refuses it from now on.
    timeout(STEP, async {
        loop {
            let peers = b.connected_peers().await.unwrap();
            if !peers.iter().any(|(p, _)| *p == rogue_id) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the rogue was never disconnected");
    let mut garbage = 4u32.to_be_bytes().to_vec();
    garbage.extend_from_slice(&[0xee; 4]);
    assert!(send_raw(&mut rogue, b_id, &b_addr, garbage).await.is_err());

    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_beyond_the_rate_limit_are_refused() {
    let (a, _a_events) = start(config()).await;
    let mut b_config = config();
    b_config.max_requests_per_peer_per_minute = 3;
    let (b, b_events) = start(b_config).await;
    let mut b_served = serve(b_events);
    a.dial(tcp_addr(&b).await).await.unwrap();

    for _ in 0..3 {
        let response = a.request(b.local_peer_id(), sync_request()).await.unwrap();
        assert_eq!(response, events_response());
    }
    for _ in 0..2 {
        match a.request(b.local_peer_id(), sync_request()).await {
            Err(NetworkError::Refused(reason)) => assert_eq!(reason, "rate limit"),
            other => panic!("expected a rate-limit refusal, got {other:?}"),
        }
    }
    // Only the three allowed requests reached the service.
    for _ in 0..3 {
        assert!(b_served.requests.try_recv().is_ok());
    }
    assert!(b_served.requests.try_recv().is_err());

    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn granted_catch_up_syncs_pass_the_rate_limit_once_each() {
    let (a, _a_events) = start(config()).await;
    let mut b_config = config();
    b_config.max_requests_per_peer_per_minute = 2;
    let (b, b_events) = start(b_config).await;
    let mut b_served = serve(b_events);
    a.dial(tcp_addr(&b).await).await.unwrap();

    // B shares three games with A: one sync of each is free.
    let shared: Vec<_> = (1..=3u8).map(|i| EventId([i; 32])).collect();
    b.allow_syncs(a.local_peer_id(), shared.clone())
        .await
        .unwrap();
    let sync = |game| Request::Sync {
        game,
        have: Vec::new(),
    };
    for g in &shared {
        let response = a.request(b.local_peer_id(), sync(*g)).await.unwrap();
        assert_eq!(response, events_response());
    }
    // A second sync of a shared game, and anything else, counts: two, then refused.
    for _ in 0..2 {
        let response = a.request(b.local_peer_id(), sync(shared[0])).await.unwrap();
        assert_eq!(response, events_response());
    }
    match a.request(b.local_peer_id(), sync_request()).await {
        Err(NetworkError::Refused(reason)) => assert_eq!(reason, "rate limit"),
        other => panic!("expected a rate-limit refusal, got {other:?}"),
    }
    for _ in 0..5 {
        assert!(b_served.requests.try_recv().is_ok());
    }
    assert!(b_served.requests.try_recv().is_err());

    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_peers_reach_each_other_through_a_relay() {
    let mut r_config = config();
    r_config.relay_server = true;
    let (r, _r_events) = start(r_config).await;
    let r_addr = tcp_addr(&r).await;

    let mut b_config = config();
    b_config.relays = vec![r_addr.clone()];
    let (b, b_events) = start(b_config).await;
    let mut b_served = serve(b_events);
    let relay = next_event(&mut b_served.others, |e| match e {
        NetworkEvent::RelayReservation { relay } => Some(relay),
        _ => None,
    })
    .await;
    assert_eq!(relay, r.local_peer_id());
    let circuit = r_addr
        .clone()
        .with(Protocol::P2pCircuit)
        .with(Protocol::P2p(b.local_peer_id()));
    timeout(STEP, async {
        loop {
            if b.listen_addrs().await.unwrap().contains(&circuit) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("B never listed its relayed address");

    let mut a_config = config();
    a_config.relays = vec![r_addr.clone()];
    let (a, _a_events) = start(a_config).await;

    // A knows B only by its relayed address.
    assert_eq!(a.dial(circuit).await.unwrap(), b.local_peer_id());
    let peers = a.connected_peers().await.unwrap();
    let (_, b_addrs) = peers
        .iter()
        .find(|(p, _)| *p == b.local_peer_id())
        .expect("A is connected to B");
    assert!(b_addrs.iter().any(is_relayed), "{b_addrs:?}");

    let response = a.request(b.local_peer_id(), sync_request()).await.unwrap();
    assert_eq!(response, events_response());
    let (from, request) = timeout(STEP, b_served.requests.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(from, a.local_peer_id());
    assert_eq!(request, sync_request());

    a.shutdown().await;
    b.shutdown().await;
    r.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_known_only_by_id_is_found_through_the_dht() {
    // B plays a club's mailbox: a DHT server. C and A are players, DHT clients.
    let mut b_config = config();
    b_config.dht_server = true;
    let (b, _b_events) = start(b_config).await;
    let b_addr = tcp_addr(&b).await;
    let mut c_config = config();
    c_config.bootstrap = vec![b_addr.clone()];
    let (c, c_events) = start(c_config).await;
    let mut c_served = serve(c_events);
    let c_id = c.local_peer_id();

    // B learns C's listen address from identify once C has connected.
    timeout(STEP, async {
        while b.find_peer(c_id).await.unwrap().is_empty() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("B never learnt C's address");

    let mut a_config = config();
    a_config.bootstrap = vec![b_addr];
    let (a, _a_events) = start(a_config).await;
    let response = a.request(c_id, sync_request()).await.unwrap();
    assert_eq!(response, events_response());
    let (from, _) = timeout(STEP, c_served.requests.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(from, a.local_peer_id());
    let found = a.find_peer(c_id).await.unwrap();
    assert!(!found.is_empty());

    a.shutdown().await;
    b.shutdown().await;
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_to_an_unknown_peer_fails_cleanly() {
    let (a, _a_events) = start(config()).await;
    let stranger = Keypair::generate_ed25519().public().to_peer_id();
    assert!(matches!(
        a.request(stranger, sync_request()).await,
        Err(NetworkError::NotConnected(p)) if p == stranger
    ));
    assert!(a.find_peer(stranger).await.unwrap().is_empty());
    a.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_closes_connections_and_ends_the_event_stream() {
    let (a, a_events) = start(config()).await;
    let mut a_served = serve(a_events);
    let (b, mut b_events) = start(config()).await;
    a.dial(tcp_addr(&b).await).await.unwrap();

    timeout(STEP, b.shutdown()).await.expect("shutdown hangs");
    // Every handle (clones included) now reports the shutdown.
    let clone = b.clone();
    assert!(matches!(
        clone.listen_addrs().await,
        Err(NetworkError::Shutdown)
    ));
    assert!(matches!(
        b.request(a.local_peer_id(), sync_request()).await,
        Err(NetworkError::Shutdown)
    ));
    // The event stream ends once buffered events are read.
    timeout(STEP, async { while b_events.recv().await.is_some() {} })
        .await
        .expect("B's event stream never ended");
    // A sees B go and keeps working.
    let gone = next_event(&mut a_served.others, |e| match e {
        NetworkEvent::PeerDisconnected { peer } => Some(peer),
        _ => None,
    })
    .await;
    assert_eq!(gone, b.local_peer_id());
    assert!(!a.listen_addrs().await.unwrap().is_empty());
    // Shutting down twice is harmless.
    timeout(STEP, b.shutdown()).await.unwrap();
    a.shutdown().await;
}

/// A reconnect storm against a service that lags (issue 30): more peers connect than the
/// service's queue holds while it reads nothing. Every connection event still reaches it,
/// once each and in order with the queue: a dropped one was a player who never got their
/// catch-up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_connection_event_is_dropped_when_the_service_lags() {
    const PEERS: usize = 24;
    let mut hub_config = config();
    hub_config.event_queue = 4;
    hub_config.max_inbound_per_ip = 4 * PEERS;
    let (hub, mut hub_events) = start(hub_config).await;
    let hub_addr = tcp_addr(&hub).await;
    let mut peers = Vec::new();
    for _ in 0..PEERS {
        let (p, events) = start(config()).await;
        tokio::spawn(drain(events));
        p.dial(hub_addr.clone()).await.expect("dialled the hub");
        peers.push(p);
    }
    // Nobody read the hub's events while all of them connected.
    let mut connected = std::collections::HashSet::new();
    while connected.len() < PEERS {
        match timeout(STEP, hub_events.recv()).await {
            Ok(Some(NetworkEvent::PeerConnected { peer, .. })) => {
                assert!(connected.insert(peer), "{peer} reported connected twice");
            }
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => panic!(
                "only {} of {PEERS} connections reached the service",
                connected.len()
            ),
        }
    }
    for p in &peers {
        assert!(connected.contains(&p.local_peer_id()));
    }
}

pub(crate) async fn drain(mut events: mpsc::Receiver<NetworkEvent>) {
    while events.recv().await.is_some() {}
}
