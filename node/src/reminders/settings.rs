//! The `[reminders]` table of `HOME/node.toml`: when the node reminds the player, how the
//! reminders are delivered, and whether the node claims a win on time or lateness by itself.
//! Durations are written as the time controls write them (`90s`, `12h`, `1d12h`); e-mail
//! addresses as `Name <user@host>` or `user@host`. A bad value is an error naming the line
//! and the key (see `crate::settings`), never a silent default.
//!
//! ```toml
//! [reminders]
//! clock_low_percent = 10      # remind when less than 10 % of the time for the move is left
//! clock_low_left = "1d"       # … or less than a day, whichever comes first
//! resumption_ahead = "2h"     # remind 2 hours before an adjourned game resumes
//! desktop = true              # a desktop notification (D-Bus)
//! on_reminder = "~/bin/chess-reminder"   # run with the reminder as JSON on stdin
//! hook_timeout = "30s"
//! auto_claim = false          # claim a win on time (6.9) or lateness (A10) by itself
//!
//! [reminders.email]
//! host = "smtp.example.org"
//! port = 587
//! security = "starttls"       # or "tls" (port 465), or "plain" (no encryption)
//! from = "sobre <ana@example.org>"
//! to = "ana@example.org"
//! username = "ana"
//! password_file = "/home/ana/.config/sobre/smtp-password"
//! ```

use lettre::message::Mailbox;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sobre_core::clock::{HOUR, SECOND, parse_duration};
use std::path::PathBuf;

/// A duration setting: the text as written (kept for `node run --save`) and its length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DurationSetting {
    text: String,
    ms: u64,
}

impl DurationSetting {
    /// A duration written as `text`.
    ///
    /// # Errors
    /// The parser's message when `text` is not a duration (`90s`, `12h`, `1d12h`).
    pub fn parse(text: &str) -> Result<DurationSetting, String> {
        let ms = parse_duration(text).map_err(|e| e.to_string())?;
        Ok(DurationSetting {
            text: text.trim().to_owned(),
            ms,
        })
    }

    fn fixed(text: &str, ms: u64) -> DurationSetting {
        DurationSetting {
            text: text.to_owned(),
            ms,
        }
    }

    /// The length in milliseconds.
    pub fn ms(&self) -> u64 {
        self.ms
    }
}

impl Serialize for DurationSetting {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for DurationSetting {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        DurationSetting::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// An e-mail address setting, checked when the settings are read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddressSetting {
    text: String,
    mailbox: Mailbox,
}

impl AddressSetting {
    /// The address as lettre sends to it.
    pub fn mailbox(&self) -> &Mailbox {
        &self.mailbox
    }
}

impl Serialize for AddressSetting {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for AddressSetting {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let mailbox = text
            .parse::<Mailbox>()
            .map_err(|e| serde::de::Error::custom(format!("not an e-mail address: {e}")))?;
        Ok(AddressSetting { text, mailbox })
    }
}

/// How the connection to the SMTP server is protected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmtpSecurity {
    /// Plain connection upgraded with STARTTLS (required): the usual port 587.
    #[default]
    Starttls,
    /// TLS from the first byte ("SMTPS"): port 465.
    Tls,
    /// No encryption at all: only for a server on the same machine or network.
    Plain,
}

impl SmtpSecurity {
    /// The usual port of this kind of connection.
    pub fn default_port(self) -> u16 {
        match self {
            SmtpSecurity::Starttls => 587,
            SmtpSecurity::Tls => 465,
            SmtpSecurity::Plain => 25,
        }
    }
}

/// `[reminders.email]`: reminders sent through the player's own SMTP server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmailSettings {
    /// The SMTP server's host name (checked against its certificate unless `plain`).
    pub host: String,
    /// The server's port (default: 587 for `starttls`, 465 for `tls`, 25 for `plain`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<u16>,
    #[serde(default)]
    pub security: SmtpSecurity,
    pub from: AddressSetting,
    pub to: AddressSetting,
    /// The login, if the server wants one (with `password_file`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// A file holding the password (its first line): the secret stays out of node.toml,
    /// which `node run --save` rewrites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_file: Option<PathBuf>,
    /// A PEM file of certificate authorities trusted besides the system's, for a server
    /// whose certificate a private authority signed (a club's own server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_file: Option<PathBuf>,
}

impl EmailSettings {
    /// The port connected to.
    pub fn port(&self) -> u16 {
        self.port.unwrap_or_else(|| self.security.default_port())
    }
}

/// `[reminders]` of `HOME/node.toml`. Everything is optional; the defaults remind on the
/// node's own channels only (`watch`, `sobre reminders`) and never claim anything.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReminderSettings {
    /// Remind when the player's time for the move falls below this share (in percent) of
    /// the time control's time for a move or a block of moves (0: never by share).
    pub clock_low_percent: u8,
    /// Remind when the player's time for the move falls below this (whichever of the two
    /// comes first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock_low_left: Option<DurationSetting>,
    /// Remind this long before an adjourned game resumes (Appendix A).
    pub resumption_ahead: DurationSetting,
    /// Show each reminder as a desktop notification (needs a D-Bus session).
    pub desktop: bool,
    /// A command run by `sh -c` for each reminder, with the reminder as one JSON object on
    /// its standard input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_reminder: Option<String>,
    /// How long `on_reminder` may run before it is killed.
    pub hook_timeout: DurationSetting,
    /// Claim a win on time (6.9) or on lateness at a resumption (A10) as soon as the
    /// evidence allows it beyond any clock skew the protocol tolerates, after a reminder
    /// saying so. Off unless set.
    pub auto_claim: bool,
    /// Send each reminder by e-mail (a table: it comes last in the file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<EmailSettings>,
}

impl Default for ReminderSettings {
    fn default() -> Self {
        ReminderSettings {
            clock_low_percent: 10,
            clock_low_left: None,
            resumption_ahead: DurationSetting::fixed("2h", 2 * HOUR),
            desktop: false,
            on_reminder: None,
            hook_timeout: DurationSetting::fixed("30s", 30 * SECOND),
            auto_claim: false,
            email: None,
        }
    }
}

impl ReminderSettings {
    /// Whether these are the defaults (then `node run --save` writes no `[reminders]`).
    pub fn is_default(&self) -> bool {
        *self == ReminderSettings::default()
    }

    /// A share above 100 % means nothing: the first problem with the values, as
    /// (key, message).
    pub fn problem(&self) -> Option<(&'static str, String)> {
        if self.clock_low_percent > 100 {
            return Some((
                "clock_low_percent",
                format!("{} is not a share from 0 to 100", self.clock_low_percent),
            ));
        }
        if self.hook_timeout.ms() == 0 {
            return Some(("hook_timeout", "must be longer than 0s".to_owned()));
        }
        if let Some(e) = &self.email
            && e.username.is_some() != e.password_file.is_some()
        {
            return Some((
                "username",
                "username and password_file go together".to_owned(),
            ));
        }
        None
    }
}
