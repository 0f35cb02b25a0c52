//! Many peers behind one address still hear a league's heads (issue 30): a club's players
//! on the club's wifi, or a mobile carrier's shared address, reach the organiser from one
//! IP. Gossipsub's IP colocation penalty (a Sybil defence of open networks) pushed every
//! such peer under the graylist once more than a few shared an address, so the organiser's
//! heads reached none of them and members learned moves only by the 30 s fallback poll.
//! sobre's topics carry only organiser-signed heads, and connections per address are
//! bounded by the network layer's own per-IP limit, so the penalty is off.

use crate::common::net::{STEP, config, start, tcp_addr};
use sobre_core::record::EventId;
use sobre_node::network::NetworkEvent;
use sobre_node::protocol;
use std::collections::HashSet;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::timeout;

/// More peers than gossipsub's default colocation threshold (10) and sobre's former one
/// (16), all on 127.0.0.1, fewer than the per-IP connection limit (32).
const MEMBERS: usize = 24;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heads_reach_every_member_behind_one_address() {
    let (organiser, _organiser_events) = start(config()).await;
    let hub = tcp_addr(&organiser).await;
    let topic = protocol::league_topic(&EventId([7; 32]));
    organiser.subscribe(topic.clone()).await.expect("subscribe");

    let (heard_tx, mut heard) = mpsc::unbounded_channel();
    let mut members = Vec::new();
    for i in 0..MEMBERS {
        let (member, mut events) = start(config()).await;
        member.subscribe(topic.clone()).await.expect("subscribe");
        member.dial(hub.clone()).await.expect("dial");
        let heard_tx = heard_tx.clone();
        tokio::spawn(async move {
            while let Some(event) = events.recv().await {
                if let NetworkEvent::Gossip { .. } = event {
                    let _ = heard_tx.send(i);
                }
            }
        });
        members.push(member);
    }

    // The organiser announces every 200 ms (as it would at each league tick) until every
    // member has heard at least one announcement.
    let mut got = HashSet::new();
    let all = timeout(4 * STEP, async {
        let mut n = 0u32;
        while got.len() < MEMBERS {
            n += 1;
            // A fresh payload each time: gossipsub drops a repeated message id.
            let _ = organiser
                .publish(topic.clone(), n.to_be_bytes().to_vec())
                .await;
            let tick = tokio::time::sleep(Duration::from_millis(200));
            tokio::pin!(tick);
            loop {
                tokio::select! {
                    Some(i) = heard.recv() => { got.insert(i); }
                    _ = &mut tick => break,
                }
            }
        }
    })
    .await;
    assert!(
        all.is_ok(),
        "only {} of {MEMBERS} members on one address heard the organiser",
        got.len()
    );
    for m in members {
        m.shutdown().await;
    }
    organiser.shutdown().await;
}
