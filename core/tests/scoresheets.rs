//! `verify` on signed scoresheets: one test per rule it applies, named after the article
//! (FIDE Laws 2009, seed 003; Appendix A for adjourned games), plus the protocol's own rules.

use sobre_core::clock::{DAY, SECOND};
use sobre_core::record::author::{Scoresheet, SealOpening};
use sobre_core::record::commit;
use sobre_core::record::{
    Challenge, ClaimReason, ColourChoice, Envelope, EventKind, GameState, Keypair, Seal,
    SealLetters, SignedEvent, StartPosition, Status, VerifyError, verify,
};
use sobre_core::san::{Lang, parse_san};
use sobre_core::{Color, Outcome, Position, Termination};

/// The letters a test's sealed move is written in (App. E2/E3): Spanish when it uses a
/// letter only Spanish has (`D T A C`), English otherwise, as its writer meant it.
fn letters_of(text: &str) -> SealLetters {
    if text.starts_with(['D', 'T', 'A', 'C']) {
        SealLetters::Spanish
    } else {
        SealLetters::English
    }
}

const T0: u64 = 1_800_000_000_000;

/// Two players at a table: White is the challenger. Every event one signs is delivered to
/// the other at once (`saw`), as the node does.
struct Table {
    sheets: [Scoresheet; 2],
    events: Vec<SignedEvent>,
    t: u64,
    pos: Position,
}

fn key(n: u8) -> Keypair {
    Keypair::from_secret_bytes(&[n; 32])
}

fn challenge(opponent: &Keypair, tc: &str, start: StartPosition) -> Challenge {
    Challenge {
        opponent: opponent.player_id(),
        colour: ColourChoice::ChallengerWhite,
        time_control: tc.into(),
        start,
        coin_commitment: None,
        league: None,
    }
}

impl Table {
    fn new(tc: &str) -> Table {
        Table::from(tc, StartPosition::Standard)
    }

    fn from(tc: &str, start: StartPosition) -> Table {
        let (w, b) = (key(1), key(2));
        let pos = match &start {
            StartPosition::Fen(f) => Position::from_fen_auto(f).unwrap(),
            StartPosition::Chess960(n) => Position::chess960(*n).unwrap(),
            _ => Position::new(),
        };
        let (ws, ch) = Scoresheet::challenge(w, challenge(&b, tc, start), T0).unwrap();
        let mut bs = Scoresheet::join(b, ws.game());
        bs.saw(ch.id());
        let mut t = Table {
            sheets: [ws, bs],
            events: vec![ch],
            t: T0,
            pos,
        };
        t.act(Color::Black, |s, t| s.accept(None, t));
        t
    }

    /// Signs an event by `c` one second later and delivers it to the other player.
    fn act(
        &mut self,
        c: Color,
        f: impl FnOnce(
            &mut Scoresheet,
            u64,
        ) -> Result<SignedEvent, sobre_core::record::codec::CodecError>,
    ) -> SignedEvent {
        self.t += SECOND;
        let ev = f(&mut self.sheets[c.index()], self.t).unwrap();
        self.sheets[(!c).index()].saw(ev.id());
        self.events.push(ev.clone());
        ev
    }

    fn mv(&mut self, san: &str) -> SignedEvent {
        let m = parse_san(&self.pos, san, Lang::Auto).unwrap();
        let c = self.pos.turn();
        self.pos.play_unchecked(m);
        self.act(c, |s, t| s.play(m, t))
    }

    fn moves(&mut self, line: &str) {
        for san in line.split_whitespace() {
            self.mv(san);
        }
    }

    fn state(&self) -> GameState {
        verify(&self.events).unwrap()
    }

    fn err(&self) -> VerifyError {
        verify(&self.events).unwrap_err()
    }

    fn envelope(&self, sealer: Color, offer_by: Option<Color>, resume_at: Option<u64>) -> Envelope {
        let st = self.state();
        let players = [st.white.unwrap(), st.black.unwrap()];
        // The envelope's clocks as verify will compute them at the seal's time.
        let used = sobre_core::record::verify_at(&self.events, Some(self.t + SECOND))
            .unwrap()
            .clocks
            .map_or([0, 0], |c| c.used_ms);
        Envelope {
            white: players[0],
            black: players[1],
            fen_before: self.pos.fen(),
            time_used_ms: used,
            sealer: players[sealer.index()],
            move_number: self.pos.fullmove_number(),
            draw_offer_by: offer_by.map(|c| players[c.index()]),
            // A2.7: a resumption time is mandatory; by default the game resumes right after
            // the seal (the next second), as at the end of a session.
            resume_at_ms: Some(resume_at.unwrap_or(self.t + 2 * SECOND)),
            place: "Club Villa Dolores".into(),
            lateness_limit_ms: 60 * 60 * 1000,
        }
    }

