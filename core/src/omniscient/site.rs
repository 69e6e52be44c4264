//! Where a write happened: the event at its timestamp, the node and line that executed it (from
//! the change index), and the statement's start (the line event before it), found by walking
//! the thread's events back.

use super::error::OmniResult;
use crate::ids::{NodeId, ThreadId, Timestamp};
use crate::trace::store::{BlockEvent, TraceReader, Write};
use crate::trace::wire::Event;

/// Timestamps walked back looking for a node's own event: a statement has few events, but a
/// call on the line before may have many; past this the line stays unknown.
const MAX_WALK: u64 = 4096;

/// The code that performed a write.
#[derive(Clone, Debug, PartialEq)]
pub struct WriteSite {
    pub ts: Timestamp,
    pub thread: ThreadId,
    /// The node whose code wrote: for an argument (written by the `CALL` event), the caller.
    pub node: NodeId,
    /// The line that node was executing; 0 when unknown.
    pub line: u32,
    pub event: Event,
    /// For an argument, the called node that received it.
    pub callee: Option<NodeId>,
}

/// The site of a write of the change index: its writer (node and line) comes with it; the
/// event is read from the writer's thread. `None` when no event of the trace is at its
/// timestamp.
pub fn write_site(reader: &TraceReader, w: &Write) -> OmniResult<Option<WriteSite>> {
    let Some(thread) = reader.node(w.node)?.and_then(|r| r.header.thread) else {
        return Ok(None);
    };
    let Some(e) = reader.thread_event_at(thread, w.ts)? else {
        return Ok(None);
    };
    // An argument is written by the `CALL` event, which belongs to the called node.
    let callee = e.event.kind.is_call().then_some(e.node);
    Ok(Some(WriteSite {
        ts: w.ts,
        thread,
        node: w.node,
        line: w.line,
        event: e.event,
        callee,
    }))
}

/// The last event of `node` itself (not of its callees) before `ts` in `thread` that `accept`
/// takes, looking back at most [`MAX_WALK`] timestamps.
pub fn own_event_before(
    reader: &TraceReader,
    thread: ThreadId,
    node: NodeId,
    ts: Timestamp,
    accept: impl Fn(&BlockEvent) -> bool,
) -> OmniResult<Option<BlockEvent>> {
    let floor = reader.node(node)?.map_or(0, |r| r.header.entry);
    let mut t = ts;
    while t > floor && ts - t < MAX_WALK {
        t -= 1;
        if let Some(e) = reader.thread_event_at(thread, t)? {
            if e.node == node && !e.event.kind.is_call() && !e.event.kind.is_exit() && accept(&e) {
                return Ok(Some(e));
            }
        }
    }
    Ok(None)
}

/// The timestamp at which the statement that contains the write at `site` began: the node's
/// last `LINE` event at or before it (the write's own timestamp when none is found).
pub fn statement_start(reader: &TraceReader, site: &WriteSite) -> OmniResult<Timestamp> {
    // A statement starts with a LINE event or with a BLOCK that starts its line.
    let line = |e: &BlockEvent| {
        matches!(
            e.event.kind,
            crate::trace::wire::EventKind::Line(_)
                | crate::trace::wire::EventKind::Block { line: 1.., .. }
        )
    };
    Ok(
        own_event_before(reader, site.thread, site.node, site.ts + 1, line)?
            .map_or(site.ts, |e| e.event.ts),
    )
}
