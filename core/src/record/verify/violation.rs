//! What a signed event that breaks a rule broke: [`RuleViolation`] (the rules and the
//! protocol's own rules of a game, carried by [`VerifyError::Rule`]) and [`ChainBreak`] (an
//! author's scoresheet that is not one chain, carried by [`VerifyError::BrokenChain`]).
//!
//! Each variant is one rule, documented with the FIDE article it applies where there is one
//! ([`RuleViolation::article`] names it, so no caller reads it out of the words); the rules
//! that are the protocol's alone (who signs what, in which order) have none. A refusal that
//! comes from a verdict of [`crate::rules`] or of another typed check carries that error
//! rather than its words. The texts are part of what users and peers read (the CLI, a
//! peer's refusal on the wire): each variant's `Display` is the text `verify` has always
//! given.
//!
//! Serialized (tagged by `kind`, snake case) as the control API's refusal carries the kinds
//! a player meets, like the core's other errors (`{"kind":"out_of_turn","colour":"black"}`;
//! a wrapped Appendix A or 10.2 verdict names its rule beside the kind:
//! `{"kind":"quickplay","rule":"no_arbiter"}`). The kinds never sent are skipped: those
//! whose payload is not an object of its own (a bare number, a square, a parse error) and
//! those the refusal carries as their own error (the coin's and the escrow's).
//!
//! [`VerifyError::Rule`]: super::VerifyError::Rule
//! [`VerifyError::BrokenChain`]: super::VerifyError::BrokenChain

use super::state::Status;
use crate::clock::TimeControlError;
use crate::notation::fen::ParseFenError;
use crate::record::escrow::EscrowError;
use crate::rules::adjournment::AdjournmentRule;
use crate::rules::coin::CoinRule;
use crate::rules::quickplay::QuickplayRule;
use crate::types::{Color, Square};
use serde::{Deserialize, Serialize};

