//! The read requests of the control API (`games`, `show`, `envelope`, `export`, `league
//! list`/`export`, `profiles`, `conditional … list`), answered by one code path whether the
//! node is running (the [`Service`](super::Service)) or not (`crate::offline`, which opens
//! the home's database itself): the same typed replies from the same store, so a view read
//! without the node cannot differ from the node's but by being stale.
//!
//! What answering needs is the [`ReadSide`] trait: the player, the store, every game's
//! summary, and a way to have a game's events verified in memory. Everything else — names,
//! views, sorting, league documents — is written once here, as the trait's provided methods.

use super::profile::view as profile_view;
pub(crate) use super::refusal::Unavailable;
use super::{internal, now_ms};
use crate::api::replies::PeerEntry;
use crate::api::replies::{
    ConditionalReply, EnvelopeReply, ExportReply, GameSummary, GamesReply, LeagueExportReply,
    LeagueView, LeaguesReply, ProfilesReply, RemindersReply,
};
use crate::api::request::{self, Request};
use crate::api::{
    ApiError, ApiRequest, ConditionalAction, ExportFormat, GameView, RefusalCode, Reply,
};
use crate::store::Store;
use crate::store::summaries::EventsDigest;
use crate::view::{self, Summary};
use crate::{dispute, home};
use sobre_core::league::{GameEntry, League, LeagueId, SignedLeagueDoc, archive, decision};
use sobre_core::record::{
    GameId, GameState, PlayerId, Profile, SignedEvent, Status, VerifiedEvent, equivocation, export,
    verify, verify_all, verify_continue, verify_incremental,
};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use tracing::{debug, warn};

/// Whether a request only reads, and so can be answered without the node
/// ([`ReadSide::answer_read`]).
pub fn is_read(req: &ApiRequest) -> bool {
    matches!(
        req,
        ApiRequest::Games(request::Games {})
            | ApiRequest::Show(request::Show { .. })
            | ApiRequest::Envelope(request::Envelope { .. })
            | ApiRequest::Export(request::Export { .. })
            | ApiRequest::LeagueList(request::LeagueList {})
            | ApiRequest::LeagueExport(request::LeagueExport { .. })
            | ApiRequest::Profiles(request::Profiles {})
            | ApiRequest::Reminders(request::Reminders { .. })
            | ApiRequest::Conditional(request::Conditional {
                action: ConditionalAction::List,
                ..
            })
    )
}

/// The remembered peers and their addresses, as `peers` lists them (the node beside its
/// connections, a read with the node stopped alone).
pub(crate) fn known_peers(store: &Store) -> Vec<PeerEntry> {
    store
        .peers()
        .unwrap_or_default()
        .into_iter()
        .map(|(peer, addresses)| PeerEntry {
            peer,
            addresses,
            reserved: false,
        })
        .collect()
}

/// A game's events, verified again from the store, its state and the checkpoint a later
/// event continues from: how a game not in memory is read back.
pub(crate) type Loaded = (
    Vec<VerifiedEvent>,
    GameState,
    sobre_core::record::Checkpoint,
);

/// Reads a game back from the store and verifies it (signatures, then the rules).
pub(crate) fn load_game(store: &Store, game: &GameId) -> Result<Loaded, Unavailable> {
    let stored = store
        .events(game)
        .map_err(|e| Unavailable::Storage(e.to_string()))?;
    let events = verify_all(&stored)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Unavailable::Storage(format!("stored event no longer verifies: {e}")))?;
    let (state, checkpoint) = verify_continue(&events, None, None)
        .map_err(|e| Unavailable::Storage(format!("stored game no longer verifies: {e}")))?;
    Ok((events, state, checkpoint))
}

/// Every stored game's summary, and the games that cannot be read or no longer verify (with
/// why): those are never served.
pub(crate) struct Summaries {
    pub(crate) games: HashMap<GameId, Summary>,
    pub(crate) damaged: Vec<(GameId, String)>,
    /// The games verified in full, each with the digest of its events, whose summary is to
    /// be stored (none was, or not one of these events or this build).
    pub(crate) verified: Vec<(GameId, EventsDigest)>,
    /// How many games were read and verified in full (the others came from their summaries).
    pub(crate) verified_in_full: usize,
}

