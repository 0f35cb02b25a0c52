//! End to end, with real `sobre node run` processes on loopback TCP: the clocks issue's
//! cases 5 and 6 (docs/time.md, protocol version 3; FIDE 6, the chessclock). Two honest
//! nodes must show the same clocks for the same game, whoever's mailboxes held it.
//!
//! Before protocol version 3 each node kept receipts only from its own mailboxes, and any key
//! a player named as witness was clock evidence: Ana, who uses the club's mailbox, and Bruno,
//! who does not, held different countersignatures of the same moves and so different clocks.
//! Now (docs/time.md, "The rules"):
//!
//! - without an agreed timekeeper, a move is made at its effective time and reaches the
//!   opponent at the opponent's countersignature, bounded to the transit allowance; a
//!   mailbox's receipts are kept in its user's record but are no evidence (case 5);
//! - with the mailbox as agreed timekeeper (`sobre challenge … --timekeeper MAILBOX`), every
//!   node sends every event to it and keeps its receipts, and each move counts at the
//!   mailbox's receipt on both nodes (cases 5 and 6).
//!
//! Each test plays a few moves, some after a pause of two seconds, and after each move has
//! reached both nodes compares `sobre show GAME --json` on both: the moves and the used time
//! of the side not to move (fixed once it has moved; the running side's grows with each
//! node's own `now`). At the end it exports both nodes' signed archives, verifies them (with
//! `sobre verify` from a fresh home, and with `sobre_core` to read each move's evidence), and
//! recomputes each side's used time from the signed events alone. Every wait polls.

use crate::common::nodes::{Node, Nodes};
use crate::common::{run, run_text, show, wait_within};
use serde_json::Value;
use sobre_core::record::{EventId, EventKind, GameState, read_archive};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long anything may take to travel between nodes before a test fails.
const WAIT: Duration = Duration::from_secs(30);
/// How often a wait asks.
const POLL: Duration = Duration::from_millis(100);
/// A player's thinking time before some moves: enough for a wrong clock to show.
const PAUSE: Duration = Duration::from_secs(2);

/// Three nodes per test on two cores: the tests run one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

// ----- the harness -----

/// One game between Ana (White, who uses the club's mailbox) and Bruno (Black, who does not).
struct Table {
    nodes: Nodes,
    mailbox: Node,
    ana: Node,
    bruno: Node,
    game: String,
    /// Whether the mailbox is the game's agreed timekeeper.
    timekeeper: bool,
    /// After each ply: the side that moved, and its used time as both nodes showed it.
    fixed: Vec<(&'static str, i64)>,
    _serial: MutexGuard<'static, ()>,
}

/// [`wait_within`] the usual [`WAIT`].
fn wait_view(home: &Path, game: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    wait_within(home, game, WAIT, what, pred)
}

/// The used time of `side` ("white" or "black") in a `show --json` view.
fn used(v: &Value, side: &str) -> i64 {
    v["clocks"][format!("{side}_used_ms")]
        .as_i64()
        .unwrap_or_else(|| panic!("{side}'s used time: {v}"))
}

impl Table {
    /// Starts the club's mailbox (`--mailbox`), Ana's node using it (`--use-mailbox`) and
    /// Bruno's without one; Ana connects to Bruno and challenges him (`--classical 5m`, Ana
    /// White), naming the mailbox as timekeeper if `timekeeper`; Bruno accepts. Returns once
    /// White's clock runs on both nodes (docs/time.md: the clocks start when the acceptance
    /// reached White — with a timekeeper, at the mailbox's receipt of it).
    fn open(timekeeper: bool) -> Table {
        let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let mut nodes = Nodes::new();
        let mailbox = nodes.start("mailbox", &["--mailbox"]);
        let ana = nodes.start("ana", &["--use-mailbox", &mailbox.addr]);
        let bruno = nodes.start("bruno", &[]);
        run_text(&ana.home, &["peers", "connect", &bruno.addr]);

        let mut args = vec![
            "challenge",
            bruno.id.as_str(),
            "--color",
            "white",
            "--classical",
            "5m",
            "--json",
        ];
        if timekeeper {
            args.extend(["--timekeeper", mailbox.id.as_str()]);
        }
        let v = run(&ana.home, &args);
        assert_eq!(v["status"], "pending", "{v}");
        let game = v["game"].as_str().expect("the game id").to_owned();
        wait_view(&bruno.home, &game, "the challenge", |v| {
            v["status"] == "pending"
        });
        run_text(&bruno.home, &["accept", &game]);
        let t = Table {
            nodes,
            mailbox,
            ana,
            bruno,
            game,
            timekeeper,
            fixed: Vec::new(),
            _serial: serial,
        };
        let (va, vb) = t.wait_both("White's clock to run", |v| {
            v["status"] == "active" && v["clocks"]["running"] == "white"
        });
        for v in [&va, &vb] {
            // The terms both players signed: the mailbox is a timekeeper only if named.
            let keepers = &v["terms"]["timekeepers"];
            if timekeeper {
                assert_eq!(*keepers, serde_json::json!([t.mailbox.id]), "{v}");
            } else {
                assert!(
                    keepers.is_null() || keepers.as_array().is_some_and(Vec::is_empty),
                    "no timekeeper was agreed: {v}"
                );
            }
        }
        assert_eq!(va["started_ms"], vb["started_ms"], "{va}\n{vb}");
        t
    }

