//! Players' signed profiles between real nodes: two players with names play and each sees
//! the other's name in `games`, `show` and the exported PGN; a rename reaches the opponent
//! (newest wins); an older, replayed, future-dated or forged profile changes nothing; a
//! stranger's flood of profiles is not stored.

use crate::common::{STEP, TestNode, start_game};
use libp2p::PeerId;
use serde_json::Value;
use sobre_core::record::codec;
use sobre_core::record::profile::PROFILE_VERSION;
use sobre_core::record::{Keypair, PlayerId, Profile, SignedProfile};
use sobre_node::api::request;
use sobre_node::api::{ApiRequest, ExportFormat};
use sobre_node::network::{self, NetworkConfig, NetworkError, NetworkHandle};
use sobre_node::profile::{self, LocalProfile};
use sobre_node::protocol::{MAX_PROFILES_PER_MESSAGE, Request, Response};
use sobre_node::time::now_ms;
use std::path::Path;
use std::time::Duration;
use tokio::time::{Instant, timeout};

fn set_name(home: &Path, name: &str, issued_ms: u64) {
    std::fs::create_dir_all(home).unwrap();
    profile::write(
        home,
        &LocalProfile {
            name: Some(name.into()),
            club: Some("Sobre CC".into()),
            federation_id: Some("2016192".into()),
            languages: vec!["es".into(), "en".into()],
            issued_ms: Some(issued_ms),
        },
    )
    .unwrap();
}

