//! After `sobre node repair`, a game is fetched again from whoever connects first. If that
//! is an old copy (here: the opponent's node as it was four plies ago), the game verifies
//! but lacks the player's latest events: signing then would reuse a sequence number and the
//! honest player would look like an equivocator (issue 18, "data that must not lie"). The
//! node must refuse to sign in the game until the other player's current copy has come back;
//! then play goes on with no dispute on either side.

use crate::common::{POLL, STEP, TestNode, play, start_game};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use std::path::Path;
use tokio::time::Instant;

fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        let t = e.file_type().unwrap();
        if t.is_dir() {
            copy_dir(&e.path(), &to);
        } else if t.is_file() {
            std::fs::copy(e.path(), to).unwrap();
        }
    }
}

fn mv(game: &str, text: &str) -> ApiRequest {
    ApiRequest::Move(request::Move {
        game: game.into(),
        text: text.into(),
        notation: None,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partial_copy_after_a_repair_does_not_let_the_node_sign_at_a_used_place() {
    let (da, db, stale) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    let game = start_game(&a, &b).await;
    play(&a, &b, &game, 0, &["e4", "e5", "Nf3", "Nc6"]).await;
    a.wait_outbox_empty().await;
    b.wait_outbox_empty().await;
    // An old copy of the opponent's node, four plies in.
    b.stop().await;
    copy_dir(db.path(), stale.path());
    let b = TestNode::start(db.path()).await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect {
        addr: b_addr.clone(),
    }))
    .await;
    play(&a, &b, &game, 4, &["Bb5", "a6", "Ba4", "Nf6"]).await;
    a.wait_outbox_empty().await;
    b.wait_outbox_empty().await;
    a.stop().await;
    b.stop().await;

    // Ana's database is lost (her ledger is not); the repair wants the game back.
    std::fs::remove_dir_all(da.path().join("db")).unwrap();
    let summary = sobre_node::service::repair(da.path()).expect("repair");
    assert_eq!(summary.to_fetch, 1, "{summary}");

    // Only the old copy is online: the game comes back four plies in, White to move.
    let old = TestNode::start(stale.path()).await;
    let (_, old_addr) = old.id_addr().await;
    let a = TestNode::start_with(da.path(), |c| c.bootstrap = vec![old_addr.clone()]).await;
    a.wait_for(&game, "the old copy", |v| v["plies"] == 4).await;
    let before = a.archive(&game).await.events.len();
    let refused = a
        .try_call(mv(&game, "Bc4"))
        .await
        .expect_err("a move after a partial restore must be refused");
    assert!(refused.contains("being restored"), "{refused}");
    assert_eq!(
        a.archive(&game).await.events.len(),
        before,
        "nothing was signed"
    );
    old.stop().await;

    // The opponent's real node comes back: its copy completes the game, then play goes on.
    let b = TestNode::start(db.path()).await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    a.wait_for(&game, "the opponent's copy", |v| v["plies"] == 8)
        .await;
    let deadline = Instant::now() + STEP;
    while let Err(e) = a.try_call(mv(&game, "O-O")).await {
        assert!(
            Instant::now() < deadline,
            "the game never left the restoring state: {e}"
        );
        tokio::time::sleep(POLL).await;
    }
    play(&a, &b, &game, 9, &["Be7"]).await;
    for node in [&a, &b] {
        let v = node
            .call(ApiRequest::Show(request::Show { game: game.clone() }))
            .await;
        assert_eq!(v["status"], "active", "{v}");
        assert_eq!(v["plies"], 10, "{v}");
    }
    a.stop().await;
    b.stop().await;
}
