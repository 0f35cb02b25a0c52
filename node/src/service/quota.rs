//! What others may make this node store, whatever they sign (issue 18: a stranger must not
//! exhaust a node without breaking a rule). Each limit is checked on the cheap facts of an
//! incoming delivery — kinds, authors, sizes — before any signature is checked, and the
//! same limits bind this node's own player when it authors (`Service::own_quota`), so an
//! honest peer never meets them.
//!
//! | limit | value |
//! |---|---|
//! | events in one game | [`MAX_EVENTS_PER_GAME`] |
//! | bytes of events in one game | [`MAX_BYTES_PER_GAME`] |
//! | chat lines per player per game | [`MAX_CHAT_PER_PLAYER`] ([`MAX_CHAT_PENDING`] before the game starts) |
//! | chat lines per player per game in an hour (by arrival) | [`MAX_CHAT_PER_HOUR`] |
//! | chat after the game ends | lines dated up to [`CHAT_AFTER_END_MS`] after its last event |
//! | leave periods per player per game | [`LEAVES_PER_YEAR`] per year the game has run, plus that many |
//! | games a mailbox keeps per player | [`MAX_MAILBOX_GAMES_PER_PLAYER`] (a new game needs one player under it) |
//! | new games a mailbox takes from one peer in an hour | [`MAX_MAILBOX_NEW_GAMES_PER_PEER_PER_HOUR`] (contacts and league members apart) |
//! | events of games that give strangers no standing (their challenges, answered or aborted; games between strangers escrowed to this node), all strangers together | [`MAX_STRANGER_EVENTS_PER_HOUR`] an hour |
//! | challenges waiting for this player's answer | [`MAX_PENDING_PER_CHALLENGER`] per challenger, [`MAX_PENDING_TOTAL`] in all (the oldest is dropped) |

use super::cache::GameCache;
use super::reads::ReadSide;
use super::{Service, now_ms};
use crate::api::refusal::QuotaProblem;
use crate::api::{ApiError, RefusalCode};
use libp2p::PeerId;
use sobre_core::record::{Event, EventKind, GameId, PlayerId, Status};
use std::collections::{HashMap, VecDeque};

pub(crate) const MAX_EVENTS_PER_GAME: usize = 10_000;
/// A 200-ply game with every receipt is about 100 KiB.
pub(crate) const MAX_BYTES_PER_GAME: usize = 4 * 1024 * 1024;
pub(crate) const MAX_CHAT_PER_PLAYER: usize = 500;
pub(crate) const MAX_CHAT_PENDING: usize = 3;
pub(crate) const MAX_CHAT_PER_HOUR: usize = 30;
pub(crate) const CHAT_AFTER_END_MS: u64 = 24 * 3600 * 1000;
/// ICCF's allowance is 45 days a year; a leave is at least a day's absence in practice.
pub(crate) const LEAVES_PER_YEAR: usize = 45;
pub(crate) const MAX_PENDING_PER_CHALLENGER: usize = 3;
pub(crate) const MAX_PENDING_TOTAL: usize = 64;
/// Games a mailbox keeps per player (a busy ICCF player has a few dozen under way).
pub(crate) const MAX_MAILBOX_GAMES_PER_PLAYER: usize = 1_000;
/// Events of games that give strangers no standing (see `standing`: their challenges,
/// waiting, declined or aborted, with their chat and leave periods; games between strangers
/// escrowed to this node) that all strangers together may make the node store in an hour. Identities are
/// free, so per-challenger limits alone let one machine rotating keys write for ever: this
/// bounds the disk a quarantine's churn costs (each event is at most a few KiB: a 500-
/// character chat line is the largest). A stranger over it is refused `try later`, and its
/// node's outbox does; contacts, league members and players the player has played (a game
/// past its challenge, not aborted) are not held back.
pub(crate) const MAX_STRANGER_EVENTS_PER_HOUR: usize = 1_200;
/// New games a mailbox takes from one peer in an hour, unless a player of the game is a
/// contact or league member of the mailbox's owner (a player's node handing over its
/// whole list of games to a new mailbox does so over a few hours; its outbox retries).
pub(crate) const MAX_MAILBOX_NEW_GAMES_PER_PEER_PER_HOUR: usize = 100;

