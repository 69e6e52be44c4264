//! A variable's history (jhyde's Variable History view): every change of one variable over the
//! whole run, from the per-variable change index, each with the node, method and `file:line`
//! that wrote it.

use serde::{Deserialize, Serialize};

use super::error::OmniResult;
use super::names::Names;
use super::path::VarPath;
use super::render::{render_value, RenderLimits};
use super::resolve::{default_time, resolve};
use super::Variable;
use crate::ids::{NodeId, Timestamp};
use crate::trace::store::TraceReader;

/// One change of a variable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    pub value: String,
    pub timestamp: Timestamp,
    /// The node whose code wrote the value (for an argument, the caller).
    pub node: Option<NodeId>,
    pub method: Option<String>,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub thread: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct History {
    pub path: String,
    /// The timestamp the path was resolved at.
    pub at: Timestamp,
    pub variable: Variable,
    /// Number of changes over the whole run.
    pub total: usize,
    /// Index of the first entry listed.
    pub offset: usize,
    pub entries: Vec<HistoryEntry>,
}

/// The changes `offset..offset + limit` (all when `limit` is `None`) of the variable `path`
/// names at `at` (by default a local's node's exit, or the end of the run), in time order.
///
/// Everything comes from the change index, which keeps the writing node and line beside each
/// write: a full history reads the variable's index pages and one node row per writing node,
/// never the event blocks.
pub fn history(
    reader: &TraceReader,
    path: &VarPath,
    at: Option<Timestamp>,
    offset: usize,
    limit: Option<usize>,
    limits: RenderLimits,
) -> OmniResult<History> {
    let at = match at {
        Some(t) => t,
        None => default_time(reader, path)?,
    };
    let variable = resolve(reader, path, at)?.variable;
    let mut names = Names::new(reader);
    let mut entries = Vec::new();
    let writes = reader.history(variable)?;
    let total = writes.len();
    for w in writes
        .into_iter()
        .skip(offset)
        .take(limit.unwrap_or(usize::MAX))
    {
        let value = render_value(reader, &w.value, w.ts, limits)?;
        let (method, file) = names.node_place(w.node)?;
        entries.push(HistoryEntry {
            value,
            timestamp: w.ts,
            node: Some(w.node),
            method,
            file,
            line: (w.line > 0).then_some(w.line),
            thread: names.node_thread(w.node)?,
        });
    }
    Ok(History {
        path: path.to_string(),
        at,
        variable,
        total,
        offset,
        entries,
    })
}
