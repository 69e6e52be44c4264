//! The state and the events of any node of the session's tree, as a UI's Node view and Event
//! List read them. A call, a loop or an iteration is read as the trace records it
//! (`omniscient::node_state`, `node_events`). A node of the execution forest, which the session
//! makes and the trace does not hold, is read over the recorded nodes it stands for: a chain of
//! calls by its context from the first call's entry to the last call's exit
//! (`omniscient::chain_state`), a run of iterations by its frame over the same span
//! (`omniscient::frame_state`), and its events are its parent's in that span (each call one
//! row, as a call's event list shows its children).

use super::{forest, DebugError, Debugger};
use crate::ids::{NodeId, Timestamp};
use crate::omniscient::{self, EventPage, NodeState, VarPath};
use crate::tree::NodeKind;

impl Debugger {
    /// The variables of `node` at `at` (its exit, or a running node's entry, when `None`), with
    /// the children of the paths in `expand` listed.
    pub fn node_state(
        &mut self,
        node: NodeId,
        at: Option<Timestamp>,
        expand: &[VarPath],
    ) -> Result<NodeState, DebugError> {
        let limits = self.options.limits;
        let Some(span) = self.forest_span(node)? else {
            return Ok(omniscient::node_state(
                self.reader()?,
                node,
                at,
                expand,
                limits,
            )?);
        };
        let tree = self.session.tree();
        let calls = (!tree.is_frame_fragment(node)).then(|| forest::calls(tree, node));
        let reader = self.reader()?;
        Ok(match calls {
            Some(calls) => omniscient::chain_state(reader, node, &calls, at, expand, limits)?,
            None => omniscient::frame_state(reader, node, span.0, span.1, at, expand, limits)?,
        })
    }

    /// Up to `limit` events of `node` from timestamp `from`, marked for `var`; the page's `next`
    /// is the `from` of the next page.
    pub fn node_events(
        &mut self,
        node: NodeId,
        from: Timestamp,
        limit: usize,
        var: Option<&VarPath>,
    ) -> Result<EventPage, DebugError> {
        let Some((first, last)) = self.forest_span(node)? else {
            return Ok(omniscient::node_events(
                self.reader()?,
                node,
                from,
                limit,
                var,
            )?);
        };
        let parent = self
            .session
            .tree()
            .recorded_parent(first)
            .ok_or(DebugError::UnknownNode(node))?;
        let reader = self.reader()?;
        let row = |n: NodeId| reader.node(n)?.ok_or(DebugError::UnknownNode(n));
        let (entry, exit) = (row(first)?.header.entry, row(last)?.header.exit);
        let exit = exit.unwrap_or(Timestamp::MAX);
        let mut page = omniscient::node_events(reader, parent, from.max(entry), limit, var)?;
        if let Some(cut) = page.events.iter().position(|e| e.timestamp > exit) {
            page.events.truncate(cut);
        }
        // The parent's line before its first event listed: the line that made the first call.
        if from <= entry {
            let call_line = reader.node_detail(first)?.map_or(0, |d| d.call_line);
            for e in page.events.iter_mut().take_while(|e| e.line.is_none()) {
                e.line = (call_line > 0).then_some(call_line);
            }
        }
        page.next = page.next.filter(|&n| n <= exit);
        page.node = node;
        Ok(page)
    }

    /// For a node of the execution forest, the first and last recorded nodes it stands for,
    /// once the trace holds them; `None` for a recorded node. An unknown node is an error.
    fn forest_span(&mut self, node: NodeId) -> Result<Option<(NodeId, NodeId)>, DebugError> {
        self.pump()?;
        let tree = self.session.tree();
        if !tree.contains(node) {
            return Err(DebugError::UnknownNode(node));
        }
        if !matches!(tree.kind(node), NodeKind::Collapsed | NodeKind::Projected) {
            return Ok(None);
        }
        let span = tree.span(node).ok_or(DebugError::UnknownNode(node))?;
        self.wait_visible(node)?;
        Ok(Some(span))
    }
}
