//! The wire format of events, pinned byte for byte.
//!
//! Signed bytes are stored as received and ids are hashes of them, so an accidental change to
//! the encoding (a reordered enum variant, a field added in the middle, a different integer
//! width) silently forks every stored game. These tests make such a change loud:
//!
//! - byte snapshots of the body and id of every [`EventKind`] variant (and of the variants
//!   of every enum inside one), built from fixed keys and times;
//! - the enum tag of every kind, read straight from the bytes;
//! - one [`SignedEvent::to_bytes`] pinned whole, signature included (ed25519 signing is
//!   deterministic);
//! - proptest round trips, and the rejection of corrupt, truncated and padded bytes.
//!
//! A failing snapshot prints the new bytes in the layout used below. Update the tables only
//! for a deliberate format change, which also needs a new `EVENT_VERSION`.
//!
//! Layout of a body (bincode 1.3.3, fixint, little-endian; see `record::codec`):
//!
//! | field     | bytes                               |
//! |-----------|-------------------------------------|
//! | `version` | u16                                 |
//! | `game`    | `00`, or `01` and 32 bytes          |
//! | `author`  | 32 bytes (the raw ed25519 key)      |
//! | `seq`     | u64                                 |
//! | `prev`    | `00`, or `01` and 32 bytes          |
//! | `seen`    | `00`, or `01` and 32 bytes          |
//! | `time_ms` | u64                                 |
//! | `kind`    | u32 variant tag, then its fields    |
//!
//! Strings and `Vec<u8>` are a u64 length and the bytes; `[u8; N]` is N bytes with no length;
//! `Option` is a one-byte tag; structs are their fields in declaration order.

use proptest::prelude::*;
use sha2::{Digest, Sha256};
use sobre_core::record::codec::{self, CodecError, MAX_EVENT_BYTES};
use sobre_core::record::commit;
use sobre_core::record::escrow::SEALED_BOX_BYTES;
use sobre_core::record::event::{EVENT_VERSION, MIN_EVENT_VERSION, event_id};
use sobre_core::record::{
    Accept, Challenge, Claim, ClaimReason, CoinColour, ColourChoice, Envelope, Event, EventId,
    EventKind, Keypair, LeagueRound, PlayerId, QuickplayRuling, Reveal, Seal, SealLetters,
    SignedEvent, StartPosition, WireMove,
};
use sobre_core::record::{Terms, TermsEdition};

// ---------------------------------------------------------------------------------------------
// Fixed inputs
// ---------------------------------------------------------------------------------------------

/// 2023-11-14T22:13:20Z: `00 68 e5 cf 8b 01 00 00` on the wire.
const T0: u64 = 1_700_000_000_000;
const GAME: EventId = EventId([0x47; 32]); // 'G'
const PREV: EventId = EventId([0x50; 32]); // 'P'
const SEEN: EventId = EventId([0x53; 32]); // 'S'
const SEAL: EventId = EventId([0x45; 32]); // 'E'

fn challenger() -> Keypair {
    Keypair::from_secret_bytes(&[1; 32])
}

fn opponent() -> Keypair {
    Keypair::from_secret_bytes(&[2; 32])
}

/// The snapshots pin the bytes of protocol version 1: the format is the same in every
/// version (only the rules' reading of times changed in 2), and version 1 archives must keep
/// decoding to exactly these events.
const V1: u16 = 1;

fn header(key: &Keypair, game: Option<EventId>, seq: u64, prev: Option<EventId>) -> Event {
    Event {
        version: V1,
        game,
        author: key.player_id(),
        seq,
        prev,
        seen: game.map(|_| SEEN),
        time_ms: T0 + seq * 1000,
        kind: EventKind::Abort,
    }
}

/// A mid-game event by `key`: game, prev and seen all present.
fn by(key: &Keypair, seq: u64, kind: EventKind) -> (Event, Keypair) {
    let mut e = header(key, Some(GAME), seq, Some(PREV));
    e.kind = kind;
    (e, key.clone())
}

fn challenge(start: StartPosition, colour: ColourChoice, tc: &str) -> Challenge {
    let random = colour == ColourChoice::Random || start == StartPosition::Chess960Random;
    Challenge {
        opponent: opponent().player_id(),
        colour,
        time_control: tc.into(),
        start,
        coin_commitment: random.then(|| commit::coin_commitment(&[0x43; 32])),
        league: None,
    }
}

fn wire(from: u8, to: u8, promotion: u8) -> WireMove {
    WireMove {
        from,
        to,
        promotion,
    }
}

fn envelope_full() -> Envelope {
    Envelope {
        white: challenger().player_id(),
        black: opponent().player_id(),
        fen_before: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".into(),
        time_used_ms: [5_400_000, 4_200_000],
        sealer: challenger().player_id(),
        move_number: 3,
        draw_offer_by: Some(opponent().player_id()),
        resume_at_ms: Some(T0 + 86_400_000),
        place: "Círculo de Ajedrez".into(),
        lateness_limit_ms: 3_600_000,
    }
}

fn envelope_minimal() -> Envelope {
    Envelope {
        draw_offer_by: None,
        resume_at_ms: None,
        place: String::new(),
        ..envelope_full()
    }
}

