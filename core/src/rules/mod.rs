//! Game-level rules: the history of positions, automatic endings and draw claims.
//!
//! - FIDE 5.1a / 5.2a: checkmate and stalemate end the game at once.
//! - FIDE 9.6 (2009) / 5.2b: a dead position ends the game drawn. sobre calls a position
//!   dead only with a proof: insufficient material (seed 004's list) or a blocked structure
//!   of kings and pawns no king can cross ([`dead`]).
//! - FIDE 9.2 / 9.3: threefold repetition and fifty moves are *claims* by the player to move,
//!   either about the position on the board ("has appeared") or with an intended move
//!   ("will appear"); an incorrect claim changes nothing. What "the same position" is
//!   depends on the game's text of the Laws ([`repetition`], [`Edition`]).
//! - Current FIDE practice on top of the 2009 text (docs/architecture.md): fivefold repetition
//!   and 75 moves without capture or pawn move end the game drawn without a claim; a mate on
//!   that move takes precedence.
//! - FIDE 6.9: a flag fall loses, unless the opponent cannot mate by any series of legal moves.
//! - FIDE 10.2 / Appendix D: a draw claimed in a quickplay finish, decided by the agreed
//!   arbiter ([`quickplay`]).
//! - Appendix F1 (colours and a Chess960 start drawn by lot): when the challenger's fair coin
//!   may be settled by the opponent's default ([`coin`]); Appendix A's verdicts are in
//!   [`adjournment`].

pub mod adjournment;
pub mod claims;
pub mod coin;
pub mod dead;
pub mod edition;
pub mod flag;
pub mod quickplay;
pub mod repetition;
pub mod scoring;

pub use claims::{ClaimError, ClaimReason};
pub use dead::{DeadVerdict, dead_verdict};
pub use edition::Edition;
pub use flag::flag_fall;

use crate::outcome::Outcome;
use crate::position::{IllegalMove, Position};
use crate::types::{Color, Move};
use std::fmt;

/// Why a game ended. The vocabulary of the Laws; the article is in each variant's doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// 5.1a.
    Checkmate,
    /// 5.2a.
    Stalemate,
    /// 9.6 (2009) / 5.2b: no series of legal moves can lead to mate (proven by
    /// [`dead::is_dead`]: insufficient material or a locked pawn structure).
    DeadPosition,
    /// Current FIDE 9.6.1: the same position for the fifth time.
    FivefoldRepetition,
    /// Current FIDE 9.6.2: 75 moves by each player without a capture or pawn move.
    SeventyFiveMoves,
    /// 9.2: a correct claim of threefold repetition.
    ThreefoldRepetition,
    /// 9.3: a correct claim of fifty moves.
    FiftyMoves,
    /// 5.1b.
    Resignation,
    /// 9.1 / 5.2c.
    Agreement,
    /// 6.9: the flag fell and the opponent can mate.
    TimeForfeit,
    /// 6.9: the flag fell but the opponent cannot mate by any series of legal moves.
    TimeForfeitInsufficientMaterial,
    /// Appendix A8: the sealed move was ambiguous, unintelligible or illegal (a loss, or a
    /// draw where the opponent could not have mated, 6.9).
    IllegalSealedMove,
    /// Appendix A10: a player came too late to the resumption.
    LateForResumption,
    /// 12.8/12.9 (2009): a player signed two different events at one place of their
    /// scoresheet (an equivocation) and loses the game; both did, and both lose.
    Equivocation,
    /// 10.2a/10.2b (Appendix D): the agreed arbiter declared the game drawn on a
    /// quickplay-finish claim.
    QuickplayDraw,
}

