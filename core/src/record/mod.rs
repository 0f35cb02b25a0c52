//! Signed scoresheets: identities, the wire format of events, commitments, and `verify`,
//! the one function every node, the CLI and any third party use to decide what happened.

pub mod author;
pub mod codec;
pub mod commit;
pub mod equivocation;
pub mod escrow;
pub mod event;
pub mod export;
pub mod identity;
pub mod profile;
pub mod terms;
pub mod time;
pub mod verify;

pub use author::{Scoresheet, SealOpening};
pub use event::{
    Accept, Challenge, Claim, ClaimReason, CoinColour, ColourChoice, Envelope, Event, EventError,
    EventId, EventKind, GameId, LeagueRound, QuickplayRuling, Reveal, Seal, SealLetters,
    SignedEvent, StartPosition, UnknownClaim, VerifiedEvent, WireMove, verify_all,
};
pub use export::{
    Archive, ArchiveError, ArchiveVerifyError, read_archive, to_game_record, to_pgn, write_archive,
};
pub use identity::{Keypair, PlayerId, PlayerIdError};
pub use profile::{Profile, ProfileError, SignedProfile, VerifiedProfile};
pub use terms::{Terms, TermsEdition, TermsError};
pub use verify::{
    Accepter, AnnulledBy, Annulment, ChainBreak, Checkpoint, ClaimRecord, DeclarationAccepted,
    DeclaredMove, DrawOfferRecord, Equivocation, Escrowed, GameState, PlayedMove,
    QuickplayClaimRecord, QuickplayDecision, RuleViolation, SealedEnvelope, Status, VerifyError,
    verify, verify_at, verify_continue, verify_extend, verify_incremental,
};
