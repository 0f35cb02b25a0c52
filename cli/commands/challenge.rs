//! `sobre challenge`: propose a game to a player.

use super::common;
use super::contacts::Contacts;
use crate::error::{self, CliResult};
use crate::t;
use sobre_core::clock::TimeControl;
use sobre_core::record::ColourChoice;
use sobre_core::record::TermsEdition;
use sobre_node::api::GameView;
use sobre_node::api::TermsRequest;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Challenge a player (by id or alias) to a game, and print the new game's id.
///
/// Time controls (the default is 3 days per move):
///   --per-move 3d           correspondence, each move within 3 days
///   --time 10/50d           correspondence, ICCF style: 10 moves in 50 days, unused time
///                           carried forward
///   --classical 40/2h+1h    over the board (for a game adjourned with sealed moves):
///                           40 moves in 2 hours, then 1 hour for the rest
///
/// --increment adds time after each move: written `+1d` after a correspondence control
/// (`3d+1d`, `10/50d+1d`), `inc 30s` after an over-the-board one.
///
/// The game starts when the opponent accepts. With --json, the node's view of the new game
/// (as `sobre show --json`), whose `game` is the id.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The opponent: a player id (12D3KooW…) or an alias from `sobre contacts`.
    player: String,
    /// Your colour.
    #[arg(long, value_enum, default_value_t = ColorChoice::Random)]
    color: ColorChoice,
    /// Correspondence time per move (e.g. 3d, 36h).
    #[arg(long, value_name = "DURATION", group = "clock")]
    per_move: Option<String>,
    /// Correspondence moves in a period, time carried forward (e.g. 10/50d).
    #[arg(long, value_name = "MOVES/DURATION", group = "clock")]
    time: Option<String>,
    /// Over-the-board periods, FIDE Art. 6 (e.g. 40/2h+1h, 40/90m:30m).
    #[arg(long, value_name = "PERIODS", group = "clock")]
    classical: Option<String>,
    /// Time added after each move (e.g. 1d, 30s).
    #[arg(long, value_name = "DURATION")]
    increment: Option<String>,
    /// With --classical: how long a playing session lasts (e.g. 5h). A player who adjourns
    /// before its end is deemed to have sealed at it (FIDE Appendix A1b).
    #[arg(long, value_name = "DURATION", requires = "classical")]
    session: Option<String>,
    /// A Chess960 start position, drawn fairly by both nodes (FIDE Appendix F).
    #[arg(long, conflicts_with = "fen")]
    chess960: bool,
    /// Start from this position instead (FEN).
    #[arg(long)]
    fen: Option<String>,
    /// A timekeeper both players agree on (a player id or alias; typically the club's
    /// mailbox). Repeat for more. Each move then counts when the timekeeper received it, for
    /// both players, whether or not they are online (docs/time.md).
    #[arg(long, value_name = "PLAYER")]
    timekeeper: Vec<String>,
    /// The arbiter who may keep your sealed moves in escrow and open them when you are
    /// absent (FIDE A3, A9): a player id or alias both players agree on (default: your
    /// "arbiter" setting).
    #[arg(long, value_name = "PLAYER")]
    arbiter: Option<String>,
    /// The text of the FIDE Laws the game is judged by.
    #[arg(long, value_enum, default_value_t = LawsEdition::Fide2009)]
    edition: LawsEdition,
    /// How late a player may be at a resumption (FIDE A10; default 1h).
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    lateness: Option<u64>,
    /// The least notice a resumption gives the responder, from when the sealed move
    /// reached them (FIDE A2.7; default 10m).
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    notice: Option<u64>,
    /// Allow adjourning this correspondence game with a sealed move.
    #[arg(long)]
    adjournable: bool,
    /// No draw by agreement before this move (FIDE 9.1a).
    #[arg(long, value_name = "MOVE")]
    no_draw_before: Option<u32>,
    /// Print the new game as one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ColorChoice {
    White,
    Black,
    Random,
}

impl ColorChoice {
    /// The core's choice: the challenger's colour, or the fair coin's (F1).
    fn choice(self) -> ColourChoice {
        match self {
            ColorChoice::White => ColourChoice::ChallengerWhite,
            ColorChoice::Black => ColourChoice::ChallengerBlack,
            ColorChoice::Random => ColourChoice::Random,
        }
    }
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let time_control = time_control(&args)?;
    if let Some(fen) = &args.fen {
        super::parse_fen_arg(fen, false)?;
    }
    let contacts = Contacts::load(home)?;
    let opponent = contacts.resolve(&args.player);
    let terms = TermsRequest {
        timekeepers: args
            .timekeeper
            .iter()
            .map(|k| contacts.resolve(k))
            .collect(),
        // The arbiter proposed: the one named now, else the player's usual arbiter
        // (`"arbiter"` in config.json); the acceptance agrees to it with the rest.
        arbiter: args
            .arbiter
            .or_else(|| common::Config::arbiter(home))
            .map(|a| contacts.resolve(&a)),
        edition: match args.edition {
            LawsEdition::Fide2009 => None,
            LawsEdition::Fide2005 => Some(TermsEdition::Fide2005),
        },
        lateness_ms: args.lateness,
        notice_ms: args.notice,
        correspondence_adjournment: args.adjournable,
        no_draw_before_move: args.no_draw_before,
    };
    let v: GameView = common::send(
        home,
        request::Challenge {
            opponent,
            color: args.color.choice(),
            time_control,
            chess960: args.chess960,
            fen: args.fen,
            terms,
        },
    )?;
    common::Json { json: args.json }.answer(&v, || v.game.clone())
}

/// The time control's text, checked with the rules core and written canonically.
fn time_control(args: &Args) -> CliResult<String> {
    let (text, over_the_board) = match (&args.per_move, &args.time, &args.classical) {
        (_, Some(t), _) => (t.trim().to_owned(), false),
        (_, _, Some(c)) => {
            let c = c.trim();
            let has_word = c.get(..4).is_some_and(|w| w.eq_ignore_ascii_case("otb "));
            (
                if has_word {
                    c.to_owned()
                } else {
                    format!("otb {c}")
                },
                true,
            )
        }
        (Some(p), _, _) => (p.trim().to_owned(), false),
        (None, None, None) => ("3d".to_owned(), false),
    };
    let text = match &args.increment {
        None => text,
        Some(inc) if over_the_board => format!("{text} inc {}", inc.trim()),
        Some(inc) => format!("{text}+{}", inc.trim()),
    };
    let text = match &args.session {
        Some(session) => format!("{text} session {}", session.trim()),
        None => text,
    };
    let tc: TimeControl = common::time_control(&text, t!("challenge-hint-time-control"))?;
    if !over_the_board && !tc.is_correspondence() && tc != TimeControl::Unlimited {
        return Err(error::user_hint(
            t!(
                "challenge-not-correspondence",
                text = sobre_node::words::quoted(&text)
            ),
            t!("challenge-hint-classical"),
        ));
    }
    Ok(tc.to_string())
}

/// The texts of the Laws a game may be judged by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum LawsEdition {
    /// The Laws in force from 1 July 2009.
    #[value(name = "2009")]
    Fide2009,
    /// The Laws in force from 1 July 2005.
    #[value(name = "2005")]
    Fide2005,
}

/// A duration argument (`90s`, `10m`, `1h`, `2d`) in milliseconds.
fn duration(text: &str) -> Result<u64, String> {
    sobre_core::clock::parse_duration(text).map_err(|e| e.to_string())
}
