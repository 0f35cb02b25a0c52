//! The start deadline (FIDE 6.6 of 2009, 6.7 of 2005, club art. 17b) on real signed games
//! of a six-player league whose organiser's node is the mailbox that signs receipts.

use super::*;
use crate::league::decision::{Decided, Decision, apply};
use crate::league::render::grid;
use crate::league::standings::{GameEntry, Standings, standings};
use crate::league::tests::{key, six_player_league};
use crate::league::{DAY_MS, LeagueRule};
use crate::record::{
    Challenge, ColourChoice, Keypair, LeagueRound, Scoresheet, StartPosition, Terms, TermsEdition,
};
use crate::{Position, san};

const HOUR: u64 = 3_600_000;
/// Every game must have started two days after its round opens.
const DEADLINE: u64 = 2 * DAY_MS;

/// The six-player league of the other tests, with a start deadline of two days.
fn deadline_league() -> (Keypair, Vec<Keypair>, League) {
    let (org, players, plain) = six_player_league();
    let league = League::create_with_rules(
        &org,
        plain.def.clone(),
        None,
        vec![LeagueRule::StartDeadline {
            after_open_ms: DEADLINE,
        }],
        plain.created_ms,
    )
    .expect("valid league");
    (org, players, league)
}

/// A pairing's record as it grows: the inviter's and the invitee's scoresheets, and the
/// organiser's receipts (the league's mailbox).
struct Record {
    events: Vec<crate::record::SignedEvent>,
    inviter: Scoresheet,
    invitee: Scoresheet,
    mailbox: Scoresheet,
}

impl Record {
    /// `inviter` invites `invitee` to round `round`, as White (`inviter_white`) or Black,
    /// signing at `t`; the game is on `terms`.
    fn invite(
        league: &League,
        round: u32,
        inviter: &Keypair,
        invitee: &Keypair,
        inviter_white: bool,
        terms: Option<Terms>,
        t: u64,
    ) -> Record {
        let challenge = Challenge {
            opponent: invitee.player_id(),
            colour: if inviter_white {
                ColourChoice::ChallengerWhite
            } else {
                ColourChoice::ChallengerBlack
            },
            time_control: league.def.time_control.clone(),
            start: StartPosition::Standard,
            coin_commitment: None,
            league: Some(LeagueRound {
                league: league.id,
                round,
            }),
        };
        let (sheet, c) = match terms {
            Some(terms) => Scoresheet::challenge_on_terms(inviter.clone(), challenge, terms, t),
            None => Scoresheet::challenge(inviter.clone(), challenge, t),
        }
        .expect("sign");
        let game = sheet.game();
        let mut invitee = Scoresheet::join(invitee.clone(), game);
        invitee.saw(c.id());
        Record {
            events: vec![c],
            inviter: sheet,
            invitee,
            mailbox: Scoresheet::join(key(100), game),
        }
    }

    /// The organiser's mailbox signs a receipt of the last event at `t` (plus a
    /// millisecond: a receipt follows what it receives).
    fn receipt(&mut self, t: u64) -> &mut Record {
        let last = self.events.last().expect("an event").id();
        let r = self.mailbox.receipt(last, t + 1).expect("sign");
        self.events.push(r);
        self
    }

    /// The invitee accepts, signing `t`.
    fn accept(&mut self, t: u64) -> &mut Record {
        let a = self.invitee.accept(None, t).expect("sign");
        self.inviter.saw(a.id());
        self.events.push(a);
        self
    }

    /// White plays 1.e4 at `t` (the inviter must be White).
    fn e4(&mut self, t: u64) -> &mut Record {
        let m = san::parse_san(&Position::new(), "e4", san::Lang::English).expect("legal");
        let e = self.inviter.play(m, t).expect("sign");
        self.invitee.saw(e.id());
        self.events.push(e);
        self
    }

    fn entry(&self) -> GameEntry {
        crate::record::verify(&self.events).expect("the record verifies");
        GameEntry {
            game: self.events[0].id(),
            events: self.events.clone(),
            proofs: Vec::new(),
        }
    }
}

/// The counted game of a pairing of `round`.
fn pairing<'a>(
    s: &'a Standings,
    round: u32,
    white: &Keypair,
    black: &Keypair,
) -> &'a crate::league::standings::CountedGame {
    s.games
        .iter()
        .find(|g| g.round == round && g.white == white.player_id() && g.black == black.player_id())
        .expect("a counted game for the pairing")
}

fn cell(s: &Standings, row: &str, col: &str) -> String {
    let g = grid(s);
    let r = g.iter().position(|l| l[2] == row).expect("a row");
    let c = 3 + g
        .iter()
        .skip(1)
        .position(|l| l[2] == col)
        .expect("a column");
    g[r][c].clone()
}

