//! Player profiles: the player's own signed profile goes to the players it has a part with,
//! theirs come back, and the views show the names.
//!
//! Travel, by direct request ([`Request::Profiles`]), not gossip: like league documents, a
//! profile has a small known audience (the player's opponents, league members and
//! mailboxes), and a direct request gives the acknowledgement that retries need. The
//! player's own profile is sent to a player when an event of theirs arrives in a game it
//! shares with them (their receipt of our challenge, their acceptance, a move: so a challenge
//! and an acceptance carry it; the player's mailboxes get it then too), when they connect,
//! when the player joins a league, when the player changes it (`profile_publish`), and once
//! a minute to those that have not acknowledged it yet (the opponent may have been offline).
//! On each connection the node also passes on the profiles it holds of the other players of
//! the games it shares with the peer: a mailbox carries names between players that are never
//! online together.
//!
//! Receiving: a profile is kept only for a player this node has a part with — a game it
//! plays (a challenge waiting for its answer too, so the player sees who challenges them;
//! that profile is forgotten with the challenge if the quota drops it), a league, a
//! contact — and only if it is newer than
//! the one kept (newest wins: a replayed or older profile changes nothing). Its signature must
//! be that player's, and it may not be dated more than a few minutes ahead of this clock
//! (`sobre_core::record::profile`). So the tree holds at most one small profile per player
//! the node really plays or plays with; a stranger's flood of profiles, its own or made up
//! with fresh keys, is refused before any signature is checked, and one that is not a
//! profile at all, or is forged, costs the sender a strike.

use super::deliver::Internal;
use super::reads::ReadSide;
use super::{Service, now_ms, peer_of_player, player_of_peer, user};
use crate::api::ApiError;
use crate::api::replies::{ProfileView, ProfilesReply};
use crate::api::watch::{NodeEvent, WatchEvent};
use crate::network::NetworkError;
use crate::protocol::{MAX_PROFILES_PER_MESSAGE, Request, Response};
use libp2p::PeerId;
use sobre_core::record::{GameId, PlayerId, Profile, SignedProfile, Status};
use std::collections::HashSet;
use tracing::{debug, warn};

pub(super) fn view(p: &Profile) -> ProfileView {
    ProfileView {
        club: p.club.clone(),
        federation_id: p.federation_id.clone(),
        issued_ms: p.issued_ms,
        languages: p.languages.clone(),
        name: p.name.clone(),
        player: p.player.to_string(),
    }
}

impl Service {
    /// Reads and signs the player's profile from `HOME/profile.json` again; a changed one
    /// must reach everyone again.
    pub(super) fn load_own_profile(&mut self) -> Result<(), ApiError> {
        let signed = crate::profile::signed(self.identity.home(), self.identity.key())
            .map_err(|e| user(e.to_string()))?;
        let own = match signed {
            Some(s) => {
                let bytes = s.to_bytes().map_err(super::internal)?;
                let profile = s.decode_unverified().map_err(super::internal)?;
                Some((bytes, profile))
            }
            None => None,
        };
        self.profiles.set_own(own);
        Ok(())
    }

    /// The player's own profile as signed, if it has a name.
    pub(super) fn own_profile_signed(&self) -> Option<&Profile> {
        self.profiles.own()
    }

    /// The players the player's own profile goes to: the other players of its games (not a
    /// stranger's challenge it has not answered), of its leagues, and its mailboxes (which
    /// pass it on to opponents who are never online with the player).
    fn profile_audience(&self) -> HashSet<PlayerId> {
        let mut out: HashSet<PlayerId> = self
            .games
            .games_of(&self.identity.me())
            .map(|(_, s)| s)
            .filter(|s| s.plays(&self.identity.me()))
            .filter(|s| !(s.status == Status::Pending && s.challenger != self.identity.me()))
            .flat_map(|s| [s.challenger, s.opponent])
            .collect();
        for league in self.leagues() {
            if league.members().contains(&self.identity.me()) {
                out.extend(league.members());
            }
        }
        out.extend(self.identity.mailboxes().iter().filter_map(player_of_peer));
        out.remove(&self.identity.me());
        out
    }

    /// Forgets the profile of `player` unless the node still has a part with them (after
    /// their unanswered challenge was dropped).
    pub(super) fn forget_profile_unless_known(&mut self, player: &PlayerId) {
        if self.profile_keepers().contains(player) {
            return;
        }
        if let Err(e) = self.store.remove_profile(player) {
            tracing::warn!(%player, "a dropped challenger's profile not forgotten: {e}");
        }
    }

