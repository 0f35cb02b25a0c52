//! How long a 16-player double round robin (240 signed games) takes to verify from its
//! archive, the work of `sobre league verify FILE`: read the archive (the definition's
//! signature), verify every game move by move, apply the decisions and rank.
//!
//! `cargo run --release -p sobre-core --example league_verify_speed -- [PLIES] [OUT.sobre]`
//!
//! Builds the archive (every game a real signed one: challenge, acceptance, PLIES plies of
//! a seeded legal line, then a resignation), writes it to OUT if given (then
//! `sobre league verify OUT` times the real command), and prints the best of five
//! verification times. Debug builds are far slower and not the figure.

use sobre_core::Position;
use sobre_core::league::archive;
use sobre_core::league::decision::apply;
use sobre_core::league::standings::standings;
use sobre_core::league::{Board, GameEntry, League, LeagueDef, Scoring};
use sobre_core::record::{
    Challenge, ColourChoice, Keypair, LeagueRound, Scoresheet, SignedEvent, StartPosition,
};
use sobre_core::test_support::{Lines, key};
use std::time::Instant;

const PLAYERS: u8 = 16;

fn main() {
    let mut args = std::env::args().skip(1);
    let plies: usize = match args.next().map(|a| a.parse()) {
        None => 40,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("PLIES: {e}");
            std::process::exit(2);
        }
    };
    let out = args.next();

    let org = key(200);
    let keys: Vec<Keypair> = (1..=PLAYERS).map(key).collect();
    let def = LeagueDef {
        name: "Figure: 16 players, double round robin".into(),
        players: keys.iter().map(Keypair::player_id).collect(),
        names: (1..=PLAYERS).map(|i| format!("Player {i}")).collect(),
        double: true,
        time_control: "3d".into(),
        start_ms: 1_700_000_000_000,
        round_days: 7,
        scoring: Scoring::default(),
    };
    let league = match League::create(&org, def, 1_699_000_000_000) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("league: {e}");
            std::process::exit(1);
        }
    };
    let t = Instant::now();
    let mut games = Vec::new();
    let mut lines = Lines::new(20).endless();
    for (i, boards) in league.rounds().iter().enumerate() {
        for b in boards {
            if let Board::Game { white, black } = *b {
                let round = i as u32 + 1;
                match game(
                    &league,
                    round,
                    &keys[white - 1],
                    &keys[black - 1],
                    &mut lines,
                    plies,
                ) {
                    Ok(g) => games.push(g),
                    Err(e) => {
                        eprintln!("round {round}: {e}");
                        std::process::exit(1);
                    }
                }
            }
        }
    }
    let text = match archive::write(&league, &[], &[], &games) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("archive: {e}");
            std::process::exit(1);
        }
    };
    eprintln!(
        "built {} games ({} bytes of archive) in {:.2?}",
        games.len(),
        text.len(),
        t.elapsed()
    );
    if let Some(path) = &out {
        if let Err(e) = std::fs::write(path, &text) {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
        eprintln!("wrote {path}: time `sobre league verify {path}`");
    }

    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let arch = match archive::read(&text) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("read: {e}");
                std::process::exit(1);
            }
        };
        let s = standings(&arch.league, &arch.games, league.def.start_ms);
        let s = apply(&arch.league, s, &arch.decisions);
        let secs = t.elapsed().as_secs_f64();
        if !s.excluded.is_empty() || s.games.len() != games.len() {
            eprintln!(
                "{} game(s) left out: {:?}",
                s.excluded.len(),
                s.excluded.first()
            );
            std::process::exit(1);
        }
        best = best.min(secs);
    }
    println!(
        "{} games verified and ranked in {best:.3} s (best of 5, {} build)",
        games.len(),
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
}

/// A real signed league game: White challenges, Black accepts, `plies` plies of a seeded
/// legal line, then the side to move resigns (unless the line ended the game first).
fn game(
    league: &League,
    round: u32,
    white: &Keypair,
    black: &Keypair,
    lines: &mut Lines,
    plies: usize,
) -> Result<GameEntry, sobre_core::record::codec::CodecError> {
    let mut t = league.def.start_ms + u64::from(round) * 1000;
    let mut tick = || {
        t += 60_000;
        t
    };
    let challenge = Challenge {
        opponent: black.player_id(),
        colour: ColourChoice::ChallengerWhite,
        time_control: league.def.time_control.clone(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: Some(LeagueRound {
            league: league.id,
            round,
        }),
    };
    let (mut w, c) = Scoresheet::challenge(white.clone(), challenge, tick())?;
    let mut b = Scoresheet::join(black.clone(), w.game());
    b.saw(c.id());
    let mut events: Vec<SignedEvent> = vec![c];
    let a = b.accept(None, tick())?;
    w.saw(a.id());
    events.push(a);
    let line = lines.line(&Position::new(), plies);
    for (i, m) in line.iter().enumerate() {
        let (mover, other) = if i.is_multiple_of(2) {
            (&mut w, &mut b)
        } else {
            (&mut b, &mut w)
        };
        let e = mover.play(*m, tick())?;
        other.saw(e.id());
        events.push(e);
    }
    if line.len() == plies {
        let loser = if plies.is_multiple_of(2) {
            &mut w
        } else {
            &mut b
        };
        events.push(loser.resign(tick())?);
    }
    Ok(GameEntry {
        game: events[0].id(),
        events,
        proofs: Vec::new(),
    })
}