    /// The player to play ply `ply` (from 0: Ana is White), the side and the other side.
    fn sides(&self, ply: usize) -> (&Node, &'static str, &'static str) {
        if ply.is_multiple_of(2) {
            (&self.ana, "white", "black")
        } else {
            (&self.bruno, "black", "white")
        }
    }

    /// Polls both players' `show` until `pred` holds on both, for up to [`WAIT`]; fails with
    /// every node's last view (the mailbox's too).
    fn wait_both(&self, what: &str, pred: impl Fn(&Value) -> bool) -> (Value, Value) {
        let deadline = Instant::now() + WAIT;
        loop {
            let va = show(&self.ana.home, &self.game);
            let vb = show(&self.bruno.home, &self.game);
            if let (Some(va), Some(vb)) = (&va, &vb)
                && pred(va)
                && pred(vb)
            {
                return (va.clone(), vb.clone());
            }
            if Instant::now() >= deadline {
                let view =
                    |v: Option<Value>| v.map_or_else(|| "none".to_owned(), |v| v.to_string());
                panic!(
                    "timed out waiting for {what} on both players' nodes\nAna: {}\nBruno: {}\n\
                     the mailbox: {}",
                    view(va),
                    view(vb),
                    view(show(&self.mailbox.home, &self.game))
                );
            }
            std::thread::sleep(POLL);
        }
    }

    /// Stops Bruno's node (`sobre node stop`) and waits until its process has exited.
    fn bruno_offline(&mut self) {
        run_text(&self.bruno.home, &["node", "stop"]);
        let log = self.nodes.dir.path().join("bruno.log");
        let i = self
            .nodes
            .children
            .iter()
            .position(|(l, _)| *l == log)
            .expect("Bruno's node runs");
        let (_, mut child) = self.nodes.children.remove(i);
        let deadline = Instant::now() + WAIT;
        while child.try_wait().expect("the node's status").is_none() {
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("Bruno's node did not stop");
            }
            std::thread::sleep(POLL);
        }
    }

