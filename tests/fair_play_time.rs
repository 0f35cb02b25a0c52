//! Fair play without trust, tried as a hostile player would with the released binary: a
//! player whose node's clock runs four days ahead (libfaketime, `FAKETIME=+4d`) claims a win
//! on time (FIDE 6.9) right after her first move in a 3-days-per-move game. Her node signs
//! the claim and believes it; the honest opponent's node must refuse it (an event dated more
//! than `MAX_CLOCK_SKEW_MS` ahead of its clock, docs/time.md): the game stays active there and
//! the honest player can move.
//!
//! Needs Debian's `faketime`; without it the test says so and passes, unless
//! `SOBRE_REQUIRE_FAKETIME=1` (set by `.ci/run`, which installs it).

use crate::common::nodes::{Nodes, Options};
use crate::common::{exec, faketime_missing, run, run_text, show_now};

#[test]
fn attack_forward_dated_time_claim_from_a_node_four_days_ahead_is_refused() {
    if faketime_missing() {
        return;
    }
    let mut nodes = Nodes::new();
    let ana_node = nodes.start("ana", &[]);
    let (ana, ana_id, ana_addr) = (ana_node.home, ana_node.id, ana_node.addr);
    let eve = nodes.start("eve", &[]).home;
    run_text(&eve, &["peers", "connect", &ana_addr]);

    // Eve (White) challenges Ana to a 3-days-per-move game and plays her first move honestly.
    let v = run(
        &eve,
        &[
            "challenge",
            &ana_id,
            "--color",
            "white",
            "--per-move",
            "3d",
            "--json",
        ],
    );
    let game = v["game"].as_str().expect("a game id").to_owned();
    crate::common::nodes::wait_until_done("the challenge", || {
        exec(&ana, &["show", &game]).success()
    });
    run_text(&ana, &["accept", &game]);
    crate::common::nodes::wait_until_done("the game to start", || {
        show_now(&eve, &game)["status"] == "active"
    });
    run_text(&eve, &["move", &game, "e4"]);
    crate::common::nodes::wait_until_done("e4 to arrive", || show_now(&ana, &game)["plies"] == 1);

    // Eve restarts her node with its clock four days ahead and claims Ana's flag has fallen.
    nodes.kill("eve");
    nodes.start_opts(
        "eve",
        &Options {
            faketime: Some("+4d"),
            ..Options::default()
        },
    );
    run_text(&eve, &["peers", "connect", &ana_addr]);
    let out = run_text(&eve, &["claim", &game, "time"]);
    assert!(
        out.contains("claim correct"),
        "Eve's own node believes her: {out}"
    );
    assert_eq!(show_now(&eve, &game)["status"], "finished");

    // Ana's node decides on the claim: it refuses it (its log names the reason) ...
    let ana_log = nodes.log("ana");
    crate::common::nodes::wait_until_done("Ana's node to take or refuse the claim", || {
        std::fs::read_to_string(&ana_log).is_ok_and(|l| l.contains("ahead of this node's clock"))
            || show_now(&ana, &game)["status"] != "active"
    });
    // ... so her game is active, with no claim, and she can move.
    let v = show_now(&ana, &game);
    assert_eq!(v["status"], "active", "{v}");
    assert_eq!(v["claims"].as_array().map_or(0, Vec::len), 0, "{v}");
    run_text(&ana, &["move", &game, "e5"]);
    assert_eq!(show_now(&ana, &game)["plies"], 2);
}
