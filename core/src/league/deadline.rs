//! The start deadline of a league's games: FIDE 6.6 (2009), 6.7 (2005) and the club rules'
//! art. 17b, judged from signed evidence alone.
//!
//! The Laws forfeit a player who is not at the board in time: "Cualquier jugador que se
//! presente ante el tablero luego del comienzo de la sesión perderá la partida … Las bases de
//! la competición podrán especificar otra cosa" (6.6, 2009); "con más de una hora de retraso
//! … perderá la partida salvo que las bases de la competición … decidan otra cosa" (6.7,
//! 2005; club art. 17b). A correspondence league has no board and no session: a league's
//! definition may instead set a [`LeagueRule::StartDeadline`](super::LeagueRule::StartDeadline), the time after a round opens
//! ([`League::round_opens_ms`]) by which each of its games must have started. Leagues whose
//! definition sets none (every league signed before the rule existed) have no deadline,
//! and nothing here applies to them.
//!
//! # Being at the board
//! A player *appears* for a pairing by signing themself into one of its games: an
//! invitation (a challenge with the table's colours — either player may send it, as a node
//! does when the round opens) or the acceptance of the opponent's invitation. A game has
//! *started* once its invitation is accepted. Declining, or aborting, is no appearance.
//!
//! # The rule
//! Judged once the deadline `D` = round opening + deadline has passed (`now > D`):
//! - a game of the pairing started by `D`: nothing to judge, the game counts;
//! - both players appeared by `D` but no game started (crossed invitations, an abort):
//!   neither was absent, so the deadline judges nothing (the arbiter may), and a game
//!   started later counts;
//! - only one player appeared: the other forfeits (`+/-`: 1–0 or 0–1, 11.1 "gana por
//!   incomparecencia"). White who never invited, Black who never accepted an invitation
//!   signed in time, each forfeits alone;
//! - nobody appeared: both forfeit, 0–0 (`-/-`): under 6.6 each player late at the board
//!   loses, so both do; scored as [`LeagueResult::BothLost`].
//!
//! A pairing forfeited by the deadline gets a [`CountedGame`] decided
//! [`Decided::StartDeadline`](super::decision::Decided::StartDeadline), with the id
//! [`verdict_id`] (no document states it: every node computes it from the same evidence).
//! Any game of that pairing, started late or never, is left out with the reason: a late
//! start cannot undo a forfeit, or a player could wait out the deadline and then accept.
//!
//! # Evidence
//! Signed times are a player's word, and here each player gains by dating their own events
//! early. So an event counts as signed at its *evidence time*: the earliest moment someone
//! other than its author signed that they held it — and never before its own signed time:
//! - the league's arbiter for the pairing ([`League::arbiter_for`]: the organiser, or the
//!   deputy for the organiser's games), whose receipts are the evidence: the agreed
//!   timekeeper and mailbox of every league game (the node plays league games on those
//!   terms). Receipts by anyone else are no evidence — in particular a timekeeper named in
//!   an invitation nobody accepted is its sender's word;
//! - the opponent: a receipt of the event, or an event naming it as seen, at its signed
//!   time. Such a countersignature only ever helps the other player (it proves them
//!   present earlier), so it is taken at its word;
//! - any event that names it (`prev`, `seen`, a receipt), at that event's own evidence time:
//!   an event cannot name one that did not exist.
//!
//! An event nobody else vouched for has no evidence time and did not happen by the
//! deadline. `verify`'s own `started_ms` is not used: it does not give the invitation's
//! time, under protocol version 2 it is a signed time, and it trusts the timekeepers of the
//! game's terms, which for an invitation not yet accepted are one player's choice.
//!
//! Limits, on purpose:
//! - A back-dated invitation or acceptance counts when the arbiter or the opponent first
//!   held it, so back-dating gains nothing; an acceptance's evidence time is never before
//!   its invitation's (it names it).
//! - The two players together can date their game as started in time (each vouches for
//!   the other): the deadline protects each player from the other's absence, not the
//!   league from two players who agree — they could sign any game anyway.
//! - The arbiter's receipts are trusted as the timekeeper's (as everywhere in sobre). An
//!   arbiter whose node is off around a deadline leaves only the players' own
//!   countersignatures, and an invitation nobody countersigned is then an absence: a league
//!   with a deadline needs its arbiter's mailbox online.

