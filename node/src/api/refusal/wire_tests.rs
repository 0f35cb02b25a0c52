//! The wire form of the league and rule refusals, byte for byte: the JSON a client reads
//! stays what it was when the node sent copies of the core's errors.

use super::*;
use sobre_core::Color;
use sobre_core::league::LeagueError;
use sobre_core::league::decision::DecisionError;
use sobre_core::league::tiebreak::TieBreakError;
use sobre_core::record::Keypair;

/// The refusal code the node sends for a league error (none for the uncoded kinds).
fn league(e: &LeagueError) -> Option<RefusalCode> {
    coded_league_error(e).map(|problem| RefusalCode::League {
        problem: Some(problem),
    })
}

/// The refusal code the node sends for a decision error.
fn decision(e: &DecisionError) -> Option<RefusalCode> {
    coded_decision_error(e).map(|problem| RefusalCode::League {
        problem: Some(problem),
    })
}

/// The refusal code the node sends for a tie-break order it cannot read.
fn tie_breaks(e: &TieBreakError) -> RefusalCode {
    RefusalCode::League {
        problem: Some(e.clone().into()),
    }
}

fn json(code: &RefusalCode) -> String {
    serde_json::to_string(code).unwrap()
}

/// Each league refusal's JSON, and that it reads back as the same refusal.
#[test]
fn league_refusals_keep_their_wire_form() {
    let p = Keypair::from_secret_bytes(&[7; 32]).player_id();
    let cases: Vec<(Option<RefusalCode>, String)> = vec![
        (
            league(&LeagueError::PlayerCount { count: 2 }),
            r#"{"id":"league","problem":{"kind":"player_count","count":2}}"#.into(),
        ),
        (
            league(&LeagueError::DuplicatePlayer { player: p }),
            format!(r#"{{"id":"league","problem":{{"kind":"duplicate_player","player":"{p}"}}}}"#),
        ),
        (
            league(&LeagueError::Names {
                names: 2,
                players: 3,
            }),
            r#"{"id":"league","problem":{"kind":"names","names":2,"players":3}}"#.into(),
        ),
        (
            league(&LeagueError::OrganiserPlays),
            r#"{"id":"league","problem":{"kind":"organiser_plays"}}"#.into(),
        ),
        (
            league(&LeagueError::DeputyIsOrganiser),
            r#"{"id":"league","problem":{"kind":"deputy_is_organiser"}}"#.into(),
        ),
        (
            league(&LeagueError::DeputyPlays { deputy: p }),
            format!(r#"{{"id":"league","problem":{{"kind":"deputy_plays","deputy":"{p}"}}}}"#),
        ),
        (
            league(&LeagueError::DeputyWithoutGames),
            r#"{"id":"league","problem":{"kind":"deputy_without_games"}}"#.into(),
        ),
        (
            league(&LeagueError::BadName),
            r#"{"id":"league","problem":{"kind":"bad_name"}}"#.into(),
        ),
        (
            league(&LeagueError::NotAPlayer { player: p }),
            format!(r#"{{"id":"league","problem":{{"kind":"not_a_player","player":"{p}"}}}}"#),
        ),
        (
            league(&LeagueError::StartDeadline { ms: 0 }),
            r#"{"id":"league","problem":{"kind":"start_deadline","ms":0}}"#.into(),
        ),
        (
            decision(&DecisionError::Doc(LeagueError::BadName)),
            r#"{"id":"league","problem":{"kind":"bad_name"}}"#.into(),
        ),
        (
            decision(&DecisionError::AlreadyPlays { player: p }),
            format!(r#"{{"id":"league","problem":{{"kind":"already_plays","player":"{p}"}}}}"#),
        ),
        (
            decision(&DecisionError::Name),
            r#"{"id":"league","problem":{"kind":"player_name"}}"#.into(),
        ),
        (
            decision(&DecisionError::RoundOneStarted {
                signed_ms: 9,
                start_ms: 1,
            }),
            r#"{"id":"league","problem":{"kind":"round_one_started","start_ms":1}}"#.into(),
        ),
        (
            decision(&DecisionError::Reason {
                max: sobre_core::league::decision::MAX_REASON_CHARS,
            }),
            r#"{"id":"league","problem":{"kind":"reason","max":200}}"#.into(),
        ),
        (
            decision(&DecisionError::NotAPlayer { player: p }),
            format!(r#"{{"id":"league","problem":{{"kind":"not_a_player","player":"{p}"}}}}"#),
        ),
        (
            Some(tie_breaks(&TieBreakError::Unknown { name: "x".into() })),
            r#"{"id":"league","problem":{"kind":"unknown_tie_break","name":"x"}}"#.into(),
        ),
        (
            Some(tie_breaks(&TieBreakError::Repeated { name: "sb".into() })),
            r#"{"id":"league","problem":{"kind":"repeated_tie_break","name":"sb"}}"#.into(),
        ),
        (
            Some(tie_breaks(&TieBreakError::Count {
                max: sobre_core::league::tiebreak::MAX_TIE_BREAKS,
            })),
            r#"{"id":"league","problem":{"kind":"tie_break_count","max":8}}"#.into(),
        ),
    ];
    for (code, wire) in cases {
        let code = code.expect("a coded league refusal");
        assert_eq!(json(&code), wire);
        let back: RefusalCode = serde_json::from_str(&wire).unwrap();
        assert_eq!(json(&back), wire, "{wire} reads back as itself");
    }
    // The kinds a player does not meet are refused in the core's words alone.
    assert_eq!(league(&LeagueError::NotAJoin), None);
    assert_eq!(league(&LeagueError::Version(9)), None);
    assert_eq!(decision(&DecisionError::NotADecision), None);
    assert_eq!(decision(&DecisionError::NotTheOrganiser(p)), None);
}

/// Each coded rule refusal's JSON, and that it reads back as the same refusal.
#[test]
fn rule_refusals_keep_their_wire_form() {
    use AdjournmentRule as A;
    use RuleViolation as V;
    let cases = [
        (V::NoDrawOffer, r#"{"id":"no_draw_offer"}"#),
        (V::ClaimNotOnMove, r#"{"id":"claim_not_on_move"}"#),
        (V::IntendedMoveIllegal, r#"{"id":"intended_move_illegal"}"#),
        (V::ClaimWhileAdjourned, r#"{"id":"claim_while_adjourned"}"#),
        (V::AbortTooLate, r#"{"id":"abort_too_late"}"#),
        (V::AcceptNotAllowed, r#"{"id":"accept_not_allowed"}"#),
        (V::DeclineNotAllowed, r#"{"id":"decline_not_allowed"}"#),
        (V::ColoursNotSettled, r#"{"id":"colours_not_settled"}"#),
        (
            V::OutOfTurn(Color::White),
            r#"{"id":"out_of_turn","colour":"white"}"#,
        ),
        (
            V::OutOfTurn(Color::Black),
            r#"{"id":"out_of_turn","colour":"black"}"#,
        ),
        (
            V::NotLive(Status::Finished),
            r#"{"id":"not_live","status":"finished"}"#,
        ),
        (
            V::NoMoveInStatus(Status::Pending),
            r#"{"id":"no_move_in_status","status":"pending"}"#,
        ),
        (V::OpenSealedMoveFirst, r#"{"id":"open_sealed_move_first"}"#),
        (
            V::Adjournment(A::BeforeResumption),
            r#"{"id":"before_resumption"}"#,
        ),
        (
            V::Adjournment(A::ResponderAbsent),
            r#"{"id":"responder_absent"}"#,
        ),
        (
            V::A11NeedsAgreedTerms { version: 2 },
            r#"{"id":"a11_needs_agreed_terms","version":2}"#,
        ),
        (
            V::NoSealedMoveToDeclare,
            r#"{"id":"no_sealed_move_to_declare"}"#,
        ),
        (V::DeclareNotSealer, r#"{"id":"declare_not_sealer"}"#),
        (V::AlreadyDeclared, r#"{"id":"already_declared"}"#),
        (
            V::DeclaredAfterOpening,
            r#"{"id":"declared_after_opening"}"#,
        ),
        (V::UnknownDeclaration, r#"{"id":"unknown_declaration"}"#),
        (
            V::AcceptDeclarationNotAllowed,
            r#"{"id":"accept_declaration_not_allowed"}"#,
        ),
        (V::NothingToAnnul, r#"{"id":"nothing_to_annul"}"#),
        (V::AnnulNotAllowed, r#"{"id":"annul_not_allowed"}"#),
        (
            V::Quickplay(QuickplayRule::NoArbiter),
            r#"{"id":"quickplay","rule":"no_arbiter"}"#,
        ),
    ];
    for (rule, wire) in cases {
        let code = RefusalCode::of_rule(&rule).expect("a coded rule");
        assert_eq!(json(&code), wire, "{rule:?}");
        assert_eq!(serde_json::from_str::<RefusalCode>(wire).unwrap(), code);
    }
    assert_eq!(RefusalCode::of_rule(&V::UnseenMove), None);
    // A state from a newer node reads as none known (the node's message says it).
    let newer: RefusalCode =
        serde_json::from_str(r#"{"id":"not_live","status":"from_the_future"}"#).unwrap();
    assert_eq!(newer, RefusalCode::NotLive { status: None });
    assert_eq!(
        newer.words(sobre_words::words(sobre_words::Language::English)),
        None
    );
}
