//! Equivocation proofs: a player who signs two different events at the same place in their
//! scoresheet (same game, author and sequence number) has cheated, and every honest node that
//! learns of it must say so and keep the proof.
//!
//! A node's log of a game stays one consistent scoresheet per author (the first twin it
//! accepted): the other twin is never stored in the `events` tree, served by sync or
//! delivered as if valid. Both signed events are kept instead in the `equivocations` tree,
//! shown by `show` (status `disputed`, with the proof) and sent once to the other
//! participants, who find the conflict the same way and keep the proof too. The tree's
//! layout is in [`crate::store::equivocations`].

use crate::api::GameView;
use crate::api::game::EquivocationView;
use crate::network::NetworkHandle;
use crate::protocol::Request;
use crate::store::{Equivocation, Store, StoreError};
use libp2p::PeerId;
use sobre_core::record::{GameId, PlayerId, SignedEvent, Status};
use std::collections::{HashMap, HashSet};
use tracing::{debug, warn};

/// Why a message carrying only the twin of a known event was not taken (not the sender's
/// fault: it may be an honest node passing the proof on).
pub const REFUSAL: &str = "equivocation: kept as proof";

/// Two different events signed by one author at one sequence number of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    pub game: GameId,
    pub author: PlayerId,
    pub seq: u64,
    /// The event this node holds in its log.
    pub first: SignedEvent,
    /// Its twin, kept only here.
    pub second: SignedEvent,
}

impl Proof {
    /// True if both events carry valid signatures by the same author at the same place of
    /// the same game and differ: nobody else can make such a pair.
    pub fn holds(&self) -> bool {
        let (Ok(a), Ok(b)) = (self.first.verify(), self.second.verify()) else {
            return false;
        };
        a.id != b.id
            && a.event.author == self.author
            && b.event.author == self.author
            && a.event.seq == self.seq
            && b.event.seq == self.seq
            && self.first.game() == Some(self.game)
            && self.second.game() == Some(self.game)
    }

    /// The proof as `show` lists it.
    pub fn view(&self) -> EquivocationView {
        EquivocationView {
            author: self.author.to_string(),
            seq: self.seq,
            first: Some(self.first.to_bytes().map(|b| hex(&b)).unwrap_or_default()),
            second: Some(self.second.to_bytes().map(|b| hex(&b)).unwrap_or_default()),
            first_id: Some(self.first.id().to_hex()),
            second_id: Some(self.second.id().to_hex()),
        }
    }
}

impl From<Equivocation> for Proof {
    fn from(e: Equivocation) -> Proof {
        Proof {
            game: e.game,
            author: e.author,
            seq: e.seq,
            first: e.first,
            second: e.second,
        }
    }
}

