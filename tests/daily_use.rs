//! Everyday use of the command line by two correspondence players, Ana and Bruno, each with
//! a real `sobre node run` process on loopback: the confirmation questions on a real
//! pseudo-terminal, `move --dry-run`, moves read in the player's letters by every command
//! that takes one (FIDE App. E2/E3), local resumption times, the game list as a dashboard and
//! `--json` on the commands that change a game.

use crate::common::show_now;
use serde_json::Value;
use std::path::Path;

use crate::common::nodes::{Node, Nodes, wait_for};
use crate::common::{exec, run, run_text, sobre, wait_until};

/// The commonest position where `Rd1` reads two ways: the rook a1–d1 in English, the king
/// (*rey*) e1–d1 in Spanish.
const RD1: &str = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";

/// Ana and Bruno, their nodes connected.
fn pair() -> (Nodes, Node, Node) {
    let mut nodes = Nodes::new();
    let ana = nodes.start("ana", &[]);
    let bruno = nodes.start("bruno", &[]);
    run_text(&ana.home, &["peers", "connect", &bruno.addr]);
    (nodes, ana, bruno)
}

/// Ana challenges Bruno with `args` (Ana White unless said), Bruno accepts; both see it
/// active. Returns the game id.
fn game(ana: &Node, bruno: &Node, args: &[&str]) -> String {
    let game = challenge(ana, bruno, args);
    wait_until(&bruno.home, &game, "the challenge", |v| {
        v["status"] == "pending"
    });
    run_text(&bruno.home, &["accept", &game]);
    for p in [ana, bruno] {
        wait_until(&p.home, &game, "the game to start", |v| {
            v["status"] == "active"
        });
    }
    game
}

/// Ana's challenge to Bruno, pending.
fn challenge(ana: &Node, bruno: &Node, args: &[&str]) -> String {
    let mut cmd = vec!["challenge", bruno.id.as_str(), "--json"];
    if !args.contains(&"--color") {
        cmd.extend(["--color", "white"]);
    }
    cmd.extend_from_slice(args);
    let v = run(&ana.home, &cmd);
    v["game"].as_str().expect("the game id").to_owned()
}

fn moves(v: &Value) -> Vec<String> {
    v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("a move").to_owned())
        .collect()
}

/// A command refused: its exit code 2 and standard error.
fn refused(home: &Path, args: &[&str]) -> String {
    let out = exec(home, args);
    assert_eq!(
        out.code,
        Some(2),
        "sobre {} should be refused: {}{}",
        args.join(" "),
        out.stdout,
        out.stderr
    );
    out.stderr
}

/// `Rd1` without the player's letters: refused naming both readings and the flag, never
/// hinting at origin files.
fn assert_both_readings(stderr: &str) {
    for words in [
        "rook move from a1",
        "king move from e1",
        "--notation en",
        "--notation es",
    ] {
        assert!(stderr.contains(words), "{words:?} in {stderr}");
    }
    assert!(!stderr.contains("Nbd7"), "no origin-file hint: {stderr}");
}

// ----- the confirmation questions, on a real pseudo-terminal -----

/// `sobre ARGS` in `home` on a pseudo-terminal, in English: expects the question `asks`,
/// answers `answer`, and returns the exit code and what was printed.
fn on_terminal(home: &Path, args: &[&str], asks: &str, answer: &str) -> (i32, String) {
    on_terminal_in("C", home, args, asks, answer)
}

/// [`on_terminal`] with the user's locale `locale` (`LC_ALL`).
fn on_terminal_in(
    locale: &str,
    home: &Path,
    args: &[&str],
    asks: &str,
    answer: &str,
) -> (i32, String) {
    let mut cmd = sobre(home);
    cmd.args(args)
        .env("LC_ALL", locale)
        .env_remove("LC_MESSAGES")
        .env_remove("LANG");
    let mut p = rexpect::session::spawn_command(cmd, Some(30_000)).expect("a pty");
    p.exp_string(asks).expect("the question");
    p.send_line(answer).expect("the answer");
    let rest = p.exp_eof().expect("the command ends");
    let code = match p.process().wait().expect("the exit status") {
        rexpect::process::WaitStatus::Exited(_, code) => code,
        other => panic!("sobre {}: {other:?}", args.join(" ")),
    };
    (code, rest)
}

