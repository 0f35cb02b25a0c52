//! The strangers' budget has no side doors (issue 30, item 8). Identities are free, so a key
//! must gain nothing by what it can do alone: a challenge it aborts, a game between two keys
//! of its own naming the victim as the arbiter of an envelope, games the victim does not
//! keep sent again and again. Each attacker is a real libp2p peer (the node's network actor
//! under a fresh key, signing whatever it likes), and an honest player — a contact, an
//! opponent — is still served.

use crate::common::net::actor;
use crate::common::{TestNode, play, start_game};
use libp2p::PeerId;
use sobre_core::record::escrow::{self, EscrowContext};
use sobre_core::record::{
    Challenge, ColourChoice, Envelope, EventId, Keypair, PlayerId, Scoresheet, SealLetters,
    SignedEvent, StartPosition, Terms, verify_at,
};
use sobre_core::san::{Lang, parse_san};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::network::{NetworkConfig, NetworkHandle};
use sobre_node::protocol::{Request, Response};
use sobre_node::time::now_ms;
use std::path::Path;

/// The strangers' budget the victim runs with: small, so that a test spends it quickly.
const BUDGET: usize = 8;

fn key(seed: u8) -> Keypair {
    Keypair::from_secret_bytes(&[seed; 32])
}

async fn deliver(h: &NetworkHandle, to: PeerId, game: EventId, events: &[SignedEvent]) -> Response {
    h.request(
        to,
        Request::Deliver {
            game,
            events: events.iter().map(|e| e.to_bytes().unwrap()).collect(),
        },
    )
    .await
    .unwrap_or_else(|e| Response::Refused {
        reason: e.to_string(),
    })
}

fn taken(r: &Response) -> bool {
    matches!(r, Response::Receipts { .. })
}

fn refusal(r: Response) -> String {
    match r {
        Response::Refused { reason } => reason,
        other => panic!("not refused: {other:?}"),
    }
}

fn challenge(opponent: PlayerId, tc: &str) -> Challenge {
    Challenge {
        opponent,
        colour: ColourChoice::ChallengerWhite,
        time_control: tc.into(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: None,
    }
}

/// Writes `players` into the contacts of the home `home` (before its node starts).
fn contacts(home: &Path, players: &[(&str, PlayerId)]) {
    sobre_node::home::init_key(home).unwrap();
    let map: serde_json::Map<String, serde_json::Value> = players
        .iter()
        .map(|(n, p)| ((*n).to_owned(), p.to_string().into()))
        .collect();
    std::fs::write(
        home.join(sobre_node::home::CONTACTS_FILE),
        serde_json::Value::Object(map).to_string(),
    )
    .unwrap();
}

/// Ana's node (strangers' budget [`BUDGET`], the key of `amigo` a contact) and Bruno's,
/// with a game between them under way.
async fn ana_and_bruno(
    da: &Path,
    db: &Path,
    amigo: PlayerId,
) -> (TestNode, TestNode, String, PeerId, PlayerId, String) {
    contacts(da, &[("amigo", amigo)]);
    let a = TestNode::start_with(da, |c| c.stranger_events_per_hour = Some(BUDGET)).await;
    let b = TestNode::start(db).await;
    let (_, b_addr) = b.id_addr().await;
    a.call(ApiRequest::Connect(request::Connect { addr: b_addr }))
        .await;
    let game = start_game(&a, &b).await;
    let (a_id, a_addr) = a.id_addr().await;
    (
        a,
        b,
        game,
        a_id.parse().unwrap(),
        a_id.parse().unwrap(),
        a_addr,
    )
}

async fn actor_for(k: &Keypair, addr: &str) -> NetworkHandle {
    let h = actor(sobre_node::home::libp2p_keypair(k).unwrap()).await;
    h.dial(addr.parse().unwrap()).await.unwrap();
    h
}

async fn known_peers(node: &TestNode) -> Vec<String> {
    let v = node.call(ApiRequest::Peers(request::Peers {})).await;
    v["known"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["peer"].as_str().map(str::to_owned))
        .collect()
}

/// A stranger challenges Ana and aborts: the cancelled game was never played, so it buys no
/// exemption from the strangers' budget, no reserved connection and no place among the
/// remembered peers. Once the budget is spent, the stranger's next challenge waits for the
/// hour like any stranger's; a contact's challenge and Ana's game with Bruno go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aborted_challenge_buys_a_stranger_nothing() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let amigo = key(91);
    let (a, b, honest, a_peer, ana, a_addr) =
        ana_and_bruno(da.path(), db.path(), amigo.player_id()).await;
    let t0 = now_ms() - 60_000;

    let s = key(90);
    let h = actor_for(&s, &a_addr).await;
    let (mut sheet, first) = Scoresheet::challenge(s.clone(), challenge(ana, "3d"), t0).unwrap();
    let game = sheet.game();
    assert!(taken(&deliver(&h, a_peer, game, &[first]).await));
    let abort = sheet.abort(t0 + 1).unwrap();
    assert!(taken(&deliver(&h, a_peer, game, &[abort]).await));
    a.wait_for(&game.to_hex(), "the abort", |v| v["status"] == "cancelled")
        .await;

    // Other strangers spend the rest of the hour's budget.
    let mut spent = 2;
    let mut seed = 100u8;
    let over = loop {
        let k = key(seed);
        seed += 1;
        let (c, first) = Scoresheet::challenge(k.clone(), challenge(ana, "3d"), t0 + 5).unwrap();
        let sybil = actor_for(&k, &a_addr).await;
        let r = deliver(&sybil, a_peer, c.game(), &[first]).await;
        sybil.shutdown().await;
        if !taken(&r) {
            break refusal(r);
        }
        spent += 1;
        assert!(spent <= BUDGET, "the budget was never spent");
    };
    assert_eq!(spent, BUDGET);
    assert!(over.contains("try later"), "{over}");

    // The stranger who aborted is a stranger still.
    let (again, first) = Scoresheet::challenge(s.clone(), challenge(ana, "3d"), t0 + 10).unwrap();
    let r = refusal(deliver(&h, a_peer, again.game(), &[first]).await);
    assert!(r.contains("try later"), "{r}");
    assert!(
        !known_peers(&a)
            .await
            .contains(&h.local_peer_id().to_string()),
        "the stranger who aborted was remembered"
    );
    h.shutdown().await;

    // A contact is not held back; Bruno plays on.
    let friend = actor_for(&amigo, &a_addr).await;
    let (c, first) = Scoresheet::challenge(amigo.clone(), challenge(ana, "3d"), t0 + 20).unwrap();
    assert!(taken(&deliver(&friend, a_peer, c.game(), &[first]).await));
    friend.shutdown().await;
    play(&a, &b, &honest, 0, &["e4", "e5"]).await;
    a.stop().await;
    b.stop().await;
}

