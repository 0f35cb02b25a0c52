//! The node instance record (`sobre_node::instance`) between real nodes (libp2p over
//! loopback TCP, sled on disk): a stranger cannot stop a player's node, or keep it from
//! starting, with records it makes up; a record of the home's own earlier run (a node that
//! crashed without saying it ended) never counts as a second instance.

use crate::common::net::actor;
use crate::common::{TestNode, not_running};
use sobre_core::record::Keypair;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::instance::Instance;
use sobre_node::network::NetworkError;
use sobre_node::protocol::{Request, Response};
use sobre_node::time::now_ms;
use std::path::Path;

/// The instance ids the home has used, from `HOME/instances` (hex, one a line).
fn own_ids(home: &Path) -> Vec<[u8; 16]> {
    std::fs::read_to_string(home.join("instances"))
        .expect("the home lists its instances")
        .lines()
        .map(|l| {
            let mut id = [0u8; 16];
            for (i, b) in id.iter_mut().enumerate() {
                *b = u8::from_str_radix(&l[2 * i..2 * i + 2], 16).expect("hex");
            }
            id
        })
        .collect()
}

fn record(player: &Keypair, id: [u8; 16], started_ms: u64) -> Instance {
    Instance {
        version: 1,
        player: player.player_id(),
        id,
        started_ms,
        signed_ms: now_ms(),
        ended: false,
        addrs: vec!["/ip4/127.0.0.1/tcp/9".into()],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_cannot_stop_a_players_node_with_instance_records() {
    let dir = tempfile::tempdir().unwrap();
    let peer = TestNode::start(&dir.path().join("peer")).await;
    let (_, peer_addr) = peer.id_addr().await;
    let ana_home = dir.path().join("ana");
    let bootstrap = peer_addr.clone();
    let ana = TestNode::start_with(&ana_home, |c| c.bootstrap = vec![bootstrap]).await;
    let (_, ana_addr) = ana.id_addr().await;
    let ana_key = sobre_node::home::load_key(&ana_home).unwrap();

    // Mallory signs, with her own key, a record naming Ana that started long before Ana's
    // node: Ana's node and her peer both refuse it (and count it against Mallory).
    let mallory_key = Keypair::from_secret_bytes(&rand::random());
    let mallory = actor(sobre_node::home::libp2p_keypair(&mallory_key).unwrap()).await;
    let forged = record(&ana_key, [7; 16], 1).sign(&mallory_key).unwrap();
    for addr in [&peer_addr, &ana_addr] {
        let target = mallory.dial(addr.parse().unwrap()).await.unwrap();
        let answer = mallory
            .request(
                target,
                Request::Instance {
                    record: forged.clone(),
                },
            )
            .await;
        assert!(
            matches!(answer, Err(NetworkError::Refused(_))),
            "{addr}: {answer:?}"
        );
    }
    // Her own record, honestly signed, is kept — and names nobody but her.
    let target = mallory.dial(peer_addr.parse().unwrap()).await.unwrap();
    let own = record(&mallory_key, [8; 16], 1).sign(&mallory_key).unwrap();
    let answer = mallory
        .request(target, Request::Instance { record: own })
        .await
        .unwrap();
    assert_eq!(answer, Response::Instances { records: vec![] });
    // Ana's node runs on and still signs.
    assert!(
        ana.try_call(ApiRequest::Status(request::Status {}))
            .await
            .is_ok()
    );

    // Ana's node stops without a word (as a crash would: the "ended" record never leaves),
    // and its last record — signed by Ana's key, its instance id, live by its time — is at
    // the peer. Her node starts again in the same home: that record is her own, not a
    // second instance.
    ana.stop().await;
    assert!(not_running(&ana_home).await);
    let earlier = *own_ids(&ana_home).last().unwrap();
    let ana_again = actor(sobre_node::home::libp2p_keypair(&ana_key).unwrap()).await;
    let target = ana_again.dial(peer_addr.parse().unwrap()).await.unwrap();
    let replay = record(&ana_key, earlier, now_ms() - 1_000)
        .sign(&ana_key)
        .unwrap();
    let answer = ana_again
        .request(target, Request::Instance { record: replay })
        .await
        .unwrap();
    assert_eq!(answer, Response::Instances { records: vec![] });
    ana_again.shutdown().await;
    let bootstrap = peer_addr.clone();
    let restarted = TestNode::start_with(&ana_home, |c| c.bootstrap = vec![bootstrap]).await;
    assert!(
        restarted
            .try_call(ApiRequest::Status(request::Status {}))
            .await
            .is_ok()
    );
    assert_eq!(own_ids(&ana_home).len(), 2, "each run adds its id");
    restarted.stop().await;
    peer.stop().await;
}
