//! What the board page draws for one game, computed by the rules core from the node's
//! [`GameView`]: the position after every ply (to step back and forth), the record in the
//! player's notation, and the legal moves of the position on the board (the hints, and the
//! only moves a drag may make). The page has no chess code of its own: a rule lives once,
//! in `sobre-core`.

use crate::api::GameView;
use serde::{Deserialize, Serialize};
use sobre_core::notation::{Notation, format_move};
use sobre_core::uci::{parse_uci, to_uci};
use sobre_core::{CastlingMode, Position};

/// One legal move as the board draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hint {
    /// The square the piece leaves.
    pub from: String,
    /// The square the piece is dragged to: for castling, the king's destination (F3),
    /// which is what a player drags to on a board.
    pub to: String,
    /// The promotion piece's letter (`q`, `r`, `b`, `n`), if the move promotes.
    pub promotion: Option<char>,
    /// The move as the node reads it back (coordinate notation; Chess960 castling is
    /// king-takes-rook).
    pub uci: String,
    /// The move in the player's notation.
    pub san: String,
}

/// The page's view of one game: the node's [`GameView`] and what the rules core adds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardGame {
    pub view: GameView,
    /// The position (FEN) before the first move and after each ply.
    pub positions: Vec<String>,
    /// Each ply in the player's notation.
    pub record: Vec<String>,
    /// The legal moves on the board now (empty once the game is over or before it starts).
    pub hints: Vec<Hint>,
}

/// Why a view cannot be drawn: the node's own view does not replay, which is a bug.
#[derive(Debug, thiserror::Error)]
pub enum HintsError {
    #[error("the game's start position {} does not read: {reason}", crate::words::quoted(.fen))]
    Start { fen: String, reason: String },
    #[error("move {ply} ({text}) of the game does not replay: {reason}")]
    Replay {
        ply: usize,
        text: String,
        reason: String,
    },
}

/// The page's view of `view`, its moves written in `notation`.
///
/// # Errors
/// [`HintsError`] if the view's start position or moves do not replay (never for a view
/// the node built).
pub fn board_game(view: GameView, notation: Notation) -> Result<BoardGame, HintsError> {
    let mode = if view.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mut pos = match &view.start_fen {
        Some(fen) => Position::from_fen(fen, mode).map_err(|e| HintsError::Start {
            fen: fen.clone(),
            reason: e.to_string(),
        })?,
        None => Position::new(),
    };
    let mut positions = vec![pos.fen()];
    let mut record = Vec::with_capacity(view.moves.len());
    for (ply, text) in view.moves.iter().enumerate() {
        let mv = parse_uci(&pos, text).map_err(|e| HintsError::Replay {
            ply: ply + 1,
            text: text.clone(),
            reason: e.to_string(),
        })?;
        record.push(format_move(&pos, mv, notation));
        pos.play_unchecked(mv);
        positions.push(pos.fen());
    }
    let playing = matches!(view.status, sobre_core::record::Status::Active);
    let hints = if playing {
        pos.legal_moves()
            .iter()
            .map(|&mv| Hint {
                from: mv.from.to_string(),
                to: mv.king_destination().to_string(),
                promotion: mv.promotion().map(|r| r.char()),
                uci: to_uci(&pos, mv),
                san: format_move(&pos, mv, notation),
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(BoardGame {
        view,
        positions,
        record,
        hints,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sobre_core::record::Status;

    fn active(moves: &[&str]) -> GameView {
        GameView {
            status: Status::Active,
            moves: moves.iter().map(|m| (*m).to_owned()).collect(),
            ..GameView::default()
        }
    }

    #[test]
    fn the_record_is_written_in_the_players_letters() {
        let game = board_game(active(&["g1f3", "d7d5"]), Notation::Spanish).unwrap();
        assert_eq!(game.record, ["Cf3", "d5"]);
        assert_eq!(game.positions.len(), 3);
        assert!(game.positions[1].starts_with("rnbqkbnr/pppppppp/8/8/8/5N2/"));
        assert!(game.hints.iter().any(|h| h.uci == "b1c3" && h.san == "Cc3"));
        assert_eq!(game.hints.len(), 22, "White's moves after 1.Nf3 d5");
    }

    /// The three notations a player reads a record in (App. E2 and figurines), each from
    /// the same game; the core writes both sides' pieces with the same figurines, as
    /// printed scores do.
    #[test]
    fn the_record_is_written_in_each_notation_the_player_may_choose() {
        let moves = ["g1f3", "d7d5", "e2e3", "c8g4", "f1e2", "g4f3", "e2f3"];
        for (notation, want) in [
            (
                Notation::English,
                ["Nf3", "d5", "e3", "Bg4", "Be2", "Bxf3", "Bxf3"],
            ),
            (
                Notation::Spanish,
                ["Cf3", "d5", "e3", "Ag4", "Ae2", "Axf3", "Axf3"],
            ),
            (
                Notation::Figurine,
                ["♘f3", "d5", "e3", "♗g4", "♗e2", "♗xf3", "♗xf3"],
            ),
        ] {
            let game = board_game(active(&moves), notation).unwrap();
            assert_eq!(game.record, want, "{notation:?}");
        }
        let game = board_game(active(&["e2e4"]), Notation::Figurine).unwrap();
        assert!(game.hints.iter().any(|h| h.uci == "b8c6" && h.san == "♘c6"));
    }

    #[test]
    fn castling_is_dragged_to_the_kings_square_and_promotions_carry_their_piece() {
        let view = GameView {
            start_fen: Some("4k3/1P6/8/8/8/8/8/4K2R w K - 0 1".into()),
            ..active(&[])
        };
        let game = board_game(view, Notation::English).unwrap();
        let castle = game.hints.iter().find(|h| h.san == "O-O").unwrap();
        assert_eq!((castle.from.as_str(), castle.to.as_str()), ("e1", "g1"));
        let promotions: Vec<_> = game
            .hints
            .iter()
            .filter(|h| h.from == "b7")
            .map(|h| h.promotion)
            .collect();
        assert_eq!(promotions.len(), 4);
        assert!(promotions.contains(&Some('q')) && promotions.contains(&Some('n')));
    }

    #[test]
    fn a_finished_game_has_no_hints() {
        let view = GameView {
            status: Status::Finished,
            ..active(&["e2e4"])
        };
        assert!(
            board_game(view, Notation::English)
                .unwrap()
                .hints
                .is_empty()
        );
    }

    #[test]
    fn a_move_that_does_not_replay_is_an_error_naming_it() {
        let e = board_game(active(&["e2e5"]), Notation::English).unwrap_err();
        assert!(matches!(e, HintsError::Replay { ply: 1, .. }), "{e}");
    }
}
