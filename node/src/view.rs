//! The views of games on the control API, built from their states: [`GameView`] (`show`)
//! and [`GameSummary`] (`games`).

use crate::api::GameView;
use crate::api::game::{ChatLine, ClaimView, ClocksView, CoinView, EnvelopeView, EquivocationView};
use crate::api::replies::GameSummary;
use sobre_core::Outcome;
use sobre_core::clock::ClockState;
use sobre_core::notation::{Notation, format_move};
use sobre_core::record::verify::CoinSettlement;
use sobre_core::record::{GameId, GameState, PlayerId, Status};
use sobre_core::{Color, Position};

/// The moves of a game in coordinate notation (UCI), from its start position.
pub fn uci_moves(state: &GameState) -> Vec<String> {
    let mut pos = state.start.clone().unwrap_or_default();
    let mut out = Vec::with_capacity(state.moves.len());
    for m in &state.moves {
        out.push(format_move(&pos, m.mv, Notation::Uci));
        pos.play_unchecked(m.mv);
    }
    out
}

fn id_string(p: Option<PlayerId>) -> Option<String> {
    p.map(|p| p.to_string())
}

/// The full view of one game (`show`) for the player `me` (none: a third party, as `sobre
/// verify` reads an archive). Stable field names: scripts depend on them.
pub fn game_view(state: &GameState, me: Option<&PlayerId>, now_ms: u64) -> GameView {
    let uci = uci_moves(state);
    let my_color = me.and_then(|me| state.colour_of(me));
    let clocks = state.clocks.as_ref().map(|c| ClocksView {
        white_ms: Some(c.remaining_ms[0]),
        black_ms: Some(c.remaining_ms[1]),
        white_used_ms: Some(c.used_ms[0]),
        black_used_ms: Some(c.used_ms[1]),
        running: c.running.map(|c| c.name().to_owned()),
        flagged: c.flagged.map(|c| c.name().to_owned()),
        deadline_ms: c.deadline_ms,
        ms_to_deadline: c.ms_to_deadline(now_ms),
    });
    let envelope = state.envelopes.last().map(|e| {
        let env = &e.seal.envelope;
        EnvelopeView {
            sealer: e.sealer.name().to_owned(),
            sealed_at_ms: e.sealed_at_ms,
            move_number: env.move_number,
            fen_before: env.fen_before.clone(),
            time_used_ms: env.time_used_ms,
            draw_offer_by: id_string(env.draw_offer_by),
            resume_at_ms: env.resume_at_ms,
            place: env.place.clone(),
            opened: e.opened.clone(),
            // The letters the sealed move is read in (App. E2/E3); null for a seal signed
            // before they were recorded (read in either language).
            letters: e.letters.map(|l| {
                match l {
                    sobre_core::record::SealLetters::English => "en",
                    sobre_core::record::SealLetters::Spanish => "es",
                }
                .to_owned()
            }),
            commitment: e
                .seal
                .commitment
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
            // A3: who keeps the envelope (the opening escrowed to them), and whether they
            // opened it.
            arbiter: id_string(e.escrow.as_ref().map(|x| x.arbiter)),
            opened_by_arbiter: e.opened_by_arbiter,
        }
    });
    GameView {
        names: std::collections::BTreeMap::new(),
        game: state.game.to_hex(),
        white: id_string(state.white),
        black: id_string(state.black),
        challenger: state.challenger.to_string(),
        opponent: state.opponent.to_string(),
        my_color: my_color.map(|c| c.name().to_owned()),
        fen: state.position.fen(),
        start_fen: state.start.as_ref().map(Position::fen),
        chess960: state.start.as_ref().is_some_and(Position::is_chess960),
        last_move: uci.last().cloned(),
        moves: uci,
        san: state.moves.iter().map(|m| m.san.clone()).collect(),
        status: state.status.name().to_owned(),
        result: state.result.map(|o| o.as_str().to_owned()),
        termination: state.termination.map(|t| t.code().to_owned()),
        termination_text: state.termination.map(|t| t.describe().to_owned()),
        turn: state.position.turn().name().to_owned(),
        my_move: my_color.is_some_and(|c| c == state.position.turn())
            && matches!(state.status, Status::Active | Status::Disputed),
        time_control: state.time_control.to_string(),
        clocks,
        draw_offer: state.draw_offer.map(|c| c.name().to_owned()),
        envelope,
        envelope_lost: state.envelope_lost,
        sealed_move_error: state.sealed_move_error.clone(),
        presence_ms: state.presence_ms,
        claims: state
            .claims
            .iter()
            .map(|c| ClaimView {
                by: c.by.name().to_owned(),
                // The claim's kind as it has always been written here (`fiftymoves`), not
                // its API word (`fifty`): scripts read it.
                reason: format!("{:?}", c.reason).to_lowercase(),
                correct: Some(c.correct),
                judgement: c.judgement.clone(),
            })
            .collect(),
        chat: state
            .chat
            .iter()
            .map(|(p, t, text)| ChatLine {
                by: p.to_string(),
                time_ms: *t,
                text: text.clone(),
            })
            .collect(),
        equivocations: state
            .equivocations
            .iter()
            .map(|e| EquivocationView {
                author: e.author.to_string(),
                seq: e.seq,
                ..EquivocationView::default()
            })
            .collect(),
        plies: state.moves.len(),
        move_number: state.position.fullmove_number(),
        started_ms: state.started_ms,
        coin: coin_view(state, now_ms),
    }
}

