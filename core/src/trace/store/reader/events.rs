//! Events from the blocks: the event at a timestamp, a node's events by pages, the lines a
//! node executed itself.

use std::sync::Arc;

use rusqlite::OptionalExtension;

use super::{BlockRef, TraceReader};
use crate::ids::{NodeId, ThreadId, Timestamp};
use crate::trace::store::block::{decode_block, BlockEvent};
use crate::trace::store::error::StoreResult;
use crate::trace::wire::{Event, EventKind};
use crate::tree::NodeKind;

/// An event of a node's event list.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeEvent {
    pub event: Event,
    /// The node that executed it: the node itself, or a child for the child's call and exit.
    pub node: NodeId,
    /// The line the node was executing; for a child's call or exit marker, the line of the call
    /// site in the node.
    pub line: u32,
    /// `false` for a child's call or exit event, shown as a marker in the parent's list.
    pub own: bool,
}

/// An event with where it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct EventAt {
    pub thread: ThreadId,
    pub node: NodeId,
    pub depth: u32,
    pub line: u32,
    pub event: Event,
}

impl TraceReader {
    fn decoded_block(
        &self,
        id: i64,
        first_ts: u64,
        stack: &[u8],
        data: &[u8],
    ) -> StoreResult<Arc<Vec<BlockEvent>>> {
        if let Some(events) = self.block_cache.borrow_mut().get(id) {
            return Ok(events);
        }
        let events = Arc::new(
            decode_block(stack, data, first_ts)
                .map_err(|e| self.corrupt(&format!("event block {id}"), e.problem))?,
        );
        self.block_cache
            .borrow_mut()
            .put(id, events.clone(), self.held);
        Ok(events)
    }

