//! A player's signed profile: the name (and club, federation id, languages) others see.
//!
//! A profile is a document signed by the player it names, under its own domain
//! (`"sobre/profile/v1\0"`), so a profile signature can never pass as a game event or a league
//! document. Nobody else can name a player: the signature must be the named player's.
//!
//! A changed name is a new signed profile; the newest issue time wins
//! ([`VerifiedProfile::supersedes`]). A profile dated more than [`MAX_FUTURE_MS`] after the
//! receiver's clock is refused: otherwise one dated in the year 3000 would win against every
//! later rename for good.

use super::codec::{self, CodecError};
use super::identity::{Keypair, PlayerId, domain_message, join_signature, split_signature};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The version every profile carries.
pub const PROFILE_VERSION: u16 = 1;
const SIGN_DOMAIN: &[u8] = b"sobre/profile/v1\0";
/// The longest display name or club, in characters (after trimming).
pub const MAX_NAME_CHARS: usize = 64;
/// The longest federation id, in digits (FIDE ids have up to 9 today).
pub const MAX_FEDERATION_ID_DIGITS: usize = 12;
/// The most languages a profile lists.
pub const MAX_LANGUAGES: usize = 8;
/// The longest language tag (BCP 47 recommends supporting 35 characters).
pub const MAX_LANGUAGE_CHARS: usize = 35;
/// How far in the future a profile's issue time may be, against the receiver's clock.
pub const MAX_FUTURE_MS: u64 = 5 * 60 * 1000;
/// The largest body a valid profile can have (64 characters of up to 4 bytes twice, 8 tags
/// of 35 bytes, the key and the integers), with room: the decoder refuses more before
/// allocating.
pub const MAX_PROFILE_BYTES: u64 = 2048;
/// The largest signed profile on the wire: its body, the signature and two lengths.
pub const MAX_SIGNED_PROFILE_BYTES: u64 = MAX_PROFILE_BYTES + 64 + 16;

/// What a player says about themselves. The text fields are kept trimmed (one form per
/// profile: [`Profile::validate`] refuses untrimmed text).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    pub version: u16,
    pub player: PlayerId,
    pub name: String,
    pub club: Option<String>,
    /// A federation id (e.g. the FIDE id): ASCII digits only.
    pub federation_id: Option<String>,
    /// Language tags (BCP 47 style, e.g. `es`, `en-GB`), most preferred first.
    pub languages: Vec<String>,
    /// When the player signed it, ms since the Unix epoch.
    pub issued_ms: u64,
}

/// The text fields of a profile, for errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextField {
    Name,
    Club,
}

impl fmt::Display for TextField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TextField::Name => "name",
            TextField::Club => "club",
        })
    }
}

/// Why a profile is not acceptable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    #[error("undecodable profile: {0}")]
    Codec(#[from] CodecError),
    #[error("unsupported profile version {0} (this build reads {PROFILE_VERSION})")]
    Version(u16),
    #[error("bad signature on the profile of {0} (a profile must be signed by its player)")]
    BadSignature(PlayerId),
    #[error("the {0} is empty")]
    Empty(TextField),
    #[error("the {field} has {chars} characters; at most {MAX_NAME_CHARS} are allowed")]
    TooLong { field: TextField, chars: usize },
    #[error("the {0} contains a control or text-direction character")]
    ControlCharacter(TextField),
    #[error("the {0} has spaces at its start or end")]
    NotTrimmed(TextField),
    #[error(
        "federation id {0:?} is not 1 to {MAX_FEDERATION_ID_DIGITS} digits (e.g. a FIDE id like 2016192)"
    )]
    FederationId(String),
    #[error("{0} languages; at most {MAX_LANGUAGES} are allowed")]
    TooManyLanguages(usize),
    #[error("{0:?} is not a language tag (like es, en or pt-BR)")]
    Language(String),
    #[error("language {0:?} is listed twice")]
    DuplicateLanguage(String),
    #[error(
        "the profile is dated {issued_ms}, more than {MAX_FUTURE_MS} ms after this clock ({now_ms})"
    )]
    FromTheFuture { issued_ms: u64, now_ms: u64 },
}

