//! Club leagues: a signed definition of a round robin, the players' signed joins, Berger
//! pairings, and standings computed only from verified games.
//!
//! A league is named by the id of its definition. The definition and the joins are *league
//! documents*, signed like events but under their own domain (`"sobre/league/v1\0"`), so a
//! signature on one can never be replayed as a game event or the other way round.
//!
//! A league game is an ordinary game whose challenge carries
//! [`LeagueRound`](crate::record::LeagueRound): the standings take a game only if it
//! verifies, names this league, and is the pairing the Berger table gives for its round
//! (same players, same colours, see [`berger`]).
//!
//! The organiser may play in their own league only if the definition names a *deputy
//! arbiter* ([`LeagueKind::DefineWithDeputy`]): a player id, not one of the players, who
//! signs the decisions about the organiser's own games (see [`decision`]). A witness must
//! not judge its own games, so the organiser never signs those, and the deputy, who would
//! have nobody to judge the game between the two, may not play.
//!
//! A definition may add *rules of the competition* ("bases de la competición", which the
//! Laws leave to the organiser): [`LeagueRule::StartDeadline`], how long after a round opens
//! its games must have started (FIDE 6.6 of 2009, 6.7 of 2005, club rules art. 17b; see
//! [`deadline`]). Such a definition is kind [`LeagueKind::DefineWithRules`]; a league
//! without rules keeps kind 0 or 3, and so its bytes, its id and its meaning.

pub mod archive;
pub mod berger;
mod checked;
pub mod deadline;
pub mod decision;
pub mod pgn;
pub mod render;
pub mod roster;
pub mod standings;
pub mod tiebreak;

use crate::record::codec::{self, CodecError, MAX_EVENT_BYTES};
use crate::record::identity::{as_text, domain_message, join_signature, split_signature};
use crate::record::{EventId, Keypair, PlayerId};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use berger::Board;
pub use standings::{GameEntry, GameNote, Row, Standings, standings};

/// A league is named by the id of its signed definition.
pub type LeagueId = EventId;

/// The version every league document carries.
pub const LEAGUE_VERSION: u16 = 1;
const SIGN_DOMAIN: &[u8] = b"sobre/league/v1\0";
const ID_DOMAIN: &[u8] = b"sobre/league-id/v1\0";
/// One day in milliseconds (round lengths are given in days).
pub const DAY_MS: u64 = 86_400_000;

/// Points for a win, a draw and a loss, in half points. FIDE Art. 11.1 (2009 text) and
/// Art. 10 (2005): "the player who wins his game, or wins by forfeit, scores one point (1),
/// the player who loses his game, or forfeits, scores no points (0) and a player who draws
/// his game scores a half point (½)".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scoring {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

impl Default for Scoring {
    fn default() -> Scoring {
        Scoring {
            win: 2,
            draw: 1,
            loss: 0,
        }
    }
}

/// The terms of a league, as the organiser signs them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueDef {
    pub name: String,
    /// In Berger order: the first is number 1 of the tables.
    pub players: Vec<PlayerId>,
    /// Display names, one per player (the organiser's spelling).
    pub names: Vec<String>,
    pub double: bool,
    /// Time control of every game, in the text form of [`crate::clock`].
    pub time_control: String,
    /// When round 1 opens, ms since the Unix epoch.
    pub start_ms: u64,
    /// Days between round openings; 0 opens every round at the start.
    pub round_days: u32,
    pub scoring: Scoring,
}

/// The longest start deadline a league may set: a year (a longer one would never be reached
/// before the league ends, and bounds the arithmetic).
pub const MAX_START_DEADLINE_MS: u64 = 366 * DAY_MS;

/// A rule of the competition ("bases de la competición") the organiser signs with the
/// definition. A wire enum: append only; a definition lists each kind at most once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LeagueRule {
    /// 0: every game of a round must have started `after_open_ms` after the round opens
    /// ([`League::round_opens_ms`]); a pairing not started by then is forfeited by the
    /// player(s) absent, judged from signed evidence alone (see [`deadline`]). FIDE 6.6
    /// (2009): "Cualquier jugador que se presente ante el tablero luego del comienzo de la
    /// sesión perderá la partida … Las bases de la competición podrán especificar otra
    /// cosa"; 6.7 (2005) and the club rules (art. 17b): more than an hour late loses.
    /// A correspondence league gives days, not an hour: this is that tolerance.
    StartDeadline { after_open_ms: u64 },
}

