//! Nodes: by id, children by pages, preorder, and a node's detail (arguments, `this`, result).

use std::collections::VecDeque;

use rusqlite::OptionalExtension;
use serde::{Deserialize, Serialize};

use std::sync::Arc;

use super::TraceReader;
use crate::ids::{NodeId, ThreadId};
use crate::trace::store::error::StoreResult;
use crate::trace::store::node_pages::{
    decode_page, find_in_page, read_children, NodePage, CHILDREN_PER_CHUNK,
};
use crate::trace::store::{NodeRow, Outcome};
use crate::trace::wire::{ByteReader, EventKind, MethodDef, Value};
use crate::tree::NodeKind;

/// Decoded node pages kept by a reader (a page is never rewritten once committed).
const CACHED_PAGES: usize = 4;
/// The same for a held reader, whose every node read may come from a decoded page (the
/// reference oracle reads the calls of a method all over the run): about 16 KiB each.
const CACHED_PAGES_HELD: usize = 2048;

/// Decoded node pages by their first id. A full cache forgets the oldest page, or for a held
/// reader an arbitrary one, so that sweeps over more pages than it holds still find most of
/// them.
#[derive(Default)]
pub(super) struct NodePageCache {
    pages: std::collections::BTreeMap<u32, (u32, Arc<NodePage>)>,
    order: VecDeque<u32>,
    evictions: u64,
}

impl NodePageCache {
    fn get(&self, id: NodeId) -> Option<Arc<NodePage>> {
        self.pages
            .range(..=id.0)
            .next_back()
            .filter(|(_, (last, _))| id.0 <= *last)
            .map(|(_, (_, page))| Arc::clone(page))
    }

    fn put(&mut self, first: u32, last: u32, page: Arc<NodePage>, held: bool) {
        let capacity = if held {
            CACHED_PAGES_HELD
        } else {
            CACHED_PAGES
        };
        while self.pages.len() >= capacity {
            // The oldest, or (held) an arbitrary one: a counter's hash.
            let at = if held {
                self.evictions = self.evictions.wrapping_add(0x9e37_79b9_7f4a_7c15);
                (self.evictions >> 33) as usize % self.order.len().max(1)
            } else {
                0
            };
            let Some(old) = self.order.remove(at) else {
                break;
            };
            self.pages.remove(&old);
        }
        if self.pages.insert(first, (last, page)).is_none() {
            self.order.push_back(first);
        }
    }
}

/// An argument of a call, by position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Argument {
    /// The variable's name; `arg0`, `arg1`... (receiver not counted) for a method of
    /// uninstrumented code or one without its variables.
    pub name: String,
    pub value: Value,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "kebab-case")]
pub enum NodeResult {
    Returned(Value),
    Threw(Value),
}

/// What a call node was given and what it gave back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeDetail {
    pub row: NodeRow,
    pub method: Option<MethodDef>,
    /// The receiver of an instance call (a constructor's, once `THIS` set it).
    pub this: Option<Value>,
    /// Arguments at entry, without `this`.
    pub args: Vec<Argument>,
    /// `None` while the node is incomplete.
    pub result: Option<NodeResult>,
    /// The line of the caller that made the call (0 when unknown).
    #[serde(default)]
    pub call_line: u32,
    /// The line the call was executing when it returned or unwound (0 when unknown).
    #[serde(default)]
    pub exit_line: u32,
}

