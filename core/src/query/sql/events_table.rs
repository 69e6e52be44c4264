//! SQL's `events` relation: an eponymous virtual table over the trace's compressed event
//! blocks, decoded as a statement reads it (a scan in timestamp order, threads merged).
//! Constraints on `ts`, `node`, `thread_id`, `kind` and `family` narrow the scan: a `ts` range
//! reads only the blocks overlapping it, `node = N` only N's thread between its call and exit.
//!
//! This is an FFI edge: SQLite calls the table through the C virtual-table interface, which
//! rusqlite's `VTab` and `VTabCursor` traits wrap. Their contract (`#[repr(C)]` structs whose
//! first field is SQLite's base struct) is why the two `unsafe impl`s below exist; the code
//! inside them is safe Rust.

use std::cell::RefCell;
use std::os::raw::c_int;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use rusqlite::vtab::{
    sqlite3_vtab, sqlite3_vtab_cursor, Context, IndexConstraintOp, IndexInfo, VTab, VTabConnection,
    VTabCursor, Values,
};

use super::row::{self, Row, RowNames};
use super::SqlProgress;
use crate::ids::{NodeId, ThreadId, Timestamp};
use crate::query::scan::{Scanner, Span};
use crate::trace::store::TraceReader;
use crate::trace::wire::{EventKind, Value};

/// The columns, in order (docs/trace-schema.md, "SQL relations").
pub const COLUMNS: &[&str] = &[
    "ts",
    "thread",
    "node",
    "parent",
    "depth",
    "method",
    "file",
    "line",
    "kind",
    "family",
    "object",
    "field",
    "idx",
    "var",
    "value",
    "value_object",
    "args",
    "text",
    "thread_id",
    "path",
];

const TS: c_int = 0;
const THREAD: c_int = 1;
const NODE: c_int = 2;
const KIND: c_int = 8;
const FAMILY: c_int = 9;
const THREAD_ID: c_int = 18;

/// What the table is created with.
pub struct Aux {
    pub path: PathBuf,
    pub progress: Arc<SqlProgress>,
}

#[repr(C)]
pub struct EventsTable {
    base: sqlite3_vtab,
    path: PathBuf,
    progress: Arc<SqlProgress>,
}

fn module_error(e: impl std::fmt::Display) -> rusqlite::Error {
    rusqlite::Error::ModuleError(e.to_string())
}

// SAFETY: `EventsTable` is `#[repr(C)]` with SQLite's `sqlite3_vtab` first, as the trait asks.
unsafe impl<'vtab> VTab<'vtab> for EventsTable {
    type Aux = Aux;
    type Cursor = EventsCursor<'vtab>;

    fn connect(
        _db: &mut VTabConnection,
        aux: Option<&Aux>,
        _args: &[&[u8]],
    ) -> rusqlite::Result<(String, EventsTable)> {
        let aux = aux.ok_or_else(|| module_error("the events table has no trace"))?;
        let schema = format!("CREATE TABLE x({})", COLUMNS.join(", "));
        Ok((
            schema,
            EventsTable {
                base: sqlite3_vtab::default(),
                path: aux.path.clone(),
                progress: Arc::clone(&aux.progress),
            },
        ))
    }

    fn best_index(&self, info: &mut IndexInfo) -> rusqlite::Result<()> {
        // One letter per constraint used, in argument order: the plan `filter` reads.
        let mut plan = String::new();
        let mut used = Vec::new();
        let mut narrow = false;
        for (i, c) in info.constraints().enumerate() {
            if !c.is_usable() {
                continue;
            }
            let letter = match (c.column(), c.operator()) {
                (TS, IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_EQ) => 'e',
                (TS, IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_GT) => 'g',
                (TS, IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_GE) => 'G',
                (TS, IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_LT) => 'l',
                (TS, IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_LE) => 'L',
                (NODE, IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_EQ) => 'n',
                (THREAD_ID, IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_EQ) => 't',
                (THREAD, IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_EQ) => 'T',
                (KIND, IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_EQ) => 'k',
                (FAMILY, IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_EQ) => 'f',
                _ => continue,
            };
            narrow |= matches!(letter, 'e' | 'n');
            plan.push(letter);
            used.push(i);
        }
        for (arg, i) in used.into_iter().enumerate() {
            let mut u = info.constraint_usage(i);
            u.set_argv_index(arg as c_int + 1);
            // SQLite checks the rows again: the plan only narrows the scan.
            u.set_omit(false);
        }
        let cost = if narrow {
            10.0
        } else if plan.contains(['g', 'G', 'l', 'L']) {
            1e6
        } else {
            1e9
        };
        info.set_estimated_cost(cost);
        info.set_idx_str(&plan);
        Ok(())
    }

