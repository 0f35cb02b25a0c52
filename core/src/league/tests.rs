//! League definitions, joins and their signatures; the six-player league the other tests share.

use super::*;

pub(crate) fn key(n: u8) -> Keypair {
    Keypair::from_secret_bytes(&[n; 32])
}

pub(crate) fn six_player_league() -> (Keypair, Vec<Keypair>, League) {
    let org = key(100);
    let players: Vec<Keypair> = (1..=6).map(key).collect();
    let def = LeagueDef {
        name: "Club de Ajedrez — Liga de otoño".into(),
        players: players.iter().map(Keypair::player_id).collect(),
        names: ["Ana", "Bruno", "Carmen", "Diego", "Elena", "Fermín"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        double: false,
        time_control: "3d".into(),
        start_ms: 1_700_000_000_000,
        round_days: 7,
        scoring: Scoring::default(),
    };
    let league = League::create(&org, def, 1_699_000_000_000).expect("valid league");
    (org, players, league)
}

#[test]
fn a_definition_round_trips_and_its_signature_is_checked() {
    let (_, players, league) = six_player_league();
    let bytes = league.signed.to_bytes().expect("encode");
    let back = SignedLeagueDoc::from_bytes(&bytes).expect("decode");
    assert_eq!(League::from_signed(&back).expect("verifies"), league);
    // Checked once above, the good document is remembered (`checked`); a forged copy is
    // still checked, and refused.
    let mut forged = back.clone();
    forged.signature.0[3] ^= 1;
    assert!(matches!(
        League::from_signed(&forged),
        Err(LeagueError::BadSignature(_))
    ));
    let join = league.join(&players[2], 1).expect("a player joins");
    assert_eq!(league.check_join(&join), Ok(players[2].player_id()));
    // The join above is remembered as checked; another player's join under its signature
    // is not, and is refused (a node signing anything cannot borrow a checked signature).
    let other = league.join(&players[3], 1).expect("another player joins");
    let borrowed = SignedLeagueDoc {
        body: other.body.clone(),
        signature: join.signature,
    };
    assert!(matches!(
        league.check_join(&borrowed),
        Err(LeagueError::BadSignature(_))
    ));
    assert!(matches!(
        league.join(&key(42), 1),
        Err(LeagueError::NotAPlayer { .. })
    ));
    // A definition is not a join, and a join of another league is refused.
    assert_eq!(
        league.check_join(&league.signed),
        Err(LeagueError::NotADefinition)
    );
}

#[test]
fn league_signatures_are_domain_separated_from_game_events() {
    let (_, _, league) = six_player_league();
    let sig = join_signature(&league.signed.signature);
    // The same body and signature presented as a game event does not verify.
    let as_event = crate::record::SignedEvent {
        body: league.signed.body.clone(),
        signature: sig,
    };
    assert!(as_event.verify().is_err());
}

#[test]
fn bad_definitions_are_refused() {
    let (org, players, league) = six_player_league();
    let mut def = league.def.clone();
    def.players[1] = def.players[0];
    assert!(matches!(
        League::create(&org, def, 0),
        Err(LeagueError::DuplicatePlayer { .. })
    ));
    let mut def = league.def.clone();
    def.players.truncate(2);
    def.names.truncate(2);
    assert_eq!(
        League::create(&org, def, 0),
        Err(LeagueError::PlayerCount { count: 2 })
    );
    let mut def = league.def.clone();
    def.time_control = "soon".into();
    assert!(matches!(
        League::create(&org, def, 0),
        Err(LeagueError::TimeControl { .. })
    ));
    assert_eq!(
        League::create(&players[0], league.def.clone(), 0),
        Err(LeagueError::OrganiserPlays)
    );
}

/// A league whose organiser plays: the organiser is player 1, key 100 the organiser,
/// key 50 the deputy arbiter.
pub(crate) fn league_with_deputy() -> (Keypair, Keypair, Vec<Keypair>, League) {
    let (org, players, league) = six_player_league();
    let deputy = key(50);
    let mut def = league.def.clone();
    def.players[0] = org.player_id();
    let mut keys = players;
    keys[0] = org.clone();
    let league = League::create_with_deputy(&org, def, Some(deputy.player_id()), 1_699_000_000_000)
        .expect("valid league");
    (org, deputy, keys, league)
}

#[test]
fn the_organiser_plays_only_with_a_deputy_arbiter_who_does_not_play() {
    let (org, deputy, _, league) = league_with_deputy();
    assert_eq!(league.deputy, Some(deputy.player_id()));
    assert_eq!(league.number(&org.player_id()), Some(1));
    // The deputy is a member: it holds the documents and the games.
    assert!(league.members().contains(&deputy.player_id()));
    // The definition round-trips with its deputy.
    let back =
        SignedLeagueDoc::from_bytes(&league.signed.to_bytes().expect("encode")).expect("decode");
    assert_eq!(League::from_signed(&back).expect("verifies"), league);
    // Who judges: the deputy for a matter the organiser is in, else the organiser.
    let p2 = league.player(2).expect("player 2");
    let p3 = league.player(3).expect("player 3");
    assert_eq!(
        league.arbiter_for(&[org.player_id(), p2]),
        deputy.player_id()
    );
    assert_eq!(league.arbiter_for(&[p3, p2]), org.player_id());
    // The organiser plays without a deputy: refused.
    assert_eq!(
        League::create(&org, league.def.clone(), 0),
        Err(LeagueError::OrganiserPlays)
    );
    // The organiser as their own deputy.
    assert_eq!(
        League::create_with_deputy(&org, league.def.clone(), Some(org.player_id()), 0),
        Err(LeagueError::DeputyIsOrganiser)
    );
    // A deputy who plays: nobody could judge the organiser–deputy game.
    assert_eq!(
        League::create_with_deputy(&org, league.def.clone(), Some(p2), 0),
        Err(LeagueError::DeputyPlays { deputy: p2 })
    );
    // A deputy with nothing to judge: the organiser does not play.
    let (_, _, plain) = six_player_league();
    assert_eq!(
        League::create_with_deputy(&org, plain.def.clone(), Some(deputy.player_id()), 0),
        Err(LeagueError::DeputyWithoutGames)
    );
    // Without a deputy the definition is the same document `create` signs (its bytes,
    // and so the league's id, do not depend on the new kind).
    assert_eq!(
        League::create_with_deputy(&org, plain.def.clone(), None, plain.created_ms).expect("valid"),
        plain
    );
    // The organiser who plays joins like any player.
    let join = league.join(&org, 1).expect("the organiser plays");
    assert_eq!(league.check_join(&join), Ok(org.player_id()));
    assert_eq!(
        league.join(&deputy, 1),
        Err(LeagueError::NotAPlayer {
            player: deputy.player_id()
        })
    );
}

/// FIDE 6.6 (2009) leaves the tolerance to "las bases de la competición": the league's
/// start deadline is signed with its definition, kind 4, and checked.
#[test]
fn fide_6_6_2009_the_start_deadline_is_part_of_the_signed_definition() {
    let (org, _, plain) = six_player_league();
    let rule = LeagueRule::StartDeadline {
        after_open_ms: 3 * DAY_MS,
    };
    let league =
        League::create_with_rules(&org, plain.def.clone(), None, vec![rule], 0).expect("valid");
    assert_ne!(league.id, plain.id, "another document, another league");
    assert_eq!(league.start_deadline(), Some(3 * DAY_MS));
    assert_eq!(
        league.start_deadline_ms(2),
        Some(plain.def.start_ms + 10 * DAY_MS)
    );
    let back =
        SignedLeagueDoc::from_bytes(&league.signed.to_bytes().expect("encode")).expect("decode");
    assert_eq!(League::from_signed(&back).expect("verifies"), league);
    // Without rules, the document `create` signs: same bytes, same league.
    assert_eq!(
        League::create_with_rules(&org, plain.def.clone(), None, Vec::new(), plain.created_ms)
            .expect("valid"),
        plain
    );
    assert_eq!(plain.start_deadline(), None);
    // With a deputy too.
    let (_, deputy, _, with_deputy) = league_with_deputy();
    let both = League::create_with_rules(
        &org,
        with_deputy.def.clone(),
        Some(deputy.player_id()),
        vec![rule],
        0,
    )
    .expect("valid");
    assert_eq!(both.deputy, Some(deputy.player_id()));
    assert_eq!(both.start_deadline(), Some(3 * DAY_MS));
    // Bounds, repeats, and a kind-4 definition without rules.
    for bad in [0, MAX_START_DEADLINE_MS + 1] {
        let r = LeagueRule::StartDeadline { after_open_ms: bad };
        assert_eq!(
            League::create_with_rules(&org, plain.def.clone(), None, vec![r], 0),
            Err(LeagueError::StartDeadline { ms: bad })
        );
    }
    assert_eq!(
        League::create_with_rules(&org, plain.def.clone(), None, vec![rule, rule], 0),
        Err(LeagueError::RepeatedRule(rule))
    );
    let empty = SignedLeagueDoc::sign(
        &LeagueDoc {
            version: LEAGUE_VERSION,
            author: org.player_id(),
            time_ms: 0,
            kind: LeagueKind::DefineWithRules {
                def: plain.def.clone(),
                deputy: None,
                rules: Vec::new(),
            },
        },
        &org,
    )
    .expect("sign");
    assert_eq!(League::from_signed(&empty), Err(LeagueError::NoRules));
}

#[test]
fn rounds_open_on_schedule() {
    let (_, players, league) = six_player_league();
    assert_eq!(league.rounds().len(), 5);
    assert!(league.open_rounds(league.def.start_ms - 1).is_empty());
    assert_eq!(league.open_rounds(league.def.start_ms), vec![1]);
    assert_eq!(
        league.open_rounds(league.def.start_ms + 7 * DAY_MS),
        vec![1, 2]
    );
    // Round 1 of the six-player table is 1-6, 2-5, 3-4.
    let p = |i: usize| players[i - 1].player_id();
    assert!(league.is_pairing(1, &p(1), &p(6)));
    assert!(
        !league.is_pairing(1, &p(6), &p(1)),
        "colours as the table gives them"
    );
    assert!(!league.is_pairing(2, &p(1), &p(6)));
    assert!(!league.is_pairing(9, &p(1), &p(6)));
}
