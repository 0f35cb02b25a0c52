//! End to end, with real `sobre node run` processes on loopback TCP: the time model of
//! `docs/time.md` (protocol version 3) and FIDE Appendix A9 with an arbiter.
//!
//! - Two correspondence players who are **never online together** agree on the club's
//!   mailbox as their timekeeper (`sobre challenge … --timekeeper MAILBOX`): each move
//!   counts when the mailbox received it, for both players, whether or not the other is
//!   online (as on a correspondence server). They finish a game through the mailbox alone,
//!   and a player who vanishes loses on time (FIDE 6.9) by the timekeeper's evidence, on
//!   every node and in the exported archive.
//! - Over the board (A1), an agreed arbiter (`--arbiter`) keeps the second adjournment's
//!   envelope in escrow (A3); at that resumption the sealer is absent and the arbiter's node
//!   opens the envelope at the agreed time (A9), judging the current adjournment and not
//!   the presences of the first one (the clocks issue's case 9).
//!
//! A player's node is stopped with `sobre node stop` and its process reaped before the
//! other player's node starts: "never online together" is checked, not assumed. Every wait
//! polls `sobre show GAME --json`.

use crate::common::nodes::{Node, Nodes, now_ms, wait_for};
use crate::common::{exec, run, run_text, show, wait_within};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long anything may take to travel between nodes before a test fails.
const WAIT: Duration = Duration::from_secs(30);

/// Three or four nodes per test on two cores: the tests run one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

// ----- the harness -----

/// The nodes of one test (the fixture prints every node's log if the test fails, the
/// stopped ones' too).
struct Net {
    nodes: Nodes,
    _serial: MutexGuard<'static, ()>,
}

impl Net {
    fn new() -> Net {
        let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        Net {
            nodes: Nodes::new(),
            _serial: serial,
        }
    }

    fn log(&self, name: &str) -> PathBuf {
        self.nodes.dir.path().join(format!("{name}.log"))
    }

    /// Whether `name`'s node process runs (started here and not yet stopped).
    fn running(&self, name: &str) -> bool {
        let log = self.log(name);
        self.nodes.children.iter().any(|(l, _)| *l == log)
    }

    /// The player's id, from a home created now if it has none (the key exists before the
    /// node ever runs).
    fn id_of(&self, name: &str) -> String {
        let home = self.nodes.home(name);
        if !home.join("identity.key").exists() {
            run(&home, &["init", "--name", name, "--json"]);
        }
        run(&home, &["id", "--json"])["player_id"]
            .as_str()
            .expect("a player id")
            .to_owned()
    }

    /// Starts `name`'s node; with `mailbox`, using that node as its mailbox.
    fn online(&mut self, name: &str, mailbox: Option<&Node>) -> Node {
        assert!(!self.running(name), "{name}'s node runs already");
        match mailbox {
            Some(m) => self.nodes.start(name, &["--use-mailbox", &m.addr]),
            None => self.nodes.start(name, &[]),
        }
    }

    /// Stops `name`'s node (`sobre node stop`) and waits until its process has exited.
    fn offline(&mut self, p: &Node) {
        self.nodes.stop(&p.name);
        assert!(
            !exec(&p.home, &["node", "status"]).success(),
            "{}'s node still answers",
            p.name
        );
    }
}

/// [`wait_within`] the usual [`WAIT`].
fn wait_view(home: &Path, game: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    wait_within(home, game, WAIT, what, pred)
}

fn finished(v: &Value) -> bool {
    v["status"] == "finished"
}

/// One sitting of a correspondence player who is online alone: their node starts, catches
/// up from the mailbox alone (the previous ply is there), plays `mv`, and stops once the
/// mailbox — the agreed timekeeper — holds the move (it is made only then, docs/time.md).
fn sitting(net: &mut Net, name: &str, other: &str, m: &Node, game: &str, ply: u64, mv: &str) {
    assert!(!net.running(other), "{other} must be offline");
    let p = net.online(name, Some(m));
    wait_view(
        &p.home,
        game,
        "the opponent's last move via the mailbox",
        |v| v["status"] == "active" && v["plies"].as_u64() == Some(ply),
    );
    run_text(&p.home, &["move", game, mv]);
    wait_view(&m.home, game, &format!("the mailbox to hold {mv}"), |v| {
        v["plies"].as_u64() == Some(ply + 1)
    });
    net.offline(&p);
}

