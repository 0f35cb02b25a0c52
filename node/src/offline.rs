//! Reading a home while its node is stopped: `sobre games`, `show`, `export`, `envelope`,
//! `league …` open the home's database themselves, answer with the node's own code
//! (`service::reads`), and close it at once. `peers list` and `block` (the list) answer
//! from the same database: no peer is connected, the remembered ones and the blocked
//! players are as the node left them.
//!
//! sled allows one process at a time (an exclusive lock on its files): the read takes it
//! only when no node answers on the home's socket, holds it for the one request, and a
//! node started meanwhile waits for it ([`crate::store::Store::open_waiting`]). While the
//! node is stopped nothing writes the database, so the answer is exactly what the node
//! would have said when it stopped — only what peers sent since has not arrived: the view
//! may be stale, and the CLI says so.

use crate::api::replies::{BlockReply, PeersReply, Reply};
use crate::api::request;
use crate::api::{ApiError, ApiRequest};
use crate::home::{self, KeyError};
use crate::service::reads::{self, ReadSide, Unavailable};
use crate::store::{Store, StoreError};
use crate::view::Summary;
use sobre_core::record::{GameId, GameState, PlayerId, Profile, VerifiedEvent};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Why a read without the node failed.
#[derive(Debug, thiserror::Error)]
pub enum OfflineError {
    /// The request writes: only the node may sign and store.
    #[error("only the node can do this")]
    NotARead,
    /// Another process holds the database: a node starting, or another command reading.
    #[error("the database in {} is in use (the node is starting, or another sobre command is reading it)", home.display())]
    Busy { home: PathBuf },
    #[error(transparent)]
    Key(#[from] KeyError),
    #[error(transparent)]
    Store(StoreError),
    /// The request was read and refused as the node refuses it (an unknown game…).
    #[error("{}", .0.message)]
    Api(ApiError),
}

/// Answers a read request (`service::reads::is_read`) from the database of the stopped
/// node in `home`, with the reply the node would have given (the caller serializes it, as
/// the node does at its socket).
///
/// # Errors
/// [`OfflineError`]: not a read, the database busy or unreadable, no key, or the node's own
/// refusal ([`OfflineError::Api`]).
pub fn answer(home_dir: &Path, request: ApiRequest) -> Result<Reply, OfflineError> {
    if !is_offline_read(&request) {
        return Err(OfflineError::NotARead);
    }
    let key = home::load_key(home_dir)?;
    let store = Store::open(&home::db_path(home_dir)).map_err(|e| match e {
        StoreError::Busy { .. } => OfflineError::Busy {
            home: home_dir.to_path_buf(),
        },
        other => OfflineError::Store(other),
    })?;
    let listed = match request {
        // Nothing is connected to a stopped node; what it remembers is in the store.
        ApiRequest::Peers(request::Peers {}) => Some(Reply::from(PeersReply {
            connected: Vec::new(),
            known: reads::known_peers(&store),
        })),
        ApiRequest::Block(request::Block { player: None, .. }) => Some(Reply::from(BlockReply {
            blocked: crate::service::block::stored_blocked(&store)
                .iter()
                .map(ToString::to_string)
                .collect(),
        })),
        _ => None,
    };
    if let Some(reply) = listed {
        drop(store);
        return Ok(reply);
    }
    // Games that no longer verify are left out, as the node leaves them out.
    let games = reads::load_summaries(&store)
        .map_err(OfflineError::Store)?
        .games;
    // The name the node signs from `profile.json` (none if it has no name, or is invalid:
    // the node then sends none either).
    let own = crate::profile::signed(home_dir, &key)
        .ok()
        .flatten()
        .and_then(|s| s.decode_unverified().ok());
    // A mailbox lists every game it holds, as its node does: known from its saved settings
    // (a node run with `--mailbox` only on its command line lists the player's own).
    let mailbox = crate::settings::load(home_dir)
        .ok()
        .flatten()
        .is_some_and(|s| s.mailbox);
    let mut reader = Reader {
        mailbox,
        home: home_dir.to_path_buf(),
        me: key.player_id(),
        store,
        games,
        hot: HashMap::new(),
        own,
    };
    let reply = reader.answer_read(request).map_err(OfflineError::Api)?;
    // The database closes here, before the answer is printed.
    drop(reader);
    Ok(reply)
}

/// Whether [`answer`] can answer `req` without the node: the node's reads
/// ([`reads::is_read`]), the remembered peers and the blocked players' list.
pub fn is_offline_read(req: &ApiRequest) -> bool {
    reads::is_read(req)
        || matches!(
            req,
            ApiRequest::Peers(request::Peers {})
                | ApiRequest::Block(request::Block { player: None, .. })
        )
}

/// A stopped node's home, read.
struct Reader {
    home: PathBuf,
    me: PlayerId,
    store: Store,
    games: HashMap<GameId, Summary>,
    hot: HashMap<GameId, (Vec<VerifiedEvent>, GameState)>,
    own: Option<Profile>,
    mailbox: bool,
}

impl ReadSide for Reader {
    fn player(&self) -> &PlayerId {
        &self.me
    }
    fn home_dir(&self) -> &Path {
        &self.home
    }
    fn db(&self) -> &Store {
        &self.store
    }
    fn summaries(&self) -> &HashMap<GameId, Summary> {
        &self.games
    }
    fn is_mailbox(&self) -> bool {
        self.mailbox
    }
    fn own_profile(&self) -> Option<&Profile> {
        self.own.as_ref()
    }
    fn make_hot(&mut self, game: &GameId) -> Result<(), Unavailable> {
        if self.hot.contains_key(game) {
            return Ok(());
        }
        if !self.games.contains_key(game) {
            return Err(Unavailable::UnknownGame);
        }
        let (events, state, _) = reads::load_game(&self.store, game)?;
        self.hot.insert(*game, (events, state));
        Ok(())
    }
    fn in_memory(&self, game: &GameId) -> Option<(&[VerifiedEvent], &GameState)> {
        self.hot.get(game).map(|(e, s)| (e.as_slice(), s))
    }
    fn league_not_received(&self, league: &sobre_core::league::League) -> Option<usize> {
        // What the organiser holds is asked by the running node only; an organiser holds
        // every game of its league.
        (league.organiser == self.me).then_some(0)
    }
}
