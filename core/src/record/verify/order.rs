//! The order of a record: the challenge and the players (step 2 of `verify_at`), each author's
//! scoresheet chain and its equivocations (step 3), the merge of the scoresheets into one
//! timeline (step 4, see the module docs of `verify`), and the [`Checkpoint`] that continues a
//! replay when events are added at the end of that order. Separate from the replay: none of
//! this looks at the rules of chess.

use super::replay::Replay;
use super::state::{Equivocation, GameState, conclude};
use super::{ChainBreak, VerifyError};
use crate::record::event::{Challenge, EventId, EventKind, GameId, VerifiedEvent};
use crate::record::identity::PlayerId;
use crate::record::terms::Terms;
use std::collections::{BTreeSet, HashMap, HashSet};

/// Where a replay of a verified record stands, to continue it when events are added (see
/// [`super::verify_continue`]): the timeline it replayed and the rules state after it.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    pub(super) order: Vec<EventId>,
    pub(super) replay: Replay,
    /// For each author, the next sequence number and the last event's id.
    pub(super) tips: HashMap<PlayerId, (u64, EventId)>,
    /// The largest merge key (time, author, seq) in `order`.
    pub(super) max_key: Option<MergeKey>,
    pub(super) equivocations: Vec<Equivocation>,
}

/// The tie-break of [`merge`] among ready events, without the index (never needed: author
/// and seq are unique among the events merged).
type MergeKey = (u64, [u8; 32], u64);

fn merge_key(v: &VerifiedEvent) -> MergeKey {
    (v.event.time_ms, *v.event.author.as_bytes(), v.event.seq)
}

/// What [`Checkpoint::extension`] found: the new events in replay order, and the chain tips
/// and largest merge key once they are applied.
struct Extension<'a> {
    new: Vec<&'a VerifiedEvent>,
    tips: HashMap<PlayerId, (u64, EventId)>,
    max_key: Option<MergeKey>,
}

impl Checkpoint {
    pub(super) fn new(
        order: Vec<EventId>,
        replay: Replay,
        equivocations: Vec<Equivocation>,
    ) -> Checkpoint {
        let mut tips = HashMap::new();
        let mut max_key = None;
        for id in &order {
            // Every event of the order was applied, so its time and author are known.
            if let Some(&i) = replay.position_in_timeline.get(id)
                && let Some(&(author, seq)) = replay.authors.get(i)
            {
                tips.insert(author, (seq + 1, *id));
                let key = (
                    replay.times.get(id).copied().unwrap_or(0),
                    *author.as_bytes(),
                    seq,
                );
                if max_key.is_none_or(|m| key > m) {
                    max_key = Some(key);
                }
            }
        }
        Checkpoint {
            order,
            replay,
            tips,
            max_key,
            equivocations,
        }
    }

