//! A session that leaves loops out (`DebugOptions::loops` false, `--no-loops`) asks about the
//! tree of calls alone: loop and iteration nodes are not taken into the session's tree, the
//! calls made in them hang below their frame's call, and calls link into chains by
//! `NodeHeader::frame_chained` (the frame's previous call, through loops), since the calls of
//! different iterations become siblings. Ids keep their meaning: the trace still has the loop
//! nodes, and the views of a node read the trace.

use std::collections::HashMap;

use crate::ids::NodeId;
use crate::tree::NodeHeader;

/// The headers as a session without loops takes them in.
#[derive(Debug, Default)]
pub(super) struct LoopSplice {
    /// Each loop or iteration node seen: the call whose frame it runs in.
    frames: HashMap<NodeId, NodeId>,
}

impl LoopSplice {
    /// `h` as the session takes it: `None` for a loop or an iteration, else with its parent
    /// the frame's call and its chain link the frame's. A loop node always comes before what
    /// runs in it (ids grow in preorder within a thread).
    pub(super) fn header(&mut self, h: &NodeHeader) -> Option<NodeHeader> {
        let frame = |p: NodeId| self.frames.get(&p).copied().unwrap_or(p);
        if h.kind.is_loop() {
            let f = h.parent.map(frame)?;
            self.frames.insert(h.id, f);
            return None;
        }
        let mut out = h.clone();
        out.parent = h.parent.map(frame);
        if h.kind.is_call() {
            out.chained = h.frame_chained;
        }
        Some(out)
    }

    /// Whether `node` is a loop or an iteration the session left out.
    pub(super) fn left_out(&self, node: NodeId) -> bool {
        self.frames.contains_key(&node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{MethodId, ThreadId};
    use crate::tree::NodeKind;

    fn header(id: u32, parent: u32, kind: NodeKind, chained: bool, frame: bool) -> NodeHeader {
        NodeHeader {
            id: NodeId(id),
            parent: Some(NodeId(parent)),
            kind,
            method: Some(MethodId(1)),
            thread: Some(ThreadId(1)),
            entry: u64::from(id),
            exit: None,
            chained,
            frame_chained: frame,
        }
    }

    #[test]
    fn calls_in_iterations_hang_below_their_frame_and_chain_through_loops() {
        let mut s = LoopSplice::default();
        let call = header(2, 1, NodeKind::Routine, false, false);
        assert_eq!(s.header(&call), Some(call.clone()));
        assert_eq!(s.header(&header(3, 2, NodeKind::Loop, false, false)), None);
        assert_eq!(
            s.header(&header(4, 3, NodeKind::Iteration, false, false)),
            None
        );
        let first = s
            .header(&header(5, 4, NodeKind::Routine, false, false))
            .unwrap();
        assert_eq!(first.parent, Some(NodeId(2)));
        assert_eq!(
            s.header(&header(6, 3, NodeKind::Iteration, true, false)),
            None
        );
        // The second iteration's call: no sibling below its iteration, the first call's
        // successor in the frame.
        let second = s
            .header(&header(7, 6, NodeKind::Routine, false, true))
            .unwrap();
        assert_eq!((second.parent, second.chained), (Some(NodeId(2)), true));
        // Below a call made in a loop, nothing changes.
        let inner = s
            .header(&header(8, 7, NodeKind::Routine, true, true))
            .unwrap();
        assert_eq!((inner.parent, inner.chained), (Some(NodeId(7)), true));
        assert!(s.left_out(NodeId(6)) && !s.left_out(NodeId(7)));
    }
}
