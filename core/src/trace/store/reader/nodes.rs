//! Nodes: by id, children by pages, preorder, and a node's detail (arguments, `this`, result).

use std::collections::VecDeque;

use rusqlite::OptionalExtension;
use serde::{Deserialize, Serialize};

use super::TraceReader;
use crate::ids::{MethodId, NodeId, ThreadId};
use crate::trace::store::error::StoreResult;
use crate::trace::store::schema;
use crate::trace::store::{NodeRow, Outcome};
use crate::trace::wire::{EventKind, MethodDef, Value};
use crate::tree::{NodeHeader, NodeKind};

const COLUMNS: &str = "id, parent, kind, method, thread, depth, entry_ts, exit_ts, outcome";

fn row_to_node(r: &rusqlite::Row<'_>) -> rusqlite::Result<NodeRow> {
    let kind = match r.get::<_, i64>(2)? {
        schema::KIND_ROOT => NodeKind::Root,
        schema::KIND_THREAD => NodeKind::Thread,
        schema::KIND_ROUTINE => NodeKind::Routine,
        _ => NodeKind::External,
    };
    Ok(NodeRow {
        header: NodeHeader {
            id: NodeId(r.get(0)?),
            parent: r.get::<_, Option<u32>>(1)?.map(NodeId),
            kind,
            method: r.get::<_, Option<u32>>(3)?.map(MethodId),
            thread: r.get::<_, Option<u32>>(4)?.map(ThreadId),
            entry: r.get::<_, i64>(6)? as u64,
            exit: r.get::<_, Option<i64>>(7)?.map(|t| t as u64),
        },
        depth: r.get(5)?,
        outcome: r.get::<_, Option<i64>>(8)?.map(|o| {
            if o == 0 {
                Outcome::Returned
            } else {
                Outcome::Threw
            }
        }),
    })
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
}

impl TraceReader {
    pub fn node(&self, id: NodeId) -> StoreResult<Option<NodeRow>> {
        self.conn
            .prepare_cached(&format!("SELECT {COLUMNS} FROM nodes WHERE id = ?1"))
            .and_then(|mut s| s.query_row([id.0], row_to_node).optional())
            .map_err(self.err("reading a node"))
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

    /// Up to `limit` nodes with an id above `after`, in id order: what a reader that follows a
    /// growing trace has not seen yet.
    pub fn nodes_after(&self, after: Option<NodeId>, limit: u64) -> StoreResult<Vec<NodeRow>> {
        let mut st = self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM nodes WHERE id > ?1 ORDER BY id LIMIT ?2"
            ))
            .map_err(self.err("reading nodes"))?;
        let after = after.map_or(-1, |n| i64::from(n.0));
        let rows = st
            .query_map([after, limit.min(i64::MAX as u64) as i64], row_to_node)
            .map_err(self.err("reading nodes"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.err("reading nodes"))
    }

    /// Children in call order, `limit` of them from `offset`.
    pub fn children(&self, id: NodeId, offset: u64, limit: u64) -> StoreResult<Vec<NodeRow>> {
        let mut st = self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM nodes WHERE parent = ?1 ORDER BY id LIMIT ?2 OFFSET ?3"
            ))
            .map_err(self.err("reading children"))?;
        let rows = st
            .query_map(
                [
                    i64::from(id.0),
                    limit.min(i64::MAX as u64) as i64,
                    offset.min(i64::MAX as u64) as i64,
                ],
                row_to_node,
            )
            .map_err(self.err("reading children"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.err("reading children"))
    }

    pub fn child_count(&self, id: NodeId) -> StoreResult<u64> {
        self.conn
            .prepare_cached("SELECT count(*) FROM nodes WHERE parent = ?1")
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
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT thread, id FROM nodes WHERE parent = 0 AND kind = 1 ORDER BY id",
            )
            .map_err(self.err("reading threads"))?;
        let rows = st
            .query_map([], |r| Ok((ThreadId(r.get(0)?), NodeId(r.get(1)?))))
            .map_err(self.err("reading threads"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.err("reading threads"))
    }

    /// Nodes of `thread` after `after` in id order, which is preorder within a thread. A scan of
    /// the id order that skips other threads' nodes: no index to maintain while recording.
    fn thread_page(
        &self,
        thread: ThreadId,
        after: Option<NodeId>,
        limit: i64,
    ) -> StoreResult<Vec<NodeRow>> {
        let mut st = self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM nodes WHERE id > ?2 AND thread = ?1 ORDER BY id LIMIT ?3"
            ))
            .map_err(self.err("reading nodes"))?;
        let after = after.map_or(-1, |n| i64::from(n.0));
        let rows = st
            .query_map([i64::from(thread.0), after, limit], row_to_node)
            .map_err(self.err("reading nodes"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.err("reading nodes"))
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
            row,
        };
        let h = detail.row.header.clone();
        let (Some(thread), Some(method_id)) = (h.thread, h.method) else {
            return Ok(Some(detail));
        };
        let method = self.method(method_id)?;
        if let Some(call) = self.thread_event_at(thread, h.entry)? {
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