    /// The common case of [`super::verify_continue`] without re-merging the record: `verified` is
    /// the checkpoint's events (each at least once) plus new ones that each extend their
    /// author's chain, depend only on events before them, and come after every event
    /// before them in the merge order's tie-break. Then [`merge`] of the whole record is
    /// the checkpoint's order followed by the new events in tie-break order (a ready event
    /// with the largest key is taken last, and no earlier event depends on it), and
    /// [`prepare`]'s checks hold for the earlier part; so replaying only the new events
    /// after the checkpoint gives exactly what the full path gives, errors included.
    /// Returns the new events in that order with the chain tips and largest key after
    /// them, or `None` when any of this does not hold: the caller takes the full path.
    /// Reads only: nothing is changed until the events are applied.
    fn extension<'a>(&self, verified: &'a [VerifiedEvent]) -> Option<Extension<'a>> {
        let st = &self.replay;
        let game = st.state.game;
        let mut held = vec![false; self.order.len()];
        let mut new: Vec<&VerifiedEvent> = Vec::new();
        let mut new_ids = HashSet::new();
        for v in verified {
            match st.position_in_timeline.get(&v.id) {
                Some(&i) => *held.get_mut(i)? = true,
                None => {
                    if new_ids.insert(v.id) {
                        new.push(v);
                    }
                }
            }
        }
        if !held.iter().all(|&h| h) {
            return None;
        }
        new.sort_by_key(|v| merge_key(v));
        let mut tips = self.tips.clone();
        let mut max_key = self.max_key;
        let mut before: HashSet<EventId> = HashSet::new();
        for v in &new {
            let e = &v.event;
            let is_player = e.author == st.state.challenger || e.author == st.state.opponent;
            let key = merge_key(v);
            let tip = tips.get(&e.author).copied();
            let follows = match tip {
                Some((seq, last)) => e.seq == seq && e.prev == Some(last),
                None => e.seq == 0 && e.prev.is_none(),
            };
            let known = |d: &EventId| st.position_in_timeline.contains_key(d) || before.contains(d);
            if st.rejudges(v)
                || e.kind.is_challenge()
                || e.game != Some(game)
                || (!is_player && !matches!(e.kind, EventKind::Receipt { .. }))
                || !follows
                || ![e.prev, e.seen].iter().flatten().all(known)
                || max_key.is_some_and(|m| key <= m)
            {
                return None;
            }
            tips.insert(e.author, (e.seq + 1, v.id));
            max_key = Some(key);
            before.insert(v.id);
        }
        Some(Extension { new, tips, max_key })
    }

    /// The state after the replay, as the verification functions give it.
    pub(super) fn state(&self, now_ms: Option<u64>) -> GameState {
        let mut state = self.replay.state.clone();
        state.clocks = self
            .replay
            .clocks_at(now_ms.unwrap_or(self.replay.last_time));
        self.replay.annotate(&mut state);
        conclude(state, self.equivocations.clone())
    }

    /// [`Checkpoint::extend`] on a copy of this checkpoint.
    pub(super) fn append(
        &self,
        verified: &[VerifiedEvent],
        now_ms: Option<u64>,
    ) -> Option<Result<(GameState, Checkpoint), VerifyError>> {
        let mut next = self.clone();
        let done = next.extend(verified, now_ms)?;
        Some(done.map(|state| (state, next)))
    }

    /// [`Checkpoint::extension`] replayed on this checkpoint itself, without the copy of the
    /// replay that [`Checkpoint::append`] makes (about 7 µs for a 200-ply game, a third of
    /// the step, done twice for each move a mailbox takes: the move and its receipt). After
    /// `Some(Err(_))` the checkpoint may be half applied: the caller drops it.
    pub(super) fn extend(
        &mut self,
        verified: &[VerifiedEvent],
        now_ms: Option<u64>,
    ) -> Option<Result<GameState, VerifyError>> {
        let Extension { new, tips, max_key } = self.extension(verified)?;
        self.replay.learn_countersignatures(&new);
        for v in &new {
            if let Err(e) = self.replay.apply(v) {
                return Some(Err(e));
            }
        }
        self.order.extend(new.iter().map(|v| v.id));
        self.tips = tips;
        self.max_key = max_key;
        Some(Ok(self.state(now_ms)))
    }
}

/// A record checked up to its rules: steps 2 to 4 of [`super::verify_at`].
pub(super) struct Prepared {
    pub(super) game: GameId,
    pub(super) challenger: PlayerId,
    pub(super) opponent: PlayerId,
    pub(super) challenge: Challenge,
    /// The terms the challenge names (tag 21), if any.
    pub(super) terms: Option<Terms>,
    /// The challenge's protocol version: the game is judged under it.
    pub(super) version: u16,
    /// The timeline, as indexes of the events.
    pub(super) order: Vec<usize>,
    pub(super) equivocations: Vec<Equivocation>,
}

impl Prepared {
    /// The replay this record starts from: its challenge, terms and version.
    pub(super) fn replay(&self) -> Result<Replay, VerifyError> {
        Replay::new(
            self.game,
            self.challenger,
            self.opponent,
            self.challenge.clone(),
            self.terms.clone(),
            self.version,
        )
    }
}