/// A game over the board between `white` and `black` (the challenge on `terms`, or a tag-0
/// challenge naming none), 1.e4 e5, then White seals Nf3 and escrows it with `arbiter`.
/// Returns the events and Black's scoresheet, to go on with.
fn escrowed_game(
    white: &Keypair,
    black: &Keypair,
    arbiter: PlayerId,
    terms: Option<Terms>,
    t0: u64,
) -> (Vec<SignedEvent>, Scoresheet) {
    let ch = challenge(black.player_id(), "otb 2h");
    let (ws, first) = match terms {
        Some(t) => Scoresheet::challenge_on_terms(white.clone(), ch, t, t0),
        None => Scoresheet::challenge(white.clone(), ch, t0),
    }
    .unwrap();
    let game = ws.game();
    let mut bs = Scoresheet::join(black.clone(), game);
    bs.saw(first.id());
    let mut sheets = [ws, bs];
    let mut events = vec![first];
    let mut t = t0;
    let mut act = |who: usize,
                   events: &mut Vec<SignedEvent>,
                   f: &mut dyn FnMut(&mut Scoresheet, u64) -> SignedEvent| {
        t += 1_000;
        let ev = f(&mut sheets[who], t);
        sheets[1 - who].saw(ev.id());
        events.push(ev.clone());
        (ev, t)
    };
    act(1, &mut events, &mut |s, t| s.accept(None, t).unwrap());
    let mut pos = sobre_core::Position::new();
    for (who, san) in [(0, "e4"), (1, "e5")] {
        let m = parse_san(&pos, san, Lang::Auto).unwrap();
        pos.play_unchecked(m);
        act(who, &mut events, &mut |s, t| s.play(m, t).unwrap());
    }
    let at = events
        .last()
        .map_or(t0, |e| e.decode_unverified().unwrap().time_ms)
        + 1_000;
    let used = verify_at(&events, Some(at))
        .unwrap()
        .clocks
        .map_or([0, 0], |c| c.used_ms);
    let env = Envelope {
        white: white.player_id(),
        black: black.player_id(),
        fen_before: pos.fen(),
        time_used_ms: used,
        sealer: white.player_id(),
        move_number: pos.fullmove_number(),
        draw_offer_by: None,
        resume_at_ms: Some(now_ms() + 24 * 3600 * 1000),
        place: "Club Villa Dolores".into(),
        lateness_limit_ms: 3600 * 1000,
    };
    let mut opening = None;
    let (seal, _) = act(0, &mut events, &mut |s, t| {
        let (ev, o) = s
            .seal("Nf3", SealLetters::English, [42; 32], env.clone(), 3, t)
            .unwrap();
        opening = Some(o);
        ev
    });
    let ctx = EscrowContext {
        game,
        seal: seal.id(),
        sealer: white.player_id(),
        arbiter,
    };
    let sealed_box = escrow::seal_box(&ctx, &opening.unwrap(), [7; 32]).unwrap();
    act(0, &mut events, &mut |s, t| {
        s.escrow(seal.id(), arbiter, sealed_box.clone(), t).unwrap()
    });
    let [_, black_sheet] = sheets;
    (events, black_sheet)
}

