//! The node's refusals reach a Spanish player in Spanish (issue 21): a real `sobre` in a
//! Spanish environment against a real node, whose refusals carry their typed code; the
//! same refusals in an English environment keep the node's English words.

mod common;

use common::nodes::Nodes;
use common::{run, sobre};
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
    let (_, err) = refused_in("es_ES.UTF-8", &ana.home, &["coin", "default", &game]);
    assert!(
        err.contains("como desafiante, su nodo abre la moneda por sí solo"),
        "the hint in Spanish too: {err}"
    );
}
