//! End to end, the real `sobre` binary: a draw claimed in a quickplay finish (FIDE 10.2;
//! Appendix D), decided by the agreed arbiter's signed ruling. Ana and Bruno play a
//! two-minute game over the board on terms naming Carla as arbiter; Carla's node keeps the
//! game as its arbiter.
//!
//! Ana claims (10.2): the clocks stand still; Bruno's node may not rule; Carla rejects
//! (10.2c: two minutes more on Bruno's clock, on every node); Ana claims again and Carla
//! declares the game drawn (10.2a) on all three nodes.

use serde_json::Value;

use crate::common::nodes::{Node, Nodes, open_game, wait_for};
use crate::common::{exec, run, run_text};

/// Ana's claim, retried while the node refuses it (the game's clocks may show exactly two
/// minutes for a moment, while the last move is in transit); the answer's view.
fn claim(ana: &Node, game: &str) -> Value {
    wait_for("Ana's 10.2 claim", || {
        let out = exec(&ana.home, &["claim", game, "quickplay", "--json"]);
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
    })
}

/// Time left on a clock (0 White, 1 Black) in a view.
fn remaining(v: &Value, colour: usize) -> i64 {
    v["clocks"][["white_ms", "black_ms"][colour]]
        .as_i64()
        .unwrap_or_else(|| panic!("clocks in {v}"))
}

#[test]
fn art_10_2_a_claim_rejected_then_drawn_by_the_agreed_arbiter() {
    let mut nodes = Nodes::new();
    let ana = nodes.start("ana", &[]);
    let bruno = nodes.start("bruno", &[]);
    let carla = nodes.start("carla", &[]);
    run_text(&ana.home, &["peers", "connect", &bruno.addr]);
    run_text(&ana.home, &["peers", "connect", &carla.addr]);
    run_text(&bruno.home, &["peers", "connect", &carla.addr]);

    let game = open_game(&ana, &bruno, &["--classical", "2m", "--arbiter", &carla.id]);

    // 10.2: Ana, to move with less than two minutes, claims; the clocks stand still.
    let v = claim(&ana, &game);
    let claims = v["quickplay_claims"].as_array().expect("claims").clone();
    assert_eq!(claims.len(), 1, "{v}");
    assert_eq!(claims[0]["by"], "white", "{v}");
    assert!(claims[0]["rulings"].as_array().unwrap().is_empty(), "{v}");
    assert_eq!(v["status"], "active", "{v}");
    let card = run_text(&ana.home, &["show", &game]);
    assert!(
        card.contains("claimed a draw in a quickplay finish"),
        "show says the claim awaits the arbiter: {card}"
    );
    let first = claims[0]["claim"].as_str().unwrap().to_owned();

    // Carla's node holds the claim; Bruno's may not rule (he is no arbiter).
    let at_carla = crate::common::wait_until(&carla.home, &game, "the claim at Carla's", |v| {
        v["quickplay_claims"]
            .as_array()
            .is_some_and(|c| !c.is_empty())
    });
    let bruno_before = remaining(&at_carla, 1);
    crate::common::wait_until(&bruno.home, &game, "the claim at Bruno's", |v| {
        v["quickplay_claims"]
            .as_array()
            .is_some_and(|c| !c.is_empty())
    });
    let refused = exec(&bruno.home, &["arbiter", "rule", &game, "draw"]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("only the game's agreed arbiter rules"),
        "{}",
        refused.stderr
    );

    // 10.2c: Carla rejects: two minutes more for Bruno, on every node.
    let v = run(&carla.home, &["arbiter", "rule", &game, "reject", "--json"]);
    assert_eq!(v["status"], "active", "{v}");
    assert_eq!(
        v["quickplay_claims"][0]["rulings"][0]["ruling"], "reject",
        "{v}"
    );
    assert_eq!(remaining(&v, 1), bruno_before + 120_000, "{v}");
    let v = crate::common::wait_until(&ana.home, &game, "the rejection at Ana's", |v| {
        v["quickplay_claims"][0]["rulings"]
            .as_array()
            .is_some_and(|r| !r.is_empty())
    });
    assert_eq!(remaining(&v, 1), bruno_before + 120_000, "{v}");
    let card = run_text(&bruno.home, &["show", &game]);
    let card = if card.contains("rejected") {
        card
    } else {
        crate::common::wait_until(&bruno.home, &game, "the rejection at Bruno's", |v| {
            v["quickplay_claims"][0]["rulings"]
                .as_array()
                .is_some_and(|r| !r.is_empty())
        });
        run_text(&bruno.home, &["show", &game])
    };
    assert!(card.contains("two extra minutes"), "{card}");

    // Ana claims again; a second ruling on the first claim is refused (final, 10.2d).
    let v = claim(&ana, &game);
    assert_eq!(v["quickplay_claims"].as_array().unwrap().len(), 2, "{v}");
    crate::common::wait_until(&carla.home, &game, "the second claim at Carla's", |v| {
        v["quickplay_claims"]
            .as_array()
            .is_some_and(|c| c.len() == 2)
    });
    let again = exec(
        &carla.home,
        &["arbiter", "rule", &game, "draw", "--claim", &first[..16]],
    );
    assert_eq!(again.code, Some(2), "{}", again.stderr);
    assert!(again.stderr.contains("final"), "{}", again.stderr);

    // 10.2a: Carla declares the game drawn.
    let v = run(&carla.home, &["arbiter", "rule", &game, "draw", "--json"]);
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(v["result"], "1/2-1/2", "{v}");
    assert_eq!(v["termination"], "quickplay_draw", "{v}");
    for (who, home) in [("Ana", &ana.home), ("Bruno", &bruno.home)] {
        let v = crate::common::wait_until(home, &game, &format!("the draw at {who}'s"), |v| {
            v["status"] == "finished"
        });
        assert_eq!(v["result"], "1/2-1/2", "{who}: {v}");
        assert_eq!(v["termination"], "quickplay_draw", "{who}: {v}");
    }
    let card = run_text(&ana.home, &["show", &game]);
    assert!(
        card.contains("drawn by the arbiter in a quickplay finish (10.2)"),
        "{card}"
    );
}
