//! The errors of the omniscient queries: each says what was asked and what to do instead.

use super::heap::HeapError;
use super::path::PathSyntaxError;
use crate::ids::{NodeId, Timestamp};
use crate::trace::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum OmniError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Heap(#[from] HeapError),
    #[error(transparent)]
    Syntax(#[from] PathSyntaxError),
    /// A path that does not lead to a variable at the asked time.
    #[error("`{path}` at timestamp {at}: {problem}")]
    Path {
        path: String,
        at: Timestamp,
        problem: String,
    },
    #[error("node {0} is not a call of this trace (`hindsight tree TRACE` lists the nodes)")]
    NoCall(NodeId),
    #[error("timestamp {at} is outside node {node}, which runs from {entry} to {exit}")]
    OutsideNode {
        node: NodeId,
        at: Timestamp,
        entry: Timestamp,
        exit: Timestamp,
    },
}

pub type OmniResult<T> = Result<T, OmniError>;
