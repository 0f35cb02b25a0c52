//! [`GameView`]: the one view of a game's state on the control API — what `show` answers,
//! what every request that changes a game answers, and what the `sobre` command renders.
//!
//! The node builds it from a [`GameState`](sobre_core::record::GameState)
//! ([`crate::view::game_view`]); the command line deserializes it. Field names and the JSON
//! they make are the API's (scripts depend on them): the fields are declared in the order
//! the JSON has always listed them (by name, as `serde_json` sorts an object's keys), so
//! serializing a view directly or through a `serde_json::Value` gives the same bytes.
//!
//! Views written by older nodes or by hand (the golden fixtures) may lack fields: a missing
//! field reads as its default (null, false, empty).

use serde::{Deserialize, Deserializer, Serialize};
use sobre_core::Color;
use sobre_core::record::verify::Judgement;
use sobre_core::record::{ClaimReason, Status};

/// The full view of one game (`show`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameView {
    /// A11.2: the colours (`white`, `black`) of the players who asked to annul the game
    /// while its envelope was closed: it is annulled once both have.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub annul_requests: Vec<String>,
    /// A11.2: the game was annulled (its status is `cancelled`): the adjourned position
    /// could not be re-established, and a new game is to be played in its place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annulled: Option<AnnulledView>,
    /// The player with Black, once decided (null until the game starts).
    pub black: Option<String>,
    /// The player the challenge was sent to.
    pub challenged: String,
    /// The player who sent the challenge.
    pub challenger: String,
    pub chat: Vec<ChatLine>,
    pub chess960: bool,
    /// Claims (9.2, 9.3, 9.6, 6.9, A10); `reason` in the API's one word for each
    /// ([`ClaimReason::name`]: `threefold`, `fifty`…).
    pub claims: Vec<ClaimView>,
    pub clocks: Option<ClocksView>,
    /// The fair coin (F1), once the opponent's share is in.
    pub coin: Option<CoinView>,
    /// The colour (`white`, `black`) of the player whose draw offer stands (9.1).
    pub draw_offer: Option<Color>,
    /// The last sealed move's envelope (A2).
    pub envelope: Option<EnvelopeView>,
    /// The sealer lost the opening and the move was played instead (A11).
    pub envelope_lost: bool,
    /// Events a player signed twice at one place: `author` and `seq`, and, when the node
    /// holds the proof (status `disputed`), both events.
    pub equivocations: Vec<EquivocationView>,
    pub fen: String,
    pub game: String,
    /// The last move in UCI.
    pub last_move: Option<String>,
    /// The players' leave periods (correspondence vacation: the clock of the player on leave
    /// stops), as both nodes hold them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub leave: Vec<LeaveView>,
    pub move_number: u32,
    /// The moves in UCI, from the start position.
    pub moves: Vec<String>,
    /// The colour of the node's player, if they play in the game.
    pub my_color: Option<Color>,
    pub my_move: bool,
    /// Display names from the players' signed profiles, by player id (only those known).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub names: std::collections::BTreeMap<String, String>,
    /// The node's player's opponent (as in `games`); empty when the node's player does not
    /// play in the game (an arbiter's or a mailbox's view, `sobre verify`).
    pub opponent: String,
    pub plies: usize,
    /// When each player (white, black) announced presence at the resumption (A7).
    pub presence_ms: [Option<u64>; 2],
    /// 10.2: draws claimed in a quickplay finish and the arbiter's rulings, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub quickplay_claims: Vec<QuickplayClaimView>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: Option<String>,
    /// The moves in SAN as the node wrote them.
    pub san: Vec<String>,
    /// Why the sealed move is invalid (A8), if it is.
    pub sealed_move_error: Option<String>,
    /// The start position's FEN when it is not the standard one.
    pub start_fen: Option<String>,
    pub started_ms: Option<u64>,
    /// `pending`, `active`, `adjourned`, `finished`, `cancelled` or `disputed`.
    pub status: Status,
    /// The termination's code (`checkmate`, `resignation`…).
    pub termination: Option<String>,
    pub termination_text: Option<String>,
    /// The terms both players agreed to, when they differ from the default ones
    /// (docs/time.md): who keeps time, the arbiter, the Laws' edition, the limits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terms: Option<TermsView>,
    pub time_control: String,
    pub turn: Color,
    pub white: Option<String>,
}

