//! Damaged databases: a player's node is stopped, its sled files are truncated or have bits
//! flipped (and, separately, a stored event is altered in a way sled's own checksums cannot
//! see), and the node is started on the damaged home. It must either refuse to start with a
//! message pointing to `sobre node repair` (and so serve nothing), or start with the game
//! whole and verifying (the damage hit nothing live); it must never run with a game missing
//! or altered. `sobre node repair` (the same function) then rebuilds the database, and the
//! next start fetches the lost game back from the opponent, after which play goes on without
//! any dispute.

use crate::common::{POLL, STEP, TestNode, play, start_game};
use sobre_core::record::{EventKind, PlayerId, SignedEvent};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::service::NodeConfig;
use std::collections::BTreeSet;
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

fn set_len(p: &Path, f: impl Fn(u64) -> u64) {
    let n = std::fs::metadata(p).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(p)
        .unwrap()
        .set_len(f(n))
        .unwrap();
}

fn flip(p: &Path, positions: impl Fn(usize) -> Vec<usize>, mask: u8) {
    let mut b = std::fs::read(p).unwrap();
    for i in positions(b.len()) {
        if i < b.len() {
            b[i] ^= mask;
        }
    }
    std::fs::write(p, b).unwrap();
}

/// Alters one stored event of the player's in place (a bit of its move), through sled
/// itself, beneath the store (which writes only what it verified): sled's checksums are then
/// right, and only verification can tell.
fn alter_a_stored_event(home: &Path, me: &PlayerId) {
    let db = sled::open(home.join("db")).unwrap();
    let events = db.open_tree("events").unwrap();
    let target = events
        .iter()
        .filter_map(Result::ok)
        .find(|(_, v)| {
            SignedEvent::from_bytes(v)
                .ok()
                .and_then(|e| e.decode_unverified().ok())
                .is_some_and(|ev| ev.author == *me && matches!(ev.kind, EventKind::Move(_)))
        })
        .expect("a stored move of the player");
    let mut v = target.1.to_vec();
    let i = v.len() - 80;
    v[i] ^= 0x01;
    events.insert(target.0, v).unwrap();
    events.flush().unwrap();
}

/// The players' own events (their scoresheets) in a record.
fn scoresheets(events: &[SignedEvent], players: [PlayerId; 2]) -> BTreeSet<[u8; 32]> {
    events
        .iter()
        .filter(|e| {
            e.decode_unverified()
                .is_ok_and(|ev| players.contains(&ev.author))
        })
        .map(|e| e.id().0)
        .collect()
}

enum Start {
    Refused(String),
    Running(TestNode),
}

/// Starts a node on `home` and tells whether it refused to start or runs.
async fn try_start(home: &Path, bootstrap: &str) -> Start {
    let with_bootstrap = |c: &mut NodeConfig| c.bootstrap = vec![bootstrap.to_owned()];
    match crate::common::try_start(home, with_bootstrap).await {
        Err(refusal) => Start::Refused(refusal),
        Ok(()) => Start::Running(TestNode::start_with(home, with_bootstrap).await),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_database_is_refused_at_start_and_repair_brings_the_game_back_from_a_peer() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = TestNode::start(da.path()).await;
    let b = TestNode::start(db.path()).await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect {
        addr: b_addr.clone(),
    }))
    .await;
    let game = start_game(&a, &b).await;
    let opening = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"];
    play(&a, &b, &game, 0, &opening).await;
    a.wait_outbox_empty().await;
    b.wait_outbox_empty().await;
    let original = a.archive(&game).await;
    let state = original.verify().expect("verifies");
    let players = [state.challenger, state.opponent];
    let white = state.challenger;
    a.stop().await;

    type Damage = Box<dyn Fn(&Path)>;
    let me = white;
    let damages: Vec<(&str, Damage)> = vec![
        (
            "db truncated to half",
            Box::new(|h| set_len(&h.join("db/db"), |n| n / 2)),
        ),
        (
            "db truncated by 10%",
            Box::new(|h| set_len(&h.join("db/db"), |n| n * 9 / 10)),
        ),
        (
            "db truncated to nothing",
            Box::new(|h| set_len(&h.join("db/db"), |_| 0)),
        ),
        (
            "a bit flipped every 4 KiB of db",
            Box::new(|h| flip(&h.join("db/db"), |n| (100..n).step_by(4096).collect(), 0x10)),
        ),
        (
            "one bit flipped in the middle of db",
            Box::new(|h| flip(&h.join("db/db"), |n| vec![n / 2], 0x01)),
        ),
        (
            "the last KiB of db scrambled",
            Box::new(|h| {
                flip(
                    &h.join("db/db"),
                    |n| (n.saturating_sub(1024)..n).collect(),
                    0x5a,
                )
            }),
        ),
        (
            "conf truncated",
            Box::new(|h| set_len(&h.join("db/conf"), |_| 3)),
        ),
        (
            "a stored move altered behind sled's checksums",
            Box::new(move |h| alter_a_stored_event(h, &me)),
        ),
    ];
    let mut refused = 0usize;
    for (what, damage) in &damages {
        let home = tempfile::tempdir().unwrap();
        copy_dir(da.path(), home.path());
        damage(home.path());
        match try_start(home.path(), &b_addr).await {
            Start::Refused(message) => {
                refused += 1;
                eprintln!("{what}: refused: {message}");
                assert!(
                    message.contains("sobre node repair"),
                    "{what}: the refusal must point to `sobre node repair`: {message}"
                );
            }
            Start::Running(node) => {
                // Started: then the damage hit nothing live, and the game is whole.
                eprintln!("{what}: started with the game whole");
                let v = node
                    .call(ApiRequest::Show(request::Show { game: game.clone() }))
                    .await;
                assert_eq!(v["plies"], opening.len(), "{what}: {v}");
                let record = node.archive(&game).await;
                record.verify().expect("a served record verifies");
                assert_eq!(
                    scoresheets(&record.events, players),
                    scoresheets(&original.events, players),
                    "{what}: a node that starts serves its whole record"
                );
                node.stop().await;
            }
        }
        // Repair, then start with the opponent online: the game comes back whole.
        let summary = sobre_node::service::repair(home.path()).expect("repair");
        eprintln!("{what}: {summary}");
        let node = TestNode::start_with(home.path(), |c| c.bootstrap = vec![b_addr.clone()]).await;
        node.wait_for(&game, "the game fetched again from the opponent", |v| {
            v["plies"] == opening.len()
        })
        .await;
        let deadline = Instant::now() + STEP;
        loop {
            let record = node.archive(&game).await;
            record.verify().expect("the rebuilt record verifies");
            if scoresheets(&record.events, players)
                .is_superset(&scoresheets(&original.events, players))
            {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: the rebuilt record stays incomplete"
            );
            tokio::time::sleep(POLL).await;
        }
        node.stop().await;
    }
    assert!(
        refused >= 2,
        "the damage must be found at start at least where events are lost or altered"
    );

    // The original home goes on playing after a repair: no second event at a used place.
    sobre_node::service::repair(da.path()).expect("repair of an intact database");
    let a = TestNode::start_with(da.path(), |c| c.bootstrap = vec![b_addr.clone()]).await;
    play(&a, &b, &game, opening.len(), &["O-O", "Be7"]).await;
    let vb = b
        .call(ApiRequest::Show(request::Show { game: game.clone() }))
        .await;
    assert_eq!(vb["status"], "active", "{vb}");
    a.stop().await;
    b.stop().await;
}
