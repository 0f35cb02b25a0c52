//! The node's side of `crate::instance`: the check at start (before anything is signed),
//! the record sent to every peer on connection and every heartbeat, the answers given to
//! other nodes' records, and the stop when another instance of the key started earlier.

use super::deliver::Internal;
use super::{Service, now_ms, player_of_peer};
use crate::instance::{Instance, OtherInstance, Own, Verdict, judge};
use crate::network::{NetworkError, NetworkHandle};
use crate::protocol::{Request, Response};
use libp2p::PeerId;
use sobre_core::record::{Keypair, Status};
use std::time::Duration;
use tracing::{debug, error, warn};

/// How long the check at start waits for the peers' answers: a node with no peer reachable
/// starts after this at most.
const STARTUP_WAIT: Duration = Duration::from_secs(4);
/// How long the "ended" record is given to leave on a clean stop.
const ENDED_WAIT: Duration = Duration::from_millis(800);

/// Before the node signs anything: sends its record to `peers` (its bootstrap peers and
/// mailboxes, and whoever is connected already) and waits up to [`STARTUP_WAIT`] for their
/// answers. A peer that knows a live instance of this key started earlier stops the start.
/// Returns the peers that answered: they hold the record already, and the connection that
/// carried it need not carry it again ([`Instances::told_at_start`]).
///
/// # Errors
/// [`OtherInstance`] naming the other instance.
///
/// [`Instances::told_at_start`]: super::instances::Instances::told_at_start
pub(super) async fn check_at_start(
    net: &NetworkHandle,
    key: &Keypair,
    own: &Own,
    peers: Vec<PeerId>,
) -> Result<Vec<PeerId>, OtherInstance> {
    let Ok(record) = own.signed(key, now_ms(), false) else {
        return Ok(Vec::new());
    };
    let asks = peers.into_iter().map(|peer| {
        let ask = net.request_queued(
            peer,
            Request::Instance {
                record: record.clone(),
            },
        );
        async move { (peer, ask.await) }
    });
    let answers = match tokio::time::timeout(STARTUP_WAIT, futures::future::join_all(asks)).await {
        Ok(answers) => answers,
        Err(_) => {
            debug!("instance check: not every peer answered in time");
            Vec::new()
        }
    };
    let mut answered = Vec::new();
    for (peer, answer) in answers {
        match answer {
            Ok(Response::Instances { records }) => {
                answered.push(peer);
                for r in records {
                    match Instance::verify(&r).map(|other| judge(own, &other, now_ms())) {
                        Ok(Verdict::Yield(other)) => {
                            error!(%peer, "another instance of this key is live: {other}");
                            return Err(other);
                        }
                        Ok(Verdict::Keep(other)) => {
                            warn!(%peer, instance = %other.instance, "a later node with this key was told to stop");
                        }
                        Ok(Verdict::Nothing) => {}
                        Err(e) => warn!(%peer, "instance record from a peer refused: {e}"),
                    }
                }
            }
            Ok(other) => debug!(%peer, "instance check: unexpected answer {other:?}"),
            Err(e) => debug!(%peer, "instance check: {e}"),
        }
    }
    Ok(answered)
}

impl Service {
    /// Sends the node's record to `peer` in a task; the answer comes back as
    /// [`Internal::InstanceAnswer`].
    pub(super) fn send_instance(&self, peer: PeerId) {
        let Ok(record) = self.instances.signed(self.identity.key(), now_ms(), false) else {
            return;
        };
        let ask = self.net.request_queued(peer, Request::Instance { record });
        let tx = self.internal_tx.clone();
        tokio::spawn(async move {
            let result = ask.await;
            let _ = tx.send(Internal::InstanceAnswer { peer, result }).await;
        });
    }