impl LeagueRule {
    /// The deadline this rule sets, if it is [`LeagueRule::StartDeadline`].
    pub fn start_deadline(&self) -> Option<u64> {
        match *self {
            LeagueRule::StartDeadline { after_open_ms } => Some(after_open_ms),
        }
    }
}

/// What a league document says. Tags are the declaration order: append only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LeagueKind {
    /// 0: the organiser defines the league; the document's id is the league id.
    Define(LeagueDef),
    /// 1: a player joins (and so accepts the league's games in advance).
    Join { league: LeagueId },
    /// 2: an arbiter's decision, signed by the league's organiser (see [`decision`]).
    Decision {
        league: LeagueId,
        decision: decision::Decision,
    },
    /// 3: the organiser defines a league they play in, naming the deputy arbiter who signs
    /// the decisions about the organiser's own games. A variant of its own so that every
    /// definition without a deputy keeps its bytes, and so its id (the league's name).
    DefineWithDeputy { def: LeagueDef, deputy: PlayerId },
    /// 4: the organiser defines a league with rules of the competition (1 or more, each
    /// kind once), with or without a deputy arbiter. A variant of its own so that every
    /// definition signed before keeps its bytes and its meaning (no rules, no deadline);
    /// a build that does not know it refuses the definition as undecodable instead of
    /// reading it without its rules. A definition without rules is never this kind (one
    /// meaning, one encoding, one id).
    DefineWithRules {
        def: LeagueDef,
        deputy: Option<PlayerId>,
        rules: Vec<LeagueRule>,
    },
}

/// A league document before signing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueDoc {
    pub version: u16,
    pub author: PlayerId,
    pub time_ms: u64,
    pub kind: LeagueKind,
}

/// A league document as signed: the body exactly as received, and the signature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedLeagueDoc {
    pub body: Vec<u8>,
    pub signature: ([u8; 32], [u8; 32]),
}

/// Why a league document or a league is not acceptable.
///
/// Serialized (tagged by `kind`, snake case, a player by their id's text) as the control
/// API's league refusal carries the kinds a player or an organiser meets; the others
/// (`#[serde(skip)]`: a document's decoding, version, signature and shape) are never sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LeagueError {
    #[error("undecodable league document: {0}")]
    #[serde(skip)]
    Codec(#[from] CodecError),
    #[error("unsupported league document version {0} (this build reads {LEAGUE_VERSION})")]
    #[serde(skip)]
    Version(u16),
    #[error("bad signature on a league document by {0}")]
    #[serde(skip)]
    BadSignature(PlayerId),
    #[error("not a league definition")]
    #[serde(skip)]
    NotADefinition,
    #[error("a league needs 3 to 64 players (Berger tables), this one has {count}")]
    PlayerCount { count: usize },
    #[error("player {player} is listed twice")]
    DuplicatePlayer {
        #[serde(with = "as_text")]
        player: PlayerId,
    },
    #[error("{names} names for {players} players")]
    Names { names: usize, players: usize },
    #[error(
        "the organiser plays: name a deputy arbiter to decide the organiser's own games (a witness must not judge its own games)"
    )]
    OrganiserPlays,
    #[error("the deputy arbiter cannot be the organiser: the deputy decides the organiser's games")]
    DeputyIsOrganiser,
    #[error(
        "the deputy arbiter {deputy} may not play: nobody could decide the game between the organiser and the deputy"
    )]
    DeputyPlays {
        #[serde(with = "as_text")]
        deputy: PlayerId,
    },
    #[error(
        "a deputy arbiter decides only the organiser's own games, and the organiser does not play"
    )]
    DeputyWithoutGames,
    /// The definition's time control `text` does not parse (`reason`: why).
    #[error("invalid time control {text:?}: {reason}")]
    #[serde(skip)]
    TimeControl { text: String, reason: String },
    #[error("a name is empty or longer than 100 characters")]
    BadName,
    #[error("the join is for league {joined}, not {league}")]
    #[serde(skip)]
    OtherLeague { joined: LeagueId, league: LeagueId },
    #[error("{player} is not a player of this league")]
    NotAPlayer {
        #[serde(with = "as_text")]
        player: PlayerId,
    },
    #[error("not a join: an arbiter's decision")]
    #[serde(skip)]
    NotAJoin,
    /// `ms`: the deadline asked for, after the round opens.
    #[error(
        "a start deadline is 1 ms to {MAX_START_DEADLINE_MS} ms (366 days) after the round opens, not {ms} ms"
    )]
    StartDeadline { ms: u64 },
    #[error("the rule {0:?} is listed twice")]
    #[serde(skip)]
    RepeatedRule(LeagueRule),
    #[error("a definition of kind 4 lists at least one rule (without rules it is kind 0 or 3)")]
    #[serde(skip)]
    NoRules,
}

