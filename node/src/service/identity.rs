//! Who this node is: the player's home directory and key, whether it runs as a mailbox, and
//! the mailboxes the player uses. Fixed for the life of the process: the service reads it
//! everywhere and never changes it, so it is handed out through accessors only.

use crate::home;
use libp2p::PeerId;
use sobre_core::record::{GameId, Keypair, PlayerId};
use std::path::{Path, PathBuf};

pub(super) struct Identity {
    /// The node's home: the database, the key, the player's files.
    home: PathBuf,
    key: Keypair,
    /// The player, `key`'s public half (kept to avoid deriving it at every use).
    me: PlayerId,
    /// This node stores and serves every valid event of the games it is told about.
    mailbox: bool,
    /// The mailbox nodes this player uses (those of `--mailbox` addresses with a `/p2p/`
    /// part): every event is delivered there too, and their connections are reserved.
    mailboxes: Vec<PeerId>,
}

impl Identity {
    pub(super) fn new(
        home: PathBuf,
        key: Keypair,
        mailbox: bool,
        mailboxes: Vec<PeerId>,
    ) -> Identity {
        let me = key.player_id();
        Identity {
            home,
            key,
            me,
            mailbox,
            mailboxes,
        }
    }

    /// The player this node signs for.
    pub(super) fn me(&self) -> PlayerId {
        self.me
    }

    /// The player, borrowed, for what must hand out a reference (`ReadSide::player`).
    pub(super) fn player(&self) -> &PlayerId {
        &self.me
    }

    pub(super) fn key(&self) -> &Keypair {
        &self.key
    }

    pub(super) fn home(&self) -> &Path {
        &self.home
    }

    /// Whether this node runs as a mailbox (`--mailbox`).
    pub(super) fn is_mailbox(&self) -> bool {
        self.mailbox
    }

    /// The mailboxes the player uses.
    pub(super) fn mailboxes(&self) -> &[PeerId] {
        &self.mailboxes
    }

    /// Whether `peer` is one of the player's mailboxes.
    pub(super) fn is_my_mailbox(&self, peer: &PeerId) -> bool {
        self.mailboxes.contains(peer)
    }

    /// The player's name from `HOME/profile.json`, through its one reader (none if
    /// unreadable).
    pub(super) fn name(&self) -> Option<String> {
        crate::profile::read(&self.home).ok()?.name
    }

    /// Where the secret of the fair coin the player committed to in `game` is kept.
    pub(super) fn coin_path(&self, game: &GameId) -> PathBuf {
        home::openings_dir(&self.home).join(format!("{game}.coin"))
    }

    /// Where the opening of the move the player sealed at `ply` of `game` is kept.
    pub(super) fn opening_path(&self, game: &GameId, ply: u32) -> PathBuf {
        home::openings_dir(&self.home).join(format!("{game}-{ply}.seal.json"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer(seed: u8) -> PeerId {
        Keypair::from_secret_bytes(&[seed; 32])
            .player_id()
            .peer_id()
            .expect("an ed25519 key is a peer id")
    }

    #[test]
    fn the_player_is_the_keys_and_mailboxes_are_the_ones_given() {
        let key = Keypair::from_secret_bytes(&[1; 32]);
        let me = key.player_id();
        let id = Identity::new(PathBuf::from("/h"), key, false, vec![peer(2)]);
        assert_eq!(id.me(), me);
        assert_eq!(id.player(), &me);
        assert_eq!(id.key().player_id(), me);
        assert!(!id.is_mailbox());
        assert!(id.is_my_mailbox(&peer(2)));
        assert!(!id.is_my_mailbox(&peer(3)));
        assert_eq!(id.mailboxes(), &[peer(2)]);
    }

    #[test]
    fn secrets_are_kept_per_game_and_ply_under_the_home() {
        let id = Identity::new(
            PathBuf::from("/h"),
            Keypair::from_secret_bytes(&[1; 32]),
            true,
            Vec::new(),
        );
        let game = sobre_core::record::EventId([7; 32]);
        let coin = id.coin_path(&game);
        let seal = id.opening_path(&game, 12);
        assert!(coin.starts_with(home::openings_dir(Path::new("/h"))));
        assert_eq!(coin.file_name(), Some(format!("{game}.coin").as_ref()));
        assert_eq!(
            seal.file_name(),
            Some(format!("{game}-12.seal.json").as_ref())
        );
        assert_ne!(id.opening_path(&game, 13), seal);
        assert!(id.is_mailbox());
        assert!(
            id.name().is_none(),
            "no profile in a home that does not exist"
        );
    }
}