/// Steps 2 to 4 of [`super::verify_at`], on events whose signatures are checked and ids unique.
pub(super) fn prepare(unique: &[&VerifiedEvent]) -> Result<Prepared, VerifyError> {
    // 2. The challenge names the game and its players.
    let mut challenges = unique.iter().filter(|v| v.event.kind.is_challenge());
    let root = challenges.next().ok_or(VerifyError::NoChallenge)?;
    if challenges.next().is_some() {
        return Err(VerifyError::TwoChallenges);
    }
    let game = root.id;
    let version = root.event.version;
    let challenger = root.event.author;
    let Some((challenge, terms)) = root.event.kind.challenge() else {
        return Err(VerifyError::NoChallenge);
    };
    let (challenge, terms) = (challenge.clone(), terms.cloned());
    let opponent = challenge.opponent;
    // A3: a player may hand an envelope to an arbiter (tag 18), who may then sign its
    // opening (tag 19) besides receipts; the replay checks the escrow and that the opening
    // is for an envelope escrowed to its author.
    let arbiters: HashSet<PlayerId> = unique
        .iter()
        .filter(|v| v.event.author == challenger || v.event.author == opponent)
        .filter_map(|v| match &v.event.kind {
            EventKind::Escrow { arbiter, .. } => Some(*arbiter),
            _ => None,
        })
        .collect();
    // Only a game on agreed terms has an agreed arbiter (a challenge without terms, tag 0,
    // names none).
    let agreed_arbiter = terms.as_ref().and_then(|t| t.arbiter);
    for v in unique {
        let for_game = match v.event.game {
            None => v.id == game,
            Some(g) => g == game,
        };
        if !for_game {
            return Err(VerifyError::OtherGame { event: v.id });
        }
        let player = v.event.author == challenger || v.event.author == opponent;
        let allowed = match v.event.kind {
            EventKind::Receipt { .. } => true,
            EventKind::ArbiterOpen { .. } => arbiters.contains(&v.event.author),
            // A11: the arbiter both players agreed on accepts a declared sealed move or
            // annuls the game; the replay checks when.
            EventKind::AcceptDeclaredMove { .. } | EventKind::AnnulGame => {
                agreed_arbiter == Some(v.event.author)
            }
            // 10.2: the agreed arbiter rules on a quickplay-finish claim.
            EventKind::QuickplayRuling { .. } => agreed_arbiter == Some(v.event.author),
            _ => false,
        };
        if !player && !allowed {
            return Err(VerifyError::NotAPlayer {
                event: v.id,
                author: v.event.author,
            });
        }
    }
    // 3. Scoresheets: per author, seq from 0 without gaps, each `prev` the previous id.
    //    Two events at one seq are an equivocation: keep the proof, use the twin that later
    //    events follow or saw (a node holding the proof logs the chain it accepted first and
    //    keeps only the other twin aside), else the first by id.
    let followed: HashSet<EventId> = unique
        .iter()
        .flat_map(|v| [v.event.prev, v.event.seen])
        .flatten()
        .collect();
    let mut by_author: HashMap<PlayerId, Vec<usize>> = HashMap::new();
    for (i, v) in unique.iter().enumerate() {
        by_author.entry(v.event.author).or_default().push(i);
    }
    let mut equivocations = Vec::new();
    let mut excluded = vec![false; unique.len()];
    let mut authors: Vec<_> = by_author.keys().copied().collect();
    authors.sort();
    for author in &authors {
        let idx = by_author
            .get_mut(author)
            .map(std::mem::take)
            .unwrap_or_default();
        let mut sorted = idx;
        sorted.sort_by_key(|&i| {
            let v = &unique[i];
            (v.event.seq, !followed.contains(&v.id), v.id)
        });
        let mut expected_seq = 0u64;
        let mut prev: Option<EventId> = None;
        let mut last_seq: Option<u64> = None;
        for &i in &sorted {
            let e = &unique[i].event;
            if last_seq == Some(e.seq) {
                // Same author, same seq, different bytes.
                if let Some(&first) = sorted
                    .iter()
                    .find(|&&j| unique[j].event.seq == e.seq && j != i && !excluded[j])
                {
                    equivocations.push(Equivocation {
                        author: *author,
                        seq: e.seq,
                        first: unique[first].signed.clone(),
                        second: unique[i].signed.clone(),
                    });
                }
                excluded[i] = true;
                continue;
            }
            if e.seq != expected_seq {
                return Err(VerifyError::Gap {
                    event: unique[i].id,
                    author: *author,
                    expected_seq,
                    seq: e.seq,
                });
            }
            if e.prev != prev {
                return Err(VerifyError::BrokenChain {
                    event: unique[i].id,
                    author: *author,
                    reason: ChainBreak::NotAfterPrevious {
                        seq: e.seq,
                        previous: expected_seq.saturating_sub(1),
                    },
                });
            }
            prev = Some(unique[i].id);
            last_seq = Some(e.seq);
            expected_seq += 1;
        }
        by_author.insert(*author, sorted);
    }
    if by_author
        .get(&challenger)
        .and_then(|v| v.first())
        .map(|&i| unique[i].id)
        != Some(game)
    {
        return Err(VerifyError::BrokenChain {
            event: game,
            author: challenger,
            reason: ChainBreak::ChallengeNotFirst,
        });
    }
    // 4. Merge the logs (see the module docs for the order).
    let order = merge(unique, &excluded)?;
    Ok(Prepared {
        game,
        challenger,
        opponent,
        challenge,
        terms,
        version,
        order,
        equivocations,
    })
}

