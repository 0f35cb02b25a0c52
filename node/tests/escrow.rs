//! Envelopes kept by an arbiter (FIDE A3, A9, A11), end to end: three real nodes (the
//! service, libp2p over loopback TCP, sled on disk, the control socket) — the sealer, the
//! responder and the arbiter. The sealer seals with `--arbiter` and goes away; at the
//! agreed resumption the arbiter's node opens the envelope by itself, the sealed move is
//! played as the sealer's, and the responder answers it.

use crate::common::{STEP, TestNode, play, start_game_on, tcp_addr};
use serde_json::Value;
use sobre_node::api::request;
use sobre_node::api::{ApiRequest, TermsRequest};
use sobre_node::time::now_ms;
use std::path::Path;
use tokio::time::Instant;

/// How far ahead the resumption is set: long enough for the checks before it on a loaded
/// machine, short enough for a test.
const RESUME_IN_MS: u64 = 15_000;

async fn connect(from: &TestNode, to: &TestNode) {
    let (_, addrs) = to.id().await;
    from.call(ApiRequest::Connect(request::Connect {
        addr: tcp_addr(&addrs),
    }))
    .await;
}

/// White challenges Black to a game over the board (A1: only such games are adjourned),
/// Black accepts, and 1.e4 e5 is played. Returns the game id.
///
/// The terms name `arbiter` (A3: only an agreed arbiter keeps an envelope) and a notice
/// short enough for a resumption seconds ahead (A2.7, docs/time.md).
async fn classical_game(white: &TestNode, black: &TestNode, arbiter: Option<&str>) -> String {
    let terms = TermsRequest {
        arbiter: arbiter.map(str::to_owned),
        notice_ms: Some(1_000),
        ..TermsRequest::default()
    };
    let game = start_game_on(white, black, "otb 40/2h+1h", terms).await;
    play(white, black, &game, 0, &["e4", "e5"]).await;
    game
}

fn adjourn(game: &str, seal: &str, resume_at_ms: u64, arbiter: Option<String>) -> ApiRequest {
    ApiRequest::Adjourn(request::Adjourn {
        game: game.into(),
        seal: seal.into(),
        resume_at_ms: Some(resume_at_ms),
        place: Some("Club Villa Dolores".into()),
        force: false,
        notation: None,
        arbiter,
        arbiter_setting: None,
        no_arbiter: false,
    })
}

