//! # sobre-node
//!
//! The node (libp2p networking, sled storage, the local control API) is built in its own
//! issue; for now this crate only re-exports the rules core it will be built on.
#![forbid(unsafe_code)]

pub use sobre_core as core;
