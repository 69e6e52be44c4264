//! Writes a trace file while the program runs: definitions, nodes, event blocks and index
//! segments, committed periodically in WAL mode so that the file is always openable and a kill
//! loses at most the last commit interval. Memory stays bounded: blocks and the index buffer are
//! flushed by size.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::types::Value as SqlValue;
use rusqlite::{params, Connection, OpenFlags};

use super::block::{BlockBuilder, EncodedBlock, StackEntry};
use super::error::StoreError;
use super::index::{IndexEntry, Variable};
use super::node_window::NodeFlush;
use super::node_window::NodeWindow;
use super::schema::{self, APPLICATION_ID, FORMAT_VERSION};
use super::seal::{seal, Batch, CoveragePage, Sealed};
use super::{Ending, NodeRow, WriteCounts};
use crate::coverage::Entity;
use crate::ids::{ClassId, NodeId, ObjectId, StringId, ThreadId, Timestamp};
use crate::trace::wire::{
    put_blocks, ClassDef, ContentKind, Event, FieldDef, Hello, MethodDef, Origin, ThreadDef, Value,
};

/// When the writer flushes and commits.
#[derive(Clone, Debug)]
pub struct WriterConfig {
    /// Commit at least this often while events arrive.
    pub commit_interval: Duration,
    /// Commit after this many events even if the interval has not passed.
    pub commit_events: u64,
    /// Flush a thread's block when its raw size reaches this.
    pub block_bytes: usize,
    /// Commit when this many index entries are buffered (about 40 bytes each; a pipelined
    /// writer holds two commits' worth at most, one filling and one sealing).
    pub index_entries: usize,
    /// Raw size of an index page.
    pub page_bytes: usize,
    /// This many small index segments of one level are merged into one of the next level
    /// (0 or 1: never).
    pub merge_fan_in: usize,
    /// A segment with at most this many writes is small (see `merge_fan_in`).
    pub merge_small_writes: u64,
    /// Threads that seal a commit (compress blocks, build index and node pages: `seal`); 1
    /// seals on the writer's own thread. The default is `HINDSIGHT_STORE_THREADS` from the
    /// environment, else every core.
    pub threads: usize,
}

/// The environment variable that sets `WriterConfig::threads` by default.
pub const STORE_THREADS_ENV: &str = "HINDSIGHT_STORE_THREADS";

fn default_threads() -> usize {
    std::env::var(STORE_THREADS_ENV)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n| n >= 1)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

