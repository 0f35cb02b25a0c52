//! Remembered peers, both directions: the node keeps the addresses that the peers the player
//! has a part with announce (identify, at each connection and pushed when they change), and
//! redials them at start. So a node restarted on a new address reaches its opponents again
//! — those it dialed and those that dialed it — and they learn its new address from that
//! connection, with no DHT and nobody typing `peers connect`. Deliveries find the remembered
//! addresses too (the network is told them at start).
//!
//! Who is remembered: opponents of games that were played (not the authors of strangers'
//! challenges, answered or aborted, nor the players of a game between strangers escrowed to
//! this node: a flood of those must not push real opponents out — see `standing`),
//! witnesses, mailboxes, contacts and league members, and any peer remembered before
//! (`peers connect`, an invite). Bounded per
//! peer and in all (see [`crate::store::peers`]).

use super::{Service, peer_of_addr, player_of_peer};
use crate::api::replies::{OpponentEntry, PeerEntry, PeersReply, StatusReply};
use crate::api::{ApiError, RefusalCode};
use crate::network::NatReach;
use crate::network::NetworkHandle;
use crate::store::Store;
use crate::time::now_ms;
use libp2p::{Multiaddr, PeerId};
use sobre_core::record::{PlayerId, Status};
use std::time::Duration;
use tracing::{debug, warn};

/// Remembered peers dialed at start, the most recently seen first: enough for a player's
/// opponents and a mailbox's busy players, few enough not to storm the network.
pub(super) const MAX_REDIAL: usize = 128;

/// The addresses of `peer` in the form kept: each with its `/p2p/<id>`.
fn with_peer_id(addrs: Vec<Multiaddr>, peer: PeerId) -> Vec<String> {
    addrs
        .into_iter()
        .map(|a| a.with_p2p(peer).unwrap_or_else(|a| a).to_string())
        .collect()
}

impl Service {
    /// Whether the player has a part with `peer`: a player or an arbiter of a game that
    /// gives it standing (see `standing`: not a stranger's challenge, answered or aborted, nor
    /// a game between strangers escrowed to this node), a mailbox, a contact or a league
    /// member.
    pub(super) fn has_part_with(&self, peer: &PeerId) -> bool {
        if self.identity.is_my_mailbox(peer) {
            return true;
        }
        let Some(who) = player_of_peer(peer) else {
            return false;
        };
        let mut known = None;
        let in_game = self
            .games
            .values()
            .any(|s| (s.plays(&who) || s.arbiters.contains(&who)) && self.stands(s, &mut known));
        in_game
            || known
                .unwrap_or_else(|| self.trusted_players())
                .contains(&who)
    }

    /// A peer told us its addresses: kept if the player has a part with it.
    pub(super) fn on_peer_addresses(&mut self, peer: PeerId, addrs: Vec<Multiaddr>) {
        let id = peer.to_string();
        let known = matches!(self.store.remembered_peer(&id), Ok(Some(_)));
        if !known && !self.has_part_with(&peer) {
            return;
        }
        let addrs = with_peer_id(addrs, peer);
        match self.store.remember_peer_addrs(&id, &addrs, Some(now_ms())) {
            Ok(true) => debug!(%peer, ?addrs, "peer addresses remembered"),
            Ok(false) => {}
            Err(e) => warn!(%peer, "cannot remember the peer's addresses: {e}"),
        }
    }

    /// Remembers `addrs` (each ending in `/p2p/<peer id>`) for their peers, tells the
    /// network and dials each peer in the background (`sobre connect`, `contacts add` with
    /// an invite). The answer lists the peers now remembered among them.
    pub(super) async fn remember_addrs(
        &mut self,
        addrs: &[String],
    ) -> Result<PeersReply, ApiError> {
        let mut by_peer: Vec<(PeerId, Vec<Multiaddr>)> = Vec::new();
        for text in addrs {
            let a: Multiaddr = text.parse().map_err(|e: libp2p::multiaddr::Error| {
                ApiError::refused(RefusalCode::BadMultiaddr {
                    text: text.clone(),
                    reason: e.to_string(),
                })
            })?;
            let peer = peer_of_addr(&a).ok_or_else(|| {
                ApiError::refused(RefusalCode::AddrWithoutPeer { text: text.clone() })
            })?;
            match by_peer.iter_mut().find(|(p, _)| *p == peer) {
                Some((_, list)) => list.push(a),
                None => by_peer.push((peer, vec![a])),
            }
        }
        let mut known = Vec::new();
        for (peer, list) in by_peer {
            if peer == self.net.local_peer_id() {
                continue;
            }
            let texts: Vec<String> = list.iter().map(ToString::to_string).collect();
            self.store
                .remember_peer_addrs(&peer.to_string(), &texts, None)
                .map_err(|e| ApiError::internal(e.to_string()))?;
            for a in &list {
                let _ = self.net.add_address(peer, a.clone()).await;
            }
            spawn_redial(self.net.clone(), peer, list);
            known.push(PeerEntry {
                peer: peer.to_string(),
                addresses: texts,
                reserved: false,
            });
        }
        let _ = self.store.flush().await;
        Ok(PeersReply {
            connected: Vec::new(),
            known,
        })
    }

    /// At start: remembers the addresses queued while the node was stopped (an invite
    /// accepted offline, see [`crate::invite::queue_addresses`]).
    pub(super) fn import_queued(&mut self) {
        let queued = crate::invite::take_queued(self.identity.home());
        for text in queued {
            let Ok(a) = text.parse::<Multiaddr>() else {
                continue;
            };
            if let Some(peer) = peer_of_addr(&a)
                && let Err(e) = self
                    .store
                    .remember_peer_addrs(&peer.to_string(), &[text], None)
            {
                warn!(%peer, "cannot remember a queued address: {e}");
            }
        }
    }

