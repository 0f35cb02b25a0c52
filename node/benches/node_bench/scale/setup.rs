//! The scale phase's setup through the control API: the live games (White challenges Black
//! by id, Black accepts) and the league (created by its organiser, joined by its players,
//! whose nodes then start round 1's games by themselves).

use super::play::LiveGame;
use super::{World, pick};
use crate::Res;
use futures::StreamExt;
use rand::rngs::StdRng;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// The longest any setup wait may take.
const STEP: Duration = Duration::from_secs(90);
const POLL: Duration = Duration::from_millis(100);
/// The time control of every game (no clock runs out during the run).
const TIME_CONTROL: &str = "3d";

/// Starts the live games: White challenges Black by id, Black accepts.
pub async fn start_games(w: &World, pairs: &[(usize, usize)]) -> Res<Vec<LiveGame>> {
    let started = futures::stream::iter(pairs.iter().enumerate())
        .map(|(i, &(white, black))| async move {
            let id = challenge(w, white, black).await?;
            Res::Ok(LiveGame::new(
                id,
                white,
                black,
                false,
                super::SEED + i as u64,
            ))
        })
        .buffered(8)
        .collect::<Vec<_>>()
        .await;
    started.into_iter().collect()
}

/// `white` challenges `black` by id; `black` accepts once the challenge is there. The game's
/// id once `white` sees it active.
pub async fn challenge(w: &World, white: usize, black: usize) -> Res<String> {
    let ch = w
        .call(
            white,
            ApiRequest::Challenge(request::Challenge {
                opponent: w.players[black].id.clone(),
                color: sobre_core::record::ColourChoice::ChallengerWhite,
                time_control: TIME_CONTROL.into(),
                chess960: false,
                fen: None,
                terms: Default::default(),
            }),
        )
        .await?;
    let game = ch["game"].as_str().ok_or("no game id")?.to_owned();
    wait_status(w, black, &game, "pending").await?;
    w.call(
        black,
        ApiRequest::Accept(request::Accept {
            game: game.clone(),
            color: None,
            position: None,
        }),
    )
    .await?;
    wait_status(w, white, &game, "active").await?;
    Ok(game)
}

async fn wait_status(w: &World, p: usize, game: &str, status: &str) -> Res<()> {
    let deadline = Instant::now() + STEP;
    loop {
        let shown = w
            .call(p, ApiRequest::Show(request::Show { game: game.into() }))
            .await;
        let now = match &shown {
            Ok(v) if v["status"] == status => return Ok(()),
            Ok(v) => v["status"].to_string(),
            Err(e) => e.to_string(),
        };
        if Instant::now() > deadline {
            return Err(format!("game {game} not {status} at player {p}: {now}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The league: its players evenly from every club, its organiser a player outside it who
/// every player meets (as an invitation makes them); round 1 open, its games started by
/// the players' nodes once they join.
pub async fn start_league(
    w: &mut World,
    live: &[LiveGame],
    rng: &mut StdRng,
) -> Res<Vec<LiveGame>> {
    let live: HashSet<&str> = live.iter().map(|g| g.id.as_str()).collect();
    let clubs = w.clubs.len();
    let per_club = w.s.league_players.div_ceil(clubs);
    let mut league = Vec::new();
    for c in 0..clubs {
        let of_club: Vec<usize> = (0..w.players.len()).filter(|p| p % clubs == c).collect();
        league.extend(pick(&of_club, per_club, rng));
    }
    league.truncate(w.s.league_players);
    let organiser = (0..w.players.len())
        .find(|p| !league.contains(p))
        .ok_or("no player left to organise")?;
    w.organiser = organiser;
    w.league_players = league.clone();
    let org_addr = {
        let guard = w.players[organiser].node.lock().await;
        guard.as_ref().ok_or("organiser down")?.id().await?.1
    };
    for &p in &league {
        w.call(
            p,
            ApiRequest::Connect(request::Connect {
                addr: org_addr.clone(),
            }),
        )
        .await?;
    }
    let ids: Vec<String> = league.iter().map(|&p| w.players[p].id.clone()).collect();
    let created = w
        .call(
            organiser,
            ApiRequest::LeagueCreate(request::LeagueCreate {
                name: "Scale".into(),
                players: ids,
                names: Vec::new(),
                double: false,
                time_control: TIME_CONTROL.into(),
                // Only round 1 is open during the run.
                round_days: 7,
                start_ms: None,
                deputy: None,
                start_deadline_ms: None,
            }),
        )
        .await?;
    let lid = created["league"].as_str().ok_or("no league id")?.to_owned();
    for &p in &league {
        let deadline = Instant::now() + STEP;
        loop {
            let v = w
                .call(p, ApiRequest::LeagueList(request::LeagueList {}))
                .await?;
            let listed = v["leagues"]
                .as_array()
                .is_some_and(|a| a.iter().any(|l| l["league"] == lid.as_str()));
            if listed {
                break;
            }
            if Instant::now() > deadline {
                return Err(format!("the league never reached player {p}").into());
            }
            tokio::time::sleep(POLL).await;
        }
        w.call(
            p,
            ApiRequest::LeagueJoin(request::LeagueJoin {
                league: lid.clone(),
            }),
        )
        .await?;
    }
    // Each league player with exactly one active game besides its live ones, its pairing's.
    let deadline = Instant::now() + STEP;
    loop {
        let mut games: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
        let mut settled = true;
        for &p in &league {
            let v = w.call(p, ApiRequest::Games(request::Games {})).await?;
            // The bench started every other game it plays.
            let mut league_games: Vec<String> = v["games"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|g| g["status"] == "active")
                .filter_map(|g| g["game"].as_str())
                .filter(|g| !live.contains(g))
                .map(str::to_owned)
                .collect();
            if league_games.len() != 1 {
                settled = false;
                break;
            }
            games.entry(league_games.remove(0)).or_default().push(p);
        }
        if settled && games.values().all(|ps| ps.len() == 2) {
            let mut out = Vec::new();
            for (i, (id, ps)) in games.into_iter().enumerate() {
                let shown = w
                    .call(ps[0], ApiRequest::Show(request::Show { game: id.clone() }))
                    .await?;
                let of = |c: &str| {
                    ps.iter()
                        .copied()
                        .find(|&p| shown[c] == w.players[p].id.as_str())
                };
                let (white, black) = (
                    of("white").ok_or("no white")?,
                    of("black").ok_or("no black")?,
                );
                out.push(LiveGame::new(id, white, black, true, 1000 + i as u64));
            }
            return Ok(out);
        }
        if Instant::now() > deadline {
            return Err("the league's round 1 games never settled".into());
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}
