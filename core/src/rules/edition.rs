//! The texts of the FIDE Laws this project implements: the Laws in force from 1 July 2005
//! (seed 002) and from 1 July 2009 (seed 003). A game's agreed terms name its text
//! (`record::Terms::edition`, 2009 by default: the newest text wins, docs/architecture.md); a rules
//! function whose verdict depends on the text takes an [`Edition`], and its tests cover both
//! (`core/tests/editions.rs` judges each difference on a signed record).
//!
//! Where the texts differ in what the rules core judges (articles numbered per text):
//! - **9.2** "the same position": 2005 counts a changed castling right "temporarily or
//!   permanently", 2009 only the possible moves ([`super::repetition`]). Records signed
//!   before terms named a text keep the rights identity they were judged by then.
//! - **9.5b** an incorrect claim: 2005 also takes time from the claimant
//!   ([`super::claims::incorrect_claim_penalty`]).
//! - **A8** an invalid sealed move: 2009 adds Art. 5's exception (a mate or stalemate by
//!   every reading) ([`super::adjournment::judge_invalid_sealed_move`]).
//! - **6.10 (2005) / 6.9 (2009)** the flag fall, the same rule renumbered, cited by A8 and
//!   A10c ([`Edition::flag_fall_article`]).
//! - **10.2 in blitz**: 2005 C2 excludes 10.2 from every blitz game; 2009 B3b only where
//!   supervision is inadequate, and B2 applies it with an arbiter for each game, as a game
//!   whose terms name one has ([`super::quickplay::judge_claim`]).
//!
//! Differences a signed record cannot tell apart, so both texts give one verdict:
//! - **9.4**: 2005 loses the right to claim by making a move, 2009 already by touching a
//!   piece (4.3). Nothing is touched in a signed record: a move is made when it is signed, so
//!   a claim comes with the written move (9.2a / 9.3a) or instead of it, and one signed after
//!   the claimant's own move is refused as not on move.
//! - **9.5**: the claimant "parará" (2005) or "podrá parar" (2009) both clocks: a signed claim
//!   is judged at its own time, with no interval for the clocks to run in.
//! - **10.2**: the claimant "parará" (2005) or "podrá parar" (2009) the clocks: stopping
//!   them costs the claimant nothing, so a signed 10.2 claim stops them under both texts
//!   until the arbiter rules. 10.2b's later decision "después de" (2005) or "lo antes posible
//!   después de" (2009) a flag fell sets no deadline a record could check.
//! - **9.1a** (2009): the rules of the competition may forbid agreed draws before a move;
//!   2005 has no such article, but a game's terms are agreed by both players
//!   (`Terms::no_draw_before_move`), so they apply under either text.
//!
//! Not judged: **6.7 (2005) / 6.6 (2009)**, the default time at the start of a session (one
//! hour, against 2009's zero unless the competition says otherwise). A game starts when the
//! acceptance reaches the first player to move: there is no scheduled start to be late for,
//! and a player who never moves loses on time (6.10 / 6.9) like any other. A scheduled start
//! with a default time is a competition's (a league round's) deadline. A10's hour at a
//! resumption is the same in both texts (`Terms::lateness_limit_ms`).

/// A text of the FIDE Laws of Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edition {
    /// In force from 1 July 2005 (seed 002).
    Fide2005,
    /// In force from 1 July 2009 (seed 003): the default of a game's terms.
    Fide2009,
}

impl Edition {
    /// The text a game is played under when nothing names another (the newest wins where the
    /// texts differ): games signed before terms named a text, and [`super::Game::new`].
    pub const PLAY: Edition = Edition::Fide2009;

    /// The article of a flag fall (a player who has not completed the prescribed moves in
    /// the allotted time loses, unless the opponent cannot mate): 6.10 in 2005, 6.9 in 2009.
    pub const fn flag_fall_article(self) -> &'static str {
        match self {
            Edition::Fide2005 => "6.10",
            Edition::Fide2009 => "6.9",
        }
    }

    /// The year of the text, for messages.
    pub const fn year(self) -> u16 {
        match self {
            Edition::Fide2005 => 2005,
            Edition::Fide2009 => 2009,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_fall_article_was_renumbered_from_6_10_to_6_9() {
        assert_eq!(Edition::Fide2005.flag_fall_article(), "6.10");
        assert_eq!(Edition::Fide2009.flag_fall_article(), "6.9");
        assert_eq!(Edition::PLAY, Edition::Fide2009);
    }
}
