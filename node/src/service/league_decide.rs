//! `league_decide`: the organiser's node (or the deputy arbiter's, for the organiser's own
//! games) signs an arbiter's decision (`sobre_core::league::decision`), keeps it and sends
//! it with the league's other documents to everyone who holds the league; every node
//! checks it before it counts.

use super::reads::ReadSide;
use super::{Service, internal, now_ms, user};
use crate::api::refusal::coded_decision_error;
use crate::api::replies::LeagueDecisionReply;
use crate::api::request::{self, Request};
use crate::api::{ApiError, ApiRequest, DecisionKind, RefusalCode, Reply};
use sobre_core::league::League;
use sobre_core::league::decision::{self, Decision};
use sobre_core::league::tiebreak::TieBreak;
use sobre_core::record::PlayerId;

/// The pairing of `player` in `round`: (white, black).
fn pairing_of(
    league: &League,
    round: u32,
    player: &PlayerId,
) -> Result<(PlayerId, PlayerId), ApiError> {
    league
        .pairings()
        .into_iter()
        .find(|(r, w, b)| *r == round && (w == player || b == player))
        .map(|(_, w, b)| (w, b))
        .ok_or_else(|| {
            ApiError::refused(RefusalCode::NoGameInRound {
                player: league.name(player),
                round,
            })
        })
}

fn parse_player(league: &League, text: Option<String>) -> Result<PlayerId, ApiError> {
    let text = text.ok_or_else(|| ApiError::refused(RefusalCode::LeaguePlayerNeeded))?;
    let p: PlayerId = text
        .trim()
        .parse()
        .map_err(|e| super::bad_player_id(text.trim(), &e))?;
    if league.number(&p).is_none() {
        return Err(ApiError::refused(RefusalCode::NotALeaguePlayer {
            player: p.to_string(),
            league: league.def.name.clone(),
        }));
    }
    Ok(p)
}

/// A player id that is not (yet) one of the league's players: the one who enters or
/// replaces another.
fn parse_newcomer(text: Option<String>) -> Result<PlayerId, ApiError> {
    let text = text.ok_or_else(|| ApiError::refused(RefusalCode::LeagueEntrantNeeded))?;
    text.trim()
        .parse()
        .map_err(|e| super::bad_player_id(text.trim(), &e))
}

impl Service {
    pub(super) async fn league_decide(&mut self, req: ApiRequest) -> Result<Reply, ApiError> {
        let ApiRequest::LeagueDecide(request::LeagueDecide {
            league,
            kind,
            round,
            player,
            result,
            reason,
            withdrawal,
            tie_breaks,
            replaces,
            name,
        }) = req
        else {
            return Err(user("not a league decision"));
        };
        let league = self.resolve_league(&league)?;
        if league.organiser != self.identity.me() && league.deputy != Some(self.identity.me()) {
            return Err(ApiError::refused(RefusalCode::NotLeagueOrganiser {
                organiser: league.organiser.to_string(),
                deputy: league.deputy.map(|d| d.to_string()),
            }));
        }
        let need_round = || round.ok_or_else(|| ApiError::refused(RefusalCode::RoundNeeded));
        let d = match kind {
            DecisionKind::Forfeit => {
                let winner = parse_player(&league, player)?;
                let round = need_round()?;
                let (white, black) = pairing_of(&league, round, &winner)?;
                Decision::Forfeit {
                    round,
                    white,
                    black,
                    winner,
                }
            }
            DecisionKind::DoubleForfeit => {
                let p = parse_player(&league, player)?;
                let round = need_round()?;
                let (white, black) = pairing_of(&league, round, &p)?;
                Decision::DoubleForfeit {
                    round,
                    white,
                    black,
                }
            }
            DecisionKind::Withdraw => Decision::Withdraw {
                player: parse_player(&league, player)?,
            },
            DecisionKind::Adjudicate => {
                let p = parse_player(&league, player)?;
                let round = need_round()?;
                let (white, black) = pairing_of(&league, round, &p)?;
                Decision::Adjudicate {
                    round,
                    white,
                    black,
                    verdict: result.ok_or_else(|| ApiError::refused(RefusalCode::ResultNeeded))?,
                    reason: reason.unwrap_or_default(),
                }
            }
            DecisionKind::Settings => Decision::Settings {
                withdrawal: withdrawal
                    .ok_or_else(|| ApiError::refused(RefusalCode::WithdrawalRuleNeeded))?,
            },
            DecisionKind::TieBreaks => Decision::TieBreaks {
                order: TieBreak::parse_order(tie_breaks.as_deref().unwrap_or("")).map_err(|e| {
                    ApiError::refused(RefusalCode::League {
                        problem: Some(e.into()),
                    })
                })?,
            },
            DecisionKind::Enter => {
                let player = parse_newcomer(player)?;
                Decision::Enter {
                    player,
                    name: name.unwrap_or_else(|| player.short()),
                }
            }
            DecisionKind::Replace => {
                let player = parse_newcomer(player)?;
                Decision::Replace {
                    out: match replaces {
                        None => return Err(ApiError::refused(RefusalCode::ReplacedPlayerNeeded)),
                        replaces => parse_player(&league, replaces)?,
                    },
                    player,
                    name: name.unwrap_or_else(|| player.short()),
                }
            }
        };
        let signed = league
            .decide(self.identity.key(), d, now_ms())
            .map_err(|e| {
                user(e.to_string()).coded(coded_decision_error(&e).map(|problem| {
                    RefusalCode::League {
                        problem: Some(problem),
                    }
                }))
            })?;
        if self.league_decisions(&league).len() >= super::league::MAX_DECISIONS {
            return Err(ApiError::refused(RefusalCode::TooManyDecisions));
        }
        self.store
            .decision_put(&league.id, &signed)
            .map_err(internal)?;
        self.store.flush().await.map_err(internal)?;
        // A late entrant (or a replacement) is in the audience only from now on: send to
        // the members before and after the decision.
        let after = self.league_of(&league.id).unwrap_or_else(|| league.clone());
        let mut audience = self.league_audience(&league);
        audience.extend(self.league_audience(&after));
        audience.sort();
        audience.dedup();
        for p in audience {
            self.send_league(&after, p);
        }
        // What it does to the table as this node holds it now (from the definition as
        // signed: the roster decisions are applied again with the others).
        let id = signed.id();
        let decisions = self.league_decisions(&league);
        let base = League::from_signed(&league.signed).map_err(internal)?;
        let (_, table) = decision::table(&base, &self.league_games(&league), &decisions, now_ms());
        let (text, effective) = match table.decisions.iter().find(|n| n.doc == id) {
            Some(n) => (n.text.clone(), true),
            None => (
                table
                    .bad_decisions
                    .iter()
                    .find(|n| n.doc == id)
                    .map(|n| n.text.clone())
                    .unwrap_or_default(),
                false,
            ),
        };
        Ok(request::LeagueDecide::reply(LeagueDecisionReply {
            league: league.id.to_hex(),
            decision: id.to_hex(),
            text,
            effective,
        }))
    }
}
