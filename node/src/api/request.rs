//! One type per control request, each naming the type of its answer ([`Request::Reply`]),
//! as mini-redis's commands and rust-libp2p file-sharing's `Command` do: the client asks
//! with a [`Move`] and gets a [`GameView`] back ([`crate::client::Client::send`]), and the
//! service answers it with that type ([`Request::reply`]). [`ApiRequest`] is the wire edge:
//! every request once, tagged by `cmd` as the JSON has always been
//! (`{"cmd":"move","game":"3f2a","text":"Cf3"}`).

use super::game::GameView;
use super::replies::{
    AdjournReply, BlockReply, BoardReply, ClaimReply, ConditionalReply, ConnectReply,
    EnvelopeLostReply, EnvelopeReply, ExportReply, GamesReply, IdReply, LeagueDecisionReply,
    LeagueExportReply, LeagueView, LeaguesReply, LeaveReply, MovePreviewReply, PeersReply,
    ProfilesReply, RemindersReply, Reply, StatusReply, StopReply, WatchReply,
};
use super::words::{claim_name, colour_choice, verdict, withdrawal};
use super::{ConditionalAction, DecisionKind, DrawAction, ExportFormat, LeaveAction, TermsRequest};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sobre_core::Color;
use sobre_core::league::decision::{Verdict, WithdrawalRule};
use sobre_core::notation::Notation;
use sobre_core::record::{ClaimReason, ColourChoice};

/// A control request: what it is sent as, and the type of the answer it gets.
pub trait Request: Into<ApiRequest> {
    /// What the node answers (the `result` of the response line).
    type Reply: Serialize + DeserializeOwned + Into<Reply>;

    /// The service's answer, as this request's reply type: an arm answering a request with
    /// another request's reply does not compile.
    fn reply(answer: Self::Reply) -> Reply {
        answer.into()
    }
}

/// Declares [`ApiRequest`] (one variant per request, tagged by its `cmd`) and ties each
/// request to its reply.
macro_rules! requests {
    ($($name:ident => $reply:ty,)*) => {
        /// Every control request, as the control socket reads it: the fields of the request
        /// beside its `cmd` (the request's name in snake case).
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(tag = "cmd", rename_all = "snake_case")]
        pub enum ApiRequest {
            $($name($name),)*
        }

        $(
            impl From<$name> for ApiRequest {
                fn from(r: $name) -> ApiRequest {
                    ApiRequest::$name(r)
                }
            }

            impl Request for $name {
                type Reply = $reply;
            }
        )*
    };
}

requests! {
    Id => IdReply,
    Status => StatusReply,
    Stop => StopReply,
    Peers => PeersReply,
    Connect => ConnectReply,
    Block => BlockReply,
    Challenge => GameView,
    Accept => GameView,
    Decline => GameView,
    Abort => GameView,
    Games => GamesReply,
    Show => GameView,
    Move => GameView,
    MovePreview => MovePreviewReply,
    Draw => GameView,
    Claim => ClaimReply,
    Resign => GameView,
    Adjourn => AdjournReply,
    Resume => GameView,
    Envelope => EnvelopeReply,
    EnvelopeOpen => GameView,
    EnvelopeLost => EnvelopeLostReply,
    EnvelopeDeclare => GameView,
    EnvelopeAcceptDeclared => GameView,
    EnvelopeAnnul => GameView,
    QuickplayClaim => GameView,
    QuickplayRule => GameView,
    Conditional => ConditionalReply,
    Chat => GameView,
    Leave => LeaveReply,
    Export => ExportReply,
    Watch => WatchReply,
    CoinDefault => GameView,
    LeagueCreate => LeagueView,
    LeagueJoin => LeagueView,
    LeagueList => LeaguesReply,
    LeagueExport => LeagueExportReply,
    Profiles => ProfilesReply,
    ProfilePublish => ProfilesReply,
    Remember => PeersReply,
    LeagueDecide => LeagueDecisionReply,
    Reminders => RemindersReply,
    Board => BoardReply,
}

