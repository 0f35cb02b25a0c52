//! `verify` on envelopes kept by an arbiter (FIDE A3, A9, A11; wire tags 18 and 19): the
//! sealer escrows the opening with an arbiter, who can open the envelope at the resumption
//! when the sealer is absent (A9c) or lost it (A11) — the true sealed move only, when
//! Appendix A allows the envelope to be opened, and nothing else. Texts: FIDE 2009 (seed
//! 003), where Appendix A reads as in 2005 (seed 002) for these articles.

use sobre_core::clock::{DAY, SECOND};
use sobre_core::record::author::{Scoresheet, SealOpening};
use sobre_core::record::escrow::{self, EscrowContext, EscrowError, SEALED_BOX_BYTES};
use sobre_core::record::{
    Challenge, ClaimReason, ColourChoice, Envelope, EventId, EventKind, GameState, PlayerId,
    RuleViolation as V, SealLetters, SignedEvent, StartPosition, Status, VerifyError, verify,
    verify_at,
};
use sobre_core::rules::adjournment::AdjournmentRule;
use sobre_core::san::{Lang, parse_san};
use sobre_core::test_support::{T0, key};
use sobre_core::{Color, Outcome, Position, Termination};

/// White (key 1, the challenger), Black (key 2), the arbiter (key 3) and a stranger (key
/// 4). Every event a player signs is seen at once by the other player; the arbiter's sheet
/// sees the players' events as its node would (the latest one), and the players see the
/// arbiter's opening.
struct Table {
    sheets: [Scoresheet; 2],
    arbiter: Scoresheet,
    stranger: Scoresheet,
    events: Vec<SignedEvent>,
    t: u64,
    pos: Position,
}

impl Table {
    /// A game over the board (A1), 1.e4 e5 played.
    fn new() -> Table {
        let (w, b) = (key(1), key(2));
        let terms = Challenge {
            opponent: b.player_id(),
            colour: ColourChoice::ChallengerWhite,
            time_control: "otb 2h".into(),
            start: StartPosition::Standard,
            coin_commitment: None,
            league: None,
        };
        let (ws, ch) = Scoresheet::challenge(w, terms, T0).unwrap();
        let game = ws.game();
        let mut bs = Scoresheet::join(b, game);
        bs.saw(ch.id());
        let mut t = Table {
            sheets: [ws, bs],
            arbiter: Scoresheet::join(key(3), game),
            stranger: Scoresheet::join(key(4), game),
            events: vec![ch],
            t: T0,
            pos: Position::new(),
        };
        t.act(Color::Black, |s, t| s.accept(None, t));
        t.mv("e4");
        t.mv("e5");
        t
    }

    fn game(&self) -> EventId {
        self.sheets[0].game()
    }

