//! The wire form of the watch events, kind by kind: the JSON a watcher reads stays what the
//! service wrote when it merged each kind's fields, built with `json!`, into
//! `{"game","event","time_ms"}`; and that JSON reads back as the same typed event.

use super::*;
use serde_json::{Value, json};
use sobre_core::record::Status;
use sobre_core::test_support::{GameBuilder, key};

const GAME: &str = "3f2a9c1e00112233445566778899aabbccddeeff00112233445566778899aabb";
const T: u64 = 1_796_148_005_000;

/// An event as the service built it before it was typed (`Watchers::notify`): the common
/// fields, and the kind's own merged beside them.
fn merged(game: &str, event: &str, time_ms: u64, detail: Value) -> Value {
    let mut v = json!({"game": game, "event": event, "time_ms": time_ms});
    let Value::Object(detail) = detail else {
        panic!("a detail is an object");
    };
    v.as_object_mut().unwrap().extend(detail);
    v
}

/// `typed` writes `old`, and `old` reads back as `typed`, alone and as a line of `watch`.
fn pinned(typed: &WatchEvent, old: &Value) {
    assert_eq!(&serde_json::to_value(typed).unwrap(), old);
    assert_eq!(
        &serde_json::from_value::<WatchEvent>(old.clone()).unwrap(),
        typed,
        "{old}"
    );
    assert_eq!(
        serde_json::from_value::<WatchLine>(old.clone()).unwrap(),
        WatchLine::Event(typed.clone()),
        "{old}"
    );
}

fn player(n: u8) -> String {
    key(n).player_id().to_string()
}

fn peer(n: u8) -> String {
    key(n).player_id().peer_id().unwrap().to_string()
}

fn at(game: &str, detail: impl Into<WatchDetail>) -> WatchEvent {
    WatchEvent {
        game: game.into(),
        time_ms: T,
        detail: detail.into(),
    }
}

/// An event received from a peer (`ingest`): its author, the game's status, the sender.
#[test]
fn a_received_event_names_its_author_the_status_and_the_sender() {
    let typed = at(
        GAME,
        GameEvent {
            kind: GameEventKind::Move,
            by: player(2),
            status: Some(Status::Active),
            from: Some(peer(2)),
        },
    );
    let old = merged(
        GAME,
        "move",
        T,
        json!({"by": player(2), "status": "active", "from": peer(2)}),
    );
    pinned(&typed, &old);
}

/// An event this node signed (`author`): no sender.
#[test]
fn an_event_signed_here_has_no_sender() {
    let typed = at(
        GAME,
        GameEvent {
            kind: GameEventKind::DrawOffer,
            by: player(1),
            status: Some(Status::Active),
            from: None,
        },
    );
    let old = merged(
        GAME,
        "draw_offer",
        T,
        json!({"by": player(1), "status": "active"}),
    );
    pinned(&typed, &old);
}

/// The challenge this node just signed (`challenge`): its author only.
#[test]
fn a_challenge_signed_here_names_its_author_only() {
    let typed = at(
        GAME,
        GameEvent {
            kind: GameEventKind::Challenge,
            by: player(1),
            status: None,
            from: None,
        },
    );
    pinned(
        &typed,
        &merged(GAME, "challenge", T, json!({"by": player(1)})),
    );
}

/// Every kind of signed event, in every status, under the name the core gives it.
#[test]
fn every_kind_of_game_event_keeps_its_name() {
    let statuses = [
        (Status::Pending, "pending"),
        (Status::Active, "active"),
        (Status::Adjourned, "adjourned"),
        (Status::Finished, "finished"),
        (Status::Cancelled, "cancelled"),
        (Status::Disputed, "disputed"),
    ];
    for kind in GameEventKind::ALL {
        assert_eq!(serde_json::to_value(kind).unwrap(), json!(kind.name()));
        for (status, name) in statuses {
            let typed = at(
                GAME,
                GameEvent {
                    kind,
                    by: player(2),
                    status: Some(status),
                    from: Some(peer(2)),
                },
            );
            let old = merged(
                GAME,
                kind.name(),
                T,
                json!({"by": player(2), "status": name, "from": peer(2)}),
            );
            pinned(&typed, &old);
        }
    }
}

