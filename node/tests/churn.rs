//! Partitions and churn: ten real nodes on loopback (a relay, a mailbox and eight players in
//! four games), each with its own sled home on disk. Links are cut and restored by stopping
//! and starting nodes at random while the games are played; a node comes back on the same
//! home and the same port. Afterwards every node holds the same verified record of every
//! game it takes part in, and every move whose command reported success is in it.
//!
//! The seed is printed; set `SOBRE_CHURN_SEED` to replay a run. The long version (more
//! rounds, more nodes down at once) is `#[ignore]`d: `cargo test -p sobre-node --test runner
//! churn -- --ignored`.

use crate::common::{POLL, STEP, TestNode, line_with_seed, start_game};
use serde_json::Value;
use sobre_core::record::{Archive, EventId, EventKind, PlayerId};
use sobre_core::test_support::Lines;
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::service::NodeConfig;
use std::collections::BTreeSet;
use std::time::Duration;
use tempfile::TempDir;
use tokio::time::Instant;

#[derive(Clone, Copy, PartialEq)]
enum Role {
    Relay,
    Mailbox,
    Player,
}

struct Member {
    role: Role,
    home: TempDir,
    /// `/ip4/127.0.0.1/tcp/<port>` once the first start chose a port.
    listen: String,
    /// The full address with `/p2p/…`.
    addr: String,
    node: Option<TestNode>,
}

fn configure(role: Role, listen: &str, relay: &str, mailbox: &str) -> impl FnOnce(&mut NodeConfig) {
    let (listen, relay, mailbox) = (listen.to_owned(), relay.to_owned(), mailbox.to_owned());
    move |c: &mut NodeConfig| {
        c.listen = vec![listen];
        match role {
            Role::Relay => c.relay_server = true,
            Role::Mailbox => {
                c.mailbox = true;
                c.bootstrap = vec![relay];
            }
            Role::Player => {
                c.mailboxes = vec![mailbox];
                c.bootstrap = vec![relay];
            }
        }
    }
}

fn port_of(addr: &str) -> String {
    let tail = addr.split("/tcp/").nth(1).expect("a tcp address");
    let port = tail.split('/').next().expect("a port");
    format!("/ip4/127.0.0.1/tcp/{port}")
}

/// The players' own events (scoresheets, receipts included) in a node's record; receipts
/// by witnesses (the mailbox) depend on who delivered what to whom, so they are not compared.
fn scoresheets(a: &Archive, players: [PlayerId; 2]) -> BTreeSet<[u8; 32]> {
    a.events
        .iter()
        .filter(|e| {
            e.decode_unverified()
                .is_ok_and(|ev| players.contains(&ev.author))
        })
        .map(|e| e.id().0)
        .collect()
}

fn moves_of(v: &Value) -> Vec<String> {
    v["moves"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m.as_str().map(str::to_owned))
        .collect()
}