use super::League;
use super::standings::{CountedGame, LeagueResult};
use crate::outcome::Outcome;
use crate::record::{EventId, EventKind, GameId, GameState, PlayerId, SignedEvent, Status};
use crate::types::Color;
use sha2::{Digest, Sha256};
use std::collections::HashMap;

const VERDICT_ID_DOMAIN: &[u8] = b"sobre/league-start-deadline/v1\0";

/// When each player of a pairing signed themself into its games, by the evidence (the
/// earliest over the pairing's games; `None`: never, as far as the evidence shows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Appearance {
    /// White's invitation, or White's acceptance of Black's.
    pub white_ms: Option<u64>,
    /// Black's acceptance of White's invitation, or Black's own invitation.
    pub black_ms: Option<u64>,
    /// An acceptance of a game not declined or aborted: the game started.
    pub started_ms: Option<u64>,
}

impl Appearance {
    /// The earliest of both, field by field (a pairing's games together).
    pub fn merge(&mut self, other: Appearance) {
        let min = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, None) => x,
            (None, y) => y,
        };
        self.white_ms = min(self.white_ms, other.white_ms);
        self.black_ms = min(self.black_ms, other.black_ms);
        self.started_ms = min(self.started_ms, other.started_ms);
    }
}

/// What the start deadline makes of a pairing not started in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StartVerdict {
    /// Black appeared, White did not: Black wins by forfeit.
    WhiteForfeits,
    /// White appeared, Black did not: White wins by forfeit.
    BlackForfeits,
    /// Neither appeared: both lose (0–0).
    BothForfeit,
}

impl StartVerdict {
    /// The result it gives the pairing.
    pub fn result(self) -> LeagueResult {
        match self {
            StartVerdict::WhiteForfeits => LeagueResult::Outcome(Outcome::Decisive {
                winner: Color::Black,
            }),
            StartVerdict::BlackForfeits => LeagueResult::Outcome(Outcome::Decisive {
                winner: Color::White,
            }),
            StartVerdict::BothForfeit => LeagueResult::BothLost,
        }
    }

    /// Why, in the words of the standings' notes.
    pub fn describe(self) -> &'static str {
        match self {
            StartVerdict::WhiteForfeits => "White did not start it by the deadline (6.6)",
            StartVerdict::BlackForfeits => {
                "Black did not accept an invitation signed by the deadline (6.6)"
            }
            StartVerdict::BothForfeit => "neither player started it by the deadline (6.6)",
        }
    }
}

/// The verdict on a pairing whose games appeared as `seen`, for a deadline at `deadline_ms`,
/// as of `now_ms`: `None` while the deadline has not passed, when a game started in time,
/// or when both players appeared (see the module docs).
pub fn verdict(seen: &Appearance, deadline_ms: u64, now_ms: u64) -> Option<StartVerdict> {
    if now_ms <= deadline_ms {
        return None;
    }
    let by = |t: Option<u64>| t.is_some_and(|t| t <= deadline_ms);
    if by(seen.started_ms) {
        return None;
    }
    match (by(seen.white_ms), by(seen.black_ms)) {
        (true, true) => None,
        (true, false) => Some(StartVerdict::BlackForfeits),
        (false, true) => Some(StartVerdict::WhiteForfeits),
        (false, false) => Some(StartVerdict::BothForfeit),
    }
}

/// How `white` and `black` appeared in one verified game of their pairing: `state` is what
/// `verify` made of `events`; `timekeeper` the league's arbiter for the pairing.
pub fn appearance(
    state: &GameState,
    events: &[SignedEvent],
    white: &PlayerId,
    black: &PlayerId,
    timekeeper: &PlayerId,
) -> Appearance {
    let evidence = evidence_times(state.game, events, state, timekeeper);
    let challenge = evidence.get(&state.game).copied().flatten();
    // Every acceptance in the record (twins included): the earliest evidenced.
    let accepted = events
        .iter()
        .filter_map(|e| {
            let ev = e.decode_unverified().ok()?;
            (matches!(ev.kind, EventKind::Accept(_))
                && ev.game == Some(state.game)
                && ev.author == state.opponent)
                .then(|| evidence.get(&e.id()).copied().flatten())
                .flatten()
        })
        .min();
    let (inviter_ms, acceptor_ms) = (challenge, accepted);
    let (white_ms, black_ms) = if state.challenger == *white {
        (inviter_ms, acceptor_ms)
    } else if state.challenger == *black {
        (acceptor_ms, inviter_ms)
    } else {
        (None, None)
    };
    Appearance {
        white_ms,
        black_ms,
        started_ms: if state.status == Status::Cancelled {
            None
        } else {
            accepted
        },
    }
}