    /// Plays `mv` as ply `ply` (after `before`) and waits until it is made on both nodes
    /// (the other side's clock runs); then both nodes must show the same moves and the same
    /// used time for the side that moved (FIDE 6.2: its clock stopped when the move was
    /// made). Evidence may still be travelling when the move arrives (a receipt), so
    /// agreement is polled for; two nodes that disagree for good fail.
    fn play(&mut self, ply: usize, mv: &str, before: Before) {
        let (mover, side, other) = self.sides(ply);
        let mover = mover.home.clone();
        match before {
            Before::Now => {}
            Before::Pause => std::thread::sleep(PAUSE),
            Before::BrunoAway => {
                assert_eq!(side, "white", "Ana moves while Bruno is away");
                self.bruno_offline();
            }
        }
        run_text(&mover, &["move", &self.game, mv]);
        if before == Before::BrunoAway {
            // The mailbox receives the move at once; Bruno's node only once it is back.
            wait_view(
                &self.mailbox.home,
                &self.game,
                "the mailbox to hold it",
                |v| v["plies"] == ply + 1,
            );
            std::thread::sleep(PAUSE);
            self.bruno = self.nodes.start("bruno", &[]);
        }
        let made = |v: &Value| v["plies"] == ply + 1 && v["clocks"]["running"] == other;
        let what = format!("ply {} ({mv}) to be made", ply + 1);
        let (va, vb) = self.wait_both(&what, |v| made(v));
        let (va, _) = if used(&va, side) == used(&vb, side) && va["moves"] == vb["moves"] {
            (va, vb)
        } else {
            self.wait_both(
                &format!("the nodes to agree on {side}'s clock after {mv}"),
                |v| {
                    made(v)
                        && show(&self.ana.home, &self.game).is_some_and(|a| {
                            used(&a, side) == used(v, side) && a["moves"] == v["moves"]
                        })
                },
            )
        };
        assert_eq!(va["moves"].as_array().map(Vec::len), Some(ply + 1), "{va}");
        assert!(used(&va, side) > 0, "{side} used no time: {va}");
        eprintln!(
            "{:>2}. {mv:<4} {side} used {} ms on both nodes",
            ply + 1,
            used(&va, side)
        );
        self.fixed.push((side, used(&va, side)));
    }

    /// Plays [`MOVES`] from the start.
    fn play_all(&mut self) {
        for (ply, &(mv, before)) in MOVES.iter().enumerate() {
            self.play(ply, mv, before);
        }
    }

    /// `name`'s signed record of the game, exported (`sobre export --archive`), checked by
    /// `sobre verify` from a home that never saw the game, and read back with `sobre_core`.
    fn record(&self, p: &Node) -> Record {
        let file = self.nodes.dir.path().join(format!("{}.sobre", p.name));
        let file_arg = file.to_str().expect("a UTF-8 path");
        run_text(
            &p.home,
            &["export", &self.game, "--archive", "-o", file_arg],
        );
        let v = run(
            &self.nodes.dir.path().join("nowhere"),
            &["verify", file_arg, "--json"],
        );
        assert_eq!(v["ok"], true, "{v}");
        assert_eq!(v["game"].as_str(), Some(self.game.as_str()), "{v}");
        let text = std::fs::read_to_string(&file).expect("the archive");
        let archive = read_archive(&text).expect("the archive parses");
        let state = archive.verify().expect("the archive verifies");
        let events = archive
            .events
            .iter()
            .map(|e| {
                let ev = e.decode_unverified().expect("a verified event decodes");
                Ev {
                    id: e.id(),
                    author: ev.author.to_string(),
                    time_ms: ev.time_ms,
                    prev: ev.prev,
                    seen: ev.seen,
                    receipt_of: match ev.kind {
                        EventKind::Receipt { event } => Some(event),
                        _ => None,
                    },
                    accept: matches!(ev.kind, EventKind::Accept(_)),
                }
            })
            .collect();
        Record {
            state,
            events,
            verified: v,
        }
    }
}

// ----- reading the evidence from the signed events -----

/// One signed event of an archive, as far as time is concerned.
struct Ev {
    id: EventId,
    author: String,
    time_ms: u64,
    prev: Option<EventId>,
    seen: Option<EventId>,
    receipt_of: Option<EventId>,
    accept: bool,
}

/// A node's record of the game: its verified state and its signed events.
struct Record {
    state: GameState,
    events: Vec<Ev>,
    /// What `sobre verify --json` said of it.
    verified: Value,
}

impl Record {
    fn event(&self, id: &EventId) -> &Ev {
        self.events
            .iter()
            .find(|e| e.id == *id)
            .expect("an event of the record")
    }

