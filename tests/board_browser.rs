//! The board in two real browsers (headless Chromium over WebDriver, `common::browser`),
//! each on its player's real node: pieces are dragged with the mouse, the other browser's
//! board follows without a reload, and the Laws' procedures (promotion, draw offer,
//! adjournment, claim) are done with the page's controls.

use crate::board::board_url;
use crate::common::browser::Browser;
use crate::common::nodes::{Node, Nodes};
use crate::common::{run, run_text, wait_until};
use std::path::PathBuf;

/// Opens `node`'s board in `browser` with a fresh one-time URL and waits until the page
/// is ready; marks the page so that a reload would be seen (`sameLoad`).
async fn open_board(browser: &Browser, node: &Node) {
    let (addr, path) = board_url(&node.home);
    browser
        .client
        .goto(&format!("http://{addr}{path}"))
        .await
        .expect("the board loads");
    browser
        .wait(
            "the page to be ready",
            "document.body.dataset.ready === 'true'",
        )
        .await;
    browser.js("window.sameLoad = true").await;
}

/// Opens `game` from the games list.
async fn open_game(browser: &Browser, game: &str) {
    let button = format!("#game-list button[data-game='{game}']");
    browser
        .wait(
            "the game in the list",
            &format!("document.querySelector(\"{button}\")"),
        )
        .await;
    browser.click(&button).await;
    browser
        .wait(
            "the game's board",
            "!document.getElementById('game').hidden",
        )
        .await;
}

/// Waits until `browser`'s board shows `plies` plies.
async fn wait_plies(browser: &Browser, plies: usize, what: &str) {
    browser
        .wait(
            what,
            &format!("document.getElementById('board').dataset.plies === '{plies}'"),
        )
        .await;
}

/// Where the screenshots go: `target/board-screenshots/` (a test artifact).
fn screenshots_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../board-screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshots directory");
    dir
}

