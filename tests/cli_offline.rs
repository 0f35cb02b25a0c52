//! The offline commands of the real `sobre` binary: perft, position, pgn check, pgn convert;
//! and what works while the node is stopped (reads from the home's database), and the key
//! moved to a second home (a second node with the same key is refused).

use crate::common::nodes::{Node, Nodes, wait_for};
use crate::common::{exec, run, run_text};
use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

fn sobre() -> Command {
    Command::cargo_bin("sobre").expect("binary built by cargo")
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.output().expect("runs");
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn perft_last_line_is_the_node_count() {
    let out = stdout_of(sobre().args(["perft", "startpos", "4"]));
    assert_eq!(out.lines().last(), Some("197281"));
    // Kiwipete with --divide: 48 lines, a blank line, then the total.
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = stdout_of(sobre().args(["perft", kiwi, "3", "--divide"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"97862"));
    assert_eq!(lines.len(), 48 + 2);
    assert!(lines.contains(&"e1g1 2059"), "{out}");
}

#[test]
fn perft_chess960_castling_is_king_takes_rook() {
    // Chess960 position 0 after a few moves, from the chess960.perft suite's first entry.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let out = stdout_of(sobre().args(["perft", fen, "1", "--divide", "--chess960"]));
    assert_eq!(out.lines().last(), Some("21"));
}

#[test]
fn position_json_has_the_documented_fields() {
    let out = stdout_of(sobre().args([
        "position",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "--json",
    ]));
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["turn"], "white");
    assert_eq!(v["check"], true);
    assert_eq!(v["checkmate"], true); // FIDE 5.1a: fool's mate
    assert_eq!(v["stalemate"], false);
    assert_eq!(v["insufficient_material"], false);
    assert_eq!(v["legal_moves"].as_array().map(Vec::len), Some(0));
    let start: Value =
        serde_json::from_str(&stdout_of(sobre().args(["position", "startpos", "--json"])))
            .expect("json");
    assert_eq!(start["legal_moves"].as_array().map(Vec::len), Some(20));
    assert!(
        start["legal_moves"]
            .as_array()
            .is_some_and(|a| a.iter().any(|m| m == "g1f3"))
    );
}

#[test]
fn position_reports_dead_position_and_stalemate() {
    let v: Value = serde_json::from_str(&stdout_of(sobre().args([
        "position",
        "8/8/4k3/8/8/3K4/5B2/8 w - - 0 1",
        "--json",
    ])))
    .expect("json");
    assert_eq!(v["insufficient_material"], true); // seed 004: K+B v K
    assert_eq!(v["dead_position"], true);
    // 9.6: a locked pawn chain no king can cross is dead with all its material on board.
    let out = stdout_of(sobre().args(["position", "8/8/2k5/p1p1p1p1/P1P1P1P1/2K5/8/8 w - - 0 1"]));
    assert!(out.contains("dead position"), "{out}");
    let v: Value = serde_json::from_str(&stdout_of(sobre().args([
        "position",
        "8/8/2k5/p1p1p1p1/P1P1P1P1/2K5/8/8 w - - 0 1",
        "--json",
    ])))
    .expect("json");
    assert_eq!(v["insufficient_material"], false);
    assert_eq!(v["dead_position"], true);
    let v: Value = serde_json::from_str(&stdout_of(sobre().args([
        "position",
        "8/8/2k5/p1p1p1p1/P1P1P1P1/2K5/8/7N w - - 0 1",
        "--json",
    ])))
    .expect("json");
    assert_eq!(v["dead_position"], false, "a knight can break the chain");
    let v: Value = serde_json::from_str(&stdout_of(sobre().args([
        "position",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "--json",
    ])))
    .expect("json");
    assert_eq!(v["stalemate"], true); // FIDE 5.2a
}

#[test]
fn malformed_fen_is_one_line_and_exit_2() {
    let out = sobre()
        .args(["position", "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: malformed FEN"), "{err}");
    assert!(out.stdout.is_empty());
}

fn temp_pgn(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(text.as_bytes()).expect("write");
    f
}

#[test]
fn pgn_check_json_reports_each_game() {
    let f = temp_pgn(
        "[Event \"ok\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
         [Event \"bad\"]\n\n1.e4 e5 2.Cf3 Cf6 3.d4 exd4 4.e5 Ce4 5.Dxd5 *\n",
    );
    let out = sobre()
        .args(["pgn", "check", "--json"])
        .arg(f.path())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "a failing game gives exit 1");
    let text = String::from_utf8_lossy(&out.stdout);
    let games: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["index"], 0);
    assert_eq!(games[0]["ok"], true);
    assert_eq!(games[0]["plies"], 4);
    assert_eq!(games[1]["index"], 1);
    assert_eq!(games[1]["ok"], false);
    assert_eq!(games[1]["error"]["ply"], 9);
    assert_eq!(games[1]["error"]["move"], "Dxd5");
    assert_eq!(games[1]["error"]["message"], "no queen can reach d5");
    assert_eq!(
        games[1]["final_fen"],
        "rnbqkb1r/pppp1ppp/8/4P3/3pn3/5N2/PPP2PPP/RNBQKB1R w KQkq - 1 5"
    );
}