    /// The player to move seals `text`; returns the opening.
    fn seal(&mut self, text: &str, resume_at: Option<u64>) -> SealOpening {
        let c = self.pos.turn();
        let env = self.envelope(c, self.state().draw_offer, resume_at);
        let ply = self.state().moves.len() as u32 + 1;
        let mut opening = None;
        self.act(c, |s, t| {
            let (ev, o) = s.seal(text, letters_of(text), [42; 32], env, ply, t)?;
            opening = Some(o);
            Ok(ev)
        });
        opening.unwrap()
    }

    /// Like `seal`, as a node signed it before the letters were recorded and the sealed
    /// move was binding (wire tag 10): the meaning older archives keep.
    fn seal_legacy(&mut self, text: &str) -> SealOpening {
        let c = self.pos.turn();
        let env = self.envelope(c, self.state().draw_offer, None);
        let ply = verify(&self.events).unwrap().moves.len() as u32 + 1;
        let commitment =
            commit::seal_commitment(&self.sheets[0].game(), ply, &env.sealer, text, &[42; 32]);
        self.act(c, |s, t| {
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
}

fn win(c: Color) -> Option<Outcome> {
    Some(Outcome::Decisive { winner: c })
}

// ----- Art. 5: how games end -----

#[test]
fn fide_5_1a_checkmate_ends_the_game() {
    let mut t = Table::new("3d");
    t.moves("f3 e5 g4 Qh4#");
    let st = t.state();
    assert_eq!(st.status, Status::Finished);
    assert_eq!(st.result, win(Color::Black));
    assert_eq!(st.termination, Some(Termination::Checkmate));
    assert_eq!(st.moves.len(), 4);
}

#[test]
fn fide_5_1b_resignation_loses() {
    let mut t = Table::new("3d");
    t.moves("e4 e5");
    t.act(Color::White, |s, t| s.resign(t));
    let st = t.state();
    assert_eq!(st.result, win(Color::Black));
    assert_eq!(st.termination, Some(Termination::Resignation));
}

#[test]
fn race_resignation_against_mate_first_signed_time_wins() {
    // Black resigns while White (not having seen it) mates: concurrent events are ordered
    // by signed time; the resignation was signed first.
    let mut t = Table::new("3d");
    t.moves("e4 e5 Bc4 Nc6 Qh5 Nf6");
    let white_seen = t.sheets[0].seen();
    t.act(Color::Black, |s, t| s.resign(t));
    // White's node had not seen the resignation.
    let mut w = Scoresheet::resume(
        key(1),
        t.sheets[0].game(),
        t.sheets[0].seq(),
        t.sheets[0].last(),
        white_seen,
    );
    let m = parse_san(&t.pos, "Qxf7#", Lang::English).unwrap();
    t.events.push(w.play(m, t.t + SECOND).unwrap());
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::Resignation));
    assert_eq!(st.result, win(Color::White));
    assert_eq!(st.ignored.len(), 1, "the mate is kept but has no effect");
}

// ----- Art. 9: draws -----

#[test]
fn fide_9_1_draw_offer_accepted() {
    let mut t = Table::new("3d");
    t.moves("e4 e5");
    t.act(Color::White, |s, t| s.offer_draw(t));
    assert_eq!(t.state().draw_offer, Some(Color::White));
    t.act(Color::Black, |s, t| s.accept_draw(t));
    let st = t.state();
    assert_eq!(st.result, Some(Outcome::Draw));
    assert_eq!(st.termination, Some(Termination::Agreement));
}

#[test]
fn fide_9_1_offer_stands_until_declined_or_the_opponent_moves() {
    let mut t = Table::new("3d");
    t.mv("e4");
    t.act(Color::White, |s, t| s.offer_draw(t));
    t.mv("e5"); // Black moves: the offer lapses.
    assert_eq!(t.state().draw_offer, None);
    t.act(Color::White, |s, t| s.offer_draw(t));
    t.act(Color::Black, |s, t| s.decline_draw(t));
    assert_eq!(t.state().draw_offer, None);
    assert_eq!(t.state().status, Status::Active);
}

#[test]
fn fide_9_1_accepting_an_offer_that_is_not_there_is_rejected() {
    let mut t = Table::new("3d");
    t.mv("e4");
    t.act(Color::Black, |s, t| s.accept_draw(t));
    assert!(matches!(
        t.err(),
        VerifyError::Rule {
            kind: "draw_accept",
            ..
        }
    ));
}

fn knight_dance(t: &mut Table, times: usize) {
    for _ in 0..times {
        t.moves("Nf3 Nf6 Ng1 Ng8");
    }
}

#[test]
fn fide_9_2_threefold_claim_correct() {
    let mut t = Table::new("3d");
    knight_dance(&mut t, 2);
    t.act(Color::White, |s, t| {
        s.claim(ClaimReason::Threefold, None, t)
    });
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::ThreefoldRepetition));
    assert!(st.claims[0].correct);
}