const HOUR_MS: u64 = 3600 * 1000;
const YEAR_MS: u64 = 365 * 24 * HOUR_MS;

/// Which limit a delivery would pass. Its text is what the sender reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum QuotaExceeded {
    #[error("the game is full: at most {MAX_EVENTS_PER_GAME} events")]
    GameEvents,
    #[error("the game is full: at most {MAX_BYTES_PER_GAME} bytes of events")]
    GameBytes,
    #[error("too much chat: at most {0} lines per player in this game")]
    Chat(usize),
    #[error("too much chat: at most {MAX_CHAT_PER_HOUR} lines an hour")]
    ChatRate,
    #[error("the game is over: no more chat")]
    ChatAfterEnd,
    #[error("too many leave periods for the time this game has run")]
    Leaves,
    #[error("too many challenges waiting for an answer from this player")]
    PendingChallenges,
    #[error("this mailbox keeps no more games of these players")]
    MailboxFull,
    #[error(
        "this mailbox takes at most {MAX_MAILBOX_NEW_GAMES_PER_PEER_PER_HOUR} new games an hour from one peer"
    )]
    MailboxRate,
    #[error("too many challenges from strangers this hour: try later")]
    StrangerRate,
}

impl QuotaExceeded {
    /// The refusal of the player's own event over a limit: coded by the limit when it is one
    /// a player meets while signing, else in these words.
    pub(super) fn refusal(&self) -> ApiError {
        let problem = match self {
            QuotaExceeded::GameEvents => QuotaProblem::GameEvents {
                max: MAX_EVENTS_PER_GAME,
            },
            QuotaExceeded::GameBytes => QuotaProblem::GameBytes {
                max: MAX_BYTES_PER_GAME,
            },
            QuotaExceeded::Chat(max) => QuotaProblem::Chat { max: *max },
            QuotaExceeded::ChatRate => QuotaProblem::ChatRate {
                max: MAX_CHAT_PER_HOUR,
            },
            QuotaExceeded::ChatAfterEnd => QuotaProblem::ChatAfterEnd,
            QuotaExceeded::Leaves => QuotaProblem::Leaves,
            other => return ApiError::user(other.to_string()),
        };
        ApiError::refused(RefusalCode::Quota { problem })
    }
}

/// Arrivals per key in the last hour: the memory of an hourly rate limit. Bounded: one entry
/// per key that arrived within the hour, each as long as that key's limit at most.
pub(crate) struct Arrivals<K>(HashMap<K, VecDeque<u64>>);

impl<K> Default for Arrivals<K> {
    fn default() -> Self {
        Arrivals(HashMap::new())
    }
}

impl<K: std::hash::Hash + Eq + Copy> Arrivals<K> {
    pub(super) fn recent(&mut self, key: K, now: u64) -> usize {
        let Some(q) = self.0.get_mut(&key) else {
            return 0;
        };
        while q.front().is_some_and(|&t| t + HOUR_MS <= now) {
            q.pop_front();
        }
        let n = q.len();
        if n == 0 {
            self.0.remove(&key);
        }
        n
    }

    pub(super) fn note(&mut self, key: K, now: u64) {
        self.0.entry(key).or_default().push_back(now);
    }

    /// Notes an arrival of `key` if fewer than `limit` arrived within the hour.
    pub(super) fn admit(&mut self, key: K, limit: usize, now: u64) -> bool {
        if self.recent(key, now) >= limit {
            return false;
        }
        self.note(key, now);
        true
    }
}

/// Chat lines per (game, author) in the last hour ([`MAX_CHAT_PER_HOUR`]).
pub(crate) type ChatArrivals = Arrivals<(GameId, PlayerId)>;
/// Strangers' events in games that give them no standing in the last hour, all together
/// ([`MAX_STRANGER_EVENTS_PER_HOUR`]).
pub(crate) type StrangerArrivals = Arrivals<()>;
/// New games a mailbox took from each peer in the last hour
/// ([`MAX_MAILBOX_NEW_GAMES_PER_PEER_PER_HOUR`]).
pub(crate) type NewGameArrivals = Arrivals<PeerId>;

