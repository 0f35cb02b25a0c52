//! A node's gossip topics do not grow with the games it holds (issue 30, Tier 0): games have
//! no topic, so a node holding 10,000 games is still seen by a newly connected peer (with a
//! topic per game, gossipsub 0.50 refused the whole hello past about 188 topics and the node
//! vanished from gossip), and what the peer sees names none of those games.

use crate::common::TestNode;
use crate::common::gossip::RawGossip;
use sobre_core::Position;
use sobre_core::record::{Keypair, SignedEvent};
use sobre_core::test_support::{GameBuilder, Lines};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::store::Store;
use std::time::Duration;

const GAMES: usize = 10_000;

fn key(i: u64) -> Keypair {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&i.to_le_bytes());
    s[31] = 0x30;
    Keypair::from_secret_bytes(&s)
}

/// `GAMES` games between other players (two plies each), as a club mailbox holds them.
fn others_games() -> Vec<Vec<SignedEvent>> {
    (0..GAMES as u64)
        .map(|i| {
            let line = Lines::new(i + 1).endless().line(&Position::new(), 2);
            GameBuilder::new(key(2 * (i % 50)), key(2 * (i % 50) + 1))
                .at(1_700_000_000_000 + i * 1_000)
                .sign(&line)
                .expect("a legal line signs")
                .events
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_holding_ten_thousand_games_is_seen_on_gossip_and_names_none_of_them() {
    let dir = tempfile::tempdir().unwrap();
    sobre_node::home::init_key(dir.path()).expect("key");
    let games = others_games();
    let ids: Vec<String> = games.iter().map(|g| g[0].id().to_string()).collect();
    {
        let store = Store::open(&sobre_node::home::db_path(dir.path())).expect("store");
        for g in &games {
            for e in g {
                store.insert_event(&g[0].id(), e).expect("stored");
            }
        }
        store.flush().await.expect("flushed");
    }
    let node = TestNode::start_with(dir.path(), |c| c.mailbox = true).await;
    let status = node.call(ApiRequest::Status(request::Status {})).await;
    assert_eq!(
        status["games"].as_u64(),
        Some(GAMES as u64),
        "the node holds every preloaded game: {status}"
    );
    let (id, addr) = node.id_addr().await;
    let node_peer: libp2p::PeerId = id.parse().expect("a peer id");

    let stranger = RawGossip::dial(addr.parse().expect("an address")).expect("dialled");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let topics = loop {
        let topics = stranger.topics_of(node_peer).await;
        if !topics.is_empty() {
            break topics;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the stranger never heard the node's subscriptions: it is invisible on gossip"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        topics.len() <= 101,
        "a node's topics are its inbox and at most 100 leagues, not its games: {}",
        topics.len()
    );
    assert!(
        topics.iter().any(|t| t == &format!("sobre/inbox/1/{id}")),
        "the node's own inbox is seen: {topics:?}"
    );
    for t in &topics {
        assert!(
            !ids.iter().any(|g| t.contains(g.as_str())),
            "a topic names a game the stranger is not in: {t}"
        );
    }
}
