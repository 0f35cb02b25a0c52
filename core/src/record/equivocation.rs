//! Equivocation proofs, the pure part: a player who signs two different events at the same
//! place in their scoresheet (same game, author and sequence number) has cheated, and the two
//! signed events are the proof anyone can check ([`Proof::holds`]). [`take_conflicts`] finds
//! them among incoming events. Keeping, showing and spreading proofs is the node's
//! (`sobre-node`'s `dispute`).

use super::{GameId, PlayerId, SignedEvent};
use std::collections::{HashMap, HashSet};

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

/// Verifies a game's `events` and rules the equivocations `proofs` prove (12.8/12.9,
/// [`super::GameState::rule_misconduct`]), as `verify` rules a record holding both twins.
///
/// A node keeps one twin in its log and the proof aside: the twins join the replay when the
/// record still verifies with them, else (a later event saw the twin the log does not
/// follow) the log alone is verified and the proven authors are ruled on. Proofs that do not
/// hold, or are of another game, are ignored.
///
/// # Errors
/// As [`super::verify()`] on `events`.
pub fn verify_with_proofs(
    events: &[SignedEvent],
    proofs: &[Proof],
) -> Result<super::GameState, super::VerifyError> {
    let valid: Vec<&Proof> = proofs.iter().filter(|p| p.holds()).collect();
    if valid.is_empty() {
        return super::verify(events);
    }
    let mut all = events.to_vec();
    all.extend(
        valid
            .iter()
            .flat_map(|p| [p.first.clone(), p.second.clone()]),
    );
    if let Ok(state) = super::verify(&all) {
        return Ok(state);
    }
    let mut state = super::verify(events)?;
    let authors: Vec<PlayerId> = valid
        .iter()
        .filter(|p| p.game == state.game)
        .map(|p| p.author)
        .collect();
    state.rule_misconduct(&authors);
    Ok(state)
}