#[test]
fn pgn_check_human_output_names_game_move_and_reason() {
    let f = temp_pgn("1.e4 e5 2.Cf3 Cf6 3.d4 exd4 4.e5 Ce4 5.Dxd5 *\n");
    let out = sobre()
        .args(["pgn", "check"])
        .arg(f.path())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("game 1, move 5 (white): \"Dxd5\": no queen can reach d5"),
        "{text}"
    );
}

/// In Spanish, `pgn check` words why each game stopped from the core's typed error: the
/// move reader's verdict (FIDE App. E), a null move, a bad `FEN` tag.
#[test]
fn pgn_check_says_in_spanish_why_a_game_stopped() {
    let f = temp_pgn(
        "1.e4 e5 2.Cf3 Cf6 3.d4 exd4 4.e5 Ce4 5.Dxd5 *\n\n\
         1. e4 e5 2. Nf3 Nc6 3. -- Nf6 *\n\n\
         [FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. Kb1 *\n",
    );
    let out = sobre()
        .env("LC_ALL", "es_ES.UTF-8")
        .args(["pgn", "check"])
        .arg(f.path())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    for said in [
        "partida 1, jugada 5 (blancas): \"Dxd5\": no es una jugada legal en esta posición",
        "partida 2, una jugada nula (`--`) en 3.: no es una jugada legal",
        "partida 3, posición inicial: la etiqueta FEN no es válida: ",
    ] {
        assert!(text.contains(said), "{said:?} in {text}");
    }
    assert!(
        !text.contains("no queen"),
        "the reader's English detail: {text}"
    );
}

#[test]
fn pgn_check_accepts_null_moves_in_variations_and_reports_them_in_the_main_line() {
    let f = temp_pgn(
        "[Event \"analysis\"]\n\n1. e4 e5 2. Nf3 (2. Z0 Nc6 3. Nf3) 2... Nc6 3. Bb5 *\n\n\
         [Event \"main line\"]\n\n1. e4 e5 2. Nf3 Nc6 3. -- Nf6 *\n",
    );
    let out = sobre()
        .args(["pgn", "check"])
        .arg(f.path())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "the main-line null move fails");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("game 2, a null move (`--`) at 3.: not a legal move (line 7)"),
        "{text}"
    );
    assert!(
        !text.contains("game 1,"),
        "the variation's Z0 is accepted: {text}"
    );
    assert!(text.contains("2 game(s), 1 ok, 1 failed"), "{text}");

    let out = sobre()
        .args(["pgn", "check", "--json"])
        .arg(f.path())
        .output()
        .expect("runs");
    let games: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(games[0]["ok"], true);
    assert_eq!(games[0]["plies"], 5);
    assert_eq!(games[1]["error"]["kind"], "null_move");
    assert_eq!(games[1]["error"]["ply"], 5);
    assert_eq!(games[1]["error"]["move"], "--");
}