/// Characters that have no place in a name shown to others: control characters, and the
/// bidirectional overrides and isolates that make text display in another order than it
/// is stored (a name could otherwise pose as a different one in a table).
fn forbidden(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Checks a display name or club as stored (trimmed, 1 to 64 characters, nothing forbidden).
fn check_text(field: TextField, text: &str) -> Result<(), ProfileError> {
    if text.trim().is_empty() {
        return Err(ProfileError::Empty(field));
    }
    if text.trim() != text {
        return Err(ProfileError::NotTrimmed(field));
    }
    let chars = text.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(ProfileError::TooLong { field, chars });
    }
    if text.chars().any(forbidden) {
        return Err(ProfileError::ControlCharacter(field));
    }
    Ok(())
}

/// A display name as typed: trimmed, then checked. The CLI's `init --name` and `profile set`
/// use it, so a name accepted locally is one every receiver accepts.
///
/// # Errors
/// [`ProfileError`] saying what is wrong with it.
pub fn clean_name(text: &str) -> Result<String, ProfileError> {
    clean(TextField::Name, text)
}

/// A club as typed (see [`clean_name`]).
///
/// # Errors
/// [`ProfileError`] saying what is wrong with it.
pub fn clean_club(text: &str) -> Result<String, ProfileError> {
    clean(TextField::Club, text)
}

fn clean(field: TextField, text: &str) -> Result<String, ProfileError> {
    let t = text.trim();
    check_text(field, t)?;
    Ok(t.to_owned())
}

fn check_federation_id(id: &str) -> Result<(), ProfileError> {
    if id.is_empty()
        || id.len() > MAX_FEDERATION_ID_DIGITS
        || !id.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(ProfileError::FederationId(id.to_owned()));
    }
    Ok(())
}

/// A BCP 47 style tag: a primary subtag of 2 to 8 ASCII letters, then subtags of 1 to 8 ASCII
/// letters or digits, joined by `-`. (Checked for shape, not against the registry.)
fn check_language(tag: &str) -> Result<(), ProfileError> {
    let bad = || ProfileError::Language(tag.to_owned());
    if tag.is_empty() || tag.len() > MAX_LANGUAGE_CHARS {
        return Err(bad());
    }
    let mut parts = tag.split('-');
    let primary = parts.next().ok_or_else(bad)?;
    if !(2..=8).contains(&primary.len()) || !primary.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(bad());
    }
    for p in parts {
        if !(1..=8).contains(&p.len()) || !p.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(bad());
        }
    }
    Ok(())
}

/// Language tags as typed (`es, en-GB`): trimmed, checked, duplicates refused.
///
/// # Errors
/// [`ProfileError`] naming the bad tag.
pub fn clean_languages<S: AsRef<str>>(tags: &[S]) -> Result<Vec<String>, ProfileError> {
    let tags: Vec<String> = tags
        .iter()
        .map(|t| t.as_ref().trim().to_owned())
        .filter(|t| !t.is_empty())
        .collect();
    check_languages(&tags)?;
    Ok(tags)
}

fn check_languages(tags: &[String]) -> Result<(), ProfileError> {
    if tags.len() > MAX_LANGUAGES {
        return Err(ProfileError::TooManyLanguages(tags.len()));
    }
    for (i, t) in tags.iter().enumerate() {
        check_language(t)?;
        if tags[..i].iter().any(|u| u.eq_ignore_ascii_case(t)) {
            return Err(ProfileError::DuplicateLanguage(t.clone()));
        }
    }
    Ok(())
}

impl Profile {
    /// Checks every field (not the signature, not the time).
    ///
    /// # Errors
    /// [`ProfileError`] naming the first bad field.
    pub fn validate(&self) -> Result<(), ProfileError> {
        if self.version != PROFILE_VERSION {
            return Err(ProfileError::Version(self.version));
        }
        check_text(TextField::Name, &self.name)?;
        if let Some(club) = &self.club {
            check_text(TextField::Club, club)?;
        }
        if let Some(id) = &self.federation_id {
            check_federation_id(id)?;
        }
        check_languages(&self.languages)
    }
}

/// A profile as signed: the body exactly as signed, and the signature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedProfile {
    pub body: Vec<u8>,
    pub signature: ([u8; 32], [u8; 32]),
}