    fn open(&'vtab mut self) -> rusqlite::Result<EventsCursor<'vtab>> {
        Ok(EventsCursor {
            base: sqlite3_vtab_cursor::default(),
            table: self,
            reader: None,
            scanner: None,
            row: None,
            rowid: 0,
            kind: None,
            family: None,
            node: None,
            reported: 0,
            names: RefCell::new(RowNames::default()),
        })
    }
}

#[repr(C)]
pub struct EventsCursor<'vtab> {
    base: sqlite3_vtab_cursor,
    table: &'vtab EventsTable,
    reader: Option<TraceReader>,
    scanner: Option<Scanner>,
    row: Option<Row>,
    rowid: i64,
    kind: Option<String>,
    family: Option<String>,
    node: Option<NodeId>,
    /// Events decoded and already added to the shared progress.
    reported: u64,
    names: RefCell<RowNames>,
}

impl EventsCursor<'_> {
    /// Moves to the next event the plan keeps (or to the end).
    fn advance(&mut self) -> rusqlite::Result<()> {
        let (Some(reader), Some(scanner)) = (self.reader.as_ref(), self.scanner.as_mut()) else {
            self.row = None;
            return Ok(());
        };
        let progress = &self.table.progress;
        let reported = &mut self.reported;
        let mut report = |done: u64| {
            if done > *reported {
                progress.done.fetch_add(done - *reported, Ordering::Relaxed);
                *reported = done;
            }
        };
        loop {
            report(scanner.progress().done);
            let Some(s) = scanner.next(reader).map_err(module_error)? else {
                break;
            };
            let kind = &s.event.event.kind;
            if matches!(kind, EventKind::String { .. }) {
                continue;
            }
            if self
                .kind
                .as_deref()
                .is_some_and(|k| k != row::kind_name(kind))
                || self
                    .family
                    .as_deref()
                    .is_some_and(|f| f != row::family(kind))
            {
                continue;
            }
            if self.node.is_some_and(|n| n != s.event.node) {
                continue;
            }
            self.row = Some(Row::of(&s));
            self.rowid += 1;
            return Ok(());
        }
        report(scanner.progress().done);
        self.row = None;
        Ok(())
    }

    fn compute(&self, ctx: &mut Context, i: c_int) -> crate::query::QueryResult<()> {
        let (Some(reader), Some(row)) = (self.reader.as_ref(), self.row.as_ref()) else {
            ctx.set_result(&rusqlite::types::Null)?;
            return Ok(());
        };
        let mut names = self.names.borrow_mut();
        let e = &row.event;
        let ts = e.event.ts;
        let opt_u64 = |v: Option<u64>| v.map(|x| x.min(i64::MAX as u64) as i64);
        match i {
            0 => ctx.set_result(&(ts.min(i64::MAX as u64) as i64))?,
            1 => ctx.set_result(&names.thread(reader, row.thread)?)?,
            2 => ctx.set_result(&e.node.0)?,
            3 => ctx.set_result(&row.below.map(|f| f.node.0))?,
            4 => ctx.set_result(&e.depth)?,
            5 => ctx.set_result(&names.method_name(reader, row.top.method)?)?,
            6 => {
                let m = row.at_frame().and_then(|f| f.method);
                ctx.set_result(&names.file(reader, m)?)?
            }
            7 => {
                let l = row.line();
                ctx.set_result(&(l > 0).then_some(l))?
            }
            8 => ctx.set_result(&row::kind_name(&e.event.kind))?,
            9 => ctx.set_result(&row::family(&e.event.kind))?,
            10 => ctx.set_result(&opt_u64(row::object(row)))?,
            11 => {
                let f = match e.event.kind {
                    EventKind::FieldWrite { field, .. }
                    | EventKind::FieldWriteUninit { field, .. }
                    | EventKind::StaticWrite { field, .. }
                    | EventKind::FieldRead { field, .. }
                    | EventKind::StaticRead { field } => Some(names.field(reader, field)?.0),
                    _ => None,
                };
                ctx.set_result(&f)?
            }
            12 => {
                let idx = match e.event.kind {
                    EventKind::ArrayWrite { index, .. } | EventKind::ArrayRead { index, .. } => {
                        Some(index)
                    }
                    _ => None,
                };
                ctx.set_result(&idx)?
            }
            13 => {
                let v = match e.event.kind {
                    EventKind::Local { var, .. } => Some(names.var(reader, row.top.method, var)?),
                    _ => None,
                };
                ctx.set_result(&v)?
            }
            14 => {
                let v = match row::value(reader, row)? {
                    Some(v) => Some(row::shown(reader, &v, ts)?),
                    None => None,
                };
                ctx.set_result(&v)?
            }
            15 => {
                let o = match row::value(reader, row)? {
                    Some(Value::Object(o)) => Some(o.0),
                    _ => None,
                };
                ctx.set_result(&opt_u64(o))?
            }
            16 => ctx.set_result(&row::args(reader, &mut names, row)?)?,
            17 => ctx.set_result(&row::text(reader, row)?)?,
            18 => ctx.set_result(&row.thread.0)?,
            19 => ctx.set_result(&row::path(reader, &mut names, row)?)?,
            _ => ctx.set_result(&rusqlite::types::Null)?,
        }
        Ok(())
    }
}

