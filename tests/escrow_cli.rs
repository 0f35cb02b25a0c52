//! The arbiter's envelope through the command line (FIDE A3, A9, A11): three `sobre node
//! run` processes — Ana (the sealer), Bruno (the responder) and the club's arbiter. Ana's
//! `HOME/config.json` names the arbiter (by alias), so her challenge proposes them in its
//! terms, Bruno's acceptance agrees, and `sobre adjourn` escrows the opening with them; Ana's node is stopped; at the agreed time the arbiter's node opens the
//! envelope, refusing `sobre envelope open` before it; Bruno sees the sealed move played
//! and replies.

use std::time::{Duration, Instant};

use crate::common::nodes::Nodes;
use crate::common::{exec, run, run_text, wait_until};

const WAIT: Duration = Duration::from_secs(30);
const POLL: Duration = Duration::from_millis(100);

#[test]
fn a9c_a3_the_club_arbiter_opens_the_absent_sealers_envelope_from_the_command_line() {
    let mut nodes = Nodes::new();
    let ana = nodes.start("ana", &[]).home;
    let bruno_node = nodes.start("bruno", &[]);
    let (bruno, bruno_id, bruno_addr) = (bruno_node.home, bruno_node.id, bruno_node.addr);
    let club_node = nodes.start("club", &[]);
    let (club, club_id, club_addr) = (club_node.home, club_node.id, club_node.addr);
    run_text(&ana, &["peers", "connect", &bruno_addr]);
    run_text(&ana, &["peers", "connect", &club_addr]);
    run_text(&bruno, &["peers", "connect", &club_addr]);
    // Ana's standing choice of arbiter, by alias.
    run_text(&ana, &["contacts", "add", "club", &club_id]);
    std::fs::write(ana.join("config.json"), r#"{"arbiter": "club"}"#).expect("config.json");

    let v = run(
        &ana,
        &[
            "challenge",
            &bruno_id,
            "--classical",
            "40/2h+1h",
            "--color",
            "white",
            // A resumption 15 s ahead needs a short agreed notice (A2.7, docs/time.md).
            "--notice",
            "5s",
            "--json",
        ],
    );
    let game = v["game"].as_str().expect("the game id").to_owned();
    wait_until(&bruno, &game, "the challenge", |v| v["status"] == "pending");
    run_text(&bruno, &["accept", &game]);
    wait_until(&ana, &game, "the acceptance", |v| v["status"] == "active");
    run_text(&ana, &["move", &game, "e4"]);
    wait_until(&bruno, &game, "1.e4", |v| v["plies"] == 1);
    run_text(&bruno, &["move", &game, "e5"]);
    wait_until(&ana, &game, "1...e5", |v| v["plies"] == 2);

    // Ana seals; the club keeps the envelope. The resumption is 15 s ahead.
    let out = run_text(
        &ana,
        &["adjourn", &game, "--seal", "Cf3", "--resume-at", "+15s"],
    );
    let resume_at = Instant::now() + Duration::from_secs(15);
    assert!(out.contains("Kept by the arbiter club"), "{out}");
    wait_until(&club, &game, "the envelope at the club", |v| {
        v["envelope"]["arbiter"] == club_id.as_str()
    });
    wait_until(&bruno, &game, "the escrow at Bruno", |v| {
        v["envelope"]["arbiter"] == club_id.as_str()
    });
    let card = run_text(&bruno, &["envelope", &game]);
    assert!(card.contains("Kept by:         the arbiter"), "{card}");
    // Ana's node delivered everything (its outbox is empty); then she is gone.
    let deadline = Instant::now() + WAIT;
    while run(&ana, &["node", "status", "--json"])["outbox"] != 0 {
        assert!(Instant::now() < deadline, "Ana's outbox never emptied");
        std::thread::sleep(POLL);
    }
    nodes.stop("ana");

    // Bruno is at the board. Only the arbiter opens, and not before the agreed time.
    run_text(&bruno, &["resume", &game]);
    wait_until(&club, &game, "Bruno's presence", |v| {
        !v["presence_ms"][1].is_null()
    });
    let not_arbiter = exec(&bruno, &["envelope", "open", &game]);
    assert_eq!(not_arbiter.code, Some(2), "{}", not_arbiter.stderr);
    assert!(
        not_arbiter.stderr.contains("not the arbiter"),
        "{}",
        not_arbiter.stderr
    );
    let early = exec(&club, &["envelope", "open", &game]);
    if Instant::now() < resume_at {
        assert_eq!(early.code, Some(2), "{}", early.stderr);
        assert!(early.stderr.contains("too early"), "{}", early.stderr);
    }

    // At the agreed time the club's node opens it by itself; Bruno replies.
    let v = wait_until(&bruno, &game, "the arbiter's opening", |v| v["plies"] == 3);
    assert!(Instant::now() >= resume_at);
    assert_eq!(v["last_move"], "g1f3", "{v}");
    assert_eq!(v["envelope"]["opened_by_arbiter"], true, "{v}");
    run_text(&bruno, &["move", &game, "Nc6"]);
    wait_until(&club, &game, "Bruno's reply at the club", |v| {
        v["plies"] == 4
    });
    let card = run_text(&bruno, &["envelope", &game]);
    assert!(card.contains("opened by the arbiter"), "{card}");
}