/// Every case pinned below, by name: each `EventKind` variant, each variant of the enums
/// inside one, and each `Option` both ways.
fn cases() -> Vec<(&'static str, Event, Keypair)> {
    use ClaimReason::*;
    let w = &challenger();
    let b = &opponent();
    let challenge_event = |name: &'static str, c: Challenge| {
        let mut e = header(w, None, 0, None);
        e.kind = EventKind::Challenge(c);
        (name, e, w.clone())
    };
    let on_terms = |name: &'static str, terms: Terms| {
        let mut e = header(w, None, 0, None);
        e.version = 3;
        e.kind = EventKind::ChallengeOnTerms {
            challenge: challenge(StartPosition::Standard, ColourChoice::ChallengerWhite, "3d"),
            terms,
        };
        (name, e, w.clone())
    };
    let mut out = vec![
        on_terms("challenge_on_default_terms", Terms::default()),
        on_terms(
            "challenge_on_terms_timekeeper_arbiter_2005",
            Terms {
                timekeepers: vec![Keypair::from_secret_bytes(&[9; 32]).player_id()],
                arbiter: Some(Keypair::from_secret_bytes(&[8; 32]).player_id()),
                edition: TermsEdition::Fide2005,
                lateness_limit_ms: 1_800_000,
                min_notice_ms: 86_400_000,
                correspondence_adjournment: true,
                no_draw_before_move: 30,
            },
        ),
        challenge_event(
            "challenge_standard_challenger_white",
            challenge(StartPosition::Standard, ColourChoice::ChallengerWhite, "3d"),
        ),
        challenge_event(
            "challenge_chess960_challenger_black_league",
            Challenge {
                league: Some(LeagueRound {
                    league: EventId([0x4c; 32]),
                    round: 7,
                }),
                ..challenge(
                    StartPosition::Chess960(518),
                    ColourChoice::ChallengerBlack,
                    "10/50d",
                )
            },
        ),
        challenge_event(
            "challenge_chess960_random_colour_random",
            challenge(StartPosition::Chess960Random, ColourChoice::Random, "5d+1d"),
        ),
        challenge_event(
            "challenge_fen",
            challenge(
                StartPosition::Fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into()),
                ColourChoice::ChallengerWhite,
                "40/2h+1h",
            ),
        ),
    ];
    // The acceptance opens the opponent's log: seq 0, no prev, seen = the challenge.
    let mut accept = header(b, Some(GAME), 0, None);
    accept.kind = EventKind::Accept(Accept {
        coin_share: Some([0x42; 32]),
    });
    out.push(("accept_with_coin_share", accept.clone(), b.clone()));
    accept.kind = EventKind::Accept(Accept { coin_share: None });
    out.push(("accept_without_coin_share", accept, b.clone()));

    let mut add = |name: &'static str, (e, k): (Event, Keypair)| out.push((name, e, k));
    add(
        "decline",
        by(
            b,
            0,
            EventKind::Decline {
                reason: "busy".into(),
            },
        ),
    );
    add("abort", by(w, 1, EventKind::Abort));
    add("move_e2e4", by(w, 2, EventKind::Move(wire(12, 28, 0))));
    add(
        "move_promotion_knight",
        by(b, 40, EventKind::Move(wire(11, 2, 4))),
    );
    add("draw_offer", by(w, 3, EventKind::DrawOffer));
    add("draw_accept", by(b, 3, EventKind::DrawAccept));
    add("draw_decline", by(b, 4, EventKind::DrawDecline));
    for (reason, bare, with_move) in [
        (Threefold, "claim_threefold", "claim_threefold_intended"),
        (
            FiftyMoves,
            "claim_fifty_moves",
            "claim_fifty_moves_intended",
        ),
        (Time, "claim_time", "claim_time_intended"),
        (
            DeadPosition,
            "claim_dead_position",
            "claim_dead_position_intended",
        ),
        (Lateness, "claim_lateness", "claim_lateness_intended"),
    ] {
        let claim = |intended| EventKind::Claim(Claim { reason, intended });
        add(bare, by(w, 10, claim(None)));
        add(with_move, by(w, 11, claim(Some(wire(52, 60, 1)))));
    }
    add("resign", by(b, 5, EventKind::Resign));
    let commitment = commit::seal_commitment(
        &GAME,
        4,
        &w.player_id(),
        "Bb5",
        &[0x5a; 32], // 'Z'
    );
    add(
        "seal_full_envelope",
        by(
            w,
            6,
            EventKind::Seal(Seal {
                commitment,
                envelope: envelope_full(),
            }),
        ),
    );
    add(
        "seal_minimal_envelope",
        by(
            w,
            6,
            EventKind::Seal(Seal {
                commitment,
                envelope: envelope_minimal(),
            }),
        ),
    );
    add(
        "seal_in_spanish",
        by(
            w,
            6,
            EventKind::SealIn {
                letters: SealLetters::Spanish,
                seal: Seal {
                    commitment,
                    envelope: envelope_minimal(),
                },
            },
        ),
    );
    add("presence", by(b, 7, EventKind::Presence));
    add(
        "reveal",
        by(
            w,
            7,
            EventKind::Reveal(Reveal {
                move_text: "Bb5".into(),
                salt: [0x5a; 32],
            }),
        ),
    );
    add("receipt", by(b, 8, EventKind::Receipt { event: PREV }));
    add(
        "chat_ascii",
        by(
            w,
            8,
            EventKind::Chat {
                text: "good game".into(),
            },
        ),
    );
    add(
        "chat_spanish",
        by(
            b,
            9,
            EventKind::Chat {
                text: "¡Tablas!".into(),
            },
        ),
    );
    add(
        "leave",
        by(
            w,
            9,
            EventKind::Leave {
                from_ms: T0,
                until_ms: T0 + 7 * 86_400_000,
            },
        ),
    );
    add(
        "random_reveal",
        by(w, 1, EventKind::RandomReveal { secret: [0x43; 32] }),
    );
    // The arbiter (a third key) and a box of the size every escrow has (any bytes: the codec
    // does not look inside; `record::escrow` has the construction's own tests).
    let arbiter = Keypair::from_secret_bytes(&[3; 32]);
    add(
        "escrow",
        by(
            w,
            7,
            EventKind::Escrow {
                seal: SEAL,
                arbiter: arbiter.player_id(),
                sealed_box: (0..SEALED_BOX_BYTES).map(|i| i as u8).collect(),
            },
        ),
    );
    add(
        "arbiter_open",
        by(
            &arbiter,
            0,
            EventKind::ArbiterOpen {
                seal: SEAL,
                move_text: "Ab5".into(),
                salt: [0x5a; 32],
            },
        ),
    );
    // A11 (tags 22 to 24): events of games on agreed terms, so pinned under version 3.
    let v3 = |(mut e, k): (Event, Keypair)| {
        e.version = 3;
        (e, k)
    };
    add(
        "declare_sealed_move",
        v3(by(
            w,
            9,
            EventKind::DeclareSealedMove { mv: wire(6, 21, 0) },
        )),
    );
    add(
        "accept_declared_move",
        v3(by(
            &arbiter,
            1,
            EventKind::AcceptDeclaredMove { declared: SEAL },
        )),
    );
    add("annul_game", v3(by(b, 10, EventKind::AnnulGame)));
    // 10.2 (tags 25 and 26): a claim and the agreed arbiter's rulings, under version 3.
    add("quickplay_claim", v3(by(w, 11, EventKind::QuickplayClaim)));
    for (name, ruling) in [
        ("quickplay_ruling_draw", QuickplayRuling::Draw),
        (
            "quickplay_ruling_postpone_extra",
            QuickplayRuling::Postpone { extra_time: true },
        ),
        ("quickplay_ruling_reject", QuickplayRuling::Reject),
    ] {
        add(
            name,
            v3(by(
                &arbiter,
                2,
                EventKind::QuickplayRuling {
                    claim: SEAL,
                    ruling,
                },
            )),
        );
    }
    add(
        "coin_default_colour_and_position",
        by(
            b,
            1,
            EventKind::CoinDefault {
                colour: Some(CoinColour::White),
                position: Some(518),
            },
        ),
    );
    add(
        "coin_default_colour",
        by(
            b,
            1,
            EventKind::CoinDefault {
                colour: Some(CoinColour::Black),
                position: None,
            },
        ),
    );
    add(
        "coin_default_position",
        by(
            b,
            1,
            EventKind::CoinDefault {
                colour: None,
                position: Some(959),
            },
        ),
    );
    out
}

/// The tag each kind must carry on the wire: declaration order, append only. Exhaustive, so
/// a new variant does not compile until it is given its number here.
fn declared_tag(kind: &EventKind) -> u32 {
    match kind {
        EventKind::Challenge(_) => 0,
        EventKind::Accept(_) => 1,
        EventKind::Decline { .. } => 2,
        EventKind::Abort => 3,
        EventKind::Move(_) => 4,
        EventKind::DrawOffer => 5,
        EventKind::DrawAccept => 6,
        EventKind::DrawDecline => 7,
        EventKind::Claim(_) => 8,
        EventKind::Resign => 9,
        EventKind::Seal(_) => 10,
        EventKind::Presence => 11,
        EventKind::Reveal(_) => 12,
        EventKind::Receipt { .. } => 13,
        EventKind::Chat { .. } => 14,
        EventKind::Leave { .. } => 15,
        EventKind::RandomReveal { .. } => 16,
        EventKind::SealIn { .. } => 17,
        EventKind::Escrow { .. } => 18,
        EventKind::ArbiterOpen { .. } => 19,
        EventKind::CoinDefault { .. } => 20,
        EventKind::ChallengeOnTerms { .. } => 21,
        EventKind::DeclareSealedMove { .. } => 22,
        EventKind::AcceptDeclaredMove { .. } => 23,
        EventKind::AnnulGame => 24,
        EventKind::QuickplayClaim => 25,
        EventKind::QuickplayRuling { .. } => 26,
    }
}

