//! Players who cannot talk to each other directly, over real libp2p on loopback TCP with sled
//! on disk: a whole game played through a mailbox by two players who are never online at the
//! same time, and a game between two nodes that reach each other only through a relay.

use crate::common::{POLL, STEP, TestNode, line_that_does_not_end, not_running, tcp_addr};
use serde_json::Value;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::service::NodeConfig;
use tokio::time::Instant;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_never_online_together_finish_a_20_move_game_through_a_mailbox() {
    let started = std::time::Instant::now();
    let (dm, da, db) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let mailbox = TestNode::start_with(dm.path(), |c| c.mailbox = true).await;
    let (_, m_addrs) = mailbox.id().await;
    let m_addr = tcp_addr(&m_addrs);
    let use_mailbox = |c: &mut NodeConfig| c.mailboxes = vec![m_addr.clone()];

    // B's player id is all A needs: B's key exists before B's node ever runs.
    let (b_key, _) = sobre_node::home::init_key(db.path()).expect("key");
    let b_id = b_key.player_id().to_string();

    // A challenges B and goes offline once the mailbox holds the challenge.
    let a = TestNode::start_with(da.path(), use_mailbox).await;
    let (a_id, _) = a.id().await;
    let ch = a
        .call(ApiRequest::Challenge(request::Challenge {
            opponent: b_id.clone(),
            color: sobre_core::record::ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            chess960: false,
            fen: None,
            terms: Default::default(),
        }))
        .await;
    let game = ch["game"].as_str().expect("game id").to_owned();
    mailbox
        .wait_for(&game, "the mailbox to hold the challenge", |v| {
            v["status"] == "pending"
        })
        .await;
    a.stop().await;

    // B starts knowing nothing but the mailbox, finds the challenge there and accepts.
    assert!(not_running(da.path()).await, "A must be offline");
    let b = TestNode::start_with(db.path(), use_mailbox).await;
    b.wait_for(&game, "B to find the challenge via the mailbox", |v| {
        v["status"] == "pending"
    })
    .await;
    b.call(ApiRequest::Accept(request::Accept {
        game: game.clone(),
        color: None,
        position: None,
    }))
    .await;
    mailbox
        .wait_for(&game, "the mailbox to hold the acceptance", |v| {
            v["status"] == "active"
        })
        .await;
    b.stop().await;

    // Twenty moves each, every one made while the other player is offline.
    let line = line_that_does_not_end(40);
    for (ply, mv) in line.iter().enumerate() {
        let (home, other) = if ply.is_multiple_of(2) {
            (da.path(), db.path())
        } else {
            (db.path(), da.path())
        };
        assert!(not_running(other).await, "the opponent must be offline");
        let player = TestNode::start_with(home, use_mailbox).await;
        // The previous ply (or the acceptance) arrives from the mailbox alone.
        player
            .wait_for(&game, "the opponent's last move via the mailbox", |v| {
                v["status"] == "active" && v["plies"].as_u64() == Some(ply as u64)
            })
            .await;
        let v = player
            .call(ApiRequest::Move(request::Move {
                game: game.clone(),
                text: mv.clone(),
                notation: None,
            }))
            .await;
        assert_eq!(v["last_move"].as_str(), Some(mv.as_str()));
        mailbox
            .wait_for(&game, "the mailbox to hold the move", |v| {
                v["plies"].as_u64() == Some(ply as u64 + 1)
            })
            .await;
        player.stop().await;
    }

    // White ends it by resigning, offline too; Black learns of it from the mailbox.
    assert!(not_running(db.path()).await);
    let a = TestNode::start_with(da.path(), use_mailbox).await;
    a.wait_for(&game, "Black's 20th move", |v| v["plies"] == 40)
        .await;
    let va = a
        .call(ApiRequest::Resign(request::Resign { game: game.clone() }))
        .await;
    assert_eq!(va["status"], "finished");
    mailbox
        .wait_for(&game, "the mailbox to hold the resignation", |v| {
            v["status"] == "finished"
        })
        .await;
    let va = a
        .call(ApiRequest::Show(request::Show { game: game.clone() }))
        .await;
    let state_a = a.verified_archive(&game).await;
    a.stop().await;

    assert!(not_running(da.path()).await);
    let b = TestNode::start_with(db.path(), use_mailbox).await;
    let vb = b
        .wait_for(&game, "the resignation via the mailbox", |v| {
            v["status"] == "finished"
        })
        .await;
    let state_b = b.verified_archive(&game).await;
    b.stop().await;

    assert_eq!(va["white"].as_str(), Some(a_id.as_str()));
    assert_eq!(va["black"].as_str(), Some(b_id.as_str()));
    assert_eq!(va["result"], "0-1");
    assert_eq!(vb["result"], "0-1");
    assert_eq!(va["moves"], vb["moves"]);
    assert_eq!(va["moves"].as_array().map(Vec::len), Some(40));
    let expected: Vec<Value> = line.iter().map(|m| Value::from(m.as_str())).collect();
    assert_eq!(va["moves"].as_array(), Some(&expected));
    // Both archives, verified from scratch, describe the same game.
    assert_eq!(state_a.status, state_b.status);
    assert_eq!(state_a.result, state_b.result);
    assert_eq!(state_a.termination, state_b.termination);
    assert_eq!(state_a.position, state_b.position);
    assert_eq!(state_a.moves.len(), 40);
    assert_eq!(
        state_a.moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
        state_b.moves.iter().map(|m| m.mv).collect::<Vec<_>>()
    );
    mailbox.stop().await;
    eprintln!("mailbox game took {:?}", started.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_that_reach_each_other_only_through_a_relay_play_a_game() {
    let (dr, da, db) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let relay = TestNode::start_with(dr.path(), |c| c.relay_server = true).await;
    let (_, r_addrs) = relay.id().await;
    let r_addr = tcp_addr(&r_addrs);
    // Like players behind NAT: no direct listen address at all, only the relayed one, so
    // neither can dial the other (or be hole-punched to) directly, even on loopback.
    let via_relay = |c: &mut NodeConfig| {
        c.listen = vec![format!("{r_addr}/p2p-circuit")];
        c.relays = vec![r_addr.clone()];
    };
    let a = TestNode::start_with(da.path(), via_relay).await;
    let b = TestNode::start_with(db.path(), via_relay).await;
    let (a_id, _) = a.id().await;
    let (b_id, _) = b.id().await;

    // B announces its relayed address once the relay has accepted its reservation.
    let circuit = format!("{r_addr}/p2p-circuit/p2p/{b_id}");
    let deadline = Instant::now() + STEP;
    loop {
        let (_, addrs) = b.id().await;
        if addrs.contains(&circuit) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "B never listed {circuit}: {addrs:?}"
        );
        tokio::time::sleep(POLL).await;
    }

    // A knows B only by that address.
    let v = a
        .call(ApiRequest::Connect(request::Connect {
            addr: circuit.clone(),
        }))
        .await;
    assert_eq!(v["peer"].as_str(), Some(b_id.as_str()));
    let peers = a.call(ApiRequest::Peers(request::Peers {})).await;
    let to_b = peers["connected"]
        .as_array()
        .and_then(|c| c.iter().find(|p| p["peer"] == b_id.as_str()))
        .cloned()
        .expect("A is connected to B");
    assert!(
        to_b["addresses"].as_array().is_some_and(|a| a
            .iter()
            .all(|x| x.as_str().is_some_and(|s| s.contains("/p2p-circuit")))),
        "A reaches B through the relay only: {to_b}"
    );

    let ch = a
        .call(ApiRequest::Challenge(request::Challenge {
            opponent: b_id.clone(),
            color: sobre_core::record::ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            chess960: false,
            fen: None,
            terms: Default::default(),
        }))
        .await;
    let game = ch["game"].as_str().expect("game id").to_owned();
    b.wait_for(&game, "the challenge through the relay", |v| {
        v["status"] == "pending"
    })
    .await;
    b.call(ApiRequest::Accept(request::Accept {
        game: game.clone(),
        color: None,
        position: None,
    }))
    .await;
    a.wait_for(&game, "the acceptance through the relay", |v| {
        v["status"] == "active"
    })
    .await;
    // Fool's mate: Black mates on the fourth ply.
    for (ply, mv) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
        let (mover, other) = if ply.is_multiple_of(2) {
            (&a, &b)
        } else {
            (&b, &a)
        };
        mover
            .wait_for(&game, "the previous move", |v| {
                v["plies"].as_u64() == Some(ply as u64)
            })
            .await;
        mover
            .call(ApiRequest::Move(request::Move {
                game: game.clone(),
                text: (*mv).into(),
                notation: None,
            }))
            .await;
        other
            .wait_for(&game, "the move through the relay", |v| {
                v["plies"].as_u64() == Some(ply as u64 + 1)
            })
            .await;
    }
    let va = a
        .wait_for(&game, "the end", |v| v["status"] == "finished")
        .await;
    let vb = b
        .wait_for(&game, "the end", |v| v["status"] == "finished")
        .await;
    assert_eq!(va["white"].as_str(), Some(a_id.as_str()));
    assert_eq!(va["result"], "0-1");
    assert_eq!(vb["result"], "0-1");
    assert_eq!(va["termination"], "checkmate");
    assert_eq!(vb["termination"], "checkmate");
    assert_eq!(va["moves"], vb["moves"]);
    let (sa, sb) = (
        a.verified_archive(&game).await,
        b.verified_archive(&game).await,
    );
    assert_eq!(sa.position, sb.position);
    assert_eq!(sa.result, sb.result);

    // To the end, every connection between them went through the relay.
    let peers = a.call(ApiRequest::Peers(request::Peers {})).await;
    let direct: Vec<&Value> = peers["connected"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["peer"] == b_id.as_str())
        .flat_map(|p| p["addresses"].as_array().into_iter().flatten())
        .filter(|x| x.as_str().is_some_and(|s| !s.contains("/p2p-circuit")))
        .collect();
    assert!(direct.is_empty(), "A reached B directly: {direct:?}");
    a.stop().await;
    b.stop().await;
    relay.stop().await;
}