/// A draw claimed in a quickplay finish (10.2) and what the arbiter made of it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuickplayClaimView {
    /// The claimant's colour.
    pub by: String,
    /// The claim's event id: the arbiter's ruling names it.
    pub claim: String,
    /// When the claim counts: the clocks stopped then.
    pub claimed_ms: u64,
    /// The claim counted after the claimant's flag fell: no effect.
    pub late: bool,
    /// The claimant's time left when it counted.
    pub remaining_ms: i64,
    /// The arbiter's rulings in order (a postponement, then a final one).
    pub rulings: Vec<QuickplayRulingView>,
}

/// One ruling of the arbiter on a 10.2 claim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuickplayRulingView {
    /// When it counts: the clocks restarted then.
    pub ruled_ms: u64,
    /// `draw`, `{"postpone":{"extra_time":…}}` or `reject` (the core's type).
    pub ruling: sobre_core::record::QuickplayRuling,
}

/// One chat line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChatLine {
    pub by: String,
    pub text: String,
    pub time_ms: u64,
}

/// One claim and its verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimView {
    pub by: Color,
    /// Null while the verdict is pending (older views); else whether the claim was correct.
    #[serde(default)]
    pub correct: Option<bool>,
    /// The verdict's English sentence.
    #[serde(default)]
    pub judgement: String,
    /// The verdict, typed: a client words it from this (absent from older views).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judgement_code: Option<Judgement>,
    /// What is claimed, in the word requests use (`claim` takes the same).
    #[serde(with = "super::words::claim_name")]
    pub reason: ClaimReason,
}

/// The terms of a game (`sobre_core::record::Terms`), players by id; fields in the order
/// `serde_json` sorts keys, as [`GameView`]'s.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TermsView {
    /// The arbiter who may keep sealed moves in escrow (A3).
    pub arbiter: Option<String>,
    /// Whether the correspondence game may be adjourned.
    pub correspondence_adjournment: bool,
    /// The year of the FIDE Laws the game is judged by (2009 or 2005).
    pub edition: u16,
    /// A10's limit.
    pub lateness_ms: u64,
    /// 9.1a: no draw by agreement before this move (0: none).
    pub no_draw_before_move: u32,
    /// The least notice of a resumption (A2.7).
    pub notice_ms: u64,
    /// The agreed timekeepers: each event counts at their receipt.
    pub timekeepers: Vec<String>,
}

/// The clocks of a game (6.1), in milliseconds; colours by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClocksView {
    pub black_ms: Option<i64>,
    pub black_used_ms: Option<u64>,
    pub deadline_ms: Option<u64>,
    pub flagged: Option<String>,
    pub ms_to_deadline: Option<i64>,
    pub running: Option<String>,
    pub white_ms: Option<i64>,
    pub white_used_ms: Option<u64>,
}

/// The fair coin (F1): when it was accepted, until when the challenger may open it, and how
/// it was settled (`opened`, `default` or null).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CoinView {
    pub accepted_ms: u64,
    /// Null while the acceptance is not shown to have reached the challenger (no receipt of
    /// it, no timekeeper): her time to open has not started.
    pub deadline_ms: Option<u64>,
    pub ms_to_deadline: i64,
    pub settled: Option<String>,
}

