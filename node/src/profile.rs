//! The player's own profile, kept in `HOME/profile.json` (`sobre init --name`, `sobre profile
//! set`), and its signed form, which the node sends to the player's opponents.
//!
//! The file is plain JSON that the player may edit: `name`, `club`, `federation_id`,
//! `languages` and `issued_ms` (when the profile was last changed; the CLI sets it). The
//! signed profile is made from the file each time it is needed: ed25519 signatures are
//! deterministic, so the same file always gives the same bytes. A file written before
//! profiles were signed has no `issued_ms`: its modification time stands in for it.
//! Other keys in the file are kept as they are.

use crate::home;
use serde::Serialize;
use serde_json::Value;
use sobre_core::record::profile::{
    PROFILE_VERSION, ProfileError, clean_club, clean_languages, clean_name,
};
use sobre_core::record::{Keypair, Profile, SignedProfile};
use std::io;
use std::path::{Path, PathBuf};

/// What `HOME/profile.json` holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalProfile {
    pub name: Option<String>,
    pub club: Option<String>,
    pub federation_id: Option<String>,
    pub languages: Vec<String>,
    pub issued_ms: Option<u64>,
}

/// Why the local profile cannot be read, written or signed.
#[derive(Debug, thiserror::Error)]
pub enum LocalProfileError {
    #[error("cannot read or write {path}: {source}")]
    Io { path: String, source: io::Error },
    #[error("{path} is not a JSON object: {reason}")]
    Damaged { path: String, reason: String },
    #[error("the profile in {path} is not valid: {source}")]
    Invalid { path: String, source: ProfileError },
}

pub fn path(home_dir: &Path) -> PathBuf {
    home_dir.join(home::PROFILE_FILE)
}

fn io_err(p: &Path) -> impl FnOnce(io::Error) -> LocalProfileError + '_ {
    move |source| LocalProfileError::Io {
        path: p.display().to_string(),
        source,
    }
}

/// The file as a JSON object (empty if there is none).
fn read_object(p: &Path) -> Result<serde_json::Map<String, Value>, LocalProfileError> {
    let text = match std::fs::read_to_string(p) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(serde_json::Map::new()),
        Err(e) => return Err(io_err(p)(e)),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(LocalProfileError::Damaged {
            path: p.display().to_string(),
            reason: "not an object".into(),
        }),
        Err(e) => Err(LocalProfileError::Damaged {
            path: p.display().to_string(),
            reason: e.to_string(),
        }),
    }
}

/// Reads `HOME/profile.json` (all fields empty if there is none).
///
/// # Errors
/// [`LocalProfileError`] if the file cannot be read or is not a JSON object.
pub fn read(home_dir: &Path) -> Result<LocalProfile, LocalProfileError> {
    let p = path(home_dir);
    let m = read_object(&p)?;
    let text = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_owned);
    let issued_ms = match m.get("issued_ms").and_then(Value::as_u64) {
        Some(t) => Some(t),
        // A file from before signed profiles: its last change.
        None if m.contains_key("name") => std::fs::metadata(&p)
            .and_then(|md| md.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
        None => None,
    };
    Ok(LocalProfile {
        name: text("name"),
        club: text("club"),
        federation_id: m.get("federation_id").and_then(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }),
        languages: m
            .get("languages")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
        issued_ms,
    })
}

/// The keys of `HOME/profile.json` this module writes (the file's other keys are the
/// player's, kept as they are): `null` for a field not set, which removes the key.
#[derive(Serialize)]
struct OwnKeys<'a> {
    name: Option<&'a str>,
    club: Option<&'a str>,
    federation_id: Option<&'a str>,
    /// No languages is no key, like the other fields not set.
    languages: Option<&'a [String]>,
    issued_ms: Option<u64>,
}

