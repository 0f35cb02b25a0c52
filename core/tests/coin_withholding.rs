//! Withholding the fair coin no longer pays (FIDE Appendix F1: colours and a Chess960 start
//! drawn by lot). 1,000 simulated challenges, with real signed events through `verify`, from
//! a fixed proptest seed: each challenge is played by an honest challenger (she always
//! opens) and by a withholding one (she opens only when the draw is what she wants; otherwise
//! she lets the deadline pass and the opponent's default starts the game), against the same
//! draws, so the two are compared challenge by challenge.
//!
//! Against an opponent who chose (at acceptance) what she wanted — in a game both players
//! want the same thing from: White, a position good for oneself — every withheld game starts
//! with the opponent's choice, so the withholder gets her wish in *exactly* the challenges
//! where the honest challenger gets it: the counts are compared exactly, which cannot flake.
//! Before the default existed a withheld game simply never started and she re-challenged,
//! so every game she played had her colour (or the best of k positions); the same draws
//! show that too, so the test would fail if the default did not start the withheld games.
//!
//! The binomial bounds below are sanity checks of the coin at 6σ (σ = √(n·p·(1−p))): under
//! the fixed seed they are deterministic, and under any other seed they would fail with
//! probability below 2·10⁻⁹.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sobre_core::Color;
use sobre_core::clock::{HOUR, SECOND};
use sobre_core::record::author::Scoresheet;
use sobre_core::record::commit;
use sobre_core::record::{
    Challenge, CoinColour, ColourChoice, GameState, Keypair, SignedEvent, StartPosition, Status,
    verify,
};
use sobre_core::rules::coin::COIN_OPENING_DEADLINE_MS;
use std::cell::RefCell;

const CHALLENGES: u32 = 1_000;
const SEED: &[u8; 32] = b"sobre coin withholding, fixed v1";
const T0: u64 = 1_800_000_000_000;
/// The withholder's Chess960 taste: she likes one position in `K` (positions `n % K == 3`)
/// and, before the default, re-challenged up to `K` times (the best of k).
const K: u16 = 8;

fn runner() -> TestRunner {
    let config = Config {
        cases: CHALLENGES,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, SEED))
}

/// One challenge's random inputs: the challenger's secret, the opponent's share, and the
/// number the opponent's node draws when it settles a default the player gave no choice for.
fn arb_draw() -> impl Strategy<Value = ([u8; 32], [u8; 32], u16)> {
    (any::<[u8; 32]>(), any::<[u8; 32]>(), 0..960u16)
}

/// A challenge and its acceptance, and the scoresheets to go on with.
struct Drawn {
    challenger: Scoresheet,
    events: Vec<SignedEvent>,
    secret: [u8; 32],
}

fn drawn(start: StartPosition, colour: ColourChoice, secret: [u8; 32], share: [u8; 32]) -> Drawn {
    let (white, black) = (Keypair::from_secret_bytes(&[1; 32]), opponent());
    let challenge = Challenge {
        opponent: black.player_id(),
        colour,
        time_control: "3d".into(),
        start,
        coin_commitment: Some(commit::coin_commitment(&secret)),
        league: None,
    };
    let (mut challenger, ch) = Scoresheet::challenge(white, challenge, T0).expect("signs");
    let mut opponent = Scoresheet::join(black, ch.id());
    opponent.saw(ch.id());
    let acc = opponent.accept(Some(share), T0 + HOUR).expect("signs");
    challenger.saw(acc.id());
    Drawn {
        challenger,
        events: vec![ch, acc],
        secret,
    }
}

impl Drawn {
    /// The honest path: the challenger opens at once.
    fn opened(&mut self) -> GameState {
        let open = self
            .challenger
            .random_reveal(self.secret, T0 + HOUR + SECOND)
            .expect("signs");
        let mut events = self.events.clone();
        events.push(open);
        verify(&events).expect("verifies")
    }

    /// The challenger withholds; before the default existed the game stayed pending.
    fn withheld(&self) -> GameState {
        verify(&self.events).expect("verifies")
    }

