//! End to end: one table everywhere (issue 20). An organiser (`--mailbox`) and five players,
//! each a real `sobre node` process on loopback driven through the command line. Four
//! players join and play their six games; every player's `league standings --json` must
//! then equal the organiser's — though each node played only three of the games — and a
//! table computed here. The fifth player joins late and catches up the six earlier games
//! before playing its own; at the end all six nodes show the same ten results.

use serde_json::Value;
use std::collections::HashMap;

use crate::common::nodes::{Node, Nodes, finished, now_ms, rfc3339, standings, wait_for};
use crate::common::{exec, run, run_text};

/// The winner of the game between Berger numbers `white` and `black`: the lower number
/// when their sum is even, else the higher one.
fn winner(white: usize, black: usize) -> usize {
    if (white + black).is_multiple_of(2) {
        white.min(black)
    } else {
        white.max(black)
    }
}

/// Plays every game of `pairings` (from the organiser's `league pairings --json`) between
/// players of `number`: White 1.e4, Black 1...e5, then the loser resigns.
fn play(players: &[Node], number: &HashMap<String, usize>, pairings: &[Value]) {
    let home = |n: usize| &players[n - 1].home;
    let plies = |h: &std::path::Path, g: &str| run(h, &["show", g, "--json"])["plies"].as_u64();
    for p in pairings {
        let game = p["game"].as_str().expect("game");
        let (w, b) = (
            number[p["white"].as_str().expect("white")],
            number[p["black"].as_str().expect("black")],
        );
        wait_for("the game at White", || {
            (plies(home(w), game) == Some(0)).then_some(())
        });
        run_text(home(w), &["move", game, "e2e4"]);
        wait_for("1.e4 at Black", || {
            (plies(home(b), game) == Some(1)).then_some(())
        });
        run_text(home(b), &["move", game, "e7e5"]);
        let loser = if winner(w, b) == w { b } else { w };
        wait_for("1...e5 at the loser", || {
            (plies(home(loser), game) == Some(2)).then_some(())
        });
        run_text(home(loser), &["resign", game]);
    }
}

#[test]
fn every_member_sees_the_whole_table_and_a_late_joiner_catches_up() {
    let mut nodes = Nodes::new();
    let org = nodes.start("organiser", &["--mailbox"]);
    let players: Vec<Node> = (1..=5)
        .map(|i| nodes.start(&format!("p{i}"), &["--use-mailbox", &org.addr]))
        .collect();
    let mut create = vec!["league", "create", "Liga", "--per-move", "3d", "--json"];
    for (i, p) in players.iter().enumerate() {
        create.extend(["--player", &p.id, "--name"]);
        create.push(["P1", "P2", "P3", "P4", "P5"][i]);
    }
    let lid = run(&org.home, &create)["league"]
        .as_str()
        .expect("league id")
        .to_owned();
    let number: HashMap<String, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.clone(), i + 1))
        .collect();
    for p in &players {
        wait_for("the league to arrive", || {
            let v = run(&p.home, &["league", "list", "--json"]);
            (v["leagues"][0]["league"] == lid.as_str()).then_some(())
        });
    }
    // Four join; their six games start and are played.
    for p in &players[..4] {
        run(&p.home, &["league", "join", &lid, "--json"]);
    }
    let early = wait_for("the six games of the first four", || {
        let v = run(&org.home, &["league", "pairings", &lid, "--json"]);
        let list: Vec<Value> = v["pairings"]
            .as_array()?
            .iter()
            .filter(|p| p["status"] == "active")
            .cloned()
            .collect();
        (list.len() == 6).then_some(list)
    });
    play(&players, &number, &early);
    let table = wait_for("six results at the organiser", || {
        let v = standings(&org.home, &lid);
        (finished(&v) == 6).then_some(v)
    });
    assert_eq!(table["complete"], true, "{table}");
    assert_eq!(table["not_received"], 0);
    // Every player's node holds all six games, though each played only three.
    for (i, p) in players[..4].iter().enumerate() {
        wait_for(
            &format!("P{}'s table to equal the organiser's", i + 1),
            || (standings(&p.home, &lid) == table).then_some(()),
        );
    }
    // The fifth player has not joined, but is a player: its node catches up too.
    wait_for("P5 to catch up the six earlier games", || {
        (standings(&players[4].home, &lid) == table).then_some(())
    });
    // A text view says nothing is missing once caught up.
    let text = run_text(&players[0].home, &["league", "standings", &lid]);
    assert!(!text.contains("not yet received"), "{text}");

    // P5 joins late and plays its four games.
    run(&players[4].home, &["league", "join", &lid, "--json"]);
    let late = wait_for("P5's four games", || {
        let v = run(&org.home, &["league", "pairings", &lid, "--json"]);
        let list: Vec<Value> = v["pairings"]
            .as_array()?
            .iter()
            .filter(|p| p["status"] == "active")
            .cloned()
            .collect();
        (list.len() == 4).then_some(list)
    });
    play(&players, &number, &late);
    let table = wait_for("ten results at the organiser", || {
        let v = standings(&org.home, &lid);
        (finished(&v) == 10).then_some(v)
    });
    for (i, p) in players.iter().enumerate() {
        wait_for(&format!("P{}'s final table", i + 1), || {
            (standings(&p.home, &lid) == table).then_some(())
        });
    }
    // The table computed here: a win is a point.
    let mut points = [0u32; 6];
    for w in 1..=5 {
        for b in (w + 1)..=5 {
            points[winner(w, b)] += 1;
        }
    }
    for row in table["standings"].as_array().expect("rows") {
        let n = row["number"].as_u64().expect("number") as usize;
        assert_eq!(row["points"].as_f64(), Some(f64::from(points[n])), "{row}");
        assert_eq!(row["played"], 4);
    }
}