impl Termination {
    /// Short English description used in PGN `Termination` tags and in the CLI.
    pub const fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition => "dead position (no mate possible)",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::SeventyFiveMoves => "75-move rule",
            Termination::ThreefoldRepetition => "threefold repetition (claimed)",
            Termination::FiftyMoves => "fifty-move rule (claimed)",
            Termination::Resignation => "resignation",
            Termination::Agreement => "draw by agreement",
            Termination::TimeForfeit => "time forfeit",
            Termination::TimeForfeitInsufficientMaterial => {
                "time forfeit, but the opponent cannot mate (6.9)"
            }
            Termination::IllegalSealedMove => "invalid sealed move (A8)",
            Termination::LateForResumption => "late for the resumption (A10)",
            Termination::Equivocation => "signed two different events at one point (12.8)",
            Termination::QuickplayDraw => "drawn by the arbiter in a quickplay finish (10.2)",
        }
    }

    /// Stable machine name (`snake_case`) for JSON output.
    pub const fn code(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition => "dead_position",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoves => "seventy_five_moves",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::Resignation => "resignation",
            Termination::Agreement => "agreement",
            Termination::TimeForfeit => "time_forfeit",
            Termination::TimeForfeitInsufficientMaterial => "time_forfeit_insufficient_material",
            Termination::IllegalSealedMove => "illegal_sealed_move",
            Termination::LateForResumption => "late_for_resumption",
            Termination::Equivocation => "equivocation",
            Termination::QuickplayDraw => "quickplay_draw",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A game in progress from some start position: the moves and every position's identity.
#[derive(Clone, Debug)]
pub struct Game {
    /// The text its claims are judged by (9.2's "same position" differs, [`repetition`]).
    edition: Edition,
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// `keys[i]` identifies the position before ply `i` ([`Position::repetition_key`]); the
    /// last is the current one.
    keys: Vec<u64>,
}

impl Game {
    /// A game under the text play follows ([`Edition::PLAY`]); [`Game::under`] names another.
    pub fn new(start: Position) -> Game {
        Game::under(Edition::PLAY, start)
    }

    /// A game whose claims are judged by `edition` (a game's agreed terms name it).
    pub fn under(edition: Edition, start: Position) -> Game {
        let key = start.repetition_key();
        Game {
            edition,
            position: start.clone(),
            start,
            moves: Vec::new(),
            keys: vec![key],
        }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The text of the Laws its claims are judged by.
    pub fn edition(&self) -> Edition {
        self.edition
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Number of half-moves played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`IllegalMove`] (and nothing changed) if the move is not legal here.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.position.play(m)?;
        self.moves.push(m);
        self.keys.push(self.position.repetition_key());
        Ok(())
    }

    /// How many times the current position has occurred, counting now, by the identity
    /// current FIDE practice counts fivefold repetition with (castling rights, as 9.2 of
    /// 2005 reads; [`Position::repetition_key`]).
    pub fn repetitions(&self) -> u32 {
        let Some(&current) = self.keys.last() else {
            return 0;
        };
        count(&self.keys, current)
    }

    /// An ending that needs no claim: checkmate, stalemate, dead position, fivefold
    /// repetition or the 75-move rule, in that order of precedence (a mate on the 75th move
    /// is a mate, FIDE 9.6.2).
    pub fn automatic_end(&self) -> Option<(Outcome, Termination)> {
        automatic_end(&self.position, self.repetitions())
    }

    /// Checks a draw claim by the player to move (9.2, 9.3) under the game's edition, optionally with the move they
    /// intend to play (written but not yet played: the claim is about the position after it).
    ///
    /// # Errors
    /// A [`ClaimError`] saying why the claim is incorrect.
    pub fn check_claim(
        &self,
        kind: ClaimReason,
        intended: Option<Move>,
    ) -> Result<Termination, ClaimError> {
        if self.automatic_end().is_some() {
            return Err(ClaimError::GameOver);
        }
        let keys = repetition::repetition_keys(
            self.edition,
            &self.start,
            self.moves.iter().copied(),
            &self.keys,
        );
        claims::judge_draw_claim(self.edition, kind, &self.position, &keys, intended)
            .map(claims::ClaimGround::termination)
    }

    /// The draws the player to move could claim on the position on the board (9.2, 9.3,
    /// without an intended move): exactly the kinds [`Game::check_claim`] accepts without
    /// one, in the order threefold, fifty moves. A position recurs only between captures and pawn moves
    /// (they change the pieces for good), and at least four plies apart (one move of each
    /// side cannot put both pieces back), so a third occurrence needs eight plies since the
    /// last of them: the halfmove clock, never less than that stretch (it counts from the
    /// start position's own). Below it neither kind is looked up, where each look rebuilt
    /// the history's keys under the 2009 text (a node's summary asks at every event).
    pub fn open_draw_claims(&self) -> Vec<ClaimReason> {
        let plies = self.position.halfmove_clock();
        [(ClaimReason::Threefold, 8), (ClaimReason::FiftyMoves, 100)]
            .into_iter()
            .filter(|&(kind, least)| plies >= least && self.check_claim(kind, None).is_ok())
            .map(|(kind, _)| kind)
            .collect()
    }

    /// FIDE 6.9: the flag of `loser` has fallen. The game is lost, unless the opponent cannot
    /// checkmate by any series of legal moves, in which case it is drawn.
    pub fn flag_fall(&self, loser: Color) -> (Outcome, Termination) {
        flag_fall(&self.position, loser)
    }
}

fn count(keys: &[u64], key: u64) -> u32 {
    keys.iter().filter(|&&k| k == key).count() as u32
}

/// [`Game::automatic_end`] for a bare position and a known repetition count.
pub fn automatic_end(position: &Position, repetitions: u32) -> Option<(Outcome, Termination)> {
    if !position.has_legal_moves() {
        return Some(if position.is_check() {
            (
                Outcome::Decisive {
                    winner: !position.turn(),
                },
                Termination::Checkmate,
            )
        } else {
            (Outcome::Draw, Termination::Stalemate)
        });
    }
    if dead::is_dead(position) {
        return Some((Outcome::Draw, Termination::DeadPosition));
    }
    if repetitions >= 5 {
        return Some((Outcome::Draw, Termination::FivefoldRepetition));
    }
    if position.halfmove_clock() >= 150 {
        return Some((Outcome::Draw, Termination::SeventyFiveMoves));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::CastlingMode;
    use crate::types::{MoveKind, Square};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }
    fn mv(from: &str, to: &str) -> Move {
        Move::new(sq(from), sq(to), MoveKind::Normal)
    }
    fn fen(f: &str) -> Position {
        Position::from_fen(f, CastlingMode::Standard).unwrap()
    }
    fn shuffle_knights(g: &mut Game, times: usize) {
        for _ in 0..times {
            for (a, b) in [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")] {
                g.play(mv(a, b)).unwrap();
            }
        }
    }

    /// 9.2, 9.3: the claims open on the board are what `check_claim` accepts without an
    /// intended move, for every position of random games that shuffle pieces to and fro
    /// (repetitions) under both texts of the Laws, from the start and from a position with
    /// castling rights and a high halfmove clock.
    #[test]
    fn fide_9_2_9_3_open_claims_are_what_check_claim_accepts() {
        let starts = [
            Position::new(),
            fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 90 60"),
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut open = [0usize; 2];
        for edition in [Edition::Fide2005, Edition::Fide2009] {
            for start in &starts {
                for _ in 0..40 {
                    let mut g = Game::under(edition, start.clone());
                    for _ in 0..160 {
                        let expected: Vec<ClaimReason> =
                            [ClaimReason::Threefold, ClaimReason::FiftyMoves]
                                .into_iter()
                                .filter(|&k| g.check_claim(k, None).is_ok())
                                .collect();
                        let got = g.open_draw_claims();
                        assert_eq!(got, expected, "{}", g.position().fen());
                        for k in &got {
                            open[usize::from(*k == ClaimReason::FiftyMoves)] += 1;
                        }
                        let moves = g.position().legal_moves();
                        if moves.is_empty() || g.automatic_end().is_some() {
                            break;
                        }
                        // Mostly undo the last move of the side to move (a repetition).
                        let back = g.moves().len().checked_sub(2).map(|i| g.moves()[i]);
                        let undo = back.and_then(|b| {
                            moves
                                .iter()
                                .copied()
                                .find(|m| m.from == b.to && m.to == b.from)
                        });
                        let m = match undo {
                            Some(m) if next(3) > 0 => m,
                            _ => moves[next(moves.len())],
                        };
                        g.play(m).unwrap();
                    }
                }
            }
        }
        assert!(
            open[0] > 0 && open[1] > 0,
            "both kinds were open somewhere: {open:?}"
        );
    }

    #[test]
    fn fide_5_1a_checkmate_wins() {
        // Fool's mate.
        let mut g = Game::new(Position::new());
        for (a, b) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
            g.play(mv(a, b)).unwrap();
        }
        assert_eq!(
            g.automatic_end(),
            Some((
                Outcome::Decisive {
                    winner: Color::Black
                },
                Termination::Checkmate
            ))
        );
    }

    #[test]
    fn fide_5_2a_stalemate_draws() {
        let g = Game::new(fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
        assert_eq!(
            g.automatic_end(),
            Some((Outcome::Draw, Termination::Stalemate))
        );
    }

    #[test]
    fn fide_9_6_seed_004_insufficient_material_lists() {
        // K v K, K+B v K, K+N v K, K+B v K+B with bishops on same-coloured squares.
        for f in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/5B2/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/5N2/8 w - - 0 1",
            "8/4b3/4k3/8/8/3K4/5B2/8 w - - 0 1",
            "8/4b3/4k3/8/8/3K4/5B2/6B1 w - - 0 1",
        ] {
            let p = fen(f);
            assert!(p.is_insufficient_material(), "{f}");
            assert_eq!(
                automatic_end(&p, 1),
                Some((Outcome::Draw, Termination::DeadPosition)),
                "{f}"
            );
        }
        // Bishops on opposite colours, or a knight against a bishop: mate is possible.
        for f in [
            "8/3b4/4k3/8/8/3K4/5B2/8 w - - 0 1",
            "8/4b3/4k3/8/8/3K4/5N2/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/4NN2/8 w - - 0 1",
        ] {
            assert!(!fen(f).is_insufficient_material(), "{f}");
        }
    }

    #[test]
    fn fide_9_2_threefold_claim_has_occurred() {
        let mut g = Game::new(Position::new());
        shuffle_knights(&mut g, 2);
        assert_eq!(g.repetitions(), 3);
        assert_eq!(
            g.check_claim(ClaimReason::Threefold, None),
            Ok(Termination::ThreefoldRepetition)
        );
    }

    #[test]
    fn fide_9_2_threefold_claim_with_intended_move() {
        let mut g = Game::new(Position::new());
        shuffle_knights(&mut g, 1);
        for (a, b) in [("g1", "f3"), ("g8", "f6"), ("f3", "g1")] {
            g.play(mv(a, b)).unwrap();
        }
        // Black intends Nf6-g8: the start position will appear for the third time.
        assert_eq!(g.repetitions(), 2);
        assert_eq!(
            g.check_claim(ClaimReason::Threefold, Some(mv("f6", "g8"))),
            Ok(Termination::ThreefoldRepetition)
        );
        assert_eq!(
            g.check_claim(ClaimReason::Threefold, None),
            Err(ClaimError::NotThreefold { occurrences: 2 })
        );
        assert_eq!(
            g.check_claim(ClaimReason::Threefold, Some(mv("f6", "h5"))),
            Err(ClaimError::NotThreefold { occurrences: 1 })
        );
    }

    #[test]
    fn fide_9_2_lost_castling_right_makes_positions_different() {
        // Same pieces, but White's king walk e1-f1-e1 loses castling rights.
        let mut g = Game::new(fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
        for (a, b) in [
            ("e1", "f1"),
            ("e8", "f8"),
            ("f1", "e1"),
            ("f8", "e8"),
            ("e1", "f1"),
            ("e8", "f8"),
            ("f1", "e1"),
            ("f8", "e8"),
        ] {
            g.play(mv(a, b)).unwrap();
        }
        // The start (with rights) occurred once; the rightless copy twice.
        assert_eq!(g.repetitions(), 2);
    }

    #[test]
    fn fide_9_2_a_game_judges_by_its_edition() {
        // The right h1 is blocked by the knight on g1, and lost by the king's walk.
        let start = fen("4k3/8/8/8/8/8/8/4K1NR w K - 0 1");
        let walk = [("e1", "f1"), ("e8", "d8"), ("f1", "e1"), ("d8", "e8")];
        let judge = |edition| {
            let mut g = Game::under(edition, start.clone());
            for _ in 0..2 {
                for (a, b) in walk {
                    g.play(mv(a, b)).unwrap();
                }
            }
            g.check_claim(ClaimReason::Threefold, None)
        };
        assert_eq!(
            judge(Edition::Fide2009),
            Ok(Termination::ThreefoldRepetition)
        );
        assert_eq!(
            judge(Edition::Fide2005),
            Err(ClaimError::NotThreefold { occurrences: 2 })
        );
        assert_eq!(Game::new(start).edition(), Edition::PLAY);
    }

    #[test]
    fn fide_9_2_en_passant_only_counts_when_possible() {
        // After e2-e4 with no black pawn able to capture, the position equals one where the
        // pawn arrived in two single steps.
        let a = fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
        let b = fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
        assert_eq!(a.repetition_key(), b.repetition_key());
        // A black pawn on d4 could capture: different positions.
        let c = fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
        let d = fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
        assert_ne!(c.repetition_key(), d.repetition_key());
        // …unless the capture would be illegal (the pawn is pinned to its king).
        let e = fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1");
        let f = fen("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1");
        assert_eq!(e.repetition_key(), f.repetition_key());
    }

    #[test]
    fn fide_9_3_fifty_move_claim() {
        let g = Game::new(fen("8/8/4k3/8/8/3K4/R7/8 w - - 100 80"));
        assert_eq!(
            g.check_claim(ClaimReason::FiftyMoves, None),
            Ok(Termination::FiftyMoves)
        );
        let g = Game::new(fen("8/8/4k3/8/8/3K4/R7/8 w - - 99 80"));
        assert_eq!(
            g.check_claim(ClaimReason::FiftyMoves, None),
            Err(ClaimError::NotFiftyMoves { moves: 49 })
        );
        // With an intended quiet move the fiftieth move is completed.
        assert_eq!(
            g.check_claim(ClaimReason::FiftyMoves, Some(mv("a2", "a1"))),
            Ok(Termination::FiftyMoves)
        );
    }

    #[test]
    fn fide_9_6_fivefold_repetition_ends_without_claim() {
        let mut g = Game::new(Position::new());
        shuffle_knights(&mut g, 3);
        assert_eq!(g.automatic_end(), None);
        shuffle_knights(&mut g, 1);
        assert_eq!(g.repetitions(), 5);
        assert_eq!(
            g.automatic_end(),
            Some((Outcome::Draw, Termination::FivefoldRepetition))
        );
    }

    #[test]
    fn fide_9_6_seventy_five_moves_but_mate_takes_precedence() {
        let g = Game::new(fen("8/8/4k3/8/8/3K4/R7/8 w - - 150 100"));
        assert_eq!(
            g.automatic_end(),
            Some((Outcome::Draw, Termination::SeventyFiveMoves))
        );
        // Mated on the move that completes the 75: checkmate.
        let g = Game::new(fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 150 100"));
        assert_eq!(
            g.automatic_end(),
            Some((
                Outcome::Decisive {
                    winner: Color::White
                },
                Termination::Checkmate
            ))
        );
    }

    #[test]
    fn fide_6_9_flag_fall_against_lone_king_is_draw() {
        // White (K+R) lets the flag fall against Black's lone king... Black cannot mate: draw.
        let g = Game::new(fen("8/8/4k3/8/8/3K4/R7/8 w - - 0 1"));
        assert_eq!(
            g.flag_fall(Color::White),
            (Outcome::Draw, Termination::TimeForfeitInsufficientMaterial)
        );
        // Black's flag falls: White can mate, White wins.
        assert_eq!(
            g.flag_fall(Color::Black),
            (
                Outcome::Decisive {
                    winner: Color::White
                },
                Termination::TimeForfeit
            )
        );
    }

    #[test]
    fn claims_after_the_end_are_rejected() {
        let g = Game::new(fen("7k/5Q2/6K1/8/8/8/8/8 b - - 120 1"));
        assert_eq!(
            g.check_claim(ClaimReason::FiftyMoves, None),
            Err(ClaimError::GameOver)
        );
    }
}
