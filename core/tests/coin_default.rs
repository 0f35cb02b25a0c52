//! The fair coin's deadline in `verify` (FIDE Appendix F1: the Chess960 start, and colours,
//! drawn by lot before the game). The challenger, who opens last, knows the draw before she
//! opens; once `rules::coin`'s deadline after the acceptance has passed without an opening,
//! the opponent settles the coin by default (wire tag 20) with the colour and position she
//! chooses, as if the challenger had lost the coin. One test per rule, named after F1.

use sobre_core::clock::{DAY, HOUR, SECOND};
use sobre_core::record::author::Scoresheet;
use sobre_core::record::commit;
use sobre_core::record::verify::{CoinSettlement, verify_continue};
use sobre_core::record::{
    Challenge, CoinColour, ColourChoice, GameState, PlayerId, SignedEvent, StartPosition, Status,
    VerifyError, verify,
};
use sobre_core::rules::coin::COIN_OPENING_DEADLINE_MS;
use sobre_core::san::{Lang, parse_san};
use sobre_core::test_support::{T0, key};
use sobre_core::{Color, Position};

/// When the acceptance is signed.
const ACCEPTED: u64 = T0 + HOUR;
/// The first moment a default is valid: more than the deadline after the acceptance.
const DEFAULT_AT: u64 = ACCEPTED + COIN_OPENING_DEADLINE_MS + 1;

/// A coin game between the challenger (key 1) and the opponent (key 2), challenged at `T0`
/// and accepted at [`ACCEPTED`]: each player's scoresheet and the events so far.
struct Coin {
    challenger: Scoresheet,
    opponent: Scoresheet,
    events: Vec<SignedEvent>,
    secret: [u8; 32],
    share: [u8; 32],
}

impl Coin {
    fn new(colour: ColourChoice, start: StartPosition, tc: &str, secret: [u8; 32]) -> Coin {
        let share = [0x5a; 32];
        let challenge = Challenge {
            opponent: key(2).player_id(),
            colour,
            time_control: tc.into(),
            start,
            coin_commitment: Some(commit::coin_commitment(&secret)),
            league: None,
        };
        let (challenger, ch) = Scoresheet::challenge(key(1), challenge, T0).expect("signs");
        let mut opponent = Scoresheet::join(key(2), challenger.game());
        opponent.saw(ch.id());
        let acc = opponent.accept(Some(share), ACCEPTED).expect("signs");
        Coin {
            challenger,
            opponent,
            events: vec![ch, acc],
            secret,
            share,
        }
    }

    fn colours(secret: [u8; 32]) -> Coin {
        Coin::new(ColourChoice::Random, StartPosition::Standard, "3d", secret)
    }

    /// The challenger has received the acceptance.
    fn challenger_saw_acceptance(&mut self) {
        let acc = self.events[1].id();
        self.challenger.saw(acc);
    }

    fn open(&mut self, t: u64) -> SignedEvent {
        let ev = self
            .challenger
            .random_reveal(self.secret, t)
            .expect("signs");
        self.events.push(ev.clone());
        ev
    }

    fn default(
        &mut self,
        colour: Option<CoinColour>,
        position: Option<u16>,
        t: u64,
    ) -> SignedEvent {
        let ev = self
            .opponent
            .coin_default(colour, position, t)
            .expect("signs");
        self.events.push(ev.clone());
        ev
    }

    fn state(&self) -> GameState {
        verify(&self.events).expect("the record verifies")
    }

    fn refusal(&self) -> (&'static str, PlayerId) {
        match verify(&self.events) {
            Err(VerifyError::Rule { kind, author, .. }) => (kind, author),
            other => panic!("expected a refused event, got {other:?}"),
        }
    }

    /// The colour the coin itself gives the challenger.
    fn coin_gives_challenger(&self) -> Color {
        let coin = commit::coin(&self.challenger.game(), &self.secret, &self.share);
        if commit::challenger_is_white(&coin) {
            Color::White
        } else {
            Color::Black
        }
    }
}

fn challenger() -> PlayerId {
    key(1).player_id()
}

fn opponent() -> PlayerId {
    key(2).player_id()
}

/// A secret whose coin gives the challenger `colour` (the coin depends on the game id,
/// which depends on the commitment: try secrets until one does).
fn secret_giving_challenger(colour: Color) -> [u8; 32] {
    (0..=255u8)
        .map(|n| [n; 32])
        .find(|&s| Coin::colours(s).coin_gives_challenger() == colour)
        .expect("a secret for either colour among 256")
}

