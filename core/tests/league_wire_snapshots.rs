//! The wire format of league documents, pinned by id.
//!
//! A league is named by the id of its signed definition, and every join and decision names
//! the league by that id: an accidental change to the encoding of [`LeagueDoc`] (a field
//! added to [`LeagueDef`], a reordered variant of [`LeagueKind`] or [`Decision`]) would
//! rename every existing league and orphan its documents. These ids were computed before
//! the deputy arbiter and the roster decisions were added (issue 20) and must never change;
//! new kinds of document are new variants at the end of their enums.

use sobre_core::league::decision::{Decision, Verdict, WithdrawalRule};
use sobre_core::league::tiebreak::TieBreak;
use sobre_core::league::{DAY_MS, LEAGUE_VERSION, LeagueDef, LeagueDoc, LeagueKind, Scoring};
use sobre_core::league::{League, LeagueRule};
use sobre_core::league::{LeagueId, SignedLeagueDoc};
use sobre_core::record::{Keypair, PlayerId};

const T0: u64 = 1_700_000_000_000;

fn key(n: u8) -> Keypair {
    Keypair::from_secret_bytes(&[n; 32])
}

fn def() -> LeagueDef {
    LeagueDef {
        name: "Liga".into(),
        players: (1..=4).map(|i| key(i).player_id()).collect(),
        names: ["Ana", "Bruno", "Carmen", "Diego"]
            .map(String::from)
            .to_vec(),
        double: true,
        time_control: "3d".into(),
        start_ms: T0,
        round_days: 7,
        scoring: Scoring::default(),
    }
}

fn signed(kind: LeagueKind) -> SignedLeagueDoc {
    let org = key(100);
    SignedLeagueDoc::sign(
        &LeagueDoc {
            version: LEAGUE_VERSION,
            author: org.player_id(),
            time_ms: T0 - 1_000,
            kind,
        },
        &org,
    )
    .expect("sign")
}

fn p(n: u8) -> PlayerId {
    key(n).player_id()
}

/// The kind tag (u32 little-endian) that follows version, author and time in a body.
fn kind_tag(doc: &SignedLeagueDoc) -> u32 {
    let at = 2 + 32 + 8;
    u32::from_le_bytes(doc.body[at..at + 4].try_into().expect("four bytes"))
}

#[test]
fn league_document_ids_are_unchanged() {
    let league: LeagueId = signed(LeagueKind::Define(def())).id();
    let cases: Vec<(&str, LeagueKind, u32, &str)> = vec![
        (
            "define",
            LeagueKind::Define(def()),
            0,
            "4dbfd659c4ed7cba48567ff8fa1340cb63c9a573a69af01b0555fbecec1b0c00",
        ),
        (
            "join",
            LeagueKind::Join { league },
            1,
            "6067e7adc02e3a3af14d3b0e9af3a47ab1e839b1cf16259309bf107f04699d35",
        ),
        (
            "forfeit",
            LeagueKind::Decision {
                league,
                decision: Decision::Forfeit {
                    round: 1,
                    white: p(1),
                    black: p(4),
                    winner: p(4),
                },
            },
            2,
            "739fe1430b81ee70178ca653a7c78ebc953cf44842e655132357a51a71b541c7",
        ),
        (
            "withdraw",
            LeagueKind::Decision {
                league,
                decision: Decision::Withdraw { player: p(2) },
            },
            2,
            "9b586b28d25337ffd3a9d41a532e696008c579c9ec849d5e717b699747561f56",
        ),
        (
            "adjudicate",
            LeagueKind::Decision {
                league,
                decision: Decision::Adjudicate {
                    round: 2,
                    white: p(4),
                    black: p(3),
                    verdict: Verdict::Draw,
                    reason: "dead drawn".into(),
                },
            },
            2,
            "38bc90aaf43ebc41d185c5008581d27584116a35fc09537280aea92c22a5bf25",
        ),
        (
            "settings",
            LeagueKind::Decision {
                league,
                decision: Decision::Settings {
                    withdrawal: WithdrawalRule::ForfeitRemaining,
                },
            },
            2,
            "b25569c26211f2fc77bdf0503635dfe3c36ef513c65abd716fd154922c6e819a",
        ),
        (
            "tie-breaks",
            LeagueKind::Decision {
                league,
                decision: Decision::TieBreaks {
                    order: vec![TieBreak::SonnebornBerger, TieBreak::Koya],
                },
            },
            2,
            "b419b2c9f0db6592a35fd098d4c08c967bd70af9ddbed3e8caf658dfb4e90545",
        ),
    ];
    let mut changed = Vec::new();
    for (name, kind, tag, id) in cases {
        let doc = signed(kind);
        assert_eq!(kind_tag(&doc), tag, "{name}: kind tag");
        if doc.id().to_hex() != id {
            changed.push(format!("{name}: {}", doc.id().to_hex()));
        }
    }
    assert!(
        changed.is_empty(),
        "league document ids changed:\n{}",
        changed.join("\n")
    );
}

