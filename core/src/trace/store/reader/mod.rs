//! Reads a trace file, also while the recorder is still writing it (WAL): nodes, definitions,
//! events of a node and values of variables at any timestamp.

mod coverage;
mod defs;
mod events;
mod nodes;
mod scan;
mod values;

use std::cell::RefCell;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::error::StoreError;
use super::schema::{APPLICATION_ID, FORMAT_VERSION, OLDEST_READABLE_VERSION};

pub use events::{EventAt, NodeEvent};
pub use nodes::{Argument, NodeDetail, NodeResult, Preorder};
pub use scan::{RawBlock, RawIndexPage};
pub use values::{ObjectInfo, LENGTH_SLOT};

/// What a trace knows of its recording (`meta` table).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceInfo {
    pub format_version: i64,
    /// `recording` (being written, or the recorder was killed), `complete`, `truncated` (the
    /// program was killed) or `malformed` (a broken stream stopped the recording).
    pub status: String,
    pub events: u64,
    pub nodes: u64,
    pub complete_nodes: u64,
    pub warnings: u64,
    pub last_ts: u64,
    pub wall_ms: Option<u64>,
    pub exit_status: Option<i64>,
    pub ending_detail: Option<String>,
    pub pid: Option<u64>,
    pub start_ms: Option<u64>,
    pub vm: Option<String>,
    pub command: Option<String>,
    pub agent_version: Option<String>,
    /// Size of the trace file (and its WAL) in bytes.
    pub bytes: u64,
    /// Peak resident memory of the recording process, when its front end stored it
    /// (`annotate(path, "peak_rss_bytes", ..)`).
    pub peak_rss_bytes: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    pub ts: Option<u64>,
    /// `agent` or `recorder`.
    pub source: String,
    pub message: String,
}

#[derive(Clone, Copy, Debug)]
struct Segment {
    id: i64,
    first_ts: u64,
    last_ts: u64,
}

/// A read-only view of a trace file.
pub struct TraceReader {
    conn: Connection,
    /// The file's format version.
    version: i64,
    path: PathBuf,
    /// Index segments, newest `last_ts` first; reloaded when new ones were committed.
    segments: RefCell<(i64, Vec<Segment>)>,
    /// Decoded event blocks, by id (paging through events decodes each block once; the oracle
    /// walks the subtree of calls near each other).
    block_cache: RefCell<BlockCache>,
    /// Whether the connection holds one read transaction for its whole life (a finished
    /// trace, see [`TraceReader::open`]).
    held: bool,
    /// Definitions read again and again (see `defs`).
    defs: RefCell<defs::DefCache>,
    /// Decoded pages of the change index, by segment and page start.
    page_cache: RefCell<Lru<PageKey, Arc<Vec<super::index::IndexEntry>>>>,
    /// The start keys of each index segment's pages, once read (held readers only).
    index_starts: RefCell<std::collections::HashMap<i64, Arc<Vec<Vec<u8>>>>>,
    /// The event blocks of each thread, by `last_ts`, once read (held readers only).
    blocks: RefCell<Option<std::collections::HashMap<crate::ids::ThreadId, Arc<Vec<BlockRef>>>>>,
    /// The last node pages decoded (see `nodes::NodePageCache`).
    node_pages: RefCell<nodes::NodePageCache>,
}

/// Where an event block lies: its thread's events from `first_ts` to `last_ts`, none of them
/// shallower than `min_depth`.
#[derive(Clone, Copy, Debug)]
struct BlockRef {
    id: i64,
    first_ts: u64,
    last_ts: u64,
    min_depth: u32,
}

/// A change index page: its segment and its start key.
type PageKey = (i64, Vec<u8>);

/// A small cache that forgets the entry used least recently.
pub(crate) struct Lru<K, V> {
    entries: std::collections::HashMap<K, (V, u64)>,
    tick: u64,
    capacity: usize,
}

impl<K: std::hash::Hash + Eq + Clone, V: Clone> Lru<K, V> {
    pub(crate) fn new(capacity: usize) -> Self {
        Lru {
            entries: std::collections::HashMap::new(),
            tick: 0,
            capacity,
        }
    }

    pub(crate) fn get(&mut self, key: &K) -> Option<V> {
        self.tick += 1;
        let tick = self.tick;
        self.entries.get_mut(key).map(|(v, t)| {
            *t = tick;
            v.clone()
        })
    }

    pub(crate) fn put(&mut self, key: K, value: V) {
        if self.entries.len() >= self.capacity {
            // A scan: the capacity is small.
            if let Some(old) = self
                .entries
                .iter()
                .min_by_key(|(_, (_, t))| *t)
                .map(|(k, _)| k.clone())
            {
                self.entries.remove(&old);
            }
        }
        self.tick += 1;
        self.entries.insert(key, (value, self.tick));
    }
}

