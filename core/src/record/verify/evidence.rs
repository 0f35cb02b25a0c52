//! The evidence of time in the replay (docs/time.md): the countersignatures learnt from the
//! record, and when an event counts for its author, reached the other player, or is judged
//! — under protocol version 2 (the first countersignature) and version 3 (agreed
//! timekeepers, or transit bounded by the allowance). A separate concern from applying the
//! rules: every verdict on time asks these functions.

use super::replay::Replay;
use crate::position::Position;
use crate::record::event::{EventId, EventKind, VerifiedEvent};
use crate::record::identity::PlayerId;
use crate::record::time;
use crate::types::Color;
use std::collections::HashMap;

impl Replay {
    /// The event a countersignature `v` vouches for, with the countersigner: a receipt's event,
    /// or the event `v` says it saw. Whether it is by someone else is checked by the caller.
    fn vouched_by(v: &VerifiedEvent) -> [Option<EventId>; 2] {
        let receipt = match v.event.kind {
            EventKind::Receipt { event } => Some(event),
            _ => None,
        };
        [receipt, v.event.seen]
    }

    /// Notes the countersignatures among `events` (see [`Replay::countersigned`]). Idempotent:
    /// the earliest wins. The author of a vouched-for event is looked up among `events` and
    /// the events already applied.
    pub(super) fn learn_countersignatures(&mut self, events: &[&VerifiedEvent]) {
        if !self.evidence {
            return;
        }
        let authors: HashMap<EventId, PlayerId> =
            events.iter().map(|v| (v.id, v.event.author)).collect();
        for v in events {
            for target in Self::vouched_by(v).into_iter().flatten() {
                let author = authors.get(&target).copied().or_else(|| {
                    self.position_in_timeline
                        .get(&target)
                        .and_then(|&i| self.authors.get(i))
                        .map(|&(a, _)| a)
                });
                if author.is_none_or(|a| a == v.event.author) {
                    continue;
                }
                let by = v.event.author;
                let player = by == self.state.challenger || by == self.state.opponent;
                let at = v.event.time_ms;
                if self.agreed {
                    // Protocol version 3: the other player's countersignature bounds transit;
                    // an agreed timekeeper's receipt is the event's time; anyone else's
                    // receipt is kept in the record but is no evidence (docs/time.md).
                    if player {
                        lower(&mut self.countersigned, target, at);
                    } else if self.state.terms.is_timekeeper(&by)
                        && matches!(v.event.kind, EventKind::Receipt { .. })
                    {
                        lower(&mut self.stamped, target, at);
                    }
                    continue;
                }
                lower(&mut self.countersigned, target, at);
                if !player {
                    lower(&mut self.witnessed, target, at);
                }
            }
        }
    }

    /// Whether learning `v` as a countersignature could change a verdict already given: it
    /// vouches for an event at or before the first time or lateness claim (which was judged
    /// on the evidence known then). The incremental paths replay the whole record instead.
    pub(super) fn rejudges(&self, v: &VerifiedEvent) -> bool {
        if self.timed_claim.is_none() && self.arrivals.is_empty() && self.frozen.is_empty() {
            return false;
        }
        let claim = self.timed_claim;
        Self::vouched_by(v).into_iter().flatten().any(|target| {
            self.position_in_timeline.get(&target).is_some_and(|&i| {
                self.authors[i].0 != v.event.author
                    && (claim.is_some_and(|c| i <= c)
                        || self.arrivals.contains(&target)
                        || self.frozen.contains(&target))
            })
        })
    }

    /// Under protocol version 3, when event `id` (signed at `t`) counts for its author: with
    /// timekeepers, its earliest timekeeper receipt (`u64::MAX` until one is known: a move
    /// no timekeeper has seen is not yet made, as on a correspondence server); without, its
    /// effective time (its signed time, never before the events it refers to).
    pub(super) fn made_at(&self, id: &EventId, t: u64) -> u64 {
        let eff = self.effective.get(id).copied().unwrap_or(t);
        if self.state.terms.timekeepers.is_empty() {
            return eff;
        }
        self.stamped.get(id).map_or(u64::MAX, |&s| s.max(eff))
    }

    /// Under protocol version 3, when event `id` (signed at `t`) reached the other player:
    /// with timekeepers, when it counts ([`Replay::made_at`]); without, the other player's
    /// first countersignature bounded to `[effective, effective + allowance]` — so an absent
    /// receiver costs the mover at most the allowance, and a receipt dated ahead gains the
    /// receiver at most the allowance. With no countersignature, effective + allowance.
    pub(super) fn reached(&self, id: &EventId, t: u64) -> u64 {
        if !self.state.terms.timekeepers.is_empty() {
            return self.made_at(id, t);
        }
        let eff = self.effective.get(id).copied().unwrap_or(t);
        let cap = eff.saturating_add(self.allowance);
        self.countersigned
            .get(id)
            .map_or(cap, |&c| c.clamp(eff, cap))
    }

