//! The one place where sobre turns records into bytes and back.
//!
//! bincode 1.3.3 (declared complete by its authors, RUSTSEC-2025-0141): fixed-width
//! little-endian integers, enum variants as `u32` in declaration order (so the order of every
//! wire enum is frozen: new variants go at the end, none is ever removed or reordered).
//! Decoding untrusted bytes is bounded by a byte limit, rejects trailing bytes, and accepts
//! only the canonical encoding (re-encoding must give the same bytes), so a signed message has
//! exactly one byte form. Swapping the codec means changing this file only.

use bincode::Options;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The largest event body sobre accepts (a chat message or an envelope fits easily).
pub const MAX_EVENT_BYTES: u64 = 16 * 1024;

/// Why bytes could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    #[error("message of {len} bytes exceeds the limit of {limit}")]
    TooLarge { len: usize, limit: u64 },
    #[error("malformed encoding: {0}")]
    Malformed(String),
    #[error("non-canonical encoding (re-encodes differently)")]
    NotCanonical,
}

fn options(limit: u64) -> impl Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_little_endian()
        .with_limit(limit)
        .reject_trailing_bytes()
}

/// Encodes a record. Infallible for sobre's own types (no maps with non-string keys, no
/// sequences of unknown length); an error here is a bug, reported as `Malformed`.
///
/// # Errors
/// Only if the value cannot be represented (never for sobre's wire types).
pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, CodecError> {
    options(u64::MAX)
        .serialize(value)
        .map_err(|e| CodecError::Malformed(e.to_string()))
}

/// Decodes untrusted bytes: size-capped, no trailing bytes, canonical only.
///
/// # Errors
/// [`CodecError`] naming the problem.
pub fn decode<T: Serialize + DeserializeOwned>(bytes: &[u8], limit: u64) -> Result<T, CodecError> {
    if bytes.len() as u64 > limit {
        return Err(CodecError::TooLarge {
            len: bytes.len(),
            limit,
        });
    }
    let value: T = options(limit)
        .deserialize(bytes)
        .map_err(|e| CodecError::Malformed(e.to_string()))?;
    // bincode 1 accepts some non-canonical forms (e.g. a bool byte of 2 is rejected, but
    // other representations may slip through future serde changes): check once, here.
    if encode(&value)? != bytes {
        return Err(CodecError::NotCanonical);
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Sample {
        a: u16,
        b: Option<[u8; 4]>,
        c: String,
    }

    #[test]
    fn round_trip_and_limits() {
        let s = Sample {
            a: 7,
            b: Some([1, 2, 3, 4]),
            c: "e4".into(),
        };
        let bytes = encode(&s).unwrap();
        assert_eq!(decode::<Sample>(&bytes, 100), Ok(s));
        assert!(matches!(
            decode::<Sample>(&bytes, 4),
            Err(CodecError::TooLarge { .. })
        ));
        let mut trailing = bytes.clone();
        trailing.push(0);
        assert!(matches!(
            decode::<Sample>(&trailing, 100),
            Err(CodecError::Malformed(_))
        ));
        let mut bad_option = bytes.clone();
        bad_option[2] = 2; // Option tag must be 0 or 1
        assert!(decode::<Sample>(&bad_option, 100).is_err());
    }

    #[test]
    fn huge_length_prefix_is_rejected_without_allocating() {
        // a: u16, b: None, c: length u64::MAX.
        let mut bytes = vec![7, 0, 0];
        bytes.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(decode::<Sample>(&bytes, 1024).is_err());
    }
}
