//! The games in use, in memory: their verified events, their state, the checkpoint the next
//! event continues from, and what each peer has acknowledged of them.

use crate::protocol::MAX_EVENTS_PER_MESSAGE;
use crate::view::{self, Summary};
use libp2p::PeerId;
use sobre_core::Move;
use sobre_core::record::author::Scoresheet;
use sobre_core::record::{
    Checkpoint, EventId, GameState, PlayerId, VerifiedEvent, VerifyError, verify_extend,
};
use std::collections::HashMap;

/// One game as the service holds it while it is in use.
pub(super) struct GameCache {
    /// Which cache this is: a number no other cache had (see [`Sent::covered`]).
    pub(super) epoch: u64,
    /// Every event of the game, signature checked. Only appended to while the cache lives
    /// ([`GameCache::drop_added`] truncates back to `kept` only), so a prefix length names
    /// the same events for as long as the cache lives.
    pub(super) events: Vec<VerifiedEvent>,
    /// Index in `events` of each event id.
    pub(super) ids: HashMap<EventId, usize>,
    /// How many of `events` are kept (the rest were added by [`GameCache::try_add`] and
    /// are neither kept nor dropped yet).
    pub(super) kept: usize,
    pub(super) state: GameState,
    /// Where the replay of the events stands, to replay only what is added at the end: of
    /// all `events`, the ones [`GameCache::try_add`] added included (it continues the
    /// replay in place; [`GameCache::drop_added`] drops it, and the next `try_add` replays
    /// the game from the start).
    pub(super) checkpoint: Option<Checkpoint>,
    /// The player's (or, on a mailbox, the witness's) own log in this game.
    pub(super) sheet: Option<Scoresheet>,
    /// Per peer, how many of the first `events` it holds: a delivery covering them was
    /// answered with receipts (a receiver answers so only once the game verified with every
    /// event it was sent). The next delivery starts there ([`GameCache::outgoing`]). It lives
    /// and dies with the cache: a game read back from the store starts again at 0.
    pub(super) acked: HashMap<PeerId, usize>,
    /// The rules core's game after the moves of `state`, for the draw claims of its
    /// summary ([`GameCache::summary`]); made when first needed.
    rules: Option<Rules>,
}

/// The rules core's game ([`view::replay`]) kept up to date move by move: a summary's draw
/// claims then cost the new moves, where a replay of the whole game for every event was
/// about a tenth of a mailbox's service thread (two summaries per delivery: the move and
/// its receipt).
struct Rules {
    /// The moves of the game offered to `game` so far, in order.
    moves: Vec<Move>,
    game: sobre_core::Game,
    /// A move was refused (never for a verified game): as [`view::replay`], the history
    /// stops there and later moves are not played.
    stuck: bool,
}

impl Rules {
    fn new(state: &GameState) -> Rules {
        Rules {
            moves: Vec::new(),
            game: sobre_core::Game::under(
                state.repetition_edition(),
                state.start.clone().unwrap_or_default(),
            ),
            stuck: false,
        }
    }

    /// Plays the moves of `state` after those already played; false (nothing done) when
    /// the moves played are not the first moves of `state`.
    fn catch_up(&mut self, state: &GameState) -> bool {
        let follows = self.moves.len() <= state.moves.len()
            && self.moves.iter().zip(&state.moves).all(|(a, b)| *a == b.mv);
        if !follows {
            return false;
        }
        for m in &state.moves[self.moves.len()..] {
            self.moves.push(m.mv);
            if !self.stuck && self.game.play(m.mv).is_err() {
                self.stuck = true;
            }
        }
        true
    }
}

