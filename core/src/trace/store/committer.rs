//! The SQLite side of the writer: each commit's batch sealed (`seal`), inserted and committed.
//! With one store thread this runs on the recorder's thread, inline. With more, it runs on a
//! thread of its own (`CommitThread`), sealing on a rayon pool, so that the recorder's thread
//! never waits for SQLite nor for compression: it hands a batch over and goes on with the next
//! events, and waits only when it asks for a commit to be visible (`TraceWriter::commit`) or
//! when the batch before is still being stored (memory stays at two batches).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, SyncSender, TryRecvError};
use std::thread::JoinHandle;

use rusqlite::types::Value as SqlValue;
use rusqlite::{params, Connection, OpenFlags};

use super::error::StoreError;
use super::schema::{self, APPLICATION_ID, FORMAT_VERSION};
use super::seal::{seal, Batch, Sealed};
use super::{WriteCounts, WriterConfig};
use crate::trace::priority::{behind_the_program, Successor};

/// Rows of the small tables waiting for their commit, in the order they came: definitions,
/// warnings, `meta` entries, and the many rows of objects, strings and contents, which are
/// inserted many to a statement.
#[derive(Default)]
pub struct Rows {
    /// `(action, sql, parameters)`.
    pub statements: Vec<(&'static str, &'static str, Vec<SqlValue>)>,
    pub objects: Vec<[SqlValue; 6]>,
    pub strings: Vec<[SqlValue; 2]>,
    pub contents: Vec<[SqlValue; 3]>,
    pub entities: Vec<[SqlValue; 7]>,
}

/// What one commit stores.
#[derive(Default)]
pub struct Commit {
    pub rows: Rows,
    /// Blocks, index entries, nodes and coverage for `seal`, and the counts once stored.
    pub batch: Batch,
}

/// The writer's connection and what storing a commit needs.
pub struct Committer {
    conn: Connection,
    path: PathBuf,
    page_bytes: usize,
    merge_fan_in: usize,
    merge_small_writes: u64,
    /// The pool that seals commits (`None` with one thread: sealed inline).
    pool: Option<rayon::ThreadPool>,
}