fn verdict_of(s: &Standings, round: u32, white: &Keypair, black: &Keypair) -> Option<StartVerdict> {
    match pairing(s, round, white, black).decided {
        Some(Decided::StartDeadline(v)) => Some(v),
        _ => None,
    }
}

/// Round 1 is 1–6, 2–5, 3–4 (Ana–Fermín, Bruno–Elena, Carmen–Diego). Ana invites in time
/// and Fermín never accepts; Bruno and Elena never appear; Carmen and Diego start in time.
#[test]
fn fide_6_6_2009_a_pairing_not_started_by_the_deadline_is_forfeited() {
    let (org, p, league) = deadline_league();
    let open = league.round_opens_ms(1);
    let deadline = league.start_deadline_ms(1).expect("a deadline");
    assert_eq!(deadline, open + DEADLINE);
    let mut unanswered = Record::invite(&league, 1, &p[0], &p[5], true, None, open + HOUR);
    unanswered.receipt(open + HOUR + 1);
    let mut started = Record::invite(&league, 1, &p[2], &p[3], true, None, open + HOUR);
    started
        .receipt(open + HOUR)
        .accept(open + DAY_MS)
        .receipt(open + DAY_MS + 5)
        .e4(open + DAY_MS + HOUR);
    let games = [unanswered.entry(), started.entry()];

    // Until the deadline has passed, nothing is judged.
    let s = standings(&league, &games, deadline);
    assert!(s.games.iter().all(|g| g.decided.is_none()));
    assert_eq!(s.unplayed.len(), 1, "Bruno – Elena");

    let s = standings(&league, &games, deadline + 1);
    assert_eq!(
        verdict_of(&s, 1, &p[0], &p[5]),
        Some(StartVerdict::BlackForfeits)
    );
    assert_eq!(
        verdict_of(&s, 1, &p[1], &p[4]),
        Some(StartVerdict::BothForfeit)
    );
    assert_eq!(verdict_of(&s, 1, &p[2], &p[3]), None);
    assert!(s.unplayed.is_empty(), "every pairing of round 1 is settled");
    // The unanswered invitation is left out: the pairing is forfeited.
    assert!(
        s.excluded
            .iter()
            .any(|n| n.game == unanswered.events[0].id() && n.reason.contains("forfeited")),
        "{:?}",
        s.excluded
    );
    // Ana wins by forfeit (+/-); Bruno and Elena both lose (-/-); in progress for the rest.
    assert_eq!(cell(&s, "Ana", "Fermín"), "+");
    assert_eq!(cell(&s, "Fermín", "Ana"), "-");
    assert_eq!(cell(&s, "Bruno", "Elena"), "-");
    assert_eq!(cell(&s, "Elena", "Bruno"), "-");
    assert_eq!(cell(&s, "Carmen", "Diego"), "*");
    let row = |name: &str| s.rows.iter().find(|r| r.name == name).expect("a row");
    assert_eq!(row("Ana").points_halves, 2);
    for name in ["Bruno", "Elena", "Fermín"] {
        assert_eq!(row(name).points_halves, 0, "{name}");
        assert_eq!((row(name).played, row(name).losses), (1, 1), "{name}");
    }
    // Later rounds are judged at their own deadlines: round 2 has opened, not passed.
    let s2 = standings(
        &league,
        &games,
        league.start_deadline_ms(2).expect("deadline"),
    );
    assert_eq!(s2.games.len(), 3);
    assert_eq!(s2.unplayed.len(), 3);

    // The verdict is every node's, computed from the evidence: an arbiter's decision about
    // the pairing is without effect.
    let forfeit = league
        .decide(
            &org,
            Decision::Forfeit {
                round: 1,
                white: p[0].player_id(),
                black: p[5].player_id(),
                winner: p[5].player_id(),
            },
            deadline + 2,
        )
        .expect("signed");
    let s = apply(&league, s, &[forfeit]);
    assert_eq!(s.bad_decisions.len(), 1);
    assert!(s.bad_decisions[0].text.contains("start deadline"));
    assert_eq!(
        verdict_of(&s, 1, &p[0], &p[5]),
        Some(StartVerdict::BlackForfeits)
    );
}

/// Either player may open the pairing: Black who invited in time wins when White neither
/// invited nor accepted.
#[test]
fn fide_6_6_2009_white_who_never_starts_the_game_forfeits_to_black_who_appeared() {
    let (_, p, league) = deadline_league();
    let open = league.round_opens_ms(1);
    let mut black_invites = Record::invite(&league, 1, &p[5], &p[0], false, None, open + 1);
    black_invites.receipt(open + 2);
    let s = standings(
        &league,
        &[black_invites.entry()],
        league.start_deadline_ms(1).expect("deadline") + 1,
    );
    assert_eq!(
        verdict_of(&s, 1, &p[0], &p[5]),
        Some(StartVerdict::WhiteForfeits)
    );
    assert_eq!(cell(&s, "Fermín", "Ana"), "+");
    assert_eq!(cell(&s, "Ana", "Fermín"), "-");
}