    fn load_block(&self, id: i64) -> StoreResult<Arc<Vec<BlockEvent>>> {
        if let Some(events) = self.block_cache.borrow_mut().get(id) {
            return Ok(events);
        }
        let (first_ts, stack, data): (i64, Vec<u8>, Vec<u8>) = self
            .conn
            .prepare_cached("SELECT first_ts, start_stack, data FROM blocks WHERE id = ?1")
            .and_then(|mut s| s.query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))))
            .map_err(self.err("reading an event block"))?;
        self.decoded_block(id, first_ts as u64, &stack, &data)
    }

    /// The block of `thread` holding `ts` if any, else the first after it: its id and first
    /// timestamp.
    fn block_holding(&self, thread: ThreadId, ts: Timestamp) -> StoreResult<Option<(i64, i64)>> {
        if let Some(dir) = self.block_directory(thread)? {
            let i = dir.partition_point(|b| b.last_ts < ts);
            return Ok(dir.get(i).map(|b| (b.id, b.first_ts as i64)));
        }
        self.conn
            .prepare_cached("SELECT id, first_ts FROM blocks WHERE thread = ?1 AND last_ts >= ?2 ORDER BY last_ts LIMIT 1")
            .and_then(|mut s| s.query_row([i64::from(thread.0), ts as i64], |r| Ok((r.get(0)?, r.get(1)?))).optional())
            .map_err(self.err("finding an event block"))
    }

    /// The blocks of `thread` by `last_ts`, read once, when the reader is held (the trace is
    /// finished, its blocks never change): a walk of a small call then costs no query. `None`
    /// for a trace being written, read query by query.
    fn block_directory(&self, thread: ThreadId) -> StoreResult<Option<Arc<Vec<BlockRef>>>> {
        if !self.held {
            return Ok(None);
        }
        let mut dir = self.blocks.borrow_mut();
        if dir.is_none() {
            let mut by_thread: std::collections::HashMap<ThreadId, Vec<BlockRef>> =
                std::collections::HashMap::new();
            let mut st = self
                .conn
                .prepare_cached(
                    "SELECT id, thread, first_ts, last_ts, min_depth FROM blocks ORDER BY thread, last_ts",
                )
                .map_err(self.err("finding event blocks"))?;
            let rows = st
                .query_map([], |r| {
                    Ok((
                        ThreadId(r.get(1)?),
                        BlockRef {
                            id: r.get(0)?,
                            first_ts: r.get::<_, i64>(2)? as u64,
                            last_ts: r.get::<_, i64>(3)? as u64,
                            min_depth: r.get(4)?,
                        },
                    ))
                })
                .map_err(self.err("finding event blocks"))?;
            for row in rows {
                let (thread, block) = row.map_err(self.err("finding event blocks"))?;
                by_thread.entry(thread).or_default().push(block);
            }
            *dir = Some(
                by_thread
                    .into_iter()
                    .map(|(t, b)| (t, Arc::new(b)))
                    .collect(),
            );
        }
        Ok(Some(
            dir.as_ref()
                .and_then(|d| d.get(&thread).cloned())
                .unwrap_or_default(),
        ))
    }

    /// The event of `thread` at `ts`, with its node, depth and line.
    pub fn thread_event_at(
        &self,
        thread: ThreadId,
        ts: Timestamp,
    ) -> StoreResult<Option<BlockEvent>> {
        let Some((id, first_ts)) = self.block_holding(thread, ts)? else {
            return Ok(None);
        };
        if first_ts as u64 > ts {
            return Ok(None);
        }
        let events = self.load_block(id)?;
        Ok(events
            .binary_search_by_key(&ts, |e| e.event.ts)
            .ok()
            .map(|i| events[i].clone()))
    }

    /// Walks the events of `thread` backwards from `ts` (inclusive) down to `floor`
    /// (inclusive), newest first, skipping blocks whose events all lie deeper than `max_depth`
    /// (the block holding `ts` is always read). `visit` returns `false` to stop.
    pub fn walk_back(
        &self,
        thread: ThreadId,
        ts: Timestamp,
        floor: Timestamp,
        max_depth: u32,
        mut visit: impl FnMut(&BlockEvent) -> bool,
    ) -> StoreResult<()> {
        let mut visit_block = |id: i64| -> StoreResult<bool> {
            for e in self.load_block(id)?.iter().rev() {
                if e.event.ts > ts {
                    continue;
                }
                if e.event.ts < floor || !visit(e) {
                    return Ok(false);
                }
            }
            Ok(true)
        };
        let holding = self.block_holding(thread, ts)?;
        // Blocks whose last event is before `below` come next.
        let mut below = match holding {
            Some((id, first)) if first as u64 <= ts => {
                if !visit_block(id)? {
                    return Ok(());
                }
                first
            }
            _ => ts.saturating_add(1).min(i64::MAX as u64) as i64,
        };
        loop {
            let mut rows: Vec<(i64, i64)> = Vec::new();
            {
                let mut st = self
                    .conn
                    .prepare_cached(
                        "SELECT id, first_ts FROM blocks WHERE thread = ?1 AND last_ts < ?2 AND last_ts >= ?3 AND min_depth <= ?4
                         ORDER BY last_ts DESC LIMIT 16",
                    )
                    .map_err(self.err("finding event blocks"))?;
                let found = st
                    .query_map(
                        [
                            i64::from(thread.0),
                            below,
                            floor as i64,
                            i64::from(max_depth),
                        ],
                        |r| Ok((r.get(0)?, r.get(1)?)),
                    )
                    .map_err(self.err("finding event blocks"))?;
                for r in found {
                    rows.push(r.map_err(self.err("finding event blocks"))?);
                }
            }
            let Some(&(_, last_first)) = rows.last() else {
                return Ok(());
            };
            for (id, _) in rows {
                if !visit_block(id)? {
                    return Ok(());
                }
            }
            below = last_first;
        }
    }

    /// The event at `ts`, whichever thread it is in.
    pub fn event_at(&self, ts: Timestamp) -> StoreResult<Option<EventAt>> {
        for (thread, _) in self.threads()? {
            if let Some(e) = self.thread_event_at(thread.id, ts)? {
                return Ok(Some(EventAt {
                    thread: thread.id,
                    node: e.node,
                    depth: e.depth,
                    line: e.line,
                    event: e.event,
                }));
            }
        }
        Ok(None)
    }

    /// Walks the events of node `id` from `from` on, in timestamp order: its own events and its
    /// children's call and exit events. `visit` returns `false` to stop.
    /// With `subtree`, every event of the thread inside the node's interval is visited (own ones
    /// flagged `true`).
    fn scan_node(
        &self,
        id: NodeId,
        from: Timestamp,
        subtree: bool,
        mut visit: impl FnMut(&BlockEvent, bool) -> bool,
    ) -> StoreResult<()> {
        let Some(row) = self.node(id)? else {
            return Ok(());
        };
        let Some(thread) = row.header.thread else {
            return Ok(());
        };
        let start = from.max(row.header.entry);
        let end = row.header.exit.unwrap_or(u64::MAX);
        let d = row.depth;
        // A loop or an iteration runs in its call's frame: the frame's events are its own.
        let frame = if row.header.kind.is_loop() {
            self.frame_of(id)?.map_or(id, |f| f.header.id)
        } else {
            id
        };
        // Blocks entirely below the children's level hold nothing a node list shows.
        let max_min_depth = if subtree { i64::MAX } else { i64::from(d) + 1 };
        let mut blocks: Vec<(i64, u64)> = Vec::new();
        let mut after = start;
        loop {
            // Blocks in pages, so that no statement stays open while blocks are decoded.
            blocks.clear();
            if let Some(dir) = self.block_directory(thread)? {
                let from = dir.partition_point(|b| b.last_ts < after);
                for b in dir[from..]
                    .iter()
                    .filter(|b| i64::from(b.min_depth) <= max_min_depth)
                    .take(64)
                {
                    if b.first_ts > end {
                        break;
                    }
                    blocks.push((b.id, b.last_ts));
                }
            } else {
                let mut st = self
                    .conn
                    .prepare_cached(
                        "SELECT id, first_ts, last_ts FROM blocks WHERE thread = ?1 AND last_ts >= ?2 AND min_depth <= ?3
                         ORDER BY last_ts LIMIT 64",
                    )
                    .map_err(self.err("finding event blocks"))?;
                let rows = st
                    .query_map([i64::from(thread.0), after as i64, max_min_depth], |r| {
                        Ok((
                            r.get::<_, i64>(0)?,
                            r.get::<_, i64>(1)? as u64,
                            r.get::<_, i64>(2)? as u64,
                        ))
                    })
                    .map_err(self.err("finding event blocks"))?;
                for r in rows {
                    let (id, first, last) = r.map_err(self.err("finding event blocks"))?;
                    if first > end {
                        break;
                    }
                    blocks.push((id, last));
                }
            }
            if blocks.is_empty() {
                return Ok(());
            }
            for &(block, _) in &blocks {
                let events = self.load_block(block)?;
                // Events are in timestamp order: a small call's start is found, not walked to.
                let from = events.partition_point(|e| e.event.ts < start);
                for e in &events[from..] {
                    let ts = e.event.ts;
                    if ts > end {
                        return Ok(());
                    }
                    let own = e.depth == d && e.node == frame;
                    let marker = if subtree {
                        e.depth > d
                    } else {
                        e.depth == d + 1 && (e.event.kind.is_call() || e.event.kind.is_exit())
                    };
                    if (own || marker) && !visit(e, own) {
                        return Ok(());
                    }
                }
            }
            let last = blocks.last().map_or(u64::MAX, |b| b.1);
            if last == u64::MAX || last >= end {
                return Ok(());
            }
            after = last + 1;
        }
    }

    /// Visits every event of node `id` and of the nodes below it in timestamp order (the reads
    /// and `BLOCK` events included) until `visit` returns false.
    pub fn visit_subtree(
        &self,
        id: NodeId,
        mut visit: impl FnMut(&Event) -> bool,
    ) -> StoreResult<()> {
        self.scan_node(id, 0, true, |e, _| visit(&e.event))
    }

    /// Up to `limit` events of node `id` with timestamp `>= from` (pass the last timestamp of
    /// the previous page + 1 to get the next page). `BLOCK` and read events, which are there
    /// for coverage, are left out (see `node_events_all`).
    pub fn node_events(
        &self,
        id: NodeId,
        from: Timestamp,
        limit: usize,
    ) -> StoreResult<Vec<NodeEvent>> {
        self.node_events_filtered(id, from, limit, true)
    }

    /// `node_events` with the `BLOCK` and read events too.
    pub fn node_events_all(
        &self,
        id: NodeId,
        from: Timestamp,
        limit: usize,
    ) -> StoreResult<Vec<NodeEvent>> {
        self.node_events_filtered(id, from, limit, false)
    }

    fn node_events_filtered(
        &self,
        id: NodeId,
        from: Timestamp,
        limit: usize,
        skip_coverage: bool,
    ) -> StoreResult<Vec<NodeEvent>> {
        let mut out = Vec::new();
        if limit == 0 {
            return Ok(out);
        }
        self.scan_node(id, from, false, |e, own| {
            let mut event = e.event.clone();
            if skip_coverage {
                match e.event.kind {
                    // A block that starts a line stands for its `LINE` event (wire format 2).
                    EventKind::Block { line: l @ 1.., .. } => event.kind = EventKind::Line(l),
                    ref k if is_coverage_event(k) => return true,
                    _ => {}
                }
            }
            out.push(NodeEvent {
                event,
                node: e.node,
                line: if own { e.line } else { e.parent_line },
                own,
            });
            out.len() < limit
        })?;
        Ok(out)
    }

    /// Up to `limit` events with timestamp `>= from` of node `id` and of every node below it,
    /// in timestamp order (`own` is `true` for the node's own events).
    pub fn subtree_events(
        &self,
        id: NodeId,
        from: Timestamp,
        limit: usize,
    ) -> StoreResult<Vec<NodeEvent>> {
        let mut out = Vec::new();
        if limit == 0 {
            return Ok(out);
        }
        self.scan_node(id, from, true, |e, own| {
            out.push(NodeEvent {
                event: e.event.clone(),
                node: e.node,
                line: if own { e.line } else { e.parent_line },
                own,
            });
            out.len() < limit
        })?;
        Ok(out)
    }

    /// The source lines node `id` executed itself, sorted: its own `LINE` events (and blocks
    /// that start a line), not its callees' and not those inside its loops and iterations
    /// (the buggy code of Lemma 1 of the generalized-AD paper: the node's code minus its
    /// children's). A loop has none of its own (its iterations run all of it); an iteration
    /// that starts on a block without a line of its own (a loop's test) also has the line the
    /// frame was on then.
    pub fn node_lines(&self, id: NodeId) -> StoreResult<Vec<u32>> {
        let mut lines = std::collections::BTreeSet::new();
        let Some(row) = self.node(id)? else {
            return Ok(Vec::new());
        };
        if row.header.kind == NodeKind::Loop {
            return Ok(Vec::new());
        }
        let inner: Vec<(Timestamp, Timestamp)> = self
            .loop_children(id)?
            .iter()
            .map(|c| (c.header.entry, c.header.exit.unwrap_or(Timestamp::MAX)))
            .collect();
        let mut first = row.header.kind == NodeKind::Iteration;
        self.scan_node(id, 0, false, |e, own| {
            if !own {
                return true;
            }
            let ts = e.event.ts;
            if inner.iter().any(|&(a, b)| a <= ts && ts <= b) {
                return true;
            }
            // A block that starts a line stands for its `LINE` event (wire format 2).
            match &e.event.kind {
                EventKind::Line(l) | EventKind::Block { line: l @ 1.., .. } => {
                    lines.insert(*l);
                }
                _ if first && e.line != 0 => {
                    lines.insert(e.line);
                }
                _ => {}
            }
            first = false;
            true
        })?;
        Ok(lines.into_iter().collect())
    }
}

/// Events kept for coverage only: `BLOCK` and the reads.
pub fn is_coverage_event(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::Block { .. }
            | EventKind::FieldRead { .. }
            | EventKind::ArrayRead { .. }
            | EventKind::StaticRead { .. }
    )
}
