//! End to end: a club league with six players and an organiser, each a real `sobre node`
//! process on loopback with its own home (sled database, key, control socket), driven only
//! through the command line.
//!
//! The organiser runs with `--mailbox` and creates the league; the players know only the
//! organiser's address. They join; their nodes challenge and accept the 15 games of the
//! single round robin by themselves (Berger table, FIDE C.05 Annex 1); the test generates
//! the moves (random legal moves from a fixed seed, checked with sobre-core) and ends each
//! game by resignation or an agreed draw so that the results are the ones below. The
//! standings, tie-breaks and crosstable the organiser computes must equal the table
//! computed by hand here. Then a forged copy of one game is caught by `league verify`.

use serde_json::Value;
use sobre_core::Position;
use sobre_core::test_support::Lines;
use sobre_core::uci;
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::nodes::{Node, Nodes, wait_for};
use crate::common::{exec, run, run_text};

/// The results by Berger numbers (1 = Ana … 6 = Fermín), from the first player's side:
/// 1 win, ½ draw (as 5), 0 loss.
fn score(a: usize, b: usize) -> u8 {
    // Ana: ½ Bruno, ½ Carmen, beats Diego, Elena, Fermín.
    // Bruno: beats Carmen and Fermín, ½ Diego, ½ Elena.
    // Carmen: beats Diego and Fermín, loses to Elena.
    // Diego: ½ Elena, beats Fermín. Elena: loses to Fermín.
    let table: [[u8; 6]; 6] = [
        [9, 5, 5, 1, 1, 1],
        [5, 9, 1, 5, 5, 1],
        [5, 0, 9, 1, 0, 1],
        [0, 5, 0, 9, 5, 1],
        [0, 5, 1, 5, 9, 0],
        [0, 0, 0, 0, 1, 9],
    ];
    table[a - 1][b - 1]
}

struct Game {
    id: String,
    white: usize,
    black: usize,
    /// The board as the test played it (the rules' `Game`: its history too).
    board: sobre_core::Game,
    plies: u64,
}

