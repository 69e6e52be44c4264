//! Writes a trace file while the program runs: definitions, nodes, event blocks and index
//! segments, committed periodically in WAL mode so that the file is always openable and a kill
//! loses at most the last commit interval. Memory stays bounded: blocks and the index buffer are
//! flushed by size.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::types::Value as SqlValue;

use super::block::{BlockBuilder, EncodedBlock, StackEntry};
use super::committer::{Commit, CommitThread, Committer, Rows};
use super::error::StoreError;
use super::index::{IndexEntry, Variable};
use super::node_window::NodeWindow;
use super::seal::{Batch, CoveragePage};
use super::{Ending, NodeRow, WriteCounts};
use crate::coverage::Entity;
use crate::ids::{ClassId, NodeId, ObjectId, StringId, ThreadId, Timestamp};
use crate::trace::priority::{ProgramEnd, Successor};
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
    /// Raw size of an index page: 8 KiB make traces 6-15 % smaller than 4 KiB (javassist
    /// 8.41 → 7.15 bytes an event) for lookups up to 1.6x slower, well within their goals
    /// (docs/benchmarks.md).
    pub page_bytes: usize,
    /// This many small index segments of one level are merged into one of the next level
    /// (0 or 1: never).
    pub merge_fan_in: usize,
    /// A segment with at most this many writes is small (see `merge_fan_in`).
    pub merge_small_writes: u64,
    /// Threads that seal a commit (compress blocks, build index and node pages: `seal`); 1
    /// seals and inserts on the writer's own thread, more also move the SQLite inserts and
    /// commits to a thread of their own (`committer`). The default is `HINDSIGHT_STORE_THREADS`
    /// from the environment, else every core.
    pub threads: usize,
    /// The threads that store the recording lower their priority (`trace::priority`) once the
    /// recorder's sink lets them (`NodeSink::store_may_fall_behind`), and successors carry on
    /// their work at the recorder's priority once the program has ended: a live recording's
    /// do, so that the program keeps the CPU it needs (`record_threaded` only). Off by default.
    pub behind_the_program: Option<ProgramEnd>,
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
            page_bytes: 8 * 1024,
            merge_fan_in: 8,
            merge_small_writes: 128 * 1024,
            threads: default_threads(),
            behind_the_program: None,
        }
    }
}

/// Where commits go: stored on the recorder's thread, or handed to the store's own thread.
enum Store {
    Inline(Committer),
    Thread(CommitThread),
}

