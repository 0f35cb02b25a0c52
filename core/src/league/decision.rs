//! An arbiter's signed decisions: league documents (kind 2) that the league's organiser
//! signs and every node verifies before they change the table.
//!
//! - **Forfeit** of a pairing whose game was not started or was abandoned: the winner
//!   scores a win, marked `+/-` (FIDE Art. 11.1: "wins by forfeit … one point").
//! - **DoubleForfeit** of such a pairing: both players lose, 0–0, marked `-/-` (both absent,
//!   6.6; 12.9: "la partida se declarará perdida para ambos"). It counts as played.
//! - **Withdrawal** of a player. With the league's rule [`WithdrawalRule::Fide`] (the
//!   default, FIDE practice for round robins): if the player played fewer than half of
//!   their games, all their results are annulled (their games count for nobody);
//!   otherwise their results stand and every game of theirs without a result is forfeited
//!   to the opponent. [`WithdrawalRule::ForfeitRemaining`] always does the latter.
//! - **Adjudication** of an unfinished game, with a short reason.
//! - **Settings**: the league's withdrawal rule (the latest signed settings apply), only
//!   before round 1: the rule that may annul signed results is part of the competition's
//!   rules, known to every player before the first game.
//! - **TieBreaks**: the order of the league's tie-breaks (the latest signed one applies;
//!   without one, FIDE's for round robins, see [`super::tiebreak`]), only before round 1.
//! - **Enter** (a late entry) and **Replace** (a player replaced by another, who takes
//!   their Berger number and so their pairings), only before round 1 (see below); the
//!   pairings then follow the new list of players (Berger tables, FIDE C.05 Annex 1: with
//!   an odd number of players the highest number is the bye, so a late entry into an odd
//!   league fills the byes and changes no other pairing).
//!
//! **Who signs.** The decisions about the organiser's own games (a forfeit or an
//! adjudication of a pairing the organiser plays, the organiser's withdrawal, a roster
//! decision that enters or replaces the organiser) are the deputy arbiter's, named in the
//! definition ([`League::arbiter_for`]); every other decision is the organiser's. A
//! decision signed by anyone else — the organiser about their own game included, and the
//! deputy about anything but the organiser's games — is left out and named, as is one of
//! another league or about something that is not a pairing of the table.
//!
//! **Before round 1.** Round 1 opens at the league's signed start time
//! ([`super::LeagueDef::start_ms`], [`League::round_opens_ms`]). A roster decision counts only
//! if the arbiter signed it before that time (its own signed time, checkable by every node
//! from the two signed documents alone); signed later it is left out and named. Since an
//! arbiter could sign a time in the past, a roster decision is also without effect if a
//! game that both players signed (challenge and acceptance) is a pairing it would remove:
//! a decision never overrides a signed game.
//!
//! A decision never overrides a game with a finished, signed result: it is then listed
//! without effect. Decisions apply in the order signed (time, then id); the first decision
//! about a pairing is the one that counts.

use super::deadline::StartVerdict;
use super::standings::{CountedGame, GameEntry, LeagueResult, Standings, standings};
use super::tiebreak::{TieBreak, rank, valid_order};
use super::{Board, League, LeagueError, LeagueKind, SignedLeagueDoc, check_arbiters, valid_name};
use crate::outcome::Outcome;
use crate::record::identity::as_text;
use crate::record::{EventId, PlayerId, Status};
use crate::types::Color;
use serde::{Deserialize, Serialize};

pub use super::roster::{Amended, Started, amend, is_roster_decision, started_pairings};

/// The longest reason an adjudication may give, in characters.
pub const MAX_REASON_CHARS: usize = 200;

/// A result an arbiter gives. A wire enum: append only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    WhiteWins,
    Draw,
    BlackWins,
}

impl Verdict {
    /// The result as PGN writes it: `1-0`, `1/2-1/2` or `0-1`.
    pub fn text(self) -> &'static str {
        self.outcome().as_str()
    }

    /// A result as an arbiter types it: [`Verdict::text`], or `½-½` for the draw.
    pub fn from_text(text: &str) -> Option<Verdict> {
        match text.trim() {
            "1-0" => Some(Verdict::WhiteWins),
            "1/2-1/2" | "½-½" => Some(Verdict::Draw),
            "0-1" => Some(Verdict::BlackWins),
            _ => None,
        }
    }

    pub fn outcome(self) -> Outcome {
        match self {
            Verdict::WhiteWins => Outcome::Decisive {
                winner: Color::White,
            },
            Verdict::Draw => Outcome::Draw,
            Verdict::BlackWins => Outcome::Decisive {
                winner: Color::Black,
            },
        }
    }
}

