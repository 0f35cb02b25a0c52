//! The node's saved settings, `HOME/node.toml`: what `sobre node run` uses when no flag says
//! otherwise (listen and external addresses, bootstrap peers, relays, mailboxes, and the
//! switches of `node run`). Written by `sobre node run --save`, and editable by hand: an
//! unknown key, a wrong type or a bad multiaddr is an error naming the file, the line and the
//! key, never a silent default (a typo in `bootstrap` would otherwise leave the node alone).
//!
//! ```toml
//! listen = ["/ip4/0.0.0.0/tcp/4848", "/ip4/0.0.0.0/udp/4848/quic-v1"]
//! external = ["/ip4/203.0.113.7/tcp/4848"]
//! bootstrap = ["/dns4/club.example.org/tcp/4848/p2p/12D3KooW…"]
//! mailboxes = ["/dns4/club.example.org/tcp/4848/p2p/12D3KooW…"]
//! mdns = false
//! board = true               # serve `sobre board` from the start
//! board_port = 8765          # on 127.0.0.1:8765 (default: a free port)
//!
//! [reminders]                 # see `crate::reminders::settings` for every key
//! clock_low_left = "1d"
//! on_reminder = "notify-send sobre \"$(jq -r .text)\""
//! ```

pub use crate::reminders::settings::ReminderSettings;
use libp2p::Multiaddr;
use serde::{Deserialize, Serialize};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// File name of the node's settings in the home.
pub const SETTINGS_FILE: &str = "node.toml";

/// The settings file of a home.
pub fn settings_path(home: &Path) -> PathBuf {
    home.join(SETTINGS_FILE)
}

/// What `HOME/node.toml` holds. Every key is optional; lists are multiaddrs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NodeSettings {
    /// Addresses to listen on (none: the default port on all interfaces, TCP and QUIC).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub listen: Vec<String>,
    /// Addresses reachable from outside (a forwarded port, a public host).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub external: Vec<String>,
    /// Peers dialed at start and used for the DHT.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bootstrap: Vec<String>,
    /// Relays to reserve a circuit on (each ending in `/p2p/<relay id>`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub relays: Vec<String>,
    /// Mailboxes the player's events are delivered to too.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mailboxes: Vec<String>,
    /// Find peers on the local network with mDNS.
    pub mdns: bool,
    /// Relay connections for players behind NAT.
    pub relay_server: bool,
    /// Act as a mailbox for other players.
    pub mailbox: bool,
    /// Settle unopened fair coins by hand only.
    pub manual_coin_default: bool,
    /// Inbound connections accepted from one IP address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_inbound_per_ip: Option<usize>,
    /// Serve the board (`sobre board`) from the start.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub board: bool,
    /// The board's port on 127.0.0.1 (none: any free port).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_port: Option<u16>,
    /// `[reminders]`: when and how the player is reminded, and automatic claims.
    #[serde(skip_serializing_if = "ReminderSettings::is_default")]
    pub reminders: ReminderSettings,
}

impl NodeSettings {
    /// The first address that is not a multiaddr: its key, the address and why.
    pub fn bad_address(&self) -> Option<(&'static str, String, String)> {
        let lists = [
            ("listen", &self.listen),
            ("external", &self.external),
            ("bootstrap", &self.bootstrap),
            ("relays", &self.relays),
            ("mailboxes", &self.mailboxes),
        ];
        lists.into_iter().find_map(|(key, list)| {
            list.iter().find_map(|a| {
                a.parse::<Multiaddr>()
                    .err()
                    .map(|e| (key, a.clone(), e.to_string()))
            })
        })
    }
}

/// Why the settings cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: io::Error },
    #[error("{path}, line {line}, key `{key}`: {message}")]
    Malformed {
        path: String,
        line: usize,
        key: String,
        message: String,
    },
    #[error("{path}, line {line}, key `{key}`: bad multiaddr {}: {reason}", crate::words::quoted(.addr))]
    BadAddress {
        path: String,
        line: usize,
        key: String,
        addr: String,
        reason: String,
    },
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: io::Error },
}