/// The fair coin (F1), once the opponent's share is in: when it was accepted, until when
/// the challenger may open it, and how it was settled (`opened`, `default` or null).
fn coin_view(state: &GameState, now_ms: u64) -> Option<CoinView> {
    let c = state.coin.as_ref()?;
    Some(CoinView {
        accepted_ms: c.accepted_ms,
        deadline_ms: Some(c.deadline_ms),
        ms_to_deadline: i64::try_from(c.deadline_ms)
            .unwrap_or(i64::MAX)
            .saturating_sub(i64::try_from(now_ms).unwrap_or(i64::MAX)),
        settled: c.settled.map(|s| {
            match s {
                CoinSettlement::Opened { .. } => "opened",
                CoinSettlement::Defaulted { .. } => "default",
            }
            .to_owned()
        }),
    })
}

/// What `games` shows of a game, kept for every game the node holds: a few hundred bytes,
/// where the full [`GameState`] (every move, receipt and event id) is kilobytes — a node
/// with thousands of games keeps their states and events on disk until one is used.
#[derive(Clone, Debug)]
pub struct Summary {
    pub game: GameId,
    pub challenger: PlayerId,
    pub opponent: PlayerId,
    pub white: Option<PlayerId>,
    pub black: Option<PlayerId>,
    pub status: Status,
    pub result: Option<Outcome>,
    pub turn: Color,
    pub move_number: u32,
    pub last_move: Option<String>,
    pub clocks: Option<ClockState>,
    pub time_control: String,
    /// The league round, for a league game.
    pub league: Option<sobre_core::record::LeagueRound>,
    /// How the challenge chose colours.
    pub colour_choice: sobre_core::record::ColourChoice,
    /// While the fair coin awaits the challenger's opening: the last moment it is awaited,
    /// after which the opponent may settle it by default (F1, `sobre_core::rules::coin`).
    pub coin_deadline_ms: Option<u64>,
    /// The arbiters envelopes of this game are escrowed to (A3): witnesses of the game.
    pub arbiters: Vec<PlayerId>,
}

impl Summary {
    pub fn of(state: &GameState) -> Summary {
        Summary {
            game: state.game,
            challenger: state.challenger,
            opponent: state.opponent,
            white: state.white,
            black: state.black,
            status: state.status,
            result: state.result,
            turn: state.position.turn(),
            move_number: state.position.fullmove_number(),
            last_move: state.moves.last().map(|m| m.san.clone()),
            clocks: state.clocks.clone(),
            time_control: state.time_control.to_string(),
            league: state.challenge.league.clone(),
            colour_choice: state.challenge.colour,
            coin_deadline_ms: state
                .coin
                .as_ref()
                .filter(|c| c.settled.is_none())
                .map(|c| c.deadline_ms),
            arbiters: arbiters(state),
        }
    }