/// Either player's node starts a game: White's node is down when the rounds open, so
/// Black's node challenges (same pairing, same colours); White's node, back, accepts. When
/// both nodes challenge for a pairing, one game is played and the other declined: the
/// archive verifies with every pairing played once.
#[test]
fn black_starts_the_game_when_white_is_away() {
    let mut nodes = Nodes::new();
    let org = nodes.start("organiser", &["--mailbox"]);
    let players: Vec<Node> = (1..=3)
        .map(|i| nodes.start(&format!("p{i}"), &["--use-mailbox", &org.addr]))
        .collect();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis() as u64;
    // Every round opens together, a little later: everyone joins first.
    let start = rfc3339(now + 12_000);
    let mut create = vec![
        "league",
        "create",
        "Liga",
        "--per-move",
        "3d",
        "--start",
        &start,
        "--json",
    ];
    for p in &players {
        create.extend(["--player", &p.id]);
    }
    let lid = run(&org.home, &create)["league"]
        .as_str()
        .expect("league id")
        .to_owned();
    for p in &players {
        wait_for("the league to arrive", || {
            let v = run(&p.home, &["league", "list", "--json"]);
            (v["leagues"][0]["league"] == lid.as_str()).then_some(())
        });
        run(&p.home, &["league", "join", &lid, "--json"]);
    }
    // Round 1 of three players is 2–3 (1 has the bye): White, P2, goes away.
    let elapsed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis() as u64;
    assert!(
        elapsed < now + 11_000,
        "the joins took too long for this test"
    );
    nodes.kill(&players[1].name);
    let round1 = wait_for("round 1's game, started by Black", || {
        let v = run(
            &org.home,
            &["league", "pairings", &lid, "--round", "1", "--json"],
        );
        let p = v["pairings"]
            .as_array()?
            .iter()
            .find(|p| p["game"].is_string())?
            .clone();
        Some(p)
    });
    assert_eq!(round1["white"], players[1].id.as_str());
    assert_eq!(round1["black"], players[2].id.as_str());
    assert_eq!(round1["status"], "pending");
    let game = round1["game"].as_str().expect("game").to_owned();
    let shown = run(&players[2].home, &["show", &game, "--json"]);
    assert_eq!(shown["challenger"], players[2].id.as_str(), "{shown}");

    // P2's node comes back and accepts; the game is played with the table's colours.
    nodes.start(&players[1].name, &["--use-mailbox", &org.addr]);
    let number: HashMap<String, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.clone(), i + 1))
        .collect();
    let all = wait_for("the three games under way", || {
        let v = run(&org.home, &["league", "pairings", &lid, "--json"]);
        let list: Vec<Value> = v["pairings"]
            .as_array()?
            .iter()
            .filter(|p| p["game"].is_string())
            .cloned()
            .collect();
        (list.len() == 3 && list.iter().all(|p| p["status"] == "active")).then_some(list)
    });
    assert!(
        all.iter().any(|p| p["game"] == game.as_str()),
        "Black's challenge is the game played"
    );
    play(&players, &number, &all);
    let table = wait_for("three results", || {
        let v = standings(&org.home, &lid);
        (finished(&v) == 3).then_some(v)
    });
    assert_eq!(
        table["excluded"].as_array().map(Vec::len),
        Some(0),
        "{table}"
    );
    let v = run(&org.home, &["league", "verify", &lid, "--json"]);
    assert_eq!(v["ok"], true, "{v}");
    // Whether both nodes of a pairing challenged this time (timing decides; either way the
    // table above has one game per pairing).
    let declined: usize = nodes
        .children
        .iter()
        .filter_map(|(log, _)| std::fs::read_to_string(log).ok())
        .map(|t| t.matches("duplicate league challenge declined").count())
        .sum();
    eprintln!("duplicate challenges declined: {declined}");
    // Round 1: P3 (3) beat P2 (2) with Black: 2 + 3 is odd, the higher number wins.
    let g = table["games"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["game"] == game.as_str()))
        .expect("round 1 counts");
    assert_eq!(g["white"], players[1].id.as_str());
    assert_eq!(g["result"], "0-1");
}