/// What happens to a withdrawn player's games. A wire enum: append only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WithdrawalRule {
    /// Fewer than half of their games played: all their results annulled; otherwise their
    /// remaining games forfeited.
    #[default]
    Fide,
    /// Their remaining games forfeited, whatever they played.
    ForfeitRemaining,
}

/// An arbiter's decision. A wire enum: append only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// 0: the pairing `white` – `black` of `round` is won by `winner` by forfeit.
    Forfeit {
        round: u32,
        white: PlayerId,
        black: PlayerId,
        winner: PlayerId,
    },
    /// 1: `player` withdraws from the league.
    Withdraw { player: PlayerId },
    /// 2: the unfinished game of a pairing is adjudicated.
    Adjudicate {
        round: u32,
        white: PlayerId,
        black: PlayerId,
        verdict: Verdict,
        reason: String,
    },
    /// 3: the league's settings from now on.
    Settings { withdrawal: WithdrawalRule },
    /// 4: the order of the league's tie-breaks (the latest signed one applies). A variant
    /// of its own so that `Settings` decisions signed before keep their bytes.
    TieBreaks { order: Vec<TieBreak> },
    /// 5: before round 1, `player` enters the league late, as `name`, with the next Berger
    /// number.
    Enter { player: PlayerId, name: String },
    /// 6: before round 1, `player` (as `name`) replaces `out`, taking `out`'s Berger number.
    Replace {
        out: PlayerId,
        player: PlayerId,
        name: String,
    },
    /// 7: the pairing `white` – `black` of `round` is lost by both by forfeit, 0–0 (6.6:
    /// both absent; 12.9: both at fault).
    DoubleForfeit {
        round: u32,
        white: PlayerId,
        black: PlayerId,
    },
}

impl Decision {
    /// The players a decision is about (whose arbiter signs it, see
    /// [`League::arbiter_for`]).
    pub fn about(&self) -> Vec<PlayerId> {
        match self {
            Decision::Forfeit { white, black, .. }
            | Decision::Adjudicate { white, black, .. }
            | Decision::DoubleForfeit { white, black, .. } => vec![*white, *black],
            Decision::Withdraw { player } | Decision::Enter { player, .. } => vec![*player],
            Decision::Replace { out, player, .. } => vec![*out, *player],
            Decision::Settings { .. } | Decision::TieBreaks { .. } => Vec::new(),
        }
    }

    /// Whether it changes the list of players (applied before the games are counted).
    pub fn is_roster(&self) -> bool {
        matches!(self, Decision::Enter { .. } | Decision::Replace { .. })
    }
}

/// How a counted game's result was decided without the game: by the arbiter, or by the
/// league's start deadline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decided {
    /// The arbiter's forfeit, of one player (`+/-`) or of both ([`Decision::DoubleForfeit`],
    /// `-/-`: the result is [`LeagueResult::BothLost`]).
    Forfeit,
    Adjudicated {
        reason: String,
    },
    /// Forfeited by the league's start deadline, judged from the signed evidence with no
    /// arbiter (FIDE 6.6, see [`super::deadline`]): `+/-`, or `-/-` for both.
    StartDeadline(StartVerdict),
}

impl Decided {
    /// Whether the result is a forfeit (`+`/`-` in a crosstable), rather than a result
    /// of the board or an adjudication.
    pub fn is_forfeit(&self) -> bool {
        matches!(self, Decided::Forfeit | Decided::StartDeadline(_))
    }
}

/// A decision and what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionNote {
    pub doc: EventId,
    pub text: String,
    /// Left out because it does not verify or is not the organiser's (`league verify`
    /// fails), rather than valid but without effect.
    pub excluded: bool,
}

