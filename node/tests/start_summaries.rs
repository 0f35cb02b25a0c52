//! A node start reads each game's verified summary instead of verifying the game again
//! (issue 30, `store::summaries`), and still catches what verification caught: a restarted
//! node answers `games` and `show` as it did before, having verified nothing; a stored event
//! altered under its summary is found and the start refused; a summary of another format is
//! ignored, the game verified and its summary written again. `status` tells how many games
//! the start verified in full (`games_verified_at_start`): the proof the summaries were used.

use crate::common::{TestNode, play, start_game};
use serde_json::Value;
use sobre_core::Position;
use sobre_core::record::{Keypair, SignedEvent};
use sobre_core::test_support::{GameBuilder, Lines, Receipts, key};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::home;
use sobre_node::store::Store;
use sobre_node::store::summaries::FORMAT;
use std::path::Path;

/// Games of the player of `home` against five opponents, of 0 to 8 plies, some receipted,
/// some with chat, some resigned: the summaries must hold what each status shows.
fn games_of(me: &Keypair, n: usize) -> Vec<Vec<SignedEvent>> {
    let t0 = sobre_node::time::now_ms() - 3_600_000;
    (0..n)
        .map(|i| {
            let other = key(10 + (i % 5) as u8);
            let (white, black) = if i % 2 == 0 {
                (me.clone(), other)
            } else {
                (other, me.clone())
            };
            let line = Lines::new(i as u64 + 1)
                .endless()
                .line(&Position::new(), i % 9);
            let mut g = GameBuilder::new(white, black)
                .at(t0 + i as u64 * 1000)
                .receipts(Receipts::Random(i as u64))
                .sign(&line)
                .expect("a legal line signs");
            let t = g.t + 1000;
            match i % 4 {
                1 => g.events.push(g.sheets[1].chat("hola", t).expect("chat")),
                2 => g.events.push(g.sheets[0].resign(t).expect("resign")),
                _ => {}
            }
            g.events
        })
        .collect()
}

/// Writes games into the store of `home` while no node runs on it.
async fn preload(home: &Path, games: &[Vec<SignedEvent>]) {
    let store = Store::open(&home::db_path(home)).expect("the database opens");
    for g in games {
        for e in g {
            store.insert_event(&g[0].id(), e).expect("stored");
        }
    }
    store.flush().await.expect("flushed");
}

/// A home whose player has `n` games stored, none verified by a node yet.
async fn home_with_games(dir: &Path, n: usize) -> Vec<String> {
    let (me, _) = home::init_key(dir).expect("key");
    let games = games_of(&me, n);
    preload(dir, &games).await;
    games.iter().map(|g| g[0].id().to_hex()).collect()
}

async fn verified_at_start(node: &TestNode) -> u64 {
    let v = node.call(ApiRequest::Status(request::Status {})).await;
    v["games_verified_at_start"]
        .as_u64()
        .unwrap_or_else(|| panic!("status has no games_verified_at_start: {v}"))
}

