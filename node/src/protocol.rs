//! The node-to-node messages: what travels over libp2p request-response and gossipsub.
//!
//! Every message is encoded with `sobre_core::record::codec` (one codec for the project),
//! size-capped before decoding. Signed events travel as their exact wire bytes
//! (`SignedEvent::to_bytes`), never re-encoded.
//!
//! Protocol ids carry the version: `/sobre/deliver/1`, `/sobre/deliver-stream/1` and
//! `/sobre/sync/1`. Enum variants are wire tags in declaration order: append only.

use serde::{Deserialize, Serialize};
use sobre_core::record::codec::{self, CodecError};
use sobre_core::record::{EventId, GameId, PlayerId};

/// Direct delivery of events, answered with the receiver's signed receipts.
pub const DELIVER_PROTOCOL: &str = "/sobre/deliver/1";
/// Deliveries on one long-lived stream per peer: the same frames as [`DELIVER_PROTOCOL`]
/// (a u32 big-endian length, then an encoded [`Request::Deliver`] or [`Request::League`]),
/// any number of them, pipelined; the answers come back on the same stream, one frame per
/// request, in the order of the requests. A node with many games pays for one stream
/// negotiation per peer rather than one per move.
pub const DELIVER_STREAM_PROTOCOL: &str = "/sobre/deliver-stream/1";
/// Requests a peer may have sent on a delivery stream and not yet had answered; the sender
/// waits for answers beyond this, the receiver stops reading.
pub const MAX_PIPELINED: usize = 64;
/// Catch-up sync of a game's events.
pub const SYNC_PROTOCOL: &str = "/sobre/sync/1";

/// The largest request or response accepted on the wire (a whole 200-ply game with receipts
/// is about 100 KiB).
pub const MAX_MESSAGE_BYTES: u64 = 4 * 1024 * 1024;
/// The largest [`Gossip`] payload a legal event makes: the game id, then the signed event
/// (its body of at most [`MAX_EVENT_BYTES`], the 64-byte signature and bincode's two
/// lengths). Gossip is one event per message, so nothing larger is ever published.
///
/// [`MAX_EVENT_BYTES`]: sobre_core::record::codec::MAX_EVENT_BYTES
pub const MAX_GOSSIP_BYTES: u64 = 32 + 8 + (8 + sobre_core::record::codec::MAX_EVENT_BYTES + 64);
/// The most events one message may carry.
pub const MAX_EVENTS_PER_MESSAGE: usize = 4096;

/// The reason in a [`Response::Refused`] for events that refer to events the receiver does
/// not hold (or of a game it does not hold, without its challenge): no fault of the sender.
/// A sender that sent only what the receiver was thought to lack answers it with the whole
/// game. The one reason a sender acts on, so it is part of the protocol, not a message.
pub const REFUSED_MISSING_HISTORY: &str = "missing history";

/// A request from one node to another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    /// "Here are events of `game`": the receiver verifies, stores, and answers with
    /// receipts for the ones it accepted.
    Deliver {
        game: GameId,
        #[serde(with = "byte_lists")]
        events: Vec<Vec<u8>>,
    },
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
    League {
        #[serde(with = "byte_lists")]
        docs: Vec<Vec<u8>>,
    },
    /// Signed player profiles, each the wire bytes of a
    /// `sobre_core::record::SignedProfile`, at most [`MAX_PROFILES_PER_MESSAGE`]: the
    /// sender's own, or ones it holds for the players of games it shares with the receiver.
    /// Answered with [`Response::Stored`]: how many of them the receiver now holds as the
    /// player's current profile.
    Profiles {
        #[serde(with = "byte_lists")]
        profiles: Vec<Vec<u8>>,
    },
    /// "Which games of `league` are you ahead of me on?": `have` says how far each league
    /// game the requester holds has gone. A league's organiser (or a mailbox) answers a
    /// member of the league with [`Response::LeagueGames`]; anyone else gets an empty list.
    /// At most [`MAX_LEAGUE_GAMES_LISTED`] entries.
    LeagueGames {
        league: EventId,
        have: Vec<LeagueProgress>,
    },
    /// "This node runs with my key": the sender's signed node instance record
    /// (`crate::instance`), at most [`crate::instance::MAX_RECORD_BYTES`]. Answered with
    /// [`Response::Instances`]: the other live instances of the same player the receiver
    /// has heard from.
    Instance {
        #[serde(with = "serde_bytes")]
        record: Vec<u8>,
    },
    /// "Which of `player`'s games changed since `since`?": a node meeting its mailbox asks
    /// with the `epoch` and `cursor` of the mailbox's last [`Response::GameHeads`] (0 and 0
    /// the first time), so a reconnect costs what changed, not every game held. Answered
    /// to the player's own key only, like [`Request::Games`].
    GamesSince {
        player: PlayerId,
        epoch: u64,
        since: u64,
    },
    /// "Which games of `league` changed since `since`?": a member's poll, with the `epoch`
    /// and `cursor` of the organiser's last [`Response::LeagueChanges`] (0 and 0 the first
    /// time). Costs nothing when nothing changed, where [`Request::LeagueGames`] sends and
    /// compares the whole league every time. The same access as `LeagueGames`.
    LeagueSince {
        league: EventId,
        epoch: u64,
        since: u64,
    },
}

