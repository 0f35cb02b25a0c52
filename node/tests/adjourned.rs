//! Adjourned games between real nodes in one process (FIDE Appendix A): what the nodes do on
//! their own at the resumption — the sealer's node opens the envelope at the agreed time even
//! in the sealer's absence, and the responder's node opens a reply when the sealer arrives.

use crate::common::{TestNode, play, tcp_addr};
use sobre_node::api::request;
use sobre_node::api::{ApiRequest, TermsRequest};
use sobre_node::time::now_ms;

/// Ana (White) and Bea at a game over the board (2 hours each), connected.
async fn over_the_board(a: &TestNode, b: &TestNode) -> String {
    let (b_id, b_addrs) = b.id().await;
    a.call(ApiRequest::Connect(request::Connect {
        addr: tcp_addr(&b_addrs),
    }))
    .await;
    let ch = a
        .call(ApiRequest::Challenge(request::Challenge {
            opponent: b_id,
            color: sobre_core::record::ColourChoice::ChallengerWhite,
            time_control: "otb 2h".into(),
            chess960: false,
            fen: None,
            // A resumption seconds ahead needs a short agreed notice (A2.7, docs/time.md).
            terms: TermsRequest {
                notice_ms: Some(1_000),
                ..TermsRequest::default()
            },
        }))
        .await;
    let game = ch["game"].as_str().expect("game id").to_owned();
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
    game
}

fn adjourn(game: &str, seal: &str, resume_at_ms: Option<u64>) -> ApiRequest {
    ApiRequest::Adjourn(request::Adjourn {
        game: game.into(),
        seal: seal.into(),
        resume_at_ms,
        place: Some("Club Villa Dolores".into()),
        force: false,
        notation: None,
        arbiter: None,
        arbiter_setting: None,
        no_arbiter: true,
    })
}

/// A9c: Ana seals and does not come back. At the agreed time her node opens the envelope
/// (Bea is present, A7); Bea, having seen the sealed move, seals her reply in a second
/// envelope, which keeps the adjournment's resumption; when Ana arrives, Bea's node opens it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a9_c_a_reply_sealed_after_the_automatic_opening_opens_when_the_sealer_arrives() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let game = over_the_board(&a, &b).await;
    play(&a, &b, &game, 0, &["e4", "e5"]).await;
    let resume = now_ms() + 3_000;
    a.call(adjourn(&game, "Nf3", Some(resume))).await;
    b.wait_for(&game, "the adjournment", |v| v["status"] == "adjourned")
        .await;
    // Bea cannot reply blind: the sealed move is not opened yet (A9c).
    let blind = b.try_call(adjourn(&game, "Nc6", None)).await;
    assert!(blind.is_err(), "{blind:?}");
    b.call(ApiRequest::Resume(request::Resume { game: game.clone() }))
        .await;
    // Ana never announces presence: her node opens the envelope at the agreed time.
    let vb = b
        .wait_for(&game, "the automatic opening", |v| {
            v["status"] == "active" && v["plies"] == 3
        })
        .await;
    assert!(now_ms() >= resume, "not before the agreed time (A2.7)");
    assert_eq!(vb["last_move"], "g1f3");
    assert!(vb["presence_ms"][0].is_null(), "Ana is absent: {vb}");
    // Bea seals her reply instead of playing it.
    let v = b.call(adjourn(&game, "Nc6", None)).await;
    assert_eq!(v["status"], "adjourned", "{v}");
    assert_eq!(v["envelope"]["sealer"], "black", "{v}");
    assert_eq!(v["envelope"]["resume_at_ms"], resume, "{v}");
    assert_eq!(v["envelope"]["place"], "Club Villa Dolores", "{v}");
    // A reply keeps the adjournment's resumption.
    a.wait_for(&game, "the reply", |v| v["status"] == "adjourned")
        .await;
    // Ana arrives: Bea's node opens the reply.
    a.call(ApiRequest::Resume(request::Resume { game: game.clone() }))
        .await;
    for node in [&a, &b] {
        let v = node
            .wait_for(&game, "the reply's opening", |v| {
                v["status"] == "active" && v["plies"] == 4
            })
            .await;
        assert_eq!(v["last_move"], "b8c6", "{v}");
        assert_eq!(v["turn"], "white", "{v}");
    }
    // The game goes on, and the record verifies.
    play(&a, &b, &game, 4, &["Bb5"]).await;
    let st = b.verified_archive(&game).await;
    assert_eq!(st.envelopes.len(), 2);
    assert_eq!(st.adjournments.len(), 1);
    a.stop().await;
    b.stop().await;
}
