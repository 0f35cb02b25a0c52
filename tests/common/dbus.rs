//! A private D-Bus session bus (Debian's `dbus-daemon`) and a freedesktop notification server
//! on it, so a test can see the desktop notifications a node shows: the node is started with
//! `DBUS_SESSION_BUS_ADDRESS` set to [`NotificationBus::address`]. The bus daemon is killed
//! when the value is dropped.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::pin::Pin;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use zbus::OwnedVariant;
use zbus::export::futures_core::Stream;
use zbus::message::Type;

const NAME: &str = "org.freedesktop.Notifications";
const PATH: &str = "/org/freedesktop/Notifications";

/// One notification as a desktop would show it.
#[derive(Clone, Debug)]
pub struct Shown {
    pub app: String,
    pub summary: String,
    pub body: String,
}

/// The bus daemon and the server, whose connection runs on its own Tokio runtime.
pub struct NotificationBus {
    pub address: String,
    shown: Arc<Mutex<Vec<Shown>>>,
    daemon: Child,
    runtime: Option<tokio::runtime::Runtime>,
    _dir: tempfile::TempDir,
}

impl Drop for NotificationBus {
    fn drop(&mut self) {
        // The server's connection first, then the bus it is connected to.
        drop(self.runtime.take());
        let _ = self.daemon.kill();
        let _ = self.daemon.wait();
    }
}

impl NotificationBus {
    /// Starts the bus and serves notifications on it; `None` when `dbus-daemon` is not
    /// installed.
    pub fn start() -> Option<NotificationBus> {
        let dir = tempfile::tempdir().expect("tempdir");
        let spawned = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address"])
            // Its socket in the test's directory, not in /tmp.
            .arg(format!("--address=unix:dir={}", dir.path().display()))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let mut daemon = match spawned {
            Ok(child) => child,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => panic!("dbus-daemon does not start: {e}"),
        };
        let mut address = String::new();
        BufReader::new(daemon.stdout.take().expect("piped stdout"))
            .read_line(&mut address)
            .expect("dbus-daemon prints its address");
        let address = address.trim().to_owned();
        if address.is_empty() {
            let _ = daemon.kill();
            let _ = daemon.wait();
            panic!("dbus-daemon exited without an address");
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a Tokio runtime");
        let shown = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&shown);
        // Built inside the runtime: zbus's `tokio` feature runs the connection on it. The
        // stream is made before this returns, so no call sent after it is missed.
        let (connection, stream) = runtime
            .block_on(async {
                let c = zbus::connection::Builder::address(address.as_str())
                    .name(NAME)
                    .build()
                    .await?;
                let s = zbus::MessageStream::from(&c);
                Ok::<_, zbus::Error>((c, s))
            })
            .expect("the notification server connects to the bus");
        runtime.spawn(serve(connection, stream, kept));
        Some(NotificationBus {
            address,
            shown,
            daemon,
            runtime: Some(runtime),
            _dir: dir,
        })
    }

    /// The notifications shown so far, oldest first.
    pub fn shown(&self) -> Vec<Shown> {
        self.shown.lock().expect("the list").clone()
    }
}

/// The methods of the Desktop Notifications Specification (1.2) a client may call.
async fn serve(
    connection: zbus::Connection,
    mut stream: zbus::MessageStream,
    shown: Arc<Mutex<Vec<Shown>>>,
) {
    let mut last_id = 0u32;
    while let Some(msg) = std::future::poll_fn(|cx| Pin::new(&mut stream).poll_next(cx)).await {
        let Ok(msg) = msg else { continue };
        let header = msg.header();
        if header.message_type() != Type::MethodCall
            || header.path().map(|p| p.as_str()) != Some(PATH)
        {
            continue;
        }
        let member = header.member().map(|m| m.as_str().to_owned());
        let replied = match member.as_deref() {
            Some("Notify") => {
                type Notify = (
                    String,
                    u32,
                    String,
                    String,
                    String,
                    Vec<String>,
                    HashMap<String, OwnedVariant>,
                    i32,
                );
                match msg.body().deserialize::<Notify>() {
                    Ok((app, replaces, _icon, summary, body, ..)) => {
                        let id = if replaces == 0 {
                            last_id += 1;
                            last_id
                        } else {
                            replaces
                        };
                        shown
                            .lock()
                            .expect("the list")
                            .push(Shown { app, summary, body });
                        connection.reply(&header, &id).await
                    }
                    Err(e) => {
                        connection
                            .reply_error(
                                &header,
                                "org.freedesktop.DBus.Error.InvalidArgs",
                                &e.to_string(),
                            )
                            .await
                    }
                }
            }
            Some("GetCapabilities") => connection.reply(&header, &vec!["body"]).await,
            Some("GetServerInformation") => {
                connection
                    .reply(&header, &("sobre-test", "sobre", "0", "1.2"))
                    .await
            }
            Some("CloseNotification") => connection.reply(&header, &()).await,
            _ => {
                connection
                    .reply_error(
                        &header,
                        "org.freedesktop.DBus.Error.UnknownMethod",
                        &format!("no method {member:?}"),
                    )
                    .await
            }
        };
        if replied.is_err() {
            break;
        }
    }
}