    /// `c` signs an event one second later; the other player sees it.
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
        self.arbiter.saw(ev.id());
        self.stranger.saw(ev.id());
        self.events.push(ev.clone());
        ev
    }

    /// A third party (the arbiter, or the stranger) signs; both players see it.
    fn third(
        &mut self,
        arbiter: bool,
        f: impl FnOnce(
            &mut Scoresheet,
            u64,
        ) -> Result<SignedEvent, sobre_core::record::codec::CodecError>,
    ) -> SignedEvent {
        self.t += SECOND;
        let sheet = if arbiter {
            &mut self.arbiter
        } else {
            &mut self.stranger
        };
        let ev = f(sheet, self.t).unwrap();
        for s in &mut self.sheets {
            s.saw(ev.id());
        }
        self.events.push(ev.clone());
        ev
    }

    /// The player to move plays `san` in the position the record has reached (a sealed
    /// move, once opened, is in it).
    fn mv(&mut self, san: &str) -> SignedEvent {
        self.pos = self.state().position;
        let m = parse_san(&self.pos, san, Lang::Auto).unwrap();
        let c = self.pos.turn();
        self.pos.play_unchecked(m);
        self.act(c, |s, t| s.play(m, t))
    }

    fn state(&self) -> GameState {
        verify(&self.events).unwrap()
    }

    fn err(&self) -> VerifyError {
        verify(&self.events).unwrap_err()
    }

    /// White seals `text` (to resume a day later) and, unless `arbiter` is `None`, escrows
    /// the opening with that player in the same breath, as the node does. Returns the
    /// opening and the seal's id.
    fn seal(&mut self, text: &str, arbiter: Option<PlayerId>) -> (SealOpening, EventId) {
        let st = self.state();
        let used = verify_at(&self.events, Some(self.t + SECOND))
            .unwrap()
            .clocks
            .map_or([0, 0], |c| c.used_ms);
        let env = Envelope {
            white: st.white.unwrap(),
            black: st.black.unwrap(),
            fen_before: self.pos.fen(),
            time_used_ms: used,
            sealer: st.white.unwrap(),
            move_number: self.pos.fullmove_number(),
            draw_offer_by: None,
            resume_at_ms: Some(self.resume_at()),
            place: "Club Villa Dolores".into(),
            lateness_limit_ms: 60 * 60 * 1000,
        };
        let ply = st.moves.len() as u32 + 1;
        let letters = if text.starts_with(['D', 'T', 'A', 'C']) {
            SealLetters::Spanish
        } else {
            SealLetters::English
        };
        let mut opening = None;
        let seal = self.act(Color::White, |s, t| {
            let (ev, o) = s.seal(text, letters, [42; 32], env, ply, t)?;
            opening = Some(o);
            Ok(ev)
        });
        let opening = opening.unwrap();
        if let Some(arbiter) = arbiter {
            let sealed_box = escrow::seal_box(&self.context(seal.id(), arbiter), &opening, [7; 32])
                .expect("a box for a valid arbiter");
            self.act(Color::White, |s, t| {
                s.escrow(seal.id(), arbiter, sealed_box, t)
            });
        }
        (opening, seal.id())
    }

    /// The agreed resumption: a day after 1.e4 e5.
    fn resume_at(&self) -> u64 {
        T0 + DAY
    }

    fn context(&self, seal: EventId, arbiter: PlayerId) -> EscrowContext {
        EscrowContext {
            game: self.game(),
            seal,
            sealer: key(1).player_id(),
            arbiter,
        }
    }

    /// What the arbiter's node reads out of the escrow, in memory.
    fn arbiter_reads(&self, seal: EventId) -> SealOpening {
        let st = self.state();
        let env = st.envelopes.iter().find(|e| e.event == seal).unwrap();
        let b = &env.escrow.as_ref().expect("escrowed").sealed_box;
        escrow::open_box(&self.context(seal, key(3).player_id()), &key(3), b).unwrap()
    }

    /// At the agreed time Black is at the board (A7), White is not (A9c).
    fn resumption_with_white_absent(&mut self) {
        self.t = self.resume_at();
        self.act(Color::Black, |s, t| s.presence(t));
    }
}

fn arbiter() -> PlayerId {
    key(3).player_id()
}

fn sans(st: &GameState) -> Vec<&str> {
    st.moves.iter().map(|m| m.san.as_str()).collect()
}

/// The rule a record breaks (the test fails on any other error).
fn violation(e: &VerifyError) -> &V {
    e.violation()
        .unwrap_or_else(|| panic!("expected a rule error, got {e}"))
}

/// A9c, with A3: White sealed and escrowed Nf3 with the arbiter and does not come back.
/// At the resumption Black is present; the arbiter opens the envelope, the sealed move is
/// played as White's, Black's clock runs, and Black replies.
#[test]
fn a9c_arbiter_opens_the_absent_sealers_envelope_at_the_resumption() {
    let mut t = Table::new();
    let (_, seal) = t.seal("Cf3", Some(arbiter()));
    let st = t.state();
    assert_eq!(st.status, Status::Adjourned);
    assert_eq!(
        st.envelopes[0].escrow.as_ref().map(|e| e.arbiter),
        Some(arbiter())
    );
    t.resumption_with_white_absent();
    let opening = t.arbiter_reads(seal);
    assert_eq!(opening.move_text, "Cf3");
    t.third(true, |s, tm| s.arbiter_open(seal, &opening, tm));
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(sans(&st), ["e4", "e5", "Nf3"]);
    assert_eq!(st.moves[2].by, Color::White);
    assert!(st.moves[2].sealed);
    assert!(st.envelopes[0].opened_by_arbiter);
    assert_eq!(st.envelopes[0].opened.as_deref(), Some("Cf3"));
    let pgn = sobre_core::record::to_pgn(&st, &|p: &PlayerId| p.short());
    assert!(pgn.contains("opened at resumption by the arbiter"), "{pgn}");
    // Black answers the sealed move; the game goes on without White.
    t.mv("Nc6");
    assert_eq!(sans(&t.state()), ["e4", "e5", "Nf3", "Nc6"]);
}