/// Offset of the kind's tag in a body: after version, game, author, seq, prev, seen, time.
fn kind_offset(e: &Event) -> usize {
    let opt = |o: &Option<EventId>| if o.is_some() { 33 } else { 1 };
    2 + opt(&e.game) + 32 + 8 + opt(&e.prev) + opt(&e.seen) + 8
}

// ---------------------------------------------------------------------------------------------
// Hex helpers
// ---------------------------------------------------------------------------------------------

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(s.len().is_multiple_of(2), "odd hex length");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The width in bytes of every field of an event's body, in order, written out by hand from
/// the declarations (a string is two fields: its u64 length and its bytes). An independent
/// statement of the layout: it must add up to the encoded length, and it splits the
/// snapshot tables into readable fields.
fn field_widths(e: &Event) -> Vec<usize> {
    let mut w = vec![2];
    w.extend(opt(&e.game, 32));
    w.extend([32, 8]);
    w.extend(opt(&e.prev, 32));
    w.extend(opt(&e.seen, 32));
    w.extend([8, 4]);
    kind_widths(&mut w, &e.kind);
    w.retain(|&n| n > 0);
    w
}

/// An `Option`'s widths: its tag, and `inner` bytes when present.
fn opt<T>(o: &Option<T>, inner: usize) -> Vec<usize> {
    match o {
        Some(_) => vec![1, inner],
        None => vec![1],
    }
}

/// A string's widths: its u64 length and its bytes.
fn string(s: &str) -> Vec<usize> {
    vec![8, s.len()]
}

fn challenge_widths(w: &mut Vec<usize>, c: &Challenge) {
    w.extend([32, 4]);
    w.extend(string(&c.time_control));
    w.push(4);
    match &c.start {
        StartPosition::Standard | StartPosition::Chess960Random => {}
        StartPosition::Chess960(_) => w.push(2),
        StartPosition::Fen(fen) => w.extend(string(fen)),
    }
    w.extend(opt(&c.coin_commitment, 32));
    match &c.league {
        Some(_) => w.extend([1, 32, 4]),
        None => w.push(1),
    }
}

fn kind_widths(w: &mut Vec<usize>, kind: &EventKind) {
    match kind {
        EventKind::ChallengeOnTerms { challenge, terms } => {
            challenge_widths(w, challenge);
            w.push(8);
            w.extend(terms.timekeepers.iter().map(|_| 32));
            w.extend(opt(&terms.arbiter, 32));
            w.extend([4, 8, 8, 1, 4]);
        }
        EventKind::Challenge(c) => challenge_widths(w, c),
        EventKind::Accept(a) => w.extend(opt(&a.coin_share, 32)),
        EventKind::Decline { reason } => w.extend(string(reason)),
        EventKind::Move(_) | EventKind::DeclareSealedMove { .. } => w.extend([1, 1, 1]),
        EventKind::Claim(c) => {
            w.push(4);
            match &c.intended {
                Some(_) => w.extend([1, 1, 1, 1]),
                None => w.push(1),
            }
        }
        EventKind::Seal(seal) | EventKind::SealIn { seal, .. } => {
            if matches!(kind, EventKind::SealIn { .. }) {
                w.push(4); // the letters' u32 tag
            }
            let env = &seal.envelope;
            w.extend([32, 32, 32]);
            w.extend(string(&env.fen_before));
            w.extend([8, 8, 32, 4]);
            w.extend(opt(&env.draw_offer_by, 32));
            w.extend(opt(&env.resume_at_ms, 8));
            w.extend(string(&env.place));
            w.push(8);
        }
        EventKind::Reveal(r) => {
            w.extend(string(&r.move_text));
            w.push(32);
        }
        EventKind::Escrow { sealed_box, .. } => {
            w.extend([32, 32, 8]);
            // The box in lines of 32 bytes, to keep the table readable.
            let n = sealed_box.len();
            w.extend(std::iter::repeat_n(32, n / 32));
            w.push(n % 32);
        }
        EventKind::ArbiterOpen { move_text, .. } => {
            w.push(32);
            w.extend(string(move_text));
            w.push(32);
        }
        EventKind::Receipt { .. }
        | EventKind::RandomReveal { .. }
        | EventKind::AcceptDeclaredMove { .. } => w.push(32),
        EventKind::Chat { text } => w.extend(string(text)),
        EventKind::Leave { .. } => w.extend([8, 8]),
        EventKind::CoinDefault { colour, position } => {
            w.extend(opt(colour, 4));
            w.extend(opt(position, 2));
        }
        EventKind::Abort
        | EventKind::DrawOffer
        | EventKind::DrawAccept
        | EventKind::DrawDecline
        | EventKind::Resign
        | EventKind::Presence
        | EventKind::AnnulGame
        | EventKind::QuickplayClaim => {}
        EventKind::QuickplayRuling { ruling, .. } => {
            w.extend([32, 4]);
            if matches!(ruling, QuickplayRuling::Postpone { .. }) {
                w.push(1);
            }
        }
    }
}

/// The body split into its fields (see [`field_widths`]), as hex.
fn split_body(e: &Event, body: &[u8]) -> Vec<String> {
    let mut parts = Vec::new();
    let mut at = 0;
    for w in field_widths(e) {
        let end = (at + w).min(body.len());
        parts.push(hex(&body[at..end]));
        at = end;
    }
    if at < body.len() {
        parts.push(hex(&body[at..]));
    }
    parts
}

fn snapshot_text(name: &str, e: &Event, s: &SignedEvent) -> String {
    let mut out = format!("    Snapshot {{\n        name: \"{name}\",\n        body: &[\n");
    for p in split_body(e, &s.body) {
        out.push_str(&format!("            \"{p}\",\n"));
    }
    out.push_str(&format!(
        "        ],\n        id: \"{}\",\n    }},\n",
        s.id().to_hex()
    ));
    out
}

// ---------------------------------------------------------------------------------------------
// Snapshots
// ---------------------------------------------------------------------------------------------

struct Snapshot {
    name: &'static str,
    /// Hex of the body, one field per string (see [`field_widths`]): version, game, author,
    /// seq, prev, seen, time_ms, kind tag, then the kind's fields.
    body: &'static [&'static str],
    /// Hex of the event id.
    id: &'static str,
}

