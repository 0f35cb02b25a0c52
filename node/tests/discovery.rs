//! Discovery by id across clubs (the DHT): players of different clubs who never met find
//! each other by id alone through their clubs' mailboxes, which serve the DHT and hold the
//! players' signed contact records; a player who moved is found again; forged records are
//! refused; a player behind NAT stays a DHT client, out of everyone's routing table.

use std::time::Duration;

use crate::common::net::{config, start, tcp_addr};
use crate::common::{TestNode, start_game};
use futures::StreamExt;
use libp2p::kad::{self, Quorum, Record, store::MemoryStore};
use libp2p::multiaddr::Protocol;
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, StreamProtocol, SwarmBuilder, noise, tcp, yamux};
use sobre_core::record::EventId;
use sobre_node::network::contact::{self, Contact, MAX_CONTACT_BYTES};
use sobre_node::network::{KAD_PROTOCOL, NetworkEvent, NetworkHandle};
use sobre_node::protocol::{Request, Response};
use tokio::time::{Instant, timeout};

/// The longest a network-level wait may take.
const STEP: Duration = crate::common::net::STEP;

fn sync_request() -> Request {
    Request::Sync {
        game: EventId([7; 32]),
        have: Vec::new(),
    }
}

/// Answers every inbound request with an empty `Events`, as a player's service would.
fn answer_requests(mut events: tokio::sync::mpsc::Receiver<sobre_node::network::NetworkEvent>) {
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            if let sobre_node::network::NetworkEvent::InboundRequest { reply, .. } = event {
                let _ = reply.send(Response::Events { events: Vec::new() });
            }
        }
    });
}

