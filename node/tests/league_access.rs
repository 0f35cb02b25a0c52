//! Who may list and read a league's games (issue 20): its organiser's node serves every
//! game of the league to the league's players — games between others included — and
//! a stranger gets the empty answers it gets for anything else.

use crate::common::net::{actor, actor_of};

use crate::common::{STEP, TestNode};
use libp2p::PeerId;
use serde_json::Value;
use sobre_core::record::EventId;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::network::NetworkHandle;
use sobre_node::protocol::{LeagueProgress, Request, Response};
use std::time::{Duration, Instant};

async fn league_games(h: &NetworkHandle, to: PeerId, league: EventId) -> Vec<LeagueProgress> {
    match h
        .request(
            to,
            Request::LeagueGames {
                league,
                have: Vec::new(),
            },
        )
        .await
    {
        Ok(Response::LeagueGames { games }) => games,
        other => panic!("unexpected answer to a league game list: {other:?}"),
    }
}

async fn sync(h: &NetworkHandle, to: PeerId, game: EventId) -> Vec<Vec<u8>> {
    let request = Request::Sync {
        game,
        have: Vec::new(),
    };
    match h.request(to, request).await {
        Ok(Response::Events { events }) => events,
        other => panic!("unexpected answer to a sync: {other:?}"),
    }
}

/// The games a node's archive of the league counts, sorted (`None` before it has any).
async fn archive_games(node: &TestNode, league: &str) -> Option<Vec<EventId>> {
    let arch: Value = node
        .call(ApiRequest::LeagueExport(request::LeagueExport {
            league: league.to_owned(),
        }))
        .await;
    let mut games: Vec<EventId> = arch["archive"]
        .as_str()?
        .lines()
        .filter_map(|l| l.strip_prefix("game "))
        .filter_map(EventId::from_hex)
        .collect();
    games.sort();
    Some(games)
}