/// Reads [`Summaries`] from the store: a game whose stored summary was built from exactly
/// its stored events (see [`crate::store::summaries`]) is not verified again; any other is
/// read and verified, as every game was before summaries were stored.
///
/// The games are read on every core: a start after an upgrade verifies every game (a summary
/// of another build is not used), about 330 µs a game on one core of a 2-core machine, so 33 s
/// for a mailbox of 100,000 games (issue 30's Tier 2), nearly all of it signature checks.
/// Threads take the games in slices of [`START_SLICE`] in turn, and the slices are put back in
/// the store's order: the result is the one a single pass gives.
pub(crate) fn load_summaries(store: &Store) -> Result<Summaries, crate::store::StoreError> {
    let ids = store.games()?;
    let slices: Vec<&[GameId]> = ids.chunks(START_SLICE).collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(slices.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, Vec<(GameId, StartRead)>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(slice) = slices.get(k) else {
                            return mine;
                        };
                        mine.push((
                            k,
                            slice
                                .iter()
                                .map(|g| (*g, read_at_start(store, g)))
                                .collect(),
                        ));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    done.sort_by_key(|(k, _)| *k);
    let mut out = Summaries {
        games: HashMap::with_capacity(ids.len()),
        damaged: Vec::new(),
        verified: Vec::new(),
        verified_in_full: 0,
    };
    for (game, read) in done.into_iter().flat_map(|(_, reads)| reads) {
        match read {
            StartRead::Stored(summary) => {
                out.games.insert(game, summary);
            }
            StartRead::Verified(summary, digest) => {
                out.verified_in_full += 1;
                out.games.insert(game, summary);
                if let Some(d) = digest {
                    out.verified.push((game, d));
                }
            }
            StartRead::Damaged { why, verified } => {
                out.verified_in_full += usize::from(verified);
                out.damaged.push((game, why));
            }
        }
    }
    Ok(out)
}

/// Games a thread of [`load_summaries`] takes at a time: small enough that two threads end
/// together, large enough that taking one costs nothing beside reading it.
const START_SLICE: usize = 256;

/// What the start made of one stored game.
enum StartRead {
    /// Its stored summary, built from exactly its stored events.
    Stored(Summary),
    /// Verified in full, with the digest of its events (to store its summary under).
    Verified(Summary, Option<EventsDigest>),
    /// Not served: why, and whether it was verified (its events were read).
    Damaged { why: String, verified: bool },
}

/// One game of [`load_summaries`]: its stored summary if one was built from exactly its
/// stored events, else its events read and verified.
fn read_at_start(store: &Store, game: &GameId) -> StartRead {
    // Unreadable events are reported by the full read below, as they always were.
    let digest = store.events_digest(game).ok();
    if let Some(d) = &digest {
        match store.summary(game, d) {
            Ok(summary) => return StartRead::Stored(summary),
            Err(why) => debug!(%game, ?why, "no summary to use, the game is verified"),
        }
    }
    let events = match store.events(game) {
        Ok(e) => e,
        Err(e) => {
            warn!(%game, "stored events unreadable, not served: {e}");
            return StartRead::Damaged {
                why: e.to_string(),
                verified: false,
            };
        }
    };
    // Only the summary stays: the events are read again when the game is used.
    match verify(&events) {
        Ok(state) => StartRead::Verified(Summary::of(&state), digest),
        Err(e) => {
            warn!(%game, "stored game does not verify, not served: {e}");
            StartRead::Damaged {
                why: format!("it no longer verifies: {e}"),
                verified: true,
            }
        }
    }
}

/// What answering a read needs; the rest is provided.
pub(crate) trait ReadSide {
    /// The player of the home.
    fn player(&self) -> &PlayerId;
    fn home_dir(&self) -> &Path;
    fn db(&self) -> &Store;
    /// Every game served, by id.
    fn summaries(&self) -> &HashMap<GameId, Summary>;
    /// A mailbox lists every game it holds, not only the player's.
    fn is_mailbox(&self) -> bool;
    /// The player's own profile, as signed from `HOME/profile.json`.
    fn own_profile(&self) -> Option<&Profile>;
    /// Puts a served game's verified events in memory (see [`ReadSide::in_memory`]).
    fn make_hot(&mut self, game: &GameId) -> Result<(), Unavailable>;
    /// A game put in memory by [`ReadSide::make_hot`]: its events and state.
    fn in_memory(&self, game: &GameId) -> Option<(&[VerifiedEvent], &GameState)>;
    /// How many of a league's games the organiser holds ahead of this home (`None`: not
    /// known; only a running node asks).
    fn league_not_received(&self, league: &League) -> Option<usize>;

    /// Answers a request [`is_read`] says reads.
    ///
    /// # Errors
    /// [`ApiError`] as the node gives it (an unknown game, a game that no longer verifies).
    fn answer_read(&mut self, req: ApiRequest) -> Result<Reply, ApiError> {
        match req {
            ApiRequest::Games(request::Games {}) => Ok(request::Games::reply(self.games_reply())),
            ApiRequest::Show(request::Show { game }) => {
                let g = self.resolve_game(&game)?;
                let proofs = dispute::proofs(self.db(), &g);
                let (events, _) = self.hot(&g)?;
                // Stored equivocation proofs are ruled as `verify` rules a record holding
                // both twins (12.8/12.9); without any, the usual replay as of now.
                let state = if proofs.is_empty() {
                    verify_incremental(events, &[], Some(now_ms())).map_err(internal)?
                } else {
                    let signed: Vec<SignedEvent> =
                        events.iter().map(|v| v.signed.clone()).collect();
                    equivocation::verify_with_proofs(&signed, &proofs).map_err(internal)?
                };
                let mut v = self.show(&state);
                dispute::annotate(self.db(), &g, &mut v);
                Ok(request::Show::reply(v))
            }
            ApiRequest::Envelope(request::Envelope { game }) => {
                let g = self.resolve_game(&game)?;
                let (_, st) = self.hot(&g)?;
                let v = self.show(st);
                Ok(request::Envelope::reply(EnvelopeReply {
                    game: g.to_hex(),
                    envelope: v.envelope,
                    status: v.status,
                }))
            }
            ApiRequest::Export(request::Export { game, format }) => {
                let g = self.resolve_game(&game)?;
                // Stored equivocation proofs: the ruling goes into the PGN (12.8/12.9), so an
                // exported game says what `show` says. The archive stays this node's log (one
                // scoresheet per player); the proofs travel separately (`dispute`).
                let proofs = dispute::proofs(self.db(), &g);
                let (events, state) = self.hot(&g)?;
                let signed: Vec<SignedEvent> = events.iter().map(|v| v.signed.clone()).collect();
                let ruled = if proofs.is_empty() {
                    None
                } else {
                    Some(equivocation::verify_with_proofs(&signed, &proofs).map_err(internal)?)
                };
                let state = ruled.as_ref().unwrap_or(state);
                match format {
                    ExportFormat::Pgn => Ok(request::Export::reply(ExportReply {
                        game: g.to_hex(),
                        pgn: Some(export::to_pgn(state, &|p: &PlayerId| self.pgn_name(p))),
                        archive: None,
                    })),
                    ExportFormat::Archive => {
                        let text = export::write_archive(&g, &signed).map_err(internal)?;
                        Ok(request::Export::reply(ExportReply {
                            game: g.to_hex(),
                            archive: Some(text),
                            pgn: None,
                        }))
                    }
                }
            }
            ApiRequest::Conditional(request::Conditional {
                game,
                action: ConditionalAction::List,
                ..
            }) => {
                let g = self.resolve_game(&game)?;
                let lines = self.db().conditional(&g).map_err(internal)?;
                Ok(request::Conditional::reply(ConditionalReply {
                    game: g.to_hex(),
                    lines,
                }))
            }
            ApiRequest::LeagueList(request::LeagueList {}) => {
                let leagues = self.leagues().iter().map(|l| self.league_view(l)).collect();
                Ok(request::LeagueList::reply(LeaguesReply { leagues }))
            }
            ApiRequest::LeagueExport(request::LeagueExport { league }) => {
                let league = self.resolve_league(&league)?;
                let joins: Vec<SignedLeagueDoc> = self
                    .league_joins(&league)
                    .into_iter()
                    .map(|(_, d)| d)
                    .collect();
                let games = self.league_games(&league);
                let decisions = self.league_decisions(&league);
                let text = archive::write(&league, &joins, &decisions, &games).map_err(internal)?;
                Ok(request::LeagueExport::reply(LeagueExportReply {
                    league: league.id.to_hex(),
                    archive: text,
                    not_received: self.league_not_received(&league),
                }))
            }
            ApiRequest::Profiles(request::Profiles {}) => {
                Ok(request::Profiles::reply(self.profiles_reply()))
            }
            // The reminders fired, as recorded (each once, across restarts).
            ApiRequest::Reminders(request::Reminders { limit }) => {
                let limit = limit.unwrap_or(crate::api::DEFAULT_REMINDERS);
                let reminders = self.db().reminders(limit).map_err(internal)?;
                Ok(request::Reminders::reply(RemindersReply { reminders }))
            }
            _ => Err(internal("not a read request")),
        }
    }

    /// A game in memory, or the error the node gives for a game that vanished meanwhile.
    fn hot(&self, game: &GameId) -> Result<(&[VerifiedEvent], &GameState), ApiError> {
        self.in_memory(game)
            .ok_or_else(|| ApiError::refused(RefusalCode::GameNotKept))
    }

    /// The game an id prefix names, put in memory for the request.
    fn resolve_game(&mut self, prefix: &str) -> Result<GameId, ApiError> {
        let p = prefix.trim().to_ascii_lowercase();
        if p.is_empty() {
            return Err(ApiError::refused(RefusalCode::NoGameId));
        }
        let matches: Vec<GameId> = self
            .summaries()
            .keys()
            .filter(|g| g.to_hex().starts_with(&p))
            .copied()
            .collect();
        match matches.as_slice() {
            [g] => {
                self.make_hot(g).map_err(internal)?;
                Ok(*g)
            }
            [] => Err(ApiError::refused(RefusalCode::UnknownGame {
                prefix: prefix.to_owned(),
            })),
            many => Err(ApiError::refused(RefusalCode::AmbiguousGame {
                prefix: prefix.to_owned(),
                count: many.len(),
            })),
        }
    }

    /// `games`: the player's games (a mailbox's or arbiter's too), the player's move first.
    fn games_reply(&self) -> GamesReply {
        let now = now_ms();
        let me = *self.player();
        let mut games: Vec<GameSummary> = self
            .summaries()
            .values()
            .filter(|s| s.plays(&me) || self.is_mailbox() || s.arbiters.contains(&me))
            .map(|s| {
                let mut g = view::summary(s, &me, now);
                g.opponent_name = view::opponent_of(s.challenger, s.opponent, &me)
                    .and_then(|other| self.name_of(&other));
                g
            })
            .collect();
        // My move first, then the most urgent (least time left), then the rest.
        games.sort_by(|a, b| {
            let key = |g: &GameSummary| {
                (
                    !g.my_move,
                    !g.incoming_challenge,
                    g.ms_to_deadline.unwrap_or(i64::MAX),
                )
            };
            key(a).cmp(&key(b)).then_with(|| a.game.cmp(&b.game))
        });
        GamesReply { games }
    }

    /// The view of a game's state for the player, with the players' names.
    fn show(&self, state: &GameState) -> GameView {
        let mut v = view::game_view(state, Some(self.player()), now_ms());
        let mut players = vec![state.challenger, state.opponent];
        players.extend(view::arbiters(state));
        v.names = self.names_of(&players);
        v
    }

    /// The name a player goes by here: the player's own, or the latest profile received.
    fn name_of(&self, p: &PlayerId) -> Option<String> {
        if p == self.player() {
            return self.own_profile().map(|o| o.name.clone());
        }
        self.db()
            .profile(p)
            .ok()
            .flatten()
            .and_then(|s| s.decode_unverified().ok())
            .map(|p| p.name)
    }

    /// A player's name in an exported PGN (`White`, `Black`): the name the player signed,
    /// else the player's contact alias, else the player id. The signed name comes first
    /// here, unlike on screen: an exported game is read by others, to whom a private alias
    /// means nothing.
    fn pgn_name(&self, p: &PlayerId) -> String {
        if let Some(n) = self.name_of(p) {
            return n;
        }
        let id = p.to_string();
        std::fs::read_to_string(self.home_dir().join(home::CONTACTS_FILE))
            .ok()
            .and_then(|t| serde_json::from_str::<BTreeMap<String, String>>(&t).ok())
            .and_then(|m| {
                m.into_iter()
                    .find(|(_, v)| *v == id)
                    .map(|(alias, _)| alias)
            })
            .unwrap_or(id)
    }

    /// Names of `players`, by player id text (those with none are left out).
    fn names_of<'a>(
        &self,
        players: impl IntoIterator<Item = &'a PlayerId>,
    ) -> BTreeMap<String, String> {
        players
            .into_iter()
            .filter_map(|p| self.name_of(p).map(|n| (p.to_string(), n)))
            .collect()
    }

    /// `profiles`: the player's own profile and those received.
    fn profiles_reply(&self) -> ProfilesReply {
        let players = self
            .db()
            .profiles()
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(_, s)| s.decode_unverified().ok())
            .map(|p| profile_view(&p))
            .collect();
        ProfilesReply {
            me: self.own_profile().map(profile_view),
            players,
        }
    }

    /// Every league whose definition this home holds, with the players its roster
    /// decisions leave (definitions that no longer verify are skipped with a warning: never
    /// served).
    fn leagues(&self) -> Vec<League> {
        self.db()
            .leagues()
            .into_iter()
            .filter_map(|doc| match doc {
                Ok(doc) => match League::from_signed(&doc) {
                    Ok(l) => Some(self.amended(l)),
                    Err(e) => {
                        warn!("stored league definition does not verify, not served: {e}");
                        None
                    }
                },
                Err(e) => {
                    warn!("stored league definition is damaged, not served: {e}");
                    None
                }
            })
            .collect()
    }

    /// A league this home holds, by id, with the players its roster decisions leave.
    fn league_of(&self, league: &LeagueId) -> Option<League> {
        let doc = self.db().league_get(league).ok()??;
        League::from_signed(&doc).ok().map(|l| self.amended(l))
    }

    /// The league as its roster decisions leave it (see `decision::amend`), a started game
    /// being one this home holds past its challenge.
    fn amended(&self, league: League) -> League {
        // Most leagues have no roster decision: nothing to verify then.
        let decisions: Vec<SignedLeagueDoc> = self
            .db()
            .decisions_of(&league.id)
            .into_iter()
            .filter_map(Result::ok)
            .filter(decision::is_roster_decision)
            .collect();
        if decisions.is_empty() {
            return league;
        }
        let started: decision::Started = self
            .summaries()
            .values()
            .filter(|s| !matches!(s.status, Status::Pending | Status::Cancelled))
            .filter_map(|s| {
                let lr = s.league.as_ref().filter(|lr| lr.league == league.id)?;
                Some((lr.round, s.white?, s.black?))
            })
            .collect();
        decision::amend(&league, &decisions, &started).league
    }

    /// The verified joins of a league: of a player of the definition as signed, or of the
    /// list its roster decisions leave. A replaced player's join stays among them, so the
    /// count of a league's documents only grows (a peer's acknowledged count then always
    /// tells whether it lacks something: a replacement that dropped a join while adding a
    /// decision would otherwise look like nothing new).
    fn league_joins(&self, league: &League) -> Vec<(PlayerId, SignedLeagueDoc)> {
        let base = League::from_signed(&league.signed).ok();
        self.db()
            .joins_of(&league.id)
            .into_iter()
            .filter_map(|doc| {
                let doc = doc.ok()?;
                let p = league
                    .check_join(&doc)
                    .ok()
                    .or_else(|| base.as_ref()?.check_join(&doc).ok())?;
                Some((p, doc))
            })
            .collect()
    }

    fn joined(&self, league: &League, player: &PlayerId) -> bool {
        self.db().has_join(&league.id, player).unwrap_or(false)
    }

    /// The arbiters' decisions about a league this home keeps (their signers checked
    /// again; what they say is checked when the table is computed).
    fn league_decisions(&self, league: &League) -> Vec<SignedLeagueDoc> {
        self.db()
            .decisions_of(&league.id)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|d| league.check_signer(d).is_ok())
            .collect()
    }

    /// The league a text names: a prefix of its id, or its exact name.
    fn resolve_league(&self, text: &str) -> Result<League, ApiError> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        let matches: Vec<League> = self
            .leagues()
            .into_iter()
            .filter(|l| (!lower.is_empty() && l.id.to_hex().starts_with(&lower)) || l.def.name == t)
            .collect();
        let n = matches.len();
        let mut matches = matches.into_iter();
        match (matches.next(), n) {
            (Some(l), 1) => Ok(l),
            (None, _) => Err(ApiError::refused(RefusalCode::UnknownLeague {
                text: t.to_owned(),
            })),
            _ => Err(ApiError::refused(RefusalCode::AmbiguousLeague {
                text: t.to_owned(),
                count: n,
            })),
        }
    }

    /// The league games this home holds, with their signed events (as stored: each was
    /// verified before it was stored, and the standings verify them again).
    fn league_games(&self, league: &League) -> Vec<GameEntry> {
        let mut out: Vec<GameEntry> = self
            .summaries()
            .iter()
            .filter(|(_, s)| s.league.as_ref().is_some_and(|lr| lr.league == league.id))
            // A declined or aborted challenge has no result: a duplicate one node declined
            // when both players' nodes challenged is no part of the league's record.
            .filter(|(_, s)| s.status != Status::Cancelled)
            .filter_map(|(g, _)| {
                let events: Vec<SignedEvent> = match self.in_memory(g) {
                    Some((events, _)) => events.iter().map(|v| v.signed.clone()).collect(),
                    None => self.db().events(g).ok()?,
                };
                // Stored equivocation proofs count in every member's table alike (12.8).
                let proofs = dispute::proofs(self.db(), g);
                Some(GameEntry {
                    game: *g,
                    events,
                    proofs,
                })
            })
            .collect();
        out.sort_by_key(|g| g.game);
        out
    }

    /// A league as `league list` shows it.
    fn league_view(&self, league: &League) -> LeagueView {
        let me = *self.player();
        let joined: Vec<String> = self
            .league_joins(league)
            .iter()
            .map(|(p, _)| p.to_string())
            .collect();
        let role = if league.organiser == me {
            "organiser"
        } else if league.deputy == Some(me) {
            "deputy"
        } else if self.joined(league, &me) {
            "player"
        } else if league.def.players.contains(&me) {
            "invited"
        } else {
            "witness"
        };
        LeagueView {
            league: league.id.to_hex(),
            name: league.def.name.clone(),
            organiser: league.organiser.to_string(),
            deputy: league.deputy.map(|d| d.to_string()),
            players: league.def.players.iter().map(ToString::to_string).collect(),
            names: league.def.names.clone(),
            joined,
            role: role.to_owned(),
            double: league.def.double,
            time_control: league.def.time_control.clone(),
            start_ms: league.def.start_ms,
            round_days: league.def.round_days,
            rounds: league.rounds().len(),
            open_rounds: league.open_rounds(now_ms()).len(),
            games: self.league_games(league).len(),
        }
    }
}