/// What a game already holds, as far as the limits go.
#[derive(Default)]
pub(crate) struct Tally {
    events: usize,
    bytes: usize,
    chats: HashMap<PlayerId, usize>,
    leaves: HashMap<PlayerId, usize>,
    /// The time of the latest event that is not chat, a receipt, a presence or a leave.
    last_ms: u64,
    status: Option<Status>,
    started_ms: Option<u64>,
}

impl Tally {
    pub(crate) fn of(held: Option<&GameCache>) -> Tally {
        let mut t = Tally::default();
        let Some(c) = held else { return t };
        t.events = c.events.len();
        t.status = Some(c.state.status);
        t.started_ms = c.state.started_ms;
        for v in &c.events {
            t.bytes += v.signed.body.len() + 64;
            match v.event.kind {
                EventKind::Chat { .. } => *t.chats.entry(v.event.author).or_default() += 1,
                EventKind::Leave { .. } => *t.leaves.entry(v.event.author).or_default() += 1,
                EventKind::Receipt { .. } | EventKind::Presence => {}
                _ => t.last_ms = t.last_ms.max(v.event.time_ms),
            }
        }
        t
    }
}

/// The limits on `new` events (decoded, with their wire sizes) joining a game that holds
/// `tally`. `exempt`'s events pass: this node's own copies come back by sync (its own new
/// events are checked with no one exempt, `Service::own_quota`).
pub(crate) fn check(
    exempt: Option<&PlayerId>,
    mut tally: Tally,
    new: &[(&Event, usize)],
    arrivals: &mut ChatArrivals,
    game: &GameId,
    now: u64,
) -> Result<(), QuotaExceeded> {
    for (ev, size) in new {
        tally.events += 1;
        tally.bytes += size;
        if tally.events > MAX_EVENTS_PER_GAME {
            return Err(QuotaExceeded::GameEvents);
        }
        if tally.bytes > MAX_BYTES_PER_GAME {
            return Err(QuotaExceeded::GameBytes);
        }
        if exempt == Some(&ev.author) {
            continue;
        }
        match ev.kind {
            EventKind::Chat { .. } => {
                let n = tally.chats.entry(ev.author).or_default();
                *n += 1;
                let cap = if tally.started_ms.is_some() {
                    MAX_CHAT_PER_PLAYER
                } else {
                    MAX_CHAT_PENDING
                };
                if *n > cap {
                    return Err(QuotaExceeded::Chat(cap));
                }
                if matches!(tally.status, Some(Status::Finished | Status::Cancelled))
                    && ev.time_ms > tally.last_ms.saturating_add(CHAT_AFTER_END_MS)
                {
                    return Err(QuotaExceeded::ChatAfterEnd);
                }
                let key = (*game, ev.author);
                if arrivals.recent(key, now) >= MAX_CHAT_PER_HOUR {
                    return Err(QuotaExceeded::ChatRate);
                }
                arrivals.note(key, now);
            }
            EventKind::Leave { .. } => {
                let n = tally.leaves.entry(ev.author).or_default();
                *n += 1;
                let years = tally
                    .started_ms
                    .map_or(0, |s| now.saturating_sub(s) / YEAR_MS)
                    as usize;
                if *n > LEAVES_PER_YEAR * (years + 1) {
                    return Err(QuotaExceeded::Leaves);
                }
            }
            _ => {}
        }
    }
    Ok(())
}

