//! Delivery of reminders outside the service's loop: the service hands each reminder to a
//! bounded queue ([`Deliverer::send`] never waits) and one task delivers them in order, each
//! through every channel the settings enable, each channel bounded in time. A channel that
//! fails is logged and the others go on; nothing here can stop or crash the node.

use super::Reminder;
use super::settings::{EmailSettings, ReminderSettings, SmtpSecurity};
use super::words::Wording;
use lettre::message::header::ContentType;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;
use tracing::{info, warn};

/// Reminders waiting for delivery at most; past it a reminder is delivered on the node's own
/// channels only (`watch`, `sobre reminders`) and a warning says so.
pub const QUEUE: usize = 64;

/// How long one desktop notification or one e-mail may take.
pub const CHANNEL_TIMEOUT: Duration = Duration::from_secs(30);

/// The most of a hook's output logged (per stream).
const MAX_HOOK_OUTPUT: usize = 4096;

/// Why one channel could not deliver a reminder.
#[derive(Debug, thiserror::Error)]
pub enum DeliveryError {
    #[error("desktop notification failed (is there a D-Bus session?): {0}")]
    Desktop(String),
    #[error("the reminder command could not start: {0}")]
    HookStart(std::io::Error),
    #[error("the reminder command did not read its input: {0}")]
    HookInput(std::io::Error),
    #[error("the reminder command ran longer than {} and was killed", human(.0))]
    HookTimeout(Duration),
    #[error("the reminder command failed ({status}): {stderr}")]
    HookFailed { status: String, stderr: String },
    #[error("cannot read the SMTP password from {path}: {source}")]
    Password {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot use the certificate authorities in {path}: {reason}")]
    CaFile { path: String, reason: String },
    #[error("cannot build the e-mail: {0}")]
    Message(String),
    #[error("cannot reach the SMTP server {host}:{port}: {reason}")]
    Smtp {
        host: String,
        port: u16,
        reason: String,
    },
    #[error("the SMTP server {} did not answer within {}", .0, human(.1))]
    SmtpTimeout(String, Duration),
}

/// A time limit as the settings write it (`30s`, `1m 30s`), not Rust's `Debug` of a
/// `Duration`.
fn human(d: &Duration) -> String {
    sobre_core::clock::format_duration(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// What a hook reads: the reminder and its words in the player's language.
#[derive(serde::Serialize)]
struct HookInput<'a> {
    #[serde(flatten)]
    reminder: &'a Reminder,
    language: &'static str,
    title: String,
    line: String,
}

/// The handle the service holds: a bounded queue to the delivery task.
#[derive(Clone, Debug)]
pub struct Deliverer {
    tx: Option<mpsc::Sender<Reminder>>,
}

impl Deliverer {
    /// Starts the delivery task for `settings` (none when no channel is enabled); each
    /// reminder is worded in the language and notation of `home`'s settings
    /// ([`Wording::for_home`]).
    pub fn spawn(settings: &ReminderSettings, home: &Path) -> Deliverer {
        let channels = Channels::of(settings, home);
        if channels.is_empty() {
            return Deliverer { tx: None };
        }
        let (tx, mut rx) = mpsc::channel::<Reminder>(QUEUE);
        tokio::spawn(async move {
            while let Some(r) = rx.recv().await {
                channels.deliver(&r).await;
            }
        });
        Deliverer { tx: Some(tx) }
    }

    /// Queues `r` for delivery without waiting.
    pub fn send(&self, r: Reminder) {
        let Some(tx) = &self.tx else { return };
        if let Err(e) = tx.try_send(r) {
            warn!("reminder not delivered outside the node (queue full or closed): {e}");
        }
    }
}

/// The channels enabled.
#[derive(Clone, Debug)]
struct Channels {
    /// Whose settings say how a reminder is worded.
    home: PathBuf,
    desktop: bool,
    hook: Option<(String, Duration)>,
    email: Option<EmailSettings>,
}

impl Channels {
    fn of(s: &ReminderSettings, home: &Path) -> Channels {
        Channels {
            home: home.to_owned(),
            desktop: s.desktop,
            hook: s
                .on_reminder
                .clone()
                .map(|c| (c, Duration::from_millis(s.hook_timeout.ms()))),
            email: s.email.clone(),
        }
    }

    fn is_empty(&self) -> bool {
        !self.desktop && self.hook.is_none() && self.email.is_none()
    }

    /// Every channel at once; each logs its own failure.
    async fn deliver(&self, r: &Reminder) {
        let words = Wording::for_home(&self.home);
        let desktop = async {
            if self.desktop
                && let Err(e) = desktop(r, words).await
            {
                warn!(key = %r.key, "{e}");
            }
        };
        let hook = async {
            if let Some((cmd, limit)) = &self.hook {
                match run_hook(cmd, r, words, *limit).await {
                    Ok(out) if out.is_empty() => {}
                    Ok(out) => info!(key = %r.key, "reminder command said: {out}"),
                    Err(e) => warn!(key = %r.key, "{e}"),
                }
            }
        };
        let email = async {
            if let Some(settings) = &self.email {
                match send_email(settings, r, words).await {
                    Ok(()) => info!(key = %r.key, "reminder e-mailed to {}", settings.to.mailbox()),
                    Err(e) => warn!(key = %r.key, "{e}"),
                }
            }
        };
        tokio::join!(desktop, hook, email);
    }
}

/// Shows `r` as a desktop notification (freedesktop D-Bus), worded by `words`.
///
/// # Errors
/// [`DeliveryError::Desktop`] without a session bus or notification server, or when they do
/// not answer within [`CHANNEL_TIMEOUT`].
pub async fn desktop(r: &Reminder, words: Wording) -> Result<(), DeliveryError> {
    let mut n = notify_rust::Notification::new();
    n.appname("sobre")
        .summary(&words.title(r))
        .body(&words.line(r));
    match tokio::time::timeout(CHANNEL_TIMEOUT, n.show_async()).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(DeliveryError::Desktop(e.to_string())),
        Err(_) => Err(DeliveryError::Desktop("no answer".to_owned())),
    }
}

/// Runs `cmd` with `sh -c`, the reminder as one JSON line on its standard input, for at most
/// `limit` (then it is killed). Returns what it printed, trimmed and capped.
///
/// The JSON is the reminder as `sobre reminders --json` lists it (`text` in English, the
/// API's line) with the player's words beside it: `language` (`en`/`es`), `title` and
/// `line`, worded by `words`.
///
/// # Errors
/// [`DeliveryError`] when it cannot start, does not read its input, runs too long or
/// exits with a failure.
pub async fn run_hook(
    cmd: &str,
    r: &Reminder,
    words: Wording,
    limit: Duration,
) -> Result<String, DeliveryError> {
    let mut json = serde_json::to_vec(&HookInput {
        reminder: r,
        language: words.lang.tag(),
        title: words.title(r),
        line: words.line(r),
    })
    .map_err(|e| DeliveryError::Message(e.to_string()))?;
    json.push(b'\n');
    let mut child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .env("SOBRE_REMINDER_KIND", r.kind.name())
        .env("SOBRE_REMINDER_GAME", r.game.as_deref().unwrap_or(""))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A command that outlives its time limit is killed with its handle.
        .kill_on_drop(true)
        .spawn()
        .map_err(DeliveryError::HookStart)?;
    let run = async move {
        if let Some(mut stdin) = child.stdin.take() {
            // A command that exits without reading its input is not a failure by itself.
            match stdin.write_all(&json).await {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                Err(e) => return Err(DeliveryError::HookInput(e)),
            }
        }
        child
            .wait_with_output()
            .await
            .map_err(DeliveryError::HookInput)
    };
    let out = tokio::time::timeout(limit, run)
        .await
        .map_err(|_| DeliveryError::HookTimeout(limit))??;
    let text = |b: &[u8]| {
        let s = String::from_utf8_lossy(b);
        let s = s.trim();
        match s.char_indices().nth(MAX_HOOK_OUTPUT) {
            Some((i, _)) => format!("{}…", &s[..i]),
            None => s.to_owned(),
        }
    };
    if !out.status.success() {
        return Err(DeliveryError::HookFailed {
            status: out.status.to_string(),
            stderr: text(&out.stderr),
        });
    }
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    Ok(match (stdout.is_empty(), stderr.is_empty()) {
        (_, true) => stdout,
        (true, false) => stderr,
        (false, false) => format!("{stdout} / {stderr}"),
    })
}

/// The e-mail of a reminder: its title as the subject; its line, then the reminder as JSON
/// (for filters and scripts) as the body; title and line worded by `words`.
///
/// # Errors
/// [`DeliveryError::Message`] if the message cannot be built.
pub fn email_message(
    settings: &EmailSettings,
    r: &Reminder,
    words: Wording,
) -> Result<Message, DeliveryError> {
    let json =
        serde_json::to_string_pretty(r).map_err(|e| DeliveryError::Message(e.to_string()))?;
    Message::builder()
        .from(settings.from.mailbox().clone())
        .to(settings.to.mailbox().clone())
        .subject(words.title(r))
        .header(ContentType::TEXT_PLAIN)
        .body(format!("{}\n\n{json}\n", words.line(r)))
        .map_err(|e| DeliveryError::Message(e.to_string()))
}

/// Sends `r` through the player's SMTP server.
///
/// # Errors
/// [`DeliveryError`] when the password cannot be read, the server cannot be reached or
/// refuses the message, or does not answer within [`CHANNEL_TIMEOUT`].
pub async fn send_email(
    settings: &EmailSettings,
    r: &Reminder,
    words: Wording,
) -> Result<(), DeliveryError> {
    let message = email_message(settings, r, words)?;
    let host = settings.host.clone();
    let port = settings.port();
    let smtp_error = |reason: String| DeliveryError::Smtp {
        host: host.clone(),
        port,
        reason,
    };
    let builder = match (settings.security, &settings.ca_file) {
        (SmtpSecurity::Starttls, None) => {
            AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&host)
                .map_err(|e| smtp_error(e.to_string()))?
        }
        (SmtpSecurity::Tls, None) => AsyncSmtpTransport::<Tokio1Executor>::relay(&host)
            .map_err(|e| smtp_error(e.to_string()))?,
        // The system's authorities and the player's own, the host name checked as always.
        (security @ (SmtpSecurity::Starttls | SmtpSecurity::Tls), Some(file)) => {
            let pem = tokio::fs::read(file)
                .await
                .map_err(|source| DeliveryError::CaFile {
                    path: file.display().to_string(),
                    reason: source.to_string(),
                })?;
            let ca_error = |e: lettre::transport::smtp::Error| DeliveryError::CaFile {
                path: file.display().to_string(),
                reason: e.to_string(),
            };
            let params = TlsParameters::builder(host.clone())
                .add_root_certificate(Certificate::from_pem(&pem).map_err(ca_error)?)
                .build_rustls()
                .map_err(ca_error)?;
            let tls = match security {
                SmtpSecurity::Tls => Tls::Wrapper(params),
                _ => Tls::Required(params),
            };
            AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&host).tls(tls)
        }
        (SmtpSecurity::Plain, _) => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&host),
    };
    let mut builder = builder.port(port).timeout(Some(CHANNEL_TIMEOUT));
    if let (Some(user), Some(file)) = (&settings.username, &settings.password_file) {
        let password =
            tokio::fs::read_to_string(file)
                .await
                .map_err(|source| DeliveryError::Password {
                    path: file.display().to_string(),
                    source,
                })?;
        let password = password.lines().next().unwrap_or("").to_owned();
        builder = builder.credentials(Credentials::new(user.clone(), password));
    }
    let transport = builder.build();
    match tokio::time::timeout(CHANNEL_TIMEOUT, transport.send(message)).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(smtp_error(e.to_string())),
        Err(_) => Err(DeliveryError::SmtpTimeout(
            format!("{host}:{port}"),
            CHANNEL_TIMEOUT,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reminders::ReminderKind;

    fn reminder() -> Reminder {
        Reminder {
            key: "move_arrived:ab:1".to_owned(),
            game: Some("ab".repeat(32)),
            time_ms: 1_796_148_005_000,
            text: "your opponent played 1. e4 in game abababab".to_owned(),
            kind: ReminderKind::MoveArrived {
                san: "e4".to_owned(),
                ply: 1,
                by: "12D3KooW".to_owned(),
            },
        }
    }

    #[tokio::test]
    async fn the_hook_reads_the_reminder_as_json_on_its_standard_input() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("got.json");
        let cmd = format!("cat > '{}'; echo \"$SOBRE_REMINDER_KIND\"", out.display());
        let said = run_hook(&cmd, &reminder(), Wording::ENGLISH, Duration::from_secs(20))
            .await
            .unwrap();
        assert_eq!(said, "move_arrived", "the kind is in the environment too");
        let got: Reminder = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(got, reminder());
    }

    #[tokio::test]
    async fn a_hook_running_past_its_time_is_killed_and_reported() {
        let e = run_hook(
            "exec sleep 600",
            &reminder(),
            Wording::ENGLISH,
            Duration::from_millis(300),
        )
        .await
        .unwrap_err();
        assert!(matches!(e, DeliveryError::HookTimeout(_)), "{e}");
    }

    #[tokio::test]
    async fn a_failing_hook_is_reported_with_what_it_said() {
        let e = run_hook(
            "echo 'no mail today' >&2; exit 3",
            &reminder(),
            Wording::ENGLISH,
            Duration::from_secs(20),
        )
        .await
        .unwrap_err();
        match e {
            DeliveryError::HookFailed { status, stderr } => {
                assert!(status.contains('3'), "{status}");
                assert_eq!(stderr, "no mail today");
            }
            other => panic!("{other}"),
        }
    }

    #[tokio::test]
    async fn a_hook_that_ignores_its_input_is_no_failure() {
        assert_eq!(
            run_hook(
                "echo done",
                &reminder(),
                Wording::ENGLISH,
                Duration::from_secs(20)
            )
            .await
            .unwrap(),
            "done"
        );
    }

    #[test]
    fn the_mail_names_the_reminder_in_its_subject_and_carries_it_as_json() {
        let settings: EmailSettings = toml::from_str(
            "host = \"localhost\"\nfrom = \"sobre <ana@example.org>\"\nto = \"ana@example.org\"\n",
        )
        .unwrap();
        let text = String::from_utf8(
            email_message(&settings, &reminder(), Wording::ENGLISH)
                .unwrap()
                .formatted(),
        )
        .unwrap();
        assert!(
            text.contains("Subject: sobre: your opponent played e4"),
            "{text}"
        );
        assert!(text.contains("\"san\": \"e4\""), "{text}");
        assert!(text.contains("To: ana@example.org"), "{text}");
    }
}
