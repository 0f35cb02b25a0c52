//! Two players at a table signing one game, for the tests of adjourned games: every event
//! one signs is delivered to the other at once (`saw`), as the node does, and the test says
//! exactly when each event is signed.
#![allow(dead_code)]

use sobre_core::clock::SECOND;
use sobre_core::record::author::{Scoresheet, SealOpening};
use sobre_core::record::codec::CodecError;
use sobre_core::record::commit;
use sobre_core::record::{
    Challenge, ClaimReason, ColourChoice, Envelope, EventKind, GameState, LeagueRound, Seal,
    SealLetters, SignedEvent, StartPosition, Terms, VerifyError, verify, verify_at,
};
use sobre_core::san::{Lang, parse_san};
use sobre_core::{Color, Outcome, Position};

/// The challenge's time (the game starts at `T0 + SECOND`, the acceptance) and the
/// players' keys (`key(1)` White, `key(2)` Black) of `sobre_core::test_support`.
pub use sobre_core::test_support::{T0, key};

/// A10's default limit.
pub const LIMIT: u64 = 60 * 60 * SECOND;

pub fn win(c: Color) -> Option<Outcome> {
    Some(Outcome::Decisive { winner: c })
}

/// The letters a test's sealed move is written in (App. E2/E3): Spanish when it uses a
/// letter only Spanish has (`D T A C`), English otherwise, as its writer meant it.
pub fn letters_of(text: &str) -> SealLetters {
    if text.starts_with(['D', 'T', 'A', 'C']) {
        SealLetters::Spanish
    } else {
        SealLetters::English
    }
}

/// White (the challenger) and Black at one game.
pub struct Table {
    pub sheets: [Scoresheet; 2],
    pub events: Vec<SignedEvent>,
    /// The time of the last event signed.
    pub t: u64,
    /// The position on the board (moves and sealed moves played).
    pub pos: Position,
    /// Whether the other player receipts each event when it is delivered (the default, as a
    /// node does); a test of a receiver who does not turns it off.
    pub receipts: bool,
}

impl Table {
    pub fn new(tc: &str) -> Table {
        Table::from(tc, StartPosition::Standard)
    }

    /// A game on agreed `terms` (wire tag 21, protocol version 3).
    pub fn on_terms(tc: &str, terms: Terms) -> Table {
        Table::with(tc, StartPosition::Standard, Some(terms))
    }

    /// A game from `start` on agreed `terms` (protocol version 3).
    pub fn from_on_terms(tc: &str, start: StartPosition, terms: Terms) -> Table {
        Table::with(tc, start, Some(terms))
    }

    pub fn from(tc: &str, start: StartPosition) -> Table {
        Table::with(tc, start, None)
    }

    /// A game of `league` on agreed `terms` (protocol version 3).
    pub fn in_league(tc: &str, terms: Terms, league: LeagueRound) -> Table {
        Table::with_league(tc, StartPosition::Standard, Some(terms), Some(league))
    }

    fn with(tc: &str, start: StartPosition, on_terms: Option<Terms>) -> Table {
        Table::with_league(tc, start, on_terms, None)
    }

    fn with_league(
        tc: &str,
        start: StartPosition,
        on_terms: Option<Terms>,
        league: Option<LeagueRound>,
    ) -> Table {
        let (w, b) = (key(1), key(2));
        let pos = match &start {
            StartPosition::Fen(f) => Position::from_fen_auto(f).unwrap(),
            StartPosition::Chess960(n) => Position::chess960(*n).unwrap(),
            _ => Position::new(),
        };
        let terms = Challenge {
            opponent: b.player_id(),
            colour: ColourChoice::ChallengerWhite,
            time_control: tc.into(),
            start,
            coin_commitment: None,
            league,
        };
        let (ws, ch) = match on_terms {
            Some(agreed) => Scoresheet::challenge_on_terms(w, terms, agreed, T0).unwrap(),
            None => Scoresheet::challenge(w, terms, T0).unwrap(),
        };
        let mut bs = Scoresheet::join(b, ws.game());
        bs.saw(ch.id());
        let mut t = Table {
            sheets: [ws, bs],
            events: vec![ch],
            t: T0,
            pos,
            receipts: true,
        };
        t.act(Color::Black, |s, t| s.accept(None, t));
        t
    }

    /// Signs an event by `c` one second after the last and delivers it to the other player.
    pub fn act(
        &mut self,
        c: Color,
        f: impl FnOnce(&mut Scoresheet, u64) -> Result<SignedEvent, CodecError>,
    ) -> SignedEvent {
        let at = self.t + SECOND;
        self.act_at(c, at, f)
    }

    /// Signs an event by `c` at `at_ms` and delivers it to the other player.
    pub fn act_at(
        &mut self,
        c: Color,
        at_ms: u64,
        f: impl FnOnce(&mut Scoresheet, u64) -> Result<SignedEvent, CodecError>,
    ) -> SignedEvent {
        self.t = at_ms;
        let ev = f(&mut self.sheets[c.index()], at_ms).unwrap();
        self.sheets[(!c).index()].saw(ev.id());
        self.events.push(ev.clone());
        // The other player's node receipts it on arrival, as a node does: under protocol
        // version 2 an event counts from its first countersignature (docs/time.md).
        if self.receipts
            && !matches!(
                ev.verify().map(|v| v.event.kind),
                Ok(EventKind::Receipt { .. })
            )
        {
            let r = self.sheets[(!c).index()].receipt(ev.id(), at_ms).unwrap();
            self.events.push(r);
        }
        ev
    }