async fn churn(rounds: usize, down_at_once: usize, plies: usize) {
    let seed = std::env::var("SOBRE_CHURN_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| sobre_node::time::now_ms() | 1);
    eprintln!("churn: seed {seed} (SOBRE_CHURN_SEED={seed} replays this run)");
    // One generator for the whole run (which nodes go down), so the seed replays it.
    let mut rng = Lines::new(seed);
    let started = std::time::Instant::now();

    // 1. Everyone up: relay, mailbox, eight players; each keeps its first port.
    let mut members: Vec<Member> = Vec::new();
    let roles = [Role::Relay, Role::Mailbox]
        .into_iter()
        .chain(std::iter::repeat_n(Role::Player, 8));
    for role in roles {
        let home = tempfile::tempdir().unwrap();
        let relay = members.first().map_or(String::new(), |m| m.addr.clone());
        let mailbox = members.get(1).map_or(String::new(), |m| m.addr.clone());
        let node = TestNode::start_with(
            home.path(),
            configure(role, "/ip4/127.0.0.1/tcp/0", &relay, &mailbox),
        )
        .await;
        let (_, addr) = node.id_addr().await;
        members.push(Member {
            role,
            home,
            listen: port_of(&addr),
            addr,
            node: Some(node),
        });
    }
    let relay = members[0].addr.clone();
    let mailbox = members[1].addr.clone();
    // Opponents and the mailbox remember each other, so a node that comes back redials.
    for i in 2..members.len() {
        let opponent = if i % 2 == 0 { i + 1 } else { i - 1 };
        let (me, them, m) = (&members[i], &members[opponent], &members[1]);
        let n = me.node.as_ref().unwrap();
        n.call(ApiRequest::Connect(request::Connect {
            addr: them.addr.clone(),
        }))
        .await;
        m.node
            .as_ref()
            .unwrap()
            .call(ApiRequest::Connect(request::Connect {
                addr: me.addr.clone(),
            }))
            .await;
    }
    let mut games = Vec::new();
    for w in (2..members.len()).step_by(2) {
        let (white, black) = (
            members[w].node.as_ref().unwrap(),
            members[w + 1].node.as_ref().unwrap(),
        );
        games.push((w, start_game(white, black).await));
    }
    let lines: Vec<Vec<String>> = (0..games.len())
        .map(|g| line_with_seed(plies, 1 + 5 * g as u64))
        .collect();
    let mut acked = vec![0usize; games.len()];
    eprintln!(
        "churn: {} nodes, {} games up after {:?}",
        members.len(),
        games.len(),
        started.elapsed()
    );

    // 2. Rounds: some nodes go down, whoever can move does, the nodes come back.
    let mut restarts = 0usize;
    for round in 0..rounds {
        let mut down = BTreeSet::new();
        while down.len() < down_at_once {
            down.insert(rng.below(members.len()));
        }
        for &i in &down {
            if let Some(n) = members[i].node.take() {
                n.stop().await;
            }
        }
        // Let the survivors play for a moment: each side moves as soon as it has the
        // previous move.
        let until = Instant::now() + Duration::from_millis(1500);
        while Instant::now() < until {
            for (g, (w, game)) in games.iter().enumerate() {
                if acked[g] >= plies {
                    continue;
                }
                let mover = if acked[g] % 2 == 0 { *w } else { *w + 1 };
                let Some(node) = members[mover].node.as_ref() else {
                    continue;
                };
                let Ok(v) = node
                    .try_call(ApiRequest::Show(request::Show { game: game.clone() }))
                    .await
                else {
                    continue;
                };
                if v["plies"].as_u64() != Some(acked[g] as u64) {
                    continue;
                }
                let r = node
                    .try_call(ApiRequest::Move(request::Move {
                        game: game.clone(),
                        text: lines[g][acked[g]].clone(),
                        notation: None,
                    }))
                    .await;
                match r {
                    Ok(_) => acked[g] += 1,
                    Err(e) => panic!("round {round}: a move by a node that was ready failed: {e}"),
                }
            }
            tokio::time::sleep(POLL).await;
        }
        for &i in &down {
            let m = &members[i];
            let node = TestNode::start_with(
                m.home.path(),
                configure(m.role, &m.listen, &relay, &mailbox),
            )
            .await;
            members[i].node = Some(node);
            restarts += 1;
        }
    }
    eprintln!(
        "churn: {rounds} rounds, {restarts} restarts, moves acknowledged {acked:?} after {:?}",
        started.elapsed()
    );
    assert!(
        acked.iter().sum::<usize>() >= games.len() * 2,
        "the games hardly moved: {acked:?}"
    );

    // 3. Everyone up again: every node of a game converges on every acknowledged move.
    for (g, (w, game)) in games.iter().enumerate() {
        let expected: Vec<String> = lines[g][..acked[g]].to_vec();
        let holders = [*w, *w + 1, 1];
        for &h in &holders {
            let node = members[h].node.as_ref().unwrap();
            let v = node
                .wait_for(game, "every acknowledged move", |v| {
                    v["plies"].as_u64() == Some(acked[g] as u64)
                })
                .await;
            assert_eq!(moves_of(&v), expected, "game {g} on node {h}");
        }
    }
    // Every event is receipted by its recipients: the outboxes empty.
    for (i, m) in members.iter().enumerate().skip(2) {
        let deadline = Instant::now() + STEP * 2;
        let node = m.node.as_ref().unwrap();
        while node.call(ApiRequest::Status(request::Status {})).await["outbox"] != 0 {
            assert!(
                Instant::now() < deadline,
                "node {i}: the outbox never emptied"
            );
            tokio::time::sleep(POLL * 4).await;
        }
    }
    // Identical, verified scoresheets on both players and the mailbox.
    for (g, (w, game)) in games.iter().enumerate() {
        let mut sets = Vec::new();
        for h in [*w, *w + 1, 1] {
            let a = members[h].node.as_ref().unwrap().archive(game).await;
            let st = a
                .verify()
                .unwrap_or_else(|e| panic!("game {g} on node {h} does not verify: {e}"));
            assert!(st.equivocations.is_empty());
            let players = [st.challenger, st.opponent];
            let moves: BTreeSet<EventId> = a
                .events
                .iter()
                .filter(|e| {
                    e.decode_unverified()
                        .is_ok_and(|ev| matches!(ev.kind, EventKind::Move(_)))
                })
                .map(|e| e.id())
                .collect();
            assert_eq!(moves.len(), acked[g], "game {g} on node {h}");
            sets.push((h, scoresheets(&a, players), moves));
        }
        let (_, white_log, white_moves) = &sets[0];
        for (h, log, moves) in &sets[1..] {
            assert_eq!(moves, white_moves, "game {g}: node {h} holds other moves");
            if *h != 1 {
                assert_eq!(log, white_log, "game {g}: the players' records differ");
            } else {
                // The mailbox may miss only receipts signed after the last delivery to it.
                assert!(
                    log.is_subset(white_log),
                    "game {g}: the mailbox holds events the players do not"
                );
            }
        }
    }
    for m in &mut members {
        if let Some(n) = m.node.take() {
            n.stop().await;
        }
    }
    eprintln!("churn: done in {:?}", started.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_nodes_under_churn_converge_on_identical_verified_logs_with_every_acknowledged_move() {
    churn(10, 3, 100).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "long: 40 rounds of churn"]
async fn ten_nodes_under_long_churn_converge_on_identical_verified_logs() {
    churn(40, 4, 150).await;
}