/// Polls `reader` until the contact record of `player` it finds satisfies `pick`.
async fn contact_until(
    reader: &NetworkHandle,
    player: PeerId,
    pick: impl Fn(&Contact) -> bool,
) -> Contact {
    let deadline = Instant::now() + STEP;
    loop {
        if let Ok(Some(found)) = reader.contact(player).await
            && pick(&found)
        {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "no contact record of {player} as expected"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn port_of(addr: &Multiaddr) -> Option<u16> {
    addr.iter().find_map(|p| match p {
        Protocol::Tcp(port) => Some(port),
        _ => None,
    })
}

/// (a) Three clubs, each a mailbox (a DHT server) bootstrapped to the one before. A player
/// of club 1 and a player of club 3, who share no club and never met, start a game by id
/// alone: the challenge and the acceptance find their way through the contact records.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_of_different_clubs_find_each_other_by_id() {
    let dir = tempfile::tempdir().unwrap();
    let mut clubs: Vec<TestNode> = Vec::new();
    let mut club_addrs: Vec<String> = Vec::new();
    for i in 0..3 {
        let bootstrap = club_addrs.last().cloned().into_iter().collect();
        let club = TestNode::start_with(&dir.path().join(format!("club{i}")), |c| {
            c.mailbox = true;
            c.bootstrap = bootstrap;
        })
        .await;
        let (_, addrs) = club.id().await;
        club_addrs.push(crate::common::tcp_addr(&addrs));
        clubs.push(club);
    }
    let first = TestNode::start_with(&dir.path().join("first"), |c| {
        c.mailboxes = vec![club_addrs[0].clone()];
    })
    .await;
    let third = TestNode::start_with(&dir.path().join("third"), |c| {
        c.mailboxes = vec![club_addrs[2].clone()];
    })
    .await;

    let game = start_game(&first, &third).await;
    let (first_id, _) = first.id().await;
    let v = third
        .wait_for(&game, "the game", |v| v["status"] == "active")
        .await;
    assert!(v.to_string().contains(&first_id), "{v}");

    first.stop().await;
    third.stop().await;
    for club in clubs {
        club.stop().await;
    }
}

/// A challenge to a stranger who is offline goes to the mailbox named in their contact
/// record; the challenger stops; the stranger starts and finds it there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_to_an_offline_stranger_waits_at_their_mailbox() {
    let dir = tempfile::tempdir().unwrap();
    let club1 = TestNode::start_with(&dir.path().join("club1"), |c| c.mailbox = true).await;
    let (_, addrs) = club1.id().await;
    let club1_addr = crate::common::tcp_addr(&addrs);
    let club3 = TestNode::start_with(&dir.path().join("club3"), |c| {
        c.mailbox = true;
        c.bootstrap = vec![club1_addr.clone()];
    })
    .await;
    let (_, addrs) = club3.id().await;
    let club3_addr = crate::common::tcp_addr(&addrs);
    let with_club3 = |c: &mut sobre_node::service::NodeConfig| {
        c.mailboxes = vec![club3_addr.clone()];
    };
    let third_home = dir.path().join("third");
    let third = TestNode::start_with(&third_home, with_club3).await;
    let (third_id, _) = third.id().await;
    // Its record (with its mailbox) reaches the DHT at start; then it goes offline.
    let mut reader_config = config();
    reader_config.bootstrap = vec![club1_addr.parse().unwrap()];
    let (reader, _r_events) = start(reader_config).await;
    let third_peer: PeerId = third_id.parse().unwrap();
    contact_until(&reader, third_peer, |r| !r.mailboxes().is_empty()).await;
    reader.shutdown().await;
    third.stop().await;

    let first = TestNode::start_with(&dir.path().join("first"), |c| {
        c.mailboxes = vec![club1_addr.clone()];
    })
    .await;
    let ch = first
        .call(sobre_node::api::ApiRequest::Challenge(
            sobre_node::api::request::Challenge {
                opponent: third_id,
                color: sobre_core::record::ColourChoice::ChallengerWhite,
                time_control: "30d".into(),
                chess960: false,
                fen: None,
                terms: Default::default(),
            },
        ))
        .await;
    let game = ch["game"].as_str().expect("game id").to_owned();
    club3
        .wait_for(&game, "the challenge at club 3", |v| {
            v["status"] == "pending"
        })
        .await;
    first.stop().await;

    let third = TestNode::start_with(&third_home, with_club3).await;
    third
        .wait_for(&game, "the challenge", |v| v["status"] == "pending")
        .await;

    third.stop().await;
    club1.stop().await;
    club3.stop().await;
}

/// (b) A player restarts on another port: the addresses others knew are stale. A request
/// to them fails to dial, looks their contact record up, and reaches them at the new
/// address — with no help from the player (who does not contact the requester).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_moved_is_reached_again_by_id() {
    let mut mailbox_config = config();
    mailbox_config.dht_server = true;
    let (mailbox, _m_events) = start(mailbox_config).await;
    let mailbox_addr = tcp_addr(&mailbox).await;

    let mut c_config = config();
    c_config.bootstrap = vec![mailbox_addr.clone()];
    let c_key = c_config.keypair.clone();
    let (c, c_events) = start(c_config).await;
    answer_requests(c_events);
    let c_id = c.local_peer_id();
    let old_port = port_of(&tcp_addr(&c).await);
    contact_until(&mailbox, c_id, |r| !r.addrs().is_empty()).await;

    let mut a_config = config();
    a_config.bootstrap = vec![mailbox_addr.clone()];
    let (a, _a_events) = start(a_config).await;
    a.request(c_id, sync_request()).await.unwrap();

    // C moves: same key, another port. It publishes a newer record at start.
    c.shutdown().await;
    let mut c_config = config();
    c_config.keypair = c_key;
    c_config.bootstrap = vec![mailbox_addr];
    let (c, c_events) = start(c_config).await;
    answer_requests(c_events);
    let new_port = port_of(&tcp_addr(&c).await);
    assert_ne!(old_port, new_port);
    contact_until(&mailbox, c_id, |r| {
        r.addrs().iter().any(|a| port_of(a) == new_port)
    })
    .await;

    let answer = a.request(c_id, sync_request()).await;
    assert!(
        matches!(answer, Ok(Response::Events { ref events }) if events.is_empty()),
        "{answer:?}"
    );

    a.shutdown().await;
    c.shutdown().await;
    mailbox.shutdown().await;
}

/// A bare Kademlia node (no sobre validation): a stranger speaking the DHT protocol.
type Stranger = libp2p::Swarm<kad::Behaviour<MemoryStore>>;

fn stranger() -> Stranger {
    SwarmBuilder::with_new_identity()
        .with_tokio()
        .with_tcp(
            tcp::Config::default(),
            noise::Config::new,
            yamux::Config::default,
        )
        .unwrap()
        .with_behaviour(|key| {
            let me = key.public().to_peer_id();
            let mut behaviour = kad::Behaviour::with_config(
                me,
                MemoryStore::new(me),
                kad::Config::new(StreamProtocol::new(KAD_PROTOCOL)),
            );
            behaviour.set_mode(Some(kad::Mode::Client));
            behaviour
        })
        .unwrap()
        .build()
}

/// Has the stranger store `value` under `key` at `server` and waits for the answer.
async fn put_at(swarm: &mut Stranger, server: PeerId, key: kad::RecordKey, value: Vec<u8>) {
    let query = swarm.behaviour_mut().put_record_to(
        Record::new(key, value),
        std::iter::once(server),
        Quorum::One,
    );
    timeout(STEP, async {
        loop {
            if let SwarmEvent::Behaviour(kad::Event::OutboundQueryProgressed { id, .. }) =
                swarm.select_next_some().await
                && id == query
            {
                return;
            }
        }
    })
    .await
    .expect("the server never answered the put");
}