const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Decoded change index pages kept (a page is a few KiB decoded).
const PAGE_CACHE: usize = 256;
/// Decoded event blocks kept.
const BLOCK_CACHE: usize = 16;
/// Decoded events kept by a held reader. The reference oracle sweeps over the calls of one
/// method after another, each sweep over blocks all over the run: one decoding of a run of
/// about 10^6 events instead of one per sweep. A decoded event with its values takes about
/// 100-200 bytes, and the oracle holds two readers: with 2 * 2^20 each, a session on jsoup
/// (8 * 10^6 events) peaked at 566 MB, over the 512 MiB budget (400 MB with 2^20).
const BLOCK_CACHE_HELD_EVENTS: usize = 1 << 20;

/// Decoded event blocks by id. A reader paging through events wants the last few (least
/// recently used go first); a held reader keeps many and, when full, forgets an arbitrary
/// one, so that sweeps over more blocks than it holds still find most of them (least
/// recently used would forget each block just before the next sweep needs it).
#[derive(Default)]
struct BlockCache {
    blocks: Lru<i64, Arc<Vec<super::block::BlockEvent>>>,
    events: usize,
    /// Sizes of the blocks held, for a held reader.
    sizes: std::collections::HashMap<i64, usize>,
}

impl Default for Lru<i64, Arc<Vec<super::block::BlockEvent>>> {
    fn default() -> Self {
        Lru::new(BLOCK_CACHE)
    }
}

impl BlockCache {
    fn get(&mut self, id: i64) -> Option<Arc<Vec<super::block::BlockEvent>>> {
        self.blocks.get(&id)
    }

    fn put(&mut self, id: i64, events: Arc<Vec<super::block::BlockEvent>>, held: bool) {
        if !held {
            self.blocks.put(id, events);
            return;
        }
        while self.events + events.len() > BLOCK_CACHE_HELD_EVENTS {
            let Some(&old) = self.sizes.keys().next() else {
                break;
            };
            self.events -= self.sizes.remove(&old).unwrap_or(0);
            self.blocks.entries.remove(&old);
        }
        self.events += events.len();
        self.sizes.insert(id, events.len());
        self.blocks.entries.insert(id, (events, 0));
    }
}

impl TraceReader {
    /// Opens a trace read-only, checking that it is a trace of this format version.
    pub fn open(path: &Path) -> Result<TraceReader, StoreError> {
        let io = |action, source| StoreError::Io {
            path: path.into(),
            action,
            source,
        };
        let mut file = std::fs::File::open(path).map_err(|e| io("opening the trace", e))?;
        let mut header = [0u8; 16];
        let mut n = 0;
        while n < 16 {
            match file
                .read(&mut header[n..])
                .map_err(|e| io("reading the trace", e))?
            {
                0 => break,
                k => n += k,
            }
        }
        if n == 0 {
            return Err(StoreError::NotATrace {
                path: path.into(),
                detail: "the file is empty".into(),
            });
        }
        if n < 16 || &header != SQLITE_HEADER {
            return Err(StoreError::NotATrace {
                path: path.into(),
                detail: "not an SQLite database".into(),
            });
        }
        let file_len = file
            .metadata()
            .map_err(|e| io("reading the trace", e))?
            .len();
        drop(file);
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .map_err(|e| StoreError::sqlite(path, "opening the trace", e))?;
        let sq = |action| move |e| StoreError::sqlite(path, action, e);
        let app: i32 = conn
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .map_err(sq("reading the header"))?;
        if app != APPLICATION_ID {
            return Err(StoreError::NotATrace {
                path: path.into(),
                detail: format!("an SQLite database with application_id {app:#x}, a trace has {APPLICATION_ID:#x}"),
            });
        }
        let version: Option<i64> = conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'format_version'",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(sq("reading the format version"))?;
        let Some(version) = version else {
            return Err(StoreError::Corrupt {
                path: path.into(),
                detail: "no format_version in meta".into(),
            });
        };
        if !(OLDEST_READABLE_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(StoreError::WrongVersion {
                path: path.into(),
                found: version,
                oldest: OLDEST_READABLE_VERSION,
                supported: FORMAT_VERSION,
            });
        }
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        if !Path::new(&wal).exists() {
            let pages: u64 = conn
                .query_row("PRAGMA page_count", [], |r| r.get(0))
                .map_err(sq("reading the header"))?;
            let size: u64 = conn
                .query_row("PRAGMA page_size", [], |r| r.get(0))
                .map_err(sq("reading the header"))?;
            if pages * size > file_len {
                return Err(StoreError::Corrupt {
                    path: path.into(),
                    detail: format!(
                        "the file has {file_len} bytes but its header says {}",
                        pages * size
                    ),
                });
            }
        }
        Ok(TraceReader {
            conn,
            version,
            path: path.into(),
            segments: RefCell::new((-1, Vec::new())),
            held: false,
            defs: RefCell::new(defs::DefCache::default()),
            page_cache: RefCell::new(Lru::new(PAGE_CACHE)),
            block_cache: RefCell::new(BlockCache::default()),
            node_pages: RefCell::default(),
            blocks: RefCell::new(None),
            index_starts: RefCell::default(),
        })
    }

