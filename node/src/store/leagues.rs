//! League records: the signed league documents this node keeps and forwards, how many of
//! them each peer has acknowledged, and the games this node opened for its pairings
//! ([`crate::service`]'s `league` part decides what they mean; the store keeps the bytes).
//!
//! | tree | key | value |
//! | --- | --- | --- |
//! | `leagues` | league id | the signed definition's wire bytes |
//! | `league_joins` | league id ‖ player | the player's signed join's wire bytes |
//! | `league_joins` | league id ‖ `D` ‖ document id | an arbiter's signed decision's wire bytes (65-byte keys: never a join's) |
//! | `league_sent` | league id ‖ peer id bytes | how many of the league's documents the peer acknowledged (u32 big-endian) |
//! | `league_games` | league id ‖ round (u32 big-endian) ‖ white ‖ black | the id of the game this node challenged or accepted for the pairing |
//!
//! Documents are stored in their canonical wire form, the bytes they arrived in (a document
//! decodes only from its canonical bytes, and encodes back to them).

use super::{Store, StoreError};
use libp2p::PeerId;
use sobre_core::league::{LeagueId, SignedLeagueDoc};
use sobre_core::record::{GameId, PlayerId};

fn join_key(league: &LeagueId, player: &PlayerId) -> Vec<u8> {
    let mut k = league.0.to_vec();
    k.extend_from_slice(player.as_bytes());
    k
}

fn decision_key(league: &LeagueId, doc: &sobre_core::record::EventId) -> Vec<u8> {
    let mut k = league.0.to_vec();
    k.push(b'D');
    k.extend_from_slice(&doc.0);
    k
}

fn sent_key(league: &LeagueId, peer: &PeerId) -> Vec<u8> {
    let mut k = league.0.to_vec();
    k.extend_from_slice(&peer.to_bytes());
    k
}

fn pairing_key(league: &LeagueId, round: u32, white: &PlayerId, black: &PlayerId) -> Vec<u8> {
    let mut k = league.0.to_vec();
    k.extend_from_slice(&round.to_be_bytes());
    k.extend_from_slice(white.as_bytes());
    k.extend_from_slice(black.as_bytes());
    k
}

fn encode(tree: &'static str, doc: &SignedLeagueDoc) -> Result<Vec<u8>, StoreError> {
    doc.to_bytes().map_err(|e| StoreError::Corrupt {
        tree,
        reason: e.to_string(),
    })
}

fn decode(tree: &'static str, bytes: &[u8]) -> Result<SignedLeagueDoc, StoreError> {
    SignedLeagueDoc::from_bytes(bytes).map_err(|e| StoreError::Corrupt {
        tree,
        reason: e.to_string(),
    })
}

/// A stored acknowledgement count; a value of another length (damage) counts as nothing
/// acknowledged, so the documents are sent again rather than never.
fn count_of(v: Option<&[u8]>) -> u32 {
    v.and_then(|v| <[u8; 4]>::try_from(v).ok())
        .map_or(0, u32::from_be_bytes)
}

