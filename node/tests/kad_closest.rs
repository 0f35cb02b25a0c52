//! The patched libp2p-kad (vendor/libp2p-kad, SOBRE-PATCH.md): its iterator over the peers
//! closest to a key works its buffer in place instead of moving it at every step. What it
//! gives must be what a scan of the whole routing table gives: the same peers, in order of
//! distance, for tables below, at and above a bucket's twenty entries.

use libp2p::identity::Keypair;
use libp2p::kad::{self, K_VALUE, KBucketKey, store::MemoryStore};
use libp2p::{Multiaddr, PeerId, StreamProtocol};

fn table_of(peers: usize) -> (kad::Behaviour<MemoryStore>, Vec<PeerId>) {
    let me = Keypair::generate_ed25519().public().to_peer_id();
    let mut config = kad::Config::new(StreamProtocol::new("/sobre/kad/1"));
    config.set_kbucket_inserts(kad::BucketInserts::Manual);
    let mut kad = kad::Behaviour::with_config(me, MemoryStore::new(me), config);
    kad.set_mode(Some(kad::Mode::Server));
    let addr: Multiaddr = "/ip4/192.0.2.1/tcp/4848".parse().unwrap();
    let mut added = Vec::new();
    for _ in 0..peers {
        let peer = PeerId::random();
        // A full bucket refuses a newcomer: only the ones it took are in the table.
        if matches!(
            kad.add_address(&peer, addr.clone()),
            kad::RoutingUpdate::Success
        ) {
            added.push(peer);
        }
    }
    (kad, added)
}

#[test]
fn the_closest_peers_are_those_a_scan_of_the_table_finds_in_order() {
    for peers in [0, 1, 5, 19, 20, 21, 60, 300] {
        let (mut kad, added) = table_of(peers);
        for _ in 0..20 {
            let target = KBucketKey::from(PeerId::random());
            // Whoever asks is never told about itself.
            let source = added.first().copied().unwrap_or_else(PeerId::random);
            let found: Vec<PeerId> = kad
                .find_closest_local_peers(&target, &source)
                .map(|p| p.node_id)
                .collect();
            let mut scan: Vec<PeerId> = added.iter().copied().filter(|p| *p != source).collect();
            scan.sort_by_key(|p| target.distance(&KBucketKey::from(*p)));
            scan.truncate(K_VALUE.get());
            assert_eq!(found, scan, "{peers} peers in the table");
        }
    }
}
