//! `sobre board`: the node's web board. Who may use it (plain HTTP, the exact headers);
//! games played by dragging pieces in two real browsers (`board_browser`).

use crate::common::http::{Answer, request};
use crate::common::nodes::Nodes;
use crate::common::{exec, run};
use std::net::{SocketAddr, UdpSocket};

/// The board's address and a fresh one-time URL path (`/?token=…`) of `home`'s node.
pub fn board_url(home: &std::path::Path) -> (SocketAddr, String) {
    let url = run(home, &["board", "--no-open", "--json"])["url"]
        .as_str()
        .expect("a URL")
        .to_owned();
    let rest = url
        .strip_prefix("http://")
        .unwrap_or_else(|| panic!("not a plain local URL: {url}"));
    let (host, path) = rest.split_at(rest.find('/').expect("a path"));
    (
        host.parse().expect("an IP address and port"),
        path.to_owned(),
    )
}

/// The session cookie (`name=value`) a token's load set.
fn cookie_of(answer: &Answer) -> String {
    let set = answer.header("set-cookie").expect("a session cookie");
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    set.split(';').next().expect("name=value").to_owned()
}

/// An address of this machine other than loopback (where the board must not answer), if
/// it has one: the interface a packet to the outside would leave by (nothing is sent).
fn outside_address() -> Option<std::net::IpAddr> {
    let socket = UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[test]
fn the_board_answers_only_its_own_browser_on_this_machine() {
    let mut nodes = Nodes::new();
    let ana = nodes.start("ana", &[]);
    let (addr, path) = board_url(&ana.home);
    assert!(addr.ip().is_loopback(), "served on {addr}");
    let host = addr.to_string();
    let origin = format!("http://{host}");
    let games = r#"{"v":1,"cmd":"games"}"#;

    // No token, a wrong one, a rebound host name, a foreign origin: refused, token unspent.
    let get = |path: &str, headers: &[(&str, &str)]| request(addr, "GET", path, headers, "");
    assert_eq!(get("/", &[("Host", &host)]).status, 403);
    assert_eq!(
        get(
            "/?token=00000000000000000000000000000000",
            &[("Host", &host)]
        )
        .status,
        403
    );
    let rebound = format!("attacker.example:{}", addr.port());
    assert_eq!(get(&path, &[("Host", &rebound)]).status, 403);
    assert_eq!(
        get(
            &path,
            &[("Host", &host), ("Origin", "http://attacker.example")]
        )
        .status,
        403
    );

    // The token opens a session once, and leaves the URL.
    let opened = get(&path, &[("Host", &host)]);
    assert_eq!(opened.status, 303, "{}", opened.body);
    assert_eq!(opened.header("location"), Some("/"));
    let cookie = cookie_of(&opened);
    assert_eq!(
        get(&path, &[("Host", &host)]).status,
        403,
        "a token is spent"
    );

    // With the session: the page, its files and the API.
    let page = get("/", &[("Host", &host), ("Cookie", &cookie)]);
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("<script type=\"module\""),
        "{}",
        page.body
    );
    assert!(
        page.header("content-security-policy")
            .is_some_and(|c| c.contains("frame-ancestors 'none'"))
    );
    let module = get(
        "/cm-chessboard/src/Chessboard.js",
        &[("Host", &host), ("Cookie", &cookie)],
    );
    assert_eq!(module.status, 200);
    let post = |headers: &[(&str, &str)]| request(addr, "POST", "/api", headers, games);
    let answer = post(&[("Host", &host), ("Cookie", &cookie), ("Origin", &origin)]);
    assert_eq!(answer.status, 200);
    let line: serde_json::Value = serde_json::from_str(&answer.body).expect("a response line");
    assert_eq!(line["ok"], true, "{line}");
    assert!(line["result"]["games"].is_array(), "{line}");
    // A watch would hold the request open: the page's events are at /events, by its code.
    let watch = r#"{"v":1,"cmd":"watch"}"#;
    let refused = request(
        addr,
        "POST",
        "/api",
        &[("Host", &host), ("Cookie", &cookie), ("Origin", &origin)],
        watch,
    );
    let line: serde_json::Value = serde_json::from_str(&refused.body).expect("a response line");
    assert_eq!(line["error"]["code"]["id"], "watch_on_board", "{line}");
    // A Spanish page gets the refusal in Spanish, worded from the same code.
    let refused = request(
        addr,
        "POST",
        "/api?lang=es",
        &[("Host", &host), ("Cookie", &cookie), ("Origin", &origin)],
        watch,
    );
    let line: serde_json::Value = serde_json::from_str(&refused.body).expect("a response line");
    assert_eq!(line["error"]["code"]["id"], "watch_on_board", "{line}");
    assert!(
        line["error"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("los eventos del tablero")),
        "{line}"
    );

    // Even with the session: another site's request, one that hides its origin, or one
    // under a rebound name is refused.
    for headers in [
        vec![
            ("Host", host.as_str()),
            ("Cookie", &cookie),
            ("Origin", "http://attacker.example"),
        ],
        vec![("Host", host.as_str()), ("Cookie", &cookie)],
        vec![("Host", &rebound), ("Cookie", &cookie), ("Origin", &origin)],
    ] {
        let refused = post(&headers);
        assert_eq!(refused.status, 403, "{headers:?}: {}", refused.body);
    }
    // Another node's board's cookie is not this one's.
    let forged = cookie.replace(&format!("_{}=", addr.port()), "_1=");
    assert_eq!(
        get("/", &[("Host", &host), ("Cookie", &forged)]).status,
        403
    );

    // Nothing answers on the machine's other addresses.
    match outside_address() {
        Some(ip) => {
            let outside = SocketAddr::new(ip, addr.port());
            assert!(
                std::net::TcpStream::connect_timeout(&outside, std::time::Duration::from_secs(5))
                    .is_err(),
                "the board answers on {outside}"
            );
        }
        None => eprintln!("no address but loopback here: the outside connection is not tried"),
    }
}

/// A board port another program holds is refused with its code, which the command line
/// words in the player's language and with the setting to change.
#[test]
fn a_board_port_held_by_another_program_is_refused_in_the_players_words() {
    let held = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = held.local_addr().expect("its address").port();
    let mut nodes = Nodes::new();
    let home = nodes.home("ana");
    std::fs::create_dir_all(&home).expect("the home");
    std::fs::write(home.join("node.toml"), format!("board_port = {port}\n")).expect("node.toml");
    let ana = nodes.start("ana", &[]);
    let out = exec(&ana.home, &["board", "--no-open"]);
    assert!(!out.success(), "{}", out.stdout);
    assert!(
        out.stderr
            .contains(&format!("cannot be served on 127.0.0.1:{port}"))
            && out.stderr.contains("board_port"),
        "{}",
        out.stderr
    );
    std::fs::write(ana.home.join("config.json"), r#"{"language":"es"}"#).expect("settings");
    let out = exec(&ana.home, &["board", "--no-open"]);
    assert!(
        out.stderr.contains(&format!(
            "el tablero no se puede servir en 127.0.0.1:{port}"
        )),
        "{}",
        out.stderr
    );
    drop(held);
}