/// Why a decision does not count.
///
/// Serialized (tagged by `kind`, snake case, a player by their id's text) as the control
/// API's league refusal carries the kinds an organiser meets; the others (`#[serde(skip)]`)
/// are never sent. A [`DecisionError::Doc`] is sent as its [`LeagueError`], and
/// [`DecisionError::NotAPlayer`] as the league's `not_a_player` (the same words).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DecisionError {
    #[error(transparent)]
    #[serde(skip)]
    Doc(#[from] LeagueError),
    #[error("not a decision")]
    #[serde(skip)]
    NotADecision,
    #[error("a decision about league {0}")]
    #[serde(skip)]
    OtherLeague(EventId),
    #[error("signed by {0}, not by the organiser")]
    #[serde(skip)]
    NotTheOrganiser(PlayerId),
    #[error("signed by the organiser about their own game: the deputy arbiter {deputy} decides it")]
    #[serde(skip)]
    OrganisersOwnGame { deputy: PlayerId },
    #[error("signed by {0}, not by the deputy arbiter, who decides the organiser's own games")]
    #[serde(skip)]
    NotTheDeputy(PlayerId),
    #[error("signed by the deputy arbiter {0}, who decides only the organiser's own games")]
    #[serde(skip)]
    DeputyOutsideRemit(PlayerId),
    /// On the wire without `signed_ms` (the refusal says when round 1 opened; read back,
    /// `signed_ms` is 0).
    #[error(
        "signed at {signed_ms} ms since the epoch, once round 1 had opened ({start_ms}): the players, the withdrawal rule and the tie-breaks change only before round 1"
    )]
    RoundOneStarted {
        #[serde(skip)]
        signed_ms: u64,
        start_ms: u64,
    },
    #[error("{player} already plays in this league")]
    AlreadyPlays {
        #[serde(with = "as_text")]
        player: PlayerId,
    },
    #[error("a player's name is 1 to 100 characters, not blank")]
    #[serde(rename = "player_name")]
    Name,
    #[error("round {round}: {white} – {black} is not a pairing of the table")]
    #[serde(skip)]
    NotAPairing {
        round: u32,
        white: PlayerId,
        black: PlayerId,
    },
    #[error("the winner {0} does not play in the pairing")]
    #[serde(skip)]
    WinnerNotInPairing(PlayerId),
    #[error("{player} is not a player of this league")]
    #[serde(skip)]
    NotAPlayer { player: PlayerId },
    /// `max` is [`MAX_REASON_CHARS`], named so that the error says its limit.
    #[error("an adjudication needs a reason of 1 to {max} characters")]
    Reason { max: usize },
    #[error(
        "a tie-break order lists 1 to {} tie-breaks, none twice",
        super::tiebreak::MAX_TIE_BREAKS
    )]
    #[serde(skip)]
    TieBreakOrder,
}

/// A decision whose signature, author and content have been checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedDecision {
    pub id: EventId,
    pub time_ms: u64,
    pub decision: Decision,
}

impl League {
    /// Signs a decision as this league's organiser, or as its deputy arbiter for the
    /// organiser's own games.
    ///
    /// # Errors
    /// [`DecisionError`] if the key is not the decision's arbiter's or the decision is not
    /// valid for this league.
    pub fn decide(
        &self,
        key: &crate::record::Keypair,
        decision: Decision,
        now_ms: u64,
    ) -> Result<SignedLeagueDoc, DecisionError> {
        let doc = super::LeagueDoc {
            version: super::LEAGUE_VERSION,
            author: key.player_id(),
            time_ms: now_ms,
            kind: LeagueKind::Decision {
                league: self.id,
                decision,
            },
        };
        let signed = SignedLeagueDoc::sign(&doc, key).map_err(LeagueError::from)?;
        self.check_decision(&signed)?;
        Ok(signed)
    }

    /// Checks a decision: its signature, that its arbiter signed it for this league, and
    /// that it is about this league's players and pairings.
    ///
    /// # Errors
    /// [`DecisionError`] naming the problem.
    pub fn check_decision(
        &self,
        signed: &SignedLeagueDoc,
    ) -> Result<CheckedDecision, DecisionError> {
        let c = self.check_signer(signed)?;
        self.check_content(&c)?;
        Ok(c)
    }

