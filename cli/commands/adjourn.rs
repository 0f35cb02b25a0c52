//! `sobre adjourn`: seal a move and adjourn the game (FIDE Appendix A).

use super::common;
use super::contacts::Contacts;
use super::resume_at;
use super::show::{envelope_line, game_tag};
use crate::error::CliResult;
use crate::t;
use sobre_node::api::replies::{AdjournReply, EscrowReply};
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Adjourn a game by sealing your move (FIDE Appendix A1–A2): only the player to move seals.
///
/// The move is committed to as written, in the letters you write (--notation; they are
/// signed in the seal, so `Rd2` sealed in Spanish is opened as the king's move), and stays
/// secret on your node until resumption; the clocks stop. A sealed move that is ambiguous, illegal or unintelligible loses the game at
/// the opening (A8), so the node refuses to seal one unless you pass --force.
///
/// --resume-at (required, A2.7) is a delay from now (`+2d`, `+36h`), a time with its offset
/// (`2026-12-01T18:00:00Z`, `2026-12-01T18:00+01:00`), a local time with a zone name
/// (`"2026-12-01 18:00 Europe/Madrid"`), or a local time alone in this computer's zone
/// (`"2026-12-01 18:00"`). At resumption both players run `sobre resume GAME`: the
/// envelope opens once the responder is present and the time has come (or at once when
/// both are present); from the agreed time an absent responder's clock runs (A9b).
///
/// The arbiter keeps the envelope (A3): with --arbiter (or by default a league game's
/// organiser, else "arbiter" in HOME/config.json) the opening is escrowed with that player,
/// encrypted to their key, and their node opens the envelope at the resumption if you are
/// absent (A9) or lost the opening (A11). They can open only your true sealed move, only
/// when Appendix A allows. Without an arbiter a lost opening loses the game (A8, A10).
///
/// At the resumption, if the sealer is absent and their envelope has been opened, the
/// responder may seal the reply in a second envelope instead of playing it (A9c): the same
/// command without --resume-at. The sealer's clock then runs, and the reply is opened when
/// the sealer arrives.
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// The move to seal, in any notation.
    #[arg(long, value_name = "MOVE")]
    seal: String,
    /// When the game resumes (A2.7: required, except for a reply in a second envelope, A9c,
    /// which keeps the adjournment's). Before then the envelope opens only if both players
    /// announce that they are present (`sobre resume GAME`).
    #[arg(long, value_name = "TIME")]
    resume_at: Option<String>,
    /// Where the game resumes.
    #[arg(long, value_name = "TEXT")]
    place: Option<String>,
    /// Seal the move even if it would lose under A8.
    #[arg(long)]
    force: bool,
    /// Who keeps the envelope (A3): an alias or a player id, neither player of the game.
    /// Default: a league game's organiser, else "arbiter" in HOME/config.json.
    #[arg(long, value_name = "PLAYER", conflicts_with = "no_arbiter")]
    arbiter: Option<String>,
    /// Escrow the opening with nobody, not even the league's organiser.
    #[arg(long)]
    no_arbiter: bool,
    #[command(flatten)]
    written: common::Written,
    #[command(flatten)]
    json: common::Json,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let resume_at_ms = args
        .resume_at
        .as_deref()
        .map(|text| {
            resume_at::resume_time(text, sobre_node::time::now_ms(), resume_at::local_zone())
        })
        .transpose()?;
    let contacts = Contacts::load(home)?;
    let arbiter = args.arbiter.map(|a| contacts.resolve(&a));
    let arbiter_setting = common::Config::arbiter(home).map(|a| contacts.resolve(&a));
    let v: AdjournReply = common::send(
        home,
        request::Adjourn {
            game: args.game,
            seal: args.seal,
            resume_at_ms,
            place: args.place,
            force: args.force,
            notation: args.written.resolve(home),
            arbiter,
            arbiter_setting,
            no_arbiter: args.no_arbiter,
        },
    )?;
    args.json.answer(&v, || {
        let mut out = t!("adjourn-done", game = game_tag(&v.view)) + "\n";
        if let Some(env) = &v.view.envelope {
            out.push_str(&envelope_line(env));
            out.push('\n');
        }
        out + &escrow_line(&v.escrow, &contacts)
    })
}

/// Who keeps the opening (A3), and what a lost opening means without anyone.
fn escrow_line(escrow: &EscrowReply, contacts: &Contacts) -> String {
    match escrow.arbiter.as_deref() {
        Some(a) => t!("adjourn-kept-by", arbiter = contacts.label(a)),
        None => t!("adjourn-no-arbiter"),
    }
}
