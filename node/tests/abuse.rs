//! Strangers against a real node (issue 18): what a peer with no part in a game can make the
//! node do without breaking a single rule. Each attacker is a real libp2p peer (the node's
//! own network actor under a fresh key, signing whatever it likes).

use crate::common::net::{actor, actor_of};

use crate::common::gossip::RawGossip;
use crate::common::{STEP, TestNode, disk_bytes, play, start_game};
use libp2p::PeerId;
use sobre_core::record::{
    Challenge, ColourChoice, EventId, PlayerId, Scoresheet, SignedEvent, StartPosition,
};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::network::{NetworkConfig, NetworkError, NetworkHandle};
use sobre_node::protocol::{Request, Response};
use sobre_node::time::now_ms;
use std::time::Duration;
use tempfile::TempDir;

async fn sync(h: &NetworkHandle, to: PeerId, game: EventId) -> Vec<Vec<u8>> {
    match h
        .request(
            to,
            Request::Sync {
                game,
                have: Vec::new(),
            },
        )
        .await
    {
        Ok(Response::Events { events }) => events,
        other => panic!("unexpected answer to a sync: {other:?}"),
    }
}

async fn list(h: &NetworkHandle, to: PeerId, player: PlayerId) -> Vec<EventId> {
    match h.request(to, Request::Games { player }).await {
        Ok(Response::Games { games }) => games,
        other => panic!("unexpected answer to a game list: {other:?}"),
    }
}

/// Ana's and Bruno's nodes, connected, with a game between them under way: the honest side
/// each attack must leave alone.
async fn ana_and_bruno_playing() -> (TempDir, TempDir, TestNode, TestNode, String) {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    let game = start_game(&a, &b).await;
    (da, db, a, b, game)
}

/// A stranger asks Ana's node for her game with Bruno (its moves and chat) and for Bruno's
/// list of games: it gets the same empty answer as for a game that does not exist. Bruno,
/// asking with his own key, gets both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_can_neither_read_a_game_nor_list_a_players_games() {
    let (_da, db, a, b, game) = ana_and_bruno_playing().await;
    play(&a, &b, &game, 0, &["e4", "e5"]).await;
    a.call(ApiRequest::Chat(request::Chat {
        game: game.clone(),
        text: "only for Bruno".into(),
    }))
    .await;
    a.wait_outbox_empty().await;
    let game_id = EventId::from_hex(&game).expect("a game id");
    let (a_id, a_addr) = a.id_addr().await;
    let a_peer: PeerId = a_id.parse().expect("a peer id");
    let (b_id, _) = b.id().await;
    let bruno: PlayerId = b_id.parse().expect("a player id");

    let stranger = actor(libp2p::identity::Keypair::generate_ed25519()).await;
    stranger.dial(a_addr.parse().unwrap()).await.unwrap();
    assert!(sync(&stranger, a_peer, game_id).await.is_empty());
    assert!(sync(&stranger, a_peer, EventId([3; 32])).await.is_empty());
    assert!(list(&stranger, a_peer, bruno).await.is_empty());
    stranger.shutdown().await;

    // Bruno's key (his node stopped) reads the game and lists his games.
    b.stop().await;
    let bruno_actor = actor_of(db.path()).await;
    bruno_actor.dial(a_addr.parse().unwrap()).await.unwrap();
    let events = sync(&bruno_actor, a_peer, game_id).await;
    assert!(events.len() >= 5, "{} events", events.len());
    assert_eq!(list(&bruno_actor, a_peer, bruno).await, vec![game_id]);
    bruno_actor.shutdown().await;
    a.stop().await;
}

fn challenge_of(
    key: &sobre_core::record::Keypair,
    opponent: PlayerId,
    t: u64,
) -> (Scoresheet, SignedEvent) {
    let ch = Challenge {
        opponent,
        colour: ColourChoice::ChallengerWhite,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: None,
    };
    Scoresheet::challenge(key.clone(), ch, t).expect("sign")
}

