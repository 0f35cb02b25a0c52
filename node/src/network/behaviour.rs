//! The libp2p side of a node: its protocol names, the [`Behaviour`] that combines every
//! libp2p behaviour it runs, how the swarm and those behaviours are built from a
//! [`NetworkConfig`], and the gossipsub scoring and message ids. Apart from the event loop
//! because it is set up once, at start, and never touches a running swarm.

use std::time::Duration;

use libp2p::gossipsub::{self, MessageId};
use libp2p::identity::Keypair;
use libp2p::kad::{
    self,
    store::{MemoryStore, MemoryStoreConfig},
};
use libp2p::request_response::{self, ProtocolSupport};
use libp2p::swarm::NetworkBehaviour;
use libp2p::swarm::behaviour::toggle::Toggle;
use libp2p::{
    StreamProtocol, Swarm, SwarmBuilder, allow_block_list, autonat, connection_limits, dcutr,
    identify, mdns, noise, ping, relay, tcp, yamux,
};
use sobre_core::record::event::event_id;
use tracing::warn;

use super::codec::SobreCodec;
use super::config::{
    IDLE_CONNECTION_TIMEOUT, MAX_SUBSCRIPTIONS_PER_MESSAGE, MAX_TOPICS_PER_PEER, NetworkConfig,
};
use super::traffic::Traffic;
use super::{NetworkError, contact, limits};
use crate::protocol::{self, DELIVER_PROTOCOL, MAX_MESSAGE_BYTES, SYNC_PROTOCOL};
use libp2p::metrics::Registry;
use std::sync::Arc;

/// The identify protocol version of sobre nodes.
pub const IDENTIFY_PROTOCOL: &str = "/sobre/id/1";
/// The agent string announced through identify.
pub const AGENT_VERSION: &str = "sobre/0.1";
/// The Kademlia protocol of the sobre DHT (separate from the public IPFS DHT).
pub const KAD_PROTOCOL: &str = "/sobre/kad/1";

/// The gossipsub message id of a payload: a hash of the whole payload — the game and the
/// signed event *with its signature* — so a node recognises an event it has already seen
/// whoever republished it (signatures are deterministic and checked strictly, so an event has
/// one valid encoding), while a copy with a forged signature gets an id of its own: rejected,
/// it cannot make the network drop the genuine copy as a duplicate.
pub fn gossip_message_id(data: &[u8]) -> MessageId {
    MessageId::new(&event_id(data).0)
}

/// The largest gossipsub frame a node sends or takes: one [`Gossip`] of the largest legal
/// event ([`protocol::MAX_GOSSIP_BYTES`]) and room for gossipsub's own envelope (author,
/// sequence number, signature, key, topic) and for control messages, which gossipsub sends
/// one per frame (an IHAVE of a topic lists the few messages of the last heartbeats).
/// libp2p's default is 64 KiB; the node used 4 MiB, which let a stranger make it buffer
/// 4 MiB per message.
pub const MAX_GOSSIP_FRAME: u64 = protocol::MAX_GOSSIP_BYTES + 4 * 1024;

/// Contact records a DHT server holds (players' records, at most
/// [`contact::MAX_CONTACT_BYTES`] each: 16 MiB at worst). Past it new keys are refused.
pub const MAX_DHT_RECORDS: usize = 8_192;

/// Reservations a relay holds at once (see `build_behaviour`).
pub const RELAY_MAX_RESERVATIONS: usize = 1_024;
/// Circuits a relay carries at once.
pub const RELAY_MAX_CIRCUITS: usize = 256;

/// How often a node pings each connected peer: once a minute, not libp2p's every 15 s.
/// Nothing reads the round trips and a failed ping closes nothing (libp2p-ping 0.48); the
/// pings only keep NAT mappings of idle TCP connections alive, which a minute does (QUIC
/// keeps its own). At libp2p's 15 s, a mailbox with 256 players connected answered and
/// sent 34 pings a second while idle.
pub const PING_INTERVAL: Duration = Duration::from_secs(60);

