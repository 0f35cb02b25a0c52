//! `sobre envelope`: what the envelope of an adjourned game says (FIDE A2); the arbiter
//! opening the envelope they keep (A3, A9); the sealer who lost the opening (A11), whose
//! declared move, its acceptance and the annulment are in [`super::lost_envelope`].

use super::common::{self, colour_subject_word, colour_word, human_duration, rfc3339, short_game};
use super::contacts::Contacts;
use super::lost_envelope;
use super::names::Names;
use super::show::{game_tag, state_line};
use crate::error::{self, CliResult};
use crate::t;
use sobre_node::api::game::EnvelopeView;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Show the envelope of an adjourned game, as FIDE Appendix A2 lists it: the position
/// before the sealed move, the time used by each player, who sealed, the move number, a
/// pending draw offer, when and where the game resumes, and the arbiter who keeps it (A3).
/// The sealed move itself stays secret until resumption.
///
/// With --json, one object: `game`, `status`, `envelope` (null if none; `sealer`,
/// `sealed_at_ms`, `move_number`, `fen_before`, `time_used_ms`, `draw_offer_by`,
/// `resume_at_ms`, `place`, `opened` (null, or the move as written once opened),
/// `commitment`, `letters`, `arbiter` (null, or the player keeping the opening in escrow),
/// `opened_by_arbiter`).
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    action: Option<EnvelopeCommand>,
    /// The game id (or a unique prefix of it).
    #[arg(required = true)]
    game: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Subcommand)]
pub enum EnvelopeCommand {
    Open(OpenArgs),
    Lost(LostArgs),
    Declare(lost_envelope::DeclareArgs),
    AcceptDeclared(lost_envelope::AcceptDeclaredArgs),
    Annul(lost_envelope::AnnulArgs),
}

/// As the arbiter keeping an envelope (A3), open it: the sealed move, read in memory from
/// the escrow, is signed and played as the sealer's move (A9).
///
/// Refused before Appendix A lets the envelope be opened (the agreed resumption with the
/// responder present; earlier only when both players are present, A2.7, A7) and when this
/// node is not the envelope's arbiter. The node also opens it by itself at the resumption.
#[derive(clap::Args)]
pub struct OpenArgs {
    /// The game id (or a unique prefix of it).
    game: String,
    /// Print the game as one JSON object (as `show --json`).
    #[arg(long)]
    json: bool,
}

/// As the sealer, say you lost the opening of your sealed move (A11): whether an arbiter
/// keeps it (their node opens the envelope at the resumption; nothing is lost), or, without
/// one, what is left: the game goes on only with the sealed move, so resign (A6) or lose on
/// the responder's claim after the lateness limit (A8, A10).
///
/// With --json, one object: `game`, `status`, `result`, `opening_held`, `arbiter`,
/// `binding`, `resume_at_ms`, `resigned`, `advice`.
#[derive(clap::Args)]
pub struct LostArgs {
    /// The game id (or a unique prefix of it).
    game: String,
    /// Resign now (A6), when no arbiter keeps the opening.
    #[arg(long)]
    resign: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    match args.action {
        Some(EnvelopeCommand::Open(a)) => open(home, a),
        Some(EnvelopeCommand::Lost(a)) => lost(home, a),
        Some(EnvelopeCommand::Declare(a)) => lost_envelope::declare(home, a),
        Some(EnvelopeCommand::AcceptDeclared(a)) => lost_envelope::accept_declared(home, a),
        Some(EnvelopeCommand::Annul(a)) => lost_envelope::annul(home, a),
        None => {
            let game = args
                .game
                .ok_or_else(|| error::user(t!("envelope-which-game")))?;
            show(home, game, args.json)
        }
    }
}

fn open(home: &Path, args: OpenArgs) -> CliResult<ExitCode> {
    let v = common::send(home, request::EnvelopeOpen { game: args.game })?;
    if args.json {
        common::print_reply(&v)?;
        return Ok(ExitCode::SUCCESS);
    }
    let env = v.envelope.clone().unwrap_or_default();
    println!(
        "{}",
        t!(
            "envelope-opened-as-arbiter",
            game = game_tag(&v),
            sealer = colour_subject_word(&env.sealer),
            mv = env.opened.as_deref().unwrap_or("?")
        )
    );
    println!("{}", state_line(&v));
    Ok(ExitCode::SUCCESS)
}

fn lost(home: &Path, args: LostArgs) -> CliResult<ExitCode> {
    let v = common::send(
        home,
        request::EnvelopeLost {
            game: args.game,
            resign: args.resign,
        },
    )?;
    if args.json {
        common::print_reply(&v)?;
        return Ok(ExitCode::SUCCESS);
    }
    let contacts = Contacts::load(home)?;
    let names = Names::from_node(home, &contacts);
    let mut advice = v.advice.clone();
    if let Some(a) = &v.arbiter {
        advice = advice.replace(a.as_str(), &names.label(a));
    }
    let tag = short_game(&v.game);
    println!("{tag}: {advice}.");
    if v.resigned {
        println!(
            "{}",
            t!(
                "envelope-resigned",
                result = v.result.as_deref().unwrap_or("")
            )
        );
    } else if v.arbiter.is_none() && v.binding && !v.opening_held {
        println!("{}", t!("envelope-to-resign", game = tag));
    }
    Ok(ExitCode::SUCCESS)
}