impl Store {
    /// Keeps the signed definition of `league` (the caller has verified it and `league` is
    /// its id): the node serves it, forwards it to the league's players, organiser and
    /// mailboxes, and opens the rounds from it. True if the league was new. The caller flushes.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn league_put(&self, league: &LeagueId, doc: &SignedLeagueDoc) -> Result<bool, StoreError> {
        let bytes = encode("leagues", doc)?;
        Ok(self.leagues.insert(league.0, bytes)?.is_none())
    }

    /// The signed definition of `league`, if the node keeps it (not verified again).
    ///
    /// # Errors
    /// On I/O errors, or [`StoreError::Corrupt`] if the stored bytes no longer decode.
    pub fn league_get(&self, league: &LeagueId) -> Result<Option<SignedLeagueDoc>, StoreError> {
        self.leagues
            .get(league.0)?
            .map(|v| decode("leagues", &v))
            .transpose()
    }

    /// Every league definition the node keeps, in id order, not verified again (the caller
    /// verifies each before serving it). Each record comes with its own result, so a damaged
    /// one ([`StoreError::Corrupt`]) hides no other league.
    pub fn leagues(&self) -> Vec<Result<SignedLeagueDoc, StoreError>> {
        self.leagues
            .iter()
            .map(|item| decode("leagues", &item?.1))
            .collect()
    }

    /// Keeps `player`'s signed join of `league` (checked by the caller): a join accepts the
    /// league's games in advance, and is forwarded with the definition to everyone who should
    /// hold the league. True if the join was new. The caller flushes.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn join_put(
        &self,
        league: &LeagueId,
        player: &PlayerId,
        doc: &SignedLeagueDoc,
    ) -> Result<bool, StoreError> {
        let bytes = encode("league_joins", doc)?;
        Ok(self
            .league_joins
            .insert(join_key(league, player), bytes)?
            .is_none())
    }

    /// Keeps an arbiter's signed decision about `league` (checked by the caller: the
    /// organiser's), forwarded with the league's other documents. True if it was new. The
    /// caller flushes.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn decision_put(
        &self,
        league: &LeagueId,
        doc: &SignedLeagueDoc,
    ) -> Result<bool, StoreError> {
        let bytes = encode("league_joins", doc)?;
        Ok(self
            .league_joins
            .insert(decision_key(league, &doc.id()), bytes)?
            .is_none())
    }

    /// The decisions kept for `league`, in id order, not checked again.
    pub fn decisions_of(&self, league: &LeagueId) -> Vec<Result<SignedLeagueDoc, StoreError>> {
        let mut prefix = league.0.to_vec();
        prefix.push(b'D');
        self.league_joins
            .scan_prefix(prefix)
            .map(|item| decode("league_joins", &item?.1))
            .collect()
    }

    /// The joins kept for `league`, in player order, not checked again (the caller checks
    /// each against the definition). Each record comes with its own result, as in
    /// [`Store::leagues`].
    pub fn joins_of(&self, league: &LeagueId) -> Vec<Result<SignedLeagueDoc, StoreError>> {
        self.league_joins
            .scan_prefix(league.0)
            .filter(|item| item.as_ref().map_or(true, |(k, _)| k.len() == 64))
            .map(|item| decode("league_joins", &item?.1))
            .collect()
    }

    /// Whether the node keeps a join of `league` by `player` (for its own player: whether it
    /// takes part, and so plays the rounds).
    ///
    /// # Errors
    /// On I/O errors.
    pub fn has_join(&self, league: &LeagueId, player: &PlayerId) -> Result<bool, StoreError> {
        Ok(self.league_joins.contains_key(join_key(league, player))?)
    }

    /// How many of `league`'s documents `peer` has acknowledged holding: the node sends the
    /// documents again only while the peer holds fewer than the node does.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn league_sent(&self, league: &LeagueId, peer: &PeerId) -> Result<u32, StoreError> {
        Ok(count_of(
            self.league_sent.get(sent_key(league, peer))?.as_deref(),
        ))
    }

    /// Records that `peer` acknowledged holding `count` of `league`'s documents, only ever
    /// raising the stored count: a late answer to an earlier, smaller send must not make the
    /// node send again what the peer already holds. Returns the count stored afterwards. The
    /// caller flushes, if it must (a lost count only means one send more).
    ///
    /// # Errors
    /// On I/O errors.
    pub fn league_sent_raise(
        &self,
        league: &LeagueId,
        peer: &PeerId,
        count: u32,
    ) -> Result<u32, StoreError> {
        let after = self
            .league_sent
            .update_and_fetch(sent_key(league, peer), |old| {
                Some(count.max(count_of(old)).to_be_bytes().to_vec())
            })?;
        Ok(count_of(after.as_deref()))
    }

    /// Records `game` as the one this node challenged or accepted for the pairing `white`
    /// against `black` in `round` of `league`, so the round's challenge is made only once
    /// (the game itself may not be in memory when the round is looked at again). The caller
    /// flushes.
    ///
    /// # Errors
    /// On I/O errors.
    pub fn league_game_put(
        &self,
        league: &LeagueId,
        round: u32,
        white: &PlayerId,
        black: &PlayerId,
        game: &GameId,
    ) -> Result<(), StoreError> {
        self.league_games
            .insert(pairing_key(league, round, white, black), &game.0)?;
        Ok(())
    }

    /// Whether the node recorded a game for the pairing ([`Store::league_game_put`]).
    ///
    /// # Errors
    /// On I/O errors.
    pub fn league_game_has(
        &self,
        league: &LeagueId,
        round: u32,
        white: &PlayerId,
        black: &PlayerId,
    ) -> Result<bool, StoreError> {
        Ok(self
            .league_games
            .contains_key(pairing_key(league, round, white, black))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::league::{League, LeagueDef, Scoring};
    use sobre_core::record::Keypair;

    fn league(players: &[Keypair]) -> League {
        let organiser = Keypair::from_secret_bytes(&[9; 32]);
        let def = LeagueDef {
            name: "Liga de prueba".into(),
            players: players.iter().map(Keypair::player_id).collect(),
            names: vec!["a".into(), "b".into(), "c".into()],
            double: false,
            time_control: "3d".into(),
            start_ms: 1,
            round_days: 7,
            scoring: Scoring::default(),
        };
        League::create(&organiser, def, 1).unwrap()
    }

    fn players() -> Vec<Keypair> {
        (1..=3)
            .map(|i| Keypair::from_secret_bytes(&[i; 32]))
            .collect()
    }

    #[tokio::test]
    async fn league_documents_round_trip_byte_for_byte_and_survive_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let ps = players();
        let l = league(&ps);
        let join = l.join(&ps[1], 2).unwrap();
        {
            let store = Store::open(dir.path()).unwrap();
            assert_eq!(store.league_get(&l.id).unwrap(), None);
            assert!(store.league_put(&l.id, &l.signed).unwrap());
            assert!(!store.league_put(&l.id, &l.signed).unwrap());
            assert!(store.join_put(&l.id, &ps[1].player_id(), &join).unwrap());
            assert!(!store.join_put(&l.id, &ps[1].player_id(), &join).unwrap());
            store.flush().await.unwrap();
        }
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.league_get(&l.id).unwrap(), Some(l.signed.clone()));
        let all: Vec<_> = store.leagues().into_iter().map(Result::unwrap).collect();
        assert_eq!(all, vec![l.signed.clone()]);
        let joins: Vec<_> = store
            .joins_of(&l.id)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(joins, vec![join.clone()]);
        // The value is the document's wire form, as it travels.
        assert_eq!(
            store.leagues.get(l.id.0).unwrap().unwrap().to_vec(),
            l.signed.to_bytes().unwrap()
        );
        let mut other = l.id;
        other.0[0] ^= 1;
        assert!(store.joins_of(&other).is_empty());
    }

    #[test]
    fn a_join_is_present_only_for_its_player_and_league() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let ps = players();
        let l = league(&ps);
        let (p0, p1) = (ps[0].player_id(), ps[1].player_id());
        assert!(!store.has_join(&l.id, &p0).unwrap());
        store
            .join_put(&l.id, &p0, &l.join(&ps[0], 2).unwrap())
            .unwrap();
        assert!(store.has_join(&l.id, &p0).unwrap());
        assert!(!store.has_join(&l.id, &p1).unwrap());
        let mut other = l.id;
        other.0[31] ^= 1;
        assert!(!store.has_join(&other, &p0).unwrap());
    }

    #[test]
    fn a_damaged_league_record_is_reported_in_its_place_and_hides_no_other() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let l = league(&players());
        store.league_put(&l.id, &l.signed).unwrap();
        store
            .leagues
            .insert([0u8; 32], &b"not a document"[..])
            .unwrap();
        let all = store.leagues();
        assert_eq!(all.len(), 2);
        assert!(matches!(
            &all[0],
            Err(StoreError::Corrupt {
                tree: "leagues",
                ..
            })
        ));
        assert!(matches!(&all[1], Ok(d) if *d == l.signed));
        assert!(matches!(
            store.league_get(&sobre_core::record::EventId([0u8; 32])),
            Err(StoreError::Corrupt { .. })
        ));
    }

    #[test]
    fn the_acknowledged_count_is_only_ever_raised() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let l = league(&players());
        let (p, q) = (PeerId::random(), PeerId::random());
        assert_eq!(store.league_sent(&l.id, &p).unwrap(), 0);
        assert_eq!(store.league_sent_raise(&l.id, &p, 3).unwrap(), 3);
        // A late answer to an earlier send, with fewer documents, leaves the count.
        assert_eq!(store.league_sent_raise(&l.id, &p, 1).unwrap(), 3);
        assert_eq!(store.league_sent(&l.id, &p).unwrap(), 3);
        assert_eq!(store.league_sent_raise(&l.id, &p, 4).unwrap(), 4);
        assert_eq!(store.league_sent(&l.id, &q).unwrap(), 0);
        // The stored form: u32 big-endian, as nodes before this one wrote it.
        assert_eq!(
            store
                .league_sent
                .get(sent_key(&l.id, &p))
                .unwrap()
                .unwrap()
                .to_vec(),
            4u32.to_be_bytes().to_vec()
        );
        // A damaged count is no acknowledgement: the documents go out again.
        store
            .league_sent
            .insert(sent_key(&l.id, &q), &[7u8][..])
            .unwrap();
        assert_eq!(store.league_sent(&l.id, &q).unwrap(), 0);
        assert_eq!(store.league_sent_raise(&l.id, &q, 2).unwrap(), 2);
    }

    #[test]
    fn a_pairing_game_is_recorded_for_that_round_and_colours_only() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let ps = players();
        let l = league(&ps);
        let (w, b) = (ps[0].player_id(), ps[1].player_id());
        let game = sobre_core::record::EventId([5; 32]);
        assert!(!store.league_game_has(&l.id, 1, &w, &b).unwrap());
        store.league_game_put(&l.id, 1, &w, &b, &game).unwrap();
        assert!(store.league_game_has(&l.id, 1, &w, &b).unwrap());
        assert!(!store.league_game_has(&l.id, 2, &w, &b).unwrap());
        assert!(!store.league_game_has(&l.id, 1, &b, &w).unwrap());
        assert_eq!(
            store
                .league_games
                .get(pairing_key(&l.id, 1, &w, &b))
                .unwrap()
                .unwrap()
                .to_vec(),
            game.0.to_vec()
        );
    }
}
