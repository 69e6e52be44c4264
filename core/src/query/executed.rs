//! `executed FILE:LINE`: was a source line run, how often, by which calls (JavaTA's "was a
//! given statement executed"). The methods of the classes compiled from FILE whose line range
//! holds LINE are found in the definitions; their `LINE` events (and the blocks that start a
//! line) are then counted in one scan of the history (or of `--from/--to`).

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use super::error::{QueryError, QueryResult};
use super::methods::all_methods;
use super::scan::{scan, ProgressFn, ScanProgress, Span};
use crate::ids::{MethodId, NodeId, Timestamp};
use crate::omniscient::names::Names;
use crate::trace::store::TraceReader;
use crate::trace::wire::EventKind;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineRun {
    /// The call that ran the line.
    pub node: NodeId,
    pub method: String,
    pub thread: String,
    /// How often this call ran it, and the first time.
    pub count: u64,
    pub first: Timestamp,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Executed {
    pub file: String,
    pub line: u32,
    /// The methods whose lines hold LINE.
    pub methods: Vec<String>,
    pub executed: bool,
    /// Times control reached the line.
    pub count: u64,
    pub first: Option<Timestamp>,
    pub last: Option<Timestamp>,
    /// Calls that ran it, in call order, the first `--limit` of them.
    pub calls: Vec<LineRun>,
    /// Calls that ran it in all.
    pub total_calls: u64,
    pub scanned: ScanProgress,
}

/// Splits `FILE:LINE`.
pub fn parse_line(text: &str) -> QueryResult<(String, u32)> {
    let bad = || QueryError::Syntax {
        what: "source line",
        text: text.into(),
        problem: "write FILE:LINE, e.g. Example.java:14".into(),
    };
    let (file, line) = text.rsplit_once(':').ok_or_else(bad)?;
    let line: u32 = line.trim().parse().map_err(|_| bad())?;
    if file.is_empty() || line == 0 {
        return Err(bad());
    }
    Ok((file.to_string(), line))
}

/// Whether a class compiled from `source_file` is the one `file` names (its base name, and the
/// package path when `file` has directories: `src/pkg/A.java` is `pkg.A`'s).
fn same_file(file: &str, source_file: &str, class: &str) -> bool {
    let (dirs, base) = match file.rsplit_once('/') {
        Some((d, b)) => (Some(d), b),
        None => (None, file),
    };
    if base != source_file {
        return false;
    }
    match (dirs, class.rsplit_once('.')) {
        (Some(d), Some((package, _))) => {
            let p = package.replace('.', "/");
            d == p || d.ends_with(&format!("/{p}"))
        }
        (Some(_), None) => true,
        (None, _) => true,
    }
}

pub fn executed(
    reader: &TraceReader,
    location: &str,
    span: Span,
    limit: usize,
    progress: Option<ProgressFn<'_>>,
) -> QueryResult<Executed> {
    let (file, line) = parse_line(location)?;
    let in_file: Vec<_> = all_methods(reader)?
        .into_iter()
        .filter(|m| same_file(&file, &m.source_file, &m.class))
        .collect();
    if in_file.is_empty() {
        return Err(QueryError::NotFound(format!(
            "no class of this trace was compiled from `{file}` (the file name as javac saw it, e.g. Example.java, or with its package path)"
        )));
    }
    let holding: Vec<_> = in_file
        .iter()
        .filter(|m| m.first_line <= line && (line <= m.last_line || m.last_line == 0))
        .filter(|m| m.first_line > 0)
        .collect();
    if holding.is_empty() {
        let lo = in_file
            .iter()
            .filter(|m| m.first_line > 0)
            .map(|m| m.first_line)
            .min();
        let hi = in_file.iter().map(|m| m.last_line).max();
        return Err(QueryError::NotFound(format!(
            "no method of `{file}` has code on line {line} (its methods span lines {}-{})",
            lo.unwrap_or(0),
            hi.unwrap_or(0)
        )));
    }
    let ids: HashSet<MethodId> = holding.iter().map(|m| m.id).collect();
    let mut runs: BTreeMap<NodeId, (u64, Timestamp)> = BTreeMap::new();
    let (mut count, mut first, mut last) = (0u64, None, None);
    let scanned = scan(reader, span, progress, |s| {
        let l = match s.event.event.kind {
            EventKind::Line(l) | EventKind::Block { line: l, .. } => l,
            _ => return Ok(true),
        };
        if l != line {
            return Ok(true);
        }
        let Some(top) = s.stack.last() else {
            return Ok(true);
        };
        if !top.method.is_some_and(|m| ids.contains(&m)) {
            return Ok(true);
        }
        let ts = s.event.event.ts;
        count += 1;
        first.get_or_insert(ts);
        last = Some(ts);
        let r = runs.entry(top.node).or_insert((0, ts));
        r.0 += 1;
        Ok(true)
    })?;
    let mut names = Names::new(reader);
    let mut calls = Vec::new();
    for (&node, &(n, first)) in runs.iter().take(limit) {
        let (method, _) = names.node_place(node)?;
        calls.push(LineRun {
            node,
            method: method.unwrap_or_default(),
            thread: names.node_thread(node)?.unwrap_or_default(),
            count: n,
            first,
        });
    }
    Ok(Executed {
        file,
        line,
        methods: holding.iter().map(|m| m.qualified.clone()).collect(),
        executed: count > 0,
        count,
        first,
        last,
        calls,
        total_calls: runs.len() as u64,
        scanned,
    })
}
