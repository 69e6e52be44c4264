//! Writes a trace file while the program runs: definitions, nodes, event blocks and index
//! segments, committed periodically in WAL mode so that the file is always openable and a kill
//! loses at most the last commit interval. Memory stays bounded: blocks and the index buffer are
//! flushed by size.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{params, Connection, OpenFlags};

use super::block::{BlockBuilder, EncodedBlock, StackEntry};
use super::error::StoreError;
use super::index::{build_pages, IndexEntry, Variable};
use super::schema::{self, APPLICATION_ID, FORMAT_VERSION};
use super::{Ending, NodeRow, Outcome};
use crate::coverage::{Entity, NodeCoverage};
use crate::ids::{ClassId, NodeId, ObjectId, StringId, ThreadId, Timestamp};
use crate::trace::wire::{
    put_blocks, put_varint, ClassDef, ContentKind, Event, FieldDef, Hello, MethodDef, Origin,
    ThreadDef, Value,
};
use crate::tree::NodeKind;

/// When the writer flushes and commits.
#[derive(Clone, Debug)]
pub struct WriterConfig {
    /// Commit at least this often while events arrive.
    pub commit_interval: Duration,
    /// Commit after this many events even if the interval has not passed.
    pub commit_events: u64,
    /// Flush a thread's block when its raw size reaches this.
    pub block_bytes: usize,
    /// Commit when this many index entries are buffered (about 40 bytes each).
    pub index_entries: usize,
    /// Raw size of an index page.
    pub page_bytes: usize,
    /// This many small index segments of one level are merged into one of the next level
    /// (0 or 1: never).
    pub merge_fan_in: usize,
    /// A segment with at most this many writes is small (see `merge_fan_in`).
    pub merge_small_writes: u64,
}

impl Default for WriterConfig {
    fn default() -> Self {
        WriterConfig {
            commit_interval: Duration::from_millis(200),
            commit_events: 2_000_000,
            block_bytes: 32 * 1024,
            index_entries: 1 << 20,
            page_bytes: 4096,
            merge_fan_in: 8,
            merge_small_writes: 128 * 1024,
        }
    }
}

/// Counts kept while writing, stored in `meta` at each commit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteCounts {
    pub events: u64,
    pub nodes: u64,
    pub complete_nodes: u64,
    pub warnings: u64,
    pub last_ts: Timestamp,
}

pub struct TraceWriter {
    conn: Connection,
    path: PathBuf,
    config: WriterConfig,
    /// Indexed by thread id.
    /// One builder per thread, found through `slots` (thread ids come from the stream, so they
    /// index nothing directly), with the last thread's slot cached.
    blocks: Vec<BlockBuilder>,
    slots: rustc_hash::FxHashMap<ThreadId, usize>,
    last_slot: Option<(ThreadId, usize)>,
    index: Vec<IndexEntry>,
    /// Nodes started since the last commit and not written yet (most complete before a commit
    /// and are then written once).
    pending_open: rustc_hash::FxHashMap<NodeId, NodeRow>,
    /// Completed nodes waiting for a multi-row insert.
    node_batch: Vec<NodeRow>,
    /// `objects` rows waiting for a multi-row insert.
    object_batch: Vec<[Option<i64>; 6]>,
    /// Completed nodes' coverage waiting for its page.
    coverage_buf: Vec<(NodeId, NodeCoverage)>,
    events_since_commit: u64,
    last_commit: Instant,
    started: Instant,
    counts: WriteCounts,
}

