//! `sobre move`: play a move, or see what it would do (`--dry-run`).

use super::common;
use super::show::{game_tag, last_move_in, state_line};
use crate::board::{self, Style};
use crate::error::CliResult;
use crate::i18n::words;
use crate::t;
use sobre_core::notation::{Notation, format_move};
use sobre_core::uci::parse_uci;
use sobre_core::{Color, Position, Square};
use sobre_node::api::GameView;
use sobre_node::api::replies::MovePreviewReply;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// Play a move in a game where it is your turn.
///
/// Any notation: English or Spanish SAN (`Nf3`, `Cf3`, `O-O`, `exd8=Q`), coordinates
/// (`g1f3`, `e7e8q`) or ICCF numbers (`7163`). SAN is read in the letters you write
/// (--notation, or "notation" in HOME/config.json): `Rd1` is a rook move in English and a
/// king move in Spanish. The move is checked, signed, stored and only
/// then reported; delivery to your opponent continues in the background until they
/// acknowledge it (see `sobre node status`).
///
/// With --dry-run the move is read and checked the same way and the position after it is
/// shown (board and FEN); nothing is signed, stored or sent.
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// The move.
    #[arg(value_name = "MOVE", allow_hyphen_values = true)]
    mv: String,
    /// Show the position after the move without playing it.
    #[arg(long)]
    dry_run: bool,
    /// Letters instead of Unicode figurines (with --dry-run).
    #[arg(long, requires = "dry_run")]
    ascii: bool,
    #[command(flatten)]
    written: common::Written,
    #[command(flatten)]
    json: common::Json,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let notation = args.written.resolve(home);
    if args.dry_run {
        let p: MovePreviewReply = common::send(
            home,
            request::MovePreview {
                game: args.game,
                text: args.mv,
                notation,
            },
        )?;
        let ascii = args.ascii || common::Config::load(home).ascii;
        return args.json.answer(&p, || preview(&p, ascii, notation));
    }
    let v: GameView = common::send(
        home,
        request::Move {
            game: args.game,
            text: args.mv,
            notation,
        },
    )?;
    args.json.answer(&v, || {
        // In the letters the player writes (`Cc3` for a Spanish player), else the node's SAN.
        let played = notation
            .and_then(|n| last_move_in(&v, n))
            .or_else(|| v.san.last().or(v.last_move.as_ref()).cloned())
            .unwrap_or_default();
        t!(
            "move-played",
            mv = played,
            game = game_tag(&v),
            state = state_line(&v)
        )
    })
}

/// What `--dry-run` prints: the move (in the player's notation), the board after it from
/// the player's side with the move's squares marked, the FEN, and the ending it would bring.
fn preview(p: &MovePreviewReply, ascii: bool, notation: Option<Notation>) -> String {
    let written = notation
        .zip(Position::from_fen_auto(&p.fen_before).ok())
        .and_then(|(n, before)| {
            let m = parse_uci(&before, &p.uci).ok()?;
            Some(format_move(&before, m, n))
        })
        .unwrap_or_else(|| p.san.clone());
    let mut out = t!(
        "move-dry-run",
        mv = written,
        game = common::short_game(&p.game)
    ) + "\n\n";
    let squares = p
        .uci
        .get(0..2)
        .and_then(Square::parse)
        .zip(p.uci.get(2..4).and_then(Square::parse));
    let bottom = if p.my_color == Color::Black {
        Color::Black
    } else {
        Color::White
    };
    match Position::from_fen_auto(&p.fen) {
        Ok(pos) => out.push_str(&board::render(&pos, Style { bottom, ascii }, squares)),
        Err(_) => out.push('\n'),
    }
    out.push_str(&format!("\nFEN: {}", p.fen));
    if let Some(ending) = &p.ending {
        // The node names the ending by its code; the rules' words say it.
        let ending =
            words::termination_of_code(ending).map_or_else(|| ending.clone(), words::termination);
        out.push('\n');
        out.push_str(&t!("move-would-end", ending = ending));
    }
    out
}
