//! `sobre show`: one game — the board, the moves, the clocks, offers and envelopes.

use super::chat_read::ChatRead;
use super::common::{
    self, capitalise, colour_subject_word, human_duration, rfc3339, short_game, status_word,
};
use super::contacts::Contacts;
use super::names::Names;
use crate::board::{self, Style};
use crate::error::CliResult;
use crate::i18n::words;
use crate::t;
use sobre_core::clock::format_duration;
use sobre_core::notation::{Notation, format_line};
use sobre_core::record::QuickplayRuling;
use sobre_core::record::Status;
use sobre_core::uci::parse_uci;
use sobre_core::{CastlingMode, Color, Position, Square};
use sobre_node::api::GameView;
use sobre_node::api::game::{EnvelopeView, QuickplayClaimView};
use sobre_node::api::request;
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

/// Show a game: the board from your side, the moves, whose move it is, the clocks, a
/// pending draw offer, the sealed-move envelope and the result.
///
/// GAME is any unique prefix of the game id (`sobre games` lists them). With --json, the
/// node's full view of the game as one object: `game`, `white`, `black`, `my_color`, `fen`,
/// `start_fen`, `moves` (UCI), `san`, `last_move`, `status`, `result`, `termination`, `turn`,
/// `my_move`, `time_control`, `clocks`, `draw_offer`, `envelope`, `claims`, `chat`, and more.
#[derive(clap::Args)]
pub struct Args {
    /// The game id (or a unique prefix of it).
    game: String,
    /// Print the node's view of the game as one JSON object.
    #[arg(long)]
    json: bool,
    /// Draw the board from the other side.
    #[arg(long)]
    flip: bool,
    /// Letters instead of Unicode figurines.
    #[arg(long)]
    ascii: bool,
    /// Notation of the moves: en, es, figurine, uci, iccf (default: `notation` in
    /// HOME/config.json, else en).
    #[arg(long)]
    notation: Option<Notation>,
    /// Print the whole chat of the game (with the time of each line) instead of the game.
    #[arg(long, conflicts_with_all = ["json", "flip", "ascii", "notation"])]
    chat: bool,
}

/// How to draw a game in the terminal.
#[derive(Clone, Copy, Debug)]
pub struct View {
    pub flip: bool,
    pub ascii: bool,
    pub notation: Notation,
    /// The opponent's chat lines not read yet: all are shown, however many.
    pub unread: usize,
}

pub fn run(home: &Path, args: Args) -> CliResult<ExitCode> {
    let read: common::Read<GameView> = common::read_typed(home, request::Show { game: args.game })?;
    if args.json {
        common::print_reply(&read)?;
        return Ok(ExitCode::SUCCESS);
    }
    let v = read.reply;
    let contacts = Contacts::load(home)?;
    let theirs = opponent_lines(&v);
    if args.chat {
        print!("{}", chat_history(&v, &contacts));
    } else {
        let config = common::Config::load(home);
        let view = View {
            flip: args.flip,
            ascii: args.ascii || config.ascii,
            notation: args.notation.or(config.notation).unwrap_or_default(),
            unread: ChatRead::load(home).unread(&v.game, theirs),
        };
        print!("{}", render(&v, &contacts, view));
    }
    // Every line of the opponent's has now been shown (see `chat_read`).
    ChatRead::mark(home, &v.game, theirs);
    Ok(ExitCode::SUCCESS)
}

/// The other player of the game, seen from the node's player (none for a game the node's
/// player does not play).
pub fn opponent_id(v: &GameView) -> Option<&str> {
    Some(v.opponent.as_str()).filter(|o| !o.is_empty())
}

/// How many chat lines the opponent wrote.
fn opponent_lines(v: &GameView) -> usize {
    opponent_id(v).map_or(0, |o| v.chat.iter().filter(|l| l.by == o).count())
}

/// `show --chat`: every line, with its time.
fn chat_history(v: &GameView, contacts: &Contacts) -> String {
    let names = Names::new(contacts, v.names.clone());
    if v.chat.is_empty() {
        return t!("show-no-chat", game = game_tag(v)) + "\n";
    }
    let mut out = t!("show-chat-in", game = game_tag(v)) + "\n";
    for line in &v.chat {
        let _ = writeln!(
            out,
            "{}  {}: {}",
            rfc3339(line.time_ms),
            names.label(&line.by),
            line.text
        );
    }
    out
}

