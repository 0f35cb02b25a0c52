//! Network actors alone (`network::spawn`, no service), for the tests of the network layer.

use std::time::Duration;

use libp2p::Multiaddr;
use libp2p::identity::Keypair;
use libp2p::multiaddr::Protocol;
use sobre_node::network::{self, NetworkConfig, NetworkEvent, NetworkHandle};
use tokio::sync::mpsc;
use tokio::time::timeout;

/// The most any single step may take before the test fails instead of hanging.
pub const STEP: Duration = Duration::from_secs(10);

/// A fresh key listening on loopback TCP, with a 5 s request timeout.
pub fn config() -> NetworkConfig {
    let mut config = NetworkConfig::new(Keypair::generate_ed25519());
    config.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    config.request_timeout = Duration::from_secs(5);
    config
}

pub async fn start(config: NetworkConfig) -> (NetworkHandle, mpsc::Receiver<NetworkEvent>) {
    timeout(STEP, network::spawn(config))
        .await
        .expect("spawn timed out")
        .expect("spawn failed")
}

pub fn is_relayed(addr: &Multiaddr) -> bool {
    addr.iter().any(|p| matches!(p, Protocol::P2pCircuit))
}

/// The node's direct TCP address, ending in `/p2p/<id>`.
pub async fn tcp_addr(node: &NetworkHandle) -> Multiaddr {
    let addrs = node.listen_addrs().await.unwrap();
    let addr = addrs
        .into_iter()
        .find(|a| !is_relayed(a))
        .expect("a direct listen address");
    assert_eq!(
        addr.iter().last(),
        Some(Protocol::P2p(node.local_peer_id()))
    );
    addr
}

/// A network actor under `identity` that serves nobody (its events are drained): an
/// attacker's or a player's key speaking to a node directly, with a 10 s request timeout.
pub async fn actor(identity: Keypair) -> NetworkHandle {
    let mut config = NetworkConfig::new(identity);
    config.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().expect("multiaddr")];
    config.request_timeout = Duration::from_secs(10);
    let (handle, mut events) = timeout(super::STEP, network::spawn(config))
        .await
        .expect("spawn timed out")
        .expect("spawn");
    tokio::spawn(async move { while events.recv().await.is_some() {} });
    handle
}

/// An actor under the key of the player whose home is `home` (its node stopped).
pub async fn actor_of(home: &std::path::Path) -> NetworkHandle {
    let key = sobre_node::home::load_key(home).expect("a key");
    actor(sobre_node::home::libp2p_keypair(&key).expect("an identity")).await
}
