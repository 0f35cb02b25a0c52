//! End to end, the real `sobre` binary: a lost envelope (FIDE Appendix A11; club rules art.
//! 16.5). Ana and Bruno play over the board on agreed terms with no arbiter; Ana seals
//! 3.Nf3 and her node loses the opening (the file under HOME/openings is deleted).
//!
//! - A11.1: Ana declares the move she sealed; nothing is played until Bruno accepts it,
//!   which he may only at the agreed resumption (A7 with A2.7); then the game goes on with
//!   it on both nodes.
//! - A11.2: in another game the position cannot be re-established: each player annuls it,
//!   and once both have, it is cancelled without a result on both nodes.

use serde_json::Value;
use std::time::{Duration, Instant};

use crate::common::nodes::{Node, Nodes, open_game, wait_for};
use crate::common::{exec, run, run_text};

/// Ana and Bruno's nodes, connected.
fn players(nodes: &mut Nodes) -> (Node, Node) {
    let ana = nodes.start("ana", &[]);
    let bruno = nodes.start("bruno", &[]);
    run_text(&ana.home, &["peers", "connect", &bruno.addr]);
    (ana, bruno)
}

/// Ana (White) challenges Bruno over the board; 1.e4 e5; Ana seals Nf3 for a resumption
/// `resume_in` ahead (a short notice agreed in the terms, A2.7) and her node loses the
/// opening. Returns the game and the earliest the resumption can be.
fn adjourned_and_lost(ana: &Node, bruno: &Node, resume_in: &str, secs: u64) -> (String, Instant) {
    let game = open_game(ana, bruno, &["--classical", "40/2h+1h", "--notice", "2s"]);

    // The resumption is at least `secs` after this instant (the node dates the seal later).
    let earliest = Instant::now() + Duration::from_secs(secs);
    run_text(
        &ana.home,
        &["adjourn", &game, "--seal", "Nf3", "--resume-at", resume_in],
    );
    std::fs::remove_file(
        ana.home
            .join("openings")
            .join(format!("{game}-3.seal.json")),
    )
    .expect("the opening of the sealed move is kept under HOME/openings");
    crate::common::wait_until(&bruno.home, &game, "the adjournment", |v| {
        v["status"] == "adjourned"
    });
    (game, earliest)
}

#[test]
fn a11_1_a_declared_sealed_move_accepted_by_the_responder_continues_the_game() {
    let mut nodes = Nodes::new();
    let (ana, bruno) = players(&mut nodes);
    let (game, earliest) = adjourned_and_lost(&ana, &bruno, "+8s", 8);

    // Ana declares the move she sealed: recorded, not played.
    let v = run(&ana.home, &["envelope", "declare", &game, "Nf3", "--json"]);
    assert_eq!(
        v["status"], "adjourned",
        "a declaration alone plays nothing: {v}"
    );
    assert_eq!(v["plies"], 2, "{v}");
    assert_eq!(v["envelope"]["declared"]["san"], "Nf3", "{v}");
    assert!(v["envelope"]["declared"]["accepted_by"].is_null(), "{v}");
    let again = exec(&ana.home, &["envelope", "declare", &game, "Nc3"]);
    assert_eq!(again.code, Some(2), "{}", again.stderr);
    assert!(
        again.stderr.contains("already been declared"),
        "a sealed move is declared once: {}",
        again.stderr
    );

    crate::common::wait_until(&bruno.home, &game, "Ana's declaration", |v| {
        v["envelope"]["declared"]["san"] == "Nf3"
    });
    let card = run_text(&bruno.home, &["show", &game]);
    assert!(
        card.contains("Declared move: White declares Nf3"),
        "show says the declared move awaits acceptance: {card}"
    );
    // The sealer cannot accept her own word.
    let own = exec(&ana.home, &["envelope", "accept-declared", &game]);
    assert_eq!(own.code, Some(2), "{}", own.stderr);
    assert!(
        own.stderr
            .contains("only the responder or the agreed arbiter accepts"),
        "{}",
        own.stderr
    );

    // Bruno accepts: refused before the agreed resumption (the envelope could not be opened
    // then, A2.7), accepted once it has come.
    // (The margin covers the command's own time: the node dates the acceptance.)
    if Instant::now() + Duration::from_secs(3) < earliest {
        let early = exec(&bruno.home, &["envelope", "accept-declared", &game]);
        assert_eq!(early.code, Some(2), "{}", early.stderr);
        assert!(
            early.stderr.contains("agreed resumption time"),
            "refused before the resumption: {}",
            early.stderr
        );
    }
    let v = wait_for("Bruno's acceptance at the resumption", || {
        let out = exec(
            &bruno.home,
            &["envelope", "accept-declared", &game, "--json"],
        );
        if out.success() {
            return serde_json::from_str::<Value>(out.stdout.trim()).ok();
        }
        assert_eq!(
            out.code,
            Some(2),
            "a refusal, not a failure: {}",
            out.stderr
        );
        None
    });
    assert!(Instant::now() >= earliest);
    assert_eq!(v["status"], "active", "{v}");
    assert_eq!(v["plies"], 3, "{v}");
    assert_eq!(v["last_move"], "g1f3", "{v}");
    assert_eq!(v["envelope_lost"], true, "{v}");
    assert_eq!(v["envelope"]["declared"]["accepted_by"], "responder", "{v}");
    assert_eq!(v["my_move"], true, "Bruno answers the declared move: {v}");

    // The game goes on with it on both nodes.
    let v = crate::common::wait_until(&ana.home, &game, "the acceptance at Ana's", |v| {
        v["plies"] == 3
    });
    assert_eq!(v["last_move"], "g1f3", "{v}");
    assert_eq!(v["status"], "active", "{v}");
    run_text(&bruno.home, &["move", &game, "Nc6"]);
    crate::common::wait_until(&ana.home, &game, "3...Nc6", |v| v["plies"] == 4);
    run_text(&ana.home, &["move", &game, "Bb5"]);
    let v = crate::common::wait_until(&bruno.home, &game, "4.Bb5", |v| v["plies"] == 5);
    assert_eq!(v["san"][2], "Nf3", "{v}");
    let card = run_text(&ana.home, &["show", &game]);
    assert!(
        card.contains("The envelope was lost: the game went on with White's declared move Nf3"),
        "{card}"
    );
}

