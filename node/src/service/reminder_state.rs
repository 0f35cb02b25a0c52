//! The reminders' own state: the player's settings, the deliverer that tells the player
//! outside this loop, when each overdue game's claim was last checked, and the tick count.
//! Which reminders fire is `reminders`' (with the store's record of those fired); this part
//! answers the settings' questions (how low a clock is low, whether the node claims) and
//! paces the claim checks.

use crate::reminders::Reminder;
use crate::reminders::deliver::Deliverer;
use crate::reminders::settings::ReminderSettings;
use sobre_core::clock::TimeControl;
use sobre_core::record::GameId;
use std::collections::HashMap;
use std::path::Path;

/// How often a game whose opponent is overdue is replayed to see whether a claim would
/// stand: often enough for a short time control, rarely enough to cost nothing.
pub(super) const CLAIM_CHECK_EVERY_MS: u64 = 5_000;

/// League rounds are looked at every this many ticks (reading the leagues is not free).
const LEAGUE_EVERY_TICKS: u32 = 8;

pub(super) struct ReminderState {
    /// What reminds the player, and whether the node claims by itself.
    settings: ReminderSettings,
    /// Delivers reminders outside this loop.
    deliverer: Deliverer,
    /// When each overdue game's claim was last checked (see [`CLAIM_CHECK_EVERY_MS`]).
    claim_checked: HashMap<GameId, u64>,
    /// Counts reminder ticks, to look at league rounds every few only.
    ticks: u32,
}

/// The time for one move or one block of moves under `tc`, of which
/// `clock_low_percent` is a share; `None` without a clock.
pub(super) fn move_budget_ms(tc: &TimeControl) -> Option<u64> {
    match tc {
        TimeControl::Unlimited => None,
        TimeControl::CorrespondencePerMove { per_move, .. } => Some(*per_move),
        TimeControl::CorrespondenceMoves { period, .. } => Some(*period),
        TimeControl::Classical(c) => c
            .periods()
            .first()
            .map(|p| p.time)
            .or_else(|| c.sudden_death()),
    }
}

impl ReminderState {
    /// The settings, and a deliverer for them (spawned now) writing under `home`.
    pub(super) fn new(settings: &ReminderSettings, home: &Path) -> ReminderState {
        ReminderState {
            deliverer: Deliverer::spawn(settings, home),
            settings: settings.clone(),
            claim_checked: HashMap::new(),
            ticks: 0,
        }
    }

    /// Tells the player outside the node (desktop, hook, e-mail, as set).
    pub(super) fn deliver(&self, r: Reminder) {
        self.deliverer.send(r);
    }

    /// Counts a reminder tick; whether the league rounds are looked at on it.
    pub(super) fn tick(&mut self) -> bool {
        self.ticks = self.ticks.wrapping_add(1);
        self.ticks.is_multiple_of(LEAGUE_EVERY_TICKS)
    }

    /// Forgets the claim checks of the games `in_play` no longer holds.
    pub(super) fn keep_checks(&mut self, in_play: impl Fn(&GameId) -> bool) {
        self.claim_checked.retain(|g, _| in_play(g));
    }

    /// Whether `game`'s claim is checked now (noted if so): at most once every
    /// [`CLAIM_CHECK_EVERY_MS`].
    pub(super) fn claim_check_due(&mut self, game: GameId, now: u64) -> bool {
        if self
            .claim_checked
            .get(&game)
            .is_some_and(|&t| now < t.saturating_add(CLAIM_CHECK_EVERY_MS))
        {
            return false;
        }
        self.claim_checked.insert(game, now);
        true
    }

    /// Below how much time left for the move under `tc` the clock is reminded as low: the
    /// larger of the share of the move's time and the fixed time set (0: never).
    pub(super) fn clock_low_threshold_ms(&self, tc: &TimeControl) -> u64 {
        let by_share = move_budget_ms(tc).map_or(0, |b| {
            b.saturating_mul(u64::from(self.settings.clock_low_percent)) / 100
        });
        let by_time = self.settings.clock_low_left.as_ref().map_or(0, |d| d.ms());
        by_share.max(by_time)
    }

    /// How long before an adjourned game resumes the player is reminded.
    pub(super) fn resumption_ahead_ms(&self) -> u64 {
        self.settings.resumption_ahead.ms()
    }

    /// Whether the node claims by itself once a claim would stand beyond any skew.
    pub(super) fn auto_claim(&self) -> bool {
        self.settings.auto_claim
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::EventId;

    fn state(percent: u8) -> ReminderState {
        let settings = ReminderSettings {
            clock_low_percent: percent,
            ..ReminderSettings::default()
        };
        let home = std::env::temp_dir();
        ReminderState::new(&settings, &home)
    }

    #[test]
    fn an_overdue_games_claim_is_checked_at_most_every_few_seconds() {
        let mut s = state(10);
        let g = EventId([1; 32]);
        assert!(s.claim_check_due(g, 1_000));
        assert!(!s.claim_check_due(g, 1_000 + CLAIM_CHECK_EVERY_MS - 1));
        assert!(s.claim_check_due(EventId([2; 32]), 1_001), "per game");
        assert!(s.claim_check_due(g, 1_000 + CLAIM_CHECK_EVERY_MS));
        s.keep_checks(|game| *game != g);
        assert!(
            s.claim_check_due(g, 1_000 + CLAIM_CHECK_EVERY_MS + 1),
            "forgotten"
        );
    }

    #[test]
    fn league_rounds_are_looked_at_every_eighth_tick() {
        let mut s = state(10);
        let due: Vec<bool> = (0..16).map(|_| s.tick()).collect();
        assert_eq!(due.iter().filter(|d| **d).count(), 2);
        assert!(due[7] && due[15]);
    }

    #[test]
    fn the_share_of_clock_low_is_of_one_move_or_one_block() {
        let tc = |s: &str| s.parse::<TimeControl>().unwrap();
        assert_eq!(move_budget_ms(&tc("3d")), Some(3 * 86_400_000));
        assert_eq!(move_budget_ms(&tc("10/50d")), Some(50 * 86_400_000));
        assert_eq!(move_budget_ms(&tc("40/2h:1h")), Some(2 * 3_600_000));
        assert_eq!(move_budget_ms(&TimeControl::Unlimited), None);
    }

    #[test]
    fn a_low_clock_is_a_share_of_the_moves_time() {
        let tc: TimeControl = "3d".parse().expect("a time control");
        assert_eq!(state(10).clock_low_threshold_ms(&tc), 3 * 86_400_000 / 10);
        assert_eq!(state(0).clock_low_threshold_ms(&tc), 0, "0: never by share");
        assert_eq!(state(50).clock_low_threshold_ms(&TimeControl::Unlimited), 0);
    }
}
