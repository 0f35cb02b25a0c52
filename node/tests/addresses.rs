//! Addresses learned without a DHT: a peer's listen addresses reach the service when it
//! connects (identify), and again when they change while connected (identify push).

use crate::common::net::{STEP, config, is_relayed, start, tcp_addr};
use libp2p::identity::Keypair;
use libp2p::multiaddr::Protocol;
use libp2p::{Multiaddr, PeerId};
use sobre_node::network::NetworkEvent;
use tokio::sync::mpsc;
use tokio::time::timeout;

/// The next addresses `peer` announces on `events` that satisfy `pick`.
async fn addresses_of(
    events: &mut mpsc::Receiver<NetworkEvent>,
    peer: PeerId,
    pick: impl Fn(&[Multiaddr]) -> bool,
) -> Vec<Multiaddr> {
    timeout(STEP, async {
        loop {
            match events.recv().await.expect("event stream ended") {
                NetworkEvent::PeerAddresses { peer: p, addrs } if p == peer && pick(&addrs) => {
                    return addrs;
                }
                _ => {}
            }
        }
    })
    .await
    .expect("the addresses never came")
}

/// B connects to A, then gains an address (a relay reservation that only succeeds once the
/// relay comes up, after the connection): A hears the new address over the same
/// connection, pushed, long before identify's periodic round (minutes). (Here the push
/// comes with the relay protocol B starts to speak; a plain new listen address is pushed by
/// identify's `push_listen_addr_updates`, see `network::behaviour`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_address_is_pushed_to_connected_peers() {
    // The relay's key and port are fixed before it runs, so B can be told of it and fail.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let r_key = Keypair::generate_ed25519();
    let r_id = r_key.public().to_peer_id();
    let r_addr: Multiaddr = format!("/ip4/127.0.0.1/tcp/{port}/p2p/{r_id}")
        .parse()
        .unwrap();

    let (a, mut a_events) = start(config()).await;
    let mut b_config = config();
    b_config.relays = vec![r_addr.clone()];
    let (b, _b_events) = start(b_config).await;
    let b_id = b.local_peer_id();
    b.dial(tcp_addr(&a).await).await.unwrap();
    let first = addresses_of(&mut a_events, b_id, |_| true).await;
    assert!(!first.iter().any(is_relayed), "{first:?}");
    assert!(
        first
            .iter()
            .all(|a| !matches!(a.iter().last(), Some(Protocol::P2p(_)))),
        "addresses come without /p2p: {first:?}"
    );

    // The relay comes up; B's next reservation attempt (a few seconds) succeeds.
    let mut r_config = config();
    r_config.keypair = r_key;
    r_config.relay_server = true;
    r_config.listen = vec![format!("/ip4/127.0.0.1/tcp/{port}").parse().unwrap()];
    let (r, _r_events) = start(r_config).await;
    let pushed = addresses_of(&mut a_events, b_id, |addrs| addrs.iter().any(is_relayed)).await;
    assert!(
        pushed
            .iter()
            .any(|x| x.iter().any(|p| p == Protocol::P2p(r_id))),
        "{pushed:?}"
    );
    r.shutdown().await;
    b.shutdown().await;
    a.shutdown().await;
}
