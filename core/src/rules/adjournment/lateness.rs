//! A10: a player who comes to the board more than the limit (one hour) late for the
//! resumption loses — unless the late player is the sealer and (a) the sealed move mates,
//! (b) it stalemates or leaves a dead position (9.6), or (c) the player at the board has
//! lost on time (6.9 in 2009, 6.10 in 2005). With no arbiter, A8 also ends an envelope the
//! sealer is at the board for but never opens.
//!
//! (a) and (b) need the sealed move: once the envelope is opened (by the sealer's node, even
//! in the sealer's absence) a mate, stalemate or dead position ends the game at once (Art. 5,
//! 9.6), before any claim; while it is still closed they cannot be known and the claim is
//! judged without them. (c) is judged on the clocks at the claim.

use super::{Adjournment, Sealed};
use crate::rules::Edition;
use crate::types::Color;

/// What a lateness claim is judged on.
#[derive(Clone, Copy, Debug)]
pub struct LatenessClaim<'a> {
    /// The game's last adjournment.
    pub adjournment: &'a Adjournment,
    pub claimant: Color,
    /// The claim's signed time.
    pub at_ms: u64,
    /// A10c: the claimant's own flag is down at the claim (their opponent could claim a win
    /// on time).
    pub claimant_flag_down: bool,
}

/// The verdict on a lateness claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LatenessVerdict {
    /// A10: the opponent came more than the limit late, or not at all: the claimant wins.
    OpponentLate,
    /// A10c: the late player is the sealer, but the claimant at the board has lost on time
    /// under `article` (6.9 in 2009, 6.10 in 2005): the game is decided by the flag fall.
    ClaimantLostOnTime { article: &'static str },
    /// A8 with A11 for a binding envelope: the sealer came in time but has not opened their
    /// envelope the limit after it was due, so the sealed move cannot be read; the sealer
    /// loses. (In a trustless game the opening is the sealer's to keep, so "I lost it" is
    /// never a free choice of another move.)
    SealerCannotOpen,
    /// The claim is incorrect, for this reason.
    Incorrect(NotLate),
}

/// Why a lateness claim is incorrect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotLate {
    #[error("no resumption time was set (A10)")]
    NoResumptionTime,
    #[error("the claimant has not announced presence (A10)")]
    ClaimantAbsent,
    #[error("the opponent is present (A10)")]
    OpponentPresent,
    #[error("the opponent is not more than the limit late yet (A10)")]
    WithinLimit,
    /// Both came after the limit; the opponent first. FIDE has no double loss here, and
    /// the one who was at the board first is the one who waited.
    #[error("the opponent arrived before the claimant, who was late too (A10)")]
    OpponentArrivedFirst,
    /// Playing on with a late player waives the claim, as answering a fallen flag does 6.9.
    #[error("the claimant played on after the late player arrived (A10)")]
    PlayedOn,
}

/// A10: judges a lateness claim on the game's last adjournment.
///
/// For a binding seal, a player is late when they arrived (presence, a move or a sealed
/// reply) more than the limit after the agreed resumption, or not at all: "más de una hora",
/// so exactly the limit is in time. Lateness is judged by the time of the arrival, not its
/// existence — a player who arrives after the limit has already lost, and their arrival does
/// not cancel a later claim — and also after the envelope was opened (the sealer's node
/// opens it at the resumption even in the sealer's absence). The claimant must have arrived,
/// before the opponent, and not played on with them since.
///
/// A tag-10 seal keeps its meaning: judged while its envelope is closed, on presence alone.
pub fn judge_lateness(edition: Edition, c: LatenessClaim<'_>) -> LatenessVerdict {
    use LatenessVerdict::Incorrect;
    let a = c.adjournment;
    let Some(resume) = a.resume_at_ms else {
        return Incorrect(NotLate::NoResumptionTime);
    };
    let (me, them) = (c.claimant, !c.claimant);
    let Some(mine) = a.arrived_ms[me.index()] else {
        return Incorrect(NotLate::ClaimantAbsent);
    };
    let deadline = resume.saturating_add(a.limit_ms);
    let theirs = a.arrived_ms[them.index()];
    if !a.binding {
        // Tag 10: presence at any time counts.
        return if c.at_ms <= deadline {
            Incorrect(NotLate::WithinLimit)
        } else if theirs.is_some() {
            Incorrect(NotLate::OpponentPresent)
        } else {
            LatenessVerdict::OpponentLate
        };
    }
    if theirs.is_none_or(|t| t > deadline) {
        if c.at_ms <= deadline {
            return Incorrect(NotLate::WithinLimit);
        }
        if theirs.is_some_and(|t| t <= mine) {
            return Incorrect(NotLate::OpponentArrivedFirst);
        }
        if a.played_on[me.index()] {
            return Incorrect(NotLate::PlayedOn);
        }
        if them == a.sealer && c.claimant_flag_down {
            return LatenessVerdict::ClaimantLostOnTime {
                article: edition.flag_fall_article(),
            };
        }
        return LatenessVerdict::OpponentLate;
    }
    // The opponent came in time. Did they open the envelope they owe the claimant?
    if let Some(due) = opening_due(a, them, mine) {
        return if c.at_ms > due.saturating_add(a.limit_ms) {
            LatenessVerdict::SealerCannotOpen
        } else {
            Incorrect(NotLate::WithinLimit)
        };
    }
    Incorrect(NotLate::OpponentPresent)
}

