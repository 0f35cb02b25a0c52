//! The control API's requests about the node rather than a game: who it is (`id`), how it
//! runs (`status`), its peers (`peers`, `connect`), `stop` and the `board`. Each handler is
//! given only the parts it reads; `status` alone needs the service, for the opponents.

use super::identity::Identity;
use super::limits::Limits;
use super::run_state::RunState;
use super::{Service, now_ms};
use crate::api::replies::{
    BoardReply, ConnectReply, IdReply, PeerEntry, PeersReply, StatusReply, StopReply,
};
use crate::api::request;
use crate::api::{ApiError, RefusalCode};
use crate::board::Launcher;
use crate::network::NetworkHandle;
use crate::store::Store;
use libp2p::Multiaddr;

/// `id`: the player, its name, and the addresses a peer can dial it at (each with this
/// node's `/p2p/` part).
pub(super) async fn id(net: &NetworkHandle, identity: &Identity) -> IdReply {
    let peer = net.local_peer_id();
    let addrs: Vec<String> = net
        .listen_addrs()
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|a| {
            let s = a.to_string();
            if s.contains("/p2p/") {
                s
            } else {
                format!("{s}/p2p/{peer}")
            }
        })
        .collect();
    IdReply {
        player_id: identity.me().to_string(),
        name: identity.name(),
        addresses: addrs,
        mailbox: identity.is_mailbox(),
    }
}

/// `stop`: the loop ends after this request.
pub(super) fn stop(run: &mut RunState) -> StopReply {
    run.stop();
    StopReply { stopping: true }
}

/// `peers`: the peers connected (and whether their connections are reserved) and the
/// peers remembered.
pub(super) async fn peers(
    net: &NetworkHandle,
    identity: &Identity,
    limits: &Limits,
    store: &Store,
) -> PeersReply {
    let peers = net.connected_peers().await.unwrap_or_default();
    PeersReply {
        connected: peers
            .iter()
            .map(|(p, a)| PeerEntry {
                peer: p.to_string(),
                addresses: a.iter().map(ToString::to_string).collect(),
                reserved: super::player_of_peer(p)
                    .is_some_and(|player| limits.is_reserved(&player))
                    || identity.is_my_mailbox(p),
            })
            .collect(),
        known: super::reads::known_peers(store),
    }
}

/// `connect`: dials `addr` and remembers it, so that the node redials it after a restart.
pub(super) async fn connect(
    net: &NetworkHandle,
    store: &Store,
    request::Connect { addr }: request::Connect,
) -> Result<ConnectReply, ApiError> {
    let a: Multiaddr = addr.parse().map_err(|e: libp2p::multiaddr::Error| {
        ApiError::refused(RefusalCode::BadMultiaddr {
            text: addr.clone(),
            reason: e.to_string(),
        })
    })?;
    let peer = net.dial(a.clone()).await.map_err(|e| {
        ApiError::refused(RefusalCode::CannotReach {
            addr: addr.clone(),
            reason: e.to_string(),
        })
    })?;
    let _ = store.remember_peer(&peer.to_string(), std::slice::from_ref(&addr));
    let _ = store.flush().await;
    Ok(ConnectReply {
        peer: peer.to_string(),
    })
}

/// `board`: the board's URL, its server started if it was not yet.
pub(super) async fn board(board: &mut Launcher) -> Result<BoardReply, ApiError> {
    // The port is taken, most likely (`board_port` in node.toml).
    let port = board.port();
    let url = board.open().await.map_err(|e| {
        ApiError::refused(RefusalCode::BoardNotServed {
            port,
            reason: e.to_string(),
        })
    })?;
    Ok(BoardReply { url })
}

impl Service {
    /// `status`: the node's run, its games, peers, outbox and traffic, its reachability and
    /// its opponents.
    pub(super) async fn status(&self) -> StatusReply {
        let peers = self.net.connected_peers().await.unwrap_or_default();
        let mut reply = StatusReply {
            player_id: self.identity.me().to_string(),
            uptime_ms: self.run.uptime_ms(now_ms()),
            games: self.games.len(),
            games_verified_at_start: self.run.verified_at_start(),
            peers: peers.len(),
            outbox: self.store.outbox_len(),
            mailbox: self.identity.is_mailbox(),
            traffic: self.net.traffic(),
            ..StatusReply::default()
        };
        self.reachability_status(&mut reply, &peers).await;
        reply
    }
}