/// A11 with A3: White is at the board but lost the opening; it is never White's free choice
/// of another move (the seal binds), but the arbiter keeps the envelope and opens it.
#[test]
fn a11_arbiter_opens_the_envelope_the_sealer_lost() {
    let mut t = Table::new();
    let (_, seal) = t.seal("Nf3", Some(arbiter()));
    t.t = t.resume_at();
    t.act(Color::Black, |s, tm| s.presence(tm));
    t.act(Color::White, |s, tm| s.presence(tm));
    // White cannot play another move in the envelope's place.
    let mut swapped = t.events.clone();
    let d4 = parse_san(&t.pos, "d4", Lang::English).unwrap();
    let mut white = Scoresheet::resume(
        key(1),
        t.game(),
        t.sheets[0].seq(),
        t.sheets[0].last(),
        t.sheets[0].seen(),
    );
    swapped.push(white.play(d4, t.t + SECOND).unwrap());
    let err = verify(&swapped).unwrap_err();
    assert_eq!(violation(&err), &V::SealedMoveBinding, "{err}");
    assert_eq!(err.article(), Some("A11"));
    let opening = t.arbiter_reads(seal);
    t.third(true, |s, tm| s.arbiter_open(seal, &opening, tm));
    let st = t.state();
    assert_eq!(sans(&st), ["e4", "e5", "Nf3"]);
    assert_eq!(st.status, Status::Active);
}

/// A2.7 with A7: the arbiter opens at the agreed time like anyone, not earlier (unless both
/// players signed presence), and only with the responder present.
#[test]
fn a7_a2_7_the_arbiter_cannot_open_early() {
    // Black "arrives" twelve hours early; White is away.
    let mut t = Table::new();
    let (_, seal) = t.seal("Nf3", Some(arbiter()));
    t.t = t.resume_at() - DAY / 2;
    t.act(Color::Black, |s, tm| s.presence(tm));
    let opening = t.arbiter_reads(seal);
    t.third(true, |s, tm| s.arbiter_open(seal, &opening, tm));
    let err = t.err();
    assert_eq!(
        violation(&err),
        &V::Adjournment(AdjournmentRule::BeforeResumption),
        "{err}"
    );
    assert_eq!(err.article(), Some("A2.7"));
    // At the agreed time, without Black at the board: A7.
    let mut t = Table::new();
    let (_, seal) = t.seal("Nf3", Some(arbiter()));
    t.t = t.resume_at();
    let opening = t.arbiter_reads(seal);
    t.third(true, |s, tm| s.arbiter_open(seal, &opening, tm));
    let err = t.err();
    assert_eq!(
        violation(&err),
        &V::Adjournment(AdjournmentRule::ResponderAbsent),
        "{err}"
    );
    assert_eq!(err.article(), Some("A7"));
    // Both players present before the time: they agreed to resume early (A7), so it opens.
    let mut t = Table::new();
    let (_, seal) = t.seal("Nf3", Some(arbiter()));
    t.t = t.resume_at() - DAY / 2;
    t.act(Color::Black, |s, tm| s.presence(tm));
    t.act(Color::White, |s, tm| s.presence(tm));
    let opening = t.arbiter_reads(seal);
    t.third(true, |s, tm| s.arbiter_open(seal, &opening, tm));
    assert_eq!(sans(&t.state()), ["e4", "e5", "Nf3"]);
}

/// A3: the arbiter can open only the true sealed move: another move, or the right move with
/// another salt, does not match the sealer's commitment and the record fails.
#[test]
fn a3_an_arbiter_opening_another_move_or_salt_is_rejected() {
    for (text, salt) in [("Bc4", [42u8; 32]), ("Nf3", [43u8; 32])] {
        let mut t = Table::new();
        let (_, seal) = t.seal("Nf3", Some(arbiter()));
        t.resumption_with_white_absent();
        let forged = SealOpening {
            move_text: text.into(),
            salt,
        };
        t.third(true, |s, tm| s.arbiter_open(seal, &forged, tm));
        let err = t.err();
        assert_eq!(violation(&err), &V::OpeningMismatch, "{text}: {err}");
    }
}

/// A3: only the arbiter the envelope is escrowed to opens it: a stranger's opening (even
/// the true one) makes the record fail, as does a player's.
#[test]
fn a3_a_third_party_cannot_open_the_envelope() {
    let mut t = Table::new();
    let (opening, seal) = t.seal("Nf3", Some(arbiter()));
    t.resumption_with_white_absent();
    t.third(false, |s, tm| s.arbiter_open(seal, &opening, tm));
    assert!(
        matches!(t.err(), VerifyError::NotAPlayer { .. }),
        "{}",
        t.err()
    );
    // Black signing the arbiter's kind of opening.
    let mut t = Table::new();
    let (opening, seal) = t.seal("Nf3", Some(arbiter()));
    t.resumption_with_white_absent();
    t.act(Color::Black, |s, tm| s.arbiter_open(seal, &opening, tm));
    assert_eq!(violation(&t.err()), &V::OpenNotArbiter, "{}", t.err());
    assert_eq!(t.err().article(), Some("A3"));
    // Without an escrow nobody but the sealer opens.
    let mut t = Table::new();
    let (opening, seal) = t.seal("Nf3", None);
    t.resumption_with_white_absent();
    t.third(true, |s, tm| s.arbiter_open(seal, &opening, tm));
    assert!(
        matches!(t.err(), VerifyError::NotAPlayer { .. }),
        "{}",
        t.err()
    );
}

