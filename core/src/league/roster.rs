//! Roster decisions: a late entry or a replacement, signed by the league's arbiter before
//! round 1 (see [`super::decision`] for who signs and what "before round 1" means), applied
//! to the list of players before the games are counted, in the order signed.

use super::decision::{CheckedDecision, Decision, DecisionNote};
use super::standings::GameEntry;
use super::{League, LeagueKind, SignedLeagueDoc};
use crate::record::{PlayerId, Status};
use std::collections::BTreeSet;

/// Pairings with a game both players signed into: (round, white, black).
pub type Started = BTreeSet<(u32, PlayerId, PlayerId)>;

/// Whether a league document says it is a roster decision, adding or replacing a player
/// (its signature not checked: [`amend`] checks it).
pub fn is_roster_decision(doc: &SignedLeagueDoc) -> bool {
    crate::record::codec::decode::<super::LeagueDoc>(
        &doc.body,
        crate::record::codec::MAX_EVENT_BYTES,
    )
    .is_ok_and(
        |d| matches!(d.kind, LeagueKind::Decision { ref decision, .. } if decision.is_roster()),
    )
}

/// The pairings of `league` with a game both players signed into (challenge and
/// acceptance; a declined or aborted challenge is none), among the games offered that
/// verify: what a roster decision may not remove.
pub fn started_pairings(league: &League, offered: &[GameEntry]) -> Started {
    offered
        .iter()
        .filter_map(|g| crate::record::verify(&g.events).ok())
        .filter(|s| {
            s.challenge
                .league
                .as_ref()
                .is_some_and(|lr| lr.league == league.id)
                && s.started_ms.is_some()
                && s.status != Status::Cancelled
        })
        .filter_map(|s| {
            let round = s.challenge.league.as_ref()?.round;
            Some((round, s.white?, s.black?))
        })
        .collect()
}

/// A league as its roster decisions leave it.
#[derive(Clone, Debug)]
pub struct Amended {
    /// The league with the players and names after the roster decisions.
    pub league: League,
    /// The roster decisions applied, in order, each with what it did.
    pub applied: Vec<DecisionNote>,
    /// Roster decisions left out (not valid for the list at the time, or signed once round
    /// 1 had opened) or without effect (a started game is a pairing they would remove).
    pub not_applied: Vec<DecisionNote>,
}

/// Applies the roster decisions (late entries, replacements) of `decisions` to `league`,
/// in the order signed, each checked against the list the ones before it left; `started`
/// are the pairings a game was started for (see [`started_pairings`]). Decisions whose
/// signer is wrong are skipped here: [`apply`] names them.
pub fn amend(league: &League, decisions: &[SignedLeagueDoc], started: &Started) -> Amended {
    let mut roster: Vec<CheckedDecision> = decisions
        .iter()
        .filter(|d| is_roster_decision(d))
        .filter_map(|d| league.check_signer(d).ok())
        .filter(|c| c.decision.is_roster())
        .collect();
    roster.sort_by_key(|c| (c.time_ms, c.id));
    roster.dedup_by_key(|c| c.id);
    let mut current = league.clone();
    let mut applied = Vec::new();
    let mut not_applied = Vec::new();
    for c in roster {
        if let Err(e) = current.check_content(&c) {
            not_applied.push(DecisionNote {
                doc: c.id,
                text: e.to_string(),
                excluded: true,
            });
            continue;
        }
        let next = current.with_roster(&c.decision);
        // A game both players signed whose pairing the new list no longer has.
        if let Some((round, w, b)) = started
            .iter()
            .find(|(r, w, b)| current.is_pairing(*r, w, b) && !next.is_pairing(*r, w, b))
        {
            not_applied.push(DecisionNote {
                doc: c.id,
                text: format!(
                    "without effect: round {round}'s game {} – {} was started, and a decision never overrides a signed game",
                    current.name(w),
                    current.name(b)
                ),
                excluded: false,
            });
            continue;
        }
        let text = match &c.decision {
            Decision::Enter { name, .. } => format!(
                "{name} enters the league before round 1 as number {}",
                next.def.players.len()
            ),
            Decision::Replace { out, name, .. } => format!(
                "{name} replaces {} (number {}) before round 1",
                current.name(out),
                current.number(out).unwrap_or_default()
            ),
            _ => String::new(),
        };
        applied.push(DecisionNote {
            doc: c.id,
            text,
            excluded: false,
        });
        current = next;
    }
    Amended {
        league: current,
        applied,
        not_applied,
    }
}

impl League {
    /// The league with a roster decision's list of players (checked already).
    pub(super) fn with_roster(&self, d: &Decision) -> League {
        let mut out = self.clone();
        match d {
            Decision::Enter { player, name } => {
                out.def.players.push(*player);
                out.def.names.push(name.clone());
            }
            Decision::Replace {
                out: gone,
                player,
                name,
            } => {
                if let Some(i) = self.number(gone).map(|n| n - 1) {
                    out.def.players[i] = *player;
                    out.def.names[i] = name.clone();
                }
            }
            _ => {}
        }
        out
    }
}
