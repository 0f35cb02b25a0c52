//! When the node reminds the player (see [`crate::reminders`]), and the claims it makes by
//! itself when `auto_claim` is set.
//!
//! A move arriving is reminded as it is taken (`after_opponent_events`); the rest on the
//! periodic tick: the player's clock running low, the opponent overdue with a claim possible,
//! an adjourned game resuming soon, a league round open. Every reminder is recorded once
//! under its key ([`Service::remind`]).
//!
//! Claims are never judged here: whether a claim of a win on time (6.9) or on lateness
//! (A10) is possible is asked of the rules core itself, by replaying the game with the claim
//! signed by a throwaway copy of the player's scoresheet that is never stored or sent
//! ([`Service::claim_would_stand`]) — the verdict `verify` gives every node and every third
//! party. An automatic claim is made only when that verdict holds now and, by the core's own
//! figures (the flag's fall, the end of the lateness limit), at any moment of the last
//! [`MAX_CLOCK_SKEW_MS`]: a claim is judged no later than its first countersignature,
//! and an opponent whose node dates its receipt of the claim back by as much as the skew the
//! protocol tolerates (a clock running late, or lying within the tolerance) must not turn it
//! into an incorrect claim.

use super::Service;
use super::author::last_other_in;
use super::reads::ReadSide;
use crate::api::watch::WatchEvent;
use crate::reminders::{Reminder, ReminderKind};
use crate::time::now_ms;
use sobre_core::Color;
use sobre_core::clock::TimeControl;
use sobre_core::league::Board;
use sobre_core::record::author::Scoresheet;
use sobre_core::record::time::MAX_CLOCK_SKEW_MS;
use sobre_core::record::{ClaimReason, GameId, GameState, Status, verify_incremental};
use tracing::{info, warn};

impl Service {
    /// Records the reminder `key` and tells the player, unless it fired before (ever: the
    /// record survives restarts). Returns whether it fired now.
    pub(super) fn remind(
        &mut self,
        game: Option<&GameId>,
        key: String,
        kind: ReminderKind,
    ) -> bool {
        if self.store.reminder_fired(&key) {
            return false;
        }
        // The line in English is the kind's own ([`ReminderKind::english`]): a client words
        // it in its player's language from the same fields.
        let short = game.map(|g| g.to_hex()[..8].to_owned()).unwrap_or_default();
        let text = kind.english(&short).unwrap_or_default();
        let r = Reminder {
            key,
            game: game.map(GameId::to_hex),
            time_ms: now_ms(),
            text,
            kind,
        };
        match self.store.reminder_put(&r) {
            Ok(true) => {}
            Ok(false) => return false,
            Err(e) => {
                warn!(key = %r.key, "reminder not recorded, not sent: {e}");
                return false;
            }
        }
        self.commits.wrote();
        info!(key = %r.key, "reminder: {}", r.text);
        self.publish_reminder(&r);
        self.reminding.deliver(r);
        true
    }

    /// Shows `r` to the watchers: event `reminder`, with the reminder's own fields.
    fn publish_reminder(&self, r: &Reminder) {
        self.watchers.publish(WatchEvent::reminder(r));
    }

    /// The opponent's moves among `fresh` (just taken in `game`), each reminded once.
    pub(super) fn remind_moves(
        &mut self,
        game: &GameId,
        fresh: &[sobre_core::record::SignedEvent],
    ) {
        let Some(cache) = self.hot.peek(game) else {
            return;
        };
        let state = &cache.state;
        if state.colour_of(&self.identity.me()).is_none() {
            return;
        }
        let ids: std::collections::HashSet<_> = fresh.iter().map(|e| e.id()).collect();
        let arrived: Vec<(u32, String, String)> = state
            .moves
            .iter()
            .enumerate()
            .filter(|(_, m)| ids.contains(&m.event))
            .filter_map(|(i, m)| {
                let by = state.player(m.by)?;
                (by != self.identity.me()).then(|| (i as u32 + 1, m.san.clone(), by.to_string()))
            })
            .collect();
        for (ply, san, by) in arrived {
            self.remind(
                Some(game),
                format!("move_arrived:{game}:{ply}"),
                ReminderKind::MoveArrived { san, ply, by },
            );
        }
    }

    /// The periodic reminders, and the automatic claims.
    pub(super) async fn reminder_tick(&mut self) {
        let rounds_due = self.reminding.tick();
        let now = now_ms();
        let mine: Vec<GameId> = self
            .games
            .iter()
            .filter(|(_, s)| matches!(s.status, Status::Active | Status::Adjourned))
            .filter(|(_, s)| s.colour_of(&self.identity.me()).is_some())
            .map(|(g, _)| *g)
            .collect();
        // Only games still in play are checked for claims.
        let games = &self.games;
        self.reminding.keep_checks(|g| {
            games
                .get(g)
                .is_some_and(|s| matches!(s.status, Status::Active | Status::Adjourned))
        });
        for game in mine {
            self.remind_clock(&game, now);
            self.check_time_claim(&game, now).await;
            self.check_adjourned(&game, now).await;
        }
        if rounds_due {
            self.remind_rounds(now);
        }
    }

