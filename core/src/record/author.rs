//! The authoring side of a scoresheet: the one way nodes, tests and benchmarks sign events.
//!
//! A [`Scoresheet`] holds a player's key and the head of their log for one game (next `seq`,
//! the id of the last event for `prev`, the latest verified opponent event for `seen`), and
//! turns an [`EventKind`] into a signed, chained [`SignedEvent`].
//!
//! **Never two events at one seq.** Two different signed events with the same
//! `(author, seq)` are an *equivocation*: the verifier keeps both as proof against the
//! author, who loses the game (12.8; docs/rules.md). So a scoresheet is not
//! `Clone`, the sequence number only moves forward (it advances after every successful
//! signature, and an error leaves the sheet untouched with nothing signed), and the only
//! way to rewind is [`Scoresheet::resume`], whose caller (the node restoring from disk)
//! vouches that the state it hands in is the newest it has.

use super::codec::CodecError;
use super::commit;
use super::event::TERMLESS_VERSION;
use super::event::{
    Accept, Challenge, Claim, ClaimReason, CoinColour, EVENT_VERSION, Envelope, Event, EventId,
    EventKind, GameId, QuickplayRuling, Reveal, Seal, SealLetters, SignedEvent, WireMove,
};
use super::identity::{Keypair, PlayerId};
use super::terms::Terms;
use crate::types::Move;
use serde::{Deserialize, Serialize};

/// A player's (or witness's) own log for one game, ready to sign its next event.
///
/// Deliberately not `Clone`: two copies could sign different events at the same `seq`,
/// which is an equivocation (see the [module docs](self)).
///
/// # Examples
///
/// ```
/// use sobre_core::record::{Challenge, ColourChoice, Keypair, Scoresheet, StartPosition};
/// use sobre_core::{Move, MoveKind, Square};
///
/// let white = Keypair::from_secret_bytes(&[1; 32]);
/// let black = Keypair::from_secret_bytes(&[2; 32]);
/// let terms = Challenge {
///     opponent: black.player_id(),
///     colour: ColourChoice::ChallengerWhite,
///     time_control: "3d".into(),
///     start: StartPosition::Standard,
///     coin_commitment: None,
///     league: None,
/// };
/// let (mut mine, challenge) = Scoresheet::challenge(white, terms, 1_000)?;
/// let mut theirs = Scoresheet::join(black, challenge.id());
/// theirs.saw(challenge.id());
/// let accept = theirs.accept(None, 2_000)?;
///
/// mine.saw(accept.id());
/// let e4 = mine.play(Move::new(Square::new(12), Square::new(28), MoveKind::Normal), 3_000)?;
/// let verified = e4.verify()?;
/// assert_eq!(verified.event.seq, 1);
/// assert_eq!(verified.event.prev, Some(challenge.id()));
/// assert_eq!(verified.event.seen, Some(accept.id()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Scoresheet {
    key: Keypair,
    game: GameId,
    next_seq: u64,
    last: Option<EventId>,
    seen: Option<EventId>,
}

/// The opening of a sealed move (FIDE Appendix A): the move as written and the salt.
///
/// Kept by the sealer's node, never sent before resumption; [`Scoresheet::reveal`] turns it
/// into the reveal event. The salt is what keeps the commitment hiding: treat it as secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealOpening {
    /// The sealed move exactly as the player wrote it (A1, A8 are decided on this text).
    pub move_text: String,
    /// The 32 random bytes (from the node's RNG) the commitment was computed with.
    pub salt: [u8; 32],
}

impl Scoresheet {
    /// Signs a challenge (seq 0, no game, no `prev`, no `seen`) and returns the scoresheet
    /// that continues it: its game id is the id of the challenge.
    ///
    /// # Errors
    /// Only if the event cannot be encoded (never for well-formed events).
    pub fn challenge(
        key: Keypair,
        challenge: Challenge,
        time_ms: u64,
    ) -> Result<(Scoresheet, SignedEvent), CodecError> {
        Scoresheet::challenge_under(key, challenge, time_ms, TERMLESS_VERSION)
    }

    /// [`Scoresheet::challenge`] under an older protocol `version` (a game is judged under its
    /// challenge's version): only for reproducing archives signed by older nodes in tests
    /// and tools; a node always challenges under [`EVENT_VERSION`].
    ///
    /// # Errors
    /// As [`Scoresheet::challenge`].
    #[doc(hidden)]
    pub fn challenge_under(
        key: Keypair,
        challenge: Challenge,
        time_ms: u64,
        version: u16,
    ) -> Result<(Scoresheet, SignedEvent), CodecError> {
        Scoresheet::invite(key, EventKind::Challenge(challenge), time_ms, version)
    }