/// Polls `show` on a node that may not hold the game yet.
async fn wait_known(node: &TestNode, game: &str, what: &str, pred: impl Fn(&Value) -> bool) {
    let deadline = Instant::now() + STEP;
    loop {
        if let Ok(v) = node
            .try_call(ApiRequest::Show(request::Show { game: game.into() }))
            .await
            && pred(&v)
        {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(crate::common::POLL).await;
    }
}

/// Deletes the sealed move's opening from a node's home (the sealer lost it, A11).
fn lose_openings(home: &Path) {
    let dir = sobre_node::home::openings_dir(home);
    for entry in std::fs::read_dir(&dir).expect("the openings directory") {
        let path = entry.expect("an entry").path();
        if path.to_string_lossy().ends_with(".seal.json") {
            std::fs::remove_file(&path).expect("removed");
        }
    }
}

/// A9c with A3: the sealer is absent at the resumption; the arbiter's node opens the
/// envelope it keeps at the agreed time (not before), the responder sees the sealed move
/// played and replies, and the sealer's node, back later, takes the game up as it is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a9c_a3_the_arbiters_node_opens_the_absent_sealers_envelope_at_the_resumption() {
    let (ds, dr, da) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let sealer = TestNode::start(ds.path()).await;
    let responder = TestNode::start(dr.path()).await;
    let arbiter = TestNode::start(da.path()).await;
    connect(&sealer, &responder).await;
    connect(&sealer, &arbiter).await;
    connect(&responder, &arbiter).await;
    let (a_id, _) = arbiter.id().await;
    let game = classical_game(&sealer, &responder, Some(&a_id)).await;

    // White seals Cf3 (Spanish letters) with the arbiter keeping the envelope.
    let resume_at = now_ms() + RESUME_IN_MS;
    let v = sealer
        .call(adjourn(&game, "Cf3", resume_at, Some(a_id.clone())))
        .await;
    assert_eq!(v["status"], "adjourned", "{v}");
    assert_eq!(v["envelope"]["arbiter"], a_id.as_str(), "{v}");
    assert_eq!(v["escrow"]["arbiter"], a_id.as_str(), "{v}");
    // The arbiter's node holds the game (a witness) and the envelope in its keeping; the
    // responder sees who keeps it. Nobody sees the move.
    wait_known(&arbiter, &game, "the envelope at the arbiter", |v| {
        v["envelope"]["arbiter"] == a_id.as_str()
    })
    .await;
    let vr = responder
        .wait_for(&game, "the escrow at the responder", |v| {
            v["envelope"]["arbiter"] == a_id.as_str()
        })
        .await;
    assert!(
        !vr.to_string().contains("Cf3"),
        "the sealed move leaked: {vr}"
    );
    let games = arbiter.call(ApiRequest::Games(request::Games {})).await;
    assert!(games.to_string().contains(&game), "{games}");
    // Everything the sealer signed has reached both, receipted: then the sealer goes away.
    sealer.wait_outbox_empty().await;
    sealer.stop().await;

    // The responder is at the board early; the envelope stays closed until the agreed time
    // (A2.7): the arbiter cannot open it now, and the responder is not its arbiter.
    responder
        .call(ApiRequest::Resume(request::Resume { game: game.clone() }))
        .await;
    wait_known(&arbiter, &game, "the responder's presence", |v| {
        !v["presence_ms"][1].is_null()
    })
    .await;
    let early = arbiter
        .try_call(ApiRequest::EnvelopeOpen(request::EnvelopeOpen {
            game: game.clone(),
        }))
        .await;
    assert!(
        now_ms() >= resume_at || early.as_ref().is_err_and(|e| e.contains("too early")),
        "{early:?}"
    );
    let not_arbiter = responder
        .try_call(ApiRequest::EnvelopeOpen(request::EnvelopeOpen {
            game: game.clone(),
        }))
        .await;
    assert!(
        not_arbiter
            .as_ref()
            .is_err_and(|e| e.contains("not the arbiter")),
        "{not_arbiter:?}"
    );
    let still = responder
        .call(ApiRequest::Show(request::Show { game: game.clone() }))
        .await;
    assert_eq!(still["status"], "adjourned", "{still}");

    // At the agreed time the arbiter's node opens the envelope by itself (A9).
    let opened = responder
        .wait_for(&game, "the arbiter's opening", |v| {
            v["status"] == "active" && v["plies"] == 3
        })
        .await;
    assert!(now_ms() >= resume_at);
    assert_eq!(opened["last_move"], "g1f3", "{opened}");
    assert_eq!(opened["envelope"]["opened"], "Cf3", "{opened}");
    assert_eq!(opened["envelope"]["opened_by_arbiter"], true, "{opened}");
    assert_eq!(opened["my_move"], true, "{opened}");

    // The responder answers the sealed move; the arbiter, a witness, gets it too.
    responder
        .call(ApiRequest::Move(request::Move {
            game: game.clone(),
            text: "Nc6".into(),
            notation: None,
        }))
        .await;
    wait_known(&arbiter, &game, "the reply at the arbiter", |v| {
        v["plies"] == 4
    })
    .await;
    let record = responder.verified_archive(&game).await;
    let sans: Vec<&str> = record.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6"]);
    assert!(record.envelopes[0].opened_by_arbiter);

    // The sealer's node comes back and takes the game up as it is: its own opening (if it
    // races the arbiter's) changes nothing.
    let sealer = TestNode::start(ds.path()).await;
    connect(&sealer, &responder).await;
    let back = sealer
        .wait_for(&game, "the game at the sealer", |v| v["plies"] == 4)
        .await;
    assert_eq!(back["my_move"], true, "{back}");
    let again = sealer.verified_archive(&game).await;
    assert_eq!(again.position, record.position);
    sealer.stop().await;
    responder.stop().await;
    arbiter.stop().await;
}

