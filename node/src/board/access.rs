//! Who may use the board: the player's own browser on this machine, and nothing else.
//!
//! The board server listens on 127.0.0.1 only, but that alone keeps out neither another
//! user of the machine nor a web page the player visits: a page elsewhere can make the
//! browser send requests to 127.0.0.1 (cross-site requests), and a hostile DNS name can be
//! made to resolve to 127.0.0.1 (DNS rebinding). So every request must pass three checks,
//! as Jupyter's server does:
//!
//! - the `Host` header names this server (`127.0.0.1:PORT` or `localhost:PORT`): a
//!   rebound name does not;
//! - an `Origin` header, if sent, is this server's own origin; a request that changes
//!   something (any method but GET) must send one (browsers always do);
//! - the request carries the session cookie, which only a browser that opened a URL with a
//!   one-time token (`sobre board` prints it) was given. A token is good for one load:
//!   copied from a terminal's scrollback or a browser's history later, it is worthless.
//!
//! And the peer's address must be a loopback one (the listener cannot accept others, and
//! this check keeps it so if the listener ever changes).

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Mutex;

/// The cookie the session is kept in, followed by the port: cookies are not kept apart by
/// port, and two nodes on one machine (two players, or a test) each have their board.
pub const COOKIE: &str = "sobre_board";

/// Tokens handed out and not used yet; the oldest is forgotten past this many.
const MAX_TOKENS: usize = 16;

/// Why a request is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the board answers this machine only")]
    NotLoopback,
    #[error("the request's Host is not this board's")]
    ForeignHost,
    #[error("the request comes from another site")]
    ForeignOrigin,
    #[error("a request that changes something must say its origin")]
    NoOrigin,
    #[error("open the board with the URL `sobre board` prints")]
    NoSession,
}

/// What a request that passed shows: a session already, or a token to trade for one.
#[derive(Debug, PartialEq, Eq)]
pub enum Admitted {
    /// The session cookie came with the request.
    Session,
    /// A valid one-time token came in the URL (now spent): set the cookie.
    Token,
}

/// The parts of a request the checks read.
#[derive(Debug, Default)]
pub struct Seen<'a> {
    pub peer: Option<SocketAddr>,
    pub host: Option<&'a str>,
    pub origin: Option<&'a str>,
    /// The method is GET or HEAD (changes nothing).
    pub safe: bool,
    /// The `Cookie` header.
    pub cookies: Option<&'a str>,
    /// The `token` of the query string.
    pub token: Option<&'a str>,
}

/// The board's session secret, its one-time tokens, and its port.
#[derive(Debug)]
pub struct Access {
    port: u16,
    session: String,
    tokens: Mutex<VecDeque<String>>,
}

impl Access {
    /// A new session for a server on `port`.
    pub fn new(port: u16) -> Access {
        Access {
            port,
            session: random_hex(),
            tokens: Mutex::new(VecDeque::new()),
        }
    }

    /// A new one-time token.
    pub fn mint(&self) -> String {
        let token = random_hex();
        let mut tokens = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
        if tokens.len() >= MAX_TOKENS {
            tokens.pop_front();
        }
        tokens.push_back(token.clone());
        token
    }

    /// The `Set-Cookie` value that opens the session.
    pub fn cookie(&self) -> String {
        format!(
            "{COOKIE}_{}={}; HttpOnly; SameSite=Strict; Path=/",
            self.port, self.session
        )
    }

    /// Checks a request (see the module's documentation); spends its token if it brings
    /// one and no session.
    ///
    /// # Errors
    /// [`Refused`]: which check failed.
    pub fn check(&self, seen: &Seen<'_>) -> Result<Admitted, Refused> {
        if !seen.peer.is_some_and(|p| p.ip().is_loopback()) {
            return Err(Refused::NotLoopback);
        }
        if !seen.host.is_some_and(|h| self.is_own(h)) {
            return Err(Refused::ForeignHost);
        }
        match seen.origin {
            Some(origin) => {
                let own = origin
                    .strip_prefix("http://")
                    .is_some_and(|h| self.is_own(h));
                if !own {
                    return Err(Refused::ForeignOrigin);
                }
            }
            None if !seen.safe => return Err(Refused::NoOrigin),
            None => {}
        }
        if seen
            .cookies
            .is_some_and(|c| session_of(c, self.port).is_some_and(|s| same(s, &self.session)))
        {
            return Ok(Admitted::Session);
        }
        if let Some(token) = seen.token {
            let mut tokens = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(i) = tokens.iter().position(|t| same(t, token)) {
                tokens.remove(i);
                return Ok(Admitted::Token);
            }
        }
        Err(Refused::NoSession)
    }