    /// Signs a challenge on agreed `terms` (wire tag 21, protocol version 3): the timekeepers,
    /// the arbiter, the edition of the Laws and the adjournment terms the acceptance
    /// countersigns. Otherwise as [`Scoresheet::challenge`].
    ///
    /// # Errors
    /// As [`Scoresheet::challenge`].
    pub fn challenge_on_terms(
        key: Keypair,
        challenge: Challenge,
        terms: Terms,
        time_ms: u64,
    ) -> Result<(Scoresheet, SignedEvent), CodecError> {
        Scoresheet::invite(
            key,
            EventKind::ChallengeOnTerms { challenge, terms },
            time_ms,
            EVENT_VERSION,
        )
    }

    fn invite(
        key: Keypair,
        kind: EventKind,
        time_ms: u64,
        version: u16,
    ) -> Result<(Scoresheet, SignedEvent), CodecError> {
        let event = Event {
            version,
            game: None,
            author: key.player_id(),
            seq: 0,
            prev: None,
            seen: None,
            time_ms,
            kind,
        };
        let signed = SignedEvent::sign(&event, &key)?;
        let id = signed.id();
        let sheet = Scoresheet {
            key,
            game: id,
            next_seq: 1,
            last: Some(id),
            seen: None,
        };
        Ok((sheet, signed))
    }

    /// A new, empty log in `game` (the challenge's id): the opponent's, or a witness's.
    /// Its first event has seq 0 and no `prev`. Call [`Scoresheet::saw`] with the challenge
    /// id before accepting, so the acceptance names what it accepts.
    pub fn join(key: Keypair, game: GameId) -> Scoresheet {
        Scoresheet::resume(key, game, 0, None, None)
    }

    /// Continues an existing log, as restored from disk: the next event gets `next_seq`,
    /// `prev = last` and `seen`.
    ///
    /// The caller vouches that this is the newest state of the log: resuming from an older
    /// one would sign a second event at an already used seq (an equivocation). `next_seq`
    /// is 0 exactly when `last` is `None`; otherwise the events signed do not chain and are
    /// rejected by verification.
    pub fn resume(
        key: Keypair,
        game: GameId,
        next_seq: u64,
        last: Option<EventId>,
        seen: Option<EventId>,
    ) -> Scoresheet {
        Scoresheet {
            key,
            game,
            next_seq,
            last,
            seen,
        }
    }

    /// Records the latest opponent event this node has verified: it becomes the `seen` of
    /// every following event until the next call. A move answers the opponent move named
    /// in `seen`, so call this before [`Scoresheet::play`].
    pub fn saw(&mut self, id: EventId) {
        self.seen = Some(id);
    }

    /// The seq the next event will carry.
    pub fn seq(&self) -> u64 {
        self.next_seq
    }

    /// The id of the last event signed in this log (the next event's `prev`).
    pub fn last(&self) -> Option<EventId> {
        self.last
    }

    /// The latest opponent event recorded with [`Scoresheet::saw`] (the next event's `seen`).
    pub fn seen(&self) -> Option<EventId> {
        self.seen
    }

    /// The game this log belongs to (the id of its challenge).
    pub fn game(&self) -> GameId {
        self.game
    }

    /// The author of this log.
    pub fn player(&self) -> PlayerId {
        self.key.player_id()
    }

    /// Signs the next event of this log and advances it (`seq + 1`, `prev` = this event).
    ///
    /// # Errors
    /// Only if the event cannot be encoded (never for well-formed events), or if the log is
    /// full (the next seq is `u64::MAX`, after which no seq would be left: only reachable
    /// through a corrupt [`Scoresheet::resume`]). On error nothing is signed and the sheet is
    /// unchanged.
    pub fn append(&mut self, kind: EventKind, time_ms: u64) -> Result<SignedEvent, CodecError> {
        // Checked before signing: the seq after this one must exist, since wrapping back to
        // 0 would sign a second event at a used seq (an equivocation).
        let after = self.next_seq.checked_add(1).ok_or_else(|| {
            CodecError::Malformed("scoresheet full: no seq after u64::MAX".to_owned())
        })?;
        let event = Event {
            version: EVENT_VERSION,
            game: Some(self.game),
            author: self.key.player_id(),
            seq: self.next_seq,
            prev: self.last,
            seen: self.seen,
            time_ms,
            kind,
        };
        let signed = SignedEvent::sign(&event, &self.key)?;
        self.next_seq = after;
        self.last = Some(signed.id());
        Ok(signed)
    }