const SNAPSHOTS: &[Snapshot] = &[
    Snapshot {
        name: "challenge_on_default_terms",
        body: &[
            "0300",
            "00",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0000000000000000",
            "00",
            "00",
            "0068e5cf8b010000",
            "15000000",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "00000000",
            "0200000000000000",
            "3364",
            "00000000",
            "00",
            "00",
            "0000000000000000",
            "00",
            "00000000",
            "80ee360000000000",
            "c027090000000000",
            "00",
            "00000000",
        ],
        id: "2fd4cb6495a4c93ffee84dd86a8cbe3a106720890ed852cf46f2d575284c58eb",
    },
    Snapshot {
        name: "challenge_on_terms_timekeeper_arbiter_2005",
        body: &[
            "0300",
            "00",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0000000000000000",
            "00",
            "00",
            "0068e5cf8b010000",
            "15000000",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "00000000",
            "0200000000000000",
            "3364",
            "00000000",
            "00",
            "00",
            "0100000000000000",
            "fd1724385aa0c75b64fb78cd602fa1d991fdebf76b13c58ed702eac835e9f618",
            "01",
            "1398f62c6d1a457c51ba6a4b5f3dbd2f69fca93216218dc8997e416bd17d93ca",
            "01000000",
            "40771b0000000000",
            "005c260500000000",
            "01",
            "1e000000",
        ],
        id: "ab658bb9b368b707ae44bd678f274b57ae6a09ade399b1d696bc441fe928c9df",
    },
    Snapshot {
        name: "challenge_standard_challenger_white",
        body: &[
            "0100",
            "00",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0000000000000000",
            "00",
            "00",
            "0068e5cf8b010000",
            "00000000",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "00000000",
            "0200000000000000",
            "3364",
            "00000000",
            "00",
            "00",
        ],
        id: "15df31a940bb493e0160170d888b570648a4c4bbed40d452c30e29001791d120",
    },
    Snapshot {
        name: "challenge_chess960_challenger_black_league",
        body: &[
            "0100",
            "00",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0000000000000000",
            "00",
            "00",
            "0068e5cf8b010000",
            "00000000",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "01000000",
            "0600000000000000",
            "31302f353064",
            "01000000",
            "0602",
            "00",
            "01",
            "4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c",
            "07000000",
        ],
        id: "e6f4d42914dc35326550cb7a608f85f09314479e8425b6806703bdb18a7fb8d4",
    },
    Snapshot {
        name: "challenge_chess960_random_colour_random",
        body: &[
            "0100",
            "00",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0000000000000000",
            "00",
            "00",
            "0068e5cf8b010000",
            "00000000",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "02000000",
            "0500000000000000",
            "35642b3164",
            "02000000",
            "01",
            "afbd24d6d68c1634ba8c3e49554b2cdec20cb3eb855b92f5ef919a018494ee43",
            "00",
        ],
        id: "40a55c242f7ef60ccc2558e8e0b137a5441ff529e74d84b1c69fae6224381f35",
    },
    Snapshot {
        name: "challenge_fen",
        body: &[
            "0100",
            "00",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0000000000000000",
            "00",
            "00",
            "0068e5cf8b010000",
            "00000000",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "00000000",
            "0800000000000000",
            "34302f32682b3168",
            "03000000",
            "1f00000000000000",
            "346b332f382f382f382f382f382f3450332f344b332077202d202d20302031",
            "00",
            "00",
        ],
        id: "b091d3cdcf2bae45556de3a4a5b7d3729b666a9d2e4e305e2eed77b62afc21d1",
    },
    Snapshot {
        name: "accept_with_coin_share",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0000000000000000",
            "00",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "0068e5cf8b010000",
            "01000000",
            "01",
            "4242424242424242424242424242424242424242424242424242424242424242",
        ],
        id: "5752b07b7ad074ae2b0a40424f2cf925acdbd2fa75ce887be0f3ff31bf4a18c7",
    },
    Snapshot {
        name: "accept_without_coin_share",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0000000000000000",
            "00",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "0068e5cf8b010000",
            "01000000",
            "00",
        ],
        id: "9b76d58e2840ddedc6d84a2a5496f45b002613035db40f462c35ad2d8bf26cfe",
    },
    Snapshot {
        name: "decline",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0000000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "0068e5cf8b010000",
            "02000000",
            "0400000000000000",
            "62757379",
        ],
        id: "a8e8ede683983464850714f1db2325b4a510389926851361ffee11cfbaacd15a",
    },
    Snapshot {
        name: "abort",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0100000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "e86be5cf8b010000",
            "03000000",
        ],
        id: "4c0a9c4c0c88a73c5a68b0e5175d99e5a8ec78410abde91428a80ccd4a1080f3",
    },
    Snapshot {
        name: "move_e2e4",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0200000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "d06fe5cf8b010000",
            "04000000",
            "0c",
            "1c",
            "00",
        ],
        id: "b806e6dc70463e49c78783bb548880eee5cc427d52591416ab23569799210b9c",
    },
    Snapshot {
        name: "move_promotion_knight",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "2800000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "4004e6cf8b010000",
            "04000000",
            "0b",
            "02",
            "04",
        ],
        id: "72451ef62009fdcd378b7ce094a7e55df6cdd65d77f1a88a3cdb86a2c04fcc8a",
    },
    Snapshot {
        name: "draw_offer",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0300000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "b873e5cf8b010000",
            "05000000",
        ],
        id: "af147a55823093459ef06385b84b29c8be456aeff26b4f391b45e7403c8e3315",
    },
    Snapshot {
        name: "draw_accept",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0300000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "b873e5cf8b010000",
            "06000000",
        ],
        id: "5f0c7a4992b6ca797369c4bdfa7801420d1e24eeba55d1e91afa3067aa58a9db",
    },
    Snapshot {
        name: "draw_decline",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0400000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "a077e5cf8b010000",
            "07000000",
        ],
        id: "5c46c7fbd708dfc17fed03d80c462f6c85a620d18a0ab34948afcef9f15359ad",
    },
    Snapshot {
        name: "claim_threefold",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0a00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "108fe5cf8b010000",
            "08000000",
            "00000000",
            "00",
        ],
        id: "632a6467de18caba6531ea38dbe7c51875d6716a2ccc4722b08c297f5fa0b4a3",
    },
    Snapshot {
        name: "claim_threefold_intended",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0b00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "f892e5cf8b010000",
            "08000000",
            "00000000",
            "01",
            "34",
            "3c",
            "01",
        ],
        id: "1cd04c1f376b7eb9bc6972984631bcbbbd375d12e0054a788ccc875a34567974",
    },
    Snapshot {
        name: "claim_fifty_moves",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0a00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "108fe5cf8b010000",
            "08000000",
            "01000000",
            "00",
        ],
        id: "144fbe8250b93954afea40186efd32ad24b3b2dab16d147014c426dc9ae70c1c",
    },
    Snapshot {
        name: "claim_fifty_moves_intended",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0b00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "f892e5cf8b010000",
            "08000000",
            "01000000",
            "01",
            "34",
            "3c",
            "01",
        ],
        id: "960056e068a73f7d91af6e2cce329dcf8cbf1ebc5f500404602aba3175d862b2",
    },
    Snapshot {
        name: "claim_time",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0a00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "108fe5cf8b010000",
            "08000000",
            "02000000",
            "00",
        ],
        id: "0844c5817193e30df6d133301b8e61d74220d5e2ef622f8746bdd44444ad3ca1",
    },
    Snapshot {
        name: "claim_time_intended",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0b00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "f892e5cf8b010000",
            "08000000",
            "02000000",
            "01",
            "34",
            "3c",
            "01",
        ],
        id: "e86a4281e35a7445afba52c9b0fa31a1302c7189f687d28c43e5e5a7d9ccea8a",
    },
    Snapshot {
        name: "claim_dead_position",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0a00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "108fe5cf8b010000",
            "08000000",
            "03000000",
            "00",
        ],
        id: "0365342a299c3f769772f88cde2f3423e417583cdae9a3cbe6201222c7f52db2",
    },
    Snapshot {
        name: "claim_dead_position_intended",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0b00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "f892e5cf8b010000",
            "08000000",
            "03000000",
            "01",
            "34",
            "3c",
            "01",
        ],
        id: "0e2255b510565c7a8ca06d69aec9ca6730afa6b65693d3e27a8b69cc0a180400",
    },
    Snapshot {
        name: "claim_lateness",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0a00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "108fe5cf8b010000",
            "08000000",
            "04000000",
            "00",
        ],
        id: "86d38c1c236b2f99b7c26482b9e0ce8ee73041642f50312101e71fb305ea97bb",
    },
    Snapshot {
        name: "claim_lateness_intended",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0b00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "f892e5cf8b010000",
            "08000000",
            "04000000",
            "01",
            "34",
            "3c",
            "01",
        ],
        id: "928ad111bf3c1257926e89d03f256d445faf85d4016a8db712bbc276624ea882",
    },
    Snapshot {
        name: "resign",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0500000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "887be5cf8b010000",
            "09000000",
        ],
        id: "4d803e31a1b112938133ea4e07b60e2f3aedc9761d047f4bbe59259b7df4ba82",
    },
    Snapshot {
        name: "seal_full_envelope",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0600000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "707fe5cf8b010000",
            "0a000000",
            "81c9982b393c42de8c23acd6d620d4e1aef84ddc8766cc0389d1d3a33dc97da1",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "4000000000000000",
            "723162716b626e722f70707070317070702f326e352f3470332f3450332f354e322f50505050315050502f524e42514b4231522077204b516b71202d20322033",
            "c065520000000000",
            "4016400000000000",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "03000000",
            "01",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "01",
            "00c40bd58b010000",
            "1300000000000000",
            "43c3ad7263756c6f20646520416a656472657a",
            "80ee360000000000",
        ],
        id: "9572f3a97187e303a7a64e66c6cf1b2ccec63e625f882fa6f15fcc2fb0aacd22",
    },
    Snapshot {
        name: "seal_minimal_envelope",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0600000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "707fe5cf8b010000",
            "0a000000",
            "81c9982b393c42de8c23acd6d620d4e1aef84ddc8766cc0389d1d3a33dc97da1",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "4000000000000000",
            "723162716b626e722f70707070317070702f326e352f3470332f3450332f354e322f50505050315050502f524e42514b4231522077204b516b71202d20322033",
            "c065520000000000",
            "4016400000000000",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "03000000",
            "00",
            "00",
            "0000000000000000",
            "80ee360000000000",
        ],
        id: "3f6c024ccde15d73743650178818fb150dd56f619781fe1c3f71c9216adbd804",
    },
    Snapshot {
        name: "seal_in_spanish",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0600000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "707fe5cf8b010000",
            "11000000",
            "01000000",
            "81c9982b393c42de8c23acd6d620d4e1aef84ddc8766cc0389d1d3a33dc97da1",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "4000000000000000",
            "723162716b626e722f70707070317070702f326e352f3470332f3450332f354e322f50505050315050502f524e42514b4231522077204b516b71202d20322033",
            "c065520000000000",
            "4016400000000000",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "03000000",
            "00",
            "00",
            "0000000000000000",
            "80ee360000000000",
        ],
        id: "1084345d764aae55c40c3b8a739fb52a63433e76aa0db788b490fb7f0e2e58c9",
    },
    Snapshot {
        name: "presence",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0700000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "5883e5cf8b010000",
            "0b000000",
        ],
        id: "b7768183b5b41f56bf87a902b158b34c0e44b9f2a41c2cb763f181b7649f72c4",
    },
    Snapshot {
        name: "reveal",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0700000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "5883e5cf8b010000",
            "0c000000",
            "0300000000000000",
            "426235",
            "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a",
        ],
        id: "71eb981cf0c79c73bcac1922d6dbde571cd1e50e93a406f0ed941275c61e1bed",
    },
    Snapshot {
        name: "receipt",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0800000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "4087e5cf8b010000",
            "0d000000",
            "5050505050505050505050505050505050505050505050505050505050505050",
        ],
        id: "3a09fdde7d257e854f9da0674bb0cbbd9b1d397f5fd5748ccd07c7a13c221876",
    },
    Snapshot {
        name: "chat_ascii",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0800000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "4087e5cf8b010000",
            "0e000000",
            "0900000000000000",
            "676f6f642067616d65",
        ],
        id: "8a3eec65f4fe3a7312576305976d9cc556c9b081f13c7732cdfc5673192bc64b",
    },
    Snapshot {
        name: "chat_spanish",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0900000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "288be5cf8b010000",
            "0e000000",
            "0900000000000000",
            "c2a15461626c617321",
        ],
        id: "82b090f798c739d0bfba438b5fa2e071a3a6d1f50f102a1eb0b947874e728209",
    },
    Snapshot {
        name: "leave",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0900000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "288be5cf8b010000",
            "0f000000",
            "0068e5cf8b010000",
            "00ecf1f38b010000",
        ],
        id: "95cccd1f40258207467d57b413d483a04ecc837866f3b87e02d1e35df38ab8c7",
    },
    Snapshot {
        name: "random_reveal",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0100000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "e86be5cf8b010000",
            "10000000",
            "4343434343434343434343434343434343434343434343434343434343434343",
        ],
        id: "476188cf1f71f5f630b329d245628ffe49e152bcb238972473cccb7522f337c2",
    },
    Snapshot {
        name: "escrow",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0700000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "5883e5cf8b010000",
            "12000000",
            "4545454545454545454545454545454545454545454545454545454545454545",
            "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1",
            "5801000000000000",
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
            "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f",
            "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f",
            "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
            "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf",
            "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf",
            "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
            "404142434445464748494a4b4c4d4e4f5051525354555657",
        ],
        id: "117e0fce248f7f9c5cc856a04d49222657963a8cac411213e2b6861a5abe2fc4",
    },
    Snapshot {
        name: "arbiter_open",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1",
            "0000000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "0068e5cf8b010000",
            "13000000",
            "4545454545454545454545454545454545454545454545454545454545454545",
            "0300000000000000",
            "416235",
            "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a",
        ],
        id: "24bc811c7dfd537b18fa6241650f04f5e4353e3d79711e42fcc429f10b558858",
    },
    Snapshot {
        name: "coin_default_colour_and_position",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0100000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "e86be5cf8b010000",
            "14000000",
            "01",
            "00000000",
            "01",
            "0602",
        ],
        id: "32e755c7a9b50975030a66178fde2cdfc8c028e4024241bec894a4269148ad12",
    },
    Snapshot {
        name: "coin_default_colour",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0100000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "e86be5cf8b010000",
            "14000000",
            "01",
            "01000000",
            "00",
        ],
        id: "78e08b2b4e44bb7248adfef3cd473415826fed83d33d783075cf2d6235f761d5",
    },
    Snapshot {
        name: "coin_default_position",
        body: &[
            "0100",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0100000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "e86be5cf8b010000",
            "14000000",
            "00",
            "01",
            "bf03",
        ],
        id: "c1a24e92bee27858dd112d89ffe35aee75b44fe7ebda5bf57cbc28d4dcc78ba4",
    },
    Snapshot {
        name: "declare_sealed_move",
        body: &[
            "0300",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0900000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "288be5cf8b010000",
            "16000000",
            "06",
            "15",
            "00",
        ],
        id: "4bff0098f62ca5812c0b86afe6d148c5e6bedc599d4fe13ba0e036cf6d41b819",
    },
    Snapshot {
        name: "accept_declared_move",
        body: &[
            "0300",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1",
            "0100000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "e86be5cf8b010000",
            "17000000",
            "4545454545454545454545454545454545454545454545454545454545454545",
        ],
        id: "857eb108f146e833d50319fba4c1bfb57206318fc7842df658b840851c3d3d64",
    },
    Snapshot {
        name: "annul_game",
        body: &[
            "0300",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
            "0a00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "108fe5cf8b010000",
            "18000000",
        ],
        id: "9346fa9896bc579806de9b4468de308e64469ca5387a08618d71c2b0473d8465",
    },
    Snapshot {
        name: "quickplay_claim",
        body: &[
            "0300",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
            "0b00000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "f892e5cf8b010000",
            "19000000",
        ],
        id: "fdce386ae8a5df147077b2fed83990532c6b47956b452c27c629ad5499bd691a",
    },
    Snapshot {
        name: "quickplay_ruling_draw",
        body: &[
            "0300",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1",
            "0200000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "d06fe5cf8b010000",
            "1a000000",
            "4545454545454545454545454545454545454545454545454545454545454545",
            "00000000",
        ],
        id: "d2b2371b2d9e2faed9f58d3fdbb8bf4151d0d8117fe390d79e75be94541766c2",
    },
    Snapshot {
        name: "quickplay_ruling_postpone_extra",
        body: &[
            "0300",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1",
            "0200000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "d06fe5cf8b010000",
            "1a000000",
            "4545454545454545454545454545454545454545454545454545454545454545",
            "01000000",
            "01",
        ],
        id: "5a8a1298cdc3a28f21cd24a552b28095016295ea02ea3d11ac4b5b7c38137507",
    },
    Snapshot {
        name: "quickplay_ruling_reject",
        body: &[
            "0300",
            "01",
            "4747474747474747474747474747474747474747474747474747474747474747",
            "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1",
            "0200000000000000",
            "01",
            "5050505050505050505050505050505050505050505050505050505050505050",
            "01",
            "5353535353535353535353535353535353535353535353535353535353535353",
            "d06fe5cf8b010000",
            "1a000000",
            "4545454545454545454545454545454545454545454545454545454545454545",
            "02000000",
        ],
        id: "748bb6b764c0a89381363e3d97cc47389a8b51d57c3fce3e816d0e857dfa8482",
    },
];