    fn is_own(&self, host: &str) -> bool {
        let port = self.port.to_string();
        ["127.0.0.1", "localhost"]
            .iter()
            .any(|name| host.strip_prefix(name).and_then(|r| r.strip_prefix(':')) == Some(&port))
    }
}

/// The session cookie's value in a `Cookie` header.
fn session_of(cookies: &str, port: u16) -> Option<&str> {
    let own = format!("{COOKIE}_{port}");
    cookies.split(';').find_map(|c| {
        let (name, value) = c.trim().split_once('=')?;
        (name == own).then_some(value)
    })
}

/// Compares secrets in a time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// 128 random bits in hex.
fn random_hex() -> String {
    use std::fmt::Write as _;
    let bytes: [u8; 16] = rand::random();
    bytes.iter().fold(String::with_capacity(32), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PORT: u16 = 4321;

    fn local() -> Option<SocketAddr> {
        Some(SocketAddr::from(([127, 0, 0, 1], 50000)))
    }

    fn page<'a>(cookies: Option<&'a str>, token: Option<&'a str>) -> Seen<'a> {
        Seen {
            peer: local(),
            host: Some("127.0.0.1:4321"),
            origin: None,
            safe: true,
            cookies,
            token,
        }
    }

    #[test]
    fn a_token_opens_one_session_once() {
        let access = Access::new(PORT);
        let token = access.mint();
        assert_eq!(access.check(&page(None, None)), Err(Refused::NoSession));
        assert_eq!(
            access.check(&page(None, Some("0123"))),
            Err(Refused::NoSession)
        );
        assert_eq!(access.check(&page(None, Some(&token))), Ok(Admitted::Token));
        assert_eq!(
            access.check(&page(None, Some(&token))),
            Err(Refused::NoSession),
            "spent"
        );
        let cookie = access.cookie();
        let value = cookie.split(';').next().unwrap();
        let header = format!("theme=dark; {value}");
        assert_eq!(
            access.check(&page(Some(&header), None)),
            Ok(Admitted::Session)
        );
        let wrong = format!("{COOKIE}_{PORT}=00000000000000000000000000000000");
        assert_eq!(
            access.check(&page(Some(&wrong), None)),
            Err(Refused::NoSession)
        );
        let other_port = value.replace(&format!("_{PORT}="), "_4322=");
        assert_eq!(
            access.check(&page(Some(&other_port), None)),
            Err(Refused::NoSession),
            "another board's cookie"
        );
    }

    #[test]
    fn another_host_origin_or_address_is_refused_even_with_a_session() {
        let access = Access::new(PORT);
        let cookie = access.cookie();
        let value = cookie.split(';').next().unwrap();
        let ok = || page(Some(value), None);
        assert_eq!(access.check(&ok()), Ok(Admitted::Session));
        for host in [
            "evil.example:4321",
            "127.0.0.1:80",
            "127.0.0.1",
            "localhost.evil:4321",
        ] {
            let seen = Seen {
                host: Some(host),
                ..ok()
            };
            assert_eq!(access.check(&seen), Err(Refused::ForeignHost), "{host}");
        }
        assert_eq!(
            access.check(&Seen { host: None, ..ok() }),
            Err(Refused::ForeignHost)
        );
        for origin in ["http://evil.example", "https://127.0.0.1:4321", "null"] {
            let seen = Seen {
                origin: Some(origin),
                ..ok()
            };
            assert_eq!(access.check(&seen), Err(Refused::ForeignOrigin), "{origin}");
        }
        let post = Seen {
            safe: false,
            ..ok()
        };
        assert_eq!(access.check(&post), Err(Refused::NoOrigin));
        let own = Seen {
            safe: false,
            origin: Some("http://localhost:4321"),
            ..ok()
        };
        assert_eq!(access.check(&own), Ok(Admitted::Session));
        let remote = Seen {
            peer: Some(SocketAddr::from(([192, 168, 1, 9], 50000))),
            ..ok()
        };
        assert_eq!(access.check(&remote), Err(Refused::NotLoopback));
    }

    #[test]
    fn only_the_latest_tokens_are_kept() {
        let access = Access::new(PORT);
        let first = access.mint();
        for _ in 0..MAX_TOKENS {
            access.mint();
        }
        assert_eq!(
            access.check(&page(None, Some(&first))),
            Err(Refused::NoSession)
        );
    }
}