/// An answer without what changes with the time of asking (time left on the clocks).
fn timeless(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for k in [
                    "ms_to_deadline",
                    "white_ms",
                    "black_ms",
                    "white_used_ms",
                    "black_used_ms",
                ] {
                    m.remove(k);
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// `games`, then `show` of every game, without what ticks.
async fn answers(node: &TestNode, games: &[String]) -> Vec<Value> {
    let mut out = vec![timeless(
        node.call(ApiRequest::Games(request::Games {})).await,
    )];
    for g in games {
        out.push(timeless(
            node.call(ApiRequest::Show(request::Show { game: g.clone() }))
                .await,
        ));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_node_answers_as_before_from_summaries_without_verifying() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut games = home_with_games(da.path(), 40).await;
    let a = TestNode::start(da.path()).await;
    assert_eq!(
        verified_at_start(&a).await,
        40,
        "a first start verifies every game"
    );
    // A game played while the node runs: its summary is written as the moves are stored.
    let b = TestNode::start(db.path()).await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    let live = start_game(&a, &b).await;
    play(&a, &b, &live, 0, &["e4", "c5", "Nf3"]).await;
    a.wait_outbox_empty().await;
    b.wait_outbox_empty().await;
    b.stop().await;
    games.push(live);
    let before = answers(&a, &games).await;
    assert_eq!(before[0]["games"].as_array().map(Vec::len), Some(41));
    a.stop().await;

    let a = TestNode::start(da.path()).await;
    assert_eq!(
        verified_at_start(&a).await,
        0,
        "every game is read from its summary"
    );
    let after = answers(&a, &games).await;
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(a, b, "the same answer after the restart");
    }
    a.stop().await;
}

enum Start {
    Refused(String),
    Running,
}

/// Starts a node on `home`: refused, or running (then stopped).
async fn try_start(home: &Path) -> Start {
    match crate::common::try_start(home, |_| {}).await {
        Err(refusal) => Start::Refused(refusal),
        Ok(()) => Start::Running,
    }
}

/// Flips one bit of the stored value of the game's `nth` event, through sled itself (its
/// checksums are then right: only the digest, and verification, can tell).
fn flip_stored_event(home: &Path, game: &str, nth: usize, byte_from_end: usize) {
    let db = sled::open(home::db_path(home)).unwrap();
    let events = db.open_tree("events").unwrap();
    let prefix = hex_bytes(game);
    let (k, v) = events
        .scan_prefix(prefix)
        .nth(nth)
        .expect("the event")
        .unwrap();
    let mut v = v.to_vec();
    let i = v.len() - byte_from_end;
    v[i] ^= 0x01;
    events.insert(k, v).unwrap();
    db.flush().unwrap();
}

fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

fn summaries_stored(home: &Path) -> usize {
    let db = sled::open(home::db_path(home)).unwrap();
    db.open_tree("summaries").unwrap().len()
}

fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), to).unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_event_altered_under_its_summary_is_caught_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let games = home_with_games(dir.path(), 6).await;
    TestNode::start(dir.path()).await.stop().await;
    assert_eq!(
        summaries_stored(dir.path()),
        6,
        "each game has its summary before the damage"
    );
    // A bit of a signature (the last byte of the wire form), then of an event's body.
    for (what, nth, from_end) in [("signature", 3, 1), ("body", 2, 80)] {
        let home = tempfile::tempdir().unwrap();
        copy_dir(dir.path(), home.path());
        flip_stored_event(home.path(), &games[4], nth, from_end);
        match try_start(home.path()).await {
            Start::Refused(message) => assert!(
                message.contains(&games[4]) && message.contains("sobre node repair"),
                "{what}: the refusal names the game and the repair: {message}"
            ),
            Start::Running => panic!("{what}: a node started on an altered event"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_summary_of_another_format_is_ignored_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let games = home_with_games(dir.path(), 8).await;
    let node = TestNode::start(dir.path()).await;
    let before = answers(&node, &games).await;
    node.stop().await;
    {
        let db = sled::open(home::db_path(dir.path())).unwrap();
        let tree = db.open_tree("summaries").unwrap();
        let key = |g: &String| hex_bytes(g);
        // A later format, bytes that are no summary, a value cut short.
        let v = tree.get(key(&games[0])).unwrap().expect("a summary");
        let mut later = v.to_vec();
        later[..4].copy_from_slice(&(FORMAT + 1).to_be_bytes());
        tree.insert(key(&games[0]), later).unwrap();
        tree.insert(key(&games[1]), b"{\"summary\":1}".to_vec())
            .unwrap();
        let v = tree.get(key(&games[2])).unwrap().expect("a summary");
        tree.insert(key(&games[2]), v[..v.len() / 2].to_vec())
            .unwrap();
        db.flush().unwrap();
    }
    let node = TestNode::start(dir.path()).await;
    assert_eq!(
        verified_at_start(&node).await,
        3,
        "the three games whose summary is unreadable are verified"
    );
    assert_eq!(answers(&node, &games).await, before);
    node.stop().await;
    let node = TestNode::start(dir.path()).await;
    assert_eq!(
        verified_at_start(&node).await,
        0,
        "their summaries were written again"
    );
    node.stop().await;
}

/// The start reads games on every core, in slices of 256 (`service::reads`): with more games
/// than two slices, every game is still verified once at the first start, served, and read
/// from its summary at the next, with the same `games` answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_over_many_slices_verifies_each_game_once_and_serves_them_all() {
    let dir = tempfile::tempdir().unwrap();
    let games = home_with_games(dir.path(), 600).await;
    let a = TestNode::start(dir.path()).await;
    assert_eq!(verified_at_start(&a).await, 600, "every game verified once");
    let before = timeless(a.call(ApiRequest::Games(request::Games {})).await);
    let listed = before["games"].as_array().map_or(0, Vec::len);
    assert_eq!(listed, 600, "every game served: {before}");
    a.stop().await;

    let a = TestNode::start(dir.path()).await;
    assert_eq!(
        verified_at_start(&a).await,
        0,
        "every game from its summary"
    );
    let after = timeless(a.call(ApiRequest::Games(request::Games {})).await);
    assert_eq!(after, before, "the same games, the same answer");
    for v in &answers(&a, &games[597..]).await[1..] {
        assert!(v["plies"].is_u64(), "the last games are shown: {v}");
    }
    a.stop().await;
}
