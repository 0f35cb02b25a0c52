//! Invites: one line a player gives another to meet (`sobre invite`, then `sobre connect` or
//! `sobre contacts add NAME INVITE` on the other side). It holds the player id, the display
//! name, the addresses the node is reachable at and the mailboxes and bootstrap nodes the
//! player uses, signed by the player's key, so a line altered on the way (another address
//! slipped in, another name) is refused rather than followed.
//!
//! Text form: `sobre:invite/` and the unpadded base64url of `body ‖ signature`.
//!
//! ```text
//! body := version (1, u8) ‖ player key (32) ‖ created (ms since the epoch, u64 BE)
//!       ‖ name (u8 byte length, UTF-8; 0: none)
//!       ‖ addrs ‖ mailboxes ‖ bootstrap        each: u8 count, then per entry a u16 BE
//!                                              byte length and the binary multiaddr
//! signature := ed25519 (strict) by the player key over "sobre/invite/1\0" ‖ body
//! ```
//!
//! Parsing is strict: every length is bounded, nothing may follow the signature, every
//! multiaddr must decode, and the name obeys the rules of a display name. The player's own
//! addresses carry no `/p2p/…` (the reader adds the player id); mailboxes and bootstrap nodes
//! keep theirs.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
pub use libp2p::Multiaddr;
pub use libp2p::multiaddr::Protocol;
use sobre_core::record::{Keypair, PlayerId};

/// What every invite starts with.
pub const PREFIX: &str = "sobre:invite/";
/// The signature's domain: an invite's signature can never be mistaken for a game event's.
const DOMAIN: &[u8] = b"sobre/invite/1\0";
const VERSION: u8 = 1;
/// A display name: at most this many characters (and no control characters).
pub const MAX_NAME_CHARS: usize = 64;
/// Addresses of the player, mailboxes and bootstrap nodes an invite carries at most.
pub const MAX_ADDRS: usize = 8;
pub const MAX_MAILBOXES: usize = 4;
pub const MAX_BOOTSTRAP: usize = 4;
/// The longest multiaddr accepted, in bytes (a relayed address with two peer ids is ~120).
pub const MAX_ADDR_BYTES: usize = 256;
/// The longest invite accepted, in characters (all of the above at their bounds fit).
pub const MAX_INVITE_CHARS: usize = 8 * 1024;
const SIGNATURE_BYTES: usize = 64;

/// A player's invite, verified when parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invite {
    pub player: PlayerId,
    pub name: Option<String>,
    /// When it was made (ms since the epoch): the newest of two invites is the better one.
    pub created_ms: u64,
    /// Where the player's node is reachable, without `/p2p/<player id>`.
    pub addrs: Vec<Multiaddr>,
    /// The mailboxes the player uses (with their `/p2p/<id>`).
    pub mailboxes: Vec<Multiaddr>,
    /// The bootstrap nodes the player uses (with their `/p2p/<id>`).
    pub bootstrap: Vec<Multiaddr>,
}

/// Why a line is not a valid invite, or an invite cannot be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InviteError {
    #[error("not an invite: it must start with `{PREFIX}`")]
    NotAnInvite,
    #[error("the invite is too long ({len} characters; at most {MAX_INVITE_CHARS})")]
    TooLong { len: usize },
    #[error("the invite is not valid base64url (was it cut or changed?): {0}")]
    Base64(String),
    #[error("the invite is cut short (in its {0})")]
    Truncated(&'static str),
    #[error("the invite has {0} byte(s) after its signature")]
    Trailing(usize),
    #[error("the invite has version {0}, this sobre reads version {VERSION}")]
    Version(u8),
    #[error("the invite's player key is not a valid key")]
    BadKey,
    #[error("the invite's name is not valid: {0}")]
    BadName(String),
    #[error("the invite holds {count} {field} (at most {max})")]
    TooMany {
        field: &'static str,
        count: usize,
        max: usize,
    },
    #[error("the invite holds a bad address in its {field}: {reason}")]
    BadAddress { field: &'static str, reason: String },
    #[error(
        "the invite's signature does not match its content: it was altered, or not made by that player"
    )]
    BadSignature,
}

