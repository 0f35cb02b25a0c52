//! A raw gossipsub peer: libp2p's own gossipsub over TCP, with nothing of sobre's network
//! layer, so it can publish what sobre's own actor never would — messages far larger than
//! the largest legal event. Used by `node/tests/abuse.rs` and by the node benchmark's attack
//! phase (`node/benches/node_bench/attack.rs`, which includes this file by path).
#![allow(dead_code)]

use futures::StreamExt;
use libp2p::gossipsub::{self, IdentTopic, MessageAuthenticity, ValidationMode};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, Swarm};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// What the attacker's gossipsub accepts to send: far above the node's
/// `network::MAX_GOSSIP_FRAME` (about 20 KiB).
pub const ATTACKER_MAX_TRANSMIT: usize = 4 << 20;

enum Command {
    Publish {
        topic: String,
        data: Vec<u8>,
        done: oneshot::Sender<Result<(), String>>,
    },
    Subscribe(String),
    /// The topics each connected peer is subscribed to, as this peer has heard them.
    Topics(oneshot::Sender<Vec<(PeerId, Vec<String>)>>),
}

/// A raw gossipsub peer running on its own task until dropped.
pub struct RawGossip {
    pub peer: PeerId,
    commands: mpsc::UnboundedSender<Command>,
    task: tokio::task::JoinHandle<()>,
}

impl RawGossip {
    /// A fresh key dialling `target`.
    pub fn dial(target: Multiaddr) -> Result<RawGossip, Box<dyn std::error::Error + Send + Sync>> {
        RawGossip::dial_as(libp2p::identity::Keypair::generate_ed25519(), target)
    }

    /// `key` (a player's, to sign as them) dialling `target`.
    pub fn dial_as(
        key: libp2p::identity::Keypair,
        target: Multiaddr,
    ) -> Result<RawGossip, Box<dyn std::error::Error + Send + Sync>> {
        let config = gossipsub::ConfigBuilder::default()
            .validation_mode(ValidationMode::Strict)
            .max_transmit_size(ATTACKER_MAX_TRANSMIT)
            .build()?;
        let behaviour =
            gossipsub::Behaviour::new(MessageAuthenticity::Signed(key.clone()), config)?;
        let mut swarm = libp2p::SwarmBuilder::with_existing_identity(key)
            .with_tokio()
            .with_tcp(
                libp2p::tcp::Config::default().nodelay(true),
                libp2p::noise::Config::new,
                libp2p::yamux::Config::default,
            )?
            .with_behaviour(|_| behaviour)?
            .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(120)))
            .build();
        swarm.dial(target)?;
        let peer = *swarm.local_peer_id();
        let (commands, queue) = mpsc::unbounded_channel();
        let task = tokio::spawn(drive(swarm, queue));
        Ok(RawGossip {
            peer,
            commands,
            task,
        })
    }

    pub fn subscribe(&self, topic: &str) {
        let _ = self.commands.send(Command::Subscribe(topic.to_owned()));
    }

    /// The topics `peer` has told this peer it is subscribed to (empty until its hello
    /// arrives, and for ever if gossipsub refused the hello).
    pub async fn topics_of(&self, peer: PeerId) -> Vec<String> {
        let (done, answer) = oneshot::channel();
        if self.commands.send(Command::Topics(done)).is_err() {
            return Vec::new();
        }
        answer
            .await
            .unwrap_or_default()
            .into_iter()
            .find(|(p, _)| *p == peer)
            .map(|(_, t)| t)
            .unwrap_or_default()
    }

    /// Publishes `data` on `topic`; fails while no peer is known to be subscribed to it.
    pub async fn publish(&self, topic: &str, data: Vec<u8>) -> Result<(), String> {
        let (done, answer) = oneshot::channel();
        self.commands
            .send(Command::Publish {
                topic: topic.to_owned(),
                data,
                done,
            })
            .map_err(|_| "the raw gossip task has stopped".to_owned())?;
        answer
            .await
            .map_err(|_| "the raw gossip task has stopped".to_owned())?
    }

    /// Publishes once some peer is subscribed to `topic` (tries for up to `within`).
    pub async fn publish_when_heard(
        &self,
        topic: &str,
        data: Vec<u8>,
        within: Duration,
    ) -> Result<(), String> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            match self.publish(topic, data.clone()).await {
                Ok(()) => return Ok(()),
                Err(e) if tokio::time::Instant::now() > deadline => return Err(e),
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }
}

impl Drop for RawGossip {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn drive(
    mut swarm: Swarm<gossipsub::Behaviour>,
    mut queue: mpsc::UnboundedReceiver<Command>,
) {
    loop {
        tokio::select! {
            command = queue.recv() => match command {
                None => return,
                Some(Command::Subscribe(topic)) => {
                    let _ = swarm.behaviour_mut().subscribe(&IdentTopic::new(topic));
                }
                Some(Command::Topics(done)) => {
                    let all = swarm
                        .behaviour()
                        .all_peers()
                        .map(|(p, t)| (*p, t.iter().map(|h| h.as_str().to_owned()).collect()))
                        .collect();
                    let _ = done.send(all);
                }
                Some(Command::Publish { topic, data, done }) => {
                    let r = swarm
                        .behaviour_mut()
                        .publish(IdentTopic::new(topic), data)
                        .map(|_| ())
                        .map_err(|e| e.to_string());
                    let _ = done.send(r);
                }
            },
            event = swarm.select_next_some() => {
                if let SwarmEvent::OutgoingConnectionError { error, .. } = event {
                    eprintln!("raw gossip peer: dial failed: {error}");
                }
            }
        }
    }
}