/// When `sealer`'s closed envelope became due to be opened for the player who answers it
/// (who arrived at `arrived_ms`): the sealed move at the resumption (A7, A9), a reply when
/// the absent sealer arrives (A9c). `None` if `sealer` holds no closed envelope.
fn opening_due(a: &Adjournment, sealer: Color, arrived_ms: u64) -> Option<u64> {
    let which = a.closed()?;
    if a.sealer_of(which) != sealer {
        return None;
    }
    let from = match which {
        Sealed::Move => a.resume_at_ms?,
        Sealed::Reply => a.reply.as_ref()?.sealed_at_ms,
    };
    Some(from.max(arrived_ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::adjournment::Reply;

    const T: u64 = 1_800_000_000_000;
    const HOUR: u64 = 3_600_000;
    const W: Color = Color::White;
    const B: Color = Color::Black;

    /// White sealed at T - 1 day for T.
    fn adjourned() -> Adjournment {
        Adjournment::new(W, 0, 3, T - 24 * HOUR, Some(T), HOUR, true, [None, None])
    }

    fn claim(a: &Adjournment, claimant: Color, at_ms: u64) -> LatenessVerdict {
        judge_lateness(
            Edition::Fide2009,
            LatenessClaim {
                adjournment: a,
                claimant,
                at_ms,
                claimant_flag_down: false,
            },
        )
    }

    #[test]
    fn a10_more_than_the_limit_late_loses_exactly_the_limit_does_not() {
        let mut a = adjourned();
        a.record_presence(B, T);
        assert_eq!(
            claim(&a, B, T + HOUR),
            LatenessVerdict::Incorrect(NotLate::WithinLimit)
        );
        assert_eq!(claim(&a, B, T + HOUR + 1), LatenessVerdict::OpponentLate);
        // A sealer who arrives at exactly the limit is in time.
        a.record_presence(W, T + HOUR);
        assert_eq!(
            claim(&a, B, T + 2 * HOUR),
            LatenessVerdict::SealerCannotOpen,
            "in time, but the envelope was never opened (A8)"
        );
    }

    #[test]
    fn a10_a_late_presence_does_not_cancel_the_claim() {
        let mut a = adjourned();
        a.record_presence(B, T);
        a.record_presence(W, T + HOUR + 1);
        assert_eq!(claim(&a, B, T + 2 * HOUR), LatenessVerdict::OpponentLate);
    }

    #[test]
    fn a10_a_move_is_an_arrival_and_playing_on_waives_the_claim() {
        let mut a = adjourned();
        a.record_presence(B, T);
        a.record_opening(T);
        a.record_move(B, T + 10);
        // White arrives late and moves; Black claims at once: White was late.
        a.record_move(W, T + 2 * HOUR);
        assert_eq!(
            claim(&a, B, T + 2 * HOUR + 1),
            LatenessVerdict::OpponentLate
        );
        // Black answers instead: playing on waives the claim.
        a.record_move(B, T + 2 * HOUR + 2);
        assert_eq!(
            claim(&a, B, T + 2 * HOUR + 3),
            LatenessVerdict::Incorrect(NotLate::PlayedOn)
        );
        // A move within the limit is an arrival in time.
        let mut a = adjourned();
        a.record_presence(B, T);
        a.record_opening(T);
        a.record_move(B, T + 10);
        a.record_move(W, T + HOUR);
        assert_eq!(
            claim(&a, B, T + 3 * HOUR),
            LatenessVerdict::Incorrect(NotLate::OpponentPresent)
        );
    }

    #[test]
    fn a10_the_claimant_must_have_arrived_and_before_the_opponent() {
        let mut a = adjourned();
        assert_eq!(
            claim(&a, B, T + 2 * HOUR),
            LatenessVerdict::Incorrect(NotLate::ClaimantAbsent)
        );
        a.record_presence(W, T + 2 * HOUR);
        a.record_presence(B, T + 3 * HOUR);
        assert_eq!(
            claim(&a, B, T + 4 * HOUR),
            LatenessVerdict::Incorrect(NotLate::OpponentArrivedFirst)
        );
        assert_eq!(claim(&a, W, T + 4 * HOUR), LatenessVerdict::OpponentLate);
    }

    #[test]
    fn a10_c_the_present_player_lost_on_time_per_edition() {
        let mut a = adjourned();
        a.record_presence(B, T);
        for (edition, article) in [(Edition::Fide2005, "6.10"), (Edition::Fide2009, "6.9")] {
            let verdict = judge_lateness(
                edition,
                LatenessClaim {
                    adjournment: &a,
                    claimant: B,
                    at_ms: T + 2 * HOUR,
                    claimant_flag_down: true,
                },
            );
            assert_eq!(verdict, LatenessVerdict::ClaimantLostOnTime { article });
        }
        // Only against a late sealer: a late responder simply loses.
        let mut a = adjourned();
        a.record_presence(W, T);
        let verdict = judge_lateness(
            Edition::Fide2009,
            LatenessClaim {
                adjournment: &a,
                claimant: W,
                at_ms: T + 2 * HOUR,
                claimant_flag_down: true,
            },
        );
        assert_eq!(verdict, LatenessVerdict::OpponentLate);
    }

    #[test]
    fn a8_a10_the_limit_to_open_runs_from_when_the_opening_was_due() {
        let mut a = adjourned();
        a.record_presence(W, T);
        a.record_presence(B, T + 30 * 60_000);
        let due = T + 30 * 60_000;
        assert_eq!(
            claim(&a, B, due + HOUR),
            LatenessVerdict::Incorrect(NotLate::WithinLimit)
        );
        assert_eq!(
            claim(&a, B, due + HOUR + 1),
            LatenessVerdict::SealerCannotOpen
        );
        // The sealer claiming against a responder at the board: nothing to claim.
        assert_eq!(
            claim(&a, W, due + 2 * HOUR),
            LatenessVerdict::Incorrect(NotLate::OpponentPresent)
        );
    }

    #[test]
    fn a9_c_a10_a_reply_not_opened_within_the_limit_of_the_sealers_arrival() {
        let mut a = adjourned();
        a.record_presence(B, T);
        a.record_opening(T);
        a.reply = Some(Reply {
            envelope: 1,
            ply: 4,
            sealed_at_ms: T + 60_000,
            opened_ms: None,
        });
        a.record_presence(W, T + 50 * 60_000);
        let due = T + 50 * 60_000;
        assert_eq!(
            claim(&a, W, due + HOUR),
            LatenessVerdict::Incorrect(NotLate::WithinLimit)
        );
        assert_eq!(
            claim(&a, W, due + HOUR + 1),
            LatenessVerdict::SealerCannotOpen
        );
    }

    #[test]
    fn a10_tag_10_presence_at_any_time_counts() {
        let mut a = Adjournment::new(W, 0, 3, T - HOUR, Some(T), HOUR, false, [None, Some(1)]);
        assert_eq!(
            claim(&a, B, T + HOUR),
            LatenessVerdict::Incorrect(NotLate::WithinLimit)
        );
        assert_eq!(claim(&a, B, T + HOUR + 1), LatenessVerdict::OpponentLate);
        a.record_presence(W, T + 5 * HOUR);
        assert_eq!(
            claim(&a, B, T + 6 * HOUR),
            LatenessVerdict::Incorrect(NotLate::OpponentPresent)
        );
    }
}
