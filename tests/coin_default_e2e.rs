//! End to end, the real `sobre` binary: a challenger who never opens the fair coin (FIDE
//! Appendix F1: colours and a Chess960 start drawn by lot) loses the draw. Ana challenges
//! Bernardo (random colours) and Carmen (a Chess960 start drawn at random), and her node
//! loses the coins' secrets, so it receives the acceptances (and signs its receipts) but
//! never opens. Bernardo's node settles its coin by itself after the deadline with the
//! colour he asked for at acceptance; Carmen's node runs with `--manual-coin-default`, so
//! she settles hers with `sobre coin default` — refused before the deadline, accepted after
//! it. A third game's coin secret is lost too: Ana's node refuses to abort (an abort after
//! seeing the share would withhold the draw), and Bernardo's default starts the game.
//!
//! A fourth game is accepted while Ana's node is off: her day to open starts only with her
//! receipt (docs/time.md, clocks issue case 3), so Bernardo's node does not settle it by
//! default however long she is away, a default by hand is refused, and when her node comes
//! back it opens the coin and the game starts with the drawn colours.
//!
//! The deadline is the real rule's (`rules::coin`): a day, or the game's time for a move
//! when shorter — so these games are over the board with 12 seconds for the game
//! (`--classical 12s`), which gives a 12-second deadline through the released binary with
//! no switch for tests.

use serde_json::Value;
use std::path::Path;
use std::time::Duration;

use crate::common::nodes::{Node, Nodes};
use crate::common::{exec, run, run_text, show};

const CONTROL: &str = "12s";

fn challenge(home: &Path, opponent: &str, extra: &[&str]) -> String {
    let mut args = vec!["challenge", opponent, "--classical", CONTROL, "--json"];
    args.extend_from_slice(extra);
    let v = run(home, &args);
    v["game"].as_str().expect("the game id").to_owned()
}