    /// The challenger withholds; after the deadline the opponent settles by default (each
    /// call an alternative future of the same challenge: the default is her second event).
    fn defaulted(&self, colour: Option<CoinColour>, position: Option<u16>) -> GameState {
        let at = T0 + HOUR + COIN_OPENING_DEADLINE_MS + SECOND;
        let (challenge, acceptance) = (self.events[0].id(), self.events[1].id());
        let default =
            Scoresheet::resume(opponent(), challenge, 1, Some(acceptance), Some(challenge))
                .coin_default(colour, position, at)
                .expect("signs");
        let mut events = self.events.clone();
        events.push(default);
        verify(&events).expect("verifies")
    }
}

fn opponent() -> Keypair {
    Keypair::from_secret_bytes(&[2; 32])
}

fn challenger_colour(st: &GameState) -> Option<Color> {
    st.colour_of(&Keypair::from_secret_bytes(&[1; 32]).player_id())
}

fn start_number(st: &GameState) -> Option<u16> {
    let start = st.start.as_ref()?;
    (0..960).find(|&n| sobre_core::Position::chess960(n).as_ref() == Some(start))
}

#[derive(Default, Debug)]
struct Colours {
    honest: u32,
    withholder: u32,
    /// Before the default: games she played, and how many with her colour.
    old_played: u32,
    old_wanted: u32,
    /// Her opponent gave no choice and his node took White (its rule for that case).
    vs_node_rule_white_seekers: u32,
    honest_white_seekers: u32,
}

#[test]
fn f1_withholding_the_coin_gets_no_more_colours_than_opening_it() {
    let counts = RefCell::new(Colours::default());
    runner()
        .run(
            &(arb_draw(), any::<bool>()),
            |((secret, share, _), wants_white)| {
                let wanted = if wants_white {
                    Color::White
                } else {
                    Color::Black
                };
                let mut g = drawn(StartPosition::Standard, ColourChoice::Random, secret, share);
                let honest = g.opened();
                prop_assert_eq!(honest.status, Status::Active);
                let coin_colour = challenger_colour(&honest);
                let mut c = counts.borrow_mut();
                c.honest += u32::from(coin_colour == Some(wanted));
                let withholder = if coin_colour == Some(wanted) {
                    honest.clone()
                } else {
                    // The opponent wants the same colour, and said so at acceptance.
                    g.defaulted(Some(CoinColour::of(wanted)), None)
                };
                prop_assert_eq!(withholder.status, Status::Active);
                let got = challenger_colour(&withholder);
                c.withholder += u32::from(got == Some(wanted));
                // The same challenge, exactly: she gets her colour iff the coin gave it.
                prop_assert_eq!(got == Some(wanted), coin_colour == Some(wanted));
                // Before the default: a withheld game never started.
                if coin_colour == Some(wanted) {
                    c.old_played += 1;
                    c.old_wanted += 1;
                } else {
                    prop_assert_eq!(g.withheld().status, Status::Pending);
                }
                // An opponent who named nothing: his node takes White (node/src/service/coin.rs).
                if wants_white {
                    c.honest_white_seekers += u32::from(coin_colour == Some(Color::White));
                    let st = if coin_colour == Some(Color::White) {
                        honest
                    } else {
                        g.defaulted(Some(CoinColour::White), None)
                    };
                    c.vs_node_rule_white_seekers +=
                        u32::from(challenger_colour(&st) == Some(Color::White));
                }
                Ok(())
            },
        )
        .expect("every challenge behaves");
    let c = counts.into_inner();
    eprintln!("{c:?}");
    assert_eq!(c.withholder, c.honest, "{c:?}");
    assert_eq!(
        c.vs_node_rule_white_seekers, c.honest_white_seekers,
        "{c:?}"
    );
    // The coin is fair: 500 ± 95 (6σ, σ ≈ 15.8).
    assert!((405..=595).contains(&c.honest), "{c:?}");
    // Before the default, withholding paid: every game she played had her colour.
    assert_eq!(c.old_wanted, c.old_played, "{c:?}");
    assert!(c.old_played > 0);
}

