//! Moves as the player typed them: read in the letters they write (App. E2/E3), with errors
//! whose hints fit the problem, and conditional lines stored so they are never re-read in
//! other letters.

use super::{Service, internal};
use crate::api::ApiError;
use crate::api::refusal::{MovePlace, RefusalCode};
use crate::api::replies::MovePreviewReply;
use sobre_core::notation::{self, MoveError, Notation};
use sobre_core::record::GameId;
use sobre_core::san::Lang;

impl Service {
    /// Checks a conditional line from the current position and returns it as it will be
    /// stored: as typed, except a move whose automatic reading (used when the line is played
    /// later) would differ from its reading in the stated letters, which is stored in
    /// coordinates so that it is never re-read in the other language.
    pub(super) fn check_conditional(
        &self,
        game: &GameId,
        moves: &[String],
        written: Option<Notation>,
    ) -> Result<Vec<String>, ApiError> {
        let st = &self.cache(game)?.state;
        let Some(c) = st.colour_of(&self.identity.me()) else {
            return Err(ApiError::refused(RefusalCode::NotInGame));
        };
        if st.position.turn() == c {
            return Err(ApiError::refused(RefusalCode::ConditionalOnYourMove));
        }
        if moves.len() < 2 {
            return Err(ApiError::refused(RefusalCode::ConditionalTooShort));
        }
        let mut pos = st.position.clone();
        let mut stored = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let m = notation::parse_move(&pos, text, letters(written))
                .map_err(|e| move_error(MovePlace::Played, Some(i + 1), &e))?;
            if notation::parse_move(&pos, text, Lang::Auto).ok() == Some(m) {
                stored.push(text.clone());
            } else {
                stored.push(notation::format_move(&pos, m, Notation::Uci));
            }
            pos.play_unchecked(m);
        }
        Ok(stored)
    }
}

impl Service {
    /// `move --dry-run`: the move read and checked as `move` reads it (the player's letters,
    /// their turn), played on the rules core's copy of the game — never signed, stored or
    /// sent.
    pub(super) fn preview_move(
        &self,
        game: &GameId,
        text: &str,
        written: Option<Notation>,
    ) -> Result<MovePreviewReply, ApiError> {
        let st = &self.cache(game)?.state;
        self.require_my_move(st)?;
        let m = notation::parse_move(&st.position, text, letters(written))
            .map_err(|e| move_error(MovePlace::Played, None, &e))?;
        let mut replay = crate::view::replay(st);
        let san = notation::format_move(replay.position(), m, Notation::English);
        replay
            .play(m)
            .map_err(|e| internal(format!("a legal move did not play: {e}")))?;
        Ok(MovePreviewReply {
            ending: replay.automatic_end().map(|(_, t)| t.code().to_owned()),
            fen: replay.position().fen(),
            fen_before: st.position.fen(),
            game: game.to_hex(),
            my_color: st.position.turn(),
            san,
            uci: notation::format_move(&st.position, m, Notation::Uci),
        })
    }
}

/// The letters a move typed by the player is read in: those of the notation they said they
/// write in, or, when they said nothing, whichever the position allows (App. E2/E3).
pub(super) fn letters(written: Option<Notation>) -> Lang {
    written.map_or(Lang::Auto, Notation::letters)
}

/// A move the player typed that is not one legal move, as a user error with its code
/// ([`RefusalCode::BadMove`]), whose hint fits the problem: the letters to say when the text
/// reads as two different legal moves in English and in Spanish, the origin square when it
/// fits two pieces of one kind.
pub(super) fn move_error(place: MovePlace, conditional: Option<usize>, e: &MoveError) -> ApiError {
    ApiError::refused(RefusalCode::bad_move(e, place, conditional))
}