    /// Accepts the challenge (with the opponent's share of the fair coin in clear, if the
    /// challenge committed to one).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn accept(
        &mut self,
        coin_share: Option<[u8; 32]>,
        time_ms: u64,
    ) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::Accept(Accept { coin_share }), time_ms)
    }

    /// Declines the challenge.
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn decline(&mut self, reason: &str, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(
            EventKind::Decline {
                reason: reason.to_owned(),
            },
            time_ms,
        )
    }

    /// Aborts the game (before Black's first move).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn abort(&mut self, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::Abort, time_ms)
    }

    /// Plays a move (FIDE Art. 3) in answer to the opponent event last [`Scoresheet::saw`].
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn play(&mut self, m: Move, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::Move(WireMove::from_move(m)), time_ms)
    }

    /// Offers a draw (FIDE 9.1).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn offer_draw(&mut self, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::DrawOffer, time_ms)
    }

    /// Accepts the opponent's standing draw offer.
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn accept_draw(&mut self, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::DrawAccept, time_ms)
    }

    /// Declines the opponent's standing draw offer.
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn decline_draw(&mut self, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::DrawDecline, time_ms)
    }

    /// Resigns (FIDE 5.1b).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn resign(&mut self, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::Resign, time_ms)
    }

    /// Claims a draw or a win, optionally with the move the claimant intends to play
    /// (9.2a, 9.3a).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn claim(
        &mut self,
        reason: ClaimReason,
        intended: Option<Move>,
        time_ms: u64,
    ) -> Result<SignedEvent, CodecError> {
        let intended = intended.map(WireMove::from_move);
        self.append(EventKind::Claim(Claim { reason, intended }), time_ms)
    }

    /// Seals a move (FIDE Appendix A1/A2): signs the commitment to `move_text` (as written,
    /// in `letters`: App. E2/E3) with `salt` for `ply`, and the envelope; returns the event
    /// and the opening to keep until resumption. The letters are signed in the seal, so the
    /// opening is read in them: a Spanish `Rd2` stays a king move wherever a rook could also
    /// reach d2.
    ///
    /// `salt` must be 32 fresh random bytes from the node (the core has no randomness);
    /// `envelope.sealer` should be this sheet's player.
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn seal(
        &mut self,
        move_text: &str,
        letters: SealLetters,
        salt: [u8; 32],
        envelope: Envelope,
        ply: u32,
        time_ms: u64,
    ) -> Result<(SignedEvent, SealOpening), CodecError> {
        let commitment = commit::seal_commitment(&self.game, ply, &self.player(), move_text, &salt);
        let signed = self.append(
            EventKind::SealIn {
                letters,
                seal: Seal {
                    commitment,
                    envelope,
                },
            },
            time_ms,
        )?;
        let opening = SealOpening {
            move_text: move_text.to_owned(),
            salt,
        };
        Ok((signed, opening))
    }

    /// Says "I am at the board" at resumption (A7, A9, A10).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn presence(&mut self, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::Presence, time_ms)
    }

    /// Opens the sealer's envelope.
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn reveal(
        &mut self,
        opening: &SealOpening,
        time_ms: u64,
    ) -> Result<SignedEvent, CodecError> {
        self.append(
            EventKind::Reveal(Reveal {
                move_text: opening.move_text.clone(),
                salt: opening.salt,
            }),
            time_ms,
        )
    }

    /// Escrows the opening of the seal `seal` (just signed by this sheet) with `arbiter`
    /// (A3): `sealed_box` is [`super::escrow::seal_box`] of the opening for that seal and
    /// arbiter. Sign it right after the seal, before anything is sent.
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn escrow(
        &mut self,
        seal: EventId,
        arbiter: PlayerId,
        sealed_box: Vec<u8>,
        time_ms: u64,
    ) -> Result<SignedEvent, CodecError> {
        self.append(
            EventKind::Escrow {
                seal,
                arbiter,
                sealed_box,
            },
            time_ms,
        )
    }

    /// The arbiter opens the envelope of `seal` with the opening it holds in escrow (A9).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn arbiter_open(
        &mut self,
        seal: EventId,
        opening: &SealOpening,
        time_ms: u64,
    ) -> Result<SignedEvent, CodecError> {
        self.append(
            EventKind::ArbiterOpen {
                seal,
                move_text: opening.move_text.clone(),
                salt: opening.salt,
            },
            time_ms,
        )
    }

    /// Declares the move this sheet's player sealed, having lost the opening of their
    /// binding seal (wire tag 22, A11.1): "ejecuta sobre el tablero la jugada que declara
    /// ser la que selló". It does nothing until the responder or the agreed arbiter accepts
    /// it ([`Scoresheet::accept_declared_move`]); once per envelope, while it is closed, in
    /// a game on agreed terms (protocol version 3).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn declare_sealed_move(
        &mut self,
        declared: Move,
        time_ms: u64,
    ) -> Result<SignedEvent, CodecError> {
        self.append(
            EventKind::DeclareSealedMove {
                mv: WireMove::from_move(declared),
            },
            time_ms,
        )
    }

    /// Accepts the opponent's declared sealed move `declared` (wire tag 23, A11.1), as the
    /// responder or as the game's agreed arbiter: the move is played as the envelope's
    /// opening would be, so sign it when the envelope could be opened (A7 with A2.7). Call
    /// [`Scoresheet::saw`] with the declaration (or a later event of its author) first, so
    /// that the acceptance follows what it accepts.
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn accept_declared_move(
        &mut self,
        declared: EventId,
        time_ms: u64,
    ) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::AcceptDeclaredMove { declared }, time_ms)
    }

    /// Annuls the game (wire tag 24, A11.2; club rules art. 16.5): the adjourned position
    /// cannot be re-established, so a new game is to be played. Signed by the agreed arbiter
    /// it annuls the game; signed by a player it is their half of the players' agreement,
    /// and the game is annulled when both have signed one. Only while the game is adjourned
    /// with a binding envelope unopened, in a game on agreed terms (protocol version 3).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn annul_game(&mut self, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::AnnulGame, time_ms)
    }

    /// Claims a draw in a quickplay finish (wire tag 25, FIDE 10.2; Appendix D): the player to
    /// move, with less than two minutes left in the final period of an over-the-board control
    /// without increment, before their flag falls. It stops the clocks until the game's
    /// agreed arbiter rules ([`Scoresheet::rule_quickplay`]) and stands as a draw offer (9.1b
    /// of 2009, 9.1c of 2005).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn quickplay_claim(&mut self, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::QuickplayClaim, time_ms)
    }

    /// The agreed arbiter's decision on the 10.2 claim `claim` (wire tag 26, 10.2a–d): a
    /// draw, a postponement (with or without two extra minutes for the opponent) or a
    /// rejection (two extra minutes for the opponent). Call [`Scoresheet::saw`] with the
    /// claim (or a later event) first: the arbiter rules on a claim they received.
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn rule_quickplay(
        &mut self,
        claim: EventId,
        ruling: QuickplayRuling,
        time_ms: u64,
    ) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::QuickplayRuling { claim, ruling }, time_ms)
    }

    /// Signs a receipt: this node received and verified event `of`.
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn receipt(&mut self, of: EventId, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::Receipt { event: of }, time_ms)
    }

    /// Sends a chat line.
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn chat(&mut self, text: &str, time_ms: u64) -> Result<SignedEvent, CodecError> {
        self.append(
            EventKind::Chat {
                text: text.to_owned(),
            },
            time_ms,
        )
    }

    /// Takes leave (vacation): the author's clock stops in `[from_ms, until_ms)`.
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn leave(
        &mut self,
        from_ms: u64,
        until_ms: u64,
        time_ms: u64,
    ) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::Leave { from_ms, until_ms }, time_ms)
    }

    /// Opens the challenger's share of the fair coin (committed to in the challenge).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn random_reveal(
        &mut self,
        secret: [u8; 32],
        time_ms: u64,
    ) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::RandomReveal { secret }, time_ms)
    }

    /// Settles a fair coin the challenger has not opened within the deadline
    /// (`rules::coin`): the colour the author (the challenged player) takes and the Chess960
    /// start, each exactly when the challenge left it to the coin (F1).
    ///
    /// # Errors
    /// As [`Scoresheet::append`].
    pub fn coin_default(
        &mut self,
        colour: Option<CoinColour>,
        position: Option<u16>,
        time_ms: u64,
    ) -> Result<SignedEvent, CodecError> {
        self.append(EventKind::CoinDefault { colour, position }, time_ms)
    }
}

#[cfg(test)]
#[path = "author_tests.rs"]
mod tests;