/// The whole game as text. Stable: scripts and golden tests compare it.
pub fn render(v: &GameView, contacts: &Contacts, view: View) -> String {
    // Aliases over the names the players signed (`v.names`), over short ids.
    let names = Names::new(contacts, v.names.clone());
    let mut out = String::new();
    let my_color = v.my_color;
    let player = |side: Color, id: Option<&str>| {
        let s = match id {
            Some(id) => names.label(id),
            None => t!("show-undecided"),
        };
        if my_color == Some(side) {
            t!("show-you", player = s)
        } else {
            s
        }
    };
    let _ = writeln!(out, "{}", t!("show-game", game = &v.game));
    let white = player(Color::White, v.white.as_deref());
    let _ = writeln!(out, "{}", t!("show-white", player = white));
    let black = player(Color::Black, v.black.as_deref());
    let _ = writeln!(out, "{}", t!("show-black", player = black));
    let _ = writeln!(out, "{}", t!("show-time-control", tc = &v.time_control));
    if let Some(terms) = &v.terms {
        let _ = writeln!(out, "{}", terms_line(terms));
    }
    out.push('\n');

    match position(&v.fen, v.chess960) {
        Some(pos) => {
            let mut bottom = my_color.unwrap_or(Color::White);
            if view.flip {
                bottom = bottom.other();
            }
            let style = Style {
                bottom,
                ascii: view.ascii,
            };
            out.push_str(&board::render(&pos, style, last_move_squares(v)));
        }
        None => {
            let _ = writeln!(out, "FEN: {}", v.fen);
        }
    }
    out.push('\n');

    let moves = move_list(v, view.notation);
    if !moves.is_empty() {
        let _ = writeln!(out, "{moves}");
    }
    let _ = writeln!(out, "{}", state_line(v));
    if let Some(clocks) = clock_line(v) {
        let _ = writeln!(out, "{clocks}");
    }
    if let Some(coin) = coin_line(v) {
        let _ = writeln!(out, "{coin}");
    }
    if let Some(by) = &v.draw_offer {
        let _ = writeln!(
            out,
            "{}",
            t!("show-draw-offered", colour = words::colour_subject(*by))
        );
    }
    if let Some(env) = &v.envelope {
        let _ = writeln!(out, "{}", envelope_line(env));
        if let Some(line) = declared_line(env) {
            let _ = writeln!(out, "{line}");
        }
    }
    if let Some(line) = annulment_line(v, &names) {
        let _ = writeln!(out, "{line}");
    }
    for line in v.quickplay_claims.iter().filter_map(quickplay_line) {
        let _ = writeln!(out, "{line}");
    }
    for c in &v.claims {
        let verdict = match c.correct {
            Some(true) => t!("show-claim-correct"),
            Some(false) => t!("show-claim-incorrect"),
            None => t!("show-claim-pending"),
        };
        // Worded from the typed verdict; a node that sends none: its own sentence.
        let judgement = c
            .judgement_code
            .as_ref()
            .map_or_else(|| c.judgement.clone(), crate::i18n::words::judgement);
        let line = match judgement.as_str() {
            "" => t!(
                "show-claim",
                colour = words::colour_subject(c.by),
                reason = words::claim_short(c.reason),
                verdict = verdict
            ),
            j => t!(
                "show-claim-judged",
                colour = words::colour_subject(c.by),
                reason = words::claim_short(c.reason),
                verdict = verdict,
                judgement = j
            ),
        };
        let _ = writeln!(out, "{line}");
    }
    if !v.equivocations.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            t!("show-disputed", count = v.equivocations.len())
        );
    }
    if let Some(leave) = leave_line(v, &names) {
        let _ = writeln!(out, "{leave}");
    }
    // The last 5 lines, or more to show every unread one.
    let chat = &v.chat;
    let shown = match (opponent_id(v), view.unread) {
        (Some(o), unread) if unread > 0 => {
            let mut theirs_seen = 0;
            let first_unread = chat
                .iter()
                .rposition(|l| {
                    theirs_seen += usize::from(l.by == o);
                    theirs_seen == unread
                })
                .unwrap_or(0);
            (chat.len() - first_unread).max(5)
        }
        _ => 5,
    };
    if chat.len() > shown {
        let _ = writeln!(
            out,
            "{}",
            t!("show-chat-earlier", count = chat.len() - shown)
        );
    } else if !chat.is_empty() {
        let _ = writeln!(out, "{}", t!("show-chat"));
    }
    for line in chat.iter().skip(chat.len().saturating_sub(shown)) {
        let _ = writeln!(out, "  {}: {}", names.label(&line.by), line.text);
    }
    out
}