#[test]
fn pgn_convert_rewrites_spanish_into_every_notation() {
    let f = temp_pgn("[White \"Ana\"]\n\n1.e4 c5 2.Cf3 d6 3.d4 cxd4 4.Dxd4 Cc6 5.Ab5 Ad7 *\n");
    let cases = [
        (
            "en",
            "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Qxd4 Nc6 5. Bb5 Bd7 *",
        ),
        (
            "es",
            "1. e4 c5 2. Cf3 d6 3. d4 cxd4 4. Dxd4 Cc6 5. Ab5 Ad7 *",
        ),
        (
            "figurine",
            "1. e4 c5 2. ♘f3 d6 3. d4 cxd4 4. ♕xd4 ♘c6 5. ♗b5 ♗d7 *",
        ),
        (
            "uci",
            "1. e2e4 c7c5 2. g1f3 d7d6 3. d2d4 c5d4 4. d1d4 b8c6 5. f1b5 c8d7 *",
        ),
        (
            "iccf",
            "1. 5254 3735 2. 7163 4746 3. 4244 3544 4. 4144 2836 5. 6125 3847 *",
        ),
    ];
    for (notation, movetext) in cases {
        let out = stdout_of(
            sobre()
                .args(["pgn", "convert", "--notation", notation])
                .arg(f.path()),
        );
        assert!(out.contains("[White \"Ana\"]"), "{out}");
        assert!(out.contains(movetext), "{notation}: {out}");
    }
}

/// Art. 8 / App. E13: a draw offer written `(=)` after a move is read as the offer, kept by
/// `pgn convert` in any notation and listed by `pgn check --json`; typographic castling, `00`,
/// `Pxd5`-style pawn letters and `a.p.` marks read as an arbiter reads them (App. C/E).
#[test]
fn fide_e13_pgn_keeps_draw_offers_and_reads_the_forms_players_write() {
    let f = temp_pgn("[White \"Ana\"]\n\n1.e4 e5 2.Cf3(=) Cc6 3.Ab5 a6 4.0\u{2013}0 *\n");
    let out = stdout_of(
        sobre()
            .args(["pgn", "convert", "--notation", "en"])
            .arg(f.path()),
    );
    assert!(out.contains("2. Nf3 (=) Nc6 3. Bb5 a6 4. O-O *"), "{out}");
    let v: Value = serde_json::from_str(
        stdout_of(sobre().args(["pgn", "check", "--json"]).arg(f.path()))
            .lines()
            .next()
            .expect("a line"),
    )
    .expect("json");
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["draw_offers"], serde_json::json!([3]), "{v}");
    let g = temp_pgn("1.e4 d5 2.e5 f5 3.Pxf6 a.p. Cf6 4.Cf3 e6 5.Ae2 Ae7 6.00 *\n");
    let v: Value = serde_json::from_str(
        stdout_of(sobre().args(["pgn", "check", "--json"]).arg(g.path()))
            .lines()
            .next()
            .expect("a line"),
    )
    .expect("json");
    assert_eq!(v["plies"], 11, "{v}");
}

#[test]
fn completions_cover_every_shell_and_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = sobre().args(["completions", shell]).output().expect("runs");
        assert!(out.status.success(), "{shell}: {out:?}");
        let script = String::from_utf8(out.stdout).expect("utf-8");
        for sub in ["challenge", "league", "pgn", "completions", "man"] {
            assert!(script.contains(sub), "{shell} completion lacks {sub}");
        }
    }
    let out = sobre()
        .args(["completions", "tcsh"])
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
}

