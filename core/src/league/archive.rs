//! The league archive: one text file with the signed league definition, the players' joins
//! and every game's signed events, so that anyone can recompute the standings offline
//! (`sobre league verify FILE`).
//!
//! ```text
//! sobre-league 1
//! doc <hex of the signed definition>
//! doc <hex of a signed join>            (any number)
//! doc <hex of a signed decision>        (any number: the arbiters', see `decision`)
//! game <64 hex digits>
//! event <hex of a signed event>         (the game's events, as in a game archive)
//! game …
//! ```
//!
//! Blank lines and lines starting with `#` are ignored. Reading checks the form only; the
//! definition's signature is checked by [`read`], the games by
//! [`standings`](super::standings()).

use super::{GameEntry, League, LeagueError, SignedLeagueDoc};
use crate::record::export::{ArchiveError, MAX_ARCHIVE_BYTES, decode_hex, split_record};
use crate::record::{EventId, PlayerId, SignedEvent};
use std::fmt::Write as _;

/// The first line of a league archive.
pub const HEADER: &str = "sobre-league 1";

/// A league archive, read.
#[derive(Clone, Debug)]
pub struct LeagueArchive {
    pub league: League,
    /// Players whose join verifies.
    pub joined: Vec<PlayerId>,
    /// Joins that do not verify, with the reason.
    pub bad_joins: Vec<(usize, String)>,
    /// The arbiter's decisions as written (checked when applied: see
    /// [`decision::apply`](super::decision::apply)).
    pub decisions: Vec<SignedLeagueDoc>,
    pub games: Vec<GameEntry>,
}

/// Why a text is not a league archive.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LeagueArchiveError {
    #[error("not a league archive: the first line must be `{HEADER}`")]
    BadHeader,
    #[error(transparent)]
    Form(#[from] ArchiveError),
    #[error("line {line}: {what}")]
    Line { line: usize, what: String },
    #[error("the archive has no league definition")]
    NoDefinition,
    #[error("the league definition does not verify: {0}")]
    Definition(LeagueError),
}

/// Writes a league archive.
///
/// # Errors
/// Only if something cannot be encoded (never in practice).
pub fn write(
    league: &League,
    joins: &[SignedLeagueDoc],
    decisions: &[SignedLeagueDoc],
    games: &[GameEntry],
) -> Result<String, crate::record::codec::CodecError> {
    let mut out = format!("{HEADER}\n# {}\n", league.def.name.replace('\n', " "));
    let hex = |out: &mut String, kw: &str, bytes: &[u8]| {
        out.push_str(kw);
        out.push(' ');
        for b in bytes {
            let _ = write!(out, "{b:02x}");
        }
        out.push('\n');
    };
    hex(&mut out, "doc", &league.signed.to_bytes()?);
    for j in joins.iter().chain(decisions) {
        hex(&mut out, "doc", &j.to_bytes()?);
    }
    for g in games {
        let _ = writeln!(out, "game {}", g.game.to_hex());
        for e in &g.events {
            hex(&mut out, "event", &e.to_bytes()?);
        }
        // The twins a node keeps beside its log (equivocation proofs) travel as events, so
        // that `verify` rules the equivocation (12.8/12.9) for whoever reads the archive, as
        // the node's own table does.
        let mut written: Vec<EventId> = g.events.iter().map(SignedEvent::id).collect();
        for e in g.proofs.iter().flat_map(|p| [&p.first, &p.second]) {
            if !written.contains(&e.id()) {
                written.push(e.id());
                hex(&mut out, "event", &e.to_bytes()?);
            }
        }
    }
    Ok(out)
}

/// Reads a league archive and checks the definition's signature and the joins.
///
/// # Errors
/// [`LeagueArchiveError`] naming the first bad line.
pub fn read(text: &str) -> Result<LeagueArchive, LeagueArchiveError> {
    if text.len() > MAX_ARCHIVE_BYTES {
        return Err(ArchiveError::TooLarge {
            len: text.len(),
            limit: MAX_ARCHIVE_BYTES,
        }
        .into());
    }
    let mut lines = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        });
    match lines.next() {
        Some((_, l)) if l.trim() == HEADER => {}
        _ => return Err(LeagueArchiveError::BadHeader),
    }
    let mut docs: Vec<(usize, SignedLeagueDoc)> = Vec::new();
    let mut games: Vec<GameEntry> = Vec::new();
    for (line, raw) in lines {
        let Some((kw, value, column)) = split_record(raw) else {
            continue;
        };
        match kw {
            "doc" if games.is_empty() => {
                let bytes = decode_hex(value, line, column)?;
                let doc =
                    SignedLeagueDoc::from_bytes(&bytes).map_err(|e| LeagueArchiveError::Line {
                        line,
                        what: format!("league document does not decode: {e}"),
                    })?;
                docs.push((line, doc));
            }
            "game" => {
                let game = EventId::from_hex(value).ok_or_else(|| LeagueArchiveError::Line {
                    line,
                    what: format!("expected `game <64 hex digits>`, found {:?}", raw.trim()),
                })?;
                games.push(GameEntry {
                    game,
                    events: Vec::new(),
                    proofs: Vec::new(),
                });
            }
            "event" => {
                let Some(g) = games.last_mut() else {
                    return Err(LeagueArchiveError::Line {
                        line,
                        what: "an event before any `game` line".into(),
                    });
                };
                let bytes = decode_hex(value, line, column)?;
                let e = SignedEvent::from_bytes(&bytes).map_err(|e| LeagueArchiveError::Line {
                    line,
                    what: format!("event does not decode: {e}"),
                })?;
                g.events.push(e);
            }
            other => {
                return Err(LeagueArchiveError::Line {
                    line,
                    what: format!("unexpected {other:?} (expected doc, game or event)"),
                });
            }
        }
    }
    let mut docs = docs.into_iter();
    let (_, def) = docs.next().ok_or(LeagueArchiveError::NoDefinition)?;
    let league = League::from_signed(&def).map_err(LeagueArchiveError::Definition)?;
    let mut joined = Vec::new();
    let mut bad_joins = Vec::new();
    let (decisions, others): (Vec<_>, Vec<_>) =
        docs.partition(|(_, d)| super::decision::is_decision(d));
    let decisions: Vec<SignedLeagueDoc> = decisions.into_iter().map(|(_, d)| d).collect();
    // A player who entered late (or replaced another) before round 1 joins like the others:
    // their join is checked against the list the roster decisions leave (whether a started
    // game leaves one without effect is for the standings to say).
    let amended = super::decision::amend(&league, &decisions, &Default::default()).league;
    for (line, d) in others {
        let check = league.check_join(&d);
        let check = match check {
            Err(LeagueError::NotAPlayer { .. }) => amended.check_join(&d),
            other => other,
        };
        match check {
            Ok(p) if !joined.contains(&p) => joined.push(p),
            Ok(_) => {}
            Err(e) => bad_joins.push((line, e.to_string())),
        }
    }
    Ok(LeagueArchive {
        league,
        joined,
        bad_joins,
        decisions,
        games,
    })
}
