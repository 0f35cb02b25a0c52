//! Equivocation between real nodes (libp2p over loopback TCP, sled on disk): a modified
//! client holding White's real key signs two different moves at the same place of White's
//! scoresheet (bypassing the `Scoresheet` guard by resuming it twice) and delivers one to
//! the opponent and the other to the mailbox. Every honest node must end up showing the game
//! lost by the equivocator (12.8) with both signed events as proof, while its own log stays
//! one verifiable scoresheet per player (the twin is never taken in or passed on as valid).

use crate::common::{STEP, TestNode, play, start_game};
use serde_json::Value;
use sobre_core::notation::parse_move;
use sobre_core::record::{
    Archive, EventId, GameState, Keypair, PlayerId, Scoresheet, SignedEvent, Status, verify,
};
use sobre_core::rules::Termination;
use sobre_core::san::Lang;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::network::{self, NetworkConfig, NetworkEvent, NetworkHandle};
use sobre_node::protocol::{Request, Response};
use sobre_node::service::NodeConfig;
use sobre_node::time::now_ms;
use std::time::Duration;
use tokio::time::timeout;

/// A network actor under the cheater's key that answers nobody (the "modified client").
async fn start_client(key: &Keypair) -> NetworkHandle {
    let identity = sobre_node::home::libp2p_keypair(key).expect("identity");
    let mut config = NetworkConfig::new(identity);
    config.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().expect("multiaddr")];
    config.request_timeout = Duration::from_secs(10);
    let (handle, mut events) = timeout(STEP, network::spawn(config))
        .await
        .expect("spawn timed out")
        .expect("spawn");
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            if let NetworkEvent::InboundRequest { reply, .. } = event {
                let _ = reply.send(Response::Refused {
                    reason: "modified client".into(),
                });
            }
        }
    });
    handle
}

fn from_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Checks the proof a node shows: both events signed by `cheat`, at one seq, different, and
/// exactly the two twins.
fn check_proof(who: &str, v: &Value, cheat: &PlayerId, twins: [&SignedEvent; 2]) {
    // 12.8: the equivocator (White) loses the game.
    assert_eq!(v["status"], "finished", "{who}: {v}");
    assert_eq!(v["result"], "0-1", "{who}: {v}");
    assert_eq!(v["termination"], "equivocation", "{who}: {v}");
    let list = v["equivocations"].as_array().expect("equivocations listed");
    assert_eq!(list.len(), 1, "{who}: one proof: {v}");
    let p = &list[0];
    let first = SignedEvent::from_bytes(&from_hex(p["first"].as_str().expect("first"))).unwrap();
    let second = SignedEvent::from_bytes(&from_hex(p["second"].as_str().expect("second"))).unwrap();
    let (a, b) = (
        first.verify().expect("signed"),
        second.verify().expect("signed"),
    );
    assert_eq!(a.event.author, *cheat, "{who}");
    assert_eq!(b.event.author, *cheat, "{who}");
    assert_eq!(a.event.seq, b.event.seq, "{who}");
    assert_ne!(a.id, b.id, "{who}");
    let mut shown = [a.id, b.id];
    let mut expected = [twins[0].id(), twins[1].id()];
    shown.sort_by_key(|i| i.0);
    expected.sort_by_key(|i| i.0);
    assert_eq!(shown, expected, "{who}: the proof is the two twins");
    assert_eq!(p["author"], cheat.to_string(), "{who}");
}

/// Which of the twins a node's (verified) log holds.
fn holds(state_events: &[SignedEvent], twin: &SignedEvent) -> bool {
    state_events.iter().any(|e| e.id() == twin.id())
}

