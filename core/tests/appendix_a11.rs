//! FIDE Appendix A11 on signed records: the envelope is lost (wire tags 22 to 24).
//!
//! - A11.1 (2009, seed 003; A11a in 2005, seed 002): "Si se pierde el sobre que contiene la
//!   jugada secreta, la partida continuará a partir de la posición y con los tiempos
//!   anotados en el momento del aplazamiento … El jugador que hizo la jugada secreta ejecuta
//!   sobre el tablero la jugada que declara ser la que selló." A sealed move binds (tag 17),
//!   so the sealer's declaration counts only once the responder or the agreed arbiter accepts
//!   it; then the game goes on exactly as if the envelope had been opened with it.
//! - A11.2 (A11b in 2005; club rules, seed 000, art. 16.5): "Si es imposible restablecer la
//!   posición, se anulará la partida y se jugará una nueva." The agreed arbiter, or both
//!   players, annul the game; it scores nothing and leaves the league table.
//!
//! With the attacks: a sealer declaring another move than the one sealed, a stranger or the
//! sealer accepting, a declaration by the wrong player, twice or after the opening.

use crate::common::{LIMIT, Table, key, win};
use sobre_core::clock::{DAY, MINUTE, SECOND};
use sobre_core::league::{GameEntry, League, LeagueDef, Scoring, standings};
use sobre_core::record::author::{Scoresheet, SealOpening};
use sobre_core::record::codec::CodecError;
use sobre_core::record::verify::Judgement;
use sobre_core::record::{
    Accepter, AnnulledBy, EventId, LeagueRound, PlayerId, RuleViolation as V, SignedEvent, Status,
    Terms, VerifyError, to_pgn, verify,
};
use sobre_core::san::{Lang, parse_san};
use sobre_core::{Color, Move};

const W: Color = Color::White;
const B: Color = Color::Black;

/// The arbiter both players agree on in the game's terms.
fn arbiter() -> PlayerId {
    key(3).player_id()
}

/// Terms naming the arbiter, or none.
fn terms(with_arbiter: bool) -> Terms {
    Terms {
        arbiter: with_arbiter.then(arbiter),
        ..Terms::default()
    }
}

/// A game over the board on agreed terms: 1.e4 e5, then White thinks ten minutes and seals
/// `sealed` for a resumption a day later. Returns the table, the opening and the resumption.
fn adjourned(terms: Terms, sealed: &str) -> (Table, SealOpening, u64) {
    let mut t = Table::on_terms("otb 2h", terms);
    t.moves("e4 e5");
    let at = t.t + 10 * MINUTE;
    let resume = at + DAY;
    let opening = t.seal_at(at, sealed, resume);
    (t, opening, resume)
}

/// The move `san` in the position on the table (the one the envelope was sealed in).
fn mv(t: &Table, san: &str) -> Move {
    parse_san(&t.pos, san, Lang::English).unwrap()
}

/// White declares `san` as the move they sealed at `at`.
fn declare(t: &mut Table, at: u64, san: &str) -> SignedEvent {
    let m = mv(t, san);
    t.act_at(W, at, |s, tm| s.declare_sealed_move(m, tm))
}

/// Someone who is not a player (key `n`: 3 is the arbiter) signs at `at` from a log that
/// has seen `seen`; both players see the event.
fn third(
    t: &mut Table,
    n: u8,
    seen: EventId,
    at: u64,
    f: impl FnOnce(&mut Scoresheet, u64) -> Result<SignedEvent, CodecError>,
) -> SignedEvent {
    let mut sheet = Scoresheet::join(key(n), t.sheets[0].game());
    sheet.saw(seen);
    let ev = f(&mut sheet, at).unwrap();
    t.t = at;
    for s in &mut t.sheets {
        s.saw(ev.id());
    }
    t.events.push(ev.clone());
    ev
}

/// The rule a record breaks (the test fails on any other error).
fn violation(e: &VerifyError) -> &V {
    e.violation()
        .unwrap_or_else(|| panic!("expected a rule error, got {e}"))
}

fn sans(t: &Table) -> Vec<String> {
    t.state().moves.iter().map(|m| m.san.clone()).collect()
}

// A11.1: the declared move, accepted.