    /// When the challenger's time to open the coin starts (F1): when the acceptance reached
    /// her, by the timekeepers if any, else by her own first countersignature, *not* capped
    /// by the allowance; `None` while she has not countersigned it (no default is valid yet).
    ///
    /// Unlike a clock, this deadline gives the challenger no choice worth having: the draw is
    /// fixed by her commitment and the opponent's share, and withholding the opening still
    /// costs her the draw, so a late countersignature can only delay the game. Capping it
    /// instead would let an acceptor who back-dates the acceptance and defaults at once
    /// take the draw from an honest challenger whose node was off (clocks issue, case 3).
    /// Requiring her countersignature keeps the verdict monotone: more evidence only makes
    /// the deadline earlier, so a default once valid stays valid.
    pub(super) fn coin_reached(&self, id: &EventId, t: u64) -> Option<u64> {
        if !self.state.terms.timekeepers.is_empty() {
            return Some(self.made_at(id, t));
        }
        let eff = self.effective.get(id).copied().unwrap_or(t);
        self.countersigned.get(id).map(|&c| c.max(eff))
    }

    /// The moment the game's clocks start: when the event that started the game reached
    /// the first player to move (at once, if that player signed it). Under protocol versions
    /// 1 and 2, the starting event's signed time.
    pub(super) fn start_ms(&self) -> Option<u64> {
        if !self.agreed {
            return self.state.started_ms;
        }
        let (id, author) = self.start_event?;
        let t = self.times.get(&id).copied().unwrap_or(0);
        let first = self
            .state
            .start
            .as_ref()
            .map_or(Color::White, Position::turn);
        Some(if self.state.player(first) == Some(author) {
            self.made_at(&id, t)
        } else {
            self.reached(&id, t)
        })
    }

    /// When an event that helps its author by being early (a move) counts as made: its
    /// effective time, or its first countersignature if later — it could not be shown to
    /// exist before that. Under protocol version 1, its signed time `t`.
    pub(super) fn counted_at(&self, id: &EventId, t: u64) -> u64 {
        if !self.evidence {
            return t;
        }
        if self.agreed {
            return self.made_at(id, t);
        }
        let eff = self.effective.get(id).copied().unwrap_or(t);
        self.countersigned.get(id).map_or(eff, |&c| c.max(eff))
    }

    /// When a claim that helps its claimant by being late (on time, 6.9; lateness, A10) is
    /// judged: its effective time, or its first countersignature if earlier — a claim dated
    /// ahead of the clock of whoever first held it is judged at that moment. Under protocol
    /// version 1, its signed time `t`.
    ///
    /// The other player gains by an early verdict, so their countersignature moves it back
    /// by at most [`time::MAX_CLOCK_SKEW_MS`] (the skew every node tolerates, and the most an
    /// honest node signs a receipt of the claim before it, see
    /// [`crate::record::time::check_claim_countersignature`]): an opponent who dates their
    /// receipt of a correct claim a day back cannot make it incorrect, in their own archive
    /// either. A witness's (neither player: a mailbox, an arbiter) has no such bound: a claim
    /// forward-dated by a lying clock is judged when the witness first held it.
    pub(super) fn judged_at(&self, id: &EventId, t: u64) -> u64 {
        if !self.evidence {
            return t;
        }
        let eff = self.effective.get(id).copied().unwrap_or(t);
        if self.agreed {
            // Protocol version 3: as version 2, but only the agreed timekeepers are
            // witnesses (a key one player named is no evidence).
            let by_player = self.countersigned.get(id).map_or(u64::MAX, |&c| {
                c.max(t.saturating_sub(time::MAX_CLOCK_SKEW_MS))
            });
            let by_timekeeper = self.stamped.get(id).copied().unwrap_or(u64::MAX);
            return eff.min(by_player).min(by_timekeeper);
        }
        let Some(&first) = self.countersigned.get(id) else {
            return eff;
        };
        let by_player = first.max(t.saturating_sub(time::MAX_CLOCK_SKEW_MS));
        let by_witness = self.witnessed.get(id).copied().unwrap_or(u64::MAX);
        eff.min(by_player).min(by_witness)
    }
}

/// Lowers the time kept for `id` in `map` to `at` (the earliest wins).
fn lower(map: &mut HashMap<EventId, u64>, id: EventId, at: u64) {
    let t = map.entry(id).or_insert(u64::MAX);
    *t = (*t).min(at);
}