/// Presence events ("I am at the board", A7) by Black's sheet, one per delivery, until one
/// is refused: how many were taken, and the refusal.
async fn presence_flood(
    h: &NetworkHandle,
    to: PeerId,
    game: EventId,
    sheet: &mut Scoresheet,
    from_ms: u64,
    max: usize,
) -> (usize, Option<String>) {
    for i in 0..max {
        let p = sheet.presence(from_ms + i as u64).unwrap();
        let r = deliver(h, to, game, &[p]).await;
        if !taken(&r) {
            return (i, Some(refusal(r)));
        }
    }
    (max, None)
}

/// Two keys of one stranger play a game and escrow its envelope to Ana. Named by neither the
/// game's terms nor a contact, the escrow makes her no arbiter: the game is refused as not
/// hers. Named as arbiter by the terms, she keeps it, but within the strangers' budget: its
/// presence events stop at the budget. A contact's game escrowed to her goes on whatever
/// strangers spent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_between_strangers_escrowed_to_the_node_is_budgeted() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let amigo = key(92);
    let (a, b, honest, a_peer, ana, a_addr) =
        ana_and_bruno(da.path(), db.path(), amigo.player_id()).await;
    let t0 = now_ms() - 10 * 60_000;
    let (s1, s2) = (key(93), key(94));
    let h = actor_for(&s1, &a_addr).await;

    // A tag-0 challenge names no arbiter: the escrow is the strangers' word alone.
    let (events, _) = escrowed_game(&s1, &s2, ana, None, t0);
    let game = events[0].id();
    let r = refusal(deliver(&h, a_peer, game, &events).await);
    assert!(r.contains("not a game of this node"), "{r}");

    // Terms naming Ana as arbiter: kept, and budgeted.
    let terms = Terms {
        arbiter: Some(ana),
        ..Terms::default()
    };
    let (events, mut black) = escrowed_game(&s1, &s2, ana, Some(terms), t0);
    let game = events[0].id();
    assert!(taken(&deliver(&h, a_peer, game, &events).await));
    let (n, r) = presence_flood(&h, a_peer, game, &mut black, t0 + 60_000, 40).await;
    let r = r.expect("every presence event was taken");
    assert!(r.contains("try later"), "{r}");
    assert_eq!(n + events.len(), BUDGET, "{n} presence events taken");
    h.shutdown().await;

    // A contact's game, escrowed to Ana without terms: kept and not held back.
    let friend = actor_for(&amigo, &a_addr).await;
    let (events, mut black) = escrowed_game(&amigo, &key(95), ana, None, t0);
    let game = events[0].id();
    assert!(taken(&deliver(&friend, a_peer, game, &events).await));
    let (n, r) = presence_flood(&friend, a_peer, game, &mut black, t0 + 60_000, 20).await;
    assert_eq!((n, r), (20, None));
    friend.shutdown().await;
    play(&a, &b, &honest, 0, &["e4", "e5"]).await;
    a.stop().await;
    b.stop().await;
}

/// A stranger delivers game after game that Ana's node does not keep — each a challenge of
/// a league it does not hold, which looks like a game it might keep and so cost signature
/// checks before. Past the free allowance each costs a strike, and the stranger is cut off;
/// a retry of one refused game is free, and Bruno plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_that_are_not_ours_cost_the_sender_strikes() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (a, b, honest, a_peer, _, a_addr) =
        ana_and_bruno(da.path(), db.path(), key(96).player_id()).await;
    let t0 = now_ms() - 60_000;
    let s = key(97);
    let h = actor_for(&s, &a_addr).await;
    let other = key(98).player_id();
    let league_game = |i: u64| {
        let mut ch = challenge(other, "3d");
        ch.league = Some(sobre_core::record::LeagueRound {
            league: EventId([7; 32]),
            round: 1,
        });
        Scoresheet::challenge(s.clone(), ch, t0 + i).unwrap().1
    };
    // A retry of the same game, as an honest outbox would: refused, never cut off.
    let same = league_game(0);
    for _ in 0..10 {
        let r = refusal(deliver(&h, a_peer, same.id(), std::slice::from_ref(&same)).await);
        assert!(r.contains("not a game of this node"), "{r}");
    }
    assert!(a.connected_to(&h.local_peer_id()).await);
    let max_strikes = NetworkConfig::new(libp2p::identity::Keypair::generate_ed25519()).max_strikes;
    let mut refused = 0u32;
    // Fewer requests in all than the network's rate limit (120 a minute), which would
    // cut the stranger off by itself.
    for i in 1..60u64 {
        let e = league_game(i);
        match deliver(&h, a_peer, e.id(), &[e]).await {
            Response::Refused { reason } if reason.contains("not a game of this node") => {
                refused += 1;
            }
            _ => break,
        }
        if !a.connected_to(&h.local_peer_id()).await {
            break;
        }
    }
    assert!(!a.connected_to(&h.local_peer_id()).await, "never cut off");
    assert!(
        refused <= 16 + max_strikes,
        "{refused} games refused before the cut"
    );
    h.shutdown().await;
    play(&a, &b, &honest, 0, &["e4", "e5"]).await;
    a.stop().await;
    b.stop().await;
}

