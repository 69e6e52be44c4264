//! SQL over a trace (`hindsight sql`): read-only statements over relations that expose what the
//! trace holds, the compressed event blocks included, so that users compose queries and keep
//! them in files. The relations (columns in docs/trace-schema.md, "SQL relations"):
//!
//! - `events`: every event, decoded from the blocks as the statement reads it (a virtual table,
//!   `events_table`); `lines`, `writes` and `reads` are views over it;
//! - `calls`: every call node with its method, thread, events and outcome, and its arguments,
//!   receiver and result (computed only when selected);
//! - `objects`: every object with its class name.
//!
//! - `nodes`: every node as the trace's node pages hold it (a virtual table, `nodes_table`).
//!
//! The trace's own tables stay readable under their names (`methods`, `threads`, ... and
//! `main.objects` behind the view). The connection is opened read only and a statement that
//! would write is refused before it runs.

mod events_table;
mod nodes_table;
mod row;

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rusqlite::functions::FunctionFlags;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use super::error::{QueryError, QueryResult};
use super::refs::Shown;
use crate::ids::NodeId;
use crate::trace::store::{NodeDetail, NodeResult, TraceReader};

pub use events_table::COLUMNS as EVENT_COLUMNS;
pub use row::{family, kind_name};

/// How far the statement's scans of `events` have come (events decoded, in all).
#[derive(Debug, Default)]
pub struct SqlProgress {
    pub done: AtomicU64,
    pub total: AtomicU64,
}

impl SqlProgress {
    pub fn get(&self) -> super::ScanProgress {
        super::ScanProgress {
            done: self.done.load(Ordering::Relaxed),
            total: self.total.load(Ordering::Relaxed),
            unit: "events",
        }
    }
}

/// A value of a result row.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SqlValue {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
}

impl SqlValue {
    fn of(v: ValueRef<'_>) -> SqlValue {
        match v {
            ValueRef::Null => SqlValue::Null,
            ValueRef::Integer(i) => SqlValue::Integer(i),
            ValueRef::Real(f) => SqlValue::Real(f),
            ValueRef::Text(t) => SqlValue::Text(String::from_utf8_lossy(t).into_owned()),
            // Blobs (event blocks, index pages) as hex, as `sqlite3` shows them with hex().
            ValueRef::Blob(b) => SqlValue::Text(b.iter().map(|x| format!("{x:02x}")).collect()),
        }
    }
}

impl std::fmt::Display for SqlValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SqlValue::Null => f.write_str("NULL"),
            SqlValue::Integer(i) => write!(f, "{i}"),
            SqlValue::Real(x) => write!(f, "{x}"),
            SqlValue::Text(t) => f.write_str(t),
        }
    }
}

const VIEWS: &str = r#"
CREATE TEMP VIEW calls AS
    SELECT n.id AS node, n.parent, CASE n.kind WHEN 2 THEN 'routine' ELSE 'external' END AS kind,
        c.name || '.' || m.name AS method, c.name AS class, m.name AS name, m.descriptor,
        NULLIF(c.source_file, '') AS file, t.name AS thread, n.thread AS thread_id, n.depth,
        n.entry_ts AS call_ts, n.exit_ts,
        CASE n.outcome WHEN 0 THEN 'returned' WHEN 1 THEN 'threw' END AS outcome,
        hs_args(n.id) AS args, hs_this(n.id) AS this, hs_result(n.id) AS result
    FROM nodes n LEFT JOIN main.methods m ON m.id = n.method
        LEFT JOIN main.classes c ON c.id = m.class LEFT JOIN main.threads t ON t.id = n.thread
    WHERE n.kind IN (2, 3);
CREATE TEMP VIEW objects AS
    SELECT o.id, c.name AS class, o.class AS class_id, o.length,
        CASE o.origin WHEN 0 THEN 'created' ELSE 'first-seen' END AS origin,
        o.created_ts, o.node,
        CASE ct.kind WHEN 0 THEN 'sequence' WHEN 1 THEN 'map' WHEN 2 THEN 'text' END AS content
    FROM main.objects o LEFT JOIN main.classes c ON c.id = o.class
        LEFT JOIN main.contents ct ON ct.object = o.id;