/// A topological order of the non-excluded events: `prev` and `seen` first; ties by (time,
/// author, seq).
fn merge(unique: &[&VerifiedEvent], excluded: &[bool]) -> Result<Vec<usize>, VerifyError> {
    let index: HashMap<EventId, usize> = unique
        .iter()
        .enumerate()
        .filter(|(i, _)| !excluded[*i])
        .map(|(i, v)| (v.id, i))
        .collect();
    let mut indegree = vec![0usize; unique.len()];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); unique.len()];
    for (i, v) in unique.iter().enumerate() {
        if excluded[i] {
            continue;
        }
        for dep in [v.event.prev, v.event.seen].into_iter().flatten() {
            match index.get(&dep) {
                Some(&d) => {
                    indegree[i] += 1;
                    children[d].push(i);
                }
                None => {
                    // A `prev` pointing at an equivocating twin is still a chain problem;
                    // everything else is simply absent from the record.
                    return Err(VerifyError::Missing {
                        event: v.id,
                        missing: dep,
                    });
                }
            }
        }
    }
    let key = |i: usize| {
        let e = &unique[i].event;
        (e.time_ms, *e.author.as_bytes(), e.seq, i)
    };
    let mut ready: BTreeSet<(u64, [u8; 32], u64, usize)> = (0..unique.len())
        .filter(|&i| !excluded[i] && indegree[i] == 0)
        .map(key)
        .collect();
    let mut out = Vec::with_capacity(unique.len());
    while let Some(k) = ready.pop_first() {
        let i = k.3;
        out.push(i);
        for &c in &children[i] {
            indegree[c] -= 1;
            if indegree[c] == 0 {
                ready.insert(key(c));
            }
        }
    }
    let expected = excluded.iter().filter(|&&x| !x).count();
    if out.len() != expected {
        // Hashes cannot form a cycle unless SHA-256 is broken; refuse rather than loop.
        let stuck = (0..unique.len())
            .find(|&i| !excluded[i] && !out.contains(&i))
            .map(|i| unique[i].id)
            .unwrap_or(unique[0].id);
        return Err(VerifyError::BrokenChain {
            event: stuck,
            author: unique[0].event.author,
            reason: ChainBreak::Cycle,
        });
    }
    Ok(out)
}