async fn until<T>(what: &str, mut f: impl AsyncFnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + STEP;
    loop {
        if let Some(v) = f().await {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn league_players_read_every_league_game_and_strangers_nothing() {
    let dirs: Vec<tempfile::TempDir> = (0..4).map(|_| tempfile::tempdir().unwrap()).collect();
    let org = TestNode::start(dirs[0].path()).await;
    let mut players = Vec::new();
    for d in &dirs[1..] {
        players.push(TestNode::start(d.path()).await);
    }
    let (_, org_addr) = org.id_addr().await;
    let org_peer: PeerId = org.id().await.0.parse().expect("peer id");
    let mut ids = Vec::new();
    for p in &players {
        p.call(ApiRequest::Connect(request::Connect {
            addr: org_addr.clone(),
        }))
        .await;
        ids.push(p.id().await.0);
    }
    let league = org
        .call(ApiRequest::LeagueCreate(request::LeagueCreate {
            name: "Liga".into(),
            players: ids.clone(),
            names: Vec::new(),
            double: false,
            time_control: "3d".into(),
            round_days: 0,
            start_ms: None,
            deputy: None,
            start_deadline_ms: None,
        }))
        .await["league"]
        .as_str()
        .expect("league id")
        .to_owned();
    // Three players: round 1 is 2–3 (number 1 has the bye). Players 2 and 3 join and their
    // nodes start the game; player 1 does not join.
    for p in &players[1..] {
        until("the league at a player", async || {
            let v: Value = p.call(ApiRequest::LeagueList(request::LeagueList {})).await;
            (v["leagues"][0]["league"] == league.as_str()).then_some(())
        })
        .await;
        p.call(ApiRequest::LeagueJoin(request::LeagueJoin {
            league: league.clone(),
        }))
        .await;
    }
    let lid = EventId::from_hex(&league).expect("league id");
    // Every league game the organiser's archive counts (round 1's, and challenges to
    // player 1, who has not joined, for the rounds open too) — once player 1's node, a
    // member that does not play round 1, holds the same. Compared when both agree: while
    // both players' nodes start a pairing (the first signature wins), the organiser counts
    // the duplicate until the decline reaches it.
    let games = until("player 1 to hold every league game", async || {
        let at_org = archive_games(&org, &league).await?;
        let at_player = archive_games(&players[0], &league).await?;
        (!at_org.is_empty() && at_org == at_player).then_some(at_org)
    })
    .await;
    let game = games[0];

    // A stranger lists nothing and reads nothing.
    let stranger = actor(libp2p::identity::Keypair::generate_ed25519()).await;
    stranger.dial(org_addr.parse().unwrap()).await.unwrap();
    assert!(league_games(&stranger, org_peer, lid).await.is_empty());
    let since = Request::LeagueSince {
        league: lid,
        epoch: 0,
        since: 0,
    };
    match stranger.request(org_peer, since).await {
        Ok(Response::LeagueChanges { games, .. }) => {
            assert!(games.is_empty(), "a stranger polls nothing: {games:?}");
        }
        other => panic!("{other:?}"),
    }
    assert!(sync(&stranger, org_peer, game).await.is_empty());
    stranger.shutdown().await;

    // Player 1's key (its node stopped) lists the game and reads it.
    let p1 = players.remove(0);
    p1.stop().await;
    let member = actor_of(dirs[1].path()).await;
    member.dial(org_addr.parse().unwrap()).await.unwrap();
    let listed = league_games(&member, org_peer, lid).await;
    let ids: Vec<EventId> = listed.iter().map(|p| p.game).collect();
    // Every game the archive counted is listed. The list may hold more: games that reached
    // the organiser since, and a duplicate challenge the pairing's other node declined (both
    // nodes start a pairing; the first signature wins), which a member needs to apply the
    // same rule. The member reads each one.
    let missing: Vec<&EventId> = games.iter().filter(|g| !ids.contains(g)).collect();
    assert!(
        missing.is_empty(),
        "league games not listed to a member: {missing:?}"
    );
    for g in &ids {
        assert!(!sync(&member, org_peer, *g).await.is_empty());
    }
    // Told it holds the game as far along, the organiser lists nothing.
    let have = listed.clone();
    let again = match member
        .request(org_peer, Request::LeagueGames { league: lid, have })
        .await
    {
        Ok(Response::LeagueGames { games }) => games,
        other => panic!("{other:?}"),
    };
    assert!(again.is_empty(), "{again:?}");

    // The versioned poll (issue 30): a first ask lists the league's games with a cursor;
    // asked again with it, the organiser lists only what changed since, nothing once the
    // league is quiet.
    let since = async |epoch: u64, since: u64| match member
        .request(
            org_peer,
            Request::LeagueSince {
                league: lid,
                epoch,
                since,
            },
        )
        .await
    {
        Ok(Response::LeagueChanges {
            epoch,
            cursor,
            games,
        }) => (epoch, cursor, games),
        other => panic!("{other:?}"),
    };
    let (epoch, mut cursor, first) = since(0, 0).await;
    let first_ids: Vec<EventId> = first.iter().map(|p| p.game).collect();
    assert!(
        games.iter().all(|g| first_ids.contains(g)),
        "a first ask lists every league game: {first_ids:?}"
    );
    until("a poll that finds nothing changed", async || {
        let (e, next, changed) = since(epoch, cursor).await;
        assert_eq!(e, epoch, "the organiser did not restart");
        assert!(changed.len() <= first.len(), "only changes: {changed:?}");
        cursor = next;
        changed.is_empty().then_some(())
    })
    .await;
    member.shutdown().await;
    for p in players {
        p.stop().await;
    }
    org.stop().await;
}

/// League heads signed by anyone but the organiser — a member of the league, a stranger —
/// published on the league's topic by a real gossipsub peer: the member's node rejects
/// them without acting on them (it fetches none of the games they announce; the league is
/// as it was) and, as every sobre node checks heads before forwarding them, counts a strike
/// against whoever handed them over, until that peer is cut off. (Gossipsub's own score
/// stops reading a peer after three rejections, so the node runs with two strikes.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn league_heads_not_signed_by_the_organiser_are_rejected_and_cost_strikes() {
    use crate::common::gossip::RawGossip;
    use sobre_node::protocol::{LeagueHeads, encode, league_topic};
    const STRIKES: u32 = 2;

    let (d_org, d_ana) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let org = TestNode::start(d_org.path()).await;
    let ana = TestNode::start_with(d_ana.path(), |c| c.max_strikes = Some(STRIKES)).await;
    let (_, org_addr) = org.id_addr().await;
    ana.call(ApiRequest::Connect(request::Connect { addr: org_addr }))
        .await;
    let (ana_id, ana_addr) = ana.id_addr().await;
    // The other members: keys whose nodes never run (a signature is what matters).
    let bea = sobre_core::record::Keypair::from_secret_bytes(&[61; 32]);
    let cai = sobre_core::record::Keypair::from_secret_bytes(&[62; 32]);
    let league = org
        .call(ApiRequest::LeagueCreate(request::LeagueCreate {
            name: "Liga".into(),
            players: vec![
                ana_id,
                bea.player_id().to_string(),
                cai.player_id().to_string(),
            ],
            names: Vec::new(),
            double: false,
            time_control: "3d".into(),
            round_days: 0,
            start_ms: None,
            deputy: None,
            start_deadline_ms: None,
        }))
        .await["league"]
        .as_str()
        .expect("league id")
        .to_owned();
    until("the league at Ana's node", async || {
        let v: Value = ana
            .call(ApiRequest::LeagueList(request::LeagueList {}))
            .await;
        (v["leagues"][0]["league"] == league.as_str()).then_some(())
    })
    .await;
    ana.call(ApiRequest::LeagueJoin(request::LeagueJoin {
        league: league.clone(),
    }))
    .await;
    let lid = EventId::from_hex(&league).expect("league id");
    let topic = league_topic(&lid);
    let games_before = archive_games(&ana, &league).await;

    let bea_key = sobre_node::home::libp2p_keypair(&bea).unwrap();
    let forgers = [
        (
            "a member",
            RawGossip::dial_as(bea_key, ana_addr.parse().unwrap()).unwrap(),
        ),
        (
            "a stranger",
            RawGossip::dial(ana_addr.parse().unwrap()).unwrap(),
        ),
    ];
    let mut announced = Vec::new();
    for (who, forger) in &forgers {
        forger.subscribe(&topic);
        for i in 0..STRIKES {
            // Each a new game far along: honest heads like these would set Ana's node
            // polling its league sources and syncing.
            let mut game = lid;
            game.0[0] ^= 0x80;
            game.0[1] = announced.len() as u8;
            announced.push(game);
            let heads = LeagueHeads {
                league: lid,
                heads: vec![LeagueProgress {
                    game,
                    stage: 1,
                    plies: 40,
                }],
            };
            let sent = if i == 0 {
                forger
                    .publish_when_heard(&topic, encode(&heads).unwrap(), STEP)
                    .await
            } else {
                forger.publish(&topic, encode(&heads).unwrap()).await
            };
            sent.unwrap_or_else(|e| panic!("{who}'s heads not published: {e}"));
        }
        let peer = forger.peer;
        until(
            &format!("{who}'s forged heads to cost it its connection"),
            async || (!ana.connected_to(&peer).await).then_some(()),
        )
        .await;
    }
    // Nothing announced was fetched; the league is as it was.
    for game in &announced {
        let shown = ana
            .try_call(ApiRequest::Show(request::Show {
                game: game.to_hex(),
            }))
            .await;
        assert!(
            shown.as_ref().is_err() || shown.as_ref().is_ok_and(|v| v["error"].is_object()),
            "{game}: {shown:?}"
        );
    }
    assert_eq!(archive_games(&ana, &league).await, games_before);
    drop(forgers);
    ana.stop().await;
    org.stop().await;
}