/// A11.1: White lost the opening and declares Nf3 at the resumption; until Black accepts,
/// nothing is played. Black's acceptance plays it as White's sealed move, and the clocks are
/// exactly those of the envelope opened at that moment (A1, A9a: "con los tiempos anotados
/// en el momento del aplazamiento").
#[test]
fn a11_1_the_responder_accepts_the_declared_move_and_the_game_goes_on() {
    let (mut t, _, resume) = adjourned(terms(false), "Nf3");
    t.presence_at(B, resume - 5 * MINUTE);
    let declared = declare(&mut t, resume + MINUTE, "Nf3");
    let st = t.state();
    assert_eq!(
        st.status,
        Status::Adjourned,
        "a declaration alone plays nothing"
    );
    assert_eq!(st.moves.len(), 2);
    let d = st.envelopes[0].declared.as_ref().expect("recorded");
    assert_eq!(
        (d.event, d.san.as_str(), d.accepted.is_none()),
        (declared.id(), "Nf3", true)
    );

    let accepted = t.act_at(B, resume + 2 * MINUTE, |s, tm| {
        s.accept_declared_move(declared.id(), tm)
    });
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(sans(&t), ["e4", "e5", "Nf3"]);
    assert!(st.moves[2].sealed);
    assert_eq!(st.moves[2].by, W);
    assert!(st.envelope_lost);
    assert_eq!(
        st.envelopes[0].opened, None,
        "the envelope itself was never opened"
    );
    let a = st.envelopes[0]
        .declared
        .as_ref()
        .unwrap()
        .accepted
        .as_ref()
        .unwrap();
    assert_eq!(
        (a.by, a.role, a.event),
        (key(2).player_id(), Accepter::Responder, accepted.id())
    );

    // The same game with the envelope opened at the same moment: the same clocks.
    let (mut opened, opening, _) = adjourned(terms(false), "Nf3");
    opened.presence_at(B, resume - 5 * MINUTE);
    opened.reveal_at(W, resume + 2 * MINUTE, &opening);
    let later = resume + 12 * MINUTE;
    assert_eq!(t.left(later), opened.left(later));
    assert_eq!(t.at(later).clocks.unwrap().running, Some(B));

    // Black answers the declared move; the game goes on.
    t.pos = t.state().position;
    t.mv("Nc6");
    assert_eq!(sans(&t), ["e4", "e5", "Nf3", "Nc6"]);
    let pgn = to_pgn(&t.state(), &|p: &PlayerId| p.short());
    assert!(
        pgn.contains("envelope lost; the sealer declared Nf3, accepted by")
            && pgn.contains("(the responder) (A11)"),
        "{pgn}"
    );
}

/// A11.1 attack: White sealed Nf3, lost the opening, and declares d4 instead. Black does not
/// accept: the game is not continued, and a sealer who never opens the envelope loses on
/// Black's claim after the limit (A8, A10), as without the declaration. Playing d4 on the
/// board instead is refused as before (the seal binds).
#[test]
fn a11_1_a_declaration_the_responder_refuses_leaves_the_sealer_to_lose_by_a10() {
    let (mut t, _, resume) = adjourned(terms(false), "Nf3");
    t.presence_at(B, resume);
    t.presence_at(W, resume + MINUTE);
    declare(&mut t, resume + 2 * MINUTE, "d4");
    let st = t.state();
    assert_eq!(st.status, Status::Adjourned);
    assert_eq!(st.moves.len(), 2);
    assert!(!st.envelope_lost);

    let mut played = t.events.clone();
    let mut white = Scoresheet::resume(
        key(1),
        t.sheets[0].game(),
        t.sheets[0].seq(),
        t.sheets[0].last(),
        t.sheets[0].seen(),
    );
    played.push(white.play(mv(&t, "d4"), resume + 3 * MINUTE).unwrap());
    let err = verify(&played).unwrap_err();
    assert_eq!(violation(&err), &V::SealedMoveBinding, "{err}");

    t.claim_lateness_at(B, resume + 2 * LIMIT);
    let st = t.state();
    assert_eq!(st.result, win(B));
    assert_eq!(
        st.claims.last().map(|c| c.judgement.clone()),
        Some(Judgement::SealerCannotOpen { sealer: W })
    );
    assert_eq!(st.moves.len(), 2, "the declared move was never played");
}

