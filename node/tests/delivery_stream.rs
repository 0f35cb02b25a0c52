//! Delivery streams (`/sobre/deliver-stream/1`) over real libp2p on loopback TCP: a node
//! carries its deliveries to a peer that speaks the protocol on one long-lived stream,
//! pipelined; a node serving streams answers in order and applies the same checks as on
//! `/sobre/deliver/1` (frame cap, wrong exchange, rate limit, streams per peer).

use crate::common::net::{STEP, config, start, tcp_addr};
use std::time::Duration;

use futures::{AsyncReadExt, AsyncWriteExt, StreamExt};
use libp2p::multiaddr::Protocol;
use libp2p::swarm::{NetworkBehaviour, SwarmEvent};
use libp2p::{Multiaddr, PeerId, Stream, SwarmBuilder, identify, noise, tcp, yamux};
use sobre_core::record::EventId;
use sobre_node::network::{IDENTIFY_PROTOCOL, NetworkEvent};
use sobre_node::protocol::{self, DELIVER_STREAM_PROTOCOL, MAX_MESSAGE_BYTES, Request, Response};
use tokio::sync::mpsc;
use tokio::time::timeout;

fn deliver(n: u8) -> Request {
    Request::Deliver {
        game: EventId([7; 32]),
        events: vec![vec![n; 3]],
    }
}

/// The answer the echoing service gives to `deliver(n)`.
fn receipt(n: u8) -> Response {
    Response::Receipts {
        receipts: vec![vec![n; 3]],
    }
}

/// Plays the service: answers each delivery with its own event bytes as the "receipt" (so
/// the order of the answers shows), and anything else with a refusal.
fn echo(mut events: mpsc::Receiver<NetworkEvent>) -> mpsc::UnboundedReceiver<Request> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            if let NetworkEvent::InboundRequest { request, reply, .. } = event {
                let answer = match &request {
                    Request::Deliver { events, .. } => Response::Receipts {
                        receipts: events.clone(),
                    },
                    _ => Response::Refused {
                        reason: "echo only".into(),
                    },
                };
                let _ = tx.send(request);
                let _ = reply.send(answer);
            }
        }
    });
    rx
}

/// A bare peer: identify (so a node learns what it speaks) and raw streams, nothing else;
/// in particular not `/sobre/deliver/1`.
#[derive(NetworkBehaviour)]
struct Bare {
    identify: identify::Behaviour,
    stream: libp2p_stream::Behaviour,
}

/// Starts a bare peer listening on loopback, dialing `dial` if given; returns its control,
/// id and address. Its swarm is polled by a task of its own.
async fn bare_peer(dial: Option<&Multiaddr>) -> (libp2p_stream::Control, PeerId, Multiaddr) {
    let mut swarm = SwarmBuilder::with_new_identity()
        .with_tokio()
        .with_tcp(
            tcp::Config::default().nodelay(true),
            noise::Config::new,
            yamux::Config::default,
        )
        .unwrap()
        .with_behaviour(|key| Bare {
            identify: identify::Behaviour::new(identify::Config::new(
                IDENTIFY_PROTOCOL.into(),
                key.public(),
            )),
            stream: libp2p_stream::Behaviour::new(),
        })
        .unwrap()
        .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(60)))
        .build();
    swarm
        .listen_on("/ip4/127.0.0.1/tcp/0".parse().unwrap())
        .unwrap();
    let addr = timeout(STEP, async {
        loop {
            if let SwarmEvent::NewListenAddr { address, .. } = swarm.select_next_some().await {
                return address;
            }
        }
    })
    .await
    .expect("the bare peer never listened");
    if let Some(addr) = dial {
        swarm.dial(addr.clone()).unwrap();
    }
    let id = *swarm.local_peer_id();
    let control = swarm.behaviour().stream.new_control();
    tokio::spawn(async move {
        loop {
            swarm.select_next_some().await;
        }
    });
    (control, id, addr.with(Protocol::P2p(id)))
}

/// `body` with its length before it, as the delivery protocol frames a message (built here by
/// hand, as a peer of another implementation would).
fn frame(body: &[u8]) -> Vec<u8> {
    let mut frame = (body.len() as u32).to_be_bytes().to_vec();
    frame.extend_from_slice(body);
    frame
}

