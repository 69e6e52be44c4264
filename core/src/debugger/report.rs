//! The end of a session as people read it: the buggy node's method, its source file, and the
//! lines that this call executed itself (the dynamic buggy code of the generalized-AD paper:
//! the code the buggy node ran minus what its children ran).

use serde::Serialize;

use super::DebugError;
use crate::ids::NodeId;
use crate::omniscient::names::MethodNames;
use crate::session::Verdict;
use crate::trace::store::TraceReader;
use crate::tree::ExecutionTree;

/// The node whose method holds the bug.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BuggyNode {
    pub id: NodeId,
    /// `pkg.Class.method`.
    pub method: String,
    /// The source file as the class names it (`MergeSort.java`), if known.
    pub file: Option<String>,
    /// The source lines this call executed itself, sorted.
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
}

fn describe(
    reader: &TraceReader,
    names: &mut MethodNames,
    tree: &ExecutionTree,
    node: NodeId,
) -> Result<BuggyNode, DebugError> {
    if tree.kind(node).is_question() && !tree.kind(node).is_call() {
        let (method, file, lines) = super::forest::describe_in(reader, names, tree, node)?;
        return Ok(BuggyNode {
            id: node,
            method,
            file,
            lines,
        });
    }
    let row = reader.node(node)?;
    let (method, file) = match row.and_then(|r| r.header.method) {
        Some(m) => match names.get(reader, m)? {
            Some(n) => (n.qualified.clone(), n.source_file.clone()),
            None => (format!("#{m}"), None),
        },
        None => (String::new(), None),
    };
    Ok(BuggyNode {
        id: node,
        method,
        file,
        lines: reader.node_lines(node)?,
    })
}

pub fn report(
    reader: &TraceReader,
    names: &mut MethodNames,
    tree: &ExecutionTree,
    verdict: &Verdict,
) -> Result<Report, DebugError> {
    Ok(match verdict {
        Verdict::Bug { node } => Report {
            result: "bug",
            buggy_node: Some(describe(reader, names, tree, *node)?),
            candidates: Vec::new(),
        },
        Verdict::NoBug => Report {
            result: "no-bug",
            buggy_node: None,
            candidates: Vec::new(),
        },
        Verdict::Undecided { candidates } => Report {
            result: "undecided",
            buggy_node: None,
            candidates: candidates
                .iter()
                .map(|&c| describe(reader, names, tree, c))
                .collect::<Result<_, _>>()?,
        },
    })
}