impl TraceReader {
    /// The stored page holding `id`, still compressed: (first id, last id, data).
    fn stored_page(&self, id: NodeId) -> StoreResult<Option<(u32, u32, Vec<u8>)>> {
        let row: Option<(u32, u32, Vec<u8>)> = self
            .conn
            .prepare_cached(
                "SELECT first, last, data FROM node_pages WHERE first <= ?1 ORDER BY first DESC LIMIT 1",
            )
            .and_then(|mut s| {
                s.query_row([id.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                    .optional()
            })
            .map_err(self.err("reading a node page"))?;
        Ok(row.filter(|r| r.1 >= id.0))
    }

    /// The decoded page holding `id` (`None` past the last committed page), from a small cache.
    fn node_page(&self, id: NodeId) -> StoreResult<Option<Arc<NodePage>>> {
        if let Some(page) = self.node_pages.borrow().get(id) {
            return Ok(Some(page));
        }
        let Some((first, last, data)) = self.stored_page(id)? else {
            return Ok(None);
        };
        let page = Arc::new(
            decode_page(&data)
                .map_err(|e| self.corrupt(&format!("node page {first}"), e.problem))?,
        );
        self.node_pages
            .borrow_mut()
            .put(first, last, Arc::clone(&page), self.held);
        Ok(Some(page))
    }

    /// A node of a page, with its end from `node_ends` when it completed after its page.
    fn page_row(&self, page: &NodePage, i: usize) -> StoreResult<NodeRow> {
        let row = page.rows[i].clone();
        if page.open(i) {
            self.with_end(row)
        } else {
            Ok(row)
        }
    }

    /// A node that was open when its page was written, with its end if it has one now.
    fn with_end(&self, mut row: NodeRow) -> StoreResult<NodeRow> {
        let end: Option<(i64, Option<i64>)> = self
            .conn
            .prepare_cached("SELECT exit_ts, outcome FROM node_ends WHERE id = ?1")
            .and_then(|mut s| {
                s.query_row([row.header.id.0], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()
            })
            .map_err(self.err("reading the end of a node"))?;
        if let Some((exit, outcome)) = end {
            row.header.exit = Some(exit as u64);
            row.outcome = outcome.map(|o| {
                if o == 0 {
                    Outcome::Returned
                } else {
                    Outcome::Threw
                }
            });
        }
        Ok(row)
    }

    /// A node by id: from a cached page, else read from its page without decoding the rest (a
    /// history asks for nodes scattered over the run).
    pub fn node(&self, id: NodeId) -> StoreResult<Option<NodeRow>> {
        let cached = self.node_pages.borrow().get(id);
        let cached = match cached {
            None if self.held => self.node_page(id)?,
            c => c,
        };
        if let Some(page) = cached {
            return match page.find(id) {
                Some(i) => self.page_row(&page, i).map(Some),
                None => Ok(None),
            };
        }
        let Some((first, _, data)) = self.stored_page(id)? else {
            return Ok(None);
        };
        let found = find_in_page(&data, id)
            .map_err(|e| self.corrupt(&format!("node page {first}"), e.problem))?;
        match found {
            Some((row, true)) => self.with_end(row).map(Some),
            Some((row, false)) => Ok(Some(row)),
            None => Ok(None),
        }
    }

    /// The call whose frame `id` runs in: the node itself, or for a loop or an iteration the
    /// nearest call above it.
    pub fn frame_of(&self, id: NodeId) -> StoreResult<Option<NodeRow>> {
        let mut row = self.node(id)?;
        while let Some(r) = &row {
            if !r.header.kind.is_loop() {
                break;
            }
            row = match r.header.parent {
                Some(p) => self.node(p)?,
                None => None,
            };
        }
        Ok(row)
    }

    /// The loops and iterations directly below `id` (they run in its frame), in order.
    pub fn loop_children(&self, id: NodeId) -> StoreResult<Vec<NodeRow>> {
        let mut out = self.children(id, 0, u64::MAX)?;
        out.retain(|c| c.header.kind.is_loop());
        Ok(out)
    }

    /// Several nodes read in one transaction, so that they come from one consistent state of a
    /// trace being written (`None` for an id not stored yet).
    pub fn nodes(&self, ids: &[NodeId]) -> StoreResult<Vec<Option<NodeRow>>> {
        if !self.conn.is_autocommit() {
            // Already in the reader's one read transaction (a finished trace).
            return ids.iter().map(|&id| self.node(id)).collect();
        }
        self.conn
            .execute_batch("BEGIN")
            .map_err(self.err("reading nodes"))?;
        let rows: StoreResult<Vec<_>> = ids.iter().map(|&id| self.node(id)).collect();
        let end = self
            .conn
            .execute_batch("COMMIT")
            .map_err(self.err("reading nodes"));
        let rows = rows?;
        end?;
        Ok(rows)
    }

    /// The ids of `id`'s children in call order, `limit` of them from `offset`: from its page
    /// when it was complete there, else from its `node_children` chunks.
    fn child_ids(&self, id: NodeId, offset: u64, limit: u64) -> StoreResult<Vec<NodeId>> {
        let Some(page) = self.node_page(id)? else {
            return Ok(Vec::new());
        };
        let Some(i) = page.find(id) else {
            return Ok(Vec::new());
        };
        let take = |ids: &[NodeId], from: u64| -> Vec<NodeId> {
            let from = from.min(ids.len() as u64) as usize;
            let to = (from as u64).saturating_add(limit).min(ids.len() as u64) as usize;
            ids[from..to].to_vec()
        };
        if let Some(ids) = page.children(i) {
            return Ok(take(ids, offset));
        }
        // Every chunk but the last holds CHILDREN_PER_CHUNK ids.
        let per = CHILDREN_PER_CHUNK as u64;
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT chunk, data FROM node_children WHERE parent = ?1 AND chunk >= ?2 ORDER BY chunk",
            )
            .map_err(self.err("reading children"))?;
        let mut rows = st
            .query([i64::from(id.0), (offset / per).min(i64::MAX as u64) as i64])
            .map_err(self.err("reading children"))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(self.err("reading children"))? {
            if out.len() as u64 >= limit {
                break;
            }
            let chunk: i64 = r.get(0).map_err(self.err("reading children"))?;
            let data: Vec<u8> = r.get(1).map_err(self.err("reading children"))?;
            let mut ids = Vec::new();
            read_children(&mut ByteReader::new(&data), id, &mut ids).map_err(|e| {
                self.corrupt(&format!("children of node {id}, chunk {chunk}"), e.problem)
            })?;
            let from = offset.saturating_sub(chunk as u64 * per);
            let want = limit - out.len() as u64;
            let got = take(&ids, from);
            out.extend(got.into_iter().take(want as usize));
        }
        Ok(out)
    }

    /// Children in call order, `limit` of them from `offset`.
    pub fn children(&self, id: NodeId, offset: u64, limit: u64) -> StoreResult<Vec<NodeRow>> {
        // Children are near each other: their pages are decoded once, through the cache.
        let mut out = Vec::new();
        for c in self.child_ids(id, offset, limit)? {
            let Some(page) = self.node_page(c)? else {
                continue;
            };
            if let Some(i) = page.find(c) {
                out.push(self.page_row(&page, i)?);
            }
        }
        Ok(out)
    }

    /// The position of child `child` among `parent`'s children, from 0 (the number of
    /// children when it is none of them).
    pub fn child_index(&self, parent: NodeId, child: NodeId) -> StoreResult<u64> {
        // Children are in call order, which is id order: bisect the ids.
        let (mut lo, mut hi) = (0, self.child_count(parent)?);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.child_ids(parent, mid, 1)?.first() {
                Some(c) if *c < child => lo = mid + 1,
                _ => hi = mid,
            }
        }
        Ok(lo)
    }

    pub fn child_count(&self, id: NodeId) -> StoreResult<u64> {
        let Some(page) = self.node_page(id)? else {
            return Ok(0);
        };
        let Some(i) = page.find(id) else {
            return Ok(0);
        };
        if let Some(ids) = page.children(i) {
            return Ok(ids.len() as u64);
        }
        self.conn
            .prepare_cached("SELECT coalesce(sum(count), 0) FROM node_children WHERE parent = ?1")
            .and_then(|mut s| s.query_row([id.0], |r| r.get::<_, i64>(0)))
            .map(|n| n as u64)
            .map_err(self.err("counting children"))
    }

    /// Every stored node in preorder (the root, then each thread's subtree), read in pages.
    pub fn preorder(&self) -> Preorder<'_> {
        Preorder {
            reader: self,
            threads: None,
            buffer: VecDeque::new(),
            thread_index: 0,
            last_id: None,
            root_done: false,
        }
    }

