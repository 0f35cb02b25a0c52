//! The fair coin in the replay (FIDE Appendix F1: colours and a Chess960 start drawn by lot):
//! the acceptance that brings the opponent's share, the challenger's opening, and the
//! opponent's default once the challenger has let the deadline pass (`rules::coin`).
//!
//! Races between an opening and a default are settled like the other races, by the record's
//! order: the first settlement stands and the later one is kept but ignored. So is whatever
//! the loser of such a race signed before seeing the settlement that stands (a move as the
//! colour the losing settlement gave, say), so that two honest nodes whose opening and
//! default crossed in the network still agree on one game instead of failing to verify.
//!
//! While the coin is unsettled, an abort by the challenger who had seen the acceptance is
//! ignored too: she then knows the result, and aborting to re-challenge would be the
//! withholding the default exists to make pointless.

use super::{Replay, RuleViolation, Status, VerifyError};
use crate::position::Position;
use crate::record::event::{CoinColour, ColourChoice, EventId, StartPosition, VerifiedEvent};
use crate::record::identity::PlayerId;
use crate::rules::coin::{self as rules, CoinRule};

/// The fair coin of a game that draws colours or its Chess960 start, once the opponent has
/// accepted with a share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoinState {
    /// The acceptance that carried the opponent's share.
    pub accepted: EventId,
    /// When the challenger's time to open starts: the acceptance's signed time (versions 1
    /// and 2), or when it reached her (version 3, [`Replay::coin_reached`]).
    pub accepted_ms: u64,
    /// Whether the acceptance is shown to have reached the challenger: always under
    /// versions 1 and 2 and with timekeepers; without, once she countersigned it. Until
    /// then the deadline does not run and no default is valid (docs/time.md, case 3).
    pub received: bool,
    /// The last moment the challenger's opening is awaited ([`rules::opening_deadline`]); a
    /// default signed after it settles the coin.
    pub deadline_ms: u64,
    /// How the coin was settled, once it was.
    pub settled: Option<CoinSettlement>,
}

/// How a coin was settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoinSettlement {
    /// The challenger opened her commitment (wire tag 16): the coin decided.
    Opened { event: EventId },
    /// The challenger let the deadline pass; the opponent chose (wire tag 20).
    Defaulted { event: EventId },
}

impl CoinSettlement {
    /// The event that settled the coin.
    pub fn event(self) -> EventId {
        match self {
            CoinSettlement::Opened { event } | CoinSettlement::Defaulted { event } => event,
        }
    }
}

impl Replay {
    /// The acceptance brought the opponent's share: the deadline for the opening starts.
    pub(super) fn coin_accepted(&mut self, accepted: EventId, accepted_ms: u64) {
        // The challenge is the first event of every timeline, so its time is known.
        let challenged_ms = self.times.get(&self.state.game).copied().unwrap_or(0);
        // Protocol version 3: the deadline runs from when the acceptance reached the
        // challenger (evidence time), never from its raw signed time (docs/time.md).
        let (accepted_ms, received) = if self.agreed {
            self.frozen.insert(accepted);
            match self.coin_reached(&accepted, accepted_ms) {
                Some(t) => (t, true),
                None => (accepted_ms, false),
            }
        } else {
            (accepted_ms, true)
        };
        self.state.coin = Some(CoinState {
            accepted,
            accepted_ms,
            received,
            deadline_ms: rules::opening_deadline(
                &self.state.time_control,
                challenged_ms,
                accepted_ms,
            ),
            settled: None,
        });
    }

    pub(super) fn coin_settled(&mut self, how: CoinSettlement) {
        if let Some(c) = self.state.coin.as_mut() {
            c.settled = Some(how);
        }
    }

    fn has_seen(&self, who: &PlayerId, event: EventId) -> bool {
        match (self.horizon.get(who), self.position_in_timeline.get(&event)) {
            (Some(h), Some(i)) => h >= i,
            _ => false,
        }
    }

    /// Remembers who lost a race between an opening and a default, and where the settlement
    /// that stands is in the timeline.
    fn coin_race_lost_by(&mut self, loser: PlayerId, stands: EventId) {
        if let Some(&i) = self.position_in_timeline.get(&stands) {
            self.coin_fork = Some((loser, i));
        }
    }

    /// True (and the event is kept as ignored) if `v` is by the player whose settlement of
    /// the coin lost the race and was signed before they had seen the one that stands: it
    /// was signed for colours or a start the game does not have. Receipts and chat are facts
    /// whenever they come and never reach this.
    pub(super) fn coin_fork_ignores(&mut self, v: &VerifiedEvent) -> bool {
        let Some((loser, stands)) = self.coin_fork else {
            return false;
        };
        if v.event.author != loser || self.horizon.get(&loser).is_some_and(|&h| h >= stands) {
            return false;
        }
        self.state.ignored.push((
            v.id,
            format!(
                "{} signed before its author had seen how the coin was settled (the first \
                 settlement in the record's order stands)",
                v.event.kind.name()
            ),
        ));
        true
    }