#[test]
fn fide_9_2_threefold_claim_with_intended_move() {
    let mut t = Table::new("3d");
    knight_dance(&mut t, 1);
    t.moves("Nf3 Nf6 Ng1");
    let m = parse_san(&t.pos, "Ng8", Lang::English).unwrap();
    t.act(Color::Black, |s, t| {
        s.claim(ClaimReason::Threefold, Some(m), t)
    });
    assert_eq!(t.state().result, Some(Outcome::Draw));
}

#[test]
fn fide_9_5b_incorrect_claim_is_recorded_and_the_announced_move_is_made() {
    let mut t = Table::new("3d");
    t.moves("Nf3 Nf6 Ng1");
    let m = parse_san(&t.pos, "Ng8", Lang::English).unwrap();
    t.act(Color::Black, |s, t| {
        s.claim(ClaimReason::Threefold, Some(m), t)
    });
    t.pos.play_unchecked(m);
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert!(!st.claims[0].correct);
    assert!(
        st.claims[0].judgement.contains("2 time(s)"),
        "{}",
        st.claims[0].judgement
    );
    assert_eq!(st.moves.len(), 4, "the intended move was played");
    t.mv("e4"); // and the game goes on with White to move
    assert_eq!(t.state().moves.len(), 5);
}

#[test]
fn fide_9_2_only_the_player_to_move_claims() {
    let mut t = Table::new("3d");
    knight_dance(&mut t, 2);
    t.act(Color::Black, |s, t| {
        s.claim(ClaimReason::Threefold, None, t)
    });
    assert!(matches!(t.err(), VerifyError::Rule { kind: "claim", .. }));
}

#[test]
fn fide_9_3_fifty_move_claim_with_intended_move() {
    let fen = "8/8/4k3/8/8/3K4/R7/8 w - - 99 80";
    let mut t = Table::from("3d", StartPosition::Fen(fen.into()));
    let m = parse_san(&t.pos, "Ra1", Lang::English).unwrap();
    t.act(Color::White, |s, t| {
        s.claim(ClaimReason::FiftyMoves, Some(m), t)
    });
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::FiftyMoves));
    assert_eq!(st.result, Some(Outcome::Draw));
}

#[test]
fn fide_9_3_fifty_move_claim_too_early_is_incorrect() {
    let fen = "8/8/4k3/8/8/3K4/R7/8 w - - 90 80";
    let mut t = Table::from("3d", StartPosition::Fen(fen.into()));
    t.act(Color::White, |s, t| {
        s.claim(ClaimReason::FiftyMoves, None, t)
    });
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert!(!st.claims[0].correct);
}

#[test]
fn fide_9_6_dead_position_ends_the_game() {
    let fen = "8/8/4k3/8/8/3K4/5B2/6n1 w - - 0 1";
    let mut t = Table::from("3d", StartPosition::Fen(fen.into()));
    t.mv("Bxg1");
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::DeadPosition));
    assert_eq!(st.result, Some(Outcome::Draw));
}

// ----- Art. 6: clocks and time -----

#[test]
fn fide_6_9_time_claim_wins_when_the_flag_has_fallen() {
    // Ten seconds for the game; Black does not move.
    let mut t = Table::new("otb 10s");
    t.mv("e4");
    t.t += 20 * SECOND;
    t.act(Color::White, |s, t| s.claim(ClaimReason::Time, None, t));
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::TimeForfeit));
    assert_eq!(st.result, win(Color::White));
}

#[test]
fn fide_6_9_time_claim_is_a_draw_when_the_claimant_cannot_mate() {
    // White has a lone king: Black's flag falls, but White could never mate.
    let fen = "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1";
    let mut t = Table::from("otb 10s", StartPosition::Fen(fen.into()));
    t.mv("Kd2");
    t.t += 20 * SECOND;
    t.act(Color::White, |s, t| s.claim(ClaimReason::Time, None, t));
    let st = t.state();
    assert_eq!(
        st.termination,
        Some(Termination::TimeForfeitInsufficientMaterial)
    );
    assert_eq!(st.result, Some(Outcome::Draw));
}

#[test]
fn fide_6_9_time_claim_before_the_flag_falls_is_incorrect() {
    let mut t = Table::new("3d");
    t.mv("e4");
    t.act(Color::White, |s, t| s.claim(ClaimReason::Time, None, t));
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert!(!st.claims[0].correct);
}

