//! [`GameBuilder`]: the one builder of a signed game record the tests, benches and harnesses
//! share — a challenge, its acceptance and a line's moves, signed by the two players' keys
//! exactly as their nodes would sign them.

use super::Lines;
use crate::clock::SECOND;
use crate::notation::san::Lang;
use crate::notation::{MoveError, parse_move};
use crate::position::{IllegalMove, Position, PositionError};
use crate::record::author::Scoresheet;
use crate::record::codec::CodecError;
use crate::record::{Challenge, ColourChoice, GameId, Keypair, SignedEvent, StartPosition};
use crate::types::Move;

/// The challenge's time unless a builder says otherwise (2027-01-15, after every protocol
/// version's start).
pub const T0: u64 = 1_800_000_000_000;

/// How long after a move its receipt is signed: the opponent's node answers on arrival.
pub const RECEIPT_DELAY_MS: u64 = 10;

/// A test player's key: any 32 bytes are an ed25519 secret, so `key(1)` and `key(2)` are
/// two players every test can name.
pub fn key(n: u8) -> Keypair {
    Keypair::from_secret_bytes(&[n; 32])
}

/// Which moves the opponent countersigns (a receipt, docs/time.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Receipts {
    /// None: the record has only the players' own moves.
    #[default]
    None,
    /// Every move, as nodes in contact do.
    All,
    /// Each move with probability ½, drawn from this seed: records that mix receipted and
    /// unreceipted moves, as nodes out of contact leave them.
    Random(u64),
}

/// Why a game could not be signed. The builder's own inputs are at fault, never the keys.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// An event could not be encoded.
    #[error("signing: {0}")]
    Sign(#[from] CodecError),
    /// The challenge names a start that is not a position (FIDE Appendix F, or a FEN).
    #[error("start position: {0}")]
    Start(String),
    /// Move `ply` (0-based) of the line is not legal where it stands (FIDE 3.10).
    #[error("move {ply} of the line: {source}")]
    Illegal { ply: usize, source: IllegalMove },
    /// Move `ply` (0-based) of a written line does not name one legal move.
    #[error("move {ply} of the line: {source}")]
    Notation { ply: usize, source: MoveError },
}

impl From<PositionError> for BuildError {
    fn from(e: PositionError) -> BuildError {
        BuildError::Start(e.to_string())
    }
}

/// The terms and times of a signed game. The challenger is White
/// ([`ColourChoice::ChallengerWhite`]); the challenge is signed at `t0`, the acceptance one
/// second later, and each move `every` after the event before it (the acceptance, the
/// previous move, or that move's receipt, [`RECEIPT_DELAY_MS`] after it).
#[derive(Clone, Debug)]
pub struct GameBuilder {
    white: Keypair,
    black: Keypair,
    time_control: String,
    start: StartPosition,
    t0: u64,
    every_ms: u64,
    receipts: Receipts,
}

/// A signed game: its events in signing order, and both scoresheets, so that a test can sign
/// what comes next (a claim, a resignation, one more move).
#[derive(Debug)]
pub struct SignedGame {
    /// The game's id (the challenge's id).
    pub game: GameId,
    /// Challenge, acceptance, then each move followed by its receipt, if any.
    pub events: Vec<SignedEvent>,
    /// White's (the challenger's) and Black's scoresheets, each having seen every event.
    pub sheets: [Scoresheet; 2],
    /// The position after the line.
    pub position: Position,
    /// The time of the last event signed.
    pub t: u64,
}

impl GameBuilder {
    /// A game between `white` (the challenger) and `black`: 3 days per move from the standard
    /// start, challenged at [`T0`], a move a minute, no receipts.
    pub fn new(white: Keypair, black: Keypair) -> GameBuilder {
        GameBuilder {
            white,
            black,
            time_control: "3d".into(),
            start: StartPosition::Standard,
            t0: T0,
            every_ms: 60 * SECOND,
            receipts: Receipts::None,
        }
    }

    /// The challenge's time control, as a player writes it (`3d`, `otb 2h`, …).
    pub fn time_control(mut self, tc: &str) -> GameBuilder {
        self.time_control = tc.into();
        self
    }

    /// The challenge's start position (a fixed one: a drawn Chess960 start needs the coin).
    pub fn start(mut self, start: StartPosition) -> GameBuilder {
        self.start = start;
        self
    }

    /// The challenge's time, in milliseconds since the epoch.
    pub fn at(mut self, t0: u64) -> GameBuilder {
        self.t0 = t0;
        self
    }

    /// The time between moves, in milliseconds.
    pub fn every(mut self, ms: u64) -> GameBuilder {
        self.every_ms = ms;
        self
    }

    /// Which moves the opponent receipts.
    pub fn receipts(mut self, receipts: Receipts) -> GameBuilder {
        self.receipts = receipts;
        self
    }

    /// The position the challenge starts from.
    ///
    /// # Errors
    /// [`BuildError::Start`] for a Chess960 number above 959, a drawn start or a bad FEN.
    pub fn start_position(&self) -> Result<Position, BuildError> {
        match &self.start {
            StartPosition::Standard => Ok(Position::new()),
            StartPosition::Chess960(n) => Position::chess960(*n)
                .ok_or_else(|| BuildError::Start(format!("no Chess960 position {n}"))),
            StartPosition::Chess960Random => Err(BuildError::Start(
                "a drawn Chess960 start needs the fair coin".into(),
            )),
            StartPosition::Fen(f) => {
                Position::from_fen_auto(f).map_err(|e| BuildError::Start(format!("{f}: {e}")))
            }
        }
    }