    /// The event's effective time: its signed time, never before the events it refers to
    /// (docs/time.md, `eff(E)`).
    fn eff(&self, id: &EventId) -> u64 {
        let e = self.event(id);
        [e.prev, e.seen]
            .into_iter()
            .flatten()
            .filter(|r| self.events.iter().any(|x| x.id == *r))
            .map(|r| self.eff(&r))
            .fold(e.time_ms, u64::max)
    }

    /// Receipts of `id` signed by `who`.
    fn receipts_by(&self, id: &EventId, who: &str) -> Vec<u64> {
        self.events
            .iter()
            .filter(|e| e.author == who && e.receipt_of == Some(*id))
            .map(|e| e.time_ms)
            .collect()
    }

    /// The earliest receipt of `id` by `who` (the timekeeper's stamp), if any.
    fn stamp(&self, id: &EventId, who: &str) -> Option<u64> {
        self.receipts_by(id, who).into_iter().min()
    }

    /// The other player's first countersignature of `id`: a receipt of it, or an event that
    /// saw it, signed by the player who did not sign `id`.
    fn by_opponent(&self, id: &EventId, players: &[&str; 2]) -> Option<u64> {
        let author = self.event(id).author.as_str();
        let other = if players[0] == author {
            players[1]
        } else {
            players[0]
        };
        self.events
            .iter()
            .filter(|e| e.author == other && (e.receipt_of == Some(*id) || e.seen == Some(*id)))
            .map(|e| e.time_ms)
            .min()
    }

    /// The acceptance (White is the challenger: the clocks start when it reached White).
    fn acceptance(&self) -> EventId {
        let accepts: Vec<_> = self.events.iter().filter(|e| e.accept).collect();
        assert_eq!(accepts.len(), 1, "one acceptance");
        accepts[0].id
    }
}

/// How the clocks of docs/time.md read a record: when each event counts as made, and when it
/// reached the other player.
struct Rule<'a> {
    record: &'a Record,
    players: [&'a str; 2],
    /// The agreed timekeeper, if any.
    timekeeper: Option<&'a str>,
    /// The transit allowance `A` of the time control.
    allowance: u64,
}

impl Rule<'_> {
    fn made(&self, id: &EventId) -> u64 {
        let eff = self.record.eff(id);
        match self.timekeeper {
            Some(k) => self
                .record
                .stamp(id, k)
                .expect("every event the clocks read has the timekeeper's receipt")
                .max(eff),
            None => eff,
        }
    }

    fn reached(&self, id: &EventId) -> u64 {
        if self.timekeeper.is_some() {
            return self.made(id);
        }
        let eff = self.record.eff(id);
        let cap = eff + self.allowance;
        self.record
            .by_opponent(id, &self.players)
            .map_or(cap, |c| c.clamp(eff, cap))
    }

    /// Each side's used time after each ply, from the signed events alone: the sum of
    /// `made(move) − reached(what it answered)` over the side's moves so far (FIDE 6.2: a
    /// side's clock runs from when the opponent's move reached it until its own move).
    fn used_after_each_ply(&self) -> Vec<(&'static str, i64)> {
        let mut before = self.record.acceptance();
        let mut total = [0i64; 2];
        let mut out = Vec::new();
        for (ply, m) in self.record.state.moves.iter().enumerate() {
            let i = ply % 2;
            total[i] += self.made(&m.event) as i64 - self.reached(&before) as i64;
            out.push((["white", "black"][i], total[i]));
            before = m.event;
        }
        out
    }
}

/// What happens before a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Before {
    /// Nothing: the player answers at once.
    Now,
    /// The player thinks [`PAUSE`] first.
    Pause,
    /// Bruno's node is off when Ana moves, and comes back [`PAUSE`] after the mailbox has
    /// received the move: her move reaches Bruno well after the mailbox.
    BrunoAway,
}

/// The moves both tests play (Ruy Lopez), and what happens before each.
const MOVES: [(&str, Before); 6] = [
    ("e4", Before::Now),
    ("e5", Before::Pause),
    ("Nf3", Before::BrunoAway),
    ("Nc6", Before::Now),
    ("Bb5", Before::Pause),
    ("a6", Before::Pause),
];

