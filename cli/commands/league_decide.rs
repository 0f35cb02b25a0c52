//! `sobre league decide`: the organiser (or the deputy arbiter, for the organiser's own
//! games) signs an arbiter's decision (`sobre_core::league::decision`); the node sends it
//! to everyone holding the league.

use super::common::{self};
use super::contacts::Contacts;
use crate::error::CliResult;
use sobre_core::league::decision::{Verdict, WithdrawalRule};
use sobre_node::api::{DecisionKind, request};
use std::path::Path;
use std::process::ExitCode;

/// What the arbiter decides.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Kind {
    /// A game not started or abandoned is won by --player by forfeit (+/-).
    Forfeit,
    /// The game of --player in --round is lost by both players, 0-0 (-/-): neither came,
    /// or both broke the rules (12.9).
    DoubleForfeit,
    /// --player withdraws (FIDE: fewer than half of their games played, all their results
    /// are annulled; otherwise their remaining games are forfeited).
    Withdraw,
    /// The unfinished game of --player in --round gets --result, with a --reason.
    Adjudicate,
    /// The league's withdrawal rule (--withdrawal).
    Settings,
    /// The order of the league's tie-breaks (--order).
    TieBreaks,
    /// Before round 1: --player enters the league late (the next Berger number), as
    /// --name.
    Enter,
    /// Before round 1: --player replaces --replaces (and takes their Berger number), as
    /// --name.
    Replace,
}

/// What happens to a withdrawn player's games.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Withdrawal {
    /// Fewer than half of their games played: all their results annulled; otherwise their
    /// remaining games forfeited.
    Fide,
    /// Their remaining games forfeited, whatever they played.
    ForfeitRemaining,
}

/// A result as PGN writes it (`½-½` too).
fn verdict(text: &str) -> Result<Verdict, String> {
    Verdict::from_text(text).ok_or_else(|| crate::t!("decide-bad-result"))
}

#[derive(clap::Args)]
pub struct DecideArgs {
    /// League id (or its first digits) or name.
    league: String,
    kind: Kind,
    /// The round of the pairing (forfeit, double-forfeit, adjudicate).
    #[arg(long)]
    round: Option<u32>,
    /// The winner of a forfeit, the player who withdraws, either player of an
    /// adjudicated game, or the player who enters or replaces another (id or alias).
    #[arg(long, alias = "winner")]
    player: Option<String>,
    /// The player replaced (replace; id or alias).
    #[arg(long, value_name = "PLAYER")]
    replaces: Option<String>,
    /// The display name of the player who enters or replaces another (default: a short
    /// id).
    #[arg(long)]
    name: Option<String>,
    /// The adjudicated result: 1-0, 1/2-1/2 or 0-1.
    #[arg(long, value_parser = verdict)]
    result: Option<Verdict>,
    /// Why (required for an adjudication, at most 200 characters).
    #[arg(long)]
    reason: Option<String>,
    /// The withdrawal rule (settings).
    #[arg(long, value_enum)]
    withdrawal: Option<Withdrawal>,
    /// The tie-break order (tie-breaks): fide (direct encounter, wins, Sonneborn-Berger,
    /// Koya: the default), before-fide (Sonneborn-Berger, wins, direct encounter), or a
    /// comma-separated list of de, wins, sb, koya.
    #[arg(long)]
    order: Option<String>,
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, a: DecideArgs) -> CliResult<ExitCode> {
    let contacts = Contacts::load(home)?;
    let kind = match a.kind {
        Kind::Forfeit => DecisionKind::Forfeit,
        Kind::DoubleForfeit => DecisionKind::DoubleForfeit,
        Kind::Withdraw => DecisionKind::Withdraw,
        Kind::Adjudicate => DecisionKind::Adjudicate,
        Kind::Settings => DecisionKind::Settings,
        Kind::TieBreaks => DecisionKind::TieBreaks,
        Kind::Enter => DecisionKind::Enter,
        Kind::Replace => DecisionKind::Replace,
    };
    let v = common::send(
        home,
        request::LeagueDecide {
            league: a.league,
            kind,
            round: a.round,
            player: a.player.map(|p| contacts.resolve(&p)),
            result: a.result,
            reason: a.reason,
            withdrawal: a.withdrawal.map(|w| match w {
                Withdrawal::Fide => WithdrawalRule::Fide,
                Withdrawal::ForfeitRemaining => WithdrawalRule::ForfeitRemaining,
            }),
            tie_breaks: a.order,
            replaces: a.replaces.map(|p| contacts.resolve(&p)),
            name: a.name,
        },
    )?;
    if a.json {
        common::print_reply(&v)?;
    } else {
        let r = v;
        println!(
            "{}",
            crate::t!("decide-signed", decision = &r.decision, text = &r.text)
        );
    }
    Ok(ExitCode::SUCCESS)
}
