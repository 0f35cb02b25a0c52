//! Issue 30's connection policy over real libp2p on loopback TCP: idle connections closed,
//! the least recently used evicted above a cap, and a mailbox's players allowed a reserved
//! peer's request rate without reserved room (see `network::activity`, docs/security.md).

use crate::common::net::{STEP, config, start, tcp_addr};
use crate::network::{drain, events_response, serve, sync_request};
use libp2p::PeerId;
use libp2p::identity::Keypair;
use sobre_node::network::{self, NetworkError};
use std::time::Duration;

/// Whether `node` lists `peer` among its connected peers.
async fn connected(node: &network::NetworkHandle, peer: PeerId) -> bool {
    node.connected_peers()
        .await
        .unwrap()
        .iter()
        .any(|(p, _)| *p == peer)
}

/// Polls (bounded) until `node` lists `peer`.
async fn wait_connected(node: &network::NetworkHandle, peer: PeerId, what: &str) {
    let deadline = tokio::time::Instant::now() + STEP;
    while !connected(node, peer).await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what} never connected"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Polls (bounded) until `node` no longer lists `peer`.
async fn wait_disconnected(node: &network::NetworkHandle, peer: PeerId, what: &str) {
    let deadline = tokio::time::Instant::now() + STEP;
    while connected(node, peer).await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what} stayed connected"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Issue 30, "idle connections closed": a stranger that exchanges nothing is disconnected
/// after the idle period, while a reserved peer (an opponent) and a bootstrap peer, idle as
/// long, stay connected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_strangers_connection_is_closed_but_reserved_and_bootstrap_peers_stay() {
    let club = crate::common::net::actor(Keypair::generate_ed25519()).await;
    let mut cfg = config();
    cfg.idle_timeout = Duration::from_secs(1);
    cfg.bootstrap = vec![tcp_addr(&club).await];
    let (node, events) = start(cfg).await;
    tokio::spawn(drain(events));
    let addr = tcp_addr(&node).await;
    let opponent = crate::common::net::actor(Keypair::generate_ed25519()).await;
    node.reserve(vec![opponent.local_peer_id()]).await.unwrap();
    opponent.dial(addr.clone()).await.unwrap();
    let deadline = tokio::time::Instant::now() + STEP;
    while !connected(&node, club.local_peer_id()).await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "bootstrap never reached"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }

    let stranger = crate::common::net::actor(Keypair::generate_ed25519()).await;
    stranger.dial(addr.clone()).await.unwrap();
    wait_connected(&node, stranger.local_peer_id(), "the stranger").await;
    wait_disconnected(&node, stranger.local_peer_id(), "the idle stranger").await;
    // A second stranger, idle out too: the opponent and the bootstrap peer have now been
    // idle for longer than two idle periods, and would have gone first.
    let another = crate::common::net::actor(Keypair::generate_ed25519()).await;
    another.dial(addr).await.unwrap();
    wait_connected(&node, another.local_peer_id(), "the second stranger").await;
    wait_disconnected(&node, another.local_peer_id(), "the second stranger").await;
    assert!(
        connected(&node, opponent.local_peer_id()).await,
        "the opponent was cut"
    );
    assert!(
        connected(&node, club.local_peer_id()).await,
        "the bootstrap peer was cut"
    );
    for h in [club, opponent, stranger, another, node] {
        h.shutdown().await;
    }
}

/// Issue 30, "least-recently-used eviction above a cap": with three peers connected at a cap
/// of three, a fourth gets in and the peer that has been quiet longest is disconnected —
/// not the first to connect, which has since sent a request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn above_the_cap_the_least_recently_used_peer_makes_room_for_a_new_one() {
    let mut cfg = config();
    cfg.max_peers = 3;
    let (node, events) = start(cfg).await;
    let mut served = serve(events);
    let addr = tcp_addr(&node).await;
    let mut peers = Vec::new();
    for i in 0..3 {
        let p = crate::common::net::actor(Keypair::generate_ed25519()).await;
        p.dial(addr.clone()).await.unwrap();
        wait_connected(&node, p.local_peer_id(), &format!("peer {i}")).await;
        peers.push(p);
    }
    // The first to connect is the latest active.
    let answer = peers[0]
        .request(node.local_peer_id(), sync_request())
        .await
        .unwrap();
    assert_eq!(answer, events_response());
    assert!(served.requests.recv().await.is_some());

    let newcomer = crate::common::net::actor(Keypair::generate_ed25519()).await;
    newcomer.dial(addr).await.unwrap();
    wait_disconnected(
        &node,
        peers[1].local_peer_id(),
        "the least recently used peer",
    )
    .await;
    for p in [&peers[0], &peers[2], &newcomer] {
        assert!(
            connected(&node, p.local_peer_id()).await,
            "{} was cut",
            p.local_peer_id()
        );
    }
    for h in peers.into_iter().chain([newcomer, node]) {
        h.shutdown().await;
    }
}

/// A peer allowed a reserved peer's request rate without reserved room (a mailbox's
/// player, see `service::access`) sends past the plain limit; a stranger does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_with_a_raised_rate_limit_sends_past_the_plain_limit() {
    let mut b_config = config();
    b_config.max_requests_per_peer_per_minute = 2;
    let (b, b_events) = start(b_config).await;
    let _b_served = serve(b_events);
    let addr = tcp_addr(&b).await;
    let (player, _p_events) = start(config()).await;
    let (stranger, _s_events) = start(config()).await;
    b.raise_rate_limit(vec![player.local_peer_id()])
        .await
        .unwrap();
    player.dial(addr.clone()).await.unwrap();
    stranger.dial(addr).await.unwrap();
    for i in 0..5 {
        let answer = player.request(b.local_peer_id(), sync_request()).await;
        assert_eq!(answer.unwrap(), events_response(), "request {i}");
    }
    for _ in 0..2 {
        stranger
            .request(b.local_peer_id(), sync_request())
            .await
            .unwrap();
    }
    match stranger.request(b.local_peer_id(), sync_request()).await {
        Err(NetworkError::Refused(reason)) => assert_eq!(reason, "rate limit"),
        other => panic!("expected a rate-limit refusal, got {other:?}"),
    }
    for h in [player, stranger, b] {
        h.shutdown().await;
    }
}

/// Issue 30, the reconnect storm: a node starting dials its mailbox from its configuration
/// and again as a remembered peer, at once. Dials to a peer already being dialed wait for
/// that dial instead of opening a second connection (each costs both ends a handshake and
/// every protocol's streams), and every one of them is answered with the peer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dials_to_a_peer_being_dialed_share_one_connection() {
    let mailbox = crate::common::net::actor(Keypair::generate_ed25519()).await;
    let addr = tcp_addr(&mailbox).await;
    let (node, events) = start(config()).await;
    tokio::spawn(drain(events));
    let (a, b, c) = tokio::join!(
        node.dial(addr.clone()),
        node.dial(addr.clone()),
        node.dial(addr.clone())
    );
    for answer in [a, b, c] {
        assert_eq!(answer.unwrap(), mailbox.local_peer_id());
    }
    wait_connected(&mailbox, node.local_peer_id(), "the dialing node").await;
    // Either side would list a second connection as a second address.
    for (side, peer) in [
        (&node, mailbox.local_peer_id()),
        (&mailbox, node.local_peer_id()),
    ] {
        let peers = side.connected_peers().await.unwrap();
        let conns = peers
            .iter()
            .find(|(p, _)| *p == peer)
            .map(|(_, addrs)| addrs.len());
        assert_eq!(conns, Some(1), "connections listed: {peers:?}");
    }
}
