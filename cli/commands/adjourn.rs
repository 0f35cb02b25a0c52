//! `sobre adjourn`: seal a move and adjourn the game (FIDE Appendix A).

use super::common::{self, parse_rfc3339, rfc3339};
use super::contacts::Contacts;
use super::show::{envelope_line, game_tag};
use crate::error;
use crate::error::CliResult;
use sobre_core::clock::parse_duration;
use sobre_node::api::ApiRequest;
use sobre_node::api::replies::{AdjournReply, EscrowReply};
use std::path::Path;
use std::process::ExitCode;

/// Adjourn a game by sealing your move (FIDE Appendix A1–A2): only the player to move seals.
///
/// The move is committed to as written, in the letters you write (--notation; they are
/// signed in the seal, so `Rd2` sealed in Spanish is opened as the king's move), and stays
/// secret on your node until resumption; the clocks stop. A sealed move that is ambiguous, illegal or unintelligible loses the game at
/// the opening (A8), so the node refuses to seal one unless you pass --force.
///
/// --resume-at (required, A2.7) is an RFC 3339 UTC time (`2026-12-01T18:00:00Z`) or a delay
/// from now (`+2d`, `+36h`). At resumption both players run `sobre resume GAME`: the
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
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let resume_at_ms = args
        .resume_at
        .as_deref()
        .map(|text| resume_time(text, sobre_node::time::now_ms()))
        .transpose()?;
    let contacts = Contacts::load(home)?;
    let arbiter = args.arbiter.map(|a| contacts.resolve(&a));
    let arbiter_setting = common::Config::arbiter(home).map(|a| contacts.resolve(&a));
    let v: AdjournReply = common::call_as(
        home,
        ApiRequest::Adjourn {
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
    println!("adjourned {}", game_tag(&v.view));
    if let Some(env) = &v.view.envelope {
        println!("{}", envelope_line(env));
    }
    println!("{}", escrow_line(&v.escrow, &contacts));
    Ok(ExitCode::SUCCESS)
}

/// Who keeps the opening (A3), and what a lost opening means without anyone.
fn escrow_line(escrow: &EscrowReply, contacts: &Contacts) -> String {
    match escrow.arbiter.as_deref() {
        Some(a) => format!(
            "Kept by the arbiter {}: their node opens the envelope at the resumption if you are \
             absent or lose the opening (A3, A9, A11).",
            contacts.label(a)
        ),
        None => "No arbiter keeps the opening: if you lose it, you lose the game (A8, A10); \
                 name one with --arbiter PLAYER."
            .to_owned(),
    }
}

/// `2026-12-01T18:00:00Z` or `+2d`, as milliseconds since the Unix epoch.
fn resume_time(text: &str, now_ms: u64) -> CliResult<u64> {
    let t = text.trim();
    let at = if let Some(delay) = t.strip_prefix('+') {
        let ms = parse_duration(delay).map_err(|e| {
            error::user_hint(format!("bad --resume-at {t:?}: {e}"), "e.g. +2d or +36h")
        })?;
        now_ms.saturating_add(ms)
    } else {
        parse_rfc3339(t).ok_or_else(|| {
            error::user_hint(
                format!("bad --resume-at {t:?}: not a UTC time"),
                "write it like 2026-12-01T18:00:00Z, or a delay like +2d",
            )
        })?
    };
    if at <= now_ms {
        return Err(error::user(format!(
            "--resume-at {} is in the past",
            rfc3339(at)
        )));
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resumption_is_a_utc_time_or_a_delay() {
        let now = 1_700_000_000_000;
        assert_eq!(resume_time("+2d", now).unwrap(), now + 2 * 86_400_000);
        assert_eq!(
            resume_time("2026-12-01T18:00:00Z", now).unwrap(),
            1_796_148_000_000
        );
        assert!(resume_time("2020-01-01T00:00:00Z", now).is_err());
        assert!(resume_time("tomorrow", now).is_err());
    }
}
