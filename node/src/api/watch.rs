//! The events `watch` streams and the board forwards: typed from the service that publishes
//! them to the clients that show them, and turned into JSON only at the edge (the control
//! socket, the board's `/events`). On the wire each is one object: the event's `game` and
//! `time_ms`, `event` naming what happened, and the fields of that kind of event.

use crate::reminders::{Reminder, ReminderKind};
use serde::{Deserialize, Serialize};
use sobre_core::record::{EventKind, Status};

/// One line of `watch` after its acknowledgement: how many events this watcher missed, or
/// an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WatchLine {
    /// The watcher fell behind and `lagged` events were dropped.
    Lagged {
        lagged: u64,
    },
    Event(WatchEvent),
}

/// An event as the service publishes it: the game, when, and what happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchEvent {
    /// The game's id (hex); the league's for a [`NodeEvent::League`]; empty for a
    /// [`NodeEvent::Profile`] and for a reminder about no game.
    pub game: String,
    /// When it was published (ms since the epoch); for a reminder, when it fired.
    pub time_ms: u64,
    #[serde(flatten)]
    pub detail: WatchDetail,
}

impl WatchEvent {
    /// The event showing reminder `r`: its `game` and `time_ms` are the line's own (read
    /// back with [`ReminderDetail::reminder`]).
    pub fn reminder(r: &Reminder) -> WatchEvent {
        WatchEvent {
            game: r.game.clone().unwrap_or_default(),
            time_ms: r.time_ms,
            detail: NodeEvent::Reminder(ReminderDetail {
                key: r.key.clone(),
                text: r.text.clone(),
                kind: r.kind.clone(),
            })
            .into(),
        }
    }
}

/// What happened: one of a game's signed events, or news of the node's own.
// Untagged: both kinds write the `event` field, so a game's event is told apart by the
// value there, one of the [`GameEventKind`] names, which none of [`NodeEvent`]'s is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WatchDetail {
    Game(GameEvent),
    Node(NodeEvent),
}

impl From<GameEvent> for WatchDetail {
    fn from(e: GameEvent) -> WatchDetail {
        WatchDetail::Game(e)
    }
}

impl From<NodeEvent> for WatchDetail {
    fn from(e: NodeEvent) -> WatchDetail {
        WatchDetail::Node(e)
    }
}

/// A signed event this node kept in a game: one it signed, or another's it received.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEvent {
    #[serde(rename = "event")]
    pub kind: GameEventKind,
    /// Who signed it (a player id).
    pub by: String,
    /// Where the game stands with it; absent from the challenge this node has just signed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// The peer that delivered it; absent from the events this node signed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

/// The kind of a game's signed event, named on the wire as [`EventKind::name`] names it:
/// one name for the two encodings of a challenge, and for the two of a seal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEventKind {
    Challenge,
    Accept,
    Decline,
    Abort,
    Move,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Claim,
    Resign,
    Seal,
    Presence,
    Reveal,
    Receipt,
    Chat,
    Leave,
    RandomReveal,
    Escrow,
    ArbiterOpen,
    CoinDefault,
    DeclareSealedMove,
    AcceptDeclaredMove,
    AnnulGame,
    QuickplayClaim,
    QuickplayRuling,
}

impl GameEventKind {
    /// Every kind, in the order of the event tags.
    pub const ALL: [GameEventKind; 25] = [
        GameEventKind::Challenge,
        GameEventKind::Accept,
        GameEventKind::Decline,
        GameEventKind::Abort,
        GameEventKind::Move,
        GameEventKind::DrawOffer,
        GameEventKind::DrawAccept,
        GameEventKind::DrawDecline,
        GameEventKind::Claim,
        GameEventKind::Resign,
        GameEventKind::Seal,
        GameEventKind::Presence,
        GameEventKind::Reveal,
        GameEventKind::Receipt,
        GameEventKind::Chat,
        GameEventKind::Leave,
        GameEventKind::RandomReveal,
        GameEventKind::Escrow,
        GameEventKind::ArbiterOpen,
        GameEventKind::CoinDefault,
        GameEventKind::DeclareSealedMove,
        GameEventKind::AcceptDeclaredMove,
        GameEventKind::AnnulGame,
        GameEventKind::QuickplayClaim,
        GameEventKind::QuickplayRuling,
    ];

