//! Every game of a league in one PGN file (`sobre league export --pgn`).

use super::decision::Decided;
use super::standings::LeagueResult;
use super::{GameEntry, League, Standings};
use crate::record::export::to_game_record;
use crate::record::verify;

/// The games that count in `standings`, in round order, as one PGN file: `Event` is the
/// league's name, `Round` the round, `White`/`Black` the names the organiser signed and
/// `Result` the game's — or the arbiter's, for a game decided by forfeit or adjudication,
/// said in `Termination`. Pairings decided without a game (a forfeit, the start deadline's
/// included) have no moves and are left out.
///
/// A game lost by both (12.9) has no PGN result: the standard's `Result` is one of `1-0`,
/// `0-1`, `1/2-1/2` and `*`, and readers refuse or misread anything else (`0-0` reads as
/// castling in movetext). It is written `*` with `Termination` saying "lost for both" and a
/// comment `{0-0 …}` after the last move, which every reader keeps.
pub fn pgn(league: &League, games: &[GameEntry], standings: &Standings) -> String {
    let mut out = String::new();
    for g in &standings.games {
        let Some(entry) = games.iter().find(|e| e.game == g.game) else {
            continue;
        };
        let Ok(state) = verify(&entry.events) else {
            continue;
        };
        let mut rec = to_game_record(&state, &|p| league.name(p));
        let mut set = |name: &str, value: String| match rec.tags.iter_mut().find(|(n, _)| n == name)
        {
            Some(t) => t.1 = value,
            None => rec.tags.push((name.to_owned(), value)),
        };
        set("Event", league.def.name.clone());
        match &g.decided {
            Some(Decided::Forfeit) => set("Termination", "forfeit (arbiter's decision)".into()),
            Some(Decided::Adjudicated { reason }) => {
                set("Termination", format!("adjudicated: {reason}"));
            }
            Some(Decided::StartDeadline(v)) => {
                set("Termination", format!("forfeit: {}", v.describe()));
            }
            None => {}
        }
        match g.result {
            Some(LeagueResult::Outcome(o)) => rec.result = o.as_str().to_owned(),
            Some(LeagueResult::BothLost) => {
                const WHY: &str = "0-0: lost for both (FIDE 12.9), neither scores";
                set("Termination", "lost for both (FIDE 12.9)".into());
                rec.result = "*".to_owned();
                if let Some(last) = rec.moves.last_mut() {
                    last.comment = Some(match last.comment.take() {
                        Some(c) => format!("{c}; {WHY}"),
                        None => WHY.to_owned(),
                    });
                }
            }
            None => {}
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&rec.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::standings::standings;
    use crate::league::tests::six_player_league;

    #[test]
    fn a_league_pgn_has_every_counted_game_with_its_names_round_and_result() {
        let (_, players, league) = six_player_league();
        // Round 1, 1–6: White challenges, Black accepts, 1.e4, Black resigns.
        let challenge = crate::record::Challenge {
            opponent: players[5].player_id(),
            colour: crate::record::ColourChoice::ChallengerWhite,
            time_control: league.def.time_control.clone(),
            start: crate::record::StartPosition::Standard,
            coin_commitment: None,
            league: Some(crate::record::LeagueRound {
                league: league.id,
                round: 1,
            }),
        };
        let t = league.def.start_ms;
        let (mut w, c) = crate::record::Scoresheet::challenge(players[0].clone(), challenge, t + 1)
            .expect("sign");
        let mut b = crate::record::Scoresheet::join(players[5].clone(), w.game());
        b.saw(c.id());
        let a = b.accept(None, t + 2).expect("sign");
        w.saw(a.id());
        let m = crate::san::parse_san(&crate::Position::new(), "e4", crate::san::Lang::English)
            .expect("legal");
        let e = w.play(m, t + 3).expect("sign");
        b.saw(e.id());
        let r = b.resign(t + 4).expect("sign");
        let entry = GameEntry {
            game: c.id(),
            events: vec![c, a, e, r],
            proofs: Vec::new(),
        };
        let s = standings(&league, std::slice::from_ref(&entry), t + 5);
        let text = pgn(&league, &[entry], &s);
        assert_eq!(text.matches("[Event ").count(), 1);
        assert!(text.trim_end().ends_with("1-0"), "{text}");
        assert!(
            text.contains("[Event \"Club de Ajedrez — Liga de otoño\"]"),
            "{text}"
        );
        assert!(text.contains("[Round \"1\"]"));
        assert!(text.contains("[White \"Ana\"]"));
        assert!(text.contains("[Black \"Fermín\"]"));
        assert!(text.contains("[Result \"1-0\"]"));
    }
}