#[test]
fn f1_a_challenger_who_never_opens_the_coin_gets_the_opponents_choice() {
    let mut nodes = Nodes::new();
    let Node {
        home: bernardo,
        id: bernardo_id,
        addr: b_addr,
        ..
    } = nodes.start("bernardo", &[]);
    let Node {
        home: carmen,
        id: carmen_id,
        addr: c_addr,
        ..
    } = nodes.start("carmen", &["--manual-coin-default"]);
    let ana = nodes.start("ana", &[]).home;
    run_text(&ana, &["peers", "connect", &b_addr]);
    run_text(&ana, &["peers", "connect", &c_addr]);

    let colours = challenge(&ana, &bernardo_id, &["--color", "random"]);
    let chess960 = challenge(&ana, &carmen_id, &["--color", "white", "--chess960"]);
    crate::common::wait_until(&bernardo, &colours, "the challenge", |v| {
        v["status"] == "pending"
    });
    crate::common::wait_until(&carmen, &chess960, "the challenge", |v| {
        v["status"] == "pending"
    });

    // A third game whose coin secret Ana's node has lost: it holds the acceptance but cannot
    // open, and it refuses to abort (that would withhold a draw it could know).
    let lost = challenge(&ana, &bernardo_id, &["--color", "random"]);
    let away = challenge(&ana, &bernardo_id, &["--color", "random"]);
    for game in [&colours, &chess960, &lost] {
        std::fs::remove_file(ana.join("openings").join(format!("{game}.coin")))
            .expect("the coin's secret is kept beside the openings");
    }
    crate::common::wait_until(&bernardo, &lost, "the challenge", |v| {
        v["status"] == "pending"
    });
    run_text(&bernardo, &["accept", &lost]);
    crate::common::wait_until(&ana, &lost, "the acceptance", |v| v["coin"].is_object());
    let abort = exec(&ana, &["abort", &lost]);
    assert_eq!(abort.code, Some(2), "{}{}", abort.stdout, abort.stderr);
    assert!(abort.stderr.contains("withhold"), "{}", abort.stderr);

    // The acceptances reach Ana's node, which signs its receipts but cannot open.
    run_text(&bernardo, &["accept", &colours, "--colour", "black"]);
    run_text(&carmen, &["accept", &chess960]);
    let v = crate::common::wait_until(&bernardo, &colours, "Ana's receipt", |v| {
        v["coin"]["deadline_ms"].is_u64()
    });
    crate::common::wait_until(&carmen, &chess960, "Ana's receipt", |v| {
        v["coin"]["deadline_ms"].is_u64()
    });
    assert_eq!(v["status"], "pending");
    assert_eq!(v["coin"]["settled"], Value::Null, "{v}");
    let accepted_ms = v["coin"]["accepted_ms"]
        .as_u64()
        .expect("when the acceptance reached Ana");

    // Ana's node stops; Bernardo accepts the fourth game while it is off.
    nodes.stop("ana");
    run_text(&bernardo, &["accept", &away]);
    let v = show(&bernardo, &away).expect("Bernardo holds the game");
    assert_eq!(v["coin"]["deadline_ms"], Value::Null, "no receipt yet: {v}");
    let text = run_text(&bernardo, &["show", &away]);
    assert!(text.contains("not yet reached the challenger"), "{text}");
    let v = show(&bernardo, &colours).expect("Bernardo holds the game");
    assert_eq!(
        v["coin"]["deadline_ms"].as_u64(),
        Some(accepted_ms + 12_000)
    );
    let text = run_text(&bernardo, &["show", &colours]);
    assert!(
        text.contains("Fair coin: the challenger may open it until"),
        "{text}"
    );

    // By hand before the deadline: refused, saying until when (exit 2, the user's to fix).
    let early = exec(
        &carmen,
        &["coin", "default", &chess960, "--position", "518"],
    );
    assert_eq!(early.code, Some(2), "{}{}", early.stdout, early.stderr);
    assert!(
        early.stderr.contains("may still open the coin until"),
        "{}",
        early.stderr
    );
    // Colours were not drawn in Carmen's game: nothing to choose there.
    let wrong = exec(
        &carmen,
        &["coin", "default", &chess960, "--colour", "white"],
    );
    assert_eq!(wrong.code, Some(2), "{}", wrong.stderr);

    // Bernardo's node settles by itself after the deadline, with the colour he asked for.
    let v = crate::common::wait_until(&bernardo, &colours, "the default", |v| {
        v["status"] == "active"
    });
    assert_eq!(v["my_color"], "black", "{v}");
    assert_eq!(v["coin"]["settled"], "default");
    assert!(v["started_ms"].as_u64() > Some(accepted_ms + 12_000), "{v}");
    // The game accepted while Ana was away is not: her time to open has not started.
    let v = show(&bernardo, &away).expect("Bernardo holds the game");
    assert_eq!(v["status"], "pending", "{v}");
    let early = exec(&bernardo, &["coin", "default", &away]);
    assert_eq!(early.code, Some(2), "{}{}", early.stdout, early.stderr);
    assert!(
        early.stderr.contains("has not yet received the acceptance"),
        "{}",
        early.stderr
    );

    // Carmen's runs with --manual-coin-default: still pending past the deadline, until she
    // settles it herself.
    let v = crate::common::wait_until(&carmen, &chess960, "the deadline to pass", |v| {
        v["coin"]["ms_to_deadline"]
            .as_i64()
            .is_some_and(|ms| ms < -3_000)
    });
    assert_eq!(v["status"], "pending", "{v}");
    let out = run_text(
        &carmen,
        &["coin", "default", &chess960, "--position", "518"],
    );
    assert!(out.contains("settled the coin"), "{out}");
    let v = show(&carmen, &chess960).expect("Carmen holds the game");
    assert_eq!(v["status"], "active");
    assert_eq!(v["my_color"], "black", "the challenge gave Ana White");
    assert_eq!(
        v["start_fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "Chess960 position 518 is the standard one"
    );

    // Ana's node comes back: both games started with her opponents' choices, and it does
    // not open the coins.
    nodes.start("ana", &[]);
    let v = crate::common::wait_until(&ana, &colours, "the game by default", |v| {
        v["status"] == "active"
    });
    assert_eq!(v["my_color"], "white");
    assert_eq!(v["coin"]["settled"], "default");
    let v = crate::common::wait_until(&ana, &chess960, "the game by default", |v| {
        v["status"] == "active"
    });
    assert_eq!(v["coin"]["settled"], "default");
    assert_eq!(v["my_color"], "white");
    std::thread::sleep(Duration::from_secs(2));
    for (home, game) in [
        (&ana, &colours),
        (&bernardo, &colours),
        (&carmen, &chess960),
    ] {
        let v = show(home, game).expect("the game");
        assert_eq!(v["coin"]["settled"], "default", "no late opening: {v}");
    }
    // The game accepted while she was away: her node opens the coin on its return.
    for home in [&ana, &bernardo] {
        let v = crate::common::wait_until(home, &away, "the opening", |v| v["status"] == "active");
        assert_eq!(v["coin"]["settled"], "opened", "{v}");
    }
    // The game whose secret was lost started by Bernardo's default too (White for him: he
    // named no colour).
    let v = crate::common::wait_until(&ana, &lost, "the game by default", |v| {
        v["status"] == "active"
    });
    assert_eq!(v["my_color"], "black", "{v}");
    assert_eq!(v["coin"]["settled"], "default");
    // Anyone can check it offline.
    let archive = nodes.dir.path().join("colours.sobre");
    run_text(
        &ana,
        &[
            "export",
            &colours,
            "--archive",
            "-o",
            archive.to_str().expect("utf-8"),
        ],
    );
    let v = run(
        &ana,
        &["verify", archive.to_str().expect("utf-8"), "--json"],
    );
    assert_eq!(v["coin"], "default", "{v}");
    assert_eq!(v["status"], "active");
    assert_eq!(v["black"], bernardo_id.as_str(), "{v}");
    assert_eq!(v["ignored"], 0, "no opening came after the default: {v}");
}