/// A command that asks nothing on a terminal (`--yes`): its exit code and output.
fn on_terminal_unasked(home: &Path, args: &[&str]) -> (i32, String) {
    let mut cmd = sobre(home);
    cmd.args(args);
    let mut p = rexpect::session::spawn_command(cmd, Some(30_000)).expect("a pty");
    let out = p.exp_eof().expect("the command ends unasked");
    let code = match p.process().wait().expect("the exit status") {
        rexpect::process::WaitStatus::Exited(_, code) => code,
        other => panic!("sobre {}: {other:?}", args.join(" ")),
    };
    (code, out)
}

/// FIDE 5.1b (resigning), 9.1 (accepting a draw) and aborting are final: on a terminal the
/// command asks first, and no changes nothing; yes (or --yes) goes ahead. Scripts, whose
/// standard input is not a terminal, are never asked (every other test resigns that way).
#[test]
fn final_steps_are_confirmed_on_a_terminal() {
    let (_nodes, ana, bruno) = pair();
    let g = game(&ana, &bruno, &[]);
    run_text(&ana.home, &["move", &g, "e4"]);
    wait_until(&bruno.home, &g, "1.e4", |v| v["plies"] == 1);

    // No: nothing is signed, the game goes on for both.
    let (code, out) = on_terminal(&bruno.home, &["resign", &g], "Resign game", "n");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Nothing was sent"), "{out}");
    assert_eq!(show_now(&bruno.home, &g)["status"], "active");
    // The same question in Spanish: `no` is no there too.
    let (code, out) = on_terminal_in(
        "es_ES.UTF-8",
        &bruno.home,
        &["resign", &g],
        "¿Abandonar la partida",
        "no",
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("No se ha enviado nada"), "{out}");
    assert_eq!(show_now(&bruno.home, &g)["status"], "active");
    run_text(&bruno.home, &["move", &g, "e5"]);
    wait_until(&ana.home, &g, "1...e5", |v| v["plies"] == 2);
    assert_eq!(show_now(&ana.home, &g)["status"], "active");

    // A draw offer answered no, then yes.
    run_text(&ana.home, &["draw", "offer", &g]);
    wait_until(&bruno.home, &g, "the offer", |v| v["draw_offer"] == "white");
    let (code, _) = on_terminal(
        &bruno.home,
        &["draw", "accept", &g],
        "Accept the draw in game",
        "",
    );
    assert_eq!(code, 1, "an empty answer is no");
    let v = show_now(&bruno.home, &g);
    assert_eq!(
        (v["status"].as_str(), v["draw_offer"].as_str()),
        (Some("active"), Some("white"))
    );
    let (code, out) = on_terminal(
        &bruno.home,
        &["draw", "accept", &g],
        "Accept the draw in game",
        "y",
    );
    assert_eq!(code, 0, "{out}");
    wait_until(&ana.home, &g, "the agreed draw", |v| {
        v["result"] == "1/2-1/2"
    });

    // Resigning, answered yes: the question names the opponent.
    let g2 = game(&ana, &bruno, &[]);
    let (code, out) = on_terminal(&ana.home, &["resign", &g2], "against ", "yes");
    assert_eq!(code, 0, "{out}");
    wait_until(&bruno.home, &g2, "the resignation", |v| {
        v["result"] == "0-1"
    });

    // In Spanish the question names the opponent too, and `sí` goes ahead.
    let g4 = game(&ana, &bruno, &[]);
    let (code, out) = on_terminal_in("es_ES.UTF-8", &ana.home, &["resign", &g4], "contra ", "sí");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("abandonada"), "the answer in Spanish: {out}");
    wait_until(&bruno.home, &g4, "the resignation in Spanish", |v| {
        v["result"] == "0-1"
    });

    // Withdrawing a challenge: no, then --yes without a question.
    let g3 = challenge(&ana, &bruno, &[]);
    let (code, _) = on_terminal(&ana.home, &["abort", &g3], "Abort game", "no");
    assert_eq!(code, 1);
    assert_eq!(show_now(&ana.home, &g3)["status"], "pending");
    let (code, out) = on_terminal_unasked(&ana.home, &["abort", &g3, "--yes"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("[y/N]"), "--yes asks nothing: {out}");
    assert_eq!(show_now(&ana.home, &g3)["status"], "cancelled");
}