    /// The kind's name on the wire (`move`, `draw_offer`…).
    pub fn name(self) -> &'static str {
        match self {
            GameEventKind::Challenge => "challenge",
            GameEventKind::Accept => "accept",
            GameEventKind::Decline => "decline",
            GameEventKind::Abort => "abort",
            GameEventKind::Move => "move",
            GameEventKind::DrawOffer => "draw_offer",
            GameEventKind::DrawAccept => "draw_accept",
            GameEventKind::DrawDecline => "draw_decline",
            GameEventKind::Claim => "claim",
            GameEventKind::Resign => "resign",
            GameEventKind::Seal => "seal",
            GameEventKind::Presence => "presence",
            GameEventKind::Reveal => "reveal",
            GameEventKind::Receipt => "receipt",
            GameEventKind::Chat => "chat",
            GameEventKind::Leave => "leave",
            GameEventKind::RandomReveal => "random_reveal",
            GameEventKind::Escrow => "escrow",
            GameEventKind::ArbiterOpen => "arbiter_open",
            GameEventKind::CoinDefault => "coin_default",
            GameEventKind::DeclareSealedMove => "declare_sealed_move",
            GameEventKind::AcceptDeclaredMove => "accept_declared_move",
            GameEventKind::AnnulGame => "annul_game",
            GameEventKind::QuickplayClaim => "quickplay_claim",
            GameEventKind::QuickplayRuling => "quickplay_ruling",
        }
    }
}

impl From<&EventKind> for GameEventKind {
    fn from(kind: &EventKind) -> GameEventKind {
        match kind {
            EventKind::Challenge(_) | EventKind::ChallengeOnTerms { .. } => {
                GameEventKind::Challenge
            }
            EventKind::Accept(_) => GameEventKind::Accept,
            EventKind::Decline { .. } => GameEventKind::Decline,
            EventKind::Abort => GameEventKind::Abort,
            EventKind::Move(_) => GameEventKind::Move,
            EventKind::DrawOffer => GameEventKind::DrawOffer,
            EventKind::DrawAccept => GameEventKind::DrawAccept,
            EventKind::DrawDecline => GameEventKind::DrawDecline,
            EventKind::Claim(_) => GameEventKind::Claim,
            EventKind::Resign => GameEventKind::Resign,
            EventKind::Seal(_) | EventKind::SealIn { .. } => GameEventKind::Seal,
            EventKind::Presence => GameEventKind::Presence,
            EventKind::Reveal(_) => GameEventKind::Reveal,
            EventKind::Receipt { .. } => GameEventKind::Receipt,
            EventKind::Chat { .. } => GameEventKind::Chat,
            EventKind::Leave { .. } => GameEventKind::Leave,
            EventKind::RandomReveal { .. } => GameEventKind::RandomReveal,
            EventKind::Escrow { .. } => GameEventKind::Escrow,
            EventKind::ArbiterOpen { .. } => GameEventKind::ArbiterOpen,
            EventKind::CoinDefault { .. } => GameEventKind::CoinDefault,
            EventKind::DeclareSealedMove { .. } => GameEventKind::DeclareSealedMove,
            EventKind::AcceptDeclaredMove { .. } => GameEventKind::AcceptDeclaredMove,
            EventKind::AnnulGame => GameEventKind::AnnulGame,
            EventKind::QuickplayClaim => GameEventKind::QuickplayClaim,
            EventKind::QuickplayRuling { .. } => GameEventKind::QuickplayRuling,
        }
    }
}

/// News of the node's own, beside the games' signed events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum NodeEvent {
    /// Player `by` (a player id) signed two different events at one place in the game: the
    /// node keeps both as proof.
    Equivocation { by: String },
    /// League documents arrived that the node lacked: it now holds `documents` of them.
    League { documents: u32 },
    /// A reminder fired ([`WatchEvent::reminder`]).
    Reminder(ReminderDetail),
    /// A player's signed profile arrived: `player` (a player id) is called `name`.
    Profile { player: String, name: String },
}

/// A reminder's fields in its event, beside the line's own `game` and `time_ms` (see
/// [`Reminder`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReminderDetail {
    pub key: String,
    pub text: String,
    #[serde(flatten)]
    pub kind: ReminderKind,
}

impl ReminderDetail {
    /// The reminder as recorded, with its line's `game` (empty: about no game) and
    /// `time_ms`.
    pub fn reminder(&self, game: &str, time_ms: u64) -> Reminder {
        Reminder {
            key: self.key.clone(),
            game: (!game.is_empty()).then(|| game.to_owned()),
            time_ms,
            text: self.text.clone(),
            kind: self.kind.clone(),
        }
    }
}

#[cfg(test)]
mod wire_tests;