/// The time rule (README, "Time"; FIDE 6.9 with the protocol's leave): a leave cannot stop
/// time already past. Black, whose 3-day flag fell a day ago, signs a week's leave starting
/// four days back: it is kept as evidence, not applied, and White's time claim wins.
#[test]
fn attack_leave_dated_in_the_past_does_not_save_a_fallen_flag() {
    let mut t = Table::new("3d");
    let e4 = t.mv("e4");
    // Black's node receipts the move on arrival, as every honest node does: under protocol
    // version 2 a move counts as made when first countersigned.
    t.act(Color::Black, |s, t| s.receipt(e4.id(), t));
    t.t += 4 * DAY;
    t.act(Color::Black, |s, t| s.leave(t - 4 * DAY, t + 3 * DAY, t));
    let st = t.state();
    assert!(st.leave.is_empty(), "{:?}", st.leave);
    assert!(
        st.ignored
            .iter()
            .any(|(_, why)| why.contains("leave refused")),
        "{:?}",
        st.ignored
    );
    t.act(Color::White, |s, t| s.claim(ClaimReason::Time, None, t));
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::TimeForfeit));
    assert_eq!(st.result, win(Color::White));
}

/// The same leave signed when it starts is taken, and stops Black's clock (ICCF leave).
#[test]
fn a_leave_signed_when_it_starts_stops_the_clock() {
    let mut t = Table::new("3d");
    t.mv("e4");
    t.t += DAY;
    let leave = t.act(Color::Black, |s, t| s.leave(t, t + 7 * DAY, t));
    // White's node receipts it on arrival (protocol version 2: the leave counts from then).
    t.act(Color::White, |s, t| s.receipt(leave.id(), t));
    assert_eq!(t.state().leave.len(), 1);
    t.t += 5 * DAY;
    t.act(Color::White, |s, t| s.claim(ClaimReason::Time, None, t));
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert!(!st.claims[0].correct);
}

#[test]
fn receipts_start_the_opponents_clock() {
    let mut t = Table::new("3d");
    let e4 = t.mv("e4");
    t.t += DAY;
    t.act(Color::Black, |s, t| s.receipt(e4.id(), t));
    let st = t.state();
    assert_eq!(st.moves[0].received_ms, Some(t.t));
    let clocks = st.clocks.unwrap();
    // Black's clock started only when the move reached them.
    assert_eq!(clocks.used_ms[1], 0);
}

// ----- Appendix A: adjourned games -----

#[test]
fn a1_only_the_player_to_move_seals() {
    let mut t = Table::new("otb 2h");
    t.mv("e4");
    // White tries to seal although Black is to move.
    let env = t.envelope(Color::White, None, None);
    t.act(Color::White, |s, t| {
        s.seal("d4", SealLetters::English, [1; 32], env, 2, t)
            .map(|x| x.0)
    });
    let err = t.err();
    assert!(err.to_string().contains("A1"), "{err}");
}

#[test]
fn a2_envelope_data_must_be_exact() {
    let mut t = Table::new("otb 2h");
    t.mv("e4");
    let mut env = t.envelope(Color::Black, None, None);
    env.fen_before = Position::new().fen();
    t.act(Color::Black, |s, t| {
        s.seal("e5", SealLetters::English, [1; 32], env, 2, t)
            .map(|x| x.0)
    });
    let err = t.err();
    assert!(err.to_string().contains("A2.2"), "{err}");
}

#[test]
fn a1_sealing_adjourns_and_stops_the_clocks() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let _ = t.seal("Nf3", None);
    let st = t.state();
    assert_eq!(st.status, Status::Adjourned);
    assert_eq!(st.open_envelope().map(|e| e.sealer), Some(Color::White));
    let later = sobre_core::record::verify_at(&t.events, Some(t.t + DAY)).unwrap();
    let now = st.clocks.unwrap().used_ms;
    assert_eq!(
        later.clocks.unwrap().used_ms,
        now,
        "no clock runs while adjourned"
    );
}

/// A2.7 (seed 003; seed 002 A2 lists the same envelope data): the envelope says when the
/// game resumes. Without a time, or with one already past, the seal is refused: a sealer who
/// never came back used to freeze the game for ever.
#[test]
fn a2_7_resumption_time_is_mandatory_and_ahead() {
    for resume in [None, Some(T0)] {
        let mut t = Table::new("otb 2h");
        t.moves("e4 e5");
        let mut env = t.envelope(Color::White, None, None);
        env.resume_at_ms = resume;
        t.act(Color::White, |s, t| {
            s.seal("Nf3", SealLetters::English, [1; 32], env, 3, t)
                .map(|x| x.0)
        });
        let err = t.err();
        assert!(err.to_string().contains("A2.7"), "{resume:?}: {err}");
    }
}

