//! A verified game as PGN: the tags, the moves with their signed times as comments, and the
//! claims, leaves and adjournments as annotations. Readable, but it proves nothing.

use super::dates::{iso_utc, pgn_date};
use crate::notation::fen::STARTING_FEN;
use crate::pgn::{GameRecord, WrittenMove};
use crate::record::event::{ClaimReason, EventId};
use crate::record::identity::PlayerId;
use crate::record::verify::{
    Accepter, AnnulledBy, Annulment, ClaimRecord, DeclarationAccepted, GameState,
};
use crate::types::Color;
use std::collections::HashMap;

/// The name a player gets in PGN when the caller knows no better one: the player id.
pub fn player_id_name(player: &PlayerId) -> String {
    player.to_string()
}

/// The game as canonical PGN (see [`to_game_record`] for what it contains).
///
/// `names` gives the `White` and `Black` tags (e.g. from an address book); pass
/// [`player_id_name`] to use the player ids.
///
/// # Examples
/// ```no_run
/// # fn demo(state: &sobre_core::record::GameState) {
/// use sobre_core::record::export::{player_id_name, to_pgn};
/// let pgn = to_pgn(state, &player_id_name);
/// assert!(pgn.starts_with("[Event \"sobre"));
/// # }
/// ```
pub fn to_pgn(state: &GameState, names: &dyn Fn(&PlayerId) -> String) -> String {
    to_game_record(state, names).to_string()
}

/// The game as a [`GameRecord`] for the canonical PGN writer:
///
/// - the Seven Tag Roster: `Event` (`sobre correspondence game`, or `sobre league <id>` for
///   a league game), `Site` `sobre`, `Date` of the start (UTC), `Round` (`-`, or the league
///   round), `White`/`Black` from `names`, `Result` (`*` while unfinished);
/// - `TimeControl` (sobre's text form), `Termination` (in words, or `unterminated`),
///   `WhiteId`/`BlackId`, `GameId`; `Variant "Chess960"` for a Chess960 start, and
///   `SetUp`/`FEN` for any start other than the standard position;
/// - each move in English SAN with a comment: its signed time `[%sobre-time …]`, the
///   opponent's receipt `[%sobre-received …]` when there is one, and notes for a sealed move,
///   a lost envelope (A11: the move its sealer declared and who accepted it), draw offers
///   (9.1) and claims made after it;
/// - a move after which its mover offered a draw marked `(=)` (9.1b, Appendix C13/E13);
/// - after the last move: an invalid sealed move (A8), an annulment (A11.2) and
///   equivocations, if any; an annulled game's `Termination` is `annulled (A11.2)`.
pub fn to_game_record(state: &GameState, names: &dyn Fn(&PlayerId) -> String) -> GameRecord {
    let start = state.start.clone().unwrap_or_default();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut tag = |name: &str, value: String| tags.push((name.to_owned(), value));

    let (event, round) = match &state.challenge.league {
        Some(l) => (
            format!("sobre league {}", l.league.to_hex()),
            l.round.to_string(),
        ),
        None => ("sobre correspondence game".to_owned(), "-".to_owned()),
    };
    tag("Event", event);
    tag("Site", "sobre".to_owned());
    tag(
        "Date",
        state
            .started_ms
            .map_or_else(|| "????.??.??".to_owned(), pgn_date),
    );
    tag("Round", round);
    tag(
        "White",
        state.white.as_ref().map_or_else(|| "?".into(), names),
    );
    tag(
        "Black",
        state.black.as_ref().map_or_else(|| "?".into(), names),
    );
    tag("TimeControl", state.time_control.to_string());
    let termination = match (&state.annulled, state.termination) {
        (Some(_), _) => "annulled (A11.2)",
        (None, Some(t)) => t.describe(),
        (None, None) => "unterminated",
    };
    tag("Termination", termination.to_owned());
    if let Some(w) = &state.white {
        tag("WhiteId", w.to_string());
    }
    if let Some(b) = &state.black {
        tag("BlackId", b.to_string());
    }
    tag("GameId", state.game.to_hex());
    if start.is_chess960() {
        tag("Variant", "Chess960".to_owned());
    }
    let fen = start.fen();
    if start.is_chess960() || fen != STARTING_FEN {
        // The writer puts `SetUp "1"` before it.
        tag("FEN", fen);
    }

    let (notes, final_notes) = move_notes(state, names);
    let mut moves: Vec<WrittenMove> = state
        .moves
        .iter()
        .zip(notes)
        .map(|(m, notes)| WrittenMove {
            san: m.san.clone(),
            comment: Some(notes.join(" ")),
            nags: Vec::new(),
            draw_offer: false,
        })
        .collect();
    for offer in &state.draw_offers {
        // 9.1b, C13/E13: an offer made after one's own move is marked `(=)` on that move.
        // An offer made by the player to move, before moving, has no move of its own to mark:
        // the note in the comment (from `move_notes`) says it.
        if let Some(i) = offer.ply.checked_sub(1)
            && state.moves.get(i).is_some_and(|m| m.by == offer.by)
            && let Some(m) = moves.get_mut(i)
        {
            m.draw_offer = true;
        }
    }
    if !final_notes.is_empty() {
        let text = final_notes.join("; ");
        match moves.last_mut().and_then(|m| m.comment.as_mut()) {
            Some(c) => {
                c.push_str("; ");
                c.push_str(&text);
            }
            // No move to hang a comment on: keep the note as a tag rather than lose it.
            None => tags.push(("Annotation".to_owned(), text)),
        }
    }
    GameRecord {
        tags,
        moves,
        first_ply_black: start.turn() == Color::Black,
        first_move_number: start.fullmove_number(),
        result: state.result.map_or("*", |o| o.as_str()).to_owned(),
    }
}

