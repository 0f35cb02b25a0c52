//! A small SMTP server for tests: it listens on 127.0.0.1, takes every message it is sent
//! (EHLO/HELO, MAIL, RCPT, DATA, QUIT; no authentication) and keeps the data of each, so a
//! test can see what a node mailed. Plain, or with TLS ([`SmtpSink::start_tls`]): STARTTLS
//! (RFC 3207) or TLS from the first byte, with a certificate for `localhost` signed by a
//! certificate authority made for the test, whose PEM the test hands to the node.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// How the server secures its sessions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinkTls {
    /// Plain text, STARTTLS not offered.
    None,
    /// STARTTLS offered, and required before MAIL.
    Starttls,
    /// TLS from the first byte (SMTPS).
    Wrapper,
}

/// A message as received, and whether its session was encrypted.
#[derive(Clone, Debug)]
pub struct Mail {
    pub data: String,
    pub tls: bool,
}

/// The server, running on its own thread for as long as the test.
pub struct SmtpSink {
    pub port: u16,
    /// The PEM of the authority that signed the server's certificate (TLS sinks).
    pub ca_pem: Option<String>,
    mails: Arc<Mutex<Vec<Mail>>>,
}

impl SmtpSink {
    pub fn start() -> SmtpSink {
        SmtpSink::serve(SinkTls::None, None)
    }

    /// A sink securing its sessions as `mode` says, with a fresh authority and certificate.
    pub fn start_tls(mode: SinkTls) -> SmtpSink {
        let ca_key = rcgen::KeyPair::generate().expect("a CA key");
        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("CA");
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "sobre test authority");
        let ca = ca_params.self_signed(&ca_key).expect("the CA certificate");
        let key = rcgen::KeyPair::generate().expect("a server key");
        let cert = rcgen::CertificateParams::new(vec!["localhost".to_owned()])
            .expect("server params")
            .signed_by(&key, &ca, &ca_key)
            .expect("the server certificate");
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("TLS versions")
            .with_no_client_auth()
            .with_single_cert(
                vec![cert.der().clone()],
                rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
            )
            .expect("the server's TLS configuration");
        let mut sink = SmtpSink::serve(mode, Some(Arc::new(config)));
        sink.ca_pem = Some(ca.pem());
        sink
    }

    fn serve(mode: SinkTls, tls: Option<Arc<rustls::ServerConfig>>) -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let port = listener.local_addr().expect("its address").port();
        let mails = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&mails);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (kept, tls) = (Arc::clone(&kept), tls.clone());
                std::thread::spawn(move || {
                    let _ = match (mode, tls) {
                        (SinkTls::Wrapper, Some(config)) => {
                            secured(config, stream).and_then(|s| session(s, &kept, None, true))
                        }
                        (SinkTls::Starttls, Some(config)) => {
                            session(stream, &kept, Some(config), false)
                        }
                        _ => session(stream, &kept, None, false),
                    };
                });
            }
        });
        SmtpSink {
            port,
            ca_pem: None,
            mails,
        }
    }

    /// Every message received so far (headers and body, as sent).
    pub fn messages(&self) -> Vec<String> {
        self.mails().into_iter().map(|m| m.data).collect()
    }

    /// Every message received so far, with how it came.
    pub fn mails(&self) -> Vec<Mail> {
        self.mails.lock().map(|m| m.clone()).unwrap_or_default()
    }
}

/// `stream` encrypted as the server of `config`.
fn secured<S: Read + Write>(
    config: Arc<rustls::ServerConfig>,
    stream: S,
) -> std::io::Result<rustls::StreamOwned<rustls::ServerConnection, S>> {
    let conn = rustls::ServerConnection::new(config).map_err(std::io::Error::other)?;
    Ok(rustls::StreamOwned::new(conn, stream))
}

/// One SMTP session on `stream`; `starttls`: offer STARTTLS with this configuration, refuse
/// MAIL before it, and go on encrypted after it (RFC 3207). `tls`: the stream is encrypted
/// already.
fn session<S: Read + Write>(
    stream: S,
    kept: &Mutex<Vec<Mail>>,
    starttls: Option<Arc<rustls::ServerConfig>>,
    tls: bool,
) -> std::io::Result<()> {
    let mut lines = BufReader::new(stream);
    lines.get_mut().write_all(b"220 sink ESMTP ready\r\n")?;
    let Some(config) = starttls else {
        return commands(&mut lines, kept, tls, false).map(drop);
    };
    if !commands(&mut lines, kept, false, true)? {
        return Ok(());
    }
    // The client says nothing more until the handshake: nothing is buffered. The session
    // starts again, encrypted, without a greeting.
    let mut encrypted = BufReader::new(secured(config, lines.into_inner())?);
    commands(&mut encrypted, kept, true, false).map(drop)
}

/// Answers commands until QUIT or the end (false), or until STARTTLS is accepted when
/// `offer_starttls` (true: the caller upgrades the stream).
fn commands<S: Read + Write>(
    lines: &mut BufReader<S>,
    kept: &Mutex<Vec<Mail>>,
    tls: bool,
    offer_starttls: bool,
) -> std::io::Result<bool> {
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line)? == 0 {
            return Ok(false);
        }
        let verb = line.trim_end().to_ascii_uppercase();
        let out = lines.get_mut();
        if verb.starts_with("EHLO") {
            if offer_starttls {
                out.write_all(b"250-sink\r\n250-STARTTLS\r\n250 8BITMIME\r\n")?;
            } else {
                out.write_all(b"250-sink\r\n250 8BITMIME\r\n")?;
            }
        } else if verb.starts_with("STARTTLS") && offer_starttls {
            out.write_all(b"220 go ahead\r\n")?;
            out.flush()?;
            return Ok(true);
        } else if verb.starts_with("MAIL") && offer_starttls {
            out.write_all(b"530 must issue STARTTLS first\r\n")?;
        } else if verb.starts_with("DATA") {
            out.write_all(b"354 end with <CRLF>.<CRLF>\r\n")?;
            let data = read_data(lines)?;
            if let Ok(mut m) = kept.lock() {
                m.push(Mail { data, tls });
            }
            lines.get_mut().write_all(b"250 queued\r\n")?;
        } else if verb.starts_with("QUIT") {
            out.write_all(b"221 bye\r\n")?;
            return Ok(false);
        } else {
            // HELO, MAIL, RCPT, RSET, NOOP: all fine.
            out.write_all(b"250 OK\r\n")?;
        }
    }
}

/// The message after DATA, up to the line holding a single dot, dot-stuffing undone
/// (RFC 5321 4.5.2).
fn read_data<R: BufRead>(lines: &mut R) -> std::io::Result<String> {
    let mut data = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line)? == 0 {
            return Ok(data);
        }
        if line == ".\r\n" || line == ".\n" {
            return Ok(data);
        }
        data.push_str(line.strip_prefix('.').unwrap_or(&line));
    }
}