fn points_of(table: &Value, id: &str) -> f64 {
    table["standings"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["player"] == id))
        .and_then(|r| r["points"].as_f64())
        .expect("a row")
}

/// The arbiter's signed decisions on every node: a forfeit of a game never started, one
/// without effect on a finished game, an adjudication with its reason, and a withdrawal
/// before half the games (all results annulled); `league verify` accepts the archive, and
/// names a decision a player signed.
#[test]
fn the_arbiters_decisions_change_every_nodes_table_alike() {
    // Round 1 opens a few seconds from now, so that the organiser can set the tie-break
    // order first: it is one of the competition's rules, fixed before round 1.
    let start = rfc3339(now_ms() + 4_000);
    let League {
        nodes,
        org,
        players,
        p4,
        lid,
    } = league_with_an_absent_fourth(&["--start", &start], |org, lid| {
        let t = run(
            &org.home,
            &[
                "league",
                "decide",
                lid,
                "tie-breaks",
                "--order",
                "before-fide",
                "--json",
            ],
        );
        assert_eq!(t["effective"], true, "{t}");
    });
    let mut number: HashMap<String, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.clone(), i + 1))
        .collect();
    number.insert(p4.clone(), 4);
    // Berger, four players: 1–4, 2–3 | 4–3, 1–2 | 2–4, 3–1. The three games among 1–3
    // start; 2–3 and 1–2 are played out, 3–1 stops after 1.e4 e5.
    let games = wait_for("the three games among players 1 to 3", || {
        let v = run(&org.home, &["league", "pairings", &lid, "--json"]);
        let list: Vec<Value> = v["pairings"]
            .as_array()?
            .iter()
            .filter(|p| p["status"] == "active")
            .cloned()
            .collect();
        (list.len() == 3).then_some(list)
    });
    let (done, open): (Vec<Value>, Vec<Value>) = games.into_iter().partition(|p| p["round"] != 3);
    play(&players, &number, &done);
    let g31 = open[0]["game"].as_str().expect("3–1").to_owned();
    let plies = |h: &std::path::Path| run(h, &["show", &g31, "--json"])["plies"].as_u64();
    wait_for("3–1 at White", || {
        (plies(&players[2].home) == Some(0)).then_some(())
    });
    run_text(&players[2].home, &["move", &g31, "e2e4"]);
    wait_for("1.e4 at Black", || {
        (plies(&players[0].home) == Some(1)).then_some(())
    });
    run_text(&players[0].home, &["move", &g31, "e7e5"]);
    wait_for("two results", || {
        (finished(&standings(&org.home, &lid)) == 2).then_some(())
    });

    let decide = |args: &[&str]| {
        let mut a = vec!["league", "decide", &lid];
        a.extend(args);
        a.push("--json");
        run(&org.home, &a)
    };
    let (p1, p3) = (players[0].id.as_str(), players[2].id.as_str());
    let f = decide(&["forfeit", "--round", "1", "--player", p1]);
    assert_eq!(f["effective"], true, "{f}");
    let f = decide(&["forfeit", "--round", "1", "--player", p3]);
    assert_eq!(f["effective"], false, "2–3 was played: {f}");
    assert!(
        f["text"]
            .as_str()
            .is_some_and(|t| t.contains("never overrides"))
    );
    let a = decide(&[
        "adjudicate",
        "--round",
        "3",
        "--player",
        p1,
        "--result",
        "1/2-1/2",
        "--reason",
        "agreed drawn position at the season's close",
    ]);
    assert_eq!(a["effective"], true, "{a}");
    // A player may not sign decisions.
    let refused = exec(
        &players[0].home,
        &["league", "decide", &lid, "withdraw", "--player", &p4],
    );
    assert!(!refused.success());
    assert!(refused.stderr.contains("organiser"), "{}", refused.stderr);

    // 1–2: 2 wins; 2–3: 3 wins; 1–4: 1 by forfeit; 3–1: ½ each.
    let table = standings(&org.home, &lid);
    assert_eq!(points_of(&table, p1), 1.5, "{table}");
    assert_eq!(points_of(&table, &players[1].id), 1.0);
    assert_eq!(points_of(&table, p3), 1.5);
    let forfeit = table["games"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["round"] == 1 && g["white"] == p1))
        .expect("1–4");
    assert_eq!(forfeit["decided"]["mark"], "+/-", "{forfeit}");
    for p in &players {
        wait_for("the same table with decisions on every node", || {
            (standings(&p.home, &lid) == table).then_some(())
        });
    }

    // Player 4 withdraws having played none of three: all their results annulled.
    decide(&["withdraw", "--player", &p4]);
    let table = standings(&org.home, &lid);
    assert_eq!(
        points_of(&table, p1),
        0.5,
        "the forfeit win is annulled: {table}"
    );
    for p in &players {
        wait_for("the withdrawal on every node", || {
            (standings(&p.home, &lid) == table).then_some(())
        });
    }
    // The organiser chose the tie-break order before round 1 (FIDE's by default); every
    // node ranks by it. An order naming an unknown tie-break is refused, naming it.
    assert_eq!(
        table["tie_breaks"],
        serde_json::json!(["sb", "wins", "de"]),
        "{table}"
    );
    let bad = exec(
        &org.home,
        &[
            "league",
            "decide",
            &lid,
            "tie-breaks",
            "--order",
            "sb,buchholz",
        ],
    );
    assert!(!bad.success());
    assert!(bad.stderr.contains("buchholz"), "{}", bad.stderr);
    // Once round 1 has opened, the order cannot change any more (results are known).
    let late = exec(
        &org.home,
        &["league", "decide", &lid, "tie-breaks", "--order", "fide"],
    );
    assert!(!late.success());
    assert!(
        late.stderr.contains("only before round 1"),
        "{}",
        late.stderr
    );
    let table = standings(&org.home, &lid);
    assert_eq!(
        table["tie_breaks"],
        serde_json::json!(["sb", "wins", "de"]),
        "{table}"
    );
    for p in &players {
        wait_for("the tie-break order on every node", || {
            (standings(&p.home, &lid) == table).then_some(())
        });
    }
    let v = run(&players[1].home, &["league", "verify", &lid, "--json"]);
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["decisions"].as_array().map(Vec::len), Some(4), "{v}");
    // The league's PGN: the three games played (the pairings of player 4 were never
    // played and are annulled), the adjudicated one with the arbiter's result.
    let pgn = run_text(&players[1].home, &["league", "export", &lid, "--pgn"]);
    assert_eq!(pgn.matches("[Event \"Liga\"]").count(), 3, "{pgn}");
    assert!(pgn.contains("[Round \"3\"]"));
    assert!(
        pgn.contains("[Termination \"adjudicated: agreed drawn position at the season's close\"]"),
        "{pgn}"
    );
    assert_eq!(pgn.matches("[Result \"1/2-1/2\"]").count(), 1);

    // A decision signed by a player, added to the archive, is left out and named.
    let path = nodes.dir.path().join("liga.sobre");
    run_text(
        &org.home,
        &[
            "league",
            "export",
            &lid,
            "-o",
            path.to_str().expect("utf-8"),
        ],
    );
    let key = sobre_node::home::load_key(&players[1].home).expect("key");
    let league_id = sobre_core::record::EventId::from_hex(&lid).expect("id");
    let forged = sobre_core::league::SignedLeagueDoc::sign(
        &sobre_core::league::LeagueDoc {
            version: sobre_core::league::LEAGUE_VERSION,
            author: key.player_id(),
            time_ms: 1,
            kind: sobre_core::league::LeagueKind::Decision {
                league: league_id,
                decision: sobre_core::league::decision::Decision::Withdraw {
                    player: p1.parse().expect("id"),
                },
            },
        },
        &key,
    )
    .expect("sign");
    let hex: String = forged
        .to_bytes()
        .expect("bytes")
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let text = std::fs::read_to_string(&path).expect("archive");
    let text = text.replacen("\ngame ", &format!("\ndoc {hex}\ngame "), 1);
    std::fs::write(&path, text).expect("write");
    let out = exec(
        &players[0].home,
        &["league", "verify", path.to_str().expect("utf-8"), "--json"],
    );
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let v: Value = serde_json::from_str(out.stdout.trim()).expect("json");
    let excluded = v["decisions_excluded"].as_array().expect("list");
    assert_eq!(excluded.len(), 1, "{v}");
    assert_eq!(excluded[0]["decision"], forged.id().to_hex().as_str());
    assert!(
        excluded[0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("not by the organiser"))
    );
    assert_eq!(
        v["standings"], table["standings"],
        "the forged decision changes nothing"
    );
}