/// The rule a signed event breaks, for [`super::VerifyError::Rule`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RuleViolation {
    // --- The challenge (the protocol's terms of a game) ---
    /// A game is between two players; the protocol's rule.
    #[error("a player cannot challenge themselves")]
    SelfChallenge,
    /// The challenge's time control does not parse (the terms of Art. 6 the game is played
    /// under).
    #[error(transparent)]
    #[serde(skip)]
    TimeControl(TimeControlError),
    /// Colours or a Chess960 start drawn by lot (F1) need the challenger's coin commitment.
    #[error("random colours or a drawn Chess960 position need a coin commitment")]
    CoinCommitmentMissing,
    /// The challenge names a Chess960 start that is not one of F2's 960.
    #[error("Chess960 position {0} does not exist (0..959)")]
    #[serde(skip)]
    NoSuchChess960(u16),
    /// The challenge's FEN start does not read or is not a legal position.
    #[error("start position: {0}")]
    #[serde(skip)]
    StartPosition(ParseFenError),
    /// The challenge's terms cannot be agreed to (a player as timekeeper or arbiter, …).
    #[error("terms: {0}")]
    #[serde(skip)]
    Terms(crate::record::terms::TermsError),
    /// Under agreed terms an envelope's lateness limit is the terms' (A10): the sealer
    /// cannot set another.
    #[error(
        "the envelope names a lateness limit of {envelope_ms} ms, not the agreed {agreed_ms} ms \
         (A10): the sealer cannot set it"
    )]
    EnvelopeLateness { envelope_ms: u64, agreed_ms: u64 },

    // --- The order of a game's opening events (the protocol's) ---
    /// The challenge is the game's first event.
    #[error("the challenge must come first")]
    ChallengeNotFirst,
    /// Only the challenged player accepts a pending game, once.
    #[error("only the challenged player accepts, once")]
    AcceptNotAllowed,
    /// Only the challenged player declines a pending game.
    #[error("only the challenged player declines a pending game")]
    DeclineNotAllowed,
    /// Abort is before Black's first move (as lichess and chess.com); no FIDE article.
    #[error("a game can be aborted only before Black's first move")]
    AbortTooLate,
    /// Moves, offers, claims and seals wait for the colours (drawn by the coin, F1).
    #[error("colours are not settled yet (coin not opened)")]
    ColoursNotSettled,
    /// An offer, acceptance, resignation or claim in a game that is not going on.
    #[error("not possible in a {} game", status.name())]
    NotLive { status: Status },

    // --- The fair coin (F1: the start drawn by lot; colours by the same coin) ---
    /// F1: the acceptance of a game drawn by lot carries the opponent's share of the coin.
    #[error("the acceptance must carry a coin share")]
    AcceptWithoutShare,
    /// F1: there is no coin to open before an acceptance with a share.
    #[error("nothing to open: no accepted coin")]
    NoCoinToOpen,
    /// F1: the challenger opens the coin, once, while the game is pending.
    #[error("only the challenger opens the coin, once")]
    CoinOpenNotAllowed,
    /// F1: the opening is the secret the challenge committed to.
    #[error("the coin opening does not match its commitment")]
    CoinOpeningMismatch,
    /// F2: the coin drew a Chess960 number that is not a start position.
    #[error("no Chess960 position {0}")]
    #[serde(skip)]
    NoChess960Position(u16),
    /// F1: a coin default refused by [`crate::rules::coin::check_coin_default`] and its
    /// companions (the coin's deadline and the choices a default makes).
    #[error(transparent)]
    #[serde(skip)]
    Coin(CoinRule),

    // --- Moves (Arts. 1 and 3) ---
    /// 1.1: the players move alternately.
    #[error("out of turn: it is {}'s move", colour.name())]
    OutOfTurn { colour: Color },
    /// A move answers the opponent's last move, which its author signed as seen (the
    /// protocol's form of 1.1's "le toca mover cuando se ha realizado la jugada de su
    /// adversario").
    #[error("the move does not answer the opponent's last move (it was not seen)")]
    UnseenMove,
    /// Art. 3 (with 4.6: a move is legal when it meets Art. 3): not a legal move here.
    #[error("illegal move {from}{to} in {fen}")]
    #[serde(skip)]
    IllegalMove {
        /// The move's from-square as signed (clamped to the board).
        from: Square,
        /// The move's to-square as signed (clamped to the board).
        to: Square,
        /// The position it was played in.
        fen: String,
    },
    /// No move in a game that is pending, finished or cancelled.
    #[error("no move in a {} game", status.name())]
    NoMoveInStatus { status: Status },

    // --- Draws (Art. 9) ---
    /// 9.1: a draw offer is accepted or declined only when the opponent made one that stands.
    #[error("no standing draw offer from the opponent (9.1)")]
    NoDrawOffer,
    /// 9.1a: the agreed terms allow no draw by agreement before move `move_number`.
    #[error("no draw may be offered or agreed before move {move_number} (9.1a, the game's terms)")]
    DrawTooEarly { move_number: u32 },
    /// 9.2, 9.3: the move a claim announces must be legal.
    #[error("the intended move is illegal")]
    IntendedMoveIllegal,
    /// 9.2, 9.3: only the player to move claims a draw.
    #[error("only the player to move may claim a draw (9.2, 9.3)")]
    ClaimNotOnMove,
    /// A7: a draw claim on the board waits for the sealed move to be opened.
    #[error("the game is adjourned")]
    ClaimWhileAdjourned,

    // --- Adjourned games (Appendix A) ---
    /// A verdict of [`crate::rules::adjournment`] on a seal or an opening.
    #[error(transparent)]
    Adjournment(AdjournmentRule),
    /// A11 (without an arbiter): a sealed move signed binding (tag 17) is continued only by
    /// its opening, never by a move the sealer declares instead.
    #[error(
        "the sealed move is binding: the game continues only with the envelope's opening \
         (A11 without an arbiter's envelope)"
    )]
    SealedMoveBinding,
    /// A7: the adjourned game goes on only once the sealed move is opened.
    #[error("the game is adjourned: the sealed move is opened first (A7)")]
    OpenSealedMoveFirst,
    /// A9c (tag 10): a second envelope answers a sealed one.
    #[error("no envelope to answer")]
    NoEnvelopeToAnswer,
    /// A9c (tag 10): the second envelope is the responder's, and there is one.
    #[error("only the responder may seal a second envelope (A9c)")]
    SecondEnvelopeNotResponder,
    /// A9a (tag 10): with the sealer present, the envelope is opened.
    #[error("the sealer is present: the envelope is opened instead (A9a)")]
    SealerPresentOpens,
    /// A9c (tag 10): the second envelope is sealed at the resumption.
    #[error("a second envelope is sealed only at the resumption (A9c)")]
    SecondEnvelopeEarly,
    /// A1: only a game going on is adjourned.
    #[error("cannot seal in a {} game", .0.name())]
    #[serde(skip)]
    CannotSeal(Status),
    /// A1: the player to move seals.
    #[error("only the player to move seals (A1)")]
    SealNotOnMove,
    /// A2.1: the envelope names the game's players.
    #[error("the envelope names the wrong players (A2.1)")]
    EnvelopePlayers,
    /// A2.4: the envelope names its sealer.
    #[error("the envelope names another sealer (A2.4)")]
    EnvelopeSealer,
    /// A2.2: the envelope's position is the game's.
    #[error("the envelope's position {envelope:?} is not the game's {game:?} (A2.2)")]
    EnvelopePosition {
        /// The FEN the envelope gives.
        envelope: String,
        /// The game's position.
        game: String,
    },
    /// A2.5: the envelope's move number is the game's.
    #[error("the envelope's move number is wrong (A2.5)")]
    EnvelopeMoveNumber,
    /// A2.6: the envelope records the standing draw offer.
    #[error("the envelope's draw offer is wrong (A2.6)")]
    EnvelopeDrawOffer,
    /// A2.3: the envelope's times are the clocks' (protocol version 1; under version 2 the
    /// clocks stand corrected instead, A12).
    #[error("the envelope's times {envelope:?} are not the clocks' {clocks:?} (A2.3)")]
    EnvelopeTimes {
        /// The time used by White and Black, as the envelope gives it.
        envelope: [u64; 2],
        /// The time used by White and Black, as the clocks give it.
        clocks: [u64; 2],
    },

    // --- The arbiter's envelope (A3) and openings (A7, A9) ---
    /// A3: an escrow is of an envelope still closed.
    #[error("no sealed envelope to escrow (A3)")]
    NoEnvelopeToEscrow,
    /// A3: an escrow names the closed envelope by its seal.
    #[error("an escrow names the envelope still closed, by its seal (A3)")]
    EscrowWrongSeal,
    /// A3: the sealer hands their envelope to the arbiter.
    #[error("only the sealer escrows their envelope's opening (A3)")]
    EscrowNotSealer,
    /// A3: only a binding seal (tag 17) is escrowed.
    #[error("only a seal with its letters (wire tag 17) is escrowed (A3)")]
    EscrowNotBinding,
    /// A3: an envelope is in one arbiter's keeping.
    #[error("the envelope is already in an arbiter's keeping (A3)")]
    AlreadyEscrowed,
    /// A3: the arbiter is neither player (a player holding the opponent's sealed move would
    /// read it).
    #[error("the arbiter keeping an envelope is neither player (A3)")]
    ArbiterIsPlayer,
    /// A3 under agreed terms: the envelope is escrowed only with the arbiter both players
    /// agreed on (a key one side named would read the other's sealed move).
    #[error("the envelope may be kept only by the arbiter both players agreed on (A3)")]
    ArbiterNotAgreed,
    /// A3: the arbiter's key or the sealed box refused by [`crate::record::escrow`].
    #[error(transparent)]
    #[serde(skip)]
    Escrow(EscrowError),
    /// A7: an opening is of an envelope still closed.
    #[error("no sealed envelope to open")]
    NoEnvelopeToOpen,
    /// A7: the sealer opens their envelope.
    #[error("only the sealer opens their envelope")]
    OpenNotSealer,
    /// A3: the arbiter's opening names an envelope sealed in the game.
    #[error("no envelope was sealed by this seal")]
    NoSuchSeal,
    /// A3: the arbiter who opens is the one the envelope is escrowed to.
    #[error("only the arbiter the envelope is escrowed to opens it (A3)")]
    OpenNotArbiter,
    /// A7: the move opened is the one sealed (its commitment).
    #[error("the opening does not match the sealed commitment")]
    OpeningMismatch,
    /// A9c: a reply's envelope is opened after the sealed move's.
    #[error("envelopes are opened in the order they were sealed")]
    OpenedOutOfOrder,

    // --- A lost envelope (A11; club rules art. 16.5) ---
    /// A11: a declared sealed move, its acceptance and an annulment (wire tags 22 to 24)
    /// need an arbiter the players agreed on, so they belong to games on agreed terms
    /// (protocol version 3); a game signed under an older version keeps the rules it was
    /// signed under.
    #[error(
        "a declared sealed move or an annulment (A11) needs a game on agreed terms (protocol \
         version 3), not one signed under version {version}"
    )]
    A11NeedsAgreedTerms {
        /// The version the game's challenge was signed under.
        version: u16,
    },
    /// A11.1: a declaration is of a binding sealed move (tag 17) whose envelope is still
    /// closed while the game is adjourned.
    #[error("no binding sealed move is closed in an adjourned game: nothing to declare (A11.1)")]
    NoSealedMoveToDeclare,
    /// A11.1: the player who sealed the move declares it.
    #[error("only the player who sealed the move declares it (A11.1)")]
    DeclareNotSealer,
    /// A11.1: a sealed move is declared once; a second declaration would let the sealer
    /// offer moves until one is accepted.
    #[error("the sealed move has already been declared (A11.1)")]
    AlreadyDeclared,
    /// A11.1: an envelope that was opened is not lost: its move stands.
    #[error("the envelope was opened: its sealed move stands and none is declared (A11.1)")]
    DeclaredAfterOpening,
    /// A11.1: an acceptance names a declaration made in the game.
    #[error("no declared sealed move with this id in the game (A11.1)")]
    UnknownDeclaration,
    /// A11.1: the sealer's word alone never replaces the envelope: the responder, or the
    /// arbiter both players agreed on, accepts the declared move.
    #[error("only the responder or the agreed arbiter accepts a declared sealed move (A11.1)")]
    AcceptDeclarationNotAllowed,
    /// A11.2 (club rules art. 16.5): a game is annulled only while the position cannot be
    /// re-established: adjourned, with a binding envelope unopened.
    #[error(
        "a game is annulled only while it is adjourned with a binding envelope unopened (A11.2)"
    )]
    NothingToAnnul,
    /// A11.2: the agreed arbiter annuls, or both players do.
    #[error("only the agreed arbiter, or both players, annul a game (A11.2)")]
    AnnulNotAllowed,

    // --- A quickplay finish (10.2, Appendix D) ---
    /// A verdict of [`crate::rules::quickplay`] on a 10.2 claim or the arbiter's ruling.
    #[error(transparent)]
    Quickplay(QuickplayRule),
}