    /// The player is to move with less time left than the settings say.
    fn remind_clock(&mut self, game: &GameId, now: u64) {
        let Some(s) = self.games.get(game) else {
            return;
        };
        let Some(me) = s.colour_of(&self.identity.me()) else {
            return;
        };
        if s.status != Status::Active || s.turn != me {
            return;
        }
        let Some(deadline) = s.clocks.as_ref().and_then(|c| c.deadline_ms) else {
            return;
        };
        let Ok(tc) = s.time_control.parse::<TimeControl>() else {
            return;
        };
        let threshold = self.reminding.clock_low_threshold_ms(&tc);
        let left = i64::try_from(deadline).unwrap_or(i64::MAX) - i64::try_from(now).unwrap_or(0);
        if threshold == 0 || left <= 0 || left > i64::try_from(threshold).unwrap_or(i64::MAX) {
            return;
        }
        let key = format!("clock_low:{game}:{}{}", s.move_number, me.name());
        self.remind(
            Some(game),
            key,
            ReminderKind::ClockLow {
                ms_left: left,
                deadline_ms: deadline,
            },
        );
    }

    /// The opponent is to move and overdue (or their flag fell earlier, 6.8): a claim of a
    /// win on time is reminded once the core would judge it correct, and made by the node
    /// with `auto_claim`.
    async fn check_time_claim(&mut self, game: &GameId, now: u64) {
        let Some(s) = self.games.get(game) else {
            return;
        };
        let Some(me) = s.colour_of(&self.identity.me()) else {
            return;
        };
        if s.status != Status::Active {
            return;
        }
        let Some(c) = &s.clocks else { return };
        let overdue =
            c.flagged == Some(!me) || (s.turn == !me && c.deadline_ms.is_some_and(|d| d <= now));
        if !overdue {
            return;
        }
        let ply_key = format!("{}{}", s.move_number, s.turn.name());
        self.claim_if_it_stands(game, ClaimReason::Time, &ply_key, now)
            .await;
    }

    /// An adjourned game: its resumption soon, and a lateness claim (A10) once the opponent
    /// is more than the limit late.
    async fn check_adjourned(&mut self, game: &GameId, now: u64) {
        if self.games.get(game).map(|s| s.status) != Some(Status::Adjourned) {
            return;
        }
        if self.ensure_hot(game).is_err() {
            return;
        }
        let Some((resume, limit, sealed_at)) = self.hot.peek(game).and_then(|c| {
            let a = c.state.adjournment()?;
            Some((a.resume_at_ms?, a.limit_ms, a.sealed_at_ms))
        }) else {
            return;
        };
        let ahead = self.reminding.resumption_ahead_ms();
        if now < resume && resume - now <= ahead {
            let left = i64::try_from(resume - now).unwrap_or(i64::MAX);
            self.remind(
                Some(game),
                format!("resumption:{game}:{resume}"),
                ReminderKind::Resumption {
                    resume_at_ms: resume,
                    ms_left: Some(left),
                },
            );
        }
        if now > resume.saturating_add(limit) {
            let key = format!("{sealed_at}");
            self.claim_if_it_stands(game, ClaimReason::Lateness, &key, now)
                .await;
        }
    }

    /// Reminds a claim the core would judge correct now, and with `auto_claim` makes it
    /// when it would stand judged anywhere in the last [`MAX_CLOCK_SKEW_MS`] too
    /// ([`beyond_skew`]), after a reminder.
    async fn claim_if_it_stands(
        &mut self,
        game: &GameId,
        reason: ClaimReason,
        key: &str,
        now: u64,
    ) {
        let name = reason.name();
        let possible_key = format!("claim_possible:{game}:{name}:{key}");
        let auto_key = format!("auto_claim:{game}:{name}:{key}");
        // Nothing left to say or do for this turn: no replay.
        if self.store.reminder_fired(&possible_key)
            && (!self.reminding.auto_claim() || self.store.reminder_fired(&auto_key))
        {
            return;
        }
        if !self.reminding.claim_check_due(*game, now) {
            return;
        }
        if self.restoring.is_restoring(game) || self.ensure_hot(game).is_err() {
            return;
        }
        let opponent = self
            .games
            .get(game)
            .and_then(|s| {
                [s.challenger, s.opponent]
                    .into_iter()
                    .find(|p| *p != self.identity.me())
            })
            .map(|p| p.to_string())
            .unwrap_or_default();
        let Some(judged) = self.claim_would_stand(game, reason, now) else {
            return;
        };
        self.remind(
            Some(game),
            possible_key,
            ReminderKind::ClaimPossible {
                reason: name.to_owned(),
                opponent,
            },
        );
        if !self.reminding.auto_claim()
            || !judged
                .colour_of(&self.identity.me())
                .is_some_and(|me| beyond_skew(&judged, me, reason, now))
        {
            return;
        }
        // One automatic claim per reminder: a claim later judged incorrect on new evidence
        // (a countersignature dated beyond the skew) is not repeated by the node.
        if !self.remind(
            Some(game),
            auto_key,
            ReminderKind::AutoClaim {
                reason: name.to_owned(),
            },
        ) {
            return;
        }
        match self.author(game, |s, t| s.claim(reason, None, t)).await {
            Ok((_, state)) => match state.claims.last() {
                Some(c) if c.correct => info!(%game, "automatic claim ({name}): {}", c.judgement),
                Some(c) => {
                    warn!(%game, "automatic claim ({name}) judged incorrect: {}", c.judgement)
                }
                None => warn!(%game, "automatic claim ({name}) not recorded"),
            },
            Err(e) => warn!(%game, "automatic claim ({name}) not made: {}", e.message),
        }
    }

