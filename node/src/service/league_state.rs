//! The league side's memory within a run: the tick count (documents are resent and sources
//! polled every few ticks), the documents being sent, what the organiser listed as ahead of
//! this node and the polls asking it, and the league topics followed and heads announced.
//! What to send, poll or announce is `league`'s, `league_sync`'s and `league_heads`'.

use crate::protocol::LeagueProgress;
use libp2p::PeerId;
use sobre_core::league::LeagueId;
use sobre_core::record::GameId;
use std::collections::{HashMap, HashSet};

/// The most league topics a node follows (a node's topics stay far below gossipsub's 16 KiB
/// hello and the 128 topics its peers accept): a member of more
/// leagues, or a mailbox holding more, follows the rest by the fallback poll.
pub(crate) const MAX_LEAGUE_TOPICS: usize = 100;

/// How a source is asked what it holds of a league ahead of this node.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Ask {
    /// The changes since the source's last answer (epoch and cursor, zero the first time).
    Since(u64, u64),
    /// The whole list with this node's progress: the source refused `LeagueSince` (an
    /// older version).
    WholeList,
}

#[derive(Default)]
pub(super) struct LeagueState {
    /// Counts league ticks, to resend league documents every few ticks only.
    ticks: u32,
    /// League documents being sent: (league, peer). One request at a time per pair.
    sending: HashSet<(LeagueId, PeerId)>,
    /// What the organiser last listed as ahead of this node, per league: the league games
    /// this node does not hold yet or holds less far along.
    listed: HashMap<LeagueId, HashMap<GameId, LeagueProgress>>,
    /// Polls in flight (league, peer): one at a time.
    polls: HashSet<(LeagueId, PeerId)>,
    /// The epoch and cursor of each source's last `LeagueChanges` per league.
    cursors: HashMap<(LeagueId, PeerId), (u64, u64)>,
    /// Sources that refused `LeagueSince` (an older version): asked with the whole list.
    whole_list: HashSet<PeerId>,
    /// Leagues whose topic this node is subscribed to.
    subscribed: HashSet<LeagueId>,
    /// The organiser's last announced head of each game of the leagues it organises.
    announced: HashMap<GameId, LeagueProgress>,
}

impl LeagueState {
    /// Counts a league tick; the count.
    pub(super) fn tick(&mut self) -> u32 {
        self.ticks = self.ticks.wrapping_add(1);
        self.ticks
    }

    /// Whether `league`'s documents may be sent to `peer` now: not while a send is in flight.
    pub(super) fn start_sending(&mut self, league: LeagueId, peer: PeerId) -> bool {
        self.sending.insert((league, peer))
    }

    pub(super) fn sent(&mut self, league: LeagueId, peer: PeerId) {
        self.sending.remove(&(league, peer));
    }

    /// How `peer` is to be asked about `league`, or none while a poll of it is in flight.
    pub(super) fn start_poll(&mut self, league: LeagueId, peer: PeerId) -> Option<Ask> {
        if !self.polls.insert((league, peer)) {
            return None;
        }
        if self.whole_list.contains(&peer) {
            return Some(Ask::WholeList);
        }
        let (epoch, since) = self.cursors.get(&(league, peer)).copied().unwrap_or((0, 0));
        Some(Ask::Since(epoch, since))
    }

    /// The poll of `peer` about `league` is answered (or failed).
    pub(super) fn poll_ended(&mut self, league: LeagueId, peer: PeerId) {
        self.polls.remove(&(league, peer));
    }

    /// `peer` answered changes of `league` up to `epoch` and `cursor`; whether they are the
    /// whole league (a first answer, or one of another run of the source).
    pub(super) fn changes_answered(
        &mut self,
        league: LeagueId,
        peer: PeerId,
        epoch: u64,
        cursor: u64,
    ) -> bool {
        let asked = self.cursors.insert((league, peer), (epoch, cursor));
        asked.is_none_or(|(e, _)| e != epoch)
    }

    /// `peer` refused to list changes: it is asked for the whole list from now on.
    pub(super) fn wants_whole_list(&mut self, peer: PeerId) {
        self.whole_list.insert(peer);
    }

