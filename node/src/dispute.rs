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
use sobre_core::record::GameId;
use tracing::{debug, warn};

/// Why a message carrying only the twin of a known event was not taken (not the sender's
/// fault: it may be an honest node passing the proof on).
pub const REFUSAL: &str = "equivocation: kept as proof";

pub use sobre_core::record::equivocation::{Proof, take_conflicts};

/// A proof as `show` lists it.
pub fn view(p: &Proof) -> EquivocationView {
    EquivocationView {
        author: p.author.to_string(),
        seq: p.seq,
        first: Some(p.first.to_bytes().map(|b| hex(&b)).unwrap_or_default()),
        second: Some(p.second.to_bytes().map(|b| hex(&b)).unwrap_or_default()),
        first_id: Some(p.first.id().to_hex()),
        second_id: Some(p.second.id().to_hex()),
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

/// Lists the proofs in a `show` answer, if the node holds any (the ruling itself is
/// `sobre_core::record::equivocation::verify_with_proofs`'s).
pub fn annotate(store: &Store, game: &GameId, v: &mut GameView) {
    let proofs = proofs(store, game);
    if proofs.is_empty() {
        return;
    }
    v.equivocations = proofs.iter().map(view).collect();
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
