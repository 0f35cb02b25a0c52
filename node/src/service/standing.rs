//! Who is a stranger to this node (issue 30). Identities are free, so nothing a key can do
//! alone — challenge, abort, name this node as an arbiter in a game with another key of its
//! own — may make it known: known players are the player's contacts, the members and
//! organisers of the leagues the node holds, and those the player has *played* (a game
//! between them got past its challenge: [`crate::view::Summary::played`]).
//!
//! A game gives its other players standing by itself when the player plays it and it was
//! played, or is the player's own challenge or one the player accepted, not cancelled; a mailbox's games give their players
//! standing once played (a mailbox has its own limits, see `quota`). Any other game — a
//! stranger's challenge, answered or aborted, a game between two others held as the arbiter
//! of an envelope — gives standing only to players known for another reason. Standing is
//! what earns a reserved connection (`access::reserve_players`), a place among the
//! remembered peers (`remember`) and an exemption from the strangers' hourly budget
//! (`quota::stranger_budget`).
//!
//! Also here: the peers whose deliveries keep being refused as `NotOurs` ([`NotOurs`]).

use super::Service;
use crate::view::Summary;
use libp2p::PeerId;
use sobre_core::record::{GameId, PlayerId, Status};
use std::collections::{HashMap, HashSet, VecDeque};

const HOUR_MS: u64 = 3600 * 1000;

/// Distinct games one peer may deliver in an hour that this node refuses as not its own
/// before each further one costs a strike. An honest node meets `NotOurs` for a challenge
/// the player dropped or a league game sent before the league: a few games, each retried by
/// its outbox (a retry of the same game is free). A stranger sending fresh games to defeat
/// the recent-events cache is cut off after this many plus the network's `max_strikes`.
pub(crate) const NOT_OURS_FREE_PER_HOUR: usize = 16;

/// Peers kept on record at most by [`NotOurs`]; past it the oldest records go (a peer that
/// is forgotten starts again at zero, which only costs this node the free allowance again).
const NOT_OURS_PEERS: usize = 4_096;

/// The games each peer delivered in the last hour that were refused as not this node's.
#[derive(Default)]
pub(crate) struct NotOurs(HashMap<PeerId, VecDeque<(u64, GameId)>>);

impl NotOurs {
    /// Notes that `peer` delivered `game`, refused as not ours, at `now`; true if it is a new
    /// game beyond [`NOT_OURS_FREE_PER_HOUR`] of this peer's this hour (worth a strike).
    pub(crate) fn note(&mut self, peer: PeerId, game: GameId, now: u64) -> bool {
        if self.0.len() >= NOT_OURS_PEERS && !self.0.contains_key(&peer) {
            self.0
                .retain(|_, q| q.back().is_some_and(|(t, _)| t + HOUR_MS > now));
            if self.0.len() >= NOT_OURS_PEERS {
                self.0.clear();
            }
        }
        let q = self.0.entry(peer).or_default();
        while q.front().is_some_and(|(t, _)| t + HOUR_MS <= now) {
            q.pop_front();
        }
        if q.iter().any(|(_, g)| *g == game) {
            return false;
        }
        q.push_back((now, game));
        // Bounded: the free allowance, plus the strikes that end in a block.
        if q.len() > 2 * NOT_OURS_FREE_PER_HOUR {
            q.pop_front();
        }
        q.len() > NOT_OURS_FREE_PER_HOUR
    }
}

impl Service {
    /// Whether `s` gives its players standing by itself (see the module's doc).
    pub(super) fn gives_standing(&self, s: &Summary) -> bool {
        if s.plays(&self.identity.me()) {
            // The player's own challenge, or a stranger's the player accepted whose fair
            // coin is still to be opened (F1): the player chose to play.
            let chosen = s.challenger == self.identity.me() || s.coin_deadline_ms.is_some();
            s.played || (chosen && s.status != Status::Cancelled)
        } else {
            self.identity.is_mailbox() && s.played
        }
    }

    /// The players known to the player: contacts, league members and organisers, and those
    /// the player has played. Reads the contacts and the leagues: call it once per decision,
    /// and only for a game that gives no standing by itself.
    pub(super) fn known_players(&self) -> HashSet<PlayerId> {
        let mut known = self.trusted_players();
        for s in self.games.values() {
            if s.played && s.plays(&self.identity.me()) {
                known.insert(s.challenger);
                known.insert(s.opponent);
            }
        }
        known.remove(&self.identity.me());
        known
    }