impl Service {
    /// Challenges waiting for this player's answer from `challenger`, and the oldest one
    /// waiting from anyone when [`MAX_PENDING_TOTAL`] are (to be dropped for a new one).
    /// The player's contacts (`sobre contacts`) and the members and organisers of the leagues
    /// this node knows are allowlisted: their challenges are never limited nor dropped.
    pub(super) fn pending_challenges(
        &self,
        challenger: &PlayerId,
    ) -> Result<Option<GameId>, QuotaExceeded> {
        let trusted = self.trusted_players();
        if trusted.contains(challenger) {
            return Ok(None);
        }
        let waiting: Vec<(&GameId, u64)> = self
            .games
            .iter()
            .filter(|(_, s)| {
                s.status == Status::Pending
                    && s.opponent == self.identity.me()
                    && s.challenger != self.identity.me()
                    && !trusted.contains(&s.challenger)
            })
            .map(|(g, _)| {
                let t = self
                    .store
                    .game_meta(g)
                    .ok()
                    .flatten()
                    .map_or(0, |m| m.updated_ms);
                (g, t)
            })
            .collect();
        let from = waiting
            .iter()
            .filter(|(g, _)| {
                self.games
                    .get(g)
                    .is_some_and(|s| s.challenger == *challenger)
            })
            .count();
        if from >= MAX_PENDING_PER_CHALLENGER {
            return Err(QuotaExceeded::PendingChallenges);
        }
        if waiting.len() < MAX_PENDING_TOTAL {
            return Ok(None);
        }
        Ok(waiting.iter().min_by_key(|(_, t)| *t).map(|(g, _)| **g))
    }

    /// The players the player knows: contacts (`HOME/contacts.json`) and the members and
    /// organisers of the leagues this node holds.
    pub(super) fn trusted_players(&self) -> std::collections::HashSet<PlayerId> {
        let mut out: std::collections::HashSet<PlayerId> =
            std::fs::read_to_string(self.identity.home().join(crate::home::CONTACTS_FILE))
                .ok()
                .and_then(|t| {
                    serde_json::from_str::<std::collections::BTreeMap<String, String>>(&t).ok()
                })
                .unwrap_or_default()
                .values()
                .filter_map(|id| id.parse().ok())
                .collect();
        for doc in self.store.leagues().into_iter().flatten() {
            if let Ok(league) = sobre_core::league::League::from_signed(&doc) {
                out.insert(league.organiser);
                out.extend(self.league_joins(&league).into_iter().map(|(p, _)| p));
            }
        }
        out
    }

    /// At a mailbox, whether a new game between `players` may be kept: one of them at least
    /// has fewer than [`MAX_MAILBOX_GAMES_PER_PLAYER`] games here,
    /// and the peer that handed it over has taken fewer than
    /// [`MAX_MAILBOX_NEW_GAMES_PER_PEER_PER_HOUR`] new games here in the last hour (peer ids
    /// are free: the per-IP connection limits bound how many a machine holds at once).
    pub(super) fn mailbox_room(
        &mut self,
        players: [PlayerId; 2],
        from: Option<PeerId>,
    ) -> Result<(), QuotaExceeded> {
        if !self.identity.is_mailbox() {
            return Ok(());
        }
        let full = |p: &PlayerId| {
            self.games.values().filter(|s| s.plays(p)).count() >= MAX_MAILBOX_GAMES_PER_PLAYER
        };
        if players.iter().all(full) {
            return Err(QuotaExceeded::MailboxFull);
        }
        if let Some(peer) = from
            && !self
                .limits
                .admit_new_game(peer, MAX_MAILBOX_NEW_GAMES_PER_PEER_PER_HOUR, now_ms())
        {
            let trusted = self.trusted_players();
            if !players.iter().any(|p| trusted.contains(p)) {
                return Err(QuotaExceeded::MailboxRate);
            }
        }
        Ok(())
    }