/// The checks both tests make of both nodes' records at the end: the same moves, the same
/// evidence per move, and each side's used time after each ply — as the nodes showed it
/// while the game went on — is what the signed events give under the game's rule.
fn check_records(t: &Table, ra: &Record, rb: &Record) {
    let players = [t.ana.id.as_str(), t.bruno.id.as_str()];
    let cs = |r: &Record| -> Vec<Option<u64>> {
        r.state.moves.iter().map(|m| m.countersigned_ms).collect()
    };
    for r in [ra, rb] {
        assert_eq!(r.state.moves.len(), MOVES.len());
        assert_eq!(r.verified["moves"], ra.verified["moves"]);
        assert_eq!(r.state.terms.timekeepers.is_empty(), !t.timekeeper);
        let rule = Rule {
            record: r,
            players,
            timekeeper: t.timekeeper.then_some(t.mailbox.id.as_str()),
            allowance: r.state.time_control.transit_allowance_ms(),
        };
        assert_eq!(
            rule.used_after_each_ply(),
            t.fixed,
            "the clocks both nodes showed are not the record's"
        );
    }
    assert_eq!(cs(ra), cs(rb), "the nodes read different evidence per move");
    assert_eq!(ra.state.started_ms, rb.state.started_ms);
}

// ----- the cases -----

/// The clocks issue's case 5 (docs/time.md, "Without timekeepers"; FIDE 6.2): only Ana uses
/// the club's mailbox and no timekeeper is agreed. The mailbox's receipts are in Ana's
/// record, but they are no evidence: each move is made at its effective time and reaches the
/// opponent at the opponent's own countersignature, so Ana's node and Bruno's show the same
/// clocks after every move.
#[test]
fn case_5_two_honest_nodes_agree_when_only_one_player_uses_a_mailbox() {
    let started = Instant::now();
    let mut t = Table::open(false);
    t.play_all();

    // The mailbox holds the game as far as Ana's last move (her node sends it there with
    // each of her events; Bruno's moves reached her directly)...
    let anas = (0..MOVES.len()).filter(|p| p % 2 == 0).count();
    let vm = wait_view(&t.mailbox.home, &t.game, "the game at the mailbox", |v| {
        v["plies"].as_u64() >= Some(2 * anas as u64 - 1)
    });
    let va = show(&t.ana.home, &t.game).expect("Ana's view");
    let held = vm["moves"].as_array().expect("the mailbox's moves");
    let played = va["moves"].as_array().expect("Ana's moves");
    assert_eq!(held[..], played[..held.len()], "{vm}");

    // ...and Ana's record holds its receipts of her moves once they have come back.
    let m = t.mailbox.id.as_str();
    let deadline = Instant::now() + WAIT;
    let ra = loop {
        let ra = t.record(&t.ana);
        let unstamped: Vec<usize> = (0..ra.state.moves.len())
            .filter(|ply| ply % 2 == 0 && ra.stamp(&ra.state.moves[*ply].event, m).is_none())
            .map(|ply| ply + 1)
            .collect();
        if unstamped.is_empty() {
            break ra;
        }
        assert!(
            Instant::now() < deadline,
            "Ana's record lacks the mailbox's receipts of her plies {unstamped:?}"
        );
        std::thread::sleep(POLL);
    };
    let rb = t.record(&t.bruno);

    // They set no clock: each move's countersignature is the opponent's, on both nodes,
    // though the mailbox's receipt is sometimes the earlier (it would have counted before).
    let players = [t.ana.id.as_str(), t.bruno.id.as_str()];
    for (who, r) in [("Ana", &ra), ("Bruno", &rb)] {
        for (ply, mv) in r.state.moves.iter().enumerate() {
            assert_eq!(
                mv.countersigned_ms,
                r.by_opponent(&mv.event, &players),
                "{who}: ply {}'s countersignature is the opponent's, not the mailbox's",
                ply + 1
            );
        }
    }
    let stamps: Vec<(u64, Option<u64>)> = ra
        .state
        .moves
        .iter()
        .filter_map(|mv| Some((ra.stamp(&mv.event, m)?, mv.countersigned_ms)))
        .collect();
    let earlier = stamps
        .iter()
        .filter(|(s, c)| c.is_none_or(|c| *s < c))
        .count();
    // At least 2. Nf3, which reached Bruno's node only when it came back: the test tells the
    // rule from the old one (a mailbox's receipt counting for the node that holds it).
    assert!(
        earlier >= 1,
        "no mailbox receipt came before the opponent's countersignature: {stamps:?}"
    );
    let held_by_bruno = rb
        .state
        .moves
        .iter()
        .filter(|mv| rb.stamp(&mv.event, m).is_some())
        .count();
    check_records(&t, &ra, &rb);

    // The clocks as they stand now agree too (the running side aside).
    let (va, vb) = (
        show(&t.ana.home, &t.game).expect("Ana's view"),
        show(&t.bruno.home, &t.game).expect("Bruno's view"),
    );
    assert_eq!(va["moves"], vb["moves"]);
    assert_eq!(used(&va, "black"), used(&vb, "black"), "{va}\n{vb}");
    assert_eq!(va["clocks"]["running"], "white", "{va}");
    eprintln!(
        "case 5: Ana's record holds the mailbox's receipts of {} of {} moves ({earlier} \
         before the opponent's countersignature), Bruno's of {held_by_bruno}; {:?}",
        stamps.len(),
        MOVES.len(),
        started.elapsed()
    );
}

