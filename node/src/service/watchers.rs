//! The control clients watching the node (`sobre watch`, the board): one broadcast of JSON
//! lines, each an event of a game (a move, a chat line, a reminder, a profile). Nobody
//! watching is the common case, and then nothing is built.

use crate::api::replies::WatchEvent;
use crate::time::now_ms;
use serde_json::Value;
use sobre_core::record::GameId;
use tokio::sync::broadcast;
use tracing::warn;

pub(super) struct Watchers(broadcast::Sender<Value>);

impl Watchers {
    pub(super) fn new(tx: broadcast::Sender<Value>) -> Watchers {
        Watchers(tx)
    }

    /// Whether anyone watches: else an event need not be built.
    pub(super) fn watched(&self) -> bool {
        self.0.receiver_count() > 0
    }

    /// Publishes an event of `game` to the watchers; `detail` is an object of the event's
    /// own fields.
    pub(super) fn notify(&self, game: &GameId, what: &str, detail: Value) {
        let event = WatchEvent {
            game: game.to_hex(),
            event: what.to_owned(),
            time_ms: Some(now_ms()),
            detail: match detail {
                Value::Object(d) => d,
                _ => serde_json::Map::new(),
            },
        };
        self.publish(&event);
    }

    /// Publishes an event already made.
    pub(super) fn publish(&self, event: &WatchEvent) {
        match serde_json::to_value(event) {
            Ok(v) => self.publish_value(v),
            Err(e) => warn!(game = %event.game, "event not published: {e}"),
        }
    }

    /// Publishes a line of JSON as it is (an event of no game).
    pub(super) fn publish_value(&self, v: Value) {
        // No watcher is no error: the event is for whoever listens now.
        let _ = self.0.send(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::EventId;

    #[test]
    fn a_watcher_gets_the_games_event_with_its_own_fields_beside_the_common_ones() {
        let (tx, _) = broadcast::channel(4);
        let w = Watchers::new(tx.clone());
        assert!(!w.watched());
        w.notify(&EventId([1; 32]), "move", serde_json::json!({"san": "e4"}));
        let mut rx = tx.subscribe();
        assert!(w.watched());
        let game = EventId([2; 32]);
        w.notify(&game, "move", serde_json::json!({"san": "e4"}));
        w.notify(&game, "chat", serde_json::json!("not an object"));
        let first = rx.try_recv().expect("published");
        assert_eq!(first["game"], game.to_hex());
        assert_eq!(first["event"], "move");
        assert_eq!(first["san"], "e4");
        assert!(first["time_ms"].is_u64());
        let second = rx.try_recv().expect("published");
        assert_eq!(second["event"], "chat");
        assert!(
            second.get("san").is_none(),
            "a detail that is no object adds nothing"
        );
    }
}