/// A league document whose signature has been checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedDoc {
    pub id: EventId,
    pub doc: LeagueDoc,
    pub signed: SignedLeagueDoc,
}

fn id_of(body: &[u8]) -> EventId {
    let mut h = Sha256::new();
    h.update(ID_DOMAIN);
    h.update(body);
    EventId(h.finalize().into())
}

fn signing_bytes(body: &[u8]) -> Vec<u8> {
    domain_message(SIGN_DOMAIN, body)
}

impl SignedLeagueDoc {
    /// Signs a document with the author's key.
    ///
    /// # Errors
    /// Only if the document cannot be encoded (never for well-formed documents).
    pub fn sign(doc: &LeagueDoc, key: &Keypair) -> Result<SignedLeagueDoc, CodecError> {
        let body = codec::encode(doc)?;
        let sig = key.sign(&signing_bytes(&body));
        Ok(SignedLeagueDoc {
            body,
            signature: split_signature(&sig),
        })
    }

    pub fn id(&self) -> EventId {
        id_of(&self.body)
    }

    /// The wire form.
    ///
    /// # Errors
    /// Never in practice.
    pub fn to_bytes(&self) -> Result<Vec<u8>, CodecError> {
        codec::encode(self)
    }

    /// Reads the wire form, size-capped and canonical.
    ///
    /// # Errors
    /// [`CodecError`] if the bytes are not one canonical signed document.
    pub fn from_bytes(bytes: &[u8]) -> Result<SignedLeagueDoc, CodecError> {
        codec::decode(bytes, MAX_EVENT_BYTES + 128)
    }

    /// Decodes and checks the signature (`verify_strict`).
    ///
    /// # Errors
    /// [`LeagueError`] naming the problem.
    pub fn verify(&self) -> Result<VerifiedDoc, LeagueError> {
        let doc: LeagueDoc = codec::decode(&self.body, MAX_EVENT_BYTES)?;
        if doc.version != LEAGUE_VERSION {
            return Err(LeagueError::Version(doc.version));
        }
        // Checked once per process (see `checked`): a league is read on every connection.
        let key = checked::key(&self.body, &self.signature);
        if !checked::is_known_good(&key) {
            if !doc
                .author
                .verify(&signing_bytes(&self.body), &join_signature(&self.signature))
            {
                return Err(LeagueError::BadSignature(doc.author));
            }
            checked::remember_good(key);
        }
        Ok(VerifiedDoc {
            id: self.id(),
            doc,
            signed: self.clone(),
        })
    }
}

/// A verified league definition, with what follows from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct League {
    pub id: LeagueId,
    pub organiser: PlayerId,
    /// The deputy arbiter, who signs the decisions about the organiser's own games.
    pub deputy: Option<PlayerId>,
    pub created_ms: u64,
    /// The rules of the competition signed with the definition (empty for kinds 0 and 3).
    pub rules: Vec<LeagueRule>,
    /// The terms as signed; the players and names as the roster decisions left them when
    /// the league came from [`decision::amend`] (a late entry, a replacement), with `signed`
    /// still the definition as the organiser signed it.
    pub def: LeagueDef,
    pub signed: SignedLeagueDoc,
}

