//! `sobre envelope declare`, `accept-declared` and `annul`: a lost envelope (FIDE Appendix
//! A11; club rules art. 16.5). The sealer declares the move they sealed, the responder or
//! the agreed arbiter accepts it (A11.1); the agreed arbiter, or both players, annul a game
//! whose position cannot be re-established (A11.2).

use super::common;
use super::confirm;
use super::show::{game_tag, state_line};
use crate::error::CliResult;
use crate::t;
use sobre_node::api::GameView;
use sobre_node::api::request;
use std::path::Path;
use std::process::ExitCode;

/// As the sealer who lost the opening of your sealed move, declare the move you sealed
/// (A11.1): it is read like `sobre move` reads a move, in the position the envelope was
/// sealed in.
///
/// Nothing is played until your opponent (or the agreed arbiter) accepts it with `sobre
/// envelope accept-declared`; then the game goes on with it as if the envelope had been
/// opened. A sealed move is declared once.
#[derive(clap::Args)]
pub struct DeclareArgs {
    /// The game id (or a unique prefix of it).
    game: String,
    /// The move you sealed.
    #[arg(value_name = "MOVE", allow_hyphen_values = true)]
    mv: String,
    #[command(flatten)]
    written: common::Written,
    #[command(flatten)]
    json: common::Json,
}

/// As the responder, or as the game's agreed arbiter, accept the move the sealer declared
/// (A11.1): it is played as the sealer's move, as the envelope's opening would be.
///
/// Refused before the envelope could be opened (the agreed resumption; earlier only with
/// both players present, A2.7, A7), and when no declared move awaits acceptance.
#[derive(clap::Args)]
pub struct AcceptDeclaredArgs {
    /// The game id (or a unique prefix of it).
    game: String,
    #[command(flatten)]
    json: common::Json,
}

/// Annul an adjourned game whose sealed move is lost and whose position cannot be
/// re-established (A11.2): a new game is to be played in its place. The agreed arbiter
/// annuls it alone; a player's annulment is their half of an agreement, and the game is
/// annulled once both players have signed one.
///
/// On a terminal you are asked first (--yes skips the question; a script, whose standard
/// input is not a terminal, is never asked). Answering no sends nothing and exits with 1.
#[derive(clap::Args)]
pub struct AnnulArgs {
    /// The game id (or a unique prefix of it).
    game: String,
    #[command(flatten)]
    yes: confirm::Yes,
    #[command(flatten)]
    json: common::Json,
}

pub fn declare(home: &Path, args: DeclareArgs) -> CliResult<ExitCode> {
    let notation = args.written.resolve(home);
    let v: GameView = common::send(
        home,
        request::EnvelopeDeclare {
            game: args.game,
            text: args.mv,
            notation,
        },
    )?;
    args.json.answer(&v, || {
        let san = declared_san(&v).unwrap_or_default();
        t!("envelope-declared", game = game_tag(&v), mv = san)
    })
}

pub fn accept_declared(home: &Path, args: AcceptDeclaredArgs) -> CliResult<ExitCode> {
    let v: GameView = common::send(home, request::EnvelopeAcceptDeclared { game: args.game })?;
    args.json.answer(&v, || {
        let san = declared_san(&v).unwrap_or_default();
        t!(
            "envelope-declared-accepted",
            game = game_tag(&v),
            mv = san,
            state = state_line(&v)
        )
    })
}

pub fn annul(home: &Path, args: AnnulArgs) -> CliResult<ExitCode> {
    if !confirm::go_ahead(home, &args.game, args.yes, confirm::Step::Annul)? {
        return confirm::called_off();
    }
    let v: GameView = common::send(home, request::EnvelopeAnnul { game: args.game })?;
    args.json.answer(&v, || {
        if v.annulled.is_some() {
            t!("envelope-annulled", game = game_tag(&v))
        } else {
            t!("envelope-annul-asked", game = game_tag(&v))
        }
    })
}

/// The declared move of the game's envelope, in the node's SAN.
fn declared_san(v: &GameView) -> Option<String> {
    v.envelope
        .as_ref()?
        .declared
        .as_ref()
        .map(|d| d.san.clone())
}
