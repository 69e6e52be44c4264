//! Where a write happened: the event at its timestamp, the node and line that executed it, and
//! the statement's start (the line event before it), found by walking the thread's events back.

use super::error::OmniResult;
use super::Variable;
use crate::ids::{NodeId, ThreadId, Timestamp};
use crate::trace::store::{BlockEvent, TraceReader};
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

/// The site of the write of `loc` at `ts`; `None` when no event of the trace is at `ts`.
pub fn write_site(
    reader: &TraceReader,
    loc: Variable,
    ts: Timestamp,
) -> OmniResult<Option<WriteSite>> {
    let found = match loc {
        Variable::Local { node, .. } => match reader.node(node)?.and_then(|r| r.header.thread) {
            Some(thread) => reader.thread_event_at(thread, ts)?.map(|e| (thread, e)),
            None => None,
        },
        _ => match reader.event_at(ts)? {
            Some(e) => reader.thread_event_at(e.thread, ts)?.map(|b| (e.thread, b)),
            None => None,
        },
    };
    let Some((thread, e)) = found else {
        return Ok(None);
    };
    if e.event.kind.is_call() {
        // An argument: the caller's code at its current line wrote it.
        let caller = reader
            .node(e.node)?
            .and_then(|r| r.header.parent)
            .unwrap_or(NodeId::ROOT);
        let line = own_event_before(reader, thread, caller, ts, |_| true)?.map_or(0, |b| b.line);
        return Ok(Some(WriteSite {
            ts,
            thread,
            node: caller,
            line,
            event: e.event,
            callee: Some(e.node),
        }));
    }
    Ok(Some(WriteSite {
        ts,
        thread,
        node: e.node,
        line: e.line,
        event: e.event,
        callee: None,
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
