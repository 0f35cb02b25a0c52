//! Real nodes (libp2p over loopback TCP, sled on disk, the control socket) in one process:
//! two players play complete games through the control API.

use crate::common::{TestNode, play, tcp_addr};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_play_a_complete_game_to_mate_with_identical_logs() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let (a_id, _) = a.id().await;
    let (b_id, b_addrs) = b.id().await;
    a.call(ApiRequest::Connect(request::Connect {
        addr: tcp_addr(&b_addrs),
    }))
    .await;
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
    let game = ch["game"].as_str().unwrap().to_owned();
    b.wait_for(&game, "the challenge", |v| v["status"] == "pending")
        .await;
    b.call(ApiRequest::Accept(request::Accept {
        game: game.clone(),
        color: None,
        position: None,
    }))
    .await;
    a.wait_for(&game, "the acceptance", |v| v["status"] == "active")
        .await;
    // Spanish and English notation, as players write it.
    play(
        &a,
        &b,
        &game,
        0,
        &["e4", "e5", "Ac4", "Cc6", "Dh5", "Nf6", "Qxf7#"],
    )
    .await;
    let va = a
        .wait_for(&game, "the end", |v| v["status"] == "finished")
        .await;
    let vb = b
        .wait_for(&game, "the end", |v| v["status"] == "finished")
        .await;
    assert_eq!(va["result"], "1-0");
    assert_eq!(va["termination"], "checkmate");
    assert_eq!(va["moves"], vb["moves"]);
    assert_eq!(va["fen"], vb["fen"]);
    assert_eq!(va["white"].as_str(), Some(a_id.as_str()));
    // Both archives verify to the same game.
    let ea = a
        .call(ApiRequest::Export(request::Export {
            game: game.clone(),
            format: sobre_node::api::ExportFormat::Archive,
        }))
        .await;
    let eb = b
        .call(ApiRequest::Export(request::Export {
            game: game.clone(),
            format: sobre_node::api::ExportFormat::Archive,
        }))
        .await;
    let sa = sobre_core::record::read_archive(ea["archive"].as_str().unwrap()).unwrap();
    let sb = sobre_core::record::read_archive(eb["archive"].as_str().unwrap()).unwrap();
    let (ga, gb) = (
        sobre_core::record::verify(&sa.events).unwrap(),
        sobre_core::record::verify(&sb.events).unwrap(),
    );
    assert_eq!(ga.position, gb.position);
    assert_eq!(ga.result, gb.result);
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_made_while_the_opponent_is_offline_arrives_when_it_starts() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start_with(db.path(), |c| {
        c.listen = vec!["/ip4/127.0.0.1/tcp/0".into()]
    })
    .await;
    let (_, a_addrs) = a.id().await;
    let (b_id, b_addrs) = b.id().await;
    a.call(ApiRequest::Connect(request::Connect {
        addr: tcp_addr(&b_addrs),
    }))
    .await;
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
    let game = ch["game"].as_str().unwrap().to_owned();
    b.wait_for(&game, "the challenge", |v| v["status"] == "pending")
        .await;
    b.call(ApiRequest::Accept(request::Accept {
        game: game.clone(),
        color: None,
        position: None,
    }))
    .await;
    a.wait_for(&game, "the acceptance", |v| v["status"] == "active")
        .await;
    // Black goes offline; White moves.
    b.stop().await;
    a.call(ApiRequest::Move(request::Move {
        game: game.clone(),
        text: "d4".into(),
        notation: None,
    }))
    .await;
    // Black starts again later, knowing only White's address (bootstrap), and gets the move
    // without anyone retyping anything.
    let b = TestNode::start_with(db.path(), |c| c.bootstrap = vec![tcp_addr(&a_addrs)]).await;
    let v = b
        .wait_for(&game, "the move made while offline", |v| v["plies"] == 1)
        .await;
    assert_eq!(v["moves"][0], "d2d4");
    a.stop().await;
    b.stop().await;
}
