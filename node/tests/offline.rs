//! Reads without the node (`sobre_node::offline`) against a real node's home: the database
//! is taken by one process at a time, and a node starting while a read holds it waits for
//! the read instead of failing.

use crate::common::TestNode;
use sobre_node::api::request;
use sobre_node::api::{ApiRequest, Reply};
use sobre_node::home;
use sobre_node::offline::{self, OfflineError};
use sobre_node::store::Store;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_started_while_a_read_holds_its_database_waits_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let home_dir = dir.path().join("ana");
    TestNode::start(&home_dir).await.stop().await;

    // A read of the stopped node's home holds the database (as `sobre games` does for the
    // length of one answer) while the node starts.
    let held = Store::open(&home::db_path(&home_dir)).unwrap();
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(1500));
        drop(held);
    });
    let node = TestNode::start(&home_dir).await;
    release.join().unwrap();
    assert!(
        node.try_call(ApiRequest::Status(request::Status {}))
            .await
            .is_ok()
    );

    // The other way round: a read meeting the running node's lock says the database is in
    // use, typed, and reads nothing.
    let answer = {
        let h = home_dir.clone();
        tokio::task::spawn_blocking(move || {
            offline::answer(&h, ApiRequest::Games(request::Games {}))
        })
        .await
        .unwrap()
    };
    assert!(
        matches!(answer, Err(OfflineError::Busy { .. })),
        "{answer:?}"
    );
    // A write is never answered without the node.
    let h = home_dir.clone();
    let write = tokio::task::spawn_blocking(move || {
        offline::answer(
            &h,
            ApiRequest::Resign(request::Resign { game: "ab".into() }),
        )
    })
    .await
    .unwrap();
    assert!(matches!(write, Err(OfflineError::NotARead)), "{write:?}");
    node.stop().await;

    // Stopped: the read answers, from the home.
    let h = home_dir.clone();
    let games = tokio::task::spawn_blocking(move || {
        offline::answer(&h, ApiRequest::Games(request::Games {}))
    })
    .await
    .unwrap()
    .unwrap();
    assert!(
        matches!(&games, Reply::Games(g) if g.games.is_empty()),
        "{games:?}"
    );
}
