//! Why the node stops.

use crate::home;
use crate::store::StoreError;

/// Why the node stopped.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    #[error(transparent)]
    Key(#[from] home::KeyError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("network: {0}")]
    Network(String),
    #[error("bad address {addr:?}: {reason}")]
    Address { addr: String, reason: String },
    #[error("control socket: {0}")]
    Control(std::io::Error),
}