    /// Signs the challenge, the acceptance and `moves`.
    ///
    /// # Errors
    /// [`BuildError::Illegal`] for a move that is not legal where it stands;
    /// [`BuildError::Start`] for a start that is not a position.
    pub fn sign(&self, moves: &[Move]) -> Result<SignedGame, BuildError> {
        let mut position = self.start_position()?;
        let terms = Challenge {
            opponent: self.black.player_id(),
            colour: ColourChoice::ChallengerWhite,
            time_control: self.time_control.clone(),
            start: self.start.clone(),
            coin_commitment: None,
            league: None,
        };
        // On the default terms (protocol version 3), as a node signs every challenge.
        let (white, challenge) = Scoresheet::challenge_on_terms(
            self.white.clone(),
            terms,
            crate::record::Terms::default(),
            self.t0,
        )?;
        let game = white.game();
        let mut black = Scoresheet::join(self.black.clone(), game);
        black.saw(challenge.id());
        let mut t = self.t0 + SECOND;
        let accept = black.accept(None, t)?;
        let mut sheets = [white, black];
        sheets[0].saw(accept.id());
        let mut events = vec![challenge, accept];
        let mut coin = match self.receipts {
            Receipts::Random(seed) => Some(Lines::new(seed)),
            Receipts::None | Receipts::All => None,
        };
        for (ply, &m) in moves.iter().enumerate() {
            let mover = position.turn().index();
            position
                .play(m)
                .map_err(|source| BuildError::Illegal { ply, source })?;
            t += self.every_ms;
            let ev = sheets[mover].play(m, t)?;
            sheets[1 - mover].saw(ev.id());
            let receipted = match &mut coin {
                Some(lines) => lines.below(2) == 0,
                None => self.receipts == Receipts::All,
            };
            if receipted {
                let r = sheets[1 - mover].receipt(ev.id(), t + RECEIPT_DELAY_MS)?;
                sheets[mover].saw(r.id());
                events.push(ev);
                events.push(r);
                t += RECEIPT_DELAY_MS;
            } else {
                events.push(ev);
            }
        }
        Ok(SignedGame {
            game,
            events,
            sheets,
            position,
            t,
        })
    }

    /// [`GameBuilder::sign`] of a written line: moves in any notation the node reads
    /// (English or Spanish SAN, coordinates, ICCF), separated by white space; move numbers
    /// (`1.`, `2...`) are skipped.
    ///
    /// # Errors
    /// [`BuildError::Notation`] for a move that names no legal move, as [`GameBuilder::sign`]
    /// otherwise.
    pub fn sign_written(&self, line: &str) -> Result<SignedGame, BuildError> {
        let mut pos = self.start_position()?;
        let mut moves = Vec::new();
        let tokens = line.split_whitespace().filter(|t| !t.ends_with('.'));
        for (ply, text) in tokens.enumerate() {
            let m = parse_move(&pos, text, Lang::Auto)
                .map_err(|source| BuildError::Notation { ply, source })?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        self.sign(&moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outcome;
    use crate::record::verify;
    use crate::rules::Termination;
    use crate::types::Color;

    #[test]
    fn a_signed_line_verifies_with_its_moves_result_and_times() {
        let built = GameBuilder::new(key(1), key(2))
            .every(1000)
            .receipts(Receipts::All)
            .sign_written("1. f3 e5 2. g4 Qh4#")
            .unwrap();
        // Challenge, acceptance, four moves and four receipts.
        assert_eq!(built.events.len(), 10);
        let st = verify(&built.events).unwrap();
        assert_eq!(st.game, built.game);
        assert_eq!(st.moves.len(), 4);
        assert_eq!(
            st.result,
            Some(Outcome::Decisive {
                winner: Color::Black
            })
        );
        assert_eq!(st.termination, Some(Termination::Checkmate));
        assert_eq!(st.position, built.position);
        assert_eq!(built.t, T0 + SECOND + 4 * 1000 + 4 * RECEIPT_DELAY_MS);
    }

    #[test]
    fn random_receipts_leave_some_moves_unreceipted_and_the_game_verifies() {
        let moves = Lines::new(3).endless().line(&Position::new(), 40);
        let built = GameBuilder::new(key(1), key(2))
            .receipts(Receipts::Random(3))
            .sign(&moves)
            .unwrap();
        let receipts = built.events.len() - 2 - moves.len();
        assert!(receipts > 0 && receipts < moves.len(), "{receipts}");
        assert_eq!(verify(&built.events).unwrap().moves.len(), 40);
    }

    #[test]
    fn an_illegal_move_is_refused_naming_its_ply() {
        let mut pos = Position::new();
        let e4 = parse_move(&pos, "e4", Lang::English).unwrap();
        pos.play_unchecked(e4);
        let err = GameBuilder::new(key(1), key(2))
            .sign(&[e4, e4])
            .unwrap_err();
        assert!(matches!(err, BuildError::Illegal { ply: 1, .. }), "{err}");
        let err = GameBuilder::new(key(1), key(2))
            .sign_written("e4 e4")
            .unwrap_err();
        assert!(matches!(err, BuildError::Notation { ply: 1, .. }), "{err}");
    }
}