/// (c) A stranger tries to replace a player's contact record at a DHT server: with one
/// signed by another key, an older one of the player's, an oversized blob. The server keeps
/// the player's genuine record; a newer record the player signed replaces it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_contact_records_are_refused_by_the_servers() {
    let mut server_config = config();
    server_config.dht_server = true;
    let (server, _s_events) = start(server_config).await;
    let server_addr = tcp_addr(&server).await;
    let server_id = server.local_peer_id();

    let mut v_config = config();
    v_config.bootstrap = vec![server_addr.clone()];
    let v_key = v_config.keypair.clone();
    let (victim, _v_events) = start(v_config).await;
    let v_id = victim.local_peer_id();
    let genuine = contact_until(&server, v_id, |r| !r.addrs().is_empty()).await;
    let key = contact::key(&v_id);
    let lure: Multiaddr = "/ip4/203.0.113.66/tcp/6666".parse().unwrap();

    let mut swarm = stranger();
    swarm
        .behaviour_mut()
        .add_address(&server_id, server_addr.clone());

    // Signed by the stranger's own key, stored under the victim's.
    let other = libp2p::identity::Keypair::generate_ed25519();
    let forged = Contact::new(
        other.public().to_peer_id(),
        genuine.seq() + 1_000,
        vec![lure.clone()],
        Vec::new(),
        Vec::new(),
    );
    put_at(
        &mut swarm,
        server_id,
        key.clone(),
        forged.sign(&other).unwrap(),
    )
    .await;
    // The victim's own, older record (a replay).
    let older = Contact::new(
        v_id,
        genuine.seq() - 1,
        vec![lure.clone()],
        Vec::new(),
        Vec::new(),
    );
    put_at(
        &mut swarm,
        server_id,
        key.clone(),
        older.sign(&v_key).unwrap(),
    )
    .await;
    // Too big to be a contact record.
    put_at(
        &mut swarm,
        server_id,
        key.clone(),
        vec![1; MAX_CONTACT_BYTES + 1],
    )
    .await;

    let held = server.contact(v_id).await.unwrap();
    assert_eq!(
        held.as_ref(),
        Some(&genuine),
        "the server replaced the record"
    );

    // The same path takes a newer record of the player's: the refusals above were checks.
    let newer = Contact::new(
        v_id,
        genuine.seq() + 1,
        vec![lure.clone()],
        Vec::new(),
        Vec::new(),
    );
    put_at(&mut swarm, server_id, key, newer.sign(&v_key).unwrap()).await;
    let held = contact_until(&server, v_id, |r| r.seq() == genuine.seq() + 1).await;
    assert_eq!(held.addrs(), [lure]);

    victim.shutdown().await;
    server.shutdown().await;
}

/// (d) A player whose addresses nobody confirmed (behind NAT) is a DHT client: servers do
/// not put it in their routing tables, where every lookup would hand out an address nobody
/// can dial. A server joining is put there: the table is filled, just not with clients.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_behind_nat_stays_out_of_routing_tables() {
    let mut s_config = config();
    s_config.dht_server = true;
    let (server, _s_events) = start(s_config).await;
    let server_addr = tcp_addr(&server).await;

    let mut p_config = config();
    p_config.bootstrap = vec![server_addr.clone()];
    let (player, _p_events) = start(p_config).await;
    let mut t_config = config();
    t_config.dht_server = true;
    t_config.bootstrap = vec![server_addr];
    let (other_server, _t_events) = start(t_config).await;

    // Both have talked to the server (the player's record is there) before we look.
    contact_until(&server, player.local_peer_id(), |_| true).await;
    contact_until(&server, other_server.local_peer_id(), |_| true).await;
    let status = player.dht_status().await.unwrap();
    assert!(!status.server, "the player serves the DHT");
    let table = server.dht_status().await.unwrap().routing;
    assert!(table.contains(&other_server.local_peer_id()), "{table:?}");
    assert!(!table.contains(&player.local_peer_id()), "{table:?}");

    player.shutdown().await;
    other_server.shutdown().await;
    server.shutdown().await;
}

