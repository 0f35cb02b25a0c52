//! The typed replies of the control API: one struct per kind of answer, built by the node
//! and deserialized by the `sobre` command. They serialize to the JSON the API has always
//! answered: fields are declared in the order of their names (the order `serde_json` gives
//! an object's keys), and the node sends each reply as a `serde_json::Value` ([`Reply`]), so
//! the bytes do not depend on the declaration order anyway.

use super::game::{EnvelopeView, GameView};
use serde::{Deserialize, Serialize};
use sobre_core::Color;
use sobre_core::record::Status;

/// `id`: who this node is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct IdReply {
    /// The addresses others can dial, each ending in `/p2p/<player id>`.
    pub addresses: Vec<String>,
    pub mailbox: bool,
    pub name: Option<String>,
    pub player_id: String,
}

/// `status`: the node's counters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct StatusReply {
    pub games: usize,
    /// How many games the node verified in full when it started; the others were read
    /// from the summaries stored when they were last verified.
    pub games_verified_at_start: usize,
    pub mailbox: bool,
    /// Events awaiting a recipient's receipt.
    pub outbox: usize,
    pub peers: usize,
    pub player_id: String,
    pub uptime_ms: u64,
    /// Whether the node is reachable from outside, as peers' AutoNAT probes found:
    /// `public`, `private` (behind NAT or a firewall) or `unknown` (not probed yet).
    pub reachability: String,
    /// The address peers reached, when `public`.
    pub public_address: Option<String>,
    /// Relays holding a reservation for this node: it is reachable through each.
    pub relays: Vec<String>,
    /// The other players of the player's unfinished games.
    pub opponents: Vec<OpponentEntry>,
    /// What the node has sent and received since it started.
    pub traffic: crate::network::TrafficCounts,
}

/// An opponent in `status`: connected now, or when last seen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OpponentEntry {
    pub player: String,
    pub connected: bool,
    /// When its node last told us its addresses (ms since the epoch), if ever.
    pub last_seen_ms: Option<u64>,
    /// How far its clock is from this node's (theirs minus ours, ms), measured from its
    /// receipts of our latest quick delivery; `None` until one was measured since start.
    pub clock_skew_ms: Option<i64>,
}

/// `node doctor` warns when an opponent's clock is this far from ours: events dated beyond
/// two minutes of the receiver's clock are refused, so past this the margin is thin.
pub const SKEW_WARN_MS: i64 = 30_000;

/// `stop`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopReply {
    pub stopping: bool,
}

/// `board`: the URL that opens the board in a browser, once (its token is spent by the
/// first load, which gets a session cookie instead).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardReply {
    pub url: String,
}

/// `watch`: the first line of the stream, before the events.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchReply {
    pub watching: bool,
    /// The game (prefix) watched; all games when absent.
    pub game: Option<String>,
}

/// `peers`: connected and remembered peers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PeersReply {
    pub connected: Vec<PeerEntry>,
    pub known: Vec<PeerEntry>,
}

/// A peer and its addresses.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PeerEntry {
    pub addresses: Vec<String>,
    pub peer: String,
    /// Among the connected: the node keeps connection room for this peer (an opponent, a
    /// witness of a game the player plays or rules, a mailbox of the player), so that
    /// neither the per-address caps nor the idle close and eviction reach it.
    pub reserved: bool,
}

/// `connect`: the peer dialled.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectReply {
    pub peer: String,
}

/// `block`: the players refused for good, after the request.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BlockReply {
    pub blocked: Vec<String>,
}

/// `games`: every game, most urgent first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GamesReply {
    pub games: Vec<GameSummary>,
}