/// A played game between `white` and `black`: challenge, acceptance, 1.e4 e5.
fn played_game(white: &Keypair, black: &Keypair, t0: u64) -> (EventId, Vec<SignedEvent>) {
    let (ws, first) =
        Scoresheet::challenge(white.clone(), challenge(black.player_id(), "3d"), t0).unwrap();
    let game = ws.game();
    let mut bs = Scoresheet::join(black.clone(), game);
    bs.saw(first.id());
    let mut sheets = [ws, bs];
    let mut events = vec![first];
    let accept = sheets[1].accept(None, t0 + 1_000).unwrap();
    sheets[0].saw(accept.id());
    events.push(accept);
    let mut pos = sobre_core::Position::new();
    for (i, (who, san)) in [(0, "e4"), (1, "e5")].into_iter().enumerate() {
        let m = parse_san(&pos, san, Lang::Auto).unwrap();
        pos.play_unchecked(m);
        let ev = sheets[who].play(m, t0 + 2_000 + i as u64 * 1_000).unwrap();
        sheets[1 - who].saw(ev.id());
        events.push(ev);
    }
    (game, events)
}

/// The connected peers a node lists, with whether it keeps room for each.
async fn connected_reserved(node: &TestNode) -> Vec<(String, bool)> {
    let v = node.call(ApiRequest::Peers(request::Peers {})).await;
    v["connected"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| Some((p["peer"].as_str()?.to_owned(), p["reserved"].as_bool()?)))
        .collect()
}

/// A club mailbox holds the played games of many players (issue 30: "players not
/// reserved"): none of them earns a reserved connection there, while an opponent of the
/// mailbox's own player does. Otherwise every member of the club would bypass the
/// per-address caps, the idle close and the eviction above the connection cap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mailbox_does_not_reserve_the_players_whose_games_it_holds() {
    let dm = tempfile::tempdir().unwrap();
    let m = TestNode::start_with(dm.path(), |c| c.mailbox = true).await;
    let (m_id, m_addr) = m.id_addr().await;
    let m_peer: PeerId = m_id.parse().unwrap();
    let t0 = now_ms() - 60_000;
    let mut actors = Vec::new();
    for pair in 0..4u8 {
        let (white, black) = (key(150 + 2 * pair), key(151 + 2 * pair));
        let (game, events) = played_game(&white, &black, t0);
        let hw = actor_for(&white, &m_addr).await;
        let hb = actor_for(&black, &m_addr).await;
        assert!(
            taken(&deliver(&hw, m_peer, game, &events).await),
            "game {pair}"
        );
        m.wait_for(&game.to_hex(), "the game at the mailbox", |v| {
            v["status"] == "active"
        })
        .await;
        actors.extend([hw, hb]);
    }
    // The mailbox's own player challenges one of them: an opponent, reserved.
    let rival = actors[0].local_peer_id().to_string();
    let ch = m
        .call(ApiRequest::Challenge(request::Challenge {
            opponent: rival.clone(),
            color: sobre_core::record::ColourChoice::ChallengerWhite,
            time_control: "3d".into(),
            chess960: false,
            fen: None,
            terms: Default::default(),
        }))
        .await;
    assert!(ch["game"].is_string(), "{ch}");
    let deadline = tokio::time::Instant::now() + crate::common::STEP;
    let listed = loop {
        let listed = connected_reserved(&m).await;
        if listed.iter().any(|(p, r)| *p == rival && *r) {
            break listed;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the opponent was never reserved: {listed:?}"
        );
        tokio::time::sleep(crate::common::POLL).await;
    };
    for h in &actors[1..] {
        let p = h.local_peer_id().to_string();
        assert_eq!(
            listed.iter().find(|(q, _)| *q == p).map(|(_, r)| *r),
            Some(false),
            "{p} is reserved or not connected: {listed:?}"
        );
    }
    for h in actors {
        h.shutdown().await;
    }
    m.stop().await;
}
