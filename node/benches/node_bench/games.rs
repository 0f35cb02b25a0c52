//! Deterministic games, signed with `Scoresheet`, and keys from tags.

use crate::Res;
use crate::stats::cpus;
use sobre_core::record::author::Scoresheet;
use sobre_core::record::{
    Challenge, ColourChoice, GameId, Keypair, SignedEvent, StartPosition, verify,
};
use sobre_core::{Game, Move, Position};
use sobre_node::home;
use sobre_node::store::Store;
use std::path::Path;

/// xorshift64: the same games on every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A legal move that does not end the game (no mate, stalemate, dead position, fivefold or
/// 75-move rule), picked by `rng`; `None` if every move ends it.
pub fn pick_move(game: &Game, rng: &mut Rng) -> Option<Move> {
    let moves = game.position().legal_moves();
    let playable: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| {
            let mut g = game.clone();
            g.play(m).is_ok() && g.automatic_end().is_none()
        })
        .collect();
    if playable.is_empty() {
        return None;
    }
    Some(playable[(rng.next() % playable.len() as u64) as usize])
}

/// A key from a tag and an index (any 32 bytes are an ed25519 secret).
pub fn key(tag: u32, i: u64) -> Keypair {
    let mut s = [0u8; 32];
    s[..4].copy_from_slice(&tag.to_le_bytes());
    s[4..12].copy_from_slice(&i.to_le_bytes());
    s[31] = 0x5b;
    Keypair::from_secret_bytes(&s)
}

/// A signed game: challenge (by `white`, who plays White), accept, then exactly `plies`
/// moves, one minute apart from `t0`. Retries other seeds until a game lasts.
fn signed_game(
    white: &Keypair,
    black: &Keypair,
    seed: u64,
    plies: usize,
    t0: u64,
) -> Vec<SignedEvent> {
    let mut s = seed;
    loop {
        if let Some(g) = try_signed_game(white, black, s, plies, t0) {
            return g;
        }
        s = s.wrapping_add(0x1000_0000);
    }
}

fn try_signed_game(
    white: &Keypair,
    black: &Keypair,
    seed: u64,
    plies: usize,
    t0: u64,
) -> Option<Vec<SignedEvent>> {
    let mut rng = Rng::new(seed);
    let terms = Challenge {
        opponent: black.player_id(),
        colour: ColourChoice::ChallengerWhite,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: None,
    };
    let (ws, ch) = Scoresheet::challenge(white.clone(), terms, t0).ok()?;
    let mut bs = Scoresheet::join(black.clone(), ws.game());
    bs.saw(ch.id());
    let acc = bs.accept(None, t0 + 1_000).ok()?;
    let mut sheets = [ws, bs];
    sheets[0].saw(acc.id());
    let mut events = vec![ch, acc];
    let mut game = Game::new(Position::new());
    let mut t = t0 + 1_000;
    for _ in 0..plies {
        let m = pick_move(&game, &mut rng)?;
        let c = game.position().turn().index();
        t += 60_000;
        let e = sheets[c].play(m, t).ok()?;
        sheets[1 - c].saw(e.id());
        game.play(m).ok()?;
        events.push(e);
    }
    Some(events)
}

/// `n` games signed on all cores; game `i` is `players(i)`'s.
pub fn signed_games(
    n: usize,
    plies: usize,
    t0: u64,
    players: impl Fn(usize) -> (Keypair, Keypair) + Sync,
) -> Vec<Vec<SignedEvent>> {
    let threads = cpus().max(1);
    let mut out: Vec<Option<Vec<SignedEvent>>> = (0..n).map(|_| None).collect();
    let chunk = n.div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (c, slots) in out.chunks_mut(chunk).enumerate() {
            let players = &players;
            s.spawn(move || {
                for (j, slot) in slots.iter_mut().enumerate() {
                    let i = c * chunk + j;
                    let (w, b) = players(i);
                    // Distinct challenge times make distinct games between the same players.
                    *slot = Some(signed_game(&w, &b, i as u64 + 1, plies, t0 + i as u64));
                }
            });
        }
    });
    out.into_iter().map(|g| g.expect("authored")).collect()
}

/// The moves of a game signed by [`signed_game`], replayed from its events.
pub fn game_moves(events: &[SignedEvent]) -> Vec<Move> {
    let state = verify(events).expect("a signed game verifies");
    state.moves.iter().map(|m| m.mv).collect()
}

pub fn game_id(events: &[SignedEvent]) -> GameId {
    events[0].id()
}

/// Writes games straight into the store of `home` (the node is not running).
pub async fn preload(home: &Path, games: &[Vec<SignedEvent>]) -> Res<()> {
    let store = Store::open(&home::db_path(home))?;
    for g in games {
        let id = game_id(g);
        for e in g {
            store.insert_event(&id, e)?;
        }
    }
    store.flush().await?;
    Ok(())
}
