//! Deliveries carry only what the receiver lacks. A real node (A: the service, libp2p over
//! loopback TCP, sled on disk) plays against a scripted peer (B: a bare network actor under
//! B's key that signs its own events), which records every `Deliver` A sends it and answers
//! as the test decides: receipts, or a refusal for missing history, after which A must send
//! the whole game at once.

use crate::common::{STEP, TestNode};
use sobre_core::Position;
use sobre_core::notation::parse_move;
use sobre_core::record::{EventId, EventKind, GameId, Keypair, Scoresheet, SignedEvent};
use sobre_core::san::Lang;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::network::{self, NetworkConfig, NetworkEvent, NetworkHandle};
use sobre_node::protocol::{Request, Response};
use sobre_node::time::now_ms;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, timeout};

/// A `Deliver` the scripted peer received, waiting for the test's answer.
struct Delivery {
    game: GameId,
    events: Vec<SignedEvent>,
    bytes: usize,
    reply: oneshot::Sender<Response>,
}

/// The scripted peer's network: deliveries go to the test, syncs are answered with nothing.
async fn start_peer(
    identity: libp2p::identity::Keypair,
) -> (NetworkHandle, mpsc::Receiver<Delivery>) {
    let mut config = NetworkConfig::new(identity);
    config.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().expect("multiaddr")];
    let (handle, mut events) = timeout(STEP, network::spawn(config))
        .await
        .expect("spawn timed out")
        .expect("spawn");
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            let NetworkEvent::InboundRequest { request, reply, .. } = event else {
                continue;
            };
            match request {
                Request::Deliver { game, events } => {
                    let bytes = events.iter().map(Vec::len).sum();
                    let events = events
                        .iter()
                        .map(|b| SignedEvent::from_bytes(b).expect("a signed event"))
                        .collect();
                    let _ = tx
                        .send(Delivery {
                            game,
                            events,
                            bytes,
                            reply,
                        })
                        .await;
                }
                Request::Sync { .. } => {
                    let _ = reply.send(Response::Events { events: Vec::new() });
                }
                _ => {
                    let _ = reply.send(Response::Refused {
                        reason: "not served".into(),
                    });
                }
            }
        }
    });
    (handle, rx)
}

async fn next_delivery(rx: &mut mpsc::Receiver<Delivery>, what: &str) -> Delivery {
    timeout(STEP, rx.recv())
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
        .expect("the scripted peer stopped")
}

fn receipts(events: &[SignedEvent]) -> Response {
    Response::Receipts {
        receipts: events
            .iter()
            .map(|e| e.to_bytes().expect("encodes"))
            .collect(),
    }
}

