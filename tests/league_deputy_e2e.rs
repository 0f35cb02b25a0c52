//! End to end (issue 20): an organiser who plays in their own league, with a deputy
//! arbiter, and a replacement before round 1. Every party is a real `sobre node` process on
//! loopback driven through the command line: the organiser (`--mailbox`, player 1), the
//! deputy, and three players; a fourth player is replaced before round 1 and never runs a
//! node.
//!
//! - The replacement, signed by the organiser before the league's start, reaches every
//!   node: each shows the new list, the newcomer joins and plays from round 1.
//! - The deputy forfeits one of the organiser's games and adjudicates another; the
//!   organiser plays a third to the end. The organiser may not decide their own game, nor
//!   the deputy anyone else's.
//! - Every node's `league standings --json` is the same, and `league verify` accepts the
//!   exported archive; a decision the organiser signs about their own game, slipped into
//!   the archive, is left out and named.

use serde_json::Value;

use crate::common::nodes::{Node, Nodes, finished, now_ms, rfc3339, standings, wait_for};
use crate::common::{exec, run, run_text};

fn points_of(table: &Value, id: &str) -> Option<f64> {
    table["standings"]
        .as_array()?
        .iter()
        .find(|r| r["player"] == id)?["points"]
        .as_f64()
}

/// Plays `game` to the end: White 1.e4, Black 1...e5, then `loser` resigns.
fn play(white: &Node, black: &Node, loser: &Node, game: &str) {
    let plies = |n: &Node| run(&n.home, &["show", game, "--json"])["plies"].as_u64();
    wait_for("the game at White", || {
        (plies(white) == Some(0)).then_some(())
    });
    run_text(&white.home, &["move", game, "e2e4"]);
    wait_for("1.e4 at Black", || (plies(black) == Some(1)).then_some(()));
    run_text(&black.home, &["move", game, "e7e5"]);
    wait_for("1...e5 at the loser", || {
        (plies(loser) == Some(2)).then_some(())
    });
    run_text(&loser.home, &["resign", game]);
}

