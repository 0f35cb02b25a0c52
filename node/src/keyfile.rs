//! The player's key under a passphrase: `sobre key export FILE` and `sobre key import FILE`,
//! to keep a backup or move to a new computer.
//!
//! The file is binary, fixed size ([`FILE_BYTES`]):
//!
//! ```text
//! magic "SOBREKEY" ‖ version 1 ‖ Argon2id m_cost, t_cost, p_cost (u32 LE each) ‖
//! salt (16) ‖ player (32, the public key) ‖ check (32) ‖ nonce (12) ‖
//! ChaCha20-Poly1305(secret key, 32 bytes) with its tag (16)
//! ```
//!
//! Argon2id turns the passphrase and salt into 64 bytes: the first 32 are the cipher's key,
//! the last 32 give `check = SHA-256("sobre/key-export/check/v1\0" ‖ them)`. Everything
//! before the ciphertext is the cipher's associated data, so nothing in the file can change
//! unnoticed. The check tells a wrong passphrase apart from a damaged or altered file
//! (a passphrase that gives the right check but does not open the ciphertext means the file
//! was changed), and the decrypted secret must be the key of the player named in the header.
//! The check costs an attacker nothing they lack: guessing passphrases against it is as hard
//! as against the ciphertext, and each guess costs one Argon2id.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use sha2::{Digest, Sha256};
use sobre_core::record::{Keypair, PlayerId};
use zeroize::Zeroizing;

const MAGIC: &[u8; 8] = b"SOBREKEY";
const VERSION: u8 = 1;
const CHECK_DOMAIN: &[u8] = b"sobre/key-export/check/v1\0";
const HEADER_BYTES: usize = 8 + 1 + 12 + 16 + 32 + 32 + 12;
/// The size of every key file of version 1.
pub const FILE_BYTES: usize = HEADER_BYTES + 32 + 16;

/// Argon2id's memory (KiB), passes and lanes for a new file: OWASP's first recommended
/// setting for Argon2id is 19 MiB and 2 passes; a key file is opened rarely, so more.
const M_COST_KIB: u32 = 64 * 1024;
const T_COST: u32 = 3;
const P_COST: u32 = 1;
/// The most a file may ask for: a crafted file must not make `import` allocate gigabytes.
const MAX_M_COST_KIB: u32 = 1024 * 1024;
const MAX_T_COST: u32 = 16;
const MAX_P_COST: u32 = 8;

/// The shortest passphrase accepted for a new file.
pub const MIN_PASSPHRASE_CHARS: usize = 8;

/// Why a key file cannot be written or opened.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KeyFileError {
    #[error("the passphrase is too short: at least {MIN_PASSPHRASE_CHARS} characters")]
    WeakPassphrase,
    #[error(
        "not a sobre key file (it does not start with SOBREKEY, or it is {0} bytes, not {FILE_BYTES})"
    )]
    NotAKeyFile(usize),
    #[error("a key file of version {0}; this sobre reads version {VERSION}")]
    Version(u8),
    #[error(
        "the key file asks for Argon2id parameters out of bounds (memory {m_kib} KiB, {t} passes, {p} lanes)"
    )]
    Parameters { m_kib: u32, t: u32, p: u32 },
    #[error("wrong passphrase")]
    WrongPassphrase,
    #[error("the key file was altered or damaged: it does not decrypt to the key it names")]
    Tampered,
    #[error("key derivation failed: {0}")]
    Kdf(String),
}

/// Encrypts `key` under `passphrase` with a fresh `salt` and `nonce` (the caller draws them
/// from the OS random generator; tests pass fixed ones).
///
/// # Errors
/// [`KeyFileError::WeakPassphrase`] for a passphrase shorter than
/// [`MIN_PASSPHRASE_CHARS`]; [`KeyFileError::Kdf`] if Argon2 fails.
pub fn seal(
    key: &Keypair,
    passphrase: &str,
    salt: [u8; 16],
    nonce: [u8; 12],
) -> Result<Vec<u8>, KeyFileError> {
    if passphrase.chars().count() < MIN_PASSPHRASE_CHARS {
        return Err(KeyFileError::WeakPassphrase);
    }
    let derived = derive(passphrase, &salt, M_COST_KIB, T_COST, P_COST)?;
    let mut out = Vec::with_capacity(FILE_BYTES);
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    for n in [M_COST_KIB, T_COST, P_COST] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    out.extend_from_slice(&salt);
    out.extend_from_slice(key.player_id().as_bytes());
    out.extend_from_slice(&check(&derived));
    out.extend_from_slice(&nonce);
    let cipher = ChaCha20Poly1305::new(Key::from_slice(&derived[..32]));
    let secret = Zeroizing::new(key.secret_bytes());
    let sealed = cipher
        .encrypt(
            Nonce::from_slice(&nonce),
            Payload {
                msg: secret.as_slice(),
                aad: &out,
            },
        )
        .map_err(|_| KeyFileError::Kdf("encryption failed".into()))?;
    out.extend_from_slice(&sealed);
    Ok(out)
}

/// [`seal`] with a salt and nonce from the OS random generator.
///
/// # Errors
/// As [`seal`].
pub fn seal_fresh(key: &Keypair, passphrase: &str) -> Result<Vec<u8>, KeyFileError> {
    let mut salt = [0u8; 16];
    let mut nonce = [0u8; 12];
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut salt);
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut nonce);
    seal(key, passphrase, salt, nonce)
}

/// The player a key file holds the key of, read from its header without the passphrase.
///
/// # Errors
/// [`KeyFileError::NotAKeyFile`] or [`KeyFileError::Version`].
pub fn player_of(file: &[u8]) -> Result<PlayerId, KeyFileError> {
    header(file)?;
    let mut player = [0u8; 32];
    player.copy_from_slice(&file[37..69]);
    Ok(PlayerId::from_bytes(player))
}

