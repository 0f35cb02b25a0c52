//! # sobre-node
//!
//! One node per player: a libp2p swarm (`network`), a sled store (`store`) with secrets in
//! fsync'd files (`secrets`), the service that checks everything with `sobre-core` and signs
//! the player's events (`service`), and the local control API (`api`, `control`).
#![forbid(unsafe_code)]
// Bytes from the network and from disk reach every module here: a malformed input is an
// error, never a panic (`clippy.toml` allows unwrap in tests only).
#![deny(clippy::unwrap_used, clippy::expect_used)]

// Public: what the CLI (`cli/`), the tests (`node/tests`, `tests/`), `node/benches`,
// `examples/` and `fuzz/` use. The rest is the node's own business.
pub mod api;
pub mod board;
pub mod client;
pub mod control;
pub mod error;
pub mod home;
pub mod instance;
pub mod invite;
pub mod keyfile;
pub mod network;
pub mod offline;
pub mod player_config;
pub mod profile;
pub mod protocol;
pub mod reminders;
pub mod service;
pub mod settings;
pub mod store;
pub mod time;
pub mod view;
pub mod words;

mod dispute;
mod integrity;
mod preverify;
mod secrets;