#[test]
fn every_event_kind_encodes_to_its_pinned_bytes_and_id() {
    let cases = cases();
    let mut failures = String::new();
    for (name, event, key) in &cases {
        let signed = SignedEvent::sign(event, key).unwrap();
        let verified = signed.verify().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&verified.event, event, "{name}: decodes to what was signed");
        assert_eq!(verified.id, signed.id(), "{name}");
        match SNAPSHOTS.iter().find(|s| s.name == *name) {
            Some(snap)
                if unhex(&snap.body.concat()) == signed.body && snap.id == signed.id().to_hex() => {
            }
            _ => failures.push_str(&snapshot_text(name, event, &signed)),
        }
    }
    let names: Vec<&str> = cases.iter().map(|c| c.0).collect();
    for snap in SNAPSHOTS {
        assert!(
            names.contains(&snap.name),
            "snapshot {} has no case",
            snap.name
        );
    }
    assert!(
        failures.is_empty(),
        "wire bytes changed (or are new); actual:\n{failures}"
    );
}

/// Protocol versions 2 and 3 changed what times mean, not the bytes (3 added tag 21, the
/// challenge on terms, tags 22 to 24 of a lost envelope, A11, and tags 25 and 26 of a
/// quickplay finish, 10.2): a version-2 event is the version-1 bytes with `02 00` in front; versions outside the supported range are refused
/// naming the version.
#[test]
fn protocol_versions_share_one_format_and_others_are_refused() {
    assert_eq!((MIN_EVENT_VERSION, EVENT_VERSION), (1, 3));
    let (v1, key) = by(&challenger(), 3, EventKind::Resign);
    let v1_body = codec::encode(&v1).unwrap();
    let v2 = Event {
        version: 2,
        ..v1.clone()
    };
    let v2_body = codec::encode(&v2).unwrap();
    assert_eq!(&v2_body[..2], &[0x02, 0x00]);
    assert_eq!(&v2_body[2..], &v1_body[2..]);
    for version in [1, 2, 3] {
        let e = Event {
            version,
            ..v1.clone()
        };
        let signed = SignedEvent::sign(&e, &key).unwrap();
        assert_eq!(signed.verify().unwrap().event, e);
    }
    for version in [0, 4, u16::MAX] {
        let e = Event {
            version,
            ..v1.clone()
        };
        let signed = SignedEvent::sign(&e, &key).unwrap();
        let err = signed.verify().unwrap_err();
        assert_eq!(err, sobre_core::record::EventError::Version(version));
        assert!(
            err.to_string()
                .contains(&format!("unsupported protocol version {version}")),
            "{err}"
        );
    }
}