/// The 2005 text defers to the competition's rules as the 2009 one does ("salvo que las
/// bases de la competición … decidan otra cosa"): a game on 2005 terms started after the
/// deadline does not count, and Black, who accepted late, forfeits.
#[test]
fn fide_6_7_2005_a_game_started_after_the_deadline_is_forfeited_by_the_late_player() {
    let (org, p, league) = deadline_league();
    let open = league.round_opens_ms(1);
    let deadline = league.start_deadline_ms(1).expect("deadline");
    let terms = Terms {
        timekeepers: vec![org.player_id()],
        arbiter: Some(org.player_id()),
        edition: TermsEdition::Fide2005,
        ..Terms::default()
    };
    let mut late = Record::invite(&league, 1, &p[0], &p[5], true, Some(terms), open + HOUR);
    late.receipt(open + HOUR)
        .accept(deadline + HOUR)
        .receipt(deadline + HOUR)
        .e4(deadline + 2 * HOUR)
        .receipt(deadline + 2 * HOUR);
    let entry = late.entry();
    let s = standings(&league, std::slice::from_ref(&entry), deadline + DAY_MS);
    assert_eq!(
        verdict_of(&s, 1, &p[0], &p[5]),
        Some(StartVerdict::BlackForfeits)
    );
    let note = s
        .excluded
        .iter()
        .find(|n| n.game == entry.game)
        .expect("the late game is left out");
    assert!(
        note.reason.contains("Black did not accept"),
        "{}",
        note.reason
    );
}

/// Club rules art. 17b ("más de una hora de retraso") read as the league's deadline:
/// nobody at the board by then, both lose — and a game they start later does not undo it.
#[test]
fn club_17b_both_late_both_lose_even_if_they_play_later() {
    let (_, p, league) = deadline_league();
    let deadline = league.start_deadline_ms(1).expect("deadline");
    let mut late = Record::invite(&league, 1, &p[0], &p[5], true, None, deadline + 1);
    late.receipt(deadline + 1)
        .accept(deadline + 2)
        .receipt(deadline + 2);
    let s = standings(&league, &[late.entry()], deadline + DAY_MS);
    assert_eq!(
        verdict_of(&s, 1, &p[0], &p[5]),
        Some(StartVerdict::BothForfeit)
    );
    assert_eq!(
        pairing(&s, 1, &p[0], &p[5]).result,
        Some(crate::league::standings::LeagueResult::BothLost)
    );
}

/// Black, who let the deadline pass, signs an acceptance dated before it: the mailbox
/// received it after the deadline and White's reply is later still, so Black is late.
#[test]
fn attack_a_back_dated_acceptance_does_not_beat_the_deadline() {
    let (_, p, league) = deadline_league();
    let open = league.round_opens_ms(1);
    let deadline = league.start_deadline_ms(1).expect("deadline");
    let mut r = Record::invite(&league, 1, &p[0], &p[5], true, None, open + HOUR);
    r.receipt(open + HOUR)
        .accept(deadline - HOUR)
        .receipt(deadline + DAY_MS)
        .e4(deadline + DAY_MS + HOUR);
    let s = standings(&league, &[r.entry()], deadline + 2 * DAY_MS);
    assert_eq!(
        verdict_of(&s, 1, &p[0], &p[5]),
        Some(StartVerdict::BlackForfeits)
    );
}

/// White, who let the deadline pass, signs an invitation dated the day the round opened;
/// Black's own invitation reached the mailbox in time. White forfeits.
#[test]
fn attack_a_back_dated_challenge_does_not_beat_the_deadline() {
    let (_, p, league) = deadline_league();
    let open = league.round_opens_ms(1);
    let deadline = league.start_deadline_ms(1).expect("deadline");
    let mut backdated = Record::invite(&league, 1, &p[0], &p[5], true, None, open + HOUR);
    backdated.receipt(deadline + HOUR);
    let mut black_invites = Record::invite(&league, 1, &p[5], &p[0], false, None, open + 1);
    black_invites.receipt(open + 1);
    let s = standings(
        &league,
        &[backdated.entry(), black_invites.entry()],
        deadline + DAY_MS,
    );
    assert_eq!(
        verdict_of(&s, 1, &p[0], &p[5]),
        Some(StartVerdict::WhiteForfeits)
    );
    // Without Black's invitation, the back-dated one still shows nobody in time.
    let s = standings(&league, &[backdated.entry()], deadline + DAY_MS);
    assert_eq!(
        verdict_of(&s, 1, &p[0], &p[5]),
        Some(StartVerdict::BothForfeit)
    );
}