/// A player's node (a DHT client) keeps its bootstrap peers in its routing table, not every
/// server its own queries connect to: each server added to a table of fewer than twenty
/// peers started another bootstrap of the DHT, about ten Kademlia requests at every mailbox
/// for each node starting. Its lookups still reach the servers it does not keep.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_keeps_its_bootstrap_peers_not_every_server_it_meets() {
    let mut a_config = config();
    a_config.dht_server = true;
    let (a, _a_events) = start(a_config).await;
    let a_addr = tcp_addr(&a).await;
    let mut servers = Vec::new();
    for _ in 0..2 {
        let mut c = config();
        c.dht_server = true;
        c.bootstrap = vec![a_addr.clone()];
        servers.push(start(c).await);
    }
    let ids: Vec<PeerId> = servers.iter().map(|(s, _)| s.local_peer_id()).collect();
    // The first server knows both others before the player starts, and hands them out.
    let deadline = Instant::now() + STEP;
    while !a
        .dht_status()
        .await
        .is_ok_and(|s| ids.iter().all(|id| s.routing.contains(id)))
    {
        assert!(Instant::now() < deadline, "the servers never met");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let mut p_config = config();
    p_config.bootstrap = vec![a_addr];
    let (player, mut p_events) = start(p_config).await;
    // Its bootstrap and its contact record connect it to both others, and identify tells it
    // they serve the DHT (the same step that decides about its routing table).
    let mut met = std::collections::HashSet::new();
    timeout(STEP, async {
        while met.len() < ids.len() {
            match p_events.recv().await {
                Some(NetworkEvent::PeerAddresses { peer, .. }) if ids.contains(&peer) => {
                    met.insert(peer);
                }
                Some(_) => {}
                None => panic!("the player's network stopped"),
            }
        }
    })
    .await
    .expect("the player never met the other servers");
    let status = player.dht_status().await.unwrap();
    assert!(!status.server, "the player serves the DHT");
    assert_eq!(status.routing, vec![a.local_peer_id()]);
    answer_requests(p_events);
    let found = player.find_peer(ids[1]).await.unwrap();
    assert!(
        !found.is_empty(),
        "a server outside the table is still found"
    );

    player.shutdown().await;
    for (s, _) in servers {
        s.shutdown().await;
    }
    a.shutdown().await;
}

/// A hostile DHT server: identify (so the node hears it serves `/sobre/kad/1`) and a
/// Kademlia in server mode that would answer every lookup as it likes.
#[derive(libp2p::swarm::NetworkBehaviour)]
struct HostileServer {
    identify: libp2p::identify::Behaviour,
    kad: kad::Behaviour<MemoryStore>,
}

/// A stranger running a DHT server dials a player's node to become where its lookups start
/// (to answer them as it likes: an eclipse). Before, identify put every server that said it
/// serves the DHT into the table; a client now keeps its bootstrap peers only, and the
/// stranger stays out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_serving_the_dht_cannot_enter_a_clients_routing_table() {
    let mut s_config = config();
    s_config.dht_server = true;
    let (server, _s_events) = start(s_config).await;
    let server_addr = tcp_addr(&server).await;
    let mut p_config = config();
    p_config.bootstrap = vec![server_addr];
    let (player, mut p_events) = start(p_config).await;
    let player_addr = tcp_addr(&player).await;
    let deadline = Instant::now() + STEP;
    while !player
        .dht_status()
        .await
        .is_ok_and(|s| s.routing.contains(&server.local_peer_id()))
    {
        assert!(
            Instant::now() < deadline,
            "the bootstrap peer never entered"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let mut hostile = SwarmBuilder::with_new_identity()
        .with_tokio()
        .with_tcp(
            tcp::Config::default(),
            noise::Config::new,
            yamux::Config::default,
        )
        .unwrap()
        .with_behaviour(|key| {
            let me = key.public().to_peer_id();
            let mut kad = kad::Behaviour::with_config(
                me,
                MemoryStore::new(me),
                kad::Config::new(StreamProtocol::new(KAD_PROTOCOL)),
            );
            kad.set_mode(Some(kad::Mode::Server));
            HostileServer {
                identify: libp2p::identify::Behaviour::new(libp2p::identify::Config::new(
                    sobre_node::network::IDENTIFY_PROTOCOL.into(),
                    key.public(),
                )),
                kad,
            }
        })
        .unwrap()
        .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(60)))
        .build();
    hostile
        .listen_on("/ip4/127.0.0.1/tcp/0".parse().unwrap())
        .unwrap();
    let hostile_id = *hostile.local_peer_id();
    hostile.dial(player_addr).unwrap();
    tokio::spawn(async move {
        loop {
            hostile.select_next_some().await;
        }
    });
    // The player has read the stranger's identify (its addresses come with the same step
    // that decides about the routing table).
    timeout(STEP, async {
        loop {
            match p_events.recv().await {
                Some(NetworkEvent::PeerAddresses { peer, .. }) if peer == hostile_id => return,
                Some(_) => {}
                None => panic!("the player's network stopped"),
            }
        }
    })
    .await
    .expect("the player never identified the stranger");
    let table = player.dht_status().await.unwrap().routing;
    assert!(!table.contains(&hostile_id), "{table:?}");
    assert!(table.contains(&server.local_peer_id()), "{table:?}");

    player.shutdown().await;
    server.shutdown().await;
}