/// The early-opening attack (A2.7 with A7): the responder announces presence on Wednesday
/// for a Saturday resumption; the sealer's opening is refused until Saturday, so the
/// sealer's clock cannot be started while they are away. At the agreed time it opens.
#[test]
fn attack_a7_responder_cannot_force_the_envelope_open_early() {
    // Sealed on Tuesday for Saturday; Black announces presence on Wednesday.
    let adjourned = || {
        let mut t = Table::new("otb 2h");
        t.moves("e4 e5");
        let saturday = t.t + 3 * DAY;
        let opening = t.seal("Nf3", Some(saturday));
        t.t += DAY;
        t.act(Color::Black, |s, t| s.presence(t));
        (t, opening, saturday)
    };
    let (mut t, opening, _) = adjourned();
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let err = t.err();
    assert!(err.to_string().contains("A2.7"), "{err}");
    // On Saturday the envelope opens and the sealed move is played.
    let (mut t, opening, saturday) = adjourned();
    t.t = saturday;
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(st.moves.len(), 3);
}

/// A2.7 with A7: before the agreed time the envelope opens only when *both* players signed
/// that they are present (they agree to resume early).
#[test]
fn a7_both_present_may_open_before_the_agreed_time() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let opening = t.seal("Nf3", Some(t.t + 3 * DAY));
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(st.moves[2].san, "Nf3");
}

#[test]
fn a7_envelope_opens_only_with_the_responder_present() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let opening = t.seal("Cf3", None);
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let err = t.err();
    assert!(err.to_string().contains("A7"), "{err}");
}

#[test]
fn a9a_resumption_with_a_legal_sealed_move_in_spanish() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let opening = t.seal("Cf3", None);
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(st.moves.len(), 3);
    assert_eq!(st.moves[2].san, "Nf3");
    assert!(st.moves[2].sealed);
    assert_eq!(st.envelopes[0].opened.as_deref(), Some("Cf3"));
}

#[test]
fn a8_illegal_sealed_move_loses() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let opening = t.seal("Dxd5", None);
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.result, win(Color::Black));
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
    assert!(st.sealed_move_error.unwrap().contains("A8"));
}

#[test]
fn a8_unintelligible_sealed_move_loses() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let opening = t.seal("the knight, I think", None);
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    assert_eq!(t.state().result, win(Color::Black));
}

#[test]
fn a8_ambiguous_sealed_move_loses() {
    // Knights on b1 and f3 can both reach d2: "Cd2" is ambiguous.
    let fen = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    let mut t = Table::from("otb 2h", StartPosition::Fen(fen.into()));
    let opening = t.seal("Cd2", None);
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
    let why = st.sealed_move_error.unwrap();
    assert!(why.contains("b1") && why.contains("f3"), "{why}");
}

/// App. E2/E3 with A8 (seed 003): the letters are fixed when sealing and signed in the seal,
/// so a Spanish `Rd2` is the king's move even where a rook could also reach d2, and the
/// same text sealed in English is the rook's.
#[test]
fn a8_e3_sealed_move_is_read_in_the_letters_it_was_sealed_in() {
    let fen = "4k3/p7/8/8/8/8/8/3RK3 w - - 0 1";
    for (letters, from) in [(SealLetters::Spanish, "e1"), (SealLetters::English, "d1")] {
        let mut t = Table::from("otb 2h", StartPosition::Fen(fen.into()));
        let env = t.envelope(Color::White, None, None);
        let mut opening = None;
        t.act(Color::White, |s, t| {
            let (ev, o) = s.seal("Rd2", letters, [5; 32], env, 1, t)?;
            opening = Some(o);
            Ok(ev)
        });
        let opening = opening.unwrap();
        t.act(Color::Black, |s, t| s.presence(t));
        t.act(Color::White, |s, t| s.reveal(&opening, t));
        let st = t.state();
        assert_eq!(
            st.status,
            Status::Active,
            "{letters:?}: {:?}",
            st.sealed_move_error
        );
        assert_eq!(st.envelopes[0].letters, Some(letters));
        let played = st.moves[0].mv;
        assert_eq!(
            (played.from.to_string(), played.to.to_string()),
            (from.to_owned(), "d2".to_owned()),
            "{letters:?}"
        );
    }
}

/// A seal signed before the letters were recorded (wire tag 10) keeps its meaning: its
/// opening is read in either language, and `Rd2` there, legal both ways, is ambiguous (A8).
#[test]
fn a8_seal_without_letters_is_read_in_either_language_as_before() {
    let fen = "4k3/p7/8/8/8/8/8/3RK3 w - - 0 1";
    let mut t = Table::from("otb 2h", StartPosition::Fen(fen.into()));
    let env = t.envelope(Color::White, None, None);
    let game = t.state().game;
    let sealer = t.state().white.unwrap();
    let salt = [5; 32];
    let commitment = commit::seal_commitment(&game, 1, &sealer, "Rd2", &salt);
    t.act(Color::White, |s, t| {
        s.append(
            EventKind::Seal(Seal {
                commitment,
                envelope: env,
            }),
            t,
        )
    });
    let opening = SealOpening {
        move_text: "Rd2".into(),
        salt,
    };
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.envelopes[0].letters, None);
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
    assert_eq!(st.result, win(Color::Black));
}