#[test]
fn kind_tags_are_the_declaration_order() {
    let cases = cases();
    let mut tags: Vec<u32> = Vec::new();
    for (name, event, _) in &cases {
        let body = codec::encode(event).unwrap();
        let decoded: Event = codec::decode(&body, MAX_EVENT_BYTES).unwrap();
        assert_eq!(&decoded, event, "{name}");
        let widths = field_widths(event);
        assert_eq!(
            widths.iter().sum::<usize>(),
            body.len(),
            "{name}: the layout written out by hand adds up to the encoded length"
        );
        let at = kind_offset(&decoded);
        let tag = u32::from_le_bytes(body[at..at + 4].try_into().unwrap());
        assert_eq!(tag, declared_tag(&decoded.kind), "{name}");
        // The header around it: version first, seq and time as fixed-width u64s.
        assert_eq!(&body[..2], &event.version.to_le_bytes(), "{name}");
        let seq_at = 2 + if event.game.is_some() { 33 } else { 1 } + 32;
        assert_eq!(
            &body[seq_at..seq_at + 8],
            &event.seq.to_le_bytes(),
            "{name}"
        );
        assert_eq!(&body[at - 8..at], &event.time_ms.to_le_bytes(), "{name}");
        tags.push(tag);
    }
    tags.sort_unstable();
    tags.dedup();
    assert_eq!(tags, (0..=26).collect::<Vec<u32>>(), "every kind is pinned");
}

#[test]
fn inner_enum_tags_are_the_declaration_order() {
    // ColourChoice, StartPosition and ClaimReason are wire enums too.
    let colours = [
        ColourChoice::ChallengerWhite,
        ColourChoice::ChallengerBlack,
        ColourChoice::Random,
    ];
    for (tag, c) in colours.iter().enumerate() {
        assert_eq!(codec::encode(c).unwrap(), (tag as u32).to_le_bytes());
    }
    let starts = [
        (StartPosition::Standard, "00000000"),
        (StartPosition::Chess960(959), "01000000bf03"),
        (StartPosition::Chess960Random, "02000000"),
        (
            StartPosition::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
            "030000001c00000000000000382f382f382f382f382f382f382f4b316b352077202d202d20302031",
        ),
    ];
    for (s, expected) in starts {
        assert_eq!(hex(&codec::encode(&s).unwrap()), expected, "{s:?}");
    }
    let reasons = [
        ClaimReason::Threefold,
        ClaimReason::FiftyMoves,
        ClaimReason::Time,
        ClaimReason::DeadPosition,
        ClaimReason::Lateness,
    ];
    for (tag, r) in reasons.iter().enumerate() {
        assert_eq!(codec::encode(r).unwrap(), (tag as u32).to_le_bytes());
    }
    for (tag, c) in [CoinColour::White, CoinColour::Black].iter().enumerate() {
        assert_eq!(codec::encode(c).unwrap(), (tag as u32).to_le_bytes());
    }
    // 10.2's rulings: the postponement carries its extra time as one byte.
    let rulings = [
        (QuickplayRuling::Draw, "00000000"),
        (
            QuickplayRuling::Postpone { extra_time: false },
            "0100000000",
        ),
        (QuickplayRuling::Postpone { extra_time: true }, "0100000001"),
        (QuickplayRuling::Reject, "02000000"),
    ];
    for (r, expected) in rulings {
        assert_eq!(hex(&codec::encode(&r).unwrap()), expected, "{r:?}");
    }
}