/// The comment words of each move, and the notes that belong after the last move.
pub(super) fn move_notes(
    state: &GameState,
    names: &dyn Fn(&PlayerId) -> String,
) -> (Vec<Vec<String>>, Vec<String>) {
    let mut notes: Vec<Vec<String>> = state
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mut n = vec![format!("[%sobre-time {}]", iso_utc(m.time_ms))];
            if let Some(r) = m.received_ms {
                n.push(format!("[%sobre-received {}]", iso_utc(r)));
            }
            if m.sealed {
                // A3, A9: say when the arbiter keeping the envelope opened it; A11.1: that
                // the envelope was lost and who accepted the move the sealer declared.
                let by_arbiter = state
                    .envelopes
                    .iter()
                    .any(|e| e.opened_by_arbiter && e.ply as usize == i + 1);
                let declared = state
                    .envelopes
                    .iter()
                    .filter(|e| e.ply as usize == i + 1)
                    .find_map(|e| e.declared.as_ref())
                    .and_then(|d| d.accepted.as_ref().map(|a| (d, a)));
                n.push(match declared {
                    Some((d, a)) => format!(
                        "envelope lost; the sealer declared {}, accepted by {} (A11)",
                        d.san,
                        accepter_words(a, names)
                    ),
                    None if by_arbiter => {
                        "sealed move opened at resumption by the arbiter".to_owned()
                    }
                    None => "sealed move opened at resumption".to_owned(),
                });
            }
            n
        })
        .collect();
    let mut final_notes = Vec::new();
    // A declared sealed move someone accepted (A11.1) is noted on the move itself, above;
    // what is left is a tag-10 seal whose sealer played instead of opening.
    let declared = state.envelopes.iter().any(|e| e.declared_accepted());
    if state.envelope_lost && !declared {
        // A11: the envelope stays unopened and the sealer's next move is the one at its ply.
        let ply = state
            .envelopes
            .iter()
            .find(|e| e.opened.is_none())
            .map(|e| e.ply as usize);
        match ply
            .and_then(|p| p.checked_sub(1))
            .and_then(|i| notes.get_mut(i))
        {
            Some(n) => n.push("envelope lost (A11)".to_owned()),
            None => final_notes.push("envelope lost (A11)".to_owned()),
        }
    }
    for offer in &state.draw_offers {
        // In words as well as `(=)`: a reader that does not know the mark skips it.
        let text = format!("{} offers a draw (9.1)", capitalised(offer.by.name()));
        match offer.ply.checked_sub(1).and_then(|i| notes.get_mut(i)) {
            Some(n) => n.push(text),
            None => final_notes.push(text),
        }
    }
    for claim in &state.claims {
        let text = claim_note(claim);
        match claim_ply(state, claim)
            .checked_sub(1)
            .and_then(|i| notes.get_mut(i))
        {
            Some(n) => n.push(text),
            None => final_notes.push(text),
        }
    }
    if let Some(e) = &state.sealed_move_error {
        final_notes.push(e.clone());
    }
    if let Some(a) = &state.annulled {
        final_notes.push(annulment_note(a, names));
    }
    // A player's equivocation is the reason of the result (12.8/12.9); a witness's twins
    // change nothing and are noted as well, so the PGN tells every reader what the proof is.
    for e in &state.equivocations {
        final_notes.push(format!(
            "equivocation by {} at seq {}: two different events signed at one point (12.8)",
            names(&e.author),
            e.seq
        ));
    }
    (notes, final_notes)
}

