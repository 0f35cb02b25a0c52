//! `sobre perft`: count leaf nodes of the legal move tree (a move-generator test).

use super::parse_fen_arg;
use crate::error::CliResult;
use sobre_core::notation::{Notation, format_move};
use std::process::ExitCode;

/// Count the legal move sequences of DEPTH plies from a position (perft).
///
/// The last line printed is the node count. With --divide, one line per legal first move
/// comes first (`e2e4 20`).
#[derive(clap::Args)]
pub struct Args {
    /// The position as FEN, X-FEN or Shredder-FEN (or `startpos`).
    fen: String,
    /// Depth in plies.
    depth: u32,
    /// Print the count below each legal first move.
    #[arg(long)]
    divide: bool,
    /// Read castling rights as Chess960 (FIDE Appendix F).
    #[arg(long)]
    chess960: bool,
}

pub fn run(args: Args) -> CliResult<ExitCode> {
    let pos = parse_fen_arg(&args.fen, args.chess960)?;
    if args.depth > 12 {
        return Err(crate::error::user(crate::t!(
            "perft-too-deep",
            depth = args.depth
        )));
    }
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for &m in &pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let n = child.perft(args.depth - 1);
            println!("{} {}", format_move(&pos, m, Notation::Uci), n);
            total += n;
        }
        println!();
        total
    } else {
        pos.perft(args.depth)
    };
    println!("{total}");
    Ok(ExitCode::SUCCESS)
}