impl League {
    /// Checks a signed definition: signature, player list, names and time control.
    ///
    /// # Errors
    /// [`LeagueError`] naming what is wrong.
    pub fn from_signed(signed: &SignedLeagueDoc) -> Result<League, LeagueError> {
        let v = signed.verify()?;
        let (def, deputy, rules) = match v.doc.kind {
            LeagueKind::Define(def) => (def, None, Vec::new()),
            LeagueKind::DefineWithDeputy { def, deputy } => (def, Some(deputy), Vec::new()),
            LeagueKind::DefineWithRules { def, deputy, rules } => {
                if rules.is_empty() {
                    return Err(LeagueError::NoRules);
                }
                (def, deputy, rules)
            }
            LeagueKind::Join { .. } | LeagueKind::Decision { .. } => {
                return Err(LeagueError::NotADefinition);
            }
        };
        check_def(&def, &v.doc.author, deputy.as_ref())?;
        check_rules(&rules)?;
        Ok(League {
            id: v.id,
            organiser: v.doc.author,
            deputy,
            created_ms: v.doc.time_ms,
            rules,
            def,
            signed: v.signed,
        })
    }

    /// Signs a new league definition (the organiser does not play).
    ///
    /// # Errors
    /// [`LeagueError`] if the definition is not acceptable.
    pub fn create(key: &Keypair, def: LeagueDef, now_ms: u64) -> Result<League, LeagueError> {
        League::create_with_deputy(key, def, None, now_ms)
    }

    /// Signs a new league definition; with a deputy arbiter, the organiser plays in it.
    /// Without one it is the same document [`League::create`] signs.
    ///
    /// # Errors
    /// [`LeagueError`] if the definition is not acceptable.
    pub fn create_with_deputy(
        key: &Keypair,
        def: LeagueDef,
        deputy: Option<PlayerId>,
        now_ms: u64,
    ) -> Result<League, LeagueError> {
        League::create_with_rules(key, def, deputy, Vec::new(), now_ms)
    }

    /// Signs a new league definition with rules of the competition (see [`LeagueRule`]).
    /// Without rules it is the same document [`League::create_with_deputy`] signs, so the
    /// same league.
    ///
    /// # Errors
    /// [`LeagueError`] if the definition or a rule is not acceptable.
    ///
    /// # Examples
    /// ```
    /// # use sobre_core::league::{League, LeagueDef, LeagueRule, Scoring, DAY_MS};
    /// # use sobre_core::record::Keypair;
    /// let key = |n: u8| Keypair::from_secret_bytes(&[n; 32]);
    /// let def = LeagueDef {
    ///     name: "Liga".into(),
    ///     players: (1..=4).map(|i| key(i).player_id()).collect(),
    ///     names: ["Ana", "Bruno", "Carmen", "Diego"].map(String::from).to_vec(),
    ///     double: false,
    ///     time_control: "3d".into(),
    ///     start_ms: 1_700_000_000_000,
    ///     round_days: 7,
    ///     scoring: Scoring::default(),
    /// };
    /// // FIDE 6.6: every game must have started within two days of its round's opening.
    /// let rule = LeagueRule::StartDeadline { after_open_ms: 2 * DAY_MS };
    /// let league = League::create_with_rules(&key(100), def, None, vec![rule], 0)?;
    /// assert_eq!(league.start_deadline_ms(2), Some(1_700_000_000_000 + 9 * DAY_MS));
    /// # Ok::<(), sobre_core::league::LeagueError>(())
    /// ```
    pub fn create_with_rules(
        key: &Keypair,
        def: LeagueDef,
        deputy: Option<PlayerId>,
        rules: Vec<LeagueRule>,
        now_ms: u64,
    ) -> Result<League, LeagueError> {
        check_def(&def, &key.player_id(), deputy.as_ref())?;
        check_rules(&rules)?;
        let kind = match (deputy, rules.is_empty()) {
            (None, true) => LeagueKind::Define(def),
            (Some(deputy), true) => LeagueKind::DefineWithDeputy { def, deputy },
            (deputy, false) => LeagueKind::DefineWithRules { def, deputy, rules },
        };
        let signed = SignedLeagueDoc::sign(
            &LeagueDoc {
                version: LEAGUE_VERSION,
                author: key.player_id(),
                time_ms: now_ms,
                kind,
            },
            key,
        )?;
        League::from_signed(&signed)
    }