    /// Checks what does not depend on the list of players at the time: the signature, the
    /// league, and that the decision's arbiter signed it (the organiser, or the deputy for
    /// the organiser's own games: [`League::arbiter_for`]). A node keeps and passes on the
    /// decisions that pass this.
    ///
    /// # Errors
    /// [`DecisionError`] naming the problem.
    pub fn check_signer(&self, signed: &SignedLeagueDoc) -> Result<CheckedDecision, DecisionError> {
        let v = signed.verify()?;
        let LeagueKind::Decision { league, decision } = v.doc.kind else {
            return Err(DecisionError::NotADecision);
        };
        if league != self.id {
            return Err(DecisionError::OtherLeague(league));
        }
        let author = v.doc.author;
        let arbiter = self.arbiter_for(&decision.about());
        if author != arbiter {
            return Err(if arbiter == self.organiser {
                if Some(author) == self.deputy {
                    DecisionError::DeputyOutsideRemit(author)
                } else {
                    DecisionError::NotTheOrganiser(author)
                }
            } else if author == self.organiser {
                DecisionError::OrganisersOwnGame { deputy: arbiter }
            } else {
                DecisionError::NotTheDeputy(author)
            });
        }
        Ok(CheckedDecision {
            id: v.id,
            time_ms: v.doc.time_ms,
            decision,
        })
    }

    /// Checks a decision's content against this league's players and pairings (as the
    /// roster decisions before it left them).
    ///
    /// # Errors
    /// [`DecisionError`] naming the problem.
    pub fn check_content(&self, c: &CheckedDecision) -> Result<(), DecisionError> {
        let pairing = |round: u32, white: &PlayerId, black: &PlayerId| {
            if self.is_pairing(round, white, black) {
                Ok(())
            } else {
                Err(DecisionError::NotAPairing {
                    round,
                    white: *white,
                    black: *black,
                })
            }
        };
        let before_round_one = || {
            if c.time_ms < self.def.start_ms {
                Ok(())
            } else {
                Err(DecisionError::RoundOneStarted {
                    signed_ms: c.time_ms,
                    start_ms: self.def.start_ms,
                })
            }
        };
        match &c.decision {
            Decision::Forfeit {
                round,
                white,
                black,
                winner,
            } => {
                pairing(*round, white, black)?;
                if winner != white && winner != black {
                    return Err(DecisionError::WinnerNotInPairing(*winner));
                }
            }
            Decision::DoubleForfeit {
                round,
                white,
                black,
            } => pairing(*round, white, black)?,
            Decision::Withdraw { player } => {
                if self.number(player).is_none() {
                    return Err(DecisionError::NotAPlayer { player: *player });
                }
            }
            Decision::Adjudicate {
                round,
                white,
                black,
                reason,
                ..
            } => {
                pairing(*round, white, black)?;
                let n = reason.trim().chars().count();
                if n == 0 || n > MAX_REASON_CHARS {
                    return Err(DecisionError::Reason {
                        max: MAX_REASON_CHARS,
                    });
                }
            }
            // The rules of the competition are fixed before it starts: a withdrawal rule that
            // annuls signed results, or a tie-break order, chosen once the results are known
            // would decide the table (issue: league decisions bounded).
            Decision::Settings { .. } => before_round_one()?,
            Decision::TieBreaks { order } => {
                before_round_one()?;
                if !valid_order(order) {
                    return Err(DecisionError::TieBreakOrder);
                }
            }
            Decision::Enter { player, name } => {
                before_round_one()?;
                if self.number(player).is_some() {
                    return Err(DecisionError::AlreadyPlays { player: *player });
                }
                if !valid_name(name) {
                    return Err(DecisionError::Name);
                }
                let n = self.def.players.len() + 1;
                if n > super::berger::MAX_PLAYERS {
                    return Err(LeagueError::PlayerCount { count: n }.into());
                }
                let mut players = self.def.players.clone();
                players.push(*player);
                roster_arbiters(self, &players)?;
            }
            Decision::Replace { out, player, name } => {
                before_round_one()?;
                let Some(i) = self.number(out).map(|n| n - 1) else {
                    return Err(DecisionError::NotAPlayer { player: *out });
                };
                if self.number(player).is_some() {
                    return Err(DecisionError::AlreadyPlays { player: *player });
                }
                if !valid_name(name) {
                    return Err(DecisionError::Name);
                }
                let mut players = self.def.players.clone();
                players[i] = *player;
                roster_arbiters(self, &players)?;
            }
        }
        Ok(())
    }

    /// Every pairing of the table: (round, white, black).
    pub fn pairings(&self) -> Vec<(u32, PlayerId, PlayerId)> {
        let mut out = Vec::new();
        for (i, boards) in self.rounds().iter().enumerate() {
            for b in boards {
                if let Board::Game { white, black } = *b
                    && let (Some(w), Some(bl)) = (self.player(white), self.player(black))
                {
                    out.push((i as u32 + 1, w, bl));
                }
            }
        }
        out
    }
}