/// 6.6 (2009; 6.7 in 2005, club rules art. 17b): a league with a start deadline forfeits a
/// pairing its player never started, from signed evidence alone, on every node. Player 4
/// never runs a node: player 1 (White in round 1) appeared and wins `+/-`; in round 2 player
/// 4 is White and player 3 appeared, so player 3 wins `-/+`. No arbiter signs anything.
#[test]
fn fide_6_6_a_player_who_never_starts_is_forfeited_on_every_node() {
    let League {
        nodes: _nodes,
        org,
        players,
        p4,
        lid,
    } = league_with_an_absent_fourth(&["--start-deadline", "8s"], |_, _| {});
    let (p1, p3) = (players[0].id.clone(), players[2].id.clone());
    let deadline_mark = |table: &Value, white: &str, black: &str| -> Option<String> {
        table["games"].as_array()?.iter().find_map(|g| {
            (g["white"] == white && g["black"] == black && g["decided"]["kind"] == "start_deadline")
                .then(|| g["decided"]["mark"].as_str().unwrap_or("").to_owned())
        })
    };
    let table = wait_for("the deadline to forfeit player 4's pairings", || {
        let t = standings(&org.home, &lid);
        (deadline_mark(&t, &p1, &p4).is_some() && deadline_mark(&t, &p4, &p3).is_some())
            .then_some(t)
    });
    assert_eq!(
        deadline_mark(&table, &p1, &p4).as_deref(),
        Some("+/-"),
        "{table}"
    );
    assert_eq!(
        deadline_mark(&table, &p4, &p3).as_deref(),
        Some("-/+"),
        "{table}"
    );
    for p in &players {
        wait_for("the same forfeits on every node", || {
            let t = standings(&p.home, &lid);
            (deadline_mark(&t, &p1, &p4) == deadline_mark(&table, &p1, &p4)
                && deadline_mark(&t, &p4, &p3) == deadline_mark(&table, &p4, &p3))
            .then_some(())
        });
    }
}