/// A whole signed event as stored and sent: the body as a length-prefixed byte string, then
/// the 64 signature bytes with no prefix.
#[test]
fn a_signed_event_is_pinned_whole() {
    let (event, key) = by(&opponent(), 5, EventKind::Resign);
    let signed = SignedEvent::sign(&event, &key).unwrap();
    let bytes = signed.to_bytes().unwrap();
    let expected = concat!(
        // body length: 153 bytes
        "9900000000000000",
        // body
        "0100",
        "014747474747474747474747474747474747474747474747474747474747474747",
        "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
        "0500000000000000",
        "015050505050505050505050505050505050505050505050505050505050505050",
        "015353535353535353535353535353535353535353535353535353535353535353",
        "887be5cf8b010000",
        "09000000",
        // signature
        "56df502a93488358b2e88414d34cf0c7849211784893000340a662fc3497649b",
        "3fc4dd2855d45a621e3111efcffdcfafa2f88892b52ae3448eda7e1a4b89a104",
    );
    assert_eq!(hex(&bytes), expected);
    assert_eq!(bytes.len(), 8 + signed.body.len() + 64);
    assert_eq!(SignedEvent::from_bytes(&bytes), Ok(signed.clone()));
    let verified = signed.verify().unwrap();
    assert_eq!(verified.event, event);
    assert_eq!(verified.id, event_id(&signed.body));
}