impl RuleViolation {
    /// The FIDE article the rule applies — the first one the text names when it names
    /// several — or `None` for the protocol's own rules (who signs what, and when).
    pub fn article(&self) -> Option<&'static str> {
        use RuleViolation as V;
        Some(match self {
            V::SelfChallenge
            | V::TimeControl(_)
            | V::StartPosition(_)
            | V::Terms(_)
            | V::ChallengeNotFirst
            | V::AcceptNotAllowed
            | V::DeclineNotAllowed
            | V::AbortTooLate
            | V::ColoursNotSettled
            | V::NotLive { .. }
            | V::NoMoveInStatus { .. } => return None,
            V::CoinCommitmentMissing
            | V::AcceptWithoutShare
            | V::NoCoinToOpen
            | V::CoinOpenNotAllowed
            | V::CoinOpeningMismatch
            | V::Coin(_) => "F1",
            V::NoSuchChess960(_) | V::NoChess960Position(_) => "F2",
            V::OutOfTurn { .. } | V::UnseenMove => "1.1",
            V::IllegalMove { .. } => "3",
            V::NoDrawOffer => "9.1",
            V::DrawTooEarly { .. } => "9.1a",
            V::IntendedMoveIllegal | V::ClaimNotOnMove => "9.2",
            V::Adjournment(rule) => adjournment_article(*rule),
            V::CannotSeal(_) | V::SealNotOnMove => "A1",
            V::EnvelopePlayers => "A2.1",
            V::EnvelopePosition { .. } => "A2.2",
            V::EnvelopeTimes { .. } => "A2.3",
            V::EnvelopeSealer => "A2.4",
            V::EnvelopeLateness { .. } => "A10",
            V::EnvelopeMoveNumber => "A2.5",
            V::EnvelopeDrawOffer => "A2.6",
            V::NoEnvelopeToEscrow
            | V::EscrowWrongSeal
            | V::EscrowNotSealer
            | V::EscrowNotBinding
            | V::AlreadyEscrowed
            | V::ArbiterIsPlayer
            | V::ArbiterNotAgreed
            | V::Escrow(_)
            | V::NoSuchSeal
            | V::OpenNotArbiter => "A3",
            V::ClaimWhileAdjourned
            | V::OpenSealedMoveFirst
            | V::NoEnvelopeToOpen
            | V::OpenNotSealer
            | V::OpeningMismatch => "A7",
            V::SealerPresentOpens => "A9a",
            V::NoEnvelopeToAnswer
            | V::SecondEnvelopeNotResponder
            | V::SecondEnvelopeEarly
            | V::OpenedOutOfOrder => "A9c",
            V::SealedMoveBinding | V::A11NeedsAgreedTerms { .. } => "A11",
            V::NoSealedMoveToDeclare
            | V::DeclareNotSealer
            | V::AlreadyDeclared
            | V::DeclaredAfterOpening
            | V::UnknownDeclaration
            | V::AcceptDeclarationNotAllowed => "A11.1",
            V::NothingToAnnul | V::AnnulNotAllowed => "A11.2",
            V::Quickplay(rule) => rule.article(),
        })
    }
}

