//! Why events a peer delivered (or gossiped) are not taken: typed inside the node, turned
//! into the wire text of [`Response::Refused`](crate::protocol::Response) only at the
//! protocol edge, so that the service decides on the kind, never on the words.

use crate::dispute;
use crate::protocol::REFUSED_MISSING_HISTORY;
use sobre_core::record::codec::CodecError;
use sobre_core::record::time::TimeError;
use sobre_core::record::{EventError, PlayerId, VerifyError};

/// Why a delivery or a gossip message is refused. Its text is what the sender reads.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refusal {
    #[error("too many events")]
    TooManyEvents,
    #[error("undecodable event: {0}")]
    Undecodable(#[from] CodecError),
    #[error("undecodable event: {0}")]
    UndecodableBody(#[from] EventError),
    #[error("event of another game")]
    OtherGame,
    /// An event dated ahead of this node's clock, or a countersignature made up late.
    #[error("{kind} by {author}: {error}")]
    Time {
        kind: &'static str,
        author: PlayerId,
        error: TimeError,
    },
    /// A second event at a place already taken: both kept as proof, the twin not taken.
    #[error("{}", dispute::REFUSAL)]
    Equivocation,
    /// See [`REFUSED_MISSING_HISTORY`].
    #[error("{}", REFUSED_MISSING_HISTORY)]
    MissingHistory,
    #[error("not a game of this node")]
    NotOurs,
    /// `NotOurs` again, for one game too many from this peer this hour
    /// (`standing::NOT_OURS_FREE_PER_HOUR`): a peer sending fresh games this node does not
    /// keep costs it decodes, and those that look like its own signature checks.
    #[error("not a game of this node (too many such games from this peer)")]
    NotOursAgain,
    /// An event signed by a player this node's player blocked.
    #[error("refused: the player blocked {0}")]
    Blocked(PlayerId),
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
    /// The delivery would pass a limit on what others may make this node store (no strike:
    /// an honest node's backlog may meet the hourly chat rate; nothing is stored).
    #[error(transparent)]
    Quota(#[from] super::quota::QuotaExceeded),
    /// The events break the protocol or the rules.
    #[error("{0}")]
    Invalid(VerifyError),
}

impl Refusal {
    /// Whether the sender is to blame: a strike for a delivery, a rejection for gossip.
    /// Missing history, a game we do not hold, a twin kept as proof and our own storage
    /// failures are no fault of the sender.
    pub(crate) fn blames_sender(&self) -> bool {
        !matches!(
            self,
            Refusal::MissingHistory
                | Refusal::NotOurs
                | Refusal::Quota(_)
                | Refusal::Blocked(_)
                | Refusal::Equivocation
                | Refusal::Unavailable(Unavailable::Storage(_))
        )
    }

    /// Whether this node's own storage failed (worth a warning, never the sender's fault).
    pub(crate) fn is_storage(&self) -> bool {
        matches!(self, Refusal::Unavailable(Unavailable::Storage(_)))
    }
}

impl From<VerifyError> for Refusal {
    fn from(e: VerifyError) -> Refusal {
        match e {
            // `NoChallenge`: events of a game the receiver does not hold (a partial delivery
            // to a node that lost the game, or gossip of a game it never had).
            VerifyError::Missing { .. } | VerifyError::NoChallenge => Refusal::MissingHistory,
            // A gap in an author's log (a receipt gossip has not brought yet) is missing
            // history too, not a fault of the sender: sync fills it.
            VerifyError::Gap { .. } => Refusal::MissingHistory,
            other => Refusal::Invalid(other),
        }
    }
}

/// Why a game cannot be taken into memory.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unavailable {
    #[error("unknown game")]
    UnknownGame,
    #[error("storage failure: {0}")]
    Storage(String),
}

/// Whether a peer's refusal says it lacks history (the one reason a sender acts on).
pub(crate) fn is_missing_history(reason: &str) -> bool {
    reason == REFUSED_MISSING_HISTORY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_history_is_the_protocol_word_and_no_fault_of_the_sender() {
        for r in [
            Refusal::from(VerifyError::NoChallenge),
            Refusal::MissingHistory,
        ] {
            assert!(matches!(r, Refusal::MissingHistory));
            assert!(is_missing_history(&r.to_string()));
            assert!(!r.blames_sender());
        }
    }

    #[test]
    fn a_broken_delivery_blames_the_sender_and_our_storage_does_not() {
        assert!(Refusal::OtherGame.blames_sender());
        assert!(Refusal::TooManyEvents.blames_sender());
        assert!(!Refusal::Equivocation.blames_sender());
        assert!(!Refusal::NotOurs.blames_sender());
        assert!(Refusal::NotOursAgain.blames_sender());
        let ours = Refusal::from(Unavailable::Storage("disk full".into()));
        assert!(ours.is_storage() && !ours.blames_sender());
        assert_eq!(ours.to_string(), "storage failure: disk full");
        assert_eq!(Refusal::Equivocation.to_string(), dispute::REFUSAL);
        assert!(!is_missing_history(&Refusal::OtherGame.to_string()));
    }
}
