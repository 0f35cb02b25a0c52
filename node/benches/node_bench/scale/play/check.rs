//! The end check: every acknowledged move where it should be, read from the holders'
//! exported archives and verified from scratch.

use super::{Holder, Play, Role, lock};
use crate::Res;
use crate::scale::World;
use futures::StreamExt;
use sobre_core::Move;
use sobre_core::record::read_archive;
use sobre_node::api::request;
use sobre_node::api::{ApiRequest, ExportFormat};
use sobre_node::client;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// Every acknowledged move, at every holder: held in the holder's exported archive, which
/// verifies, at its ply and identical. Per role: (held, expected, different).
pub(super) async fn check(
    w: &World,
    play: &Arc<Mutex<Play>>,
) -> Res<HashMap<Role, (usize, usize, usize)>> {
    // What to export: (game index, holder).
    let wanted: HashSet<(usize, Holder)> = {
        let p = lock(play)?;
        p.moves
            .iter()
            .filter(|m| m.acked)
            .flat_map(|m| m.holders.iter().map(move |h| (m.game, h.0)))
            .collect()
    };
    let ids: Vec<String> = lock(play)?.games.iter().map(|g| g.id.clone()).collect();
    let homes = |h: Holder| match h {
        Holder::Player(p) => w.players[p].home.clone(),
        Holder::Mailbox(c) => w.clubs[c].home.clone(),
    };
    let exported: HashMap<(usize, Holder), Option<Vec<Move>>> = futures::stream::iter(wanted)
        .map(|(g, h)| {
            let (home, game) = (homes(h), ids[g].clone());
            async move {
                let v = client::call(
                    &home,
                    ApiRequest::Export(request::Export {
                        game,
                        format: ExportFormat::Archive,
                    }),
                )
                .await
                .ok();
                let moves = v.and_then(|v| {
                    let state = read_archive(v["archive"].as_str()?).ok()?.verify().ok()?;
                    Some(state.moves.iter().map(|m| m.mv).collect())
                });
                ((g, h), moves)
            }
        })
        .buffer_unordered(8)
        .collect()
        .await;
    let p = lock(play)?;
    let mut out: HashMap<Role, (usize, usize, usize)> = HashMap::new();
    for m in p.moves.iter().filter(|m| m.acked) {
        for &(h, role, _) in &m.holders {
            let e = out.entry(role).or_default();
            e.1 += 1;
            match exported
                .get(&(m.game, h))
                .and_then(|x| x.as_ref())
                .and_then(|v| v.get(m.ply))
            {
                Some(held) if *held == m.mv => e.0 += 1,
                Some(_) => e.2 += 1,
                None => {}
            }
        }
    }
    Ok(out)
}
