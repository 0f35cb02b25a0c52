//! Integrity of the database: damage is found at start, the node then refuses to run (and so
//! never serves what it holds), and `sobre node repair` rebuilds the database from what still
//! verifies, from the player's key and from peers.
//!
//! sled checks its own log, but a damaged log is recovered only up to the damage: whatever
//! was written after it is silently gone, and a value damaged in a way its checksum misses is
//! read back as is. Two checks catch both:
//! - every stored game must still decode and verify;
//! - the *ledger*, a small append-only file next to the database (`<home>/ledger`), lists
//!   every event this node signed (game, sequence number) once the database holding it was
//!   flushed. A game with fewer of the player's own events than the ledger lists has lost
//!   acknowledged events; continuing would let the node sign a second event at a sequence
//!   number already used (an equivocation).
//!
//! After a repair, the games that could not be kept are *wanted*: the node asks every peer
//! that connects for them (a sync from nothing) until they are whole again.
//!
//! Ledger records are framed, 48 bytes each: the magic `SbL1` ‖ game (32) ‖ seq (u64
//! big-endian) ‖ CRC-32 of the 44 bytes before it (big-endian). A reader that meets a record
//! that does not check (torn by a crash while appending, or damaged) skips it and finds the
//! next frame by its magic and checksum, so a torn record in the middle costs that record only,
//! never the ones appended after it (fixed-size chunks from offset 0 would all be misaligned).
//! The ledger is written after the database flush without a sync of its own: after a crash it
//! may lag the database (never a false alarm), it cannot run ahead of it. A ledger of the first
//! format (44-byte records without magic) is rewritten in this one at start.

use crate::error::NodeError;
use crate::home;
use crate::store::{Carried, Store, StoreError};
use sobre_core::record::{GameId, PlayerId, SignedEvent, verify};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use tracing::{info, warn};

/// The size of one framed ledger record.
const RECORD: usize = 48;
/// The start of every record: how a reader finds the next record after a torn one.
const MAGIC: [u8; 4] = *b"SbL1";
/// The size of a record of the first ledger format (no magic, FNV-1a check).
const LEGACY_RECORD: usize = 44;
/// The `meta` key listing the games a repair could not keep (JSON list of hex ids).
pub const WANTED: &str = "wanted";

pub fn ledger_path(home_dir: &Path) -> PathBuf {
    home_dir.join("ledger")
}

fn record(game: &GameId, seq: u64) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[..4].copy_from_slice(&MAGIC);
    r[4..36].copy_from_slice(&game.0);
    r[36..44].copy_from_slice(&seq.to_be_bytes());
    let sum = crc32fast::hash(&r[..44]);
    r[44..].copy_from_slice(&sum.to_be_bytes());
    r
}

/// The record at the start of `bytes`, if a whole one that checks is there.
fn frame_at(bytes: &[u8]) -> Option<(GameId, u64)> {
    let r = bytes.get(..RECORD)?;
    if r[..4] != MAGIC || r[44..] != crc32fast::hash(&r[..44]).to_be_bytes() {
        return None;
    }
    let game = <[u8; 32]>::try_from(&r[4..36]).ok()?;
    let seq = u64::from_be_bytes(<[u8; 8]>::try_from(&r[36..44]).ok()?);
    Some((sobre_core::record::EventId(game), seq))
}

/// What a ledger file holds: the records that check, and how many bytes did not.
#[derive(Debug, Default, PartialEq, Eq)]
struct Parsed {
    records: Vec<(GameId, u64)>,
    damaged_bytes: usize,
}

fn parse(bytes: &[u8]) -> Parsed {
    if !bytes.is_empty() && !bytes.starts_with(&MAGIC) {
        return parse_legacy(bytes);
    }
    let mut out = Parsed::default();
    let mut at = 0;
    while at < bytes.len() {
        if let Some(r) = frame_at(&bytes[at..]) {
            out.records.push(r);
            at += RECORD;
        } else {
            // Not a record here: resynchronise one byte further on (the next magic whose
            // checksum holds is the next record).
            out.damaged_bytes += 1;
            at += 1;
        }
    }
    out
}

fn fnv(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(*b)).wrapping_mul(0x0100_0193)
    })
}

