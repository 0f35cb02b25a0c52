//! The scoresheet never signs twice at one place; every signing method's event.

use super::*;
use crate::record::event::{ColourChoice, StartPosition};
use crate::types::{MoveKind, Square};

const T0: u64 = 1_700_000_000_000;

fn challenge_of(opponent: PlayerId) -> Challenge {
    Challenge {
        opponent,
        colour: ColourChoice::ChallengerWhite,
        time_control: "3d".into(),
        start: StartPosition::Standard,
        coin_commitment: None,
        league: None,
    }
}

fn pair() -> (Keypair, Keypair) {
    (
        Keypair::from_secret_bytes(&[1; 32]),
        Keypair::from_secret_bytes(&[2; 32]),
    )
}

fn e2e4() -> Move {
    Move::new(Square::new(12), Square::new(28), MoveKind::Normal)
}

#[test]
fn the_game_id_is_the_challenge_id() {
    let (white, black) = pair();
    let opponent = black.player_id();
    let (sheet, challenge) = Scoresheet::challenge(white, challenge_of(opponent), T0).unwrap();
    let v = challenge.verify().unwrap();
    assert_eq!(v.event.seq, 0);
    assert_eq!(v.event.game, None);
    assert_eq!(v.event.prev, None);
    assert_eq!(v.event.seen, None);
    assert_eq!(sheet.game(), challenge.id());
    assert_eq!(sheet.last(), Some(challenge.id()));
    assert_eq!(sheet.seq(), 1);
}

#[test]
fn each_event_chains_to_the_previous_and_seq_increments() {
    let (white, black) = pair();
    let (mut sheet, challenge) =
        Scoresheet::challenge(white, challenge_of(black.player_id()), T0).unwrap();
    let mut previous = challenge.verify().unwrap();
    let signed = [
        sheet.offer_draw(T0 + 1).unwrap(),
        sheet.chat("hola", T0 + 2).unwrap(),
        sheet.play(e2e4(), T0 + 3).unwrap(),
        sheet.resign(T0 + 4).unwrap(),
    ];
    for s in signed {
        let v = s.verify().unwrap();
        assert_eq!(
            v.event.prev,
            Some(previous.id),
            "prev of n+1 is the id of n"
        );
        assert_eq!(v.event.seq, previous.event.seq + 1);
        assert_eq!(v.event.game, Some(challenge.id()));
        assert_eq!(v.event.author, sheet.player());
        assert_eq!(v.event.version, EVENT_VERSION);
        previous = v;
    }
    assert_eq!(sheet.seq(), 5);
    assert_eq!(sheet.last(), Some(previous.id));
}

#[test]
fn the_opponent_starts_at_seq_zero_and_names_what_it_saw() {
    let (white, black) = pair();
    let (_, challenge) = Scoresheet::challenge(white, challenge_of(black.player_id()), T0).unwrap();
    let mut sheet = Scoresheet::join(black, challenge.id());
    assert_eq!(sheet.seq(), 0);
    assert_eq!(sheet.last(), None);
    sheet.saw(challenge.id());
    let accept = sheet
        .accept(Some([5; 32]), T0 + 10)
        .unwrap()
        .verify()
        .unwrap();
    assert_eq!(accept.event.seq, 0);
    assert_eq!(accept.event.prev, None);
    assert_eq!(accept.event.seen, Some(challenge.id()));
    assert_eq!(accept.event.game, Some(challenge.id()));
    assert_eq!(accept.event.time_ms, T0 + 10);
    assert_eq!(
        accept.event.kind,
        EventKind::Accept(Accept {
            coin_share: Some([5; 32])
        })
    );
    // `seen` stays until the next opponent event is recorded.
    let receipt = sheet.receipt(challenge.id(), T0 + 11).unwrap();
    let receipt = receipt.verify().unwrap();
    assert_eq!(receipt.event.seen, Some(challenge.id()));
    assert_eq!(receipt.event.prev, Some(accept.id));
}

