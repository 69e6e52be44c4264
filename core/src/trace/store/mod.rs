//! The trace file: one SQLite database (schema in docs/trace-schema.md) written by
//! `TraceWriter` while the program runs and read by `TraceReader`, also while it is written.

mod block;
mod committer;
mod compact;
mod error;
mod index;
mod node_pages;
mod node_window;
mod reader;
pub mod schema;
mod seal;
mod writer;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use block::{decode_block, decode_stack, BlockEvent, StackEntry};
pub use error::StoreError;
pub use index::{decode_page as decode_index_page, IndexEntry, Key, Variable, Write};
pub use reader::{
    Argument, EventAt, NodeDetail, NodeEvent, NodeResult, ObjectInfo, Preorder, RawBlock,
    RawIndexPage, TraceInfo, TraceReader, Warning, LENGTH_SLOT,
};
pub use writer::{TraceWriter, WriterConfig};

use crate::ids::Timestamp;
use crate::tree::NodeHeader;

/// Counts kept while writing, stored in `meta` at each commit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteCounts {
    pub events: u64,
    pub nodes: u64,
    pub complete_nodes: u64,
    pub warnings: u64,
    pub last_ts: Timestamp,
}

/// Adds or replaces a `meta` entry of a finished trace (a front end's own figures, such as
/// `peak_rss_bytes`, known only after the recording).
pub fn annotate(
    path: &std::path::Path,
    key: &str,
    value: impl rusqlite::ToSql,
) -> Result<(), StoreError> {
    TraceReader::open(path)?;
    let conn = rusqlite::Connection::open(path)
        .map_err(|e| StoreError::sqlite(path, "opening the trace", e))?;
    conn.execute(
        "INSERT OR REPLACE INTO meta VALUES (?1, ?2)",
        rusqlite::params![key, value],
    )
    .map_err(|e| StoreError::sqlite(path, "writing meta", e))?;
    Ok(())
}

/// How a call node ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Returned,
    Threw,
}

/// A node as stored: its header plus what the store adds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeRow {
    pub header: NodeHeader,
    /// Depth in its thread: the thread node is 0, a top-level call 1 (0 for the root too).
    pub depth: u32,
    /// `None` while incomplete, and for the root and thread nodes.
    pub outcome: Option<Outcome>,
}

/// How the recorded stream ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "ending", rename_all = "kebab-case")]
pub enum Ending {
    /// With an `END` frame: the JVM shut down.
    End { exit_status: i64 },
    /// Without `END` (the JVM or the connection was killed); everything before is kept.
    Truncated { detail: String },
    /// A malformed frame stopped the recording; everything before is kept.
    Malformed { detail: String },
}
