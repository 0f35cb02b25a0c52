//! The terms of a game that both players agree on: the challenge proposes them, the
//! acceptance countersigns them (it names the challenge as the event it saw), and a league's
//! games take them from the league definition. No single player sets the time model of a
//! game: who keeps time, which text of the Laws is applied, how late a player may be at a
//! resumption (A10) and how much notice a resumption needs (A2.7, "agreed") are all here.
//!
//! The time model these terms drive is written down in `docs/time.md`:
//! - **with timekeepers**, an event counts at its earliest receipt by an agreed timekeeper
//!   (as on a correspondence server): it is made, and available to the opponent, then;
//! - **without timekeepers**, transit is bounded both ways by
//!   [`crate::clock::TimeControl::transit_allowance_ms`].
//!
//! A wire type: fields are positional (bincode) and the struct is only ever replaced by a new
//! event tag, never changed in place.

use super::identity::PlayerId;
use crate::clock::{HOUR, MINUTE, Millis};
use crate::rules::Edition;
use serde::{Deserialize, Serialize};

/// The most timekeepers a game may name: each is asked for a receipt of every event.
pub const MAX_TIMEKEEPERS: usize = 4;

/// A10's limit when the terms say nothing else: one hour ("una hora", A10).
pub const DEFAULT_LATENESS_LIMIT_MS: Millis = HOUR;

/// The least notice a resumption time must give the responder, counted from when the seal
/// reached them, when the terms say nothing else: long enough to come back to the board
/// (over the board) or to see the notice (correspondence).
pub const DEFAULT_MIN_NOTICE_MS: Millis = 10 * MINUTE;

/// The text of the Laws a game is judged under. A wire enum: append only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TermsEdition {
    /// 0: the Laws in force from 1 July 2009 (seed 003), the default.
    Fide2009,
    /// 1: the Laws in force from 1 July 2005 (seed 002).
    Fide2005,
}

impl TermsEdition {
    /// The rules core's edition.
    pub fn edition(self) -> Edition {
        match self {
            TermsEdition::Fide2009 => Edition::Fide2009,
            TermsEdition::Fide2005 => Edition::Fide2005,
        }
    }

    /// The wire form of an edition.
    pub fn of(edition: Edition) -> TermsEdition {
        match edition {
            Edition::Fide2009 => TermsEdition::Fide2009,
            Edition::Fide2005 => TermsEdition::Fide2005,
        }
    }
}

/// What both players agree on before the first move.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Terms {
    /// The keys whose receipts are the game's clock evidence (typically the club's mailbox;
    /// a league's organiser mailbox by default). Empty: transit is bounded by the time
    /// control's allowance instead. Receipts of any other key are kept but are no evidence.
    pub timekeepers: Vec<PlayerId>,
    /// The arbiter who may hold sealed moves in escrow (A3: the arbiter keeps the envelope)
    /// and open them when the sealer is absent (A9) or has lost the opening (A11). `None`:
    /// no escrow.
    pub arbiter: Option<PlayerId>,
    /// The text of the Laws `verify` judges by.
    pub edition: TermsEdition,
    /// A10: how late a player may arrive at a resumption.
    pub lateness_limit_ms: Millis,
    /// The least time between the seal reaching the responder and the resumption it names
    /// (A2.7: the resumption is agreed, never the sealer's word alone).
    pub min_notice_ms: Millis,
    /// Whether a correspondence game may be adjourned (over the board it always may, App. A).
    pub correspondence_adjournment: bool,
    /// 9.1a: no draw by agreement before this many moves by each player (0: none).
    pub no_draw_before_move: u32,
}

impl Default for Terms {
    /// The terms of a game whose challenge names none: no timekeeper, no arbiter, the 2009
    /// Laws, A10's hour, [`DEFAULT_MIN_NOTICE_MS`], no adjournment in correspondence (A1:
    /// sessions are over the board), no 9.1a limit.
    fn default() -> Terms {
        Terms {
            timekeepers: Vec::new(),
            arbiter: None,
            edition: TermsEdition::Fide2009,
            lateness_limit_ms: DEFAULT_LATENESS_LIMIT_MS,
            min_notice_ms: DEFAULT_MIN_NOTICE_MS,
            correspondence_adjournment: false,
            no_draw_before_move: 0,
        }
    }
}

/// Terms that cannot be agreed to.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TermsError {
    /// More timekeepers than [`MAX_TIMEKEEPERS`].
    #[error("at most {MAX_TIMEKEEPERS} timekeepers may be named, not {0}")]
    TooManyTimekeepers(usize),
    /// A player cannot keep time in their own game: their receipts would be their word.
    #[error("a player of the game cannot be its timekeeper ({0})")]
    PlayerAsTimekeeper(PlayerId),
    /// A player cannot be the arbiter of their own game.
    #[error("a player of the game cannot be its arbiter ({0})")]
    PlayerAsArbiter(PlayerId),
    /// The same timekeeper named twice.
    #[error("timekeeper {0} is named twice")]
    DuplicateTimekeeper(PlayerId),
}

impl Terms {
    /// Checks that two players can agree to these terms.
    ///
    /// # Errors
    /// [`TermsError`] naming the first problem.
    pub fn check(&self, players: [PlayerId; 2]) -> Result<(), TermsError> {
        if self.timekeepers.len() > MAX_TIMEKEEPERS {
            return Err(TermsError::TooManyTimekeepers(self.timekeepers.len()));
        }
        for (i, k) in self.timekeepers.iter().enumerate() {
            if players.contains(k) {
                return Err(TermsError::PlayerAsTimekeeper(*k));
            }
            if self.timekeepers[..i].contains(k) {
                return Err(TermsError::DuplicateTimekeeper(*k));
            }
        }
        if let Some(a) = self.arbiter.filter(|a| players.contains(a)) {
            return Err(TermsError::PlayerAsArbiter(a));
        }
        Ok(())
    }

    /// Whether `who` is one of the agreed timekeepers.
    pub fn is_timekeeper(&self, who: &PlayerId) -> bool {
        self.timekeepers.contains(who)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::key;

    #[test]
    fn terms_naming_a_player_as_timekeeper_or_arbiter_are_refused() {
        let (a, b, m) = (key(1).player_id(), key(2).player_id(), key(9).player_id());
        let ok = Terms {
            timekeepers: vec![m],
            ..Terms::default()
        };
        assert_eq!(ok.check([a, b]), Ok(()));
        let own = Terms {
            timekeepers: vec![a],
            ..Terms::default()
        };
        assert_eq!(own.check([a, b]), Err(TermsError::PlayerAsTimekeeper(a)));
        let twice = Terms {
            timekeepers: vec![m, m],
            ..Terms::default()
        };
        assert_eq!(twice.check([a, b]), Err(TermsError::DuplicateTimekeeper(m)));
        let arb = Terms {
            arbiter: Some(b),
            ..Terms::default()
        };
        assert_eq!(arb.check([a, b]), Err(TermsError::PlayerAsArbiter(b)));
        let many = Terms {
            timekeepers: (10..15).map(|i| key(i).player_id()).collect(),
            ..Terms::default()
        };
        assert_eq!(many.check([a, b]), Err(TermsError::TooManyTimekeepers(5)));
    }
}