/// Checks a display name: 1 to [`MAX_NAME_CHARS`] characters, no control characters, not
/// only spaces.
///
/// # Errors
/// [`InviteError::BadName`] saying which rule.
pub fn check_name(name: &str) -> Result<(), InviteError> {
    if name.trim().is_empty() {
        return Err(InviteError::BadName("it is empty".into()));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(InviteError::BadName(format!(
            "{chars} characters, at most {MAX_NAME_CHARS}"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(InviteError::BadName("it holds control characters".into()));
    }
    Ok(())
}

impl Invite {
    /// The signed text form (`sobre:invite/…`), signed with `key` (whose player must be
    /// [`Invite::player`]).
    ///
    /// # Errors
    /// [`InviteError`] if a bound is exceeded or the name is invalid: an invite this
    /// function makes always parses.
    pub fn to_line(&self, key: &Keypair) -> Result<String, InviteError> {
        let mut body = vec![VERSION];
        body.extend_from_slice(self.player.as_bytes());
        body.extend_from_slice(&self.created_ms.to_be_bytes());
        match &self.name {
            Some(n) => {
                check_name(n)?;
                let bytes = n.as_bytes();
                let len = u8::try_from(bytes.len())
                    .map_err(|_| InviteError::BadName("too many bytes".into()))?;
                body.push(len);
                body.extend_from_slice(bytes);
            }
            None => body.push(0),
        }
        for (field, list, max) in self.lists() {
            put_list(&mut body, field, list, max)?;
        }
        let mut signed = DOMAIN.to_vec();
        signed.extend_from_slice(&body);
        body.extend_from_slice(&key.sign(&signed));
        Ok(format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(body)))
    }

    fn lists(&self) -> [(&'static str, &[Multiaddr], usize); 3] {
        [
            ("addresses", &self.addrs, MAX_ADDRS),
            ("mailboxes", &self.mailboxes, MAX_MAILBOXES),
            ("bootstrap nodes", &self.bootstrap, MAX_BOOTSTRAP),
        ]
    }

    /// Reads and verifies an invite line (surrounding spaces are ignored).
    ///
    /// # Errors
    /// [`InviteError`] naming what is wrong.
    pub fn parse(line: &str) -> Result<Invite, InviteError> {
        let line = line.trim();
        if line.len() > MAX_INVITE_CHARS {
            return Err(InviteError::TooLong { len: line.len() });
        }
        let encoded = line.strip_prefix(PREFIX).ok_or(InviteError::NotAnInvite)?;
        let bytes = URL_SAFE_NO_PAD
            .decode(encoded)
            .map_err(|e| InviteError::Base64(e.to_string()))?;
        let mut r = Reader {
            bytes: &bytes,
            at: 0,
        };
        let version = r.u8("version")?;
        if version != VERSION {
            return Err(InviteError::Version(version));
        }
        let key: [u8; 32] = r
            .take(32, "player key")?
            .try_into()
            .map_err(|_| InviteError::Truncated("player key"))?;
        let player = PlayerId::from_bytes(key);
        if player.peer_id().is_none() {
            return Err(InviteError::BadKey);
        }
        let created: [u8; 8] = r
            .take(8, "date")?
            .try_into()
            .map_err(|_| InviteError::Truncated("date"))?;
        let name_len = usize::from(r.u8("name")?);
        let name = if name_len == 0 {
            None
        } else {
            let raw = r.take(name_len, "name")?;
            let n = std::str::from_utf8(raw)
                .map_err(|_| InviteError::BadName("not UTF-8".into()))?
                .to_owned();
            check_name(&n)?;
            Some(n)
        };
        let addrs = r.list("addresses", MAX_ADDRS)?;
        let mailboxes = r.list("mailboxes", MAX_MAILBOXES)?;
        let bootstrap = r.list("bootstrap nodes", MAX_BOOTSTRAP)?;
        let body_len = r.at;
        let signature: [u8; SIGNATURE_BYTES] = r
            .take(SIGNATURE_BYTES, "signature")?
            .try_into()
            .map_err(|_| InviteError::Truncated("signature"))?;
        if r.at != bytes.len() {
            return Err(InviteError::Trailing(bytes.len() - r.at));
        }
        let mut signed = DOMAIN.to_vec();
        signed.extend_from_slice(bytes.get(..body_len).unwrap_or_default());
        if !player.verify(&signed, &signature) {
            return Err(InviteError::BadSignature);
        }
        Ok(Invite {
            player,
            name,
            created_ms: u64::from_be_bytes(created),
            addrs,
            mailboxes,
            bootstrap,
        })
    }

    /// The player's addresses with `/p2p/<player id>`, ready to dial.
    pub fn dialable(&self) -> Vec<Multiaddr> {
        let Some(peer) = self.player.peer_id() else {
            return Vec::new();
        };
        self.addrs
            .iter()
            .map(|a| a.clone().with_p2p(peer).unwrap_or_else(|a| a))
            .collect()
    }
}

fn put_list(
    body: &mut Vec<u8>,
    field: &'static str,
    list: &[Multiaddr],
    max: usize,
) -> Result<(), InviteError> {
    let count = u8::try_from(list.len())
        .ok()
        .filter(|c| usize::from(*c) <= max)
        .ok_or(InviteError::TooMany {
            field,
            count: list.len(),
            max,
        })?;
    body.push(count);
    for a in list {
        let bytes = a.to_vec();
        let len = u16::try_from(bytes.len())
            .ok()
            .filter(|l| usize::from(*l) <= MAX_ADDR_BYTES)
            .ok_or_else(|| InviteError::BadAddress {
                field,
                reason: format!("{a} is longer than {MAX_ADDR_BYTES} bytes"),
            })?;
        body.extend_from_slice(&len.to_be_bytes());
        body.extend_from_slice(&bytes);
    }
    Ok(())
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], InviteError> {
        let end = self.at.checked_add(n).ok_or(InviteError::Truncated(what))?;
        let out = self
            .bytes
            .get(self.at..end)
            .ok_or(InviteError::Truncated(what))?;
        self.at = end;
        Ok(out)
    }

    fn u8(&mut self, what: &'static str) -> Result<u8, InviteError> {
        Ok(self.take(1, what)?.first().copied().unwrap_or_default())
    }

    fn list(&mut self, field: &'static str, max: usize) -> Result<Vec<Multiaddr>, InviteError> {
        let count = usize::from(self.u8(field)?);
        if count > max {
            return Err(InviteError::TooMany { field, count, max });
        }
        let mut out = Vec::with_capacity(count);
        for _ in 0..count {
            let len_bytes = self.take(2, field)?;
            let len = usize::from(u16::from_be_bytes([
                len_bytes.first().copied().unwrap_or_default(),
                len_bytes.get(1).copied().unwrap_or_default(),
            ]));
            if len > MAX_ADDR_BYTES {
                return Err(InviteError::BadAddress {
                    field,
                    reason: format!("{len} bytes, at most {MAX_ADDR_BYTES}"),
                });
            }
            let raw = self.take(len, field)?;
            let addr = Multiaddr::try_from(raw.to_vec()).map_err(|e| InviteError::BadAddress {
                field,
                reason: e.to_string(),
            })?;
            out.push(addr);
        }
        Ok(out)
    }
}

/// File in the home holding addresses to remember at the next start: an invite accepted
/// while the node was stopped (the node holds the database; the CLI may not open it).
pub const QUEUED_FILE: &str = "remember-queue.json";

/// Adds `addrs` (each ending in `/p2p/<peer id>`) to the queue the node remembers at its next
/// start. Written whole to a temporary file and renamed, so a crash loses nothing queued
/// before.
///
/// # Errors
/// The I/O error.
pub fn queue_addresses(home: &std::path::Path, addrs: &[String]) -> std::io::Result<()> {
    let path = home.join(QUEUED_FILE);
    let mut queued: Vec<String> = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    for a in addrs {
        if !queued.contains(a) {
            queued.push(a.clone());
        }
    }
    // Bounded like what it feeds: the oldest go first.
    let excess = queued
        .len()
        .saturating_sub(crate::store::peers::MAX_REMEMBERED_PEERS);
    queued.drain(..excess);
    crate::home::ensure(home)?;
    let tmp = home.join(format!("{QUEUED_FILE}.tmp"));
    std::fs::write(
        &tmp,
        serde_json::to_vec(&queued).map_err(std::io::Error::other)?,
    )?;
    std::fs::rename(&tmp, &path)
}

/// The queued addresses, the queue emptied (a damaged queue is dropped: it only saves typing
/// an invite again).
pub fn take_queued(home: &std::path::Path) -> Vec<String> {
    let path = home.join(QUEUED_FILE);
    let queued = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    queued
}

/// Orders a node's addresses for an invite, the most useful first: declared or public
/// addresses, then relayed ones, then private networks, then loopback (kept only when it is
/// all there is); `/p2p/…` suffixes dropped, duplicates and unspecified addresses removed;
/// at most [`MAX_ADDRS`].
pub fn pick_addresses(addrs: &[Multiaddr]) -> Vec<Multiaddr> {
    fn rank(a: &Multiaddr) -> u8 {
        if a.iter().any(|p| matches!(p, Protocol::P2pCircuit)) {
            return 1;
        }
        match a.iter().next() {
            Some(Protocol::Ip4(ip)) if ip.is_loopback() => 3,
            Some(Protocol::Ip6(ip)) if ip.is_loopback() => 3,
            Some(Protocol::Ip4(ip)) if ip.is_private() || ip.is_link_local() => 2,
            Some(Protocol::Ip6(ip)) if ip.is_unicast_link_local() || ip.is_unique_local() => 2,
            _ => 0,
        }
    }
    let mut out: Vec<Multiaddr> = Vec::new();
    for a in addrs {
        let mut a = a.clone();
        if matches!(a.iter().last(), Some(Protocol::P2p(_))) {
            a.pop();
        }
        let unspecified = match a.iter().next() {
            Some(Protocol::Ip4(ip)) => ip.is_unspecified(),
            Some(Protocol::Ip6(ip)) => ip.is_unspecified(),
            _ => false,
        };
        if !unspecified && !out.contains(&a) {
            out.push(a);
        }
    }
    out.sort_by_key(rank);
    if out.iter().any(|a| rank(a) < 3) {
        out.retain(|a| rank(a) < 3);
    }
    out.truncate(MAX_ADDRS);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(seed: u8) -> Keypair {
        Keypair::from_secret_bytes(&[seed; 32])
    }

    fn sample(k: &Keypair) -> Invite {
        Invite {
            player: k.player_id(),
            name: Some("Ana Nuñez".into()),
            created_ms: 1_700_000_000_000,
            addrs: vec!["/ip4/203.0.113.7/tcp/4848".parse().unwrap()],
            mailboxes: vec![
                "/ip4/198.51.100.1/tcp/4848/p2p/12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN"
                    .parse()
                    .unwrap(),
            ],
            bootstrap: Vec::new(),
        }
    }

    #[test]
    fn an_invite_reads_back_as_made() {
        let k = key(1);
        let line = sample(&k).to_line(&k).unwrap();
        assert!(line.starts_with(PREFIX));
        assert!(!line.contains(char::is_whitespace));
        assert_eq!(Invite::parse(&format!("  {line}\n")).unwrap(), sample(&k));
    }

    #[test]
    fn an_altered_invite_is_refused_for_its_signature() {
        let k = key(2);
        let line = sample(&k).to_line(&k).unwrap();
        let mut bytes = URL_SAFE_NO_PAD.decode(&line[PREFIX.len()..]).unwrap();
        // The address's last byte (the port): another address, same length.
        let at = 1 + 32 + 8 + 1 + "Ana Nuñez".len() + 1 + 2 + 6;
        bytes[at] ^= 1;
        let altered = format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(&bytes));
        assert_eq!(Invite::parse(&altered), Err(InviteError::BadSignature));
        // Signed by someone else for this player.
        let forged = sample(&k).to_line(&key(3)).unwrap();
        assert_eq!(Invite::parse(&forged), Err(InviteError::BadSignature));
    }

    #[test]
    fn malformed_invites_say_what_is_wrong() {
        let k = key(4);
        let line = sample(&k).to_line(&k).unwrap();
        assert_eq!(Invite::parse("12D3KooWabc"), Err(InviteError::NotAnInvite));
        assert!(matches!(
            Invite::parse(&format!("{PREFIX}not*base64")),
            Err(InviteError::Base64(_))
        ));
        let mut bytes = URL_SAFE_NO_PAD.decode(&line[PREFIX.len()..]).unwrap();
        let cut = format!(
            "{PREFIX}{}",
            URL_SAFE_NO_PAD.encode(&bytes[..bytes.len() - 15])
        );
        assert_eq!(
            Invite::parse(&cut),
            Err(InviteError::Truncated("signature"))
        );
        bytes.push(0);
        let long = format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(&bytes));
        assert_eq!(Invite::parse(&long), Err(InviteError::Trailing(1)));
        bytes.pop();
        bytes[0] = 9;
        let v9 = format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(&bytes));
        assert_eq!(Invite::parse(&v9), Err(InviteError::Version(9)));
        let huge = format!("{PREFIX}{}", "A".repeat(MAX_INVITE_CHARS));
        assert!(matches!(
            Invite::parse(&huge),
            Err(InviteError::TooLong { .. })
        ));
        // A count over its bound is refused before anything is read.
        let mut over = vec![VERSION];
        over.extend_from_slice(k.player_id().as_bytes());
        over.extend_from_slice(&[0; 8]);
        over.push(0);
        over.push(200);
        let over = format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(&over));
        assert!(matches!(
            Invite::parse(&over),
            Err(InviteError::TooMany { count: 200, .. })
        ));
    }

    #[test]
    fn names_follow_the_display_name_rules() {
        let k = key(5);
        for bad in ["", "   ", "a\u{7}b", &"x".repeat(65)] {
            let mut i = sample(&k);
            i.name = Some(bad.to_owned());
            assert!(
                matches!(i.to_line(&k), Err(InviteError::BadName(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn addresses_are_picked_most_useful_first() {
        let addrs: Vec<Multiaddr> = [
            "/ip4/127.0.0.1/tcp/4848/p2p/12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN",
            "/ip4/192.168.1.20/tcp/4848",
            "/ip4/203.0.113.7/tcp/4848",
            "/ip4/0.0.0.0/tcp/4848",
        ]
        .iter()
        .map(|a| a.parse().unwrap())
        .collect();
        let picked: Vec<String> = pick_addresses(&addrs)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            picked,
            ["/ip4/203.0.113.7/tcp/4848", "/ip4/192.168.1.20/tcp/4848"]
        );
        let only_loopback = pick_addresses(&addrs[..1]);
        assert_eq!(only_loopback[0].to_string(), "/ip4/127.0.0.1/tcp/4848");
    }
}