/// `move --dry-run` reads and checks the move as `move` does and shows the position after
/// it, signing and sending nothing; a dry run out of turn is refused like the move.
#[test]
fn a_dry_run_shows_the_position_after_the_move_and_sends_nothing() {
    let (_nodes, ana, bruno) = pair();
    let g = game(&ana, &bruno, &["--fen", RD1]);

    let out = run_text(
        &ana.home,
        &[
            "move",
            &g,
            "Rd1",
            "--dry-run",
            "--notation",
            "en",
            "--ascii",
        ],
    );
    assert!(out.contains("FEN: 4k3/8/8/8/8/8/8/3RK3 b - - 1 1"), "{out}");
    assert!(out.contains("nothing was signed or sent"), "{out}");
    // Shown in the letters the player wrote it in: Spanish `Rd1` is the king's move.
    let out = run_text(
        &ana.home,
        &["move", &g, "Rd1", "--dry-run", "--notation", "es"],
    );
    assert!(out.starts_with("dry run: Rd1 in "), "{out}");
    assert!(out.contains("FEN: 4k3/8/8/8/8/8/8/R2K4 b - - 1 1"), "{out}");
    let p = run(
        &ana.home,
        &["move", &g, "Rd1", "--dry-run", "--notation", "es", "--json"],
    );
    assert_eq!(p["fen"], "4k3/8/8/8/8/8/8/R2K4 b - - 1 1", "{p}");
    assert_eq!(
        (p["san"].as_str(), p["uci"].as_str()),
        (Some("Kd1"), Some("e1d1"))
    );
    assert_both_readings(&refused(&ana.home, &["move", &g, "Rd1", "--dry-run"]));
    refused(&bruno.home, &["move", &g, "Kd7", "--dry-run"]);
    // A mate (FIDE 5.1a) is shown as the end it would bring, and not played either.
    let mate = game(&ana, &bruno, &["--fen", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"]);
    let p = run(&ana.home, &["move", &mate, "Qf8", "--dry-run", "--json"]);
    assert_eq!(p["ending"], "checkmate", "{p}");
    let out = run_text(&ana.home, &["move", &mate, "Qf8", "--dry-run"]);
    assert!(out.contains("The game would end: checkmate."), "{out}");
    assert_eq!(show_now(&ana.home, &mate)["status"], "active");

    // Nothing was played: Ana's node would hold its own move at once.
    for p in [&ana, &bruno] {
        let v = show_now(&p.home, &g);
        assert_eq!(v["plies"], 0, "{v}");
        assert_eq!(v["fen"], RD1);
    }
}

/// FIDE App. E2/E3 on every command that reads a move — `conditional`, `adjourn --seal`,
/// `claim --move` — in the position where `Rd1` is the rook in English and the king in
/// Spanish: read in the player's letters (the flag, or `notation` in HOME/config.json),
/// never guessed; unsaid, refused naming both readings.
#[test]
fn e3_every_command_reads_rd1_in_the_players_letters() {
    let (_nodes, ana, bruno) = pair();

    // claim --move: an incorrect 9.2 claim plays the move it announced (9.5b).
    let en = game(&ana, &bruno, &["--fen", RD1]);
    assert_both_readings(&refused(
        &ana.home,
        &["claim", &en, "threefold", "--move", "Rd1"],
    ));
    run_text(
        &ana.home,
        &[
            "claim",
            &en,
            "threefold",
            "--move",
            "Rd1",
            "--notation",
            "en",
        ],
    );
    let v = wait_until(&bruno.home, &en, "the announced move", |v| v["plies"] == 1);
    assert_eq!(moves(&v), ["a1d1"]);
    let es = game(&ana, &bruno, &["--fen", RD1]);
    std::fs::write(
        ana.home.join("config.json"),
        r#"{"notation": "es", "language": "es"}"#,
    )
    .expect("config");
    let said = run_text(&ana.home, &["claim", &es, "threefold", "--move", "Rd1"]);
    // The verdict is worded in the player's language from the core's typed judgement.
    assert!(
        said.contains("la posición se da 1 vez/veces, no tres (9.2)"),
        "{said}"
    );
    let v = wait_until(&bruno.home, &es, "the announced move", |v| v["plies"] == 1);
    assert_eq!(moves(&v), ["e1d1"]);
    std::fs::remove_file(ana.home.join("config.json")).expect("config");

    // conditional: Bruno (Black) to move; Ana's line is his move, then her reply.
    let black_to_move = "4k3/8/8/8/8/8/8/R3K3 b - - 0 1";
    let g = game(&ana, &bruno, &["--fen", black_to_move]);
    assert_both_readings(&refused(&ana.home, &["conditional", &g, "add", "Kd7 Rd1"]));
    run_text(
        &ana.home,
        &["conditional", &g, "add", "Kd7 Rd1", "--notation", "en"],
    );
    let listed = run(&ana.home, &["conditional", &g, "list", "--json"]);
    assert_eq!(
        listed["lines"],
        serde_json::json!([["Kd7", "a1d1"]]),
        "{listed}"
    );
    run_text(&ana.home, &["conditional", &g, "clear"]);
    run_text(
        &ana.home,
        &["conditional", &g, "add", "Rd7 Rd1", "--notation", "es"],
    );
    run_text(&bruno.home, &["move", &g, "Kd7"]);
    let v = wait_until(&bruno.home, &g, "Ana's prepared reply", |v| v["plies"] == 2);
    assert_eq!(
        moves(&v),
        ["e8d7", "e1d1"],
        "the king's move, as Ana wrote it in Spanish"
    );

    // adjourn --seal: the letters are signed in the seal, and the opening reads them (A8).
    for (letters, played) in [("en", "a1d1"), ("es", "e1d1")] {
        let g = game(&ana, &bruno, &["--fen", RD1, "--classical", "40/2h+1h"]);
        assert_both_readings(&refused(
            &ana.home,
            &[
                "adjourn",
                &g,
                "--seal",
                "Rd1",
                "--resume-at",
                "+2d",
                "--no-arbiter",
            ],
        ));
        run_text(
            &ana.home,
            &[
                "adjourn",
                &g,
                "--seal",
                "Rd1",
                "--resume-at",
                "+2d",
                "--no-arbiter",
                "--notation",
                letters,
            ],
        );
        let v = wait_until(&bruno.home, &g, "the envelope", |v| {
            v["status"] == "adjourned"
        });
        assert_eq!(v["envelope"]["letters"], letters, "{v}");
        run_text(&bruno.home, &["resume", &g]);
        run_text(&ana.home, &["resume", &g]);
        let v = wait_until(&bruno.home, &g, "the opened envelope", |v| v["plies"] == 1);
        assert_eq!(moves(&v), [played], "sealed in {letters}");
    }
}

/// A2.7: `--resume-at` in local time: with a zone name, or alone in the machine's zone (`TZ`
/// here), both written into the envelope as the same instant; a bad zone is refused.
#[test]
fn a2_7_the_resumption_may_be_written_in_local_time() {
    use jiff::{Timestamp, ToSpan, tz::TimeZone};
    let (_nodes, ana, bruno) = pair();
    // Two days ahead, to the minute, written as the clocks of Tokyo show it.
    let at = Timestamp::now()
        .checked_add(48.hours())
        .expect("a time")
        .round(jiff::Unit::Minute)
        .expect("rounded");
    let tokyo = at.to_zoned_datetime(TimeZone::get("Asia/Tokyo").expect("a zone"));
    let local = tokyo.strftime("%Y-%m-%d %H:%M").to_string();

    let g = game(&ana, &bruno, &["--classical", "40/2h+1h"]);
    let bad = refused(
        &ana.home,
        &[
            "adjourn",
            &g,
            "--seal",
            "e4",
            "--resume-at",
            &format!("{local} Asia/Tokio"),
        ],
    );
    assert!(bad.contains("unknown time zone \"Asia/Tokio\""), "{bad}");
    let out = sobre(&ana.home)
        .args([
            "adjourn",
            &g,
            "--seal",
            "e4",
            "--no-arbiter",
            "--resume-at",
            &local,
        ])
        .env("TZ", "Asia/Tokyo")
        .output()
        .expect("sobre runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = wait_until(&bruno.home, &g, "the envelope", |v| {
        v["status"] == "adjourned"
    });
    let expected = u64::try_from(at.as_millisecond()).expect("after 1970");
    assert_eq!(v["envelope"]["resume_at_ms"], expected, "{v}");

    // The same instant written with its zone, in another game, from any machine.
    let g = game(&ana, &bruno, &["--classical", "40/2h+1h"]);
    run_text(
        &ana.home,
        &[
            "adjourn",
            &g,
            "--seal",
            "e4",
            "--no-arbiter",
            "--resume-at",
            &format!("{local} Asia/Tokyo"),
        ],
    );
    let v = wait_for("the envelope", || {
        let v = show_now(&ana.home, &g);
        (v["status"] == "adjourned").then_some(v)
    });
    assert_eq!(v["envelope"]["resume_at_ms"], expected, "{v}");
}

// ----- the game list as a dashboard -----

/// `sobre games` in `home`, as text.
fn games(home: &Path, extra: &[&str]) -> String {
    let mut args = vec!["games"];
    args.extend_from_slice(extra);
    run_text(home, &args)
}

/// The line of `game` in a `sobre games` table.
fn games_line(table: &str, game: &str) -> String {
    table
        .lines()
        .find(|l| l.contains(&game[..8]))
        .unwrap_or_else(|| panic!("{} not listed:\n{table}", &game[..8]))
        .to_owned()
}

/// `games` flags what needs the player: a draw offer (9.1), chat not yet read (read once
/// `show` printed it), the opponent's leave (also in `show`, where it was invisible), a win
/// on time that can be claimed (6.9); finished games stay listed, and `--finished` lists
/// only them.
#[test]
fn the_game_list_flags_what_needs_the_player() {
    let (_nodes, ana, bruno) = pair();
    let g = game(&ana, &bruno, &[]);
    assert!(
        !games(&bruno.home, &[]).contains("NOTES"),
        "a quiet list has no notes"
    );

    run_text(&ana.home, &["draw", "offer", &g]);
    run_text(&ana.home, &["chat", &g, "¿tablas?"]);
    wait_until(&bruno.home, &g, "the offer and the line", |v| {
        v["draw_offer"] == "white" && v["chat"].as_array().is_some_and(|c| c.len() == 1)
    });
    let line = games_line(&games(&bruno.home, &[]), &g);
    assert!(line.contains("draw offered to you"), "{line}");
    assert!(line.contains("1 unread chat"), "{line}");
    let mine = games_line(&games(&ana.home, &[]), &g);
    assert!(mine.contains("your draw offer stands"), "{mine}");
    assert!(!mine.contains("unread"), "one's own lines are read: {mine}");
    // Shown, then read.
    let shown = run_text(&bruno.home, &["show", &g]);
    assert!(shown.contains("¿tablas?"), "{shown}");
    assert!(!games(&bruno.home, &[]).contains("unread"));
    let history = run_text(&bruno.home, &["show", &g, "--chat"]);
    assert!(history.contains(": ¿tablas?"), "{history}");

    // Ana's leave, seen by Bruno in the list and in the game.
    run_text(&ana.home, &["leave", "start", "--days", "3"]);
    wait_until(&bruno.home, &g, "Ana's leave", |v| v["leave"].is_array());
    let line = games_line(&games(&bruno.home, &[]), &g);
    assert!(line.contains("opponent on leave until"), "{line}");
    let shown = run_text(&bruno.home, &["show", &g]);
    assert!(shown.contains("On leave: White (ana) until"), "{shown}");
    run_text(&ana.home, &["leave", "end"]);

    // 6.9: a game of 3 seconds each; White does not move; Bruno can claim.
    let fast = game(&ana, &bruno, &["--classical", "3s"]);
    let line = wait_for("the time claim to be possible", || {
        let line = games_line(&games(&bruno.home, &[]), &fast);
        line.contains("you can claim time").then_some(line)
    });
    assert!(line.contains("overdue"), "{line}");
    run_text(&bruno.home, &["claim", &fast, "time"]);
    wait_until(&ana.home, &fast, "the time forfeit", |v| {
        v["result"] == "0-1"
    });

    // Finished games stay listed (ended today), and --finished lists only them.
    let finished = games(&bruno.home, &["--finished"]);
    assert!(finished.contains(&fast[..8]), "{finished}");
    assert!(!finished.contains(&g[..8]), "{finished}");
    assert!(games(&bruno.home, &[]).contains(&fast[..8]));
}

// ----- --json on the commands that change a game -----

/// Every command that changes a game prints, with --json, the game's resulting state (the
/// object of `show --json`), and `opponent` means the player's opponent everywhere — in
/// `show`, in `games`, in each answer — while the challenged player is `challenged`.
#[test]
fn write_commands_answer_the_games_state_and_opponent_means_one_thing() {
    let (_nodes, ana, bruno) = pair();
    let g = challenge(&ana, &bruno, &["--classical", "40/2h+1h"]);
    wait_until(&bruno.home, &g, "the challenge", |v| {
        v["status"] == "pending"
    });
    let same_game = |v: &Value, status: &str| {
        assert_eq!(v["game"], g.as_str(), "{v}");
        assert_eq!(v["status"], status, "{v}");
    };
    let v = run(&bruno.home, &["accept", &g, "--json"]);
    same_game(&v, "active");
    // Seen from each side, `opponent` is the other player; `challenged` is Bruno for both.
    for (me, them) in [(&ana, &bruno), (&bruno, &ana)] {
        let v = wait_until(&me.home, &g, "the start", |v| v["status"] == "active");
        assert_eq!(v["opponent"], them.id.as_str(), "{v}");
        assert_eq!(v["challenged"], bruno.id.as_str(), "{v}");
        assert_eq!(v["challenger"], ana.id.as_str(), "{v}");
        let list = run(&me.home, &["games", "--json"]);
        assert_eq!(list["games"][0]["opponent"], them.id.as_str(), "{list}");
    }
    let v = run(&ana.home, &["move", &g, "e4", "--json"]);
    same_game(&v, "active");
    assert_eq!(v["opponent"], bruno.id.as_str());
    assert_eq!(v["san"], serde_json::json!(["e4"]));
    wait_until(&bruno.home, &g, "1.e4", |v| v["plies"] == 1);
    let v = run(&bruno.home, &["chat", &g, "hola", "--json"]);
    assert_eq!(v["chat"][0]["text"], "hola", "{v}");
    let v = run(&bruno.home, &["draw", "offer", &g, "--json"]);
    assert_eq!(v["draw_offer"], "black", "{v}");
    wait_until(&ana.home, &g, "the offer", |v| v["draw_offer"] == "black");
    let v = run(&ana.home, &["draw", "decline", &g, "--json"]);
    assert_eq!(v["draw_offer"], Value::Null, "{v}");
    wait_until(&bruno.home, &g, "the refusal", |v| {
        v["draw_offer"].is_null()
    });
    let v = run(
        &bruno.home,
        &[
            "adjourn",
            &g,
            "--seal",
            "e5",
            "--resume-at",
            "+1d",
            "--no-arbiter",
            "--json",
        ],
    );
    same_game(&v, "adjourned");
    assert_eq!(v["escrow"]["arbiter"], Value::Null, "{v}");
    wait_until(&ana.home, &g, "the envelope", |v| {
        v["status"] == "adjourned"
    });
    let v = run(&ana.home, &["resume", &g, "--json"]);
    assert_eq!(v["game"], g.as_str(), "{v}");
    run_text(&bruno.home, &["resume", &g]);
    wait_until(&ana.home, &g, "the sealed move", |v| v["plies"] == 2);
    let v = run(&ana.home, &["claim", &g, "dead", "--json"]);
    assert_eq!(v["claim"]["correct"], false, "{v}");
    assert_eq!(
        v["claim"]["judgement"], "mate is still possible (9.6)",
        "{v}"
    );
    assert_eq!(v["claim"]["judgement_code"]["id"], "not_dead", "{v}");
    same_game(&v, "active");
    let v = run(&bruno.home, &["resign", &g, "--json"]);
    same_game(&v, "finished");
    assert_eq!(v["result"], "1-0");

    // A challenge declined and one withdrawn.
    let d = challenge(&ana, &bruno, &[]);
    wait_until(&bruno.home, &d, "the challenge", |v| {
        v["status"] == "pending"
    });
    let v = run(&bruno.home, &["decline", &d, "--json"]);
    assert_eq!(v["status"], "cancelled", "{v}");
    let w = challenge(&ana, &bruno, &[]);
    let v = run(&ana.home, &["abort", &w, "--json"]);
    assert_eq!(v["status"], "cancelled", "{v}");
}