/// Ana challenges Bruno on terms with the mailbox as the timekeeper (`control`: the clock
/// flags), both online alone: Ana sends the challenge and leaves; Bruno finds it at the
/// mailbox, accepts and leaves. Returns the game id.
fn challenge_through_the_mailbox(
    net: &mut Net,
    m: &Node,
    bruno_id: &str,
    control: &[&str],
) -> String {
    let ana = net.online("ana", Some(m));
    let mut args = vec![
        "challenge",
        bruno_id,
        "--color",
        "white",
        "--timekeeper",
        m.id.as_str(),
        "--json",
    ];
    args.extend_from_slice(control);
    let v = run(&ana.home, &args);
    assert_eq!(v["status"], "pending", "{v}");
    let game = v["game"].as_str().expect("the game id").to_owned();
    wait_view(&m.home, &game, "the mailbox to hold the challenge", |v| {
        v["status"] == "pending"
    });
    net.offline(&ana);

    let bruno = net.online("bruno", Some(m));
    wait_view(&bruno.home, &game, "the challenge via the mailbox", |v| {
        v["status"] == "pending"
    });
    run_text(&bruno.home, &["accept", &game]);
    wait_view(&m.home, &game, "the mailbox to hold the acceptance", |v| {
        v["status"] == "active"
    });
    net.offline(&bruno);
    game
}

/// Exports `game`'s signed archive from `home` and verifies it with no node and no home.
fn verified_archive(net: &Net, home: &Path, game: &str) -> Value {
    let file = net.nodes.dir.path().join(format!("{game}.sobre"));
    let file_arg = file.to_str().expect("a UTF-8 path");
    run_text(home, &["export", game, "--archive", "-o", file_arg]);
    let v = run(
        &net.nodes.dir.path().join("nowhere"),
        &["verify", file_arg, "--json"],
    );
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["game"].as_str(), Some(game), "{v}");
    v
}

// ----- the scenarios -----

/// docs/time.md, "With timekeepers": a whole game between two players who are never online
/// at the same time, through the mailbox they agreed on as timekeeper. Fool's mate: 1. f3
/// e5 2. g4 Qh4# — Black checkmates (FIDE 5.1a), and the game ends for both players, the
/// mailbox and the verified archive alike.
#[test]
fn two_players_never_online_together_finish_a_game_through_the_mailbox_timekeeper() {
    let mut net = Net::new();
    let started = Instant::now();
    let m = net.nodes.start("mailbox", &["--mailbox"]);
    let bruno_id = net.id_of("bruno");
    let game = challenge_through_the_mailbox(&mut net, &m, &bruno_id, &["--classical", "2m"]);

    for (ply, mv) in ["f3", "e5", "g4", "Qh4#"].into_iter().enumerate() {
        let (mover, other) = if ply % 2 == 0 {
            ("ana", "bruno")
        } else {
            ("bruno", "ana")
        };
        sitting(&mut net, mover, other, &m, &game, ply as u64, mv);
    }

    // The mailbox holds the end; Ana comes back alone and learns it from the mailbox.
    let vm = wait_view(&m.home, &game, "the mate at the mailbox", finished);
    assert!(!net.running("bruno"));
    let ana = net.online("ana", Some(&m));
    let va = wait_view(&ana.home, &game, "the mate via the mailbox", finished);
    let archive = verified_archive(&net, &ana.home, &game);
    net.offline(&ana);
    // Bruno's node stopped after the mate: his home's database holds the end.
    let vb = show(&net.nodes.home("bruno"), &game).expect("Bruno's home knows the game");

    for v in [&va, &vb, &vm] {
        assert_eq!(v["status"], "finished", "{v}");
        assert_eq!(v["result"], "0-1", "{v}");
        assert_eq!(v["termination"], "checkmate", "{v}");
        assert_eq!(
            v["moves"],
            serde_json::json!(["f2f3", "e7e5", "g2g4", "d8h4"])
        );
        assert_eq!(v["white"], va["white"], "{v}");
    }
    assert_eq!(va["my_color"], "white", "{va}");
    assert_eq!(vb["my_color"], "black", "{vb}");
    assert_eq!(vb["white"].as_str(), Some(ana.id.as_str()), "{vb}");
    assert_eq!(vb["black"].as_str(), Some(bruno_id.as_str()), "{vb}");
    assert_eq!(archive["result"], "0-1", "{archive}");
    assert_eq!(archive["termination"], "checkmate", "{archive}");
    assert_eq!(archive["moves"], va["moves"], "{archive}");
    net.offline(&m);
    eprintln!("never online together: {:?}", started.elapsed());
}