/// The first format: fixed 44-byte records (game ‖ seq ‖ FNV-1a), read from offset 0.
fn parse_legacy(bytes: &[u8]) -> Parsed {
    let mut out = Parsed::default();
    for r in bytes.chunks(LEGACY_RECORD) {
        let (body, sum) = r.split_at(r.len().min(40));
        if r.len() < LEGACY_RECORD || sum != fnv(body).to_be_bytes() {
            out.damaged_bytes += r.len();
            continue;
        }
        if let (Ok(game), Ok(seq)) = (
            <[u8; 32]>::try_from(&body[..32]),
            <[u8; 8]>::try_from(&body[32..40]),
        ) {
            out.records
                .push((sobre_core::record::EventId(game), u64::from_be_bytes(seq)));
        }
    }
    out
}

/// The highest sequence number of the player's own events per game, from the ledger.
pub fn read_ledger(home_dir: &Path) -> BTreeMap<GameId, u64> {
    let Ok(bytes) = std::fs::read(ledger_path(home_dir)) else {
        return BTreeMap::new();
    };
    let parsed = parse(&bytes);
    if parsed.damaged_bytes > 0 {
        warn!(
            bytes = parsed.damaged_bytes,
            "damaged or torn ledger records are skipped"
        );
    }
    highest(&parsed.records)
}

fn highest(records: &[(GameId, u64)]) -> BTreeMap<GameId, u64> {
    let mut out = BTreeMap::new();
    for (game, seq) in records {
        let e = out.entry(*game).or_insert(*seq);
        *e = (*e).max(*seq);
    }
    out
}

/// Rewrites a ledger of the first format in the framed one (write, fsync, rename), so that
/// appends never mix the two. Nothing to do for a framed or missing ledger.
///
/// # Errors
/// The I/O error of the rewrite.
fn upgrade(home_dir: &Path) -> std::io::Result<()> {
    let path = ledger_path(home_dir);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if bytes.is_empty() || bytes.starts_with(&MAGIC) {
        return Ok(());
    }
    let framed: Vec<u8> = highest(&parse_legacy(&bytes).records)
        .iter()
        .flat_map(|(g, s)| record(g, *s))
        .collect();
    crate::secrets::write_secret(&path, &framed)?;
    info!("the ledger was rewritten in the framed format");
    Ok(())
}

/// Notes the player's own events among `events` (wire bytes) in the ledger. Call after the
/// database flush that made them durable.
pub fn note(home_dir: &Path, me: &PlayerId, game: &GameId, events: &[Vec<u8>]) {
    note_all(home_dir, me, std::iter::once((game, events)));
}

/// [`note`] for the events of many games, in one write: a mailbox's group flush covers the
/// receipts of many games, and opening the ledger once per game was a few percent of its
/// runtime workers' time.
pub fn note_all<'a>(
    home_dir: &Path,
    me: &PlayerId,
    games: impl IntoIterator<Item = (&'a GameId, &'a [Vec<u8>])>,
) {
    let mut buf = Vec::new();
    for (game, events) in games {
        for b in events {
            if let Ok(e) = SignedEvent::from_bytes(b)
                && let Ok(ev) = e.decode_unverified()
                && ev.author == *me
            {
                buf.extend_from_slice(&record(game, ev.seq));
            }
        }
    }
    if buf.is_empty() {
        return;
    }
    let mut open = std::fs::OpenOptions::new();
    open.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut open, 0o600);
    let written = open
        .open(ledger_path(home_dir))
        .and_then(|mut f| f.write_all(&buf));
    if let Err(e) = written {
        warn!("ledger not written: {e}");
    }
}

/// [`note`] for one signed event.
pub fn note_event(home_dir: &Path, me: &PlayerId, game: &GameId, e: &SignedEvent) {
    if let Ok(b) = e.to_bytes() {
        note(home_dir, me, game, &[b]);
    }
}

/// The games a repair is still waiting for.
pub fn wanted(store: &Store) -> BTreeSet<GameId> {
    store.meta_list(WANTED).into_iter().collect()
}

fn set_wanted(store: &Store, games: &BTreeSet<GameId>) -> Result<(), StoreError> {
    store.set_meta_list(WANTED, games)
}

/// Why one stored game cannot be trusted, if it cannot.
fn damage(store: &Store, me: &PlayerId, game: &GameId, ledger_seq: Option<u64>) -> Option<String> {
    let events = match store.events(game) {
        Ok(e) => e,
        Err(e) => return Some(e.to_string()),
    };
    if events.is_empty() {
        return ledger_seq.map(|_| "its events are gone".to_owned());
    }
    if let Err(e) = verify(&events) {
        return Some(format!("it no longer verifies: {e}"));
    }
    if let Some(seq) = ledger_seq {
        let own = store.count_by(game, me).unwrap_or(0);
        if own < seq + 1 {
            return Some(format!(
                "{} event(s) of this player were acknowledged, {own} are left",
                seq + 1
            ));
        }
    }
    None
}

