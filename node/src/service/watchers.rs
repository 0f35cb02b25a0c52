//! The control clients watching the node (`sobre watch`, the board): one broadcast of typed
//! events, each an event of a game (a move, a chat line, a reminder, a profile), turned into
//! JSON by whoever sends it on. Nobody watching is the common case, and then nothing is
//! built.

use crate::api::watch::{WatchDetail, WatchEvent};
use crate::time::now_ms;
use sobre_core::record::GameId;
use tokio::sync::broadcast;

pub(super) struct Watchers(broadcast::Sender<WatchEvent>);

impl Watchers {
    pub(super) fn new(tx: broadcast::Sender<WatchEvent>) -> Watchers {
        Watchers(tx)
    }

    /// Whether anyone watches: else an event need not be built.
    pub(super) fn watched(&self) -> bool {
        self.0.receiver_count() > 0
    }

    /// Publishes what happened in `game` (a league's id for a league's news), dated now.
    pub(super) fn notify(&self, game: &GameId, detail: impl Into<WatchDetail>) {
        self.publish(WatchEvent {
            game: game.to_hex(),
            time_ms: now_ms(),
            detail: detail.into(),
        });
    }

    /// Publishes an event already made (a reminder dated when it fired, a profile of no
    /// game).
    pub(super) fn publish(&self, event: WatchEvent) {
        // No watcher is no error: the event is for whoever listens now.
        let _ = self.0.send(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::watch::{GameEvent, GameEventKind, NodeEvent};
    use sobre_core::record::{EventId, Status};

    #[test]
    fn a_watcher_gets_the_games_event_with_its_own_fields_beside_the_common_ones() {
        let (tx, _) = broadcast::channel(4);
        let w = Watchers::new(tx.clone());
        assert!(!w.watched());
        let moved = GameEvent {
            kind: GameEventKind::Move,
            by: "12D3KooWx".into(),
            status: Some(Status::Active),
            from: None,
        };
        w.notify(&EventId([1; 32]), moved.clone());
        let mut rx = tx.subscribe();
        assert!(w.watched());
        let game = EventId([2; 32]);
        w.notify(&game, moved.clone());
        w.notify(&game, NodeEvent::League { documents: 2 });
        let first = rx.try_recv().expect("published");
        assert_eq!(first.game, game.to_hex());
        assert_eq!(first.detail, WatchDetail::Game(moved));
        assert!(first.time_ms > 0);
        let second = rx.try_recv().expect("published");
        assert_eq!(second.game, game.to_hex());
        assert_eq!(
            second.detail,
            WatchDetail::Node(NodeEvent::League { documents: 2 })
        );
        assert!(
            rx.try_recv().is_err(),
            "the event before subscribing is not kept"
        );
    }
}