/// How far the answering node holds one game: per author, the next sequence number it
/// lacks (as [`Request::Sync`]'s `have`). The requester syncs the game if it holds less of
/// any author.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameHead {
    pub game: GameId,
    pub have: Vec<(PlayerId, u64)>,
}

/// How far a league game has gone on one node: compared to tell who lacks what, without
/// counting events (receipts differ from node to node).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueProgress {
    pub game: GameId,
    /// 0 pending, 1 under way (active or adjourned), 2 over (finished, cancelled, disputed).
    pub stage: u8,
    pub plies: u32,
}

impl LeagueProgress {
    /// Whether this is further along than `other` (a later stage, or more plies in it).
    pub fn ahead_of(&self, other: Option<&LeagueProgress>) -> bool {
        other.is_none_or(|o| (self.stage, self.plies) > (o.stage, o.plies))
    }
}

/// The most games a [`Request::LeagueGames`] or its answer lists: a 64-player double round
/// robin has 4,032 pairings, and a pairing may have been started twice.
pub const MAX_LEAGUE_GAMES_LISTED: usize = 8_192;

/// The most profiles one [`Request::Profiles`] may carry.
pub const MAX_PROFILES_PER_MESSAGE: usize = 64;

/// The answer to a [`Request`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Response {
    /// Signed receipt events (wire bytes), one per accepted event.
    Receipts {
        #[serde(with = "byte_lists")]
        receipts: Vec<Vec<u8>>,
    },
    /// Events the requester lacked (wire bytes).
    Events {
        #[serde(with = "byte_lists")]
        events: Vec<Vec<u8>>,
    },
    /// Game ids.
    Games { games: Vec<GameId> },
    /// The request was refused, with the reason (invalid event, unknown game, rate limit…).
    Refused { reason: String },
    /// League documents kept: how many this node now holds for the league.
    Stored { count: u32 },
    /// The answer to [`Request::LeagueGames`]: the league games the answering node holds
    /// further along than the requester (each may then be synced once outside the rate
    /// limit).
    LeagueGames { games: Vec<LeagueProgress> },
    /// The answer to [`Request::Instance`]: signed instance records of the sender's player
    /// from other instances, as received (at most [`crate::instance::MAX_PER_PLAYER`]).
    Instances {
        #[serde(with = "byte_lists")]
        records: Vec<Vec<u8>>,
    },
    /// The answer to [`Request::GamesSince`]: the player's games that changed since the
    /// requester's cursor (all of them if `epoch` is not the one it asked with: the
    /// answering node restarted), each with its head, and the cursor to ask with next time.
    GameHeads {
        epoch: u64,
        cursor: u64,
        heads: Vec<GameHead>,
    },
    /// The answer to [`Request::LeagueSince`]: how far each league game changed since the
    /// cursor has gone (every league game if `epoch` is not the one asked with), at most
    /// [`MAX_LEAGUE_GAMES_LISTED`], and the cursor to ask with next.
    LeagueChanges {
        epoch: u64,
        cursor: u64,
        games: Vec<LeagueProgress>,
    },
}

/// A gossipsub message: the wire bytes of one signed event. Its message id is the event id
/// (SHA-256 of the body), so the same event is never forwarded twice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gossip {
    pub game: GameId,
    #[serde(with = "serde_bytes")]
    pub event: Vec<u8>,
}