impl Committer {
    /// Creates the trace's schema in the (new, empty) file at `path` and opens the first
    /// transaction.
    pub fn create(path: &Path, config: &WriterConfig) -> Result<Committer, StoreError> {
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
        let pool = sealing_pool(config.threads);
        Ok(Committer {
            conn,
            path: path.to_path_buf(),
            page_bytes: config.page_bytes,
            merge_fan_in: config.merge_fan_in,
            merge_small_writes: config.merge_small_writes,
            pool,
        })
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

    /// Moves the sealing threads behind the program (`trace::priority`); the caller's thread
    /// lowers itself.
    pub fn run_behind_the_program(&self) {
        if let Some(pool) = &self.pool {
            pool.broadcast(|_| behind_the_program());
        }
    }

    /// Starts the sealing pool again from the calling thread, at its priority: a carried-on
    /// store's (`trace::priority::Successor`).
    pub fn lift(&mut self) {
        if let Some(pool) = &self.pool {
            self.pool = sealing_pool(pool.current_num_threads());
        }
    }

    /// Seals, inserts and commits one batch: afterwards readers see it.
    pub fn store(&mut self, commit: Commit) -> Result<(), StoreError> {
        let page_bytes = self.page_bytes;
        let sealed = match &self.pool {
            Some(pool) => pool.install(|| seal(commit.batch, page_bytes, true)),
            None => seal(commit.batch, page_bytes, false),
        };
        self.insert_rows(commit.rows)?;
        self.insert_sealed(&sealed)?;
        self.write_counts(&sealed.counts)?;
        self.conn
            .execute_batch("COMMIT; BEGIN")
            .map_err(self.err("committing"))
    }

    fn insert_rows(&self, rows: Rows) -> Result<(), StoreError> {
        for (action, sql, p) in &rows.statements {
            self.exec(action, sql, rusqlite::params_from_iter(p.iter()))?;
        }
        self.insert_many(
            "storing objects",
            "INSERT OR REPLACE INTO objects VALUES ",
            &rows.objects,
        )?;
        self.insert_many(
            "storing strings",
            "INSERT OR REPLACE INTO strings VALUES ",
            &rows.strings,
        )?;
        self.insert_many(
            "storing content kinds",
            "INSERT OR IGNORE INTO contents VALUES ",
            &rows.contents,
        )?;
        self.insert_many(
            "storing coverage entities",
            "INSERT OR REPLACE INTO coverage_entities VALUES ",
            &rows.entities,
        )
    }

    /// Inserts rows `BATCH_ROWS` to a statement (a statement per row costs SQLite several
    /// times more), the rest one by one.
    fn insert_many<const N: usize>(
        &self,
        action: &'static str,
        prefix: &str,
        rows: &[[SqlValue; N]],
    ) -> Result<(), StoreError> {
        let mut chunks = rows.chunks_exact(BATCH_ROWS);
        let many = multi_row_sql(prefix, N, BATCH_ROWS);
        for chunk in &mut chunks {
            let mut st = self.conn.prepare_cached(&many).map_err(self.err(action))?;
            for (k, v) in chunk.iter().flatten().enumerate() {
                st.raw_bind_parameter(k + 1, v).map_err(self.err(action))?;
            }
            st.raw_execute().map_err(self.err(action))?;
        }
        if !chunks.remainder().is_empty() {
            let mut one = self
                .conn
                .prepare_cached(&multi_row_sql(prefix, N, 1))
                .map_err(self.err(action))?;
            for row in chunks.remainder() {
                one.execute(rusqlite::params_from_iter(row.iter()))
                    .map_err(self.err(action))?;
            }
        }
        Ok(())
    }

    /// Inserts a sealed batch: blocks, the index segment (then merges small segments), nodes
    /// and coverage pages.
    fn insert_sealed(&self, sealed: &Sealed) -> Result<(), StoreError> {
        for b in &sealed.blocks {
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
            )?;
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
                self.merge_fan_in,
                self.merge_small_writes,
                self.page_bytes,
            )?;
        }
        let nodes = &sealed.nodes;
        for (first, last, data) in &sealed.node_pages {
            self.exec(
                "storing nodes",
                "INSERT INTO node_pages(first, last, data) VALUES (?1, ?2, ?3)",
                params![first.0, last.0, data],
            )?;
        }
        for (parent, chunk, count, data) in &nodes.chunks {
            self.exec(
                "storing the children of a node",
                "INSERT OR REPLACE INTO node_children(parent, chunk, count, data) VALUES (?1, ?2, ?3, ?4)",
                params![parent.0, chunk, count, data],
            )?;
        }
        for (node, exit, outcome) in &nodes.ends {
            self.exec(
                "storing the end of a node",
                "INSERT OR REPLACE INTO node_ends(id, exit_ts, outcome) VALUES (?1, ?2, ?3)",
                params![node.0, *exit as i64, outcome.map(|o| o as i64)],
            )?;
        }
        for (first, last, data) in &sealed.coverage {
            self.exec(
                "storing coverage",
                "INSERT INTO coverage_pages(first_node, last_node, data) VALUES (?1, ?2, ?3)",
                params![first.0, last.0, data],
            )?;
        }
        Ok(())
    }

    fn set_meta(&self, key: &str, value: impl rusqlite::ToSql) -> Result<(), StoreError> {
        self.exec(
            "writing meta",
            "INSERT OR REPLACE INTO meta VALUES (?1, ?2)",
            params![key, value],
        )
    }

    fn write_counts(&self, c: &WriteCounts) -> Result<(), StoreError> {
        self.set_meta("events", c.events as i64)?;
        self.set_meta("nodes", c.nodes as i64)?;
        self.set_meta("complete_nodes", c.complete_nodes as i64)?;
        self.set_meta("warnings", c.warnings as i64)?;
        self.set_meta("last_ts", c.last_ts as i64)
    }

    /// The last commit: its rows (the trace's ending in `meta` among them) and the final
    /// counts; then leaves a single self-contained file (no WAL) when no reader holds it open.
    pub fn finish(&mut self, last: Commit, counts: &WriteCounts) -> Result<(), StoreError> {
        self.store(last)?;
        // The counts of the finished trace (warnings may have come after the last batch).
        self.write_counts(counts)?;
        self.conn
            .execute_batch("COMMIT")
            .map_err(self.err("committing"))?;
        // Fails harmlessly when a reader is attached: the file then keeps its WAL until closed.
        let _ = self
            .conn
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;");
        Ok(())
    }
}

/// Rows per multi-row insert.
const BATCH_ROWS: usize = 128;

/// The pool that seals commits on `threads` threads (`None` for one, or if none can start:
/// then commits are sealed on the store's own thread).
fn sealing_pool(threads: usize) -> Option<rayon::ThreadPool> {
    (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("hindsight-seal-{i}"))
                .build()
                .ok()
        })
        .flatten()
}

/// `prefix` followed by `rows` groups of `columns` anonymous parameters.
fn multi_row_sql(prefix: &str, columns: usize, rows: usize) -> String {
    let group = format!("({})", vec!["?"; columns].join(","));
    let mut sql = String::from(prefix);
    sql.push_str(&vec![group; rows].join(","));
    sql
}

/// What the commit thread is asked to do.
enum Job {
    Store(Commit),
    Finish(Commit, WriteCounts),
    /// Lower this thread and the sealing pool's (no reply).
    RunBehind,
    /// Carry on at the priority the thread started with (no reply).
    Lift,
}