#[test]
fn six_players_and_an_organiser_play_a_whole_round_robin() {
    let mut nodes = Nodes::new();
    let org = nodes.start("organiser", &["--mailbox"]);
    let names = ["Ana", "Bruno", "Carmen", "Diego", "Elena", "Fermín"];
    // Five players use the organiser as their mailbox; Fermín only bootstraps from it, so
    // his games reach the organiser because the organiser is the league's witness.
    let players: Vec<Node> = names
        .iter()
        .map(|n| {
            let how = if *n == "Fermín" {
                "--bootstrap"
            } else {
                "--use-mailbox"
            };
            nodes.start(&n.to_lowercase(), &[how, &org.addr])
        })
        .collect();

    // The organiser creates the league: every round open at once, 3 days per move.
    let mut create = vec![
        "league",
        "create",
        "Liga de otoño",
        "--per-move",
        "3d",
        "--json",
    ];
    for (p, n) in players.iter().zip(names) {
        create.extend(["--player", &p.id, "--name", n]);
    }
    let league = run(&org.home, &create);
    let lid = league["league"].as_str().expect("league id").to_owned();
    assert_eq!(league["rounds"], 5);
    assert_eq!(league["role"], "organiser");

    // Each player's node receives the definition, and the player joins.
    for p in &players {
        wait_for(&format!("{} to receive the league", p.name), || {
            let v = run(&p.home, &["league", "list", "--json"]);
            (v["leagues"][0]["league"] == lid.as_str()).then_some(())
        });
        let v = run(&p.home, &["league", "join", &lid[..16], "--json"]);
        assert_eq!(v["role"], "player");
    }

    // The nodes create and accept the 15 games by themselves.
    let pairings = wait_for("the 15 games to start", || {
        let v = run(&org.home, &["league", "pairings", &lid, "--json"]);
        let list = v["pairings"].as_array()?.clone();
        (list.len() == 15 && list.iter().all(|p| p["status"] == "active")).then_some(list)
    });
    let number: HashMap<String, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.clone(), i + 1))
        .collect();
    let mut games: Vec<Game> = pairings
        .iter()
        .map(|p| Game {
            id: p["game"].as_str().expect("game id").to_owned(),
            white: number[p["white"].as_str().expect("white")],
            black: number[p["black"].as_str().expect("black")],
            board: sobre_core::Game::new(Position::new()),
            plies: 0,
        })
        .collect();
    // Round 1 of the six-player Berger table: 1-6, 2-5, 3-4 (White first).
    let round1: Vec<(usize, usize)> = games[..3].iter().map(|g| (g.white, g.black)).collect();
    assert_eq!(round1, [(1, 6), (2, 5), (3, 4)]);

    // Six random legal plies in every game (never one that ends it), interleaved so the
    // nodes deliver in parallel; each mover waits for the previous move to arrive.
    let mut lines = Lines::new(0x5eed_1e46_0e0f_0a0d).endless();
    let home = |n: usize| &players[n - 1].home;
    let plies_of = |h: &Path, g: &str| -> Option<u64> {
        let v = run(h, &["show", g, "--json"]);
        v["plies"].as_u64()
    };
    for _ in 0..6 {
        for g in &mut games {
            let mover = if g.plies % 2 == 0 { g.white } else { g.black };
            let want = g.plies;
            wait_for("the previous move to arrive", || {
                (plies_of(home(mover), &g.id) == Some(want)).then_some(())
            });
            let m = lines
                .next_move(&g.board)
                .expect("a move that does not end the game");
            let text = uci::to_uci(g.board.position(), m);
            run_text(home(mover), &["move", &g.id, &text]);
            g.board.play(m).expect("legal");
            g.plies += 1;
        }
    }
    // The endings: the loser resigns; a draw is offered by White and accepted by Black.
    for g in &games {
        let s = score(g.white, g.black);
        for n in [g.white, g.black] {
            wait_for("the last move to arrive", || {
                (plies_of(home(n), &g.id) == Some(6)).then_some(())
            });
        }
        match s {
            1 => run_text(home(g.black), &["resign", &g.id]),
            0 => run_text(home(g.white), &["resign", &g.id]),
            _ => {
                run_text(home(g.white), &["draw", "offer", &g.id]);
                wait_for("the draw offer to arrive", || {
                    let v = run(home(g.black), &["show", &g.id, "--json"]);
                    (!v["draw_offer"].is_null()).then_some(())
                });
                run_text(home(g.black), &["draw", "accept", &g.id])
            }
        };
    }

    // The organiser (the league's mailbox and witness) sees every game finished.
    let standings = wait_for("all 15 results at the organiser", || {
        let v = run(&org.home, &["league", "standings", &lid, "--json"]);
        let done = v["games"]
            .as_array()?
            .iter()
            .filter(|g| g["status"] == "finished")
            .count();
        (done == 15).then_some(v)
    });
    // Every delivery is receipted in the end: the opponent's, the mailbox's and, for
    // Fermín, who does not use the organiser as his mailbox, the organiser's as the league's
    // witness (its receipts were once dropped, and his outbox retried forever).
    for (p, n) in players.iter().zip(names) {
        wait_for(&format!("{n}'s outbox to empty"), || {
            let v = run(&p.home, &["node", "status", "--json"]);
            (v["outbox"] == 0).then_some(())
        });
    }
    // By hand. Points: Ana 4, Bruno 3½, Carmen 2½, Diego 2, Elena 2, Fermín 1.
    // Sonneborn-Berger (each win adds the opponent's points, each draw half of them):
    //   Ana    ½·3½ + ½·2½ + 2 + 2 + 1      = 8
    //   Bruno  ½·4 + 2½ + ½·2 + ½·2 + 1      = 7½
    //   Carmen ½·4 + 2 + 1                   = 5
    //   Elena  ½·3½ + 2½ + ½·2               = 5¼   (Elena ahead of Diego on SB)
    //   Diego  ½·3½ + ½·2 + 1                = 3¾
    //   Fermín 2                             = 2
    let rows: Vec<(u64, &str, f64, f64, u64)> = standings["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().expect("rank"),
                r["name"].as_str().expect("name"),
                r["points"].as_f64().expect("points"),
                r["sonneborn_berger"].as_f64().expect("sb"),
                r["wins"].as_u64().expect("wins"),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (1, "Ana", 4.0, 8.0, 3),
            (2, "Bruno", 3.5, 7.5, 2),
            (3, "Carmen", 2.5, 5.0, 2),
            (4, "Elena", 2.0, 5.25, 1),
            (5, "Diego", 2.0, 3.75, 1),
            (6, "Fermín", 1.0, 2.0, 1),
        ]
    );
    assert_eq!(standings["excluded"].as_array().map(Vec::len), Some(0));

    // The crosstable, rows and columns in rank order.
    let csv_path = nodes.dir.path().join("crosstable.csv");
    let html_path = nodes.dir.path().join("crosstable.html");
    run_text(
        &org.home,
        &[
            "league",
            "crosstable",
            &lid,
            "--csv",
            csv_path.to_str().expect("utf-8"),
            "--html",
            html_path.to_str().expect("utf-8"),
            // The browser check compares the page's header with the CSV's (English).
            "--lang",
            "en",
        ],
    );
    let csv = std::fs::read_to_string(&csv_path).expect("csv written");
    // A byte order mark first, for spreadsheets (then read as UTF-8).
    let csv = csv
        .strip_prefix('\u{feff}')
        .expect("the CSV starts with a UTF-8 BOM")
        .to_owned();
    check_with_python_csv(&csv_path);
    let expected = "Rank,No,Player,1,2,3,4,5,6,Pts,SB,Wins\r\n\
                    1,1,Ana,×,½,½,1,1,1,4,8,3\r\n\
                    2,2,Bruno,½,×,1,½,½,1,3½,7.5,2\r\n\
                    3,3,Carmen,½,0,×,0,1,1,2½,5,2\r\n\
                    4,5,Elena,0,½,1,×,½,0,2,5.25,1\r\n\
                    5,4,Diego,0,½,0,½,×,1,2,3.75,1\r\n\
                    6,6,Fermín,0,0,0,1,0,×,1,2,1\r\n";
    assert_eq!(csv, expected);
    let html = std::fs::read_to_string(&html_path).expect("html written");
    assert!(html.contains("<td class=\"player\">Elena</td>"));
    assert!(html.contains("<html lang=\"en\">"));
    check_in_browser(&html_path, expected);

    // A player's own view computes the same table from the games it holds plus an export
    // of the organiser's archive, offline.
    let archive_path = nodes.dir.path().join("liga.sobre");
    run_text(
        &org.home,
        &[
            "league",
            "export",
            &lid,
            "-o",
            archive_path.to_str().expect("utf-8"),
        ],
    );
    let offline = run(
        &players[5].home,
        &[
            "league",
            "verify",
            archive_path.to_str().expect("utf-8"),
            "--json",
        ],
    );
    assert_eq!(offline["ok"], true, "{offline}");
    assert_eq!(offline["standings"], standings["standings"]);

    // Forge one game: flip a bit in the signature of its last event. `league verify` names
    // it and exits 1; the standings leave it out.
    let text = std::fs::read_to_string(&archive_path).expect("archive");
    let forged_game = games
        .iter()
        .find(|g| (g.white, g.black) == (1, 6))
        .expect("Ana – Fermín");
    let mut out = String::new();
    let mut in_game = false;
    let mut last_event_line = None;
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if let Some(id) = l.strip_prefix("game ") {
            in_game = id == forged_game.id;
        } else if in_game && l.starts_with("event ") {
            last_event_line = Some(i);
        }
    }
    let target = last_event_line.expect("the game is in the archive");
    for (i, l) in lines.iter().enumerate() {
        if i == target {
            // The signature is the last 64 bytes: change the last hex digit.
            let mut s = l.to_string();
            let last = s.pop().expect("hex");
            s.push(if last == '0' { '1' } else { '0' });
            out.push_str(&s);
        } else {
            out.push_str(l);
        }
        out.push('\n');
    }
    let forged_path = nodes.dir.path().join("forged.sobre");
    std::fs::write(&forged_path, out).expect("write");
    let v = exec(
        &players[0].home,
        &[
            "league",
            "verify",
            forged_path.to_str().expect("utf-8"),
            "--json",
        ],
    );
    assert_eq!(v.code, Some(1), "forged archive: exit 1\n{}", v.stderr);
    let v: Value = serde_json::from_str(v.stdout.trim()).expect("json");
    assert_eq!(v["ok"], false);
    let excluded = v["excluded"].as_array().expect("excluded");
    assert_eq!(excluded.len(), 1);
    assert_eq!(excluded[0]["game"], forged_game.id.as_str());
    assert!(
        excluded[0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("signature")),
        "{v}"
    );
    // Without Ana's win over Fermín: Ana 3, and the others' SB change accordingly.
    let ana = v["standings"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["name"] == "Ana"))
        .expect("Ana");
    assert_eq!(ana["points"], 3.0);
    let text = run_text(
        &players[0].home,
        &["league", "verify", archive_path.to_str().expect("utf-8")],
    );
    assert!(
        text.contains("15 game(s) verify and count; 0 left out"),
        "{text}"
    );
}

