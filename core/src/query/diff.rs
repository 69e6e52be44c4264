//! Comparing two runs (JavaTA's "dump & diff", section 4.3): the calls of two traces lined up
//! by what stays the same between runs, the call path with ordinals (`main#0 /
//! Example.main#0 / Example.m1#0 / FarAWayClass.doSomeThing#0`: the n-th call of a method among
//! its caller's calls; `loop#0 / iteration#2` for the calls made in a loop), never node ids or
//! timestamps; then the first calls whose arguments,
//! results or presence differ. Calls of output methods (`PrintStream.println`) are calls like
//! the others, so different output shows as their different arguments. And the same for any
//! built-in query: its answers on both traces, compared after leaving out what always differs
//! between runs (node ids, timestamps, object ids).
//!
//! Cost: the walk reads both trees by pages of children and each matched call's call and exit
//! events; it stops after `limit` differences.

use std::collections::HashMap;

use serde::Serialize;

use super::error::QueryResult;
use super::refs::{CallInfo, Calls};
use crate::ids::NodeId;
use crate::trace::store::{NodeRow, TraceReader};
use crate::tree::NodeKind;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallDiff {
    /// The call path, from the thread.
    pub path: String,
    /// `arguments`, `result` (value or exception), `only-in-a`, `only-in-b`.
    pub kind: String,
    pub a: Option<CallInfo>,
    pub b: Option<CallInfo>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunDiff {
    pub same: bool,
    /// Calls compared (lined up in both runs).
    pub compared: u64,
    /// The first `limit` differences in preorder.
    pub differences: Vec<CallDiff>,
    /// The walk stopped at `limit` differences: there may be more.
    pub stopped: bool,
}

/// Object ids differ between runs: `Node#12` becomes `Node#`.
pub fn without_ids(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '#' {
            while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                chars.next();
            }
        }
    }
    out
}

struct Side<'r> {
    reader: &'r TraceReader,
    calls: Calls<'r>,
}

impl Side<'_> {
    /// The children of `node`, each with its key: method (or thread) name and ordinal.
    fn children(&mut self, node: NodeId) -> QueryResult<Vec<(String, NodeRow)>> {
        let mut out = Vec::new();
        let mut seen: HashMap<String, u32> = HashMap::new();
        let mut offset = 0;
        loop {
            let page = self.reader.children(node, offset, 1024)?;
            if page.is_empty() {
                break;
            }
            offset += page.len() as u64;
            for row in page {
                let name = match (row.header.kind, row.header.method, row.header.thread) {
                    (NodeKind::Thread, _, Some(t)) => self.calls.names.thread(t)?,
                    (NodeKind::Loop, ..) => "loop".into(),
                    (NodeKind::Iteration, ..) => "iteration".into(),
                    (_, Some(m), _) => self.calls.names.qualified(m)?,
                    _ => "?".into(),
                };
                let n = seen.entry(name.clone()).or_insert(0);
                out.push((format!("{name}#{n}"), row));
                *n += 1;
            }
        }
        Ok(out)
    }
}

fn values(c: &CallInfo) -> (String, String) {
    let args: Vec<String> = c
        .receiver
        .iter()
        .chain(c.args.iter().map(|a| &a.shown))
        .map(|s| without_ids(&s.value))
        .collect();
    let result = format!(
        "{} {}",
        c.outcome.as_deref().unwrap_or("running"),
        c.result
            .as_ref()
            .map_or(String::new(), |r| without_ids(&r.value))
    );
    (args.join(", "), result)
}