/// The article of an Appendix A verdict: the first its text names.
fn adjournment_article(rule: AdjournmentRule) -> &'static str {
    use AdjournmentRule as R;
    match rule {
        R::NoResumptionTime | R::ResumptionTooFar | R::BeforeResumption | R::ReplyResumption => {
            "A2.7"
        }
        R::Correspondence => "A1",
        R::ResponderAbsent | R::NotTheSealer => "A7",
        R::SealerPresent => "A9a",
        R::ReplyOnlyByResponder
        | R::ReplyBeforeOpening
        | R::ReplyAlreadySealed
        | R::ReplyAfterAnswer
        | R::SealerNotArrived => "A9c",
    }
}

impl From<QuickplayRule> for RuleViolation {
    fn from(rule: QuickplayRule) -> RuleViolation {
        RuleViolation::Quickplay(rule)
    }
}

impl From<AdjournmentRule> for RuleViolation {
    fn from(rule: AdjournmentRule) -> RuleViolation {
        RuleViolation::Adjournment(rule)
    }
}

impl From<CoinRule> for RuleViolation {
    fn from(rule: CoinRule) -> RuleViolation {
        RuleViolation::Coin(rule)
    }
}

impl From<EscrowError> for RuleViolation {
    fn from(error: EscrowError) -> RuleViolation {
        RuleViolation::Escrow(error)
    }
}