/// Who accepted a declared sealed move (A11.1), in words.
fn accepter_words(a: &DeclarationAccepted, names: &dyn Fn(&PlayerId) -> String) -> String {
    let role = match a.role {
        Accepter::Responder => "the responder",
        Accepter::Arbiter => "the arbiter",
    };
    format!("{} ({role})", names(&a.by))
}

/// The note of an annulled game (A11.2; club rules art. 16.5).
pub(super) fn annulment_note(a: &Annulment, names: &dyn Fn(&PlayerId) -> String) -> String {
    let by = match a.by {
        AnnulledBy::Arbiter(p) => format!("by the arbiter {}", names(&p)),
        AnnulledBy::Players => "by both players".to_owned(),
    };
    format!(
        "game annulled {by} (A11.2): the envelope was lost and the adjourned position could \
         not be re-established; a new game is to be played"
    )
}

pub(super) fn claim_note(claim: &ClaimRecord) -> String {
    format!(
        "{} claims {}: {} - {}",
        capitalised(claim.by.name()),
        claim_reason_words(claim.reason),
        if claim.correct {
            "correct"
        } else {
            "incorrect"
        },
        claim.judgement
    )
}

pub(super) fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// How many moves had been played when a claim was made (the claim follows that ply; a
/// move announced with an incorrect claim, 9.5b, counts as played with it).
pub fn claim_ply(state: &GameState, claim: &ClaimRecord) -> usize {
    let at: HashMap<EventId, usize> = state
        .timeline
        .iter()
        .enumerate()
        .map(|(i, id)| (*id, i))
        .collect();
    let Some(&claim_at) = at.get(&claim.event) else {
        return state.moves.len();
    };
    state
        .moves
        .iter()
        .filter(|m| at.get(&m.event).is_some_and(|&i| i <= claim_at))
        .count()
}

/// A claim's reason in words, with the article, for PGN comments and messages.
pub fn claim_reason_words(reason: ClaimReason) -> &'static str {
    match reason {
        ClaimReason::Threefold => "threefold repetition (9.2)",
        ClaimReason::FiftyMoves => "the fifty-move rule (9.3)",
        ClaimReason::Time => "a win on time (6.9)",
        ClaimReason::DeadPosition => "a dead position (9.6)",
        ClaimReason::Lateness => "lateness at resumption (A10)",
    }
}

/// A claim's reason as a stable machine name (`snake_case`) for JSON.
pub fn claim_reason_code(reason: ClaimReason) -> &'static str {
    match reason {
        ClaimReason::Threefold => "threefold",
        ClaimReason::FiftyMoves => "fifty_moves",
        ClaimReason::Time => "time",
        ClaimReason::DeadPosition => "dead_position",
        ClaimReason::Lateness => "lateness",
    }
}