/// The start-up check, before the network starts: no game has lost events the ledger lists
/// (a cheap count per game). Wanted games stay wanted until one of their other players has
/// sent its copy (the service's `confirm_restored`): the ledger may lag the database, so a
/// copy that satisfies it may still lack the player's latest event.
/// Whether every game still verifies is checked as the service loads them
/// ([`refuse_damaged`]), so start-up verifies each game once.
///
/// # Errors
/// [`NodeError::Store`] naming the damage and `sobre node repair` if events are missing.
pub fn check(home_dir: &Path, store: &Store, me: &PlayerId) -> Result<(), NodeError> {
    upgrade(home_dir).map_err(NodeError::Control)?;
    let ledger = read_ledger(home_dir);
    let wanted = wanted(store);
    let forgotten: BTreeSet<GameId> = store.forgotten().into_iter().collect();
    let mut damaged = Vec::new();
    for (g, seq) in &ledger {
        if wanted.contains(g) || forgotten.contains(g) {
            continue;
        }
        let own = store.count_by(g, me)?;
        if own < seq + 1 {
            let what = if store.events(g).is_ok_and(|e| e.is_empty()) {
                "its events are gone".to_owned()
            } else {
                format!(
                    "{} event(s) of this player were acknowledged, {own} are left",
                    seq + 1
                )
            };
            damaged.push((*g, what));
        }
    }
    refuse_damaged(home_dir, store, &damaged)
}

/// Refuses to run if any game outside the wanted list is damaged.
///
/// # Errors
/// [`NodeError::Store`] naming the damage and `sobre node repair`.
pub fn refuse_damaged(
    home_dir: &Path,
    store: &Store,
    damaged: &[(GameId, String)],
) -> Result<(), NodeError> {
    let wanted = wanted(store);
    let list: Vec<String> = damaged
        .iter()
        .filter(|(g, _)| !wanted.contains(g))
        .map(|(g, why)| format!("game {g}: {why}"))
        .collect();
    if list.is_empty() {
        return Ok(());
    }
    Err(NodeError::Store(StoreError::Corrupt {
        tree: "events",
        reason: format!(
            "the database in {} is damaged ({} game(s): {}); the node did not start and served \
             nothing. Run `sobre node repair` to rebuild it from your key and your peers",
            home::db_path(home_dir).display(),
            list.len(),
            list.join("; ")
        ),
    }))
}

/// Whether a game being restored after a repair is whole as far as the ledger knows: it
/// verifies and holds every event of the player the ledger lists.
pub fn restored_per_ledger(home_dir: &Path, store: &Store, me: &PlayerId, game: &GameId) -> bool {
    let ledger = read_ledger(home_dir);
    damage(store, me, game, ledger.get(game).copied()).is_none()
        && store.events(game).is_ok_and(|e| !e.is_empty())
}

/// Marks a game restored: it leaves the wanted list.
///
/// # Errors
/// The store's error writing the list.
pub fn restored(store: &Store, game: &GameId) -> Result<(), StoreError> {
    let mut w = wanted(store);
    if w.remove(game) {
        set_wanted(store, &w)?;
    }
    Ok(())
}

