//! A small SMTP server for tests: it listens on 127.0.0.1, takes every message it is sent
//! (EHLO/HELO, MAIL, RCPT, DATA, QUIT; no TLS, no authentication) and keeps the data of each,
//! so a test can see what a node mailed.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// The server, running on its own thread for as long as the test.
pub struct SmtpSink {
    pub port: u16,
    messages: Arc<Mutex<Vec<String>>>,
}

impl SmtpSink {
    pub fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let port = listener.local_addr().expect("its address").port();
        let messages = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&messages);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let kept = Arc::clone(&kept);
                std::thread::spawn(move || {
                    let _ = session(stream, &kept);
                });
            }
        });
        SmtpSink { port, messages }
    }

    /// Every message received so far (headers and body, as sent).
    pub fn messages(&self) -> Vec<String> {
        self.messages.lock().map(|m| m.clone()).unwrap_or_default()
    }
}

fn session(stream: TcpStream, kept: &Mutex<Vec<String>>) -> std::io::Result<()> {
    let mut out = stream.try_clone()?;
    let mut lines = BufReader::new(stream);
    out.write_all(b"220 sink ESMTP ready\r\n")?;
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let verb = line.trim_end().to_ascii_uppercase();
        if verb.starts_with("EHLO") {
            out.write_all(b"250-sink\r\n250 8BITMIME\r\n")?;
        } else if verb.starts_with("DATA") {
            out.write_all(b"354 end with <CRLF>.<CRLF>\r\n")?;
            let mut data = String::new();
            loop {
                line.clear();
                if lines.read_line(&mut line)? == 0 {
                    return Ok(());
                }
                if line == ".\r\n" || line == ".\n" {
                    break;
                }
                // Dot-stuffing (RFC 5321 4.5.2).
                data.push_str(line.strip_prefix('.').unwrap_or(&line));
            }
            if let Ok(mut m) = kept.lock() {
                m.push(data);
            }
            out.write_all(b"250 queued\r\n")?;
        } else if verb.starts_with("QUIT") {
            out.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            // HELO, MAIL, RCPT, RSET, NOOP: all fine.
            out.write_all(b"250 OK\r\n")?;
        }
    }
}
