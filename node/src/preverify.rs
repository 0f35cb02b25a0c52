//! The stage between the network and the service: it checks the signatures of the events
//! that deliveries and gossip carry, beside the service task.
//!
//! The service is one task (it owns the games, the store and the signing key), so on a busy
//! mailbox it is what limits ingest; the signature checks were about a tenth of its work
//! (`perf`, 2026-11-23). Here the network's events are taken in batches (the group commit's
//! batch: what is already queued), the new events' signatures are checked here, each with
//! `verify_strict` (not an ed25519 batch, which is not exact: see `verify_all`), and
//! each batch goes on to the service with what was verified. The service checks itself whatever
//! this stage did not verify (an event it verified recently, a bad signature — to name it —
//! or anything it could not decode), so this stage only saves work, never decides.
//!
//! Content before signatures (issue 30): the signatures of a delivery are checked here only
//! if the service may keep it — a game it holds (its [`Scope`]), or, for a game it does not
//! hold, events that carry the game's challenge and concern this node by their content
//! (`service::standing::content`, the same cheap facts the service refuses `NotOurs` on). A
//! stranger's games between others cost a decode, never a signature check.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock};

use hashlink::LruCache;
use libp2p::PeerId;
use sobre_core::record::{Event, EventId, GameId, PlayerId, SignedEvent, VerifiedEvent};
use tokio::sync::mpsc;

use crate::network::NetworkEvent;
use crate::protocol::{self, Gossip, MAX_EVENTS_PER_MESSAGE, Request};

/// Ids of the events verified lately, not checked again when they come back: a delivery may
/// carry the whole game, most of which the service holds already. Enough for the events of
/// the games a busy mailbox has in flight (about 2 MiB).
const RECENT: usize = 32_768;

/// Batches waiting for the service at most; then this stage waits too (and so the network).
const QUEUED_BATCHES: usize = 4;

/// The games the service holds, shared with this stage. The service adds a game before it
/// answers the delivery that brought it and drops one when it forgets it; a batch read here
/// while the service is still on the previous one may miss a game just added, and then the
/// service checks those signatures itself.
#[derive(Clone, Default)]
pub struct Held(Arc<RwLock<HashSet<GameId>>>);

impl Held {
    pub fn insert(&self, game: GameId) {
        if let Ok(mut held) = self.0.write() {
            held.insert(game);
        }
    }

    pub fn remove(&self, game: &GameId) {
        if let Ok(mut held) = self.0.write() {
            held.remove(game);
        }
    }

    pub fn reset(&self, games: impl Iterator<Item = GameId>) {
        if let Ok(mut held) = self.0.write() {
            *held = games.collect();
        }
    }

    pub fn contains(&self, game: &GameId) -> bool {
        self.0.read().is_ok_and(|held| held.contains(game))
    }
}

/// What this stage knows of the node: enough to tell a game that is none of its business.
#[derive(Clone)]
pub struct Scope {
    pub me: PlayerId,
    pub mailbox: bool,
    pub held: Held,
}

impl Scope {
    /// Whether the signatures of `raws`, events sent for `game`, are worth checking: the
    /// service may keep them (see the module's doc).
    fn may_be_ours(&self, game: &GameId, raws: &[&[u8]]) -> bool {
        if self.mailbox || self.held.contains(game) {
            return true;
        }
        let events: Vec<Event> = raws
            .iter()
            .filter_map(|raw| SignedEvent::from_bytes(raw).ok())
            .filter_map(|e| {
                let ev = e.decode_unverified().ok()?;
                let of_game = match ev.kind.challenge() {
                    Some(_) => e.id() == *game,
                    None => ev.game == Some(*game),
                };
                of_game.then_some(ev)
            })
            .collect();
        let refs: Vec<&Event> = events.iter().collect();
        // No contacts nor leagues here: any league game and any escrow to this node may be
        // ours; the service decides.
        crate::service::standing::content(&self.me, self.mailbox, &refs, &|_| true, &mut |_| true)
            == crate::service::standing::Content::Ours
    }
}

/// Network events in order, with the events among them whose signatures were checked here.
pub struct Batch {
    pub events: Vec<NetworkEvent>,
    pub verified: HashMap<EventId, VerifiedEvent>,
}

/// Starts the stage on the runtime: reads `net`, takes at most `max_batch` events per batch.
pub fn spawn(
    mut net: mpsc::Receiver<NetworkEvent>,
    max_batch: usize,
    scope: Scope,
) -> mpsc::Receiver<Batch> {
    let (tx, rx) = mpsc::channel(QUEUED_BATCHES);
    tokio::spawn(async move {
        let mut recent: LruCache<EventId, ()> = LruCache::new(RECENT);
        while let Some(ev) = net.recv().await {
            let mut events = vec![ev];
            while events.len() < max_batch {
                let Ok(ev) = net.try_recv() else { break };
                events.push(ev);
            }
            let verified = check(&events, &mut recent, &scope);
            if tx.send(Batch { events, verified }).await.is_err() {
                break;
            }
        }
    });
    rx
}