    /// Whether the `new` events in `game` fit the hour's budget for all strangers
    /// ([`MAX_STRANGER_EVENTS_PER_HOUR`], or the node's setting); noted if they do. Counted:
    /// the events of a game of the player's that gives no standing (a stranger's challenge,
    /// waiting, declined or aborted) and of a game between others held as the arbiter of an
    /// envelope (see `standing`), whoever signed them but this node. Other games pass: the
    /// player's games that were played or are its own challenges, a mailbox's games (its own
    /// limits), league games (a member keeps only its league's pairings). Over the budget,
    /// a game with a known player (a contact, a league member, someone the player has
    /// played) passes too.
    pub(super) fn stranger_budget(
        &mut self,
        game: &GameId,
        new: &[(Event, usize)],
    ) -> Result<(), QuotaExceeded> {
        let (players, counted) = match self.games.get(game) {
            Some(s) => {
                let counted = if s.plays(&self.identity.me()) {
                    !self.gives_standing(s)
                } else {
                    !self.identity.is_mailbox() && s.league.is_none()
                };
                ([s.challenger, s.opponent], counted)
            }
            // A game this node does not hold yet: its challenge is among the new events
            // (else it is refused as missing history). The player's own challenge, lost
            // and fetched again, is the player's.
            None => match new.iter().find_map(|(e, _)| match e.kind.challenge() {
                Some((c, _)) if e.game.is_none() => Some((e.author, c)),
                _ => None,
            }) {
                Some((challenger, c)) => {
                    let mine = challenger == self.identity.me() || c.opponent == self.identity.me();
                    let counted = if mine {
                        challenger != self.identity.me() && !self.restoring.is_restoring(game)
                    } else {
                        !self.identity.is_mailbox() && c.league.is_none()
                    };
                    ([challenger, c.opponent], counted)
                }
                None => return Ok(()),
            },
        };
        let n = new
            .iter()
            .filter(|(e, _)| e.author != self.identity.me())
            .count();
        if !counted || n == 0 {
            return Ok(());
        }
        if !self.limits.admit_strangers(n, now_ms()) {
            let known = self.known_players();
            if players.iter().any(|p| known.contains(p)) {
                return Ok(());
            }
            return Err(QuotaExceeded::StrangerRate);
        }
        Ok(())
    }

    /// Drops a challenge nobody answered, to make room (see [`MAX_PENDING_TOTAL`]).
    pub(super) async fn drop_pending(&mut self, game: GameId) {
        let challenger = self.games.get(&game).map(|s| s.challenger);
        self.games.remove(&game);
        self.hot.forget(&game);
        if let Err(e) = self.store.forget_game(&game) {
            tracing::warn!(%game, "unanswered challenge not dropped from the store: {e}");
        }
        if let Some(c) = challenger {
            self.forget_profile_unless_known(&c);
        }
        self.commits.wrote();
        tracing::info!(%game, "an unanswered challenge was dropped");
    }