/// Opens a key file with `passphrase`.
///
/// # Errors
/// [`KeyFileError::WrongPassphrase`], [`KeyFileError::Tampered`], or what is wrong with
/// the file's form.
pub fn open(file: &[u8], passphrase: &str) -> Result<Keypair, KeyFileError> {
    let (m, t, p) = header(file)?;
    let salt = &file[21..37];
    let player = player_of(file)?;
    let stored_check = &file[69..101];
    let nonce = &file[101..113];
    let derived = derive(passphrase, salt, m, t, p)?;
    if check(&derived).as_slice() != stored_check {
        return Err(KeyFileError::WrongPassphrase);
    }
    let cipher = ChaCha20Poly1305::new(Key::from_slice(&derived[..32]));
    let secret = Zeroizing::new(
        cipher
            .decrypt(
                Nonce::from_slice(nonce),
                Payload {
                    msg: &file[HEADER_BYTES..],
                    aad: &file[..HEADER_BYTES],
                },
            )
            .map_err(|_| KeyFileError::Tampered)?,
    );
    let secret: [u8; 32] = secret
        .as_slice()
        .try_into()
        .map_err(|_| KeyFileError::Tampered)?;
    let key = Keypair::from_secret_bytes(&secret);
    if key.player_id() != player {
        return Err(KeyFileError::Tampered);
    }
    Ok(key)
}

/// The Argon2id parameters of a file whose form is right.
fn header(file: &[u8]) -> Result<(u32, u32, u32), KeyFileError> {
    if file.len() < 9 || &file[..8] != MAGIC {
        return Err(KeyFileError::NotAKeyFile(file.len()));
    }
    if file[8] != VERSION {
        return Err(KeyFileError::Version(file[8]));
    }
    if file.len() != FILE_BYTES {
        return Err(KeyFileError::NotAKeyFile(file.len()));
    }
    let word = |at: usize| {
        let mut b = [0u8; 4];
        b.copy_from_slice(&file[at..at + 4]);
        u32::from_le_bytes(b)
    };
    let (m, t, p) = (word(9), word(13), word(17));
    if !(8 * p..=MAX_M_COST_KIB).contains(&m)
        || !(1..=MAX_T_COST).contains(&t)
        || !(1..=MAX_P_COST).contains(&p)
    {
        return Err(KeyFileError::Parameters { m_kib: m, t, p });
    }
    Ok((m, t, p))
}

fn derive(
    passphrase: &str,
    salt: &[u8],
    m: u32,
    t: u32,
    p: u32,
) -> Result<Zeroizing<[u8; 64]>, KeyFileError> {
    let params =
        argon2::Params::new(m, t, p, Some(64)).map_err(|e| KeyFileError::Kdf(e.to_string()))?;
    let argon = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    let mut out = Zeroizing::new([0u8; 64]);
    argon
        .hash_password_into(passphrase.as_bytes(), salt, out.as_mut_slice())
        .map_err(|e| KeyFileError::Kdf(e.to_string()))?;
    Ok(out)
}

fn check(derived: &[u8; 64]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(CHECK_DOMAIN);
    h.update(&derived[32..]);
    h.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sealed() -> (Keypair, Vec<u8>) {
        let key = Keypair::from_secret_bytes(&[9; 32]);
        let file = seal(&key, "caballo de troya", [1; 16], [2; 12]).unwrap();
        (key, file)
    }

    #[test]
    fn the_right_passphrase_gives_the_same_key_back() {
        let (key, file) = sealed();
        assert_eq!(file.len(), FILE_BYTES);
        assert_eq!(player_of(&file).unwrap(), key.player_id());
        let back = open(&file, "caballo de troya").unwrap();
        assert_eq!(back.secret_bytes(), key.secret_bytes());
        // The secret is not in the file in clear.
        assert!(!file.windows(32).any(|w| w == key.secret_bytes()));
    }

    #[test]
    fn a_wrong_passphrase_is_told_apart_from_an_altered_file() {
        let (_, file) = sealed();
        assert_eq!(
            open(&file, "caballo de Troya").unwrap_err(),
            KeyFileError::WrongPassphrase
        );
        let mut altered = file.clone();
        let last = altered.len() - 20;
        altered[last] ^= 1;
        assert_eq!(
            open(&altered, "caballo de troya").unwrap_err(),
            KeyFileError::Tampered
        );
        // Another player's id in the header: the associated data no longer matches.
        let mut renamed = file.clone();
        renamed[40] ^= 1;
        assert_eq!(
            open(&renamed, "caballo de troya").unwrap_err(),
            KeyFileError::Tampered
        );
    }

    #[test]
    fn malformed_files_and_weak_passphrases_are_refused() {
        let (key, file) = sealed();
        assert_eq!(
            open(b"12345678", "x").unwrap_err(),
            KeyFileError::NotAKeyFile(8)
        );
        assert_eq!(
            open(&file[..FILE_BYTES - 1], "caballo de troya").unwrap_err(),
            KeyFileError::NotAKeyFile(FILE_BYTES - 1)
        );
        let mut v2 = file.clone();
        v2[8] = 2;
        assert_eq!(open(&v2, "x").unwrap_err(), KeyFileError::Version(2));
        // A crafted file asking for 4 GiB of memory is refused before any allocation.
        let mut greedy = file.clone();
        greedy[9..13].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            open(&greedy, "caballo de troya").unwrap_err(),
            KeyFileError::Parameters { .. }
        ));
        assert_eq!(
            seal(&key, "corta", [0; 16], [0; 12]).unwrap_err(),
            KeyFileError::WeakPassphrase
        );
    }
}