CREATE TEMP VIEW lines AS
    SELECT ts, thread, node, method, file, line FROM events WHERE family = 'line';
CREATE TEMP VIEW writes AS
    SELECT ts, thread, node, method, file, line, kind, path, object, field, idx, var, value,
        value_object FROM events WHERE family = 'write';
CREATE TEMP VIEW reads AS
    SELECT ts, thread, node, method, file, line, kind, path, object, field, idx, value,
        value_object FROM events WHERE family = 'read';
"#;

/// The last node the `calls` functions looked at (a row asks for its args, `this` and result).
struct Details {
    reader: TraceReader,
    last: Option<(NodeId, Option<NodeDetail>)>,
}

impl Details {
    fn get(&mut self, node: i64) -> QueryResult<Option<&NodeDetail>> {
        let id = NodeId(u32::try_from(node).unwrap_or(u32::MAX));
        if self.last.as_ref().is_none_or(|(n, _)| *n != id) {
            self.last = Some((id, self.reader.node_detail(id)?));
        }
        Ok(self.last.as_ref().and_then(|(_, d)| d.as_ref()))
    }
}

fn shown(reader: &TraceReader, v: &crate::trace::wire::Value, at: u64) -> QueryResult<String> {
    Ok(Shown::of(reader, v, at)?.value)
}

fn register_functions(conn: &Connection, path: &Path) -> QueryResult<()> {
    let details = Arc::new(Mutex::new(Details {
        reader: TraceReader::open(path)?,
        last: None,
    }));
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    type Part = fn(&TraceReader, &NodeDetail) -> QueryResult<Option<String>>;
    let parts: [(&str, Part); 3] = [
        ("hs_args", |r, d| {
            let at = d.row.header.entry;
            let args: Vec<String> = d
                .args
                .iter()
                .map(|a| Ok(format!("{}={}", a.name, shown(r, &a.value, at)?)))
                .collect::<QueryResult<_>>()?;
            Ok(Some(args.join(", ")))
        }),
        ("hs_this", |r, d| match d.this {
            Some(v) => Ok(Some(shown(
                r,
                &v,
                d.row.header.exit.unwrap_or(d.row.header.entry),
            )?)),
            None => Ok(None),
        }),
        ("hs_result", |r, d| {
            let at = d.row.header.exit.unwrap_or(d.row.header.entry);
            match d.result {
                Some(NodeResult::Returned(v)) | Some(NodeResult::Threw(v)) => {
                    Ok(Some(shown(r, &v, at)?))
                }
                None => Ok(None),
            }
        }),
    ];
    for (name, part) in parts {
        let details = Arc::clone(&details);
        conn.create_scalar_function(name, 1, flags, move |ctx| {
            let node: Option<i64> = ctx.get(0)?;
            let Some(node) = node else {
                return Ok(None);
            };
            let mut d = details
                .lock()
                .map_err(|_| rusqlite::Error::ModuleError("a previous call failed".into()))?;
            let detail = d
                .get(node)
                .map_err(|e| rusqlite::Error::UserFunctionError(Box::new(e)))?
                .cloned();
            match detail {
                Some(detail) => part(&d.reader, &detail)
                    .map_err(|e| rusqlite::Error::UserFunctionError(Box::new(e))),
                None => Ok(None),
            }
        })
        .map_err(|e| QueryError::Sql(e.to_string()))?;
    }
    Ok(())
}

/// A read-only SQL connection to a trace with the relations registered.
pub struct Sql {
    conn: Connection,
    progress: Arc<SqlProgress>,
}

/// The columns and rows of a statement (for front ends that take it whole).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SqlResult {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<SqlValue>>,
    /// More rows were left out (`limit`).
    pub truncated: bool,
}

fn statement_head(sql: &str) -> String {
    let t = sql.trim();
    let head: String = t.chars().take(60).collect();
    if head.len() < t.len() {
        format!("{head}…")
    } else {
        head
    }
}