    /// The limits for a chat line or a leave this node's player is about to sign in `game`,
    /// checked as the opponent's node will check them, so that it never refuses it.
    pub(super) fn own_quota(&mut self, game: &GameId, leave: bool) -> Result<(), QuotaExceeded> {
        let Some(held) = self.hot.peek(game) else {
            return Ok(());
        };
        let now = now_ms();
        let kind = if leave {
            EventKind::Leave {
                from_ms: now,
                until_ms: now,
            }
        } else {
            EventKind::Chat {
                text: String::new(),
            }
        };
        // Only the kind, the author and the time matter to the limits.
        let probe = Event {
            version: sobre_core::record::event::EVENT_VERSION,
            game: Some(*game),
            author: self.identity.me(),
            seq: 0,
            prev: None,
            seen: None,
            time_ms: now,
            kind,
        };
        let tally = Tally::of(Some(held));
        self.limits
            .check_quota(None, tally, &[(&probe, 0)], game, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The player's own event over a limit is refused with its code, in the same words as
    /// before; the limits a player does not meet while signing stay uncoded.
    #[test]
    fn own_quota_refusals_keep_their_words_with_a_code() {
        for q in [
            QuotaExceeded::GameEvents,
            QuotaExceeded::GameBytes,
            QuotaExceeded::Chat(50),
            QuotaExceeded::ChatRate,
            QuotaExceeded::ChatAfterEnd,
            QuotaExceeded::Leaves,
        ] {
            let e = q.refusal();
            assert_eq!(e.message, q.to_string());
            assert!(e.code.is_some(), "{q:?}");
        }
        assert_eq!(QuotaExceeded::MailboxFull.refusal().code, None);
    }

    fn event(author: u8, time_ms: u64, kind: EventKind) -> Event {
        Event {
            version: sobre_core::record::event::EVENT_VERSION,
            game: Some(sobre_core::record::EventId([1; 32])),
            author: PlayerId::from_bytes([author; 32]),
            seq: 0,
            prev: None,
            seen: None,
            time_ms,
            kind,
        }
    }

    fn chat() -> EventKind {
        EventKind::Chat {
            text: "hola".into(),
        }
    }

    fn started(status: Status, last_ms: u64) -> Tally {
        Tally {
            status: Some(status),
            started_ms: Some(0),
            last_ms,
            ..Tally::default()
        }
    }

    const ME: PlayerId = PlayerId::from_bytes([9; 32]);
    const G: GameId = sobre_core::record::EventId([1; 32]);

    #[test]
    fn chat_is_rate_limited_per_hour_of_arrival_and_recovers() {
        let mut arrivals = ChatArrivals::default();
        let e = event(2, 10, chat());
        for _ in 0..MAX_CHAT_PER_HOUR {
            check(
                Some(&ME),
                started(Status::Active, 0),
                &[(&e, 100)],
                &mut arrivals,
                &G,
                1_000,
            )
            .unwrap();
        }
        assert_eq!(
            check(
                Some(&ME),
                started(Status::Active, 0),
                &[(&e, 100)],
                &mut arrivals,
                &G,
                2_000
            ),
            Err(QuotaExceeded::ChatRate)
        );
        // An hour later the line goes through; our own lines never count.
        check(
            Some(&ME),
            started(Status::Active, 0),
            &[(&e, 100)],
            &mut arrivals,
            &G,
            1_000 + HOUR_MS,
        )
        .unwrap();
        let mine = event(9, 10, chat());
        check(
            Some(&ME),
            started(Status::Active, 0),
            &[(&mine, 100)],
            &mut arrivals,
            &G,
            1_000 + HOUR_MS,
        )
        .unwrap();
    }

    #[test]
    fn chat_stops_a_day_after_the_game_ends() {
        let mut arrivals = ChatArrivals::default();
        let gg = event(2, 5_000, chat());
        check(
            Some(&ME),
            started(Status::Finished, 4_000),
            &[(&gg, 100)],
            &mut arrivals,
            &G,
            6_000,
        )
        .unwrap();
        let late = event(2, 4_000 + CHAT_AFTER_END_MS + 1, chat());
        assert_eq!(
            check(
                Some(&ME),
                started(Status::Finished, 4_000),
                &[(&late, 100)],
                &mut arrivals,
                &G,
                0
            ),
            Err(QuotaExceeded::ChatAfterEnd)
        );
    }

    #[test]
    fn leave_periods_are_bounded_by_the_yearly_allowance() {
        let mut arrivals = ChatArrivals::default();
        let leave = event(
            2,
            10,
            EventKind::Leave {
                from_ms: 0,
                until_ms: 1,
            },
        );
        let many: Vec<(&Event, usize)> = vec![(&leave, 100); LEAVES_PER_YEAR];
        check(
            Some(&ME),
            started(Status::Active, 0),
            &many,
            &mut arrivals,
            &G,
            1_000,
        )
        .unwrap();
        let more: Vec<(&Event, usize)> = vec![(&leave, 100); LEAVES_PER_YEAR + 1];
        assert_eq!(
            check(
                Some(&ME),
                started(Status::Active, 0),
                &more,
                &mut arrivals,
                &G,
                1_000
            ),
            Err(QuotaExceeded::Leaves)
        );
        // In the game's second year, twice the allowance.
        check(
            Some(&ME),
            started(Status::Active, 0),
            &more,
            &mut arrivals,
            &G,
            YEAR_MS + 1,
        )
        .unwrap();
    }

    #[test]
    fn a_game_holds_a_bounded_number_of_bytes_and_events() {
        let mut arrivals = ChatArrivals::default();
        let m = event(2, 10, EventKind::Presence);
        let full = Tally {
            bytes: MAX_BYTES_PER_GAME - 50,
            ..started(Status::Active, 0)
        };
        assert_eq!(
            check(Some(&ME), full, &[(&m, 100)], &mut arrivals, &G, 0),
            Err(QuotaExceeded::GameBytes)
        );
        let full = Tally {
            events: MAX_EVENTS_PER_GAME,
            ..started(Status::Active, 0)
        };
        assert_eq!(
            check(Some(&ME), full, &[(&m, 10)], &mut arrivals, &G, 0),
            Err(QuotaExceeded::GameEvents)
        );
    }
}