/// A profile whose fields, signature and time have been checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedProfile {
    pub profile: Profile,
    pub signed: SignedProfile,
}

fn signing_bytes(body: &[u8]) -> Vec<u8> {
    domain_message(SIGN_DOMAIN, body)
}

impl SignedProfile {
    /// Signs a profile with the player's key, after checking its fields and that it names
    /// the key's player.
    ///
    /// # Errors
    /// [`ProfileError`] for a bad field; [`ProfileError::BadSignature`] if `key` is not the
    /// named player's.
    pub fn sign(profile: &Profile, key: &Keypair) -> Result<SignedProfile, ProfileError> {
        profile.validate()?;
        if key.player_id() != profile.player {
            return Err(ProfileError::BadSignature(profile.player));
        }
        let body = codec::encode(profile)?;
        if body.len() as u64 > MAX_PROFILE_BYTES {
            return Err(CodecError::TooLarge {
                len: body.len(),
                limit: MAX_PROFILE_BYTES,
            }
            .into());
        }
        let sig = key.sign(&signing_bytes(&body));
        Ok(SignedProfile {
            body,
            signature: split_signature(&sig),
        })
    }

    /// The wire form.
    ///
    /// # Errors
    /// Never in practice.
    pub fn to_bytes(&self) -> Result<Vec<u8>, CodecError> {
        codec::encode(self)
    }

    /// Reads the wire form, size-capped and canonical.
    ///
    /// # Errors
    /// [`CodecError`] if the bytes are not one canonical signed profile.
    pub fn from_bytes(bytes: &[u8]) -> Result<SignedProfile, CodecError> {
        codec::decode(bytes, MAX_SIGNED_PROFILE_BYTES)
    }

    /// The profile, decoded but not checked: to compare issue times before paying for a
    /// signature check.
    ///
    /// # Errors
    /// [`ProfileError::Codec`] if the body does not decode.
    pub fn decode_unverified(&self) -> Result<Profile, ProfileError> {
        Ok(codec::decode(&self.body, MAX_PROFILE_BYTES)?)
    }

    /// Checks the fields, the signature (`verify_strict`, by the player the profile names)
    /// and the time against the receiver's clock `now_ms`.
    ///
    /// # Errors
    /// [`ProfileError`] naming the problem.
    pub fn verify(&self, now_ms: u64) -> Result<VerifiedProfile, ProfileError> {
        let profile = self.decode_unverified()?;
        profile.validate()?;
        if profile.issued_ms > now_ms.saturating_add(MAX_FUTURE_MS) {
            return Err(ProfileError::FromTheFuture {
                issued_ms: profile.issued_ms,
                now_ms,
            });
        }
        if !profile
            .player
            .verify(&signing_bytes(&self.body), &join_signature(&self.signature))
        {
            return Err(ProfileError::BadSignature(profile.player));
        }
        Ok(VerifiedProfile {
            profile,
            signed: self.clone(),
        })
    }
}