// SAFETY: `EventsCursor` is `#[repr(C)]` with SQLite's `sqlite3_vtab_cursor` first.
unsafe impl VTabCursor for EventsCursor<'_> {
    fn filter(
        &mut self,
        _idx_num: c_int,
        idx_str: Option<&str>,
        args: &Values<'_>,
    ) -> rusqlite::Result<()> {
        let reader = TraceReader::open(&self.table.path).map_err(module_error)?;
        let mut span = Span::ALL;
        let mut thread: Option<ThreadId> = None;
        let (mut kind, mut family, mut node) = (None, None, None);
        let mut empty = false;
        for (i, letter) in idx_str.unwrap_or("").chars().enumerate() {
            // Only numbers narrow the scan; SQLite checks every row again, so anything else
            // (a text, which SQLite orders after all numbers) just leaves the scan whole.
            let arg: rusqlite::types::Value = args.get(i)?;
            let number = match arg {
                rusqlite::types::Value::Null => {
                    // A comparison with NULL keeps no row.
                    empty = true;
                    continue;
                }
                rusqlite::types::Value::Integer(n) => Some(n as f64),
                rusqlite::types::Value::Real(x) => Some(x),
                _ => None,
            };
            let text = match &arg {
                rusqlite::types::Value::Text(t) => Some(t.clone()),
                _ => None,
            };
            match (letter, number) {
                ('e' | 'g' | 'G' | 'l' | 'L', Some(x)) => {
                    let at_least = |x: f64| if x <= 0.0 { 0 } else { x.ceil() as Timestamp };
                    let at_most = |x: f64| x.floor().max(-1.0);
                    match letter {
                        'e' if x.fract() != 0.0 || x < 0.0 => empty = true,
                        'e' => {
                            span.from = span.from.max(x as Timestamp);
                            span.to = span.to.min(x as Timestamp);
                        }
                        'g' => span.from = span.from.max(at_least(x.floor() + 1.0)),
                        'G' => span.from = span.from.max(at_least(x)),
                        'l' | 'L' => {
                            let top = if letter == 'l' {
                                at_most(x.ceil() - 1.0)
                            } else {
                                at_most(x)
                            };
                            if top < 0.0 {
                                empty = true;
                            } else {
                                span.to = span.to.min(top as Timestamp);
                            }
                        }
                        _ => {}
                    }
                }
                ('n', Some(x)) if x.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&x) => {
                    let id = NodeId(x as u32);
                    match reader.node(id).map_err(module_error)? {
                        Some(r) => {
                            span.from = span.from.max(r.header.entry);
                            if let Some(exit) = r.header.exit {
                                span.to = span.to.min(exit);
                            }
                            thread = r.header.thread;
                            empty |= thread.is_none();
                        }
                        None => empty = true,
                    }
                    node = Some(id);
                }
                ('t', Some(x)) if x.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&x) => {
                    thread = Some(ThreadId(x as u32));
                }
                ('T', _) => {
                    // A thread by name: its id (no such thread, no row).
                    if let Some(name) = &text {
                        let found = reader
                            .threads()
                            .map_err(module_error)?
                            .into_iter()
                            .find(|(t, _)| &t.name == name);
                        match found {
                            Some((t, _)) => thread = Some(t.id),
                            None => empty = true,
                        }
                    }
                }
                ('k', _) => kind = text,
                ('f', _) => family = text,
                _ => {}
            }
        }
        self.kind = kind;
        self.family = family;
        self.node = node;
        self.row = None;
        self.rowid = 0;
        self.reported = 0;
        if empty || span.from > span.to {
            self.scanner = None;
            self.reader = Some(reader);
            return Ok(());
        }
        let only = thread.map(|t| vec![t]);
        let scanner = Scanner::new(&reader, span, only.as_deref()).map_err(module_error)?;
        self.table
            .progress
            .total
            .fetch_add(scanner.progress().total, Ordering::Relaxed);
        self.scanner = Some(scanner);
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
        self.compute(ctx, i).map_err(module_error)
    }

    fn rowid(&self) -> rusqlite::Result<i64> {
        Ok(self.rowid)
    }
}
