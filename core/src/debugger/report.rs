//! The end of a session as people read it: the buggy node's method, its source file, and the
//! lines that this node executed itself (the dynamic buggy code of the generalized-AD paper,
//! Lemma 1: the code the buggy node ran minus what its children ran, loops and iterations
//! included, so a call whose loops are right is reported with its code outside them), and
//! whether it is traceable (Definition 9).

use serde::Serialize;

use super::DebugError;
use crate::ids::NodeId;
use crate::omniscient::names::MethodNames;
use crate::session::{Session, Verdict};
use crate::trace::store::TraceReader;
use crate::tree::{ExecutionTree, NodeKind};
use std::collections::BTreeSet;

/// The node whose method holds the bug.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BuggyNode {
    pub id: NodeId,
    /// `routine`, `external`, `loop` or `iteration`.
    pub kind: NodeKind,
    /// `pkg.Class.method`.
    pub method: String,
    /// The source file as the class names it (`MergeSort.java`), if known.
    pub file: Option<String>,
    /// The source lines this node executed itself, sorted: not in its callees, not in its
    /// loops and iterations known to be right (those left don't-know keep theirs here).
    pub lines: Vec<u32>,
}

/// A verdict with what people need to see of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// `bug`, `no-bug` or `undecided`.
    pub result: &'static str,
    pub buggy_node: Option<BuggyNode>,
    /// With don't-know answers, the nodes that may be buggy.
    pub candidates: Vec<BuggyNode>,
    /// Whether the buggy node is traceable (Definition 9): every node above it answered
    /// invalid; `None` when some were never judged, or without a buggy node.
    pub traceable: Option<bool>,
}

fn describe(
    reader: &TraceReader,
    names: &mut MethodNames,
    tree: &ExecutionTree,
    node: NodeId,
) -> Result<BuggyNode, DebugError> {
    if matches!(tree.kind(node), NodeKind::Collapsed | NodeKind::Projected) {
        let (method, file, lines) = super::forest::describe_in(reader, names, tree, node)?;
        return Ok(BuggyNode {
            id: node,
            kind: tree.kind(node),
            method,
            file,
            lines,
        });
    }
    let row = reader.node(node)?;
    let (method, file) = match row.as_ref().and_then(|r| r.header.method) {
        Some(m) => match names.get(reader, m)? {
            Some(n) => (n.qualified.clone(), n.source_file.clone()),
            None => (format!("#{m}"), None),
        },
        None => (String::new(), None),
    };
    Ok(BuggyNode {
        id: node,
        kind: row.as_ref().map_or(NodeKind::Routine, |r| r.header.kind),
        method,
        file,
        lines: reader.node_lines(node)?,
    })
}

/// The report of `verdict`; `loops_left_out` when the session took no loop nodes in
/// (`--no-loops`): the loops of the buggy call's frame are then its own code.
pub fn report(
    reader: &TraceReader,
    names: &mut MethodNames,
    verdict: &Verdict,
    session: &Session,
    loops_left_out: bool,
) -> Result<Report, DebugError> {
    let tree = session.tree();
    Ok(match verdict {
        Verdict::Bug { node } => {
            let mut buggy = describe(reader, names, tree, *node)?;
            // Lemma 1 takes away only the code of children known to be right.
            let mut lines: BTreeSet<u32> = buggy.lines.iter().copied().collect();
            let open = if loops_left_out {
                frame_loops(reader, *node)?
            } else {
                session.open_loops(*node)
            };
            for open in open {
                lines.extend(reader.node_lines(open)?);
            }
            buggy.lines = lines.into_iter().collect();
            Report {
                result: "bug",
                buggy_node: Some(buggy),
                candidates: Vec::new(),
                traceable: session.traceable(*node),
            }
        }
        Verdict::NoBug => Report {
            result: "no-bug",
            buggy_node: None,
            candidates: Vec::new(),
            traceable: None,
        },
        Verdict::Undecided { candidates } => Report {
            result: "undecided",
            buggy_node: None,
            candidates: candidates
                .iter()
                .map(|&c| describe(reader, names, tree, c))
                .collect::<Result<_, _>>()?,
            traceable: None,
        },
    })
}

/// Every loop and iteration of `node`'s frame in the trace (nested ones included).
fn frame_loops(reader: &TraceReader, node: NodeId) -> Result<Vec<NodeId>, DebugError> {
    let mut out = Vec::new();
    let mut todo = vec![node];
    while let Some(x) = todo.pop() {
        for c in reader.loop_children(x)? {
            out.push(c.header.id);
            todo.push(c.header.id);
        }
    }
    Ok(out)
}
