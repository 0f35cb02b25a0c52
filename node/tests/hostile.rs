//! A hostile peer against a real node (libp2p over loopback TCP, sled on disk) while an honest
//! game is in progress: garbage, oversized frames, forged signatures, events of other games,
//! a move signed by a stranger, replays and a request flood are each refused (or, for
//! replays, change nothing), the node logs why, blocks the peer after its strikes, and the
//! honest game finishes unharmed.

mod common;

use common::{POLL, STEP, TestNode, play, start_game};
use std::fmt::Write as _;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, StreamExt};
use libp2p::request_response::{self, ProtocolSupport};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, StreamProtocol, SwarmBuilder, noise, tcp, yamux};
use sobre_core::notation::parse_move;
use sobre_core::record::{
    Challenge, ColourChoice, EventKind, GameId, GameState, Keypair, PlayerId, Scoresheet,
    SignedEvent, StartPosition,
};
use sobre_core::san::Lang;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::network::{self, NetworkConfig, NetworkError, NetworkEvent, NetworkHandle};
use sobre_node::protocol::{self, DELIVER_PROTOCOL, MAX_MESSAGE_BYTES, Request, Response};
use sobre_node::time::now_ms;
use tokio::time::{Instant, timeout};

/// The node's defaults (`NetworkConfig::new`), which `sobre node run` uses.
const RATE_LIMIT_PER_MINUTE: usize = 120;
const MAX_STRIKES: usize = 5;

// ----- warnings captured from every node in this process -----

/// Records every WARN and ERROR event as one line of `field=value` pairs.
struct Capture(Arc<Mutex<Vec<String>>>);

struct Fields(String);

impl tracing::field::Visit for Fields {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        let _ = write!(self.0, "{}={:?} ", field.name(), value);
    }
}