/// Rebuilds the database: every game that still decodes, verifies and holds every event of
/// the player the ledger lists is copied to a fresh database (with the remembered peers and
/// equivocation proofs); every other game is wanted, and fetched whole from peers by the next
/// `node run`. The old database is kept next to the new one.
///
/// # Errors
/// If the home has no key, or the fresh database cannot be written.
pub fn repair(home_dir: &Path) -> Result<RepairSummary, NodeError> {
    let me = home::load_key(home_dir)?.player_id();
    let db = home::db_path(home_dir);
    let backup = home_dir.join(format!("db.broken-{}", crate::time::now_ms()));
    let ledger = read_ledger(home_dir);
    let mut keep: Vec<(GameId, Vec<SignedEvent>)> = Vec::new();
    let mut wanted: BTreeSet<GameId> = ledger.keys().copied().collect();
    let mut peers = Vec::new();
    let mut proofs = Vec::new();
    let mut forgotten = Vec::new();
    let old = Store::open(&db).ok();
    if let Some(old) = &old {
        wanted.extend(self::wanted(old));
        for g in old.forgotten() {
            wanted.remove(&g);
        }
        for g in old.games().unwrap_or_default() {
            if damage(old, &me, &g, ledger.get(&g).copied()).is_none()
                && let Ok(events) = old.events(&g)
                && !events.is_empty()
            {
                wanted.remove(&g);
                keep.push((g, events));
            } else {
                wanted.insert(g);
            }
        }
        peers = old.peers().unwrap_or_default();
        proofs = old.equivocations_all();
        forgotten = old.forgotten();
    }
    drop(old);
    if db.exists() {
        std::fs::rename(&db, &backup).map_err(NodeError::Control)?;
    }
    let fresh = Store::open(&db)?;
    let mut kept = 0usize;
    for (g, events) in &keep {
        for e in events {
            if fresh.insert_event(g, e)? {
                kept += 1;
            }
        }
    }
    for (p, addrs) in &peers {
        fresh.remember_peer(p, addrs)?;
    }
    fresh.equivocations_restore(&proofs)?;
    // Dropped challenges stay dropped (and are no damage): see `Store::forget_game`.
    fresh.restore_forgotten(&forgotten)?;
    set_wanted(&fresh, &wanted)?;
    // The player's own side records (leagues, conditional lines, coin choices, profiles,
    // reminders fired), from the old database reopened where it was moved.
    let carried = match Store::open(&backup) {
        Ok(old) => fresh.carry_side_trees(&old)?,
        Err(_) => Carried::default(),
    };
    fresh.meta_set("repaired_ms", crate::time::now_ms().to_string().as_bytes())?;
    futures::executor::block_on(fresh.flush())?;
    Ok(RepairSummary {
        games_kept: keep.len(),
        events_kept: kept,
        to_fetch: wanted.len(),
        carried,
        backup: backup.exists().then_some(backup),
    })
}

/// What `node repair` did, for the player's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepairSummary {
    /// Games copied whole, and their events.
    pub games_kept: usize,
    pub events_kept: usize,
    /// Games to fetch again from peers at the next start.
    pub to_fetch: usize,
    /// The side records carried (leagues, conditional lines, coin choices, profiles,
    /// reminders).
    pub carried: Carried,
    /// Where the old database was moved, if there was one.
    pub backup: Option<PathBuf>,
}