/// FIDE 6.9 (6.8, a flag falls when the time is used up) with an agreed timekeeper: Bruno
/// plays two moves, then never comes back. His time runs from when the mailbox received
/// Ana's move, though his node is off; once it is used up Ana's claim is correct and the
/// game is 1-0 on time on Ana's node, the mailbox, Bruno's node when it comes back, and
/// the verified archive.
#[test]
fn a_player_who_vanishes_loses_on_time_through_the_mailbox_timekeeper() {
    let mut net = Net::new();
    let started = Instant::now();
    let m = net.nodes.start("mailbox", &["--mailbox"]);
    let bruno_id = net.id_of("bruno");
    let game = challenge_through_the_mailbox(&mut net, &m, &bruno_id, &["--classical", "30s"]);
    sitting(&mut net, "ana", "bruno", &m, &game, 0, "e4");
    sitting(&mut net, "bruno", "ana", &m, &game, 1, "e5");

    // Ana's last move; then she stays online, and Bruno never comes back.
    assert!(!net.running("bruno"));
    let ana = net.online("ana", Some(&m));
    wait_view(&ana.home, &game, "1...e5 via the mailbox", |v| {
        v["plies"] == 2
    });
    run_text(&ana.home, &["move", &game, "Nf3"]);
    let moved = Instant::now();
    wait_view(&m.home, &game, "the mailbox to hold 2. Nf3", |v| {
        v["plies"] == 3
    });
    // What Black has left once the timekeeper holds 2. Nf3: his clock runs from then.
    let left = wait_view(&ana.home, &game, "Black's clock to run", |v| {
        v["clocks"]["running"] == "black"
    })["clocks"]["black_ms"]
        .as_i64()
        .expect("Black's time left");
    assert!(left > 5_000, "Black had too little time left: {left} ms");
    let va = wait_within(
        &ana.home,
        &game,
        Duration::from_secs(60),
        "Black's flag to fall",
        |v| v["clocks"]["flagged"] == "black",
    );
    // Not before his time was used up (a second's slack for the polls).
    assert!(
        moved.elapsed().as_millis() + 1_000 >= left as u128,
        "Black's flag fell {:?} after 2. Nf3 with {left} ms left: {va}",
        moved.elapsed()
    );
    assert_eq!(va["status"], "active", "{va}");
    let out = run_text(&ana.home, &["claim", &game, "time"]);
    assert!(out.contains("claim correct"), "{out}");
    let va = wait_view(&ana.home, &game, "the time forfeit", finished);
    let vm = wait_view(&m.home, &game, "the time forfeit at the mailbox", finished);
    let archive = verified_archive(&net, &ana.home, &game);
    net.offline(&ana);

    // Bruno comes back at last, alone, and finds the game lost.
    let bruno = net.online("bruno", Some(&m));
    let vb = wait_view(
        &bruno.home,
        &game,
        "the time forfeit via the mailbox",
        finished,
    );
    net.offline(&bruno);

    for v in [&va, &vm, &vb] {
        assert_eq!(v["result"], "1-0", "{v}");
        assert_eq!(v["termination"], "time_forfeit", "{v}");
        assert_eq!(v["plies"], 3, "{v}");
        let claims = v["claims"].as_array().expect("the claims");
        assert_eq!(claims.len(), 1, "{v}");
        assert_eq!(claims[0]["correct"], true, "{v}");
        assert_eq!(claims[0]["by"], "white", "{v}");
    }
    assert_eq!(archive["result"], "1-0", "{archive}");
    assert_eq!(archive["termination"], "time_forfeit", "{archive}");
    assert_eq!(archive["moves"], va["moves"], "{archive}");
    net.offline(&m);
    eprintln!("vanished player: {:?}", started.elapsed());
}