/// The evidence time of every event of `game` among `events` (see the module docs): `None`
/// for an event nobody else vouched for.
fn evidence_times(
    game: GameId,
    events: &[SignedEvent],
    state: &GameState,
    timekeeper: &PlayerId,
) -> HashMap<EventId, Option<u64>> {
    struct Node {
        author: PlayerId,
        time_ms: u64,
        names: Vec<EventId>,
        /// The event a receipt is of, or the one an event says it saw: what a
        /// countersignature vouches for.
        vouches: Vec<EventId>,
    }
    let mut nodes: HashMap<EventId, Node> = HashMap::new();
    for e in events {
        // `verify` checked the signatures already; an event it could not decode is not
        // in the record.
        let Ok(ev) = e.decode_unverified() else {
            continue;
        };
        let id = e.id();
        if id != game && ev.game != Some(game) {
            continue;
        }
        let mut vouches: Vec<EventId> = ev.seen.into_iter().collect();
        if let EventKind::Receipt { event } = ev.kind {
            vouches.push(event);
        }
        let mut names = vouches.clone();
        names.extend(ev.prev);
        nodes.insert(
            id,
            Node {
                author: ev.author,
                time_ms: ev.time_ms,
                names,
                vouches,
            },
        );
    }
    let opponent_of = |p: &PlayerId| {
        if *p == state.challenger {
            Some(state.opponent)
        } else if *p == state.opponent {
            Some(state.challenger)
        } else {
            None
        }
    };
    // Countersignatures: the arbiter's receipts, and the opponent's receipts and `seen`.
    let mut at: HashMap<EventId, u64> = HashMap::new();
    for n in nodes.values() {
        for target in &n.vouches {
            let Some(t) = nodes.get(target) else { continue };
            let arbiter = n.author == *timekeeper && n.author != t.author;
            let opponent = opponent_of(&t.author) == Some(n.author);
            if arbiter || opponent {
                let when = n.time_ms.max(t.time_ms);
                at.entry(*target)
                    .and_modify(|x| *x = (*x).min(when))
                    .or_insert(when);
            }
        }
    }
    // An event held at `t` proves everything it names existed at `t`. Values only go down
    // and never below an event's own signed time, so this ends (in at most one pass per
    // link of the longest chain of references).
    loop {
        let mut changed = false;
        let known: Vec<(EventId, u64)> = at.iter().map(|(k, v)| (*k, *v)).collect();
        for (id, t) in known {
            let Some(n) = nodes.get(&id) else { continue };
            for named in &n.names {
                let Some(m) = nodes.get(named) else { continue };
                let when = t.max(m.time_ms);
                let slot = at.entry(*named).or_insert(u64::MAX);
                if when < *slot {
                    *slot = when;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    nodes
        .keys()
        .map(|id| (*id, at.get(id).copied().filter(|&t| t != u64::MAX)))
        .collect()
}

/// The id of the counted game a start-deadline verdict gives a pairing: derived from the
/// league, the round and the players, so that every node names it alike.
pub fn verdict_id(league: &League, round: u32, white: &PlayerId, black: &PlayerId) -> EventId {
    let mut h = Sha256::new();
    h.update(VERDICT_ID_DOMAIN);
    h.update(league.id.0);
    h.update(round.to_le_bytes());
    h.update(white.as_bytes());
    h.update(black.as_bytes());
    EventId(h.finalize().into())
}

/// The counted game of a pairing forfeited by the deadline.
pub(super) fn forfeited(
    league: &League,
    round: u32,
    white: PlayerId,
    black: PlayerId,
    verdict: StartVerdict,
) -> CountedGame {
    CountedGame {
        game: verdict_id(league, round, &white, &black),
        round,
        white,
        black,
        status: Status::Finished,
        result: Some(verdict.result()),
        plies: 0,
        decided: Some(super::decision::Decided::StartDeadline(verdict)),
    }
}

#[cfg(test)]
#[path = "deadline_tests.rs"]
mod tests;
