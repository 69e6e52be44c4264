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
    /// A call into uninstrumented code: no frame of its own the trace knows.
    #[error("node {0} is a call into uninstrumented code (the JDK's, a library's left out): the trace knows its arguments, result and the program's code it called back, not its variables; `hindsight events TRACE {0}` lists what it did")]
    External(NodeId),
    /// A projected node of the execution forest: the session's own, never recorded.
    #[error("node {0} is a projected node of the execution forest, which a debugging session makes and the trace does not hold; ask about the calls it stands for (`hindsight tree TRACE` shows them as `calls #first..#last`)")]
    ForestNode(NodeId),
    #[error("timestamp {at} is after the trace's last event ({last}): `hindsight info TRACE` shows its span")]
    AfterTrace { at: Timestamp, last: Timestamp },
    #[error("timestamp {at} is outside node {node}, which runs from {entry} to {exit}")]
    OutsideNode {
        node: NodeId,
        at: Timestamp,
        entry: Timestamp,
        exit: Timestamp,
    },
}

pub type OmniResult<T> = Result<T, OmniError>;

impl OmniError {
    /// The error for a node the trace does not have: a projected node of the execution forest
    /// (ids from `tree::FOREST_BASE`) is named as such.
    pub fn missing(node: NodeId) -> OmniError {
        if node.0 >= crate::tree::FOREST_BASE {
            OmniError::ForestNode(node)
        } else {
            OmniError::NoCall(node)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_projected_node_is_refused_by_name() {
        let e = OmniError::missing(NodeId(crate::tree::FOREST_BASE + 3));
        assert!(
            e.to_string()
                .contains("projected node of the execution forest"),
            "{e}"
        );
        assert!(matches!(
            OmniError::missing(NodeId(5)),
            OmniError::NoCall(NodeId(5))
        ));
    }
}