/// The store thread's loop: takes jobs in order until the writer hangs up or a commit fails.
/// Lifted, it goes on on its `successor`'s thread (whose priority it was started with).
fn serve(
    mut committer: Committer,
    jobs: Receiver<Job>,
    done: Sender<Result<(), StoreError>>,
    mut successor: Option<Successor>,
) {
    while let Ok(job) = jobs.recv() {
        let r = match job {
            Job::Store(c) => committer.store(c),
            Job::Finish(c, counts) => committer.finish(c, &counts),
            Job::RunBehind => {
                committer.run_behind_the_program();
                behind_the_program();
                continue;
            }
            Job::Lift => {
                if let Some(successor) = successor.take() {
                    return successor.carry_on(move || {
                        committer.lift();
                        serve(committer, jobs, done, None)
                    });
                }
                continue;
            }
        };
        let failed = r.is_err();
        if done.send(r).is_err() || failed {
            return;
        }
    }
}

/// A `Committer` on a thread of its own, taking commits in order.
pub struct CommitThread {
    path: PathBuf,
    jobs: Option<SyncSender<Job>>,
    done: Receiver<Result<(), StoreError>>,
    thread: Option<JoinHandle<()>>,
    /// Commits handed over and not stored yet.
    inflight: usize,
    /// The thread stopped after an error (which was returned once).
    failed: bool,
}

impl CommitThread {
    /// Starts the thread; a `successor` carries on its work once it is lifted (`lift`).
    pub fn start(
        committer: Committer,
        successor: Option<Successor>,
    ) -> Result<CommitThread, StoreError> {
        let path = committer.path.clone();
        let (jobs, rx) = std::sync::mpsc::sync_channel::<Job>(2);
        let (tx, done) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("hindsight-store".into())
            .spawn(move || serve(committer, rx, tx, successor))
            .map_err(|source| StoreError::Io {
                path: path.clone(),
                action: "starting the store's thread",
                source,
            })?;
        Ok(CommitThread {
            path,
            jobs: Some(jobs),
            done,
            thread: Some(thread),
            inflight: 0,
            failed: false,
        })
    }

    fn stopped(&self) -> StoreError {
        StoreError::Stopped {
            path: self.path.clone(),
        }
    }

    fn send(&mut self, job: Job) -> Result<(), StoreError> {
        if self.failed {
            return Err(self.stopped());
        }
        let sent = self.jobs.as_ref().is_some_and(|j| j.send(job).is_ok());
        if !sent {
            // The thread ended: its error, if it sent one, says why.
            self.wait_all()?;
            return Err(self.stopped());
        }
        self.inflight += 1;
        Ok(())
    }

    /// The result of the oldest commit handed over, waiting for it.
    fn wait_one(&mut self) -> Result<(), StoreError> {
        let r = match self.done.recv() {
            Ok(r) => r,
            Err(_) => Err(self.stopped()),
        };
        self.inflight = self.inflight.saturating_sub(1);
        self.failed |= r.is_err();
        r
    }

    /// Waits until every commit handed over is stored.
    pub fn wait_all(&mut self) -> Result<(), StoreError> {
        while self.inflight > 0 {
            self.wait_one()?;
        }
        Ok(())
    }

    /// Hands a commit over; first waits while `keep` or more are still being stored.
    pub fn store(&mut self, commit: Commit, keep: usize) -> Result<(), StoreError> {
        while self.inflight >= keep.max(1) {
            self.wait_one()?;
        }
        self.send(Job::Store(commit))
    }

    /// Moves the thread and its sealing pool behind the program, after the commits handed over
    /// before. A stopped thread is left alone: its error comes with the next commit.
    pub fn run_behind_the_program(&mut self) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(Job::RunBehind);
        }
    }

    /// Moves the thread and its sealing pool back to the priority they started with, after the
    /// commits handed over before: the program has ended (`trace::priority`).
    pub fn lift(&mut self) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(Job::Lift);
        }
    }

    /// Whether a commit handed over was stored since the last call (without waiting).
    pub fn poll(&mut self) -> Result<bool, StoreError> {
        let mut any = false;
        while self.inflight > 0 {
            match self.done.try_recv() {
                Ok(r) => {
                    self.inflight -= 1;
                    self.failed |= r.is_err();
                    r?;
                    any = true;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.inflight = 0;
                    self.failed = true;
                    return Err(self.stopped());
                }
            }
        }
        Ok(any)
    }

    /// The last commit and the end of the trace; waits for the thread to end.
    pub fn finish(mut self, last: Commit, counts: WriteCounts) -> Result<(), StoreError> {
        self.wait_all()?;
        self.send(Job::Finish(last, counts))?;
        self.wait_all()?;
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        Ok(())
    }
}

impl Drop for CommitThread {
    fn drop(&mut self) {
        // Lets the thread store what it was given, then end (a recording that stopped on an
        // error keeps its last commits).
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