/// A receipt by a key that is not the league's arbiter (a friend of White's) is no
/// evidence: the invitation is White's word alone.
#[test]
fn attack_a_receipt_by_someone_other_than_the_arbiter_is_no_evidence() {
    let (_, p, league) = deadline_league();
    let open = league.round_opens_ms(1);
    let deadline = league.start_deadline_ms(1).expect("deadline");
    let mut r = Record::invite(&league, 1, &p[0], &p[5], true, None, open + HOUR);
    r.mailbox = Scoresheet::join(key(77), r.events[0].id());
    r.receipt(open + HOUR);
    let s = standings(&league, &[r.entry()], deadline + 1);
    assert_eq!(
        verdict_of(&s, 1, &p[0], &p[5]),
        Some(StartVerdict::BothForfeit)
    );
}

/// With the mailbox away, the players' countersignatures of each other's events are the
/// evidence: Black's acceptance names the invitation, White's first move names the
/// acceptance, both in time.
#[test]
fn the_opponents_countersignature_is_evidence_when_the_mailbox_was_away() {
    let (_, p, league) = deadline_league();
    let open = league.round_opens_ms(1);
    let deadline = league.start_deadline_ms(1).expect("deadline");
    let mut r = Record::invite(&league, 1, &p[0], &p[5], true, None, open + HOUR);
    r.accept(open + DAY_MS).e4(open + DAY_MS + HOUR);
    let s = standings(&league, &[r.entry()], deadline + 1);
    assert_eq!(verdict_of(&s, 1, &p[0], &p[5]), None);
    // Without White's move, nobody but Black vouches for the acceptance: Black is not shown
    // to be present, White is (Black's acceptance names the invitation).
    let mut r = Record::invite(&league, 1, &p[0], &p[5], true, None, open + HOUR);
    r.accept(open + DAY_MS);
    let s = standings(&league, &[r.entry()], deadline + 1);
    assert_eq!(
        verdict_of(&s, 1, &p[0], &p[5]),
        Some(StartVerdict::BlackForfeits)
    );
}

/// Both players invited in time and neither accepted: nobody was absent, so the deadline
/// judges nothing and the pairing waits for the arbiter.
#[test]
fn crossed_invitations_in_time_are_left_to_the_arbiter() {
    let (_, p, league) = deadline_league();
    let open = league.round_opens_ms(1);
    let mut white = Record::invite(&league, 1, &p[0], &p[5], true, None, open + 1);
    white.receipt(open + 1);
    let mut black = Record::invite(&league, 1, &p[5], &p[0], false, None, open + 2);
    black.receipt(open + 2);
    let s = standings(
        &league,
        &[white.entry(), black.entry()],
        league.start_deadline_ms(1).expect("deadline") + 1,
    );
    assert_eq!(verdict_of(&s, 1, &p[0], &p[5]), None);
    // The other pairings of the round, where nobody appeared, are forfeited by both.
    assert_eq!(
        verdict_of(&s, 1, &p[1], &p[4]),
        Some(StartVerdict::BothForfeit)
    );
}

/// A league signed without a deadline (every league before the rule) keeps its meaning:
/// the same records, years later, forfeit nobody.
#[test]
fn a_league_without_a_deadline_forfeits_nobody() {
    let (_, p, league) = six_player_league();
    assert_eq!(league.start_deadline(), None);
    assert_eq!(league.start_deadline_ms(1), None);
    let open = league.round_opens_ms(1);
    let mut r = Record::invite(&league, 1, &p[0], &p[5], true, None, open + HOUR);
    r.receipt(open + HOUR);
    let s = standings(&league, &[r.entry()], open + 1_000 * DAY_MS);
    assert!(s.games.iter().all(|g| g.decided.is_none()));
    assert!(s.excluded.is_empty(), "{:?}", s.excluded);
    assert_eq!(s.unplayed.len(), 14, "every pairing but the invited one");
    assert!(s.rows.iter().all(|r| r.points_halves == 0 && r.played == 0));
}

/// The verdict's id is the same on every node and differs by pairing.
#[test]
fn a_verdict_is_named_alike_everywhere() {
    let (_, p, league) = deadline_league();
    let a = verdict_id(&league, 1, &p[0].player_id(), &p[5].player_id());
    assert_eq!(
        a,
        verdict_id(&league, 1, &p[0].player_id(), &p[5].player_id())
    );
    assert_ne!(
        a,
        verdict_id(&league, 2, &p[0].player_id(), &p[5].player_id())
    );
    assert_ne!(
        a,
        verdict_id(&league, 1, &p[5].player_id(), &p[0].player_id())
    );
}