async fn write_frame(stream: &mut Stream, bytes: &[u8]) {
    stream.write_all(&frame(bytes)).await.unwrap();
}

/// Writes `deliver(n)` on a stream the node may already have dropped: the write may fail,
/// and the answer (or its absence, see [`read_frame`]) tells.
async fn try_send_delivery(stream: &mut Stream, n: u8) {
    let body = protocol::encode(&deliver(n)).unwrap();
    let _ = stream.write_all(&frame(&body)).await;
    let _ = stream.flush().await;
}

/// The next frame, or `None` when the stream ends or fails.
async fn read_frame(stream: &mut Stream) -> Option<Vec<u8>> {
    let mut len = [0u8; 4];
    timeout(STEP, stream.read_exact(&mut len))
        .await
        .expect("no frame and no end")
        .ok()?;
    let mut buf = vec![0u8; u32::from_be_bytes(len) as usize];
    timeout(STEP, stream.read_exact(&mut buf))
        .await
        .expect("frame body never came")
        .ok()?;
    Some(buf)
}

async fn read_response(stream: &mut Stream) -> Response {
    let bytes = read_frame(stream).await.expect("an answer frame");
    protocol::decode(&bytes).expect("a response")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_carries_its_deliveries_on_one_stream_to_a_peer_that_speaks_it() {
    let (a, _a_events) = start(config()).await;
    let (mut bare, bare_id, bare_addr) = bare_peer(None).await;
    let mut incoming = bare
        .accept(libp2p::StreamProtocol::new(DELIVER_STREAM_PROTOCOL))
        .unwrap();
    a.dial(bare_addr).await.unwrap();

    // The bare peer answers each frame of each stream in order, and reports every stream.
    let (opened_tx, mut opened) = mpsc::unbounded_channel::<PeerId>();
    tokio::spawn(async move {
        while let Some((peer, mut stream)) = incoming.next().await {
            let _ = opened_tx.send(peer);
            tokio::spawn(async move {
                while let Some(frame) = read_frame(&mut stream).await {
                    let answer = match protocol::decode::<Request>(&frame).unwrap() {
                        Request::Deliver { events, .. } => Response::Receipts { receipts: events },
                        other => panic!("only deliveries travel on the stream: {other:?}"),
                    };
                    write_frame(&mut stream, &protocol::encode(&answer).unwrap()).await;
                    stream.flush().await.unwrap();
                }
            });
        }
    });

    // The bare peer does not speak `/sobre/deliver/1`: until identify has told A that it
    // speaks the stream protocol, a delivery is refused; after, it goes through, and only
    // the stream can have carried it.
    timeout(STEP, async {
        loop {
            if matches!(a.request(bare_id, deliver(0)).await, Ok(r) if r == receipt(0)) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("no delivery ever went through the stream");

    // Many deliveries at once: pipelined on the one stream, each gets its own answer.
    let answers =
        futures::future::join_all((1..=40u8).map(|n| a.request(bare_id, deliver(n)))).await;
    for (n, answer) in (1..=40u8).zip(answers) {
        assert_eq!(answer.unwrap(), receipt(n));
    }
    assert_eq!(opened.recv().await, Some(a.local_peer_id()));
    assert!(
        opened.try_recv().is_err(),
        "one stream carries every delivery"
    );
    a.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_deliver_every_request_once_whichever_path_it_takes() {
    let (a, _a_events) = start(config()).await;
    let (b, b_events) = start(config()).await;
    let mut b_requests = echo(b_events);
    a.dial(tcp_addr(&b).await).await.unwrap();
    // Whichever way each goes (request-response before identify, the stream after), every
    // delivery arrives once and is answered.
    let answers =
        futures::future::join_all((0..100u8).map(|n| a.request(b.local_peer_id(), deliver(n))))
            .await;
    for (n, answer) in (0..100u8).zip(answers) {
        assert_eq!(answer.unwrap(), receipt(n));
    }
    let mut seen = Vec::new();
    while let Ok(request) = b_requests.try_recv() {
        seen.push(request);
    }
    assert_eq!(seen.len(), 100);
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_served_stream_answers_pipelined_requests_in_order_and_refuses_what_is_wrong() {
    let (b, b_events) = start(config()).await;
    let mut b_requests = echo(b_events);
    let b_id = b.local_peer_id();
    let (mut bare, _, _) = bare_peer(Some(&tcp_addr(&b).await)).await;
    let mut stream = open(&mut bare, b_id).await;

    // Twenty requests written back to back before reading anything.
    for n in 0..20u8 {
        write_frame(&mut stream, &protocol::encode(&deliver(n)).unwrap()).await;
    }
    stream.flush().await.unwrap();
    for n in 0..20u8 {
        assert_eq!(read_response(&mut stream).await, receipt(n));
    }

    // A sync belongs on `/sobre/sync/1`: refused, and the stream goes on.
    let sync = Request::Sync {
        game: EventId([7; 32]),
        have: Vec::new(),
    };
    write_frame(&mut stream, &protocol::encode(&sync).unwrap()).await;
    // Garbage inside a well-formed frame: refused, the framing still holds.
    write_frame(&mut stream, &[0xff; 8]).await;
    write_frame(&mut stream, &protocol::encode(&deliver(21)).unwrap()).await;
    stream.flush().await.unwrap();
    let malformed = Response::Refused {
        reason: "malformed request".into(),
    };
    assert_eq!(read_response(&mut stream).await, malformed);
    assert_eq!(read_response(&mut stream).await, malformed);
    assert_eq!(read_response(&mut stream).await, receipt(21));

    // A length beyond the cap: refused from the prefix alone, then the stream is closed
    // (what follows cannot be framed any more).
    stream
        .write_all(&(MAX_MESSAGE_BYTES as u32 + 1).to_be_bytes())
        .await
        .unwrap();
    stream.write_all(&[0u8; 1024]).await.unwrap();
    stream.flush().await.unwrap();
    assert_eq!(read_response(&mut stream).await, malformed);
    assert_eq!(read_frame(&mut stream).await, None, "the stream is closed");

    // Only the 21 deliveries reached the service.
    let mut seen = 0;
    while let Ok(request) = b_requests.try_recv() {
        assert!(matches!(request, Request::Deliver { .. }));
        seen += 1;
    }
    assert_eq!(seen, 21);

    // The node still serves: a new stream works.
    let mut again = open(&mut bare, b_id).await;
    write_frame(&mut again, &protocol::encode(&deliver(30)).unwrap()).await;
    again.flush().await.unwrap();
    assert_eq!(read_response(&mut again).await, receipt(30));
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_and_the_stream_cap_hold_on_delivery_streams() {
    let mut b_config = config();
    b_config.max_requests_per_peer_per_minute = 3;
    let (b, b_events) = start(b_config).await;
    let _b_requests = echo(b_events);
    let b_id = b.local_peer_id();
    let (mut bare, _, _) = bare_peer(Some(&tcp_addr(&b).await)).await;

    let mut stream = open(&mut bare, b_id).await;
    for n in 0..5u8 {
        write_frame(&mut stream, &protocol::encode(&deliver(n)).unwrap()).await;
    }
    stream.flush().await.unwrap();
    for n in 0..3u8 {
        assert_eq!(read_response(&mut stream).await, receipt(n));
    }
    for _ in 0..2 {
        assert_eq!(
            read_response(&mut stream).await,
            Response::Refused {
                reason: "rate limit".into()
            }
        );
    }

    // A peer may hold a few streams (restarts, reconnections), not any number: beyond the
    // cap a new stream is dropped unanswered.
    // (A stream is negotiated with the node when its first frame is sent: each held one
    // carries a delivery, answered with the rate limit's refusal.)
    let mut held = vec![stream];
    for _ in 1..4 {
        let mut another = open(&mut bare, b_id).await;
        write_frame(&mut another, &protocol::encode(&deliver(8)).unwrap()).await;
        another.flush().await.unwrap();
        assert!(matches!(
            read_response(&mut another).await,
            Response::Refused { .. }
        ));
        held.push(another);
    }
    let mut extra = open(&mut bare, b_id).await;
    try_send_delivery(&mut extra, 9).await;
    assert_eq!(
        read_frame(&mut extra).await,
        None,
        "the fifth stream is dropped"
    );
    drop(held);
    b.shutdown().await;
}

/// A delivery stream from the bare peer to `peer` (which it dialed when it started: the
/// first attempts may come before the connection is up).
async fn open(bare: &mut libp2p_stream::Control, peer: PeerId) -> Stream {
    timeout(STEP, async {
        loop {
            match bare
                .open_stream(peer, libp2p::StreamProtocol::new(DELIVER_STREAM_PROTOCOL))
                .await
            {
                Ok(stream) => return stream,
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    })
    .await
    .expect("no delivery stream could be opened")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_ready_leaves_at_once_even_while_the_next_one_is_pending() {
    let (b, mut b_events) = start(config()).await;
    let b_id = b.local_peer_id();
    // The service answers delivery 0 at once and holds delivery 1's answer until the test
    // has read answer 0: if answer 0 waited (unflushed) for answer 1, the test would hang.
    let (release_tx, release) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        let mut release = Some(release);
        while let Some(event) = b_events.recv().await {
            if let NetworkEvent::InboundRequest { request, reply, .. } = event {
                let Request::Deliver { events, .. } = request else {
                    continue;
                };
                if events[0][0] == 1
                    && let Some(release) = release.take()
                {
                    let _ = release.await;
                }
                let _ = reply.send(Response::Receipts { receipts: events });
            }
        }
    });
    let (mut bare, _, _) = bare_peer(Some(&tcp_addr(&b).await)).await;
    let mut stream = open(&mut bare, b_id).await;
    for n in 0..2u8 {
        write_frame(&mut stream, &protocol::encode(&deliver(n)).unwrap()).await;
    }
    stream.flush().await.unwrap();
    assert_eq!(read_response(&mut stream).await, receipt(0));
    release_tx.send(()).unwrap();
    assert_eq!(read_response(&mut stream).await, receipt(1));
    b.shutdown().await;
}

/// Many peers open a delivery stream at the same moment, as a mailbox's players do when
/// it comes back: every stream is accepted and answered. libp2p-stream 0.5.0-alpha held one
/// inbound stream at a time and dropped the others while the node was busy (rust-libp2p
/// #5651; sobre's patch in `vendor/libp2p-stream`), so those peers' deliveries failed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_opened_by_many_peers_at_once_are_all_served() {
    const PEERS: usize = 96;
    let mut b_config = config();
    b_config.max_inbound_per_ip = 4 * PEERS;
    let (b, b_events) = start(b_config).await;
    let _b_requests = echo(b_events);
    let b_id = b.local_peer_id();
    let b_addr = tcp_addr(&b).await;

    // Every peer connected, and served once, before the burst (so it is streams that
    // arrive together, not connections).
    let mut peers = Vec::new();
    for n in 0..PEERS {
        let (mut bare, _, _) = bare_peer(Some(&b_addr)).await;
        let mut first = open(&mut bare, b_id).await;
        write_frame(&mut first, &protocol::encode(&deliver(n as u8)).unwrap()).await;
        first.flush().await.unwrap();
        assert_eq!(read_response(&mut first).await, receipt(n as u8));
        peers.push((bare, first));
    }

    let start_line = std::sync::Arc::new(tokio::sync::Barrier::new(PEERS));
    let burst = peers.into_iter().enumerate().map(|(n, (mut bare, first))| {
        let start_line = start_line.clone();
        tokio::spawn(async move {
            start_line.wait().await;
            let mut stream = open(&mut bare, b_id).await;
            try_send_delivery(&mut stream, n as u8).await;
            let answer = read_frame(&mut stream).await;
            drop(first);
            answer.map(|bytes| protocol::decode::<Response>(&bytes).unwrap())
        })
    });
    let answers = futures::future::join_all(burst).await;
    let served = answers
        .into_iter()
        .enumerate()
        .filter(|(n, answer)| matches!(answer, Ok(Some(r)) if *r == receipt(*n as u8)))
        .count();
    assert_eq!(served, PEERS, "every stream of the burst is answered");
    b.shutdown().await;
}
