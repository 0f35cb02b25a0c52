//! Messages and bytes per move by role, from each node's own counters (`status`'s
//! `traffic`, see `sobre_node::network::traffic`): sobre's messages (request and answer
//! frames, gossip) and every byte on the network under them. Counted over the play, at the
//! nodes that ran all of it (the same process before and after).

use super::play::Outcome;
use super::{PHASE, World};
use crate::nodes::Node;
use crate::table::Row;
use sobre_node::api::replies::StatusReply;
use sobre_node::api::request;
use sobre_node::client::Client;
use sobre_node::network::TrafficCounts;
use std::path::Path;

/// A node's process and its counters, `None` when it is down or does not answer.
type Reading = Option<(u32, TrafficCounts)>;

/// Every mailbox's reading, then every player's.
pub async fn of_all(w: &World) -> (Vec<Reading>, Vec<Reading>) {
    let mut mailboxes = Vec::new();
    for (c, club) in w.clubs.iter().enumerate() {
        mailboxes.push(read(w.mailbox_pid(c), &club.home).await);
    }
    let mut players = Vec::new();
    for p in &w.players {
        let pid = p.node.lock().await.as_ref().and_then(Node::pid);
        players.push(read(pid, &p.home).await);
    }
    (mailboxes, players)
}

/// Club `c`'s mailbox's reading.
pub async fn of_mailbox(w: &World, c: usize) -> Reading {
    read(w.mailbox_pid(c), &w.clubs[c].home).await
}

async fn read(pid: Option<u32>, home: &Path) -> Reading {
    let status: StatusReply = Client::new(home).send(request::Status {}).await.ok()?;
    Some((pid?, status.traffic))
}

/// The sum of what the nodes in `which` did between the readings, and how many ran all of it.
fn spent(
    before: &[Reading],
    after: &[Reading],
    which: impl Fn(usize) -> bool,
) -> (TrafficCounts, usize) {
    let mut sum = TrafficCounts::default();
    let mut n = 0;
    for (i, (b, a)) in before.iter().zip(after).enumerate() {
        let (Some((pb, b)), Some((pa, a))) = (b, a) else {
            continue;
        };
        if pb != pa || !which(i) {
            continue;
        }
        n += 1;
        sum.messages_sent += a.messages_sent - b.messages_sent;
        sum.messages_received += a.messages_received - b.messages_received;
        sum.gossip_sent += a.gossip_sent - b.gossip_sent;
        sum.gossip_received += a.gossip_received - b.gossip_received;
        sum.message_bytes_sent += a.message_bytes_sent - b.message_bytes_sent;
        sum.message_bytes_received += a.message_bytes_received - b.message_bytes_received;
        sum.gossip_bytes_sent += a.gossip_bytes_sent - b.gossip_bytes_sent;
        sum.gossip_bytes_received += a.gossip_bytes_received - b.gossip_bytes_received;
        sum.network_bytes_sent += a.network_bytes_sent - b.network_bytes_sent;
        sum.network_bytes_received += a.network_bytes_received - b.network_bytes_received;
    }
    (sum, n)
}

/// One row: messages (frames and gossip, sent + received) and bytes per move.
fn row(role: &str, t: &TrafficCounts, nodes: usize, moves: usize) -> Row {
    let per = |x: u64| x as f64 / moves.max(1) as f64;
    let messages = t.messages_sent + t.messages_received + t.gossip_sent + t.gossip_received;
    let sobre_bytes = t.message_bytes_sent
        + t.message_bytes_received
        + t.gossip_bytes_sent
        + t.gossip_bytes_received;
    let network = t.network_bytes_sent + t.network_bytes_received;
    Row::info(
        PHASE,
        format!(
            "{role}: messages / sobre bytes / network bytes per move, sent + received \
             ({nodes} nodes, {moves} moves)"
        ),
        format!(
            "{:.1} / {:.0} B / {:.0} B",
            per(messages),
            per(sobre_bytes),
            per(network)
        ),
    )
}

/// Per move by role: a mailbox per move of its players, a player per move of its games (made
/// or received), the league's organiser per league move.
pub fn per_move(
    w: &World,
    before: &(Vec<Reading>, Vec<Reading>),
    after: &(Vec<Reading>, Vec<Reading>),
    outcome: &Outcome,
) -> Vec<Row> {
    let mut rows = Vec::new();
    let restarted = outcome.restarted_mailbox;
    let (mailboxes, n) = spent(&before.0, &after.0, |c| c != restarted);
    let mailbox_moves: usize = (0..w.clubs.len())
        .filter(|&c| c != restarted && before.0[c].is_some() && after.0[c].is_some())
        .map(|c| outcome.moves_to_mailbox[c])
        .sum();
    rows.push(row("mailbox", &mailboxes, n, mailbox_moves));
    let playing = |i: usize| i != w.organiser && outcome.moves_of_player[i] > 0;
    let (players, n) = spent(&before.1, &after.1, playing);
    let player_moves: usize = (0..w.players.len())
        .filter(|&i| {
            playing(i)
                && matches!((&before.1[i], &after.1[i]), (Some((b, _)), Some((a, _))) if a == b)
        })
        .map(|i| outcome.moves_of_player[i])
        .sum();
    rows.push(row("player", &players, n, player_moves));
    let (organiser, n) = spent(&before.1, &after.1, |i| i == w.organiser);
    rows.push(row("league organiser", &organiser, n, outcome.league_moves));
    rows
}