/// Lists of byte strings (signed events, league documents) copied whole rather than byte by
/// byte through serde. The encoding is the same (a length, then the bytes): the protocol
/// does not change, only the cost of a delivery's decoding and encoding.
mod byte_lists {
    use serde::{Deserialize, Deserializer, Serializer};
    use serde_bytes::{ByteBuf, Bytes};

    pub fn serialize<S: Serializer>(v: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|b| Bytes::new(b)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
        let v: Vec<ByteBuf> = Deserialize::deserialize(d)?;
        Ok(v.into_iter().map(ByteBuf::into_vec).collect())
    }
}

/// The gossipsub topic where a player receives challenges. Games have no topic: their
/// events go by direct delivery to the players and witnesses only, so a node's topics do not
/// grow with the games it holds and its subscriptions tell a stranger nothing about them
/// (docs/architecture.md, "Gossip carries heads, not moves").
pub fn inbox_topic(player: &PlayerId) -> String {
    format!("sobre/inbox/1/{player}")
}

/// The gossipsub topic of a league, where its organiser announces [`LeagueHeads`].
pub fn league_topic(league: &EventId) -> String {
    format!("{LEAGUE_TOPIC_PREFIX}{league}")
}

/// What every league topic starts with.
pub const LEAGUE_TOPIC_PREFIX: &str = "sobre/league/1/";

/// The most heads one [`LeagueHeads`] carries: a tick's changes in a busy league fit, and
/// the message stays far below the gossip frame.
pub const MAX_HEADS_PER_MESSAGE: usize = 256;

/// The organiser's announcement on a league's topic: how far these games of the league have
/// gone on its node. A member that holds one of them less far along asks the organiser for
/// the league's games ([`Request::LeagueGames`]) and syncs what it lacks; a head carries no
/// event, so a forged one costs the member one request and gains its author nothing. Signed
/// by its author's libp2p key (gossipsub's strict validation), which is the organiser's
/// player key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueHeads {
    pub league: EventId,
    pub heads: Vec<LeagueProgress>,
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

#[cfg(test)]
mod tests {
    //! `byte_lists` and `serde_bytes` are a faster path to the same bytes: the messages of
    //! version 1 encode exactly as plain `Vec<u8>` fields did.
    use super::*;

    /// The messages as they were declared before (same variants, same order).
    #[derive(Serialize)]
    enum PlainRequest {
        Deliver { game: GameId, events: Vec<Vec<u8>> },
        _Sync,
        _Games,
        League { docs: Vec<Vec<u8>> },
    }

    #[derive(Serialize)]
    enum PlainResponse {
        Receipts { receipts: Vec<Vec<u8>> },
        Events { events: Vec<Vec<u8>> },
    }

    #[derive(Serialize)]
    struct PlainGossip {
        game: GameId,
        event: Vec<u8>,
    }

    #[test]
    fn byte_fields_encode_as_before() {
        let game = GameId::from_hex(&"ab".repeat(32)).expect("hex");
        let lists = vec![vec![], vec![1u8, 2, 3], vec![0xff; 300]];
        let pairs = [
            (
                encode(&Request::Deliver {
                    game,
                    events: lists.clone(),
                }),
                encode(&PlainRequest::Deliver {
                    game,
                    events: lists.clone(),
                }),
            ),
            (
                encode(&Request::League {
                    docs: lists.clone(),
                }),
                encode(&PlainRequest::League {
                    docs: lists.clone(),
                }),
            ),
            (
                encode(&Response::Receipts {
                    receipts: lists.clone(),
                }),
                encode(&PlainResponse::Receipts {
                    receipts: lists.clone(),
                }),
            ),
            (
                encode(&Response::Events {
                    events: lists.clone(),
                }),
                encode(&PlainResponse::Events {
                    events: lists.clone(),
                }),
            ),
            (
                encode(&Gossip {
                    game,
                    event: lists[2].clone(),
                }),
                encode(&PlainGossip {
                    game,
                    event: lists[2].clone(),
                }),
            ),
        ];
        for (new, old) in pairs {
            let (new, old) = (new.expect("encode"), old.expect("encode"));
            assert_eq!(new, old);
        }
        // And they decode back, strictly.
        let bytes = encode(&Request::Deliver {
            game,
            events: lists.clone(),
        })
        .expect("encode");
        assert_eq!(
            decode::<Request>(&bytes),
            Ok(Request::Deliver {
                game,
                events: lists
            })
        );
        assert!(decode::<Request>(&bytes[..bytes.len() - 1]).is_err());
    }
}