/// Leave in progress or ahead (the clock of the player on leave stops): `Leave: Black (your
/// opponent, Bernardo) until 2026-12-05T00:00:00Z.` Past leave says nothing.
fn leave_line(v: &GameView, names: &Names) -> Option<String> {
    let now = sobre_node::time::now_ms();
    let mut parts = Vec::new();
    for l in v.leave.iter().filter(|l| l.until_ms > now) {
        let colour = sobre_node::api::game::colour(Some(&l.colour));
        let side = colour_subject_word(&l.colour);
        let who = match (colour, v.my_color) {
            (Some(c), Some(me)) if c == me => t!("show-you", player = side),
            (Some(c), _) => {
                let id = match c {
                    Color::White => v.white.as_deref(),
                    Color::Black => v.black.as_deref(),
                };
                match id {
                    Some(id) => t!("show-leave-named", colour = side, name = names.label(id)),
                    None => side,
                }
            }
            _ => side,
        };
        if l.from_ms <= now {
            parts.push(t!(
                "show-leave-until",
                who = who,
                until = rfc3339(l.until_ms)
            ));
        } else {
            parts.push(t!(
                "show-leave-from-until",
                who = who,
                from = rfc3339(l.from_ms),
                until = rfc3339(l.until_ms)
            ));
        }
    }
    (!parts.is_empty()).then(|| t!("show-on-leave", leave = parts.join("; ")))
}

/// The fair coin (F1) while it awaits the opening, or when it was settled by default; an
/// opened coin says nothing (the colours show it).
fn coin_line(v: &GameView) -> Option<String> {
    let coin = v.coin.as_ref()?;
    match coin.settled.as_deref() {
        None if coin.deadline_ms.is_none() => Some(t!("show-coin-not-received")),
        None => Some(t!(
            "show-coin-awaits",
            deadline = coin.deadline_ms.map_or_else(String::new, common::rfc3339)
        )),
        Some("default") => Some(t!("show-coin-defaulted")),
        Some(_) => None,
    }
}

/// One line saying where a game stands: `Active: Black to move (your move).`,
/// `Finished: 1-0 (resignation).`
pub fn state_line(v: &GameView) -> String {
    let title = capitalise(&status_word(v.status.name()));
    match v.status {
        Status::Finished | Status::Cancelled => {
            let result = v.result.as_deref().unwrap_or("");
            // The rules' words for a termination the core names; else the node's text.
            let why = match v
                .termination
                .as_deref()
                .and_then(words::termination_of_code)
            {
                Some(t) => Some(words::termination(t)),
                None => v.termination_text.clone().or_else(|| v.termination.clone()),
            };
            match (result, why) {
                ("", None) => t!("state-ended", status = title),
                ("", Some(w)) => t!("state-ended-why", status = title, why = w),
                (r, None) => t!("state-ended-result", status = title, result = r),
                (r, Some(w)) => t!(
                    "state-ended-result-why",
                    status = title,
                    result = r,
                    why = w
                ),
            }
        }
        Status::Pending if v.coin.is_some() => t!("state-pending-coin"),
        Status::Pending => t!("state-pending"),
        Status::Adjourned => t!("state-adjourned"),
        _ if v.my_move => t!(
            "state-to-move-mine",
            status = title,
            colour = words::colour_subject(v.turn)
        ),
        _ => t!(
            "state-to-move",
            status = title,
            colour = words::colour_subject(v.turn)
        ),
    }
}

fn position(fen: &str, chess960: bool) -> Option<Position> {
    if chess960 {
        Position::from_fen(fen, CastlingMode::Chess960).ok()
    } else {
        Position::from_fen_auto(fen).ok()
    }
}

fn last_move_squares(v: &GameView) -> Option<(Square, Square)> {
    let uci = v.last_move.as_deref()?;
    Some((
        Square::parse(uci.get(0..2)?)?,
        Square::parse(uci.get(2..4)?)?,
    ))
}

