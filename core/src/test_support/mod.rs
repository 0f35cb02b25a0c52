//! Deterministic material for tests, benches and harnesses (cargo feature `test-support`):
//! one seeded generator of legal lines ([`Lines`], standard and Chess960 starts) and one
//! builder of signed game records ([`GameBuilder`]: two players' keys, the challenge, the
//! acceptance and a line's moves at plausible times).
//!
//! Nothing in the rules uses it: it is compiled for this crate's own tests and for crates
//! that enable the feature as a dev-dependency (`sobre-node`, the `sobre` package, and this
//! crate's integration tests and benches through a dev-dependency on itself). Its randomness
//! is a seeded generator, so the core stays free of real randomness.

mod lines;
mod signed;

pub use lines::{Bias, Lines};
pub use signed::{BuildError, GameBuilder, RECEIPT_DELAY_MS, Receipts, SignedGame, T0, key};