#[derive(Default, Debug)]
struct Starts {
    honest: u32,
    withholder: u32,
    vs_random_default: u32,
    /// Before the default: series of up to K challenges, each ending in one game.
    old_series: u32,
    old_liked: u32,
    old_attempts: u32,
}

fn liked(n: u16) -> bool {
    n % K == 3
}

#[test]
fn f1_withholding_the_coin_gets_no_better_chess960_starts_than_opening_it() {
    let counts = RefCell::new(Starts::default());
    runner()
        .run(&arb_draw(), |(secret, share, node_draw)| {
            let mut g = drawn(
                StartPosition::Chess960Random,
                ColourChoice::ChallengerWhite,
                secret,
                share,
            );
            let honest = g.opened();
            let drawn_start = start_number(&honest);
            prop_assert!(drawn_start.is_some());
            let honest_liked = drawn_start.is_some_and(liked);
            let mut c = counts.borrow_mut();
            c.honest += u32::from(honest_liked);
            // The opponent names a start good for him, which (the game being zero-sum) is one
            // she does not like: the first after the coin's that she does not.
            let opponents = (0..960u16)
                .map(|i| (drawn_start.unwrap_or(0) + i) % 960)
                .find(|&n| !liked(n))
                .unwrap_or(0);
            let withholder = if honest_liked {
                honest.clone()
            } else {
                g.defaulted(None, Some(opponents))
            };
            prop_assert_eq!(withholder.status, Status::Active);
            let got = start_number(&withholder);
            if !honest_liked {
                prop_assert_eq!(got, Some(opponents));
            }
            c.withholder += u32::from(got.is_some_and(liked));
            prop_assert_eq!(got.is_some_and(liked), honest_liked);
            // An opponent who named nothing: his node draws the start (one more draw for her).
            let vs_random = if honest_liked {
                true
            } else {
                let st = g.defaulted(None, Some(node_draw));
                start_number(&st).is_some_and(liked)
            };
            c.vs_random_default += u32::from(vs_random);
            // Before the default: she re-challenged until she liked the start or had tried K
            // times, then played that game.
            c.old_attempts += 1;
            if honest_liked || c.old_attempts == u32::from(K) {
                c.old_series += 1;
                c.old_liked += u32::from(honest_liked);
                c.old_attempts = 0;
            } else {
                prop_assert_eq!(g.withheld().status, Status::Pending);
            }
            Ok(())
        })
        .expect("every challenge behaves");
    let c = counts.into_inner();
    eprintln!("{c:?}");
    let n = f64::from(CHALLENGES);
    let bound = |p: f64, trials: f64| (trials * p, 6.0 * (trials * p * (1.0 - p)).sqrt());
    assert_eq!(c.withholder, c.honest, "{c:?}");
    // The coin: 1 in K liked, 125 ± 63.
    let (mean, six_sigma) = bound(1.0 / f64::from(K), n);
    assert!((f64::from(c.honest) - mean).abs() <= six_sigma, "{c:?}");
    // Against a random default she gets one more draw: p(2 − p) = 23.4 %, 234 ± 80 — still
    // well below the best of K she had before (1 − (1 − p)^K = 65.6 % of her games).
    let p = 1.0 / f64::from(K);
    let (mean, six_sigma) = bound(p * (2.0 - p), n);
    assert!(
        (f64::from(c.vs_random_default) - mean).abs() <= six_sigma,
        "{c:?}"
    );
    let series = f64::from(c.old_series);
    let (mean, six_sigma) = bound(1.0 - (1.0 - p).powi(i32::from(K)), series);
    assert!((f64::from(c.old_liked) - mean).abs() <= six_sigma, "{c:?}");
    assert!(f64::from(c.vs_random_default) / n < f64::from(c.old_liked) / series);
}