/// The moves, numbered, in the chosen notation: replayed from the start position with the
/// rules core; the node's SAN if that fails.
fn move_list(v: &GameView, notation: Notation) -> String {
    let start = match &v.start_fen {
        Some(fen) => position(fen, v.chess960),
        None => Some(Position::new()),
    };
    if let Some(start) = start {
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(v.moves.len());
        for text in &v.moves {
            match parse_uci(&pos, text) {
                Ok(m) => {
                    pos.play_unchecked(m);
                    moves.push(m);
                }
                Err(_) => break,
            }
        }
        if moves.len() == v.moves.len() {
            return format_line(&start, &moves, notation);
        }
    }
    v.san.join(" ")
}

/// The game's last move in `notation` (replayed from the start position with the rules
/// core), or none if it does not replay.
pub fn last_move_in(v: &GameView, notation: Notation) -> Option<String> {
    let (last, before) = v.moves.split_last()?;
    let mut pos = match &v.start_fen {
        Some(fen) => position(fen, v.chess960)?,
        None => Position::new(),
    };
    for text in before {
        let m = parse_uci(&pos, text).ok()?;
        pos.play_unchecked(m);
    }
    let m = parse_uci(&pos, last).ok()?;
    Some(sobre_core::notation::format_move(&pos, m, notation))
}

/// `Clocks: White 2d23h (running), Black 3d.`
fn clock_line(v: &GameView) -> Option<String> {
    let clocks = v.clocks.as_ref()?;
    let side = |colour: Color, ms: Option<i64>| {
        let name = colour.name();
        let mut s = t!(
            "show-clock",
            colour = words::colour_subject(colour),
            time = clock_text(ms)
        );
        // A finished game's last clock keeps its reading, but nothing runs any more.
        let live = matches!(v.status, Status::Active | Status::Disputed);
        if live && clocks.running.as_deref() == Some(name) {
            s = t!("show-clock-running", clock = s);
        }
        if clocks.flagged.as_deref() == Some(name) {
            s = t!("show-clock-flagged", clock = s);
        }
        s
    };
    Some(t!(
        "show-clocks",
        white = side(Color::White, clocks.white_ms),
        black = side(Color::Black, clocks.black_ms)
    ))
}

fn clock_text(ms: Option<i64>) -> String {
    // Unlimited games report i64::MAX; anything beyond a century is "no limit".
    const CENTURY_MS: i64 = 100 * 365 * 86_400_000;
    match ms {
        None => "-".to_owned(),
        Some(ms) if ms > CENTURY_MS => t!("show-clock-unlimited"),
        Some(ms) => human_duration(ms),
    }
}

/// `Sealed move: by White at move 23, not opened; resumes 2026-12-01T18:00:00Z at Club.`
pub fn envelope_line(env: &EnvelopeView) -> String {
    let opened = match env.opened.as_deref() {
        None => t!("show-sealed-not-opened"),
        Some("") => t!("show-sealed-opened"),
        Some(m) => t!("show-sealed-opened-move", mv = m),
    };
    let at = env.resume_at_ms.map(rfc3339);
    let resumes = match (at, env.place.as_str()) {
        (Some(at), "") => t!("show-resumes", at = at),
        (Some(at), place) => t!("show-resumes-at-place", at = at, place = place),
        (None, "") => String::new(),
        (None, place) => t!("show-resumes-place", place = place),
    };
    t!(
        "show-sealed",
        colour = colour_subject_word(&env.sealer),
        number = env.move_number.to_string(),
        opened = opened,
        resumes = resumes
    )
}

/// A11.1: the sealer's declared move, awaiting acceptance or played in the envelope's
/// place.
fn declared_line(env: &EnvelopeView) -> Option<String> {
    let d = env.declared.as_ref()?;
    let colour = colour_subject_word(&env.sealer);
    let mv = d.san.as_str();
    Some(match d.accepted_by.as_deref() {
        None => t!("show-declared-awaits", colour = colour, mv = mv),
        Some("arbiter") => t!("show-declared-accepted-arbiter", colour = colour, mv = mv),
        Some(_) => t!("show-declared-accepted", colour = colour, mv = mv),
    })
}

/// A11.2: the game annulled, or a player's request to annul it while the other's is
/// awaited.
fn annulment_line(v: &GameView, names: &Names) -> Option<String> {
    if let Some(a) = &v.annulled {
        return Some(match a.arbiter.as_deref() {
            Some(arbiter) => t!("show-annulled-arbiter", arbiter = names.label(arbiter)),
            None => t!("show-annulled"),
        });
    }
    let asked = v.annul_requests.first()?;
    Some(t!("show-annul-asked", colour = colour_subject_word(asked)))
}