impl tracing::Subscriber for Capture {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        // More verbose levels compare greater: this keeps WARN and ERROR.
        *metadata.level() <= tracing::Level::WARN
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = Fields(String::new());
        event.record(&mut fields);
        if let Ok(mut lines) = self.0.lock() {
            lines.push(fields.0);
        }
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

// ----- the hostile peer -----

/// A request-response codec that writes whatever bytes it is given (no framing of its own).
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

type RawSwarm = libp2p::Swarm<request_response::Behaviour<RawCodec>>;

/// A swarm under H's identity that sends raw bytes on `/sobre/deliver/1`.
fn raw_swarm(identity: libp2p::identity::Keypair) -> RawSwarm {
    SwarmBuilder::with_existing_identity(identity)
        .with_tokio()
        .with_tcp(
            tcp::Config::default(),
            noise::Config::new,
            yamux::Config::default,
        )
        .expect("tcp transport")
        .with_behaviour(|_| {
            request_response::Behaviour::with_codec(
                RawCodec,
                [(
                    StreamProtocol::new(DELIVER_PROTOCOL),
                    ProtocolSupport::Outbound,
                )],
                request_response::Config::default().with_request_timeout(Duration::from_secs(10)),
            )
        })
        .expect("behaviour")
        .build()
}

/// Sends raw `bytes` as one request and decodes the framed answer.
async fn send_raw(
    raw: &mut RawSwarm,
    target: PeerId,
    addr: &Multiaddr,
    bytes: Vec<u8>,
) -> Response {
    let id = raw
        .behaviour_mut()
        .send_request_with_addresses(&target, bytes, vec![addr.clone()]);
    let answer = timeout(STEP, async {
        loop {
            match raw.select_next_some().await {
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
    .expect("the raw request neither succeeded nor failed")
    .expect("the node answers");
    assert!(answer.len() >= 4, "answer frame too short: {answer:?}");
    protocol::decode(&answer[4..]).expect("a response frame")
}

/// The hostile node: a real network actor under H's key, with nobody serving its inbox.
async fn start_hostile(identity: libp2p::identity::Keypair) -> NetworkHandle {
    start_answering(identity, |_| Response::Refused {
        reason: "hostile".into(),
    })
    .await
}

/// A real network actor under `identity` that answers every request it gets with `answer`.
async fn start_answering(
    identity: libp2p::identity::Keypair,
    answer: impl Fn(Request) -> Response + Send + 'static,
) -> NetworkHandle {
    let mut config = NetworkConfig::new(identity);
    config.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().expect("multiaddr")];
    config.request_timeout = Duration::from_secs(10);
    let (handle, mut events) = timeout(STEP, network::spawn(config))
        .await
        .expect("spawn timed out")
        .expect("spawn");
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            if let NetworkEvent::InboundRequest { request, reply, .. } = event {
                let _ = reply.send(answer(request));
            }
        }
    });
    handle
}

fn refusal(result: Result<Response, NetworkError>) -> String {
    match result {
        Err(NetworkError::Refused(reason)) => reason,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// A player's scoresheet as it stands in `events`: the last seq and event id.
fn tip_of(events: &[SignedEvent], player: &PlayerId) -> (u64, sobre_core::record::EventId) {
    events
        .iter()
        .filter_map(|e| e.verify().ok())
        .filter(|v| v.event.author == *player)
        .map(|v| (v.event.seq, v.id))
        .max()
        .expect("the player signed events")
}

fn bytes_of(events: &[SignedEvent]) -> Vec<Vec<u8>> {
    events
        .iter()
        .map(|e| e.to_bytes().expect("encodes"))
        .collect()
}

fn lines_with(log: &Arc<Mutex<Vec<String>>>, needles: &[&str]) -> usize {
    let lines = log.lock().expect("log");
    lines
        .iter()
        .filter(|l| needles.iter().all(|n| l.contains(n)))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_peer_is_refused_and_blocked_and_the_honest_game_finishes_unharmed() {
    let log = Arc::new(Mutex::new(Vec::new()));
    tracing::subscriber::set_global_default(Capture(log.clone())).expect("one subscriber");

    // An honest game, four plies in.
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let (a_id, a_addr) = a.id_addr().await;
    let (b_id, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    let ch = a
        .call(ApiRequest::Challenge(request::Challenge {
            opponent: b_id.clone(),
            color: sobre_core::record::ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            chess960: false,
            fen: None,
            terms: Default::default(),
        }))
        .await;
    let game_hex = ch["game"].as_str().expect("game id").to_owned();
    b.wait_for(&game_hex, "the challenge", |v| v["status"] == "pending")
        .await;
    b.call(ApiRequest::Accept(request::Accept {
        game: game_hex.clone(),
        color: None,
        position: None,
    }))
    .await;
    a.wait_for(&game_hex, "the acceptance", |v| v["status"] == "active")
        .await;
    play(&a, &b, &game_hex, 0, &["e4", "e5", "Bc4", "Nc6"]).await;
    // Every event of each is receipted by the other: nothing later is new to A.
    a.wait_outbox_empty().await;
    b.wait_outbox_empty().await;

    let honest = a.archive(&game_hex).await;
    let game: GameId = honest.game;
    let honest_state: GameState = honest.verify().expect("verifies");
    let a_peer: PeerId = a_id.parse().expect("peer id");
    let a_addr: Multiaddr = a_addr.parse().expect("multiaddr");
    let b_key_id = honest_state.opponent;

    // H: a third node's key.
    let h_key = Keypair::from_secret_bytes(&[0x48; 32]);
    let h_identity = sobre_node::home::libp2p_keypair(&h_key).expect("identity");
    let h_peer = h_identity.public().to_peer_id();
    let h_tag = format!("peer={h_peer}");

    // 1. Garbage: a frame that is no request. 2. A length prefix beyond the cap.
    let mut raw = raw_swarm(h_identity.clone());
    let mut garbage = 8u32.to_be_bytes().to_vec();
    garbage.extend_from_slice(&[0xff; 8]);
    assert_eq!(
        send_raw(&mut raw, a_peer, &a_addr, garbage).await,
        Response::Refused {
            reason: "malformed request".into()
        }
    );
    let mut oversized = (MAX_MESSAGE_BYTES as u32 + 1).to_be_bytes().to_vec();
    oversized.extend_from_slice(&[0u8; 4096]);
    assert_eq!(
        send_raw(&mut raw, a_peer, &a_addr, oversized).await,
        Response::Refused {
            reason: "malformed request".into()
        }
    );
    drop(raw);

    let h = start_hostile(h_identity).await;
    assert_eq!(h.dial(a_addr.clone()).await.expect("dial A"), a_peer);
    // Well-formed requests sent so far (malformed frames are refused before the rate limit).
    let mut requests = 0usize;

    // 3. Bad signatures: an event of H's with one bit of its signature flipped, and a move
    // claiming to be Black's, signed with H's key.
    let t = now_ms();
    let mut forged = Scoresheet::join(h_key.clone(), game)
        .chat("hello", t)
        .expect("signs");
    forged.signature[0] ^= 1;
    let mut as_black = Scoresheet::join(h_key.clone(), game)
        .resign(t)
        .expect("signs")
        .decode_unverified()
        .expect("decodes");
    as_black.author = b_key_id;
    let as_black = SignedEvent::sign(&as_black, &h_key).expect("signs");
    let reason = refusal(
        h.request(
            a_peer,
            Request::Deliver {
                game,
                events: bytes_of(&[forged, as_black]),
            },
        )
        .await,
    );
    requests += 1;
    assert!(reason.contains("bad signature"), "{reason}");

    // 4. A well-signed game of H's own, against somebody else: not A's business.
    let stranger = Keypair::from_secret_bytes(&[0x58; 32]);
    let (mut h_sheet, h_challenge) = Scoresheet::challenge(
        h_key.clone(),
        Challenge {
            opponent: stranger.player_id(),
            colour: ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            start: StartPosition::Standard,
            coin_commitment: None,
            league: None,
        },
        t,
    )
    .expect("signs");
    let h_game = h_challenge.id();
    let reason = refusal(
        h.request(
            a_peer,
            Request::Deliver {
                game: h_game,
                events: bytes_of(std::slice::from_ref(&h_challenge)),
            },
        )
        .await,
    );
    requests += 1;
    assert_eq!(reason, "not a game of this node");
    // …and a later event of that game without its history.
    let h_chat = h_sheet.chat("anyone?", t).expect("signs");
    let reason = refusal(
        h.request(
            a_peer,
            Request::Deliver {
                game: h_game,
                events: bytes_of(&[h_chat]),
            },
        )
        .await,
    );
    requests += 1;
    assert_eq!(reason, "missing history");

    // 5. A legal-looking move in the honest game, properly signed by H, who does not play.
    let qh5 = parse_move(&honest_state.position, "Qh5", Lang::Auto).expect("legal here");
    let h_move = Scoresheet::join(h_key.clone(), game)
        .play(qh5, t)
        .expect("signs");
    let reason = refusal(
        h.request(
            a_peer,
            Request::Deliver {
                game,
                events: bytes_of(&[h_move]),
            },
        )
        .await,
    );
    requests += 1;
    assert!(reason.contains("does not play in this game"), "{reason}");

    // 6. Replays of the honest game's own events: acknowledged with the receipts A already
    // signed, and nothing changes.
    let replay = h
        .request(
            a_peer,
            Request::Deliver {
                game,
                events: bytes_of(&honest.events),
            },
        )
        .await;
    requests += 1;
    match replay {
        Ok(Response::Receipts { receipts }) => {
            for r in &receipts {
                let e = SignedEvent::from_bytes(r).expect("a signed event");
                assert!(honest.events.contains(&e), "a new receipt was signed");
            }
        }
        other => panic!("expected the existing receipts, got {other:?}"),
    }
    let after = a.archive(&game_hex).await;
    assert_eq!(
        after.events.len(),
        honest.events.len(),
        "the replay added events"
    );
    assert_eq!(
        a.call(ApiRequest::Show(request::Show {
            game: game_hex.clone()
        }))
        .await["plies"],
        4
    );

    // 7. A flood: beyond the rate limit the requests are refused, and that strike is the
    // last one H gets: A blocks H as it refuses, so the refusal may not make it out before
    // the connection closes.
    let mut flooded = 0usize;
    let deadline = Instant::now() + STEP;
    let flood_end = loop {
        assert!(Instant::now() < deadline, "the flood was never refused");
        match h
            .request(
                a_peer,
                Request::Sync {
                    game: h_game,
                    have: Vec::new(),
                },
            )
            .await
        {
            Ok(Response::Events { events }) => assert!(events.is_empty()),
            Ok(other) => panic!("unexpected answer {other:?}"),
            Err(e) => break e,
        }
        flooded += 1;
    };
    assert!(
        matches!(&flood_end, NetworkError::Refused(r) if r == "rate limit")
            || matches!(&flood_end, NetworkError::Transport(_)),
        "the flood ended with {flood_end:?}; log: {:#?}",
        log.lock().map(|l| l.clone()).unwrap_or_default()
    );
    eprintln!("the flood ended after {flooded} answered requests with: {flood_end}");
    assert_eq!(
        requests + flooded,
        RATE_LIMIT_PER_MINUTE,
        "exactly the rate limit is served in a minute"
    );

    // H is disconnected and refused from now on.
    let deadline = Instant::now() + STEP;
    while a.connected_to(&h_peer).await {
        assert!(Instant::now() < deadline, "H was never disconnected");
        tokio::time::sleep(POLL).await;
    }
    let after_block = h
        .request(
            a_peer,
            Request::Sync {
                game,
                have: Vec::new(),
            },
        )
        .await;
    assert!(
        after_block.is_err(),
        "a blocked peer was answered: {after_block:?}"
    );
    // A fresh connection completes its handshake on H's side and is dropped by A right
    // after: H still gets nothing answered, and A never counts H as connected again.
    let _ = h.dial(a_addr.clone()).await;
    let again = h
        .request(
            a_peer,
            Request::Sync {
                game,
                have: Vec::new(),
            },
        )
        .await;
    assert!(again.is_err(), "a blocked peer was answered: {again:?}");
    assert!(!a.connected_to(&h_peer).await, "A accepted H again");

    // A's log says why, naming H.
    assert_eq!(
        lines_with(&log, &["strike against peer", &h_tag]),
        MAX_STRIKES,
        "one strike per offence that deserves one"
    );
    assert_eq!(lines_with(&log, &["blocking peer", &h_tag]), 1);
    assert!(lines_with(&log, &["malformed request", &h_tag]) >= 2);
    assert!(lines_with(&log, &["delivery rejected", &h_tag, "bad signature"]) >= 1);
    assert!(lines_with(&log, &["delivery rejected", &h_tag, "does not play"]) >= 1);
    assert!(lines_with(&log, &["rate limit exceeded", &h_tag]) >= 1);

    // The honest game goes on and ends as it should.
    play(&a, &b, &game_hex, 4, &["Qh5", "Nf6", "Qxf7#"]).await;
    let va = a
        .wait_for(&game_hex, "the end", |v| v["status"] == "finished")
        .await;
    let vb = b
        .wait_for(&game_hex, "the end", |v| v["status"] == "finished")
        .await;
    assert_eq!(va["result"], "1-0");
    assert_eq!(vb["result"], "1-0");
    assert_eq!(va["termination"], "checkmate");
    assert_eq!(va["moves"], vb["moves"]);
    let (aa, ab) = (a.archive(&game_hex).await, b.archive(&game_hex).await);
    let (sa, sb) = (
        aa.verify().expect("A's archive"),
        ab.verify().expect("B's archive"),
    );
    assert_eq!(sa.position, sb.position);
    assert_eq!(sa.result, sb.result);
    assert!(sa.equivocations.is_empty() && sb.equivocations.is_empty());
    for e in aa.events.iter().chain(&ab.events) {
        let ev = e.decode_unverified().expect("decodes");
        assert_ne!(ev.author, h_key.player_id(), "H's event got into the game");
        assert!(!matches!(ev.kind, EventKind::Chat { .. }));
    }

    h.shutdown().await;
    a.stop().await;
    b.stop().await;
}

/// Time is evidence (docs/time.md): a receipt signed with the opponent's own key but dated
/// a month ahead — which would start the receiver's clock a month late, free thinking time —
/// is refused on arrival (the sender takes a strike), and the record is unchanged. Likewise
/// a time claim (6.9) dated four days ahead. Delivered by a real libp2p peer, as anyone can
/// relay a game's signed events.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attack_forward_dated_receipt_and_claim_are_refused_on_arrival() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let (a_id, a_addr) = a.id_addr().await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    let game_hex = start_game(&a, &b).await;
    play(&a, &b, &game_hex, 0, &["e4"]).await;
    a.wait_outbox_empty().await;
    b.wait_outbox_empty().await;

    let before = a.archive(&game_hex).await;
    let game: GameId = before.game;
    let state: GameState = before.verify().expect("verifies");
    let b_player = state.opponent;
    let e4 = state.moves[0].event;
    let (b_seq, b_last) = tip_of(&before.events, &b_player);
    let b_key = sobre_node::home::load_key(db.path()).expect("B's key");
    b.stop().await;

    let h_key = Keypair::from_secret_bytes(&[0x49; 32]);
    let h = start_hostile(sobre_node::home::libp2p_keypair(&h_key).expect("identity")).await;
    let a_peer: PeerId = a_id.parse().expect("peer id");
    let a_addr: Multiaddr = a_addr.parse().expect("multiaddr");
    assert_eq!(h.dial(a_addr).await.expect("dial A"), a_peer);

    const DAY: u64 = 86_400_000;
    let now = now_ms();
    let mut sheet = Scoresheet::resume(b_key.clone(), game, b_seq + 1, Some(b_last), Some(e4));
    let receipt = sheet.receipt(e4, now + 30 * DAY).expect("signs");
    let mut sheet = Scoresheet::resume(b_key, game, b_seq + 1, Some(b_last), Some(e4));
    let claim = sheet
        .claim(sobre_core::record::ClaimReason::Time, None, now + 4 * DAY)
        .expect("signs");
    for (what, event) in [("receipt", receipt), ("claim", claim)] {
        let reason = refusal(
            h.request(
                a_peer,
                Request::Deliver {
                    game,
                    events: bytes_of(&[event]),
                },
            )
            .await,
        );
        assert!(
            reason.contains("ahead of this node's clock"),
            "{what}: {reason}"
        );
    }
    let after = a.archive(&game_hex).await;
    assert_eq!(after.events, before.events, "nothing was stored");
    let v = a
        .call(ApiRequest::Show(request::Show { game: game_hex }))
        .await;
    assert_eq!(v["status"], "active", "{v}");
}

/// Like [`start_hostile`], but under the identity of a player of the game whose node takes
/// every delivery and answers with receipts — leaving out the receipts it owes. Each
/// delivery's events are passed to `taken`.
async fn start_withholding_receipts(
    identity: libp2p::identity::Keypair,
    taken: tokio::sync::mpsc::UnboundedSender<Vec<Vec<u8>>>,
) -> NetworkHandle {
    start_answering(identity, move |request| {
        if let Request::Deliver { events, .. } = request {
            let _ = taken.send(events);
        }
        Response::Receipts {
            receipts: Vec::new(),
        }
    })
    .await
}

/// The time rule's refused receipt (docs/time.md): under protocol version 2 a move counts
/// from its first countersignature, so a receiver whose node takes the move but withholds the
/// receipt, and later signs an event that saw it, would charge the mover for the time it held
/// the move. Black's key runs a node that answers A's delivery of `Nf3` without its receipt;
/// a time claim (6.9) that saw `Nf3`, dated beyond the skew after that answer, is refused on
/// arrival: A's game stays active.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attack_refused_receipt_cannot_be_made_up_by_a_later_countersignature() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let (a_id, a_addr) = a.id_addr().await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    let game_hex = start_game(&a, &b).await;
    play(&a, &b, &game_hex, 0, &["e4", "e5"]).await;
    a.wait_outbox_empty().await;
    b.wait_outbox_empty().await;
    let before = a.archive(&game_hex).await;
    let game: GameId = before.game;
    let state: GameState = before.verify().expect("verifies");
    let b_player = state.opponent;
    let (b_seq, b_last) = tip_of(&before.events, &b_player);
    let b_key = sobre_node::home::load_key(db.path()).expect("B's key");
    b.stop().await;

    // Black's key, on a node that withholds receipts.
    let (tx, mut taken) = tokio::sync::mpsc::unbounded_channel();
    let h = start_withholding_receipts(
        sobre_node::home::libp2p_keypair(&b_key).expect("identity"),
        tx,
    )
    .await;
    let a_peer: PeerId = a_id.parse().expect("peer id");
    assert_eq!(
        h.dial(a_addr.parse().expect("multiaddr"))
            .await
            .expect("dial A"),
        a_peer
    );
    a.call(ApiRequest::Move(request::Move {
        game: game_hex.clone(),
        text: "Nf3".into(),
        notation: None,
    }))
    .await;
    let nf3 = timeout(Duration::from_secs(30), async {
        loop {
            let events = taken.recv().await.expect("deliveries");
            if let Some(e) = events
                .iter()
                .filter_map(|b| SignedEvent::from_bytes(b).ok())
                .filter_map(|e| e.verify().ok())
                .find(|v| matches!(v.event.kind, EventKind::Move(_)) && v.event.seq > 2)
            {
                return e.id;
            }
        }
    })
    .await
    .expect("A delivers Nf3 to Black's node");
    // Past the skew after the answer, yet not ahead of A's clock.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let at = now_ms() + sobre_core::record::time::MAX_CLOCK_SKEW_MS - 500;
    let mut sheet = Scoresheet::resume(b_key, game, b_seq + 1, Some(b_last), Some(nf3));
    let claim = sheet
        .claim(sobre_core::record::ClaimReason::Time, None, at)
        .expect("signs");
    // What the claim would do if it were taken: Nf3 would count from the claim's time.
    let mut with_claim = before.events.clone();
    with_claim.extend(a.archive(&game_hex).await.events);
    with_claim.push(claim.clone());
    let would = sobre_core::record::verify(&with_claim).expect("verifies");
    assert_eq!(would.moves[2].countersigned_ms, Some(at));
    let reason = refusal(
        h.request(
            a_peer,
            Request::Deliver {
                game,
                events: bytes_of(&[claim]),
            },
        )
        .await,
    );
    assert!(reason.contains("without a receipt"), "{reason}");
    let v = a
        .call(ApiRequest::Show(request::Show { game: game_hex }))
        .await;
    assert_eq!(v["status"], "active", "{v}");
    assert!(v["claims"].as_array().is_none_or(|c| c.is_empty()), "{v}");
}

/// Time is evidence (docs/time.md): a claim on time (6.9) is judged no later than its first
/// countersignature, so the opponent's key signing a receipt of the player's correct claim
/// dated five minutes before it — "I held it before your flag claim was made" — would turn
/// it into an incorrect one. No honest node holds an event dated that far ahead of its clock
/// (it refuses it until its clock catches up), so the receipt is refused on arrival (the
/// sender takes a strike), and the claim stands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attack_back_dated_receipt_of_a_time_claim_is_refused_and_the_claim_stands() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let (a_id, a_addr) = a.id_addr().await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    // Over the board, 5 seconds each: Black's flag falls 5 s after e4 reached him.
    let game_hex = common::start_game_with(&a, &b, "otb 5s").await;
    play(&a, &b, &game_hex, 0, &["e4"]).await;
    a.wait_outbox_empty().await;
    b.wait_outbox_empty().await;
    let b_key = sobre_node::home::load_key(db.path()).expect("B's key");
    b.stop().await;
    timeout(Duration::from_secs(60), async {
        loop {
            let v = a
                .call(ApiRequest::Show(request::Show {
                    game: game_hex.clone(),
                }))
                .await;
            if v["clocks"]["ms_to_deadline"]
                .as_i64()
                .is_some_and(|ms| ms < -1_000)
            {
                break;
            }
            tokio::time::sleep(POLL).await;
        }
    })
    .await
    .expect("Black's flag falls");
    let v = a
        .call(ApiRequest::Claim(request::Claim {
            game: game_hex.clone(),
            reason: sobre_core::record::ClaimReason::Time,
            intended: None,
            notation: None,
        }))
        .await;
    assert_eq!(v["claim"]["correct"], true, "{v}");

    let before = a.archive(&game_hex).await;
    let game: GameId = before.game;
    let state: GameState = before.verify().expect("verifies");
    let claim = before
        .events
        .iter()
        .filter_map(|e| e.verify().ok())
        .find(|v| matches!(v.event.kind, EventKind::Claim(_)))
        .expect("the claim is in the record");
    let (b_seq, b_last) = tip_of(&before.events, &state.opponent);
    let mut sheet = Scoresheet::resume(b_key, game, b_seq + 1, Some(b_last), Some(claim.id));
    let back_dated = sheet
        .receipt(claim.id, claim.event.time_ms - 5 * 60_000)
        .expect("signs");
    // What the receipt would do if it were taken: the claim judged before it was made.
    let mut with_receipt = before.events.clone();
    with_receipt.push(back_dated.clone());
    let would = sobre_core::record::verify(&with_receipt).expect("verifies");
    assert!(!would.claims[0].correct, "{:?}", would.claims);

    let h_key = Keypair::from_secret_bytes(&[0x4a; 32]);
    let h = start_hostile(sobre_node::home::libp2p_keypair(&h_key).expect("identity")).await;
    let a_peer: PeerId = a_id.parse().expect("peer id");
    assert_eq!(
        h.dial(a_addr.parse().expect("multiaddr"))
            .await
            .expect("dial A"),
        a_peer
    );
    let reason = refusal(
        h.request(
            a_peer,
            Request::Deliver {
                game,
                events: bytes_of(&[back_dated]),
            },
        )
        .await,
    );
    assert!(reason.contains("before the claim's own time"), "{reason}");
    let after = a.archive(&game_hex).await;
    assert_eq!(after.events, before.events, "nothing was stored");
    let v = a
        .call(ApiRequest::Show(request::Show { game: game_hex }))
        .await;
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(v["claims"][0]["correct"], true, "the claim stands: {v}");
}