/// Verifies the events carried by `batch` that are not in `recent` and may be kept (see
/// [`Scope`]), and notes them there.
/// A peer whose message carried a bad signature gets nothing more of its messages in this
/// batch checked here: the service, which checks itself what this stage did not, refuses its
/// delivery at the first bad event and strikes the peer (`Refusal::blames_sender`), before
/// it looks at anything else the peer sent.
fn check(
    batch: &[NetworkEvent],
    recent: &mut LruCache<EventId, ()>,
    scope: &Scope,
) -> HashMap<EventId, VerifiedEvent> {
    let mut verified = HashMap::new();
    let mut seen: HashSet<EventId> = HashSet::new();
    let mut bad: HashSet<PeerId> = HashSet::new();
    for ev in batch {
        let (peer, raws): (PeerId, Vec<&[u8]>) = match ev {
            // A delivery over the cap is refused by the service without a look at its events.
            NetworkEvent::InboundRequest {
                peer,
                request: Request::Deliver { game, events },
                ..
            } if events.len() <= MAX_EVENTS_PER_MESSAGE => {
                let raws: Vec<&[u8]> = events.iter().map(Vec::as_slice).collect();
                if !scope.may_be_ours(game, &raws) {
                    continue;
                }
                (*peer, raws)
            }
            // League topics carry heads, no events (see `protocol::LeagueHeads`).
            NetworkEvent::Gossip { topic, .. }
                if topic.starts_with(protocol::LEAGUE_TOPIC_PREFIX) =>
            {
                continue;
            }
            NetworkEvent::Gossip { source, data, .. } => {
                let Ok(g) = protocol::decode::<Gossip>(data) else {
                    continue;
                };
                if !scope.may_be_ours(&g.game, &[&g.event]) {
                    continue;
                }
                let Ok(e) = SignedEvent::from_bytes(&g.event) else {
                    continue;
                };
                check_one(e, *source, recent, &mut seen, &mut bad, &mut verified);
                continue;
            }
            _ => continue,
        };
        for raw in raws {
            if bad.contains(&peer) {
                break;
            }
            if let Ok(e) = SignedEvent::from_bytes(raw) {
                check_one(e, peer, recent, &mut seen, &mut bad, &mut verified);
            }
        }
    }
    verified
}