/// Two different moves signed with `key` at the next place of its scoresheet in the game of
/// `archive`: what the `Scoresheet` guard exists to prevent.
fn twins(
    archive: &Archive,
    key: &Keypair,
    first: &str,
    second: &str,
) -> (SignedEvent, SignedEvent) {
    let cheat = key.player_id();
    let state: GameState = archive.verify().expect("the honest record verifies");
    let author_of = |id: &EventId| {
        archive
            .events
            .iter()
            .find(|e| e.id() == *id)
            .and_then(|e| e.decode_unverified().ok())
            .map(|e| e.author)
    };
    let (next, last) = archive
        .events
        .iter()
        .filter_map(|e| {
            let ev = e.decode_unverified().ok()?;
            (ev.author == cheat).then_some((ev.seq + 1, e.id()))
        })
        .max_by_key(|(s, _)| *s)
        .expect("White has events");
    let seen = state
        .timeline
        .iter()
        .rev()
        .copied()
        .find(|id| author_of(id) == Some(state.opponent));
    let t = now_ms();
    let twin = |text: &str| {
        let m = parse_move(&state.position, text, Lang::Auto).expect("legal");
        Scoresheet::resume(key.clone(), archive.game, next, Some(last), seen)
            .play(m, t)
            .expect("signs")
    };
    (twin(first), twin(second))
}