/// Lines up the calls of two runs and reports the first `limit` differences.
pub fn diff_runs(a: &TraceReader, b: &TraceReader, limit: usize) -> QueryResult<RunDiff> {
    let mut sa = Side {
        reader: a,
        calls: Calls::new(a),
    };
    let mut sb = Side {
        reader: b,
        calls: Calls::new(b),
    };
    let mut out = RunDiff {
        same: true,
        compared: 0,
        differences: Vec::new(),
        stopped: false,
    };
    // Pairs still to compare, depth first (children pushed in reverse).
    let mut todo: Vec<(NodeId, NodeId, String)> = vec![(NodeId::ROOT, NodeId::ROOT, String::new())];
    while let Some((na, nb, path)) = todo.pop() {
        let ca = sa.children(na)?;
        let cb = sb.children(nb)?;
        let index: HashMap<&str, usize> = cb
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (k.as_str(), i))
            .collect();
        let mut matched = vec![false; cb.len()];
        let mut next = Vec::new();
        let mut found: Vec<CallDiff> = Vec::new();
        for (key, row) in &ca {
            let p = if path.is_empty() {
                key.clone()
            } else {
                format!("{path} / {key}")
            };
            let Some(&j) = index.get(key.as_str()) else {
                found.push(CallDiff {
                    path: p,
                    kind: "only-in-a".into(),
                    a: sa.calls.call(row.header.id, None)?,
                    b: None,
                });
                continue;
            };
            matched[j] = true;
            let rb = &cb[j].1;
            // Threads, loops and iterations are no calls: the calls below them are.
            if row.header.kind == NodeKind::Thread || row.header.kind.is_loop() {
                next.push((row.header.id, rb.header.id, p));
                continue;
            }
            let (Some(x), Some(y)) = (
                sa.calls.call(row.header.id, None)?,
                sb.calls.call(rb.header.id, None)?,
            ) else {
                continue;
            };
            out.compared += 1;
            let ((xa, xr), (ya, yr)) = (values(&x), values(&y));
            if xa != ya {
                found.push(CallDiff {
                    path: p.clone(),
                    kind: "arguments".into(),
                    a: Some(x.clone()),
                    b: Some(y.clone()),
                });
            } else if xr != yr {
                found.push(CallDiff {
                    path: p.clone(),
                    kind: "result".into(),
                    a: Some(x.clone()),
                    b: Some(y.clone()),
                });
            }
            next.push((row.header.id, rb.header.id, p));
        }
        for (j, (key, row)) in cb.iter().enumerate() {
            if !matched[j] {
                let p = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path} / {key}")
                };
                found.push(CallDiff {
                    path: p,
                    kind: "only-in-b".into(),
                    a: None,
                    b: sb.calls.call(row.header.id, None)?,
                });
            }
        }
        for d in found {
            out.same = false;
            if out.differences.len() >= limit {
                out.stopped = true;
                return Ok(out);
            }
            out.differences.push(d);
        }
        todo.extend(next.into_iter().rev());
    }
    Ok(out)
}

/// A difference between two answers of a query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueDiff {
    /// Where in the answer: `calls[0].result.value`.
    pub path: String,
    pub a: Option<serde_json::Value>,
    pub b: Option<serde_json::Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnswerDiff {
    pub same: bool,
    pub differences: Vec<ValueDiff>,
    pub a: serde_json::Value,
    pub b: serde_json::Value,
}

/// Keys that name a place in one run (nodes, events, objects) or a scan's cost: left out.
const RUN_SPECIFIC: &[&str] = &[
    "node",
    "caller",
    "call_event",
    "exit_event",
    "timestamp",
    "at",
    "created",
    "created_by",
    "first",
    "last",
    "object",
    "scanned",
    "start",
    "end",
    "variable",
];

/// An answer without what always differs between runs.
pub fn normalized(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        J::Object(m) => J::Object(
            m.iter()
                .filter(|(k, _)| !RUN_SPECIFIC.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), normalized(v)))
                .collect(),
        ),
        J::Array(a) => J::Array(a.iter().map(normalized).collect()),
        J::String(s) => J::String(without_ids(s)),
        other => other.clone(),
    }
}

fn compare(
    path: &str,
    a: Option<&serde_json::Value>,
    b: Option<&serde_json::Value>,
    out: &mut Vec<ValueDiff>,
) {
    use serde_json::Value as J;
    match (a, b) {
        (Some(J::Object(x)), Some(J::Object(y))) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                compare(&p, x.get(k), y.get(k), out);
            }
        }
        (Some(J::Array(x)), Some(J::Array(y))) => {
            for i in 0..x.len().max(y.len()) {
                compare(&format!("{path}[{i}]"), x.get(i), y.get(i), out);
            }
        }
        (x, y) if x != y => out.push(ValueDiff {
            path: path.to_string(),
            a: x.cloned(),
            b: y.cloned(),
        }),
        _ => {}
    }
}

/// Compares two answers of the same query on two runs.
pub fn diff_answers(a: &serde_json::Value, b: &serde_json::Value) -> AnswerDiff {
    let (na, nb) = (normalized(a), normalized(b));
    let mut differences = Vec::new();
    compare("", Some(&na), Some(&nb), &mut differences);
    AnswerDiff {
        same: differences.is_empty(),
        differences,
        a: a.clone(),
        b: b.clone(),
    }
}