/// A kind's name is [`EventKind::name`]'s, for events of a signed game and for kinds made
/// here (the match in `From` is exhaustive: a new kind must be named there).
#[test]
fn a_game_events_kind_is_named_as_the_core_names_it() {
    use sobre_core::record::EventId;
    let signed = GameBuilder::new(key(1), key(2))
        .sign_written("e4 e5")
        .unwrap();
    let mut kinds: Vec<EventKind> = signed
        .events
        .iter()
        .map(|e| e.decode_unverified().unwrap().kind)
        .collect();
    kinds.extend([
        EventKind::Decline {
            reason: "busy".into(),
        },
        EventKind::Abort,
        EventKind::DrawOffer,
        EventKind::DrawAccept,
        EventKind::DrawDecline,
        EventKind::Resign,
        EventKind::Presence,
        EventKind::Receipt {
            event: EventId([1; 32]),
        },
        EventKind::Chat { text: "hi".into() },
        EventKind::Leave {
            from_ms: 1,
            until_ms: 2,
        },
        EventKind::RandomReveal { secret: [0; 32] },
        EventKind::CoinDefault {
            colour: None,
            position: None,
        },
        EventKind::AcceptDeclaredMove {
            declared: EventId([2; 32]),
        },
        EventKind::AnnulGame,
        EventKind::QuickplayClaim,
    ]);
    for kind in &kinds {
        assert_eq!(GameEventKind::from(kind).name(), kind.name());
    }
    assert!(kinds.iter().any(EventKind::is_challenge), "{kinds:?}");
    assert!(kinds.iter().any(|k| matches!(k, EventKind::Move(_))));
}

/// A name no kind has is refused, not taken for another event: a renamed kind cannot pass
/// unnoticed.
#[test]
fn an_unknown_kind_is_refused() {
    let old = merged(
        GAME,
        "moved",
        T,
        json!({"by": player(2), "status": "active"}),
    );
    assert!(serde_json::from_value::<WatchEvent>(old).is_err());
}

#[test]
fn an_equivocation_names_the_player_who_signed_twice() {
    let typed = at(GAME, NodeEvent::Equivocation { by: player(2) });
    pinned(
        &typed,
        &merged(GAME, "equivocation", T, json!({"by": player(2)})),
    );
}

/// A league's documents: the line's `game` is the league's id.
#[test]
fn a_leagues_documents_are_counted() {
    let typed = at(GAME, NodeEvent::League { documents: 4 });
    pinned(&typed, &merged(GAME, "league", T, json!({"documents": 4})));
}

/// A player's new profile belongs to no game.
#[test]
fn a_profile_belongs_to_no_game() {
    let typed = at(
        "",
        NodeEvent::Profile {
            player: player(2),
            name: "Ana Pérez".into(),
        },
    );
    // As `notify_profile` wrote it, in one literal.
    let old = json!({
        "event": "profile",
        "game": "",
        "player": player(2),
        "name": "Ana Pérez",
        "time_ms": T,
    });
    pinned(&typed, &old);
}

/// Each kind of reminder: the reminder's own fields beside the line's, whose `game` is empty
/// for a reminder about no game; and the reminder reads back as it was recorded.
#[test]
fn a_reminder_is_its_fields_beside_the_lines_own() {
    let kinds = [
        ReminderKind::MoveArrived {
            san: "Nf3".into(),
            ply: 3,
            by: player(2),
        },
        ReminderKind::ClockLow {
            ms_left: 3_600_000,
            deadline_ms: T + 3_600_000,
        },
        ReminderKind::ClaimPossible {
            reason: "time".into(),
            opponent: player(2),
        },
        ReminderKind::AutoClaim {
            reason: "lateness".into(),
        },
        ReminderKind::LeagueRound {
            league: "ab".repeat(32),
            name: "Club 2026".into(),
            round: 2,
            opens_ms: T,
        },
        ReminderKind::Resumption {
            resume_at_ms: T + 60_000,
            ms_left: Some(60_000),
        },
        ReminderKind::Resumption {
            resume_at_ms: T + 60_000,
            ms_left: None,
        },
    ];
    for kind in kinds {
        let game = (!matches!(kind, ReminderKind::LeagueRound { .. })).then(|| GAME.to_owned());
        let r = Reminder {
            key: format!("{}:{GAME}", kind.name()),
            game,
            time_ms: T,
            text: "a line for a person".into(),
            kind,
        };
        // As `publish_reminder` built it: the reminder's JSON less the line's own fields.
        let Ok(Value::Object(mut detail)) = serde_json::to_value(&r) else {
            panic!("a reminder is an object");
        };
        detail.remove("game");
        detail.remove("time_ms");
        let old = merged(
            r.game.as_deref().unwrap_or_default(),
            "reminder",
            r.time_ms,
            Value::Object(detail),
        );
        let typed = WatchEvent::reminder(&r);
        pinned(&typed, &old);
        let WatchDetail::Node(NodeEvent::Reminder(detail)) = &typed.detail else {
            panic!("a reminder's event: {typed:?}");
        };
        assert_eq!(detail.reminder(&typed.game, typed.time_ms), r);
    }
}

#[test]
fn a_lagging_watcher_is_told_how_many_it_missed() {
    let line = WatchLine::Lagged { lagged: 3 };
    assert_eq!(serde_json::to_value(&line).unwrap(), json!({"lagged": 3}));
    assert_eq!(
        serde_json::from_value::<WatchLine>(json!({"lagged": 3})).unwrap(),
        line
    );
}
