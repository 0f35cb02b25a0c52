//! `sobre demo`: two real nodes on loopback play a complete adjourned game.
//!
//! Nothing is simulated: each player is a full node (libp2p over TCP with Noise and Yamux,
//! sled on disk, the control socket) in a temporary directory, and the demo drives them
//! through the same control API the CLI uses. The game is Morphy's "Opera game" (Paris 1858),
//! written in Spanish notation, with a declined draw offer, an adjournment with a sealed move
//! (FIDE Appendix A), the resumption, the opening of the envelope, and the mate.

use super::common;
use crate::error::{CliError, CliResult};
use crate::i18n::words;
use crate::t;
use sobre_core::Color;
use sobre_core::record::ColourChoice;
use sobre_core::record::Status;
use sobre_node::api::GameView;
use sobre_node::api::replies::{ExportReply, IdReply};
use sobre_node::api::request::{self, Request};
use sobre_node::client::Client;
use sobre_node::service::{NodeConfig, run as run_node};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// Start two real nodes in a temporary directory on loopback and play a complete game
/// between them: a declined draw offer, an adjournment with a sealed move, resumption and
/// reveal, and a decisive finish; prints each step and the final PGN.
#[derive(clap::Args)]
pub struct Args {
    /// Keep the temporary homes (and print where they are) instead of deleting them.
    #[arg(long)]
    keep: bool,
}

/// Morphy vs. the Duke of Brunswick and Count Isouard, Paris 1858, in Spanish notation.
const OPERA_GAME: [&str; 33] = [
    "e4", "e5", "Cf3", "d6", "d4", "Ag4", "dxe5", "Axf3", "Dxf3", "dxe5", "Ac4", "Cf6", "Db3",
    "De7", "Cc3", "c6", "Ag5", "b5", "Cxb5", "cxb5", "Axb5+", "Cbd7", "0-0-0", "Td8", "Txd7",
    "Txd7", "Td1", "De6", "Axd7+", "Cxd7", "Db8+", "Cxb8", "Td8#",
];
/// Black offers a draw after this ply (8...c6); White declines.
const DRAW_OFFER_AFTER: usize = 16;
/// White seals this ply (12.0-0-0) at the end of the session.
const SEALED_PLY: usize = 22;

struct DemoNode {
    name: &'static str,
    home: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<Result<(), String>>>,
}