impl TraceWriter {
    /// Creates the trace file at `path`, replacing any file there.
    pub fn create(path: &Path, config: WriterConfig) -> Result<TraceWriter, StoreError> {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            match std::fs::remove_file(&p) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => {
                    return Err(StoreError::Io {
                        path: path.into(),
                        action: "replacing the old trace",
                        source,
                    })
                }
            }
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .map_err(|e| StoreError::sqlite(path, "creating the trace", e))?;
        let setup = format!(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 8192; PRAGMA application_id = {APPLICATION_ID};
             BEGIN; {} INSERT INTO meta VALUES ('format_version', {FORMAT_VERSION}), ('status', 'recording'); COMMIT; BEGIN;",
            schema::CREATE
        );
        conn.execute_batch(&setup)
            .map_err(|e| StoreError::sqlite(path, "creating the trace schema", e))?;
        let now = Instant::now();
        Ok(TraceWriter {
            conn,
            path: path.to_path_buf(),
            config,
            blocks: Vec::new(),
            slots: Default::default(),
            last_slot: None,
            index: Vec::new(),
            pending_open: Default::default(),
            node_batch: Vec::with_capacity(NODE_BATCH),
            object_batch: Vec::with_capacity(OBJECT_BATCH),
            coverage_buf: Vec::new(),
            events_since_commit: 0,
            last_commit: now,
            started: now,
            counts: WriteCounts::default(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn counts(&self) -> &WriteCounts {
        &self.counts
    }

    fn err(&self, action: &'static str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
        move |e| StoreError::sqlite(&self.path, action, e)
    }

    fn exec<P: rusqlite::Params>(
        &self,
        action: &'static str,
        sql: &str,
        p: P,
    ) -> Result<(), StoreError> {
        let mut st = self.conn.prepare_cached(sql).map_err(self.err(action))?;
        st.execute(p).map_err(self.err(action))?;
        Ok(())
    }

    pub fn set_meta(&self, key: &str, value: impl rusqlite::ToSql) -> Result<(), StoreError> {
        self.exec(
            "writing meta",
            "INSERT OR REPLACE INTO meta VALUES (?1, ?2)",
            params![key, value],
        )
    }

    pub fn hello(&self, h: &Hello) -> Result<(), StoreError> {
        self.set_meta("pid", h.pid as i64)?;
        self.set_meta("start_ms", h.start_ms as i64)?;
        self.set_meta("vm", &h.vm)?;
        self.set_meta("command", &h.command)?;
        self.set_meta("agent_version", &h.agent_version)
    }

    pub fn class(&self, c: &ClassDef) -> Result<(), StoreError> {
        self.exec(
            "storing a class",
            "INSERT OR REPLACE INTO classes VALUES (?1, ?2, ?3, ?4)",
            params![c.id.0, c.name, c.source_file, c.flags],
        )
    }

    pub fn method(&self, m: &MethodDef) -> Result<(), StoreError> {
        self.exec(
            "storing a method",
            "INSERT OR REPLACE INTO methods VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                m.id.0,
                m.class.0,
                m.name,
                m.descriptor,
                m.access,
                m.flags,
                &m.hash[..],
                m.first_line,
                m.last_line,
                {
                    let mut b = Vec::new();
                    put_blocks(&mut b, &m.blocks);
                    b
                }
            ],
        )?;
        for (i, v) in m.vars.iter().enumerate() {
            self.exec(
                "storing a local variable",
                "INSERT OR REPLACE INTO method_vars VALUES (?1, ?2, ?3, ?4, ?5)",
                params![m.id.0, i as i64, v.slot, v.name, v.descriptor],
            )?;
        }
        Ok(())
    }

    pub fn field(&self, f: &FieldDef) -> Result<(), StoreError> {
        self.exec(
            "storing a field",
            "INSERT OR REPLACE INTO fields VALUES (?1, ?2, ?3, ?4, ?5)",
            params![f.id.0, f.class.0, f.name, f.descriptor, f.flags],
        )
    }

    /// A thread definition, or the thread node of a thread seen before its definition.
    pub fn thread(&self, t: &ThreadDef) -> Result<(), StoreError> {
        self.exec(
            "storing a thread",
            "INSERT INTO threads(id, java_id, name) VALUES (?1, ?2, ?3)
             ON CONFLICT(id) DO UPDATE SET java_id = excluded.java_id, name = excluded.name",
            params![t.id.0, t.java_id as i64, t.name],
        )
    }

    pub fn thread_node(&self, thread: ThreadId, node: NodeId) -> Result<(), StoreError> {
        self.exec(
            "storing a thread",
            "INSERT INTO threads(id, node) VALUES (?1, ?2) ON CONFLICT(id) DO UPDATE SET node = excluded.node",
            params![thread.0, node.0],
        )
    }

    pub fn string(&self, id: StringId, text: &str) -> Result<(), StoreError> {
        self.exec(
            "storing a string",
            "INSERT OR REPLACE INTO strings VALUES (?1, ?2)",
            params![id.0 as i64, text],
        )
    }

    /// An object or array got its id (stored with the next batch of objects).
    pub fn object(
        &mut self,
        id: ObjectId,
        class: ClassId,
        length: Option<u32>,
        origin: Origin,
        ts: Timestamp,
        node: NodeId,
    ) -> Result<(), StoreError> {
        self.object_batch.push([
            Some(id.0 as i64),
            Some(i64::from(class.0)),
            length.map(i64::from),
            Some(origin as i64),
            Some(ts as i64),
            Some(i64::from(node.0)),
        ]);
        if self.object_batch.len() >= OBJECT_BATCH {
            self.flush_objects()?;
        }
        Ok(())
    }

    fn flush_objects(&mut self) -> Result<(), StoreError> {
        let batch = std::mem::take(&mut self.object_batch);
        let mut chunks = batch.chunks_exact(OBJECT_BATCH);
        for chunk in &mut chunks {
            let sql = multi_row_sql("INSERT OR REPLACE INTO objects VALUES ", 6, OBJECT_BATCH);
            let mut st = self
                .conn
                .prepare_cached(&sql)
                .map_err(self.err("storing objects"))?;
            for (k, v) in chunk.iter().flatten().enumerate() {
                st.raw_bind_parameter(k + 1, v)
                    .map_err(self.err("storing objects"))?;
            }
            st.raw_execute().map_err(self.err("storing objects"))?;
        }
        for row in chunks.remainder() {
            self.exec(
                "storing an object",
                "INSERT OR REPLACE INTO objects VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                rusqlite::params_from_iter(row.iter()),
            )?;
        }
        self.object_batch = batch;
        self.object_batch.clear();
        Ok(())
    }

    pub fn warning(
        &mut self,
        ts: Option<Timestamp>,
        source: &str,
        message: &str,
    ) -> Result<(), StoreError> {
        self.counts.warnings += 1;
        self.exec(
            "storing a warning",
            "INSERT INTO warnings(ts, source, message) VALUES (?1, ?2, ?3)",
            params![ts.map(|t| t as i64), source, message],
        )
    }

    /// An object's first `CONTENT` (kept if it was stored before).
    pub fn content_object(
        &self,
        id: ObjectId,
        kind: ContentKind,
        ts: Timestamp,
    ) -> Result<(), StoreError> {
        self.exec(
            "storing a content kind",
            "INSERT OR IGNORE INTO contents VALUES (?1, ?2, ?3)",
            params![id.0 as i64, kind as i64, ts as i64],
        )
    }

    /// Coverage entities met for the first time (see `crate::coverage::Entity::to_row`).
    pub fn entities(&self, entities: &[(u32, Entity)]) -> Result<(), StoreError> {
        for (id, e) in entities {
            let r = e.to_row();
            self.exec(
                "storing a coverage entity",
                "INSERT OR REPLACE INTO coverage_entities VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![id, r[0], r[1], r[2], r[3], r[4], r[5]],
            )?;
        }
        Ok(())
    }

    /// The entities a completed node covered itself, buffered and stored by pages of
    /// `COVERAGE_PAGE` nodes (`coverage_pages`, see docs/trace-schema.md): a row per node would
    /// cost more than its few ids. Nothing is stored when both lists are empty.
    pub fn node_coverage(&mut self, node: NodeId, c: &NodeCoverage) -> Result<(), StoreError> {
        if c.is_empty() {
            return Ok(());
        }
        self.coverage_buf.push((node, c.clone()));
        if self.coverage_buf.len() >= COVERAGE_PAGE {
            self.flush_coverage()?;
        }
        Ok(())
    }

    fn flush_coverage(&mut self) -> Result<(), StoreError> {
        if self.coverage_buf.is_empty() {
            return Ok(());
        }
        let mut buf = std::mem::take(&mut self.coverage_buf);
        buf.sort_by_key(|(n, _)| *n);
        let data = encode_coverage_page(&buf);
        let (first, last) = (buf[0].0, buf[buf.len() - 1].0);
        self.exec(
            "storing coverage",
            "INSERT INTO coverage_pages(first_node, last_node, data) VALUES (?1, ?2, ?3)",
            params![first.0, last.0, lz4_flex::compress_prepend_size(&data)],
        )?;
        buf.clear();
        self.coverage_buf = buf;
        Ok(())
    }

    /// Appends an event to its thread's block (see `BlockBuilder::push`).
    pub fn event(
        &mut self,
        thread: ThreadId,
        stack: &[StackEntry],
        depth: u32,
        ev: &Event,
        call_node: Option<NodeId>,
    ) -> Result<(), StoreError> {
        let i = match self.last_slot {
            Some((t, i)) if t == thread => i,
            _ => {
                let n = self.blocks.len();
                let i = *self.slots.entry(thread).or_insert(n);
                if i == n {
                    self.blocks.push(BlockBuilder::new(thread));
                }
                self.last_slot = Some((thread, i));
                i
            }
        };
        let b = &mut self.blocks[i];
        b.push(stack, depth, ev, call_node);
        self.counts.events += 1;
        self.counts.last_ts = self.counts.last_ts.max(ev.ts);
        self.events_since_commit += 1;
        if b.raw_len() >= self.config.block_bytes {
            if let Some(block) = b.take() {
                self.insert_block(&block)?;
            }
        }
        Ok(())
    }

    /// Records that `loc` got `value` at `ts`, written by the code `by` names (the top of the
    /// writing thread's stack; for an argument, the caller).
    pub fn write(&mut self, loc: Variable, ts: Timestamp, value: Value, by: StackEntry) {
        self.index.push(IndexEntry {
            key: loc.key(),
            ts,
            value,
            by,
        });
    }

    /// A node that has just started (its header has no exit).
    pub fn node_started(&mut self, row: NodeRow) {
        self.counts.nodes += 1;
        self.pending_open.insert(row.header.id, row);
    }

    /// A node that has just completed.
    pub fn node_completed(&mut self, row: &NodeRow) -> Result<(), StoreError> {
        self.counts.complete_nodes += 1;
        // Most nodes start and complete between two commits: one plain insert.
        if self.pending_open.remove(&row.header.id).is_none() {
            // Written open at an earlier commit: replace that row.
            return self.insert_node(row, true);
        }
        self.node_batch.push(row.clone());
        if self.node_batch.len() >= NODE_BATCH {
            self.flush_nodes()?;
        }
        Ok(())
    }

    /// Inserts the batched nodes, `NODE_BATCH` rows per statement (far less per-row work in
    /// SQLite than one statement per row).
    fn flush_nodes(&mut self) -> Result<(), StoreError> {
        let batch = std::mem::take(&mut self.node_batch);
        let mut chunks = batch.chunks_exact(NODE_BATCH);
        for chunk in &mut chunks {
            let sql = multi_row_sql("INSERT INTO nodes VALUES ", 10, NODE_BATCH);
            let mut st = self
                .conn
                .prepare_cached(&sql)
                .map_err(self.err("storing nodes"))?;
            let mut k = 1;
            for row in chunk {
                for v in node_values(row) {
                    st.raw_bind_parameter(k, v)
                        .map_err(self.err("storing nodes"))?;
                    k += 1;
                }
            }
            st.raw_execute().map_err(self.err("storing nodes"))?;
        }
        for row in chunks.remainder() {
            self.insert_node(row, false)?;
        }
        self.node_batch = batch;
        self.node_batch.clear();
        Ok(())
    }

    fn insert_node(&self, row: &NodeRow, replace: bool) -> Result<(), StoreError> {
        let sql = if replace {
            "INSERT OR REPLACE INTO nodes VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
        } else {
            "INSERT INTO nodes VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
        };
        self.exec(
            "storing a node",
            sql,
            rusqlite::params_from_iter(node_values(row)),
        )
    }

    fn insert_block(&self, b: &EncodedBlock) -> Result<(), StoreError> {
        self.exec(
            "storing an event block",
            "INSERT INTO blocks(thread, first_ts, last_ts, count, min_depth, start_stack, data)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                b.thread.0,
                b.first_ts as i64,
                b.last_ts as i64,
                b.count,
                b.min_depth,
                b.start_stack,
                b.data
            ],
        )
    }

    fn flush_index(&mut self) -> Result<(), StoreError> {
        if self.index.is_empty() {
            return Ok(());
        }
        let mut entries = std::mem::take(&mut self.index);
        let first = entries.iter().map(|e| e.ts).min().unwrap_or(0);
        let last = entries.iter().map(|e| e.ts).max().unwrap_or(0);
        self.exec(
            "storing an index segment",
            "INSERT INTO segments(level, first_ts, last_ts, writes) VALUES (0, ?1, ?2, ?3)",
            params![first as i64, last as i64, entries.len() as i64],
        )?;
        let segment = self.conn.last_insert_rowid();
        for page in build_pages(&mut entries, self.config.page_bytes) {
            self.exec(
                "storing an index page",
                "INSERT INTO index_pages(segment, start, data) VALUES (?1, ?2, ?3)",
                params![segment, page.start, page.data],
            )?;
        }
        entries.clear();
        self.index = entries;
        super::compact::compact(
            &self.conn,
            &self.path,
            self.config.merge_fan_in,
            self.config.merge_small_writes,
            self.config.page_bytes,
        )
    }

    /// Commits if the interval has passed or the buffers are full; call after each frame.
    pub fn maybe_commit(&mut self) -> Result<bool, StoreError> {
        let due = self.events_since_commit >= self.config.commit_events
            || self.index.len() >= self.config.index_entries
            || (self.events_since_commit > 0
                && self.last_commit.elapsed() >= self.config.commit_interval);
        if due {
            self.commit()?;
        }
        Ok(due)
    }

    /// Flushes every buffer and commits: afterwards a reader (or a crash) sees everything so far.
    pub fn commit(&mut self) -> Result<(), StoreError> {
        for i in 0..self.blocks.len() {
            if let Some(block) = self.blocks[i].take() {
                self.insert_block(&block)?;
            }
        }
        self.flush_index()?;
        self.flush_nodes()?;
        self.flush_coverage()?;
        self.flush_objects()?;
        let open: Vec<NodeRow> = self.pending_open.drain().map(|(_, r)| r).collect();
        for row in &open {
            self.insert_node(row, false)?;
        }
        self.write_counts()?;
        self.conn
            .execute_batch("COMMIT; BEGIN")
            .map_err(self.err("committing"))?;
        self.events_since_commit = 0;
        self.last_commit = Instant::now();
        Ok(())
    }

    fn write_counts(&self) -> Result<(), StoreError> {
        let c = &self.counts;
        self.set_meta("events", c.events as i64)?;
        self.set_meta("nodes", c.nodes as i64)?;
        self.set_meta("complete_nodes", c.complete_nodes as i64)?;
        self.set_meta("warnings", c.warnings as i64)?;
        self.set_meta("last_ts", c.last_ts as i64)
    }

    /// Writes the summary, commits, and leaves a single self-contained file (no WAL) when no
    /// reader holds it open.
    pub fn finish(mut self, ending: &Ending) -> Result<WriteCounts, StoreError> {
        let (status, exit_status, detail) = match ending {
            Ending::End { exit_status } => ("complete", Some(*exit_status), None),
            Ending::Truncated { detail } => ("truncated", None, Some(detail.as_str())),
            Ending::Malformed { detail } => ("malformed", None, Some(detail.as_str())),
        };
        self.set_meta("status", status)?;
        self.set_meta("exit_status", exit_status)?;
        self.set_meta("ending_detail", detail)?;
        self.set_meta("wall_ms", self.started.elapsed().as_millis() as i64)?;
        self.commit()?;
        self.conn
            .execute_batch("COMMIT")
            .map_err(self.err("committing"))?;
        // Fails harmlessly when a reader is attached: the file then keeps its WAL until closed.
        let _ = self
            .conn
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;");
        Ok(self.counts.clone())
    }
}

/// Completed nodes per multi-row insert (10 parameters each, well under SQLite's limit).
const NODE_BATCH: usize = 128;

/// Nodes per coverage page.
const COVERAGE_PAGE: usize = 256;

/// A coverage page before compression: per node (in node order) `node delta:varint
/// nedges:varint edge deltas ndefuses:varint def-use deltas`, ids as varint deltas of the
/// sorted list.
pub fn encode_coverage_page(nodes: &[(NodeId, NodeCoverage)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut prev_node = 0u32;
    for (node, c) in nodes {
        put_varint(&mut out, u64::from(node.0.wrapping_sub(prev_node)));
        prev_node = node.0;
        for ids in [&c.edges, &c.def_uses] {
            put_varint(&mut out, ids.len() as u64);
            let mut prev = 0u32;
            for &id in ids.iter() {
                put_varint(&mut out, u64::from(id.wrapping_sub(prev)));
                prev = id;
            }
        }
    }
    out
}

/// Objects per multi-row insert.
const OBJECT_BATCH: usize = 128;

/// `prefix` followed by `rows` groups of `columns` anonymous parameters.
fn multi_row_sql(prefix: &str, columns: usize, rows: usize) -> String {
    let group = format!("({})", vec!["?"; columns].join(","));
    let mut sql = String::from(prefix);
    sql.push_str(&vec![group; rows].join(","));
    sql
}

/// A node's columns in `nodes` order.
fn node_values(row: &NodeRow) -> [Option<i64>; 10] {
    let h = &row.header;
    let kind = match h.kind {
        NodeKind::Root => schema::KIND_ROOT,
        NodeKind::Thread => schema::KIND_THREAD,
        NodeKind::Routine => schema::KIND_ROUTINE,
        // The forest's nodes are the session's, never stored; the recorder makes none.
        NodeKind::External | NodeKind::Collapsed | NodeKind::Projected => schema::KIND_EXTERNAL,
    };
    let outcome = row.outcome.map(|o| match o {
        Outcome::Returned => 0,
        Outcome::Threw => 1,
    });
    [
        Some(i64::from(h.id.0)),
        h.parent.map(|p| i64::from(p.0)),
        Some(kind),
        h.method.map(|m| i64::from(m.0)),
        h.thread.map(|t| i64::from(t.0)),
        Some(i64::from(row.depth)),
        Some(h.entry as i64),
        h.exit.map(|e| e as i64),
        outcome,
        Some(if h.chained { schema::NODE_CHAINED } else { 0 }),
    ]
}