/// The arbiters' rules for a new list of players: the organiser plays only with a deputy,
/// the deputy never plays. A deputy left with nothing to judge (the organiser replaced) is
/// no reason to refuse a replacement.
fn roster_arbiters(league: &League, players: &[PlayerId]) -> Result<(), LeagueError> {
    match check_arbiters(players, &league.organiser, league.deputy.as_ref()) {
        Err(LeagueError::DeputyWithoutGames) => Ok(()),
        other => other,
    }
}

/// Whether a league document says it is a decision (its signature not checked: what it
/// says decides only where it is sorted, [`apply`] checks it).
pub fn is_decision(doc: &SignedLeagueDoc) -> bool {
    crate::record::codec::decode::<super::LeagueDoc>(
        &doc.body,
        crate::record::codec::MAX_EVENT_BYTES,
    )
    .is_ok_and(|d| matches!(d.kind, LeagueKind::Decision { .. }))
}

/// The table of a league: the roster decisions first ([`amend`]), then the standings of
/// the games under the list of players they leave, then the other decisions ([`apply`]).
/// Returns the league as amended (the one to show the table with) and the table.
pub fn table(
    league: &League,
    games: &[GameEntry],
    decisions: &[SignedLeagueDoc],
    now_ms: u64,
) -> (League, Standings) {
    let started = if decisions.iter().any(is_roster_decision) {
        started_pairings(league, games)
    } else {
        Started::new()
    };
    let amended = amend(league, decisions, &started);
    let s = standings(&amended.league, games, now_ms);
    let mut s = apply(&amended.league, s, decisions);
    let mut notes = amended.applied;
    notes.append(&mut s.decisions);
    s.decisions = notes;
    s.bad_decisions.extend(amended.not_applied);
    (amended.league, s)
}

/// Applies the arbiters' decisions to standings computed from the games (see the module
/// docs), and ranks again. Roster decisions are skipped: [`table`] applies them before
/// the games are counted (see [`amend`]); a decision whose signer is wrong is named here.
pub fn apply(league: &League, mut s: Standings, decisions: &[SignedLeagueDoc]) -> Standings {
    let mut checked: Vec<CheckedDecision> = Vec::new();
    for d in decisions {
        let c = match league.check_signer(d) {
            Ok(c) if c.decision.is_roster() => continue,
            Ok(c) => league.check_content(&c).map(|()| c),
            Err(e) => Err(e),
        };
        match c {
            Ok(c) => checked.push(c),
            Err(e) => s.bad_decisions.push(DecisionNote {
                doc: d.id(),
                text: e.to_string(),
                excluded: true,
            }),
        }
    }
    checked.sort_by_key(|c| (c.time_ms, c.id));
    checked.dedup_by_key(|c| c.id);
    let mut rule = WithdrawalRule::default();
    // Players whose results were annulled: no later decision gives them any.
    let mut annulled: Vec<PlayerId> = Vec::new();
    for c in checked {
        let about = c.decision.about();
        if let Some(p) = about.iter().find(|p| annulled.contains(p)) {
            s.bad_decisions.push(DecisionNote {
                doc: c.id,
                text: format!("without effect: {}'s results are annulled", league.name(p)),
                excluded: false,
            });
            continue;
        }
        let text = match c.decision {
            // Applied before the games were counted (see `amend`).
            Decision::Enter { .. } | Decision::Replace { .. } => continue,
            Decision::Settings { withdrawal } => {
                rule = withdrawal;
                Ok(format!("withdrawal rule: {withdrawal:?}"))
            }
            Decision::TieBreaks { order } => {
                let names: Vec<&str> = order.iter().map(|t| t.as_str()).collect();
                s.tie_breaks = order;
                Ok(format!("tie-breaks: {}", names.join(", ")))
            }
            Decision::Forfeit {
                round,
                white,
                black,
                winner,
            } => {
                let colour = if winner == white {
                    Color::White
                } else {
                    Color::Black
                };
                decide(
                    &mut s,
                    c.id,
                    round,
                    white,
                    black,
                    Outcome::Decisive { winner: colour }.into(),
                    Decided::Forfeit,
                )
                .map(|()| {
                    format!(
                        "round {round}: {} wins {} – {} by forfeit",
                        league.name(&winner),
                        league.name(&white),
                        league.name(&black)
                    )
                })
            }
            Decision::Adjudicate {
                round,
                white,
                black,
                verdict,
                reason,
            } => {
                let text = format!(
                    "round {round}: {} – {} adjudicated {} ({reason})",
                    league.name(&white),
                    league.name(&black),
                    verdict.outcome().as_str()
                );
                decide(
                    &mut s,
                    c.id,
                    round,
                    white,
                    black,
                    verdict.outcome().into(),
                    Decided::Adjudicated { reason },
                )
                .map(|()| text)
            }
            Decision::DoubleForfeit {
                round,
                white,
                black,
            } => decide(
                &mut s,
                c.id,
                round,
                white,
                black,
                LeagueResult::BothLost,
                Decided::Forfeit,
            )
            .map(|()| {
                format!(
                    "round {round}: {} – {} lost by both by forfeit (0–0)",
                    league.name(&white),
                    league.name(&black)
                )
            }),
            Decision::Withdraw { player } => {
                let (text, annul) = withdraw(league, &mut s, c.id, player, rule);
                if annul {
                    annulled.push(player);
                }
                Ok(text)
            }
        };
        match text {
            Ok(text) => s.decisions.push(DecisionNote {
                doc: c.id,
                text,
                excluded: false,
            }),
            Err(why) => s.bad_decisions.push(DecisionNote {
                doc: c.id,
                text: why,
                excluded: false,
            }),
        }
    }
    s.games.sort_by_key(|g| g.round);
    s.rows = rank(league, &s.games, &s.tie_breaks);
    s
}