/// Polls `games` until the game's opponent name is `name`.
async fn wait_opponent_name(node: &TestNode, game: &str, name: &str) -> Value {
    let deadline = Instant::now() + STEP;
    loop {
        let v = node.call(ApiRequest::Games(request::Games {})).await;
        let row = v["games"]
            .as_array()
            .and_then(|g| g.iter().find(|r| r["game"] == game))
            .cloned()
            .unwrap_or(Value::Null);
        if row["opponent_name"] == name {
            return row;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for the name {name:?}: {row}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A bare network actor under `key`, dialled to `addr`.
async fn stranger(key: &Keypair, addr: &str) -> NetworkHandle {
    let identity = sobre_node::home::libp2p_keypair(key).unwrap();
    let mut config = NetworkConfig::new(identity);
    config.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    config.request_timeout = Duration::from_secs(10);
    let (handle, events) = timeout(STEP, network::spawn(config))
        .await
        .expect("spawn timed out")
        .expect("spawn");
    // Nothing is asked of H: its events are drained, not answered.
    tokio::spawn(async move {
        let mut events = events;
        while events.recv().await.is_some() {}
    });
    handle.dial(addr.parse().unwrap()).await.expect("dials");
    handle
}

/// `profile` signed by `key` under the profile domain, whoever it names.
fn sign_as(profile: &Profile, key: &Keypair) -> Vec<u8> {
    let body = codec::encode(profile).unwrap();
    let mut message = b"sobre/profile/v1\0".to_vec();
    message.extend_from_slice(&body);
    let sig = key.sign(&message);
    let mut a = [0u8; 32];
    let mut b = [0u8; 32];
    a.copy_from_slice(&sig[..32]);
    b.copy_from_slice(&sig[32..]);
    SignedProfile {
        body,
        signature: (a, b),
    }
    .to_bytes()
    .unwrap()
}

fn profile_of(player: PlayerId, name: &str, issued_ms: u64) -> Profile {
    Profile {
        version: PROFILE_VERSION,
        player,
        name: name.into(),
        club: None,
        federation_id: None,
        languages: vec![],
        issued_ms,
    }
}

fn stored(r: Result<Response, NetworkError>) -> u32 {
    match r {
        Ok(Response::Stored { count }) => count,
        other => panic!("expected Stored, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn names_travel_the_newest_wins_and_strangers_store_nothing() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let t0 = now_ms() - 60_000;
    set_name(da.path(), "Ana Pérez", t0);
    set_name(db.path(), "Bruno", t0);
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let (a_id, _) = a.id_addr().await;
    let (b_id, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    let game = start_game(&a, &b).await;

    // Each sees the other's name: `games`, `show`, the PGN (ids kept in WhiteId/BlackId).
    let row = wait_opponent_name(&a, &game, "Bruno").await;
    assert_eq!(row["opponent"], b_id.as_str());
    wait_opponent_name(&b, &game, "Ana Pérez").await;
    let shown = b
        .call(ApiRequest::Show(request::Show { game: game.clone() }))
        .await;
    assert_eq!(shown["names"][&a_id], "Ana Pérez");
    assert_eq!(shown["names"][&b_id], "Bruno");
    let pgn = a
        .call(ApiRequest::Export(request::Export {
            game: game.clone(),
            format: ExportFormat::Pgn,
        }))
        .await["pgn"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(pgn.contains("[White \"Ana Pérez\"]"), "{pgn}");
    assert!(pgn.contains("[Black \"Bruno\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[WhiteId \"{a_id}\"]")), "{pgn}");
    assert!(pgn.contains(&format!("[BlackId \"{b_id}\"]")), "{pgn}");
    let profiles = a.call(ApiRequest::Profiles(request::Profiles {})).await;
    assert_eq!(profiles["me"]["name"], "Ana Pérez");
    assert_eq!(profiles["players"][0]["club"], "Sobre CC");
    assert_eq!(profiles["players"][0]["federation_id"], "2016192");

    // B's profile as it was (to replay later), then a rename: the newest wins.
    let b_key = sobre_node::home::load_key(db.path()).unwrap();
    let old_b = profile::signed(db.path(), &b_key)
        .unwrap()
        .unwrap()
        .to_bytes()
        .unwrap();
    set_name(db.path(), "Bruno Díaz", now_ms());
    b.call(ApiRequest::ProfilePublish(request::ProfilePublish {}))
        .await;
    wait_opponent_name(&a, &game, "Bruno Díaz").await;

    // A stranger, H, connects to A.
    let h_key = Keypair::from_secret_bytes(&[0x48; 32]);
    let (_, a_addr) = a.id_addr().await;
    let h = stranger(&h_key, &a_addr).await;
    let a_peer: PeerId = a_id.parse().unwrap();
    let b_player: PlayerId = b_id.parse().unwrap();

    // 1. A flood of strangers' profiles, each properly self-signed, and H's own: none is a
    //    player A has a part with, none is stored.
    let mut flood: Vec<Vec<u8>> = (0..MAX_PROFILES_PER_MESSAGE as u8 - 1)
        .map(|i| {
            let k = Keypair::from_secret_bytes(&[i.wrapping_add(100); 32]);
            sign_as(&profile_of(k.player_id(), "x", now_ms()), &k)
        })
        .collect();
    flood.push(sign_as(
        &profile_of(h_key.player_id(), "H", now_ms()),
        &h_key,
    ));
    assert_eq!(
        stored(
            h.request(
                a_peer,
                Request::Profiles {
                    profiles: flood.clone()
                }
            )
            .await
        ),
        0
    );
    // More than a message may carry is refused whole.
    flood.push(flood[0].clone());
    assert!(matches!(
        h.request(a_peer, Request::Profiles { profiles: flood })
            .await,
        Err(NetworkError::Refused(_))
    ));
    let profiles = a.call(ApiRequest::Profiles(request::Profiles {})).await;
    assert_eq!(
        profiles["players"].as_array().map(Vec::len),
        Some(1),
        "only the opponent's profile is kept: {profiles}"
    );

    // 2. B's old profile, replayed by H: A holds a newer one, nothing changes.
    h.request(
        a_peer,
        Request::Profiles {
            profiles: vec![old_b],
        },
    )
    .await
    .expect("answered");
    // 3. A profile of B dated an hour ahead, really signed by B: refused (it would pin the
    //    name for an hour against every rename).
    let future = sign_as(
        &profile_of(b_player, "Pinned", now_ms() + 3_600_000),
        &b_key,
    );
    assert_eq!(
        stored(
            h.request(
                a_peer,
                Request::Profiles {
                    profiles: vec![future]
                }
            )
            .await
        ),
        0
    );
    // 4. A profile naming B, newer, but signed by H: refused as forged.
    let forged = sign_as(&profile_of(b_player, "Eve", now_ms()), &h_key);
    match h
        .request(
            a_peer,
            Request::Profiles {
                profiles: vec![forged],
            },
        )
        .await
    {
        Err(NetworkError::Refused(reason)) => {
            assert!(reason.contains("bad signature"), "{reason}")
        }
        other => panic!("a forged profile was not refused: {other:?}"),
    }
    let row = wait_opponent_name(&a, &game, "Bruno Díaz").await;
    assert_eq!(row["opponent_name"], "Bruno Díaz");
    let shown = a
        .call(ApiRequest::Show(request::Show { game: game.clone() }))
        .await;
    assert_eq!(shown["names"][&b_id], "Bruno Díaz");

    // The name survives a restart of A (stored), and B's node resends after one of B's.
    a.stop().await;
    let a = TestNode::start(da.path()).await;
    wait_opponent_name(&a, &game, "Bruno Díaz").await;
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rename_while_the_opponent_is_offline_arrives_when_it_returns() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    set_name(da.path(), "Ana", now_ms() - 60_000);
    set_name(db.path(), "Bruno", now_ms() - 60_000);
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    let game = start_game(&a, &b).await;
    wait_opponent_name(&b, &game, "Ana").await;

    // B goes away; A renames meanwhile.
    b.stop().await;
    set_name(da.path(), "Ana María", now_ms());
    a.call(ApiRequest::ProfilePublish(request::ProfilePublish {}))
        .await;
    let b = TestNode::start(db.path()).await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    wait_opponent_name(&b, &game, "Ana María").await;
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_mailbox_carries_names_between_players_never_online_together() {
    let (dm, da, db) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let mailbox = TestNode::start_with(dm.path(), |c| c.mailbox = true).await;
    let (_, m_addrs) = mailbox.id().await;
    let m_addr = crate::common::tcp_addr(&m_addrs);
    let use_mailbox = |c: &mut sobre_node::service::NodeConfig| c.mailboxes = vec![m_addr.clone()];
    set_name(da.path(), "Ana", now_ms() - 60_000);
    set_name(db.path(), "Bruno", now_ms() - 60_000);
    let (b_key, _) = sobre_node::home::init_key(db.path()).unwrap();
    let b_id = b_key.player_id().to_string();

    // A challenges B through the mailbox and goes away.
    let a = TestNode::start_with(da.path(), use_mailbox).await;
    let (a_id, _) = a.id().await;
    let game = a
        .call(ApiRequest::Challenge(request::Challenge {
            opponent: b_id.clone(),
            color: sobre_core::record::ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            chess960: false,
            fen: None,
            terms: Default::default(),
        }))
        .await["game"]
        .as_str()
        .unwrap()
        .to_owned();
    mailbox
        .wait_for(&game, "the challenge at the mailbox", |v| {
            v["status"] == "pending"
        })
        .await;
    let deadline = Instant::now() + STEP;
    while mailbox
        .call(ApiRequest::Profiles(request::Profiles {}))
        .await["players"]
        .as_array()
        .is_none_or(|p| !p.iter().any(|p| p["player"] == a_id.as_str()))
    {
        assert!(
            Instant::now() < deadline,
            "the mailbox never kept A's profile"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    a.stop().await;

    // B accepts while A is away, and goes away too.
    let b = TestNode::start_with(db.path(), use_mailbox).await;
    b.wait_for(&game, "the challenge at B", |v| v["status"] == "pending")
        .await;
    b.call(ApiRequest::Accept(request::Accept {
        game: game.clone(),
        color: None,
        position: None,
    }))
    .await;
    mailbox
        .wait_for(&game, "the acceptance at the mailbox", |v| {
            v["status"] == "active"
        })
        .await;
    let deadline = Instant::now() + STEP;
    while mailbox
        .call(ApiRequest::Profiles(request::Profiles {}))
        .await["players"]
        .as_array()
        .is_none_or(|p| !p.iter().any(|p| p["player"] == b_id.as_str()))
    {
        assert!(
            Instant::now() < deadline,
            "the mailbox never kept B's profile"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    b.stop().await;

    // Each learns the other's name from the mailbox alone.
    let a = TestNode::start_with(da.path(), use_mailbox).await;
    wait_opponent_name(&a, &game, "Bruno").await;
    a.stop().await;
    assert!(crate::common::not_running(da.path()).await);
    let b = TestNode::start_with(db.path(), use_mailbox).await;
    wait_opponent_name(&b, &game, "Ana").await;
    b.stop().await;
    mailbox.stop().await;
}

/// A challenge waiting for Ana's answer shows who sent it: Bruno's name arrives with it,
/// before she accepts (lichess and chess.com show a challenger's name too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_challenged_player_sees_the_challengers_name_before_accepting() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let t0 = now_ms() - 60_000;
    set_name(da.path(), "Ana Pérez", t0);
    set_name(db.path(), "Bruno", t0);
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let (a_id, a_addr) = a.id_addr().await;
    b.call(ApiRequest::Connect(request::Connect { addr: a_addr }))
        .await;
    let ch = b
        .call(ApiRequest::Challenge(request::Challenge {
            opponent: a_id,
            color: sobre_core::record::ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            chess960: false,
            fen: None,
            terms: Default::default(),
        }))
        .await;
    let game = ch["game"].as_str().expect("a game id").to_owned();
    let row = wait_opponent_name(&a, &game, "Bruno").await;
    assert_eq!(row["status"], "pending", "{row}");
    a.stop().await;
    b.stop().await;
}