/// A11.1 with A3: the arbiter both players agreed on accepts the declaration when the
/// responder, at the board, does not answer it; the game goes on, and Black answers once
/// they have seen the acceptance.
#[test]
fn a11_1_the_arbiter_accepts_when_the_responder_does_not() {
    let (mut t, _, resume) = adjourned(terms(true), "Nf3");
    t.presence_at(B, resume);
    let declared = declare(&mut t, resume + MINUTE, "Nf3");
    let accepted = third(&mut t, 3, declared.id(), resume + 5 * MINUTE, |s, tm| {
        s.accept_declared_move(declared.id(), tm)
    });
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert_eq!(sans(&t), ["e4", "e5", "Nf3"]);
    let a = st.envelopes[0]
        .declared
        .as_ref()
        .unwrap()
        .accepted
        .as_ref()
        .unwrap();
    assert_eq!(
        (a.by, a.role, a.event),
        (arbiter(), Accepter::Arbiter, accepted.id())
    );
    t.pos = st.position;
    t.mv("Nc6");
    assert_eq!(sans(&t), ["e4", "e5", "Nf3", "Nc6"]);
    let pgn = to_pgn(&t.state(), &|p: &PlayerId| p.short());
    assert!(pgn.contains("(the arbiter) (A11)"), "{pgn}");
    // A second acceptance (Black's, crossing the arbiter's) is a fact, not an error.
    let mut both = t.events.clone();
    let mut black = Scoresheet::resume(
        key(2),
        t.sheets[1].game(),
        t.sheets[1].seq(),
        t.sheets[1].last(),
        t.sheets[1].seen(),
    );
    both.push(
        black
            .accept_declared_move(declared.id(), t.t + SECOND)
            .unwrap(),
    );
    let st = verify(&both).unwrap();
    assert!(
        st.ignored
            .iter()
            .any(|(_, why)| why.contains("second acceptance"))
    );
}

/// A7 (with A11.1): the acceptance opens the envelope, so it waits for the responder at the
/// board, whoever accepts: an arbiter's acceptance for an absent Black is refused.
#[test]
fn a7_an_arbiters_acceptance_waits_for_the_responder() {
    let (mut t, _, resume) = adjourned(terms(true), "Nf3");
    t.presence_at(W, resume);
    let declared = declare(&mut t, resume + MINUTE, "Nf3");
    third(&mut t, 3, declared.id(), resume + 2 * MINUTE, |s, tm| {
        s.accept_declared_move(declared.id(), tm)
    });
    let err = t.err();
    assert_eq!(err.article(), Some("A7"), "{err}");
}

/// A11.1 attacks on the acceptance: a stranger's is refused (they are no one in the game),
/// as is the sealer accepting their own declaration, and an acceptance naming no
/// declaration.
#[test]
fn a11_1_only_the_responder_or_the_agreed_arbiter_accepts() {
    let (mut t, _, resume) = adjourned(terms(true), "Nf3");
    t.presence_at(B, resume);
    let declared = declare(&mut t, resume + MINUTE, "Nf3");
    let base = t.events.clone();

    let mut white = Scoresheet::resume(
        key(1),
        t.sheets[0].game(),
        t.sheets[0].seq(),
        t.sheets[0].last(),
        t.sheets[0].seen(),
    );
    t.events.push(
        white
            .accept_declared_move(declared.id(), resume + 2 * MINUTE)
            .unwrap(),
    );
    let err = t.err();
    assert_eq!(violation(&err), &V::AcceptDeclarationNotAllowed, "{err}");
    assert_eq!(err.article(), Some("A11.1"));

    t.events = base.clone();
    let mut black = Scoresheet::resume(
        key(2),
        t.sheets[1].game(),
        t.sheets[1].seq(),
        t.sheets[1].last(),
        t.sheets[1].seen(),
    );
    t.events.push(
        black
            .accept_declared_move(EventId([9; 32]), resume + 2 * MINUTE)
            .unwrap(),
    );
    assert_eq!(violation(&t.err()), &V::UnknownDeclaration, "{}", t.err());

    t.events = base;
    third(&mut t, 4, declared.id(), resume + 2 * MINUTE, |s, tm| {
        s.accept_declared_move(declared.id(), tm)
    });
    assert!(
        matches!(t.err(), VerifyError::NotAPlayer { .. }),
        "{}",
        t.err()
    );
}