impl Default for WriterConfig {
    fn default() -> Self {
        WriterConfig {
            commit_interval: Duration::from_millis(200),
            commit_events: 1_000_000,
            block_bytes: 32 * 1024,
            index_entries: 1 << 19,
            page_bytes: 4096,
            merge_fan_in: 8,
            merge_small_writes: 128 * 1024,
            threads: default_threads(),
        }
    }
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
    /// Blocks filled since the last commit, not compressed yet.
    full_blocks: Vec<EncodedBlock>,
    /// Nodes started since the last commit (written in pages at the commit).
    nodes: NodeWindow,
    /// Rows waiting for a multi-row insert.
    objects: RowBatch<6>,
    strings: RowBatch<2>,
    contents: RowBatch<3>,
    /// Objects whose `contents` row is stored (bounded: `CONTENT_SEEN`).
    content_seen: rustc_hash::FxHashSet<ObjectId>,
    /// Completed nodes' coverage waiting for its page.
    coverage_buf: CoveragePage,
    /// Full coverage pages waiting for the commit.
    coverage_pages: Vec<CoveragePage>,
    /// The pool that seals commits (`None` with one thread).
    pool: Option<rayon::ThreadPool>,
    /// Whether a periodic commit may seal on the pool while the recorder goes on (`pipeline`).
    pipelined: bool,
    /// The batch being sealed on the pool, stored at the next commit or `poll`.
    inflight: Option<std::sync::mpsc::Receiver<Sealed>>,
    /// The counts of what is stored (written to `meta` at each commit).
    stored: WriteCounts,
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
        // The trace holds every value of the run: readable by its owner only. SQLite gives its
        // WAL and shared-memory files the mode of the database file.
        owner_only_file(path)?;
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
        let pool = (config.threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(config.threads)
                    .thread_name(|i| format!("hindsight-seal-{i}"))
                    .build()
                    .ok()
            })
            .flatten();
        Ok(TraceWriter {
            conn,
            path: path.to_path_buf(),
            config,
            blocks: Vec::new(),
            slots: Default::default(),
            last_slot: None,
            index: Vec::new(),
            full_blocks: Vec::new(),
            nodes: NodeWindow::default(),
            objects: RowBatch::new("INSERT OR REPLACE INTO objects VALUES ", "storing objects"),
            strings: RowBatch::new("INSERT OR REPLACE INTO strings VALUES ", "storing strings"),
            contents: RowBatch::new(
                "INSERT OR IGNORE INTO contents VALUES ",
                "storing content kinds",
            ),
            content_seen: Default::default(),
            coverage_buf: CoveragePage::default(),
            coverage_pages: Vec::new(),
            pool,
            pipelined: false,
            inflight: None,
            stored: WriteCounts::default(),
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

    /// A string's text (stored with the next batch of strings).
    pub fn string(&mut self, id: StringId, text: &str) -> Result<(), StoreError> {
        self.strings.push(
            [
                SqlValue::Integer(id.0 as i64),
                SqlValue::Text(text.to_owned()),
            ],
            &self.conn,
            &self.path,
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
        let int = |v: i64| SqlValue::Integer(v);
        self.objects.push(
            [
                int(id.0 as i64),
                int(i64::from(class.0)),
                length.map_or(SqlValue::Null, |l| int(i64::from(l))),
                int(origin as i64),
                int(ts as i64),
                int(i64::from(node.0)),
            ],
            &self.conn,
            &self.path,
        )
    }

    /// Stores the rows waiting in batches (objects, strings, contents).
    fn flush_rows(&mut self) -> Result<(), StoreError> {
        self.objects.flush(&self.conn, &self.path)?;
        self.strings.flush(&self.conn, &self.path)?;
        self.contents.flush(&self.conn, &self.path)
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

    /// An object's first `CONTENT` (kept if it was stored before; the recorder may say it
    /// again once it has forgotten the object's content).
    pub fn content_object(
        &mut self,
        id: ObjectId,
        kind: ContentKind,
        ts: Timestamp,
    ) -> Result<(), StoreError> {
        if !self.content_seen.insert(id) {
            return Ok(());
        }
        if self.content_seen.len() >= CONTENT_SEEN {
            self.content_seen.clear();
        }
        self.contents.push(
            [
                SqlValue::Integer(id.0 as i64),
                SqlValue::Integer(kind as i64),
                SqlValue::Integer(ts as i64),
            ],
            &self.conn,
            &self.path,
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
    pub fn node_coverage(
        &mut self,
        node: NodeId,
        edges: &[u32],
        def_uses: &[u32],
    ) -> Result<(), StoreError> {
        if edges.is_empty() && def_uses.is_empty() {
            return Ok(());
        }
        self.coverage_buf.push(node, edges, def_uses);
        if self.coverage_buf.len() >= COVERAGE_PAGE {
            let page = std::mem::take(&mut self.coverage_buf);
            self.coverage_pages.push(page);
        }
        Ok(())
    }

    /// Appends an event to its thread's block (see `BlockBuilder::push`; `operands`: the
    /// event's bytes on the wire, copied as they are).
    pub fn event(
        &mut self,
        thread: ThreadId,
        stack: &[StackEntry],
        depth: u32,
        ev: &Event,
        call_node: Option<NodeId>,
        operands: Option<&[u8]>,
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
        b.push(stack, depth, ev, call_node, operands);
        self.counts.events += 1;
        self.counts.last_ts = self.counts.last_ts.max(ev.ts);
        self.events_since_commit += 1;
        if b.raw_len() >= self.config.block_bytes {
            if let Some(block) = b.take() {
                self.full_blocks.push(block);
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
        self.nodes.started(row);
    }

    /// A node that has just completed.
    pub fn node_completed(&mut self, row: &NodeRow) -> Result<(), StoreError> {
        self.counts.complete_nodes += 1;
        self.nodes.completed(row);
        Ok(())
    }

    /// Writes node pages (compressed by `seal`) and the children and ends of nodes left open
    /// (`node_window`).
    fn store_nodes(&self, flush: &NodeFlush) -> Result<(), StoreError> {
        for (first, last, data) in &flush.pages {
            self.exec(
                "storing nodes",
                "INSERT INTO node_pages(first, last, data) VALUES (?1, ?2, ?3)",
                params![first.0, last.0, data],
            )?;
        }
        for (parent, chunk, count, data) in &flush.chunks {
            self.exec(
                "storing the children of a node",
                "INSERT OR REPLACE INTO node_children(parent, chunk, count, data) VALUES (?1, ?2, ?3, ?4)",
                params![parent.0, chunk, count, data],
            )?;
        }
        for (node, exit, outcome) in &flush.ends {
            self.exec(
                "storing the end of a node",
                "INSERT OR REPLACE INTO node_ends(id, exit_ts, outcome) VALUES (?1, ?2, ?3)",
                params![node.0, *exit as i64, outcome.map(|o| o as i64)],
            )?;
        }
        Ok(())
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

    /// Inserts a sealed batch: blocks, the index segment (then merges small segments), nodes
    /// and coverage pages.
    fn store_sealed(&mut self, sealed: Sealed) -> Result<(), StoreError> {
        for block in &sealed.blocks {
            self.insert_block(block)?;
        }
        if let Some((first, last, writes, pages)) = &sealed.segment {
            self.exec(
                "storing an index segment",
                "INSERT INTO segments(level, first_ts, last_ts, writes) VALUES (0, ?1, ?2, ?3)",
                params![*first as i64, *last as i64, *writes as i64],
            )?;
            let segment = self.conn.last_insert_rowid();
            for page in pages {
                self.exec(
                    "storing an index page",
                    "INSERT INTO index_pages(segment, start, data) VALUES (?1, ?2, ?3)",
                    params![segment, page.start, page.data],
                )?;
            }
            super::compact::compact(
                &self.conn,
                &self.path,
                self.config.merge_fan_in,
                self.config.merge_small_writes,
                self.config.page_bytes,
            )?;
        }
        self.store_nodes(&sealed.nodes)?;
        for (first, last, data) in &sealed.coverage {
            self.exec(
                "storing coverage",
                "INSERT INTO coverage_pages(first_node, last_node, data) VALUES (?1, ?2, ?3)",
                params![first.0, last.0, data],
            )?;
        }
        self.stored = sealed.counts;
        Ok(())
    }

    /// Everything received since the last commit, for `seal`.
    fn take_batch(&mut self) -> Batch {
        for b in self.blocks.iter_mut() {
            if let Some(block) = b.take() {
                self.full_blocks.push(block);
            }
        }
        if !self.coverage_buf.is_empty() {
            let page = std::mem::take(&mut self.coverage_buf);
            self.coverage_pages.push(page);
        }
        Batch {
            blocks: std::mem::take(&mut self.full_blocks),
            index: {
                let capacity = self.index.len().min(self.config.index_entries);
                std::mem::replace(&mut self.index, Vec::with_capacity(capacity))
            },
            nodes: self.nodes.flush(),
            coverage: std::mem::take(&mut self.coverage_pages),
            counts: self.counts.clone(),
        }
    }

    /// Lets periodic commits seal on the pool while the recorder goes on: what they stored
    /// becomes visible at the next commit or `poll` (a reader asking for a commit, `commit`,
    /// still waits for everything). The recording loop calls `poll` between frames.
    pub fn pipeline(&mut self) {
        self.pipelined = self.pool.is_some();
    }

    /// Stores and commits the batch sealed on the pool, if it is ready; whether it was.
    pub fn poll(&mut self) -> Result<bool, StoreError> {
        let ready = match &self.inflight {
            Some(rx) => rx.try_recv().ok(),
            None => None,
        };
        match ready {
            Some(sealed) => {
                self.inflight = None;
                self.store_sealed(sealed)?;
                self.commit_transaction()?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Commits if the interval has passed or the buffers are full; call after each frame.
    ///
    /// The interval alone commits only once the index buffer would make a segment too big to be
    /// merged again (`merge_small_writes`), or after ten intervals: a segment the merge rewrites
    /// costs its writes twice (13 % of the store's CPU on htmlcleaner when commits came every
    /// 200 ms, docs/benchmarks.md). A reader that waits asks for a commit (`commit`).
    pub fn maybe_commit(&mut self) -> Result<bool, StoreError> {
        let since = self.last_commit.elapsed();
        let big_enough = self.config.merge_fan_in < 2
            || self.index.len() as u64 >= self.config.merge_small_writes
            || since >= self.config.commit_interval * 10;
        let due = self.events_since_commit >= self.config.commit_events
            || self.index.len() >= self.config.index_entries
            || (self.events_since_commit > 0 && since >= self.config.commit_interval && big_enough);
        if due {
            self.commit_batch(!self.pipelined)?;
        }
        Ok(due)
    }

    /// Flushes every buffer and commits: afterwards a reader (or a crash) sees everything so far.
    pub fn commit(&mut self) -> Result<(), StoreError> {
        self.commit_batch(true)
    }

    /// Seals what arrived since the last commit and commits it; without `wait`, it is sealed on
    /// the pool and stored at the next commit or `poll` (the batch sealed before is stored now).
    fn commit_batch(&mut self, wait: bool) -> Result<(), StoreError> {
        let batch = self.take_batch();
        if let Some(rx) = self.inflight.take() {
            let sealed = rx.recv().map_err(|_| StoreError::Corrupt {
                path: self.path.clone(),
                detail: "the thread sealing the previous commit stopped".into(),
            })?;
            self.store_sealed(sealed)?;
        }
        let page_bytes = self.config.page_bytes;
        match &self.pool {
            Some(pool) if !wait => {
                let (tx, rx) = std::sync::mpsc::sync_channel(1);
                pool.spawn(move || {
                    let _ = tx.send(seal(batch, page_bytes, true));
                });
                self.inflight = Some(rx);
            }
            Some(pool) => {
                let sealed = pool.install(|| seal(batch, page_bytes, true));
                self.store_sealed(sealed)?;
            }
            None => self.store_sealed(seal(batch, page_bytes, false))?,
        }
        self.events_since_commit = 0;
        self.last_commit = Instant::now();
        self.commit_transaction()
    }

    fn commit_transaction(&mut self) -> Result<(), StoreError> {
        self.flush_rows()?;
        self.write_counts()?;
        self.conn
            .execute_batch("COMMIT; BEGIN")
            .map_err(self.err("committing"))
    }

    fn write_counts(&self) -> Result<(), StoreError> {
        let c = &self.stored;
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
        // The counts of the finished trace (warnings may have come after the last batch).
        self.stored = self.counts.clone();
        self.write_counts()?;
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

/// Creates an empty file at `path` with mode 0600 (before SQLite opens it).
fn owner_only_file(path: &Path) -> Result<(), StoreError> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map(drop)
        .map_err(|source| StoreError::Io {
            path: path.into(),
            action: "creating the trace",
            source,
        })
}

/// Nodes per coverage page.
const COVERAGE_PAGE: usize = 256;

/// Objects whose content kind the writer remembers having stored, at most.
const CONTENT_SEEN: usize = 1 << 20;

/// Rows per multi-row insert.
const BATCH_ROWS: usize = 128;

/// Rows of one table waiting for a multi-row insert (a statement per row costs SQLite several
/// times more); stored when `BATCH_ROWS` are waiting and at each commit.
struct RowBatch<const N: usize> {
    prefix: &'static str,
    action: &'static str,
    rows: Vec<[SqlValue; N]>,
}

impl<const N: usize> RowBatch<N> {
    fn new(prefix: &'static str, action: &'static str) -> Self {
        RowBatch {
            prefix,
            action,
            rows: Vec::with_capacity(BATCH_ROWS),
        }
    }

    fn push(
        &mut self,
        row: [SqlValue; N],
        conn: &Connection,
        path: &Path,
    ) -> Result<(), StoreError> {
        self.rows.push(row);
        if self.rows.len() >= BATCH_ROWS {
            self.flush(conn, path)?;
        }
        Ok(())
    }

    fn flush(&mut self, conn: &Connection, path: &Path) -> Result<(), StoreError> {
        let err = |e| StoreError::sqlite(path, self.action, e);
        let mut chunks = self.rows.chunks_exact(BATCH_ROWS);
        for chunk in &mut chunks {
            let mut st = conn
                .prepare_cached(&multi_row_sql(self.prefix, N, BATCH_ROWS))
                .map_err(err)?;
            for (k, v) in chunk.iter().flatten().enumerate() {
                st.raw_bind_parameter(k + 1, v).map_err(err)?;
            }
            st.raw_execute().map_err(err)?;
        }
        let mut one = conn
            .prepare_cached(&multi_row_sql(self.prefix, N, 1))
            .map_err(err)?;
        for row in chunks.remainder() {
            one.execute(rusqlite::params_from_iter(row.iter()))
                .map_err(err)?;
        }
        self.rows.clear();
        Ok(())
    }
}

/// `prefix` followed by `rows` groups of `columns` anonymous parameters.
fn multi_row_sql(prefix: &str, columns: usize, rows: usize) -> String {
    let group = format!("({})", vec!["?"; columns].join(","));
    let mut sql = String::from(prefix);
    sql.push_str(&vec![group; rows].join(","));
    sql
}