    /// The arbiter of a matter about `players`: the deputy when the organiser is one of
    /// them (the organiser never judges their own game), else the organiser.
    pub fn arbiter_for(&self, players: &[PlayerId]) -> PlayerId {
        match self.deputy {
            Some(d) if players.contains(&self.organiser) => d,
            _ => self.organiser,
        }
    }

    /// Who holds the league's documents and games: the organiser, the deputy and the
    /// players (each once).
    pub fn members(&self) -> Vec<PlayerId> {
        let mut out = vec![self.organiser];
        out.extend(self.deputy);
        for p in &self.def.players {
            if !out.contains(p) {
                out.push(*p);
            }
        }
        out
    }

    /// A player's signed join of this league.
    ///
    /// # Errors
    /// [`LeagueError::NotAPlayer`] if the key is not one of the league's players.
    pub fn join(&self, key: &Keypair, now_ms: u64) -> Result<SignedLeagueDoc, LeagueError> {
        let me = key.player_id();
        if !self.def.players.contains(&me) {
            return Err(LeagueError::NotAPlayer { player: me });
        }
        Ok(SignedLeagueDoc::sign(
            &LeagueDoc {
                version: LEAGUE_VERSION,
                author: me,
                time_ms: now_ms,
                kind: LeagueKind::Join { league: self.id },
            },
            key,
        )?)
    }

    /// Checks a join of this league and gives the player who joined.
    ///
    /// # Errors
    /// [`LeagueError`] if it is not a valid join of this league by one of its players.
    pub fn check_join(&self, signed: &SignedLeagueDoc) -> Result<PlayerId, LeagueError> {
        let v = signed.verify()?;
        match v.doc.kind {
            LeagueKind::Join { league } if league == self.id => {}
            LeagueKind::Join { league } => {
                return Err(LeagueError::OtherLeague {
                    joined: league,
                    league: self.id,
                });
            }
            LeagueKind::Define(_)
            | LeagueKind::DefineWithDeputy { .. }
            | LeagueKind::DefineWithRules { .. } => {
                return Err(LeagueError::NotADefinition);
            }
            LeagueKind::Decision { .. } => return Err(LeagueError::NotAJoin),
        }
        if !self.def.players.contains(&v.doc.author) {
            return Err(LeagueError::NotAPlayer {
                player: v.doc.author,
            });
        }
        Ok(v.doc.author)
    }

    /// The rounds, each a list of boards with Berger numbers (1-based, see [`berger`]).
    pub fn rounds(&self) -> Vec<Vec<Board>> {
        berger::schedule(self.def.players.len(), self.def.double)
    }

    /// The pairing of round `round` (1-based) that `white` and `black` would be, if any.
    pub fn is_pairing(&self, round: u32, white: &PlayerId, black: &PlayerId) -> bool {
        let (Some(w), Some(b)) = (self.number(white), self.number(black)) else {
            return false;
        };
        let rounds = self.rounds();
        let Some(boards) = (round as usize).checked_sub(1).and_then(|i| rounds.get(i)) else {
            return false;
        };
        boards.contains(&Board::Game { white: w, black: b })
    }

    /// The Berger number (1-based) of a player.
    pub fn number(&self, p: &PlayerId) -> Option<usize> {
        self.def.players.iter().position(|q| q == p).map(|i| i + 1)
    }

    /// The player of a Berger number.
    pub fn player(&self, number: usize) -> Option<PlayerId> {
        number
            .checked_sub(1)
            .and_then(|i| self.def.players.get(i))
            .copied()
    }

    /// The display name of a player.
    pub fn name(&self, p: &PlayerId) -> String {
        self.number(p)
            .and_then(|n| self.def.names.get(n - 1).cloned())
            .unwrap_or_else(|| p.short())
    }