impl<'a> OwnKeys<'a> {
    fn of(profile: &'a LocalProfile) -> OwnKeys<'a> {
        OwnKeys {
            name: profile.name.as_deref(),
            club: profile.club.as_deref(),
            federation_id: profile.federation_id.as_deref(),
            languages: Some(profile.languages.as_slice()).filter(|l| !l.is_empty()),
            issued_ms: profile.issued_ms,
        }
    }
}

/// Writes the profile into `HOME/profile.json` (write, fsync, rename), keeping the file's
/// other keys. Checks the fields first, with the rules every receiver applies.
///
/// # Errors
/// [`LocalProfileError::Invalid`] for a bad field; I/O errors.
pub fn write(home_dir: &Path, profile: &LocalProfile) -> Result<(), LocalProfileError> {
    let p = path(home_dir);
    let invalid = |source| LocalProfileError::Invalid {
        path: p.display().to_string(),
        source,
    };
    if let Some(name) = &profile.name {
        clean_name(name).map_err(invalid)?;
    }
    let mut m = read_object(&p)?;
    let own =
        serde_json::to_value(OwnKeys::of(profile)).map_err(|e| LocalProfileError::Damaged {
            path: p.display().to_string(),
            reason: e.to_string(),
        })?;
    if let Value::Object(own) = own {
        for (k, v) in own {
            // A field not set is no key at all, rather than a null the player sees.
            if v.is_null() {
                m.remove(&k);
            } else {
                m.insert(k, v);
            }
        }
    }
    let text = serde_json::to_string_pretty(&Value::Object(m)).map_err(|e| {
        LocalProfileError::Damaged {
            path: p.display().to_string(),
            reason: e.to_string(),
        }
    })? + "\n";
    let tmp = p.with_extension("json.tmp");
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp).map_err(io_err(&tmp))?;
        f.write_all(text.as_bytes()).map_err(io_err(&tmp))?;
        f.sync_all().map_err(io_err(&tmp))?;
    }
    std::fs::rename(&tmp, &p).map_err(io_err(&p))?;
    Ok(())
}

impl LocalProfile {
    /// The profile to sign (None without a name: nothing to show others).
    ///
    /// # Errors
    /// [`ProfileError`] naming the bad field.
    pub fn to_profile(&self, key: &Keypair) -> Result<Option<Profile>, ProfileError> {
        let Some(name) = &self.name else {
            return Ok(None);
        };
        let profile = Profile {
            version: PROFILE_VERSION,
            player: key.player_id(),
            name: clean_name(name)?,
            club: self.club.as_deref().map(clean_club).transpose()?,
            federation_id: self
                .federation_id
                .as_deref()
                .map(str::trim)
                .map(str::to_owned),
            languages: clean_languages(&self.languages)?,
            issued_ms: self.issued_ms.unwrap_or(0),
        };
        profile.validate()?;
        Ok(Some(profile))
    }

    /// The next issue time for a change made at `now_ms`: later than the previous one even
    /// if the clock went back, so that the change wins everywhere (newest wins).
    pub fn next_issue_time(&self, now_ms: u64) -> u64 {
        match self.issued_ms {
            Some(t) if t >= now_ms => t.saturating_add(1),
            _ => now_ms,
        }
    }
}

/// The player's signed profile, from `HOME/profile.json` (None if it has no name).
///
/// # Errors
/// [`LocalProfileError`] if the file cannot be read or holds an invalid profile.
pub fn signed(home_dir: &Path, key: &Keypair) -> Result<Option<SignedProfile>, LocalProfileError> {
    let local = read(home_dir)?;
    let invalid = |source| LocalProfileError::Invalid {
        path: path(home_dir).display().to_string(),
        source,
    };
    let Some(profile) = local.to_profile(key).map_err(invalid)? else {
        return Ok(None);
    };
    SignedProfile::sign(&profile, key)
        .map(Some)
        .map_err(invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_read_sign_keeps_other_keys() {
        let dir = tempfile::tempdir().unwrap();
        let key = Keypair::from_secret_bytes(&[5; 32]);
        assert_eq!(signed(dir.path(), &key).unwrap(), None);
        std::fs::write(path(dir.path()), r#"{"name":"Old","theme":"dark"}"#).unwrap();
        // A file from before: its modification time is the issue time.
        assert!(read(dir.path()).unwrap().issued_ms.is_some());
        let p = LocalProfile {
            name: Some("Ana".into()),
            club: Some("Sobre CC".into()),
            federation_id: Some("2016192".into()),
            languages: vec!["es".into(), "en".into()],
            issued_ms: Some(1000),
        };
        write(dir.path(), &p).unwrap();
        assert_eq!(read(dir.path()).unwrap(), p);
        let text = std::fs::read_to_string(path(dir.path())).unwrap();
        assert!(text.contains("\"theme\": \"dark\""), "{text}");
        let s = signed(dir.path(), &key).unwrap().unwrap();
        let v = s.verify(2000).unwrap();
        assert_eq!(v.profile.name, "Ana");
        assert_eq!(v.profile.issued_ms, 1000);
        // The same file signs to the same bytes.
        assert_eq!(signed(dir.path(), &key).unwrap(), Some(s));
        let bad = LocalProfile {
            name: Some("x".repeat(65)),
            ..p.clone()
        };
        assert!(matches!(
            write(dir.path(), &bad),
            Err(LocalProfileError::Invalid { .. })
        ));
        assert_eq!(p.next_issue_time(500), 1001);
        assert_eq!(p.next_issue_time(5000), 5000);
    }
}