    /// Whether `s` gives its players standing: by itself, or because one of them is known
    /// (`known` from [`Service::known_players`], asked for only when needed).
    pub(super) fn stands(&self, s: &Summary, known: &mut Option<HashSet<PlayerId>>) -> bool {
        if self.gives_standing(s) {
            return true;
        }
        let known = known.get_or_insert_with(|| self.known_players());
        known.contains(&s.challenger) || known.contains(&s.opponent)
    }

    /// Whether the events of a game this node does not hold may be kept here, from their
    /// content alone (no signature checked yet), and why not.
    pub(super) fn new_game_content(&self, fresh: &[(sobre_core::record::Event, usize)]) -> Content {
        let events: Vec<&sobre_core::record::Event> = fresh.iter().map(|(e, _)| e).collect();
        let holds_league =
            |l: &sobre_core::record::EventId| self.store.league_get(l).ok().flatten().is_some();
        let mut trusted: Option<HashSet<PlayerId>> = None;
        let mut trusted_player = |p: &PlayerId| {
            trusted
                .get_or_insert_with(|| self.trusted_players())
                .contains(p)
        };
        content(
            &self.identity.me(),
            self.identity.is_mailbox(),
            &events,
            &holds_league,
            &mut trusted_player,
        )
    }
}

/// What the content of a game this node does not hold says about keeping it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Content {
    /// The events lack the game's challenge: refused as missing history, as the replay
    /// would refuse them, before any signature is checked.
    NoChallenge,
    /// None of this node's business: refused `NotOurs` before any signature is checked.
    NotOurs,
    /// Worth checking: it may be kept.
    Ours,
}

/// The cheap facts of a game this node does not hold (`events` are the game's, decoded and
/// not yet verified). Ours: a challenge from or to `me`, a game a mailbox keeps, a game of a
/// league (`holds_league` says whether it is one this node holds: a member keeps only
/// those), a game whose agreed terms name `me` as its arbiter, or a game with an envelope
/// escrowed to `me` one of whose players is a contact or league member (`trusted`): a tag-0
/// escrow two fresh keys make up must not make an arbiter of anyone they like.
///
/// Shared with the `preverify` stage, which knows no contacts nor leagues and so passes
/// `|_| true` and `|_| false`: it checks the signatures of what may be ours, the service
/// decides.
pub(crate) fn content(
    me: &PlayerId,
    mailbox: bool,
    events: &[&sobre_core::record::Event],
    holds_league: &dyn Fn(&sobre_core::record::EventId) -> bool,
    trusted: &mut dyn FnMut(&PlayerId) -> bool,
) -> Content {
    use sobre_core::record::EventKind;
    let Some((challenger, challenge, terms)) =
        events.iter().find_map(|e| match e.kind.challenge() {
            Some((c, t)) if e.game.is_none() => Some((e.author, c, t)),
            _ => None,
        })
    else {
        return Content::NoChallenge;
    };
    if mailbox || challenger == *me || challenge.opponent == *me {
        return Content::Ours;
    }
    if let Some(lr) = &challenge.league {
        return if holds_league(&lr.league) {
            Content::Ours
        } else {
            Content::NotOurs
        };
    }
    // The arbiter the agreed terms name keeps the game: they rule on 10.2 claims and A11
    // (what such a game may make this node store is the strangers' budget's, unless one of
    // its players is known).
    if terms.is_some_and(|t| t.arbiter == Some(*me)) {
        return Content::Ours;
    }
    let escrowed_here = events
        .iter()
        .any(|e| matches!(&e.kind, EventKind::Escrow { arbiter, .. } if arbiter == me));
    if escrowed_here && (trusted(&challenger) || trusted(&challenge.opponent)) {
        return Content::Ours;
    }
    Content::NotOurs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer() -> PeerId {
        PeerId::random()
    }

    #[test]
    fn retries_of_one_game_are_free_and_fresh_games_past_the_allowance_are_not() {
        let mut n = NotOurs::default();
        let p = peer();
        let g = sobre_core::record::EventId([1; 32]);
        for _ in 0..100 {
            assert!(!n.note(p, g, 1_000));
        }
        for i in 2..=NOT_OURS_FREE_PER_HOUR as u8 {
            assert!(
                !n.note(p, sobre_core::record::EventId([i; 32]), 1_000),
                "game {i}"
            );
        }
        assert!(n.note(p, sobre_core::record::EventId([200; 32]), 1_000));
        // Another peer starts at zero; an hour later this one does too.
        assert!(!n.note(peer(), sobre_core::record::EventId([200; 32]), 1_000));
        assert!(!n.note(p, sobre_core::record::EventId([201; 32]), 1_000 + HOUR_MS));
    }
}