#[test]
fn a11_2_a_game_annulled_by_both_players_is_cancelled_without_a_result() {
    let mut nodes = Nodes::new();
    let (ana, bruno) = players(&mut nodes);
    let (game, _) = adjourned_and_lost(&ana, &bruno, "+1h", 3600);

    // Ana's half of the agreement: the game stays adjourned, and she asks once.
    let v = run(&ana.home, &["envelope", "annul", &game, "--yes", "--json"]);
    assert_eq!(
        v["status"], "adjourned",
        "one player alone annuls nothing: {v}"
    );
    assert_eq!(v["annul_requests"], serde_json::json!(["white"]), "{v}");
    assert!(v["annulled"].is_null(), "{v}");
    let again = exec(&ana.home, &["envelope", "annul", &game, "--yes"]);
    assert_eq!(again.code, Some(2), "{}", again.stderr);
    assert!(again.stderr.contains("already asked"), "{}", again.stderr);

    crate::common::wait_until(&bruno.home, &game, "Ana's request", |v| {
        v["annul_requests"] == serde_json::json!(["white"])
    });
    let card = run_text(&bruno.home, &["show", &game]);
    assert!(card.contains("White asked to annul the game"), "{card}");

    // Bruno's half (a script is never asked for confirmation): annulled, no result.
    let v = run(&bruno.home, &["envelope", "annul", &game, "--json"]);
    assert_eq!(v["status"], "cancelled", "{v}");
    assert!(v["result"].is_null(), "{v}");
    assert!(v["annulled"].is_object(), "{v}");
    assert!(
        v["annulled"]["arbiter"].is_null(),
        "annulled by the players: {v}"
    );

    let v = crate::common::wait_until(&ana.home, &game, "the annulment at Ana's", |v| {
        v["status"] == "cancelled"
    });
    assert!(v["annulled"].is_object(), "{v}");
    assert!(v["result"].is_null(), "{v}");
    let card = run_text(&ana.home, &["show", &game]);
    assert!(card.contains("Annulled (A11.2)"), "{card}");
    // Nothing is left to declare in an annulled game.
    let late = exec(&ana.home, &["envelope", "declare", &game, "Nf3"]);
    assert_eq!(late.code, Some(2), "{}", late.stderr);
    assert!(late.stderr.contains("the game is over"), "{}", late.stderr);
}