/// 10.2: a quickplay-finish claim awaiting the arbiter, postponed, rejected or too late (a
/// drawn one is the game's result).
fn quickplay_line(c: &QuickplayClaimView) -> Option<String> {
    let colour = colour_subject_word(&c.by);
    if c.late {
        return Some(t!("show-quickplay-late", colour = colour));
    }
    let final_ruling = c.rulings.iter().map(|r| r.ruling).find(|r| r.is_final());
    Some(match (c.rulings.is_empty(), final_ruling) {
        (true, _) => t!(
            "show-quickplay-awaiting",
            colour = colour,
            left = format_duration(c.remaining_ms.max(0).unsigned_abs())
        ),
        (false, None) => t!("show-quickplay-postponed", colour = colour),
        (false, Some(QuickplayRuling::Reject)) => t!("show-quickplay-rejected", colour = colour),
        (false, Some(_)) => return None,
    })
}

/// The first 8 characters of the game id, for one-line confirmations.
pub fn game_tag(v: &GameView) -> &str {
    short_game(&v.game)
}

/// The agreed terms in one line (docs/time.md): who keeps time, the arbiter, the Laws'
/// edition and the limits of an adjournment.
fn terms_line(t: &sobre_node::api::TermsView) -> String {
    let none = || t!("show-terms-none");
    let keepers = if t.timekeepers.is_empty() {
        none()
    } else {
        t.timekeepers
            .iter()
            .map(|k| k.get(..16).unwrap_or(k).to_owned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let arbiter = t
        .arbiter
        .as_deref()
        .map_or_else(none, |a| a.get(..16).unwrap_or(a).to_owned());
    t!(
        "show-terms",
        timekeepers = keepers,
        arbiter = arbiter,
        edition = t.edition.to_string(),
        lateness = sobre_core::clock::format_duration(t.lateness_ms),
        notice = sobre_core::clock::format_duration(t.notice_ms)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// The view the node would answer with these fields.
    fn gv(v: &Value) -> GameView {
        serde_json::from_value(v.clone()).unwrap()
    }

    fn game() -> Value {
        json!({
            "game": "3f2a9c1e00112233445566778899aabbccddeeff00112233445566778899aabb",
            "white": null,
            "black": null,
            "my_color": "black",
            "fen": "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            "start_fen": null,
            "chess960": false,
            "moves": ["e2e4", "e7e5", "g1f3"],
            "san": ["e4", "e5", "Nf3"],
            "last_move": "g1f3",
            "status": "active",
            "result": null,
            "termination": null,
            "turn": "black",
            "my_move": true,
            "time_control": "3d",
            "clocks": {"white_ms": 259_200_000, "black_ms": 255_600_000, "running": "black", "flagged": null},
            "draw_offer": "white",
            "envelope": null,
            "claims": [],
            "chat": [],
            "equivocations": [],
        })
    }

    fn view(notation: Notation) -> View {
        View {
            flip: false,
            ascii: true,
            notation,
            unread: 0,
        }
    }

    /// A finished game's clocks keep their last reading; none is said to run.
    #[test]
    fn no_clock_runs_once_the_game_is_over() {
        let mut g = game();
        g["status"] = "finished".into();
        g["result"] = "1/2-1/2".into();
        let out = render(&gv(&g), &Contacts::default(), view(Notation::English));
        assert!(out.contains("Clocks: White 3d, Black 2d23h.\n"), "{out}");
    }

    #[test]
    fn a_game_is_drawn_from_my_side_with_the_moves_in_my_notation() {
        let out = render(&gv(&game()), &Contacts::default(), view(Notation::Spanish));
        assert!(out.contains("1. e4 e5 2. Cf3\n"), "{out}");
        assert!(
            out.contains("Active: Black to move (your move).\n"),
            "{out}"
        );
        assert!(
            out.contains("Clocks: White 3d, Black 2d23h (running).\n"),
            "{out}"
        );
        assert!(out.contains("Draw offered by White.\n"), "{out}");
        // Black at the bottom: rank 1 is drawn first, the knight's squares bracketed.
        let rank1 = out.lines().find(|l| l.starts_with(" 1 ")).unwrap();
        let rank8 = out.lines().find(|l| l.starts_with(" 8 ")).unwrap();
        assert!(out.find(rank1) < out.find(rank8), "{out}");
        assert!(rank1.contains("[:]") || rank1.contains("[.]"), "{rank1}");
    }

    /// Every unread line is shown, however many; once read, the last 5.
    #[test]
    fn show_prints_every_unread_chat_line() {
        let mut v = game();
        v["white"] = json!("W");
        v["black"] = json!("B");
        v["opponent"] = json!("W");
        v["chat"] = json!((0..8)
            .map(|i| json!({"by": if i == 2 { "B" } else { "W" }, "text": format!("line {i}"), "time_ms": i}))
            .collect::<Vec<_>>());
        let v = gv(&v);
        assert_eq!(opponent_lines(&v), 7);
        let mut seen = view(Notation::English);
        seen.unread = 6;
        let out = render(&v, &Contacts::default(), seen);
        assert!(out.contains("Chat (1 earlier lines not shown):"), "{out}");
        assert!(
            out.contains(": line 1\n") && !out.contains(": line 0\n"),
            "{out}"
        );
        seen.unread = 0;
        let out = render(&v, &Contacts::default(), seen);
        assert!(out.contains("Chat (3 earlier lines not shown):"), "{out}");
        let all = chat_history(&v, &Contacts::default());
        assert_eq!(all.lines().count(), 9, "{all}");
        assert!(all.contains("1970-01-01T00:00:00Z  W: line 0"), "{all}");
    }

    /// FIDE App. E: `move` confirms the move in the letters the player writes.
    #[test]
    fn the_last_move_is_written_in_the_players_notation() {
        let v = gv(&game());
        assert_eq!(last_move_in(&v, Notation::Spanish).as_deref(), Some("Cf3"));
        assert_eq!(last_move_in(&v, Notation::English).as_deref(), Some("Nf3"));
        assert_eq!(last_move_in(&v, Notation::Uci).as_deref(), Some("g1f3"));
    }

    /// A finished game's state line in a Spanish interface: the state, the result and how
    /// the game ended in the rules' Spanish words (from the node's termination code).
    #[test]
    fn a_finished_game_says_how_it_ended_in_spanish() {
        use crate::i18n::{Language, with_lang};
        let mut v = game();
        v["status"] = json!("finished");
        v["result"] = json!("0-1");
        v["termination"] = json!("resignation");
        v["termination_text"] = json!("resignation");
        let line = with_lang(Language::Spanish, || state_line(&gv(&v)));
        assert_eq!(line, "Terminada: 0-1 (abandono).");
    }

    #[test]
    fn a_finished_game_says_how_it_ended() {
        let mut v = game();
        v["status"] = json!("finished");
        v["result"] = json!("1-0");
        v["termination_text"] = json!("resignation");
        assert_eq!(state_line(&gv(&v)), "Finished: 1-0 (resignation).");
    }

    #[test]
    fn f1_the_fair_coin_says_until_when_it_awaits_the_opening_and_if_it_was_defaulted() {
        let mut v = game();
        v["status"] = json!("pending");
        v["coin"] = json!({"accepted_ms": 1, "deadline_ms": 1_796_148_000_000u64, "settled": null});
        assert_eq!(
            state_line(&gv(&v)),
            "Pending: accepted; waiting for the challenger to open the fair coin."
        );
        let out = render(&gv(&v), &Contacts::default(), view(Notation::English));
        assert!(
            out.contains("Fair coin: the challenger may open it until 2026-12-01T18:00:00Z;"),
            "{out}"
        );
        v["coin"]["deadline_ms"] = Value::Null;
        assert!(coin_line(&gv(&v)).is_some_and(|l| l.contains("not yet reached the challenger")));
        v["coin"]["settled"] = json!("default");
        assert!(coin_line(&gv(&v)).is_some_and(|l| l.contains("not opened in time")));
        v["coin"]["settled"] = json!("opened");
        assert_eq!(
            coin_line(&gv(&v)),
            None,
            "an opened coin shows in the colours"
        );
    }

    #[test]
    fn the_envelope_names_when_and_where_the_game_resumes() {
        let env = json!({"sealer": "white", "move_number": 41, "opened": false,
            "resume_at_ms": 1_796_148_000_000u64, "place": "Club"});
        assert_eq!(
            envelope_line(&serde_json::from_value(env).unwrap()),
            "Sealed move: by White at move 41, not opened; resumes 2026-12-01T18:00:00Z at Club."
        );
    }
}

/// Snapshots of [`render`] on fixed views of games (`tests/golden/show_*.json`, rendered to
/// the `.txt` files beside them; `UPDATE_GOLDEN=1` rewrites those).
#[cfg(test)]
#[path = "show_golden.rs"]
mod golden;