#[test]
fn bash_completion_is_valid_bash() {
    let script = stdout_of(sobre().args(["completions", "bash"]));
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("sobre.bash");
    std::fs::write(&path, script).expect("write");
    // `bash -n` parses without running; skip quietly where bash is not installed.
    let Ok(out) = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
    else {
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn man_prints_the_main_page_and_writes_one_per_subcommand() {
    let page = stdout_of(sobre().arg("man"));
    assert!(page.contains(".TH sobre 1"), "{page}");
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    assert!(page.contains("sobre\\-challenge(1)"), "{page}");

    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().join("man1");
    let out = sobre()
        .arg("man")
        .arg("--out")
        .arg(&out_dir)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{out:?}");
    for name in [
        "sobre.1",
        "sobre-challenge.1",
        "sobre-league.1",
        "sobre-pgn-check.1",
    ] {
        let text = std::fs::read_to_string(out_dir.join(name)).expect(name);
        assert!(text.contains(".TH "), "{name}: {text}");
    }
    let written = std::fs::read_dir(&out_dir).expect("dir").count();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.starts_with(&format!("{written} man page(s)")),
        "{said}"
    );
}

/// The subcommands listed under `Commands:` in a help text.
fn listed_subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        // A subcommand's line starts with two spaces and its name; wrapped about lines with
        // many more.
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn help_wraps_and_every_subcommand_says_what_it_does() {
    // Every help text, at every depth: wrapped to at most 100 columns off a terminal, and each
    // listed subcommand with an about line next to its name.
    let mut queue: Vec<Vec<String>> = vec![Vec::new()];
    let mut seen = 0;
    while let Some(path) = queue.pop() {
        let help = stdout_of(sobre().args(&path).arg("--help").env_remove("COLUMNS"));
        assert!(help.contains("Usage: sobre"), "{path:?}: {help}");
        for line in help.lines() {
            let width = line.chars().count();
            assert!(width <= 100, "{path:?}: a {width}-column line: {line}");
        }
        for line in help.lines().skip_while(|l| *l != "Commands:").skip(1) {
            if line.is_empty() {
                break;
            }
            if let Some(entry) = line.strip_prefix("  ").filter(|l| !l.starts_with(' ')) {
                assert!(
                    entry.split_whitespace().nth(1).is_some(),
                    "{path:?}: a subcommand without an about line: {entry}"
                );
            }
        }
        for sub in listed_subcommands(&help) {
            let mut next = path.clone();
            next.push(sub);
            queue.push(next);
        }
        seen += 1;
    }
    assert!(seen > 40, "walked only {seen} help texts");
}

#[test]
fn no_color_turns_off_the_colours_of_help() {
    // CLICOLOR_FORCE colours even off a terminal; NO_COLOR wins over it (no-color.org).
    let forced = stdout_of(
        sobre()
            .arg("--help")
            .env("CLICOLOR_FORCE", "1")
            .env_remove("NO_COLOR"),
    );
    assert!(forced.contains('\u{1b}'), "forced colours: {forced}");
    let plain = stdout_of(
        sobre()
            .arg("--help")
            .env("CLICOLOR_FORCE", "1")
            .env("NO_COLOR", "1"),
    );
    assert!(!plain.contains('\u{1b}'), "NO_COLOR: {plain}");
}

/// The `stale` mark and the note of a read made without the node.
fn assert_stale_json(v: &Value, what: &str) {
    assert_eq!(v["stale"], true, "{what}: {v}");
}

/// The player whose move it is in `game`, as `home` sees it.
fn turn(home: &Path, game: &str) -> String {
    run(home, &["show", game, "--json"])["turn"]
        .as_str()
        .expect("turn")
        .to_owned()
}

/// Plays `text` in `game` from whichever of `players` has the move, and waits until the
/// other has it.
fn play(players: [&Node; 2], game: &str, text: &str) {
    let white = run(&players[0].home, &["show", game, "--json"])["white"]
        .as_str()
        .expect("white")
        .to_owned();
    let (mover, other) = if (turn(&players[0].home, game) == "white") == (white == players[0].id) {
        (players[0], players[1])
    } else {
        (players[1], players[0])
    };
    let plies = run(&mover.home, &["show", game, "--json"])["plies"]
        .as_u64()
        .expect("plies");
    run_text(&mover.home, &["move", game, text, "--notation", "en"]);
    wait_for("the move to arrive", || {
        let v = run(&other.home, &["show", game, "--json"]);
        (v["plies"].as_u64() == Some(plies + 1)).then_some(())
    });
}

#[test]
fn reads_without_the_node_answer_from_its_database_and_say_they_may_be_stale() {
    let mut nodes = Nodes::new();
    let org = nodes.start("organiser", &["--mailbox"]);
    let ana = nodes.start("ana", &["--use-mailbox", &org.addr]);
    let bruno = nodes.start("bruno", &["--use-mailbox", &org.addr]);
    let carmen = nodes.start("carmen", &["--use-mailbox", &org.addr]);
    let league = run(
        &org.home,
        &[
            "league",
            "create",
            "Liga",
            "--per-move",
            "3d",
            "--json",
            "--player",
            &ana.id,
            "--name",
            "Ana",
            "--player",
            &bruno.id,
            "--name",
            "Bruno",
            "--player",
            &carmen.id,
            "--name",
            "Carmen",
        ],
    );
    let lid = league["league"].as_str().expect("league id").to_owned();
    for p in [&ana, &bruno, &carmen] {
        wait_for("the league to arrive", || {
            let v = run(&p.home, &["league", "list", "--json"]);
            (v["leagues"][0]["league"] == lid.as_str()).then_some(())
        });
        run(&p.home, &["league", "join", &lid, "--json"]);
    }
    let game = wait_for("the league game to start", || {
        let v = run(&ana.home, &["games", "--json"]);
        v["games"]
            .as_array()?
            .iter()
            .find(|g| g["status"] == "active")
            .and_then(|g| g["game"].as_str().map(str::to_owned))
    });
    let v = run(&ana.home, &["show", &game, "--json"]);
    let opponent = if v["white"] == bruno.id.as_str() || v["black"] == bruno.id.as_str() {
        &bruno
    } else {
        &carmen
    };
    play([&ana, opponent], &game, "e4");
    play([&ana, opponent], &game, "e5");
    let online_show = run(&ana.home, &["show", &game, "--json"]);
    let online_pgn = run_text(&ana.home, &["export", &game, "--pgn"]);
    assert!(online_show.get("stale").is_none(), "{online_show}");
    // The league player she does not play now is blocked; her remembered peers as listed.
    let third = if std::ptr::eq(opponent, &bruno) {
        &carmen
    } else {
        &bruno
    };
    run_text(&ana.home, &["block", &third.id]);
    let online_known = run(&ana.home, &["peers", "list", "--json"])["known"].clone();
    assert!(
        online_known.as_array().is_some_and(|k| !k.is_empty()),
        "the mailbox at least is remembered: {online_known}"
    );

    // Ana's node stops; what she reads comes from her home's database.
    run_text(&ana.home, &["node", "stop"]);
    wait_for("Ana's node to stop", || {
        let out = exec(&ana.home, &["node", "status"]);
        (!out.success()).then_some(())
    });

    let out = exec(&ana.home, &["games"]);
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stdout.contains(&game[..8]), "{}", out.stdout);
    assert!(out.stderr.contains("may be stale"), "{}", out.stderr);
    let games = run(&ana.home, &["games", "--json"]);
    assert_stale_json(&games, "games");
    let listed = games["games"]
        .as_array()
        .and_then(|l| l.iter().find(|g| g["game"] == game.as_str()))
        .expect("the game is listed");
    assert_eq!(listed["status"], "active");

    // The same typed view the node gave, but for the mark (and the clocks, which run).
    let offline_show = run(&ana.home, &["show", &game, "--json"]);
    assert_stale_json(&offline_show, "show");
    for key in [
        "game", "white", "black", "fen", "moves", "san", "status", "names",
    ] {
        assert_eq!(offline_show[key], online_show[key], "show {key}");
    }
    let out = exec(&ana.home, &["show", &game]);
    assert!(out.success() && out.stdout.contains("e4"), "{}", out.stdout);
    assert!(out.stderr.contains("may be stale"), "{}", out.stderr);

    let out = exec(&ana.home, &["export", &game, "--pgn"]);
    assert!(out.success(), "{}", out.stderr);
    assert_eq!(out.stdout, online_pgn);
    assert!(out.stderr.contains("may be stale"), "{}", out.stderr);
    let out = exec(&ana.home, &["export", &game, "--archive"]);
    assert!(
        out.success() && out.stdout.contains(&game),
        "{}",
        out.stderr
    );

    let leagues = run(&ana.home, &["league", "list", "--json"]);
    assert_stale_json(&leagues, "league list");
    assert_eq!(leagues["leagues"][0]["role"], "player");
    let pairings = run(&ana.home, &["league", "pairings", &lid, "--json"]);
    assert!(
        pairings["pairings"]
            .as_array()
            .is_some_and(|l| l.iter().any(|p| p["game"] == game.as_str())),
        "{pairings}"
    );
    let out = exec(&ana.home, &["league", "standings", &lid]);
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stderr.contains("may be stale"), "{}", out.stderr);

    // The remembered peers and the blocked list, as the node left them; none connected.
    let peers = run(&ana.home, &["peers", "list", "--json"]);
    assert_stale_json(&peers, "peers list");
    assert_eq!(peers["connected"], serde_json::json!([]), "{peers}");
    // The same peers (their addresses may have been refreshed by identify before the stop).
    let ids = |v: &Value| -> std::collections::BTreeSet<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["peer"].as_str().map(str::to_owned))
            .collect()
    };
    assert!(
        ids(&peers["known"]).is_superset(&ids(&online_known)),
        "{peers} lacks some of {online_known}"
    );
    let blocked = run(&ana.home, &["block", "--json"]);
    assert_stale_json(&blocked, "block");
    assert_eq!(
        blocked["blocked"],
        serde_json::json!([third.id]),
        "{blocked}"
    );
    // Blocking someone else needs the node.
    let out = exec(&ana.home, &["block", &org.id]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("node is not running"), "{}", out.stderr);

    // Writing still needs the node, and says so.
    let out = exec(&ana.home, &["move", &game, "Nf3", "--notation", "en"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("node is not running"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

/// Runs `sobre node run` in `home` and waits (up to 60 s) for it to exit by itself. Not
/// through `Nodes`: this node must refuse to start, and what it prints is what is checked.
fn node_run_exits(home: &Path, args: &[&str]) -> crate::common::Output {
    let mut child = crate::common::sobre(home)
        .args(["node", "run", "--listen", "/ip4/127.0.0.1/tcp/0"])
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("node starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if child.try_wait().expect("wait").is_some() {
            let out = child.wait_with_output().expect("output");
            return crate::common::Output {
                code: out.status.code(),
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            };
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the second node with the same key kept running");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_second_node_with_the_same_key_is_refused_before_it_signs_and_no_game_is_disputed() {
    let mut nodes = Nodes::new();
    let bruno = nodes.start("bruno", &[]);
    let ana = nodes.start("ana", &["--bootstrap", &bruno.addr]);
    let game = run(
        &ana.home,
        &["challenge", &bruno.id, "--color", "white", "--json"],
    )["game"]
        .as_str()
        .expect("game")
        .to_owned();
    wait_for("the challenge to arrive", || {
        exec(&bruno.home, &["show", &game, "--json"])
            .success()
            .then_some(())
    });
    run_text(&bruno.home, &["accept", &game]);
    wait_for("the acceptance to arrive", || {
        (run(&ana.home, &["show", &game, "--json"])["status"] == "active").then_some(())
    });
    play([&ana, &bruno], &game, "d4");

    // Ana's key, exported under a passphrase and imported into a second home.
    let dir = tempfile::tempdir().expect("tempdir");
    let pass = dir.path().join("pass");
    std::fs::write(&pass, "una frase bastante larga\n").expect("write");
    let file = dir.path().join("ana.key");
    let pass_arg = pass.to_str().expect("utf-8");
    let exported = run(
        &ana.home,
        &[
            "key",
            "export",
            file.to_str().expect("utf-8"),
            "--passphrase-file",
            pass_arg,
            "--json",
        ],
    );
    assert_eq!(exported["player_id"], ana.id.as_str());
    let copy = dir.path().join("ana-copy");
    let imported = run(
        &copy,
        &[
            "key",
            "import",
            file.to_str().expect("utf-8"),
            "--passphrase-file",
            pass_arg,
            "--json",
        ],
    );
    assert_eq!(imported["player_id"], ana.id.as_str());

    // The copy starts while Ana's node runs and meets Bruno, who knows Ana's node: refused,
    // naming where the other node runs.
    let out = node_run_exits(&copy, &["--bootstrap", &bruno.addr]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let last = out.stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("error: another node is running with this player's key"),
        "{}",
        out.stderr
    );
    let port = ana
        .addr
        .split("/tcp/")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .expect("port");
    assert!(last.contains(&format!("/tcp/{port}")), "{last}");

    // Nothing was signed twice: the game goes on, undisputed, on both sides.
    play([&ana, &bruno], &game, "d5");
    play([&ana, &bruno], &game, "c4");
    for p in [&ana, &bruno] {
        let v = run(&p.home, &["show", &game, "--json"]);
        assert_eq!(v["status"], "active", "{}: {v}", p.name);
        assert_eq!(v["plies"], 3);
    }
}