/// A11.1 attacks on the declaration: the responder cannot declare the sealer's move, the
/// sealer declares once (else they could offer moves until one is accepted), never after
/// the envelope was opened, only a legal move, and only while a binding envelope is closed.
#[test]
fn a11_1_only_the_sealer_declares_once_while_the_envelope_is_closed() {
    let (mut t, _, resume) = adjourned(terms(false), "Nf3");
    let m = mv(&t, "Nf3");
    t.act_at(B, resume, |s, tm| s.declare_sealed_move(m, tm));
    assert_eq!(violation(&t.err()), &V::DeclareNotSealer, "{}", t.err());

    let (mut t, _, resume) = adjourned(terms(false), "Nf3");
    declare(&mut t, resume, "Nf3");
    declare(&mut t, resume + MINUTE, "d4");
    assert_eq!(violation(&t.err()), &V::AlreadyDeclared, "{}", t.err());

    let (mut t, opening, resume) = adjourned(terms(false), "Nf3");
    t.presence_at(B, resume);
    t.reveal_at(W, resume + MINUTE, &opening);
    let m = parse_san(&sobre_core::Position::new(), "d4", Lang::English).unwrap();
    t.act_at(W, resume + 2 * MINUTE, |s, tm| s.declare_sealed_move(m, tm));
    let err = t.err();
    assert_eq!(violation(&err), &V::DeclaredAfterOpening, "{err}");
    assert_eq!(err.article(), Some("A11.1"));

    let (mut t, _, resume) = adjourned(terms(false), "Nf3");
    let illegal = parse_san(&sobre_core::Position::new(), "e4", Lang::English).unwrap();
    t.act_at(W, resume, |s, tm| s.declare_sealed_move(illegal, tm));
    assert!(
        matches!(violation(&t.err()), V::IllegalMove { .. }),
        "{}",
        t.err()
    );

    let mut t = Table::on_terms("otb 2h", terms(false));
    t.moves("e4 e5");
    let at = t.t + SECOND;
    declare(&mut t, at, "Nf3");
    assert_eq!(
        violation(&t.err()),
        &V::NoSealedMoveToDeclare,
        "{}",
        t.err()
    );
}

/// A11.1: the true opening that turns up after the declared move was accepted changes
/// nothing — the game went on with the declared move — and is kept as a fact showing what
/// was really sealed. An acceptance that comes after the envelope was opened is a fact too.
#[test]
fn a11_1_an_opening_after_the_accepted_declaration_is_kept_but_ignored() {
    let (mut t, opening, resume) = adjourned(terms(false), "Nf3");
    t.presence_at(B, resume);
    let declared = declare(&mut t, resume + MINUTE, "d4");
    t.act_at(B, resume + 2 * MINUTE, |s, tm| {
        s.accept_declared_move(declared.id(), tm)
    });
    let found = t.act_at(W, resume + 3 * MINUTE, |s, tm| s.reveal(&opening, tm));
    let st = t.state();
    assert_eq!(sans(&t), ["e4", "e5", "d4"], "the declared move stands");
    let (_, why) = st
        .ignored
        .iter()
        .find(|(id, _)| *id == found.id())
        .expect("kept");
    assert!(why.contains("\"Nf3\"") && why.contains("A11.1"), "{why}");

    // The envelope opened first: a later acceptance is ignored, the sealed move stands.
    let (mut t, opening, resume) = adjourned(terms(false), "Nf3");
    t.presence_at(B, resume);
    let declared = declare(&mut t, resume + MINUTE, "d4");
    t.reveal_at(W, resume + 2 * MINUTE, &opening);
    let late = t.act_at(B, resume + 3 * MINUTE, |s, tm| {
        s.accept_declared_move(declared.id(), tm)
    });
    let st = t.state();
    assert_eq!(sans(&t), ["e4", "e5", "Nf3"]);
    assert!(st.ignored.iter().any(|(id, _)| *id == late.id()));
}

/// Tags 22 to 24 need an agreed arbiter's terms (protocol version 3): a game signed under
/// version 2 refuses a declaration with its own error, naming the version.
#[test]
fn a11_declarations_need_a_game_on_agreed_terms() {
    let mut t = Table::new("otb 2h");
    t.moves("e4 e5");
    let resume = t.t + DAY;
    t.seal_at(t.t + SECOND, "Nf3", resume);
    declare(&mut t, resume, "Nf3");
    let err = t.err();
    assert_eq!(
        violation(&err),
        &V::A11NeedsAgreedTerms { version: 2 },
        "{err}"
    );
    assert_eq!(err.article(), Some("A11"));
}

// A11.2: annulment.

/// A11.2: the position cannot be re-established; the agreed arbiter annuls the game alone.
/// It is cancelled with no result, and the record says why.
#[test]
fn a11_2_the_arbiter_annuls_the_game() {
    let (mut t, _, resume) = adjourned(terms(true), "Nf3");
    let last = t.events.last().unwrap().id();
    let annul = third(&mut t, 3, last, resume, |s, tm| s.annul_game(tm));
    let st = t.state();
    assert_eq!(st.status, Status::Cancelled);
    assert_eq!(st.result, None);
    let a = st.annulled.as_ref().expect("annulled");
    assert_eq!(
        (a.by, a.events.clone()),
        (AnnulledBy::Arbiter(arbiter()), vec![annul.id()])
    );
    let pgn = to_pgn(&st, &|p: &PlayerId| p.short());
    assert!(pgn.contains("[Termination \"annulled (A11.2)\"]"), "{pgn}");
    assert!(pgn.contains("a new game is to be played"), "{pgn}");
    // Nothing after it reopens the game.
    t.presence_at(B, resume + MINUTE);
    assert_eq!(t.state().status, Status::Cancelled);
}

