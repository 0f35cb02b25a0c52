//! A game generator driven by fuzz input: real keys, real signatures, mostly plausible play.
//!
//! Shared by the `verify_seq` target and by `seedgen` (which writes the `wire` seeds). The
//! input bytes choose the terms of the game and then, one operation at a time, what happens:
//! legal moves picked by index from the legal move list, illegal moves, draw offers, claims,
//! seals and reveals, chat, receipts, leave, aborts, resignations; and mutations of the
//! record itself: swaps, duplicates, drops, byte flips and events re-signed with altered
//! fields (equivocations, broken chains, wrong `seen`).
//!
//! The generator keeps its own model of the game (position, status, standing offer) so that
//! it knows whether everything it produced so far is something an honest pair of nodes could
//! have signed (`honest`). Swaps and duplicates keep a record honest: `verify` takes events
//! in any order, duplicates allowed. Where the model cannot cheaply predict the outcome
//! (claims, reveals) it re-reads the state from `verify` of the record so far.
#![allow(dead_code)]

use sobre_core::record::codec;
use sobre_core::record::commit;
use sobre_core::record::verify::DEFAULT_LATENESS_MS;
use sobre_core::record::{
    Challenge, Claim, ClaimReason, ColourChoice, Envelope, Event, EventId, EventKind, GameState,
    Keypair, PlayerId, Scoresheet, SealLetters, SealOpening, SignedEvent, StartPosition, Status,
    WireMove, verify, verify_at,
};
use sobre_core::rules::automatic_end;
use sobre_core::san::{Lang, to_san};
use sobre_core::{Color, Move, Position};

/// The bytes that drive the generator; reads past the end give zeros.
pub struct Input<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Input<'a> {
        Input { data, at: 0 }
    }
    pub fn done(&self) -> bool {
        self.at >= self.data.len()
    }
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            usize::from(self.u16()) % n
        }
    }
    pub fn bytes32(&mut self) -> [u8; 32] {
        let mut out = [0u8; 32];
        // Mostly a repeated byte (cheap for the fuzzer), sometimes 32 distinct ones.
        let b = self.byte();
        if b & 0x80 == 0 {
            out = [b; 32];
        } else {
            for o in &mut out {
                *o = self.byte();
            }
        }
        out
    }
}

/// The players' secrets: challenger, opponent, a witness that only signs receipts.
pub const SECRETS: [[u8; 32]; 3] = [[1; 32], [2; 32], [3; 32]];

/// Start positions from FEN: castling, en passant, promotion, near-mate and bare kings.
pub const FENS: [&str; 6] = [
    "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/1P4k1/8/8/8/8/5Kp1/8 w - - 0 60",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30",
    "8/8/4k3/8/8/3NK3/8/8 w - - 0 80",
    "4k3/8/8/8/8/8/8/4K2R w K - 98 120",
];

/// Time controls in their text form.
pub const TIME_CONTROLS: [&str; 5] = ["3d", "10/50d", "1d", "40/2h+1h", "90m d5s"];