/// What the envelope of a sealed move says (A2), and who keeps it (A3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EnvelopeView {
    /// The player the opening is escrowed to (A3), if any.
    pub arbiter: Option<String>,
    pub commitment: String,
    /// A11.1: the move the sealer declared they sealed, having lost the opening; absent
    /// when none was declared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared: Option<DeclaredView>,
    pub draw_offer_by: Option<String>,
    pub fen_before: String,
    /// The letters the sealed move is read in (`en`, `es`; App. E2/E3); null for a seal
    /// signed before they were recorded (read in either language).
    pub letters: Option<String>,
    pub move_number: u32,
    /// The sealed move as it was written once opened, null before (a `true` written by hand
    /// reads as opened, with no text).
    #[serde(deserialize_with = "opened")]
    pub opened: Option<String>,
    pub opened_by_arbiter: bool,
    pub place: String,
    pub resume_at_ms: Option<u64>,
    pub sealed_at_ms: u64,
    pub sealer: String,
    pub time_used_ms: [u64; 2],
}

/// A11.1: a declared sealed move, and its acceptance once someone accepted it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeclaredView {
    /// Who accepted it: `responder` or `arbiter` (the game's agreed arbiter); null while it
    /// awaits acceptance (nothing is played until then).
    pub accepted_by: Option<String>,
    /// When it was accepted (and played as the sealer's move).
    pub accepted_ms: Option<u64>,
    /// The move in English SAN, in the position the envelope was sealed in.
    pub san: String,
    /// When it was declared.
    pub time_ms: u64,
}

/// A11.2: how a game was annulled.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnnulledView {
    /// The agreed arbiter who annulled it; null when both players did.
    pub arbiter: Option<String>,
    /// When it was annulled.
    pub time_ms: u64,
}

/// A player's leave: `[from_ms, until_ms)`, the colour by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LeaveView {
    pub colour: String,
    pub from_ms: u64,
    pub until_ms: u64,
}

/// One equivocation: two different events signed by `author` at `seq`; with the proof's
/// events (hex) when the node holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EquivocationView {
    pub author: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_id: Option<String>,
    pub seq: u64,
}

/// `opened`: the text once opened, null (or `false`) before; `true` is opened, text unknown.
fn opened<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Opened {
        Text(String),
        Flag(bool),
    }
    Ok(match Option::<Opened>::deserialize(d)? {
        Some(Opened::Text(t)) => Some(t),
        Some(Opened::Flag(true)) => Some(String::new()),
        Some(Opened::Flag(false)) | None => None,
    })
}