    /// The other players of the player's unfinished games.
    fn opponents(&self) -> Vec<PlayerId> {
        let mut out: Vec<PlayerId> = Vec::new();
        for s in self.games.values() {
            let mine = s.challenger == self.identity.me() || s.opponent == self.identity.me();
            if !mine || matches!(s.status, Status::Finished | Status::Cancelled) {
                continue;
            }
            for p in [s.challenger, s.opponent] {
                if p != self.identity.me() && !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Our addresses changed (a new listener, a relay reservation): the peers connected now
    /// hear it by identify push; the opponents not connected are dialed at their remembered
    /// addresses, and learn it from that connection's identify.
    pub(super) async fn on_own_address(&self) {
        let connected = self.net.connected_peers().await.unwrap_or_default();
        let absent: Vec<PeerId> = self
            .opponents()
            .iter()
            .filter_map(super::peer_of_player)
            .filter(|p| !connected.iter().any(|(c, _)| c == p))
            .take(MAX_REDIAL)
            .collect();
        for peer in absent {
            let net = self.net.clone();
            tokio::spawn(async move {
                if let Err(e) = net.dial_peer(peer).await {
                    debug!(%peer, "opponent not reachable to tell our new address: {e}");
                }
            });
        }
    }

    /// Fills the reachability part of `status`: AutoNAT's verdict, the relays reserved, and
    /// each opponent of an unfinished game, connected or when last seen.
    pub(super) async fn reachability_status(
        &self,
        reply: &mut StatusReply,
        connected: &[(PeerId, Vec<Multiaddr>)],
    ) {
        if let Ok(r) = self.net.reachability().await {
            reply.reachability = match r.nat {
                NatReach::Public => "public",
                NatReach::Private => "private",
                NatReach::Unknown => "unknown",
            }
            .to_owned();
            reply.public_address = r.public_addr.map(|a| a.to_string());
            reply.relays = r.relays.iter().map(ToString::to_string).collect();
        }
        reply.opponents = self
            .opponents()
            .into_iter()
            .map(|p| {
                let peer = super::peer_of_player(&p);
                let seen = self
                    .store
                    .remembered_peer(&p.to_string())
                    .ok()
                    .flatten()
                    .map(|r| r.seen_ms)
                    .filter(|s| *s > 0);
                OpponentEntry {
                    player: p.to_string(),
                    connected: peer.is_some_and(|peer| connected.iter().any(|(c, _)| *c == peer)),
                    last_seen_ms: seen,
                    clock_skew_ms: self.skews.get(&p),
                }
            })
            .collect();
    }

    /// At start: tells the network every remembered address (deliveries find them), and
    /// dials the [`MAX_REDIAL`] peers seen most recently, each at all its addresses at once.
    pub(super) async fn redial_remembered(&self) {
        let mut peers = self.store.remembered_peers().unwrap_or_default();
        peers.sort_by_key(|(_, p)| std::cmp::Reverse(p.seen_ms));
        let mut dial = Vec::new();
        for (id, remembered) in peers {
            let Ok(peer) = id.parse::<PeerId>() else {
                continue;
            };
            if peer == self.net.local_peer_id() {
                continue;
            }
            let addrs: Vec<Multiaddr> = remembered
                .addrs
                .iter()
                .filter_map(|a| a.parse().ok())
                .collect();
            for a in &addrs {
                let _ = self.net.add_address(peer, a.clone()).await;
            }
            if dial.len() < MAX_REDIAL {
                dial.push((peer, addrs));
            }
        }
        for (peer, addrs) in dial {
            spawn_redial(self.net.clone(), peer, addrs);
        }
    }
}

/// Dials `peer` at all its addresses at once; if that fails, its relayed addresses one by
/// one through the dial that first connects to the relay (a circuit cannot be opened while
/// the connection to its relay is still being dialed).
fn spawn_redial(net: NetworkHandle, peer: PeerId, addrs: Vec<Multiaddr>) {
    tokio::spawn(async move {
        let Err(e) = net.dial_peer(peer).await else {
            debug!(%peer, "remembered peer redialed");
            return;
        };
        for a in addrs.into_iter().filter(is_relayed) {
            if net.dial(a).await.is_ok() {
                debug!(%peer, "remembered peer redialed through its relay");
                return;
            }
        }
        debug!(%peer, "remembered peer not reachable: {e}");
    });
}

fn is_relayed(a: &Multiaddr) -> bool {
    a.iter()
        .any(|p| matches!(p, libp2p::multiaddr::Protocol::P2pCircuit))
}

/// Remembers the addresses of those of `peers` connected now: they just became players'
/// opponents (a challenge accepted), after their identify was heard and not kept.
pub(super) async fn remember_connected(net: &NetworkHandle, store: &Store, peers: &[PeerId]) {
    let Ok(connected) = net.connected_peers().await else {
        return;
    };
    for peer in peers {
        if !connected.iter().any(|(p, _)| p == peer) {
            continue;
        }
        // Connected, so this returns the known addresses without a DHT lookup.
        let Ok(Ok(addrs)) =
            tokio::time::timeout(Duration::from_secs(5), net.find_peer(*peer)).await
        else {
            continue;
        };
        if addrs.is_empty() {
            continue;
        }
        let addrs = with_peer_id(addrs, *peer);
        if let Err(e) = store.remember_peer_addrs(&peer.to_string(), &addrs, Some(now_ms())) {
            warn!(%peer, "cannot remember the peer's addresses: {e}");
        }
    }
}