#[test]
fn a8_sealed_move_written_with_a_mate_sign_in_spanish_mates() {
    let fen = "6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1";
    let mut t = Table::from("otb 2h", StartPosition::Fen(fen.into()));
    let opening = t.seal("Te8#", None);
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::Checkmate));
    assert_eq!(st.result, win(Color::White));
}

#[test]
fn a8_sealed_move_that_mates_wins_even_if_sealer_absent() {
    // The sealer never announces presence; their node opens the envelope when the
    // responder is present, and the sealed move mates.
    let fen = "6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1";
    let mut t = Table::from("otb 2h", StartPosition::Fen(fen.into()));
    let opening = t.seal("Re8", Some(t.t + DAY));
    t.t += DAY;
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.presence_ms[0], None, "the sealer never came");
    assert_eq!(st.termination, Some(Termination::Checkmate));
    assert_eq!(st.result, win(Color::White));
}

#[test]
fn a8_illegal_sealed_move_is_a_draw_when_the_opponent_cannot_mate() {
    // 6.9 exception: Black has a lone king.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let mut t = Table::from("otb 2h", StartPosition::Fen(fen.into()));
    let opening = t.seal("e5", None);
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.result, Some(Outcome::Draw));
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
}

#[test]
fn a4_a6_draw_offer_after_sealing_accepted_keeps_the_envelope_closed() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let _ = t.seal("Nf3", None);
    t.act(Color::Black, |s, t| s.offer_draw(t));
    assert_eq!(t.state().draw_offer, Some(Color::Black));
    t.act(Color::White, |s, t| s.accept_draw(t));
    let st = t.state();
    assert_eq!(st.result, Some(Outcome::Draw));
    assert_eq!(st.envelopes[0].opened, None);
}

/// A4 (seed 003; the same text in 002): a draw offered after the sealing stands until the
/// sealer has accepted or rejected it, as in 9.1 — playing the sealed move at the
/// resumption does not erase it; the sealer may still accept.
#[test]
fn a4_draw_offer_made_during_the_adjournment_survives_the_sealed_move() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let opening = t.seal("Nf3", None);
    t.act(Color::Black, |s, t| s.offer_draw(t));
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    let st = t.state();
    assert_eq!(st.moves.len(), 3, "the sealed move is played");
    assert_eq!(st.draw_offer, Some(Color::Black), "the offer still stands");
    t.act(Color::White, |s, t| s.accept_draw(t));
    let st = t.state();
    assert_eq!(st.result, Some(Outcome::Draw));
    assert_eq!(st.termination, Some(Termination::Agreement));
}

#[test]
fn a2_6_a_standing_draw_offer_goes_into_the_envelope() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    t.act(Color::Black, |s, t| s.offer_draw(t));
    let _ = t.seal("Nf3", None);
    let st = t.state();
    assert_eq!(st.envelopes[0].seal.envelope.draw_offer_by, st.black);
}

#[test]
fn a6_resignation_before_resumption_keeps_envelope_closed() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let _ = t.seal("Nf3", None);
    t.act(Color::Black, |s, t| s.resign(t));
    let st = t.state();
    assert_eq!(st.result, win(Color::White));
    assert_eq!(st.envelopes[0].opened, None);
    assert_eq!(st.moves.len(), 2);
}

#[test]
fn a9c_second_envelope_when_the_sealer_is_absent() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let resume = t.t + DAY;
    let first = t.seal("Nf3", Some(resume));
    t.t = resume;
    t.act(Color::Black, |s, t| s.presence(t));
    // White is absent: Black seals the reply in a second envelope.
    let mut env = t.envelope(Color::Black, None, Some(resume));
    env.fen_before = String::new();
    let mut second = None;
    t.act(Color::Black, |s, t| {
        let (ev, o) = s.seal("Cc6", SealLetters::Spanish, [7; 32], env, 4, t)?;
        second = Some(o);
        Ok(ev)
    });
    assert_eq!(t.state().envelopes.len(), 2);
    // White arrives; both envelopes are opened in order.
    t.act(Color::White, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&first, t));
    t.act(Color::Black, |s, t| s.reveal(second.as_ref().unwrap(), t));
    let st = t.state();
    let sans: Vec<&str> = st.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(st.status, Status::Active);
}