/// Numbers the caches made, for [`GameCache::epoch`].
pub(super) static CACHE_EPOCH: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl GameCache {
    pub(super) fn new(
        events: Vec<VerifiedEvent>,
        state: GameState,
        checkpoint: Option<Checkpoint>,
        sheet: Option<Scoresheet>,
    ) -> GameCache {
        let ids = events.iter().enumerate().map(|(i, v)| (v.id, i)).collect();
        GameCache {
            epoch: CACHE_EPOCH.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            kept: events.len(),
            events,
            ids,
            state,
            checkpoint,
            sheet,
            acked: HashMap::new(),
            rules: None,
        }
    }

    /// The summary of `state`, a state of this game (the one [`GameCache::try_add`]
    /// returned): [`Summary::of`], its draw claims judged on the game's history kept here.
    pub(super) fn summary(&mut self, state: &GameState) -> Summary {
        if !view::claims_open(state) {
            return Summary::with_claims(state, Vec::new());
        }
        let rules = self.rules.get_or_insert_with(|| Rules::new(state));
        if !rules.catch_up(state) {
            *rules = Rules::new(state);
            rules.catch_up(state);
        }
        Summary::with_claims(state, rules.game.open_draw_claims())
    }

    /// Adds `events` (signatures checked) and replays the game with them (only them when
    /// they extend the timeline, the common case); on failure the cache holds what it held
    /// (its checkpoint may be gone: then the next call replays the whole game). Then
    /// [`GameCache::keep_added`] or [`GameCache::drop_added`].
    pub(super) fn try_add(
        &mut self,
        events: Vec<VerifiedEvent>,
        now: Option<u64>,
    ) -> Result<GameState, VerifyError> {
        let before = self.events.len();
        self.events.extend(events);
        verify_extend(&self.events, &mut self.checkpoint, now).inspect_err(|_| {
            self.events.truncate(before);
        })
    }

    /// Keeps the events added by [`GameCache::try_add`] with the state it returned.
    pub(super) fn keep_added(&mut self, state: GameState) {
        for (i, v) in self.events.iter().enumerate().skip(self.kept) {
            self.ids.insert(v.id, i);
        }
        self.kept = self.events.len();
        self.state = state;
    }

    /// Drops the events added by [`GameCache::try_add`] (they could not be stored).
    pub(super) fn drop_added(&mut self) {
        self.events.truncate(self.kept);
        // It replayed the dropped events too.
        self.checkpoint = None;
    }

    /// The wire bytes of what a delivery to `peer` (whose player is `player`) carries, and
    /// what it covers. Unless `whole`, only what the peer lacks: the kept events after its
    /// watermark ([`GameCache::acked`]) that it neither signed nor receipted. The whole game
    /// when that leaves nothing (the outbox entries that called for the delivery are cleared
    /// by the receipts of the answer, and a receiver gives receipts only for what it was
    /// sent) or when asked for. At most [`MAX_EVENTS_PER_MESSAGE`] events either way.
    pub(super) fn outgoing(
        &self,
        peer: &PeerId,
        player: Option<PlayerId>,
        whole: bool,
    ) -> (Vec<Vec<u8>>, Sent) {
        let from = if whole {
            0
        } else {
            self.acked.get(peer).copied().unwrap_or(0).min(self.kept)
        };
        let range = &self.events[from..self.kept];
        // The candidates of a delta: not the peer's own (ids are unique in `events`).
        let mut send: Vec<bool> = range
            .iter()
            .map(|v| whole || Some(v.event.author) != player)
            .collect();
        if !whole && let Some(player) = player {
            let candidates: HashMap<EventId, usize> = range
                .iter()
                .enumerate()
                .filter(|(i, _)| send[*i])
                .map(|(i, v)| (v.id, i))
                .collect();
            for (event, by, _) in &self.state.receipts {
                if *by == player
                    && let Some(&i) = candidates.get(event)
                {
                    send[i] = false;
                }
            }
        }
        let mut events = Vec::new();
        let mut ids = Vec::new();
        // Events before `covered` were sent, or are held by the peer: the watermark if the
        // answer is receipts.
        let mut covered = from;
        let mut prefix = true;
        for (i, v) in range.iter().enumerate() {
            if send[i] {
                if events.len() == MAX_EVENTS_PER_MESSAGE {
                    break;
                }
                match v.signed.to_bytes() {
                    Ok(b) => {
                        events.push(b);
                        ids.push(v.id);
                    }
                    // Never for an event that was decoded: but what is not sent is not covered.
                    Err(_) => prefix = false,
                }
            }
            if prefix {
                covered = from + i + 1;
            }
        }
        if events.is_empty() && !whole {
            return self.outgoing(peer, player, true);
        }
        let full = from == 0 && send.iter().all(|&s| s);
        let sent = Sent {
            ids,
            full,
            covered: Some((self.epoch, covered)),
        };
        (events, sent)
    }
}

/// What one delivery carried (see [`Service::deliver`]).
#[derive(Clone, Debug)]
pub(super) struct Sent {
    /// The ids of the events carried: an answer with receipts that lacks the peer's receipt
    /// of one of ours is a refused receipt ([`Service::note_unreceipted`]).
    pub(super) ids: Vec<EventId>,
    /// The whole game (as far as one message goes), not only what the peer lacked: if this
    /// is refused, sending more cannot help.
    pub(super) full: bool,
    /// The hot cache it was taken from ([`GameCache::epoch`]) and how many of its first
    /// events the peer holds once it answers with receipts; `None` when sent from the store.
    pub(super) covered: Option<(u64, usize)>,
}