    /// Each thread with its thread node, in node order.
    fn thread_nodes(&self) -> StoreResult<Vec<(ThreadId, NodeId)>> {
        Ok(self
            .children(NodeId::ROOT, 0, u64::MAX)?
            .into_iter()
            .filter(|n| n.header.kind == NodeKind::Thread)
            .filter_map(|n| Some((n.header.thread?, n.header.id)))
            .collect())
    }

    /// Nodes of `thread` after `after` in id order, which is preorder within a thread: the
    /// pages from there on, skipping other threads' nodes.
    fn thread_page(
        &self,
        thread: ThreadId,
        after: Option<NodeId>,
        limit: usize,
    ) -> StoreResult<Vec<NodeRow>> {
        self.page_after(Some(thread), after, limit)
    }

    /// Up to `limit` stored nodes after `after` (from the root when `None`), in id order, read
    /// a page at a time: for scans of every node (SQL's `nodes`).
    pub fn nodes_after(&self, after: Option<NodeId>, limit: usize) -> StoreResult<Vec<NodeRow>> {
        self.page_after(None, after, limit)
    }

    /// Nodes after `after` in id order, of `thread` only when given.
    fn page_after(
        &self,
        thread: Option<ThreadId>,
        after: Option<NodeId>,
        limit: usize,
    ) -> StoreResult<Vec<NodeRow>> {
        let mut out = Vec::new();
        let mut next = after.map_or(Some(0), |a| a.0.checked_add(1));
        while let Some(id) = next {
            if out.len() >= limit {
                break;
            }
            let page = match self.node_page(NodeId(id))? {
                Some(p) => p,
                // A gap before the next page (ids no node took) or the end.
                None => match self.next_page_first(id)? {
                    Some(first) => {
                        next = Some(first);
                        continue;
                    }
                    None => break,
                },
            };
            for (i, r) in page.rows.iter().enumerate() {
                if r.header.id.0 >= id
                    && (thread.is_none() || r.header.thread == thread)
                    && out.len() < limit
                {
                    out.push(self.page_row(&page, i)?);
                }
            }
            next = page.rows.last().and_then(|r| r.header.id.0.checked_add(1));
        }
        Ok(out)
    }