#[derive(NetworkBehaviour)]
/// Every libp2p behaviour of a sobre node, in the order the swarm polls them.
pub(super) struct Behaviour {
    // Connection gatekeepers first: they deny before any other behaviour sees the peer.
    pub(super) blocked: allow_block_list::Behaviour<allow_block_list::BlockedPeers>,
    pub(super) limits: connection_limits::Behaviour,
    pub(super) ip_limits: super::ip_limits::Behaviour,
    pub(super) relay_client: relay::client::Behaviour,
    pub(super) relay_server: Toggle<relay::Behaviour>,
    pub(super) identify: identify::Behaviour,
    pub(super) ping: ping::Behaviour,
    pub(super) kad: kad::Behaviour<MemoryStore>,
    pub(super) gossipsub: gossipsub::Behaviour,
    pub(super) deliver: request_response::Behaviour<SobreCodec>,
    pub(super) sync: request_response::Behaviour<SobreCodec>,
    pub(super) stream: libp2p_stream::Behaviour,
    pub(super) mdns: Toggle<mdns::tokio::Behaviour>,
    pub(super) dcutr: dcutr::Behaviour,
    pub(super) autonat: autonat::Behaviour,
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The swarm of a node: TCP (noise, yamux), QUIC, DNS when the system has a resolver
/// configuration, the relay client transport, and [`Behaviour`].
pub(super) fn build_swarm(
    config: &NetworkConfig,
    traffic: &Arc<Traffic>,
    registry: &mut Registry,
) -> Result<Swarm<Behaviour>, NetworkError> {
    let transport_error = |e: &dyn std::fmt::Display| NetworkError::Transport(e.to_string());
    let builder = SwarmBuilder::with_existing_identity(config.keypair.clone())
        .with_tokio()
        .with_tcp(
            tcp::Config::default().nodelay(true),
            noise::Config::new,
            yamux::Config::default,
        )
        .map_err(|e| transport_error(&e))?
        .with_quic();

    // The remaining phases are the same with or without DNS, but the builder's types differ.
    macro_rules! finish {
        ($builder:expr) => {
            $builder
                .with_relay_client(noise::Config::new, yamux::Config::default)
                .map_err(|e| transport_error(&e))?
                .with_bandwidth_metrics(registry)
                .with_behaviour(|key, relay_client| {
                    build_behaviour(key, relay_client, config, traffic)
                })
                .map_err(|e| transport_error(&e))?
                .with_swarm_config(|c| c.with_idle_connection_timeout(IDLE_CONNECTION_TIMEOUT))
                .build()
        };
    }

    // DNS is optional: without a system resolver configuration (/etc/resolv.conf), the node
    // still works with IP addresses. Probing with a unit transport reads the configuration
    // exactly as `with_dns` will.
    let swarm = if libp2p::dns::tokio::Transport::system(()).is_ok() {
        finish!(builder.with_dns().map_err(|e| transport_error(&e))?)
    } else {
        warn!("no system DNS configuration: /dns addresses will not resolve");
        finish!(builder)
    };
    Ok(swarm)
}

fn build_behaviour(
    key: &Keypair,
    relay_client: relay::client::Behaviour,
    config: &NetworkConfig,
    traffic: &Arc<Traffic>,
) -> Result<Behaviour, BoxError> {
    let peer_id = key.public().to_peer_id();
    let identify = identify::Behaviour::new(
        identify::Config::new(IDENTIFY_PROTOCOL.to_string(), key.public())
            .with_agent_version(AGENT_VERSION.to_string())
            // A node whose addresses change while it runs (a new relay reservation, a new
            // interface) tells the peers it is connected to at once, opponents included:
            // they reach it again without a DHT.
            .with_push_listen_addr_updates(true),
    );

    let mut kad_config = kad::Config::new(StreamProtocol::new(KAD_PROTOCOL));
    kad_config.set_query_timeout(config.request_timeout);
    // Every record a peer asks us to store comes to the event loop, which keeps only valid
    // contact records (see `contact` and `event_loop::dht`); provider records are dropped.
    kad_config.set_record_filtering(kad::StoreInserts::FilterBoth);
    // The event loop decides who enters the routing table, when identify says a peer serves
    // the DHT (`event_loop::dht::keeps_in_routing_table`), not kad on every connection.
    kad_config.set_kbucket_inserts(kad::BucketInserts::Manual);
    let store = MemoryStore::with_config(
        peer_id,
        MemoryStoreConfig {
            max_records: MAX_DHT_RECORDS,
            max_value_bytes: contact::MAX_CONTACT_BYTES + 1,
            ..Default::default()
        },
    );
    let mut kad = kad::Behaviour::with_config(peer_id, store, kad_config);
    // A mailbox or a relay serves the DHT from the start; anyone else starts as a client and
    // serves once a direct external address is confirmed (`event_loop::dht`).
    kad.set_mode(Some(if config.dht_server || config.relay_server {
        kad::Mode::Server
    } else {
        kad::Mode::Client
    }));

    let gossip_config = gossipsub::ConfigBuilder::default()
        .validation_mode(gossipsub::ValidationMode::Strict)
        .validate_messages()
        .message_id_fn(|m: &gossipsub::Message| gossip_message_id(&m.data))
        .max_transmit_size(usize::try_from(MAX_GOSSIP_FRAME)?)
        .build()?;
    let mut gossipsub = gossipsub::Behaviour::new_with_subscription_filter(
        gossipsub::MessageAuthenticity::Signed(key.clone()),
        gossip_config,
        gossipsub::MaxCountSubscriptionFilter {
            filter: gossipsub::AllowAllSubscriptionFilter {},
            max_subscribed_topics: MAX_TOPICS_PER_PEER,
            max_subscriptions_per_request: MAX_SUBSCRIPTIONS_PER_MESSAGE,
        },
    )?;
    gossipsub.with_peer_score(
        peer_score_params(),
        gossipsub::PeerScoreThresholds::default(),
    )?;

    let rr_config =
        request_response::Config::default().with_request_timeout(config.request_timeout);
    let codec = SobreCodec {
        traffic: traffic.clone(),
    };
    let deliver = request_response::Behaviour::with_codec(
        codec.clone(),
        [(StreamProtocol::new(DELIVER_PROTOCOL), ProtocolSupport::Full)],
        rr_config.clone(),
    );
    let sync = request_response::Behaviour::with_codec(
        codec,
        [(StreamProtocol::new(SYNC_PROTOCOL), ProtocolSupport::Full)],
        rr_config,
    );

    let mdns = if config.mdns {
        Some(mdns::tokio::Behaviour::new(
            mdns::Config::default(),
            peer_id,
        )?)
    } else {
        None
    };

    let relay_server = config.relay_server.then(|| {
        relay::Behaviour::new(
            peer_id,
            relay::Config {
                // Defaults (2 min, 128 KiB) are sized for hole punching only; a relayed
                // correspondence game may sync a whole scoresheet through the circuit.
                max_circuit_duration: Duration::from_secs(10 * 60),
                max_circuit_bytes: 4 * MAX_MESSAGE_BYTES,
                // libp2p's defaults (128 reservations, 16 circuits) are a public relay's
                // share for strangers; a club's relay holds one reservation per member
                // behind NAT (a federation club: hundreds) and a circuit per pair of them
                // talking now. The per-peer and per-IP rate limits stay libp2p's.
                max_reservations: RELAY_MAX_RESERVATIONS,
                max_circuits: RELAY_MAX_CIRCUITS,
                ..Default::default()
            },
        )
    });

    Ok(Behaviour {
        blocked: allow_block_list::Behaviour::default(),
        limits: connection_limits::Behaviour::new(limits::connection_limits(config.max_peers)),
        ip_limits: super::ip_limits::Behaviour::new(config.max_inbound_per_ip),
        relay_client,
        relay_server: Toggle::from(relay_server),
        identify,
        ping: ping::Behaviour::new(ping::Config::new().with_interval(PING_INTERVAL)),
        kad,
        gossipsub,
        deliver,
        sync,
        stream: libp2p_stream::Behaviour::new(),
        mdns: Toggle::from(mdns),
        dcutr: dcutr::Behaviour::new(peer_id),
        autonat: autonat::Behaviour::new(peer_id, autonat::Config::default()),
    })
}

/// Peer scoring tuned for sobre: few messages per topic (a move a day), so "too few mesh
/// deliveries" (P3/P3b) is normal and not penalised; invalid messages (P4) and application
/// strikes are what lower a score.
///
/// IP colocation (P6) is off. It is an open network's Sybil defence, and in sobre it hit
/// the honest case: a club's players on the club's wifi, or behind a carrier's shared
/// address, reach the organiser from one IP, and past a handful of them every one fell under
/// the graylist, so the league's heads reached none (the Tier 1 benchmark's members learned
/// moves only by the 30 s fallback poll; test `gossip_one_address`). League topics carry only
/// heads the organiser signed (anyone else's are rejected with a strike), and connections per
/// address are bounded by the network layer's own limit (`ip_limits`), so nothing needs it.
fn peer_score_params() -> gossipsub::PeerScoreParams {
    gossipsub::PeerScoreParams {
        app_specific_weight: 10.0,
        ip_colocation_factor_weight: 0.0,
        ..Default::default()
    }
}

/// Scoring of one topic (an inbox, a league): time in mesh and first deliveries count for a peer, invalid
/// messages against it; mesh delivery counts are off (see [`peer_score_params`]).
pub(super) fn topic_score_params() -> gossipsub::TopicScoreParams {
    gossipsub::TopicScoreParams {
        topic_weight: 1.0,
        time_in_mesh_weight: 0.01,
        time_in_mesh_quantum: Duration::from_secs(1),
        time_in_mesh_cap: 100.0,
        first_message_deliveries_weight: 1.0,
        first_message_deliveries_decay: 0.9,
        first_message_deliveries_cap: 20.0,
        mesh_message_deliveries_weight: 0.0,
        mesh_failure_penalty_weight: 0.0,
        invalid_message_deliveries_weight: -10.0,
        invalid_message_deliveries_decay: 0.99,
        ..Default::default()
    }
}