    /// The player to move plays `san` (English or Spanish) at `at_ms`.
    pub fn mv_at(&mut self, at_ms: u64, san: &str) -> SignedEvent {
        let m = parse_san(&self.pos, san, Lang::Auto).unwrap();
        let c = self.pos.turn();
        self.pos.play_unchecked(m);
        self.act_at(c, at_ms, |s, t| s.play(m, t))
    }

    pub fn mv(&mut self, san: &str) -> SignedEvent {
        let at = self.t + SECOND;
        self.mv_at(at, san)
    }

    pub fn moves(&mut self, line: &str) {
        for san in line.split_whitespace() {
            self.mv(san);
        }
    }

    pub fn state(&self) -> GameState {
        verify(&self.events).unwrap()
    }

    /// The game as seen at `at_ms` (the clocks then).
    pub fn at(&self, at_ms: u64) -> GameState {
        verify_at(&self.events, Some(at_ms)).unwrap()
    }

    /// Time left (white, black) at `at_ms`.
    pub fn left(&self, at_ms: u64) -> [i64; 2] {
        self.at(at_ms).clocks.unwrap().remaining_ms
    }

    pub fn err(&self) -> VerifyError {
        verify(&self.events).unwrap_err()
    }

    /// The envelope the player to move would seal at `at_ms`, exact (A2), resuming at
    /// `resume_at`.
    pub fn envelope_at(&self, at_ms: u64, resume_at: u64) -> Envelope {
        let st = self.state();
        let players = [st.white.unwrap(), st.black.unwrap()];
        // A2.3: the clocks as verify computes them at the seal's time.
        let used = self.at(at_ms).clocks.map_or([0, 0], |c| c.used_ms);
        Envelope {
            white: players[0],
            black: players[1],
            fen_before: self.pos.fen(),
            time_used_ms: used,
            sealer: players[self.pos.turn().index()],
            move_number: self.pos.fullmove_number(),
            draw_offer_by: st.draw_offer.map(|c| players[c.index()]),
            resume_at_ms: Some(resume_at),
            place: "Club Villa Dolores".into(),
            lateness_limit_ms: LIMIT,
        }
    }

    /// The player to move seals `text` at `at_ms` in the envelope `env`.
    pub fn seal_with(&mut self, at_ms: u64, text: &str, env: Envelope) -> SealOpening {
        let c = self.pos.turn();
        let ply = self.state().moves.len() as u32 + 1;
        let mut opening = None;
        self.act_at(c, at_ms, |s, t| {
            let (ev, o) = s.seal(text, letters_of(text), [42; 32], env, ply, t)?;
            opening = Some(o);
            Ok(ev)
        });
        opening.unwrap()
    }

    /// The player to move seals `text` at `at_ms` for a resumption at `resume_at` (A1, A2).
    pub fn seal_at(&mut self, at_ms: u64, text: &str, resume_at: u64) -> SealOpening {
        let env = self.envelope_at(at_ms, resume_at);
        self.seal_with(at_ms, text, env)
    }

    /// Seals one second after the last event, for a resumption at `resume_at` (by default
    /// the next second, as at the end of a session).
    pub fn seal(&mut self, text: &str, resume_at: Option<u64>) -> SealOpening {
        let at = self.t + SECOND;
        self.seal_at(at, text, resume_at.unwrap_or(at + SECOND))
    }

    /// A9c: the responder seals a reply at `at_ms` in the position after the opened sealed
    /// move, in an envelope naming the adjournment's resumption.
    pub fn reply_at(&mut self, at_ms: u64, text: &str) -> SealOpening {
        let resume = self.state().adjournment().unwrap().resume_at_ms.unwrap();
        self.seal_at(at_ms, text, resume)
    }

    /// Like `seal`, as a node signed it before the letters were recorded and the sealed
    /// move was binding (wire tag 10): the meaning older archives keep.
    pub fn seal_legacy(&mut self, text: &str) -> SealOpening {
        let at = self.t + SECOND;
        let env = self.envelope_at(at, at + SECOND);
        let ply = self.state().moves.len() as u32 + 1;
        let commitment =
            commit::seal_commitment(&self.sheets[0].game(), ply, &env.sealer, text, &[42; 32]);
        let c = self.pos.turn();
        self.act_at(c, at, |s, t| {
            s.append(
                EventKind::Seal(Seal {
                    commitment,
                    envelope: env,
                }),
                t,
            )
        });
        SealOpening {
            move_text: text.into(),
            salt: [42; 32],
        }
    }

    /// `c` announces presence at `at_ms` (A7, A9, A10).
    pub fn presence_at(&mut self, c: Color, at_ms: u64) {
        self.act_at(c, at_ms, |s, t| s.presence(t));
    }

    /// `c` opens their envelope at `at_ms`; the board follows if the move is legal.
    pub fn reveal_at(&mut self, c: Color, at_ms: u64, opening: &SealOpening) {
        self.act_at(c, at_ms, |s, t| s.reveal(opening, t));
        if let Ok(st) = verify(&self.events) {
            self.pos = st.position;
        }
    }

    /// `c` claims their opponent's lateness at `at_ms` (A10).
    pub fn claim_lateness_at(&mut self, c: Color, at_ms: u64) {
        self.act_at(c, at_ms, |s, t| s.claim(ClaimReason::Lateness, None, t));
    }
}