/// The whole log with `extra`, as an honest node delivers.
fn delivery(archive: &Archive, extra: &[&SignedEvent]) -> Request {
    Request::Deliver {
        game: archive.game,
        events: archive
            .events
            .iter()
            .chain(extra.iter().copied())
            .map(|e| e.to_bytes().unwrap())
            .collect(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fide_12_8_two_moves_signed_at_one_place_lose_the_game_on_every_honest_node_with_proof() {
    let (dm, da, db) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let m = TestNode::start_with(dm.path(), |c| c.mailbox = true).await;
    let (m_id, m_addr) = m.id_addr().await;
    let use_m = |c: &mut NodeConfig| c.mailboxes = vec![m_addr.clone()];
    let a = TestNode::start_with(da.path(), use_m).await;
    let b = TestNode::start_with(db.path(), use_m).await;
    let (b_id, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect {
        addr: b_addr.clone(),
    }))
    .await;
    let game = start_game(&a, &b).await;
    play(&a, &b, &game, 0, &["e4", "e5"]).await;
    // A second game, where both twins will go to the opponent in one message.
    let game2 = start_game(&a, &b).await;
    play(&a, &b, &game2, 0, &["d4", "d5"]).await;
    a.wait_outbox_empty().await;
    b.wait_outbox_empty().await;
    m.wait_for(&game, "the mailbox to hold both moves", |v| v["plies"] == 2)
        .await;
    m.wait_for(&game2, "the mailbox to hold the second game", |v| {
        v["plies"] == 2
    })
    .await;
    let archive = a.archive(&game).await;
    let archive2 = a.archive(&game2).await;
    a.stop().await;

    // White's modified client: the real key, the core API, the scoresheet resumed twice.
    let key = sobre_node::home::load_key(da.path()).expect("White's key");
    let cheat = key.player_id();
    let (twin1, twin2) = twins(&archive, &key, "Nf3", "Bc4");
    assert_ne!(twin1.id(), twin2.id());
    // The core sees the equivocation when both are in one record.
    let mut both = archive.events.clone();
    both.extend([twin1.clone(), twin2.clone()]);
    let ruled = verify(&both).expect("verifies");
    assert_eq!(ruled.status, Status::Finished, "12.8: White loses");
    assert_eq!(ruled.termination, Some(Termination::Equivocation));

    // One twin to the mailbox, then the other to the opponent; each is taken as a normal
    // move where it arrives first (Black then passes its twin on to the mailbox, which finds
    // the equivocation: the order makes sure the mailbox took its own twin first).
    let client = start_client(&key).await;
    let b_peer = b_id.parse().expect("peer id");
    let m_peer = m_id.parse().expect("peer id");
    client
        .dial(b_addr.parse().expect("addr"))
        .await
        .expect("dial B");
    client
        .dial(m_addr.parse().expect("addr"))
        .await
        .expect("dial M");
    for (peer, ev) in [(m_peer, &twin2), (b_peer, &twin1)] {
        let r = client.request(peer, delivery(&archive, &[ev])).await;
        assert!(matches!(r, Ok(Response::Receipts { .. })), "{r:?}");
    }
    b.wait_for(&game, "B to take Nf3", |v| v["last_move"] == "g1f3")
        .await;
    m.wait_for(&game, "M to take Bc4", |v| v["last_move"] == "f1c4")
        .await;

    // Both twins of the second game to Black in one delivery: Black keeps the first in its
    // log, the proof of both, and passes the proof on to its mailbox.
    let (twin3, twin4) = twins(&archive2, &key, "c4", "Nf3");
    let r = client
        .request(b_peer, delivery(&archive2, &[&twin3, &twin4]))
        .await;
    assert!(matches!(r, Ok(Response::Receipts { .. })), "{r:?}");
    client.shutdown().await;
    let vb2 = b
        .wait_for(&game2, "Black to find both twins", |v| {
            v["termination"] == "equivocation"
        })
        .await;
    check_proof("Black, game 2", &vb2, &cheat, [&twin3, &twin4]);
    let vm2 = m
        .wait_for(&game2, "the mailbox to get the proof", |v| {
            v["termination"] == "equivocation"
        })
        .await;
    check_proof("mailbox, game 2", &vm2, &cheat, [&twin3, &twin4]);
    for (who, node) in [("Black", &b), ("mailbox", &m)] {
        let log = node.archive(&game2).await;
        assert!(
            log.verify().expect("verifies").equivocations.is_empty(),
            "{who}"
        );
        // Black took the first twin as a move; the mailbox may hold it too, never both.
        let twins_in_log =
            usize::from(holds(&log.events, &twin3)) + usize::from(holds(&log.events, &twin4));
        assert!(twins_in_log <= 1, "{who}: both twins in the log");
        if who == "Black" {
            assert_eq!(twins_in_log, 1, "Black plays on with one of them");
        }
    }

    // Black answers the move it got; its delivery to the mailbox carries its twin.
    b.call(ApiRequest::Move(request::Move {
        game: game.clone(),
        text: "Nc6".into(),
        notation: None,
    }))
    .await;
    let vm = m
        .wait_for(&game, "the mailbox to find the dispute", |v| {
            v["termination"] == "equivocation"
        })
        .await;
    check_proof("mailbox", &vm, &cheat, [&twin1, &twin2]);
    let vb = b
        .wait_for(&game, "Black to learn of the dispute", |v| {
            v["termination"] == "equivocation"
        })
        .await;
    check_proof("Black", &vb, &cheat, [&twin1, &twin2]);
    // The exported PGN says the same: 0-1, and why (12.8).
    let pgn = b
        .call(ApiRequest::Export(request::Export {
            game: game.clone(),
            format: sobre_node::api::ExportFormat::Pgn,
        }))
        .await;
    let pgn = pgn["pgn"].as_str().expect("pgn text");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("equivocation by"), "{pgn}");

    // Each log is still one scoresheet per player that verifies, holding the twin that node
    // took first and never the other.
    let lb = b.archive(&game).await;
    let lm = m.archive(&game).await;
    assert!(
        lb.verify()
            .expect("B's log verifies")
            .equivocations
            .is_empty()
    );
    assert!(
        lm.verify()
            .expect("M's log verifies")
            .equivocations
            .is_empty()
    );
    assert!(holds(&lb.events, &twin1) && !holds(&lb.events, &twin2));
    assert!(holds(&lm.events, &twin2) && !holds(&lm.events, &twin1));

    // The proof is durable: both nodes still show it after a restart.
    b.stop().await;
    m.stop().await;
    let m = TestNode::start_with(dm.path(), |c| c.mailbox = true).await;
    let b = TestNode::start_with(db.path(), |c| c.mailboxes = vec![]).await;
    for (who, node) in [("mailbox", &m), ("Black", &b)] {
        let v = node
            .call(ApiRequest::Show(request::Show { game: game.clone() }))
            .await;
        check_proof(who, &v, &cheat, [&twin1, &twin2]);
    }
    b.stop().await;
    m.stop().await;
}