/// One line of `games`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameSummary {
    pub game: String,
    /// A challenge to this node's player awaiting their answer.
    pub incoming_challenge: bool,
    /// The last move in SAN.
    pub last_move: Option<String>,
    pub move_number: Option<u32>,
    /// The time left to the player to move, while the game is live.
    pub ms_to_deadline: Option<i64>,
    pub my_color: Option<Color>,
    pub my_move: bool,
    /// The node's player's opponent (as in a game's view); empty in a game the node's player
    /// does not play (a mailbox's or an arbiter's).
    pub opponent: String,
    /// The opponent's name from their signed profile, if one was received.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opponent_name: Option<String>,
    pub result: Option<String>,
    pub status: Status,
    pub time_control: String,
    /// The colour whose draw offer stands (9.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<Color>,
    /// What the player could claim now ([`sobre_core::ClaimReason::name`]): `time` (6.9, the
    /// opponent's time has run out), `threefold` (9.2), `fifty` (9.3) on the position on the
    /// board — as the rules core judges them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub claimable: Vec<String>,
    /// Until when the opponent is on leave, while they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opponent_leave_until_ms: Option<u64>,
    /// The chat lines the opponent wrote in the game (`sobre games` counts those not yet
    /// shown to the player).
    #[serde(skip_serializing_if = "is_zero")]
    pub opponent_chat_lines: usize,
    /// When an adjourned game resumes (A2.7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume_at_ms: Option<u64>,
    /// When the game finished or was cancelled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_ms: Option<u64>,
    /// The league (its id) of a league game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub league: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// `claim`: the game, and the verdict on the claim just made (9.2, 9.3, 9.5).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClaimReply {
    #[serde(flatten)]
    pub view: GameView,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<ClaimVerdict>,
}

/// Whether a claim was correct, and the arbiter's words for it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimVerdict {
    pub correct: bool,
    /// The verdict's English sentence.
    pub judgement: String,
    /// The verdict, typed: a client words it from this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judgement_code: Option<sobre_core::record::verify::Judgement>,
}

/// `move_preview`: the position a move would give, computed by the rules core from the
/// game's state; nothing was signed or sent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MovePreviewReply {
    /// How the game would end with this move (`checkmate`, `stalemate`…), if it would.
    pub ending: Option<String>,
    /// The position after the move.
    pub fen: String,
    /// The position before it (the game's current one).
    pub fen_before: String,
    pub game: String,
    /// The colour of the player who would move (the node's player).
    pub my_color: Color,
    /// The move in English SAN, as the node would record it.
    pub san: String,
    /// The move in coordinates (UCI).
    pub uci: String,
}

/// `adjourn`: the game, and who keeps the envelope (A3).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AdjournReply {
    #[serde(flatten)]
    pub view: GameView,
    #[serde(default)]
    pub escrow: EscrowReply,
}

/// The arbiter the sealed move's opening is escrowed to, if any (A3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EscrowReply {
    pub arbiter: Option<String>,
}

/// `envelope`: what the envelope says (A2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EnvelopeReply {
    pub envelope: Option<EnvelopeView>,
    pub game: String,
    pub status: Status,
}

/// `envelope_lost`: what is left when the sealer lost the opening (A11).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EnvelopeLostReply {
    pub advice: String,
    /// The arbiter keeping the opening in escrow (A3), if any.
    pub arbiter: Option<String>,
    /// Whether the sealed move binds (the letters were signed with the seal).
    pub binding: bool,
    pub game: String,
    pub opening_held: bool,
    pub resigned: bool,
    pub result: Option<String>,
    pub resume_at_ms: Option<u64>,
    pub status: Status,
}

/// `conditional`: the prepared lines of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ConditionalReply {
    pub game: String,
    pub lines: Vec<Vec<String>>,
}

/// `leave`: the period recorded, and the games it was recorded in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LeaveReply {
    pub from_ms: u64,
    pub games: Vec<String>,
    pub until_ms: u64,
}

/// `export`: the game as PGN, or its signed archive.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportReply {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive: Option<String>,
    pub game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgn: Option<String>,
}

/// A league as `league create`, `join` and `list` show it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LeagueView {
    pub double: bool,
    /// League games this node holds.
    pub games: usize,
    pub joined: Vec<String>,
    pub league: String,
    pub name: String,
    pub names: Vec<String>,
    pub open_rounds: usize,
    pub organiser: String,
    /// The deputy arbiter, who decides the organiser's own games (a league the organiser
    /// plays in).
    pub deputy: Option<String>,
    pub players: Vec<String>,
    /// This node's player in it: `organiser`, `deputy`, `player`, `invited` or `witness`.
    pub role: String,
    pub round_days: u32,
    pub rounds: usize,
    pub start_ms: u64,
    pub time_control: String,
}

/// `league_list`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LeaguesReply {
    pub leagues: Vec<LeagueView>,
}

/// `league_export`: the league's archive.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LeagueExportReply {
    pub archive: String,
    pub league: String,
    /// Whether the node's view may lack games: `Some(n)`, the organiser's list has been
    /// received and `n` of its games are not held as far along yet (0: complete); `None`,
    /// the organiser has not answered since the node started.
    pub not_received: Option<usize>,
}

