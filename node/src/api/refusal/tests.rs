//! Each refusal's words and code, as the CLI reads them.

use super::*;
use sobre_core::record::escrow::EscrowError;
use sobre_core::rules::coin::CoinRule;
use sobre_words::{Language, words};

/// A refusal's English message and hint, as the node sends it.
fn english(code: &RefusalCode) -> (String, Option<String>) {
    code.words(words(Language::English)).unwrap()
}

/// A node's refusal with a code still parses for a client that only knows the message,
/// and a client meets a code from a newer node as `Other` instead of failing the reply.
#[test]
fn refusal_codes_are_optional_and_forward_compatible() {
    let old: super::super::ApiError =
        serde_json::from_str(r#"{"kind":"user","message":"it is not your move"}"#).unwrap();
    assert_eq!(old.code, None);
    let newer: super::super::ApiError = serde_json::from_str(
        r#"{"kind":"user","message":"x","code":{"id":"a_code_from_the_future","n":1}}"#,
    )
    .unwrap();
    assert_eq!(newer.code, Some(Box::new(RefusalCode::Other)));
    let e = super::super::ApiError::refused(RefusalCode::UnknownGame {
        prefix: "3f".into(),
    });
    let json = serde_json::to_string(&e).unwrap();
    assert_eq!(
        json,
        r#"{"kind":"user","message":"unknown game \"3f\"","hint":"list games with `sobre games`","code":{"id":"unknown_game","prefix":"3f"}}"#
    );
    assert_eq!(
        serde_json::from_str::<super::super::ApiError>(&json).unwrap(),
        e
    );
}

/// The wire form of a code carrying a typed kind: the kind is tagged by `kind` inside
/// the code's object, and a kind from a newer node reads as its `Other` (the client
/// then shows the node's message).
#[test]
fn typed_kinds_have_a_stable_wire_form_and_are_forward_compatible() {
    let code = RefusalCode::Escrow {
        problem: Some(EscrowError::MoveTooLong { len: 300, max: 256 }),
        place: Some(IdPlace::ArbiterSetting),
    };
    let json = serde_json::to_string(&code).unwrap();
    assert_eq!(
        json,
        r#"{"id":"escrow","problem":{"kind":"move_too_long","len":300,"max":256},"place":"arbiter_setting"}"#
    );
    assert_eq!(serde_json::from_str::<RefusalCode>(&json).unwrap(), code);
    assert_eq!(
        serde_json::to_string(&RefusalCode::CoinRule {
            problem: Some(CoinRule::NoSuchPosition { position: 960 })
        })
        .unwrap(),
        r#"{"id":"coin_rule","problem":{"kind":"no_such_position","position":960}}"#
    );
    // The core's own CoinRule travels: every coded kind reads back as itself, and a kind
    // from a newer node reads as none known.
    for rule in [
        CoinRule::NotTheOpponent,
        CoinRule::NoAcceptedCoin,
        CoinRule::NotReceived,
        CoinRule::AlreadySettled,
        CoinRule::NoSuchPosition { position: 999 },
    ] {
        let code = RefusalCode::CoinRule {
            problem: coded_coin_rule(rule),
        };
        let json = serde_json::to_string(&code).unwrap();
        assert_eq!(serde_json::from_str::<RefusalCode>(&json).unwrap(), code);
    }
    assert_eq!(
        serde_json::to_string(&RefusalCode::CoinRule {
            problem: Some(CoinRule::AlreadySettled)
        })
        .unwrap(),
        r#"{"id":"coin_rule","problem":{"kind":"already_settled"}}"#
    );
    let newer: RefusalCode =
        serde_json::from_str(r#"{"id":"coin_rule","problem":{"kind":"from_the_future"}}"#).unwrap();
    assert_eq!(newer, RefusalCode::CoinRule { problem: None });
    let newer: RefusalCode =
        serde_json::from_str(r#"{"id":"league","problem":{"kind":"from_the_future","n":1}}"#)
            .unwrap();
    assert_eq!(newer, RefusalCode::League { problem: None });
}

/// A move the reader refuses keeps the reader's line as its English message.
#[test]
fn bad_move_keeps_the_readers_line() {
    let pos = sobre_core::Position::new();
    let e = sobre_core::notation::parse_move(&pos, "e5", sobre_core::Lang::Auto).unwrap_err();
    assert_eq!(
        english(&RefusalCode::bad_move(&e, MovePlace::Played, None)).0,
        e.to_string()
    );
    assert_eq!(
        english(&RefusalCode::bad_move(&e, MovePlace::Played, Some(2))).0,
        format!("conditional line, move 2: {e}")
    );
}