/// The clocks issue's cases 5 and 6 with an agreed timekeeper (docs/time.md, "With
/// timekeepers"; FIDE 6.2): Ana names the club's mailbox, which only she uses, as the
/// game's timekeeper and Bruno accepts those terms. Bruno's node then sends every event to
/// the mailbox as well and keeps its receipts, so both nodes hold the same evidence: every
/// move counts at the mailbox's receipt on both, and both show the same clocks.
#[test]
fn case_5_6_with_an_agreed_timekeeper_both_nodes_count_the_timekeepers_receipts() {
    let started = Instant::now();
    let mut t = Table::open(true);
    t.play_all();

    let vm = wait_view(&t.mailbox.home, &t.game, "the game at the mailbox", |v| {
        v["plies"] == MOVES.len()
    });
    let va = show(&t.ana.home, &t.game).expect("Ana's view");
    assert_eq!(vm["moves"], va["moves"], "{vm}");

    let m = t.mailbox.id.as_str();
    let (ra, rb) = (t.record(&t.ana), t.record(&t.bruno));
    for (who, r) in [("Ana", &ra), ("Bruno", &rb)] {
        // Both records hold the timekeeper's receipt of the acceptance and of every move,
        // and each move counts at it (the earliest, never before the move's own time).
        let accept = r.acceptance();
        assert!(
            r.stamp(&accept, m).is_some(),
            "{who}'s record lacks the mailbox's receipt of the acceptance"
        );
        for (ply, mv) in r.state.moves.iter().enumerate() {
            let stamp = r.stamp(&mv.event, m).unwrap_or_else(|| {
                panic!(
                    "{who}'s record lacks the mailbox's receipt of ply {}",
                    ply + 1
                )
            });
            assert_eq!(
                mv.countersigned_ms,
                Some(stamp),
                "{who}: ply {} counts at the timekeeper's receipt",
                ply + 1
            );
            assert!(
                stamp >= r.eff(&mv.event),
                "{who}: a receipt before its move"
            );
        }
    }
    check_records(&t, &ra, &rb);

    let (va, vb) = (
        show(&t.ana.home, &t.game).expect("Ana's view"),
        show(&t.bruno.home, &t.game).expect("Bruno's view"),
    );
    assert_eq!(va["moves"], vb["moves"]);
    assert_eq!(used(&va, "black"), used(&vb, "black"), "{va}\n{vb}");
    assert_eq!(va["clocks"]["running"], "white", "{va}");
    eprintln!("case 5/6 with a timekeeper: {:?}", started.elapsed());
}