/// A league of four created by an organiser (`--mailbox`) whose first three players run
/// nodes and have joined; player 4 never runs a node, so their games never start.
struct League {
    nodes: Nodes,
    org: Node,
    players: Vec<Node>,
    p4: String,
    lid: String,
}

/// Creates [`League`] with `extra` arguments to `league create`; `before_joins` runs on the
/// organiser's node with the league id before the players join (before round 1 opens).
fn league_with_an_absent_fourth(extra: &[&str], before_joins: impl FnOnce(&Node, &str)) -> League {
    let mut nodes = Nodes::new();
    let org = nodes.start("organiser", &["--mailbox"]);
    let players: Vec<Node> = (1..=3)
        .map(|i| nodes.start(&format!("p{i}"), &["--use-mailbox", &org.addr]))
        .collect();
    let p4_home = nodes.dir.path().join("p4");
    let p4 = run(&p4_home, &["init", "--name", "p4", "--json"])["player_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let mut create = vec!["league", "create", "Liga", "--per-move", "3d", "--json"];
    create.extend(extra);
    for p in &players {
        create.extend(["--player", &p.id]);
    }
    create.extend(["--player", &p4]);
    let lid = run(&org.home, &create)["league"]
        .as_str()
        .expect("league id")
        .to_owned();
    before_joins(&org, &lid);
    for p in &players {
        wait_for("the league to arrive", || {
            let v = run(&p.home, &["league", "list", "--json"]);
            (v["leagues"][0]["league"] == lid.as_str()).then_some(())
        });
        run(&p.home, &["league", "join", &lid, "--json"]);
    }
    League {
        nodes,
        org,
        players,
        p4,
        lid,
    }
}