    /// When round `round` (1-based) opens.
    pub fn round_opens_ms(&self, round: u32) -> u64 {
        let days = u64::from(round.saturating_sub(1)) * u64::from(self.def.round_days);
        self.def
            .start_ms
            .saturating_add(days.saturating_mul(DAY_MS))
    }

    /// The start deadline of every game (FIDE 6.6, see [`deadline`]): how long after its
    /// round opens a game must have started; `None` when the league sets none (every league
    /// signed before the rule existed).
    pub fn start_deadline(&self) -> Option<u64> {
        self.rules.iter().find_map(LeagueRule::start_deadline)
    }

    /// When the games of round `round` (1-based) must have started by, if the league sets a
    /// start deadline: [`League::round_opens_ms`] plus [`League::start_deadline`].
    pub fn start_deadline_ms(&self, round: u32) -> Option<u64> {
        self.start_deadline()
            .map(|d| self.round_opens_ms(round).saturating_add(d))
    }

    /// The rounds open at `now_ms` (1-based numbers).
    pub fn open_rounds(&self, now_ms: u64) -> Vec<u32> {
        (1..=self.rounds().len() as u32)
            .filter(|r| self.round_opens_ms(*r) <= now_ms)
            .collect()
    }
}

fn check_def(
    def: &LeagueDef,
    organiser: &PlayerId,
    deputy: Option<&PlayerId>,
) -> Result<(), LeagueError> {
    let n = def.players.len();
    if !(berger::MIN_PLAYERS..=berger::MAX_PLAYERS).contains(&n) {
        return Err(LeagueError::PlayerCount { count: n });
    }
    for (i, p) in def.players.iter().enumerate() {
        if def.players[..i].contains(p) {
            return Err(LeagueError::DuplicatePlayer { player: *p });
        }
    }
    check_arbiters(&def.players, organiser, deputy)?;
    if def.names.len() != n {
        return Err(LeagueError::Names {
            names: def.names.len(),
            players: n,
        });
    }
    if !valid_name(&def.name) || !def.names.iter().all(|s| valid_name(s)) {
        return Err(LeagueError::BadName);
    }
    def.time_control
        .parse::<crate::clock::TimeControl>()
        .map_err(|e| LeagueError::TimeControl {
            text: def.time_control.clone(),
            reason: e.to_string(),
        })?;
    Ok(())
}

/// Each rule kind at most once, each within its bounds.
fn check_rules(rules: &[LeagueRule]) -> Result<(), LeagueError> {
    for (i, r) in rules.iter().enumerate() {
        let kind = std::mem::discriminant(r);
        if rules[..i].iter().any(|q| std::mem::discriminant(q) == kind) {
            return Err(LeagueError::RepeatedRule(*r));
        }
        match *r {
            LeagueRule::StartDeadline { after_open_ms } => {
                if !(1..=MAX_START_DEADLINE_MS).contains(&after_open_ms) {
                    return Err(LeagueError::StartDeadline { ms: after_open_ms });
                }
            }
        }
    }
    Ok(())
}

/// The organiser plays only with a deputy; the deputy is neither the organiser nor a player,
/// and is named only if the organiser plays (the deputy's one task is the organiser's
/// games). Checked on the definition and again on every roster decision.
pub(crate) fn check_arbiters(
    players: &[PlayerId],
    organiser: &PlayerId,
    deputy: Option<&PlayerId>,
) -> Result<(), LeagueError> {
    let plays = players.contains(organiser);
    match deputy {
        None if plays => Err(LeagueError::OrganiserPlays),
        None => Ok(()),
        Some(d) if d == organiser => Err(LeagueError::DeputyIsOrganiser),
        Some(d) if players.contains(d) => Err(LeagueError::DeputyPlays { deputy: *d }),
        Some(_) if !plays => Err(LeagueError::DeputyWithoutGames),
        Some(_) => Ok(()),
    }
}

/// A display name: 1 to 100 characters, not blank.
pub(crate) fn valid_name(s: &str) -> bool {
    !s.trim().is_empty() && s.chars().count() <= 100
}

#[cfg(test)]
pub(crate) mod tests;