#[test]
fn resume_continues_the_log_where_it_stopped() {
    let (white, black) = pair();
    let (mut sheet, challenge) =
        Scoresheet::challenge(white.clone(), challenge_of(black.player_id()), T0).unwrap();
    let seen = EventId([9; 32]);
    sheet.saw(seen);
    let draw = sheet.offer_draw(T0 + 1).unwrap();
    let mut resumed =
        Scoresheet::resume(white, sheet.game(), sheet.seq(), sheet.last(), sheet.seen());
    let next = resumed.resign(T0 + 2).unwrap();
    let expected = sheet.resign(T0 + 2).unwrap();
    // Same state, same key, same content: the same bytes (ed25519 is deterministic).
    assert_eq!(next, expected);
    let v = next.verify().unwrap();
    assert_eq!(v.event.seq, 2);
    assert_eq!(v.event.prev, Some(draw.id()));
    assert_eq!(v.event.seen, Some(seen));
    assert_eq!(v.event.game, Some(challenge.id()));
}

#[test]
fn a1_seal_commitment_matches_the_opening() {
    let (white, black) = pair();
    let game = EventId([3; 32]);
    let mut sheet = Scoresheet::resume(black.clone(), game, 7, Some(EventId([4; 32])), None);
    let envelope = Envelope {
        white: white.player_id(),
        black: black.player_id(),
        fen_before: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
        time_used_ms: [1000, 0],
        sealer: black.player_id(),
        move_number: 1,
        draw_offer_by: None,
        resume_at_ms: Some(T0 + 3_600_000),
        place: "Club".into(),
        lateness_limit_ms: 3_600_000,
    };
    let (signed, opening) = sheet
        .seal("c5", SealLetters::Spanish, [8; 32], envelope.clone(), 1, T0)
        .unwrap();
    assert_eq!(
        opening,
        SealOpening {
            move_text: "c5".into(),
            salt: [8; 32]
        }
    );
    let v = signed.verify().unwrap();
    let expected = commit::seal_commitment(&game, 1, &black.player_id(), "c5", &[8; 32]);
    assert_eq!(
        v.event.kind,
        EventKind::SealIn {
            letters: SealLetters::Spanish,
            seal: Seal {
                commitment: expected,
                envelope
            }
        }
    );
    let reveal = sheet
        .reveal(&opening, T0 + 3_600_000)
        .unwrap()
        .verify()
        .unwrap();
    assert_eq!(reveal.event.prev, Some(v.id));
    assert_eq!(
        reveal.event.kind,
        EventKind::Reveal(Reveal {
            move_text: "c5".into(),
            salt: [8; 32]
        })
    );
}

#[test]
fn every_wrapper_signs_its_kind() {
    let (white, _) = pair();
    let mut sheet = Scoresheet::join(white, EventId([1; 32]));
    let promote = Move::new(
        Square::new(52),
        Square::new(60),
        MoveKind::Promotion(crate::types::Role::Knight),
    );
    let signed = [
        sheet.decline("busy", 1).unwrap(),
        sheet.abort(2).unwrap(),
        sheet.accept_draw(3).unwrap(),
        sheet.decline_draw(4).unwrap(),
        sheet
            .claim(ClaimReason::Threefold, Some(promote), 5)
            .unwrap(),
        sheet.presence(6).unwrap(),
        sheet.leave(10, 20, 7).unwrap(),
        sheet.random_reveal([6; 32], 8).unwrap(),
    ];
    let kinds: Vec<EventKind> = signed
        .iter()
        .map(|s| s.verify().unwrap().event.kind)
        .collect();
    assert_eq!(
        kinds,
        vec![
            EventKind::Decline {
                reason: "busy".into()
            },
            EventKind::Abort,
            EventKind::DrawAccept,
            EventKind::DrawDecline,
            EventKind::Claim(Claim {
                reason: ClaimReason::Threefold,
                intended: Some(WireMove {
                    from: 52,
                    to: 60,
                    promotion: 4
                })
            }),
            EventKind::Presence,
            EventKind::Leave {
                from_ms: 10,
                until_ms: 20
            },
            EventKind::RandomReveal { secret: [6; 32] },
        ]
    );
    assert!(
        signed
            .iter()
            .all(|s| s.verify().unwrap().event.author == sheet.player())
    );
}

#[test]
fn a_full_log_refuses_to_sign_rather_than_reuse_a_seq() {
    let (white, _) = pair();
    let mut sheet = Scoresheet::resume(
        white,
        EventId([1; 32]),
        u64::MAX,
        Some(EventId([2; 32])),
        None,
    );
    assert!(sheet.resign(1).is_err());
    assert_eq!(sheet.seq(), u64::MAX);
    assert_eq!(sheet.last(), Some(EventId([2; 32])));
}
