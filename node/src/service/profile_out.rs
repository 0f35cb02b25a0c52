//! The player's own signed profile and who holds it: sent once to each player of its
//! audience, one request at a time, again to everyone when it changes, and once a minute to
//! those that have not acknowledged it. Whom it goes to and how is `profile`'s.

use sobre_core::record::{PlayerId, Profile};
use std::collections::HashMap;

/// How often the own profile is sent again to the players that have not acknowledged it.
const RESEND_MS: u64 = 60_000;

/// The player's own profile and who has acknowledged it.
#[derive(Default)]
pub(super) struct Outgoing {
    /// The wire bytes of the player's signed profile, and the profile (None without a name).
    own: Option<(Vec<u8>, Profile)>,
    /// Players sent the current profile: true once they acknowledged holding it, false while
    /// a request is in flight.
    sent: HashMap<PlayerId, bool>,
    next_resend_ms: u64,
}

impl Outgoing {
    /// The player's profile as signed now (its wire bytes and itself), or none without a
    /// name: a changed one must reach everyone again.
    pub(super) fn set_own(&mut self, own: Option<(Vec<u8>, Profile)>) {
        if own.as_ref().map(|o| &o.0) != self.own.as_ref().map(|o| &o.0) {
            self.sent.clear();
        }
        self.own = own;
    }

    pub(super) fn own(&self) -> Option<&Profile> {
        self.own.as_ref().map(|(_, p)| p)
    }

    /// The bytes to send `player`, unless it holds them already, a send is in flight, or
    /// there is no profile.
    pub(super) fn to_send(&self, player: &PlayerId) -> Option<&[u8]> {
        if self.sent.contains_key(player) {
            return None;
        }
        self.own.as_ref().map(|(b, _)| b.as_slice())
    }

    /// A send to `player` is in flight.
    pub(super) fn sending(&mut self, player: PlayerId) {
        self.sent.insert(player, false);
    }

    /// `player` acknowledged holding the profile.
    pub(super) fn kept(&mut self, player: PlayerId) {
        self.sent.insert(player, true);
    }

    /// `player` did not keep it (yet): it is sent again.
    pub(super) fn not_kept(&mut self, player: &PlayerId) {
        self.sent.remove(player);
    }

    /// `player` connected again: it may have lost the profile (a repair), so it is sent
    /// once more (a send in flight is left alone).
    pub(super) fn connected_again(&mut self, player: &PlayerId) {
        if self.sent.get(player) == Some(&true) {
            self.sent.remove(player);
        }
    }

    /// Everyone again, whatever they acknowledged before.
    pub(super) fn send_to_all_again(&mut self) {
        self.sent.clear();
    }

    /// Whether the resend to those that have not acknowledged is due at `now`: once a
    /// minute, and only with a profile.
    pub(super) fn resend_due(&mut self, now: u64) -> bool {
        if self.own.is_none() || now < self.next_resend_ms {
            return false;
        }
        self.next_resend_ms = now + RESEND_MS;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::Keypair;

    fn profile(name: &str) -> (Vec<u8>, Profile) {
        let player = Keypair::from_secret_bytes(&[1; 32]).player_id();
        let p = Profile {
            version: 1,
            player,
            name: name.to_owned(),
            club: None,
            federation_id: None,
            languages: Vec::new(),
            issued_ms: 0,
        };
        (name.as_bytes().to_vec(), p)
    }

    fn player(n: u8) -> PlayerId {
        Keypair::from_secret_bytes(&[n; 32]).player_id()
    }

    #[test]
    fn a_profile_goes_once_to_each_and_again_to_all_when_it_changes() {
        let mut o = Outgoing::default();
        let (a, b) = (player(2), player(3));
        assert!(o.to_send(&a).is_none(), "no profile, nothing to send");
        o.set_own(Some(profile("Ana")));
        assert_eq!(o.to_send(&a), Some(&b"Ana"[..]));
        o.sending(a);
        assert!(o.to_send(&a).is_none(), "one send in flight");
        o.kept(a);
        o.sending(b);
        o.not_kept(&b);
        assert!(o.to_send(&b).is_some(), "not kept: sent again");
        o.set_own(Some(profile("Ana")));
        assert!(o.to_send(&a).is_none(), "the same profile: still held");
        o.set_own(Some(profile("Ana María")));
        assert!(
            o.to_send(&a).is_some(),
            "a changed profile goes to everyone again"
        );
    }

    #[test]
    fn a_reconnecting_player_gets_it_again_but_a_send_in_flight_is_not_doubled() {
        let mut o = Outgoing::default();
        o.set_own(Some(profile("Ana")));
        let (a, b) = (player(2), player(3));
        o.sending(a);
        o.kept(a);
        o.sending(b);
        o.connected_again(&a);
        o.connected_again(&b);
        assert!(o.to_send(&a).is_some());
        assert!(o.to_send(&b).is_none());
        o.send_to_all_again();
        assert!(o.to_send(&b).is_some());
    }

    #[test]
    fn the_resend_is_due_once_a_minute_and_only_with_a_profile() {
        let mut o = Outgoing::default();
        assert!(!o.resend_due(0));
        o.set_own(Some(profile("Ana")));
        assert!(o.resend_due(0));
        assert!(!o.resend_due(RESEND_MS - 1));
        assert!(o.resend_due(RESEND_MS));
    }
}
