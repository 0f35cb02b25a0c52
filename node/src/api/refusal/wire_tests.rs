//! The wire form of the league and rule refusals, byte for byte. The league refusals' JSON
//! stayed what it was when the node sent copies of the core's errors; the rule refusals'
//! changed with the copies (one `rule` code carrying the core's violation, docs/protocol.md).

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

/// Each coded rule refusal's JSON: one `rule` code carrying the core's own violation,
/// tagged by `kind`; it reads back as the same refusal.
#[test]
fn rule_refusals_carry_the_cores_violation() {
    use AdjournmentRule as A;
    use RuleViolation as V;
    use sobre_core::record::Status;
    use sobre_core::rules::adjournment::AdjournmentRule;
    use sobre_core::rules::quickplay::QuickplayRule;
    let cases = [
        (V::NoDrawOffer, r#"{"kind":"no_draw_offer"}"#),
        (V::ClaimNotOnMove, r#"{"kind":"claim_not_on_move"}"#),
        (
            V::IntendedMoveIllegal,
            r#"{"kind":"intended_move_illegal"}"#,
        ),
        (
            V::ClaimWhileAdjourned,
            r#"{"kind":"claim_while_adjourned"}"#,
        ),
        (V::AbortTooLate, r#"{"kind":"abort_too_late"}"#),
        (V::AcceptNotAllowed, r#"{"kind":"accept_not_allowed"}"#),
        (V::DeclineNotAllowed, r#"{"kind":"decline_not_allowed"}"#),
        (V::ColoursNotSettled, r#"{"kind":"colours_not_settled"}"#),
        (
            V::OutOfTurn {
                colour: Color::White,
            },
            r#"{"kind":"out_of_turn","colour":"white"}"#,
        ),
        (
            V::NotLive {
                status: Status::Finished,
            },
            r#"{"kind":"not_live","status":"finished"}"#,
        ),
        (
            V::NoMoveInStatus {
                status: Status::Pending,
            },
            r#"{"kind":"no_move_in_status","status":"pending"}"#,
        ),
        (
            V::OpenSealedMoveFirst,
            r#"{"kind":"open_sealed_move_first"}"#,
        ),
        (
            V::Adjournment(A::BeforeResumption),
            r#"{"kind":"adjournment","rule":"before_resumption"}"#,
        ),
        (
            V::Adjournment(A::ResponderAbsent),
            r#"{"kind":"adjournment","rule":"responder_absent"}"#,
        ),
        (
            V::A11NeedsAgreedTerms { version: 2 },
            r#"{"kind":"a11_needs_agreed_terms","version":2}"#,
        ),
        (
            V::NoSealedMoveToDeclare,
            r#"{"kind":"no_sealed_move_to_declare"}"#,
        ),
        (V::DeclareNotSealer, r#"{"kind":"declare_not_sealer"}"#),
        (V::AlreadyDeclared, r#"{"kind":"already_declared"}"#),
        (
            V::DeclaredAfterOpening,
            r#"{"kind":"declared_after_opening"}"#,
        ),
        (V::UnknownDeclaration, r#"{"kind":"unknown_declaration"}"#),
        (
            V::AcceptDeclarationNotAllowed,
            r#"{"kind":"accept_declaration_not_allowed"}"#,
        ),
        (V::NothingToAnnul, r#"{"kind":"nothing_to_annul"}"#),
        (V::AnnulNotAllowed, r#"{"kind":"annul_not_allowed"}"#),
        (
            V::Quickplay(QuickplayRule::NoArbiter),
            r#"{"kind":"quickplay","rule":"no_arbiter"}"#,
        ),
        (
            V::Quickplay(QuickplayRule::TimeLeft {
                remaining_ms: 125_000,
            }),
            r#"{"kind":"quickplay","rule":"time_left","remaining_ms":125000}"#,
        ),
    ];
    for (rule, problem) in cases {
        let wire = format!(r#"{{"id":"rule","problem":{problem}}}"#);
        let code = RefusalCode::of_rule(&rule).expect("a coded rule");
        assert_eq!(json(&code), wire, "{rule:?}");
        assert_eq!(serde_json::from_str::<RefusalCode>(&wire).unwrap(), code);
    }
    // The rules a player does not meet are refused in the core's words alone.
    assert_eq!(RefusalCode::of_rule(&V::UnseenMove), None);
    assert_eq!(
        RefusalCode::of_rule(&V::Adjournment(A::SealerPresent)),
        None
    );
    // A kind, a state or a 10.2 rule from a newer node reads as none known (the node's
    // message says it), as does a kind this build never sends.
    for newer in [
        r#"{"id":"rule","problem":{"kind":"from_the_future"}}"#,
        r#"{"id":"rule","problem":{"kind":"not_live","status":"from_the_future"}}"#,
        r#"{"id":"rule","problem":{"kind":"quickplay","rule":"from_the_future"}}"#,
        r#"{"id":"rule","problem":{"kind":"illegal_move","from":"e2"}}"#,
    ] {
        let code: RefusalCode = serde_json::from_str(newer).unwrap();
        assert_eq!(code, RefusalCode::Rule { problem: None }, "{newer}");
        assert_eq!(
            code.words(sobre_words::words(sobre_words::Language::English)),
            None
        );
    }
}