    /// Every [`crate::instance::HEARTBEAT_MS`]: the record again, freshly signed (their
    /// books forget an instance not heard from for a while), to the connected peers a second
    /// instance of this key would also talk to: the bootstrap peers, the mailboxes and the
    /// opponents of unfinished games. Every peer still gets the record on connection; a
    /// heartbeat to every connected peer cost a mailbox one signed request per player every
    /// 30 seconds.
    pub(super) async fn instance_tick(&mut self) {
        let now = now_ms();
        if !self.instances.heartbeat_due(now) {
            return;
        }
        let me = self.identity.me();
        let opponents: std::collections::HashSet<PeerId> = self
            .games
            .values()
            .filter(|s| {
                matches!(
                    s.status,
                    Status::Pending | Status::Active | Status::Adjourned
                )
            })
            .filter_map(|s| match (s.challenger == me, s.opponent == me) {
                (true, _) => super::peer_of_player(&s.opponent),
                (_, true) => super::peer_of_player(&s.challenger),
                _ => None,
            })
            .collect();
        for (peer, _) in self.net.connected_peers().await.unwrap_or_default() {
            if self.instances.gets_heartbeats(&peer)
                || self.identity.is_my_mailbox(&peer)
                || opponents.contains(&peer)
            {
                self.send_instance(peer);
            }
        }
    }

    /// A peer answered our record with the other instances of our key it knows.
    pub(super) fn instance_answered(
        &mut self,
        peer: PeerId,
        result: Result<Response, NetworkError>,
    ) {
        let records = match result {
            Ok(Response::Instances { records }) => records,
            Ok(_) | Err(_) => return,
        };
        for r in records {
            self.judge_record(peer, &r);
        }
    }

    fn judge_record(&mut self, peer: PeerId, bytes: &[u8]) {
        match Instance::verify(bytes).map(|other| self.instances.judge(&other, now_ms())) {
            Ok(Verdict::Yield(other)) => {
                error!(%peer, "another instance of this key is live, the node stops: {other}");
                self.run.stop();
            }
            Ok(Verdict::Keep(other)) => {
                warn!(%peer, instance = %other.instance, at = %other.addrs, "a later node with this key was told to stop");
            }
            Ok(Verdict::Nothing) => {}
            Err(e) => warn!(%peer, "instance record from a peer refused: {e}"),
        }
    }

    /// A peer sends its instance record: kept if it is the peer's own (the connection is
    /// authenticated as the key), answered with the player's other live instances.
    pub(super) async fn answer_instance(&mut self, peer: PeerId, record: Vec<u8>) -> Response {
        let checked = match Instance::verify(&record) {
            Ok(r) if player_of_peer(&peer) == Some(r.player) => r,
            Ok(_) => {
                let reason = "an instance record of another player".to_owned();
                let _ = self.net.penalize(peer, reason.clone()).await;
                return Response::Refused { reason };
            }
            Err(e) => {
                let reason = e.to_string();
                let _ = self.net.penalize(peer, reason.clone()).await;
                return Response::Refused { reason };
            }
        };
        let own_key = checked.player == self.identity.me();
        if own_key {
            // Our own key on the other end: another instance of this very node's player.
            self.judge_record(peer, &record);
        }
        let mut records = self.instances.note(checked, record, now_ms());
        if own_key && let Ok(mine) = self.instances.signed(self.identity.key(), now_ms(), false) {
            records.push(mine);
        }
        Response::Instances { records }
    }

    /// On a clean stop: tells the connected peers that this instance ended, so that a node
    /// started with the key right after (a move to a new computer) is not refused.
    pub(super) async fn instance_ended(&self) {
        let Ok(record) = self.instances.signed(self.identity.key(), now_ms(), true) else {
            return;
        };
        let peers = self.net.connected_peers().await.unwrap_or_default();
        let sends = peers.into_iter().map(|(peer, _)| {
            self.net.request_queued(
                peer,
                Request::Instance {
                    record: record.clone(),
                },
            )
        });
        let _ = tokio::time::timeout(ENDED_WAIT, futures::future::join_all(sends)).await;
    }
}
