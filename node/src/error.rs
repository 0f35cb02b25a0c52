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
    #[error("bad address {}: {reason}", crate::words::quoted(.addr))]
    Address { addr: String, reason: String },
    #[error("control socket: {0}")]
    Control(std::io::Error),
    /// A flush of the database failed while the node ran: it stopped at once, signing
    /// nothing more, because what sled still held in memory could reach the disk later and
    /// make an answer already given ("not saved") false. The next start reads what the disk
    /// really holds.
    #[error(
        "storage failure: {0}. The node stopped so that it signs nothing more; free space or \
         fix the disk, then start it again (it will show what was kept)"
    )]
    StorageFailed(String),
    /// Another node runs with this player's key (see `crate::instance`).
    #[error(transparent)]
    OtherInstance(#[from] crate::instance::OtherInstance),
    /// The list of this home's node instances cannot be written.
    #[error("cannot record this node's instance in the home: {0}")]
    Instance(std::io::Error),
}