/// Reads `HOME/node.toml`; `None` when there is none.
///
/// # Errors
/// [`SettingsError`] naming the file, and for bad content the line and the key.
pub fn load(home: &Path) -> Result<Option<NodeSettings>, SettingsError> {
    let path = settings_path(home);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(SettingsError::Read {
                path: path.display().to_string(),
                source,
            });
        }
    };
    parse(&path, &text).map(Some)
}

/// Parses the text of a settings file (`path` names it in errors).
///
/// # Errors
/// [`SettingsError::Malformed`] or [`SettingsError::BadAddress`].
pub fn parse(path: &Path, text: &str) -> Result<NodeSettings, SettingsError> {
    let settings: NodeSettings = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        let (line, key) = line_and_key(text, at);
        SettingsError::Malformed {
            path: path.display().to_string(),
            line,
            key,
            message: e.message().trim().to_owned(),
        }
    })?;
    if let Some((key, message)) = settings.reminders.problem() {
        let at = text
            .find(&format!("{key} "))
            .or_else(|| text.find(&format!("{key}=")))
            .or_else(|| text.find("[reminders"))
            .unwrap_or(0);
        return Err(SettingsError::Malformed {
            path: path.display().to_string(),
            line: line_and_key(text, at).0,
            key: key.to_owned(),
            message,
        });
    }
    let lists = [
        ("listen", &settings.listen),
        ("external", &settings.external),
        ("bootstrap", &settings.bootstrap),
        ("relays", &settings.relays),
        ("mailboxes", &settings.mailboxes),
    ];
    for (key, list) in lists {
        for addr in list {
            if let Err(e) = addr.parse::<Multiaddr>() {
                // The line of the address itself, else of its key.
                let quoted = format!("\"{addr}\"");
                let at = text.find(&quoted).or_else(|| text.find(key)).unwrap_or(0);
                return Err(SettingsError::BadAddress {
                    path: path.display().to_string(),
                    line: line_and_key(text, at).0,
                    key: key.to_owned(),
                    addr: addr.clone(),
                    reason: e.to_string(),
                });
            }
        }
    }
    Ok(settings)
}

/// The 1-based line of byte offset `at`, and the key that line (or the nearest one above it,
/// for a value spread over lines) assigns.
fn line_and_key(text: &str, at: usize) -> (usize, String) {
    let at = at.min(text.len());
    let before = text.get(..at).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let lines: Vec<&str> = text.lines().collect();
    let key = lines
        .iter()
        .take(line)
        .rev()
        .find_map(|l| {
            let l = l.trim();
            if l.starts_with('#') {
                return None;
            }
            l.split_once('=')
                .map(|(k, _)| k.trim().trim_matches('"').to_owned())
        })
        .unwrap_or_else(|| "?".to_owned());
    (line, key)
}