impl Sql {
    /// Opens `path` (checked as a trace first) read only, with the relations.
    pub fn open(path: &Path) -> QueryResult<Sql> {
        TraceReader::open(path)?;
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .map_err(|e| QueryError::Sql(format!("opening {}: {e}", path.display())))?;
        let progress = Arc::new(SqlProgress::default());
        conn.create_module(
            "events",
            rusqlite::vtab::eponymous_only_module::<events_table::EventsTable>(),
            Some(events_table::Aux {
                path: path.to_path_buf(),
                progress: Arc::clone(&progress),
            }),
        )
        .map_err(|e| QueryError::Sql(e.to_string()))?;
        conn.create_module(
            "nodes",
            rusqlite::vtab::eponymous_only_module::<nodes_table::NodesTable>(),
            Some(path.to_path_buf()),
        )
        .map_err(|e| QueryError::Sql(e.to_string()))?;
        register_functions(&conn, path)?;
        conn.execute_batch(VIEWS)
            .map_err(|e| QueryError::Sql(format!("creating the relations: {e}")))?;
        Ok(Sql { conn, progress })
    }

    /// How far the running statement's scans have come; shared, for a progress line drawn
    /// by another thread.
    pub fn progress(&self) -> Arc<SqlProgress> {
        Arc::clone(&self.progress)
    }

    /// Runs one read-only statement: `columns` hears the column names, then `row` each row
    /// (return `false` to stop). Returns the number of rows given.
    pub fn run(
        &self,
        sql: &str,
        columns: impl FnOnce(&[String]) -> QueryResult<()>,
        mut row: impl FnMut(Vec<SqlValue>) -> QueryResult<bool>,
    ) -> QueryResult<u64> {
        let bad = |e: rusqlite::Error| QueryError::BadSql {
            text: statement_head(sql),
            problem: e.to_string(),
        };
        let mut batch = rusqlite::Batch::new(&self.conn, sql);
        let Some(mut stmt) = batch.next().map_err(bad)? else {
            return Err(QueryError::BadSql {
                text: statement_head(sql),
                problem: "there is no statement".into(),
            });
        };
        if batch.next().map_err(bad)?.is_some() {
            return Err(QueryError::BadSql {
                text: statement_head(sql),
                problem: "one statement at a time, please (this has several)".into(),
            });
        }
        if !stmt.readonly() {
            return Err(QueryError::Writes(statement_head(sql)));
        }
        let names: Vec<String> = stmt.column_names().iter().map(|s| s.to_string()).collect();
        columns(&names)?;
        let n = names.len();
        let mut rows = stmt.query([]).map_err(bad)?;
        let mut count = 0;
        while let Some(r) = rows.next().map_err(|e| QueryError::Sql(e.to_string()))? {
            let values = (0..n)
                .map(|i| r.get_ref(i).map(SqlValue::of))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| QueryError::Sql(e.to_string()))?;
            count += 1;
            if !row(values)? {
                break;
            }
        }
        Ok(count)
    }

    /// Runs a statement and keeps at most `limit` rows.
    pub fn collect(&self, sql: &str, limit: usize) -> QueryResult<SqlResult> {
        let mut out = SqlResult {
            columns: Vec::new(),
            rows: Vec::new(),
            truncated: false,
        };
        let mut cols = Vec::new();
        self.run(
            sql,
            |c| {
                cols = c.to_vec();
                Ok(())
            },
            |r| {
                if out.rows.len() >= limit {
                    out.truncated = true;
                    return Ok(false);
                }
                out.rows.push(r);
                Ok(true)
            },
        )?;
        out.columns = cols;
        Ok(out)
    }
}

/// The entry point for front ends that speak JSON (the JNI bridge): a statement over the trace
/// at `path`, at most `limit` rows, as `{"columns", "rows", "truncated"}`.
pub fn run_json(path: &Path, sql: &str, limit: usize) -> QueryResult<serde_json::Value> {
    let result = Sql::open(path)?.collect(sql, limit)?;
    serde_json::to_value(result).map_err(|e| QueryError::Sql(e.to_string()))
}
