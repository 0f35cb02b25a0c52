//! `sobre position`: show a position and the facts the rules core derives from it.

use super::parse_fen_arg;
use crate::board::{self, Style};
use crate::error::CliResult;
use crate::i18n::words;
use crate::t;
use sobre_core::notation::{Notation, format_move};
use std::process::ExitCode;

/// Show a position: the board, whose turn it is, legal moves, check, mate, stalemate and
/// insufficient material (FIDE 5.1, 5.2, 9.6).
///
/// With --json, one JSON object: `fen`, `turn` ("white"/"black"), `legal_moves` (UCI),
/// `check`, `checkmate`, `stalemate`, `insufficient_material`, `dead_position` (5.2b/9.6:
/// no series of legal moves can lead to mate), and more.
#[derive(clap::Args)]
pub struct Args {
    /// The position as FEN, X-FEN or Shredder-FEN (or `startpos`).
    fen: String,
    /// Read castling rights as Chess960 (FIDE Appendix F).
    #[arg(long)]
    chess960: bool,
    /// Print one JSON object instead of a board.
    #[arg(long)]
    json: bool,
    /// Letters instead of Unicode figurines.
    #[arg(long)]
    ascii: bool,
    /// Draw the board from Black's side.
    #[arg(long)]
    flip: bool,
    /// Notation of the legal-move list: en, es, figurine, uci, iccf.
    #[arg(long, default_value = "en")]
    notation: Notation,
}

/// `position --json`: the position and what the rules core derives from it.
#[derive(serde::Serialize)]
struct PositionJson {
    fen: String,
    shredder_fen: String,
    chess960: bool,
    /// `white` or `black`.
    turn: &'static str,
    /// UCI.
    legal_moves: Vec<String>,
    /// In the notation asked for.
    legal_moves_notation: Vec<String>,
    check: bool,
    checkmate: bool,
    stalemate: bool,
    insufficient_material: bool,
    /// 5.2b / 9.6: no series of legal moves can lead to mate.
    dead_position: bool,
    halfmove_clock: u32,
    fullmove_number: u32,
}

pub fn run(args: Args) -> CliResult<ExitCode> {
    let pos = parse_fen_arg(&args.fen, args.chess960)?;
    let moves = pos.legal_moves();
    let check = pos.is_check();
    let checkmate = check && moves.is_empty();
    let stalemate = !check && moves.is_empty();
    let insufficient = pos.is_insufficient_material();
    // 5.2b / 9.6: the rules core's judge (material, or a locked structure no king can
    // cross); a position it cannot decide counts as not dead here, as in play.
    let dead = sobre_core::rules::dead::is_dead(&pos);
    if args.json {
        let uci: Vec<String> = moves
            .iter()
            .map(|&m| format_move(&pos, m, Notation::Uci))
            .collect();
        let san: Vec<String> = moves
            .iter()
            .map(|&m| format_move(&pos, m, args.notation))
            .collect();
        super::common::print_reply(&PositionJson {
            fen: pos.fen(),
            shredder_fen: pos.shredder_fen(),
            chess960: pos.is_chess960(),
            turn: pos.turn().name(),
            legal_moves: uci,
            legal_moves_notation: san,
            check,
            checkmate,
            stalemate,
            insufficient_material: insufficient,
            dead_position: dead,
            halfmove_clock: pos.halfmove_clock(),
            fullmove_number: pos.fullmove_number(),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let bottom = if args.flip {
        sobre_core::Color::Black
    } else {
        sobre_core::Color::White
    };
    print!(
        "{}",
        board::render(
            &pos,
            Style {
                bottom,
                ascii: args.ascii
            },
            None
        )
    );
    println!("FEN: {}", pos.fen());
    // English starts the sentence with the colour ("White to move"), Spanish does not.
    let (side, colour) = (words::colour_subject(pos.turn()), words::colour(pos.turn()));
    println!("{}", t!("position-to-move", side = &side, colour = &colour));
    if checkmate {
        println!(
            "{}",
            t!(
                "position-checkmate",
                winner = words::colour(pos.turn().other())
            )
        );
    } else if stalemate {
        println!("{}", t!("position-stalemate"));
    } else if check {
        println!("{}", t!("position-check", side = &side, colour = &colour));
    }
    if dead {
        println!("{}", t!("position-dead"));
    }
    let list: Vec<String> = moves
        .iter()
        .map(|&m| format_move(&pos, m, args.notation))
        .collect();
    println!(
        "{}",
        t!(
            "position-legal-moves",
            count = list.len(),
            moves = list.join(" ")
        )
    );
    Ok(ExitCode::SUCCESS)
}