#[test]
fn a10_late_for_resumption_loses() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let resume = t.t + DAY;
    let _ = t.seal("Nf3", Some(resume));
    t.t = resume;
    t.act(Color::Black, |s, t| s.presence(t));
    // Too early: within the hour.
    t.act(Color::Black, |s, t| s.claim(ClaimReason::Lateness, None, t));
    assert_eq!(t.state().status, Status::Adjourned);
    t.t = resume + 2 * 60 * 60 * 1000;
    t.act(Color::Black, |s, t| s.claim(ClaimReason::Lateness, None, t));
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::LateForResumption));
    assert_eq!(st.result, win(Color::Black));
}

#[test]
fn a11_lost_envelope_the_sealer_plays_the_move_they_declare() {
    // An envelope from before the sealed move was binding (tag 10) keeps this meaning.
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let _ = t.seal_legacy("Nf3");
    t.act(Color::Black, |s, t| s.presence(t));
    t.mv("Nf3");
    let st = t.state();
    assert!(st.envelope_lost);
    assert_eq!(st.status, Status::Active);
    assert_eq!(st.moves.len(), 3);
}

/// The swapped-envelope attack (A11 without an arbiter): once the responder is present,
/// the sealer cannot "lose" the envelope and play another move found overnight. The game
/// goes on only with the opening; a sealer who cannot produce it loses when the responder
/// claims after the limit (A8, A10).
#[test]
fn attack_a11_sealer_cannot_replace_the_sealed_move() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let resume = t.t + DAY;
    let _ = t.seal("Nf3", Some(resume));
    t.t = resume;
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.presence(t));
    let d4 = parse_san(&t.pos, "d4", Lang::English).unwrap();
    t.act(Color::White, |s, t| s.play(d4, t));
    let err = t.err();
    assert!(err.to_string().contains("binding"), "{err}");
}

/// A8 with A10 for a binding envelope: the sealer is at the board but does not open the
/// envelope; after the limit the responder's claim wins. Exactly the limit is still in time
/// ("más de una hora", A10).
#[test]
fn a10_a8_sealer_who_does_not_open_within_the_limit_loses() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let resume = t.t + DAY;
    let _ = t.seal("Nf3", Some(resume));
    t.t = resume;
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.presence(t));
    t.t = resume + 60 * 60 * SECOND - SECOND;
    t.act(Color::Black, |s, t| s.claim(ClaimReason::Lateness, None, t));
    let st = t.state();
    assert_eq!(st.status, Status::Adjourned, "exactly one hour is in time");
    assert!(!st.claims[0].correct);
    t.act(Color::Black, |s, t| s.claim(ClaimReason::Lateness, None, t));
    let st = t.state();
    assert_eq!(st.result, win(Color::Black));
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
    assert!(
        st.claims[1].judgement.contains("A8"),
        "{}",
        st.claims[1].judgement
    );
}

#[test]
fn a7_no_move_around_the_envelope_through_an_incorrect_claim() {
    // Found while writing the verify_seq fuzz target: the sealer played a move other than
    // the sealed one during the adjournment by attaching it to an incorrect claim (input:
    // challenge, accept, 1. e4 e5, White seals, White claims lateness with the move d4).
    for reason in [
        ClaimReason::Lateness,
        ClaimReason::Time,
        ClaimReason::DeadPosition,
    ] {
        let mut t = Table::new("otb 2h");
        t.moves("e4 e5");
        let _ = t.seal("Nf3", None);
        let d4 = parse_san(&t.pos, "d4", Lang::English).unwrap();
        t.act(Color::White, |s, t| s.claim(reason, Some(d4), t));
        let err = t.err();
        assert!(err.to_string().contains("A7"), "{reason:?}: {err}");
    }
}

#[test]
fn reveal_that_does_not_match_the_commitment_is_rejected() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let mut opening = t.seal("Nf3", None);
    opening.move_text = "Bc4".into();
    t.act(Color::Black, |s, t| s.presence(t));
    t.act(Color::White, |s, t| s.reveal(&opening, t));
    assert!(t.err().to_string().contains("commitment"));
}

// ----- the protocol's own rules -----

#[test]
fn a_move_out_of_turn_is_rejected() {
    let mut t = Table::new("3d");
    t.mv("e4");
    let m = parse_san(&t.pos.null_move().unwrap(), "d4", Lang::English).unwrap();
    t.act(Color::White, |s, t| s.play(m, t));
    assert!(t.err().to_string().contains("out of turn"), "{}", t.err());
}

#[test]
fn an_illegal_move_is_rejected_with_the_event() {
    let mut t = Table::new("3d");
    let bad = sobre_core::Move::new(
        sobre_core::Square::parse("e2").unwrap(),
        sobre_core::Square::parse("e5").unwrap(),
        sobre_core::MoveKind::Normal,
    );
    let ev = t.act(Color::White, |s, t| s.play(bad, t));
    match t.err() {
        VerifyError::Rule {
            event, kind, rule, ..
        } => {
            assert_eq!(event, ev.id());
            assert_eq!(kind, "move");
            assert!(rule.contains("illegal move e2e5"), "{rule}");
        }
        e => panic!("{e}"),
    }
}