/// A9: the sealer's node and the arbiter's both open at the resumption; whichever opening
/// comes second changes nothing and is kept as ignored, never an error. Either order, and
/// either one seen by the other or both signed without knowing of the other (a race,
/// settled by the signed times).
#[test]
fn a9_sealer_and_arbiter_both_open_the_second_is_ignored() {
    for (arbiter_first, race) in [(true, false), (false, false), (true, true), (false, true)] {
        let case = format!("arbiter first: {arbiter_first}, race: {race}");
        let mut t = Table::new();
        let (opening, seal) = t.seal("Nf3", Some(arbiter()));
        t.resumption_with_white_absent();
        let read = t.arbiter_reads(seal);
        let (first, second) = if race {
            // Both answer Black's presence, one second apart.
            let base = t.t + SECOND;
            let (ta, tw) = if arbiter_first {
                (base, base + SECOND)
            } else {
                (base + SECOND, base)
            };
            let a = t.arbiter.arbiter_open(seal, &read, ta).unwrap();
            let w = t.sheets[0].reveal(&opening, tw).unwrap();
            t.t = base + SECOND;
            t.events.extend([a.clone(), w.clone()]);
            let later = if arbiter_first { &w } else { &a };
            t.sheets[1].saw(later.id());
            if arbiter_first { (a, w) } else { (w, a) }
        } else if arbiter_first {
            let a = t.third(true, |s, tm| s.arbiter_open(seal, &read, tm));
            let w = t.act(Color::White, |s, tm| s.reveal(&opening, tm));
            (a, w)
        } else {
            let w = t.act(Color::White, |s, tm| s.reveal(&opening, tm));
            let a = t.third(true, |s, tm| s.arbiter_open(seal, &read, tm));
            (w, a)
        };
        let st = t.state();
        assert_eq!(sans(&st), ["e4", "e5", "Nf3"], "{case}");
        assert_eq!(st.moves[2].event, first.id(), "{case}");
        assert_eq!(st.envelopes[0].opened_by_arbiter, arbiter_first, "{case}");
        assert_eq!(st.ignored.len(), 1, "{case}: {:?}", st.ignored);
        assert_eq!(st.ignored[0].0, second.id(), "{case}");
        assert!(st.ignored[0].1.contains("A9"), "{}", st.ignored[0].1);
        // The game goes on.
        t.mv("Nc6");
        assert_eq!(t.state().moves.len(), 4, "{case}");
    }
}

/// A second opening with another move is still a false opening: an error, not ignored.
#[test]
fn a3_a_second_opening_that_does_not_match_is_rejected() {
    let mut t = Table::new();
    let (opening, seal) = t.seal("Nf3", Some(arbiter()));
    t.resumption_with_white_absent();
    t.act(Color::White, |s, tm| s.reveal(&opening, tm));
    let forged = SealOpening {
        move_text: "d4".into(),
        salt: [42; 32],
    };
    t.third(true, |s, tm| s.arbiter_open(seal, &forged, tm));
    assert_eq!(violation(&t.err()), &V::OpeningMismatch, "{}", t.err());
}

/// A8 through the arbiter: the sealed move is judged as written whoever opens it; an
/// illegal one loses for the sealer.
#[test]
fn a8_an_illegal_sealed_move_opened_by_the_arbiter_loses_for_the_sealer() {
    let mut t = Table::new();
    let (_, seal) = t.seal("Dxd5", Some(arbiter()));
    t.resumption_with_white_absent();
    let opening = t.arbiter_reads(seal);
    t.third(true, |s, tm| s.arbiter_open(seal, &opening, tm));
    let st = t.state();
    assert_eq!(
        st.result,
        Some(Outcome::Decisive {
            winner: Color::Black
        })
    );
    assert_eq!(st.termination, Some(Termination::IllegalSealedMove));
    assert!(st.sealed_move_error.unwrap().contains("A8"));
}