#[test]
fn an_organiser_who_plays_has_a_deputy_and_a_replacement_reaches_every_node() {
    let mut nodes = Nodes::new();
    let org = nodes.start("organiser", &["--mailbox"]);
    let deputy = nodes.start("deputy", &["--use-mailbox", &org.addr]);
    let p1 = nodes.start("p1", &["--use-mailbox", &org.addr]);
    let p2 = nodes.start("p2", &["--use-mailbox", &org.addr]);
    let p4 = nodes.start("p4", &["--use-mailbox", &org.addr]);
    // Player 3 never runs a node: replaced by player 4 before round 1.
    let p3 = run(
        &nodes.dir.path().join("p3"),
        &["init", "--name", "p3", "--json"],
    )["player_id"]
        .as_str()
        .expect("id")
        .to_owned();
    // An organiser who plays without a deputy is refused, and told what to do.
    let refused = exec(
        &org.home,
        &[
            "league",
            "create",
            "Sin árbitro",
            "--player",
            "me",
            "--player",
            &p1.id,
            "--player",
            &p2.id,
        ],
    );
    assert!(!refused.success());
    assert!(
        refused.stderr.contains("deputy") && refused.stderr.contains("--deputy"),
        "{}",
        refused.stderr
    );
    // Every round opens together, a little later: the replacement is signed before.
    let start_ms = now_ms() + 20_000;
    let start = rfc3339(start_ms);
    let mut create = vec![
        "league",
        "create",
        "Liga",
        "--per-move",
        "3d",
        "--start",
        &start,
        "--deputy",
        &deputy.id,
        "--json",
    ];
    // The organiser (`me`) is number 1: Berger, four players: 1–4, 2–3 | 4–3, 1–2 |
    // 2–4, 3–1.
    for (id, name) in [
        ("me", "Org"),
        (p1.id.as_str(), "P1"),
        (p2.id.as_str(), "P2"),
        (p3.as_str(), "P3"),
    ] {
        create.extend(["--player", id, "--name", name]);
    }
    let lid = run(&org.home, &create)["league"]
        .as_str()
        .expect("league id")
        .to_owned();
    let replaced = run(
        &org.home,
        &[
            "league",
            "decide",
            &lid,
            "replace",
            "--replaces",
            &p3,
            "--player",
            &p4.id,
            "--name",
            "P4",
            "--json",
        ],
    );
    assert_eq!(replaced["effective"], true, "{replaced}");
    assert!(
        now_ms() + 2_000 < start_ms,
        "the replacement took too long for this test"
    );
    // The replacement reaches every node, the newcomer's included.
    let members = [&org, &deputy, &p1, &p2, &p4];
    for n in members {
        wait_for(&format!("the replacement at {}", n.name), || {
            let out = exec(&n.home, &["league", "show", &lid, "--json"]);
            let v: Value = serde_json::from_str(out.stdout.trim()).ok()?;
            let players: Vec<&str> = v["players"]
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .collect();
            (players == [org.id.as_str(), &p1.id, &p2.id, &p4.id]).then_some(())
        });
    }
    let shown = run(&deputy.home, &["league", "show", &lid, "--json"]);
    assert_eq!(shown["deputy"], deputy.id.as_str(), "{shown}");
    assert_eq!(shown["names"], serde_json::json!(["Org", "P1", "P2", "P4"]));
    // The organiser joined at creation; the players join, the newcomer too.
    for p in [&p1, &p2, &p4] {
        run(&p.home, &["league", "join", &lid, "--json"]);
    }
    let games = wait_for("the six games under way", || {
        let v = run(&org.home, &["league", "pairings", &lid, "--json"]);
        let list: Vec<Value> = v["pairings"]
            .as_array()?
            .iter()
            .filter(|p| p["status"] == "active")
            .cloned()
            .collect();
        (list.len() == 6).then_some(list)
    });
    let game_of = |round: u64, white: &str| {
        games
            .iter()
            .find(|p| p["round"] == round && p["white"] == white)
            .and_then(|p| p["game"].as_str())
            .expect("the pairing's game")
            .to_owned()
    };
    // Round 3: P2 – Org, played out; the organiser resigns.
    play(&p2, &org, &org, &game_of(3, &p2.id));

    let decide = |who: &Node, args: &[&str]| {
        let mut a = vec!["league", "decide", &lid];
        a.extend(args);
        a.push("--json");
        exec(&who.home, &a)
    };
    // The deputy: round 1, Org – P4, to P4 by forfeit; round 2, Org – P1, adjudicated drawn.
    let f = decide(&deputy, &["forfeit", "--round", "1", "--player", &p4.id]);
    assert!(f.success(), "{}", f.stderr);
    let f: Value = serde_json::from_str(f.stdout.trim()).expect("json");
    assert_eq!(f["effective"], true, "{f}");
    let a = decide(
        &deputy,
        &[
            "adjudicate",
            "--round",
            "2",
            "--player",
            &p1.id,
            "--result",
            "1/2-1/2",
            "--reason",
            "the organiser's game, level when the season closed",
        ],
    );
    assert!(a.success(), "{}", a.stderr);
    // The organiser may not decide their own game; the deputy nobody else's.
    let own = decide(&org, &["forfeit", "--round", "3", "--player", &org.id]);
    assert!(!own.success());
    assert!(own.stderr.contains("deputy arbiter"), "{}", own.stderr);
    let outside = decide(&deputy, &["forfeit", "--round", "1", "--player", &p1.id]);
    assert!(!outside.success());
    assert!(
        outside.stderr.contains("only the organiser's own games"),
        "{}",
        outside.stderr
    );

    let table = wait_for("three results at the organiser", || {
        let v = standings(&org.home, &lid);
        (finished(&v) == 3 && v["decisions"].as_array().map(Vec::len) == Some(3)).then_some(v)
    });
    assert_eq!(
        table["decisions_excluded"],
        serde_json::json!([]),
        "{table}"
    );
    // Org: a forfeit lost, a draw, a loss; P4 the forfeit; P1 the draw; P2 the win.
    assert_eq!(points_of(&table, &org.id), Some(0.5), "{table}");
    assert_eq!(points_of(&table, &p4.id), Some(1.0));
    assert_eq!(points_of(&table, &p1.id), Some(0.5));
    assert_eq!(points_of(&table, &p2.id), Some(1.0));
    assert_eq!(
        points_of(&table, &p3),
        None,
        "the replaced player has no row"
    );
    let forfeit = table["games"]
        .as_array()
        .and_then(|g| {
            g.iter()
                .find(|g| g["round"] == 1 && g["white"] == org.id.as_str())
        })
        .expect("Org – P4");
    assert_eq!(forfeit["decided"]["mark"], "-/+", "{forfeit}");
    for n in &members[1..] {
        wait_for(&format!("the same table at {}", n.name), || {
            (standings(&n.home, &lid) == table).then_some(())
        });
    }

    // The archive, exported by the deputy's node, verifies offline.
    let path = nodes.dir.path().join("liga.sobre");
    let file = path.to_str().expect("utf-8");
    run_text(&deputy.home, &["league", "export", &lid, "-o", file]);
    let v = run(&p1.home, &["league", "verify", file, "--json"]);
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["standings"], table["standings"]);
    // A decision the organiser signed about their own game, slipped into the archive: left
    // out and named, and the table unchanged.
    let key = sobre_node::home::load_key(&org.home).expect("key");
    let forged = sobre_core::league::SignedLeagueDoc::sign(
        &sobre_core::league::LeagueDoc {
            version: sobre_core::league::LEAGUE_VERSION,
            author: key.player_id(),
            time_ms: now_ms(),
            kind: sobre_core::league::LeagueKind::Decision {
                league: sobre_core::record::EventId::from_hex(&lid).expect("id"),
                decision: sobre_core::league::decision::Decision::Forfeit {
                    round: 3,
                    white: p2.id.parse().expect("id"),
                    black: key.player_id(),
                    winner: key.player_id(),
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
    let out = exec(&p2.home, &["league", "verify", file, "--json"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let v: Value = serde_json::from_str(out.stdout.trim()).expect("json");
    let excluded = v["decisions_excluded"].as_array().expect("list");
    assert_eq!(excluded.len(), 1, "{v}");
    assert_eq!(excluded[0]["decision"], forged.id().to_hex().as_str());
    assert!(
        excluded[0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("deputy arbiter")),
        "{v}"
    );
    assert_eq!(v["standings"], table["standings"]);
}