#[test]
fn a_third_key_cannot_move() {
    let mut t = Table::new("3d");
    let mut intruder = Scoresheet::join(key(9), t.sheets[0].game());
    let m = parse_san(&t.pos, "e4", Lang::English).unwrap();
    t.events.push(intruder.play(m, T0 + 5 * SECOND).unwrap());
    assert!(matches!(t.err(), VerifyError::NotAPlayer { .. }));
}

#[test]
fn equivocation_marks_the_game_disputed_with_proof() {
    let mut t = Table::new("3d");
    t.mv("e4");
    // Black signs two different replies at the same place in their scoresheet.
    let (seq, last, seen) = (t.sheets[1].seq(), t.sheets[1].last(), t.sheets[1].seen());
    let mut twin = Scoresheet::resume(key(2), t.sheets[1].game(), seq, last, seen);
    let c5 = parse_san(&t.pos, "c5", Lang::English).unwrap();
    let other = twin.play(c5, t.t + 2 * SECOND).unwrap();
    t.mv("e5");
    t.events.push(other.clone());
    let st = t.state();
    assert_eq!(st.status, Status::Disputed);
    assert_eq!(st.equivocations.len(), 1);
    let proof = &st.equivocations[0];
    assert_ne!(proof.first, proof.second);
    assert!(proof.first.verify().is_ok() && proof.second.verify().is_ok());
}

#[test]
fn random_colours_and_chess960_position_by_commit_reveal() {
    let (w, b) = (key(1), key(2));
    let secret = [5u8; 32];
    let ch = Challenge {
        opponent: b.player_id(),
        colour: ColourChoice::Random,
        time_control: "3d".into(),
        start: StartPosition::Chess960Random,
        coin_commitment: Some(commit::coin_commitment(&secret)),
        league: None,
    };
    let (mut cs, ev) = Scoresheet::challenge(w.clone(), ch, T0).unwrap();
    let game = cs.game();
    let mut os = Scoresheet::join(b.clone(), game);
    os.saw(ev.id());
    let acc = os.accept(Some([6; 32]), T0 + 1).unwrap();
    cs.saw(acc.id());
    let pending = verify(&[ev.clone(), acc.clone()]).unwrap();
    assert_eq!(pending.status, Status::Pending);
    assert_eq!(pending.white, None);
    let rev = cs.random_reveal(secret, T0 + 2).unwrap();
    let st = verify(&[ev, acc, rev]).unwrap();
    assert_eq!(st.status, Status::Active);
    let coin = commit::coin(&game, &secret, &[6; 32]);
    let expect_white = if commit::challenger_is_white(&coin) {
        w.player_id()
    } else {
        b.player_id()
    };
    assert_eq!(st.white, Some(expect_white));
    let n = commit::chess960_position(&coin);
    assert_eq!(st.start, Position::chess960(n));
}

#[test]
fn a_wrong_coin_opening_is_rejected() {
    let (w, b) = (key(1), key(2));
    let ch = Challenge {
        opponent: b.player_id(),
        colour: ColourChoice::Random,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: Some(commit::coin_commitment(&[5; 32])),
        league: None,
    };
    let (mut cs, ev) = Scoresheet::challenge(w, ch, T0).unwrap();
    let mut os = Scoresheet::join(b, cs.game());
    os.saw(ev.id());
    let acc = os.accept(Some([6; 32]), T0 + 1).unwrap();
    cs.saw(acc.id());
    let rev = cs.random_reveal([4; 32], T0 + 2).unwrap();
    assert!(
        verify(&[ev, acc, rev])
            .unwrap_err()
            .to_string()
            .contains("commitment")
    );
}

#[test]
fn chat_and_decline_and_abort() {
    let mut t = Table::new("3d");
    t.act(Color::Black, |s, t| s.chat("¡Suerte!", t));
    t.mv("e4");
    t.act(Color::Black, |s, t| s.abort(t));
    let st = t.state();
    assert_eq!(st.status, Status::Cancelled);
    assert_eq!(st.chat[0].2, "¡Suerte!");
    assert_eq!(st.result, None);
}

#[test]
fn events_in_any_order_with_duplicates_give_the_same_state() {
    let mut t = Table::new("3d");
    t.moves("e4 e5 Nf3 Nc6 Bb5 a6");
    let a = t.state();
    let mut shuffled: Vec<SignedEvent> = t.events.iter().rev().cloned().collect();
    shuffled.extend(t.events.iter().cloned());
    let b = verify(&shuffled).unwrap();
    assert_eq!(a.timeline, b.timeline);
    assert_eq!(a.position, b.position);
}

#[test]
fn unused_kind_names_are_stable() {
    assert_eq!(EventKind::Presence.name(), "presence");
}