impl VerifiedProfile {
    /// Whether this profile replaces `held` (the one kept for the same player): only a
    /// strictly newer one does, so a replayed or older profile changes nothing, and of two
    /// signed at the same millisecond the first one kept stays.
    pub fn supersedes(&self, held: &Profile) -> bool {
        self.profile.player == held.player && self.profile.issued_ms > held.issued_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NOW: u64 = 1_700_000_000_000;

    fn key(n: u8) -> Keypair {
        Keypair::from_secret_bytes(&[n; 32])
    }

    fn profile(k: &Keypair, name: &str, t: u64) -> Profile {
        Profile {
            version: PROFILE_VERSION,
            player: k.player_id(),
            name: name.to_owned(),
            club: Some("Club de Ajedrez Sobre".into()),
            federation_id: Some("2016192".into()),
            languages: vec!["es".into(), "en-GB".into()],
            issued_ms: t,
        }
    }

    #[test]
    fn sign_encode_decode_verify() {
        let k = key(1);
        let p = profile(&k, "Ana Pérez", NOW);
        let s = SignedProfile::sign(&p, &k).unwrap();
        let bytes = s.to_bytes().unwrap();
        let back = SignedProfile::from_bytes(&bytes).unwrap();
        let v = back.verify(NOW).unwrap();
        assert_eq!(v.profile, p);
    }

    #[test]
    fn only_the_named_player_signs() {
        let (ana, eve) = (key(1), key(2));
        let p = profile(&ana, "Ana", NOW);
        assert_eq!(
            SignedProfile::sign(&p, &eve),
            Err(ProfileError::BadSignature(ana.player_id()))
        );
        // Eve signs a profile that names Ana by hand: refused on arrival.
        let body = codec::encode(&p).unwrap();
        let sig = eve.sign(&signing_bytes(&body));
        let (a, b) = split_signature(&sig);
        let forged = SignedProfile {
            body,
            signature: (a, b),
        };
        assert_eq!(
            forged.verify(NOW),
            Err(ProfileError::BadSignature(ana.player_id()))
        );
    }

    #[test]
    fn a_profile_signature_is_not_a_league_or_event_signature() {
        // The same body signed under another domain does not verify as a profile.
        let k = key(1);
        let p = profile(&k, "Ana", NOW);
        let body = codec::encode(&p).unwrap();
        let mut other = b"sobre/league/v1\0".to_vec();
        other.extend_from_slice(&body);
        let sig = k.sign(&other);
        let (a, b) = split_signature(&sig);
        let s = SignedProfile {
            body,
            signature: (a, b),
        };
        assert!(matches!(s.verify(NOW), Err(ProfileError::BadSignature(_))));
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(clean_name("  Ana  ").unwrap(), "Ana");
        assert_eq!(clean_name("   "), Err(ProfileError::Empty(TextField::Name)));
        assert_eq!(clean_name(&"ñ".repeat(64)).unwrap().chars().count(), 64);
        assert_eq!(
            clean_name(&"ñ".repeat(65)),
            Err(ProfileError::TooLong {
                field: TextField::Name,
                chars: 65
            })
        );
        assert_eq!(
            clean_name("Ana\u{7}"),
            Err(ProfileError::ControlCharacter(TextField::Name))
        );
        assert_eq!(
            clean_name("Ana\nBob"),
            Err(ProfileError::ControlCharacter(TextField::Name))
        );
        assert_eq!(
            clean_name("Ana\u{202E}boB"),
            Err(ProfileError::ControlCharacter(TextField::Name))
        );
        assert_eq!(clean_club("\t"), Err(ProfileError::Empty(TextField::Club)));
    }

    #[test]
    fn stored_fields_must_be_canonical_and_bounded() {
        let k = key(1);
        let mut p = profile(&k, " Ana", NOW);
        assert_eq!(
            SignedProfile::sign(&p, &k),
            Err(ProfileError::NotTrimmed(TextField::Name))
        );
        p.name = "Ana".into();
        p.federation_id = Some("12a".into());
        assert_eq!(
            SignedProfile::sign(&p, &k),
            Err(ProfileError::FederationId("12a".into()))
        );
        p.federation_id = Some("1".repeat(13));
        assert!(matches!(
            SignedProfile::sign(&p, &k),
            Err(ProfileError::FederationId(_))
        ));
        p.federation_id = None;
        p.languages = vec!["es".into(), "ES".into()];
        assert_eq!(
            SignedProfile::sign(&p, &k),
            Err(ProfileError::DuplicateLanguage("ES".into()))
        );
        p.languages = vec!["e".into()];
        assert_eq!(
            SignedProfile::sign(&p, &k),
            Err(ProfileError::Language("e".into()))
        );
        p.languages = vec!["es_ES".into()];
        assert!(matches!(
            SignedProfile::sign(&p, &k),
            Err(ProfileError::Language(_))
        ));
        p.languages = (0..9).map(|i| format!("l{}", "x".repeat(i + 1))).collect();
        assert_eq!(
            SignedProfile::sign(&p, &k),
            Err(ProfileError::TooManyLanguages(9))
        );
        p.languages = vec![];
        p.version = 2;
        assert_eq!(SignedProfile::sign(&p, &k), Err(ProfileError::Version(2)));
        assert_eq!(
            clean_languages(&["es", " pt-BR ", ""]).unwrap(),
            vec!["es".to_owned(), "pt-BR".to_owned()]
        );
    }

    #[test]
    fn the_largest_valid_profile_fits_the_limit() {
        let k = key(1);
        let p = Profile {
            version: PROFILE_VERSION,
            player: k.player_id(),
            name: "𝕬".repeat(MAX_NAME_CHARS),
            club: Some("𝕬".repeat(MAX_NAME_CHARS)),
            federation_id: Some("9".repeat(MAX_FEDERATION_ID_DIGITS)),
            languages: (0..MAX_LANGUAGES)
                .map(|i| format!("abcdefgh-{i}bcdefgh-abcdefgh-abcde"))
                .collect(),
            issued_ms: u64::MAX,
        };
        let s = SignedProfile::sign(&p, &k).unwrap();
        assert!(SignedProfile::from_bytes(&s.to_bytes().unwrap()).is_ok());
    }

    #[test]
    fn the_future_is_refused_the_newest_wins() {
        let k = key(1);
        let sign = |t| SignedProfile::sign(&profile(&k, "Ana", t), &k).unwrap();
        assert!(sign(NOW + MAX_FUTURE_MS).verify(NOW).is_ok());
        assert_eq!(
            sign(NOW + MAX_FUTURE_MS + 1).verify(NOW),
            Err(ProfileError::FromTheFuture {
                issued_ms: NOW + MAX_FUTURE_MS + 1,
                now_ms: NOW
            })
        );
        let old = sign(NOW - 10).verify(NOW).unwrap();
        let new = sign(NOW).verify(NOW).unwrap();
        assert!(new.supersedes(&old.profile));
        assert!(!old.supersedes(&new.profile));
        assert!(!new.supersedes(&new.profile));
        // Another player's profile never replaces this one.
        let other = key(2);
        let theirs = SignedProfile::sign(&profile(&other, "Eve", NOW + 1), &other)
            .unwrap()
            .verify(NOW)
            .unwrap();
        assert!(!theirs.supersedes(&old.profile));
    }

    #[test]
    fn oversized_and_trailing_bytes_are_refused() {
        let k = key(1);
        let s = SignedProfile::sign(&profile(&k, "Ana", NOW), &k).unwrap();
        let mut bytes = s.to_bytes().unwrap();
        bytes.push(0);
        assert!(SignedProfile::from_bytes(&bytes).is_err());
        let huge = vec![0u8; MAX_SIGNED_PROFILE_BYTES as usize + 1];
        assert!(matches!(
            SignedProfile::from_bytes(&huge),
            Err(CodecError::TooLarge { .. })
        ));
    }

    proptest! {
        #[test]
        fn round_trip_and_any_tampering_is_refused(
            name in "[a-zA-Z0-9 ñé]{0,70}",
            club in proptest::option::of("[a-zA-Z ]{1,20}"),
            fide in proptest::option::of("[0-9]{1,12}"),
            t in 0u64..NOW,
            flip in any::<prop::sample::Index>(),
            bit in 0u8..8,
        ) {
            let k = key(3);
            let p = Profile {
                version: PROFILE_VERSION,
                player: k.player_id(),
                name: name.trim().to_owned(),
                club: club.map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()),
                federation_id: fide,
                languages: vec!["es".into()],
                issued_ms: t,
            };
            match SignedProfile::sign(&p, &k) {
                Err(e) => {
                    // Only a bad name is refused here.
                    prop_assert!(p.name.is_empty() || p.name.chars().count() > MAX_NAME_CHARS, "{e}");
                }
                Ok(s) => {
                    let bytes = s.to_bytes().unwrap();
                    let v = SignedProfile::from_bytes(&bytes).unwrap().verify(NOW).unwrap();
                    prop_assert_eq!(&v.profile, &p);
                    let mut bad = bytes.clone();
                    let i = flip.index(bad.len());
                    bad[i] ^= 1 << bit;
                    let verdict = SignedProfile::from_bytes(&bad)
                        .map_err(ProfileError::from)
                        .and_then(|s| s.verify(NOW));
                    match verdict {
                        Err(_) => {}
                        // A flipped bit can only pass if it left a valid profile signed by
                        // the player it names: never the tampered one.
                        Ok(v) => prop_assert!(false, "tampered profile verified: {:?}", v.profile),
                    }
                }
            }
        }
    }
}