#[test]
fn f1_coin_default_before_the_deadline_is_refused() {
    for at in [ACCEPTED + SECOND, ACCEPTED + COIN_OPENING_DEADLINE_MS] {
        let mut g = Coin::colours([1; 32]);
        let ev = g.default(Some(CoinColour::White), None, at);
        assert_eq!(g.refusal(), ("coin_default", opponent()), "signed at {at}");
        // The record without it stands: pending, the coin awaited.
        g.events.retain(|e| e.id() != ev.id());
        let st = g.state();
        assert_eq!(st.status, Status::Pending);
        let coin = st.coin.expect("the share is in");
        assert_eq!(coin.deadline_ms, ACCEPTED + COIN_OPENING_DEADLINE_MS);
        assert_eq!(coin.settled, None);
    }
}

#[test]
fn f1_coin_default_by_the_challenger_is_refused() {
    let mut g = Coin::colours([1; 32]);
    g.challenger_saw_acceptance();
    let ev = g
        .challenger
        .coin_default(Some(CoinColour::White), None, DEFAULT_AT)
        .expect("signs");
    g.events.push(ev);
    assert_eq!(g.refusal(), ("coin_default", challenger()));
}

#[test]
fn f1_coin_default_after_the_deadline_starts_the_game_with_the_opponents_colour() {
    for (taken, white) in [
        (CoinColour::White, opponent()),
        (CoinColour::Black, challenger()),
    ] {
        let mut g = Coin::colours([1; 32]);
        let ev = g.default(Some(taken), None, DEFAULT_AT);
        let st = g.state();
        assert_eq!(st.status, Status::Active);
        assert_eq!(st.white, Some(white));
        assert_eq!(st.colour_of(&opponent()), Some(taken.colour()));
        assert_eq!(st.started_ms, Some(DEFAULT_AT));
        assert_eq!(
            st.coin.and_then(|c| c.settled),
            Some(CoinSettlement::Defaulted { event: ev.id() })
        );
        assert!(st.clocks.is_some(), "the clocks start with the game");
    }
}