    /// The first id of the first page after `id`.
    fn next_page_first(&self, id: u32) -> StoreResult<Option<u32>> {
        self.conn
            .prepare_cached("SELECT first FROM node_pages WHERE first > ?1 ORDER BY first LIMIT 1")
            .and_then(|mut s| s.query_row([id], |r| r.get(0)).optional())
            .map_err(self.err("reading a node page"))
    }

    /// Method, arguments, `this` and result of a call node (the root and thread nodes have
    /// none of them).
    pub fn node_detail(&self, id: NodeId) -> StoreResult<Option<NodeDetail>> {
        let Some(row) = self.node(id)? else {
            return Ok(None);
        };
        let mut detail = NodeDetail {
            method: None,
            this: None,
            args: Vec::new(),
            result: None,
            call_line: 0,
            exit_line: 0,
            row,
        };
        let h = detail.row.header.clone();
        let (Some(thread), Some(method_id)) = (h.thread, h.method) else {
            return Ok(Some(detail));
        };
        let method = self.method(method_id)?;
        if h.kind.is_loop() {
            // A fragment of its frame: no arguments, no result of its own.
            detail.method = method;
            return Ok(Some(detail));
        }
        if let Some(call) = self.thread_event_at(thread, h.entry)? {
            detail.call_line = call.parent_line;
            if let EventKind::Call { args, .. } | EventKind::ExtCall { args, .. } = call.event.kind
            {
                let receiver = method
                    .as_ref()
                    .is_some_and(|m| !m.is_static() && !m.is_constructor());
                for (i, v) in args.into_iter().enumerate() {
                    if receiver && i == 0 {
                        detail.this = Some(v);
                        continue;
                    }
                    let name = method
                        .as_ref()
                        .filter(|_| h.kind == NodeKind::Routine)
                        .and_then(|m| m.vars.get(m.arg_var(i) as usize))
                        .map_or_else(
                            || format!("arg{}", i - usize::from(receiver)),
                            |v| v.name.clone(),
                        );
                    detail.args.push(Argument { name, value: v });
                }
            }
        }
        if method.as_ref().is_some_and(|m| m.is_constructor()) && h.kind == NodeKind::Routine {
            let at = h.exit.unwrap_or(u64::MAX);
            detail.this = self.local_at(id, 0, at)?;
        }
        if let Some(exit) = h.exit {
            if let Some(ev) = self.thread_event_at(thread, exit)? {
                detail.exit_line = ev.line;
                detail.result = match ev.event.kind {
                    EventKind::Return(v) | EventKind::ExtReturn(v) => Some(NodeResult::Returned(v)),
                    EventKind::Unwind(v) | EventKind::ExtUnwind(v) => Some(NodeResult::Threw(v)),
                    _ => None,
                };
            }
        }
        detail.method = method;
        Ok(Some(detail))
    }
}

/// Streams nodes in preorder, a page at a time.
pub struct Preorder<'a> {
    reader: &'a TraceReader,
    threads: Option<Vec<(ThreadId, NodeId)>>,
    buffer: VecDeque<NodeRow>,
    thread_index: usize,
    last_id: Option<NodeId>,
    root_done: bool,
}

impl Preorder<'_> {
    fn fill(&mut self) -> StoreResult<()> {
        if !self.root_done {
            self.root_done = true;
            if let Some(root) = self.reader.node(NodeId::ROOT)? {
                self.buffer.push_back(root);
                return Ok(());
            }
        }
        if self.threads.is_none() {
            self.threads = Some(self.reader.thread_nodes()?);
        }
        let threads = self.threads.as_deref().unwrap_or(&[]);
        while self.buffer.is_empty() && self.thread_index < threads.len() {
            let (thread, node) = threads[self.thread_index];
            // A thread's nodes start at its thread node.
            let after = self.last_id.or(node.0.checked_sub(1).map(NodeId));
            let page = self.reader.thread_page(thread, after, 1024)?;
            match page.last() {
                Some(last) => self.last_id = Some(last.header.id),
                None => {
                    self.thread_index += 1;
                    self.last_id = None;
                }
            }
            self.buffer.extend(page);
        }
        Ok(())
    }
}

impl Iterator for Preorder<'_> {
    type Item = StoreResult<NodeRow>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.buffer.is_empty() {
            if let Err(e) = self.fill() {
                self.thread_index = usize::MAX;
                return Some(Err(e));
            }
        }
        self.buffer.pop_front().map(Ok)
    }
}
