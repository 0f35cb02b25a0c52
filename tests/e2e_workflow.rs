//! End to end: the real `sobre` binary, three homes — two players (Ana and Bernardo) and a
//! mailbox — each with its node as a child process on loopback TCP, driven only through the
//! command line and checked through its `--json` output.
//!
//! Every test starts a fresh set of homes and nodes. The tests take a global lock so that they
//! run one at a time even without `--test-threads=1` (three nodes per test on two cores is
//! plenty).

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::{Mutex, MutexGuard, mpsc};
use std::time::{Duration, Instant};

/// How long anything may take to travel between nodes before a test fails.
const WAIT: Duration = Duration::from_secs(20);

static SERIAL: Mutex<()> = Mutex::new(());

// ----- the harness -----

use crate::common::nodes::{Node as Player, Nodes};
use crate::common::{exec, run, run_text, show, sobre};

/// Three nodes (Ana, Bernardo and a mailbox) running as child processes of the shared
/// fixture, which kills them when the test ends.
struct Net {
    a: Player,
    b: Player,
    m: Player,
    nodes: Nodes,
    // Declared last: released only once the nodes are gone.
    _serial: MutexGuard<'static, ()>,
}

impl Net {
    /// Starts the mailbox, then Ana and Bernardo using it, and connects Ana to Bernardo.
    fn start() -> Net {
        let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let mut nodes = Nodes::new();
        let m = nodes.start("mailbox", &["--mailbox"]);
        let mailbox = ["--use-mailbox", m.addr.as_str()];
        let a = nodes.start("ana", &mailbox);
        let b = nodes.start("bernardo", &mailbox);
        run_text(&a.home, &["peers", "connect", &b.addr]);
        Net {
            a,
            b,
            m,
            nodes,
            _serial: serial,
        }
    }

    /// Ana challenges Bernardo (with `args`, e.g. `--color white`), Bernardo accepts, and
    /// both see the game active. Returns the game id.
    fn new_game(&self, args: &[&str]) -> String {
        let mut challenge = vec!["challenge", self.b.id.as_str(), "--json"];
        challenge.extend_from_slice(args);
        let v = run(&self.a.home, &challenge);
        assert_eq!(v["status"], "pending", "{v}");
        let game = v["game"].as_str().expect("the game id").to_owned();
        crate::common::wait_until(&self.b.home, &game, "the challenge", |v| {
            v["status"] == "pending"
        });
        run_text(&self.b.home, &["accept", &game]);
        for p in [&self.a, &self.b] {
            crate::common::wait_until(&p.home, &game, "the game to start", |v| {
                v["status"] == "active"
            });
        }
        game
    }

    /// The players by colour in `game`, as Ana's node sees it.
    fn by_colour(&self, game: &str) -> (&Player, &Player) {
        let v = show(&self.a.home, game).expect("Ana knows the game");
        match v["my_color"].as_str() {
            Some("white") => (&self.a, &self.b),
            Some("black") => (&self.b, &self.a),
            other => panic!("Ana has no colour ({other:?}) in {v}"),
        }
    }

    /// Plays `moves` alternately from the current position, starting with the player to
    /// move; each player waits for the previous move to arrive before playing.
    fn play(&self, game: &str, moves: &[&str]) {
        let (white, black) = self.by_colour(game);
        let now = show(&white.home, game).expect("known game");
        let start = now["plies"].as_u64().expect("plies");
        let white_first = now["turn"] == "white";
        for (i, m) in moves.iter().enumerate() {
            let plies = start + i as u64;
            let (mover, other) = if (i % 2 == 0) == white_first {
                (white, black)
            } else {
                (black, white)
            };
            crate::common::wait_until(&mover.home, game, "the previous move", |v| {
                v["plies"].as_u64() == Some(plies)
            });
            run_text(&mover.home, &["move", game, m]);
            crate::common::wait_until(&other.home, game, &format!("{m} to arrive"), |v| {
                v["plies"].as_u64() == Some(plies + 1)
            });
        }
    }

