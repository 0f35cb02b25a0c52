//! The words the control API writes the core's types in. The core's enums keep their own
//! serde for the signed wire (the codec numbers variants, so names never reach it); the
//! API writes a few of them in the words players and scripts have always used, through
//! these adapters (`#[serde(with = "…")]`), so a request field is the core's type and a
//! word outside the list is refused when the request is read, naming the choices.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

/// Reads one word and maps it through `parse`, or refuses it naming `expected`.
fn word<'de, D: Deserializer<'de>, T>(
    d: D,
    parse: impl Fn(&str) -> Option<T>,
    expected: &str,
) -> Result<T, D::Error> {
    let w = String::deserialize(d)?;
    parse(&w).ok_or_else(|| D::Error::custom(format!("`{w}`: expected {expected}")))
}

/// [`word`] for an optional field: `null` is `None`.
fn optional_word<'de, D: Deserializer<'de>, T>(
    d: D,
    parse: impl Fn(&str) -> Option<T>,
    expected: &str,
) -> Result<Option<T>, D::Error> {
    match Option::<String>::deserialize(d)? {
        None => Ok(None),
        Some(w) => parse(&w)
            .map(Some)
            .ok_or_else(|| D::Error::custom(format!("`{w}`: expected {expected}"))),
    }
}

/// A claim by its word ([`sobre_core::record::ClaimReason::name`]: `threefold`, `fifty`…).
pub(crate) mod claim_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use sobre_core::record::ClaimReason;

    pub fn serialize<S: Serializer>(r: &ClaimReason, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(r.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ClaimReason, D::Error> {
        let word = String::deserialize(d)?;
        word.parse().map_err(serde::de::Error::custom)
    }
}

/// The challenger's colour ([`ColourChoice`](sobre_core::record::ColourChoice)): `white`,
/// `black` or `random` (the fair coin, F1).
pub(crate) mod colour_choice {
    use super::{Deserializer, Serializer, word};
    use sobre_core::record::ColourChoice;

    pub fn serialize<S: Serializer>(c: &ColourChoice, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match c {
            ColourChoice::ChallengerWhite => "white",
            ColourChoice::ChallengerBlack => "black",
            ColourChoice::Random => "random",
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ColourChoice, D::Error> {
        word(
            d,
            |w| match w {
                "white" => Some(ColourChoice::ChallengerWhite),
                "black" => Some(ColourChoice::ChallengerBlack),
                "random" => Some(ColourChoice::Random),
                _ => None,
            },
            "white, black or random",
        )
    }
}

/// An arbiter's result ([`Verdict`](sobre_core::league::decision::Verdict)) as PGN writes
/// it: `1-0`, `1/2-1/2` (also `½-½`) or `0-1`.
pub(crate) mod verdict {
    use super::{Deserializer, Serializer, optional_word};
    use serde::Serialize;
    use sobre_core::league::decision::Verdict;

    pub fn serialize<S: Serializer>(v: &Option<Verdict>, s: S) -> Result<S::Ok, S::Error> {
        v.map(Verdict::text).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Verdict>, D::Error> {
        optional_word(d, Verdict::from_text, "1-0, 1/2-1/2 or 0-1")
    }
}

/// What happens to a withdrawn player's games
/// ([`WithdrawalRule`](sobre_core::league::decision::WithdrawalRule)): `fide` or
/// `forfeit-remaining`.
pub(crate) mod withdrawal {
    use super::{Deserializer, Serializer, optional_word};
    use serde::Serialize;
    use sobre_core::league::decision::WithdrawalRule;

    fn text(r: WithdrawalRule) -> &'static str {
        match r {
            WithdrawalRule::Fide => "fide",
            WithdrawalRule::ForfeitRemaining => "forfeit-remaining",
        }
    }

    pub fn serialize<S: Serializer>(r: &Option<WithdrawalRule>, s: S) -> Result<S::Ok, S::Error> {
        r.map(text).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<WithdrawalRule>, D::Error> {
        optional_word(
            d,
            |w| match w {
                "fide" => Some(WithdrawalRule::Fide),
                "forfeit-remaining" => Some(WithdrawalRule::ForfeitRemaining),
                _ => None,
            },
            "fide or forfeit-remaining",
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::api::ApiRequest;

    /// The words a request has always carried read as the core's types, and a word outside
    /// them is refused when the line is read, naming the choices.
    #[test]
    fn typed_fields_keep_their_words() {
        for json in [
            r#"{"cmd":"challenge","opponent":"p","color":"random","time_control":"1d","chess960":false,"fen":null}"#,
            r#"{"cmd":"league_decide","league":"l","kind":"adjudicate","round":1,"player":"p","result":"1/2-1/2","reason":null,"withdrawal":null,"tie_breaks":null}"#,
            r#"{"cmd":"league_decide","league":"l","kind":"settings","round":null,"player":null,"result":null,"reason":null,"withdrawal":"forfeit-remaining","tie_breaks":null}"#,
            r#"{"cmd":"accept","game":"g","color":"black"}"#,
        ] {
            let request: ApiRequest = serde_json::from_str(json).unwrap();
            assert_eq!(serde_json::to_string(&request).unwrap(), json);
        }
        for (bad, expected) in [
            (
                r#"{"cmd":"challenge","opponent":"p","color":"red","time_control":"1d"}"#,
                "white, black or random",
            ),
            (
                r#"{"cmd":"league_decide","league":"l","kind":"adjudicate","result":"2-0"}"#,
                "1-0, 1/2-1/2 or 0-1",
            ),
            (
                r#"{"cmd":"league_decide","league":"l","kind":"settings","withdrawal":"x"}"#,
                "fide or forfeit-remaining",
            ),
            (
                r#"{"cmd":"league_decide","league":"l","kind":"win"}"#,
                "forfeit",
            ),
            (r#"{"cmd":"accept","game":"g","color":"green"}"#, "white"),
        ] {
            let e = serde_json::from_str::<ApiRequest>(bad)
                .unwrap_err()
                .to_string();
            assert!(e.contains(expected), "{bad}: {e}");
        }
    }
}