impl From<&Proof> for Equivocation {
    fn from(p: &Proof) -> Equivocation {
        Equivocation {
            game: p.game,
            author: p.author,
            seq: p.seq,
            first: p.first.clone(),
            second: p.second.clone(),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Takes out of `incoming` every event that is the twin of one in `known` (or of one earlier
/// in `incoming`) by a player of the game, and returns the proofs. Events whose signature
/// does not verify are left in place (the caller refuses them as forged). `known` gives
/// each held event with its author and seq (decoded once, when it arrived).
pub fn take_conflicts<'a>(
    game: &GameId,
    players: [PlayerId; 2],
    known: impl IntoIterator<Item = (PlayerId, u64, &'a SignedEvent)>,
    incoming: &mut Vec<SignedEvent>,
) -> Vec<Proof> {
    // Only the places the incoming events take can hold a twin: the known events are
    // scanned for those (usually one), not all put in a map (this runs for every delivery).
    // Each incoming event decoded once: its place, if one of the players signed it.
    let place_of: Vec<Option<(PlayerId, u64)>> = incoming
        .iter()
        .map(|e| {
            e.decode_unverified()
                .ok()
                .filter(|ev| players.contains(&ev.author))
                .map(|ev| (ev.author, ev.seq))
        })
        .collect();
    let places: HashSet<(PlayerId, u64)> = place_of.iter().flatten().copied().collect();
    if places.is_empty() {
        return Vec::new();
    }
    let mut held: HashMap<(PlayerId, u64), &SignedEvent> = HashMap::new();
    for (author, seq, e) in known {
        if places.contains(&(author, seq)) {
            held.entry((author, seq)).or_insert(e);
        }
    }
    let mut arrived: HashMap<(PlayerId, u64), SignedEvent> = HashMap::new();
    let mut proofs = Vec::new();
    let mut place_each = place_of.into_iter();
    incoming.retain(|e| {
        let Some(place) = place_each.next().flatten() else {
            return true;
        };
        let first = match (held.get(&place), arrived.get(&place)) {
            (Some(h), _) => (*h).clone(),
            (None, Some(a)) => a.clone(),
            (None, None) => {
                arrived.insert(place, e.clone());
                return true;
            }
        };
        if first.id() == e.id() {
            return true;
        }
        let proof = Proof {
            game: *game,
            author: place.0,
            seq: place.1,
            first,
            second: e.clone(),
        };
        if proof.holds() {
            proofs.push(proof);
            false
        } else {
            true
        }
    });
    proofs
}

/// Stores proofs (idempotent). Returns those that were new. The caller flushes.
///
/// # Errors
/// On I/O errors.
pub fn record(store: &Store, proofs: &[Proof]) -> Result<Vec<Proof>, StoreError> {
    let mut new = Vec::new();
    for p in proofs {
        match store.equivocation_put(&Equivocation::from(p)) {
            Ok(true) => new.push(p.clone()),
            Ok(false) => {}
            // An event that does not encode is no proof to keep (never so for the decoded
            // events a proof holds): the others are still kept.
            Err(StoreError::Corrupt { reason, .. }) => {
                warn!(game = %p.game, "an equivocation proof cannot be stored: {reason}");
            }
            Err(e) => return Err(e),
        }
    }
    Ok(new)
}

/// The stored proofs of a game, each checked again (a damaged record, or one whose
/// signatures no longer hold, is skipped and logged).
pub fn proofs(store: &Store, game: &GameId) -> Vec<Proof> {
    let mut out = Vec::new();
    for item in store.equivocations_of(game) {
        match item.map(Proof::from) {
            Ok(p) if p.holds() => out.push(p),
            Ok(_) => warn!(%game, "a stored equivocation proof does not hold; ignored"),
            Err(e) => warn!(%game, "a stored equivocation proof is damaged; ignored: {e}"),
        }
    }
    out
}

/// Marks a `show` answer: status `disputed` and the proofs, if the node holds any.
pub fn annotate(store: &Store, game: &GameId, v: &mut GameView) {
    let proofs = proofs(store, game);
    if proofs.is_empty() {
        return;
    }
    v.status = Status::Disputed.name().to_owned();
    v.equivocations = proofs.iter().map(Proof::view).collect();
}

/// Sends each proof (both events, in one delivery) to `peers`, once, in the background: a
/// receiver holding one twin finds the conflict and keeps the proof. Proofs are sent again
/// whenever a participant connects ([`resend`]).
pub fn spread(net: &NetworkHandle, proofs: &[Proof], peers: &[PeerId]) {
    for p in proofs {
        let (Ok(a), Ok(b)) = (p.first.to_bytes(), p.second.to_bytes()) else {
            continue;
        };
        for peer in peers {
            let net = net.clone();
            let peer = *peer;
            let request = Request::Deliver {
                game: p.game,
                events: vec![a.clone(), b.clone()],
            };
            tokio::spawn(async move {
                if let Err(e) = net.request(peer, request).await {
                    debug!(%peer, "equivocation proof not delivered: {e}");
                }
            });
        }
    }
}

/// Sends the stored proofs of `game` to a peer that just connected.
pub fn resend(store: &Store, net: &NetworkHandle, game: &GameId, peer: PeerId) {
    let proofs = proofs(store, game);
    if !proofs.is_empty() {
        spread(net, &proofs, &[peer]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::Keypair;

    #[test]
    fn a_twin_is_taken_out_with_its_proof_and_a_forged_twin_is_not() {
        let (w, b) = (
            Keypair::from_secret_bytes(&[1; 32]),
            Keypair::from_secret_bytes(&[2; 32]),
        );
        let (game, [challenge, one, two]) = crate::store::tests::chats(&w, &b);
        let players = [w.player_id(), b.player_id()];
        let known_events = [challenge.clone(), one.clone()];
        let known: Vec<_> = known_events
            .iter()
            .map(|e| {
                let ev = e.decode_unverified().unwrap();
                (ev.author, ev.seq, e)
            })
            .collect();

        let mut incoming = vec![challenge.clone(), two.clone()];
        let proofs = take_conflicts(&game, players, known.clone(), &mut incoming);
        assert_eq!(incoming, vec![challenge.clone()]);
        assert_eq!(proofs.len(), 1);
        assert!(proofs[0].holds());
        assert_eq!(
            (proofs[0].first.id(), proofs[0].second.id()),
            (one.id(), two.id())
        );

        // Both twins in one message to a node holding neither.
        let mut incoming = vec![one.clone(), two.clone()];
        let proofs = take_conflicts(&game, players, known[..1].to_vec(), &mut incoming);
        assert_eq!((incoming.len(), proofs.len()), (1, 1));

        // A twin whose signature does not verify is no proof: left for ingest to refuse.
        let mut forged = two.clone();
        forged.signature[0] ^= 1;
        let mut incoming = vec![forged.clone()];
        assert!(take_conflicts(&game, players, known.clone(), &mut incoming).is_empty());
        assert_eq!(incoming, vec![forged]);
    }
}