fn show(home: &Path, game: String, json: bool) -> CliResult<ExitCode> {
    let read = common::read_typed(home, request::Envelope { game })?;
    if json {
        common::print_reply(&read)?;
        return Ok(ExitCode::SUCCESS);
    }
    let v = read.reply;
    let Some(env) = &v.envelope else {
        println!("{}", t!("envelope-none", game = short_game(&v.game)));
        return Ok(ExitCode::SUCCESS);
    };
    let arbiter = match env.arbiter.as_deref() {
        Some(a) => Some(Contacts::load(home)?.label(a)),
        None => None,
    };
    print!("{}", card(&v.game, env, arbiter.as_deref()));
    Ok(ExitCode::SUCCESS)
}

/// The envelope's card (A2), `arbiter` named as the player knows them, in the run's
/// language: labels in a column as wide as the longest label of that language, plus two.
fn card(game: &str, env: &EnvelopeView, arbiter: Option<&str>) -> String {
    let used = |i: usize| {
        i64::try_from(env.time_used_ms[i]).map_or_else(|_| "-".to_owned(), human_duration)
    };
    // The labels are a column as wide as the longest in the run's language, plus two.
    const LABELS: [&str; 12] = [
        "envelope-label-game",
        "envelope-label-sealed-by",
        "envelope-label-sealed-at",
        "envelope-label-move",
        "envelope-label-position",
        "envelope-label-time",
        "envelope-label-draw",
        "envelope-label-resumes",
        "envelope-label-place",
        "envelope-label-opened",
        "envelope-label-letters",
        "envelope-label-kept",
    ];
    let width = crate::i18n::label_width(LABELS.iter().chain(&["envelope-label-commitment"]), 2);
    let mut out = String::new();
    let mut row = |label: String, value: String| {
        out.push_str(&format!("{:<width$}{value}\n", format!("{label}:")));
    };
    row(t!("envelope-label-game"), game.to_owned());
    row(
        t!("envelope-label-sealed-by"),
        colour_subject_word(&env.sealer),
    );
    row(t!("envelope-label-sealed-at"), rfc3339(env.sealed_at_ms));
    row(t!("envelope-label-move"), env.move_number.to_string());
    row(t!("envelope-label-position"), env.fen_before.clone());
    row(
        t!("envelope-label-time"),
        t!("envelope-time-used", white = used(0), black = used(1)),
    );
    row(
        t!("envelope-label-draw"),
        env.draw_offer_by
            .as_deref()
            .map_or_else(|| t!("envelope-none-word"), colour_word),
    );
    row(
        t!("envelope-label-resumes"),
        env.resume_at_ms
            .map_or_else(|| t!("envelope-not-set"), rfc3339),
    );
    row(
        t!("envelope-label-place"),
        match env.place.as_str() {
            "" => t!("envelope-not-set"),
            p => p.to_owned(),
        },
    );
    row(
        t!("envelope-label-opened"),
        match env.opened.as_deref() {
            None => t!("envelope-no"),
            Some("") => t!("envelope-yes"),
            Some(m) => t!("envelope-yes-move", mv = m),
        },
    );
    row(
        t!("envelope-label-letters"),
        match env.letters.as_deref() {
            Some("es") => t!("envelope-letters-es"),
            Some(_) => t!("envelope-letters-en"),
            None => t!("envelope-letters-either"),
        },
    );
    row(
        t!("envelope-label-kept"),
        match arbiter {
            Some(arbiter) => {
                if env.opened_by_arbiter {
                    t!("envelope-kept-opened", arbiter = arbiter)
                } else {
                    t!("envelope-kept", arbiter = arbiter)
                }
            }
            None => t!("envelope-kept-alone"),
        },
    );
    row(t!("envelope-label-commitment"), env.commitment.clone());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::common::assert_golden;
    use crate::i18n::{Language, with_lang};

    /// The card of an envelope opened by its arbiter, in English and in Spanish.
    #[test]
    fn the_envelope_card_reads_in_english_and_spanish() {
        let env = EnvelopeView {
            arbiter: Some("12D3KooWArbiter".into()),
            commitment: "5f1c0e9a7b3d2c4e".into(),
            declared: None,
            draw_offer_by: Some("black".into()),
            fen_before: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".into(),
            letters: Some("es".into()),
            move_number: 3,
            opened: Some("Ac4".into()),
            opened_by_arbiter: true,
            place: "Club Villa Dolores".into(),
            resume_at_ms: Some(1_796_148_000_000),
            sealed_at_ms: 1_796_061_600_000,
            sealer: "white".into(),
            time_used_ms: [7_260_000, 5_400_000],
        };
        for (lang, file) in [
            (Language::English, "envelope_card.txt"),
            (Language::Spanish, "envelope_card_es.txt"),
        ] {
            let text = with_lang(lang, || card("3f2a9c1e00112233", &env, Some("club")));
            assert_golden(file, &text);
        }
    }
}