#[test]
fn the_id_and_the_signature_cover_the_body_only_with_their_domains() {
    let (event, key) = by(&challenger(), 3, EventKind::DrawOffer);
    let signed = SignedEvent::sign(&event, &key).unwrap();
    // The id is not a bare hash of the body (domain-separated), and the signature is over
    // the domain-tagged body, not the body alone.
    let mut id_input = b"sobre/event-id/v1\0".to_vec();
    id_input.extend_from_slice(&signed.body);
    assert_eq!(signed.id().0, <[u8; 32]>::from(Sha256::digest(&id_input)));
    let mut sign_input = b"sobre/event/v1\0".to_vec();
    sign_input.extend_from_slice(&signed.body);
    assert!(key.player_id().verify(&sign_input, &signed.signature));
    assert!(!key.player_id().verify(&signed.body, &signed.signature));
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

fn arb_id() -> impl Strategy<Value = EventId> {
    any::<[u8; 32]>().prop_map(EventId)
}

/// Any 32 bytes: most are not valid keys, which the codec must not care about.
fn arb_player() -> impl Strategy<Value = PlayerId> {
    any::<[u8; 32]>().prop_map(PlayerId::from_bytes)
}

/// Short text, any Unicode (multi-byte characters included).
fn arb_text() -> impl Strategy<Value = String> {
    "\\PC{0,24}"
}

fn arb_wire_move() -> impl Strategy<Value = WireMove> {
    (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(from, to, promotion)| WireMove {
        from,
        to,
        promotion,
    })
}

fn arb_challenge() -> impl Strategy<Value = Challenge> {
    let colour = prop_oneof![
        Just(ColourChoice::ChallengerWhite),
        Just(ColourChoice::ChallengerBlack),
        Just(ColourChoice::Random),
    ];
    let start = prop_oneof![
        Just(StartPosition::Standard),
        any::<u16>().prop_map(StartPosition::Chess960),
        Just(StartPosition::Chess960Random),
        arb_text().prop_map(StartPosition::Fen),
    ];
    let league = proptest::option::of(
        (arb_id(), any::<u32>()).prop_map(|(league, round)| LeagueRound { league, round }),
    );
    (
        arb_player(),
        colour,
        arb_text(),
        start,
        proptest::option::of(any::<[u8; 32]>()),
        league,
    )
        .prop_map(
            |(opponent, colour, time_control, start, coin_commitment, league)| Challenge {
                opponent,
                colour,
                time_control,
                start,
                coin_commitment,
                league,
            },
        )
}

fn arb_claim_reason() -> impl Strategy<Value = ClaimReason> {
    prop_oneof![
        Just(ClaimReason::Threefold),
        Just(ClaimReason::FiftyMoves),
        Just(ClaimReason::Time),
        Just(ClaimReason::DeadPosition),
        Just(ClaimReason::Lateness),
    ]
}

fn arb_envelope() -> impl Strategy<Value = Envelope> {
    (
        (arb_player(), arb_player(), arb_text(), any::<[u64; 2]>()),
        (
            arb_player(),
            any::<u32>(),
            proptest::option::of(arb_player()),
        ),
        (proptest::option::of(any::<u64>()), arb_text(), any::<u64>()),
    )
        .prop_map(
            |(
                (white, black, fen_before, time_used_ms),
                (sealer, move_number, draw_offer_by),
                (resume_at_ms, place, lateness_limit_ms),
            )| Envelope {
                white,
                black,
                fen_before,
                time_used_ms,
                sealer,
                move_number,
                draw_offer_by,
                resume_at_ms,
                place,
                lateness_limit_ms,
            },
        )
}

/// Every `EventKind` variant, with arbitrary contents.
fn arb_kind() -> impl Strategy<Value = EventKind> {
    prop_oneof![
        arb_challenge().prop_map(EventKind::Challenge),
        proptest::option::of(any::<[u8; 32]>())
            .prop_map(|coin_share| EventKind::Accept(Accept { coin_share })),
        arb_text().prop_map(|reason| EventKind::Decline { reason }),
        Just(EventKind::Abort),
        arb_wire_move().prop_map(EventKind::Move),
        Just(EventKind::DrawOffer),
        Just(EventKind::DrawAccept),
        Just(EventKind::DrawDecline),
        (arb_claim_reason(), proptest::option::of(arb_wire_move()))
            .prop_map(|(reason, intended)| EventKind::Claim(Claim { reason, intended })),
        Just(EventKind::Resign),
        (any::<[u8; 32]>(), arb_envelope()).prop_map(|(commitment, envelope)| EventKind::Seal(
            Seal {
                commitment,
                envelope
            }
        )),
        Just(EventKind::Presence),
        (arb_text(), any::<[u8; 32]>())
            .prop_map(|(move_text, salt)| EventKind::Reveal(Reveal { move_text, salt })),
        arb_id().prop_map(|event| EventKind::Receipt { event }),
        arb_text().prop_map(|text| EventKind::Chat { text }),
        (any::<u64>(), any::<u64>())
            .prop_map(|(from_ms, until_ms)| EventKind::Leave { from_ms, until_ms }),
        any::<[u8; 32]>().prop_map(|secret| EventKind::RandomReveal { secret }),
        (
            proptest::option::of(any::<bool>()),
            proptest::option::of(any::<u16>())
        )
            .prop_map(|(white, position)| EventKind::CoinDefault {
                colour: white.map(|w| if w {
                    CoinColour::White
                } else {
                    CoinColour::Black
                }),
                position,
            }),
        (any::<bool>(), any::<[u8; 32]>(), arb_envelope()).prop_map(
            |(spanish, commitment, envelope)| EventKind::SealIn {
                letters: if spanish {
                    SealLetters::Spanish
                } else {
                    SealLetters::English
                },
                seal: Seal {
                    commitment,
                    envelope
                },
            }
        ),
        (
            arb_id(),
            arb_player(),
            proptest::collection::vec(any::<u8>(), 0..400)
        )
            .prop_map(|(seal, arbiter, sealed_box)| EventKind::Escrow {
                seal,
                arbiter,
                sealed_box
            }),
        (arb_id(), arb_text(), any::<[u8; 32]>()).prop_map(|(seal, move_text, salt)| {
            EventKind::ArbiterOpen {
                seal,
                move_text,
                salt,
            }
        }),
        arb_wire_move().prop_map(|mv| EventKind::DeclareSealedMove { mv }),
        arb_id().prop_map(|declared| EventKind::AcceptDeclaredMove { declared }),
        Just(EventKind::AnnulGame),
        Just(EventKind::QuickplayClaim),
        (arb_id(), arb_quickplay_ruling())
            .prop_map(|(claim, ruling)| EventKind::QuickplayRuling { claim, ruling }),
    ]
}

fn arb_quickplay_ruling() -> impl Strategy<Value = QuickplayRuling> {
    prop_oneof![
        Just(QuickplayRuling::Draw),
        any::<bool>().prop_map(|extra_time| QuickplayRuling::Postpone { extra_time }),
        Just(QuickplayRuling::Reject),
    ]
}

/// Any event: every field arbitrary (the version too: the codec does not interpret it).
fn arb_event() -> impl Strategy<Value = Event> {
    (
        (any::<u16>(), proptest::option::of(arb_id()), arb_player()),
        (
            any::<u64>(),
            proptest::option::of(arb_id()),
            proptest::option::of(arb_id()),
        ),
        (any::<u64>(), arb_kind()),
    )
        .prop_map(
            |((version, game, author), (seq, prev, seen), (time_ms, kind))| Event {
                version,
                game,
                author,
                seq,
                prev,
                seen,
                time_ms,
                kind,
            },
        )
}

/// An event signed by a key from `secret`, with the author and version that make it verify.
fn arb_signed() -> impl Strategy<Value = (Event, SignedEvent)> {
    (arb_event(), any::<[u8; 32]>()).prop_map(|(mut event, secret)| {
        let key = Keypair::from_secret_bytes(&secret);
        event.author = key.player_id();
        event.version = EVENT_VERSION;
        let signed = SignedEvent::sign(&event, &key).unwrap();
        (event, signed)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn events_round_trip_through_the_codec(event in arb_event()) {
        let bytes = codec::encode(&event).unwrap();
        let decoded: Event = codec::decode(&bytes, MAX_EVENT_BYTES).unwrap();
        prop_assert_eq!(&decoded, &event);
        prop_assert_eq!(codec::encode(&decoded).unwrap(), bytes.clone());
        prop_assert_eq!(field_widths(&event).iter().sum::<usize>(), bytes.len());
        let at = kind_offset(&event);
        let tag = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        prop_assert_eq!(tag, declared_tag(&event.kind));
    }

    #[test]
    fn signed_events_round_trip_byte_for_byte_and_verify((event, signed) in arb_signed()) {
        let bytes = signed.to_bytes().unwrap();
        let back = SignedEvent::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&back, &signed);
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
        let verified = back.verify().unwrap();
        prop_assert_eq!(verified.event, event);
        prop_assert_eq!(verified.id, event_id(&signed.body));
    }

    #[test]
    fn decoding_arbitrary_bytes_never_panics(
        bytes in proptest::collection::vec(any::<u8>(), 0..512),
        signature in any::<[u8; 32]>(),
    ) {
        let _ = SignedEvent::from_bytes(&bytes);
        let _ = codec::decode::<Event>(&bytes, MAX_EVENT_BYTES);
        let mut sig = [0u8; 64];
        sig[..32].copy_from_slice(&signature);
        let signed = SignedEvent { body: bytes, signature: sig };
        prop_assert!(signed.verify().is_err());
    }

    /// Arbitrary bytes rarely get past the first fields: corrupt real encodings instead, so
    /// every field's decoder sees garbage. Whatever decodes is canonical.
    #[test]
    fn decoding_corrupted_events_never_panics_and_only_accepts_canonical_bytes(
        event in arb_event(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut bytes = codec::encode(&event).unwrap();
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        if let Ok(decoded) = codec::decode::<Event>(&bytes, MAX_EVENT_BYTES) {
            prop_assert_eq!(codec::encode(&decoded).unwrap(), bytes);
        }
    }

    /// One flipped bit anywhere in a signed event (body or signature) never yields the same
    /// event under the same id: a body flip changes the id, and either flip fails
    /// verification (strict ed25519: no malleable signatures).
    #[test]
    fn any_single_bit_flip_is_detected(
        (_, signed) in arb_signed(),
        bit in any::<prop::sample::Index>(),
    ) {
        let body_bits = signed.body.len() * 8;
        let bit = bit.index(body_bits + 64 * 8);
        let mut flipped = signed.clone();
        if bit < body_bits {
            flipped.body[bit / 8] ^= 1 << (bit % 8);
            prop_assert_ne!(flipped.id(), signed.id());
        } else {
            let b = bit - body_bits;
            flipped.signature[b / 8] ^= 1 << (b % 8);
            prop_assert_eq!(flipped.id(), signed.id());
        }
        prop_assert!(flipped.verify().is_err());
    }

    #[test]
    fn truncated_or_padded_bytes_are_rejected(
        (event, signed) in arb_signed(),
        cut in any::<prop::sample::Index>(),
        extra in proptest::collection::vec(any::<u8>(), 1..8),
    ) {
        let wire = signed.to_bytes().unwrap();
        let short = &wire[..cut.index(wire.len())];
        prop_assert!(SignedEvent::from_bytes(short).is_err());
        let mut long = wire.clone();
        long.extend_from_slice(&extra);
        prop_assert!(SignedEvent::from_bytes(&long).is_err());

        let body = codec::encode(&event).unwrap();
        let short = &body[..cut.index(body.len())];
        prop_assert!(codec::decode::<Event>(short, MAX_EVENT_BYTES).is_err());
        let mut long = body.clone();
        long.extend_from_slice(&extra);
        prop_assert!(codec::decode::<Event>(&long, MAX_EVENT_BYTES).is_err());
        // A signed event whose body was cut or padded does not verify either.
        let mut cut_signed = signed.clone();
        cut_signed.body.truncate(cut.index(signed.body.len()));
        prop_assert!(cut_signed.verify().is_err());
        let mut padded = signed.clone();
        padded.body.extend_from_slice(&extra);
        prop_assert!(padded.verify().is_err());
    }
}

/// Every bit of one real signed event, exhaustively (the property above samples): a flipped
/// body bit changes the id, and no flip at all (body or signature) verifies.
#[test]
fn every_bit_flip_of_a_move_changes_the_id_or_fails_verification() {
    let (event, key) = by(&challenger(), 2, EventKind::Move(wire(12, 28, 0)));
    let signed = SignedEvent::sign(&event, &key).unwrap();
    for bit in 0..signed.body.len() * 8 {
        let mut flipped = signed.clone();
        flipped.body[bit / 8] ^= 1 << (bit % 8);
        assert_ne!(flipped.id(), signed.id(), "body bit {bit}");
        assert!(
            flipped.verify().is_err(),
            "body bit {bit} flipped still verifies"
        );
    }
    for bit in 0..64 * 8 {
        let mut flipped = signed.clone();
        flipped.signature[bit / 8] ^= 1 << (bit % 8);
        assert!(
            flipped.verify().is_err(),
            "signature bit {bit} flipped still verifies"
        );
    }
}

#[test]
fn oversized_bodies_are_rejected_before_decoding() {
    let (mut event, key) = by(&challenger(), 8, EventKind::Abort);
    event.kind = EventKind::Chat {
        text: "x".repeat(MAX_EVENT_BYTES as usize),
    };
    let signed = SignedEvent::sign(&event, &key).unwrap();
    assert!(matches!(
        signed.verify(),
        Err(sobre_core::record::EventError::Codec(
            CodecError::TooLarge { .. }
        ))
    ));
    assert!(matches!(
        SignedEvent::from_bytes(&signed.to_bytes().unwrap()),
        Err(CodecError::TooLarge { .. })
    ));
}