/// A11.2 with art. 16.5 ("por acuerdo de los jugadores"): without an arbiter both players
/// annul; one player's request alone changes nothing (the sealer cannot escape a lost
/// envelope by annulling), and a stranger cannot annul at all.
#[test]
fn a11_2_without_an_arbiter_annulment_needs_both_players() {
    let (mut t, _, resume) = adjourned(terms(false), "Nf3");
    let white = t.act_at(W, resume, |s, tm| s.annul_game(tm));
    let st = t.state();
    assert_eq!(
        st.status,
        Status::Adjourned,
        "one player's request annuls nothing"
    );
    assert_eq!(st.annul_requests, [Some(white.id()), None]);
    let base = t.events.clone();

    let black = t.act_at(B, resume + MINUTE, |s, tm| s.annul_game(tm));
    let st = t.state();
    assert_eq!(st.status, Status::Cancelled);
    let a = st.annulled.as_ref().expect("annulled");
    assert_eq!(
        (a.by, a.events.clone()),
        (AnnulledBy::Players, vec![white.id(), black.id()])
    );
    assert!(to_pgn(&st, &|p: &PlayerId| p.short()).contains("by both players (A11.2)"));

    // A key outside the terms (an arbiter nobody agreed on) is no one here.
    t.events = base;
    let last = t.events.last().unwrap().id();
    third(&mut t, 3, last, resume + MINUTE, |s, tm| s.annul_game(tm));
    assert!(
        matches!(t.err(), VerifyError::NotAPlayer { .. }),
        "{}",
        t.err()
    );
}

/// A11.2: a game that is not adjourned with a closed binding envelope has nothing lost, so
/// it cannot be annulled; a request that crosses the opening is kept as a fact.
#[test]
fn a11_2_only_a_game_with_a_closed_envelope_is_annulled() {
    let mut t = Table::on_terms("otb 2h", terms(false));
    t.moves("e4 e5");
    t.act(W, |s, tm| s.annul_game(tm));
    let err = t.err();
    assert_eq!(violation(&err), &V::NothingToAnnul, "{err}");
    assert_eq!(err.article(), Some("A11.2"));

    let (mut t, opening, resume) = adjourned(terms(false), "Nf3");
    t.presence_at(B, resume);
    t.reveal_at(W, resume + MINUTE, &opening);
    let late = t.act_at(B, resume + 2 * MINUTE, |s, tm| s.annul_game(tm));
    let st = t.state();
    assert_eq!(st.status, Status::Active);
    assert!(st.ignored.iter().any(|(id, _)| *id == late.id()));
}

/// A11.2 in a league: the annulled game scores nothing and is left out of the table with
/// the reason, so that the new game played in its place is the one that counts.
#[test]
fn a11_2_an_annulled_game_leaves_the_league_table_with_the_reason() {
    let organiser = key(3);
    let players = [key(1), key(5), key(6), key(2)];
    let def = LeagueDef {
        name: "Liga de invierno".into(),
        players: players.iter().map(|k| k.player_id()).collect(),
        names: ["Ana", "Elena", "Fermín", "Bruno"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        double: false,
        time_control: "otb 2h".into(),
        start_ms: crate::common::T0 - DAY,
        round_days: 7,
        scoring: Scoring::default(),
    };
    let league = League::create(&organiser, def, crate::common::T0 - 2 * DAY).unwrap();
    assert!(league.is_pairing(1, &key(1).player_id(), &key(2).player_id()));
    let round = LeagueRound {
        league: league.id,
        round: 1,
    };
    let mut t = Table::in_league("otb 2h", terms(true), round);
    t.moves("e4 e5");
    let resume = t.t + DAY;
    t.seal_at(t.t + SECOND, "Nf3", resume);
    let last = t.events.last().unwrap().id();
    third(&mut t, 3, last, resume, |s, tm| s.annul_game(tm));
    let entry = GameEntry {
        game: t.sheets[0].game(),
        events: t.events.clone(),
        proofs: Vec::new(),
    };
    let table = standings(&league, &[entry], resume + DAY);
    assert!(table.games.is_empty(), "{:?}", table.games);
    assert_eq!(table.excluded.len(), 1);
    assert_eq!(table.excluded[0].reason, "annulled (A11b): to be replayed");
    assert!(table.rows.iter().all(|r| r.points_halves == 0));
}