impl std::fmt::Display for RepairSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "rebuilt the database: {} game(s) with {} event(s) kept, {} game(s) to fetch again \
             from peers at the next `sobre node run`, {} record(s) of leagues, conditional \
             lines, coin choices, profiles and reminders carried",
            self.games_kept, self.events_kept, self.to_fetch, self.carried.entries
        )?;
        if self.carried.lost > 0 {
            write!(f, " ({} unreadable, left behind)", self.carried.lost)?;
        }
        if let Some(b) = &self.backup {
            write!(f, "; the old one is in {}", b.display())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::EventId;

    #[test]
    fn the_ledger_keeps_the_highest_seq_per_game_and_skips_torn_or_damaged_records() {
        let dir = tempfile::tempdir().unwrap();
        let (g1, g2) = (EventId([1; 32]), EventId([2; 32]));
        let mut bytes = Vec::new();
        for (g, s) in [(g1, 0), (g1, 3), (g2, 5), (g1, 2)] {
            bytes.extend_from_slice(&record(&g, s));
        }
        // A damaged record (it would say 9) and a torn one at the end.
        let mut bad = record(&g2, 9);
        bad[39] ^= 1;
        bytes.extend_from_slice(&bad);
        bytes.extend_from_slice(&record(&g1, 7)[..20]);
        std::fs::write(ledger_path(dir.path()), bytes).unwrap();
        let l = read_ledger(dir.path());
        assert_eq!(l.get(&g1), Some(&3));
        assert_eq!(l.get(&g2), Some(&5));
        assert_eq!(l.len(), 2);
    }

    /// A crash while appending tears a record; the node then appends after the torn bytes.
    /// Every record after the tear must still be read: these are acknowledged events whose
    /// loss the start-up check has to notice.
    #[test]
    fn records_after_a_record_torn_in_the_middle_are_still_read() {
        let (g1, g2) = (EventId([1; 32]), EventId([2; 32]));
        for cut in [1, 4, 20, 44, 47] {
            let mut bytes = record(&g1, 0).to_vec();
            bytes.extend_from_slice(&record(&g1, 1)[..cut]);
            bytes.extend_from_slice(&record(&g1, 2));
            bytes.extend_from_slice(&record(&g2, 4));
            let p = parse(&bytes);
            assert_eq!(
                p.records,
                vec![(g1, 0), (g1, 2), (g2, 4)],
                "tear after {cut} bytes"
            );
            assert_eq!(p.damaged_bytes, cut);
        }
    }

    /// A record whose bytes happen to contain the magic is not mistaken for a frame
    /// boundary: the checksum decides.
    #[test]
    fn a_magic_inside_a_record_does_not_desynchronise_the_reader() {
        let tricky = EventId(*b"SbL1SbL1SbL1SbL1SbL1SbL1SbL1SbL1");
        let mut bytes = record(&tricky, 0x5362_4c31_5362_4c31).to_vec();
        bytes.extend_from_slice(&record(&tricky, 1)[..30]);
        bytes.extend_from_slice(&record(&tricky, 2));
        let p = parse(&bytes);
        assert_eq!(
            p.records,
            vec![(tricky, 0x5362_4c31_5362_4c31), (tricky, 2)]
        );
    }

    #[test]
    fn a_ledger_of_the_first_format_is_read_and_rewritten_framed() {
        let dir = tempfile::tempdir().unwrap();
        let (g1, g2) = (EventId([1; 32]), EventId([2; 32]));
        let legacy = |g: &EventId, s: u64| {
            let mut r = [0u8; LEGACY_RECORD];
            r[..32].copy_from_slice(&g.0);
            r[32..40].copy_from_slice(&s.to_be_bytes());
            let sum = fnv(&r[..40]);
            r[40..].copy_from_slice(&sum.to_be_bytes());
            r
        };
        let mut bytes = Vec::new();
        for (g, s) in [(g1, 0), (g1, 3), (g2, 5)] {
            bytes.extend_from_slice(&legacy(&g, s));
        }
        std::fs::write(ledger_path(dir.path()), &bytes).unwrap();
        let before = read_ledger(dir.path());
        assert_eq!(before.get(&g1), Some(&3));
        upgrade(dir.path()).unwrap();
        let after = std::fs::read(ledger_path(dir.path())).unwrap();
        assert!(after.starts_with(&MAGIC));
        assert_eq!(after.len(), 2 * RECORD);
        assert_eq!(read_ledger(dir.path()), before);
        // Appends after the upgrade are framed and read with the rest.
        note_raw(dir.path(), &g2, 6);
        assert_eq!(read_ledger(dir.path()).get(&g2), Some(&6));
    }

    fn note_raw(home: &Path, g: &GameId, seq: u64) {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(ledger_path(home))
            .unwrap();
        f.write_all(&record(g, seq)).unwrap();
    }

    /// A repair keeps what no peer can send back: the reminders fired (so none fires twice)
    /// and the player's conditional lines, while the database itself is rebuilt.
    #[test]
    fn a_repair_carries_the_reminders_and_the_conditional_lines() {
        use crate::reminders::{Reminder, ReminderKind};
        let dir = tempfile::tempdir().unwrap();
        home::ensure(dir.path()).unwrap();
        home::init_key(dir.path()).unwrap();
        let game = EventId([7; 32]);
        let fired = Reminder {
            key: "league_round:ab:2".into(),
            game: None,
            time_ms: 5,
            text: "round 2 of the league Club is open".into(),
            kind: ReminderKind::LeagueRound {
                league: "ab".into(),
                name: "Club".into(),
                round: 2,
                opens_ms: 1,
            },
        };
        {
            let store = Store::open(&home::db_path(dir.path())).unwrap();
            assert!(store.reminder_put(&fired).unwrap());
            store
                .set_conditional(&game, &[vec!["e4".into(), "e5".into()]])
                .unwrap();
            futures::executor::block_on(store.flush()).unwrap();
        }
        let summary = repair(dir.path()).unwrap();
        assert_eq!(summary.carried.entries, 2, "{summary}");
        assert_eq!(summary.carried.lost, 0, "{summary}");
        assert!(summary.backup.is_some(), "{summary}");
        let store = Store::open(&home::db_path(dir.path())).unwrap();
        assert!(store.reminder_fired(&fired.key));
        assert_eq!(store.reminders(10).unwrap(), vec![fired]);
        assert_eq!(
            store.conditional(&game).unwrap(),
            vec![vec!["e4".to_owned(), "e5".to_owned()]]
        );
    }
}
