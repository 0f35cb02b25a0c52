//! The views of games on the control API, built from their states: [`GameView`] (`show`)
//! and [`GameSummary`] (`games`).

use crate::api::GameView;
use crate::api::game::{
    AnnulledView, ChatLine, ClaimView, ClocksView, CoinView, DeclaredView, EnvelopeView,
    EquivocationView, LeaveView, QuickplayClaimView, QuickplayRulingView,
};
use crate::api::replies::GameSummary;
use sobre_core::ClaimReason;
use sobre_core::Outcome;
use sobre_core::clock::{ClockState, LeavePeriod};
use sobre_core::notation::{Notation, format_move};
use sobre_core::record::verify::CoinSettlement;
use sobre_core::record::{Accepter, AnnulledBy, GameId, GameState, PlayerId, Status};
use sobre_core::rules::Edition;
use sobre_core::rules::adjournment::{self, Adjournment};
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

/// The game as the rules core replays it ([`sobre_core::Game`]: every position's 9.2
/// identity), from its start position: what a move would do, and which draw claims hold.
pub fn replay(state: &GameState) -> sobre_core::Game {
    // The game's text decides which positions are the same (9.2 differs between editions).
    let mut game = sobre_core::Game::under(
        state.repetition_edition(),
        state.start.clone().unwrap_or_default(),
    );
    for m in &state.moves {
        // The moves of a verified state are legal; one that is not stops the replay (the
        // history is then shorter, never wrong).
        if game.play(m.mv).is_err() {
            break;
        }
    }
    game
}

