//! SQL's `nodes` relation: an eponymous virtual table over the trace's node pages (trace
//! format 5 keeps nodes in compressed pages, not rows), read a page at a time in id order. A
//! constraint `id = N` reads one node; `calls` is a view over this table.
//!
//! This is an FFI edge, as `events_table` is: the two `unsafe impl`s are the `VTab` and
//! `VTabCursor` contracts of rusqlite (`#[repr(C)]`, SQLite's base struct first).

use std::collections::VecDeque;
use std::os::raw::c_int;
use std::path::PathBuf;

use rusqlite::vtab::{
    sqlite3_vtab, sqlite3_vtab_cursor, Context, IndexConstraintOp, IndexInfo, VTab, VTabConnection,
    VTabCursor, Values,
};

use crate::ids::NodeId;
use crate::trace::store::{NodeRow, Outcome, TraceReader};
use crate::tree::NodeKind;

/// The columns, in order (docs/trace-schema.md, "SQL relations").
pub const COLUMNS: &[&str] = &[
    "id", "parent", "kind", "method", "thread", "depth", "entry_ts", "exit_ts", "outcome",
    "chained",
];

const ID: c_int = 0;
/// Nodes read from the pages per step of a scan.
const BATCH: usize = 1024;

fn module_error(e: impl std::fmt::Display) -> rusqlite::Error {
    rusqlite::Error::ModuleError(e.to_string())
}

#[repr(C)]
pub struct NodesTable {
    base: sqlite3_vtab,
    path: PathBuf,
}

// SAFETY: `NodesTable` is `#[repr(C)]` with SQLite's `sqlite3_vtab` first, as the trait asks.
unsafe impl<'vtab> VTab<'vtab> for NodesTable {
    type Aux = PathBuf;
    type Cursor = NodesCursor<'vtab>;

    fn connect(
        _db: &mut VTabConnection,
        aux: Option<&PathBuf>,
        _args: &[&[u8]],
    ) -> rusqlite::Result<(String, NodesTable)> {
        let path = aux.ok_or_else(|| module_error("the nodes table has no trace"))?;
        let schema = format!("CREATE TABLE x({})", COLUMNS.join(", "));
        Ok((
            schema,
            NodesTable {
                base: sqlite3_vtab::default(),
                path: path.clone(),
            },
        ))
    }

    fn best_index(&self, info: &mut IndexInfo) -> rusqlite::Result<()> {
        let by_id = info.constraints().position(|c| {
            c.is_usable()
                && c.column() == ID
                && c.operator() == IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_EQ
        });
        match by_id {
            Some(i) => {
                let mut u = info.constraint_usage(i);
                u.set_argv_index(1);
                u.set_omit(false);
                info.set_idx_num(1);
                info.set_estimated_cost(1.0);
            }
            None => {
                info.set_idx_num(0);
                info.set_estimated_cost(1e8);
            }
        }
        Ok(())
    }

    fn open(&'vtab mut self) -> rusqlite::Result<NodesCursor<'vtab>> {
        Ok(NodesCursor {
            base: sqlite3_vtab_cursor::default(),
            table: self,
            reader: None,
            buffer: VecDeque::new(),
            last: None,
            scanning: false,
            row: None,
        })
    }
}

#[repr(C)]
pub struct NodesCursor<'vtab> {
    base: sqlite3_vtab_cursor,
    table: &'vtab NodesTable,
    reader: Option<TraceReader>,
    buffer: VecDeque<NodeRow>,
    /// The last node read from the pages (the scan goes on after it).
    last: Option<NodeId>,
    /// A whole scan (else one node, already in `buffer`).
    scanning: bool,
    row: Option<NodeRow>,
}

impl NodesCursor<'_> {
    fn advance(&mut self) -> rusqlite::Result<()> {
        if self.buffer.is_empty() && self.scanning {
            if let Some(reader) = &self.reader {
                let page = reader.nodes_after(self.last, BATCH).map_err(module_error)?;
                match page.last() {
                    Some(l) => self.last = Some(l.header.id),
                    None => self.scanning = false,
                }
                self.buffer.extend(page);
            }
        }
        self.row = self.buffer.pop_front();
        Ok(())
    }
}

fn kind_code(kind: NodeKind) -> i64 {
    match kind {
        NodeKind::Root => 0,
        NodeKind::Thread => 1,
        NodeKind::Routine => 2,
        NodeKind::Loop => 4,
        NodeKind::Iteration => 5,
        // The forest's nodes are the session's, never stored.
        NodeKind::External | NodeKind::Collapsed | NodeKind::Projected => 3,
    }
}

// SAFETY: `NodesCursor` is `#[repr(C)]` with SQLite's `sqlite3_vtab_cursor` first.
unsafe impl VTabCursor for NodesCursor<'_> {
    fn filter(
        &mut self,
        idx_num: c_int,
        _idx_str: Option<&str>,
        args: &Values<'_>,
    ) -> rusqlite::Result<()> {
        let reader = TraceReader::open(&self.table.path).map_err(module_error)?;
        self.buffer.clear();
        self.last = None;
        self.scanning = idx_num == 0;
        if idx_num == 1 {
            let id: rusqlite::types::Value = args.get(0)?;
            if let rusqlite::types::Value::Integer(n) = id {
                if let Ok(id) = u32::try_from(n) {
                    if let Some(row) = reader.node(NodeId(id)).map_err(module_error)? {
                        self.buffer.push_back(row);
                    }
                }
            }
        }
        self.reader = Some(reader);
        self.advance()
    }

    fn next(&mut self) -> rusqlite::Result<()> {
        self.advance()
    }

    fn eof(&self) -> bool {
        self.row.is_none()
    }

    fn column(&self, ctx: &mut Context, i: c_int) -> rusqlite::Result<()> {
        let Some(r) = &self.row else {
            return ctx.set_result(&rusqlite::types::Null);
        };
        let h = &r.header;
        let ts = |t: u64| t.min(i64::MAX as u64) as i64;
        match i {
            0 => ctx.set_result(&h.id.0),
            1 => ctx.set_result(&h.parent.map(|p| p.0)),
            2 => ctx.set_result(&kind_code(h.kind)),
            3 => ctx.set_result(&h.method.map(|m| m.0)),
            4 => ctx.set_result(&h.thread.map(|t| t.0)),
            5 => ctx.set_result(&r.depth),
            6 => ctx.set_result(&ts(h.entry)),
            7 => ctx.set_result(&h.exit.map(ts)),
            8 => ctx.set_result(&r.outcome.map(|o| match o {
                Outcome::Returned => 0,
                Outcome::Threw => 1,
            })),
            9 => ctx.set_result(&h.chained),
            _ => ctx.set_result(&rusqlite::types::Null),
        }
    }

    fn rowid(&self) -> rusqlite::Result<i64> {
        Ok(self.row.as_ref().map_or(0, |r| i64::from(r.header.id.0)))
    }
}
