//! Builds the real-game corpus of the dead-position tests (FIDE 5.2b / 9.6),
//! `core/tests/data/games/positions.fen`, from PGN files (the sources and the exact command
//! are in `core/tests/data/games/README.md`):
//!
//! ```sh
//! cargo run -p sobre-core --example dead_corpus -- GAMES.pgn... [--mates-only LINES.pgn...] \
//!     > core/tests/data/games/positions.fen
//! ```
//!
//! Every position of every game's main line is written as `TAG FEN`, tagged with what is
//! known about it:
//! - `mate-white` / `mate-black`: the line ends in checkmate given by that side, so from this
//!   position a series of legal moves leads to mate: it is certainly *not* dead (5.2b, 9.6),
//!   and that side can certainly still mate (6.9); `mate-both` for a position on lines of
//!   each kind (the start position, for one);
//! - `game`: a position of a game or study whose line does not end in mate (truth unknown).
//!
//! Files after `--mates-only` give only their lines that end in mate: an opening book's
//! traps, without its thousands of full-board positions, which are the judge's cheapest
//! case (it stops at the first piece) and would add bulk, not cover.
//!
//! Only positions are written: no names, comments or annotations of the sources. A position
//! met twice (same placement, turn, castling rights and en passant square; the move counters
//! do not change whether mate is reachable) is kept once, with all it is known to be: a
//! `mate-*` tag wins over `game`.
//! Games that do not replay are reported on stderr and kept up to their first bad move.

use sobre_core::pgn::PgnReader;
use sobre_core::pgn::replay::{ReplayOptions, Replayer};
use sobre_core::{Color, Position};
use std::collections::HashMap;
use std::path::Path;

/// What is known about a position: a set of these bits.
const GAME: u8 = 1;
const MATE_WHITE: u8 = 2;
const MATE_BLACK: u8 = 4;

/// The tag of a set of bits: what the mating lines say, if any.
fn tag_name(bits: u8) -> &'static str {
    match (bits & MATE_WHITE != 0, bits & MATE_BLACK != 0) {
        (true, true) => "mate-both",
        (true, false) => "mate-white",
        (false, true) => "mate-black",
        (false, false) => "game",
    }
}

/// The positions in the order first met, each with its tag bits and the source it came
/// from.
#[derive(Default)]
struct Corpus {
    index: HashMap<String, usize>,
    entries: Vec<(u8, String, usize)>,
    sources: Vec<String>,
}

impl Corpus {
    fn add(&mut self, p: &Position, tag: u8, source: usize) {
        let fen = p.fen();
        let key = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        match self.index.get(&key) {
            Some(&i) => self.entries[i].0 |= tag,
            None => {
                self.index.insert(key, self.entries.len());
                self.entries.push((tag, fen, source));
            }
        }
    }

    fn read(&mut self, path: &str, mates_only: bool) -> std::io::Result<()> {
        let data = std::fs::read(path)?;
        let name = Path::new(path)
            .file_name()
            .map_or(path.into(), |n| n.to_string_lossy().into_owned());
        let source = self.sources.len();
        self.sources.push(name.clone());
        let mut reader = PgnReader::new(&data[..]);
        let mut replayer = Replayer::new(ReplayOptions {
            keep_tags: false,
            keep_moves: true,
            keep_comments: false,
        });
        let (mut games, mut failed) = (0, 0);
        while let Some(game) = reader
            .read_game(&mut replayer)
            .map_err(std::io::Error::other)?
        {
            games += 1;
            if let Some(e) = &game.error {
                failed += 1;
                eprintln!("{name}:{}: kept up to the error: {e}", game.line);
            }
            let end = &game.position;
            let tag = match end.turn() {
                // The side to move in a checkmate is the side mated.
                Color::Black if end.is_checkmate() => MATE_WHITE,
                Color::White if end.is_checkmate() => MATE_BLACK,
                _ if mates_only => continue,
                _ => GAME,
            };
            let mut p = game.start.clone();
            self.add(&p, tag, source);
            for &m in &game.moves {
                p.play_unchecked(m);
                self.add(&p, tag, source);
            }
        }
        eprintln!("{name}: {games} games, {failed} with errors");
        Ok(())
    }
}

fn main() {
    let mut corpus = Corpus::default();
    let mut mates_only = false;
    let mut any = false;
    for arg in std::env::args().skip(1) {
        if arg == "--mates-only" {
            mates_only = true;
            continue;
        }
        any = true;
        if let Err(e) = corpus.read(&arg, mates_only) {
            eprintln!("{arg}: {e}");
            std::process::exit(2);
        }
    }
    if !any {
        eprintln!("usage: dead_corpus GAMES.pgn... [--mates-only LINES.pgn...]");
        std::process::exit(2);
    }
    println!("# FIDE 5.2b / 9.6 corpus: TAG FEN, one position a line (README.md in this folder).");
    let mut counts = std::collections::BTreeMap::new();
    for (source, name) in corpus.sources.iter().enumerate() {
        println!("# {name}");
        for (bits, fen, _) in corpus.entries.iter().filter(|e| e.2 == source) {
            let tag = tag_name(*bits);
            *counts.entry(tag).or_insert(0) += 1;
            println!("{tag} {fen}");
        }
    }
    eprintln!("{} positions: {counts:?}", corpus.entries.len());
}