    /// Whether a profile of `player` may be kept here (see the module's notes).
    fn keeps_profiles_of(&self, known: &HashSet<PlayerId>, player: &PlayerId) -> bool {
        *player != self.identity.me() && !self.limits.is_blocked(player) && known.contains(player)
    }

    /// The players whose profiles this node keeps.
    fn profile_keepers(&self) -> HashSet<PlayerId> {
        let mut known: HashSet<PlayerId> = self
            .games
            .values()
            .filter(|s| {
                s.status != Status::Pending
                    || s.plays(&self.identity.me())
                    || self.identity.is_mailbox()
            })
            .flat_map(|s| {
                [s.challenger, s.opponent]
                    .into_iter()
                    .chain(s.arbiters.iter().copied())
            })
            .collect();
        // A challenge waiting for our answer counts, so the player sees who challenges
        // them; its profile goes with it when the quota drops it (`drop_pending`), so a
        // stranger rotating keys leaves none behind. A mailbox keeps the players of every
        // game it holds, which its own quotas bound.
        known.extend(self.trusted_players());
        for league in self.leagues() {
            known.extend(league.members());
        }
        known
    }

    /// Sends the player's profile to `player` unless it holds it already or a send is in
    /// flight; the answer comes back as [`Internal::ProfileSent`].
    pub(super) fn share_profile(&mut self, player: PlayerId) {
        if player == self.identity.me() {
            return;
        }
        let Some(bytes) = self.profiles.to_send(&player) else {
            return;
        };
        let Some(peer) = peer_of_player(&player) else {
            return;
        };
        let request = Request::Profiles {
            profiles: vec![bytes.to_vec()],
        };
        self.profiles.sending(player);
        let net = self.net.clone();
        let tx = self.internal_tx.clone();
        tokio::spawn(async move {
            let result = net.request(peer, request).await;
            let _ = tx.send(Internal::ProfileSent { player, result }).await;
        });
    }

    /// The answer to [`Service::share_profile`].
    pub(super) fn profile_sent(
        &mut self,
        player: PlayerId,
        result: Result<Response, NetworkError>,
    ) {
        match result {
            Ok(Response::Stored { count }) if count >= 1 => {
                self.profiles.kept(player);
            }
            other => {
                debug!(%player, "profile not kept (yet): {other:?}");
                self.profiles.not_kept(&player);
            }
        }
    }

    /// After new events of `game` arrived: its other player gets our profile (the receipt of
    /// our challenge, the acceptance of theirs, a move all come this way).
    pub(super) fn share_profile_in(&mut self, game: &sobre_core::record::GameId) {
        let Some(s) = self.games.get(game) else {
            return;
        };
        if !s.plays(&self.identity.me())
            || (s.status == Status::Pending && s.challenger != self.identity.me())
        {
            return;
        }
        let other = if s.challenger == self.identity.me() {
            s.opponent
        } else {
            s.challenger
        };
        self.share_profile(other);
        // The mailboxes hold the game now: they keep the profile for the opponent.
        for m in self.identity.mailboxes().to_vec() {
            if let Some(p) = player_of_peer(&m) {
                self.share_profile(p);
            }
        }
    }

    /// Sends the profile to every player of the audience who does not hold it yet.
    pub(super) fn share_profile_with_all(&mut self) {
        for p in self.profile_audience() {
            self.share_profile(p);
        }
    }

    /// On the retry tick: once a minute, to those who have not acknowledged it.
    pub(super) fn profile_tick(&mut self) {
        if !self.profiles.resend_due(now_ms()) {
            return;
        }
        self.share_profile_with_all();
    }

    /// A peer connected: our profile if it is in the audience (and our mailboxes, which pass
    /// it on), and the profiles we hold of the other players of the games we share with it
    /// (among `shared`, the games it plays or keeps an envelope of).
    pub(super) fn profiles_on_connected(&mut self, peer: PeerId, shared: &[GameId]) {
        let Some(who) = player_of_peer(&peer) else {
            return;
        };
        if self.profile_audience().contains(&who) {
            // Connected again: it may have lost it (a repair), send once more.
            self.profiles.connected_again(&who);
            self.share_profile(who);
        }
        let mut relay: Vec<Vec<u8>> = Vec::new();
        let others: HashSet<PlayerId> = shared
            .iter()
            .filter_map(|g| self.games.get(g))
            .filter(|s| s.plays(&who) && s.status != Status::Pending)
            .flat_map(|s| [s.challenger, s.opponent])
            .filter(|p| *p != who && *p != self.identity.me())
            .collect();
        for p in others {
            if relay.len() >= MAX_PROFILES_PER_MESSAGE {
                break;
            }
            if let Ok(Some(s)) = self.store.profile(&p)
                && let Ok(b) = s.to_bytes()
            {
                relay.push(b);
            }
        }
        if relay.is_empty() {
            return;
        }
        let net = self.net.clone();
        tokio::spawn(async move {
            if let Err(e) = net
                .request(peer, Request::Profiles { profiles: relay })
                .await
            {
                debug!(%peer, "profiles not passed on: {e}");
            }
        });
    }