/// Who this node is: `player_id`, `name`, `addresses`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Id {}

/// Node status: uptime, peers, games, outbox size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {}

/// Stop the node gracefully.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stop {}

/// Connected and known peers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Peers {}

/// Dial a peer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Connect {
    pub addr: String,
}

/// Refuse a player for good (`unblock`: lift it); without `player`, just list. Their
/// challenges waiting for an answer are dropped, their connections closed and refused,
/// and nothing they sign is taken any more.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    #[serde(default)]
    pub player: Option<String>,
    #[serde(default)]
    pub unblock: bool,
}

/// Challenge a player: `color` is `white`, `black` or `random`; `time_control` in the
/// text form of `sobre_core::clock`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub opponent: String,
    /// The challenger's colour: `white`, `black` or `random` (the fair coin decides, F1).
    #[serde(with = "colour_choice")]
    pub color: ColourChoice,
    pub time_control: String,
    #[serde(default)]
    pub chess960: bool,
    #[serde(default)]
    pub fen: Option<String>,
    /// The terms proposed with the challenge (the acceptance countersigns them;
    /// docs/time.md). Omitted: the default terms.
    #[serde(default, skip_serializing_if = "TermsRequest::is_default")]
    pub terms: TermsRequest,
}

/// Accept a challenge. Where the challenge leaves colours or the Chess960 start to the
/// fair coin, `color` (`white` or `black`, the colour this player wants) and `position`
/// (0..959) say what the node chooses if the challenger never opens the coin (F1: see
/// [`CoinDefault`]); they stay on this node and are never sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accept {
    pub game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u16>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decline {
    pub game: String,
    #[serde(default)]
    pub reason: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Abort {
    pub game: String,
}

/// All games, most urgent first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Games {}

/// One game's full state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Show {
    pub game: String,
}

/// A move in any notation (English/Spanish SAN, coordinates, ICCF). `notation` is how
/// the player writes (`en`, `es`, `figurine`, `uci`, `iccf`): SAN is read in its letters
/// and never guessed; without it the position decides, and a text legal in both
/// languages (`Rd1`: rook in English, king in Spanish) is refused, naming both readings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    pub game: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<Notation>,
}

/// What a move would do, without playing it (`sobre move --dry-run`): read and checked
/// exactly as [`Move`] (the player's letters, their turn), answered with the
/// position after it ([`replies::MovePreviewReply`]). Nothing is signed, stored or sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovePreview {
    pub game: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<Notation>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    pub game: String,
    pub action: DrawAction,
}

/// `reason`: `threefold`, `fifty`, `time`, `dead`, `lateness` ([`ClaimReason::name`]);
/// optional intended move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    pub game: String,
    #[serde(with = "claim_name")]
    pub reason: ClaimReason,
    #[serde(default)]
    pub intended: Option<String>,
    /// How the intended move is written (as in [`Move`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<Notation>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resign {
    pub game: String,
}

/// Seal a move (Appendix A). Without `force`, a move that is ambiguous, illegal or
/// unintelligible is refused with a warning (A8 would lose the game).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjourn {
    pub game: String,
    pub seal: String,
    #[serde(default)]
    pub resume_at_ms: Option<u64>,
    #[serde(default)]
    pub place: Option<String>,
    #[serde(default)]
    pub force: bool,
    /// The letters the sealed move is written in (as in [`Move`]); they are
    /// signed in the seal, and the opening is read in them (App. E2/E3, A8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<Notation>,
    /// The player (id) who keeps the envelope (A3): the opening is escrowed with them,
    /// encrypted to their key, so their node can open it at the resumption if the sealer
    /// is absent (A9) or lost it (A11). Without it, a league game's organiser, else
    /// `arbiter_setting`; neither player can be the arbiter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arbiter: Option<String>,
    /// The player's standing choice of arbiter (`arbiter` in `HOME/config.json`), used
    /// when neither `arbiter` nor a league organiser names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arbiter_setting: Option<String>,
    /// Escrow with nobody, not even the league's organiser: a lost opening then loses
    /// the game (A8, A10).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_arbiter: bool,
}

