//! The node-to-node messages: what travels over libp2p request-response and gossipsub.
//!
//! Every message is encoded with `sobre_core::record::codec` (one codec for the project),
//! size-capped before decoding. Signed events travel as their exact wire bytes
//! (`SignedEvent::to_bytes`), never re-encoded.
//!
//! Protocol ids carry the version: `/sobre/deliver/1` and `/sobre/sync/1`. Enum variants are
//! wire tags in declaration order: append only.

use serde::{Deserialize, Serialize};
use sobre_core::record::codec::{self, CodecError};
use sobre_core::record::{EventId, GameId, PlayerId};

/// Direct delivery of events, answered with the receiver's signed receipts.
pub const DELIVER_PROTOCOL: &str = "/sobre/deliver/1";
/// Catch-up sync of a game's events.
pub const SYNC_PROTOCOL: &str = "/sobre/sync/1";

/// The largest request or response accepted on the wire (a whole 200-ply game with receipts
/// is about 100 KiB).
pub const MAX_MESSAGE_BYTES: u64 = 4 * 1024 * 1024;
/// The most events one message may carry.
pub const MAX_EVENTS_PER_MESSAGE: usize = 4096;

/// A request from one node to another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    /// "Here are events of `game`": the receiver verifies, stores, and answers with
    /// receipts for the ones it accepted.
    Deliver { game: GameId, events: Vec<Vec<u8>> },
    /// "Send me what I lack of `game`": `have` lists, per author, how many events of theirs
    /// the requester already holds (their next seq).
    Sync {
        game: GameId,
        have: Vec<(PlayerId, u64)>,
    },
    /// "Which games do you hold that involve `player`?" (a mailbox answers; catch-up at start).
    Games { player: PlayerId },
    /// League documents (a definition, then joins), each the wire bytes of a
    /// `sobre_core::league::SignedLeagueDoc`. Answered with [`Response::Stored`].
    League { docs: Vec<Vec<u8>> },
}

/// The answer to a [`Request`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Response {
    /// Signed receipt events (wire bytes), one per accepted event.
    Receipts { receipts: Vec<Vec<u8>> },
    /// Events the requester lacked (wire bytes).
    Events { events: Vec<Vec<u8>> },
    /// Game ids.
    Games { games: Vec<GameId> },
    /// The request was refused, with the reason (invalid event, unknown game, rate limit…).
    Refused { reason: String },
    /// League documents kept: how many this node now holds for the league.
    Stored { count: u32 },
}

/// A gossipsub message: the wire bytes of one signed event. Its message id is the event id
/// (SHA-256 of the body), so the same event is never forwarded twice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gossip {
    pub game: GameId,
    pub event: Vec<u8>,
}

/// The gossipsub topic of a game.
pub fn game_topic(game: &GameId) -> String {
    format!("sobre/game/1/{game}")
}

/// The gossipsub topic where a player receives challenges.
pub fn inbox_topic(player: &PlayerId) -> String {
    format!("sobre/inbox/1/{player}")
}

/// The gossipsub topic of a league.
pub fn league_topic(league: &EventId) -> String {
    format!("sobre/league/1/{league}")
}

/// Encodes a message.
///
/// # Errors
/// Never for these types in practice.
pub fn encode<T: Serialize>(m: &T) -> Result<Vec<u8>, CodecError> {
    codec::encode(m)
}

/// Decodes an untrusted message, capped at [`MAX_MESSAGE_BYTES`].
///
/// # Errors
/// [`CodecError`] for oversized, malformed or non-canonical bytes.
pub fn decode<T: Serialize + serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    codec::decode(bytes, MAX_MESSAGE_BYTES)
}
