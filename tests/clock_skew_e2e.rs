//! `node doctor` names an opponent whose clock is far from ours, measured from real receipts:
//! Eve's node runs 90 s ahead (libfaketime); Ana challenges her, Eve's node answers the
//! delivery with its signed receipt, and Ana's `status` and `node doctor` show the skew.
//!
//! Needs Debian's `faketime`; without it the test says so and passes, unless
//! `SOBRE_REQUIRE_FAKETIME=1`. The faketime'd node runs in its own process group, all of
//! which is killed at the end (`faketime` forks: killing it alone would leave the node).

use crate::common::nodes::{Nodes, Options};
use crate::common::{exec, faketime_missing, run};

#[test]
fn doctor_names_the_opponent_whose_clock_runs_90_s_ahead() {
    if faketime_missing() {
        return;
    }
    let mut nodes = Nodes::new();
    let ana_node = nodes.start("ana", &[]);
    let (ana, ana_addr) = (ana_node.home, ana_node.addr);
    let eve_node = nodes.start_opts(
        "eve",
        &Options {
            faketime: Some("+90s"),
            ..Options::default()
        },
    );
    let (eve, eve_id) = (eve_node.home, eve_node.id);
    crate::common::run_text(&eve, &["peers", "connect", &ana_addr]);

    // Ana's challenge is delivered to Eve, whose node answers with a receipt dated by its clock.
    let game = run(&ana, &["challenge", &eve_id, "--json"])["game"]
        .as_str()
        .expect("a game id")
        .to_owned();
    crate::common::nodes::wait_until_done("Eve's receipt to date her clock", || {
        let status = run(&ana, &["node", "status", "--json"]);
        status["opponents"].as_array().is_some_and(|o| {
            o.iter().any(|o| {
                o["player"] == eve_id.as_str()
                    && o["clock_skew_ms"]
                        .as_i64()
                        .is_some_and(|s| (80_000..100_000).contains(&s))
            })
        })
    });
    assert!(exec(&eve, &["show", &game]).success());

    let out = exec(&ana, &["node", "doctor"]);
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    let line = out
        .stdout
        .lines()
        .find(|l| l.contains("clock of opponent"))
        .unwrap_or_else(|| panic!("no clock finding: {}", out.stdout));
    assert!(line.starts_with("problem"), "{line}");
    assert!(
        line.contains(&eve_id) && line.contains("ahead of"),
        "{line}"
    );
    assert!(out.stdout.contains("timedatectl"), "{}", out.stdout);
    let status = crate::common::run_text(&ana, &["node", "status"]);
    assert!(status.contains("s ahead of yours"), "{status}");
}