fn check_one(
    e: SignedEvent,
    peer: PeerId,
    recent: &mut LruCache<EventId, ()>,
    seen: &mut HashSet<EventId>,
    bad: &mut HashSet<PeerId>,
    verified: &mut HashMap<EventId, VerifiedEvent>,
) {
    if bad.contains(&peer) {
        return;
    }
    let id = e.id();
    if recent.get(&id).is_some() || !seen.insert(id) {
        return;
    }
    match e.verify() {
        Ok(v) => {
            recent.insert(v.id, ());
            verified.insert(v.id, v);
        }
        Err(_) => {
            bad.insert(peer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use libp2p::PeerId;
    use sobre_core::record::author::Scoresheet;
    use sobre_core::record::{Challenge, ColourChoice, Keypair, StartPosition};
    use tokio::sync::oneshot;

    fn deliver(events: Vec<Vec<u8>>) -> NetworkEvent {
        NetworkEvent::InboundRequest {
            peer: PeerId::random(),
            request: Request::Deliver {
                game: EventId([0; 32]),
                events,
            },
            reply: oneshot::channel().0,
            queued: crate::network::queue::QueueTicket::none(),
        }
    }

    /// A mailbox's scope: every game may be its own.
    fn mailbox() -> Scope {
        Scope {
            me: Keypair::from_secret_bytes(&[250; 32]).player_id(),
            mailbox: true,
            held: Held::default(),
        }
    }

    /// A player's scope: the key of `seed`, holding no game.
    fn player(seed: u8) -> Scope {
        Scope {
            me: Keypair::from_secret_bytes(&[seed; 32]).player_id(),
            mailbox: false,
            held: Held::default(),
        }
    }

    fn deliver_to(peer: PeerId, game: GameId, events: &[SignedEvent]) -> NetworkEvent {
        NetworkEvent::InboundRequest {
            peer,
            request: Request::Deliver {
                game,
                events: events
                    .iter()
                    .map(|e| e.to_bytes().expect("encode"))
                    .collect(),
            },
            reply: oneshot::channel().0,
            queued: crate::network::queue::QueueTicket::none(),
        }
    }

    /// A signed challenge by the key of `seed` to the key of `seed + 1`.
    fn challenge(seed: u8) -> SignedEvent {
        let ch = Challenge {
            opponent: Keypair::from_secret_bytes(&[seed + 1; 32]).player_id(),
            colour: ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            start: StartPosition::Standard,
            coin_commitment: None,
            league: None,
        };
        Scoresheet::challenge(Keypair::from_secret_bytes(&[seed; 32]), ch, 1_000)
            .expect("sign")
            .1
    }

    #[test]
    fn verifies_new_events_once_and_leaves_bad_ones_to_the_service() {
        let good = challenge(1);
        let mut bad = challenge(3).to_bytes().expect("encode");
        let last = bad.len() - 1;
        bad[last] ^= 1; // the signature's last byte
        let mut recent = LruCache::new(RECENT);
        let batch = [deliver(vec![
            good.to_bytes().expect("encode"),
            bad.clone(),
            b"garbage".to_vec(),
        ])];
        let verified = check(&batch, &mut recent, &mailbox());
        assert_eq!(verified.len(), 1);
        assert!(verified.contains_key(&good.id()));
        // Sent again: verified lately, not checked again (the service knows it or checks it).
        assert!(check(&batch, &mut recent, &mailbox()).is_empty());
    }

    #[tokio::test]
    async fn batches_keep_the_network_order() {
        let (tx, rx) = mpsc::channel(16);
        let mut out = spawn(rx, 2, mailbox());
        let ids: Vec<EventId> = (0..5).map(|i| challenge(10 + 2 * i).id()).collect();
        for i in 0..5u8 {
            let e = challenge(10 + 2 * i).to_bytes().expect("encode");
            tx.send(deliver(vec![e])).await.expect("send");
        }
        drop(tx);
        let mut seen = Vec::new();
        while let Some(b) = out.recv().await {
            assert!(b.events.len() <= 2);
            for ev in &b.events {
                let NetworkEvent::InboundRequest {
                    request: Request::Deliver { events, .. },
                    ..
                } = ev
                else {
                    panic!("not a delivery")
                };
                let id = SignedEvent::from_bytes(&events[0]).expect("decode").id();
                assert!(b.verified.contains_key(&id));
                seen.push(id);
            }
        }
        assert_eq!(seen, ids);
    }

    /// A peer whose delivery carries a bad signature gets nothing more checked in the batch;
    /// another peer's events are checked as usual.
    #[test]
    fn after_a_bad_signature_nothing_more_of_that_peer_is_checked() {
        let mut forged = challenge(40);
        forged.signature[10] ^= 1;
        let (p, q) = (PeerId::random(), PeerId::random());
        let of = |peer: PeerId, events: Vec<SignedEvent>| NetworkEvent::InboundRequest {
            peer,
            request: Request::Deliver {
                game: EventId([0; 32]),
                events: events
                    .iter()
                    .map(|e| e.to_bytes().expect("encode"))
                    .collect(),
            },
            reply: oneshot::channel().0,
            queued: crate::network::queue::QueueTicket::none(),
        };
        let (after, other) = (challenge(42), challenge(44));
        let batch = vec![
            of(p, vec![forged, after.clone()]),
            of(p, vec![challenge(46)]),
            of(q, vec![other.clone()]),
        ];
        let verified = check(&batch, &mut LruCache::new(RECENT), &mailbox());
        assert_eq!(verified.len(), 1);
        assert!(verified.contains_key(&other.id()));
        assert!(!verified.contains_key(&after.id()));
    }

    /// Content before signatures: a game between two others, a delivery without its
    /// challenge, are not checked here (the service refuses them from their content); a
    /// challenge to this player and the events of a game it holds are.
    #[test]
    fn only_games_that_may_be_ours_are_checked() {
        let me = player(61);
        let peer = PeerId::random();
        let between_others = challenge(70);
        let to_me = challenge(60);
        let mut sheet =
            Scoresheet::join(Keypair::from_secret_bytes(&[70; 32]), between_others.id());
        let chat = sheet.chat("hello", 2_000).expect("sign");
        let batch = [
            deliver_to(
                peer,
                between_others.id(),
                std::slice::from_ref(&between_others),
            ),
            deliver_to(peer, between_others.id(), std::slice::from_ref(&chat)),
            deliver_to(peer, to_me.id(), std::slice::from_ref(&to_me)),
        ];
        let verified = check(&batch, &mut LruCache::new(RECENT), &me);
        assert_eq!(verified.len(), 1);
        assert!(verified.contains_key(&to_me.id()));
        // Once the game is held, its events are checked whatever they carry.
        me.held.insert(between_others.id());
        let verified = check(&batch[1..2], &mut LruCache::new(RECENT), &me);
        assert!(verified.contains_key(&chat.id()));
    }
}
