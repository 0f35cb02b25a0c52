//! Commitments: the sealed move (Appendix A) and the fair coin between players who do not
//! trust each other (random colours; a Chess960 start position drawn by lot, F1).
//!
//! Both are SHA-256 hash commitments with a versioned domain tag and length-prefixed fields,
//! so no two different inputs share an encoding.

use super::event::GameId;
use super::identity::PlayerId;
use sha2::{Digest, Sha256};

const SEAL_DOMAIN: &[u8] = b"sobre/seal/v1\0";
const COIN_DOMAIN: &[u8] = b"sobre/coin/v1\0";
const COIN_RESULT_DOMAIN: &[u8] = b"sobre/coin-result/v1\0";

fn field(h: &mut Sha256, bytes: &[u8]) {
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// The commitment to a sealed move (A1: the move is written down *as the player wrote it*,
/// so A8 — ambiguous, unintelligible or illegal — is decided on that text at the opening).
///
/// `SHA-256("sobre/seal/v1\0" ‖ [game] ‖ ply ‖ [sealer] ‖ [move text] ‖ salt)`, where `[x]`
/// is `x` prefixed by its length as a little-endian u64 and `ply` is a little-endian u32.
/// The 32-byte salt comes from the sealer's node RNG and stays secret until the reveal, so
/// the opponent cannot test guesses against the commitment.
pub fn seal_commitment(
    game: &GameId,
    ply: u32,
    sealer: &PlayerId,
    move_text: &str,
    salt: &[u8; 32],
) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(SEAL_DOMAIN);
    field(&mut h, &game.0);
    h.update(ply.to_le_bytes());
    field(&mut h, sealer.as_bytes());
    field(&mut h, move_text.as_bytes());
    h.update(salt);
    h.finalize().into()
}

/// The challenger's commitment to their share of the coin.
pub fn coin_commitment(secret: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(COIN_DOMAIN);
    h.update(secret);
    h.finalize().into()
}

/// The coin: neither side can bias it. The challenger commits first (in the challenge), the
/// opponent then gives a share in clear (in the acceptance), and the challenger opens the
/// commitment; the result mixes both shares with the game id. The challenger knows the
/// result before she opens; one who dislikes it and withholds the opening loses the draw:
/// after the deadline the opponent settles the coin by default with the colours and start
/// she chooses (`rules::coin`, wire tag 20), so withholding gets her nothing the opponent
/// did not choose.
pub fn coin(game: &GameId, challenger_secret: &[u8; 32], opponent_share: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(COIN_RESULT_DOMAIN);
    h.update(game.0);
    h.update(challenger_secret);
    h.update(opponent_share);
    h.finalize().into()
}

/// True if the coin gives White to the challenger.
pub fn challenger_is_white(coin: &[u8; 32]) -> bool {
    coin[0] & 1 == 0
}

/// The Chess960 start position the coin draws (Scharnagl number 0..960). Uses other bytes
/// than the colour bit, so colour and position are independent.
pub fn chess960_position(coin: &[u8; 32]) -> u16 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&coin[8..16]);
    (u64::from_le_bytes(b) % 960) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::identity::Keypair;

    fn g(n: u8) -> GameId {
        GameId::from_hex(&format!("{n:02x}").repeat(32)).unwrap()
    }

    #[test]
    fn a1_seal_commitment_binds_game_ply_sealer_move_and_salt() {
        let sealer = Keypair::from_secret_bytes(&[3; 32]).player_id();
        let other = Keypair::from_secret_bytes(&[4; 32]).player_id();
        let base = seal_commitment(&g(1), 41, &sealer, "Cf3", &[9; 32]);
        assert_eq!(base, seal_commitment(&g(1), 41, &sealer, "Cf3", &[9; 32]));
        assert_ne!(base, seal_commitment(&g(2), 41, &sealer, "Cf3", &[9; 32]));
        assert_ne!(base, seal_commitment(&g(1), 42, &sealer, "Cf3", &[9; 32]));
        assert_ne!(base, seal_commitment(&g(1), 41, &other, "Cf3", &[9; 32]));
        assert_ne!(base, seal_commitment(&g(1), 41, &sealer, "Nf3", &[9; 32]));
        assert_ne!(base, seal_commitment(&g(1), 41, &sealer, "Cf3", &[8; 32]));
    }

    #[test]
    fn coin_needs_both_shares() {
        let a = coin(&g(1), &[1; 32], &[2; 32]);
        assert_ne!(a, coin(&g(1), &[1; 32], &[3; 32]));
        assert_ne!(a, coin(&g(1), &[5; 32], &[2; 32]));
        assert!(chess960_position(&a) < 960);
        // Over many games both colours come up.
        let whites = (0..64u8)
            .filter(|&n| challenger_is_white(&coin(&g(n), &[1; 32], &[2; 32])))
            .count();
        assert!((16..=48).contains(&whites), "{whites}");
    }
}