    /// The organiser listed `games` of `league` as ahead of this node: a whole list replaces
    /// what it said before, changes update it.
    pub(super) fn organiser_listed(
        &mut self,
        league: LeagueId,
        games: impl IntoIterator<Item = LeagueProgress>,
        whole: bool,
    ) {
        let changes = games.into_iter().map(|p| (p.game, p));
        match self.listed.get_mut(&league) {
            Some(listed) if !whole => listed.extend(changes),
            _ => {
                self.listed.insert(league, changes.collect());
            }
        }
    }

    /// Heads the organiser announced ahead of this node: they join its list, once it has
    /// answered one (before, the view may lack anything anyway).
    pub(super) fn heads_ahead(&mut self, league: &LeagueId, behind: &[LeagueProgress]) {
        if let Some(listed) = self.listed.get_mut(league) {
            for p in behind {
                listed.insert(p.game, *p);
            }
        }
    }

    /// What the organiser of `league` last listed as ahead of this node, if it answered.
    pub(super) fn listed(&self, league: &LeagueId) -> Option<&HashMap<GameId, LeagueProgress>> {
        self.listed.get(league)
    }

    /// Whether `league`'s topic is still to be followed: not yet, and room for it.
    pub(super) fn may_follow(&self, league: &LeagueId) -> bool {
        !self.subscribed.contains(league) && self.subscribed.len() < MAX_LEAGUE_TOPICS
    }

    pub(super) fn followed(&mut self, league: LeagueId) {
        self.subscribed.insert(league);
    }

    /// Whether `head` differs from the one last announced for its game.
    pub(super) fn moved(&self, head: &LeagueProgress) -> bool {
        self.announced.get(&head.game) != Some(head)
    }

    pub(super) fn announced(&mut self, head: LeagueProgress) {
        self.announced.insert(head.game, head);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::EventId;

    fn id(n: u8) -> EventId {
        EventId([n; 32])
    }

    fn head(game: u8, plies: u32) -> LeagueProgress {
        LeagueProgress {
            game: id(game),
            stage: 1,
            plies,
        }
    }

    #[test]
    fn one_poll_at_a_time_and_the_cursor_of_the_last_answer() {
        let mut s = LeagueState::default();
        let p = PeerId::random();
        assert_eq!(s.start_poll(id(1), p), Some(Ask::Since(0, 0)));
        assert_eq!(s.start_poll(id(1), p), None, "one at a time");
        assert!(
            s.changes_answered(id(1), p, 5, 10),
            "a first answer is whole"
        );
        s.poll_ended(id(1), p);
        assert_eq!(s.start_poll(id(1), p), Some(Ask::Since(5, 10)));
        assert!(!s.changes_answered(id(1), p, 5, 12), "same run: changes");
        assert!(
            s.changes_answered(id(1), p, 6, 1),
            "a new run of the source: whole"
        );
        s.poll_ended(id(1), p);
        s.wants_whole_list(p);
        assert_eq!(s.start_poll(id(1), p), Some(Ask::WholeList));
    }

    #[test]
    fn a_whole_list_replaces_and_changes_update_and_heads_join_only_a_list() {
        let mut s = LeagueState::default();
        s.heads_ahead(&id(1), &[head(9, 3)]);
        assert!(s.listed(&id(1)).is_none(), "no list yet: nothing to join");
        s.organiser_listed(id(1), [head(2, 1)], true);
        s.organiser_listed(id(1), [head(3, 1)], false);
        s.heads_ahead(&id(1), &[head(2, 4)]);
        let listed = s.listed(&id(1)).expect("listed");
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[&id(2)].plies, 4);
        s.organiser_listed(id(1), [head(4, 1)], true);
        assert_eq!(s.listed(&id(1)).map(HashMap::len), Some(1));
    }

    #[test]
    fn topics_are_bounded_and_heads_announced_once() {
        let mut s = LeagueState::default();
        for n in 0..MAX_LEAGUE_TOPICS {
            let mut b = [0u8; 32];
            b[..8].copy_from_slice(&(n as u64).to_le_bytes());
            assert!(s.may_follow(&EventId(b)));
            s.followed(EventId(b));
        }
        assert!(!s.may_follow(&id(200)), "no room left");
        assert!(s.moved(&head(1, 2)));
        s.announced(head(1, 2));
        assert!(!s.moved(&head(1, 2)));
        assert!(s.moved(&head(1, 3)));
        assert!(s.start_sending(id(1), PeerId::random()));
        assert_eq!((s.tick(), s.tick()), (1, 2));
    }
}