    /// True (and kept as ignored) for the challenger's opening of a coin the opponent has
    /// already settled by default: the first settlement in the record's order stands.
    pub(super) fn coin_opening_ignored(&mut self, v: &VerifiedEvent) -> bool {
        let Some(CoinSettlement::Defaulted { event }) =
            self.state.coin.as_ref().and_then(|c| c.settled)
        else {
            return false;
        };
        if v.event.author != self.state.challenger {
            return false;
        }
        self.state.ignored.push((
            v.id,
            "coin opening after the opponent's default had settled the coin (F1; the first \
             settlement in the record's order stands)"
                .into(),
        ));
        self.coin_race_lost_by(v.event.author, event);
        true
    }

    /// True (and kept as ignored) for an abort by the challenger who had seen the acceptance
    /// while the coin is unopened: she holds both shares and knows the draw, so an abort
    /// would be withholding a result she dislikes. An abort signed without having seen the
    /// acceptance (the two crossed) still cancels, as it always did.
    pub(super) fn coin_abort_ignored(&mut self, v: &VerifiedEvent) -> bool {
        let Some(coin) = &self.state.coin else {
            return false;
        };
        let accepted = coin.accepted;
        if v.event.author != self.state.challenger
            || coin.settled.is_some()
            || self.state.status != Status::Pending
            || !self.has_seen(&v.event.author, accepted)
        {
            return false;
        }
        self.state.ignored.push((
            v.id,
            "abort by the challenger who held the opponent's coin share and had not opened \
             the coin: she knows the draw, so this would withhold it (F1); the opponent may \
             settle the coin by default after the deadline"
                .into(),
        ));
        true
    }

    /// A coin default (wire tag 20): the opponent settles a coin the challenger has not
    /// opened within the deadline, choosing the colour she takes and the Chess960 start.
    pub(super) fn coin_default(
        &mut self,
        colour: Option<CoinColour>,
        position: Option<u16>,
        v: &VerifiedEvent,
        rule: &dyn Fn(RuleViolation) -> VerifyError,
    ) -> Result<(), VerifyError> {
        let refuse = |r: CoinRule| rule(r.into());
        let e = &v.event;
        if e.author != self.state.opponent {
            return Err(refuse(CoinRule::NotTheOpponent));
        }
        let Some(coin) = self.state.coin.clone() else {
            return Err(refuse(CoinRule::NoAcceptedCoin));
        };
        match coin.settled {
            Some(CoinSettlement::Opened { event }) => {
                self.state.ignored.push((
                    v.id,
                    "coin default after the challenger's opening had settled the coin (the \
                     first settlement in the record's order stands)"
                        .into(),
                ));
                self.coin_race_lost_by(e.author, event);
                return Ok(());
            }
            Some(CoinSettlement::Defaulted { .. }) => {
                return Err(refuse(CoinRule::AlreadySettled));
            }
            None => {}
        }
        if !coin.received {
            return Err(refuse(CoinRule::NotReceived));
        }
        let challenged_ms = self.times.get(&self.state.game).copied().unwrap_or(0);
        // Protocol version 3: a default gains by being late, so it is judged no later than
        // its evidence (as a time claim is).
        let default_ms = if self.agreed {
            self.frozen.insert(v.id);
            self.judged_at(&v.id, e.time_ms)
        } else {
            e.time_ms
        };
        rules::check_coin_default(
            &self.state.time_control,
            challenged_ms,
            coin.accepted_ms,
            default_ms,
        )
        .map_err(refuse)?;
        rules::check_default_choices(
            self.state.challenge.colour == ColourChoice::Random,
            self.state.challenge.start == StartPosition::Chess960Random,
            colour.map(CoinColour::colour),
            position,
        )
        .map_err(refuse)?;
        if let Some(c) = colour {
            let (me, other) = (Some(self.state.opponent), Some(self.state.challenger));
            (self.state.white, self.state.black) = match c {
                CoinColour::White => (me, other),
                CoinColour::Black => (other, me),
            };
        }
        if let Some(n) = position {
            let p = Position::chess960(n)
                .ok_or_else(|| refuse(CoinRule::NoSuchPosition { position: n }))?;
            self.keys = vec![p.repetition_key()];
            self.state.position = p.clone();
            self.state.start = Some(p);
        }
        self.coin_settled(CoinSettlement::Defaulted { event: v.id });
        self.start_game(v.id, e.author, e.time_ms);
        Ok(())
    }
}