    /// The colour of a player in this game, if they play in it.
    pub fn colour_of(&self, p: &PlayerId) -> Option<Color> {
        if self.white.as_ref() == Some(p) {
            Some(Color::White)
        } else if self.black.as_ref() == Some(p) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// True if `p` is one of the two players.
    pub fn plays(&self, p: &PlayerId) -> bool {
        self.challenger == *p || self.opponent == *p
    }
}

/// The arbiters a game's envelopes are escrowed to (A3), each once.
pub fn arbiters(state: &GameState) -> Vec<PlayerId> {
    let mut out: Vec<PlayerId> = state
        .envelopes
        .iter()
        .filter_map(|e| e.escrow.as_ref().map(|x| x.arbiter))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// One line of `games`.
pub fn summary(s: &Summary, me: &PlayerId, now_ms: u64) -> GameSummary {
    let my_color = s.colour_of(me);
    let opponent = if s.challenger == *me {
        s.opponent
    } else {
        s.challenger
    };
    let live = matches!(s.status, Status::Active | Status::Disputed);
    GameSummary {
        game: s.game.to_hex(),
        opponent: opponent.to_string(),
        opponent_name: None,
        my_color: my_color.map(|c| c.name().to_owned()),
        status: s.status.name().to_owned(),
        result: s.result.map(|o| o.as_str().to_owned()),
        move_number: Some(s.move_number),
        last_move: s.last_move.clone(),
        my_move: live && my_color.is_some_and(|c| c == s.turn),
        incoming_challenge: s.status == Status::Pending && s.opponent == *me,
        ms_to_deadline: s
            .clocks
            .as_ref()
            .and_then(|c| if live { c.ms_to_deadline(now_ms) } else { None }),
        time_control: s.time_control.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::{chats, keys};
    use serde_json::{Value, json};
    use sobre_core::record::author::Scoresheet;
    use sobre_core::record::{SignedEvent, verify};
    use sobre_core::uci::parse_uci;

    /// The view as the node wrote it with `json!` before [`GameView`] existed: the oracle
    /// the typed view must match byte for byte.
    fn reference(state: &GameState, me: &PlayerId, now_ms: u64) -> Value {
        let id = |p: Option<PlayerId>| p.map_or(Value::Null, |p| Value::String(p.to_string()));
        let uci = uci_moves(state);
        let my_color = state.colour_of(me);
        json!({
            "game": state.game.to_hex(),
            "white": id(state.white),
            "black": id(state.black),
            "challenger": state.challenger.to_string(),
            "opponent": state.opponent.to_string(),
            "my_color": my_color.map(Color::name),
            "fen": state.position.fen(),
            "start_fen": state.start.as_ref().map(Position::fen),
            "chess960": state.start.as_ref().is_some_and(Position::is_chess960),
            "moves": uci,
            "san": state.moves.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(),
            "last_move": uci.last(),
            "status": state.status.name(),
            "result": state.result.map(|o| o.as_str()),
            "termination": state.termination.map(|t| t.code()),
            "termination_text": state.termination.map(|t| t.describe()),
            "turn": state.position.turn().name(),
            "my_move": my_color.is_some_and(|c| c == state.position.turn())
                && matches!(state.status, Status::Active | Status::Disputed),
            "time_control": state.time_control.to_string(),
            "clocks": state.clocks.as_ref().map(|c| json!({
                "white_ms": c.remaining_ms[0],
                "black_ms": c.remaining_ms[1],
                "white_used_ms": c.used_ms[0],
                "black_used_ms": c.used_ms[1],
                "running": c.running.map(Color::name),
                "flagged": c.flagged.map(Color::name),
                "deadline_ms": c.deadline_ms,
                "ms_to_deadline": c.ms_to_deadline(now_ms),
            })),
            "draw_offer": state.draw_offer.map(Color::name),
            "envelope": Value::Null,
            "envelope_lost": state.envelope_lost,
            "sealed_move_error": state.sealed_move_error,
            "presence_ms": state.presence_ms,
            "claims": state.claims.iter().map(|c| json!({
                "by": c.by.name(),
                "reason": format!("{:?}", c.reason).to_lowercase(),
                "correct": c.correct,
                "judgement": c.judgement,
            })).collect::<Vec<_>>(),
            "chat": state.chat.iter().map(|(p, t, text)| json!({"by": p.to_string(), "time_ms": t, "text": text})).collect::<Vec<_>>(),
            "equivocations": state.equivocations.iter().map(|e| json!({"author": e.author.to_string(), "seq": e.seq})).collect::<Vec<_>>(),
            "plies": state.moves.len(),
            "move_number": state.position.fullmove_number(),
            "started_ms": state.started_ms,
            "coin": Value::Null,
        })
    }

    /// A game under way: accepted, 1.e4 e5, a draw offer and a chat line.
    fn game_under_way() -> Vec<SignedEvent> {
        let (w, b) = keys();
        let (game, [challenge, ..]) = chats(&w, &b);
        let mut white = Scoresheet::resume(w, game, 1, Some(game), None);
        let mut black = Scoresheet::join(b, game);
        black.saw(challenge.id());
        let accept = black.accept(None, 10).unwrap();
        white.saw(accept.id());
        let e4 = white
            .play(parse_uci(&Position::new(), "e2e4").unwrap(), 20)
            .unwrap();
        black.saw(e4.id());
        let mut after = Position::new();
        after.play_unchecked(parse_uci(&after, "e2e4").unwrap());
        let e5 = black.play(parse_uci(&after, "e7e5").unwrap(), 30).unwrap();
        white.saw(e5.id());
        let offer = white.offer_draw(40).unwrap();
        let chat = white.chat("¿tablas?", 50).unwrap();
        vec![challenge, accept, e4, e5, offer, chat]
    }

    #[test]
    fn the_typed_view_writes_what_the_json_view_wrote() {
        let (w, b) = keys();
        let events = game_under_way();
        for n in [1, events.len()] {
            let state = verify(&events[..n]).unwrap();
            for me in [w.player_id(), b.player_id()] {
                let typed = serde_json::to_value(game_view(&state, Some(&me), 60)).unwrap();
                let old = reference(&state, &me, 60);
                assert_eq!(typed.to_string(), old.to_string());
            }
        }
        let state = verify(&events).unwrap();
        let v = game_view(&state, Some(&b.player_id()), 60);
        assert_eq!(v.moves, ["e2e4", "e7e5"]);
        assert_eq!(v.draw_offer.as_deref(), Some("white"));
        assert_eq!(v.chat.len(), 1);
    }

    #[test]
    fn an_equivocation_is_listed_by_author_and_number() {
        let (w, b) = keys();
        let (_, events) = chats(&w, &b);
        let state = verify(&events).unwrap();
        let typed = serde_json::to_value(game_view(&state, Some(&w.player_id()), 0)).unwrap();
        assert_eq!(
            typed.to_string(),
            reference(&state, &w.player_id(), 0).to_string()
        );
    }

    #[test]
    fn a_games_line_writes_what_it_wrote() {
        let (w, b) = keys();
        let state = verify(&game_under_way()).unwrap();
        let s = Summary::of(&state);
        let me = b.player_id();
        let typed = serde_json::to_value(summary(&s, &me, 60)).unwrap();
        let old = json!({
            "game": s.game.to_hex(),
            "opponent": w.player_id().to_string(),
            "my_color": "black",
            "status": "active",
            "result": null,
            "move_number": 2,
            "last_move": "e5",
            "my_move": false,
            "incoming_challenge": false,
            "ms_to_deadline": s.clocks.as_ref().and_then(|c| c.ms_to_deadline(60)),
            "time_control": "3d",
        });
        assert_eq!(typed.to_string(), old.to_string());
    }
}