/// Gives a pairing's result by decision, unless its game has a result already (a signed
/// game result, or an earlier decision).
fn decide(
    s: &mut Standings,
    doc: EventId,
    round: u32,
    white: PlayerId,
    black: PlayerId,
    result: LeagueResult,
    how: Decided,
) -> Result<(), String> {
    s.unplayed
        .retain(|(r, w, b)| !(*r == round && *w == white && *b == black));
    match s
        .games
        .iter_mut()
        .find(|g| g.round == round && g.white == white && g.black == black)
    {
        Some(g) if matches!(g.decided, Some(Decided::StartDeadline(_))) => Err(
            "without effect: the start deadline forfeited the pairing, on the signed evidence"
                .into(),
        ),
        Some(g) if g.decided.is_some() => Err("without effect: the pairing was decided already".into()),
        Some(g) if g.result.is_some() => Err(
            "without effect: the game has a finished, signed result, which a decision never overrides"
                .into(),
        ),
        Some(g) => {
            g.result = Some(result);
            g.status = Status::Finished;
            g.decided = Some(how);
            Ok(())
        }
        None => {
            s.games.push(CountedGame {
                game: doc,
                round,
                white,
                black,
                status: Status::Finished,
                result: Some(result),
                plies: 0,
                decided: Some(how),
            });
            Ok(())
        }
    }
}

/// Applies a withdrawal (see the module docs); returns what it did, and whether the
/// player's results were annulled.
fn withdraw(
    league: &League,
    s: &mut Standings,
    doc: EventId,
    player: PlayerId,
    rule: WithdrawalRule,
) -> (String, bool) {
    let pairings: Vec<(u32, PlayerId, PlayerId)> = league
        .pairings()
        .into_iter()
        .filter(|(_, w, b)| *w == player || *b == player)
        .collect();
    let played = s
        .games
        .iter()
        .filter(|g| {
            (g.white == player || g.black == player) && g.result.is_some() && g.decided.is_none()
        })
        .count();
    let name = league.name(&player);
    if rule == WithdrawalRule::Fide && played * 2 < pairings.len() {
        s.games.retain(|g| g.white != player && g.black != player);
        s.unplayed.retain(|(_, w, b)| *w != player && *b != player);
        let text = format!(
            "{name} withdrew after {played} of {} games (fewer than half): all their results annulled",
            pairings.len()
        );
        return (text, true);
    }
    let mut forfeited = 0;
    for (round, white, black) in pairings {
        let winner = if white == player {
            Color::Black
        } else {
            Color::White
        };
        if decide(
            s,
            doc,
            round,
            white,
            black,
            Outcome::Decisive { winner }.into(),
            Decided::Forfeit,
        )
        .is_ok()
        {
            forfeited += 1;
        }
    }
    let text =
        format!("{name} withdrew after {played} games: {forfeited} remaining game(s) forfeited");
    (text, false)
}

#[cfg(test)]
#[path = "roster_tests.rs"]
mod roster_tests;

#[cfg(test)]
#[path = "decision_tests.rs"]
pub(crate) mod tests;