/// Announce presence at resumption; the sealer's node opens the envelope when the
/// responder is present.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    pub game: String,
}

/// What the envelope says (A2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    pub game: String,
}

/// The arbiter opens the envelope escrowed to this node's player (A9): refused before
/// Appendix A lets it be opened (the agreed time, with the responder present; earlier
/// only when both players are) and when this node is not that envelope's arbiter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvelopeOpen {
    pub game: String,
}

/// The sealer lost the opening (A11): whether an arbiter holds it in escrow (and opens
/// it at the resumption), or else what is left; with `resign`, resigns (A6) when no
/// arbiter holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvelopeLost {
    pub game: String,
    #[serde(default)]
    pub resign: bool,
}

/// A11.1: the sealer, having lost the opening of their binding sealed move, declares the
/// move they sealed: `text` read as [`Move`] reads a move (`notation` as
/// there), in the position the envelope was sealed in. Nothing is played until the
/// responder or the agreed arbiter accepts it ([`EnvelopeAcceptDeclared`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvelopeDeclare {
    pub game: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<Notation>,
}

/// A11.1: the responder, or the game's agreed arbiter, accepts the sealer's declared
/// move: it is played as the envelope's opening would be, so only when the envelope could
/// be opened (A7 with A2.7: the agreed resumption, earlier with both players present).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvelopeAcceptDeclared {
    pub game: String,
}

/// A11.2: annul the game while its binding envelope is closed and the position cannot be
/// re-established. Signed by the agreed arbiter, it annuls the game; by a player, it is
/// their half of the players' agreement: annulled once both have signed one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvelopeAnnul {
    pub game: String,
}

/// FIDE 10.2 (Appendix D): the player to move, with less than two minutes left in a
/// quickplay finish, claims a draw; the clocks stop until the game's agreed arbiter rules
/// ([`QuickplayRule`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuickplayClaim {
    pub game: String,
}

/// FIDE 10.2a–d: the game's agreed arbiter rules on the 10.2 claim `claim` (an event id
/// or a prefix of one; by default the claim still open): `draw`, `postpone` (with
/// `extra_time`, two minutes for the opponent) or `reject` (two minutes for the
/// opponent). Final.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuickplayRule {
    pub game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<String>,
    pub ruling: sobre_core::record::QuickplayRuling,
}

/// Conditional moves: `add` (with `line`, e.g. `"Nf6 e5 Nd5"`: their move, my reply,
/// their move, my reply…), `list` or `clear`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conditional {
    pub game: String,
    pub action: ConditionalAction,
    #[serde(default)]
    pub line: Option<String>,
    /// How the line is written (as in [`Move`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<Notation>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chat {
    pub game: String,
    pub text: String,
}

/// Leave (vacation): `start` (for `days`, default 7) or `end`, in every active game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leave {
    pub action: LeaveAction,
    #[serde(default)]
    pub days: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Export {
    pub game: String,
    pub format: ExportFormat,
}

/// Stream events as they arrive (all games, or one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Watch {
    #[serde(default)]
    pub game: Option<String>,
}

/// The challenged player settles a fair coin the challenger has not opened within the
/// deadline (`sobre_core::rules::coin`): `color` is the colour this player takes,
/// `position` the Chess960 start; each defaults to what was asked at acceptance, else
/// the node's choice. Refused before the deadline. The node signs it by itself on its
/// periodic tick unless it runs with `manual_coin_default`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoinDefault {
    pub game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u16>,
}

/// The organiser signs a league definition (players in Berger order) and sends it to
/// the players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueCreate {
    pub name: String,
    pub players: Vec<String>,
    #[serde(default)]
    pub names: Vec<String>,
    #[serde(default)]
    pub double: bool,
    pub time_control: String,
    #[serde(default)]
    pub round_days: u32,
    #[serde(default)]
    pub start_ms: Option<u64>,
    /// The deputy arbiter (a player id), who decides the organiser's own games: needed
    /// when the organiser is one of the players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deputy: Option<String>,
    /// How long after a round opens its games must have started (6.6): a pairing not
    /// started by then is forfeited by the player(s) who did not appear.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_deadline_ms: Option<u64>,
}

