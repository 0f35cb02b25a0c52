//! One module per subcommand; each module's `Args` docs are its `--help` text.

pub mod abort;
pub mod accept;
pub mod adjourn;
pub mod arbiter;
pub mod block;
pub mod board;
pub mod challenge;
pub mod chat;
pub mod chat_read;
pub mod claim;
pub mod coin;
pub mod common;
pub mod completions;
pub mod conditional;
pub mod confirm;
pub mod contacts;
pub mod decline;
pub mod demo;
pub mod draw;
pub mod envelope;
pub mod export;
pub mod games;
pub mod id;
pub mod init;
pub mod invite;
pub mod key;
pub mod league;
pub mod league_decide;
pub mod league_json;
pub mod league_tables;
pub mod leave;
pub mod lost_envelope;
pub mod man;
pub mod r#move;
pub mod names;
pub mod node;
pub mod node_log;
pub mod node_service;
pub mod peers;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod profile;
pub mod reminders;
pub mod resign;
pub mod resume;
pub mod resume_at;
pub mod show;
pub mod verify;
pub mod watch;

use crate::error::{self, CliResult};
use sobre_core::{CastlingMode, Position};

/// Reads a FEN given on the command line (`startpos` is accepted), as a user error if bad.
pub fn parse_fen_arg(fen: &str, chess960: bool) -> CliResult<Position> {
    if fen.eq_ignore_ascii_case("startpos") {
        return Ok(Position::new());
    }
    let result = if chess960 {
        Position::from_fen(fen, CastlingMode::Chess960)
    } else {
        Position::from_fen_auto(fen)
    };
    result.map_err(|e| {
        error::user_hint(
            crate::t!(
                "fen-malformed",
                fen = sobre_node::words::quoted(fen),
                error = crate::i18n::errors::fen(&e)
            ),
            crate::t!("fen-hint"),
        )
    })
}