#[test]
fn f1_coin_default_sets_the_chess960_start_the_opponent_chose() {
    // Position drawn, colours fixed by the challenge.
    let mut g = Coin::new(
        ColourChoice::ChallengerWhite,
        StartPosition::Chess960Random,
        "3d",
        [1; 32],
    );
    g.default(None, Some(0), DEFAULT_AT);
    let st = g.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(st.start, Position::chess960(0));
    assert_eq!(
        st.position.fen(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    assert_eq!(st.white, Some(challenger()));
    // Both drawn: the opponent chooses both.
    let mut g = Coin::new(
        ColourChoice::Random,
        StartPosition::Chess960Random,
        "3d",
        [1; 32],
    );
    g.default(Some(CoinColour::Black), Some(959), DEFAULT_AT);
    let st = g.state();
    assert_eq!(st.black, Some(opponent()));
    assert_eq!(st.start, Position::chess960(959));
}

#[test]
fn f1_a_default_names_exactly_what_the_coin_was_to_decide() {
    let cases: [(ColourChoice, StartPosition, Option<CoinColour>, Option<u16>); 5] = [
        // Colours drawn, no colour named.
        (ColourChoice::Random, StartPosition::Standard, None, None),
        // Colours fixed, a colour named.
        (
            ColourChoice::ChallengerBlack,
            StartPosition::Chess960Random,
            Some(CoinColour::White),
            Some(3),
        ),
        // Start drawn, no position named.
        (
            ColourChoice::ChallengerWhite,
            StartPosition::Chess960Random,
            None,
            None,
        ),
        // Start fixed, a position named.
        (
            ColourChoice::Random,
            StartPosition::Standard,
            Some(CoinColour::White),
            Some(518),
        ),
        // No such position (F1: 960 of them, 0..959).
        (
            ColourChoice::ChallengerWhite,
            StartPosition::Chess960Random,
            None,
            Some(960),
        ),
    ];
    for (colour, start, taken, position) in cases {
        let mut g = Coin::new(colour, start.clone(), "3d", [1; 32]);
        g.default(taken, position, DEFAULT_AT);
        assert_eq!(
            g.refusal(),
            ("coin_default", opponent()),
            "{colour:?} {start:?} {taken:?} {position:?}"
        );
    }
}

#[test]
fn f1_an_opening_after_a_default_is_ignored() {
    let mut g = Coin::colours(secret_giving_challenger(Color::White));
    g.challenger_saw_acceptance();
    g.default(Some(CoinColour::White), None, DEFAULT_AT);
    // The challenger, having let the deadline pass, opens a coin that would have given her
    // White: too late.
    let late = g.open(DEFAULT_AT + HOUR);
    let st = g.state();
    assert_eq!(st.white, Some(opponent()));
    assert!(st.ignored.iter().any(|(id, _)| *id == late.id()));
    assert_eq!(st.status, Status::Active);
}

#[test]
fn f1_a_default_after_an_opening_is_ignored() {
    let mut g = Coin::colours(secret_giving_challenger(Color::White));
    g.challenger_saw_acceptance();
    g.open(ACCEPTED + SECOND);
    // The opponent's node, cut off, did not receive the opening and defaulted.
    let late = g.default(Some(CoinColour::White), None, DEFAULT_AT);
    let st = g.state();
    assert_eq!(st.white, Some(challenger()), "the coin decided");
    assert!(st.ignored.iter().any(|(id, _)| *id == late.id()));
    assert!(matches!(
        st.coin.and_then(|c| c.settled),
        Some(CoinSettlement::Opened { .. })
    ));
}

/// The opening and the default crossed: each side moved as the colour its own settlement
/// gave it. The first settlement in the record's order stands, the loser's move made
/// without having seen it is kept but ignored, and the game goes on once the loser has seen
/// it — the record verifies on both nodes instead of failing on a move out of turn.
#[test]
fn f1_a_crossed_opening_and_default_leave_one_game() {
    let mut g = Coin::colours(secret_giving_challenger(Color::White));
    g.challenger_saw_acceptance();
    let opening = g.open(ACCEPTED + SECOND);
    let start = Position::new();
    let e4 = parse_san(&start, "e4", Lang::English).expect("legal");
    let d4 = parse_san(&start, "d4", Lang::English).expect("legal");
    let white_e4 = g.challenger.play(e4, ACCEPTED + 2 * SECOND).expect("signs");
    g.events.push(white_e4.clone());
    // The opponent saw neither, defaulted taking White and played d4.
    let default = g.default(Some(CoinColour::White), None, DEFAULT_AT);
    let stray = g.opponent.play(d4, DEFAULT_AT + SECOND).expect("signs");
    g.events.push(stray.clone());
    let st = g.state();
    assert_eq!(st.white, Some(challenger()));
    assert_eq!(st.moves.len(), 1, "only 1.e4 stands");
    let ignored: Vec<_> = st.ignored.iter().map(|(id, _)| *id).collect();
    assert!(ignored.contains(&default.id()) && ignored.contains(&stray.id()));
    // Once the opponent has seen the opening and 1.e4, she answers as Black.
    g.opponent.saw(opening.id());
    g.opponent.saw(white_e4.id());
    let mut pos = start.clone();
    pos.play_unchecked(e4);
    let e5 = parse_san(&pos, "e5", Lang::English).expect("legal");
    let reply = g.opponent.play(e5, DEFAULT_AT + HOUR).expect("signs");
    g.events.push(reply);
    let st = g.state();
    assert_eq!(st.moves.len(), 2);
    assert_eq!(st.status, Status::Active);
    // The incremental path gives what the full replay gives.
    let verified: Vec<_> = g
        .events
        .iter()
        .map(|e| e.verify().expect("signed"))
        .collect();
    let (_, checkpoint) = verify_continue(&verified[..3], None, None).expect("verifies");
    let (continued, _) = verify_continue(&verified, Some(&checkpoint), None).expect("verifies");
    assert_eq!(format!("{continued:?}"), format!("{st:?}"));
}

/// The mirror race: the challenger's node came back after the default was signed but
/// before it arrived, and opened at once; her move as the coin's White is ignored until she
/// has seen the default.
#[test]
fn f1_a_late_opening_and_its_moves_are_ignored_after_a_default() {
    let mut g = Coin::colours(secret_giving_challenger(Color::White));
    g.challenger_saw_acceptance();
    let default = g.default(Some(CoinColour::White), None, DEFAULT_AT);
    g.open(DEFAULT_AT + SECOND);
    let e4 = parse_san(&Position::new(), "e4", Lang::English).expect("legal");
    let stray = g
        .challenger
        .play(e4, DEFAULT_AT + 2 * SECOND)
        .expect("signs");
    g.events.push(stray.clone());
    let st = g.state();
    assert_eq!(st.white, Some(opponent()));
    assert!(st.moves.is_empty());
    assert!(st.ignored.iter().any(|(id, _)| *id == stray.id()));
    // Having seen the default, she waits for White's move: the opponent plays 1.d4.
    g.challenger.saw(default.id());
    let d4 = parse_san(&Position::new(), "d4", Lang::English).expect("legal");
    let mv = g.opponent.play(d4, DEFAULT_AT + HOUR).expect("signs");
    g.events.push(mv);
    assert_eq!(g.state().moves.len(), 1);
}

#[test]
fn f1_a_challenger_who_holds_the_share_cannot_abort_the_unopened_coin() {
    let mut g = Coin::colours([1; 32]);
    g.challenger_saw_acceptance();
    let abort = g.challenger.abort(ACCEPTED + SECOND).expect("signs");
    g.events.push(abort.clone());
    let st = g.state();
    assert_eq!(st.status, Status::Pending, "the abort withholds the draw");
    assert!(st.ignored.iter().any(|(id, _)| *id == abort.id()));
    g.default(Some(CoinColour::White), None, DEFAULT_AT);
    assert_eq!(g.state().status, Status::Active);
}

#[test]
fn f1_an_abort_that_crossed_the_acceptance_still_cancels() {
    let mut g = Coin::colours([1; 32]);
    // Signed after the acceptance, but without having received it: she did not know the
    // draw.
    let abort = g.challenger.abort(ACCEPTED + SECOND).expect("signs");
    g.events.push(abort);
    assert_eq!(g.state().status, Status::Cancelled);
}

#[test]
fn f1_the_coin_is_settled_by_default_once() {
    let mut g = Coin::colours([1; 32]);
    g.default(Some(CoinColour::White), None, DEFAULT_AT);
    g.default(Some(CoinColour::Black), None, DEFAULT_AT + 1);
    assert_eq!(g.refusal(), ("coin_default", opponent()));
}

#[test]
fn f1_no_default_without_an_accepted_coin() {
    // A game with fixed colours has no coin to default.
    let challenge = Challenge {
        opponent: opponent(),
        colour: ColourChoice::ChallengerWhite,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: None,
    };
    let (_, ch) = Scoresheet::challenge(key(1), challenge, T0).expect("signs");
    let mut os = Scoresheet::join(key(2), ch.id());
    os.saw(ch.id());
    let acc = os.accept(None, ACCEPTED).expect("signs");
    let def = os
        .coin_default(Some(CoinColour::White), None, DEFAULT_AT)
        .expect("signs");
    assert!(matches!(
        verify(&[ch, acc, def]),
        Err(VerifyError::Rule {
            kind: "coin_default",
            ..
        })
    ));
}

#[test]
fn f1_the_deadline_is_the_games_time_for_a_move_when_shorter() {
    // Over the board, 10 seconds for the game: the challenger has 10 seconds to open.
    let mut g = Coin::new(
        ColourChoice::Random,
        StartPosition::Standard,
        "otb 10s",
        [1; 32],
    );
    g.default(Some(CoinColour::White), None, ACCEPTED + 10 * SECOND + 1);
    assert_eq!(g.state().status, Status::Active);
    let mut g = Coin::new(
        ColourChoice::Random,
        StartPosition::Standard,
        "otb 10s",
        [1; 32],
    );
    g.default(Some(CoinColour::White), None, ACCEPTED + 10 * SECOND);
    assert_eq!(g.refusal(), ("coin_default", opponent()));
}

#[test]
fn f1_an_acceptance_dated_before_the_challenge_does_not_shorten_the_deadline() {
    // The opponent dates her acceptance two days before the challenge to default at once.
    let challenge = Challenge {
        opponent: opponent(),
        colour: ColourChoice::Random,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: Some(commit::coin_commitment(&[1; 32])),
        league: None,
    };
    let (_, ch) = Scoresheet::challenge(key(1), challenge, T0).expect("signs");
    let mut os = Scoresheet::join(key(2), ch.id());
    os.saw(ch.id());
    let acc = os.accept(Some([2; 32]), T0 - 2 * DAY).expect("signs");
    let def = os
        .coin_default(Some(CoinColour::White), None, T0 + HOUR)
        .expect("signs");
    assert!(verify(&[ch.clone(), acc.clone(), def]).is_err());
    let def = Scoresheet::resume(key(2), ch.id(), 1, Some(acc.id()), Some(ch.id()))
        .coin_default(Some(CoinColour::White), None, T0 + DAY + 1)
        .expect("signs");
    assert_eq!(
        verify(&[ch, acc, def]).expect("verifies").status,
        Status::Active
    );
}