impl From<TimeControlError> for RuleViolation {
    fn from(error: TimeControlError) -> RuleViolation {
        RuleViolation::TimeControl(error)
    }
}

/// Why an author's events are not one scoresheet, for [`super::VerifyError::BrokenChain`].
/// A scoresheet is kept move by move (Art. 8.1); here each signed event names the one
/// before it, and these are the protocol's rules of that chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChainBreak {
    /// The event at `seq` does not name the author's event before it as its `prev`.
    #[error("seq {seq} does not follow the author's event {previous}")]
    NotAfterPrevious {
        /// The event's sequence number.
        seq: u64,
        /// The sequence number of the event it should follow.
        previous: u64,
    },
    /// The challenger's scoresheet begins with the challenge.
    #[error("the challenge must be the challenger's first event")]
    ChallengeNotFirst,
    /// `prev` and `seen` form a cycle (impossible unless SHA-256 is broken).
    #[error("events refer to each other in a cycle")]
    Cycle,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of each variant of [`RuleViolation`] (with wrapped rules of each kind).
    fn samples() -> Vec<RuleViolation> {
        use RuleViolation as V;
        let sq = |s: &str| Square::parse(s).expect("a square");
        vec![
            V::SelfChallenge,
            V::TimeControl("3x".parse::<crate::clock::TimeControl>().unwrap_err()),
            V::CoinCommitmentMissing,
            V::NoSuchChess960(960),
            V::StartPosition(crate::Position::from_fen_auto("8/8").unwrap_err()),
            V::Terms(crate::record::terms::TermsError::TooManyTimekeepers(5)),
            V::EnvelopeLateness {
                envelope_ms: 0,
                agreed_ms: 3_600_000,
            },
            V::ChallengeNotFirst,
            V::AcceptNotAllowed,
            V::DeclineNotAllowed,
            V::AbortTooLate,
            V::ColoursNotSettled,
            V::NotLive {
                status: Status::Finished,
            },
            V::AcceptWithoutShare,
            V::NoCoinToOpen,
            V::CoinOpenNotAllowed,
            V::CoinOpeningMismatch,
            V::NoChess960Position(999),
            V::Coin(CoinRule::NotTheOpponent),
            V::OutOfTurn {
                colour: Color::Black,
            },
            V::UnseenMove,
            V::IllegalMove {
                from: sq("e2"),
                to: sq("e5"),
                fen: crate::Position::new().fen(),
            },
            V::NoMoveInStatus {
                status: Status::Pending,
            },
            V::NoDrawOffer,
            V::DrawTooEarly { move_number: 30 },
            V::IntendedMoveIllegal,
            V::ClaimNotOnMove,
            V::ClaimWhileAdjourned,
            V::Adjournment(AdjournmentRule::BeforeResumption),
            V::Adjournment(AdjournmentRule::SealerPresent),
            V::SealedMoveBinding,
            V::OpenSealedMoveFirst,
            V::NoEnvelopeToAnswer,
            V::SecondEnvelopeNotResponder,
            V::SealerPresentOpens,
            V::SecondEnvelopeEarly,
            V::CannotSeal(Status::Adjourned),
            V::SealNotOnMove,
            V::EnvelopePlayers,
            V::EnvelopeSealer,
            V::EnvelopePosition {
                envelope: "8/8".into(),
                game: "k7".into(),
            },
            V::EnvelopeMoveNumber,
            V::EnvelopeDrawOffer,
            V::EnvelopeTimes {
                envelope: [1, 2],
                clocks: [3, 4],
            },
            V::NoEnvelopeToEscrow,
            V::EscrowWrongSeal,
            V::EscrowNotSealer,
            V::EscrowNotBinding,
            V::AlreadyEscrowed,
            V::ArbiterIsPlayer,
            V::ArbiterNotAgreed,
            V::Escrow(EscrowError::BoxSize { len: 3 }),
            V::NoEnvelopeToOpen,
            V::OpenNotSealer,
            V::NoSuchSeal,
            V::OpenNotArbiter,
            V::OpeningMismatch,
            V::OpenedOutOfOrder,
            V::A11NeedsAgreedTerms { version: 2 },
            V::NoSealedMoveToDeclare,
            V::DeclareNotSealer,
            V::AlreadyDeclared,
            V::DeclaredAfterOpening,
            V::UnknownDeclaration,
            V::AcceptDeclarationNotAllowed,
            V::NothingToAnnul,
            V::AnnulNotAllowed,
            V::Quickplay(QuickplayRule::NoArbiter),
            V::Quickplay(QuickplayRule::NotQuickplayFinish),
            V::Quickplay(QuickplayRule::NotOnMove),
            V::Quickplay(QuickplayRule::Blitz),
            V::Quickplay(QuickplayRule::TimeLeft {
                remaining_ms: 120_000,
            }),
            V::Quickplay(QuickplayRule::ClaimOpen),
            V::Quickplay(QuickplayRule::AwaitingRuling),
            V::Quickplay(QuickplayRule::NotTheArbiter),
            V::Quickplay(QuickplayRule::NoSuchClaim),
            V::Quickplay(QuickplayRule::RulingUnseen),
            V::Quickplay(QuickplayRule::AlreadyRuled),
            V::Quickplay(QuickplayRule::AlreadyPostponed),
        ]
    }

    /// The words are what `verify` always said (the CLI prints them and a peer's refusal
    /// carries them): the ones with values, exactly.
    #[test]
    fn texts_with_values_are_the_old_words() {
        use RuleViolation as V;
        let illegal = V::IllegalMove {
            from: Square::parse("e2").expect("e2"),
            to: Square::parse("e5").expect("e5"),
            fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
        };
        let cases = [
            (illegal, "illegal move e2e5 in 8/8/8/8/8/8/8/K6k w - - 0 1"),
            (
                V::OutOfTurn {
                    colour: Color::White,
                },
                "out of turn: it is white's move",
            ),
            (
                V::NoMoveInStatus {
                    status: Status::Pending,
                },
                "no move in a pending game",
            ),
            (
                V::NotLive {
                    status: Status::Finished,
                },
                "not possible in a finished game",
            ),
            (
                V::CannotSeal(Status::Adjourned),
                "cannot seal in a adjourned game",
            ),
            (
                V::NoSuchChess960(960),
                "Chess960 position 960 does not exist (0..959)",
            ),
            (V::NoChess960Position(999), "no Chess960 position 999"),
            (
                V::EnvelopePosition {
                    envelope: "a".into(),
                    game: "b".into(),
                },
                "the envelope's position \"a\" is not the game's \"b\" (A2.2)",
            ),
            (
                V::EnvelopeTimes {
                    envelope: [1, 2],
                    clocks: [3, 4],
                },
                "the envelope's times [1, 2] are not the clocks' [3, 4] (A2.3)",
            ),
        ];
        for (v, text) in cases {
            assert_eq!(v.to_string(), text);
        }
        assert_eq!(
            ChainBreak::NotAfterPrevious {
                seq: 3,
                previous: 2
            }
            .to_string(),
            "seq 3 does not follow the author's event 2"
        );
    }

    /// A wrapped verdict says what its own type says; a FEN start keeps its prefix.
    #[test]
    fn wrapped_rules_keep_their_own_words() {
        let fen = crate::Position::from_fen_auto("8/8").unwrap_err();
        assert_eq!(
            RuleViolation::StartPosition(fen.clone()).to_string(),
            format!("start position: {fen}")
        );
        let tc = "3x".parse::<crate::clock::TimeControl>().unwrap_err();
        assert_eq!(RuleViolation::from(tc.clone()).to_string(), tc.to_string());
        let coin = CoinRule::BeforeDeadline { deadline_ms: 7 };
        assert_eq!(RuleViolation::from(coin).to_string(), coin.to_string());
        let a = AdjournmentRule::ReplyResumption;
        assert_eq!(RuleViolation::from(a).to_string(), a.to_string());
        let e = EscrowError::LowOrder;
        assert_eq!(RuleViolation::from(e.clone()).to_string(), e.to_string());
    }

    /// When the words name an article, `article` gives the first one they name; the rules
    /// that name none are the protocol's, or cite theirs in the docs only.
    #[test]
    fn the_article_is_the_first_the_words_name() {
        for v in samples() {
            let text = v.to_string();
            let named = text
                .match_indices('(')
                .map(|(i, _)| &text[i + 1..])
                .find(|rest| {
                    rest.starts_with(|c: char| c.is_ascii_digit()) && !rest.starts_with("0..")
                        || rest.starts_with('A')
                            && rest[1..].starts_with(|c: char| c.is_ascii_digit())
                        || rest.starts_with("Appendix A")
                });
            let Some(rest) = named else { continue };
            let rest = rest.trim_start_matches("Appendix ");
            let article = v
                .article()
                .unwrap_or_else(|| panic!("{v:?} names one: {text}"));
            assert!(rest.starts_with(article), "{v:?}: {article} for {text}");
        }
    }

    /// The wire form the control API's refusals carry: tagged by `kind`, a wrapped verdict's
    /// rule beside it; every kind that is not skipped reads back as itself, and the skipped
    /// ones (never sent) refuse to be written rather than be written wrong.
    #[test]
    fn the_wire_form_is_tagged_by_kind() {
        use RuleViolation as V;
        let cases = [
            (V::NoDrawOffer, r#"{"kind":"no_draw_offer"}"#),
            (
                V::OutOfTurn {
                    colour: Color::Black,
                },
                r#"{"kind":"out_of_turn","colour":"black"}"#,
            ),
            (
                V::NotLive {
                    status: Status::Finished,
                },
                r#"{"kind":"not_live","status":"finished"}"#,
            ),
            (
                V::A11NeedsAgreedTerms { version: 2 },
                r#"{"kind":"a11_needs_agreed_terms","version":2}"#,
            ),
            (
                V::Adjournment(AdjournmentRule::ResponderAbsent),
                r#"{"kind":"adjournment","rule":"responder_absent"}"#,
            ),
            (
                V::Quickplay(QuickplayRule::TimeLeft {
                    remaining_ms: 125_000,
                }),
                r#"{"kind":"quickplay","rule":"time_left","remaining_ms":125000}"#,
            ),
        ];
        for (v, wire) in cases {
            assert_eq!(serde_json::to_string(&v).unwrap(), wire);
            assert_eq!(serde_json::from_str::<RuleViolation>(wire).unwrap(), v);
        }
        for v in samples() {
            let skipped = matches!(
                v,
                V::TimeControl(_)
                    | V::NoSuchChess960(_)
                    | V::StartPosition(_)
                    | V::Terms(_)
                    | V::NoChess960Position(_)
                    | V::Coin(_)
                    | V::IllegalMove { .. }
                    | V::CannotSeal(_)
                    | V::Escrow(_)
            );
            match serde_json::to_string(&v) {
                Ok(json) => {
                    assert!(!skipped, "{v:?} is written: {json}");
                    let back: RuleViolation = serde_json::from_str(&json).unwrap();
                    assert_eq!(back, v, "{json}");
                }
                Err(_) => assert!(skipped, "{v:?} is not written"),
            }
        }
    }

    #[test]
    fn rules_with_an_article() {
        use RuleViolation as V;
        assert_eq!(V::ClaimNotOnMove.article(), Some("9.2"));
        assert_eq!(V::EnvelopeSealer.article(), Some("A2.4"));
        assert_eq!(V::SealedMoveBinding.article(), Some("A11"));
        assert_eq!(
            V::Adjournment(AdjournmentRule::SealerNotArrived).article(),
            Some("A9c")
        );
        assert_eq!(V::Coin(CoinRule::AlreadySettled).article(), Some("F1"));
        assert_eq!(V::SelfChallenge.article(), None);
        assert_eq!(V::AbortTooLate.article(), None);
    }
}