pub struct TraceWriter {
    path: PathBuf,
    config: WriterConfig,
    store: Option<Store>,
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
    /// Rows of the small tables since the last commit.
    rows: Rows,
    /// Objects whose `contents` row is stored (bounded: `CONTENT_SEEN`).
    content_seen: rustc_hash::FxHashSet<ObjectId>,
    /// Completed nodes' coverage waiting for its page.
    coverage_buf: CoveragePage,
    /// Full coverage pages waiting for the commit.
    coverage_pages: Vec<CoveragePage>,
    /// Whether a periodic commit may be stored while the recorder goes on (`pipeline`).
    pipelined: bool,
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
        let committer = Committer::create(path, &config)?;
        let store = if config.threads > 1 {
            // A successor only if the thread may lower itself; without one it never needs to.
            let successor = config
                .behind_the_program
                .as_ref()
                .and_then(|_| Successor::start().ok());
            Store::Thread(CommitThread::start(committer, successor)?)
        } else {
            Store::Inline(committer)
        };
        let now = Instant::now();
        Ok(TraceWriter {
            path: path.to_path_buf(),
            config,
            store: Some(store),
            blocks: Vec::new(),
            slots: Default::default(),
            last_slot: None,
            index: Vec::new(),
            full_blocks: Vec::new(),
            nodes: NodeWindow::default(),
            rows: Rows::default(),
            content_seen: Default::default(),
            coverage_buf: CoveragePage::default(),
            coverage_pages: Vec::new(),
            pipelined: false,
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

    /// A statement for the next commit (definitions, warnings, `meta`).
    fn statement(&mut self, action: &'static str, sql: &'static str, p: Vec<SqlValue>) {
        self.rows.statements.push((action, sql, p));
    }

    pub fn set_meta(&mut self, key: &str, value: impl Into<SqlValue>) -> Result<(), StoreError> {
        self.statement(
            "writing meta",
            "INSERT OR REPLACE INTO meta VALUES (?1, ?2)",
            vec![SqlValue::Text(key.to_owned()), value.into()],
        );
        Ok(())
    }

    pub fn hello(&mut self, h: &Hello) -> Result<(), StoreError> {
        self.set_meta("pid", h.pid as i64)?;
        self.set_meta("start_ms", h.start_ms as i64)?;
        self.set_meta("vm", h.vm.clone())?;
        self.set_meta("command", h.command.clone())?;
        self.set_meta("agent_version", h.agent_version.clone())
    }

    pub fn class(&mut self, c: &ClassDef) -> Result<(), StoreError> {
        self.statement(
            "storing a class",
            "INSERT OR REPLACE INTO classes VALUES (?1, ?2, ?3, ?4)",
            vec![
                int(c.id.0.into()),
                text(&c.name),
                text(&c.source_file),
                int(c.flags.into()),
            ],
        );
        Ok(())
    }

    pub fn method(&mut self, m: &MethodDef) -> Result<(), StoreError> {
        let mut blocks = Vec::new();
        put_blocks(&mut blocks, &m.blocks);
        self.statement(
            "storing a method",
            "INSERT OR REPLACE INTO methods VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            vec![
                int(m.id.0.into()),
                int(m.class.0.into()),
                text(&m.name),
                text(&m.descriptor),
                int(m.access.into()),
                int(m.flags.into()),
                SqlValue::Blob(m.hash.to_vec()),
                int(m.first_line.into()),
                int(m.last_line.into()),
                SqlValue::Blob(blocks),
            ],
        );
        for (i, v) in m.vars.iter().enumerate() {
            self.statement(
                "storing a local variable",
                "INSERT OR REPLACE INTO method_vars VALUES (?1, ?2, ?3, ?4, ?5)",
                vec![
                    int(m.id.0.into()),
                    int(i as i64),
                    int(v.slot.into()),
                    text(&v.name),
                    text(&v.descriptor),
                ],
            );
        }
        Ok(())
    }

    pub fn field(&mut self, f: &FieldDef) -> Result<(), StoreError> {
        self.statement(
            "storing a field",
            "INSERT OR REPLACE INTO fields VALUES (?1, ?2, ?3, ?4, ?5)",
            vec![
                int(f.id.0.into()),
                int(f.class.0.into()),
                text(&f.name),
                text(&f.descriptor),
                int(f.flags.into()),
            ],
        );
        Ok(())
    }

    /// A thread definition, or the thread node of a thread seen before its definition.
    pub fn thread(&mut self, t: &ThreadDef) -> Result<(), StoreError> {
        self.statement(
            "storing a thread",
            "INSERT INTO threads(id, java_id, name) VALUES (?1, ?2, ?3)
             ON CONFLICT(id) DO UPDATE SET java_id = excluded.java_id, name = excluded.name",
            vec![int(t.id.0.into()), int(t.java_id as i64), text(&t.name)],
        );
        Ok(())
    }

    pub fn thread_node(&mut self, thread: ThreadId, node: NodeId) -> Result<(), StoreError> {
        self.statement(
            "storing a thread",
            "INSERT INTO threads(id, node) VALUES (?1, ?2) ON CONFLICT(id) DO UPDATE SET node = excluded.node",
            vec![int(thread.0.into()), int(node.0.into())],
        );
        Ok(())
    }

    /// A string's text.
    pub fn string(&mut self, id: StringId, text: &str) -> Result<(), StoreError> {
        self.rows
            .strings
            .push([int(id.0 as i64), SqlValue::Text(text.to_owned())]);
        Ok(())
    }

    /// An object or array got its id.
    pub fn object(
        &mut self,
        id: ObjectId,
        class: ClassId,
        length: Option<u32>,
        origin: Origin,
        ts: Timestamp,
        node: NodeId,
    ) -> Result<(), StoreError> {
        self.rows.objects.push([
            int(id.0 as i64),
            int(class.0.into()),
            length.map_or(SqlValue::Null, |l| int(l.into())),
            int(origin as i64),
            int(ts as i64),
            int(node.0.into()),
        ]);
        Ok(())
    }

    pub fn warning(
        &mut self,
        ts: Option<Timestamp>,
        source: &str,
        message: &str,
    ) -> Result<(), StoreError> {
        self.counts.warnings += 1;
        self.statement(
            "storing a warning",
            "INSERT INTO warnings(ts, source, message) VALUES (?1, ?2, ?3)",
            vec![
                ts.map_or(SqlValue::Null, |t| int(t as i64)),
                text(source),
                text(message),
            ],
        );
        Ok(())
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
        self.rows
            .contents
            .push([int(id.0 as i64), int(kind as i64), int(ts as i64)]);
        Ok(())
    }

    /// Coverage entities met for the first time (see `crate::coverage::Entity::to_row`).
    pub fn entities(&mut self, entities: &[(u32, Entity)]) -> Result<(), StoreError> {
        for (id, e) in entities {
            let r = e.to_row();
            self.rows.entities.push([
                int((*id).into()),
                int(r[0]),
                int(r[1]),
                int(r[2]),
                int(r[3]),
                int(r[4]),
                int(r[5]),
            ]);
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

    /// Everything received since the last commit.
    fn take_commit(&mut self) -> Commit {
        for b in self.blocks.iter_mut() {
            if let Some(block) = b.take() {
                self.full_blocks.push(block);
            }
        }
        if !self.coverage_buf.is_empty() {
            let page = std::mem::take(&mut self.coverage_buf);
            self.coverage_pages.push(page);
        }
        Commit {
            rows: std::mem::take(&mut self.rows),
            batch: Batch {
                blocks: std::mem::take(&mut self.full_blocks),
                index: {
                    let capacity = self.index.len().min(self.config.index_entries);
                    std::mem::replace(&mut self.index, Vec::with_capacity(capacity))
                },
                nodes: self.nodes.flush(),
                coverage: std::mem::take(&mut self.coverage_pages),
                counts: self.counts.clone(),
            },
        }
    }

    /// Lets periodic commits be stored on the store's thread while the recorder goes on: what
    /// they stored becomes visible a little later (a reader asking for a commit, `commit`,
    /// still waits for everything). The recording loop calls `poll` between frames.
    pub fn pipeline(&mut self) {
        self.pipelined = matches!(self.store, Some(Store::Thread(_)));
    }

    /// Whether a commit handed to the store's thread was stored since the last call (without
    /// waiting); an error of the store's thread comes out here.
    pub fn poll(&mut self) -> Result<bool, StoreError> {
        match &mut self.store {
            Some(Store::Thread(t)) => t.poll(),
            _ => Ok(false),
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

    /// Moves the threads that seal and store commits behind the program (`trace::priority`);
    /// the caller's thread lowers itself.
    pub fn run_behind_the_program(&mut self) {
        match self.store.as_mut() {
            Some(Store::Inline(c)) => c.run_behind_the_program(),
            Some(Store::Thread(t)) => t.run_behind_the_program(),
            None => {}
        }
    }

    /// Moves the threads that seal and store commits back to the priority they started with,
    /// once the program has ended (`trace::priority`). Call it on the thread that carries on the
    /// writer's work: an inline store's sealing pool is started again from it.
    pub fn lift(&mut self) {
        match self.store.as_mut() {
            Some(Store::Inline(c)) => c.lift(),
            Some(Store::Thread(t)) => t.lift(),
            None => {}
        }
    }

    /// Flushes every buffer and commits: afterwards a reader (or a crash) sees everything so far.
    pub fn commit(&mut self) -> Result<(), StoreError> {
        self.commit_batch(true)
    }

    /// Hands what arrived since the last commit to the store; with `wait`, returns once it and
    /// every commit before are stored, else once the commit before is (so that at most one
    /// is being stored while the next fills).
    fn commit_batch(&mut self, wait: bool) -> Result<(), StoreError> {
        let commit = self.take_commit();
        self.events_since_commit = 0;
        self.last_commit = Instant::now();
        match self.store.as_mut() {
            Some(Store::Inline(c)) => c.store(commit),
            Some(Store::Thread(t)) => {
                t.store(commit, 1)?;
                if wait {
                    t.wait_all()?;
                }
                Ok(())
            }
            None => Err(StoreError::Stopped {
                path: self.path.clone(),
            }),
        }
    }

    /// Writes the summary, commits, and leaves a single self-contained file (no WAL) when no
    /// reader holds it open.
    pub fn finish(mut self, ending: &Ending) -> Result<WriteCounts, StoreError> {
        let (status, exit_status, detail) = match ending {
            Ending::End { exit_status } => ("complete", Some(*exit_status), None),
            Ending::Truncated { detail } => ("truncated", None, Some(detail.as_str())),
            Ending::Malformed { detail } => ("malformed", None, Some(detail.as_str())),
        };
        self.set_meta("status", status.to_owned())?;
        self.set_meta("exit_status", exit_status)?;
        self.set_meta("ending_detail", detail.map(str::to_owned))?;
        self.set_meta("wall_ms", self.started.elapsed().as_millis() as i64)?;
        let last = self.take_commit();
        let counts = self.counts.clone();
        match self.store.take() {
            Some(Store::Inline(mut c)) => c.finish(last, &counts)?,
            Some(Store::Thread(t)) => t.finish(last, counts.clone())?,
            None => {
                return Err(StoreError::Stopped {
                    path: self.path.clone(),
                })
            }
        }
        Ok(counts)
    }
}

fn int(v: i64) -> SqlValue {
    SqlValue::Integer(v)
}

fn text(s: &str) -> SqlValue {
    SqlValue::Text(s.to_owned())
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