/// Two players, their nodes connected.
fn two_players(nodes: &mut Nodes) -> (Node, Node) {
    let ana = nodes.start("ana", &[]);
    let bruno = nodes.start("bruno", &[]);
    run_text(&bruno.home, &["peers", "connect", &ana.addr]);
    (ana, bruno)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

/// A whole game in the browsers: Bruno accepts Ana's challenge on the page, then they play
/// 1.e7 Kb8 2.e8=Q# by dragging, the promotion chosen in the board's dialog; each move
/// reaches the other browser without a reload. Screenshots in both languages are kept.
#[test]
fn a_game_is_played_by_dragging_pieces_in_two_browsers() {
    let mut nodes = Nodes::new();
    let (ana, bruno) = two_players(&mut nodes);
    let challenge = run(
        &ana.home,
        &[
            "challenge",
            &bruno.id,
            "--color",
            "white",
            "--fen",
            "k7/8/1K2P3/8/8/8/8/8 w - - 0 1",
            "--json",
        ],
    );
    let game = challenge["game"].as_str().expect("a game id").to_owned();
    wait_until(&bruno.home, &game, "the challenge", |v| {
        v["status"] == "pending"
    });

    runtime().block_on(async {
        let (a, b) = (
            Browser::start(1000, 1000).await,
            Browser::start(1000, 1000).await,
        );
        open_board(&a, &ana).await;
        open_board(&b, &bruno).await;
        open_game(&b, &game).await;
        b.wait(
            "the challenge's buttons",
            "!document.getElementById('accept').hidden",
        )
        .await;
        b.click("#accept").await;
        open_game(&a, &game).await;
        a.wait(
            "the game to start on Ana's page",
            "document.getElementById('move-form').hidden === false",
        )
        .await;

        a.drag("e6", "e7").await;
        wait_plies(&b, 1, "1.e7 on Bruno's board").await;
        b.wait(
            "Bruno's turn",
            "document.getElementById('move-form').hidden === false",
        )
        .await;
        b.drag("a8", "b8").await;
        wait_plies(&a, 2, "1...Kb8 on Ana's board").await;
        a.wait(
            "Ana's turn",
            "document.getElementById('move-form').hidden === false",
        )
        .await;
        a.drag("e7", "e8").await;
        // The promotion dialog offers the four pieces; Ana takes the queen.
        a.wait(
            "the promotion dialog",
            "document.querySelector(\"#board [data-piece='wq'][role='button']\")",
        )
        .await;
        a.click("#board [data-piece='wq'][role='button']").await;
        for (browser, who) in [(&a, "Ana"), (&b, "Bruno")] {
            wait_plies(browser, 3, &format!("2.e8=Q# on {who}'s board")).await;
            browser
                .wait(
                    &format!("the result on {who}'s page"),
                    "document.getElementById('state').textContent.includes('1-0')",
                )
                .await;
            assert_eq!(
                browser.js("return window.sameLoad === true").await,
                true,
                "{who}'s page was reloaded"
            );
        }
        let record = a
            .js("return [...document.querySelectorAll('#moves li')].map(l => l.textContent)")
            .await;
        assert_eq!(record, serde_json::json!(["1. e7", "Kb8", "2. e8=Q#"]));

        // The same board in Spanish and in English, kept for people to look at.
        let dir = screenshots_dir();
        for (lang, check) in [("es", "2. e8=D#"), ("en", "2. e8=Q#")] {
            a.js(&format!(
                "const s = document.getElementById('lang'); s.value = '{lang}'; \
                 s.dispatchEvent(new Event('change'))"
            ))
            .await;
            a.wait(
                &format!("the record in {lang}"),
                &format!("document.getElementById('moves').textContent.includes('{check}')"),
            )
            .await;
            std::fs::write(dir.join(format!("board-{lang}.png")), a.screenshot().await)
                .expect("the screenshot is written");
        }
        // At a phone's width the page is one column: the board fits the screen.
        a.client
            .set_window_size(390, 844)
            .await
            .expect("a phone-sized window");
        let phone = a
            .js(
                "const r = (id) => document.getElementById(id).getBoundingClientRect(); \
                 return [window.innerWidth, r('board').right, r('game').top, r('game-list').top]",
            )
            .await;
        eprintln!("phone layout: {phone}");
        a.wait(
            "the board to fit a phone's width",
            "document.getElementById('board').getBoundingClientRect().right <= window.innerWidth \
             && document.getElementById('game').getBoundingClientRect().top > \
                document.getElementById('game-list').getBoundingClientRect().top",
        )
        .await;
        std::fs::write(dir.join("board-phone-en.png"), a.screenshot().await)
            .expect("the screenshot is written");

        // A leave (vacation) started and ended on the page: the node answers each.
        submit(&a, "leave-form", &[("days", "3")]).await;
        a.wait(
            "the leave started",
            "document.getElementById('leave-state').textContent.startsWith('On leave until')",
        )
        .await;
        a.click("#leave-end").await;
        a.wait(
            "the leave ended",
            "document.getElementById('leave-state').textContent.startsWith('Leave ended')",
        )
        .await;
    });
    let v = run(&bruno.home, &["show", &game, "--json"]);
    assert_eq!(v["result"], "1-0", "{v}");
    assert_eq!(v["termination"], "checkmate", "{v}");
    assert_eq!(
        v["moves"],
        serde_json::json!(["e6e7", "a8b8", "e7e8q"]),
        "{v}"
    );
}

/// Fills the form `form` (its inputs by name) and submits it with its button.
async fn submit(browser: &Browser, form: &str, fields: &[(&str, &str)]) {
    for (name, value) in fields {
        browser
            .js(&format!(
                "document.getElementById('{form}').elements['{name}'].value = {}",
                serde_json::Value::from(*value)
            ))
            .await;
    }
    browser.click(&format!("#{form} button")).await;
}

/// The Laws' procedures on the page: Bruno's draw offer is declined by Ana (9.1); Ana
/// adjourns with a sealed move (A1–A2) that is opened when Bruno says he is present (A7);
/// the knights go back and forth, and Bruno's claim of a threefold repetition with the
/// move that makes it (9.2) is upheld, the verdict shown on both pages.
#[test]
fn a_draw_offer_is_declined_a_sealed_move_opened_and_a_claim_upheld_in_the_browser() {
    let mut nodes = Nodes::new();
    let (ana, bruno) = two_players(&mut nodes);
    let challenge = run(
        &ana.home,
        &[
            "challenge",
            &bruno.id,
            "--color",
            "white",
            "--classical",
            "40/2h+1h",
            // A resumption seconds ahead needs a short agreed notice (A2.7).
            "--notice",
            "2s",
            "--json",
        ],
    );
    let game = challenge["game"].as_str().expect("a game id").to_owned();
    wait_until(&bruno.home, &game, "the challenge", |v| {
        v["status"] == "pending"
    });
    run_text(&bruno.home, &["accept", &game]);
    wait_until(&ana.home, &game, "the acceptance", |v| {
        v["status"] == "active"
    });

    runtime().block_on(async {
        let (a, b) = (Browser::start(900, 1100).await, Browser::start(900, 1100).await);
        open_board(&a, &ana).await;
        open_board(&b, &bruno).await;
        open_game(&a, &game).await;
        open_game(&b, &game).await;
        let visible = |id: &str| format!("document.getElementById('{id}').hidden === false");
        // The agreed terms are shown: the two seconds' notice of a resumption (A2.7).
        b.wait(
            "the terms on Bruno's page",
            "document.getElementById('terms').textContent.includes('00:00:02')",
        )
        .await;

        a.drag("e2", "e4").await;
        wait_plies(&b, 1, "1.e4 on Bruno's board").await;
        // 9.1: Bruno offers a draw; Ana declines it on her page.
        b.click("#draw-offer").await;
        a.wait("Bruno's offer on Ana's page", &visible("draw-decline")).await;
        a.click("#draw-decline").await;
        b.wait("the offer gone on Bruno's page", &visible("draw-offer")).await;
        assert!(
            run(&bruno.home, &["show", &game, "--json"])["draw_offer"].is_null(),
            "the offer stands"
        );
        // Conditional moves (Ana waits): a line is added, listed, and cleared before Bruno
        // replies, so that it plays nothing.
        submit(&a, "conditional-form", &[("line", "e5 Nf3")]).await;
        a.wait(
            "the conditional line listed",
            "document.getElementById('conditionals').textContent.includes('Nf3')",
        )
        .await;
        a.click("#conditional-clear").await;
        a.wait(
            "the conditional lines cleared",
            "document.getElementById('conditionals').children.length === 0",
        )
        .await;
        b.drag("e7", "e5").await;
        wait_plies(&a, 2, "1...e5 on Ana's board").await;

        // A2: Ana seals 2.Nf3 for a resumption a few seconds ahead (local time, as the
        // page's field takes it).
        a.wait("the adjournment form", &visible("adjourn-form")).await;
        let at = a
            .js("const d = new Date(Date.now() + 8000), p = (n) => String(n).padStart(2, '0'); \
                 return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`")
            .await;
        let at = at.as_str().expect("a local time").to_owned();
        submit(&a, "adjourn-form", &[("seal", "Nf3"), ("resume_at", &at)]).await;
        for (browser, who) in [(&a, "Ana"), (&b, "Bruno")] {
            browser
                .wait(
                    &format!("the envelope on {who}'s page"),
                    "document.getElementById('envelope').textContent !== ''",
                )
                .await;
        }
        b.wait("the resumption button", &visible("resume")).await;
        // A7: Bruno is present; Ana's node opens the envelope at the agreed time.
        b.click("#resume").await;
        for (browser, who) in [(&a, "Ana"), (&b, "Bruno")] {
            wait_plies(browser, 3, &format!("the sealed 2.Nf3 on {who}'s board")).await;
        }
        let v = run(&bruno.home, &["show", &game, "--json"]);
        assert_eq!(v["last_move"], "g1f3", "{v}");
        assert_eq!(v["status"], "active", "{v}");

        // The knights go back and forth; the position after 1...e5 comes a third time
        // with Bruno's 5...Nb8, which he claims (9.2) instead of playing.
        for (plies, (browser, from, to)) in [
            (&b, "b8", "c6"),
            (&a, "f3", "g1"),
            (&b, "c6", "b8"),
            (&a, "g1", "f3"),
            (&b, "b8", "c6"),
            (&a, "f3", "g1"),
        ]
        .into_iter()
        .enumerate()
        {
            browser
                .wait("the player's turn", &visible("move-form"))
                .await;
            browser.drag(from, to).await;
            let other = if std::ptr::eq(browser, &a) { &b } else { &a };
            wait_plies(other, plies + 4, &format!("{from}-{to} on the other board")).await;
        }
        b.wait("Bruno's turn", &visible("claim-form")).await;
        b.js("document.getElementById('claim-form').elements['reason'].value = 'threefold'")
            .await;
        submit(&b, "claim-form", &[("intended", "Nb8")]).await;
        for (browser, who) in [(&a, "Ana"), (&b, "Bruno")] {
            browser
                .wait(
                    &format!("the verdict on {who}'s page"),
                    "document.getElementById('claims').textContent.includes('upheld')",
                )
                .await;
            browser
                .wait(
                    &format!("the draw on {who}'s page"),
                    "document.getElementById('state').textContent.includes('1/2-1/2')",
                )
                .await;
            assert_eq!(
                browser.js("return window.sameLoad === true").await,
                true,
                "{who}'s page was reloaded"
            );
        }
    });
    let v = run(&ana.home, &["show", &game, "--json"]);
    assert_eq!(v["result"], "1/2-1/2", "{v}");
    assert_eq!(v["claims"][0]["correct"], true, "{v}");
}

/// Meeting a player and challenging them on the page: Bruno pastes Ana's invite (her node is
/// remembered and dialled), challenges her from the form it fills, and Ana accepts on hers;
/// his own invite is refused.
#[test]
fn an_invite_pasted_leads_to_a_challenge_accepted_in_the_browser() {
    let mut nodes = Nodes::new();
    let ana = nodes.start("ana", &[]);
    let bruno = nodes.start("bruno", &[]);
    let invite = run_text(&ana.home, &["invite"]).trim().to_owned();
    let own = run_text(&bruno.home, &["invite"]).trim().to_owned();

    runtime().block_on(async {
        let (a, b) = (
            Browser::start(1000, 1000).await,
            Browser::start(1000, 1000).await,
        );
        open_board(&a, &ana).await;
        open_board(&b, &bruno).await;

        submit(&b, "invite-form", &[("invite", &own)]).await;
        b.wait(
            "his own invite refused",
            "document.getElementById('error').textContent.includes('your own invite')",
        )
        .await;
        submit(&b, "invite-form", &[("invite", &invite)]).await;
        b.wait(
            "Ana's id in the challenge form",
            &format!(
                "document.getElementById('challenge-form').elements.opponent.value === '{}'",
                ana.id
            ),
        )
        .await;
        b.js("document.getElementById('challenge-form').elements.color.value = 'black'")
            .await;
        b.click("#challenge-form button").await;
        b.wait(
            "the challenge sent",
            "document.getElementById('state').textContent !== ''",
        )
        .await;
        let game = b
            .js("return location.hash.slice('#game='.length)")
            .await
            .as_str()
            .expect("the game's id in the address")
            .to_owned();
        assert!(!game.is_empty());
        open_game(&a, &game).await;
        a.wait(
            "the challenge's buttons",
            "!document.getElementById('accept').hidden",
        )
        .await;
        a.click("#accept").await;
        for (browser, who) in [(&a, "Ana"), (&b, "Bruno")] {
            browser
                .wait(
                    &format!("the game in play on {who}'s page"),
                    "document.getElementById('state').textContent.includes('in play')",
                )
                .await;
        }
        let v = run(&ana.home, &["show", &game, "--json"]);
        assert_eq!(v["status"], "active", "{v}");
        assert_eq!(v["white"], ana.id.as_str(), "{v}");
    });
}

/// The page follows the player's own settings, as the CLI does: Ana's `config.json` says
/// Spanish and figurines, so the page is in Spanish and her record reads `♘f3`; she
/// challenges Bruno by the alias she gave him with `sobre contacts`; the notation chosen on
/// the page (Spanish letters) rewrites the record.
#[test]
fn the_page_takes_the_players_notation_language_and_contacts() {
    let mut nodes = Nodes::new();
    let (ana, bruno) = two_players(&mut nodes);
    std::fs::write(
        ana.home.join("config.json"),
        r#"{"language":"es","notation":"figurine"}"#,
    )
    .expect("Ana's settings");
    run_text(&ana.home, &["contacts", "add", "rival", &bruno.id]);

    let game = runtime().block_on(async {
        let a = Browser::start(1000, 1000).await;
        open_board(&a, &ana).await;
        assert_eq!(
            a.js(
                "return [document.documentElement.lang, document.getElementById('notation').value]"
            )
            .await,
            serde_json::json!(["es", "figurine"])
        );
        submit(
            &a,
            "challenge-form",
            &[("opponent", "rival"), ("color", "white")],
        )
        .await;
        a.wait(
            "the challenge sent to the alias's player",
            "location.hash.startsWith('#game=')",
        )
        .await;
        let game = a
            .js("return location.hash.slice('#game='.length)")
            .await
            .as_str()
            .expect("the game's id in the address")
            .to_owned();
        wait_until(&bruno.home, &game, "the challenge", |v| {
            v["status"] == "pending"
        });
        run_text(&bruno.home, &["accept", &game]);
        a.wait(
            "the game to start on Ana's page",
            "document.getElementById('move-form').hidden === false",
        )
        .await;
        a.wait(
            "Bruno shown by his alias",
            "document.getElementById('game-list').textContent.includes('rival')",
        )
        .await;
        a.drag("g1", "f3").await;
        a.wait(
            "the record in figurines",
            "document.getElementById('moves').textContent.includes('1. ♘f3')",
        )
        .await;
        a.js(
            "const s = document.getElementById('notation'); s.value = 'es'; \
             s.dispatchEvent(new Event('change'))",
        )
        .await;
        a.wait(
            "the record in Spanish letters",
            "document.getElementById('moves').textContent.includes('1. Cf3')",
        )
        .await;
        game
    });
    let v = wait_until(&bruno.home, &game, "1.Nf3 on Bruno's node", |v| {
        v["moves"].as_array().is_some_and(|m| m.len() == 1)
    });
    assert_eq!(v["moves"], serde_json::json!(["g1f3"]), "{v}");
}