/// Writes `HOME/node.toml` atomically: a temporary file beside it, flushed to disk, then
/// renamed over the old one, so a crash leaves the old settings or the new, never half.
///
/// # Errors
/// [`SettingsError::Write`].
pub fn save(home: &Path, settings: &NodeSettings) -> Result<(), SettingsError> {
    let path = settings_path(home);
    let err = |source: io::Error| SettingsError::Write {
        path: path.display().to_string(),
        source,
    };
    let body = toml::to_string(settings).map_err(|e| err(io::Error::other(e.to_string())))?;
    let text = format!(
        "# sobre node settings, used by `sobre node run` (flags override them).\n\
         # Written by `sobre node run --save`; edit freely.\n{body}"
    );
    crate::home::ensure(home).map_err(err)?;
    let tmp = home.join(format!("{SETTINGS_FILE}.tmp"));
    let write = || -> io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, &path)?;
        // The rename itself must reach the disk too.
        std::fs::File::open(home)?.sync_all()
    };
    write().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_settings_read_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()).unwrap(), None);
        let s = NodeSettings {
            listen: vec!["/ip4/0.0.0.0/tcp/4001".into()],
            external: vec!["/ip4/203.0.113.7/tcp/4001".into()],
            bootstrap: vec!["/ip4/198.51.100.1/tcp/4848".into()],
            mdns: true,
            max_inbound_per_ip: Some(40),
            ..NodeSettings::default()
        };
        save(dir.path(), &s).unwrap();
        assert_eq!(load(dir.path()).unwrap(), Some(s));
        assert!(!dir.path().join("node.toml.tmp").exists());
    }

    #[test]
    fn an_unknown_key_names_its_line_and_key() {
        let text = "listen = [\"/ip4/0.0.0.0/tcp/1\"]\n# note\nbootstrp = []\n";
        match parse(Path::new("/h/node.toml"), text) {
            Err(SettingsError::Malformed { line, key, .. }) => {
                assert_eq!((line, key.as_str()), (3, "bootstrp"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_wrong_type_names_its_line_and_key() {
        let text = "mdns = true\nmax_inbound_per_ip = \"many\"\n";
        let e = parse(Path::new("/h/node.toml"), text).unwrap_err();
        assert!(
            matches!(&e, SettingsError::Malformed { line: 2, key, .. } if key == "max_inbound_per_ip"),
            "{e:?}"
        );
        assert!(e.to_string().starts_with("/h/node.toml, line 2"), "{e}");
    }

    #[test]
    fn a_bad_multiaddr_names_its_line_and_key() {
        let text = "bootstrap = [\n  \"/ip4/1.2.3.4/tcp/1\",\n  \"tcp://1.2.3.4\",\n]\n";
        match parse(Path::new("node.toml"), text) {
            Err(SettingsError::BadAddress {
                line, key, addr, ..
            }) => {
                assert_eq!(
                    (line, key.as_str(), addr.as_str()),
                    (3, "bootstrap", "tcp://1.2.3.4")
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reminder_settings_read_back_the_same() {
        let text = "[reminders]\nclock_low_percent = 20\nclock_low_left = \"1d12h\"\n\
                    on_reminder = \"cat > /tmp/r.json\"\nauto_claim = true\n\
                    [reminders.email]\nhost = \"smtp.example.org\"\nsecurity = \"tls\"\n\
                    from = \"sobre <ana@example.org>\"\nto = \"ana@example.org\"\n";
        let s = parse(Path::new("node.toml"), text).unwrap();
        assert_eq!(s.reminders.clock_low_percent, 20);
        assert_eq!(
            s.reminders.clock_low_left.as_ref().map(|d| d.ms()),
            Some(36 * 3_600_000)
        );
        assert!(s.reminders.auto_claim);
        let email = s.reminders.email.as_ref().unwrap();
        assert_eq!(email.port(), 465, "the port of TLS unless set");
        let dir = tempfile::tempdir().unwrap();
        save(dir.path(), &s).unwrap();
        assert_eq!(load(dir.path()).unwrap(), Some(s));
        // The defaults write no table at all.
        save(dir.path(), &NodeSettings::default()).unwrap();
        let written = std::fs::read_to_string(settings_path(dir.path())).unwrap();
        assert!(!written.contains("reminders"), "{written}");
    }

    #[test]
    fn a_bad_reminder_value_names_its_line_and_key() {
        let cases = [
            ("[reminders]\nhook_timeout = \"soon\"\n", 2, "hook_timeout"),
            ("[reminders]\nauto_clam = true\n", 2, "auto_clam"),
            (
                "mdns = true\n[reminders]\nclock_low_percent = 150\n",
                3,
                "clock_low_percent",
            ),
            (
                "[reminders.email]\nhost = \"h\"\nfrom = \"not an address\"\nto = \"a@b.c\"\n",
                3,
                "from",
            ),
        ];
        for (text, want_line, want_key) in cases {
            match parse(Path::new("node.toml"), text) {
                Err(SettingsError::Malformed { line, key, .. }) => {
                    assert_eq!((line, key.as_str()), (want_line, want_key), "{text}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn broken_syntax_is_an_error_not_defaults() {
        let e = parse(Path::new("node.toml"), "listen = [\"/ip4/0.0.0.0/tcp/1\"\n").unwrap_err();
        assert!(
            matches!(e, SettingsError::Malformed { line: 1, .. }),
            "{e:?}"
        );
    }
}
