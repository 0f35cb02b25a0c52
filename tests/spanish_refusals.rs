//! The node's refusals reach a Spanish player in Spanish (issue 21): a real `sobre` in a
//! Spanish environment against a real node, whose refusals carry their typed code; the
//! same refusals in an English environment keep the node's English words.

use crate::common::nodes::Nodes;
use crate::common::{run, sobre};
use std::path::Path;
use std::process::Stdio;

/// Exit code and standard error of `sobre ARGS` run in the locale `locale` (POSIX rule:
/// `LC_ALL` decides).
fn refused_in(locale: &str, home: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = sobre(home)
        .args(args)
        .env("LC_ALL", locale)
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .stdin(Stdio::null())
        .output()
        .expect("the sobre binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Asserts `sobre ARGS` is refused as the player's mistake (exit 2) with `spanish` in a
/// Spanish environment and `english` in an English one.
fn refused_as(home: &Path, args: &[&str], spanish: &str, english: &str) {
    let (code, err) = refused_in("es_ES.UTF-8", home, args);
    assert_eq!(code, Some(2), "sobre {}: {err}", args.join(" "));
    assert!(err.contains(spanish), "in Spanish, {spanish:?}: {err}");
    assert!(
        !err.contains(english),
        "no English left in the Spanish words: {err}"
    );
    let (code, err) = refused_in("C.UTF-8", home, args);
    assert_eq!(code, Some(2), "sobre {}: {err}", args.join(" "));
    assert!(err.contains(english), "in English, {english:?}: {err}");
}

/// Addresses, player ids, envelopes and coin defaults the node refuses: each is worded in
/// Spanish from its code, never shown in the node's English.
#[test]
fn the_nodes_refusals_are_worded_in_spanish() {
    let mut nodes = Nodes::new();
    let ana = nodes.start("ana", &[]);
    // Bruno has a key but no node: Ana's challenge waits for him (pending).
    let bruno_home = nodes.home("bruno");
    run(&bruno_home, &["init", "--name", "bruno", "--json"]);
    let bruno = run(&bruno_home, &["id", "--json"])["player_id"]
        .as_str()
        .expect("bruno's id")
        .to_owned();
    let [carla, dora] = ["carla", "dora"].map(|name| {
        let home = nodes.home(name);
        run(&home, &["init", "--name", name, "--json"]);
        run(&home, &["id", "--json"])["player_id"]
            .as_str()
            .expect("an id")
            .to_owned()
    });
    let game = run(&ana.home, &["challenge", &bruno, "--json"])["game"]
        .as_str()
        .expect("the game's id")
        .to_owned();

    refused_as(
        &ana.home,
        &["peers", "connect", "not-an-address"],
        "dirección multiaddr incorrecta \"not-an-address\"",
        "bad multiaddr \"not-an-address\"",
    );
    refused_as(
        &ana.home,
        &["block", "ana"],
        "no se puede bloquear \"ana\": \"ana\" no es un id de jugador",
        "not a player id \"ana\"",
    );
    // A9, A11: no envelope in a game not even started.
    refused_as(
        &ana.home,
        &["envelope", "open", &game],
        "no hay ningún sobre cerrado en esta partida",
        "no envelope is closed in this game",
    );
    // F1: the challenger never settles the coin by default.
    refused_as(
        &ana.home,
        &["coin", "default", &game],
        "solo el jugador desafiado resuelve por omisión una moneda sin abrir (F1)",
        "only the challenged player settles an unopened coin by default (F1)",
    );
    // A league Ana organises: the core refuses a player listed twice and a deputy arbiter
    // who plays; her decisions name a player, and a round the league has.
    refused_as(
        &ana.home,
        &[
            "league", "create", "Club", "--player", &bruno, "--player", &bruno, "--player", &carla,
        ],
        &format!("el jugador {bruno} aparece dos veces"),
        &format!("player {bruno} is listed twice"),
    );
    refused_as(
        &ana.home,
        &[
            "league", "create", "Club", "--player", &bruno, "--player", &carla, "--player",
            &ana.id, "--deputy", &bruno,
        ],
        &format!("el árbitro adjunto {bruno} no puede jugar"),
        &format!("the deputy arbiter {bruno} may not play"),
    );
    let league = run(
        &ana.home,
        &[
            "league", "create", "Club", "--player", &bruno, "--player", &carla, "--player", &dora,
            "--json",
        ],
    );
    assert!(league.is_object(), "the league is created: {league}");
    refused_as(
        &ana.home,
        &["league", "decide", "Club", "withdraw"],
        "nombre al jugador (--player)",
        "name the player (--player)",
    );
    // A round the league does not have: no pairing to decide.
    refused_as(
        &ana.home,
        &[
            "league", "decide", "Club", "forfeit", "--player", &bruno, "--round", "9",
        ],
        "no tiene partida en la ronda 9 (descansa, o no existe esa ronda)",
        "has no game in round 9 (a bye, or no such round)",
    );

    let (_, err) = refused_in("es_ES.UTF-8", &ana.home, &["coin", "default", &game]);
    assert!(
        err.contains("como desafiante, su nodo abre la moneda por sí solo"),
        "the hint in Spanish too: {err}"
    );
}