/// A colour by its API name (`white`, `black`).
pub fn colour(name: Option<&str>) -> Option<sobre_core::Color> {
    match name? {
        "white" => Some(sobre_core::Color::White),
        "black" => Some(sobre_core::Color::Black),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A view with every optional part present.
    fn full() -> GameView {
        GameView {
            annul_requests: vec!["white".into()],
            annulled: Some(AnnulledView {
                arbiter: None,
                time_ms: 11,
            }),
            black: Some("b".into()),
            challenged: "o".into(),
            challenger: "c".into(),
            chat: vec![ChatLine {
                by: "c".into(),
                text: "hola".into(),
                time_ms: 3,
            }],
            chess960: true,
            claims: vec![ClaimView {
                by: Color::White,
                correct: Some(false),
                judgement: "no".into(),
                judgement_code: Some(Judgement::NotFiftyMoves { moves: 3 }),
                reason: ClaimReason::FiftyMoves,
            }],
            clocks: Some(ClocksView {
                black_ms: Some(1),
                black_used_ms: Some(2),
                deadline_ms: None,
                flagged: Some("white".into()),
                ms_to_deadline: Some(-4),
                running: None,
                white_ms: Some(-5),
                white_used_ms: Some(6),
            }),
            coin: Some(CoinView {
                accepted_ms: 1,
                deadline_ms: Some(2),
                ms_to_deadline: 3,
                settled: Some("default".into()),
            }),
            draw_offer: Some(Color::Black),
            envelope: Some(EnvelopeView {
                arbiter: Some("a".into()),
                commitment: "9c".into(),
                declared: Some(DeclaredView {
                    accepted_by: Some("responder".into()),
                    accepted_ms: Some(12),
                    san: "Nf3".into(),
                    time_ms: 10,
                }),
                draw_offer_by: None,
                fen_before: "f".into(),
                letters: Some("es".into()),
                move_number: 41,
                opened: Some("Cf3".into()),
                opened_by_arbiter: true,
                place: "Club".into(),
                resume_at_ms: Some(7),
                sealed_at_ms: 8,
                sealer: "white".into(),
                time_used_ms: [9, 10],
            }),
            envelope_lost: false,
            equivocations: vec![
                EquivocationView {
                    author: "x".into(),
                    seq: 4,
                    ..EquivocationView::default()
                },
                EquivocationView {
                    author: "x".into(),
                    first: Some("01".into()),
                    first_id: Some("02".into()),
                    second: Some("03".into()),
                    second_id: Some("04".into()),
                    seq: 4,
                },
            ],
            fen: "fen".into(),
            game: "g".into(),
            last_move: Some("e2e4".into()),
            leave: vec![LeaveView {
                colour: "black".into(),
                from_ms: 1,
                until_ms: 2,
            }],
            move_number: 1,
            moves: vec!["e2e4".into()],
            my_color: Some(Color::White),
            my_move: false,
            names: [("c".to_owned(), "Carla".to_owned())].into(),
            opponent: "o".into(),
            plies: 1,
            presence_ms: [Some(1), None],
            quickplay_claims: vec![QuickplayClaimView {
                by: "white".into(),
                claim: "ab".into(),
                claimed_ms: 12,
                late: false,
                remaining_ms: 90_000,
                rulings: vec![QuickplayRulingView {
                    ruling: sobre_core::record::QuickplayRuling::Postpone { extra_time: true },
                    ruled_ms: 13,
                }],
            }],
            result: None,
            san: vec!["e4".into()],
            sealed_move_error: None,
            start_fen: None,
            started_ms: Some(5),
            status: Status::Active,
            termination: None,
            termination_text: None,
            terms: Some(TermsView {
                arbiter: Some("a".into()),
                correspondence_adjournment: false,
                edition: 2009,
                lateness_ms: 3_600_000,
                no_draw_before_move: 0,
                notice_ms: 600_000,
                timekeepers: vec!["k".into()],
            }),
            time_control: "3d".into(),
            turn: Color::Black,
            white: Some("w".into()),
        }
    }

    /// The fields are declared in the order `serde_json` sorts keys, so the view's bytes
    /// are the same whether written directly or as a `Value` (as the node sends it).
    #[test]
    fn a_view_writes_its_keys_in_the_order_of_the_api() {
        let view = full();
        let direct = serde_json::to_string(&view).unwrap();
        let through_value = serde_json::to_value(&view).unwrap().to_string();
        assert_eq!(direct, through_value);
        assert!(direct.starts_with(concat!(
            r#"{"annul_requests":["white"],"annulled":{"arbiter":null,"time_ms":11},"#,
            r#""black":"b","challenged":"o","challenger":"c","chat":[{"by":"c","#
        )));
        // An equivocation without its proof has no proof fields, not nulls.
        assert!(direct.contains(r#"{"author":"x","seq":4}"#), "{direct}");
    }

    #[test]
    fn a_view_reads_back_as_written() {
        let view = full();
        let back: GameView = serde_json::from_value(serde_json::to_value(&view).unwrap()).unwrap();
        assert_eq!(back, view);
    }

    /// Hand-written views (fixtures, older nodes) may leave fields out or write `opened` as
    /// a flag.
    #[test]
    fn missing_fields_read_as_defaults_and_opened_may_be_a_flag() {
        let v: GameView = serde_json::from_str(
            r#"{"game":"g","clocks":{"white_ms":1,"running":"white"},
                "envelope":{"sealer":"black","opened":false}}"#,
        )
        .unwrap();
        assert_eq!(v.game, "g");
        assert_eq!(v.clocks.as_ref().unwrap().black_ms, None);
        assert_eq!(v.envelope.as_ref().unwrap().opened, None);
        let e: EnvelopeView = serde_json::from_str(r#"{"opened":true}"#).unwrap();
        assert_eq!(e.opened.as_deref(), Some(""));
        let e: EnvelopeView = serde_json::from_str(r#"{"opened":null}"#).unwrap();
        assert_eq!(e.opened, None);
    }
}