/// The other player of a game whose players are `challenger` and `challenged`, seen from
/// `me`; none when `me` does not play in it.
pub fn opponent_of(challenger: PlayerId, challenged: PlayerId, me: &PlayerId) -> Option<PlayerId> {
    if challenger == *me {
        Some(challenged)
    } else if challenged == *me {
        Some(challenger)
    } else {
        None
    }
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
        let index = state.envelopes.len() - 1;
        EnvelopeView {
            sealer: e.sealer.name().to_owned(),
            sealed_at_ms: e.sealed_at_ms,
            move_number: env.move_number,
            fen_before: env.fen_before.clone(),
            time_used_ms: env.time_used_ms,
            draw_offer_by: id_string(env.draw_offer_by),
            resume_at_ms: agreed_resumption(state, index),
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
            // A11.1: the sealer's declared move, awaiting acceptance or played.
            declared: e.declared.as_ref().map(|d| DeclaredView {
                accepted_by: d.accepted.as_ref().map(|a| {
                    match a.role {
                        Accepter::Responder => "responder",
                        Accepter::Arbiter => "arbiter",
                    }
                    .to_owned()
                }),
                accepted_ms: d.accepted.as_ref().map(|a| a.time_ms),
                san: d.san.clone(),
                time_ms: d.time_ms,
            }),
        }
    });
    GameView {
        annul_requests: [Color::White, Color::Black]
            .into_iter()
            .filter(|c| state.annul_requests[c.index()].is_some())
            .map(|c| c.name().to_owned())
            .collect(),
        annulled: state.annulled.as_ref().map(|a| AnnulledView {
            arbiter: match a.by {
                AnnulledBy::Arbiter(p) => Some(p.to_string()),
                AnnulledBy::Players => None,
            },
            time_ms: a.time_ms,
        }),
        names: std::collections::BTreeMap::new(),
        game: state.game.to_hex(),
        white: id_string(state.white),
        black: id_string(state.black),
        challenged: state.opponent.to_string(),
        challenger: state.challenger.to_string(),
        opponent: me
            .and_then(|me| opponent_of(state.challenger, state.opponent, me))
            .map_or_else(String::new, |p| p.to_string()),
        my_color,
        fen: state.position.fen(),
        start_fen: state.start.as_ref().map(Position::fen),
        chess960: state.start.as_ref().is_some_and(Position::is_chess960),
        last_move: uci.last().cloned(),
        leave: state
            .leave
            .iter()
            .map(|(c, p)| LeaveView {
                colour: c.name().to_owned(),
                from_ms: p.from_ms,
                until_ms: p.to_ms,
            })
            .collect(),
        moves: uci,
        san: state.moves.iter().map(|m| m.san.clone()).collect(),
        status: state.status,
        result: state.result.map(|o| o.as_str().to_owned()),
        termination: state.termination.map(|t| t.code().to_owned()),
        termination_text: state.termination.map(|t| t.describe().to_owned()),
        turn: state.position.turn(),
        my_move: my_color.is_some_and(|c| c == state.position.turn())
            && matches!(state.status, Status::Active | Status::Disputed),
        terms: (state.terms != sobre_core::record::Terms::default()).then(|| {
            let t = &state.terms;
            crate::api::TermsView {
                timekeepers: t.timekeepers.iter().map(ToString::to_string).collect(),
                arbiter: t.arbiter.map(|a| a.to_string()),
                edition: t.edition.edition().year(),
                lateness_ms: t.lateness_limit_ms,
                notice_ms: t.min_notice_ms,
                correspondence_adjournment: t.correspondence_adjournment,
                no_draw_before_move: t.no_draw_before_move,
            }
        }),
        time_control: state.time_control.to_string(),
        clocks,
        draw_offer: state.draw_offer,
        envelope,
        envelope_lost: state.envelope_lost,
        sealed_move_error: state.sealed_move_error.clone(),
        presence_ms: state.presence_ms,
        quickplay_claims: state
            .quickplay_claims
            .iter()
            .map(|c| QuickplayClaimView {
                by: c.by.name().to_owned(),
                claim: c.event.to_hex(),
                claimed_ms: c.claimed_ms,
                late: c.late,
                remaining_ms: c.remaining_ms,
                rulings: c
                    .rulings
                    .iter()
                    .map(|r| QuickplayRulingView {
                        ruling: r.ruling,
                        ruled_ms: r.ruled_ms,
                    })
                    .collect(),
            })
            .collect(),
        claims: state
            .claims
            .iter()
            .map(|c| ClaimView {
                by: c.by,
                reason: c.reason,
                correct: Some(c.correct),
                judgement: c.judgement.to_string(),
                judgement_code: Some(c.judgement.clone()),
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
        deadline_ms: c.received.then_some(c.deadline_ms),
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
/// Stored with the digest of the events it was built from (`crate::store::summaries`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// after which the opponent may settle it by default (F1, `sobre_core::rules::coin`);
    /// `u64::MAX` while the acceptance is not shown to have reached the challenger (her
    /// time to open has not started, docs/time.md).
    pub coin_deadline_ms: Option<u64>,
    /// The arbiters envelopes of this game are escrowed to (A3): witnesses of the game.
    pub arbiters: Vec<PlayerId>,
    /// The game's agreed timekeepers (docs/time.md): witnesses who may read it.
    pub timekeepers: Vec<PlayerId>,
    /// The colour whose draw offer stands (9.1).
    pub draw_offer: Option<Color>,
    /// The draws the player to move could claim on the position on the board (9.2, 9.3), as
    /// the rules core judges them ([`sobre_core::Game::check_claim`]).
    pub draw_claims: Vec<ClaimReason>,
    /// The players' leave periods (their clocks stop while they last).
    pub leave: Vec<(Color, LeavePeriod)>,
    /// Chat lines written by the challenger and by the challenged player.
    pub chat_lines: [usize; 2],
    /// When an adjourned game resumes (A2.7).
    pub resume_at_ms: Option<u64>,
    /// When the game finished or was cancelled.
    pub ended_ms: Option<u64>,
    /// The last adjournment, while a lateness claim on it can be judged (A10: a binding
    /// seal, or a tag-10 seal whose envelope is still closed) and the game is not over.
    pub adjournment: Option<Adjournment>,
    /// The game got past its challenge: accepted (the clocks started) and not cancelled
    /// before Black's first move (a decline or an abort). A game annulled later (A11.2) was
    /// played. Only such a game makes its players known to each other: a challenge and its
    /// abort cost a stranger nothing and must buy it nothing (issue 30).
    pub played: bool,
}

impl Summary {
    pub fn of(state: &GameState) -> Summary {
        Summary::with_claims(state, draw_claims(state))
    }

    /// [`Summary::of`] with the draw claims open in `state` given:
    /// [`sobre_core::Game::open_draw_claims`] on the game's history kept up to date (a node's
    /// hot games), instead of a replay of the whole game for every summary.
    pub(crate) fn with_claims(state: &GameState, draw_claims: Vec<ClaimReason>) -> Summary {
        let played = state.started_ms.is_some()
            && (state.status != Status::Cancelled || state.moves.len() >= 2);
        Summary {
            played,
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
                .map(|c| if c.received { c.deadline_ms } else { u64::MAX }),
            arbiters: arbiters(state),
            timekeepers: state.terms.timekeepers.clone(),
            draw_offer: state.draw_offer,
            draw_claims,
            leave: state.leave.clone(),
            chat_lines: [
                state
                    .chat
                    .iter()
                    .filter(|(p, ..)| *p == state.challenger)
                    .count(),
                state
                    .chat
                    .iter()
                    .filter(|(p, ..)| *p == state.opponent)
                    .count(),
            ],
            resume_at_ms: (state.status == Status::Adjourned)
                .then(|| agreed_resumption(state, state.envelopes.len().checked_sub(1)?))
                .flatten(),
            ended_ms: state.ended_ms,
            adjournment: state
                .adjournments
                .last()
                .filter(|a| a.binding || state.open_envelope().is_some())
                .filter(|_| {
                    matches!(
                        state.status,
                        Status::Active | Status::Disputed | Status::Adjourned
                    )
                })
                .cloned(),
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

/// The draws by repetition (9.2) and the fifty-move rule (9.3) the player to move could
/// claim now, judged by the rules core on the game's history; none unless the game is being
/// played (not adjourned: the position is sealed, A7).
fn draw_claims(state: &GameState) -> Vec<ClaimReason> {
    if !claims_open(state) {
        return Vec::new();
    }
    replay(state).open_draw_claims()
}

/// Whether `state` is a game being played, where draws may be claimed (see
/// [`draw_claims`]).
pub(crate) fn claims_open(state: &GameState) -> bool {
    matches!(state.status, Status::Active | Status::Disputed)
}

/// The arbiters a game's envelopes are escrowed to (A3), each once.
pub fn arbiters(state: &GameState) -> Vec<PlayerId> {
    // The agreed arbiter keeps the game too: they rule on 10.2 claims and A11 requests.
    let mut out: Vec<PlayerId> = state
        .envelopes
        .iter()
        .filter_map(|e| e.escrow.as_ref().map(|x| x.arbiter))
        .chain(state.terms.arbiter)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// One line of `games`.
pub fn summary(s: &Summary, me: &PlayerId, now_ms: u64) -> GameSummary {
    let my_color = s.colour_of(me);
    let opponent = opponent_of(s.challenger, s.opponent, me);
    let live = matches!(s.status, Status::Active | Status::Disputed);
    // The opponent's chat lines: the challenger's if I was challenged.
    let theirs = usize::from(s.challenger == *me);
    let mut claimable = Vec::new();
    if let Some(c) = my_color.filter(|_| live) {
        // 6.9: the opponent's time has run out (the rules core's clock says so).
        if s.clocks
            .as_ref()
            .is_some_and(|k| k.time_claim_possible_at(c, now_ms))
        {
            claimable.push(ClaimReason::Time.name().to_owned());
        }
        if c == s.turn {
            claimable.extend(s.draw_claims.iter().map(|r| r.name().to_owned()));
        }
    }
    // A10: the opponent is more than the limit late for the resumption (or, A8, has not
    // opened the envelope they owe), judged by the rules core on the last adjournment. My
    // own flag counts as down, as `verify` counts it, when the opponent could claim time
    // against me or my flag fell already (A10c; a fallen flag stays fallen, 6.8).
    if let (Some(c), Some(a)) = (my_color, &s.adjournment) {
        let claimant_flag_down = s
            .clocks
            .as_ref()
            .is_some_and(|k| k.time_claim_possible_at(!c, now_ms) || k.flagged == Some(c));
        let verdict = adjournment::judge_lateness(
            Edition::PLAY,
            adjournment::LatenessClaim {
                adjournment: a,
                claimant: c,
                at_ms: now_ms,
                claimant_flag_down,
            },
        );
        if matches!(
            verdict,
            adjournment::LatenessVerdict::OpponentLate
                | adjournment::LatenessVerdict::SealerCannotOpen
        ) {
            claimable.push(ClaimReason::Lateness.name().to_owned());
        }
    }
    let opponent_colour = my_color.map(|c| !c);
    GameSummary {
        draw_offer: s.draw_offer,
        claimable,
        opponent_leave_until_ms: s
            .leave
            .iter()
            .filter(|(c, p)| Some(*c) == opponent_colour && p.from_ms <= now_ms && now_ms < p.to_ms)
            .map(|(_, p)| p.to_ms)
            .max(),
        opponent_chat_lines: s.chat_lines[theirs],
        resume_at_ms: s.resume_at_ms,
        ended_ms: s.ended_ms,
        league: s.league.as_ref().map(|l| l.league.to_hex()),
        game: s.game.to_hex(),
        opponent: opponent.map_or_else(String::new, |p| p.to_string()),
        opponent_name: None,
        my_color,
        status: s.status,
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

/// When the game resumes after the envelope at `index`: the adjournment's agreed time (under
/// agreed terms, the named time or the minimum notice after the seal reached the responder,
/// whichever is later; docs/time.md), else the time the envelope names (A2.7).
fn agreed_resumption(state: &GameState, index: usize) -> Option<u64> {
    let named = state.envelopes.get(index)?.seal.envelope.resume_at_ms;
    state
        .adjournments
        .iter()
        .rev()
        .find(|a| a.envelope == index)
        .and_then(|a| a.resume_at_ms)
        .or(named)
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
            // `opponent` is the node's player's opponent (it was the challenged player, who
            // now has `challenged`: one meaning per field).
            "challenged": state.opponent.to_string(),
            "challenger": state.challenger.to_string(),
            "opponent": if state.challenger == *me { state.opponent } else { state.challenger }.to_string(),
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
                "reason": c.reason.name(),
                "correct": c.correct,
                "judgement": c.judgement.to_string(),
                "judgement_code": c.judgement,
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
        assert_eq!(v.draw_offer, Some(sobre_core::Color::White));
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

    /// 9.2: after 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1 Ng8 the start position stands for
    /// the third time, and White, to move, can claim it; Black cannot (not to move). 6.9:
    /// once White's time has run out, Black can claim a win on time.
    #[test]
    fn the_list_says_what_each_player_can_claim_now() {
        use sobre_core::test_support::{GameBuilder, key};
        let (w, b) = (key(1), key(2));
        let start = Position::new();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"].repeat(2) {
            let m = parse_uci(&pos, uci).unwrap();
            pos.play_unchecked(m);
            moves.push(m);
        }
        let signed = GameBuilder::new(w.clone(), b.clone())
            .time_control("3d")
            .sign(&moves)
            .unwrap();
        let state = verify(&signed.events).unwrap();
        let s = Summary::of(&state);
        let now = signed.t + 1;
        assert_eq!(
            summary(&s, &w.player_id(), now).claimable,
            ["threefold"],
            "White, to move"
        );
        assert!(summary(&s, &b.player_id(), now).claimable.is_empty());
        // Four days later White (to move, 3 days a move) has overstepped.
        let later = now + 4 * 86_400_000;
        assert_eq!(summary(&s, &b.player_id(), later).claimable, ["time"]);
        assert_eq!(summary(&s, &w.player_id(), later).claimable, ["threefold"]);
    }

    /// The opponent's leave shows while it lasts, in the list and in the game's view.
    #[test]
    fn the_opponents_leave_is_shown_while_it_lasts() {
        use sobre_core::test_support::{GameBuilder, key};
        let (w, b) = (key(1), key(2));
        let mut signed = GameBuilder::new(w.clone(), b.clone()).sign(&[]).unwrap();
        let t = signed.t + 1_000;
        let (from, until) = (t, t + 5 * 86_400_000);
        let leave = signed.sheets[1].leave(from, until, t).unwrap();
        signed.events.push(leave);
        let state = verify(&signed.events).unwrap();
        let s = Summary::of(&state);
        let seen_by_white = |now| summary(&s, &w.player_id(), now).opponent_leave_until_ms;
        assert_eq!(seen_by_white(from + 1), Some(until));
        assert_eq!(seen_by_white(until), None, "over");
        assert_eq!(
            summary(&s, &b.player_id(), from + 1).opponent_leave_until_ms,
            None,
            "one's own leave is not the opponent's"
        );
        let v = game_view(&state, Some(&w.player_id()), from + 1);
        assert_eq!(
            v.leave,
            [LeaveView {
                colour: "black".into(),
                from_ms: from,
                until_ms: until,
            }]
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
            // The dashboard's flags, present when they apply: White's offer stands, and
            // White (the opponent) wrote a chat line.
            "draw_offer": "white",
            "opponent_chat_lines": 1,
        });
        assert_eq!(typed.to_string(), old.to_string());
    }
}