    /// A peer's [`Request::Profiles`]: keeps the newer profiles of players this node has a
    /// part with.
    pub(super) async fn answer_profiles(
        &mut self,
        peer: PeerId,
        profiles: Vec<Vec<u8>>,
    ) -> Response {
        if profiles.len() > MAX_PROFILES_PER_MESSAGE {
            let reason = format!(
                "{} profiles in one request; at most {MAX_PROFILES_PER_MESSAGE}",
                profiles.len()
            );
            let _ = self.net.penalize(peer, reason.clone()).await;
            return Response::Refused { reason };
        }
        let known = self.profile_keepers();
        let now = now_ms();
        let mut current = 0u32;
        for bytes in profiles {
            let signed = match SignedProfile::from_bytes(&bytes) {
                Ok(s) => s,
                Err(e) => {
                    let reason = format!("undecodable profile: {e}");
                    warn!(%peer, "{reason}");
                    let _ = self.net.penalize(peer, reason.clone()).await;
                    return Response::Refused { reason };
                }
            };
            // Cheap checks first: whose it is, and whether it is newer than the one kept. A
            // body this build cannot read may be a later version's: skipped, not blamed (the
            // outer form above is the one every version shares).
            let Ok(claimed) = signed.decode_unverified() else {
                debug!(%peer, "profile body not readable by this version: skipped");
                continue;
            };
            if !self.keeps_profiles_of(&known, &claimed.player) {
                debug!(%peer, player = %claimed.player, "profile of a player this node has no part with: not kept");
                continue;
            }
            let held = self
                .store
                .profile(&claimed.player)
                .ok()
                .flatten()
                .and_then(|h| h.decode_unverified().ok());
            if let Some(h) = &held
                && h.issued_ms >= claimed.issued_ms
            {
                // Already holds this one or a newer one: nothing to do, nothing to verify.
                current += 1;
                continue;
            }
            match signed.verify(now) {
                Ok(v) => {
                    if held.as_ref().is_some_and(|h| !v.supersedes(h)) {
                        continue;
                    }
                    if let Err(e) = self.store.set_profile(&claimed.player, &v.signed) {
                        warn!(player = %claimed.player, "profile not stored: {e}");
                        continue;
                    }
                    self.commits.wrote();
                    current += 1;
                    self.notify_profile(&v.profile);
                }
                Err(sobre_core::record::ProfileError::FromTheFuture { .. }) => {
                    // Its clock or ours is off: not the sender's fault, not kept.
                    debug!(%peer, player = %claimed.player, "profile dated in the future: not kept");
                }
                Err(sobre_core::record::ProfileError::Version(v)) => {
                    debug!(%peer, version = v, "profile of a later version: skipped");
                }
                Err(e) => {
                    let reason = format!("invalid profile: {e}");
                    warn!(%peer, "{reason}");
                    let _ = self.net.penalize(peer, reason.clone()).await;
                    return Response::Refused { reason };
                }
            }
        }
        Response::Stored { count: current }
    }

    fn notify_profile(&self, p: &Profile) {
        if !self.watchers.watched() {
            return;
        }
        self.watchers.publish(WatchEvent {
            // A player's profile belongs to no game.
            game: String::new(),
            time_ms: now_ms(),
            detail: NodeEvent::Profile {
                player: p.player.to_string(),
                name: p.name.clone(),
            }
            .into(),
        });
    }

    /// `profile_publish`: the profile file changed; sign it again and send it to everyone.
    pub(super) fn publish_profile(&mut self) -> Result<ProfilesReply, ApiError> {
        self.load_own_profile()?;
        // Everyone again, whatever they acknowledged before: the file may have changed.
        self.profiles.send_to_all_again();
        self.share_profile_with_all();
        Ok(ProfilesReply {
            me: self.profiles.own().map(view),
            players: Vec::new(),
        })
    }
}
