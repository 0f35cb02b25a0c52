//! Who may sign a league decision, as a node receiving one sees it (issue 20): in a league
//! whose organiser plays, a player's node keeps the deputy arbiter's decision about the
//! organiser's game, and refuses — keeping nothing — the same decision signed by the
//! organiser, or by a stranger.

use crate::common::TestNode;
use crate::common::net::actor;
use libp2p::PeerId;
use serde_json::Value;
use sobre_core::league::decision::Decision;
use sobre_core::league::{
    LEAGUE_VERSION, League, LeagueDef, LeagueDoc, LeagueKind, Scoring, SignedLeagueDoc,
};
use sobre_core::record::{Keypair, PlayerId};
use sobre_node::api::ApiRequest;
use sobre_node::api::request;
use sobre_node::home::libp2p_keypair;
use sobre_node::network::{NetworkError, NetworkHandle};
use sobre_node::protocol::{Request, Response};

/// Sends league documents to `to` as the peer of `key`, and gives the answer.
async fn send(
    key: &Keypair,
    to: PeerId,
    addr: &str,
    docs: &[&SignedLeagueDoc],
) -> (NetworkHandle, Result<Response, NetworkError>) {
    let h = actor(libp2p_keypair(key).expect("identity")).await;
    h.dial(addr.parse().expect("addr")).await.expect("dial");
    let docs = docs.iter().map(|d| d.to_bytes().expect("bytes")).collect();
    let answer = h.request(to, Request::League { docs }).await;
    (h, answer)
}

/// A decision signed by `key` as it is (what a node signing anything it likes can send).
fn signed_by(key: &Keypair, league: &League, decision: Decision) -> SignedLeagueDoc {
    SignedLeagueDoc::sign(
        &LeagueDoc {
            version: LEAGUE_VERSION,
            author: key.player_id(),
            time_ms: league.def.start_ms + 1,
            kind: LeagueKind::Decision {
                league: league.id,
                decision,
            },
        },
        key,
    )
    .expect("sign")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_deputy_signs_the_decisions_about_the_organisers_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let node = TestNode::start(dir.path()).await;
    let (id, addr) = node.id_addr().await;
    let peer: PeerId = id.parse().expect("peer id");
    let player: PlayerId = id.parse().expect("player id");
    let org = Keypair::from_secret_bytes(&[11; 32]);
    let deputy = Keypair::from_secret_bytes(&[12; 32]);
    let stranger = Keypair::from_secret_bytes(&[13; 32]);
    let others: Vec<PlayerId> = [21u8, 22]
        .iter()
        .map(|b| Keypair::from_secret_bytes(&[*b; 32]).player_id())
        .collect();
    // The organiser is number 1; round 1 of four is 1–4 and 2–3.
    let def = LeagueDef {
        name: "Liga".into(),
        players: vec![org.player_id(), player, others[0], others[1]],
        names: ["Org", "P", "Q", "R"].map(String::from).to_vec(),
        double: false,
        time_control: "3d".into(),
        start_ms: 1_000,
        round_days: 0,
        scoring: Scoring::default(),
    };
    let league =
        League::create_with_deputy(&org, def, Some(deputy.player_id()), 500).expect("valid");
    let forfeit = Decision::Forfeit {
        round: 1,
        white: org.player_id(),
        black: others[1],
        winner: org.player_id(),
    };

    // The deputy's decision is kept.
    let good = league
        .decide(&deputy, forfeit.clone(), league.def.start_ms + 1)
        .expect("the deputy signs it");
    let (h, answer) = send(&deputy, peer, &addr, &[&league.signed, &good]).await;
    assert!(
        matches!(answer, Ok(Response::Stored { count: 2 })),
        "{answer:?}"
    );
    h.shutdown().await;

    // The organiser's, about their own game, and a stranger's are refused.
    let own = signed_by(&org, &league, forfeit.clone());
    let forged = signed_by(&stranger, &league, forfeit);
    for (key, doc, why) in [
        (&org, &own, "deputy arbiter"),
        (&stranger, &forged, "not by the deputy arbiter"),
    ] {
        let (h, answer) = send(key, peer, &addr, &[&league.signed, doc]).await;
        match answer {
            // The node answers `Refused`, which the requester's network reports as this.
            Err(NetworkError::Refused(reason)) => assert!(reason.contains(why), "{reason}"),
            other => panic!("not refused: {other:?}"),
        }
        h.shutdown().await;
    }
    // The node's archive holds the deputy's decision and neither refused one.
    let arch: Value = node
        .call(ApiRequest::LeagueExport(request::LeagueExport {
            league: league.id.to_hex(),
        }))
        .await;
    let text = arch["archive"].as_str().expect("archive");
    let hex = |d: &SignedLeagueDoc| -> String {
        d.to_bytes()
            .expect("bytes")
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    assert!(text.contains(&hex(&good)));
    assert!(!text.contains(&hex(&own)));
    assert!(!text.contains(&hex(&forged)));
    node.stop().await;
}