/// A11 on the node: the sealer who lost the opening asks what is left. With an arbiter
/// keeping it nothing is lost (and resigning through this path is refused); without one
/// the game goes on only with the sealed move, so the node offers resignation (A6). An
/// arbiter who plays in the game is refused (A3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a11_a3_the_sealer_who_lost_the_opening_learns_what_is_left() {
    let (ds, dr, da) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let sealer = TestNode::start(ds.path()).await;
    let responder = TestNode::start(dr.path()).await;
    let arbiter = TestNode::start(da.path()).await;
    connect(&sealer, &responder).await;
    connect(&sealer, &arbiter).await;
    let (a_id, _) = arbiter.id().await;
    let (r_id, _) = responder.id().await;
    let resume_at = now_ms() + 86_400_000;

    // An arbiter who plays in the game would read the opponent's sealed move.
    let kept = classical_game(&sealer, &responder, Some(&a_id)).await;
    let refused = sealer
        .try_call(adjourn(&kept, "Nf3", resume_at, Some(r_id)))
        .await;
    assert!(
        refused.as_ref().is_err_and(|e| e.contains("A3")),
        "{refused:?}"
    );
    sealer
        .call(adjourn(&kept, "Nf3", resume_at, Some(a_id.clone())))
        .await;
    lose_openings(ds.path());
    let v = sealer
        .call(ApiRequest::EnvelopeLost(request::EnvelopeLost {
            game: kept.clone(),
            resign: false,
        }))
        .await;
    assert_eq!(v["arbiter"], a_id.as_str(), "{v}");
    assert_eq!(v["opening_held"], false, "{v}");
    assert!(
        v["advice"].as_str().is_some_and(|a| a.contains("A11")),
        "{v}"
    );
    let no_resign = sealer
        .try_call(ApiRequest::EnvelopeLost(request::EnvelopeLost {
            game: kept.clone(),
            resign: true,
        }))
        .await;
    assert!(
        no_resign
            .as_ref()
            .is_err_and(|e| e.contains("nothing is lost")),
        "{no_resign:?}"
    );
    // The responder did not seal: the question is not theirs.
    let not_sealer = responder
        .try_call(ApiRequest::EnvelopeLost(request::EnvelopeLost {
            game: kept.clone(),
            resign: false,
        }))
        .await;
    assert!(not_sealer.is_err(), "{not_sealer:?}");

    // Without an arbiter: the game goes on only with the sealed move; resign.
    let alone = classical_game(&sealer, &responder, None).await;
    let mut none = adjourn(&alone, "Nf3", resume_at, None);
    if let ApiRequest::Adjourn(request::Adjourn { no_arbiter, .. }) = &mut none {
        *no_arbiter = true;
    }
    let v = sealer.call(none).await;
    assert!(v["envelope"]["arbiter"].is_null(), "{v}");
    assert!(v["escrow"]["arbiter"].is_null(), "{v}");
    lose_openings(ds.path());
    let v = sealer
        .call(ApiRequest::EnvelopeLost(request::EnvelopeLost {
            game: alone.clone(),
            resign: false,
        }))
        .await;
    assert!(v["arbiter"].is_null(), "{v}");
    assert_eq!(v["binding"], true, "{v}");
    assert_eq!(v["resigned"], false, "{v}");
    assert!(
        v["advice"].as_str().is_some_and(|a| a.contains("A8, A10")),
        "{v}"
    );
    let v = sealer
        .call(ApiRequest::EnvelopeLost(request::EnvelopeLost {
            game: alone.clone(),
            resign: true,
        }))
        .await;
    assert_eq!(v["resigned"], true, "{v}");
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(v["result"], "0-1", "{v}");
    responder
        .wait_for(&alone, "the resignation", |v| v["result"] == "0-1")
        .await;
    sealer.stop().await;
    responder.stop().await;
    arbiter.stop().await;
}

/// A3 in a club league: without `--arbiter`, a league game's envelope is kept by the
/// league's organiser (its witness already), whose node holds the escrow.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a3_a_league_games_envelope_is_kept_by_the_organiser() {
    let (d_org, d1, d2) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let organiser = TestNode::start_with(d_org.path(), |c| c.mailbox = true).await;
    let one = TestNode::start(d1.path()).await;
    let two = TestNode::start(d2.path()).await;
    connect(&one, &organiser).await;
    connect(&two, &organiser).await;
    connect(&one, &two).await;
    let (org_id, _) = organiser.id().await;
    let (one_id, _) = one.id().await;
    let (two_id, _) = two.id().await;
    // Three players (the fewest a round robin has); the third never shows up. Whoever has
    // a game in round 1 among the two nodes plays it now.
    let absent = sobre_core::record::Keypair::from_secret_bytes(&[77; 32])
        .player_id()
        .to_string();
    let league = organiser
        .call(ApiRequest::LeagueCreate(request::LeagueCreate {
            name: "Liga de invierno".into(),
            players: vec![absent, one_id.clone(), two_id.clone()],
            names: Vec::new(),
            double: false,
            time_control: "otb 40/2h+1h".into(),
            round_days: 7,
            start_ms: Some(now_ms()),
            deputy: None,
            start_deadline_ms: None,
        }))
        .await;
    let lid = league["league"].as_str().expect("league id").to_owned();
    for p in [&one, &two] {
        let deadline = Instant::now() + STEP;
        while p
            .try_call(ApiRequest::LeagueJoin(request::LeagueJoin {
                league: lid.clone(),
            }))
            .await
            .is_err()
        {
            assert!(Instant::now() < deadline, "the league never arrived");
            tokio::time::sleep(crate::common::POLL).await;
        }
    }
    // The two nodes open their round-1 game by themselves.
    let deadline = Instant::now() + STEP;
    let game = loop {
        let games = one.call(ApiRequest::Games(request::Games {})).await;
        if let Some(g) = games["games"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|g| g["status"] == "active")
        {
            break g["game"].as_str().expect("game id").to_owned();
        }
        assert!(Instant::now() < deadline, "the league game never started");
        tokio::time::sleep(crate::common::POLL).await;
    };
    let v = one
        .call(ApiRequest::Show(request::Show { game: game.clone() }))
        .await;
    let white = if v["white"] == one_id.as_str() {
        &one
    } else {
        &two
    };
    let sealed = white
        .call(adjourn(&game, "e4", now_ms() + 86_400_000, None))
        .await;
    assert_eq!(sealed["escrow"]["arbiter"], org_id.as_str(), "{sealed}");
    wait_known(&organiser, &game, "the escrow at the organiser", |v| {
        v["envelope"]["arbiter"] == org_id.as_str()
    })
    .await;
    organiser.stop().await;
    one.stop().await;
    two.stop().await;
}