    /// Both players' views once `pred` holds on both.
    fn both(&self, game: &str, what: &str, pred: impl Fn(&Value) -> bool) -> (Value, Value) {
        (
            crate::common::wait_until(&self.a.home, game, what, &pred),
            crate::common::wait_until(&self.b.home, game, what, &pred),
        )
    }

    fn path(&self, name: &str) -> PathBuf {
        self.nodes.dir.path().join(name)
    }
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn finished(v: &Value) -> bool {
    v["status"] == "finished"
}

/// A child process killed when dropped (for `sobre watch`).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

// ----- the scenarios -----

#[test]
fn scholars_mate_ends_the_game_for_both_players_and_the_mailbox() {
    let net = Net::start();
    let game = net.new_game(&["--color", "white"]);
    net.play(&game, &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    let (va, vb) = net.both(&game, "the mate", finished);
    for v in [&va, &vb] {
        assert_eq!(v["result"], "1-0", "{v}");
        assert_eq!(v["termination"], "checkmate", "{v}");
        assert_eq!(v["my_move"], false, "{v}");
    }
    assert_eq!(va["white"].as_str(), Some(net.a.id.as_str()));
    assert_eq!(va["black"].as_str(), Some(net.b.id.as_str()));
    assert_eq!(va["my_color"], "white");
    assert_eq!(vb["my_color"], "black");
    assert_eq!(va["moves"], vb["moves"]);
    assert_eq!(va["fen"], vb["fen"]);
    assert_eq!(
        strings(&va["san"]),
        ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
    );
    // The mailbox holds the whole game too.
    let vm = crate::common::wait_until(&net.m.home, &game, "the mailbox copy", finished);
    assert_eq!(vm["moves"], va["moves"]);
    assert_eq!(vm["result"], "1-0");
}

#[test]
fn a_draw_offered_and_accepted_ends_the_game_drawn() {
    let net = Net::start();
    let game = net.new_game(&["--color", "white"]);
    net.play(&game, &["d4", "d5"]);
    run_text(&net.a.home, &["draw", "offer", &game]);
    let vb = crate::common::wait_until(&net.b.home, &game, "the draw offer", |v| {
        v["draw_offer"] == "white"
    });
    assert_eq!(vb["status"], "active");
    run_text(&net.b.home, &["draw", "accept", &game]);
    let (va, vb) = net.both(&game, "the agreed draw", finished);
    for v in [&va, &vb] {
        assert_eq!(v["result"], "1/2-1/2", "{v}");
        assert_eq!(v["termination"], "agreement", "{v}");
    }
}

#[test]
fn threefold_claims_are_judged_too_early_then_correct() {
    let net = Net::start();
    let game = net.new_game(&["--color", "white"]);
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    net.play(&game, &shuffle);

    // Step 1: the start position has occurred twice: a claim now is incorrect and the game
    // goes on (White still to move).
    run_text(&net.a.home, &["claim", &game, "threefold"]);
    let (va, vb) = net.both(&game, "the incorrect claim", |v| {
        v["claims"].as_array().is_some_and(|c| c.len() == 1)
    });
    for v in [&va, &vb] {
        assert_eq!(v["claims"][0]["correct"], false, "{v}");
        assert_eq!(v["claims"][0]["reason"], "threefold", "{v}");
        assert_eq!(v["claims"][0]["by"], "white", "{v}");
        assert_eq!(v["status"], "active", "{v}");
        assert_eq!(v["result"], Value::Null, "{v}");
        assert_eq!(v["turn"], "white", "{v}");
    }

    // Step 2: the same shuffle again: the third occurrence, and the claim is correct.
    net.play(&game, &shuffle);
    let out = run_text(&net.a.home, &["claim", &game, "threefold"]);
    assert!(out.contains("claim correct"), "{out}");
    let (va, vb) = net.both(&game, "the correct claim", finished);
    for v in [&va, &vb] {
        assert_eq!(v["result"], "1/2-1/2", "{v}");
        assert_eq!(v["termination"], "threefold_repetition", "{v}");
        assert_eq!(v["claims"][1]["correct"], true, "{v}");
    }
}

#[test]
fn a_fifty_move_claim_with_the_intended_move_draws() {
    let net = Net::start();
    // The halfmove clock is at 99: Ra1 (no capture, no pawn) makes it 100.
    let fen = "4k3/8/8/8/8/8/8/1R2K3 w - - 99 80";
    let game = net.new_game(&["--color", "white", "--fen", fen]);
    let (va, vb) = net.both(&game, "the start position", |v| v["start_fen"] == fen);
    assert_eq!(va["fen"], vb["fen"]);
    let out = run_text(&net.a.home, &["claim", &game, "fifty", "--move", "Ra1"]);
    assert!(out.contains("claim correct"), "{out}");
    let (va, vb) = net.both(&game, "the fifty-move draw", finished);
    for v in [&va, &vb] {
        assert_eq!(v["result"], "1/2-1/2", "{v}");
        assert_eq!(v["termination"], "fifty_moves", "{v}");
        assert_eq!(v["claims"][0]["correct"], true, "{v}");
        assert_eq!(v["claims"][0]["by"], "white", "{v}");
        // A correct claim with an intended move: the move is not played (9.3a).
        assert_eq!(v["plies"], 0, "{v}");
    }
}

#[test]
fn a_time_forfeit_is_claimed_once_the_flag_falls() {
    let net = Net::start();
    let game = net.new_game(&["--color", "white", "--classical", "6s"]);
    let (va, _) = net.both(&game, "the clocks", |v| v["clocks"].is_object());
    assert_eq!(va["time_control"], "6s", "{va}");
    net.play(&game, &["e4"]);

    // Step 1: too early: Black's time has not run out, the claim is incorrect.
    run_text(&net.a.home, &["claim", &game, "time"]);
    let va = crate::common::wait_until(&net.a.home, &game, "the early claim", |v| {
        v["claims"].as_array().is_some_and(|c| c.len() == 1)
    });
    assert_eq!(va["claims"][0]["correct"], false, "{va}");
    assert_eq!(va["status"], "active", "{va}");

    // Step 2: Bernardo never moves; once his flag falls, Ana's claim wins.
    crate::common::wait_until(&net.a.home, &game, "Black's flag to fall", |v| {
        v["clocks"]["flagged"] == "black"
    });
    let out = run_text(&net.a.home, &["claim", &game, "time"]);
    assert!(out.contains("claim correct"), "{out}");
    let (va, vb) = net.both(&game, "the time forfeit", finished);
    for v in [&va, &vb] {
        assert_eq!(v["result"], "1-0", "{v}");
        assert_eq!(v["termination"], "time_forfeit", "{v}");
        assert_eq!(v["claims"][1]["correct"], true, "{v}");
    }
}

#[test]
fn resignation_gives_the_opponent_the_game() {
    let net = Net::start();
    let game = net.new_game(&["--color", "white"]);
    net.play(&game, &["e4"]);
    run_text(&net.b.home, &["resign", &game]);
    let (va, vb) = net.both(&game, "the resignation", finished);
    for v in [&va, &vb] {
        assert_eq!(v["result"], "1-0", "{v}");
        assert_eq!(v["termination"], "resignation", "{v}");
    }
}

#[test]
fn an_adjourned_game_resumes_with_the_legal_sealed_move() {
    let net = Net::start();
    let game = net.new_game(&["--color", "white", "--classical", "2h"]);
    net.play(&game, &["e4", "e5"]);
    let before = show(&net.a.home, &game).expect("known game")["fen"].clone();

    // Ana, to move, seals Cf3 (Spanish for Nf3).
    let out = run_text(
        &net.a.home,
        &[
            "adjourn",
            &game,
            "--seal",
            "Cf3",
            "--resume-at",
            "+1d",
            "--place",
            "Club",
        ],
    );
    assert!(out.contains("adjourned"), "{out}");
    net.both(&game, "the adjournment", |v| v["status"] == "adjourned");

    // The envelope (A2), as both players see it; the move stays secret.
    for p in [&net.a, &net.b] {
        let env = run(&p.home, &["envelope", &game, "--json"]);
        assert_eq!(env["status"], "adjourned", "{env}");
        let e = &env["envelope"];
        assert_eq!(e["sealer"], "white", "{env}");
        assert_eq!(e["move_number"], 2, "{env}");
        assert_eq!(e["fen_before"], before, "{env}");
        assert!(e["opened"].is_null(), "{env}");
        assert_eq!(e["place"], "Club", "{env}");
        assert!(e["resume_at_ms"].as_u64().is_some(), "{env}");
        assert_eq!(e["time_used_ms"].as_array().map(Vec::len), Some(2), "{env}");
        assert_eq!(e["commitment"].as_str().map(str::len), Some(64), "{env}");
        // `Cf3` reads only in Spanish: the letters were fixed and signed when sealing.
        assert_eq!(e["letters"], "es", "{env}");
        assert!(
            !env.to_string().contains("Cf3"),
            "the sealed move leaked: {env}"
        );
    }
    let card = run_text(&net.b.home, &["envelope", &game]);
    assert!(card.contains("Sealed by:       White"), "{card}");
    assert!(card.contains("Place:           Club"), "{card}");
    assert!(card.contains("Opened:          no"), "{card}");
    assert!(card.contains("Written in:      Spanish letters"), "{card}");
    // Nobody moves while adjourned.
    assert!(!exec(&net.b.home, &["move", &game, "Nc6"]).success());

    // Bernardo announces presence a day early: the envelope stays closed (A2.7), although
    // Ana's node has his presence.
    run_text(&net.b.home, &["resume", &game]);
    let va = crate::common::wait_until(&net.a.home, &game, "Bernardo's presence", |v| {
        !v["presence_ms"][1].is_null()
    });
    assert_eq!(va["status"], "adjourned", "{va}");
    assert!(va["envelope"]["opened"].is_null(), "{va}");
    // Ana comes back too: both present, her node opens the envelope and plays Nf3.
    run_text(&net.a.home, &["resume", &game]);
    let (va, vb) = net.both(&game, "the sealed move", |v| {
        v["status"] == "active" && v["plies"] == 3
    });
    for v in [&va, &vb] {
        assert_eq!(v["last_move"], "g1f3", "{v}");
        // Opened: the move as it was written.
        assert_eq!(v["envelope"]["opened"], "Cf3", "{v}");
        assert_eq!(v["turn"], "black", "{v}");
    }
    assert_eq!(vb["my_move"], true);
    let shown = run_text(&net.b.home, &["show", &game]);
    assert!(
        shown.contains("Sealed move: by White at move 2, opened: Cf3;"),
        "{shown}"
    );
    let card = run_text(&net.a.home, &["envelope", &game]);
    assert!(card.contains("Opened:          yes: Cf3"), "{card}");
    // The game goes on.
    net.play(&game, &["Nc6"]);
}

/// Appendix A is for games played in sessions (A1): a correspondence game has no session to
/// end, and a seal there would only stop the sealer's clock, so the node refuses it.
#[test]
fn a1_a_correspondence_game_is_not_adjourned() {
    let net = Net::start();
    let game = net.new_game(&["--color", "white", "--per-move", "3d"]);
    let out = exec(
        &net.a.home,
        &["adjourn", &game, "--seal", "e4", "--resume-at", "+1d"],
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("correspondence"), "{}", out.stderr);
    assert!(
        out.stderr.contains("leave"),
        "the hint names leave: {}",
        out.stderr
    );
    assert_eq!(show(&net.a.home, &game).unwrap()["status"], "active");
}

#[test]
fn an_illegal_sealed_move_loses_at_the_opening() {
    let net = Net::start();
    let game = net.new_game(&["--color", "white", "--classical", "2h"]);
    net.play(&game, &["e4", "e5"]);

    // Without --force the node refuses a move that would lose under A8.
    let refused = exec(
        &net.a.home,
        &["adjourn", &game, "--seal", "Ke3", "--resume-at", "+1h"],
    );
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(refused.stderr.contains("A8"), "{}", refused.stderr);
    assert_eq!(show(&net.a.home, &game).unwrap()["status"], "active");

    run_text(
        &net.a.home,
        &[
            "adjourn",
            &game,
            "--seal",
            "Ke3",
            "--force",
            "--resume-at",
            "+1h",
        ],
    );
    net.both(&game, "the adjournment", |v| v["status"] == "adjourned");
    run_text(&net.b.home, &["resume", &game]);
    run_text(&net.a.home, &["resume", &game]);
    let (va, vb) = net.both(&game, "the opening of the illegal move", finished);
    for v in [&va, &vb] {
        assert_eq!(v["result"], "0-1", "{v}");
        assert_eq!(v["termination"], "illegal_sealed_move", "{v}");
        assert_eq!(v["plies"], 2, "{v}");
    }
}

#[test]
fn a_conditional_move_answers_the_expected_reply_at_once() {
    let net = Net::start();
    let game = net.new_game(&["--color", "white"]);
    net.play(&game, &["e4"]);

    // Not on my own move.
    assert!(!exec(&net.b.home, &["conditional", &game, "add", "e4 e5"]).success());
    // Ana, waiting for Black: "if e5 then Nf3", and a line that will not fit.
    run(
        &net.a.home,
        &["conditional", &game, "add", "e5 Nf3", "--json"],
    );
    let lines = run(
        &net.a.home,
        &["conditional", &game, "add", "c5", "c3", "--json"],
    );
    assert_eq!(
        lines["lines"],
        serde_json::json!([["e5", "Nf3"], ["c5", "c3"]])
    );

    run_text(&net.b.home, &["move", &game, "e5"]);
    let (va, vb) = net.both(&game, "the conditional reply", |v| v["plies"] == 3);
    for v in [&va, &vb] {
        assert_eq!(strings(&v["san"]), ["e4", "e5", "Nf3"], "{v}");
    }
    assert_eq!(vb["my_move"], true);
    // Both lines are used up.
    let lines = run(&net.a.home, &["conditional", &game, "list", "--json"]);
    assert_eq!(lines["lines"], serde_json::json!([]), "{lines}");
}

#[test]
fn moves_typed_in_spanish_are_played() {
    let net = Net::start();
    let game = net.new_game(&["--color", "white"]);
    net.play(
        &game,
        &[
            "e4", "e5", "Cf3", "Cc6", "Ac4", "Ac5", "0-0", "Cf6", "Te1", "0-0", "c3", "d6", "d4",
            "Ab6", "Dd3",
        ],
    );
    let (va, vb) = net.both(&game, "the last move", |v| v["plies"] == 15);
    assert_eq!(va["moves"], vb["moves"]);
    assert_eq!(
        strings(&va["san"]),
        [
            "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6", "Re1", "O-O", "c3", "d6", "d4",
            "Bb6", "Qd3"
        ]
    );
    // And shown in Spanish on request.
    let out = run_text(&net.b.home, &["show", &game, "--notation", "es", "--ascii"]);
    assert!(
        out.contains("2. Cf3 Cc6 3. Ac4 Ac5 4. O-O Cf6 5. Te1 O-O"),
        "{out}"
    );
    assert!(out.contains("8. Dd3"), "{out}");
}

/// FIDE App. E2/E3: each player writes in their own letters, and `R` is a rook in English
/// but the king (*rey*) in Spanish. With the rook on a1 and the king on e1, `Rd1` is read
/// in the letters the player said they write (`--notation`, or `notation` in
/// `HOME/config.json`), and never guessed: unsaid, it is refused, naming both readings and
/// the flag that settles it.
#[test]
fn e3_rook_move_rd1_is_read_in_the_players_letters() {
    let net = Net::start();
    let game = net.new_game(&[
        "--color",
        "white",
        "--fen",
        "4k3/p7/8/8/8/8/8/R3K3 w - - 0 1",
    ]);
    let (white, black) = net.by_colour(&game);

    let out = exec(&white.home, &["move", &game, "Rd1"]);
    assert!(
        !out.success(),
        "an unsaid language is not guessed: {}",
        out.stdout
    );
    for words in [
        "rook move from a1",
        "king move from e1",
        "--notation en",
        "--notation es",
    ] {
        assert!(out.stderr.contains(words), "{words:?} in {}", out.stderr);
    }
    assert!(
        !out.stderr.contains("Nbd7"),
        "no hint about origin files: {}",
        out.stderr
    );

    run_text(&white.home, &["move", &game, "Rd1", "--notation", "en"]);
    let v = crate::common::wait_until(&black.home, &game, "the rook move", |v| v["plies"] == 1);
    assert_eq!(strings(&v["moves"]), ["a1d1"], "{v}");
    run_text(&black.home, &["move", &game, "a6"]);
    crate::common::wait_until(&white.home, &game, "Black's reply", |v| v["plies"] == 2);

    // A Spanish player's setting: `Rd2` is the king's move, though the rook reaches d2 too.
    std::fs::write(white.home.join("config.json"), r#"{"notation": "es"}"#)
        .expect("write config.json");
    run_text(&white.home, &["move", &game, "Rd2"]);
    let v = crate::common::wait_until(&black.home, &game, "the king move", |v| v["plies"] == 3);
    assert_eq!(strings(&v["moves"]), ["a1d1", "a7a6", "e1d2"], "{v}");
}

#[test]
fn a_chess960_position_and_the_colours_are_drawn_fairly() {
    let net = Net::start();
    let game = net.new_game(&["--chess960", "--color", "random"]);
    let (va, vb) = net.both(&game, "the drawn position", |v| v["start_fen"].is_string());
    assert_eq!(va["chess960"], true, "{va}");
    assert_eq!(va["start_fen"], vb["start_fen"]);
    assert_eq!(va["white"], vb["white"]);
    assert_eq!(va["black"], vb["black"]);
    let colours = [va["my_color"].as_str(), vb["my_color"].as_str()];
    assert!(
        colours == [Some("white"), Some("black")] || colours == [Some("black"), Some("white")],
        "{colours:?}"
    );
    // White to move from a position with the pieces on the back ranks, pawns in front.
    let start = va["start_fen"].as_str().unwrap();
    let ranks: Vec<&str> = start.split([' ', '/']).collect();
    assert_eq!(
        &ranks[1..8],
        [
            "pppppppp",
            "8",
            "8",
            "8",
            "8",
            "PPPPPPPP",
            &ranks[0].to_uppercase()
        ],
        "{start}"
    );
    assert_eq!(ranks[8], "w", "{start}");
    // Playable: pawn moves are legal from every Chess960 position.
    net.play(&game, &["b3", "g6", "h3"]);
    let (va, vb) = net.both(&game, "three moves", |v| v["plies"] == 3);
    assert_eq!(va["fen"], vb["fen"]);
    assert_eq!(va["start_fen"], vb["start_fen"]);
}

#[test]
fn games_list_my_moves_first_and_watch_streams_moves() {
    let net = Net::start();
    // Game 1: Ana (White) to move. Game 2: Ana is Black, Bernardo (White) to move.
    let mine = net.new_game(&["--color", "white"]);
    let theirs = net.new_game(&["--color", "black"]);
    // Game 3: a challenge from Bernardo Ana has not answered.
    let incoming = run(&net.b.home, &["challenge", &net.a.id, "--json"])["game"]
        .as_str()
        .unwrap()
        .to_owned();
    crate::common::wait_until(&net.a.home, &incoming, "the incoming challenge", |v| {
        v["status"] == "pending"
    });

    let list = run(&net.a.home, &["games", "--json"]);
    let games = list["games"].as_array().expect("a list of games");
    let ids: Vec<&str> = games.iter().filter_map(|g| g["game"].as_str()).collect();
    assert_eq!(
        ids,
        [mine.as_str(), incoming.as_str(), theirs.as_str()],
        "{list}"
    );
    assert_eq!(games[0]["my_move"], true);
    assert_eq!(games[1]["incoming_challenge"], true);
    assert_eq!(games[2]["my_move"], false);
    assert_eq!(games[2]["my_color"], "black");
    // From Bernardo's side the order is the other way round.
    let list = run(&net.b.home, &["games", "--json"]);
    let first = list["games"][0]["game"].as_str();
    assert_eq!(first, Some(theirs.as_str()), "{list}");

    // `sobre watch --json` sees Bernardo's move arrive.
    let mut child = sobre(&net.a.home)
        .args(["watch", "--json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("watch starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let _watch = Killed(child);
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Give the watcher a moment to subscribe before the move is made.
    std::thread::sleep(Duration::from_millis(500));
    run_text(&net.b.home, &["move", &theirs, "d4"]);
    let deadline = Instant::now() + WAIT;
    let event = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = rx
            .recv_timeout(left)
            .expect("a move line from `sobre watch --json`");
        let v: Value = serde_json::from_str(&line).expect("one JSON object per line");
        if v["event"] == "move" {
            break v;
        }
    };
    assert_eq!(event["game"].as_str(), Some(theirs.as_str()), "{event}");
    assert_eq!(event["by"].as_str(), Some(net.b.id.as_str()), "{event}");
    assert!(event["time_ms"].as_u64().is_some(), "{event}");

    // Now both games wait for Ana: the list is ordered again.
    let list = run(&net.a.home, &["games", "--json"]);
    let games = list["games"].as_array().unwrap();
    assert_eq!(games[0]["my_move"], true, "{list}");
    assert_eq!(games[1]["my_move"], true, "{list}");
    assert_eq!(games[2]["game"].as_str(), Some(incoming.as_str()), "{list}");
}

#[test]
fn an_exported_archive_verifies_offline() {
    let net = Net::start();
    let game = net.new_game(&["--color", "white"]);
    // Fool's mate: Black wins.
    net.play(&game, &["f3", "e5", "g4", "Qh4#"]);
    let (va, _) = net.both(&game, "the mate", finished);
    assert_eq!(va["result"], "0-1");

    let pgn = run_text(&net.a.home, &["export", &game, "--pgn"]);
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    // White is Ana's signed name (`init --name`), the id is kept in WhiteId.
    assert!(pgn.contains("[White \"ana\"]"), "{pgn}");
    assert!(
        pgn.contains(&format!("[WhiteId \"{}\"]", net.a.id)),
        "{pgn}"
    );
    // The movetext, without the signed times in comments.
    let mut movetext = String::new();
    let mut depth = 0;
    for c in pgn
        .split("\n\n")
        .nth(1)
        .expect("movetext after the tags")
        .chars()
    {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => movetext.push(c),
            _ => {}
        }
    }
    let movetext = movetext.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(movetext, "1. f3 1... e5 2. g4 2... Qh4# 0-1", "{pgn}");

    let file = net.path("game.sobre");
    let file_arg = file.to_str().unwrap();
    run_text(&net.b.home, &["export", &game, "--archive", "-o", file_arg]);
    let text = std::fs::read_to_string(&file).expect("the archive was written");
    assert!(text.starts_with("sobre-archive 1\n"), "{text}");
    assert!(text.contains(&format!("game {game}")), "{text}");

    // `verify` needs no node and no home.
    let v = run(&net.path("nowhere"), &["verify", file_arg, "--json"]);
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["game"].as_str(), Some(game.as_str()), "{v}");
    assert_eq!(v["result"], "0-1", "{v}");
    assert_eq!(v["termination"], "checkmate", "{v}");
    assert_eq!(v["moves"], va["moves"], "{v}");
    assert_eq!(v["white"].as_str(), Some(net.a.id.as_str()), "{v}");

    // A damaged archive does not verify.
    let damaged = net.path("damaged.sobre");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(3);
    std::fs::write(&damaged, lines.join("\n") + "\n").unwrap();
    let out = exec(
        &net.path("nowhere"),
        &["verify", damaged.to_str().unwrap(), "--json"],
    );
    assert!(!out.success(), "{}", out.stdout);
    let v: Value = serde_json::from_str(out.stdout.trim()).expect("JSON even on failure");
    assert_eq!(v["ok"], false, "{v}");
}