/// Sealed move texts that are not simply a legal move's SAN.
pub const ODD_TEXTS: [&str; 6] = ["", "Kxx", "e9", "O-O-O", "Nd2", "Cf3"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Model {
    Active,
    Adjourned,
    Over,
}

/// What the generator produced.
pub struct Generated {
    pub events: Vec<SignedEvent>,
    /// Everything is what honest nodes could sign (up to order and duplicates).
    pub honest: bool,
    /// The moves the model expects `verify` to report (meaningful when `honest`).
    pub moves: Vec<Move>,
}

struct Gen<'a, 'b> {
    input: &'b mut Input<'a>,
    keys: [Keypair; 3],
    /// Scoresheets of challenger, opponent, witness.
    sheets: [Scoresheet; 3],
    /// Sheet index of White and Black.
    colour_sheet: [usize; 2],
    events: Vec<SignedEvent>,
    honest: bool,
    time: u64,
    pos: Position,
    reps: Vec<u64>,
    moves: Vec<Move>,
    model: Model,
    draw_offer: Option<Color>,
    /// Who has come to the board for the last adjournment (A7, A10): a presence, a move or
    /// a sealed reply after its sealing, as `verify` counts them.
    presence: [bool; 2],
    /// The unopened envelope: sealer, opening and the time before which it opens only with
    /// both present (A2.7; 0 for a reply, A9c, which opens when the sealer arrives).
    opening: Option<(Color, SealOpening, u64)>,
    /// A correspondence time control: no sealing (Appendix A1).
    correspondence: bool,
}

const MAX_EVENTS: usize = 48;

/// Builds a record from fuzz input.
pub fn generate(data: &[u8]) -> Generated {
    let mut input = Input::new(data);
    let keys = SECRETS.map(|s| Keypair::from_secret_bytes(&s));
    let setup = input.byte();
    let random_colour = setup & 0x08 != 0;
    let start = match (setup >> 1) & 3 {
        0 => StartPosition::Standard,
        1 => StartPosition::Chess960(input.u16() % 960),
        2 => StartPosition::Fen(FENS[input.below(FENS.len())].to_owned()),
        _ => StartPosition::Chess960Random,
    };
    let needs_coin = random_colour || start == StartPosition::Chess960Random;
    let secret = input.bytes32();
    let share = input.bytes32();
    let colour = if random_colour {
        ColourChoice::Random
    } else if setup & 1 == 0 {
        ColourChoice::ChallengerWhite
    } else {
        ColourChoice::ChallengerBlack
    };
    let terms = Challenge {
        opponent: keys[1].player_id(),
        colour,
        time_control: TIME_CONTROLS[usize::from(setup >> 4) % TIME_CONTROLS.len()].to_owned(),
        start: start.clone(),
        coin_commitment: needs_coin.then(|| commit::coin_commitment(&secret)),
        league: None,
    };
    let correspondence = terms
        .time_control
        .parse::<sobre_core::clock::TimeControl>()
        .is_ok_and(|t| t.is_correspondence());
    let t0 = 1_700_000_000_000u64;
    let (mut challenger, challenge) =
        Scoresheet::challenge(keys[0].clone(), terms, t0).expect("sign challenge");
    let game = challenge.id();
    let mut opponent = Scoresheet::join(keys[1].clone(), game);
    let mut witness = Scoresheet::join(keys[2].clone(), game);
    opponent.saw(game);
    witness.saw(game);
    let mut events = vec![challenge];
    let declined = setup >> 4 == 15;
    let reply = if declined {
        opponent.decline("busy", t0 + 1000)
    } else {
        opponent.accept(needs_coin.then_some(share), t0 + 1000)
    }
    .expect("sign accept");
    challenger.saw(reply.id());
    events.push(reply);
    let mut challenger_white = colour != ColourChoice::ChallengerBlack;
    let mut pos = match &start {
        StartPosition::Standard => Position::new(),
        StartPosition::Chess960(n) => Position::chess960(*n).expect("0..959"),
        StartPosition::Fen(f) => Position::from_fen_auto(f).expect("FENS are legal"),
        StartPosition::Chess960Random => Position::new(),
    };
    if needs_coin && !declined {
        let open = challenger.random_reveal(secret, t0 + 2000).expect("sign");
        opponent.saw(open.id());
        events.push(open);
        let coin = commit::coin(&game, &secret, &share);
        if random_colour {
            challenger_white = commit::challenger_is_white(&coin);
        }
        if start == StartPosition::Chess960Random {
            pos = Position::chess960(commit::chess960_position(&coin)).expect("drawn position");
        }
    }
    let mut g = Gen {
        input: &mut input,
        keys,
        sheets: [challenger, opponent, witness],
        colour_sheet: if challenger_white { [0, 1] } else { [1, 0] },
        events,
        honest: true,
        time: t0 + 3000,
        reps: vec![pos.repetition_key()],
        pos,
        moves: Vec::new(),
        model: if declined { Model::Over } else { Model::Active },
        draw_offer: None,
        presence: [false, false],
        opening: None,
        correspondence,
    };
    while !g.input.done() && g.events.len() < MAX_EVENTS {
        g.step();
    }
    Generated {
        events: g.events,
        honest: g.honest,
        moves: g.moves,
    }
}

impl Gen<'_, '_> {
    fn player(&self, c: Color) -> PlayerId {
        self.keys[self.colour_sheet[c.index()]].player_id()
    }

    /// Signs the next event of `sheet` and lets the other players see it.
    fn emit(&mut self, sheet: usize, kind: EventKind) -> SignedEvent {
        self.time += 1 + u64::from(self.input.byte()) * 60_000;
        let signed = self.sheets[sheet]
            .append(kind, self.time)
            .expect("sign event");
        let id = signed.id();
        for other in 0..3 {
            // Players see each other's events at once; nobody "sees" the witness.
            if other != sheet && sheet != 2 {
                self.sheets[other].saw(id);
            }
        }
        self.events.push(signed.clone());
        signed
    }

    fn by(&mut self, c: Color, kind: EventKind) -> SignedEvent {
        self.emit(self.colour_sheet[c.index()], kind)
    }

    /// Marks the record dishonest unless the game is over (then anything is ignored).
    fn dishonest_unless_over(&mut self) {
        if self.model != Model::Over {
            self.honest = false;
        }
    }

    fn live(&self) -> bool {
        self.model != Model::Over
    }

    fn play_model(&mut self, m: Move, me: Color) {
        self.pos.play_unchecked(m);
        self.reps.push(self.pos.repetition_key());
        self.moves.push(m);
        // A move shows its player at the board (A10).
        self.presence[me.index()] = true;
        if self.draw_offer == Some(!me) {
            self.draw_offer = None;
        }
        let key = self.pos.repetition_key();
        let n = self.reps.iter().filter(|&&k| k == key).count() as u32;
        if automatic_end(&self.pos, n).is_some() {
            self.model = Model::Over;
            self.draw_offer = None;
        }
    }

    /// Re-reads the model from `verify` of the record so far (for what it cannot predict).
    fn resync(&mut self) {
        match verify(&self.events) {
            Ok(st) => self.load(&st),
            Err(e) => {
                assert!(!self.honest, "an honest record was rejected: {e}");
            }
        }
    }

    fn load(&mut self, st: &GameState) {
        let Some(start) = st.start.clone() else {
            return;
        };
        let mut pos = start;
        let mut reps = vec![pos.repetition_key()];
        for m in &st.moves {
            pos.play_unchecked(m.mv);
            reps.push(pos.repetition_key());
        }
        self.pos = pos;
        self.reps = reps;
        self.moves = st.moves.iter().map(|m| m.mv).collect();
        self.draw_offer = st.draw_offer;
        self.presence = match st.adjournment() {
            Some(a) => a.arrived_ms.map(|p| p.is_some()),
            None => st.presence_ms.map(|p| p.is_some()),
        };
        self.model = match st.status {
            Status::Active | Status::Pending | Status::Disputed => Model::Active,
            Status::Adjourned => Model::Adjourned,
            Status::Finished | Status::Cancelled => Model::Over,
        };
        if self.model != Model::Adjourned {
            self.opening = None;
        }
    }

    fn colour(&mut self) -> Color {
        if self.input.byte() & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    fn legal_move(&mut self) -> Option<Move> {
        let list = self.pos.legal_moves();
        if list.is_empty() {
            None
        } else {
            Some(list[self.input.below(list.len())])
        }
    }

    fn step(&mut self) {
        let op = self.input.byte() % 32;
        match op {
            // A legal move by the side to move (most of the time).
            0..=11 => {
                if self.model == Model::Adjourned
                    && let Some((sealer, _, resume)) = self.opening
                {
                    // Resumption at the agreed time (A2.7): the responder comes to the board,
                    // the envelope is opened.
                    self.time = self.time.max(resume);
                    if !self.presence[(!sealer).index()] {
                        self.presence[(!sealer).index()] = true;
                        self.by(!sealer, EventKind::Presence);
                    }
                    self.reveal();
                    return;
                }
                let me = self.pos.turn();
                match (self.model, self.legal_move()) {
                    (Model::Active, Some(m)) => {
                        self.by(me, EventKind::Move(WireMove::from_move(m)));
                        self.play_model(m, me);
                    }
                    (_, m) => {
                        // Adjourned (A11 needs presence: not modelled) or over (ignored).
                        self.dishonest_unless_over();
                        let w = m.map_or(
                            WireMove {
                                from: 12,
                                to: 28,
                                promotion: 0,
                            },
                            WireMove::from_move,
                        );
                        self.by(me, EventKind::Move(w));
                    }
                }
            }
            // Any move by either side: usually illegal or out of turn.
            12 => {
                let c = self.colour();
                let w = WireMove {
                    from: self.input.byte() % 70,
                    to: self.input.byte() % 70,
                    promotion: self.input.byte() % 6,
                };
                self.dishonest_unless_over();
                self.by(c, EventKind::Move(w));
            }
            13 => {
                let me = self.colour();
                if self.live() {
                    if self.draw_offer == Some(!me) {
                        self.model = Model::Over;
                        self.draw_offer = None;
                    } else {
                        self.draw_offer = Some(me);
                    }
                }
                self.by(me, EventKind::DrawOffer);
            }
            14 => {
                let me = self.colour();
                if self.live() && self.draw_offer == Some(!me) {
                    self.model = Model::Over;
                    self.draw_offer = None;
                } else {
                    self.dishonest_unless_over();
                }
                self.by(me, EventKind::DrawAccept);
            }
            15 => {
                let me = self.colour();
                if self.live() && self.draw_offer == Some(!me) {
                    self.draw_offer = None;
                } else {
                    self.dishonest_unless_over();
                }
                self.by(me, EventKind::DrawDecline);
            }
            16 => {
                // Resignation ends most games: only on a rare extra byte.
                if self.input.byte() < 24 {
                    let me = self.colour();
                    self.model = Model::Over;
                    self.draw_offer = None;
                    self.by(me, EventKind::Resign);
                }
            }
            17 => self.claim(),
            18 => self.seal(),
            19 => {
                // As verify has it: the first presence after the last sealing counts.
                let me = self.colour();
                self.presence[me.index()] = true;
                self.by(me, EventKind::Presence);
            }
            20 => self.reveal(),
            21 => {
                let me = self.colour();
                let n = usize::from(self.input.byte() % 8);
                let text: String = std::iter::repeat_n('♞', n).collect();
                self.by(me, EventKind::Chat { text });
            }
            22 => {
                let who = usize::from(self.input.byte() % 3);
                let of = self.events[self.input.below(self.events.len())].id();
                self.emit(who, EventKind::Receipt { event: of });
            }
            23 => {
                let me = self.colour();
                let from_ms = self.time + u64::from(self.input.byte()) * 3_600_000;
                let until_ms = from_ms + u64::from(self.input.byte()) * 3_600_000;
                self.by(me, EventKind::Leave { from_ms, until_ms });
            }
            24 => {
                let me = self.colour();
                if self.live() && self.moves.len() < 2 {
                    self.model = Model::Over;
                    self.draw_offer = None;
                } else {
                    self.dishonest_unless_over();
                }
                self.by(me, EventKind::Abort);
            }
            // Time passes (days).
            25 => self.time += u64::from(self.input.byte()) * 3_600_000,
            // Reordering and duplication: the record stays the same game.
            26 => {
                let a = self.input.below(self.events.len());
                let b = self.input.below(self.events.len());
                self.events.swap(a, b);
            }
            27 => {
                let a = self.input.below(self.events.len());
                let e = self.events[a].clone();
                let at = self.input.below(self.events.len() + 1);
                self.events.insert(at, e);
            }
            28 => {
                if self.events.len() > 1 {
                    let a = self.input.below(self.events.len());
                    self.events.remove(a);
                    self.honest = false;
                }
            }
            29 => {
                let a = self.input.below(self.events.len());
                let e = &mut self.events[a];
                let total = e.body.len() + 64;
                let at = self.input.below(total);
                let mask = self.input.byte().max(1);
                if at < e.body.len() {
                    e.body[at] ^= mask;
                } else {
                    e.signature[at - e.body.len()] ^= mask;
                }
                self.honest = false;
            }
            _ => self.resign_altered(),
        }
    }

    fn claim(&mut self) {
        let me = self.colour();
        let reason = match self.input.byte() % 5 {
            0 => ClaimReason::Threefold,
            1 => ClaimReason::FiftyMoves,
            2 => ClaimReason::Time,
            3 => ClaimReason::DeadPosition,
            _ => ClaimReason::Lateness,
        };
        let with_move = self.input.byte() & 1 == 1;
        let my_turn = self.pos.turn() == me && self.model == Model::Active;
        let intended = if with_move && my_turn {
            self.legal_move()
        } else {
            None
        };
        let valid = match reason {
            ClaimReason::Threefold | ClaimReason::FiftyMoves => my_turn,
            _ => self.live() && (intended.is_some() || !with_move),
        };
        if !valid {
            self.dishonest_unless_over();
        }
        let intended = intended.map(WireMove::from_move).or_else(|| {
            with_move.then_some(WireMove {
                from: 12,
                to: 28,
                promotion: 0,
            })
        });
        self.by(me, EventKind::Claim(Claim { reason, intended }));
        self.resync();
    }

    fn seal(&mut self) {
        let me = self.pos.turn();
        let at = self.time + 1;
        // A9c: right after an opened sealed move whose sealer is absent, the responder's seal
        // is a reply in a second envelope, which keeps the adjournment's resumption; as
        // `verify` decides it (rules::adjournment).
        let st = verify(&self.events).ok();
        let reply = st.as_ref().and_then(|st| {
            st.adjournment()
                .filter(|a| a.binding && a.check_reply(me, st.moves.len()).is_ok())
                .map(|a| (a.resume_at_ms, a.limit_ms))
        });
        // A2.7: a resumption time is mandatory; now and then the generator leaves it out.
        let resume_at = match (reply, self.input.byte() % 8) {
            (Some((resume, _)), _) => resume,
            (None, 0) => None,
            (None, 1..=3) => Some(at + 3_600_000),
            (None, _) => Some(at + 1),
        };
        let valid = self.model == Model::Active && resume_at.is_some() && !self.correspondence;
        if !valid {
            self.dishonest_unless_over();
        }
        let text = match (self.input.byte() % 4, self.legal_move()) {
            (0, _) | (_, None) => ODD_TEXTS[self.input.below(ODD_TEXTS.len())].to_owned(),
            (_, Some(m)) => to_san(&self.pos, m, Lang::English),
        };
        let salt = self.input.bytes32();
        // The clocks at the moment of sealing, as `verify` computes them (A2.3).
        let used = verify_at(&self.events, Some(at))
            .ok()
            .and_then(|st| st.clocks)
            .map_or([0, 0], |c| c.used_ms);
        let envelope = Envelope {
            white: self.player(Color::White),
            black: self.player(Color::Black),
            fen_before: self.pos.fen(),
            time_used_ms: used,
            sealer: self.player(me),
            move_number: self.pos.fullmove_number(),
            draw_offer_by: self.draw_offer.map(|c| self.player(c)),
            resume_at_ms: resume_at,
            place: "Club".to_owned(),
            lateness_limit_ms: reply.map_or(DEFAULT_LATENESS_MS, |(_, limit)| limit),
        };
        let sheet = self.colour_sheet[me.index()];
        let ply = self.moves.len() as u32 + 1;
        let (signed, opening) = self.sheets[sheet]
            .seal(&text, SealLetters::English, salt, envelope, ply, at)
            .expect("sign seal");
        self.time = at;
        let id = signed.id();
        for other in 0..3 {
            if other != sheet {
                self.sheets[other].saw(id);
            }
        }
        self.events.push(signed);
        if valid {
            self.model = Model::Adjourned;
            if reply.is_some() {
                // Sealing the reply is being at the board; it opens on the sealer's arrival.
                self.presence[me.index()] = true;
                self.opening = Some((me, opening, 0));
            } else {
                // A new adjournment: only arrivals after it count (A7, A10).
                self.presence = [false, false];
                self.opening = Some((me, opening, resume_at.unwrap_or(at)));
            }
        }
    }

    fn reveal(&mut self) {
        match self.opening.clone() {
            Some((sealer, opening, resume)) => {
                // A7 with A2.7: the responder present, and the agreed time come or the sealer
                // present too.
                if self.model != Model::Adjourned
                    || !self.presence[(!sealer).index()]
                    || (self.time + 1 < resume && !self.presence[sealer.index()])
                {
                    self.dishonest_unless_over();
                }
                let sheet = self.colour_sheet[sealer.index()];
                let signed = self.sheets[sheet]
                    .reveal(&opening, self.time + 1)
                    .expect("sign reveal");
                self.time += 1;
                let id = signed.id();
                for other in 0..2 {
                    if other != sheet {
                        self.sheets[other].saw(id);
                    }
                }
                self.events.push(signed);
                self.resync();
            }
            None => {
                let me = self.colour();
                self.dishonest_unless_over();
                let opening = SealOpening {
                    move_text: "e4".to_owned(),
                    salt: [0; 32],
                };
                let sheet = self.colour_sheet[me.index()];
                self.time += 1;
                let signed = self.sheets[sheet]
                    .reveal(&opening, self.time)
                    .expect("sign reveal");
                self.events.push(signed);
            }
        }
    }

    /// Takes an event of the record, alters one field and signs it again with its author's
    /// key: equivocations, broken chains, wrong `seen`, a second challenge, time travel.
    fn resign_altered(&mut self) {
        let a = self.input.below(self.events.len());
        let Ok(mut event) = self.events[a].decode_unverified() else {
            return;
        };
        let Some(key) = self
            .keys
            .iter()
            .find(|k| k.player_id() == event.author)
            .cloned()
        else {
            return;
        };
        let pick = self.events[self.input.below(self.events.len())].id();
        match self.input.byte() % 8 {
            0 => event.seq = event.seq.wrapping_add(1),
            1 => event.seq = event.seq.wrapping_sub(1),
            2 => event.prev = None,
            3 => event.seen = Some(pick),
            4 => event.time_ms = u64::from(self.input.u16()),
            5 => event.kind = EventKind::Chat { text: "x".into() },
            6 => event.game = Some(EventId([self.input.byte(); 32])),
            _ => event.author = self.keys[usize::from(self.input.byte() % 3)].player_id(),
        }
        let Ok(body) = codec::encode::<Event>(&event) else {
            return;
        };
        let signed = SignedEvent {
            signature: key.sign(&sobre_core::record::event::signing_bytes(&body)),
            body,
        };
        let at = self.input.below(self.events.len() + 1);
        self.events.insert(at, signed);
        self.honest = false;
    }
}