async fn deliver(h: &NetworkHandle, to: PeerId, game: EventId, events: &[SignedEvent]) -> Response {
    h.request(
        to,
        Request::Deliver {
            game,
            events: events.iter().map(|e| e.to_bytes().unwrap()).collect(),
        },
    )
    .await
    .unwrap_or_else(|e| Response::Refused {
        reason: e.to_string(),
    })
}

/// A stranger challenges Ana and floods the pending game with chat lines, all validly
/// signed, then sends more challenges than she can be asked to answer. Ana's node keeps at
/// most three lines of a challenge nobody accepted and three challenges from one challenger,
/// and her game with Bruno goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_strangers_chat_and_challenge_flood_is_bounded() {
    let (_da, _db, a, b, honest) = ana_and_bruno_playing().await;
    let (a_id, a_addr) = a.id_addr().await;
    let a_peer: PeerId = a_id.parse().unwrap();
    let ana: PlayerId = a_id.parse().unwrap();

    let key = sobre_core::record::Keypair::from_secret_bytes(&[77; 32]);
    let h = actor(sobre_node::home::libp2p_keypair(&key).unwrap()).await;
    h.dial(a_addr.parse().unwrap()).await.unwrap();
    let t0 = now_ms() - 60_000;
    let (mut sheet, first) = challenge_of(&key, ana, t0);
    let game = sheet.game();
    assert!(matches!(
        deliver(&h, a_peer, game, std::slice::from_ref(&first)).await,
        Response::Receipts { .. }
    ));
    let hex = game.to_hex();
    a.wait_for(&hex, "the stranger's challenge", |v| {
        v["status"] == "pending"
    })
    .await;

    // Chat, one line per delivery: three are kept, then every line is refused.
    let mut refused = 0;
    for i in 0..40u64 {
        let line = sheet
            .chat(&format!("buy my course {i}"), t0 + 1 + i)
            .unwrap();
        match deliver(&h, a_peer, game, &[line]).await {
            Response::Receipts { .. } => {}
            Response::Refused { reason } => {
                assert!(reason.contains("too much chat"), "{reason}");
                refused += 1;
                // The refused line is not in Ana's copy: later lines would not follow on.
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(refused, 1);
    let v = a
        .call(ApiRequest::Show(request::Show { game: hex.clone() }))
        .await;
    assert_eq!(v["chat"].as_array().map(Vec::len), Some(3), "{v}");

    // More challenges from the same stranger: three wait for Ana's answer, no more.
    let mut kept = 1;
    let mut turned_down = 0;
    for i in 1..10u64 {
        let (s, c) = challenge_of(&key, ana, t0 + 100 + i);
        match deliver(&h, a_peer, s.game(), &[c]).await {
            Response::Receipts { .. } => kept += 1,
            Response::Refused { reason } => {
                assert!(reason.contains("too many challenges"), "{reason}");
                turned_down += 1;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!((kept, turned_down), (3, 7));
    h.shutdown().await;

    // The honest game is untouched.
    play(&a, &b, &honest, 0, &["d4", "d5"]).await;
    a.stop().await;
    b.stop().await;
}

/// Three hundred fresh identities on one machine connect to Ana's node: it keeps at most
/// `MAX_PER_IP` of them, and Bruno — her opponent, from the same address — still connects
/// and their game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_identities_from_one_address_cannot_lock_the_opponent_out() {
    use sobre_node::network::ip_limits::MAX_PER_IP;
    let (da, db, a, b, game) = ana_and_bruno_playing().await;
    let (b_id, _) = b.id().await;
    let b_peer: PeerId = b_id.parse().unwrap();
    b.stop().await;
    let (_, a_addr) = a.id_addr().await;

    let mut sybils = Vec::new();
    let disk_before = disk_bytes(da.path());
    for _ in 0..300 {
        let h = actor(libp2p::identity::Keypair::generate_ed25519()).await;
        let _ = h.dial(a_addr.parse().unwrap()).await;
        sybils.push(h);
    }
    // Let the handshakes finish and the refusals land.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut connected = 0;
    for h in &sybils {
        if a.connected_to(&h.local_peer_id()).await {
            connected += 1;
        }
    }
    assert!(
        connected <= MAX_PER_IP,
        "{connected} connections from one address"
    );
    assert!(
        connected > 0,
        "no stranger connected at all: the test proves nothing"
    );

    // Bruno comes back and dials Ana from the same address: reserved, he connects and plays.
    let b = TestNode::start(db.path()).await;
    b.call(ApiRequest::Connect(request::Connect {
        addr: a_addr.clone(),
    }))
    .await;
    let deadline = tokio::time::Instant::now() + STEP;
    while !a.connected_to(&b_peer).await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "Bruno was locked out"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    play(&a, &b, &game, 0, &["c4", "c5"]).await;
    let grown = disk_bytes(da.path()).saturating_sub(disk_before);
    assert!(grown < DISK_GROWTH_BOUND, "{grown} bytes written");
    for h in sybils {
        h.shutdown().await;
    }
    a.stop().await;
    b.stop().await;
}

/// A stranger delivers games between two other players (every event validly signed): Ana's
/// node refuses each as not hers from its content — the challenge names neither her nor a
/// league — and keeps none of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_between_others_are_refused_before_their_signatures_are_checked() {
    let da = tempfile::tempdir().unwrap();
    let a = TestNode::start(da.path()).await;
    let (a_id, a_addr) = a.id_addr().await;
    let a_peer: PeerId = a_id.parse().unwrap();
    let key = sobre_core::record::Keypair::from_secret_bytes(&[78; 32]);
    let other = sobre_core::record::Keypair::from_secret_bytes(&[79; 32]);
    let h = actor(sobre_node::home::libp2p_keypair(&key).unwrap()).await;
    h.dial(a_addr.parse().unwrap()).await.unwrap();
    let t0 = now_ms() - 60_000;
    for i in 0..20u64 {
        let (mut sheet, first) = challenge_of(&key, other.player_id(), t0 + i);
        let mut events = vec![first];
        for j in 0..60u64 {
            events.push(sheet.chat("spam", t0 + 100 + j).unwrap());
        }
        match deliver(&h, a_peer, sheet.game(), &events).await {
            Response::Refused { reason } => {
                assert!(reason.contains("not a game of this node"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
    }
    let games = a.call(ApiRequest::Games(request::Games {})).await;
    assert_eq!(games["games"].as_array().map(Vec::len), Some(0), "{games}");
    h.shutdown().await;
    a.stop().await;
}

/// Ana blocks a stranger who challenged her: the waiting challenge goes, the stranger's node
/// is cut off and refused, and the block survives a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blocked_player_is_refused_for_good() {
    let da = tempfile::tempdir().unwrap();
    let a = TestNode::start(da.path()).await;
    let (a_id, a_addr) = a.id_addr().await;
    let a_peer: PeerId = a_id.parse().unwrap();
    let ana: PlayerId = a_id.parse().unwrap();
    let key = sobre_core::record::Keypair::from_secret_bytes(&[80; 32]);
    let h = actor(sobre_node::home::libp2p_keypair(&key).unwrap()).await;
    h.dial(a_addr.parse().unwrap()).await.unwrap();
    let t0 = now_ms() - 60_000;
    let (sheet, first) = challenge_of(&key, ana, t0);
    assert!(matches!(
        deliver(&h, a_peer, sheet.game(), &[first]).await,
        Response::Receipts { .. }
    ));
    let games = a.call(ApiRequest::Games(request::Games {})).await;
    assert_eq!(games["games"].as_array().map(Vec::len), Some(1), "{games}");

    let stranger = key.player_id().to_string();
    let v = a
        .call(ApiRequest::Block(request::Block {
            player: Some(stranger.clone()),
            unblock: false,
        }))
        .await;
    assert_eq!(v["blocked"], serde_json::json!([stranger]));
    let games = a.call(ApiRequest::Games(request::Games {})).await;
    assert_eq!(games["games"].as_array().map(Vec::len), Some(0), "{games}");
    // Cut off: the next delivery does not get through.
    let (sheet, again) = challenge_of(&key, ana, t0 + 5);
    assert!(!matches!(
        deliver(&h, a_peer, sheet.game(), &[again]).await,
        Response::Receipts { .. }
    ));
    h.shutdown().await;

    a.stop().await;
    let a = TestNode::start(da.path()).await;
    let v = a
        .call(ApiRequest::Block(request::Block {
            player: None,
            unblock: false,
        }))
        .await;
    assert_eq!(v["blocked"], serde_json::json!([stranger]));
    let v = a
        .call(ApiRequest::Block(request::Block {
            player: Some(stranger),
            unblock: true,
        }))
        .await;
    assert_eq!(v["blocked"], serde_json::json!([]));
    a.stop().await;
}

/// A game's own player asks for the whole game again and again: the node sends at most its
/// per-minute byte budget of sync answers to one peer, then refuses until the minute is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_answers_are_bounded_in_bytes_per_peer() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start_with(da.path(), |c| c.sync_bytes_per_minute = Some(8 * 1024)).await;
    let b = TestNode::start(db.path()).await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    let game = start_game(&a, &b).await;
    play(&a, &b, &game, 0, &["e4", "e5", "Nf3", "Nc6"]).await;
    b.stop().await;
    let (a_id, a_addr) = a.id_addr().await;
    let a_peer: PeerId = a_id.parse().unwrap();
    let game_id = EventId::from_hex(&game).unwrap();

    let bruno = actor_of(db.path()).await;
    bruno.dial(a_addr.parse().unwrap()).await.unwrap();
    let (mut served, mut bytes) = (0usize, 0usize);
    let refused = loop {
        match bruno
            .request(
                a_peer,
                Request::Sync {
                    game: game_id,
                    have: Vec::new(),
                },
            )
            .await
        {
            Ok(Response::Events { events }) => {
                assert!(!events.is_empty());
                served += 1;
                bytes += events.iter().map(Vec::len).sum::<usize>();
                assert!(served < 100, "never refused");
            }
            Ok(Response::Refused { reason }) => break reason,
            Err(sobre_node::network::NetworkError::Refused(reason)) => break reason,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(refused, "rate limit");
    assert!(served >= 1, "the first answer must go through");
    assert!(bytes <= 8 * 1024, "{bytes} bytes sent");
    bruno.shutdown().await;
    a.stop().await;
}

/// A contact of Ana's (`sobre contacts`) is not a stranger: five challenges from them all wait
/// for her answer, where a stranger gets three.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contacts_challenges_are_not_limited() {
    let da = tempfile::tempdir().unwrap();
    let key = sobre_core::record::Keypair::from_secret_bytes(&[81; 32]);
    sobre_node::home::init_key(da.path()).unwrap();
    std::fs::write(
        da.path().join(sobre_node::home::CONTACTS_FILE),
        serde_json::json!({ "amigo": key.player_id().to_string() }).to_string(),
    )
    .unwrap();
    let a = TestNode::start(da.path()).await;
    let (a_id, a_addr) = a.id_addr().await;
    let a_peer: PeerId = a_id.parse().unwrap();
    let ana: PlayerId = a_id.parse().unwrap();
    let h = actor(sobre_node::home::libp2p_keypair(&key).unwrap()).await;
    h.dial(a_addr.parse().unwrap()).await.unwrap();
    let t0 = now_ms() - 60_000;
    for i in 0..5u64 {
        let (s, c) = challenge_of(&key, ana, t0 + i);
        assert!(
            matches!(
                deliver(&h, a_peer, s.game(), &[c]).await,
                Response::Receipts { .. }
            ),
            "challenge {i} from a contact was refused"
        );
    }
    let games = a.call(ApiRequest::Games(request::Games {})).await;
    assert_eq!(games["games"].as_array().map(Vec::len), Some(5), "{games}");
    h.shutdown().await;
    a.stop().await;
}

/// What an attack may add to the victim's home on disk: sled's own bookkeeping as the honest
/// game goes on beside it (a few pages), not the attacker's bytes (megabytes in each test).
const DISK_GROWTH_BOUND: u64 = 2 << 20;

/// A raw gossipsub peer (libp2p's gossipsub with a 4 MiB frame limit, nothing of sobre's)
/// publishes 1 MiB messages on Ana's inbox topic: her node drops each frame unread
/// (`network::MAX_GOSSIP_FRAME`), stores nothing, and her game with Bruno goes on. A
/// challenge of ordinary size gossiped by another peer still reaches her, so the topic was
/// live all along.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_gossip_is_dropped_unread() {
    let (da, _db, a, b, honest) = ana_and_bruno_playing().await;
    let (a_id, a_addr) = a.id_addr().await;
    let ana: PlayerId = a_id.parse().unwrap();
    let topic = sobre_node::protocol::inbox_topic(&ana);
    let disk_before = disk_bytes(da.path());

    let attacker = RawGossip::dial(a_addr.parse().unwrap()).unwrap();
    attacker.subscribe(&topic);
    // A well-formed gossip message, padded far beyond any legal event.
    let key = sobre_core::record::Keypair::from_secret_bytes(&[82; 32]);
    let (sheet, first) = challenge_of(&key, ana, now_ms() - 60_000);
    let mut event = first.to_bytes().unwrap();
    event.resize(1 << 20, 0);
    let big = sobre_node::protocol::encode(&sobre_node::protocol::Gossip {
        game: sheet.game(),
        event,
    })
    .unwrap();
    attacker
        .publish_when_heard(&topic, big.clone(), STEP)
        .await
        .expect("Ana's node never showed up on her inbox topic");
    for i in 1..16u8 {
        let mut m = big.clone();
        // Distinct messages: gossipsub would not send the same one twice.
        *m.last_mut().unwrap() = i;
        let _ = attacker.publish(&topic, m).await;
    }
    play(&a, &b, &honest, 0, &["e4", "e5"]).await;
    let games = a.call(ApiRequest::Games(request::Games {})).await;
    assert_eq!(games["games"].as_array().map(Vec::len), Some(1), "{games}");

    // The same topic carries an ordinary challenge from another peer.
    let courier = RawGossip::dial(a_addr.parse().unwrap()).unwrap();
    courier.subscribe(&topic);
    let small = sobre_node::protocol::encode(&sobre_node::protocol::Gossip {
        game: sheet.game(),
        event: first.to_bytes().unwrap(),
    })
    .unwrap();
    courier
        .publish_when_heard(&topic, small, STEP)
        .await
        .expect("the courier never saw Ana's node on the topic");
    a.wait_for(&sheet.game().to_hex(), "the gossiped challenge", |v| {
        v["status"] == "pending"
    })
    .await;
    let grown = disk_bytes(da.path()).saturating_sub(disk_before);
    assert!(grown < DISK_GROWTH_BOUND, "{grown} bytes written");
    drop((attacker, courier));
    a.stop().await;
    b.stop().await;
}

/// A stranger challenges Ana, then floods the pending game with deliveries whose every
/// signature is bad (two chat lines each, within the chat quota). The first refusal names the bad signature; after
/// `max_strikes` such deliveries the stranger is cut off, nothing of theirs is stored, and
/// Ana's game with Bruno goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_signature_flood_costs_the_sender_its_connection() {
    let (da, _db, a, b, honest) = ana_and_bruno_playing().await;
    let (a_id, a_addr) = a.id_addr().await;
    let a_peer: PeerId = a_id.parse().unwrap();
    let ana: PlayerId = a_id.parse().unwrap();
    let disk_before = disk_bytes(da.path());

    let key = sobre_core::record::Keypair::from_secret_bytes(&[83; 32]);
    let h = actor(sobre_node::home::libp2p_keypair(&key).unwrap()).await;
    h.dial(a_addr.parse().unwrap()).await.unwrap();
    let t0 = now_ms() - 60_000;
    let (mut sheet, first) = challenge_of(&key, ana, t0);
    let game = sheet.game();
    assert!(matches!(
        deliver(&h, a_peer, game, std::slice::from_ref(&first)).await,
        Response::Receipts { .. }
    ));
    // Within every quota (the cheap checks come first), so only signatures can refuse them.
    let forged: Vec<SignedEvent> = (0..2u64)
        .map(|i| {
            let mut e = sheet.chat("spam", t0 + 1 + i).unwrap();
            e.signature[0] ^= 1;
            e
        })
        .collect();
    let mut answered = 0u32;
    let mut first_refusal = None;
    for _ in 0..200 {
        let events = forged.iter().map(|e| e.to_bytes().unwrap()).collect();
        match h.request(a_peer, Request::Deliver { game, events }).await {
            Ok(Response::Refused { reason }) | Err(NetworkError::Refused(reason)) => {
                answered += 1;
                first_refusal.get_or_insert(reason);
            }
            Ok(other) => panic!("a forged delivery was taken: {other:?}"),
            // Cut off: the connection is closed and redials are refused.
            Err(_) => break,
        }
        if !a.connected_to(&h.local_peer_id()).await {
            break;
        }
    }
    let first_refusal = first_refusal.expect("no delivery was answered");
    assert!(first_refusal.contains("bad signature"), "{first_refusal}");
    let max_strikes = NetworkConfig::new(libp2p::identity::Keypair::generate_ed25519()).max_strikes;
    assert!(
        answered <= max_strikes + 1,
        "{answered} forged deliveries were checked"
    );
    // The attacker sees its connection fail as soon as Ana's node closes it; Ana's list of
    // connected peers follows a moment later.
    let deadline = tokio::time::Instant::now() + STEP;
    while a.connected_to(&h.local_peer_id()).await && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    assert!(!a.connected_to(&h.local_peer_id()).await, "never cut off");
    let v = a
        .call(ApiRequest::Show(request::Show {
            game: game.to_hex(),
        }))
        .await;
    assert_eq!(v["chat"].as_array().map(Vec::len), Some(0), "{v}");
    let grown = disk_bytes(da.path()).saturating_sub(disk_before);
    assert!(grown < DISK_GROWTH_BOUND, "{grown} bytes written");
    h.shutdown().await;
    play(&a, &b, &honest, 0, &["e4", "e5"]).await;
    a.stop().await;
    b.stop().await;
}

/// A stranger hands a mailbox node games between fresh keys of its own making, all validly
/// signed: the mailbox takes 100 new games an hour from that peer and refuses the rest; a
/// second peer is not held back by the first one's count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mailbox_takes_a_bounded_number_of_new_games_from_one_peer() {
    let dm = tempfile::tempdir().unwrap();
    let m = TestNode::start_with(dm.path(), |c| c.mailbox = true).await;
    let (m_id, m_addr) = m.id_addr().await;
    let m_peer: PeerId = m_id.parse().unwrap();
    let t0 = now_ms() - 60_000;
    let new_game = |i: u64| {
        let a = sobre_core::record::Keypair::from_secret_bytes(&rand_bytes(i, 1));
        let b = sobre_core::record::Keypair::from_secret_bytes(&rand_bytes(i, 2));
        challenge_of(&a, b.player_id(), t0 + i)
    };
    let h = actor(libp2p::identity::Keypair::generate_ed25519()).await;
    h.dial(m_addr.parse().unwrap()).await.unwrap();
    let mut taken = 0;
    let refusal = loop {
        let (sheet, first) = new_game(taken);
        match deliver(&h, m_peer, sheet.game(), &[first]).await {
            Response::Receipts { .. } => taken += 1,
            Response::Refused { reason } => break reason,
            other => panic!("{other:?}"),
        }
        assert!(taken <= 100, "the mailbox took more than 100 games");
    };
    assert_eq!(taken, 100);
    assert!(refusal.contains("new games an hour"), "{refusal}");
    let games = m.call(ApiRequest::Games(request::Games {})).await;
    assert_eq!(games["games"].as_array().map(Vec::len), Some(100));
    h.shutdown().await;

    let other = actor(libp2p::identity::Keypair::generate_ed25519()).await;
    other.dial(m_addr.parse().unwrap()).await.unwrap();
    let (sheet, first) = new_game(1_000);
    assert!(matches!(
        deliver(&other, m_peer, sheet.game(), &[first]).await,
        Response::Receipts { .. }
    ));
    other.shutdown().await;
    m.stop().await;
}

/// A distinct secret key per (game, player) of the mailbox test.
fn rand_bytes(i: u64, who: u8) -> [u8; 32] {
    let mut b = [who; 32];
    b[..8].copy_from_slice(&i.to_le_bytes());
    b
}