    /// [`TraceReader::open`] for a session over a trace that nothing will write any more (a
    /// reference run, a finished trace being debugged): when the trace is finished, the
    /// connection takes SQLite's shared lock once and keeps it in one read transaction, instead
    /// of taking and dropping it (file locks, a check of the file's change counter) around each
    /// of the oracle's and renderer's many small queries. A trace still being written
    /// (`recording`) is read query by query, so that each query sees the recorder's latest
    /// commit. The lock keeps writers out as long as the reader lives: this process must not
    /// write the trace meanwhile (`annotate` after a recording), which is why plain `open`
    /// does not hold.
    pub fn open_finished(path: &Path) -> Result<TraceReader, StoreError> {
        let mut reader = Self::open(path)?;
        reader.hold_if_finished()?;
        Ok(reader)
    }

    fn hold_if_finished(&mut self) -> Result<(), StoreError> {
        if self.meta("status")?.is_none_or(|s| s == "recording") {
            return Ok(());
        }
        self.conn
            .execute_batch("BEGIN DEFERRED")
            .and_then(|_| {
                self.conn
                    .query_row("SELECT count(*) FROM meta", [], |r| r.get::<_, i64>(0))
            })
            .map_err(|e| StoreError::sqlite(&self.path, "starting a read transaction", e))?;
        self.held = true;
        Ok(())
    }

    /// Whether the reader holds its read transaction: the trace is finished and every value
    /// read from it may be cached.
    pub fn is_held(&self) -> bool {
        self.held
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn err(&self, action: &'static str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
        move |e| StoreError::sqlite(&self.path, action, e)
    }

    pub(crate) fn corrupt(&self, what: &str, problem: impl std::fmt::Display) -> StoreError {
        StoreError::Corrupt {
            path: self.path.clone(),
            detail: format!("{what}: {problem}"),
        }
    }

    /// A `meta` value as text, `None` when absent or NULL.
    pub fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        let v: Option<Option<rusqlite::types::Value>> = self
            .conn
            .prepare_cached("SELECT value FROM meta WHERE key = ?1")
            .and_then(|mut s| s.query_row([key], |r| r.get(0)).optional())
            .map_err(self.err("reading meta"))?;
        Ok(match v.flatten() {
            None | Some(rusqlite::types::Value::Null) => None,
            Some(rusqlite::types::Value::Integer(i)) => Some(i.to_string()),
            Some(rusqlite::types::Value::Real(f)) => Some(f.to_string()),
            Some(rusqlite::types::Value::Text(t)) => Some(t),
            Some(rusqlite::types::Value::Blob(b)) => Some(String::from_utf8_lossy(&b).into_owned()),
        })
    }

    pub fn info(&self) -> Result<TraceInfo, StoreError> {
        let num = |k: &str| -> Result<Option<u64>, StoreError> {
            Ok(self.meta(k)?.and_then(|v| v.parse().ok()))
        };
        let mut bytes = std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0);
        let mut wal = self.path.as_os_str().to_owned();
        wal.push("-wal");
        bytes += std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
        Ok(TraceInfo {
            format_version: self.version,
            status: self.meta("status")?.unwrap_or_else(|| "recording".into()),
            events: num("events")?.unwrap_or(0),
            nodes: num("nodes")?.unwrap_or(0),
            complete_nodes: num("complete_nodes")?.unwrap_or(0),
            warnings: num("warnings")?.unwrap_or(0),
            last_ts: num("last_ts")?.unwrap_or(0),
            wall_ms: num("wall_ms")?,
            exit_status: self.meta("exit_status")?.and_then(|v| v.parse().ok()),
            ending_detail: self.meta("ending_detail")?,
            pid: num("pid")?,
            start_ms: num("start_ms")?,
            vm: self.meta("vm")?,
            command: self.meta("command")?,
            agent_version: self.meta("agent_version")?,
            bytes,
            peak_rss_bytes: num("peak_rss_bytes")?,
        })
    }

    pub fn warnings(&self) -> Result<Vec<Warning>, StoreError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT ts, source, message FROM warnings ORDER BY id")
            .map_err(self.err("reading warnings"))?;
        let rows = st
            .query_map([], |r| {
                Ok(Warning {
                    ts: r.get::<_, Option<i64>>(0)?.map(|t| t as u64),
                    source: r.get(1)?,
                    message: r.get(2)?,
                })
            })
            .map_err(self.err("reading warnings"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.err("reading warnings"))
    }
}