/// FIDE A9 (the clocks issue's case 9), with A3, A7 and A2.7: an over-the-board game with
/// an agreed arbiter, adjourned twice. The first envelope is opened as usual with both
/// players present. The second is sealed by Bruno and escrowed with the arbiter; at its
/// resumption Ana is present and Bruno absent (his node stopped): the arbiter's node opens
/// it at the agreed time — judging this adjournment, not the game's first presences — the
/// sealed move is played as Bruno's, Ana answers, and nobody loses by A10.
#[test]
fn a9_the_arbiter_opens_the_second_adjournments_envelope_at_its_resumption() {
    let mut net = Net::new();
    let started = Instant::now();
    let ana = net.online("ana", None);
    let bruno = net.online("bruno", None);
    let arb = net.online("arbiter", None);
    run_text(&ana.home, &["peers", "connect", &bruno.addr]);
    run_text(&ana.home, &["peers", "connect", &arb.addr]);
    run_text(&bruno.home, &["peers", "connect", &arb.addr]);

    // A2.7's notice is a term: 5 s here instead of 10 minutes.
    let v = run(
        &ana.home,
        &[
            "challenge",
            &bruno.id,
            "--classical",
            "40/2h+1h",
            "--color",
            "white",
            "--arbiter",
            &arb.id,
            "--notice",
            "5s",
            "--json",
        ],
    );
    let game = v["game"].as_str().expect("the game id").to_owned();
    wait_view(&bruno.home, &game, "the challenge", |v| {
        v["status"] == "pending"
    });
    run_text(&bruno.home, &["accept", &game]);
    wait_view(&ana.home, &game, "the acceptance", |v| {
        v["status"] == "active"
    });
    run_text(&ana.home, &["move", &game, "e4"]);
    wait_view(&bruno.home, &game, "1. e4", |v| v["plies"] == 1);
    run_text(&bruno.home, &["move", &game, "e5"]);
    wait_view(&ana.home, &game, "1... e5", |v| v["plies"] == 2);

    // First adjournment (A1, A2): Ana seals Nf3; both come back and the envelope opens
    // (A7: both present).
    run_text(
        &ana.home,
        &["adjourn", &game, "--seal", "Nf3", "--resume-at", "+8s"],
    );
    wait_view(&bruno.home, &game, "the first adjournment", |v| {
        v["status"] == "adjourned"
    });
    run_text(&bruno.home, &["resume", &game]);
    run_text(&ana.home, &["resume", &game]);
    for p in [&ana, &bruno] {
        let v = wait_view(&p.home, &game, "the first envelope's move", |v| {
            v["status"] == "active" && v["plies"] == 3
        });
        assert_eq!(v["last_move"], "g1f3", "{v}");
        assert_eq!(v["envelope"]["opened"], "Nf3", "{v}");
    }
    run_text(&bruno.home, &["move", &game, "Nc6"]);
    wait_view(&ana.home, &game, "2... Nc6", |v| v["plies"] == 4);
    run_text(&ana.home, &["move", &game, "Bb5"]);
    wait_view(&bruno.home, &game, "3. Bb5", |v| v["plies"] == 5);

    // Second adjournment: Bruno, to move, seals a6, escrowed with the agreed arbiter (A3).
    let v = run(
        &bruno.home,
        &[
            "adjourn",
            &game,
            "--seal",
            "a6",
            "--resume-at",
            "+15s",
            "--arbiter",
            &arb.id,
            "--json",
        ],
    );
    let resume_at_ms = v["envelope"]["resume_at_ms"]
        .as_u64()
        .unwrap_or_else(|| panic!("the resumption time: {v}"));
    assert_eq!(
        v["envelope"]["arbiter"].as_str(),
        Some(arb.id.as_str()),
        "{v}"
    );
    wait_view(&arb.home, &game, "the envelope at the arbiter", |v| {
        v["status"] == "adjourned" && v["envelope"]["arbiter"] == arb.id.as_str()
    });
    wait_view(&ana.home, &game, "the escrow at Ana", |v| {
        v["status"] == "adjourned" && v["envelope"]["arbiter"] == arb.id.as_str()
    });
    // Bruno's node delivered everything it signed (its outbox is empty); then he is gone,
    // before the resumption.
    wait_for("Bruno's outbox to empty", || {
        (run(&bruno.home, &["node", "status", "--json"])["outbox"] == 0).then_some(())
    });
    net.offline(&bruno);
    assert!(
        now_ms() < resume_at_ms,
        "Bruno must be gone before the resumption; it is {} ms late",
        now_ms() - resume_at_ms
    );

    // Ana is at the board (A7); the envelope stays closed until the agreed time (A2.7).
    let v = run(&ana.home, &["resume", &game, "--json"]);
    assert_eq!(v["status"], "adjourned", "{v}");
    // At the resumption the arbiter's node opens it by itself (A9): a6 is Bruno's move.
    let va = wait_view(&ana.home, &game, "the arbiter's opening", |v| {
        v["plies"] == 6
    });
    let opened_ms = now_ms();
    assert!(
        opened_ms >= resume_at_ms,
        "opened {} ms before the resumption: {va}",
        resume_at_ms - opened_ms
    );
    // At it, not long after: the node's retry tick (1.5 s) and a delivery.
    assert!(
        opened_ms <= resume_at_ms + 5_000,
        "opened {} ms after the resumption: {va}",
        opened_ms - resume_at_ms
    );
    assert_eq!(va["status"], "active", "{va}");
    assert_eq!(va["last_move"], "a7a6", "{va}");
    assert_eq!(va["envelope"]["opened_by_arbiter"], true, "{va}");
    assert_eq!(va["envelope"]["opened"], "a6", "{va}");
    assert_eq!(va["turn"], "white", "{va}");

    // The game goes on: Ana answers, the arbiter sees it, and nobody has lost (A10).
    run_text(&ana.home, &["move", &game, "Ba4"]);
    let vz = wait_view(&arb.home, &game, "4. Ba4 at the arbiter", |v| {
        v["plies"] == 7
    });
    let va = show(&ana.home, &game).expect("Ana knows the game");
    for v in [&va, &vz] {
        assert_eq!(v["status"], "active", "{v}");
        assert_eq!(v["result"], Value::Null, "{v}");
        assert_eq!(v["termination"], Value::Null, "{v}");
        assert_eq!(v["moves"].as_array().map(Vec::len), Some(7), "{v}");
    }

    // Bruno comes back later and takes the game up as it is: his move.
    let bruno = net.online("bruno", None);
    run_text(&bruno.home, &["peers", "connect", &ana.addr]);
    let vb = wait_view(&bruno.home, &game, "the game at Bruno's return", |v| {
        v["plies"] == 7
    });
    assert_eq!(vb["status"], "active", "{vb}");
    assert_eq!(vb["my_move"], true, "{vb}");
    assert_eq!(vb["moves"], va["moves"], "{vb}");
    eprintln!("A9 second adjournment: {:?}", started.elapsed());
}