    /// Whether a claim by the player, signed at `at`, would be judged correct by the rules
    /// core on the record as this node holds it. The claim is signed by a copy of the
    /// player's scoresheet and thrown away: never stored, never sent, so its sequence
    /// number is free for the real one.
    /// Returns the state the claim would give when it is correct.
    pub(super) fn claim_would_stand(
        &self,
        game: &GameId,
        reason: ClaimReason,
        at: u64,
    ) -> Option<GameState> {
        let cache = self.hot.peek(game)?;
        let mut sheet = match &cache.sheet {
            Some(s) => Scoresheet::resume(
                self.identity.key().clone(),
                *game,
                s.seq(),
                s.last(),
                s.seen(),
            ),
            None => Scoresheet::join(self.identity.key().clone(), *game),
        };
        if let Some(seen) = last_other_in(cache, &self.identity.me()) {
            sheet.saw(seen);
        }
        let claim = sheet.claim(reason, None, at).ok()?;
        // Its one signature is checked again here: cheaper than copying the game's events.
        let state = verify_incremental(
            &cache.events[..cache.kept],
            std::slice::from_ref(&claim),
            Some(at),
        )
        .ok()?;
        let id = claim.id();
        state
            .claims
            .iter()
            .any(|c| c.event == id && c.correct)
            .then_some(state)
    }

    /// The rounds open in the leagues the player joined, where they have a game.
    fn remind_rounds(&mut self, now: u64) {
        for league in self.leagues() {
            let Some(me) = league.number(&self.identity.me()) else {
                continue;
            };
            if !self
                .store
                .has_join(&league.id, &self.identity.me())
                .unwrap_or(false)
            {
                continue;
            }
            let rounds = league.rounds();
            for round in league.open_rounds(now) {
                let plays = rounds.get(round as usize - 1).is_some_and(|boards| {
                    boards.iter().any(|b| {
                        matches!(*b, Board::Game { white, black } if white == me || black == me)
                    })
                });
                if !plays {
                    continue;
                }
                let id = league.id.to_hex();
                let name = league.def.name.clone();
                self.remind(
                    None,
                    format!("league_round:{id}:{round}"),
                    ReminderKind::LeagueRound {
                        league: id,
                        name,
                        round,
                        opens_ms: league.round_opens_ms(round),
                    },
                );
            }
        }
    }
}

/// Whether a claim judged correct now (`judged`: the state it gives) is correct at every
/// moment of the last [`MAX_CLOCK_SKEW_MS`] too, read from the core's own figures: the
/// opponent's flag fell (6.9), or the limit after the resumption passed (A10), at least that
/// long ago. (Correct now, the rest of the verdict does not change over that time: a flag
/// once down stays down, and the claimant has not moved since the fall or played on.) A
/// claim is judged no later than its first countersignature, which an honest node may date
/// up to the skew before the claim: the claim stands whatever the date.
fn beyond_skew(judged: &GameState, me: Color, reason: ClaimReason, now: u64) -> bool {
    let since = match reason {
        ClaimReason::Time => judged.clocks.as_ref().and_then(|c| c.flag_at_ms),
        // The latest moment the limit can run from (A10: the resumption; with the opponent
        // present, the opening they owe: from the claimant's arrival or the reply's sealing).
        ClaimReason::Lateness => judged.adjournments.last().and_then(|a| {
            let from = [
                a.resume_at_ms,
                a.reply.as_ref().map(|r| r.sealed_at_ms),
                a.arrived_ms[me.index()],
            ]
            .into_iter()
            .flatten()
            .max()?;
            a.resume_at_ms?;
            Some(from.saturating_add(a.limit_ms))
        }),
        _ => None,
    };
    since.is_some_and(|t| t.saturating_add(MAX_CLOCK_SKEW_MS) < now)
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations_in_reminders_are_short() {
        assert_eq!(crate::reminders::human_left(45_000), "45s");
        assert_eq!(
            crate::reminders::human_left(3 * 3_600_000 + 20 * 60_000),
            "3h 20m"
        );
        assert_eq!(
            crate::reminders::human_left(2 * 86_400_000 + 3_600_000),
            "2d 1h"
        );
    }
}