/// A player joins a league (by id prefix or name): this accepts its games in advance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueJoin {
    pub league: String,
}

/// The leagues this node knows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueList {}

/// A league's archive: its signed definition, the joins and every league game this node
/// holds (`sobre_core::league::archive`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueExport {
    pub league: String,
}

/// The player's own profile and the profiles received from others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profiles {}

/// `HOME/profile.json` changed (`sobre profile set`): sign the profile again and send it
/// to the player's opponents, league members and mailboxes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfilePublish {}

/// Remember peers' addresses (each ending in `/p2p/<peer id>`: an invite's player, its
/// mailboxes and bootstrap nodes) and dial them; answered with the peers remembered
/// (`known`) and those connected now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Remember {
    pub addrs: Vec<String>,
}

/// The organiser (or the deputy arbiter, for the organiser's own games) signs an
/// arbiter's decision about a league (`sobre_core::league::decision`) and sends it to
/// everyone holding the league.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueDecide {
    pub league: String,
    /// `forfeit`, `double-forfeit`, `withdraw`, `adjudicate`, `settings`, `tie-breaks`,
    /// `enter` or `replace`.
    pub kind: DecisionKind,
    /// Forfeit and adjudication: the round of the pairing.
    #[serde(default)]
    pub round: Option<u32>,
    /// Forfeit: the winner; withdrawal: the player; adjudication: either player of the
    /// pairing (a player id).
    #[serde(default)]
    pub player: Option<String>,
    /// Adjudication: `1-0`, `1/2-1/2` or `0-1`.
    #[serde(default, with = "verdict")]
    pub result: Option<Verdict>,
    /// Adjudication: why.
    #[serde(default)]
    pub reason: Option<String>,
    /// Settings: the withdrawal rule, `fide` or `forfeit-remaining`.
    #[serde(default, with = "withdrawal")]
    pub withdrawal: Option<WithdrawalRule>,
    /// Tie-breaks: `fide`, `before-fide`, or a list such as `de,wins,sb,koya`.
    #[serde(default)]
    pub tie_breaks: Option<String>,
    /// Replacement: the player replaced (a player id); `player` replaces them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
    /// Entry and replacement: the new player's display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// The latest reminders the node fired (at most `limit`, default
/// [`DEFAULT_REMINDERS`]), oldest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reminders {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
}

/// Serve the board (`sobre board`, `crate::board`) if the node does not yet, and answer
/// with a URL that opens it once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request without fields is its `cmd` alone, as it always was on the socket.
    #[test]
    fn a_request_without_fields_is_its_command_alone() {
        for (request, json) in [
            (ApiRequest::from(Id {}), r#"{"cmd":"id"}"#),
            (Status {}.into(), r#"{"cmd":"status"}"#),
            (LeagueList {}.into(), r#"{"cmd":"league_list"}"#),
            (ProfilePublish {}.into(), r#"{"cmd":"profile_publish"}"#),
        ] {
            assert_eq!(serde_json::to_string(&request).unwrap(), json);
            assert_eq!(serde_json::from_str::<ApiRequest>(json).unwrap(), request);
        }
    }

    /// The reply a request names is the one the service's arm must build: `Move` answers a
    /// game's state, and that state goes out as the JSON the client reads back as one.
    #[test]
    fn a_request_names_its_reply() {
        let view = GameView {
            game: "3f2a".into(),
            ..GameView::default()
        };
        let wire = Move::reply(view.clone()).to_value().unwrap();
        let back: <Move as Request>::Reply = serde_json::from_value(wire).unwrap();
        assert_eq!(back, view);
        let stop = Stop::reply(StopReply { stopping: true })
            .to_value()
            .unwrap();
        assert_eq!(stop, serde_json::json!({"stopping": true}));
    }
}