/// `league_decide`: the signed decision and what it does to the table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LeagueDecisionReply {
    pub league: String,
    /// The decision's document id.
    pub decision: String,
    /// What it did, or why it is without effect.
    pub text: String,
    /// Whether it changes the table.
    pub effective: bool,
}

/// A player's signed profile, as shown (`profiles`, `profile_publish`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProfileView {
    pub club: Option<String>,
    pub federation_id: Option<String>,
    pub issued_ms: u64,
    pub languages: Vec<String>,
    pub name: String,
    pub player: String,
}

/// `profiles` and `profile_publish`: the player's own profile (none without a name) and, for
/// `profiles`, those received from other players.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProfilesReply {
    pub me: Option<ProfileView>,
    pub players: Vec<ProfileView>,
}

/// `reminders`: the latest reminders the node fired, oldest first (see
/// [`crate::reminders`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RemindersReply {
    pub reminders: Vec<crate::reminders::Reminder>,
}

/// Any reply, as the node answers a request: each kind serializes as its own object.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Reply {
    Game(Box<GameView>),
    Claim(Box<ClaimReply>),
    Adjourn(Box<AdjournReply>),
    MovePreview(MovePreviewReply),
    Games(GamesReply),
    Id(IdReply),
    Status(StatusReply),
    Stop(StopReply),
    Peers(PeersReply),
    Connect(ConnectReply),
    Block(BlockReply),
    Envelope(Box<EnvelopeReply>),
    EnvelopeLost(EnvelopeLostReply),
    Conditional(ConditionalReply),
    Leave(LeaveReply),
    Export(ExportReply),
    League(LeagueView),
    Leagues(LeaguesReply),
    LeagueExport(LeagueExportReply),
    Profiles(ProfilesReply),
    LeagueDecision(LeagueDecisionReply),
    Reminders(RemindersReply),
    Watch(WatchReply),
    Board(BoardReply),
}

impl Reply {
    /// The reply as the `result` of a response line.
    ///
    /// # Errors
    /// Only if serialization fails, which these plain structs never do (a bug if so).
    pub fn to_value(&self) -> Result<serde_json::Value, serde_json::Error> {
        serde_json::to_value(self)
    }
}

impl From<GameView> for Reply {
    fn from(v: GameView) -> Reply {
        Reply::Game(Box::new(v))
    }
}

impl From<ClaimReply> for Reply {
    fn from(v: ClaimReply) -> Reply {
        Reply::Claim(Box::new(v))
    }
}

impl From<AdjournReply> for Reply {
    fn from(v: AdjournReply) -> Reply {
        Reply::Adjourn(Box::new(v))
    }
}

impl From<EnvelopeReply> for Reply {
    fn from(v: EnvelopeReply) -> Reply {
        Reply::Envelope(Box::new(v))
    }
}

/// `From` for the replies held unboxed.
macro_rules! unboxed {
    ($($variant:ident($t:ty)),* $(,)?) => {
        $(impl From<$t> for Reply {
            fn from(v: $t) -> Reply {
                Reply::$variant(v)
            }
        })*
    };
}

unboxed!(
    MovePreview(MovePreviewReply),
    Games(GamesReply),
    Id(IdReply),
    Status(StatusReply),
    Stop(StopReply),
    Peers(PeersReply),
    Connect(ConnectReply),
    Block(BlockReply),
    EnvelopeLost(EnvelopeLostReply),
    Conditional(ConditionalReply),
    Leave(LeaveReply),
    Export(ExportReply),
    League(LeagueView),
    Leagues(LeaguesReply),
    LeagueExport(LeagueExportReply),
    Profiles(ProfilesReply),
    LeagueDecision(LeagueDecisionReply),
    Reminders(RemindersReply),
    Watch(WatchReply),
    Board(BoardReply),
);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Replies that add to a game's view keep the view's fields at the top level.
    #[test]
    fn a_claim_reply_is_the_view_with_the_verdict_beside_it() {
        let reply = ClaimReply {
            view: GameView {
                game: "ab".into(),
                status: Status::Finished,
                ..GameView::default()
            },
            claim: Some(ClaimVerdict {
                correct: true,
                judgement: "9.3".into(),
                judgement_code: None,
            }),
        };
        let v = Reply::from(reply.clone()).to_value().unwrap();
        assert_eq!(v["status"], "finished");
        assert_eq!(v["claim"], json!({"correct": true, "judgement": "9.3"}));
        assert_eq!(serde_json::from_value::<ClaimReply>(v).unwrap(), reply);
    }
}
