//! A real browser for the board's tests: Debian's headless Chromium driven over WebDriver
//! (`fantoccini` to `chromedriver`). Each [`Browser`] has its own chromedriver, its own
//! profile (cookies are per browser, as two players' are) and is killed with its process
//! group when dropped. Without Chromium or chromedriver the test fails saying what to
//! install (`.ci/run` installs both): a browser test that skips proves nothing.

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a page gets to show what a test waits for (real nodes exchange the moves).
pub const WAIT: Duration = Duration::from_secs(60);
const POLL: Duration = Duration::from_millis(50);

/// The first of `names` found on the PATH or at one of `paths`.
fn find(names: &[&str], paths: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    names
        .iter()
        .flat_map(|n| std::env::split_paths(&path).map(move |d| d.join(n)))
        .chain(paths.iter().map(PathBuf::from))
        .find(|p| p.is_file())
}

/// One headless Chromium.
pub struct Browser {
    pub client: Client,
    driver: Child,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        // chromedriver leads its own process group, with Chromium in it.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.driver.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

impl Browser {
    /// Starts a chromedriver and a Chromium of `width`×`height` pixels.
    ///
    /// # Panics
    /// If Chromium or chromedriver is not installed, or does not start.
    pub async fn start(width: u32, height: u32) -> Browser {
        let chromium = find(&["chromium", "chromium-browser"], &["/usr/bin/chromium"])
            .expect("Chromium is needed for the board's tests: apt-get install chromium");
        let driver = find(&["chromedriver"], &["/usr/lib/chromium/chromedriver"]).expect(
            "chromedriver is needed for the board's tests: apt-get install chromium-driver",
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("chromedriver starts");
        let profile = tempfile::tempdir().expect("a profile directory");
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage",
                    format!("--user-data-dir={}", profile.path().display()),
                    format!("--window-size={width},{height}"),
                ],
            }),
        );
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let url = format!("http://127.0.0.1:{port}");
        // chromedriver answers once it listens: retry the session until then.
        let deadline = Instant::now() + WAIT;
        let client = loop {
            match ClientBuilder::new(connector.clone())
                .capabilities(caps.clone())
                .connect(&url)
                .await
            {
                Ok(c) => break c,
                Err(e) => {
                    assert!(
                        Instant::now() < deadline,
                        "chromedriver never answered: {e}"
                    );
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        };
        Browser {
            client,
            driver,
            _profile: profile,
        }
    }

    /// Runs `script` (a function body) in the page and returns its value.
    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script failed ({e}): {script}"))
    }

    /// Waits until `condition` (a JavaScript expression) holds in the page; fails naming
    /// `what` after [`WAIT`].
    pub async fn wait(&self, what: &str, condition: &str) {
        let script = format!("try {{ return !!({condition}) }} catch (e) {{ return false }}");
        let deadline = Instant::now() + WAIT;
        loop {
            if self.js(&script).await == Value::Bool(true) {
                return;
            }
            if Instant::now() > deadline {
                let error = self
                    .js("return document.getElementById('error')?.textContent")
                    .await;
                panic!("timed out waiting for {what} ({condition}); page error: {error}");
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Clicks the element `css` selects. The page redraws lists as events arrive: an
    /// element replaced between finding and clicking it is found again.
    pub async fn click(&self, css: &str) {
        let deadline = Instant::now() + WAIT;
        loop {
            let clicked = match self.client.find(Locator::Css(css)).await {
                Ok(element) => element.click().await,
                Err(e) => Err(e),
            };
            match clicked {
                Ok(()) => return,
                Err(e) if e.is_stale_element_reference() && Instant::now() < deadline => {}
                Err(e) => panic!("cannot click {css}: {e}"),
            }
        }
    }

    /// Drags the piece on square `from` to square `to` with the mouse, as a player does.
    pub async fn drag(&self, from: &str, to: &str) {
        let square = |s: &str| format!("#board [data-square='{s}']");
        let deadline = Instant::now() + WAIT;
        loop {
            let a = self.client.find(Locator::Css(&square(from))).await;
            let b = self.client.find(Locator::Css(&square(to))).await;
            let (a, b) = (a.expect("the from square"), b.expect("the to square"));
            let mouse = MouseActions::new("mouse".into())
                .then(PointerAction::MoveToElement {
                    element: a,
                    duration: None,
                    x: 0.0,
                    y: 0.0,
                })
                .then(PointerAction::Down {
                    button: MOUSE_BUTTON_LEFT,
                })
                .then(PointerAction::MoveToElement {
                    element: b,
                    duration: Some(Duration::from_millis(150)),
                    x: 0.0,
                    y: 0.0,
                })
                .then(PointerAction::Up {
                    button: MOUSE_BUTTON_LEFT,
                });
            match self.client.perform_actions(mouse).await {
                Ok(()) => return,
                Err(e) if e.is_stale_element_reference() && Instant::now() < deadline => {}
                Err(e) => panic!("cannot drag {from}-{to}: {e}"),
            }
        }
    }

    /// A PNG of the window.
    pub async fn screenshot(&self) -> Vec<u8> {
        self.client.screenshot().await.expect("a screenshot")
    }
}