/// The kind of each event, and for receipts the event receipted.
fn kinds(events: &[SignedEvent]) -> Vec<(&'static str, Option<EventId>)> {
    events
        .iter()
        .map(|e| {
            let ev = e.decode_unverified().expect("decodes");
            let of = match ev.kind {
                EventKind::Receipt { event } => Some(event),
                _ => None,
            };
            (ev.kind.name(), of)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deliveries_after_the_first_carry_only_new_events_and_missing_history_brings_the_whole_game()
 {
    let da = tempfile::tempdir().unwrap();
    let a = TestNode::start(da.path()).await;
    let (a_id, a_addr) = a.id_addr().await;
    let a_peer: libp2p::PeerId = a_id.parse().expect("peer id");

    let b_key = Keypair::from_secret_bytes(&[0x42; 32]);
    let b_identity = sobre_node::home::libp2p_keypair(&b_key).expect("identity");
    let (b, mut inbox) = start_peer(b_identity).await;
    assert_eq!(
        b.dial(a_addr.parse().expect("multiaddr"))
            .await
            .expect("dial A"),
        a_peer
    );

    // 1. The challenge: the first delivery is the whole game, one event.
    let ch = a
        .call(ApiRequest::Challenge(request::Challenge {
            opponent: b_key.player_id().to_string(),
            color: sobre_core::record::ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            chess960: false,
            fen: None,
            terms: Default::default(),
        }))
        .await;
    let game_hex = ch["game"].as_str().expect("game id").to_owned();
    let d = next_delivery(&mut inbox, "the challenge").await;
    assert_eq!(d.events.len(), 1);
    let game = d.events[0].id();
    assert_eq!(d.game, game);
    assert_eq!(game.to_hex(), game_hex);
    let mut sheet = Scoresheet::join(b_key.clone(), game);
    sheet.saw(game);
    let r_challenge = sheet.receipt(game, now_ms()).expect("signs");
    d.reply
        .send(receipts(std::slice::from_ref(&r_challenge)))
        .expect("A waits for the answer");
    // A has taken the receipt from the answer (the acceptance follows it in B's log).
    a.wait_outbox_empty().await;

    // B accepts, sending A only its acceptance (A holds the rest).
    let accept = sheet.accept(None, now_ms()).expect("signs");
    match b
        .request(
            a_peer,
            Request::Deliver {
                game,
                events: vec![accept.to_bytes().expect("encodes")],
            },
        )
        .await
    {
        Ok(Response::Receipts { receipts }) => assert_eq!(receipts.len(), 1),
        other => panic!("the acceptance was not receipted: {other:?}"),
    }
    a.wait_for(&game_hex, "the acceptance", |v| v["status"] == "active")
        .await;
    // A's log: challenge, B's receipt, B's acceptance, A's receipt of it.

    // 2. White's first move: only A's receipt of the acceptance and the move travel, not
    //    the challenge B receipted nor B's own events.
    a.call(ApiRequest::Move(request::Move {
        game: game_hex.clone(),
        text: "e4".into(),
        notation: None,
    }))
    .await;
    let d = next_delivery(&mut inbox, "the first move").await;
    let delta_bytes = d.bytes;
    assert_eq!(
        kinds(&d.events),
        vec![("receipt", Some(accept.id())), ("move", None)],
        "the delivery after the first carries only what B lacks"
    );
    let e4 = d.events[1].clone();
    // B says it lacks history: A must send the whole game at once, without backing off
    // (a backed-off retry comes 3 s or more later).
    let refused = Instant::now();
    d.reply
        .send(Response::Refused {
            reason: "missing history".into(),
        })
        .expect("A waits for the answer");
    let d = next_delivery(&mut inbox, "the whole game").await;
    let waited = refused.elapsed();
    assert!(
        waited < Duration::from_millis(2500),
        "the whole game came {waited:?} after the refusal"
    );
    let ids: Vec<EventId> = d.events.iter().map(SignedEvent::id).collect();
    assert_eq!(
        ids.len(),
        5,
        "challenge, B's receipt and acceptance, A's receipt, the move"
    );
    assert_eq!(ids[0], game);
    for e in [&r_challenge, &accept, &e4] {
        assert!(ids.contains(&e.id()), "the whole game lacks {}", e.id());
    }
    assert!(d.bytes > delta_bytes);
    sheet.saw(e4.id());
    let r_e4 = sheet.receipt(e4.id(), now_ms()).expect("signs");
    d.reply
        .send(receipts(std::slice::from_ref(&r_e4)))
        .expect("A waits for the answer");
    a.wait_outbox_empty().await;

    // 3. B answers 1… e5; A's next delivery starts after the whole game B receipted.
    let mut pos = Position::new();
    pos.play_unchecked(parse_move(&pos, "e4", Lang::Auto).expect("legal"));
    let e5 = sheet
        .play(parse_move(&pos, "e5", Lang::Auto).expect("legal"), now_ms())
        .expect("signs");
    match b
        .request(
            a_peer,
            Request::Deliver {
                game,
                events: vec![e5.to_bytes().expect("encodes")],
            },
        )
        .await
    {
        Ok(Response::Receipts { receipts }) => assert_eq!(receipts.len(), 1),
        other => panic!("the move was not receipted: {other:?}"),
    }
    a.wait_for(&game_hex, "Black's move", |v| v["plies"] == 2)
        .await;
    a.call(ApiRequest::Move(request::Move {
        game: game_hex.clone(),
        text: "Nf3".into(),
        notation: None,
    }))
    .await;
    let d = next_delivery(&mut inbox, "the second move").await;
    assert_eq!(
        kinds(&d.events),
        vec![("receipt", Some(e5.id())), ("move", None)],
        "after a whole game was receipted, only the new events travel"
    );
    let nf3 = d.events[1].clone();
    sheet.saw(nf3.id());
    let r_nf3 = sheet.receipt(nf3.id(), now_ms()).expect("signs");
    d.reply
        .send(receipts(std::slice::from_ref(&r_nf3)))
        .expect("A waits for the answer");
    a.wait_outbox_empty().await;

    // Everything is receipted: nothing more is sent, not even on the outbox retry (1.5 s).
    if let Ok(Some(d)) = timeout(Duration::from_secs(2), inbox.recv()).await {
        panic!("an unexpected delivery of {} events", d.events.len());
    }
    let v = a
        .call(ApiRequest::Show(request::Show { game: game_hex }))
        .await;
    assert_eq!(v["moves"], serde_json::json!(["e2e4", "e7e5", "g1f3"]));

    b.shutdown().await;
    a.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mailbox_that_lost_the_game_gets_it_whole_after_refusing_a_partial_delivery() {
    let (dm, da, db) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let m = TestNode::start_with(dm.path(), |c| c.mailbox = true).await;
    let (_, m_addrs) = m.id().await;
    let m_addr = crate::common::tcp_addr(&m_addrs);
    // Only A uses the mailbox: B's events reach it in A's deliveries alone.
    let a = TestNode::start_with(da.path(), |c| c.mailboxes = vec![m_addr.clone()]).await;
    let b = TestNode::start(db.path()).await;
    let (_, a_addr) = a.id_addr().await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    let game = crate::common::start_game(&a, &b).await;
    crate::common::play(&a, &b, &game, 0, &["e4", "e5", "Nf3"]).await;
    m.wait_for(&game, "the mailbox to hold White's move", |v| {
        v["plies"] == 3
    })
    .await;
    // The mailbox receipted all A sent it: A's next delivery there is only what is new.
    a.wait_outbox_empty().await;

    // The mailbox loses its database: the same key in an empty home, on a new port, and it
    // reaches A (A cannot dial the old address).
    m.stop().await;
    let dm2 = tempfile::tempdir().unwrap();
    std::fs::copy(
        sobre_node::home::key_path(dm.path()),
        sobre_node::home::key_path(dm2.path()),
    )
    .expect("copy the key");
    let m = TestNode::start_with(dm2.path(), |c| {
        c.mailbox = true;
        c.bootstrap = vec![a_addr.clone()];
    })
    .await;
    assert!(
        m.try_call(ApiRequest::Show(request::Show { game: game.clone() }))
            .await
            .is_err(),
        "the new mailbox holds the game already"
    );

    // Two more plies: A's delivery of the second lacks the challenge, the mailbox refuses it
    // as missing history, and A sends the whole game.
    crate::common::play(&a, &b, &game, 3, &["Nc6", "Bb5"]).await;
    let v = m
        .wait_for(&game, "the mailbox to hold the whole game again", |v| {
            v["plies"] == 5
        })
        .await;
    assert_eq!(
        v["moves"],
        serde_json::json!(["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"])
    );
    a.wait_outbox_empty().await;
    let (sa, sm) = (
        a.verified_archive(&game).await,
        m.verified_archive(&game).await,
    );
    assert_eq!(sa.position, sm.position);

    m.stop().await;
    a.stop().await;
    b.stop().await;
}

async fn heads(
    h: &NetworkHandle,
    mailbox: libp2p::PeerId,
    player: sobre_core::record::PlayerId,
    epoch: u64,
    since: u64,
) -> (u64, u64, Vec<sobre_node::protocol::GameHead>) {
    match h
        .request(
            mailbox,
            Request::GamesSince {
                player,
                epoch,
                since,
            },
        )
        .await
    {
        Ok(Response::GameHeads {
            epoch,
            cursor,
            heads,
        }) => (epoch, cursor, heads),
        other => panic!("unexpected answer to GamesSince: {other:?}"),
    }
}

/// A player meeting its mailbox learns what changed since its last visit, not every game
/// the mailbox holds for it (issue 30: a reconnect costs what changed). The answer names
/// each changed game with how far the mailbox holds it; a stranger asking for the player's
/// games gets nothing; a cursor of another run of the mailbox gets the whole list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mailbox_lists_only_the_games_changed_since_the_players_cursor() {
    use sobre_core::test_support::{GameBuilder, Lines};
    let dir = tempfile::tempdir().unwrap();
    let mailbox = TestNode::start_with(dir.path(), |c| c.mailbox = true).await;
    let (id, addr) = mailbox.id_addr().await;
    let mailbox_peer: libp2p::PeerId = id.parse().expect("a peer id");
    let ana = Keypair::from_secret_bytes(&[41; 32]);
    let bruno = Keypair::from_secret_bytes(&[42; 32]);
    let games: Vec<Vec<SignedEvent>> = (0..3u64)
        .map(|i| {
            let line = Lines::new(i + 7).endless().line(&Position::new(), 6);
            GameBuilder::new(ana.clone(), bruno.clone())
                .at(now_ms() - 3_600_000 + i * 60_000)
                .sign(&line)
                .expect("a legal line signs")
                .events
        })
        .collect();
    let ana_net =
        crate::common::net::actor(sobre_node::home::libp2p_keypair(&ana).expect("an identity"))
            .await;
    ana_net
        .dial(addr.parse().expect("addr"))
        .await
        .expect("dial");
    let deliver = |game: &[SignedEvent], upto: usize| Request::Deliver {
        game: game[0].id(),
        events: game[..upto]
            .iter()
            .map(|e| e.to_bytes().expect("bytes"))
            .collect(),
    };
    // The first game only half delivered yet.
    let half = games[0].len() - 2;
    for (g, upto) in games.iter().zip([half, games[1].len(), games[2].len()]) {
        match ana_net.request(mailbox_peer, deliver(g, upto)).await {
            Ok(Response::Receipts { .. }) => {}
            other => panic!("the mailbox did not take the game: {other:?}"),
        }
    }

    let (epoch, cursor, all) = heads(&ana_net, mailbox_peer, ana.player_id(), 0, 0).await;
    assert_eq!(all.len(), 3, "a first visit lists every game: {all:?}");
    let first = all
        .iter()
        .find(|h| h.game == games[0][0].id())
        .expect("the first game is listed");
    let ana_next = first
        .have
        .iter()
        .find(|(p, _)| *p == ana.player_id())
        .map(|(_, n)| *n);
    assert!(
        ana_next.is_some(),
        "the head says how far each author is held"
    );

    let (_, same, none) = heads(&ana_net, mailbox_peer, ana.player_id(), epoch, cursor).await;
    assert!(none.is_empty(), "nothing changed since: {none:?}");
    assert_eq!(same, cursor);

    match ana_net
        .request(mailbox_peer, deliver(&games[0], games[0].len()))
        .await
    {
        Ok(Response::Receipts { .. }) => {}
        other => panic!("the rest of the first game was not taken: {other:?}"),
    }
    let (_, later, changed) = heads(&ana_net, mailbox_peer, ana.player_id(), epoch, cursor).await;
    assert_eq!(
        changed.iter().map(|h| h.game).collect::<Vec<_>>(),
        vec![games[0][0].id()],
        "only the game that moved"
    );
    assert!(later > cursor);
    let now_held = changed[0].have.iter().map(|(_, n)| *n).sum::<u64>();
    let before = first.have.iter().map(|(_, n)| *n).sum::<u64>();
    assert!(now_held > before, "the head moved on with the game");

    let (_, _, stale) = heads(&ana_net, mailbox_peer, ana.player_id(), epoch ^ 1, later).await;
    assert_eq!(
        stale.len(),
        3,
        "a cursor of another run gets the whole list"
    );

    let stranger = crate::common::net::actor(libp2p::identity::Keypair::generate_ed25519()).await;
    stranger
        .dial(addr.parse().expect("addr"))
        .await
        .expect("dial");
    let (_, _, nothing) = heads(&stranger, mailbox_peer, ana.player_id(), 0, 0).await;
    assert!(nothing.is_empty(), "only Ana lists Ana's games");
}

/// A delivery sent again after its receipts were lost, to a mailbox that no longer has the
/// game in memory (it restarted), is answered from the store without loading the game
/// (issue 30) — with exactly the receipts the first delivery got, and nothing stored twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delivery_sent_again_to_a_cold_game_gets_the_same_receipts() {
    use sobre_core::test_support::{GameBuilder, Lines};
    let dir = tempfile::tempdir().unwrap();
    let ana = Keypair::from_secret_bytes(&[51; 32]);
    let bruno = Keypair::from_secret_bytes(&[52; 32]);
    let line = Lines::new(3).endless().line(&Position::new(), 8);
    let game = GameBuilder::new(ana.clone(), bruno.clone())
        .at(now_ms() - 3_600_000)
        .sign(&line)
        .expect("a legal line signs")
        .events;
    let delivery = Request::Deliver {
        game: game[0].id(),
        events: game.iter().map(|e| e.to_bytes().expect("bytes")).collect(),
    };
    let receipts_of = async |delivery: &Request| {
        let mailbox = TestNode::start_with(dir.path(), |c| c.mailbox = true).await;
        let (id, addr) = mailbox.id_addr().await;
        let peer: libp2p::PeerId = id.parse().expect("a peer id");
        let net =
            crate::common::net::actor(sobre_node::home::libp2p_keypair(&ana).expect("identity"))
                .await;
        net.dial(addr.parse().expect("addr")).await.expect("dial");
        let mut receipts = match net.request(peer, delivery.clone()).await {
            Ok(Response::Receipts { receipts }) => receipts,
            other => panic!("the mailbox did not take the game: {other:?}"),
        };
        receipts.sort();
        net.shutdown().await;
        mailbox.stop().await;
        let store = sobre_node::store::Store::open(&sobre_node::home::db_path(dir.path()))
            .expect("the store");
        let stored = store.events(&game[0].id()).expect("events").len();
        (receipts, stored)
    };
    let (first, stored) = receipts_of(&delivery).await;
    assert_eq!(first.len(), game.len(), "one receipt per event of others");
    let (again, stored_again) = receipts_of(&delivery).await;
    assert_eq!(again, first, "the same receipts, not new ones");
    assert_eq!(stored_again, stored, "nothing stored twice");
}