/// The kinds added for issue 20 take the next tags: a definition with a deputy is league
/// document kind 3, a late entry and a replacement are decisions 5 and 6.
#[test]
fn new_league_documents_take_appended_tags() {
    let league: LeagueId = signed(LeagueKind::Define(def())).id();
    let mut with_organiser = def();
    with_organiser.players[0] = key(100).player_id();
    let d = signed(LeagueKind::DefineWithDeputy {
        def: with_organiser,
        deputy: p(50),
    });
    assert_eq!(kind_tag(&d), 3);
    // After the kind tag, a decision's league id (32 bytes), then the decision's tag.
    let decision_tag = |doc: &SignedLeagueDoc| {
        let at = 2 + 32 + 8 + 4 + 32;
        u32::from_le_bytes(doc.body[at..at + 4].try_into().expect("four bytes"))
    };
    for (decision, tag) in [
        (
            Decision::Enter {
                player: p(7),
                name: "Gabriel".into(),
            },
            5,
        ),
        (
            Decision::Replace {
                out: p(3),
                player: p(8),
                name: "Hugo".into(),
            },
            6,
        ),
        (Decision::Withdraw { player: p(2) }, 1),
    ] {
        let doc = signed(LeagueKind::Decision { league, decision });
        assert_eq!(kind_tag(&doc), 2);
        assert_eq!(decision_tag(&doc), tag);
    }
}

/// Issue 29: a definition with rules of the competition (the start deadline, FIDE 6.6) is
/// league document kind 4 and a double forfeit is decision 7; their ids are pinned, and
/// a definition without rules still signs as kind 0 (the old bytes: no deadline).
#[test]
fn start_deadline_and_double_forfeit_take_appended_tags() {
    let league: LeagueId = signed(LeagueKind::Define(def())).id();
    let decision_tag = |doc: &SignedLeagueDoc| {
        let at = 2 + 32 + 8 + 4 + 32;
        u32::from_le_bytes(doc.body[at..at + 4].try_into().expect("four bytes"))
    };
    let with_rules = signed(LeagueKind::DefineWithRules {
        def: def(),
        deputy: None,
        rules: vec![LeagueRule::StartDeadline {
            after_open_ms: 2 * DAY_MS,
        }],
    });
    assert_eq!(kind_tag(&with_rules), 4);
    let double = signed(LeagueKind::Decision {
        league,
        decision: Decision::DoubleForfeit {
            round: 1,
            white: p(1),
            black: p(4),
        },
    });
    assert_eq!(kind_tag(&double), 2);
    assert_eq!(decision_tag(&double), 7);
    let ids = [with_rules.id().to_hex(), double.id().to_hex()];
    assert_eq!(
        ids,
        [
            "bbaa3045414fb20f2ef18ee7c59de3bc7ee35b6219ea61d831fc65b63cbb300f",
            "cdc1d305296f3f08d92bfa24d1d493d844b6b77262caf9d77c7b138e66c7b9a3",
        ]
    );
    // The old definition, verified by this build, has no deadline.
    let old = League::from_signed(&signed(LeagueKind::Define(def()))).expect("verifies");
    assert_eq!(old.start_deadline(), None);
    assert_eq!(old.id, league);
    // And `create_with_rules` without rules signs exactly the old kind.
    let again =
        League::create_with_rules(&key(100), def(), None, Vec::new(), T0 - 1_000).expect("valid");
    assert_eq!(again.signed.body, old.signed.body);
    let new = League::from_signed(&with_rules).expect("verifies");
    assert_eq!(new.start_deadline_ms(1), Some(T0 + 2 * DAY_MS));
}