impl DemoNode {
    async fn start(name: &'static str, home: PathBuf) -> CliResult<DemoNode> {
        sobre_node::home::ensure(&home)?;
        sobre_node::home::init_key(&home).map_err(CliError::bug)?;
        let profile = sobre_node::profile::LocalProfile {
            name: Some(name.to_owned()),
            ..Default::default()
        };
        sobre_node::profile::write(&home, &profile).map_err(CliError::bug)?;
        let config = NodeConfig {
            home: home.clone(),
            listen: vec!["/ip4/127.0.0.1/tcp/0".into()],
            ..NodeConfig::default()
        };
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            run_node(config, async {
                let _ = rx.await;
            })
            .await
            .map_err(|e| e.to_string())
        });
        let node = DemoNode {
            name,
            home,
            stop: Some(tx),
            task: Some(task),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while Client::new(&node.home).send(request::Id {}).await.is_err() {
            if Instant::now() > deadline {
                return Err(CliError::bug(format!("{name}'s node did not start")));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(node)
    }

    /// One request; any failure is the demo's (a bug), named after the node.
    async fn send<R: Request>(&self, request: R) -> CliResult<R::Reply> {
        Client::new(&self.home)
            .send(request)
            .await
            .map_err(|e| CliError::bug(format!("{}'s node: {e}", self.name)))
    }

    /// Polls `show` until `pred` holds: the other node's event has arrived.
    async fn wait_for(
        &self,
        game: &str,
        what: &str,
        pred: impl Fn(&GameView) -> bool,
    ) -> CliResult<GameView> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let v = self.send(request::Show { game: game.into() }).await;
            if let Ok(v) = v
                && pred(&v)
            {
                return Ok(v);
            }
            if Instant::now() > deadline {
                return Err(CliError::bug(format!("{} never saw {what}", self.name)));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    async fn stop(mut self) -> CliResult<()> {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            match tokio::time::timeout(Duration::from_secs(20), task).await {
                Ok(Ok(Ok(()))) => {}
                Ok(Ok(Err(e))) => {
                    return Err(CliError::bug(format!(
                        "{}'s node stopped with an error: {e}",
                        self.name
                    )));
                }
                Ok(Err(e)) => {
                    return Err(CliError::bug(format!("{}'s node panicked: {e}", self.name)));
                }
                Err(_) => {
                    return Err(CliError::bug(format!(
                        "{}'s node did not stop in time",
                        self.name
                    )));
                }
            }
        }
        Ok(())
    }
}

fn short(id: &str) -> String {
    let n = id.len().saturating_sub(8);
    format!("…{}", &id[n..])
}

pub fn run(args: Args) -> CliResult<ExitCode> {
    let dir = tempfile::Builder::new().prefix("sobre-demo-").tempdir()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let result = runtime.block_on(demo(dir.path()));
    if args.keep {
        let kept = dir.keep();
        println!("\n{}", t!("demo-kept", dir = kept.display().to_string()));
    }
    result?;
    Ok(ExitCode::SUCCESS)
}

async fn demo(root: &Path) -> CliResult<()> {
    println!("{}\n", t!("demo-title"));
    let ana = DemoNode::start("Ana", root.join("ana")).await?;
    let bruno = DemoNode::start("Bruno", root.join("bruno")).await?;
    let ana_id: IdReply = ana.send(request::Id {}).await?;
    let bruno_id: IdReply = bruno.send(request::Id {}).await?;
    let bruno_player = bruno_id.player_id.clone();
    let bruno_addr = bruno_id
        .addresses
        .iter()
        .find(|s| s.contains("/tcp/"))
        .ok_or_else(|| CliError::bug("Bruno's node has no TCP address"))?
        .clone();
    println!(
        "Ana   {}  {}",
        ana_id.player_id,
        t!("demo-home", home = ana.home.display().to_string())
    );
    println!(
        "Bruno {bruno_player}  {}",
        t!("demo-home", home = bruno.home.display().to_string())
    );
    ana.send(request::Connect {
        addr: bruno_addr.clone(),
    })
    .await?;
    println!("{}\n", t!("demo-connects", address = bruno_addr.as_str()));

    let challenge: GameView = ana
        .send(request::Challenge {
            opponent: bruno_player.clone(),
            color: ColourChoice::ChallengerWhite,
            time_control: "40/2h+1h".into(),
            chess960: false,
            fen: None,
            terms: Default::default(),
        })
        .await?;
    let game = challenge.game;
    println!(
        "{}",
        t!("demo-challenge", game = game.get(..16).unwrap_or(&game))
    );
    bruno
        .wait_for(&game, "the challenge", |v| v.status == Status::Pending)
        .await?;
    bruno
        .send(request::Accept {
            game: game.clone(),
            color: None,
            position: None,
        })
        .await?;
    ana.wait_for(&game, "the acceptance", |v| v.status == Status::Active)
        .await?;
    println!("{}\n", t!("demo-accepts"));

    let players = [&ana, &bruno];
    for (i, text) in OPERA_GAME.iter().enumerate() {
        let mover = players[i % 2];
        let other = players[(i + 1) % 2];
        let number = i / 2 + 1;
        if i == SEALED_PLY {
            adjourn_and_resume(&ana, &bruno, &game, text, number).await?;
            continue;
        }
        let started = Instant::now();
        mover
            .send(request::Move {
                game: game.clone(),
                text: (*text).into(),
                notation: None,
            })
            .await?;
        let v = other
            .wait_for(&game, "the move", |v| v.plies == i + 1)
            .await?;
        let dots = if i % 2 == 0 { "." } else { "..." };
        println!(
            "{number:>3}{dots:<4}{text:<8} {:<6} {}",
            mover.name,
            t!(
                "demo-move",
                other = other.name,
                ms = started.elapsed().as_millis().to_string()
            )
        );
        if i + 1 == DRAW_OFFER_AFTER {
            bruno
                .send(request::Draw {
                    game: game.clone(),
                    action: sobre_node::api::DrawAction::Offer,
                })
                .await?;
            ana.wait_for(&game, "the draw offer", |v| {
                v.draw_offer == Some(Color::Black)
            })
            .await?;
            ana.send(request::Draw {
                game: game.clone(),
                action: sobre_node::api::DrawAction::Decline,
            })
            .await?;
            bruno
                .wait_for(&game, "the refusal", |v| v.draw_offer.is_none())
                .await?;
            println!("        {}", t!("demo-draw"));
        }
        if v.status == Status::Finished {
            break;
        }
    }

    let a = ana
        .wait_for(&game, "the end", |v| v.status == Status::Finished)
        .await?;
    let b = bruno
        .wait_for(&game, "the end", |v| v.status == Status::Finished)
        .await?;
    if a.moves != b.moves || a.result != b.result {
        return Err(CliError::bug("the two nodes disagree about the game"));
    }
    println!(
        "\n{}",
        t!(
            "demo-result",
            result = a.result.as_deref().unwrap_or("?"),
            how = a.termination_text.as_deref().unwrap_or("?"),
            plies = a.plies,
            fen = a.fen.as_str()
        )
    );

    // Anyone can check the signed record offline.
    let archive: ExportReply = bruno
        .send(request::Export {
            game: game.clone(),
            format: sobre_node::api::ExportFormat::Archive,
        })
        .await?;
    let text = archive.archive.unwrap_or_default();
    // The nodes wrote this archive: one that does not read or verify is a bug.
    let parsed = sobre_core::record::read_archive(&text).map_err(CliError::bug)?;
    let verified = sobre_core::record::verify(&parsed.events).map_err(CliError::bug)?;
    println!(
        "{}",
        t!(
            "demo-archive",
            events = parsed.events.len(),
            result = verified.result.map_or("*", |o| o.as_str()),
            how = verified
                .termination
                .map_or_else(|| "?".to_owned(), words::termination)
        )
    );
    let pgn: ExportReply = ana
        .send(request::Export {
            game: game.clone(),
            format: sobre_node::api::ExportFormat::Pgn,
        })
        .await?;
    println!("\n{}\n", t!("demo-pgn"));
    println!("{}", pgn.pgn.unwrap_or_default().trim_end());
    println!(
        "\n{}",
        t!(
            "demo-players",
            ana = short(&ana_id.player_id),
            bruno = short(&bruno_player)
        )
    );
    ana.stop().await?;
    bruno.stop().await?;
    Ok(())
}

/// FIDE Appendix A: the player to move seals, the clocks stop, the responder comes back,
/// the envelope is opened and the sealed move is played.
async fn adjourn_and_resume(
    ana: &DemoNode,
    bruno: &DemoNode,
    game: &str,
    sealed: &str,
    number: usize,
) -> CliResult<()> {
    println!(
        "\n    {}",
        t!("demo-seals", mv = format!("{number}.{sealed}"))
    );
    let v: sobre_node::api::replies::AdjournReply = ana
        .send(request::Adjourn {
            game: game.into(),
            seal: sealed.into(),
            // A2.7: the envelope says when the game resumes (here: in an hour; both players
            // come back at once, so the envelope opens early by their common consent).
            resume_at_ms: Some(sobre_node::time::now_ms() + 3_600_000),
            place: Some("Club Villa Dolores".into()),
            force: false,
            notation: None,
            arbiter: None,
            arbiter_setting: None,
            no_arbiter: false,
        })
        .await?;
    let env = v.view.envelope.unwrap_or_default();
    println!(
        "    {}",
        t!(
            "demo-envelope",
            number = env.move_number,
            sealer = common::colour_word(&env.sealer),
            place = env.place.as_str()
        )
    );
    println!(
        "      {}",
        t!("demo-envelope-position", fen = env.fen_before.as_str())
    );
    println!(
        "      {}",
        t!(
            "demo-envelope-time",
            white = env.time_used_ms[0].to_string(),
            black = env.time_used_ms[1].to_string()
        )
    );
    println!(
        "    {}",
        t!(
            "demo-commitment",
            hash = env.commitment.get(..16).unwrap_or_default()
        )
    );
    let seen = bruno
        .wait_for(game, "the sealed envelope", |v| {
            v.status == Status::Adjourned
        })
        .await?;
    println!(
        "    {}",
        t!(
            "demo-envelope-held",
            status = common::status_word(seen.status.name())
        )
    );
    println!("    {}", t!("demo-resumption"));
    bruno.send(request::Resume { game: game.into() }).await?;
    ana.send(request::Resume { game: game.into() }).await?;
    let after = bruno
        .wait_for(game, "the opened envelope", |v| {
            v.status == Status::Active && v.envelope.as_ref().is_some_and(|e| e.opened.is_some())
        })
        .await?;
    println!(
        "    {}",
        t!(
            "demo-opened",
            opened = sobre_node::words::quoted(
                after
                    .envelope
                    .as_ref()
                    .and_then(|e| e.opened.as_deref())
                    .unwrap_or("?")
            ),
            san = after.san.last().map_or("?", String::as_str)
        )
    );
    println!(
        "{number:>3}.   {sealed:<8} Ana    {}\n",
        t!("demo-sealed-played")
    );
    Ok(())
}