/// Reads the CSV with Python's csv module as a spreadsheet user's script would
/// (`utf-8-sig`: the BOM is taken off): Ana's row has × against herself and ½ against
/// Bruno. Skipped with a message if Python is not installed.
fn check_with_python_csv(csv: &Path) {
    let script = "import csv,sys\n\
                  rows=list(csv.reader(open(sys.argv[1],encoding='utf-8-sig',newline='')))\n\
                  print(rows[0][0], rows[1][2], rows[1][3], rows[1][4])";
    let out = match Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(csv)
        .output()
    {
        Ok(o) => o,
        Err(_) => {
            eprintln!("SKIPPED the Python csv check: python3 is not installed");
            return;
        }
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "Rank Ana × ½");
}

/// Loads the HTML crosstable in headless Chromium (Debian's `chromium` package; `.ci/run`
/// installs it), reads the table back from the DOM the browser built, compares it with the
/// expected CSV, and takes a screenshot. Without Chromium the check is skipped with a
/// message, unless `SOBRE_REQUIRE_BROWSER=1` (as in CI), where that is a failure.
fn check_in_browser(html: &Path, expected_csv: &str) {
    let browser = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    let Some(browser) = browser else {
        assert!(
            std::env::var("SOBRE_REQUIRE_BROWSER").as_deref() != Ok("1"),
            "SOBRE_REQUIRE_BROWSER=1 but no Chromium found (apt-get install chromium)"
        );
        eprintln!(
            "SKIPPED the browser check of the crosstable: Chromium is not installed (apt-get install chromium)"
        );
        return;
    };
    let profile = tempfile::tempdir().expect("profile dir");
    let url = format!("file://{}", html.display());
    let chromium = |extra: &[&str]| {
        Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--allow-file-access-from-files",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(extra)
            .arg(&url)
            .stdin(Stdio::null())
            .output()
            .expect("chromium runs")
    };
    let dom = chromium(&["--dump-dom"]);
    assert!(
        dom.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&dom.stderr)
    );
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    // The table as the browser parsed it: one line per <tr>, cells joined by commas.
    let table = dom
        .split_once("<table")
        .and_then(|(_, rest)| rest.split_once("</table>"))
        .map(|(t, _)| t.to_owned())
        .expect("the page has a table");
    let mut rows = Vec::new();
    for tr in table.split("<tr>").skip(1) {
        let tr = tr.split("</tr>").next().unwrap_or("");
        // Each cell is `<td …>text</td>` or `<th>text</th>`.
        let cells: Vec<String> = tr
            .split("<t")
            .skip(1)
            .filter_map(|c| {
                let (_, rest) = c.split_once('>')?;
                let (text, _) = rest.split_once("</t")?;
                Some(text.replace("&amp;", "&"))
            })
            .collect();
        rows.push(cells.join(","));
    }
    let want: Vec<&str> = expected_csv.lines().collect();
    assert_eq!(rows, want, "the crosstable as Chromium shows it");
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("league-crosstable.png");
    let _ = std::fs::remove_file(&shot);
    let out = chromium(&[
        &format!("--screenshot={}", shot.display()),
        "--window-size=900,420",
        "--hide-scrollbars",
    ]);
    assert!(
        out.status.success(),
        "screenshot failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(&shot).expect("the screenshot was written");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 5_000,
        "a real screenshot"
    );
    eprintln!("crosstable screenshot: {}", shot.display());
}