/// A3: what an escrow must be. Each of these makes the record fail: an arbiter who plays in
/// the game, a seal other than the envelope still closed, an escrow by the responder, a
/// second escrow, an oversized box, an escrow after the opening.
#[test]
fn a3_escrow_rules() {
    let cases: [(&str, V); 6] = [
        ("player", V::ArbiterIsPlayer),
        ("other seal", V::EscrowWrongSeal),
        ("responder", V::EscrowNotSealer),
        ("twice", V::AlreadyEscrowed),
        (
            "oversized",
            V::Escrow(EscrowError::BoxSize {
                len: SEALED_BOX_BYTES + 1,
            }),
        ),
        ("after opening", V::NoEnvelopeToEscrow),
    ];
    for (case, expected) in cases {
        let mut t = Table::new();
        let (opening, seal) = t.seal("Nf3", None);
        let good_box = escrow::seal_box(&t.context(seal, arbiter()), &opening, [7; 32]).unwrap();
        match case {
            "player" => {
                let black = key(2).player_id();
                let b = escrow::seal_box(&t.context(seal, black), &opening, [7; 32]).unwrap();
                t.act(Color::White, |s, tm| s.escrow(seal, black, b, tm));
            }
            "other seal" => {
                t.act(Color::White, |s, tm| {
                    s.escrow(EventId([9; 32]), arbiter(), good_box, tm)
                });
            }
            "responder" => {
                t.act(Color::Black, |s, tm| {
                    s.escrow(seal, arbiter(), good_box, tm)
                });
            }
            "twice" => {
                let again = good_box.clone();
                t.act(Color::White, |s, tm| {
                    s.escrow(seal, arbiter(), good_box, tm)
                });
                t.act(Color::White, |s, tm| s.escrow(seal, arbiter(), again, tm));
            }
            "oversized" => {
                let big = vec![0u8; SEALED_BOX_BYTES + 1];
                t.act(Color::White, |s, tm| s.escrow(seal, arbiter(), big, tm));
            }
            _ => {
                t.resumption_with_white_absent();
                t.act(Color::White, |s, tm| s.reveal(&opening, tm));
                t.act(Color::White, |s, tm| {
                    s.escrow(seal, arbiter(), good_box, tm)
                });
            }
        }
        let err = t.err();
        assert_eq!(violation(&err), &expected, "{case}: {err}");
        assert_eq!(err.article(), Some("A3"), "{case}");
    }
}

/// A3: the arbiter is a witness besides: it may sign receipts, and nothing but receipts and
/// the opening — a move, a claim or a draw offer by the arbiter makes the record fail.
#[test]
fn a3_the_arbiter_signs_receipts_and_the_opening_only() {
    let mut t = Table::new();
    let (_, seal) = t.seal("Nf3", Some(arbiter()));
    t.third(true, |s, tm| s.receipt(seal, tm));
    assert_eq!(t.state().status, Status::Adjourned);
    t.third(true, |s, tm| s.offer_draw(tm));
    assert!(
        matches!(t.err(), VerifyError::NotAPlayer { .. }),
        "{}",
        t.err()
    );
}

/// A10 with an escrow: an arbiter who never opens leaves the rules as they are without one;
/// the absent sealer loses on the responder's claim after the limit.
#[test]
fn a10_an_escrow_the_arbiter_never_opens_changes_no_verdict() {
    let mut t = Table::new();
    let _ = t.seal("Nf3", Some(arbiter()));
    t.resumption_with_white_absent();
    t.t = t.resume_at() + 2 * 60 * 60 * SECOND;
    t.act(Color::Black, |s, tm| {
        s.claim(ClaimReason::Lateness, None, tm)
    });
    let st = t.state();
    assert_eq!(st.termination, Some(Termination::LateForResumption));
    assert_eq!(
        st.result,
        Some(Outcome::Decisive {
            winner: Color::Black
        })
    );
}

/// A record with an escrow and the arbiter's opening verifies the same from any order of
/// its events; the sealed move is the arbiter's event.
#[test]
fn a9c_a_record_with_an_arbiters_opening_verifies_in_any_order() {
    let mut t = Table::new();
    let (_, seal) = t.seal("Nf3", Some(arbiter()));
    t.resumption_with_white_absent();
    let opening = t.arbiter_reads(seal);
    let open = t.third(true, |s, tm| s.arbiter_open(seal, &opening, tm));
    t.mv("Nc6");
    let forward = t.state();
    assert_eq!(forward.moves[2].event, open.id());
    let mut reversed = t.events.clone();
    reversed.reverse();
    let back = verify(&reversed).unwrap();
    assert_eq!(back.timeline, forward.timeline);
    assert_eq!(back.position, forward.position);
    assert!(matches!(
        open.verify().unwrap().event.kind,
        EventKind::ArbiterOpen { .. }
    ));
}
