use serde::{Deserialize, Serialize};

use crate::ids::{MethodId, NodeId, ThreadId, Timestamp};

/// What an execution node stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeKind {
    /// The whole run (node 0). Never asked; assumed invalid, since the user debugs a wrong run.
    Root,
    /// One thread of the debuggee, child of the root. Never asked.
    Thread,
    /// A call of an instrumented (application) method.
    Routine,
    /// A call from application code into uninstrumented code (the JDK); trusted by default.
    /// Its children are the application callbacks it made (a comparator, a `Runnable`).
    External,
    /// One execution of a loop of a method (loop expansion, generalized-AD paper): its children
    /// are its iterations. Its method is the enclosing call's, whose frame it runs in.
    Loop,
    /// One iteration of a loop: from an entry of the loop's header to the next one or to the
    /// loop's exit; the calls it makes hang below it. The iterations of a loop are a chain
    /// (balanced-ET paper, Definition 7) by construction: each starts in the state the
    /// previous one left, in the same frame, with nothing in between.
    Iteration,
}

impl NodeKind {
    /// Whether the node is a call (of application or uninstrumented code).
    pub fn is_call(self) -> bool {
        matches!(self, NodeKind::Routine | NodeKind::External)
    }

    /// Whether the node is an execution node a strategy may ask about: a call, a loop or an
    /// iteration (root and thread nodes are never asked).
    pub fn is_askable(self) -> bool {
        self.is_call() || self.is_loop()
    }

    /// Whether the node is a loop or an iteration: a fragment of its method's frame.
    pub fn is_loop(self) -> bool {
        matches!(self, NodeKind::Loop | NodeKind::Iteration)
    }
}

/// The part of a node that the tree needs: where it hangs and when it ran.
///
/// The recorder emits a header when a node starts (with `exit == None`) and again when it
/// completes. Values (arguments, results, writes) stay in the trace store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeHeader {
    pub id: NodeId,
    /// `None` only for the root.
    pub parent: Option<NodeId>,
    pub kind: NodeKind,
    /// `None` for the root and thread nodes.
    pub method: Option<MethodId>,
    pub thread: Option<ThreadId>,
    /// Timestamp of the call event (for root and thread nodes, of their first event).
    pub entry: Timestamp,
    /// Timestamp of the return or unwind event; `None` while the node is incomplete.
    pub exit: Option<Timestamp>,
}

impl NodeHeader {
    pub fn is_complete(&self) -> bool {
        self.exit.is_some()
    }
}
